"""Modules imported after PySide are not read for the word "PySide6" (ui/pyside_imports.py)."""

import os
import subprocess
import sys
import types

from PySide6.QtCore import QObject

from campaign1813.ui.pyside_imports import uses_pyside


def test_a_module_uses_pyside_when_it_holds_a_pyside_module_or_class():
    holds_class, holds_module, plain = (types.ModuleType(n) for n in ("a", "b", "c"))
    holds_class.QObject = QObject
    holds_module.QtCore = sys.modules["PySide6.QtCore"]
    plain.path, plain.os = os.path, os
    assert uses_pyside(holds_class) and uses_pyside(holds_module)
    assert not uses_pyside(plain)
    assert uses_pyside(sys.modules["PySide6.QtWidgets"])
    assert not uses_pyside("PySide6")  # not a module


def test_the_window_s_modules_are_imported_without_reading_their_sources():
    """In a fresh interpreter, as the benchmark and the tests start (PySide first): once the
    application's module is imported, no module of the campaign is read into linecache, and
    PySide still tells the window's modules (which use it) from the campaign's (which do not)."""
    code = (
        "import linecache, sys\n"
        "import PySide6.QtCore\n"
        "import campaign1813.ui.app\n"
        "import campaign1813.campaign.services\n"
        "read = sorted(f for f in linecache.cache if 'campaign1813' in f\n"
        "              and not f.endswith(('__init__.py', 'ui/app.py')))\n"
        "marks = sys.modules['PySide6.support.feature'].pyside_feature_dict\n"
        "print(read, marks['campaign1813.ui.main_window'],\n"
        "      marks['campaign1813.campaign.day.actions'],\n"
        "      marks['campaign1813.campaign.queries'])\n"
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["[]", "0", "-1", "-1"]
