"""CLI: ``export`` writes what leaves the laptop for the table — ``export oob`` the orders of
battle as PDF, HTML, Markdown, CSV or JSON (``--paper`` sizes the PDF alone and is refused with
the others, which have no pages).

Every export goes through :func:`~campaign1813.campaign.export.output.write_new`: an existing
file is replaced only with ``--force``, the file is written whole or not at all, and nowhere
but where it was told. Each kind of export is a module of this package with
``register(kinds)``; :data:`EXPORTS` lists them, and ``export`` registers each.
"""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path
from typing import Any

from campaign1813.campaign.export.formats import check_paper_option
from campaign1813.campaign.export.output import write_new
from campaign1813.campaign.export.paper import installed
from campaign1813.campaign.queries import campaign_status
from campaign1813.campaign.store.opening import open_store

# The modules (in this package) that add an ``export`` subcommand each.
EXPORTS: list[str] = [
    "campaign1813.campaign.cli.export",
    "campaign1813.campaign.cli.export_setup",
    "campaign1813.campaign.cli.export_history",
]


def register(sub: Any, argv: list[str] | None = None) -> None:
    """Add ``export`` and the kinds of export of every module in :data:`EXPORTS`."""
    p = sub.add_parser("export", help="write orders of battle and other papers to a file",
                       description="Write a paper for the table to a file. An existing file is "
                                   "replaced only with --force.")
    kinds = p.add_subparsers(dest="export_kind", metavar="KIND")
    p.set_defaults(func=lambda _args: p.print_help() or 0)
    for name in EXPORTS:
        importlib.import_module(name).register_export(kinds)


def add_output(parser: argparse.ArgumentParser, formats: dict[str, str]) -> None:
    """The output options every export shares: one ``--FORMAT OUT`` of ``formats`` (format →
    help), and ``--force``."""
    group = parser.add_mutually_exclusive_group(required=True)
    for fmt, text in formats.items():
        group.add_argument(f"--{fmt}", metavar="OUT", dest=f"out_{fmt}", help=text)
    parser.add_argument("--force", action="store_true", help="replace OUT if it exists")
    parser.set_defaults(formats=tuple(formats))


def chosen_output(args: argparse.Namespace) -> tuple[str, str]:
    """The format asked for and the file to write it to."""
    for fmt in args.formats:
        out = getattr(args, f"out_{fmt}")
        if out is not None:
            return fmt, out
    raise AssertionError("argparse requires one output")  # pragma: no cover


def write(out: str, data: bytes, force: bool) -> None:
    """Write an export's bytes and say where they went."""
    write_new(Path(out), data, force=force)
    print(f"wrote {out}")


def register_export(kinds: Any) -> None:
    """``export oob``."""
    p = kinds.add_parser(
        "oob", help="the orders of battle: an army group, a theatre or a battle",
        description="The orders of battle of the campaign's army groups (all of them, or one "
                    "army group, one theatre, or the commands in one battle) as PDF, HTML, "
                    "Markdown, CSV or JSON.")
    p.add_argument("file", help="the campaign file")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--army", metavar="NAME", help="one army group, e.g. 'Second French Army'")
    which.add_argument("--theatre", metavar="NAME", help="one theatre, e.g. 'Northern Germany'")
    which.add_argument("--battle", metavar="ID", type=int, help="the commands in one battle")
    add_output(p, {"pdf": "write a PDF",
                   "html": "write one HTML page (each corps kept on one printed page)",
                   "md": "write Markdown", "csv": "write CSV, a row per commander and unit",
                   "json": "write JSON (docs/schemas/oob.schema.json)"})
    add_paper(p)
    p.set_defaults(func=_oob)


def add_paper(parser: argparse.ArgumentParser) -> None:
    """``--paper``: the PDF's page size; refused with a format that has no pages."""
    parser.add_argument("--paper", choices=("a4", "letter"), default=None, type=str.lower,
                        help="the PDF's paper size (default a4); only with --pdf, since the "
                             "other formats have no pages")


def _oob(args: argparse.Namespace) -> int:
    # The orders of battle read the scenario's forces with pydantic: imported by this export
    # alone, as the setup sheet (the battle engine) is by its own (``export_setup``).
    from campaign1813.campaign.export import oob_document as oob

    fmt, out = chosen_output(args)
    size = check_paper_option(fmt, args.paper)
    if fmt == "pdf":
        installed()  # before any work: without a painter there is nothing to do
    with open_store(args.file) as doc:
        armies = doc.scenario().armies
        summary = doc.summary()
        battles = campaign_status(doc).battles if args.battle is not None else ()
    if args.army is not None:
        forces = oob.army_forces(armies, args.army)
    elif args.theatre is not None:
        forces = oob.theatre_forces(armies, args.theatre)
    elif args.battle is not None:
        forces = oob.battle_forces(armies, oob.find_battle(battles, args.battle))
    else:
        forces = oob.all_forces(armies)
    write(out, oob.oob_bytes(forces, summary.name, summary.current_date, fmt, size), args.force)
    return 0
