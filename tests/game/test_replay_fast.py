"""The replay's fast path (runs of plainly legal turns through Game.play_known_turns) against the
turn-by-turn replay it stands in for: the same diagnostics, lines, positions and scoring.

A hook makes replay_line play every turn itself (the hook wants each position), so a replay with
a hook that does nothing is the reference.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbo_notation.engine.actions import Draw, Plant, Skip
from arbo_notation.engine.cards import Card, Coord
from arbo_notation.engine.state import Game
from arbo_notation.notation.reading.reader import parse_all
from arbo_notation.notation.model import GameRecord, Turn
from arbo_notation.notation.views import partial_record
from arbo_notation.game.replay import GameReplay, replay_game
from arbo_notation.play.simulate import simulate_game

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "samples").rglob("*.arb")) + sorted((ROOT / "tests" / "fixtures").rglob("*.arb"))
NAMES = ("Ana", "Ben", "Cleo", "Dev")


def facts(game: Game) -> tuple:
    """Everything a position says, through the engine's public queries."""
    players = game.players
    return (
        game.current_player,
        game.phase,
        game.turn_number,
        game.draws_taken,
        game.deck_size,
        game.deck_cards(),
        tuple((game.hand(p).known, game.hand(p).hidden) for p in players),
        tuple(game.discard_pile(p) for p in players),
        tuple(tuple(sorted(game.arboretum(p).items())) for p in players),
        game.move_stack,
    )


def findings(replay: GameReplay) -> tuple:
    """What a replay found, every line's every position included."""
    lines = tuple(
        (path, line.start, line.legal, line.error, line.faults, tuple(facts(state) for state in line.states))
        for path, line in replay.lines.items()
    )
    sheet = replay.sheet.to_json() if replay.sheet is not None else None
    final = facts(replay.final) if replay.final is not None else None
    return replay.diagnostics, replay.legal_turns, final, lines, sheet


def _every_turn(turn: Turn, game: Game, depth: int) -> None:
    """A hook: with one, the replay plays every turn itself."""


def assert_fast_is_turn_by_turn(record: GameRecord) -> None:
    for keep_states in (True, False):
        reference = replay_game(record, keep_states=keep_states, hook=_every_turn)
        assert findings(replay_game(record, keep_states=keep_states)) == findings(reference)


def _file_records() -> list[GameRecord]:
    found: list[GameRecord] = []
    for path in FILES:
        found += parse_all(path.read_text(encoding="utf-8"), str(path)).games
    return found


@pytest.mark.parametrize("record", _file_records(), ids=lambda r: f"{Path(r.file).name}#{r.index}")
def test_every_recorded_game_replays_the_same_both_ways(record: GameRecord):
    assert_fast_is_turn_by_turn(record)


# -- simulated games, as each seat sees them, with slips of every kind at random turns ---------


def _slip(turn: Turn, record: GameRecord, rng: random.Random) -> Turn:
    """The turn with one thing wrong (or odd) in it, of the kinds the fast path must hand over."""
    players = record.header.players
    cards = [Card(code, value) for code in record.header.species for value in (1, 4, 8)]
    kind = rng.randrange(10)
    if kind == 0:  # another player's name (a slip the replay may repair), or nobody's
        return replace(turn, player=rng.choice(players + ("Zed",)))
    if kind == 1:  # a wrong number: a warning
        return replace(turn, number=(turn.number or 0) + rng.choice((-1, 1, 5)))
    if kind == 2:  # no number
        return replace(turn, number=None)
    if kind == 3:  # a draw from a pile, maybe of nobody, maybe naming a card
        draw = Draw(rng.choice(players + ("dd",)), rng.choice(cards + [None]))
        return replace(turn, draws=(draw, turn.draws[1]) if rng.random() < 0.5 else (turn.draws[0], draw))
    if kind == 4:  # a deck draw naming some card
        return replace(turn, draws=(turn.draws[0], Draw(None, rng.choice(cards))))
    if kind == 5:  # a skipped draw, or the pile of nobody named
        odd = Skip() if rng.random() < 0.5 else Draw("Zed")
        return replace(turn, draws=(odd, turn.draws[1]))
    if kind == 6:  # one draw only (as a Turn can hold it; the notation cannot write it)
        return replace(turn, draws=turn.draws[:1])
    if kind == 7:  # a planting elsewhere, maybe not next to a tree
        cell = Coord(turn.plant.coord.x + rng.choice((-2, -1, 1, 2)), turn.plant.coord.y + rng.choice((-1, 0, 1)))
        return replace(turn, plant=Plant(turn.plant.card, cell))
    if kind == 8:  # another card planted or discarded
        card = rng.choice(cards)
        if rng.random() < 0.5:
            return replace(turn, plant=Plant(card, turn.plant.coord))
        return replace(turn, discard=card)
    return replace(turn, discard=turn.plant.card)  # the card planted discarded too


@st.composite
def slipped_records(draw) -> GameRecord:
    players = draw(st.integers(2, 4))
    record = simulate_game(
        NAMES[:players], draw(st.integers(0, 10**6)), ("random",), house_discards=draw(st.booleans())
    )
    view = draw(st.sampled_from(["omniscient", "seat", "spectator"]))
    if view != "omniscient":
        record = partial_record(record, record.header.players[-1] if view == "seat" else None)
    rng = random.Random(draw(st.integers(0, 10**9)))
    turns = list(record.turns)
    for at in rng.sample(range(len(turns)), min(len(turns), draw(st.integers(0, 3)))):  # one slip a turn
        turns[at] = _slip(turns[at], record, rng)
    if draw(st.booleans()):  # cut the game short, or play on past its end
        turns = turns[: rng.randrange(len(turns) + 1)] if rng.random() < 0.5 else turns + turns[-2:]
    return replace(record, turns=tuple(turns))


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(slipped_records())
def test_a_game_with_slips_replays_the_same_both_ways(record: GameRecord):
    assert_fast_is_turn_by_turn(record)


def test_the_fast_path_plays_the_plain_turns_and_hands_over_the_others():
    """A slip in the middle: the fast path plays the turns before it, the turn-by-turn replay the
    slip, and the fast path the rest; the result is the reference's, a hook sees every turn."""
    record = simulate_game(NAMES[:2], 7, ("random",))
    third = record.turns[2]
    slipped = replace(record, turns=record.turns[:2] + (replace(third, number=9),) + record.turns[3:])
    assert_fast_is_turn_by_turn(slipped)
    replay = replay_game(slipped)
    assert [d.code.value for d in replay.diagnostics] == ["turn-number"]
    assert replay.legal_turns == len(record.turns)
    seen: list[int] = []
    replay_game(slipped, hook=lambda turn, game, depth: seen.append(game.turn_number))
    assert len(seen) == len(record.turns)
