"""Hostile sizes: a record big in one way (broken turn lines, trailing comments, stray ')', '---'
lines, a long header value or glyph run) is read in time linear in its size and memory bounded
by it. Measured as growth within one run: time n against 4n (CPU time, the best of three: linear
time grows 4 times, quadratic 16, and the bound of 8 holds on a busy machine, where n against 2n
with a bound of 3.2 failed once under a load of 19), memory n against 2n (traced)."""

from __future__ import annotations

import gc
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbo_notation.checking.files import check_pieces
from arbo_notation.cli import app
from arbo_notation.errors import MAX_ERRORS_PER_GAME
from arbo_notation.notation.reading.split import stream_games

runner = CliRunner()


def _bench_records():
    """The hostile records are the benchmark's own (bench/hostile_sizes.py), measured there by size."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    try:
        from hostile_sizes import hostile
    finally:
        sys.path.pop(0)
    return hostile


hostile = _bench_records()


#: Sizes where the old quadratic paths already cost seconds (n = 8,000 trailing comments: 5 s).
SIZES = {
    "broken turn lines": 8000,
    "trailing comments": 16000,
    "stray )": 64000,
    "--- lines": 4000,
    "long header value": 8000,
    "long glyph run": 8000,
}


def cpu(run) -> float:
    """The best CPU time of a few runs, the garbage collector paused (its passes over what other
    tests left alive are noise here)."""
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(5):
            start = time.process_time()
            run()
            best = min(best, time.process_time() - start)
    finally:
        gc.enable()
    return max(best, 0.005)  # below a few ms the clock says little


def check(text: str) -> None:
    check_pieces("hostile.arb", stream_games([text]))


@pytest.mark.slow
@pytest.mark.parametrize("kind", SIZES)
def test_check_time_grows_linearly(kind):
    n = SIZES[kind]
    small, big = hostile(kind, n), hostile(kind, 4 * n)
    check(small)  # the first run imports the parser
    # Four times the input: linear time gives about 4, quadratic 16; the bound sits between, far
    # enough from both that a busy machine (caches shared with other processes) cannot cross it.
    ratio = cpu(lambda: check(big)) / cpu(lambda: check(small))
    assert ratio < 8, f"{kind}: four times the input took {ratio:.1f} times the CPU time"


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["broken turn lines", "trailing comments", "long header value"])
@pytest.mark.parametrize("command", [("fmt",), ("convert", "--to", "json")])
def test_fmt_and_convert_time_grows_linearly(tmp_path, kind, command):
    n = SIZES[kind]
    paths = []
    for size in (n, 4 * n):
        path = tmp_path / f"{size}.arb"
        path.write_text(hostile(kind, size), encoding="utf-8")
        paths.append(str(path))

    def run(path: str):
        return lambda: runner.invoke(app, [command[0], path, *command[1:]])

    run(paths[0])()
    ratio = cpu(run(paths[1])) / cpu(run(paths[0]))
    assert ratio < 8, f"{kind}, {command[0]}: four times the input took {ratio:.1f} times the CPU time"


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["long header value", "long glyph run", "broken turn lines", "--- lines"])
def test_check_memory_is_bounded_by_the_input(kind):
    n = SIZES[kind] // 2
    peaks = []
    for size in (n, 2 * n):
        text = hostile(kind, size)
        check(text)
        tracemalloc.start()
        try:
            check(text)
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
        assert peaks[-1] < (150 << 20) + 10 * len(text), f"{kind}: peak {peaks[-1] >> 20} MB"
    assert peaks[1] < 3 * peaks[0] + (1 << 20), f"{kind}: peaks {peaks[0] >> 10} KB then {peaks[1] >> 10} KB"


def test_at_most_a_thousand_syntax_errors_are_reported_for_a_game():
    summary = check_pieces("g.arb", stream_games([hostile("broken turn lines", 1500)]))
    assert len(summary.diagnostics) == MAX_ERRORS_PER_GAME + 1 == 1001
    last = summary.diagnostics[-1]
    assert (
        last.message
        == "500 more syntax errors in this game, from here on, not shown (at most 1000 are reported a game)"
    )
    assert (last.line, last.column) == (1005, 15)  # where the first one left out stands
    assert summary.diagnostics[-2].line == 1004


def test_one_error_a_character_of_stray_parentheses_is_capped_too():
    summary = check_pieces("g.arb", stream_games([hostile("stray )", 5000)]))
    assert len(summary.diagnostics) <= MAX_ERRORS_PER_GAME + 1
    assert (
        summary.diagnostics[-1].message.endswith("(at most 1000 are reported a game)")
        or len(summary.diagnostics) < MAX_ERRORS_PER_GAME
    )


def test_kept_syntax_errors_keep_no_traceback():
    from arbo_notation.errors import NotationErrors
    from arbo_notation.notation.reading.reader import parse

    with pytest.raises(NotationErrors) as raised:
        parse("---\n" * 20, "g.arb")
    for error in raised.value.errors:
        assert error.__traceback__ is None and error.__context__ is None


def test_a_long_header_value_is_refused_in_memory_near_its_size():
    from arbo_notation.errors import NotationError
    from arbo_notation.notation.header.read import read_header

    value = "x" * (1 << 20)
    for text in (
        f"players: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\nevent: {value}\n",
        f'players: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\nevent: "{value}"\n',
    ):
        tracemalloc.start()
        try:
            with pytest.raises(
                NotationError, match="'event' holds 1048576 characters: a header's text holds at most 4000"
            ):
                read_header(text)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 12 * len(value), f"{peak >> 20} MB for a 1 MB value"  # it was 150 MB


def test_export_refuses_a_page_too_big_to_use(tmp_path, monkeypatch):
    import arbo_notation.cli.export as export

    from pathlib import Path

    sample = Path(__file__).resolve().parents[2] / "samples" / "annotated.arb"
    out = tmp_path / "page.html"
    monkeypatch.setattr(export, "MAX_PAGE_BYTES", 1 << 10)
    refused = runner.invoke(app, ["export", str(sample), "--to", "html", "-o", str(out)])
    assert refused.exit_code == 1 and not out.exists()
    assert "more than a browser replays usably (at most 0.000976562 MB): export one game with --game" in refused.stderr
    monkeypatch.undo()
    done = runner.invoke(app, ["export", str(sample), "--to", "html", "-o", str(out)])
    assert done.exit_code == 0 and out.stat().st_size < export.MAX_PAGE_BYTES
