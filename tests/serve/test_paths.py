"""Which records are served: the file given, or the .arb files directly in the folder; never a
path outside it (`..`, a separator however encoded, a hidden file, a link leading out)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from arbo_notation.errors import ArboError
from arbo_notation.serve.paths import NotServed, Served

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "unfinished.arb"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    club = tmp_path / "club"
    club.mkdir()
    shutil.copy(SAMPLE, club / "table1.arb")
    shutil.copy(SAMPLE, club / "table2.arb")
    (club / "notes.txt").write_text("not a record")
    (club / ".hidden.arb").write_text("")
    (club / "sub").mkdir()
    shutil.copy(SAMPLE, club / "sub" / "deep.arb")
    shutil.copy(SAMPLE, tmp_path / "outside.arb")
    os.symlink(tmp_path / "outside.arb", club / "leak.arb")
    os.symlink(club / "table1.arb", club / "alias.arb")  # a link inside the folder is a record of it
    return club


def test_a_folder_serves_its_own_records_by_name(folder: Path) -> None:
    served = Served.of(folder)
    assert served.names() == ["alias.arb", "table1.arb", "table2.arb"]
    assert served.resolve("table2.arb") == folder.resolve() / "table2.arb"


@pytest.mark.parametrize(
    "name",
    [
        "../outside.arb",
        "..",
        "..%2Foutside.arb",
        "sub/deep.arb",
        "sub%2Fdeep.arb",
        "sub\\deep.arb",
        ".hidden.arb",
        "leak.arb",
        "notes.txt",
        "missing.arb",
        "/etc/passwd",
        "table1.arb\0",
        "",
    ],
)
def test_no_other_name_is_served(folder: Path, name: str) -> None:
    with pytest.raises(NotServed):
        Served.of(folder).resolve(name)


def test_a_file_serves_itself_alone(folder: Path) -> None:
    served = Served.of(folder / "table1.arb")
    assert served.names() == ["table1.arb"]
    with pytest.raises(NotServed):
        served.resolve("table2.arb")


def test_a_link_leading_out_is_refused_at_the_start(folder: Path) -> None:
    with pytest.raises(ArboError, match="inside its folder"):
        Served.of(folder / "leak.arb")


def test_a_missing_path_is_said(tmp_path: Path) -> None:
    with pytest.raises(ArboError, match="no such file or folder"):
        Served.of(tmp_path / "nothing")
