"""A real `arbo serve` for the tests: started as its own process on 127.0.0.1 (any free port),
read from what it prints, stopped with Ctrl-C (SIGINT) and held to end cleanly; and the turns of a
record written by `arbo record --plain`, as at a table."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[2]


def arbo_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


@dataclass
class Running:
    """A server running: its base address, its recorder's token, its process."""

    process: subprocess.Popen[str]
    base: str
    token: str
    printed: list[str] = field(default_factory=list)

    def url(self, path: str) -> str:
        return self.base + path

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        request = urllib.request.Request(self.url(path), headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def post(self, path: str, body: bytes, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        request = urllib.request.Request(self.url(path), data=body, headers=headers or {}, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def own(self) -> dict[str, str]:
        """The headers of the recorder's own page: its token and origin."""
        return {"X-Arbo-Token": self.token, "Origin": self.base, "Content-Type": "application/json"}

    def state(self, name: str) -> dict[str, Any]:
        status, body = self.get(f"/api/state/{name}", self.own())
        assert status == 200, body
        return json.loads(body)["state"]

    def enter(self, name: str, entry: str, entry_id: str, base: str | None = None) -> dict[str, Any]:
        base = self.state(name)["base"] if base is None else base
        payload = json.dumps({"id": entry_id, "base": base, "entry": entry}).encode()
        status, body = self.post(f"/api/entry/{name}", payload, self.own())
        assert status == 200, body
        return json.loads(body)

    def stop(self) -> int:
        """Ctrl-C, as at a terminal; the exit status (the server must end within 10 s)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=10)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()


def spawn(arguments: list[str], cwd: Path | None = None) -> subprocess.Popen[str]:
    """`arbo ARGUMENTS` started, its output piped as text."""
    return subprocess.Popen(
        [sys.executable, "-m", "arbo_notation", *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=arbo_env(),
        cwd=cwd,
        start_new_session=True,  # a Ctrl-C of the test run is not also the server's
    )


def start(path: Path, *options: str) -> Running:
    """`arbo serve PATH --port 0 --no-qr OPTIONS` started and answering."""
    process = spawn(["serve", str(path), "--port", "0", "--no-qr", *options])
    printed: list[str] = []
    base = token = ""
    deadline = time.monotonic() + 30
    assert process.stdout is not None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            raise AssertionError(f"arbo serve ended: {process.stderr.read() if process.stderr else ''}")
        printed.append(line)
        if found := re.match(r"arbo serve: .* at (http://[^/]+)/ \(Ctrl-C stops\)", line):
            base = found.group(1)  # where it listens (the viewers' link may be a --public-url)
        if found := re.search(r"/record/#t=(\S+)", line):
            token = found.group(1)
        if base and (token or "--read-only" in options):
            return Running(process, base, token, printed)
    process.kill()
    raise AssertionError(f"arbo serve did not start: {printed}")


def record(path: Path, *entries: str) -> subprocess.CompletedProcess[str]:
    """`arbo record FILE --plain` fed these entries, one a line."""
    return subprocess.run(
        [sys.executable, "-m", "arbo_notation", "record", str(path), "--plain"],
        input="".join(entry + "\n" for entry in entries),
        capture_output=True,
        text=True,
        env=arbo_env(),
        timeout=60,
    )


def events(stream: Any) -> Iterator[tuple[str, str, str]]:
    """The server-sent events (id, event, data) read from an HTTP response, as they come."""
    ident = kind = ""
    data: list[str] = []
    for raw in stream:
        line = raw.decode("utf-8").rstrip("\n")
        if not line:
            if data:
                yield ident, kind, "\n".join(data)
            kind, data = "", []
        elif line.startswith("id: "):
            ident = line[4:]
        elif line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            data.append(line[6:])
