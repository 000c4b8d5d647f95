"""Ruleset 004: the exact odds of a test equal its rolls counted.

Each roll function is run on every sequence of d6 faces it can ask for (a tree: a half die, a
half diced for, or a saving throw asks for more dice only on some branches), each sequence of n
faces weighing (1/6)^n; the outcomes counted must equal the odds function's distribution.
"""

from fractions import Fraction as F

from campaign1813.campaign.battle.dice import Roll
from campaign1813.campaign.battle.ruleset004.fire import (
    Battery,
    Shot,
    Target,
    Volley,
    artillery,
    artillery_odds,
    musketry,
    musketry_odds,
)
from campaign1813.campaign.battle.ruleset004.melee import Fighter, melee, melee_odds
from campaign1813.campaign.battle.ruleset004.morale import morale_odds, morale_test
from campaign1813.campaign.battle.ruleset004.units import Kind, Quality


class _Branch(Exception):
    pass


class _Path:
    """A dice source that shows the faces of a path, and stops where the path ends."""

    def __init__(self, path):
        self.path, self.used = path, 0

    def roll(self, die, count=1, purpose=""):
        if self.used == len(self.path):
            raise _Branch
        face = self.path[self.used]
        self.used += 1
        return Roll(die, 1, (face,), purpose)


def counted(run):
    """Outcome → exact chance, over every path of faces ``run(dice)`` can ask for."""
    out, stack = {}, [()]
    while stack:
        path = stack.pop()
        dice = _Path(path)
        try:
            result = run(dice)
        except _Branch:
            stack.extend(path + (face,) for face in range(1, 7))
            continue
        assert dice.used == len(path)
        out[result] = out.get(result, F(0)) + F(1, 6 ** len(path))
    return dict(sorted(out.items()))


def _nonzero(odds):
    return {k: p for k, p in sorted(odds.items()) if p}


def test_musketry_with_a_half_die_and_cuirassier_saves():
    volley, aim = Volley(Kind.LIGHT_HORSE, 3), Target(Kind.HEAVY_HORSE, cuirassiers=True)
    assert counted(lambda d: musketry(volley, aim, d).standing) == _nonzero(
        musketry_odds(volley, aim).standing)


def test_musketry_returning_fire_into_cover():
    volley, aim = Volley(Kind.FOOT, 2, moved=True), Target(Kind.FOOT, cover=True)
    assert counted(lambda d: musketry(volley, aim, d).standing) == _nonzero(
        musketry_odds(volley, aim).standing)


def test_weakened_canister_into_cover():
    battery, aim = Battery(Shot.CANISTER, 1), Target(Kind.FOOT, cover=True)
    assert counted(lambda d: artillery(battery, aim, d).standing) == _nonzero(
        artillery_odds(battery, aim).standing)


def test_weakened_roundshot_over_heads_at_guns():
    battery, aim = Battery(Shot.ROUNDSHOT, 2, over_heads=True), Target(Kind.GUNS)
    assert counted(lambda d: artillery(battery, aim, d).hits) == _nonzero(
        artillery_odds(battery, aim).hits)


def test_a_melee_with_a_half_die():
    lancers, foot = Fighter(Kind.LANCERS, 1), Fighter(Kind.FOOT, 1, cover=True)
    odds = melee_odds(lancers, foot)
    assert counted(lambda d: melee(lancers, foot, d).verdict) == _nonzero(odds.verdict)
    assert counted(lambda d: melee(lancers, foot, d).defender_hits) == _nonzero(
        odds.defender_suffers)


def test_morale():
    assert counted(lambda d: morale_test("u", Quality.POOR, d, support=True).passed) == \
        morale_odds(Quality.POOR, support=True)
