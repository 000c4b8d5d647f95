"""Reaction to a rout, pursuit and the rally of pursuers (Rule 16 of the 1813 rules).

When a brigade routs, friends within 4 inches react: those already routing leave the table,
Shaken ones rout, the rest test morale; those it routs through are disordered and test too.
Cavalry that cause a rout may pursue (1d6), and a pursuit goes one of three ways (1d6 again).

>>> from campaign1813.campaign.battle.ruleset1813.rules.brigade import Brigade, CavalryWeight
>>> from campaign1813.campaign.battle.terms import Arm
>>> hussars = Brigade("11 Cavalry", Arm.CAVALRY, cavalry=CavalryWeight.LIGHT)
>>> pursuit_chance(hussars)
Fraction(1, 3)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from campaign1813.campaign.battle.dice import DICE, DiceSource, Die, Roll, distribution
from campaign1813.campaign.battle.ruleset1813.rules.brigade import Brigade, worse_state
from campaign1813.campaign.battle.ruleset1813.rules.combat import CombatRefused
from campaign1813.campaign.battle.ruleset1813.rules.loader import RulesetError
from campaign1813.campaign.battle.ruleset1813.rules.morale import (
    MORALE,
    PURSUING,
    PURSUIT_RALLY,
    ROUT_WITHIN,
    MoraleOutcome,
    MoraleResult,
    MoraleTest,
    MoraleTestDue,
    automatic_rout,
    casualty_effect,
    morale_odds,
    morale_rules,
    rout_effect,
    take_morale_test,
)
from campaign1813.campaign.battle.terms import Arm, Effect, FollowOn, FollowOnTest, MoraleState

CHARGE = FollowOnTest.CHARGE
ROUTED_THROUGH = "routed-through"
__all__ = ["CHARGE", "ROUT_WITHIN", "ROUTED_THROUGH", "PURSUING", "Nearby", "Reaction",
           "rout_reaction", "PursuitRow", "pursuit_chance", "pursuit_odds", "PursuitResult",
           "pursue", "rally_pursuers_odds", "rally_pursuers", "pursuers_not_rallied"]


@dataclass(frozen=True)
class Nearby:
    """A friendly brigade near a rout: within 4 inches, or routed through."""

    brigade: Brigade
    routed_through: bool = False
    facts: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Reaction:
    """What a rout does to nearby friends: effects now, and the morale tests they must take."""

    effects: tuple[Effect, ...]
    tests: tuple[MoraleTest, ...]
    follow_ons: tuple[FollowOn, ...]


def rout_reaction(routed: Brigade, nearby: tuple[Nearby, ...],
                  ruleset: str = "1813") -> Reaction:
    """The reaction of friendly troops near a brigade that has just routed."""
    raw = morale_rules(ruleset).raw.get("reaction", {})
    through_state = MoraleState(raw.get("routed_through_state", "disordered"))
    actions = {MoraleState.ROUT: raw.get("rout", "removed"),
               MoraleState.SHAKEN: raw.get("shaken", "rout")}
    effects: list[Effect] = []
    tests: list[MoraleTest] = []
    follow: list[FollowOn] = []
    for n in nearby:
        b = n.brigade
        if b.name == routed.name:
            raise CombatRefused(f"{b.name} cannot react to its own rout")
        action = actions.get(b.state, raw.get("other", "test"))
        if action == "removed":
            effects.append(Effect(b.name, removed=True,
                                  note=f"already routing near {routed.name}: leaves the table"))
        elif action == "rout":
            effect, more = rout_effect(b, ruleset, note=f"shaken near {routed.name}: routs",
                                       cause=f"beside {routed.name}")
            effects.append(effect)
            follow.extend(more)
        elif action == "test":
            facts = set(n.facts) | {ROUT_WITHIN}
            if n.routed_through:
                facts.add(ROUTED_THROUGH)
                new = worse_state(b.state, through_state)
                if new is not b.state:
                    effects.append(Effect(b.name, new_state=new,
                                          note=f"{routed.name} routed through it"))
                    b = replace(b, state=new)
            test = MoraleTest(b, frozenset(facts), reason=f"{routed.name} routed nearby")
            tests.append(test)
            follow.append(MoraleTestDue(MORALE, b.name, test.reason, test.facts))
        else:
            raise RulesetError(f"{ruleset}/morale.toml [reaction]: unknown action '{action}'")
    return Reaction(tuple(effects), tuple(tests), tuple(follow))


@dataclass(frozen=True)
class PursuitRow:
    """One pursuit result: its faces, what the cavalry do, how far, casualties caused."""

    low: int
    high: int
    action: str
    result: str
    move: int = 0
    within: int = 0
    casualties: int = 0


def _pursuit_table(ruleset: str) -> tuple[Die, int, dict[str, int], tuple[PursuitRow, ...]]:
    where = f"{ruleset}/morale.toml [pursuit]"
    try:
        raw = morale_rules(ruleset).raw["pursuit"]
        rows = tuple(PursuitRow(int(r["min"]), int(r["max"]), str(r["action"]), str(r["result"]),
                                int(r.get("move", 0)), int(r.get("within", 0)),
                                int(r.get("casualties", 0))) for r in raw["results"])
        return DICE[raw["die"]], int(raw["pursue_at"]), dict(raw.get("nations", {})), rows
    except (KeyError, TypeError, ValueError) as exc:
        raise RulesetError(f"{where}: malformed or missing entry ({exc})") from exc


def _check_cavalry(cavalry: Brigade) -> None:
    if cavalry.arm is not Arm.CAVALRY:
        raise CombatRefused(f"only cavalry pursue, not {cavalry.name} ({cavalry.arm.value})")


def pursuit_chance(cavalry: Brigade, ruleset: str = "1813") -> Fraction:
    """The chance that cavalry which caused a rout pursue (British on a lower roll)."""
    _check_cavalry(cavalry)
    die, at, nations, _ = _pursuit_table(ruleset)
    need = nations.get(cavalry.nation.lower(), at)
    return sum((p for face, p in distribution(die).items() if face >= need), Fraction(0))


def pursuit_odds(cavalry: Brigade, ruleset: str = "1813"
                 ) -> tuple[tuple[PursuitRow | None, Fraction], ...]:
    """The exact chance of no pursuit (None) and of each pursuit result."""
    die, _, _, rows = _pursuit_table(ruleset)
    p = pursuit_chance(cavalry, ruleset)
    faces = distribution(die)
    out: list[tuple[PursuitRow | None, Fraction]] = [(None, 1 - p)]
    for row in rows:
        out.append((row, p * sum((q for f, q in faces.items() if row.low <= f <= row.high),
                                 Fraction(0))))
    return tuple(out)


@dataclass(frozen=True)
class PursuitResult:
    """A pursuit test: whether the cavalry pursue, and if so how, with its effects."""

    cavalry: Brigade
    pursue_roll: Roll
    pursues: bool
    result_roll: Roll | None
    row: PursuitRow | None
    effects: tuple[Effect, ...]
    follow_ons: tuple[FollowOn, ...]


def pursue(cavalry: Brigade, routers: Brigade | None, dice: DiceSource,
           ruleset: str = "1813") -> PursuitResult:
    """Roll whether cavalry that caused a rout pursue, then how; say what it does."""
    _check_cavalry(cavalry)
    die, at, nations, rows = _pursuit_table(ruleset)
    need = nations.get(cavalry.nation.lower(), at)
    first = dice.roll(die, 1, f"Rule 16: does {cavalry.name} pursue ({need}+)?")
    if first.total < need:
        return PursuitResult(cavalry, first, False, None, None,
                             (Effect(cavalry.name, note="does not pursue"),), ())
    second = dice.roll(die, 1, f"Rule 16: pursuit of {cavalry.name}")
    row = next(r for r in rows if r.low <= second.total <= r.high)
    effects = [Effect(cavalry.name, note=f"pursues: {row.result}")]
    follow: list[FollowOn] = []
    if row.action == "routers":
        if routers is not None and row.casualties:
            effect, more = casualty_effect(routers, row.casualties, None, ruleset,
                                           note=f"caught by {cavalry.name}")
            effects.append(effect)
            follow.extend(more)
    elif row.action == CHARGE:
        follow.append(FollowOn(CHARGE, cavalry.name,
                               f"pursuit: charge the nearest enemy within {row.within}\" and "
                               f"45 degrees, if any (Rule 14 or 15)"))
    else:
        raise RulesetError(f"{ruleset}/morale.toml [pursuit]: unknown action '{row.action}'")
    follow.append(MoraleTestDue(PURSUIT_RALLY, cavalry.name,
                                f"{cavalry.name} pursued: must try to rally next move",
                                frozenset({PURSUING})))
    return PursuitResult(cavalry, first, True, second, row, tuple(effects), tuple(follow))


def _pursuit_test(test: MoraleTest) -> MoraleTest:
    _check_cavalry(test.brigade)
    if not test.rallying:
        raise CombatRefused(f"{test.brigade.name}: a commander must be in base contact and pay "
                            "1 pip to rally pursuers")
    return replace(test, facts=test.facts | {PURSUING})


def rally_pursuers_odds(test: MoraleTest, ruleset: str = "1813") -> dict[MoraleState, Fraction]:
    """The chance that pursuing cavalry rally (disordered) or go back shaken."""
    test = _pursuit_test(test)
    raw = morale_rules(ruleset).raw["pursuit"]
    ok, bad = MoraleState(raw["rally_pass"]), MoraleState(raw["rally_fail"])
    if automatic_rout(test.brigade, ruleset):
        return {MoraleState.ROUT: Fraction(1)}
    odds = morale_odds(test, ruleset)
    failed = odds[MoraleOutcome.SHAKEN] + odds[MoraleOutcome.ROUT]
    return {ok: odds[MoraleOutcome.PASS], bad: failed}


def rally_pursuers(test: MoraleTest, dice: DiceSource, ruleset: str = "1813") -> MoraleResult:
    """Pursuing cavalry try to rally: pass and they are disordered, fail and they go back shaken."""
    test = _pursuit_test(test)
    raw = morale_rules(ruleset).raw["pursuit"]
    result = take_morale_test(test, dice, ruleset)
    if result.roll is None:  # casualties at the limit: an automatic rout stands
        return result
    b = test.brigade
    if result.outcome is MoraleOutcome.PASS:
        effect = Effect(b.name, new_state=MoraleState(raw["rally_pass"]), note="rallied")
    else:
        effect = Effect(b.name, new_state=MoraleState(raw["rally_fail"]),
                        note="fails to rally: returns to its own lines")
    return replace(result, effect=effect, follow_ons=())


def pursuers_not_rallied(cavalry: Brigade, ruleset: str = "1813") -> Effect:
    """Pursuers whose rally no commander can make (none in base contact, or no pip to pay):
    the attempt the rule requires fails, and they go back to their own lines as a failed
    rally leaves them (Shaken)."""
    _check_cavalry(cavalry)
    raw = morale_rules(ruleset).raw["pursuit"]
    return Effect(cavalry.name, new_state=worse_state(cavalry.state,
                                                      MoraleState(raw["rally_fail"])),
                  note="no commander to rally them: return to their own lines")
