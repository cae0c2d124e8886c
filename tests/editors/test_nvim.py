"""Neovim (Debian's 0.7.2, headless) with editors/nvim: the record's faults as arbo check says
them, a legal planting completed by arbo lsp, and the syntax file's colouring."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.editors.support import FAULTY, ROOT, club_record, program

SESSION = ROOT / "tests" / "editors" / "nvim_lsp_session.lua"


def check_json(record: Path) -> list[dict[str, object]]:
    command = [sys.executable, "-m", "arbo_notation", "check", "--json", str(record)]
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 1  # the record is invalid
    [file] = json.loads(done.stdout)["files"]
    return file["diagnostics"]


def nvim_session(record: Path, typed: list[str], tmp_path: Path) -> dict[str, object]:
    nvim = program("nvim", "neovim")
    out = tmp_path / "seen.json"
    environment = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "ARBO_TEST_ROOT": str(ROOT),
        "ARBO_TEST_PYTHON": sys.executable,
        "ARBO_TEST_RECORD": str(record),
        "ARBO_TEST_OUT": str(out),
        "ARBO_TEST_TYPED": "\n".join(typed),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),  # nothing of the user's own set-up
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    command = [nvim, "--headless", "-i", "NONE", "-u", str(SESSION)]
    done = subprocess.run(command, cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(out.read_text(encoding="utf-8"))
    assert seen["errors"] == []
    return seen


def test_neovim_shows_arbo_checks_faults_and_completes_a_legal_planting(tmp_path: Path):
    record = club_record(tmp_path)
    (tmp_path / "second.arb").write_text(FAULTY.read_text(encoding="utf-8"), encoding="utf-8")
    seen = nvim_session(record, ["4. Ben d:Ma6 d:Oa5 ", "4. Ben d:Ma6 d:Oa5 Oa4@"], tmp_path)
    assert seen["filetype"] == "arbo"
    assert seen["omnifunc"] == "v:lua.vim.lsp.omnifunc"

    severities = {"error": 1, "warning": 2}  # vim.diagnostic.severity.ERROR, .WARN
    expected = [(d["line"] - 1, d["column"] - 1, severities[d["severity"]], d["message"]) for d in check_json(record)]
    shown = [(d["lnum"], d["col"], d["severity"], d["message"]) for d in seen["diagnostics"]]
    assert sorted(shown) == sorted(expected)
    assert (11, 19, 1, "Ben cannot plant Oa4 at (2,1): none of Ben's trees is adjacent") in shown
    assert {d["source"] for d in seen["diagnostics"]} == {"arbo"}

    cards, cells = seen["completions"]
    # Ben's hand after his draws: Ma3 went to his pile on turn 2, Wi3 is Ana's.
    assert cards["labels"] == ["Ma4@", "Ma6@", "Oa2@", "Oa4@", "Oa5@", "Oa8@", "Wi1@", "Wi2@", "Wi4@"]
    # Ben's one tree stands at 0,0: the planting of game 1's fault (2,1) is not offered.
    assert sorted(cells["labels"]) == ["Oa4@-1,0", "Oa4@0,-1", "Oa4@0,1", "Oa4@1,0"]
    assert (seen["clients_of_second"], seen["clients"]) == (1, 1)  # one server for the folder


SYNTAX_PROBE = """
vim.opt.runtimepath:prepend(os.getenv("ARBO_TEST_ROOT") .. "/editors/nvim")
vim.g.arbo_lsp = false
vim.cmd("filetype plugin on")
vim.cmd("syntax on")
vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("ARBO_TEST_RECORD")))
local groups = {}
for lnum = 1, vim.fn.line("$") do
  local line, row = vim.fn.getline(lnum), {}
  for col = 1, #line do
    row[col] = vim.fn.synIDattr(vim.fn.synID(lnum, col, 1), "name")
  end
  groups[lnum] = row
end
vim.fn.writefile({ vim.fn.json_encode({ filetype = vim.bo.filetype, groups = groups }) }, os.getenv("ARBO_TEST_OUT"))
vim.cmd("qall!")
"""


def test_the_syntax_file_names_each_piece(tmp_path: Path):
    nvim = program("nvim", "neovim")
    record = tmp_path / "pieces.arb"
    lines = [
        "---",
        "players: [Ana, Ben]",
        "species: [Ca, Dw, Ja, Ma, Oa, Wi]",
        "---",
        "1. Ana d d:Ma3 Ma3@0,0 /Oa5 ! {first} ; line",
        "  (1. Ana Ben:Wi7 - Wi7@0,0 /Oa5 ?!)",
        "reveal Ana Ca1",
        "result Ana 3, Ben 0",
    ]
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    probe = tmp_path / "probe.lua"
    probe.write_text(SYNTAX_PROBE, encoding="utf-8")
    out = tmp_path / "groups.json"
    environment = {
        **os.environ,
        "ARBO_TEST_ROOT": str(ROOT),
        "ARBO_TEST_RECORD": str(record),
        "ARBO_TEST_OUT": str(out),
    }
    command = [nvim, "--headless", "-i", "NONE", "-u", str(probe)]
    done = subprocess.run(command, cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    seen = json.loads(out.read_text(encoding="utf-8"))
    assert seen["filetype"] == "arbo"

    def group(line: int, text: str, nth: int = 0) -> str:
        """The syntax group of the first character of the nth ``text`` on the 1-based line."""
        column = -1
        for _ in range(nth + 1):
            column = lines[line - 1].index(text, column + 1)
        return seen["groups"][line - 1][column]

    assert group(1, "---") == "arboHeaderDelimiter"
    assert group(2, "players") == "arboHeaderKey"
    assert group(2, "Ben") == "arboPlayerInList"
    assert group(3, "Wi") == "arboSpecies"
    assert group(5, "1.") == "arboTurnNumber"
    assert group(5, "Ana") == "arboPlayer"
    assert group(5, "d") == group(5, "d:") == "arboDeckDraw"
    assert group(5, "Ma3", 0) == "arboCard"
    assert group(5, "0,0") == "arboCell"
    assert group(5, "/") == "arboDiscard"
    assert group(5, "!") == "arboGlyph"
    assert group(5, "{first}") == "arboComment"
    assert group(5, "; line") == "arboLineComment"
    assert group(6, "(") == group(6, ")") == "arboVariationParen"
    assert group(6, "Ben:") == "arboPileDraw"
    assert group(6, "-") == "arboNoDraw"
    assert group(6, "?!") == "arboGlyph"
    assert group(7, "reveal") == "arboReveal"
    assert group(7, "Ana") == "arboRevealPlayer"
    assert group(8, "result") == "arboResultWord"
    assert group(8, "3") == "arboScorePoints"
