"""``campaign1813 odds spotting`` and ``odds pips``: Rule 1's spotting die and the pips of
Rules 1-3.

Spotting: the band a distance falls in for the target's cover says whether the spot is
automatic, needs the d10 to show a number, or is impossible. Pips: the average die plus the
commander's grade (Rules 2-3), or Rule 1's own bonus while his corps moves on blinds.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from campaign1813.campaign.battle.dice import describe
from campaign1813.campaign.battle.ruleset1813.rules.command import pips_odds
from campaign1813.campaign.battle.ruleset1813.rules.common import Modifier, inches_text
from campaign1813.campaign.battle.ruleset1813.rules.loader import ruleset_names
from campaign1813.campaign.battle.ruleset1813.rules.spotting import (
    Cover,
    SpotSituation,
    Spotter,
    blind_pips_odds,
    spot_odds,
    spotting_band,
)
from campaign1813.campaign.battle.ruleset1813.rules.tables.command import command_table
from campaign1813.campaign.battle.ruleset1813.rules.tables.spotting import SpotBand, spotting_table
from campaign1813.campaign.battle.terms import Grade
from campaign1813.campaign.cli.odds_format import (
    DEFAULT_RULESET,
    any_case,
    chance_lines,
    chances_json,
    dice_text,
    guarded,
    inches,
    modifiers_json,
    modifiers_text,
    net_of,
    percent,
    print_json,
    ruleset_and_json,
)

COVER_HELP = {
    Cover.OPEN: "in plain line of sight",
    Cover.SCREENED: "behind a blind or deployed troops",
    Cover.COVER: "in woods or a built-up area, or behind a hill",
}

SPOTTERS = {Spotter.BLIND: "a blind", Spotter.INFANTRY: "an infantry brigade",
            Spotter.CAVALRY: "a cavalry brigade", Spotter.ARTILLERY: "a battery",
            Spotter.GENERAL: "a general"}


def _bands_help(ruleset: str) -> str:
    table = spotting_table(ruleset)
    lines = [f"Spotting bands (Rule 1, ruleset '{ruleset}'), {table.die.name}:"]
    for cover in Cover:
        lines.append(f"  {cover.value:<9} {COVER_HELP[cover]}: "
                     + ", ".join(_band_text(cover, b, ruleset) for b in table.bands[cover]))
    lines.append("Beyond the last band nothing is spotted.")
    return "\n".join(lines)


def _low(cover: Cover, band: SpotBand, ruleset: str) -> Fraction:
    bands = spotting_table(ruleset).bands[cover]
    i = bands.index(band)
    return bands[i - 1].up_to if i else Fraction(0)


def _band_text(cover: Cover, band: SpotBand, ruleset: str) -> str:
    low = _low(cover, band, ruleset)
    reach = f"{low}-{band.up_to}\"" if low else f"to {band.up_to}\""
    return f"{reach} {'automatic' if band.automatic else f'{band.need}+'}"


def register(kinds: Any) -> None:
    """Add ``odds spotting`` and ``odds pips``."""
    rulesets = ruleset_names()
    p = kinds.add_parser("spotting", help="chance to spot a blind or brigade (Rule 1)",
                         description="Exact chance that a blind or brigade spots a target "
                                     "(Rule 1): by the distance and how hidden the target is.",
                         epilog=_bands_help(DEFAULT_RULESET),
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cover", required=True, choices=[c.value for c in Cover],
                   type=any_case(c.value for c in Cover),
                   help="; ".join(f"{c.value}: {t}" for c, t in COVER_HELP.items()))
    p.add_argument("--inches", required=True, type=inches, metavar="N",
                   help="distance from spotter to target in inches (12, 12.5 or 25/2)")
    p.add_argument("--spotter", default=Spotter.BLIND.value, choices=[s.value for s in Spotter],
                   type=any_case(s.value for s in Spotter),
                   help="who looks (default: a blind); generals may not spot")
    ruleset_and_json(p, rulesets)
    p.set_defaults(func=guarded(_spotting))

    p = kinds.add_parser("pips", help="a commander's pips (Rules 2-3; --blind: Rule 1)",
                         description="Exact chance of each number of pips: the average die "
                                     "(2, 3, 3, 4, 4, 5) plus the commander's grade. Rules 2 "
                                     "and 3 give Gifted +3, Average +2, Poor +1; while his "
                                     "corps moves on blinds Rule 1 gives +1, 0, -1 (--blind).")
    p.add_argument("--grade", required=True, choices=[g.value for g in Grade],
                   type=any_case(g.value for g in Grade), help="the commander's grade")
    p.add_argument("--blind", action="store_true",
                   help="pips for moving blinds (Rule 1) instead of figures on the table")
    ruleset_and_json(p, rulesets)
    p.set_defaults(func=guarded(_pips))


def _spotting(args: argparse.Namespace) -> int:
    cover, spotter = Cover(args.cover), Spotter(args.spotter)
    who = SPOTTERS[spotter]
    situation = SpotSituation(who, spotter, "the target", cover, args.inches)
    odds = spot_odds(situation, args.ruleset)
    band = spotting_band(cover, args.inches, args.ruleset)
    die = spotting_table(args.ruleset).die
    if band is None:
        last = spotting_table(args.ruleset).bands[cover][-1].up_to
        how, seen, unseen = f"beyond {inches_text(last)}: cannot be spotted", "never", "always"
    elif band.automatic:
        how, seen, unseen = "spotted without a roll", "automatic", "never"
    else:
        how = f"needs {band.need} or more on the {die.name}"
        seen, unseen = f"{band.need} or more", f"{(band.need or 0) - 1} or less"
    if args.json:
        return print_json({
            "kind": "spotting", "rules": [1], "ruleset": args.ruleset,
            "spotter": spotter.value, "cover": cover.value, "inches": str(args.inches),
            "dice": dice_text(die), "modifiers": [], "net": 0,
            "band": None if band is None else {
                "from": str(_low(cover, band, args.ruleset)), "up_to": str(band.up_to),
                "automatic": band.automatic, "need": band.need},
            "result": {"spotted": str(odds[True]), "not_spotted": str(odds[False])},
        })
    print(f"Rule 1 spotting ({args.ruleset}): {who} looks at a target {COVER_HELP[cover]}, "
          f"{inches_text(args.inches)} away")
    if band is not None:
        low = _low(cover, band, args.ruleset)
        reach = (f"over {inches_text(low)} up to {band.up_to}" if low
                 else f"up to {inches_text(band.up_to)}")
        print(f"Band {reach}: {how}; no modifiers")
    else:
        print(f"Band: {how}")
    for line in chance_lines([("spotted", seen, odds[True]),
                              ("not spotted", unseen, odds[False])]):
        print(line)
    if odds[True]:
        print("A blind spotted has its brigades placed on the table at its forward edge, no "
              "wider than the blind.")
    return 0


def _pips(args: argparse.Namespace) -> int:
    grade = Grade(args.grade)
    if args.blind:
        table = spotting_table(args.ruleset)
        die, bonus, rules = table.blind_pips_die, table.blind_pips_bonus[grade], [1]
        odds = blind_pips_odds(grade, args.ruleset)
        what = "Blind movement pips (Rule 1)"
    else:
        command = command_table(args.ruleset)
        die, bonus, rules = command.pips_die, command.pips_bonus[grade], [2, 3]
        odds = pips_odds(grade, args.ruleset)
        what = "Pips (Rules 2-3)"
    mods = (Modifier(grade.value.lower(), f"{grade.value} commander", bonus),) if bonus else ()
    odds = dict(sorted(odds.items()))
    at_least = {n: sum((p for m, p in odds.items() if m >= n), Fraction(0)) for n in odds}
    faces = ", ".join(map(str, die.faces))
    if args.json:
        return print_json({
            "kind": "pips", "rules": rules, "ruleset": args.ruleset, "grade": grade.value,
            "blind": args.blind, "dice": describe(die), "faces": list(die.faces),
            "modifiers": modifiers_json(mods), "net": net_of(mods),
            "pips": chances_json(odds), "at_least": chances_json(at_least),
        })
    article = "an" if grade.value[0] in "AEIOU" else "a"
    print(f"{what} for {article} {grade.value} commander ({args.ruleset})")
    print(f"Roll the {describe(die)} ({faces}) {modifiers_text(mods)}")
    width = max(len(str(p)) for p in odds.values())
    for n, p in odds.items():
        label = f"{n} pip{'s' if n != 1 else ''}"
        print(f"  {label:<7} {str(p):>{width}}  {percent(p)}   {n} or more: {at_least[n]}")
    return 0
