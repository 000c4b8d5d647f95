"""The engine of ruleset 004 (seed 004): units of four 25 % steps; alternate moves,
simultaneous fire, melee; the finish step closes the decided battle."""

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
from campaign1813.campaign.battle.ruleset004 import autoresolve, battle
from campaign1813.campaign.battle.ruleset004.battle import BattleState
from campaign1813.campaign.battle.ruleset004.convert import (
    MAPPING_HEADERS,
    SIDES,
    general_of,
    mapping_rows,
)
from campaign1813.campaign.battle.ruleset004.morale import army_lost
from campaign1813.campaign.battle.ruleset004.units import FULL_STEPS, STEP_PERCENT, Kind
from campaign1813.campaign.battle.setup import BattleSetup, BrigadeSetup, campaign_rout_point

__all__ = ["Engine004", "ACTION_SPECS"]


def _i(name: str, kind: str, help: str, required: bool = False,
       fields: tuple[Input, ...] = ()) -> Input:
    return Input(name, kind, help, required, fields)


_UNIT = _i("unit", "unit", "the unit", True)
_TARGET = _i("target", "unit", "the enemy unit", True)
_SIDE = _i("side", "side", "French or Allied", True)
_OVERRIDE = ActionSpec("override", "the umpire's own decision, with a reason",
                       (_i("side", "text", "French, Allied or draw", True),
                        _i("reason", "text", "the umpire's reason", True)))
_FINISH = ActionSpec("finish", "close the decided battle and give its result to the campaign")

ACTION_SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("national", "before the battle: a nation's characteristics",
               (_i("nation", "text", "the nation, as its brigades name it", True),
                _i("characteristics", "text", "the set of national.toml (none: clear)"))),
    ActionSpec("first-move", "dice for the first move", rolls=True),
    ActionSpec("move", "a unit of the side to move moves (and may charge)",
               (_UNIT, _i("distance_cm", "number", "how far (default: its full move)"),
                _i("changes", "text", "firing order, leave firing order, or limber"),
                _i("wheel_degrees", "whole", "degrees wheeled"),
                _i("about_turns", "whole", "about-turns"),
                _i("fires", "flag", "light troops: a half move, then fire"),
                _i("charge", "unit", "the enemy unit charged"),
                _i("face", "text", "front, flank or rear of the unit charged"),
                _i("foot_near_gun_cm", "number", "foot this near the guns charged"),
                _i("no_variation", "text", "why the variation is ignored")), rolls=True),
    ActionSpec("attach", "the side's general joins a unit (none: rides alone)",
               (_SIDE, _i("unit", "unit", "the unit he joins"))),
    ActionSpec("done", "the side has moved all it wishes", (_SIDE,)),
    ActionSpec("fire", "a unit fires; its hits are held until the fire is over",
               (_UNIT, _TARGET, _i("shot", "text", "musketry, canister or roundshot"),
                _i("distance_cm", "number", "the range"),
                _i("cover", "flag", "the target is in cover"),
                _i("one_rank", "flag", "firing by one rank"),
                _i("over_heads", "flag", "guns firing over friends' heads")), rolls=True),
    ActionSpec("end-fire", "all fire takes effect at once; the morale tests it causes",
               (_i("supported", "map", "unit → the friendly unit behind it"),),
               rolls=True),
    ActionSpec("melee", "a charge made this turn is fought out",
               (_i("attacker", "unit", "the charging unit", True),
                _i("defender", "unit", "the unit charged", True),
                _i("options", "group", "the table's facts", fields=(
                    _i("face", "text", "front, flank or rear"),
                    _i("attacker_extra", "flag", "the attacker has the extra die"),
                    _i("attacker_cover", "flag", "the attacker is in cover"),
                    _i("attacker_in_wood", "flag", "the attacker is in a wood"),
                    _i("defender_extra", "flag", "the defender has the extra die"),
                    _i("defender_cover", "flag", "the defender is in cover"),
                    _i("defender_in_wood", "flag", "the defender is in a wood"),
                    _i("foot_near_gun_cm", "number", "foot this near the guns"),
                    _i("obstructed_by", "unit", "the unit the loser retreats into"),
                    _i("supported", "map", "unit → the friendly unit behind it")))),
               rolls=True),
    ActionSpec("end-turn", "end the turn"),
    _OVERRIDE,
    _FINISH,
)


class Engine004(UnitsEngine[BattleState]):
    """Seed 004's battle behind the :class:`~campaign1813.campaign.battle.core.engine.Engine`
    protocol."""

    actions = ACTION_SPECS
    unit_headers = ("Unit", "Side", "Kind", "Quality", "Effectiveness", "Order", "This turn")

    def replay(self, setup: BattleSetup, steps: Sequence[Step]) -> BattleState:
        self.own(setup)
        return battle.replay(setup, list(steps))

    def action(self, setup: BattleSetup, steps: Sequence[Step], name: str,
               inputs: Mapping[str, Any]) -> StepAction:
        self.own(setup)
        return StepAction(setup, tuple(steps), name, dict(inputs), _take, battle.odds)

    def closed(self, setup: BattleSetup, steps: Sequence[Step]) -> bool:
        return self.replay(setup, steps).finished

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
                     tuple(u.key for u in battle.forces(setup, state).units))

    def step_now(self, setup: BattleSetup, state: BattleState) -> str:
        return battle.step_now(setup, state)

    def who_acts(self, setup: BattleSetup, state: BattleState) -> tuple[str, ...]:
        return tuple(battle.who_acts(setup, state))

    def mapping(self, setup: BattleSetup) -> Table:
        return Table(MAPPING_HEADERS, tuple(tuple(r) for r in mapping_rows(setup)))

    def tallies(self, setup: BattleSetup) -> Mapping[str, Tally]:
        # A box a 25 % step lost; the unit is gone with the last.
        self.own(setup)
        out = {}
        for u in battle.forces(setup).units:
            kind = u.kind.value + (" (cuirassiers)" if u.cuirassiers else "")
            out[u.key] = Tally(FULL_STEPS, FULL_STEPS - u.steps, f"{kind}, {u.quality.value}",
                               f"{STEP_PERCENT} % steps; gone at 0 %")
        return out

    def sheet(self, setup: BattleSetup) -> RulesetSheet:
        """Seed 004's own figures: its turn sequence, the four 25 % steps of a unit, when an
        army has lost, each army's general, and each unit's bases."""
        self.own(setup)
        f = battle.forces(setup)
        sequence = ("1. Dice for the first move; the winner moves a unit, then the other side, "
                    "turn about, until both have moved all they wish.",
                    "2. Musketry and artillery fire, all at once; the morale tests it causes.",
                    "3. Melees: every charge made this turn (and every tie from the last) is "
                    "fought before the turn ends.")
        notes = [f"Each unit has {FULL_STEPS} steps of {STEP_PERCENT} %; it is gone when the "
                 "last is lost. An officer figure behind a unit shows the steps lost."]
        for side in SIDES:
            start = len(f.army(side).units)
            left = next(n for n in range(start, -1, -1) if army_lost(start, n))
            notes.append(f"The {side} have lost when {left} of their {start} units (the "
                         "general counted) are left.")
        notes += late_arrivals_note(setup)
        leaders = []
        for side in SIDES:
            g = general_of(setup, side)
            leaders.append(f"{g.name}: the {side} general, a unit of his own; he may join a "
                           "unit (+1 to its morale) and falls with it")
        bases = {u.key: _BASES[u.kind] for u in f.units if u.kind is not Kind.GENERAL}
        mapping = ("Each brigade or battery is one unit: infantry close-order foot in firing "
                   "order (skirmish A: light foot); lancers; heavy cavalry heavy horse "
                   "(cuirassiers when rated A); medium cavalry heavy horse; light cavalry light "
                   "horse; batteries guns.",
                   "Quality by the corps commander's grade (Gifted elite, Average regular, Poor "
                   "poor), one better for a brigade rated A, one worse for C. Each army's "
                   "general is its CinC, else its best-graded corps commander.")
        return RulesetSheet(sequence, tuple(notes), tuple(leaders), bases, mapping)

    def resolve(self, setup: BattleSetup, seed: int | None = None) -> AutoResult:
        self.own(setup)
        return autoresolve.resolve(setup, seed)

    def estimate(self, setup: BattleSetup, runs: int, seed: int = 0,
                 progress: Progress = None) -> AutoOdds:
        self.own(setup)
        return autoresolve.estimate(setup, runs, seed, progress)


def _take(setup: BattleSetup, steps: Sequence[Step], name: str, inputs: Mapping[str, Any],
          typed: Typed | None) -> Step:
    if name == "finish" and typed:
        raise ActionRefused("finish rolls no dice; a typed roll is not taken")
    return battle.act(setup, list(steps), name, typed=typed, **inputs)


# Seed 004: every base is 40 × 20 mm; an officer figure behind shows the steps lost.
_BASES = {Kind.FOOT: "2 bases in line", Kind.LIGHT_FOOT: "2 loose bases",
          Kind.HEAVY_HORSE: "6 troopers", Kind.LANCERS: "6 lancers",
          Kind.LIGHT_HORSE: "6 troopers", Kind.GUNS: "a gun and crew"}


def _lost(b: BrigadeSetup, gained: int) -> Fraction:
    """The campaign's casualties of ``gained`` steps lost: a step is a quarter of the rout
    point."""
    return Fraction(gained * campaign_rout_point(b.arm), FULL_STEPS)


# the class is an Engine of its state (mypy --strict checks it here)
_AN_ENGINE: Callable[[str], Engine[BattleState]] = Engine004
