"""The fixtures of the collection tests: one local Spark session for the whole test session."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def spark_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Spark session's working directory: a relative path in a query is read from here."""
    return tmp_path_factory.mktemp("spark")


@pytest.fixture(scope="session")
def spark(spark_folder: Path):
    # imported here: the other collection tests never load the benchmark's module
    from tests.spark_support import local_spark, missing_java

    missing_java()
    with local_spark(spark_folder) as session:
        yield session
