"""Rule 8: quick results, for contacts too uneven to fight out.

Some charges are not allowed at all; some contacts end at once (a column of march caught by
cavalry, limbered guns overrun, routers caught). A brigade may escape a quick result if the
table shows it could (change formation, evade, turn to face); otherwise the result is applied.
After any hand-to-hand combat everyone is Disordered unless already worse. The revision adds a
test for troops just behind the crest of a hill when an enemy comes close.

>>> c = Contact("16 Brigade", Arm.INFANTRY, MoraleState.FORMED,
...             QuickCase.COLUMN_OF_MARCH_CONTACTED_BY_CAVALRY, by="Prussian hussars",
...             by_arm=Arm.CAVALRY)
>>> quick_result(c, "1813").effects[0].casualties
3
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from campaign1813.campaign.battle.dice import DiceSource, Roll
from campaign1813.campaign.battle.ruleset1813.rules.common import (
    ActionRefused,
    Modifier,
    certain,
    odds_of,
    percent_as_casualties,
    roll_for,
    total_of,
    worse_state,
)
from campaign1813.campaign.battle.ruleset1813.rules.morale import morale_rules
from campaign1813.campaign.battle.ruleset1813.rules.tables.quick import (
    CrestTest,
    QuickCase,
    quick_table,
)
from campaign1813.campaign.battle.terms import (
    Arm,
    Effect,
    FollowOn,
    FollowOnTest,
    Formation,
    MoraleState,
    Rating,
)

__all__ = ["QuickCase", "Contact", "QuickResult", "quick_cases", "quick_result", "quick_odds",
           "charge_refusal", "cavalry_answers", "after_combat", "CrestSituation", "CrestResult",
           "crest_test_due", "crest_modifiers", "crest_odds", "crest_test"]

_INFANTRY_THAT_DRIVE_OFF_CAVALRY = (Formation.COLUMN_OF_MARCH, Formation.LINE, Formation.SQUARE)


@dataclass(frozen=True)
class Contact:
    """A contact that may be a quick result, with the facts that let the brigade escape it."""

    brigade: str
    arm: Arm
    state: MoraleState
    case: QuickCase
    by: str = "the enemy"
    by_arm: Arm | None = None
    able_to_escape: bool = False            # could change formation, evade or turn to face
    more_than_half_move_away: bool = False  # gunners: the enemy started over half a move away
    supports_within_4: bool = False         # gunners: friends within 4 inches to run to


@dataclass(frozen=True)
class QuickResult:
    """What the contact did: whether the brigade escaped, its effect and the tests that follow."""

    contact: Contact
    escaped: bool
    effects: tuple[Effect, ...]
    follow_ons: tuple[FollowOn, ...]


def quick_cases(ruleset: str) -> tuple[QuickCase, ...]:
    """The quick results a ruleset has."""
    return tuple(quick_table(ruleset).cases)


def _rout_follow_ons(brigade: str, by: str, by_arm: Arm | None,
                     ruleset: str) -> tuple[FollowOn, ...]:
    # The reach of a rout is the morale table's (Rule 16), so a house rule changes it here too.
    within = morale_rules(ruleset).raw.get("reaction", {}).get("within", 4)
    result = [FollowOn(FollowOnTest.ROUT_REACTION,
                       f"friendly brigades within {within} inches of {brigade}",
                       f"Rule 16: {brigade} routs")]
    if by_arm is Arm.CAVALRY:
        result.append(FollowOn(FollowOnTest.PURSUIT, by, f"Rule 16: cavalry that rout {brigade} "
                                                   f"test to pursue"))
    return tuple(result)


def quick_result(contact: Contact, ruleset: str) -> QuickResult:
    """Apply the ruleset's quick result for the contact, unless the brigade escapes it."""
    c = contact
    table = quick_table(ruleset)
    rules = table.cases.get(c.case)
    name = c.case.value.replace("_", " ")
    if rules is None:
        raise ActionRefused(f"this ruleset has no quick result for {name}; fight the contact "
                            f"out under the combat rules")
    if c.arm not in rules.arms:
        raise ActionRefused(f"{c.brigade} is {c.arm.value}; the quick result for {name} is for "
                            + " or ".join(sorted(a.value for a in rules.arms)))
    if c.state not in rules.states:
        raise ActionRefused(f"{c.brigade} is {c.state.value}; the quick result for {name} is "
                            f"for brigades that are "
                            + " or ".join(s.value for s in MoraleState if s in rules.states))
    if rules.escape_requires and all(getattr(c, fact) for fact in rules.escape_requires):
        return QuickResult(c, True, (Effect(c.brigade, note=f"escapes: {rules.escape}"),), ())
    casualties = rules.casualties + percent_as_casualties(rules.loss_percent,
                                                          table.strength[c.arm])
    new_state = worse_state(c.state, rules.new_state) if rules.new_state else None
    parts = []
    if rules.loss_percent:
        parts.append(f"{rules.loss_percent}% casualties")
    if rules.removed:
        parts.append("all lost")
    if new_state:
        parts.append(new_state.value)
    effect = Effect(c.brigade, casualties=0 if rules.removed else casualties,
                    new_state=None if rules.removed else new_state, removed=rules.removed,
                    note=f"{name} by {c.by}: " + ", ".join(parts))
    follow_ons: tuple[FollowOn, ...] = ()
    if new_state is MoraleState.ROUT and not rules.removed:
        follow_ons = _rout_follow_ons(c.brigade, c.by, c.by_arm, ruleset)
    return QuickResult(c, False, (effect,), follow_ons)


def quick_odds(contact: Contact, ruleset: str) -> dict[QuickResult, Fraction]:
    """A quick result needs no roll: its one outcome, certain."""
    return certain(quick_result(contact, ruleset))


def charge_refusal(charger: str, charger_arm: Arm, target_arm: Arm, target_formation: Formation,
                   target_state: MoraleState, ruleset: str) -> str | None:
    """Why a charge may not be made at all (Rule 8), or None if it may."""
    table = quick_table(ruleset)
    if (charger_arm is Arm.CAVALRY and target_formation is Formation.SQUARE
            and target_state is MoraleState.FORMED and not table.cavalry_may_charge_formed_square):
        return (f"{charger} cannot charge a formed square; cavalry halt "
                f"{table.cavalry_halt_from_square} inches from it")
    if (charger_arm is Arm.INFANTRY and target_arm is Arm.CAVALRY
            and not table.infantry_may_charge_cavalry):
        return f"{charger} is infantry and cannot charge cavalry"
    return None


def cavalry_answers(infantry_formation: Formation, inches: Fraction | float,
                    ruleset: str) -> tuple[str, ...]:
    """What cavalry must do when infantry come this close: "withdraw" and perhaps "charge".

    Empty when the infantry's formation or distance does not force a choice.
    """
    table = quick_table(ruleset)
    if infantry_formation in _INFANTRY_THAT_DRIVE_OFF_CAVALRY and \
            inches <= table.infantry_approach_inches:
        return table.cavalry_answers
    return ()


def after_combat(brigade: str, state: MoraleState, ruleset: str) -> Effect:
    """Every brigade in a hand-to-hand combat ends it Disordered, unless already worse."""
    imposed = quick_table(ruleset).after_combat_state
    return Effect(brigade, new_state=worse_state(state, imposed), note="after hand-to-hand combat")


# --- the revision's crest-of-hill test ------------------------------------------------------


@dataclass(frozen=True)
class CrestSituation:
    """A brigade just behind a crest with an enemy coming close."""

    brigade: str
    rating: Rating
    state: MoraleState = MoraleState.FORMED
    british: bool = False


@dataclass(frozen=True)
class CrestResult:
    """The crest test made: roll, total, the state it gives (None: OK), effects, follow-ons."""

    situation: CrestSituation
    roll: Roll
    total: int
    result: MoraleState | None
    effects: tuple[Effect, ...]
    follow_ons: tuple[FollowOn, ...]


def _crest(ruleset: str) -> CrestTest:
    crest = quick_table(ruleset).crest
    if crest is None:
        raise ActionRefused("this ruleset has no crest-of-hill test")
    return crest


def crest_test_due(crest_inches: Fraction | float, enemy_inches: Fraction | float,
                   ruleset: str) -> bool:
    """Whether troops this near a crest, with an enemy this near, must test."""
    crest = quick_table(ruleset).crest
    if crest is None:
        return False
    return crest_inches <= crest.crest_inches and enemy_inches <= crest.enemy_inches


def crest_modifiers(situation: CrestSituation, ruleset: str) -> tuple[Modifier, ...]:
    """The crest test's modifiers; British or A class counts once."""
    entries = _crest(ruleset).modifiers
    result = []
    if situation.british or situation.rating is Rating.A:
        result.append(entries.get("british_or_a_class"))
    if situation.rating is Rating.C:
        result.append(entries.get("c_class"))
    return tuple(Modifier(e.key, e.label, e.value) for e in result if e is not None)


def _crest_result(total: int, crest: CrestTest) -> MoraleState | None:
    for up_to, state in crest.results:
        if total <= up_to:
            return state
    return None


def crest_odds(situation: CrestSituation, ruleset: str) -> dict[MoraleState | None, Fraction]:
    """The exact chance of each result: Rout, Shaken, Disordered, or None for OK."""
    crest = _crest(ruleset)
    net = total_of(crest_modifiers(situation, ruleset))
    odds = odds_of(crest.die, 1, lambda rolled: _crest_result(rolled + net, crest))
    outcomes = [state for _, state in crest.results] + [None]
    return {o: odds.get(o, Fraction(0)) for o in outcomes}


def crest_test(situation: CrestSituation, dice: DiceSource, ruleset: str) -> CrestResult:
    """Make the crest test and say what it does to the brigade."""
    crest = _crest(ruleset)
    roll = roll_for(dice, crest.die, 1, f"crest of hill test: {situation.brigade}")
    total = roll.total + total_of(crest_modifiers(situation, ruleset))
    result = _crest_result(total, crest)
    effects: tuple[Effect, ...] = ()
    follow_ons: tuple[FollowOn, ...] = ()
    new_state = worse_state(situation.state, result) if result else None
    if new_state:
        effects = (Effect(situation.brigade, new_state=new_state, note="crest of hill test"),)
        if new_state is MoraleState.ROUT:
            follow_ons = _rout_follow_ons(situation.brigade, "", None, ruleset)
    return CrestResult(situation, roll, total, result, effects, follow_ons)
