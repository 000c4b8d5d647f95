"""Rule 8: the validated quick-results table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache

from campaign1813.campaign.battle.dice import Die
from campaign1813.campaign.battle.ruleset1813.rules.tables.base import Entries, ModifierEntry
from campaign1813.campaign.battle.terms import Arm, MoraleState


class QuickCase(StrEnum):
    """A contact settled without a combat (Rule 8)."""

    COLUMN_OF_MARCH_CONTACTED_BY_CAVALRY = "column_of_march_contacted_by_cavalry"
    LIMBERED_ARTILLERY_CONTACTED_BY_CAVALRY = "limbered_artillery_contacted_by_cavalry"
    DEPLOYED_ARTILLERY_CHARGED = "deployed_artillery_charged"
    ROUTERS_CONTACTED = "routers_contacted"
    SHAKEN_CONTACTED = "shaken_contacted"
    CAUGHT_IN_FLANK_OR_REAR = "caught_in_flank_or_rear"
    GUNNERS_CONTACTED_BY_INFANTRY = "gunners_contacted_by_infantry"


# The facts a quick result may need to escape.
ESCAPE_FACTS = ("able_to_escape", "more_than_half_move_away", "supports_within_4")

# The modifiers the code knows how to apply; a table picks which of them its ruleset uses.
CREST_MODIFIERS = ("british_or_a_class", "c_class")


@dataclass(frozen=True)
class CaseRules:
    """One quick result: whom it befalls, how they may escape it and what it does."""

    case: QuickCase
    arms: frozenset[Arm]
    states: frozenset[MoraleState]
    escape: str
    escape_requires: tuple[str, ...]
    casualties: int
    loss_percent: int
    new_state: MoraleState | None
    removed: bool


@dataclass(frozen=True)
class CrestTest:
    """The revision's test for troops behind the crest of a hill."""

    die: Die
    crest_inches: Fraction
    enemy_inches: Fraction
    modifiers: Mapping[str, ModifierEntry]
    results: tuple[tuple[int, MoraleState], ...]   # (up to this total, state), lowest first


@dataclass(frozen=True)
class QuickTable:
    """Rule 8: charges not allowed, distances cavalry keep, the cases and the crest test."""

    source: str
    cavalry_halt_from_square: Fraction
    infantry_approach_inches: Fraction
    cavalry_answers: tuple[str, ...]
    cavalry_may_charge_formed_square: bool
    infantry_may_charge_cavalry: bool
    after_combat_state: MoraleState
    strength: Mapping[Arm, int]
    cases: Mapping[QuickCase, CaseRules]
    crest: CrestTest | None


@cache
def quick_table(ruleset: str) -> QuickTable:
    """The validated quick-results table of a ruleset."""
    e = Entries.of(ruleset, "quick.toml")
    limits = e.section("limits")
    states = tuple(s.value for s in MoraleState)
    arms = tuple(a.value for a in Arm)
    strength_part = e.section("strength")
    strength = {a: strength_part.integer(a.value, minimum=1) for a in Arm}
    cases = {}
    for case, p in e.enum_keys("cases", QuickCase).items():
        removed = p.boolean("removed", default=False)
        casualties = p.integer("casualties", default=0, minimum=0)
        loss = p.integer("loss_percent", default=0, minimum=0)
        new_state = p.text("new_state", states, default="")
        if not (removed or casualties or loss or new_state):
            raise p.fail("new_state", "is missing: the case must do something to the brigade")
        cases[case] = CaseRules(
            case, frozenset(map(Arm, p.words("arms", arms))),
            frozenset(map(MoraleState, p.words("states", states))),
            p.text("escape", default=""),
            p.words("escape_requires", ESCAPE_FACTS, default=[]),
            casualties, loss, MoraleState(new_state) if new_state else None, removed)
    crest = None
    if e.has("crest"):
        c = e.section("crest")
        die, count = c.dice("die")
        if count != 1:
            raise c.fail("die", "should be a single die")
        results: list[tuple[int, MoraleState]] = []
        for row in c.sections("results"):
            up_to = row.integer("up_to")
            if results and up_to <= results[-1][0]:
                raise row.fail("up_to", "should be higher than the row before it")
            results.append((up_to, MoraleState(row.text("state", states))))
        crest = CrestTest(die, c.inches("crest_inches"), c.inches("enemy_inches"),
                          c.modifiers("modifiers", CREST_MODIFIERS), tuple(results))
    return QuickTable(
        e.label, limits.inches("cavalry_halt_from_square_inches"),
        limits.inches("infantry_approach_inches"),
        limits.words("cavalry_answers", ("charge", "withdraw")),
        limits.boolean("cavalry_may_charge_formed_square"),
        limits.boolean("infantry_may_charge_cavalry"),
        MoraleState(e.section("after_combat").text("state", states)),
        strength, cases, crest,
    )
