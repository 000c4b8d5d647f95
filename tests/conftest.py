"""Shared fixtures. Qt runs offscreen, and no test touches the user's own settings or files."""

import os
import shutil
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

# Shared machines are noisy: a property test is judged by its properties, never by its speed.
settings.register_profile("campaign1813", deadline=None)
settings.load_profile("campaign1813")


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory, monkeypatch):
    """Point the user's data, config and cache folders at a temporary place for every test."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
    return home


@pytest.fixture(autouse=True)
def _free_widgets():
    """Close every window a test left open and delete it now, so that no widget, timer or open
    campaign outlives its test (pytest-qt's ``deleteLater`` waits for an event loop that does
    not run between tests)."""
    yield
    if "PySide6.QtWidgets" not in sys.modules:
        return
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is None:
        return
    for widget in QApplication.topLevelWidgets():
        widget.close()
        widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture(scope="session")
def campaign_template(tmp_path_factory):
    """The shipped 1813 campaign, made once per run: making one runs every revision of the
    file's layout and validates the whole scenario, which a copy does not need to repeat."""
    from campaign1813.campaign.store.document import create_campaign

    path = tmp_path_factory.mktemp("template") / "template.c1813"
    create_campaign(path).close()
    return path


@pytest.fixture
def fresh_campaign(campaign_template, tmp_path):
    """Make a new 1813 campaign file at a path (``war.c1813`` in the test's folder by default)
    as ``create_campaign`` would, by copying the run's template; the path is returned."""

    def make(path=None):
        path = tmp_path / "war.c1813" if path is None else path
        shutil.copyfile(campaign_template, path)
        return path

    return make
