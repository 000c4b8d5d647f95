"""CLI subcommands about campaign files: ``new``, ``info``, ``verify``, ``backup``,
``restore``.

Each takes a server campaign's address where it takes a campaign file: ``new`` makes the
campaign on the server, ``backup`` of an address writes a whole campaign file (a pull), and
``restore`` onto an address puts the backup in place of the server's campaign (a push over it).
The server's store is imported only then."""

from __future__ import annotations

import argparse
import sys
import tempfile
from datetime import date
from pathlib import Path
from typing import Any

from campaign1813.campaign import queries
from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.store.document import (
    backup_campaign,
    create_campaign,
    open_campaign,
    restore_campaign,
)
from campaign1813.campaign.store.opening import is_address, open_store


def _parse_date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"'{text}' is not a date like 1813-05-01") from exc


def register(sub: Any, argv: list[str] | None = None) -> None:
    """Add the file subcommands."""
    p = sub.add_parser("new", help="create a new campaign file from the 1813 scenario")
    p.add_argument("file", help="the campaign file to create (suffix .c1813)")
    p.add_argument("--name", help="the campaign's name")
    p.add_argument("--start", type=_parse_date, help="the start date, e.g. 1813-05-01")
    p.set_defaults(func=_new)

    p = sub.add_parser("info", help="check a campaign file and print its name and dates")
    p.add_argument("file")
    p.set_defaults(func=_info)

    p = sub.add_parser(
        "verify", help="rebuild every day from the log and compare each day's snapshot",
        description="Rebuild the campaign day by day from its first state and the log in force, "
                    "and compare the state kept at dawn of each day (and today's) with it; a "
                    "snapshot that does not match is named with its day (exit status 1).")
    p.add_argument("file", help="the campaign file (or a server campaign's address)")
    p.set_defaults(func=_verify)

    p = sub.add_parser(
        "backup", help="copy a campaign, whole and consistent, even while it is open",
        description="Copy a campaign file through SQLite's backup API: the copy is whole and "
                    "consistent even while the window has the campaign open or a crash left it "
                    "mid-commit (a plain copy of the file is safe only while the app is closed).")
    p.add_argument("file", help="the campaign to copy")
    p.add_argument("out", help="the copy to write (suffix .c1813)")
    p.add_argument("--overwrite", action="store_true", help="replace OUT if it exists")
    p.set_defaults(func=_backup)

    p = sub.add_parser(
        "restore", help="put a backup in the place of a campaign, safely after a crash",
        description="Check BACKUP, move FILE aside with its journal (as FILE.before-restore, "
                    "which still opens as the file was), and copy BACKUP in its place. Copying "
                    "a backup over a campaign by hand after a crash leaves the crash's journal "
                    "beside it, which the next open would roll into the backup.")
    p.add_argument("backup", help="the backup to restore")
    p.add_argument("file", help="the campaign file it replaces (suffix .c1813)")
    p.set_defaults(func=_restore)


def _new(args: argparse.Namespace) -> int:
    if is_address(args.file):
        return _new_on_server(args)
    if not args.file.endswith(".c1813"):
        raise CampaignError(f"{args.file}: a campaign file's name must end in .c1813")
    with create_campaign(args.file, name=args.name, start_date=args.start) as doc:
        s = doc.summary()
    print(f"created {args.file}: {s.name}, starting {format_date(s.start_date)}")
    return 0


def _info(args: argparse.Namespace) -> int:
    with open_store(args.file) as doc:
        s = doc.summary()
    print(f"{s.name}\nstarted {format_date(s.start_date)}\ntoday   {format_date(s.current_date)}")
    return 0


def _verify(args: argparse.Namespace) -> int:
    with open_store(args.file) as doc:
        verdict = queries.verify(doc)
    for fault in verdict.faults:
        print(fault, file=sys.stderr)
    if verdict.missing:
        print(f"{len(verdict.missing)} day(s) closed before this file kept snapshots: "
              f"{', '.join(format_date(d) for d in verdict.missing)}")
    if not verdict.sound:
        return 1
    days = len(verdict.checked)
    print(f"{days} day{'s' if days != 1 else ''} rebuilt from the log, every one as kept"
          + (f" ({format_date(verdict.checked[0])} to {format_date(verdict.checked[-1])})"
             if days else "") + "; today's state as the log leaves it")
    return 0


def _backup(args: argparse.Namespace) -> int:
    if not args.out.endswith(".c1813"):
        raise CampaignError(f"{args.out}: a campaign file's name must end in .c1813")
    if is_address(args.file):  # a server campaign's copy is a whole campaign file: a pull
        from campaign1813.campaign.store.server import pull_campaign

        out = pull_campaign(args.file, args.out, overwrite=args.overwrite)
        with open_store(out) as doc:
            s = doc.summary()
        print(f"backed up {_shown_address(args.file)} to {out}: {s.name}, "
              f"{format_date(s.current_date)}")
        return 0
    with open_campaign(args.file) as doc:
        out = backup_campaign(doc, args.out, overwrite=args.overwrite)
        s = doc.summary()
    print(f"backed up {args.file} to {out}: {s.name}, {format_date(s.current_date)}")
    return 0


def _restore(args: argparse.Namespace) -> int:
    if is_address(args.file):  # a backup put in place of a server campaign: a push over it
        from campaign1813.campaign.cli.server import kept_forms_line
        from campaign1813.campaign.store.server import push_campaign

        pushed = push_campaign(args.backup, args.file, replace=True)
        with open_store(args.file) as doc:
            s = doc.summary()
        print(f"restored {args.backup} to {pushed.address}: {s.name}, "
              f"{format_date(s.current_date)}")
        print(kept_forms_line(pushed.kept_forms))
        return 0
    if not args.file.endswith(".c1813"):
        raise CampaignError(f"{args.file}: a campaign file's name must end in .c1813")
    aside = restore_campaign(args.backup, args.file)
    with open_campaign(args.file) as doc:
        s = doc.summary()
    print(f"restored {args.backup} to {args.file}: {s.name}, {format_date(s.current_date)}")
    if aside is not None:
        print(f"the file it replaced is kept as {aside}")
    return 0


def _shown_address(target: str) -> str:
    """A server campaign's address as messages show it (its password hidden)."""
    from campaign1813.campaign.store.server import ServerAddress

    return str(ServerAddress(target))


def _new_on_server(args: argparse.Namespace) -> int:
    """A new campaign made as a file in a temporary folder and pushed to the server whole."""
    from campaign1813.campaign.store.server import push_campaign

    with tempfile.TemporaryDirectory() as folder:
        made = Path(folder) / "new.c1813"
        create_campaign(made, name=args.name, start_date=args.start).close()
        address = push_campaign(made, args.file).address
    with open_store(args.file) as doc:
        s = doc.summary()
    print(f"created {address}: {s.name}, starting {format_date(s.start_date)}")
    return 0
