"""Rule 6: the validated opportunity-charge table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from campaign1813.campaign.battle.dice import Die
from campaign1813.campaign.battle.ruleset1813.rules.tables.base import Entries, ModifierEntry
from campaign1813.campaign.battle.terms import Arm


class Reaction(StrEnum):
    """What the target of an opportunity charge tries to do (Rule 6)."""

    EVADE = "evade"
    COUNTER_CHARGE = "counter_charge"
    CHANGE_FORMATION = "change_formation"
    TURN_TO_FACE = "turn_to_face"
    INTERCEPT = "intercept"
    FORM_SQUARE = "form_square"


# The kinds of target an opportunity charge may be made on.
CHARGE_TARGETS = ("disordered", "shaken", "flank_or_rear", "cavalry_column",
                  "infantry_column_of_march", "limbered_artillery")

# The modifiers the code knows how to apply; a table picks which of them its ruleset uses.
CHARGE_MODIFIERS = ("a_class", "c_class", "commander_within_4", "poor_commander",
                    "flank_or_rear", "no_commander_within_8", "casualty")
REACTION_MODIFIERS = ("a_class", "c_class", "general_within_4", "poor_commander",
                      "flank_or_rear", "cavalry", "casualty")


@dataclass(frozen=True)
class ReactionRules:
    """One reaction open to the target of an opportunity charge."""

    reaction: Reaction
    test: bool
    arms: frozenset[Arm]
    needs_formed: bool
    needs_orders: bool
    same_corps: bool


@dataclass(frozen=True)
class OpportunityTable:
    """Rule 6: who may be charged, the charge test and the target's reaction test."""

    source: str
    die: Die
    charge_need: int
    charge_targets: frozenset[str]
    charge_modifiers: Mapping[str, ModifierEntry]
    reaction_need: int
    reaction_only_formed: bool
    reaction_modifiers: Mapping[str, ModifierEntry]
    reactions: Mapping[Reaction, ReactionRules]
    fail_loss_percent: int
    # Rule 18: the reactions cavalry not formed make only on a passed morale test (Rule 17)
    unformed_cavalry_morale: frozenset[Reaction] = frozenset()


@cache
def opportunity_table(ruleset: str) -> OpportunityTable:
    """The validated opportunity-charge table of a ruleset."""
    e = Entries.of(ruleset, "opportunity.toml")
    die, count = e.dice("die")
    if count != 1:
        raise e.fail("die", "should be a single die")
    charge = e.section("charge")
    reaction = e.section("reaction")
    arms = tuple(a.value for a in Arm)
    reactions = {
        kind: ReactionRules(kind, p.boolean("test"), frozenset(map(Arm, p.words("arms", arms))),
                            p.boolean("needs_formed", default=False),
                            p.boolean("needs_orders", default=False),
                            p.boolean("same_corps", default=False))
        for kind, p in reaction.enum_keys("kinds", Reaction).items()
    }
    return OpportunityTable(
        e.label, die, charge.integer("need"),
        frozenset(charge.words("targets", CHARGE_TARGETS)),
        charge.modifiers("modifiers", CHARGE_MODIFIERS),
        reaction.integer("need"), reaction.boolean("only_formed"),
        reaction.modifiers("modifiers", REACTION_MODIFIERS), reactions,
        reaction.section("fail").integer("loss_percent", minimum=0),
        frozenset(map(Reaction, reaction.words("unformed_cavalry_morale",
                                               tuple(r.value for r in Reaction), default=[]))),
    )
