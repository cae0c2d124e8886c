"""A game's header written in canonical YAML (format_header, header_lines), beside its reader
(header.py): ``read_header(format_header(h)) == h``, and check_header says beforehand whether a
Header built by a program can be written and read back.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Iterable

import yaml

from ..engine.cards import Card
from ..errors import ArboError, HeaderFault
from .header import ISO_DATE_RE, PLAYER_MAPS, header_from_mapping, header_to_mapping
from .record import HEADER_KEYS, Header
from .safeyaml import SAFE_LOADER

LINE_WIDTH = 80


def safe_load(text: str) -> Any:
    """yaml.safe_load, with the C loader when available (for text the writer made itself)."""
    return yaml.load(text, Loader=SAFE_LOADER)  # noqa: S506 - a SafeLoader


def _dump_scalar(value: object) -> str:
    """A scalar as YAML writes it in double quotes (every character representable)."""
    text = yaml.safe_dump(value, default_style='"', allow_unicode=True, width=float("inf"))
    return text.rstrip("\n").removesuffix("\n...").rstrip("\n")


_PLAIN_CANDIDATE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_ .'/()+-]*\Z")


@functools.lru_cache(maxsize=4096)
def flow_scalar(text: str) -> str:
    """A string written so YAML reads it back in a flow list or mapping: plain when safe, else quoted."""
    if _PLAIN_CANDIDATE.match(text) and not text.endswith(" "):
        try:
            if safe_load(f"[{text}]") == [text]:
                return text
        except Exception:  # noqa: BLE001 - any word YAML cannot read back ('0x_': ValueError) is quoted
            pass
    return _dump_scalar(text)


@functools.lru_cache(maxsize=1024)
def _block_text(text: str) -> str:
    """A text value (event, site, round, ...) for 'key: value': plain when YAML reads it back as the same text."""
    if text and "\n" not in text and text == text.strip():
        try:
            loaded = safe_load(f"k: {text}")
            if isinstance(loaded, dict) and list(loaded) == ["k"]:
                value = loaded["k"]
                if isinstance(value, str) and value == text:
                    return text
                if isinstance(value, (int, float)) and not isinstance(value, bool) and str(value) == text:
                    return text
        except Exception:  # noqa: BLE001 - any text YAML cannot read back ('!!int x': ValueError) is quoted
            pass
    return _dump_scalar(text)


def _flow_items(prefix: str, items: list[str], indent: str, close: str = "]", open_: str = "[") -> list[str]:
    """A flow collection wrapped at LINE_WIDTH columns; continuation lines start with ``indent``."""
    if not items:
        return [f"{prefix}{open_}{close}"]
    lines: list[str] = []
    current = prefix + open_
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else close)
        if current.endswith(open_) and current == prefix + open_:
            current += piece
        elif len(current) + 1 + len(piece) <= LINE_WIDTH:
            current += " " + piece
        else:
            lines.append(current)
            current = indent + piece
    lines.append(current)
    return lines


def _cards_line(prefix: str, cards: Iterable[Card], indent: str) -> list[str]:
    return _flow_items(prefix, [str(c) for c in cards], indent)


def _mapping_lines(key: str, mapping: dict[str, str]) -> list[str]:
    items = [f"{flow_scalar(k)}: {v}" for k, v in mapping.items()]
    line = f"{key}: {{{', '.join(items)}}}"
    if not items:
        return [f"{key}: {{}}"]
    if len(line) <= LINE_WIDTH:
        return [line]
    return [f"{key}:"] + [f"  {item}" for item in items]


class _PlainDumper(yaml.SafeDumper):
    """The safe dumper without anchors and aliases: a value met twice is written twice, so the
    canonical text does not depend on whether two equal values were one object."""

    def ignore_aliases(self, data: Any) -> bool:
        return True

    def represent_sorted_set(self, data: set) -> yaml.Node:
        """A set in a fixed order: as Python keeps it, the order of its text changes with the hash seed."""
        ordered = sorted(data, key=lambda item: (type(item).__name__, repr(item)))
        return self.represent_mapping("tag:yaml.org,2002:set", dict.fromkeys(ordered))


_PlainDumper.add_representer(set, _PlainDumper.represent_sorted_set)


def _extra_lines(key: str, value: Any) -> list[str]:
    try:
        nested = isinstance(value, (dict, list, tuple, set, frozenset))  # leaf lists in flow style
        text = yaml.dump({key: value}, Dumper=_PlainDumper, sort_keys=False, allow_unicode=True,
                         default_flow_style=None if nested else False, width=LINE_WIDTH - 4)
        if re.search(r"^(?:---|\.\.\.)(?:[ \t]|$)", text, re.M):
            raise ValueError
    except yaml.YAMLError as exc:
        raise ArboError(f"cannot write the header key {key!r}: {exc}") from None
    except ValueError:
        text = yaml.dump({key: value}, Dumper=_PlainDumper, sort_keys=False, allow_unicode=True,
                         default_flow_style=True, default_style='"', width=float("inf"))
    return text.rstrip("\n").split("\n")


def check_header(header: Header) -> None:
    """Raise ArboError if a Header built by a program could not be written and read back."""
    try:
        header_from_mapping(header_to_mapping(header))
    except HeaderFault as fault:
        raise ArboError(f"cannot write this header: {fault.message}") from None
    for key in header.extra:
        if key in HEADER_KEYS:
            raise ArboError(f"cannot write this header: the unknown-key table holds the known key {key!r}")


def header_lines(header: Header) -> list[str]:
    """The YAML lines of a header in canonical form (without the '---' lines)."""
    lines: list[str] = []
    for key in ("event", "site", "date", "round", "annotator"):
        value = getattr(header, key)
        if value is not None:
            lines.append(f"{key}: {_block_text(value) if key != 'date' else _date_text(value)}")
    lines += _flow_items("players: ", [flow_scalar(p) for p in header.players], "  ")
    lines += _flow_items("species: ", [flow_scalar(s) for s in header.species], "  ")
    if header.names:
        lines += _mapping_lines("names", {k: flow_scalar(v) for k, v in header.names.items()})
    if header.perspective is not None:
        lines.append(f"perspective: {flow_scalar(header.perspective)}")
    if header.deck is not None:
        lines += _cards_line("deck: ", header.deck, "  ")
    for key in PLAYER_MAPS:
        mapping: dict[str, tuple[Card, ...]] = getattr(header, key)
        if mapping:
            lines.append(f"{key}:")
            for player, cards in mapping.items():
                lines += _cards_line(f"  {flow_scalar(player)}: ", cards, "    ")
    if header.result is not None:
        lines += _mapping_lines("result", {k: str(v) for k, v in header.result.items()})
    for key, value in header.extra.items():
        lines += _extra_lines(key, value)
    return lines


def _date_text(value: str) -> str:
    return value if ISO_DATE_RE.match(value) else _block_text(value)


def format_header(header: Header) -> str:
    """The header block, '---' lines included, each line ending in a newline."""
    return "---\n" + "".join(line + "\n" for line in header_lines(header)) + "---\n"
