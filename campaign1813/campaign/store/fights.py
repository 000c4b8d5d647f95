"""Battles in progress in the campaign file: a setup per battle and the steps taken since.

The setup and each step are kept as JSON (msgspec, from the battle's frozen values). Each step
is logged like any umpire action, with the step itself on one side of the difference and
nothing on the other, so undo drops the step and redo puts it back. The state of a battle is
never stored: it is the steps replayed on the setup, so it cannot disagree with them.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import msgspec

from campaign1813.campaign.battle.core.steps import Step
from campaign1813.campaign.battle.setup import BattleSetup
from campaign1813.campaign.day.changes import Changes
from campaign1813.campaign.store import log
from campaign1813.campaign.store.codec import DamagedState, Json

FIGHT_STEP = "FightStep"
OPEN_FIGHT = "OpenFight"


def step_key(battle: int, seq: int) -> str:
    """The key of a step in a difference: battle and step number."""
    return f"{battle}|{seq:05d}"


def _setup(text: str, battle: int) -> BattleSetup:
    try:
        return msgspec.json.decode(text, type=BattleSetup)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise DamagedState(f"fight row {battle} is damaged: {exc}") from None


def _step(text: str, battle: int, seq: int) -> Step:
    try:
        return msgspec.json.decode(text, type=Step)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise DamagedState(f"fight_step row {battle}/{seq} is damaged: {exc}") from None


def fought(con: sqlite3.Connection) -> dict[int, int]:
    """The battles in progress (or fought here) and the number of steps each has."""
    rows = con.execute("SELECT f.battle, COUNT(s.seq) FROM fight f LEFT JOIN fight_step s "
                       "ON s.battle = f.battle GROUP BY f.battle ORDER BY f.battle")
    return {int(b): int(n) for b, n in rows}


def read(con: sqlite3.Connection, battle: int) -> tuple[BattleSetup, list[Step]] | None:
    """A battle's setup and its steps in order, or None if it has not been opened."""
    row = con.execute("SELECT setup_json FROM fight WHERE battle = ?", (battle,)).fetchone()
    if row is None:
        return None
    steps = []
    for i, (seq, text) in enumerate(con.execute(
            "SELECT seq, step_json FROM fight_step WHERE battle = ? ORDER BY seq", (battle,))):
        if seq != i:
            raise DamagedState(f"fight_step of battle {battle} is damaged: step {i} is missing")
        steps.append(_step(text, battle, seq))
    return _setup(row[0], battle), steps


def _plain(value: Any) -> Json:
    return msgspec.to_builtins(value)  # type: ignore[no-any-return]


def open_fight(con: sqlite3.Connection, setup: BattleSetup, day: str) -> Changes:
    """Keep a new battle's setup (logged, so undo closes it again)."""
    key = str(setup.battle)
    return log.record(con, OPEN_FIGHT, f"Open {setup.title} on the table", day, [],
                      {"battle": setup.battle}, {"fights": {key: None}},
                      {"fights": {key: _plain(setup)}})


def add_step(con: sqlite3.Connection, battle: int, seq: int, step: Step, day: str,
             extra_old: Json | None = None, extra_new: Json | None = None,
             lines: list[str] | None = None, kind: str = FIGHT_STEP,
             label: str = "") -> Changes:
    """Keep one step of a battle (logged with anything else the same action changed)."""
    key = step_key(battle, seq)
    old: Json = dict(extra_old or {})
    new: Json = dict(extra_new or {})
    old["fight_steps"] = {key: None}
    new["fight_steps"] = {key: _plain(step)}
    label = label or f"Battle {battle}: {step.label}"
    return log.record(con, kind, label, day, lines or [], {"battle": battle}, old, new)


def remove(con: sqlite3.Connection, battle: int, day: str) -> Changes:
    """Abandon a battle in progress: its setup and steps go (logged, so undo brings them back)."""
    found = read(con, battle)
    if found is None:
        raise DamagedState(f"battle {battle} is not being fought")
    setup, steps = found
    key = str(battle)
    old: Json = {"fights": {key: _plain(setup)},
                 "fight_steps": {step_key(battle, i): _plain(s) for i, s in enumerate(steps)}}
    new: Json = {"fights": {key: None},
                 "fight_steps": {step_key(battle, i): None for i in range(len(steps))}}
    taken = f"{len(steps)} step{'s' if len(steps) != 1 else ''}"
    return log.record(con, "AbandonFight", f"Abandon the fight of {setup.title}", day,
                      [f"The fight of {setup.title} was abandoned after {taken}; "
                       "its result is still to be given"], {"battle": battle}, old, new)
