"""What the language server's tests share: the server's command and a client of each editor's profile."""

import os
import sys
from pathlib import Path

from lsprotocol import types
from pytest_lsp import ClientServerConfig

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"

#: `arbo lsp` from this checkout, as an editor starts it.
SERVER = ClientServerConfig(
    server_command=[sys.executable, "-m", "arbo_notation", "lsp"],
    server_env={**os.environ, "PYTHONPATH": str(ROOT)},
)

#: The client profiles pytest-lsp knows, as VS Code and Neovim announce themselves.
PROFILES = ["visual-studio-code", "neovim"]


def uri_of(path: Path) -> str:
    return path.resolve().as_uri()


def opened(uri: str, text: str, version: int = 1) -> types.DidOpenTextDocumentParams:
    return types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="arbo", version=version, text=text)
    )
