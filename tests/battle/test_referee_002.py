"""Ruleset 002 as a referee: the battle of Magdeburg (5 May 1813) as the campaign sets it up,
played with typed dice through the engine. Every refusal of seed 002 is tried and refused with
its rule, the battle and ``show`` unchanged; legal play goes on to the French army's loss (3 of
its 6 units eliminated: half, rounded up, docs/ruleset-002.md).

The units (convert.py): 5 Corps: 3 Cavalry, 17 (class A: elite), 18 (skirmish A: light
infantry), 19, 20 (line), artillery; I Prussian Corps likewise (1 elite, 2 light infantry);
II Prussian Corps, marching to the sound of the guns, comes on at turn 4 (seed 000), with
General Kleist attached to its 6 Infantry Brigade. Lauriston and Yorck are the Generals (no
CinC: the best-graded corps commander).
"""

import json
import re

import pytest

from campaign1813.campaign.battle.ruleset002.auto import resolve
from campaign1813.campaign.battle.ruleset002.units import Ground
from campaign1813.campaign.battle.setup import ALLIED, FRENCH
from campaign1813.campaign.cli import main
from tests.battle.referee import Table, magdeburg

FCAV, F17, F18, F19, F20, FART = ("5 Corps/3 cavalry", "5 Corps/17", "5 Corps/18",
                                  "5 Corps/19", "5 Corps/20", "5 Corps/artillery")
PCAV, P1, P2, P3, P4, PART = (f"I Prussian Corps/{k}" for k in ("1 cavalry", "1", "2", "3",
                                                                  "4", "artillery"))
RCAV, R5, R6, RART = (f"II Prussian Corps/{k}" for k in ("2 cavalry", "5", "6", "artillery"))
KLEIST = "II Prussian Corps"
LATE = "not yet on the table: its corps marches to the sound of the guns and arrives on turn 4"


def _next(t: Table, n: int = 1) -> None:
    for _ in range(n):
        t.do("next")


def test_seed_002_refuses_what_it_forbids_and_plays_on_to_an_army_lost():
    t = Table(magdeburg("002"))
    assert t.setup.corps_of("II Prussian Corps").turn == 4

    # -- Setup: "Towns - only one unit may occupy a town"; woods only for skirmishers.
    t.refused("deploy", LATE, unit=R5, ground="town", place="Magdeburg")
    t.do("deploy", unit=F19, ground="town", place="Magdeburg")
    t.refused("deploy", "only one unit may occupy a town", unit=F20, ground="town",
              place="Magdeburg")
    t.refused("deploy", "cavalry may not stand in woods", unit=FCAV, ground="woods")
    t.do("deploy", unit=F20, ground="entrenchment")
    # "These commanders must be assigned to an infantry or elite infantry unit"
    t.refused("attach", "must be assigned to an infantry or elite infantry unit",
              commander=KLEIST, unit=PCAV)
    # "Roll the dice or flip a coin before each turn to determine who is Side A"
    t.refused("move", "roll for sides first", unit=P3, inches=6)

    # -- Turn 1: a 4 on the D6: the Allies are side A (the French on 1-3, play.toml).
    t.do("sides", typed=[4])
    assert t.state.side_a == ALLIED
    # Reinforcements due on turn 4 are not listed as able to act, nor may they.
    assert not any(k.startswith("II Prussian") for k in t.acting())
    lines = t.engine.status_lines(t.setup, t.state)
    late = [x for x in lines if "[II Prussian Corps/" in x]
    assert len(late) == 6 and all(x.startswith("  ") and "arrives on turn 4" in x
                                  for x in late)
    t.refused("move", LATE, unit=R5, inches=6)
    # "A unit may move up to their movement allowance, but may never exceed it": 6 inches.
    t.refused("move", "may move 6 inches here, not 7", unit=P3, inches=7)
    t.refused("move", "may not end a move in woods", unit=PCAV, inches=3, to="woods")
    t.refused("move", "rivers are impassable except at a bridge or ford", unit=P4, inches=3,
              across_river=True)
    t.refused("move", "cannot move in Turn 1 – Movement – Allied", unit=F17, inches=3)
    t.do("move", unit=PCAV, inches=6)
    t.refused("move", "has already moved this turn", unit=PCAV, inches=1)
    t.do("move", unit=P3, inches=6)
    _next(t)                                                    # Movement – French (B)
    # "once placed in an entrenchment they must remain static"
    t.refused("move", "stays there, static", unit=F20, inches=1)
    _next(t)                                                    # Artillery – Allied (A)
    t.refused("shoot", "(?i)cavalry.*does not shoot in Turn 1 – Artillery", unit=PCAV,
              target=F17, typed=[6])
    t.refused("shoot", "is a friend", unit=PART, target=P3, typed=[6])
    t.refused("shoot", "reach 24 inches; the target is 25", unit=PART, target=F17, inches=25,
              typed=[6], odds=True)
    t.refused("shoot", "outside the 45-degree field of fire", unit=PART, target=F17,
              in_arc=False, typed=[6], odds=True)
    t.refused("shoot", "only cavalry retire to halve the hits", unit=PART, target=F17,
              retire=True, typed=[6], odds=True)
    # "Artillery roll 1D6-2": 6 -> 4 hits on the elite 17 Infantry Brigade.
    t.do("shoot", typed=[6], unit=PART, target=F17)
    assert t.state.units[F17].hits == 4
    t.refused("shoot", "has already shot this turn", unit=PART, target=F18, typed=[6])
    _next(t)                                                    # Artillery – French (B)
    t.refused("shoot", LATE, unit=FART, target=R5, typed=[6], odds=True)
    _next(t)                                                    # Light infantry – Allies (A)
    # "Skirmishers (Light Infantry) roll 1D6-2", never below 0: 2 -> no hit, but the marker
    t.do("shoot", typed=[2], unit=P2, target=F18)
    assert t.state.units[F18].hits == 0 and t.state.units[P2].engaged
    _next(t, 2)                                                 # Stationary infantry – Allies
    t.refused("shoot", "reach 6 inches; the target is 7", unit=P4, target=F17, inches=7,
              typed=[6], odds=True)
    t.refused("shoot", r"\(infantry, moved\) does not shoot in Turn 1 – Stationary", unit=P3,
              target=F17, typed=[6])
    _next(t, 4)                                                 # Cavalry charges – Allies (A)
    t.refused("charge", "only cavalry can charge", unit=P3, target=F18, typed=[6])
    t.refused("charge", "cannot charge units in cover", unit=PCAV, target=F19, typed=[6],
              odds=True)
    t.refused("charge", "within 3 inches of infantry .* cannot be charged", unit=PCAV,
              target=FART, infantry_near=True, odds=True)
    t.refused("charge", "moves 6 inches into contact; the target is 7", unit=PCAV,
              target=F18, inches=7, typed=[6], odds=True)
    t.refused("charge", "may turn once, at most 45 degrees, not 50", unit=PCAV, target=F18,
              turn=50, typed=[6], odds=True)
    t.refused("charge", LATE, unit=RCAV, target=F18, typed=[6])
    # "Artillery units are eliminated if charged and not within 3" of any infantry": no die.
    assert t.odds("charge", unit=PCAV, target=FART) == (
        ("the guns are eliminated outright", 1),)
    step = t.do("charge", unit=PCAV, target=FART)
    assert step.rolls == () and t.state.units[FART].eliminated
    t.refused("charge", "has already charged this turn", unit=PCAV, target=F18, typed=[6])
    _next(t)                                                    # Cavalry charges – French (B)
    t.refused("charge", "has been eliminated", unit=FCAV, target=FART, typed=[6])
    _next(t)                                                    # Rally – Allies (A)
    t.refused("rally", "carries no 'engaged in combat' marker", unit=P4)
    # Kleist's unit has not come: he rallies no one before turn 4.
    t.refused("rally", "General Kleist is not yet on the table: he comes with",
              unit=PART, by=KLEIST, near=True)
    t.refused("rally", "'5 Corps' is not an Allied commander on the table \\(commanders: "
                       "II Prussian Corps; or the General\\)", unit=PART, by="5 Corps")
    t.do("rally", unit=PART, by="General")
    t.refused("rally", "the General rallies 1 unit in the rally step", unit=P2,
              by="General")
    _next(t)                                                    # Rally – French (B)
    t.refused("rally", "carries no 'engaged in combat' marker", unit=F17, by="General")
    _next(t)
    assert t.state.turn == 2

    # -- Turn 2: the coin gives the Allies side A. "1D6+2 … If the target is a skirmish unit
    # double": (6 + 2) x 2 = 16 hits, past 12: 18 Infantry Brigade is eliminated.
    t.do("sides", side_a="Allied")
    _next(t, 10)                                                # Cavalry charges – Allies (A)
    t.do("charge", typed=[6], unit=PCAV, target=F18)
    assert t.state.units[F18].eliminated and t.state.units[F18].hits == 16
    _next(t, 4)

    # -- Turn 3: nothing moves.
    t.do("sides", side_a="Allied")
    t.refused("move", LATE, unit=RCAV, inches=6)
    _next(t, 14)

    # -- Turn 4: II Prussian Corps comes on: its units may act and are listed so.
    t.do("sides", side_a="Allied")
    assert {R5, RCAV} <= set(t.acting())
    t.do("move", unit=R5, inches=6)
    t.do("move", unit=RCAV, inches=6)
    _next(t, 10)                                                # Cavalry charges – Allies (A)
    # against cavalry "halve the number of hits": (2 + 2) / 2 = 2
    t.do("charge", typed=[2], unit=RCAV, target=FCAV)
    assert t.state.units[FCAV].hits == 2
    # "A target unit may not be charged more that once during a turn"
    t.refused("charge", "has been charged 1 time this turn", unit=PCAV, target=FCAV,
              typed=[6], odds=True)
    # In the flank: (6 + 2) x 2 = 16; 4 + 16 = 20, past the elite's 18: the third French unit
    # of six is eliminated and the Allies win.
    step = t.do("charge", typed=[6], unit=PCAV, target=F17, flank=True)
    assert t.state.units[F17].eliminated and t.state.units[F17].hits == 20
    assert step.lines[-1] == ("Result: the Allied win – the Allied have eliminated 3 of the 6 "
                              "French units (needed 3)")
    t.refused("next", "the battle is finished")
    t.refused("move", "the battle is finished", unit=R6, inches=1)
    t.do("finish")
    decision = t.engine.decision(t.setup, t.state)
    assert decision.final and decision.winner == ALLIED
    assert t.state.units[F19].ground is Ground.TOWN
    assert [t.engine.decision(t.setup, t.state).outcome.winner.value] == [ALLIED]
    assert FRENCH in step.lines[-1]


def _odds(capsys, *words):
    code = main(["odds", "--ruleset", "002", *words])
    return code, capsys.readouterr()


@pytest.mark.parametrize(("words", "message"), [
    # "The cavalry unit may not charge in the turn" (after retiring from a shot)
    (["charge", "--target", "infantry", "--retired"], "retired 6 inches from shooting"),
    # "A target unit may not be charged more that once during a turn"
    (["charge", "--target", "infantry", "--charged-before", "1"], "charged 1 time this turn"),
    # "Move a cavalry unit 6" into contact"
    (["charge", "--target", "infantry", "--distance", "7"], "moves 6 inches into contact"),
    # "A charging cavalry unit may turn once … The turn may not exceed 45 degrees."
    (["charge", "--target", "infantry", "--turn", "50"], "at most 45 degrees, not 50"),
    # "All units have a 45 degree field of fire"
    (["shooting", "--shooter", "infantry", "--out-of-arc"], "field of fire"),
    # entrenched units "must remain static": they cannot have moved
    (["shooting", "--shooter", "infantry", "--entrenched", "--moved"], "static"),
    # "Artillery units are eliminated if charged and not within 3" of any infantry": that
    # fact is about guns only
    (["charge", "--target", "infantry", "--infantry-near"], "count only for artillery"),
    (["charge", "--target", "narnia"], "invalid choice: 'narnia' \\(choose from 'infantry'"),
    (["shooting", "--shooter", "infantry", "--target", "guards"], "choose from"),
])
def test_seed_002_odds_refuse_what_play_refuses(capsys, words, message):
    code, out = _odds(capsys, *words)
    assert code != 0 and out.out == ""
    assert re.search(message, out.err), out.err


def test_seed_002_odds_still_give_what_play_allows(capsys):
    """A charge 6 inches with a 45-degree turn, the target charged for the first time: 1D6+2
    against line infantry, 3 to 8 hits at 1/6 each."""
    code, out = _odds(capsys, "charge", "--target", "infantry", "--distance", "6", "--turn",
                      "45", "--charged-before", "0", "--json")
    assert code == 0
    assert json.loads(out.out)["hits"] == {str(n): "1/6" for n in range(3, 9)}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_seed_002_auto_resolve_brings_the_reinforcement_on_at_turn_4(seed):
    """Auto-resolve plays the table's rule: II Prussian Corps (due at turn 4, seed 000)
    neither shoots, charges nor is shot at before turn 4."""
    r = resolve(magdeburg("002"), seed)
    before = r.report[:next((n for n, x in enumerate(r.report) if x.startswith("Turn 4")),
                            len(r.report))]
    assert not [x for x in before if "II Prussian Corps" in x]
    if r.turns >= 4:  # and from turn 4 on they fight
        assert any("II Prussian Corps" in x for x in r.report[len(before):])
