"""Hostile sizes: CPU seconds and peak memory of check, fmt and convert on records built to be
big in one way (broken turn lines, trailing comments, stray ')', '---' lines, one long header
value, one long glyph run), at n and 2n. Linear time shows as a ratio near 2, not 4.

    python bench/hostile_sizes.py [N]      (N: the smaller size, default 20000)
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
from pathlib import Path

HEAD = "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n---\n"
FIRST = "1. Ana d d Ca1@0,0 /Oa5\n"


def hostile(kind: str, n: int) -> str:
    """A record of size ``n`` in the way ``kind`` names."""
    if kind == "broken turn lines":
        return HEAD + "".join(f"{i}. Ana x y zz\n" for i in range(1, n + 1))
    if kind == "trailing comments":
        return HEAD + FIRST + "{c}\n" * n
    if kind == "stray )":
        return HEAD + FIRST + ")" * n + "\n"
    if kind == "--- lines":
        return "---\n" * n
    if kind == "long header value":
        return HEAD.replace("---\n", f"---\nevent: {'x' * (n * 50)}\n", 1) + FIRST
    if kind == "long glyph run":
        return HEAD + "1. Ana d d Ca1@0,0 /Oa5 " + "!" * (n * 50) + "\n"
    raise ValueError(kind)


KINDS = ("broken turn lines", "trailing comments", "stray )", "--- lines", "long header value", "long glyph run")
COMMANDS = (("check",), ("fmt",), ("convert", "--to", "json"))


def measure(command: tuple[str, ...], path: Path) -> tuple[float, int]:
    """CPU seconds and peak resident kilobytes of one `arbo COMMAND PATH` run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-m", "arbo_notation", command[0], str(path), *command[1:]],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, after.ru_maxrss


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    with tempfile.TemporaryDirectory() as folder:
        for kind in KINDS:
            small, big = Path(folder, "n.arb"), Path(folder, "2n.arb")
            small.write_text(hostile(kind, n))
            big.write_text(hostile(kind, 2 * n))
            for command in COMMANDS:
                t1, _ = measure(command, small)
                t2, peak = measure(command, big)
                size = big.stat().st_size >> 10
                print(
                    f"{kind:18} {' '.join(command):18} n {t1:6.2f} s  2n {t2:6.2f} s  ratio {t2 / max(t1, 1e-3):4.1f}"
                    f"  (2n: {size} KB in, peak RSS so far {peak >> 10} MB)",
                    flush=True,
                )


if __name__ == "__main__":
    main()
