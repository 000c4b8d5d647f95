"""Rule 7: the validated artillery-fire table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache

from campaign1813.campaign.battle.dice import Die
from campaign1813.campaign.battle.ruleset1813.rules.tables.base import Entries, ModifierEntry
from campaign1813.campaign.battle.terms import Calibre


class RangeBand(StrEnum):
    """Artillery range band (Rule 7)."""

    SHORT = "short"
    LONG = "long"


class Target(StrEnum):
    """What artillery fires at (Rule 7): troops in the open, or what covers them."""

    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    WOODS = "woods"            # or hedges
    BUILDINGS = "buildings"    # or walls
    ARTILLERY = "artillery"


# The modifiers the code knows how to apply; a table picks which of them its ruleset uses.
FIRE_MODIFIERS = ("a_class_gunners", "c_class_gunners", "gunner_casualty", "bounce_through")


@dataclass(frozen=True)
class FireTable:
    """Rule 7: dice, range bands by calibre, numbers to hit, and the modifiers."""

    source: str
    die: Die
    count: int
    two_hits_multiplier: int
    bounce_through_inches: Fraction
    friendly_clearance_inches: Fraction
    overhead_behind_friends_inches: Fraction
    ranges: Mapping[Calibre, Mapping[RangeBand, Fraction]]
    to_hit: Mapping[RangeBand, Mapping[Target, int]]
    modifiers: Mapping[str, ModifierEntry]


@cache
def fire_table(ruleset: str) -> FireTable:
    """The validated artillery-fire table of a ruleset."""
    e = Entries.of(ruleset, "fire.toml")
    die, count = e.dice("dice")
    ranges: dict[Calibre, dict[RangeBand, Fraction]] = {}
    range_part = e.section("range")
    for calibre in Calibre:
        bands = range_part.section(calibre.value)
        short, long = bands.inches("short"), bands.inches("long")
        if long <= short:
            raise bands.fail("long", f"should be further than short range ({short} inches)")
        ranges[calibre] = {RangeBand.SHORT: short, RangeBand.LONG: long}
    hit_part = e.section("to_hit")
    to_hit = {}
    for band in RangeBand:
        row = hit_part.section(band.value)
        to_hit[band] = {t: row.integer(t.value, minimum=1) for t in Target}
    return FireTable(e.label, die, count, e.integer("two_hits_multiplier", minimum=1),
                     e.inches("bounce_through_inches"), e.inches("friendly_clearance_inches"),
                     e.inches("overhead_behind_friends_inches"), ranges, to_hit,
                     e.modifiers("modifiers", FIRE_MODIFIERS))
