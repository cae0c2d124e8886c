"""`arbo lsp`'s diagnostics after an edit, against `arbo check` of the same file, in one run.

The record: a four-player game of random bots (some 50 turns) with a variation every eighth
turn, as bench_kinds.py's "variations" kind makes it; optionally with more games in the file
(--games). Each round edits one turn of the last game (a planting moved to an illegal cell, a new one
each time, or a comment written), so the edited game is checked again, by the fast path when it
is clean and by the full replay that names its fault when it is not, and times what the
server does before it publishes: the text cut into games, each game's diagnostics (the untouched
ones from the cache), and the protocol's Diagnostic values (lsp/server.py's own functions, called
in this process: no stdio, no debounce). The peer: `arbo check FILE` as a command (start-up
included), and the same check in this process (checking.check_text).

    PYTHONPATH=$PWD python bench/bench_lsp.py --edits 200 --rounds 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.workspace import TextDocument

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_kinds import games_of_kind

from arbo_notation.checking.games import check_text
from arbo_notation.lsp.documents import Cut, DiagnosticsCache, check_cut
from arbo_notation.lsp.server import protocol_diagnostic
from arbo_notation.notation.writer import format_games


def record(games: int, seed: int) -> str:
    """A file of ``games`` four-player games with variations, the longest first."""
    made = sorted(games_of_kind("variations", max(games, 8), seed), key=lambda g: -len(g.turns))[:games]
    return format_games(made)


def edited(text: str, version: int) -> str:
    """The text with the last planting of its last game moved to a far cell (odd versions: an
    illegal turn), or a comment written after it (even versions: a clean game); each version its
    own text, so that no edit finds the edited game's diagnostics kept."""
    at = text.rfind("@")
    end = text.find(" ", at)
    if version % 2 == 0:
        line_end = text.find("\n", at)
        return text[:line_end] + f" {{edit {version}}}" + text[line_end:]
    return text[: at + 1] + f"{40 + version},40" + text[end:]


def publish(text: str, cache: DiagnosticsCache, version: int) -> list[types.Diagnostic]:
    """What the server does before it publishes a document's diagnostics."""
    document = TextDocument("file:///bench.arb", text, version=version)
    cut = Cut(document.source)
    return [protocol_diagnostic(document, cut, found) for found in check_cut(cut, "bench.arb", cache)]


def percentile(times: list[float], share: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games in the file (the edit is in the last)")
    parser.add_argument("--edits", type=int, default=200, help="edits timed")
    parser.add_argument("--rounds", type=int, default=5, help="runs of `arbo check` timed")
    parser.add_argument("--seed", type=int, default=47)
    options = parser.parse_args()

    text = record(options.games, options.seed)
    faulty = edited(text, 1)
    turns = sum(1 for line in text.splitlines() if line[:1].isdigit())
    cache = DiagnosticsCache()
    publish(text, cache, 0)  # the document as opened
    times = []
    for version in range(1, options.edits + 1):
        changed = edited(text, version)
        start = time.perf_counter()
        found = publish(changed, cache, version)
        times.append(time.perf_counter() - start)
        assert bool(found) == bool(version % 2), "the fault is found, and gone once undone"

    in_process = []
    for _ in range(options.rounds):
        start = time.perf_counter()
        check_text(faulty, "bench.arb", keep_games=False)
        in_process.append(time.perf_counter() - start)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.arb"
        path.write_text(faulty)
        command = [sys.executable, "-m", "arbo_notation", "check", "-j", "1", str(path)]
        subprocess.run(command, capture_output=True, check=False, env=os.environ)  # bytecode, caches
        whole = []
        for _ in range(options.rounds):
            start = time.perf_counter()
            subprocess.run(command, capture_output=True, check=False, env=os.environ)
            whole.append(time.perf_counter() - start)

    ms = 1000
    p50, p95 = percentile(times, 0.5) * ms, percentile(times, 0.95) * ms
    print(f"record: {options.games} four-player game(s), {turns} turn lines, {len(text):,} characters")
    print(f"lsp re-check after an edit ({options.edits} edits): p50 {p50:.1f} ms, p95 {p95:.1f} ms")
    print(f"check_text of the file in this process: median {statistics.median(in_process) * ms:.1f} ms")
    print(f"arbo check -j 1 FILE (a whole command): median {statistics.median(whole) * ms:.1f} ms")
    print(f"arbo check over the lsp's p95: {statistics.median(whole) * ms / p95:.1f}")
    print(f"target: p95 under 50 ms: {'met' if p95 < 50 else 'NOT met'}")


if __name__ == "__main__":
    main()
