"""What `arbo serve` prints at its start: the addresses, and the recorder's link as a QR code a
phone at the table can read from the terminal (segno, pure Python)."""

from __future__ import annotations

import io
import socket

import segno


def qr_code(link: str) -> str:
    """The link as a QR code in text (two rows of modules a line), dark on light as a phone reads it."""
    out = io.StringIO()
    segno.make(link, error="L").terminal(out=out, compact=True)
    return out.getvalue()


def local_address() -> str:
    """This machine's address on its network, as a phone on the same network reaches it (the
    route a datagram would take; nothing is sent), or 127.0.0.1 when there is no network."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()
