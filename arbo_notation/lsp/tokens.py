"""The semantic tokens of a record: players, cards, cells, glyphs, comments, header keys and the
notation's words, each a token type of the protocol's own (so every theme colours them)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from arbo_notation.engine.lexicon import CARD_SHAPE, RESERVED_NAMES
from arbo_notation.lsp.completion import header_players
from arbo_notation.lsp.documents import Cut, header_end
from arbo_notation.lsp.outline import CARD_WORD, outlined_games

#: The legend the server declares: what each kind of word of a record is given as.
TOKEN_TYPES = ("variable", "enumMember", "number", "operator", "comment", "property", "keyword")
PLAYER, CARD, CELL, GLYPH, COMMENT, KEY, WORD = range(len(TOKEN_TYPES))

_BODY = re.compile(
    r"(?P<comment>;.*|\{[^}]*\}?)"
    r"|(?P<number>(?<![^ \t(])[0-9]+\.)"
    r"|(?P<cell>(?<=@)-?[0-9]+,-?[0-9]+)"
    r"|(?P<glyph>(?<![^ \t)])(?:!!|\?\?|!\?|\?!|!|\?|\$[0-9]+)(?![^ \t\n{;()]))"
    r"|(?P<word>[A-Za-z][A-Za-z0-9_'-]*)"
    r"|(?P<points>(?<=[ \t])[0-9]+)"
)
_CARD = re.compile(CARD_SHAPE)
_HEADER_KEY = re.compile(r"[ \t]*([A-Za-z_][A-Za-z0-9_]*):")


@dataclass(frozen=True, slots=True)
class Token:
    """One token: 0-based ``line``, ``start`` and ``end`` columns (characters), its type's index."""

    line: int
    start: int
    end: int
    kind: int


def tokens(cut: Cut) -> list[Token]:
    """The tokens of the games the server reads (documents.py's bounds), in order."""
    found: list[Token] = []
    for game in outlined_games(cut):
        lines = game.text.split("\n")
        if game.text.endswith("\n"):
            lines.pop()
        shift = game.first_line - 1
        closing = header_end(lines) or len(lines)
        players = set(header_players(lines[1:closing]))
        for number in range(1, closing):
            found += _header_tokens(lines[number], number + shift, players)
        in_comment = False
        for number in range(closing + 1, len(lines)):
            line_tokens, in_comment = _body_tokens(lines[number], number + shift, players, in_comment)
            found += line_tokens
    return found


def _header_tokens(text: str, line: int, players: set[str]) -> list[Token]:
    found = []
    key = _HEADER_KEY.match(text)
    at = 0
    if key is not None:
        kind = PLAYER if key.group(1) in players else KEY
        found.append(Token(line, key.start(1), key.end(1), kind))
        at = key.end()
    if text[at:].lstrip().startswith("#"):
        return found + [Token(line, text.index("#", at), len(text), COMMENT)]
    for match in re.finditer(r"[A-Za-z][A-Za-z0-9_'-]*", text[at:]):
        word, start = match.group(), at + match.start()
        if word in players:
            found.append(Token(line, start, start + len(word), PLAYER))
        elif CARD_WORD.fullmatch(word):
            found.append(Token(line, start, start + len(word), CARD))
    return found


def _body_tokens(text: str, line: int, players: set[str], in_comment: bool) -> tuple[list[Token], bool]:
    """A line's tokens, and whether a {comment} is still open at its end."""
    found = []
    at = 0
    if in_comment:
        close = text.find("}")
        end = len(text) if close < 0 else close + 1
        if end:
            found.append(Token(line, 0, end, COMMENT))
        if close < 0:
            return found, True
        at = end
    for match in _BODY.finditer(text, at):
        kind = match.lastgroup
        start, end = match.span()
        if kind == "comment":
            found.append(Token(line, start, end, COMMENT))
            if match.group().startswith("{") and not match.group().endswith("}"):
                return found, True
        elif kind in ("number", "points", "cell"):
            found.append(Token(line, start, end, CELL))
        elif kind == "glyph":
            found.append(Token(line, start, end, GLYPH))
        else:
            word = match.group()
            if word in players:
                found.append(Token(line, start, end, PLAYER))
            elif word in RESERVED_NAMES:
                found.append(Token(line, start, end, WORD))
            elif _CARD.fullmatch(word):
                found.append(Token(line, start, end, CARD))
    return found, False
