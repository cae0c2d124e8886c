"""A game started from the phone (serve/recorder.py's ``start``, over a real `arbo serve`): the
questions and checks of `arbo record --players`, a new file of the folder with a safe name, never
one that is there, under the token, the origin and the bounds of every write."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.notation.reading.reader import parse_all
from arbo_notation.serve.paths import Served
from arbo_notation.serve.recorder import MAX_STARTED, Recorder
from tests.serve.support import ROOT, Running, start

SAMPLE = ROOT / "samples" / "unfinished.arb"
HAND = "Bs1 Bs2 Ca3 Cb4 Dw5 Ja6 Ma7"

pytestmark = pytest.mark.slow  # a server process per module


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("new") / "club"
    folder.mkdir()
    shutil.copy(SAMPLE, folder / "table1.arb")
    return folder


@pytest.fixture(scope="module")
def server(club: Path):
    running = start(club)
    yield running
    assert running.stop() == 0


def post_new(server: Running, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
    for _ in range(50):  # past the rate of writes (2 a second, 10 at once), wait as a phone would
        status, reply = server.post("/api/new", body, headers)
        if status != 429:
            break
        time.sleep(0.2)
    return status, reply


def new_game(server: Running, headers: dict[str, str] | None = None, **fields: str) -> tuple[int, dict]:
    body = {"name": "", "players": "", "species": "", "seat": "", "event": "", **fields}
    status, reply = post_new(server, json.dumps(body).encode(), server.own() if headers is None else headers)
    try:
        return status, json.loads(reply)
    except ValueError:
        return status, {"text": reply.decode()}


def test_a_game_is_started_as_arbo_record_starts_it(server: Running, club: Path) -> None:
    status, answer = new_game(
        server, name="final", players="Ana,Ben", species="Bs,Ca,Cb,Dw,Ja,Ma", seat="Ana", event="Club night"
    )
    assert status == 200 and answer["status"] == "ok", answer
    state = answer["state"]
    assert (state["name"], state["phase"], state["prompt"]) == ("final.arb", "hand", "Ana's dealt hand: the 7 cards")
    header = parse_all((club / "final.arb").read_text(), "final.arb").games[0].header
    assert (header.players, header.species, header.perspective, header.event) == (
        ("Ana", "Ben"),
        ("Bs", "Ca", "Cb", "Dw", "Ja", "Ma"),
        "Ana",
        "Club night",
    )
    # the same header as `arbo record --players ... --species ... --seat ...` writes
    terminal = club.parent / "terminal.arb"
    done = CliRunner().invoke(
        app,
        ["record", str(terminal), "--players", "Ana,Ben", "--species", "Bs,Ca,Cb,Dw,Ja,Ma", "--seat", "Ana"]
        + ["--event", "Club night", "--plain", "--date", str(header.date)],
        input="",
    )
    assert done.exit_code == 0, done.output
    assert terminal.read_text() == (club / "final.arb").read_text()
    # then the dealt hand, and the first turn, as on any record
    assert "final.arb" in json.loads(server.get("/api/games", server.own())[1])["games"]
    answer = server.enter("final.arb", HAND, "hand-1", state["base"])
    assert answer["status"] == "ok" and answer["state"]["prompt"] == "turn 1: Ana to play · deck 34"


def test_without_a_name_the_next_free_table_is_taken(server: Running, club: Path) -> None:
    status, answer = new_game(server, players="Cleo,Dan,Eve")
    assert status == 200 and answer["state"]["name"] == "table2.arb"
    header = parse_all((club / "table2.arb").read_text(), "table2.arb").games[0].header
    assert len(header.species) == 8 and header.perspective is None  # at random; a referee's record
    assert answer["state"]["prompt"] == "turn 1: Cleo to play · deck 43"  # 8 species of 8 cards, 21 dealt


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        # the messages of `arbo new` and `arbo record` (record/starting.py)
        ({"players": "Ana"}, "a game has 2 to 4 players, not 1"),
        ({"players": "Ana,Ana"}, "Ana is listed twice"),
        ({"players": "Ana,,Ben"}, "a player name is empty (write the names as Ana,Ben)"),
        ({"players": "Ana,result"}, "'result' cannot be a player name"),
        ({"players": "Ana,Ben", "species": "Bs,Ca"}, "a 2-player game uses 6 species, not 2"),
        ({"players": "Ana,Ben", "species": "Bs,Ca,Cb,Dw,Ja,Zz"}, "Zz is not a species arbo knows"),
        ({"players": "Ana,Ben", "seat": "Cleo"}, "Cleo is not one of the players (Ana, Ben)"),
        ({"players": "Ana,Ben", "event": "two\nlines"}, "each field is one line of text"),
        ({"players": "Ana,Ben", "name": "table1"}, "table1.arb is there already: choose another name"),
        ({"players": "Ana,Ben", "name": "../outside"}, "'../outside.arb' cannot be a record's name"),
        ({"players": "Ana,Ben", "name": "sub/x.arb"}, "'sub/x.arb' cannot be a record's name"),
        ({"players": "Ana,Ben", "name": ".hidden"}, "'.hidden.arb' cannot be a record's name"),
        ({"players": "Ana,Ben", "name": "%2e%2e%2fx"}, "'%2e%2e%2fx.arb' cannot be a record's name"),
    ],
)
def test_a_table_that_cannot_be_is_refused(server: Running, club: Path, fields: dict[str, str], said: str) -> None:
    before = sorted(os.listdir(club.parent)), sorted(os.listdir(club)), (club / "table1.arb").read_bytes()
    status, answer = new_game(server, **fields)
    assert status == 200 and answer["status"] == "refused" and said in answer["message"], answer
    assert (sorted(os.listdir(club.parent)), sorted(os.listdir(club)), (club / "table1.arb").read_bytes()) == before


def test_the_checks_are_arbo_news(server: Running) -> None:
    done = CliRunner().invoke(app, ["new", "--players", "Ana,Ben", "--species", "Bs,Ca"])
    assert done.exit_code == 2 and "a 2-player game uses 6 species, not 2" in done.output
    _, answer = new_game(server, players="Ana,Ben", species="Bs,Ca")
    assert answer["message"] == "a 2-player game uses 6 species, not 2"


@pytest.mark.parametrize(
    "headers",
    [
        {"Content-Type": "application/json"},
        {"X-Arbo-Token": "wrong", "Content-Type": "application/json"},
    ],
)
def test_a_new_game_needs_the_token(server: Running, club: Path, headers: dict[str, str]) -> None:
    status, _ = new_game(server, {**headers, "Origin": server.base}, players="Ana,Ben", name="stolen")
    assert status == 403 and not (club / "stolen.arb").exists()


def test_a_new_game_from_another_origin_is_refused(server: Running, club: Path) -> None:
    headers = {**server.own(), "Origin": "http://evil.example"}
    status, _ = new_game(server, headers, players="Ana,Ben", name="stolen")
    assert status == 403 and not (club / "stolen.arb").exists()
    status, _ = new_game(server, {**server.own(), "Sec-Fetch-Site": "cross-site"}, players="Ana,Ben", name="stolen")
    assert status == 403 and not (club / "stolen.arb").exists()


def test_a_big_or_malformed_request_is_refused(server: Running, club: Path) -> None:
    status, _ = new_game(server, players="Ana,Ben", name="big", event="x" * 5000)
    assert status == 413 and not (club / "big.arb").exists()
    status, reply = post_new(server, b"[1, 2]", server.own())
    assert status == 400 and b"a new game is sent as" in reply
    status, reply = post_new(server, json.dumps({"players": "Ana,Ben"}).encode(), server.own())
    assert status == 400


def test_a_link_in_the_folders_name_is_not_followed(server: Running, club: Path) -> None:
    outside = club.parent / "elsewhere.arb"
    os.symlink(outside, club / "dangling.arb")
    status, answer = new_game(server, players="Ana,Ben", name="dangling")
    assert answer["status"] == "refused" and "there already" in answer["message"]
    assert not outside.exists()


def test_a_server_of_one_file_says_a_new_game_needs_a_folder(tmp_path: Path) -> None:
    shutil.copy(SAMPLE, tmp_path / "table.arb")
    running = start(tmp_path / "table.arb")
    try:
        games = json.loads(running.get("/api/games", running.own())[1])
        assert games == {"games": ["table.arb"], "new": False}
        status, answer = new_game(running, players="Ana,Ben", name="other")
        assert answer == {
            "status": "refused",
            "message": "a new game needs a folder: this server shows one file (arbo serve FOLDER)",
            "column": None,
            "state": None,
        }
        assert sorted(os.listdir(tmp_path)) == ["table.arb"]
    finally:
        assert running.stop() == 0


def test_the_games_a_server_starts_are_bounded(tmp_path: Path) -> None:
    recorder = Recorder(Served.of(tmp_path))
    assert recorder.start("", "Ana,Ben", "", "", "").status == "ok"
    recorder.started = MAX_STARTED
    answer = recorder.start("", "Ana,Ben", "", "", "")
    assert answer.status == "refused" and f"started {MAX_STARTED} games" in answer.message
    assert sorted(os.listdir(tmp_path)) == ["table1.arb"]


def test_a_name_taken_meanwhile_is_never_overwritten(tmp_path: Path) -> None:
    from arbo_notation.record.session import RecordingError, new_header, start_session

    (tmp_path / "late.arb").write_text("someone else's\n")
    with pytest.raises(RecordingError, match="a file of that name is there already"):
        start_session(
            tmp_path / "late.arb", new_header(("Ana", "Ben"), ("Bs", "Ca", "Cb", "Dw", "Ja", "Ma")), new_file=True
        )
    assert (tmp_path / "late.arb").read_text() == "someone else's\n"
    assert sorted(os.listdir(tmp_path)) == ["late.arb"]
