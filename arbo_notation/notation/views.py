"""Partial views of a record: what a spectator, or one seated player, could have written down."""

from __future__ import annotations

from dataclasses import replace

from arbo_notation.engine.actions import Draw, DrawAction
from arbo_notation.engine.view import view_of
from arbo_notation.notation.model import GameRecord, Turn


def partial_record(record: GameRecord, seated: str | None = None) -> GameRecord:
    """The record as someone without the deck order wrote it.

    A spectator (``seated`` None) sees no dealt hand and no card drawn from the deck; a seated
    player also sees their own dealt hand and their own deck draws. Draws from discard piles stay
    written (they are public), as do the reveals and the result. A record that starts from a
    position starts from what the seat (or a spectator) sees of it.
    """
    header = record.header
    hands = {seated: header.hands[seated]} if seated is not None and seated in header.hands else {}
    position = None if header.position is None else view_of(header.position, seated).position
    partial_header = replace(header, deck=None, hands=hands, perspective=seated, position=position)
    turns = tuple(_hide_turn(turn, seated) for turn in record.turns)
    return replace(record, header=partial_header, turns=turns)


def _hide_turn(turn: Turn, seated: str | None) -> Turn:
    draws = tuple(_hide_draw(draw, turn.player == seated) for draw in turn.draws)
    variations = tuple(replace(v, turns=tuple(_hide_turn(t, seated) for t in v.turns)) for v in turn.variations)
    return replace(turn, draws=draws, variations=variations)


def _hide_draw(draw: DrawAction, own: bool) -> DrawAction:
    if isinstance(draw, Draw) and draw.owner is None and not own:
        return Draw()  # a deck draw, its card unseen
    return draw
