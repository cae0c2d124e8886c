"""A replayed game as plain data for a page: every position, the move list, the notes, the scoring.

The engine computes everything here; the page's script only shows it. Data made for one player's
view (``viewer``) holds nothing that player did not see before the end of the game: the others'
hands are hidden counts, their cards drawn from the deck are not named, and a position is scored
"as if the game ended here" only when the hands shown are known.
"""

from __future__ import annotations

from typing import Any

from arbo_notation.engine.cards import species_name
from arbo_notation.engine.scoring import ScoreSheet
from arbo_notation.notation.model import Comment
from arbo_notation.game.replay import Line, LinePath
from arbo_notation.present.report import winner_line
from arbo_notation.game.tree import GameTree
from arbo_notation.present.navigation import HIDDEN, Cursor, PlayerView, ReplayModel, glyph_meaning, seen_notation
from arbo_notation.game.knowledge import Knowledge, View
from arbo_notation.analysis.accuracy import ACCURACY_RULE, of_record
from arbo_notation.notation.engine_notes import note_of

#: A viewer who is no player (names start with a letter): sees no card another player drew from the deck.
NOBODY = ""
#: Header fields shown above the board, in this order.
HEADER_FIELDS = ("event", "site", "date", "round", "annotator")


def line_key(path: LinePath) -> str:
    """A line's name in the page and in its links: '' for the main line, '5.0/2.1' for a
    variation (turn index and variation number of each branch, outermost first)."""
    return "/".join(f"{index}.{number}" for index, number in path)


def available_views(model: ReplayModel) -> list[str | None]:
    """The seats the record can show: every hand it knows (None), then each player whose dealt hand
    it knows (a player's view hides the others' hands)."""
    setup = model.lines[()].states[0]
    known = [player for player in model.players if not setup.hand(player).hidden]
    return [None, *known]


def game_data(tree: GameTree, viewer: str | None = None) -> dict[str, Any]:
    """The page's data for one game; ``viewer`` limits it to what that player saw."""
    model = ReplayModel(tree)
    default: str | None
    if viewer is not None:
        model.set_perspective(viewer)
        views: list[str | None] = [viewer]
        default = viewer
    else:
        model.set_perspective(None)
        views = available_views(model)
        perspective = tree.record.header.perspective
        default = perspective if perspective in views else None
    builder = _Builder(model, viewer, views)
    lines = [builder.line(line) for line in model.lines.values()]
    rows = builder.rows()
    return {
        "index": tree.record.index,
        "title": _title(model),
        "header": [[name, str(value)] for name in HEADER_FIELDS if (value := getattr(model.header, name))],
        "players": list(model.players),
        "species": [{"code": code, "name": species_name(code, model.header.names)} for code in model.species],
        "views": views,
        "view": default,
        "lines": lines,
        "positions": builder.positions,
        "rows": rows,
        "sheets": builder.sheets,
        "end": builder.position_id[Cursor((), model.lines[()].legal)],
        "diagnostics": [d.message for d in tree.diagnostics],
        "valid": tree.valid,
        "result": _result(tree),
        # what each glyph of the game says, NAGs included (the page shows it by the glyph)
        "glyphs": {glyph: glyph_meaning(glyph) for row in rows for glyph in row["glyphs"]},
        "margins": margins(tree),
        # each player's points lost and accuracy, from the same notes (analysis/accuracy.py)
        "accuracy": [summary.to_json() for summary in of_record(tree.record)],
        "accuracyRule": ACCURACY_RULE,
    }


def margins(tree: GameTree) -> list[dict[str, Any]]:
    """The engine's judgement of each main-line turn, as its ``{arbo: ...}`` notes give it (read
    from the record: no engine runs when a page is made): turn, mover, expected margin, glyph."""

    legal = tree.lines[()].legal
    found = []
    for index, turn in enumerate(tree.record.turns[:legal], 1):
        note = note_of(turn)
        if note is not None:
            found.append(
                {
                    "index": index,
                    "player": turn.player,
                    "value": note.value,
                    "glyph": note.glyph,
                    "best": note.best,
                    "gain": note.gain,
                }
            )
    return found


def knowledge_data(known: Knowledge) -> dict[str, Any]:
    """What one view knows at a position, for the page: each hand as shown, the unseen values by
    species, and each player's right to score each species ([status, low, high], seat order)."""
    unseen = known.unseen_by_species()
    species = list(dict.fromkeys(code for (_, code) in known.rights))
    return {
        "view": str(known.view),
        "deck": known.deck_size,
        "inHands": sum(hand.unknown for hand in known.hands.values()),
        "hands": [list(hand.shown()) for hand in known.hands.values()],
        "unseen": [[code, [card.value for card in unseen.get(code, ())]] for code in species],
        "rights": [
            [code, [[(r := known.right(p, code)).status.value, r.low, r.high] for p in known.players]]
            for code in species
        ],
    }


def _title(model: ReplayModel) -> str:
    players = model.players
    return " vs ".join(players) if len(players) == 2 else ", ".join(players)


def _result(tree: GameTree) -> str:
    sheet = tree.sheet
    if sheet is not None:
        return winner_line(sheet)
    result = tree.record.result
    if result is None or result.unfinished:
        return "unfinished"
    return ", ".join(f"{name} {points}" for name, points in result.scores)


def _texts(comments: tuple[Comment, ...]) -> list[str]:
    return [comment.text.strip() for comment in comments]


class _Builder:
    """Walks every position of a model once, numbering positions and score sheets."""

    def __init__(self, model: ReplayModel, viewer: str | None, views: list[str | None]) -> None:
        self.model = model
        self.viewer = viewer
        self.views = views
        self.positions: list[dict[str, Any]] = []
        self.position_id: dict[Cursor, int] = {}
        self.sheets: list[dict[str, Any]] = []
        self._sheet_ids: dict[int, int] = {}
        for path, line in model.lines.items():
            for index in range(line.legal + 1):
                cursor = Cursor(path, index)
                self.position_id[cursor] = len(self.positions)
                self.positions.append(self.position(cursor))

    def line(self, line: Line) -> dict[str, Any]:
        parent = line.parent
        return {
            "key": line_key(line.path),
            "start": line.start,
            "first": line.first,
            "legal": line.legal,
            "parent": None if parent is None else line_key(parent),
            "branch": list(line.branch) if line.branch else None,
            "positions": [self.position_id[Cursor(line.path, i)] for i in range(line.legal + 1)],
            "variations": [len(turn.variations) for turn in line.turns],
        }

    def position(self, cursor: Cursor) -> dict[str, Any]:
        model = self.model
        model.move_to(cursor)
        state = model.state
        over = state.is_over
        views = [model.player_view(player) for player in model.players]
        turn = model.turn
        notes = model.notes()
        closing: list[str] = []
        if not cursor.line and cursor.index == model.main_turns and over:
            record = model.record
            closing = [text for reveal in record.reveals for text in _texts(reveal.comments)]
            if record.result is not None:
                closing += _texts(record.result.comments)
        return {
            "line": line_key(cursor.line),
            "index": cursor.index,
            "number": model.turns_played,
            "over": over,
            "deck": state.deck_size,
            "toMove": None if over else state.current_player,
            "turn": None
            if turn is None
            else {
                "player": turn.player,
                "notation": seen_notation(turn, self.viewer),
                "masked": seen_notation(turn, NOBODY) if self.viewer is None else None,
                "glyphs": list(turn.glyphs),
            },
            "players": [
                {
                    "trees": [[coord.x, coord.y, str(card)] for coord, card in view.trees],
                    "hand": list(view.hand),
                    "pile": [str(card) for card in view.pile],
                    "marked": None if view.marked is None else [view.marked.x, view.marked.y],
                }
                for view in views
            ],
            "notes": {
                "before": _texts(notes.before),
                "after": _texts(notes.after) + closing,
                "variationBefore": _texts(notes.variation_before),
                "variationAfter": _texts(notes.variation_after),
                "inVariation": notes.in_variation,
                "variations": notes.variations_here,
                "problems": list(notes.problems),
                "warnings": list(notes.warnings),
            },
            "known": {
                view or "": knowledge_data(model.knowledge(cursor, View.of_seat(view) if view else View.record()))
                for view in self.views
            },
            "sheet": self.sheet(cursor, hidden=bool(views) and any(HIDDEN in v.hand for v in views)),
            "unscored": self.unscored(cursor, views),
        }

    def sheet(self, cursor: Cursor, hidden: bool) -> int | None:
        """The position's score sheet (its number in ``sheets``); None when a hand shown is hidden."""
        if hidden:
            return None
        sheet = self.model.sheet(cursor)
        if sheet is None:
            return None
        key = id(sheet)
        if key not in self._sheet_ids:
            self._sheet_ids[key] = len(self.sheets)
            self.sheets.append(sheet_data(sheet))
        return self._sheet_ids[key]

    def unscored(self, cursor: Cursor, views: list[PlayerView]) -> str:
        reason = self.model.unscored_reason(cursor)
        if reason:
            return reason
        hidden = [view.name for view in views if HIDDEN in view.hand]
        if hidden:
            return f"cannot score here: {self.viewer}'s view hides the other hands"
        return ""

    def rows(self) -> list[dict[str, Any]]:
        model = self.model
        model.set_perspective(self.viewer)
        rows = []
        for row in model.rows():
            notation = row.notation
            masked = None
            if self.viewer is None and row.number is not None:
                masked = _masked_row(model, row.target, row.number)
            rows.append(
                {
                    "line": line_key(row.target.line),
                    "position": self.position_id[row.target],
                    "number": row.number,
                    "player": row.player,
                    "notation": notation,
                    "masked": masked if masked != notation else None,
                    "glyphs": list(row.glyphs),
                    "depth": row.depth,
                    "status": str(row.status),
                    "opens": row.first_of_variation,
                    "variations": row.variations,
                }
            )
        return rows


def _masked_row(model: ReplayModel, target: Cursor, number: int) -> str | None:
    """A row's turn with the cards drawn from the deck not named (as the other players saw it)."""
    line = model.lines[target.line]
    index = number - line.start - 1
    if not 0 <= index < len(line.turns):
        return None
    return seen_notation(line.turns[index], NOBODY)


def sheet_data(sheet: ScoreSheet) -> dict[str, Any]:
    """A score sheet as `arbo score --json` gives it, with the result in words."""
    data = sheet.to_json()
    data["verdict"] = winner_line(sheet)
    for player, shown in zip(sheet.players, data["players"], strict=True):
        for code, score in player.species.items():
            if score.eight_cancelled_by is not None:  # why the 8 adds nothing to the hand
                shown["species"][code]["eight_cancelled_by"] = score.eight_cancelled_by
    return data
