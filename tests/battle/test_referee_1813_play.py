"""The referee at the table: the campaign's battle of Magdeburg (6 May 1813) fought by seed 000's
rules with typed dice, every illegal spend or test tried on the way and refused with its rule
named, the battle exactly as it was (``battle … show`` the same before and after), and the
legal play going on to the French army's break.

The battle: 5 Corps (General Lauriston, Average; Hold orders on Magdeburg) against I Prussian
Corps (General Yorck, Gifted; Attack orders), both still on their blinds. Chips 1 Lauriston,
2 Yorck, Poor.

Numbers, from seed 000:
- Rule 1: a commander whose corps is on its blind rolls the average die (2, 3, 3, 4, 4, 5)
  +1 Gifted, +0 Average, -1 Poor: Lauriston's typed 4 gives 4 pips. Up to 16 inches in the
  open a blind is spotted without a roll.
- Rule 3: once spotted, Yorck's typed 5 + 3 (Gifted) = 8 pips. Artillery fire, infantry fire
  or skirmish, a move, a change of formation, a garrison: 1 pip each.
- Rule 7: the 9-pounder (class B) at short range on infantry hits once on 6 and twice on 12:
  a typed 6,6 is two hits on 2 Brigade.
- Rule 17: 2 Brigade (class B, 2 casualties) tests on d6 - 2: a typed 5 is 3, a pass.
- Rule 11: 19 Brigade (skirmish B, +2) kills on d6 + 2 >= 6: a typed 4 kills; 3 Brigade
  (skirmish B, +2, in column of march, no modifier for it) replies with a typed 1: 3, no kill.
  3 Brigade (class B, 1 casualty) then tests on d6 - 1: a typed 6 passes.
- Rule 9: 1 Brigade (class A, +1) against the garrison 18 Brigade (garrison +2, class B 0):
  factors 1 against 2; the garrison rolls 2d6 + 1.
- Rule 15: 1 Cavalry Brigade (class A +1, heavy in line +3 = 4) against 20 Brigade (class C,
  -1): the cavalry roll 2d6 + 5 on the cavalry rows, 6 or more: "Infantry rout" for certain;
  20 Brigade takes 3 casualties and routs, the cavalry 1 and are disordered.
- Rules 16-17: the brigades near a rout test on d6 with -1 for the rout within 4 inches (and
  -1 more when routed through): 19 Brigade (class B) on a typed 1 makes 0, rout; 18 Brigade
  (class B) on a typed 1, 0, rout; 17 Brigade (class A +1, routed through -1) on a typed 1,
  0, rout. Four of 5 Corps' six brigades in rout: the corps is broken by any count, and with
  it the French army, its only corps.
"""

from __future__ import annotations

import shutil

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused
from campaign1813.campaign.battle.terms import MoraleState
from campaign1813.campaign.cli import main
from campaign1813.campaign.store.document import open_campaign

PR, FR = "I Prussian Corps", "5 Corps"
ART, CAV = f"{FR}/artillery", f"{FR}/3 cavalry"
P1, P2, P3, PCAV = f"{PR}/1", f"{PR}/2", f"{PR}/3", f"{PR}/1 cavalry"


@pytest.fixture(scope="module")
def scheduled(tmp_path_factory, campaign_template):
    path = tmp_path_factory.mktemp("referee") / "scheduled.c1813"
    shutil.copyfile(campaign_template, path)
    with open_campaign(path) as doc:
        services.issue_order(doc, PR, "Attack", "Magdeburg")
        for _ in range(6):
            services.end_day(doc)
        services.open_battle(doc, 1)
    return path


@pytest.fixture
def path(scheduled, tmp_path):
    out = tmp_path / "c.c1813"
    shutil.copy(scheduled, out)
    return out


class Table:
    """The battle of Magdeburg as the umpire plays it, and what ``battle … show`` prints."""

    def __init__(self, doc):
        self.doc = doc

    def do(self, action, *typed, **inputs):
        return services.battle_action(self.doc, 1, action, typed=list(typed) or None, **inputs)

    @property
    def view(self):
        return queries.fight_view(self.doc, 1)

    def show(self) -> list[str]:
        v = self.view
        return v.engine.status_lines(v.setup, v.state)

    def odds(self, test, who="", target="", **options):
        v = self.view
        return v.engine.prepare(v.setup, v.state, test, who, target, options)

    def refused(self, match, action, *typed, **inputs):
        """The action is refused with ``match`` in the reason, and nothing has changed."""
        shown, state, steps = self.show(), self.view.state, len(self.view.steps)
        with pytest.raises(ActionRefused, match=match):
            self.do(action, *typed, **inputs)
        assert self.show() == shown and self.view.state == state
        assert len(self.view.steps) == steps

    def brigade(self, key):
        return self.view.state.brigades[key]

    @property
    def left(self) -> int:
        return self.view.state.activation.remaining


def test_magdeburg_every_illegal_play_refused_and_the_legal_play_breaks_the_french(path):
    with open_campaign(path) as doc:
        t = Table(doc)
        # -- move 1: Lauriston, his corps on its blind ------------------------------------
        t.do("draw", chip="1")
        # Rule 1: the blind's pips, average die + 0 for an Average commander
        assert t.do("pips", 4).lines == ("Pips on the blind (Rule 1): 4 +0 (Average) = 4",)
        # Rule 1: the Prussian brigades are behind their blind until it is spotted
        t.refused(r"Rule 1: 2 Infantry Brigade \(I Prussian Corps\) is on I Prussian Corps' "
                  "blind, not yet spotted", "test", test="fire", who=ART, target=P2,
                  options={"band": "short"})
        with pytest.raises(ActionRefused, match="Rule 1"):          # and so are its odds
            t.odds("fire", ART, P2, band="short")
        t.do("test", test="spot", who=FR, target=PR, options={"inches": 12})
        # Rule 7 and Rule 3: the battery fires (1 pip, paid as it is rolled): two hits
        t.do("test", (6, 6), test="fire", who=ART, target=P2, options={"band": "short"})
        assert t.brigade(P2).casualties == 2 and t.left == 3
        # Rule 7: a battery fires once per move (with a pip still to pay it)
        t.refused("Rule 7: a battery fires once per move", "test", (6, 6), test="fire",
                  who=ART, target=P1, options={"band": "short"})
        with pytest.raises(ActionRefused, match="Rule 7: a battery fires once per move"):
            t.odds("fire", ART, P1, band="short")
        # Rule 17: artillery casualties are tested at once: no move while the test is owed
        t.refused("Rule 17: brigades hit by artillery test their morale at once, before move",
                  "spend", what="move", brigade=f"{FR}/17")
        t.do("roll", 5)                                          # 5 - 2 = 3: passes
        assert t.brigade(P2).state is MoraleState.FORMED
        t.do("spend", what="move", brigade=f"{FR}/17")
        # Rule 13: hand to hand only on Attack orders; 5 Corps holds
        t.refused("Rule 13: infantry fight hand to hand only on Attack orders; 17 Infantry "
                  r"Brigade \(5 Corps\) \(5 Corps\) has Hold orders", "test", (6, 6),
                  test="combat", who=f"{FR}/17", target=P1)
        with pytest.raises(ActionRefused, match="Rule 13"):
            t.odds("combat", f"{FR}/17", P1)
        # Rule 9: cavalry do not garrison; infantry pays once
        t.refused(r"Rule 9: only infantry garrison a built-up area or wood; 3 Cavalry Brigade "
                  r"\(5 Corps\) is cavalry", "spend", what="garrison", brigade=CAV)
        t.do("spend", what="garrison", brigade=f"{FR}/18")
        assert t.brigade(f"{FR}/18").garrison and t.left == 1
        t.refused(r"Rule 9: 18 Infantry Brigade \(5 Corps\) already garrisons", "spend",
                  what="garrison", brigade=f"{FR}/18")
        # Rule 11 on Hold orders, its pip paid as it is rolled: 19 Brigade kills, 3 does not
        t.do("test", 4, 1, test="skirmish", who=f"{FR}/19", target=P3)
        assert t.brigade(P3).casualties == 1 and t.left == 0
        # Rule 12: no fire fight after a skirmish by the same brigade this move
        t.refused("Rule 12: 19 Infantry Brigade .* has skirmished this move", "test", (6, 6),
                  test="firefight", who=f"{FR}/19", target=P3)
        # Rule 5 and the sequence: a half move and change of formation is movement, not combat
        t.refused("half move and change formation comes at the movement step, and this move "
                  "has gone on to combats", "spend", what="half-move-and-change-formation",
                  brigade=f"{FR}/20")
        t.do("roll", 6)                                          # 3 Brigade: 6 - 1 = 5, passes

        # -- move 2: Yorck, his corps spotted ---------------------------------------------
        t.do("draw", chip="2")
        assert t.do("pips", 5).lines[0] == "Pips: 5 + 3 (Gifted) = 8"
        # Rule 1: the French blind is not spotted yet
        t.refused("Rule 1: 17 Infantry Brigade .* is on 5 Corps' blind", "test", 6, 1,
                  test="skirmish", who=P1, target=f"{FR}/17")
        # Rule 1: nor are its brigades charged or fought: contact does not spot them
        t.refused(r"Rule 1: 17 Infantry Brigade \(5 Corps\) is on 5 Corps' blind, not yet "
                  "spotted; it is charged or fought only once the blind is spotted", "test",
                  (6, 6), test="combat", who=P1, target=f"{FR}/17")
        t.refused(r"Rule 1: 20 Infantry Brigade \(5 Corps\) is on 5 Corps' blind", "test",
                  (1, 1), test="combat", who=PCAV, target=f"{FR}/20")
        t.do("test", test="spot", who=PR, target=FR, options={"inches": 12})
        # Rules 11-13: Attack orders allow no skirmish and no fire fight
        t.refused("Rule 11: infantry start a skirmish only on Hold or Engage orders; 1 "
                  r"Infantry Brigade \(I Prussian Corps\) \(I Prussian Corps\) has Attack "
                  "orders", "test", 6, 1, test="skirmish", who=P1, target=f"{FR}/17")
        t.refused("Rule 12: infantry open a fire fight only on Engage or Hold orders", "test",
                  (6, 6), test="firefight", who=P1, target=f"{FR}/17")
        with pytest.raises(ActionRefused, match="Rule 12"):
            t.odds("firefight", P1, f"{FR}/17")
        # Rule 9: the garrison's +2 is the battle's fact now, not the umpire's to add
        assert t.odds("combat", P1, f"{FR}/18", rule=9).known[2] == (
            "factors 1 against 2: 18 Infantry Brigade (5 Corps) rolls 2d6 + 1")
        t.refused(r"Rule 9: 17 Infantry Brigade \(5 Corps\) is no garrison", "test", (6, 6),
                  test="combat", who=P1, target=f"{FR}/17",
                  options={"rule": "9", "enemy-facts": ["garrison"]})
        # the cavalry form line and charge 20 Brigade (Rule 15, Attack orders)
        t.do("spend", what="change-formation", brigade=PCAV)
        t.do("formation", brigade=PCAV, formation="cavalry line")
        t.do("spend", what="move", brigade=PCAV)
        assert t.odds("combat", PCAV, f"{FR}/20").odds == (("Infantry rout (6+)", 1),)
        t.do("test", (1, 1), test="combat", who=PCAV, target=f"{FR}/20")
        assert (t.brigade(f"{FR}/20").casualties, t.brigade(f"{FR}/20").state) == (
            3, MoraleState.ROUT)
        # the sequence: no half move and change of formation at the combats step
        t.refused("half move and change formation comes at the movement step", "spend",
                  what="half-move-and-change-formation", brigade=P3)
        # Rules 16-17: the rout spreads through 19, 18 (no longer a garrison) and 17 Brigade
        queue = [p.test for p in t.view.state.queue]
        assert queue == ["reaction to rout", "pursuit test"]
        t.do("roll", options={"near": f"{FR}/19"})
        t.do("roll", 1)                                          # pursuit: 1, no pursuit
        t.do("roll", 1)                                          # 19 Brigade: 1 - 1 = 0, rout
        t.do("roll", options={"near": f"{FR}/18"})               # 19 Brigade's rout reaction
        t.do("roll", 1)                                          # 18 Brigade: 0, rout
        assert not t.brigade(f"{FR}/18").garrison
        t.do("roll", options={"through": f"{FR}/17"})
        t.do("roll", 1)                                          # 17 Brigade: 1 + 1 - 2 = 0
        routed = [k for k in t.view.state.corps[FR].brigades
                  if t.brigade(k).state is MoraleState.ROUT]
        assert routed == [f"{FR}/17", f"{FR}/18", f"{FR}/19", f"{FR}/20"]
        assert t.view.decision.winner == "Allied"
        report = t.view.engine.report(t.view.setup, t.view.steps)
        assert any(line.startswith("The French army has broken") for line in report)
        while t.view.state.queue:
            t.do("dismiss", index=1, reason="no brigade within 4 inches")
        # Rule 3: Yorck still has pips: the next chip waits for the umpire's confirmation
        left = t.left
        t.refused(f"Rule 3: General Yorck must use all his pips to carry out his orders and "
                  f"has {left} pips unspent", "draw")
        step = t.do("draw", confirm=True)
        assert step.lines[0] == (f"General Yorck has {left} pips unspent: the umpire confirms "
                                 "nothing more serves his orders (Rule 3)")
        t.do("finish")
        assert t.view.state.result == "Allied"


def test_the_command_line_refuses_with_the_rule_and_asks_for_the_confirmation(path, capsys):
    """Rules 1 and 3 at the command line: the odds and the roll of a fire on a blind not yet
    spotted are refused alike, a draw with pips unspent is refused until ``--confirm-unspent``,
    and ``battle … show`` prints the same before and after each refusal."""
    f = str(path)

    def show() -> str:
        assert main(["battle", f, "1", "show"]) == 0
        return capsys.readouterr().out

    assert main(["battle", f, "1", "draw", "1"]) == 0
    assert main(["battle", f, "1", "pips", "--roll", "4"]) == 0
    assert "Pips on the blind (Rule 1): 4 +0 (Average) = 4" in capsys.readouterr().out
    before = show()
    for extra in (["--odds"], ["--roll", "6,6"]):
        assert main(["battle", f, "1", "test", "fire", ART, P2, "--band", "short",
                     *extra]) == 1
        assert "Rule 1: 2 Infantry Brigade (I Prussian Corps) is on I Prussian Corps' " \
               "blind, not yet spotted" in capsys.readouterr().err
        assert show() == before
    assert main(["battle", f, "1", "draw"]) == 1
    assert ("Rule 3: General Lauriston must use all his pips to carry out his orders and has "
            "4 pips unspent") in capsys.readouterr().err
    assert show() == before
    assert main(["battle", f, "1", "draw", "2", "--confirm-unspent"]) == 0
    confirmed = ("General Lauriston has 4 pips unspent: the umpire confirms nothing more "
                 "serves his orders (Rule 3)")
    assert confirmed in capsys.readouterr().out
    assert main(["battle", f, "1", "report"]) == 0
    assert confirmed in capsys.readouterr().out.splitlines()
