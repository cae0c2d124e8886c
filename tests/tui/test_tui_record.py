"""The record screen driven by keys (textual's Pilot): completions, errors, undo, the end of the
game, at 80x24 and larger."""

from __future__ import annotations

import dataclasses

import pytest
from textual.widgets import DataTable, Input, Static

from arbo_notation.notation.views import partial_record
from arbo_notation.notation.writer import format_game
from arbo_notation.record.session import Phase, open_session
from arbo_notation.checking.games import check_text
from arbo_notation.play.simulate import simulate_game
from arbo_notation.tui.record import RecordApp, RecordHelp, RecordScoring
from arbo_notation.tui.widgets import MoveList, PlayerPanel

SIZES = [(80, 24), (120, 40)]
RECORD = simulate_game(("Ana", "Ben"), 4)
DATE = "2026-03-14"


def shown(widget) -> str:
    rendered = widget.render()
    return getattr(rendered, "plain", str(rendered))


def session_for(tmp_path, seat: str | None = "Ana", turns: int = 0):
    session = open_session(
        tmp_path / "game.arb", players=RECORD.header.players, species=RECORD.header.species, seat=seat, date=DATE
    )
    if seat:
        session.enter(" ".join(str(c) for c in RECORD.header.hands[seat]))
    for turn in partial_record(RECORD, seat).turns[:turns]:
        session.enter(turn.notation())
    return session


async def enter(app: RecordApp, pilot, line: str) -> None:
    """Put a whole line in the input and press Enter (typing it key by key is tested apart)."""
    app.query_one("#entry", Input).value = line
    await pilot.press("enter")


def marked(entry: Input) -> list[tuple[int, str]]:
    """The runs of the input line as drawn that are underlined (the fault's mark): where each
    starts in the line, and its text."""
    runs: list[tuple[int, str]] = []
    at, start, text = 0, None, ""
    for segment in entry.render_line(0):
        for char in segment.text:
            underlined = bool(segment.style and segment.style.underline)
            if underlined:
                start = at if start is None else start
                text += char
            elif start is not None:
                runs.append((start, text))
                start, text = None, ""
            at += 1
    if start is not None:
        runs.append((start, text))
    return runs


def on_screen(app: RecordApp, widget_id: str) -> bool:
    """Whether a widget stands whole inside the terminal."""
    region = app.query_one(widget_id).region
    return region.height > 0 and region.bottom <= app.size.height and region.right <= app.size.width


@pytest.mark.parametrize("size", SIZES)
async def test_completions_offer_only_legal_choices_and_tab_takes_them(tmp_path, size):
    session = session_for(tmp_path, turns=1)
    app = RecordApp(session)
    async with app.run_test(size=size) as pilot:
        entry = app.query_one("#entry", Input)
        assert entry.has_focus and on_screen(app, "#entry") and on_screen(app, "#choices")
        assert entry.border_title == "turn 2: Ben to play · deck 32"
        ana_top = session.game.discard_pile("Ana")[-1]
        # Ben: the deck, and the only pile that is not empty; Ben's own is empty, so not offered
        assert app.completions.choices == ("d ", f"Ana:{ana_top} ")
        assert shown(app.query_one("#choices")).split() == ["Tab", "▸", "d", f"Ana:{ana_top}"]
        await pilot.press("down", "tab")
        assert entry.value == f"Ana:{ana_top} "
        # the pile is now empty: only the deck is left for the second draw
        assert app.completions.choices == ("d ",)
        await pilot.press("tab")
        assert entry.value == f"Ana:{ana_top} d "
        # Ben's hand is hidden: the one card known in it is offered
        assert app.completions.choices == (f"{ana_top}@",)
        await pilot.press("tab")
        assert app.completions.choices == (f"{ana_top}@0,0 ",)  # Ben's first tree: 0,0 alone
        await pilot.press("tab", "slash")
        assert app.completions.choices == ()  # the cards left in Ben's hand are unseen
        assert "discards, such as /Oa5" in shown(app.query_one("#choices"))
        # a draw the rules forbid is said at once
        entry.value = "Ben:Ma3 "
        await pilot.pause()
        assert shown(app.query_one("#choices")) == "✗ Ben cannot draw from their own discard pile: it is empty"


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
async def test_an_illegal_turn_shows_the_checkers_error_and_nothing_is_written(tmp_path, size):
    session = session_for(tmp_path, turns=3)
    before = session.path.read_text()
    turn = partial_record(RECORD, "Ana").turns[3]
    illegal = turn.notation().replace(f"@{turn.plant.coord}", "@7,7")
    app = RecordApp(session)
    async with app.run_test(size=size) as pilot:
        await pilot.press(*illegal, "enter")
        [diagnostic] = check_text(before + f"4. {illegal}\n", "game.arb").diagnostics
        message = app.query_one("#message", Static)
        assert shown(message) == f"✗ {diagnostic.message}"
        assert message.has_class("-error") and on_screen(app, "#message")
        entry = app.query_one("#entry", Input)
        assert entry.value == illegal  # kept, to be mended
        assert entry.cursor_position == len(illegal)  # where the typing was
        fault = illegal.index(f"{turn.plant.card}@7,7")
        assert marked(entry) == [(fault, f"{turn.plant.card}@7,7")]
        assert session.path.read_text() == before and len(session.turns) == 3
        await enter(app, pilot, turn.notation())
        assert len(session.turns) == 4 and entry.value == ""
        assert shown(message) == f"✓ written: 4. {turn.notation()}"
        assert session.path.read_text() == format_game(session.record())


@pytest.mark.slow
async def test_after_a_refusal_the_keys_typed_go_to_the_end_of_the_line_as_typed(tmp_path):
    """The cursor stays at the end: a player who goes on typing, or rubs out the end and types it
    again, mends the line they see, not a line garbled by a cursor moved to the fault."""
    session = session_for(tmp_path, turns=3)
    turn = partial_record(RECORD, "Ana").turns[3]
    good = turn.notation()
    illegal = good.replace(f"@{turn.plant.coord}", "@7,7")
    app = RecordApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        entry = app.query_one("#entry", Input)
        await pilot.press(*illegal, "enter")
        assert (entry.value, entry.cursor_position) == (illegal, len(illegal))
        fault = illegal.index(f"{turn.plant.card}@7,7")
        assert marked(entry) == [(fault, f"{turn.plant.card}@7,7")]
        tail = illegal[fault:]
        await pilot.press(*["backspace"] * len(tail), *good[fault:])
        assert entry.value == good and marked(entry) == []  # the line changed: the mark is gone
        await pilot.press("enter")
        assert len(session.turns) == 4 and entry.value == ""


@pytest.mark.slow
async def test_a_space_before_at_is_worded_as_check_words_it_and_its_card_marked(tmp_path):
    session = session_for(tmp_path, turns=3)
    app = RecordApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        message = "expected a planting such as Ma3@0,1 after 'd', found 'Ma3 @0,0': no space is allowed before '@'"
        await pilot.press(*"d d Ma3 @0,0 ")
        assert shown(app.query_one("#choices")) == f"✗ {message}"  # said as it is typed, in the same words
        await pilot.press(*"/Oa5", "enter")
        entry = app.query_one("#entry", Input)
        assert shown(app.query_one("#message")) == f"✗ {message}"
        assert shown(app.query_one("#choices")) == ""  # said once
        assert (entry.value, entry.cursor_position) == ("d d Ma3 @0,0 /Oa5", 17)
        assert marked(entry) == [(4, "Ma3")]


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
async def test_undo_takes_back_the_last_turn_on_the_board_and_in_the_file(tmp_path, size):
    session = session_for(tmp_path, turns=4)
    fourth = session.record().turns[3]
    app = RecordApp(session)
    async with app.run_test(size=size) as pilot:
        ben = app.query_one("#p1", PlayerPanel)
        assert fourth.plant.coord in dict(ben.view.trees)
        assert app.query_one(MoveList).current == 4
        await pilot.press("ctrl+z")
        assert len(session.turns) == 3 and fourth.plant.coord not in dict(ben.view.trees)
        assert "4. " not in session.path.read_text().split("---\n")[2]
        assert shown(app.query_one("#message")) == f"✓ taken back: 4. {fourth.notation()}"
        assert app.query_one("#entry", Input).border_title.startswith("turn 4: Ben to play")
        assert app.query_one(MoveList).current == 3
        await enter(app, pilot, "undo")  # typed
        assert len(session.turns) == 2
        await pilot.press(*"!?", "enter")  # a glyph alone goes on the last turn
        assert session.turns[-1].glyphs == ("!?",)
        assert "last: 2. " in shown(app.query_one("#status")) and shown(app.query_one("#status")).endswith(" !?")


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
async def test_the_end_asks_the_hidden_hand_with_the_recorders_filled_in_then_shows_the_scoring(tmp_path, size):
    view = partial_record(RECORD, "Ana")
    session = session_for(tmp_path, turns=len(view.turns) - 1)
    app = RecordApp(session)
    async with app.run_test(size=size) as pilot:
        await enter(app, pilot, view.turns[-1].notation())
        assert session.phase is Phase.REVEAL
        assert list(session.reveals) == ["Ana"]  # the recorder's own hand, filled in
        entry = app.query_one("#entry", Input)
        assert entry.border_title == "the deck is empty: reveal Ben's hand, 7 cards"
        ben = dict((r.player, r.cards) for r in RECORD.reveals)["Ben"]
        # Ben is the last hand nobody saw: the cards nobody saw are offered, and filled in
        assert entry.value == "reveal Ben " + " ".join(str(c) for c in sorted(ben)) + " "
        # a hand that cannot be is refused with the checker's words
        planted = next(iter(session.game.arboretum("Ana").values()))
        wrong = entry.value.split()[:-1] + [str(planted)]
        await enter(app, pilot, " ".join(wrong))
        assert shown(app.query_one("#message")).startswith(f"✗ Ben reveals {planted}, but it is planted in Ana's")
        assert session.phase is Phase.REVEAL
        await enter(app, pilot, "reveal Ben " + " ".join(str(c) for c in sorted(ben)))
        assert session.phase is Phase.DONE
        assert isinstance(app.screen, RecordScoring)
        table = app.screen.query_one(DataTable)
        totals = dict(RECORD.result.scores)
        total_row = [str(cell) for cell in table.get_row("total")]
        assert total_row[3] == str(totals["Ana"]) and total_row[6] == str(totals["Ben"])
        assert shown(app.screen.query_one("#winner")).startswith(("Ana", "Ben"))
        await pilot.press("escape")
        assert not isinstance(app.screen, RecordScoring)
        assert entry.border_title.startswith("the game is recorded: result ")
        text = session.path.read_text()
        assert text == format_game(dataclasses.replace(view, header=dataclasses.replace(view.header, date=DATE)))
        assert check_text(text, "game.arb").valid
        await pilot.press("f2")
        assert isinstance(app.screen, RecordScoring)
        await pilot.press("enter")
        await pilot.press("ctrl+z")  # back before the last turn: reveals and result go with it
        assert session.phase is Phase.TURNS and session.result is None


async def test_the_dealt_hand_is_asked_first_from_a_seat(tmp_path):
    session = open_session(
        tmp_path / "game.arb", players=("Ana", "Ben"), species=RECORD.header.species, seat="Ben", date=DATE
    )
    app = RecordApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        entry = app.query_one("#entry", Input)
        assert entry.border_title == "Ben's dealt hand: the 7 cards"
        hand = RECORD.header.hands["Ben"]
        await pilot.press(*str(hand[0])[:2])
        assert app.completions.choices[:1] == (f"{str(hand[0])[:2]}1 ",)
        await enter(app, pilot, " ".join(str(c) for c in hand[:6]))
        assert shown(app.query_one("#message")) == "✗ Ben's dealt hand has 6 cards; a hand is 7"
        await enter(app, pilot, " ".join(str(c) for c in hand))
        assert session.phase is Phase.TURNS
        assert [c for c in app.query_one("#p1", PlayerPanel).view.hand] == [str(c) for c in sorted(hand)]
        assert entry.border_title == "turn 1: Ana to play · deck 34"


async def test_help_opens_on_f1_and_any_key_closes_it(tmp_path):
    app = RecordApp(session_for(tmp_path, turns=2))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        assert isinstance(app.screen, RecordHelp)
        await pilot.press("x")
        assert not isinstance(app.screen, RecordHelp)
        assert app.query_one("#entry", Input).value == ""  # the key closed the help, typed nothing


@pytest.mark.slow
async def test_tab_acts_in_turn_with_the_keys_typed_before_it(tmp_path):
    """Keys that come in a burst (pasted, or typed fast): Tab completes what stands before it."""
    from textual import events

    session = session_for(tmp_path, seat=None)
    first = RECORD.turns[0]
    draws = f"d:{first.draws[0].card} d:{first.draws[1].card} "
    game = session.game.copy()
    for draw in first.draws:
        game.draw_from_deck(draw.card)
    game.plant(first.plant.card, first.plant.coord)
    known = sorted(game.hand("Ana").known)
    assert len(known) == 2 - (first.plant.card in [d.card for d in first.draws])
    app = RecordApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        entry = app.query_one("#entry", Input)
        keys = [*draws, *str(first.plant.card), "tab", "tab", "slash", "down", "tab"]
        for key in keys:
            character = {"tab": "\t", "slash": "/", "down": None}.get(key, key)
            entry.post_message(events.Key(key, character))  # all at once, before any is handled
        await pilot.pause()
        assert entry.value == f"{draws}{first.plant} /{known[1 % len(known)]} "


@pytest.mark.slow
@pytest.mark.parametrize("key", ["left", "h", "s", "escape"])
async def test_the_scoring_screen_answers_the_keys_its_footer_lists(tmp_path, key):
    view = partial_record(RECORD, "Ana")
    session = session_for(tmp_path, turns=len(view.turns))
    ben = dict((r.player, r.cards) for r in RECORD.reveals)["Ben"]
    session.enter("reveal Ben " + " ".join(str(c) for c in sorted(ben)))
    assert session.phase is Phase.DONE
    app = RecordApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        assert isinstance(app.screen, RecordScoring)
        footer = shown(app.screen.query_one("KeyBar"))
        assert "Back" in footer and "Help" in footer and "Quit" in footer
        await pilot.press("question_mark")
        assert isinstance(app.screen, RecordHelp)
        await pilot.press("escape")
        assert isinstance(app.screen, RecordScoring)
        await pilot.press(key)
        assert not isinstance(app.screen, RecordScoring)
        await pilot.press("f2")
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code in (0, None) and not app.is_running


@pytest.mark.parametrize("line", ["dd", "d d Ma3@5,5 /Oa5"])
async def test_a_refused_entry_is_shown_once_as_plain_shows_it(tmp_path, line):
    session = session_for(tmp_path, turns=2)
    app = RecordApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await enter(app, pilot, line)
        await pilot.pause()
        message = shown(app.query_one("#message"))
        choices = shown(app.query_one("#choices"))
        assert message.startswith("✗ ") and "✗" not in choices, (message, choices)
        assert "is not a player" not in message + choices or line != "dd"
        assert app.query_one("#entry", Input).value == line  # kept, to be mended
        clear = app.active_bindings["escape"].binding  # the way to clear it is in the footer, not in F1 alone
        assert (clear.action, clear.show, clear.key_display) == ("clear", True, "Esc")


async def test_at_80x24_f3_shows_the_move_list_in_place_of_the_arboretums_and_back(tmp_path):
    app = RecordApp(session_for(tmp_path, turns=3))
    async with app.run_test(size=(80, 24)) as pilot:
        moves = app.query_one("#moves", MoveList)
        assert moves.region.width == 0 and on_screen(app, "#board")  # no room for both
        await pilot.press("f3")
        await pilot.pause()
        assert on_screen(app, "#moves") and moves.region.width >= 40
        assert app.query_one("#board").region.width == 0
        assert app.query_one("#entry", Input).has_focus  # typing goes on
        await pilot.press("f3")
        await pilot.pause()
        assert moves.region.width == 0 and on_screen(app, "#board")


async def test_at_120x40_the_move_list_stands_beside_the_board(tmp_path):
    app = RecordApp(session_for(tmp_path, turns=3))
    async with app.run_test(size=(120, 40)):
        assert on_screen(app, "#moves") and on_screen(app, "#board")
        assert app.query_one("#moves", MoveList).region.width == 40
