"""Tiny bot programs written by the tests, and a look for processes left running."""

from __future__ import annotations

import os
import sys
import time
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


#: A bot of protocol 2 that asks for the view at every request and plays its first legal action,
#: misbehaving as MODE says once it has been asked ACTS times: illegal, garbage, badview (asks for
#: a view of no kind), twice (asks for the view again), toomany (five actions), notalist, empty,
#: midplan (a legal draw, then an illegal action), sleep, viewsleep (asks for the view, then
#: sleeps), exit; or none.
MISBEHAVING_2 = textwrap.dedent(
    """
    import json, os, sys, time
    MODE, AFTER = sys.argv[1], int(sys.argv[2])
    asked = 0
    def say(answer):
        print(answer if isinstance(answer, str) else json.dumps(answer), flush=True)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        late = asked > AFTER
        if kind == "hello":
            say({"type": "hello", "name": MODE, "protocol": 2})
        elif kind == "quit":
            break
        elif kind == "turn":
            asked += 1
            if asked <= AFTER or MODE in ("none", "twice", "midplan", "viewsleep"):
                say({"view": "full"})
            elif MODE == "illegal":
                say({"actions": ["Zz9@9,9"]})
            elif MODE == "garbage":
                say("\x1b[31mnot json {at all}")
            elif MODE == "badview":
                say({"view": "diff"})
            elif MODE == "toomany":
                say({"actions": ["d"] * 5})
            elif MODE == "notalist":
                say({"actions": "d"})
            elif MODE == "empty":
                say({"actions": []})
            elif MODE == "sleep":
                time.sleep(600)
            elif MODE == "exit":
                os._exit(3)
        elif kind == "view":
            first = message["legal"][0]
            if late and MODE == "twice":
                say({"view": "delta"})
            elif late and MODE == "viewsleep":
                time.sleep(600)
            elif late and MODE == "midplan" and message["view"]["phase"] == "draw":
                say({"actions": [first, "Zz9@9,9"]})
            else:
                say({"actions": [first]})
    """
)


def write_bot(folder: Path, name: str = "misbehaving.py", text: str = MISBEHAVING) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def bot_command(script: Path, mode: str, after: int = 3) -> list[str]:
    return [sys.executable, str(script), mode, str(after)]


def docs_bot(folder: Path, version: int = 1) -> Path:
    """The complete bot of docs/PROTOCOL.md in ``version`` 1 or 2, as the page gives it."""
    text = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    opening = f'"""A bot of the arbo protocol, version {version}:'
    body = next(block for block in text.split("```python\n")[1:] if block.startswith(opening)).split("```", 1)[0]
    path = folder / ("first.py" if version == 1 else f"first{version}.py")
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


#: A bot that plays the first legal action after starting a child that sleeps ten minutes, its
#: command line holding MARKER (the test's own): in the bot's process group, or (LEAVES "setsid")
#: in a session of its own, out of the group. SLOW seconds a request.
FORKING = textwrap.dedent(
    """
    import json, subprocess, sys, time
    MARKER, LEAVES, SLOW = sys.argv[1], sys.argv[2] == "setsid", float(sys.argv[3])
    subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(600)", "child-of", MARKER],
        start_new_session=LEAVES, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
    )
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            print(json.dumps({"type": "hello", "name": "forking"}), flush=True)
        elif message["type"] == "quit":
            break
        elif message["type"] == "act":
            time.sleep(SLOW)
            print(json.dumps({"action": message["legal"][0]}), flush=True)
    """
)


def forking_bot(folder: Path, leaves: bool = False, slow: float = 0.0) -> str:
    """The command line of a FORKING bot written in ``folder``; its children's command lines hold ``folder``."""
    path = folder / "forking.py"
    path.write_text(FORKING, encoding="utf-8")
    return f"{sys.executable} {path} {folder} {'setsid' if leaves else 'stay'} {slow}"


#: A bot that tries to rebuild its game's deal as the referee deals it (Setup.shuffled with a
#: seed), from every word it can read: its parent's command line and environment, every other
#: process's command line, the default seed "0". At its first request it answers, illegally,
#: "saw ppid=P pids=..." (its parent and the processes it sees), then "cheat:SEED" at every first
#: request of a game whose deal it rebuilt; else the first legal action.
CHEATING = textwrap.dedent(
    """
    import json, os, sys
    from arbo_notation.engine.state import GameConfig, Setup

    def words():
        found = {"0"}
        for pid in [os.getppid()] + [p for p in os.listdir("/proc") if p.isdigit()]:
            for name in ("cmdline", "environ"):
                try:
                    data = open(f"/proc/{pid}/{name}", "rb").read()
                except OSError:
                    continue
                for word in data.split(b"\\0"):
                    text = word.decode("utf-8", "replace")
                    found.update({text, text.partition("=")[2]})
        return found

    asked, cheat = 0, None
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            print(json.dumps({"type": "hello", "name": "cheat"}), flush=True)
        elif kind == "quit":
            break
        elif kind == "game":
            config = GameConfig(tuple(message["players"]), tuple(message["species"]))
            hand = sorted(message["hand"])
            cheat = None
            for word in words():
                for seed in (word, f"{word}:{message['game']}"):
                    if sorted(map(str, Setup.shuffled(config, seed).hands[message["seat"]])) == hand:
                        cheat = seed
            first = True
        elif kind == "act":
            asked += 1
            if asked == 1:
                pids = ",".join(sorted((p for p in os.listdir("/proc") if p.isdigit()), key=int))
                answer = f"saw ppid={os.getppid()} pids={pids}"
            elif first and cheat is not None:
                answer = f"cheat:{cheat}"
            else:
                answer = message["legal"][0]
            first = False
            print(json.dumps({"action": answer}), flush=True)
    """
)


def cheating_bot(folder: Path) -> str:
    path = folder / "cheat.py"
    path.write_text(CHEATING, encoding="utf-8")
    return f"{sys.executable} {path}"


def processes_seen(marker: str, least: int = 2, seconds: float = 60) -> list[int]:
    """processes_running(marker) once ``least`` of them run at once (or, after ``seconds``, the last
    seen). The list seen is returned, not looked up again: a bot that ends in between (the match's
    preflight bot does) must not make a second look disagree with the first."""
    deadline = time.monotonic() + seconds
    found = processes_running(marker)
    while len(found) < least and time.monotonic() < deadline:
        time.sleep(0.1)
        found = processes_running(marker)
    return found
