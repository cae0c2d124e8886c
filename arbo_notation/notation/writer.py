"""The canonical .arb writer: ``format_game(game)`` and ``format_games(games)``.

``format_game(parse(text)[0])`` is a fixed point of reading and writing: it loses no comment,
glyph, variation, header key or unknown-card mark. The layout (docs/NOTATION.md, "Canonical
form"): the header in fixed key order, then one turn per line, numbered, single spaces, glyphs
and comments after the discard; comments before a turn on lines of their own; each variation
on its own lines, indented two spaces per depth, '(' before its first turn and ')' after its
last; LF line ends; one blank line between games.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Iterable, Sequence

from arbo_notation.engine.actions import Draw, Skip
from arbo_notation.errors import ArboError
from arbo_notation.notation.header.keys import check_header, format_header, is_player_name
from arbo_notation.notation.model import GLYPHS, Comment, GameRecord, Result, Reveal, Turn, Variation
from arbo_notation.notation.reading.split import cut_games, normalise

__all__ = ["check_writable", "format_game", "format_games", "format_games_over", "format_turn", "renumber"]

INDENT = "  "
_GLYPH_RE = re.compile(r"\$[0-9]+\Z")
# A line of a {comment} that would stand alone as '---' once written: not its first line (after
# '{') nor its last (before '}'), so '{---}' and '{a\n---}' are fine, as the reader takes them.
_HEADER_LINE_IN_TEXT = re.compile(r"\n---[ \t]*\n")
_CLOSING_HEADER_LINE = re.compile(r"\n---[ \t]*(?:\n|\Z)")


# ------------------------------------------------------------------------------------------------
# What can be written


def _fault(where: str, message: str) -> ArboError:
    return ArboError(f"cannot write {where}: {message}")


def _check_comment(comment: Comment, where: str) -> None:
    text = comment.text
    if not isinstance(text, str):
        raise _fault(where, f"a comment's text must be text, not {type(text).__name__}")
    if "\r" in text:
        raise _fault(where, "a comment holds a carriage return")
    if comment.line:
        if "\n" in text:
            raise _fault(where, f"a ';' comment cannot run over lines: {text!r}")
    else:
        if "}" in text:
            raise _fault(where, f"a {{comment}} cannot hold '}}': {text!r}")
        if _HEADER_LINE_IN_TEXT.search(text):
            raise _fault(where, f"a {{comment}} cannot hold a line '---' (it would open a header): {text!r}")


def _check_name(name: object, where: str) -> None:
    if not is_player_name(name):
        raise _fault(
            where,
            f"{name!r} is not a player's name (a letter, then letters, digits, _ ' or -; not d, reveal or result)",
        )


def _check_draw(draw: object, where: str) -> None:
    if isinstance(draw, Draw):
        if draw.owner is not None:  # (None: the deck)
            _check_name(draw.owner, where)
    elif not isinstance(draw, Skip):
        raise _fault(where, f"a draw is an engine.actions.Draw or Skip, not {draw!r}")


def _check_turns(turns: Iterable[Turn], where: str, depth: int = 0) -> None:
    for i, turn in enumerate(turns, 1):
        here = f"{where} turn {i}"
        _check_name(turn.player, here)
        if len(turn.draws) != 2:
            raise _fault(here, f"a turn has two draws, not {len(turn.draws)}")
        for draw in turn.draws:
            _check_draw(draw, here)
        for glyph in turn.glyphs:
            if glyph not in GLYPHS and not _GLYPH_RE.match(glyph):
                raise _fault(here, f"unknown glyph {glyph!r} (the glyphs are ! ? !! ?? !? ?! and $n)")
        if turn.number is not None and (isinstance(turn.number, bool) or not isinstance(turn.number, int)):
            raise _fault(here, f"a turn number is a whole number, not {turn.number!r}")
        for comment in turn.comments_before + turn.comments_after:
            _check_comment(comment, here)
        for j, variation in enumerate(turn.variations, 1):
            there = f"{here} variation {j}"
            if not variation.turns:
                raise _fault(there, "a variation holds at least one turn")
            for comment in variation.comments_before + variation.comments_after:
                _check_comment(comment, there)
            _check_turns(variation.turns, there, depth + 1)


def check_writable(game: GameRecord) -> None:
    """Raise ArboError if a record (built by a program) could not be written as valid .arb text."""
    where = f"game {game.index}"
    try:
        check_header(game.header)
    except ArboError as exc:
        raise ArboError(f"cannot write {where}: {exc}") from None
    for comment in game.comments:
        _check_comment(comment, where)
    _check_turns(game.turns, where)
    for reveal in game.reveals:
        _check_name(reveal.player, f"{where} reveal")
        for comment in reveal.comments:
            _check_comment(comment, f"{where} reveal")
    result = game.result
    if result is not None:
        if result.unfinished and result.scores:
            raise _fault(f"{where} result", "an unfinished game ('result *') has no scores")
        if not result.unfinished and not result.scores:
            raise _fault(f"{where} result", "a result line gives every player's score, or '*'")
        for name, score in result.scores:
            _check_name(name, f"{where} result")
            if isinstance(score, bool) or not isinstance(score, int) or score < 0:
                raise _fault(f"{where} result", f"a score is a whole number, not {score!r}")
        for comment in result.comments:
            _check_comment(comment, f"{where} result")


# ------------------------------------------------------------------------------------------------
# Numbering


def _renumbered(turns: tuple[Turn, ...], first: int) -> tuple[Turn, ...]:
    out = []
    for i, turn in enumerate(turns):
        number = first + i
        variations = tuple(dataclasses.replace(v, turns=_renumbered(v.turns, number)) for v in turn.variations)
        if turn.number != number or variations != turn.variations:
            turn = dataclasses.replace(turn, number=number, variations=variations)
        out.append(turn)
    return tuple(out)


def renumber(game: GameRecord) -> GameRecord:
    """The record with canonical turn numbers, as format_game writes them.

    The main line counts 1, 2, 3... (on from the turn of the header's position, when the record
    starts from one); a variation's first turn has the number of the turn it replaces and the
    variation counts on from there.
    """
    return dataclasses.replace(game, turns=_renumbered(game.turns, first_turn(game)))


def first_turn(game: GameRecord) -> int:
    """The number of a record's first turn: 1, or the turn of the position it starts from."""
    position = game.header.position
    return 1 if position is None else position.turn


# ------------------------------------------------------------------------------------------------
# Writing


def _comment(comment: Comment) -> str:
    if comment.line:
        return ";" + (" " + comment.text if comment.text else "")
    return "{" + comment.text + "}"


class _Lines:
    """Output lines, remembering which ones end in a ';' comment (nothing may follow on them).

    A line is kept as its parts and joined once at the end: a turn followed by many thousand
    comments grows one line, and growing a string in a list copies it each time.
    """

    def __init__(self) -> None:
        self.parts: list[list[str]] = []
        self.closed: list[bool] = []

    def add(self, text: str, closed: bool = False) -> None:
        self.parts.append([text])
        self.closed.append(closed)

    def extend_last(self, text: str, closed: bool = False) -> None:
        self.parts[-1].append(text)
        self.closed[-1] = closed

    @property
    def lines(self) -> list[str]:
        return ["".join(parts) for parts in self.parts]

    def comments_inline(self, comments: Iterable[Comment], indent: str) -> None:
        """Append comments to the last line; after a ';' comment go on on a new line."""
        for comment in comments:
            text = _comment(comment)
            if self.closed[-1]:
                self.add(indent + text, comment.line)
            else:
                self.extend_last(" " + text, comment.line)

    def comments_own_lines(self, comments: Iterable[Comment], indent: str) -> None:
        for comment in comments:
            self.add(indent + _comment(comment), comment.line)


def format_turn(turn: Turn, number: int | None = None) -> str:
    """One turn as the canonical writer puts it on its line (number, moves, glyphs, comments after)."""
    shown = number if number is not None else turn.number
    text = (f"{shown}. " if shown is not None else "") + turn.notation()
    for glyph in turn.glyphs:
        text += " " + glyph
    for comment in turn.comments_after:
        text += " " + _comment(comment)
    return text


def _write_turns(out: _Lines, turns: tuple[Turn, ...], first: int, depth: int) -> None:
    indent = INDENT * depth
    for i, turn in enumerate(turns):
        number = first + i
        out.comments_own_lines(turn.comments_before, indent)
        line = f"{indent}{number}. {turn.notation()}"
        for glyph in turn.glyphs:
            line += " " + glyph
        out.add(line)
        out.comments_inline(turn.comments_after, indent)
        for variation in turn.variations:
            _write_variation(out, variation, number, depth + 1)


def _write_variation(out: _Lines, variation: Variation, number: int, depth: int) -> None:
    indent = INDENT * depth
    body = _Lines()
    _write_turns(body, variation.turns, number, depth)
    body.comments_own_lines(variation.comments_after, indent)
    # '(' and the variation's opening comments, then its first line
    out.add(indent + "(")
    opened = True
    for comment in variation.comments_before:
        text = _comment(comment)
        if out.closed[-1]:
            out.add(indent + text, comment.line)
        else:
            out.extend_last(("" if opened else " ") + text, comment.line)
        opened = False
    lines = body.lines
    first = lines[0][len(indent) :]
    if out.closed[-1]:
        out.add(indent + first, body.closed[0])
    else:
        out.extend_last(("" if opened else " ") + first, body.closed[0])
    for line, closed in zip(lines[1:], body.closed[1:], strict=False):
        out.add(line, closed)
    if out.closed[-1]:
        out.add(indent + ")")
    else:
        out.extend_last(")")


def _reveal_line(out: _Lines, reveal: Reveal) -> None:
    out.add("reveal " + " ".join([reveal.player] + [str(c) for c in reveal.cards]))
    out.comments_inline(reveal.comments, "")


def _result_line(out: _Lines, result: Result) -> None:
    if result.unfinished:
        out.add("result *")
    else:
        out.add("result " + ", ".join(f"{name} {score}" for name, score in result.scores))
    out.comments_inline(result.comments, "")


def format_game(game: GameRecord) -> str:
    """The canonical text of one game (it ends with a newline). ArboError if it cannot be written."""
    check_writable(game)
    out = _Lines()
    for line in format_header(game.header).rstrip("\n").split("\n"):
        out.add(line)
    out.comments_own_lines(game.comments, "")
    _write_turns(out, game.turns, first_turn(game), 0)
    for reveal in game.reveals:
        _reveal_line(out, reveal)
    if game.result is not None:
        _result_line(out, game.result)
    return "\n".join(out.lines) + "\n"


def format_games(games: Iterable[GameRecord]) -> str:
    """Several games, one blank line between them."""
    return "\n".join(format_game(game) for game in games)


def format_games_over(games: Sequence[GameRecord], source: str, read: Sequence[GameRecord]) -> str:
    """``games`` written back over ``source``, the text ``read`` was parsed from (a command that
    rewrites a record: analyse, the replayer's W): as format_games, but a game whose header is
    the one read keeps that header as the source wrote it when it holds a ``#``. YAML drops its
    comments and the canonical form has none (`arbo fmt`), yet they are the user's notes, which
    a command that only adds to the record must not lose."""
    text = normalise(source)
    _, chunks = cut_games(text)
    written = []
    for index, game in enumerate(games):
        canonical = format_game(game)
        if index < len(chunks) and index < len(read) and read[index].header == game.header:
            kept = _header_as_written(text, chunks[index].start, chunks[index].end)
            header = format_header(game.header)
            if kept is not None and "#" in kept and canonical.startswith(header):
                canonical = kept + canonical[len(header) :]
        written.append(canonical)
    return "\n".join(written)


def _header_as_written(text: str, start: int, end: int) -> str | None:
    """The header block of the game at ``start``, both '---' lines included, as the text holds it."""
    closing = _CLOSING_HEADER_LINE.search(text, start + 3, end)
    if closing is None:
        return None
    block = text[start : closing.end()]
    return block if block.endswith("\n") else block + "\n"
