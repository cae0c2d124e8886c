"""One local Spark session for the tests that run Spark (pyspark, the `spark` extra), started and
stopped with its whole JVM: bench/bench_spark.py's ``local_spark``, the benchmark's own session.

The session is ``local[2]`` on the loopback address, without its web UI, logging errors only, its
warehouse and scratch files in a folder of the test session; the JVM's working directory is that
folder too, where relative paths in a query resolve. Where Java is missing the Spark tests are
skipped on a developer's machine and fail in CI (``CI`` set): ``.ci/run`` installs Debian's
openjdk-17-jre-headless.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
try:
    from bench_spark import local_spark
finally:
    sys.path.pop(0)

__all__ = ["local_spark", "missing_java"]


def missing_java() -> None:
    """Skip on a developer's machine without Java; fail in CI, where it must be there."""
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        reason = "no java on this machine (apt-get install openjdk-17-jre-headless)"
        if os.environ.get("CI"):
            pytest.fail(f"Spark tests cannot run in CI: {reason}", pytrace=False)
        pytest.skip(reason)
