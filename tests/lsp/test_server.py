"""`arbo lsp` as VS Code and Neovim speak to it (pytest-lsp): diagnostics as `arbo check` words
them, and completion of what is legal at the cursor."""

import json
import subprocess
import sys

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.lsp_support import ROOT, SAMPLES, opened, uri_of

# A message the protocol forbids (a wrong type, a missing field) fails the test.
pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")


def check_json(path):
    run = subprocess.run(
        [sys.executable, "-m", "arbo_notation", "check", "--json", str(path)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT)},
        check=False,
    )
    return json.loads(run.stdout)["files"][0]["diagnostics"]


async def diagnostics_of(client: LanguageClient, uri: str, text: str) -> list[types.Diagnostic]:
    client.text_document_did_open(opened(uri, text))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics[uri])


async def test_diagnostics_are_arbo_checks(client: LanguageClient):
    path = SAMPLES / "invalid" / "rule-draw-from-empty-pile.arb"
    found = await diagnostics_of(client, uri_of(path), path.read_text())
    expected = check_json(path)
    assert [(d.range.start.line + 1, d.range.start.character + 1, d.message, d.code) for d in found] == [
        (e["line"], e["column"], e["message"], e["code"]) for e in expected
    ]
    assert [(d.range.end.character, d.severity) for d in found] == [
        (3, types.DiagnosticSeverity.Warning),  # the word '---' at 1:1
        (20, types.DiagnosticSeverity.Error),  # 'Ben:Wi4' at 10:14, to its end
    ]


async def test_a_clean_record_has_no_diagnostics(client: LanguageClient):
    path = SAMPLES / "four-players.arb"
    assert await diagnostics_of(client, uri_of(path), path.read_text()) == []


async def test_completion_offers_the_legal_draws(client: LanguageClient):
    path = SAMPLES / "annotated.arb"
    uri = uri_of(path)
    client.text_document_did_open(opened(uri, path.read_text()))
    # line 17 (0-based 16): "1. Ana d:Ma6 d:Ca1 ...": after "1. Ana " the deck's top card is Ma6
    answer = await client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(uri), types.Position(16, 7))
    )
    assert isinstance(answer, types.CompletionList)
    assert [item.label for item in answer.items] == ["d:Ma6"]
    assert answer.items[0].text_edit == types.TextEdit(
        types.Range(types.Position(16, 7), types.Position(16, 7)), "d:Ma6 "
    )
