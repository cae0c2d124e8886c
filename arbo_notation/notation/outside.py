"""Text from outside arbo (a bot's answer, its command line) made fit for a record and a terminal.

Whatever a bot sends, and whatever its command line holds, may be any bytes of any length. Before
such text reaches a record (a {comment}, a header value) or a terminal (a message on stderr), it
goes through :func:`safe_text` or :func:`quoted`, which escape it and cut it short to a bound. The
escapes are JSON's, the language of the bot protocol (docs/PROTOCOL.md, "What a record shows of a
bot"): a character that is not printable as ``\\n``, ``\\t``, ``\\r`` or ``\\uXXXX`` (so no control
sequence reaches a terminal and no line break a comment), ``}`` as ``\\u007d`` (a {comment} ends at
the first ``}``: docs/NOTATION.md, "Comments"), bytes that are not UTF-8 as U+FFFD. Here, and not
in the writer, because the writer refuses what it cannot write; making text writable is the
caller's choice, and the referee and the commands share this one.
"""

from __future__ import annotations

#: The most characters a text from outside takes once shown (escapes and the mark of a cut
#: included; :func:`quoted` adds the quotes and the full length of a cut text).
OUTSIDE_LIMIT = 200

#: What a cut text ends with.
CUT = "..."

#: The bytes of UTF-8 a character takes at most: how much of a text is read to show ``limit`` characters.
_ENOUGH = 4

_SHORT = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escaped(char: str, quoting: bool) -> str:
    if char == "}":
        return "\\u007d"
    if quoting and char in '"\\':
        return "\\" + char
    if char.isprintable():
        return char
    if char in _SHORT:
        return _SHORT[char]
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # beyond the BMP: JSON writes its UTF-16 pair
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _text_of(text: str | bytes) -> str:
    """Text as read: bytes that are not UTF-8, and the lone surrogates that stand for them in a
    command line Python read (or for nothing), as U+FFFD."""
    if isinstance(text, bytes):
        return text.decode("utf-8", "replace")
    if text.isascii() or not any("\ud800" <= char <= "\udfff" for char in text):
        return text
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a surrogate that stands for no byte
        return "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in text)


def _shown(text: str, limit: int, quoting: bool, room: int) -> tuple[str, bool]:
    """The escaped text, and whether it was cut: whole if it takes at most ``limit`` characters,
    else as much of it as fits in ``room`` characters (an escape is never split)."""
    pieces: list[str] = []
    width = 0
    for char in text:  # each character takes one at least: at most limit + 1 are looked at
        piece = _escaped(char, quoting)
        width += len(piece)
        if width > limit:
            kept: list[str] = []
            for piece in pieces:
                room -= len(piece)
                if room < 0:
                    break
                kept.append(piece)
            return "".join(kept), True
        pieces.append(piece)
    return "".join(pieces), False


def safe_text(text: str | bytes, limit: int = OUTSIDE_LIMIT) -> str:
    """``text`` fit for a {comment}, a header value and a terminal: without the white space at its
    ends (which a comment drops: docs/NOTATION.md), escaped (see the module) and at most ``limit``
    characters, a cut one ending with '...'. A text it returns is returned as it is (quotes and
    backslashes are kept), so a message built of such texts may go through it again."""
    text = text.strip()
    shown, cut = _shown(_text_of(text[: _ENOUGH * (limit + 1)]), limit, False, limit - len(CUT))
    return shown + CUT if cut else shown


def quoted(text: str | bytes, limit: int = OUTSIDE_LIMIT, *, whole: int | None = None) -> str:
    """``text`` as a JSON string, fit for a {comment} and a terminal: what a JSON reader reads
    back as ``text`` (undecodable bytes as U+FFFD). Past ``limit`` characters it is cut: the JSON
    string of its start, then '...' and the whole text's length (``whole``, when ``text`` is
    only the start of a longer one)."""
    shown, cut = _shown(_text_of(text[: _ENOUGH * (limit + 1)]), limit, True, limit)
    if not cut and whole is None:
        return f'"{shown}"'
    length = len(text) if whole is None else whole
    size = f"{length:,} bytes" if isinstance(text, bytes) else f"{length:,} characters"
    return f'"{shown}"{CUT} ({size})'


__all__ = ["CUT", "OUTSIDE_LIMIT", "quoted", "safe_text"]
