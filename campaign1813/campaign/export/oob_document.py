"""The orders of battle handed to the players: one army group, a theatre, or a battle's commands.

A :class:`Forces` is what one sheet shows — army groups, each with the corps on the sheet —
chosen by :func:`army_forces`, :func:`theatre_forces` or :func:`battle_forces`. From it come
the printable :class:`~campaign1813.campaign.export.document.Document` (the rules' own order of
battle: the CinC, each corps with its commander and brigades, the reserve commander; every grade
with its bonus to the command dice), a CSV of one row per commander and unit, and JSON that
follows ``docs/schemas/oob.schema.json``.

Each army group starts a sheet of its own, so a player is handed his own army and nothing of
the enemy's; a corps is one kept-together unit, never split by a page break.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.export.document import (
    Align,
    Block,
    Column,
    Document,
    Fields,
    Heading,
    Paragraph,
    Table,
    Unit,
)
from campaign1813.campaign.export.formats import DOCUMENT_FORMATS, FormatError, document_bytes
from campaign1813.campaign.export.oob import (
    army_json,
    calibre_text,
    cavalry_text,
    commander_text,
    grade_text,
)
from campaign1813.campaign.scenario.forces import army_named
from campaign1813.campaign.scenario.types import ArmyGroup, Corps, Side
from campaign1813.errors import CampaignError
from campaign1813.maps.names import NameIndex

if TYPE_CHECKING:
    from campaign1813.campaign.export.paper import Paper
    from campaign1813.campaign.queries import BattleView

SCHEMA_ID = "https://campaign1813.example/schemas/oob.schema.json"
REINFORCEMENT_NOTE = "reinforcement, enters on turn 4"

KEY = ("Class, Firepower and Skirmish are graded A (best), B (average) or C (worst). "
       "To issue orders a commander rolls an average die and adds his grade: "
       "Gifted +3, Average +2, Poor +1.")


@dataclass(frozen=True)
class ArmyOnSheet:
    """One army group as a sheet shows it: the corps present, and whether its HQ is."""

    army: ArmyGroup
    corps: tuple[Corps, ...]
    hq_present: bool = True
    reinforcements: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Forces:
    """What an order of battle holds: a title, what it is of, and its army groups in order."""

    title: str
    scope: dict[str, Any]
    armies: tuple[ArmyOnSheet, ...]


def _whole(army: ArmyGroup) -> ArmyOnSheet:
    return ArmyOnSheet(army, army.corps)


def all_forces(armies: Sequence[ArmyGroup]) -> Forces:
    """Every army group of the scenario, theatre by theatre."""
    return Forces("Orders of Battle", {"kind": "all"}, tuple(_whole(a) for a in armies))


def army_forces(armies: Sequence[ArmyGroup], name: str) -> Forces:
    """One army group by name (any case, with or without accents); a one-line error naming the
    army groups there are when there is none of that name."""
    army = army_named(armies, name)
    return Forces("Orders of Battle", {"kind": "army", "army": army.name},
                  (_whole(army),))


def theatre_forces(armies: Sequence[ArmyGroup], name: str) -> Forces:
    """Both sides' army groups of one theatre, the French first."""
    theatres = list(dict.fromkeys(a.theatre for a in armies))
    found = NameIndex((t.value, t.value) for t in theatres).find(name)
    theatre = next((t for t in theatres if t.value == found), None)
    if theatre is None:
        known = ", ".join(t.value for t in theatres)
        raise CampaignError(f"no theatre called '{name}' (known: {known})")
    chosen = sorted((a for a in armies if a.theatre is theatre),
                    key=lambda a: a.side is not Side.FRENCH)
    return Forces(f"Orders of Battle — {theatre.value}",
                  {"kind": "theatre", "theatre": theatre.value},
                  tuple(_whole(a) for a in chosen))


def find_battle(battles: Iterable[BattleView], battle_id: int) -> BattleView:
    """The battle of that number; a one-line error listing the battles there are."""
    battles = list(battles)
    for b in battles:
        if b.id == battle_id:
            return b
    known = "; ".join(f"{b.id}: {b.title}" for b in battles) or "none yet"
    raise CampaignError(f"no battle {battle_id} (battles — {known})")


def battle_forces(armies: Sequence[ArmyGroup], battle: BattleView) -> Forces:
    """The commands in a battle, side by side: for each army group with a command there, its
    corps on the field (reinforcements marked) and whether its HQ (the CinC and the reserve
    commander) is present."""
    present = set(battle.french) | set(battle.allied)
    coming = set(battle.french_reinforcements) | set(battle.allied_reinforcements)
    sides = (Side.FRENCH, Side.ALLIED)
    if battle.attacker is Side.ALLIED:
        sides = (Side.ALLIED, Side.FRENCH)
    chosen: list[ArmyOnSheet] = []
    for side in sides:
        for army in armies:
            if army.side is not side:
                continue
            corps = tuple(c for c in army.corps if c.name in present | coming)
            hq = f"{army.name} HQ" in present | coming
            if corps or hq:
                chosen.append(ArmyOnSheet(army, corps, hq, frozenset(c.name for c in corps
                                                                     if c.name in coming)))
    scope = {"kind": "battle", "battle": {"id": battle.id, "title": battle.title,
                                          "place": battle.place,
                                          "date": battle.date.isoformat()}}
    title = battle.title[:1].upper() + battle.title[1:]  # "The battle of Fenwick (3 May 1813)"
    return Forces(f"Orders of Battle — {title}", scope, tuple(chosen))


# -- the printed document -----------------------------------------------------------------------

def _columns(named: bool) -> tuple[Column, ...]:
    columns = (Column("No.", Align.RIGHT), Column("Brigade"), Column("Class", Align.CENTRE),
               Column("Firepower", Align.CENTRE), Column("Skirmish", Align.CENTRE),
               Column("Type"))
    return columns + ((Column("Name"),) if named else ())


def _corps_table(corps: Corps, named: bool) -> Table:
    rows = [(str(b.number), "Infantry Brigade", b.klass.value, b.firepower.value,
             b.skirmish.value, "", b.name) for b in corps.infantry]
    cav = corps.cavalry
    rows.append((str(cav.number), "Cavalry Brigade", cav.klass.value, "", "", cavalry_text(cav),
                 cav.name))
    art = corps.artillery
    rows.append(("", "Corps Artillery", art.klass.value, "", "", calibre_text(art), ""))
    width = 7 if named else 6
    return Table(_columns(named), tuple(row[:width] for row in rows))


def _corps_blocks(corps: Corps, named: bool, reinforcement: bool) -> list[Block]:
    note = corps.nationality + (f" · {REINFORCEMENT_NOTE}" if reinforcement else "")
    return [Heading(corps.name, 2, note=note),
            Fields((("Commander", commander_text(corps.commander)),)),
            _corps_table(corps, named)]


def _army_heading(sheet: ArmyOnSheet) -> list[Block]:
    army = sheet.army
    cinc = commander_text(army.cinc)
    if not sheet.hq_present:
        cinc += " — not on the field"
    return [Heading(f"{army.name} — {army.cinc.name}", 1),
            Fields((("CinC", cinc),
                    ("Theatre", f"{army.theatre.value} · {army.side.value} side · HQ {army.hq}"))),
            Paragraph(KEY, small=True)]


def _reserve_block(sheet: ArmyOnSheet) -> Block:
    text = commander_text(sheet.army.reserve)
    if not sheet.hq_present:
        text += " — not on the field"
    return Fields((("Reserve Commander", text),))


def oob_document(forces: Forces, campaign: str, day: date) -> Document:
    """The orders of battle as a printable document: each army group on a fresh sheet, its
    heading kept with its first corps, its reserve commander with its last."""
    named = any(b.name for s in forces.armies for c in s.corps for b in c.infantry) or any(
        c.cavalry.name for s in forces.armies for c in s.corps)
    units: list[Unit] = []
    for n, sheet in enumerate(forces.armies):
        head = _army_heading(sheet)
        groups = [_corps_blocks(c, named, c.name in sheet.reinforcements) for c in sheet.corps]
        if not groups:
            groups = [[]]
        groups[0] = head + groups[0]
        groups[-1] = groups[-1] + [_reserve_block(sheet)]
        for i, blocks in enumerate(groups):
            units.append(Unit(tuple(blocks), new_page=n > 0 and i == 0))
    return Document(forces.title, campaign, format_date(day), tuple(units))


# -- CSV and JSON -------------------------------------------------------------------------------

CSV_COLUMNS = ("army", "side", "theatre", "corps", "nationality", "role", "number", "name",
               "commander", "grade", "bonus", "class", "firepower", "skirmish", "cavalry_type",
               "lancers", "calibre", "horse", "reinforcement")


def _rows(sheet: ArmyOnSheet) -> Iterable[dict[str, Any]]:
    army = sheet.army
    base = {"army": army.name, "side": army.side.value, "theatre": army.theatre.value}
    for role, who in (("CinC", army.cinc), ("Reserve Commander", army.reserve)):
        if sheet.hq_present:
            yield {**base, "role": role, "commander": who.name, "grade": who.grade.value,
                   "bonus": who.grade.bonus}
    for c in sheet.corps:
        corps = {**base, "corps": c.name, "nationality": c.nationality,
                 "reinforcement": "yes" if c.name in sheet.reinforcements else "no"}
        yield {**corps, "role": "Corps Commander", "commander": c.commander.name,
               "grade": c.commander.grade.value, "bonus": c.commander.grade.bonus}
        for b in c.infantry:
            yield {**corps, "role": "Infantry Brigade", "number": b.number, "name": b.name,
                   "class": b.klass.value, "firepower": b.firepower.value,
                   "skirmish": b.skirmish.value}
        cav = c.cavalry
        yield {**corps, "role": "Cavalry Brigade", "number": cav.number, "name": cav.name,
               "class": cav.klass.value, "cavalry_type": cav.type.value,
               "lancers": "yes" if cav.lancers else "no"}
        art = c.artillery
        yield {**corps, "role": "Corps Artillery", "class": art.klass.value,
               "calibre": art.calibre, "horse": "yes" if art.horse else "no"}


_FORMULA_MARKS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: object) -> object:
    """A cell as a spreadsheet reads it as text: one beginning with a formula's mark (``=``,
    ``+``, ``-``, ``@``, a tab or a carriage return) gets a leading apostrophe, as
    spreadsheet-safe CSV writers do; numbers are left as they are.

    >>> spreadsheet_safe("=SUM(A1)"), spreadsheet_safe("-3"), spreadsheet_safe(8)
    ("'=SUM(A1)", '-3', 8)
    """
    if not isinstance(value, str) or not value.startswith(_FORMULA_MARKS):
        return value
    try:
        float(value)
    except ValueError:
        return "'" + value
    return value


def oob_csv(forces: Forces) -> str:
    """One row per commander, brigade and battery, with a header row; blank where a column
    does not apply (a battery has no firepower grade). No cell can be read as a formula."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, restval="", lineterminator="\r\n")
    writer.writeheader()
    for sheet in forces.armies:
        writer.writerows({k: spreadsheet_safe(v) for k, v in row.items()} for row in _rows(sheet))
    return out.getvalue()


def oob_export_json(forces: Forces, campaign: str, day: date) -> dict[str, Any]:
    """The orders of battle as JSON-ready values, as ``docs/schemas/oob.schema.json`` says."""
    armies = []
    for sheet in forces.armies:
        entry = army_json(sheet.army)
        names = {c.name for c in sheet.corps}
        entry["corps"] = [{**c, "reinforcement": c["name"] in sheet.reinforcements}
                          for c in entry["corps"] if c["name"] in names]
        entry["hq_present"] = sheet.hq_present
        armies.append(entry)
    return {"$schema": SCHEMA_ID, "campaign": campaign, "date": day.isoformat(),
            "title": forces.title,
            "scope": forces.scope, "armies": armies}


__all__ = ["ArmyOnSheet", "Forces", "all_forces", "army_forces", "theatre_forces",
           "battle_forces", "find_battle", "oob_document", "oob_csv", "oob_export_json",
           "grade_text", "CSV_COLUMNS", "KEY"]


def oob_bytes(forces: Forces, campaign: str, day: date, fmt: str, paper_size: str = "a4",
              paper: Paper | None = None) -> bytes:
    """The orders of battle as the bytes of one file: PDF (on ``paper``, else the installed
    one), HTML or Markdown (the same document), CSV or JSON; the one exporter of each format
    that the command line and the window's save dialog share."""
    if fmt in DOCUMENT_FORMATS:
        return document_bytes(oob_document(forces, campaign, day), fmt, paper_size, paper)
    if fmt == "csv":
        return oob_csv(forces).encode("utf-8")
    if fmt == "json":
        value = oob_export_json(forces, campaign, day)
        return (json.dumps(value, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    raise FormatError(f"{fmt}: the orders of battle are written as PDF, HTML, Markdown, CSV "
                      "or JSON")
