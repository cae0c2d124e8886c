"""A record's turn holds the engine's actions: Turn.of makes one of a TurnActions, Turn.actions and
Turn.turn_actions give them back, and the writer writes the engine's turn line."""

from __future__ import annotations

import importlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arbo_notation.notation as notation
from arbo_notation.engine.actions import Discard, Draw, Plant, Skip, TurnActions
from arbo_notation.engine.cards import Card, Coord
from arbo_notation.engine.state import Game, GameConfig, Setup
from arbo_notation.errors import ArboError
from arbo_notation.notation.model import Comment, GameRecord, Header, Turn, Variation, draw_kind
from arbo_notation.notation.reading.reader import parse
from arbo_notation.notation.writer import check_writable, format_turn
from arbo_notation.game.replay import replay_game
from arbo_notation.play.simulate import simulate_game

PROPERTY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HEADER = "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n---\n"

players = st.sampled_from(["Ana", "Ben", "Cleo", "Dev", "O'Neil"])
cards = st.builds(Card, st.sampled_from(["Ca", "Dw", "Ja", "Ma", "Oa", "Wi"]), st.integers(1, 8))
draws = st.one_of(
    st.just(Skip()),
    st.builds(Draw, st.none(), st.none() | cards),
    st.builds(Draw, players, st.none() | cards),
)
plants = st.builds(Plant, cards, st.builds(Coord, st.integers(-9, 9), st.integers(-9, 9)))
turn_actions = st.builds(
    lambda player, first, second, plant, discard, number, glyphs: TurnActions(
        player, (first, second, plant, discard), number, glyphs
    ),
    players,
    draws,
    draws,
    plants,
    st.builds(Discard, cards),
    st.none() | st.integers(1, 99),
    st.lists(st.sampled_from(["!", "?", "!?", "$12"]), max_size=2).map(tuple),
)


def test_a_turn_read_holds_the_engines_actions():
    (turn,) = parse(HEADER + "1. Ana d:Ma3 - Ma3@-1,0 /Oa5 !?\n")[0].turns
    assert turn.draws == (Draw(None, Card("Ma", 3)), Skip())
    assert turn.plant == Plant(Card("Ma", 3), Coord(-1, 0)) and turn.discard == Card("Oa", 5)
    assert turn.actions == (
        Draw(None, Card("Ma", 3)),
        Skip(),
        Plant(Card("Ma", 3), Coord(-1, 0)),
        Discard(Card("Oa", 5)),
    )
    game = Game(GameConfig(("Ana", "Ben"), ("Ca", "Dw", "Ja", "Ma", "Oa", "Wi")))
    assert turn.turn_actions == game.parse_turn("1. Ana d:Ma3 - Ma3@-1,0 /Oa5 !?")  # the engine reads the same
    assert turn.known() == (1, "Ana", (None, Card("Ma", 3)), None, Card("Ma", 3), Coord(-1, 0), Card("Oa", 5))


def test_turn_of_takes_the_annotations_beside_the_actions():
    played = TurnActions(
        "Ben", (Draw("Ana", Card("Ca", 2)), Draw(), Plant(Card("Ca", 2), Coord(0, 0)), Discard(Card("Wi", 8))), 2
    )
    other = Variation(
        (Turn.of(TurnActions("Ben", (Draw(), Draw(), Plant(Card("Wi", 8), Coord(0, 0)), Discard(Card("Ca", 2))))),)
    )
    turn = Turn.of(played, comments_before=(Comment("b"),), comments_after=(Comment("a"),), variations=(other,))
    assert turn == Turn(
        "Ben",
        (Draw("Ana", Card("Ca", 2)), Draw()),
        Plant(Card("Ca", 2), Coord(0, 0)),
        Card("Wi", 8),
        2,
        (),
        (Comment("b"),),
        (Comment("a"),),
        (other,),
    )
    assert format_turn(turn) == "2. Ben Ana:Ca2 d Ca2@0,0 /Wi8 {a}"


@PROPERTY
@given(turn_actions)
def test_turn_of_and_turn_actions_are_inverses(played: TurnActions):
    turn = Turn.of(played)
    assert turn.turn_actions == played and turn.actions == played.actions
    assert Turn.of(turn.turn_actions) == turn
    assert turn.known() == played.known()  # the fast path's form, the same either way
    assert format_turn(turn) == str(played)  # the writer writes the engine's turn line
    assert [draw_kind(d) for d in turn.draws] == [
        "skip" if isinstance(d, Skip) else "deck" if d.owner is None else "discard" for d in played.actions[:2]
    ]


@pytest.mark.parametrize("players_count, seed", [(2, 1), (3, 2), (4, 3)])
def test_a_records_turns_pushed_as_actions_play_the_game_the_replay_plays(players_count, seed):
    record = simulate_game(("Ana", "Ben", "Cleo", "Dev")[:players_count], seed, ["greedy"])
    header = record.header
    game = Game(GameConfig(header.players, header.species), Setup(header.deck, header.hands, header.discards))
    states = replay_game(record, keep_states=True).states
    for number, turn in enumerate(record.turns[:-1], 1):
        for action in turn.actions:
            game.push(action)
        assert game == states[number]
    for action in record.turns[-1].actions:
        game.push(action)
    assert game.move_stack == tuple(action for turn in record.turns for action in turn.actions)
    assert game.is_over and game.outcome() is not None
    assert dict(game.outcome().scores) == dict(record.result.scores)


def test_the_writer_refuses_a_draw_that_is_no_engine_draw():
    turn = Turn("Ana", (Draw(), "d"), Plant(Card("Ma", 3), Coord(0, 0)), Card("Oa", 5))  # a text where a draw is due
    record = GameRecord(Header(players=("Ana", "Ben"), species=("Ma", "Oa")), (turn,))
    with pytest.raises(
        ArboError, match="cannot write game 1 turn 1: a draw is an engine.actions.Draw or Skip, not 'd'"
    ):
        check_writable(record)
    named_nobody = Turn("Ana", (Draw("d"), Draw()), Plant(Card("Ma", 3), Coord(0, 0)), Card("Oa", 5))
    with pytest.raises(ArboError, match="'d' is not a player's name"):
        check_writable(GameRecord(record.header, (named_nobody,)))


def test_the_records_own_draw_and_planting_are_gone():
    model = importlib.import_module("arbo_notation.notation.model")
    cards_module = importlib.import_module("arbo_notation.engine.cards")
    assert not hasattr(model, "DrawKind") and not hasattr(cards_module, "Planting")
    assert getattr(model, "Draw", Draw) is Draw  # (imported there, the engine's)
    assert {"Draw", "DrawKind"}.isdisjoint(model.__all__) and {"Draw", "DrawKind"}.isdisjoint(notation.__all__)
