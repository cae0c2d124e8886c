"""The scanner's line loop agrees with the full parser, and the fast check with the full check."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbo_notation.notation.reading.scanner import read_turn_lines
from arbo_notation.engine.actions import Skip
from arbo_notation.notation.reading.reader import parse_all
from arbo_notation.notation.writer import format_game
from arbo_notation.checking.games import check_text
from arbo_notation.play.simulate import simulate_game

SAMPLES = Path(__file__).resolve().parents[2] / "samples"

_SIMULATED = [
    simulate_game(players, f"plain-{len(players)}-{house}", house_discards=house)
    for players in (("Ana", "Ben"), ("Ana", "Ben", "Cleo"), ("Ana", "Ben", "Cleo", "Dev"))
    for house in (False, True)
]
_TEXTS = [format_game(game) for game in _SIMULATED]


def _as_plain(turn) -> tuple:
    def draw(d):
        if isinstance(d, Skip):
            return None
        return (d.owner, d.card)

    return (
        turn.number,
        turn.player,
        draw(turn.draws[0]),
        draw(turn.draws[1]),
        turn.plant.card,
        turn.plant.coord,
        turn.discard,
    )


def _agrees_with_the_parser(text: str) -> None:
    plain = read_turn_lines(text)
    assert plain is not None
    outcome = parse_all(text)
    assert not outcome.errors
    [record] = outcome.games
    assert plain.header == record.header
    assert plain.turns == [_as_plain(t) for t in record.turns]
    assert plain.reveals == [(r.player, r.cards) for r in record.reveals]
    assert plain.scores == (None if record.result.unfinished else record.result.as_dict())


@pytest.mark.parametrize("index", range(len(_TEXTS)))
def test_a_simulated_record_is_plain_and_decodes_as_the_parser_does(index: int):
    _agrees_with_the_parser(_TEXTS[index])


def test_annotated_and_untidy_games_are_not_plain():
    assert read_turn_lines((SAMPLES / "annotated.arb").read_text()) is None  # comments, variations
    for untidy in ("\n2.", "\n 2. ", "\n\t2. "):  # no gap after the number's '.', a gap at an end
        assert read_turn_lines(_TEXTS[0].replace("\n2. ", untidy, 1)) is None
    assert read_turn_lines(_TEXTS[0].replace("\n", " \n", 20)) is None  # a gap at the end of a line
    no_result = _TEXTS[0][: _TEXTS[0].index("result")]
    assert read_turn_lines(no_result) is None


@pytest.mark.parametrize("index", range(len(_TEXTS)))
def test_turns_typed_by_hand_with_runs_of_spaces_and_tabs_decode_as_the_parser_does(index: int):
    import random
    import re

    rng = random.Random(index)
    text = re.sub(
        r"(?m)^([0-9]+\.) (.*)$",
        lambda m: m[1] + rng.choice(("", " ", "\t")) + " " + m[2].replace(" ", rng.choice(("  ", "\t", " \t "))),
        _TEXTS[index],
    )
    assert "\t" in text and "  " in text
    _agrees_with_the_parser(text)


@pytest.mark.parametrize(
    "annotations",
    [
        ("!", "?!", "$12", "!! ?", "{a quiet move}", "! {a} {b}", "; to the end of the line", "? {c} ; d", "  \t"),
    ],
)
def test_turns_with_annotations_on_their_line_and_variations_of_one_turn_are_read(annotations):
    from arbo_notation.notation.reading.scanner import read_moves

    lines = _TEXTS[5].split("\n")
    turns = [i for i, line in enumerate(lines) if line[:1].isdigit()]
    out = []
    for i, line in enumerate(lines):
        out.append(line + " " + annotations[i % len(annotations)] if i in turns[3::4] else line)
        if i in turns[2::5]:
            out.append(f"  ({line} ? {{played again}})")
            out.append("; a comment line")
            out.append(f"( {line} {{and again}} )")
            out.append(f"({{a note before it}} {line} !)")  # samples/annotated.arb's form
        if i == turns[10]:
            out.append("{a comment} {on its own line}")
    text = "\n".join(out)
    plain = read_turn_lines(text)
    assert plain is not None and plain.branches
    assert plain == read_moves(text, lines=False)
    _agrees_with_the_parser(text)


@pytest.mark.parametrize(
    "line",
    [
        "(1. Ana d d Ma3@0,0 /Oa5 ; swallows the parenthesis)",  # the grammar's line comment takes the ')'
        "(1. Ana d d Ma3@0,0 /Oa5 2. Ben d d Ma3@0,0 /Oa5)",  # two turns: the token loop's
        "(1. Ana d d Ma3@0,0 /Oa5 (1. Ana d d Ma3@0,0 /Oa5))",  # nested
        "(1. Ana d d Ma3@0,0 /Oa5) {after}",
        "()",
        "({a note} ; swallows the turn\n1. Ana d d Ma3@0,0 /Oa5)",
        "({a (note)} 1. Ana d d Ma3@0,0 /Oa5)",  # a parenthesis in a comment: the token loop's
    ],
)
def test_other_variations_are_left_to_the_fast_reader(line):
    lines = _TEXTS[0].split("\n")
    at = next(i for i, text in enumerate(lines) if text.startswith("3. "))
    text = "\n".join(lines[:at] + [line] + lines[at:])
    assert read_turn_lines(text) is None


@pytest.mark.parametrize("tail", ["!!!", "{a} !", "{a", "!(", "$", "?x", "! ?!?", "{a}}"])
def test_annotations_the_grammar_refuses_are_not_read(tail):
    lines = _TEXTS[0].split("\n")
    at = next(i for i, text in enumerate(lines) if text.startswith("3. "))
    lines[at] += " " + tail
    assert read_turn_lines("\n".join(lines)) is None


def test_the_token_caches_start_again_when_full_and_still_decode_right(monkeypatch):
    from arbo_notation.notation.reading import scanner

    for cache in ("_NUMBERS", "_NAMES", "_DRAWS", "_PLANTS", "_DISCARDS", "_CARDS"):
        monkeypatch.setattr(scanner, cache, {})
    monkeypatch.setattr(scanner, "_MAX_TOKENS", 10)
    for text in _TEXTS[:3]:
        _agrees_with_the_parser(text)
        assert 0 < len(scanner._PLANTS) <= 10 + text.count("@")  # started again, then learnt this game


def test_an_unfinished_plain_game_has_no_scores():
    text = (SAMPLES / "unfinished.arb").read_text()
    _agrees_with_the_parser(text)
    assert read_turn_lines(text).scores is None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    index=st.integers(0, len(_TEXTS) - 1),
    at=st.integers(0, 10**6),
    edit=st.sampled_from(["delete", "insert", "swap"]),
    char=st.sampled_from(list("d:-@,/ 0123456789AaMmx\n{;!()*\t\u00e9")),
)
def test_plain_text_is_always_text_the_grammar_reads_the_same_way(index, at, edit, char):
    text = _TEXTS[index]
    header_end = text.index("\n---\n", 3) + 5  # edit the body: the header has its own tests
    at = header_end + at % (len(text) - header_end)
    if edit == "delete":
        text = text[:at] + text[at + 1 :]
    elif edit == "insert":
        text = text[:at] + char + text[at:]
    else:
        text = text[:at] + text[at + 1 : at + 2] + text[at] + text[at + 2 :]
    if read_turn_lines(text) is not None:
        _agrees_with_the_parser(text)


@pytest.mark.parametrize(
    "path", sorted(SAMPLES.glob("*.arb")) + sorted((SAMPLES / "invalid").glob("*.arb")), ids=lambda p: p.name
)
def test_the_fast_check_finds_what_the_full_check_finds(path: Path):
    text = path.read_text(encoding="utf-8", errors="replace")
    full = check_text(text, path.name)
    fast = check_text(text, path.name, keep_games=False)
    assert (fast.game_count, fast.valid_count) == (full.game_count, full.valid_count)
    assert fast.diagnostics == full.diagnostics


@pytest.mark.parametrize(
    "change",
    [
        lambda turn: turn,  # the same turn again: legal
        lambda turn: turn.rsplit(" /", 1)[0] + " /Zz1",  # a card not in play
        lambda turn: turn.replace("@", "@9", 1),  # off the arboretum
        lambda turn: turn.split(". ", 1)[1],  # unnumbered: the number it must have
        lambda turn: "99. " + turn.split(". ", 1)[1],  # wrongly numbered
    ],
)
def test_the_fast_check_of_variations_of_one_turn_finds_what_the_full_check_finds(change):
    lines = _TEXTS[4].split("\n")
    for at in [i for i, line in enumerate(lines) if line[:1].isdigit()][2::7][::-1]:
        lines.insert(at + 1, f"({change(lines[at])})")
    text = "\n".join(lines)
    full = check_text(text, "v.arb")
    fast = check_text(text, "v.arb", keep_games=False)
    assert (fast.game_count, fast.valid_count, fast.diagnostics) == (
        full.game_count,
        full.valid_count,
        full.diagnostics,
    )


def test_the_fast_check_of_many_games_counts_them_all():
    text = "\n".join(_TEXTS * 30)
    fast = check_text(text, "many.arb", keep_games=False)
    assert (fast.game_count, fast.valid_count, fast.diagnostics) == (len(_TEXTS) * 30, len(_TEXTS) * 30, [])
    broken = text.replace("result", "result Zed 3,", 1)
    fast, full = check_text(broken, "b.arb", keep_games=False), check_text(broken, "b.arb")
    assert fast.diagnostics == full.diagnostics and fast.valid_count == full.valid_count == len(_TEXTS) * 30 - 1


def test_the_fast_check_makes_no_reference_cycles_so_a_long_check_leaves_the_collector_nothing():
    import gc

    text = "".join(_TEXTS)
    check_text(text, "warm.arb", keep_games=False)  # caches filled once
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        check = check_text(text, "plain.arb", keep_games=False)
        assert (check.game_count, check.valid_count) == (len(_TEXTS), len(_TEXTS))
        assert gc.collect() == 0  # nothing was left for the cyclic collector
    finally:
        if was_enabled:
            gc.enable()
