"""CLI: ``export setup`` (a battle's setup sheet for the table) and ``export diary`` (the diary
and its battle reports).

``export setup FILE --battle ID (--pdf|--svg|--json) OUT`` writes the setup sheet of a
scheduled battle (or of one being fought): the PDF sheet, the SVG of the table alone, or JSON
for other tools (``docs/schemas/battle-setup.schema.json``). ``export diary FILE
(--md|--html|--pdf) OUT [--theatre NAME] [--from DATE] [--to DATE]`` writes the diary. Like every
export, an existing OUT is replaced only with ``--force``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from campaign1813.campaign.cli.export import add_output, chosen_output, write
from campaign1813.campaign.export.diary import DiaryFilter, campaign_diary, find_theatre, parse_day
from campaign1813.campaign.export.paper import installed
from campaign1813.campaign.export.render import document_html, document_markdown
from campaign1813.campaign.queries import battle_setup_view
from campaign1813.campaign.store.opening import open_store


def register_export(kinds: Any) -> None:
    """``export setup`` and ``export diary``."""
    p = kinds.add_parser(
        "setup", help="a battle's setup sheet for the table: PDF, SVG of the table, or JSON",
        description="The setup sheet of a scheduled battle: the table with its terrain, roads "
                    "and entries, the chips, orders to write, figures and casualty tallies.")
    p.add_argument("file", help="the campaign file")
    p.add_argument("--battle", metavar="ID", type=int, required=True, help="the battle's number")
    add_output(p, {"pdf": "write the setup sheet as PDF", "svg": "write the table as SVG",
                   "json": "write JSON (docs/schemas/battle-setup.schema.json)"})
    p.add_argument("--paper", choices=("a4", "letter"), default="a4", type=str.lower,
                   help="the PDF's paper size (default a4)")
    p.set_defaults(func=_setup)

    d = kinds.add_parser(
        "diary", help="the campaign diary and its battle reports: Markdown, HTML or PDF",
        description="The campaign's days and battle reports, all of them or one theatre's, "
                    "between two dates (both included).")
    d.add_argument("file", help="the campaign file")
    add_output(d, {"md": "write Markdown", "html": "write HTML", "pdf": "write a PDF"})
    d.add_argument("--theatre", metavar="NAME", help="one theatre, e.g. 'Northern Germany'")
    d.add_argument("--from", dest="since", metavar="DATE",
                   help="the first day, e.g. 1813-05-02 or '2 May 1813'")
    d.add_argument("--to", dest="until", metavar="DATE", help="the last day")
    d.add_argument("--paper", choices=("a4", "letter"), default="a4", type=str.lower,
                   help="the PDF's paper size (default a4)")
    d.set_defaults(func=_diary)


def _setup(args: argparse.Namespace) -> int:
    # The setup sheet brings the battle engine: imported by this export alone.
    from campaign1813.campaign.export.setup_sheet import sheet_json, sheet_paper

    fmt, out = chosen_output(args)
    paper = sheet_paper() if fmt in ("pdf", "svg") else None  # refused before any work
    with open_store(args.file) as doc:
        sheet = battle_setup_view(doc, args.battle)
    if paper is not None and fmt == "pdf":
        data = paper.setup_sheet_pdf(sheet, args.paper)
    elif paper is not None:
        data = paper.table_svg(sheet)
    else:
        data = (json.dumps(sheet_json(sheet), ensure_ascii=False, indent=2) + "\n").encode()
    write(out, data, args.force)
    return 0


def _diary(args: argparse.Namespace) -> int:
    fmt, out = chosen_output(args)
    chosen = DiaryFilter(
        find_theatre(args.theatre) if args.theatre else None,
        parse_day(args.since, "--from") if args.since else None,
        parse_day(args.until, "--to") if args.until else None)
    paper = installed() if fmt == "pdf" else None
    with open_store(args.file) as doc:
        document = campaign_diary(doc, chosen)
    if paper is not None:
        data = paper.pdf(document, args.paper)
    elif fmt == "md":
        data = document_markdown(document).encode()
    else:
        data = document_html(document).encode()
    write(out, data, args.force)
    return 0
