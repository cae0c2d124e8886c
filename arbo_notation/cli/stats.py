"""`arbo stats`: a collection's table: per player, per seat and per species, counted by DuckDB."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional

import typer

from arbo_notation.collection.rows import GameRows, expand_paths, load_files
from arbo_notation.errors import ArboError
from arbo_notation.cli.common import (
    plural,
    text_table,
    EXIT_INVALID,
    corpus_progress,
    echo_error,
    echo_text,
    say_skipped,
)
from arbo_notation.cli.usage import one_of

if TYPE_CHECKING:
    from arbo_notation.collection.stats import Group, PlayerStats, Stats  # loaded by gather (pyarrow, duckdb)

HELP = """Count a collection of games: per player, per seat and per species.

FILE... are records (.arb) and folders: a folder's .arb files at any depth, or a folder that `arbo convert --to parquet` or `arbo simulate --to parquet` wrote, read as it is.

Per player: games, wins, win rate, mean score and best game; for games `arbo analyse` annotated, the turns judged, the points lost a turn and the accuracy over them (docs/ANALYSIS.md). Per seat: how often each seat wins (seat 1 is the start player). Per species: in how many games it was played, in how many someone scored it, its scoring paths and their mean points. A shared win is a win for each winner.

Only valid, scored games count. An invalid game is named on stderr and the exit status is 1; a valid game that is unfinished or has a hand unknown is counted apart.

DuckDB counts over the tables the Parquet export writes (docs/DATA.md), made in memory; needs arbo's 'data' extra (pyarrow, duckdb).

Examples:

    arbo stats club/

    arbo stats club/ --by event

    arbo stats corpus/ --json | jq '.players[0]'
"""


def _say_invalid(rows: GameRows) -> None:
    echo_text(f"{rows.error} (game {rows.number}, not counted)", err=True)


def _say(text: str) -> None:
    echo_text(text, err=True)


def gather(paths: list[str], by: Optional[str]) -> tuple[list[Stats], int]:
    """The statistics of the paths' games, and the exit status their reading gave."""
    # deferred: pyarrow and duckdb are the optional 'data' extra: imported here, inside the
    # command's ArboError handling, their absence is one message (collection/parquet.py and
    # connect raise ArboError), and `arbo stats --help` or a usage error never needs them
    from arbo_notation.collection.parquet import DuckDBCorpus, is_export
    from arbo_notation.collection.stats import compute, connect, load_export

    connection = connect()
    corpus = DuckDBCorpus(connection, tables=("games", "scores"))
    exports = [Path(p) for p in paths if p != "-" and Path(p).is_dir() and is_export(Path(p))]
    records = expand_paths([p for p in paths if Path(p) not in exports or p == "-"], skipped=say_skipped)
    with corpus_progress(records, "counting") as advance:
        tally = load_files(records, corpus, with_turns=False, invalid=_say_invalid, problem=_say, advance=advance)
    corpus.close()
    status = EXIT_INVALID if tally.invalid or tally.unreadable or tally.problems else 0
    for folder in exports:
        invalid = load_export(connection, folder)
        if invalid:
            status = EXIT_INVALID
            echo_text(
                f"{folder}: {invalid} invalid game{'' if invalid == 1 else 's'} (valid = false), not counted", err=True
            )
    return compute(connection, by), status


def _percent(rate: float) -> str:
    return f"{rate * 100:.1f}%"


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _judged(player: PlayerStats) -> list[str]:
    """A player's turns judged, points lost a turn and accuracy (dashes when none is judged)."""
    if not player["judged"]:
        return ["0", "-", "-"]
    return [str(player["judged"]), f"{player['mean_points_lost']:.2f}", f"{player['accuracy']:.1f}%"]


def render(stats: Stats, title: str | None = None) -> str:
    """One group's tables as text."""
    total = stats.games + stats.invalid + stats.unscored
    line = f"{plural(total, 'game')}: {stats.games:,} counted"
    if stats.invalid:
        line += f", {stats.invalid:,} invalid"
    if stats.unscored:
        line += f", {stats.unscored:,} not scored (unfinished, or a hand unknown)"
    parts = [(f"{title}\n" if title else "") + line + "\n"]
    if stats.players:
        analysed = any(p["judged"] for p in stats.players)  # the engine's columns only then
        parts.append(
            text_table(
                ["player", "games", "wins", "win rate", "mean score"]
                + (["turns judged", "points lost a turn", "accuracy"] if analysed else [])
                + ["best game"],
                [
                    [
                        p["player"],
                        str(p["games"]),
                        str(p["wins"]),
                        _percent(p["win_rate"]),
                        _number(p["mean_score"]),
                        *(_judged(p) if analysed else []),
                        f"{p['best']['score']} ({p['best']['file']}, game {p['best']['game']})",
                    ]
                    for p in stats.players
                ],
                "lrrrr" + ("rrr" if analysed else "") + "l",
            )
        )
    if stats.seats:
        parts.append(
            text_table(
                ["seat", "games", "wins", "win rate"],
                [
                    [
                        f"{s['seat']}{' (start player)' if s['seat'] == 1 else ''}",
                        str(s["games"]),
                        str(s["wins"]),
                        _percent(s["win_rate"]),
                    ]
                    for s in stats.seats
                ],
                "lrrr",
            )
        )
    if stats.species:
        parts.append(
            text_table(
                ["species", "games", "scored", "how often", "paths", "mean points"],
                [
                    [
                        s["species"],
                        str(s["games"]),
                        str(s["scored"]),
                        _percent(s["scored_rate"]),
                        str(s["paths"]),
                        _number(s["mean_points"]),
                    ]
                    for s in stats.species
                ],
                "lrrrrr",
            )
        )
    return "\n".join(parts)


def _group_title(by: str, value: Group) -> str:
    if by == "players":
        return f"{value} players"
    return f"{by}: {value}" if value != "" else f"{by}: (none)"


def register(app: typer.Typer) -> None:
    @app.command("stats", help=HELP, short_help="Count a collection: per player, seat and species.")
    def stats(
        files: List[str] = typer.Argument(
            ..., metavar="FILE|DIR...", help="Records (.arb), folders of them, or Parquet exports."
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the statistics as JSON."),
        by: Optional[str] = typer.Option(
            None,
            "--by",
            metavar="event|date|players",
            parser=one_of("--by", ("event", "date", "players")),
            help="Count each event, each date or each number of players apart.",
        ),
    ) -> None:
        try:
            groups, status = gather(files, by)
        except ArboError as error:
            echo_error(error)
            raise typer.Exit(EXIT_INVALID) from None
        if as_json:
            if by:
                payload = {"by": by, "groups": [group.to_json(grouped=True) for group in groups]}
            else:
                payload = groups[0].to_json()
            typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        else:
            texts = [render(group, _group_title(by, group.value) if by else None) for group in groups]
            echo_text("\n".join(texts), nl=False)  # events, players and files are the records': shown made visible
        raise typer.Exit(status)
