"""Every umpire action, taking the open campaign and returning what changed.

Each service runs one action from ``day.actions`` inside one write transaction of the campaign
file (``BEGIN IMMEDIATE``): the state is read, changed, written back and logged together, so a
second window or process waits or is told the campaign is busy, and never interleaves. A refused
action raises ``OrderRefused`` with the reason and leaves the file as it was. The window and the
command line call these and nothing else to change a campaign.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from campaign1813.campaign.day.actions import (
    Action,
    CancelOrder,
    ChangeSetting,
    ChooseRetreat,
    EndDay,
    IssueOrder,
    IssueOrders,
    MergeBattles,
    PostponeBattle,
    RecordResult,
    SplitBattle,
)
from campaign1813.campaign.day.aftermath import result_side
from campaign1813.campaign.day.changes import Changes
from campaign1813.campaign.day.ground import OrderRefused
from campaign1813.campaign.store import log
from campaign1813.campaign.store.document import CampaignDocument

__all__ = [
    "Changes", "IssueOrder", "cancel_order", "change_setting", "choose_retreat", "end_day",
    "issue_order", "issue_orders", "merge_battles", "perform", "postpone_battle",
    "record_result", "redo", "split_battle", "undo", "open_battle", "battle_action",
    "finish_battle", "abandon_battle",
]


def perform(doc: CampaignDocument, action: Action) -> Changes:
    """Apply one umpire action to the campaign and log it, in one write transaction."""
    ground = doc.ground()
    with doc.writing() as con:
        return log.perform(con, ground, action)


def issue_order(doc: CampaignDocument, command: str, verb: str, objective: str, *,
                via: Sequence[str] = (), forced: bool = False) -> Changes:
    """Give a command an order (refused with the reason if it breaks the rules)."""
    return perform(doc, IssueOrder(command, verb, objective, tuple(via), forced))


def issue_orders(doc: CampaignDocument, orders: Sequence[IssueOrder]) -> Changes:
    """Give several orders as one action (one undo step); refused whole if any is refused."""
    return perform(doc, IssueOrders(tuple(orders)))


def cancel_order(doc: CampaignDocument, command: str) -> Changes:
    """Withdraw a command's orders."""
    return perform(doc, CancelOrder(command))


def end_day(doc: CampaignDocument) -> Changes:
    """March the day, find contacts and schedule battles; close it once its battles have
    results."""
    return perform(doc, EndDay())


def record_result(doc: CampaignDocument, battle: int, winner: str | None, *,
                  casualties: dict[str, Any] | None = None) -> Changes:
    """Record a battle's result (a Side or its name, ``draw`` or None) and its aftermath."""
    _refuse_if_fighting(doc, battle, "record a typed result")
    side = None if winner is None else result_side(str(winner))
    return perform(doc, RecordResult(battle, side, casualties or {}))


def merge_battles(doc: CampaignDocument, battle: int, other: int, reason: str,
                  force: bool = False) -> Changes:
    """Fight two battles of a day as one, with the umpire's reason kept; battles far apart by
    road are refused unless ``force`` says they are one fight."""
    for b in (battle, other):
        _refuse_if_fighting(doc, b, "merge it")
    return perform(doc, MergeBattles(battle, other, reason, force))


def split_battle(doc: CampaignDocument, battle: int, commands: Sequence[str],
                 reason: str) -> Changes:
    """Fight the named commands of a battle as a separate battle."""
    _refuse_if_fighting(doc, battle, "split it")
    return perform(doc, SplitBattle(battle, tuple(commands), reason))


def postpone_battle(doc: CampaignDocument, battle: int, reason: str, days: int = 1) -> Changes:
    """Put a battle off by some days."""
    _refuse_if_fighting(doc, battle, "postpone it")
    return perform(doc, PostponeBattle(battle, reason, days))


def choose_retreat(doc: CampaignDocument, command: str, option: str,
                   town: str | None = None) -> Changes:
    """Surrender or break out for a command with no road of retreat."""
    return perform(doc, ChooseRetreat(command, option, town))


def change_setting(doc: CampaignDocument, name: str, value: str) -> Changes:
    """Change one of the campaign's settings (refused with the reason if the value is not
    one it can take); logged and undone like any action."""
    return perform(doc, ChangeSetting(name, value))


def undo(doc: CampaignDocument, expected: str | None = None) -> Changes:
    """Take back the latest action in force; with ``expected``, only if it is that one."""
    with doc.writing() as con:
        return log.undo(con, expected)


def redo(doc: CampaignDocument, expected: str | None = None) -> Changes:
    """Apply again the earliest action taken back; with ``expected``, only if it is that one."""
    with doc.writing() as con:
        return log.redo(con, expected)


# -- battles fought on the table ---------------------------------------------------------------


def _fight(con: Any, battle: int) -> tuple[Any, list[Any]]:
    from campaign1813.campaign.store import fights

    found = fights.read(con, battle)
    if found is None:
        raise OrderRefused(f"battle {battle} is not being fought: open it first "
                           f"(campaign1813 battle FILE {battle} setup)")
    return found


def _engine(setup: Any) -> Any:
    """The engine of the rules a battle is fought by."""
    from campaign1813.campaign.battle.registry import find_ruleset

    return find_ruleset(setup.ruleset)


def _refuse_if_fighting(doc: CampaignDocument, battle: int, what: str) -> None:
    from campaign1813.campaign.store import fights

    with doc.reading() as con:
        found = fights.read(con, battle)
    if found is not None and not _engine(found[0]).closed(*found):
        raise OrderRefused(f"battle {battle} is being fought on the table; finish it there, or "
                           f"abandon the fight, before you {what}")


def open_battle(doc: CampaignDocument, battle: int, *, seed: int | None = None,
                specials: Sequence[str] = (), ruleset: str | None = None) -> Changes:
    """Set a scheduled battle up for the table by the ruleset the umpire chooses (the 1813
    rules unless he names another): its forces, table, chips and orders, or the campaign's
    brigades converted to the ruleset's units."""
    from campaign1813.campaign.battle.registry import DEFAULT_RULESET, find_ruleset
    from campaign1813.campaign.battle.setup import Special
    from campaign1813.campaign.day.fight_setup import battle_setup
    from campaign1813.campaign.store import fights
    from campaign1813.campaign.store.codec import read_state

    ruleset = ruleset or DEFAULT_RULESET
    engine = find_ruleset(ruleset)
    if specials and not engine.chips:
        raise OrderRefused(f"ruleset {ruleset} draws no chips; an optional chip is for the "
                           "1813 rules")
    known = {s.value.lower(): s for s in Special if s is not Special.POOR}
    chosen = []
    for name in specials:
        if name.lower() not in known:
            raise OrderRefused(f"'{name}' is not an optional chip (chips: "
                               f"{', '.join(s.value for s in known.values())})")
        chosen.append(known[name.lower()])
    ground = doc.ground()
    with doc.writing() as con:
        if fights.read(con, battle) is not None:
            raise OrderRefused(f"battle {battle} is already set up on the table")
        state = read_state(con)
        setup = battle_setup(ground.adjusted(state.settings), state, battle, seed=seed,
                             specials=tuple(chosen), ruleset=ruleset)
        engine.replay(setup, [])  # a setup the ruleset cannot convert is refused now
        return fights.open_fight(con, setup, state.date.isoformat())


def battle_action(doc: CampaignDocument, battle: int, action: str, *,
                  typed: Sequence[Any] | None = None, **inputs: Any) -> Changes:
    """Take one step of a battle in progress (see the actions of its ruleset's engine,
    ``battle.registry``); the step is logged, so undo takes it back. ``finish`` goes through
    :func:`finish_battle`."""
    from campaign1813.campaign.store import fights

    if action == "finish":
        return finish_battle(doc, battle)
    with doc.writing() as con:
        setup, steps = _fight(con, battle)
        step = _engine(setup).action(setup, steps, action, inputs).apply(typed)
        day = con.execute('SELECT "current_date" FROM campaign').fetchone()[0]
        changes = fights.add_step(con, battle, len(steps), step, day)
    return _with_lines(changes, step.lines)


def _with_lines(changes: Changes, lines: Sequence[str]) -> Changes:
    from msgspec.structs import replace

    return replace(changes, lines=tuple(lines))


def finish_battle(doc: CampaignDocument, battle: int) -> Changes:
    """Close a battle fought on the table and give its result to the campaign, once: the
    winner rests, the loser retreats, the town changes hands, the casualties are recorded."""
    ground = doc.ground()
    with doc.writing() as con:
        setup, steps = _fight(con, battle)
        engine = _engine(setup)
        winner = engine.decision(setup, engine.replay(setup, steps)).winner
        step = engine.action(setup, steps, "finish", {}).apply()
        final = engine.replay(setup, [*steps, step])
        action = RecordResult(battle, winner, engine.casualties(setup, final))
        return _finish(con, ground, battle, len(steps), step, action,
                       engine.report(setup, [*steps, step]))


def _finish(con: Any, ground: Any, battle: int, seq: int, step: Any, action: RecordResult,
            lines: list[str]) -> Changes:
    from campaign1813.campaign.store import fights

    done = log.apply(con, ground, action)
    return fights.add_step(con, battle, seq, step, done.day, done.old, done.new,
                           [*done.lines, "Battle report:", *lines], kind="FinishFight",
                           label=done.label)


def abandon_battle(doc: CampaignDocument, battle: int) -> Changes:
    """Give up fighting a battle on the table; its result is then still to be given."""
    from campaign1813.campaign.store import fights

    with doc.writing() as con:
        _fight(con, battle)
        day = con.execute('SELECT "current_date" FROM campaign').fetchone()[0]
        return fights.remove(con, battle, day)


def _setup_for(doc: CampaignDocument, battle: int, seed: int | None,
               ruleset: str | None = None) -> Any:
    """The setup of a battle: the one on the table if it is there, else a fresh one for the
    ruleset named (the 1813 rules unless another is)."""
    from dataclasses import replace

    from campaign1813.campaign.battle.registry import DEFAULT_RULESET, find_ruleset
    from campaign1813.campaign.day.fight_setup import battle_setup
    from campaign1813.campaign.store import fights
    from campaign1813.campaign.store.codec import read_state

    if ruleset is not None:
        find_ruleset(ruleset)  # an unknown ruleset is refused before anything is read
    ground = doc.ground()
    with doc.reading() as con:
        found = fights.read(con, battle)
        state = read_state(con)
    if found is not None:
        setup = found[0]
        if ruleset is not None and ruleset != setup.ruleset:
            raise OrderRefused(f"battle {battle} is on the table by ruleset {setup.ruleset}, "
                               f"not {ruleset}; abandon it there to use another")
        return setup if seed is None else replace(setup, seed=seed)
    return battle_setup(ground.adjusted(state.settings), state, battle, seed=seed,
                        ruleset=ruleset or DEFAULT_RULESET)


def autoresolve_odds(doc: CampaignDocument, battle: int, runs: int, *,
                     seed: int | None = None, progress: Any = None,
                     ruleset: str | None = None) -> list[str]:
    """Win, draw and loss of a battle over ``runs`` abstract runs, with their 95 % intervals;
    nothing is recorded."""
    if runs < 1:
        raise OrderRefused(f"--odds needs at least one run, not {runs}")
    setup = _setup_for(doc, battle, seed, ruleset)
    odds = _engine(setup).estimate(setup, runs, seed=setup.seed, progress=progress)
    lines = [f"{setup.title[0].upper()}{setup.title[1:]}: {odds.runs} auto-resolved runs"
             + (f" by ruleset {setup.ruleset}" if setup.ruleset != "1813" else "")
             + (" (cancelled)" if odds.cancelled else "")]
    for share in (odds.french, odds.allied, odds.draw):
        lines.append(f"  {share.outcome}: {share.count} ({share.fraction:.1%}; 95 % interval "
                     f"{share.low:.1%}–{share.high:.1%})")
    return lines


def autoresolve_battle(doc: CampaignDocument, battle: int, *,
                       seed: int | None = None, ruleset: str | None = None) -> Changes:
    """Fight a battle abstractly (seeded) by its ruleset, and give its result to the campaign:
    the winner rests, the loser retreats; its report goes into the diary."""
    _refuse_if_fighting(doc, battle, "auto-resolve it")
    setup = _setup_for(doc, battle, seed, ruleset)
    engine = _engine(setup)
    result = engine.resolve(setup, setup.seed)
    action = RecordResult(battle, result.winner, engine.auto_casualties(setup, result))
    ground = doc.ground()
    with doc.writing() as con:
        done = log.apply(con, ground, action)
        lines = [f"Auto-resolved (seed {setup.seed}): {result.reason}", *done.lines,
                 "Battle report:", *result.report]
        return log.record(con, "AutoResolve", f"Auto-resolve: {done.label}", done.day, lines,
                          {"battle": battle, "seed": setup.seed}, done.old, done.new)
