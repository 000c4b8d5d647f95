"""A campaign whose Allied corps carry distinctive names and exact strengths (the canaries),
and every French output rendered as text, for the tests that nothing leaks (record 0025).

The road runs West –10– T1 –10– … –10– T12 –10– East, and a far spur East –100– Far. The French
(Armée, HQ at West) have 1 and 2 Corps; the Allied army (Canary Host, HQ at East) has four corps
of 3, 2, 1 and 5 infantry brigades: 17,000, 12,000, 7,000 and 27,000 men (record 0025: 5,000 a
brigade, 1,500 the cavalry, 500 the battery), figures no French corps has (22,000).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from campaign1813.campaign.day.sideview import SideView, view_json, view_text
from campaign1813.campaign.day.state import DayState
from campaign1813.campaign.scenario.types import (
    ArmyGroup,
    Artillery,
    CavalryBrigade,
    CavalryType,
    Commander,
    Corps,
    Grade,
    InfantryBrigade,
    Rating,
    Scenario,
    Side,
)

from ..day.builders import army, line, road, scenario

LINE = ["West", *(f"T{i}" for i in range(1, 13)), "East"]
TOWNS = [*LINE, "Far"]
CANARY_CORPS = {"Vexillum Canary Corps": ("T10", 3), "Quokka Canary Corps": ("T11", 2),
                "Zephyr Canary Corps": ("T12", 1), "Obscura Canary Corps": ("Far", 5)}
CANARY_HQ = "Canary Host HQ"


def _corps(name: str, start: str, brigades: int) -> Corps:
    return Corps(name=name, army="Canary Host", nationality="Prussian",
                 commander=Commander(f"Graf {name.split()[0]}", Grade.AVERAGE), start=start,
                 infantry=tuple(InfantryBrigade(i, Rating.B, Rating.B, Rating.B)
                                for i in range(1, brigades + 1)),
                 cavalry=CavalryBrigade(brigades + 1, Rating.B, CavalryType.LIGHT),
                 artillery=Artillery(Rating.B, 8))


def canary_scenario(**settings: object) -> Scenario:
    """The canaries' campaign; fog on unless a setting says otherwise."""
    host = ArmyGroup(name="Canary Host", side=Side.ALLIED,
                     theatre=army("x", Side.ALLIED, "East", {}).theatre,
                     cinc=Commander("Fürst Canary", Grade.GIFTED), hq="East",
                     reserve=Commander("Baron Canary", Grade.POOR),
                     corps=tuple(_corps(n, t, b) for n, (t, b) in CANARY_CORPS.items()))
    french = army("Armée", Side.FRENCH, "West", {"1 Corps": "T1", "2 Corps": "T2"})
    return scenario(TOWNS, [*line(LINE), road("East", "Far", 100)], [french, host],
                    **({"fog": True} | settings))


@dataclass(frozen=True)
class Canary:
    """A secret of the Allies and the word that would betray it."""

    secret: str
    pattern: re.Pattern[str]


def canaries(state: DayState) -> list[Canary]:
    """The Allied names and exact strengths: every one a secret until a report tells it."""
    out = [Canary(n, re.compile(re.escape(n))) for n in (*CANARY_CORPS, CANARY_HQ)]
    for _name, (_town, brigades) in CANARY_CORPS.items():
        men = 5000 * brigades + 2000
        out.append(Canary(f"{men:,} men", re.compile(rf"(?<![\d,]){men:,}(?![\d,])")))
    out += [Canary(g, re.compile(g)) for g in ("Graf Vexillum", "Fürst Canary",
                                               "Baron Canary")]
    return out


def told(state: DayState, side: Side = Side.FRENCH) -> set[str]:
    """The secrets a side has been told, read from the umpire's own reports (the oracle)."""
    out = set()
    for r in state.reports.values():
        if r.side != side.value or not r.released or r.known_day > state.date:
            continue
        if r.identity:
            out.add(r.subject)
        if r.band.value == "exact":
            out.add(f"{r.men:,} men")
    return out


def french_outputs(view: SideView, extra: dict[str, str] | None = None) -> dict[str, str]:
    """Every French output built from the view, by name, as text."""
    scene = "\n".join(f"{i.label}\n{i.tooltip}" for i in view.map_items)
    table = "\n".join(" | ".join(row) for row in view.table)
    return {"map scene": scene, "table": table, "situation report": view_text(view),
            "json": json.dumps(view_json(view), ensure_ascii=False),
            "orders of battle": "\n".join((*view.own_oob, *view.enemy_oob)),
            "diary": "\n".join(view.diary), "day's report": "\n".join(view.day_report),
            **(extra or {})}


def leaks(state: DayState, outputs: dict[str, str]) -> list[str]:
    """Every secret not told that an output shows, as ``output: secret``."""
    known = told(state)
    return [f"{where}: {c.secret}" for c in canaries(state) if c.secret not in known
            for where, text in outputs.items() if c.pattern.search(text)]
