"""docs/supply.md shows the supply rule files' numbers and readings as they are."""

from tools.supply_doc import DOC, current_text


def test_supply_doc_is_current():
    """The generated part of docs/supply.md matches the rule files (run
    ``python -m tools.supply_doc`` after changing one)."""
    assert DOC.read_text(encoding="utf-8") == current_text(), \
        "docs/supply.md is stale: run python -m tools.supply_doc"
