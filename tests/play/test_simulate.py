"""Simulated games: seeded, complete, omniscient records whose result is the engine's scoring."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from arbo_notation.engine.cards import HAND_SIZE, default_species_for
from arbo_notation.engine.scoring import PlayerPosition, score_position
from arbo_notation.engine.state import Game, GameConfig, Setup
from arbo_notation.errors import ArboError
from arbo_notation.engine.actions import Draw
from arbo_notation.notation.model import GameRecord
from arbo_notation.notation.writer import format_game, format_games
from arbo_notation.play.simulate import game_seed, simulate_game, simulate_games


def replay(record: GameRecord) -> Game:
    """Play the record's turns on the table its header deals (every card is named)."""
    header = record.header
    config = GameConfig(header.players, header.species)
    game = Game(config, Setup(deck=header.deck, hands=header.hands, discards=header.discards))
    for turn in record.turns:
        assert turn.player == game.current_player
        assert turn.number == game.turn_number
        for draw in turn.draws:
            if isinstance(draw, Draw) and draw.owner is None:
                game.draw_from_deck(draw.card)
            elif isinstance(draw, Draw):
                game.draw_from_discard(draw.owner, draw.card)
            else:
                game.skip_draw()
        game.plant(turn.plant.card, turn.plant.coord)
        game.discard(turn.discard)
    return game


@pytest.fixture(scope="module")
def records() -> list[GameRecord]:
    games = list(simulate_games(2, 3, "fixture"))
    games += list(simulate_games(3, 2, "fixture", ["greedy", "random", "greedy"]))
    games += list(simulate_games(4, 2, "fixture", ["random"], house_discards=True))
    return games


def test_a_record_is_omniscient_and_complete(records):
    for record in records:
        header = record.header
        players = len(header.players)
        assert header.players == ("Ana", "Ben", "Cleo", "Dev")[:players]
        assert header.species == default_species_for(players)
        assert sorted(header.hands) == sorted(header.players)
        assert all(len(hand) == HAND_SIZE and list(hand) == sorted(hand) for hand in header.hands.values())
        assert header.deck is not None
        assert header.date is None and header.event is None  # nothing that changes from run to run
        assert [t.number for t in record.turns] == list(range(1, len(record.turns) + 1))
        assert all(d.card is not None for t in record.turns for d in t.draws if isinstance(d, Draw))
        assert [r.player for r in record.reveals] == list(header.players)
        assert record.finished


def test_the_house_variant_deals_face_up_discards(records):
    four = [r for r in records if len(r.header.players) == 4]
    for record in four:
        assert sorted(record.header.discards) == ["Ben", "Cleo", "Dev"]
        assert all(len(pile) == 1 for pile in record.header.discards.values())
    assert all(not r.header.discards for r in records if len(r.header.players) < 4)


def test_the_result_is_the_score_of_the_final_table(records):
    for record in records:
        game = replay(record)
        assert game.is_over
        hands = game.final_hands()
        assert {r.player: r.cards for r in record.reveals} == hands
        table = [PlayerPosition(p, game.arboretum(p), hands[p]) for p in game.players]
        sheet = score_position(game.config.species, table)
        assert record.result is not None
        assert record.result.scores == tuple((p.name, p.total) for p in sheet.players)


def test_same_seed_same_game_and_other_seed_other_game():
    a = simulate_game(("Ana", "Ben"), 17)
    assert simulate_game(("Ana", "Ben"), 17) == a
    assert simulate_game(("Ana", "Ben"), 18) != a
    assert simulate_game(("Ana", "Ben"), 17, ["random"]) != a


def test_game_i_of_a_run_is_dealt_from_the_derived_seed():
    run = list(simulate_games(2, 2, "run"))
    assert [r.index for r in run] == [1, 2]
    assert run[1] == simulate_game(("Ana", "Ben"), game_seed("run", 2))
    assert run[0] != run[1]


def test_caller_given_header_fields():
    record = simulate_game(("Zoe", "Yan", "Xi"), 1, event="Bot league", site="here", date="2024-05-01")
    assert (record.header.event, record.header.site, record.header.date) == ("Bot league", "here", "2024-05-01")
    assert record.header.players == ("Zoe", "Yan", "Xi")


def test_bad_bot_lists():
    with pytest.raises(ArboError, match="bots for"):
        simulate_game(("Ana", "Ben"), 1, ["greedy", "random", "greedy"])
    with pytest.raises(ArboError, match="no bot"):
        list(simulate_games(2, 1, 1, ["smart"]))


def test_formatted_records_are_byte_identical_and_parse_back(records):
    from arbo_notation.notation.reading.reader import parse
    from arbo_notation.notation.writer import format_game, format_games

    text = format_games(records[:3])
    assert format_games(list(simulate_games(2, 3, "fixture"))) == text
    assert format_games(list(simulate_games(2, 3, "other"))) != text
    for record in records:
        [back] = parse(format_game(record))
        assert back == record
    assert parse(format_games(records)) == records


FIXTURES = Path(__file__).parent / "fixtures"


@pytest.mark.parametrize(
    "players, bots",
    [
        (2, "greedy"),
        (3, "greedy"),
        (4, "greedy"),
        (2, "greedy,random"),
        (3, "random,greedy,greedy"),
        (4, "greedy,random,greedy,random"),
    ],
)
def test_games_are_the_bytes_main_wrote(players, bots):
    """The bots choose as they did: tests/play/fixtures/ holds what main (bbc6f97) wrote with
    `arbo simulate -p P -n 3 --seed fx --bot BOTS`, before the greedy bot was made faster."""
    names = bots.split(",")
    expected = (FIXTURES / f"simulate-{players}_{'-'.join(names)}.arb").read_text(encoding="utf-8")
    assert format_games(list(simulate_games(players, 3, "fx", names))) == expected


def test_greedy_games_of_many_seeds_are_the_games_main_played():
    """The greedy bot made faster plays the same games: tests/play/fixtures/greedy-many-seeds.json
    holds a digest of each of 20 games a table size that main (60bd259) simulated, 2 to 4 players."""
    made = json.loads((FIXTURES / "greedy-many-seeds.json").read_text(encoding="utf-8"))["games"]
    for players in (2, 3, 4):
        digests = [
            hashlib.sha256(format_game(record).encode()).hexdigest()[:16]
            for record in simulate_games(players, 20, "many")
        ]
        assert digests == made[str(players)], (
            f"{players} players: game {next(i for i, (a, b) in enumerate(zip(digests, made[str(players)], strict=True), 1) if a != b)} differs"
        )
