"""Rule 5: the validated movement table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache

from campaign1813.campaign.battle.ruleset1813.rules.tables.base import Entries


class Mover(StrEnum):
    """A row of the movement table (Rule 5)."""

    GENERAL = "general"
    LIGHT_CAVALRY_COLUMN = "light_cavalry_column"
    LIGHT_CAVALRY_LINE = "light_cavalry_line"
    HEAVY_CAVALRY_COLUMN = "heavy_cavalry_column"
    HEAVY_CAVALRY_LINE = "heavy_cavalry_line"
    HORSE_ARTILLERY_LIMBERED = "horse_artillery_limbered"
    FOOT_ARTILLERY_LIMBERED = "foot_artillery_limbered"
    INFANTRY_COLUMN_OF_MARCH = "infantry_column_of_march"
    INFANTRY_COLUMN_OF_ATTACK = "infantry_column_of_attack"
    INFANTRY_LINE = "infantry_line"
    INFANTRY_SQUARE = "infantry_square"
    MANHANDLE_LIGHT = "manhandle_light"
    MANHANDLE_MEDIUM = "manhandle_medium"
    MANHANDLE_HEAVY = "manhandle_heavy"


@dataclass(frozen=True)
class MovementTable:
    """Rule 5: allowances, blind moves, multiple-move clearances and difficult terrain."""

    source: str
    allowance: Mapping[Mover, Fraction]
    blind_single_per_pip: Fraction
    blind_multiple_per_pip: Fraction
    general_clear_inches: Fraction
    brigade_clear_inches: Fraction
    difficult_fraction: Fraction


@cache
def movement_table(ruleset: str) -> MovementTable:
    """The validated movement table of a ruleset."""
    e = Entries.of(ruleset, "movement.toml")
    allowance = e.section("allowance")
    blinds = e.section("blinds")
    multiple = e.section("multiple_moves")
    return MovementTable(
        e.label, {m: allowance.inches(m.value) for m in Mover},
        blinds.inches("single_inches_per_pip"), blinds.inches("multiple_inches_per_pip"),
        multiple.inches("general_clear_inches"), multiple.inches("brigade_clear_inches"),
        e.section("difficult_terrain").fraction("fraction"),
    )
