"""Reading untrusted YAML: the safe loader's types, no anchors or aliases, a bounded depth, located faults.

``yaml.safe_load`` alone is not enough for input from anyone: aliases let 350 bytes expand past a
gigabyte ("billion laughs") or refer to themselves (data no writer can write back); deep nesting
makes PyYAML's C composer crash the interpreter (or, from PyYAML 6.0.4, libyaml refuse it in its own
words, at a column of its own) and the writers hit RecursionError; and a tagged
scalar it cannot build (``!!int ""``, ``!!bool x``) raises IndexError or KeyError rather than a
YAMLError. ``load_yaml`` composes the document itself from the parser's events, refusing anchors,
aliases and nesting deeper than a bound as it goes, then builds it with the safe constructor; any
fault is a ``YamlFault`` at the line and column of the offending value. YAML syntax errors stay
PyYAML's own ``YAMLError`` (with their marks), as the callers already report them.

Some scalars may be kept as text (``text_at``): the header's text fields read ``round: 010`` as
'010' and ``event: 12:30:00`` as '12:30:00', where YAML 1.1 would give the numbers 8 and 45000.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

import yaml
from yaml.events import (
    AliasEvent,
    CollectionStartEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from arbo_notation.errors import ArboError

__all__ = ["SAFE_LOADER", "YamlFault", "deeper_than", "load_yaml", "refused_character"]

#: The C implementation of PyYAML's safe loader when libyaml is there (same safe tag set, faster).
SAFE_LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_STR = "tag:yaml.org,2002:str"
_NULL = "tag:yaml.org,2002:null"
_TAG_PREFIX = "tag:yaml.org,2002:"
#: Merge keys ('<<: {...}' copies one mapping into another, so what is read is not what is written
#: where it stands): refused where they stand.
_MERGE = "tag:yaml.org,2002:merge"
#: Binary data: the safe constructor decodes it leniently, skipping whatever is not base64.
_BINARY = "tag:yaml.org,2002:binary"


class YamlFault(ArboError):
    """YAML that the parser reads but that cannot be taken: the message and, 0-based, where."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message if line is None else f"line {line + 1}, column {(column or 0) + 1}: {message}")
        self.message = message
        self.line = line
        self.column = column


def load_yaml(
    text: str,
    *,
    what: str,
    max_depth: int,
    text_at: Callable[[tuple[str, ...]], bool] | None = None,
    loader: type = SAFE_LOADER,
) -> Any:
    """The data of one YAML document (None for an empty one), built with the safe constructor.

    ``what`` names the document in messages ('a header'); lists and mappings may nest at most
    ``max_depth`` deep (the top one counts); a plain scalar at a path where ``text_at(path)`` is
    true stays text unless it is a null (empty, ~ or null). Raises yaml.YAMLError for YAML that
    cannot be parsed, YamlFault for an anchor, an alias, too deep a nesting or a value the safe
    constructor cannot build.
    """
    reader = loader(text)  # the pure-Python reader checks the characters here: a YAMLError
    try:
        composer = _Composer(reader, what, max_depth, text_at)
        try:
            node = composer.document()
        except yaml.MarkedYAMLError as error:
            if loader is yaml.SafeLoader or not _refused_nesting(error):
                raise
            # libyaml (0.2.6 and after) refuses a nesting of 1000 itself, while scanning ahead of
            # the events our composer bounds: the pure reader, which scans no further than it
            # must, meets our bound first and says where, in our words.
            return load_yaml(text, what=what, max_depth=max_depth, text_at=text_at, loader=yaml.SafeLoader)
        if node is None:
            return None
        try:
            return reader.construct_document(node)
        except yaml.YAMLError:
            raise
        except Exception as error:  # noqa: BLE001 - the safe constructor's own faults, whatever their type
            raise _construction_fault(node, error, composer.tagged) from None
    finally:
        reader.dispose()


def _refused_nesting(error: yaml.MarkedYAMLError) -> bool:
    """Whether the error is the C scanner's own refusal of deep nesting (flow or block)."""
    return "nesting depth" in (error.problem or "")


def deeper_than(value: Any, limit: int) -> bool:
    """Whether lists and mappings (dict keys and values) nest more than ``limit`` deep in ``value``.

    Loaded data only (no cycles); iterative, so any depth is measured without recursion.
    """
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = [*item.keys(), *item.values()]
        elif isinstance(item, (list, tuple, set, frozenset)):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


class _Composer:
    """PyYAML's composer, without recursion, aliases or anchors, with a depth bound and text paths."""

    def __init__(self, reader: Any, what: str, max_depth: int, text_at: Callable[[tuple[str, ...]], bool] | None):
        self.reader = reader
        self.what = what
        self.max_depth = max_depth
        self.text_at = text_at
        self.tagged: set[int] = set()  # the ids of the scalars the text gave a tag ('!!int x')

    def fault(self, message: str, event: Any) -> YamlFault:
        mark = event.start_mark
        return YamlFault(message, mark.line, mark.column) if mark is not None else YamlFault(message)

    def events(self) -> Iterator[Any]:
        reader = self.reader
        while reader.check_event():
            yield reader.get_event()

    def document(self) -> Node | None:
        events = self.events()
        next(events)  # stream start
        start = next(events)
        if isinstance(start, StreamEndEvent):
            return None
        node = self.node(events)
        next(events)  # document end
        after = next(events)
        if not isinstance(after, StreamEndEvent):
            raise yaml.composer.ComposerError(
                "expected a single document in the stream",
                start.start_mark,
                "but found another document",
                after.start_mark,
            )
        return node

    def node(self, events: Iterator[Any]) -> Node:
        """The next node: a scalar, or a collection built with an explicit stack of the open ones."""
        # Each open collection: its node, its path (the text keys from the top mapping down; None
        # once inside a list or under a key that is not text), and for a mapping the key waiting
        # for its value.
        stack: list[list[Any]] = []
        root: Node | None = None
        for event in events:
            if isinstance(event, AliasEvent) or getattr(event, "anchor", None) is not None:
                raise self.fault(f"YAML anchors and aliases (&name, *name) are not allowed in {self.what}", event)
            if isinstance(event, (ScalarEvent, CollectionStartEvent)):
                path = self.child_path(stack)
                if isinstance(event, ScalarEvent):
                    node: Node = self.scalar(event, path)
                else:
                    if len(stack) >= self.max_depth:
                        raise self.fault(f"{self.what} nests lists and mappings more than {self.max_depth} deep", event)
                    node = self.collection(event)
                if stack:
                    self.refuse_repeated_key(stack, node, event)
                    self.attach(stack[-1], node)
                else:
                    root = node
                if isinstance(event, CollectionStartEvent):
                    stack.append([node, path, None, {} if isinstance(node, MappingNode) else None])
            else:  # the end of the innermost open collection
                finished = stack.pop()[0]
                finished.end_mark = event.end_mark
            if not stack:
                assert root is not None
                return root
        raise yaml.composer.ComposerError(None, None, "the document ends inside a collection", None)

    @staticmethod
    def child_path(stack: list[list[Any]]) -> tuple[str, ...] | None:
        """The path of the next value: under its key for a mapping's value, None elsewhere."""
        if not stack:
            return ()
        node, path, key, _ = stack[-1]
        if path is None or not isinstance(node, MappingNode) or key is None:
            return None
        if key.tag != _STR or not isinstance(key, ScalarNode):
            return None
        return (*path, key.value)

    def refuse_repeated_key(self, stack: list[list[Any]], node: Node, event: Any) -> None:
        """A YamlFault at a mapping's key met before in the same mapping (PyYAML keeps the last value
        silently: ``{Ana: 99, Ben: 7, Ana: 21}`` would read as Ana 21), plain or written ``? key``."""
        frame = stack[-1]
        if frame[3] is None or frame[2] is not None:  # not a mapping, or this node is a value
            return
        if not isinstance(node, ScalarNode):
            return  # a list or mapping as a key: the constructor refuses it
        key = (node.tag, node.value)
        if key not in frame[3]:
            frame[3][key] = True
            return
        the = "the " + self.what.split(" ", 1)[1] if self.what.startswith(("a ", "an ")) else self.what
        where = "" if len(stack) == 1 else " in one mapping"
        raise self.fault(f"{the} gives '{node.value}' twice{where}", event)

    @staticmethod
    def attach(frame: list[Any], node: Node) -> None:
        parent = frame[0]
        if isinstance(parent, SequenceNode):
            parent.value.append(node)
        elif frame[2] is None:
            frame[2] = node  # a key: its value comes next
        else:
            parent.value.append((frame[2], node))
            frame[2] = None

    def scalar(self, event: ScalarEvent, path: tuple[str, ...] | None) -> ScalarNode:
        tag = event.tag
        if tag is None or tag == "!":
            tag = self.reader.resolve(ScalarNode, event.value, event.implicit)
            plain = event.implicit[0] and event.tag is None
            if plain and tag != _NULL and path and self.text_at is not None and self.text_at(path):
                tag = _STR
        if tag == _MERGE:
            raise self.fault(f"merge keys (<<) are not allowed in {self.what}", event)
        if tag == _BINARY and not _is_base64(event.value):
            raise self.fault(f"!!binary data in {self.what} must be base64 (A-Z, a-z, 0-9, +, /, = padding)", event)
        node = ScalarNode(tag, event.value, event.start_mark, event.end_mark, style=event.style)  # type: ignore[arg-type]  # types-PyYAML: a node takes the C parser's Mark as well
        if event.tag is not None:
            self.tagged.add(id(node))
        return node

    def collection(self, event: Any) -> Node:
        kind = SequenceNode if isinstance(event, SequenceStartEvent) else MappingNode
        assert isinstance(event, (SequenceStartEvent, MappingStartEvent))
        tag = event.tag
        if tag is None or tag == "!":
            tag = self.reader.resolve(kind, None, event.implicit)
        return kind(tag, [], event.start_mark, None, flow_style=event.flow_style)  # type: ignore[arg-type]  # types-PyYAML: a node takes the C parser's Mark as well


def _is_base64(text: str) -> bool:
    """Whether ``text`` (white space aside, as YAML folds it) is base64 with its padding."""
    import base64
    import binascii

    try:
        base64.b64decode("".join(text.split()), validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


def _scalars(node: Node) -> Iterator[ScalarNode]:
    """Every scalar of a composed document, in the order of the text (no aliases: a tree)."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, ScalarNode):
            yield item
        elif isinstance(item, SequenceNode):
            stack.extend(reversed(item.value))
        else:
            for key, value in reversed(item.value):
                stack += [value, key]


def _construction_fault(node: Node, error: Exception, tagged: set[int]) -> YamlFault:
    """Where the safe constructor failed: the first scalar it cannot build alone, else the top."""
    for scalar in _scalars(node):
        if scalar.tag == _STR:
            continue
        try:
            yaml.constructor.SafeConstructor().construct_object(scalar)
        except Exception:  # noqa: BLE001 - found it
            short = scalar.tag.replace(_TAG_PREFIX, "!!") if scalar.tag.startswith(_TAG_PREFIX) else scalar.tag
            value = scalar.value
            if len(value) > 40:  # a number of 5000 digits: its start is enough
                value = f"{value[:30]}... ({len(value)} characters)"
            message = f"YAML cannot read {value!r} as {short}"
            if not scalar.style and id(scalar) not in tagged:  # a plain word YAML took for a type
                message += " (put it in quotes to have it read as text)"
            return YamlFault(message, scalar.start_mark.line, scalar.start_mark.column)
    mark = node.start_mark
    return YamlFault(f"YAML cannot build this value ({type(error).__name__}: {error})", mark.line, mark.column)


def refused_character(text: str) -> int | None:
    """The index of the first character YAML does not allow in a document (a NUL, most control
    characters, ...), or None: for a ReaderError, whose position the C reader gives in bytes."""
    found = yaml.reader.Reader.NON_PRINTABLE.search(text)
    return found.start() if found else None
