"""The OpenSpiel door: Arboretum as an OpenSpiel Python game, registered as ``python_arboretum`` on import.

``pyspiel.load_game("python_arboretum", {"players": 3})`` after ``import
arbo_notation.doors.openspiel``. Modelled on OpenSpiel's own Python games (kuhn_poker.py,
liars_poker.py):

- **Chance.** The deal is 7 chance nodes a player, the i-th card to the player i mod P, each a
  card not dealt yet; a draw from the deck is the player's action (id 0), then a chance node, the
  card drawn, any card not yet dealt or drawn. Every outcome has its probability, uniform. A
  chance outcome is the card's index (``ActionIds.card_id``).
- **Actions.** Player actions are ``ActionIds`` (arbo_notation/doors/actions.py): stable over a
  game and between the doors; ``action_to_string`` is the notation (a pile's draw names its owner).
- **Observations.** ``observation_string``/``_tensor`` are the seat's view (``Game.view``: its
  line, and doors/observation.py's vector). ``information_state_string``/``_tensor`` add, for
  perfect recall, the seat's dealt hand and every action as the seat saw it (another's draw from
  the deck names no card). The view alone gives all the seat knows of the cards (discard piles
  are public, and it carries the cards seen taken from them: see engine/worlds.py); the history
  adds only the order of play, which OpenSpiel's algorithms ask of an information state.
- **Returns.** Each player's score (``Game.outcome()``), raw: Arboretum's scores sum to no
  constant, so the game is general-sum (a learner that wants the win can subtract the best
  opponent's score). 0 before the end.
- **Resampling.** ``resample_from_infostate(player, sampler)`` permutes the cards the seat has not
  seen at random through the whole history (engine/worlds.py ``shuffle_unseen``: every such game
  is as likely and looks the same to the seat) and plays the history again: what ISMCTS asks.
"""

from __future__ import annotations

import math
import random
from typing import Any

from arbo_notation.doors.actions import ActionIds, door_config, most_turns
from arbo_notation.doors.observation import ViewTensor
from arbo_notation.engine.actions import Action, Discard, Draw, Plant
from arbo_notation.engine.cards import HAND_SIZE, Card, card_order
from arbo_notation.engine.position import Phase, Position, SeatPosition
from arbo_notation.engine.state import Game, GameConfig, Setup
from arbo_notation.engine.view import SeatView, view_of
from arbo_notation.engine.worlds import shuffle_unseen
from arbo_notation.errors import ArboError

#: What importing the door says when OpenSpiel is not installed.
NEEDS_OPENSPIEL_EXTRA = (
    "the OpenSpiel door needs OpenSpiel, which is not installed: pip install 'arbo-notation[openspiel]' "
    "(or pip install '.[openspiel]' in arbo's checkout)"
)

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms.mcts import Evaluator
except ImportError:
    raise ArboError(NEEDS_OPENSPIEL_EXTRA) from None

#: The most points one species can give a player: a path of the eight cards 1 to 8 of it (8 for
#: the cards, 8 for a path of one species of four cards or more, 1 for the 1, 2 for the 8).
MOST_POINTS_A_SPECIES = 19

_GAME_TYPE = pyspiel.GameType(
    short_name="python_arboretum",
    long_name="Python Arboretum",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2},
)


class ArboretumGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no types: its Game is Any
    """Arboretum for 2 to 4 players (the ``players`` parameter), on the usual species for that many."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        players = int((params or {}).get("players", 2))
        if not 2 <= players <= 4:
            raise ArboError(f"python_arboretum has 2 to 4 players, not {players}")
        self.config = door_config(players)
        self.ids = ActionIds.of(self.config)
        self.seats = {player: seat for seat, player in enumerate(self.config.players)}
        info = pyspiel.GameInfo(
            num_distinct_actions=self.ids.size,
            max_chance_outcomes=len(self.ids.cards),
            num_players=players,
            min_utility=0.0,
            max_utility=float(MOST_POINTS_A_SPECIES * len(self.config.species)),
            utility_sum=None,
            max_game_length=4 * most_turns(players, len(self.ids.cards)),
        )
        super().__init__(_GAME_TYPE, info, params or {})

    def new_initial_state(self) -> "ArboretumState":
        return ArboretumState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "ArboretumObserver":
        return ArboretumObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class _Table:
    """A state's table: the cards dealt so far to each seat, then (the deal done) the engine's game,
    whose deck's order is unknown: each deck draw waits (``drawing``) for its card, a chance node."""

    __slots__ = ("config", "dealt", "game", "drawing")

    def __init__(self, config: GameConfig, dealt: list[list[Card]], game: Game | None, drawing: bool) -> None:
        self.config = config
        self.dealt = dealt
        self.game = game
        self.drawing = drawing

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Table":
        # OpenSpiel clones a Python state by deepcopy: the game's own copy is the quick one
        game = None if self.game is None else self.game.copy()
        return _Table(self.config, [list(hand) for hand in self.dealt], game, self.drawing)

    def position(self) -> Position:
        """The whole table; during the deal, the first turn's with each hand's cards dealt so far
        known and the others hidden."""
        if self.game is not None:
            return self.game.position()
        config = self.config
        return Position(
            config.species,
            tuple(
                SeatPosition(player, hand=tuple(sorted(hand, key=card_order)), hidden=HAND_SIZE - len(hand))
                for player, hand in zip(config.players, self.dealt, strict=True)
            ),
            len(config.cards) - HAND_SIZE * len(config.players),
            None,
            1,
            config.players[0],
            Phase.DRAW,
            0,
        )


#: Who looks: a seat's index, None for a spectator (no private information), or ALL.
ALL = -1


class ArboretumState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no types: its State is Any
    """A table of ``python_arboretum``: the deal, then the game (see the module's docstring)."""

    def __init__(self, game: ArboretumGame) -> None:
        super().__init__(game)
        self._ids = game.ids
        self._seats = game.seats
        self._table = _Table(game.config, [[] for _ in game.config.players], None, False)

    # -- OpenSpiel's state API -----------------------------------------------------------------

    def current_player(self) -> int:
        table = self._table
        if table.game is None or table.drawing:
            return int(pyspiel.PlayerId.CHANCE)
        if table.game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self._seats[table.game.current_player]

    def _legal_actions(self, player: int) -> list[int]:
        assert self._table.game is not None and player >= 0
        return self._ids.legal_ids(self._table.game)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not dealt or drawn yet, each as likely."""
        table = self._table
        if table.game is None:
            dealt = {card for hand in table.dealt for card in hand}
            left = [index for index, card in enumerate(self._ids.cards) if card not in dealt]
        else:
            left = sorted(self._ids.card_id(card) for card in table.game.unlocated_cards())
        return [(index, 1.0 / len(left)) for index in left]

    def _apply_action(self, action: int) -> None:
        table = self._table
        if table.game is None:
            config = table.config
            dealt = sum(map(len, table.dealt))
            table.dealt[dealt % len(config.players)].append(self._ids.card(action))
            if dealt + 1 == HAND_SIZE * len(config.players):
                hands = {player: tuple(hand) for player, hand in zip(config.players, table.dealt, strict=True)}
                table.game = Game(config, Setup(hands=hands))
        elif table.drawing:
            table.game.push(Draw(None, self._ids.card(action)))
            table.drawing = False
        else:
            chosen = self._ids.action(action, table.game)
            if chosen == Draw():
                table.drawing = True  # the card is chance's
            else:
                table.game.push(chosen)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return str(self._ids.card(action))
        return str(self._ids.action_of(action))

    def is_terminal(self) -> bool:
        game = self._table.game
        return game is not None and game.is_over

    def returns(self) -> list[float]:
        game = self._table.game
        outcome = None if game is None else game.outcome()
        if outcome is None:
            return [0.0] * len(self._table.config.players)
        return [float(outcome.scores[player]) for player in self._table.config.players]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "ArboretumState":
        """A state the player cannot tell from this one, its unseen cards dealt again at random
        (``probability_sampler()``, a number in [0, 1), seeds the shuffle)."""
        rng = random.Random(int(probability_sampler() * 2**53))
        mapping = shuffle_unseen(self.view(player_id), rng)
        ids = self._ids
        resampled: ArboretumState = self.get_game().new_initial_state()  # pyspiel's get_game() is Any
        for step in self.full_history():
            action = step.action
            if step.player == pyspiel.PlayerId.CHANCE:
                action = ids.card_id(mapping.get(ids.card(action), ids.card(action)))
            resampled.apply_action(action)
        return resampled

    def __str__(self) -> str:
        text = str(self._table.position())
        return text + " (a deck draw waits for its card)" if self._table.drawing else text

    # -- arbo's side ---------------------------------------------------------------------------

    def scores_now(self) -> list[float]:
        """Each player's score were the game to end now (the state knows every hand); 0 during the deal."""
        game = self._table.game
        if game is None:
            return [0.0] * len(self._table.config.players)
        totals = game.final_totals()
        return [float(totals[player]) for player in game.players]

    @property
    def game(self) -> Game | None:
        """The engine's game (a copy), None during the deal."""
        game = self._table.game
        return None if game is None else game.copy()

    def view(self, looker: int | None) -> SeatView:
        """What ``looker`` knows of the table (a seat's index, None for a spectator, ALL for the
        whole table)."""
        position = self._table.position()
        if looker == ALL:
            return SeatView(None, position)
        return view_of(position, None if looker is None else self._table.config.players[looker])

    def seen_history(self, looker: int | None) -> list[Action]:
        """Every action played, in order, as ``looker`` saw it: another's draw from the deck names
        no card (a deck draw still waiting for its card ends the list)."""
        table = self._table
        if table.game is None:
            return []
        players = table.config.players
        name = None if looker is None or looker == ALL else players[looker]
        seen: list[Action] = []
        for index, action in enumerate(table.game.move_stack):
            mover = players[index // 4 % len(players)]
            hidden = isinstance(action, Draw) and action.owner is None and looker != ALL and mover != name
            seen.append(Draw() if hidden else action)
        if table.drawing:
            seen.append(Draw())
        return seen

    def dealt(self, looker: int | None) -> list[tuple[Card, ...]]:
        """The cards dealt to each seat that ``looker`` saw dealt (its own; every hand for ALL)."""
        return [tuple(hand) if looker == ALL or looker == seat else () for seat, hand in enumerate(self._table.dealt)]


class ArboretumObserver:
    """OpenSpiel's observer (PyObserver): the view, and for perfect recall the deal and the play as seen.

    The tensor's pieces are doors/observation.py's, then for perfect recall ``dealt`` (P, C): the
    cards seen dealt to each seat, and ``turns`` (T, 2 (P + 2 + C) + C + W + C): each turn's two
    draws (where from: the deck, a seat's pile or none; the card when seen), its planting (card,
    cell of the window) and its discard, T the most turns a game can have.
    """

    def __init__(self, game: ArboretumGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ArboError(f"python_arboretum's observer takes no parameters, not {params}")
        self.ids = game.ids
        self.view_tensor = ViewTensor(game.ids)
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info
        players, cards = len(self.ids.players), len(self.ids.cards)
        self._draw_size = players + 2 + cards
        self._turn_size = 2 * self._draw_size + cards + len(self.ids.cells) + cards
        pieces = list(self.view_tensor.pieces)
        if self.perfect_recall:
            pieces += [("dealt", (players, cards)), ("turns", (most_turns(players, cards), self._turn_size))]
        self.tensor = np.zeros(sum(math.prod(shape) for _, shape in pieces), np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, shape in pieces:
            self.dict[name] = self.tensor[at : at + math.prod(shape)].reshape(shape)
            at += math.prod(shape)

    def _looker(self, player: int) -> int | None:
        if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return player
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return ALL
        return None

    def set_from(self, state: ArboretumState, player: int) -> None:
        """Write ``state`` as ``player`` knows it into ``tensor``."""
        looker = self._looker(player)
        tensor = self.tensor
        tensor.fill(0)
        self.view_tensor.fill(state.view(looker), tensor)
        if not self.perfect_recall:
            return
        ids = self.ids
        dealt = self.dict["dealt"]
        for seat, hand in enumerate(state.dealt(looker)):
            for card in hand:
                dealt[seat, ids.card_id(card)] = 1.0
        turns = self.dict["turns"]
        draw_size, cards = self._draw_size, len(ids.cards)
        planting = 2 * draw_size
        for index, action in enumerate(state.seen_history(looker)):
            row = turns[index // 4]
            if isinstance(action, Plant):
                row[planting + ids.card_id(action.card)] = 1.0
                row[planting + cards + ids.cell_id(action.coord)] = 1.0
            elif isinstance(action, Discard):
                row[planting + cards + len(ids.cells) + ids.card_id(action.card)] = 1.0
            else:
                draw = index % 4 * draw_size
                row[draw + ids.action_id(action)] = 1.0  # where from: 0 the deck, 1 + i seat i's pile, P + 1 none
                if isinstance(action, Draw) and action.card is not None:
                    row[draw + ids.skip + 1 + ids.card_id(action.card)] = 1.0

    def string_from(self, state: ArboretumState, player: int) -> str:
        """``state`` as ``player`` knows it: the view's line, and for perfect recall the deal seen
        and every turn as seen (``1. player_0 d:Ma3 d Ma3@0,0 /Oa5 2. player_1 d``)."""
        looker = self._looker(player)
        text = str(state.view(looker))
        if not self.perfect_recall:
            return text
        players = self.ids.players
        dealt = " ".join(
            f"{players[seat]}: {' '.join(map(str, hand))}" for seat, hand in enumerate(state.dealt(looker)) if hand
        )
        words: list[str] = []
        for index, action in enumerate(state.seen_history(looker)):
            if index % 4 == 0:
                words += [f"{index // 4 + 1}.", players[index // 4 % len(players)]]
            words.append(str(action))
        return f"{text} || dealt {dealt or '-'} || {' '.join(words) or '-'}"


class ScoresNowEvaluator(Evaluator):  # type: ignore[misc]  # open_spiel has no types: Evaluator is Any
    """A leaf evaluation for OpenSpiel's MCTS and ISMCTS bots: the scores the table would give were
    the game over now, and a uniform prior. Far cheaper than random rollouts to the end (some 7 ms
    each on a Python game), and a better guide: ISMCTS at 30 simulations a move on it beat the
    uniform random bot in 20 of 20 two-player games, at 10 random rollouts a move in 15 of 20
    (tests/doors/test_openspiel.py)."""

    def evaluate(self, state: ArboretumState) -> Any:
        return np.array(state.returns() if state.is_terminal() else state.scores_now())

    def prior(self, state: ArboretumState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


pyspiel.register_game(_GAME_TYPE, ArboretumGame)
