"""``campaign1813 odds charge``, ``odds reaction`` and ``odds crest``: the tests of Rule 6 and
the revised Rule 8.

Charge: formed cavalry test to make an opportunity charge (Rule 6). Reaction: the target tries
to react before the cavalry arrive (Rule 6; the revision's reactions and 40 % loss with
``--ruleset 1813-revised``). Crest: troops just behind a crest test as an enemy comes close (the
revised Rule 8 only).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from campaign1813.campaign.battle.dice import Die, TypedDice
from campaign1813.campaign.battle.ruleset1813.rules.brigade import InvalidBrigade, formation_named
from campaign1813.campaign.battle.ruleset1813.rules.common import inches_text, worse_state
from campaign1813.campaign.battle.ruleset1813.rules.loader import ruleset_names
from campaign1813.campaign.battle.ruleset1813.rules.morale import morale_modifiers, morale_rules
from campaign1813.campaign.battle.ruleset1813.rules.opportunity import (
    ChargeSituation,
    Reaction,
    ReactionSituation,
    by_morale,
    charge_grounds,
    charge_modifiers,
    charge_odds,
    morale_test_of,
    react,
    reaction_modifiers,
    reaction_odds,
)
from campaign1813.campaign.battle.ruleset1813.rules.quick import (
    CrestSituation,
    crest_modifiers,
    crest_odds,
    crest_test_due,
)
from campaign1813.campaign.battle.ruleset1813.rules.tables.opportunity import opportunity_table
from campaign1813.campaign.battle.ruleset1813.rules.tables.quick import quick_table
from campaign1813.campaign.battle.terms import (
    Arm,
    Effect,
    FollowOn,
    Formation,
    Grade,
    MoraleState,
    Rating,
)
from campaign1813.campaign.cli.odds_format import (
    DEFAULT_RULESET,
    Named,
    OddsInputError,
    any_case,
    chance_lines,
    chances_json,
    count,
    dice_text,
    guarded,
    inches,
    modifiers_json,
    modifiers_text,
    net_of,
    print_json,
    ruleset_and_json,
)

REVISED = "1813-revised"
GROUNDS = {
    "disordered": "disordered", "shaken": "shaken", "flank_or_rear": "charged in flank or rear",
    "cavalry_column": "cavalry in column", "infantry_column_of_march":
    "infantry in column of march", "limbered_artillery": "limbered artillery",
}
# The formation a target stands in unless told: none of them invites a charge by itself.
DEFAULT_FORMATION = {Arm.INFANTRY: "line", Arm.CAVALRY: "line", Arm.ARTILLERY: "unlimbered"}


def _reaction_name(reaction: Reaction) -> str:
    return reaction.value.replace("_", "-")


def _class_option(p: argparse.ArgumentParser, whose: str) -> None:
    p.add_argument("--class", dest="klass", required=True, choices=[r.value for r in Rating],
                   type=any_case(r.value for r in Rating), help=f"class of the {whose}")


def _grade_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--commander-grade", default=Grade.AVERAGE.value,
                   choices=[g.value for g in Grade], type=any_case(g.value for g in Grade),
                   help="grade of the brigade's commander (default Average)")


def _state_option(p: argparse.ArgumentParser, flag: str, whose: str) -> None:
    p.add_argument(flag, default=MoraleState.FORMED.value,
                   choices=[s.value for s in MoraleState],
                   type=any_case(s.value for s in MoraleState),
                   help=f"morale state of the {whose} (default formed)")


def _modifier_help(title: str, entries: Iterable[tuple[str, int]], ruleset: str) -> str:
    lines = [f"{title} (ruleset '{ruleset}'):"]
    lines += [f"  {label:<32} {value:+d}" for label, value in entries]
    return "\n".join(lines)


def register(kinds: Any) -> None:
    """Add ``odds charge``, ``odds reaction`` and ``odds crest``."""
    rulesets = ruleset_names()
    table = opportunity_table(DEFAULT_RULESET)
    p = kinds.add_parser(
        "charge", help="chance that cavalry pass the opportunity charge test (Rule 6)",
        description="Exact chance that formed cavalry pass the test to make an opportunity "
                    "charge during the enemy's move (Rule 6). The target must offer the "
                    "chance: disordered (1813 only) or shaken, charged in flank or rear, "
                    "cavalry in column, infantry in column of march, or limbered artillery.",
        epilog=_modifier_help("Modifiers to the charge test",
                              ((m.label, m.value) for m in table.charge_modifiers.values()),
                              DEFAULT_RULESET),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    _class_option(p, "charging cavalry")
    p.add_argument("--casualties", type=count, default=0, metavar="N",
                   help="casualties the cavalry have taken (count against them when revised)")
    _state_option(p, "--state", "charging cavalry")
    p.add_argument("--own-move", action="store_true",
                   help="it is the cavalry's own move (opportunity charges are refused)")
    p.add_argument("--target", required=True, choices=[a.value for a in Arm],
                   type=any_case(a.value for a in Arm), help="arm of the target")
    _state_option(p, "--target-state", "target")
    p.add_argument("--target-formation", metavar="FORMATION",
                   help="infantry: line, column-of-attack, column-of-march, square; cavalry: "
                        "line, column; artillery: limbered, unlimbered (default: line, or "
                        "unlimbered for artillery)")
    p.add_argument("--flank", action="store_true", help="charging the target's flank or rear")
    p.add_argument("--commander-within-4", action="store_true",
                   help="the cavalry's commander is within 4 inches")
    p.add_argument("--commander-within-8", action="store_true",
                   help="the cavalry's commander is within 8 inches (revised: else -1)")
    _grade_option(p)
    ruleset_and_json(p, rulesets)
    p.set_defaults(func=guarded(_charge))

    p = kinds.add_parser(
        "reaction", help="chance that the target of an opportunity charge reacts (Rule 6)",
        description="Exact chance that the target of an opportunity charge makes its reaction "
                    "before the cavalry arrive (Rule 6), and what passing or failing does. "
                    "1813: evade (if orders allow), counter-charge, change-formation, "
                    "turn-to-face, intercept. 1813-revised: counter-charge (cavalry), "
                    "form-square (infantry), evade (gunners), each tested; a failed test costs "
                    "40% if the cavalry reach the target first.",
        epilog=_modifier_help("Modifiers to the reaction test",
                              ((m.label, m.value) for m in table.reaction_modifiers.values()),
                              DEFAULT_RULESET),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--reaction", required=True, choices=[_reaction_name(r) for r in Reaction],
                   type=any_case(_reaction_name(r) for r in Reaction),
                   help="the reaction tried")
    p.add_argument("--type", required=True, choices=[a.value for a in Arm],
                   type=any_case(a.value for a in Arm), help="arm of the reacting brigade")
    _class_option(p, "reacting brigade")
    _state_option(p, "--state", "reacting brigade")
    p.add_argument("--casualties", type=count, default=0, metavar="N",
                   help="casualties the brigade has taken (count against it when revised)")
    p.add_argument("--within-half-move", action="store_true",
                   help="the cavalry are within half their charge move (no reaction)")
    p.add_argument("--flank", action="store_true", help="charged in flank or rear")
    p.add_argument("--general-within-4", action="store_true",
                   help="a general is within 4 inches")
    _grade_option(p)
    p.add_argument("--orders-allow-evade", action="store_true",
                   help="the brigade's orders allow it to evade (1813)")
    p.add_argument("--same-corps", action="store_true",
                   help="intercepting for a brigade of its own corps (1813)")
    p.add_argument("--modifier", action="extend", nargs="+", default=[], metavar="NAME",
                   help="Rule 18 (1813): cavalry not formed counter charge or evade only if "
                        "they make morale; a Rule 17 modifier only the table knows for that "
                        "test (see odds morale); may be repeated")
    p.add_argument("--done-before-contact", action="store_true",
                   help="a failed reaction is complete before the cavalry arrive (revised: "
                        "no loss)")
    ruleset_and_json(p, rulesets)
    p.set_defaults(func=guarded(_reaction))

    p = kinds.add_parser(
        "crest", help="the crest-of-hill test (revised Rule 8)",
        description="Exact odds of the crest-of-hill test of the revised Rule 8: troops just "
                    "behind a crest test when an enemy comes close; 1d6, +1 British or A "
                    "class, -1 C class. Only the 1813-revised ruleset has it (the default "
                    "here).")
    _class_option(p, "brigade")
    p.add_argument("--british", action="store_true", help="British troops (+1, once with A)")
    _state_option(p, "--state", "brigade")
    p.add_argument("--from-crest", type=inches, metavar="N",
                   help="inches from the brigade to the crest (to say whether it must test)")
    p.add_argument("--enemy-within", type=inches, metavar="N",
                   help="inches from the brigade to the nearest enemy (likewise)")
    ruleset_and_json(p, rulesets, REVISED)
    p.set_defaults(func=guarded(_crest))


# --- a pass-or-fail test of Rule 6 ----------------------------------------------------------


def _needs(need: int, net: int, die: Die) -> tuple[str, str, str]:
    """The pass and fail bands as totals, and what the die must show."""
    on_die = need - net
    if on_die <= min(die.faces):
        shows = "any roll passes"
    elif on_die > max(die.faces):
        shows = "no roll passes"
    else:
        shows = f"{on_die} or more on the die"
    return f"{need} or more", f"{need - 1} or less", shows


def _effect_text(effect: Effect) -> str:
    text = effect.note
    if effect.casualties:
        text += f" ({effect.casualties} casualt{'y' if effect.casualties == 1 else 'ies'})"
    if effect.new_state:
        text += f", {effect.new_state.value}"
    return text


def _effect_json(effect: Effect) -> dict[str, Any]:
    return {"casualties": effect.casualties,
            "new_state": effect.new_state.value if effect.new_state else None,
            "note": effect.note}


def _follow_json(follow: FollowOn) -> dict[str, str]:
    return {"test": str(follow.test), "who": follow.who, "reason": follow.reason}


def _charge(args: argparse.Namespace) -> int:
    target_arm = Arm(args.target)
    formation = _formation(target_arm, args.target_formation, "--target-formation")
    s = ChargeSituation(
        f"the class {args.klass} cavalry", Rating(args.klass), f"the {target_arm.value}",
        target_arm, MoraleState(args.target_state), formation, flank_or_rear=args.flank,
        commander_within_4=args.commander_within_4, commander_within_8=args.commander_within_8,
        commander_grade=Grade(args.commander_grade), casualties=args.casualties,
        state=MoraleState(args.state), enemy_move=not args.own_move)
    odds = charge_odds(s, args.ruleset)      # refused first if the charge may not be made
    table = opportunity_table(args.ruleset)
    mods = charge_modifiers(s, args.ruleset)
    grounds = charge_grounds(s, args.ruleset)
    passed, failed, shows = _needs(table.charge_need, net_of(mods), table.die)
    then = "the cavalry charge; the target may react if they are over half their move away"
    if args.json:
        return print_json({
            "kind": "charge", "rules": [6], "ruleset": args.ruleset,
            "cavalry": {"class": s.rating.value, "casualties": s.casualties,
                        "state": s.state.value, "commander_grade": s.commander_grade.value},
            "target": {"type": target_arm.value, "state": s.target_state.value,
                       "formation": formation.value},
            "grounds": list(grounds), "dice": dice_text(table.die), "need": table.charge_need,
            "modifiers": modifiers_json(mods), "net": net_of(mods),
            "result": {"pass": str(odds[True]), "fail": str(odds[False])},
            "if_pass": then,
        })
    print(f"Rule 6 opportunity charge ({args.ruleset}): class {s.rating.value} cavalry on "
          f"{target_arm.value}, {s.target_state.value}, {formation.value}")
    print("Open to a charge: " + ", ".join(GROUNDS.get(g, g) for g in grounds))
    print(f"Roll {dice_text(table.die)}: {modifiers_text(mods)}; {shows}")
    for line in chance_lines([("pass", passed, odds[True]), ("fail", failed, odds[False])]):
        print(line)
    print(f"On a pass {then} (odds reaction).")
    return 0


def _formation(arm: Arm, text: str | None, flag: str) -> Formation:
    try:
        return formation_named(arm, text or DEFAULT_FORMATION[arm])
    except InvalidBrigade as exc:
        raise OddsInputError(f"{flag}: {exc}") from None


def _reaction(args: argparse.Namespace) -> int:
    arm, reaction = Arm(args.type), Reaction(args.reaction.replace("-", "_"))
    s = ReactionSituation(
        f"the class {args.klass} {arm.value}", arm, Rating(args.klass), MoraleState(args.state),
        reaction, beyond_half_move=not args.within_half_move, flank_or_rear=args.flank,
        general_within_4=args.general_within_4, commander_grade=Grade(args.commander_grade),
        casualties=args.casualties, orders_allow_evade=args.orders_allow_evade,
        same_corps=args.same_corps, reached_first=not args.done_before_contact,
        morale_facts=frozenset(args.modifier))
    odds = reaction_odds(s, args.ruleset)    # refused first if the reaction may not be made
    table = opportunity_table(args.ruleset)
    # Rule 18: cavalry not formed make morale (Rule 17's test) instead of Rule 6's reaction
    morale = by_morale(s, args.ruleset)
    if args.modifier and not morale:
        raise OddsInputError("--modifier: Rule 17's modifiers are read only for Rule 18's "
                             "morale test (cavalry not formed that counter charge or evade, "
                             "1813)")
    tested = morale or table.reactions[reaction].test
    die, need = table.die, table.reaction_need
    mods: tuple[Named, ...] = ()
    if morale:
        rules = morale_rules(args.ruleset)
        die, need = rules.die, rules.pass_at
        mods = morale_modifiers(morale_test_of(s), args.ruleset)
    elif tested:
        mods = reaction_modifiers(s, args.ruleset)
    net = net_of(mods)
    outcomes = {}
    for passing in (True, False):
        if odds[passing]:
            outcomes[passing] = _react_as(s, passing, net, die, need, args.ruleset)
    name = _reaction_name(reaction)
    if args.json:
        return print_json({
            "kind": "reaction", "rules": [6, 18] if morale else [6], "ruleset": args.ruleset,
            "reaction": name,
            "brigade": {"type": arm.value, "class": s.rating.value, "state": s.state.value,
                        "casualties": s.casualties, "commander_grade": s.commander_grade.value},
            "test": tested, "dice": dice_text(die) if tested else None,
            "need": need if tested else None,
            "modifiers": modifiers_json(mods), "net": net,
            "result": {"pass": str(odds[True]), "fail": str(odds[False])},
            "effects": {("pass" if k else "fail"): [_effect_json(e) for e in v[0]]
                        for k, v in outcomes.items()},
            "then": {("pass" if k else "fail"): [_follow_json(f) for f in v[1]]
                     for k, v in outcomes.items()},
        })
    print(f"Rule 6 reaction ({args.ruleset}): {s.brigade}, {s.state.value}, tries to "
          f"{name.replace('-', ' ')}")
    if morale:
        print(f"Rule 18: {s.state.value} cavalry must make morale (Rule 17's test) to "
              f"{name.replace('-', ' ')}")
    if tested:
        passed, failed, shows = _needs(need, net, die)
        print(f"Roll {dice_text(die)}: {modifiers_text(mods)}; {shows}")
        for line in chance_lines([("pass", passed, odds[True]), ("fail", failed, odds[False])]):
            print(line)
    else:
        print("No test: the reaction is made (pass 1).")
    for passing, (effects, follow) in outcomes.items():
        what = "; ".join([_effect_text(e) for e in effects] + [f.reason for f in follow])
        print(f"{'Pass' if passing else 'Fail'}: {what}")
    return 0


def _react_as(s: ReactionSituation, passing: bool, net: int, die: Die, need: int,
              ruleset: str) -> tuple[tuple[Effect, ...], tuple[FollowOn, ...]]:
    """What the engine does on a pass or a fail, from a face of the die that gives it."""
    faces = [f for f in sorted(set(die.faces)) if (f + net >= need) is passing]
    result = react(s, TypedDice(faces[:1]), ruleset)
    return result.effects, result.follow_ons


# --- the revised crest-of-hill test ---------------------------------------------------------


def _crest(args: argparse.Namespace) -> int:
    crest = quick_table(args.ruleset).crest
    if crest is None:
        others = ", ".join(r for r in ruleset_names() if quick_table(r).crest is not None)
        raise OddsInputError(f"odds crest: ruleset '{args.ruleset}' has no crest-of-hill test "
                             f"(it came with the revised Rule 8; rulesets that have it: "
                             f"{others or 'none'})")
    state = MoraleState(args.state)
    s = CrestSituation("the brigade", Rating(args.klass), state, british=args.british)
    due, here = True, ""
    if args.from_crest is not None or args.enemy_within is not None:
        if args.from_crest is None or args.enemy_within is None:
            raise OddsInputError("odds crest: give both --from-crest and --enemy-within, or "
                                 "neither")
        due = crest_test_due(args.from_crest, args.enemy_within, args.ruleset)
        here = f" (here {inches_text(args.from_crest)} and {inches_text(args.enemy_within)})"
    mods = crest_modifiers(s, args.ruleset)
    odds: dict[MoraleState | None, Fraction] = (crest_odds(s, args.ruleset) if due
                                                 else {None: Fraction(1)})
    ends = dict.fromkeys(MoraleState, Fraction(0))
    for result, p in odds.items():
        ends[(worse_state(state, result) or state) if result else state] += p
    ends = {k: p for k, p in ends.items() if p}
    keyed = {(r.value if r else "ok"): p for r, p in odds.items()}
    if args.json:
        return print_json({
            "kind": "crest", "rules": [8], "ruleset": args.ruleset, "due": due,
            "brigade": {"class": s.rating.value, "british": s.british, "state": state.value},
            "dice": dice_text(crest.die) if due else None,
            "modifiers": modifiers_json(mods) if due else [],
            "net": net_of(mods) if due else 0,
            "result": chances_json(keyed), "ends": {k.value: str(p) for k, p in ends.items()},
        })
    who = ("British " if s.british else "") + f"class {s.rating.value} troops"
    print(f"Crest of hill test (Rule 8, {args.ruleset}): {who}, {state.value}")
    if not due:
        print(f"No test: troops test only within {inches_text(crest.crest_inches)} of the crest "
              f"with an enemy within {inches_text(crest.enemy_inches)}{here}.")
    else:
        print(f"Roll {dice_text(crest.die)}: {modifiers_text(mods)}")
        rows = []
        low: int | None = None
        for up_to, result in crest.results:
            band = f"{up_to} or less" if low is None else (
                str(up_to) if low + 1 == up_to else f"{low + 1}-{up_to}")
            rows.append((result.value, band, odds[result]))
            low = up_to
        rows.append(("ok", f"{(low or 0) + 1} or more", odds[None]))
        for line in chance_lines(rows):
            print(line)
    print("Ends " + ", ".join(f"{k.value} {p}" for k, p in ends.items())
          + " (a result never improves a brigade)")
    return 0
