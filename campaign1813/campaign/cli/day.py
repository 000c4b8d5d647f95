"""CLI subcommands of the campaign day: status, orders, end-day, battles, results, undo, diary."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.cli import battle_number, whole_number
from campaign1813.campaign.day.objectives import theatre_met
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.queries import (
    battle_json,
    campaign_settings,
    campaign_status,
    diary_text,
    fights_in_progress,
    objective_json,
    status_json,
    supply_lines,
)
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.opening import open_store
from campaign1813.maps.types import Theatre

if TYPE_CHECKING:
    from campaign1813.campaign.day.changes import Changes
    from campaign1813.campaign.store.protocol import CampaignStore


def register(sub: Any, argv: list[str] | None = None) -> None:
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

    p = sub.add_parser(
        "settings", help="the campaign's settings; with NAME VALUE, change one",
        description="Show the settings an umpire may change during a campaign, or change one "
                    "(checked, logged in the diary and undone like any action), e.g. "
                    "'settings spring.c1813 contact_miles 5' or '... messenger_orders on'.")
    p.add_argument("file")
    p.add_argument("name", nargs="?", help="the setting to change")
    p.add_argument("value", nargs="?", help="its new value")
    p.set_defaults(func=_settings)

    p = sub.add_parser(
        "supply", help="the supply rule: stocks and ledger; give supply orders",
        description="With no order, show each army's supplies and its last day's ledger. "
                    "Orders (the CinC's, for today): 'resupply CORPS --from TOWN', "
                    "'move DAYS --from TOWN --to TOWN', 'depot TOWN --corps CORPS "
                    "[--brigade N]' (the 2016 rule's garrison brigade); and the umpire's "
                    "'attrition CORPS BRIGADE' for men lost out of supply.")
    p.add_argument("file")
    p.add_argument("order", nargs="?", choices=("resupply", "move", "depot", "attrition"))
    p.add_argument("what", nargs="*", help="the corps (resupply, attrition), the days (move) "
                                           "or the town (depot); for attrition, the brigade")
    p.add_argument("--from", dest="origin", metavar="TOWN", help="the depot drawn or sent from")
    p.add_argument("--to", dest="town", metavar="TOWN", help="where a column goes")
    p.add_argument("--corps", help="the corps that makes a depot")
    p.add_argument("--brigade", type=whole_number(1, 999),
                   help="the garrison brigade (2016)")
    p.add_argument("--army", help="the army group, where the town does not say it")
    p.set_defaults(func=_supply)

    p = sub.add_parser("objectives", help="each objective: who holds its towns, since when")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="print JSON for other tools")
    p.set_defaults(func=_objectives)

    p = sub.add_parser("battles", help="the battles scheduled and fought")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_battles)

    p = sub.add_parser("result", help="record a battle's result")
    p.add_argument("file")
    p.add_argument("battle", type=battle_number)
    # any case (allied, DRAW): the result's own check words the refusal
    p.add_argument("winner", metavar="{French,Allied,draw}", help="the winner, in any case")
    p.set_defaults(func=_result)

    p = sub.add_parser("postpone", help="put a battle off to a later day")
    p.add_argument("file")
    p.add_argument("battle", type=battle_number)
    p.add_argument("--days", type=whole_number(1, 366), default=1)
    p.add_argument("--reason", required=True)
    p.set_defaults(func=_postpone)

    p = sub.add_parser("merge", help="fight two battles of the day as one")
    p.add_argument("file")
    p.add_argument("battle", type=battle_number)
    p.add_argument("other", type=battle_number)
    p.add_argument("--reason", required=True)
    p.add_argument("--force", action="store_true",
                   help="merge even battles far apart by road")
    p.set_defaults(func=_merge)

    p = sub.add_parser("split", help="fight some commands of a battle separately")
    p.add_argument("file")
    p.add_argument("battle", type=battle_number)
    p.add_argument("commands", nargs="+")
    p.add_argument("--reason", required=True)
    p.set_defaults(func=_split)

    p = sub.add_parser("cut-off", help="the umpire's choice for a command with no retreat")
    p.add_argument("file")
    p.add_argument("command")
    p.add_argument("option", metavar="{surrender,break-out}", help="in any case")
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


def _open(args: argparse.Namespace) -> CampaignStore:
    return open_store(args.file)


def _changes(args: argparse.Namespace, name: str, *a: Any, **kw: Any) -> Changes:
    """Run the service ``name`` on the campaign: what the action changed."""
    # The services bring the day's rules; the group's reading commands (status, battles,
    # objectives, diary) start without them.
    from campaign1813.campaign import services

    fn: Callable[..., Changes] = getattr(services, name)
    with _open(args) as doc:
        return fn(doc, *a, **kw)


def _act(args: argparse.Namespace, name: str, *a: Any, **kw: Any) -> int:
    changes = _changes(args, name, *a, **kw)
    for line in changes.lines or (changes.label,):
        print(line)
    return 0


def _order(args: argparse.Namespace) -> int:
    return _act(args, "issue_order", args.command, args.verb, args.town,
                via=tuple(args.via), forced=args.forced)


def _cancel(args: argparse.Namespace) -> int:
    return _act(args, "cancel_order", args.command)


def _end_day(args: argparse.Namespace) -> int:
    changes = _changes(args, "end_day")
    for line in changes.lines:
        print(line)
    report = changes.report
    if report is not None and not report.closed:
        print(f"{format_date(report.day)} stays open until its battles have results "
              "(see 'battles').")
    return 0


def _result(args: argparse.Namespace) -> int:
    return _act(args, "record_result", args.battle, args.winner)


def _postpone(args: argparse.Namespace) -> int:
    return _act(args, "postpone_battle", args.battle, args.reason, args.days)


def _merge(args: argparse.Namespace) -> int:
    return _act(args, "merge_battles", args.battle, args.other, args.reason, args.force)


def _split(args: argparse.Namespace) -> int:
    return _act(args, "split_battle", args.battle, tuple(args.commands), args.reason)


def _cut_off(args: argparse.Namespace) -> int:
    return _act(args, "choose_retreat", args.command, args.option, args.town)


def _undo(args: argparse.Namespace) -> int:
    return _along_log(args, "undo")


def _redo(args: argparse.Namespace) -> int:
    return _along_log(args, "redo")


def _along_log(args: argparse.Namespace, name: str) -> int:
    """Undo or redo: the label of the action taken back or done again."""
    print(_changes(args, name).label)
    return 0


def _diary(args: argparse.Namespace) -> int:
    with _open(args) as doc:
        text = diary_text(doc)
    print(text or "The diary is empty.")
    return 0


def _status(args: argparse.Namespace) -> int:
    with _open(args) as doc:
        status = campaign_status(doc)
    if args.json:
        print(json.dumps(status_json(status), indent=2, ensure_ascii=False))
        return 0
    day = format_date(status.date)
    if status.marched and status.battles_waiting:
        day += " (marched; waiting for battle results)"
    elif status.marched:
        day += " (marched; battles decided — end-day closes the day)"
    print(day)
    for c in status.commands:
        state_text = c.reason or c.status.value
        worn = f"; casualties carried: {c.casualties_text}" if c.casualties_text else ""
        print(f"  {c.name:<28} {c.side.value:<7} {c.where:<40} {state_text}; {c.orders_text}"
              f"{worn}")
    if status.battles_due:
        print(f"{len(status.battles_due)} battle(s) to fight: see 'battles'.")
    met = sum(o.met for o in status.objectives)
    if status.objectives:
        print(f"Objectives ({met} of {len(status.objectives)} met; see 'objectives'):")
        for o in status.objectives:
            print(f"  {o.number}. {o.text()}")
    return 0


def _settings(args: argparse.Namespace) -> int:
    if args.name is not None and args.value is None:
        raise CampaignError(f"give the new value of {args.name}, e.g. "
                            f"'settings FILE {args.name} VALUE'")
    if args.name is not None:
        return _act(args, "change_setting", args.name, args.value)
    with _open(args) as doc:
        settings = campaign_settings(doc)
    for s in settings:
        mark = " (changed for this campaign)" if s.changed else ""
        print(f"  {s.name:<26} {s.value:<10} {s.meaning}{mark}")
    return 0


def _supply(args: argparse.Namespace) -> int:
    what = " ".join(args.what)
    if args.order is None:
        with _open(args) as doc:
            lines = supply_lines(doc)
        print("\n".join(lines))
        return 0
    if args.order == "attrition":
        if len(args.what) < 2 or not args.what[-1].isdigit():
            raise CampaignError("name the corps and the brigade's number, e.g. "
                                "'supply FILE attrition \"5 Corps\" 18'")
        return _act(args, "choose_attrition", " ".join(args.what[:-1]), int(args.what[-1]))
    kw: dict[str, Any] = {"army": args.army, "origin": args.origin, "brigade": args.brigade}
    if args.order == "resupply":
        kw["corps"] = what or None
    elif args.order == "move":
        if not what.isdigit():
            raise CampaignError(f"'{what}' is not a number of days to move, e.g. "
                                "'supply FILE move 4 --from Magdeburg --to Helmstedt'")
        kw.update(days=int(what), town=args.town)
    else:
        kw.update(town=what or None, corps=args.corps)
    return _act(args, "supply_order", args.order, **kw)


def _objectives(args: argparse.Namespace) -> int:
    with _open(args) as doc:
        status = campaign_status(doc)
    if args.json:
        print(json.dumps([objective_json(o) for o in status.objectives], indent=2,
                         ensure_ascii=False))
        return 0
    if not status.objectives:
        print("The scenario has no objectives.")
    for theatre in Theatre:
        mine = [o for o in status.objectives if o.objective.theatre is theatre]
        if not mine:
            continue
        print(theatre.value)
        for o in mine:
            print(f"  {o.number}. {o.text()}")
        for side in Side:
            if theatre_met(status.objectives, theatre, side):
                print(f"  The {side.value} have met every objective in {theatre.value}.")
    return 0


def _steps(n: int) -> str:
    return f"{n} step{'s' if n != 1 else ''} taken"


def _battles(args: argparse.Namespace) -> int:
    with _open(args) as doc:
        status = campaign_status(doc)
        on_table = fights_in_progress(doc)
    battles = status.battles
    if args.json:
        print(json.dumps([battle_json(b) for b in battles], indent=2, ensure_ascii=False))
        return 0
    if not battles:
        print("No battles yet.")
    for b in battles:
        result = b.result or ("on the table, " + _steps(on_table[b.id]) if b.id in on_table
                              else "to be fought")
        print(f"{b.id}. {b.title}: {result}")
        print(f"   French: {', '.join(b.french)}"
              + (f"; on turn 4: {', '.join(b.french_reinforcements)}"
                 if b.french_reinforcements else ""))
        print(f"   Allied: {', '.join(b.allied)}"
              + (f"; on turn 4: {', '.join(b.allied_reinforcements)}"
                 if b.allied_reinforcements else ""))
        if b.attacker:
            print(f"   The {b.attacker.value} attack.")
        if b.due:  # the casualties a command brings are those of the battle it is yet to fight
            for name in (*b.french, *b.french_reinforcements, *b.allied,
                         *b.allied_reinforcements):
                worn = status.command(name).casualties_text
                if worn:
                    print(f"   {name} brings casualties: {worn}.")
        for note in b.notes:
            print(f"   Umpire: {note}")
    return 0
