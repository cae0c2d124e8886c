"""Benchmark: the pictures for chat, what `arbo render` writes for the 4-player sample.

Run ``python bench/bench_pictures.py``. It prints, for samples/four-players.arb (36 turns):

- the scored end as PNG at --scale 2 and 1: the time resvg takes (median of 5) and the size;
- the whole game as an animation (--game-animation: 37 positions and the scoring) as GIF, WebP
  and APNG: the time, the size and the frame size, against the few megabytes chats accept
  (Discord 10 MB, WhatsApp 16 MB as a GIF, Signal and iMessage more).

The figures are of this machine; compare them within one run.
"""

from __future__ import annotations

import io
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image

from arbo_notation.present.navigation import ReplayModel
from arbo_notation.share.raster import LAST_MS, TURN_MS, Frame, Motion, animation_of, png_of
from arbo_notation.share.svg import position_diagram, render_diagram
from arbo_notation.game.tree import load_tree
from arbo_notation.notation.reading.reader import parse_all

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "four-players.arb"
RUNS = 5


def model() -> ReplayModel:
    text = SAMPLE.read_text(encoding="utf-8")
    return ReplayModel(load_tree(parse_all(text, str(SAMPLE)).games[0], text.split("\n")))


def timed(action, runs: int = RUNS):
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    replay = model()
    replay.end()
    end = render_diagram(position_diagram(replay, scored=True))
    print(f"{SAMPLE.name}: {replay.turns_played} turns, 4 players")
    for scale in (2, 1):
        seconds, png = timed(lambda scale=scale: png_of(end, scale))
        width, height = Image.open(io.BytesIO(png)).size
        print(f"  PNG --scale {scale}: {seconds * 1000:.0f} ms, {len(png) / 1000:.0f} kB, {width}x{height} px")
    frames = []
    for number in range(replay.turns_played + 1):
        replay.goto(number)
        frames.append(Frame(render_diagram(position_diagram(replay)), TURN_MS))
    frames.append(Frame(end, LAST_MS))
    for motion in Motion:
        seconds, data = timed(lambda motion=motion: animation_of(frames, motion), runs=1)
        size = Image.open(io.BytesIO(data)).size
        print(
            f"  {motion.value.upper()} of {len(frames)} frames: {seconds:.1f} s, {len(data) / 1000:.0f} kB, "
            f"{size[0]}x{size[1]} px"
        )


if __name__ == "__main__":
    main()
