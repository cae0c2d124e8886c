"""The check a game at a time (check/games.py) finds what the grammar's parser and the full replay find.

The reference reads each game with lark's parser and replays it with replay_game; arbo check's
way (the plain reader or the fast reader's moves through the engine's fast path, records and the
full replay only for a game with something to report) must give the same diagnostics, counts
and validity, on records of every kind with one move changed.
"""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.notation.test_notation_scanner import engine_records

from arbo_notation.errors import Diagnostic
from arbo_notation.notation.reading import scanner
from arbo_notation.notation.reading.split import cut_games, normalise
from arbo_notation.notation.reading.scanner import read_turn_lines
from arbo_notation.notation.reading.reader import SourceLines
from arbo_notation.notation.reading.reader import parse
from arbo_notation.notation.reading.syntax import parse_game
from arbo_notation.notation.views import partial_record
from arbo_notation.notation.writer import format_game, format_games
from arbo_notation.checking.games import check_text, plays_cleanly
from arbo_notation.game import replay as replayer
from arbo_notation.game.replay import replay_game
from arbo_notation.play.simulate import simulate_game, simulate_games


def reference(text: str, file: str = "m.arb") -> tuple[int, int, list[Diagnostic]]:
    """(games, valid games, diagnostics in order) by lark's parser and replay_game."""
    text = normalise(text)
    _, chunks = cut_games(text)
    lines = text.split("\n")
    games = valid = 0
    found: list[Diagnostic] = []
    for index, chunk in enumerate(chunks, 1):
        games += 1
        records, errors = parse_game(text[chunk.start : chunk.end], file, chunk.first_line, SourceLines(text))
        if errors:
            found += [Diagnostic.from_notation_error(error, game=index) for error in errors]
            continue
        replay = replay_game(dataclasses.replace(records[0], index=index), source_lines=lines)
        valid += replay.valid
        found += replay.diagnostics
    return games, valid, sorted(found, key=lambda d: (d.line or 0, d.column or 0))


_PARENS = re.compile(r"\{[^}]*\}|;[^\n]*|[()]")


def _in_variation(text: str, start: int, at: int) -> bool:
    depth = 0
    for m in _PARENS.finditer(text, start, at):
        depth += {"(": 1, ")": -1}.get(m.group(), 0)
    return depth > 0


_CARD = re.compile(r"(?<=[ :@/])[A-Z][a-z][1-8](?![0-9])|(?<=@)-?[0-9]+,-?[0-9]+|(?<= )d(?= )|\b[0-9]+\.")
_OTHERS = ["Ma3", "Oa5", "Zz1", "Ca8", "d", "Ana", "0,1", "-1,0", "2,2", "7.", "1."]


@pytest.mark.slow
@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(text=engine_records(), seed=st.integers(0, 10**9), changes=st.integers(0, 2))
def test_arbo_checks_way_finds_what_the_parser_and_the_full_replay_find(text, seed, changes, monkeypatch):
    rng = random.Random(seed)
    body = text.index("\n---", 3) + 4
    for _ in range(changes):  # change a card, a cell, a draw or a number of the body, often in a variation
        spots = list(_CARD.finditer(text, body))
        inside = [m for m in spots if _in_variation(text, body, m.start())]
        spot = rng.choice(inside if inside and rng.random() < 0.6 else spots)
        text = text[: spot.start()] + rng.choice(_OTHERS) + text[spot.end() :]
    text = text + "\n" + text  # two games
    games, valid, diagnostics = reference(text)
    replayed: list = []  # monkeypatch holds across examples: the list is this example's
    monkeypatch.setattr(
        replayer, "replay_game", lambda record, **kw: replayed.append(record) or replay_game(record, **kw)
    )
    for keep_games in (False, True):
        check = check_text(text, "m.arb", keep_games=keep_games)
        assert (check.game_count, check.valid_count) == (games, valid)
        assert check.diagnostics == diagnostics
        if not keep_games and changes == 0:
            assert replayed == []  # every game of the engine's played cleanly by the fast path


ANNOTATED = (Path(__file__).resolve().parents[2] / "samples" / "annotated.arb").read_text()


@pytest.mark.parametrize(
    "old, new",
    [
        ("8. Ben d:Ca7 d:Cb6 Cb3@-2,0 /Ma3)", "8. Ben d:Ca7 d:Cb6 Cb3@-2,0 /Ja8)"),  # a variation's variation
        ("8. Ben d:Cb1 Ana:Ca6 Bs4@1,0", "8. Ben d:Cb1 Ana:Ca6 Bs4@5,5"),  # a cell off the arboretum
        ("13. Ana d:Cb2 d:Dw3 Cb2@-3,-1 /Dw3)", "14. Ana d:Cb2 d:Dw3 Cb2@-3,-1 /Dw3)"),  # a wrong number
        ("13. Ana d:Cb2 d:Dw3 Cb2@-3,-1 /Dw3)", "Ana d:Cb2 d:Dw3 Cb2@-3,-1 /Dw3)"),  # no number: fine
        ("7. Ana Ana:Bs3", "Ana Ana:Bs3"),
    ],
)
def test_a_variation_is_checked_the_fast_way_as_the_full_replay_does(old, new):
    assert old in ANNOTATED
    text = ANNOTATED.replace(old, new, 1)
    games, valid, diagnostics = reference(text)
    check = check_text(text, "m.arb", keep_games=False)
    assert (check.game_count, check.valid_count, check.diagnostics) == (games, valid, diagnostics)
    assert bool(diagnostics) == (new[0] != "A")


# -- the end of a game: plays_cleanly and replay_game share their checks ---------------------------

_FINISHED = format_game(partial_record(simulate_game(("Ana", "Ben"), "end-1"), None))  # reveal lines
_RESULT_LINE = "result Ana 16, Ben 7\n"
_REVEAL_BEN = "reveal Ben Cb6 Dw6 Dw7 Dw8 Ja7 Ma1 Ma8\n"
_LAST_TURN = "18. Ben d d Ja1@-3,-1 /Dw5\n"


def _unfinished(text: str, result: str) -> str:
    """The game stopped before its last turn, with no reveals, and ``result`` as its end."""
    return text[: text.index(_LAST_TURN)] + result


@pytest.mark.parametrize(
    "edit, codes",
    [
        (lambda t: t, []),
        (lambda t: t.replace(_RESULT_LINE, "result *\n"), []),  # a finished game need not claim scores
        (lambda t: t.replace(_RESULT_LINE, ""), []),
        (lambda t: t.replace(_RESULT_LINE, "result Ana 17, Ben 7\n"), ["result"]),
        (lambda t: t.replace(_RESULT_LINE, "result Ben 7, Ana 16\n"), []),
        (lambda t: t.replace(_RESULT_LINE, "result Ana 16, Ben 7, Cleo 3\n"), ["result"]),
        (lambda t: t.replace(_RESULT_LINE, "result Ana 16\n"), ["result"]),
        (lambda t: t.replace("---\n1.", "result: {Ana: 16, Ben: 8}\n---\n1."), ["result"]),
        (lambda t: t.replace("---\n1.", "result: {Ana: 16, Ben: 7}\n---\n1."), []),
        (lambda t: t.replace("---\n1.", "result: {Ana: 16, Ben: 7}\n---\n1.").replace(_RESULT_LINE, "result *\n"), []),
        (lambda t: t.replace(_REVEAL_BEN, ""), ["reveal"]),  # Ben's hand unseen: the result cannot be checked
        (lambda t: t.replace(_REVEAL_BEN, "").replace(_RESULT_LINE, "result *\n"), []),
        (lambda t: t.replace(_REVEAL_BEN, "").replace(_RESULT_LINE, ""), []),
        (lambda t: t.replace(_REVEAL_BEN, _REVEAL_BEN * 2), ["reveal"]),
        (lambda t: t.replace(_REVEAL_BEN, _REVEAL_BEN.replace("Ma8", "Ma4")), ["reveal"]),  # Ma4 is planted
        (lambda t: t.replace(_REVEAL_BEN, _REVEAL_BEN.replace(" Ma8", "")), ["reveal"]),  # a card short
        (lambda t: _unfinished(t, _RESULT_LINE), ["unfinished"]),
        (lambda t: _unfinished(t, "result *\n"), []),
        (lambda t: _unfinished(t, ""), []),
        (lambda t: _unfinished(t, _REVEAL_BEN + "result *\n"), ["reveal"]),
        (lambda t: _unfinished(t, _REVEAL_BEN + _RESULT_LINE), ["unfinished", "reveal"]),
        (lambda t: t.replace("Ma]", "Ma, Oa]"), ["species-count", "unfinished", "reveal", "reveal"]),  # a longer deck
        (lambda t: _unfinished(t.replace("Ma]", "Ma, Oa]"), "result *\n"), ["species-count"]),
        (lambda t: t.replace("\n5. Ana", "\n6. Ana"), ["turn-number"]),
        (lambda t: t.replace("\n5. Ana", "\nAna"), []),  # a number left out is fine
    ],
    ids=lambda value: "" if callable(value) else "+".join(value) or "clean",
)
def test_the_fast_path_says_clean_exactly_when_the_full_replay_finds_nothing(edit, codes):
    text = edit(_FINISHED)
    assert text != _FINISHED or codes == []
    [record] = parse(text)
    replay = replay_game(record)
    assert [d.code for d in replay.diagnostics] == codes
    readers = [read_turn_lines(text), scanner.read_moves(text, lines=False)]
    assert readers[1] is not None
    for moves in readers:
        if moves is not None:
            assert plays_cleanly(moves) == (not replay.diagnostics)


# -- a record is built knowing its place in its file (nothing writes to a frozen record) -----------


@pytest.mark.parametrize("reader", ["fast", "grammar"])
def test_each_record_is_built_with_its_place_in_the_file(reader, monkeypatch):
    from arbo_notation.notation.reading import reader as reading

    if reader == "grammar":  # every game read by lark's parser, as when the fast reader is unsure
        monkeypatch.setattr(scanner, "read_game", lambda *args, **kwargs: None)
    wrong = _FINISHED.replace(_RESULT_LINE, "result Ana 17, Ben 7\n")
    text = "\n".join([_FINISHED, wrong, _FINISHED, wrong])
    outcome = reading.parse_all(text, "four.arb")
    assert [game.index for game in outcome.games] == [1, 2, 3, 4]
    check = check_text(text, "four.arb", keep_games=False)
    assert [(d.game, d.code) for d in check.diagnostics] == [(2, "result"), (4, "result")]
    assert [game.record.index for game in check_text(text, "four.arb").games] == [1, 2, 3, 4]


def test_a_clean_check_with_one_job_loads_neither_the_replayer_nor_the_workers_modules(tmp_path):
    """A check of games that play cleanly takes the fast path alone: the score sheet, the records
    (their classes, their builder and their reader), the replayer, the grammar and the modules of a
    check in workers (signal, threading) are loaded only when wanted; so are random (for a deal) and
    datetime (for a date), and the engine's notes (for a text holding one). Measured: the records'
    classes and builder are some 7 ms of a check's start-up, the notes 2 ms (docs/ARCHITECTURE.md, "Start-up and speed")."""
    import subprocess
    import sys

    clean, wrong = tmp_path / "clean.arb", tmp_path / "wrong.arb"
    text = format_games(list(simulate_games(2, 2, "clean")))
    clean.write_text(text, encoding="utf-8")
    wrong.write_text(text.replace("result ", "result Nobody 3, ", 1), encoding="utf-8")
    script = (
        "import sys\nfrom arbo_notation.cli import main\nsys.argv = ['arbo', 'check', '-q', '-j', '1', sys.argv[1]]\n"
        "try:\n    main()\nexcept SystemExit as end:\n    print(end.code, sorted(m for m in "
        "('arbo_notation.engine.scoring', 'arbo_notation.notation.reading.build', 'arbo_notation.notation.model',"
        " 'arbo_notation.notation.reading.reader', 'arbo_notation.game.replay', 'arbo_notation.notation.engine_notes',"
        " 'datetime', 'lark', 'random', 'signal', 'threading') if m in sys.modules))\n"
    )
    found = [
        subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True).stdout.split("\n")[-2]
        for path in (clean, wrong)
    ]
    assert found == [
        "0 []",
        "1 ['arbo_notation.engine.scoring', 'arbo_notation.game.replay', 'arbo_notation.notation.engine_notes',"
        " 'arbo_notation.notation.model', 'arbo_notation.notation.reading.build', 'arbo_notation.notation.reading.reader']",
    ]
