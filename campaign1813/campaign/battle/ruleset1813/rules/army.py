"""When a corps and an army break (a reading of the 1813 rules; see docs/rules-9-18.md).

A brigade or battery that is Shaken, routing or destroyed is broken. A corps with half or more of
its brigades broken is broken; a side with half or more of its corps broken has lost the battle.
A side's corps are all those it brings to the battle, arrived or not: a corps still marching to
the field is part of the CinC's command and is not broken (the reading both the table and
auto-resolve use, through :func:`side_lost`).

>>> from campaign1813.campaign.battle.terms import MoraleState as S
>>> corps = CorpsStanding("5 Corps", tuple(BrigadeStanding(str(n), s) for n, s in
...                       enumerate([S.ROUT, S.SHAKEN, S.FORMED, S.DISORDERED])))
>>> corps_broken(corps)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from campaign1813.campaign.battle.ruleset1813.rules.brigade import Brigade
from campaign1813.campaign.battle.ruleset1813.rules.loader import RulesetError, load_table
from campaign1813.campaign.battle.terms import MoraleState
from campaign1813.campaign.errors import CampaignError


class InvalidArmy(CampaignError):
    """An army or corps that cannot be judged, e.g. one with no corps; says which."""


@dataclass(frozen=True)
class BreakRules:
    """Which states count as broken, and the shares that break a corps and lose a battle."""

    broken_states: frozenset[MoraleState]
    corps_breaks_at: Fraction
    side_loses_at: Fraction


@cache
def break_rules(ruleset: str = "1813") -> BreakRules:
    """The army break point of a ruleset."""
    where = f"{ruleset}/morale.toml [army]"
    try:
        raw = load_table(ruleset, "morale.toml")["army"]
        return BreakRules(frozenset(MoraleState(s) for s in raw["broken_states"]),
                          Fraction(raw["corps_breaks_at"]), Fraction(raw["side_loses_at"]))
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
        raise RulesetError(f"{where}: malformed or missing entry ({exc})") from exc


@dataclass(frozen=True)
class BrigadeStanding:
    """A brigade's or battery's morale state at the moment, or its destruction."""

    name: str
    state: MoraleState = MoraleState.FORMED
    destroyed: bool = False

    @classmethod
    def of(cls, brigade: Brigade, destroyed: bool = False) -> BrigadeStanding:
        """The standing of a brigade."""
        return cls(brigade.name, brigade.state, destroyed)


@dataclass(frozen=True)
class CorpsStanding:
    """A corps and the standing of each of its brigades and batteries."""

    name: str
    brigades: tuple[BrigadeStanding, ...]


@dataclass(frozen=True)
class ArmyStanding:
    """One side's army: its corps (the reserve counts as a corps)."""

    side: str
    corps: tuple[CorpsStanding, ...]


def brigade_broken(b: BrigadeStanding, ruleset: str = "1813") -> bool:
    """Destroyed, or in a broken state (Shaken or Rout)."""
    return b.destroyed or b.state in break_rules(ruleset).broken_states


def corps_broken(c: CorpsStanding, ruleset: str = "1813") -> bool:
    """Half or more of the corps' brigades broken."""
    if not c.brigades:
        raise InvalidArmy(f"{c.name} has no brigades to judge")
    broken = sum(brigade_broken(b, ruleset) for b in c.brigades)
    return Fraction(broken, len(c.brigades)) >= break_rules(ruleset).corps_breaks_at


@dataclass(frozen=True)
class ArmyBreak:
    """Which corps of a side are broken, and whether the side has lost."""

    side: str
    broken_corps: tuple[str, ...]
    corps_count: int
    lost: bool


def side_lost(broken: int, corps: int, ruleset: str = "1813") -> bool:
    """Whether a side with ``broken`` of its ``corps`` corps broken has lost the battle.

    ``corps`` counts every corps the side brings to the battle, arrived or not; a corps not yet
    on the table is not broken. Both the table (``fight.standing``) and auto-resolve count so.
    """
    if corps <= 0:
        raise InvalidArmy("a side with no corps cannot be judged")
    if not 0 <= broken <= corps:
        raise InvalidArmy(f"{broken} broken corps out of {corps} cannot be judged")
    return Fraction(broken, corps) >= break_rules(ruleset).side_loses_at


def army_break(army: ArmyStanding, ruleset: str = "1813") -> ArmyBreak:
    """Judge a side: its broken corps and whether it has lost."""
    if not army.corps:
        raise InvalidArmy(f"{army.side} has no corps to judge")
    broken = tuple(c.name for c in army.corps if corps_broken(c, ruleset))
    return ArmyBreak(army.side, broken, len(army.corps),
                     side_lost(len(broken), len(army.corps), ruleset))


def winner_by_break(a: ArmyStanding, b: ArmyStanding, ruleset: str = "1813") -> str | None:
    """The side whose enemy has broken, or None when neither or both have (nightfall decides)."""
    lost_a, lost_b = army_break(a, ruleset).lost, army_break(b, ruleset).lost
    if lost_a == lost_b:
        return None
    return b.side if lost_a else a.side
