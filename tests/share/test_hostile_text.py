"""Text from a record never reaches a terminal or an SVG as commands: control characters and
bidirectional controls are shown as escapes (errors.visible) by every command and screen, while
`fmt` and `convert` write the record's bytes as they are, to a terminal, a pipe or in place."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.errors import visible

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "fixtures" / "hostile" / "terminal.arb"
runner = CliRunner()

#: What must never reach a screen from a record: C0/C1 controls (ESC starts every terminal
#: command, BEL ends OSC ones) and the bidirectional controls that reorder text.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]")


def arbo(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "arbo_notation", *args], capture_output=True, text=True, timeout=120, cwd=ROOT
    )


def test_visible_escapes_controls_and_bidi_and_keeps_what_is_asked():
    assert visible("plain é 木 · ✗") == "plain é 木 · ✗"
    assert visible("\x1b]0;t\x07") == "\\x1b]0;t\\x07"
    assert visible("a\u202eb\u2066c\u200fd") == "a\\u202eb\\u2066c\\u200fd"
    assert visible("a\nb\tc", "\n") == "a\nb\\tc"
    assert visible("\ud800\x85\u2028") == "\\ud800\\x85\\u2028"
    assert visible(visible("\x1b[2J")) == visible("\x1b[2J")


def test_the_fixture_really_holds_terminal_commands():
    text = HOSTILE.read_text(encoding="utf-8")
    assert "\x1b[2J" in text and "\u202e" in text and '"\\e]0;PWNED\\a' in text


@pytest.mark.parametrize(
    "command",
    [
        ("replay", "--plain"),
        ("replay", "--plain", "--turn", "3"),
        ("state",),
        ("state", "--turn", "0"),
    ],
)
def test_text_commands_show_record_text_made_visible(command):
    done = arbo(*command[:1], str(HOSTILE), *command[1:])
    assert done.returncode == 0, done.stderr
    assert not UNSAFE.search(done.stdout) and not UNSAFE.search(done.stderr)
    assert "\\x1b]0;PWNED\\x07\\x1b[31mred" in done.stdout


def test_replay_plain_shows_comments_and_header_escaped():
    out = arbo("replay", str(HOSTILE), "--plain").stdout
    assert "{\\x1b[2J\\x1b[H\\x1b]8;;http://x\\x07Annotated" in out
    assert "\\x1b]52;c;aGVsbG8=\\x07" in out and "round \\u202eevil\\u2066" in out
    assert "{\\x1b[31m\\u202eBs4 opens a Blue Spruce" in out


def test_check_messages_show_record_text_made_visible(tmp_path):
    bad = tmp_path / "bad.arb"
    text = HOSTILE.read_text(encoding="utf-8").replace(
        "result Ana 21, Ben 7", "result Ana 21, Ben 7, Zed\x1b]0;x\x07 3"
    )
    bad.write_text(text, encoding="utf-8")
    done = arbo("check", str(bad))
    assert done.returncode == 1
    assert done.stderr and not UNSAFE.search(done.stderr) and not UNSAFE.search(done.stdout)
    named = tmp_path / "\x1b]0;x\x07.arb"
    named.write_text("not a record\n")
    done = arbo("check", str(named))
    assert done.returncode == 1 and "\\x1b]0;x\\x07.arb" in done.stderr and not UNSAFE.search(done.stderr)


@pytest.mark.slow
def test_render_and_the_screenshot_are_xml_with_record_text_made_visible(tmp_path):
    svg = tmp_path / "board.svg"
    done = arbo("render", str(HOSTILE), "--out", str(svg))
    assert done.returncode == 0, done.stderr
    text = svg.read_text(encoding="utf-8")
    ET.fromstring(text.encode("utf-8"))
    assert not UNSAFE.search(text) and "\\x1b]0;PWNED\\x07" in text
    shot = tmp_path / "shot.svg"
    for turn in ("0", "17"):
        done = arbo("replay", str(HOSTILE), "--turn", turn, "--screenshot", str(shot), "--size", "120x40")
        assert done.returncode == 0, done.stderr
        text = shot.read_text(encoding="utf-8")
        ET.fromstring(text.encode("utf-8"))
        assert not UNSAFE.search(text)


@pytest.mark.slow
def test_the_replayer_screen_shows_no_terminal_command():
    import asyncio

    from arbo_notation.present.navigation import ReplayModel
    from arbo_notation.notation.reading.reader import parse
    from arbo_notation.tui.app import ReplayApp
    from tests.tui_support import screen_lines

    async def screens() -> list[str]:
        record = parse(HOSTILE.read_text(encoding="utf-8"), str(HOSTILE))[0]
        app = ReplayApp(ReplayModel.from_record(record))
        seen = []
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            seen.append("\n".join(screen_lines(app)))
            for _ in range(6):
                await pilot.press("right")
            await pilot.pause()
            seen.append("\n".join(screen_lines(app)))
            await pilot.press("s")
            await pilot.pause()
            seen.append("\n".join(screen_lines(app)))
        return seen

    start, sixth, scoring = asyncio.run(screens())
    for screen in (start, sixth, scoring):
        assert not UNSAFE.search(screen)
    assert "\\x1b]0;PWNED" in start and "\\x1b[2J\\x1b[H" in start and "\\x1b[31m\\u202eBs4" in sixth


def test_fmt_writes_the_same_bytes_to_a_pipe_as_in_place(tmp_path):
    piped = subprocess.run(
        [sys.executable, "-m", "arbo_notation", "fmt", str(HOSTILE)], capture_output=True, timeout=60, cwd=ROOT
    )
    assert piped.returncode == 0, piped.stderr
    copy = tmp_path / "copy.arb"
    copy.write_bytes(HOSTILE.read_bytes())
    in_place = subprocess.run(
        [sys.executable, "-m", "arbo_notation", "fmt", "-i", str(copy)], capture_output=True, timeout=60, cwd=ROOT
    )
    assert in_place.returncode == 0, in_place.stderr
    assert piped.stdout == copy.read_bytes()
    assert b"\x1b[2J\x1b[H" in piped.stdout and "\u202e".encode() in piped.stdout
    inside = runner.invoke(app, ["fmt", str(HOSTILE)])
    assert inside.stdout_bytes == piped.stdout


@pytest.mark.slow
def test_convert_keeps_the_text_byte_exact_through_json_and_yaml(tmp_path):
    for form in ("json", "yaml"):
        there = subprocess.run(
            [sys.executable, "-m", "arbo_notation", "convert", str(HOSTILE), "--to", form],
            capture_output=True,
            timeout=60,
            cwd=ROOT,
        )
        assert there.returncode == 0, there.stderr
        middle = tmp_path / f"g.{form}"
        middle.write_bytes(there.stdout)
        back = subprocess.run(
            [sys.executable, "-m", "arbo_notation", "convert", str(middle), "--to", "arb"],
            capture_output=True,
            timeout=60,
            cwd=ROOT,
        )
        assert back.returncode == 0, back.stderr
        formatted = subprocess.run(
            [sys.executable, "-m", "arbo_notation", "fmt", str(HOSTILE)], capture_output=True, timeout=60, cwd=ROOT
        ).stdout
        assert back.stdout == formatted
    data = json.loads(
        subprocess.run(
            [sys.executable, "-m", "arbo_notation", "convert", str(HOSTILE), "--to", "json"],
            capture_output=True,
            timeout=60,
            cwd=ROOT,
        ).stdout
    )
    assert data["games"][0]["header"]["event"] == "\x1b]0;PWNED\x07\x1b[31mred"


def test_record_plain_shows_a_resumed_records_text_made_visible(tmp_path):
    unfinished = (ROOT / "samples" / "unfinished.arb").read_text(encoding="utf-8")
    path = tmp_path / "game.arb"
    path.write_text(unfinished.replace("---\n", '---\nevent: "\\e]0;x\\a"\n', 1), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "arbo_notation", "record", str(path), "--plain"],
        input="{\x1b]0;typed\x07}\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert not UNSAFE.search(done.stdout) and not UNSAFE.search(done.stderr), (done.stdout, done.stderr)


#: A file name that would retitle the terminal, as it is shown made visible.
HOSTILE_NAME = "g\x1b]0;PWNED\x07"
SHOWN_NAME = "g\\x1b]0;PWNED\\x07"


@pytest.fixture
def hostile_folder(tmp_path) -> Path:
    """A folder holding the hostile record twice (a duplicate) under a name that is a terminal
    command, and a record that cannot be read under another."""
    folder = tmp_path / "club"
    folder.mkdir()
    text = HOSTILE.read_text(encoding="utf-8")
    (folder / f"{HOSTILE_NAME}.arb").write_text(text + "\n" + text, encoding="utf-8")
    (folder / f"{HOSTILE_NAME}-bad.arb").write_text(
        text.replace("result Ana 21, Ben 7", "result Ana 2x"), encoding="utf-8"
    )
    return folder


@pytest.mark.slow
@pytest.mark.parametrize(
    ("command", "shown"),
    [
        (["grep", "--list", "{folder}"], SHOWN_NAME),
        (["grep", "--duplicates", "{folder}"], SHOWN_NAME),
        (
            ["grep", "--won", "--player", "Ana", "--list", "{folder}"],
            SHOWN_NAME,
        ),  # and the unreadable game named on stderr
        (["stats", "{folder}"], SHOWN_NAME),  # the best game's file, and the unreadable game
        (["stats", "--by", "event", "{folder}"], "\\x1b]0;PWNED\\x07\\x1b[31mred"),
        (["check", "{folder}"], SHOWN_NAME),
        (["score", "{good}"], SHOWN_NAME),
        (["score", "{bad}"], SHOWN_NAME),
        (["export", "{good}", "--to", "html", "-o", "{folder}/" + HOSTILE_NAME + ".html"], SHOWN_NAME),
        (["render", "{good}", "-o", "{folder}/" + HOSTILE_NAME + ".svg"], SHOWN_NAME),
        (["replay", "{good}", "--screenshot", "{folder}/" + HOSTILE_NAME + ".svg"], SHOWN_NAME),
        (["state", "{bad}"], SHOWN_NAME),
        (["fmt", "--check", "{good}"], SHOWN_NAME),  # would reformat
        (["convert", "{folder}", "--to", "parquet", "-o", "{folder}/" + HOSTILE_NAME + "-export"], SHOWN_NAME),
        (["simulate", "-p", "2", "-n", "1", "--out", "{folder}/" + HOSTILE_NAME + "-games.arb"], SHOWN_NAME),
        (["state", "{good}", "--as", HOSTILE_NAME], SHOWN_NAME),  # a usage error quoting what was typed
    ],
    ids=lambda value: value if isinstance(value, str) else " ".join(value[:2]),
)
def test_every_command_shows_record_text_and_file_names_made_visible(hostile_folder, command, shown):
    places = {
        "folder": str(hostile_folder),
        "good": str(hostile_folder / f"{HOSTILE_NAME}.arb"),
        "bad": str(hostile_folder / f"{HOSTILE_NAME}-bad.arb"),
    }
    done = arbo(*(part.format(**places) for part in command))
    assert not UNSAFE.search(done.stdout) and not UNSAFE.search(done.stderr)
    assert shown in done.stdout + done.stderr
