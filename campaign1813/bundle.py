"""What the application loads by name, and the files it reads from inside its package: what a
standalone bundle (``packaging/campaign1813.spec``) must carry that no import statement names.

Each list is read from the registry that loads by name: the rulesets (``battle.registry``), the
command line's groups, kinds of odds and exports (``cli``), what the window loads behind its first
paint (``ui.app``), and alembic's migrations, which alembic runs from their files
(``store.migrate``). A ruleset or a group of commands added to its registry is in the bundle with
no other change; ``tests/test_bundle.py`` fails when a module of the package is reached neither
by an import from the programs nor from :func:`loaded_by_name`.

>>> "campaign1813.campaign.cli.day" in loaded_by_name()
True
>>> [f.folder for f in data_folders()]
['', 'migrations']
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

from campaign1813 import data
from campaign1813.campaign import cli
from campaign1813.campaign.battle.registry import RULESETS
from campaign1813.campaign.cli.export import EXPORTS
from campaign1813.campaign.cli.odds import ODDS_MODULES, RULESET_ODDS
from campaign1813.campaign.store.migrate import SCRIPTS
from campaign1813.ui.app import DEFERRED_MODULES

__all__ = ["APP_ID", "LEFT_OUT", "PROGRAMS", "DataFolder", "Program", "data_folders",
           "loaded_by_name", "migration_imports"]

# The application's id: the name of its desktop entry and metainfo on Linux (packaging/linux/),
# its bundle identifier on macOS
APP_ID = "org.campaign1813.Umpire"

# The modules (and packages) of the package that no program runs, so the bundle need not carry
# them, each with the reason; tests/test_bundle.py names any other module the programs cannot
# reach by an import or from loaded_by_name().
LEFT_OUT: dict[str, str] = {
    "campaign1813.bundle": "this list, read when the bundle is built",
    "campaign1813.maps.tools": "the map maker's tool: shapely and pyshp are its own",
    "campaign1813.ui.map.render": "the map's pictures for docs/ (tools/map_pictures.py)",
    "campaign1813.campaign.cli.__main__": "python -m campaign1813.campaign.cli; the bundle has "
                                          "its own program",
    "campaign1813.campaign.battle.ruleset1813.rules.movement": "no program reads it yet: only "
                                                               "its tests import it",
    "campaign1813.campaign.battle.ruleset1813.rules.firefight": "Rule 12 as a function of its "
        "own, which the tests check the table's and auto-resolve's firefights against; both "
        "run Rule 12 through the combat rules",
}


class Program(NamedTuple):
    """A program of the bundle: pyproject's gui-script or console script of the same name."""

    name: str
    module: str          # whose ``main()`` it runs
    console: bool        # False: the window, started with no console (Windows, macOS)


PROGRAMS = (
    Program("campaign1813-gui", "campaign1813.ui.app", console=False),
    Program("campaign1813", "campaign1813.ui.console", console=True),
)


class DataFolder(NamedTuple):
    """A folder of files the application reads as files from inside its package."""

    package: str
    folder: str          # inside the package; "" for the whole package
    python_too: bool     # its .py files are read as files too (alembic's migrations)


def data_folders() -> tuple[DataFolder, ...]:
    """The shipped data (scenario, rulesets, icons) and alembic's migrations."""
    package, _, folder = SCRIPTS.partition(":")
    return (DataFolder(data.__name__, "", python_too=False),
            DataFolder(package, folder, python_too=True))


def _folder_path(folder: DataFolder) -> Path:
    """Where a data folder is in this (unfrozen) package."""
    root = Path(__file__).resolve().parent
    return root.joinpath(*folder.package.split(".")[1:], folder.folder)


def migration_imports() -> tuple[str, ...]:
    """The modules alembic's migration scripts import (absolute imports, as written): alembic
    runs the scripts from their files, so the bundle must carry what they import by name."""
    found: set[str] = set()
    for folder in data_folders():
        if not folder.python_too:
            continue
        for script in sorted(_folder_path(folder).rglob("*.py")):
            for node in ast.walk(ast.parse(script.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    found.update(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    found.add(node.module)
    return tuple(sorted(found))


def _ruleset_modules() -> set[str]:
    return {entry.partition(":")[0] if isinstance(entry, str) else entry.__module__
            for entry in RULESETS.values()}


def loaded_by_name() -> tuple[str, ...]:
    """Every module the application imports by name at run time, sorted: the programs' own,
    the registries' entries and what the migration scripts import."""
    modules = {
        *(program.module for program in PROGRAMS),
        *_ruleset_modules(),
        *(f"{cli.__name__}.{group}" for group in cli.GROUPS),
        *ODDS_MODULES, *RULESET_ODDS.values(),
        *EXPORTS,
        *DEFERRED_MODULES,
        *migration_imports(),
    }
    return tuple(sorted(modules))
