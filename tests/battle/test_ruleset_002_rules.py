"""Ruleset 002's movement, terrain and rally rules, each citing its line of seed 002."""

from fractions import Fraction as F

import pytest

from campaign1813.campaign.battle.ruleset002.movement import Move, allowance, check_move
from campaign1813.campaign.battle.ruleset002.rally import Rally, check_rally
from campaign1813.campaign.battle.ruleset002.units import Ground
from campaign1813.campaign.battle.ruleset002.units import UnitKind as K
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused


def test_movement_allowances():
    """seed 002: "Cavalry 6"", "Skirmishers 6"", "Infantry 6"", "Artillery 6"", "Commanders
    9""; "Add 3" when all movement is along a road"; "Add 3" when starting movement within 6"
    of [a] General"."""
    assert {allowance(k) for k in K} == {6}
    assert allowance(None) == 9
    assert allowance(K.INFANTRY, road=True) == 9
    assert allowance(K.ARTILLERY, road=True, near_general=True) == 12
    assert allowance(None, road=True, near_general=True) == 15


def test_a_unit_may_never_exceed_its_allowance():
    """seed 002: "A unit may move up to their movement allowance, but may never exceed it"."""
    check_move(Move(K.INFANTRY, F(6)))
    with pytest.raises(ActionRefused, match="may move 6 inches here, not 13/2"):
        check_move(Move(K.INFANTRY, F(13, 2)))


@pytest.mark.parametrize(("move", "why"), [
    (Move(K.INFANTRY, F(3), to=Ground.WOODS), "infantry may not end a move in woods "
                                             r"\(skirmishers may\)"),
    (Move(K.CAVALRY, F(3), to=Ground.TOWN), "cavalry may not end a move in town"),
    (Move(K.ARTILLERY, F(3), to=Ground.TOWN), "artillery may not end a move in town"),
    (Move(K.CAVALRY, F(3), to=Ground.ENTRENCHMENT), "may not end a move in entrenchment"),
    (Move(K.SKIRMISHERS, F(3), to=Ground.MARSH), r"marsh \(no unit may\)"),
    (Move(K.INFANTRY, F(3), to=Ground.TOWN, town_held=True), "only one unit may occupy a town"),
    (Move(K.INFANTRY, F(3), across_river=True), "impassable except at a bridge or ford"),
    (Move(K.INFANTRY, F(3), engaged=True), "engaged in combat may not move until it is "
                                          "rallied"),
    (Move(K.ARTILLERY, F(0), start=Ground.ENTRENCHMENT, pivot_only=True),
     "stays there, static"),
])
def test_moves_the_terrain_rules_forbid(move, why):
    """seed 002, Terrain: "Woods - only Skirmisher units can enter"; "Towns - only Infantry,
    guards and skirmishers …, only one unit may occupy a town"; "Marsh/Lakes - impassable";
    "Rivers - impassable except at bridge/ford"; entrenched units "must remain static";
    Movement: engaged units "may not move unless they are rallied"."""
    with pytest.raises(ActionRefused, match=why):
        check_move(move)


def test_moves_the_rules_allow():
    """seed 002: skirmishers in woods, guards in a town, a river at a ford, an engaged unit
    pivoting to face an enemy, cavalry (which carry no marker) moving."""
    check_move(Move(K.SKIRMISHERS, F(6), to=Ground.WOODS))
    check_move(Move(K.ELITE, F(6), to=Ground.TOWN))
    check_move(Move(K.ARTILLERY, F(6), to=Ground.ENTRENCHMENT))
    check_move(Move(K.INFANTRY, F(6), across_river=True, at_crossing=True))
    check_move(Move(K.INFANTRY, pivot_only=True, engaged=True))
    check_move(Move(K.CAVALRY, F(6), engaged=True, to=Ground.HILL))


def test_the_general_rallies_at_any_distance_when_no_enemy_is_near():
    """seed 002: "If a unit is not within 6" of an enemy unit, then the General can rally they
    unit at any distance"; "If the unit is within 6" of any enemy units, then they must be
    within 6 inches of the General"."""
    check_rally(Rally(by_general=True, engaged=True, enemy_near=False, near=False))
    check_rally(Rally(by_general=True, engaged=True, enemy_near=True, near=True))
    with pytest.raises(ActionRefused, match="the General must be within 6 inches"):
        check_rally(Rally(by_general=True, engaged=True, enemy_near=True, near=False))


def test_a_commander_rallies_near_his_unit_once_a_step():
    """seed 002: "A commander can rally one unit during the rally step within 6" of their
    attached unit. This also applied to the unit they are assigned to"; "Generals can rally
    one unit during the rally step"."""
    check_rally(Rally(by_general=False, engaged=True, enemy_near=True, near=True))
    with pytest.raises(ActionRefused, match="within 6 inches of his attached unit"):
        check_rally(Rally(by_general=False, engaged=True, enemy_near=False, near=False))
    with pytest.raises(ActionRefused, match="he has none"):
        check_rally(Rally(by_general=False, engaged=True, enemy_near=False, near=True,
                          attached=False))
    with pytest.raises(ActionRefused, match="a commander rallies 1 unit"):
        check_rally(Rally(by_general=False, engaged=True, enemy_near=False, near=True, used=1))
    with pytest.raises(ActionRefused, match="the General rallies 1 unit"):
        check_rally(Rally(by_general=True, engaged=True, enemy_near=False, near=True, used=1))


def test_only_a_marked_unit_is_rallied():
    """seed 002: "Units which have been engaged in combat may not move unless they are
    rallied": a rally takes that marker off, and a unit without it has nothing to rally."""
    with pytest.raises(ActionRefused, match="carries no 'engaged in combat' marker"):
        check_rally(Rally(by_general=True, engaged=False, enemy_near=False, near=True))
