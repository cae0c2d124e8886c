"""One-line YAML values as PyYAML's safe loader reads them, without PyYAML: its table of implicit
types, plain and quoted scalars, and flow lists and mappings of them.

The quick header reader (keys.py) reads the writer's own form with these words: nearly
every header of a real file is one the writer wrote, so this is the path of almost every game,
and it loads no YAML library.

Kept by measurement (issue 35, 2 cores, Python 3.11): ``import yaml`` costs 26-28 ms of a start
(``python -X importtime -c "import yaml"``, five runs), over the 20 ms a check of one small file
may grow; ``yaml.safe_load`` of one value costs some 49 µs (a few values a header: some 2 s more
on `arbo check -j 1` of 10,000 games, which takes 2.4 s), and PyYAML's own resolver, 0.8 µs a
value, still needs the import and leaves the flow lists and mappings to read here. The larger regular
expressions are compiled on first use, only those a file's headers need. ``value_of`` answers
NOT_READ for anything outside the subset (comments, anchors, tags, floats, ...), and the header
is then read by the safe loader; where it answers, it answers what the safe loader would
(tests/notation/test_notation_header.py holds it so with hypothesis, on both loaders).
"""

from __future__ import annotations

from typing import Any
import functools
import re


#: PyYAML's table of implicit types (yaml.resolver.Resolver, YAML 1.1): (tag, pattern, flags, the
#: first characters it is tried on), in PyYAML's order, since the first that matches wins. A copy, so
#: that reading a header needs no YAML library; tests/notation/test_notation_header.py holds it equal to
#: PyYAML's own, the patterns to the letter.
IMPLICIT_TYPES = (
    (
        "tag:yaml.org,2002:bool",
        """^(?:yes|Yes|YES|no|No|NO
                    |true|True|TRUE|false|False|FALSE
                    |on|On|ON|off|Off|OFF)$""",
        re.X,
        "yYnNtTfFoO",
    ),
    (
        "tag:yaml.org,2002:float",
        """^(?:[-+]?(?:[0-9][0-9_]*)\\.[0-9_]*(?:[eE][-+][0-9]+)?
                    |\\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
                    |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*
                    |[-+]?\\.(?:inf|Inf|INF)
                    |\\.(?:nan|NaN|NAN))$""",
        re.X,
        "-+0123456789.",
    ),
    (
        "tag:yaml.org,2002:int",
        """^(?:[-+]?0b[0-1_]+
                    |[-+]?0[0-7_]+
                    |[-+]?(?:0|[1-9][0-9_]*)
                    |[-+]?0x[0-9a-fA-F_]+
                    |[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$""",
        re.X,
        "-+0123456789",
    ),
    ("tag:yaml.org,2002:merge", "^(?:<<)$", 0, "<"),
    (
        "tag:yaml.org,2002:null",
        """^(?: ~
                    |null|Null|NULL
                    | )$""",
        re.X,
        ["~", "n", "N", ""],
    ),
    (
        "tag:yaml.org,2002:timestamp",
        """^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]
                    |[0-9][0-9][0-9][0-9] -[0-9][0-9]? -[0-9][0-9]?
                     (?:[Tt]|[ \\t]+)[0-9][0-9]?
                     :[0-9][0-9] :[0-9][0-9] (?:\\.[0-9]*)?
                     (?:[ \\t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$""",
        re.X,
        "0123456789",
    ),
    ("tag:yaml.org,2002:value", "^(?:=)$", 0, "="),
    ("tag:yaml.org,2002:yaml", r"^(?:!|&|\*)$", 0, "!&*"),
)
#: YAML 1.1's words for true and false, lower-cased (yaml.constructor.SafeConstructor.bool_values).
BOOL_WORDS = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}
#: What a double-quoted string's one-character escapes stand for (yaml.scanner.Scanner's table).
ESCAPE_REPLACEMENTS = {
    "0": "\0",
    "a": "\x07",
    "b": "\x08",
    "t": "\x09",
    "\t": "\x09",
    "n": "\x0a",
    "v": "\x0b",
    "f": "\x0c",
    "r": "\x0d",
    "e": "\x1b",
    " ": "\x20",
    '"': '"',
    "\\": "\\",
    "/": "/",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}


@functools.cache
def implicit_resolvers() -> dict[str, list[tuple[str, re.Pattern[str]]]]:
    """IMPLICIT_TYPES compiled, by first character, as PyYAML keeps them (compiled on first use)."""
    table: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
    for tag, pattern, flags, first in IMPLICIT_TYPES:
        compiled = _compiled(pattern, flags)
        for character in first:
            table.setdefault(character, []).append((tag, compiled))
    return table


@functools.lru_cache(maxsize=256)  # bounded: a hostile header may start words with any character
def _resolvers_of(character: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The implicit types tried on a plain scalar that starts with ``character``, in PyYAML's
    order, compiled on first use for that character alone (a header of names and card codes
    needs only the patterns of their first letters: of bool and null, or none)."""
    return tuple(
        (tag, _compiled(pattern, flags)) for tag, pattern, flags, first in IMPLICIT_TYPES if character in tuple(first)
    )  # tuple(): '' is in every string, but starts only null


@functools.cache
def _compiled(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``pattern`` compiled on first use: the flow and plain patterns below take some 20 ms to
    compile (more than the 20 ms a check's start may grow), and a header the writer wrote needs
    none of them (`arbo check` of one small file: 90 -> 81 ms of CPU, bench/bench_startup.py --runs 15)."""
    return re.compile(pattern, flags)


# Printable characters other than space, without YAML's line breaks (\x85, \u2028, \u2029):
# written as what they are not, since a class of the wide ranges they are takes the regular
# expression compiler twelve times as long (a tenth of a second at every start, over all patterns).
_NONSPACE = r"[^\x00-\x20\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]"
_QUOTED_CHAR = rf"""(?!["'\\])(?: |{_NONSPACE})"""  # a quoted string stays on one line
_ESCAPED = r"""\\(?:[0abtnvfre"\\NL_P]|x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})"""
# The repetitions are possessive (*+): each character of a quoted string or a plain scalar is
# taken once, for good, so a 16 MB value is matched in constant memory (a plain * kept a
# backtracking point per character: 150 bytes each, 2 GB for the value).
_DOUBLE = f'"(?:{_QUOTED_CHAR}|\'|{_ESCAPED})*+"'
_SINGLE = rf"""'(?:{_QUOTED_CHAR}|["\\]|'')*+'"""
_FLOW_PLAIN = r"[A-Za-z0-9_][A-Za-z0-9_ .'/()+-]*"  # as the writer's flow_scalar: no ',[]{}:#'
# Atomic, as YAML's scanner takes a scalar whole (and so failing matches do not backtrack for ages).
_FLOW_ITEM = f"(?>{_DOUBLE}|{_SINGLE}|{_FLOW_PLAIN})"
_FLOW_PAIR = f"{_FLOW_ITEM} *: +{_FLOW_ITEM}"
_SEP = "[ \n]*,[ \n]*"  # continuation lines are joined with '\n', their indentation dropped
_FLOW_LIST = rf"\[[ \n]*(?:{_FLOW_ITEM}(?:{_SEP}{_FLOW_ITEM})*+[ \n]*)?\]\Z"
_FLOW_MAP = rf"\{{[ \n]*(?:{_FLOW_PAIR}(?:{_SEP}{_FLOW_PAIR})*+[ \n]*)?\}}\Z"
_FLOW_PAIRS = f"({_FLOW_ITEM}) *: +({_FLOW_ITEM})"
# A one-line plain scalar in block context, as PyYAML's scanner takes it: no indicator first
# (but '-', '?' or ':' before a non-space), no ': ' or ':' last, no ' #' (a comment).
_BLOCK_PLAIN = (
    rf"""(?:(?![-?:,\[\]{{}}#&*!|>'"%@`]){_NONSPACE}|[-?:](?={_NONSPACE}))"""
    rf"(?:(?!:){_NONSPACE}|:(?={_NONSPACE})| +(?=[^ #]))*+\Z"
)
_QUOTED = rf"(?:{_DOUBLE}|{_SINGLE})\Z"
_ESCAPE = re.compile(r"\\(x..|u....|U........|.)")
_FAST_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})\Z")
_WORD = re.compile(r"[A-Za-z0-9_]+\Z")  # a plain scalar in any context, its type YAML's implicit one
_FAST_INT = re.compile(r"(?:0|[1-9][0-9]{0,3999})\Z")  # Python refuses more than 4300 digits
_NO = object()  # what is not read here
_MAX_KEY = 1000  # PyYAML looks at most 1024 characters back for a key's ':', so longer keys are errors


def _implicit_tag(word: str) -> str | None:
    """The type YAML gives this plain scalar (the first resolver that matches, as PyYAML picks); None for text."""
    for tag, regexp in _resolvers_of(word[:1]):
        if regexp.match(word):
            return tag
    return None


_PLAINS: dict[str, Any] = {}


def _plain(word: str) -> object:
    """A plain scalar as YAML resolves it (text, small int, date, bool, null); _NO for anything else."""
    value = _PLAINS.get(word, _NO)
    if value is not _NO:
        return value
    tag = _implicit_tag(word)
    if tag is None:
        value = word
    elif tag == "tag:yaml.org,2002:int" and _FAST_INT.match(word):
        value = int(word)
    elif tag == "tag:yaml.org,2002:timestamp" and (m := _FAST_DATE.match(word)):
        import datetime  # (here, not at the top: 1-2 ms of start-up that most headers do not need)

        try:
            value = datetime.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            return _NO  # safe_load raises: let it say so
    elif tag == "tag:yaml.org,2002:bool":
        value = BOOL_WORDS[word.lower()]
    elif tag == "tag:yaml.org,2002:null":
        value = None
    else:
        return _NO
    if len(_PLAINS) < 10000:  # card codes, names, numbers: a few hundred in practice
        _PLAINS[word] = value
    return value


def _unescape(m: re.Match[str]) -> str:
    """The character a double-quoted string's escape (\\n, \\x41, \\u00e9, ...) stands for."""
    code = m.group(1)
    if len(code) == 1:
        return ESCAPE_REPLACEMENTS[code]
    point = int(code[1:], 16)
    if point > 0x10FFFF or 0xD800 <= point <= 0xDFFF:  # libyaml refuses these
        raise ValueError(code)
    return chr(point)


def _as_text(word: str) -> str | None:
    """A plain scalar of a text field: the word as written, or None for YAML's nulls (~, null, empty)."""
    return None if _implicit_tag(word) == "tag:yaml.org,2002:null" else word


def _scalar(token: str, as_text: bool = False) -> Any:
    """A flow item or a quoted value (already matched by a regular expression above), or _NO."""
    if token[0] == '"':
        body = token[1:-1]
        if "\\" not in body:
            return body
        try:
            return _ESCAPE.sub(_unescape, body)
        except ValueError:
            return _NO
    if token[0] == "'":
        return token[1:-1].replace("''", "'")
    return _as_text(token.rstrip(" ")) if as_text else _plain(token.rstrip(" "))


_FLOW_WORDS: dict[str, Any] = {}  # plain flow items read before (card codes, names): word -> value


def _flow_list(text: str) -> object:
    """The list '[a, b, ...]' (possibly over several lines), or _NO."""
    # The common case in one split and look-ups: a word met before is a whole _FLOW_PLAIN item
    # with no ',' or bracket in it, so such a list is one _FLOW_LIST would match.
    if text.endswith("]"):
        words = text[1:-1].replace(",\n", ", ").split(", ")
        values = list(map(_FLOW_WORDS.get, words))
        if None not in values:
            return values
    if not _compiled(_FLOW_LIST).match(text):
        return _NO
    values = []
    for token in _compiled(_FLOW_ITEM).findall(text):
        value = _scalar(token)
        if value is _NO:
            return _NO
        if token[0] not in "\"'" and len(_FLOW_WORDS) < 10000:
            _FLOW_WORDS[token.rstrip(" ")] = value
        values.append(value)
    return values


def _flow_map(text: str, as_text: bool = False) -> Any:
    """The mapping '{a: b, ...}' (possibly over several lines), or _NO; its values as text if ``as_text``."""
    if not _compiled(_FLOW_MAP).match(text):
        return _NO
    out = {}
    for key_token, value_token in _compiled(_FLOW_PAIRS).findall(text):
        key = _scalar(key_token)
        value = _scalar(value_token, as_text and isinstance(key, str))  # as the careful reader's paths
        if key is _NO or value is _NO or len(key_token) > _MAX_KEY or key in out:
            return _NO  # a repeated key: an error the careful reader reports where it stands
        out[key] = value
    return out


def _value(text: str, as_text: bool = False, values_as_text: bool = False) -> object:
    """The value after 'key: ' (flow collections possibly over several lines), or _NO.

    A plain scalar stays text if ``as_text``; the values of a flow mapping if ``values_as_text``.
    """
    first = text[0]
    if first == "[":
        return _flow_list(text)
    if first == "{":
        return _flow_map(text, values_as_text)
    if first in "\"'":
        return _scalar(text) if _compiled(_QUOTED).match(text) else _NO
    if not _compiled(_BLOCK_PLAIN).match(text):
        return _NO
    return _as_text(text) if as_text else _plain(text)


#: What value_of answers for a text it cannot read.
NOT_READ = _NO


def value_of(text: str, as_text: bool = False, values_as_text: bool = False) -> Any:
    """The one-line value after a top-level 'key: ' (a flow collection's lines joined), as the
    safe loader reads it (a plain scalar kept as text if ``as_text``, a flow mapping's values if
    ``values_as_text``), or NOT_READ."""
    return _value(text, as_text, values_as_text)


def plain_key(word: str) -> bool:
    """Whether a key written plain is read as that very text ('yes:' is the key True)."""
    return len(word) <= _MAX_KEY and _plain(word) == word


def reads_as_itself(word: str) -> bool:
    """Whether ``word``, written plain, is read as that very text, in a flow list and as a value."""
    if _WORD.match(word):  # names and card codes: no indicator, so both read it as _plain does
        return _plain(word) == word
    return _flow_list(f"[{word}]") == [word] and _value(word) == word
