"""The structured forms: plain data, JSON and YAML; faults in them are reported with file and place."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
import yaml

from arbo_notation.errors import ArboError, DataError, NotationError
from arbo_notation.notation import (
    dumps_json,
    dumps_yaml,
    format_games,
    game_from_data,
    game_to_data,
    games_from_data,
    loads_json,
    loads_yaml,
    parse,
)
from arbo_notation.api import read_games

FIXTURES = Path(__file__).parent.parent / "fixtures" / "notation"
ALL = sorted(FIXTURES.glob("*.arb"))


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_json_and_yaml_round_trip(path):
    games = read_games(path)
    assert loads_json(dumps_json(games)) == games
    assert loads_yaml(dumps_yaml(games)) == games
    assert [game_from_data(game_to_data(g)) for g in games] == games


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_json_to_arb_is_what_format_gives(path):
    games = read_games(path)
    assert format_games(loads_json(dumps_json(games))) == format_games(games)
    assert format_games(loads_yaml(dumps_yaml(games))) == format_games(games)


def test_data_is_json_types_only_and_shaped_as_documented():
    (game,) = read_games(FIXTURES / "club-night.arb")
    data = game_to_data(game)
    assert json.loads(json.dumps(data)) == data
    assert data["header"] == {
        "event": "Club night",
        "date": "2026-11-29",
        "players": ["Ana", "Ben"],
        "species": ["Ca", "Dw", "Ja", "Ma", "Oa", "Wi"],
    }
    assert data["comments"] == [{"text": "A comment before the first turn"}]
    t2 = data["turns"][1]
    assert t2["draws"] == [{"from": "deck", "card": "Ja2"}, {"from": "discard", "owner": "Ana"}]
    assert t2["plant"] == {"card": "Oa5", "x": 0, "y": 0} and t2["discard"] == "Wi7" and t2["glyphs"] == ["!"]
    assert t2["variations"][0]["turns"][1]["number"] == 3
    assert data["turns"][2]["comments_after"] == [{"text": "a line comment", "line": True}]
    assert data["reveals"][0] == {"player": "Ana", "cards": ["Ja2", "Oa6", "Ca1", "Ca4", "Dw2", "Wi7", "Ma5"]}
    assert data["result"] == {"scores": [["Ana", 24], ["Ben", 19]]}
    whole = json.loads(dumps_json([game]))
    assert (whole["format"], whole["version"], len(whole["games"])) == ("arbo", 1, 1)


def test_header_values_json_has_no_type_for_are_tagged():
    text = (
        "---\nplayers: [Ana]\nspecies: [Ca]\nwhen: 2026-01-02\nat: 2026-01-02 10:30:00\n"
        "tags: !!set {a: null}\nodd: {1: one, $x: two}\nblob: !!binary aGVsbG8=\nnan: .nan\n---\n"
    )
    (game,) = parse(text)
    data = game_to_data(game)
    assert data["header"]["when"] == {"$date": "2026-01-02"}
    assert data["header"]["at"] == {"$datetime": "2026-01-02T10:30:00"}
    assert data["header"]["tags"] == {"$set": ["a"]}
    assert data["header"]["odd"] == {"$map": [[1, "one"], ["$x", "two"]]}
    assert data["header"]["blob"] == {"$binary": "aGVsbG8="}
    assert data["header"]["nan"] == {"$float": "nan"}
    back = loads_json(dumps_json([game]))[0].header.extra
    assert back["when"] == dt.date(2026, 1, 2) and back["tags"] == {"a"} and back["blob"] == b"hello"
    assert back["odd"] == {1: "one", "$x": "two"}
    assert format_games(loads_json(dumps_json([game]))) == format_games([game])


def test_accepted_shapes_of_a_file():
    games = read_games(FIXTURES / "multi.arb")
    data = [game_to_data(g) for g in games]
    assert games_from_data(data) == games
    assert games_from_data({"games": data}) == games
    assert games_from_data(data[0]) == games[:1]
    assert [g.index for g in games_from_data(data, "x.json")] == [1, 2, 3]
    assert games_from_data(data, "x.json")[0].file == "x.json"


def _game() -> dict:
    return game_to_data(read_games(FIXTURES / "club-night.arb")[0])


@pytest.mark.parametrize(
    "change, path, message",
    [
        (
            lambda d: d["turns"][1].update(discard="Ma9"),
            "game.turns[1].discard",
            "expected a card such as Ma3, found 'Ma9': a card's value runs 1 to 8",
        ),
        (lambda d: d["turns"][0]["draws"].pop(), "game.turns[0].draws", "a turn has two draws, not 1"),
        (lambda d: d["turns"][0]["draws"][0].update({"from": "sky"}), "game.turns[0].draws[0].from", "expected 'deck'"),
        (lambda d: d["turns"][0]["draws"][0].update(owner="Ana"), "game.turns[0].draws[0].owner", "has no owner"),
        (
            lambda d: d["turns"][1]["draws"][1].update(owner="reveal"),
            "game.turns[1].draws[1].owner",
            "'reveal' is not a player's name",
        ),
        (lambda d: d["turns"][0]["plant"].update(x="1"), "game.turns[0].plant.x", "expected a whole number"),
        (lambda d: d["turns"][0].update(glyphs=["!!!"]), "game.turns[0].glyphs[0]", "unknown glyph '!!!'"),
        (
            lambda d: d["turns"][0].update(comments_after=[{"text": "a}b"}]),
            "game.turns[0].comments_after[0]",
            "cannot hold '}'",
        ),
        (
            lambda d: d["turns"][0].update(comments_after=[{"text": "a\nb", "line": True}]),
            "game.turns[0].comments_after[0]",
            "cannot run over lines",
        ),
        (
            lambda d: d["turns"][1]["variations"][0].update(turns=[]),
            "game.turns[1].variations[0].turns",
            "at least one turn",
        ),
        (lambda d: d["turns"][0].update(colour="red"), "game.turns[0]", "unknown key 'colour'"),
        (lambda d: d["header"].pop("players"), "game.header", "the header has no 'players'"),
        (lambda d: d["header"].update(hands={"Cleo": []}), "game.header.hands", "'Cleo' is not one of the players"),
        (lambda d: d.update(result={"scores": []}), "game.result", "give the scores"),
        (lambda d: d.update(result={"scores": [["Ana", -1]]}), "game.result.scores[0][1]", "not negative"),
        (lambda d: d["reveals"][0].update(cards=["Ja2", 7]), "game.reveals[0].cards[1]", "expected a card"),
    ],
)
def test_faults_in_data_are_located(change, path, message):
    data = _game()
    change(data)
    with pytest.raises(DataError) as raised:
        game_from_data(data, "in.json")
    assert raised.value.file == "in.json" and raised.value.path == path
    assert message in raised.value.message
    assert str(raised.value).startswith(f"in.json: {path}: ")
    assert isinstance(raised.value, ArboError)


def test_comment_texts_from_data_are_tidied():
    data = _game()
    data["comments"] = ["  just text  ", {"text": "a\r\nb"}]
    game = game_from_data(data)
    assert [c.text for c in game.comments] == ["just text", "a\nb"]


def test_json_syntax_errors_are_notation_errors():
    with pytest.raises(NotationError) as raised:
        loads_json('{"games": [\n  {"header": }\n]}', "bad.json")
    error = raised.value
    assert (error.file, error.line, error.column) == ("bad.json", 2, 14)
    assert "not valid JSON" in error.message and error.source_line == '  {"header": }'


def test_yaml_syntax_errors_are_notation_errors():
    with pytest.raises(NotationError) as raised:
        loads_yaml("games:\n  - header: [a\n", "bad.yaml")
    assert raised.value.file == "bad.yaml" and "not valid YAML" in raised.value.message


def test_unsafe_yaml_is_refused():
    with pytest.raises(NotationError):
        loads_yaml("games: !!python/object/apply:os.system ['echo hi']\n")


def test_wrong_top_level_shapes():
    with pytest.raises(DataError, match="expected"):
        games_from_data(42, "x.json")
    with pytest.raises(DataError, match="version"):
        games_from_data({"format": "arbo", "version": 9, "games": []})
    with pytest.raises(DataError, match="format"):
        games_from_data({"format": "pgn", "games": []})


def test_yaml_output_is_safe_yaml():
    text = dumps_yaml(read_games(FIXTURES / "annotated.arb"))
    data = yaml.safe_load(text)
    assert data["games"][0]["header"]["players"] == ["Ana", "Ben", "Cleo"]


def _nested_variations(depth: int) -> str:
    line = "1. Ana d d Ma3@0,0 /Oa5"
    return "---\nplayers: [Ana, Ben]\nspecies: [Ma, Oa]\n---\n" + line + f" ({line} {{c}}" * depth + ")" * depth + "\n"


def test_variations_as_deep_as_the_notation_allows_go_to_json_and_yaml_and_back():
    games = parse(_nested_variations(100))  # MAX_VARIATION_DEPTH: the deepest a .arb record may hold
    written = format_games(games)
    assert format_games(loads_json(dumps_json(games))) == written
    assert format_games(loads_yaml(dumps_yaml(games))) == written


def test_the_yaml_writer_writes_what_yaml_dump_writes():
    games = read_games(FIXTURES / "annotated.arb")
    from arbo_notation.notation.structured.convert import _Dumper, games_to_data

    expected = yaml.dump(
        games_to_data(games), Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False, width=100
    )
    assert dumps_yaml(games) == expected


def test_structured_variations_deeper_than_the_notation_allows_are_refused():
    data = json.loads(dumps_json(parse(_nested_variations(100))))
    turn = data["games"][0]["turns"][0]
    for _ in range(100):
        turn = turn["variations"][0]["turns"][0]
    turn["variations"] = [{"turns": [dict(turn)]}]
    with pytest.raises(DataError, match=r"\.variations: variations nest deeper than 100 levels"):
        games_from_data(data)


def test_a_json_record_with_a_key_given_twice_is_refused_not_half_read(tmp_path):
    from typer.testing import CliRunner

    from arbo_notation.cli import app

    games = read_games(ALL[0])
    text = dumps_json(games).replace('"players": [', '"players": ["Zed"], "players": [', 1)
    with pytest.raises(DataError) as refused:
        loads_json(text, "club.json")
    assert str(refused.value) == (
        "club.json: the key 'players' appears twice in one JSON object (readers differ on which value they keep)"
    )
    path = tmp_path / "club.json"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["convert", str(path), "--to", "arb"])
    assert result.exit_code == 1 and "appears twice" in result.stderr and result.stdout == ""
