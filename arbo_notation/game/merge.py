"""Merging the records of one game made from different seats into one that knows what any of them knew.

    >>> import arbo_notation as arbo
    >>> from arbo_notation.notation.views import partial_record
    >>> from arbo_notation.play.simulate import simulate_game
    >>> game = simulate_game(["Ana", "Ben"], 7)
    >>> arbo.merge([partial_record(game, "Ana"), partial_record(game, "Ben")]) == game
    True

Each seat's dealt hand and deck draws are taken from its record; the turns are checked against
each other one by one (the same player, the same draws from the same piles, the same planting
and discard, no card named two ways), then the merged record is replayed: a card in two places
is a rule error. Comments and glyphs that not every source shares are kept, marked by whose they
were (the record's perspective, else its file name). When every deck draw is named and the deck
runs out, the deck's order is known too and written in the header.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import PurePath
from typing import Sequence, TypeVar

from arbo_notation.engine.actions import Draw, DrawAction
from arbo_notation.engine.cards import Card
from arbo_notation.errors import ArboError
from arbo_notation.notation.model import (
    Comment,
    GameRecord,
    Header,
    Pos,
    Result,
    Reveal,
    Turn,
    Variation,
)
from arbo_notation.game.replay import replay_game


class MergeError(ArboError):
    """Seat records that do not agree: where each says what."""


def _whose(record: GameRecord) -> str:
    return record.header.perspective or PurePath(record.file).stem


def _at(record: GameRecord, pos: Pos | None) -> str:
    return f"{record.file}:{pos.line}" if pos is not None else record.file


def merge(records: Sequence[GameRecord]) -> GameRecord:
    """One record of the game from the records of its seats (and a referee's); MergeError, naming
    both files and lines, where two disagree."""
    if not records:
        raise MergeError("nothing to merge: give the records of one game")
    first = records[0]
    header = first.header
    for other in records[1:]:
        header = _merge_headers(first, header, other)
    turns = _merge_lines(records, [r.turns for r in records])
    reveals = _merge_reveals(records)
    result = _merge_results(records)
    comments = _merge_comments(records, [r.comments for r in records])
    known = {p for r in records for p in r.header.hands}
    perspective = header.perspective if all(r.header.perspective == header.perspective for r in records) else None
    header = replace(header, perspective=perspective if len(known) <= 1 else None)
    _check_deck_draws(records, header, turns)
    if header.deck is None and len(known) == len(header.players):
        header = replace(header, deck=_deck_from_draws(header, turns))
    merged = GameRecord(
        header=header,
        turns=turns,
        comments=comments,
        reveals=reveals,
        result=result,
        file=first.file,
        index=first.index,
    )
    _check_replays(merged)
    return merged


def _merge_headers(first: GameRecord, header: Header, other: GameRecord) -> Header:
    theirs = other.header
    where = f"{_at(first, header.pos)} and {_at(other, theirs.pos)}"
    if theirs.players != header.players or theirs.species != header.species:
        raise MergeError(f"{where} are not the same game: players or species differ")
    hands = dict(header.hands)
    for player, cards in theirs.hands.items():
        if player in hands and sorted(hands[player]) != sorted(cards):
            raise MergeError(f"{where} deal {player} different hands")
        hands[player] = cards
    if header.deck is not None and theirs.deck is not None and header.deck != theirs.deck:
        raise MergeError(f"{where} give different decks")
    if header.discards and theirs.discards and header.discards != theirs.discards:
        raise MergeError(f"{where} give different face-up discards")
    if header.position != theirs.position:  # (each seat's own view of it, say: what to join is not told)
        raise MergeError(f"{where} start from different positions: only records that start alike are merged")
    filled = {}
    for key in ("event", "site", "date", "round", "annotator", "result"):
        mine, yours = getattr(header, key), getattr(theirs, key)
        if mine is not None and yours is not None and mine != yours:
            raise MergeError(f"{where} disagree on '{key}': {mine!r} and {yours!r}")
        filled[key] = mine if mine is not None else yours
    names = _merge_keys(where, "names", header.names, theirs.names)
    extra = _merge_keys(where, "", header.extra, theirs.extra)
    return replace(
        header,
        hands={p: hands[p] for p in header.players if p in hands},
        deck=header.deck or theirs.deck,
        discards=header.discards or theirs.discards,
        names=names,
        extra=extra,
        **filled,
    )


Value = TypeVar("Value")


def _merge_keys(where: str, key: str, mine: dict[str, Value], yours: dict[str, Value]) -> dict[str, Value]:
    """Both maps' entries; MergeError, naming the key and both values, where the two give one
    entry different values (the rule of every header key: one record may leave a key out, two
    may not disagree on it)."""
    for name, value in yours.items():
        if name in mine and mine[name] != value:
            shown = f"{key} {name}" if key else name
            raise MergeError(f"{where} disagree on '{shown}': {mine[name]!r} and {value!r}")
    return {**mine, **{name: value for name, value in yours.items() if name not in mine}}


def _merge_lines(records: Sequence[GameRecord], lines: Sequence[Sequence[Turn]]) -> tuple[Turn, ...]:
    longest = max(range(len(lines)), key=lambda i: len(lines[i]))
    for i, line in enumerate(lines):
        if len(line) != len(lines[longest]):
            missing = lines[longest][len(line)]
            raise MergeError(
                f"{records[i].file} has {len(line)} turns where "
                f"{_at(records[longest], missing.pos)} goes on: {missing.notation()}"
            )
    return tuple(_merge_turn(records, [line[k] for line in lines]) for k in range(len(lines[longest])))


def _merge_turn(records: Sequence[GameRecord], turns: Sequence[Turn]) -> Turn:
    base = turns[0]
    draws = list(base.draws)
    for record, turn in zip(records[1:], turns[1:], strict=True):
        where = f"{_at(records[0], base.pos)} and {_at(record, turn.pos)}"
        if (turn.player, turn.plant, turn.discard) != (base.player, base.plant, base.discard) or len(turn.draws) != len(
            draws
        ):
            raise MergeError(f"{where} disagree: {base.notation()} and {turn.notation()}")
        for index, draw in enumerate(turn.draws):
            draws[index] = _merge_draw(where, draws[index], draw, base, turn)
    numbers = {t.number for t in turns if t.number is not None}
    glyphs = _merge_glyphs(records, turns)
    variations = _merge_variations(turns)
    return replace(
        base,
        draws=tuple(draws),
        number=min(numbers) if numbers else None,
        glyphs=glyphs[0],
        comments_before=_merge_comments(records, [t.comments_before for t in turns]),
        comments_after=_merge_comments(records, [t.comments_after for t in turns]) + glyphs[1],
        variations=variations,
    )


def _merge_draw(where: str, mine: DrawAction, theirs: DrawAction, base: Turn, turn: Turn) -> DrawAction:
    if not (isinstance(mine, Draw) and isinstance(theirs, Draw)):  # a skipped draw, on both sides or not
        if mine != theirs:
            raise MergeError(f"{where} disagree on a draw: {base.notation()} and {turn.notation()}")
        return mine
    if mine.owner != theirs.owner:
        raise MergeError(f"{where} disagree on a draw: {base.notation()} and {turn.notation()}")
    if mine.card is not None and theirs.card is not None and mine.card != theirs.card:
        raise MergeError(f"{where} name different cards drawn: {mine} and {theirs}")
    return mine if mine.card is not None else theirs


def _merge_glyphs(records: Sequence[GameRecord], turns: Sequence[Turn]) -> tuple[tuple[str, ...], tuple[Comment, ...]]:
    """The glyphs all sources give the turn; each source's other glyphs as a comment marked by whose."""
    shared = [g for g in turns[0].glyphs if all(g in t.glyphs for t in turns)]
    marked = [
        Comment(f"{_whose(r)}: {' '.join(g for g in t.glyphs if g not in shared)}")
        for r, t in zip(records, turns, strict=True)
        if any(g not in shared for g in t.glyphs)
    ]
    return tuple(shared), tuple(_once(marked))


def _merge_comments(records: Sequence[GameRecord], groups: Sequence[Sequence[Comment]]) -> tuple[Comment, ...]:
    """The comments every source shares, once; then each source's own, marked by whose."""
    shared = [c for c in groups[0] if all(c in g for g in groups)]
    out = list(shared)
    for record, group in zip(records, groups, strict=True):
        out += [replace(c, text=f"{_whose(record)}: {c.text}") for c in group if c not in shared]
    return tuple(_once(out))


def _once(comments: Sequence[Comment]) -> list[Comment]:
    """The comments, each text once (two copies of one seat's record give its comments once)."""
    seen: set[str] = set()
    kept = []
    for comment in comments:
        if comment.text not in seen:
            seen.add(comment.text)
            kept.append(comment)
    return kept


def _merge_variations(turns: Sequence[Turn]) -> tuple[Variation, ...]:
    seen: list[Variation] = []
    for turn in turns:
        for variation in turn.variations:
            if variation not in seen:
                seen.append(variation)
    return tuple(seen)


def _merge_reveals(records: Sequence[GameRecord]) -> tuple[Reveal, ...]:
    reveals: dict[str, Reveal] = {}
    origin: dict[str, GameRecord] = {}
    for record in records:
        for reveal in record.reveals:
            if reveal.player in reveals:
                if sorted(reveals[reveal.player].cards) != sorted(reveal.cards):
                    raise MergeError(
                        f"{_at(origin[reveal.player], reveals[reveal.player].pos)} and "
                        f"{_at(record, reveal.pos)} reveal different hands for {reveal.player}"
                    )
                continue
            reveals[reveal.player] = reveal
            origin[reveal.player] = record
    for player, reveal in reveals.items():
        showing = [(r, rv) for r in records for rv in r.reveals if rv.player == player]
        comments = _merge_comments([r for r, _ in showing], [rv.comments for _, rv in showing])
        reveals[player] = replace(reveal, comments=comments)
    return tuple(reveals.values())


def _merge_results(records: Sequence[GameRecord]) -> Result | None:
    finished = [(r, r.result) for r in records if r.result is not None and not r.result.unfinished]
    if not finished:
        return records[0].result
    first, result = finished[0]
    for record, other in finished[1:]:
        if other.scores != result.scores:
            raise MergeError(f"{_at(first, result.pos)} and {_at(record, other.pos)} give different results")
    comments = _merge_comments([r for r, _ in finished], [other.comments for _, other in finished])
    return replace(result, comments=comments)


def _deck_from_draws(header: Header, turns: Sequence[Turn]) -> tuple[Card, ...] | None:
    """The deck's order when every card of it was drawn and named; else None."""
    drawn = [d.card for t in turns for d in t.draws if isinstance(d, Draw) and d.owner is None]
    named = tuple(card for card in drawn if card is not None)
    if len(named) != len(drawn):
        return None
    dealt = len(header.players) * 7 + sum(len(c) for c in header.discards.values())
    if len(named) != len(header.species) * 8 - dealt:
        return None
    return named


def _check_deck_draws(records: Sequence[GameRecord], header: Header, turns: Sequence[Turn]) -> None:
    """A card drawn from the deck that was dealt, or drawn from it before: named two ways."""
    seen: dict[Card, str] = {card: f"dealt to {p}" for p, cards in header.hands.items() for card in cards}
    for index, turn in enumerate(turns):
        for draw in turn.draws:
            if not isinstance(draw, Draw) or draw.owner is not None or draw.card is None:
                continue  # (a deck draw naming its card is what is looked at)
            if draw.card in seen:
                places = ", ".join(_at(r, r.turns[index].pos) for r in records)
                raise MergeError(
                    f"turn {index + 1}: {places}: {turn.player} draws {draw.card} from the deck, "
                    f"but it was {seen[draw.card]}"
                )
            seen[draw.card] = f"drawn from the deck in turn {index + 1}"


def _check_replays(merged: GameRecord) -> None:
    """A merged record that is no legal game: its first rule error."""
    for diagnostic in replay_game(merged).errors:
        raise MergeError(f"the merged record is not a legal game: {diagnostic.message}")


__all__ = ["MergeError", "merge"]
