"""Every umpire action, taking the open campaign store and returning what changed.

Each service runs one action inside one unit of work of the store (``store.protocol``; for a
campaign file, one write transaction, ``BEGIN IMMEDIATE``): the state is read, every check that
decides the action is made on it, the action is applied (``day.actions``, the battle engine) and
the changed state is given back with the action's log entry, all together, so a second window
or process waits or is told the campaign is busy, and never interleaves. A refused action raises
``OrderRefused`` with the reason and leaves the campaign as it was. The window and the command
line call these and nothing else to change a campaign.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, is_dataclass, replace
from datetime import date
from typing import TYPE_CHECKING, Any

from msgspec import structs

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.day import fog
from campaign1813.campaign.day.actions import (
    Action,
    AddReport,
    Applied,
    CancelOrder,
    ChangeSetting,
    ChooseAttrition,
    ChooseRetreat,
    EditReport,
    EndDay,
    GiveSupplyOrder,
    HoldReport,
    ImportOrders,
    IssueOrder,
    IssueOrders,
    MergeBattles,
    PostponeBattle,
    RecordResult,
    ReleaseReports,
    SplitBattle,
)
from campaign1813.campaign.day.aftermath import result_side
from campaign1813.campaign.day.changes import Changes
from campaign1813.campaign.day.ground import Ground, OrderRefused
from campaign1813.campaign.export import packet
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.protocol import (
    ABANDON_FIGHT,
    AUTO_RESOLVE,
    FIGHT_STEP,
    FINISH_FIGHT,
    MARK_DAY,
    OPEN_FIGHT,
    REPORT_MARK,
    CampaignReader,
    CampaignStore,
    Fight,
    LogEntry,
    LogStep,
    SubmittedForm,
    UnitOfWork,
    fight_step_label,
    open_fight_label,
)

if TYPE_CHECKING:
    from campaign1813.campaign.battle.core.engine import Engine
    from campaign1813.campaign.battle.core.results import Progress
    from campaign1813.campaign.battle.setup import BattleSetup, Special
    from campaign1813.campaign.day.state import DayState

# The battle engine (the registry of rulesets, the battle's types, the setting up of a battle in
# ``day.fight_setup``) is imported by the three helpers ``_engine``, ``_chips`` and
# ``_new_setup`` alone, when a battle is set up, fought or looked for: the day's actions (an
# order, the end of the day) run without it, and start some 45 ms sooner.

# The most abstract runs one estimate takes: about a minute on a laptop (10,000 take seconds).
MAX_RUNS = 100_000

__all__ = [
    "Changes", "IssueOrder", "cancel_order", "change_setting", "choose_retreat", "end_day",
    "issue_order", "issue_orders", "merge_battles", "perform", "postpone_battle",
    "record_result", "redo", "split_battle", "undo", "open_battle", "battle_action",
    "finish_battle", "abandon_battle", "release_reports", "hold_report", "edit_report",
    "add_report", "import_orders", "ImportResult", "supply_order", "choose_attrition",
    "mark_day",
]


def perform(store: CampaignStore, action: Action) -> Changes:
    """Apply one umpire action to the campaign and log it, in one unit of work."""
    ground = store.ground()
    with store.unit_of_work() as work:
        return _perform(work, ground, action)


def _perform(work: UnitOfWork, ground: Ground, action: Action) -> Changes:
    """Apply an action to the state read in the unit of work, give it back and log it."""
    state = work.state()
    day = state.date
    label, lines, report = _apply(ground, state, action)
    work.put_state(state)
    payload: dict[str, Any] = {}
    logged: object = action  # an action is a dataclass, whose fields the log keeps
    if is_dataclass(logged) and not isinstance(logged, type):
        payload = asdict(logged)
    return work.record(LogEntry(type(action).__name__, label, day, tuple(lines), payload),
                       report)


def _apply(ground: Ground, state: DayState, action: Action) -> Applied:
    """An action applied to a state under the campaign's settings: its label, diary lines and
    the day's report, if it made one."""
    try:
        return action.apply(ground.adjusted(state.settings), state)
    except OverflowError:
        raise OrderRefused("the campaign's calendar cannot go past 31 December 9999") from None


def _perform_unless_fighting(store: CampaignStore, action: Action, battles: Sequence[int],
                             what: str, instead: str = "") -> Changes:
    """An action on battles, refused while any is being fought on the table (checked in the
    action's own unit of work, so no fight can be set up between the check and the action)."""
    ground = store.ground()
    with store.unit_of_work() as work:
        for battle in battles:
            _refuse_if_fighting(work, battle, what, instead)
        return _perform(work, ground, action)


def issue_order(store: CampaignStore, command: str, verb: str, objective: str, *,
                via: Sequence[str] = (), forced: bool = False) -> Changes:
    """Give a command an order (refused with the reason if it breaks the rules)."""
    return perform(store, IssueOrder(command, verb, objective, tuple(via), forced))


def issue_orders(store: CampaignStore, orders: Sequence[IssueOrder]) -> Changes:
    """Give several orders as one action (one undo step); refused whole if any is refused."""
    return perform(store, IssueOrders(tuple(orders)))


def cancel_order(store: CampaignStore, command: str) -> Changes:
    """Withdraw a command's orders."""
    return perform(store, CancelOrder(command))


def end_day(store: CampaignStore) -> Changes:
    """March the day, find contacts and schedule battles; close it once its battles have
    results."""
    return perform(store, EndDay())


def record_result(store: CampaignStore, battle: int, winner: str | None, *,
                  casualties: dict[str, dict[str, int]] | None = None) -> Changes:
    """Record a battle's result (a Side or its name, ``draw`` or None) and its aftermath."""
    side = None if winner is None else result_side(str(winner))
    # the umpire may always overrule (DESIGN §4.4): at the table, by the battle's own steps
    instead = (f"; to decide it there: 'campaign1813 battle FILE {battle} override "
               f"French|Allied|draw --reason WHY' (or 'holder' at nightfall), then "
               f"'campaign1813 battle FILE {battle} finish'; in the battle window: The result, "
               "then Finish battle")
    return _perform_unless_fighting(store, RecordResult(battle, side, casualties or {}),
                                    (battle,), "record a typed result", instead)


def merge_battles(store: CampaignStore, battle: int, other: int, reason: str,
                  force: bool = False) -> Changes:
    """Fight two battles of a day as one, with the umpire's reason kept; battles far apart by
    road are refused unless ``force`` says they are one fight."""
    return _perform_unless_fighting(store, MergeBattles(battle, other, reason, force),
                                    (battle, other), "merge it")


def split_battle(store: CampaignStore, battle: int, commands: Sequence[str],
                 reason: str) -> Changes:
    """Fight the named commands of a battle as a separate battle."""
    return _perform_unless_fighting(store, SplitBattle(battle, tuple(commands), reason),
                                    (battle,), "split it")


def postpone_battle(store: CampaignStore, battle: int, reason: str, days: int = 1) -> Changes:
    """Put a battle off by some days."""
    return _perform_unless_fighting(store, PostponeBattle(battle, reason, days), (battle,),
                                    "postpone it")


def choose_retreat(store: CampaignStore, command: str, option: str,
                   town: str | None = None) -> Changes:
    """Surrender or break out for a command with no road of retreat."""
    return perform(store, ChooseRetreat(command, option, town))


def change_setting(store: CampaignStore, name: str, value: str) -> Changes:
    """Change one of the campaign's settings (refused with the reason if the value is not
    one it can take); logged and undone like any action."""
    return perform(store, ChangeSetting(name, value))


def supply_order(store: CampaignStore, kind: str, *, army: str | None = None,
                 corps: str | None = None, origin: str | None = None, town: str | None = None,
                 days: int = 0, brigade: int | None = None) -> Changes:
    """A CinC's supply order for today (refused with the reason if the supply rule forbids
    it): ``resupply`` a corps from ``origin``, ``move`` days from ``origin`` to ``town``, or
    make a ``depot`` at ``town`` with a corps (and, by the 2016 rule, its ``brigade``)."""
    return perform(store, GiveSupplyOrder(kind, army, corps, origin, town, days, brigade))


def choose_attrition(store: CampaignStore, corps: str, brigade: int) -> Changes:
    """The umpire's choice of the brigade that loses a corps' men out of supply."""
    return perform(store, ChooseAttrition(corps, brigade))


def release_reports(store: CampaignStore, numbers: Sequence[int] = ()) -> Changes:
    """Release held reports of the enemy to their sides (all held, if none is named)."""
    return perform(store, ReleaseReports(tuple(numbers)))


def hold_report(store: CampaignStore, number: int) -> Changes:
    """Hold a report back from its side."""
    return perform(store, HoldReport(number))


def edit_report(store: CampaignStore, number: int, *, town: str | None = None,
                band: str | None = None, men: int | None = None, identity: bool | None = None,
                note: str | None = None) -> Changes:
    """Change what a report tells its side (a false rumour is the umpire's to give)."""
    return perform(store, EditReport(number, town, band, men, identity, note))


def add_report(store: CampaignStore, side: str, subject: str, town: str, *,
               band: str = "kind", men: int = 0, identity: bool = True, note: str = "",
               released: bool = False) -> Changes:
    """The umpire's own report of an enemy command to a side."""
    return perform(store, AddReport(side, subject, town, band, men, identity, note, released))


@dataclass(frozen=True)
class ImportResult:
    """What taking an order form did: the action's changes (None when this very form had been
    taken already, and nothing changed), and each command's orders before → after."""

    changes: Changes | None
    diff: tuple[str, ...]
    dry_run: bool = False


class _NotTaken(Exception):
    """Carries a dry run's result out of its unit of work, which is then rolled back."""

    def __init__(self, result: ImportResult) -> None:
        super().__init__("a dry run")
        self.result = result


def import_orders(store: CampaignStore, text: str | bytes, *,
                  dry_run: bool = False) -> ImportResult:
    """Take a side's returned order form: checked for its campaign, side, day, the state it
    was written against and its signature; each order taken or refused with its reason.
    ``dry_run``: only say what would change (the campaign is left as it was)."""
    return _take_form(store, packet.parse_form(text), dry_run)


def _take_form(store: CampaignStore, form: Mapping[str, Any], dry_run: bool) -> ImportResult:
    try:
        return _import_orders(store, form, dry_run)
    except _NotTaken as preview:
        return preview.result


def _import_orders(store: CampaignStore, form: Mapping[str, Any],
                   dry_run: bool) -> ImportResult:
    side = packet.form_side(form)
    ground = store.ground()
    with store.unit_of_work() as work:
        state = work.state()
        view = fog.side_view(ground.adjusted(state.settings), state, side, work.summary().name)
        keys = {s: work.side_key(s.value) for s in Side}
        if packet.check_form(form, view, keys, state.imports):
            return ImportResult(None, ())
        lines = packet.form_orders(form)
        before = {n: o.text() for n, o in state.orders.items()}
        action = ImportOrders(side.value, str(form["number"]), packet.form_digest(form),
                              tuple(IssueOrder(o.command, o.verb, o.objective, tuple(o.via),
                                               o.forced) for o in lines))
        changes = _perform(work, ground, action)
        diff = []
        for name in dict.fromkeys(o.command for o in lines):
            key = name if name in state.commands else next(
                (n for n in state.orders if n.casefold() == name.casefold()), name)
            old, new = before.get(key, "no orders"), state.orders.get(key)
            new_text = new.text() if new else "no orders"
            if old != new_text:
                diff.append(f"{key}: {old} → {new_text}")
        if dry_run:
            raise _NotTaken(ImportResult(changes, tuple(diff), True))
        return ImportResult(changes, tuple(diff))


def import_submitted(store: CampaignStore, side: str, form: Mapping[str, Any], *,
                     dry_run: bool = False) -> ImportResult:
    """Take an order form a side's player submitted to a club's server, where the database let
    his login write only his own side's rows (``side``): the form must say it is that side's;
    it is then signed with the side's key and taken with every check of a returned form
    (campaign, day, the state it was written against, taken once), each order taken or refused
    with its reason."""
    form = packet.checked_form(form)
    said = str(form.get("side", ""))
    if said.casefold() != side.casefold():
        raise packet.FormRefused(f"the order form says it is the {said:.20}', and was submitted "
                                 f"by the {side}' player: wrong side")
    with store.read() as reader:
        key = reader.side_key(packet.form_side(form).value)
    signed = packet.sign({k: v for k, v in form.items() if k != "signature"}, key)
    return _take_form(store, signed, dry_run)


def submitted_forms(store: CampaignStore, *, waiting: bool = True) -> list[SubmittedForm]:
    """The order forms the sides' players submitted to the campaign, oldest first (only those
    neither taken nor refused yet, if ``waiting``): on a club's server, or kept by a campaign
    file pulled from one."""
    with store.read() as reader:
        return reader.submitted_forms(waiting)


def mark_submitted(store: CampaignStore, number: int, outcome: str) -> None:
    """Say what became of a submitted form (taken, taken already, or refused and why); its
    player reads it. Not logged: undo does not take it back."""
    with store.unit_of_work() as work:
        work.mark_submitted(number, outcome)


NOTE_LENGTH = 2000


def mark_day(store: CampaignStore, day: date, bookmark: bool, note: str = "") -> Changes:
    """Put the umpire's bookmark and note on a day of the campaign's history (neither: take
    them off); logged like any action, so undo takes it back. Refused for a day the campaign
    has not had, and for a note too long or holding control characters."""
    note = note.strip()
    if len(note) > NOTE_LENGTH:
        raise OrderRefused(f"a day's note is {len(note)} characters long; at most {NOTE_LENGTH}")
    if any(not c.isprintable() and c != "\n" for c in note):
        raise OrderRefused("a day's note may hold line breaks but no other control characters")
    with store.unit_of_work() as work:
        summary = work.summary()
        if not summary.start_date <= day <= summary.current_date:
            raise OrderRefused(f"{format_date(day)} is not a day of this campaign, which ran "
                               f"from {format_date(summary.start_date)} to "
                               f"{format_date(summary.current_date)}")
        when = format_date(day)
        lines: tuple[str, ...] = ()
        if bookmark or note:
            label = f"{'Bookmark' if bookmark else 'Note'}: {when}"
            lines = (f"The umpire's {'bookmark' if bookmark else 'note'} on {when}"
                     + (f": {note}" if note else "."),)
        else:
            label = f"Bookmark and note taken off {when}"
        return work.record(LogEntry(MARK_DAY, label, summary.current_date, lines,
                                    {"day": day.isoformat(), "bookmark": bookmark,
                                     "note": note}))


def undo(store: CampaignStore, expected: LogStep | None = None) -> Changes:
    """Take back the latest action in force; with ``expected``, only if it is that entry."""
    with store.unit_of_work() as work:
        return work.undo(expected)


def redo(store: CampaignStore, expected: LogStep | None = None) -> Changes:
    """Apply again the earliest action taken back; with ``expected``, only if it is that
    entry."""
    with store.unit_of_work() as work:
        return work.redo(expected)


# -- battles fought on the table ---------------------------------------------------------------


def _fight(work: CampaignReader, battle: int) -> Fight:
    found = work.fight(battle)
    if found is None:
        raise OrderRefused(f"battle {battle} is not being fought: open it first "
                           f"(campaign1813 battle FILE {battle} setup)")
    return found


def _engine(ruleset: str | None = None) -> Engine[Any]:
    """The engine of a ruleset (of the 1813 rules for None); an unknown one is refused."""
    from campaign1813.campaign.battle import registry

    return registry.find_ruleset(registry.DEFAULT_RULESET if ruleset is None else ruleset)


def _chips(names: Sequence[str]) -> tuple[Special, ...]:
    """The optional chips named (in any case); one that is not is refused, listing them."""
    from campaign1813.campaign.battle.setup import Special

    known = {s.value.lower(): s for s in Special if s is not Special.POOR}
    chosen = []
    for name in names:
        if name.lower() not in known:
            raise OrderRefused(f"'{name}' is not an optional chip (chips: "
                               f"{', '.join(s.value for s in known.values())})")
        chosen.append(known[name.lower()])
    return tuple(chosen)


def _new_setup(ground: Ground, state: DayState, battle: int, *, seed: int | None,
               ruleset: str, specials: Sequence[Special] = ()) -> BattleSetup:
    """A fresh setup of a scheduled battle under the campaign's settings."""
    from campaign1813.campaign.day.fight_setup import battle_setup

    return battle_setup(ground.adjusted(state.settings), state, battle, seed=seed,
                        specials=specials, ruleset=ruleset)


def _refuse_if_fighting(work: UnitOfWork, battle: int, what: str, instead: str = "") -> None:
    """Refuse an action on a battle that is on the table and not finished there (``instead``:
    how to do it at the table)."""
    found = work.fight(battle)
    if found is not None and not _engine(found.setup.ruleset).closed(*found):
        raise OrderRefused(f"battle {battle} is being fought on the table; finish it there, or "
                           f"abandon the fight, before you {what}{instead}")


def open_battle(store: CampaignStore, battle: int, *, seed: int | None = None,
                specials: Sequence[str] = (), ruleset: str | None = None) -> Changes:
    """Set a scheduled battle up for the table by the ruleset the umpire chooses (the 1813
    rules unless he names another): its forces, table, chips and orders, or the campaign's
    brigades converted to the ruleset's units."""
    engine = _engine(ruleset or None)
    if specials and not engine.chips:
        raise OrderRefused(f"ruleset {engine.ruleset} draws no chips; an optional chip is for "
                           "the 1813 rules")
    chosen = _chips(specials)
    ground = store.ground()
    with store.unit_of_work() as work:
        if work.fight(battle) is not None:
            raise OrderRefused(f"battle {battle} is already set up on the table")
        state = work.state()
        setup = _new_setup(ground, state, battle, seed=seed, ruleset=engine.ruleset,
                           specials=chosen)
        engine.replay(setup, [])  # a setup the ruleset cannot convert is refused now
        work.open_fight(setup)
        return work.record(LogEntry(OPEN_FIGHT, open_fight_label(setup.title), state.date,
                                    (), {"battle": setup.battle}))


def battle_action(store: CampaignStore, battle: int, action: str, *,
                  typed: Sequence[Any] | None = None, **inputs: Any) -> Changes:
    """Take one step of a battle in progress (see the actions of its ruleset's engine,
    ``battle.registry``); the step is logged, so undo takes it back. ``finish`` goes through
    :func:`finish_battle`."""
    if action == "finish":
        return finish_battle(store, battle)
    with store.unit_of_work() as work:
        setup, steps = _fight(work, battle)
        step = _engine(setup.ruleset).action(setup, steps, action, inputs).apply(typed)
        work.add_step(battle, step)
        changes = work.record(LogEntry(FIGHT_STEP, fight_step_label(battle, step.label),
                                       work.summary().current_date, (), {"battle": battle}))
    return structs.replace(changes, lines=tuple(step.lines), battle_step=True)


def finish_battle(store: CampaignStore, battle: int) -> Changes:
    """Close a battle fought on the table and give its result to the campaign, once: the
    winner rests, the loser retreats, the town changes hands, the casualties are recorded."""
    ground = store.ground()
    with store.unit_of_work() as work:
        setup, steps = _fight(work, battle)
        engine = _engine(setup.ruleset)
        # The battle is replayed once: the closing step changes no unit of any ruleset (it
        # only marks the battle finished), so the casualties are those of the state before it.
        fought = engine.replay(setup, steps)
        winner = engine.decision(setup, fought).winner
        step = engine.action(setup, steps, "finish", {}).apply()
        action = RecordResult(battle, winner, engine.casualties(setup, fought))
        state = work.state()
        day = state.date
        label, lines, _report = _apply(ground, state, action)
        work.put_state(state)
        work.add_step(battle, step)
        report = engine.report(setup, [*steps, step])
        return work.record(LogEntry(FINISH_FIGHT, label, day,
                                    (*lines, REPORT_MARK, *report), {"battle": battle}))


def abandon_battle(store: CampaignStore, battle: int) -> Changes:
    """Give up fighting a battle on the table; its result is then still to be given."""
    with store.unit_of_work() as work:
        setup, steps = _fight(work, battle)
        work.remove_fight(battle)
        taken = f"{len(steps)} step{'s' if len(steps) != 1 else ''}"
        return work.record(LogEntry(
            ABANDON_FIGHT, f"Abandon the fight of {setup.title}", work.summary().current_date,
            (f"The fight of {setup.title} was abandoned after {taken}; its result is still to "
             "be given",), {"battle": battle}))


def _setup_for(store: CampaignStore, reader: CampaignReader, battle: int, seed: int | None,
               ruleset: str | None = None) -> BattleSetup:
    """The setup of a battle: the one on the table if it is there, else a fresh one for the
    ruleset named (the 1813 rules unless another is)."""
    engine = _engine(ruleset)  # an unknown ruleset is refused before anything is read
    ground = store.ground()
    found = reader.fight(battle)
    state = reader.state()
    if found is not None:
        setup = found.setup
        if ruleset is not None and ruleset != setup.ruleset:
            raise OrderRefused(f"battle {battle} is on the table by ruleset {setup.ruleset}, "
                               f"not {ruleset}; abandon it there to use another")
        return setup if seed is None else replace(setup, seed=seed)
    return _new_setup(ground, state, battle, seed=seed, ruleset=engine.ruleset)


def autoresolve_odds(store: CampaignStore, battle: int, runs: int, *,
                     seed: int | None = None, progress: Progress = None,
                     ruleset: str | None = None) -> list[str]:
    """Win, draw and loss of a battle over ``runs`` abstract runs, with their 95 % intervals;
    nothing is recorded."""
    if not 1 <= runs <= MAX_RUNS:
        raise OrderRefused(f"--odds takes from 1 to {MAX_RUNS:,} runs, not {runs:,} (10,000 "
                           "give each share to within a percentage point)")
    with store.read() as reader:
        setup = _setup_for(store, reader, battle, seed, ruleset)
    odds = _engine(setup.ruleset).estimate(setup, runs, seed=setup.seed, progress=progress)
    lines = [f"{setup.title[0].upper()}{setup.title[1:]}: {odds.runs} auto-resolved runs"
             + (f" by ruleset {setup.ruleset}" if setup.ruleset != "1813" else "")
             + (" (cancelled)" if odds.cancelled else "")]
    for share in (odds.french, odds.allied, odds.draw):
        lines.append(f"  {share.outcome}: {share.count} ({share.fraction:.1%}; 95 % interval "
                     f"{share.low:.1%}–{share.high:.1%})")
    return lines


def autoresolve_battle(store: CampaignStore, battle: int, *,
                       seed: int | None = None, ruleset: str | None = None) -> Changes:
    """Fight a battle abstractly (seeded) by its ruleset, and give its result to the campaign:
    the winner rests, the loser retreats; its report goes into the diary. The battle is read,
    checked, fought and recorded in one unit of work, so it cannot be set up on the table by
    another window meanwhile."""
    ground = store.ground()
    with store.unit_of_work() as work:
        _refuse_if_fighting(work, battle, "auto-resolve it")
        setup = _setup_for(store, work, battle, seed, ruleset)
        engine = _engine(setup.ruleset)
        result = engine.resolve(setup, setup.seed)
        action = RecordResult(battle, result.winner, engine.auto_casualties(setup, result))
        state = work.state()
        day = state.date
        label, lines, _report = _apply(ground, state, action)
        work.put_state(state)
        return work.record(LogEntry(
            AUTO_RESOLVE, f"Auto-resolve: {label}", day,
            (f"Auto-resolved (seed {setup.seed}): {result.reason}", *lines, REPORT_MARK,
             *result.report), {"battle": battle, "seed": setup.seed}))
