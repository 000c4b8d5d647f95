"""``campaign1813 odds morale``, ``odds combat``, ``odds skirmish`` and ``odds pursuit``.

Morale (Rules 16-18): the chance to pass, be Shaken or rout, and the state each leaves the
brigade in (a rally, or pursuing cavalry rallying). Combat (Rules 9-15): who rolls, with what
difference, and the chance of each row of the result table. Skirmish (Rule 11): each side's
chance to kill. Pursuit (Rule 16): whether cavalry that caused a rout pursue, and how.
"""

from __future__ import annotations

import argparse
from typing import Any

from campaign1813.campaign.battle.dice import D6, DICE
from campaign1813.campaign.battle.ruleset1813.rules.brigade import (
    Brigade,
    CavalryWeight,
    formation_named,
)
from campaign1813.campaign.battle.ruleset1813.rules.combat import (
    Combat,
    CombatOdds,
    CombatSide,
    Side,
    combat_odds,
    combat_rules,
)
from campaign1813.campaign.battle.ruleset1813.rules.loader import ruleset_names
from campaign1813.campaign.battle.ruleset1813.rules.modifiers import total
from campaign1813.campaign.battle.ruleset1813.rules.morale import (
    MoraleOutcome,
    MoraleTest,
    automatic_rout,
    casualty_effect,
    morale_modifiers,
    morale_odds,
    morale_rules,
    rally_state,
    state_odds,
)
from campaign1813.campaign.battle.ruleset1813.rules.rout import (
    PURSUING,
    pursuit_odds,
    rally_pursuers_odds,
)
from campaign1813.campaign.battle.ruleset1813.rules.skirmish import (
    Skirmish,
    skirmish_modifiers,
    skirmish_odds,
    skirmish_rules,
)
from campaign1813.campaign.battle.terms import Arm, MoraleState, Rating
from campaign1813.campaign.cli.odds_format import (
    DEFAULT_RULESET,
    OddsInputError,
    chance_lines,
    dice_text,
    guarded,
    modifiers_json,
    modifiers_text,
    percent,
    print_json,
    ruleset_and_json,
    signed,
)
from campaign1813.campaign.scenario.schema import NATIONALITIES

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


def _skirmish_help() -> str:
    mods = skirmish_rules(DEFAULT_RULESET).modifiers
    lines = ["modifiers only the table knows (KEY or KEY=yes on the side whose roll it "
             "changes):"]
    lines += [f"  {name:<16} {mods.fact_label(name)}" for name in mods.fact_names]
    return _side_help("\n".join(lines))


def register(kinds: Any) -> None:
    """Add ``odds morale``, ``odds combat``, ``odds skirmish`` and ``odds pursuit``."""
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
    ruleset_and_json(p, rulesets)
    p.set_defaults(func=guarded(_morale))

    p = kinds.add_parser("combat", help="odds of a combat (Rules 9-15)",
                         description="Who rolls, the difference, and the exact chance of each "
                                     "result row.",
                         epilog=_combat_help(),
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rule", type=int, required=True, choices=COMBAT_RULES)
    p.add_argument("--attacker", nargs="*", default=[], metavar="KEY=VALUE")
    p.add_argument("--defender", nargs="*", default=[], metavar="KEY=VALUE")
    ruleset_and_json(p, rulesets)
    p.set_defaults(func=guarded(_combat))

    p = kinds.add_parser("skirmish", help="chance that each side's skirmishers kill (Rule 11)",
                         description="Infantry skirmish (Rule 11): each side rolls 1d6 plus "
                                     "its modifiers; a total of 6 or more costs the other side "
                                     "a casualty and a morale test.",
                         epilog=_skirmish_help(),
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--attacker", nargs="*", default=[], metavar="KEY=VALUE",
                   help="the brigade that starts the skirmish")
    p.add_argument("--defender", nargs="*", default=[], metavar="KEY=VALUE",
                   help="its target")
    p.add_argument("--no-reply", action="store_true",
                   help="the defender does not skirmish back")
    ruleset_and_json(p, rulesets)
    p.set_defaults(func=guarded(_skirmish))

    p = kinds.add_parser("pursuit", help="whether cavalry that caused a rout pursue (Rule 16)",
                         description="Cavalry that cause a rout roll to pursue, then roll "
                                     "again for how (Rule 16). Their rally next move is "
                                     f"'odds morale --type cavalry --modifier {PURSUING} "
                                     "--rally'.")
    p.add_argument("--nation", default="", metavar="NATION",
                   help="the cavalry's nation: some pursue on a lower roll (1813: British)")
    ruleset_and_json(p, rulesets)
    p.set_defaults(func=guarded(_pursuit))


# --- morale ---------------------------------------------------------------------------------


def _morale(args: argparse.Namespace) -> int:
    if args.casualties < 0:
        raise OddsInputError(f"--casualties cannot be negative ({args.casualties})")
    arm = Arm(args.type)
    pursuers = PURSUING in args.modifier
    if pursuers and arm is not Arm.CAVALRY:
        raise OddsInputError(f"--modifier {PURSUING}: only cavalry pursue (Rule 16), "
                             f"not {arm.value}")
    if args.rally and not pursuers and rally_state(MoraleState(args.state),
                                                   args.ruleset) is None:
        raise OddsInputError(f"--rally: only Shaken or routing brigades rally (Rule 18), not "
                             f"{args.state} ones; --modifier {PURSUING} for pursuers")
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


# --- combat and skirmish: a side from KEY=VALUE words ----------------------------------------


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


def _skirmish(args: argparse.Namespace) -> int:
    rules = skirmish_rules(args.ruleset)
    facts = rules.modifiers.fact_names
    sk = Skirmish(_side("attacker", args.attacker, Arm.INFANTRY, facts),
                  _side("defender", args.defender, Arm.INFANTRY, facts),
                  defender_replies=not args.no_reply)
    odds = skirmish_odds(sk, args.ruleset)   # refused first if the skirmish may not be made
    mods = dict(zip(Side, skirmish_modifiers(sk, args.ruleset), strict=True))
    kills = {Side.ATTACKER: odds.attacker_hits, Side.DEFENDER: odds.defender_hits}
    replies = {Side.ATTACKER: True, Side.DEFENDER: sk.defender_replies}
    if_hit = {side: _if_hit(sk.side(side).brigade, rules.casualties, args.ruleset)
              for side in Side}
    names = {(True, True): "both kill", (True, False): "attacker only",
             (False, True): "defender only", (False, False): "neither"}
    outcomes = {names[k]: p for k, p in odds.outcomes.items()}
    if args.json:
        return print_json({
            "kind": "skirmish", "rules": [11], "ruleset": args.ruleset,
            "dice": dice_text(rules.die), "kill_at": rules.kill_at,
            "casualties": rules.casualties,
            **{side.value: {"modifiers": modifiers_json(mods[side]) if replies[side] else [],
                            "net": total(mods[side]) if replies[side] else 0,
                            "skirmishes": replies[side], "kills": str(kills[side]),
                            "if_hit": if_hit[side]}
               for side in Side},
            "outcomes": {k.replace(" ", "_"): str(p) for k, p in outcomes.items()},
        })
    print(f"Rule 11 skirmish ({args.ruleset}): each side rolls {dice_text(rules.die)}; "
          f"{rules.kill_at} or more kills ({rules.casualties} casualty to the other side)")
    rows = []
    for side in Side:
        if not replies[side]:
            rows.append((side.value, "does not skirmish back", kills[side]))
            continue
        need = rules.kill_at - total(mods[side])
        shows = (f"kills on {need} or more on the die" if 1 < need <= 6
                 else "kills on any roll" if need <= 1 else "cannot kill")
        rows.append((side.value, f"{modifiers_text(mods[side])}; {shows}", kills[side]))
    for line in chance_lines(rows):
        print(line)
    width = max(len(k) for k in outcomes)
    for name, p in outcomes.items():
        print(f"  {name:<{width}}  {str(p):>5}  {percent(p)}")
    for side in Side:
        if replies[side.other]:
            print(f"If the {side.value} is hit, {if_hit[side]}.")
    return 0


def _if_hit(brigade: Brigade, casualties: int, ruleset: str) -> str:
    effect, _ = casualty_effect(brigade, casualties, None, ruleset)
    if effect.new_state is MoraleState.ROUT:
        return (f"it routs without testing at {brigade.casualties + casualties} casualties "
                f"(Rule 17)")
    if brigade.state is MoraleState.ROUT:
        return "it routs on"
    return "it tests morale (Rule 17)"


# --- pursuit --------------------------------------------------------------------------------


def _nation(text: str) -> str:
    """A nation the campaign fields, spelt as it spells it; refused with the list otherwise
    (a misspelt "Britsh" would silently lose the British lower pursuit roll)."""
    wanted = text.strip()
    if not wanted:
        return ""
    for name in NATIONALITIES:
        if name.casefold() == wanted.casefold():
            return name
    raise OddsInputError(f"--nation: '{wanted}' is not a nation of the campaign (nations: "
                         f"{', '.join(NATIONALITIES)})")


def _pursuit(args: argparse.Namespace) -> int:
    nation = _nation(args.nation)
    cavalry = Brigade("the cavalry", Arm.CAVALRY, cavalry=CavalryWeight.MEDIUM, nation=nation)
    odds = pursuit_odds(cavalry, args.ruleset)
    raw = morale_rules(args.ruleset).raw["pursuit"]   # read and checked by pursuit_odds
    need = int(dict(raw.get("nations", {})).get(nation.lower(), raw["pursue_at"]))
    die_name = dice_text(DICE[raw["die"]])
    stay = odds[0][1]
    pursue = 1 - stay
    rows = [("no pursuit", f"{need - 1} or less on the first roll", stay)]
    for row, p in odds[1:]:
        if row is not None:
            rows.append((f"pursue, {row.low}–{row.high}", row.result, p))
    rally = (f"next move they try to rally: a commander in base contact pays 1 pip and they "
             f"test morale (-1 for pursuing): pass {raw['rally_pass']}, fail back to their own "
             f"lines {raw['rally_fail']}")
    if args.json:
        return print_json({
            "kind": "pursuit", "rules": [16], "ruleset": args.ruleset, "nation": nation,
            "dice": die_name, "pursue_at": need, "pursue": str(pursue),
            "result": [{"outcome": "no pursuit", "faces": None, "action": None,
                        "probability": str(stay)}]
            + [{"outcome": row.result, "faces": f"{row.low}-{row.high}", "action": row.action,
                "probability": str(p)} for row, p in odds[1:] if row is not None],
            "then": rally,
        })
    who = f"{nation} cavalry" if nation else "cavalry"
    print(f"Pursuit (Rule 16, {args.ruleset}): {who} that caused a rout roll {die_name} and "
          f"pursue on {need} or more ({pursue}, {percent(pursue).strip()}); if they do, "
          f"{die_name} again for how")
    for line in chance_lines(rows):
        print(line)
    print(f"Pursuers: {rally} (odds morale --type cavalry --modifier {PURSUING} --rally).")
    return 0
