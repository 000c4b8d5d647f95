"""A battle as every ruleset keeps it: the steps taken, each with its report lines, the dice it
rolled and a *patch* of the state it changed; the state now is the start with every patch
applied in order, so a battle closed and reopened is the same battle and undo drops a step.
Also the dice of a step the app rolls, and the refusal of an action the rules do not allow."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import msgspec

from campaign1813.campaign.battle.core.refusal import ActionRefused as ActionRefused
from campaign1813.campaign.battle.core.refusal import roll_for as roll_for
from campaign1813.campaign.battle.dice import SeededDice
from campaign1813.campaign.battle.setup import BattleSetup

__all__ = ["ActionRefused", "Step", "seeded", "state_patch", "patched", "roll_for"]

_S = TypeVar("_S")  # a battle's state, of whichever ruleset


@dataclass(frozen=True)
class Step:
    """One step of the battle as kept: what was done, its report lines, rolls and patch."""

    kind: str
    label: str
    lines: tuple[str, ...]
    patch: dict[str, Any]
    rolls: tuple[tuple[str, tuple[int, ...]], ...] = ()
    inputs: dict[str, Any] = field(default_factory=dict)


def seeded(setup: BattleSetup, index: int) -> SeededDice:
    """The dice of step ``index`` when the umpire lets the app roll: seeded by the battle's
    seed, the battle and the step, so the same step always rolls the same."""
    return SeededDice(f"{setup.seed}/{setup.battle}/{index}")


def state_patch(old: Mapping[str, Any], new: Mapping[str, Any],
                keyed: Collection[str]) -> dict[str, Any]:
    """What changed between two states in their plain form: each changed field whole, and of
    the ``keyed`` ones (a battle's brigades or units, by key) only the entries that changed.

    >>> state_patch({"turn": 1, "units": {"a": 1, "b": 2}}, {"turn": 2, "units": {"a": 1, "b": 3}},
    ...             ("units",))
    {'turn': 2, 'units': {'b': 3}}
    """
    patch: dict[str, Any] = {}
    for key, value in new.items():
        if key in keyed:
            changed = {k: v for k, v in value.items() if old[key].get(k) != v}
            if changed:
                patch[key] = changed
        elif old.get(key) != value:
            patch[key] = value
    return patch


def patched(plain: dict[str, Any], patches: Iterable[Mapping[str, Any]],
            keyed: Collection[str], kind: type[_S]) -> _S:
    """Apply patches to a state in its plain form, then read it back once as ``kind``."""
    for patch in patches:
        for key, value in patch.items():
            plain[key] = plain[key] | value if key in keyed else value
    return msgspec.convert(plain, kind)


