"""The .arb parser: exact records from fixtures, comment placement, lenient input, many games, files."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from arbo_notation.engine.actions import Draw, Plant, Skip
from arbo_notation.engine.cards import Card, Coord
from arbo_notation.errors import ArboError, NotationError, NotationErrors
from arbo_notation.notation import (
    Comment,
    Pos,
    Result,
    Reveal,
    format_games,
    parse,
    parse_all,
)
from arbo_notation.api import read_games
from arbo_notation.notation.reading import grammar
from arbo_notation.notation.reading import syntax

FIXTURES = Path(__file__).parent.parent / "fixtures" / "notation"
ROOT = Path(__file__).resolve().parents[2]

HEADER = "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n---\n"


def C(text: str, line: bool = False) -> Comment:
    return Comment(text, line)


def card(text: str) -> Card:
    return Card.parse(text)


def one(text: str):
    games = parse(text)
    assert len(games) == 1
    return games[0]


# ------------------------------------------------------------------------------------------------
# The club-night example, value by value


def test_club_night_header_and_file_fields():
    (game,) = read_games(FIXTURES / "club-night.arb")
    h = game.header
    assert h.players == ("Ana", "Ben")
    assert h.species == ("Ca", "Dw", "Ja", "Ma", "Oa", "Wi")
    assert h.event == "Club night" and h.date == "2026-11-29"
    assert h.extra == {} and h.deck is None and h.hands == {} and h.result is None
    assert h.pos == Pos(1, 1)
    assert game.file == str(FIXTURES / "club-night.arb") and game.index == 1
    assert game.comments == (C("A comment before the first turn"),)


def test_club_night_turns_exact():
    (game,) = read_games(FIXTURES / "club-night.arb")
    t1, t2, t3 = game.turns
    assert t1.number == 1 and t1.player == "Ana"
    assert t1.draws == (Draw(), Draw())
    assert t1.plant == Plant(card("Ma3"), Coord(0, 0)) and t1.discard == card("Oa5")
    assert t1.glyphs == () and t1.comments_before == () and t1.comments_after == () and t1.variations == ()
    assert (t1.pos, t1.plant_pos, t1.discard_pos) == (Pos(8, 1), Pos(8, 22), Pos(8, 32))
    assert [t1.draw_pos(i) for i in (0, 1)] == [Pos(8, 9), Pos(8, 11)]

    assert t2.draws == (Draw(None, card("Ja2")), Draw("Ana"))
    assert [t2.draw_pos(i) for i in (0, 1)] == [Pos(9, 9), Pos(9, 15)]
    assert t2.glyphs == ("!",)
    assert t2.comments_after == (C("Ben takes the oak at once"),)
    (variation,) = t2.variations
    assert variation.pos == Pos(10, 4)
    assert variation.comments_before == () and variation.comments_after == ()
    v1, v2 = variation.turns
    assert (v1.number, v1.player, v1.glyphs, v1.comments_after) == (2, "Ben", ("?!",), (C("the quiet line"),))
    assert v1.plant == Plant(card("Ja2"), Coord(0, 0)) and v1.pos == Pos(10, 5)
    assert (v2.number, v2.player, v2.plant, v2.discard) == (3, "Ana", Plant(card("Ma4"), Coord(1, 0)), card("Ca1"))
    assert v2.pos == Pos(10, 49) and v2.discard_pos == Pos(10, 68)

    assert t3.draws == (Draw("Ben", card("Wi7")), Draw())
    assert t3.comments_after == (C("a line comment", line=True),)


def test_club_night_end_exact():
    (game,) = read_games(FIXTURES / "club-night.arb")
    assert game.reveals == (
        Reveal("Ana", tuple(map(card, "Ja2 Oa6 Ca1 Ca4 Dw2 Wi7 Ma5".split()))),
        Reveal("Ben", tuple(map(card, "Oa2 Ja1 Ja5 Ca2 Ca3 Dw8 Wi1".split()))),
    )
    assert [r.pos for r in game.reveals] == [Pos(12, 1), Pos(13, 1)]
    assert game.result == Result((("Ana", 24), ("Ben", 19)))
    assert game.result.pos == Pos(14, 1)
    assert game.finished


# ------------------------------------------------------------------------------------------------
# Every annotation, nested variations


def test_annotated_fixture_structure():
    (game,) = read_games(FIXTURES / "annotated.arb")
    h = game.header
    assert (h.site, h.round, h.annotator) == ("The Greenhouse", "3", "Cleo")
    assert game.comments == (C("Three players; Cleo annotates."), C("the deal was not recorded", line=True))
    t1, t2, t3, t4, t5 = game.turns
    assert t1.comments_after == (C("a quiet start"),)
    assert t2.glyphs == ("!?",)
    assert t2.comments_after == (C("takes the oak at once"), C("bold", line=True))
    assert t3.comments_before == (C("Cleo thinks a long time.\nShe settles on the spruce."),)
    assert t3.glyphs == ("?",)
    main_alt, skip_alt = t3.variations
    assert main_alt.comments_before == (C("the main alternative"),)
    assert main_alt.comments_after == (C("and Ana is fine"),)
    a3, a4 = main_alt.turns
    assert (a3.number, a3.glyphs) == (3, ("!",))
    (nested,) = a4.variations
    (n4,) = nested.turns
    assert n4.draws[0] == Draw("Cleo", card("Rp8"))
    assert (n4.glyphs, n4.comments_after) == (("??",), (C("loses the 8"),))
    assert a4.plant.coord == Coord(-1, 0) and n4.plant.coord == Coord(0, -1)
    (s3,) = skip_alt.turns
    assert s3.draws == (Skip(), Skip()) and s3.glyphs == ("$14",)
    assert t4.glyphs == ("!!",) and t4.comments_before == ()
    # a comment after the last turn (before the reveal lines) belongs to it
    assert t5.comments_after == (C("the end is near"),)
    assert [r.comments for r in game.reveals] == [
        (C("Ana keeps the maples", line=True),),
        (),
        (C("Cleo's spruce path"),),
    ]
    assert game.result.scores == (("Ana", 14), ("Ben", 11), ("Cleo", 17))
    assert game.result.comments == (C("Cleo wins"),)
    assert len(list(game.all_turns())) == 9


def test_omniscient_header():
    (game,) = read_games(FIXTURES / "omniscient.arb")
    h = game.header
    assert h.round == "1" and h.perspective == "Ana"
    assert h.names["Ja"] == "Jacaranda"
    assert h.deck[:3] == (card("Ma3"), card("Oa5"), card("Ja2")) and len(h.deck) == 34
    assert h.hands["Ben"][-1] == card("Ma7")
    assert h.result == {"Ana": 7, "Ben": 5}
    assert list(h.extra) == ["club_rating", "notes", "tags"]
    assert h.extra["club_rating"] == {"Ana": 1510, "Ben": 1432}
    assert h.extra["notes"] == "Played over two evenings.\nBen resigned in spirit at turn 30.\n"
    assert game.result == Result((), unfinished=True) and not game.finished


# ------------------------------------------------------------------------------------------------
# Where comments go


def test_comment_placement_rules():
    text = HEADER + (
        "{g1}\n"
        "1. Ana d d Ca1@0,0 /Ca2 {a1} {a2}\n"
        "{b2} ; b2'\n"
        "2. Ben d d Ca1@1,0 /Ca2 ; a2\n"
        "{a2 before its variation}\n"
        "  ({v-open}\n"
        "  2. Ben d d Ca3@0,1 /Ca2 {va}\n"
        "  {vb} 3. Ana d d Ca4@0,1 /Ca2\n"
        "  {v-close})\n"
        "{between}\n"
        "  (2. Ben d d Ca5@0,1 /Ca2)\n"
        "{b3}\n"
        "3. Ana d d Ca1@0,1 /Ca2\n"
        "{trailing}\n"
        "reveal Ana Ca1\n"
    )
    game = one(text)
    t1, t2, t3 = game.turns
    assert game.comments == (C("g1"),)
    assert t1.comments_after == (C("a1"), C("a2"))
    assert t2.comments_before == (C("b2"), C("b2'", line=True))
    assert t2.comments_after == (C("a2", line=True), C("a2 before its variation"))
    first, second = t2.variations
    assert first.comments_before == (C("v-open"),)
    assert first.turns[0].comments_after == (C("va"),)
    assert first.turns[1].comments_before == (C("vb"),)
    assert first.comments_after == (C("v-close"),)
    assert second.comments_before == (C("between"),)
    assert t3.comments_before == (C("b3"),)
    assert t3.comments_after == (C("trailing"),)


def test_comments_only_game_and_after_result():
    game = one(HEADER + "{only a comment}\n; and another\nresult *\n{after the result}\n")
    assert game.turns == () and game.comments == (C("only a comment"), C("and another", line=True))
    assert game.result.comments == (C("after the result"),)


def test_comment_text_is_stripped_and_may_hold_braces_and_semicolons():
    game = one(HEADER + "1. Ana d d Ca1@0,0 /Ca2 {  { ; (  }\n;;  x  \n2. Ben d d Ca2@0,0 /Ca1")
    assert game.turns[0].comments_after == (C("{ ; ("),)
    assert game.turns[1].comments_before == (C(";  x", line=True),)


# ------------------------------------------------------------------------------------------------
# Forms of tokens


@pytest.mark.parametrize(
    "token, draw",
    [
        ("d", Draw()),
        ("d:Ma3", Draw(None, Card("Ma", 3))),
        ("Ben", Draw("Ben")),
        ("Ben:Ja2", Draw("Ben", Card("Ja", 2))),
        ("-", Skip()),
        ("dave", Draw("dave")),
        ("O'Neil", Draw("O'Neil")),
        ("Jean-Luc_2", Draw("Jean-Luc_2")),
        ("d:abc8", Draw(None, Card("abc", 8))),
    ],
)
def test_draw_forms(token, draw):
    game = one(HEADER + f"1. Ana {token} d Ma3@0,0 /Oa5\n")
    assert game.turns[0].draws[0] == draw


@pytest.mark.parametrize(
    "coords, coord", [("0,0", Coord(0, 0)), ("-3,12", Coord(-3, 12)), ("10,-1", Coord(10, -1)), ("007,-0", Coord(7, 0))]
)
def test_planting_coordinates(coords, coord):
    assert one(HEADER + f"Ana d d Ma3@{coords} /Oa5").turns[0].plant.coord == coord


def test_glyphs_and_numbers():
    game = one(HEADER + "1. Ana d d Ma3@0,0 /Oa5! ?? $7 $123\n2.Ben d d Ma3@0,0 /Oa5\nAna d d Ma3@0,0 /Oa5")
    assert game.turns[0].glyphs == ("!", "??", "$7", "$123")
    assert [t.number for t in game.turns] == [1, 2, None]


def test_wrong_numbers_are_kept_as_written():
    game = one(HEADER + "7. Ana d d Ma3@0,0 /Oa5\n7. Ben d d Ma3@0,0 /Oa5")
    assert [t.number for t in game.turns] == [7, 7]
    assert "1. Ana" in format_games([game]) and "2. Ben" in format_games([game])


def test_several_turns_on_a_line_and_spread_variation():
    game = one(
        HEADER
        + "1. Ana d d Ma3@0,0 /Oa5 2. Ben d d Ma4@0,0 /Oa6 (2. Ben d d\tMa5@0,0 /Oa6\n\n 3. Ana d d Ma6@1,0 /Oa7\n)"
    )
    assert len(game.turns) == 2 and len(game.turns[1].variations[0].turns) == 2


def test_result_forms():
    assert one(HEADER + "result Ana 3 Ben 2").result.scores == (("Ana", 3), ("Ben", 2))
    assert one(HEADER + "result Ana 3,Ben 2 ,  Cleo 0").result.scores == (("Ana", 3), ("Ben", 2), ("Cleo", 0))
    assert one(HEADER + "result *").result.unfinished
    assert one(HEADER).result is None


def test_empty_reveal_and_reveals_on_one_line():
    game = one(HEADER + "reveal Ana reveal Ben Ca1")
    assert game.reveals == (Reveal("Ana", ()), Reveal("Ben", (Card("Ca", 1),)))


# ------------------------------------------------------------------------------------------------
# Lenient input


def _canonical(text: str) -> str:
    return format_games(parse(text))


def test_lenient_input_reads_the_same():
    clean = (FIXTURES / "club-night.arb").read_text(encoding="utf-8")
    reference = parse(clean)
    crlf = clean.replace("\n", "\r\n")
    assert parse("\ufeff" + crlf) == reference
    assert parse(clean.replace("\n", "\r")) == reference
    tabs = clean.replace("  ", "\t").replace(" d ", "\t d \t")
    assert parse(tabs) == reference
    blank = "\n\n" + clean.replace("\n1.", "\n\n\n1.").replace("\nreveal", "\n   \n\t\nreveal") + "\n\n\n"
    assert parse(blank) == reference
    trailing = clean.replace("---\n", "---   \n")
    assert parse(trailing) == reference


def test_missing_numbers_read_the_same_after_formatting():
    clean = (FIXTURES / "club-night.arb").read_text(encoding="utf-8")
    unnumbered = clean.replace("1. ", "").replace("2. ", "").replace("3. ", "")
    games = parse(unnumbered)
    assert all(t.number is None for t in games[0].all_turns())
    assert _canonical(unnumbered) == _canonical(clean)


def test_empty_and_blank_texts_hold_no_game():
    assert parse("") == [] and parse("\n  \n\t\n") == [] and parse("\ufeff") == []


# ------------------------------------------------------------------------------------------------
# Many games; an error in one does not hide the others


def test_multi_game_fixture():
    games = read_games(FIXTURES / "multi.arb")
    assert [g.index for g in games] == [1, 2, 3]
    assert [g.header.players[0] for g in games] == ["Ana", "Ben", "Ana"]
    assert games[1].result.unfinished and games[2].result is None
    assert games[2].turns[0].pos == Pos(23, 1)


def test_error_in_game_two_of_three():
    text = (
        (FIXTURES / "multi.arb")
        .read_text(encoding="utf-8")
        .replace("2. Ana Ben:Ca5 d Ca5@0,0 /Dw1", "2. Ana Ben:Ca5 d Ca5@0,0 /Dw9")
    )
    outcome = parse_all(text, "multi.arb")
    assert [g.index for g in outcome.games] == [1, 3]
    (error,) = outcome.errors
    assert (error.file, error.line, error.column) == ("multi.arb", 15, 27)
    assert "expected a card such as Ma3 after '/', found 'Dw9'" in error.message
    assert outcome.game_of(error) == 2
    assert [(s.index, s.first_line, s.last_line, s.error is not None) for s in outcome.game_spans] == [
        (1, 1, 8, False),
        (2, 9, 17, True),
        (3, 18, 23, False),
    ]
    with pytest.raises(NotationErrors) as raised:
        parse(text, "multi.arb")
    assert raised.value.errors[0].line == 15


def test_every_bad_game_is_reported():
    good = HEADER + "1. Ana d d Ma3@0,0 /Oa5\n"
    bad_yaml = "---\nplayers: [Ana\n---\n1. Ana d d Ma3@0,0 /Oa5\n"
    bad_body = HEADER + "1. Ana d d Ma3@0,0 Oa5\n"
    outcome = parse_all(good + bad_yaml + good + bad_body + good)
    assert len(outcome.games) == 3 and len(outcome.errors) == 2
    assert [outcome.game_of(e) for e in outcome.errors] == [2, 4]
    assert [g.index for g in outcome.games] == [1, 3, 5]


def test_error_position_and_show():
    outcome = parse_all(HEADER + "1. Ana d d Ma3@0,0 /Oa5\n2. Ben d Ana Oa5@0,0 /Ma9\n", "game.arb")
    (error,) = outcome.errors
    assert str(error) == "game.arb:6:23: expected a card such as Ma3 after '/', found 'Ma9': a card's value runs 1 to 8"
    assert error.show() == (
        "game.arb:6:23: error: expected a card such as Ma3 after '/', found 'Ma9': a card's value runs 1 to 8\n"
        "    2. Ben d Ana Oa5@0,0 /Ma9\n"
        "                          ^"
    )


def test_unclosed_comment_does_not_swallow_the_next_game():
    text = HEADER + "1. Ana d d Ma3@0,0 /Oa5 {oops\n" + HEADER + "1. Ana d d Ma3@0,0 /Oa5 {fine}\n"
    outcome = parse_all(text)
    assert len(outcome.games) == 1 and outcome.games[0].index == 2
    assert outcome.errors[0].message == "unclosed comment: '{' at line 5 column 25 has no '}'"


# ------------------------------------------------------------------------------------------------
# Files


def test_read_games_errors(tmp_path):
    with pytest.raises(ArboError, match="no such file"):
        read_games(tmp_path / "missing.arb")
    with pytest.raises(ArboError, match="is a directory"):
        read_games(tmp_path)
    bad = tmp_path / "latin1.arb"
    bad.write_bytes(HEADER.encode() + "1. Ana d d Ma3@0,0 /Oa5 {caf\xe9}\n".encode("latin-1"))
    with pytest.raises(NotationErrors) as raised:
        read_games(bad)
    error = raised.value.errors[0]
    assert (error.line, error.column) == (5, 29) and "not UTF-8" in error.message
    ok = tmp_path / "bom.arb"
    ok.write_bytes(b"\xef\xbb\xbf" + HEADER.encode() + b"1. Ana d d Ma3@0,0 /Oa5\r\n")
    assert read_games(ok)[0].file == str(ok)


def test_not_text_is_an_arbo_error():
    with pytest.raises(ArboError):
        parse(b"---")  # type: ignore[arg-type]  # bytes on purpose: the reader must refuse them


# ------------------------------------------------------------------------------------------------
# The grammar and the module boundary


def test_grammar_is_found_and_strict():
    import lark

    assert grammar._strict_available()  # interegular is a dependency (lark[interegular])
    text = grammar.grammar_text()
    assert text == (ROOT / "grammar" / "arbo.lark").read_text(encoding="utf-8")
    lark.Lark(text, parser="lalr", strict=True)  # no conflict, no terminal collision


def test_grammar_names_every_terminal():
    import lark

    parser = lark.Lark(grammar.grammar_text(), parser="lalr")
    assert all(not t.name.startswith("__ANON") for t in parser.terminals)


def test_parser_is_built_once():
    assert syntax._parser() is syntax._parser()


@pytest.mark.slow
def test_only_the_grammar_module_imports_lark():
    package = ROOT / "arbo_notation"
    importers = []
    for path in package.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            if any(n == "lark" or n.startswith("lark.") for n in names):
                importers.append(path.relative_to(package).as_posix())
    assert set(importers) == {"notation/reading/grammar.py"}


def test_errors_are_notation_errors_with_locations():
    outcome = parse_all(HEADER + "1. Ana d d Ma3@0,0 /Oa5 )\n")
    (error,) = outcome.errors
    assert isinstance(error, NotationError) and error.source_line == "1. Ana d d Ma3@0,0 /Oa5 )"
    assert (error.line, error.column) == (5, 25)


def test_deep_variations_are_limited():
    turn = "1. Ana d d Ma3@0,0 /Oa5 "
    deep = HEADER + turn + ("(" + turn) * 101 + ")" * 101
    (error,) = parse_all(deep).errors
    assert "deeper than 100" in error.message
    (game,) = parse(HEADER + turn + ("(" + turn) * 100 + ")" * 100)
    assert len(list(game.all_turns())) == 101
