"""The replayer: checks parsed records against the rules, turn by turn, and scores finished games.

It joins the notation (records) and the engine (rules). Every finding becomes a located Diagnostic;
a rule error ends the replay of that line of play, and the next game of the file is always checked.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Sequence

from .engine.cards import SPECIES_COUNT_BY_PLAYERS
from .engine.scoring import PlayerPosition, ScoreSheet, score_position, score_totals
from .engine.state import Game, GameConfig, Setup
from .errors import ArboError, Diagnostic, RuleError, Severity
from .notation.plain import PlainGame, PlainTurn
from .notation.record import DrawKind, GameRecord, Header, Pos, Turn, Variation

#: Called after each turn replayed without error: (turn, state after it, depth of variation).
TurnHook = Callable[[Turn, Game, int], None]

#: A line of play named by its way from the main line: ``()`` is the main line, ``((k, j),)`` the
#: variation number ``j`` (0-based) that replaces the main line's turn of index ``k``, and so on.
LinePath = tuple[tuple[int, int], ...]
MAIN: LinePath = ()


@dataclass(frozen=True, slots=True)
class LineError:
    """The first illegal turn of a line: where it stands and what the rules say."""

    index: int  # index of the illegal turn in its line
    number: int  # the turn's number in the game (1-based)
    player: str
    notation: str
    code: str
    message: str

    def __str__(self) -> str:
        return f"turn {self.number} ({self.notation}) is illegal: {self.message}"


@dataclass(frozen=True, slots=True)
class Line:
    """One line of play and its positions: ``states[i]`` is the table after ``i`` of its turns.

    ``states[0]`` of the main line is the setup, and its last state carries the hands revealed at
    scoring; ``states[0]`` of a variation is the table before the turn the variation replaces. A
    line stops at its first illegal turn, whose rule error is ``error``.
    """

    path: LinePath
    turns: tuple[Turn, ...]
    states: tuple[Game, ...]
    start: int  # turns of the game played before states[0]
    error: LineError | None = None
    variation: Variation | None = None  # None for the main line

    @property
    def legal(self) -> int:
        """How many of the line's turns are legal (the last index of ``states``)."""
        return len(self.states) - 1

    @property
    def first(self) -> int:
        """The first index a cursor stops at: a variation starts on its own first turn."""
        return 1 if self.path and self.legal >= 1 else 0

    @property
    def parent(self) -> LinePath | None:
        return self.path[:-1] if self.path else None

    @property
    def branch(self) -> tuple[int, int] | None:
        """(index of the replaced turn in the parent line, variation number), None for the main line."""
        return self.path[-1] if self.path else None


@dataclass(slots=True)
class _LineTrace:
    """A line's positions and first error, gathered while the replayer plays it."""

    path: LinePath
    turns: tuple[Turn, ...]
    start: int
    states: list[Game]
    variation: Variation | None = None
    error: LineError | None = None
    children: list["_LineTrace"] = field(default_factory=list)

    def branch(self, index: int, number: int, variation: Variation, before: Game) -> "_LineTrace":
        child = _LineTrace(self.path + ((index, number),), variation.turns, self.start + index, [before], variation)
        self.children.append(child)
        return child

    def lines(self) -> Iterator[Line]:
        yield Line(self.path, self.turns, tuple(self.states), self.start, self.error, self.variation)
        for child in self.children:
            yield from child.lines()


@dataclass(slots=True)
class GameReplay:
    """What replaying one game found.

    When the replay kept states, ``lines`` holds every line of play (the main line at ``MAIN``,
    then each variation) with its positions and first error. ``final`` is the position after the
    main line, with the hands revealed at scoring once the game is over; when a turn of the main
    line is illegal it is the position before that turn if the replay kept states, else None.
    """

    record: GameRecord
    diagnostics: list[Diagnostic] = field(default_factory=list)
    final: Game | None = None
    sheet: ScoreSheet | None = None
    legal_turns: int = 0  # main-line turns replayed without a rule error
    lines: dict[LinePath, Line] = field(default_factory=dict)

    @property
    def states(self) -> tuple[Game, ...]:
        """The main line's positions (``states[i]``: after ``i`` turns), when the replay kept them."""
        main = self.lines.get(MAIN)
        return main.states if main is not None else ()

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def valid(self) -> bool:
        return not self.errors


class _Reporter:
    """Makes located diagnostics for one game."""

    __slots__ = ("record", "lines", "out")

    def __init__(self, record: GameRecord, lines: Sequence[str] | None, out: list[Diagnostic]) -> None:
        self.record = record
        self.lines = lines
        self.out = out

    def __call__(
        self,
        code: str,
        message: str,
        pos: Pos | None,
        *,
        turn: int | None = None,
        player: str | None = None,
        severity: Severity = Severity.ERROR,
    ) -> None:
        line = pos.line if pos else None
        source = None
        if self.lines is not None and line is not None and 0 < line <= len(self.lines):
            source = self.lines[line - 1]
        self.out.append(
            Diagnostic(
                code=code,
                message=message,
                file=self.record.file,
                line=line,
                column=pos.column if pos else None,
                game=self.record.index,
                turn=turn,
                player=player,
                severity=severity,
                source_line=source,
            )
        )


def new_game(record: GameRecord) -> Game:
    """The game a record's header sets up; RuleError when the header describes no legal table."""
    return game_for(record.header)


def game_for(header: Header) -> Game:
    """The game a header sets up; RuleError when it describes no legal table."""
    config = _config(tuple(header.players), tuple(header.species))
    if header.perspective is not None:
        config.seat(header.perspective)
    setup = Setup(deck=header.deck, hands=dict(header.hands), discards=dict(header.discards))
    return Game(config, setup)


@functools.lru_cache(maxsize=256)
def _config(players: tuple[str, ...], species: tuple[str, ...]) -> GameConfig:
    """A game's configuration, checked once for each table a file sets (a value: it can be shared)."""
    return GameConfig(players, species)


class TurnError(ArboError):
    """A rule error in a recorded turn, with the code and position of the part that broke it."""

    def __init__(self, code: str, message: str, pos: Pos | None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.pos = pos


def play_turn(game: Game, turn: Turn) -> None:
    """Play one recorded turn on the game, or raise TurnError naming the part that is illegal."""
    if game.is_over:
        raise TurnError("game-over", f"the game is over: the deck ran out on turn {game.turn_number}", turn.pos)
    if turn.player != game.current_player:
        if turn.player not in game.players:
            message = f"{turn.player} is not a player of this game ({', '.join(game.players)})"
        else:
            message = f"it is {game.current_player}'s turn, not {turn.player}'s"
        raise TurnError("turn-order", message, turn.pos)
    for draw in turn.draws:
        try:
            if draw.kind is DrawKind.DECK:
                game.draw_from_deck(draw.card)
            elif draw.kind is DrawKind.DISCARD:
                game.draw_from_discard(draw.owner, draw.card)  # type: ignore[arg-type]
            else:
                game.skip_draw()
        except RuleError as error:
            raise TurnError("draw", str(error), draw.pos or turn.pos) from None
    try:
        game.plant(turn.plant.card, turn.plant.coord)
    except RuleError as error:
        raise TurnError("plant", str(error), turn.plant_pos or turn.pos) from None
    try:
        game.discard(turn.discard)
    except RuleError as error:
        raise TurnError("discard", str(error), turn.discard_pos or turn.pos) from None


def replay_line(
    game: Game,
    turns: Iterable[Turn],
    report: _Reporter,
    *,
    depth: int = 0,
    hook: TurnHook | None = None,
    trace: _LineTrace | None = None,
) -> int:
    """Replay turns from the game's position (mutating it), checking each turn's variations from
    the position before that turn. Returns how many turns were legal; stops at the first error.
    With a ``trace``, each line's positions and first error are kept in it."""
    legal = 0
    for turn in turns:
        expected = game.turn_number
        if turn.variations:
            before = game.copy()
            for number, variation in enumerate(turn.variations):  # each from the position before this turn
                child = trace.branch(legal, number, variation, before) if trace is not None else None
                replay_line(before.copy(), variation.turns, report, depth=depth + 1, hook=hook, trace=child)
        if turn.number is not None and turn.number != expected and not game.is_over:
            report(
                "turn-number",
                f"turn {expected} is numbered {turn.number}",
                turn.pos,
                turn=expected,
                player=turn.player,
                severity=Severity.WARNING,
            )
        try:
            play_turn(game, turn)
        except TurnError as error:
            report(error.code, error.message, error.pos, turn=expected, player=turn.player)
            if trace is not None:
                number = trace.start + legal + 1
                trace.error = LineError(legal, number, turn.player, turn.notation(), error.code, error.message)
            return legal
        legal += 1
        if trace is not None:
            trace.states.append(game.copy())
        if hook is not None:
            hook(turn, game, depth)
    return legal


def replay_game(
    record: GameRecord,
    *,
    source_lines: Sequence[str] | None = None,
    keep_states: bool = False,
    hook: TurnHook | None = None,
) -> GameReplay:
    """Replay one game: header, main line and variations, reveals, scoring and the result line.

    With ``keep_states`` the replay keeps every line's positions (``GameReplay.lines``)."""
    outcome = GameReplay(record)
    report = _Reporter(record, source_lines, outcome.diagnostics)
    header = record.header
    try:
        game = new_game(record)
    except RuleError as error:
        report("setup", str(error), header.pos)
        return outcome
    _check_species_count(record, report)
    trace = _LineTrace(MAIN, record.turns, 0, [game.copy()]) if keep_states else None
    outcome.legal_turns = replay_line(game, record.turns, report, hook=hook, trace=trace)
    if outcome.legal_turns == len(record.turns):
        outcome.final = game
        _check_end(record, game, report)
        if game.is_over and not game.hidden_players():
            outcome.sheet = score_game(game)
            _check_result(record, outcome.sheet, report)
    if trace is not None:
        if outcome.final is not None:
            trace.states[-1] = game.copy()  # the end, with the hands revealed at scoring
        else:
            outcome.final = trace.states[-1]  # an illegal turn has left ``game`` half played
        outcome.lines = {line.path: line for line in trace.lines()}
    return outcome


def score_game(game: Game) -> ScoreSheet:
    """The scoring of a finished game whose hands are all known."""
    hands = game.final_hands()
    players = [PlayerPosition(p, game.arboretum(p), hands[p]) for p in game.players]
    return score_position(game.config.species, players)


def _check_species_count(record: GameRecord, report: _Reporter) -> None:
    header = record.header
    wanted = SPECIES_COUNT_BY_PLAYERS.get(len(header.players))
    if wanted is not None and len(header.species) != wanted:
        report(
            "species-count",
            f"a {len(header.players)}-player game uses {wanted} species, this one {len(header.species)}",
            header.pos,
            severity=Severity.WARNING,
        )


def _check_end(record: GameRecord, game: Game, report: _Reporter) -> None:
    """The end of the record against the end of the game: unfinished marks, reveals."""
    result = record.result
    last = record.turns[-1] if record.turns else None
    if not game.is_over:
        if result is not None and not result.unfinished:
            report(
                "unfinished",
                f"the record stops after turn {game.turn_number - 1} with {game.deck_size} cards left "
                "in the deck; mark an unfinished game with 'result *'",
                result.pos,
            )
        elif result is None:
            report(
                "unfinished",
                f"the record stops with {game.deck_size} cards left in the deck; "
                "write 'result *' to mark it unfinished",
                last.pos if last else record.header.pos,
                severity=Severity.WARNING,
            )
        for reveal in record.reveals:
            report("reveal", "hands are revealed only when the game is over", reveal.pos, player=reveal.player)
        return
    seen: set[str] = set()
    for reveal in record.reveals:
        if reveal.player in seen:
            report("reveal", f"{reveal.player}'s hand is revealed twice", reveal.pos, player=reveal.player)
            continue
        seen.add(reveal.player)
        try:
            game.reveal(reveal.player, reveal.cards)
        except RuleError as error:
            report("reveal", str(error), reveal.pos, player=reveal.player)
    hidden = game.hidden_players()
    if hidden and result is not None and not result.unfinished:
        report(
            "reveal",
            f"the result cannot be checked: {', '.join(hidden)} "
            f"{'has' if len(hidden) == 1 else 'have'} cards nobody saw; add a reveal line",
            result.pos,
        )


def _check_result(record: GameRecord, sheet: ScoreSheet, report: _Reporter) -> None:
    totals = sheet.totals()
    claims: list[tuple[str, dict[str, int], Pos | None]] = []
    if record.result is not None and not record.result.unfinished:
        claims.append(("result line", record.result.as_dict(), record.result.pos))
    if record.header.result is not None:
        claims.append(("header's result", dict(record.header.result), record.header.pos))
    for what, claimed, pos in claims:
        for player, score in claimed.items():
            if player not in totals:
                report("result", f"the {what} names {player}, who is not a player", pos)
            elif score != totals[player]:
                report(
                    "result",
                    f"the {what} gives {player} {score}, but {player} scores {totals[player]}"
                    f" ({_score_parts(sheet, player)})",
                    pos,
                    player=player,
                )
        missing = [p for p in totals if p not in claimed]
        if missing:
            report("result", f"the {what} has no score for {', '.join(missing)}", pos)


def _score_parts(sheet: ScoreSheet, player: str) -> str:
    parts = [f"{code} {s.points}" for code, s in sheet.player(player).species.items() if s.points]
    return " + ".join(parts) if parts else "no path scores"


# -- files --------------------------------------------------------------------------------------


def plays_cleanly(plain: PlainGame) -> bool:
    """Whether a plain game replays with no diagnostic at all: every turn legal and numbered
    right, the game over, every hand revealed and agreeing, the result lines true. Anything
    else is for replay_game to report.

    It must ask at least everything replay_game reports on: a new diagnostic there needs its
    condition here too (tests/test_notation_plain.py compares the two on every sample and
    invalid file, and test_check.py on mutated games)."""
    header = plain.header
    wanted = SPECIES_COUNT_BY_PLAYERS.get(len(header.players))
    if wanted is not None and len(header.species) != wanted:
        return False  # a warning to give
    try:
        game = game_for(header)
        _play_cleanly(game, plain.turns, plain.branches)
        if not game.is_over or plain.scores is None:
            return False
        if len({player for player, _ in plain.reveals}) != len(plain.reveals):
            return False
        for player, cards in plain.reveals:
            game.reveal(player, cards)
        if game.hidden_players():
            return False
    except RuleError:
        return False
    hands = game.final_hands()
    players = [PlayerPosition(p, game.arboretum(p), hands[p]) for p in game.players]
    totals = score_totals(game.config.species, players)
    return plain.scores == totals and (header.result is None or dict(header.result) == totals)


def _play_cleanly(game: Game, turns: list[PlainTurn], branches: tuple = ()) -> None:
    """Play a line's turns, each of its variations from the position before the turn it replaces
    (as replay_line); RuleError at the first turn that is illegal or wrongly numbered."""
    done = 0
    for index, lines in branches + ((len(turns), ()),):
        segment = turns[done:index]
        if any(turn[0] is None for turn in segment):  # unnumbered: the number it must have
            first = game.turn_number
            segment = [(first + i, *turn[1:]) if turn[0] is None else turn for i, turn in enumerate(segment)]
        played = game.play_known_turns(segment)
        for turn in segment[played:]:
            game.play_turn(turn)  # type: ignore[arg-type]
        for line_turns, line_branches in lines:
            _play_cleanly(game.copy(), line_turns, line_branches)
        done = index


@dataclass(slots=True)
class FileCheck:
    """The check of one source text: every game's replay (unless not kept), the counts, and the
    diagnostics met on the way, syntax errors included."""

    file: str
    games: list[GameReplay] = field(default_factory=list)
    syntax: list[Diagnostic] = field(default_factory=list)
    invalid_games: int = 0  # games that could not be read at all
    replayed: int = 0
    replayed_valid: int = 0
    findings: list[Diagnostic] = field(default_factory=list)  # the replays' diagnostics

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return sorted(self.syntax + self.findings, key=lambda d: (d.line or 0, d.column or 0))

    @property
    def game_count(self) -> int:
        return self.replayed + self.invalid_games

    @property
    def valid_count(self) -> int:
        return self.replayed_valid

    @property
    def valid(self) -> bool:
        return not self.invalid_games and self.replayed_valid == self.replayed


def check_text(
    text: str, file: str = "<string>", *, keep_states: bool = False, keep_games: bool = True
) -> FileCheck:
    """Read and replay every game of a source text, a game at a time.

    With ``keep_games`` false only the counts and diagnostics are kept, not each game's replay,
    and a game that replays cleanly is checked without building its records (gamecheck.py); any
    other game is read into records and replayed by replay_game.
    """
    from .gamecheck import check_text as check_games_of_text

    return check_games_of_text(text, file, keep_states=keep_states, keep_games=keep_games)


__all__ = [
    "MAIN",
    "FileCheck",
    "GameReplay",
    "Line",
    "LineError",
    "LinePath",
    "TurnError",
    "check_text",
    "new_game",
    "play_turn",
    "replay_game",
    "replay_line",
    "score_game",
]
