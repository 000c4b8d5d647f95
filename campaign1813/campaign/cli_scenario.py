"""CLI subcommands about the scenario itself: ``oob`` prints the orders of battle."""

from __future__ import annotations

import json

from campaign1813.campaign.export.oob import oob_json, oob_text
from campaign1813.campaign.scenario.forces import army_named


def register(sub) -> None:
    """Add the scenario subcommands."""
    p = sub.add_parser("oob", help="print the orders of battle of the scenario's army groups")
    p.add_argument("--army", metavar="NAME",
                   help="only this army group, e.g. 'Second French Army' (any case)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument("--scenario", metavar="PATH",
                   help="a scenario folder (default: the shipped 1813 scenario)")
    p.set_defaults(func=_oob)


def _oob(args) -> int:
    # Imported here so that the other subcommands start without reading the scenario code.
    from campaign1813.campaign.scenario.loader import load_scenario, read_scenario_folder

    scenario = load_scenario(read_scenario_folder(args.scenario))
    armies = scenario.armies
    if args.army is not None:
        armies = (army_named(armies, args.army),)
    if args.json:
        print(json.dumps(oob_json(armies), ensure_ascii=False, indent=2))
    else:
        print(oob_text(armies), end="")
    return 0
