"""The typed seam between a battle and its rules: what the battle services, the read models,
the command line and the battle window need of a ruleset's battle (:class:`Engine`), generic in
the ruleset's own state; the action ready to take (:class:`PendingAction`), whose odds and whose
step come from the one object (after OpenSpiel's ``chance_outcomes`` on the state that applies
the action); and the :class:`Decision` a battle gives now."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

from campaign1813.campaign.battle.core.actions import ActionSpec, Odds, Table, Tally, Typed
from campaign1813.campaign.battle.core.outcome import Outcome, Side
from campaign1813.campaign.battle.core.results import AutoOdds, AutoResult, Progress
from campaign1813.campaign.battle.core.steps import Step
from campaign1813.campaign.battle.setup import BattleSetup

__all__ = ["Decision", "PendingAction", "StepAction", "Engine", "TestOdds", "StateT"]

StateT = TypeVar("StateT")


@dataclass(frozen=True)
class Decision:
    """Who has won and why (``outcome``), or why the battle is still undecided (None); the
    battle may be finished once it is decided."""

    outcome: Outcome | None
    reason: str

    @property
    def final(self) -> bool:
        """Whether the battle is decided (and may be finished)."""
        return self.outcome is not None

    @property
    def winner(self) -> Side | None:
        """The side that has won; None for a draw or while undecided."""
        return None if self.outcome is None else self.outcome.winner

    @property
    def result(self) -> str:
        """The result in words: ``French``, ``Allied``, ``draw``, or empty while undecided."""
        return "" if self.outcome is None else self.outcome.result


class PendingAction(Protocol):
    """One action ready to be taken on the battle as it stands, with the umpire's inputs."""

    def chance_outcomes(self) -> Odds:
        """The exact chance of each outcome before the dice are rolled; empty when the action
        rolls nothing the rules give a single outcome for."""

    def apply(self, typed: Typed | None = None) -> Step:
        """Take the action (the umpire's typed faces, else the step's seeded dice): the step to
        keep, or ``ActionRefused`` when the rules do not allow it."""


# a ruleset's step and odds functions: (setup, steps, action, inputs) → …
TakeStep = Callable[[BattleSetup, Sequence[Step], str, Mapping[str, Any], "Typed | None"], Step]
OddsOf = Callable[[BattleSetup, Sequence[Step], str, Mapping[str, Any]], Odds]


@dataclass(frozen=True)
class StepAction:
    """A :class:`PendingAction` of a ruleset whose step and odds are two functions of its
    package that build the roll the same way (its shot, charge or test)."""

    setup: BattleSetup
    steps: tuple[Step, ...]
    name: str
    inputs: Mapping[str, Any]
    take: TakeStep = field(repr=False)
    odds_of: OddsOf = field(repr=False)

    def chance_outcomes(self) -> Odds:
        """The exact chance of each outcome before the dice are rolled."""
        return self.odds_of(self.setup, self.steps, self.name, self.inputs)

    def apply(self, typed: Typed | None = None) -> Step:
        """Take the action: the step to keep."""
        return self.take(self.setup, self.steps, self.name, self.inputs, typed)


class Engine(Protocol[StateT]):
    """A ruleset's battle: its actions, its state from the steps kept, and what it gives."""

    ruleset: str
    actions: tuple[ActionSpec, ...]
    chips: bool  # whether the battle is fought by chips drawn from a bag (the 1813 rules)

    def replay(self, setup: BattleSetup, steps: Sequence[Step]) -> StateT:
        """The battle's state after these steps (refused for a setup of another ruleset)."""

    def action(self, setup: BattleSetup, steps: Sequence[Step], name: str,
               inputs: Mapping[str, Any]) -> PendingAction:
        """An action on the battle after these steps, ready for its odds and to be taken."""

    def closed(self, setup: BattleSetup, steps: Sequence[Step]) -> bool:
        """Whether the battle has been finished (its result may go to the campaign)."""

    def decision(self, setup: BattleSetup, state: StateT) -> Decision:
        """Who has won and why, or why it is undecided."""

    def report(self, setup: BattleSetup, steps: Sequence[Step]) -> list[str]:
        """The battle report: title, rules, the two sides, then every step's lines."""

    def casualties(self, setup: BattleSetup, state: StateT) -> dict[str, dict[str, int]]:
        """Each command's casualties by campaign brigade key, in the campaign's terms."""

    def auto_casualties(self, setup: BattleSetup,
                        result: AutoResult) -> dict[str, dict[str, int]]:
        """The same for an auto-resolved battle."""

    def units_table(self, setup: BattleSetup, state: StateT) -> Table:
        """A row per unit for the window's table, with the unit keys."""

    def step_now(self, setup: BattleSetup, state: StateT) -> str:
        """Where the battle stands, in one line."""

    def who_acts(self, setup: BattleSetup, state: StateT) -> tuple[str, ...]:
        """The units that may act now (their keys)."""

    def broken(self, setup: BattleSetup,
               state: StateT) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The corps broken and the armies lost now."""

    def mapping(self, setup: BattleSetup) -> Table:
        """How the campaign's brigades and commanders become the ruleset's units."""

    def tallies(self, setup: BattleSetup) -> Mapping[str, Tally]:
        """Each brigade's casualty tally at the start, by brigade key (the setup sheet's)."""

    def setup_lines(self, setup: BattleSetup, state: StateT) -> list[str]:
        """The setup's forces as the command line prints them under the table."""

    def status_lines(self, setup: BattleSetup, state: StateT) -> list[str]:
        """The battle now as the command line's ``show`` prints it."""

    def status_json(self, setup: BattleSetup, state: StateT) -> dict[str, Any]:
        """What ``show --json`` adds to the state and the decision."""

    def resolve(self, setup: BattleSetup, seed: int | None = None) -> AutoResult:
        """One abstract battle."""

    def estimate(self, setup: BattleSetup, runs: int, seed: int = 0,
                 progress: Progress = None) -> AutoOdds:
        """Win, draw and loss over many abstract battles."""


@runtime_checkable
class TestOdds(Protocol):
    """An engine whose rules are tests with odds of their own (the 1813 rules' ``battle …
    odds TEST``): a test's exact odds, rule and the facts it reads, before it is rolled."""

    def prepare(self, setup: BattleSetup, state: Any, test: str, who: str, target: str,
                options: Mapping[str, Any]) -> Any:
        """The test prepared: ``test``, ``rule``, ``known`` (lines) and ``odds``."""
