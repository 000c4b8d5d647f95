"""Every rule's test inside a battle in progress.

The battle knows the brigades (class, grades, casualties, morale state, formation, calibre); the
umpire gives only what the table shows (range band, within 4 inches, flank, cover, supports) as
``options``. :func:`prepare` fills a rule's situation from both and gives the exact odds of each
outcome before anything is rolled; :func:`take` rolls (or reads the typed roll), applies the
effects to the brigades and queues the tests the result triggers.

Test names, the rule each reads, and the step of the sequence it belongs to:

====================  ==========================  ===================
``spot``              Rule 1                      spot
``fire``, ``bounce``  Rule 7 (bounce-through)     artillery fire
``morale``, ``rally`` Rules 17 and 18             (when triggered)
``charge``, ``react`` Rule 6 (and its revision)   movement
``quick``, ``crest``  Rule 8 (crest: revision)    combats
``combat``            Rules 9, 10, 13, 14, 15     combats
``firefight``         Rule 12                     combats
``skirmish``          Rule 11                     combats
``reaction``          Rule 16 (rout reaction)     (when triggered)
``pursuit``           Rule 16                     (when triggered)
``rally-pursuers``    Rule 16                     (next activation)
====================  ==========================  ===================
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from campaign1813.campaign.battle.dice import DiceSource, Roll
from campaign1813.campaign.battle.ruleset1813 import report_lines
from campaign1813.campaign.battle.ruleset1813.fight import (
    FightState,
    Outcome,
    Pending,
    Stage,
    _activation,
    _budget,
    _corps_of_commander,
    _paid,
    _playing,
    brigade_now,
    brigade_of,
    corps_of_brigade,
    enter_stage,
    label_of,
    missing,
    on_blind,
    side_of,
)
from campaign1813.campaign.battle.ruleset1813.rules import quick as quick_rules
from campaign1813.campaign.battle.ruleset1813.rules.artillery import (
    Battery,
    FireSituation,
    RangeBand,
    Target,
    artillery_fire,
    fire_odds,
    range_band,
)
from campaign1813.campaign.battle.ruleset1813.rules.brigade import Brigade
from campaign1813.campaign.battle.ruleset1813.rules.combat import (
    Combat,
    CombatSide,
    combat_odds,
    combat_rule,
    fight,
)
from campaign1813.campaign.battle.ruleset1813.rules.command import corps_action
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused
from campaign1813.campaign.battle.ruleset1813.rules.morale import (
    PURSUING,
    MoraleTest,
    automatic_rout,
    morale_rules,
    rally_state,
    rout_point,
    state_odds,
    take_morale_test,
)
from campaign1813.campaign.battle.ruleset1813.rules.opportunity import (
    ChargeSituation,
    Reaction,
    ReactionSituation,
    by_morale,
    charge_odds,
    opportunity_charge,
    react,
    reaction_odds,
)
from campaign1813.campaign.battle.ruleset1813.rules.orders import (
    BrigadeIntent,
    Intent,
    order_allows,
    order_rules,
)
from campaign1813.campaign.battle.ruleset1813.rules.rout import (
    Nearby,
    pursue,
    pursuers_not_rallied,
    pursuit_odds,
    rally_pursuers,
    rally_pursuers_odds,
    rout_reaction,
)
from campaign1813.campaign.battle.ruleset1813.rules.skirmish import (
    Skirmish,
    skirmish,
    skirmish_odds,
    skirmish_rules,
)
from campaign1813.campaign.battle.ruleset1813.rules.spotting import (
    Cover,
    SpotSituation,
    Spotter,
    spot,
    spot_odds,
)
from campaign1813.campaign.battle.ruleset1813.rules.tables.command import CorpsAction
from campaign1813.campaign.battle.ruleset1813.rules.tables.quick import QuickCase
from campaign1813.campaign.battle.setup import BattleSetup
from campaign1813.campaign.battle.terms import (
    Arm,
    Calibre,
    CorpsOrder,
    Effect,
    FollowOn,
    FollowOnTest,
    Formation,
    MoraleState,
)
from campaign1813.campaign.words import possessive

__all__ = ["TESTS", "OPTIONS", "Prepared", "Resolved", "prepare", "take", "take_queued",
           "known_facts", "options_of", "check_options"]

Options = Mapping[str, Any]


@dataclass(frozen=True)
class Resolved:
    """A test taken: its report line, rolls, effects and the tests it triggers."""

    line: str
    rolls: tuple[Roll, ...]
    effects: tuple[Effect, ...] = ()
    follow_ons: tuple[FollowOn, ...] = ()
    spotted: str = ""
    cause: str = ""


@dataclass(frozen=True)
class Prepared:
    """A test ready to roll: what the battle filled in, the exact odds, and how to roll it."""

    test: str
    rule: str
    known: tuple[str, ...]
    odds: tuple[tuple[str, Fraction], ...]
    run: Callable[[DiceSource], Resolved]
    stage: str | None = None
    pays: CorpsAction | None = None
    resolves: tuple[str, ...] = ()
    acts: str = ""


# -- reading options -----------------------------------------------------------------------


def _flag(options: Options, name: str) -> bool:
    value = options.get(name, False)
    if isinstance(value, str):
        return value.lower() in ("1", "yes", "true", "y")
    return bool(value)


def _text(options: Options, name: str, default: str = "") -> str:
    return str(options.get(name) or default)


def _facts(options: Options, name: str = "facts") -> frozenset[str]:
    value = options.get(name) or ()
    if isinstance(value, str):
        value = [v for v in value.split(",") if v]
    return frozenset(str(v).strip() for v in value)


def _choice(enum: Any, text: str, what: str) -> Any:
    words = text.strip().lower().replace("-", "_").replace(" ", "_")
    for member in enum:
        value = member.value.replace("-", "_").replace(" ", "_")
        if words in (value, member.name.lower()):
            return member
    known = ", ".join(m.value.replace("_", "-") for m in enum)
    raise ActionRefused(f"'{text}' is not a {what} (one of: {known})")


def _number(options: Options, name: str) -> Fraction | None:
    value = options.get(name)
    if value in (None, ""):
        return None
    try:
        out = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise ActionRefused(f"--{name} must be a number of inches, not '{value}'") from None
    if out < 0:
        raise ActionRefused(f"--{name} cannot be negative ({value})")
    return out


# -- the brigades as the rules read them -------------------------------------------------------


def _brigade(setup: BattleSetup, state: FightState, key: str) -> Brigade:
    now = brigade_now(state, setup, key)
    if now.removed:
        raise ActionRefused(f"{label_of(setup, key)} has left the table")
    b = setup.brigade(key)
    return replace(brigade_of(b, now.casualties, now.state, now.formation),
                   name=label_of(setup, key))


def known_facts(setup: BattleSetup, state: FightState, key: str) -> str:
    """What the battle knows of a brigade, in one line for the umpire."""
    b = setup.brigade(key)
    now = state.brigades[key]
    parts = [f"class {b.rating.value}"]
    if b.arm is Arm.INFANTRY:
        parts += [f"firepower {b.firepower.value}", f"skirmish {b.skirmish.value}"]
    if b.arm is Arm.CAVALRY and b.cavalry:
        parts.append(b.cavalry.value + (" lancers" if b.lancers else ""))
    if b.arm is Arm.ARTILLERY:
        parts.append(f"{b.calibre} pounder" + (" horse" if b.horse else ""))
    parts.append(f"{now.casualties} of {rout_point(b.arm, setup.ruleset)} casualties")
    parts.append(now.state.value)
    if now.pursuing:
        parts.append("pursuing (Rule 16: rallies at its next move)")
    if now.formation:
        parts.append(now.formation.value)
    return f"{label_of(setup, key)}: " + ", ".join(parts)


def _commander_grade(setup: BattleSetup, state: FightState, key: str) -> Any:
    corps = corps_of_brigade(state, key)
    return setup.commander(setup.corps_of(corps).commander).grade


def _orders_of(state: FightState, key: str) -> CorpsOrder:
    return state.corps[corps_of_brigade(state, key)].orders


def _on_orders(setup: BattleSetup, state: FightState, who: str, allowed: tuple[CorpsOrder, ...],
               rule: str, what: str) -> None:
    """Refuse a brigade whose corps' orders are not among those the rule names."""
    order = _orders_of(state, who)
    if allowed and order not in allowed:
        names = " or ".join(o.value for o in allowed)
        raise ActionRefused(f"{rule}: {what} only on {names} orders; "
                            f"{label_of(setup, who)} ({corps_of_brigade(state, who)}) has "
                            f"{order.value} orders")


def _licence(setup: BattleSetup, state: FightState, who: str, intent: Intent,
             options: Options) -> None:
    """Rule 4: the brigade's orders let it fire (infantry) or charge (cavalry) at all, and at
    the distance the umpire gives (``--inches``) where they name one."""
    order = _orders_of(state, who)
    inches = _number(options, "inches")
    rules = order_rules(order, setup.ruleset)
    licence = rules.infantry_fire if intent is Intent.INFANTRY_FIRE else rules.cavalry_charge
    if licence == "never" or (licence == "within" and inches is not None):
        verdict = order_allows(order, BrigadeIntent(label_of(setup, who),
                                                    setup.brigade(who).arm, intent, inches),
                               setup.ruleset)
        if not verdict:
            raise ActionRefused(f"Rule 4: {verdict.reason}")


def _seen(setup: BattleSetup, state: FightState, target: str, what: str) -> None:
    """Rule 1: the brigades of a blind not yet spotted are not on the table to be fired on,
    charged or fought; contact does not spot them (the spot is a step of its own, automatic at
    close range, taken at the spot step before the charge)."""
    corps = corps_of_brigade(state, target)
    if on_blind(state, corps):
        raise ActionRefused(f"Rule 1: {label_of(setup, target)} is on {possessive(corps)} "
                            f"blind, not yet spotted; {what} only once the blind is spotted "
                            "and its figures are on the table")


def _once(state: FightState, who: str, what: str) -> bool:
    act = state.activation
    return act is not None and (who, what) in act.acted


def _need(key: str, what: str) -> str:
    if not key:
        raise ActionRefused(f"name the {what}")
    return key


def _yes_no(odds: Mapping[bool, Fraction], yes: str, no: str) -> tuple[tuple[str, Fraction], ...]:
    return ((yes, odds.get(True, Fraction(0))), (no, odds.get(False, Fraction(0))))


def _effect_text(e: Effect) -> str:
    """``2 Infantry Brigade: 3 casualties, rout``."""
    return report_lines.effect_text(e.brigade, e.casualties, e.new_state, e.removed)


def _faces(roll: Roll | None) -> str:
    return f"({roll.total})" if roll is not None else "(no roll)"


# -- the tests ---------------------------------------------------------------------------------


def _spot(setup: BattleSetup, state: FightState, who: str, target: str,
          options: Options) -> Prepared:
    target = _need(target, "blind (corps) to spot")
    if target not in state.corps:
        raise ActionRefused(f"there is no corps '{target}' whose blind could be spotted")
    if state.corps[target].spotted:
        raise ActionRefused(f"{target} is already spotted")
    if who in state.corps:
        kind, name = Spotter.BLIND, f"{possessive(who)} blind"
    elif who in state.brigades:
        kind, name = Spotter(setup.brigade(who).arm.value), label_of(setup, who)
    else:
        kind, name = Spotter.GENERAL, setup.commander(_need(who, "spotter")).name
    inches = _number(options, "inches")
    if inches is None:
        raise ActionRefused("give the distance to the blind in inches (--inches)")
    situation = SpotSituation(name, kind, f"{possessive(target)} blind",
                              _choice(Cover, _text(options, "cover", "open"), "cover"), inches)
    odds = spot_odds(situation, setup.ruleset)

    def run(dice: DiceSource) -> Resolved:
        r = spot(situation, dice, setup.ruleset)
        word = "spotted" if r.spotted else "not spotted"
        return Resolved(f"Spot {target} from {name} at {inches}\" {situation.cover.value} "
                        f"{_faces(r.roll)} {word}", (r.roll,) if r.roll else (),
                        follow_ons=r.follow_ons, spotted=target if r.spotted else "")
    return Prepared("spot", "Rule 1", (f"{name} looks for {possessive(target)} blind",),
                    _yes_no(odds, "spotted", "not spotted"), run, Stage.SPOT)


def _battery(setup: BattleSetup, state: FightState, key: str) -> Battery:
    b = setup.brigade(key)
    if b.arm is not Arm.ARTILLERY:
        raise ActionRefused(f"{label_of(setup, key)} is {b.arm.value}, not a battery")
    now = brigade_now(state, setup, key)
    if now.removed:
        raise ActionRefused(f"{label_of(setup, key)} has left the table")
    return Battery(label_of(setup, key), Calibre.from_pounds(b.calibre), b.rating,
                   now.casualties, now.state, now.formation is Formation.LIMBERED)


def _fire(setup: BattleSetup, state: FightState, who: str, target: str,
          options: Options, bounce: bool = False) -> Prepared:
    battery = _battery(setup, state, _need(who, "battery"))
    target = _need(target, "target brigade")
    aim = _brigade(setup, state, target)
    if side_of(setup, target) == side_of(setup, who):
        raise ActionRefused(f"{aim.name} is a friend of {battery.name}")
    _seen(setup, state, target, "artillery fires on it")
    if not bounce and _once(state, who, "fire"):
        raise ActionRefused(f"Rule 7: a battery fires once per move; {battery.name} has "
                            "fired this move")
    inches = _number(options, "inches")
    band_text = _text(options, "band")
    if band_text:
        band = _choice(RangeBand, band_text, "range band (short or long)")
    elif inches is not None:
        found = range_band(battery.calibre, inches, setup.ruleset)
        if found is None:
            raise ActionRefused(f"{battery.name} ({battery.calibre.value} pounder) cannot reach "
                                f"{inches} inches")
        band = found
    else:
        raise ActionRefused("give the range band (--band short|long) or the distance (--inches)")
    kind_text = _text(options, "cover")
    kind = _choice(Target, kind_text, "target") if kind_text else Target(aim.arm.value)
    behind = _text(options, "behind")
    if behind:
        brigade_now(state, setup, behind)
    situation = FireSituation(battery, aim.name, kind, band, bounce,
                              label_of(setup, behind) if behind else None,
                              _flag(options, "friends-near"), _flag(options, "overhead"))
    odds = fire_odds(situation, setup.ruleset)

    def run(dice: DiceSource) -> Resolved:
        r = artillery_fire(situation, dice, setup.ruleset)
        what = "Bounce through" if bounce else "Artillery fire"
        return Resolved(report_lines.fire_line(what, kind.value, aim.name, band.value,
                                               battery.name, r.roll.total, r.total, r.hits),
                        (r.roll,), r.effects, r.follow_ons, cause=who)
    known = (known_facts(setup, state, who), known_facts(setup, state, target),
             f"needs {odds.need_one} for one hit, {odds.need_two} for two; modifiers "
             + (", ".join(str(m) for m in odds.modifiers) or "none"))
    outcomes = tuple((("miss" if n == 0 else f"{n} hit{'s' if n > 1 else ''}"), p)
                     for n, p in odds.hits.items())
    # Rule 3: a battery's fire costs its commander a pip, paid as it is rolled; the bounce
    # through is the same shot.
    return Prepared("bounce" if bounce else "fire", "Rule 7", known, outcomes, run, Stage.FIRE,
                    None if bounce else CorpsAction.ARTILLERY_ACTION,
                    (FollowOnTest.BOUNCE_THROUGH.value,) if bounce
                    else (FollowOnTest.DEFENCE_ZONE_FIRE.value,), "" if bounce else "fire")


def _morale(setup: BattleSetup, state: FightState, who: str, target: str, options: Options,
            rally: bool = False) -> Prepared:
    who = _need(who, "brigade to test")
    b = _brigade(setup, state, who)
    queued = next((p for p in state.queue if p.who == who and p.test == "morale test"), None)
    facts = _facts(options) | (frozenset(queued.facts) if queued else frozenset())
    if state.brigades[who].pursuing:       # Rule 17: "Disordered or pursuit" -1
        facts |= {PURSUING}
    test = MoraleTest(b, facts, rallying=rally, reason=queued.reason if queued else "")
    odds = state_odds(test, setup.ruleset)

    def run(dice: DiceSource) -> Resolved:
        r = take_morale_test(test, dice, setup.ruleset)
        if r.roll is None:
            line = f"{b.name} routs without testing at {b.casualties} casualties"
        else:
            word = {"pass": "pass", "shaken": "fail, shaken", "rout": "fail and rout"}[
                r.outcome.value]
            after = r.effect.new_state or b.state
            if b.state is MoraleState.ROUT:  # the table's word is not the end: it rallies or runs
                word = r.effect.note
            elif r.outcome.value == "pass" and after is not MoraleState.FORMED:
                word += f", {after.value}"
            what = "Test to rally" if rally else "Test morale for"
            line = f"{what} {b.name} ({r.roll.total}) {word}"
        return Resolved(line, (r.roll,) if r.roll else (), (r.effect,), r.follow_ons)
    known = (known_facts(setup, state, who),
             "facts: " + (", ".join(sorted(facts)) or "none")
             + ("; rallying with 1 pip" if rally else ""))
    auto = automatic_rout(b, setup.ruleset)
    outcomes = tuple((s.value + (" (automatic)" if auto else ""), p) for s, p in odds.items())
    return Prepared("rally" if rally else "morale", "Rules 17 and 18" if rally else "Rule 17",
                    known, outcomes, run, None, CorpsAction.RALLY if rally else None,
                    ("morale test",))


def _charge(setup: BattleSetup, state: FightState, who: str, target: str,
            options: Options) -> Prepared:
    cav = _brigade(setup, state, _need(who, "cavalry"))
    if cav.arm is not Arm.CAVALRY:
        raise ActionRefused(f"{cav.name} is {cav.arm.value}; only cavalry charge at opportunity")
    aim = _brigade(setup, state, _need(target, "target"))
    _seen(setup, state, target, "cavalry charge it")
    formation = aim.formation or Formation.LINE
    situation = ChargeSituation(cav.name, cav.rating, aim.name, aim.arm, aim.state, formation,
                                _flag(options, "flank"), _flag(options, "commander-within-4"),
                                _flag(options, "commander-within-8"),
                                _commander_grade(setup, state, who), cav.casualties, cav.state,
                                not _flag(options, "own-move"))
    odds = charge_odds(situation, setup.ruleset)

    def run(dice: DiceSource) -> Resolved:
        r = opportunity_charge(situation, dice, setup.ruleset)
        return Resolved(report_lines.charge_line(cav.name, aim.name, r.roll.total, r.passed),
                        (r.roll,), follow_ons=r.follow_ons, cause=who)
    return Prepared("charge", "Rule 6", (known_facts(setup, state, who),
                                         known_facts(setup, state, target)),
                    _yes_no(odds, "charges", "fails"), run, Stage.MOVE)


def _react(setup: BattleSetup, state: FightState, who: str, target: str,
           options: Options) -> Prepared:
    who = _need(who, "brigade reacting")
    b = _brigade(setup, state, who)
    queued = next((p for p in state.queue if p.who == who
                   and p.test == FollowOnTest.REACTION_TO_CHARGE.value), None)
    cause = target or (queued.cause if queued else "")
    charger = label_of(setup, cause) if cause in state.brigades else "the cavalry"
    situation = ReactionSituation(
        b.name, b.arm, b.rating, b.state,
        _choice(Reaction, _text(options, "reaction", "form_square"), "reaction"),
        _flag(options, "beyond-half-move"), _flag(options, "flank"),
        _flag(options, "general-within-4"), _commander_grade(setup, state, who), b.casualties,
        _flag(options, "may-evade"), _flag(options, "same-corps"),
        not _flag(options, "done-first"), charger)
    # Rule 18: cavalry not formed counter charge or evade only if they make morale (Rule 17's
    # test, with the table facts the umpire gives); for any other reaction the facts mean
    # nothing and are refused.
    facts = _facts(options)
    morale = by_morale(situation, setup.ruleset)
    if facts and not morale:
        raise ActionRefused("Rule 17's table facts are read only for the morale test of "
                            "Rule 18 (cavalry not formed that counter charge or evade); "
                            f"{b.name} ({b.state.value} {b.arm.value}) trying to "
                            f"{situation.reaction.value.replace('_', ' ')} takes none")
    if morale and state.brigades[who].pursuing:     # Rule 17: "Disordered or pursuit" -1
        facts |= {PURSUING}
    situation = replace(situation, morale_facts=facts)
    odds = reaction_odds(situation, setup.ruleset)

    def run(dice: DiceSource) -> Resolved:
        r = react(situation, dice, setup.ruleset)
        line = report_lines.reaction_line(b.name, situation.reaction.value,
                                          r.roll.total if r.roll else None, r.passed)
        if morale:
            line += " (Rule 18: morale test)"
        return Resolved(line, (r.roll,) if r.roll else (), r.effects, r.follow_ons,
                        cause=cause)
    known: tuple[str, ...] = (known_facts(setup, state, who),)
    if morale:
        need = morale_rules(setup.ruleset).pass_at
        known += (f"Rule 18: {b.state.value} cavalry make morale (Rule 17, {need}+) to "
                  f"{situation.reaction.value.replace('_', ' ')}; facts: "
                  + (", ".join(sorted(facts)) or "none"),)
    return Prepared("react", "Rules 6 and 18" if morale else "Rule 6", known,
                    _yes_no(odds, "reacts", "fails"), run, Stage.MOVE,
                    resolves=(FollowOnTest.REACTION_TO_CHARGE.value,))


def _quick(setup: BattleSetup, state: FightState, who: str, target: str,
           options: Options) -> Prepared:
    b = _brigade(setup, state, _need(who, "brigade contacted"))
    by = _brigade(setup, state, target) if target else None
    contact = quick_rules.Contact(
        b.name, b.arm, b.state, _choice(QuickCase, _text(options, "case"), "quick-result case"),
        by.name if by else "the enemy", by.arm if by else None, _flag(options, "can-escape"),
        _flag(options, "over-half-move"))
    _seen(setup, state, who, "it is contacted")
    result = quick_rules.quick_result(contact, setup.ruleset)
    effects = "; ".join(e.note for e in result.effects if e.note)

    def run(dice: DiceSource) -> Resolved:
        return Resolved(report_lines.quick_line(b.name, effects), (), result.effects,
                        result.follow_ons, cause=target)
    return Prepared("quick", "Rule 8", (known_facts(setup, state, who),),
                    ((effects or "no effect", Fraction(1)),), run, Stage.COMBAT)


def _crest(setup: BattleSetup, state: FightState, who: str, target: str,
           options: Options) -> Prepared:
    b = _brigade(setup, state, _need(who, "brigade behind the crest"))
    situation = quick_rules.CrestSituation(b.name, b.rating, b.state, _flag(options, "british"))
    odds = quick_rules.crest_odds(situation, setup.ruleset)

    def run(dice: DiceSource) -> Resolved:
        r = quick_rules.crest_test(situation, dice, setup.ruleset)
        word = r.result.value if r.result else "stands"
        return Resolved(f"Crest test for {b.name} ({r.roll.total}) {word}", (r.roll,),
                        r.effects, r.follow_ons)
    return Prepared("crest", "Rule 8 (revised)", (known_facts(setup, state, who),),
                    tuple(((s.value if s else "stands"), p) for s, p in odds.items()), run,
                    Stage.COMBAT)


_DEFAULT_RULE = {(Arm.INFANTRY, Arm.INFANTRY): 13, (Arm.CAVALRY, Arm.CAVALRY): 14,
                 (Arm.CAVALRY, Arm.INFANTRY): 15}


def _combat(setup: BattleSetup, state: FightState, who: str, target: str,
            options: Options, rule: int | None = None) -> Prepared:
    a = _brigade(setup, state, _need(who, "attacker"))
    d = _brigade(setup, state, _need(target, "defender"))
    if side_of(setup, who) == side_of(setup, target):
        raise ActionRefused(f"{a.name} and {d.name} are on the same side")
    if rule == 12:
        if _once(state, who, "skirmish"):
            raise ActionRefused(f"Rule 12: {a.name} has skirmished this move and may not also "
                                "fire fight")
    if rule is None:
        text = _text(options, "rule")
        if text:
            try:
                rule = int(text)
            except ValueError:
                raise ActionRefused(f"--rule must be a rule number, not '{text}'") from None
        else:
            rule = _DEFAULT_RULE.get((a.arm, d.arm))
            if rule is None:
                raise ActionRefused(f"no combat rule for {a.arm.value} against {d.arm.value}: "
                                    "give --rule (9 or 10 for a built-up area)")
    _seen(setup, state, target, "a fire fight" if rule == 12 else "it is charged or fought")
    if not _charged(state, who, target):
        _orders_for_combat(setup, state, who, rule, a.arm, options)
    facts = _garrison_facts(setup, state, who, rule, _facts(options))
    enemy_facts = _garrison_facts(setup, state, target, rule, _facts(options, "enemy-facts"))
    combat = Combat(rule, CombatSide(a, facts), CombatSide(d, enemy_facts))
    odds = combat_odds(combat, setup.ruleset)

    def run(dice: DiceSource) -> Resolved:
        r = fight(combat, dice, setup.ruleset)
        roller = combat.side(r.favoured).brigade.name
        return Resolved(report_lines.combat_line(
            rule, a.name, r.factors.attacker_total, d.name, r.factors.defender_total, roller,
            r.roll.total, r.factors.difference, r.row.result,
            tuple(_effect_text(e) for e in r.effects)), (r.roll,), r.effects, r.follow_ons,
            cause=who)
    factors = odds.factors
    known = (known_facts(setup, state, who), known_facts(setup, state, target),
             f"factors {factors.attacker_total} against {factors.defender_total}: "
             f"{combat.side(odds.favoured).brigade.name} rolls 2d6 + {odds.difference}")
    outcomes = tuple((f"{row.result} ({row.totals})", p) for row, p in odds.rows if p)
    # Rule 3: a fire fight is the brigade's infantry fire, a pip paid as it is rolled.
    return Prepared("firefight" if rule == 12 else "combat", f"Rule {rule}", known, outcomes,
                    run, Stage.COMBAT, CorpsAction.INFANTRY_FIRE if rule == 12 else None,
                    (FollowOnTest.CHARGE_CONTACT.value, FollowOnTest.CAVALRY_COMBAT.value,
                     FollowOnTest.CHARGE.value), "firefight" if rule == 12 else "")


# The queued tests a charge's combat settles: contact after an opportunity charge (Rule 6), a
# counter-charge met, the charge of pursuing cavalry (Rule 16). Their orders are not asked.
_CHARGES = (FollowOnTest.CHARGE_CONTACT.value, FollowOnTest.CAVALRY_COMBAT.value,
            FollowOnTest.CHARGE.value)


def _charged(state: FightState, who: str, target: str) -> bool:
    return any(p.test in _CHARGES and ((p.cause == who and p.who == target)
                                       or (p.who == who and p.cause in ("", target)))
               for p in state.queue)


def _orders_for_combat(setup: BattleSetup, state: FightState, who: str, rule: int, arm: Arm,
                       options: Options) -> None:
    """Rules 9-15: the orders each combat needs of the brigade starting it, and Rule 4's
    licence to fire or charge under them."""
    needed = combat_rule(rule, setup.ruleset).orders
    what = {12: "infantry open a fire fight", 14: "cavalry charge cavalry",
            15: "cavalry charge infantry (or by an opportunity charge, Rule 6)"}.get(
                rule, "infantry fight hand to hand")
    _on_orders(setup, state, who, needed, f"Rule {rule}", what)
    if rule == 12:
        _licence(setup, state, who, Intent.INFANTRY_FIRE, options)
    elif arm is Arm.CAVALRY:
        _licence(setup, state, who, Intent.CAVALRY_CHARGE, options)


def _garrison_facts(setup: BattleSetup, state: FightState, key: str, rule: int,
                    facts: frozenset[str]) -> frozenset[str]:
    """Rule 9: a brigade is a garrison once its pip is paid and the move it paid in is over;
    the fact is the battle's, not the umpire's to give."""
    if "garrison" not in dict(combat_rule(rule, setup.ruleset).factors.table_facts):
        return facts
    held = state.brigades[key].garrison and not _once(state, key, "garrison")
    if "garrison" in facts and not held:
        raise ActionRefused(f"Rule 9: {label_of(setup, key)} is no garrison: a garrison has "
                            "held the built-up area or wood a full move and paid 1 pip "
                            "(spend garrison --brigade in its corps' move)")
    return facts | {"garrison"} if held else facts


def _firefight(setup: BattleSetup, state: FightState, who: str, target: str,
               options: Options) -> Prepared:
    return _combat(setup, state, who, target, options, rule=12)


def _skirmish(setup: BattleSetup, state: FightState, who: str, target: str,
              options: Options) -> Prepared:
    a = _brigade(setup, state, _need(who, "skirmishing brigade"))
    d = _brigade(setup, state, _need(target, "target"))
    if side_of(setup, who) == side_of(setup, target):
        raise ActionRefused(f"{a.name} and {d.name} are on the same side")
    _seen(setup, state, target, "skirmishers fire on it")
    _on_orders(setup, state, who, skirmish_rules(setup.ruleset).orders, "Rule 11",
               "infantry start a skirmish")
    _licence(setup, state, who, Intent.INFANTRY_FIRE, options)
    sk = Skirmish(CombatSide(a, _facts(options)), CombatSide(d, _facts(options, "enemy-facts")),
                  not _flag(options, "no-reply"))
    odds = skirmish_odds(sk, setup.ruleset)

    def run(dice: DiceSource) -> Resolved:
        r = skirmish(sk, dice, setup.ruleset)
        d_roll = r.rolls[1].total if r.rolls[1] is not None else None
        return Resolved(report_lines.skirmish_line(a.name, r.rolls[0].total, d.name, d_roll,
                                                   tuple(e.brigade for e in r.effects)),
                        tuple(x for x in r.rolls if x is not None), r.effects, r.follow_ons)
    outcomes = ((f"{d.name} loses a casualty", odds.attacker_hits),
                (f"{a.name} loses a casualty", odds.defender_hits))
    return Prepared("skirmish", "Rule 11", (known_facts(setup, state, who),
                                            known_facts(setup, state, target)),
                    outcomes, run, Stage.COMBAT, CorpsAction.INFANTRY_FIRE, (), "skirmish")


def _keys(setup: BattleSetup, state: FightState, text: str) -> tuple[str, ...]:
    keys = tuple(k.strip() for k in text.split(",") if k.strip())
    for k in keys:
        brigade_now(state, setup, k)
    return keys


def _reaction(setup: BattleSetup, state: FightState, who: str, target: str,
              options: Options) -> Prepared:
    who = _need(who, "brigade that routed")
    routed = _brigade(setup, state, who)
    near = _keys(setup, state, _text(options, "near"))
    through = _keys(setup, state, _text(options, "through"))
    nearby = tuple(Nearby(_brigade(setup, state, k), k in through) for k in
                   dict.fromkeys(near + through))
    for n, k in zip(nearby, dict.fromkeys(near + through), strict=True):
        if side_of(setup, k) != side_of(setup, who):
            raise ActionRefused(f"{n.brigade.name} is an enemy; only friends react to a rout")
    result = rout_reaction(routed, nearby, setup.ruleset)

    def run(dice: DiceSource) -> Resolved:
        return Resolved(report_lines.rout_reaction_line(
            routed.name, tuple(n.brigade.name for n in nearby)), (), result.effects,
            result.follow_ons)
    return Prepared("reaction", "Rule 16", (known_facts(setup, state, who),),
                    (("reactions as the rule gives them", Fraction(1)),), run, None, None,
                    (FollowOnTest.ROUT_REACTION.value,))


def _pursuit(setup: BattleSetup, state: FightState, who: str, target: str,
             options: Options) -> Prepared:
    who = _need(who, "cavalry")
    cav = _brigade(setup, state, who)
    queued = next((p for p in state.queue if p.who == who and p.test == "pursuit test"), None)
    target = target or (queued.cause if queued else "")
    routers = _brigade(setup, state, target) if target else None
    odds = pursuit_odds(cav, setup.ruleset)

    def run(dice: DiceSource) -> Resolved:
        r = pursue(cav, routers, dice, setup.ruleset)
        if not r.pursues:
            line = f"{cav.name} test to pursue ({r.pursue_roll.total}) do not pursue"
        else:
            assert r.result_roll is not None and r.row is not None
            line = (f"{cav.name} pursue ({r.pursue_roll.total}), ({r.result_roll.total}) "
                    f"{r.row.result}")
        rolls = (r.pursue_roll,) + ((r.result_roll,) if r.result_roll else ())
        return Resolved(line, rolls, r.effects, r.follow_ons)
    outcomes = tuple(((row.result if row else "no pursuit"), p) for row, p in odds)
    return Prepared("pursuit", "Rule 16", (known_facts(setup, state, who),), outcomes, run,
                    resolves=("pursuit test",))


def _rally_pursuers(setup: BattleSetup, state: FightState, who: str, target: str,
                    options: Options) -> Prepared:
    who = _need(who, "pursuing cavalry")
    cav = _brigade(setup, state, who)
    queued = any(p.test == FollowOnTest.PURSUIT_RALLY.value and p.who == who
                 for p in state.queue)       # a battle kept before the marker
    if not (state.brigades[who].pursuing or queued):
        raise ActionRefused(f"Rule 16: {cav.name} is not pursuing; only cavalry that pursued "
                            "rally as pursuers")
    if _flag(options, "no-commander"):
        effect = pursuers_not_rallied(cav, setup.ruleset)
        after = effect.new_state or cav.state

        def unrallied(dice: DiceSource) -> Resolved:
            return Resolved(report_lines.pursuers_not_rallied_line(cav.name, after), (),
                            (effect,))
        return Prepared("rally-pursuers", "Rule 16", (known_facts(setup, state, who),),
                        ((after.value, Fraction(1)),), unrallied, None, None,
                        (FollowOnTest.PURSUIT_RALLY.value,))
    test = MoraleTest(cav, _facts(options), rallying=True)
    odds = rally_pursuers_odds(test, setup.ruleset)

    def run(dice: DiceSource) -> Resolved:
        r = rally_pursuers(test, dice, setup.ruleset)
        after = r.effect.new_state or cav.state
        return Resolved(f"Rally pursuing {cav.name} {_faces(r.roll)} {after.value}",
                        (r.roll,) if r.roll else (), (r.effect,), r.follow_ons)
    return Prepared("rally-pursuers", "Rule 16", (known_facts(setup, state, who),),
                    tuple((s.value, p) for s, p in odds.items()), run, None, CorpsAction.RALLY,
                    (FollowOnTest.PURSUIT_RALLY.value,))


def _bounce(setup: BattleSetup, state: FightState, who: str, target: str,
            options: Options) -> Prepared:
    return _fire(setup, state, who, target, options, bounce=True)


def _rally(setup: BattleSetup, state: FightState, who: str, target: str,
           options: Options) -> Prepared:
    key = _need(who, "brigade to rally")
    now = brigade_now(state, setup, key).state
    if rally_state(now, setup.ruleset) is None:
        raise ActionRefused(f"Rule 18: only Shaken or routing brigades rally; "
                            f"{label_of(setup, key)} is {now.value}"
                            + (" and re-forms at the end of the turn without a pip"
                               if now is MoraleState.DISORDERED else ""))
    return _morale(setup, state, who, target, options, rally=True)


TESTS: dict[str, Callable[[BattleSetup, FightState, str, str, Options], Prepared]] = {
    "spot": _spot, "fire": _fire, "bounce": _bounce, "morale": _morale, "rally": _rally,
    "charge": _charge, "react": _react, "quick": _quick, "crest": _crest, "combat": _combat,
    "firefight": _firefight, "skirmish": _skirmish, "reaction": _reaction,
    "pursuit": _pursuit, "rally-pursuers": _rally_pursuers,
}
# The test that settles each queued test, by the queued test's name.
QUEUED_TESTS = {"morale test": "morale", "reaction to rout": "reaction",
                "pursuit test": "pursuit", "rally pursuers": "rally-pursuers",
                "reaction to charge": "react", "bounce-through fire": "bounce",
                "charge contact": "combat", "cavalry combat": "combat", "charge": "combat",
                "defence zone fire": "fire"}


# The options each test reads: the valued ones (``--band short``, ``--fact …``) and the yes/no
# flags (``--with flank``). Any other option given is refused: it would mean nothing. The
# pips of Rule 3 are always paid, so there is no ``pay`` flag; ``inches`` is Rule 4's distance
# to the enemy a brigade fires on or charges.
_FIRE = ("band", "inches", "cover", "behind")
OPTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "spot": (("inches", "cover"), ()),
    "fire": (_FIRE, ("friends-near", "overhead")),
    "bounce": (_FIRE, ("friends-near", "overhead")),
    "morale": (("facts",), ()),
    "rally": (("facts",), ()),
    "charge": ((), ("flank", "commander-within-4", "commander-within-8", "own-move")),
    "react": (("reaction", "facts"), ("beyond-half-move", "flank", "general-within-4", "may-evade",
                              "same-corps", "done-first")),
    "quick": (("case",), ("can-escape", "over-half-move")),
    "crest": ((), ("british",)),
    "combat": (("rule", "inches", "facts", "enemy-facts"), ()),
    "firefight": (("inches", "facts", "enemy-facts"), ()),
    "skirmish": (("inches", "facts", "enemy-facts"), ("no-reply",)),
    "reaction": (("near", "through"), ()),
    "pursuit": ((), ()),
    "rally-pursuers": (("facts",), ("no-commander",)),
}


def options_of(test: str) -> tuple[str, ...]:
    """The options a test reads, valued ones first, then its yes/no flags."""
    values, flags = OPTIONS.get(test, ((), ()))
    return values + flags


def check_options(test: str, options: Options) -> None:
    """Refuse an option the test does not read (a misspelt flag, ``--near`` for a morale
    test), naming the ones it does; an option left empty or false is no option."""
    known = options_of(test)
    for name, value in options.items():
        if name in known or value in (None, "", False, (), []):
            continue
        listed = ", ".join(known) or "none"
        raise ActionRefused(f"the {test} test has no option '{name}' (its options: {listed})")


def prepare(setup: BattleSetup, state: FightState, test: str, who: str = "", target: str = "",
            options: Options | None = None) -> Prepared:
    """A test filled in from the battle and the table's facts, with its exact odds; refused,
    as its roll would be, when the move cannot take it now (its step of the sequence is past,
    the pips cannot pay for it, the commander misses his move)."""
    _playing(state, f"take a {test} test")
    maker = TESTS.get(test)
    if maker is None:
        raise ActionRefused(f"'{test}' is not a test of the battle (tests: {', '.join(TESTS)})")
    check_options(test, options or {})
    prepared = maker(setup, state, who, target, options or {})
    _now(setup, state, test, who, prepared)
    return prepared


def _now(setup: BattleSetup, state: FightState, test: str, who: str,
         prepared: Prepared) -> FightState:
    """The state with the move at the test's step and its pip paid, or the refusal."""
    missed = state.activation is not None and state.activation.missed
    if missed and prepared.stage is not None and test != "fire":
        missing(setup, _activation(state, setup), f"take a {test} test")
    if prepared.stage is not None and state.activation is not None:
        state = enter_stage(setup, state, prepared.stage, f"a {test} test")
    if prepared.pays is not None:
        act = _activation(state, setup)
        brigade = label_of(setup, who) if who in state.brigades else ""
        corps = _corps_of_commander(setup, act.commander)
        if corps is not None and who in state.brigades and who not in state.corps[corps].brigades:
            raise ActionRefused(f"{brigade} is not of {setup.commander(act.commander).name}'s "
                                "command; only its own commander may pay for it")
        if not missed:           # Rule 7: the guns of a move missed for the Poor chip fire free
            paid = corps_action(_budget(setup, act), prepared.pays, setup.ruleset, brigade)
            state = replace(state, activation=_paid(act, paid))
    return state


def take(setup: BattleSetup, state: FightState, test: str, who: str, target: str,
         options: Options, dice: DiceSource) -> Outcome:
    """Take a test: roll, apply its effects to the brigades, queue what it triggers."""
    prepared = prepare(setup, state, test, who, target, options)
    state = _now(setup, state, test, who, prepared)
    if prepared.acts and state.activation is not None:
        act = state.activation
        state = replace(state, activation=replace(act, acted=act.acted + ((who, prepared.acts),)))
    resolved = prepared.run(dice)
    state = _settle(setup, state, test, who, prepared.resolves)
    if test == "rally-pursuers":           # rallied or sent back: no longer pursuing
        state = replace(state, brigades=state.brigades | {
            who: replace(state.brigades[who], pursuing=False)})
    state = _apply(setup, state, resolved)
    if test == "fire" and options.get("band"):
        state = replace(state, queue=tuple(
            replace(p, facts=(f"band={options['band']}",))
            if p.test == FollowOnTest.BOUNCE_THROUGH and not p.facts else p
            for p in state.queue))
    inputs = {"test": test, "who": who, "target": target} | dict(options)
    return Outcome("test", f"{prepared.rule}: {test} – "
                   f"{label_of(setup, who) if who in state.brigades else who or target}",
                   state, (resolved.line,) + _notes(resolved), resolved.rolls, inputs)


def _notes(resolved: Resolved) -> tuple[str, ...]:
    return tuple(f"  {f.test} for {f.who}" for f in resolved.follow_ons
                 if f.test != FollowOnTest.PLACE_FIGURES)


def _settle(setup: BattleSetup, state: FightState, test: str, who: str,
            resolves: tuple[str, ...]) -> FightState:
    """Take off the queue the test this one settles."""
    for i, p in enumerate(state.queue):
        if p.test in resolves and (p.who == who or p.cause == who or not p.who):
            return replace(state, queue=state.queue[:i] + state.queue[i + 1:])
    return state


def _apply(setup: BattleSetup, state: FightState, resolved: Resolved) -> FightState:
    by_label = {label_of(setup, k): k for k in state.brigades}
    brigades = dict(state.brigades)
    routed_now = []
    for e in resolved.effects:
        key = by_label.get(e.brigade)
        if key is None:
            continue
        now = brigades[key]
        state_after = e.new_state or now.state
        removed = now.removed or e.removed
        # A garrison that routs, leaves the table or is pushed back no longer holds its place.
        held = now.garrison and not removed and not e.retire_inches and not e.rout_inches \
            and state_after is not MoraleState.ROUT
        new = replace(now, casualties=now.casualties + e.casualties, state=state_after,
                      removed=removed, garrison=held)
        if new.state is MoraleState.ROUT and now.state is not MoraleState.ROUT:
            routed_now.append(key)
            new = replace(new, pursuing=False)     # routing, no longer pursuing
        brigades[key] = new
    corps = state.corps
    if resolved.spotted:
        corps = dict(corps)
        corps[resolved.spotted] = replace(corps[resolved.spotted], spotted=True)
    queue = list(state.queue)
    for f in resolved.follow_ons:
        if f.test == FollowOnTest.PLACE_FIGURES:
            continue
        key = by_label.get(f.who, "")
        if f.test == FollowOnTest.PURSUIT_RALLY and key:
            # Rule 16: the pursuers carry the marker; their rally is queued at their corps'
            # next move (fight._owed_rallies) and holds up the chip after it.
            brigades[key] = replace(brigades[key], pursuing=True)
            continue
        facts = tuple(sorted(getattr(f, "facts", ()) or ()))
        cause = resolved.cause
        if f.test == FollowOnTest.ROUT_REACTION:
            cause = next((k for k in routed_now if k in f.who or label_of(setup, k) in f.reason),
                         routed_now[0] if routed_now else "")
        elif f.test == FollowOnTest.PURSUIT:
            cause = routed_now[0] if routed_now else ""
        queue.append(Pending(str(f.test), key, f.reason if key else f"{f.who}: {f.reason}",
                             facts, cause))
    return replace(state, brigades=brigades, corps=corps, queue=tuple(queue))


def take_queued(setup: BattleSetup, state: FightState, options: Options,
                dice: DiceSource, index: int | None = None) -> Outcome:
    """Take the queued test number ``index`` (1 first; by default the first that holds up
    the next chip: every queued test does), filled in from what queued it."""
    if index is None:
        index = 1
    if not 1 <= index <= len(state.queue):
        raise ActionRefused("no test is queued" if not state.queue else
                            f"there is no queued test number {index} ({len(state.queue)} queued)")
    p = state.queue[index - 1]
    test = QUEUED_TESTS.get(p.test)
    if test is None:
        raise ActionRefused(f"the queued {p.test} is settled on the table: dismiss it when done")
    who, target = p.who, ""
    if test == "reaction":
        who = p.cause
    elif test == "pursuit":
        target = p.cause
    elif test == "bounce":
        who, target = p.cause, p.who
        band = next((f.split("=", 1)[1] for f in p.facts if f.startswith("band=")), "")
        options = {"band": band} | dict(options)
    elif test == "combat":
        if p.cause:          # the charging cavalry against the brigade they reach
            who, target = p.cause, p.who
        else:
            target = str(options.get("target", ""))
    if options.get("target") and test != "combat":
        raise ActionRefused(f"the queued {p.test} names its own brigades; --target is only "
                            "for a queued combat")
    options = {k: v for k, v in options.items() if k != "target"}
    return take(setup, state, test, who, target, options, dice)
