"""The campaign's corps as ruleset 004's units: each brigade or battery one unit, each army one
general, commander grades and brigade ratings as elite, regular or poor.

The mapping, shown on the setup page by :func:`mapping_rows`:

- infantry → foot (close order, in firing order), or light foot when its skirmish grade is A;
- cavalry → lancers if lancers; heavy cavalry → heavy horse (cuirassiers when rated A); medium
  cavalry → heavy horse; light cavalry → light horse; a battery → guns;
- quality: the corps commander's grade gives it (Gifted elite, Average regular, Poor poor); a
  brigade rated A is one better, C one worse, never above elite nor below poor;
- casualties brought from the campaign (when the battle carries them) become steps lost: the
  share of the 1813 rout point, rounded half up, never the last step;
- each army has one general: its CinC, or failing one its best-graded corps commander (the first
  listed on a tie); he counts as a unit and rides where the umpire attaches him.

>>> from campaign1813.campaign.battle.terms import Grade, Rating
>>> quality_of(Grade.AVERAGE, Rating.A), quality_of(Grade.POOR, Rating.C)
(<Quality.ELITE: 'elite'>, <Quality.POOR: 'poor'>)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from campaign1813.campaign.battle.ruleset004.tables import tables
from campaign1813.campaign.battle.ruleset004.units import FULL_STEPS, Kind, Quality, Unit
from campaign1813.campaign.battle.setup import (
    ALLIED,
    FRENCH,
    BattleSetup,
    BrigadeSetup,
    CommanderSetup,
    campaign_rout_point,
)
from campaign1813.campaign.battle.terms import Arm, CavalryWeight, Grade, Rating, Role
from campaign1813.campaign.errors import CampaignError

__all__ = ["Army", "Forces", "convert", "mapping_rows", "quality_of", "kind_of",
           "MAPPING_HEADERS", "general_key", "general_of"]

SIDES = (FRENCH, ALLIED)
_ORDER = (Quality.POOR, Quality.REGULAR, Quality.ELITE)
_BY_GRADE = {Grade.GIFTED: Quality.ELITE, Grade.AVERAGE: Quality.REGULAR,
             Grade.POOR: Quality.POOR}
_GRADE_RANK = {Grade.GIFTED: 0, Grade.AVERAGE: 1, Grade.POOR: 2}
MAPPING_HEADERS = ("Brigade", "Corps", "Campaign", "Unit", "Quality", "Effectiveness", "Why")


@dataclass(frozen=True)
class Army:
    """One side's units at the start, its general among them."""

    side: str
    general: str
    units: tuple[Unit, ...]


@dataclass(frozen=True)
class Forces:
    """Both armies as ruleset 004 fights them."""

    french: Army
    allied: Army

    def army(self, side: str) -> Army:
        """One side's army."""
        return self.french if side == FRENCH else self.allied

    @property
    def units(self) -> tuple[Unit, ...]:
        """Every unit of both sides."""
        return self.french.units + self.allied.units

    def unit(self, key: str) -> Unit:
        """A unit by key; a CampaignError naming it if the battle has none such."""
        for u in self.units:
            if u.key == key:
                return u
        raise CampaignError(f"there is no unit '{key}' in this battle")


def quality_of(grade: Grade, rating: Rating) -> Quality:
    """A unit's quality: its commander's grade, one better for an A brigade, worse for C."""
    base = _ORDER.index(_BY_GRADE[grade])
    shift = {Rating.A: 1, Rating.B: 0, Rating.C: -1}[rating]
    return _ORDER[max(0, min(len(_ORDER) - 1, base + shift))]


def kind_of(b: BrigadeSetup) -> tuple[Kind, bool, str]:
    """A brigade's kind of unit, whether cuirassiers, and the reason, by the mapping."""
    if b.arm is Arm.ARTILLERY:
        return Kind.GUNS, False, "a battery is guns"
    if b.arm is Arm.INFANTRY:
        if b.skirmish is Rating.A:
            return Kind.LIGHT_FOOT, False, "infantry with skirmish grade A is light foot"
        return Kind.FOOT, False, "infantry is close-order foot in firing order"
    if b.lancers:
        return Kind.LANCERS, False, "lancers"
    if b.cavalry is CavalryWeight.HEAVY:
        if b.rating is Rating.A:
            return Kind.HEAVY_HORSE, True, "heavy cavalry rated A are cuirassiers"
        return Kind.HEAVY_HORSE, False, "heavy cavalry is heavy horse"
    if b.cavalry is CavalryWeight.MEDIUM:
        return Kind.HEAVY_HORSE, False, "medium cavalry is battle cavalry: heavy horse"
    return Kind.LIGHT_HORSE, False, "light cavalry is light horse"


def _steps(setup: BattleSetup, b: BrigadeSetup) -> int:
    if not setup.carry_casualties or b.casualties <= 0:
        return FULL_STEPS
    lost = int(Fraction(b.casualties * FULL_STEPS, campaign_rout_point(b.arm)) + Fraction(1, 2))
    return max(1, FULL_STEPS - lost)


def _commander_of(setup: BattleSetup, b: BrigadeSetup) -> CommanderSetup:
    return setup.commander(setup.corps_of(b.corps).commander)


def general_key(side: str) -> str:
    """The key of a side's general among its units."""
    return f"{side} general"


def general_of(setup: BattleSetup, side: str) -> CommanderSetup:
    """The commander who is a side's general: its CinC, else its best-graded corps commander."""
    return _general(setup, side)


def _general(setup: BattleSetup, side: str) -> CommanderSetup:
    mine = [c for c in setup.commanders if c.side == side]
    cinc = [c for c in mine if c.role is Role.CINC]
    if cinc:
        return cinc[0]
    if not mine:
        raise CampaignError(f"{setup.title}: the {side} army has no commander to be its general")
    return min(mine, key=lambda c: _GRADE_RANK[c.grade])


def _national(b: BrigadeSetup, national: Mapping[str, str]) -> str:
    key = national.get(b.nation, "")
    if key and key not in tables().national:
        known = ", ".join(sorted(tables().national)) or "none"
        raise CampaignError(f"no national characteristics called '{key}' (known: {known})")
    return key


def convert(setup: BattleSetup, national: Mapping[str, str] | None = None) -> Forces:
    """The setup's brigades and commanders as ruleset 004's armies.

    ``national`` gives a nation (as the brigades name it) a set of national characteristics
    from ``national.toml`` for this battle, e.g. ``{"Prussian": "mollwitz_prussian"}``.
    """
    national = national or {}
    names = [b.name for b in setup.brigades]
    armies = []
    for side in SIDES:
        units = []
        for corps in setup.side_corps(side):
            for b in setup.corps_brigades(corps.key):
                kind, cuirassiers, _why = kind_of(b)
                quality = quality_of(_commander_of(setup, b).grade, b.rating)
                # A name both armies use is told apart by its corps, as the report needs.
                name = b.name if names.count(b.name) == 1 else f"{b.name} ({b.corps})"
                units.append(Unit(b.key, name, side, kind, quality, _steps(setup, b),
                                  cuirassiers, national=_national(b, national)))
        g = _general(setup, side)
        units.append(Unit(general_key(side), g.name, side, Kind.GENERAL,
                          _BY_GRADE[g.grade]))
        armies.append(Army(side, general_key(side), tuple(units)))
    return Forces(armies[0], armies[1])


def mapping_rows(setup: BattleSetup) -> list[tuple[str, ...]]:
    """The mapping as rows for the setup page (headers in :data:`MAPPING_HEADERS`)."""
    forces = convert(setup)
    rows: list[tuple[str, ...]] = []
    for b in setup.brigades:
        unit = forces.unit(b.key)
        kind, _c, why = kind_of(b)
        grade = _commander_of(setup, b).grade
        campaign = f"{b.arm} {b.rating}" + (f" ({b.cavalry})" if b.cavalry else "") + (
            " lancers" if b.lancers else "") + (f", {b.casualties} casualties"
                                                if b.casualties else "")
        unit_text = str(unit.kind) + (" (cuirassiers)" if unit.cuirassiers else "")
        rows.append((b.name, b.corps, campaign, unit_text, str(unit.quality),
                     f"{unit.percent} %", f"{why}; {grade} commander, rated {b.rating}"))
    for side in SIDES:
        g = _general(setup, side)
        rows.append((g.name, side, f"{g.role}, {g.grade}", "general",
                     str(_BY_GRADE[g.grade]), "—", "the army's general: one unit"))
    return rows
