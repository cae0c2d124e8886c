"""`arbo check`, `state`, `fmt` and `convert` through typer's runner, on samples and simulated games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.engine.actions import Draw, Plant
from arbo_notation.engine.cards import Card, Coord
from arbo_notation.notation.reading.reader import parse
from arbo_notation.notation.writer import format_games
from arbo_notation.checking.games import check_text
from arbo_notation.game.replay import TurnError, new_game, play_recorded_turn, replay_game
from arbo_notation.play.simulate import simulate_games

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
GAME_SAMPLES = sorted(SAMPLES.glob("*.arb"))

runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


# -- samples ------------------------------------------------------------------------------------


def test_there_are_six_samples_and_each_kind_is_there():
    names = {p.name for p in GAME_SAMPLES}
    assert names >= {
        "two-player-omniscient.arb",
        "three-player-spectator.arb",
        "four-players.arb",
        "annotated.arb",
        "house-discards.arb",
        "unfinished.arb",
    }


@pytest.mark.parametrize("path", GAME_SAMPLES, ids=lambda p: p.name)
def test_every_sample_checks_clean(path: Path):
    result = run("check", str(path))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "1 game: 1 valid, 0 invalid\n"
    assert "error" not in result.stderr


def test_the_unfinished_sample_is_marked_and_not_scored():
    check = check_text((SAMPLES / "unfinished.arb").read_text(), "unfinished.arb")
    [game] = check.games
    assert game.record.result.unfinished and game.sheet is None and not game.final.is_over


def test_the_spectator_sample_hides_deck_draws_and_resolves_them():
    text = (SAMPLES / "three-player-spectator.arb").read_text()
    [record] = parse(text)
    assert record.header.deck is None and not record.header.hands
    assert any(d == Draw() for t in record.turns for d in t.draws)  # a deck draw naming no card
    replay = replay_game(record)
    assert replay.valid and replay.sheet is not None
    assert replay.sheet.totals() == record.result.as_dict()


# -- rule faults ----------------------------------------------------------------------------------

RULE_FAULTS = {
    "rule-planting-not-adjacent.arb": (
        "plant",
        12,
        20,
        "Ben cannot plant Oa4 at (2,1): none of Ben's trees is adjacent",
    ),
    "rule-draw-from-empty-pile.arb": ("draw", 10, 14, "Ben cannot draw from their own discard pile: it is empty"),
    "rule-card-seen-twice.arb": ("discard", 13, 30, "Ana cannot discard Ma1: it is planted in Ana's arboretum at 0,0"),
    "rule-hand-of-eight.arb": ("setup", 1, 1, "Ana's dealt hand has 8 cards; a hand is 7"),
    "rule-wrong-result.arb": ("result", 18, 1, "the result line gives Ben 6, but Ben scores 4 (Oa 4)"),
    "rule-wrong-reveal.arb": ("reveal", 17, 1, "Ben's revealed hand lacks Wi4, which Ben holds"),
    "rule-wrong-player.arb": ("turn-order", 11, 1, "it is Ana's turn, not Ben's"),
    "rule-turn-after-end.arb": ("game-over", 16, 1, "the game is over: the deck ran out on turn 7"),
    "rule-deck-card-mismatch.arb": ("draw", 14, 8, "Ben cannot draw Oa7 from the deck: its top card is Ma8"),
    "rule-unknown-species.arb": ("discard", 15, 30, "Ana cannot discard Ja2: Ja is not a species in play (Ma, Oa, Wi)"),
    "rule-several-faults.arb": (
        "turn-order",
        11,
        1,
        "it is Ana's turn, not Ben's",
    ),  # and four more: test_every_error.py
}


def test_every_rule_fault_file_is_in_the_table():
    assert {p.name for p in (SAMPLES / "invalid").glob("rule-*.arb")} == set(RULE_FAULTS)


@pytest.mark.parametrize("name", sorted(RULE_FAULTS))
def test_each_rule_fault_gives_its_diagnostic_at_its_line(name: str):
    code, line, column, message = RULE_FAULTS[name]
    path = SAMPLES / "invalid" / name
    result = run("check", str(path))
    assert result.exit_code == 1
    assert f"{path}:{line}:{column}: error: {message} [{code}]" in result.stderr
    assert result.stdout == "1 game: 0 valid, 1 invalid\n"
    assert "Traceback" not in result.output


def test_check_json_reports_the_diagnostic_with_its_location():
    path = SAMPLES / "invalid" / "rule-planting-not-adjacent.arb"
    result = run("check", "--json", str(path))
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert (data["games"], data["valid"], data["invalid"]) == (1, 0, 1)
    errors = [d for d in data["files"][0]["diagnostics"] if d["severity"] == "error"]
    assert errors == [
        {
            "code": "plant",
            "severity": "error",
            "message": "Ben cannot plant Oa4 at (2,1): none of Ben's trees is adjacent",
            "file": str(path),
            "line": 12,
            "column": 20,
            "game": 1,
            "turn": 4,
            "player": "Ben",
        }
    ]


def test_check_shows_the_source_line_and_a_caret():
    result = run("check", str(SAMPLES / "invalid" / "rule-planting-not-adjacent.arb"))
    lines = result.stderr.splitlines()
    at = next(i for i, line in enumerate(lines) if ": error: " in line)
    assert lines[at + 1] == "    4. Ben d:Ma6 d:Oa5 Oa4@2,1 /Ma6"
    assert lines[at + 2] == "    " + " " * 19 + "^"


def test_check_goes_on_after_a_missing_file_and_a_syntax_error(tmp_path: Path):
    bad = tmp_path / "bad.arb"
    bad.write_text("---\nplayers: [Ana, Ben]\nspecies: [Ma, Oa]\n---\n1. Ana d d Ma9@0,0 /Oa5\n")
    good = SAMPLES / "annotated.arb"
    result = run("check", str(tmp_path / "missing.arb"), str(bad), str(good))
    assert result.exit_code == 1
    assert f"{tmp_path / 'missing.arb'}: error: no such file" in result.stderr
    assert f"{bad}:5:" in result.stderr
    assert result.stdout.startswith("2 games: 1 valid, 1 invalid")
    assert "Traceback" not in result.output


def test_check_in_parallel_gives_the_same_summary(tmp_path: Path):
    paths = [str(p) for p in GAME_SAMPLES] + [str(SAMPLES / "invalid" / "rule-wrong-result.arb")]
    serial = run("check", *paths)
    parallel = run("check", "-j", "2", *paths)
    assert (serial.exit_code, serial.stdout) == (parallel.exit_code, parallel.stdout)
    assert serial.stdout == f"{len(paths)} games: {len(paths) - 1} valid, 1 invalid\n"


@pytest.mark.parametrize(
    "jobs, cores, expected", [(1000, 2, 2), (1000, 64, len(GAME_SAMPLES) + 2), (3, 8, 3), (2, 1, None)]
)
def test_workers_are_capped_at_the_cores_and_the_runs_of_games(monkeypatch, jobs, cores, expected):
    """-j 1000 started a thousand processes for eight files (16 times slower than -j 1)."""
    import concurrent.futures

    import arbo_notation.cli.check as check_module

    started = []
    real_pool = concurrent.futures.ProcessPoolExecutor

    def pool(max_workers, **options):
        started.append(max_workers)
        return real_pool(max_workers=max_workers, **options)

    import arbo_notation.checking.files as checkfiles

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", pool)
    monkeypatch.setattr(checkfiles.os, "sched_getaffinity", lambda pid: set(range(cores)))
    paths = [str(p) for p in GAME_SAMPLES] + [str(SAMPLES / "invalid" / "rule-wrong-result.arb")] * 2
    summaries = check_module.check_files(paths, jobs)
    assert started == ([] if expected is None else [expected])  # None: one worker is this process
    assert sum(s.games for s in summaries) == len(paths)


# -- simulate -> check -> score, and the state/score pipe ----------------------------------------------


@pytest.fixture(scope="module")
def simulated(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("sim") / "games.arb"
    result = run("simulate", "--players", "3", "--games", "4", "--seed", "pipe", "--out", "-")
    assert result.exit_code == 0, result.stderr
    path.write_text(result.stdout)
    return path


def test_simulated_games_check_clean_and_score_as_their_result_lines(simulated: Path):
    check = run("check", str(simulated))
    assert (check.exit_code, check.stdout) == (0, "4 games: 4 valid, 0 invalid\n")
    scores = json.loads(run("score", "--json", str(simulated)).stdout)
    records = parse(simulated.read_text())
    assert [s["game"] for s in scores] == [1, 2, 3, 4]
    for sheet, record in zip(scores, records, strict=True):
        assert {p["name"]: p["total"] for p in sheet["players"]} == record.result.as_dict()


@pytest.mark.parametrize("game", [1, 2, 3, 4])
def test_state_json_piped_into_score_equals_scoring_the_record(simulated: Path, game: int):
    state = run("state", str(simulated), "--game", str(game), "--json")
    assert state.exit_code == 0, state.stderr
    piped = run("score", "--json", "-", input=state.stdout)
    direct = run("score", "--json", "--game", str(game), str(simulated))
    assert piped.exit_code == direct.exit_code == 0
    assert json.loads(piped.stdout) == json.loads(direct.stdout)


def test_state_text_draws_grids_hands_and_piles():
    result = run("state", str(SAMPLES / "three-player-spectator.arb"), "--turn", "3")
    assert result.exit_code == 0
    out = result.stdout
    assert "after turn 3" in out and "turn 4: Mia to draw" in out
    assert "??" in out  # unseen cards of a spectator's record
    assert out.count("hand:") == 3 and out.count("discard:") == 3


def test_state_past_the_end_is_a_usage_error():
    result = run("state", str(SAMPLES / "unfinished.arb"), "--turn", "99")
    assert result.exit_code == 2
    assert result.stderr == "arbo: game 1 has 14 turns; there is no position after turn 99\n"
    result = run("state", str(SAMPLES / "unfinished.arb"), "--game", "2")
    assert result.exit_code == 2 and "there is no game 2" in result.stderr


# -- fmt and convert ---------------------------------------------------------------------------------


def test_fmt_check_passes_on_samples_and_names_untidy_files(tmp_path: Path):
    assert run("fmt", "--check", *map(str, GAME_SAMPLES)).exit_code == 0
    untidy = tmp_path / "untidy.arb"
    untidy.write_text((SAMPLES / "annotated.arb").read_text().replace("\n1. Ana", "\n\n1.   Ana"))
    result = run("fmt", "--check", str(untidy))
    assert result.exit_code == 1 and f"would reformat {untidy}" in result.stderr
    result = run("fmt", "--in-place", str(untidy))
    assert result.exit_code == 0
    assert untidy.read_text() == (SAMPLES / "annotated.arb").read_text()


def test_fmt_leaves_a_file_with_a_syntax_error_alone(tmp_path: Path):
    bad = tmp_path / "bad.arb"
    text = "---\nplayers: [Ana, Ben]\nspecies: [Ma, Oa]\n---\n1. Ana d d Ma3@0,0 Oa5\n"
    bad.write_text(text)
    result = run("fmt", "--in-place", str(bad))
    assert result.exit_code == 1 and f"{bad}:5:" in result.stderr
    assert bad.read_text() == text


@pytest.mark.parametrize("form", ["json", "yaml"])
def test_convert_there_and_back_gives_what_fmt_gives(tmp_path: Path, form: str):
    source = SAMPLES / "annotated.arb"
    there = run("convert", str(source), "--to", form)
    assert there.exit_code == 0, there.stderr
    structured = tmp_path / f"annotated.{form}"
    structured.write_text(there.stdout)
    back = run("convert", str(structured), "--to", "arb")
    assert back.exit_code == 0, back.stderr
    assert back.stdout == run("fmt", str(source)).stdout


def test_convert_rejects_a_malformed_structured_file(tmp_path: Path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"games": [')
    result = run("convert", str(broken), "--to", "arb")
    assert result.exit_code == 1 and "broken.json" in result.stderr
    assert "Traceback" not in result.output


# -- one mutated action: accepted (and legal for the engine) or reported where it stands -------------

_GAMES = list(simulate_games(2, 3, "mutations", bots=("random",)))
_TEXTS = [format_games([g]) for g in _GAMES]


def _mutate(turn, what: str, value: int):
    cards = [Card(code, v) for code in ("Bs", "Ca", "Ma", "Oa", "Zz") for v in range(1, 9)]
    card = cards[value % len(cards)]
    if what == "plant-card":
        return f"{turn.plant.card}@", f"{card}@"
    if what == "coord":
        x, y = turn.plant.coord.x + value % 3 - 1, turn.plant.coord.y + (value // 3) % 3 - 1
        return str(turn.plant), str(Plant(turn.plant.card, Coord(x, y)))
    if what == "discard":
        return f"/{turn.discard}", f"/{card}"
    draw = turn.draws[value % 2]
    source = ["d", "Ana", "Ben", "d:" + str(card), "Ana:" + str(card)][value % 5]
    return str(draw), source


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.integers(0, len(_GAMES) - 1),
    index=st.integers(0, 200),
    what=st.sampled_from(["plant-card", "coord", "discard", "draw"]),
    value=st.integers(0, 500),
)
def test_a_mutated_action_is_accepted_or_reported_with_a_location(game, index, what, value):
    record = _GAMES[game]
    turn = record.turns[index % len(record.turns)]
    lines = _TEXTS[game].split("\n")
    number = f"{turn.number}. "
    at = next(i for i, line in enumerate(lines) if line.startswith(number))
    old, new = _mutate(turn, what, value)
    if old not in lines[at]:
        return
    lines[at] = lines[at].replace(old, new, 1)
    text = "\n".join(lines)
    check = check_text(text, "mutated.arb")
    fast = check_text(text, "mutated.arb", keep_games=False)  # the plain-form path of arbo check
    assert (fast.valid, fast.diagnostics) == (check.valid, check.diagnostics)
    if check.valid:
        # accepted: the engine agrees when the main line is played again without the replayer
        [replayed] = parse(text)
        state = new_game(replayed)
        for played in replayed.turns:
            play_recorded_turn(state, played)
        return
    errors = [d for d in check.diagnostics if d.severity.value == "error"]
    assert errors
    for diagnostic in errors:
        assert diagnostic.line is not None and diagnostic.column is not None
        assert diagnostic.file == "mutated.arb"
        assert diagnostic.message


def test_turn_error_is_the_replayers_own_error_type():
    record = _GAMES[0]
    state = new_game(record)
    with pytest.raises(TurnError) as caught:
        play_recorded_turn(state, record.turns[1])  # Ben's turn played first
    assert caught.value.code == "turn-order"


def test_score_of_a_record_without_a_finished_game_fails_with_a_reason():
    result = run("score", str(SAMPLES / "unfinished.arb"))
    assert result.exit_code == 1
    assert "game 1 is not finished: nothing to score" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("name", ["three-player-spectator.arb", "four-players.arb", "house-discards.arb"])
def test_the_end_position_of_a_partial_record_includes_the_revealed_hands(name: str):
    path = str(SAMPLES / name)
    state = run("state", path, "--json")
    assert state.exit_code == 0, state.stderr
    assert all("hidden" not in player for player in json.loads(state.stdout)["players"])
    piped = run("score", "--json", "-", input=state.stdout)
    assert json.loads(piped.stdout) == json.loads(run("score", "--json", path).stdout)


def test_check_files_with_a_progress_bar_finds_the_same(tmp_path: Path, capsys):
    from arbo_notation.cli.check import PROGRESS_FROM, check_files

    paths = []
    for i in range(PROGRESS_FROM):
        path = tmp_path / f"g{i}.arb"
        path.write_text((SAMPLES / ("annotated.arb" if i % 2 else "invalid/rule-wrong-result.arb")).read_text())
        paths.append(str(path))
    quiet = check_files(paths, 1)
    shown = check_files(paths, 1, progress=True)
    assert [(s.file, s.games, s.valid, s.diagnostics) for s in quiet] == [
        (s.file, s.games, s.valid, s.diagnostics) for s in shown
    ]
    assert [s.valid for s in shown] == [0, 1] * (PROGRESS_FROM // 2)
    assert "checking" in capsys.readouterr().err


# -- numbers longer than Python reads (int() stops at sys.get_int_max_str_digits()) ------------------

_LONG = "9" * 5000


def _with_long_number(where: str) -> str:
    text = _TEXTS[0]
    if where == "turn number":
        return text.replace("\n1. Ana", f"\n{_LONG}. Ana", 1)
    if where == "coordinate":
        return text.replace("@0,0", f"@{_LONG},0", 1)
    head, _, _ = text.rpartition("result ")
    return head + f"result Ana {_LONG}, Ben 0\n"


_BOUND_MESSAGES = {
    "turn number": "a turn number has at most 4 digits, found '9999",
    "coordinate": "a coordinate is a whole number from -999 to 999, found '9999",
    "score": "Ana's score has at most 4 digits (0 to 9999), found '9999",
}


@pytest.mark.parametrize("where", ["turn number", "coordinate", "score"])
def test_a_number_too_long_to_read_is_a_located_syntax_error(tmp_path: Path, where: str):
    path = tmp_path / "long.arb"
    path.write_text(_with_long_number(where), encoding="utf-8")
    for jobs in ("1", "2"):
        result = run("check", str(path), "-j", jobs)
        assert result.exit_code == 1, result.output
        assert "Traceback" not in result.output
        assert _BOUND_MESSAGES[where] in result.output
        assert f"{path}:" in result.output


@pytest.mark.parametrize("suffix", ["json", "yaml"])
def test_a_position_or_structured_record_with_a_number_too_long_fails_cleanly(tmp_path: Path, suffix: str):
    position = tmp_path / f"long.{suffix}"
    trees = f"[[{_LONG}, 0, Ca1]]"
    position.write_text(
        '{"species": ["Ca"], "players": [{"name": "Ana", "trees": %s, "hand": []}]}' % trees
        if suffix == "json"
        else f"species: [Ca]\nplayers:\n  - name: Ana\n    trees: {trees}\n    hand: []\n",
        encoding="utf-8",
    )
    result = run("score", str(position))
    assert result.exit_code == 1 and "Traceback" not in result.output
    if suffix == "json":
        assert "the JSON cannot be read" in result.output
    else:  # located, and the number cut short
        assert f"at line 4, column 14: YAML cannot read '{'9' * 30}... (5000 characters)' as !!int" in result.output
    records = tmp_path / f"games.{suffix}"
    records.write_text(
        f'[{{"header": {{"players": ["Ana", "Ben"], "species": ["Ca"]}}, "turns": [{{"number": {_LONG}}}]}}]',
        encoding="utf-8",
    )
    result = run("convert", str(records), "--to", "arb")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "not valid" in result.output


def test_check_of_a_folder_reads_the_records_under_it_sorted(tmp_path: Path):
    root = Path(__file__).resolve().parents[2] / "samples"
    (tmp_path / "b" / "deeper").mkdir(parents=True)
    (tmp_path / ".hidden").mkdir()
    (tmp_path / "b" / "deeper" / "two.arb").write_text((root / "two-player-omniscient.arb").read_text())
    (tmp_path / "a.arb").write_text((root / "annotated.arb").read_text())
    (tmp_path / "notes.txt").write_text("not a record")
    (tmp_path / ".hidden" / "x.arb").write_text("not read")
    result = CliRunner().invoke(app, ["check", "--json", str(tmp_path)])
    assert result.exit_code == 0, result.stderr
    files = [entry["file"] for entry in json.loads(result.stdout)["files"]]
    assert files == [str(tmp_path / "a.arb"), str(tmp_path / "b" / "deeper" / "two.arb")]
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(app, ["check", str(empty)])
    assert result.exit_code == 1 and "is a directory, not a file" in result.stderr


def test_records_under_a_folder_are_its_arb_files_at_any_depth_sorted_and_not_hidden(tmp_path):
    from arbo_notation.runtime.sources import records_under

    for name in ("b/z.arb", "b/a.arb", "a.arb", ".hidden/x.arb", "b/.y.arb", "b/notes.txt", "c/d/e.arb"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    root = str(tmp_path)
    found = records_under([root, "-", str(tmp_path / "empty")])
    assert found == [
        f"{root}/a.arb",
        f"{root}/b/a.arb",
        f"{root}/b/z.arb",
        f"{root}/c/d/e.arb",
        "-",
        str(tmp_path / "empty"),
    ]
    assert records_under([str(tmp_path / "empty")], keep_empty=False) == []
