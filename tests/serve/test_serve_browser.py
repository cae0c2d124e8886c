"""`arbo serve` in a real headless Chromium (Debian's, through playwright): the viewer's page
follows a game recorded meanwhile with `arbo record --plain`, the multiboard too; the recorder at
a phone's 390 px records a turn with completion, undoes it, and a reload sends a pending entry
once. No page logs an error (a content-policy violation is one)."""

from __future__ import annotations

import http.client
import json
import shutil
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.browser_support import launch, missing
from tests.serve.support import ROOT, Running, arbo_env, record, start

SAMPLE = ROOT / "samples" / "unfinished.arb"
TURN = "d d Ca7@-6,0 /Ma5"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("playwright is not installed (pip install -e '.[test]')")
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def served(tmp_path: Path):
    shutil.copy(SAMPLE, tmp_path / "table1.arb")
    shutil.copy(ROOT / "samples" / "annotated.arb", tmp_path / "table2.arb")
    running = start(tmp_path)
    yield running, tmp_path
    assert running.stop() == 0


def wait_until(page, expression: str, within: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    """Wait for a script expression to hold (asked by the browser's devtools: the page's content
    policy, which forbids eval, leaves playwright's wait_for_function unable to poll)."""
    deadline = time.monotonic() + within
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"still not: {expression}"
        time.sleep(0.05)


def open_page(browser, width: int, url: str):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": width, "height": 844})
    context.set_default_timeout(10000)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return context, page, errors


def test_the_viewer_follows_the_game_as_it_is_recorded(browser, served: tuple[Running, Path]) -> None:
    server, folder = served
    context, page, errors = open_page(browser, 1280, server.url("/game/table1.arb"))
    try:
        wait_until(page, "document.getElementById('live').textContent === 'live'")
        assert page.text_content("#status") == "After turn 14: Ana to play turn 15"
        assert record(folder / "table1.arb", TURN).returncode == 0
        wait_until(page, "document.getElementById('status').textContent.indexOf('After turn 15') === 0")
        assert page.text_content("#status") == "After turn 15: Ben to play turn 16"
        assert "Ca7@-6,0" in (page.text_content("#moves") or "")
        # a viewer looking back at turn 3 stays there while the game goes on
        page.click("#start")
        assert record(folder / "table1.arb", "d d Ma5@1,0 /Ca7").returncode == 1  # refused: nothing new
        first = page.get_attribute("body", "data-live")
        assert record(folder / "table1.arb", "{a comment only the end shows}").returncode == 0
        wait_until(page, f"document.body.getAttribute('data-live') !== {json.dumps(first)}")
        assert page.text_content("#status") == "Start: Ana to play turn 1"
        assert "a comment only the end shows" not in (page.content())
        assert errors == []
    finally:
        context.close()


def test_the_multiboard_shows_every_table_and_its_score(browser, served: tuple[Running, Path]) -> None:
    server, folder = served
    context, page, errors = open_page(browser, 1280, server.url("/"))
    try:
        wait_until(page, "document.getElementById('live').textContent === 'live'")
        tables = page.locator("#tables .table")
        assert tables.count() == 2
        one = page.locator('[data-name="table1.arb"]')
        assert "turn 15, Ana to play, deck 7" in (one.text_content() or "")
        assert record(folder / "table1.arb", TURN).returncode == 0
        wait_until(
            page,
            "document.querySelector('[data-name=\"table1.arb\"]').textContent.indexOf('turn 16, Ben to play') >= 0",
        )
        assert "15. Ana d d Ca7@-6,0 /Ma5" in (one.text_content() or "")
        assert "wins" in (page.locator('[data-name="table2.arb"]').text_content() or "")
        assert errors == []
    finally:
        context.close()


def test_the_phone_records_a_turn_with_completion_and_undo(browser, served: tuple[Running, Path]) -> None:
    server, folder = served
    link = server.url(f"/record/#t={server.token}&g=table1.arb")
    context, page, errors = open_page(browser, 390, link)
    try:
        wait_until(page, "document.getElementById('prompt').textContent.indexOf('turn 15') === 0")
        assert page.text_content("#prompt") == "turn 15: Ana to play · deck 7"
        page.fill("#entry", "d d Ca")
        page.dispatch_event("#entry", "input")
        page.click("#choices button:has-text('Ca7@')")
        assert page.input_value("#entry") == "d d Ca7@"
        page.type("#entry", "-6,0 /Ma5")
        page.click("#send")
        wait_until(page, "document.getElementById('message').className === 'ok'")
        assert "\n15. Ana d d Ca7@-6,0 /Ma5\n" in (folder / "table1.arb").read_text()
        assert page.text_content("#prompt") == "turn 16: Ben to play · deck 5"
        # a refused entry says why, and writes nothing
        page.fill("#entry", "d d Bs1@9,9 /Ma1")
        page.click("#send")
        wait_until(page, "document.getElementById('message').className === 'refused'")
        assert "cannot" in (page.text_content("#message") or "")
        page.click("#undo")
        wait_until(page, "document.getElementById('prompt').textContent.indexOf('turn 15') === 0")
        assert "15." not in (folder / "table1.arb").read_text()
        # the page fits the phone's width, and a 360 px one's
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.set_viewport_size({"width": 360, "height": 740})
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert errors == []
    finally:
        context.close()


def test_a_reload_sends_a_pending_entry_once(browser, served: tuple[Running, Path]) -> None:
    server, folder = served
    link = server.url(f"/record/#t={server.token}&g=table1.arb")
    context, page, errors = open_page(browser, 390, link)
    try:
        wait_until(page, "document.getElementById('prompt').textContent.indexOf('turn 15') === 0")
        base = server.state("table1.arb")["base"]
        pending = {"name": "table1.arb", "id": "reloaded-1", "base": base, "entry": TURN}
        # the entry was sent and written, but the answer never came back: the page kept it
        assert server.enter("table1.arb", TURN, "reloaded-1", base)["status"] == "ok"
        page.evaluate(f"localStorage.setItem('arbo-pending-entry', {json.dumps(json.dumps(pending))})")
        page.reload()
        wait_until(page, "localStorage.getItem('arbo-pending-entry') === null")
        wait_until(page, "document.getElementById('prompt').textContent.indexOf('turn 16') === 0")
        assert (folder / "table1.arb").read_text().count("Ca7@-6,0") == 1
        assert errors == []
    finally:
        context.close()


def test_the_recorder_without_its_token_writes_nothing(browser, served: tuple[Running, Path]) -> None:
    server, folder = served
    before = (folder / "table1.arb").read_bytes()
    context, page, errors = open_page(browser, 390, server.url("/record/#t=wrong&g=table1.arb"))
    try:
        wait_until(page, "document.getElementById('message').className === 'refused'")
        assert (folder / "table1.arb").read_bytes() == before
    finally:
        context.close()


def test_the_phone_starts_a_new_game_and_records_its_dealt_hand(browser, served: tuple[Running, Path]) -> None:
    server, folder = served
    context, page, errors = open_page(browser, 390, server.url(f"/record/#t={server.token}"))
    try:
        wait_until(page, "!document.getElementById('new').hidden")
        page.click("#new summary")
        page.fill("#new-players", "Cleo,Dan")
        page.dispatch_event("#new-players", "input")
        page.select_option("#new-seat", "Dan")
        page.fill("#new-species", "Bs,Ca,Cb,Dw,Ja,Zz")
        page.click("#new-start")
        wait_until(page, "document.getElementById('message').className === 'refused'")
        assert "Zz is not a species arbo knows" in (page.text_content("#message") or "")
        assert sorted(path.name for path in folder.iterdir()) == ["table1.arb", "table2.arb"]
        page.fill("#new-species", "Bs,Ca,Cb,Dw,Ja,Ma")
        page.fill("#new-event", "Club night")
        page.click("#new-start")
        wait_until(page, "document.getElementById('prompt').textContent === \"Dan's dealt hand: the 7 cards\"")
        assert page.input_value("#game") == "table3.arb"
        assert "perspective: Dan" in (folder / "table3.arb").read_text()
        page.fill("#entry", "Bs1 Bs2 Ca3 Cb4 Dw5 Ja6 Ma7")
        page.click("#send")
        wait_until(page, "document.getElementById('prompt').textContent.indexOf('turn 1: Cleo') === 0")
        assert page.text_content("#hand") == "Dan's hand: Bs1 Bs2 Ca3 Cb4 Dw5 Ja6 Ma7"
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert errors == []
    finally:
        context.close()


def test_a_server_of_one_file_says_a_new_game_needs_a_folder(browser, tmp_path: Path) -> None:
    shutil.copy(SAMPLE, tmp_path / "table.arb")
    server = start(tmp_path / "table.arb")
    context, page, errors = open_page(browser, 390, server.url(f"/record/#t={server.token}"))
    try:
        wait_until(page, "!document.getElementById('new-note').hidden")
        assert page.is_hidden("#new")
        assert "A new game needs a folder" in (page.text_content("#new-note") or "")
        assert errors == []
    finally:
        context.close()
        assert server.stop() == 0


LOOK = """(() => [".page-head", ".page-head h1", "#status", "#moves", "body", "main"].map(selector => {
  const node = document.querySelector(selector);
  if (!node) return [selector, null];
  const style = getComputedStyle(node);
  return [selector, style.backgroundColor, style.color, style.fontFamily, style.fontSize, style.padding];
}))()"""


def look(page) -> list:  # type: ignore[no-untyped-def]
    """The computed style of the export page's main parts."""
    return page.evaluate(LOOK)


def test_the_live_badge_is_styled_and_the_export_page_keeps_its_look(browser, served: tuple[Running, Path]) -> None:
    server, folder = served
    context, page, errors = open_page(browser, 1280, server.url("/game/table1.arb"))
    try:
        wait_until(page, "document.getElementById('live').getAttribute('data-state') === 'live'")
        badge = page.evaluate(
            "(() => { const s = getComputedStyle(document.getElementById('live'));"
            " return [s.display, s.borderTopStyle, s.borderTopLeftRadius, s.color, s.fontWeight]; })()"
        )
        assert badge == ["inline-flex", "solid", "999px", "rgb(155, 227, 168)", "600"]
        # the export page's own look: every part of the page but the badge drawn as `arbo export` draws it
        exported = folder.parent / "exported.html"
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "arbo_notation",
                "export",
                str(folder / "table1.arb"),
                "--to",
                "html",
                "-o",
                str(exported),
            ],
            capture_output=True,
            env=arbo_env(),
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        export_context, export, _ = open_page(browser, 1280, exported.as_uri() + "#turn=14")
        try:
            assert look(page) == look(export)
        finally:
            export_context.close()
        board_context, board, board_errors = open_page(browser, 1280, server.url("/"))
        try:
            wait_until(board, "document.getElementById('live').getAttribute('data-state') === 'live'")
            color = board.evaluate("getComputedStyle(document.getElementById('live')).color")
            assert color == "rgb(31, 122, 63)"
            assert board_errors == []
        finally:
            board_context.close()
        assert errors == []
    finally:
        context.close()


class Proxy(ThreadingHTTPServer):
    """A reverse proxy in front of the server, as nginx's plain `proxy_pass` is: the request sent
    on with the upstream's own Host, so the server cannot tell the browser's origin by itself."""

    daemon_threads = True

    def __init__(self, upstream: str) -> None:
        self.upstream = urlsplit(upstream)
        super().__init__(("127.0.0.1", 0), ProxyHandler)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class ProxyHandler(BaseHTTPRequestHandler):
    server: Proxy

    def forward(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        headers = {key: value for key, value in self.headers.items() if key.lower() not in ("host", "connection")}
        upstream = http.client.HTTPConnection(self.server.upstream.hostname, self.server.upstream.port, timeout=20)
        try:
            upstream.request(self.command, self.path, body=body, headers=headers)
            answer = upstream.getresponse()
            data = answer.read()
        finally:
            upstream.close()
        self.send_response(answer.status)
        for key, value in answer.getheaders():
            if key.lower() not in ("transfer-encoding", "connection", "content-length"):
                self.send_header(key, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = forward

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.mark.parametrize("public", [True, False])
def test_behind_a_reverse_proxy_the_phone_writes_with_public_url(browser, tmp_path: Path, public: bool) -> None:
    shutil.copy(SAMPLE, tmp_path / "table1.arb")
    # the proxy's port first: --public-url names it
    proxy = Proxy("http://127.0.0.1:1")
    options = ("--public-url", proxy.base) if public else ()
    server = start(tmp_path, *options)
    proxy.upstream = urlsplit(server.base)
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    context, page, errors = open_page(browser, 390, f"{proxy.base}/record/#t={server.token}&g=table1.arb")
    try:
        assert (f"viewers: {proxy.base}/\n" in server.printed) is public
        wait_until(page, "document.getElementById('prompt').textContent.indexOf('turn 15') === 0")
        page.fill("#entry", TURN)
        page.click("#send")
        wait_until(page, "document.getElementById('message').className !== ''")
        wait_until(page, "document.getElementById('message').textContent !== 'sending…'")
        written = "\n15. Ana d d Ca7@-6,0 /Ma5\n" in (tmp_path / "table1.arb").read_text()
        assert written is public, page.text_content("#message")
        if not public:  # refused as a write from another origin: what --public-url is for
            assert "403" in (page.text_content("#message") or "")
    finally:
        context.close()
        proxy.shutdown()
        proxy.server_close()
        assert server.stop() == 0
