"""The fast reader against the grammar's parser: the same records, positions included, or None.

scanner.read_game may answer None (then the parser reads the game and names its errors), but
whatever it reads must be exactly what lark's parser reads; and it must read every game the
parser reads, or arbo would be slow for nothing.
"""

from __future__ import annotations

import dataclasses
import pickle
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbo_notation.notation.reading.scanner import read_game, read_moves, read_turn_lines
from arbo_notation.notation.reading.split import cut_games, normalise
from arbo_notation.notation.reading.reader import SourceLines
from arbo_notation.api import parse_games
from arbo_notation.engine.actions import Draw, Plant, Skip
from arbo_notation.engine.cards import Card, Coord
from arbo_notation.errors import Pos
from arbo_notation.notation.model import GLYPHS, Comment, GameRecord, Turn, Variation
from arbo_notation.notation.reading.syntax import parse_game
from arbo_notation.notation.views import partial_record
from arbo_notation.notation.writer import format_game
from arbo_notation.play.simulate import simulate_game

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.arb")) + sorted((ROOT / "samples" / "invalid").glob("*.arb"))
FIXTURES = sorted((ROOT / "tests" / "fixtures" / "notation").glob("*.arb"))
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def deep(value: object) -> object:
    """A value with every field, those left out of comparisons (positions, file, index) too."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,) + tuple(
            (f.name, deep(getattr(value, f.name))) for f in dataclasses.fields(value)
        )
    if isinstance(value, (list, tuple)):
        return tuple(deep(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, deep(v)) for k, v in value.items())
    return value


def compare_readers(text: str, must_read: bool = False) -> int:
    """Read every game of ``text`` both ways; return how many the scanner's records sink read.
    Whatever its line loop (a check's first reader) reads must be what its token loop's moves say."""
    text = normalise(text)
    _, chunks = cut_games(text)
    lines = SourceLines(text)
    read = 0
    for chunk in chunks:
        if not chunk.closed:
            continue
        part = text[chunk.start : chunk.end]
        fast = read_game(part, "t.arb", chunk.first_line)
        records, errors = parse_game(part, "t.arb", chunk.first_line, lines)
        plain = read_turn_lines(part, "t.arb", chunk.first_line)
        if plain is not None:
            assert not errors, f"the line loop read a game the parser refuses ({errors}):\n{part}"
            assert plain == read_moves(part, "t.arb", chunk.first_line, lines=False), part
        if fast is None:
            assert not (must_read and not errors), f"the scanner refused a game the parser reads:\n{part}"
            continue
        assert not errors, f"the scanner read a game the parser refuses ({errors}):\n{part}"
        assert deep(fast) == deep(records[0]), part
        read += 1
    return read


@pytest.mark.parametrize("path", SAMPLES + FIXTURES, ids=lambda p: p.name)
def test_every_sample_reads_the_same_both_ways(path: Path):
    compare_readers(path.read_text(encoding="utf-8"), must_read=True)


def test_the_samples_off_the_plain_form_are_read_fast():
    assert compare_readers((ROOT / "samples" / "annotated.arb").read_text()) == 1
    assert compare_readers((ROOT / "samples" / "three-player-spectator.arb").read_text()) == 1


# -- records from the engine, annotated and typed by hand at random ----------------------------

_WORDS = [
    "a quiet move",
    "{nested",
    "; not a line comment",
    "(not a variation)",
    "!",
    "reveal Ana",
    "result *",
    "1. Ana d d Ma3@0,0 /Oa5",
    "é ü",
    "tab\there",
    "two\nlines",
    "",
    "  padded  ",
]


def _comment(rng: random.Random) -> Comment:
    text = rng.choice(_WORDS)
    if rng.random() < 0.3 and "\n" not in text:
        return Comment(text, line=True)
    return Comment(text)


def _comments(rng: random.Random, chance: float) -> tuple[Comment, ...]:
    return tuple(_comment(rng) for _ in range(rng.choice((1, 1, 2)))) if rng.random() < chance else ()


def _decorated(turn: Turn, rng: random.Random, depth: int) -> Turn:
    glyphs = tuple(rng.sample(GLYPHS + ("$1", "$142"), rng.choice((1, 2)))) if rng.random() < 0.2 else ()
    variations: tuple[Variation, ...] = ()
    if depth < 3 and rng.random() < 0.15:
        variations = tuple(
            Variation(
                (_decorated(replace(turn, number=rng.choice((turn.number, None))), rng, depth + 1),),
                _comments(rng, 0.3),
                _comments(rng, 0.3),
            )
            for _ in range(rng.choice((1, 1, 2)))
        )
    return replace(
        turn,
        glyphs=glyphs,
        comments_before=_comments(rng, 0.1),
        comments_after=_comments(rng, 0.2),
        variations=variations,
    )


def _decorated_game(record: GameRecord, rng: random.Random) -> GameRecord:
    turns = tuple(_decorated(turn, rng, 0) for turn in record.turns)
    reveals = tuple(replace(r, comments=_comments(rng, 0.3)) for r in record.reveals)
    result = replace(record.result, comments=_comments(rng, 0.3)) if record.result is not None else None
    return replace(record, turns=turns, comments=_comments(rng, 0.5), reveals=reveals, result=result)


_GAPS = (" ", " ", "  ", "\t", " \t", "\t ")


def hand_typed(text: str, rng: random.Random) -> str:
    """The body of a game typed by hand: each space a random run of spaces and tabs, some turn
    numbers without their space, some line ends with trailing spaces or blank lines after."""
    head_end = text.index("\n---", 3) + 4
    body = text[head_end:]
    out = []
    for char in body:
        if char == " ":
            out.append(rng.choice(_GAPS) if rng.random() < 0.5 else " ")
        elif char == "\n":
            out.append(rng.choice(("\n", "\n", "\n", " \n", "\n\n", "\t\n", "\n  ")))
        else:
            out.append(char)
    body = "".join(out)
    if rng.random() < 0.5:
        body = body.replace(". ", ".", rng.randint(1, 20))
    if rng.random() < 0.3:  # some turns without their number
        body = re.sub(
            r"(?m)^([ \t]*\(?)[0-9]+\.[ \t]*(?=[A-Z])", lambda m: m.group(1) if rng.random() < 0.5 else m.group(), body
        )
    return text[:head_end] + body


@st.composite
def engine_records(draw) -> str:
    players = draw(st.integers(2, 4))
    seed = draw(st.integers(0, 10**6))
    record = simulate_game(("Ana", "Ben", "Cleo", "Dev")[:players], seed, ("random",))
    view = draw(st.sampled_from(["omniscient", "seat", "spectator"]))
    if view != "omniscient":
        record = partial_record(record, record.header.players[-1] if view == "seat" else None)
    rng = random.Random(draw(st.integers(0, 10**9)))
    if draw(st.booleans()):
        record = _decorated_game(record, rng)
    text = format_game(record)
    return hand_typed(text, rng) if draw(st.booleans()) else text


@pytest.mark.slow
@SETTINGS
@given(engine_records())
def test_records_from_the_engine_annotated_and_typed_by_hand_read_the_same_both_ways(text: str):
    assert compare_readers(text, must_read=True) == 1


# -- mutated records: the scanner reads what the parser reads, and nothing else ------------

_INSERTS = st.sampled_from(
    list("{}();:!?$-@,/.0123456789 \t\n*#'dD")
    + [
        "reveal ",
        "result ",
        " d ",
        "Ana",
        ":Ma3",
        "@1,-1",
        " /Oa5",
        "é",
        "\x0c",
        "\u00a0",
        "(1. Ana d d Ma3@0,0 /Oa5",
        "1. Ana d d Ma3@0,0 /Oa5\n",
        "{c}",
        "; c\n",
        " !",
        "$7",
        ")",
        "(",
        "resulting",
        "revealed",
    ]
)


@st.composite
def mutated(draw) -> str:
    if draw(st.booleans()):
        text = draw(engine_records())
    else:
        text = draw(st.sampled_from(SAMPLES + FIXTURES)).read_text(encoding="utf-8")
    for _ in range(draw(st.integers(1, 4))):
        n = len(text)
        i = draw(st.integers(0, n))
        op = draw(st.sampled_from(["delete", "insert", "insert", "copy"]))
        if op == "delete":
            text = text[:i] + text[min(n, i + draw(st.integers(1, 8))) :]
        elif op == "insert":
            text = text[:i] + draw(_INSERTS) + text[i:]
        else:
            j = draw(st.integers(i, min(n, i + 40)))
            k = draw(st.integers(0, n))
            text = text[:k] + text[i:j] + text[k:]
    return text


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_a_mutated_record_reads_the_same_both_ways_or_goes_to_the_parser(text: str):
    compare_readers(text, must_read=True)


@pytest.mark.parametrize(
    "text",
    [
        "1. Ana d d Ma3@0,0 /Oa5 ! ?\n",  # two glyphs
        "1. Ana d d Ma3@0,0 /Oa5!?\n",  # one glyph, '!?'
        "1. Ana d d Ma3@0,0 /Oa5(2. Ana d d Ma3@0,0 /Oa5)(1. Ana d d Ma3@0,0 /Oa5)\n",
        "1. Ana d d Ma3@0,0 /Oa5 {a\nb} {c} ; d\n2. Ben d d Ma3@0,0 /Oa5\n",  # comments after, over lines
        "1. Ana d d Ma3@0,0 /Oa5 2. Ben d d Ma3@0,0 /Oa5\n",  # two turns on a line
        "{a} ; b\n{c}1. Ana d d Ma3@0,0 /Oa5\n{d}\n( {e} 1. Ana d d Ma3@0,0 /Oa5 {f} )\n{g}\nreveal Ana Ma3 {h}\n",
        "1. Ana d d Ma3@0,0 /Oa5\nreveal Ana Ma3 reveal Ben Oa5\nresult Ana 3 Ben 4 ; x\n",
        "reveal Ana\nresult *{x}\n",
        "1.Ana\td:Ma3\t-\tMa3@-0,007\t/Oa5\t$0\n",
    ],
)
def test_hand_worked_bodies_read_the_same_both_ways(text: str):
    header = "---\nplayers: [Ana, Ben]\nspecies: [Ma, Oa]\n---\n"
    assert compare_readers(header + text, must_read=True) == 1


@pytest.mark.parametrize(
    "text",
    [
        "1. Ana d d Ma3@0,0 /Oa5 {c} !\n",  # a glyph after a comment
        "1. Ana d d Ma3@0,0 /Oa5\n(\n",  # unclosed variation
        "( 1. Ana d d Ma3@0,0 /Oa5 )\n",  # a variation before any turn
        "1. Ana d d Ma3@0,0 /Oa5 ( {c} )\n",  # an empty variation
        "result *\nreveal Ana Ma3\n",
        "1. Ana d d Ma3@0,0 /Oa5\n" + "(1. Ana d d Ma3@0,0 /Oa5 " * 101 + ")" * 101 + "\n",  # too deep
        "1" * 5000 + ". Ana d d Ma3@0,0 /Oa5\n",  # a number too long for int()
    ],
)
def test_a_faulty_body_goes_to_the_parser(text: str):
    header = "---\nplayers: [Ana, Ben]\nspecies: [Ma, Oa]\n---\n"
    assert compare_readers(header + text) == 0


def test_the_caches_of_decoded_pieces_start_again_past_their_bound(monkeypatch):
    from arbo_notation.notation.reading import scanner

    monkeypatch.setattr(scanner, "_MAX_PIECES", 5)
    monkeypatch.setattr(scanner, "_MAX_TOKENS", 5)
    monkeypatch.setattr(scanner, "_CARDS", {})
    header = "---\nplayers: [Ana, Ben]\nspecies: [Ma, Oa]\n---\n"
    for value in range(1, 9):  # a new card a game: the cards alone fill the cache
        text = header + f"reveal Ana Ma{value} Oa{value}\nresult *\n"
        assert scanner.read_game(text) is not None and scanner.read_moves(text, lines=False) is not None
        assert read_turn_lines(text) is not None  # the line loop's own caches
        assert len(scanner._pieces.cards) <= 5 + 2 and len(scanner._move_pieces.cards) <= 5 + 2
        assert len(scanner._CARDS) <= 5


def test_the_table_of_line_kinds_is_the_bodys_structure_as_the_grammar_has_it():
    from arbo_notation.notation.reading.scanner import LINE_KINDS, MOVES, RESULT, REVEALS, may_stand

    assert {name: (sorted(kind.may_follow), kind.enters, kind.main_line_only) for name, kind in LINE_KINDS.items()} == {
        "turn": ([MOVES], MOVES, False),
        "variation": ([MOVES], None, False),
        "comment": (sorted([MOVES, REVEALS, RESULT]), None, False),
        "reveal": (sorted([MOVES, REVEALS]), REVEALS, True),
        "result": (sorted([MOVES, REVEALS]), RESULT, True),
    }
    assert not may_stand(LINE_KINDS["reveal"], MOVES, in_variation=True)
    header = "---\nplayers: [Ana, Ben]\nspecies: [Ma, Oa]\n---\n"
    turn = "1. Ana d d Ma3@0,0 /Oa5\n"
    for body, accepted in [
        (turn + "reveal Ana Ma3\nresult *\n", True),
        (turn + "result *\n; after the result\n", True),
        (turn + "result *\nreveal Ana Ma3\n", False),  # a reveal after the result
        (turn + "reveal Ana Ma3\n" + turn + "result *\n", False),  # a turn after a reveal
        (turn + "result *\nresult *\n", False),
        (turn + "reveal Ana Ma3\n(" + turn.strip() + ")\nresult *\n", False),  # a variation after a reveal
    ]:
        text = header + body
        records, errors = parse_game(text, "t.arb", 1, SourceLines(text))
        assert (not errors) == accepted, body
        for read in (read_game(text), read_turn_lines(text), read_moves(text, lines=False), read_moves(text)):
            assert (read is not None) == accepted, body


# -- the hot loop's objects: made as drafts (build._draft_of), they are the records themselves --


def _constructed(value: object) -> object:
    """The same record made again by its classes' own constructors, all the way down."""
    if isinstance(value, (Turn, Draw, Skip, Plant, Pos, Variation)):
        return type(value)(**{f.name: _constructed(getattr(value, f.name)) for f in dataclasses.fields(value)})
    if isinstance(value, tuple):
        return tuple(_constructed(v) for v in value)
    return value


def _made_by_the_hot_loop(records: list[GameRecord]) -> list[Turn]:
    return [turn for record in records for turn in record.all_turns()]


@pytest.mark.slow
@SETTINGS
@given(engine_records())
def test_the_turns_read_are_the_records_their_constructors_make(text: str):
    records = parse_games(text)
    for turn in _made_by_the_hot_loop(records):
        again = _constructed(turn)
        assert deep(turn) == deep(again)  # every field, the positions too
        assert turn == again and hash(turn) == hash(again) and repr(turn) == repr(again)
        assert pickle.loads(pickle.dumps(turn)) == turn
        for made in (turn, *turn.draws, turn.pos, turn.plant_pos, turn.discard_pos, turn.draw_pos(0), turn.draw_pos(1)):
            assert type(made) in (Turn, Draw, Skip, Pos)  # the record class itself, no draft left
            fields = dataclasses.fields(made)
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(made, fields[0].name if fields else "card", None)  # (a Skip has no field)


def test_a_turn_read_is_the_turn_constructed():
    text = "---\nplayers: [Ana, Ben]\nspecies: [Ma, Oa]\n---\n1. Ana d:Ma3 Ben:Oa5 Ma3@-1,0 /Oa5 !? {c}\n"
    (turn,) = parse_games(text)[0].turns
    assert deep(turn) == deep(
        Turn(
            "Ana",
            (Draw(None, Card("Ma", 3)), Draw("Ben", Card("Oa", 5))),
            Plant(Card("Ma", 3), Coord(-1, 0)),
            Card("Oa", 5),
            1,
            ("!?",),
            (),
            (Comment("c"),),
            (),
            Pos(5, 1),
            (8, 14, 22, 31),
        )
    )
    assert (turn.draw_pos(0), turn.draw_pos(1), turn.plant_pos, turn.discard_pos) == (
        Pos(5, 8),
        Pos(5, 14),
        Pos(5, 22),
        Pos(5, 31),
    )
    with pytest.raises(IndexError, match="no draw 2"):
        turn.draw_pos(2)
