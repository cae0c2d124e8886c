"""`arbo ratings`: the players' OpenSkill ratings over a collection's finished games, as a leaderboard."""

from __future__ import annotations

import json
from typing import List

import typer

from arbo_notation.cli.common import (
    plural,
    text_table,
    EXIT_INVALID,
    EXIT_OK,
    corpus_progress,
    echo_text,
    say_skipped,
)
from arbo_notation.cli.usage import one_of
from arbo_notation.collection.ratings import CollectionRatings, Rating, rate_collection
from arbo_notation.runtime.sources import records_under


HELP = """Rate the players of a collection of games: bots and people alike, at tables of two to four.

FILE... are records (.arb) and folders (their .arb files at any depth). Every finished game is rated with OpenSkill's Plackett-Luce model (the openskill package, with its defaults: a new player is rated 25 with an uncertainty of 25/3), a game at a time in the order of the header's date (games without a date first), then the file's path, then the game's number, whatever the order the files are given in. A player's rank in a game is their place by final score; equal scores share a rank.

A game `arbo match` wrote names each seat's bot in its header's `bots`: such a game rates the bots (as the match's own ratings do), not the seats' names (Ana, Ben...), which every match reuses; --by player rates the names anyway. A game whose header's `forfeited` names a seat (the fallback bot played it for more than half its turns) is counted apart and not rated, as is a game that starts from a position (the header's `position`: a study or a puzzle, no whole game).

The table, best first: each player's rating (mu), its uncertainty (sigma), the conservative rating (mu - 3 sigma: the leaderboard's order, which a player climbs by playing) and the number of games rated. --history adds each player's rating after each of their games.

A game is finished when it has final scores: the engine's, or a result line's when a hand is unknown. An invalid game is named on stderr and not rated, and the exit status is 1; a valid game that is unfinished is counted apart. A game recorded twice (from two seats, say) counts twice: `arbo grep --duplicates` finds them.

Examples:

    arbo ratings club/

    arbo ratings club/ --history

    arbo ratings matches/ --json | jq '.players[0]'
"""


def _not_rated(rated: CollectionRatings) -> list[str]:
    counts = (
        ("invalid", rated.invalid),
        ("unfinished", rated.unfinished),
        ("forfeited", rated.forfeited),
        ("from a position", rated.from_position),
    )
    return [f"{count:,} {what}" for what, count in counts if count]


def summary(rated: CollectionRatings) -> str:
    """The first line: how many games were read, how many of them rated, and whether bots were."""
    line = ", ".join([f"{plural(rated.games, 'game')}: {rated.rated:,} rated", *_not_rated(rated)])
    if rated.by_bot:
        line += f" ({rated.by_bot:,} by the bots of their header's `bots`; --by player rates the seats)"
    return line + "\n"


def nothing_rated(files: list[str], rated: CollectionRatings) -> str:
    """The one message of a collection without a finished game."""
    read = f"{plural(rated.games, 'game')} read" + (f": {', '.join(_not_rated(rated))}" if rated.games else "")
    return f"arbo: no finished game to rate in {', '.join(files)} ({read})"


def leaderboard(ratings: tuple[Rating, ...]) -> str:
    """The players' table, in the order given (best first)."""
    rows = [
        [str(place), r.name, f"{r.mu:.2f}", f"{r.sigma:.2f}", f"{r.ordinal:.2f}", str(r.games)]
        for place, r in enumerate(ratings, 1)
    ]
    return text_table(["#", "player", "rating", "uncertainty", "conservative", "games"], rows, "rlrrrr")


def history(rating: Rating) -> str:
    """A player's rating after each of their games."""
    rows = [
        [
            str(step.game) if step.game else "-",
            (step.game.date if step.game else None) or "-",
            str(step.rank),
            f"{step.mu:.2f}",
            f"{step.sigma:.2f}",
        ]
        for step in rating.history
    ]
    return f"{rating.name}\n" + text_table(["game", "date", "rank", "rating", "uncertainty"], rows, "llrrr")


def render(rated: CollectionRatings, with_history: bool = False) -> str:
    """The summary line, the leaderboard and, on request, each player's history, as text."""
    parts = [summary(rated), leaderboard(rated.ratings)]  # a blank line between them, as `arbo stats` prints
    if with_history:
        parts += [history(rating) for rating in rated.ratings]
    return "\n".join(parts)


def register(app: typer.Typer) -> None:
    @app.command("ratings", help=HELP, short_help="Rate the players of a collection (OpenSkill).")
    def ratings(
        files: List[str] = typer.Argument(..., metavar="FILE|DIR...", help="Records (.arb) and folders of them."),
        as_json: bool = typer.Option(False, "--json", help="Print the ratings as JSON."),
        with_history: bool = typer.Option(False, "--history", help="Each player's rating after each of their games."),
        by: str = typer.Option(
            "bot",
            "--by",
            metavar="bot|player",
            parser=one_of("--by", ("bot", "player"), str),
            help="Rate the bots a game's header names in `bots` (arbo match's records), or the players' names.",
        ),
    ) -> None:

        def say(text: str) -> None:
            echo_text(text, err=True)

        with corpus_progress(records_under(files, keep_empty=False, skipped=say_skipped), "rating") as advance:
            rated = rate_collection(files, by=by, say=say, advance=advance)
        if as_json:
            typer.echo(json.dumps(rated.to_json(with_history), indent=2, ensure_ascii=False))
        elif rated.ratings:
            echo_text(render(rated, with_history), nl=False)  # names are the records': shown made visible
        if not rated.ratings and not rated.unreadable:  # a file not read has said so: one message is enough
            echo_text(nothing_rated(files, rated), err=True)
        bad = rated.invalid or rated.unreadable or rated.problems
        raise typer.Exit(EXIT_INVALID if bad else EXIT_OK)
