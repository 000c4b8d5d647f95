"""Auto-resolve for ruleset 002: a battle fought without a table, by the same procedures.

:func:`resolve` fights one abstract battle from a setup: each turn a D6 finds side A. The
armies deploy 24 inches apart, the artillery's range; the guns stand and shoot from the first
turn, while foot and horse close 6 inches a side each turn until 6 inches apart (12, then 6),
where movement stops: on the turn they arrive infantry shoot as having moved, skirmishers shoot
and cavalry charge; from then on everyone stands and shoots. Every shot
and charge is :mod:`.shooting`'s and :mod:`.charges`' own, on seeded dice. Each shooter aims at
the enemy unit nearest elimination (cavalry last); cavalry retire from a shot once they carry
6 hits or more (halving it, and giving up their charge); each cavalry unit that may charges,
overrunning guns left without infantry, else skirmishers, else the infantry nearest
elimination, else cavalry, never a unit charged already that turn. A commander whose unit falls
joins another infantry unit in the next movement. Without movement after the first turn there
is nothing to rally from, so no rally is made. A corps marching to the sound of the guns
comes on at its turn, as at the table: until then its units neither shoot, charge nor are
shot at. The victory condition is the battle's.
:func:`estimate` fights many such battles and counts who won, with 95 % Wilson intervals.

>>> from campaign1813.campaign.battle.ruleset002.auto import _order
>>> _order(1)
('French', 'Allied')
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from math import ceil

from campaign1813.campaign.battle.core.results import (
    AutoOdds,
    AutoResult,
    BrigadeOutcome,
    auto_outcome,
    count_results,
    run_seed,
)
from campaign1813.campaign.battle.ruleset002.battle import army_of
from campaign1813.campaign.battle.ruleset002.charges import Charge, charge_hits
from campaign1813.campaign.battle.ruleset002.convert import SIDES, Army
from campaign1813.campaign.battle.ruleset002.shooting import Shot, hits_for
from campaign1813.campaign.battle.ruleset002.tables import Tables, tables
from campaign1813.campaign.battle.ruleset002.units import INFANTRY_KINDS, UnitKind
from campaign1813.campaign.battle.setup import ALLIED, FRENCH, BattleSetup
from campaign1813.campaign.battle.terms import MoraleState

__all__ = ["resolve", "estimate", "RETIRE_AT", "START_INCHES"]

# Cavalry this worn retire from a shot rather than stand and take it whole.
RETIRE_AT = 6
# The armies deploy this far apart: the artillery's range.
START_INCHES = 24
_STEP_KINDS = {"artillery": (UnitKind.ARTILLERY,), "skirmishers": (UnitKind.SKIRMISHERS,),
               "stationary infantry": (UnitKind.INFANTRY, UnitKind.ELITE),
               "moved infantry": (UnitKind.INFANTRY, UnitKind.ELITE)}


def _order(roll: int, french_a_on: frozenset[int] = frozenset({1, 2, 3})) -> tuple[str, str]:
    return (FRENCH, ALLIED) if roll in french_a_on else (ALLIED, FRENCH)


@dataclass
class _Unit:
    key: str
    name: str
    side: str
    kind: UnitKind
    corps: str
    hits: int
    limit: int
    gone: bool = False
    retired: bool = False
    charged: int = 0
    commander: str = ""


class _Over(Exception):
    """The victory condition is met."""


class _Battle:
    def __init__(self, setup: BattleSetup, army: Army, t: Tables, seed: int, log: bool):
        self.setup, self.t = setup, t
        self.rng = random.Random(seed)
        self.log: list[str] | None = [] if log else None
        self.units = [_Unit(u.key, u.name, u.side, u.kind, u.corps, u.hits,
                            t.units[u.kind].eliminated_over) for u in army.units]
        self.by_key = {u.key: u for u in self.units}
        self.due = {c.key: c.turn for c in setup.corps}
        self.commanders = {x.key: x.unit for x in army.leaders if not x.general}
        for c, k in self.commanders.items():
            self.by_key[k].commander = c
        self.start = {s: sum(1 for u in self.units if u.side == s) for s in SIDES}
        self.needed = {s: ceil(t.victory_share * self.start[s]) for s in SIDES}
        self.winner: str | None = None
        self.reason = ""
        self.turn = 0
        self.gap = START_INCHES

    def say(self, line: str) -> None:
        if self.log is not None:
            self.log.append(line)

    def d6(self) -> int:
        return self.rng.randint(1, 6)

    def live(self, side: str) -> list[_Unit]:
        """A side's units still in the battle and on the table (a corps marching to the sound
        of the guns comes on at its turn)."""
        return [u for u in self.units if u.side == side and not u.gone
                and self.due[u.corps] <= max(1, self.turn)]

    def lost(self, side: str) -> int:
        return sum(1 for u in self.units if u.side == side and u.gone)

    def hit(self, u: _Unit, hits: int) -> None:
        u.hits += hits
        if self.t.eliminated(u.kind, u.hits):
            u.gone = True
            self.say(f"    {u.name} is eliminated ({u.hits} hits)")
            if u.commander:
                self.commanders[u.commander] = ""
                u.commander = ""
            for s in SIDES:
                if self.lost(s) >= self.needed[s]:
                    winner = ALLIED if s == FRENCH else FRENCH
                    self.winner = winner
                    self.reason = (f"the {winner} eliminated {self.lost(s)} of the "
                                   f"{self.start[s]} {s} units (needed {self.needed[s]})")
                    raise _Over

    def target(self, side: str) -> _Unit | None:
        enemy = self.live(ALLIED if side == FRENCH else FRENCH)
        if not enemy:
            return None
        return max(enemy, key=lambda u: (u.kind is not UnitKind.CAVALRY, u.hits - u.limit))

    def reattach(self, side: str) -> None:
        for c, k in self.commanders.items():
            if k or self.setup.commander(c).side != side:
                continue
            free = [u for u in self.live(side) if u.kind in INFANTRY_KINDS and not u.commander]
            if free:
                free[0].commander = c
                self.commanders[c] = free[0].key
                self.say(f"  {self.setup.commander(c).name} joins {free[0].name}")

    def shoot(self, u: _Unit, moved: bool) -> None:
        aim = self.target(u.side)
        if aim is None:
            return
        retire = aim.kind is UnitKind.CAVALRY and aim.hits >= RETIRE_AT
        shot = Shot(u.kind, aim.kind, bool(u.commander), False, False, retire, None, moved)
        n = 2 if u.commander else 1
        faces = tuple(self.d6() for _ in range(n))
        hits = hits_for(shot, faces, self.t.name)
        self.say(f"    {u.name} shoots at {aim.name}: rolled "
                 f"{' and '.join(map(str, faces))}, {hits} hit{'s' if hits != 1 else ''}"
                 + (" (the cavalry retire)" if retire else ""))
        if retire:
            aim.retired = True
        self.hit(aim, hits)

    def charge(self, u: _Unit) -> None:
        enemy = [e for e in self.live(ALLIED if u.side == FRENCH else FRENCH)
                 if e.charged < self.t.charges_per_target]
        if not enemy:
            return
        infantry_left = any(e.kind in INFANTRY_KINDS for e in enemy)
        guns = [e for e in enemy if e.kind is UnitKind.ARTILLERY and not infantry_left]
        skirm = [e for e in enemy if e.kind is UnitKind.SKIRMISHERS]
        foot = [e for e in enemy if e.kind in INFANTRY_KINDS]
        horse = [e for e in enemy if e.kind is UnitKind.CAVALRY]
        pool = guns or skirm or foot or horse
        if not pool:
            return
        aim = max(pool, key=lambda e: e.hits - e.limit)
        aim.charged += 1
        if aim.kind is UnitKind.ARTILLERY:
            self.say(f"    {u.name} charge {aim.name}: the guns are overrun")
            aim.hits = max(aim.hits, aim.limit + 1)
            self.hit(aim, 0)
            return
        face = self.d6()
        hits = charge_hits(Charge(aim.kind), face, self.t.name)
        self.say(f"    {u.name} charge {aim.name}: rolled {face}, {hits} hits")
        self.hit(aim, hits)

    def fight(self) -> int:
        try:
            for turn in range(1, self.setup.turns + 1):
                self.turn = turn
                self.play_turn(turn)
        except _Over:
            self.say(f"Result: the {self.winner} win – {self.reason}")
            return self.turn
        lost = {s: self.lost(s) for s in SIDES}
        if lost[FRENCH] == lost[ALLIED]:
            self.winner, self.reason = None, (f"after the last turn each side has lost "
                                              f"{lost[FRENCH]} units")
            self.say(f"Result: a draw – {self.reason}")
        else:
            self.winner = FRENCH if lost[ALLIED] > lost[FRENCH] else ALLIED
            self.reason = (f"a marginal victory: after the last turn the {self.winner} have "
                           f"eliminated more units ({lost[FRENCH]} French, {lost[ALLIED]} "
                           "Allied lost)")
            self.say(f"Result: the {self.winner} win – {self.reason}")
        return self.setup.turns

    def play_turn(self, turn: int) -> None:
        roll = self.d6()
        order = _order(roll, self.t.french_a_on)
        self.say(f"Turn {turn}: rolled {roll}, side A: {order[0]}")
        for u in self.units:
            u.retired, u.charged = False, 0
        for side in order:
            self.reattach(side)
        # The foot and horse close 6 inches a side each turn, halting 6 inches off (the seed
        # stops movement there); the guns stay where they deployed, in range of everything.
        musket = self.t.fire[UnitKind.INFANTRY].range_inches
        moving = self.gap > musket
        if moving:
            before = self.gap
            self.gap = max(musket, self.gap - 2 * self.t.units[UnitKind.INFANTRY].move_inches)
            self.say(f"  Both lines advance: {before} inches apart, now {self.gap}")
        close = self.gap <= musket
        for step in self.t.steps:
            if step != "artillery" and not close:
                continue
            if step in ("stationary infantry", "moved infantry") and (
                    (step == "moved infantry") != moving):
                continue
            for side in order:
                shooters = [u for u in self.live(side) if u.kind in _STEP_KINDS[step]]
                if shooters:
                    self.say(f"  {step.capitalize()} shooting – {side}")
                for u in shooters:
                    if not u.gone:
                        self.shoot(u, moving and u.kind is not UnitKind.ARTILLERY)
        if not close:
            return
        for side in order:
            riders = [u for u in self.live(side) if u.kind is UnitKind.CAVALRY and not u.retired]
            if riders:
                self.say(f"  Cavalry charges – {side}")
            for u in riders:
                if not u.gone:
                    self.charge(u)

    def outcomes(self) -> tuple[BrigadeOutcome, ...]:
        return tuple(BrigadeOutcome(u.key, u.name, u.corps, u.hits,
                                    MoraleState.ROUT if u.gone else MoraleState.FORMED, u.gone)
                     for u in self.units)


def _prepare(setup: BattleSetup) -> tuple[Army, Tables]:
    army = army_of(setup)
    return army, tables(setup.ruleset)


def resolve(setup: BattleSetup, seed: int | None = None) -> AutoResult:
    """Fight one abstract battle; ``seed`` defaults to the setup's. Same seed, same battle.

    A unit's ``casualties`` in the result are its hits; an eliminated unit is ``destroyed``.
    """
    army, t = _prepare(setup)
    used = setup.seed if seed is None else seed
    battle = _Battle(setup, army, t, used, True)
    turns = battle.fight()
    assert battle.log is not None
    head = [f"{setup.title[0].upper()}{setup.title[1:]} (auto-resolved, ruleset {t.name}, "
            f"seed {used})"]
    return AutoResult(auto_outcome(battle.winner), battle.reason, turns, used, battle.outcomes(),
                      tuple(head + battle.log))


def estimate(setup: BattleSetup, runs: int, seed: int = 0,
             progress: Callable[[int, int], bool | None] | None = None) -> AutoOdds:
    """Fight ``runs`` battles (run ``i`` seeded by ``run_seed(seed, i)``) and count the wins.

    ``progress(done, total)`` is called after every hundredth of the runs and at the end; if it
    returns False the estimate stops there and says how many runs it made.
    """
    if runs < 1:
        raise ValueError(f"an estimate needs at least one run, not {runs}")
    army, t = _prepare(setup)

    def winner_of(run: int) -> str | None:
        battle = _Battle(setup, army, t, run_seed(seed, run), False)
        battle.fight()
        return battle.winner

    return count_results(runs, winner_of, progress)
