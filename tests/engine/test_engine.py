"""The rules of play (RULES.md: Setup, A turn, End of the game) as the engine enforces them."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbo_notation.engine.actions import Draw, Skip
from arbo_notation.engine.cards import ORIGIN, Card, Coord, default_species_for, full_deck
from arbo_notation.engine.position import HandView
from arbo_notation.engine.state import Game, GameConfig, Phase, Setup
from arbo_notation.errors import RuleError

SIX = ("Ca", "Dw", "Ja", "Ma", "Oa", "Wi")
TWO = GameConfig(("Ana", "Ben"), SIX)


def C(text: str) -> Card:
    return Card.parse(text)


def cs(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


def rule_error(message: str):
    """pytest.raises for a RuleError with exactly this message."""
    return pytest.raises(RuleError, match=f"^{re.escape(message)}$")


def known_setup(config: GameConfig, hands: dict[str, str], deck_head: str = "", discards=None) -> Setup:
    """Hands as given, the deck starting with ``deck_head`` then every other card in order."""
    hand_cards = {p: cs(h) for p, h in hands.items()}
    pile_cards = {p: cs(d) for p, d in (discards or {}).items()}
    head = cs(deck_head)
    used = {c for h in hand_cards.values() for c in h} | {c for d in pile_cards.values() for c in d} | set(head)
    rest = tuple(c for c in full_deck(config.species) if c not in used)
    return Setup(deck=head + rest, hands=hand_cards, discards=pile_cards)


def two_player_game(deck_head: str = "Wi1 Wi2 Wi3 Wi4 Wi5 Wi6", discards=None) -> Game:
    setup = known_setup(
        TWO,
        {"Ana": "Ma1 Ma2 Ma3 Ma4 Ma5 Ma6 Ma7", "Ben": "Oa1 Oa2 Oa3 Oa4 Oa5 Oa6 Oa7"},
        deck_head,
        discards,
    )
    return Game(TWO, setup)


def turn(game: Game, plant: str, at: tuple[int, int], discard: str, draws=("deck", "deck")) -> None:
    for source in draws:
        if source == "deck":
            game.draw_from_deck()
        else:
            game.draw_from_discard(source)
    game.plant(C(plant), Coord(*at))
    game.discard(C(discard))


# -- planting --------------------------------------------------------------------------------------


def test_first_tree_must_stand_at_0_0():
    game = two_player_game()
    game.draw_from_deck()
    game.draw_from_deck()
    with rule_error("Ana cannot plant Ma1 at (1,0): the first tree of an arboretum stands at (0,0)"):
        game.plant(C("Ma1"), Coord(1, 0))
    assert game.phase is Phase.PLANT and C("Ma1") in game.hand("Ana").known  # unchanged
    assert game.plant_cells() == [ORIGIN]
    game.plant(C("Ma1"), ORIGIN)
    assert game.arboretum("Ana") == {ORIGIN: C("Ma1")}


def test_later_trees_must_touch_a_tree_orthogonally_on_an_empty_cell():
    game = two_player_game()
    turn(game, "Ma1", (0, 0), "Ma7")
    turn(game, "Oa1", (0, 0), "Oa7")
    game.draw_from_deck()
    game.draw_from_deck()
    with rule_error("Ana cannot plant Ma2 at (2,0): none of Ana's trees is adjacent"):
        game.plant(C("Ma2"), Coord(2, 0))
    with rule_error("Ana cannot plant Ma2 at (1,1): none of Ana's trees is adjacent"):
        game.plant(C("Ma2"), Coord(1, 1))  # diagonal
    with rule_error("Ana cannot plant Ma2 at (0,0): Ma1 already grows there"):
        game.plant(C("Ma2"), ORIGIN)
    # what the card is comes before where it goes (issue 45, point 8: Zz1@0,0 was told the cell)
    with rule_error("Ana cannot plant Zz1 at (0,0): Zz is not a species in play (Ca, Dw, Ja, Ma, Oa, Wi)"):
        game.plant(C("Zz1"), ORIGIN)
    with rule_error("Ana cannot plant Oa1 at (0,0): it is planted in Ben's arboretum at 0,0"):
        game.plant(C("Oa1"), ORIGIN)
    assert game.plant_cells() == [Coord(-1, 0), Coord(0, -1), Coord(0, 1), Coord(1, 0)]
    game.plant(C("Ma2"), Coord(0, -1))
    game.discard(C("Ma6"))
    game.draw_from_deck()
    game.draw_from_deck()
    with rule_error("Ben cannot plant Oa5 at (3,1): none of Ben's trees is adjacent"):
        game.plant(C("Oa5"), Coord(3, 1))
    game.plant(C("Oa5"), Coord(1, 0))
    assert game.arboretum("Ben") == {ORIGIN: C("Oa1"), Coord(1, 0): C("Oa5")}


def test_only_a_card_in_hand_can_be_planted_or_discarded():
    game = two_player_game()
    game.draw_from_deck()
    game.draw_from_deck()
    with rule_error("Ana cannot plant Oa1 at (0,0): it is in Ben's hand"):
        game.plant(C("Oa1"), ORIGIN)
    with rule_error("Ana cannot plant Wi3 at (0,0): it is in the deck"):
        game.plant(C("Wi3"), ORIGIN)
    game.plant(C("Wi1"), ORIGIN)  # a card just drawn may be planted
    with rule_error("Ana cannot discard Wi1: it is planted in Ana's arboretum at 0,0"):
        game.discard(C("Wi1"))
    game.discard(C("Wi2"))  # and one just drawn may be discarded
    assert game.discard_pile("Ana") == (C("Wi2"),)


# -- the order of a turn ---------------------------------------------------------------------------


def test_a_turn_is_two_draws_then_plant_then_discard_then_next_player():
    game = two_player_game()
    assert (game.current_player, game.turn_number, game.phase) == ("Ana", 1, Phase.DRAW)
    with rule_error("Ana cannot plant Ma1 now: Ana has 2 card(s) left to draw"):
        game.plant(C("Ma1"), ORIGIN)
    with rule_error("Ana cannot discard Ma1 now: Ana has 2 card(s) left to draw"):
        game.discard(C("Ma1"))
    assert game.draw_from_deck() == C("Wi1")
    assert game.draws_taken == 1 and game.phase is Phase.DRAW
    with rule_error("Ana cannot plant Ma1 now: Ana has 1 card(s) left to draw"):
        game.plant(C("Ma1"), ORIGIN)
    assert game.draw_from_deck() == C("Wi2")
    assert game.phase is Phase.PLANT
    with rule_error("Ana cannot draw now: Ana must plant a tree first"):
        game.draw_from_deck()
    with rule_error("Ana cannot discard Ma1 now: Ana must plant a tree first"):
        game.discard(C("Ma1"))
    game.plant(C("Ma1"), ORIGIN)
    assert game.phase is Phase.DISCARD and len(game.hand("Ana")) == 8
    with rule_error("Ana cannot draw now: Ana must discard a card first"):
        game.draw_from_deck()
    with rule_error("Ana cannot plant Ma2 now: Ana must discard a card first"):
        game.plant(C("Ma2"), Coord(1, 0))
    game.discard(C("Wi2"))
    assert len(game.hand("Ana")) == 7
    assert (game.current_player, game.turn_number, game.phase, game.draws_taken) == ("Ben", 2, Phase.DRAW, 0)
    assert game.deck_size == 34 - 2


def test_draws_come_from_the_deck_in_its_given_order():
    game = two_player_game("Dw5 Ja3 Ca8")
    assert game.deck_cards()[:3] == cs("Dw5 Ja3 Ca8")
    with rule_error("Ana cannot draw Ma8 from the deck: its top card is Dw5"):
        game.draw_from_deck(C("Ma8"))
    assert game.draw_from_deck(C("Dw5")) == C("Dw5")
    assert game.draw_from_deck() == C("Ja3")
    assert game.deck_cards()[0] == C("Ca8")
    assert game.hand("Ana").known == tuple(sorted(cs("Ma1 Ma2 Ma3 Ma4 Ma5 Ma6 Ma7 Dw5 Ja3")))


def test_start_players_first_turn_draws_from_the_deck():
    game = two_player_game()
    assert [str(a) for a in game.view().legal_actions()] == ["d"]
    with rule_error("Ana cannot draw from Ben's discard pile: it is empty"):
        game.draw_from_discard("Ben")
    with rule_error("Ana cannot draw from their own discard pile: it is empty"):
        game.draw_from_discard("Ana")
    with rule_error("Ana cannot skip a draw: a card can still be drawn from the deck"):
        game.skip_draw()


def test_draws_may_come_from_any_discard_pile_including_ones_own():
    game = two_player_game()
    turn(game, "Ma1", (0, 0), "Ma7")  # Ana's pile: Ma7
    turn(game, "Oa1", (0, 0), "Oa7")  # Ben's pile: Oa7
    assert [str(a) for a in game.view().legal_actions()] == ["d", "Ana:Ma7", "Ben:Oa7"]
    with rule_error("Ana cannot draw Oa6 from Ben's discard pile: its top card is Oa7"):
        game.draw_from_discard("Ben", C("Oa6"))
    assert game.draw_from_discard("Ana") == C("Ma7")  # her own pile
    assert game.draw_from_discard("Ben", C("Oa7")) == C("Oa7")
    assert game.discard_pile("Ana") == () and game.discard_pile("Ben") == ()
    assert game.phase is Phase.PLANT  # two draws taken: the deck alone is left to draw from, next turn
    assert game.deck_size == 34 - 4  # no deck draw this turn
    game.plant(C("Oa7"), Coord(1, 0))
    game.discard(C("Ma7"))
    with rule_error("Ben cannot draw from their own discard pile: it is empty"):
        game.draw_from_discard("Ben")


def test_both_draws_may_come_from_the_same_pile():
    # A table that starts with two face-up cards on Ben's pile (top last): Ana takes both.
    game = two_player_game(discards={"Ben": "Ca1 Ca2"})
    assert game.deck_size == 48 - 14 - 2
    assert game.draw_from_discard("Ben") == C("Ca2")
    assert game.draw_from_discard("Ben") == C("Ca1")
    assert game.phase is Phase.PLANT
    assert game.deck_size == 32


def test_an_empty_pile_cannot_be_drawn_from_later_either():
    game = two_player_game()
    turn(game, "Ma1", (0, 0), "Ma7")
    game.draw_from_discard("Ana")
    with rule_error("Ben cannot draw from Ana's discard pile: it is empty"):
        game.draw_from_discard("Ana")
    with rule_error("Dee is not a player of this game (Ana, Ben)"):
        game.draw_from_discard("Dee")


# -- the end of the game ---------------------------------------------------------------------------


def tiny_config() -> GameConfig:
    """Two players and two species: 16 cards, 14 dealt, a deck of 2."""
    return GameConfig(("Ana", "Ben"), ("Ma", "Oa"))


def test_the_player_who_draws_the_last_card_finishes_the_turn_then_the_game_ends():
    config = tiny_config()
    game = Game(
        config, known_setup(config, {"Ana": "Ma1 Ma2 Ma3 Ma4 Ma5 Ma6 Ma7", "Ben": "Oa1 Oa2 Oa3 Oa4 Oa5 Oa6 Oa7"})
    )
    assert game.deck_cards() == cs("Ma8 Oa8")
    game.draw_from_deck()
    game.draw_from_deck()
    assert game.deck_size == 0 and not game.is_over  # Ana still plants and discards
    game.plant(C("Ma8"), ORIGIN)
    assert not game.is_over
    game.discard(C("Oa8"))
    assert game.is_over and game.phase is Phase.OVER
    assert (game.current_player, game.turn_number) == ("Ana", 1)  # no further turn starts
    with rule_error("Ana cannot draw: the game is over (the deck is empty)"):
        game.draw_from_deck()
    with rule_error("Ana cannot plant Ma1: the game is over (the deck is empty)"):
        game.plant(C("Ma1"), Coord(1, 0))
    assert game.final_hands() == {"Ana": cs("Ma1 Ma2 Ma3 Ma4 Ma5 Ma6 Ma7"), "Ben": cs("Oa1 Oa2 Oa3 Oa4 Oa5 Oa6 Oa7")}
    table = game.end_table()
    assert [(p.name, dict(p.arboretum), tuple(sorted(p.hand))) for p in table] == [
        (name, game.arboretum(name), hand) for name, hand in game.final_hands().items()
    ]
    with pytest.raises(TypeError):
        table[0].arboretum[Coord(5, 5)] = C("Ma1")  # a view: scoring cannot change the game


def test_deck_emptying_on_the_first_draw_leaves_the_second_to_a_discard_pile():
    # One card face up on Ben's pile at setup leaves a deck of 1.
    config = tiny_config()
    setup = known_setup(
        config, {"Ana": "Ma1 Ma2 Ma3 Ma4 Ma5 Ma6 Ma7", "Ben": "Oa1 Oa2 Oa3 Oa4 Oa5 Oa6 Oa7"}, discards={"Ben": "Oa8"}
    )
    game = Game(config, setup)
    assert game.deck_size == 1
    game.draw_from_deck()
    assert game.deck_size == 0 and game.phase is Phase.DRAW
    with rule_error("Ana cannot draw from the deck: the deck is empty"):
        game.draw_from_deck()
    with rule_error("Ana cannot skip a draw: a card can still be drawn from Ben's discard pile"):
        game.skip_draw()
    assert game.draw_from_discard("Ben") == C("Oa8")
    game.plant(C("Ma8"), ORIGIN)
    game.discard(C("Oa8"))
    assert game.is_over and game.turn_number == 1


def test_a_draw_with_nothing_to_draw_is_skipped():
    # With 7-card hands this cannot arise from a deal (after the first turn the previous player's
    # discard is always on a pile; the first turn's deck, 8 x species - 7 x players, is never 1),
    # so the table is put in that state directly: a deck of one card and empty piles.
    config = tiny_config()
    game = Game(
        config, known_setup(config, {"Ana": "Ma1 Ma2 Ma3 Ma4 Ma5 Ma6 Ma7", "Ben": "Oa1 Oa2 Oa3 Oa4 Oa5 Oa6 Oa7"})
    )
    game._deck.pop(0)  # drop Oa8, the bottom card
    game._deck_count -= 1
    assert game.draw_from_deck() == C("Ma8")
    assert game.legal_actions() == [Skip()]
    game.skip_draw()
    assert game.phase is Phase.PLANT and len(game.hand("Ana")) == 8
    game.plant(C("Ma8"), ORIGIN)
    game.discard(C("Ma7"))
    assert game.is_over and len(game.hand("Ana")) == 6


def test_no_game_starts_with_an_empty_deck():
    config = tiny_config()
    setup = known_setup(
        config,
        {"Ana": "Ma1 Ma2 Ma3 Ma4 Ma5 Ma6 Ma7", "Ben": "Oa1 Oa2 Oa3 Oa4 Oa5 Oa6 Oa7"},
        discards={"Ben": "Ma8 Oa8"},
    )
    assert Game(config, setup).is_over


# -- setup ----------------------------------------------------------------------------------------------


def test_shuffled_setup_deals_seven_each_and_is_repeatable():
    setup = Setup.shuffled(TWO, seed=11)
    assert setup == Setup.shuffled(TWO, seed=11)
    assert all(len(hand) == 7 for hand in setup.hands.values())
    assert len(setup.deck) == 48 - 14 and not setup.discards
    everything = [c for h in setup.hands.values() for c in h] + list(setup.deck)
    assert sorted(everything) == full_deck(SIX)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_house_variant_deals_a_card_onto_every_pile_but_the_start_players(players):
    names = ("Ana", "Ben", "Cy", "Dee")[:players]
    config = GameConfig(names, default_species_for(players))
    setup = Setup.shuffled(config, seed="house", house_discards=True)
    game = Game(config, setup)
    assert game.discard_pile("Ana") == ()
    assert all(len(game.discard_pile(p)) == 1 for p in names[1:])
    assert game.deck_size == len(config.cards) - 7 * players - (players - 1)
    # the deck's top cards went onto the piles, in seat order
    dealt = Setup.shuffled(config, seed="house")
    assert [game.discard_pile(p)[0] for p in names[1:]] == list(dealt.deck[: players - 1])
    assert game.deck_cards() == dealt.deck[players - 1 :]
    assert len(game.legal_actions()) == players  # the deck and the face-up cards


def test_setup_errors():
    with rule_error("a game has 2 to 4 players, not 1"):
        GameConfig(("Ana",), SIX)
    with rule_error("two players share a name: Ana, Ana"):
        GameConfig(("Ana", "Ana"), SIX)
    with rule_error("Ana's dealt hand has 6 cards; a hand is 7"):
        Game(TWO, Setup(hands={"Ana": cs("Ma1 Ma2 Ma3 Ma4 Ma5 Ma6")}))
    with rule_error("Ma1 in Ben's dealt hand appears twice in the setup"):
        Game(TWO, Setup(hands={"Ana": cs("Ma1 Ma2 Ma3 Ma4 Ma5 Ma6 Ma7"), "Ben": cs("Ma1 Oa2 Oa3 Oa4 Oa5 Oa6 Oa7")}))
    with rule_error("the deck holds 1 cards but 34 remain after the deal"):
        Game(
            TWO,
            Setup(
                deck=cs("Wi1"),
                hands={"Ana": cs("Ma1 Ma2 Ma3 Ma4 Ma5 Ma6 Ma7"), "Ben": cs("Oa1 Oa2 Oa3 Oa4 Oa5 Oa6 Oa7")},
            ),
        )


def _careful(config: GameConfig, setup: Setup) -> tuple[str, object]:
    """What placing the setup one card at a time finds: the fault's message, or the cards located."""
    from arbo_notation.engine.state import _cards_in_play

    game = Game.__new__(Game)
    game.config, game._located = config, set()
    try:
        game._place_carefully(setup, _cards_in_play(config.species))
    except RuleError as error:
        return "fault", str(error)
    return "placed", game._located


@pytest.mark.slow
@settings(max_examples=300)
@given(st.data())
def test_a_setup_checked_as_one_set_finds_what_placing_it_card_by_card_finds(data):
    """Game() checks a setup's cards as one set and places them one at a time only to name a
    fault: the two agree on every setup, right or wrong (players, hand sizes, cards of the game
    or not, twice placed, the deck's size)."""
    config = GameConfig(("Ana", "Ben"), ("Ma", "Oa", "Wi", "Ca", "Dw", "Ja"))
    pool = config.cards + [Card("Rp", 1), Card("Rp", 2)]
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    cards = rng.sample(pool, len(config.cards)) if data.draw(st.booleans()) else rng.choices(pool, k=len(config.cards))
    sizes = {
        name: data.draw(st.sampled_from([7, 7, 7, 6, 8]))
        for name in data.draw(st.lists(st.sampled_from(["Ana", "Ben", "Cy"]), unique=True, max_size=2))
    }
    hands, at = {}, 0
    for name, size in sizes.items():
        hands[name], at = tuple(cards[at : at + size]), at + size
    discards = {name: (cards[at],) for name in data.draw(st.lists(st.sampled_from(["Ben", "Cy"]), unique=True))}
    at += len(discards)
    deck = data.draw(
        st.sampled_from([None, tuple(cards[at:]), tuple(cards[at + 1 :]), tuple(cards[at:]) + (cards[0],)])
    )
    setup = Setup(deck=deck, hands=hands, discards=discards)
    careful = _careful(config, setup)
    try:
        game = Game(config, setup)
    except RuleError as error:
        assert careful == ("fault", str(error))
        return
    assert careful == ("placed", game._located)
    assert game.deck_size == (len(deck) if deck is not None else len(config.cards) - 14 - len(discards))


# -- hidden cards -----------------------------------------------------------------------------------------


def spectator_game() -> Game:
    """A record kept by a spectator: no hand and no deck order is known."""
    return Game(TWO, Setup())


def test_unknown_deck_makes_draws_hidden():
    game = spectator_game()
    assert game.hand("Ana") == HandView((), 7) and not game.deck_known and game.deck_size == 34
    assert game.draw_from_deck() is None
    assert game.hand("Ana") == HandView((), 8)
    assert game.draw_from_deck(C("Ma3")) == C("Ma3")  # the record may say which card it was
    assert game.hand("Ana") == HandView((C("Ma3"),), 8)
    assert game.is_located(C("Ma3")) and game.deck_size == 32


def test_planting_an_unseen_card_fills_a_hidden_slot():
    game = spectator_game()
    game.draw_from_deck()
    game.draw_from_deck(C("Ma3"))
    game.plant(C("Ma1"), ORIGIN)  # not known to be in hand: one hidden slot becomes Ma1
    assert game.hand("Ana") == HandView((C("Ma3"),), 7)
    game.discard(C("Ma3"))  # a known card leaves the known part
    assert game.hand("Ana") == HandView((), 7)
    assert game.where_is(C("Ma1")) == "planted in Ana's arboretum at 0,0"
    assert C("Ma1") not in game.unlocated_cards() and len(game.unlocated_cards()) == 48 - 2


def test_a_card_seen_elsewhere_cannot_fill_a_hidden_slot():
    game = spectator_game()
    turn(game, "Ma1", (0, 0), "Ma3")
    assert game.draw_from_discard("Ana") == C("Ma3")
    with rule_error("Ben cannot draw Ma1 from the deck: Ma1 is already planted in Ana's arboretum at 0,0"):
        game.draw_from_deck(C("Ma1"))
    game.draw_from_deck()
    with rule_error("Ben cannot plant Ma1 at (0,0): Ma1 is already planted in Ana's arboretum at 0,0"):
        game.plant(C("Ma1"), ORIGIN)
    with rule_error("Ben cannot plant Rp1 at (0,0): Rp is not a species in play (Ca, Dw, Ja, Ma, Oa, Wi)"):
        game.plant(C("Rp1"), ORIGIN)
    game.plant(C("Ma3"), ORIGIN)  # the known card
    assert game.hand("Ben") == HandView((), 8)
    game.discard(C("Oa2"))
    assert game.hand("Ben") == HandView((), 7)
    game.draw_from_deck()
    game.draw_from_deck()
    game.plant(C("Ma2"), Coord(1, 0))
    with rule_error("Ana cannot discard Oa2: Oa2 is already on Ben's discard pile"):
        game.discard(C("Oa2"))


def test_reveal_must_agree_with_the_known_cards():
    game = spectator_game()
    turn(game, "Ma1", (0, 0), "Ma3")
    game.draw_from_discard("Ana")  # Ben holds Ma3 and 8 hidden cards
    game.draw_from_deck()
    game.plant(C("Oa1"), ORIGIN)
    game.discard(C("Oa2"))
    assert game.hand("Ben") == HandView((C("Ma3"),), 6)
    with rule_error("Ben reveals 6 cards but holds 7"):
        game.reveal("Ben", cs("Ma3 Ma4 Ma5 Ma6 Ma7 Ma8"))
    with rule_error("Ben's revealed hand lacks Ma3, which Ben holds"):
        game.reveal("Ben", cs("Ma2 Ma4 Ma5 Ma6 Ma7 Ma8 Wi1"))
    with rule_error("Ben reveals Ma1, but it is planted in Ana's arboretum at 0,0"):
        game.reveal("Ben", cs("Ma3 Ma1 Ma5 Ma6 Ma7 Ma8 Wi1"))
    with rule_error("Ben reveals Oa2, but it is on Ben's discard pile"):
        game.reveal("Ben", cs("Ma3 Oa2 Ma5 Ma6 Ma7 Ma8 Wi1"))
    with rule_error("Ben reveals the same card twice"):
        game.reveal("Ben", cs("Ma3 Ma4 Ma4 Ma6 Ma7 Ma8 Wi1"))
    with rule_error("the hands of Ana, Ben are not known: reveal them to score"):
        game.final_hands()
    with rule_error("the hands of Ana, Ben are not known: reveal them to score"):
        game.end_table()
    game.reveal("Ben", cs("Ma3 Ma4 Ma5 Ma6 Ma7 Ma8 Wi1"))
    assert game.hand("Ben") == HandView(tuple(sorted(cs("Ma3 Ma4 Ma5 Ma6 Ma7 Ma8 Wi1"))), 0)
    with rule_error("Ana reveals Ma4, but it is in Ben's hand"):
        game.reveal("Ana", cs("Ma4 Ca1 Ca2 Ca3 Ca4 Ca5 Ca6"))


def test_copy_is_independent():
    game = two_player_game()
    turn(game, "Ma1", (0, 0), "Ma7")
    other = game.copy()
    other.draw_from_discard("Ana")
    other.draw_from_deck()
    other.plant(C("Oa1"), ORIGIN)
    other.discard(C("Ma7"))
    assert game.current_player == "Ben" and game.phase is Phase.DRAW and game.draws_taken == 0
    assert game.discard_pile("Ana") == (C("Ma7"),) and game.arboretum("Ben") == {}
    assert game.hand("Ben").known == cs("Oa1 Oa2 Oa3 Oa4 Oa5 Oa6 Oa7")
    assert game.deck_size == 32 and other.deck_size == 31
    assert other.discard_pile("Ben") == (C("Ma7"),) and other.current_player == "Ana"
    game.draw_from_deck()
    assert other.deck_size == 31 and other.deck_cards()[0] == game.deck_cards()[0]

    hidden = spectator_game()
    twin = hidden.copy()
    twin.draw_from_deck(C("Wi4"))
    assert not hidden.is_located(C("Wi4")) and hidden.hand("Ana") == HandView((), 7)


# -- random games ---------------------------------------------------------------------------------------


def table_cards(game: Game) -> list[Card]:
    cards: list[Card] = []
    for player in game.players:
        cards += game.hand(player).known
        cards += game.discard_pile(player)
        cards += game.arboretum(player).values()
    cards += game.deck_cards() or ()
    return cards


def assert_conserved(game: Game) -> None:
    cards = table_cards(game)
    assert not [c for c, n in Counter(cards).items() if n > 1], "a card is in two places"
    assert sorted(cards) == game.config.cards


def is_connected(cells) -> bool:
    cells = set(cells)
    if not cells:
        return True
    seen, todo = set(), [next(iter(cells))]
    while todo:
        cell = todo.pop()
        if cell in seen:
            continue
        seen.add(cell)
        todo += [n for n in cell.neighbours() if n in cells]
    return seen == cells


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**9), house=st.booleans())
def test_random_games_conserve_cards_and_end_when_the_deck_runs_out(players, seed, house):
    names = ("Ana", "Ben", "Cy", "Dee")[:players]
    config = GameConfig(names, default_species_for(players))  # 6, 8 or 10 species
    setup = Setup.shuffled(config, seed, house_discards=house)
    game = Game(config, setup)
    # A spectator's record of the same game: no hand and no deck order known.
    spectator = Game(config, Setup(discards=setup.discards))
    rng = random.Random(seed)
    assert_conserved(game)
    skipped = False
    turns = 0
    while not game.is_over:
        player, number = game.current_player, game.turn_number
        assert game.phase is Phase.DRAW and game.draws_taken == 0
        assert game.deck_size > 0, "a turn starts with an empty deck"
        if not skipped:
            assert all(len(game.hand(p)) == 7 for p in names)
        for _ in range(2):
            sources = game.view().legal_actions()
            if sources == [Skip()]:
                game.skip_draw()
                spectator.skip_draw()
                skipped = True
                continue
            source = rng.choice(sources)
            assert isinstance(source, Draw)
            if source.owner is None:
                game.draw_from_deck()
                spectator.draw_from_deck()
            else:
                card = game.draw_from_discard(source.owner)
                spectator.draw_from_discard(source.owner, card)
            assert_conserved(game)
        hand = game.hand(player).known
        card, cell = rng.choice(hand), rng.choice(game.plant_cells())
        game.plant(card, cell)
        spectator.plant(card, cell)
        assert is_connected(game.arboretum(player))
        thrown = rng.choice(game.hand(player).known)
        game.discard(thrown)
        spectator.discard(thrown)
        assert_conserved(game)
        turns += 1
        if game.deck_size == 0:
            assert game.is_over and (game.current_player, game.turn_number) == (player, number)
        else:
            assert not game.is_over
            assert game.current_player == names[(names.index(player) + 1) % players]
            assert game.turn_number == number + 1
    assert game.deck_size == 0 and spectator.deck_size == 0 and spectator.is_over
    assert turns == game.turn_number
    assert sum(len(game.arboretum(p)) for p in names) == turns
    if not skipped:
        assert all(len(game.hand(p)) == 7 for p in names)
    with pytest.raises(RuleError):
        game.draw_from_deck()
    # The spectator learns the hands at the end, and then knows the whole table.
    for p in names:
        spectator.reveal(p, game.hand(p).known)
        assert spectator.arboretum(p) == game.arboretum(p)
        assert spectator.discard_pile(p) == game.discard_pile(p)
    assert spectator.final_hands() == game.final_hands()
    assert spectator.unlocated_cards() == set()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(full_deck(("Bs", "Ca", "Ma", "Oa", "Wi"))), max_size=12, unique=True))
def test_card_order_sorts_cards_as_their_comparison_does(cards):
    from arbo_notation.engine.cards import card_order

    assert sorted(cards, key=card_order) == sorted(cards)
    assert [str(c) for c in sorted(cards, key=card_order)] == sorted(
        (str(c) for c in cards), key=lambda text: (text[:-1], int(text[-1]))
    )


def test_cards_and_cells_past_the_kept_ones_are_interned_while_held_and_then_let_go():
    import gc

    from arbo_notation.engine import cards

    kept = len(cards._COORDS)
    far = [Coord(10**6 + i, -7) for i in range(cards.MAX_KEPT_CELLS)]
    assert len(cards._COORDS) == cards.MAX_KEPT_CELLS  # the kept table is full, and no fuller
    assert Coord(10**6, -7) is far[0] and Coord(10**6, -7) == far[0]  # still one object per cell
    held = Coord(-(10**7), 3)
    assert Coord(-(10**7), 3) is held and (-(10**7), 3) in cards._MORE_COORDS
    del held, far
    gc.collect()
    assert (-(10**7), 3) not in cards._MORE_COORDS  # let go with its last holder
    assert kept <= len(cards._COORDS) == cards.MAX_KEPT_CELLS


@settings(max_examples=200, deadline=None)
@given(st.integers(-300, 300), st.integers(-300, 300))
def test_a_cells_neighbours_remembered_are_the_four_adjacent_cells(x, y):
    """Coord.neighbours is remembered per cell: asked twice, the same four cells, right, left, up, down."""
    cell = Coord(x, y)
    around = cell.neighbours()
    assert around == (Coord(x + 1, y), Coord(x - 1, y), Coord(x, y + 1), Coord(x, y - 1))
    assert cell.neighbours() is around and all(cell.is_adjacent(near) for near in around)
