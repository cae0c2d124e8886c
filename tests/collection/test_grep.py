"""`arbo grep`: every filter, the games printed as written (they pipe into fmt and check), their
places, and duplicates found whatever the headers and annotations, or from other seats."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.engine.cards import Card
from arbo_notation.notation.reading.reader import parse
from arbo_notation.engine.actions import Draw
from arbo_notation.notation.model import Comment
from arbo_notation.notation.writer import format_game
from arbo_notation.checking.games import check_text

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
runner = CliRunner()
# the samples as tests/collection/test_stats.py lists them: event, date, players, species, winner
ARCHIVE = [
    "annotated.arb",
    "four-players.arb",
    "house-discards.arb",
    "three-player-spectator.arb",
    "two-player-omniscient.arb",
    "unfinished.arb",
]


def run(*args, input=None):
    return runner.invoke(app, [str(a) for a in args], input=input)


@pytest.fixture(scope="module")
def club(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("club")
    for name in ARCHIVE:
        shutil.copy(SAMPLES / name, folder / name)
    return folder


def listed(*args) -> list[str]:
    done = run("grep", *args, "--list")
    assert done.exit_code == 0, done.output
    return [line.split(":", 1)[0].rsplit("/", 1)[-1] for line in done.stdout.splitlines()]


def test_no_filter_lists_every_game_in_order_of_names(club):
    assert listed(club) == sorted(ARCHIVE)
    done = run("grep", club / "four-players.arb", "--list")
    assert done.stdout == f"{club / 'four-players.arb'}:1 (game 1, as Cleo)\n"


@pytest.mark.parametrize(
    "args, expected",
    [
        (["--player", "Cleo"], ["four-players.arb", "house-discards.arb"]),
        (["--player", "Ana", "--player", "Cleo"], ["four-players.arb", "house-discards.arb"]),
        (["--player", "Ana,Dev"], ["four-players.arb"]),
        (["--player", "Ana", "--won"], ["annotated.arb", "two-player-omniscient.arb"]),
        (["--player", "Ben", "--won"], ["house-discards.arb"]),
        (["--player", "Ana,Ben", "--won"], []),
        (["--species", "Rp"], ["four-players.arb", "house-discards.arb", "three-player-spectator.arb"]),
        (["--species", "Ca,Tp"], ["four-players.arb"]),
        (
            ["--date", "2026-11"],
            ["annotated.arb", "four-players.arb", "house-discards.arb", "two-player-omniscient.arb", "unfinished.arb"],
        ),
        (["--date", "2026-10-18"], ["three-player-spectator.arb"]),
        (["--date", "2025"], []),
        (["--event", "CLUB"], ["two-player-omniscient.arb"]),
        (["--event", "night"], ["house-discards.arb", "two-player-omniscient.arb"]),
        (["--site", "lyon"], ["two-player-omniscient.arb"]),
        (["--player", "Ben", "--date", "2026-11", "--event", "club"], ["two-player-omniscient.arb"]),
    ],
)
def test_each_filter(club, args, expected):
    assert listed(club, *args) == expected


def test_the_games_are_printed_as_written_and_pipe_into_fmt_and_check(club):
    done = run("grep", club, "--player", "Ana", "--won")
    annotated = (club / "annotated.arb").read_text()
    omniscient = (club / "two-player-omniscient.arb").read_text()
    assert done.stdout == annotated.rstrip("\n") + "\n\n" + omniscient.rstrip("\n") + "\n"
    assert check_text(done.stdout).valid and check_text(done.stdout).game_count == 2
    formatted = run("fmt", "-", input=done.stdout)
    assert formatted.exit_code == 0 and len(parse(formatted.stdout)) == 2


def test_a_game_of_many_in_one_file(club, tmp_path):
    both = tmp_path / "both.arb"
    both.write_text((club / "annotated.arb").read_text() + "\n" + (club / "house-discards.arb").read_text())
    done = run("grep", both, "--player", "Cleo", "--list")
    line = 1 + (club / "annotated.arb").read_text().count("\n") + 1
    assert done.stdout == f"{both}:{line} (game 2)\n"


def test_options_that_do_not_fit_are_usage_errors(club):
    won = run("grep", club, "--won")
    assert won.exit_code == 2 and "give --player NAME too" in won.stderr
    date = run("grep", club, "--date", "Nov 2026")
    assert date.exit_code == 2 and "--date is a year, a month or a day" in date.stderr


@pytest.mark.parametrize("date", ["2026-13", "2026-00", "2026-02-30", "2026-11-31", "0999"])
def test_a_date_that_does_not_exist_is_a_usage_error(club, date):
    """Issue 45, point 8: 2026-13 was taken, and matched nothing, silently."""
    result = run("grep", club, "--date", date)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"arbo: --date {date}: no such date (a year from 1000, a month 01 to 12, a day its month has)\n"
    )


@pytest.mark.parametrize("date", ["2026", "2026-11", "2024-02-29"])
def test_a_real_date_is_taken(club, date):
    result = run("grep", club, "--date", date, "--list")
    assert (result.exit_code, result.stderr) == (0, "")  # no match is no error


def test_a_game_that_cannot_be_read_is_named_when_the_filter_needs_it(club, tmp_path):
    shutil.copy(SAMPLES / "invalid" / "bad-card-value.arb", tmp_path / "bad.arb")
    header_only = run("grep", tmp_path / "bad.arb", "--player", "Ana", "--list")
    assert header_only.exit_code == 0 and header_only.stdout.startswith(f"{tmp_path / 'bad.arb'}:1")
    won = run("grep", tmp_path / "bad.arb", "--player", "Ana", "--won")
    assert won.exit_code == 1 and "found 'Ma9'" in won.stderr and won.stdout == ""
    missing = run("grep", tmp_path / "nope.arb")
    assert missing.exit_code == 1 and "nope.arb" in missing.stderr


def _annotated_copy(record):
    """The same game with another header and other annotations."""
    header = dataclasses.replace(
        record.header,
        event="Replayed for the newsletter",
        date="2027-01-05",
        annotator="Cleo",
        extra={"source": "a photo"},
    )
    turns = list(record.turns)
    turns[3] = dataclasses.replace(turns[3], glyphs=("?!",), comments_after=(Comment("too slow"),))
    return dataclasses.replace(record, header=header, turns=tuple(turns), comments=(Comment("Typed in later"),))


def _from_anas_seat(record):
    """The same game as Ana recorded it: her own hand and draws, Ben's draws from the deck unseen."""

    def seen(turn):
        if turn.player == "Ana":
            return turn
        return dataclasses.replace(
            turn, draws=tuple(Draw() if isinstance(d, Draw) and d.owner is None else d for d in turn.draws)
        )

    header = dataclasses.replace(record.header, deck=None, hands={"Ana": record.header.hands["Ana"]}, perspective="Ana")
    return dataclasses.replace(record, header=header, turns=tuple(seen(t) for t in record.turns))


def test_duplicates_across_headers_and_annotations_and_from_other_seats(club, tmp_path):
    [game] = parse((club / "two-player-omniscient.arb").read_text())
    copy, seat = _annotated_copy(game), _from_anas_seat(game)
    assert check_text(format_game(seat)).valid  # a record Ana could have kept
    (tmp_path / "copy.arb").write_text(format_game(copy))
    (tmp_path / "ana.arb").write_text(format_game(seat) + "\n" + format_game(seat))
    done = run("grep", club, tmp_path, "--duplicates")
    assert done.exit_code == 0, done.output
    original = f"{club / 'two-player-omniscient.arb'}:1 (game 1)"
    at_seat = f"{tmp_path / 'ana.arb'}:1 (game 1, as Ana)"
    second = format_game(seat).count("\n") + 2
    assert done.stdout.splitlines() == [
        f"same game: {original}, {tmp_path / 'copy.arb'}:1 (game 1)",
        f"same game: {at_seat}, {tmp_path / 'ana.arb'}:{second} (game 2, as Ana)",
        f"other seats: {original}, {at_seat}",
    ]
    narrowed = run("grep", club, tmp_path, "--duplicates", "--event", "newsletter")
    assert narrowed.stdout == ""  # one game of that event: no duplicate among the games that match


def test_different_games_are_no_duplicates(club):
    assert run("grep", club, "--duplicates").stdout == ""


def test_records_of_the_same_turns_that_disagree_on_a_card_are_conflicting(club, tmp_path):
    [game] = parse((club / "two-player-omniscient.arb").read_text())
    turns = list(game.turns)
    first = turns[0]
    slipped = Draw(None, Card("Ma", 1))  # 1. Ana d:Ja6 d:Ma7 ... with Ma7 written Ma1
    turns[0] = dataclasses.replace(first, draws=(first.draws[0], slipped))
    (tmp_path / "slip.arb").write_text(format_game(dataclasses.replace(game, turns=tuple(turns))))
    (tmp_path / "ana.arb").write_text(format_game(_from_anas_seat(game)))
    done = run("grep", club / "two-player-omniscient.arb", tmp_path / "slip.arb", tmp_path / "ana.arb", "--duplicates")
    original = f"{club / 'two-player-omniscient.arb'}:1 (game 1)"
    slip, seat = f"{tmp_path / 'slip.arb'}:1 (game 1)", f"{tmp_path / 'ana.arb'}:1 (game 1, as Ana)"
    # Ana's record knows her own draw Ma7: it agrees with the referee's, not with the slip
    assert done.stdout.splitlines() == [f"other seats: {original}, {seat}", f"conflicting: {original}, {slip}"]


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_any_game_and_its_record_from_a_seat_are_one_game_seen_otherwise(seed):
    from arbo_notation.collection.grep import compatible, knowledge, public_key, record_key
    from arbo_notation.play.simulate import simulate_game

    game = simulate_game(("Ana", "Ben"), seed)
    seat = _from_anas_seat(game)
    assert public_key(seat) == public_key(game) and record_key(seat) != record_key(game)
    assert compatible(knowledge(game), knowledge(seat)) and compatible(knowledge(seat), knowledge(game))
    assert record_key(_annotated_copy(game)) == record_key(game)
