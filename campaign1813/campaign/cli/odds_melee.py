"""``campaign1813 odds morale`` and ``odds combat``: exact odds of a morale test or a combat.

Morale (Rules 16-18): the chance to pass, be Shaken or rout, and the state each leaves the
brigade in (a rally, or pursuing cavalry rallying). Combat (Rules 9-15): who rolls, with what
difference, and the chance of each row of the result table.
"""

from __future__ import annotations

import argparse
from typing import Any

from campaign1813.campaign.battle.dice import D6
from campaign1813.campaign.battle.rules.brigade import Brigade, CavalryWeight, formation_named
from campaign1813.campaign.battle.rules.combat import (
    Combat,
    CombatOdds,
    CombatSide,
    Side,
    combat_odds,
    combat_rules,
)
from campaign1813.campaign.battle.rules.loader import ruleset_names
from campaign1813.campaign.battle.rules.modifiers import total
from campaign1813.campaign.battle.rules.morale import (
    MoraleOutcome,
    MoraleTest,
    automatic_rout,
    morale_modifiers,
    morale_odds,
    morale_rules,
    state_odds,
)
from campaign1813.campaign.battle.rules.rout import PURSUING, rally_pursuers_odds
from campaign1813.campaign.battle.terms import Arm, MoraleState, Rating
from campaign1813.campaign.cli.odds_format import (
    DEFAULT_RULESET,
    OddsInputError,
    dice_text,
    guarded,
    modifiers_json,
    percent,
    print_json,
    signed,
)

COMBAT_RULES = (9, 10, 12, 13, 14, 15)
BRIGADE_KEYS = {
    "type": "infantry, cavalry or artillery (default: what the rule needs)",
    "class": "A, B or C (default B)",
    "fire": "firepower A, B or C (default B)",
    "skirmish": "skirmish A, B or C (default B)",
    "cavalry": "heavy, medium or light (cavalry only)",
    "lancers": "yes or no (cavalry only)",
    "casualties": "casualties already taken (default 0)",
    "state": "formed, disordered, shaken or rout (default formed)",
    "formation": "line, column-of-attack, column-of-march, square; cavalry: line, column",
}


def _morale_help() -> str:
    mods = morale_rules(DEFAULT_RULESET).modifiers
    lines = ["modifiers only the table knows (--modifier NAME):"]
    lines += [f"  {name:<23} {mods.fact_label(name)}" for name in mods.fact_names]
    lines.append("class, casualties and state bring their own modifiers.")
    lines.append(f"--modifier {PURSUING} --rally: cavalry pursuing after a rout try to rally "
                 "(Rule 16):\npass and they are disordered, fail and they go back to their "
                 "own lines shaken.")
    return "\n".join(lines)


def _side_help(facts: str) -> str:
    lines = ["KEY=VALUE keys for each side:"]
    lines += [f"  {k:<11} {v}" for k, v in BRIGADE_KEYS.items()]
    lines.append(facts)
    return "\n".join(lines)


def _combat_help() -> str:
    lines = ["factors only the table knows (KEY or KEY=yes), by rule:"]
    for number, rule in sorted(combat_rules(DEFAULT_RULESET).items()):
        facts = ", ".join(rule.factors.fact_names) or "none"
        lines.append(f"  Rule {number:<3} {rule.title}: {facts}")
    return _side_help("\n".join(lines))


def register(kinds: Any) -> None:
    """Add ``odds morale`` and ``odds combat``."""
    rulesets = ruleset_names()
    p = kinds.add_parser("morale", help="odds of a morale test (Rules 16-18)",
                         description="Exact odds of a morale test: pass, Shaken or Rout, and "
                                     "the state the brigade ends in.",
                         epilog=_morale_help(),
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--type", required=True, choices=[a.value for a in Arm])
    p.add_argument("--class", dest="klass", required=True, choices=[r.value for r in Rating])
    p.add_argument("--casualties", type=int, default=0)
    p.add_argument("--state", default="formed", choices=[s.value for s in MoraleState])
    p.add_argument("--modifier", action="extend", nargs="+", default=[], metavar="NAME",
                   help="a modifier only the table knows (see below); may be repeated")
    p.add_argument("--rally", action="store_true",
                   help="a commander is in base contact and has paid the pip")
    p.add_argument("--ruleset", default=DEFAULT_RULESET, choices=rulesets)
    p.add_argument("--json", action="store_true", help="print the odds as JSON")
    p.set_defaults(func=guarded(_morale))

    p = kinds.add_parser("combat", help="odds of a combat (Rules 9-15)",
                         description="Who rolls, the difference, and the exact chance of each "
                                     "result row.",
                         epilog=_combat_help(),
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rule", type=int, required=True, choices=COMBAT_RULES)
    p.add_argument("--attacker", nargs="*", default=[], metavar="KEY=VALUE")
    p.add_argument("--defender", nargs="*", default=[], metavar="KEY=VALUE")
    p.add_argument("--ruleset", default=DEFAULT_RULESET, choices=rulesets)
    p.add_argument("--json", action="store_true", help="print the odds as JSON")
    p.set_defaults(func=guarded(_combat))



# --- morale ---------------------------------------------------------------------------------


def _morale(args: argparse.Namespace) -> int:
    if args.casualties < 0:
        raise OddsInputError(f"--casualties cannot be negative ({args.casualties})")
    arm = Arm(args.type)
    pursuers = PURSUING in args.modifier
    if pursuers and arm is not Arm.CAVALRY:
        raise OddsInputError(f"--modifier {PURSUING}: only cavalry pursue (Rule 16), "
                             f"not {arm.value}")
    brigade = Brigade(f"class {args.klass} {arm.value}", arm, rating=Rating(args.klass),
                      cavalry=CavalryWeight.MEDIUM if arm is Arm.CAVALRY else None,
                      casualties=args.casualties, state=MoraleState(args.state))
    test = MoraleTest(brigade, frozenset(args.modifier), rallying=args.rally)
    odds = morale_odds(test, args.ruleset)
    rules = morale_rules(args.ruleset)
    # Pursuers who rally are read by Rule 16, not by the ordinary rally of Rule 18.
    pursuers_rally = pursuers and args.rally
    ends = (rally_pursuers_odds(test, args.ruleset) if pursuers_rally
            else state_odds(test, args.ruleset))
    automatic = automatic_rout(brigade, args.ruleset)
    mods = () if automatic else morale_modifiers(test, args.ruleset)
    bands = {MoraleOutcome.PASS: f"{rules.pass_at} or more",
             MoraleOutcome.SHAKEN: f"{rules.shaken_at}–{rules.pass_at - 1}",
             MoraleOutcome.ROUT: f"{rules.shaken_at - 1} or less"}
    if pursuers_rally:
        how = (f"pursuers rallying, Rule 16: pass {rules.raw['pursuit']['rally_pass']}, "
               f"fail back to own lines {rules.raw['pursuit']['rally_fail']}")
    else:
        how = "rallying" if args.rally else ""
    if args.json:
        return print_json({
            "kind": "morale", "rules": [16, 17] if pursuers else [17], "ruleset": args.ruleset,
            "brigade": {"type": arm.value, "class": brigade.rating.value,
                        "casualties": brigade.casualties, "state": brigade.state.value},
            "automatic_rout": automatic, "rout_limit": rules.limit(arm),
            "dice": None if automatic else dice_text(rules.die),
            "modifiers": modifiers_json(mods), "net": total(mods),
            "bands": {o.value: b.replace("–", "-") for o, b in bands.items()},
            "result": {o.value: str(odds[o]) for o in MoraleOutcome},
            "rallying": args.rally, "pursuers": pursuers,
            "ends": {s.value: str(p) for s, p in ends.items()},
            "ends_note": how,
        })
    print(f"Morale test (Rule 17): {brigade.name}, {brigade.casualties} casualties, "
          f"{brigade.state.value}")
    if automatic:
        print(f"Routs without testing: {brigade.casualties} casualties reach the "
              f"{arm.value} limit of {rules.limit(arm)}.")
    else:
        parts = " ".join(f"{signed(m.value)} {m.label}" for m in mods) or "no modifiers"
        print(f"Roll 1{rules.die.name} {parts} (net {signed(total(mods))})")
    for o in MoraleOutcome:
        print(f"  {o.value:<7} {bands[o]:<11} {str(odds[o]):>6}  {percent(odds[o])}")
    print("Ends " + ", ".join(f"{s.value} {p}" for s, p in ends.items())
          + (f" ({how})" if how else ""))
    if pursuers and not args.rally:
        print("Pursuers rally only with a commander in base contact who pays 1 pip (--rally).")
    return 0


# --- combat: a side from KEY=VALUE words ----------------------------------------


def _yes(value: str, key: str) -> bool:
    v = value.strip().lower()
    if v in ("yes", "y", "true", "1", ""):
        return True
    if v in ("no", "n", "false", "0"):
        return False
    raise OddsInputError(f"{key}: '{value}' is not yes or no")


def _choice(enum: Any, value: str, key: str) -> Any:
    try:
        return enum(value.strip().lower() if enum is not Rating else value.strip().upper())
    except ValueError:
        valid = ", ".join(e.value for e in enum)
        raise OddsInputError(f"{key}: '{value}' is not one of {valid}") from None


def _side(who: str, items: list[str], arm_default: Arm, facts_allowed: tuple[str, ...]
          ) -> CombatSide:
    values: dict[str, str] = {}
    facts: set[str] = set()
    valid = ", ".join(list(BRIGADE_KEYS) + list(facts_allowed))
    for item in items:
        key, _, value = item.partition("=")
        key = key.strip().lower()
        if key in facts_allowed:
            if _yes(value, f"{who} {key}"):
                facts.add(key)
        elif key in BRIGADE_KEYS:
            values[key] = value
        else:
            raise OddsInputError(f"{who}: unknown factor '{key}' (valid: {valid})")
    arm = _choice(Arm, values["type"], f"{who} type") if "type" in values else arm_default
    try:
        casualties = int(values.get("casualties", "0"))
    except ValueError:
        raise OddsInputError(f"{who} casualties: '{values['casualties']}' is not a number") \
            from None
    brigade = Brigade(
        who, arm,
        rating=_choice(Rating, values.get("class", "B"), f"{who} class"),
        firepower=_choice(Rating, values.get("fire", "B"), f"{who} fire"),
        skirmish=_choice(Rating, values.get("skirmish", "B"), f"{who} skirmish"),
        cavalry=_choice(CavalryWeight, values["cavalry"], f"{who} cavalry")
        if "cavalry" in values else None,
        lancers=_yes(values["lancers"], f"{who} lancers") if "lancers" in values else False,
        casualties=casualties,
        state=_choice(MoraleState, values.get("state", "formed"), f"{who} state"),
        formation=formation_named(arm, values["formation"]) if "formation" in values else None,
    )
    return CombatSide(brigade, frozenset(facts))


def _combat(args: argparse.Namespace) -> int:
    rule = combat_rules(args.ruleset)[args.rule]
    facts = rule.factors.fact_names
    combat = Combat(args.rule, _side("attacker", args.attacker, rule.arms[0], facts),
                    _side("defender", args.defender, rule.arms[1], facts))
    odds = combat_odds(combat, args.ruleset)
    if args.json:
        return print_json(_combat_json(odds, args.ruleset))
    print(f"Rule {rule.number}: {rule.title} (result table: {rule.table})")
    for side in Side:
        applied = odds.factors.of(side)
        parts = ", ".join(f"{signed(a.value)} {a.label}" for a in applied) or "no factors"
        print(f"  {side.value:<8} {parts} = {signed(total(applied))}")
    print(f"The {odds.favoured.value} rolls 2d6 {signed(odds.difference)}.")
    width = max(len(row.result) for row, _ in odds.rows)
    for row, p in odds.rows:
        print(f"  {row.totals:<6} {row.result:<{width}}  {str(p):>6}  {percent(p)}")
    return 0


def _combat_json(odds: CombatOdds, ruleset: str) -> dict[str, Any]:
    def side(s: Side) -> dict[str, Any]:
        applied = odds.factors.of(s)
        return {"factors": modifiers_json(applied), "total": total(applied)}

    return {
        "kind": "combat",
        "rule": odds.rule.number,
        "rules": [odds.rule.number],
        "ruleset": ruleset,
        "title": odds.rule.title,
        "table": odds.rule.table,
        "dice": dice_text(D6, 2),
        "favoured": odds.favoured.value,
        "difference": odds.difference,
        "attacker": side(Side.ATTACKER),
        "defender": side(Side.DEFENDER),
        "rows": [{"totals": row.totals.replace("–", "-"), "result": row.result,
                  "probability": str(p)} for row, p in odds.rows],
    }

