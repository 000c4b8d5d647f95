"""Battles in progress in the campaign file: a setup per battle and the steps taken since.

The setup and each step are kept as JSON (msgspec, from the battle's frozen values). Each step
is logged like any umpire action, with the step itself on one side of the difference and
nothing on the other, so undo drops the step and redo puts it back. The state of a battle is
never stored: it is the steps replayed on the setup, so it cannot disagree with them. This
module reads the rows and makes the differences; the unit of work (``store.work``) logs them.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec

from campaign1813.campaign.store.codec import DamagedState, Json
from campaign1813.campaign.store.protocol import FIGHT_STEP, OPEN_FIGHT, Fight

if TYPE_CHECKING:  # the battle's types are imported by ``read`` alone, which decodes them
    from campaign1813.campaign.battle.core.steps import Step
    from campaign1813.campaign.battle.setup import BattleSetup

_T = TypeVar("_T")

__all__ = ["FIGHT_STEP", "OPEN_FIGHT", "fought", "opened", "read", "removed", "step_key",
           "stepped"]


def step_key(battle: int, seq: int) -> str:
    """The key of a step in a difference: battle and step number."""
    return f"{battle}|{seq:05d}"


def _decoded(text: str, kind: type[_T], row: str) -> _T:
    try:
        return msgspec.json.decode(text, type=kind)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise DamagedState(f"{row} is damaged: {exc}") from None


def fought(con: sqlite3.Connection) -> dict[int, int]:
    """The battles in progress (or fought here) and the number of steps each has."""
    rows = con.execute("SELECT f.battle, COUNT(s.seq) FROM fight f LEFT JOIN fight_step s "
                       "ON s.battle = f.battle GROUP BY f.battle ORDER BY f.battle")
    return {int(b): int(n) for b, n in rows}


def read(con: sqlite3.Connection, battle: int) -> Fight | None:
    """A battle's setup and its steps in order, or None if it has not been opened."""
    # The battle engine's modules come with the first fight read: the campaign at a glance
    # (``status``) reads the store without them.
    from campaign1813.campaign.battle.core.steps import Step
    from campaign1813.campaign.battle.setup import BattleSetup

    row = con.execute("SELECT setup_json FROM fight WHERE battle = ?", (battle,)).fetchone()
    if row is None:
        return None
    steps = []
    for i, (seq, text) in enumerate(con.execute(
            "SELECT seq, step_json FROM fight_step WHERE battle = ? ORDER BY seq", (battle,))):
        if seq != i:
            raise DamagedState(f"fight_step of battle {battle} is damaged: step {i} is missing")
        steps.append(_decoded(text, Step, f"fight_step row {battle}/{seq}"))
    return Fight(_decoded(row[0], BattleSetup, f"fight row {battle}"), steps)


def _plain(value: Any) -> Json:
    return msgspec.to_builtins(value)  # type: ignore[no-any-return]


def opened(setup: BattleSetup) -> tuple[Json, Json]:
    """The difference a new battle on the table makes: its setup, where there was none."""
    key = str(setup.battle)
    return {"fights": {key: None}}, {"fights": {key: _plain(setup)}}


def stepped(battle: int, seq: int, step: Step) -> tuple[Json, Json]:
    """The difference one more step of a battle makes: the step, where there was none."""
    key = step_key(battle, seq)
    return {"fight_steps": {key: None}}, {"fight_steps": {key: _plain(step)}}


def removed(fight: Fight) -> tuple[Json, Json]:
    """The difference a battle taken off the table makes: its setup and steps gone."""
    battle = fight.setup.battle
    key = str(battle)
    old: Json = {"fights": {key: _plain(fight.setup)},
                 "fight_steps": {step_key(battle, i): _plain(s)
                                 for i, s in enumerate(fight.steps)}}
    new: Json = {"fights": {key: None},
                 "fight_steps": {step_key(battle, i): None for i in range(len(fight.steps))}}
    return old, new
