"""One local Spark session for the tests that run Spark (pyspark, the `spark` extra), started and
stopped with the whole JVM.

The session is ``local[2]`` on the loopback address, without its web UI, its logs at ERROR, its
warehouse and scratch files in a folder of the test session; the JVM's working directory is that
folder too, where relative paths in a query resolve. Where Java is missing the Spark tests are
skipped on a developer's machine and fail in CI (``CI`` set): ``.ci/run`` installs Debian's
openjdk-17-jre-headless.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

#: Spark's own log lines below ERROR go nowhere: the tests read rows, not logs.
LOG4J2 = """\
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c: %m%n
"""


def missing_java() -> None:
    """Skip on a developer's machine without Java; fail in CI, where it must be there."""
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        reason = "no java on this machine (apt-get install openjdk-17-jre-headless)"
        if os.environ.get("CI"):
            pytest.fail(f"Spark tests cannot run in CI: {reason}", pytrace=False)
        pytest.skip(reason)


@contextmanager
def local_spark(folder: Path, cores: int = 2) -> Iterator[object]:
    """A SparkSession whose JVM works in ``folder``; the JVM is ended on leaving, whatever happens."""
    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    scratch = folder / ".spark"
    (scratch / "local").mkdir(parents=True, exist_ok=True)
    (scratch / "log4j2.properties").write_text(LOG4J2, encoding="utf-8")
    java_options = f"-Dlog4j2.configurationFile=file:{scratch / 'log4j2.properties'} -Djava.io.tmpdir={scratch}"
    builder = (
        SparkSession.builder.master(f"local[{cores}]")
        .appName("arbo-tests")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.warehouse.dir", str(scratch / "warehouse"))
        .config("spark.local.dir", str(scratch / "local"))
        .config("spark.driver.extraJavaOptions", java_options)
        # a few rows a query: Spark's default of 200 shuffle partitions is 200 tasks for nothing
        .config("spark.sql.shuffle.partitions", str(cores))
    )
    here = Path.cwd()
    environment = {name: os.environ.get(name) for name in ("SPARK_LOCAL_IP", "SPARK_LOCAL_DIRS")}
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"  # no look-up of the machine's name, no other interface
    os.environ["SPARK_LOCAL_DIRS"] = str(scratch / "local")
    os.chdir(folder)  # the JVM, launched now, inherits it
    try:
        session = builder.getOrCreate()
    finally:
        os.chdir(here)
        for name, value in environment.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    gateway = SparkContext._gateway
    try:
        yield session
    finally:
        session.stop()
        # stop() ends the SparkContext but leaves its JVM to the end of this process: end it now
        if gateway is not None:
            gateway.shutdown()
            process = getattr(gateway, "proc", None)
            if process is not None:
                if process.stdin is not None:
                    process.stdin.close()  # the JVM exits when its standard input closes
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:  # the JVM must not outlive the tests
                    process.kill()
                    process.wait()
        SparkContext._gateway = None
        SparkContext._jvm = None
