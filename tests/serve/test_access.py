"""Who may write, and from where (serve/access.py): the token kept in a private file across
restarts and never shown but in the link, and --public-url, the origin a reverse proxy shows."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arbo_notation.errors import ArboError
from arbo_notation.serve.access import public_origin, token_from
from tests.serve.support import ROOT, arbo_env, start

SAMPLE = ROOT / "samples" / "unfinished.arb"
TOKEN = "Zq0_Vb-8sW1xYkR3mT9pLd2nHc"


def test_a_missing_token_file_is_made_private_and_read_again(tmp_path: Path) -> None:
    file = tmp_path / "token"
    token = token_from(file)
    assert os.stat(file).st_mode & 0o777 == 0o600
    assert file.read_text() == token + "\n" and len(token) == 32
    assert token_from(file) == token
    assert token_from(tmp_path / "other") != token


def test_a_token_written_by_hand_is_taken(tmp_path: Path) -> None:
    file = tmp_path / "token"
    file.write_text(f"  {TOKEN}\n")
    file.chmod(0o600)
    assert token_from(file) == TOKEN


@pytest.mark.parametrize(
    ("text", "mode", "said"),
    [
        (TOKEN, 0o644, "others may read the token file; make it private: chmod 600"),
        (TOKEN, 0o640, "others may read the token file"),
        ("short", 0o600, "the token file holds no token (22 to 128 letters, digits, _ or -)"),
        ("a secret with spaces in it, long enough", 0o600, "the token file holds no token"),
        ("", 0o600, "the token file holds no token"),
    ],
)
def test_a_token_file_that_is_not_private_or_holds_no_token_is_refused(
    tmp_path: Path, text: str, mode: int, said: str
) -> None:
    file = tmp_path / "token"
    file.write_text(text)
    file.chmod(mode)
    with pytest.raises(ArboError) as raised:
        token_from(file)
    assert said in str(raised.value)
    assert text not in str(raised.value) or not text  # the file's text is never shown


def test_a_token_file_that_is_a_link_or_a_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "real").write_text(TOKEN)
    (tmp_path / "real").chmod(0o600)
    os.symlink(tmp_path / "real", tmp_path / "link")
    with pytest.raises(ArboError, match="is a symbolic link"):
        token_from(tmp_path / "link")
    with pytest.raises(ArboError, match="not a regular file"):
        token_from(tmp_path)
    with pytest.raises(ArboError, match="cannot make the token file"):
        token_from(tmp_path / "missing" / "token")


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("https://arbo.example.org", "https://arbo.example.org"),
        ("https://arbo.example.org/", "https://arbo.example.org"),
        ("HTTPS://Arbo.Example.ORG:443/", "https://arbo.example.org"),
        ("https://arbo.example.org:8443", "https://arbo.example.org:8443"),
        ("http://192.168.1.20:80", "http://192.168.1.20"),
        ("http://[::1]:8000", "http://[::1]:8000"),
    ],
)
def test_a_public_url_is_its_origin_as_a_browser_writes_it(url: str, origin: str) -> None:
    assert public_origin(url) == origin


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("arbo.example.org", "give an http or https address"),
        ("ftp://arbo.example.org", "give an http or https address"),
        ("https://", "give an http or https address"),
        ("https://arbo.example.org/club/", "leave out the path"),
        ("https://arbo.example.org/?x=1", "leave out the path"),
        ("https://arbo.example.org/#t=1", "leave out the path"),
        ("https://ana:secret@arbo.example.org", "with a user or password"),
        ("https://arbo.example.org:99999", "not an address"),
        ("https://arbö.example.org", "punycode"),
        ("https://arbo example.org", "punycode"),
    ],
)
def test_a_public_url_that_is_no_origin_is_refused(url: str, said: str) -> None:
    with pytest.raises(ArboError, match=said):
        public_origin(url)


def run_serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arbo_notation", "serve", *args, "--port", "0", "--no-qr"],
        capture_output=True,
        text=True,
        env=arbo_env(),
        cwd=ROOT,
        timeout=60,
    )


def test_bad_options_are_said_in_a_line(tmp_path: Path) -> None:
    done = run_serve("samples", "--public-url", "https://arbo.example.org/club")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        "arbo: --public-url 'https://arbo.example.org/club': the server answers at the root of its host; "
        "leave out the path\n"
    )
    (tmp_path / "token").write_text(TOKEN)
    (tmp_path / "token").chmod(0o644)
    done = run_serve("samples", "--token-file", str(tmp_path / "token"))
    assert done.returncode == 1 and TOKEN not in done.stderr and len(done.stderr.splitlines()) == 1
    assert "make it private" in done.stderr


@pytest.mark.slow
def test_a_restarted_server_takes_the_same_link(tmp_path: Path) -> None:
    shutil.copy(SAMPLE, tmp_path / "table.arb")
    file = tmp_path / "keep" / "token"
    file.parent.mkdir()
    first = start(tmp_path / "table.arb", "--token-file", str(file))
    try:
        assert first.state("table.arb")["prompt"] == "turn 15: Ana to play · deck 7"
    finally:
        assert first.stop() == 0
    second = start(tmp_path / "table.arb", "--token-file", str(file))
    try:
        assert second.token == first.token == file.read_text().strip()
        assert second.state("table.arb")["prompt"] == "turn 15: Ana to play · deck 7"
        assert second.enter("table.arb", "{after the restart}", "r1")["status"] == "ok"
    finally:
        assert second.stop() == 0
    # the token is printed in the link alone: once a start, on the recorder's line
    for server in (first, second):
        assert server.process.stderr is not None
        said = "".join(server.printed) + server.process.stderr.read()
        assert said.count(server.token) == 1
        assert [line for line in server.printed if server.token in line][0].startswith("recorder (")


@pytest.mark.slow
def test_behind_a_proxy_the_public_origin_may_write(tmp_path: Path) -> None:
    shutil.copy(SAMPLE, tmp_path / "table.arb")
    server = start(tmp_path / "table.arb", "--public-url", "https://arbo.example.org/")
    try:
        assert server.printed[1] == "viewers: https://arbo.example.org/\n"
        assert server.printed[2].startswith("recorder (keep this link to the table: it can write): ")
        assert server.printed[2].rsplit(" ", 1)[1] == f"https://arbo.example.org/record/#t={server.token}\n"
        base = server.state("table.arb")["base"]
        body = json.dumps({"id": "p1", "base": base, "entry": "{through the proxy}"}).encode()
        headers = {**server.own(), "Origin": "https://arbo.example.org", "Sec-Fetch-Site": "same-origin"}
        status, reply = server.post("/api/entry/table.arb", body, headers)
        assert status == 200 and json.loads(reply)["status"] == "ok"
        for origin in ("http://arbo.example.org", "https://arbo.example.org:8443", "https://evil.example"):
            body = json.dumps({"id": origin, "base": base, "entry": "{no}"}).encode()
            status, _ = server.post("/api/entry/table.arb", body, {**server.own(), "Origin": origin})
            assert status == 403
        # the server's own address still writes (a phone on the room's network)
        assert server.enter("table.arb", "{directly}", "p2")["status"] == "ok"
    finally:
        assert server.stop() == 0
