"""The vocabulary of ruleset 002: unit types, the ground a unit stands on, and hits.

>>> UnitKind("elite").label
'elite infantry'
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["UnitKind", "Ground", "INFANTRY_KINDS"]


class UnitKind(StrEnum):
    """The seed's types of unit (commanders and the General are not units that fight)."""

    INFANTRY = "infantry"
    ELITE = "elite"
    SKIRMISHERS = "skirmishers"
    CAVALRY = "cavalry"
    ARTILLERY = "artillery"

    @property
    def label(self) -> str:
        """The type as a report names it."""
        return "elite infantry" if self is UnitKind.ELITE else self.value


# The units that keep guns within 3 inches from being charged, and that take a commander.
INFANTRY_KINDS = frozenset({UnitKind.INFANTRY, UnitKind.ELITE})


class Ground(StrEnum):
    """Where a unit stands, as far as the rules care."""

    OPEN = "open"
    WOODS = "woods"
    TOWN = "town"
    ENTRENCHMENT = "entrenchment"
    HILL = "hill"
    MARSH = "marsh"

