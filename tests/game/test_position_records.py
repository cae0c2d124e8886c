"""A record that starts from a position (the header's ``position``, as PGN's SetUp and FEN): it is
replayed from Game.from_position, its turns numbered on from the position's turn, by the check's
fast path and the full replay alike; the header's clashes with it are located errors; the writer,
the JSON form, a seat's partial record, the knowledge at its root and the merge know it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from arbo_notation.api import replay
from arbo_notation.checking.games import check_text, plays_cleanly
from arbo_notation.engine.position import Position
from arbo_notation.engine.state import Game, Outcome
from arbo_notation.engine.view import view_of
from arbo_notation.errors import Code, Severity
from arbo_notation.game.knowledge import View
from arbo_notation.game.merge import MergeError, merge
from arbo_notation.game.replay import replay_game
from arbo_notation.notation import format_game, parse_all, renumber
from arbo_notation.notation.reading import scanner
from arbo_notation.notation.structured.convert import dumps_json, loads_json
from arbo_notation.notation.views import partial_record

ROOT = Path(__file__).resolve().parents[2]
STUDY = (ROOT / "samples" / "study.arb").read_text(encoding="utf-8")
LINE = "Ca Dw Ja Ma Oa Wi | Ana: Ma3@0,0 / Oa5 / Ca1 Ja4 ?5 | Ben: - / - / ?7 | deck 32 | 2. Ben draw1"
HEADER = f'---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\nposition: "{LINE}"\n---\n'
TURNS = "2. Ben d Ana:Oa5 Oa5@0,0 /Wi7\n3. Ana d d Ja4@1,0 /Ca1\n"


def shown(text: str, *, quick: bool) -> list[tuple[int | None, int | None, str, str, int | None]]:
    """What `arbo check` says of a text, the quick way (the fast path first) or by the full replay."""
    checked = check_text(text, "study.arb", keep_games=not quick)
    return [(d.line, d.column, d.severity.value, d.message, d.turn) for d in checked.diagnostics]


def test_the_study_sample_checks_clean_the_quick_way_and_by_the_full_replay():
    assert shown(STUDY, quick=True) == shown(STUDY, quick=False) == []
    read = scanner.read_header_of(STUDY, "study.arb", 1)
    assert read is not None and read[0].position is not None
    moves = scanner.read_moves(STUDY, "study.arb", 1, read)
    assert moves is not None and plays_cleanly(moves)


def test_the_study_is_replayed_from_its_position_its_turns_numbered_on_from_it():
    [record] = parse_all(STUDY, "study.arb").games
    tree = replay(record)
    nodes = tree.line_nodes(())
    assert [node.number for node in nodes] == [15, 16, 17, 18, 19, 20]
    assert nodes[0].position == Game.from_position(record.header.position)  # type: ignore[arg-type]
    assert nodes[-1].position.outcome() == Outcome({"Ana": 13, "Ben": 16}, ("Ben",))
    [variation] = nodes[2].variations  # 17. Ana d:Ja1 d:Ca5 Ca5@-6,0 /Ja1, in place of Ana's turn 17
    assert (variation.number, str(variation.turn.plant)) == (17, "Ca5@-6,0")  # type: ignore[union-attr]
    assert [turn.number for turn in record.turns] == [16, 17, 18, 19, 20]


def test_a_wrong_turn_after_the_position_is_flagged_where_it_stands():
    text = HEADER + "2. Ben d Ana:Oa5 Oa5@0,0 /Wi7\n3. Ana d d Ja4@2,0 /Ca1\n"
    expected = [(7, 12, "error", "Ana cannot plant Ja4 at (2,0): none of Ana's trees is adjacent", 3)]
    assert shown(text, quick=True) == shown(text, quick=False) == expected
    wrong_player = HEADER + "2. Ana d d Ja4@1,0 /Ca1\n"
    assert shown(wrong_player, quick=True) == [(6, 1, "error", "it is Ben's turn, not Ana's", 2)]
    misnumbered = HEADER + "1. Ben d Ana:Oa5 Oa5@0,0 /Wi7\n3. Ana d d Ja4@1,0 /Ca1\n"
    assert (
        shown(misnumbered, quick=True)
        == shown(misnumbered, quick=False)
        == [(6, 1, "warning", "turn 2 is numbered 1", 2)]
    )


def test_the_stop_of_a_line_counts_the_turns_of_the_game():
    [record] = parse_all(HEADER + "2. Ben d Ana:Oa5 Oa5@0,0 /Wi7\n3. Ana d d Ja4@2,0 /Ca1\n").games
    line = replay_game(record, keep_states=True).lines[()]
    assert (line.start, line.legal) == (1, 1)
    assert line.error is not None and str(line.error).startswith("turn 3 (Ana d d Ja4@2,0 /Ca1) is illegal")


def test_a_position_no_game_reaches_is_an_error_of_the_setup():
    text = HEADER.replace("?7", "?6")
    [diagnostic] = check_text(text, "study.arb").diagnostics
    assert (diagnostic.line, diagnostic.column, diagnostic.code) == (1, 1, Code.SETUP)
    assert (
        diagnostic.message
        == "the position is no table of a game: Ben holds 6 cards; 7 are due at this point of the turn"
    )


@pytest.mark.parametrize(
    "header, line, column, message",
    [
        (
            HEADER.replace("species:", "deck: [Ma3]\nspecies:"),
            3,
            1,
            "'deck' gives a deal, but the record starts from its 'position', which holds every hand, pile and "
            "the deck: leave 'deck' out",
        ),
        (
            HEADER.replace("position:", "hands: {Ben: [Ca2]}\nposition:"),
            4,
            1,
            "'hands' gives a deal, but the record starts from its 'position', which holds every hand, pile and "
            "the deck: leave 'hands' out",
        ),
        (
            HEADER.replace("position:", "discards:\n  Ben: [Wi1]\nposition:"),
            4,
            1,
            "'discards' gives a deal, but the record starts from its 'position', which holds every hand, pile "
            "and the deck: leave 'discards' out",
        ),
        (HEADER.replace("[Ana, Ben]", "[Ana, Cleo]"), 4, 1, "'position' seats Ana, Ben; the players are Ana, Cleo"),
        (
            HEADER.replace("Oa, Wi]", "Oa, Rp]"),
            4,
            1,
            "'position' has the species Ca Dw Ja Ma Oa Wi; the header's are Ca Dw Ja Ma Oa Rp",
        ),
        (
            HEADER.replace("Ben: - / - / ?7 | deck 32 | 2. Ben draw1", "Ben: - / - / ?8 | deck 31 | 2. Ben draw2"),
            4,
            101,
            "'position': a record starts at the start of a turn (draw1) or at the end (over), not at draw2: its "
            "turns are whole",
        ),
        (
            HEADER.replace("deck 32", "deck 2 Ma1"),
            4,
            1,
            "'position': the deck holds 2 cards, but 1 are listed",
        ),
        (HEADER.replace(f'"{LINE}"', "3"), 4, 1, "'position' must be a position's line in quotes, found '3'"),
    ],
)
def test_a_header_whose_position_clashes_is_refused_at_the_key(header: str, line: int, column: int, message: str):
    outcome = parse_all(header + TURNS, "study.arb")
    [error] = outcome.errors
    assert (error.line, error.column, error.message) == (line, column, message)


def test_the_writer_writes_the_position_in_quotes_and_numbers_the_turns_on_from_it():
    [record] = parse_all(STUDY, "study.arb").games
    assert format_game(record) == STUDY
    bare = parse_all(HEADER + TURNS.replace("2. ", "").replace("3. ", ""), "study.arb").games[0]
    assert [turn.number for turn in bare.turns] == [None, None]
    assert format_game(bare) == HEADER + TURNS
    assert [turn.number for turn in renumber(bare).turns] == [2, 3]
    [again] = loads_json(dumps_json([record]))
    assert again.header.position == record.header.position and format_game(again) == STUDY


def test_a_record_may_start_at_the_end():
    [record] = parse_all(STUDY, "study.arb").games
    end = replay_game(record).final
    assert end is not None and end.is_over
    line = str(end.position())
    assert line.endswith(" | deck 0 | 20. Ben over")
    ended = HEADER.replace(LINE, line) + "result Ana 13, Ben 16\n"
    assert shown(ended, quick=True) == shown(ended, quick=False) == []
    wrong = HEADER.replace(LINE, line) + "result Ana 16, Ben 13\n"
    assert [message for _, _, _, message, _ in shown(wrong, quick=True)] == [
        "the result line gives Ana 16, but Ana scores 13 (Ma 3 + Oa 6 + Wi 4)",
        "the result line gives Ben 13, but Ben scores 16 (Ca 6 + Dw 5 + Ja 5)",
    ]


def test_a_view_knows_at_the_root_what_the_position_shows_its_seat():
    [record] = parse_all(HEADER + TURNS, "study.arb").games
    root = replay(record).root
    record_view = root.knowledge(View.record())
    assert [str(record_view.hands[p]) for p in ("Ana", "Ben")] == ["Ca1 Ja4 ?? ?? ?? ?? ??", "?? ?? ?? ?? ?? ?? ??"]
    assert str(root.knowledge(View.of_seat("Ben")).hands["Ana"]) == "?? ?? ?? ?? ?? ?? ??"
    [study] = parse_all(STUDY, "study.arb").games
    start = replay(study).root
    ana = start.knowledge(View.of_seat("Ana"))
    assert str(ana.hands["Ana"]) == "Dw6 Ja6 Ma6 Ma7 Oa7 Wi5 Wi6"
    assert str(ana.hands["Ben"]) == "Ca6 ?? ?? ?? ?? ?? ??"  # Ben took Ca6 from a pile, in Ana's sight
    assert str(start.knowledge(View.spectator()).hands["Ana"]) == "?? ?? ?? ?? ?? ?? ??"


def test_a_seat_s_record_starts_from_its_view_of_the_position():
    [study] = parse_all(STUDY, "study.arb").games
    ana = partial_record(study, "Ana")
    assert study.header.position is not None
    assert ana.header.position == view_of(study.header.position, "Ana").position
    assert (
        str(ana.header.position).split(" | ")[2]
        == "Ben: Ca2@-5,0 Ca1@-4,0 Ja8@-3,0 Dw5@-2,0 Dw3@-1,-1 Ja4@-1,0 Wi1@0,0 / Ma3 Oa2 Oa3 Ma2 Ma4 Ja5 Ca4 / +Ca6 ?6"
    )
    replayed = replay_game(ana)
    assert replayed.final is not None and replayed.final.is_over
    assert [d.message for d in replayed.diagnostics] == [
        "the result cannot be checked: Ben has cards nobody saw; add a reveal line"  # Ana never saw Ben's hand
    ]
    assert merge([study, study]) == study
    with pytest.raises(MergeError, match="start from different positions"):
        merge([study, ana])


def test_a_position_in_the_header_of_a_program_is_held_to_the_same_rules():
    from arbo_notation.errors import ArboError
    from arbo_notation.notation.header.keys import check_header

    [record] = parse_all(HEADER + TURNS, "study.arb").games
    check_header(record.header)
    with pytest.raises(
        ArboError, match="cannot write this header: 'position' seats Ana, Ben; the players are Ana, Cleo"
    ):
        check_header(replace(record.header, players=("Ana", "Cleo")))
    assert Position.parse(LINE) == record.header.position
    assert [d.severity for d in replay_game(record).diagnostics] == []
    assert Severity.ERROR not in [d.severity for d in check_text(HEADER + TURNS).diagnostics]
