"""Write the supply rules' numbers and readings into ``docs/supply.md``:
``python -m tools.supply_doc``.

The part between the two markers is made from ``campaign1813/data/supply/*.toml``;
``tests/day/test_supply_doc.py`` fails until it is run after a rule file changes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from campaign1813.campaign.day.supply import VERSIONS, SupplyRules, load_rules

DOC = Path(__file__).resolve().parent.parent / "docs" / "supply.md"
BEGIN = "<!-- from the rule files: python -m tools.supply_doc -->"
END = "<!-- end of the rule files -->"

NUMBERS: tuple[tuple[str, Callable[[SupplyRules], Any]], ...] = (
    ("days a corps starts with", lambda r: r.stocks.corps_start),
    ("days a corps carries at most", lambda r: r.stocks.corps_carry),
    ("days in the main depot at the start", lambda r: r.stocks.main_depot_start),
    ("days a corps in a depot at its town at the start", lambda r: r.stocks.per_corps_in_depot),
    ("days an army holds at most", lambda r: r.stocks.army_limit or "no limit"),
    ("main depot topped up to that", lambda r: "yes" if r.stocks.top_up_main_depot else "no"),
    ("days each depot gathers a day", lambda r: r.stocks.depot_collects),
    ("days a corps eats a day", lambda r: r.use.per_day),
    ("a new depot is made by", lambda r: {"brigade": "a full-strength infantry brigade, left "
                                          "as its garrison",
                                          "corps halt": "a corps halting in the town"}
     [r.depot.made_by]),
    ("a new depot needs a secure road to the main depot",
     lambda r: "yes" if r.depot.needs_secure_road else "no"),
    ("days of supplies an army moves a day", lambda r: r.transport.days_per_day),
    ("road miles a column goes a day", lambda r: f"{r.transport.miles_per_day:g}"),
    ("a corps draws within (road miles of the depot)", lambda r: f"{r.draw.within_miles:g}"),
    ("men a corps out of supply loses a day", lambda r: r.attrition.men_per_day),
    ("men that make one casualty", lambda r: r.attrition.men_per_casualty),
)


def generated(rules: tuple[SupplyRules, ...]) -> str:
    """The doc's part made from the rule files: the numbers side by side, then each reading."""
    head = "| | " + " | ".join(r.title for r in rules) + " |"
    rows = [head, "|---" * (len(rules) + 1) + "|"]
    rows += [f"| {what} | " + " | ".join(str(get(r)) for r in rules) + " |"
             for what, get in NUMBERS]
    parts = ["\n".join(rows)]
    for r in rules:
        parts.append(f"### Readings of the {r.title.lower()}\n\n" + "\n".join(
            f"- **{a.point}**: {a.reading}" for a in r.assumptions))
    return "\n\n".join(parts)


def current_text() -> str:
    """``docs/supply.md`` as it should be, its generated part made afresh."""
    text = DOC.read_text(encoding="utf-8")
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    body = generated(tuple(load_rules(v) for v in VERSIONS))
    return f"{text[:start]}\n\n{body}\n\n{text[end:]}"


def main() -> int:
    """Write the doc, and say whether it changed."""
    text = current_text()
    if text == DOC.read_text(encoding="utf-8"):
        print(f"{DOC.name} is current")
        return 0
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
