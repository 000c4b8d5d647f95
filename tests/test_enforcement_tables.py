"""Every enforcement table in docs/enforcement/ cites only tests that exist, so a renamed or
removed test cannot leave a clause of the rules pointing at nothing."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
TABLES = sorted((ROOT / "docs" / "enforcement").glob("*.md"))
CITED = re.compile(r"((?:tests/)?[\w/]*?\w+\.py)::(\w+)")


def _test_file(path: str) -> Path:
    """A cited file: by its path from the root, or by its name alone (one file of that name)."""
    if path.startswith("tests/"):
        return ROOT / path
    found = [p for p in (ROOT / "tests").rglob(Path(path).name)
             if p.as_posix().endswith(path)]
    assert len(found) == 1, f"{path}: {len(found)} test files of that name"
    return found[0]


def test_the_index_names_every_table():
    index = (ROOT / "docs" / "enforcement" / "README.md").read_text(encoding="utf-8")
    for table in TABLES:
        if table.name != "README.md":
            assert f"({table.name})" in index, table.name


@pytest.mark.parametrize("table", [t for t in TABLES if t.name != "README.md"],
                         ids=lambda t: t.stem)
def test_every_test_a_table_cites_exists(table):
    cited = set(CITED.findall(table.read_text(encoding="utf-8")))
    assert len(cited) >= 10, f"{table.name} cites {len(cited)} tests"
    for path, name in sorted(cited):
        source = _test_file(path).read_text(encoding="utf-8")
        assert re.search(rf"^(async )?def {name}\b", source, re.MULTILINE), \
            f"{table.name}: {path}::{name} does not exist"
