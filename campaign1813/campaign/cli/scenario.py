"""CLI subcommands about the scenario itself: ``oob`` prints the orders of battle,
``scenario check`` validates a scenario folder and counts what it holds."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from campaign1813.campaign.export.oob import oob_json, oob_text
from campaign1813.campaign.scenario.errors import ScenarioError
from campaign1813.campaign.scenario.forces import army_named
from campaign1813.campaign.scenario.loader import load_scenario, read_scenario_folder
from campaign1813.maps.types import Theatre


def register(sub: Any, argv: list[str] | None = None) -> None:
    """Add the scenario subcommands."""
    p = sub.add_parser("oob", help="print the orders of battle of the scenario's army groups")
    p.add_argument("--army", metavar="NAME",
                   help="only this army group, e.g. 'Second French Army' (any case)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument("--scenario", metavar="PATH",
                   help="a scenario folder (default: the shipped 1813 scenario)")
    p.set_defaults(func=_oob)

    p = sub.add_parser("scenario", help="work with scenario folders")
    kinds = p.add_subparsers(dest="scenario_command", metavar="ACTION")
    p.set_defaults(func=lambda _args: p.print_help() or 0)
    check = kinds.add_parser(
        "check", help="validate a scenario folder and print what it holds per theatre",
        description="Validate a scenario (default: the shipped 1813 scenario). Prints the towns, "
                    "roads and army groups per theatre; on error prints every problem and "
                    "exits with status 1.")
    check.add_argument("path", nargs="?", metavar="PATH", help="a scenario folder")
    check.set_defaults(func=_check)


def _oob(args: argparse.Namespace) -> int:
    scenario = load_scenario(read_scenario_folder(args.scenario))
    armies = scenario.armies
    if args.army is not None:
        armies = (army_named(armies, args.army),)
    if args.json:
        print(json.dumps(oob_json(armies), ensure_ascii=False, indent=2))
    else:
        print(oob_text(armies), end="")
    return 0


def _check(args: argparse.Namespace) -> int:
    where = args.path or "the shipped 1813 scenario"
    try:
        scenario = load_scenario(read_scenario_folder(args.path))
    except ScenarioError as exc:
        problems = str(exc).splitlines()
        print(f"{where}: {len(problems)} problem{'s' if len(problems) != 1 else ''}",
              file=sys.stderr)
        for line in problems:
            print(f"  {line}", file=sys.stderr)
        return 1
    towns = {t.name: t.theatre for t in scenario.map.towns}
    print(f"{where}: {scenario.name} — valid")
    print(f"{'theatre':<30}{'towns':>7}{'roads':>7}{'armies':>8}{'corps':>7}")
    totals = [0, 0, 0, 0]
    for theatre in Theatre:
        row = [
            sum(1 for th in towns.values() if th is theatre),
            sum(1 for r in scenario.map.roads if towns[r.a] is theatre or towns[r.b] is theatre),
            sum(1 for a in scenario.armies if a.theatre is theatre),
            sum(len(a.corps) for a in scenario.armies if a.theatre is theatre),
        ]
        totals = [x + y for x, y in zip(totals, row, strict=True)]
        print(f"{theatre.value:<30}{row[0]:>7}{row[1]:>7}{row[2]:>8}{row[3]:>7}")
    roads = len(scenario.map.roads)
    print(f"{'all':<30}{totals[0]:>7}{roads:>7}"
          f"{totals[2]:>8}{totals[3]:>7}")
    brigades = sum(len(c.infantry) for a in scenario.armies for c in a.corps)
    print(f"{brigades} infantry brigades, {totals[3]} cavalry brigades, {totals[3]} batteries; "
          f"{len(scenario.map.rivers)} rivers; {len(scenario.objectives)} objectives")
    return 0
