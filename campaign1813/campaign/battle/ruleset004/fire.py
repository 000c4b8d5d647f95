"""Musketry, artillery and saving throws of ruleset 004, as exact odds and as rolls.

Musketry: one die per 25 % step left (half the steps for a unit in two ranks, a half diced for),
each hitting on 4-6 for foot in firing order, 5-6 light foot, 6 light horse and other foot; -1 on
each die for a unit that moved and returns fire. Artillery: canister rolls two dice (one at 50 %
or less), roundshot one (a half die at 50 % or less); the score is halved, a half diced for, to
give potential hits, each hitting on 4-6 against foot and horse, 6 against guns; over friends'
heads the score is 1 less. A hit on troops in cover is cancelled on 4-6, on cuirassiers on 6.

>>> t = tables()
>>> musketry_odds(Volley(Kind.FOOT, 3), Target(Kind.FOOT), t).hits[2]
Fraction(3, 8)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from campaign1813.campaign.battle.core.steps import ActionRefused
from campaign1813.campaign.battle.dice import D6, DiceSource, Roll, distribution
from campaign1813.campaign.battle.ruleset004.pools import (
    Distribution,
    Pool,
    binomial,
    chance_of,
    halved,
    hits,
    mix,
    roll_die,
    roll_halved,
    roll_hits,
    roll_saves,
    roll_thrown,
    saved,
    thrown,
)
from campaign1813.campaign.battle.ruleset004.tables import FireTables, Tables, tables
from campaign1813.campaign.battle.ruleset004.units import STEP_PERCENT, Kind

__all__ = ["Volley", "Target", "Shot", "Battery", "MusketryOdds", "ArtilleryOdds",
           "FireResult", "musketry_pool", "musketry_need", "save_on", "musketry_odds",
           "artillery_pool", "artillery_odds", "musketry", "artillery", "tables"]


class Shot(StrEnum):
    """Canister (to 12 cm) or roundshot (to 24 cm)."""

    CANISTER = "canister"
    ROUNDSHOT = "roundshot"


@dataclass(frozen=True)
class Volley:
    """A unit firing musketry: its kind, steps left, and how it stands."""

    kind: Kind
    steps: int
    firing_order: bool = True
    one_rank: bool = False
    moved: bool = False
    modifier: int = 0
    distance_cm: Fraction | None = None


@dataclass(frozen=True)
class Target:
    """What is fired at: its kind, whether it is in cover, whether it is cuirassiers."""

    kind: Kind
    cover: bool = False
    cuirassiers: bool = False


@dataclass(frozen=True)
class Battery:
    """Guns firing: the shot, steps left, over friends' heads from a hill, the range."""

    shot: Shot
    steps: int
    over_heads: bool = False
    distance_cm: Fraction | None = None


@dataclass(frozen=True)
class MusketryOdds:
    """The exact odds of one volley: dice, score needed, hits scored and hits that stand."""

    pool: Pool
    need: int
    modifier: int
    save_on: int | None
    hits: Distribution
    standing: Distribution


@dataclass(frozen=True)
class ArtilleryOdds:
    """The exact odds of one artillery fire, stage by stage."""

    pool: Pool
    score: Distribution
    potential: Distribution
    need: int
    save_on: int | None
    hits: Distribution
    standing: Distribution


@dataclass(frozen=True)
class FireResult:
    """A fire made: hits scored, hits that stand after saves, the rolls and the report lines."""

    hits: int
    standing: int
    rolls: tuple[Roll, ...] = ()
    lines: tuple[str, ...] = field(default=())


def _check_steps(steps: int, what: str) -> None:
    if steps < 1:
        raise ActionRefused(f"{what} has no effectiveness left and cannot fire")


def musketry_pool(v: Volley, t: FireTables) -> Pool:
    """The dice of a volley: one per step, half of them for a unit in two ranks."""
    if not (v.kind.foot or v.kind is Kind.LIGHT_HORSE):
        raise ActionRefused(f"{v.kind} cannot fire musketry: only foot and light horse other "
                            "than lancers fire")
    if v.one_rank and v.kind is not Kind.LIGHT_HORSE:
        raise ActionRefused(f"{v.kind} do not deploy in one rank: only light cavalry screening "
                            "may")
    _check_steps(v.steps, str(v.kind))
    share = Fraction(1) if v.kind.foot or v.one_rank else t.two_ranks_share
    return Pool.of(Fraction(v.steps) * share)


def musketry_need(v: Volley, t: FireTables) -> int:
    """The score a die of this volley needs to hit."""
    if v.kind is Kind.LIGHT_FOOT:
        return t.musketry_hits_on["light_foot"]
    if v.kind is Kind.LIGHT_HORSE:
        return t.musketry_hits_on["light_horse"]
    return t.musketry_hits_on["firing_order" if v.firing_order else "not_in_firing_order"]


def _range_check(v: Volley, t: FireTables) -> None:
    limit = t.carbine_range_cm if v.kind is Kind.LIGHT_HORSE else t.musket_range_cm
    if v.distance_cm is not None and v.distance_cm > limit:
        weapon = "carbine" if v.kind is Kind.LIGHT_HORSE else "musket"
        raise ActionRefused(f"{v.kind} at {v.distance_cm} cm is beyond {weapon} range "
                            f"({limit} cm)")


def save_on(target: Target, t: Tables) -> int | None:
    """The saving throw of a target against a hit from firing, or None if it has none."""
    options = [t.fire.saves["cover"]] if target.cover else []
    if target.cuirassiers and target.kind is not Kind.HEAVY_HORSE:
        raise ActionRefused(f"{target.kind} are not cuirassiers: only heavy horse may be")
    if target.cuirassiers:
        options.append(t.fire.saves["cuirassiers"])
    return min(options) if options else None


def musketry_odds(v: Volley, target: Target, t: Tables | None = None) -> MusketryOdds:
    """The exact odds of a volley at a target."""
    t = t or tables()
    pool = musketry_pool(v, t.fire)
    _range_check(v, t.fire)
    need = musketry_need(v, t.fire)
    modifier = v.modifier + (t.fire.moved_return_fire if v.moved else 0)
    scored = hits(pool, need, modifier, t.fire.half_full_on)
    save = save_on(target, t)
    return MusketryOdds(pool, need, modifier, save, scored, saved(scored, save))


def artillery_pool(b: Battery, t: FireTables) -> Pool:
    """The dice guns roll: full, or weakened at 50 % effectiveness or less."""
    _check_steps(b.steps, "the battery")
    shot = t.canister if b.shot is Shot.CANISTER else t.roundshot
    weakened = b.steps * STEP_PERCENT <= t.weakened_at_percent
    return Pool.of(shot.weakened_dice if weakened else shot.dice)


def _artillery_range(b: Battery, t: FireTables) -> None:
    shot = t.canister if b.shot is Shot.CANISTER else t.roundshot
    if b.distance_cm is not None and b.distance_cm > shot.range_cm:
        raise ActionRefused(f"{b.shot} reaches {shot.range_cm} cm, not {b.distance_cm} cm")
    if b.over_heads and b.shot is not Shot.ROUNDSHOT:
        raise ActionRefused("only roundshot is fired over the heads of friendly troops")


def _target_need(target: Target, t: FireTables) -> int:
    if target.kind is Kind.GUNS:
        return t.artillery_hits_on["guns"]
    return t.artillery_hits_on["foot" if target.kind.foot else "horse"]


def artillery_odds(b: Battery, target: Target, t: Tables | None = None) -> ArtilleryOdds:
    """The exact odds of one artillery fire: score, potential hits, hits, hits that stand."""
    t = t or tables()
    f = t.fire
    pool = artillery_pool(b, f)
    _artillery_range(b, f)
    cut = f.over_heads if b.over_heads else 0
    score = mix(thrown(pool, f.half_full_on),
                {n: ({0: Fraction(1)} if n == 0 else
                     {max(0, s + cut): p for s, p in distribution(D6, n).items()})
                 for n in thrown(pool, f.half_full_on)})
    potential = mix(score, {s: halved(s, f.half_full_on) for s in score})
    need = _target_need(target, f)
    p = chance_of(need)
    scored = mix(potential, {n: binomial(n, p) for n in potential})
    save = save_on(target, t)
    return ArtilleryOdds(pool, score, potential, need, save, scored, saved(scored, save))


def musketry(v: Volley, target: Target, dice: DiceSource, who: str = "",
             t: Tables | None = None) -> FireResult:
    """Fire a volley: roll the half die if any, the dice, then the target's saving throws."""
    t = t or tables()
    pool = musketry_pool(v, t.fire)
    _range_check(v, t.fire)
    need = musketry_need(v, t.fire)
    modifier = v.modifier + (t.fire.moved_return_fire if v.moved else 0)
    save = save_on(target, t)
    rolls: list[Roll] = []
    what = who or str(v.kind)
    count = roll_thrown(pool, t.fire.half_full_on, dice, f"{what} musketry", rolls)
    scored = roll_hits(count, need, modifier, dice, f"{what} musketry", rolls)
    standing = roll_saves(scored, save, dice, f"{what} musketry", rolls)
    line = (f"{what}: musketry, {pool} ({count} thrown, hit on {need}-6"
            + (f", {modifier:+d}" if modifier else "") + f"): {scored} hit"
            + ("" if scored == 1 else "s")
            + (f", {standing} after saves on {save}-6" if save else ""))
    return FireResult(scored, standing, tuple(rolls), (line,))


def artillery(b: Battery, target: Target, dice: DiceSource, who: str = "",
              t: Tables | None = None) -> FireResult:
    """Fire guns: the dice, the score halved to potential hits, each diced for, then saves."""
    t = t or tables()
    f = t.fire
    pool = artillery_pool(b, f)
    _artillery_range(b, f)
    need, save = _target_need(target, f), save_on(target, t)
    rolls: list[Roll] = []
    what = who or "guns"
    count = roll_thrown(pool, f.half_full_on, dice, f"{what} {b.shot}", rolls)
    score = 0
    for i in range(count):
        r = roll_die(dice, f"{what} {b.shot}: score die {i + 1} of {count}")
        rolls.append(r)
        score += r.total
    if count:
        score = max(0, score + (f.over_heads if b.over_heads else 0))
    potential = roll_halved(score, f.half_full_on, dice, f"{what} {b.shot}", rolls)
    scored = roll_hits(potential, need, 0, dice, f"{what} {b.shot} potential hits", rolls)
    standing = roll_saves(scored, save, dice, f"{what} {b.shot}", rolls)
    line = (f"{what}: {b.shot}, {pool} ({count} thrown): score {score}, "
            f"{potential} potential hit{'' if potential == 1 else 's'}, {scored} hit"
            + ("" if scored == 1 else "s")
            + (f", {standing} after saves on {save}-6" if save else ""))
    return FireResult(scored, standing, tuple(rolls), (line,))

