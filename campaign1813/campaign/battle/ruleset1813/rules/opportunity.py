"""Rule 6: opportunity charges, and how their target reacts.

Formed cavalry may charge, during the enemy's move and without pips, an enemy that offers the
chance (the table lists which). They must pass a test of one die plus modifiers. The target may
then react if the cavalry are still more than half their move away: some reactions are free,
others need a test of their own. In the revision a failed test costs the target a percentage of
its strength if the cavalry reach it before the reaction is complete.

>>> s = ChargeSituation("Prussian hussars", Rating.B, "French 3 Cavalry", Arm.CAVALRY,
...                     MoraleState.FORMED, Formation.CAVALRY_COLUMN)
>>> charge_odds(s, "1813")[True]
Fraction(1, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from campaign1813.campaign.battle.dice import DiceSource, Roll
from campaign1813.campaign.battle.ruleset1813.rules.brigade import Brigade
from campaign1813.campaign.battle.ruleset1813.rules.common import (
    ActionRefused,
    Modifier,
    odds_of,
    percent_as_casualties,
    roll_for,
    total_of,
)
from campaign1813.campaign.battle.ruleset1813.rules.morale import (
    MoraleOutcome,
    MoraleTest,
    morale_odds,
    take_morale_test,
)
from campaign1813.campaign.battle.ruleset1813.rules.tables.base import ModifierEntry
from campaign1813.campaign.battle.ruleset1813.rules.tables.opportunity import (
    Reaction,
    opportunity_table,
)
from campaign1813.campaign.battle.ruleset1813.rules.tables.quick import quick_table
from campaign1813.campaign.battle.terms import (
    Arm,
    CavalryWeight,
    Effect,
    FollowOn,
    FollowOnTest,
    Formation,
    Grade,
    MoraleState,
    Rating,
)

__all__ = ["Reaction", "ChargeSituation", "ChargeResult", "ReactionSituation", "ReactionResult",
           "charge_grounds", "charge_refusal", "charge_modifiers", "charge_odds",
           "opportunity_charge", "reaction_refusal", "reaction_modifiers", "reaction_odds",
           "react", "by_morale", "morale_test_of"]


@dataclass(frozen=True)
class ChargeSituation:
    """An opportunity charge: the cavalry, their target, and what the table shows."""

    cavalry: str
    rating: Rating
    target: str
    target_arm: Arm
    target_state: MoraleState
    target_formation: Formation
    flank_or_rear: bool = False
    commander_within_4: bool = False
    commander_within_8: bool = False
    commander_grade: Grade = Grade.AVERAGE
    casualties: int = 0
    state: MoraleState = MoraleState.FORMED
    enemy_move: bool = True             # it is the enemy's move, not the cavalry's own


@dataclass(frozen=True)
class ChargeResult:
    """The charge test made: roll, total, pass or fail, and what follows."""

    situation: ChargeSituation
    roll: Roll
    total: int
    passed: bool
    follow_ons: tuple[FollowOn, ...]


def _apply(entries: Mapping[str, ModifierEntry],
           wanted: list[tuple[str, int]]) -> tuple[Modifier, ...]:
    result = []
    for key, times in wanted:
        entry = entries.get(key)
        if entry is None or times == 0 or entry.value == 0:
            continue
        label = entry.label if times == 1 else f"{entry.label} ×{times}"
        result.append(Modifier(key, label, entry.value * times))
    return tuple(result)


def charge_grounds(situation: ChargeSituation, ruleset: str) -> tuple[str, ...]:
    """Which of the table's reasons make this target open to an opportunity charge."""
    s = situation
    facts = {
        "disordered": s.target_state is MoraleState.DISORDERED,
        "shaken": s.target_state is MoraleState.SHAKEN,
        "flank_or_rear": s.flank_or_rear,
        "cavalry_column": (s.target_arm is Arm.CAVALRY
                           and s.target_formation is Formation.CAVALRY_COLUMN),
        "infantry_column_of_march": (s.target_arm is Arm.INFANTRY
                                     and s.target_formation is Formation.COLUMN_OF_MARCH),
        "limbered_artillery": (s.target_arm is Arm.ARTILLERY
                               and s.target_formation is Formation.LIMBERED),
    }
    allowed = opportunity_table(ruleset).charge_targets
    return tuple(k for k, v in facts.items() if v and k in allowed)


def charge_refusal(situation: ChargeSituation, ruleset: str) -> str | None:
    """Why the cavalry may not opportunity charge this target now, or None if they may."""
    s = situation
    if not s.enemy_move:
        return f"{s.cavalry}: opportunity charges are made only during the enemy's move"
    if s.state is not MoraleState.FORMED:
        return f"{s.cavalry} is {s.state.value}; only formed cavalry may opportunity charge"
    if s.casualties < 0:
        raise ValueError(f"{s.cavalry}: casualties cannot be negative ({s.casualties})")
    if not charge_grounds(s, ruleset):
        return (f"{s.target} ({s.target_arm.value}, {s.target_state.value}, "
                f"{s.target_formation.value}) offers no opportunity charge from the front")
    return None


def charge_modifiers(situation: ChargeSituation, ruleset: str) -> tuple[Modifier, ...]:
    """The modifiers of the ruleset that apply to the charge test."""
    s = situation
    within_8 = s.commander_within_8 or s.commander_within_4
    wanted = [("a_class", int(s.rating is Rating.A)), ("c_class", int(s.rating is Rating.C)),
              ("commander_within_4", int(s.commander_within_4)),
              ("poor_commander", int(s.commander_grade is Grade.POOR)),
              ("flank_or_rear", int(s.flank_or_rear)),
              ("no_commander_within_8", int(not within_8)),
              ("casualty", s.casualties)]
    return _apply(opportunity_table(ruleset).charge_modifiers, wanted)


def charge_odds(situation: ChargeSituation, ruleset: str) -> dict[bool, Fraction]:
    """The exact chance that the charge test is passed (True) or failed (False)."""
    refusal = charge_refusal(situation, ruleset)
    if refusal:
        raise ActionRefused(refusal)
    table = opportunity_table(ruleset)
    net = total_of(charge_modifiers(situation, ruleset))
    return _pass_fail(odds_of(table.die, 1, lambda rolled: rolled + net >= table.charge_need))


def _pass_fail(odds: dict[bool, Fraction]) -> dict[bool, Fraction]:
    return {True: odds.get(True, Fraction(0)), False: odds.get(False, Fraction(0))}


def opportunity_charge(situation: ChargeSituation, dice: DiceSource,
                       ruleset: str) -> ChargeResult:
    """Test whether the cavalry make the opportunity charge."""
    refusal = charge_refusal(situation, ruleset)
    if refusal:
        raise ActionRefused(refusal)
    table = opportunity_table(ruleset)
    roll = roll_for(dice, table.die, 1, f"Rule 6 opportunity charge: {situation.cavalry} "
                                        f"on {situation.target}")
    total = roll.total + total_of(charge_modifiers(situation, ruleset))
    passed = total >= table.charge_need
    follow_ons: tuple[FollowOn, ...] = ()
    if passed:
        follow_ons = (FollowOn(FollowOnTest.REACTION_TO_CHARGE, situation.target,
                               f"Rule 6: charged by {situation.cavalry}"),)
    return ChargeResult(situation, roll, total, passed, follow_ons)


@dataclass(frozen=True)
class ReactionSituation:
    """The target of an opportunity charge and the reaction it tries."""

    brigade: str
    arm: Arm
    rating: Rating
    state: MoraleState
    reaction: Reaction
    beyond_half_move: bool                 # the cavalry are more than half their move away
    flank_or_rear: bool = False
    general_within_4: bool = False
    commander_grade: Grade = Grade.AVERAGE
    casualties: int = 0
    orders_allow_evade: bool = False
    same_corps: bool = False               # an interceptor belongs to the target's corps
    reached_first: bool = True             # the cavalry arrive before a failed reaction is done
    charger: str = "the cavalry"
    morale_facts: frozenset[str] = frozenset()   # Rule 17's table facts, for Rule 18's test


@dataclass(frozen=True)
class ReactionResult:
    """The reaction made: the roll if tested, pass or fail, effects and what follows."""

    situation: ReactionSituation
    roll: Roll | None
    total: int | None
    passed: bool
    effects: tuple[Effect, ...]
    follow_ons: tuple[FollowOn, ...]


def reaction_refusal(situation: ReactionSituation, ruleset: str) -> str | None:
    """Why the target may not make this reaction, or None if it may."""
    s = situation
    table = opportunity_table(ruleset)
    rules = table.reactions.get(s.reaction)
    name = s.reaction.value.replace("_", " ")
    if rules is None:
        known = ", ".join(r.value.replace("_", " ") for r in table.reactions)
        return f"'{name}' is not a reaction in this ruleset (reactions: {known})"
    if not s.beyond_half_move:
        return f"{s.brigade} cannot react: {s.charger} are within half their charge move"
    if s.casualties < 0:
        raise ValueError(f"{s.brigade}: casualties cannot be negative ({s.casualties})")
    if (table.reaction_only_formed or (rules.needs_formed and not by_morale(s, ruleset))) \
            and s.state is not MoraleState.FORMED:
        return f"{s.brigade} is {s.state.value}; only formed troops may {name}"
    if s.arm not in rules.arms:
        return f"{s.brigade} is {s.arm.value}; {name} is for " + \
            " or ".join(sorted(a.value for a in rules.arms))
    if rules.needs_orders and not s.orders_allow_evade:
        return f"{s.brigade} may evade only if its orders allow"
    if rules.same_corps and not s.same_corps:
        return f"{s.brigade} may intercept only for a brigade of its own corps"
    return None


def by_morale(situation: ReactionSituation, ruleset: str) -> bool:
    """Rule 18: whether the reaction rests on a morale test (Rule 17) instead of Rule 6's:
    cavalry Disordered, Shaken or routing that counter charge or evade make morale to do so."""
    s = situation
    table = opportunity_table(ruleset)
    return (s.arm is Arm.CAVALRY and s.state is not MoraleState.FORMED
            and not table.reaction_only_formed and s.reaction in table.unformed_cavalry_morale)


def morale_test_of(situation: ReactionSituation) -> MoraleTest:
    """Rule 18's morale test of the charged cavalry, with the table facts the umpire gave."""
    s = situation
    # Rule 17 reads the class, the state and the casualties; a cavalry brigade must carry a
    # weight, which the test does not read.
    weight = CavalryWeight.LIGHT if s.arm is Arm.CAVALRY else None
    return MoraleTest(Brigade(s.brigade, s.arm, rating=s.rating, cavalry=weight,
                              casualties=s.casualties, state=s.state), s.morale_facts,
                      reason=f"Rule 18: to {s.reaction.value.replace('_', ' ')} when charged")


def reaction_modifiers(situation: ReactionSituation, ruleset: str) -> tuple[Modifier, ...]:
    """The modifiers of the ruleset that apply to the reaction test."""
    s = situation
    wanted = [("a_class", int(s.rating is Rating.A)), ("c_class", int(s.rating is Rating.C)),
              ("general_within_4", int(s.general_within_4)),
              ("poor_commander", int(s.commander_grade is Grade.POOR)),
              ("flank_or_rear", int(s.flank_or_rear)),
              ("cavalry", int(s.arm is Arm.CAVALRY)),
              ("casualty", s.casualties)]
    return _apply(opportunity_table(ruleset).reaction_modifiers, wanted)


def _needs_test(situation: ReactionSituation, ruleset: str) -> bool:
    refusal = reaction_refusal(situation, ruleset)
    if refusal:
        raise ActionRefused(refusal)
    return opportunity_table(ruleset).reactions[situation.reaction].test


def reaction_odds(situation: ReactionSituation, ruleset: str) -> dict[bool, Fraction]:
    """The exact chance the reaction succeeds (True) or fails (False); Rule 18's morale test
    for cavalry not formed that counter charge or evade."""
    refusal = reaction_refusal(situation, ruleset)
    if refusal:
        raise ActionRefused(refusal)
    if by_morale(situation, ruleset):
        made = morale_odds(morale_test_of(situation), ruleset)
        return _pass_fail({True: made[MoraleOutcome.PASS],
                           False: 1 - made[MoraleOutcome.PASS]})
    if not _needs_test(situation, ruleset):
        return {True: Fraction(1), False: Fraction(0)}
    table = opportunity_table(ruleset)
    net = total_of(reaction_modifiers(situation, ruleset))
    return _pass_fail(odds_of(table.die, 1, lambda rolled: rolled + net >= table.reaction_need))


def react(situation: ReactionSituation, dice: DiceSource, ruleset: str) -> ReactionResult:
    """Make the reaction, testing if the table says it needs a test."""
    s = situation
    name = s.reaction.value.replace("_", " ")
    roll = total = None
    passed = True
    table = opportunity_table(ruleset)
    if by_morale(s, ruleset) and not reaction_refusal(s, ruleset):
        made = take_morale_test(morale_test_of(s), dice, ruleset)
        roll, total = made.roll, made.total
        passed = made.outcome is MoraleOutcome.PASS
    elif _needs_test(s, ruleset):
        roll = roll_for(dice, table.die, 1, f"Rule 6 reaction: {s.brigade} tries to {name}")
        total = roll.total + total_of(reaction_modifiers(s, ruleset))
        passed = total >= table.reaction_need
    effects: list[Effect] = []
    follow_ons: list[FollowOn] = []
    if passed:
        effects.append(Effect(s.brigade, note=f"{name}: done before {s.charger} arrive"))
        if s.reaction in (Reaction.COUNTER_CHARGE, Reaction.INTERCEPT):
            follow_ons.append(FollowOn(FollowOnTest.CAVALRY_COMBAT, s.brigade,
                                       f"Rule 14: meets {s.charger} in a cavalry combat"))
    else:
        if table.fail_loss_percent and s.reached_first:
            strength = quick_table(ruleset).strength[s.arm]
            lost = percent_as_casualties(table.fail_loss_percent, strength)
            effects.append(Effect(s.brigade, casualties=lost,
                                  note=f"failed to {name}: {table.fail_loss_percent}% "
                                       f"casualties as {s.charger} arrive"))
        elif by_morale(s, ruleset):
            effects.append(Effect(s.brigade, note=f"does not make morale (Rule 18): cannot "
                                                  f"{name}"))
        else:
            effects.append(Effect(s.brigade, note=f"failed to {name}"))
    meets_them = passed and s.reaction in (Reaction.COUNTER_CHARGE, Reaction.INTERCEPT)
    if not meets_them and not (passed and s.reaction is Reaction.EVADE):
        follow_ons.append(FollowOn(FollowOnTest.CHARGE_CONTACT, s.brigade,
                                   f"Rule 6: {s.charger} reach it; see the quick results "
                                   f"(Rule 8) or the combat rules"))
    return ReactionResult(s, roll, total, passed, tuple(effects), tuple(follow_ons))
