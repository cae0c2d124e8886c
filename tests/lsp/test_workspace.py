"""`arbo lsp`'s workspace diagnostics as VS Code and Neovim see them (pytest-lsp): every record of
the folder checked from disk as `arbo check` checks it, again when the client says a file changed,
cleared when it is deleted, within the bounds, and none when switched off."""

import asyncio
import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from tests.lsp.lsp_support import PROFILES, SAMPLES, SERVER, accept_registrations, check_json, opened, uri_of

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

FAULTY = SAMPLES / "invalid" / "rule-draw-from-empty-pile.arb"
CLEAN = SAMPLES / "four-players.arb"


def workspace_folder(top: Path) -> Path:
    """A project: a clean record at its top, a faulty one in a subfolder, and faulty ones where
    the server does not look (a hidden folder, node_modules, a link out of the folder)."""
    folder = top / "project"
    (folder / "club").mkdir(parents=True)
    shutil.copy(CLEAN, folder / "clean.arb")
    shutil.copy(FAULTY, folder / "club" / "faulty.arb")
    for hidden in [".venv/lib", "node_modules/pkg"]:
        (folder / hidden).mkdir(parents=True)
        shutil.copy(FAULTY, folder / hidden / "faulty.arb")
    outside = top / "elsewhere"
    outside.mkdir()
    shutil.copy(FAULTY, outside / "faulty.arb")
    (folder / "linked.arb").symlink_to(outside / "faulty.arb")
    (folder / "linked-folder").symlink_to(outside, target_is_directory=True)
    (folder / "notes.txt").write_text("not a record\n")
    return folder


def files_of(top: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``top`` with its size and time of change."""
    return {str(path): (path.lstat().st_size, path.lstat().st_mtime_ns) for path in sorted(top.rglob("*"))}


@pytest.fixture
def options() -> dict:
    """The initialization options the client sends (a test overrides them with parametrize)."""
    return {}


@pytest_lsp.fixture(config=SERVER, params=PROFILES)
async def client(request, lsp_client: LanguageClient):
    folder = workspace_folder(request.getfixturevalue("tmp_path"))
    lsp_client.registrations = accept_registrations(lsp_client)
    lsp_client.folder = folder
    lsp_client.files_before = files_of(folder.parent)
    lsp_client.profile = client_capabilities(request.param)
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=lsp_client.profile,
            root_uri=folder.as_uri(),
            workspace_folders=[types.WorkspaceFolder(folder.as_uri(), "project")],
            initialization_options=request.getfixturevalue("options"),
        )
    )
    yield
    await lsp_client.shutdown_session()


def as_check(found: list[types.Diagnostic]) -> list[tuple]:
    return [(d.range.start.line + 1, d.range.start.character + 1, d.message, d.code) for d in found]


def expected(path: Path) -> list[tuple]:
    return [(e["line"], e["column"], e["message"], e["code"]) for e in check_json(path)]


async def published(client: LanguageClient, *uris: str, timeout: float = 30) -> None:
    """Wait until the server has published diagnostics of each of ``uris``."""

    async def every() -> None:
        while not all(uri in client.diagnostics for uri in uris):
            await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)

    await asyncio.wait_for(every(), timeout)


async def quiet(client: LanguageClient, seconds: float = 1.0) -> None:
    """Let the server finish what it is doing: no diagnostics for ``seconds``."""
    while True:
        try:
            await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), seconds)
        except TimeoutError:
            return


def changed(client: LanguageClient, path: Path, kind: types.FileChangeType) -> None:
    client.diagnostics.pop(uri_of(path), None)
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams([types.FileEvent(uri=uri_of(path), type=kind)])
    )


async def test_every_record_of_the_folder_is_checked_as_arbo_check_checks_it(client: LanguageClient):
    faulty, clean = client.folder / "club" / "faulty.arb", client.folder / "clean.arb"
    await published(client, uri_of(faulty), uri_of(clean))
    assert as_check(client.diagnostics[uri_of(faulty)]) == expected(faulty)
    assert len(expected(faulty)) == 2  # a warning and an error
    assert [(d.range.end.character, d.severity) for d in client.diagnostics[uri_of(faulty)]] == [
        (3, types.DiagnosticSeverity.Warning),  # the word '---' at 1:1
        (20, types.DiagnosticSeverity.Error),  # 'Ben:Wi4' at 10:14, to its end
    ]
    assert list(client.diagnostics[uri_of(clean)]) == []
    await quiet(client)
    # not the hidden folder, node_modules, the link out of the folder nor the folder linked
    assert sorted(client.diagnostics) == sorted([uri_of(faulty), uri_of(clean)])
    assert client.messages == []  # no bound reached
    assert files_of(client.folder.parent) == client.files_before  # the server wrote nothing


async def test_a_changed_file_is_checked_again_and_a_deleted_one_cleared(client: LanguageClient):
    faulty, clean = client.folder / "club" / "faulty.arb", client.folder / "clean.arb"
    await published(client, uri_of(faulty), uri_of(clean))
    faulty.write_text(clean.read_text())
    changed(client, faulty, types.FileChangeType.Changed)
    await published(client, uri_of(faulty))
    assert list(client.diagnostics[uri_of(faulty)]) == []
    # a record created, then deleted
    created = client.folder / "club" / "new.arb"
    shutil.copy(FAULTY, created)
    changed(client, created, types.FileChangeType.Created)
    await published(client, uri_of(created))
    assert as_check(client.diagnostics[uri_of(created)]) == expected(created)
    created.unlink()
    changed(client, created, types.FileChangeType.Deleted)
    await published(client, uri_of(created))
    assert list(client.diagnostics[uri_of(created)]) == []


async def test_an_open_file_follows_the_editor_and_once_closed_the_disk(client: LanguageClient):
    faulty = client.folder / "club" / "faulty.arb"
    uri = uri_of(faulty)
    await published(client, uri)
    await quiet(client)
    on_disk = as_check(client.diagnostics[uri])
    # the editor's text: the faulty draw taken out, a planting on a far cell put in
    text = faulty.read_text().replace("Ben:Wi4", "d")
    client.diagnostics.pop(uri)
    client.text_document_did_open(opened(uri, text))
    await published(client, uri)
    # Ben's draw from his empty pile gone, the record's next fault shows: Ana's named draw
    assert as_check(client.diagnostics[uri]) == [
        (1, 1, "a 2-player game uses 6 species, this one 3", "species-count"),
        (11, 8, "Ana cannot draw Wi6 from the deck: its top card is Ma6", "draw"),
    ]
    assert as_check(client.diagnostics[uri]) != on_disk
    # a change on disk while the file is open: the editor's text still rules
    changed(client, faulty, types.FileChangeType.Changed)
    await quiet(client)
    assert uri not in client.diagnostics
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
    await published(client, uri)
    assert as_check(client.diagnostics[uri]) == on_disk


async def test_the_client_is_asked_to_watch_the_records_when_it_lets_servers_ask(client: LanguageClient):
    await published(client, uri_of(client.folder / "clean.arb"))
    dynamic = client.profile.workspace.did_change_watched_files
    if dynamic is not None and dynamic.dynamic_registration:  # VS Code
        (registration,) = client.registrations
        assert registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
        assert registration.register_options == {"watchers": [{"globPattern": "**/*.arb"}]}
    else:  # Neovim
        assert client.registrations == []


BOUND_MESSAGE = (
    "arbo: the workspace's diagnostics are those of its first 1 record files ({files} files and {mb} MB at most): "
    "the others are checked when opened (arbo check FOLDER checks them all)"
)


@pytest.mark.parametrize("options", [{"workspaceMaxFiles": 1}])
async def test_the_bound_on_files_is_kept_and_said_once(client: LanguageClient, options: dict):
    await published(client, uri_of(client.folder / "clean.arb"))
    await quiet(client)
    assert list(client.diagnostics) == [uri_of(client.folder / "clean.arb")]  # the first in the order of paths
    assert [(m.type, m.message) for m in client.messages] == [
        (types.MessageType.Warning, BOUND_MESSAGE.format(files=1, mb=64))
    ]


@pytest.mark.parametrize("options", [{"workspaceMaxBytes": FAULTY.stat().st_size}])
async def test_the_bound_on_bytes_is_kept(client: LanguageClient, options: dict):
    """The clean record (some 2 KB) is bigger than the bound: passed over; the faulty one fits."""
    assert CLEAN.stat().st_size > FAULTY.stat().st_size
    faulty = client.folder / "club" / "faulty.arb"
    await published(client, uri_of(faulty))
    await quiet(client)
    assert list(client.diagnostics) == [uri_of(faulty)]
    assert [m.type for m in client.messages] == [types.MessageType.Warning]
    assert client.messages[0].message.startswith("arbo: the workspace's diagnostics are those of its first 1 record")


@pytest.mark.parametrize("options", [{"workspaceDiagnostics": False}])
async def test_switched_off_only_the_open_files_are_checked(client: LanguageClient, options: dict):
    faulty = client.folder / "club" / "faulty.arb"
    changed(client, faulty, types.FileChangeType.Changed)  # not heeded
    await quiet(client)
    assert client.diagnostics == {}
    assert client.registrations == []
    client.text_document_did_open(opened(uri_of(faulty), faulty.read_text()))
    await published(client, uri_of(faulty))
    assert as_check(client.diagnostics[uri_of(faulty)]) == expected(faulty)
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri_of(faulty))))
    client.diagnostics.pop(uri_of(faulty))
    await published(client, uri_of(faulty))
    assert list(client.diagnostics[uri_of(faulty)]) == []  # cleared, as before


async def test_a_file_closed_unsaved_loses_its_diagnostics(client: LanguageClient):
    await published(client, uri_of(client.folder / "clean.arb"))
    uri = uri_of(client.folder / "club" / "unsaved.arb")  # never written to disk
    client.text_document_did_open(opened(uri, FAULTY.read_text()))
    await published(client, uri)
    assert len(client.diagnostics[uri]) == 2
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
    client.diagnostics.pop(uri)
    await published(client, uri)
    assert list(client.diagnostics[uri]) == []


async def test_a_folder_added_to_the_workspace_is_checked_and_one_taken_out_cleared(client: LanguageClient):
    await published(client, uri_of(client.folder / "clean.arb"))
    second = client.folder.parent / "second"
    second.mkdir()
    shutil.copy(FAULTY, second / "faulty.arb")
    uri = uri_of(second / "faulty.arb")
    folder = types.WorkspaceFolder(second.as_uri(), "second")
    client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(types.WorkspaceFoldersChangeEvent(added=[folder], removed=[]))
    )
    await published(client, uri)
    assert as_check(client.diagnostics[uri]) == expected(second / "faulty.arb")
    client.diagnostics.pop(uri)
    client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(types.WorkspaceFoldersChangeEvent(added=[], removed=[folder]))
    )
    await published(client, uri)
    assert list(client.diagnostics[uri]) == []
    await quiet(client)
    assert list(client.diagnostics[uri_of(client.folder / "club" / "faulty.arb")]) != []  # the first folder's stay
