"""Python code that refuses the modules named in $ARBO_TEST_BLOCKED at import, as on a machine
where they are not installed: the start of a `python -c` program a test runs."""

NOT_INSTALLED = """
import importlib.abc, os, sys

class NotInstalled(importlib.abc.MetaPathFinder):
    blocked = set(os.environ["ARBO_TEST_BLOCKED"].split(","))

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in self.blocked:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NotInstalled())
"""
