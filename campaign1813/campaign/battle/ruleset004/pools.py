"""Dice pools of ruleset 004: whole dice and a half die, halving with a half diced for, hits.

A unit throws dice per 25 % step it has left, so a pool can come to a half (lancers throw 1½ dice
a step against foot in firing order). A half die is first settled on one d6 (4-6: it becomes a
full die, else it is dropped); a score halved to potential hits leaves a half the same way. Each
function gives the exact distribution, and its ``roll_`` twin asks a dice source for the same
dice one at a time, so the umpire types each face.

>>> Pool.of(Fraction(9, 2))
Pool(whole=4, half=True)
>>> str(Pool.of(Fraction(9, 2)))
'4½ dice'
>>> thrown(Pool(1, True), 4)
{1: Fraction(1, 2), 2: Fraction(1, 2)}
>>> halved(7, 4)
{3: Fraction(1, 2), 4: Fraction(1, 2)}
>>> hits(Pool(2), 4)
{0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from campaign1813.campaign.battle.core.steps import roll_for
from campaign1813.campaign.battle.dice import D6, DiceSource, Roll

SIDES = 6
Distribution = dict[int, Fraction]


@dataclass(frozen=True)
class Pool:
    """Dice to throw: a number of whole dice and perhaps a half die."""

    whole: int
    half: bool = False

    @classmethod
    def of(cls, amount: Fraction) -> Pool:
        """A pool of ``amount`` dice; refuses an amount that is not a whole or a half."""
        if amount < 0 or (amount * 2).denominator != 1:
            raise ValueError(f"{amount} dice is not a number of whole and half dice")
        return cls(int(amount), amount.denominator == 2)

    @property
    def amount(self) -> Fraction:
        """The dice as a number: 4½ is 9/2."""
        return self.whole + (Fraction(1, 2) if self.half else Fraction(0))

    def __str__(self) -> str:
        if not self.amount:
            return "no dice"
        text = f"{self.whole}½" if self.half and self.whole else "½" if self.half else str(
            self.whole)
        return f"{text} {'die' if self.amount <= 1 else 'dice'}"


def chance_of(need: int, modifier: int = 0) -> Fraction:
    """The chance that one d6, plus ``modifier``, scores ``need`` or more.

    >>> chance_of(4), chance_of(6, -1), chance_of(5, +1)
    (Fraction(1, 2), Fraction(0, 1), Fraction(1, 2))
    """
    return Fraction(sum(1 for face in D6.faces if face + modifier >= need), SIDES)


def binomial(n: int, p: Fraction) -> Distribution:
    """The chance of each number of successes in ``n`` independent tries at ``p``."""
    return {k: comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)}


def mix(weighted: Mapping[int, Fraction], then: Mapping[int, Distribution]) -> Distribution:
    """The distribution of a second result, mixed over the chances of the first."""
    out: Distribution = {}
    for first, p in weighted.items():
        for second, q in then[first].items():
            out[second] = out.get(second, Fraction(0)) + p * q
    return dict(sorted(out.items()))


def thrown(pool: Pool, full_on: int) -> Distribution:
    """How many dice are thrown: the whole dice, plus the half die if it becomes a full one."""
    if not pool.half:
        return {pool.whole: Fraction(1)}
    up = chance_of(full_on)
    return {pool.whole: 1 - up, pool.whole + 1: up}


def halved(score: int, full_on: int) -> Distribution:
    """A score halved, rounding as normal except that a half is diced for."""
    if score % 2 == 0:
        return {score // 2: Fraction(1)}
    up = chance_of(full_on)
    return {score // 2: 1 - up, score // 2 + 1: up}


def hits(pool: Pool, need: int, modifier: int = 0, full_on: int = 4) -> Distribution:
    """The hits a pool scores, each die hitting on ``need`` or more after ``modifier``."""
    p = chance_of(need, modifier)
    counts = thrown(pool, full_on)
    return mix(counts, {n: binomial(n, p) for n in counts})


def saved(hits_scored: Mapping[int, Fraction], save_on: int | None) -> Distribution:
    """The hits that stand after a saving throw on ``save_on`` or more against each."""
    if save_on is None:
        return dict(hits_scored)
    stand = 1 - chance_of(save_on)
    return mix(hits_scored, {n: binomial(n, stand) for n in hits_scored})


# -- the same dice, rolled ---------------------------------------------------------------------


def roll_die(dice: DiceSource, purpose: str) -> Roll:
    """One d6 from the dice source, checked to be one."""
    return roll_for(dice, D6, 1, purpose)


def roll_thrown(pool: Pool, full_on: int, dice: DiceSource, purpose: str,
                rolls: list[Roll]) -> int:
    """How many dice are thrown, rolling for the half die if there is one."""
    if not pool.half:
        return pool.whole
    r = roll_die(dice, f"{purpose}: half die (full on {full_on}-6)")
    rolls.append(r)
    return pool.whole + (1 if r.total >= full_on else 0)


def roll_halved(score: int, full_on: int, dice: DiceSource, purpose: str,
                rolls: list[Roll]) -> int:
    """A score halved, rolling for a half left over."""
    if score % 2 == 0:
        return score // 2
    r = roll_die(dice, f"{purpose}: half of {score} (up on {full_on}-6)")
    rolls.append(r)
    return score // 2 + (1 if r.total >= full_on else 0)


def roll_hits(count: int, need: int, modifier: int, dice: DiceSource, purpose: str,
              rolls: list[Roll]) -> int:
    """Throw ``count`` dice one by one; the hits on ``need`` or more after ``modifier``."""
    scored = 0
    for i in range(count):
        r = roll_die(dice, f"{purpose}: die {i + 1} of {count} (hit on {need}-6"
                           + (f", {modifier:+d}" if modifier else "") + ")")
        rolls.append(r)
        scored += r.total + modifier >= need
    return scored


def roll_saves(count: int, save_on: int | None, dice: DiceSource, purpose: str,
               rolls: list[Roll]) -> int:
    """The hits that stand after a saving throw for each, on ``save_on`` or more."""
    if save_on is None:
        return count
    standing = 0
    for i in range(count):
        r = roll_die(dice, f"{purpose}: save {i + 1} of {count} (on {save_on}-6)")
        rolls.append(r)
        standing += r.total < save_on
    return standing
