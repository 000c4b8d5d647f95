"""Each rule's test inside a battle, its odds worked by hand, and the rest of the sequence.

The battle: 1 French Corps (all class B, medium cavalry, 9-pounders) deployed at Helmstedt,
against 1 Prussian Corps (class B) entering from the east in column of march, each side with an
Average CinC. Chips 1 French CinC, 2 1 French Corps, 3 Allied CinC, 4 1 Prussian Corps, Poor.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from campaign1813.campaign.battle.ruleset1813 import fight as f
from campaign1813.campaign.battle.ruleset1813.fight_tests import prepare
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused
from campaign1813.campaign.battle.ruleset1813.session import (
    act,
    report,
    report_html,
    report_markdown,
)
from campaign1813.campaign.battle.setup import (
    FRENCH,
    Chip,
    CommanderSetup,
    CorpsSetup,
)
from campaign1813.campaign.battle.terms import CorpsOrder, Formation, Grade, MoraleState, Role
from tests.battle.setups import setup

FR, PR = "1 French Corps", "1 Prussian Corps"


class Battle:
    def __init__(self, s=None):
        self.setup = s or setup(["B"], ["B"], cinc=True)
        self.steps: list[f.Step] = []

    def do(self, action, *typed, **inputs):
        step = act(self.setup, self.steps, action, typed=list(typed) or None, **inputs)
        self.steps.append(step)
        return step

    @property
    def now(self) -> f.FightState:
        return f.replay(self.setup, self.steps)

    def odds(self, test, who="", target="", **options):
        return dict(prepare(self.setup, self.now, test, who, target, options).odds)


def spot_french(battle: Battle) -> None:
    """Before the first chip the Prussian blind sees the French one 12 inches off (Rule 1:
    automatic), so the French commander rolls the pips of Rule 3, not the blind's of Rule 1."""
    battle.do("test", test="spot", who=PR, target=FR, options={"inches": 12})


def spot_prussians(battle: Battle) -> None:
    """The French cavalry spot the Prussian blind 12 inches off (Rule 1: automatic), whose
    brigades may then be fired on."""
    battle.do("test", test="spot", who=f"{FR}/cav", target=PR, options={"inches": 12})


@pytest.fixture
def b() -> Battle:
    battle = Battle()
    spot_french(battle)
    battle.do("draw", chip="2")
    battle.do("pips", 4)                                 # 4 + 2 (Average) = 6 pips
    return battle


def test_marching_corps_stand_in_column_of_march_and_deployed_ones_in_line(b):
    now = b.now
    assert now.brigades[f"{PR}/1"].formation is Formation.COLUMN_OF_MARCH
    assert now.brigades[f"{PR}/cav"].formation is Formation.CAVALRY_COLUMN
    assert now.brigades[f"{PR}/art"].formation is Formation.LIMBERED
    assert now.brigades[f"{FR}/1"].formation is Formation.LINE
    assert now.brigades[f"{FR}/art"].formation is Formation.UNLIMBERED


def test_rule_1_spotting_a_blind_at_20_inches_in_the_open_needs_7_on_the_d10(b):
    # Rule 1: in the open, up to 16" is automatic, up to 24" needs 7+: P = 4/10.
    assert b.odds("spot", f"{FR}/cav", PR, inches=20) == {"spotted": Fraction(2, 5),
                                                          "not spotted": Fraction(3, 5)}
    assert b.odds("spot", f"{FR}/cav", PR, inches=12)["spotted"] == 1
    b.do("test", 7, test="spot", who=f"{FR}/cav", target=PR, options={"inches": 20})
    assert b.now.corps[PR].spotted
    with pytest.raises(ActionRefused, match="already spotted"):
        b.do("test", 7, test="spot", who=f"{FR}/cav", target=PR, options={"inches": 20})


def test_the_sequence_does_not_go_back_from_combats_to_artillery_fire(b):
    spot_prussians(b)
    b.do("test", 1, 1, test="skirmish", who=f"{FR}/1", target=f"{PR}/1")
    with pytest.raises(ActionRefused, match="artillery fire comes|comes at the artillery fire"):
        b.do("test", (1, 1), test="fire", who=f"{FR}/art", target=f"{PR}/1",
             options={"band": "long"})


def test_rule_6_opportunity_charge_and_the_reaction_to_it(b):
    spot_prussians(b)     # Rule 1: a blind is charged only once spotted
    # Rule 6: 4+ on a d6, class B and an Average commander add nothing: P = 1/2; charging a
    # flank +1: 3+, P = 2/3. The target is in column of march, which may be charged.
    assert b.odds("charge", f"{FR}/cav", f"{PR}/1") == {"charges": Fraction(1, 2),
                                                        "fails": Fraction(1, 2)}
    assert b.odds("charge", f"{FR}/cav", f"{PR}/1", flank=True)["charges"] == Fraction(2, 3)
    b.do("test", 4, test="charge", who=f"{FR}/cav", target=f"{PR}/1")
    assert [p.test for p in b.now.queue] == ["reaction to charge"]
    # Rule 6 reaction: changing formation needs 4+, charged in the flank -1: 5+, P = 1/3.
    # (The cavalry are beyond half their move away, or no reaction may be tried.)
    assert b.odds("react", f"{PR}/1", reaction="change_formation", flank=True,
                  **{"beyond-half-move": True})["reacts"] == Fraction(1, 3)
    step = b.do("roll", 5, options={"reaction": "change_formation", "beyond-half-move": True})
    assert step.lines[0] == ("1 Infantry Brigade (1 Prussian Corps) tries to change formation "
                             "(5) pass")
    # The cavalry reach it anyway: the contact is fought (Rule 15), filled in from the queue:
    # medium cavalry in line +2 against the column 0: 2d6 + 2 = 4, both shaken.
    assert [p.test for p in b.now.queue] == ["charge contact"]
    step = b.do("roll", (1, 1))
    assert step.lines[0].startswith("Combat (Rule 15): 1 Cavalry Brigade (1 French Corps) (2) "
                                    "against 1 Infantry Brigade (1 Prussian Corps) (0)")
    assert not b.now.queue


def test_rule_8_a_column_of_march_caught_by_cavalry_routs_with_three_casualties(b):
    spot_prussians(b)     # Rule 1: a blind is charged only once spotted
    assert b.odds("quick", f"{PR}/1", f"{FR}/cav",
                  case="column_of_march_contacted_by_cavalry") == {
        "column of march contacted by cavalry by 1 Cavalry Brigade (1 French Corps): rout":
            Fraction(1)}
    b.do("test", test="quick", who=f"{PR}/1", target=f"{FR}/cav",
         options={"case": "column_of_march_contacted_by_cavalry"})
    assert b.now.brigades[f"{PR}/1"] == f.BrigadeNow(3, MoraleState.ROUT,
                                                      Formation.COLUMN_OF_MARCH)
    assert "reaction to rout" in [p.test for p in b.now.queue]


def test_rule_11_skirmish_each_side_kills_on_4_or_more(b):
    # Rule 11: d6 + 2 (skirmish B) reaching 6 kills: d6 >= 4, P = 1/2 for each side.
    spot_prussians(b)
    odds = prepare(b.setup, b.now, "skirmish", f"{FR}/1", f"{PR}/1").odds
    assert [p for _, p in odds] == [Fraction(1, 2), Fraction(1, 2)]
    b.do("test", 4, 3, test="skirmish", who=f"{FR}/1", target=f"{PR}/1")
    assert b.now.brigades[f"{PR}/1"].casualties == 1 and b.now.brigades[f"{FR}/1"].casualties == 0
    assert [p.test for p in b.now.queue] == ["morale test"]


def test_rule_12_firefight_line_against_column(b):
    # Rule 12 on Rule 13's table: line against column +2 for the French, 0 for the Prussians;
    # the French roll 2d6 + 2: "Loser routs" on 10+, i.e. 2d6 >= 8: P = 15/36.
    spot_prussians(b)
    odds = b.odds("firefight", f"{FR}/1", f"{PR}/1")
    assert odds["Loser routs (10+)"] == Fraction(15, 36)
    b.do("test", (6, 2), test="firefight", who=f"{FR}/1", target=f"{PR}/1")
    assert b.now.brigades[f"{PR}/1"].state is MoraleState.ROUT


def test_rule_7_bounce_through_follows_with_minus_one(b):
    spot_prussians(b)
    b.do("test", (1, 1), test="fire", who=f"{FR}/art", target=f"{PR}/1",
         options={"band": "short", "behind": f"{PR}/2"})
    assert [p.test for p in b.now.queue] == ["bounce-through fire"]
    # Bounce-through: short range on infantry needs 6; -1: 2d6 >= 7 hits once: P = 21/36.
    assert b.odds("bounce", f"{FR}/art", f"{PR}/2", band="short")["1 hit"] == Fraction(21, 36)
    step = b.do("roll", (3, 4))
    assert step.lines[0].startswith("Bounce through on infantry") and "1 hit" in step.lines[0]


def test_revised_rule_8_crest_of_hill_test():
    s = setup(["C"], ["B"], ruleset="1813-revised", cinc=True)
    b = Battle(s)
    b.do("draw", chip="2")
    b.do("pips", 3)
    # Seed 003: d6, class C -1; 1 or less routs (d6 <= 2), 2 Shaken (d6 = 3), 3 Disordered
    # (d6 = 4), more stands (d6 >= 5).
    assert b.odds("crest", f"{FR}/1") == {"rout": Fraction(1, 3), "shaken": Fraction(1, 6),
                                          "disordered": Fraction(1, 6),
                                          "stands": Fraction(1, 3)}
    b.do("test", 4, test="crest", who=f"{FR}/1")
    assert b.now.brigades[f"{FR}/1"].state is MoraleState.DISORDERED


def test_a_routed_brigade_already_routing_near_another_rout_leaves_the_table(b):
    spot_prussians(b)     # Rule 1: a blind is charged only once spotted
    b.do("test", test="quick", who=f"{PR}/1", target=f"{FR}/cav",
         options={"case": "column_of_march_contacted_by_cavalry"})
    b.do("dismiss", index=1, reason="none near")
    b.do("roll", 1)          # Rule 16: the cavalry that caused the rout roll; 1: no pursuit
    b.do("test", test="quick", who=f"{PR}/2", target=f"{FR}/cav",
         options={"case": "column_of_march_contacted_by_cavalry"})
    b.do("roll", index=1, options={"near": f"{PR}/1"})
    assert b.now.brigades[f"{PR}/1"].removed


def test_pips_odds_and_give_move_need_the_cinc():
    b = Battle()
    b.do("draw", chip="1")
    assert f.pips_distribution(b.setup, b.now.activation.commander) == {
        4: Fraction(1, 6), 5: Fraction(1, 3), 6: Fraction(1, 3), 7: Fraction(1, 6)}
    b.do("pips", 2)                                       # 2 + 2 = 4
    with pytest.raises(ActionRefused, match="enemy"):
        b.do("give", corps=PR)
    with pytest.raises(ActionRefused, match="base contact"):
        b.do("give", corps=FR, in_contact=False)
    b.do("give", corps=FR)                                # Average CinC pays 2; 2 passed on
    assert (b.now.activation.commander, b.now.activation.pips) == (FR, 2)


def test_the_special_chips_name_who_moves():
    s = setup(["B"], ["B"], cinc=True, specials=("Poor", "French gifted", "Allied gifted",
                                                  "French tactical"))
    gifted = replace(s.commander(FR), grade=Grade.GIFTED)
    s = replace(s, commanders=tuple(gifted if c.key == FR else c for c in s.commanders))
    b = Battle(s)
    step = b.do("draw", chip="Allied gifted")             # no Gifted Allied commander
    assert step.lines[-1] == "No commander may use it"
    b.do("draw", chip="French gifted")
    assert b.now.special == "French gifted"
    with pytest.raises(ActionRefused, match="still to take|waiting"):
        b.do("draw", chip="1")
    with pytest.raises(ActionRefused, match="Gifted French commander"):
        b.do("special", commander="French CinC")
    b.do("special", commander=FR)
    assert b.now.activation.commander == FR
    # Rule 3: he rolled no pips; the umpire confirms he had nothing to do
    step = b.do("draw", chip="2", confirm=True)            # he has moved this turn already
    assert step.lines[-1] == "Has already moved this turn"
    b.do("draw", chip="French tactical")                   # the French corps has moved
    assert b.now.special == ""


def test_reinforcements_wait_for_turn_four_and_night_falls_after_the_last_turn():
    s = setup(["B"], ["B"], turns=1)
    s = s.with_corps(replace(s.corps_of(PR), turn=4))
    b = Battle(s)
    step = b.do("draw", chip="2")
    assert step.lines[-1] == "Not yet on the table (arrives on turn 4)"
    b.do("draw", chip="1")
    b.do("draw", chip="Poor", confirm=True)
    step = b.do("draw")
    assert step.lines == ("Night falls after turn 1",) and b.now.phase == f.Phase.NIGHT
    assert not f.decision(s, b.now).final
    with pytest.raises(ActionRefused, match="night has fallen"):
        b.do("draw")
    b.do("holder", side="French", reason="Helmstedt and five squares")
    step = b.do("finish")
    assert step.lines == ("Result: the French win – night fell with the French holding "
                          "the field (Helmstedt and five squares)",)


def test_end_turn_re_forms_disordered_troops():
    # Rule 15: medium cavalry in line +2 against class B infantry 0: 2d6 + 2 = 14 routs the
    # infantry and leaves the cavalry disordered. The cavalry charge on Attack orders.
    b = Battle()
    b.do("orders", corps=FR, order="Attack")
    spot_french(b)
    b.do("draw", chip="2")
    b.do("pips", 4)
    spot_prussians(b)
    b.do("test", (6, 6), test="combat", who=f"{FR}/cav", target=f"{PR}/1")
    assert b.now.brigades[f"{FR}/cav"].state is MoraleState.DISORDERED
    b.do("dismiss", index=1, reason="not owed")      # the reaction: nobody within 4"
    b.do("roll", 1)                                  # Rule 16: a 1 does not pursue
    step = b.do("end-turn", confirm=True)
    assert step.lines[-1] == "Turn 2 of 12"
    assert step.lines[0].endswith("the umpire confirms nothing more serves his orders (Rule 3)")
    assert b.now.brigades[f"{FR}/cav"].state is MoraleState.FORMED


def test_setup_allocates_the_reserve_and_writes_orders():
    s = setup(["B"], ["B"], cinc=True)
    reserve = CorpsSetup("French reserve", FRENCH, "French Army", "French reserve", (),
                         reserve=True)
    s = replace(s, corps=s.corps + (reserve,), commanders=s.commanders + (
        CommanderSetup("French reserve", "Latour-Maubourg", Grade.AVERAGE, Role.RESERVE,
                       FRENCH),), chips=s.chips + (Chip("6", "French reserve", FRENCH),))
    b = Battle(s)
    with pytest.raises(ActionRefused, match="infantry; the reserve takes"):
        b.do("allocate", reserve="French reserve", brigades=[f"{FR}/1"])
    b.do("allocate", reserve="French reserve", brigades=[f"{FR}/cav", f"{FR}/art"])
    assert b.now.corps["French reserve"].brigades == (f"{FR}/cav", f"{FR}/art")
    assert f"{FR}/cav" not in b.now.corps[FR].brigades
    b.do("orders", corps="French reserve", order="Hold", objective="the ridge")
    assert b.now.corps["French reserve"].orders is CorpsOrder.HOLD
    with pytest.raises(ActionRefused, match="not an order"):
        b.do("orders", corps=FR, order="Charge")
    b.do("draw", chip="6")
    with pytest.raises(ActionRefused, match="before the first chip"):
        b.do("allocate", reserve="French reserve", brigades=[f"{FR}/cav"])


def test_formation_override_and_reports(b):
    b.do("formation", brigade=f"{FR}/1", formation="square")
    assert b.now.brigades[f"{FR}/1"].formation is Formation.SQUARE
    with pytest.raises(Exception, match="not a formation for infantry"):
        b.do("formation", brigade=f"{FR}/1", formation="limbered")
    with pytest.raises(ActionRefused, match="needs the umpire's reason"):
        b.do("override", side="Allied", reason=" ")
    b.do("override", side="draw", reason="both sides withdrew")
    b.do("finish")
    md = report_markdown(b.setup, b.steps)
    assert md.startswith("# The battle of Helmstedt (2 May 1813)\n")
    assert "## Turn 1 of 12" in md and "**Move 1 – French – 1 French Corps (chip 2)**" in md
    page = report_html(b.setup, b.steps)
    assert "<h2>Turn 1 of 12</h2>" in page and page.count("<li>") >= 5
    assert report(b.setup, b.steps)[-1] == ("Result: a draw – the umpire's decision: both "
                                             "sides withdrew")


@pytest.mark.parametrize(("action", "inputs", "message"), [
    ("test", {"test": "dance"}, "'dance' is not a test of the battle"),
    ("test", {"test": "morale", "who": "99 Corps/1"}, "there is no brigade '99 Corps/1'"),
    ("test", {"test": "fire", "who": f"{FR}/art", "target": f"{FR}/1",
              "options": {"band": "short"}}, "is a friend of"),
    ("test", {"test": "fire", "who": f"{FR}/art", "target": f"{PR}/1",
              "options": {"inches": "30"}}, "cannot reach 30 inches"),
    ("test", {"test": "fire", "who": f"{FR}/art", "target": f"{PR}/1"},
     "give the range band"),
    ("test", {"test": "fire", "who": f"{FR}/1", "target": f"{PR}/1",
              "options": {"band": "short"}}, "is infantry, not a battery"),
    ("test", {"test": "fire", "who": f"{PR}/art", "target": f"{FR}/1",
              "options": {"band": "short"}}, "is limbered"),
    ("test", {"test": "fire", "who": f"{FR}/art", "target": f"{PR}/1",
              "options": {"band": "point-blank"}}, "not a range band"),
    ("test", {"test": "fire", "who": f"{FR}/art", "target": f"{PR}/1",
              "options": {"inches": "x"}}, "must be a number of inches"),
    ("test", {"test": "combat", "who": f"{FR}/1", "target": f"{FR}/2"}, "on the same side"),
    ("test", {"test": "combat", "who": f"{FR}/1", "target": f"{PR}/cav"},
     "no combat rule for infantry against cavalry"),
    ("test", {"test": "combat", "who": f"{FR}/1", "target": f"{PR}/1",
              "options": {"rule": "x"}}, "must be a rule number"),
    ("test", {"test": "spot", "who": f"{FR}/cav", "target": "Nobody"}, "no corps 'Nobody'"),
    ("test", {"test": "spot", "who": f"{FR}/cav", "target": PR}, "distance to the blind"),
    ("test", {"test": "charge", "who": f"{FR}/1", "target": f"{PR}/1"}, "only cavalry"),
    ("test", {"test": "reaction", "who": f"{PR}/1", "options": {"near": f"{FR}/1"}},
     "only friends react"),
    ("test", {"test": "quick", "who": f"{PR}/1", "options": {"case": "ambush"}},
     "not a quick-result case"),
    ("test", {"test": "morale"}, "name the brigade to test"),
    ("roll", {}, "no test is queued"),
    ("dismiss", {"index": 3, "reason": "x"}, "no queued test number 3"),
    ("holder", {"side": "French"}, "recorded at nightfall"),
    ("finish", {}, "undecided on turn 1"),
    ("orders", {"corps": "Nowhere Corps", "order": "Halt"}, "no corps 'Nowhere Corps'"),
    ("spend", {"what": "move", "brigade": f"{PR}/1"}, "is not of 1 French Corps commander"),
    ("override", {"side": "Austria", "reason": "x"}, "not a side"),
    ("special", {"commander": FR}, "no special chip is waiting"),
])
def test_what_the_battle_refuses_it_names(b, action, inputs, message):
    if inputs.get("test") == "fire":
        spot_prussians(b)
    with pytest.raises(ActionRefused, match=message):
        b.do(action, **inputs)


def test_nothing_more_after_the_finish(b):
    b.do("override", side="French", reason="the Prussians never came")
    b.do("finish")
    for action, inputs in (("draw", {}), ("pips", {}), ("finish", {}),
                           ("override", {"side": "French", "reason": "x"})):
        with pytest.raises(ActionRefused, match="finished"):
            b.do(action, **inputs)


def test_only_turns_and_numbered_moves_head_the_reports_blocks(b):
    """An action paid in pips ("Move (…)") and a CinC's order ("Move to …") stay in their move."""
    from campaign1813.campaign.battle.ruleset1813.fight import Step

    lines = ("Move 1 – French – 1 French Corps (chip 2)", "Move (1 Brigade) (1 pip, 2 left)",
             "Move to Helmstedt change orders to Attack")
    steps = [*b.steps, Step("spend", "Spend 1: Move", lines, {})]
    md = report_markdown(b.setup, steps)
    assert "**Move 1 – French – 1 French Corps (chip 2)**" in md
    assert "- Move (1 Brigade) (1 pip, 2 left)" in md
    assert "- Move to Helmstedt change orders to Attack" in md
    page, before = report_html(b.setup, steps), report_html(b.setup, b.steps)
    assert page.count('<p class="move">') == before.count('<p class="move">') + 1
    assert "<li>Move (1 Brigade) (1 pip, 2 left)</li>" in page
