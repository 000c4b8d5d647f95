"""``campaign1813 odds artillery``: the exact chance of 0, 1 or 2 hits from one fire (Rule 7)."""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
from typing import Any

from campaign1813.campaign.battle.ruleset1813.rules.artillery import (
    Battery,
    FireSituation,
    RangeBand,
    Target,
    fire_odds,
)
from campaign1813.campaign.battle.ruleset1813.rules.loader import RulesetError
from campaign1813.campaign.battle.ruleset1813.rules.tables import fire_table
from campaign1813.campaign.battle.terms import Calibre, Rating
from campaign1813.campaign.cli.odds_format import DEFAULT_RULESET, ruleset_and_json
from campaign1813.campaign.errors import CampaignError

# Rule 7 groups 12-pounders as heavy, 8/9 as medium and 4/6 as light guns.
CALIBRES = {"12": 12, "9": 9, "8": 8, "6": 6, "4": 4}


def _modifier_help(ruleset: str) -> str:
    try:
        table = fire_table(ruleset)
    except RulesetError as exc:   # the command still works; the error shows when it is run
        return f"(modifiers unavailable: {exc})"
    names = "\n".join(f"  {m.label:<24} {m.value:+d}" for m in table.modifiers.values())
    return (f"Modifiers to the {table.count}{table.die.name} roll (Rule 7, ruleset "
            f"'{ruleset}'):\n{names}\nOne hit on the number for the target and range, two hits "
            f"on {table.two_hits_multiplier} times that number.")


def register(kinds: Any) -> None:
    """Add ``odds artillery``."""
    p = kinds.add_parser(
        "artillery", help="chance of 0, 1 or 2 hits from artillery fire (Rule 7)",
        description="Exact odds of one artillery fire (Rule 7).",
        epilog=_modifier_help(DEFAULT_RULESET),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--calibre", required=True, choices=list(CALIBRES),
                   help="gun calibre in pounds: 12 heavy, 8 or 9 medium, 4 or 6 light")
    p.add_argument("--range", dest="band", required=True,
                   choices=[b.value for b in RangeBand], help="range band")
    p.add_argument("--target", required=True, choices=[t.value for t in Target],
                   help="target: troops in the open, in woods or behind hedges, in buildings "
                        "or behind walls, or a battery")
    p.add_argument("--gunners", required=True, choices=[r.value for r in Rating],
                   help="class of the gunners")
    p.add_argument("--casualties", type=int, default=0, metavar="N",
                   help="gunner casualties already taken (each one -1)")
    p.add_argument("--bounce-through", action="store_true",
                   help="roundshot bouncing on to a target 4 inches or less behind the first")
    ruleset_and_json(p)
    p.set_defaults(func=run)


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f} %"


def run(args: argparse.Namespace) -> int:
    """Print the odds of the fire described by the arguments."""
    if args.casualties < 0:
        raise CampaignError(f"--casualties must be 0 or more, not {args.casualties}")
    calibre = Calibre.from_pounds(CALIBRES[args.calibre])
    battery = Battery("battery", calibre, Rating(args.gunners), args.casualties)
    situation = FireSituation(battery, "target", Target(args.target), RangeBand(args.band),
                              bounce_through=args.bounce_through)
    try:
        odds = fire_odds(situation, args.ruleset)
        table = fire_table(args.ruleset)
    except RulesetError as exc:
        raise CampaignError(str(exc)) from None
    if args.json:
        print(json.dumps({
            "kind": "artillery", "rules": [7], "ruleset": args.ruleset,
            "calibre": args.calibre, "range": args.band, "target": args.target,
            "gunners": args.gunners, "casualties": args.casualties,
            "bounce_through": args.bounce_through, "dice": f"{table.count}{table.die.name}",
            "modifiers": [{"key": m.key, "label": m.label, "value": m.value}
                          for m in odds.modifiers],
            "net": odds.modifier, "need": {"1": odds.need_one, "2": odds.need_two},
            "hits": {str(n): str(p) for n, p in odds.hits.items()}}))
        return 0
    mods = ", ".join(str(m) for m in odds.modifiers) or "none"
    print(f"Rule 7 artillery fire ({args.ruleset}): {args.calibre}-pounder, {args.band} range, "
          f"{args.target}, {args.gunners} class gunners"
          + (", bounce-through" if args.bounce_through else ""))
    print(f"Roll {table.count}{table.die.name} {odds.modifier:+d} ({mods}); "
          f"1 hit on {odds.need_one}+, 2 hits on {odds.need_two}+")
    width = max(len(str(p)) for p in odds.hits.values())
    for n, p in odds.hits.items():
        label = "1 hit: " if n == 1 else f"{n} hits:"
        print(f"  {label} {str(p):>{width}}  ({_percent(p)})")
    return 0
