"""Reading a game's header into a typed Header (read_header): the writer's own form by the quick
reader of keys.py, any other YAML by PyYAML's safe loader (safeyaml.py, imported only then:
checking a file of written headers loads no YAML library), checked by the table's
header_from_mapping; a fault located at its key or item.
"""

from __future__ import annotations

from typing import Any
import re

from arbo_notation.errors import HeaderFault, NotationError, Pos
from arbo_notation.engine.lexicon import NAME_CHAR
from arbo_notation.notation.header.keys import (
    HEADER_MAX_DEPTH,
    TEXT_KEYS,
    Header,
    header_from_mapping,
    read_written_header,
)


def is_text_path(path: tuple[str, ...]) -> bool:
    """Whether a header value is one of the text fields, read as written ('round: 010' is '010').

    The top-level text keys and the species' names; YAML 1.1 would read 010 as 8, 12:30:00 as
    45000 and 3.10 as 3.1.
    """
    return (len(path) == 1 and path[0] in TEXT_KEYS) or (len(path) == 2 and path[0] == "names")


def load_header_yaml(text: str, loader: type | None = None) -> Any:
    """The data of a header's YAML: safe types, no anchors or aliases, at most HEADER_MAX_DEPTH
    deep, text fields as written. yaml.YAMLError or YamlFault (located) when it cannot be read.
    ``loader``: a PyYAML safe loader class, by default safeyaml.SAFE_LOADER (the C one if built)."""
    # deferred: safeyaml loads PyYAML (~26 ms), only for a header the quick reader cannot read
    from arbo_notation.notation.safeyaml import (
        SAFE_LOADER,
        load_yaml,
    )

    return load_yaml(
        text, what="a header", max_depth=HEADER_MAX_DEPTH, text_at=is_text_path, loader=loader or SAFE_LOADER
    )


# ------------------------------------------------------------------------------------------------
# Reading: the quick reader or the careful one, and a fault located at its key or item


_TOP_KEY_RE = re.compile(
    r"""(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|([^\s#'"\-?:,\[\]{}&*!|>%@`][^#\n]*?|-[^\s#\n][^#\n]*?))[ \t]*:(?=[ \t]|$)"""
)


def _key_lines(lines: list[str]) -> list[tuple[str, int]]:
    """Top-level keys of a YAML mapping and the 0-based line where each starts (best effort)."""
    found = []
    for i, line in enumerate(lines):
        m = _TOP_KEY_RE.match(line)
        if m:
            key = m.group(1) if m.group(1) is not None else m.group(2) if m.group(2) is not None else m.group(3)
            found.append((key, i))
    return found


def _locate(lines: list[str], key: str | None, item: str | None) -> tuple[int, int]:
    """0-based line and 1-based column of a key (and of an offending item within it), best effort."""
    keys = _key_lines(lines)
    start, stop = 0, len(lines)
    if key is not None:
        for i, (name, line) in enumerate(keys):
            if name == key:
                start = line
                stop = keys[i + 1][1] if i + 1 < len(keys) else len(lines)
                break
        else:
            return 0, 1
    if item:
        word = re.compile(
            rf"(?<!{NAME_CHAR})" + re.escape(item) + rf"(?!{NAME_CHAR})"
            r"|(?<=')" + re.escape(item) + r"(?=')|(?<=\")" + re.escape(item) + r"(?=\")"
        )
        for n in range(start, stop):
            text = lines[n]
            begin = text.index(":") + 1 if n == start and key is not None and ":" in text else 0
            m = word.search(text, begin)
            if m:
                return n, m.start() + 1
    return start, 1


def read_header(yaml_text: str, *, file: str = "<string>", line: int = 2, header_line: int | None = None) -> Header:
    """Read the YAML between a header's '---' lines; ``line`` is the file line of its first YAML line.

    Raises NotationError located at the offending key (or item) when the header is not valid.
    """
    opening = header_line if header_line is not None else line - 1
    written = read_written_header(yaml_text, Pos(opening, 1))
    if written is not None:
        return written
    lines = yaml_text.split("\n")

    def error(message: str, at: int | None = None, column: int = 1) -> NotationError:
        if at is None:
            return NotationError(message, file=file, line=opening, column=1, source_line="---")
        return NotationError(
            message, file=file, line=line + at, column=column, source_line=lines[at] if 0 <= at < len(lines) else None
        )

    import yaml  # the careful path: PyYAML, loaded only now

    # deferred: safeyaml loads PyYAML (~26 ms), only for a header the quick reader cannot read
    from arbo_notation.notation.safeyaml import YamlFault, refused_character

    try:
        data = load_header_yaml(yaml_text)
    except YamlFault as fault:
        at = fault.line if fault.line is not None and fault.line < len(lines) else None
        raise error(fault.message, at, (fault.column or 0) + 1) from None
    except yaml.reader.ReaderError as exc:
        at_char = refused_character(yaml_text)
        if at_char is None:
            raise error(f"the header is not valid YAML: {str(exc).splitlines()[0]}") from None
        at = yaml_text.count("\n", 0, at_char)
        column = at_char - (yaml_text.rfind("\n", 0, at_char) + 1) + 1
        raise error(
            f"the header is not valid YAML: the character U+{ord(yaml_text[at_char]):04X} is not allowed", at, column
        ) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).split("\n")[0]
        context = getattr(exc, "context", None)
        opened = getattr(exc, "context_mark", None)
        if context and opened is not None and (mark is None or opened.line != mark.line):
            context += f" that opens at line {line + opened.line} column {opened.column + 1}"
        message = f"the header is not valid YAML: {problem}" + (f" ({context})" if context else "")
        if mark is not None:
            at = min(mark.line, max(len(lines) - 1, 0))
            return_line = lines[at] if at < len(lines) else ""
            column = min(mark.column, len(return_line)) + 1
            raise error(message, at, column) from None
        raise error(message) from None

    keys = [k for k, _ in _key_lines(lines)]
    for i, key in enumerate(keys):
        if key in keys[:i]:
            at = [n for k, n in _key_lines(lines) if k == key][1]
            raise error(f"the header gives '{key}' twice", at)
    try:
        return header_from_mapping(data, Pos(opening, 1))
    except HeaderFault as fault:
        if fault.key is None and fault.item is None:
            raise error(fault.message) from None
        at, column = _locate(lines, fault.key, fault.item)
        raise error(fault.message, at, column) from None
