"""The checks of a game's table and its end from the record's facts alone, no position needed:
the table a header sets up (game_for), the rules' setup, the reveals, the result line and the
claimed scores. replay_game (game/replay.py) makes each fault a located diagnostic; the check's fast
path (checking.games.plays_cleanly) only asks whether there is one, and so plays a clean game without
loading the replayer.
"""

from __future__ import annotations

import functools
from collections import namedtuple
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from arbo_notation.engine.cards import SPECIES_COUNT_BY_PLAYERS, Card
from arbo_notation.engine.state import Game, GameConfig, Setup
from arbo_notation.errors import Code, PositionError, RuleError, Severity

if TYPE_CHECKING:
    from arbo_notation.notation.model import Header


def game_for(header: Header) -> Game:
    """The game a header sets up, from its deal or its position; RuleError when it describes no
    legal table."""
    config = _config(tuple(header.players), tuple(header.species))
    if header.perspective is not None:
        config.seat(header.perspective)
    if header.position is not None:
        try:
            return Game.from_position(header.position)
        except PositionError as error:
            raise RuleError(f"the position is no table of a game: {error.message}") from None
    setup = Setup(deck=header.deck, hands=dict(header.hands), discards=dict(header.discards))
    return Game(config, setup)


@functools.lru_cache(maxsize=256)
def _config(players: tuple[str, ...], species: tuple[str, ...]) -> GameConfig:
    """A game's configuration, checked once for each table a file sets (a value: it can be shared)."""
    return GameConfig(players, species)


#: Where an EndFault stands: the header, the result line, or (an int) the reveal line of that index.
HEADER = "header"
RESULT = "result"


class EndFault(namedtuple("EndFault", "code message at player severity", defaults=(None, Severity.ERROR))):
    """A fault of a game's table or of its end, found from the facts alone (no positions): replay_game
    makes it a located diagnostic, plays_cleanly only asks whether there is one. Its ``code`` and
    ``message``; ``at``, where it stands (HEADER, RESULT, or the index of the reveal line); the
    ``player`` it concerns, if one; its ``severity`` (an error unless said). (A named tuple: see
    arbo_notation/__init__.py on a check's start-up.)"""

    __slots__ = ()


def table_faults(header: Header) -> Iterator[EndFault]:
    """The header's table against the rules' setup: the number of species for the players."""
    wanted = SPECIES_COUNT_BY_PLAYERS.get(len(header.players))
    if wanted is not None and len(header.species) != wanted:
        yield EndFault(
            Code.SPECIES_COUNT,
            f"a {len(header.players)}-player game uses {wanted} species, this one {len(header.species)}",
            HEADER,
            severity=Severity.WARNING,
        )


def end_faults(
    game: Game, reveals: Sequence[tuple[str, Sequence[Card]]], claimed: Mapping[str, int] | None
) -> Iterator[EndFault]:
    """The end of the record against the end of the game (its main line played): unfinished
    marks, reveals (each revealed hand is revealed on ``game`` as the check goes). ``claimed``
    is the result line's scores, None for ``result *`` or no result line.

    A record that stops without a result line is fine (a game being recorded, say): only a result
    line with scores claims that the game is over."""
    if not game.is_over:
        if claimed is not None:
            yield EndFault(
                Code.UNFINISHED,
                f"the record stops after turn {game.turn_number - 1} with {game.deck_size} cards left "
                "in the deck; mark an unfinished game with 'result *'",
                RESULT,
            )
        for index, (player, _) in enumerate(reveals):
            yield EndFault(Code.REVEAL, "hands are revealed only when the game is over", index, player)
        return
    seen: set[str] = set()
    for index, (player, cards) in enumerate(reveals):
        if player in seen:
            yield EndFault(Code.REVEAL, f"{player}'s hand is revealed twice", index, player)
            continue
        seen.add(player)
        try:
            game.reveal(player, cards)
        except RuleError as error:
            yield EndFault(Code.REVEAL, str(error), index, player)
    hidden = [player for player in game.hidden_players() if player not in seen]  # a wrong reveal is told
    if hidden and claimed is not None:
        yield EndFault(
            Code.REVEAL,
            f"the result cannot be checked: {', '.join(hidden)} "
            f"{'has' if len(hidden) == 1 else 'have'} cards nobody saw; add a reveal line",
            RESULT,
        )


def result_line_faults(players: Sequence[str], scores: Iterable[tuple[str, int]]) -> Iterator[EndFault]:
    """The result line against the table, whatever the game: it names each player once, and no
    one else (``scores`` as the line gives them, in its order)."""
    named: set[str] = set()
    for player, _ in scores:
        if player in named:
            yield EndFault(Code.RESULT, f"the result line names {player} twice", RESULT, player)
        elif player not in players:
            yield EndFault(Code.RESULT, f"the result line names {player}, who is not a player", RESULT)
        named.add(player)
    missing = [p for p in players if p not in named]
    if missing:
        yield EndFault(Code.RESULT, f"the result line has no score for {', '.join(missing)}", RESULT)


def result_faults(
    totals: Mapping[str, int],
    claimed: Mapping[str, int] | None,
    header_claim: Mapping[str, int] | None,
    explain: Callable[[str], str],
) -> Iterator[EndFault]:
    """The scores the result line (``claimed``) and the header's result claim against the game's
    ``totals``; ``explain(player)`` says how a player's total is made up (asked only for a fault)."""
    for what, claim, at in (("result line", claimed, RESULT), ("header's result", header_claim, HEADER)):
        if claim is None or claim == totals:  # the second test only saves time: a true claim has no fault
            continue
        for player, score in claim.items():
            if player not in totals:
                if at == HEADER:  # the result line's names are result_line_faults'
                    yield EndFault(Code.RESULT, f"the {what} names {player}, who is not a player", at)
            elif score != totals[player]:
                yield EndFault(
                    Code.RESULT,
                    f"the {what} gives {player} {score}, but {player} scores {totals[player]} ({explain(player)})",
                    at,
                    player,
                )
        missing = [p for p in totals if p not in claim]
        if missing and at == HEADER:
            yield EndFault(Code.RESULT, f"the {what} has no score for {', '.join(missing)}", at)
