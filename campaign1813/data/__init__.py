"""Shipped data: the 1813 scenario (map, army groups, objectives, settings) and rulesets' tables.

Files here are package data, installed (and frozen by PyInstaller) as files beside this module,
so they are read as plain paths: ``importlib.resources`` would cost the command line's start
several milliseconds for nothing.
"""

from pathlib import Path

_ROOT = Path(__file__).resolve().parent


def data_root() -> Path:
    """The folder of shipped data files inside the installed package."""
    return _ROOT


def scenario_dir(name: str = "1813") -> Path:
    """The folder of a shipped scenario."""
    return _ROOT / "scenarios" / name
