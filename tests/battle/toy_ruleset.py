"""A ruleset that lives only in the tests, to prove the seam: each side's unit rolls a d6 in a
duel, the higher kills the other, a tie kills nobody (P(the unit that duels kills) = 15/36,
P(it is killed) = 15/36, P(tie) = 6/36); a side that has lost half its units (rounded up) has
lost the battle. Every brigade of the campaign is a unit; the umpire may decide; the finish step
closes the decided battle. It is registered from the tests (``registry.register``) and needs no
data folder and no edit of any product module."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import product
from math import ceil
from typing import Any

import msgspec

from campaign1813.campaign.battle.core.actions import ActionSpec, Input, Odds, Table, Tally, Typed
from campaign1813.campaign.battle.core.engine import Decision
from campaign1813.campaign.battle.core.outcome import Outcome, Side, Termination, side_named
from campaign1813.campaign.battle.core.results import (
    AutoOdds,
    AutoResult,
    BrigadeOutcome,
    Progress,
    auto_outcome,
    count_results,
    run_seed,
)
from campaign1813.campaign.battle.core.steps import (
    ActionRefused,
    Step,
    patched,
    roll_for,
    seeded,
    state_patch,
)
from campaign1813.campaign.battle.core.units import UnitsEngine, campaign_casualties
from campaign1813.campaign.battle.dice import D6, DiceSource, ImpossibleRoll, TypedDice
from campaign1813.campaign.battle.setup import BattleSetup, BrigadeSetup
from campaign1813.campaign.battle.terms import MoraleState

NAME = "toy"
_UNIT = Input("unit", "unit", "the unit that duels", True)
_TARGET = Input("target", "unit", "the enemy unit it duels", True)
ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("duel", "two enemy units each roll a d6; the higher kills the other",
               (_UNIT, _TARGET), rolls=True),
    ActionSpec("override", "the umpire's own decision, with a reason",
               (Input("side", "text", "French, Allied or draw", True),
                Input("reason", "text", "the umpire's reason", True))),
    ActionSpec("finish", "close the decided battle and give its result to the campaign"),
)


@dataclass(frozen=True)
class ToyState:
    """The units killed, and once decided the result and why."""

    dead: dict[str, bool] = field(default_factory=dict)
    result: str = ""
    reason: str = ""
    umpire: bool = False
    finished: bool = False


def _start(setup: BattleSetup) -> ToyState:
    return ToyState({b.key: False for b in setup.brigades})


def _plain(state: ToyState) -> dict[str, Any]:
    plain: dict[str, Any] = msgspec.to_builtins(state)
    return plain


def _verdict(a: int, b: int) -> str:
    """The duel read from the two faces: who is killed."""
    return "the unit that duels kills" if a > b else "it is killed" if b > a else "a tie"


def _side(setup: BattleSetup, key: str) -> str:
    return setup.corps_of(setup.brigade(key).corps).side


@dataclass(frozen=True)
class Duel:
    """A duel ready to be fought: its odds and its step come from this one object."""

    setup: BattleSetup
    steps: tuple[Step, ...]
    unit: str
    target: str

    def _check(self, state: ToyState) -> None:
        for key in (self.unit, self.target):
            if key not in state.dead:
                raise ActionRefused(f"there is no unit '{key}' in {self.setup.title}")
            if state.dead[key]:
                raise ActionRefused(f"{key} has been killed")
        if _side(self.setup, self.unit) == _side(self.setup, self.target):
            raise ActionRefused(f"{self.unit} and {self.target} are on the same side")
        if state.result:
            raise ActionRefused(f"the battle is decided: {state.reason}")

    def chance_outcomes(self) -> Odds:
        """Every pair of faces, read as the step reads it."""
        counts: dict[str, int] = {}
        for a, b in product(D6.faces, D6.faces):
            counts[_verdict(a, b)] = counts.get(_verdict(a, b), 0) + 1
        total = len(D6.faces) ** 2
        return tuple((v, Fraction(counts[v], total)) for v in
                     ("the unit that duels kills", "it is killed", "a tie"))

    def apply(self, typed: Typed | None = None) -> Step:
        """Roll the two dice (typed, else the step's seeded ones) and keep the duel."""
        state = _replay(self.setup, self.steps)
        self._check(state)
        dice: DiceSource = TypedDice(list(typed)) if typed else seeded(self.setup, len(self.steps))
        try:
            a = roll_for(dice, D6, 1, f"{self.unit} duels")
            b = roll_for(dice, D6, 1, f"{self.target} answers")
        except ImpossibleRoll as exc:
            raise ActionRefused(str(exc)) from None
        verdict = _verdict(a.total, b.total)
        dead = dict(state.dead)
        if verdict != "a tie":
            dead[self.unit if a.total < b.total else self.target] = True
        after = _judge(self.setup, replace(state, dead=dead))
        lines = (f"{self.unit} rolls {a.total}, {self.target} rolls {b.total}: {verdict}",
                 *((f"Result: {after.reason}",) if after.result else ()))
        return Step("duel", f"Duel: {self.unit} against {self.target}", lines,
                    state_patch(_plain(state), _plain(after), ("dead",)),
                    ((a.purpose, a.faces), (b.purpose, b.faces)),
                    {"unit": self.unit, "target": self.target})


def _judge(setup: BattleSetup, state: ToyState) -> ToyState:
    for side in Side:
        keys = [b.key for b in setup.brigades if _side(setup, b.key) == side]
        lost = sum(1 for k in keys if state.dead[k])
        if keys and lost >= ceil(len(keys) / 2):
            return replace(state, result=side.enemy.value,
                           reason=f"the {side.value} have lost {lost} of {len(keys)} units")
    return state


def _replay(setup: BattleSetup, steps: Sequence[Step]) -> ToyState:
    return patched(_plain(_start(setup)), (s.patch for s in steps), ("dead",), ToyState)


@dataclass(frozen=True)
class Plain:
    """An action that rolls nothing: the umpire's decision or the finish."""

    setup: BattleSetup
    steps: tuple[Step, ...]
    name: str
    inputs: Mapping[str, Any]

    def chance_outcomes(self) -> Odds:
        """Nothing is rolled."""
        return ()

    def apply(self, typed: Typed | None = None) -> Step:
        """Record the decision, or close the decided battle."""
        if typed:
            raise ActionRefused(f"{self.name} rolls no dice; a typed roll is not taken")
        state = _replay(self.setup, self.steps)
        if state.finished:
            raise ActionRefused("the battle is already finished")
        if self.name == "finish":
            if not state.result:
                raise ActionRefused("the battle is undecided: a side loses with half its units")
            after = replace(state, finished=True)
            lines: tuple[str, ...] = (f"The battle is finished: {state.result} – {state.reason}",)
        else:
            try:
                side = side_named(str(self.inputs.get("side", "")), allow_draw=True)
            except ValueError as exc:
                raise ActionRefused(str(exc)) from None
            reason = str(self.inputs.get("reason", "")).strip()
            after = replace(state, result="draw" if side is None else side.value,
                            reason=f"the umpire's decision: {reason}", umpire=True)
            lines = (f"The umpire decides: {after.result} ({reason})",)
        return Step(self.name, f"{self.name.capitalize()}: {after.result}", lines,
                    state_patch(_plain(state), _plain(after), ("dead",)))


class ToyEngine(UnitsEngine[ToyState]):
    """The toy ruleset behind the Engine protocol."""

    actions = ACTIONS

    def replay(self, setup: BattleSetup, steps: Sequence[Step]) -> ToyState:
        self.own(setup)
        return _replay(setup, steps)

    def action(self, setup: BattleSetup, steps: Sequence[Step], name: str,
               inputs: Mapping[str, Any]) -> Duel | Plain:
        self.own(setup)
        if name == "duel":
            for needed in ("unit", "target"):
                if not inputs.get(needed):
                    raise ActionRefused(f"duel needs its '{needed}'")
            return Duel(setup, tuple(steps), str(inputs["unit"]), str(inputs["target"]))
        if name in ("override", "finish"):
            return Plain(setup, tuple(steps), name, dict(inputs))
        raise ActionRefused(f"'{name}' is not an action of ruleset {NAME}")

    def closed(self, setup: BattleSetup, steps: Sequence[Step]) -> bool:
        return self.replay(setup, steps).finished

    def decision(self, setup: BattleSetup, state: ToyState) -> Decision:
        if not state.result:
            return Decision(None, "undecided: a side loses with half its units")
        ended = Termination.UMPIRE if state.umpire else Termination.ARMY_BROKE
        return Decision(Outcome.of(ended, state.result), state.reason)

    def report(self, setup: BattleSetup, steps: Sequence[Step]) -> list[str]:
        return [setup.title, f"Rules: {NAME}", *(line for s in steps for line in s.lines)]

    def _outcomes(self, setup: BattleSetup, dead: Mapping[str, bool]) -> list[BrigadeOutcome]:
        return [BrigadeOutcome(b.key, b.name, b.corps, 0, MoraleState.FORMED, dead[b.key])
                for b in setup.brigades]

    def casualties(self, setup: BattleSetup, state: ToyState) -> dict[str, dict[str, int]]:
        return campaign_casualties(setup, self._outcomes(setup, state.dead),
                                   self._outcomes(setup, _start(setup).dead), _none_lost)

    def auto_casualties(self, setup: BattleSetup,
                        result: AutoResult) -> dict[str, dict[str, int]]:
        return campaign_casualties(setup, result.brigades,
                                   self._outcomes(setup, _start(setup).dead), _none_lost)

    def units_table(self, setup: BattleSetup, state: ToyState) -> Table:
        rows = tuple((b.name, _side(setup, b.key), "killed" if state.dead[b.key] else "")
                     for b in setup.brigades)
        return Table(("Unit", "Side", "Fate"), rows, tuple(b.key for b in setup.brigades))

    def step_now(self, setup: BattleSetup, state: ToyState) -> str:
        return f"decided: {state.reason}" if state.result else "duels"

    def who_acts(self, setup: BattleSetup, state: ToyState) -> tuple[str, ...]:
        return () if state.result else tuple(k for k, d in state.dead.items() if not d)

    def mapping(self, setup: BattleSetup) -> Table:
        return Table(("Brigade", "Becomes"), tuple((b.name, "a unit") for b in setup.brigades))

    def tallies(self, setup: BattleSetup) -> Mapping[str, Tally]:
        return {b.key: Tally(1, 0, "unit", "killed in one duel") for b in setup.brigades}

    def resolve(self, setup: BattleSetup, seed: int | None = None) -> AutoResult:
        used = setup.seed if seed is None else seed
        winner, dead = _fight(setup, used)
        return AutoResult(auto_outcome(winner), "duels until a side has lost half", 0, used,
                          tuple(self._outcomes(setup, dead)), ())

    def estimate(self, setup: BattleSetup, runs: int, seed: int = 0,
                 progress: Progress = None) -> AutoOdds:
        return count_results(runs, lambda run: _fight(setup, run_seed(seed, run))[0], progress)


def _fight(setup: BattleSetup, seed: int) -> tuple[str | None, dict[str, bool]]:
    """An abstract battle: random duels between living enemies until one side has lost."""
    rng = random.Random(seed)
    state = _start(setup)
    while not state.result:
        alive = [k for k, d in state.dead.items() if not d]
        unit = rng.choice(alive)
        target = rng.choice([k for k in alive if _side(setup, k) != _side(setup, unit)])
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a != b:
            dead = dict(state.dead)
            dead[unit if a < b else target] = True
            state = _judge(setup, replace(state, dead=dead))
    return (None if state.result == "draw" else state.result), dict(state.dead)


def _none_lost(b: BrigadeSetup, gained: int) -> Fraction:
    """A unit is alive or killed: nothing between."""
    return Fraction(0)


def register_toy() -> None:
    """Add the toy ruleset to the registry, from outside the product."""
    from campaign1813.campaign.battle import registry

    registry.register(NAME, ToyEngine)


def unregister_toy() -> None:
    """Take it away again."""
    from campaign1813.campaign.battle import registry

    registry.unregister(NAME)
