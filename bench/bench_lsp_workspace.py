"""`arbo lsp`'s answers while it checks the workspace's records in the background, against its
answers once it is done, in one run.

A folder of --files copies of bench_lsp.py's record (a four-player game with variations), each
with a fault of its own (so none is found in the cache), and one record open in the editor. The
server is started as an editor starts it (over stdio); from `initialized` on (after a first hover,
which builds the grammar), a hover on the open record is asked every 5 ms (once the last is
answered) until every file's diagnostics are published, then as many hovers again on the idle
server. It prints the time to check the folder and the hovers' answer times, p50 / p95 / max,
busy and idle.

    PYTHONPATH=$PWD python bench/bench_lsp_workspace.py --files 200
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_lsp import edited, percentile, record


class Server:
    """`arbo lsp` over pipes, its messages read by a thread."""

    def __init__(self) -> None:
        command = [sys.executable, "-m", "arbo_notation", "lsp"]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=os.environ)
        self.messages: queue.Queue[dict] = queue.Queue()
        self.number = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = 0
            while (line := stream.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if not line:
                return
            self.messages.put(json.loads(stream.read(length)))

    def send(self, method: str, params: object, request: bool = True) -> int:
        message: dict = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.number += 1
            message["id"] = self.number
        body = json.dumps(message).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()
        return self.number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=200, help="records in the folder")
    parser.add_argument("--seed", type=int, default=47)
    options = parser.parse_args()
    base = record(1, options.seed)
    text = edited(base, 1)
    ms = 1000
    with tempfile.TemporaryDirectory() as folder:
        for n in range(options.files):
            Path(folder, f"r{n:04d}.arb").write_text(edited(base, 2 * n + 3))  # each its own fault: none kept
        open_uri = Path(folder, "open.arb.txt").as_uri()  # not a record of the folder: the editor's
        hover_line = next(i for i, line in enumerate(text.split("\n")) if line.startswith("20. "))
        server = Server()
        server.send("initialize", {"processId": None, "rootUri": Path(folder).as_uri(), "capabilities": {}})
        document = {"uri": open_uri, "languageId": "arbo", "version": 1, "text": text}
        server.send("textDocument/didOpen", {"textDocument": document}, request=False)
        hover = {"textDocument": {"uri": open_uri}, "position": {"line": hover_line, "character": 3}}
        # a first hover before `initialized` starts the workspace's check: the reader's grammar
        # is built at its first use (some 1.5 s), which is not what is measured here
        warm = server.send("textDocument/hover", hover)
        while server.messages.get().get("id") != warm:
            pass
        server.send("initialized", {}, request=False)
        published: set[str] = set()
        asked: dict[int, float] = {}
        busy: list[float] = []
        idle: list[float] = []
        start = time.perf_counter()
        scanned = None
        next_hover = start
        while scanned is None or len(idle) < len(busy):
            now = time.perf_counter()
            if now >= next_hover and not asked:
                asked[server.send("textDocument/hover", hover)] = now
                next_hover = now + 0.005
            try:
                message = server.messages.get(timeout=0.005)
            except queue.Empty:
                continue
            if message.get("method") == "textDocument/publishDiagnostics":
                published.add(message["params"]["uri"])
                if scanned is None and len(published - {open_uri}) == options.files:
                    scanned = time.perf_counter() - start
            elif message.get("id") in asked:
                took = time.perf_counter() - asked.pop(message["id"])
                (busy if scanned is None else idle).append(took)
        server.send("shutdown", None)
        server.send("exit", None, request=False)
        server.process.wait(timeout=10)
    print(f"folder: {options.files} records of {len(text):,} characters, each with a fault")
    print(f"the folder checked in {scanned:.2f} s ({scanned / options.files * ms:.1f} ms a record)")
    for name, times in [("while checking", busy), ("idle", idle)]:
        print(
            f"hover {name} ({len(times)}): p50 {percentile(times, 0.5) * ms:.1f} ms, "
            f"p95 {percentile(times, 0.95) * ms:.1f} ms, max {max(times) * ms:.1f} ms"
        )


if __name__ == "__main__":
    main()
