"""Who may write, and from where: the recorder's token, new at each start or kept in a file of
its own across restarts (as Jupyter's token file), and the public address a reverse proxy shows."""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
from pathlib import Path
from urllib.parse import urlsplit

from arbo_notation.errors import ArboError

#: A token as a file may hold it: URL-safe, long enough not to be guessed, short enough for a QR code.
_TOKEN = re.compile(r"[A-Za-z0-9_-]{22,128}\Z")


def new_token() -> str:
    """A token no one guesses (192 bits)."""
    return secrets.token_urlsafe(24)


def token_from(file: str | os.PathLike[str]) -> str:
    """The token kept in ``file``, made (a new file, readable by this user alone) when it is
    missing. ArboError, never showing the file's text, when it is not a private file of this
    user's holding one token."""
    path = Path(file)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except FileExistsError:
        return _kept(path)
    except OSError as error:
        raise ArboError(f"{path}: cannot make the token file ({_why(error)})") from None
    token = new_token()
    try:
        os.write(fd, (token + "\n").encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    return token


def _kept(path: Path) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise ArboError(f"{path}: the token file is a symbolic link; give the file itself") from None
        raise ArboError(f"{path}: cannot read the token file ({_why(error)})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ArboError(f"{path}: the token file is not a regular file")
        if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
            raise ArboError(f"{path}: the token file is another user's")
        if info.st_mode & 0o077:
            raise ArboError(f"{path}: others may read the token file; make it private: chmod 600 {path}")
        data = os.read(fd, 1024)
    finally:
        os.close(fd)
    token = data.decode("ascii", "replace").strip()
    if not _TOKEN.match(token):
        raise ArboError(
            f"{path}: the token file holds no token (22 to 128 letters, digits, _ or -); "
            "remove it and a new one is made"
        )
    return token


def _why(error: OSError) -> str:
    return os.strerror(error.errno).lower() if error.errno else str(error)


def public_origin(url: str) -> str:
    """The origin (scheme://host[:port]) of ``--public-url``, as a browser writes it in Origin:
    lower case, the scheme's own port left out. ArboError for anything but an http(s) address of
    a host, at the root (the pages ask their server at absolute paths)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as error:
        raise ArboError(f"--public-url {url!r}: not an address ({error})") from None
    scheme, host = parts.scheme.lower(), (parts.hostname or "")
    if scheme not in ("http", "https") or not host:
        raise ArboError(f"--public-url {url!r}: give an http or https address, such as https://arbo.example.org")
    if parts.username is not None or parts.password is not None:
        raise ArboError(f"--public-url {url!r}: an address with a user or password cannot be an origin")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ArboError(f"--public-url {url!r}: the server answers at the root of its host; leave out the path")
    if not host.isascii() or not re.fullmatch(r"[a-z0-9.\-]+|\[[0-9a-f:.]+\]|[0-9a-f:.]+", host):
        raise ArboError(f"--public-url {url!r}: write the host in ASCII (its punycode form)")
    shown = f"[{host}]" if ":" in host else host
    if port is not None and port != {"http": 80, "https": 443}[scheme]:
        shown += f":{port}"
    return f"{scheme}://{shown}"
