"""Rally (seed 002, "Rally", "Corps/Division Commanders", "General"): who may take the
"engaged in combat" marker off a unit so that it may move again. No die is rolled.

>>> check_rally(Rally(by_general=True, engaged=True, enemy_near=False, near=False))
>>> check_rally(Rally(by_general=True, engaged=True, enemy_near=True, near=False))
Traceback (most recent call last):
...
campaign1813.campaign.battle.core.refusal.ActionRefused: an enemy is within 6 inches of the \
unit: the General must be within 6 inches of it
"""

from __future__ import annotations

from dataclasses import dataclass

from campaign1813.campaign.battle.core.steps import ActionRefused
from campaign1813.campaign.battle.ruleset002 import RULESET
from campaign1813.campaign.battle.ruleset002.tables import tables

__all__ = ["Rally", "check_rally"]


@dataclass(frozen=True)
class Rally:
    """A rally asked for, with what the table knows."""

    by_general: bool
    """Made by the General (else by a corps or division commander)."""
    engaged: bool
    """The unit carries the marker."""
    enemy_near: bool
    """An enemy unit is within 6 inches of the unit."""
    near: bool
    """The General is within 6 inches of the unit; for a commander, the unit is within 6
    inches of his attached unit (or is it)."""
    attached: bool = True
    """The commander is attached to a unit."""
    used: int = 0
    """Rallies this commander or the General has made in this rally step."""


def check_rally(r: Rally, ruleset: str = RULESET) -> None:
    """Refuse a rally the rules do not allow, naming the reason."""
    t = tables(ruleset)
    if not r.engaged:
        raise ActionRefused("the unit carries no 'engaged in combat' marker: it has nothing "
                            "to rally from")
    most = t.general_rallies if r.by_general else t.commander_rallies
    who = "the General" if r.by_general else "a commander"
    if r.used >= most:
        raise ActionRefused(f"{who} rallies {most} unit{'s' if most != 1 else ''} in the rally "
                            "step, and has done so")
    if r.by_general:
        if r.enemy_near and not r.near:
            raise ActionRefused(f"an enemy is within {t.rally_enemy_within} inches of the unit: "
                                f"the General must be within {t.general_rally_within} inches "
                                "of it")
        return
    if not r.attached:
        raise ActionRefused("a commander rallies only from the unit he is attached to, and he "
                            "has none")
    if not r.near:
        raise ActionRefused(f"a commander rallies a unit within {t.commander_rally_within} "
                            "inches of his attached unit")
