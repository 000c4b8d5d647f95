"""The side's papers are painted by Qt (``QtPaper``), which makes a bare QGuiApplication if none
runs; a widget made later in the same process would then abort it. Every test here runs with
pytest-qt's QApplication made first."""

import pytest


@pytest.fixture(autouse=True)
def _application(qapp):
    """The test process's QApplication, made before anything paints."""
    return qapp
