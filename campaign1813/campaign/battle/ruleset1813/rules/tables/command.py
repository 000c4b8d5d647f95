"""Rules 2 and 3: the validated command table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache

from campaign1813.campaign.battle.dice import Die
from campaign1813.campaign.battle.ruleset1813.rules.tables.base import Entries
from campaign1813.campaign.battle.terms import Grade


class CorpsAction(StrEnum):
    """Something a corps commander spends pips on (Rule 3)."""

    MOVE = "move"                                  # move, turning up to 45 degrees
    CHANGE_FORMATION = "change_formation"          # or turn more than 45 degrees
    ARTILLERY_ACTION = "artillery_action"          # fire, limber, move or unlimber
    INFANTRY_FIRE = "infantry_fire"                # fire or skirmish
    RETIRE_HALF_MOVE = "retire_half_move"          # facing the enemy
    HALF_MOVE_AND_CHANGE_FORMATION = "half_move_and_change_formation"
    ARTILLERY_TWO_ACTIONS = "artillery_two_actions"
    SWAP_BRIGADES = "swap_brigades"
    RALLY = "rally"
    GARRISON = "garrison"                          # occupy a built-up area or wood (Rule 9)


@dataclass(frozen=True)
class CommandTable:
    """Rules 2 and 3: the pips roll, the CinC's costs and the corps commander's costs."""

    source: str
    pips_die: Die
    pips_bonus: Mapping[Grade, int]
    cinc_inches_per_pip: Fraction
    cinc_multiple_move_clear: Fraction
    change_corps_orders: Mapping[Grade, int]
    give_move: Mapping[Grade, int]
    command_inches: Fraction
    base_contact_nations: tuple[str, ...]
    halt_reach_inches: Fraction
    swap_behind_inches: Fraction
    costs: Mapping[CorpsAction, int]
    change_to_halt: Mapping[Grade, int]


@cache
def command_table(ruleset: str) -> CommandTable:
    """The validated command table of a ruleset."""
    e = Entries.of(ruleset, "command.toml")
    pips = e.section("pips")
    die, count = pips.dice("die")
    if count != 1:
        raise pips.fail("die", "should be a single die")
    cinc = e.section("cinc")
    corps = e.section("corps")
    costs_part = corps.section("costs")
    costs = {a: costs_part.integer(a.value, minimum=0) for a in CorpsAction}
    return CommandTable(
        e.label, die, pips.graded("bonus"),
        cinc.inches("inches_per_pip"), cinc.inches("multiple_move_clear_inches"),
        cinc.graded("change_corps_orders", minimum=0), cinc.graded("give_move", minimum=0),
        corps.inches("command_inches"), corps.words("base_contact_nations"),
        corps.inches("halt_reach_inches"), corps.inches("swap_behind_inches"),
        costs, corps.graded("change_to_halt", minimum=0),
    )
