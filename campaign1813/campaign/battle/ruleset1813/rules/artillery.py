"""Rule 7: artillery fire.

The range band comes from the calibre and the distance. The dice plus the modifiers reaching the
table's number for the target scores one hit; reaching the multiplied number (double, in the
1813 tables) scores two. Roundshot may bounce on to a second target close behind the first,
which is a fire of its own with the bounce-through modifier. Every hit is a casualty, and a
brigade or battery that takes artillery casualties tests its morale at once (Rule 17).

>>> s = FireSituation(Battery("4 Corps artillery", Calibre.HEAVY, Rating.A), "9 Brigade",
...                   Target.INFANTRY, RangeBand.SHORT)
>>> odds = fire_odds(s, "1813")
>>> odds.hits[0], odds.hits[1], odds.hits[2]
(Fraction(1, 6), Fraction(3, 4), Fraction(1, 12))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from campaign1813.campaign.battle.dice import DiceSource, Die, Roll
from campaign1813.campaign.battle.ruleset1813.rules.common import (
    ActionRefused,
    Modifier,
    inches_text,
    odds_of,
    roll_for,
    total_of,
)
from campaign1813.campaign.battle.ruleset1813.rules.tables.fire import (
    FireTable,
    RangeBand,
    Target,
    fire_table,
)
from campaign1813.campaign.battle.terms import (
    Calibre,
    Effect,
    FollowOn,
    FollowOnTest,
    MoraleState,
    Rating,
)

__all__ = ["Battery", "FireSituation", "FireOdds", "FireResult", "RangeBand", "Target",
           "range_band", "fire_modifiers", "hits_for_total", "fire_odds", "fire_refusal",
           "artillery_fire"]

MAX_HITS = 2


@dataclass(frozen=True)
class Battery:
    """A corps or reserve battery as Rule 7 sees it."""

    name: str
    calibre: Calibre
    gunners: Rating
    casualties: int = 0
    state: MoraleState = MoraleState.FORMED
    limbered: bool = False


@dataclass(frozen=True)
class FireSituation:
    """One fire: the battery, its target, the range band and what only the table knows."""

    battery: Battery
    target: str
    target_kind: Target
    band: RangeBand
    bounce_through: bool = False          # this is the roundshot bouncing on to a second target
    target_behind: str | None = None      # a brigade close enough behind the target to bounce to
    friends_near_line_of_fire: bool = False
    overhead: bool = False                # on higher ground, far enough behind the friends


@dataclass(frozen=True)
class FireOdds:
    """The modifiers, the numbers needed for one and two hits, and the chance of 0, 1, 2 hits."""

    modifiers: tuple[Modifier, ...]
    need_one: int
    need_two: int
    hits: dict[int, Fraction]

    @property
    def modifier(self) -> int:
        """The net modifier."""
        return total_of(self.modifiers)


@dataclass(frozen=True)
class FireResult:
    """A fire made: the roll, the modified total, hits, effects and the tests they trigger."""

    situation: FireSituation
    roll: Roll
    total: int
    hits: int
    effects: tuple[Effect, ...]
    follow_ons: tuple[FollowOn, ...]


def range_band(calibre: Calibre, inches: Fraction | float, ruleset: str) -> RangeBand | None:
    """Short or long range for a calibre at a distance, or None when out of range.

    A distance exactly on the short-range limit is short range.
    """
    if inches < 0:
        raise ValueError(f"a range cannot be negative ({inches} inches)")
    bands = fire_table(ruleset).ranges[calibre]
    for band in (RangeBand.SHORT, RangeBand.LONG):
        if inches <= bands[band]:
            return band
    return None


def fire_modifiers(situation: FireSituation, ruleset: str) -> tuple[Modifier, ...]:
    """The modifiers of the ruleset that apply to this fire."""
    table = fire_table(ruleset)
    battery = situation.battery
    if battery.casualties < 0:
        raise ValueError(f"{battery.name}: gunner casualties cannot be negative "
                         f"({battery.casualties})")
    wanted = []
    if battery.gunners is Rating.A:
        wanted.append(("a_class_gunners", 1))
    if battery.gunners is Rating.C:
        wanted.append(("c_class_gunners", 1))
    if battery.casualties:
        wanted.append(("gunner_casualty", battery.casualties))
    if situation.bounce_through:
        wanted.append(("bounce_through", 1))
    return _named(table, wanted)


def _named(table: FireTable, wanted: list[tuple[str, int]]) -> tuple[Modifier, ...]:
    result = []
    for key, times in wanted:
        entry = table.modifiers.get(key)
        if entry is None or entry.value == 0:
            continue
        label = entry.label if times == 1 else f"{entry.label} ×{times}"
        result.append(Modifier(key, label, entry.value * times))
    return tuple(result)


def _needs(situation: FireSituation, table: FireTable) -> tuple[int, int]:
    one = table.to_hit[situation.band][situation.target_kind]
    return one, one * table.two_hits_multiplier


def _hits(total: int, one: int, two: int) -> int:
    if total >= two:
        return 2
    return 1 if total >= one else 0


def hits_for_total(total: int, situation: FireSituation, ruleset: str) -> int:
    """Hits scored by a modified total: none, one, or two on the multiplied number."""
    one, two = _needs(situation, fire_table(ruleset))
    return _hits(total, one, two)


@cache
def _hit_odds(die: Die, count: int, one: int, two: int, net: int) -> tuple[Fraction, ...]:
    """The chance of 0, 1 and 2 hits: one distribution per dice, numbers needed and modifier."""
    odds = odds_of(die, count, lambda rolled: _hits(rolled + net, one, two))
    return tuple(odds.get(n, Fraction(0)) for n in range(MAX_HITS + 1))


def fire_odds(situation: FireSituation, ruleset: str) -> FireOdds:
    """The exact chance of 0, 1 and 2 hits; refused if the battery may not fire."""
    refusal = fire_refusal(situation, ruleset)
    if refusal:
        raise ActionRefused(refusal)
    table = fire_table(ruleset)
    modifiers = fire_modifiers(situation, ruleset)
    net = total_of(modifiers)
    one, two = _needs(situation, table)
    hits = dict(enumerate(_hit_odds(table.die, table.count, one, two, net)))
    return FireOdds(modifiers, one, two, hits)


def fire_refusal(situation: FireSituation, ruleset: str) -> str | None:
    """Why the battery may not make this fire, or None if it may."""
    battery = situation.battery
    table = fire_table(ruleset)
    if battery.limbered:
        return f"{battery.name} is limbered; only unlimbered guns fire"
    if battery.state is not MoraleState.FORMED:
        return f"{battery.name} is {battery.state.value}; artillery must be formed to fire"
    if situation.friends_near_line_of_fire and not situation.overhead:
        return (f"{battery.name} has friendly troops within "
                f"{inches_text(table.friendly_clearance_inches)} of its line of fire and cannot "
                f"fire over them (it must be on higher ground and "
                f"{inches_text(table.overhead_behind_friends_inches)} behind them)")
    return None


def artillery_fire(situation: FireSituation, dice: DiceSource, ruleset: str) -> FireResult:
    """Make the fire with a roll from the dice source and say what it does."""
    refusal = fire_refusal(situation, ruleset)
    if refusal:
        raise ActionRefused(refusal)
    table = fire_table(ruleset)
    net = total_of(fire_modifiers(situation, ruleset))
    what = "bounce-through fire" if situation.bounce_through else "artillery fire"
    roll = roll_for(dice, table.die, table.count,
                    f"Rule 7 {what}: {situation.battery.name} on {situation.target}")
    total = roll.total + net
    hits = hits_for_total(total, situation, ruleset)
    effects: list[Effect] = []
    follow_ons: list[FollowOn] = []
    if hits:
        noun = "hit" if hits == 1 else "hits"
        effects.append(Effect(situation.target, casualties=hits,
                              note=f"{hits} {noun} from {situation.battery.name}"))
        follow_ons.append(FollowOn(FollowOnTest.MORALE, situation.target,
                                   f"Rule 17: took {hits} artillery casualties"))
    if situation.target_behind and not situation.bounce_through:
        follow_ons.append(FollowOn(
            FollowOnTest.BOUNCE_THROUGH, situation.target_behind,
            f"Rule 7: roundshot bounces on from {situation.target} to a target "
            f"{table.bounce_through_inches} inches or less behind it"))
    return FireResult(situation, roll, total, hits, tuple(effects), tuple(follow_ons))
