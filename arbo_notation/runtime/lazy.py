"""Names a package exports but loads on first use (PEP 562), so importing the package stays cheap."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_exports(
    package: str, exports: dict[str, tuple[str, ...]]
) -> tuple[list[str], Callable[[str], Any], Callable[[], list[str]]]:
    """``__all__``, ``__getattr__`` and ``__dir__`` for ``package``, whose submodule ``module``
    (relative to the package) provides each name of ``exports[module]``."""
    module_of = {name: module for module, names in exports.items() for name in names}
    names = sorted(module_of)
    namespace = importlib.import_module(package).__dict__

    def load(name: str) -> Any:
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value  # the next use is a plain attribute, not a call of this
        return value

    def listing() -> list[str]:
        return sorted(set(namespace) | set(names))

    return names, load, listing
