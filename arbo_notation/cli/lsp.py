"""`arbo lsp`: the language server, for editors (over standard input and output)."""

from __future__ import annotations

import importlib.util

import typer

from arbo_notation.cli.common import EXIT_INVALID

#: What `arbo lsp` says when the `lsp` extra is not installed.
NOT_INSTALLED = "arbo lsp needs pygls, which is not installed: pip install 'arbo-notation[lsp]'"


def lsp(
    stdio: bool = typer.Option(
        True, "--stdio", help="Speak over standard input and output (the only way; editors' clients pass it)."
    ),
) -> None:
    """Run the language server for .arb records, over standard input and output.

    An editor starts it and speaks the Language Server Protocol with it: diagnostics as you type
    (those of arbo check), completion of legal moves, hover, formatting (arbo fmt), outline,
    inlay hints, code actions and semantic tokens. It writes nothing to disk. Needs the 'lsp'
    extra: pip install 'arbo-notation[lsp]'.

    Examples:

        arbo lsp

        nvim: vim.lsp.start({ name = "arbo", cmd = { "arbo", "lsp" } })
    """
    if importlib.util.find_spec("pygls") is None or importlib.util.find_spec("lsprotocol") is None:
        typer.echo(f"arbo: {NOT_INSTALLED}", err=True)
        raise typer.Exit(EXIT_INVALID)
    # deferred: pygls and lsprotocol (~150 ms) load only here, and only with the extra installed
    from arbo_notation.lsp.server import serve

    serve()


def register(app: typer.Typer) -> None:
    app.command()(lsp)
