"""The grammar judges every other reader of the notation, over thousands of mutated records.

Seeds: the samples (valid and invalid), the notation fixtures and a game of every kind the
benchmarks measure (bench/bench_kinds.py), each mutated many times over by a seeded generator.
For every game of every mutated text, with lark's parser (grammar/arbo.lark) as the judge:

- the scanner's records sink (scanner.read_game) reads nothing the grammar refuses, and what it
  reads is the grammar's record, every field and position included;
- its moves sink, by the token loop (scanner.read_moves(lines=False)) and by the line loop
  (scanner.read_turn_lines), and the two as a check reads (scanner.read_moves), read nothing the
  grammar refuses, and their moves are those of the grammar's record;
- the fault explainer (syntaxfaults) flags nothing in a game the grammar accepts, and in such a
  game with one faulty line added, it flags that line and no other;
- in a game the grammar refuses, the explainer is asked from the line the grammar refused, and
  flags no line before it even when it reads the game from its first line (the grammar took
  those lines): what it says names that line or a later one, but for an unclosed variation, whose
  '(' it names.

The count is bounded for the suite (ARBO_DIFFERENTIAL_GAMES, default below); a long run is
``ARBO_DIFFERENTIAL_GAMES=100000 python -m pytest tests/notation/test_notation_differential.py``.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from arbo_notation.notation.reading import scanner
from arbo_notation.notation.reading.split import cut_games, normalise
from arbo_notation.notation.reading.scanner import GameMoves, MovesLine, read_turn_lines
from arbo_notation.notation.reading.reader import SourceLines
from arbo_notation.engine.actions import Skip
from arbo_notation.notation.model import GameRecord, Turn
from arbo_notation.notation.reading.syntax import grammar_refusal, parse_game
from arbo_notation.notation.reading.faults import _HEADER_BLOCK, _body_faults
from arbo_notation.notation.views import partial_record
from arbo_notation.notation.writer import format_games

from tests.notation.test_notation_scanner import hand_typed

ROOT = Path(__file__).resolve().parents[2]
GAMES = int(os.environ.get("ARBO_DIFFERENTIAL_GAMES", "4000"))
CHUNKS = 8  # the mutations are run in this many tests, each its own seed


def _bench_kinds() -> list[str]:
    """A game of every kind bench/bench_kinds.py measures, and greedy games of 2 and 4 players."""
    import sys

    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from bench_kinds import KINDS, games_of_kind
        from bench_kinds import hand_typed as bench_hand_typed
    finally:
        sys.path.pop(0)
    from arbo_notation.play.simulate import simulate_games

    texts = []
    for kind in KINDS:
        text = format_games(games_of_kind(kind, 2, seed=21))
        texts.append(bench_hand_typed(text) if kind == "hand-typed" else text)
    for players in (2, 4):
        games = list(simulate_games(players, 2, 21, bots=("greedy",) * players))
        texts.append(format_games(games))
        texts.append(format_games([partial_record(g, seated=g.header.players[0]) for g in games]))
    return texts


def _seeds() -> list[str]:
    paths = (
        sorted((ROOT / "samples").glob("*.arb"))
        + sorted((ROOT / "samples" / "invalid").glob("*.arb"))
        + sorted((ROOT / "tests" / "fixtures" / "notation").glob("*.arb"))
    )
    texts = [p.read_text(encoding="utf-8") for p in paths] + _bench_kinds()
    games = []
    for text in texts:  # one game a seed: a mutation then touches the game it is read with
        text = normalise(text)
        _, chunks = cut_games(text)
        games += [text[c.start : c.end] for c in chunks if c.closed]
    rng = random.Random(2121)
    games += [hand_typed(g, rng) for g in games if g.count("\n---") == 1]
    return games


SEEDS = _seeds()

#: Pieces a mutation inserts: the notation's own characters and words, and the three forms the
#: explainer once flagged in games the grammar accepts.
_INSERTS = list("{}();:!?$-@,/.0123456789 \t\n*#'dD") + [
    "reveal ",
    "result ",
    " d ",
    "Ana",
    "Ben",
    ":Ma3",
    "@1,-1",
    " /Oa5",
    "é",
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
    " ; a smiley :}",
    " ; (",
    " ; )",
    " ; {",
    "{;}",
    " reveal Ana Ma3",
    " reveal Ben",
    " result *",
    " result Ana 3, Ben 4",
    "\n(",
    ")\n",
    "({note} 1. Ana d d Ma3@0,0 /Oa5)",
    "\n\n",
    "  ",
    "\t",
]


_ANNOTATIONS = [
    " !",
    " ?!",
    " !! ??",
    " $7",
    " {note}",
    " {two\nlines}",
    " ; a smiley :}",
    " ; ( ) {",
    "{;}",
    "\n{a comment}",
    "\n; a line comment",
    " {a} ; b",
    "!",
    "\n\n",
    " \t",
]


def mutate(text: str, rng: random.Random) -> str:
    """``text`` with one to three random edits: some break it anywhere (deletions, insertions,
    copies, swaps), others keep it within the grammar more often than not (annotations and lines
    joined at a line end, white space retyped, a line copied as its own variation)."""
    body = text.find("\n---", 3) + 4
    for _ in range(rng.randint(1, 3)):
        n = len(text)
        i = rng.randint(0, n) if rng.random() < 0.1 else rng.randint(min(body, n), n)  # mostly the body
        op = rng.choice(("delete", "insert", "copy", "swap", "annotate", "annotate", "join", "respace", "variation"))
        if op == "delete":
            text = text[:i] + text[min(n, i + rng.randint(1, 8)) :]
        elif op == "insert":
            text = text[:i] + rng.choice(_INSERTS) + text[i:]
        elif op == "copy":
            j = rng.randint(i, min(n, i + 40))
            k = rng.randint(0, n)
            text = text[:k] + text[i:j] + text[k:]
        elif op == "swap" and n > 1:
            j = rng.randint(0, n - 1)
            i = min(i, n - 1)
            chars = list(text)
            chars[i], chars[j] = chars[j], chars[i]
            text = "".join(chars)
        elif op in ("annotate", "join", "variation"):
            at = text.find("\n", max(i, body))
            if at < 0:
                continue
            if op == "annotate":
                text = text[:at] + rng.choice(_ANNOTATIONS) + text[at:]
            elif op == "join" and not text.startswith("---", at + 1):  # reveals, results, turns on a line
                text = text[:at] + rng.choice((" ", "\t", " ; c\n")) + text[at + 1 :]
            elif op == "variation":
                start = text.rfind("\n", 0, at) + 1
                note = rng.choice(("", "{note} ", "; note\n"))
                text = text[:at] + f"\n({note}{text[start:at].strip()})" + text[at:]
        elif op == "respace":
            at = text.find(" ", max(i, body))
            if at >= 0:
                text = text[:at] + rng.choice(("  ", "\t", " \t ")) + text[at + 1 :]
    return text


# -- the moves of a record, as the moves sinks give them ----------------------------------------


def _known_draw(draw):
    if isinstance(draw, Skip):
        return None
    return (draw.owner, draw.card)


def _known_turn(turn: Turn):
    return (
        turn.number,
        turn.player,
        _known_draw(turn.draws[0]),
        _known_draw(turn.draws[1]),
        turn.plant.card,
        turn.plant.coord,
        turn.discard,
    )


def _line_of(turns: tuple[Turn, ...]) -> MovesLine:
    known = [_known_turn(t) for t in turns]
    branches = tuple((i, tuple(_line_of(v.turns) for v in t.variations)) for i, t in enumerate(turns) if t.variations)
    return known, branches


def moves_of(record: GameRecord) -> GameMoves:
    """The moves of the grammar's record, as the scanner's moves sink gives them."""
    turns, branches = _line_of(record.turns)
    result = record.result
    scores = None if result is None or result.unfinished else dict(result.scores)
    return GameMoves(record.header, turns, [(r.player, r.cards) for r in record.reveals], scores, branches)


# -- one game, judged by the grammar ------------------------------------------------------------

#: A turn line at fault in its discard alone: the explainer flags it there, on its own line.
_FAULTY_LINE = "1. Ana d d Ma3@0,0 %Oa5"


def judge(part: str) -> str:
    """Check every other reader of one game's text (a mutated seed) against the grammar: what the
    grammar made of it ('accepted', 'refused', or 'outside' when it is not one closed game)."""
    text = normalise(part)
    preamble, chunks = cut_games(text)
    if preamble or len(chunks) != 1 or not chunks[0].closed or chunks[0].start != 0:
        return "outside"
    lines = SourceLines(text)
    records, errors = parse_game(text, "t.arb", 1, lines)
    fast = scanner.read_game(text, "t.arb", 1)
    moves = scanner.read_moves(text, "t.arb", 1, lines=False)
    plain = read_turn_lines(text, "t.arb", 1)
    checked = scanner.read_moves(text, "t.arb", 1)
    if errors:
        assert fast is None, f"the records sink read a game the grammar refuses ({errors[0]}):\n{text}"
        assert moves is None, f"the token loop's moves read a game the grammar refuses ({errors[0]}):\n{text}"
        assert plain is None, f"the line loop read a game the grammar refuses ({errors[0]}):\n{text}"
        assert checked is None, f"the moves sink read a game the grammar refuses ({errors[0]}):\n{text}"
        _asked_from_the_refused_line(text, errors)
        return "refused"
    (record,) = records
    if fast is not None:
        assert fast == record and repr(fast) == repr(record), text  # (repr: the positions too)
    expected = moves_of(record)
    if moves is not None:
        assert moves == expected, text
    if plain is not None:
        assert plain == expected, text
    assert checked == (plain if plain is not None else moves), text
    header = _HEADER_BLOCK.match(text)
    assert header is not None
    flagged = _body_faults(text, 1, "t.arb", lines, header.end())
    assert not flagged, f"the explainer flags a game the grammar accepts ({flagged[0]}):\n{text}"
    _one_faulty_line(text, header.end())
    return "accepted"


def _asked_from_the_refused_line(text: str, errors) -> None:
    """The explainer flags no line of a refused game before the one the grammar refused."""
    refused_at = grammar_refusal(text)
    header = _HEADER_BLOCK.match(text)
    if refused_at is None or header is None:  # a builder's fault (depth, digits) or a header alone at fault
        return
    refused_line = text.count("\n", 0, refused_at) + 1
    body = header.end()
    asked = _body_faults(text, 1, "t.arb", SourceLines(text), body, max(body, text.rfind("\n", 0, refused_at) + 1))
    unasked = _body_faults(text, 1, "t.arb", SourceLines(text), body)
    assert [str(e) for e in unasked] == [str(e) for e in asked], (
        f"the explainer flags a line before the one the grammar refused (line {refused_line}):\n{text}"
    )
    for error in errors:
        if error.line < refused_line:
            in_header = error.line <= header.group().count("\n") + 1  # the header's own fault
            assert in_header or error.message.startswith("unclosed variation: '('"), (
                f"line {error.line} is flagged, before the line {refused_line} the grammar refused:\n{text}"
            )


def _one_faulty_line(text: str, body: int) -> None:
    """In an accepted game with a faulty turn line put first in its body, the explainer flags
    that line alone: the faults of one line never spill onto the lines the grammar accepts."""
    faulty = text[:body] + "\n" + _FAULTY_LINE + text[body:]
    line = text.count("\n", 0, body) + 2
    flagged = _body_faults(faulty, 1, "t.arb", SourceLines(faulty), body)
    assert [(e.line, e.column) for e in flagged] == [(line, 20)], (
        f"the explainer flags {[str(e) for e in flagged]}:\n{faulty}"
    )


# -- the three classes once flagged in games the grammar accepts --------------------------------

_HEADER = "---\nplayers: [Ana, Ben]\nspecies: [Ma, Oa]\n---\n"


@pytest.mark.parametrize(
    "body",
    [
        "1. Ana d d Ma3@0,0 /Oa5 ; a smiley :}\n",  # a '}' in a ';' comment
        "1. Ana d d Ma3@0,0 /Oa5 ; ( ) {\n",  # brackets in a ';' comment
        "1. Ana d d Ma3@0,0 /Oa5\nreveal Ana Ma3 reveal Ben Oa5\n",  # two reveals on one line
        "1. Ana d d Ma3@0,0 /Oa5\nreveal Ana Ma3 Oa4 reveal Ben\nresult *\n",
        "1. Ana d d Ma3@0,0 /Oa5\nreveal Ana Ma3 result Ana 3, Ben 4\n",  # a result after a reveal on its line
        "1. Ana d d Ma3@0,0 /Oa5\nreveal Ben\treveal Ana Ma3\tresult *\n",
    ],
)
def test_the_explainer_flags_nothing_the_grammar_accepts(body: str):
    assert judge(_HEADER + body) == "accepted"


def test_a_smiley_in_a_comment_is_not_flagged_beside_a_faulty_line():
    from arbo_notation.notation import parse_all

    text = _HEADER + "1. Ana d d Ma3@0,0 /Oa5 ; a smiley :}\n2. Ben d d Oa3@0,0 %Ma5\n"
    assert [(e.line, e.column, e.message) for e in parse_all(text, "t.arb").errors] == [
        (6, 20, "expected a discard such as /Oa5 after 'Oa3@0,0', found '%Ma5'")
    ]


def test_a_faulty_reveal_beside_a_second_reveal_on_its_line_is_flagged_alone():
    from arbo_notation.notation import parse_all

    text = _HEADER + "1. Ana d d Ma3@0,0 /Oa5\nreveal Ana Ma3 reveal Ben Oa9 result *\n"
    assert [(e.line, e.column, e.message) for e in parse_all(text, "t.arb").errors] == [
        (6, 27, "expected a card such as Ma3 in Ben's reveal line, found 'Oa9': a card's value runs 1 to 8")
    ]


def test_a_faulty_line_beside_a_result_after_a_reveal_is_flagged_alone():
    from arbo_notation.notation import parse_all

    text = _HEADER + "1. Ana d d Ma3@0,0 %Oa5\nreveal Ana Ma3 result Ana 3, Ben 4\n"
    assert [(e.line, e.column, e.message) for e in parse_all(text, "t.arb").errors] == [
        (5, 20, "expected a discard such as /Oa5 after 'Ma3@0,0', found '%Oa5'")
    ]


# -- thousands of mutations ---------------------------------------------------------------------


def test_every_seed_is_accepted_or_refused_by_the_grammar_as_before():
    verdicts = [judge(seed) for seed in SEEDS]
    assert verdicts.count("outside") == 0
    assert verdicts.count("accepted") > len(SEEDS) // 2


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_mutated_records_are_read_as_the_grammar_reads_them(chunk: int):
    rng = random.Random(21_000 + chunk)
    verdicts = {"accepted": 0, "refused": 0, "outside": 0}
    for _ in range(GAMES // CHUNKS):
        verdicts[judge(mutate(rng.choice(SEEDS), rng))] += 1
    # Enough of both kinds that the test can fail both ways.
    assert verdicts["accepted"] > GAMES // CHUNKS // 10, verdicts
    assert verdicts["refused"] > GAMES // CHUNKS // 10, verdicts


def test_the_grammar_refusal_is_where_the_explainer_is_asked_from():
    good = _HEADER + "1. Ana d d Ma3@0,0 /Oa5\n2. Ben d d Oa3@0,0 /Ma5\n"
    assert grammar_refusal(good) is None
    bad = _HEADER + "1. Ana d d Ma3@0,0 /Oa5\n2. Ben d d Oa3@0,0 %Ma5\n"
    assert grammar_refusal(bad) == bad.index("2. Ben")  # the refused line's first token
    unclosed = _HEADER + "1. Ana d d Ma3@0,0 /Oa5\n(1. Ana d d Ma3@0,0 /Oa4\nresult *\n"
    assert grammar_refusal(unclosed) == unclosed.index("result")  # ')' was expected there
    # the header's text is not read: a header at fault has its body judged all the same
    assert grammar_refusal("---\nplayers: [Ana]\n---\n1. Ana d d Ma3@0,0 /Oa5\n") is None


def test_a_header_at_fault_and_the_body_line_the_grammar_refuses_are_both_flagged():
    from arbo_notation.notation import parse_all

    text = "---\nplayers: [Ana, Ana]\nspecies: [Ma, Oa]\n---\n1. Ana d d Ma3@0,0 /Oa5\n2. Ana d d Oa3@0,0 %Ma5\n"
    errors = parse_all(text, "t.arb").errors
    assert [(e.line, e.column) for e in errors][1:] == [(6, 20)]
    assert errors[1].message == "expected a discard such as /Oa5 after 'Oa3@0,0', found '%Ma5'"
    assert errors[0].line == 2
