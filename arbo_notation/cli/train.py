"""`arbo train`: ask the puzzles of a file, the missed ones first, and keep the history."""

from __future__ import annotations

import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Optional

import typer

from arbo_notation.analysis.puzzles import Puzzle, PuzzleError, position_of, read_puzzle, verdict
from arbo_notation.errors import ArboError, NotationErrors
from arbo_notation.learn.history import History, HistoryError, NoHistory, default_path, empty_stats
from arbo_notation.notation.reading.reader import parse
from arbo_notation.present.board import render_game
from arbo_notation.cli.common import EXIT_USAGE, echo_error, echo_text, fail, read_input
from arbo_notation.cli.usage import a_path


def read_puzzles(path: str, player: str | None) -> list[Puzzle]:
    """The puzzles of a file (of ``player``); one message and exit 1 when it holds none."""
    try:
        text, name = read_input(path)
        records = parse(text, name)
        found = [read_puzzle(record) for record in records]
    except NotationErrors as error:
        for single in error.errors:
            echo_error(single)
        raise typer.Exit(1) from None
    except ArboError as error:
        fail(str(error))
    if player is not None:
        found = [p for p in found if p.player == player]
    if not found:
        fail(f"{path} holds no puzzle{f' of {player}' if player else ''}: `arbo puzzles` makes them")
    return found


def _when(moment: float) -> str:
    return datetime.fromtimestamp(moment, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def plain_session(puzzles: list[Puzzle], history: History) -> None:
    """Ask each puzzle due, reading an answer a line from stdin, until they are done or stdin ends."""
    by_id = {p.id: p for p in puzzles}
    order = history.order(by_id, time.time())
    if not order:
        due = history.next_due(by_id)
        echo_text(f"nothing due: the next puzzle is due {_when(due)}" if due else "nothing due")
        return
    right = 0
    asked = 0
    for number, puzzle_id in enumerate(order, 1):
        puzzle = by_id[puzzle_id]
        position = position_of(puzzle.record, puzzle.player, puzzle.draws)
        card = history.card(puzzle_id)
        where = "new" if card is None else f"box {card.box}"
        echo_text(f"Puzzle {number} of {len(order)} ({puzzle.id}, {puzzle.source}; {where})")
        echo_text(render_game(position.game))
        echo_text(puzzle.question)
        while True:
            echo_text("answer> ", nl=False)
            line = sys.stdin.readline()
            if not line:
                echo_text("")
                _summary(asked, right)
                return
            try:
                judged = verdict(puzzle, line, position)
            except ArboError as error:
                echo_text(f"not an answer: {error}")
                continue
            break
        asked += 1
        right += judged.right
        history.record(puzzle.id, judged.answer, judged.right, time.time())
        echo_text(str(judged))
        echo_text("")
    _summary(asked, right)


def _summary(asked: int, right: int) -> None:
    if asked:
        echo_text(f"{right} of {asked} right")


def _warn(message: str) -> None:
    echo_text(f"arbo: {message}", err=True)


def _stats(path: Path, puzzles: list[Puzzle] | None) -> None:
    """Print the progress over the puzzles (None: all the history's), reading the history only."""
    ids = None if puzzles is None else [p.id for p in puzzles]
    try:
        with History(path, create=False, warn=_warn) as history:
            lines = history.stats(ids, time.time()).lines()
    except NoHistory:
        _warn(f"no puzzle history at {path} yet: every puzzle is new")
        lines = empty_stats(len(ids or ())).lines()
    for line in lines:
        echo_text(line)


def train(
    ctx: typer.Context,
    file: Optional[str] = typer.Argument(None, metavar="FILE", help="A puzzle file that `arbo puzzles` wrote."),
    player: Optional[str] = typer.Option(None, "--player", "-p", metavar="PLAYER", help="Only PLAYER's puzzles."),
    plain: bool = typer.Option(False, "--plain", help="No terminal UI: read an answer a line from standard input."),
    db: Optional[str] = typer.Option(
        None,
        "--db",
        metavar="PATH",
        parser=a_path("--db"),
        help="The history file (default $XDG_DATA_HOME/arbo/train.sqlite).",
    ),
    stats: bool = typer.Option(
        False, "--stats", help="Print the progress over FILE's puzzles (or all) and exit; never makes a history."
    ),
) -> None:
    """Ask the puzzles of a file, the missed and due ones first, and keep the history.

    Each puzzle shows the position from the mover's view, their hand with the draws in it, and
    asks the finish: a planting and a discard (Tab completes what is legal). Right or wrong,
    the values of the answer and of the best one follow. Every answer goes into a small SQLite
    file (--db): a puzzle answered right is asked again days later (a Leitner box up), one
    missed next session first. --stats prints attempts, the share right and the boxes.

    Examples:

        arbo train puzzles.arb

        arbo train puzzles.arb --plain < answers.txt

        arbo train puzzles.arb --stats
    """
    if file is None and not stats:  # FILE may be left out with --stats alone; else missing, as a bare command says
        typer.echo(
            f"{ctx.get_usage()}\narbo: missing argument FILE\nTry '{ctx.command_path} --help' for help.", err=True
        )
        raise typer.Exit(EXIT_USAGE)
    puzzles = read_puzzles(file, player) if file is not None else None
    path = Path(db) if db is not None else default_path()
    try:
        if stats:
            _stats(path, puzzles)
            return
        assert puzzles is not None, "FILE is given unless --stats"
        with History(path, warn=_warn) as history:
            if plain:
                plain_session(puzzles, history)
                return
            # deferred: textual (~150 ms) is loaded for the terminal UI alone
            from arbo_notation.tui.train import run_train

            run_train(puzzles, history)
    except HistoryError as error:
        fail(str(error))
    except PuzzleError as error:
        fail(str(error))


def register(app: typer.Typer) -> None:
    app.command("train")(train)
