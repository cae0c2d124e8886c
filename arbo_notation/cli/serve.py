"""`arbo serve`: a record or a folder of them followed live in a browser, and recorded from a phone."""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Optional

import typer

from arbo_notation.cli.common import EXIT_INVALID, fail
from arbo_notation.cli.usage import whole_number
from arbo_notation.errors import ArboError

HELP = """Serve a record, or a folder of records, to browsers: a live replayer of each game, updated as the record grows, and a multiboard of every table with its running score; and a recorder for a phone at the table.

PATH is an .arb file or a folder (its .arb files; a file added to it shows up). The server listens on 127.0.0.1 unless --host says otherwise (--host 0.0.0.0 for the phones and screens of the room's network) and prints its address. Ctrl-C stops it.

A viewer sees the public game only: until the record has its result, no hand, no card drawn from the deck, no comment and no variation reaches the browser (the hands are shown when the record reveals them). --delay SECONDS shows each state that many seconds late, as broadcasts do against a player being told.

The recorder asks what `arbo record` asks (the seat's dealt hand, then each turn), offers what is legal now, says why an entry is refused, and undoes. It writes the file as `arbo record` does, under the same lock, so one writer at a time whatever the mix of terminals and phones; an entry sent again (a dropped connection, a page reloaded) is never written twice. Only a request with the token of the printed link may write (a QR code of the link is printed too). The token is new at every start, unless --token-file keeps it: a file made readable by you alone when it is missing, and read at the next start, so the phones' link still works. --read-only serves no recorder.

The recorder starts a new game too (the players, the species, the recording seat, then its dealt hand, as `arbo record --players` asks): a new file of the folder, never one that is there. A server of one file starts none.

Behind a reverse proxy (TLS, a name), give --public-url, the address the phones and screens open: the printed links and QR code use it, and the recorder's writes from it are taken.

Needs the 'serve' extra: pip install 'arbo-notation[serve]'.

Examples:

    arbo serve tonight.arb

    arbo serve club/ --host 0.0.0.0 --port 8000 --delay 60
"""

#: What a missing extra says (one line, exit status 1).
NEEDS_SERVE_EXTRA = (
    "arbo serve needs aiohttp and segno, which are not installed: "
    "pip install 'arbo-notation[serve]' (or pip install '.[serve]' in arbo's checkout)"
)


def serve(
    path: str = typer.Argument(..., metavar="PATH", help="A record file, or a folder of records."),
    host: str = typer.Option("127.0.0.1", "--host", metavar="ADDRESS", help="The address to listen on."),
    port: int = typer.Option(
        8000, "--port", metavar="PORT", parser=whole_number("--port", 0, 65535), help="The port (0: any free one)."
    ),
    delay: int = typer.Option(
        0,
        "--delay",
        metavar="SECONDS",
        parser=whole_number("--delay", 0, 3600),
        help="Show viewers each state this many seconds late (0 to 3600).",
    ),
    read_only: bool = typer.Option(False, "--read-only", help="Serve the viewers only: no recorder."),
    qr: bool = typer.Option(True, "--qr/--no-qr", help="Print the recorder's link as a QR code too."),
    token_file: Optional[str] = typer.Option(
        None,
        "--token-file",
        metavar="FILE",
        help="Keep the recorder's token in FILE (made, private, when missing), so a restart keeps the link.",
    ),
    public_url: Optional[str] = typer.Option(
        None,
        "--public-url",
        metavar="URL",
        help="The address browsers use, through a reverse proxy (https://arbo.example.org).",
    ),
) -> None:
    try:
        # deferred: aiohttp and segno are the serve extra; without them the command says so in a line
        from arbo_notation.serve.access import new_token, public_origin, token_from
        from arbo_notation.serve.app import run
        from arbo_notation.serve.paths import Served
        from arbo_notation.serve.terminal import local_address, qr_code
    except ModuleNotFoundError as error:
        if (error.name or "").partition(".")[0] == "arbo_notation":
            raise
        fail(NEEDS_SERVE_EXTRA, EXIT_INVALID)  # aiohttp, segno, or one of aiohttp's own (yarl, multidict...)
    try:
        served = Served.of(path)
        public = public_origin(public_url) if public_url is not None else None
        # the token goes in the printed link alone: never in an error, a log or a title
        token = token_from(token_file) if token_file is not None and not read_only else new_token()
    except ArboError as error:
        fail(str(error), EXIT_INVALID)

    def ready(bound_host: str, bound_port: int) -> None:
        shown = local_address() if host in ("0.0.0.0", "::", "") else bound_host
        where = f"[{shown}]" if ":" in shown else shown
        listening = f"http://{where}:{bound_port}"
        base = public or listening
        out = sys.stdout
        out.write(f"arbo serve: {served.only or served.root} at {listening}/ (Ctrl-C stops)\n")
        out.write(f"viewers: {base}/\n")
        if not read_only:
            link = f"{base}/record/#t={token}"
            out.write(f"recorder (keep this link to the table: it can write): {link}\n")
            if host in ("127.0.0.1", "localhost", "::1") and public is None:
                out.write("(only this machine reaches 127.0.0.1: --host 0.0.0.0 lets a phone on the network in)\n")
            if qr:
                out.write(qr_code(link))
        out.flush()

    try:
        asyncio.run(
            run(
                served,
                host=host,
                port=port,
                delay=float(delay),
                token=token,
                record=not read_only,
                ready=ready,
                public_origin=public,
            )
        )
    except KeyboardInterrupt:
        pass  # Ctrl-C: every connection is closed, the files were written whole
    except OSError as error:
        why = os.strerror(error.errno).lower() if error.errno else str(error)
        fail(f"cannot listen on {host}:{port} ({why})", EXIT_INVALID)


def register(app: typer.Typer) -> None:
    app.command("serve", help=HELP, short_help="Follow records live in a browser, and record from a phone.")(serve)
