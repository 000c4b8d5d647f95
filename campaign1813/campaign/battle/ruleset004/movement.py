"""Movement in ruleset 004: full moves, what wheels, about-turns and changes cost, the variation
die, moving and firing, and the dice for the right to move first.

>>> str(allowance(Kind.FOOT, firing_order=True).distance_cm)
'6'
>>> variation_odds(Fraction(12))
{Fraction(9, 1): Fraction(1, 6), Fraction(12, 1): Fraction(2, 3), Fraction(15, 1): Fraction(1, 6)}
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from campaign1813.campaign.battle.core.steps import ActionRefused
from campaign1813.campaign.battle.dice import DiceSource, Roll
from campaign1813.campaign.battle.ruleset004.pools import SIDES, roll_die
from campaign1813.campaign.battle.ruleset004.tables import National, Tables, tables
from campaign1813.campaign.battle.ruleset004.units import Kind

__all__ = ["Allowance", "full_move", "allowance", "needs_variation", "variation_odds",
           "roll_variation", "may_move_and_fire", "first_move_odds", "roll_first_move"]


@dataclass(frozen=True)
class Allowance:
    """The distance a unit may move this turn, and what it was reduced for."""

    distance_cm: Fraction
    notes: tuple[str, ...] = ()


def full_move(kind: Kind, firing_order: bool = False, t: Tables | None = None) -> Fraction:
    """A unit's full move in centimetres."""
    t = t or tables()
    d = t.movement.distance_cm
    if kind is Kind.FOOT:
        return d["foot_firing_order" if firing_order else "foot"]
    return d[{Kind.LIGHT_FOOT: "light_foot", Kind.GUNS: "guns", Kind.HEAVY_HORSE: "heavy_horse",
              Kind.LANCERS: "lancers", Kind.LIGHT_HORSE: "light_horse",
              Kind.GENERAL: "general"}[kind]]


def allowance(kind: Kind, *, firing_order: bool = False, wheel_degrees: int = 0,
              about_turns: int = 0, changes: str = "", fires: bool = False,
              national: National | None = None, t: Tables | None = None) -> Allowance:
    """What is left of a full move after wheels, about-turns, a change of order and firing.

    ``changes`` is "firing order" (foot forming into firing order) or "limber" (guns limbering
    or unlimbering); each takes the turn.
    """
    t = t or tables()
    m = t.movement
    full = full_move(kind, firing_order, t)
    used = Fraction(0)
    notes: list[str] = []
    if changes == "firing order":
        if kind is not Kind.FOOT:
            raise ActionRefused(f"{kind} have no firing order to form")
        used += m.foot_into_firing_order
        notes.append("forming into firing order takes the turn")
    elif changes == "limber":
        if kind is not Kind.GUNS:
            raise ActionRefused(f"{kind} do not limber")
        used += m.limber_or_unlimber
        notes.append("limbering or unlimbering takes the turn (pivoting included)")
    elif changes:
        raise ActionRefused(f"'{changes}' is not a change of order (firing order, limber)")
    if wheel_degrees < 0 or about_turns < 0:
        raise ActionRefused("wheels and about-turns are counted from 0")
    horse_cost = national.horse_wheel_costs if national and kind.horse else None
    if wheel_degrees and horse_cost is not None:
        used += horse_cost
        notes.append(f"{national.label if national else ''} horse: all wheeling costs "
                     f"{horse_cost} of the move")
    elif wheel_degrees > m.free_wheel_degrees and not (
            national and national.foot_wheel_free and kind.foot):
        used += m.wheel_beyond_costs
        notes.append(f"a wheel beyond {m.free_wheel_degrees} degrees costs "
                     f"{m.wheel_beyond_costs} of the turn")
    if about_turns > 1:
        used += m.second_about_turn_costs * (about_turns - 1)
        notes.append(f"each about-turn after the first costs {m.second_about_turn_costs} of "
                     "the move")
    if fires:
        if not may_move_and_fire(kind):
            raise ActionRefused(f"{kind} may not move and fire in the same turn (only light "
                                "troops may; troops fired at may return fire with -1)")
        used += 1 - m.light_move_and_fire
        notes.append(f"light troops firing make {m.light_move_and_fire} a move")
    return Allowance(max(Fraction(0), full * (1 - used)), tuple(notes))


def may_move_and_fire(kind: Kind) -> bool:
    """Light foot and light horse (not lancers, who do not fire) may half move and fire."""
    return kind in (Kind.LIGHT_FOOT, Kind.LIGHT_HORSE)


def needs_variation(moved_cm: Fraction, full_cm: Fraction, t: Tables | None = None) -> bool:
    """Whether a move of this length is diced for: the full distance or within 25 % of it."""
    t = t or tables()
    return moved_cm >= full_cm * (1 - t.movement.within_share)


def variation_odds(distance_cm: Fraction, t: Tables | None = None) -> dict[Fraction, Fraction]:
    """The exact chance of each distance a move of ``distance_cm`` ends up covering."""
    t = t or tables()
    out: dict[Fraction, Fraction] = {}
    for _face, share in sorted(t.movement.variation.items()):
        d = distance_cm * (1 + share)
        out[d] = out.get(d, Fraction(0)) + Fraction(1, SIDES)
    return dict(sorted(out.items()))


def roll_variation(name: str, distance_cm: Fraction, dice: DiceSource,
                   t: Tables | None = None) -> tuple[Fraction, Roll]:
    """Roll the variation die for a move: the distance covered and the roll."""
    t = t or tables()
    roll = roll_die(dice, f"{name} movement variation")
    return distance_cm * (1 + t.movement.variation[roll.total]), roll


def first_move_odds() -> dict[str, Fraction]:
    """Each side's chance of moving first: one d6 each, a tie rolled again, so even."""
    return {"first": Fraction(1, 2), "second": Fraction(1, 2)}


def roll_first_move(sides: tuple[str, str], dice: DiceSource, limit: int = 20
                    ) -> tuple[str, tuple[Roll, ...]]:
    """Dice for the right to move first: the side rolling higher; ties are rolled again."""
    rolls: list[Roll] = []
    for _ in range(limit):
        a = roll_die(dice, f"{sides[0]} dice for the first move")
        b = roll_die(dice, f"{sides[1]} dice for the first move")
        rolls += [a, b]
        if a.total != b.total:
            return (sides[0] if a.total > b.total else sides[1]), tuple(rolls)
    raise ActionRefused(f"{limit} ties in a row for the first move; roll again")
