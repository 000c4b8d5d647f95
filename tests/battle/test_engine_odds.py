"""The engines' odds of a pending action, before it is rolled (``chance_outcomes()`` of the
action that applies it): built from the
battle as the action's own step builds it, then the ruleset's procedure. The battle is the
campaign's battle of Magdeburg (I Prussian Corps against 5 Corps), as in
test_ruleset_engines.py."""

from __future__ import annotations

import shutil
from fractions import Fraction as F

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.battle.ruleset1813.fight_tests import prepare
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused
from campaign1813.campaign.store.document import open_campaign

A3, AART, F19, F20 = ("I Prussian Corps/3", "I Prussian Corps/artillery", "5 Corps/19",
                      "5 Corps/20")


@pytest.fixture(scope="module")
def scheduled(tmp_path_factory, campaign_template):
    path = tmp_path_factory.mktemp("odds") / "scheduled.c1813"
    shutil.copyfile(campaign_template, path)
    with open_campaign(path) as doc:
        services.issue_order(doc, "I Prussian Corps", "Attack", "Magdeburg")
        for _ in range(6):
            services.end_day(doc)
    return path


@pytest.fixture
def doc(scheduled, tmp_path):
    path = tmp_path / "c.c1813"
    shutil.copy(scheduled, path)
    with open_campaign(path) as d:
        yield d


def _odds(doc, action, **inputs):
    v = queries.fight_view(doc, 1)
    return v.engine.action(v.setup, v.steps, action, inputs).chance_outcomes()


def _act(doc, action, *typed, **inputs):
    services.battle_action(doc, 1, action, typed=list(typed) or None, **inputs)


def test_ruleset_002_a_batterys_shot(doc):
    services.open_battle(doc, 1, ruleset="002")
    _act(doc, "sides", 5)
    _act(doc, "next")
    _act(doc, "next")
    # seed 002: artillery shoots 1D6-2, never below 0: 1 and 2 miss, 3-6 give 1-4 hits.
    assert _odds(doc, "shoot", unit=AART, target=F19) == (
        ("0 hits", F(1, 3)), ("1 hit", F(1, 6)), ("2 hits", F(1, 6)), ("3 hits", F(1, 6)),
        ("4 hits", F(1, 6)))
    assert _odds(doc, "next") == ()
    with pytest.raises(ActionRefused, match="needs a value|unit"):
        _odds(doc, "shoot", target=F19)


def test_ruleset_002_a_cavalry_charge(doc):
    """The charges step of turn 1 after the shooting of test_ruleset_engines.py."""
    services.open_battle(doc, 1, ruleset="002")
    _act(doc, "sides", 5)
    for step in (("next",), ("next",), ("shoot", 6, AART, F19), ("next",),
                 ("shoot", 5, "5 Corps/artillery", A3), ("next",),
                 ("shoot", 6, "I Prussian Corps/2", F19), ("next",), ("next",),
                 ("shoot", 6, A3, F19), ("shoot", 6, "I Prussian Corps/4", F20),
                 ("shoot", 6, "I Prussian Corps/1", F20), ("next",),
                 ("shoot", 4, "5 Corps/17", A3), ("next",), ("next",), ("next",)):
        if step[0] == "next":
            _act(doc, "next")
        else:
            _act(doc, "shoot", step[1], unit=step[2], target=step[3])
    cavalry = "I Prussian Corps/1 cavalry"
    # seed 002: guns with no infantry within 3 inches are eliminated outright, no roll.
    assert _odds(doc, "charge", unit=cavalry, target="5 Corps/artillery") == (
        ("the guns are eliminated outright", F(1)),)
    # 1D6+2 against line infantry in the open: 3 to 8 hits, 1/6 each.
    assert _odds(doc, "charge", unit=cavalry, target=F20) == tuple(
        (f"{n} hits", F(1, 6)) for n in range(3, 9))
    # Doubled against skirmishers (18 Infantry Brigade): 6, 8, … 16.
    assert _odds(doc, "charge", unit=cavalry, target="5 Corps/18") == tuple(
        (f"{2 * n} hits", F(1, 6)) for n in range(3, 9))


def test_ruleset_004_musketry_canister_and_a_save(doc):
    services.open_battle(doc, 1, ruleset="004")
    _act(doc, "first-move", 2, 5)
    _act(doc, "done", side="Allied")
    _act(doc, "done", side="French")
    # seed 004: foot in firing order at 100 %: 4 dice, hitting on 4-6: binomial(4, 1/2).
    assert _odds(doc, "fire", unit=A3, target=F20, distance_cm="8") == (
        ("0 hits stand", F(1, 16)), ("1 hit stand", F(1, 4)), ("2 hits stand", F(3, 8)),
        ("3 hits stand", F(1, 4)), ("4 hits stand", F(1, 16)))
    # In cover the target saves on 4-6: each die's hit stands at 1/2 x 1/2; none of 4: (3/4)^4.
    assert _odds(doc, "fire", unit=A3, target=F20, distance_cm="8",
                 cover=True)[0] == ("0 hits stand", F(81, 256))
    # Canister, 2 dice, the score halved ("a half is diced for"): 6 potential hits from 12
    # (1/36) or from 11 with the half made a full one (2/36 x 1/2), then all six on 4-6 (1/64):
    # (1/36 + 1/36) x 1/64 = 1/1152.
    canister = _odds(doc, "fire", unit=AART, target=F19, shot="canister", distance_cm="10")
    assert canister[-1] == ("6 hits stand", F(1, 1152))
    assert sum(p for _, p in canister) == 1
    assert _odds(doc, "end-turn") == ()


def test_the_1813_rules_odds_are_their_tests_and_pips(doc):
    services.open_battle(doc, 1, seed=3)
    _act(doc, "draw", chip="1")
    # Pips: Lauriston's corps is still on its blind, so Rule 1's: the average die
    # (2, 3, 3, 4, 4, 5) + 0 for an Average commander.
    assert _odds(doc, "pips") == (("2 pips", F(1, 6)), ("3 pips", F(1, 3)),
                                  ("4 pips", F(1, 3)), ("5 pips", F(1, 6)))
    _act(doc, "pips", 4)
    # Rule 1: the Prussian blind, 12 inches off, is spotted before its brigades are fired on.
    _act(doc, "test", test="spot", who="5 Corps", target="I Prussian Corps",
         options={"inches": 12})
    v = queries.fight_view(doc, 1)
    expected = prepare(v.setup, v.state, "skirmish", "5 Corps/17", "I Prussian Corps/1", {})
    assert _odds(doc, "test", test="skirmish", who="5 Corps/17",
                 target="I Prussian Corps/1") == tuple(expected.odds)


def test_ruleset_004_a_melee_of_horse_against_horse(doc):
    """1 Cavalry Brigade (cuirassiers, 4 steps) charges 3 Cavalry Brigade (heavy horse, 4 steps)
    in front; nobody fires. Seed 004: each side throws 4 dice hitting horse on 4-6; cuirassiers
    save on 6. Hits the cuirassiers suffer: Binomial(4, 1/2 x 5/6 = 5/12); the others:
    Binomial(4, 1/2). The side suffering more retreats, equal hits fight on next turn."""
    services.open_battle(doc, 1, ruleset="004")
    _act(doc, "first-move", 2, 5)
    _act(doc, "move", 3, unit="I Prussian Corps/1 cavalry", charge="5 Corps/3 cavalry",
         face="front")
    _act(doc, "done", side="Allied")
    _act(doc, "done", side="French")
    _act(doc, "end-fire")
    a = [F(5, 12) ** k * F(7, 12) ** (4 - k) * (1, 4, 6, 4, 1)[k] for k in range(5)]
    d = [F(1, 16) * (1, 4, 6, 4, 1)[k] for k in range(5)]
    assert a[0] == F(2401, 20736)
    worse = sum(a[i] * d[j] for i in range(5) for j in range(5) if i > j)
    better = sum(a[i] * d[j] for i in range(5) for j in range(5) if i < j)
    assert (worse, better) == (F(10165, 36864), F(50575, 110592))
    assert _odds(doc, "melee", attacker="I Prussian Corps/1 cavalry",
                 defender="5 Corps/3 cavalry") == (
        ("attacker retreats", worse), ("defender retreats", better),
        ("another round next turn", 1 - worse - better))
