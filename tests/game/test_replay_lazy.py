"""What a replay makes only when asked for: a line's positions (replayer.LineStates), each the
table an eager replay (a copy after every turn) gives whatever the order they are asked in; and
the score sheet, the one score_game makes of the end."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbo_notation.engine.state import Game
from arbo_notation.notation.reading.reader import parse
from arbo_notation.notation.writer import format_games
from arbo_notation.game.replay import MAIN, Line, replay_game, replay_turn, score_game
from arbo_notation.play.simulate import simulate_games

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


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


def eager(line: Line) -> list[tuple]:
    """The line's positions as a replay that copies after every turn makes them."""
    game = line.states[0].copy()
    made = [facts(game)]
    turns = line.turns
    for index in range(line.legal):
        replay_turn(game, turns[index], turns[index + 1] if index + 1 < len(turns) else None)
        made.append(facts(game))
    return made


def records() -> list:
    found = []
    for path in sorted(SAMPLES.glob("*.arb")):
        found += parse(path.read_text(encoding="utf-8"), str(path))
    found += list(simulate_games(3, 2, "line-states", bots=("random",)))
    return found


_RECORDS = records()


def _slipped(record):
    """The record with its third turn's player's name wrong: a fault the replay repairs."""
    text = format_games([record])
    turn = record.turns[2]
    players = record.header.players
    other = players[(players.index(turn.player) + 1) % len(players)]
    return parse(text.replace(f"\n3. {turn.player} ", f"\n3. {other} ", 1))[0]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_positions_asked_in_any_order_are_the_eager_replays(data):
    record = data.draw(st.sampled_from(_RECORDS))
    if data.draw(st.booleans()) and len(record.turns) > 4:
        record = _slipped(record)
    replay = replay_game(record, keep_states=True)
    for path, line in replay.lines.items():
        expected = eager(line)
        if path == MAIN and replay.sheet is not None:
            expected[-1] = facts(line.states[-1])  # the end carries the revealed hands
        order = data.draw(st.permutations(range(len(line.states))))
        for index in order:
            assert facts(line.states[index]) == expected[index], (path, index)
        assert facts(line.states[-1]) == expected[-1]


def test_the_slipped_record_is_repaired_and_played_to_its_end():
    record = _slipped(next(r for r in _RECORDS if not r.header.perspective and len(r.turns) > 10))
    replay = replay_game(record, keep_states=True)
    main = replay.lines[MAIN]
    assert [f.number for f in main.faults] == [3] and main.legal == len(record.turns)


def test_a_line_of_positions_is_indexed_as_a_sequence():
    [record] = parse((SAMPLES / "two-player-omniscient.arb").read_text(encoding="utf-8"))
    states = replay_game(record, keep_states=True).lines[MAIN].states
    assert len(states) == len(record.turns) + 1
    assert states[-1] is states[len(states) - 1]
    assert [facts(s) for s in states[1:3]] == [facts(states[1]), facts(states[2])]
    with pytest.raises(IndexError, match="none of index"):
        states[len(states)]
    assert states[0].turn_number == 1 and states[-1].is_over


def test_a_replay_that_stops_gives_the_position_before_the_illegal_turn_as_final():
    [record] = parse((SAMPLES / "two-player-omniscient.arb").read_text(encoding="utf-8"))
    text = format_games([record])
    broken = record.turns[5]
    bad = parse(text.replace(f"{broken.plant}", f"{broken.plant.card}@9,9", 1))[0]
    replay = replay_game(bad, keep_states=True)
    assert replay.legal_turns == 5
    assert facts(replay.final) == eager(replay.lines[MAIN])[5]


def test_the_sheet_made_when_asked_is_the_end_scored():
    scored = 0
    for record in _RECORDS:
        replay = replay_game(record)
        if replay.final is not None and replay.final.is_over and not replay.final.hidden_players():
            assert replay.sheet.to_json() == score_game(replay.final).to_json()
            assert replay.sheet is replay.sheet
            scored += 1
        else:
            assert replay.sheet is None
    assert scored >= 5


def test_a_wrong_claim_is_explained_from_the_sheet_made_then():
    [record] = parse((SAMPLES / "two-player-omniscient.arb").read_text(encoding="utf-8"))
    text = format_games([record])
    [(player, score)] = record.result.scores[:1]
    wrong = parse(text.replace(f"result {player} {score}", f"result {player} {score + 3}", 1))[0]
    replay = replay_game(wrong)
    [error] = replay.errors
    parts = " + ".join(f"{code} {s.points}" for code, s in replay.sheet.player(player).species.items() if s.points)
    assert error.message == f"the result line gives {player} {score + 3}, but {player} scores {score} ({parts})"
