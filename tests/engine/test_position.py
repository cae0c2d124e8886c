"""A table's position (engine/position.py) and a seat's view (engine/view.py): the line and its
JSON worked by hand, every field's refusal, Game.position() and Game.from_position() round-trips
on random games (hidden cards too), a view that depends only on the cards its seat has seen, and
the Game's __eq__, __repr__, is_legal and outcome."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbo_notation.engine.actions import Action, Discard, Draw, Plant, Skip
from arbo_notation.engine.cards import HAND_SIZE, Card, Coord, default_species_for
from arbo_notation.engine.position import Phase, Position, SeatPosition
from arbo_notation.engine.state import Game, GameConfig, Outcome, Setup
from arbo_notation.engine.view import SeatView
from arbo_notation.errors import ArboError, PositionError

ROOT = Path(__file__).resolve().parents[2]
C = Card.parse
NAMES = ("Ana", "Ben", "Cleo", "Dev")
SIX = ("Ca", "Dw", "Ja", "Ma", "Oa", "Wi")


# -- a small game worked by hand ------------------------------------------------------------------


def small_game() -> Game:
    """Ana and Ben dealt known hands from a deck nobody knows: Ana draws Oa5 (named) and a card
    nobody saw, plants Ma1 and discards Ca1; Ben takes Ca1 from her pile and a card from the deck."""
    config = GameConfig(("Ana", "Ben"), SIX)
    hands = {
        "Ana": tuple(map(C, "Ca1 Ca2 Dw1 Dw2 Ja1 Ja2 Ma1".split())),
        "Ben": tuple(map(C, "Ma2 Ja4 Ja3 Dw4 Dw3 Ca4 Ca3".split())),
    }
    game = Game(config, Setup(hands=hands))
    for action in (Draw(None, C("Oa5")), Draw(), Plant(C("Ma1"), Coord(0, 0)), Discard(C("Ca1"))):
        game.push(action)
    game.push(Draw("Ana", C("Ca1")))
    game.push(Draw())
    return game


SMALL_LINE = (
    "Ca Dw Ja Ma Oa Wi | Ana: Ma1@0,0 / - / Ca2 Dw1 Dw2 Ja1 Ja2 Oa5 ?1 "
    "| Ben: - / - / +Ca1 Ca3 Ca4 Dw3 Dw4 Ja3 Ja4 Ma2 ?1 | deck 31 | 2. Ben plant"
)


def test_a_small_game_s_position_is_its_line_worked_by_hand():
    game = small_game()
    position = game.position()
    assert str(position) == SMALL_LINE
    assert position.players == ("Ana", "Ben")
    assert position.seat("Ben") == SeatPosition(
        "Ben",
        (),
        (),
        tuple(map(C, "Ca1 Ca3 Ca4 Dw3 Dw4 Ja3 Ja4 Ma2".split())),
        frozenset({C("Ca1")}),
        1,
    )
    assert (position.deck_size, position.deck, position.turn, position.to_move) == (31, None, 2, "Ben")
    assert (position.phase, position.draws_taken) == (Phase.PLANT, 2)
    with pytest.raises(PositionError, match="Cleo is not a player of this position"):
        position.seat("Cleo")


def test_a_small_game_s_position_in_json():
    assert small_game().position().to_json() == {
        "text": SMALL_LINE,
        "species": ["Ca", "Dw", "Ja", "Ma", "Oa", "Wi"],
        "players": [
            {
                "name": "Ana",
                "trees": [{"card": "Ma1", "x": 0, "y": 0}],
                "discards": [],
                "hand": {"known": ["Ca2", "Dw1", "Dw2", "Ja1", "Ja2", "Oa5"], "shown": [], "hidden": 1},
            },
            {
                "name": "Ben",
                "trees": [],
                "discards": [],
                "hand": {
                    "known": ["Ca1", "Ca3", "Ca4", "Dw3", "Dw4", "Ja3", "Ja4", "Ma2"],
                    "shown": ["Ca1"],
                    "hidden": 1,
                },
            },
        ],
        "deck": {"size": 31, "cards": None},
        "turn": 2,
        "to_move": "Ben",
        "phase": "plant",
        "draws_taken": 2,
    }


def test_a_small_game_as_each_seat_and_a_spectator_see_it():
    game = small_game()
    ana = game.view("Ana")
    assert str(ana) == (
        "Ca Dw Ja Ma Oa Wi | Ana: Ma1@0,0 / - / Ca2 Dw1 Dw2 Ja1 Ja2 Oa5 ?1 | Ben: - / - / +Ca1 ?8 "
        "| deck 31 | 2. Ben plant"
    )
    assert ana.legal_actions() == [Plant(C("Ca1"), Coord(0, 0))]  # of Ben's cards, Ana has seen one
    assert ana.hand("Ben") == game.public_view().hand("Ben") and len(ana.hand("Ben")) == 9
    assert ana.shown("Ben") == (C("Ca1"),) and ana.opponents() == ("Ben",)
    assert (ana.seat, ana.current_player, ana.phase, ana.deck_size, ana.turn_number) == (
        "Ana",
        "Ben",
        Phase.PLANT,
        31,
        2,
    )
    ben = game.view()  # the player to move
    assert ben.seat == "Ben" and ben.hand("Ben").known == game.hand("Ben").known
    assert [str(action) for action in ben.legal_actions()] == [
        f"{card}@0,0" for card in "Ca1 Ca3 Ca4 Dw3 Dw4 Ja3 Ja4 Ma2".split()
    ]
    assert str(game.public_view()).split(" | ")[1:3] == ["Ana: Ma1@0,0 / - / ?7", "Ben: - / - / +Ca1 ?8"]
    assert ana.arboretum("Ana") == {Coord(0, 0): C("Ma1")} and ana.plant_cells("Ana") == [
        Coord(-1, 0),
        Coord(0, -1),
        Coord(0, 1),
        Coord(1, 0),
    ]
    with pytest.raises(ArboError, match="Cleo is not a player of this game"):
        game.view("Cleo")


def test_the_line_and_the_json_read_back_and_set_the_game_up_again():
    game = small_game()
    position = game.position()
    assert Position.parse(SMALL_LINE) == position
    assert Position.from_json(json.loads(json.dumps(position.to_json()))) == position
    again = Game.from_position(SMALL_LINE)
    assert again == game and again.position() == position
    assert again.legal_actions() == game.legal_actions()
    assert Game.from_position(position) == game
    # spaces and tabs are free around the words, as the grammar has it
    loose = "  " + SMALL_LINE.replace(" | ", "\t|  ").replace(" / ", "  /\t").replace("deck 31", "deck \t31") + " \n"
    assert Position.parse(loose) == position


def test_repr_shows_the_position_and_builds_the_game_again():
    game = small_game()
    assert repr(game) == f"Game.from_position({SMALL_LINE!r})"
    assert eval(repr(game), {"Game": Game}) == game


def test_a_game_equals_its_copy_and_differs_after_a_push():
    game = small_game()
    copy = game.copy()
    assert copy == game and copy is not game
    copy.push(Plant(C("Ca1"), Coord(0, 0)))
    assert copy != game
    copy.pop()
    assert copy == game
    assert game != SMALL_LINE and (game == object()) is False
    with pytest.raises(TypeError):
        hash(game)


def test_is_legal_says_whether_an_action_may_be_pushed_and_changes_nothing():
    game = small_game()
    before, stack = game.position(), game.move_stack
    assert game.is_legal(Plant(C("Ca3"), Coord(0, 0)))
    assert game.is_legal(Plant(C("Wi8"), Coord(0, 0)))  # one of Ben's hidden cards may be it
    assert not game.is_legal(Plant(C("Ca3"), Coord(1, 0)))  # not next to a tree
    assert not game.is_legal(Plant(C("Ma1"), Coord(0, 0)))  # Ana's tree
    assert not game.is_legal(Discard(C("Ca3")))  # a planting is due
    assert not game.is_legal(Draw())
    assert not game.is_legal("Ca3@0,0")  # type: ignore[arg-type]  # no action at all
    assert game.position() == before and game.move_stack == stack


# -- a game played to its end --------------------------------------------------------------------


def sample_states() -> list[Game]:
    """The positions of samples/two-player-omniscient.arb, after each turn (the last with the
    hands revealed at scoring)."""
    from arbo_notation.game.replay import replay_game
    from arbo_notation.notation import parse_all

    [record] = parse_all((ROOT / "samples" / "two-player-omniscient.arb").read_text(encoding="utf-8")).games
    replay = replay_game(record, keep_states=True)
    assert replay.valid
    return list(replay.states)


def test_outcome_is_none_until_the_end_then_the_scores_and_winners():
    states = sample_states()
    assert states[-1].outcome() == Outcome({"Ana": 16, "Ben": 14}, ("Ana",))
    assert str(states[-1].position()).endswith(" | deck 0 | 20. Ben over")
    assert str(states[-2].position()).endswith(" | deck 1 Dw6 | 20. Ben draw1")
    assert [state.outcome() for state in states[:-1]] == [None] * 20


def test_outcome_waits_for_every_hand_to_be_known():
    game = sample_states()[-2].copy()
    for action in (Draw(), Draw("Ana", C("Ma6")), Plant(C("Dw1"), Coord(-1, 1)), Discard(C("Dw5"))):
        game.push(action)  # 20. Ben d:Dw6 Ana:Ma6 Dw1@-1,1 /Dw5
    assert game.is_over and game.outcome() == Outcome({"Ana": 16, "Ben": 14}, ("Ana",))
    spectator = Game.from_position(game.public_view().position)  # the hands hidden, but the cards shown
    fields = str(spectator.position()).split(" | ")
    assert fields[1].endswith(" / ?7") and fields[2].endswith(" / +Ma6 ?6")  # Ben took Ma6 from Ana's pile
    assert spectator.is_over and spectator.outcome() is None
    for player in spectator.players:
        spectator.reveal(player, game.hand(player).known)
    assert spectator.outcome() == Outcome({"Ana": 16, "Ben": 14}, ("Ana",))


def test_a_second_draw_skipped_leaves_the_mover_a_card_short_to_the_end():
    line = (
        "Ca Dw Wi | Ana: Ca1@0,0 Ca2@1,0 Ca3@2,0 Ca4@3,0 Ca5@4,0 / - / Dw1 Dw2 Dw3 Dw4 Dw5 Dw6 Dw7 "
        "| Ben: Ca6@0,0 Ca7@0,1 Ca8@0,2 Wi1@0,3 / - / Dw8 Wi2 Wi3 Wi4 Wi5 Wi6 Wi7 | deck 1 Wi8 | 10. Ana draw1"
    )
    game = Game.from_position(line)
    assert str(game.position()) == line
    game.push(Draw())
    assert game.legal_actions() == [Skip()]  # no deck, no pile: the second draw is skipped
    for action in (Skip(), Plant(C("Wi8"), Coord(5, 0)), Discard(C("Dw1"))):
        game.push(action)
        assert Game.from_position(str(game.position())) == game
    assert str(game.position()) == (
        "Ca Dw Wi | Ana: Ca1@0,0 Ca2@1,0 Ca3@2,0 Ca4@3,0 Ca5@4,0 Wi8@5,0 / Dw1 / Dw2 Dw3 Dw4 Dw5 Dw6 Dw7 "
        "| Ben: Ca6@0,0 Ca7@0,1 Ca8@0,2 Wi1@0,3 / - / Dw8 Wi2 Wi3 Wi4 Wi5 Wi6 Wi7 | deck 0 | 10. Ana over"
    )
    assert len(game.hand("Ana")) == HAND_SIZE - 1
    assert game.outcome() is not None


# -- every field's refusal -------------------------------------------------------------------------

GOOD = "Ca Dw Wi | Ana: Ca1@0,0 / Dw1 / Ca2 ?6 | Ben: - / - / ?7 | deck 8 | 2. Ben draw1"


FIELDS = "a position is: species | a field for each of 2 to 4 players | deck | turn, player and what is due (found "
DUE = (
    "the last field is the turn's number, the player to move and what is due (draw1, draw2, plant, discard or "
    "over), such as '12. Ana draw1', not "
)
NO_CARD = " is no card (a card is a species and a value, such as Ma3)"


def refusal(line: str) -> str:
    with pytest.raises(PositionError) as caught:
        Game.from_position(line)
    return caught.value.message


@pytest.mark.parametrize(
    "line, message",
    [
        ("Ca Dw | Ana: - / - / ?7 | deck 2 | 1. Ana draw1", FIELDS + "4 fields)"),
        (GOOD.replace("| Ben", "| Cleo: - / - / ?7 | Dev: - / - / ?7 | Eve: - / - / ?7 | Ben"), FIELDS + "8 fields)"),
        (GOOD + "\n| more", "a position is one line of text"),
        (
            GOOD.replace("Ca Dw", "Ca Dw4", 1),
            "the first field lists the species in play (Ca Dw Ja ...), not 'Ca Dw4 Wi'",
        ),
        (
            GOOD.replace("Ca Dw", "Ca Dwar", 1),
            "the first field lists the species in play (Ca Dw Ja ...), not 'Ca Dwar Wi'",
        ),
        (
            GOOD.replace("Ben: - / - / ?7", "Ben - / - / ?7"),
            "a player's field is 'Name: trees / pile / hand', not 'Ben - / - / ?7'",
        ),
        (
            GOOD.replace("Ben: - / - / ?7", "d: - / - / ?7"),
            "a player's field is 'Name: trees / pile / hand', not 'd: - / - / ?7'",
        ),
        (
            GOOD.replace("Ben: - / - / ?7", "Ben: - / ?7"),
            "Ben's field has three parts, trees / pile / hand, each '-' when empty: 'Ben: - / ?7'",
        ),
        (
            GOOD.replace("Ben: - / - / ?7", "Ben: - / - / - / ?7"),
            "Ben's field has three parts, trees / pile / hand, each '-' when empty: 'Ben: - / - / - / ?7'",
        ),
        (
            GOOD.replace("Ben: - / - / ?7", "Ben: -/-/?7"),
            "Ben's field has three parts, trees / pile / hand, each '-' when empty: 'Ben: -/-/?7'",
        ),
        (GOOD.replace("Ca1@0,0", "Ca1@0"), "Ana's trees: 'Ca1@0' is no tree (a tree is written Ma3@0,1)"),
        (GOOD.replace("Ca1@0,0", "Ca9@0,0"), "Ana's trees: 'Ca9@0,0' is no tree (a tree is written Ma3@0,1)"),
        (GOOD.replace("Ca1@0,0", "Ca1@0,0 Ca3@0,0").replace("?6", "?5"), "Ana's trees: two trees stand at (0,0)"),
        (GOOD.replace("/ Dw1 /", "/ Dw /"), "Ana's discard pile: 'Dw'" + NO_CARD),
        (GOOD.replace("Ca2 ?6", "?6 Ca2"), "Ana's hand: '?6'" + NO_CARD),
        (GOOD.replace("Ca2 ?6", "++Ca2 ?6"), "Ana's hand: '+Ca2'" + NO_CARD),
        (
            GOOD.replace("deck 8", "deck one"),
            "the deck's field is 'deck N', then its N cards top first when known, not 'deck one'",
        ),
        (GOOD.replace("deck 8", "deck 2 Dw2"), "the deck holds 2 cards, but 1 are listed"),
        (GOOD.replace("deck 8", "deck 1 Dw9"), "the deck: 'Dw9'" + NO_CARD),
        (GOOD.replace("draw1", "draw3"), DUE + "'2. Ben draw3'"),
        (GOOD.replace("2. Ben", "2 Ben"), DUE + "'2 Ben draw1'"),
        (GOOD.replace("2. Ben", "0. Ben"), "a turn's number starts at 1"),
        # what is impossible on a table (Game.from_position)
        (GOOD.replace("2. Ben", "2. Cleo"), "Cleo is to move but is no player (Ana, Ben)"),
        (GOOD.replace("Ben:", "Ana:"), "two players share a name: Ana, Ana"),
        (GOOD.replace("Ca Dw", "Ca Ca"), "a species is listed twice: Ca, Ca, Wi"),
        (GOOD.replace("Ca2 ?6", "Dw1 ?6"), "Dw1 in Ana's hand is placed twice in the position"),
        (GOOD.replace("Ca2 ?6", "Ja2 ?6"), "Ja2 in Ana's hand is not a card of this game (species: Ca Dw Wi)"),
        (GOOD.replace("Ca1@0,0", "Ca1@0,1"), "Ana's trees do not grow from (0,0) each next to another"),
        (
            GOOD.replace("Ca1@0,0", "Ca1@0,0 Ca3@2,0").replace("?6", "?5"),
            "Ana's trees do not grow from (0,0) each next to another",
        ),
        (GOOD.replace("?6", "?5"), "Ana holds 6 cards; 7 are due at this point of the turn"),
        (GOOD.replace("draw1", "plant"), "Ben holds 7 cards; 9 are due at this point of the turn"),
        (GOOD.replace("Ben draw1", "Ben draw2"), "Ben holds 7 cards; 8 are due at this point of the turn"),
        (
            GOOD.replace("deck 8", "deck 9"),
            "the position places 25 cards (hidden ones counted); the species in play have 24",
        ),
        (
            GOOD.replace("deck 8", "deck 8 Ca3 Ca4 Ca5 Ca6 Ca7 Ca8 Dw2 Ca2"),
            "Ca2 in the deck is placed twice in the position",
        ),
        (GOOD.replace("draw1", "over"), "the game is over only once the deck is empty"),
    ],
)
def test_every_field_is_refused_with_its_own_words(line: str, message: str):
    assert refusal(line) == message


def test_the_good_line_of_the_refusals_is_good():
    game = Game.from_position(GOOD)
    assert str(game.position()) == GOOD and game.deck_size == 8 and game.current_player == "Ben"


def test_a_turn_starts_only_while_the_deck_holds_a_card():
    line = "Ca Dw | Ana: Ca1@0,0 / Dw1 / Ca2 Dw2 ?5 | Ben: - / - / ?7 | deck 0 | 2. Ben draw1"
    assert refusal(line) == "a turn starts only while the deck holds a card: with none, the game is over"


def test_json_is_refused_unless_it_is_a_position_s_object_agreeing_with_its_text():
    data = Game.from_position(GOOD).position().to_json()
    for bad in (None, [], {"text": 3}, {"species": data["species"]}):
        with pytest.raises(PositionError, match='a position in JSON is an object with its line under "text"'):
            Position.from_json(bad)
    with pytest.raises(PositionError, match='the position\'s keys disagree with its "text"'):
        Position.from_json({**data, "turn": 3})
    with pytest.raises(PositionError, match="the deck holds 2 cards"):
        Position.from_json({**data, "text": GOOD.replace("deck 8", "deck 2 Dw2")})


# -- random games, to random points ----------------------------------------------------------------


@st.composite
def played_games(draw: st.DrawFn, *, most: int = 240) -> tuple[Game, random.Random]:
    """A game of 2 to 4 players dealt in one of four ways (every card known; every card hidden, a
    card drawn from the deck named now and then; one seat's hand known; the house's face-up
    discards), played at random to a random point (any phase, the end included)."""
    players = draw(st.integers(2, 4))
    config = GameConfig(NAMES[:players], default_species_for(players))
    deal = draw(st.sampled_from(["omniscient", "hidden", "seat", "house"]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    dealt = Setup.shuffled(config, rng.random(), house_discards=deal == "house")
    if deal == "hidden":
        setup = Setup()
    elif deal == "seat":
        seat = config.players[rng.randrange(players)]
        setup = Setup(hands={seat: dealt.hands[seat]})
    else:
        setup = dealt
    game = Game(config, setup)
    for _ in range(draw(st.integers(0, most))):
        if game.is_over:
            break
        game.push(random_action(game, rng))
    return game, rng


def random_action(game: Game, rng: random.Random) -> Action:
    """One of the legal actions; on a deck nobody knows, a deck draw names a card now and then."""
    action = rng.choice(game.legal_actions())
    if action == Draw() and not game.deck_known and rng.random() < 0.3:
        return Draw(None, rng.choice(sorted(game.unlocated_cards())))
    return action


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_games())
def test_a_position_round_trips_through_its_line_its_json_and_a_game(played):
    game, _ = played
    position = game.position()
    line = str(position)
    assert "\n" not in line
    assert Position.parse(line) == position
    assert Position.from_json(json.loads(json.dumps(position.to_json()))) == position
    again = Game.from_position(line)
    assert again == game and again.position() == position
    assert Game.from_position(position) == game


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_games(), st.integers(1, 24))
def test_a_game_set_up_from_its_position_goes_on_exactly_as_the_game(played, steps):
    game, rng = played
    again = Game.from_position(str(game.position()))
    for _ in range(steps):
        assert again.legal_actions() == game.legal_actions()
        assert (again.is_over, again.current_player, again.phase) == (game.is_over, game.current_player, game.phase)
        if game.is_over:
            break
        action = random_action(game, rng)
        game.push(action)
        again.push(action)
        assert again.position() == game.position()
    assert again.outcome() == game.outcome()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_games(), st.data())
def test_is_legal_is_membership_of_the_legal_actions_and_changes_nothing(played, data):
    game, rng = played
    before, stack = game.position(), game.move_stack
    legal = game.legal_actions()
    for action in legal[:: max(1, len(legal) // 8)]:
        assert game.is_legal(action)
    other = data.draw(
        st.one_of(
            st.builds(Draw, st.sampled_from((None, *game.players)), st.sampled_from(game.config.cards)),
            st.builds(
                Plant, st.sampled_from(game.config.cards), st.builds(Coord, st.integers(-3, 3), st.integers(-3, 3))
            ),
            st.builds(Discard, st.sampled_from(game.config.cards)),
            st.just(Skip()),
        )
    )
    trial = game.copy()
    try:
        trial.push(other)
        pushed = True
    except ArboError:
        pushed = False
    assert game.is_legal(other) is pushed
    assert game.position() == before and game.move_stack == stack


# -- a seat's view ---------------------------------------------------------------------------------


def seen_cards(view: SeatView) -> set[Card]:
    """Every card a view shows: trees, piles and the hands' known cards."""
    cards: set[Card] = set()
    for seat in view.position.seats:
        cards.update(card for _, card in seat.trees)
        cards.update(seat.pile)
        cards.update(seat.hand)
    return cards


def play_record(config: GameConfig, setup: Setup, rng: random.Random, steps: int) -> list[Action]:
    """A random play of an omniscient game, each deck draw written ``Draw()`` (as a seat that
    does not see the card would write it)."""
    game = Game(config, setup)
    actions: list[Action] = []
    for _ in range(steps):
        if game.is_over:
            break
        action = rng.choice(game.legal_actions())
        if isinstance(action, Draw) and action.owner is None:
            action = Draw()
        game.push(action)
        actions.append(action)
    return actions


def unseen_by(seat: str, config: GameConfig, setup: Setup, actions: list[Action]) -> set[Card]:
    """The cards ``seat`` never sees while ``actions`` are played: not dealt to it, never face up
    (planted, discarded, on a pile at setup), never drawn by it from the deck."""
    game = Game(config, setup)
    seen = set(setup.hands[seat]) | {card for pile in setup.discards.values() for card in pile}
    for action in actions:
        mover = game.current_player
        if isinstance(action, Draw) and action.owner is None and mover == seat:
            seen.add(game.deck_cards()[0])  # type: ignore[index]  # an omniscient game: the deck is known
        if isinstance(action, (Plant, Discard)):
            seen.add(action.card)
        game.push(action)
    return set(config.cards) - seen


def shuffled_unseen(setup: Setup, seat: str, unseen: set[Card], rng: random.Random) -> Setup:
    """The setup with the cards ``unseen`` dealt among their places again (the other hands, the deck)."""
    slots = [(p, i) for p, hand in setup.hands.items() if p != seat for i, c in enumerate(hand) if c in unseen]
    assert setup.deck is not None
    slots += [(None, i) for i, c in enumerate(setup.deck) if c in unseen]
    cards = [setup.deck[i] if p is None else setup.hands[p][i] for p, i in slots]
    rng.shuffle(cards)
    hands = {p: list(hand) for p, hand in setup.hands.items()}
    deck = list(setup.deck)
    for (p, i), card in zip(slots, cards, strict=True):
        if p is None:
            deck[i] = card
        else:
            hands[p][i] = card
    return Setup(deck=tuple(deck), hands={p: tuple(h) for p, h in hands.items()}, discards=setup.discards)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4), st.integers(0, 2**32), st.integers(0, 240), st.booleans(), st.data())
def test_two_games_that_differ_only_in_cards_a_seat_has_not_seen_give_it_equal_views(players, seed, steps, house, data):
    rng = random.Random(seed)
    config = GameConfig(NAMES[:players], default_species_for(players))
    setup = Setup.shuffled(config, seed, house_discards=house)
    seat = data.draw(st.sampled_from(config.players))
    actions = play_record(config, setup, rng, steps)
    other_setup = shuffled_unseen(setup, seat, unseen_by(seat, config, setup, actions), rng)
    one, other = Game(config, setup), Game(config, other_setup)
    for action in [None, *actions]:
        if action is not None:
            one.push(action)
            other.push(action)  # legal on the other table too: it names only cards the seat saw
        view = one.view(seat)
        assert other.view(seat) == view
        assert view.legal_actions() == other.view(seat).legal_actions()
        named = {a.card for a in view.legal_actions() if not isinstance(a, Skip) and a.card is not None}
        assert named <= seen_cards(view)
        if one.current_player == seat:
            assert view.legal_actions() == [
                Draw() if isinstance(a, Draw) and a.owner is None else a for a in one.legal_actions()
            ]
        spectator = one.public_view()
        assert spectator == other.public_view() and not (seen_cards(spectator) - seen_cards(view))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4), st.integers(0, 2**32), st.integers(0, 240), st.data())
def test_a_seat_s_own_table_gives_the_view_the_whole_table_gives_it(players, seed, steps, data):
    """The table a seat keeps itself (its own hand dealt, every other card hidden: the protocol's
    SeatTable), played with the deck draws it saw named, gives the view the omniscient game gives."""
    rng = random.Random(seed)
    config = GameConfig(NAMES[:players], default_species_for(players))
    setup = Setup.shuffled(config, seed)
    seat = data.draw(st.sampled_from(config.players))
    whole = Game(config, setup)
    own = Game(config, Setup(hands={seat: setup.hands[seat]}))
    assert own.view(seat) == whole.view(seat)
    for action in play_record(config, setup, rng, steps):
        seen = action
        if action == Draw() and whole.current_player == seat:
            seen = Draw(None, whole.deck_cards()[0])  # type: ignore[index]  # the deck is known
        whole.push(action)
        own.push(seen)
        assert own.view(seat) == whole.view(seat)
        assert own.public_view() == whole.public_view()


def test_a_view_s_deck_is_a_count_and_its_draw_names_no_card():
    config = GameConfig(("Ana", "Ben"), SIX)
    game = Game(config, Setup.shuffled(config, 7))
    assert game.legal_actions()[0] == Draw(None, game.deck_cards()[0])  # type: ignore[index]  # known deck
    view = game.view()
    assert view.legal_actions() == [Draw()] and view.position.deck is None and view.deck_size == 34
    assert str(view).endswith("| deck 34 | 1. Ana draw1")
    assert view.is_legal(Draw()) and not view.is_legal(game.legal_actions()[0])


def test_two_games_that_differ_in_a_card_the_seat_has_not_seen_differ_but_look_alike_to_it():
    config = GameConfig(("Ana", "Ben"), SIX)
    setup = Setup.shuffled(config, 3)
    deck = setup.deck
    assert deck is not None
    swapped = Setup(deck=(deck[1], deck[0], *deck[2:]), hands=setup.hands)
    one, other = Game(config, setup), Game(config, swapped)
    assert one != other
    assert one.view("Ana") == other.view("Ana") and one.view("Ben") == other.view("Ben")
    one.push(Draw())
    other.push(Draw())
    assert one.view("Ben") == other.view("Ben") and one.view("Ana") != other.view("Ana")
