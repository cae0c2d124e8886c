"""`arbo serve` at the command line: bad input said in a line with its exit status, the missing
extra named, the club night of docs/COMMANDS.md run as written."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbo_notation.cli import app
from tests.not_installed import NOT_INSTALLED
from tests.serve.support import ROOT, Running, arbo_env, spawn

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "status", "said"),
    [
        (["serve", "nowhere/"], 1, "nowhere/: no such file or folder"),
        (["serve", "README.md"], 1, "arbo serve shows an .arb record inside its folder"),
        (["serve", "samples", "--delay", "3601"], 2, "--delay"),
        (["serve", "samples", "--delay", "-1"], 2, "--delay"),
        (["serve", "samples", "--port", "65536"], 2, "--port"),
    ],
)
def test_bad_input_is_said_in_a_line(args: list[str], status: int, said: str) -> None:
    done = runner.invoke(app, args)
    assert done.exit_code == status
    assert said in done.output and "Traceback" not in done.output


@pytest.mark.parametrize("blocked", ["aiohttp", "segno", "yarl"])
def test_without_the_extra_the_command_names_it(blocked: str) -> None:
    code = (
        NOT_INSTALLED
        + "import sys\nfrom arbo_notation.cli import main\nsys.argv = ['arbo', 'serve', 'samples']\nmain()\n"
    )
    env = {**arbo_env(), "ARBO_TEST_BLOCKED": blocked}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip().endswith(
        "pip install 'arbo-notation[serve]' (or pip install '.[serve]' in arbo's checkout)"
    )
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_port_in_use_is_said(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "arbo_notation", "serve", "samples", "--port", str(port), "--no-qr"],
            capture_output=True,
            text=True,
            env=arbo_env(),
            cwd=ROOT,
            timeout=60,
        )
    assert done.returncode == 1
    assert done.stderr == f"arbo: cannot listen on 127.0.0.1:{port} (address already in use)\n"


@pytest.mark.slow
def test_the_club_night_of_the_docs_runs_as_written(tmp_path: Path) -> None:
    page = (ROOT / "docs" / "COMMANDS.md").read_text(encoding="utf-8")
    block = page.split("## A club night, live: `arbo serve`", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    lines = block.strip().splitlines()
    assert lines[0] == "mkdir club"
    (tmp_path / "club").mkdir()
    for line in lines[1:-1]:
        command, _, target = line.partition(" > ")
        done = runner.invoke(app, shlex.split(command)[1:])
        assert done.exit_code == 0, done.output
        (tmp_path / target).write_text(done.stdout)
    serve = shlex.split(lines[-1])
    assert serve[:3] == ["arbo", "serve", "club"]
    process = spawn([*serve[1:], "--port", "0"], cwd=tmp_path)
    assert process.stdout is not None
    printed = [process.stdout.readline() for _ in range(3)]
    port = re.search(r":(\d+)/", printed[1]).group(1)
    token = re.search(r"#t=(\S+)", printed[2]).group(1)
    running = Running(process, f"http://127.0.0.1:{port}", token)
    try:
        qr = process.stdout.readline()
        assert set(qr.strip()) <= set("█▀▄ ")  # the QR code follows the link
        status, body = running.get("/api/games", running.own())
        assert status == 200 and json.loads(body) == {"games": ["table1.arb", "table2.arb"], "new": True}
        assert running.state("table2.arb")["prompt"] == "Cleo's dealt hand: the 7 cards"
        # the viewers are a minute behind: nothing to show yet
        status, page_text = running.get("/")
        assert status == 200 and '{"tables":[]}' in page_text.decode()
    finally:
        assert running.stop() == 0
    assert not os.path.exists(tmp_path / "club" / ".table1.arb.lock")


@pytest.mark.slow
def test_the_restart_and_proxy_example_of_the_docs_runs_as_written(tmp_path: Path) -> None:
    page = (ROOT / "docs" / "COMMANDS.md").read_text(encoding="utf-8")
    section = page.split("## A club night, live: `arbo serve`", 1)[1].split("\n## ", 1)[0]
    block = section.split("```sh\n")[2].split("```", 1)[0]
    command = shlex.split(block.strip().replace("~/.config/arbo", str(tmp_path / "config")))
    assert command[:3] == ["arbo", "serve", "club"]
    (tmp_path / "config").mkdir()
    (tmp_path / "club").mkdir()
    tokens = []
    for _ in range(2):  # started, then started again: the same link
        process = spawn([*command[1:], "--port", "0", "--no-qr"], cwd=tmp_path)
        assert process.stdout is not None
        printed = [process.stdout.readline() for _ in range(3)]
        Running(process, "", "").stop()
        assert printed[1] == "viewers: https://arbo.example.org/\n", printed
        link = printed[2].rsplit(" ", 1)[1].strip()
        assert link.startswith("https://arbo.example.org/record/#t=")
        tokens.append(link.split("#t=")[1])
    assert tokens[0] == tokens[1] == (tmp_path / "config" / "serve-token").read_text().strip()
    assert os.stat(tmp_path / "config" / "serve-token").st_mode & 0o777 == 0o600
