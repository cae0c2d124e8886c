"""Bad input is normal input for `arbo lsp`: huge, binary and many-game documents, garbage on
the wire, a client that goes away. The server answers or drops, never crashes nor hangs, and its
memory stays bounded."""

import queue
import subprocess

import pytest

from tests.lsp.lsp_support import SAMPLES, RawSession

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

GAME = (SAMPLES / "four-players.arb").read_text()
EMPTY_GAME = "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n---\n"


def hover(session: RawSession, uri: str, line: int, character: int) -> dict:
    params = {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}
    return session.answer(session.send("textDocument/hover", params))


def test_garbage_on_the_wire_is_dropped_and_the_server_goes_on():
    with RawSession() as session:
        session.send_bytes(b"Content-Length: 12\r\n\r\n{not json!!}")
        session.send_bytes(b"Content-Length: 2\r\n\r\n[]")
        session.send_bytes(b'Content-Length: 30\r\n\r\n{"jsonrpc": "2.0", "id": 99}  ')
        assert session.initialize()["result"]["serverInfo"]["name"] == "arbo"
        uri = "file:///tmp/after-garbage.arb"
        session.open(uri, GAME)
        assert session.diagnostics(uri) == []
        assert hover(session, uri, 20, 3)["result"]["contents"]["value"].startswith("After turn 12:")
        # a request the server does not know: an error answer, and the server goes on
        unknown = session.answer(session.send("textDocument/unheardOf", {}))
        assert unknown["error"]["code"] == -32601
        assert session.close() == 0


def test_a_client_that_goes_away_ends_the_server():
    with RawSession() as session:
        session.initialize()
        session.open("file:///tmp/left.arb", GAME)
        session.process.stdin.close()  # the editor is gone, without a word
        assert session.process.wait(timeout=10) is not None


def test_a_client_gone_mid_message_ends_the_server():
    with RawSession() as session:
        session.initialize()
        session.send_bytes(b'Content-Length: 5000\r\n\r\n{"jsonrpc": ')  # and never the rest
        session.process.stdin.close()
        assert session.process.wait(timeout=10) is not None


def test_a_binary_file_is_answered():
    with RawSession() as session:
        session.initialize()
        uri = "file:///tmp/binary.arb"
        text = bytes(range(256)).decode("latin-1") * 200 + "\n---\n\x00\x01\x02---\n\x1b[2J"
        session.open(uri, text)
        found = session.diagnostics(uri)
        assert found and all(d["source"] == "arbo" for d in found)
        for method, extra in [
            ("textDocument/hover", {"position": {"line": 1, "character": 3}}),
            ("textDocument/completion", {"position": {"line": 1, "character": 3}}),
            ("textDocument/formatting", {"options": {"tabSize": 2, "insertSpaces": True}}),
            ("textDocument/semanticTokens/full", {}),
            ("textDocument/documentSymbol", {}),
            ("textDocument/foldingRange", {}),
        ]:
            answer = session.answer(session.send(method, {"textDocument": {"uri": uri}, **extra}))
            assert "error" not in answer, method
        assert session.close() == 0


@pytest.mark.slow
def test_a_file_of_50_mb_is_checked_in_part_with_bounded_memory():
    with RawSession() as session:
        session.initialize()
        idle = session.peak_memory_mb()
        uri = "file:///tmp/huge.arb"
        text = (GAME + "\n") * (50_000_000 // len(GAME))
        session.open(uri, text)
        found = session.diagnostics(uri, timeout=120)
        (note,) = found
        assert note["severity"] == 2 and "not checked (run arbo check on the file)" in note["message"]
        last_line = text.count("\n") - 10
        assert hover(session, uri, last_line, 3)["result"] is not None
        tokens = session.answer(
            session.send("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}}), timeout=60
        )
        assert len(tokens["result"]["data"]) < 5 * 4_000_000  # the first 4 MB's tokens at most
        # the JSON message, the editor's text held by pygls and arbo's cut of it: some three times
        # the file (147 MB measured on 2026-12-06), the games past the first 4 MB never read
        grown = session.peak_memory_mb() - idle
        assert grown < 4 * 50, f"the server grew by {grown:.0f} MB for a 50 MB file"
        assert session.close() == 0


@pytest.mark.slow
def test_a_file_of_100000_games_is_checked_in_part():
    with RawSession() as session:
        session.initialize()
        idle = session.peak_memory_mb()
        uri = "file:///tmp/many.arb"
        text = EMPTY_GAME * 100_000
        session.open(uri, text)
        found = session.diagnostics(uri, timeout=120)
        assert found[-1]["message"] == (
            "the editor checks the first 2000 games and 4 MB of a file: 98000 games from here on not checked "
            "(run arbo check on the file)"
        )
        assert found[-1]["range"]["start"]["line"] == 2000 * 4
        symbols = session.answer(session.send("textDocument/documentSymbol", {"textDocument": {"uri": uri}}), 60)
        assert len(symbols["result"]) == 2000
        grown = session.peak_memory_mb() - idle
        # 36 MB measured on 2026-12-06: the games' places, their first 2,000 checked and outlined
        assert grown < 80, f"the server grew by {grown:.0f} MB for a 5.4 MB file of 100,000 games"
        assert session.close() == 0


def test_without_the_extra_a_one_line_message(tmp_path):
    from tests.lsp.lsp_support import ROOT
    from tests.not_installed import NOT_INSTALLED

    program = NOT_INSTALLED + "import sys; sys.argv = ['arbo', 'lsp']; from arbo_notation.cli import main; main()"
    run = subprocess.run(
        [__import__("sys").executable, "-c", program],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "ARBO_TEST_BLOCKED": "pygls,lsprotocol"},
        check=False,
    )
    assert (run.returncode, run.stdout, run.stderr) == (
        1,
        "",
        "arbo: arbo lsp needs pygls, which is not installed: pip install 'arbo-notation[lsp]'\n",
    )


def test_changes_in_a_burst_are_checked_once_after_the_last():
    with RawSession() as session:
        session.initialize()
        uri = "file:///tmp/typing.arb"
        session.open(uri, EMPTY_GAME)
        assert session.diagnostics(uri) == []
        typed = "1. Ana d d Ma3@9,9 /Oa5\n"
        for version, end in enumerate(range(1, len(typed) + 1), 2):
            change = {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"text": EMPTY_GAME + typed[:end]}],
            }
            session.send("textDocument/didChange", change, request=False)
        published = []
        while True:
            try:
                published.append(session.receive(lambda m: m.get("method") == "textDocument/publishDiagnostics", 1.5))
            except queue.Empty:
                break
        assert [(m["params"]["version"], [d["message"] for d in m["params"]["diagnostics"]]) for m in published] == [
            (len(typed) + 1, ["Ana cannot plant Ma3 at (9,9): the first tree of an arboretum stands at (0,0)"])
        ]
        assert session.close() == 0
