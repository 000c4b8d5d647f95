"""CLI subcommands of a battle fought on the table, and of auto-resolve.

``campaign1813 battle FILE ID ACTION …`` sets a scheduled battle up (``setup``), shows it
(``show``), and takes its steps one at a time: ``draw``, ``pips``, ``spend``, ``orders``,
``give``, ``test RULE``, ``roll`` (the next queued test), ``dismiss``, ``end-turn``,
``holder``, ``override``, ``finish``; ``report`` prints the battle report. Every step is one
action in the campaign's log (``campaign1813 undo FILE`` takes it back). A typed physical roll
is given with ``--roll`` (``--roll 8`` for a total, ``--roll 5,3`` for the faces; repeat it for
several rolls); without it the battle's own seeded dice roll.

``setup --ruleset ID`` fights the battle by another ruleset (002, 004, 1813-revised); the setup
then shows how the campaign's brigades become its units. Any ruleset's action is taken with
``act ACTION NAME=VALUE …`` (``actions`` lists each action's inputs), so the actions of
rulesets 002 and 004 need no subcommands of their own.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

import msgspec

from campaign1813.campaign import queries, services
from campaign1813.campaign.battle.core.actions import MissingInputs, action_named, read_inputs
from campaign1813.campaign.battle.core.engine import TestOdds
from campaign1813.campaign.battle.core.steps import ActionRefused
from campaign1813.campaign.battle.registry import find_ruleset
from campaign1813.campaign.battle.report_forms import html_of, markdown_of
from campaign1813.campaign.cli import battle_number
from campaign1813.campaign.day.ground import OrderRefused
from campaign1813.campaign.store.opening import open_store
from campaign1813.errors import CampaignError

if TYPE_CHECKING:
    from campaign1813.campaign.store.protocol import CampaignStore

ACTIONS = {
    "setup": "set the battle up for the table (or show its setup)",
    "actions": "the actions of the battle's ruleset and the inputs of each",
    "act": "take any action of the battle's ruleset: act ACTION NAME=VALUE … [--roll N]",
    "show": "the battle now: turn, commander, pips, queued tests, brigades",
    "allocate": "before the battle: give the reserve cavalry or artillery from the corps",
    "orders": "write a corps' orders (setup), or the CinC changes them (play)",
    "draw": "draw the next chip (or name the chip drawn from the real bag)",
    "special": "name the commander who takes his move on a special chip (none: pass)",
    "pips": "roll the drawn commander's pips (average die + grade)",
    "spend": "tick off an action of Rule 3 against the pips",
    "give": "the CinC gives his move to a corps commander",
    "formation": "record a brigade's new formation",
    "test": "show the odds of a test, then roll it (--odds: odds only)",
    "roll": "take the next queued test",
    "dismiss": "drop a queued test the table shows is not owed",
    "end-turn": "end the turn with chips still in the bag",
    "holder": "at nightfall: the side holding the battle town or most squares",
    "override": "the umpire's own decision, with a reason",
    "finish": "close the battle and give its result to the campaign",
    "abandon": "give up fighting it on the table (the result is then typed)",
    "report": "the battle report, move by move",
}


class BadRoll(CampaignError):
    """A typed roll that is not a number or a list of faces."""


def register(sub: Any, argv: list[str] | None = None) -> None:
    """Add ``battle`` and ``autoresolve``."""
    p = sub.add_parser("battle", help="fight a scheduled battle at the table, step by step")
    p.add_argument("file")
    p.add_argument("id", type=battle_number, help="the battle's number (campaign1813 battles FILE)")
    acts = p.add_subparsers(dest="action", metavar="ACTION")
    p.set_defaults(func=lambda _a: p.print_help() or 0)
    for name, text in ACTIONS.items():
        a = acts.add_parser(name, help=text, description=text)
        _arguments(name, a)
        a.set_defaults(func=_handler(name))

    p = sub.add_parser("autoresolve", help="fight a battle abstractly and record its result")
    p.add_argument("file")
    p.add_argument("id", type=battle_number)
    p.add_argument("--seed", type=int, default=None, help="the battle's seed (default: its own)")
    p.add_argument("--odds", type=int, metavar="N", default=None,
                   help="only estimate win/draw/loss over N runs; records nothing")
    p.add_argument("--ruleset", default=None, metavar="ID",
                   help="the ruleset to fight it by (default: the battle's own, else 1813)")
    p.set_defaults(func=_autoresolve)


def _rolls(p: argparse.ArgumentParser) -> None:
    p.add_argument("--roll", action="append", default=[], metavar="N|A,B",
                   help="the physical roll: a total, or the faces joined by commas; repeat "
                        "for each roll the step makes")


def _confirm(p: argparse.ArgumentParser) -> None:
    p.add_argument("--confirm-unspent", action="store_true",
                   help="Rule 3: the commander moving leaves pips unrolled or unspent because "
                        "nothing more serves his orders (written in the report)")


def _arguments(name: str, a: argparse.ArgumentParser) -> None:
    if name == "setup":
        a.add_argument("--seed", type=int, default=None)
        a.add_argument("--ruleset", default=None, metavar="ID",
                       help="the ruleset to fight it by: 1813 (default), 1813-revised, 002, "
                            "004")
        a.add_argument("--special", action="append", default=[],
                       choices=["French tactical", "French gifted", "Allied gifted"],
                       help="add an optional special chip to the bag")
        a.add_argument("--json", action="store_true")
    elif name == "show":
        a.add_argument("--json", action="store_true")
    elif name == "actions":
        a.add_argument("--ruleset", default=None, metavar="ID",
                       help="a ruleset's actions, whether or not the battle is on the table")
    elif name == "act":
        a.add_argument("act", metavar="ACTION")
        a.add_argument("inputs", nargs="*", metavar="NAME=VALUE",
                       help="the action's inputs (battle FILE ID actions lists them); a bare "
                            "NAME is yes; NAME.KEY=VALUE for an entry of a table")
        _rolls(a)
    elif name == "allocate":
        a.add_argument("reserve")
        a.add_argument("brigades", nargs="+", metavar="BRIGADE")
    elif name == "orders":
        a.add_argument("corps")
        a.add_argument("order", help="Move, Halt, Hold, Engage, Attack, Withdraw or Rally")
        a.add_argument("--objective", default="")
        a.add_argument("--not-in-contact", action="store_true",
                       help="the CinC is not in base contact (the change is refused)")
    elif name == "draw":
        a.add_argument("chip", nargs="?", default=None)
        a.add_argument("--commander", default=None,
                       help="for a special chip: who takes his move")
        _confirm(a)
    elif name == "end-turn":
        _confirm(a)
    elif name == "special":
        a.add_argument("commander", nargs="?", default=None)
    elif name == "pips":
        _rolls(a)
    elif name == "spend":
        a.add_argument("what", help="move, change-formation, artillery-action, infantry-fire, "
                                    "retire-half-move, half-move-and-change-formation, "
                                    "artillery-two-actions, swap-brigades, rally, garrison")
        a.add_argument("--brigade", default="")
        a.add_argument("--note", default="", help="what was done, for the report")
    elif name == "give":
        a.add_argument("corps")
        a.add_argument("--not-in-contact", action="store_true")
    elif name == "formation":
        a.add_argument("brigade")
        a.add_argument("formation")
    elif name in ("test", "roll"):
        if name == "test":
            a.add_argument("test", help="spot, fire, bounce, morale, rally, charge, react, quick, "
                                        "crest, combat, firefight, skirmish, reaction, pursuit, "
                                        "rally-pursuers")
            a.add_argument("who", nargs="?", default="")
            a.add_argument("target", nargs="?", default="")
            a.add_argument("--odds", action="store_true", help="show the odds; roll nothing")
        else:
            a.add_argument("--index", type=int, default=None,
                           help="which queued test (default: the first that is due now)")
            a.add_argument("--target", default="", help="for a combat: the other brigade")
        for option in ("band", "inches", "cover", "behind", "case", "reaction", "rule", "near",
                       "through"):
            a.add_argument(f"--{option}", default=None)
        a.add_argument("--fact", action="append", default=[], metavar="FACT",
                       help="a table fact of the tested brigade (e.g. no-general-within-8)")
        a.add_argument("--enemy-fact", action="append", default=[], metavar="FACT")
        a.add_argument("--with", dest="flags", action="append", default=[], metavar="FLAG",
                       help="a yes/no the table shows: flank, friends-near, overhead, "
                            "no-reply, can-escape, british, beyond-half-move …")
        a.add_argument("--json", action="store_true")
        _rolls(a)
    elif name == "dismiss":
        a.add_argument("index", type=int, nargs="?", default=1)
        a.add_argument("--reason", required=True)
    elif name in ("holder", "override"):
        a.add_argument("side", help="French, Allied or draw")
        a.add_argument("--reason", default="", required=name == "override")
    elif name == "report":
        fmt = a.add_mutually_exclusive_group()
        fmt.add_argument("--md", action="store_true", help="Markdown")
        fmt.add_argument("--html", action="store_true", help="HTML")


def _typed(texts: list[str]) -> list[int | tuple[int, ...]] | None:
    out: list[int | tuple[int, ...]] = []
    for text in texts:
        try:
            parts = [int(x) for x in text.replace(" ", "").split(",") if x]
        except ValueError:
            raise BadRoll(f"--roll {text!r}: give a number, or the faces joined by commas") \
                from None
        if not parts:
            raise BadRoll("--roll needs a number")
        out.append(parts[0] if len(parts) == 1 else tuple(parts))
    return out or None


def _options(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for option in ("band", "inches", "cover", "behind", "case", "reaction", "rule", "near",
                   "through"):
        value = getattr(args, option, None)
        if value is not None:
            options[option] = value
    if args.fact:
        options["facts"] = list(args.fact)
    if args.enemy_fact:
        options["enemy-facts"] = list(args.enemy_fact)
    for flag in args.flags:
        options[flag] = True
    return options


def _open(args: argparse.Namespace) -> CampaignStore:
    return open_store(args.file)


def _handler(name: str) -> Any:
    def run(args: argparse.Namespace) -> int:
        with _open(args) as doc:
            if name == "setup":
                view = queries.fight_view(doc, args.id)
                if view is None:
                    services.open_battle(doc, args.id, seed=args.seed, specials=args.special,
                                         ruleset=args.ruleset)
                elif args.ruleset is not None and args.ruleset != view.ruleset:
                    raise OrderRefused(f"battle {args.id} is already on the table by ruleset "
                                       f"{view.ruleset}; abandon it to use {args.ruleset}")
                elif (args.seed is not None and args.seed != view.setup.seed) or args.special:
                    given = "--seed" if args.seed is not None else "--special"
                    raise OrderRefused(f"battle {args.id} is already set up (seed "
                                       f"{view.setup.seed}); {given} is taken only when it is "
                                       "set up: abandon it to set it up again")
                return _print_setup(queries.fight_view(doc, args.id), args.json)
            if name == "actions":
                return _print_actions(_actions_engine(queries, doc, args))
            if name == "show":
                return _print_show(_view(queries, doc, args.id), args.json)
            if name == "report":
                return _print_report(_view(queries, doc, args.id), args)
            if name == "test" and args.odds:
                if args.roll:
                    raise OrderRefused("--odds shows the odds and rolls nothing: a typed "
                                       "--roll is not taken with it")
                return _print_odds(_view(queries, doc, args.id), args)
            if name == "abandon":
                changes = services.abandon_battle(doc, args.id)
            elif name == "act":
                changes = _generic(queries, services, doc, args)
            else:
                typed, inputs = _action(name, args)
                changes = services.battle_action(doc, args.id, name, typed=typed, **inputs)
        for line in changes.lines or (changes.label,):
            print(line)
        return 0
    return run


def _action(name: str, args: argparse.Namespace) -> tuple[Any, dict[str, Any]]:
    """The typed rolls and the inputs of an action, as ``services.battle_action`` takes them."""
    inputs: dict[str, Any] = {}
    typed = None
    if name == "allocate":
        inputs = {"reserve": args.reserve, "brigades": args.brigades}
    elif name == "orders":
        inputs = {"corps": args.corps, "order": args.order, "objective": args.objective,
                  "in_contact": not args.not_in_contact}
    elif name == "draw":
        inputs = {"chip": args.chip, "commander": args.commander,
                  "confirm": args.confirm_unspent}
    elif name == "end-turn":
        inputs = {"confirm": args.confirm_unspent}
    elif name == "special":
        inputs = {"commander": args.commander}
    elif name == "pips":
        typed = _typed(args.roll)
    elif name == "spend":
        inputs = {"what": args.what, "brigade": args.brigade, "note": args.note}
    elif name == "give":
        inputs = {"corps": args.corps, "in_contact": not args.not_in_contact}
    elif name == "formation":
        inputs = {"brigade": args.brigade, "formation": args.formation}
    elif name == "test":
        inputs = {"test": args.test, "who": args.who, "target": args.target,
                  "options": _options(args)}
        typed = _typed(args.roll)
    elif name == "roll":
        options = _options(args)
        if args.target:
            options["target"] = args.target
        inputs = {"index": args.index, "options": options}
        typed = _typed(args.roll)
    elif name == "dismiss":
        inputs = {"index": args.index, "reason": args.reason}
    elif name in ("holder", "override"):
        inputs = {"side": args.side, "reason": args.reason}
    return typed, inputs


def _view(queries: Any, doc: Any, battle: int) -> Any:
    view = queries.fight_view(doc, battle)
    if view is None:
        raise OrderRefused(f"battle {battle} is not being fought: set it up first "
                           f"(campaign1813 battle FILE {battle} setup)")
    return view


def _pct(p: Any) -> str:
    return f"{p.numerator}/{p.denominator} ({float(p) * 100:.1f} %)"


def _print_setup(view: Any, as_json: bool) -> int:
    s = view.setup
    if as_json:
        print(json.dumps(msgspec.to_builtins(s), indent=2, ensure_ascii=False))
        return 0
    print(f"{s.title[0].upper()}{s.title[1:]}: rules {s.ruleset}, seed {s.seed}, "
          f"{s.turns} turns")
    t = s.table
    terrain = ", ".join(x for x in (("built-up area" if t.built_up else ""),
                                    ("fortress" if t.fortress else ""),
                                    (f"river {t.river}" if t.river else "")) if x)
    print(f"Table: {t.feet} × {t.feet} feet of nine {t.square_feet}-foot squares, {t.town} in "
          f"the centre" + (f" ({terrain})" if terrain else ""))
    for road in t.roads:
        extra = f", crossing the {road.river} by {road.crossing}" if road.river else ""
        print(f"  road to {road.to}: {road.bearing:.0f}°, leaves by the {road.edge.value} "
              f"edge{extra}")
    for line in view.engine.setup_lines(s, view.state):
        print(line)
    if view.mapping.rows:
        print(f"The campaign's forces as ruleset {view.ruleset} fights them:")
        for line in _table_lines(view.mapping):
            print(line)
    return 0


def _table_lines(table: Any) -> list[str]:
    """A table as aligned text: the headings, then a line per row."""
    rows = [tuple(table.headers), *table.rows]
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(table.headers))]
    return ["  " + "  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
            for r in rows]


def _print_show(view: Any, as_json: bool) -> int:
    s, st = view.setup, view.state
    if as_json:
        print(json.dumps({"battle": s.battle, "state": msgspec.to_builtins(st),
                          **view.engine.status_json(s, st),
                          "decision": {"winner": view.decision.result,
                                       "reason": view.decision.reason,
                                       "final": view.decision.final}},
                         indent=2, ensure_ascii=False))
        return 0
    for line in view.engine.status_lines(s, st):
        print(line)
    return 0


def _print_report(view: Any, args: argparse.Namespace) -> int:
    lines = view.engine.report(view.setup, view.steps)
    if args.md:
        sys.stdout.write(markdown_of(lines))
    elif args.html:
        sys.stdout.write(html_of(lines))
    else:
        print("\n".join(lines))
    return 0


def _print_odds(view: Any, args: argparse.Namespace) -> int:
    engine = view.engine
    if not isinstance(engine, TestOdds):
        raise ActionRefused(f"ruleset {engine.ruleset} has no 1813 tests; its odds are "
                            f"'campaign1813 odds --ruleset {engine.ruleset} …'")
    prepared = engine.prepare(view.setup, view.state, args.test, args.who, args.target,
                              _options(args))
    if args.json:
        print(json.dumps({"test": prepared.test, "rule": prepared.rule,
                          "known": list(prepared.known),
                          "odds": [{"outcome": o, "chance": f"{p.numerator}/{p.denominator}",
                                    "float": float(p)} for o, p in prepared.odds]},
                         indent=2, ensure_ascii=False))
        return 0
    print(f"{prepared.rule}: {prepared.test}")
    for line in prepared.known:
        print(f"  {line}")
    for outcome, p in prepared.odds:
        print(f"  {outcome}: {_pct(p)}")
    return 0


def _actions_engine(queries: Any, doc: Any, args: argparse.Namespace) -> Any:
    if args.ruleset is not None:
        return find_ruleset(args.ruleset)
    return _view(queries, doc, args.id).engine


def _print_actions(engine: Any) -> int:
    print(f"Actions of ruleset {engine.ruleset} (battle FILE ID act ACTION NAME=VALUE …):")
    for a in engine.actions:
        print(f"  {a.name}: {a.help}" + (" (rolls dice: --roll)" if a.rolls else ""))
        for i in a.inputs:
            _print_input(i, "    ")
    return 0


def _print_input(i: Any, indent: str) -> None:
    shape = {"flag": f"{i.name} (yes/no)", "map": f"{i.name}.UNIT=UNIT",
             "group": f"{i.name}.NAME=…", "free": f"{i.name}.NAME[=VALUE]",
             "list": f"{i.name}=A,B,…"}.get(i.kind, f"{i.name}=<{i.kind}>")
    print(f"{indent}{shape}{' (required)' if i.required else ''}: {i.help}")
    for sub in i.fields:
        _print_input(sub, indent + "  ")


def _generic(queries: Any, services: Any, doc: Any, args: argparse.Namespace) -> Any:
    """``act ACTION NAME=VALUE …``: any action of the battle's ruleset, its inputs read by
    the kinds its engine gives them."""

    engine = _view(queries, doc, args.id).engine
    spec = action_named(engine.actions, engine.ruleset, args.act)
    pairs: list[tuple[str, str | None]] = []
    for word in args.inputs:
        name, eq, value = word.partition("=")
        pairs.append((name.strip(), value if eq else None))
    try:
        inputs = read_inputs(spec, pairs)
    except MissingInputs as exc:  # the command line shows how to give them
        raise ActionRefused(f"{exc} ({exc.syntax})") from None
    return services.battle_action(doc, args.id, args.act, typed=_typed(args.roll), **inputs)


def _autoresolve(args: argparse.Namespace) -> int:
    with _open(args) as doc:
        if args.odds is not None:
            odds = services.autoresolve_odds(doc, args.id, args.odds, seed=args.seed,
                                             ruleset=args.ruleset)
            for line in odds:
                print(line)
            return 0
        changes = services.autoresolve_battle(doc, args.id, seed=args.seed,
                                              ruleset=args.ruleset)
    for line in changes.lines or (changes.label,):
        print(line)
    return 0
