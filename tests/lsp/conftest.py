"""The client the language server's tests speak through: one of each editor's profile."""

import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from tests.lsp.lsp_support import PROFILES, SERVER, accept_registrations


@pytest_lsp.fixture(config=SERVER, params=PROFILES)
async def client(request, lsp_client: LanguageClient):
    # a folder of no records: the features' tests see only the files they open (test_workspace.py
    # has the folders of records)
    folder = request.getfixturevalue("tmp_path")
    accept_registrations(lsp_client)
    result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities(request.param), root_uri=folder.as_uri())
    )
    lsp_client.server_capabilities = result.capabilities  # what the tests of the legend read
    yield
    await lsp_client.shutdown_session()
