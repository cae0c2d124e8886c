"""`arbo lsp`: the language server, for editors (over standard input and output)."""

from __future__ import annotations

import typer

from arbo_notation.cli.common import EXIT_INVALID

#: The packages of the `lsp` extra (pygls, its protocol's types and their converter).
_THE_EXTRA = frozenset({"pygls", "lsprotocol", "cattrs"})
#: What `arbo lsp` says when the `lsp` extra is not installed.
NOT_INSTALLED = "arbo lsp needs pygls, which is not installed: pip install 'arbo-notation[lsp]'"


def lsp(
    stdio: bool = typer.Option(
        False,
        "--stdio",
        help="Speak over standard input and output: the only way, accepted as editors' clients pass it.",
    ),
) -> None:
    """Run the language server for .arb records, over standard input and output.

    An editor starts it and speaks the Language Server Protocol with it: diagnostics as you type
    (those of arbo check), of every .arb file of the workspace too (the initialization option
    "workspaceDiagnostics": false turns that off), completion of legal moves, hover, formatting (arbo fmt), outline,
    inlay hints, code actions and semantic tokens. It writes nothing to disk. Needs the 'lsp'
    extra: pip install 'arbo-notation[lsp]'.

    Examples (docs/EDITORS.md has each editor's setup):

        arbo lsp

        Neovim, in init.lua: vim.lsp.config("arbo", { cmd = { "arbo", "lsp" }, filetypes = { "arb" } }); vim.lsp.enable("arbo")

        Helix, in languages.toml: [language-server.arbo] command = "arbo", args = ["lsp"]
    """
    try:
        # deferred: pygls and lsprotocol (~150 ms) load only here, and only with the extra installed
        from arbo_notation.lsp.server import serve
    except ModuleNotFoundError as error:
        if (error.name or "").partition(".")[0] not in _THE_EXTRA:
            raise
        typer.echo(f"arbo: {NOT_INSTALLED}", err=True)
        raise typer.Exit(EXIT_INVALID) from None
    serve()


def register(app: typer.Typer) -> None:
    app.command()(lsp)
