"""The workspace's records on disk (arbo_notation/lsp/folders.py): found as `arbo check FOLDER`
finds them, within bounds, and read as it reads them; the bounds the client's options ask for."""

import os
from pathlib import Path

from arbo_notation.errors import Code
from arbo_notation.lsp.folders import Bounds, Records, read_record, records_in
from arbo_notation.lsp.server import workspace_options
from arbo_notation.runtime.sources import records_under

GAME = "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n---\n"


def tree(top: Path) -> Path:
    folder = top / "work"
    for name in ["b.arb", "a/z.arb", "a/b/c.arb", ".git/x.arb", "node_modules/p/x.arb", ".hidden.arb", "a/notes.txt"]:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(GAME)
    outside = top / "outside"
    outside.mkdir()
    (outside / "far.arb").write_text(GAME)
    (folder / "far.arb").symlink_to(outside / "far.arb")
    (folder / "near.arb").symlink_to(folder / "b.arb")
    (folder / "broken.arb").symlink_to(top / "nothing.arb")
    (folder / "linked").symlink_to(outside, target_is_directory=True)
    os.mkfifo(folder / "fifo.arb")
    return folder


def names(found: Records, folder: Path) -> list[str]:
    return [os.path.relpath(p, folder) for p in found.paths]


def test_the_records_of_a_folder(tmp_path: Path):
    folder = tree(tmp_path)
    found = records_in(str(folder), Bounds())
    # a link within the folder is a record of it; not one out of it, a broken one, a FIFO, a linked folder
    assert names(found, folder) == ["b.arb", "near.arb", "a/z.arb", "a/b/c.arb"]
    assert (found.size, found.bounded) == (4 * len(GAME), False)
    # what `arbo check FOLDER` checks, less what leads out and the other programs' folders
    checked = {os.path.relpath(p, folder) for p in records_under([str(folder)])}
    assert checked - set(names(found, folder)) == {"far.arb", "broken.arb", "node_modules/p/x.arb"}


def test_the_bounds_on_files_bytes_and_folders(tmp_path: Path):
    folder = tree(tmp_path)
    found = records_in(str(folder), Bounds(files=2))
    assert (names(found, folder), found.bounded) == (["b.arb", "near.arb"], True)
    (folder / "a" / "big.arb").write_text(GAME * 3)
    found = records_in(str(folder), Bounds(size=3 * len(GAME)))  # big.arb passed over, z.arb still taken
    assert (names(found, folder), found.size, found.bounded) == (["b.arb", "near.arb", "a/z.arb"], 3 * len(GAME), True)
    found = records_in(str(folder), Bounds(folders=1))  # the top folder only
    assert (names(found, folder), found.bounded) == (["b.arb", "near.arb"], True)


def test_a_record_read_as_arbo_check_reads_it(tmp_path: Path):
    path = tmp_path / "r.arb"
    path.write_bytes(b"\xef\xbb\xbf" + GAME.encode())
    assert read_record(str(path), 1000).text == GAME  # the mark dropped
    assert read_record(str(path), 10) is None  # too big to be read
    assert read_record(str(tmp_path / "gone.arb"), 1000) is None
    assert read_record(str(tmp_path), 1000) is None  # a folder
    path.write_bytes(GAME.encode() + b"1. Ana \xff\n")
    read = read_record(str(path), 1000)
    assert read.text is None
    ((line, column, code, message),) = [(d.line, d.column, d.code, d.message) for d in read.diagnostics]
    assert (line, column, code, message) == (5, 8, Code.SYNTAX, "the file is not UTF-8 text: byte 0xff cannot be read")


def test_the_clients_options_read_and_bad_ones_not_heeded():
    assert workspace_options(None) == Bounds()
    assert workspace_options({"workspaceDiagnostics": False}) is None
    assert workspace_options({"workspaceDiagnostics": True, "workspaceMaxFiles": 3}) == Bounds(files=3)
    assert workspace_options({"workspaceMaxBytes": 10, "workspaceMaxFiles": 0}) == Bounds(files=0, size=10)
    # a list, a string, a negative or true count, a 'false' in words: the defaults
    for bad in [[1, 2], "off", {"workspaceMaxFiles": -1}, {"workspaceMaxFiles": True}, {"workspaceMaxBytes": "9"}]:
        assert workspace_options(bad) == Bounds()
    assert workspace_options({"workspaceDiagnostics": "false"}) == Bounds()
