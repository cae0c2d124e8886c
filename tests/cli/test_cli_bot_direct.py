"""`arbo bot` run without typer (cli/bot_direct.py): it reads a command line as the typer app reads
it, or leaves it to the app; and the bot it runs answers exactly as the app's."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import subprocess
import sys

import pytest
import typer
import typer.main

from arbo_notation.cli import app
from arbo_notation.cli.bot_direct import BotArguments, plain_bot_arguments
from arbo_notation.cli.usage import UsageError
from arbo_notation.bots.protocol import encode


def typer_reading(tokens: list[str]) -> BotArguments | None:
    """What the typer app reads from ``arbo bot TOKENS``: the arguments, or None for a usage error
    or the help (which it prints and ends)."""
    command = typer.main.get_command(app).commands["bot"]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            context = command.make_context("bot", list(tokens))
        except (UsageError, typer.Exit, SystemExit):
            return None
    params = context.params
    return BotArguments(params["name"], params["budget"], params["seed"], params["protocol"])


# Tokens of every kind: the names, seeds, and what only typer reads or refuses.
TOKENS = ["greedy", "random", "engine", "Greedy", "greed", "--seed", "-s", "--seed=3", "3", "", "-3", "s e", "--budget"]
TOKENS += ["8", "--help", "-h", "--", "-x", "bot", "--protocol", "1", "2"]


def test_every_command_line_of_up_to_four_tokens_read_here_is_read_as_typer_reads_it():
    read_here = 0
    for size in range(5):
        for tokens in itertools.product(TOKENS, repeat=size):
            direct = plain_bot_arguments(["bot", *tokens], environ={})
            if direct is not None:
                read_here += 1
                assert direct == typer_reading(list(tokens)), tokens
    # a name alone, with --seed and one of the 12 tokens not an option, or with --protocol 1 or 2
    assert read_here == 3 + 3 * 12 + 3 * 2


@pytest.mark.parametrize(
    "args, expected",
    [
        (["bot", "greedy"], BotArguments("greedy")),
        (["bot", "random", "--seed", "7"], BotArguments("random", seed="7")),
        (["bot", "engine", "--seed", "s e"], BotArguments("engine", seed="s e")),
        (["bot", "greedy", "--protocol", "1"], BotArguments("greedy", protocol=1)),
        (["bot", "greedy", "--seed", "7", "--protocol", "1"], BotArguments("greedy", seed="7", protocol=1)),
        (["bot", "greedy", "--protocol", "1", "--seed", "7"], None),
        (["bot", "greedy", "--seed", "7", "--protocol", "3"], None),
        (["bot", "greedy", "-s", "7"], None),
        (["bot", "greedy", "--seed=7"], None),
        (["bot", "engine", "--budget", "8"], None),
        (["bot", "--seed", "7", "greedy"], None),
        (["bot", "greedy", "--seed", "-7"], None),
        (["bot", "Greedy"], None),
        (["bot", "greedy", "--help"], None),
        (["bot"], None),
        (["check", "greedy"], None),
    ],
)
def test_the_plain_forms_are_read_here_and_the_rest_left_to_typer(args, expected):
    assert plain_bot_arguments(args, environ={}) == expected
    if expected is not None:
        assert typer_reading(args[1:]) == expected
    assert plain_bot_arguments(args, environ={"_ARBO_COMPLETE": "bash_complete"}) is None


def arbo(*args: str, stdin: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if not key.endswith("_COMPLETE")}
    return subprocess.run(
        [sys.executable, "-m", "arbo_notation", *args], input=stdin, capture_output=True, text=True, env=env, timeout=60
    )


def test_the_bot_run_here_answers_and_ends_as_the_apps():
    game = {
        "type": "game",
        "game": "g",
        "seat": "Ana",
        "players": ["Ana", "Ben"],
        "species": ["Ca", "Dw", "Ja", "Ma", "Oa", "Wi"],
        "hand": ["Ca1", "Ca2", "Ca3", "Dw1", "Dw2", "Dw3", "Ja1"],
    }
    act = {"type": "act", "phase": "draw", "legal": ["d"], "view": {}}
    messages = [{"type": "hello", "protocol": 1}, game, act, {"type": "event", "player": "Ana", "action": "d:Oa5"}]
    messages += [act, {"type": "event", "player": "Ana", "action": "d:Oa6"}, {**act, "phase": "plant"}]
    stdin = "".join(encode(m).decode() for m in messages) + "not json\n"
    direct = arbo("bot", "random", "--seed", "4", stdin=stdin)
    through_typer = arbo("bot", "random", "-s", "4", stdin=stdin)  # -s is typer's alone to read
    assert (direct.returncode, direct.stdout, direct.stderr) == (
        through_typer.returncode,
        through_typer.stdout,
        through_typer.stderr,
    )
    answers = [json.loads(line) for line in direct.stdout.splitlines()]
    assert answers[:3] == [{"type": "hello", "name": "arbo random", "author": "arbo"}, {"action": "d"}, {"action": "d"}]
    assert answers[3]["action"].endswith("@0,0") and len(answers) == 4
    assert (
        direct.returncode == 0
        and direct.stderr
        == 'arbo bot random: message skipped (Expecting value: line 1 column 1 (char 0)): "not json"\n'
    )


def test_hostile_input_is_skipped_with_one_safe_line_each_and_never_read_whole():
    # under a strict locale, whose encoding is not the protocol's UTF-8
    env = {key: value for key, value in os.environ.items() if not key.endswith("_COMPLETE")}
    env.pop("PYTHONIOENCODING", None)
    env.update(LC_ALL="C", PYTHONUTF8="0")
    bot = subprocess.Popen(
        [sys.executable, "-m", "arbo_notation", "bot", "random"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert bot.stdin is not None and bot.stdout is not None
    hello = encode({"type": "hello", "protocol": 1})
    long_line = b'{"type":"event","action":"' + b"x" * (128 << 20) + b'"}\n'
    try:
        bot.stdin.write(b"[" * 1000 + b"\n")
        bot.stdin.write(b'{"type":"act","phase":"plant","legal":[],"view":{}}\n')
        bot.stdin.write(b'{"type":"hello\xff\x1b[2J"}\n')
        bot.stdin.write(long_line)
        bot.stdin.write(hello)
        bot.stdin.flush()
        assert json.loads(bot.stdout.readline())["type"] == "hello"  # all of it read, and skipped
        status = open(f"/proc/{bot.pid}/status", encoding="ascii").read()
        peak = int(status.split("VmHWM:")[1].split()[0]) << 10
        bot.stdin.write(encode({"type": "quit"}))
        bot.stdin.close()
        assert bot.wait(60) == 0
    finally:
        bot.kill()
        bot.wait()
    assert peak < (100 << 20)  # a 128 MB line, never held whole
    assert bot.stdout.read() == b""
    # stderr's encoding is ASCII under this locale: U+FFFD comes as Python's backslash escape
    log = bot.stderr.read().decode("ascii").splitlines()  # type: ignore[union-attr]  # piped above
    assert [line.split(" (")[0] for line in log] == ["arbo bot random: message skipped"] * 4
    assert (
        log[0]
        == 'arbo bot random: message skipped (nested too deep to read): "' + "[" * 200 + '"... (1,000 characters)'
    )
    assert log[1] == (
        'arbo bot random: message skipped (asked to act outside a game, and the "act" gives no legal action to play): '
        '"{\\"type\\":\\"act\\",\\"phase\\":\\"plant\\",\\"legal\\":[],\\"view\\":{\\u007d\\u007d"'
    )
    assert (
        log[2]
        == 'arbo bot random: message skipped (not UTF-8: byte 15 of the line): "{\\"type\\":\\"hello\\ufffd\\u001b[2J\\"\\u007d"'
    )
    assert log[3] == (
        'arbo bot random: message skipped (a line of more than 65,536 bytes): "{\\"type\\":\\"event\\",\\"action\\":\\"'
        + "x" * 167
        + f'"... ({len(long_line):,} bytes)'
    )


def test_a_plain_bot_never_imports_typer():
    script = (
        "import sys; sys.argv = ['arbo', 'bot', 'greedy', '--seed', '3']\n"
        "from arbo_notation.cli import main\n"
        "try:\n    main()\nexcept SystemExit as end:\n    print(end.code, 'typer' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], input='{"type":"quit"}\n', capture_output=True, text=True, timeout=60
    )
    assert done.stdout == "0 False\n", done.stderr
