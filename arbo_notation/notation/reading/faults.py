"""The faults of a game's text, in a person's words: the explainer that is asked about the line
the grammar's parser refused and names, from that line on, every fault of the game's lines at its
exact column, and the errors of text outside any game (before the first header, a header never
closed).

The grammar judges: the explainer is asked only from the line where the grammar's parser stopped.
It reads the lines before that one for their context alone (the phase of the game, the variations
open), flagging nothing in them, since the grammar took them; from the refused line on it explains
that line's fault and goes on by itself after it, line by line, to name the game's other faults
(one parse of a game gives one refusal; asking the grammar again after each of up to
MAX_ERRORS_PER_GAME faults would read the game that many times). It reads the text character by
character (lark's complaint names only where the parser stopped, in terms of its terminals): no
lark here. Each message says what was expected and what was found; docs/NOTATION.md ("Errors")
shows them.
"""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING, Callable, NoReturn

from arbo_notation.engine.cards import value_fault
from arbo_notation.errors import MAX_ERRORS_PER_GAME, NotationError, capped, detached
from arbo_notation.engine.lexicon import (
    BRACE_COMMENT,
    CARD_END,
    CARD_SHAPE,
    GLYPH,
    HEADER_BLOCK,
    MAX_COORDINATE_DIGITS,
    MAX_GLYPH_DIGITS,
    MAX_GLYPHS,
    MAX_NAME_LENGTH,
    MAX_POINTS_DIGITS,
    MAX_TURN_NUMBER_DIGITS,
    NAME_CHAR,
    NAME_START,
    RESULT_WORD,
    REVEAL_WORD,
    SPECIES,
)
from arbo_notation.notation.reading.parts import MAX_VARIATION_DEPTH
from arbo_notation.notation.model import RESERVED_NAMES

if TYPE_CHECKING:
    from arbo_notation.notation.reading.grammar import GrammarMismatch

# ------------------------------------------------------------------------------------------------
# Errors of text outside any game


def preamble_error(
    text: str, preamble_end: int, file: str, source_line: Callable[[int], str], first_line: int = 1
) -> tuple[NotationError, int, int]:
    """The error of text other than white space before the first header, with its first and last line."""
    preamble = text[:preamble_end]
    offset = len(preamble) - len(preamble.lstrip())
    line, column = _line_col(text, offset)
    line += first_line - 1
    error = NotationError(
        f"a game starts with a header between two '---' lines, found {_found(text, offset)} before any header",
        file=file,
        line=line,
        column=column,
        source_line=source_line(line),
    )
    return error, line, max(line, text.count("\n", 0, preamble_end) + first_line - 1)


def unclosed_error(line: int, file: str, source_line: Callable[[int], str]) -> NotationError:
    """The error of a header opened at ``line`` and never closed."""
    return NotationError(
        f"unclosed header: '---' at line {line} has no closing '---' line",
        file=file,
        line=line,
        column=1,
        source_line=source_line(line),
    )


# ------------------------------------------------------------------------------------------------
# A game's faults: the explainer, asked from the line the grammar's parser refused


_WORD = re.compile(r"[^ \t\n{};()]+")
_WORD_END = re.compile(r"[ \t\n]|\Z")
_NAME = re.compile(rf"{NAME_START}{NAME_CHAR}*+")  # of any length: a name too long is a fault of its own
_DIGITS = re.compile(r"[0-9]+")
_LONG_GLYPH = re.compile(r"\$[0-9]+(?![^ \t\n{;()])")
_CARD = re.compile(CARD_SHAPE + CARD_END)
_COORDS = re.compile(r"(-?[0-9]+),(-?[0-9]+)(?![0-9])")
_BRACE_COMMENT = re.compile(BRACE_COMMENT)
_GLYPH = re.compile(GLYPH)
_HEADER_BLOCK = re.compile(HEADER_BLOCK)
_TURN_END = frozenset(" \t\n{;()!?$")
_PLANTING_LIKE = re.compile(rf"{SPECIES}[0-9]+@")
_SPACE_BEFORE_AT = re.compile(rf"{CARD_SHAPE}[ \t]+@[^ \t\n{{}};()]*")
_SPACED_CELL = re.compile(r"[ \t]*-?[0-9]+[ \t]*,[ \t]*-?[0-9]+(?![0-9])")
_LINE_END = frozenset(" \t\n{;")

DRAW_FORMS = "a draw ('d', 'd:Ma3', a player's name, 'Ana:Ja2' or '-')"
TURN_EXAMPLE = "a turn such as '3. Ana d d Ma3@0,1 /Oa5'"


def _show(text: str) -> str:
    if len(text) > 24:
        text = text[:24] + "..."
    return repr(text) if not text.isprintable() else f"'{text}'"


def _found(text: str, pos: int) -> str:
    """What stands at ``pos``, for 'found ...' in a message."""
    if pos >= len(text) or text[pos] == "\n":
        return "end of line"
    if text[pos] in " \t":
        return "a space"
    m = _WORD.match(text, pos)
    return _show(m.group() if m else text[pos])


def _card_found(text: str, pos: int) -> str:
    """What stands at ``pos`` where a card belongs, and the range of values when it is a card's
    value that is wrong."""
    m = _WORD.match(text, pos)
    return _found(text, pos) + value_fault(m.group() if m else "")


class _Stop(Exception):
    def __init__(self, pos: int, message: str) -> None:
        super().__init__(message)
        self.pos = pos
        self.message = message


class _Checker:
    """Reads a game body token by token, the slow and careful way, and notes every fault.

    A fault within one line (a turn, a reveal or result line, a glyph, a stray bracket) is noted
    and the reading goes on at the next line, the rest of the faulty line skipped; a fault in the
    shape of the game (an unclosed comment or variation, lines out of order) ends the reading.
    Only the faults met while reading from offset ``asked_from`` on (the start of the line the
    grammar refused) are kept: the pieces before it are read for their context alone. A fault met
    there may name an earlier place (the '(' of a variation the refused line finds unclosed).
    """

    def __init__(self, text: str, pos: int, first_line: int = 1, asked_from: int = 0) -> None:
        self.text = text
        self.pos = pos
        self.asked_from = asked_from
        self.piece = pos  # the start of the piece being read: its faults are kept from asked_from on
        self.n = len(text)
        self.first_line = first_line  # file line of the text's first line
        self.faults: list[_Stop] = []
        self.stack: list[list[int]] = []  # [offset of '(', turns read in it]
        self.faulty_opens: set[int] = set()  # offsets of the '(' met on the rest of a faulty line
        self.cut_short = -1  # the end of the last line cut short (a fault at its end)
        self.lines = _LineIndex(text)
        self.dropped = 0  # faults past the first ones kept: counted, not kept

    def where(self, p: int) -> str:
        line, column = self.lines.line_col(p)
        return f"line {line + self.first_line - 1} column {column}"

    def fail(self, pos: int, message: str) -> NoReturn:
        raise _Stop(pos, message)

    def note(self, pos: int, message: str) -> None:
        """A fault the reading goes on after."""
        self.keep(_Stop(pos, message))

    def keep(self, fault: _Stop) -> None:
        """Keep a fault: only the first ones by place are kept past a bound (all are counted), so a
        line of 400,000 stray ')' costs no more memory than 4,000 faults. A fault met before the
        line the grammar refused is not kept (the grammar took that text)."""
        if self.piece < self.asked_from:
            return
        self.faults.append(fault)
        if len(self.faults) >= 4 * MAX_ERRORS_PER_GAME:
            self.faults.sort(key=lambda kept: kept.pos)
            self.dropped += len(self.faults) - (MAX_ERRORS_PER_GAME + 1)
            del self.faults[MAX_ERRORS_PER_GAME + 1 :]

    def on_line(self, read: Callable[[int], int], p: int) -> int:
        """Read one part of a line with ``read``; at a fault in it, note the fault and skip the line.

        Right after a line cut short (at fault for ending too soon: a line break typed too early),
        a line that does not even start as a turn (its first word is at fault) is taken for the
        rest of that line, not as a fault again."""
        try:
            return read(p)
        except _Stop as stop:
            detached(stop)
            if not (self.continues_cut_line(p) and stop.pos <= _WORD_END.search(self.text, p).start()):  # type: ignore[union-attr]  # \Z: it always matches
                self.keep(stop)
            end = self.after_line(stop.pos, stop.pos)
            if self.at_line_end(stop.pos):
                self.cut_short = end
            return end

    def continues_cut_line(self, p: int) -> bool:
        """Whether ``p`` is on the line right after a line cut short."""
        return self.cut_short >= 0 and self.text.rfind("\n", 0, p) == self.cut_short

    def after_line(self, p: int, fault: int = -1) -> int:
        """The end of the line at ``p``, skipping what is left of it but its comments (which may span
        lines) and its parentheses (which open and close variations). What is part of the fault at
        offset ``fault`` is not told again: a '{' left open, a '(' never closed, a '(' glued to a word
        or not followed by a turn or comment, a ')' at the fault or glued to a word."""
        text = self.text
        while p < self.n and text[p] != "\n":
            c = text[p]
            if c == "{":
                m = _BRACE_COMMENT.match(text, p)
                p = m.end() if m is not None else p + 1
                continue
            if c == ";":
                end = text.find("\n", p)
                return end if end >= 0 else self.n
            if c == "(" and (p == 0 or text[p - 1] in " \t\n()") and self.opens_a_variation(p):
                self.stack.append([p, 1])  # a variation's own faults are found in its own lines
                self.faulty_opens.add(p)
            elif c == ")" and p != fault and self.stack and (p + 1 == self.n or text[p + 1] in " \t\n{};()"):
                self.stack.pop()
            p += 1
        return p

    def at_line_end(self, p: int) -> bool:
        return p >= self.n or self.text[p] == "\n"

    def spaces(self, p: int) -> int:
        text = self.text
        while p < self.n and text[p] in " \t":
            p += 1
        return p

    def separator(self, p: int, what: str, after: str) -> int:
        """One or more spaces or tabs on the same line, then something that is not a line end."""
        q = self.spaces(p)
        if q == p or self.at_line_end(q):
            self.fail(q if self.at_line_end(q) else p, f"expected {what} after '{after}', found {_found(self.text, q)}")
        return q

    def run(self) -> None:
        text = self.text
        stack = self.stack
        can_branch = False
        glyph_ok = False
        glyphs = 0  # of the turn just read
        phase = "moves"  # then "reveals", then "result"
        while True:
            while self.pos < self.n and text[self.pos] in " \t\n":
                if text[self.pos] == "\n":
                    glyph_ok = False
                self.pos += 1
            p = self.piece = self.pos
            if p >= self.n:
                break
            c = text[p]
            if c == "{":
                m = _BRACE_COMMENT.match(text, p)
                if m is None:
                    self.fail(p, f"unclosed comment: '{{' at {self.where(p)} has no '}}'")
                self.pos = m.end()
                glyph_ok = False
            elif c == ";":
                end = text.find("\n", p)
                self.pos = end if end >= 0 else self.n
                glyph_ok = False
            elif c == "(":
                if phase != "moves":
                    self.fail(p, "a variation '(' must follow a turn, not the reveal or result lines")
                if not can_branch:
                    self.note(p, "a variation '(' must follow the turn it replaces")
                if len(stack) >= MAX_VARIATION_DEPTH:
                    self.fail(p, f"variations nest deeper than {MAX_VARIATION_DEPTH} levels")
                stack.append([p, 0])
                can_branch = glyph_ok = False
                self.pos = p + 1
            elif c == ")":
                if not stack:
                    self.note(p, "')' has no matching '('")
                    self.pos = p + 1
                    continue
                if stack[-1][1] == 0:
                    self.note(p, "a variation holds at least one turn, found ')'")
                stack.pop()
                can_branch, glyph_ok = True, False
                self.pos = p + 1
            elif c == "}":
                self.note(p, "'}' has no matching '{'")
                self.pos = self.after_line(p + 1)
            elif c in "!?$":
                m = _GLYPH.match(text, p)
                if m is None and _LONG_GLYPH.match(text, p):
                    self.note(
                        p,
                        f"a numeric glyph has at most {MAX_GLYPH_DIGITS} digits ($0 to "
                        f"${'9' * MAX_GLYPH_DIGITS}), found {_found(text, p)}",
                    )
                elif m is None:
                    self.note(
                        p,
                        f"unknown glyph {_found(text, p)}: the glyphs are ! ? !! ?? !? ?! and "
                        "numeric glyphs such as $12",
                    )
                elif not glyph_ok:
                    self.note(p, "a glyph goes right after the discard of its turn, on its line and before any comment")
                elif glyphs == MAX_GLYPHS:
                    self.note(p, f"a turn has at most {MAX_GLYPHS} glyphs")
                else:
                    glyphs += 1
                    self.pos = m.end()
                    continue
                self.pos = self.after_line(p)
            elif _keyword(text, p, "reveal"):
                if stack:
                    self.unclosed(stack)
                if phase == "result":
                    self.fail(p, "reveal lines come before the result line")
                phase = "reveals"
                can_branch = glyph_ok = False
                self.pos = self.on_line(self.reveal, p)
            elif _keyword(text, p, "result"):
                if stack:
                    self.unclosed(stack)
                if phase == "result":
                    self.fail(p, "a game has one result line; a new game starts with a '---' header line")
                phase = "result"
                can_branch = glyph_ok = False
                self.pos = self.on_line(self.result, p)
            else:
                if phase != "moves" and self.continues_cut_line(p):  # the rest of a reveal or result line
                    self.pos = self.after_line(p)
                    continue
                if phase == "result":
                    self.fail(
                        p,
                        f"only comments may follow the result line (a new game starts with a '---' "
                        f"header line), found {_found(text, p)}",
                    )
                if phase == "reveals":
                    self.fail(
                        p,
                        f"expected a reveal line, the result line or a comment after the reveal lines, "
                        f"found {_found(text, p)}",
                    )
                end = text.find("\n", p)
                segment = text[p : end if end >= 0 else self.n]
                semicolon = segment.find(";")
                if semicolon >= 0 and "{" not in segment[:semicolon]:
                    segment = segment[:semicolon]  # a '}' in a ';' comment is the comment's
                brace = segment.find("}")
                if brace >= 0 and "{" not in segment[:brace]:
                    self.note(p + brace, "'}' has no matching '{' (a comment is written {like this})")
                    self.pos = self.after_line(p + brace + 1)
                else:
                    self.pos = self.on_line(self.turn, p)
                can_branch = glyph_ok = True
                glyphs = 0
                if stack:
                    stack[-1][1] += 1
        self.piece = self.n
        if stack:
            self.unclosed(stack)

    def opens_a_variation(self, p: int) -> bool:
        """Whether the '(' at ``p`` is followed by what a variation starts with: a turn or a comment."""
        q = self.spaces(p + 1)
        if q < self.n and self.text[q] in "0123456789{;(":
            return True
        m = _NAME.match(self.text, q)
        return m is not None and m.group() not in RESERVED_NAMES

    def unclosed(self, stack: list[list[int]]) -> None:
        while stack and stack[-1][0] in self.faulty_opens:
            stack.pop()
        if stack:
            p = stack[-1][0]
            self.fail(p, f"unclosed variation: '(' at {self.where(p)} has no ')'")

    def turn(self, p: int) -> int:
        text = self.text
        after: str | None = None
        m = _DIGITS.match(text, p)
        if m:
            q = m.end()
            if q - p > MAX_TURN_NUMBER_DIGITS:
                self.fail(p, f"a turn number has at most {MAX_TURN_NUMBER_DIGITS} digits, found {_show(m.group())}")
            if q >= self.n or text[q] != ".":
                self.fail(q, f"expected '.' after the turn number {m.group()}, found {_found(text, q)}")
            after = text[p : q + 1]
            p = self.spaces(q + 1)
            if self.at_line_end(p):
                self.fail(p, f"expected a player's name after '{after}', found {_found(text, p)}")
        m = _NAME.match(text, p)
        if m is None or m.group() in RESERVED_NAMES:
            word = _found(text, p)
            if m is not None and m.group() == "d":
                self.fail(p, "'d' cannot be a player's name: it stands for a draw from the deck")
            if after is None:
                self.fail(p, f"expected {TURN_EXAMPLE}, found {word}")
            self.fail(p, f"expected a player's name after '{after}', found {word}")
        player = self.name(p, m)
        p = self.separator(m.end(), DRAW_FORMS, player)
        first = p
        q = self.draw(p, player, "first")
        previous = text[p:q]
        try:
            p = self.separator(q, DRAW_FORMS, previous)
            q = self.draw(p, previous, "second")
        except _Stop as stop:
            self.glued_draws(first, previous, stop)
            raise
        previous = text[p:q]
        p = self.separator(q, "a planting such as Ma3@0,1", previous)
        q = self.planting(p, previous)
        previous = text[p:q]
        p = self.separator(q, "a discard such as /Oa5", previous)
        if text[p] != "/":
            self.fail(p, f"expected a discard such as /Oa5 after '{previous}', found {_found(text, p)}")
        m = _CARD.match(text, p + 1)
        if m is None:
            self.fail(p + 1, f"expected a card such as Ma3 after '/', found {_card_found(text, p + 1)}")
        q = m.end()
        if q < self.n and text[q] not in _TURN_END:
            self.fail(q, f"unexpected {_found(text, q)} after the discard '{text[p:q]}'")
        return q

    def name(self, p: int, m: re.Match[str]) -> str:
        """The player's name matched at ``p``; a fault when it is longer than a name may be."""
        name = m.group()
        if len(name) > MAX_NAME_LENGTH:
            self.fail(p, f"a player's name has at most {MAX_NAME_LENGTH} characters, found one of {len(name)}")
        return name

    def glued_draws(self, p: int, draw: str, stop: _Stop) -> None:
        """When the second draw is missing after 'dd' (two deck draws without a space), say so."""
        if draw.partition(":")[0] == "dd" and stop.message.startswith(f"expected {DRAW_FORMS}"):
            self.fail(
                p,
                f"expected two draws, found one: 'dd' is read as a player's name; "
                f"separate the two draws with a space: 'd {draw[1:]}'",
            )

    def draw(self, p: int, after: str, ordinal: str) -> int:
        text = self.text
        word = _WORD.match(text, p)
        token = word.group() if word else ""
        if token == "-":
            return p + 1
        owner, colon, card = token.partition(":")
        if owner == "d" or (_NAME.fullmatch(owner) and owner not in RESERVED_NAMES):
            self.name(p, _NAME.match(text, p))  # type: ignore[arg-type]  # the name or 'd' just matched stands at p
            if not colon:
                return p + len(owner)
            m = _CARD.match(text, p + len(owner) + 1)
            if m is None or m.end() != p + len(token):
                q = p + len(owner) + 1
                self.fail(q, f"expected a card such as Ma3 after '{owner}:', found {_card_found(text, q)}")
            return m.end()
        hint = " (a turn has two draws)" if _PLANTING_LIKE.match(token) or token.startswith("/") else ""
        self.fail(p, f"expected {DRAW_FORMS} after '{after}', found {_found(text, p)}{hint}")

    def planting(self, p: int, after: str) -> int:
        text = self.text
        word = _WORD.match(text, p)
        token = word.group() if word else ""
        if "@" not in token:
            spaced = _SPACE_BEFORE_AT.match(text, p)
            if spaced:
                self.fail(
                    p,
                    f"expected a planting such as Ma3@0,1 after '{after}', found {_show(spaced.group())}: "
                    "no space is allowed before '@'",
                )
            hint = ""
            if token == "d" or token == "-" or ":" in token or (_NAME.fullmatch(token) and token not in RESERVED_NAMES):
                hint = " (a turn has exactly two draws)"
            self.fail(p, f"expected a planting such as Ma3@0,1 after '{after}', found {_found(text, p)}{hint}")
        m = _CARD.match(text, p)
        if m is None or text[m.end() : m.end() + 1] != "@":
            card = token.split("@")[0]
            self.fail(p, f"expected a card such as Ma3 to plant, found {_show(card or '@')}{value_fault(card)}")
        q = m.end() + 1
        c = _COORDS.match(text, q)
        if c is None:
            self.fail(
                q, f"expected a cell x,y in whole numbers (such as 0,1 or -2,3) after '@', found {self.cell_found(q)}"
            )
        for group in (1, 2):
            if len(c.group(group).lstrip("-")) > MAX_COORDINATE_DIGITS:
                largest = "9" * MAX_COORDINATE_DIGITS
                self.fail(
                    c.start(group),
                    f"a coordinate is a whole number from -{largest} to {largest}, found {_show(c.group(group))}",
                )
        if c.end() < self.n and text[c.end()] not in " \t\n":
            if text[c.end()] == "/":
                self.fail(c.end(), f"expected a space after '{text[p : c.end()]}', found {_found(text, c.end())}")
            self.fail(
                q, f"expected a cell x,y in whole numbers (such as 0,1 or -2,3) after '@', found {_found(text, q)}"
            )
        return c.end()

    def cell_found(self, q: int) -> str:
        """What stands after '@' where no cell does; when it is a cell with a space inside, the hint."""
        text = self.text
        spaced = _SPACED_CELL.match(text, q)
        if spaced is None or not any(c in " \t" for c in spaced.group()):
            return _found(text, q)
        cell = spaced.group()
        if cell[0] in " \t":
            return "a space: no space is allowed after '@'"
        comma = cell.index(",")
        where = "before ','" if cell[comma - 1] in " \t" else "after ','"
        return f"{_show(cell)}: no space is allowed {where}"

    def reveal(self, p: int) -> int:
        text = self.text
        q = self.separator(p + 6, "a player's name", "reveal")
        m = _NAME.match(text, q)
        if m is None or m.group() in RESERVED_NAMES:
            self.fail(q, f"expected a player's name after 'reveal', found {_found(text, q)}")
        player = self.name(q, m)
        q = m.end()
        while True:
            r = self.spaces(q)
            if r >= self.n or text[r] in "\n{;":
                if q < self.n and text[q] not in _LINE_END:
                    self.fail(q, f"unexpected {_found(text, q)} in {player}'s reveal line")
                return r
            if r > q and (_keyword(text, r, REVEAL_WORD) or _keyword(text, r, RESULT_WORD)):
                return r  # the grammar takes the next reveal or the result on the same line
            if r == q:
                self.fail(q, f"expected a card such as Ma3 in {player}'s reveal line, found {_found(text, q)}")
            c = _CARD.match(text, r)
            if c is None or (c.end() < self.n and text[c.end()] not in _LINE_END):
                self.fail(r, f"expected a card such as Ma3 in {player}'s reveal line, found {_card_found(text, r)}")
            q = c.end()

    def result(self, p: int) -> int:
        text = self.text
        what = "'*' or the scores such as 'Ana 24, Ben 19'"
        q = self.separator(p + 6, what, "result")
        if text[q] == "*":
            r = q + 1
            if r < self.n and text[r] not in _LINE_END:
                self.fail(r, f"unexpected {_found(text, r)} after 'result *'")
            return r
        after = "result"
        while True:
            m = _NAME.match(text, q)
            if m is None or m.group() in RESERVED_NAMES:
                self.fail(
                    q,
                    f"expected {what if after == 'result' else 'a player name'} after '{after}', "
                    f"found {_found(text, q)}",
                )
            name = self.name(q, m)
            r = self.separator(m.end(), f"{name}'s score", name)
            s = _DIGITS.match(text, r)
            if s is None or (s.end() < self.n and text[s.end()] not in _LINE_END and text[s.end()] != ","):
                self.fail(r, f"expected {name}'s score (a whole number) after '{name}', found {_found(text, r)}")
            if s.end() - r > MAX_POINTS_DIGITS:
                self.fail(
                    r,
                    f"{name}'s score has at most {MAX_POINTS_DIGITS} digits (0 to "
                    f"{'9' * MAX_POINTS_DIGITS}), found {_show(s.group())}",
                )
            q = s.end()
            t = self.spaces(q)
            if t < self.n and text[t] == ",":
                after = ","
                q = self.spaces(t + 1)
                if self.at_line_end(q):
                    self.fail(q, f"expected a player's name after ',', found {_found(text, q)}")
                continue
            if t >= self.n or text[t] in "\n{;":
                return t
            after = text[r : s.end()]
            q = t


def _keyword(text: str, p: int, word: str) -> bool:
    end = p + len(word)
    return text.startswith(word, p) and (end >= len(text) or not (text[end].isalnum() or text[end] in "_'-:"))


def _line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of an offset within ``text`` (relative to its start)."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


_TERMINAL_WORDS = {
    "HEADER": "a game header ('---')",
    "COMMENT": "a comment",
    "LPAR": "a variation '('",
    "RPAR": "')'",
    "TURNS": "a turn",
    "REVEALS": "a reveal line",
    "RESULT": "a result line",
    "$END": "the end of the game",
}


def _human_list(names: set[str]) -> str:
    words = sorted({_TERMINAL_WORDS.get(n, "something else") for n in names})
    if not words:
        return "nothing more"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _body_faults(
    chunk: str, first_line: int, file: str, source_line: Callable[[int], str], start: int, asked_from: int | None = None
) -> list[NotationError]:
    """Every fault the explainer finds in a game's body read from offset ``start``, met from offset
    ``asked_from`` on (the start of the line the grammar refused; ``start`` when not given)."""
    checker = _Checker(chunk, start, first_line, start if asked_from is None else asked_from)
    try:
        checker.run()
    except _Stop as stop:
        checker.keep(detached(stop))
    faults = sorted(checker.faults, key=lambda fault: fault.pos)
    shown = faults[: MAX_ERRORS_PER_GAME + 1]  # one past the cap: where the ones left out start
    errors = []
    for fault in shown:
        line, column = checker.lines.line_col(fault.pos)
        absolute = line + first_line - 1
        errors.append(
            NotationError(fault.message, file=file, line=absolute, column=column, source_line=source_line(absolute))
        )
    return capped(errors, len(faults) + checker.dropped)


class _LineIndex:
    """Line and column of offsets in one text, each found in log time (counting the line breaks
    before each of 100,000 faults again made a game's faults quadratic)."""

    __slots__ = ("text", "starts")

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts: list[int] | None = None

    def line_col(self, offset: int) -> tuple[int, int]:
        if self.starts is None:
            self.starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


#: A line of a game's body: a header that holds one has lost its closing '---' line.
_BODY_LINE = re.compile(rf"^[ \t]*(?:[0-9]+\.|{REVEAL_WORD}[ \t]|{RESULT_WORD}[ \t])", re.M)


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def faults_after_header(
    chunk: str, first_line: int, file: str, source_line: Callable[[int], str], refused_at: int | None
) -> list[NotationError]:
    """The faults of the body of a game whose header is at fault, the grammar having read its body
    alone and refused it at offset ``refused_at`` (None: the grammar took the body, which has no
    fault), when it is clear where the body starts (not when the header holds lines of the body:
    where its '---' line was meant to be is a guess)."""
    if refused_at is None:
        return []
    header = _HEADER_BLOCK.match(chunk)
    if header is None or _BODY_LINE.search(header.group()):
        return []
    return _body_faults(chunk, first_line, file, source_line, header.end(), _line_start(chunk, refused_at))


def diagnose(
    chunk: str, first_line: int, mismatch: GrammarMismatch, file: str, source_line: Callable[[int], str]
) -> list[NotationError]:
    """Turn the parser's refusal of one game into NotationErrors a person understands: the fault of
    the line it refused, and every fault of the game's lines after it that the explainer finds."""
    header = _HEADER_BLOCK.match(chunk)
    start = header.end() if header else 0
    errors = _body_faults(chunk, first_line, file, source_line, start, max(start, _line_start(chunk, mismatch.pos)))
    if errors:
        return errors
    # The checker found nothing: fall back on what the parser saw (never naming its terminals).
    if mismatch.token_type is None:
        found = _found(chunk, mismatch.pos)
    elif mismatch.token_type == "$END":
        found = "the end of the game"
    else:
        found = _show(mismatch.token_text.split("\n")[0])
    absolute = mismatch.line + first_line - 1
    return [
        NotationError(
            f"expected {_human_list(mismatch.expected)}, found {found}",
            file=file,
            line=absolute,
            column=mismatch.column,
            source_line=source_line(absolute),
        )
    ]
