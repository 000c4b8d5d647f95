"""The engine of ruleset 002 (seed 002): units count hits; side A and side B take each step;
the battle ends itself at its victory condition, and the finish step only closes it for the
campaign."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from campaign1813.campaign.battle.core.actions import ActionSpec, Input, Table, Tally, Typed
from campaign1813.campaign.battle.core.engine import Decision, Engine, StepAction
from campaign1813.campaign.battle.core.results import AutoOdds, AutoResult, Progress
from campaign1813.campaign.battle.core.steps import ActionRefused, Step
from campaign1813.campaign.battle.core.units import (
    RulesetSheet,
    UnitsEngine,
    campaign_casualties,
    late_arrivals_note,
)
from campaign1813.campaign.battle.ruleset002 import auto, battle
from campaign1813.campaign.battle.ruleset002.battle import BattleState
from campaign1813.campaign.battle.ruleset002.convert import HITS_PER_CASUALTY, mapping_rows
from campaign1813.campaign.battle.ruleset002.tables import tables
from campaign1813.campaign.battle.setup import ALLIED, FRENCH, BattleSetup, BrigadeSetup

__all__ = ["Engine002", "ACTION_SPECS"]


def _i(name: str, kind: str, help: str, required: bool = False,
       fields: tuple[Input, ...] = ()) -> Input:
    return Input(name, kind, help, required, fields)


_UNIT = _i("unit", "unit", "the unit", True)
_TARGET = _i("target", "unit", "the enemy unit", True)
_OVERRIDE = ActionSpec("override", "the umpire's own decision, with a reason",
                       (_i("side", "text", "French, Allied or draw", True),
                        _i("reason", "text", "the umpire's reason", True)))
_FINISH = ActionSpec("finish", "close the decided battle and give its result to the campaign")

ACTION_SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("deploy", "before the first turn: place a unit on its ground",
               (_UNIT, _i("ground", "text", "open, woods, town, entrenchment, hill or marsh"),
                _i("place", "text", "which town or wood"))),
    ActionSpec("attach", "a commander joins an infantry unit (setup or his movement)",
               (_i("commander", "text", "the commander's key", True), _UNIT)),
    ActionSpec("sides", "find side A for the turn: a D6, or the side the umpire names",
               (_i("side_a", "side", "the side the coin gave (else a D6 is rolled)"),),
               rolls=True),
    ActionSpec("move", "a unit moves (or pivots) in its side's movement",
               (_UNIT, _i("inches", "number", "how far"),
                _i("to", "text", "the ground it ends on (as for deploy)"),
                _i("place", "text", "which"),
                _i("road", "flag", "all along a road"),
                _i("near_general", "flag", "starting near the General"),
                _i("pivot", "flag", "pivots on the spot"),
                _i("across_river", "flag", "crosses a river"),
                _i("at_crossing", "flag", "at a bridge or ford"))),
    ActionSpec("shoot", "a unit shoots in its shooting step",
               (_UNIT, _TARGET, _i("inches", "number", "the range"),
                _i("retire", "flag", "target cavalry retire 6 inches, halving the hits"),
                _i("in_arc", "flag", "the target is in the arc of fire (default yes)")),
               rolls=True),
    ActionSpec("charge", "a cavalry unit charges in its side's charge step",
               (_UNIT, _TARGET, _i("flank", "flag", "into the flank or rear"),
                _i("infantry_near", "flag", "infantry near the guns charged"),
                _i("inches", "number", "how far"),
                _i("turn", "whole", "degrees turned to charge")), rolls=True),
    ActionSpec("rally", "a commander or the General takes the marker off a unit",
               (_UNIT, _i("by", "text", "a commander's key, or General (default)"),
                _i("near", "flag", "within 6 inches of the unit"),
                _i("enemy_near", "flag", "an enemy unit is within 6 inches"))),
    ActionSpec("next", "end the step (after side B's rally, the turn)"),
    _OVERRIDE,
    _FINISH,
)


class Engine002(UnitsEngine[BattleState]):
    """Seed 002's battle behind the :class:`~campaign1813.campaign.battle.core.engine.Engine`
    protocol."""

    actions = ACTION_SPECS
    unit_headers = ("Unit", "Side", "Type", "Hits", "Ground", "Marker", "Commander")
    mapping_headers = ("Brigade or commander", "In the campaign", "In ruleset 002", "Why")

    def replay(self, setup: BattleSetup, steps: Sequence[Step]) -> BattleState:
        self.own(setup)
        return battle.replay(setup, list(steps))

    def action(self, setup: BattleSetup, steps: Sequence[Step], name: str,
               inputs: Mapping[str, Any]) -> StepAction:
        self.own(setup)
        return StepAction(setup, tuple(steps), name, dict(inputs), self._take, battle.odds)

    def _take(self, setup: BattleSetup, steps: Sequence[Step], name: str,
              inputs: Mapping[str, Any], typed: Typed | None) -> Step:
        if name == "finish":
            if typed:
                raise ActionRefused("finish rolls no dice; a typed roll is not taken")
            return self._finish(setup, steps)
        return battle.act(setup, list(steps), name, typed=typed, **inputs)

    def _finish(self, setup: BattleSetup, steps: Sequence[Step]) -> Step:
        # The battle has ended itself at its victory condition; the finish step only closes
        # it for the campaign, changing nothing of its state.
        if self.closed(setup, steps):
            raise ActionRefused("the battle is already finished and its result given")
        d = self.decision(setup, self.replay(setup, steps))
        if d.outcome is None:
            raise ActionRefused(d.reason)
        text = "a draw" if d.winner is None else f"the {d.winner} win"
        return Step("finish", f"Finish: {d.result}", (f"The battle is finished: {text} – "
                                                      f"{d.reason}",), {})

    def closed(self, setup: BattleSetup, steps: Sequence[Step]) -> bool:
        return any(s.kind == "finish" for s in steps)

    def decision(self, setup: BattleSetup, state: BattleState) -> Decision:
        return battle.decision(setup, state)

    def report(self, setup: BattleSetup, steps: Sequence[Step]) -> list[str]:
        return battle.report(setup, list(steps))

    def casualties(self, setup: BattleSetup, state: BattleState) -> dict[str, dict[str, int]]:
        return campaign_casualties(setup, battle.outcomes(setup, state),
                                   battle.outcomes(setup, self.replay(setup, [])), _lost)

    def auto_casualties(self, setup: BattleSetup,
                        result: AutoResult) -> dict[str, dict[str, int]]:
        return campaign_casualties(setup, result.brigades,
                                   battle.outcomes(setup, self.replay(setup, [])), _lost)

    def units_table(self, setup: BattleSetup, state: BattleState) -> Table:
        rows = tuple(tuple(r) for r in battle.units_table(setup, state))
        return Table(self.unit_headers, rows,
                     tuple(u.key for u in battle.army_of(setup).units))

    def step_now(self, setup: BattleSetup, state: BattleState) -> str:
        return battle.step_now(setup, state)

    def who_acts(self, setup: BattleSetup, state: BattleState) -> tuple[str, ...]:
        return tuple(battle.who_acts(setup, state))

    def mapping(self, setup: BattleSetup) -> Table:
        rows = mapping_rows(setup, setup.ruleset)
        return Table(self.mapping_headers, tuple(tuple(r) for r in rows))

    def tallies(self, setup: BattleSetup) -> Mapping[str, Tally]:
        # A hit a box; the unit is eliminated with the first hit over its type's limit.
        self.own(setup)
        t = tables(setup.ruleset)
        out = {}
        for u in battle.army_of(setup).units:
            limit = t.units[u.kind].eliminated_over
            out[u.key] = Tally(limit + 1, u.hits, u.kind.value, f"hits; eliminated over {limit}")
        return out

    def sheet(self, setup: BattleSetup) -> RulesetSheet:
        """Seed 002's own figures: its sequence of play, the hits that eliminate each type,
        the victory condition, and where each commander and General goes."""
        self.own(setup)
        t = tables(setup.ruleset)
        army = battle.army_of(setup)
        titles = {"moved infantry": "infantry that moved", "skirmishers": "light infantry"}
        shooting = ", ".join(titles.get(x, x) for x in t.steps)
        sequence = ("Before each turn a D6 (or a coin) finds side A; side A goes first in "
                    "every step.",
                    "1. Movement: side A, then side B.",
                    f"2. Shooting in steps, A then B in each: {shooting}.",
                    "3. Cavalry charges: side A, then side B.",
                    "4. Rally: side A, then side B.")
        kinds = sorted({u.kind for u in army.units}, key=lambda k: list(t.units).index(k))
        notes = ["A unit is eliminated when its hits pass its type's limit: " + "; ".join(
            f"{t.units[k].label} over {t.units[k].eliminated_over}" for k in kinds) + "."]
        notes += [f"The {side} lose when {battle.needed(setup, side)} of their "
                  f"{len(army.side_units(side))} units are eliminated." for side in (FRENCH,
                                                                                     ALLIED)]
        notes += late_arrivals_note(setup)
        leaders = []
        for x in army.leaders:
            if x.general:
                leaders.append(f"{x.name}: the {x.side} General (not a unit)")
            else:
                leaders.append(f"{x.name}: commander attached to {army.unit(x.unit).name}")
        leaders += [f"{name}: not on the table ({why})" for name, why in army.left_out]
        bases = {u.key: "one base 4 × 3 in" for u in army.units}
        mapping = ("Each brigade or battery is one unit: class A infantry elite (Guards or "
                   "Grenadiers), other skirmish A infantry skirmishers (light infantry), other "
                   "infantry line infantry; cavalry brigades cavalry; batteries artillery.",
                   f"Casualties brought in are {HITS_PER_CASUALTY} hits each. A side's CinC "
                   "is its General (without one, its best-graded corps commander); the other "
                   "commanders, one for every 4 units and at most 3, join an infantry unit of "
                   "their own command.")
        return RulesetSheet(sequence, tuple(notes), tuple(leaders), bases, mapping)

    def resolve(self, setup: BattleSetup, seed: int | None = None) -> AutoResult:
        self.own(setup)
        return auto.resolve(setup, seed)

    def estimate(self, setup: BattleSetup, runs: int, seed: int = 0,
                 progress: Progress = None) -> AutoOdds:
        self.own(setup)
        return auto.estimate(setup, runs, seed, progress)


def _lost(b: BrigadeSetup, gained: int) -> Fraction:
    """The campaign's casualties of ``gained`` hits."""
    return Fraction(gained, HITS_PER_CASUALTY)


# the class is an Engine of its state (mypy --strict checks it here)
_AN_ENGINE: Callable[[str], Engine[BattleState]] = Engine002
