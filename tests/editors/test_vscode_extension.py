"""The VS Code extension: its manifest, its client starting arbo lsp, and its .vsix package."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.editors.support import EXTENSION, FAULTY, ROOT, npm_packages, program

MANIFEST = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))


def test_the_manifest_gives_arb_files_the_arbo_language_its_grammar_and_configuration():
    [language] = MANIFEST["contributes"]["languages"]
    assert (language["id"], language["extensions"]) == ("arbo", [".arb"])
    configuration = json.loads((EXTENSION / language["configuration"]).read_text(encoding="utf-8"))
    assert configuration["comments"] == {"lineComment": ";", "blockComment": ["{", "}"]}
    [grammar] = MANIFEST["contributes"]["grammars"]
    assert grammar["language"] == "arbo"
    tm = json.loads((EXTENSION / grammar["path"]).read_text(encoding="utf-8"))
    assert tm["scopeName"] == grammar["scopeName"] == "source.arbo"
    setting = MANIFEST["contributes"]["configuration"]["properties"]["arbo.command"]
    assert setting["default"] == ["arbo"]
    workspace = MANIFEST["contributes"]["configuration"]["properties"]["arbo.workspaceDiagnostics"]
    assert (workspace["type"], workspace["default"]) == ("boolean", True)
    # a folder's settings could name any program: not followed until the workspace is trusted
    assert MANIFEST["capabilities"]["untrustedWorkspaces"]["restrictedConfigurations"] == ["arbo.command"]
    assert (EXTENSION / MANIFEST["main"]).is_file()


def test_the_extension_starts_arbo_lsp_as_its_setting_says(tmp_path: Path):
    node = program("node", "nodejs")
    npm_packages()
    record = tmp_path / "going-on.arb"
    record.write_text(
        "".join(FAULTY.read_text(encoding="utf-8").splitlines(keepends=True)[:11]) + "4. Ben d:Ma6 d:Oa5 "
    )
    environment = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "ARBO_TEST_COMMAND": json.dumps([sys.executable, "-m", "arbo_notation"]),
        "ARBO_TEST_RECORD": str(record),
    }
    client = ROOT / "tests" / "editors" / "vscode_client.mjs"
    done = subprocess.run([node, str(client)], env=environment, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    [started] = seen["started"]
    assert started["serverOptions"]["command"] == sys.executable
    assert started["serverOptions"]["args"] == ["-m", "arbo_notation", "lsp"]
    assert {"language": "arbo", "scheme": "file"} in started["documentSelector"]
    assert started["initializationOptions"] == {"workspaceDiagnostics": True}  # the setting's default
    assert {"completionProvider", "textDocumentSync"} <= set(seen["capabilities"])
    check = subprocess.run(
        [sys.executable, "-m", "arbo_notation", "check", "--json", str(record)],
        capture_output=True,
        text=True,
        env=environment,
    )
    expected = [
        (d["line"] - 1, d["column"] - 1, d["message"]) for d in json.loads(check.stdout)["files"][0]["diagnostics"]
    ]
    shown = [(d["range"]["start"]["line"], d["range"]["start"]["character"], d["message"]) for d in seen["diagnostics"]]
    assert shown == expected == [(11, 19, "expected a planting such as Ma3@0,1 after 'd:Oa5', found end of line")]
    assert seen["labels"] == ["Ma4@", "Ma6@", "Oa2@", "Oa4@", "Oa5@", "Oa8@", "Wi1@", "Wi2@", "Wi4@"]
    assert seen["exit"] == 0  # the server ended at the client's exit


@pytest.mark.slow
def test_vsce_packages_the_extension_offline_from_the_lock_file(tmp_path: Path):
    program("node", "nodejs")
    modules = npm_packages()
    package = tmp_path / "arbo.vsix"
    vsce = modules / ".bin" / "vsce"
    done = subprocess.run(
        # `npm run package`'s command, writing elsewhere
        [str(vsce), *MANIFEST["scripts"]["package"].split()[1:], "--out", str(package)],
        cwd=EXTENSION,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "npm_config_offline": "true"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    with zipfile.ZipFile(package) as vsix:
        names = set(vsix.namelist())
        packaged = json.loads(vsix.read("extension/package.json"))
    assert {
        "extension.vsixmanifest",
        "extension/package.json",
        "extension/extension.js",
        "extension/language-configuration.json",
        "extension/syntaxes/arbo.tmLanguage.json",
        "extension/node_modules/vscode-languageclient/node.js",
    } <= names
    assert packaged["contributes"]["languages"][0]["id"] == "arbo"
    # The test tools are development dependencies: not in the package.
    assert not any(
        name.startswith(("extension/node_modules/vscode-textmate/", "extension/node_modules/@vscode/"))
        for name in names
    )
