"""The indefinite article before a word, and the messages that use it: "an Allied commander",
never "a Allied commander"."""

import pytest

from campaign1813.campaign.battle.ruleset1813.rules.orders import (
    BrigadeIntent,
    Intent,
    order_allows,
)
from campaign1813.campaign.battle.terms import Arm, CorpsOrder
from campaign1813.campaign.words import article, with_article


@pytest.mark.parametrize(("word", "expected"), [
    ("Allied", "an"), ("French", "a"), ("infantry charge", "an"), ("artillery fire", "an"),
    ("Attack", "an"), ("Engage", "an"), ("Hold", "a"), ("Rest", "a"), ("Uhlan", "an"),
    ("unit", "a"), ("European", "a"), ("one", "a"), ("hour", "an"), ("hussar", "a"),
])
def test_an_before_a_vowel_sound_a_before_any_other(word, expected):
    assert article(word) == expected
    assert with_article(word) == f"{expected} {word}"


def test_an_order_for_another_arm_is_refused_with_an_before_a_vowel():
    """Rule 4's orders: only infantry makes an infantry charge; the refusal reads "an"."""
    verdict = order_allows(CorpsOrder.ATTACK, BrigadeIntent("5 Corps Artillery", Arm.ARTILLERY,
                                                           Intent.INFANTRY_CHARGE), "1813")
    assert not verdict.allowed
    assert verdict.reason == ("5 Corps Artillery is artillery; only infantry can make an "
                              "infantry charge")
