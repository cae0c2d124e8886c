"""The source line under a diagnostic shows printable text only: control bytes and other unseen
characters are escaped (as Python writes them, ``\\x00``), the caret stays under the column, and a
very long line is shown around the column only."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.errors import Diagnostic, NotationError, caret_excerpt

HEADER = "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n---\n"


def printable(text: str) -> bool:
    return all(line.isprintable() for line in text.split("\n"))


def test_control_characters_are_escaped_and_the_caret_follows():
    line = "1. Ana d d \x00\x1b[31m Ca3@0,0 /Oa5"
    assert caret_excerpt(line, 12) == ("    1. Ana d d \\x00\\x1b[31m Ca3@0,0 /Oa5\n               ^")
    # column 19 is 'C' of Ca3: the two escapes before it take 8 columns for 2 characters
    assert caret_excerpt(line, 19).splitlines()[1] == " " * 4 + " " * 24 + "^"
    assert caret_excerpt(line, 19).splitlines()[0][4 + 24 :].startswith("Ca3@0,0")


def test_unseen_characters_beyond_ascii_are_escaped_too():
    assert caret_excerpt("Ana\u00a0Ben\u2028x\x7f\x9b", 1).splitlines()[0] == "    Ana\\xa0Ben\\u2028x\\x7f\\x9b"
    assert caret_excerpt("Ma3 \U000e0001 é 木", 1).splitlines()[0] == "    Ma3 \\U000e0001 é 木"


def test_tabs_and_line_ends_are_as_before():
    assert caret_excerpt("1.\tAna d d\r\n", 4) == "    1. Ana d d\n       ^"


def test_a_very_long_line_is_shown_around_the_column():
    line = "x" * 5000 + "\x00" + "y" * 5000
    first, caret = caret_excerpt(line, 5001).splitlines()
    assert len(first) <= 4 + 100 and first.startswith("    ...") and first.endswith("...")
    assert first[caret.index("^") :].startswith("\\x00")
    start, caret_start = caret_excerpt(line, 3).splitlines()
    assert start.startswith("    xxx") and start.endswith("...") and caret_start == "      ^"


def test_notation_errors_and_diagnostics_show_the_escaped_line():
    error = NotationError("bad", file="f.arb", line=5, column=12, source_line="1. Ana d d \x00 Ca3@0,0")
    assert error.show() == "f.arb:5:12: error: bad\n    1. Ana d d \\x00 Ca3@0,0\n               ^"
    assert Diagnostic.from_notation_error(error).show() == (
        "f.arb:5:12: error: bad [syntax]\n    1. Ana d d \\x00 Ca3@0,0\n               ^"
    )


def test_arbo_check_of_bytes_that_are_not_text_prints_no_raw_control_character(tmp_path: Path):
    control = tmp_path / "control.arb"
    control.write_bytes(HEADER.encode() + b"1. Ana d d \x00\x01\x1b[31mred\x7f Ca3@0,0 /Oa5\n")
    binary = tmp_path / "binary.arb"
    binary.write_bytes(bytes(range(256)) * 8)
    runner = CliRunner()
    result = runner.invoke(app, ["check", str(control)])
    assert result.exit_code == 1
    assert printable(result.stderr), result.stderr
    assert "    1. Ana d d \\x00\\x01\\x1b[31mred\\x7f Ca3@0,0 /Oa5\n               ^" in result.stderr
    result = runner.invoke(app, ["check", str(binary)])
    assert result.exit_code == 1
    assert printable(result.stderr), result.stderr
    assert "the file is not UTF-8 text" in result.stderr
    assert max(len(line) for line in result.stderr.splitlines()) < 200
