"""Shipped data: the 1813 scenario (map, army groups, objectives, settings) and rulesets' tables.

Files here are package data, read through :func:`importlib.resources.files`.
"""
from importlib.resources import files
from importlib.resources.abc import Traversable


def data_root() -> Traversable:
    """The folder of shipped data files inside the installed package."""
    return files(__name__)


def scenario_dir(name: str = "1813") -> Traversable:
    """The folder of a shipped scenario."""
    return data_root() / "scenarios" / name
