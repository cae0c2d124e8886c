"""The editors' screenshots in docs/ (docs/EDITORS.md shows them), made by the commands.

    python docs/editor_screenshots.py [FOLDER]

editor-neovim.svg: Debian's Neovim in tmux (100x34) with editors/nvim and arbo lsp, a record whose
turn 4 plants where no tree is adjacent, the cursor after a planting's '@' and the server's
completion open (omnifunc, Ctrl-X Ctrl-O); the screen is read with ``tmux capture-pane -e`` and
drawn with its colours by rich. editor-vscode-grammar.png: samples/annotated.arb tokenized by
the VS Code extension's TextMate grammar (vscode-textmate, tests/editors/tokenize.mjs) and
coloured with the Dark+ theme's colours, in headless Chromium: the grammar's colouring, not a
VS Code window (VS Code does not run here). Helix does not run here either (Debian 12 has no
package of it): EDITORS.md has no screenshot of it.
"""

from __future__ import annotations

import html
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR_SAMPLE = ROOT / "samples" / "annotated.arb"
NEOVIM = "editor-neovim.svg"
VSCODE = "editor-vscode-grammar.png"
TYPED = "4. Ben d:Ma6 d:Oa5 Oa4@"

NEOVIM_INIT = """
vim.opt.runtimepath:prepend({nvim!r})
vim.cmd("filetype plugin on")
vim.cmd("syntax on")
vim.opt.number = true
vim.opt.signcolumn = "yes"
vim.opt.completeopt = "menuone,noinsert"
vim.diagnostic.config({{ update_in_insert = true, severity_sort = true }})
require("arbo").setup({{ cmd = {{ {python!r}, "-m", "arbo_notation", "lsp" }} }})
"""


def tmux(socket: str, *args: str) -> str:
    return subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True, check=True).stdout


def wait_for(socket: str, words: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while words not in tmux(socket, "capture-pane", "-p"):
        if time.monotonic() > deadline:
            raise SystemExit(f"Neovim never showed {words!r}:\n{tmux(socket, 'capture-pane', '-p')}")
        time.sleep(0.2)


def neovim_screen(work: Path) -> str:
    """The screen of Neovim with the completion open, with its colours (ANSI)."""
    sys.path.insert(0, str(ROOT))
    from tests.editors.support import club_record  # the record the Neovim test opens

    record = club_record(work)
    init = work / "init.lua"
    init.write_text(NEOVIM_INIT.format(nvim=str(ROOT / "editors" / "nvim"), python=sys.executable), encoding="utf-8")
    socket = f"arbo-shots-{os.getpid()}"
    environment = ["-e", f"PYTHONPATH={ROOT}", "-e", "TERM=xterm-256color", "-e", f"XDG_STATE_HOME={work}"]
    command = f"nvim -n -i NONE -u {init} {record.name}"
    tmux(socket, "new-session", "-d", "-x", "100", "-y", "34", "-c", str(work), *environment, command)
    try:
        wait_for(socket, "Ben cannot plant Oa4")
        tmux(socket, "send-keys", "G", "o", TYPED)
        time.sleep(1)
        tmux(socket, "send-keys", "C-x", "C-o")
        wait_for(socket, "Oa4@1,0")
        time.sleep(0.5)
        return tmux(socket, "capture-pane", "-e", "-p")
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)


def neovim_version() -> str:
    """'Neovim 0.7.2', as `nvim --version` says it."""
    first = subprocess.run(["nvim", "--version"], capture_output=True, text=True, check=True).stdout.split("\n")[0]
    return first.replace("NVIM v", "Neovim ")


def terminal_svg(screen: str, title: str) -> str:
    from rich.console import Console
    from rich.text import Text

    with open(os.devnull, "w") as nowhere:
        console = Console(record=True, width=100, file=nowhere, color_system="truecolor")
        console.print(Text.from_ansi(screen.rstrip("\n")))
        return console.export_svg(title=title)


# The Dark+ theme's colours (VS Code's default dark theme) for the scopes the grammar gives: the
# longest selector that prefixes a token's innermost scope that has one wins, as in a theme.
DARK_PLUS = {
    "comment": "#6A9955",
    "string": "#CE9178",
    "constant.numeric": "#B5CEA8",
    "constant.language": "#569CD6",
    "keyword": "#569CD6",
    "keyword.control": "#C586C0",
    "keyword.operator": "#D4D4D4",
    "entity.name.type": "#4EC9B0",
    "entity.name.tag": "#569CD6",
    "variable": "#9CDCFE",
    "punctuation": "#D4D4D4",
}
FOREGROUND, BACKGROUND = "#D4D4D4", "#1E1E1E"


def colour_of(scopes: list[str]) -> str:
    for scope in reversed(scopes):
        parts = scope.split(".")
        for length in range(len(parts), 0, -1):
            colour = DARK_PLUS.get(".".join(parts[:length]))
            if colour:
                return colour
    return FOREGROUND


def grammar_page(sample: Path) -> str:
    """The sample as an HTML page, each token in its Dark+ colour."""
    node = [str(ROOT / "tests" / "editors" / "tokenize.mjs"), "--json", str(sample)]
    done = subprocess.run(["node", *node], capture_output=True, text=True, check=True)
    [tokens] = json.loads(done.stdout)
    lines = sample.read_text(encoding="utf-8").rstrip("\n").split("\n")
    painted: list[list[str]] = [[] for _ in lines]
    for token in tokens["tokens"]:
        row = token["line"] - 1
        text = html.escape(token["text"])
        painted[row].append(f'<span style="color:{colour_of(token["scopes"])}">{text}</span>')
    rows = "".join(
        f'<div class="row"><span class="number">{n}</span><span class="text">{"".join(spans)}</span></div>'
        for n, spans in enumerate(painted, 1)
    )
    return f"""<!doctype html><meta charset="utf-8"><style>
body {{ margin: 0; background: {BACKGROUND}; color: {FOREGROUND};
  font: 14px/20px "DejaVu Sans Mono", monospace; }}
.tab {{ background: #252526; color: #969696; padding: 8px 16px; font: 13px sans-serif; }}
.tab b {{ color: #FFFFFF; font-weight: normal; background: {BACKGROUND}; padding: 8px 16px; }}
.row {{ white-space: pre; }} .number {{ display: inline-block; width: 48px; padding-right: 24px;
  text-align: right; color: #858585; }}
.caption {{ background: #007ACC; color: #FFFFFF; padding: 3px 12px; font: 12px sans-serif; }}
.editor {{ display: inline-block; background: {BACKGROUND}; padding-right: 24px; }}
</style><div class="editor"><div class="tab"><b>{sample.name}</b></div><div class="code">{rows}</div>
<div class="caption">The arbo TextMate grammar's tokens (vscode-textmate) in the Dark+ theme's colours; not a VS Code window</div></div>"""


def grammar_png(folder: Path, browser, work: Path) -> Path:
    page_file = work / "grammar.html"
    page_file.write_text(grammar_page(GRAMMAR_SAMPLE), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(page_file.as_uri())
    target = folder / VSCODE
    page.locator(".editor").screenshot(path=str(target))
    page.close()
    return target


def main(folder: Path) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from browser_support import CHROMIUM_ARGS, chromium_path
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        svg = folder / NEOVIM
        svg.write_text(
            terminal_svg(neovim_screen(work), f"{neovim_version()}: club.arb with arbo lsp"), encoding="utf-8"
        )
        print(f"wrote {svg}", file=sys.stderr)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            try:
                print(f"wrote {grammar_png(folder, browser, work)}", file=sys.stderr)
            finally:
                browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs")
