"""Cavalry charges (seed 002, "Charges"): 1D6+2 hits, halved on a hill or against cavalry,
doubled in flank or rear or against skirmishers; guns are overrun unless infantry stand by.

The modifiers apply to the whole 1D6+2 in the order the table lists them (halvings first, then
doublings), each halving rounding up. :func:`charge_odds` gives the exact chance of each number
of hits, :func:`charge_hits` the hits of a face, :func:`charge` rolls.

>>> charge_odds(Charge(UnitKind.CAVALRY)).hits
{2: Fraction(1, 3), 3: Fraction(1, 3), 4: Fraction(1, 3)}
>>> charge_hits(Charge(UnitKind.SKIRMISHERS, hill=True), 5)
8
>>> charge_odds(Charge(UnitKind.ARTILLERY)).overrun
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from campaign1813.campaign.battle.core.steps import ActionRefused, roll_for
from campaign1813.campaign.battle.dice import DiceSource, Roll
from campaign1813.campaign.battle.ruleset002 import RULESET
from campaign1813.campaign.battle.ruleset002.shooting import halve_up
from campaign1813.campaign.battle.ruleset002.tables import ChargeModifier, tables
from campaign1813.campaign.battle.ruleset002.units import UnitKind

__all__ = ["Charge", "ChargeOdds", "ChargeResult", "check_charge", "applying", "charge_hits",
           "charge_odds", "charge", "elimination_chance"]


@dataclass(frozen=True)
class Charge:
    """A cavalry charge at a target, with what the table knows about the target."""

    target: UnitKind
    hill: bool = False
    """The target occupies a hill."""
    flank_or_rear: bool = False
    """The target is attacked in its flank or rear."""
    cover: bool = False
    """The target is in cover (buildings, woods, an entrenchment): it cannot be charged."""
    infantry_near: bool = False
    """Infantry or elite infantry stand within 3 inches of a target battery."""
    charged_before: int = 0
    """How often the target has been charged already this turn."""
    retired: bool = False
    """The charging cavalry retired from a shot this turn."""
    inches: Fraction | None = None
    """How far the cavalry move into contact, when the umpire gives it."""
    turn_degrees: int | None = None
    """How far the cavalry turn at the start of the charge, when the umpire gives it."""


@dataclass(frozen=True)
class ChargeOdds:
    """The odds of a charge: the chance of each number of hits, or guns overrun outright."""

    hits: dict[int, Fraction]
    overrun: bool
    modifiers: tuple[ChargeModifier, ...]


@dataclass(frozen=True)
class ChargeResult:
    """A charge made: the face, the hits inflicted, whether guns were overrun."""

    charge: Charge
    face: int | None
    hits: int
    overrun: bool
    rolls: tuple[Roll, ...]


def check_charge(c: Charge, ruleset: str = RULESET) -> None:
    """Refuse a charge the rules do not allow, naming the reason."""
    t = tables(ruleset)
    if c.retired:
        raise ActionRefused(f"cavalry that retired {t.retire_inches} inches from shooting may "
                            "not charge this turn")
    if c.cover:
        raise ActionRefused("cavalry cannot charge units in cover (buildings, woods or "
                            "entrenchments)")
    if c.charged_before >= t.charges_per_target:
        raise ActionRefused(f"the target has been charged {c.charged_before} time"
                            f"{'s' if c.charged_before != 1 else ''} this turn (at most "
                            f"{t.charges_per_target})")
    if c.inches is not None and c.inches > t.charge_inches:
        raise ActionRefused(f"a charge moves {t.charge_inches} inches into contact; the target "
                            f"is {c.inches} inches away")
    if c.turn_degrees is not None and not 0 <= c.turn_degrees <= t.charge_turn:
        raise ActionRefused(f"charging cavalry may turn once, at most {t.charge_turn} degrees, "
                            f"not {c.turn_degrees}")
    if c.infantry_near and c.target is not UnitKind.ARTILLERY:
        raise ActionRefused(f"infantry within {t.artillery_support} inches count only for "
                            f"artillery charged, not {c.target.label}")
    if c.target is UnitKind.ARTILLERY and c.infantry_near:
        raise ActionRefused(f"artillery within {t.artillery_support} inches of infantry or "
                            "elite infantry cannot be charged")


def applying(c: Charge, ruleset: str = RULESET) -> tuple[ChargeModifier, ...]:
    """The charge modifiers that apply, in the order they are applied."""
    facts = {"hill": c.hill, "cavalry": c.target is UnitKind.CAVALRY,
             "flank_or_rear": c.flank_or_rear, "skirmishers": c.target is UnitKind.SKIRMISHERS}
    return tuple(m for m in tables(ruleset).charge_modifiers if facts[m.key])


def _hits(base: int, mods: tuple[ChargeModifier, ...]) -> int:
    for m in mods:
        base = halve_up(base) if m.effect == "halve" else base * 2
    return base


def charge_hits(c: Charge, face: int, ruleset: str = RULESET) -> int:
    """The hits of a charge whose D6 shows ``face`` (not for guns, which are overrun)."""
    check_charge(c, ruleset)
    if c.target is UnitKind.ARTILLERY:
        raise ActionRefused("a charge on artillery rolls no die: the guns are eliminated")
    t = tables(ruleset)
    if face not in t.charge_die.faces:
        raise ActionRefused(f"{face} is not a face of the {t.charge_die.name}")
    return _hits(face + t.charge_add, applying(c, ruleset))


def charge_odds(c: Charge, ruleset: str = RULESET) -> ChargeOdds:
    """The exact odds of a charge."""
    check_charge(c, ruleset)
    t = tables(ruleset)
    mods = applying(c, ruleset)
    if c.target is UnitKind.ARTILLERY:
        return ChargeOdds({}, True, mods)
    chance = Fraction(1, len(t.charge_die.faces))
    hits: dict[int, Fraction] = {}
    for face in t.charge_die.faces:
        h = _hits(face + t.charge_add, mods)
        hits[h] = hits.get(h, Fraction(0)) + chance
    return ChargeOdds(dict(sorted(hits.items())), False, mods)


def elimination_chance(hits: dict[int, Fraction], limit: int, hits_now: int) -> Fraction:
    """The chance that a unit with ``hits_now`` passes ``limit`` hits from these odds."""
    return sum((p for h, p in hits.items() if hits_now + h > limit), Fraction(0))


def charge(c: Charge, dice: DiceSource, who: str = "", ruleset: str = RULESET) -> ChargeResult:
    """Make the charge: roll 1D6 (none against guns) and give the hits."""
    check_charge(c, ruleset)
    if c.target is UnitKind.ARTILLERY:
        return ChargeResult(c, None, 0, True, ())
    t = tables(ruleset)
    roll = roll_for(dice, t.charge_die, 1, f"charge by {who or 'cavalry'}")
    return ChargeResult(c, roll.total, charge_hits(c, roll.total, ruleset), False, (roll,))
