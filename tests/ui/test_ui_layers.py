"""The window reads and changes a campaign only through the services, the typed queries and the
document's open/create/save-as: never the database layer or the file's codec and log."""

import ast
from pathlib import Path

import campaign1813.ui

FORBIDDEN = ("sqlmodel", "sqlalchemy", "campaign1813.campaign.store.codec",
             "campaign1813.campaign.store.log", "campaign1813.campaign.day.cycle",
             "campaign1813.campaign.day.aftermath")


def imports_of(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


def test_the_window_never_reaches_past_the_services_and_queries():
    folder = Path(campaign1813.ui.__file__).parent
    found = {
        (path.name, name)
        for path in sorted(folder.rglob("*.py"))
        for name in imports_of(path)
        if any(name == f or name.startswith(f + ".") for f in FORBIDDEN)
    }
    assert found == set()


def test_the_check_sees_a_forbidden_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from campaign1813.campaign.store import log\nimport sqlmodel\n")
    names = imports_of(bad)
    assert "campaign1813.campaign.store.log" in names and "sqlmodel" in names
