"""A record in the canonical form, as `arbo fmt` writes it (notation/writer.py), for the editor
to apply: the server writes nothing to disk."""

from __future__ import annotations

from arbo_notation.errors import ArboError
from arbo_notation.notation.reading.reader import parse_all
from arbo_notation.notation.writer import format_games


def canonical(text: str) -> str | None:
    """The canonical text of a record; None when a game has a syntax error (as `arbo fmt`, the
    file is then left as it is: the diagnostics say why)."""
    outcome = parse_all(text, "<editor>")
    if outcome.errors:
        return None
    try:
        return format_games(outcome.games)
    except ArboError:  # a record the writer cannot write (checked as `arbo fmt` reports it)
        return None
