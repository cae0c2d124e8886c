"""The replayer: checks parsed records against the rules, turn by turn, and scores finished games.

It joins the notation (records) and the engine (rules). Every finding becomes a located Diagnostic.
After an illegal turn the replay goes on where the record's public facts say what happened (a
wrong player's name, a draw naming a card other than the top one: docs/NOTATION.md, "Errors");
elsewhere a rule error ends the replay of that line of play. The next game is always checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Iterable, Iterator, Mapping, Sequence, overload

from arbo_notation.engine.cards import Card
from arbo_notation.engine.scoring import ScoreSheet, score_position
from arbo_notation.engine.totals import PlayerPosition, score_totals
from arbo_notation.engine.state import Game
from arbo_notation.engine.actions import Draw, DrawAction, KnownTurn, Skip, known_draw
from arbo_notation.errors import Code, Diagnostic, RuleError, Severity, TurnError
from arbo_notation.notation.engine_notes import is_engine_comment, note_fault
from arbo_notation.notation.model import Comment, GameRecord, Pos, Turn, Variation
from arbo_notation.game.facts import (
    HEADER,
    RESULT,
    EndFault,
    end_faults,
    game_for,
    result_faults,
    result_line_faults,
    table_faults,
)

#: Called after each turn played (legal, or repaired): (turn, state after it, depth of variation).
TurnHook = Callable[[Turn, Game, int], None]

#: A line of play named by its way from the main line: ``()`` is the main line, ``((k, j),)`` the
#: variation number ``j`` (0-based) that replaces the main line's turn of index ``k``, and so on.
LinePath = tuple[tuple[int, int], ...]
MAIN: LinePath = ()


@dataclass(frozen=True, slots=True)
class LineError:
    """An illegal turn of a line: where it stands and what the rules say. It is the turn where
    the line stops (``Line.error``), or one the replay went on after (``Line.faults``)."""

    index: int  # index of the illegal turn in its line
    number: int  # the turn's number in the game (1-based)
    player: str
    notation: str
    code: Code
    message: str

    def __str__(self) -> str:
        return f"turn {self.number} ({self.notation}) is illegal: {self.message}"


@dataclass(frozen=True, slots=True)
class Line:
    """One line of play and its positions: ``states[i]`` is the table after ``i`` of its turns.

    ``states[0]`` of the main line is the setup, and its last state carries the hands revealed at
    scoring; ``states[0]`` of a variation is the table before the turn the variation replaces. A
    line stops at the first illegal turn the record's facts cannot repair, whose rule error is
    ``error``. An illegal turn they can repair (a wrong player's name, a draw naming a card that
    is not the top one) is played as they say, and its rule errors are in ``faults``.
    """

    path: LinePath
    turns: tuple[Turn, ...]
    states: Sequence[Game]  # a LineStates: each position made when first asked for
    start: int  # turns of the game played before states[0]
    error: LineError | None = None
    variation: Variation | None = None  # None for the main line
    faults: tuple[LineError, ...] = ()  # the repaired turns' rule errors, in order

    @property
    def legal(self) -> int:
        """How many of the line's turns were played (the last index of ``states``): every turn
        before the one where the line stops, repaired ones included."""
        return len(self.states) - 1

    def faults_of(self, index: int) -> tuple[LineError, ...]:
        """The rule errors of the line's turn of that index, when it was repaired and played."""
        return tuple(fault for fault in self.faults if fault.index == index)

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


class LineStates(Sequence[Game]):
    """A line's positions, made when first asked for: ``states[i]`` is the table after ``i`` of
    the line's turns. The replay keeps only the first and the last; any other is played from the
    nearest one made before it, turn by turn as the replay played them (repairs included: the
    play of a recorded turn depends on the position and the turns alone), and kept.

    So a replay pays for no position that nobody looks at, as python-chess's ``read_game``
    keeps moves and makes a node's board when asked. A position is the caller's to read, not to
    change (``Node.position`` gives a copy to keep)."""

    __slots__ = ("_turns", "_made")

    def __init__(self, turns: Sequence[Turn], first: Game, played: int) -> None:
        self._turns = turns
        self._made: list[Game | None] = [first] + [None] * played

    def set_last(self, game: Game) -> None:
        """Keep ``game`` (the caller's no more) as the position after the last turn played."""
        self._made[-1] = game

    def __len__(self) -> int:
        return len(self._made)

    @overload
    def __getitem__(self, index: int) -> Game: ...
    @overload
    def __getitem__(self, index: slice) -> list[Game]: ...
    def __getitem__(self, index: int | slice) -> Game | list[Game]:
        made = self._made
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(made)))]
        if index < 0:
            index += len(made)
        if not 0 <= index < len(made):
            raise IndexError(f"the line has {len(made)} positions; there is none of index {index}")
        found = made[index]
        if found is not None:
            return found
        start = index - 1
        earlier = made[start]
        while earlier is None:
            start -= 1
            earlier = made[start]
        game = earlier.copy()
        turns = self._turns
        for at in range(start, index):
            replay_turn(game, turns[at], turns[at + 1] if at + 1 < len(turns) else None)
            if at + 1 < index and made[at + 1] is None:
                made[at + 1] = game.copy()
        made[index] = game
        return game


@dataclass(slots=True)
class _LineTrace:
    """A line's first position, turns played and rule errors, gathered while the replayer plays it."""

    path: LinePath
    turns: tuple[Turn, ...]
    start: int
    first: Game
    played: int = 0
    last: Game | None = None  # the position after the last turn played, when it is kept
    variation: Variation | None = None
    error: LineError | None = None
    faults: list[LineError] = field(default_factory=list)
    children: list["_LineTrace"] = field(default_factory=list)

    def branch(self, index: int, number: int, variation: Variation, before: Game) -> "_LineTrace":
        child = _LineTrace(
            self.path + ((index, number),), variation.turns, self.start + index, before, variation=variation
        )
        self.children.append(child)
        return child

    def states(self) -> LineStates:
        states = LineStates(self.turns, self.first, self.played)
        if self.last is not None:
            states.set_last(self.last)
        return states

    def lines(self) -> Iterator[Line]:
        yield Line(self.path, self.turns, self.states(), self.start, self.error, self.variation, tuple(self.faults))
        for child in self.children:
            yield from child.lines()


@dataclass(slots=True)
class GameReplay:
    """What replaying one game found.

    When the replay kept states, ``lines`` holds every line of play (the main line at ``MAIN``,
    then each variation) with its positions and rule errors. ``final`` is the position after the
    main line, with the hands revealed at scoring once the game is over; when the main line stops
    at an illegal turn it is the position before that turn if the replay kept states, else None.
    """

    record: GameRecord
    diagnostics: list[Diagnostic] = field(default_factory=list)
    final: Game | None = None
    legal_turns: int = 0  # main-line turns played before the line stops (repaired ones included)
    lines: dict[LinePath, Line] = field(default_factory=dict)
    _table: tuple[tuple[str, ...], tuple[PlayerPosition, ...]] | None = None  # what ``sheet`` scores
    _sheet: ScoreSheet | None = None

    @property
    def sheet(self) -> ScoreSheet | None:
        """The scoring of the finished game, None while it is unfinished or a hand is hidden. It is
        made when first asked for (the replay checks the result from the totals alone)."""
        if self._sheet is None and self._table is not None:
            self._sheet = score_position(*self._table)
        return self._sheet

    @property
    def states(self) -> Sequence[Game]:
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
        code: Code,
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


@dataclass(slots=True)
class TurnFaults:
    """What playing a recorded turn found: the rule errors the record's facts repaired (the turn
    was played as they say) and the one that stops the line (the turn was not played), if any."""

    repaired: list[TurnError] = field(default_factory=list)
    stop: TurnError | None = None

    def __iter__(self) -> Iterator[TurnError]:
        """Every fault, in the order of the turn's parts."""
        found = self.repaired + ([self.stop] if self.stop is not None else [])
        return iter(sorted(found, key=lambda e: e.pos.column if e.pos is not None else 0))


def play_recorded_turn(game: Game, turn: Turn) -> None:
    """Play one recorded turn on the game, or raise TurnError naming the first part that is illegal
    (the turn is then left as far as it got)."""
    stop = replay_turn(game, turn, repair=False).stop
    if stop is not None:
        raise stop


def replay_turn(game: Game, turn: Turn, following: Turn | None = None, *, repair: bool = True) -> TurnFaults:
    """Play one recorded turn on the game, going on past the rule errors whose outcome the record's
    public facts give (docs/NOTATION.md, "Errors"): a turn written with the wrong player's name
    is played by the player whose turn it is, when the next turn of the line (``following``, None
    at the end of the line) names the player after them; a draw naming a card other than the top
    of a discard pile, or of a deck the header gives, draws the top card.

    What only follows from a repaired fault is not a fault of its own: a second draw naming the
    card the first one drew instead (the draws written in the wrong order) draws the top card
    too; a planting or discard that fails on a card the fault leaves in doubt (the card a draw
    named or drew instead, a card of the player the turn named) stops the line with that fault.
    Any other rule error stops the line. With ``repair`` false, the first rule error stops it.
    """
    found = TurnFaults()
    if game.is_over:
        found.stop = TurnError(
            Code.GAME_OVER, f"the game is over: the deck ran out on turn {game.turn_number}", turn.pos
        )
        return found
    doubts: Mapping[Card, TurnError] = _NO_DOUBTS  # card -> the repaired fault that leaves it in doubt
    if turn.player != game.current_player:
        if turn.player not in game.players:
            message = f"{turn.player} is not a player of this game ({', '.join(game.players)})"
        else:
            message = f"it is {game.current_player}'s turn, not {turn.player}'s"
        error = TurnError(Code.TURN_ORDER, message, turn.pos)
        if not (repair and _names_the_next_player(game, following)):
            found.stop = error
            return found
        found.repaired.append(error)
        if turn.player in game.players:
            doubts = dict.fromkeys(game.hand(turn.player).known, error)
    drawn: dict[Card, TurnError] = {}  # card -> the repaired draw that named it or drew it
    for index, draw in enumerate(turn.draws):
        try:  # the three kinds of draw told apart here, not in a helper: this is the replay's hot loop
            if isinstance(draw, Skip):
                game.skip_draw()
            elif draw.owner is None:
                game.draw_from_deck(draw.card)
            else:
                game.draw_from_discard(draw.owner, draw.card)
        except RuleError as rule:
            top = _draws_the_top_instead(game, draw) if repair else None
            named = draw.card if isinstance(draw, Draw) else None
            if top is None or named is None:  # (a draw naming no card has no top drawn instead: top is None)
                found.stop = TurnError(Code.DRAW, _draw_message(game, draw, rule), _draw_at(turn, index))
                return found
            cause = drawn.get(named)
            if cause is None:  # else the draws are only written in the wrong order
                cause = TurnError(Code.DRAW, _draw_message(game, draw, rule), _draw_at(turn, index))
                found.repaired.append(cause)
            drawn[named] = drawn[top] = cause
    if drawn:
        doubts = {**doubts, **drawn}
    try:
        game.plant(turn.plant.card, turn.plant.coord)
    except RuleError as rule:
        return _stopped(
            found, game, doubts, turn.plant.card, TurnError(Code.PLANT, str(rule), turn.plant_pos or turn.pos)
        )
    try:
        game.discard(turn.discard)
    except RuleError as rule:
        return _stopped(
            found, game, doubts, turn.discard, TurnError(Code.DISCARD, str(rule), turn.discard_pos or turn.pos)
        )
    return found


_NO_DOUBTS: Mapping[Card, TurnError] = MappingProxyType({})


def _stopped(
    found: TurnFaults, game: Game, doubts: Mapping[Card, TurnError], card: Card, error: TurnError
) -> TurnFaults:
    """The turn stops at ``error``, about ``card``; when a repaired fault left the card in doubt
    (and the player does not hold it), the stop is that fault's."""
    cause = doubts.get(card)
    if cause is not None and card not in game.hand(game.current_player).known:
        found.repaired.remove(cause)
        error = cause
    found.stop = error
    return found


def _names_the_next_player(game: Game, following: Turn | None) -> bool:
    """Whether the next turn bears out that only the name of this one is wrong (and not that a
    turn is missing or one too many): it names the player after the one whose turn it is."""
    if following is None:
        return True
    players = game.players
    return following.player == players[(players.index(game.current_player) + 1) % len(players)]


def _draws_the_top_instead(game: Game, draw: DrawAction) -> Card | None:
    """For a draw naming a card that is not the top of its pile (or of a deck the header gives):
    draw the top card and return it. None, drawing nothing, for any other illegal draw."""
    if not isinstance(draw, Draw) or draw.card is None:
        return None
    if draw.owner is not None:
        if draw.owner not in game.players or not game.discard_pile(draw.owner):
            return None
        return game.draw_from_discard(draw.owner)
    if game.deck_known and game.deck_size:
        return game.draw_from_deck()
    return None


def _draw_at(turn: Turn, index: int) -> Pos | None:
    """Where a turn's draw ``index`` is written, or the turn (a record made by hand may hold
    another number of draws than two, which the rules refuse)."""
    return (turn.draw_pos(index) if index < 2 else None) or turn.pos


def _draw_message(game: Game, draw: DrawAction, error: RuleError) -> str:
    """The rules' word on an illegal draw; for a pile of 'dd', who is no player, the likely slip."""
    message = str(error)
    if isinstance(draw, Draw) and draw.owner == "dd" and draw.owner not in game.players:
        message += "; 'dd' is read as a player's name: two draws from the deck are written apart, 'd d'"
    return message


def replay_line(
    game: Game,
    turns: Sequence[Turn],
    report: _Reporter,
    *,
    depth: int = 0,
    hook: TurnHook | None = None,
    trace: _LineTrace | None = None,
) -> int:
    """Replay turns from the game's position (mutating it), checking each turn's variations from
    the position before that turn. Returns how many turns were played: it goes on past a turn
    whose faults the record's facts repair (see replay_turn), and stops at any other rule error.
    With a ``trace``, each line's positions and rule errors are kept in it.

    The turns that are plainly legal, with no variations and no number to warn about, go through
    the engine's fast path (Game.play_known_turns) in runs; any other turn, and every turn when a
    ``hook`` wants each position, is played here (tests/game/test_replay_fast.py holds the two equal)."""
    played = 0
    count = len(turns)
    fast_until = 0  # the turns before this index were played by the fast path
    for index, turn in enumerate(turns):
        if index < fast_until:
            continue
        if hook is None and not turn.variations:
            ran = game.play_known_turns(_plain_turns(turns, index, game.turn_number))
            if ran:
                played += ran
                if trace is not None:
                    trace.played = played
                fast_until = index + ran
                continue
        expected = game.turn_number
        if turn.variations:
            before = game.copy()
            for number, variation in enumerate(turn.variations):  # each from the position before this turn
                child = trace.branch(played, number, variation, before) if trace is not None else None
                game_of_line = before.copy()
                replay_line(game_of_line, variation.turns, report, depth=depth + 1, hook=hook, trace=child)
                if child is not None and child.error is None:
                    child.last = game_of_line
        if turn.number is not None and turn.number != expected and not game.is_over:
            report(
                Code.TURN_NUMBER,
                f"turn {expected} is numbered {turn.number}",
                turn.pos,
                turn=expected,
                player=turn.player,
                severity=Severity.WARNING,
            )
        found = replay_turn(game, turn, turns[index + 1] if index + 1 < count else None)
        if found.repaired or found.stop is not None:
            for error in found:
                report(error.code, error.message, error.pos, turn=expected, player=turn.player)
            if trace is not None:
                number = trace.start + played + 1
                if found.stop is not None:
                    stop = found.stop
                    trace.error = LineError(played, number, turn.player, turn.notation(), stop.code, stop.message)
                else:
                    trace.faults += [
                        LineError(played, number, turn.player, turn.notation(), e.code, e.message)
                        for e in found.repaired
                    ]
            if found.stop is not None:
                return played
        played += 1
        if trace is not None:
            trace.played = played
        if hook is not None:
            hook(turn, game, depth)
    return played


def _plain_turns(turns: Sequence[Turn], index: int, number: int) -> Iterator[KnownTurn]:
    """The turns from ``index`` as the engine's fast path takes them, while each one has no
    variations and is numbered as it should be (``number``: the first one's), or not numbered.
    Made one at a time: the fast path stops at the first turn it cannot play."""
    for at in range(index, len(turns)):
        turn = turns[at]
        draws = turn.draws
        if turn.variations or len(draws) != 2 or (turn.number is not None and turn.number != number):
            return
        first, second = known_draw(draws[0]), known_draw(draws[1])
        if first is None or second is None:  # a skipped draw: replay_turn plays it
            return
        plant = turn.plant
        yield turn.number, turn.player, first, second, plant.card, plant.coord, turn.discard
        number += 1


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
        report(Code.SETUP, str(error), header.pos)
        return outcome
    _report_faults(record, table_faults(header), report)
    trace = _LineTrace(MAIN, record.turns, _turns_before(record, game), game.copy()) if keep_states else None
    outcome.legal_turns = replay_line(game, record.turns, report, hook=hook, trace=trace)
    if record.result is not None and not record.result.unfinished:
        _report_faults(record, result_line_faults(header.players, record.result.scores), report)
    if outcome.legal_turns == len(record.turns):
        outcome.final = game
        result = record.result
        claimed = result.as_dict() if result is not None and not result.unfinished else None
        reveals = [(reveal.player, reveal.cards) for reveal in record.reveals]
        _report_faults(record, end_faults(game, reveals, claimed), report)
        if game.is_over and not game.hidden_players():
            table = outcome._table = _end_table(game)
            totals = score_totals(*table)

            def explain(player: str) -> str:
                sheet = outcome.sheet
                assert sheet is not None, "made from the end table, set above"
                return score_parts(sheet, player)

            _report_faults(record, result_faults(totals, claimed, header.result, explain), report)
    _report_note_faults(record.turns, report)
    if trace is not None:
        if outcome.final is not None:
            trace.last = game.copy()  # the end, with the hands revealed at scoring
        outcome.lines = {line.path: line for line in trace.lines()}
        if outcome.final is None:  # an illegal turn has left ``game`` half played
            outcome.final = outcome.lines[MAIN].states[-1]
    return outcome


def _turns_before(record: GameRecord, first: Game) -> int:
    """How many turns of the game come before the record's first: none after a deal; after a
    position, those before its turn (and the turn itself, once the game is over)."""
    if record.header.position is None:
        return 0
    return first.turn_number - (not first.is_over)


def _report_note_faults(turns: Sequence[Turn], report: _Reporter) -> None:
    """The engine's notes of a line and its variations whose numbers are past their bounds, each
    where its comment stands (else where its turn does)."""
    for turn in turns:
        for comment in turn.comments_before + turn.comments_after:
            if is_engine_comment(comment):
                fault = note_fault(comment.text)
                if fault is not None:
                    report(
                        Code.NOTE,
                        fault,
                        _comment_pos(report.lines, turn, comment),
                        turn=turn.number,
                        player=turn.player,
                    )
        for variation in turn.variations:
            _report_note_faults(variation.turns, report)


def _comment_pos(lines: Sequence[str] | None, turn: Turn, comment: Comment) -> Pos | None:
    """Where a turn's comment is written: the first place of its text from the turn's line on
    (a comment before the turn stands on the lines just above it)."""
    if lines is None or turn.pos is None:
        return turn.pos
    first = turn.pos.line
    for number in (first, first + 1, first - 1, first + 2, first - 2):
        if 0 < number <= len(lines):
            column = lines[number - 1].find(comment.text)
            if column >= 0:
                return Pos(number, column + 1)
    return turn.pos


def score_game(game: Game) -> ScoreSheet:
    """The scoring of a finished game whose hands are all known."""
    return score_position(*_end_table(game), game_over=game.is_over)


def _end_table(game: Game) -> tuple[tuple[str, ...], tuple[PlayerPosition, ...]]:
    """The species and each player's arboretum and hand, as scoring reads them (copies)."""
    hands = game.final_hands()
    return game.config.species, tuple(PlayerPosition(p, game.arboretum(p), hands[p]) for p in game.players)


def _report_faults(record: GameRecord, faults: Iterable[EndFault], report: _Reporter) -> None:
    for fault in faults:
        if fault.at == HEADER:
            pos = record.header.pos
        elif fault.at == RESULT:
            pos = record.result.pos if record.result is not None else None
        else:
            pos = record.reveals[fault.at].pos
        report(fault.code, fault.message, pos, player=fault.player, severity=fault.severity)


def score_parts(sheet: ScoreSheet, player: str) -> str:
    parts = [f"{code} {s.points}" for code, s in sheet.player(player).species.items() if s.points]
    return " + ".join(parts) if parts else "no path scores"


__all__ = [
    "HEADER",
    "MAIN",
    "RESULT",
    "EndFault",
    "GameReplay",
    "Line",
    "LineError",
    "LinePath",
    "LineStates",
    "TurnError",
    "TurnFaults",
    "end_faults",
    "new_game",
    "play_recorded_turn",
    "replay_game",
    "replay_line",
    "replay_turn",
    "result_faults",
    "result_line_faults",
    "score_game",
    "table_faults",
]
