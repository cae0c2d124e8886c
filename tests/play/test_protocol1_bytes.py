"""Protocol 1 unchanged byte for byte: what bots of protocol 1 are sent in two matches (two seats,
two games; three seats, one game; illegal and malformed answers among them) is what main sent
them at 60bd259, before protocol 2, but for the hello, which now offers both versions."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: What each spy of the two matches read, as main's referee wrote it (recorded with main's code).
RECORDED = Path(__file__).resolve().parent / "fixtures" / "protocol1-sessions.json.gz"
MAIN_HELLO = '{"type":"hello","protocol":1}\n'
HELLO = '{"type":"hello","protocol":1,"protocols":[1,2]}\n'

#: A protocol-1 bot that keeps every byte it reads (in the file it is given) and plays by MODE:
#: the first, the last or the middle legal action; "first" also answers illegally at its 5th
#: request and with garbage at its 9th. (The recording's spy, word for word.)
SPY = textwrap.dedent(
    """
    import json
    import sys

    log, mode = open(sys.argv[1], "ab"), sys.argv[2]
    asked = 0
    for line in sys.stdin.buffer:
        log.write(line)
        log.flush()
        message = json.loads(line)
        if message["type"] == "hello":
            print(json.dumps({"type": "hello", "name": "spy"}), flush=True)
        elif message["type"] == "act":
            asked += 1
            legal = message["legal"]
            if mode == "first" and asked == 5:
                print(json.dumps({"action": "Zz9@9,9"}), flush=True)
            elif mode == "first" and asked == 9:
                print("not json", flush=True)
            else:
                print(json.dumps({"action": legal[{"first": 0, "last": -1, "middle": len(legal) // 2}[mode]]}), flush=True)
        elif message["type"] == "quit":
            break
    """
)


@pytest.mark.slow
def test_a_protocol_1_session_is_mains_byte_for_byte_but_the_hellos_offer(tmp_path):
    (tmp_path / "spy1.py").write_text(SPY, encoding="utf-8")
    recorded = json.loads(gzip.decompress(RECORDED.read_bytes()).decode("utf-8"))
    for match, modes, games in (("two", ("first", "last"), "2"), ("three", ("first", "last", "middle"), "1")):
        bots = [f"{sys.executable} {tmp_path / 'spy1.py'} {tmp_path / f'{match}-{mode}.in'} {mode}" for mode in modes]
        done = subprocess.run(
            [sys.executable, "-m", "arbo_notation", "match", *bots, "--games", games, "--seed", "p1"]
            + ["--sandbox", "off", "-j", "1", "--fallback", "random", "--out", str(tmp_path / match)],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert done.returncode == 0, done.stderr
        for mode in modes:
            name = f"{match}-{mode}"
            got = (tmp_path / f"{name}.in").read_text(encoding="utf-8")
            main = recorded[name]
            assert main.count(MAIN_HELLO) == 2 and got.count(HELLO) == 2  # the start check's process, the match's
            expected = main.replace(MAIN_HELLO, HELLO)
            if got != expected:
                lines, wanted = got.splitlines(), expected.splitlines()
                pairs = enumerate(zip(lines, wanted, strict=False))  # (one may be longer)
                differs = next((at for at, (a, b) in pairs if a != b), min(len(lines), len(wanted)))
                pytest.fail(f"{name}: line {differs + 1} of {len(lines)} differs from main's (of {len(wanted)})")
    assert recorded.keys() == {"two-first", "two-last", "three-first", "three-last", "three-middle"}
