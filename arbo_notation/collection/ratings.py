"""Players' ratings over a collection's finished games: OpenSkill's Plackett-Luce model, with its
defaults, a game at a time in the order of the header's date, then the file's path, then the
game's number; a player's rank in a game is their place by final score (equal scores share it).

A game without a date counts as played before every dated one: a record without a date is most
often an old one, entered before dates were kept, and the ratings then end on the dated games a
club knows the order of. ``rate`` rates any sequence of results (`arbo match` gives its own).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from arbo_notation.collection.rows import SCHEMA, GameRows, expand_paths, load_files
from arbo_notation.errors import ArboError

if TYPE_CHECKING:
    from openskill.models.weng_lin.plackett_luce import PlackettLuceRating

#: Where each column of a ``games`` row stands.
_COLUMN = {name: index for index, (name, _) in enumerate(SCHEMA["games"])}


@dataclass(frozen=True, slots=True)
class GameRef:
    """Where a rated game stands: its file (as given), its number in the file and its date."""

    file: str
    game: int
    date: str | None = None

    def __str__(self) -> str:
        return f"{self.file} (game {self.game})"

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "game": self.game, "date": self.date}


@dataclass(frozen=True, slots=True)
class Outcome:
    """One finished game as the ratings see it: its players (in seat order) and their final
    scores; ``game`` says where it stands, for the history (None when it stands nowhere)."""

    players: tuple[str, ...]
    scores: tuple[int, ...]
    game: GameRef | None = None

    @property
    def ranks(self) -> tuple[int, ...]:
        """Each player's place by final score, 1 the best; equal scores share a place, and the
        place after them is skipped (30, 30, 20 are ranked 1, 1, 3)."""
        return tuple(1 + sum(other > score for other in self.scores) for score in self.scores)


@dataclass(frozen=True, slots=True)
class Step:
    """A player's rating after one game: the game, their rank in it, mu and sigma."""

    game: GameRef | None
    rank: int
    mu: float
    sigma: float

    def to_json(self) -> dict[str, Any]:
        return {
            "game": None if self.game is None else self.game.to_json(),
            "rank": self.rank,
            "mu": self.mu,
            "sigma": self.sigma,
        }


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating after every game rated: mu (the rating), sigma (its uncertainty), how
    many games it counts, and its history (a Step a game, in the order rated)."""

    name: str
    mu: float
    sigma: float
    games: int
    history: tuple[Step, ...] = ()

    @property
    def ordinal(self) -> float:
        """The conservative rating, mu - 3 sigma (OpenSkill's ordinal): the leaderboard's order."""
        return self.mu - 3 * self.sigma

    def to_json(self, history: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {"player": self.name, "mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}
        data["games"] = self.games
        if history:
            data["history"] = [step.to_json() for step in self.history]
        return data


def _checked(outcome: Outcome) -> Outcome:
    if len(outcome.players) < 2 or len(outcome.scores) != len(outcome.players):
        raise ArboError(f"a rated game has two players or more and a score each, not {outcome}")
    if len(set(outcome.players)) != len(outcome.players):
        raise ArboError(f"a player sits twice at a rated game: {', '.join(outcome.players)}")
    return outcome


def rate(outcomes: Iterable[Outcome]) -> tuple[Rating, ...]:
    """The players' ratings after the outcomes, rated in the order given, best first (by the
    conservative rating, then mu, then name). Raises ArboError for an outcome of fewer than two
    players, a player seated twice or a score missing."""
    # deferred: openskill (~28 ms of imports) is loaded only where ratings are computed
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current: dict[str, PlackettLuceRating] = {}
    history: dict[str, list[Step]] = {}
    for outcome in map(_checked, outcomes):
        teams = [[current.get(name) or model.rating(name=name)] for name in outcome.players]
        rated = model.rate(teams, ranks=[float(rank) for rank in outcome.ranks])
        for name, rank, (rating,) in zip(outcome.players, outcome.ranks, rated, strict=True):
            current[name] = rating
            history.setdefault(name, []).append(Step(outcome.game, rank, rating.mu, rating.sigma))
    ratings = [
        Rating(name, rating.mu, rating.sigma, len(history[name]), tuple(history[name]))
        for name, rating in current.items()
    ]
    return tuple(sorted(ratings, key=lambda r: (-r.ordinal, -r.mu, r.name)))


# -- a collection's games ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CollectionRatings:
    """The ratings of a collection, and what of it was not rated: invalid games, valid games
    with no final scores (unfinished, or a hand unknown and no result), files not read."""

    ratings: tuple[Rating, ...]
    rated: int
    invalid: int = 0
    unfinished: int = 0
    unreadable: tuple[str, ...] = ()
    problems: int = 0  # text before a file's first header that is no game
    forfeited: int = 0  # finished games whose header's `forfeited` names a seat (`arbo match`)
    by: str = "bot"  # what was rated where a header's `bots` names each seat's bot: "bot" or "player"
    by_bot: int = 0  # the games rated by their bots' names
    from_position: int = 0  # finished games that start from a position (a study, a puzzle): no whole game

    @property
    def games(self) -> int:
        """Every game read."""
        return self.rated + self.invalid + self.unfinished + self.forfeited + self.from_position

    def to_json(self, history: bool = False) -> dict[str, Any]:
        return {
            "model": "PlackettLuce",  # openskill's, with its defaults (docs/DATA.md)
            "by": self.by,
            "games": self.games,
            "rated": self.rated,
            "rated_by_bot": self.by_bot,
            "invalid": self.invalid,
            "unfinished": self.unfinished,
            "forfeited": self.forfeited,
            "from_position": self.from_position,
            "unreadable": list(self.unreadable),
            "players": [rating.to_json(history) for rating in self.ratings],
        }


def final_scores(rows: GameRows) -> tuple[int, ...] | None:
    """A valid game's final scores in seat order: the engine's when it scored the game, else the
    result line's, else the header's ``result``; None when none gives every player's."""
    game = rows.game
    for column in ("scores", "result"):
        scores = game[_COLUMN[column]]
        if scores is not None and None not in scores:
            return tuple(scores)
    written = dict(game[_COLUMN["header_result"]] or ())
    players = game[_COLUMN["players"]] or ()
    if players and all(written.get(name) is not None for name in players):
        return tuple(written[name] for name in players)
    return None


def match_keys(rows: GameRows) -> tuple[tuple[str, ...] | None, bool]:
    """What `arbo match` writes in a game's header: each seat's bot in seat order (None unless the
    header's ``bots`` names a different bot, a text, for every player) and whether a seat was
    forfeited (its ``forfeited`` names one: the fallback bot played it, docs/PROTOCOL.md)."""
    extra = rows.game[_COLUMN["extra"]]
    if not extra:
        return None, False
    keys = json.loads(extra)
    players = rows.game[_COLUMN["players"]] or ()
    named = keys.get("bots")
    bots = [named.get(p) for p in players] if isinstance(named, dict) else []
    texts = tuple(bot for bot in bots if isinstance(bot, str) and bot.strip())
    forfeited = keys.get("forfeited")
    whole = bool(texts) and len(texts) == len(players) and len(set(texts)) == len(texts)
    return texts if whole else None, bool(forfeited) and isinstance(forfeited, list)


@dataclass(slots=True)
class _Finished:
    """The sink load_files fills: the finished games' outcomes (each seat named by its bot where
    ``by_bot`` and the header names them), and how many were not rated."""

    by_bot: bool = True
    outcomes: list[Outcome] = field(default_factory=list)
    unfinished: int = 0
    forfeited: int = 0
    rated_by_bot: int = 0
    from_position: int = 0

    def add(self, rows: GameRows) -> None:
        if not rows.valid:
            return  # load_files counts and reports it
        scores = final_scores(rows)
        if scores is None:
            self.unfinished += 1
            return
        if rows.game[_COLUMN["position"]] is not None:
            # a study's end says nothing of a whole game (lichess rates no game from a position)
            self.from_position += 1
            return
        bots, forfeited = match_keys(rows)
        if forfeited:
            self.forfeited += 1
            return
        game = rows.game
        where = GameRef(game[_COLUMN["file"]], rows.number, game[_COLUMN["date"]])
        players = tuple(game[_COLUMN["players"]])
        if self.by_bot and bots is not None:
            players = bots
            self.rated_by_bot += 1
        self.outcomes.append(Outcome(players, scores, where))


def played_order(outcome: Outcome) -> tuple[bool, str, str, int]:
    """An outcome's place in the order the games are rated: by date (undated first), path, number."""
    where = outcome.game
    if where is None:
        return (False, "", "", 0)
    return (where.date is not None, where.date or "", where.file, where.game)


def rate_collection(
    paths: Sequence[str],
    *,
    by: str = "bot",
    say: Callable[[str], None] | None = None,
    advance: Callable[[int], None] | None = None,
) -> CollectionRatings:
    """The ratings of the games of the records and folders given (a folder's .arb files at any
    depth), in the order of their dates, paths and numbers, whatever the order of ``paths``.
    ``by`` "bot": a game whose header's ``bots`` names each seat's bot (`arbo match`'s records)
    rates those bots, as the match rated them; "player": the players' names, always. A game with
    a forfeited seat (the header's ``forfeited``) is counted apart and not rated, as is one that
    starts from a position (the header's ``position``).

    ``say(text)`` hears of each game not rated for being invalid and of each file that cannot be
    read; ``advance(chars)`` of the text read. Never raises for bad input."""
    files = list(dict.fromkeys(expand_paths(paths)))  # a file given twice (itself and its folder) counts once

    def invalid(rows: GameRows) -> None:
        if say is not None:
            say(f"{rows.error} (game {rows.number}, not rated)")

    if by not in ("bot", "player"):
        raise ArboError(f"ratings are by bot or by player, not {by!r}")
    finished = _Finished(by_bot=by == "bot")
    tally = load_files(files, finished, with_turns=False, invalid=invalid, problem=say, advance=advance)
    ratings = rate(sorted(finished.outcomes, key=played_order))
    return CollectionRatings(
        ratings,
        len(finished.outcomes),
        tally.invalid,
        finished.unfinished,
        tuple(tally.unreadable),
        tally.problems,
        finished.forfeited,
        by,
        finished.rated_by_bot,
        finished.from_position,
    )
