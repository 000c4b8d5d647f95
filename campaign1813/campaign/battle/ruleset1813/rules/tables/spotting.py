"""Rule 1: the validated spotting table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache

from campaign1813.campaign.battle.dice import Die
from campaign1813.campaign.battle.ruleset1813.rules.tables.base import Entries
from campaign1813.campaign.battle.terms import Grade


class Cover(StrEnum):
    """How hidden a target is from a spotter (Rule 1)."""

    OPEN = "open"            # in plain line of sight
    SCREENED = "screened"    # behind a blind or deployed troops
    COVER = "cover"          # in woods or a built-up area, or behind a hill


@dataclass(frozen=True)
class SpotBand:
    """Out to ``up_to`` inches a target is spotted automatically or on ``need`` or more."""

    up_to: Fraction
    automatic: bool
    need: int | None


@dataclass(frozen=True)
class SpottingTable:
    """Rule 1: the spotting die, who may spot, the bands by cover, and blind-movement pips."""

    source: str
    die: Die
    spotters: tuple[str, ...]
    bands: Mapping[Cover, tuple[SpotBand, ...]]
    blind_pips_die: Die
    blind_pips_bonus: Mapping[Grade, int]


@cache
def spotting_table(ruleset: str) -> SpottingTable:
    """The validated spotting table of a ruleset."""
    e = Entries.of(ruleset, "spotting.toml")
    die, count = e.dice("die")
    if count != 1:
        raise e.fail("die", "should be a single die")
    bands_part = e.section("bands")
    bands: dict[Cover, tuple[SpotBand, ...]] = {}
    for cover in Cover:
        rows: list[SpotBand] = []
        for row in bands_part.sections(cover.value):
            automatic = row.boolean("automatic", default=False)
            need = None if automatic else row.integer("need", minimum=1)
            if need is not None and need > max(die.faces):
                raise row.fail("need", f"is {need}, more than the {die.name} can show")
            band = SpotBand(row.inches("up_to"), automatic, need)
            if rows and band.up_to <= rows[-1].up_to:
                raise row.fail("up_to", "should be further than the band before it")
            rows.append(band)
        bands[cover] = tuple(rows)
    pips = e.section("blind_pips")
    pips_die, pips_count = pips.dice("die")
    if pips_count != 1:
        raise pips.fail("die", "should be a single die")
    return SpottingTable(e.label, die, e.words("spotters"), bands, pips_die,
                         pips.graded("bonus"))
