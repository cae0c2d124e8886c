"""What every command shares: exit statuses, help a player reads, errors in arbo's words, --version,
completion, and what a run that writes files says about it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import ClassVar

import pytest
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.engine import compiled

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
INVALID = SAMPLES / "invalid"
CLEAN = SAMPLES / "two-player-omniscient.arb"
COMMANDS = (
    "check",
    "score",
    "state",
    "fmt",
    "convert",
    "simulate",
    "stats",
    "grep",
    "new",
    "replay",
    "export",
    "render",
    "analyse",
)

runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, str]:
    """Inputs of the table: a file of two games, a file in the way of a directory, and so on."""
    folder = tmp_path_factory.mktemp("inputs")
    two = folder / "two.arb"
    two.write_text(CLEAN.read_text(encoding="utf-8") + (SAMPLES / "four-players.arb").read_text(encoding="utf-8"))
    blocker = folder / "blocker.arb"
    blocker.write_text("")
    bad_position = folder / "bad.yaml"
    bad_position.write_text("species: [Ma]\nplayers: 3\n")
    empty = folder / "empty"
    empty.mkdir()
    binary = folder / "binary.arb"
    binary.write_bytes(b"---\nplayers: [Ana, Ben]\n\xff\xfe\n---\n")
    return {
        "CLEAN": str(CLEAN),
        "TWO": str(two),
        "FOUR": str(SAMPLES / "four-players.arb"),
        "UNFINISHED": str(SAMPLES / "unfinished.arb"),
        "POSITION": str(SAMPLES / "positions" / "club-final.yaml"),
        "BAD_POSITION": str(bad_position),
        "MALFORMED": str(INVALID / "bad-card-value.arb"),
        "ILLEGAL": str(INVALID / "rule-planting-not-adjacent.arb"),
        "WRONG_RESULT": str(INVALID / "rule-wrong-result.arb"),
        "BINARY": str(binary),
        "MISSING": str(folder / "missing.arb"),
        "FOLDER": str(folder),
        "EMPTY": str(empty),
        "BLOCKER": str(blocker),
        "PNG": str(folder / "out.png"),
        "OUT": str(folder / "out"),
    }


# (command line, exit status, a piece of the one message on stderr; None: stderr is empty)
TABLE = [
    # all is well: 0
    ("check CLEAN", 0, None),
    ("score POSITION", 0, None),
    ("score CLEAN", 0, None),
    ("state CLEAN --turn 3", 0, None),
    ("fmt CLEAN", 0, None),
    ("convert CLEAN --to json", 0, None),
    ("simulate --players 2 --seed 1", 0, None),
    ("new --players Ana,Ben", 0, None),
    ("replay FOUR --plain", 0, None),
    # bad input data: 1
    ("check MISSING", 1, "no such file"),
    ("check EMPTY", 1, "is a directory, not a file"),  # a folder without a record in it
    ("score FOLDER", 1, "is a directory, not a file"),
    ("check MALFORMED", 1, "error:"),
    ("check ILLEGAL", 1, "none of Ben's trees is adjacent"),
    ("check WRONG_RESULT", 1, "the result line gives Ben 6"),
    ("check BINARY", 1, "not UTF-8"),
    ("score MISSING", 1, "no such file"),
    ("score BAD_POSITION", 1, "'players' must be a list"),
    ("score UNFINISHED", 1, "game 1 is not finished: nothing to score"),
    ("score MALFORMED", 1, "error:"),
    ("score WRONG_RESULT", 1, "the result line gives Ben 6"),
    ("state MISSING", 1, "no such file"),
    ("state MALFORMED", 1, "error:"),
    ("fmt MISSING", 1, "no such file"),
    ("fmt MALFORMED", 1, "error:"),
    ("convert MISSING --to json", 1, "no such file"),
    ("convert MALFORMED --to json", 1, "error:"),
    ("convert CLEAN --from json --to arb", 1, "error: not valid JSON"),
    ("simulate --players 2 --out BLOCKER", 1, "exists, and arbo simulate writes new files only"),
    ("replay MISSING", 1, "no such file"),
    ("replay MALFORMED", 1, "error:"),
    ("replay ILLEGAL --plain", 1, "none of Ben's trees is adjacent"),
    ("replay BINARY", 1, "not UTF-8"),
    # usage errors, option values that do not fit the record included: 2
    ("replay TWO --turn 99", 2, "arbo: game 1 has 20 turns; there is no position after turn 99\n"),
    ("state TWO --turn 99", 2, "arbo: game 1 has 20 turns; there is no position after turn 99\n"),
    ("state TWO --game 7", 2, "holds 2 games; there is no game 7\n"),
    ("replay TWO --game 7", 2, "holds 2 games; there is no game 7\n"),
    ("score TWO --game 7", 2, "holds 2 games; there is no game 7\n"),
    ("score POSITION --game 2", 2, "club-final.yaml is a position, of one game; there is no game 2\n"),
    ("score POSITION --game 1", 0, None),
    ("replay TWO --as Zed", 2, "arbo: --as Zed: not a player of this game (Ana, Ben)\n"),
    ("replay TWO --screenshot PNG", 2, "--screenshot writes SVG: give a file name ending in .svg"),
    ("replay TWO --size 3x3", 2, "--size 3x3: the width is 40 to 500 and the height 10 to 300"),
    ("replay TWO --size big", 2, "--size takes WIDTHxHEIGHT, such as 120x40, not 'big'"),
    ("state TWO --turn -1", 2, "--turn must be 0 or more, not -1"),
    ("state TWO --game two", 2, "--game takes a whole number (1 to 100000000), not 'two'"),
    ("score TWO --game 0", 2, "--game must be 1 or more, not 0"),
    ("check -j -1 CLEAN", 2, "--jobs must be 0 or more, not -1"),
    ("check -q", 2, "missing argument 'FILE...' (see 'arbo check --help')"),
    ("new --seat Ana", 2, "missing option '--players' / '-p' (see 'arbo new --help')"),
    ("record --plain", 2, "missing argument 'FILE' (see 'arbo record --help')"),
    ("simulate --games 2", 2, "missing option '--players' / '-p' (see 'arbo simulate --help')"),
    ("check --jsn CLEAN", 2, "no such option: --jsn"),
    ("fmt --check --in-place CLEAN", 2, "--check and --in-place exclude each other"),
    ("convert CLEAN --to xml", 2, "--to must be one of json, yaml, arb, parquet, not 'xml'"),
    ("convert CLEAN", 2, "missing option '--to'"),
    ("simulate --players 5", 2, "--players must be 2, 3 or 4, not 5"),
    ("simulate --players 2 --games 0", 2, "--games must be 1 or more, not 0"),
    ("simulate --players 2 --bot clever", 2, "--bot: no bot is called 'clever'"),
    ("new --players Ana", 2, "--players: a game has 2 to 4 players, not 1"),
    ("new --players " + "A" * 101 + ",Ben", 2, "--players: a player name has at most 100 characters, not 101"),
    ("new --players Ana,Ben --date 2025-13-01", 2, "--date: '2025-13-01' is not a date written YYYY-MM-DD"),
    ("nonsense", 2, "no such command 'nonsense'"),
]


def _messages(stderr: str) -> list[str]:
    """The messages of stderr: each opens a line (a source line and its caret are indented), and a
    warning does not count."""
    return [line for line in stderr.splitlines() if line and not line[0].isspace() and ": warning:" not in line]


@pytest.mark.parametrize(("line", "status", "message"), TABLE, ids=[row[0] for row in TABLE])
def test_exit_status_and_one_message(files, line: str, status: int, message: str | None):
    args = [files.get(word, word) for word in line.split()]
    result = run(*args)
    assert result.exit_code == status, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    if message is None:
        assert result.stderr == ""
        return
    assert message in result.stderr
    messages = _messages(result.stderr)
    assert len(messages) == 1, result.stderr
    if status == 2:
        assert result.stderr.startswith("arbo: ") and result.stderr.count("\n") == 1


@pytest.mark.parametrize("command", ["export CLEAN --to html -o OUT.html", "render CLEAN -o OUT.svg"])
def test_export_and_render_say_what_they_wrote(files, command: str):
    args = [files["OUT"] + word[3:] if word.startswith("OUT.") else files.get(word, word) for word in command.split()]
    written = args[-1]
    result = run(*args)
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr.startswith(f"arbo: wrote {written} (") and result.stderr.count("\n") == 1
    assert Path(written).stat().st_size > 1000


def test_bare_arbo_lists_the_commands_and_exits_2():
    result = run()
    assert result.exit_code == 2
    assert result.stderr.startswith("Usage: arbo [OPTIONS] COMMAND [ARGS]...")
    assert "Commands:" in result.stderr and "  record " in result.stderr and "  render " in result.stderr
    assert result.stdout == ""


#: What each command lacks when run bare; `arbo species` lists the species bare, and is not here.
BARE = {
    "record": "argument FILE",
    "check": "argument FILE",
    "score": "argument FILE",
    "state": "argument FILE",
    "fmt": "argument FILE",
    "convert": "argument FILE",
    "simulate": "option --players",
    "bot": "argument BOT",
    "match": "argument BOT",
    "stats": "argument FILE|DIR",
    "ratings": "argument FILE|DIR",
    "grep": "argument FILE",
    "new": "option --players",
    "replay": "argument FILE",
    "export": "argument FILE",
    "render": "argument FILE",
    "merge": "argument FILE",
    "analyse": "argument FILE",
    "puzzles": "argument FILE|DIR",
    "train": "argument FILE",
    "serve": "argument PATH",
}


def test_the_bare_commands_are_every_command_but_species():
    from arbo_notation.cli.application import COMMANDS as ALL

    assert sorted(BARE) == sorted(set(ALL) - {"species", "lsp"})  # bare, each does its work (tests/lsp/)


@pytest.mark.parametrize("command", sorted(BARE))
def test_a_bare_command_prints_its_usage_what_is_missing_and_where_the_help_is(command: str):
    """As git and cargo answer, the same for every command (a real process: `arbo check` starts
    without typer, cli/direct.py)."""
    arbo = str(Path(sys.executable).with_name("arbo"))  # the installed command: its name is the program's
    done = subprocess.run([arbo, command], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    usage = subprocess.run([arbo, command, "--help"], capture_output=True, text=True, timeout=60).stdout.splitlines()[0]
    assert usage.startswith(f"Usage: arbo {command} [OPTIONS]")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"{usage}\narbo: missing {BARE[command]}\nTry 'arbo {command} --help' for help.\n"


def test_bare_species_lists_the_species():
    done = subprocess.run(
        [sys.executable, "-m", "arbo_notation", "species"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, "") and "Oa" in done.stdout


def test_a_turn_an_illegal_turn_stops_short_of_is_bad_data_not_usage(files):
    result = run("state", files["ILLEGAL"], "--turn", "5")
    assert result.exit_code == 1
    assert "error: Ben cannot plant Oa4 at (2,1)" in result.stderr
    assert result.stderr.endswith(
        "arbo: game 1 has 3 legal turns (turn 4 is illegal); there is no position after turn 5\n"
    )


def test_the_docs_state_the_exit_status_rule_and_the_readme_sets_up_a_virtual_environment_first():
    commands = " ".join((ROOT / "docs" / "COMMANDS.md").read_text(encoding="utf-8").split())
    assert "0 when all is well, 1 for bad input data" in commands
    assert "2 for a usage error, including an option value that does not fit the record" in commands
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    venv = readme.index("python3 -m venv .venv && . .venv/bin/activate")
    assert venv < readme.index("pip install . && arbo replay samples/annotated.arb")


# -- help and errors in a player's words ---------------------------------------------------------


TYPER_WORDS = re.compile(r"<bool>|<str>|<int|list\[str\]|<float>|<path>|\{\w|\[x>=|Input should|Value error")


@pytest.mark.parametrize("command", ("", *COMMANDS))
def test_help_shows_no_python_types(command: str):
    result = run(*([command] if command else []), "--help")
    assert result.exit_code == 0
    found = TYPER_WORDS.findall(result.stdout)
    assert found == [], result.stdout


OPTION_METAVARS = [
    ("check", "--jobs", "N"),
    ("score", "--game", "N"),
    ("state", "--game", "N"),
    ("state", "--turn", "N"),
    ("convert", "--to", "FORMAT"),
    ("convert", "--from", "FORMAT"),
    ("simulate", "--players", "N"),
    ("simulate", "--games", "N"),
    ("simulate", "--seed", "SEED"),
    ("simulate", "--out", "DIR|FILE.arb|-"),
    ("simulate", "--bot", "greedy|random|engine"),
    ("simulate", "--budget", "N"),
    ("analyse", "--out", "OUT"),
    ("analyse", "--budget", "N"),
    ("analyse", "--jobs", "N"),
    ("analyse", "--as", "PLAYER"),
    ("analyse", "--turn", "N"),
    ("analyse", "--game", "N"),
    ("analyse", "--seed", "SEED"),
    ("simulate", "--event", "TEXT"),
    ("simulate", "--to", "FORMAT"),
    ("simulate", "--jobs", "N"),
    ("convert", "--output", "DIR"),
    ("convert", "--games-per-part", "N"),
    ("stats", "--by", "event|date|players"),
    ("grep", "--player", "NAME"),
    ("grep", "--species", "CODES"),
    ("grep", "--date", "DATE"),
    ("grep", "--event", "TEXT"),
    ("grep", "--site", "TEXT"),
    ("new", "--players", "NAME,NAME[,...]"),
    ("new", "--seed", "SEED"),
    ("new", "--date", "YYYY-MM-DD"),
    ("replay", "--game", "N"),
    ("replay", "--turn", "N"),
    ("replay", "--as", "PLAYER"),
    ("replay", "--screenshot", "FILE.svg"),
    ("replay", "--size", "WxH"),
]


@pytest.mark.parametrize(("command", "option", "metavar"), OPTION_METAVARS)
def test_every_option_that_takes_a_value_names_it(command: str, option: str, metavar: str):
    out = run(command, "--help").stdout
    rows = [" ".join(row.split()) for row in out.splitlines()]
    options = rows[rows.index("Options:") :]
    row = next(row for row in options if re.match(rf"(-\w, )?{re.escape(option)} ", row))
    assert re.match(rf"(-\w, )?{re.escape(option)} {re.escape(metavar)} ", row), row


@pytest.mark.parametrize(
    ("args", "stderr"),
    [
        (["state", str(CLEAN), "--turn", "-1"], "arbo: --turn must be 0 or more, not -1 (see 'arbo state --help')\n"),
        (
            ["convert", str(CLEAN), "--to", "xml"],
            "arbo: --to must be one of json, yaml, arb, parquet, not 'xml' (see 'arbo convert --help')\n",
        ),
        (
            ["check", "-j", "many", str(CLEAN)],
            "arbo: --jobs takes a whole number (0 to 1024), not 'many' (see 'arbo check --help')\n",
        ),
        (["simulate", "--players", "1"], "arbo: --players must be 2, 3 or 4, not 1 (see 'arbo simulate --help')\n"),
    ],
)
def test_errors_are_in_arbos_words(args, stderr):
    result = run(*args)
    assert (result.exit_code, result.stderr) == (2, stderr)


@pytest.mark.parametrize(
    ("command", "option"),
    [
        (["match", "greedy", "random", "--games", "1"], "--out"),
        (["analyse", str(CLEAN), "--budget", "4"], "--out"),
        (["render", str(CLEAN)], "--out"),
        (["export", str(CLEAN), "--to", "html"], "--out"),
        (["simulate", "--games", "1", "--players", "2"], "--out"),
        (["merge", str(CLEAN), str(CLEAN)], "--out"),
        (["convert", str(CLEAN), "--to", "parquet"], "--output"),
        (["puzzles", str(SAMPLES / "analysed.arb")], "--out"),
    ],
)
def test_an_empty_path_is_a_usage_error_and_nothing_is_written(tmp_path, monkeypatch, command, option):
    # '' once made `match --out ""` write its games into the current folder
    monkeypatch.chdir(tmp_path)
    for given in (option, "-o"):
        result = run(*command, given, "")
        name = command[0]
        assert (result.exit_code, result.stderr) == (
            2,
            f"arbo: {option} takes a path, not '' (see 'arbo {name} --help')\n",
        )
    assert list(tmp_path.iterdir()) == []


def test_version_is_the_packages():
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    result = run("--version")
    build = ", compiled (mypyc)" if compiled() else ""  # the opt-in build says so (tests/engine/test_compiled.py)
    assert (result.exit_code, result.stdout) == (0, f"arbo {version}{build}\n")


def test_shell_completion_is_typers_own():
    assert "--install-completion" in run("--help").stdout
    # typer asks shellingham which shell runs arbo, from the processes above it: under a busy
    # pytest-xdist worker it may find none ("Shell  not supported"), so arbo runs under bash here.
    arbo = str(Path(sys.executable).with_name("arbo"))  # the installed command: its name is the program's
    done = subprocess.run(["bash", "-c", '"$0" --show-completion; exit $?', arbo], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "_ARBO_COMPLETE" in done.stdout and "complete -o default -F _arbo_completion arbo" in done.stdout


@pytest.mark.parametrize(
    ("words", "expected"), [("arbo con", ["convert"]), ("arbo convert g.arb --to ", ["json", "yaml", "arb", "parquet"])]
)
def test_completion_offers_commands_and_formats(words: str, expected: list[str]):
    env = {"_ARBO_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split(" ")) - 1)}
    result = runner.invoke(app, [], env=env, prog_name="arbo")
    assert (result.exit_code, result.stdout.split()) == (0, expected)


# -- score ------------------------------------------------------------------------------------


def test_score_help_says_file_may_be_a_record():
    out = " ".join(run("score", "--help").stdout.replace("│", " ").split())
    assert "A game record (.arb), a position (YAML or JSON), or '-' for standard input." in out
    assert "A position file (YAML or JSON), or '-' for stdin." not in out


def _mid_game_position() -> str:
    state = run("state", str(CLEAN), "--turn", "10", "--json")
    assert state.exit_code == 0, state.stderr
    return state.stdout


def test_score_of_a_position_before_the_end_says_as_if_the_game_ended_here():
    position = _mid_game_position()
    assert json.loads(position)["game_over"] is False
    result = run("score", "-", input=position)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "As if the game ended here: Ben wins with 6 (Ana 4)."
    data = json.loads(run("score", "--json", "-", input=position).stdout)
    assert data["game_over"] is False and data["winners"] == ["Ben"]


def test_score_of_the_end_of_a_game_says_it_is_over(files):
    end = run("state", str(CLEAN), "--json")
    assert "game_over" not in json.loads(end.stdout)  # the end of a game: the position file's usual shape
    result = run("score", "-", input=end.stdout)
    assert result.stdout.splitlines()[-1] == "Ana wins with 16 (Ben 14)."
    data = json.loads(run("score", "--json", "-", input=end.stdout).stdout)
    assert data["game_over"] is True
    assert set(data) == {"species", "players", "winners", "tiebreak", "game_over"}
    games = json.loads(run("score", "--json", files["TWO"]).stdout)
    assert [(sheet["game"], sheet["game_over"]) for sheet in games] == [(1, True), (2, True)]


def test_score_of_an_unfinished_record_is_one_message():
    result = run("score", str(SAMPLES / "unfinished.arb"))
    assert result.exit_code == 1
    assert result.stderr == f"arbo: {SAMPLES / 'unfinished.arb'}: game 1 is not finished: nothing to score\n"


def test_score_of_a_finished_game_with_an_unknown_hand_says_so_not_unfinished(tmp_path):
    spectator = (SAMPLES / "three-player-spectator.arb").read_text(encoding="utf-8")
    lines = [line for line in spectator.splitlines(keepends=True) if not line.startswith(("reveal Omar", "result"))]
    record = tmp_path / "unrevealed.arb"
    record.write_text("".join(lines) + (SAMPLES / "unfinished.arb").read_text(encoding="utf-8"), encoding="utf-8")
    assert run("check", str(record)).exit_code == 0
    result = run("score", str(record))
    assert result.exit_code == 1
    assert result.stderr == (
        f"arbo: {record}: game 2 is not finished; game 1 is over but a hand is unknown (add a reveal line): "
        "nothing to score\n"
    )


# -- replay ----------------------------------------------------------------------------------


def test_a_screenshot_must_be_an_svg(files, tmp_path):
    png = tmp_path / "out.png"
    result = run("replay", str(CLEAN), "--screenshot", str(png))
    assert result.exit_code == 2 and not png.exists()
    assert result.stderr == (
        f"arbo: --screenshot writes SVG: give a file name ending in .svg, not {str(png)!r} (see 'arbo replay --help')\n"
    )


class _FakeApp:
    """Stands in for the replayer: records that it ran, and on which position."""

    runs: ClassVar[list] = []

    def __init__(self, model, **options) -> None:
        self.model = model

    def run(self) -> None:
        _FakeApp.runs.append(self.model.turns_played)


@pytest.fixture
def terminal(monkeypatch):
    import arbo_notation.cli.replay as replay_command
    import arbo_notation.tui.app as tui_app

    _FakeApp.runs = []
    monkeypatch.setattr(replay_command, "_is_terminal", lambda: True)
    monkeypatch.setattr(replay_command, "_keys_from_the_terminal", lambda: None)  # fd 0 stays pytest's
    monkeypatch.setattr(tui_app, "ReplayApp", _FakeApp)
    return _FakeApp.runs


def test_the_ui_on_a_record_with_rule_errors_exits_1_with_them_on_stderr_as_plain_does(terminal, files):
    ui = run("replay", files["ILLEGAL"])
    plain = run("replay", files["ILLEGAL"], "--plain")
    assert terminal == [0]  # the UI opened (and was closed)
    assert ui.exit_code == plain.exit_code == 1
    assert ui.stdout == ""
    assert "error: Ben cannot plant Oa4 at (2,1): none of Ben's trees is adjacent [plant]" in ui.stderr
    assert ui.stderr == plain.stderr


def test_the_ui_on_a_clean_record_exits_0_and_says_nothing(terminal):
    result = run("replay", str(CLEAN), "--turn", "4")
    assert terminal == [4]
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")


def test_replay_help_says_what_the_ui_does_with_rule_errors():
    out = " ".join(run("replay", "--help").stdout.replace("│", " ").split())
    assert (
        "the errors are also printed on stderr (by the terminal UI once it closes) and the exit status is 1, "
        "in the UI, with --plain and with --screenshot alike" in out
    )


# -- runs that write files say what they wrote -------------------------------------------------


SEATS = [str(SAMPLES / "seats" / name) for name in ("ana.arb", "ben.arb", "cleo.arb")]
#: Each command that writes a file or a folder, and what its line says in brackets.
WRITERS = {
    "analyse -o": (["analyse", str(CLEAN), "--turn", "5", "-b", "2", "-j", "1", "-o", "{out}"], "1 turn judged"),
    "analyse --try -o": (
        ["analyse", str(CLEAN), "--turn", "5", "--try", "d d Ma5@-2,0 /Ca6", "-b", "2", "-o", "{out}"],
        "the try as a variation of turn 5",
    ),
    "merge -o": (["merge", *SEATS, "-o", "{out}"], "1 game merged"),
    "replay --screenshot": (
        ["replay", str(CLEAN), "--turn", "2", "--size", "80x24", "--screenshot", "{out}.svg"],
        "SVG",
    ),
    "render -o": (["render", str(CLEAN), "--turn", "2", "-o", "{out}.svg"], "SVG, "),
    "export -o": (["export", str(CLEAN), "--to", "html", "-o", "{out}.html"], "HTML page, "),
    "simulate --out": (["simulate", "--players", "2", "--games", "2", "--seed", "1", "--out", "{out}"], "2 games"),
}


@pytest.mark.parametrize("command", list(WRITERS))
def test_every_command_that_writes_a_file_says_so_in_one_style(tmp_path, command):
    """Issue 45, point 8: 'arbo: wrote X', 'wrote X', 'written: X' and nothing said it before;
    now every one says cli.common.say_wrote's line (analyse then its summary)."""
    args, what = WRITERS[command]
    out = str(tmp_path / "out")
    args = [arg.replace("{out}", out) for arg in args]
    written = next(arg for arg in args if arg.startswith(out))
    result = run(*args)
    assert result.exit_code == 0, result.output
    last = result.stderr.splitlines()[-1] if command != "analyse -o" else result.stderr.splitlines()[0]
    assert last.startswith(f"arbo: wrote {written} ({what}") and last.endswith(")")
    assert Path(written).exists()


def test_no_command_words_a_written_file_its_own_way():
    """The line is cli.common.say_wrote's alone: no other 'wrote X' or 'written: X' in cli/."""
    own_ways = re.compile(r"""f?["'](?:arbo: )?(?:wrote \{|written: )""")
    found = [
        f"{path.name}:{number}"
        for path in sorted((ROOT / "arbo_notation" / "cli").glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if own_ways.search(line) and "def say_wrote" not in line and path.name != "common.py"
    ]
    assert found == []


def test_simulate_into_a_directory_says_how_many_games_it_wrote(tmp_path):
    out = tmp_path / "games"
    result = run("simulate", "--players", "2", "--games", "3", "--seed", "1", "--out", str(out))
    assert result.exit_code == 0
    assert result.stderr == f"arbo: wrote {out} (3 games)\n"
    assert len(list(out.iterdir())) == 3
    quiet = run("simulate", "--players", "2", "--games", "1", "--seed", "1", "--out", str(tmp_path / "more"), "-q")
    assert (quiet.exit_code, quiet.stderr) == (0, "")


def test_fmt_in_place_names_the_files_it_changed_and_counts(tmp_path):
    canonical = tmp_path / "a.arb"
    shutil.copy(CLEAN, canonical)
    messy = tmp_path / "b.arb"
    messy.write_text(CLEAN.read_text(encoding="utf-8").replace("1. Ana", "1.   Ana"), encoding="utf-8")
    result = run("fmt", "-i", str(canonical), str(messy))
    assert result.exit_code == 0
    assert result.stderr == f"reformatted {messy}\n1 file reformatted, 1 unchanged\n"
    assert messy.read_text(encoding="utf-8") == canonical.read_text(encoding="utf-8")
    again = run("fmt", "--in-place", str(canonical), str(messy))
    assert again.stderr == "0 files reformatted, 2 unchanged\n"
    messy.write_text(CLEAN.read_text(encoding="utf-8").replace("1. Ana", "1.   Ana"), encoding="utf-8")
    quiet = run("fmt", "-i", "-q", str(messy))
    assert (quiet.exit_code, quiet.stderr) == (0, "")
    assert messy.read_text(encoding="utf-8") == canonical.read_text(encoding="utf-8")


def test_fmt_in_place_counts_the_files_it_could_not_format(tmp_path):
    good = tmp_path / "good.arb"
    shutil.copy(CLEAN, good)
    result = run("fmt", "-i", str(good), str(INVALID / "bad-card-value.arb"))
    assert result.exit_code == 1
    assert result.stderr.endswith("0 files reformatted, 1 unchanged, 1 not formatted\n")


def test_a_screenshot_says_where_it_went(tmp_path):
    out = tmp_path / "shot.svg"
    result = run("replay", str(CLEAN), "--turn", "2", "--size", "80x24", "--screenshot", str(out))
    assert result.exit_code == 0
    assert result.stderr == f"arbo: wrote {out} (SVG)\n"
    quiet = run("replay", str(CLEAN), "--turn", "2", "--size", "80x24", "--screenshot", str(out), "--quiet")
    assert (quiet.exit_code, quiet.stderr) == (0, "")
    assert out.read_text(encoding="utf-8").startswith("<svg")


# -- check's summary -----------------------------------------------------------------------------


def test_check_counts_games_with_warnings_apart(tmp_path):
    clean_text = CLEAN.read_text(encoding="utf-8")
    assert "\n3. " in clean_text
    warned = clean_text.replace("\n3. ", "\n33. ", 1)  # a misnumbered turn: a warning, still valid
    games = tmp_path / "games.arb"
    games.write_text(
        CLEAN.read_text(encoding="utf-8")
        + warned
        + (INVALID / "rule-planting-not-adjacent.arb").read_text()
        + CLEAN.read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    result = run("check", str(games))
    assert result.exit_code == 1
    assert result.stdout == "4 games: 2 valid, 1 valid with warnings, 1 invalid\n"
    data = json.loads(run("check", "--json", str(games)).stdout)
    assert (data["games"], data["valid"], data["valid_with_warnings"], data["invalid"]) == (4, 3, 1, 1)
    assert data["files"][0]["valid_with_warnings"] == 1
    clean = run("check", str(CLEAN))
    assert clean.stdout == "1 game: 1 valid, 0 invalid\n"  # no warnings: the summary as ever
