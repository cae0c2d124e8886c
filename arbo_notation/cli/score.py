"""`arbo score`: placeholder module replaced by the scoring helper."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    pass
