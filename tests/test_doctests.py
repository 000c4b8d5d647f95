"""The ``>>>`` examples in the package's docstrings are tests too: each module that has one is
run here, and only those are imported (collecting the whole package for its docstrings would
import every module of it, the window's included)."""

from __future__ import annotations

import doctest
import importlib
import io
from pathlib import Path

import pytest

import campaign1813

PACKAGE = Path(campaign1813.__file__).parent
# alembic's scripts only run inside alembic
SKIPPED = ("migrations",)


def _modules_with_examples() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE.parent)
        if any(part in SKIPPED for part in relative.parts):
            continue
        if ">>> " in path.read_text(encoding="utf-8"):
            parts = relative.with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


MODULES = _modules_with_examples()


def test_the_package_has_examples():
    # the search above finds something to run, or every test below would pass by running nothing
    assert len(MODULES) > 40


@pytest.mark.parametrize("name", MODULES)
def test_examples(name: str) -> None:
    module = importlib.import_module(name)
    out = io.StringIO()
    runner = doctest.DocTestRunner()
    tests = doctest.DocTestFinder().find(module, name)
    for test in sorted(tests, key=lambda t: t.name):
        runner.run(test, out=out.write)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0, f"{name} mentions '>>> ' but has no example that runs"
    assert result.failed == 0, out.getvalue()
