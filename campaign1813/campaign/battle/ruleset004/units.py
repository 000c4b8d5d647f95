"""Ruleset 004's units: battalions, squadrons, guns and the general, each in 25 % steps.

A unit at full effectiveness has four steps (100 %); each hit takes one (75 %, 50 %, 25 %) and
the last hit eliminates it. Its kind says how it moves, fires and melees; its quality (elite,
regular, poor) what it needs to pass a morale test.

>>> u = Unit("a", "1st Line", "French", Kind.FOOT, Quality.REGULAR)
>>> u.percent, u.hit(2).percent, u.hit(9).eliminated
(100, 50, True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

STEP_PERCENT = 25
FULL_STEPS = 4


class Kind(StrEnum):
    """What a unit is, as the seed's tables tell them apart."""

    FOOT = "foot"
    LIGHT_FOOT = "light foot"
    HEAVY_HORSE = "heavy horse"
    LANCERS = "lancers"
    LIGHT_HORSE = "light horse"
    GUNS = "guns"
    GENERAL = "general"

    @property
    def horse(self) -> bool:
        """Heavy horse, lancers and light horse (the general rides too, but is no squadron)."""
        return self in (Kind.HEAVY_HORSE, Kind.LANCERS, Kind.LIGHT_HORSE)

    @property
    def foot(self) -> bool:
        """Close-order and light foot."""
        return self in (Kind.FOOT, Kind.LIGHT_FOOT)

    @property
    def light(self) -> bool:
        """Light troops: light foot and light horse (lancers included) may half move and fire."""
        return self in (Kind.LIGHT_FOOT, Kind.LIGHT_HORSE, Kind.LANCERS)


class Quality(StrEnum):
    """A unit's quality for the morale test."""

    ELITE = "elite"
    REGULAR = "regular"
    POOR = "poor"


@dataclass(frozen=True)
class Unit:
    """One unit: who it is, what it is, and the steps of effectiveness it has left."""

    key: str
    name: str
    side: str
    kind: Kind
    quality: Quality
    steps: int = FULL_STEPS
    cuirassiers: bool = False
    firing_order: bool = True
    one_rank: bool = False
    national: str = ""

    @property
    def percent(self) -> int:
        """Effectiveness left, in per cent."""
        return self.steps * STEP_PERCENT

    @property
    def eliminated(self) -> bool:
        """No effectiveness left."""
        return self.steps <= 0

    def hit(self, hits: int) -> Unit:
        """The unit after ``hits`` hits, each taking 25 % (never below nothing)."""
        return replace(self, steps=max(0, self.steps - hits))
