"""Exported pages in a real headless Chromium, with no network: they load without a console error,
show the totals of `arbo score --json`, step by keys, clicks and links, enter and leave variations,
run nothing from a record's text, and fit a phone's width and a desktop's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbo_notation.cli import app
from tests.browser_support import launch, missing

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.arb"))
MALICIOUS = ROOT / "tests" / "fixtures" / "share" / "malicious.arb"
BROKEN = ROOT / "samples" / "invalid" / "rule-planting-not-adjacent.arb"
runner = CliRunner()

# A real browser per module: seconds each, so outside the quick run (CI runs them).
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser():
    """One browser and one page for these tests (a new context costs most of a second). Not for
    the whole session: playwright's event loop runs while it is open, and the terminal UI's async
    tests after this module need their own."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("playwright is not installed (pip install -e '.[test]')")
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        context = chromium.new_context(viewport={"width": 1280, "height": 900})
        context.set_default_timeout(5000)
        page = context.new_page()
        page.add_init_script("window.canary = 'intact';")  # what a script from a record would change
        yield page
        chromium.close()


@pytest.fixture(scope="session")
def pages(tmp_path_factory):
    """Export a record once per session; the page's path."""
    folder = tmp_path_factory.mktemp("pages")
    made: dict[tuple, Path] = {}

    def export(source: Path, *options: str) -> Path:
        key = (source, options)
        if key not in made:
            out = folder / f"page{len(made)}.html"
            result = runner.invoke(app, ["export", str(source), "--to", "html", "-o", str(out), *options])
            assert result.exit_code in (0, 1) and out.exists(), result.output
            made[key] = out
        return made[key]

    return export


class Tab:
    """A page open in the browser, with what it logged and asked of the network."""

    def __init__(self, page, path: Path, fragment: str = "", width: int = 1280) -> None:
        self.page = page
        self.errors: list[str] = []
        self.requests: list[str] = []  # what was fetched
        self._listeners = {
            "console": lambda m: self.errors.append(m.text) if m.type == "error" else None,
            "pageerror": lambda e: self.errors.append(str(e)),
            "requestfinished": lambda r: self.requests.append(r.url),
        }
        page.set_viewport_size({"width": width, "height": 900})
        page.emulate_media(media="screen")
        page.goto("about:blank")
        for event, listener in self._listeners.items():
            page.on(event, listener)
        self.url = path.as_uri()
        page.goto(self.url + fragment)

    def __enter__(self) -> "Tab":
        return self

    def __exit__(self, *exc) -> None:
        for event, listener in self._listeners.items():
            self.page.remove_listener(event, listener)

    def text(self, selector: str) -> str:
        return self.page.text_content(selector) or ""

    def status(self) -> str:
        return self.text("#status")

    def press(self, *keys: str) -> None:
        for key in keys:
            self.page.keyboard.press(key)

    def fragment(self) -> str:
        return self.page.evaluate("location.hash")

    def totals(self) -> dict[str, int]:
        return self.page.evaluate(
            "Object.fromEntries([...document.querySelectorAll('[data-player][data-total]')]"
            ".map(e => [e.dataset.player, Number(e.dataset.total)]))"
        )

    def click_move(self, text: str) -> None:
        self.page.locator("#moves button", has_text=text).first.click()

    def offline(self) -> bool:
        """Whether the page asked for nothing but its own file."""
        return all(url.split("#")[0] == self.url for url in self.requests)


def score_sheet(source: Path) -> dict | None:
    """What `arbo score --json` says of a record's game (None: it scores nothing)."""
    result = runner.invoke(app, ["score", "--json", str(source)])
    return json.loads(result.stdout) if result.exit_code == 0 else None


def score_totals(source: Path) -> dict[str, int] | None:
    sheet = score_sheet(source)
    return None if sheet is None else {player["name"]: player["total"] for player in sheet["players"]}


@pytest.mark.parametrize("source", [*SAMPLES, MALICIOUS, BROKEN], ids=lambda p: p.name)
def test_every_sample_plays_through_without_a_console_error_to_the_totals_of_arbo_score(browser, pages, source):
    expected = score_sheet(source)
    with Tab(browser, pages(source)) as tab:
        assert tab.totals() == {}  # no scoring at the start
        tab.press("End")
        if expected is None:  # unfinished, or stopped by a rule error: no final scoring
            assert "game over" not in tab.status() and tab.totals() == {}
        else:
            assert tab.status().endswith("game over")
            assert tab.totals() == {player["name"]: player["total"] for player in expected["players"]}
            winners = expected["winners"]
            shown = tab.page.eval_on_selector_all("#board .seat.winner .seat-name", "es => es.map(e => e.textContent)")
            assert shown == winners
        tab.press("s", "Home", "ArrowRight", "v", "ArrowRight", "Escape", "s")
        views = tab.page.eval_on_selector_all("#view option", "os => os.map(o => o.value)")
        assert tab.page.is_visible("#view") == (len(views) > 1)
        for option in views if len(views) > 1 else ():
            tab.page.select_option("#view", option)
            tab.press("End")
        assert tab.errors == []
        assert tab.offline(), tab.requests


def test_a_file_of_several_games_lists_them_and_each_plays(browser, pages, tmp_path_factory):
    several = tmp_path_factory.mktemp("several") / "club.arb"
    broken = "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n---\n1. Ana d d Ma9@0,0 /Wi4\n"
    texts = [(ROOT / "samples" / name).read_text() for name in ("annotated.arb", "four-players.arb")]
    several.write_text(texts[0] + texts[1] + broken, encoding="utf-8")
    with Tab(browser, pages(several)) as tab:
        assert tab.page.is_visible("#games") and not tab.page.is_visible("#board")
        items = tab.page.locator("#game-list li")
        assert items.count() == 3
        assert "Game 3 cannot be shown" in items.nth(2).text_content()
        tab.page.locator("#game-list button", has_text="Game 2").click()
        assert tab.text("#game-title") == "Ana, Ben, Cleo, Dev"
        assert tab.fragment() == "#game=2&turn=0"
        tab.press("End")
        assert tab.totals() == score_totals(ROOT / "samples" / "four-players.arb")
        tab.page.click("#back-to-list")
        assert tab.page.is_visible("#game-list")
        assert tab.errors == []
    with Tab(browser, pages(several), "#game=1&turn=17") as tab:
        assert tab.status() == "After turn 17: game over"
        assert tab.totals() == {"Ana": 21, "Ben": 7}


def test_keys_buttons_and_clicks_move_the_turn(browser, pages):
    with Tab(browser, pages(ROOT / "samples" / "annotated.arb")) as tab:
        assert tab.status() == "Start: Ana to play turn 1"
        tab.press("ArrowRight")
        assert tab.status() == "After turn 1: Ben to play turn 2"
        assert tab.fragment() == "#turn=1"
        tab.press("End")
        assert tab.status() == "After turn 17: game over"
        tab.press("ArrowLeft")
        assert tab.status() == "After turn 16: Ana to play turn 17"
        tab.press("Home")
        assert tab.status() == "Start: Ana to play turn 1"
        tab.click_move("Ben d:Ma8 d:Ca2 Ma8@-5,0 /Ca2")
        assert tab.status() == "After turn 12: Ana to play turn 13"
        assert tab.text("#moves button.current").startswith("12.Ben d:Ma8 d:Ca2 Ma8@-5,0 /Ca2")
        tab.page.click("#forward")
        assert tab.status() == "After turn 13: Ben to play turn 14"
        tab.page.click("#back")
        tab.page.click("#back")
        assert tab.status() == "After turn 11: Ben to play turn 12"
        tab.page.click("#end")
        assert tab.status() == "After turn 17: game over"
        tab.page.click("#start")
        assert tab.status() == "Start: Ana to play turn 1"


def test_scoring_on_request_is_as_if_the_game_ended_there(browser, pages):
    with Tab(browser, pages(ROOT / "samples" / "annotated.arb"), "#turn=12") as tab:
        assert tab.page.is_hidden("#scoring")
        tab.press("s")
        assert "as if the game ended after turn 12" in tab.text("#scoring h2")
        import arbo_notation as arbo

        node = list(arbo.load_game(ROOT / "samples" / "annotated.arb").mainline())[12]
        assert tab.totals() == arbo.score(node.position).totals()
        assert tab.page.locator(".card.on-path").count() > 0
        tab.page.locator("#scoring tr.species-row").first.click()  # one species' paths only
        assert tab.page.locator("#scoring tr.picked").count() == 1
        tab.page.click("#score-here")
        assert tab.page.is_hidden("#scoring") and tab.totals() == {}


def test_a_variation_is_entered_and_left(browser, pages):
    with Tab(browser, pages(ROOT / "samples" / "annotated.arb"), "#turn=6") as tab:
        assert "1 variation instead of this turn" in tab.text("#notes")
        tab.press("v")
        assert "In variation 1 of 1 on turn 6" in tab.text("#notes")
        assert tab.text("#notes h2") == "Turn 6: Ben d:Bs5 Ben:Ma3 Bs5@-1,1 /Ca4"
        assert tab.fragment() == "#turn=6&line=5.0"
        tab.press("ArrowRight")
        assert tab.text("#notes h2") == "Turn 7: Ana Ana:Bs3 Ana:Ma2 Ma2@0,1 /Ca6"
        tab.page.click("#notes button.enter")  # the variation inside the variation
        assert "(depth 2)" in tab.text("#notes")
        assert tab.text("#notes h2") == "Turn 7: Ana Ben:Ca4 d:Cb1 Cb1@-3,0 /Ca4"
        tab.press("Escape")
        assert tab.text("#notes h2") == "Turn 7: Ana Ana:Bs3 Ana:Ma2 Ma2@0,1 /Ca6"
        tab.page.click("#notes button.leave")
        assert tab.text("#notes h2") == "Turn 6: Ben d:Bs5 d:Cb1 Bs4@-2,0 /Bs5 ?! (dubious)"
        assert tab.fragment() == "#turn=6"
        tab.click_move("Ben d:Ca7 d:Cb6 Cb3@-2,0 /Ma3")  # a click enters a variation too
        assert tab.fragment() == "#turn=8&line=5.0%2F1.0"
        tab.press("ArrowLeft", "ArrowLeft")  # back out through its first turn
        assert tab.fragment() == "#turn=6&line=5.0"
        assert tab.errors == []


def test_a_link_opens_at_its_turn(browser, pages):
    page = pages(ROOT / "samples" / "annotated.arb")
    with Tab(browser, page, "#turn=12") as tab:
        assert tab.status() == "After turn 12: Ana to play turn 13"
        assert tab.text("#moves button.current").startswith("12.")
    with Tab(browser, page, "#turn=7&line=5.0") as tab:
        assert tab.text("#notes h2") == "Turn 7: Ana Ana:Bs3 Ana:Ma2 Ma2@0,1 /Ca6"
    with Tab(browser, page, "#turn=999&line=nonsense") as tab:
        assert tab.status() == "Start: Ana to play turn 1"
        assert tab.errors == []


def test_a_players_view_hides_the_others_hands_until_the_end(browser, pages):
    source = ROOT / "samples" / "two-player-omniscient.arb"
    with Tab(browser, pages(source), "#turn=6") as tab:
        tab.page.select_option("#view", "Ana")
        ben = tab.page.locator(".seat").nth(1)
        assert set(ben.locator(".hand .card").all_text_contents()) == {"??"}
        assert tab.text("#moves li:nth-child(3)").startswith("2.Ben d d Dw3@0,0 /Ma2")
        tab.press("s")
        assert "switch to all hands" in tab.text("#scoring")
        tab.press("End")
        assert "??" not in ben.locator(".hand").text_content()
    with Tab(browser, pages(source, "--as", "Ana"), "#turn=6") as tab:
        assert tab.page.is_hidden("#view-field")
        ben = tab.page.locator(".seat").nth(1)
        assert set(ben.locator(".hand .card").all_text_contents()) == {"??"}


def test_record_text_is_shown_as_text_and_runs_nothing(browser, pages):
    comments = [
        "<script>window.canary = 'script'</script>",
        "</script><script>window.canary = 'closed'</script><!--",
        "<img src=x onerror=\"window.canary='img'\">",
    ]
    with Tab(browser, pages(MALICIOUS)) as tab:
        assert tab.text("#notes") == "Start of the game" + comments[0]
        tab.press("ArrowRight")
        assert comments[1] in tab.text("#notes")
        tab.press("ArrowRight")
        assert comments[2] in tab.text("#notes")
        tab.press("ArrowRight")
        notes = tab.text("#notes")
        assert "javascript:window.canary='bare'" in notes and "\u2028" in notes and "&lt;&amp;" in notes
        tab.press("v")
        assert "<svg onload=\"window.canary='svg'\"></svg>" in tab.text("#notes")
        assert "<img src=x onerror" in tab.text("#game-about")
        assert tab.page.title() == "Ana vs Ben · arbo"
        inert = tab.page.evaluate(
            "[window.canary, document.scripts.length, document.styleSheets.length,"
            " document.querySelectorAll('body img, body a, body iframe, body svg:not(.nav svg), body style').length,"
            " getComputedStyle(document.body).display]"
        )
        assert inert == ["intact", 2, 1, 0, "block"]
        assert tab.errors == [] and tab.offline()


def test_the_page_forbids_the_network_and_foreign_scripts(browser, pages):
    with Tab(browser, pages(ROOT / "samples" / "annotated.arb")) as tab:
        policy = tab.page.get_attribute("meta[http-equiv='Content-Security-Policy']", "content")
        assert policy.startswith("default-src 'none'; script-src 'sha256-")
        tab.page.evaluate(
            "() => { const s = document.createElement('script'); s.textContent = \"window.canary = 'injected'\";"
            " document.body.appendChild(s); const i = new Image(); i.src = 'http://example.invalid/x.png'; }"
        )
        assert tab.page.evaluate("window.canary") == "intact"
        assert tab.offline(), tab.requests
        assert any("Content Security Policy" in error for error in tab.errors)  # the browser refused both


@pytest.mark.parametrize("width", [360, 1280])
def test_no_horizontal_scroll_bar_at_phone_or_desktop_width(browser, pages, tmp_path, width):
    for source, fragment in (
        ("four-players.arb", "#turn=36"),
        ("annotated.arb", "#turn=12"),
        ("three-player-spectator.arb", "#turn=20"),
    ):
        with Tab(browser, pages(ROOT / "samples" / source), fragment, width=width) as tab:
            tab.press("s")
            tab.page.screenshot(path=str(tmp_path / f"{source}-{width}.png"))
            scroll, client = tab.page.evaluate(
                "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
            )
            assert client == width and scroll <= client, source


def test_print_shows_the_move_list_and_the_final_position(browser, pages):
    with Tab(browser, pages(ROOT / "samples" / "annotated.arb"), "#turn=3") as tab:
        tab.page.emulate_media(media="print")
        shown = tab.page.evaluate(
            "['#board', '.controls', '#moves', '#final'].map(s => getComputedStyle(document.querySelector(s)).display)"
        )
        assert shown[:2] == ["none", "none"] and "none" not in shown[2:]
        assert tab.text("#final-title") == "Final position (after turn 17)"
        assert "Ana wins with 21 (Ben 7)." in tab.text("#final-scoring")
        assert tab.page.locator("#final [data-total]").count() == 0  # the totals to read stay unique


def test_a_numeric_glyph_is_named_as_the_symbols_are(browser, pages):
    with Tab(browser, pages(ROOT / "samples" / "annotated.arb")) as tab:
        titles = tab.page.eval_on_selector_all("#moves .glyph", "es => es.map(e => [e.textContent, e.title])")
        assert ["$1", "good"] in titles and ["?!", "dubious"] in titles
        tab.click_move("Ma6@-1,0")
        assert "$1 (good)" in tab.page.text_content("body")
        assert tab.errors == []


def test_the_knowledge_panel_shows_what_the_view_knows(browser, pages):
    source = ROOT / "samples" / "four-players.arb"
    with Tab(browser, pages(source), "#turn=20") as tab:
        hands = tab.page.eval_on_selector_all("#board .seat .hand", "es => es.map(e => e.textContent)")
        assert "Rp3" in hands[3] and all(code in hands[1] for code in ("Ca2", "Cb1", "Cb3", "Tp2"))
        assert tab.page.is_hidden("#knowledge")
        tab.press("k")
        assert tab.text("#knowledge h2") == "What Cleo's seat knows"
        assert "Deck: 22 cards · unseen: 38 (16 in hands)" in tab.text("#knowledge")
        ca = tab.page.eval_on_selector_all(
            "#knowledge tr", "rs => rs.map(r => [...r.children].map(c => c.textContent.trim()))"
        )
        assert ["Ca Cassia", "6 7 8", "? 0 to 21", "? 2 to 23", "✗ 0", "? 0 to 21"] in ca
        assert tab.page.get_attribute("#knowledge-toggle", "aria-pressed") == "true"
        tab.page.select_option("#view", "")
        assert tab.text("#knowledge h2") == "What the record knows"
        tab.page.click("#knowledge-toggle")
        assert tab.page.is_hidden("#knowledge")
        assert tab.errors == []


def test_an_analysed_game_gives_each_players_accuracy_and_marks_its_flagged_turns(browser, pages):
    """samples/analysed.arb: the figures of its notes (tests/analysis/test_accuracy.py), and on
    the margin graph each flagged turn ringed in its glyph's colour with the glyph above it."""
    with Tab(browser, pages(ROOT / "samples" / "analysed.arb")) as tab:
        assert tab.page.is_visible("#accuracy")
        rows = tab.page.eval_on_selector_all("#accuracy li", "es => es.map(e => e.textContent)")
        assert rows == [
            "Ana: 65.7%, 1.56 points lost a turn over 10 turns judged (?! 5, ? 0, ?? 0)",
            "Ben: 61.4%, 2.04 points lost a turn over 9 turns judged (?! 3, ? 3, ?? 0)",
        ]
        assert tab.text("#accuracy-rule").startswith("Accuracy: a turn's accuracy is 100·exp(-points lost / 3.5)")
        marks = tab.page.eval_on_selector_all(
            "#margin-graph .glyph-mark", "es => es.map(e => [Number(e.dataset.index), e.textContent])"
        )
        assert marks == [
            [2, "?!"], [3, "?!"], [5, "?!"], [6, "?"], [8, "?!"], [9, "?!"], [10, "?!"], [13, "?!"], [16, "?"],
            [17, "?!"], [18, "?"]
        ]  # fmt: skip
        rings = tab.page.evaluate(
            "['2', '6', '18'].map(i => getComputedStyle(document.querySelector("
            "`#margin-graph circle[data-index='${i}']`)).stroke)"
        )
        assert rings == ["rgb(86, 180, 233)", "rgb(230, 159, 0)", "rgb(230, 159, 0)"]  # ?!, ?, ?
        assert "points lost" in tab.page.text_content("#margin-graph circle[data-index='4'] title")
        assert tab.errors == []
