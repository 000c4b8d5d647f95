"""``campaign1813 odds …``: the exact odds of a roll, for quick use at the table.

Each kind of roll lives in its own module; ``KINDS`` says which module owns which kind, so only
the module of the kind asked for is imported (``odds artillery`` never loads the combat tables,
and ``odds --help`` loads none). Each module has ``register(odds_subparsers)``.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any

from campaign1813.campaign.cli.odds_format import OddsParser

# kind → (module, one-line help)
KINDS: dict[str, tuple[str, str]] = {
    "spotting": ("campaign1813.campaign.cli.odds_command",
                 "chance to spot a blind or brigade by range and cover (Rule 1)"),
    "pips": ("campaign1813.campaign.cli.odds_command",
             "a commander's pips: average die + grade (Rules 2-3; --blind for Rule 1)"),
    "charge": ("campaign1813.campaign.cli.odds_charge",
               "chance that cavalry pass the opportunity charge test (Rule 6)"),
    "reaction": ("campaign1813.campaign.cli.odds_charge",
                 "chance that the target of an opportunity charge reacts in time (Rule 6)"),
    "crest": ("campaign1813.campaign.cli.odds_charge",
              "the revised crest-of-hill test (Rule 8, ruleset 1813-revised)"),
    "artillery": ("campaign1813.campaign.cli.odds_fire",
                  "chance of 0, 1 or 2 hits from artillery fire (Rule 7)"),
    "skirmish": ("campaign1813.campaign.cli.odds_melee",
                 "chance that each side's skirmishers kill (Rule 11)"),
    "combat": ("campaign1813.campaign.cli.odds_melee", "odds of a combat (Rules 9-15)"),
    "pursuit": ("campaign1813.campaign.cli.odds_melee",
                "whether cavalry that caused a rout pursue, and how (Rule 16)"),
    "morale": ("campaign1813.campaign.cli.odds_melee",
               "odds of a morale test, a rally, or pursuers rallying (Rules 16-18)"),
}
ODDS_MODULES = list(dict.fromkeys(module for module, _help in KINDS.values()))
# Rulesets with an engine of their own: ``odds --ruleset ID KIND`` takes that module's kinds.
RULESET_ODDS: dict[str, str] = {
    "002": "campaign1813.campaign.cli.odds_002",
    "004": "campaign1813.campaign.cli.odds_004",
}


def _kind_in(argv: list[str]) -> str | None:
    words = argv[argv.index("odds") + 1:] if "odds" in argv else []
    return next((w for w in words if not w.startswith("-")), None)


def register(sub: Any, argv: list[str] | None = None) -> None:
    """Add ``odds`` and its kinds of roll; of the kinds, only the one named in ``argv`` is
    registered in full (all of them for None, none when ``argv`` names no kind)."""
    p = sub.add_parser("odds", help="exact odds of a roll (" + ", ".join(KINDS) + ")",
                       description="The exact chance of every outcome of a roll of the 1813 "
                                   "rules, with the modifiers applied. Every kind takes "
                                   "--json and --ruleset; KIND --help lists its options.")
    words = argv[argv.index("odds") + 1:] if argv and "odds" in argv else []
    if words[:1] == ["--ruleset"] and words[1:2] and words[1] in RULESET_ODDS:
        importlib.import_module(RULESET_ODDS[words[1]]).register(p)
        return
    kinds = p.add_subparsers(dest="odds_kind", metavar="KIND", parser_class=OddsParser)
    p.set_defaults(func=lambda _args: p.print_help() or 0)
    kind = None if argv is None else _kind_in(argv)
    if kind in KINDS:
        wanted = [KINDS[kind][0]]
    else:
        wanted = ODDS_MODULES if argv is None else []
    for name in wanted:
        importlib.import_module(name).register(kinds)
    registered = set(kinds.choices)
    for name, (_module, text) in KINDS.items():
        if name not in registered:
            kinds.add_parser(name, help=text, formatter_class=argparse.HelpFormatter)
