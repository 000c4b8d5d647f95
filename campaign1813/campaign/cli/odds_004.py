"""``campaign1813 odds --ruleset 004 KIND …``: the exact odds of every test of ruleset 004.

Kinds: ``musketry``, ``artillery``, ``save``, ``melee``, ``morale``, ``variation``,
``first-move`` and ``dice`` (any pool of whole and half dice). Effectiveness is given in per cent
(100, 75, 50, 25); a half die and a half left by halving are settled on a d6, 4-6 up.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from campaign1813.campaign.battle.ruleset004.fire import (
    Battery,
    Shot,
    Target,
    Volley,
    artillery_odds,
    musketry_odds,
    save_on,
)
from campaign1813.campaign.battle.ruleset004.melee import Fighter, may_charge, melee_odds
from campaign1813.campaign.battle.ruleset004.morale import morale_need, morale_odds
from campaign1813.campaign.battle.ruleset004.movement import first_move_odds, variation_odds
from campaign1813.campaign.battle.ruleset004.pools import Pool, hits, saved
from campaign1813.campaign.battle.ruleset004.tables import tables
from campaign1813.campaign.battle.ruleset004.units import Kind, Quality
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused
from campaign1813.campaign.cli.odds_format import (
    OddsParser,
    chance_lines,
    chances_json,
    guarded,
    print_json,
    ruleset_and_json,
)
from campaign1813.campaign.errors import CampaignError

RULESET = "004"
KINDS = {
    "musketry": "hits from one volley of musketry (MUSKETRY)",
    "artillery": "potential hits and hits from canister or roundshot (ARTILLERY)",
    "save": "hits that stand after saving throws (SAVING THROWS)",
    "melee": "one round of melee: dice, hits and who retreats (MELEES)",
    "morale": "a morale test by quality, general and support (MORALE)",
    "variation": "the distance a full move ends up covering (The Variation)",
    "first-move": "the dice for the right to move first (TURN SEQUENCE)",
    "dice": "hits from any pool of whole and half dice",
}
UNIT_KINDS = ("foot", "light-foot", "heavy-horse", "lancers", "light-horse", "guns")
PERCENTS = ("100", "75", "50", "25")


def register(odds: Any) -> None:
    """Give the ``odds`` parser ``--ruleset 004`` and ruleset 004's own kinds."""
    odds.description = ("The exact chance of every outcome of a roll of ruleset 004 (seed 004: "
                        "effectiveness in 25 % steps). Every kind takes --json; KIND --help "
                        "lists its options.")
    odds.add_argument("--ruleset", choices=(RULESET,), default=RULESET,
                      help="ruleset 004: its own kinds of roll follow")
    kinds = odds.add_subparsers(dest="odds_kind", metavar="KIND", parser_class=OddsParser)

    def kind(name: str, run: Callable[[argparse.Namespace], int]) -> Any:
        p = kinds.add_parser(name, help=KINDS[name], description=f"Ruleset 004: {KINDS[name]}.")
        ruleset_and_json(p, (RULESET,), RULESET)
        p.set_defaults(func=guarded(_checked(run)))
        return p

    p = kind("musketry", _musketry)
    p.add_argument("--firer", required=True, choices=("foot", "light-foot", "light-horse"))
    _effectiveness(p)
    p.add_argument("--not-firing-order", action="store_true",
                   help="foot not in line in good order (hits on 6)")
    p.add_argument("--one-rank", action="store_true",
                   help="light horse deployed in one rank to screen (every step fires)")
    p.add_argument("--moved", action="store_true", help="moved and returns fire: -1 a die")
    p.add_argument("--modifier", type=int, default=0,
                   help="a national modifier to each die (Mollwitz Prussian foot +1)")
    p.add_argument("--range", dest="distance", type=_cm, default=None, metavar="CM")
    _target(p)

    p = kind("artillery", _artillery)
    p.add_argument("--shot", required=True, choices=("canister", "roundshot"))
    _effectiveness(p)
    p.add_argument("--over-heads", action="store_true",
                   help="roundshot from a hill over friends' heads: 1 off the score")
    p.add_argument("--range", dest="distance", type=_cm, default=None, metavar="CM")
    _target(p)

    p = kind("save", _save)
    p.add_argument("--hits", type=_whole, required=True, help="hits scored before the saves")
    p.add_argument("--cover", action="store_true")
    p.add_argument("--cuirassiers", action="store_true")

    p = kind("melee", _melee)
    for side in ("attacker", "defender"):
        p.add_argument(f"--{side}", required=True, choices=UNIT_KINDS)
        p.add_argument(f"--{side}-effectiveness", choices=PERCENTS, default="100")
        p.add_argument(f"--{side}-extra", action="store_true",
                       help="in flank or rear, on higher ground, defending a river bank or "
                            "built-up area: a die more a step")
        p.add_argument(f"--{side}-cover", action="store_true")
        p.add_argument(f"--{side}-cuirassiers", action="store_true")
        p.add_argument(f"--{side}-in-wood", action="store_true",
                       help="light foot in a wood or built-up area melee as close-order foot")
        p.add_argument(f"--{side}-not-firing-order", action="store_true")
        p.add_argument(f"--{side}-fired-hits", type=_whole, default=0,
                       help="hits suffered from firing this turn")
        p.add_argument(f"--{side}-hits-on", type=int, default=None, choices=range(1, 7),
                       help="score to hit, if not 4 (Mollwitz Prussian horse: 5)")
    p.add_argument("--flank", action="store_true",
                   help="the attacker comes in flank or rear: the defender is not attacked "
                        "frontally and the attacker throws its extra dice")
    p.add_argument("--foot-near-gun", dest="foot_near_gun", type=_cm, default=None,
                   metavar="CM", help="close-order foot this near the guns charged (within "
                                      "4 cm they may not be charged)")
    p.add_argument("--wheel", type=_whole, default=0, metavar="DEGREES",
                   help="degrees the charge wheeled (at most 45)")
    p.add_argument("--another-round", action="store_true",
                   help="a tied melee fought again this turn: no charge, so no charge check")

    p = kind("morale", _morale)
    p.add_argument("--quality", required=True, choices=("elite", "regular", "poor"))
    p.add_argument("--general", action="store_true", help="a general is attached: +1")
    p.add_argument("--support", action="store_true",
                   help="a friendly unit directly behind gives support: +1")

    p = kind("variation", _variation)
    p.add_argument("--distance", type=_cm, required=True, metavar="CM",
                   help="the distance moved (the full move, or within 25 %% of it)")

    kind("first-move", _first_move)

    p = kind("dice", _dice)
    p.add_argument("--dice", type=_amount, required=True, help="dice to throw: 4, 4.5, 9/2")
    p.add_argument("--need", type=int, required=True, choices=range(1, 7))
    p.add_argument("--modifier", type=int, default=0)
    p.add_argument("--save", type=int, default=None, choices=range(1, 7),
                   help="the target's saving throw, if any")


def _checked(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def checked(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except ActionRefused as exc:
            raise CampaignError(f"odds {args.odds_kind}: {exc}") from None
    return checked


def _effectiveness(p: argparse.ArgumentParser) -> None:
    p.add_argument("--effectiveness", choices=PERCENTS, default="100",
                   help="effectiveness left, per cent (default 100)")


def _target(p: argparse.ArgumentParser) -> None:
    p.add_argument("--target", default="foot", choices=UNIT_KINDS)
    p.add_argument("--cover", action="store_true", help="the target is in cover (saves 4-6)")
    p.add_argument("--cuirassiers", action="store_true", help="the target is cuirassiers")


def _cm(text: str) -> Fraction:
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"'{text}' is not a distance in centimetres") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a distance cannot be negative ({text})")
    return value


def _whole(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if n < 0 or n > 100:
        raise argparse.ArgumentTypeError(f"should be 0 to 100, not {n}")
    return n


def _amount(text: str) -> Fraction:
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of dice") from None
    if value < 0 or (value * 2).denominator != 1 or value > 60:
        raise argparse.ArgumentTypeError(f"dice come whole or in halves, 0 to 60, not {text}")
    return value


def _kind(text: str) -> Any:
    return Kind(text.replace("-", " "))


def _score(need: int | None) -> str:
    """``4-6``, ``6``: the scores of a d6 that succeed."""
    return "none" if need is None else "6" if need >= 6 else f"{max(1, need)}-6"


def _steps(percent: str) -> int:
    return int(percent) // 25


def _show(args: argparse.Namespace, title: str, facts: Mapping[str, Any],
          tables: Mapping[str, Mapping[Any, Fraction]]) -> int:
    if args.json:
        return print_json({"kind": args.odds_kind, "rules": [title], "ruleset": RULESET,
                           **facts, **{k: chances_json(v) for k, v in tables.items()}})
    print(f"Ruleset 004, {title}: " + "; ".join(f"{k.replace('_', ' ')}: {v}"
                                                 for k, v in facts.items()))
    for name, odds in tables.items():
        print(f"{name.replace('_', ' ')}:")
        for line in chance_lines((str(k), "", p) for k, p in odds.items()):
            print(line)
    return 0


def _musketry(args: argparse.Namespace) -> int:
    odds = musketry_odds(Volley(_kind(args.firer), _steps(args.effectiveness),
                                not args.not_firing_order, args.one_rank, args.moved,
                                args.modifier, args.distance),
                         Target(_kind(args.target), args.cover, args.cuirassiers))
    facts = {"firer": args.firer, "effectiveness": f"{args.effectiveness} %",
             "dice": str(odds.pool), "hit_on": _score(odds.need), "modifier": odds.modifier,
             "save_on": _score(odds.save_on)}
    return _show(args, "MUSKETRY", facts, {"hits": odds.hits, "hits_standing": odds.standing})


def _artillery(args: argparse.Namespace) -> int:
    odds = artillery_odds(Battery(Shot(args.shot), _steps(args.effectiveness), args.over_heads,
                                  args.distance),
                          Target(_kind(args.target), args.cover, args.cuirassiers))
    facts = {"shot": args.shot, "effectiveness": f"{args.effectiveness} %",
             "dice": str(odds.pool), "hit_on": _score(odds.need),
             "save_on": _score(odds.save_on)}
    return _show(args, "ARTILLERY", facts, {"score": odds.score, "potential_hits": odds.potential,
                                            "hits": odds.hits, "hits_standing": odds.standing})


def _save(args: argparse.Namespace) -> int:
    on = save_on(Target(Kind.HEAVY_HORSE if args.cuirassiers else Kind.FOOT, args.cover,
                        args.cuirassiers), tables())
    facts = {"hits": args.hits, "save_on": _score(on)}
    return _show(args, "SAVING THROWS", facts,
                 {"hits_standing": saved({args.hits: Fraction(1)}, on)})


def _melee(args: argparse.Namespace) -> int:
    def fighter(side: str) -> Fighter:
        a = vars(args)
        return Fighter(_kind(a[side]), _steps(a[f"{side}_effectiveness"]),
                       firing_order=not a[f"{side}_not_firing_order"],
                       frontal=not (side == "defender" and args.flank),
                       in_wood=a[f"{side}_in_wood"],
                       extra=a[f"{side}_extra"] or (side == "attacker" and args.flank),
                       cover=a[f"{side}_cover"], cuirassiers=a[f"{side}_cuirassiers"],
                       hits_on=a[f"{side}_hits_on"], fired_hits=a[f"{side}_fired_hits"])

    attacker, defender = fighter("attacker"), fighter("defender")
    if not args.another_round:  # the charge check the melee step makes (seed 004, MELEES)
        may_charge(attacker, defender, foot_near_gun_cm=args.foot_near_gun,
                   wheel_degrees=args.wheel)
    odds = melee_odds(attacker, defender)
    facts = {"attacker": args.attacker, "attacker_dice": str(odds.attacker_pool),
             "defender": args.defender, "defender_dice": str(odds.defender_pool)}
    return _show(args, "MELEES", facts, {"attacker_suffers": odds.attacker_suffers,
                                         "defender_suffers": odds.defender_suffers,
                                         "verdict": odds.verdict})


def _morale(args: argparse.Namespace) -> int:
    q = Quality(args.quality)
    odds = morale_odds(q, general=args.general, support=args.support)
    need = morale_need(q, general=args.general, support=args.support)
    facts = {"quality": args.quality, "general": args.general, "support": args.support,
             "passes_on": _score(max(1, need))}
    return _show(args, "MORALE", facts, {"test": {("passes" if k else "fails: a further 25 %"):
                                                  p for k, p in odds.items()}})


def _variation(args: argparse.Namespace) -> int:
    return _show(args, "The Variation", {"distance_cm": str(args.distance)},
                 {"distance_covered_cm": variation_odds(args.distance)})


def _first_move(args: argparse.Namespace) -> int:
    return _show(args, "TURN SEQUENCE", {"dice": "1d6 a side, ties rolled again"},
                 {"moves": first_move_odds()})


def _dice(args: argparse.Namespace) -> int:
    pool = Pool.of(args.dice)
    scored = hits(pool, args.need, args.modifier)
    facts = {"dice": str(pool), "hit_on": _score(args.need), "modifier": args.modifier,
             "save_on": _score(args.save)}
    return _show(args, "dice per step", facts, {"hits": scored,
                                                "hits_standing": saved(scored, args.save)})

