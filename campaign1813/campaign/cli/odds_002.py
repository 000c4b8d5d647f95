"""``campaign1813 odds --ruleset 002 KIND``: the exact odds of the tests of ruleset 002.

Kinds: ``shooting`` (1D6, 1D6−2, the best of 2D6, halved in cover or by retiring cavalry),
``charge`` (1D6+2, halved or doubled; guns overrun) and ``sides`` (who is side A this turn).
Every kind takes ``--json``; chances are exact fractions. ``--hits N`` gives the target's hits
so far and adds the chance that it is eliminated.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from campaign1813.campaign.battle.files import RulesetError
from campaign1813.campaign.battle.ruleset002 import RULESET
from campaign1813.campaign.battle.ruleset002.charges import (
    Charge,
    charge_odds,
    elimination_chance,
)
from campaign1813.campaign.battle.ruleset002.shooting import Shot, shot_odds, shot_text
from campaign1813.campaign.battle.ruleset002.tables import tables
from campaign1813.campaign.battle.ruleset002.units import UnitKind
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused
from campaign1813.campaign.cli.odds_format import (
    OddsParser,
    chance_lines,
    chances_json,
    count,
    inches,
    print_json,
)
from campaign1813.campaign.errors import CampaignError

__all__ = ["KINDS", "register"]

KINDS = {
    "shooting": "hits from one unit's shooting (seed 002, Shooting)",
    "charge": "hits from a cavalry charge (seed 002, Charges)",
    "sides": "which side is side A this turn (seed 002, Sequence of play)",
}
_TYPES = [k.value for k in UnitKind]


def register(odds: argparse.ArgumentParser) -> None:
    """Give the ``odds`` parser ``--ruleset 002`` and this ruleset's kinds."""
    odds.add_argument("--ruleset", required=True, choices=[RULESET],
                      help="ruleset 002 (its kinds: " + ", ".join(KINDS) + ")")
    kinds = odds.add_subparsers(dest="odds_kind", metavar="KIND", parser_class=OddsParser)

    def usage(_args: argparse.Namespace) -> int:
        odds.print_help()
        return 0

    odds.set_defaults(func=usage)

    p = kinds.add_parser("shooting", help=KINDS["shooting"],
                         description="Exact odds of the hits of one unit's shooting.")
    p.add_argument("--shooter", required=True, choices=_TYPES, help="type of the shooting unit")
    p.add_argument("--target", default="infantry", choices=_TYPES,
                   help="type of the target (default infantry)")
    p.add_argument("--commander", action="store_true",
                   help="a commander is attached (best of 2D6)")
    p.add_argument("--entrenched", action="store_true",
                   help="the shooter is entrenched (best of 2D6)")
    p.add_argument("--cover", action="store_true", help="the target is in cover (halved)")
    p.add_argument("--retire", action="store_true",
                   help="target cavalry retire 6 inches to halve the hits")
    p.add_argument("--moved", action="store_true", help="the shooter moved or turned")
    p.add_argument("--range", dest="inches", type=inches, metavar="INCHES",
                   help="range measured (checked against 6 or 24 inches)")
    p.add_argument("--out-of-arc", action="store_true",
                   help="the target is outside the shooter's field of fire (refused, as in play)")
    p.add_argument("--hits", type=count, metavar="N", help="the target's hits so far")
    p.add_argument("--json", action="store_true", help="print the odds as JSON")
    p.set_defaults(func=_guarded(_shooting))

    c = kinds.add_parser("charge", help=KINDS["charge"],
                         description="Exact odds of the hits of a cavalry charge.")
    c.add_argument("--target", required=True, choices=_TYPES, help="type of the target")
    c.add_argument("--hill", action="store_true", help="the target occupies a hill (halved)")
    c.add_argument("--flank", action="store_true",
                   help="the target is attacked in flank or rear (doubled)")
    c.add_argument("--cover", action="store_true", help="the target is in cover")
    c.add_argument("--infantry-near", action="store_true",
                   help="infantry within 3 inches of a target battery")
    c.add_argument("--charged-before", type=count, default=0, metavar="N",
                   help="times the target has been charged this turn already")
    c.add_argument("--retired", action="store_true",
                   help="the charging cavalry retired 6 inches from shooting this turn")
    c.add_argument("--distance", dest="inches", type=inches, metavar="INCHES",
                   help="how far the cavalry move into contact (checked against 6 inches)")
    c.add_argument("--turn", dest="turn_degrees", type=count, metavar="DEGREES",
                   help="degrees the cavalry turn at the start of the charge (at most 45)")
    c.add_argument("--hits", type=count, metavar="N", help="the target's hits so far")
    c.add_argument("--json", action="store_true", help="print the odds as JSON")
    c.set_defaults(func=_guarded(_charge))

    s = kinds.add_parser("sides", help=KINDS["sides"],
                         description="The chance of each side being side A this turn.")
    s.add_argument("--json", action="store_true", help="print the odds as JSON")
    s.set_defaults(func=_guarded(_sides))


def _guarded(func: Any) -> Any:
    def run(args: argparse.Namespace) -> int:
        try:
            return int(func(args))
        except (ActionRefused, RulesetError) as exc:
            raise CampaignError(str(exc)) from None
    return run


def _eliminated(args: argparse.Namespace, target: UnitKind,
                hits: dict[int, Fraction]) -> Fraction | None:
    if args.hits is None:
        return None
    return elimination_chance(hits, tables().units[target].eliminated_over, args.hits)


def _print(title: str, how: str, hits: dict[int, Fraction], target: UnitKind,
           eliminated: Fraction | None, hits_now: int | None) -> None:
    print(title)
    print(f"Roll {how}")
    print(*chance_lines((f"{n} hit{'s' if n != 1 else ''}", "", p) for n, p in hits.items()),
          sep="\n")
    if eliminated is not None:
        limit = tables().units[target].eliminated_over
        print(f"Eliminated (now {hits_now} hits, past {limit}): {eliminated}  "
              f"({float(eliminated) * 100:.1f}%)")


def _shooting(args: argparse.Namespace) -> int:
    target = UnitKind(args.target)
    shot = Shot(UnitKind(args.shooter), target, args.commander, args.entrenched, args.cover,
                args.retire, args.inches, args.moved, not args.out_of_arc)
    hits = shot_odds(shot)
    eliminated = _eliminated(args, target, hits)
    if args.json:
        data: dict[str, Any] = {
            "kind": "shooting", "rules": ["Shooting"], "ruleset": RULESET,
            "shooter": args.shooter, "target": args.target, "commander": args.commander,
            "entrenched": args.entrenched, "cover": args.cover, "retire": args.retire,
            "roll": shot_text(shot), "hits": chances_json(hits)}
        if eliminated is not None:
            data |= {"hits_now": args.hits, "eliminated": str(eliminated)}
        return print_json(data)
    _print(f"Seed 002 shooting: {UnitKind(args.shooter).label} at {target.label}",
           shot_text(shot), hits, target, eliminated, args.hits)
    return 0


def _charge(args: argparse.Namespace) -> int:
    target = UnitKind(args.target)
    c = Charge(target, args.hill, args.flank, args.cover, args.infantry_near,
               args.charged_before, args.retired, args.inches, args.turn_degrees)
    odds = charge_odds(c)
    t = tables()
    mods = [{"key": m.key, "label": m.label, "effect": m.effect} for m in odds.modifiers]
    how = f"1D6+{t.charge_add}" + "".join(f", {m.effect} ({m.label})" for m in odds.modifiers)
    if odds.overrun:
        if args.json:
            return print_json({"kind": "charge", "rules": ["Charges"], "ruleset": RULESET,
                               "target": args.target, "overrun": True, "hits": {},
                               "eliminated": "1"})
        print(f"Seed 002 charge on artillery: no roll; the guns are eliminated (certain, 1), "
              f"no infantry being within {t.artillery_support} inches")
        return 0
    eliminated = _eliminated(args, target, odds.hits)
    if args.json:
        data: dict[str, Any] = {
            "kind": "charge", "rules": ["Charges"], "ruleset": RULESET, "target": args.target,
            "hill": args.hill, "flank_or_rear": args.flank, "overrun": False,
            "modifiers": mods, "roll": how, "hits": chances_json(odds.hits)}
        if eliminated is not None:
            data |= {"hits_now": args.hits, "eliminated": str(eliminated)}
        return print_json(data)
    _print(f"Seed 002 cavalry charge on {target.label}", how, odds.hits, target, eliminated,
           args.hits)
    return 0


def _sides(args: argparse.Namespace) -> int:
    t = tables()
    faces = t.sides_die.faces
    french = Fraction(sum(1 for f in faces if f in t.french_a_on), len(faces))
    odds = {"French": french, "Allied": 1 - french}
    on = ", ".join(str(f) for f in sorted(t.french_a_on))
    if args.json:
        return print_json({"kind": "sides", "rules": ["Sequence of play"], "ruleset": RULESET,
                           "die": t.sides_die.name, "french_a_on": sorted(t.french_a_on),
                           "side_a": chances_json(odds)})
    print(f"Seed 002 side A: roll 1D6, the French are side A on {on}")
    print(*chance_lines((f"{side} side A", "", p) for side, p in odds.items()), sep="\n")
    return 0
