"""The headless command line, ``campaign1813``.

Every subcommand calls the same services the window uses. Subcommands live in modules listed in
``SUBCOMMAND_MODULES``; each module has ``register(subparsers)`` that adds its parsers and sets
``func`` to a function taking the parsed arguments and returning an exit status.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from campaign1813 import __version__
from campaign1813.campaign.errors import CampaignError

SUBCOMMAND_MODULES = [
    "campaign1813.campaign.cli_document",
    "campaign1813.campaign.cli_odds",
    "campaign1813.campaign.cli_day",
]


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="campaign1813",
        description="The 1813 Campaign Umpire: campaign files, the road map, orders and battles.",
    )
    parser.add_argument("--version", action="version", version=f"campaign1813 {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; errors are one line on stderr and a non-zero status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except CampaignError as exc:
        print(f"campaign1813: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into a command that stopped reading, e.g. `head`
        sys.stdout = None
        return 0
    except Exception as exc:  # a fault of ours: one line; transactions leave the file whole
        if os.environ.get("CAMPAIGN1813_DEBUG"):
            raise
        print(f"campaign1813: internal error: {type(exc).__name__}: {exc} "
              "(set CAMPAIGN1813_DEBUG=1 to see where)", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
