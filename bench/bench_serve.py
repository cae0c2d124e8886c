"""`arbo serve` on loopback: 200 viewers connected to a game's event stream while `arbo record
--plain` writes its turns, each turn's time from the file written (its mtime, taken before the
copy's sync and rename) to every viewer's receipt of the state it makes (target: < 1 s at the
95th percentile); then the server's memory (VmRSS) over 1,000 writes and 1,000 reconnections,
the viewers still connected (target: flat); first, the CPU the server takes to follow its files
(a stat of each every 0.1 s) while nothing changes.

    PYTHONPATH=$PWD python bench/bench_serve.py [--viewers 200] [--writes 1000] [--reconnections 1000] [--idle-tables 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arbo_notation.notation.header.keys import format_header  # noqa: E402
from arbo_notation.notation.reading.reader import parse_all  # noqa: E402
from arbo_notation.notation.writer import format_turn  # noqa: E402
from arbo_notation.record.session import open_session  # noqa: E402

GAME = ROOT / "samples" / "two-player-omniscient.arb"


class Viewer:
    """One browser's event stream, read on a raw connection: each event's id and when it came."""

    def __init__(self, port: int, name: str, parse: bool = False) -> None:
        self.port, self.name, self.parse = port, name, parse
        self.last = ""
        self.got: dict[str, float] = {}
        self.turns: dict[str, int] = {}  # (the first viewer) each event's number of turns
        self.task: asyncio.Task[None] | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def connect(self) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 22)
        self.writer = writer
        resume = f"Last-Event-ID: {self.last}\r\n" if self.last else ""
        writer.write(f"GET /events/{self.name} HTTP/1.1\r\nHost: 127.0.0.1\r\n{resume}\r\n".encode())
        await writer.drain()
        await reader.readuntil(b"\r\n\r\n")
        self.task = asyncio.create_task(self._read(reader))

    async def _read(self, reader: asyncio.StreamReader) -> None:
        buffer = b""
        try:
            while chunk := await reader.read(1 << 20):
                now = time.time()
                buffer += chunk
                *events, buffer = buffer.split(b"\n\n")
                for event in events:
                    found = re.search(rb"(?m)^id: (\S+)", event)
                    if found:
                        ident = found.group(1).decode()
                        self.last = ident
                        self.got.setdefault(ident, now)
                        if self.parse:
                            data = json.loads(event.split(b"\ndata: ", 1)[1].split(b"\r\n")[0])
                            self.turns[ident] = data["games"][0]["lines"][0]["legal"]
        except (ConnectionError, asyncio.CancelledError):
            pass

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cpu_ticks(pid: int) -> int:
    """The process's user and system time, in clock ticks (/proc/PID/stat's 14th and 15th)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--writes", type=int, default=1000)
    parser.add_argument("--reconnections", type=int, default=1000)
    parser.add_argument("--idle-tables", type=int, default=20)
    args = parser.parse_args()

    full = parse_all(GAME.read_text(), "game").games[0]
    folder = Path(tempfile.mkdtemp(prefix="bench-serve-"))
    path = folder / "live.arb"
    path.write_text(format_header(full.header))
    server = subprocess.Popen(
        [sys.executable, "-m", "arbo_notation", "serve", str(folder), "--port", "0", "--no-qr"],
        stdout=subprocess.PIPE,
        text=True,
        env=env(),
        start_new_session=True,
    )
    assert server.stdout is not None
    port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))  # type: ignore[union-attr]
    try:
        # 0. the cost of following the files: a stat of each every 0.1 s, the server otherwise idle
        for number in range(args.idle_tables):
            (folder / f"idle{number}.arb").write_text(GAME.read_text())
        await asyncio.sleep(2)  # each read once
        ticks = os.sysconf("SC_CLK_TCK")
        before = cpu_ticks(server.pid)
        await asyncio.sleep(10)
        used = (cpu_ticks(server.pid) - before) / ticks
        print(f"idle with {args.idle_tables + 1} records followed: {used / 10 * 100:.1f}% of a core")

        viewers = [Viewer(port, "live.arb", parse=(n == 0)) for n in range(args.viewers)]
        for viewer in viewers:
            await viewer.connect()
        await asyncio.sleep(1)
        print(f"{len(viewers)} viewers connected; server RSS {rss_kb(server.pid) / 1024:.1f} MB")

        # 1. each turn written by `arbo record --plain`, to every viewer
        written: dict[int, float] = {}
        for number, turn in enumerate(full.turns[:-1], 1):  # (the last one ends the game: the hands shown)
            entry = format_turn(turn, number).split(" ", 1)[1]
            await asyncio.to_thread(
                subprocess.run,
                [sys.executable, "-m", "arbo_notation", "record", str(path), "--plain"],
                input=entry + "\n",
                capture_output=True,
                text=True,
                env=env(),
                check=True,
            )
            written[number] = os.stat(path).st_mtime
            await asyncio.sleep(0.3)
        await asyncio.sleep(1)
        ident_of = {turns: ident for ident, turns in viewers[0].turns.items()}
        delays = []
        missed = 0
        for number, when in written.items():
            ident = ident_of.get(number)
            for viewer in viewers:
                if ident is None or ident not in viewer.got:
                    missed += 1
                else:
                    delays.append(viewer.got[ident] - when)
        delays.sort()
        p95 = delays[int(0.95 * (len(delays) - 1))]
        print(
            f"turns by arbo record --plain: {len(written)} turns x {len(viewers)} viewers = {len(delays)} receipts, "
            f"{missed} missed; file written to viewer: median {statistics.median(delays) * 1000:.0f} ms, "
            f"p95 {p95 * 1000:.0f} ms, max {delays[-1] * 1000:.0f} ms"
        )

        # 2. memory over many writes: the game played forward and taken back, a write each
        session = open_session(path)
        entries = [format_turn(t, n).split(" ", 1)[1] for n, t in enumerate(full.turns[:-1], 1)]
        samples: list[tuple[int, int]] = []
        backwards = True
        for done in range(1, args.writes + 1):
            if backwards:
                session.enter("undo")
                backwards = len(session.turns) > 5
            else:
                session.enter(entries[len(session.turns)])
                backwards = len(session.turns) == len(entries)
            await asyncio.sleep(0.12)  # each write seen by the server (it looks every 0.1 s)
            if done in (100, args.writes // 2, args.writes):
                samples.append((done, rss_kb(server.pid)))
        print("writes: " + ", ".join(f"after {n}: {kb / 1024:.1f} MB" for n, kb in samples))

        # 3. memory over many reconnections, each resumed with its last event's id
        reconnected = 0
        marks = [(0, rss_kb(server.pid))]
        while reconnected < args.reconnections:
            for viewer in viewers[: args.reconnections - reconnected]:
                await viewer.close()
                await viewer.connect()
                reconnected += 1
            await asyncio.sleep(0.2)
            marks.append((reconnected, rss_kb(server.pid)))
        await asyncio.sleep(1)
        marks.append((reconnected, rss_kb(server.pid)))
        shown = [marks[0], marks[1], marks[len(marks) // 2], marks[-1]]
        print("reconnections: " + ", ".join(f"after {n}: {kb / 1024:.1f} MB" for n, kb in shown))
        for viewer in viewers:
            await viewer.close()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=20)
    print(f"server ended with status {server.returncode}")


if __name__ == "__main__":
    asyncio.run(main())
