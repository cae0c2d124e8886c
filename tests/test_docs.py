"""Every record shown in the docs (README.md, docs/*.md) is what the text says it is.

The fenced blocks are read from the Markdown; each says what it holds by its info string:

- ```` ```arb ````: a whole record that `arbo check` finds valid, without a warning;
- ```` ```arb fragment ````: lines of a game's body shown alone (a turn, variations, a reveal or
  result line), which must read without a syntax error after a header;
- ```` ```arb invalid ````: a whole record that `arbo check` rejects; when the next block is a
  ```` ```text ```` block that starts with a file name (``club.arb:6:27: error: ...``), it is exactly
  what `arbo check` writes on stderr for the record saved under that name;
- ```` ```position ````, ```` ```position invalid ```` and ```` ```json position ````: a position's
  line, one refused (with the words of the ```` ```text ```` block after it), a position's JSON.

Every fenced block says its language, so that no record goes unchecked for want of a tag. The
Python of README.md and docs/API.md runs as doctests; README.md's shell examples run as
tests/collection/test_data_docs.py runs them (```` ```sh run ````), all but the set-up commands.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.engine.position import Position
from arbo_notation.engine.state import Game
from arbo_notation.errors import PositionError
from arbo_notation.notation import parse_all
from arbo_notation.checking.games import check_text

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
KINDS = {"": "valid", "fragment": "fragment", "invalid": "invalid"}
FRAGMENT_HEADER = "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n---\n"


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # of the opening fence
    info: str
    text: str
    after: "Block | None" = None  # the next block of the page

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"

    @property
    def kind(self) -> str | None:
        """The kind of an .arb block (see the module's docstring), None for another language."""
        language, _, rest = self.info.partition(" ")
        if language != "arb":
            return None
        return KINDS.get(rest.strip(), f"unknown kind {rest.strip()!r}")


def fenced_blocks(path: Path) -> list[Block]:
    blocks: list[Block] = []
    opened: tuple[int, str] | None = None
    body: list[str] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        fence = re.match(r"```(.*)$", line)
        if opened is None and fence:
            opened, body = (number, fence.group(1).strip()), []
        elif opened is not None and line.rstrip() == "```":
            blocks.append(Block(path, opened[0], opened[1], "\n".join(body) + "\n"))
            opened = None
        elif opened is not None:
            body.append(line)
    assert opened is None, f"{path}: the block opened on line {opened[0]} is never closed"
    return [
        Block(b.path, b.line, b.info, b.text, blocks[n + 1] if n + 1 < len(blocks) else None)
        for n, b in enumerate(blocks)
    ]


BLOCKS = [block for path in DOCS for block in fenced_blocks(path)]
ARB = [block for block in BLOCKS if block.kind is not None]


def test_every_fenced_block_says_its_language():
    assert [b.where for b in BLOCKS if not b.info] == []


def test_the_docs_show_records_of_every_kind():
    kinds = {block.kind for block in ARB}
    assert kinds == {"valid", "fragment", "invalid"}, kinds
    first = fenced_blocks(ROOT / "docs" / "NOTATION.md")[0]
    assert first.kind == "valid" and first.text.startswith("---\nevent: Club night\n")


@pytest.mark.parametrize("block", ARB, ids=lambda b: b.where)
def test_a_record_in_the_docs_is_what_the_text_says(block: Block, tmp_path: Path, monkeypatch):
    if block.kind == "valid":
        checked = check_text(block.text, block.where)
        assert [d.show() for d in checked.diagnostics] == []
        assert checked.game_count >= 1 and checked.valid_count == checked.game_count
    elif block.kind == "fragment":
        outcome = parse_all(FRAGMENT_HEADER + block.text, block.where)
        assert [e.show() for e in outcome.errors] == []
        [game] = outcome.games
        assert game.turns or game.reveals or game.result
    elif block.kind == "invalid":
        checked = check_text(block.text, block.where)
        assert not checked.valid
        shown = block.after
        if shown is not None and shown.info == "text" and re.match(r"[\w.-]+\.arb:\d+:\d+: ", shown.text):
            name = shown.text.split(":", 1)[0]
            (tmp_path / name).write_text(block.text, encoding="utf-8")
            monkeypatch.chdir(tmp_path)
            result = CliRunner().invoke(app, ["check", name])
            assert result.exit_code == 1
            assert result.stderr == shown.text
    else:
        pytest.fail(f"{block.where}: ```{block.info}: {block.kind}")


POSITIONS = [b for b in BLOCKS if b.info.split(" ")[0] == "position" or b.info == "json position"]


def test_the_notation_shows_positions_of_every_kind():
    assert {b.info for b in POSITIONS} == {"position", "position invalid", "json position"}


@pytest.mark.parametrize("block", POSITIONS, ids=lambda b: b.where)
def test_a_position_in_the_docs_is_what_the_text_says(block: Block):
    """```position``` is a position's line, as str() writes it, of a table a game reaches;
    ```position invalid``` one Game.from_position refuses with the words of the ```text``` block
    after it; ```json position``` the JSON of the line before it."""
    if block.info == "position":
        line = block.text.strip("\n")
        assert str(Position.parse(line)) == line
        assert str(Game.from_position(line).position()) == line
    elif block.info == "position invalid":
        with pytest.raises(PositionError) as refused:
            Game.from_position(block.text.strip("\n"))
        assert block.after is not None and block.after.info == "text"
        assert refused.value.message == block.after.text.strip("\n")
    else:
        data = json.loads(block.text)
        before = [b for b in POSITIONS if b.path == block.path and b.line < block.line and b.info == "position"][-1]
        assert data["text"] == before.text.strip("\n")
        assert Position.from_json(data).to_json() == data


def test_api_md_examples_run_as_doctests(monkeypatch):
    import doctest

    monkeypatch.chdir(ROOT)
    failures, tried = doctest.testfile(
        str(ROOT / "docs" / "API.md"), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert tried >= 162  # every example of the page ran (a block doctest cannot see would lower it)
    assert failures == 0


def test_readme_examples_run_as_doctests(monkeypatch):
    import doctest

    monkeypatch.chdir(ROOT)
    failures, tried = doctest.testfile(
        str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert tried >= 7  # the library's example ran whole
    assert failures == 0


SET_UP = re.compile(r"(python3 -m venv |pip install |python -m pytest)")


def test_every_shell_example_of_the_readme_runs_but_the_set_up():
    shell = [b for b in fenced_blocks(ROOT / "README.md") if b.info.split(" ")[0] == "sh"]
    assert len([b for b in shell if b.info == "sh run"]) >= 3  # record, replay, share
    not_run = [b for b in shell if b.info != "sh run"]
    assert [b.where for b in not_run if not all(SET_UP.match(line) for line in b.text.splitlines())] == []
    python = [b for b in fenced_blocks(ROOT / "README.md") if b.info == "python"]
    assert python and all(b.text.startswith(">>> ") for b in python)  # doctests, so they run
