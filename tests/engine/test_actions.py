"""The engine's move API: actions as values, Game.legal_actions, push and pop, parse_turn and push_turn."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbo_notation.engine.actions import ActionError, Discard, Draw, Plant, Skip, TurnActions, parse_action
from arbo_notation.engine.cards import ORIGIN, Card, Coord, full_deck
from arbo_notation.engine.state import Game, GameConfig, Phase, Setup
from arbo_notation.errors import ArboError, RuleError
from tests.engine.test_engine_fast import SIX, TWO, game_with_tree, snapshot

C = Card.parse


def drawn(game: Game, count: int = 2) -> Game:
    for _ in range(count):
        game.push(game.legal_actions()[0])
    return game


# -- str() and parsing ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action, text",
    [
        (Draw(), "d"),
        (Draw(None, C("Ma3")), "d:Ma3"),
        (Draw("Ben"), "Ben"),
        (Draw("Ben", C("Oa5")), "Ben:Oa5"),
        (Skip(), "-"),
        (Plant(C("Ma3"), Coord(0, 1)), "Ma3@0,1"),
        (Plant(C("Ma3"), Coord(1, -2)), "Ma3@1,-2"),
        (Discard(C("Oa5")), "/Oa5"),
    ],
)
def test_each_action_is_written_in_the_notation_and_read_back(action, text):
    assert str(action) == text
    assert parse_action(text) == action
    assert Game(TWO).parse_action(text) == action


@pytest.mark.parametrize("text", ["", "x@", "Ma9@0,0", "/Ma", "Ma3@0", "d:Ma9", "reveal", "Ma3@0,0,1", "//Oa5"])
def test_text_that_is_no_action_is_refused_in_words(text):
    with pytest.raises(ActionError, match="is no action"):
        parse_action(text)


def test_a_text_read_again_is_the_same_action_and_what_is_no_text_is_refused_in_words():
    """parse_action remembers the texts it read: the same value back, a refusal every time."""
    assert parse_action("Ma3@0,1") is parse_action("Ma3@0,1")
    assert parse_action(" /Oa5 ") == Discard(C("Oa5"))
    for _ in range(2):
        with pytest.raises(ActionError, match="'Ma9@0,0' is no action"):
            parse_action("Ma9@0,0")
    for word in (None, 3, ["d"]):
        with pytest.raises(ActionError, match=re.escape(f"{word!r} is no action")):
            parse_action(word)  # type: ignore[arg-type]


def test_a_draw_from_the_pile_of_no_player_is_refused_by_the_game():
    with pytest.raises(RuleError, match="Cleo is not a player of this game"):
        Game(TWO).parse_action("Cleo:Oa5")


names = st.from_regex(r"[A-Za-z][A-Za-z0-9_'-]{0,8}", fullmatch=True).filter(
    lambda n: n not in ("d", "reveal", "result")
)
cards = st.builds(Card, st.from_regex(r"[A-Za-z]{1,3}", fullmatch=True), st.integers(1, 8))
coords = st.builds(Coord, st.integers(-999, 999), st.integers(-999, 999))
actions = st.one_of(
    st.builds(Draw, st.none() | names, st.none() | cards),
    st.just(Skip()),
    st.builds(Plant, cards, coords),
    st.builds(Discard, cards),
)


@given(actions)
def test_every_action_reads_back_from_its_notation(action):
    assert parse_action(str(action)) == action


# -- legal_actions: a hand-worked case per rule ----------------------------------------------------


def test_the_first_tree_may_stand_at_0_0_only():
    game = drawn(Game(TWO, Setup.shuffled(TWO, 7)))
    hand = game.hand("Ana").known
    assert len(hand) == 9
    assert game.legal_actions() == [Plant(card, ORIGIN) for card in hand]
    with pytest.raises(
        RuleError, match=r"cannot plant .* at \(0,1\): the first tree of an arboretum stands at \(0,0\)"
    ):
        game.push(Plant(hand[0], Coord(0, 1)))


def test_later_trees_stand_next_to_a_tree_on_a_free_cell():
    game = game_with_tree()  # Ana planted Ca1 at 0,0; Ben to play
    game.push_turn("Ben d d Dw1@0,0 /Dw2")
    drawn(game)
    cells = {action.coord for action in game.legal_actions()}
    assert cells == {Coord(1, 0), Coord(-1, 0), Coord(0, 1), Coord(0, -1)}
    before = snapshot(game)
    with pytest.raises(RuleError, match=r"Ana cannot plant Ca3 at \(0,0\): Ca1 already grows there"):
        game.push(Plant(C("Ca3"), ORIGIN))
    with pytest.raises(RuleError, match=r"Ana cannot plant Ca3 at \(2,0\): none of Ana's trees is adjacent"):
        game.push(Plant(C("Ca3"), Coord(2, 0)))
    assert snapshot(game) == before


def test_the_draws_offered_are_the_deck_and_the_piles_that_are_not_empty():
    game = game_with_tree()  # the deck's top is Ja3; Ana's pile holds Ca2, Ben's nothing
    assert game.legal_actions() == [Draw(None, C("Ja3")), Draw("Ana", C("Ca2"))]
    before = snapshot(game)
    with pytest.raises(RuleError, match="Ben cannot draw from their own discard pile: it is empty"):
        game.push(Draw("Ben"))
    with pytest.raises(RuleError, match="cannot skip a draw"):
        game.push(Skip())
    assert snapshot(game) == before


def test_an_unknown_deck_is_offered_as_d_and_hidden_cards_as_every_card_not_located():
    game = Game(TWO)
    assert game.legal_actions() == [Draw()]
    drawn(game)
    assert game.legal_actions() == [Plant(card, ORIGIN) for card in full_deck(SIX)]


def test_at_the_decks_end_the_second_draw_comes_from_a_pile_and_no_turn_starts():
    config = GameConfig(("Ana", "Ben"), ("Ca", "Dw"))  # 16 cards: 14 dealt, one on Ben's pile, one in the deck
    hands = {"Ana": tuple(C(f"Ca{v}") for v in range(1, 8)), "Ben": tuple(C(f"Dw{v}") for v in range(1, 8))}
    game = Game(config, Setup(deck=(C("Ca8"),), hands=hands, discards={"Ben": (C("Dw8"),)}))
    assert game.legal_actions() == [Draw(None, C("Ca8")), Draw("Ben", C("Dw8"))]
    game.push(Draw())
    assert game.deck_size == 0 and game.legal_actions() == [Draw("Ben", C("Dw8"))]
    game.push(Draw("Ben"))
    game.push(Plant(C("Ca8"), ORIGIN))
    game.push(Discard(C("Dw8")))
    assert game.is_over and game.legal_actions() == []


def test_any_card_of_the_hand_may_be_discarded_the_one_just_drawn_too():
    game = game_with_tree()
    drawn(game)
    game.push(Plant(C("Dw1"), ORIGIN))
    hand = game.hand("Ben").known
    assert C("Ja3") in hand and len(hand) == 8
    assert game.legal_actions() == [Discard(card) for card in hand]


def test_the_phases_come_in_order_draw_draw_plant_discard():
    game = game_with_tree()
    with pytest.raises(RuleError, match="Ben cannot plant Dw1 now: Ben has 2 card\\(s\\) left to draw"):
        game.push(Plant(C("Dw1"), ORIGIN))
    drawn(game, 1)
    assert all(isinstance(a, Draw) for a in game.legal_actions())
    drawn(game, 1)
    with pytest.raises(RuleError, match="Ben cannot discard Dw1 now: Ben must plant a tree first"):
        game.push(Discard(C("Dw1")))
    assert all(isinstance(a, Plant) for a in game.legal_actions())
    game.push(Plant(C("Dw1"), ORIGIN))
    with pytest.raises(RuleError, match="Ben cannot draw now: Ben must discard a card first"):
        game.push(Draw())
    game.push(Discard(C("Dw2")))
    assert game.current_player == "Ana" and game.phase is Phase.DRAW


# -- push and pop over random games --------------------------------------------------------------


def table(view: str, seed: int) -> Game:
    setup = Setup.shuffled(TWO, seed)
    if view == "omniscient":
        return Game(TWO, setup)
    if view == "seat":
        return Game(TWO, Setup(hands={"Ana": setup.hands["Ana"]}))
    return Game(TWO)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(view=st.sampled_from(["omniscient", "seat", "spectator"]), seed=st.integers(0, 10**6), data=st.data())
def test_every_legal_action_is_accepted_and_pop_gives_back_each_position_exactly(view, seed, data):
    game = table(view, seed)
    positions = [snapshot(game)]
    pushed = []
    while not game.is_over:
        legal = game.legal_actions()
        for action in data.draw(st.lists(st.sampled_from(legal), max_size=3)):  # each accepted, and taken back
            game.push(action)
            assert game.pop() == action
            assert snapshot(game) == positions[-1]
        action = data.draw(st.sampled_from(legal))
        game.push(action)
        pushed.append(action)
        positions.append(snapshot(game))
    assert game.move_stack == tuple(pushed)
    while pushed:
        assert game.pop() == pushed.pop()
        positions.pop()
        assert snapshot(game) == positions[-1]
    assert game.move_stack == ()
    with pytest.raises(RuleError, match="no move to take back"):
        game.pop()


def candidates(game: Game) -> list:
    """Every action of the game's cards and players near its trees, named whole (no draw unnamed)."""
    cells = [Coord(x, y) for x in range(-2, 3) for y in range(-2, 3)]
    deck = full_deck(game.config.species)
    return (
        [Draw(owner, card) for owner in (None, *game.players) for card in deck]
        + [Skip()]
        + [Plant(card, cell) for card in deck for cell in cells]
        + [Discard(card) for card in deck]
    )


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), data=st.data())
def test_an_action_not_listed_is_refused_and_changes_nothing(seed, data):
    game = Game(TWO, Setup.shuffled(TWO, seed))  # omniscient: every legal named action is listed
    pool = candidates(game)
    for _ in range(data.draw(st.integers(0, 60))):
        game.push(data.draw(st.sampled_from(game.legal_actions())))
        if game.is_over:
            break
    legal = set(game.legal_actions())
    before = snapshot(game)
    for action in data.draw(st.lists(st.sampled_from(pool), min_size=5, max_size=20)):
        if action in legal:
            continue
        with pytest.raises(RuleError):
            game.push(action)
        assert snapshot(game) == before


def test_pop_takes_back_the_discard_of_a_whole_turn_pushed_as_one():
    game = game_with_tree()
    game.push_known_turn((2, "Ben", (None, None), ("Ana", None), C("Dw1"), ORIGIN, C("Dw2")))
    assert game.pop() == Discard(C("Dw2"))
    assert game.phase is Phase.DISCARD and game.current_player == "Ben"
    assert [str(a) for a in game.move_stack] == ["d", "Ana", "Dw1@0,0"]
    assert game.pop() == Plant(C("Dw1"), ORIGIN)


# -- whole turns from the notation ----------------------------------------------------------------


@pytest.mark.parametrize(
    "text, number, glyphs",
    [
        ("Ben d:Ja3 Ana:Ca2 Dw1@0,0 /Dw2", None, ()),
        ("2. Ben d d Dw1@0,0 /Dw2", 2, ()),
        ("2.Ben d d Dw1@0,0 /Dw2 !?", 2, ("!?",)),
        ("d Ana Dw1@0,0 /Dw2", None, ()),
        ("  12. d d Dw1@0,0 /Dw2! $14 ", 12, ("!", "$14")),
    ],
)
def test_a_turn_is_read_with_or_without_its_number_and_player(text, number, glyphs):
    game = game_with_tree()
    turn = game.parse_turn(text)
    assert turn.player == "Ben" and turn.number == number and turn.glyphs == glyphs
    assert str(turn.actions[2]) == "Dw1@0,0" and turn.actions[3] == Discard(C("Dw2"))
    assert game.parse_turn(str(turn)) == turn
    assert game.push_turn(text) == turn
    assert game.current_player == "Ana" and game.discard_pile("Ben") == (C("Dw2"),)
    assert len(game.move_stack) == 4


def test_a_turn_is_written_as_its_line():
    turn = TurnActions(
        "Ana",
        (Draw(None, C("Ma3")), Draw("Ben", C("Oa5")), Plant(C("Ma3"), Coord(0, 1)), Discard(C("Oa5"))),
        12,
        ("!",),
    )
    assert str(turn) == "12. Ana d:Ma3 Ben:Oa5 Ma3@0,1 /Oa5 !"


@pytest.mark.parametrize(
    "text, error, message",
    [
        ("Ben d d Dw1@0,0 /Dw2 {a comment}", ActionError, "without comments"),
        ("Ben d Dw1@0,0", ActionError, "a turn is"),
        ("Ben d d Dw1@0,0", ActionError, "stands where the turn.s planting is due"),
        ("Ben d Dw1@0,0 d /Dw2", ActionError, "stands where the turn's second draw is due"),
        ("Cleo d d Dw1@0,0 /Dw2", RuleError, "Cleo is not a player"),
    ],
)
def test_text_that_is_no_turn_is_refused(text, error, message):
    with pytest.raises(error, match=message):
        game_with_tree().parse_turn(text)


@pytest.mark.parametrize(
    "text, message",
    [
        ("Ana d d Ca3@1,0 /Ca4", "turn 2 is Ben's, not Ana's"),
        ("Ben d d Dw1@0,1 /Dw2", "the first tree of an arboretum stands at"),
        ("Ben d Ben Dw1@0,0 /Dw2", "Ben cannot draw from their own discard pile: it is empty"),
        ("Ben d d Dw1@0,0 /Dw1", "Ben cannot discard Dw1"),
    ],
)
def test_an_illegal_turn_says_why_and_leaves_the_game_as_it_was(text, message):
    game = game_with_tree()
    before = snapshot(game)
    with pytest.raises(RuleError, match=message):
        game.push_turn(text)
    assert snapshot(game) == before and game.move_stack == ()


def test_every_error_of_the_api_is_an_arbo_error():
    assert issubclass(ActionError, ArboError) and issubclass(RuleError, ArboError)
