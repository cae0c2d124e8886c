"""A real `arbo serve` on 127.0.0.1, asked over HTTP: no path outside PATH, no write without the
token or from another origin, bounded bodies and rates, record text escaped in every page, event
streams resumed without a gap, --delay, and Ctrl-C ending it cleanly."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.serve.support import ROOT, Running, events, record, start

SAMPLE = ROOT / "samples" / "unfinished.arb"
MALICIOUS = ROOT / "tests" / "fixtures" / "share" / "malicious.arb"
SECRET = "secret text outside the folder"

# A server process per module (a second to start): outside the quick run.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    top = tmp_path_factory.mktemp("serve")
    folder = top / "club"
    folder.mkdir()
    shutil.copy(SAMPLE, folder / "table1.arb")
    shutil.copy(MALICIOUS, folder / "hostile.arb")
    (top / "outside.arb").write_text(SECRET)
    (top / "passwd").write_text(SECRET)
    os.symlink(top / "outside.arb", folder / "leak.arb")
    return folder


@pytest.fixture(scope="module")
def server(club: Path):
    running = start(club)
    yield running
    assert running.stop() == 0


def raw_get(server: Running, target: str) -> tuple[int, bytes]:
    """GET with the request target exactly as given (no client tidies its dots or escapes)."""
    where = urlsplit(server.base)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=10)
    try:
        connection.putrequest("GET", target, skip_accept_encoding=True)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


@pytest.mark.parametrize(
    "target",
    [
        "/game/../outside.arb",
        "/game/..%2Foutside.arb",
        "/game/..%2foutside.arb",
        "/game/%2e%2e%2Foutside.arb",
        "/game/%2E%2E/outside.arb",
        "/game/..%5Coutside.arb",
        "/game/leak.arb",
        "/events/leak.arb",
        "/events/..%2F..%2Fpasswd",
        "/game/%2Fetc%2Fpasswd",
        "/game/.table1.arb",
        "/game/table1.arb%00",
        "/../outside.arb",
        "/game/table1.arb/../../outside.arb",
    ],
)
def test_nothing_outside_the_folder_is_served(server: Running, target: str) -> None:
    status, body = raw_get(server, target)
    assert status in (400, 404)
    assert SECRET.encode() not in body


def test_the_records_are_served(server: Running) -> None:
    status, body = server.get("/game/table1.arb")
    assert status == 200 and b"arbo-data" in body
    status, body = server.get("/")
    assert status == 200
    board = json.loads(re.search(rb'id="board-data">(.*?)</script>', body).group(1))
    assert sorted(table["name"] for table in board["tables"]) == ["hostile.arb", "table1.arb"]
    table = next(t for t in board["tables"] if t["name"] == "table1.arb")
    # the running score: the points of each arboretum's best paths (arbo score counts them so)
    assert table["scores"] == [["Ana", 6], ["Ben", 11]] and table["toMove"] == "Ana" and table["turns"] == 14


@pytest.mark.parametrize("path", ["/game/hostile.arb", "/"])
def test_a_records_text_is_escaped_in_every_page(server: Running, path: str) -> None:
    status, body = server.get(path)
    text = body.decode()
    assert status == 200
    assert text.count("<script") == 2  # the data block and the page's own script, nothing else
    assert "</script><script>" not in text and "<img" not in text and 'onerror="' not in text
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', text).group(1)
    assert "default-src &#x27;none&#x27;" in policy and "connect-src &#x27;self&#x27;" in policy


def test_the_security_headers_are_sent(server: Running) -> None:
    where = urlsplit(server.base)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=10)
    connection.request("GET", "/game/table1.arb")
    response = connection.getresponse()
    response.read()
    connection.close()
    assert response.getheader("X-Frame-Options") == "DENY"
    assert response.getheader("X-Content-Type-Options") == "nosniff"
    assert response.getheader("Referrer-Policy") == "no-referrer"
    assert response.getheader("Cache-Control") == "no-store"


def entry_body(server: Running, entry: str = "undo", entry_id: str = "e1") -> bytes:
    return json.dumps({"id": entry_id, "base": server.state("table1.arb")["base"], "entry": entry}).encode()


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"X-Arbo-Token": "wrong"},
        {"X-Arbo-Token": ""},
        {"X-Arbo-Token": "é"},
    ],
)
def test_the_recorder_needs_the_token(server: Running, club: Path, headers: dict[str, str]) -> None:
    before = (club / "table1.arb").read_bytes()
    assert server.get("/api/state/table1.arb", headers)[0] == 403
    assert server.get("/api/games", headers)[0] == 403
    status, _ = server.post(
        "/api/entry/table1.arb", entry_body(server), {**server.own(), **headers} if headers else {"Origin": server.base}
    )
    assert status == 403
    assert (club / "table1.arb").read_bytes() == before


def test_a_token_cut_short_or_lengthened_is_refused(server: Running) -> None:
    for token in (server.token[:-1], server.token + "A", server.token.upper()):
        if token != server.token:
            assert server.get("/api/state/table1.arb", {"X-Arbo-Token": token})[0] == 403


@pytest.mark.parametrize(
    "origin",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Origin": None},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
    ],
)
def test_a_write_from_another_origin_is_refused(server: Running, club: Path, origin: dict[str, str | None]) -> None:
    before = (club / "table1.arb").read_bytes()
    headers = {**server.own(), **origin}
    headers = {key: value for key, value in headers.items() if value is not None}
    status, body = server.post("/api/entry/table1.arb", entry_body(server), headers)
    assert status == 403, body
    assert (club / "table1.arb").read_bytes() == before


def test_a_big_body_is_refused(server: Running, club: Path) -> None:
    before = (club / "table1.arb").read_bytes()
    status, _ = server.post("/api/entry/table1.arb", b'{"entry": "' + b"x" * 100_000 + b'"}', server.own())
    assert status == 413
    for body in (b"not json", b"[]", b'{"id": 1, "base": "", "entry": "undo"}', b'{"entry": "undo"}'):
        assert server.post("/api/entry/table1.arb", body, server.own())[0] == 400
    assert (club / "table1.arb").read_bytes() == before


def read_events(server: Running, path: str, last: str | None, wanted: int, within: float) -> list[tuple[str, str, str]]:
    """The events of a stream (resumed after ``last`` when given) until ``wanted`` or ``within`` s."""
    where = urlsplit(server.base)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=within)
    connection.request("GET", path, headers={"Last-Event-ID": last} if last else {})
    response = connection.getresponse()
    got: list[tuple[str, str, str]] = []
    try:
        for event in events(response):
            got.append(event)
            if len(got) >= wanted:
                break
    except TimeoutError:
        pass
    finally:
        connection.close()
    return got


def test_a_stream_resumed_gets_what_it_missed_and_nothing_twice(tmp_path: Path) -> None:
    shutil.copy(SAMPLE, tmp_path / "game.arb")
    running = start(tmp_path / "game.arb")
    try:
        (first,) = read_events(running, "/events/game.arb", None, 1, 5)
        assert first[1] == "game" and json.loads(first[2])["games"][0]["lines"][0]["legal"] == 14
        # resumed at the state it has: nothing is sent again
        assert read_events(running, "/events/game.arb", first[0], 1, 1.5) == []
        done = record(tmp_path / "game.arb", "d d Ca7@-6,0 /Ma5")
        assert done.returncode == 0, done.stderr
        (missed,) = read_events(running, "/events/game.arb", first[0], 1, 5)
        assert missed[0] != first[0] and json.loads(missed[2])["games"][0]["lines"][0]["legal"] == 15
    finally:
        assert running.stop() == 0


def test_delay_holds_each_state_back(tmp_path: Path) -> None:
    shutil.copy(SAMPLE, tmp_path / "game.arb")
    running = start(tmp_path / "game.arb", "--delay", "3")
    try:
        assert read_events(running, "/events/game.arb", None, 1, 1.5) == []  # nothing yet to show
        time.sleep(2)
        (shown,) = read_events(running, "/events/game.arb", None, 1, 5)
        record(tmp_path / "game.arb", "d d Ca7@-6,0 /Ma5")
        written = time.monotonic()
        assert read_events(running, "/events/game.arb", shown[0], 1, 2.0) == []
        (later,) = read_events(running, "/events/game.arb", shown[0], 1, 5)
        assert time.monotonic() - written >= 2.5
        assert json.loads(later[2])["games"][0]["lines"][0]["legal"] == 15
    finally:
        assert running.stop() == 0


def test_the_rate_of_writes_is_bounded(tmp_path: Path) -> None:
    shutil.copy(SAMPLE, tmp_path / "game.arb")
    running = start(tmp_path / "game.arb")
    try:
        base = running.state("game.arb")["base"]
        statuses = [
            running.post(
                "/api/entry/game.arb",
                json.dumps({"id": f"x{n}", "base": base, "entry": "{a note}"}).encode(),
                running.own(),
            )[0]
            for n in range(20)
        ]
        assert 429 in statuses and statuses[0] == 200
    finally:
        assert running.stop() == 0


def test_ctrl_c_ends_the_server_and_every_stream(tmp_path: Path) -> None:
    shutil.copy(SAMPLE, tmp_path / "game.arb")
    running = start(tmp_path)
    where = urlsplit(running.base)
    streams = []
    for path in ("/events", "/events/game.arb"):
        connection = http.client.HTTPConnection(where.hostname, where.port, timeout=10)
        connection.request("GET", path)
        streams.append((connection, connection.getresponse()))
    began = time.monotonic()
    assert running.stop() == 0
    assert time.monotonic() - began < 5
    for connection, response in streams:
        response.read()  # the stream ends: the server closed it
        connection.close()
    with pytest.raises(ProcessLookupError):
        os.killpg(running.process.pid, 0)  # no process of its group is left
    assert running.process.stderr is not None and running.process.stderr.read() == ""
