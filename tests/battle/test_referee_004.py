"""Ruleset 004 as a referee: the battle of Magdeburg (5 May 1813) as the campaign sets it up,
played with typed dice through the engine. Every refusal of seed 004 is tried and refused with
its rule, the battle and ``show`` unchanged; legal play goes on to the French army's loss
("when its number of units, including the general, has fallen below a half of its starting
number": 3 of 7 left).

The units (convert.py): 5 Corps: 3 Cavalry (heavy horse), 17 and 18 (skirmish A: light foot),
19 (foot, regular), 20 (foot, class C: poor), the guns, and the French general (Lauriston);
I Prussian Corps: cuirassiers (heavy cavalry rated A), light foot 1 and 2, foot 3 and 4, guns,
all elite under Gifted Yorck, the Allied general; II Prussian Corps (lancers, foot, guns) marches
to the sound of the guns and comes on at turn 4 (seed 000).
"""

import json
import re

import pytest

from campaign1813.campaign.battle.ruleset004.autoresolve import resolve
from campaign1813.campaign.battle.setup import ALLIED, FRENCH
from campaign1813.campaign.cli import main
from tests.battle.referee import Table, magdeburg

FCAV, F17, F19, F20, FART = ("5 Corps/3 cavalry", "5 Corps/17", "5 Corps/19", "5 Corps/20",
                             "5 Corps/artillery")
FG, AG = f"{FRENCH} general", f"{ALLIED} general"
PCAV, P1, P3, P4, PART = (f"I Prussian Corps/{k}" for k in ("1 cavalry", "1", "3", "4",
                                                             "artillery"))
RCAV, R5 = "II Prussian Corps/2 cavalry", "II Prussian Corps/5"
LATE = "not yet on the table: its corps marches to the sound of the guns and arrives on turn 4"


def _quiet_turn(t: Table, late_tried: bool = True) -> None:
    """A turn in which nobody moves, fires or fights: dice (French 3, Allied 4), both done,
    the fire over, the turn ended."""
    t.do("first-move", typed=[3, 4])
    if late_tried:
        t.refused("move", LATE, unit=RCAV, distance_cm=6)
    t.do("done", side=ALLIED)
    t.do("done", side=FRENCH)
    t.do("end-fire")
    t.do("end-turn")


def test_seed_004_refuses_what_it_forbids_and_plays_on_to_an_army_lost():
    t = Table(magdeburg("004"))
    t.refused("national", "no national characteristics called 'narnian' \\(known: ",
              nation="Prussian", characteristics="narnian")
    t.refused("move", "a move belongs to the movement phase", unit=P3, distance_cm=3)

    # -- Turn 1. "Dice for the right to move first": French 2, Allied 5.
    t.do("first-move", typed=[2, 5])
    assert t.state.to_move == ALLIED
    assert not any(k.startswith("II Prussian") for k in t.acting())
    lines = t.engine.status_lines(t.setup, t.state)
    assert all(x.startswith("  ") and "arrives on turn 4" in x
               for x in lines if "[II Prussian Corps/" in x)
    t.refused("move", LATE, unit=R5, distance_cm=6, odds=True)
    t.refused("move", "it is the Allied's move, not the French's", unit=F19, distance_cm=3)
    # "Regular foot in firing order …: 6cm"
    t.refused("move", "may move 6 cm this turn, not 7 cm", unit=P3, distance_cm=7, odds=True)
    # "Foot may not charge horse"; "Artillery and light infantry never charge"
    t.refused("move", "foot may not charge horse", unit=P3, distance_cm=3, charge=FCAV)
    t.refused("move", "light foot never charge", unit=P1, distance_cm=3, charge=F19)
    t.refused("move", "guns never charge", unit=PART, distance_cm=0, charge=F19)
    # "A gun may only be charged if it has no close-order foot within 4cm"
    t.refused("move", "close-order foot within 4 cm", unit=PCAV, distance_cm=5, charge=FART,
              foot_near_gun_cm=3)
    # "Charging … must not involve a wheel of more than 45 degrees"
    t.refused("move", "no more than 45 degrees, not 60|45", unit=PCAV, distance_cm=2,
              charge=FART, wheel_degrees=60)
    t.refused("move", "does not charge its own side", unit=PCAV, distance_cm=5, charge=P3)
    t.refused("move", LATE, unit=PCAV, distance_cm=5, charge=R5)
    # 3 of 6 cm: no variation die. Into the flank of the poor 20 Infantry Brigade.
    t.do("move", unit=P3, distance_cm=3, charge=F20, face="flank")
    t.refused("move", "it is the French's move, not the Allied's", unit=PCAV, distance_cm=5)
    # "A general may be attached to any unit"
    t.do("attach", side=FRENCH, unit=FART)
    t.refused("attach", LATE, side=ALLIED, unit=R5)
    t.do("done", side=FRENCH)
    t.do("move", unit=PCAV, distance_cm=5, charge=FART)
    t.refused("move", "has already moved this turn", unit=PCAV, distance_cm=1)
    # "Only one unit can contact each face of an enemy unit"
    t.refused("move", "only one unit can contact each face of an enemy: the flank of 20 "
                      "Infantry Brigade is taken", unit=P4, distance_cm=3, charge=F20,
              face="flank")
    t.do("done", side=ALLIED)

    # The fire. Those who moved (the charging foot) are not listed as able to fire.
    assert P3 not in t.acting() and P4 in t.acting() and PCAV not in t.acting()
    # "Foot and light horse, except for lancers, can fire."
    t.refused("fire", LATE, unit=R5, target=F19, typed=[6], odds=True)
    t.refused("fire", "heavy horse cannot fire musketry", unit=FCAV, target=P4, typed=[6],
              odds=True)
    # "No other troops may move and fire in the same turn"
    t.refused("fire", "moved this turn and may not fire", unit=P3, target=F20, typed=[6],
              odds=True)
    # "Canister: 0-12cm"
    t.refused("fire", "canister reaches 12 cm, not 13 cm", unit=PART, target=F19,
              shot="canister", distance_cm=13, typed=[6, 6], odds=True)
    t.refused("fire", "has no guns to fire canister", unit=P4, target=F19, shot="canister",
              odds=True)
    t.refused("fire", "a general is not fired at", unit=PART, target=FG, typed=[6])
    t.refused("melee", "a melee belongs to the melee phase", attacker=P3, defender=F20)
    t.do("end-fire")

    # The melees. A charge must be fought: the turn cannot end before it.
    t.refused("end-turn", "the turn cannot end before its melees are fought .* still to "
                          "fight: 3 Infantry Brigade against 20 Infantry Brigade; "
                          "1 Cavalry Brigade against 5 Corps Artillery")
    t.refused("melee", "did not charge", attacker=P4, defender=F19, typed=[6], odds=True)
    # Close-order foot against other close-order foot, in the flank: 1 die a step and an
    # extra one a step: 8 dice, all 6: 8 hits; the poor brigade's 4 dice, all 1: none. It had
    # 4 steps: eliminated.
    t.do("melee", typed=[6] * 8 + [1] * 4, attacker=P3, defender=F20)
    assert t.state.units[F20].eliminated
    t.refused("end-turn", "still to fight: 1 Cavalry Brigade against 5 Corps Artillery$")
    # "Artillery is automatically eliminated in a melee": no die; the general with them falls.
    step = t.do("melee", attacker=PCAV, defender=FART)
    assert step.rolls == ()
    assert t.state.units[FART].eliminated and t.state.units[FG].eliminated
    t.refused("melee", "has been eliminated", attacker=PCAV, defender=FART)
    assert t.engine.decision(t.setup, t.state).outcome is None, "French 4 of 7: not below half"
    t.do("end-turn")

    # -- Turns 2 and 3: no one acts; II Prussian Corps is not yet there.
    _quiet_turn(t)
    _quiet_turn(t)

    # -- Turn 4: II Prussian Corps comes on, listed as able to act.
    t.do("first-move", typed=[3, 4])
    assert {RCAV, R5} <= set(t.acting())
    # The lancers, 6 of their 12 cm, into the flank of the 19 Infantry Brigade.
    t.do("move", unit=RCAV, distance_cm=6, charge=F19, face="flank")
    t.do("done", side=FRENCH)
    t.do("done", side=ALLIED)
    t.do("end-fire")
    t.refused("end-turn", "still to fight: 2 Cavalry Brigade against 19 Infantry Brigade$")
    # Lancers against other close-order foot: 4 dice a step, and 1 more in the flank: 20
    # dice, all 6; the foot's 4 dice, all 1. 19 Infantry Brigade is gone: 3 of 7 French units
    # are left, below half, and the Allies win.
    step = t.do("melee", typed=[6] * 20 + [1] * 4, attacker=RCAV, defender=F19)
    assert t.state.units[F19].eliminated
    assert step.lines[-1] == ("Result: the Allied win: the French army has 3 of its 7 units "
                              "left, below half")
    t.refused("end-turn", "the battle is over: .*; finish it")
    t.refused("move", "the battle is over", unit=R5, distance_cm=1)
    t.do("finish")
    decision = t.engine.decision(t.setup, t.state)
    assert decision.final and decision.winner.value == ALLIED


def _odds(capsys, *words):
    code = main(["odds", "--ruleset", "004", *words])
    return code, capsys.readouterr()


@pytest.mark.parametrize(("words", "message"), [
    # "Foot may not charge horse."
    (["melee", "--attacker", "foot", "--defender", "heavy-horse"], "foot may not charge horse"),
    # "Artillery and light infantry never charge"
    (["melee", "--attacker", "guns", "--defender", "foot"], "guns never charge"),
    (["melee", "--attacker", "light-foot", "--defender", "foot"], "light foot never charge"),
    # "A gun may only be charged if it has no close-order foot within 4cm."
    (["melee", "--attacker", "heavy-horse", "--defender", "guns", "--foot-near-gun", "4"],
     "close-order foot within 4 cm"),
    # "Charging … must not involve a wheel of more than 45 degrees"
    (["melee", "--attacker", "heavy-horse", "--defender", "foot", "--wheel", "60"],
     "no more than 45 degrees, not 60"),
    # "Foot and light horse, except for lancers, can fire." (lancers are not offered)
    (["musketry", "--firer", "lancers"], "invalid choice: 'lancers' \\(choose from 'foot'"),
    (["melee", "--attacker", "foot", "--defender", "narnia"], "choose from 'foot'"),
    (["artillery", "--shot", "grape"], "choose from 'canister', 'roundshot'"),
    (["morale", "--quality", "militia"], "choose from 'elite', 'regular', 'poor'"),
])
def test_seed_004_odds_refuse_what_play_refuses(capsys, words, message):
    code, out = _odds(capsys, *words)
    assert code != 0 and out.out == ""
    assert re.search(message, out.err), out.err


def test_seed_004_odds_of_a_tied_melee_fought_again_need_no_charge(capsys):
    """"A tie results in another round of meleeing on the following turn": no charge is made,
    so foot that hold horse fight on: foot 4 dice, 4-6, against heavy horse 4 dice."""
    code, out = _odds(capsys, "melee", "--attacker", "foot", "--defender", "heavy-horse",
                      "--another-round", "--json")
    assert code == 0
    data = json.loads(out.out)
    assert data["attacker_dice"] == "4 dice" and data["defender_dice"] == "4 dice"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_seed_004_auto_resolve_brings_the_reinforcement_on_at_turn_4(seed):
    """Auto-resolve plays the table's rule: II Prussian Corps (due at turn 4, seed 000)
    neither fires, charges nor is fired at or charged before turn 4."""
    setup = magdeburg("004")
    r = resolve(setup, seed)
    late = {b.name for b in setup.corps_brigades("II Prussian Corps")}
    before = r.report[:next((n for n, x in enumerate(r.report) if x == "Turn 4"),
                            len(r.report))]
    assert not [x for x in before
                if any(re.search(rf"(?<![\d\w]){re.escape(name)}", x) for name in late)]
    if r.turns >= 4:  # and from turn 4 on they fight
        assert any(re.search(r"(?<!\d)[5-8] Infantry Brigade", x)
                   for x in r.report[len(before):])


@pytest.mark.parametrize(("words", "message"), [
    # "light cavalry in a screening role may deploy in one rank": no one else
    (["musketry", "--firer", "foot", "--one-rank"], "foot do not deploy in one rank"),
    # "Cuirassiers cancel a hit …": cuirassiers are heavy horse (convert.py)
    (["musketry", "--firer", "foot", "--target", "foot", "--cuirassiers"],
     "foot are not cuirassiers"),
    (["melee", "--attacker", "light-horse", "--attacker-cuirassiers", "--defender", "foot"],
     "light horse are not cuirassiers"),
])
def test_seed_004_odds_refuse_facts_no_unit_of_play_can_have(capsys, words, message):
    code, out = _odds(capsys, *words)
    assert code != 0 and out.out == "" and message in out.err, out.err
