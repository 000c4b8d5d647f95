"""CLI: ``export history FILE OUT --theatre NAME [--side french|allied]`` writes the campaign's
history for the club's blog into the folder OUT: a map of the theatre for every day (PNG and
SVG), the day's report and battles in words, ``index.html`` with a day slider that works
offline, and ``history.pdf`` with one page per day (``campaign.export.history``). As a side,
only what that side knew each day."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.export.diary import find_theatre
from campaign1813.campaign.export.history import HistoryPainter, write_history
from campaign1813.campaign.export.paper import check_paper_size, installed
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.opening import open_store

WHOLE = "all"  # --theatre all: the whole map


def register_export(kinds: Any) -> None:
    """``export history``."""
    p = kinds.add_parser(
        "history", help="the campaign day by day: a folder of maps, words, a page and a PDF",
        description="Write the campaign's history into the folder OUT: a map of the theatre "
                    "for every day (PNG and SVG), the day's report and battles, index.html "
                    "with a day slider that works offline, and history.pdf with a page a day. "
                    "With --side, only what that side knew on each day.")
    p.add_argument("file", help="the campaign file (or a server campaign's address)")
    p.add_argument("out", help="the folder to write (made if it does not exist)")
    p.add_argument("--theatre", required=True, metavar="NAME",
                   help=f"the theatre drawn, e.g. 'Northern Germany' ('{WHOLE}': the whole map)")
    p.add_argument("--side", help="french or allied: what that side knew (the umpire's "
                                  "history if left out)")
    p.add_argument("--paper", default="a4", help="the PDF's paper: a4 or letter")
    p.add_argument("--force", action="store_true", help="write over a history in OUT")
    p.set_defaults(func=_history)


def _side(text: str | None) -> Side | None:
    if text is None:
        return None
    named = {"french": Side.FRENCH, "allied": Side.ALLIED, "allies": Side.ALLIED}
    if text.strip().casefold() in named:
        return named[text.strip().casefold()]
    raise CampaignError(f"--side {text!r}: give french or allied")


def _history(args: argparse.Namespace) -> int:
    side = _side(args.side)
    theatre = None if args.theatre.strip().casefold() == WHOLE else find_theatre(args.theatre)
    size = check_paper_size(args.paper)
    painter = installed()  # before the campaign is opened: without one there is nothing to do
    if not isinstance(painter, HistoryPainter):
        raise CampaignError("the history's maps need the full application's drawing; run the "
                            "campaign1813 command, not the bare campaign1813.campaign.cli")
    with open_store(args.file) as doc:
        written = write_history(doc, Path(args.out), theatre, side, painter, paper_size=size,
                                force=args.force)
    days = (len(written) - 2) // 2
    print(f"wrote {args.out}: {days} days, index.html and history.pdf")
    return 0
