"""Morale tests, automatic rout and rally (Rules 17 and 18 of the 1813 rules).

A test is 1d6 plus modifiers: a high total passes, a middling one leaves the brigade Shaken, a
low one routs it. A brigade whose casualties reach its arm's limit routs without rolling. A
passed test with a commander in base contact (1 pip paid) rallies a brigade one state up.

>>> from campaign1813.campaign.battle.terms import Rating
>>> test = MoraleTest(Brigade("16 Brigade", Arm.INFANTRY, rating=Rating.C, casualties=2),
...                   facts=frozenset({"no-general-within-8"}))
>>> morale_odds(test)[MoraleOutcome.SHAKEN]
Fraction(1, 3)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from functools import cache
from typing import Any

from campaign1813.campaign.battle.dice import DICE, DiceSource, Die, Roll, distribution
from campaign1813.campaign.battle.ruleset1813.rules.brigade import (
    BRIGADE_FACTS,
    Brigade,
    worse_state,
)
from campaign1813.campaign.battle.ruleset1813.rules.loader import RulesetError, load_table
from campaign1813.campaign.battle.ruleset1813.rules.modifiers import (
    Applied,
    ModifierList,
    total,
    with_table_facts,
)
from campaign1813.campaign.battle.terms import Arm, Effect, FollowOn, FollowOnTest, MoraleState

# Names of the follow-on tests, shared by every rule module.
MORALE = FollowOnTest.MORALE
ROUT_REACTION = FollowOnTest.ROUT_REACTION
PURSUIT = FollowOnTest.PURSUIT
PURSUIT_RALLY = FollowOnTest.PURSUIT_RALLY
# The table facts of a test taken because a friend routed within 4 inches (Rule 16), and of
# cavalry still pursuing; shared with rout.py.
ROUT_WITHIN = "rout-within-4"
PURSUING = "pursuit"


class MoraleOutcome(StrEnum):
    """What a morale test gives: pass, Shaken or Rout."""

    PASS = "pass"
    SHAKEN = "shaken"
    ROUT = "rout"


@dataclass(frozen=True)
class MoraleTestDue(FollowOn):
    """A morale test a result triggers, with the table facts it already knows."""

    facts: frozenset[str] = frozenset()


@dataclass(frozen=True)
class MoraleRules:
    """A ruleset's morale test, automatic rout limits, rout moves and rally steps."""

    ruleset: str
    die: Die
    pass_at: int
    shaken_at: int
    modifiers: ModifierList
    automatic_rout: tuple[tuple[Arm, int], ...]
    rout_move: tuple[tuple[Arm, int], ...]
    rally_steps: tuple[tuple[MoraleState, MoraleState], ...]
    end_of_sequence: tuple[tuple[MoraleState, MoraleState], ...]
    raw: dict[str, Any]

    def limit(self, arm: Arm) -> int:
        """Casualties at which this arm routs without testing."""
        return dict(self.automatic_rout)[arm]

    def rout_inches(self, arm: Arm) -> int:
        """How far this arm routs."""
        return dict(self.rout_move)[arm]

    def outcome(self, total_: int) -> MoraleOutcome:
        """The outcome of a modified total."""
        return _outcome(total_, self.pass_at, self.shaken_at)


def _outcome(total_: int, pass_at: int, shaken_at: int) -> MoraleOutcome:
    if total_ >= pass_at:
        return MoraleOutcome.PASS
    if total_ >= shaken_at:
        return MoraleOutcome.SHAKEN
    return MoraleOutcome.ROUT


@cache
def _test_odds(die: Die, pass_at: int, shaken_at: int,
               shift: int) -> tuple[tuple[MoraleOutcome, Fraction], ...]:
    """The chance of each outcome: one distribution per die, numbers and net modifier."""
    odds = dict.fromkeys(MoraleOutcome, Fraction(0))
    for face, p in distribution(die).items():
        odds[_outcome(face + shift, pass_at, shaken_at)] += p
    return tuple(odds.items())


def _state(value: str, where: str) -> MoraleState:
    try:
        return MoraleState(value)
    except ValueError as exc:
        raise RulesetError(f"{where}: '{value}' is not a morale state") from exc


@cache
def morale_rules(ruleset: str = "1813") -> MoraleRules:
    """The morale tables of a ruleset, read and checked once."""
    raw = load_table(ruleset, "morale.toml")
    where = f"{ruleset}/morale.toml"
    try:
        test = raw["test"]
        die = DICE[test["die"]]
        mods = ModifierList.parse(test["modifiers"], f"{where} [test]", BRIGADE_FACTS,
                                  test.get("facts", {}), test.get("conflicts", []))
        auto = tuple((Arm(k), int(v)) for k, v in raw["automatic_rout"].items())
        move = tuple((Arm(k), int(v)) for k, v in raw["rout"]["move"].items())
        rally = raw["rally"]
        steps = tuple((_state(k, where), _state(v, where)) for k, v in rally.items()
                      if k in ("rout", "shaken"))
        eos = tuple((_state(k, where), _state(v, where))
                    for k, v in rally["end_of_sequence"].items())
        rules = MoraleRules(ruleset, die, int(test["pass_at"]), int(test["shaken_at"]), mods,
                            auto, move, steps, eos, raw)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, RulesetError):
            raise
        raise RulesetError(f"{where}: malformed or missing entry ({exc})") from exc
    for arm in Arm:
        if arm not in dict(auto) or arm not in dict(move):
            raise RulesetError(f"{where}: automatic rout and rout move need {arm.value}")
    return rules


@dataclass(frozen=True)
class MoraleTest:
    """A brigade about to test morale, with the table facts that hold for it.

    ``rallying`` means a corps commander or the CinC is in base contact and has paid the pip.
    """

    brigade: Brigade
    facts: frozenset[str] = frozenset()
    rallying: bool = False
    reason: str = ""


def automatic_rout(brigade: Brigade, ruleset: str = "1813") -> bool:
    """Whether the brigade's casualties have reached its arm's automatic-rout limit."""
    return brigade.casualties >= morale_rules(ruleset).limit(brigade.arm)


def morale_modifiers(test: MoraleTest, ruleset: str = "1813") -> tuple[Applied, ...]:
    """The modifiers that apply to this test."""
    rules = morale_rules(ruleset)
    if test.facts:  # no facts asserted: none unknown, none contradicting
        rules.modifiers.check_facts(test.facts, f"morale test of {test.brigade.name}")
    facts = with_table_facts(test.brigade.facts(), test.facts, rules.modifiers)
    return rules.modifiers.applied(facts)


def morale_odds(test: MoraleTest, ruleset: str = "1813") -> dict[MoraleOutcome, Fraction]:
    """The exact chance of each outcome (an automatic rout is certain)."""
    rules = morale_rules(ruleset)
    mods = morale_modifiers(test, ruleset)
    if automatic_rout(test.brigade, ruleset):
        odds = dict.fromkeys(MoraleOutcome, Fraction(0))
        odds[MoraleOutcome.ROUT] = Fraction(1)
        return odds
    return dict(_test_odds(rules.die, rules.pass_at, rules.shaken_at, total(mods)))


@dataclass(frozen=True)
class MoraleResult:
    """A morale test taken: the roll (none for an automatic rout), total, outcome and effects."""

    test: MoraleTest
    roll: Roll | None
    modifiers: tuple[Applied, ...]
    total: int | None
    outcome: MoraleOutcome
    effect: Effect
    follow_ons: tuple[FollowOn, ...]

    @property
    def brigade_after(self) -> Brigade:
        """The brigade as the result leaves it."""
        return self.test.brigade.with_effect(self.effect.casualties, self.effect.new_state)


def take_morale_test(test: MoraleTest, dice: DiceSource, ruleset: str = "1813") -> MoraleResult:
    """Take the test with a roll from ``dice`` and say what it does to the brigade."""
    rules = morale_rules(ruleset)
    mods = morale_modifiers(test, ruleset)
    b = test.brigade
    if automatic_rout(b, ruleset):
        effect, follow = rout_effect(b, ruleset, note=f"routs without testing at "
                                     f"{b.casualties} casualties")
        return MoraleResult(test, None, mods, None, MoraleOutcome.ROUT, effect, follow)
    roll = dice.roll(rules.die, 1, f"morale test of {b.name}")
    score = roll.total + total(mods)
    outcome = rules.outcome(score)
    effect, follow = _after_test(test, outcome, rules)
    return MoraleResult(test, roll, mods, score, outcome, effect, follow)


def rout_effect(brigade: Brigade, ruleset: str = "1813", note: str = "",
                cause: str = "") -> tuple[Effect, tuple[FollowOn, ...]]:
    """A brigade routs: its move, and the Rule 16 reaction of friends within 4 inches.

    A brigade already routing just runs on; only a new rout shakes its neighbours.
    """
    rules = morale_rules(ruleset)
    inches = rules.rout_inches(brigade.arm)
    if brigade.state is MoraleState.ROUT:
        return Effect(brigade.name, rout_inches=inches,
                      note=note or "continues to rout, avoiding friends"), ()
    within = rules.raw.get("reaction", {}).get("within", 4)
    follow = (FollowOn(ROUT_REACTION, f"friendly brigades within {within}\" of {brigade.name} "
                       f"and any it routs through",
                       f"{brigade.name} routed" + (f" ({cause})" if cause else "")),)
    return Effect(brigade.name, new_state=MoraleState.ROUT, rout_inches=inches,
                  note=note or f"routs {inches}\" straight away from the enemy"), follow


def _after_test(test: MoraleTest, outcome: MoraleOutcome,
                rules: MoraleRules) -> tuple[Effect, tuple[FollowOn, ...]]:
    b = test.brigade
    if outcome is MoraleOutcome.ROUT:
        return rout_effect(b, rules.ruleset, note="" if b.state is not MoraleState.ROUT
                           else "fails and continues to rout")
    if b.state is MoraleState.ROUT:
        if outcome is MoraleOutcome.PASS and test.rallying:
            return Effect(b.name, new_state=dict(rules.rally_steps)[b.state],
                          note="rallied"), ()
        return rout_effect(b, rules.ruleset, note="not rallied: continues to rout")
    if outcome is MoraleOutcome.SHAKEN:
        if b.state is MoraleState.SHAKEN:
            return Effect(b.name, note="remains shaken"), ()
        return Effect(b.name, new_state=MoraleState.SHAKEN, note="shaken"), ()
    if b.state is MoraleState.SHAKEN:
        if test.rallying:
            return Effect(b.name, new_state=dict(rules.rally_steps)[b.state], note="rallied"), ()
        return Effect(b.name, note="passes but stays shaken: no commander to rally it"), ()
    involved = involved_state(test, rules.ruleset)
    if involved is not None:
        return Effect(b.name, new_state=involved,
                      note=f"makes morale, but is {involved.value}: involved in a rout"), ()
    return Effect(b.name, note="makes morale"), ()


def involved_state(test: MoraleTest, ruleset: str = "1813") -> MoraleState | None:
    """Rule 16: a brigade that passes a test taken because a friend routed within 4 inches
    is still involved in the rout, and ends disordered (seed 000's demo: "Hussars test morale
    (4) pass, disordered"); None when the test leaves the state as it is."""
    if ROUT_WITHIN not in test.facts:
        return None
    raw = morale_rules(ruleset).raw.get("reaction", {})
    state = MoraleState(raw.get("involved_state", "disordered"))
    new = worse_state(test.brigade.state, state)
    return new if new is not test.brigade.state else None


def rally_state(state: MoraleState, ruleset: str = "1813") -> MoraleState | None:
    """The state a passed rally test brings (Rout → Shaken → Disordered), or None."""
    return dict(morale_rules(ruleset).rally_steps).get(state)


def end_of_sequence(brigade: Brigade, ruleset: str = "1813") -> Brigade:
    """At the end of a complete sequence disordered troops re-form, without pip or test."""
    new = dict(morale_rules(ruleset).end_of_sequence).get(brigade.state)
    if new is None:
        return brigade
    return replace(brigade, state=new)


def casualty_effect(brigade: Brigade, casualties: int, state: MoraleState | None,
                    ruleset: str = "1813", note: str = "",
                    retire_inches: int = 0) -> tuple[Effect, tuple[FollowOn, ...]]:
    """Casualties and a state from a result, with automatic rout when the casualties reach it.

    A result never improves a brigade's state; a new rout brings its move and the reaction
    of nearby friends.
    """
    new_total = brigade.casualties + casualties
    limit = morale_rules(ruleset).limit(brigade.arm)
    final = worse_state(brigade.state, state) if state else None
    if new_total >= limit and brigade.state is not MoraleState.ROUT:
        final = MoraleState.ROUT
        note = (note + "; " if note else "") + f"routs at {new_total} casualties"
    if final is MoraleState.ROUT and brigade.state is not MoraleState.ROUT:
        rout, follow = rout_effect(brigade, ruleset, note=note)
        return Effect(brigade.name, casualties=casualties, new_state=MoraleState.ROUT,
                      retire_inches=retire_inches, rout_inches=rout.rout_inches,
                      note=rout.note), follow
    if final == brigade.state:
        final = None
    return Effect(brigade.name, casualties=casualties, new_state=final,
                  retire_inches=retire_inches, note=note), ()


def owed_morale_tests(brigades: tuple[Brigade, ...]) -> tuple[MoraleTestDue, ...]:
    """The morale tests owed at the end of a corps move: every Shaken or routing brigade."""
    return tuple(MoraleTestDue(MORALE, b.name, f"{b.name} is {b.state.value} and must test")
                 for b in brigades if b.state in (MoraleState.SHAKEN, MoraleState.ROUT))


def state_odds(test: MoraleTest, ruleset: str = "1813") -> dict[MoraleState, Fraction]:
    """The exact chance of each state the brigade ends the test in (rally included)."""
    rules = morale_rules(ruleset)
    out: dict[MoraleState, Fraction] = {}
    for outcome, p in morale_odds(test, ruleset).items():
        if not p:
            continue
        effect, _ = _after_test(test, outcome, rules)
        state = effect.new_state or test.brigade.state
        out[state] = out.get(state, Fraction(0)) + p
    return out


def rout_point(arm: Arm, ruleset: str = "1813") -> int:
    """The casualties at which a brigade of this arm routs without testing (6 / 4 / 3).

    >>> rout_point(Arm.CAVALRY)
    4
    """
    return morale_rules(ruleset).limit(arm)
