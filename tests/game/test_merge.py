"""Merging seat records: all the seats of a game give its omniscient record; a disagreement is located."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from typer.testing import CliRunner

import arbo_notation as arbo
from arbo_notation.cli import app
from arbo_notation.engine.actions import Draw
from arbo_notation.notation.model import Comment
from arbo_notation.notation.views import partial_record
from arbo_notation.notation.writer import format_game
from arbo_notation.play.simulate import simulate_game

PLAYERS = ("Ana", "Ben", "Cleo", "Dev")


def seats_of(record):
    return [partial_record(record, seat) for seat in record.header.players]


def saved(tmp_path, record, name):
    path = tmp_path / f"{name}.arb"
    path.write_text(format_game(record), encoding="utf-8")
    return path


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_all_the_seats_of_a_simulated_game_give_back_the_omniscient_record(players, seed):
    game = simulate_game(PLAYERS[:players], seed, ["random"])
    assert arbo.merge(seats_of(game)) == game
    assert format_game(arbo.merge(seats_of(game))) == format_game(game)


def test_some_seats_give_what_they_knew_and_the_replay_agrees():
    game = simulate_game(PLAYERS[:3], 5, ["random"])
    merged = arbo.merge([partial_record(game, "Ana"), partial_record(game, "Ben")])
    assert merged.header.deck is None and set(merged.header.hands) == {"Ana", "Ben"}
    assert merged.header.perspective is None
    tree = arbo.replay(merged)
    assert tree.valid
    end = tree.end()
    assert end.position.hand("Cleo").known  # revealed at the end
    middle = tree.line_nodes(())[10].knowledge(arbo.View.record())
    assert middle.hands["Ana"].unknown == 0 and middle.hands["Ben"].unknown == 0
    assert middle.hands["Cleo"].unknown > 0


def test_the_cli_merges_seat_files_into_the_omniscient_record(tmp_path):
    game = simulate_game(PLAYERS, 3, ["greedy"])
    paths = [str(saved(tmp_path, seat, seat.header.perspective)) for seat in seats_of(game)]
    out = tmp_path / "game.arb"
    result = CliRunner().invoke(app, ["merge", *paths, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == format_game(game)


def test_merge_never_writes_over_an_input_or_a_file_there_already(tmp_path):
    game = simulate_game(PLAYERS, 3, ["greedy"])
    paths = [saved(tmp_path, seat, seat.header.perspective) for seat in seats_of(game)]
    before = [path.read_bytes() for path in paths]
    done = CliRunner().invoke(app, ["merge", *map(str, paths), "-o", str(paths[0])])
    assert done.exit_code == 1
    assert done.stderr == (
        f"arbo: {paths[0]}: is one of the records merged ({paths[0]}): write the merged record to a new file\n"
    )
    other = tmp_path / "mine.arb"
    other.write_text("mine")
    done = CliRunner().invoke(app, ["merge", *map(str, paths), "-o", str(other)])
    assert done.exit_code == 1
    assert (
        done.stderr
        == f"arbo: {other}: exists, and arbo merge writes a new file only: remove it, or give another name\n"
    )
    assert [path.read_bytes() for path in paths] == before and other.read_text() == "mine"


def test_a_tampered_seat_is_a_located_error_naming_both_files(tmp_path):
    game = simulate_game(PLAYERS[:2], 4, ["random"])
    ana, ben = seats_of(game)
    turns = list(ben.turns)
    turns[5] = replace(turns[5], discard=turns[5].plant.card, plant=replace(turns[5].plant, card=turns[5].discard))
    tampered = replace(ben, turns=tuple(turns))
    paths = [str(saved(tmp_path, ana, "ana")), str(saved(tmp_path, tampered, "ben"))]
    result = CliRunner().invoke(app, ["merge", *paths, "-o", str(tmp_path / "out.arb")])
    assert result.exit_code == 1
    line = 1 + format_game(ana).splitlines().index(
        next(text for text in format_game(ana).splitlines() if text.startswith("6. "))
    )
    assert re.match(rf"arbo: .*ana\.arb:{line} and .*ben\.arb:{line} disagree: ", result.stderr)
    assert "Traceback" not in result.output and not (tmp_path / "out.arb").exists()


def test_a_card_named_two_ways_is_a_located_error():
    game = simulate_game(PLAYERS[:2], 6, ["random"])
    ana, ben = (arbo.parse_games(format_game(seat))[0] for seat in seats_of(game))
    ana = replace(ana, file="ana.arb")
    ben = replace(ben, file="ben.arb")
    # Ben names his first deck draw wrongly in his own record: Ana's dealt hand holds that card
    index = next(
        i
        for i, t in enumerate(ben.turns)
        if t.player == "Ben" and isinstance(t.draws[0], Draw) and t.draws[0].owner is None
    )
    wrong = ana.header.hands["Ana"][0]
    turn = ben.turns[index]
    turns = list(ben.turns)
    turns[index] = replace(turn, draws=(replace(turn.draws[0], card=wrong), *turn.draws[1:]))
    with pytest.raises(arbo.MergeError, match=rf"turn {index + 1}: ana\.arb:\d+, ben\.arb:\d+"):
        arbo.merge([ana, replace(ben, turns=tuple(turns))])


def test_comments_and_glyphs_are_kept_marked_by_whose():
    game = simulate_game(PLAYERS[:2], 8, ["random"])
    ana, ben = seats_of(game)
    shared = Comment("both saw this")
    ana_turns, ben_turns = list(ana.turns), list(ben.turns)
    ana_turns[2] = replace(ana_turns[2], comments_after=(shared, Comment("a fine draw")), glyphs=("!",))
    ben_turns[2] = replace(ben_turns[2], comments_after=(shared,), glyphs=("?!",))
    merged = arbo.merge([replace(ana, turns=tuple(ana_turns)), replace(ben, turns=tuple(ben_turns))])
    turn = merged.turns[2]
    assert turn.glyphs == ()
    assert [c.text for c in turn.comments_after] == ["both saw this", "Ana: a fine draw", "Ana: !", "Ben: ?!"]


def test_two_copies_of_a_seat_give_its_comments_and_glyphs_once():
    game = simulate_game(PLAYERS[:2], 8, ["random"])
    ana, ben = seats_of(game)
    ana_turns = list(ana.turns)
    ana_turns[2] = replace(ana_turns[2], comments_after=(Comment("a fine draw"),), glyphs=("!",))
    ana = replace(ana, turns=tuple(ana_turns))
    merged = arbo.merge([ana, ana, ben])
    assert [c.text for c in merged.turns[2].comments_after] == ["Ana: a fine draw", "Ana: !"]


@pytest.mark.parametrize(
    "key, mine, theirs, shown",
    [
        ("extra", {"table": "3"}, {"table": "4"}, "'table': '3' and '4'"),
        ("names", {"Re": "Red"}, {"Re": "Rose"}, "'names Re': 'Red' and 'Rose'"),
        ("event", "Club night", "Final", "'event': 'Club night' and 'Final'"),
    ],
)
def test_every_header_key_the_seats_disagree_on_is_a_located_error(key, mine, theirs, shown):
    game = simulate_game(PLAYERS[:2], 8, ["random"])
    ana, ben = (replace(seat, file=f"{seat.header.perspective.lower()}.arb") for seat in seats_of(game))
    ana = replace(ana, header=replace(ana.header, **{key: mine}))
    with pytest.raises(arbo.MergeError) as raised:
        arbo.merge([ana, replace(ben, header=replace(ben.header, **{key: theirs}))])
    assert str(raised.value) == f"ana.arb and ben.arb disagree on {shown}"
    # one record leaving the key out is no disagreement: the other's value is kept
    assert getattr(arbo.merge([ana, ben]).header, key) == mine


def test_different_games_do_not_merge():
    one, other = simulate_game(PLAYERS[:2], 1), simulate_game(PLAYERS[:3], 1)
    with pytest.raises(arbo.MergeError, match="not the same game"):
        arbo.merge([partial_record(one, "Ana"), partial_record(other, "Ben")])


def test_merge_needs_two_files():
    result = CliRunner().invoke(app, ["merge", "only.arb"])
    assert result.exit_code == 2 and "two seats or more" in result.stderr


# -- the section of docs/COMMANDS.md and its samples --------------------------------------------------------

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
SEATS_NOTES = {"Ana": (3, "Ma8 early: my maple path ends here"), "Ben": (4, "Rp1 beside Cb1: a path can start from it")}


def seats_game():
    return simulate_game(["Ana", "Ben", "Cleo"], "seats", ["greedy"], event="Seat records", date="2026-11-20")


def test_the_seat_samples_are_the_seats_of_a_simulated_game_with_a_comment_each():
    game = seats_game()
    for seat in game.header.players:
        expected = partial_record(game, seat)
        if seat in SEATS_NOTES:
            index, text = SEATS_NOTES[seat]
            turns = list(expected.turns)
            turns[index] = replace(turns[index], comments_after=(Comment(text),))
            expected = replace(expected, turns=tuple(turns))
        sample = ROOT / "samples" / "seats" / f"{seat.lower()}.arb"
        assert sample.read_text(encoding="utf-8") == format_game(expected)


@pytest.mark.slow
def test_the_knowledge_commands_of_the_docs_run_and_say_what_they_say(tmp_path, monkeypatch):
    page = (ROOT / "docs" / "COMMANDS.md").read_text(encoding="utf-8")
    section = page.split("## What each player knows, and merging seats", 1)[1].split("\n## ", 1)[0]
    commands = section.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert [c.split()[1] for c in commands] == ["state", "replay", "merge"]
    monkeypatch.chdir(ROOT)
    runner = CliRunner()
    state = runner.invoke(app, commands[0].split()[1:])
    assert state.exit_code == 0
    assert "hand:    Rp3 ?? ?? ?? ?? ?? ??" in state.stdout and "hand:    Ca2 Cb1 Cb3 Tp2 ?? ?? ??" in state.stdout
    words = commands[1].split()[1:]
    target = words[words.index("--screenshot") + 1]
    words[words.index("--screenshot") + 1] = str(tmp_path / "shot.svg")
    assert runner.invoke(app, words).exit_code == 0
    assert (tmp_path / "shot.svg").read_text(encoding="utf-8") == (ROOT / target).read_text(encoding="utf-8")
    assert f"]({target.removeprefix('docs/')})" in section  # the page is in docs/
    words = commands[2].split()[1:]
    words[words.index("-o") + 1] = str(tmp_path / "table.arb")
    assert runner.invoke(app, words).exit_code == 0
    merged = arbo.read_games(tmp_path / "table.arb")[0]
    game = seats_game()
    assert merged.header == game.header and merged.reveals == game.reveals and merged.result == game.result
    assert [t.notation() for t in merged.turns] == [t.notation() for t in game.turns]
    assert [c.text for c in merged.turns[3].comments_after] == ["Ana: Ma8 early: my maple path ends here"]
    assert "{Ana: Ma8 early: my maple path ends here}" in section


def test_a_missing_or_unreadable_file_is_one_message(tmp_path):
    runner = CliRunner()
    seat = str(ROOT / "samples" / "seats" / "ana.arb")
    missing = runner.invoke(app, ["merge", str(tmp_path / "nothere.arb"), seat])
    assert missing.exit_code == 1 and missing.stderr == f"arbo: {tmp_path / 'nothere.arb'}: no such file\n"
    broken = tmp_path / "broken.arb"
    broken.write_text("---\nplayers: [Ana, Ben]\n---\n1. Ana d d\n", encoding="utf-8")
    bad = runner.invoke(app, ["merge", str(broken), seat])
    assert bad.exit_code == 1 and "broken.arb:" in bad.stderr and "Traceback" not in bad.output
    other = runner.invoke(app, ["merge", seat, str(ROOT / "samples" / "four-players.arb")])
    assert other.exit_code == 1 and "not the same game" in other.stderr
