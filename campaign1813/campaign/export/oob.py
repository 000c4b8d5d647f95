"""Orders of battle as the umpire prints them: plain fixed-width text, and JSON for other tools.

The layout follows the rules' own order of battle: the army and its CinC, then each corps with
its commander, its four infantry brigades, its cavalry brigade and its artillery, and last the
reserve commander. Every grade shows its bonus to the command dice ("Average +2").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from campaign1813.campaign.scenario.types import (
    ArmyGroup,
    Artillery,
    CavalryBrigade,
    Commander,
    Corps,
    InfantryBrigade,
)

_GAP = "  "


def grade_text(commander: Commander) -> str:
    """A commander's grade with its bonus, e.g. ``Gifted +3``."""
    return f"{commander.grade.value} +{commander.grade.bonus}"


def commander_text(commander: Commander) -> str:
    """``General Vandamme, Gifted +3``."""
    return f"{commander.name}, {grade_text(commander)}"


def calibre_text(artillery: Artillery) -> str:
    """``12-pounder``, with ``horse artillery`` added for horse batteries."""
    text = f"{artillery.calibre}-pounder"
    return f"{text}, horse artillery" if artillery.horse else text


def cavalry_text(cavalry: CavalryBrigade) -> str:
    """``Light``, or ``Light, lancers``."""
    text = cavalry.type.value.capitalize()
    return f"{text}, lancers" if cavalry.lancers else text


def _infantry_row(brigade: InfantryBrigade) -> list[str]:
    return [f"{brigade.number} Infantry Brigade", f"Class {brigade.klass.value}",
            f"Firepower {brigade.firepower.value}  Skirmish {brigade.skirmish.value}",
            brigade.name]


def _corps_rows(corps: Corps) -> list[list[str]]:
    rows = [_infantry_row(b) for b in corps.infantry]
    cavalry = corps.cavalry
    rows.append([f"{cavalry.number} Cavalry Brigade", f"Class {cavalry.klass.value}",
                 cavalry_text(cavalry), cavalry.name])
    rows.append(["Corps Artillery", f"Class {corps.artillery.klass.value}",
                 calibre_text(corps.artillery), ""])
    return rows


def _line(cells: Sequence[str], widths: Sequence[int], indent: str) -> str:
    padded = [cell.ljust(width) for cell, width in zip(cells, widths, strict=False)]
    return (indent + _GAP.join(padded)).rstrip()


def army_oob_text(army: ArmyGroup) -> str:
    """One army group's order of battle as fixed-width text, ending in a newline."""
    corps_rows = {c.name: _corps_rows(c) for c in army.corps}
    all_rows = [row for rows in corps_rows.values() for row in rows]
    # One set of column widths for the whole army, so every corps lines up on the page.
    widths = [max(len(row[i]) for row in all_rows) for i in range(4)]
    widths[0] = max(widths[0], len("Commander"), len("Starts at"))
    head = max(len("Reserve Commander"), len("Theatre"))
    lines = [army.name, "=" * len(army.name),
             f"{'CinC'.ljust(head)}{_GAP}{commander_text(army.cinc)}",
             f"{'Side'.ljust(head)}{_GAP}{army.side.value}",
             f"{'Theatre'.ljust(head)}{_GAP}{army.theatre.value}",
             f"{'HQ'.ljust(head)}{_GAP}{army.hq}"]
    for corps in army.corps:
        lines += ["", f"{corps.name} ({corps.nationality})",
                  _line(["Commander", commander_text(corps.commander)], widths, "  "),
                  _line(["Starts at", corps.start], widths, "  ")]
        lines += [_line(row, widths, "  ") for row in corps_rows[corps.name]]
    lines += ["", f"{'Reserve Commander'.ljust(head)}{_GAP}{commander_text(army.reserve)}"]
    return "\n".join(lines) + "\n"


def oob_text(armies: Sequence[ArmyGroup]) -> str:
    """The orders of battle of several army groups, one after another."""
    return "\n\n".join(army_oob_text(a) for a in armies)


def _commander_json(commander: Commander) -> dict[str, Any]:
    return {"name": commander.name, "grade": commander.grade.value,
            "bonus": commander.grade.bonus}


def _corps_json(corps: Corps) -> dict[str, Any]:
    cavalry, artillery = corps.cavalry, corps.artillery
    return {
        "name": corps.name,
        "nationality": corps.nationality,
        "commander": _commander_json(corps.commander),
        "start": corps.start,
        "infantry": [{"number": b.number, "class": b.klass.value,
                      "firepower": b.firepower.value, "skirmish": b.skirmish.value,
                      "name": b.name} for b in corps.infantry],
        "cavalry": {"number": cavalry.number, "class": cavalry.klass.value,
                    "type": cavalry.type.value, "lancers": cavalry.lancers,
                    "name": cavalry.name},
        "artillery": {"class": artillery.klass.value, "calibre": artillery.calibre,
                      "calibre_band": artillery.calibre_band, "horse": artillery.horse},
    }


def army_json(army: ArmyGroup) -> dict[str, Any]:
    """One army group's order of battle as plain JSON-ready values."""
    return {
        "name": army.name,
        "side": army.side.value,
        "theatre": army.theatre.value,
        "hq": army.hq,
        "cinc": _commander_json(army.cinc),
        "reserve": _commander_json(army.reserve),
        "corps": [_corps_json(c) for c in army.corps],
    }


def oob_json(armies: Sequence[ArmyGroup]) -> dict[str, Any]:
    """The orders of battle of several army groups as ``{"armies": [...]}``."""
    return {"armies": [army_json(a) for a in armies]}
