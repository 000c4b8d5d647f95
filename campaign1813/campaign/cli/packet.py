"""CLI: turn packets for play by e-mail (record 0025).

``packet FILE --side french --out DIR`` writes a side's packet: its situation report (PDF and
JSON), and an order form (JSON and a printable PDF). ``side-key FILE --side french --out KEY``
writes the key issued to a side, for the umpire to hand its player once; ``sign-orders FORM
--key KEY`` signs a filled form with it; ``import-orders FILE FORM`` takes a signed form back,
shows the orders before → after, and refuses a form of another campaign, side or day, a tampered
one or a replayed one with the reason, never writing to the form.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from campaign1813.campaign import queries, services
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.export import packet
from campaign1813.campaign.export.output import write_new
from campaign1813.campaign.export.packet import FormRefused
from campaign1813.campaign.export.paper import installed
from campaign1813.campaign.export.turn_packet import packet_json_bytes, write_packet
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.opening import open_store


def _side(text: str) -> Side:
    for side in Side:
        if text.strip().casefold() in (side.value.casefold(), side.name.casefold()):
            return side
    raise CampaignError(f"--side {text!r}: give french or allied")


def register(sub: Any, argv: list[str] | None = None) -> None:
    """Add ``packet``, ``side-key``, ``sign-orders`` and ``import-orders``."""
    p = sub.add_parser("packet", help="write a side's turn packet: situation report and order "
                                      "form (PDF and JSON)")
    p.add_argument("file")
    p.add_argument("--side", required=True, help="french or allied")
    p.add_argument("--out", required=True, metavar="DIR", help="the folder to write it in")
    p.add_argument("--paper", default="a4", help="a4 or letter")
    p.add_argument("--force", action="store_true", help="replace files of the same names")
    p.set_defaults(func=_packet)

    p = sub.add_parser("side-key", help="write the key issued to a side, to sign its orders")
    p.add_argument("file")
    p.add_argument("--side", required=True, help="french or allied")
    p.add_argument("--out", required=True, metavar="KEY")
    p.set_defaults(func=_side_key)

    p = sub.add_parser("sign-orders", help="sign a filled order form with the side's key")
    p.add_argument("form", metavar="ORDERS.json")
    p.add_argument("--key", required=True, metavar="KEY")
    p.set_defaults(func=_sign)

    p = sub.add_parser("import-orders", help="take a side's signed order form")
    p.add_argument("file")
    p.add_argument("form", metavar="ORDERS.json", nargs="?",
                   help="the returned form (left out with --submitted)")
    p.add_argument("--submitted", action="store_true",
                   help="take the forms the players submitted to a club's server campaign "
                        "(or kept by a campaign file pulled from one)")
    p.add_argument("--dry-run", action="store_true",
                   help="only show what would change; take nothing")
    p.set_defaults(func=_import)

    p = sub.add_parser("reports", help="the reports of the enemy, to each side")
    p.add_argument("file")
    p.add_argument("--side", help="french or allied (both if left out)")
    p.set_defaults(func=_reports)

    p = sub.add_parser("release", help="release held reports to their sides")
    p.add_argument("file")
    p.add_argument("numbers", nargs="*", type=int, metavar="N",
                   help="the reports to release (every held one if none)")
    p.set_defaults(func=_release)

    p = sub.add_parser("hold", help="hold a report back from its side")
    p.add_argument("file")
    p.add_argument("number", type=int, metavar="N")
    p.set_defaults(func=_hold)


def packet_files(file: str, side: Side, out: Path, paper_size: str = "a4",
                 force: bool = False) -> list[Path]:
    """Write a side's packet into ``out``; the files written."""
    installed()  # before the file is opened: without a painter there is nothing to do
    with open_store(file) as doc:
        return write_packet(doc, side, out, paper_size, force)


def _packet(args: argparse.Namespace) -> int:
    side = _side(args.side)
    for path in packet_files(args.file, side, Path(args.out), args.paper, args.force):
        print(f"wrote {path}")
    return 0


def _side_key(args: argparse.Namespace) -> int:
    side = _side(args.side)
    with open_store(args.file) as doc, doc.read() as reader:
        key = reader.side_key(side.value)
    write_new(Path(args.out), key.hex().encode() + b"\n", force=False)
    print(f"wrote {args.out}: the {side.value}' key; give it to their player alone")
    return 0


def _sign(args: argparse.Namespace) -> int:
    path = Path(args.form)
    form = packet.parse_form(path.read_bytes())
    try:
        key = bytes.fromhex(Path(args.key).read_text(encoding="utf-8").strip())
    except (OSError, ValueError) as exc:
        raise CampaignError(f"{args.key}: not a side's key ({exc})") from None
    write_new(path, packet_json_bytes(packet.sign(form, key)), force=True)
    print(f"signed {path}")
    return 0


def _import(args: argparse.Namespace) -> int:
    if args.submitted:
        if args.form is not None:
            raise CampaignError("--submitted takes no form: the players' forms are in the "
                                "campaign (on the server, or in a file pulled from it)")
        return _import_submitted(args)
    if args.form is None:
        raise CampaignError("import-orders: name the returned order form (ORDERS.json)")
    data = Path(args.form).read_bytes()
    with open_store(args.file) as doc:
        result = services.import_orders(doc, data, dry_run=args.dry_run)
    if result.changes is None:
        print(f"{args.form}: this order form was taken already; nothing changed")
        return 0
    _show(result)
    return 0


def _show(result: services.ImportResult, indent: str = "") -> None:
    assert result.changes is not None
    print(indent + ("Would take: " if result.dry_run else "") + result.changes.label)
    for line in result.diff:
        print(f"{indent}  {line}")
    for line in result.changes.lines:
        if line.startswith("Refused: "):
            print(f"{indent}  {line}")


def _import_submitted(args: argparse.Namespace) -> int:
    """Take every form the players submitted and the umpire has not yet taken, oldest first;
    each marked with what became of it (taken, or refused and why), unless a dry run."""
    with open_store(args.file) as doc:
        waiting = services.submitted_forms(doc)
        if not waiting:
            print("no submitted order forms are waiting")
        for sent in waiting:
            print(f"form {sent.id}, the {sent.side}' (from {sent.login}):")
            try:
                result = services.import_submitted(doc, sent.side, sent.form,
                                                   dry_run=args.dry_run)
            except FormRefused as exc:
                print(f"  refused: {exc}")
                if not args.dry_run:
                    services.mark_submitted(doc, sent.id, f"refused: {exc}")
                continue
            if result.changes is None:
                print("  this order form was taken already; nothing changed")
                outcome = "taken already"
            else:
                _show(result, "  ")
                outcome = f"taken: {result.changes.label}"
            if not args.dry_run:
                services.mark_submitted(doc, sent.id, outcome)
    return 0


def _reports(args: argparse.Namespace) -> int:
    side = _side(args.side) if args.side else None
    with open_store(args.file) as doc:
        shown = [r for r in queries.enemy_reports(doc) if side is None or r.side == side.value]
    for r in shown:
        state = "released" if r.released else "held back"
        print(f"{r.id:4d}  to the {r.side}  ({state})  {r.text()}")
    if not shown:
        print("no reports of the enemy")
    return 0


def _release(args: argparse.Namespace) -> int:
    with open_store(args.file) as doc:
        changes = services.release_reports(doc, args.numbers)
    print("\n".join(changes.lines))
    return 0


def _hold(args: argparse.Namespace) -> int:
    with open_store(args.file) as doc:
        changes = services.hold_report(doc, args.number)
    print("\n".join(changes.lines))
    return 0
