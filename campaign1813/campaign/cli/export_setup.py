"""CLI: ``export setup`` (a battle's setup sheet for the table), ``export diary`` (the diary)
and ``export report`` (a battle's full report).

``export setup FILE --battle ID (--pdf|--svg|--json) OUT`` writes the setup sheet of a
scheduled battle (or of one being fought): the PDF sheet, the SVG of the table alone, or JSON
for other tools (``docs/schemas/battle-setup.schema.json``). ``export diary FILE
(--md|--html|--pdf) OUT [--theatre NAME] [--from DATE] [--to DATE]`` writes the diary, a battle
one entry in it; ``export report FILE --battle ID (--md|--html|--pdf) OUT`` that battle's full
report, move by move. Like every export, an existing OUT is replaced only with ``--force``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from campaign1813.campaign.cli.export import add_output, add_paper, chosen_output, write
from campaign1813.campaign.export.diary import (
    DiaryFilter,
    campaign_report,
    diary_bytes,
    find_theatre,
    parse_day,
)
from campaign1813.campaign.export.formats import check_paper_option, document_bytes
from campaign1813.campaign.export.paper import installed
from campaign1813.campaign.queries import battle_setup_view
from campaign1813.campaign.store.opening import open_store


def register_export(kinds: Any) -> None:
    """``export setup``, ``export diary`` and ``export report``."""
    p = kinds.add_parser(
        "setup", help="a battle's setup sheet for the table: PDF, SVG of the table, or JSON",
        description="The setup sheet of a scheduled battle: the table with its terrain, roads "
                    "and entries, the chips, orders to write, figures and casualty tallies.")
    p.add_argument("file", help="the campaign file")
    p.add_argument("--battle", metavar="ID", type=int, required=True, help="the battle's number")
    add_output(p, {"pdf": "write the setup sheet as PDF", "svg": "write the table as SVG",
                   "json": "write JSON (docs/schemas/battle-setup.schema.json)"})
    add_paper(p)
    p.set_defaults(func=_setup)

    d = kinds.add_parser(
        "diary", help="the campaign diary: Markdown, HTML or PDF",
        description="The campaign's days, all of them or one theatre's, between two dates "
                    "(both included). A battle is one entry: its result, and a reference to "
                    "its full report (export report).")
    d.add_argument("file", help="the campaign file")
    add_output(d, {"md": "write Markdown", "html": "write HTML", "pdf": "write a PDF"})
    d.add_argument("--theatre", metavar="NAME", help="one theatre, e.g. 'Northern Germany'")
    d.add_argument("--from", dest="since", metavar="DATE",
                   help="the first day, e.g. 1813-05-02 or '2 May 1813'")
    d.add_argument("--to", dest="until", metavar="DATE", help="the last day")
    add_paper(d)
    d.set_defaults(func=_diary)

    r = kinds.add_parser(
        "report", help="a battle's full report, move by move: Markdown, HTML or PDF",
        description="The full report of a battle fought at the table (finished, or so far) "
                    "or auto-resolved, in the rules' form: each turn, each move, the result.")
    r.add_argument("file", help="the campaign file")
    r.add_argument("--battle", metavar="ID", type=int, required=True, help="the battle's number")
    add_output(r, {"md": "write Markdown", "html": "write HTML", "pdf": "write a PDF"})
    add_paper(r)
    r.set_defaults(func=_report)


def _setup(args: argparse.Namespace) -> int:
    # The setup sheet brings the battle engine: imported by this export alone.
    from campaign1813.campaign.export.setup_sheet import sheet_json, sheet_paper

    fmt, out = chosen_output(args)
    size = check_paper_option(fmt, args.paper)
    paper = sheet_paper() if fmt in ("pdf", "svg") else None  # refused before any work
    with open_store(args.file) as doc:
        sheet = battle_setup_view(doc, args.battle)
    if paper is not None and fmt == "pdf":
        data = paper.setup_sheet_pdf(sheet, size)
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
    size = check_paper_option(fmt, args.paper)
    if fmt == "pdf":
        installed()  # before any work: without a painter there is nothing to do
    with open_store(args.file) as doc:
        data = diary_bytes(doc, fmt, chosen, size)
    write(out, data, args.force)
    return 0


def _report(args: argparse.Namespace) -> int:
    fmt, out = chosen_output(args)
    size = check_paper_option(fmt, args.paper)
    if fmt == "pdf":
        installed()  # before any work: without a painter there is nothing to do
    with open_store(args.file) as doc:
        document = campaign_report(doc, args.battle)
    write(out, document_bytes(document, fmt, size), args.force)
    return 0
