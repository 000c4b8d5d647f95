"""Shared fixtures. Qt runs offscreen, and no test touches the user's own settings or files."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

# Shared machines are noisy: a property test is judged by its properties, never by its speed.
settings.register_profile("campaign1813", deadline=None)
settings.load_profile("campaign1813")


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory, monkeypatch):
    """Point the user's data and config folders at a temporary place for every test."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    return home
