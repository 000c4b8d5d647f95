"""A battle fought step by step with typed dice, every state worked by hand from the rules.

The French: a CinC (Average) and 1 French Corps (all class A, Average commander, heavy cavalry,
a 9-pounder battery), deployed on the table. The Allies: a CinC (Average) and three Prussian
corps of class C, also on the table; 2 Prussian Corps comes with 5 casualties on each infantry
brigade (carried from an earlier battle) and 3 Prussian Corps has a Poor commander.
Chips, French first (seed 000's demo numbering): 1 French CinC, 2 1 French Corps, 3 Allied CinC,
4 1 Prussian Corps, 5 2 Prussian Corps, 6 3 Prussian Corps, then the Poor chip.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from campaign1813.campaign.battle.core.outcome import Outcome, Side, Termination
from campaign1813.campaign.battle.ruleset1813 import fight as f
from campaign1813.campaign.battle.ruleset1813.fight_tests import prepare
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused
from campaign1813.campaign.battle.ruleset1813.session import act, report
from campaign1813.campaign.battle.setup import (
    ALLIED,
    FRENCH,
    BattleSetup,
    Chip,
    CommanderSetup,
    Table,
)
from campaign1813.campaign.battle.terms import CavalryWeight, CorpsOrder, Grade, MoraleState, Role
from tests.battle.setups import corps

S = MoraleState


def scripted_setup() -> BattleSetup:
    commanders = [CommanderSetup("French CinC", "Davout", Grade.AVERAGE, Role.CINC, FRENCH,
                                 "French")]
    corps_list, brigades = [], []
    cm, c, bs = corps("1 French Corps", FRENCH, "A", cavalry=CavalryWeight.HEAVY, nation="French")
    commanders.append(cm)
    corps_list.append(c)
    brigades += bs
    commanders.append(CommanderSetup("Allied CinC", "Blücher", Grade.AVERAGE, Role.CINC, ALLIED,
                                     "Prussian"))
    for i, (key, casualties, grade) in enumerate((("1 Prussian Corps", 0, Grade.AVERAGE),
                                                  ("2 Prussian Corps", 5, Grade.AVERAGE),
                                                  ("3 Prussian Corps", 0, Grade.POOR))):
        cm, c, bs = corps(key, ALLIED, "C", first=1 + 4 * i, casualties=casualties, grade=grade)
        commanders.append(cm)
        corps_list.append(c)
        brigades += bs
    chips = tuple(Chip(str(n), cm.key, cm.side) for n, cm in enumerate(commanders, 1))
    return BattleSetup(7, "the battle of Helmstedt (2 May 1813)", "Helmstedt", "1813-05-02",
                       tuple(commanders), tuple(corps_list), tuple(brigades),
                       chips + (Chip("Poor"),), Table("Helmstedt"))


class Battle:
    """The steps taken so far, and a way to take the next."""

    def __init__(self, setup: BattleSetup):
        self.setup = setup
        self.steps: list[f.Step] = []
        self.states: list[f.FightState] = [f.replay(setup, [])]

    def do(self, action: str, *typed: int | tuple[int, ...], **inputs: object) -> f.Step:
        step = act(self.setup, self.steps, action, typed=list(typed) or None, **inputs)
        self.steps.append(step)
        self.states.append(f.replay(self.setup, self.steps))
        return step

    @property
    def now(self) -> f.FightState:
        return self.states[-1]

    def brigade(self, key: str) -> f.BrigadeNow:
        return self.now.brigades[key]


P1, P2, P3 = "1 Prussian Corps", "2 Prussian Corps", "3 Prussian Corps"
FR = "1 French Corps"


def spot_each_other(b: Battle) -> None:
    """Before the first chip the French and 1 Prussian Corps' blinds, 12 inches apart, spot
    each other (Rule 1: automatic): both commanders roll Rule 3's pips, not the blind's."""
    b.do("test", test="spot", who=P1, target=FR, options={"inches": 12})
    b.do("test", test="spot", who=FR, target=P1, options={"inches": 12})


def play_to_the_army_break() -> Battle:
    b = Battle(scripted_setup())
    # The written orders: the French corps attacks (Rule 15: its cavalry may charge infantry).
    b.do("orders", corps=FR, order="Attack")
    spot_each_other(b)
    # Turn 1. The French corps' chip is drawn from the real bag: chip 2.
    step = b.do("draw", chip="2")
    assert step.lines == ("Turn 1 of 12", "Move 1 – French – 1 French Corps (chip 2)",
                          "Orders: Attack")
    # Rules 2-3: average die 5 + Average +2 = 7 pips.
    step = b.do("pips", 5)
    assert b.now.activation is not None and b.now.activation.pips == 7
    assert step.lines == ("Pips: 5 + 2 (Average) = 7",)
    # Rule 7: A-class gunners (+1), short range on infantry needs 6 for one hit, 12 for two.
    # P(miss) = P(2d6 + 1 < 6) = P(2d6 <= 4) = 6/36; P(two) = P(2d6 >= 11) = 3/36.
    fire = prepare(b.setup, b.now, "fire", f"{FR}/art", f"{P1}/1", {"band": "short"})
    assert dict(fire.odds) == {"miss": Fraction(1, 6), "1 hit": Fraction(3, 4),
                               "2 hits": Fraction(1, 12)}
    b.do("test", (4, 3), test="fire", who=f"{FR}/art", target=f"{P1}/1",
         options={"band": "short"})                        # 7 + 1 = 8: one hit
    # Rule 3: the battery's fire costs 1 pip, paid as it is rolled: 6 left.
    assert b.now.activation is not None and b.now.activation.remaining == 6
    assert b.brigade(f"{P1}/1").casualties == 1
    assert [p.test for p in b.now.queue] == ["morale test"]
    # Rule 17: class C -1, one casualty -1: d6 - 2; 3+ passes, 1-2 Shaken, 0 or less routs.
    # P(pass) = P(d6 >= 5) = 1/3, P(shaken) = P(d6 in 3, 4) = 1/3, P(rout) = 1/3.
    morale = prepare(b.setup, b.now, "morale", f"{P1}/1")
    assert dict(morale.odds) == {"formed": Fraction(1, 3), "shaken": Fraction(1, 3),
                                 "rout": Fraction(1, 3)}
    step = b.do("roll", 3)                                 # 3 - 2 = 1: Shaken
    assert b.brigade(f"{P1}/1").state is S.SHAKEN and not b.now.queue
    assert step.lines[0] == ("Test morale for 1 Infantry Brigade (1 Prussian Corps) (3) "
                             "fail, shaken")
    # Rule 3: a move costs 1 pip: 5 left. Then Rule 15, heavy cavalry in line against infantry
    # in line: cavalry class A +1, heavy in line +3 = 4; infantry class C -1 = -1. The cavalry
    # roll 2d6 + 5 on the cavalry rows: 7 or more is "Infantry rout", certain.
    b.do("spend", what="move", brigade=f"{FR}/cav")
    charge = prepare(b.setup, b.now, "combat", f"{FR}/cav", f"{P1}/2")
    assert charge.odds == (("Infantry rout (6+)", Fraction(1)),)
    b.do("test", (1, 1), test="combat", who=f"{FR}/cav", target=f"{P1}/2")
    # The row: cavalry 1 casualty and disordered; infantry 3 casualties and rout.
    assert b.brigade(f"{FR}/cav") == f.BrigadeNow(1, S.DISORDERED, b.brigade(f"{FR}/cav").formation)
    assert (b.brigade(f"{P1}/2").casualties, b.brigade(f"{P1}/2").state) == (3, S.ROUT)
    # Rule 16: friends within 4" react, and cavalry that caused a rout test to pursue.
    assert [p.test for p in b.now.queue] == ["reaction to rout", "pursuit test"]
    # The umpire names 1 Prussian Corps/1 (Shaken: routs at once) and /3 (formed: tests).
    b.do("roll", options={"near": f"{P1}/1,{P1}/3"})
    assert b.brigade(f"{P1}/1").state is S.ROUT
    assert [(p.test, p.who) for p in b.now.queue] == [
        ("pursuit test", f"{FR}/cav"), ("reaction to rout", ""), ("morale test", f"{P1}/3")]
    # Rule 16 pursuit: 5+ on a d6 to pursue, then 1-2: pursue the routers and cause another
    # casualty. P(pursue) = 2/6; P(row 1-2) = 1/3 x 1/3 = 1/9.
    pursuit = prepare(b.setup, b.now, "pursuit", f"{FR}/cav")
    assert pursuit.odds[0] == ("no pursuit", Fraction(2, 3))
    assert pursuit.odds[1][1] == Fraction(1, 9)
    b.do("roll", 5, 2)
    assert b.brigade(f"{P1}/2").casualties == 4
    # 1 Prussian Corps/1 routed: its neighbours from 2 Prussian Corps react (named by the umpire).
    b.do("roll", options={"near": f"{P2}/5,{P2}/6,{P2}/7"})
    # Rule 17 for 1 Prussian Corps/3: class C -1, rout within 4" -1: d6 - 2; a 2 gives 0: rout.
    step = b.do("roll", 2)
    assert b.brigade(f"{P1}/3").state is S.ROUT
    # Three of 1 Prussian Corps' six brigades are broken (Rout): half, so the corps is broken.
    assert "1 Prussian Corps is broken" in step.lines
    assert not any("army has broken" in line for line in step.lines)
    step = b.do("dismiss", index=_queued(b, "reaction to rout"),
                reason="no brigade within 4 inches of 3 Infantry Brigade")
    assert step.lines[0] == ('No reaction to rout for friendly brigades within 4" of 3 Infantry '
                             'Brigade (1 Prussian Corps) and any it routs through: no brigade '
                             'within 4 inches of 3 Infantry Brigade')
    # 2 Prussian Corps' brigades with 5 casualties: class C -1, 5 casualties -5, rout within
    # 4" -1 = -7: every roll routs (P(rout) = 1), but the die is still rolled.
    assert dict(prepare(b.setup, b.now, "morale", f"{P2}/5").odds) == {"rout": Fraction(1)}
    b.do("roll", 6)
    b.do("roll", 6)
    step = b.do("roll", 4)
    assert [b.brigade(f"{P2}/{n}").state for n in (5, 6, 7)] == [S.ROUT] * 3
    # Now 2 of the 3 Allied corps are broken: half or more, so the Allied army has lost.
    assert "2 Prussian Corps is broken" in step.lines
    assert "The Allied army has broken: half or more of its corps are broken" in step.lines
    assert f.decision(b.setup, b.now) == f.Decision(
        Outcome(Termination.ARMY_BROKE, Side.FRENCH), "the Allied army broke")
    while any(p.test == "reaction to rout" for p in b.now.queue):
        b.do("dismiss", index=_queued(b, "reaction to rout"), reason="no brigade within 4 inches")
    return b


def _queued(b: Battle, test: str) -> int:
    return next(i for i, p in enumerate(b.now.queue, 1) if p.test == test)


def test_a_battle_played_by_hand_reproduces_the_hand_worked_states():
    b = play_to_the_army_break()
    # Rule 16: the pursuers carry the pursuing marker; their rally is owed at their next move.
    assert not b.now.queue and b.brigade(f"{FR}/cav").pursuing
    # The Poor chip, then the Poor commander's chip: he foregoes his move. The French
    # commander leaves 5 pips: the umpire confirms nothing more serves his orders (Rule 3).
    assert b.do("draw", chip="Poor", confirm=True).lines == (
        "1 French Corps commander has 5 pips unspent: the umpire confirms nothing more serves "
        "his orders (Rule 3)", "Move 2 – Poor Card")
    step = b.do("draw", chip="6")
    assert step.lines[-1] == "Miss move due to Poor Card" and b.now.activation.missed
    assert not b.now.poor_pending
    # Chip 4: 1 Prussian Corps. Pips 3 + 2 = 5; its routing brigades owe their tests.
    b.do("draw", chip="4")
    b.do("pips", 3)
    owed = [p.who for p in b.now.queue if p.test == "morale test"]
    assert owed == [f"{P1}/1", f"{P1}/2", f"{P1}/3"]
    # Rules 17-18 rally of 1 Prussian Corps/3 (Rout, no casualties): class C -1, Rout -2:
    # d6 - 3 passes (3+) only on a 6: P = 1/6; a pass rallies it one state, to Shaken.
    rally = prepare(b.setup, b.now, "rally", f"{P1}/3")
    assert dict(rally.odds)["shaken"] == Fraction(1, 6)
    step = b.do("test", 6, test="rally", who=f"{P1}/3")
    assert b.brigade(f"{P1}/3").state is S.SHAKEN
    assert step.lines[0] == "Test to rally 3 Infantry Brigade (1 Prussian Corps) (6) rallied"
    assert b.now.activation is not None and b.now.activation.remaining == 4  # 1 pip paid
    step = b.do("roll", 1)   # 1 Prussian Corps/1 cannot pass: it continues to rout
    assert step.lines[0].endswith("(1) fails and continues to rout")
    b.do("roll", 1)
    assert b.brigade(f"{P1}/1").state is S.ROUT
    # The French CinC (chip 1): pips 5 + 2 = 7; Rule 2: an Average CinC pays 2 to change a
    # corps' orders and 2 to give his move; the corps commander takes the 3 left.
    b.do("draw", chip="1", confirm=True)
    b.do("pips", 5)
    step = b.do("orders", corps=FR, order="Attack")
    assert step.lines == ("Move to 1 French Corps change orders to Attack",)
    assert b.now.corps[FR].orders is CorpsOrder.ATTACK
    b.do("give", corps=FR)
    assert b.now.activation is not None
    assert (b.now.activation.commander, b.now.activation.pips) == (FR, 3)
    assert [(p.test, p.who) for p in b.now.queue] == [("rally pursuers", f"{FR}/cav")]
    # Rule 16: pursuing cavalry rally at their next move: class A +1, one casualty -1,
    # pursuing -1: d6 - 1 passes on 4+: P = 1/2; pass: disordered, fail: back shaken.
    rp = prepare(b.setup, b.now, "rally-pursuers", f"{FR}/cav")
    assert dict(rp.odds) == {"disordered": Fraction(1, 2), "shaken": Fraction(1, 2)}
    b.do("test", 4, test="rally-pursuers", who=f"{FR}/cav")
    assert b.brigade(f"{FR}/cav").state is S.DISORDERED and not b.now.queue
    assert not b.brigade(f"{FR}/cav").pursuing
    # The Allied army broke: the battle may be finished, the French winning.
    step = b.do("finish")
    assert b.now.phase == f.Phase.FINISHED and b.now.result == FRENCH
    assert step.lines == ("Result: the French win – the Allied army broke",)
    text = "\n".join(report(b.setup, b.steps))
    assert "Move 1 – French – 1 French Corps (chip 2)" in text
    assert "Artillery fire on infantry – 1 Infantry Brigade (1 Prussian Corps), short range, " \
           "by 1 French Corps Artillery (7+1 = 8) 1 hit" in text


def test_undo_of_every_step_back_to_the_setup_restores_each_state_exactly():
    b = play_to_the_army_break()
    for k in range(len(b.steps), -1, -1):
        assert f.replay(b.setup, b.steps[:k]) == b.states[k]
    assert b.states[0] == f.FightState.start(b.setup)


def test_the_same_seed_gives_the_same_report_byte_for_byte():
    def seeded_battle() -> list[str]:
        b = Battle(scripted_setup())
        spot_each_other(b)
        while b.now.activation is None or b.now.activation.commander != FR:
            b.do("draw", confirm=True)
            if b.now.activation is not None:
                b.do("pips")
        b.do("test", test="fire", who=f"{FR}/art", target=f"{P1}/1", options={"band": "long"})
        while b.now.queue:
            b.do("roll") if b.now.queue[0].test == "morale test" else \
                b.do("dismiss", index=1, reason="none near")
        return report(b.setup, b.steps)
    assert seeded_battle() == seeded_battle()


def test_refusals_name_the_reason():
    b = Battle(scripted_setup())
    spot_each_other(b)
    with pytest.raises(ActionRefused, match="draw a chip first"):
        b.do("pips", 3)
    b.do("draw", chip="2")
    with pytest.raises(ActionRefused, match="already been drawn"):
        b.do("draw", chip="2", confirm=True)
    with pytest.raises(ActionRefused, match="cannot be rolled on average die"):
        b.do("pips", 6)
    b.do("pips", 2)                                        # 2 + 2 = 4 pips
    b.do("spend", what="retire-half-move")                 # Rule 3: 2 pips each
    b.do("spend", what="retire-half-move")
    with pytest.raises(ActionRefused, match="it costs 2 pips and 0 are left"):
        b.do("spend", what="retire-half-move")
    with pytest.raises(ActionRefused, match="not an action of Rule 3"):
        b.do("spend", what="dance")
    with pytest.raises(ActionRefused, match="typed, but the step used 1"):
        b.do("test", 6, 5, test="morale", who=f"{P1}/4")
    with pytest.raises(ActionRefused, match="only the CinC may change orders to Attack"):
        b.do("orders", corps=FR, order="Attack")
