"""`arbo match` and `arbo bot` as a person runs them: real processes, records checked, none left behind."""

from __future__ import annotations

import json
import re
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.play.bots_support import bot_command, cheating_bot, forking_bot, processes_running, processes_seen, write_bot

ARBO = [sys.executable, "-m", "arbo_notation"]


def arbo(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([*ARBO, *args], capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def test_a_match_writes_valid_records_and_a_json_summary(tmp_path):
    out = tmp_path / "games"
    done = arbo("match", "greedy", "random", "--games", "4", "--seed", "5", "--out", str(out), "--json", "-j", "1")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 4 and summary["out"] == str(out)
    assert [bot["bot"] for bot in summary["bots"]] == ["greedy", "random"]
    assert [bot["games"] for bot in summary["bots"]] == [4, 4]
    assert sum(bot["wins"] for bot in summary["bots"]) == 4
    assert {r["player"] for r in summary["ratings"]} == {"greedy", "random"}
    assert sorted(p.name for p in out.iterdir()) == [f"game-000{n}.arb" for n in range(1, 5)]
    checked = arbo("check", str(out))
    assert checked.returncode == 0 and "4 games: 4 valid, 0 invalid" in checked.stdout + checked.stderr
    again = arbo("match", "greedy", "random", "--games", "4", "--out", str(out))
    assert again.returncode == 1 and "exists, and arbo match writes new files only" in again.stderr
    # the same --seed, the same records, byte for byte; without it, a secret: other deals
    same = arbo("match", "greedy", "random", "--games", "4", "--seed", "5", "--out", str(tmp_path / "same"))
    assert same.returncode == 0, same.stderr
    assert [p.read_bytes() for p in sorted(out.iterdir())] == [
        p.read_bytes() for p in sorted((tmp_path / "same").iterdir())
    ]
    drawn = arbo("match", "greedy", "random", "--games", "4", "--out", str(tmp_path / "drawn"))
    assert drawn.returncode == 0, drawn.stderr
    assert (out / "game-0001.arb").read_text() != (tmp_path / "drawn" / "game-0001.arb").read_text()


def test_the_text_summary_and_a_misbehaving_bot_counted(tmp_path):
    script = write_bot(tmp_path)
    bad = " ".join(bot_command(script, "illegal", 10))
    done = arbo("match", bad, "greedy", "--games", "2", "--out", str(tmp_path / "g"), "-j", "1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"2 games written to {tmp_path / 'g'}; 95% intervals in brackets"
    row = next(line for line in lines if line.startswith(bad))
    assert row.endswith("illegal)") and " 0 (" not in row
    # illegal from its 11th answer on: the fallback played most of its turns, so both games are forfeits
    assert lines[1].startswith("2 games forfeited") and "share of the points against greedy" not in done.stdout
    assert "fault (illegal)" in (tmp_path / "g" / "game-0001.arb").read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["greedy"], "a match has 2 to 4 bots, one per seat, not 1"),
        (["greedy", "random", "--games", "3", "--duplicate"], "--games must be a multiple of 2"),
        (["greedy", "random", "greedy", "--until-decided"], "--until-decided compares two bots"),
        (["greedy", "random", "--move-time", "0"], "--move-time must be more than 0"),
    ],
)
def test_usage_errors(tmp_path, args, message):
    full = [*args, "--out", str(tmp_path / "x")] + ([] if "--games" in args else ["--games", "2"])
    done = arbo("match", *full)
    assert done.returncode == 2 and message in done.stderr and done.stdout == ""
    assert not (tmp_path / "x").exists()


def test_arbo_bot_answers_hello_and_plays_its_seat():
    messages = [
        {"type": "hello", "protocol": 1},
        {
            "type": "game",
            "game": "1",
            "seat": "Ana",
            "players": ["Ana", "Ben"],
            "species": ["Ca", "Dw", "Ja", "Ma", "Oa", "Wi"],
            "hand": ["Ca1", "Ca2", "Ca3", "Dw1", "Dw2", "Dw3", "Ja1"],
        },
        {"type": "act", "phase": "draw", "legal": ["d"], "view": {}},
        {"type": "event", "player": "Ana", "action": "d:Oa5"},
        {"type": "act", "phase": "draw", "legal": ["d"], "view": {}},
        {"type": "event", "player": "Ana", "action": "d:Oa6"},
        {"type": "act", "phase": "plant", "legal": [], "view": {}},
        {"type": "quit"},
    ]
    done = subprocess.run(
        [*ARBO, "bot", "random", "--seed", "4"],
        input="".join(json.dumps(m) + "\n" for m in messages),
        capture_output=True,
        text=True,
        timeout=60,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert answers[0] == {"type": "hello", "name": "arbo random", "author": "arbo"}
    assert answers[1:3] == [{"action": "d"}, {"action": "d"}]
    assert answers[3]["action"].endswith("@0,0")  # the first tree stands at 0,0
    assert done.returncode == 0 and done.stderr == ""


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_no_bot_outlives_arbo_sent_sigterm_mid_match(tmp_path, jobs):
    script = write_bot(tmp_path, "slow.py")
    slow = script.read_text().replace("asked += 1", "asked += 1; time.sleep(0.05)")
    script.write_text(slow)
    command = " ".join(bot_command(script, "none"))
    match = subprocess.Popen(
        [*ARBO, "match", command, command, "--games", "40", "--out", str(tmp_path / "g"), "-j", jobs],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert len(processes_seen(str(script))) >= 2
        time.sleep(1)
        match.send_signal(signal.SIGTERM)
        assert match.wait(30) == -signal.SIGTERM
    finally:
        match.kill()
    deadline = time.monotonic() + 5
    while processes_running(str(script)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_running(str(script)) == []
    assert not [p for p in (tmp_path / "g").iterdir() if p.name.startswith(".")]  # no half-written file


def test_a_bot_command_line_of_any_bytes_gives_records_check_accepts(tmp_path):
    # a brace, quotes, a control character, a line break and a byte that is not UTF-8, in the
    # command line of a bot that answers with an illegal action (so the label is in a fault too)
    script = write_bot(tmp_path)
    command = " ".join(bot_command(script, "illegal", 10)).encode() + b" '{x}' '\"q\"' '\x1b[2J' 'a\nb' \xff"
    out = tmp_path / "g"
    done = subprocess.run(
        [*ARBO, "match", command, "greedy", "--games", "2", "--out", str(out), "-j", "1"],
        capture_output=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    label = " ".join(bot_command(script, "illegal", 10)) + " '{x\\u007d' '\"q\"' '\\u001b[2J' 'a b' \ufffd"
    assert f"{label} ".encode() in done.stdout and b"\x1b" not in done.stdout + done.stderr
    checked = arbo("check", str(out))
    assert checked.returncode == 0 and "2 games: 2 valid, 0 invalid" in checked.stdout + checked.stderr
    record = (out / "game-0001.arb").read_text(encoding="utf-8")
    assert f"{{fault (illegal): Ana's bot ({label}) played " in record


def test_an_empty_out_is_a_usage_error_not_the_current_folder(tmp_path):
    done = subprocess.run(
        [*ARBO, "match", "greedy", "random", "--games", "1", "--out", ""],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("arbo: --out takes a path, not ''")
    assert list(tmp_path.iterdir()) == []


def test_a_bot_that_answers_illegally_every_time_forfeits_and_is_not_credited(tmp_path):
    script = write_bot(tmp_path)
    bad = " ".join(bot_command(script, "illegal", 0))
    out = tmp_path / "g"
    done = arbo("match", bad, "greedy", "--games", "2", "--out", str(out), "-j", "1", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["forfeited"] == 2
    first, second = summary["bots"]
    assert (first["games"], first["counted"], first["forfeits"], first["wins"]) == (2, 0, 2, 0)
    assert (second["games"], second["counted"], second["forfeits"], second["wins"]) == (2, 0, 0, 0)
    assert first["win_rate"]["mean"] is None and summary["share"]["mean"] is None
    assert first["faults_by_kind"].keys() == {"illegal"} and first["hello_name"] == "illegal"
    assert summary["ratings"] == []  # the fallback's games rate nobody
    records = sorted(out.iterdir())
    assert "forfeited: [Ana]" in records[0].read_text() and "forfeited: [Ben]" in records[1].read_text()
    assert arbo("check", str(out)).returncode == 0
    rated = arbo("ratings", str(out))
    assert rated.returncode == 0 and "(2 games read: 2 forfeited)" in rated.stderr
    text = arbo("match", bad, "greedy", "--games", "2", "--out", str(tmp_path / "t"), "-j", "1")
    lines = text.stdout.splitlines()
    assert lines[1].startswith("2 games forfeited (a bot's seat played by the fallback in more than half its turns)")
    row = next(line for line in lines if line.startswith(bad))
    assert row.split()[len(bad.split()) :][:8] == ["(hello:", "illegal)", "2", "0", "-", "-", "-", "2"]
    assert lines[-1] == "no ratings: every game was forfeited" and "share of the points" not in text.stdout


HOSTILE_NAME = """
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "\\x1b[2J\\u202e" + "evil " * 40}), flush=True)
    elif message["type"] == "act":
        print(json.dumps({"action": message["legal"][0]}), flush=True)
    elif message["type"] == "quit":
        break
"""


def test_the_hello_name_is_shown_beside_the_command_escaped_and_cut(tmp_path):
    (tmp_path / "named.py").write_text(HOSTILE_NAME, encoding="utf-8")
    command = f"{sys.executable} {tmp_path / 'named.py'}"
    done = arbo("match", command, "random", "--games", "2", "--out", str(tmp_path / "g"), "-j", "1", "--json")
    shown = json.loads(done.stdout)["bots"][0]["hello_name"]
    assert shown == "\\u001b[2J\\u202eevil evil evil evil ev..."  # 40 characters, escaped as JSON
    text = arbo("match", command, "random", "--games", "2", "--out", str(tmp_path / "t"), "-j", "1")
    assert f"{command} (hello: {shown})" in text.stdout and "\x1b" not in text.stdout


def _children_of(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1] == str(pid):
                found.append(int(entry))
        except OSError:
            continue
    return found


def _gone(marker: str, seconds: float = 5) -> bool:
    deadline = time.monotonic() + seconds
    while processes_running(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    return processes_running(marker) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("ending", "leaves", "sandbox"),
    [
        ("SIGTERM", False, "off"),
        ("SIGINT", False, "off"),
        ("worker killed", False, "off"),
        ("until decided", False, "off"),
        ("normal end", True, "off"),  # its child left the bot's process group
        ("SIGTERM", True, "on"),
    ],
)
def test_no_child_of_a_bot_outlives_a_match_on_two_workers(tmp_path, ending, leaves, sandbox):
    forking = forking_bot(tmp_path, leaves=leaves, slow=0.0 if ending in ("until decided", "normal end") else 0.05)
    marker = f"child-of {tmp_path}"
    games = {"until decided": "400", "normal end": "4"}.get(ending, "60")
    args = ["match", forking, "greedy", "--games", games, "--out", str(tmp_path / "g"), "-j", "2"]
    args += ["--sandbox", sandbox] + (["--until-decided"] if ending == "until decided" else [])
    match = subprocess.Popen([*ARBO, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        if ending in ("until decided", "normal end"):
            out, err = match.communicate(timeout=300)
            assert match.returncode == 0, err
            assert ("(decided)" in out) == (ending == "until decided")
        else:
            # the preflight's bot and child end first; each worker's then start
            assert len(processes_seen(marker)) >= 2
            if ending == "worker killed":
                arbo_line = Path(f"/proc/{match.pid}/cmdline").read_bytes()
                workers = [
                    pid for pid in _children_of(match.pid) if Path(f"/proc/{pid}/cmdline").read_bytes() == arbo_line
                ]
                os.kill(workers[0], signal.SIGKILL)
                _, err = match.communicate(timeout=60)
                assert match.returncode == 1 and "a worker process ended before its work was done" in err
            else:
                match.send_signal(getattr(signal, ending))
                assert match.wait(30) == -getattr(signal, ending)
    finally:
        match.kill()
    assert _gone(marker)
    assert _gone(str(tmp_path / "forking.py"))


def _cheated(out: Path) -> list[str]:
    return sorted({word for game in out.iterdir() for word in re.findall(r"cheat:\w+:\d+", game.read_text())})


@pytest.mark.slow
def test_a_bot_cannot_rebuild_the_deals_in_the_sandbox_nor_from_a_drawn_secret(tmp_path):
    cheat = cheating_bot(tmp_path)
    common = [cheat, "greedy", "--games", "4", "-j", "1"]
    # unsandboxed, with the seed on arbo's command line, the bot rebuilds every deal: the cheat is real
    done = arbo("match", *common, "--seed", "secret42", "--out", str(tmp_path / "open"), "--sandbox", "off")
    assert done.returncode == 0, done.stderr
    assert _cheated(tmp_path / "open") == ["cheat:secret42:2", "cheat:secret42:3", "cheat:secret42:4"]
    # in the sandbox it sees neither arbo's command line nor its pid: its parent is the sandbox's first process
    match = subprocess.Popen(
        [*ARBO, "match", *common, "--seed", "secret42", "--out", str(tmp_path / "boxed"), "--sandbox", "on"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    out, err = match.communicate(timeout=120)
    assert match.returncode == 0, err
    assert _cheated(tmp_path / "boxed") == []
    saw = re.search(r"saw ppid=(\d+) pids=([\d,]+)", (tmp_path / "boxed" / "game-0001.arb").read_text())
    assert saw is not None and saw.group(1) == "1"
    assert str(match.pid) not in saw.group(2).split(",") and len(saw.group(2).split(",")) <= 3
    # unsandboxed without --seed: the deals follow a secret no process's command line holds
    done = arbo("match", *common, "--out", str(tmp_path / "secret"), "--sandbox", "off")
    assert done.returncode == 0, done.stderr
    assert _cheated(tmp_path / "secret") == []
    assert "saw ppid=" in (tmp_path / "secret" / "game-0001.arb").read_text()


@pytest.mark.parametrize(
    ("program", "said"),
    [
        ("nosuchprog", "the bot 'nosuchprog' cannot start: no program 'nosuchprog' (not found, or not executable)"),
        ("exit", "failed its hello: it exited (status 3)"),
        ("garbage", 'failed its hello: it answered with no JSON object; it sent "not a hello"'),
        pytest.param("mute", "failed its hello: it did not answer within 5 s", marks=pytest.mark.slow),
    ],
)
def test_a_bot_that_cannot_start_or_fails_its_hello_stops_the_match_before_its_first_game(tmp_path, program, said):
    script = tmp_path / "unready.py"
    script.write_text(
        "import sys, time\n"
        "if sys.argv[1] == 'exit': sys.exit(3)\n"
        "if sys.argv[1] == 'garbage': print('not a hello', flush=True)\n"
        "time.sleep(600)\n"
    )
    bot = program if program == "nosuchprog" else f"{sys.executable} {script} {program}"
    done = arbo("match", bot, "greedy", "--games", "2", "--out", str(tmp_path / "m2"), "--move-time", "1")
    assert done.returncode == 1 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"arbo: the bot {bot!r} ") and said in lines[0], done.stderr
    assert lines[0].endswith("; no game was played")
    assert not (tmp_path / "m2").exists()
    assert processes_running(str(script)) == []


@pytest.mark.parametrize("mode", ["on", "auto", "off"])
def test_where_no_sandbox_can_be_made_on_fails_auto_says_so_off_is_silent(tmp_path, mode):
    environment = {**os.environ, "PATH": str(tmp_path)}  # no bwrap on the PATH
    out = tmp_path / "g"
    done = subprocess.run(
        [*ARBO, "match", "greedy", "random", "--games", "2", "--out", str(out), "-j", "1", "--sandbox", mode],
        capture_output=True,
        text=True,
        timeout=120,
        env=environment,
    )
    missing = "bubblewrap is not installed (its program bwrap; Debian's package bubblewrap)"
    if mode == "on":
        assert done.returncode == 1 and done.stdout == "" and not out.exists()
        assert done.stderr == f"arbo: --sandbox on: bots cannot run in a sandbox here: {missing}\n"
    else:
        assert done.returncode == 0 and len(list(out.iterdir())) == 2
        note = f"arbo: the bots run without a sandbox: {missing}. They can reach arbo's command line"
        assert done.stderr.startswith(note) if mode == "auto" else done.stderr == ""
