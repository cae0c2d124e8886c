"""`arbo puzzles`: puzzles from analysed games, the finishes where one answer is clearly best."""

from __future__ import annotations

import os
from typing import List, Optional

import typer

from arbo_notation.analysis.puzzles import Puzzle, analysed, find_puzzles
from arbo_notation.errors import ArboError, NotationErrors
from arbo_notation.game.tree import SetupError, load_tree
from arbo_notation.notation.reading.reader import parse
from arbo_notation.notation.writer import format_games
from arbo_notation.runtime.atomic import write_atomic
from arbo_notation.runtime.sources import records_under
from arbo_notation.cli.common import (
    EXIT_INVALID,
    echo_error,
    echo_text,
    fail,
    read_input,
    refuse_writing_over_input,
    say_skipped,
)


def puzzles(
    paths: List[str] = typer.Argument(..., metavar="FILE|DIR...", help="Analysed records, and folders of them."),
    out: str = typer.Option(..., "--out", "-o", metavar="OUT", help="Write the puzzles to OUT (a .arb file)."),
    player: Optional[str] = typer.Option(None, "--player", "-p", metavar="PLAYER", help="Only PLAYER's turns."),
    seed: str = typer.Option("0", "--seed", "-s", metavar="SEED", help="Seed: the same seed gives the same puzzles."),
) -> None:
    """Pick puzzles from analysed games: the turns where one finish is clearly best.

    From each game `arbo analyse` annotated, the turns it marked ? or ?? are judged again at four
    times the analysis's budget; a turn becomes a puzzle when its best finish (the planting and
    the discard, the draws in hand) beats every wrong one by 2 points of expected final margin
    and the finish played by 3 (docs/ANALYSIS.md, "Puzzles"). Each puzzle is a seat record of
    the game up to that turn, from the mover's view, its header's 'puzzle' key holding the
    draws, the answer and the engine's values: `arbo check` reads it, `arbo train` asks it.

    Examples:

        arbo analyse game.arb -o analysed.arb && arbo puzzles analysed.arb -o puzzles.arb

        arbo puzzles club/ -o ana.arb --player Ana
    """
    files = records_under(paths, keep_empty=False, skipped=say_skipped)
    refuse_writing_over_input(out, files)
    found: list[Puzzle] = []
    seen: set[str] = set()
    any_analysed = False
    failed = False
    for path in files:
        try:
            text, name = read_input(path)
            records = parse(text, name)
        except NotationErrors as error:
            for single in error.errors:
                echo_error(single)
            failed = True
            continue
        except ArboError as error:  # missing or unreadable: one message, the others go on
            echo_text(f"arbo: {error}", err=True)
            failed = True
            continue
        for record in records:
            if not analysed(record):
                continue
            any_analysed = True
            try:
                tree = load_tree(record)
            except SetupError as error:
                for diagnostic in error.diagnostics:
                    echo_text(diagnostic.show(), err=True)
                failed = True
                continue
            source = os.path.basename(name)
            for puzzle in find_puzzles(tree, player=player, seed=seed, source=source):
                if puzzle.id not in seen:
                    seen.add(puzzle.id)
                    found.append(puzzle)
    if not any_analysed:
        fail(f"no analysed game in {', '.join(paths)}: run `arbo analyse` on the games first")
    try:
        write_atomic(out, format_games([p.written() for p in found]))
    except OSError as error:
        fail(f"{out}: {error.strerror or error}")
    echo_text(f"arbo: {len(found)} puzzle{'s' if len(found) != 1 else ''} written to {out}", err=True)
    if failed:
        raise typer.Exit(EXIT_INVALID)


def register(app: typer.Typer) -> None:
    app.command("puzzles")(puzzles)
