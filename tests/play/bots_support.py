"""Tiny bot programs written by the tests, and a look for processes left running."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: A bot that plays the first legal action, misbehaving as MODE says once it has been asked
#: ACTS times: illegal, garbage, sleep, exit, flood, deaf (never reads after hello), or none.
MISBEHAVING = textwrap.dedent(
    """
    import json, os, sys, time
    MODE, AFTER = sys.argv[1], int(sys.argv[2])
    asked = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            print(json.dumps({"type": "hello", "name": MODE}), flush=True)
            if MODE == "deaf":
                time.sleep(600)
        elif kind == "quit":
            break
        elif kind == "act":
            asked += 1
            if asked <= AFTER or MODE == "none":
                print(json.dumps({"action": message["legal"][0]}), flush=True)
            elif MODE == "illegal":
                print(json.dumps({"action": "Zz9@9,9"}), flush=True)
            elif MODE == "garbage":
                print("\\x1b[31mnot json {at all}", flush=True)
            elif MODE == "sleep":
                time.sleep(600)
            elif MODE == "exit":
                os._exit(3)
            elif MODE == "flood":
                sys.stdout.write("x" * (1 << 20) + "\\n")
                sys.stdout.flush()
                time.sleep(600)
    """
)


def write_bot(folder: Path, name: str = "misbehaving.py") -> Path:
    path = folder / name
    path.write_text(MISBEHAVING, encoding="utf-8")
    return path


def bot_command(script: Path, mode: str, after: int = 3) -> list[str]:
    return [sys.executable, str(script), mode, str(after)]


def docs_bot(folder: Path) -> Path:
    """The complete bot of docs/PROTOCOL.md, as the page gives it."""
    text = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    body = text.split("```python\n", 1)[1].split("```", 1)[0]
    path = folder / "first.py"
    path.write_text(body, encoding="utf-8")
    return path


def processes_running(marker: str) -> list[int]:
    """The pids of the processes whose command line holds ``marker`` (zombies excluded)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in command and state != "Z":
            found.append(int(entry))
    return found
