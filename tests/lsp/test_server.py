"""`arbo lsp` as VS Code and Neovim speak to it (pytest-lsp): diagnostics as `arbo check` words
them, and completion of what is legal at the cursor."""

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.lsp_support import SAMPLES, check_json, opened, uri_of

# A message the protocol forbids (a wrong type, a missing field) fails the test.
pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")


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


async def test_a_range_is_in_the_units_the_client_agreed(client: LanguageClient):
    """Columns count characters in `arbo check`; the protocol counts UTF-16 units unless the
    client and server agreed on another encoding (a tree emoji is two units, one character)."""
    uri = "file:///tmp/wide.arb"
    text = "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n---\n{🌳é} 1. Ana d d Ma3@5,5 /Oa5\n"
    (found,) = await diagnostics_of(client, uri, text)
    encoding = client.server_capabilities.position_encoding or types.PositionEncodingKind.Utf16
    # 'Ma3@5,5' at character 16 (0-based): after '{', the tree, 'é', '} 1. Ana d d '
    before, word = "{🌳é} 1. Ana d d ", "Ma3@5,5"
    units = {
        types.PositionEncodingKind.Utf16: lambda s: len(s.encode("utf-16-le")) // 2,
        types.PositionEncodingKind.Utf8: lambda s: len(s.encode("utf-8")),
        types.PositionEncodingKind.Utf32: len,
    }[encoding]
    assert (found.range.start.character, found.range.end.character) == (units(before), units(before + word))


FOUR = (SAMPLES / "four-players.arb").read_text()


async def completions(client: LanguageClient, uri: str, line: int, character: int) -> list[str]:
    answer = await client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(uri), types.Position(line, character))
    )
    return [item.label for item in answer.items]


async def test_completion_of_a_turn_of_four_players_hand_worked(client: LanguageClient):
    """Turn 14 of samples/four-players.arb, Ben's, on the table after turn 13: the discard piles'
    tops are Ana's Rp3 (t13), Ben's own Tp2 (t10), Cleo's Ca3 (t11) and Dev's Wi3 (t12); the record
    follows Cleo, so Ben's deck draw is a plain 'd'."""
    uri = "file:///tmp/four.arb"
    lines = FOUR.split("\n")
    assert lines[22] == "14. Ben Cleo:Ca3 Ben:Tp2 Dw2@2,1 /Ca3"
    text = "\n".join(lines[:22] + ["14. Ben "] + lines[23:])
    client.text_document_did_open(opened(uri, text))
    assert await completions(client, uri, 22, 8) == ["d", "Ana:Rp3", "Ben:Tp2", "Cleo:Ca3", "Dev:Wi3"]
    assert await completions(client, uri, 22, 0) == ["14. Ben", "d", "Ana:Rp3", "Ben:Tp2", "Cleo:Ca3", "Dev:Wi3"]


async def test_completion_of_the_planting_and_the_discard_hand_worked(client: LanguageClient):
    """After Cleo:Ca3 and Ben:Tp2, Ben's known cards are Cb1 (his own pile, t6), Dw2 (Ana's pile,
    t2) and the two just drawn; his trees Bs7@0,0 Tp3@1,0 Tp4@1,1 leave seven free cells."""
    uri = "file:///tmp/four.arb"
    client.text_document_did_open(opened(uri, FOUR))
    line = "14. Ben Cleo:Ca3 Ben:Tp2 "
    assert await completions(client, uri, 22, len(line)) == ["Ca3@", "Cb1@", "Dw2@", "Tp2@"]
    assert await completions(client, uri, 22, len(line + "Dw2@")) == [
        "Dw2@-1,0",
        "Dw2@0,-1",
        "Dw2@0,1",
        "Dw2@1,-1",
        "Dw2@1,2",
        "Dw2@2,0",
        "Dw2@2,1",
    ]
    assert await completions(client, uri, 22, len(line + "Dw2@2,1 /")) == ["/Ca3", "/Cb1", "/Tp2"]


async def test_completion_in_the_header(client: LanguageClient):
    uri = "file:///tmp/header.arb"
    text = "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, \nperspective: \nhands:\n  \n---\n"
    client.text_document_did_open(opened(uri, text))
    assert await completions(client, uri, 2, len("species: [Ca, Dw, ")) == [
        "Bs", "Cb", "Ja", "Ma", "Oa", "Rp", "Tp", "Wi", "Li", "Mg", "Ol"
    ]  # fmt: skip
    assert await completions(client, uri, 3, len("perspective: ")) == ["Ana", "Ben"]
    assert await completions(client, uri, 5, 2) == ["Ana", "Ben"]
    assert await completions(client, uri, 6, 0) == []  # the closing '---'
    assert await completions(client, uri, 1, len("players: [Ana, ")) == ["Ben"]  # the file's players
    assert await completions(client, uri, 4, 0) == [
        "event", "site", "date", "round", "annotator", "names", "deck", "discards", "position", "result"
    ]  # fmt: skip


async def test_completion_of_the_players_of_a_new_game_from_the_files(client: LanguageClient):
    uri = "file:///tmp/club.arb"
    text = FOUR + "\n---\nplayers: [Dev, \n---\n"
    client.text_document_did_open(opened(uri, text))
    line = len(FOUR.split("\n")) + 1
    assert await completions(client, uri, line, len("players: [Dev, ")) == ["Ana", "Ben", "Cleo"]


async def test_completion_of_the_reveals_and_the_result(client: LanguageClient):
    """After turn 36 the deck is empty: Ana, Ben and Dev show their hands (the record follows
    Cleo, whose hand is known); once all are shown, the result line is the score sheet's."""
    lines = FOUR.split("\n")
    assert lines[44].startswith("36. Dev") and lines[49].startswith("result")
    uri = "file:///tmp/end.arb"
    client.text_document_did_open(opened(uri, "\n".join(lines[:45] + ["", ""])))
    assert await completions(client, uri, 45, 0) == ["reveal Ana", "reveal Ben", "reveal Dev"]
    uri = "file:///tmp/result.arb"
    client.text_document_did_open(opened(uri, "\n".join(lines[:49] + ["res", ""])))
    assert await completions(client, uri, 49, 3) == ["result Ana 3, Ben 0, Cleo 17, Dev 19"]


async def test_a_byte_order_mark_is_counted_on_line_1(client: LanguageClient):
    """`arbo check` drops a mark at the start of a file; an editor that keeps it in the text counts
    it (one UTF-16 unit, three UTF-8 bytes), so the ranges of line 1 start after it there, and
    only there."""
    uri = "file:///tmp/marked.arb"
    text = "\ufeff--- x\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n---\n"
    found = await diagnostics_of(client, uri, text)
    encoding = client.server_capabilities.position_encoding or types.PositionEncodingKind.Utf16
    mark = {
        types.PositionEncodingKind.Utf16: 1,
        types.PositionEncodingKind.Utf8: 3,
        types.PositionEncodingKind.Utf32: 1,
    }
    assert [(d.range.start.line, d.range.start.character, d.range.end.character) for d in found] == [
        (0, mark[encoding], mark[encoding] + 3),  # '---' after the mark
        (3, 0, 3),
    ]
