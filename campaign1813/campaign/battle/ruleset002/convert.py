"""The campaign's corps as seed 002's units: a documented mapping from a ``BattleSetup``.

* Every brigade or battery is one unit (the seed bases units singly). Infantry of class A are
  elite infantry (Guards or Grenadiers); other infantry with skirmish rating A are skirmishers
  (light infantry); the rest are line infantry. Cavalry brigades are cavalry, batteries
  artillery.
* Hits brought to the battle: two per casualty the brigade brings, never past the hits that
  would eliminate it.
* Seed 002 has no commander grades; grades only choose who takes the field. A side's CinC is its
  General (without one, its best-graded corps commander is). Commanders are allowed one for
  every 4 units, at most 3: corps commanders first, then reserve commanders, the better grade
  first, each attached to an elite, else a line infantry unit of his own command (else any of
  his side's not yet taken).

>>> from campaign1813.campaign.battle.terms import Arm, Rating
>>> kind_of(Arm.INFANTRY, Rating.A, Rating.B), kind_of(Arm.INFANTRY, Rating.B, Rating.A)
(<UnitKind.ELITE: 'elite'>, <UnitKind.SKIRMISHERS: 'skirmishers'>)
"""

from __future__ import annotations

from dataclasses import dataclass

from campaign1813.campaign.battle.ruleset002 import RULESET
from campaign1813.campaign.battle.ruleset002.tables import tables
from campaign1813.campaign.battle.ruleset002.units import INFANTRY_KINDS, UnitKind
from campaign1813.campaign.battle.setup import ALLIED, FRENCH, BattleSetup, InvalidSetup
from campaign1813.campaign.battle.terms import Arm, Grade, Rating, Role

__all__ = ["Unit", "Leader", "Army", "convert", "kind_of", "mapping_rows", "HITS_PER_CASUALTY",
           "SIDES"]

HITS_PER_CASUALTY = 2
SIDES = (FRENCH, ALLIED)
_GRADE_ORDER = {Grade.GIFTED: 0, Grade.AVERAGE: 1, Grade.POOR: 2}


@dataclass(frozen=True)
class Unit:
    """One unit of seed 002 on the table, from one brigade or battery of the campaign."""

    key: str
    name: str
    side: str
    kind: UnitKind
    hits: int
    corps: str
    why: str


@dataclass(frozen=True)
class Leader:
    """A corps or division commander (attached to a unit), or a side's General."""

    key: str
    name: str
    side: str
    general: bool
    unit: str
    why: str


@dataclass(frozen=True)
class Army:
    """Both sides in seed 002's terms: units, commanders and Generals, in setup order."""

    units: tuple[Unit, ...]
    leaders: tuple[Leader, ...]
    left_out: tuple[tuple[str, str], ...]
    """Commanders not on the table and why."""

    def unit(self, key: str) -> Unit:
        """A unit by key."""
        for u in self.units:
            if u.key == key:
                return u
        raise InvalidSetup(f"there is no unit '{key}' in this battle")

    def side_units(self, side: str) -> tuple[Unit, ...]:
        """One side's units."""
        return tuple(u for u in self.units if u.side == side)

    def general(self, side: str) -> Leader:
        """One side's General."""
        return next(x for x in self.leaders if x.side == side and x.general)

    def commanders(self, side: str) -> tuple[Leader, ...]:
        """One side's corps or division commanders on the table."""
        return tuple(x for x in self.leaders if x.side == side and not x.general)


def kind_of(arm: Arm, rating: Rating, skirmish: Rating) -> UnitKind:
    """The unit type a brigade becomes."""
    if arm is Arm.CAVALRY:
        return UnitKind.CAVALRY
    if arm is Arm.ARTILLERY:
        return UnitKind.ARTILLERY
    if rating is Rating.A:
        return UnitKind.ELITE
    return UnitKind.SKIRMISHERS if skirmish is Rating.A else UnitKind.INFANTRY


def _why(kind: UnitKind) -> str:
    return {UnitKind.ELITE: "class A infantry: Guards or Grenadiers",
            UnitKind.SKIRMISHERS: "skirmish A infantry: light infantry",
            UnitKind.INFANTRY: "line infantry",
            UnitKind.CAVALRY: "cavalry brigade", UnitKind.ARTILLERY: "battery"}[kind]


def convert(setup: BattleSetup, ruleset: str = RULESET) -> Army:
    """Both sides of a battle setup as seed 002's units, commanders and Generals."""
    t = tables(ruleset)
    units: list[Unit] = []
    for corps in setup.corps:
        for b in setup.corps_brigades(corps.key):
            kind = kind_of(b.arm, b.rating, b.skirmish)
            limit = t.units[kind].eliminated_over
            hits = min(limit, HITS_PER_CASUALTY * b.casualties)
            name = b.name if b.name.startswith(b.corps) else f"{b.name} ({b.corps})"
            units.append(Unit(b.key, name, corps.side, kind, hits, corps.key, _why(kind)))
    leaders: list[Leader] = []
    left: list[tuple[str, str]] = []
    for side in SIDES:
        mine = [u for u in units if u.side == side]
        if not mine:
            raise InvalidSetup(f"{setup.title}: the {side} side has no units")
        people = [c for c in setup.commanders if c.side == side]
        cinc = next((c for c in people if c.role is Role.CINC), None)
        others = sorted((c for c in people if c.role is not Role.CINC),
                        key=lambda c: (c.role is not Role.CORPS, _GRADE_ORDER[c.grade]))
        if cinc is None and not others:
            raise InvalidSetup(f"{setup.title}: the {side} side has no commander to be its "
                               "General")
        general = cinc or others.pop(0)
        leaders.append(Leader(general.key, general.name, side, True, "",
                              "CinC" if cinc else "no CinC: the best-graded corps commander"))
        allowed = min(t.commanders_most, len(mine) // t.units_per_commander)
        taken: set[str] = set()
        for c in others:
            if len(taken) >= allowed:
                left.append((c.name, f"{side}: {allowed} commander"
                                     f"{'s' if allowed != 1 else ''} allowed for {len(mine)} "
                                     f"units (one per {t.units_per_commander}, at most "
                                     f"{t.commanders_most})"))
                continue
            unit = _unit_for(setup, c.key, mine, taken)
            if unit is None:
                left.append((c.name, f"{side}: no infantry unit left to attach him to"))
                continue
            taken.add(unit.key)
            leaders.append(Leader(c.key, c.name, side, False, unit.key,
                                  f"{c.role.value} ({c.grade.value}), attached to {unit.name}"))
    return Army(tuple(units), tuple(leaders), tuple(left))


def _unit_for(setup: BattleSetup, commander: str, mine: list[Unit],
              taken: set[str]) -> Unit | None:
    own = {k for c in setup.corps if c.commander == commander for k in c.brigades}
    free = [u for u in mine if u.kind in INFANTRY_KINDS and u.key not in taken]
    for pool in ([u for u in free if u.key in own], free):
        for kind in (UnitKind.ELITE, UnitKind.INFANTRY):
            for u in pool:
                if u.kind is kind:
                    return u
    return None


def mapping_rows(setup: BattleSetup, ruleset: str = RULESET) -> list[tuple[str, str, str, str]]:
    """The mapping as rows for the setup page: (campaign, as fought, seed 002 unit, why)."""
    army = convert(setup, ruleset)
    t = tables(ruleset)
    rows: list[tuple[str, str, str, str]] = []
    for u in army.units:
        b = setup.brigade(u.key)
        was = f"{b.arm.value}, class {b.rating.value}"
        if b.arm is Arm.INFANTRY:
            was += f", skirmish {b.skirmish.value}"
        if b.casualties:
            was += f", {b.casualties} casualties"
        unit = t.units[u.kind].label + (f", {u.hits} hits" if u.hits else "")
        rows.append((u.name, was, unit, u.why))
    for x in army.leaders:
        grade = setup.commander(x.key).grade.value
        rows.append((x.name, f"{setup.commander(x.key).role.value}, {grade}",
                     "General" if x.general else "commander", x.why))
    for name, why in army.left_out:
        rows.append((name, "commander", "not on the table", why))
    return rows
