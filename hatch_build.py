"""The opt-in mypyc build: `ARBO_MYPYC=1 pip install .` compiles the greedy bot's hot modules.

Without ARBO_MYPYC=1 (and always for `pip install -e .`) this hook does nothing and the wheel is
pure Python, as before. With it, mypyc compiles the modules below from the same source into C
extensions that sit beside their .py files in a wheel tagged for this interpreter and platform
(as black and mypy ship theirs); Python imports the extension first. docs/ARCHITECTURE.md says
which modules and why (bench/README.md: "The compiled build").
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The modules compiled: the greedy bot's thinking and the lean position it reads (a profile of
#: `arbo simulate --bot greedy` spends most of its time in them). cards.py interns its cards
#: with object.__new__, which mypyc refuses, and the rest gain little.
COMPILED = (
    "arbo_notation/engine/greedy.py",
    "arbo_notation/engine/lean.py",
    "arbo_notation/engine/totals.py",
)

#: What the compiled build needs to build: mypyc comes with mypy (the version the quality gates
#: pin), and mypyc drives the C compiler through setuptools.
BUILD_NEEDS = ["mypy>=2.4,<2.5", "setuptools>=70"]


def wanted() -> bool:
    """Whether this build compiles: ARBO_MYPYC=1 in the environment."""
    return os.environ.get("ARBO_MYPYC", "") == "1"


class CustomBuildHook(BuildHookInterface):
    """Compiles COMPILED with mypyc into the wheel when ARBO_MYPYC=1; otherwise nothing."""

    def dependencies(self) -> list[str]:
        return BUILD_NEEDS if wanted() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if not wanted() or version != "standard":
            return
        print(f"arbo: compiling {len(COMPILED)} modules with mypyc", file=sys.stderr)
        # Imported here: a plain build never installs them.
        from mypyc.build import mypycify
        from setuptools import Distribution

        work = Path(tempfile.mkdtemp(prefix="arbo-mypyc-"))
        # mypyc reads from a copy of the package alone: in the project's folder it would read
        # pyproject.toml's mypy settings, whose unused-section notes (for modules it does not
        # check) stop it.
        shutil.copytree(Path(self.root) / "arbo_notation", work / "src" / "arbo_notation")
        here = os.getcwd()
        os.chdir(work / "src")
        try:
            # mypy follows the imports into the whole package, whose typed dependencies (lark,
            # PyYAML's stubs) the build does not install: they stay untyped, as the compiled
            # modules never use them.
            options = ["--ignore-missing-imports"]
            modules = mypycify(
                [*options, *COMPILED], opt_level="3", target_dir=str(work / "c"), group_name="arbo_notation"
            )
            build = Distribution({"ext_modules": modules}).get_command_obj("build_ext")
            build.build_lib = str(work / "lib")
            build.build_temp = str(work / "temp")
            build.ensure_finalized()
            build.run()
        finally:
            os.chdir(here)
        for built in sorted((work / "lib").rglob("*.so")) + sorted((work / "lib").rglob("*.pyd")):
            build_data["force_include"][str(built)] = built.relative_to(work / "lib").as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        self._work = work

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        # The wheel holds the extensions now: their build folder goes.
        if getattr(self, "_work", None) is not None:
            shutil.rmtree(self._work, ignore_errors=True)
