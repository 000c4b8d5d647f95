"""The referee of the 1813 battle (seed 000, Rules 16-18 and the army break): a battle from the
campaign, the battle of Fenwick on 3 May 1813, fought with typed dice.

The battle: 1 Corps (French, Attack) enters against I Corps (Allied, Hold, on the table); 2 Corps
and II Corps march to the sound of the guns and arrive on turn 4. Every brigade is class B, every
commander Average (+2 pips). Chips: 1 1 Corps, 2 2 Corps, 3 I Corps, 4 II Corps, then the Poor
chip. Each refusal is tried where it would matter, names the rule or the reason, and leaves
``battle … show`` exactly as it was; the legal play goes on through a rout, its reaction, a
pursuit and the pursuers' rally to an army break, a recovery and the break that ends the battle.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.battle.core.outcome import Outcome, Side, Termination
from campaign1813.campaign.battle.dice import TypedDice
from campaign1813.campaign.battle.ruleset1813 import fight as f
from campaign1813.campaign.battle.ruleset1813.auto_tables import side_break_count
from campaign1813.campaign.battle.ruleset1813.autoresolve import resolve
from campaign1813.campaign.battle.ruleset1813.engine import Engine1813
from campaign1813.campaign.battle.ruleset1813.fight_tests import prepare
from campaign1813.campaign.battle.ruleset1813.rules.army import (
    ArmyStanding,
    BrigadeStanding,
    CorpsStanding,
    army_break,
    side_lost,
)
from campaign1813.campaign.battle.ruleset1813.rules.brigade import Brigade
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused
from campaign1813.campaign.battle.ruleset1813.rules.morale import (
    MoraleTest,
    state_odds,
    take_morale_test,
)
from campaign1813.campaign.battle.ruleset1813.session import act
from campaign1813.campaign.battle.setup import ALLIED, FRENCH, BattleSetup
from campaign1813.campaign.battle.terms import Arm, MoraleState
from campaign1813.campaign.cli import main
from campaign1813.campaign.store.document import open_campaign
from tests.battle.setups import setup as hand_setup
from tests.day.test_scenarios import battle_setup

S = MoraleState
CAV = "1 Corps/5 cavalry"
I1, I2, I3, I4 = (f"I Corps/{n}" for n in range(1, 5))


@pytest.fixture(scope="module")
def fenwick(tmp_path_factory):
    """The campaign file with the battle of Fenwick set up for the table (seed 3)."""
    path = tmp_path_factory.mktemp("fenwick")
    u = battle_setup(path)
    u.end_day()
    services.open_battle(u.doc, 1, seed=3)
    setup = queries.fight_view(u.doc, 1).setup
    u.doc.close()
    return path / "c.c1813", setup


class Battle:
    """The battle's steps so far; ``do`` takes one, ``refused`` tries one the rules refuse."""

    def __init__(self, setup: BattleSetup):
        self.setup = setup
        self.steps: list[f.Step] = []
        self.engine = Engine1813(setup.ruleset)

    def do(self, action: str, *typed: int | tuple[int, ...], **inputs: object) -> f.Step:
        step = act(self.setup, self.steps, action, typed=list(typed) or None, **inputs)
        self.steps.append(step)
        return step

    @property
    def now(self) -> f.FightState:
        return f.replay(self.setup, self.steps)

    def show(self) -> list[str]:
        """What ``battle … show`` prints."""
        return self.engine.status_lines(self.setup, self.now)

    def refused(self, match: str, action: str, *typed: int | tuple[int, ...],
                **inputs: object) -> None:
        before, state, count = self.show(), self.now, len(self.steps)
        with pytest.raises(ActionRefused, match=match):
            self.do(action, *typed, **inputs)
        assert len(self.steps) == count and self.now == state and self.show() == before

    def brigade(self, key: str) -> f.BrigadeNow:
        return self.now.brigades[key]


def test_the_battle_of_fenwick_refuses_what_the_rules_forbid_and_plays_to_the_army_break(
        fenwick):
    b = Battle(fenwick[1])
    # Orders written before the battle need no CinC in contact: "not in contact" means nothing.
    b.refused("only for a change of orders in play", "orders", corps="I Corps", order="Hold",
              in_contact=False)
    # A commander is named only for a special chip; chip 1 is 1 Corps' own.
    b.refused("named only for a special chip", "draw", chip="1", commander="I Corps")
    # Rule 1: the two blinds face each other at 12 inches and spot each other (automatic), so
    # 1 Corps' commander rolls his pips on the table (+2 Average), not on the blind (+0).
    b.do("test", test="spot", who="I Corps", target="1 Corps", options={"inches": 12})
    b.do("test", test="spot", who="1 Corps", target="I Corps", options={"inches": 12})
    b.do("draw", chip="1")
    assert b.do("pips", 4).lines == ("Pips: 4 + 2 (Average) = 6",)
    b.do("spend", what="move", brigade=CAV)
    # A misspelt flag is refused with the options the test reads.
    b.refused(r"the combat test has no option 'flnak' \(its options: rule, inches, facts, "
              r"enemy-facts\)",
              "test", (3, 3), test="combat", who=CAV, target=I1, options={"flnak": True})
    # Rule 15: light cavalry (0) against infantry in line (0): 2d6 + 0, 6 or more routs the
    # infantry: P = 26/36; the typed 3,3 makes 6. Cavalry 1 casualty, disordered; infantry 3.
    odds = dict(prepare(b.setup, b.now, "combat", CAV, I1).odds)
    assert odds["Infantry rout (6+)"] == Fraction(13, 18)
    b.do("test", (3, 3), test="combat", who=CAV, target=I1)
    assert (b.brigade(I1).casualties, b.brigade(I1).state) == (3, S.ROUT)
    assert [p.test for p in b.now.queue] == ["reaction to rout", "pursuit test"]
    # Rule 17: the tests are taken at once; the next chip waits for them.
    b.refused("2 tests still to take or dismiss first", "draw", chip="3")
    b.refused("--target is only for a queued combat", "roll", options={"target": I2})
    # Rule 16: the umpire names who stands within 4": 2 and 3 Brigades test.
    b.do("roll", options={"near": f"{I2},{I3}"})
    # --near means nothing to the pursuit test that is now due.
    b.refused(r"the pursuit test has no option 'near' \(its options: none\)", "roll", 5, 1,
              options={"near": I4})
    b.refused("Rule 16: 5 Cavalry Brigade \\(1 Corps\\) caused a rout and rolls to pursue",
              "dismiss", index=1, reason="they halt")
    # Rule 16: 5-6 pursue (1/3); then 1-2 pursue the routers and cause another casualty.
    step = b.do("roll", 5, 1)
    assert step.lines[0] == ('5 Cavalry Brigade (1 Corps) pursue (5), (1) Pursue the routers '
                             '12" and cause another casualty')
    assert b.brigade(I1).casualties == 4
    assert b.brigade(CAV) == f.BrigadeNow(1, S.DISORDERED, b.brigade(CAV).formation,
                                          pursuing=True)
    assert "pursuing" in b.show()[next(i for i, line in enumerate(b.show()) if CAV in line)]
    # Rule 17 for 2 Brigade: class B 0, rout within 4" -1: d6 - 1, 3+ passes (1/2). Rule 16:
    # all troops involved are disordered, so the pass leaves it disordered.
    assert dict(prepare(b.setup, b.now, "morale", I2).odds) == {
        "disordered": Fraction(1, 2), "shaken": Fraction(1, 3), "rout": Fraction(1, 6)}
    b.refused("the morale test has no option 'enemy-facts'", "roll", 4,
              options={"enemy-facts": ["outnumbered"]})
    b.refused("Rule 17: 2 Infantry Brigade \\(I Corps\\) must test its morale; it cannot be "
              "dismissed", "dismiss", index=1, reason="looks steady")
    assert b.do("roll", 4).lines == (
        "Test morale for 2 Infantry Brigade (I Corps) (4) pass, disordered",)
    assert b.brigade(I2).state is S.DISORDERED
    b.do("roll", 1)                                # 1 - 1 = 0: 3 Brigade routs
    assert b.brigade(I3).state is S.ROUT
    b.do("roll", options={"near": I4})             # 3 Brigade's rout: 4 Brigade tests
    step = b.do("roll", 2)                         # 2 - 1 = 1: Shaken
    # Army break: 1, 3 (Rout) and 4 (Shaken) are 3 of I Corps' 6: I Corps is broken. The
    # Allies bring two corps to the battle, II Corps still on the march (not broken): 1 of 2
    # is half, so the Allied army has broken.
    assert step.lines[1:] == ("I Corps is broken",
                              "The Allied army has broken: half or more of its corps are broken")
    assert f.decision(b.setup, b.now).outcome == Outcome(Termination.ARMY_BROKE, Side.FRENCH)

    # Rule 3: 1 Corps' commander has 5 of his 6 pips left; the umpire confirms that nothing
    # more serves his Attack orders this move, and chip 3 is drawn.
    b.refused("Rule 3: General of 1 Corps must use all his pips to carry out his orders and "
              "has 5 pips unspent", "draw", chip="3")
    # Chip 3, I Corps: its routing and Shaken brigades owe their tests (Rules 17-18).
    b.do("draw", chip="3", confirm=True)
    b.do("pips", 4)
    assert [(p.test, p.who) for p in b.now.queue] == [
        ("morale test", I1), ("morale test", I3), ("morale test", I4)]
    b.refused("Rule 16: 5 Cavalry Brigade \\(I Corps\\) is not pursuing", "test", 5,
              test="rally-pursuers", who="I Corps/5 cavalry")
    # Rule 18: only Shaken and routing brigades rally; 2 Brigade (Disordered) re-forms free.
    b.refused("Rule 18: only Shaken or routing brigades rally; 2 Infantry Brigade \\(I Corps\\) "
              "is disordered and re-forms at the end of the turn without a pip", "test", 5,
              test="rally", who=I2)
    # Rule 18: 4 Brigade (Shaken) rallies with 1 pip: class B, Shaken -2, d6 - 2, 5+ passes.
    step = b.do("test", 5, test="rally", who=I4)
    assert b.brigade(I4).state is S.DISORDERED
    # Two of six broken: I Corps and the Allied army recover, and the report says both.
    assert step.lines[1:] == ("I Corps is no longer broken",
                              "The Allied army is no longer broken: fewer than half of its "
                              "corps are broken")
    assert not f.decision(b.setup, b.now).final
    b.do("roll", 6)                                # routers without a rally run on
    b.do("roll", 3)
    assert (b.brigade(I1).state, b.brigade(I3).state) == (S.ROUT, S.ROUT)
    # Rule 3: I Corps' commander leaves 5 of his 6 pips (Hold orders, the umpire confirms).
    b.do("draw", chip="2", confirm=True)
    for chip in ("4", "Poor"):                     # 2 Corps and II Corps are not yet on the table
        b.do("draw", chip=chip)
    # Turn 2: disordered troops re-form, but the pursuers stay as they are until they rally.
    step = b.do("draw", chip="1")
    assert step.lines[0] == "Turn 2 of 12"
    assert b.brigade(I2).state is S.FORMED and b.brigade(I4).state is S.FORMED
    assert b.brigade(CAV).state is S.DISORDERED and b.brigade(CAV).pursuing
    b.do("pips", 3)
    assert [(p.test, p.who) for p in b.now.queue] == [("rally pursuers", CAV)]
    # Rule 16: the pursuers' rally is due at this move: it can be neither skipped nor dismissed.
    b.refused("1 test still to take or dismiss first: rally pursuers", "end-turn")
    b.refused("Rule 16: 5 Cavalry Brigade \\(1 Corps\\) pursued and must try to rally", "dismiss",
              index=1, reason="out of sight")
    # Class B, 1 casualty -1, pursuing -1: d6 - 2, 3+ passes (1/3): disordered; else shaken.
    assert dict(prepare(b.setup, b.now, "rally-pursuers", CAV).odds) == {
        "disordered": Fraction(1, 3), "shaken": Fraction(2, 3)}
    step = b.do("roll", 5)
    assert step.lines[0] == "Rally pursuing 5 Cavalry Brigade (1 Corps) (5) disordered"
    assert b.brigade(CAV).state is S.DISORDERED and not b.brigade(CAV).pursuing
    assert b.now.activation is not None and b.now.activation.remaining == 4   # 1 pip paid
    # Rule 13: 1 Brigade in column of march (0) against 2 Brigade in line (+2): 2 Brigade
    # rolls 2d6 + 2; a total of 4-5 (2d6 of 2 or 3: 1/12) leaves the winner retiring Shaken
    # with 2 casualties, the loser with 1.
    b.do("spend", what="move", brigade="1 Corps/1")
    combat = prepare(b.setup, b.now, "combat", "1 Corps/1", I2)
    assert combat.known[2] == "factors 0 against 2: 2 Infantry Brigade (I Corps) rolls 2d6 + 2"
    assert dict(combat.odds)['Winner retires 4" shaken (4–5)'] == Fraction(1, 12)
    b.do("test", (1, 1), test="combat", who="1 Corps/1", target=I2)
    assert (b.brigade(I2).casualties, b.brigade(I2).state) == (2, S.SHAKEN)
    # 1 and 3 Brigades routing, 2 Shaken: I Corps is broken again, and so is the Allied army.
    assert f.decision(b.setup, b.now) == f.Decision(
        Outcome(Termination.ARMY_BROKE, Side.FRENCH), "the Allied army broke")
    assert not b.now.queue
    assert b.do("finish").lines == ("Result: the French win – the Allied army broke",)


def test_the_command_line_refuses_what_means_nothing_and_leaves_the_battle_as_it_was(
        fenwick, capsys):
    path = str(fenwick[0])

    def show() -> str:
        assert main(["battle", path, "1", "show"]) == 0
        return capsys.readouterr().out

    before = show()
    refusals = [
        (["battle", path, "1", "setup", "--seed", "9"], "is already set up (seed 3)"),
        (["battle", path, "1", "test", "fire", "I Corps/artillery", "1 Corps/1", "--band",
          "short", "--odds", "--roll", "8"], "--odds shows the odds and rolls nothing"),
        (["battle", path, "1", "test", "skirmish", "I Corps/1", "1 Corps/1", "--with", "flnak",
          "--odds"], "the skirmish test has no option 'flnak' (its options: inches, "
                     "facts, enemy-facts, no-reply)"),
        (["odds", "morale", "--type", "infantry", "--class", "B", "--rally"],
         "--rally: only Shaken or routing brigades rally (Rule 18), not formed ones"),
        (["odds", "pursuit", "--nation", "Narnia"],
         "--nation: 'Narnia' is not a nation of the campaign (nations: French, Polish, "
         "Westphalian, Italian, Prussian, Russian, Austrian, Spanish, British, Portuguese)"),
    ]
    for argv, message in refusals:
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert err.startswith("campaign1813: error: ") and message in err
        assert err.count("\n") == 1
        assert show() == before
    with open_campaign(path) as doc:
        assert queries.fight_view(doc, 1).steps == ()


def test_odds_pursuit_takes_a_nation_in_any_case():
    """Rule 16: British cavalry pursue on 4-6 (1/2), every other nation on 5-6."""
    assert main(["odds", "pursuit", "--nation", "british", "--json"]) == 0


@pytest.mark.parametrize(("broken", "corps", "lost"), [
    (1, 3, False),   # one corps broken on turn 1, two more due on turn 4: 1/3 < 1/2
    (1, 2, True),    # one of two, the other still on the march: half
    (2, 4, True), (1, 4, False), (0, 1, False), (1, 1, True)])
def test_army_break_a_side_with_half_or_more_of_all_its_corps_broken_has_lost(broken, corps,
                                                                             lost):
    """DESIGN §4.4, seed 000 ("half of his command in rout or shaken"): the corps counted are
    all the side brings to the battle, arrived or not."""
    assert side_lost(broken, corps) is lost
    whole = CorpsStanding("w", (BrigadeStanding("b"),))
    gone = CorpsStanding("g", (BrigadeStanding("b", S.ROUT),))
    army = ArmyStanding("Allied", (gone,) * broken + (whole,) * (corps - broken))
    assert army_break(army).lost is lost


def _routed(state: f.FightState, keys: list[str]) -> f.FightState:
    return replace(state, brigades=state.brigades | {
        k: replace(state.brigades[k], state=S.ROUT) for k in keys})


def test_army_break_at_the_table_counts_the_corps_still_to_arrive():
    """1 Prussian Corps broken on turn 1 while 2 and 3 Prussian Corps are due on turn 4: one of
    three corps, so the Allied army has not lost (the same count as auto-resolve's)."""
    s = hand_setup(["B"], ["B", "B", "B"])
    for key in ("2 Prussian Corps", "3 Prussian Corps"):
        s = s.with_corps(replace(s.corps_of(key), turn=4))
    state = replace(f.replay(s, []), phase=f.Phase.PLAY, turn=1)
    broken = _routed(state, [f"1 Prussian Corps/{n}" for n in (1, 2, 3)])
    assert len(f.standing(s, broken, ALLIED).corps) == 3
    assert f.broken_now(s, broken) == ({"1 Prussian Corps"}, set())
    assert f.decision(s, broken).reason.startswith(
        "the battle is undecided on turn 1 (French 0 of 1 corps broken, Allied 1 of 3 (2 still "
        "to arrive)): ")
    # Auto-resolve judges by the same count: 2 of its 3 corps must break for a side to lose.
    assert side_break_count("1813", 3) == 2 and side_break_count("1813", 2) == 1
    both = _routed(broken, [f"2 Prussian Corps/{n}" for n in (5, 6, 7)])
    assert f.broken_now(s, both) == ({"1 Prussian Corps", "2 Prussian Corps"}, {ALLIED})
    assert f.decision(s, both).reason == "the Allied army broke"


def test_auto_resolve_counts_the_corps_still_to_arrive_too():
    """The same count in auto-resolve: the one Allied corps on the field breaking before the
    other two arrive on turn 4 is one of three; it withdraws and the battle goes on."""
    s = hand_setup(["A", "A"], ["C", "C", "C"])
    for key in ("2 Prussian Corps", "3 Prussian Corps"):
        s = s.with_corps(replace(s.corps_of(key), turn=4))
    early = 0
    for seed in range(4):
        lines = list(resolve(s, seed).report)
        before = lines[:lines.index("Turn 4 of 12")] if "Turn 4 of 12" in lines else lines
        if "1 Prussian Corps is broken" in before:
            early += 1
            assert before[before.index("1 Prussian Corps is broken") + 1] == \
                "1 Prussian Corps withdraws"
            assert not any("army has broken" in line for line in before)
            assert "Turn 4 of 12" in lines
    assert early


@pytest.mark.parametrize(("reason", "record", "result"), [
    ("5 Corps still holds the fortress",
     "At nightfall the French hold the field (5 Corps still holds the fortress)",
     "night fell with the French holding the field (5 Corps still holds the fortress)"),
    ("Helmstedt", "At nightfall the French hold Helmstedt",
     "night fell with the French holding Helmstedt"),
    ("", "At nightfall the French hold Helmstedt", "night fell with the French holding Helmstedt"),
])
def test_the_holder_at_nightfall_reads_as_a_sentence_whatever_the_reason(reason, record, result):
    """Seed 000: at nightfall the side holding the field wins; the umpire's reason is any words."""
    s = hand_setup(["B"], ["B"], turns=1)
    night = replace(f.replay(s, []), phase=f.Phase.NIGHT, turn=1)
    out = f.record_holder(s, night, FRENCH, reason)
    assert out.lines == (record,)
    assert f.decision(s, out.state).reason == result


def test_rule_16_pursuers_no_commander_can_reach_go_back_shaken():
    """Rule 16: pursuers must try to rally at their next move; with no commander in base
    contact (or no pip) the attempt fails, and a failed rally sends them back Shaken."""
    s = hand_setup(["B"], ["B"])
    cav = "1 French Corps/cav"
    b = Battle(s)
    b.do("draw", chip="1")
    b.do("pips", 4)
    pursuing = replace(b.now, brigades=b.now.brigades | {
        cav: replace(b.now.brigades[cav], state=S.DISORDERED, pursuing=True)})
    prepared = prepare(s, pursuing, "rally-pursuers", cav, "", {"no-commander": True})
    assert prepared.odds == (("shaken", Fraction(1)),) and prepared.pays is None
    resolved = prepared.run(None)  # type: ignore[arg-type]  # rolls nothing
    assert resolved.line == ("Pursuing 1 Cavalry Brigade (1 French Corps) not rallied (no "
                             "commander): return to own lines shaken")
    assert resolved.rolls == () and resolved.effects[0].new_state is S.SHAKEN


@pytest.mark.parametrize(("state", "facts", "after"), [
    (S.FORMED, {"rout-within-4"}, S.DISORDERED),
    (S.DISORDERED, {"rout-within-4"}, S.DISORDERED),
    (S.FORMED, set(), S.FORMED),
])
def test_rule_16_a_brigade_involved_in_a_rout_that_passes_ends_disordered(state, facts, after):
    """Rule 16: "All troops involved … are Disordered"; the demo: "Hussars test morale (4) pass,
    disordered". Class B infantry, a 6: a pass whatever the modifiers."""
    test = MoraleTest(Brigade("2 Brigade", Arm.INFANTRY, state=state), frozenset(facts))
    result = take_morale_test(test, TypedDice([6]))
    assert result.outcome.value == "pass"
    assert (result.effect.new_state or state) is after
    # the test's odds are not worsened by the disorder to come: d6 - 1, 3+ passes (1/2)
    if facts and state is S.FORMED:
        assert state_odds(test) == {S.DISORDERED: Fraction(1, 2), S.SHAKEN: Fraction(1, 3),
                                    S.ROUT: Fraction(1, 6)}


def test_rule_17_pursuing_cavalry_test_with_the_pursuit_minus_one():
    """Rule 17 "Disordered or pursuit" -1: class B cavalry, formed, pursuing: d6 - 1, 3+ passes
    (1/2), 1-2 Shaken (1/3), 0 routs (1/6); the marker adds the fact without the umpire."""
    s = hand_setup(["B"], ["B"])
    cav = "1 French Corps/cav"
    state = f.replay(s, [])
    assert dict(prepare(s, state, "morale", cav).odds) == {
        "formed": Fraction(2, 3), "shaken": Fraction(1, 3)}
    pursuing = replace(state, brigades=state.brigades | {
        cav: replace(state.brigades[cav], pursuing=True)})
    assert dict(prepare(s, pursuing, "morale", cav).odds) == {
        "formed": Fraction(1, 2), "shaken": Fraction(1, 3), "rout": Fraction(1, 6)}


def test_rule_16_a_battle_kept_before_the_marker_can_still_rally_its_pursuers():
    """A battle kept with the pursuers' rally already queued (and no marker) is not stuck: the
    queued rally is taken. Class B cavalry, pursuing -1: d6 - 1, 3+ passes (4-6: 1/2)."""
    s = hand_setup(["B"], ["B"])
    cav = "1 French Corps/cav"
    b = Battle(s)
    b.do("draw", chip="1")
    b.do("pips", 4)
    kept = replace(b.now, queue=(f.Pending("rally pursuers", cav, "pursued", ("pursuit",)),))
    prepared = prepare(s, kept, "rally-pursuers", cav)
    assert dict(prepared.odds) == {"disordered": Fraction(1, 2), "shaken": Fraction(1, 2)}
