"""Test settings shared by the suite: hypothesis profiles."""

import os

from hypothesis import settings

# CI replays the same examples every run, so a red build always means a change broke something;
# locally each run tries new examples (and hypothesis keeps the failures it finds).
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev")
settings.load_profile("ci" if os.environ.get("CI") else "dev")
