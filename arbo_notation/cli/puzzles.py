"""`arbo puzzles`: puzzles from analysed games, the finishes where one answer is clearly best."""

from __future__ import annotations

import os
from typing import List, Optional

import typer

from arbo_notation.analysis.puzzles import Candidate, Puzzle, analysed, candidates, judge_candidate
from arbo_notation.errors import ArboError, Code, NotationErrors
from arbo_notation.game.tree import SetupError, load_tree
from arbo_notation.notation.reading.reader import parse
from arbo_notation.notation.writer import format_games
from arbo_notation.runtime.atomic import write_atomic
from arbo_notation.runtime.sources import records_under
from arbo_notation.cli.bounds import MOST_JOBS
from arbo_notation.cli.common import (
    EXIT_INVALID,
    echo_error,
    echo_text,
    fail,
    judged_in_order,
    read_input,
    refuse_writing_over_input,
    say_skipped,
    say_wrote,
)
from arbo_notation.cli.usage import a_path, whole_number


def puzzles(
    paths: List[str] = typer.Argument(..., metavar="FILE|DIR...", help="Analysed records, and folders of them."),
    out: str = typer.Option(
        ..., "--out", "-o", metavar="OUT", parser=a_path("--out"), help="Write the puzzles to OUT (a .arb file)."
    ),
    player: Optional[str] = typer.Option(None, "--player", "-p", metavar="PLAYER", help="Only PLAYER's turns."),
    seed: str = typer.Option("0", "--seed", "-s", metavar="SEED", help="Seed: the same seed gives the same puzzles."),
    jobs: int = typer.Option(
        0,
        "--jobs",
        "-j",
        metavar="N",
        parser=whole_number("--jobs", 0, MOST_JOBS),
        help="Worker processes: 0 (the default) uses every core this process may run on; -j 1 works in this process. Same output.",
    ),
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
    found: list[Candidate] = []
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
                tree = load_tree(record, text.split("\n"))
            except SetupError as error:
                for diagnostic in error.diagnostics:
                    echo_text(diagnostic.show(), err=True)
                failed = True
                continue
            faults = [d for d in tree.diagnostics if d.code is Code.NOTE]
            if faults:  # a note past the bounds of --budget: the game is not judged at all
                for diagnostic in faults:
                    echo_text(diagnostic.show(), err=True)
                failed = True
                continue
            found += candidates(tree, player=player, seed=seed, source=os.path.basename(name))
    if not any_analysed:
        fail(f"no analysed game in {', '.join(paths)}: run `arbo analyse` on the games first")
    kept: dict[str, Puzzle] = {}
    for puzzle in judged_in_order(judge_candidate, found, jobs, run="puzzle search", label="judging"):
        if puzzle is not None:
            kept.setdefault(puzzle.id, puzzle)
    try:
        write_atomic(out, format_games([p.written() for p in kept.values()]))
    except OSError as error:
        fail(f"{out}: {error.strerror or error}")
    say_wrote(out, f"{len(kept)} puzzle{'s' if len(kept) != 1 else ''}")
    if failed:
        raise typer.Exit(EXIT_INVALID)


def register(app: typer.Typer) -> None:
    app.command("puzzles")(puzzles)
