"""Movement (seed 002, "Movement", "Terrain", "General"): allowances and where a unit may go.

Distances are measured on the table; the engine is told how far a unit went, whether along a
road, whether it started near the General, and the ground it ends on, and refuses what the
rules do not allow.

>>> allowance(UnitKind.CAVALRY, road=True, near_general=True)
12
>>> allowance(None)
9
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from campaign1813.campaign.battle.core.steps import ActionRefused
from campaign1813.campaign.battle.ruleset002 import RULESET
from campaign1813.campaign.battle.ruleset002.tables import tables
from campaign1813.campaign.battle.ruleset002.units import Ground, UnitKind

__all__ = ["Move", "allowance", "check_move"]


def allowance(kind: UnitKind | None, road: bool = False, near_general: bool = False,
              ruleset: str = RULESET) -> int:
    """How far a unit (or, for None, a commander) may move: its allowance, +3 inches all along
    a road, +3 inches starting within 6 inches of the General."""
    t = tables(ruleset)
    base = t.commander_move if kind is None else t.units[kind].move_inches
    return base + (t.road_bonus if road else 0) + (t.general_bonus if near_general else 0)


@dataclass(frozen=True)
class Move:
    """A unit's move as the table shows it."""

    kind: UnitKind
    inches: Fraction = Fraction(0)
    road: bool = False
    near_general: bool = False
    to: Ground = Ground.OPEN
    start: Ground = Ground.OPEN
    pivot_only: bool = False
    engaged: bool = False
    town_held: bool = False
    """The town it moves into already holds another unit."""
    across_river: bool = False
    at_crossing: bool = False
    """The river is crossed at a bridge or ford."""


def check_move(m: Move, ruleset: str = RULESET) -> None:
    """Refuse a move the rules do not allow, naming the reason."""
    t = tables(ruleset)
    if m.start is Ground.ENTRENCHMENT and t.ground[Ground.ENTRENCHMENT].static:
        raise ActionRefused("a unit placed in an entrenchment stays there, static, for the "
                            "rest of the game")
    if m.pivot_only:
        if m.inches:
            raise ActionRefused("a pivot on the spot covers no distance")
        return
    if m.engaged and m.kind is not UnitKind.CAVALRY:
        raise ActionRefused("a unit engaged in combat may not move until it is rallied "
                            "(it may pivot to face an enemy)")
    most = allowance(m.kind, m.road, m.near_general, ruleset)
    if m.inches < 0:
        raise ActionRefused(f"a move cannot be negative ({m.inches} inches)")
    if m.inches > most:
        raise ActionRefused(f"{m.kind.label} may move {most} inches here, not {m.inches}")
    if m.across_river and not m.at_crossing:
        raise ActionRefused("rivers are impassable except at a bridge or ford")
    ground = t.ground[m.to]
    if m.kind not in ground.enter:
        who = sorted(k.label for k in ground.enter)
        allowed = ", ".join(who) if who else "no unit"
        raise ActionRefused(f"{m.kind.label} may not end a move in {m.to.value} "
                            f"({allowed} may)")
    if ground.one_unit and m.town_held:
        raise ActionRefused("only one unit may occupy a town")
