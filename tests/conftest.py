"""Test settings shared by the suite: hypothesis profiles, and short readable ids for generated cases."""

import os
import re

from hypothesis import settings

# CI replays the same examples every run, so a red build always means a change broke something;
# locally each run tries new examples (and hypothesis keeps the failures it finds).
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev")
settings.load_profile("ci" if os.environ.get("CI") else "dev")

#: The longest id a parametrized text case gets; longer texts are cut, with their length said.
ID_LENGTH = 48

_RUN = re.compile(r"(.)\1{5,}", re.DOTALL)


def short_id(text: str) -> str:
    """A test id a person can read for a text case: a run of one character as ``[*1000``, line
    breaks as ``|``, and at most ID_LENGTH characters (then ``...(5096 chars)``)."""
    shown = _RUN.sub(lambda run: f"{run.group(1)}*{len(run.group(0))}", text)
    shown = re.sub(r"\s*\n\s*", "|", shown.strip())
    if len(shown) <= ID_LENGTH:
        return shown
    return f"{shown[: ID_LENGTH - 20]}...({len(text)} chars)"


def pytest_make_parametrize_id(config, val, argname):
    if isinstance(val, (str, bytes)):
        text = val.decode("latin-1") if isinstance(val, bytes) else val
        if len(text) > ID_LENGTH or "\n" in text or _RUN.search(text):
            return short_id(text)
    return None
