"""A collection's statistics, counted by DuckDB over the tables the Parquet export writes (in
memory, no server): per player (and, for analysed games, their points lost and accuracy), per seat (the start
player's win rate) and per species.

Only valid, scored games count (``valid`` and ``scores`` not null); the others are counted apart.
A shared win is a win for each of its winners.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from arbo_notation.analysis.accuracy import Accuracy
from arbo_notation.collection.parquet import export_tables, names_itself, part_batches, schema_version_of
from arbo_notation.collection.rows import NEEDS_DATA_EXTRA, SCHEMA_VERSION
from arbo_notation.errors import ArboError

if TYPE_CHECKING:
    from duckdb import DuckDBPyConnection

#: What --by groups the games by: the SQL of the group's value, over the table ``games``.
GROUPINGS = {
    "event": "coalesce(event, '')",
    "date": "coalesce(date, '')",
    "players": "len(players)",
}

_COUNTED = "SELECT *, {group} AS grouped FROM games WHERE valid AND scores IS NOT NULL"

_OVERVIEW = """
SELECT {group} AS grouped,
       count(*) FILTER (valid AND scores IS NOT NULL) AS counted,
       count(*) FILTER (NOT valid) AS invalid,
       count(*) FILTER (valid AND scores IS NULL) AS unscored
FROM games GROUP BY ALL ORDER BY grouped
"""

_PLAYERS = """
WITH counted AS ({counted}),
seated AS (
    SELECT grouped, file, game, winners, unnest(players) AS player, unnest(scores) AS score,
           unnest(judged) AS judged, unnest(points_lost) AS points_lost, unnest(accuracy) AS accuracy
    FROM counted
)
SELECT grouped, player, count(*) AS games,
       count(*) FILTER (list_contains(winners, player)) AS wins,
       avg(score) AS mean_score, max(score) AS best_score,
       first(file ORDER BY score DESC, file, game) AS best_file,
       first(game ORDER BY score DESC, file, game) AS best_game,
       coalesce(sum(judged), 0) AS judged, coalesce(sum(points_lost), 0) AS points_lost,
       coalesce(sum(accuracy * judged) FILTER (judged > 0), 0) AS accuracy_total
FROM seated GROUP BY ALL
ORDER BY grouped, wins DESC, wins / games DESC, mean_score DESC, player
"""

_SEATS = """
WITH counted AS ({counted}),
seated AS (
    SELECT grouped, winners, unnest(players) AS player, generate_subscripts(players, 1) AS seat FROM counted
)
SELECT grouped, seat, count(*) AS games, count(*) FILTER (list_contains(winners, player)) AS wins
FROM seated GROUP BY ALL ORDER BY grouped, seat
"""

_SPECIES = """
WITH counted AS ({counted}),
played AS (
    SELECT counted.grouped, scores.file, scores.game, scores.species, scores.points
    FROM scores JOIN counted ON scores.file = counted.file AND scores.game = counted.game
)
SELECT grouped, species,
       count(DISTINCT (file, game)) AS games,
       count(DISTINCT (file, game)) FILTER (points > 0) AS scored,
       count(*) FILTER (points > 0) AS paths,
       avg(points) FILTER (points > 0) AS mean_points
FROM played GROUP BY ALL
ORDER BY grouped, scored / games DESC, mean_points DESC NULLS LAST, species
"""


#: A group's value: its event or date (text, '' for none), or its number of players; None without --by.
Group = str | int | None


class BestGame(TypedDict):
    score: int
    file: str
    game: int


class PlayerStats(TypedDict):
    """A player's line (its JSON object in `arbo stats --json`)."""

    player: str
    games: int
    wins: int
    win_rate: float
    mean_score: float | None
    best: BestGame
    judged: int  # turns judged by the analysis
    mean_points_lost: float | None  # None: no turn judged
    accuracy: float | None


class SeatStats(TypedDict):
    seat: int  # 1: the start player
    games: int
    wins: int
    win_rate: float


class SpeciesStats(TypedDict):
    species: str
    games: int  # games it was in play
    scored: int  # games someone scored it
    scored_rate: float
    paths: int  # paths scored
    mean_points: float | None  # of a path scored; None: none scored


@dataclass(slots=True)
class Stats:
    """The statistics of one group of games (all of them, without --by)."""

    value: Group  # the group's event, date or number of players; None without --by
    games: int = 0  # counted: valid and scored
    invalid: int = 0
    unscored: int = 0  # valid, but unfinished or with a hand unknown
    players: list[PlayerStats] = field(default_factory=list)
    seats: list[SeatStats] = field(default_factory=list)
    species: list[SpeciesStats] = field(default_factory=list)

    def to_json(self, grouped: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {"group": self.value} if grouped else {}
        data.update(
            games=self.games,
            invalid=self.invalid,
            unscored=self.unscored,
            players=self.players,
            seats=self.seats,
            species=self.species,
        )
        return data


def connect() -> DuckDBPyConnection:
    """A new DuckDB database in memory (ArboError when duckdb is not installed)."""
    try:
        import duckdb
    except ImportError:
        raise ArboError(NEEDS_DATA_EXTRA.format(module="duckdb")) from None
    return duckdb.connect(":memory:")


def load_export(connection: DuckDBPyConnection, folder: Path) -> int:
    """Add the games and scores of an export's folder to the tables (made by DuckDBCorpus); how
    many of its games are invalid. DuckDB reads the list of its part files, or pyarrow does when
    a path holds a character DuckDB would take for a pattern (a folder's name is a name, never a
    pattern). ArboError for an export that is not whole (a table missing, a part cut short) or
    of another schema version."""
    import duckdb

    parts = export_tables(folder, ("games", "scores"))
    versions = {schema_version_of(part) for table in parts.values() for part in table}  # a part cut short: here
    if versions != {str(SCHEMA_VERSION)}:
        shown = ", ".join(sorted(str(version) for version in versions))
        raise ArboError(
            f"{folder}: tables of schema version {shown}; this arbo reads version "
            f"{SCHEMA_VERSION}: export the records again"
        )
    invalid = "SELECT count(*) FROM games WHERE NOT valid"
    before = connection.execute(invalid).fetchall()[0][0]
    insert = "INSERT INTO {table} BY NAME SELECT * FROM {source}"
    for table in ("games", "scores"):
        try:
            if all(names_itself(part) for part in parts[table]):  # DuckDB's reader, the fastest
                names = [str(part) for part in parts[table]]
                connection.execute(insert.format(table=table, source="read_parquet(?)"), [names])
                continue
            for part in parts[table]:  # a name DuckDB would take for a pattern: pyarrow reads it
                for batch in part_batches(part):
                    connection.register("arbo_rows", batch)
                    try:
                        connection.execute(insert.format(table=table, source="arbo_rows"))
                    finally:
                        connection.unregister("arbo_rows")
        except duckdb.Error as error:
            raise ArboError(
                f"{folder}: its {table} table cannot be read ({str(error).splitlines()[0]}); export the records again"
            ) from None
    unmatched = "SELECT count(*) FROM scores ANTI JOIN games USING (file, game)"
    if connection.execute(unmatched).fetchall()[0][0]:  # as an export of arbo 0.1 stopped mid-swap left it
        raise ArboError(f"{folder}: its games and scores tables are of two different exports; export the records again")
    return int(connection.execute(invalid).fetchall()[0][0] - before)


def _rate(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def _mean(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def compute(connection: DuckDBPyConnection, by: str | None = None) -> list[Stats]:
    """The statistics of the tables ``games`` and ``scores``: one Stats, or one per group."""
    group = GROUPINGS[by] if by else "NULL"
    counted = _COUNTED.format(group=group)
    groups: dict[Group, Stats] = {}
    for value, games, invalid, unscored in connection.execute(_OVERVIEW.format(group=group)).fetchall():
        groups[value] = Stats(value, games, invalid, unscored)
    if not groups:
        groups[None] = Stats(None)
    for value, player, games, wins, mean, best, best_file, best_game, *judged in _rows(connection, _PLAYERS, counted):
        # the judged turns of all their games, pooled: a game's accuracy times its turns is their sum
        play = Accuracy(player, turns=int(judged[0]), points_lost=judged[1], accuracy_total=judged[2])
        groups[value].players.append(
            {
                "player": player,
                "games": games,
                "wins": wins,
                "win_rate": _rate(wins, games),
                "mean_score": _mean(mean),
                "best": {"score": best, "file": best_file, "game": best_game},
                "judged": play.turns,
                "mean_points_lost": round(play.mean_points_lost, 2) if play.turns else None,
                "accuracy": round(play.accuracy, 1) if play.turns else None,
            }
        )
    for value, seat, games, wins in _rows(connection, _SEATS, counted):
        groups[value].seats.append({"seat": seat, "games": games, "wins": wins, "win_rate": _rate(wins, games)})
    for value, species, games, scored, paths, mean in _rows(connection, _SPECIES, counted):
        groups[value].species.append(
            {
                "species": species,
                "games": games,
                "scored": scored,
                "scored_rate": _rate(scored, games),
                "paths": paths,
                "mean_points": _mean(mean),
            }
        )
    return list(groups.values())


def _rows(connection: DuckDBPyConnection, query: str, counted: str) -> list[tuple[Any, ...]]:
    """The rows of a query over the counted games (DuckDB's values: Any)."""
    return connection.execute(query.format(counted=counted)).fetchall()
