"""One entry point for a battle in progress: take an umpire's action, get the step to keep.

:func:`act` takes the battle's setup, the steps kept so far, an action's name and its inputs,
and returns the new :class:`~campaign1813.campaign.battle.ruleset1813.fight.Step` (refused with
``ActionRefused`` when the rules or the sequence do not allow it). Rolls come from the step's
own seeded generator, so the same battle and step always roll the same, or from the umpire's
typed rolls, which must be exactly the rolls the step needs. :func:`report` is the battle's
report in the seed's form, move by move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from campaign1813.campaign.battle.dice import ImpossibleRoll, TypedDice
from campaign1813.campaign.battle.report_forms import html_of, markdown_of
from campaign1813.campaign.battle.ruleset1813 import fight as f
from campaign1813.campaign.battle.ruleset1813.fight_tests import take, take_queued
from campaign1813.campaign.battle.ruleset1813.rules.brigade import formation_named
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused
from campaign1813.campaign.battle.setup import ALLIED, FRENCH, BattleSetup

__all__ = ["ACTIONS", "act", "report", "report_markdown", "report_html", "Typed"]

ACTIONS = ("allocate", "orders", "draw", "special", "pips", "spend", "give", "formation",
           "test", "roll", "dismiss", "end-turn", "holder", "override", "finish")

Typed = Sequence[int | tuple[int, ...]]


@dataclass
class _Dice:
    """The dice of one step: typed rolls, all of which must be used, or the seeded ones."""

    setup: BattleSetup
    index: int
    typed: Typed | None

    def __post_init__(self) -> None:
        self.source: Any = (TypedDice(list(self.typed)) if self.typed
                            else f.seeded(self.setup, self.index))

    def check_used(self) -> None:
        if self.typed and isinstance(self.source, TypedDice) and self.source.remaining:
            left = self.source.remaining
            raise ActionRefused(f"{len(self.typed)} roll{'s' if len(self.typed) > 1 else ''} "
                                f"typed, but the step used {len(self.typed) - left}")


def act(setup: BattleSetup, steps: Sequence[f.Step], action: str, *,
        typed: Typed | None = None, **inputs: Any) -> f.Step:
    """Take one action on the battle and return the step to keep."""
    state = f.replay(setup, list(steps))
    dice = _Dice(setup, len(steps), typed)
    try:
        outcome = _dispatch(setup, state, action, dice, len(steps), inputs)
    except ImpossibleRoll as exc:
        raise ActionRefused(str(exc)) from None
    dice.check_used()
    if action not in ("pips", "test", "roll") and typed:
        raise ActionRefused(f"{action} rolls no dice; a typed roll is not taken")
    return f.keep(state, outcome, setup)


def _dispatch(setup: BattleSetup, state: f.FightState, action: str, dice: _Dice, index: int,
              i: dict[str, Any]) -> f.Outcome:
    if action == "allocate":
        return f.allocate(setup, state, i["reserve"], tuple(i["brigades"]))
    if action == "orders":
        if state.phase == f.Phase.SETUP:
            if not i.get("in_contact", True):
                raise ActionRefused("the orders written before the battle need no CinC in "
                                    "base contact; 'not in contact' is only for a change of "
                                    "orders in play (Rule 2)")
            return f.set_orders(setup, state, i["corps"], i["order"], i.get("objective", ""))
        return f.change_orders(setup, state, i["corps"], i["order"], i.get("objective", ""),
                               i.get("in_contact", True))
    if action == "draw":
        return f.draw(setup, state, i.get("chip"), index, i.get("commander"),
                      bool(i.get("confirm", False)))
    if action == "special":
        return f.use_special(setup, state, i.get("commander"))
    if action == "pips":
        return f.roll_pips(setup, state, dice.source)
    if action == "spend":
        return f.spend(setup, state, i["what"], i.get("brigade", ""), i.get("note", ""))
    if action == "give":
        return f.give_move_to(setup, state, i["corps"], i.get("in_contact", True))
    if action == "formation":
        f.brigade_now(state, setup, i["brigade"])  # refuses a brigade the battle does not have
        arm = setup.brigade(i["brigade"]).arm
        return f.set_formation(setup, state, i["brigade"], formation_named(arm, i["formation"]))
    if action == "test":
        return take(setup, state, i["test"], i.get("who", ""), i.get("target", ""),
                    i.get("options", {}), dice.source)
    if action == "roll":
        return take_queued(setup, state, i.get("options", {}), dice.source, i.get("index"))
    if action == "dismiss":
        return f.dismiss(setup, state, i.get("index", 1), i.get("reason", ""))
    if action == "end-turn":
        return f.end_turn(setup, state, bool(i.get("confirm", False)))
    if action == "holder":
        return f.record_holder(setup, state, i["side"], i.get("reason", ""))
    if action == "override":
        return f.override(setup, state, i["side"], i.get("reason", ""))
    if action == "finish":
        return f.finish(setup, state)
    raise ActionRefused(f"'{action}' is not a battle action (actions: {', '.join(ACTIONS)})")


# -- the report --------------------------------------------------------------------------------


def _sides(setup: BattleSetup) -> list[str]:
    lines = []
    for side in (FRENCH, ALLIED):
        cinc = [c.name for c in setup.commanders if c.side == side and c.role.value == "CinC"]
        corps = [c.key for c in setup.side_corps(side)]
        lines.append(f"{side}: " + ", ".join(cinc + corps))
    return lines


def report(setup: BattleSetup, steps: Sequence[f.Step]) -> list[str]:
    """The battle report in the seed's form: a header, then every step's lines in order."""
    title = setup.title[0].upper() + setup.title[1:]
    lines = [title, f"Rules: {setup.ruleset}; {setup.turns} turns to the battle day",
             *_sides(setup)]
    for step in steps:
        lines.extend(step.lines)
    return lines


def report_markdown(setup: BattleSetup, steps: Sequence[f.Step]) -> str:
    """The report as Markdown: the battle as a heading, each turn a section, each move bold."""
    return markdown_of(report(setup, steps))


def report_html(setup: BattleSetup, steps: Sequence[f.Step]) -> str:
    """The report as a small HTML document."""
    return html_of(report(setup, steps))
