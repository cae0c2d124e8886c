"""`arbo record`: the recording session (entries, completions, undo, the end of the game) and the
plain line mode driven through whole simulated games, a real process killed between two turns."""

from __future__ import annotations

import dataclasses
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.engine.cards import Coord
from arbo_notation.notation.model import GameRecord
from arbo_notation.notation.reading.reader import parse
from arbo_notation.notation.views import partial_record
from arbo_notation.notation.writer import format_game
from arbo_notation.record.session import EntryError, OptionMismatch, Phase, RecordingError, open_session
from arbo_notation.checking.games import check_text
from arbo_notation.play.simulate import simulate_game

ROOT = Path(__file__).resolve().parents[2]
DATE = "2026-03-14"
runner = CliRunner()


@pytest.fixture(scope="module")
def three() -> GameRecord:
    return simulate_game(("Ana", "Ben", "Cleo"), 11)


@pytest.fixture(scope="module")
def two() -> GameRecord:
    return simulate_game(("Ana", "Ben"), 4)


def dated(record: GameRecord) -> GameRecord:
    return dataclasses.replace(record, header=dataclasses.replace(record.header, date=DATE))


def seat_view(record: GameRecord, seat: str | None) -> GameRecord:
    """The canonical record of the game as a recorder at ``seat`` (None: a referee who saw no
    hand) writes it, dated as the tests start it."""
    return dated(partial_record(record, seat))


def entries(record: GameRecord, seat: str | None) -> list[str]:
    """What a recorder types for a game: their dealt hand, the turns, the hands they did not see."""
    view = partial_record(record, seat)
    lines = [" ".join(str(c) for c in record.header.hands[seat])] if seat else []
    lines += [turn.notation() for turn in view.turns]
    lines += [f"reveal {r.player} {' '.join(map(str, r.cards))}" for r in record.reveals if r.player != seat]
    return lines


def arbo(*args: str, input: str | None = None):
    """The command run in this process (as a script would run it: standard input not a terminal)."""
    return runner.invoke(app, list(args), input=input)


def start_options(record: GameRecord, seat: str | None) -> list[str]:
    options = [
        "--players",
        ",".join(record.header.players),
        "--species",
        ",".join(record.header.species),
        "--date",
        DATE,
    ]
    return options + (["--seat", seat] if seat else [])


def flat(text: str) -> str:
    """Text as one line, without the box that typer draws around usage errors."""
    return " ".join(re.sub("[│╭╮╰╯─]", " ", text).split())


def checks_clean(text: str) -> bool:
    check = check_text(text, "recorded.arb")
    return check.valid and not check.diagnostics


# -- whole games through `arbo record --plain` --------------------------------------------------------


@pytest.mark.parametrize("seat", ["Ana", "Cleo", None])
def test_plain_records_a_whole_simulated_game_from_a_seat_or_as_a_referee(tmp_path, three, seat):
    out = tmp_path / "game.arb"
    typed = entries(three, seat)
    done = arbo("record", str(out), "--plain", *start_options(three, seat), input="\n".join(typed) + "\n")
    assert done.exit_code == 0, done.stderr
    assert done.stderr == ""
    expected = format_game(seat_view(three, seat))
    assert out.read_text() == expected
    assert checks_clean(expected)
    answers = done.stdout.splitlines()
    assert all(line.startswith("ok ") for line in answers)
    turns = [line for line in answers if line[3:4].isdigit()]
    assert turns == [f"ok {n}. {t.notation()}" for n, t in enumerate(partial_record(three, seat).turns, 1)]
    assert answers[-1] == "ok result " + ", ".join(f"{p} {s}" for p, s in three.result.scores)


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_plain_records_an_omniscient_referees_game_from_its_header(tmp_path, two, end):
    """A referee's record may give every hand and the deck: written ahead, then resumed. Each
    line ends as a record's lines may: LF, CRLF or a lone CR (an old Mac's)."""
    out = tmp_path / "game.arb"
    out.write_text(format_game(GameRecord(two.header)))
    typed = [turn.notation() for turn in two.turns]
    done = arbo("record", str(out), "--plain", input=end.join(typed) + end)
    assert done.exit_code == 0, done.stderr
    assert out.read_text() == format_game(two)  # every hand known: revealed and scored by themselves
    assert checks_clean(out.read_text())
    assert done.stdout.splitlines()[-3:] == [
        *(f"ok reveal {r.player} {' '.join(map(str, r.cards))}" for r in two.reveals),
        "ok result " + ", ".join(f"{p} {s}" for p, s in two.result.scores),
    ]


class Recorder:
    """`arbo record --plain` as a real process, fed one line at a time."""

    def __init__(self, path: Path, *options: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "arbo_notation", "record", str(path), "--plain", *options],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )

    def ok(self, line: str, end: str = "\n") -> str:
        self.process.stdin.write(line + end)
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        assert answer.startswith("ok "), answer
        return answer.rstrip("\n")

    def refused(self, line: str) -> list[str]:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return [self.process.stderr.readline().rstrip("\n") for _ in range(3)]  # message, line, caret

    def close(self) -> int:
        """End the input, wait for the process and close its pipes; its exit status."""
        self.process.stdin.close()
        status = self.process.wait(timeout=60)
        self.process.stdout.close()
        self.process.stderr.close()
        return status


def test_an_illegal_turn_is_refused_with_the_checkers_message_and_the_file_is_left_unchanged(tmp_path, two):
    out = tmp_path / "game.arb"
    recorder = Recorder(out, *start_options(two, None))
    view = partial_record(two)
    for turn in view.turns[:9]:
        recorder.ok(turn.notation())
    before = out.read_text()
    tenth = view.turns[9]
    blocked = tenth.notation().replace(f"@{tenth.plant.coord}", "@40,40")
    answer = recorder.refused(blocked)
    # what `arbo check` says of the same turn in a file
    [diagnostic] = check_text(before + f"10. {blocked}\n", "game.arb").diagnostics
    assert diagnostic.code == "plant"
    column = blocked.index("@40,40") - len(str(tenth.plant.card)) + 1
    assert answer == [
        f"<stdin>:10:{column}: error: {diagnostic.message} [plant]",
        f"    {blocked}",
        "    " + " " * (column - 1) + "^",
    ]
    assert (
        diagnostic.message == f"{tenth.player} cannot plant {tenth.plant.card} at (40,40): "
        f"none of {tenth.player}'s trees is adjacent"
    )
    assert out.read_text() == before
    assert recorder.ok(tenth.notation()) == f"ok 10. {tenth.notation()}"  # and it goes on
    assert recorder.close() == 1  # an entry was refused: the status says so (the file stays valid)
    assert checks_clean(out.read_text())


def test_a_line_ended_by_a_lone_cr_is_answered_at_once(tmp_path, two):
    """The CR ends the line: the recorder does not wait for an LF that never comes; and the LF of
    a CRLF split across two writes ends no second, empty line."""
    import threading

    out = tmp_path / "game.arb"
    recorder = Recorder(out, *start_options(two, None))
    watchdog = threading.Timer(30, recorder.process.kill)  # a recorder that waits for an LF: no answer, no hang
    watchdog.start()
    turns = partial_record(two).turns[:3]
    first, second, third = (turn.notation() for turn in turns)
    blocked = third.replace(f"@{turns[2].plant.coord}", "@40,40")
    assert recorder.ok(first, "\r") == f"ok 1. {first}"
    recorder.process.stdin.write("\n")  # the rest of a CRLF
    assert recorder.ok(second, "\r") == f"ok 2. {second}"
    assert recorder.refused(blocked)[0].startswith("<stdin>:3:")  # the third line: no empty line in between
    assert recorder.ok(third, "\r\n") == f"ok 3. {third}"
    assert recorder.close() == 1
    watchdog.cancel()
    assert out.read_text().endswith(f"3. {third}\n")


def test_killing_the_recorder_between_two_turns_leaves_every_accepted_turn_valid(tmp_path, three):
    out = tmp_path / "game.arb"
    recorder = Recorder(out, *start_options(three, "Ben"))
    typed = entries(three, "Ben")
    for line in typed[:14]:  # the hand and 13 turns
        recorder.ok(line)
    recorder.process.send_signal(signal.SIGKILL)
    assert recorder.close() == -signal.SIGKILL
    view = seat_view(three, "Ben")
    expected = format_game(dataclasses.replace(view, turns=view.turns[:13], reveals=(), result=None))
    assert out.read_text() == expected
    assert checks_clean(expected)
    # no temporary file left behind; the lock file of the killed recorder holds no lock
    assert sorted(p.name for p in tmp_path.iterdir()) == [".game.arb.lock", "game.arb"]
    # and the record goes on from there
    done = arbo("record", str(out), "--plain", input="\n".join(typed[14:]) + "\n")
    assert done.exit_code == 0, done.stderr
    assert out.read_text() == format_game(view)
    assert [p.name for p in tmp_path.iterdir()] == ["game.arb"]


def test_a_second_recorder_of_the_same_file_is_refused_while_the_first_records(tmp_path, two):
    out = tmp_path / "game.arb"
    first = Recorder(out, *start_options(two, None))
    turn = partial_record(two).turns[0].notation()
    first.ok(turn)
    second = arbo("record", str(out), "--plain", input=partial_record(two).turns[1].notation() + "\n")
    assert second.exit_code == 1
    assert second.stderr == (
        f"arbo: {out}: another arbo is writing this file (process {first.process.pid}); finish that one first\n"
    )
    assert first.ok(partial_record(two).turns[1].notation()) == f"ok 2. {partial_record(two).turns[1].notation()}"
    assert first.close() == 0
    assert [p.name for p in tmp_path.iterdir()] == ["game.arb"]
    third = arbo("record", str(out), "--plain", input=partial_record(two).turns[2].notation() + "\n")
    assert third.exit_code == 0, third.stderr
    turns = partial_record(two).turns[:3]
    assert out.read_text().splitlines()[-4:] == ["---", *(f"{n}. {t.notation()}" for n, t in enumerate(turns, 1))]


def test_plain_answers_every_kind_of_entry(tmp_path, two):
    out = tmp_path / "game.arb"
    first, second = (t.notation() for t in partial_record(two).turns[:2])
    lines = [
        "{before the first turn}",
        first,
        "!?",
        "{a comment}",
        "!",
        "; last word",
        "undo",
        first,
        "undo",
        "undo",
        first,
        second,
        "$14",
    ]
    done = arbo("record", str(out), "--plain", *start_options(two, None), input="\n".join(lines) + "\n")
    assert done.exit_code == 1  # an entry was refused (undo with no turn)
    assert done.stdout.splitlines() == [
        "ok {before the first turn}",
        f"ok 1. {first}",
        f"ok 1. {first} !?",
        f"ok 1. {first} !? {{a comment}}",
        f"ok 1. {first} ! {{a comment}}",  # a second judgement replaces the first
        f"ok 1. {first} ! {{a comment}} ; last word",
        f"ok undo 1. {first} ! {{a comment}} ; last word",
        f"ok 1. {first}",
        f"ok undo 1. {first}",
        f"ok 1. {first}",
        f"ok 2. {second}",
        f"ok 2. {second} $14",
    ]
    assert done.stderr.splitlines()[0] == "<stdin>:10:1: error: there is no turn to take back [undo]"
    assert out.read_text().split("---\n")[2] == f"{{before the first turn}}\n1. {first}\n2. {second} $14\n"


SPACE_BEFORE_AT = (
    "expected a planting such as Ma3@0,1 after 'd', found 'Ma3 @0,0': no space is allowed before '@' [syntax]"
)
VALUE_9 = "expected a card such as Ma3 to plant, found 'Ma9': a card's value runs 1 to 8 [syntax]"


@pytest.mark.parametrize(
    ("typed", "column", "message"),
    [
        ("d d Ma3 @0,0 /Oa5", 5, SPACE_BEFORE_AT),
        ("Ana d d Ma3 @0,0 /Oa5", 9, SPACE_BEFORE_AT),
        ("d d Ma9@0,0 /Oa5", 5, VALUE_9),
        (
            "d d:Ma9 Ma3@0,0 /Oa5",
            5,
            "expected a card such as Ma3 after 'd:', found 'Ma9': a card's value runs 1 to 8 [syntax]",
        ),
        (
            "d d Ma3@0,0 /Oa0",
            14,
            "expected a card such as Ma3 after '/', found 'Oa0': a card's value runs 1 to 8 [syntax]",
        ),
    ],
)
def test_plain_words_a_faulty_turn_as_check_does(tmp_path, typed, column, message):
    """One wording for one fault: what `record --plain` says of a turn is what `check` says of it."""
    out = tmp_path / "game.arb"
    options = ["--players", "Ana,Ben", "--species", "Ca,Dw,Ja,Ma,Oa,Wi", "--date", DATE]
    done = arbo("record", str(out), "--plain", *options, input=typed + "\n")
    assert (done.exit_code, done.stdout) == (1, "")
    assert done.stderr == f"<stdin>:1:{column}: error: {message}\n    {typed}\n    {' ' * (column - 1)}^\n"
    numbered = "1. " + typed if typed.startswith("Ana ") else "1. Ana " + typed
    out.write_text(out.read_text() + numbered + "\n")
    line = out.read_text().count("\n")
    checked = arbo("check", str(out))
    shift = len(numbered) - len(typed)
    assert checked.exit_code == 1
    assert checked.stderr.startswith(f"{out}:{line}:{column + shift}: error: {message}\n")


@pytest.mark.parametrize(
    ("typed", "problem"),
    [
        (
            "d d Ma3 @0,0 ",
            "expected a planting such as Ma3@0,1 after 'd', found 'Ma3 @0,0': no space is allowed before '@'",
        ),
        ("d d Ma9@0,0 ", "expected a card such as Ma3 to plant, found 'Ma9': a card's value runs 1 to 8"),
        ("d d Ma3@0,0 /Oa9 ", "expected a card such as Ma3 after '/', found 'Oa9': a card's value runs 1 to 8"),
        ("d d Ma3@0,0 /Oa9", ""),  # a word being typed: not yet
        ("d d Ma3 @", "expected a planting such as Ma3@0,1 after 'd', found 'Ma3 @': no space is allowed before '@'"),
        ("undo ", ""),
    ],
)
def test_the_problem_shown_while_typing_is_in_checks_words(tmp_path, two, typed, problem):
    session = new_session(tmp_path, two)
    assert session.completions(typed).problem == problem


def test_plain_names_the_range_of_values_in_a_dealt_hand(tmp_path):
    out = tmp_path / "game.arb"
    options = ["--players", "Ana,Ben", "--species", "Ca,Dw,Ja,Ma,Oa,Wi", "--date", DATE, "--seat", "Ana"]
    done = arbo("record", str(out), "--plain", *options, input="Ca1 Ca4 Dw2 Ja2 Ma5 Oa6 Wi9\n")
    assert done.exit_code == 1
    assert done.stderr.splitlines()[0] == (
        "<stdin>:1:25: error: expected a card such as Ma3, found 'Wi9': a card's value runs 1 to 8 [setup]"
    )


def test_a_finished_record_is_refused_and_a_missing_one_needs_players(tmp_path, two):
    finished = tmp_path / "done.arb"
    finished.write_text(format_game(two))
    done = arbo("record", str(finished), "--plain", input="")
    assert done.exit_code == 1
    assert "holds a finished game (result Ana" in done.stderr and "does not change it" in done.stderr
    assert finished.read_text() == format_game(two)
    missing = arbo("record", str(tmp_path / "new.arb"), "--plain", input="")
    assert missing.exit_code == 2
    assert "give the players (--players Ana,Ben)" in missing.stderr


def test_a_record_that_does_not_check_is_refused_with_its_errors(tmp_path, two):
    text = format_game(dataclasses.replace(two, reveals=(), result=None))
    bad = tmp_path / "bad.arb"
    sixth = f"6. {two.turns[5].notation()}"
    line = text.splitlines().index(sixth) + 1
    bad.write_text(text.replace(sixth, sixth.replace(f"@{two.turns[5].plant.coord} ", "@40,40 ")))
    done = arbo("record", str(bad), "--plain", input="")
    assert done.exit_code == 1
    assert "does not check; fix it, then record on" in done.stderr
    assert f"bad.arb:{line}:" in done.stderr and "cannot plant" in done.stderr


def test_options_that_do_not_fit_the_record_are_usage_errors(tmp_path, two):
    out = tmp_path / "game.arb"
    out.write_text(format_game(GameRecord(partial_record(two).header)))
    for options, message in (
        (["--players", "Ana,Cleo"], "--players Ana,Cleo: "),
        (["--players", "Ana,Ben", "--species", "Bs,Ca,Cb,Dw,Ja,Wi"], "--species Bs,Ca,Cb,Dw,Ja,Wi: "),
    ):
        done = arbo("record", str(out), "--plain", *options, input="")
        assert done.exit_code == 2, done.stderr
        assert message in done.stderr
    usage = runner.invoke(app, ["record", str(tmp_path / "x.arb"), "--players", "Ana,Ben", "--species", "Ca,Dw"])
    assert usage.exit_code == 2 and "a 2-player game uses 6 species, not 2" in usage.stderr


# -- the session ---------------------------------------------------------------------------------------


def new_session(tmp_path: Path, record: GameRecord, seat: str | None = None, **options):
    return open_session(
        tmp_path / "game.arb",
        players=record.header.players,
        species=record.header.species,
        seat=seat,
        date=DATE,
        **options,
    )


def test_a_new_record_is_written_at_once_with_random_species_repeated_by_the_seed(tmp_path):
    one = open_session(tmp_path / "one.arb", players=("Ana", "Ben", "Cleo"), seed=5, date=DATE)
    two = open_session(tmp_path / "two.arb", players=("Ana", "Ben", "Cleo"), seed=5, date=DATE)
    assert len(one.species) == 8 and one.species == two.species
    assert len({open_session(tmp_path / f"{n}.arb", players=("A", "B"), seed=n).species for n in range(10)}) > 1
    [record] = parse((tmp_path / "one.arb").read_text())
    assert record.header.species == one.species and record.turns == ()
    assert one.phase is Phase.TURNS and one.prompt() == "turn 1: Ana to play · deck 43"


def test_the_seated_recorder_gives_the_dealt_hand_first(tmp_path, two):
    session = new_session(tmp_path, two, "Ben")
    assert session.phase is Phase.HAND and session.prompt() == "Ben's dealt hand: the 7 cards"
    hand = two.header.hands["Ben"]
    with pytest.raises(EntryError) as refused:
        session.enter(" ".join(str(c) for c in hand[:6]))
    assert refused.value.message == "Ben's dealt hand has 6 cards; a hand is 7"
    with pytest.raises(EntryError) as refused:
        session.enter("Ca1 Ca2 Xy9")
    assert (refused.value.message, refused.value.column) == (
        "expected a card such as Ma3, found 'Xy9': a card's value runs 1 to 8",
        9,
    )
    accepted = session.enter(" ".join(str(c) for c in reversed(hand)))
    assert accepted.lines == ("hand Ben " + " ".join(str(c) for c in sorted(hand)),)
    assert parse((tmp_path / "game.arb").read_text())[0].header.hands == {"Ben": tuple(sorted(hand))}
    assert session.phase is Phase.TURNS
    session.enter("undo")
    assert session.phase is Phase.HAND and "hands" not in (tmp_path / "game.arb").read_text()


def test_the_turn_number_and_player_may_be_written_or_left_out(tmp_path, two):
    session = new_session(tmp_path, two)
    first, second, third = (t.notation() for t in partial_record(two).turns[:3])
    assert session.enter(f"1. {first}").lines == (f"1. {first}",)
    assert session.enter(second.split(" ", 1)[1]).lines == (f"2. {second}",)  # the player left out
    with pytest.raises(EntryError) as refused:
        session.enter(f"4. {third}")
    assert (refused.value.code, refused.value.message) == ("turn-number", "turn 3 is numbered 4")
    with pytest.raises(EntryError) as refused:
        session.enter("Ben " + third.split(" ", 1)[1])
    assert (refused.value.code, refused.value.message, refused.value.column) == (
        "turn-order",
        "it is Ana's turn, not Ben's",
        1,
    )
    assert session.enter(f"3.{third}").lines == (f"3. {third}",)


def test_syntax_errors_point_into_the_entry_as_typed(tmp_path, two):
    session = new_session(tmp_path, two)
    for typed, column, message in (
        ("d d Ma3@0,0 /Ma9", 14, "expected a card such as Ma3 after '/', found 'Ma9': a card's value runs 1 to 8"),
        ("  Ana d d Ma3@0,0", 18, "expected a discard such as /Oa5 after 'Ma3@0,0', found end of line"),
        ("d d Ma3@0,0 /Oa5 {unclosed", 18, "unclosed comment: '{' at column 18 has no '}'"),
        ("d d Ma3@0,0 /Oa5 (1. Ana d d Ma3@0,0 /Oa5)", None, "one turn at a time: variations are not recorded here"),
    ):
        with pytest.raises(EntryError) as refused:
            session.enter(typed)
        assert (refused.value.column, refused.value.message) == (column, message), typed
    assert session.turns == []


def test_completions_offer_only_what_is_legal_now(tmp_path, two):
    session = new_session(tmp_path, two, "Ana")
    session.enter(" ".join(str(c) for c in two.header.hands["Ana"]))
    assert session.completions("").choices == ("d:", "d ")  # the recorder names the card drawn
    first = two.turns[0]
    session.enter(first.notation())
    game = session.game
    ben_turn = partial_record(two, "Ana").turns[1]
    # Ben to play: the deck, and the one pile that is not empty, with its top card
    assert session.completions("").choices == ("d ", f"Ana:{first.discard} ")
    assert session.completions("A").choices == (f"Ana:{first.discard} ",)
    assert session.completions("Ben ").choices == ("d ", f"Ana:{first.discard} ")  # the player written out
    assert session.completions("x").choices == ()
    # after a pile draw the pile is empty: only the deck is left
    assert session.completions("Ana ").choices == ("d ",)
    assert game.discard_pile("Ana") == (first.discard,)
    # Ben's hand is unknown: the known card (drawn from Ana's pile) is offered, unseen ones as typed
    assert session.completions("Ana d ").choices == (f"{first.discard}@",)
    unseen = sorted(game.unlocated_cards())
    assert session.completions("Ana d Ca").choices == tuple(
        f"{c}@" for c in [first.discard, *unseen] if str(c).startswith("Ca")
    )
    # the open cells: Ben has no tree yet, so 0,0 alone
    assert session.completions(f"d d {unseen[0]}@").choices == (f"{unseen[0]}@0,0 ",)
    session.enter(ben_turn.notation())
    # Ana's own turn: her hand is known, so are the cards she may plant, and the cells next to her tree
    hand = session.game.hand("Ana")
    assert hand.hidden == 0
    ana = two.turns[2]
    draws = " ".join(str(d) for d in ana.draws)
    planted = session.completions(f"{draws} ").choices
    after_draws = session.game.copy()
    for draw in ana.draws:
        if draw.owner is None:  # (no draw of this turn is skipped)
            after_draws.draw_from_deck(draw.card)
        else:
            after_draws.draw_from_discard(draw.owner, draw.card)
    assert planted == tuple(f"{c}@" for c in after_draws.hand("Ana").known)
    cells = session.completions(f"{draws} {ana.plant.card}@").choices
    assert cells == tuple(f"{ana.plant.card}@{c} " for c in after_draws.plant_cells("Ana"))
    assert cells == tuple(f"{ana.plant.card}@{c} " for c in (Coord(-1, 0), Coord(0, -1), Coord(0, 1), Coord(1, 0)))
    discards = session.completions(f"{draws} {ana.plant} ").choices
    after_draws.plant(ana.plant.card, ana.plant.coord)
    assert discards == tuple(f"/{c} " for c in after_draws.hand("Ana").known)
    assert len(discards) == 8 and f"/{ana.plant.card} " not in discards
    assert (
        session.completions(f"{draws} {ana.plant} /").apply(f"{draws} {ana.plant} /", 0)
        == f"{draws} {ana.plant} {discards[0]}"
    )
    # nothing to offer once the turn is whole, or for an illegal beginning
    assert session.completions(f"{ana.notation()} ").choices == ()
    assert session.completions("d d Xx1@").choices == ()


def test_completions_know_the_deck_of_an_omniscient_record(tmp_path, two):
    out = tmp_path / "game.arb"
    out.write_text(format_game(GameRecord(two.header)))
    session = open_session(out)
    top = two.header.deck[0]
    assert session.completions("").choices == (f"d:{top} ",)
    assert session.completions(f"d:{top} ").choices == (f"d:{two.header.deck[1]} ",)


def test_the_end_of_the_game_reveals_what_the_record_knows_and_asks_the_rest(tmp_path, three):
    session = new_session(tmp_path, three, "Cleo")
    typed = entries(three, "Cleo")
    for line in typed[:-2]:
        session.enter(line)
    assert session.phase is Phase.REVEAL
    assert session.pending_reveals() == ["Ana", "Ben"]
    assert list(session.reveals) == ["Cleo"]  # the recorder's own hand, filled in
    assert session.prompt().startswith("the deck is empty: reveal Ana's hand, 7 cards")
    ana = three.reveals[0]
    assert (
        session.reveal_prefill("Ana") == "reveal Ana " + " ".join(str(c) for c in session.game.hand("Ana").known) + " "
    )
    assert session.completions("reveal ").choices == ("Ana ", "Ben ")
    assert set(session.completions("reveal Ana ").choices) == {
        f"{c} " for c in [*session.game.hand("Ana").known, *session.game.unlocated_cards()]
    }
    planted = next(iter(session.game.arboretum("Ben").values()))
    wrong = [*ana.cards[:-1], planted]
    with pytest.raises(EntryError) as refused:
        session.enter("reveal Ana " + " ".join(map(str, wrong)))
    found = check_text(session.text() + "reveal Ana " + " ".join(map(str, wrong)) + "\n", "x.arb").diagnostics
    assert refused.value.message == found[0].message and refused.value.code == "reveal"
    assert (
        refused.value.message == f"Ana reveals {planted}, but it is planted in Ben's arboretum at "
        f"{next(c for c, card in session.game.arboretum('Ben').items() if card is planted)}"
    )
    with pytest.raises(EntryError) as refused:
        session.enter(typed[-3])
    assert refused.value.message.startswith("the game is over: the deck ran out on turn")
    assert session.enter(typed[-2]).lines == (typed[-2],)
    accepted = session.enter(typed[-1].removeprefix("reveal "))  # 'reveal' may be left out here
    assert accepted.lines == (typed[-1], "result " + ", ".join(f"{p} {s}" for p, s in three.result.scores))
    assert session.phase is Phase.DONE
    assert session.sheet().totals() == dict(three.result.scores)
    assert session.enter(typed[-1]).lines == (typed[-1],)  # said again: nothing changes
    with pytest.raises(EntryError) as refused:
        session.enter("result Ana 1, Ben 2, Cleo 3")
    assert refused.value.message.startswith("the result line gives Ana 1, but Ana scores")
    text = session.text()
    assert text == format_game(seat_view(three, "Cleo"))
    # undo at the end takes back the last turn with the reveals and result that followed
    session.enter("undo")
    assert session.phase is Phase.TURNS and session.reveals == {} and session.result is None


def test_result_star_marks_an_unfinished_game_and_the_record_resumes(tmp_path, two):
    session = new_session(tmp_path, two)
    view = partial_record(two)
    for turn in view.turns[:4]:
        session.enter(turn.notation())
    with pytest.raises(EntryError) as refused:
        session.enter("result Ana 3, Ben 1")
    assert refused.value.code == "unfinished"
    assert session.enter("result *").lines == ("result *",)
    assert (tmp_path / "game.arb").read_text().endswith("4. " + view.turns[3].notation() + "\nresult *\n")
    again = open_session(tmp_path / "game.arb")
    assert len(again.turns) == 4 and again.prompt().startswith("turn 5: Ana to play")
    again.enter(view.turns[4].notation())
    assert (tmp_path / "game.arb").read_text().endswith("5. " + view.turns[4].notation() + "\nresult *\n")


def test_a_file_that_cannot_be_written_refuses_the_turn_and_changes_nothing(tmp_path, two, monkeypatch):
    from arbo_notation.record import session as recording

    session = new_session(tmp_path, two)
    before = (tmp_path / "game.arb").read_text()

    def full_disk(path, text):
        raise RecordingError(f"{path}: cannot be written (No space left on device)")

    monkeypatch.setattr(recording, "_write_whole", full_disk)
    with pytest.raises(EntryError) as refused:
        session.enter(two.turns[0].notation())
    assert refused.value.code == "file" and "No space left on device" in refused.value.message
    assert session.turns == [] and session.game.turn_number == 1 and session.game.deck_size == 34
    assert (tmp_path / "game.arb").read_text() == before


def test_an_undo_the_file_refuses_changes_nothing_and_the_table_plays_on(tmp_path, two, monkeypatch):
    from arbo_notation.record import session as recording

    session = new_session(tmp_path, two)
    for turn in two.turns[:2]:
        session.enter(turn.notation())
    before = (tmp_path / "game.arb").read_text()
    deck = session.game.deck_size
    written = recording._write_whole

    def full_disk(path, text):
        raise RecordingError(f"{path}: cannot be written (No space left on device)")

    monkeypatch.setattr(recording, "_write_whole", full_disk)
    with pytest.raises(EntryError):
        session.enter("undo")
    assert len(session.turns) == 2 and session.game.turn_number == 3 and session.game.deck_size == deck
    monkeypatch.setattr(recording, "_write_whole", written)
    session.enter("undo")  # the turn taken back from the table the session keeps, and played again
    assert len(session.turns) == 1 and session.game.turn_number == 2 and session.game.deck_size == deck + 2
    session.enter(two.turns[1].notation())
    assert (tmp_path / "game.arb").read_text() == before


def test_a_file_of_several_games_is_not_recorded_on(tmp_path, two):
    out = tmp_path / "two.arb"
    header = format_game(GameRecord(two.header))
    out.write_text(header + "\n" + header)
    with pytest.raises(RecordingError, match="holds 2 games; arbo record records one game per file"):
        open_session(out)
    with pytest.raises(OptionMismatch, match="--seat Cleo: not a player"):
        out.write_text(header)
        open_session(out, seat="Cleo")


def test_the_atomic_write_replaces_the_file_whole_and_keeps_its_mode(tmp_path):
    from arbo_notation.record.session import _write_whole

    path = tmp_path / "game.arb"
    path.write_text("old\n")
    path.chmod(0o640)
    _write_whole(path, "new\n")
    assert path.read_text() == "new\n" and path.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["game.arb"]


# -- the recording helpers -----------------------------------------------------------------------------


def test_record_plain_new_and_species_never_import_textual(tmp_path):
    script = (
        "import sys, io; from arbo_notation.cli import app; from typer.testing import CliRunner;"
        f"r = CliRunner(); out = {str(tmp_path / 'g.arb')!r};"
        "codes = [r.invoke(app, a, input='').exit_code for a in (['record', out, '--plain', '--players', 'Ana,Ben'],"
        " ['new', '--players', 'Ana,Ben'], ['species'])];"
        "print(codes, 'textual' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.stdout.strip() == "[0, 0, 0] False", done.stderr


def test_species_lists_both_editions_and_the_counts():
    done = runner.invoke(app, ["species"])
    assert done.exit_code == 0
    lines = done.stdout.splitlines()
    assert "  Bs  Blue Spruce" in lines and "  Wi  Willow" in lines
    assert "  Li  Lilac" in lines and "  Mg  Magnolia" in lines and "  Ol  Olive" in lines
    assert "Species in play: 6 for 2 players, 8 for 3, 10 for 4." in lines
    data = __import__("json").loads(runner.invoke(app, ["species", "--json"]).stdout)
    assert [s["code"] for s in data["zman"]] == ["Li", "Mg", "Ol"]
    assert data["species_by_players"] == {"2": 6, "3": 8, "4": 10}


def test_new_takes_species_and_a_seat_and_leaves_no_comment_in_the_game():
    done = runner.invoke(
        app, ["new", "--players", "Ana,Ben", "--species", "Ol,Ca,Dw,Ja,Ma,Li", "--seat", "Ben", "--date", DATE]
    )
    assert done.exit_code == 0, done.output
    [game] = parse(done.stdout)
    assert game.header.species == ("Ol", "Ca", "Dw", "Ja", "Ma", "Li") and game.header.perspective == "Ben"
    assert game.comments == () and game.turns == ()
    assert "# hands: {Ben: [" in done.stdout and "# 1. Ana d d Ol3@0,0 /Ca5" in done.stdout
    assert check_text(done.stdout).diagnostics == []  # no warning either: no result line is fine
    named = runner.invoke(app, ["new", "--players", "Ana,Ben", "--species", "Re,Ca,Dw,Ja,Ma,Oa", "--names", "Re=Red"])
    assert named.exit_code == 0 and parse(named.stdout)[0].header.names == {"Re": "Red"}


@pytest.mark.parametrize(
    ("species", "message"),
    [
        ("Ca,Dw,Ja,Ma,Oa", "a 2-player game uses 6 species, not 5"),
        ("Ca,Dw,Ja,Ma,Oa,Xx", "Xx is not a species arbo knows (arbo species lists them); name it with --names Xx=Name"),
        ("Ca,Dw,Ja,Ma,Oa,Ca", "Ca is listed twice"),
        ("Ca,Dw,Ja,Ma,Oa,W1", "'W1' is not a species code: 1 to 3 letters, such as Ma"),
    ],
)
def test_new_checks_the_species(species, message):
    done = runner.invoke(app, ["new", "--players", "Ana,Ben", "--species", species])
    assert done.exit_code == 2 and done.stdout == ""
    assert message in flat(done.stderr)


def test_new_refuses_a_seat_that_is_not_a_player():
    done = runner.invoke(app, ["new", "--players", "Ana,Ben", "--seat", "Cleo"])
    assert done.exit_code == 2 and "Cleo is not one of the players" in done.stderr


# -- the docs ------------------------------------------------------------------------------------------


def test_the_recording_example_of_the_docs_runs_as_shown(tmp_path, monkeypatch):
    import shlex

    page = (ROOT / "docs" / "COMMANDS.md").read_text()
    block = page.split("```text\n$ cat tonight.txt\n", 1)[1].split("```", 1)[0]
    typed, rest = block.split("$ arbo record ", 1)
    command, rest = rest.split("\n", 1)
    shown_output, shown_file = rest.split("$ cat tonight.arb\n")
    args = shlex.split(command)
    assert args[-2:] == ["<", "tonight.txt"]
    monkeypatch.chdir(tmp_path)
    done = runner.invoke(app, ["record", *args[:-2]], input=typed)
    assert done.exit_code == 1  # the third line was refused
    assert done.output == shown_output  # stdout and stderr as a terminal shows them
    assert (tmp_path / "tonight.arb").read_text() == shown_file


def test_the_docs_list_the_species_codes_arbo_knows():
    from arbo_notation.engine.cards import DEFAULT_SPECIES, ZMAN_SPECIES

    for doc, code in (("docs/NOTATION.md", "`{}`"),):
        text = " ".join((ROOT / doc).read_text().split())
        for species in DEFAULT_SPECIES:
            assert f"| {code.format(species.code)} | {species.name} |" in text, (doc, species)
        for species in ZMAN_SPECIES:
            assert f"{species.name} (`{species.code}`)" in text or f"`{species.code}` {species.name}" in text
        assert "arbo species" in text and "arbo record" in text


def test_plain_input_that_ends_in_the_reveals_says_what_is_needed_and_fills_what_is_determined(tmp_path, three):
    typed = entries(three, "Ana")
    reveals = [line for line in typed if line.startswith("reveal ")]
    assert len(reveals) == 2  # Ben's and Cleo's hands: nobody saw them
    out = tmp_path / "game.arb"
    done = arbo("record", str(out), "--plain", *start_options(three, "Ana"), input="\n".join(typed[:-2]) + "\n")
    assert done.exit_code == 0
    first = reveals[0].split()[1]
    assert done.stderr.startswith(
        f"arbo: the input ended; the record still needs the deck is empty: reveal {first}'s hand, 7 cards"
    )
    assert done.stderr.count("\n") == 1
    # one hand typed: the last one is the cards nobody saw, so the record determines it
    done = arbo("record", str(out), "--plain", input=reveals[0] + "\n")
    assert (done.exit_code, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        f"ok {reveals[0]}",
        f"ok {reveals[1]}",
        "ok result " + ", ".join(f"{p} {s}" for p, s in three.result.scores),
    ]
    assert out.read_text() == format_game(seat_view(three, "Ana"))


def test_undo_during_the_reveals_takes_back_the_last_hand_typed_not_the_turn(tmp_path, three):
    from arbo_notation.record.session import Phase, open_session

    typed = entries(three, "Ana")
    session = open_session(
        tmp_path / "game.arb", players=three.header.players, species=three.header.species, seat="Ana", date=DATE
    )
    for line in typed[:-1]:  # every turn, and the first hand nobody saw
        session.enter(line)
    assert session.phase is Phase.REVEAL and len(session.turns) == len(partial_record(three, "Ana").turns)
    first = typed[-2]
    player = first.split()[1]
    turns = len(session.turns)
    taken = session.undo()
    assert (taken.kind, taken.lines) == ("undo", (first,))  # the hand, said; the turn stays
    assert len(session.turns) == turns and player not in session.reveals and session.phase is Phase.REVEAL
    assert first not in session.path.read_text()
    taken = session.undo()  # no hand typed any more: the last turn, as before
    assert taken.lines[0].startswith(f"{turns}. ") and len(session.turns) == turns - 1
