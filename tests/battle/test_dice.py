"""Dice kinds, their exact distributions, and the two dice sources."""

from fractions import Fraction as F

import pytest

from campaign1813.campaign.battle.dice import (
    AVERAGE,
    D6,
    D10,
    ImpossibleRoll,
    SeededDice,
    TypedDice,
    distribution,
)


def test_two_d6_distribution_is_the_triangle_of_36():
    """2d6: 1/36 for 2 and 12, 6/36 for 7, and every total from 2 to 12."""
    d = distribution(D6, 2)
    assert list(d) == list(range(2, 13))
    assert d[2] == d[12] == F(1, 36)
    assert d[7] == F(6, 36)
    assert d[6] == d[8] == F(5, 36)
    assert sum(d.values()) == 1


def test_average_die_has_faces_2_3_3_4_4_5():
    """DESIGN 4.4: the average die shows 2, 3, 3, 4, 4, 5."""
    assert AVERAGE.faces == (2, 3, 3, 4, 4, 5)
    assert distribution(AVERAGE) == {2: F(1, 6), 3: F(1, 3), 4: F(1, 3), 5: F(1, 6)}


def test_d10_has_faces_1_to_10_each_one_in_ten():
    """DESIGN 4.4: the spotting die is a d10 with faces 1-10."""
    assert distribution(D10) == {n: F(1, 10) for n in range(1, 11)}


def test_typed_total_the_dice_cannot_show_is_refused_with_its_reason():
    with pytest.raises(ImpossibleRoll, match=r"13 cannot be rolled on 2d6 \(possible: 2–12\)"):
        TypedDice([13]).roll(D6, 2)


def test_typed_face_not_on_the_average_die_is_refused():
    with pytest.raises(ImpossibleRoll, match="1 is not a face of the average die"):
        TypedDice([(1,)]).roll(AVERAGE, 1)


def test_no_typed_roll_left_is_refused():
    with pytest.raises(ImpossibleRoll, match="no roll typed for d10"):
        TypedDice().roll(D10, 1, "spotting")


def test_typed_rolls_are_taken_in_order_and_recorded():
    dice = TypedDice([7, (3, 4)])
    assert dice.roll(D6, 2).total == 7
    assert dice.roll(D6, 2).faces == (3, 4)
    assert [r.total for r in dice.record] == [7, 7]


def test_same_seed_gives_the_same_rolls():
    a, b = SeededDice(1813), SeededDice(1813)
    rolls_a = [a.roll(D6, 2).faces for _ in range(50)]
    rolls_b = [b.roll(D6, 2).faces for _ in range(50)]
    assert rolls_a == rolls_b
    assert len(a.record) == 50
    other = SeededDice(1814)
    assert rolls_a != [other.roll(D6, 2).faces for _ in range(50)]
