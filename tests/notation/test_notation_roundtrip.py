"""Writing and reading back lose nothing: fixtures, and records hypothesis makes up.

* format is a fixed point: format(parse(format(parse(x)))) == format(parse(x));
* parse(format(g)) == renumber(g) for every record g the notation can hold;
* the same records written untidily (spaces, tabs, blank lines, CRLF, BOM, no turn numbers)
  read the same;
* the structured forms (data, JSON, YAML) give the same records, and JSON -> .arb gives what
  format gives.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbo_notation.engine.actions import Draw, Plant, Skip
from arbo_notation.engine.cards import Card, Coord
from arbo_notation.errors import ArboError
from arbo_notation.notation import (
    GLYPHS,
    HEADER_KEYS,
    RESERVED_NAMES,
    Comment,
    GameRecord,
    Header,
    Result,
    Reveal,
    Turn,
    Variation,
    dumps_json,
    dumps_yaml,
    format_game,
    format_games,
    game_from_data,
    game_to_data,
    loads_json,
    loads_yaml,
    parse,
    renumber,
)

FIXTURES = Path(__file__).parent.parent / "fixtures" / "notation"
PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ------------------------------------------------------------------------------------------------
# Strategies

NAME_POOL = ["Ana", "Ben", "Cleo", "Dev", "O'Neil", "Jean-Luc", "x_1", "No", "True", "null", "dave", "Yes", "On"]
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
names = st.one_of(
    st.sampled_from(NAME_POOL),
    st.builds(str.__add__, st.sampled_from(LETTERS), st.text(LETTERS + "0123456789_'-", max_size=6)).filter(
        lambda n: n not in RESERVED_NAMES
    ),
)
codes = st.text(LETTERS, min_size=1, max_size=3)
cards = st.builds(Card, st.sampled_from(["Ca", "Dw", "Ja", "Ma", "Oa", "Wi"]) | codes, st.integers(1, 8))
_HEADER_LINE = re.compile(r"\n---[ \t]*\n")  # inside a {comment}: a line '---' of its own once written

# Texts a person might write, with the characters that need care in YAML and in the notation.
text_chars = st.one_of(
    st.sampled_from(list("abcxyz ABC019{}();:#,'\"[]!?$-\\@/&*|>%`~=\t") + ["é", "Ω", "中", "🌳", "\u00a0"]),
    st.characters(min_codepoint=0x20, max_codepoint=0x33F, blacklist_categories=("Cs", "Cc")),
)
pieces = st.one_of(text_chars, st.sampled_from(["---", " --- ", "...", "yes", "null", "1.5", "# x", ": "]))
plain_text = st.lists(pieces, max_size=10).map("".join)


def brace_text():
    chars = st.one_of(
        pieces.filter(lambda c: "}" not in c), st.just("\n"), st.sampled_from(["\n ---\n", "\n---x", "---\n", "\n---"])
    )
    return st.lists(chars, max_size=10).map("".join).map(str.strip).filter(lambda t: not _HEADER_LINE.search(t))


line_text = st.lists(pieces.filter(lambda c: "\n" not in c), max_size=10).map("".join).map(str.strip)
comments_any = st.lists(
    st.one_of(st.builds(Comment, brace_text()), st.builds(Comment, line_text, st.just(True))), max_size=2
)


@st.composite
def comments_after(draw):
    """A turn's comments after it: {braces}, and a ';' comment only last (docs/NOTATION.md)."""
    out = draw(st.lists(st.builds(Comment, brace_text()), max_size=2))
    if draw(st.booleans()) and draw(st.booleans()):
        out.append(Comment(draw(line_text), line=True))
    return out


glyphs = st.lists(st.one_of(st.sampled_from(GLYPHS), st.integers(0, 300).map(lambda n: f"${n}")), max_size=2)


@st.composite
def draws(draw, players):
    kind = draw(st.sampled_from(("deck", "discard", "skip")))
    if kind == "skip":
        return Skip()
    card = draw(st.none() | cards)
    if kind == "deck":
        return Draw(None, card)
    return Draw(draw(st.sampled_from(players)), card)


@st.composite
def turns(draw, players, depth, first_in_line):
    return Turn(
        player=draw(st.sampled_from(players)),
        draws=(draw(draws(players)), draw(draws(players))),
        plant=Plant(draw(cards), Coord(draw(st.integers(-30, 30)), draw(st.integers(-30, 30)))),
        discard=draw(cards),
        number=None,
        glyphs=tuple(draw(glyphs)),
        comments_before=() if first_in_line else tuple(draw(comments_any)),
        comments_after=tuple(draw(comments_after())),
        variations=tuple(draw(st.lists(variations(players, depth + 1), max_size=2 - depth))) if depth < 2 else (),
    )


@st.composite
def turn_lines(draw, players, depth, min_size=0, max_size=4):
    count = draw(st.integers(min_size, max_size))
    return tuple(draw(turns(players, depth, i == 0)) for i in range(count))


@st.composite
def variations(draw, players, depth):
    return Variation(draw(turn_lines(players, depth, 1, 2)), tuple(draw(comments_any)), tuple(draw(comments_any)))


yaml_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    plain_text,
    st.dates(dt.date(1900, 1, 1), dt.date(2100, 1, 1)),
)
yaml_values = st.recursive(
    yaml_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text("abc_", min_size=1, max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
extra_keys = st.builds(str.__add__, st.sampled_from("abcxyz"), st.text("abcz_019", max_size=8)).filter(
    lambda k: k not in HEADER_KEYS
)


@st.composite
def headers(draw):
    players = tuple(draw(st.lists(names, min_size=1, max_size=4, unique=True)))
    species = tuple(draw(st.lists(codes, min_size=1, max_size=6, unique=True)))
    text = st.none() | plain_text
    date = draw(
        st.none()
        | st.dates(dt.date(1990, 1, 1), dt.date(2100, 12, 31)).map(dt.date.isoformat)
        | st.sampled_from(["2026", "2026-11"])
    )
    players_maps = st.dictionaries(st.sampled_from(players), st.lists(cards, max_size=8).map(tuple), max_size=2)
    return Header(
        players=players,
        species=species,
        event=draw(text),
        site=draw(text),
        date=date,
        round=draw(text),
        annotator=draw(text),
        names=draw(st.dictionaries(st.sampled_from(species), plain_text, max_size=3)),
        perspective=draw(st.none() | st.sampled_from(players)),
        deck=draw(st.none() | st.lists(cards, max_size=30).map(tuple)),
        hands=draw(players_maps),
        discards=draw(players_maps),
        result=draw(st.none() | st.dictionaries(st.sampled_from(players), st.integers(0, 200), max_size=4)),
        extra=draw(st.dictionaries(extra_keys, yaml_values, max_size=3)),
    )


@st.composite
def games(draw):
    header = draw(headers())
    players = list(header.players)
    reveals = tuple(
        Reveal(
            draw(st.sampled_from(players)), tuple(draw(st.lists(cards, max_size=8))), None, tuple(draw(comments_any))
        )
        for _ in range(draw(st.integers(0, 3)))
    )
    result = draw(
        st.none()
        | st.builds(
            Result,
            st.lists(st.tuples(st.sampled_from(players), st.integers(0, 99)), min_size=1, max_size=4).map(tuple),
            st.just(False),
            st.none(),
            comments_any.map(tuple),
        )
        | st.builds(Result, st.just(()), st.just(True), st.none(), comments_any.map(tuple))
    )
    return GameRecord(header, draw(turn_lines(players, 0)), tuple(draw(comments_any)), reveals, result)


# ------------------------------------------------------------------------------------------------
# Fixtures


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.arb")), ids=lambda p: p.name)
def test_fixture_format_is_a_fixed_point(path):
    games_read = parse(path.read_text(encoding="utf-8"))
    once = format_games(games_read)
    again = parse(once)
    assert format_games(again) == once
    assert again == [renumber(g) for g in games_read]
    assert parse(format_games(again)) == again


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.arb")), ids=lambda p: p.name)
def test_fixture_canonical_layout(path):
    text = format_games(parse(path.read_text(encoding="utf-8")))
    assert "\r" not in text and "\t" not in text and text.endswith("\n") and not text.endswith("\n\n")
    for line in text.split("\n"):
        assert line == line.rstrip()
        if "{" not in line and ";" not in line and not line.startswith("notes:"):
            assert len(line) <= 80, line
    assert "\n\n\n" not in text


def test_canonical_text_of_the_club_night():
    text = format_games(parse((FIXTURES / "club-night.arb").read_text(encoding="utf-8")))
    assert text == (
        "---\n"
        "event: Club night\n"
        "date: 2026-11-29\n"
        "players: [Ana, Ben]\n"
        "species: [Ca, Dw, Ja, Ma, Oa, Wi]\n"
        "---\n"
        "{A comment before the first turn}\n"
        "1. Ana d d Ma3@0,0 /Oa5\n"
        "2. Ben d:Ja2 Ana Oa5@0,0 /Wi7 ! {Ben takes the oak at once}\n"
        "  (2. Ben d d Ja2@0,0 /Wi7 ?! {the quiet line}\n"
        "  3. Ana d d Ma4@1,0 /Ca1)\n"
        "3. Ana Ben:Wi7 d Wi7@0,1 /Dw2 ; a line comment\n"
        "reveal Ana Ja2 Oa6 Ca1 Ca4 Dw2 Wi7 Ma5\n"
        "reveal Ben Oa2 Ja1 Ja5 Ca2 Ca3 Dw8 Wi1\n"
        "result Ana 24, Ben 19\n"
    )


def test_canonical_text_of_nested_variations():
    text = format_games(parse((FIXTURES / "annotated.arb").read_text(encoding="utf-8")))
    body = text.split("---\n")[2]
    assert body == (
        "{Three players; Cleo annotates.}\n"
        "; the deal was not recorded\n"
        "1. Ana d d Ma3@0,0 /Oa5 {a quiet start}\n"
        "2. Ben Ana:Oa5 d Oa5@0,0 /Wi7 !? {takes the oak at once} ; bold\n"
        "{Cleo thinks a long time.\nShe settles on the spruce.}\n"
        "3. Cleo d d Bs2@0,0 /Rp8 ?\n"
        "  ({the main alternative} 3. Cleo Ben d Wi7@0,0 /Rp8 !\n"
        "  4. Ana d d Ma5@-1,0 /Ca2\n"
        "    (4. Ana Cleo:Rp8 d Rp8@0,-1 /Ca2 ?? {loses the 8})\n"
        "  {and Ana is fine})\n"
        "  (3. Cleo - - Bs2@0,0 /Cb1 $14)\n"
        "4. Ana d d Ma5@1,0 /Ca2 !!\n"
        "5. Ben d Cleo Rp8@0,1 /Ja1 {the end is near}\n"
        "reveal Ana Ja2 Oa6 Ca1 Ca4 Dw2 Wi7 Ma6 ; Ana keeps the maples\n"
        "reveal Ben Oa2 Ja3 Ja5 Ca3 Cb3 Dw8 Wi1\n"
        "reveal Cleo Bs1 Bs4 Bs5 Cb5 Cb6 Ja7 Rp2 {Cleo's spruce path}\n"
        "result Ana 14, Ben 11, Cleo 17 {Cleo wins}\n"
    )


def test_games_are_separated_by_one_blank_line():
    text = format_games(parse((FIXTURES / "multi.arb").read_text(encoding="utf-8")))
    assert text.count("\n\n---\n") == 2 and "\n\n\n" not in text


# ------------------------------------------------------------------------------------------------
# Records hypothesis makes up


@pytest.mark.slow
@PROPERTY
@given(games())
def test_generated_record_round_trips(game):
    text = format_game(game)
    (back,) = parse(text)
    assert back == renumber(game)
    assert format_game(back) == text


@pytest.mark.slow
@PROPERTY
@given(st.lists(games(), min_size=1, max_size=2))
def test_generated_records_round_trip_through_structured_forms(games_made):
    expected = [renumber(g) for g in parse(format_games(games_made))]
    assert [game_from_data(game_to_data(g)) for g in games_made] == games_made
    assert loads_json(dumps_json(games_made)) == games_made
    assert loads_yaml(dumps_yaml(games_made)) == games_made
    assert format_games(loads_json(dumps_json(games_made))) == format_games(games_made)
    assert parse(format_games(loads_json(dumps_json(games_made)))) == expected


# An untidy writer: same records, other spacing, line breaks, numbers and line ends.


class Messy:
    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd

    def sp(self) -> str:
        return self.rnd.choice([" ", "  ", "\t", " \t "])

    def nl(self) -> str:
        return self.rnd.choice(["\n", "\n", "\n\n", "\n \t\n"]) + self.rnd.choice(["", "  ", "\t"])

    def comment(self, c: Comment) -> str:
        if c.line:
            return ";" + self.rnd.choice(["", " ", "\t"]) + c.text
        pad = self.rnd.choice(["", " ", "  "])
        return "{" + pad + c.text + pad + "}"

    def own_lines(self, comments) -> str:
        return "".join(self.comment(c) + self.nl() for c in comments)

    def inline(self, comments) -> str:
        out = ""
        for i, c in enumerate(comments):
            out += self.rnd.choice([" ", "", "\t"]) + self.comment(c)
            if c.line and i + 1 < len(comments):
                out += "\n"  # a ';' comment runs to the end of the line
        return out

    def turn(self, t: Turn, number: int) -> str:
        head = self.rnd.choice([f"{number}.", f"{number}.", f"{number}. ", ""])
        parts = [t.player] + [str(d) for d in t.draws] + [str(t.plant), f"/{t.discard}"]
        text = head + (self.sp() if head else "") + self.sp().join(parts)
        for i, g in enumerate(t.glyphs):
            text += (self.rnd.choice(["", " "]) if i == 0 else self.sp()) + g
        return text + self.inline(t.comments_after)

    def line(self, turns, first: int) -> str:
        out = ""
        for i, t in enumerate(turns):
            out += self.own_lines(t.comments_before) + self.turn(t, first + i)
            ended = bool(t.comments_after) and t.comments_after[-1].line
            for v in t.variations:
                out += self.nl() + self.variation(v, first + i)
                ended = False
            out += "\n" if ended else self.nl()
        return out

    def variation(self, v: Variation, number: int) -> str:
        out = "(" + self.rnd.choice(["", " "])
        for c in v.comments_before:
            out += self.comment(c) + ("\n" if c.line else self.rnd.choice([" ", "\n"]))
        out += self.line(v.turns, number)
        out += self.own_lines(v.comments_after)
        return out + ")"

    def game(self, g: GameRecord, header_text: str) -> str:
        out = header_text + self.rnd.choice(["", "\n", "\n\t \n"])
        out += self.own_lines(g.comments) + self.line(g.turns, 1)
        for r in g.reveals:
            out += "reveal" + self.sp() + self.sp().join([r.player] + [str(c) for c in r.cards])
            out += self.inline(r.comments) + "\n" + self.own_lines([])
        if g.result is not None:
            res = g.result
            scores = (
                "*"
                if res.unfinished
                else self.rnd.choice([", ", " ", ",", " , "]).join(f"{n}{self.sp()}{s}" for n, s in res.scores)
            )
            out += "result" + self.sp() + scores + self.inline(res.comments) + "\n"
        return out


@pytest.mark.slow
@PROPERTY
@given(games(), st.randoms(use_true_random=False))
def test_untidy_text_reads_the_same(game, rnd):
    canonical = format_game(game)
    header_text = canonical[: canonical.index("\n---\n", 3) + 5]
    messy = Messy(rnd).game(game, header_text)
    if rnd.random() < 0.3:
        messy = messy.replace("\n", "\r\n")
    if rnd.random() < 0.2:
        messy = "\ufeff" + messy
    (back,) = parse(messy)
    assert renumber(back) == renumber(game)
    assert format_game(back) == canonical


def test_an_unknown_key_holding_one_value_twice_is_written_without_yaml_aliases():
    day = dt.date(2000, 1, 1)
    game = GameRecord(header=Header(players=("Ana",), species=("A",), extra={"a": [day, day], "b": {"x": [1]}}))
    text = format_game(game)
    assert "a: [2000-01-01, 2000-01-01]" in text and "&" not in text and "*" not in text
    assert format_game(parse(text)[0]) == text


def test_a_comment_with_dashes_on_its_first_or_last_line_is_written_as_it_was_read():
    text = (
        "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw]\n---\n{---}\n1. Ana d d Ca3@0,0 /Dw5 {---} {a\n---}\n"
        "{---\nb}\n2. Ben d d Ca4@0,0 /Dw6\n"
    )
    games = parse(text)
    assert [c.text for c in games[0].comments] == ["---"]
    assert [c.text for c in games[0].turns[0].comments_after] == ["---", "a\n---"]
    written = format_games(games)
    assert written == text and parse(written) == games
    assert format_games(loads_json(dumps_json(games))) == written


def test_a_comment_with_a_line_of_dashes_inside_it_cannot_be_written():
    game = GameRecord(header=Header(players=("Ana",), species=("A",)), comments=(Comment("a\n---\nb"),))
    with pytest.raises(ArboError, match="a {comment} cannot hold a line '---'"):
        format_game(game)
