"""CLI subcommands of the campaign day: status, orders, end-day, battles, results, undo, diary."""

from __future__ import annotations

import json

from campaign1813.campaign import commands as services
from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.day import end_day
from campaign1813.campaign.diary import diary_text
from campaign1813.campaign.document import open_campaign
from campaign1813.campaign.overview import battle_json, status_json
from campaign1813.campaign.state import load_state


def register(sub) -> None:
    """Add the campaign-day subcommands."""
    p = sub.add_parser("status", help="where every command stands, its orders and state")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="print JSON for other tools")
    p.set_defaults(func=_status)

    p = sub.add_parser("order", help="give a command an order: Move, Halt, Hold, Attack, Recce, "
                                     "Rest")
    p.add_argument("file")
    p.add_argument("command", help="the corps or HQ, e.g. '4 Corps'")
    p.add_argument("verb", help="Move, Halt, Hold, Attack, Recce or Rest")
    p.add_argument("town", help="the objective town")
    p.add_argument("--via", nargs="+", default=[], metavar="TOWN", help="waypoints in order")
    p.add_argument("--forced", action="store_true", help="forced march")
    p.set_defaults(func=_order)

    p = sub.add_parser("cancel", help="withdraw a command's orders")
    p.add_argument("file")
    p.add_argument("command")
    p.set_defaults(func=_cancel)

    p = sub.add_parser("end-day", help="march the day, find contacts and battles; end the day")
    p.add_argument("file")
    p.set_defaults(func=_end_day)

    p = sub.add_parser("battles", help="the battles scheduled and fought")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_battles)

    p = sub.add_parser("result", help="record a battle's result")
    p.add_argument("file")
    p.add_argument("battle", type=int)
    p.add_argument("winner", choices=["French", "Allied", "draw"])
    p.set_defaults(func=_result)

    p = sub.add_parser("postpone", help="put a battle off to a later day")
    p.add_argument("file")
    p.add_argument("battle", type=int)
    p.add_argument("--days", type=int, default=1)
    p.add_argument("--reason", required=True)
    p.set_defaults(func=_postpone)

    p = sub.add_parser("merge", help="fight two battles of the day as one")
    p.add_argument("file")
    p.add_argument("battle", type=int)
    p.add_argument("other", type=int)
    p.add_argument("--reason", required=True)
    p.set_defaults(func=_merge)

    p = sub.add_parser("split", help="fight some commands of a battle separately")
    p.add_argument("file")
    p.add_argument("battle", type=int)
    p.add_argument("commands", nargs="+")
    p.add_argument("--reason", required=True)
    p.set_defaults(func=_split)

    p = sub.add_parser("cut-off", help="the umpire's choice for a command with no retreat")
    p.add_argument("file")
    p.add_argument("command")
    p.add_argument("option", choices=["surrender", "break-out"])
    p.add_argument("town", nargs="?", help="where a break-out makes for")
    p.set_defaults(func=_cut_off)

    p = sub.add_parser("undo", help="take back the last action")
    p.add_argument("file")
    p.set_defaults(func=_undo)

    p = sub.add_parser("redo", help="apply again the last action taken back")
    p.add_argument("file")
    p.set_defaults(func=_redo)

    p = sub.add_parser("diary", help="the campaign diary, one dated line each")
    p.add_argument("file")
    p.set_defaults(func=_diary)


def _act(args, fn, *a, **kw) -> int:
    with open_campaign(args.file) as doc, doc.session() as session:
        changes = fn(session, *a, **kw)
    for line in changes.lines or (changes.label,):
        print(line)
    return 0


def _order(args) -> int:
    return _act(args, services.issue_order, args.command, args.verb, args.town,
                via=tuple(args.via), forced=args.forced)


def _cancel(args) -> int:
    return _act(args, services.cancel_order, args.command)


def _end_day(args) -> int:
    with open_campaign(args.file) as doc, doc.session() as session:
        changes = end_day(session)
    for line in changes.lines:
        print(line)
    report = changes.report
    if report is not None and not report.closed:
        print(f"{format_date(report.day)} stays open until its battles have results "
              "(see 'battles').")
    return 0


def _result(args) -> int:
    return _act(args, services.record_result, args.battle, args.winner)


def _postpone(args) -> int:
    return _act(args, services.postpone_battle, args.battle, args.reason, args.days)


def _merge(args) -> int:
    return _act(args, services.merge_battles, args.battle, args.other, args.reason)


def _split(args) -> int:
    return _act(args, services.split_battle, args.battle, tuple(args.commands), args.reason)


def _cut_off(args) -> int:
    return _act(args, services.choose_retreat, args.command, args.option, args.town)


def _undo(args) -> int:
    with open_campaign(args.file) as doc, doc.session() as session:
        changes = services.undo(session)
    print(changes.label)
    return 0


def _redo(args) -> int:
    with open_campaign(args.file) as doc, doc.session() as session:
        changes = services.redo(session)
    print(changes.label)
    return 0


def _diary(args) -> int:
    with open_campaign(args.file) as doc, doc.session() as session:
        text = diary_text(session)
    print(text or "The diary is empty.")
    return 0


def _status(args) -> int:
    with open_campaign(args.file) as doc, doc.session() as session:
        state = load_state(session)
        ground = services.ground_for(services.scenario_in(session))
        data = status_json(state, ground)
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    day = format_date(state.date)
    print(f"{day}" + (" (marched; waiting for battle results)" if state.marched else ""))
    for c in data["commands"]:
        state_text = c["reason"] or c["status"]
        orders = c["order"] or "no orders"
        if c["pending"]:
            orders += f"; by messenger: {c['pending']}"
        print(f"  {c['name']:<28} {c['side']:<7} {c['where']:<40} {state_text}; {orders}")
    waiting = [b for b in data["battles"] if b["result"] is None]
    if waiting:
        print(f"{len(waiting)} battle(s) to fight: see 'battles'.")
    return 0


def _battles(args) -> int:
    with open_campaign(args.file) as doc, doc.session() as session:
        state = load_state(session)
    battles = [battle_json(b) for b in sorted(state.battles.values(), key=lambda b: b.id)]
    if args.json:
        print(json.dumps(battles, indent=2, ensure_ascii=False))
        return 0
    if not battles:
        print("No battles yet.")
    for b in sorted(state.battles.values(), key=lambda b: b.id):
        result = b.result or "to be fought"
        print(f"{b.id}. {b.title}: {result}")
        print(f"   French: {', '.join(b.french)}"
              + (f"; on turn 4: {', '.join(b.french_reinforcements)}"
                 if b.french_reinforcements else ""))
        print(f"   Allied: {', '.join(b.allied)}"
              + (f"; on turn 4: {', '.join(b.allied_reinforcements)}"
                 if b.allied_reinforcements else ""))
        if b.attacker:
            print(f"   The {b.attacker.value} attack.")
        for note in b.notes:
            print(f"   Umpire: {note}")
    return 0
