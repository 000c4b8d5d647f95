"""The bundle's list of what is loaded by name (``campaign1813.bundle``), checked without a
build: every module of the package is reached from the programs by an import or from the list,
every name on it is a module, and the desktop files agree with the application."""

from __future__ import annotations

import ast
import importlib.util
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import grimp
import pytest

from campaign1813 import __version__
from campaign1813.bundle import (
    APP_ID,
    LEFT_OUT,
    PROGRAMS,
    data_folders,
    loaded_by_name,
    migration_imports,
)
from campaign1813.campaign.store.document import SUFFIX
from campaign1813.campaign.store.version import APPLICATION_ID

ROOT = Path(__file__).resolve().parents[1]
LINUX = ROOT / "packaging" / "linux"

# Every place in the package that imports a module by a name made at run time, and what carries
# its modules into the bundle. A new one must be read by campaign1813.bundle.loaded_by_name().
LOADERS = {
    "campaign1813.campaign.cli": "loaded_by_name: the groups of COMMANDS",
    "campaign1813.campaign.cli.odds": "loaded_by_name: KINDS and RULESET_ODDS",
    "campaign1813.campaign.cli.export": "loaded_by_name: EXPORTS",
    "campaign1813.campaign.battle.registry": "loaded_by_name: RULESETS",
    "campaign1813.ui.app": "loaded_by_name: DEFERRED_MODULES",
    "campaign1813.campaign.battle.ruleset1813.rules.tables":
        "its modules are imported by name at the top too (for the type checker)",
}


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("campaign1813")


def _within(module: str, packages: tuple[str, ...]) -> bool:
    return any((module + ".").startswith(p + ".") for p in packages)


def _scripts_read_as_files() -> tuple[str, ...]:
    return tuple(f"{f.package}.{f.folder}" for f in data_folders() if f.python_too)


def unreached(graph: grimp.ImportGraph, by_name: tuple[str, ...]) -> list[str]:
    """The modules of the package a bundle would lack: reached neither by an import from the
    programs nor from ``by_name`` (and not left out, nor read as files)."""
    seen: set[str] = set()
    todo = [program.module for program in PROGRAMS] + list(by_name)
    while todo:
        module = todo.pop()
        if module in seen or module not in graph.modules:
            continue
        seen.add(module)
        parent = module.rpartition(".")[0]
        todo.extend([parent] if parent else [])  # importing a module runs its packages too
        todo.extend(graph.find_modules_directly_imported_by(module))
    skipped = (*LEFT_OUT, *_scripts_read_as_files())
    return sorted(m for m in graph.modules - seen if not _within(m, skipped))


def test_every_module_of_the_package_is_reached_by_an_import_or_the_list(graph):
    """A module imported only by name and missing from the list would be missing from the
    bundle; so would one nothing imports (then it belongs in LEFT_OUT, or nowhere)."""
    assert unreached(graph, loaded_by_name()) == []


def test_a_module_loaded_by_name_and_missing_from_the_list_is_found(graph):
    """The check above has teeth: drop one ruleset's odds and one group of commands from the
    list, and exactly they (and what only they import) are reported."""
    listed = tuple(m for m in loaded_by_name() if m not in (
        "campaign1813.campaign.cli.odds_002", "campaign1813.campaign.cli.scenario"))
    missing = unreached(graph, listed)
    assert "campaign1813.campaign.cli.odds_002" in missing
    assert "campaign1813.campaign.cli.scenario" in missing
    assert all(m.startswith(("campaign1813.campaign.cli.odds_002",
                             "campaign1813.campaign.cli.scenario")) for m in missing)


def test_every_name_on_the_list_is_a_module_there_is():
    """A name left over from an old layout (the CLI's ``cli_document`` before it was a package)
    would make the build warn and the bundle lack the module; so are the names left out."""
    assert [m for m in loaded_by_name() if importlib.util.find_spec(m) is None] == []
    assert [m for m in LEFT_OUT if importlib.util.find_spec(m) is None] == []


def test_the_list_reads_the_registries():
    listed = set(loaded_by_name())
    assert {"campaign1813.campaign.battle.ruleset002.engine",
            "campaign1813.campaign.battle.ruleset004.engine",
            "campaign1813.campaign.cli.day", "campaign1813.campaign.cli.export_setup",
            "campaign1813.campaign.cli.odds_004", "campaign1813.maps.road_map",
            "campaign1813.ui.console"} <= listed
    # what alembic's scripts import, read from their files
    assert set(migration_imports()) == {"alembic", "secrets", "sqlalchemy",
                                        "campaign1813.campaign.store.schema"}
    assert set(migration_imports()) <= listed


def _by_name_loaders() -> set[str]:
    """The modules of the package that call ``import_module`` or ``__import__``."""
    found = set()
    package = ROOT / "campaign1813"
    for path in package.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        source = path.read_text(encoding="utf-8")
        if _within(module, (*LEFT_OUT, *_scripts_read_as_files())) or not (
                "import_module" in source or "__import__" in source):
            continue
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
                if name in ("import_module", "__import__"):
                    found.add(module)
    return found


def test_every_place_that_imports_by_name_is_known():
    """A new registry that imports by name must feed the bundle's list (and be added here)."""
    assert _by_name_loaders() == set(LOADERS)


def test_the_data_folders_are_there():
    for folder in data_folders():
        spec = importlib.util.find_spec(folder.package)
        assert spec is not None and spec.origin is not None
        assert (Path(spec.origin).parent / folder.folder).is_dir()


def test_the_programs_are_pyprojects_scripts():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    scripts = {name: (target, True) for name, target in project["scripts"].items()}
    scripts |= {name: (target, False) for name, target in project["gui-scripts"].items()}
    assert {p.name: (f"{p.module}:main", p.console) for p in PROGRAMS} == scripts


def test_the_desktop_files_name_the_campaign_files_type():
    """The menu entry, the shared-mime-info type and the metainfo agree with the application:
    its suffix, the application id in its files, its version."""
    ns = {"m": "http://www.freedesktop.org/standards/shared-mime-info"}
    mime = ET.parse(LINUX / "campaign1813-mime.xml").getroot().find("m:mime-type", ns)
    assert mime is not None and mime.get("type") == "application/x-campaign1813"
    glob = mime.find("m:glob", ns)
    assert glob is not None and glob.get("pattern") == f"*{SUFFIX}"
    inner = mime.find("m:magic/m:match/m:match", ns)
    assert inner is not None and int(inner.get("value", ""), 16) == APPLICATION_ID
    desktop = (LINUX / f"{APP_ID}.desktop").read_text(encoding="utf-8").splitlines()
    assert "MimeType=application/x-campaign1813;" in desktop
    metainfo = ET.parse(LINUX / f"{APP_ID}.metainfo.xml").getroot()
    assert metainfo.findtext("id") == APP_ID
    assert [r.get("version") for r in metainfo.iter("release")][:1] == [__version__]
    assert metainfo.findtext("launchable") == f"{APP_ID}.desktop"
