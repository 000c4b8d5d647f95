"""Seed 004, MOVEMENT and TURN SEQUENCE: distances, the variation die, wheels, first move."""

from fractions import Fraction as F

import pytest

from campaign1813.campaign.battle.dice import TypedDice
from campaign1813.campaign.battle.ruleset004.movement import (
    allowance,
    first_move_odds,
    full_move,
    needs_variation,
    roll_first_move,
    roll_variation,
    variation_odds,
)
from campaign1813.campaign.battle.ruleset004.tables import tables
from campaign1813.campaign.battle.ruleset004.units import Kind
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused

MOLLWITZ = tables().national["mollwitz_prussian"]


def test_full_moves():
    """seed 004: 'Regular foot in firing order … 6cm, All other foot: 7.5cm, Artillery: 6cm,
    Heavy horse: 10cm, Light horse and generals: 12cm'."""
    assert full_move(Kind.FOOT, firing_order=True) == 6
    assert full_move(Kind.FOOT) == full_move(Kind.LIGHT_FOOT) == F(15, 2)
    assert full_move(Kind.GUNS) == 6 and full_move(Kind.HEAVY_HORSE) == 10
    assert full_move(Kind.LIGHT_HORSE) == full_move(Kind.LANCERS) == 12
    assert full_move(Kind.GENERAL) == 12


def test_the_variation_die():
    """seed 004 The Variation: '6...add 25%, 2-5...no change, 1...subtract 25%', rolled 'for a
    unit moving its full distance, or within 25 per cent of its full distance': heavy horse 10
    cm: 7.5 cm on 1/6, 10 on 2/3, 12.5 on 1/6; 7.5 cm moved is diced for, 7 cm is not."""
    assert variation_odds(F(10)) == {F(15, 2): F(1, 6), F(10): F(2, 3), F(25, 2): F(1, 6)}
    assert needs_variation(F(15, 2), F(10)) and not needs_variation(F(7), F(10))
    assert roll_variation("Hussars", F(12), TypedDice([6]))[0] == 15
    assert roll_variation("Hussars", F(12), TypedDice([1]))[0] == 9
    assert roll_variation("Hussars", F(12), TypedDice([3]))[0] == 12


def test_wheels_about_turns_and_changes():
    """seed 004: 'Troops may wheel 45 degrees without penalty. Wheeling further costs half a
    turn. An about-turn is free, but a second in the same turn costs half the movement
    distance.' 'It takes a complete turn for foot to change into firing order.' 'Guns take a
    turn to limber or unlimber.'"""
    assert allowance(Kind.HEAVY_HORSE, wheel_degrees=45).distance_cm == 10
    assert allowance(Kind.HEAVY_HORSE, wheel_degrees=90).distance_cm == 5
    assert allowance(Kind.FOOT, about_turns=1).distance_cm == F(15, 2)
    assert allowance(Kind.FOOT, about_turns=2).distance_cm == F(15, 4)
    assert allowance(Kind.FOOT, changes="firing order").distance_cm == 0
    assert allowance(Kind.GUNS, changes="limber").distance_cm == 0
    with pytest.raises(ActionRefused, match="do not limber"):
        allowance(Kind.FOOT, changes="limber")


def test_only_light_troops_move_and_fire():
    """seed 004: 'Light troops may make a half move and fire … No other troops may move and
    fire in the same turn.'"""
    assert allowance(Kind.LIGHT_FOOT, fires=True).distance_cm == F(15, 4)
    assert allowance(Kind.LIGHT_HORSE, fires=True).distance_cm == 6
    with pytest.raises(ActionRefused, match="may not move and fire"):
        allowance(Kind.FOOT, firing_order=True, fires=True)


def test_mollwitz_wheeling():
    """seed 004, Mollwitz: Prussian foot 'suffer no movement penalty for wheeling'; Prussian
    horse: 'All wheeling costs half a move'."""
    assert allowance(Kind.FOOT, wheel_degrees=90, national=MOLLWITZ).distance_cm == F(15, 2)
    assert allowance(Kind.HEAVY_HORSE, wheel_degrees=30, national=MOLLWITZ).distance_cm == 5


def test_dice_for_the_first_move():
    """seed 004 TURN SEQUENCE: 'Dice for the right to move first': one d6 a side, a tie rolled
    again: typed 3, 3 (tie) then 2, 5: the second side moves first; each side's chance 1/2."""
    first, rolls = roll_first_move(("French", "Allied"), TypedDice([3, 3, 2, 5]))
    assert first == "Allied" and len(rolls) == 4
    assert first_move_odds() == {"first": F(1, 2), "second": F(1, 2)}
