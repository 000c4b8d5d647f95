"""What every ruleset's abstract battle gives: each brigade's end, one battle's result, and the
win, draw and loss shares of many, with their 95 % Wilson intervals.

>>> wilson(50, 100)
(0.4038315303659956, 0.5961684696340044)
>>> run_seed(0, 3) != run_seed(1, 3)
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import sqrt

from campaign1813.campaign.battle.core.outcome import DRAW, Outcome, Side, Termination
from campaign1813.campaign.battle.terms import MoraleState

__all__ = ["BrigadeOutcome", "AutoResult", "Share", "AutoOdds", "wilson", "run_seed",
           "count_results", "auto_outcome", "Progress"]

# the normal quantile of a 95 % two-sided interval
_Z95 = 1.959963984540054

# ``progress(done, total)`` of a long count; False stops it
Progress = Callable[[int, int], bool | None] | None


@dataclass(frozen=True)
class BrigadeOutcome:
    """A brigade or battery at the end of the battle."""

    key: str
    name: str
    corps: str
    casualties: int
    state: MoraleState
    destroyed: bool


@dataclass(frozen=True)
class AutoResult:
    """One auto-resolved battle: who won and why, how long, each brigade, and the report."""

    outcome: Outcome
    reason: str
    turns: int
    seed: int
    brigades: tuple[BrigadeOutcome, ...]
    report: tuple[str, ...]

    @property
    def winner(self) -> Side | None:
        """The side that won, None for a draw."""
        return self.outcome.winner

    def brigade(self, key: str) -> BrigadeOutcome:
        """A brigade's outcome by its key."""
        for b in self.brigades:
            if b.key == key:
                return b
        raise KeyError(f"no brigade '{key}' fought in this battle")


@dataclass(frozen=True)
class Share:
    """How often one outcome came up: its count, share and 95 % Wilson interval."""

    outcome: str
    count: int
    runs: int
    low: float
    high: float

    @property
    def fraction(self) -> float:
        """The share of the runs (0 when none were made)."""
        return self.count / self.runs if self.runs else 0.0


@dataclass(frozen=True)
class AutoOdds:
    """Win, draw and loss over many auto-resolved runs of one battle."""

    requested: int
    runs: int
    cancelled: bool
    french: Share
    allied: Share
    draw: Share

    def win_draw_loss(self, side: str) -> tuple[Share, Share, Share]:
        """Wins, draws and losses as seen from one side."""
        if side not in tuple(Side):
            raise ValueError(f"'{side}' is not a side (known: {', '.join(Side)})")
        if side == Side.FRENCH:
            return self.french, self.draw, self.allied
        return self.allied, self.draw, self.french


def wilson(count: int, runs: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of a share ``count / runs``; (0, 1) when nothing was run."""
    if runs <= 0:
        return 0.0, 1.0
    p = count / runs
    z2 = z * z
    denominator = 1 + z2 / runs
    centre = (p + z2 / (2 * runs)) / denominator
    half = z * sqrt(p * (1 - p) / runs + z2 / (4 * runs * runs)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def run_seed(seed: int, run: int) -> int:
    """The seed of run ``run`` of an estimate made with ``seed``: ``resolve`` replays it."""
    return (seed << 32) + run


def count_results(runs: int, winner_of: Callable[[int], str | None],
                  progress: Callable[[int, int], bool | None] | None = None) -> AutoOdds:
    """Fight runs 0, 1, … (``winner_of(run)`` gives a run's winner, None for a draw) and count
    the results with their 95 % intervals; every ruleset's estimate counts this way.

    ``progress(done, total)`` is called after every hundredth of the runs and at the end; if it
    returns False the count stops there and says how many runs it made.
    """
    counts: dict[str | None, int] = {Side.FRENCH: 0, Side.ALLIED: 0, None: 0}
    step = max(1, runs // 100)
    done = 0
    cancelled = False
    for run in range(runs):
        counts[winner_of(run)] += 1
        done = run + 1
        if progress is not None and (done % step == 0 or done == runs):
            if progress(done, runs) is False and done < runs:
                cancelled = True
                break

    def share(outcome: str, count: int) -> Share:
        low, high = wilson(count, done)
        return Share(outcome, count, done, low, high)

    return AutoOdds(runs, done, cancelled, share(Side.FRENCH.value, counts[Side.FRENCH]),
                    share(Side.ALLIED.value, counts[Side.ALLIED]), share(DRAW, counts[None]))


def auto_outcome(winner: str | Side | None) -> Outcome:
    """The outcome of an abstract battle won by ``winner`` (None for a draw)."""
    return Outcome.of(Termination.AUTO_RESOLVED, winner)
