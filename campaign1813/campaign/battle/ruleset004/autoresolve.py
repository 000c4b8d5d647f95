"""Auto-resolve for ruleset 004: an abstract battle fought with the ruleset's own procedures.

There is no table: each turn the guns fire roundshot (canister once the lines have closed, from
turn 2), foot and carbines fire at the enemy's foot and horse, every hit is held until all have
fired and then the morale tests are taken; from turn 2 the horse charge whom the seed lets them,
from turn 3 the foot with three steps or more charge foot and guns. A melee's loser retreats and
tests. A corps marching to the sound of the guns fights from its turn, as at the table.
Targets are drawn by a seeded generator of its own, so a seed gives one battle. The
battle ends when an army falls below half its units, or at nightfall as a draw.

The results are the 1813 auto-resolve's (:class:`AutoResult`, :class:`AutoOdds`): a unit's
``casualties`` are the steps it lost, an eliminated unit is ``destroyed``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from campaign1813.campaign.battle.core.results import (
    AutoOdds,
    AutoResult,
    BrigadeOutcome,
    auto_outcome,
    count_results,
    run_seed,
)
from campaign1813.campaign.battle.core.steps import ActionRefused
from campaign1813.campaign.battle.dice import DiceSource, SeededDice
from campaign1813.campaign.battle.ruleset004 import fire as fire_rules
from campaign1813.campaign.battle.ruleset004 import melee as melee_rules
from campaign1813.campaign.battle.ruleset004.battle import arrival_turn
from campaign1813.campaign.battle.ruleset004.convert import SIDES, Forces, convert
from campaign1813.campaign.battle.ruleset004.morale import army_lost, morale_test
from campaign1813.campaign.battle.ruleset004.units import Kind, Unit
from campaign1813.campaign.battle.setup import BattleSetup
from campaign1813.campaign.battle.terms import MoraleState

__all__ = ["resolve", "estimate"]

# Turns from which each kind of fighting begins: the lines close, then the horse, then the foot.
CANISTER_FROM = 2
HORSE_CHARGE_FROM = 2
FOOT_CHARGE_FROM = 3
FOOT_CHARGE_STEPS = 3


@dataclass
class _Fight:
    forces: Forces
    dice: DiceSource
    pick: random.Random
    steps: dict[str, int]
    generals: dict[str, str]
    log: list[str] | None
    due: dict[str, int]
    turn: int = 1
    winner: str | None = None
    reason: str = ""

    def alive(self, side: str, fighting: bool = True) -> list[Unit]:
        """A side's units left; those fighting this turn: on the table (a corps marching to
        the sound of the guns arrives at its turn) and no general."""
        return [u for u in self.forces.army(side).units if self.steps[u.key] > 0
                and (not fighting or (u.kind is not Kind.GENERAL
                                      and self.due[u.key] <= self.turn))]

    def note(self, line: str) -> None:
        if self.log is not None:
            self.log.append(line)

    def unit(self, u: Unit) -> Unit:
        return replace(u, steps=self.steps[u.key])

    def lose(self, u: Unit, steps: int) -> None:
        self.steps[u.key] = max(0, self.steps[u.key] - steps)
        if self.steps[u.key] == 0:
            self.note(f"  {u.name} is eliminated")
            for side, key in self.generals.items():
                if key == u.key:
                    general = self.forces.army(side).general
                    self.steps[general] = 0
                    self.note(f"  The {side} general falls with {u.name}")

    def judge(self) -> bool:
        lost = [s for s in SIDES if army_lost(len(self.forces.army(s).units),
                                              len(self.alive(s, fighting=False)))]
        if len(lost) == 2:
            self.winner, self.reason = None, "both armies fell below half their units at once"
        elif lost:
            self.winner = SIDES[1] if lost[0] == SIDES[0] else SIDES[0]
            self.reason = f"the {lost[0]} army fell below half its units"
        else:
            return False
        return True


def _general_post(forces: Forces, side: str, due: Mapping[str, int]) -> str:
    """The general rides with the army's first close-order foot on the table from the first
    turn (else its first unit)."""
    units = [u for u in forces.army(side).units if u.kind is not Kind.GENERAL
             and due[u.key] <= 1] or [u for u in forces.army(side).units
                                      if u.kind is not Kind.GENERAL]
    foot = [u for u in units if u.kind is Kind.FOOT]
    return (foot or units or [forces.army(side).units[0]])[0].key


def _fire_phase(f: _Fight, turn: int) -> None:
    held: dict[str, int] = {}
    for side in SIDES:
        enemies = f.alive(SIDES[1] if side == SIDES[0] else SIDES[0])
        if not enemies:
            continue
        for u in f.alive(side):
            shooter = f.unit(u)
            target = f.pick.choice(enemies)
            aim = fire_rules.Target(target.kind, cuirassiers=target.cuirassiers)
            if u.kind is Kind.GUNS:
                shot = fire_rules.Shot.CANISTER if turn >= CANISTER_FROM else \
                    fire_rules.Shot.ROUNDSHOT
                result = fire_rules.artillery(fire_rules.Battery(shot, shooter.steps), aim,
                                              f.dice, u.name)
            elif u.kind.foot or u.kind is Kind.LIGHT_HORSE:
                if turn < CANISTER_FROM:
                    continue  # beyond musket range while the lines close
                result = fire_rules.musketry(fire_rules.Volley(u.kind, shooter.steps), aim,
                                             f.dice, u.name)
            else:
                continue
            held[target.key] = held.get(target.key, 0) + result.standing
            f.note(f"  {result.lines[0]} at {target.name}")
    for u in f.forces.units:
        hits = held.get(u.key, 0)
        if hits and f.steps[u.key] > 0:
            f.lose(u, hits)
    for u in f.forces.units:
        if held.get(u.key, 0) and f.steps[u.key] > 0:
            _test(f, u, "lost 25 % or more to fire")


def _test(f: _Fight, u: Unit, reason: str) -> None:
    test = morale_test(u.name, u.quality, f.dice, general=f.generals.get(u.side) == u.key,
                       reason=reason)
    f.note(f"  {test.line}")
    if not test.passed:
        f.lose(u, 1)


def _melee_phase(f: _Fight, turn: int) -> None:
    fought: set[str] = set()
    for side in SIDES:
        other = SIDES[1] if side == SIDES[0] else SIDES[0]
        for u in f.alive(side):
            if u.key in fought or f.steps[u.key] <= 0:
                continue
            charges = (u.kind.horse and turn >= HORSE_CHARGE_FROM and f.steps[u.key] >= 2) or (
                u.kind is Kind.FOOT and turn >= FOOT_CHARGE_FROM
                and f.steps[u.key] >= FOOT_CHARGE_STEPS)
            if not charges:
                continue
            attacker = melee_rules.Fighter(u.kind, f.steps[u.key], cuirassiers=u.cuirassiers)
            targets = []
            for e in f.alive(other):
                if e.key in fought:
                    continue
                defender = melee_rules.Fighter(e.kind, f.steps[e.key],
                                               cuirassiers=e.cuirassiers)
                try:
                    melee_rules.may_charge(attacker, defender)
                except ActionRefused:
                    continue
                targets.append((e, defender))
            if not targets:
                continue
            e, defender = f.pick.choice(targets)
            fought |= {u.key, e.key}
            result = melee_rules.melee(attacker, defender, f.dice, (u.name, e.name))
            f.note(f"  Melee: {u.name} against {e.name}: {result.lines[-1].split(': ')[-1]}")
            f.lose(u, result.attacker_hits)
            f.lose(e, result.defender_hits)
            if result.verdict is melee_rules.Verdict.GUNS_ELIMINATED:
                for g in (u, e):
                    if g.kind is Kind.GUNS and f.steps[g.key] > 0:
                        f.lose(g, f.steps[g.key])
            elif result.verdict is not melee_rules.Verdict.ANOTHER_ROUND:
                loser = u if result.verdict is melee_rules.Verdict.ATTACKER_RETREATS else e
                if f.steps[loser.key] > 0:
                    _test(f, loser, "lost the melee")


def _fight(setup: BattleSetup, forces: Forces, seed: int, keep_log: bool) -> tuple[_Fight, int]:
    due = {u.key: arrival_turn(setup, u.key) for u in forces.units}
    f = _Fight(forces, SeededDice(seed), random.Random(f"{seed}/targets"),
               {u.key: u.steps for u in forces.units},
               {s: _general_post(forces, s, due) for s in SIDES}, [] if keep_log else None,
               due)
    turn = 0
    for turn in range(1, setup.turns + 1):
        f.turn = turn
        f.note(f"Turn {turn}")
        _fire_phase(f, turn)
        if f.judge():
            break
        _melee_phase(f, turn)
        if f.judge():
            break
    else:
        f.winner, f.reason = None, f"night fell after turn {setup.turns} with neither army lost"
    f.note(f"Result: {f.winner or 'a draw'}: {f.reason}")
    return f, turn


def _outcomes(setup: BattleSetup, f: _Fight) -> tuple[BrigadeOutcome, ...]:
    out = []
    for b in setup.brigades:
        start = f.forces.unit(b.key).steps
        left = f.steps[b.key]
        out.append(BrigadeOutcome(b.key, b.name, b.corps, start - left,
                                  MoraleState.FORMED if left else MoraleState.ROUT, left == 0))
    return tuple(out)


def resolve(setup: BattleSetup, seed: int | None = None) -> AutoResult:
    """Fight one abstract battle; ``seed`` defaults to the setup's. Same seed, same battle."""
    used = setup.seed if seed is None else seed
    f, turns = _fight(setup, convert(setup), used, True)
    assert f.log is not None
    return AutoResult(auto_outcome(f.winner), f.reason, turns, used, _outcomes(setup, f),
                      tuple(f.log))


def estimate(setup: BattleSetup, runs: int, seed: int = 0,
             progress: Callable[[int, int], bool | None] | None = None) -> AutoOdds:
    """Fight ``runs`` battles (run ``i`` seeded by ``run_seed(seed, i)``) and count the results.

    ``progress(done, total)`` is called after every hundredth of the runs and at the end; if it
    returns False the estimate stops there and says how many runs it made.
    """
    if runs < 1:
        raise ValueError(f"an estimate needs at least one run, not {runs}")
    forces = convert(setup)
    return count_results(
        runs, lambda run: _fight(setup, forces, run_seed(seed, run), False)[0].winner, progress)

