"""Properties of the Rules 1-8 odds: they sum to one, they agree with real rolls, and worse
circumstances never help."""

from collections import Counter
from fractions import Fraction as F
from itertools import product

from hypothesis import given
from hypothesis import strategies as st

from campaign1813.campaign.battle.dice import D6, TypedDice
from campaign1813.campaign.battle.ruleset1813.rules.artillery import (
    Battery,
    FireSituation,
    RangeBand,
    Target,
    artillery_fire,
    fire_odds,
)
from campaign1813.campaign.battle.ruleset1813.rules.opportunity import (
    ChargeSituation,
    charge_odds,
    opportunity_charge,
)
from campaign1813.campaign.battle.terms import Arm, Calibre, Formation, Grade, MoraleState, Rating

RULESETS = st.sampled_from(["1813", "1813-revised"])
FIRES = st.builds(
    lambda calibre, gunners, casualties, target, band, bounce: FireSituation(
        Battery("guns", calibre, gunners, casualties), "target", target, band,
        bounce_through=bounce),
    st.sampled_from(list(Calibre)), st.sampled_from(list(Rating)), st.integers(0, 3),
    st.sampled_from(list(Target)), st.sampled_from(list(RangeBand)), st.booleans())


@given(FIRES, RULESETS)
def test_rule_7_odds_sum_to_one_and_match_every_roll(situation, ruleset):
    """Rule 7: the odds equal the tally of all 36 rolls made one by one."""
    odds = fire_odds(situation, ruleset).hits
    assert sum(odds.values()) == 1
    tally = Counter(artillery_fire(situation, TypedDice([faces]), ruleset).hits
                    for faces in product(D6.faces, repeat=2))
    assert {n: F(tally[n], 36) for n in range(3)} == odds


@given(FIRES, RULESETS)
def test_rule_7_another_gunner_casualty_never_helps(situation, ruleset):
    worse = FireSituation(Battery("guns", situation.battery.calibre, situation.battery.gunners,
                                  situation.battery.casualties + 1),
                          situation.target, situation.target_kind, situation.band,
                          bounce_through=situation.bounce_through)

    def expected(odds):
        return odds[1] + 2 * odds[2]

    assert expected(fire_odds(worse, ruleset).hits) <= expected(fire_odds(situation, ruleset).hits)


@given(st.sampled_from(list(Rating)), st.booleans(), st.booleans(), st.booleans(),
       st.integers(0, 4), RULESETS)
def test_rule_6_charge_odds_match_every_roll(rating, near, flank, poor, casualties, ruleset):
    situation = ChargeSituation(
        "hussars", rating, "column", Arm.INFANTRY, MoraleState.FORMED, Formation.COLUMN_OF_MARCH,
        flank_or_rear=flank, commander_within_4=near, casualties=casualties,
        commander_grade=Grade.POOR if poor else Grade.AVERAGE)
    odds = charge_odds(situation, ruleset)
    assert odds[True] + odds[False] == 1
    passes = sum(opportunity_charge(situation, TypedDice([face]), ruleset).passed
                 for face in D6.faces)
    assert odds[True] == F(passes, 6)
