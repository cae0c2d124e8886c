"""editors/helix/languages.toml: Helix's lines for .arb records and arbo lsp."""

from __future__ import annotations

import json
import tomllib

from tests.editors.support import EXTENSION, ROOT


def test_helix_runs_the_projects_arbo_lsp_for_arb_files():
    helix = tomllib.loads((ROOT / "editors" / "helix" / "languages.toml").read_text(encoding="utf-8"))
    [language] = helix["language"]
    assert (language["name"], language["file-types"]) == ("arbo", ["arb"])
    [server] = language["language-servers"]
    command = helix["language-server"][server]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert command["command"] in project["project"]["scripts"]  # the console script pip installs
    assert command["args"] == ["lsp"]


def test_helix_comments_as_vs_code_does():
    helix = tomllib.loads((ROOT / "editors" / "helix" / "languages.toml").read_text(encoding="utf-8"))
    [language] = helix["language"]
    vscode = json.loads((EXTENSION / "language-configuration.json").read_text(encoding="utf-8"))["comments"]
    assert language["comment-tokens"] == [vscode["lineComment"]]
    assert [language["block-comment-tokens"]["start"], language["block-comment-tokens"]["end"]] == vscode[
        "blockComment"
    ]
