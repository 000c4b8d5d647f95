"""``campaign1813 odds morale`` and ``odds combat``: exact odds of a morale test or a combat.

Morale (Rule 17): the chance to pass, be Shaken or rout. Combat (Rules 9–15): who rolls, with
what difference, and the chance of each row of the result table.
"""

from __future__ import annotations

import argparse
import json
from fractions import Fraction

from campaign1813.campaign.battle.rules.brigade import Brigade, CavalryWeight, formation_named
from campaign1813.campaign.battle.rules.combat import (
    Combat,
    CombatOdds,
    CombatSide,
    Side,
    combat_odds,
    combat_rules,
)
from campaign1813.campaign.battle.rules.loader import RulesetError, ruleset_names
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
from campaign1813.campaign.battle.terms import Arm, MoraleState, Rating
from campaign1813.campaign.errors import CampaignError

DEFAULT_RULESET = "1813"
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


class OddsInputError(CampaignError):
    """A value typed on the odds command line that the rules cannot read."""


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:5.1f}%"


def _signed(n: int) -> str:
    return f"{n:+d}".replace("-", "−")


def _morale_help() -> str:
    mods = morale_rules(DEFAULT_RULESET).modifiers
    lines = ["modifiers only the table knows (--modifier NAME):"]
    lines += [f"  {name:<23} {mods.fact_label(name)}" for name in mods.fact_names]
    lines.append("class, casualties and state bring their own modifiers.")
    return "\n".join(lines)


def _combat_help() -> str:
    lines = ["KEY=VALUE keys for each side:"]
    lines += [f"  {k:<11} {v}" for k, v in BRIGADE_KEYS.items()]
    lines.append("factors only the table knows (KEY or KEY=yes), by rule:")
    for number, rule in sorted(combat_rules(DEFAULT_RULESET).items()):
        facts = ", ".join(rule.factors.fact_names) or "none"
        lines.append(f"  Rule {number:<3} {rule.title}: {facts}")
    return "\n".join(lines)


def register(kinds) -> None:
    """Add ``odds morale`` and ``odds combat``."""
    rulesets = ruleset_names()
    p = kinds.add_parser("morale", help="odds of a morale test (Rule 17)",
                         description="Exact odds of a morale test: pass, Shaken or Rout.",
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
    p.set_defaults(func=_guarded(_morale))

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
    p.set_defaults(func=_guarded(_combat))


def _guarded(func):
    def run(args) -> int:
        try:
            return func(args)
        except RulesetError as exc:  # a ruleset's data is bad: still one line, not a traceback
            raise CampaignError(str(exc)) from exc
    return run


def _morale(args) -> int:
    if args.casualties < 0:
        raise OddsInputError(f"--casualties cannot be negative ({args.casualties})")
    arm = Arm(args.type)
    brigade = Brigade(f"class {args.klass} {arm.value}", arm, rating=Rating(args.klass),
                      cavalry=CavalryWeight.MEDIUM if arm is Arm.CAVALRY else None,
                      casualties=args.casualties, state=MoraleState(args.state))
    test = MoraleTest(brigade, frozenset(args.modifier), rallying=args.rally)
    odds = morale_odds(test, args.ruleset)
    if args.json:
        print(json.dumps({"result": {o.value: str(odds[o]) for o in MoraleOutcome}}))
        return 0
    rules = morale_rules(args.ruleset)
    print(f"Morale test (Rule 17): {brigade.name}, {brigade.casualties} casualties, "
          f"{brigade.state.value}")
    if automatic_rout(brigade, args.ruleset):
        print(f"Routs without testing: {brigade.casualties} casualties reach the "
              f"{arm.value} limit of {rules.limit(arm)}.")
    else:
        mods = morale_modifiers(test, args.ruleset)
        parts = " ".join(f"{_signed(m.value)} {m.label}" for m in mods) or "no modifiers"
        print(f"Roll 1{rules.die.name} {parts} (net {_signed(total(mods))})")
    bands = {MoraleOutcome.PASS: f"{rules.pass_at} or more",
             MoraleOutcome.SHAKEN: f"{rules.shaken_at}–{rules.pass_at - 1}",
             MoraleOutcome.ROUT: f"{rules.shaken_at - 1} or less"}
    for o in MoraleOutcome:
        print(f"  {o.value:<7} {bands[o]:<11} {str(odds[o]):>6}  {_percent(odds[o])}")
    ends = state_odds(test, args.ruleset)
    print("Ends " + ", ".join(f"{s.value} {p}" for s, p in ends.items())
          + (" (rallying)" if args.rally else ""))
    return 0


def _yes(value: str, key: str) -> bool:
    v = value.strip().lower()
    if v in ("yes", "y", "true", "1", ""):
        return True
    if v in ("no", "n", "false", "0"):
        return False
    raise OddsInputError(f"{key}: '{value}' is not yes or no")


def _choice(enum, value: str, key: str):
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


def _combat(args) -> int:
    rule = combat_rules(args.ruleset)[args.rule]
    facts = rule.factors.fact_names
    combat = Combat(args.rule, _side("attacker", args.attacker, rule.arms[0], facts),
                    _side("defender", args.defender, rule.arms[1], facts))
    odds = combat_odds(combat, args.ruleset)
    if args.json:
        print(json.dumps(_combat_json(odds)))
        return 0
    print(f"Rule {rule.number}: {rule.title} (result table: {rule.table})")
    for side in Side:
        applied = odds.factors.of(side)
        parts = ", ".join(f"{_signed(a.value)} {a.label}" for a in applied) or "no factors"
        print(f"  {side.value:<8} {parts} = {_signed(total(applied))}")
    print(f"The {odds.favoured.value} rolls 2d6 {_signed(odds.difference)}.")
    width = max(len(row.result) for row, _ in odds.rows)
    for row, p in odds.rows:
        print(f"  {row.totals:<6} {row.result:<{width}}  {str(p):>6}  {_percent(p)}")
    return 0


def _combat_json(odds: CombatOdds) -> dict:
    def side(s: Side) -> dict:
        applied = odds.factors.of(s)
        return {"factors": {a.key: a.value for a in applied}, "total": total(applied)}

    return {
        "rule": odds.rule.number,
        "table": odds.rule.table,
        "favoured": odds.favoured.value,
        "difference": odds.difference,
        "attacker": side(Side.ATTACKER),
        "defender": side(Side.DEFENDER),
        "rows": [{"totals": row.totals.replace("–", "-"), "result": row.result,
                  "probability": str(p)} for row, p in odds.rows],
    }
