"""Importing modules after PySide without its reading of each one's source.

To offer ``from __feature__ import snake_case``, PySide replaces ``__import__`` and, after
every module imported once it is loaded, reads that module's whole source
(``inspect.getsource``) to see whether it names PySide6. For the window that is about 20 ms of
its start and 1.7 MB of source lines kept in ``linecache``, and every module loaded later pays
it again (the road planner's graph library has hundreds). The campaign selects no such feature,
so here a module counts as using PySide when it holds a PySide module or class once imported;
the answer only decides whether PySide switches a feature for that module's calls.

Importing this module makes the change, once PySide's ``QtCore`` is loaded; a PySide without
that reading of sources is left as it is.
"""

from __future__ import annotations

import sys
from types import ModuleType

QT_PACKAGES = ("PySide6", "shiboken6")


def uses_pyside(module: object) -> bool:
    """Whether an imported module holds one of PySide's modules or classes."""
    if not isinstance(module, ModuleType):
        return False
    if module.__name__.startswith(QT_PACKAGES):
        return True
    for value in list(vars(module).values()):
        if isinstance(value, ModuleType):
            if value.__name__.startswith(QT_PACKAGES):
                return True
        elif isinstance(value, type) and str(value.__module__).startswith(QT_PACKAGES):
            return True
    return False


def forgo_source_reading() -> bool:
    """Put the check above in place of PySide's reading of sources; whether it was there."""
    feature = sys.modules.get("PySide6.support.feature")
    if feature is None or not callable(getattr(feature, "_mod_uses_pyside", None)):
        return False
    feature._mod_uses_pyside = uses_pyside  # type: ignore[attr-defined]
    return True


forgo_source_reading()
