"""Each clause the referee holds the 1813 battle to, on its own: the orders each combat needs
(Rules 4, 9-15 of seed 000 and the revision of Rule 4 in seed 003), the costs and limits of
Rules 3, 7 and 12, the sequence, the garrison of Rule 9 and the blinds of Rule 1.

The battle (tests/battle/setups.py): 1 French Corps (class B, Average commander, medium cavalry,
a 9-pounder battery) deployed in line, against 1 Prussian Corps (class B, Average) entering in
column of march; an Average CinC each. Chips 1 French CinC, 2 1 French Corps, 3 Allied CinC,
4 1 Prussian Corps, Poor. Unless a test says otherwise both blinds are spotted before the first
chip (12 inches in the open: automatic, Rule 1) and the French corps' pips are 4 + 2 = 6.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from campaign1813.campaign.battle.ruleset1813 import fight as f
from campaign1813.campaign.battle.ruleset1813.fight_tests import prepare
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused
from campaign1813.campaign.battle.ruleset1813.session import act
from campaign1813.campaign.battle.terms import Grade, MoraleState
from tests.battle.setups import setup

FR, PR = "1 French Corps", "1 Prussian Corps"
ART = f"{FR}/art"


class Battle:
    def __init__(self, orders: str = "", ruleset: str = "1813", spotted: bool = True,
                 prussian_orders: str = ""):
        self.setup = setup(["B"], ["B"], cinc=True, ruleset=ruleset)
        self.steps: list[f.Step] = []
        if orders:
            self.do("orders", corps=FR, order=orders)
        if prussian_orders:
            self.do("orders", corps=PR, order=prussian_orders)
        if spotted:
            self.do("test", test="spot", who=PR, target=FR, options={"inches": 12})
            self.do("test", test="spot", who=FR, target=PR, options={"inches": 12})

    def do(self, action, *typed, **inputs):
        step = act(self.setup, self.steps, action, typed=list(typed) or None, **inputs)
        self.steps.append(step)
        return step

    def french_move(self, pips: int = 4) -> Battle:
        self.do("draw", chip="2")
        self.do("pips", pips)
        return self

    @property
    def now(self) -> f.FightState:
        return f.replay(self.setup, self.steps)

    def odds(self, test, who="", target="", **options):
        return prepare(self.setup, self.now, test, who, target, options)

    def refused(self, match, action, *typed, **inputs):
        """Refused with ``match``, the battle unchanged."""
        before, steps = self.now, len(self.steps)
        with pytest.raises(ActionRefused, match=match):
            self.do(action, *typed, **inputs)
        assert self.now == before and len(self.steps) == steps


# -- orders (Rules 4, 9-15) -------------------------------------------------------------------


def test_rule_13_infantry_fight_hand_to_hand_only_on_attack_orders():
    b = Battle("Hold").french_move()
    b.refused(r"Rule 13: infantry fight hand to hand only on Attack orders; 1 Infantry Brigade "
              r"\(1 French Corps\) \(1 French Corps\) has Hold orders", "test", (6, 6),
              test="combat", who=f"{FR}/1", target=f"{PR}/1")
    with pytest.raises(ActionRefused, match="Rule 13"):           # the odds refuse alike
        b.odds("combat", f"{FR}/1", f"{PR}/1")
    # On Attack orders: line against column +2 for the French, 0 for the column of march.
    b = Battle("Attack").french_move()
    assert b.odds("combat", f"{FR}/1", f"{PR}/1").known[2] == (
        "factors 2 against 0: 1 Infantry Brigade (1 French Corps) rolls 2d6 + 2")


def test_rules_11_and_12_attack_orders_allow_no_skirmish_and_no_fire_fight():
    b = Battle("Attack").french_move()
    b.refused("Rule 11: infantry start a skirmish only on Hold or Engage orders", "test", 4, 4,
              test="skirmish", who=f"{FR}/1", target=f"{PR}/1")
    b.refused("Rule 12: infantry open a fire fight only on Engage or Hold orders", "test",
              (6, 6), test="firefight", who=f"{FR}/1", target=f"{PR}/1")


@pytest.mark.parametrize("order", ["Move", "Halt"])
def test_rule_4_move_and_halt_orders_allow_no_infantry_fire(order):
    b = Battle(order).french_move()
    b.refused(f"Rule 11: .* has {order} orders", "test", 4, 4, test="skirmish", who=f"{FR}/1",
              target=f"{PR}/1")
    b.refused(f"Rule 12: .* has {order} orders", "test", (6, 6), test="firefight",
              who=f"{FR}/1", target=f"{PR}/1")


def test_rule_4_infantry_fire_on_hold_or_engage_only_within_8_inches():
    b = Battle("Engage").french_move()
    b.refused(r"Rule 4: 1 Infantry Brigade \(1 French Corps\) \(Engage orders\) may fire only "
              r"at enemy within 8 inches \(this one is 10 inches away\)", "test", 4, 4,
              test="skirmish", who=f"{FR}/1", target=f"{PR}/1", options={"inches": "10"})
    # Rule 11 at 8 inches: d6 + 2 (skirmish B) kills on 4+: 1/2 each way.
    odds = b.odds("skirmish", f"{FR}/1", f"{PR}/1", inches="8").odds
    assert [p for _, p in odds] == [Fraction(1, 2), Fraction(1, 2)]
    # Seed 003's Rule 4: on Hold or Engage infantry fire on any enemy in range.
    r = Battle("Engage", ruleset="1813-revised").french_move()
    assert r.odds("skirmish", f"{FR}/1", f"{PR}/1", inches="10").odds


def test_rule_14_cavalry_charge_cavalry_on_engage_hold_or_attack_within_rule_4s_reach():
    b = Battle("Move").french_move()
    b.refused("Rule 14: cavalry charge cavalry only on Engage or Hold or Attack orders; .* "
              "has Move orders", "test", (6, 6), test="combat", who=f"{FR}/cav",
              target=f"{PR}/cav")
    b = Battle("Hold").french_move()
    b.refused("Rule 4: .* may charge only at enemy within 8 inches", "test", (6, 6),
              test="combat", who=f"{FR}/cav", target=f"{PR}/cav", options={"inches": "10"})
    assert b.odds("combat", f"{FR}/cav", f"{PR}/cav", inches="8").rule == "Rule 14"


def test_rule_15_cavalry_charge_infantry_only_on_attack_orders():
    b = Battle("Engage").french_move()
    b.refused("Rule 15: cavalry charge infantry .* only on Attack orders; .* has Engage "
              "orders", "test", (6, 6), test="combat", who=f"{FR}/cav", target=f"{PR}/1")
    b = Battle("Attack").french_move()
    # Medium cavalry in line +2 against the column of march 0: 2d6 + 2.
    assert b.odds("combat", f"{FR}/cav", f"{PR}/1").known[2].startswith("factors 2 against 0")


def test_rules_9_and_10_attack_at_the_edge_attack_or_engage_inside():
    b = Battle("Engage").french_move()
    b.refused("Rule 9: infantry fight hand to hand only on Attack orders", "test", (6, 6),
              test="combat", who=f"{FR}/1", target=f"{PR}/1", options={"rule": "9"})
    assert b.odds("combat", f"{FR}/1", f"{PR}/1", rule="10").rule == "Rule 10"
    b = Battle("Hold").french_move()
    b.refused("Rule 10: infantry fight hand to hand only on Attack or Engage orders", "test",
              (6, 6), test="combat", who=f"{FR}/1", target=f"{PR}/1", options={"rule": "10"})


# -- costs and limits (Rules 3, 7, 12) ---------------------------------------------------------


def test_rule_7_a_battery_fires_once_per_move_paying_its_pip():
    b = Battle().french_move()
    b.do("test", (3, 3), test="fire", who=ART, target=f"{PR}/1", options={"band": "short"})
    assert b.now.activation.remaining == 5 and b.now.activation.acted == ((ART, "fire"),)
    b.do("roll", 6)                                 # its morale test: 6 - 1 = 5, a pass
    b.refused(r"Rule 7: a battery fires once per move; 1 French Corps Artillery has fired",
              "test", (3, 3), test="fire", who=ART, target=f"{PR}/2", options={"band": "short"})
    # its next move it fires again
    b.do("end-turn", confirm=True)
    b.do("draw", chip="2")
    b.do("pips", 2)
    b.do("test", (1, 1), test="fire", who=ART, target=f"{PR}/2", options={"band": "short"})
    assert b.now.activation.remaining == 3


def test_rule_3_fire_skirmish_and_fire_fight_cost_a_pip_each_and_no_pip_no_shot():
    b = Battle().french_move(pips=2)                # 2 + 2 = 4
    b.do("test", (1, 1), test="fire", who=ART, target=f"{PR}/1", options={"band": "long"})
    b.do("test", 1, 1, test="skirmish", who=f"{FR}/1", target=f"{PR}/1")
    b.do("test", (3, 3), test="firefight", who=f"{FR}/2", target=f"{PR}/2")
    assert b.now.activation.spent == (("artillery action (1 French Corps Artillery)", 1),
                                      ("infantry fire (1 Infantry Brigade (1 French Corps))", 1),
                                      ("infantry fire (2 Infantry Brigade (1 French Corps))", 1))
    b.do("test", 1, 1, test="skirmish", who=f"{FR}/3", target=f"{PR}/3")
    b.refused(r"cannot infantry fire \(4 Infantry Brigade \(1 French Corps\)\): it costs 1 pip "
              "and 0 are left", "test", 1, 1,
              test="skirmish", who=f"{FR}/4", target=f"{PR}/4")


def test_rule_3_the_pip_is_always_paid_so_a_pay_option_means_nothing_and_is_refused():
    b = Battle().french_move()
    b.refused(r"the fire test has no option 'pay' \(its options: band, inches, cover, behind, "
              r"friends-near, overhead\)", "test", (1, 1), test="fire", who=ART,
              target=f"{PR}/1", options={"band": "long", "pay": True})
    b.refused(r"the skirmish test has no option 'pay' \(its options: inches, facts, "
              r"enemy-facts, no-reply\)", "test", 1, 1, test="skirmish", who=f"{FR}/1",
              target=f"{PR}/1", options={"pay": True})


def test_rule_12_no_fire_fight_after_a_skirmish_by_the_same_brigade_in_the_move():
    b = Battle().french_move()
    b.do("test", 1, 1, test="skirmish", who=f"{FR}/1", target=f"{PR}/1")
    b.refused(r"Rule 12: 1 Infantry Brigade \(1 French Corps\) has skirmished this move and "
              "may not also fire fight", "test", (6, 6), test="firefight", who=f"{FR}/1",
              target=f"{PR}/1")
    with pytest.raises(ActionRefused, match="Rule 12"):
        b.odds("firefight", f"{FR}/1", f"{PR}/1")
    b.do("test", (3, 3), test="firefight", who=f"{FR}/2", target=f"{PR}/2")   # another may
    # the rules set no other limit on a brigade's fire: it skirmishes again, paying again
    b.do("test", 1, 1, test="skirmish", who=f"{FR}/1", target=f"{PR}/2")
    assert b.now.activation.remaining == 3


def test_rule_3_a_corps_commander_uses_all_his_pips_or_the_umpire_confirms():
    b = Battle().french_move()                      # 6 pips
    b.do("spend", what="move", brigade=f"{FR}/1")
    b.refused("Rule 3: 1 French Corps commander must use all his pips to carry out his orders "
              "and has 5 pips unspent; spend them, or confirm", "draw", chip="1")
    b.refused("Rule 3: .* has 5 pips unspent", "end-turn")
    step = b.do("draw", chip="1", confirm=True)
    assert step.lines[0] == ("1 French Corps commander has 5 pips unspent: the umpire confirms "
                             "nothing more serves his orders (Rule 3)")
    # the CinC's pips carry no such duty
    b.do("pips", 2)
    assert not any("Rule 3" in line for line in b.do("draw", chip="4").lines)
    # no pips rolled at all
    b.refused("Rule 3: .* has not rolled his pips; roll and spend them", "draw", chip="3")


# -- the sequence ------------------------------------------------------------------------------


def test_spends_keep_the_sequence_and_wait_for_the_artillery_morale_tests():
    b = Battle().french_move()
    b.do("test", (6, 6), test="fire", who=ART, target=f"{PR}/1", options={"band": "short"})
    # Rule 17: casualties from artillery are tested at once, before any movement
    b.refused("Rule 17: brigades hit by artillery test their morale at once, before move at "
              r"the movement step: take or dismiss first morale test for 1 Infantry Brigade "
              r"\(1 Prussian Corps\)", "spend", what="move", brigade=f"{FR}/1")
    b.do("roll", 6)                                  # 6 - 2 = 4: a pass
    b.do("spend", what="move", brigade=f"{FR}/1")
    b.do("spend", what="infantry-fire", brigade=f"{FR}/2")
    assert b.now.activation.stage == f.Stage.COMBAT
    for what in ("move", "half-move-and-change-formation", "change-formation", "garrison"):
        b.refused(f"{what.replace('-', ' ')} comes at the movement step, and this move has "
                  "gone on to combats", "spend", what=what, brigade=f"{FR}/3")


# -- the garrison (Rule 9) ---------------------------------------------------------------------


def test_rule_9_infantry_garrison_once_and_hold_the_fact_from_the_end_of_the_move():
    b = Battle("Hold", prussian_orders="Attack").french_move()
    b.refused(r"Rule 9: only infantry garrison a built-up area or wood; 1 Cavalry Brigade "
              r"\(1 French Corps\) is cavalry", "spend", what="garrison", brigade=f"{FR}/cav")
    b.refused("Rule 9: only infantry garrison .* is artillery", "spend", what="garrison",
              brigade=ART)
    b.refused("Rule 9: name the brigade", "spend", what="garrison")
    b.do("spend", what="garrison", brigade=f"{FR}/1")
    assert b.now.brigades[f"{FR}/1"].garrison
    b.refused("Rule 9: .* already garrisons", "spend", what="garrison", brigade=f"{FR}/1")
    # in the move it was paid the garrison has not yet held a full move: no +2
    assert b.odds("combat", f"{PR}/1", f"{FR}/1", rule="9").known[2].startswith(
        "factors 0 against 0")
    b.do("draw", chip="4", confirm=True)
    b.do("pips", 3)
    # Rule 9 from the Prussian side: class B 0 against the garrison +2: the garrison rolls
    # 2d6 + 2. A garrison given by hand to a brigade that has not paid is refused.
    assert b.odds("combat", f"{PR}/1", f"{FR}/1", rule="9").known[2] == (
        "factors 0 against 2: 1 Infantry Brigade (1 French Corps) rolls 2d6 + 2")
    b.refused(r"Rule 9: 2 Infantry Brigade \(1 French Corps\) is no garrison", "test", (6, 6),
              test="combat", who=f"{PR}/1", target=f"{FR}/2",
              options={"rule": "9", "enemy-facts": ["garrison"]})
    # the garrison rolls a typed 1,1: 2 + 2 = 4, "Winner retires 4\" shaken": the garrison, the
    # side that rolled, falls back shaken and holds the place no longer
    b.do("test", (1, 1), test="combat", who=f"{PR}/1", target=f"{FR}/1",
         options={"rule": "9"})
    assert b.now.brigades[f"{FR}/1"].state is MoraleState.SHAKEN
    assert not b.now.brigades[f"{FR}/1"].garrison


def test_rule_9_a_garrison_that_moves_leaves_its_place():
    b = Battle().french_move()
    b.do("spend", what="garrison", brigade=f"{FR}/1")
    step = b.do("spend", what="move", brigade=f"{FR}/1")
    assert step.lines[-1] == ("1 Infantry Brigade (1 French Corps) leaves the built-up area or "
                              "wood it garrisoned")
    assert not b.now.brigades[f"{FR}/1"].garrison


# -- the blinds (Rule 1) -----------------------------------------------------------------------


def test_rule_1_a_corps_on_its_blind_rolls_the_blinds_pips_and_is_not_fired_on():
    b = Battle(spotted=False)
    b.do("draw", chip="2")
    # Rule 1: average die (2, 3, 3, 4, 4, 5) + 0 for an Average commander
    assert f.pips_distribution(b.setup, FR, b.now) == {
        2: Fraction(1, 6), 3: Fraction(1, 3), 4: Fraction(1, 3), 5: Fraction(1, 6)}
    assert b.do("pips", 3).lines == ("Pips on the blind (Rule 1): 3 +0 (Average) = 3",)
    assert b.now.activation.blind
    for test, typed in (("fire", ((6, 6),)), ("skirmish", (4, 4)), ("firefight", ((6, 6),))):
        who = ART if test == "fire" else f"{FR}/1"
        b.refused(r"Rule 1: 1 Infantry Brigade \(1 Prussian Corps\) is on 1 Prussian Corps' "
                  "blind, not yet spotted", "test", *typed, test=test, who=who,
                  target=f"{PR}/1", options={"band": "short"} if test == "fire" else {})
    b.do("test", test="spot", who=f"{FR}/cav", target=PR, options={"inches": 12})
    b.do("test", (6, 6), test="fire", who=ART, target=f"{PR}/1", options={"band": "short"})
    assert b.now.brigades[f"{PR}/1"].casualties == 2
    # once spotted, the ordinary pips: the Prussian commander 3 + 2 = 5 (Rule 3)
    b.do("roll", 6)
    b.do("draw", chip="4", confirm=True)
    assert b.do("pips", 3).lines == ("Pips: 3 + 2 (Average) = 5",)


def test_rule_7_a_battery_fires_only_in_its_own_corps_move():
    """Rule 7: guns fire in their corps' move; the pip is its own commander's to pay."""
    b = Battle()
    b.do("formation", brigade=f"{PR}/art", formation="unlimbered")
    b.french_move()
    b.refused(r"1 Prussian Corps Artillery is not of 1 French Corps commander's command; only "
              "its own commander may pay for it", "test", (6, 6), test="fire", who=f"{PR}/art",
              target=f"{FR}/1", options={"band": "short"})


def test_rule_7_a_poor_commander_missing_his_move_still_fires_his_guns_and_nothing_else():
    """Rule 7: artillery fire even when the Poor chip makes the corps miss its move; the
    commander has no pips, so the shot costs none, and nothing else of his corps acts."""
    b = Battle()
    s = b.setup
    poor = replace(s.commander(FR), grade=Grade.POOR)
    b.setup = replace(s, commanders=tuple(poor if c.key == FR else c for c in s.commanders))
    b.do("draw", chip="Poor")
    assert b.do("draw", chip="2").lines[-1] == "Miss move due to Poor Card"
    b.refused("misses his move for the Poor chip and cannot roll pips", "pips", 3)
    b.refused("misses his move for the Poor chip and cannot spend pips", "spend", what="move",
              brigade=f"{FR}/1")
    b.refused("misses his move .* cannot take a skirmish test", "test", 4, 4, test="skirmish",
              who=f"{FR}/1", target=f"{PR}/1")
    b.do("test", (6, 6), test="fire", who=ART, target=f"{PR}/1", options={"band": "short"})
    assert b.now.brigades[f"{PR}/1"].casualties == 2 and b.now.activation.spent == ()
    b.refused("Rule 7: a battery fires once per move", "test", (6, 6), test="fire", who=ART,
              target=f"{PR}/2", options={"band": "short"})


def test_the_odds_in_the_battle_refuse_what_the_roll_would_refuse():
    """The sequence and Rule 3 hold the odds as they hold the roll: no odds of a fire before
    the pips are rolled, after the combats have begun, or with no pip to pay for it."""
    b = Battle()
    b.do("draw", chip="2")
    with pytest.raises(ActionRefused, match="must roll his pips before a fire test"):
        b.odds("fire", ART, f"{PR}/1", band="short")
    b.do("pips", 2)                                  # 2 + 2 = 4
    assert dict(b.odds("fire", ART, f"{PR}/1", band="short").odds)["miss"] == Fraction(5, 18)
    b.do("test", 1, 1, test="skirmish", who=f"{FR}/1", target=f"{PR}/1")
    with pytest.raises(ActionRefused, match="a fire test comes at the artillery fire step, and "
                                            "this move has gone on to combats"):
        b.odds("fire", ART, f"{PR}/1", band="short")
    for n in (2, 3, 4):
        b.do("test", 1, 1, test="skirmish", who=f"{FR}/{n}", target=f"{PR}/{n}")
    with pytest.raises(ActionRefused, match="it costs 1 pip and 0 are left"):
        b.odds("skirmish", f"{FR}/2", f"{PR}/3")
