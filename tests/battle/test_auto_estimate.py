"""The estimate's engine fights, run by run, the very battle ``resolve`` reports.

``estimate`` counts winners with :class:`~.auto_estimate.EstimateEngine`, a second engine over
lists of whole numbers; these tests hold it to ``resolve`` battle by battle: the same winner and
the same end of every brigade (casualties, state, destroyed) for the same seed, over some
hundreds of battles of varied corps, orders, commanders, chips, arrivals and both 1813 rulesets.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from campaign1813.campaign.battle.core.results import run_seed
from campaign1813.campaign.battle.ruleset1813.auto_estimate import EstimateEngine, shuffle
from campaign1813.campaign.battle.ruleset1813.auto_plan import plan_of
from campaign1813.campaign.battle.ruleset1813.autoresolve import estimate, resolve
from campaign1813.campaign.battle.ruleset1813.rules.brigade import STATE_ORDER
from campaign1813.campaign.battle.setup import ALLIED, FRENCH, BattleSetup, Edge
from campaign1813.campaign.battle.terms import Arm, CorpsOrder, Grade
from tests.battle.setups import setup
from tests.battle.test_autoresolve import rich

_SPECIALS = ("Poor", "French gifted", "Allied gifted", "French tactical")


def varied(n: int) -> BattleSetup:
    """Battle ``n`` of a fixed, seeded variety: one to three corps a side of mixed classes,
    any orders, some marching in or arriving late, graded commanders, worn brigades, a CinC
    and special chips or not, either 1813 ruleset."""
    pick = random.Random(n)
    french = [pick.choice("ABC") for _ in range(pick.randint(1, 3))]
    allied = [pick.choice("ABC") for _ in range(pick.randint(1, 3))]
    specials = tuple(s for s in _SPECIALS if pick.random() < 0.5)
    s = setup(french, allied, cinc=pick.random() < 0.5, specials=specials,
              turns=pick.randint(3, 12), ruleset=pick.choice(("1813", "1813-revised")))
    corps = []
    for c in s.corps:
        i = sum(1 for other in corps if other.side == c.side)     # its place in its side
        changes: dict[str, object] = {"orders": pick.choice(list(CorpsOrder))}
        if c.side == FRENCH and (i > 0 or pick.random() < 0.3):
            changes |= {"edge": Edge.WEST, "column_of_march": pick.random() < 0.5}
        if i > 0 and pick.random() < 0.3:
            changes["turn"] = pick.randint(2, 5)
        corps.append(replace(c, **changes))
    commanders = tuple(replace(m, grade=pick.choice(list(Grade))) for m in s.commanders)
    worn = {b.key for b in s.brigades if pick.random() < 0.2}
    brigades = tuple(replace(b, casualties=1 + (b.arm is Arm.INFANTRY)) if b.key in worn else b
                     for b in s.brigades)
    return replace(s, corps=tuple(corps), commanders=commanders, brigades=brigades)


def _same_battle(s: BattleSetup, engine: EstimateEngine, seed: int) -> None:
    reported = resolve(s, seed=seed)
    winner = engine.fight(seed)
    assert winner == (None if reported.winner is None else reported.winner.value), (s.title, seed)
    ends = [(b.casualties, STATE_ORDER.index(b.state), b.destroyed) for b in reported.brigades]
    assert engine.ends() == ends, (s.title, seed, reported.report)


@pytest.mark.parametrize("n", range(40))
def test_the_estimates_battle_is_resolves_battle_for_varied_corps(n):
    """Forty setups of varied corps, five seeds each: the same winner and brigades."""
    s = varied(n)
    engine = EstimateEngine(plan_of(s))
    for seed in range(5):
        _same_battle(s, engine, run_seed(n, seed))


def test_the_estimates_battle_is_resolves_battle_with_every_chip():
    """The richest setup (every order and special chip, a CinC a side, a late corps, Gifted
    and Poor commanders): a hundred seeds, among them 295's square formed under a charge."""
    s = rich()
    engine = EstimateEngine(plan_of(s))
    for seed in (*range(100), 295):
        _same_battle(s, engine, seed)


def test_the_varied_setups_meet_what_the_engines_branch_on():
    """The varied battles reach every kind of end the engines tell apart: won by each side
    and drawn, armies broken and night falling, brigades destroyed and routed."""
    reasons: set[str] = set()
    winners: set[str | None] = set()
    destroyed = routed = False
    for n in range(40):
        s = varied(n)
        for seed in range(5):
            r = resolve(s, seed=run_seed(n, seed))
            reasons.add("broke" if "broke" in r.reason else "night")
            winners.add(None if r.winner is None else r.winner.value)
            destroyed |= any(b.destroyed for b in r.brigades)
            routed |= any(STATE_ORDER.index(b.state) == 3 for b in r.brigades)
    assert reasons == {"broke", "night"}
    assert winners == {FRENCH, ALLIED, None}
    assert destroyed and routed


def test_estimate_counts_the_engines_winners():
    """``estimate`` is the count of the engine's winners over the runs' seeds."""
    s = varied(3)
    engine = EstimateEngine(plan_of(s))
    winners = [engine.fight(run_seed(11, run)) for run in range(60)]
    odds = estimate(s, 60, seed=11)
    assert (odds.french.count, odds.allied.count, odds.draw.count) == (
        winners.count(FRENCH), winners.count(ALLIED), winners.count(None))


def test_the_engines_shuffle_is_randoms_shuffle():
    """The bag is shuffled as ``resolve`` shuffles it (``random.Random.shuffle``): the same
    order for every seed and length, and the generator left in the same state after."""
    for seed in range(200):
        for length in range(12):
            theirs, ours = random.Random(seed), random.Random(seed)
            expected, got = list(range(length)), list(range(length))
            theirs.shuffle(expected)
            shuffle(ours.getrandbits, got)
            assert got == expected, (seed, length)
            assert ours.getstate() == theirs.getstate(), (seed, length)
