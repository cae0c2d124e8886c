"""The language server's features as VS Code and Neovim ask for them (pytest-lsp): hover,
formatting, outline, folding, go to definition, inlay hints, code actions and semantic tokens,
each with exact, hand-worked values."""

import subprocess
import sys

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.lsp_support import ROOT, SAMPLES, opened, uri_of

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

HEADER = "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n---\n"


def open_sample(client: LanguageClient, name: str) -> str:
    path = SAMPLES / name
    uri = uri_of(path)
    client.text_document_did_open(opened(uri, path.read_text()))
    return uri


def at(uri: str, line: int, character: int) -> dict:
    return {"text_document": types.TextDocumentIdentifier(uri), "position": types.Position(line, character)}


async def hover(client: LanguageClient, uri: str, line: int, character: int) -> str | None:
    answer = await client.text_document_hover_async(types.HoverParams(**at(uri, line, character)))
    return None if answer is None else answer.contents.value


async def test_hover_on_a_turn_shows_the_table_after_it(client: LanguageClient):
    uri = open_sample(client, "analysed.arb")
    text = await hover(client, uri, 11, 3)  # 1. Ana d:Bs1 d:Dw8 Bs8@0,0 /Ja4
    assert text.splitlines()[:4] == ["After turn 1:", "", "```", "turn 2: Ben to draw; deck: 32 cards"]
    assert "  hand:    Bs1 Bs4 Bs5 Cb7 Cb8 Dw8 Ja8" in text.splitlines()
    assert text.splitlines()[-1] == "Score so far: Ana 0, Ben 0."


async def test_hover_on_a_card_says_where_it_lies(client: LanguageClient):
    uri = open_sample(client, "analysed.arb")
    assert await hover(client, uri, 11, 20) == "Bs8 after turn 1: planted in Ana's arboretum at 0,0"
    assert await hover(client, uri, 11, 30) == "Ja4 after turn 1: on Ana's discard pile"


async def test_hover_on_an_engine_note(client: LanguageClient):
    uri = open_sample(client, "analysed.arb")
    assert await hover(client, uri, 12, 60) == (
        "The engine's note (48 sampled worlds a decision): the margin expected after this turn is -3.6 points."
        "\n\nGlyph ?! (added by the engine).\n\nBetter: d Ana:Ja4 Cb3@0,0 /Ja4, 2.1 points better."
    )


async def test_a_position_outside_the_file_is_answered_with_nothing(client: LanguageClient):
    uri = open_sample(client, "analysed.arb")
    assert await hover(client, uri, 5000, 3) is None
    # past a line's end is at its end, as editors place a cursor there
    assert (await hover(client, uri, 11, 5000)).startswith("After turn 1:")
    completion = await client.text_document_completion_async(types.CompletionParams(**at(uri, 5000, 5000)))
    assert list(completion.items) == []
    place = await client.text_document_definition_async(types.DefinitionParams(**at(uri, 5000, 0)))
    assert place == []


async def test_a_document_not_opened_is_answered_with_nothing(client: LanguageClient):
    uri = uri_of(SAMPLES / "analysed.arb")  # on disk, but the editor has not opened it
    assert await hover(client, uri, 11, 3) is None
    completion = await client.text_document_completion_async(types.CompletionParams(**at(uri, 11, 0)))
    assert list(completion.items) == []


def arbo_fmt(text: str) -> str:
    run = subprocess.run(
        [sys.executable, "-m", "arbo_notation", "fmt", "-"],
        input=text,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT)},
        check=True,
    )
    return run.stdout


def applied(text: str, edits: list[types.TextEdit]) -> str:
    """The text with the edits made (ranges in characters of ASCII lines)."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start = offsets[edit.range.start.line] + edit.range.start.character
        end = offsets[edit.range.end.line] + edit.range.end.character
        text = text[:start] + edit.new_text + text[end:]
    return text


async def format_document(client: LanguageClient, uri: str) -> list[types.TextEdit] | None:
    return await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            types.TextDocumentIdentifier(uri), types.FormattingOptions(tab_size=2, insert_spaces=True)
        )
    )


async def test_formatting_is_arbo_fmt_and_idempotent(client: LanguageClient):
    text = HEADER + "1.  Ana   d d Ma3@0,0  /Oa5   !\n\n\n2. Ben d d Wi7@0,0 /Dw2 {fine}\n"
    uri = "file:///tmp/untidy.arb"
    client.text_document_did_open(opened(uri, text))
    edits = await format_document(client, uri)
    formatted = applied(text, edits)
    assert formatted == arbo_fmt(text)
    assert "1. Ana d d Ma3@0,0 /Oa5 !\n2. Ben d d Wi7@0,0 /Dw2 {fine}\n" in formatted
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            [types.TextDocumentContentChangeWholeDocument(formatted)],
        )
    )
    assert list(await format_document(client, uri)) == []


async def test_formatting_leaves_a_record_with_a_syntax_error(client: LanguageClient):
    uri = "file:///tmp/broken.arb"
    client.text_document_did_open(opened(uri, HEADER + "1. Ana d d Ma3@0,0/Oa5\n"))
    assert await format_document(client, uri) is None


async def test_outline_games_turns_and_variations(client: LanguageClient):
    uri = open_sample(client, "annotated.arb")
    found = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(types.TextDocumentIdentifier(uri))
    )
    (game,) = found
    assert game.name == "game 1: Study game: paths and rights: Ana, Ben"
    assert (game.range.start.line, game.range.end.line) == (0, 44)
    assert [t.name for t in game.children[:2]] == ["1. Ana d:Ma6 d:Ca1 Cb8@0,0 /Bs2", "2. Ben d:Ca4 d:Dw4 Ja5@0,0 /Ca3"]
    assert len(game.children) == 17
    sixth = game.children[5]
    assert [v.name for v in sixth.children] == ["(6. Ben ...)"]
    assert [t.name for t in sixth.children[0].children] == [
        "6. Ben d:Bs5 Ben:Ma3 Bs5@-1,1 /Ca4",
        "7. Ana Ana:Bs3 Ana:Ma2 Ma2@0,1 /Ca6",
        "8. Ben d:Cb1 Ana:Ca6 Bs4@1,0 /Ma3",
    ]


async def test_folding_games_headers_and_variations(client: LanguageClient):
    uri = open_sample(client, "annotated.arb")
    found = await client.text_document_folding_range_async(types.FoldingRangeParams(types.TextDocumentIdentifier(uri)))
    # the game, its header, the variation of turn 6 (lines 23-28) and the one inside it, turn 12's
    assert [(f.start_line, f.end_line) for f in found] == [(0, 14), (0, 44), (22, 27), (24, 25), (35, 36)]


async def test_definition_of_a_card_is_where_it_was_drawn(client: LanguageClient):
    uri = open_sample(client, "annotated.arb")
    # 3. Ana d:Bs8 d:Ma7 Ma6@-1,0 /Ma2: Ma6 was drawn at turn 1 (d:Ma6, line 17)
    found = await client.text_document_definition_async(types.DefinitionParams(**at(uri, 18, 20)))
    assert found == [types.Location(uri, types.Range(types.Position(16, 9), types.Position(16, 12)))]
    # and from its draw, to where it was planted
    found = await client.text_document_definition_async(types.DefinitionParams(**at(uri, 16, 10)))
    assert found == [types.Location(uri, types.Range(types.Position(18, 19), types.Position(18, 22)))]


async def test_inlay_hints_running_score_and_points_lost(client: LanguageClient):
    uri = open_sample(client, "analysed.arb")
    found = await client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri),
            range=types.Range(types.Position(11, 0), types.Position(14, 0)),
        )
    )
    # after turn 3 Ana has Bs8 and Bs1 side by side: a Blue Spruce path of 2, and Bs4 Bs5 in hand
    assert [(h.position.line, h.label) for h in found] == [
        (11, "  Ana 0 Ben 0 · -1.3 pts"),
        (12, "  Ana 0 Ben 0 · -2.1 pts"),
        (13, "  Ana 5 Ben 0 · -1.5 pts"),
        (14, "  Ana 5 Ben 0 · -0.5 pts"),
    ]


def arbo_check(text: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "arbo_notation", "check", "-"],
        input=text,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT)},
        check=False,
    )


FAULTS = {
    "the nearest legal cell": (
        "1. Ana d d Ma3@0,0 /Oa5\n2. Ben d d Wi7@0,0 /Dw2\n3. Ana d d Ja1@3,3 /Ca1\n",
        "Plant Ja1 at 1,0, the nearest free cell",
        "3. Ana d d Ja1@1,0 /Ca1",
    ),
    "a space before '@'": ("1. Ana d d Ma3 @0,0 /Oa5\n", "Take out the space before '@'", "1. Ana d d Ma3@0,0 /Oa5"),
    "a missing space": ("1. Ana d d Ma3@0,0/Oa5\n", "Put a space here", "1. Ana d d Ma3@0,0 /Oa5"),
    "a draw glued to the planting": (
        "1. Ana d dMa3@0,0 /Oa5\n",
        "Put a space between 'd' and 'Ma3@0,0'",
        "1. Ana d d Ma3@0,0 /Oa5",
    ),
    "a card in the wrong case": ("1. Ana d d mA3@0,0 /Oa5\n", "Write Ma3", "1. Ana d d Ma3@0,0 /Oa5"),
    "a discard in the wrong case": ("1. Ana d d Ma3@0,0 /OA5\n", "Write Oa5", "1. Ana d d Ma3@0,0 /Oa5"),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
async def test_a_quick_fix_makes_the_record_pass_arbo_check(client: LanguageClient, fault: str):
    body, title, fixed_line = FAULTS[fault]
    text = HEADER + body
    assert arbo_check(text).returncode == 1
    uri = "file:///tmp/fault.arb"
    client.text_document_did_open(opened(uri, text))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    diagnostics = [d for d in client.diagnostics[uri] if d.severity == types.DiagnosticSeverity.Error]
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri),
            range=diagnostics[0].range,
            context=types.CodeActionContext(diagnostics=diagnostics),
        )
    )
    assert [a.title for a in actions] == [title]
    fixed = applied(text, actions[0].edit.changes[uri])
    assert fixed.splitlines()[-1] == fixed_line
    assert arbo_check(fixed).returncode == 0


def decoded(data: list[int], text: str, legend: list[str]) -> list[tuple[int, str, str]]:
    """Semantic tokens' relative numbers as (line, text, type)."""
    lines = text.split("\n")
    found, line, start = [], 0, 0
    for i in range(0, len(data), 5):
        delta_line, delta_start, length, kind, _ = data[i : i + 5]
        line += delta_line
        start = start + delta_start if delta_line == 0 else delta_start
        found.append((line, lines[line][start : start + length], legend[kind]))
    return found


async def test_semantic_tokens(client: LanguageClient):
    capabilities = client.server_capabilities.semantic_tokens_provider
    legend = list(capabilities.legend.token_types)
    assert legend == ["variable", "enumMember", "number", "operator", "comment", "property", "keyword"]
    text = HEADER + "1. Ana d Ben:Oa5 Ma3@0,0 /Wi5 ?! {a slip} ; and more\n"
    uri = "file:///tmp/tokens.arb"
    client.text_document_did_open(opened(uri, text))
    tokens = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(types.TextDocumentIdentifier(uri))
    )
    assert decoded(list(tokens.data), text, legend) == [
        (1, "players", "property"),
        (1, "Ana", "variable"),
        (1, "Ben", "variable"),
        (2, "species", "property"),
        (4, "1.", "number"),
        (4, "Ana", "variable"),
        (4, "d", "keyword"),
        (4, "Ben", "variable"),
        (4, "Oa5", "enumMember"),
        (4, "Ma3", "enumMember"),
        (4, "0,0", "number"),
        (4, "Wi5", "enumMember"),
        (4, "?!", "operator"),
        (4, "{a slip}", "comment"),
        (4, "; and more", "comment"),
    ]
