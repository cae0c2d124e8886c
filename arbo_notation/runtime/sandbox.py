"""The sandbox a bot program runs in (bubblewrap): its own PID, mount and network namespaces, the file system read-only.

A bot must not reach what would tell it the hidden cards: the referee's command line, environment
and memory (the match's seed, the deals), the other bots, the records written so far (with
--duplicate a deal is played again after its record is written). Inside the sandbox a bot sees
its own processes only (its PID namespace, its own /proc), has no network (its own network
namespace, loopback alone), a minimal /dev, a private empty /tmp, and the rest of the file system
read-only; the folders the caller names (the records' folder) are hidden under an empty one. The
bot's working directory is the caller's, and the /tmp folders holding it, its program, a file
its command names or a folder of arbo's import path are bound back, read-only, so that a program
kept under /tmp still runs. The
kernel ends the whole namespace when the sandbox's first process dies, and that process dies
with its parent (``--die-with-parent``).
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence

from arbo_notation.errors import ArboError

#: What --sandbox takes: auto (the sandbox where the system allows it), on (or fail), off.
MODES = ("auto", "on", "off")
#: How long the probe of bubblewrap may take, in seconds.
PROBE_SECONDS = 10.0
#: The folder the sandbox empties (a private tmpfs); the folders under it a command needs are bound back.
TMP = "/tmp"

_ISOLATION = (
    "--unshare-all",  # PID, mount, network, IPC, UTS (and user and cgroup where it can) namespaces
    "--die-with-parent",
    "--new-session",  # no terminal of arbo's to push input into
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    TMP,
)


class SandboxUnavailable(ArboError):
    """The sandbox was asked for (--sandbox on) where the system cannot make it."""


@functools.cache
def unavailable() -> str | None:
    """Why bots cannot run in the sandbox here, in words (None: they can). Probed once a process:
    bwrap may be missing, or the system may refuse it namespaces (a container, a kernel setting)."""
    if not sys.platform.startswith("linux"):
        return "the sandbox needs Linux's namespaces"
    program = shutil.which("bwrap")
    if program is None:
        return "bubblewrap is not installed (its program bwrap; Debian's package bubblewrap)"
    try:
        probe = subprocess.run(
            [program, *_ISOLATION, "--", "true"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=PROBE_SECONDS,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bwrap did not run ({error})"
    if probe.returncode != 0:
        said = probe.stderr.decode("utf-8", "replace").strip().splitlines()
        return f"the system refuses bwrap its namespaces ({said[-1][:200] if said else f'status {probe.returncode}'})"
    return None


def sandboxed(mode: str) -> bool:
    """Whether bots run in the sandbox under ``mode`` (one of MODES); SandboxUnavailable for
    ``on`` where it cannot be made."""
    if mode == "off":
        return False
    why = unavailable()
    if why is not None and mode == "on":
        raise SandboxUnavailable(f"--sandbox on: bots cannot run in a sandbox here: {why}")
    return why is None


def confined(command: Sequence[str], hidden: Sequence[str] = ()) -> tuple[str, ...]:
    """``command`` as it runs in the sandbox (see the module), the folders ``hidden`` out of its
    sight. Only where :func:`unavailable` is None."""
    program = shutil.which("bwrap") or "bwrap"
    mounts: list[str] = []
    for folder in _tmp_folders(command):
        mounts += ["--ro-bind", folder, folder]
    for folder in hidden:
        if os.path.isdir(folder):
            mounts += ["--tmpfs", os.path.realpath(folder)]
    cwd = os.getcwd()
    return (program, *_ISOLATION, *mounts, "--setenv", "TMPDIR", TMP, "--chdir", cwd, "--", *command)


def _tmp_folders(command: Sequence[str]) -> list[str]:
    """The folders right under /tmp that hold the working directory, the command's program, a
    file the command names (a script, a virtual environment's Python) or a folder of this
    process's import path (a built-in bot imports arbo as arbo does, from a checkout under /tmp
    say): bound back into the sandbox."""
    paths = [os.getcwd(), *command, *sys.path]
    found = shutil.which(command[0]) if command else None
    if found:
        paths.append(found)
    folders: list[str] = []
    for path in paths:
        for seen in {os.path.abspath(path), os.path.realpath(path)}:
            if not os.path.exists(seen):
                continue
            parts = seen.split(os.sep)
            if len(parts) >= 3 and parts[1] == TMP.strip("/"):
                folder = os.sep.join(parts[:3])
                if folder not in folders:
                    folders.append(folder)
    return folders


__all__ = ["MODES", "SandboxUnavailable", "confined", "sandboxed", "unavailable"]
