"""``campaign1813 odds …``: the exact odds of a roll, for quick use at the table.

Each kind of roll lives in its own module listed in ``ODDS_MODULES``; each has
``register(odds_subparsers)``.
"""

from __future__ import annotations

import importlib

ODDS_MODULES: list[str] = [
    "campaign1813.campaign.cli.odds_fire",
    "campaign1813.campaign.cli.odds_melee",
]


def register(sub) -> None:
    """Add ``odds`` and its kinds of roll."""
    p = sub.add_parser("odds", help="exact odds of a roll (artillery, morale, combat)")
    kinds = p.add_subparsers(dest="odds_kind", metavar="KIND")
    p.set_defaults(func=lambda _args: p.print_help() or 0)
    for name in ODDS_MODULES:
        importlib.import_module(name).register(kinds)
