"""Game.play_known_turns, the replayer's fast path, against the single actions it stands for."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbo_notation.engine.cards import ORIGIN, Card, Coord, full_deck
from arbo_notation.engine.position import HandView
from arbo_notation.engine.state import Game, GameConfig, Setup
from arbo_notation.engine.actions import KnownTurn
from arbo_notation.errors import RuleError
from arbo_notation.notation.reading.scanner import read_turn_lines
from arbo_notation.notation.views import partial_record
from arbo_notation.notation.writer import format_game
from arbo_notation.game.replay import game_for
from arbo_notation.play.simulate import simulate_game

SIX = ("Ca", "Dw", "Ja", "Ma", "Oa", "Wi")
TWO = GameConfig(("Ana", "Ben"), SIX)


def C(text: str) -> Card:
    return Card.parse(text)


def snapshot(game: Game) -> tuple:
    """Everything a game shows of itself."""
    return (
        game.phase,
        game.current_player,
        game.turn_number,
        game.draws_taken,
        game.deck_size,
        game.deck_cards(),
        tuple((p, game.hand(p), game.discard_pile(p), tuple(sorted(game.arboretum(p).items()))) for p in game.players),
        frozenset(c for c in full_deck(game.config.species) if game.is_located(c)),
        game.position(),  # with the cards each player saw the others take from piles
    )


def play_slowly(game: Game, turns: list[KnownTurn]) -> int | None:
    """Play every turn with the single actions (Game.play_turn); the index of the first illegal one, or None."""
    for index, turn in enumerate(turns):
        try:
            game.play_turn(turn)
        except RuleError:
            return index
    return None


VIEWS = ("omniscient", "seat", "spectator")


def simulated(players: int, seed: int, bots: str, view: str = "omniscient"):
    """A simulated game as a plain record: omniscient, as the first player wrote it, or as a
    spectator did (deck draws unknown, hands hidden)."""
    record = simulate_game(("Ana", "Ben", "Cleo", "Dev")[:players], seed, (bots,))
    if view != "omniscient":
        record = partial_record(record, record.header.players[0] if view == "seat" else None)
    plain = read_turn_lines(format_game(record))
    assert plain is not None
    return plain


def played_up_to(players: int, seed: int, view: str, index: int) -> tuple:
    """A random game (``simulated``), the turn ``index`` of it (modulo its turns) and a game
    played by the fast path up to that turn."""
    plain = simulated(players, seed, "random", view)
    at = index % len(plain.turns)
    game = game_for(plain.header)
    assert game.play_known_turns(plain.turns[:at]) == at
    return plain, at, game


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 10**6),
    bots=st.sampled_from(["random", "greedy"]),
    view=st.sampled_from(VIEWS),
)
def test_a_whole_simulated_game_goes_by_the_fast_path_to_the_same_end(players, seed, bots, view):
    plain = simulated(players, seed, bots, view)
    fast, slow = game_for(plain.header), game_for(plain.header)
    assert fast.play_known_turns(plain.turns) == len(plain.turns)
    assert play_slowly(slow, plain.turns) is None
    assert fast.is_over
    assert snapshot(fast) == snapshot(slow)


def _mutated(turn: KnownTurn, what: str, value: int, players: tuple[str, ...]) -> KnownTurn:
    number, player, first, second, card, coord, discard = turn
    cards = [Card(code, v) for code in ("Ca", "Ma", "Oa", "Zz") for v in range(1, 9)]
    other = cards[value % len(cards)]
    if what == "number":
        return (number + value % 3 - 1, player, first, second, card, coord, discard)
    if what == "player":
        return (number, players[value % len(players)], first, second, card, coord, discard)
    if what == "card":
        return (number, player, first, second, other, coord, discard)
    if what == "discard":
        return (number, player, first, second, card, coord, other)
    if what == "coord":
        cell = Coord(coord.x + value % 3 - 1, coord.y + (value // 3) % 3 - 1)
        return (number, player, first, second, card, cell, discard)
    source = [None, (None, None), (None, other), (players[0], None), (players[-1], other), ("Nobody", None)]
    draw = source[value % len(source)]
    if what == "first-draw":
        return (number, player, draw, second, card, coord, discard)
    return (number, player, first, draw, card, coord, discard)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    index=st.integers(0, 200),
    what=st.sampled_from(["number", "player", "card", "discard", "coord", "first-draw", "second-draw"]),
    value=st.integers(0, 1000),
    view=st.sampled_from(VIEWS),
)
def test_a_mutated_turn_stops_the_fast_path_no_later_and_the_single_actions_agree(seed, index, what, value, view):
    plain = simulated(2, seed, "random", view)
    turns = list(plain.turns)
    at = index % len(turns)
    turns[at] = _mutated(turns[at], what, value, plain.header.players)
    fast, slow = game_for(plain.header), game_for(plain.header)
    played = fast.play_known_turns(turns)
    illegal = play_slowly(slow, turns)
    # The fast path plays only legal turns, and stops with the state between two turns ...
    assert played <= (illegal if illegal is not None else len(turns))
    # ... from where the single actions take over and meet the same fault at the same turn.
    assert play_slowly(fast, turns[played:]) == (None if illegal is None else illegal - played)
    assert snapshot(fast) == snapshot(slow)


#: a simulated game's turn, as played (``same``) or with one part changed (_mutated)
A_TURN_MUTATED = {
    "seed": st.integers(0, 10**6),
    "index": st.integers(0, 200),
    "what": st.sampled_from(["same", "number", "player", "card", "discard", "coord", "first-draw", "second-draw"]),
    "value": st.integers(0, 1000),
    "view": st.sampled_from(VIEWS),
    "players": st.integers(2, 4),
}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**A_TURN_MUTATED)
def test_a_turn_pushed_and_popped_answers_as_the_single_actions_on_a_copy_and_leaves_the_game(
    seed, index, what, value, view, players
):
    plain, at, game = played_up_to(players, seed, view, index)
    for turn in (
        plain.turns[at],
        _mutated(plain.turns[at], what, value, plain.header.players) if what != "same" else plain.turns[at],
    ):
        before = snapshot(game)
        try:
            game.copy().play_turn(turn)
        except RuleError:
            legal = False
        else:
            legal = True
        try:
            game.push_known_turn(turn)
        except RuleError:
            assert not legal
        else:
            assert legal and game.pop_known_turn() == turn
        assert snapshot(game) == before
    assert game.play_known_turns(plain.turns[at:]) == len(plain.turns) - at  # and plays on as before


# -- hand-worked: each turn the fast path leaves to the single actions, and leaves untouched ---------


def game_with_tree() -> Game:
    """Ana holds Ca1..Ca7, Ben Dw1..Dw7; the deck starts Ja1 Ja2 Ja3 Ja4. Ana's turn 1 is played."""
    hands = {"Ana": tuple(Card("Ca", v) for v in range(1, 8)), "Ben": tuple(Card("Dw", v) for v in range(1, 8))}
    dealt = set(hands["Ana"] + hands["Ben"])
    deck = tuple(c for c in full_deck(("Ja",) + SIX) if c.species in SIX and c not in dealt)
    deck = tuple(Card("Ja", v) for v in range(1, 9) if Card("Ja", v) in deck) + tuple(
        c for c in deck if c.species != "Ja"
    )
    game = Game(TWO, Setup(deck=deck, hands=hands))
    assert game.play_known_turns([(1, "Ana", (None, C("Ja1")), (None, C("Ja2")), C("Ca1"), ORIGIN, C("Ca2"))]) == 1
    return game


DECK_DRAW = (None, None)


@pytest.mark.parametrize(
    "turn",
    [
        (2, "Ana", DECK_DRAW, DECK_DRAW, C("Ca3"), Coord(1, 0), C("Ca4")),  # wrong player
        (2, "Ben", None, DECK_DRAW, C("Dw1"), ORIGIN, C("Dw2")),  # a skipped draw
        (2, "Ben", (None, C("Ja4")), DECK_DRAW, C("Dw1"), ORIGIN, C("Dw2")),  # not the deck's top card
        (2, "Ben", ("Ana", C("Ca3")), DECK_DRAW, C("Dw1"), ORIGIN, C("Dw2")),  # not the pile's top card
        (2, "Ben", ("Ben", None), DECK_DRAW, C("Dw1"), ORIGIN, C("Dw2")),  # an empty pile
        (2, "Ben", ("Cleo", None), DECK_DRAW, C("Dw1"), ORIGIN, C("Dw2")),  # nobody's pile
        (2, "Ben", DECK_DRAW, ("Ana", None), C("Dw1"), Coord(0, 1), C("Dw2")),  # first tree off 0,0
        (2, "Ben", DECK_DRAW, DECK_DRAW, C("Ca1"), ORIGIN, C("Dw2")),  # a card Ana planted
        (2, "Ben", DECK_DRAW, DECK_DRAW, C("Dw1"), ORIGIN, C("Dw1")),  # discarding the card planted
        (2, "Ben", DECK_DRAW, ("Ana", None), C("Dw1"), ORIGIN, C("Ca3")),  # a card in Ana's hand
    ],
)
def test_the_fast_path_leaves_a_turn_it_cannot_play_as_it_found_it(turn):
    game = game_with_tree()
    before = snapshot(game)
    assert game.play_known_turns([turn]) == 0
    assert snapshot(game) == before


def test_the_fast_path_plants_only_next_to_a_tree_and_on_an_empty_cell():
    game = game_with_tree()
    assert game.play_known_turns([(2, "Ben", DECK_DRAW, DECK_DRAW, C("Dw1"), ORIGIN, C("Dw2"))]) == 1
    before = snapshot(game)
    for cell in (ORIGIN, Coord(1, 1), Coord(2, 0)):
        assert game.play_known_turns([(3, "Ana", DECK_DRAW, DECK_DRAW, C("Ca3"), cell, C("Ca4"))]) == 0
        assert snapshot(game) == before
    assert game.play_known_turns([(3, "Ana", DECK_DRAW, DECK_DRAW, C("Ca3"), Coord(0, -1), C("Ca4"))]) == 1
    assert game.arboretum("Ana") == {ORIGIN: C("Ca1"), Coord(0, -1): C("Ca3")}
    assert game.discard_pile("Ana") == (C("Ca2"), C("Ca4"))
    assert game.play_known_turns([(4, "Ben", DECK_DRAW, DECK_DRAW, C("Dw3"), Coord(1, 0), C("Dw4"))]) == 1
    before = snapshot(game)
    for taken in (ORIGIN, Coord(0, -1)):  # each next to Ana's other tree, and taken
        assert game.play_known_turns([(5, "Ana", DECK_DRAW, DECK_DRAW, C("Ca5"), taken, C("Ca6"))]) == 0
        assert snapshot(game) == before


def test_the_fast_path_plays_hidden_cards_as_the_single_actions_do():
    spectator, slow = Game(TWO, Setup()), Game(TWO, Setup())
    turns = [
        (1, "Ana", DECK_DRAW, DECK_DRAW, C("Ca1"), ORIGIN, C("Ca2")),  # two unseen cards of nine
        (2, "Ben", ("Ana", C("Ca2")), (None, C("Oa3")), C("Oa3"), ORIGIN, C("Wi7")),  # a named deck draw
        (3, "Ana", DECK_DRAW, DECK_DRAW, C("Ca2"), Coord(1, 0), C("Ca3")),  # Ca2 is in Ben's hand: illegal
    ]
    assert spectator.play_known_turns(turns) == 2
    assert play_slowly(slow, turns[:2]) is None
    assert snapshot(spectator) == snapshot(slow)
    with pytest.raises(RuleError, match="Ca2 is already in Ben's hand"):
        slow.play_turn(turns[2])
    assert spectator.hand("Ana") == HandView((), 7) and spectator.hand("Ben") == HandView((C("Ca2"),), 6)
    assert spectator.deck_size == 34 - 3 and spectator.discard_pile("Ben") == (C("Wi7"),)
    assert all(spectator.is_located(C(c)) for c in ("Ca1", "Ca2", "Oa3", "Wi7"))


@pytest.mark.parametrize(
    "turn",
    [
        (3, "Ana", DECK_DRAW, DECK_DRAW, C("Ca1"), Coord(1, 0), C("Ca3")),  # Ca1 is planted already
        (3, "Ana", DECK_DRAW, DECK_DRAW, C("Ca3"), Coord(1, 0), C("Wi7")),  # Wi7 is on Ben's pile
        (3, "Ana", DECK_DRAW, DECK_DRAW, C("Zz3"), Coord(1, 0), C("Ca3")),  # not a species in play
        (3, "Ana", (None, C("Oa3")), DECK_DRAW, C("Ca3"), Coord(1, 0), C("Ca4")),  # Oa3 is planted
        (3, "Ana", DECK_DRAW, (None, C("Rp1")), C("Ca3"), Coord(1, 0), C("Ca4")),  # Rp is not in play
        (3, "Ana", DECK_DRAW, ("Ben", None), C("Ca3"), Coord(1, 0), C("Ca3")),  # planted and discarded
        (3, "Ana", ("Ben", None), ("Ben", None), C("Ca3"), Coord(1, 0), C("Ca4")),  # Ben's pile holds one
    ],
)
def test_the_fast_path_leaves_a_turn_with_a_bad_hidden_card_as_it_found_it(turn):
    game = Game(TWO, Setup())
    game.play_turn((1, "Ana", DECK_DRAW, DECK_DRAW, C("Ca1"), ORIGIN, C("Ca2")))
    game.play_turn((2, "Ben", DECK_DRAW, (None, C("Oa3")), C("Oa3"), ORIGIN, C("Wi7")))
    before = snapshot(game)
    assert game.play_known_turns([turn]) == 0
    assert snapshot(game) == before
    with pytest.raises(RuleError):
        game.play_turn(turn)


def test_the_fast_path_stops_at_the_end_of_an_unknown_deck():
    config = GameConfig(("Ana", "Ben"), ("Ca", "Dw"))  # 16 cards: 14 dealt, a deck of 2
    fast, slow = Game(config, Setup()), Game(config, Setup())
    turns = [
        (1, "Ana", DECK_DRAW, ("Ana", None), C("Ca1"), ORIGIN, C("Ca2")),  # Ana's pile is empty
        (1, "Ana", DECK_DRAW, DECK_DRAW, C("Ca1"), ORIGIN, C("Ca2")),
        (2, "Ben", ("Ana", None), DECK_DRAW, C("Dw1"), ORIGIN, C("Dw2")),  # the deck is empty
    ]
    assert fast.play_known_turns(turns) == 0
    assert fast.play_known_turns(turns[1:]) == 1
    assert fast.is_over and fast.deck_size == 0
    assert play_slowly(slow, turns[1:]) == 1
    assert snapshot(fast) == snapshot(slow)


def test_the_fast_path_ends_the_game_when_the_deck_runs_out_on_a_first_draw():
    config = GameConfig(("Ana", "Ben"), ("Ca", "Dw", "Ja"))
    hands = {"Ana": tuple(Card("Ca", v) for v in range(1, 8)), "Ben": tuple(Card("Dw", v) for v in range(1, 8))}
    setup = Setup(
        deck=tuple(Card("Ja", v) for v in range(1, 9)) + (C("Dw8"),), hands=hands, discards={"Ben": (C("Ca8"),)}
    )

    def deck(card: str):
        return (None, C(card))

    turns = [
        (1, "Ana", deck("Ja1"), deck("Ja2"), C("Ca1"), ORIGIN, C("Ca2")),
        (2, "Ben", deck("Ja3"), deck("Ja4"), C("Dw1"), ORIGIN, C("Dw2")),
        (3, "Ana", deck("Ja5"), deck("Ja6"), C("Ca3"), Coord(1, 0), C("Ca4")),
        (4, "Ben", deck("Ja7"), deck("Ja8"), C("Dw3"), Coord(1, 0), C("Dw4")),
        (5, "Ana", deck("Dw8"), ("Ben", C("Dw4")), C("Ca5"), Coord(2, 0), C("Ca6")),
        (6, "Ben", ("Ana", C("Ca6")), ("Ben", C("Ca8")), C("Dw5"), Coord(2, 0), C("Dw6")),
    ]
    fast, slow = Game(config, setup), Game(config, setup)
    assert fast.play_known_turns(turns) == 5
    assert play_slowly(slow, turns) == 5  # the game is over: turn 6 is one too many
    assert fast.is_over and fast.deck_size == 0
    assert fast.hand("Ana").known == tuple(
        sorted([C("Ca7"), C("Ja1"), C("Ja2"), C("Ja5"), C("Ja6"), C("Dw8"), C("Dw4")])
    )
    assert snapshot(fast) == snapshot(slow)


def test_play_turn_names_a_turn_out_of_order_and_plays_a_whole_turn():
    game = game_with_tree()
    with pytest.raises(RuleError, match=r"^turn 2 is Ben's, not Ana's$"):
        game.play_turn((2, "Ana", DECK_DRAW, DECK_DRAW, C("Ca3"), Coord(1, 0), C("Ca4")))
    game.play_turn((2, "Ben", DECK_DRAW, ("Ana", C("Ca2")), C("Dw1"), ORIGIN, C("Ca2")))
    assert (game.current_player, game.turn_number) == ("Ana", 3)
    assert game.arboretum("Ben") == {ORIGIN: C("Dw1")}
    assert game.discard_pile("Ana") == () and game.discard_pile("Ben") == (C("Ca2"),)


@pytest.mark.parametrize("number", [2, 3, 41, None])
def test_the_engine_plays_a_turn_whatever_its_number_says(number):
    """Numbering is the record's business: the replayer warns of a wrong number, the engine plays."""
    turn = (number, "Ben", DECK_DRAW, ("Ana", C("Ca2")), C("Dw1"), ORIGIN, C("Ca2"))
    fast, slow = game_with_tree(), game_with_tree()
    assert fast.play_known_turns([turn]) == 1
    slow.play_turn(turn)
    assert snapshot(fast) == snapshot(slow)
    assert (fast.current_player, fast.turn_number) == ("Ana", 3)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), view=st.sampled_from(VIEWS), order=st.randoms())
def test_revealing_a_hand_known_whole_leaves_the_game_as_the_card_by_card_checks_do(players, seed, view, order):
    plain = simulated(players, seed, "random", view)
    game = game_for(plain.header)
    assert game.play_known_turns(plain.turns) == len(plain.turns)
    for player, cards in plain.reveals:
        cards = list(cards)
        order.shuffle(cards)
        quick, checked = game.copy(), game.copy()
        quick.reveal(player, cards)
        checked._reveal_checked(player, cards)
        assert snapshot(quick) == snapshot(checked)
        assert list(quick._hands[player]) == list(checked._hands[player]) == cards  # in the order revealed
        assert quick.view(None).shown(player) == checked.view(None).shown(player) == tuple(sorted(cards))
        game.reveal(player, cards)
    assert not game.hidden_players()


# -- Game.is_plainly_legal: the fast path's judgement of one turn, the game left untouched ------------


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**A_TURN_MUTATED)
def test_a_turn_judged_plainly_legal_is_one_the_fast_path_plays_and_the_game_is_untouched(
    seed, index, what, value, view, players
):
    plain, at, game = played_up_to(players, seed, view, index)
    turn = _mutated(plain.turns[at], what, value, plain.header.players) if what != "same" else plain.turns[at]
    before = snapshot(game)
    assert game.is_plainly_legal(turn) is (game.copy().play_known_turns([turn]) == 1)
    assert snapshot(game) == before
    assert game.play_known_turns(plain.turns[at:]) == len(plain.turns) - at  # and plays on as before


def test_the_last_turn_of_a_game_is_judged_without_ending_the_game():
    plain = simulated(2, 7, "random")
    *before_last, last = plain.turns
    game = game_for(plain.header)
    assert game.play_known_turns(before_last) == len(before_last) and game.deck_size in (1, 2)
    before = snapshot(game)
    assert game.is_plainly_legal(last)
    assert snapshot(game) == before and not game.is_over
    skipped = (last[0], last[1], None, last[3], last[4], last[5], last[6])
    assert not game.is_plainly_legal(skipped)  # a skipped draw: not plain, whether legal or not
    assert game.play_known_turns([last]) == 1 and game.is_over
