"""Melee in ruleset 004: who may charge whom, the dice matrix with half dice, and who retreats.

Each unit throws dice per 25 % step from the matrix (its own kind in the row, the enemy's in the
column), plus one die a step in flank or rear, on higher ground or defending a river bank or
built-up area; a half die is full on 4-6. Each die hits on 4-6 (Prussian horse at Mollwitz 5-6),
cover saves on 4-6 and cuirassiers on 6. The unit suffering more hits, those of the turn's firing
included, retreats; a tie fights another round next turn. Guns in a melee are eliminated.

>>> lancers = Fighter(Kind.LANCERS, 3)
>>> str(melee_pool(lancers, Fighter(Kind.FOOT, 4)))
'4½ dice'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from campaign1813.campaign.battle.core.steps import ActionRefused
from campaign1813.campaign.battle.dice import DiceSource, Roll
from campaign1813.campaign.battle.ruleset004.pools import (
    Distribution,
    Pool,
    hits,
    roll_hits,
    roll_saves,
    roll_thrown,
    saved,
)
from campaign1813.campaign.battle.ruleset004.tables import Tables, tables
from campaign1813.campaign.battle.ruleset004.units import Kind

__all__ = ["Fighter", "Verdict", "MeleeOdds", "MeleeResult", "column", "row", "melee_pool",
           "melee_save", "may_charge", "melee_odds", "melee"]


class Verdict(StrEnum):
    """How a round of melee ends for the attacker and the defender."""

    ATTACKER_RETREATS = "attacker retreats"
    DEFENDER_RETREATS = "defender retreats"
    ANOTHER_ROUND = "another round next turn"
    GUNS_ELIMINATED = "guns eliminated"


@dataclass(frozen=True)
class Fighter:
    """A unit in a melee: its kind and steps, and what of its ground and order counts."""

    kind: Kind
    steps: int
    firing_order: bool = True
    frontal: bool = True
    in_wood: bool = False
    extra: bool = False
    cover: bool = False
    cuirassiers: bool = False
    hits_on: int | None = None
    fired_hits: int = 0


@dataclass(frozen=True)
class MeleeOdds:
    """The exact odds of a round of melee: each side's dice, hits suffered, and the verdict."""

    attacker_pool: Pool
    defender_pool: Pool
    attacker_suffers: Distribution
    defender_suffers: Distribution
    verdict: dict[Verdict, Fraction]


@dataclass(frozen=True)
class MeleeResult:
    """A round fought: hits each side suffered (firing included), the verdict, rolls, lines."""

    attacker_hits: int
    defender_hits: int
    verdict: Verdict
    rolls: tuple[Roll, ...]
    lines: tuple[str, ...]


def column(enemy: Fighter) -> str | None:
    """The matrix column the enemy is read in; None for guns and a general (no column)."""
    k = enemy.kind
    if k is Kind.HEAVY_HORSE:
        return "heavy_horse"
    if k is Kind.LANCERS:
        return "lancers"
    if k is Kind.LIGHT_HORSE:
        return "light_horse"
    if k is Kind.FOOT:
        return "foot_firing_order" if enemy.firing_order and enemy.frontal else "foot"
    if k is Kind.LIGHT_FOOT:
        return "foot" if enemy.in_wood else "light_foot"
    return None


def row(own: Fighter) -> str | None:
    """The matrix row a unit throws from; None for those that never inflict casualties."""
    k = own.kind
    if k in (Kind.HEAVY_HORSE, Kind.LANCERS, Kind.LIGHT_HORSE, Kind.FOOT):
        return {Kind.HEAVY_HORSE: "heavy_horse", Kind.LANCERS: "lancers",
                Kind.LIGHT_HORSE: "light_horse", Kind.FOOT: "foot"}[k]
    if k is Kind.LIGHT_FOOT and own.in_wood:
        return "foot"
    return None


def melee_pool(own: Fighter, enemy: Fighter, t: Tables | None = None) -> Pool:
    """The dice a unit throws against this enemy: matrix entry and extra dice per step."""
    t = t or tables()
    r, c = row(own), column(enemy)
    if r is None or c is None or own.steps < 1:
        return Pool(0)
    per_step = t.melee.dice[r][c] + (t.melee.extra_dice_per_step if own.extra else 0)
    return Pool.of(per_step * own.steps)


def melee_save(f: Fighter, t: Tables) -> int | None:
    """A unit's saving throw in melee: the better of cover and cuirassiers, or none."""
    options = [t.melee.saves["cover"]] if f.cover else []
    if f.cuirassiers and f.kind is not Kind.HEAVY_HORSE:
        raise ActionRefused(f"{f.kind} are not cuirassiers: only heavy horse may be")
    if f.cuirassiers:
        options.append(t.melee.saves["cuirassiers"])
    return min(options) if options else None


def may_charge(attacker: Fighter, defender: Fighter, *, foot_near_gun_cm: Fraction | None = None,
               wheel_degrees: int = 0, t: Tables | None = None) -> None:
    """Refuse a charge the seed forbids, naming who and why; a charge allowed returns None."""
    t = t or tables()
    a, d = attacker.kind, defender.kind
    if a is Kind.GUNS or (a is Kind.LIGHT_FOOT and not attacker.in_wood):
        raise ActionRefused(f"{a} never charge")
    if a is Kind.GENERAL:
        raise ActionRefused("a general does not charge on his own; attach him to a unit")
    if d is Kind.GENERAL:
        raise ActionRefused("a general is not charged on his own; he falls with his unit")
    if a.foot and d.horse:
        raise ActionRefused(f"{a} may not charge horse")
    if d is Kind.GUNS and foot_near_gun_cm is not None and \
            foot_near_gun_cm <= t.melee.gun_clear_of_foot_cm:
        raise ActionRefused(f"the guns have close-order foot within "
                            f"{t.melee.gun_clear_of_foot_cm} cm ({foot_near_gun_cm} cm) and "
                            "may not be charged")
    if wheel_degrees > t.movement.free_wheel_degrees:
        raise ActionRefused(f"a charge may wheel no more than {t.movement.free_wheel_degrees} "
                            f"degrees, not {wheel_degrees}")


def _need(f: Fighter, t: Tables) -> int:
    return f.hits_on if f.hits_on is not None else t.melee.hits_on


def melee_odds(attacker: Fighter, defender: Fighter, t: Tables | None = None) -> MeleeOdds:
    """The exact odds of one round of melee."""
    t = t or tables()
    pa, pd = melee_pool(attacker, defender, t), melee_pool(defender, attacker, t)
    full_on = t.fire.half_full_on
    # Hits each side suffers: the other's dice, then its own saves, then the turn's firing.
    on_d = saved(hits(pa, _need(attacker, t), 0, full_on), melee_save(defender, t))
    on_a = saved(hits(pd, _need(defender, t), 0, full_on), melee_save(attacker, t))
    on_a = {n + attacker.fired_hits: p for n, p in on_a.items()}
    on_d = {n + defender.fired_hits: p for n, p in on_d.items()}
    if Kind.GUNS in (attacker.kind, defender.kind):
        return MeleeOdds(pa, pd, on_a, on_d, {Verdict.GUNS_ELIMINATED: Fraction(1)})
    verdict = dict.fromkeys((Verdict.ATTACKER_RETREATS, Verdict.DEFENDER_RETREATS,
                             Verdict.ANOTHER_ROUND), Fraction(0))
    for i, p in on_a.items():
        for j, q in on_d.items():
            v = (Verdict.ATTACKER_RETREATS if i > j else Verdict.DEFENDER_RETREATS if j > i
                 else Verdict.ANOTHER_ROUND)
            verdict[v] += p * q
    return MeleeOdds(pa, pd, on_a, on_d, verdict)


def melee(attacker: Fighter, defender: Fighter, dice: DiceSource, names: tuple[str, str] = (
        "attacker", "defender"), t: Tables | None = None) -> MeleeResult:
    """Fight a round: the attacker's dice and the defender's saves, then the defender's dice and
    the attacker's saves; the verdict from the hits each suffered."""
    t = t or tables()
    pools = melee_pool(attacker, defender, t), melee_pool(defender, attacker, t)
    rolls: list[Roll] = []
    full_on = t.fire.half_full_on
    lines: list[str] = []
    suffered = []
    for own, enemy, pool, name in ((attacker, defender, pools[0], names[0]),
                                   (defender, attacker, pools[1], names[1])):
        count = roll_thrown(pool, full_on, dice, f"{name} melee", rolls)
        scored = roll_hits(count, _need(own, t), 0, dice, f"{name} melee", rolls)
        standing = roll_saves(scored, melee_save(enemy, t), dice, f"{name} melee", rolls)
        suffered.append(standing)
        if not pool.amount:
            lines.append(f"{name} throws no dice")
            continue
        lines.append(f"{name} throws {pool} ({count} thrown, hit on {_need(own, t)}-6): "
                     f"{scored} hit{'' if scored == 1 else 's'}"
                     + (f", {standing} after saves" if standing != scored else ""))
    on_d, on_a = suffered[0] + defender.fired_hits, suffered[1] + attacker.fired_hits
    if Kind.GUNS in (attacker.kind, defender.kind):
        verdict = Verdict.GUNS_ELIMINATED
    else:
        verdict = (Verdict.ATTACKER_RETREATS if on_a > on_d else
                   Verdict.DEFENDER_RETREATS if on_d > on_a else Verdict.ANOTHER_ROUND)
    lines.append(f"hits suffered (firing included): {names[0]} {on_a}, {names[1]} {on_d}: "
                 f"{verdict}")
    return MeleeResult(on_a, on_d, verdict, tuple(rolls), tuple(lines))
