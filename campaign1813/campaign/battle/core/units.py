"""What the rulesets that fight the campaign's brigades as units of their own share (seeds 002
and 004, and any ruleset added so): the command line's lines from the units' table, the army
lost by the victory condition, and the casualties converted back to the campaign's measure."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic

from campaign1813.campaign.battle.core.actions import Table, casualty_key
from campaign1813.campaign.battle.core.engine import Decision, StateT
from campaign1813.campaign.battle.core.results import BrigadeOutcome
from campaign1813.campaign.battle.core.steps import ActionRefused
from campaign1813.campaign.battle.setup import BattleSetup, BrigadeSetup, campaign_rout_point

__all__ = ["UnitsEngine", "RulesetSheet", "campaign_casualties"]


def _half_up(x: Fraction) -> int:
    return int(x + Fraction(1, 2))


def late_arrivals_note(setup: BattleSetup) -> list[str]:
    """The setup sheet's note of the corps that march to the sound of the guns (seed 000:
    they come on at their turn), or none."""
    late = sorted({c.turn for c in setup.corps if c.turn > 1})
    if not late:
        return []
    return ["Corps marching to the sound of the guns come on at turn "
            f"{', '.join(map(str, late))}: their units neither act nor are acted on before."]


def campaign_casualties(setup: BattleSetup, end: Sequence[BrigadeOutcome],
                        start: Sequence[BrigadeOutcome],
                        lost: Callable[[BrigadeSetup, int], Fraction]) -> dict[str, dict[str, int]]:
    """The casualties the campaign keeps: those each brigade brought, and this battle's losses
    (in the ruleset's own terms) converted back by ``lost`` (rounded half up); an eliminated
    unit and any brigade with more is at its campaign rout point, never past it."""
    before = {o.key: o.casualties for o in start}
    out: dict[str, dict[str, int]] = {}
    for o in end:
        b = setup.brigade(o.key)
        limit = campaign_rout_point(b.arm)
        if o.destroyed:
            total = limit
        else:
            total = min(limit, b.casualties + _half_up(lost(b, o.casualties
                                                             - before.get(o.key, 0))))
        if total:
            out.setdefault(b.corps, {})[casualty_key(b)] = total
    return out


@dataclass(frozen=True)
class RulesetSheet:
    """What a battle's setup sheet shows of a ruleset of its own instead of the 1813 chips and
    rout points: its turn sequence, its own figures (how a unit is lost, how an army loses),
    where each commander goes, each brigade's bases on the table (by brigade key), and how the
    campaign's brigades become its units."""

    sequence: tuple[str, ...]
    notes: tuple[str, ...]
    leaders: tuple[str, ...]
    bases: Mapping[str, str] = field(default_factory=dict)
    mapping: tuple[str, ...] = ()
    """How the campaign's brigades become the ruleset's units, in words."""


class UnitsEngine(Generic[StateT]):
    """The shared half of an engine whose battle is a table of units with a victory condition:
    no chips, no corps morale, the setup's own ruleset checked, and the command line's lines
    made from :meth:`units_table`, :meth:`step_now`, :meth:`who_acts` and :meth:`decision`,
    which the ruleset's engine gives."""

    chips = False

    def __init__(self, ruleset: str) -> None:
        self.ruleset = ruleset

    def own(self, setup: BattleSetup) -> None:
        """Refuse a setup made for another ruleset."""
        if setup.ruleset != self.ruleset:
            raise ActionRefused(f"{setup.title} is set up for ruleset '{setup.ruleset}', not "
                                f"{self.ruleset}")

    def decision(self, setup: BattleSetup, state: StateT) -> Decision:
        """Who has won and why (the ruleset's own)."""
        raise NotImplementedError

    def units_table(self, setup: BattleSetup, state: StateT) -> Table:
        """A row per unit (the ruleset's own)."""
        raise NotImplementedError

    def step_now(self, setup: BattleSetup, state: StateT) -> str:
        """Where the battle stands (the ruleset's own)."""
        raise NotImplementedError

    def who_acts(self, setup: BattleSetup, state: StateT) -> tuple[str, ...]:
        """The units that may act now (the ruleset's own)."""
        raise NotImplementedError

    def broken(self, setup: BattleSetup,
               state: StateT) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """No corps break; an army is lost only by the victory condition."""
        d = self.decision(setup, state)
        if d.winner is None:
            return (), ()
        return (), (d.winner.enemy.value,)

    def sheet(self, setup: BattleSetup) -> RulesetSheet:
        """The ruleset's own figures for the setup sheet; a ruleset that gives none has its
        units' tallies only."""
        return RulesetSheet((), (), ())

    def setup_lines(self, setup: BattleSetup, state: StateT) -> list[str]:
        """The units' table says it all; nothing is printed under the setup's table."""
        return []

    def status_lines(self, setup: BattleSetup, state: StateT) -> list[str]:
        """Where the battle stands, the units' table (``*`` for those that may act) and the
        result."""
        title = setup.title[0].upper() + setup.title[1:]
        lines = [f"{title}: rules {self.ruleset}; {self.step_now(setup, state)}"]
        table = self.units_table(setup, state)
        acting = set(self.who_acts(setup, state))
        lines.append("  " + " | ".join(table.headers))
        for key, row in zip(table.keys, table.rows, strict=True):
            lines.append(("* " if key in acting else "  ") + " | ".join(row) + f"  [{key}]")
        if acting:
            lines.append("(* may act now)")
        d = self.decision(setup, state)
        lines.append(f"Result: {d.result or 'undecided'} – {d.reason}")
        return lines

    def status_json(self, setup: BattleSetup, state: StateT) -> dict[str, Any]:
        """The ruleset, where the battle stands, who may act and the units' table."""
        table = self.units_table(setup, state)
        return {"ruleset": self.ruleset, "step_now": self.step_now(setup, state),
                "who_acts": list(self.who_acts(setup, state)),
                "units": {"headers": list(table.headers), "keys": list(table.keys),
                          "rows": [list(r) for r in table.rows]}}
