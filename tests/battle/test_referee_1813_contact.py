"""The 1813 referee on who may be reached and who may act: a blind not yet spotted is neither
charged nor fought (seed 000, Rule 1), a CinC whose headquarters marches to the sound of the
guns does nothing before his turn (seed 000's reinforcements, Rules 2-3), and cavalry that are
not formed counter-charge or evade only after making morale (Rule 18, with Rule 17's test).

The battle (tests/battle/setups.py): 1 French Corps (class B, Average commander, medium
cavalry, a 9-pounder battery) deployed in line, against 1 Prussian Corps (class B, Average)
entering in column of march; an Average CinC each. Chips 1 French CinC, 2 1 French Corps,
3 Allied CinC, 4 1 Prussian Corps, Poor. Each refusal leaves the battle and what
``battle … show`` prints exactly as they were.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import pytest

from campaign1813.campaign.battle.ruleset1813 import fight as f
from campaign1813.campaign.battle.ruleset1813.autoresolve import resolve
from campaign1813.campaign.battle.ruleset1813.engine import Engine1813
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused
from campaign1813.campaign.battle.ruleset1813.rules.modifiers import UnknownFact
from campaign1813.campaign.battle.ruleset1813.session import act
from campaign1813.campaign.battle.setup import ALLIED, Edge
from campaign1813.campaign.cli import main
from tests.battle.test_referee_1813_rules import Battle

FR, PR = "1 French Corps", "1 Prussian Corps"
CINC = f"{ALLIED} CinC"
LATE = r"Allied CinC is not yet on the table \(arrives on turn 4, marching to the sound of " \
       r"the guns\): his chip gives no move"


def show(b: Battle) -> tuple[object, ...]:
    """The battle's state and what ``battle … show`` prints of it."""
    engine, now = Engine1813(b.setup.ruleset), b.now
    return (now, engine.status_lines(b.setup, now), engine.status_json(b.setup, now),
            engine.decision(b.setup, now))


def refused(b: Battle, match: str, action: str, *typed: object,
            error: type[Exception] = ActionRefused, **inputs: object) -> None:
    """Refused with ``match``; the battle and its show are as they were, no step kept."""
    before, kept = show(b), len(b.steps)
    with pytest.raises(error, match=match):
        b.do(action, *typed, **inputs)
    assert show(b) == before and len(b.steps) == kept


# -- Rule 1: a blind must be spotted before what is on it is charged or fought ---------------


def test_rule_1_a_blind_not_yet_spotted_is_neither_charged_nor_fought():
    """Rule 1: what is on a blind is found only by spotting it; contact is no spot (within
    16 inches in the open the spot is automatic, and it is taken at the spot step)."""
    b = Battle("Attack", spotted=False)
    b.do("draw", chip="2")
    b.do("pips", 3)                               # Rule 1: blind pips, 3 + 0 (Average)
    blind = r"Rule 1: 1 Infantry Brigade \(1 Prussian Corps\) is on 1 Prussian Corps' blind, " \
            "not yet spotted; "
    refused(b, blind + "it is charged or fought only once the blind is spotted", "test",
            (6, 6), test="combat", who=f"{FR}/1", target=f"{PR}/1")
    refused(b, blind + "it is charged or fought", "test", (6, 6), test="combat",
            who=f"{FR}/cav", target=f"{PR}/1")                      # Rule 15
    refused(b, blind + "cavalry charge it", "test", 6, test="charge", who=f"{FR}/cav",
            target=f"{PR}/1")                                       # Rule 6
    refused(b, blind + "it is contacted", "test", test="quick", who=f"{PR}/1",
            target=f"{FR}/cav", options={"case": "column_of_march_contacted_by_cavalry"})
    with pytest.raises(ActionRefused, match="Rule 1"):              # the odds refuse alike
        b.odds("combat", f"{FR}/1", f"{PR}/1")
    # Spotted at the spot step (12 inches in the open: automatic), the combat goes on: line
    # against column of march, factors 2 against 0, the French roll 2d6 + 2.
    b.do("test", test="spot", who=f"{FR}/cav", target=PR, options={"inches": 12})
    assert b.odds("combat", f"{FR}/1", f"{PR}/1").known[2] == (
        "factors 2 against 0: 1 Infantry Brigade (1 French Corps) rolls 2d6 + 2")
    step = b.do("test", (3, 3), test="combat", who=f"{FR}/1", target=f"{PR}/1")
    assert step.lines[0].startswith("Combat (Rule 13): 1 Infantry Brigade (1 French Corps) (2) "
                                  "against 1 Infantry Brigade (1 Prussian Corps) (0)")


# -- seed 000's reinforcements: a CinC marching to the sound of the guns ----------------------


def late_cinc(b: Battle, turn: int = 4) -> Battle:
    s = b.setup
    b.setup = replace(s, commanders=tuple(replace(c, turn=turn) if c.key == CINC else c
                                          for c in s.commanders))
    return b


def test_a_cinc_due_on_turn_4_neither_rolls_pips_nor_changes_orders_before_it():
    """Seed 000: a command marching to the sound of the guns comes on at turn 4; its CinC's
    chip drawn before then gives no move (as a corps' does): no pips (Rule 2), no orders."""
    b = late_cinc(Battle())
    step = b.do("draw", chip="3")
    assert step.lines[-1] == "Not yet on the table (arrives on turn 4)"
    assert b.now.activation is None and CINC not in b.now.moved
    late = LATE + " on turn 1"
    refused(b, late, "pips", 4)
    refused(b, late, "orders", corps=PR, order="Attack")
    refused(b, late, "spend", what="move", brigade=f"{PR}/1")
    # A special chip passes him by too: he is not among those who may take it.
    assert CINC not in f._eligible(b.setup, b.now, "Allied gifted")


def test_a_late_cinc_acts_from_his_turn_and_a_cinc_on_the_table_from_the_first():
    """From turn 4 his chip is his move: the average die + 2 (Average) pips (Rule 2), and he
    may change a corps' orders; a CinC with no late turn moves on turn 1 as before."""
    b = late_cinc(Battle())
    b.do("draw", chip="1")                       # so the battle is under way on turn 1
    turn4 = replace(b.now, turn=4, drawn=(), moved=(), activation=None)
    out = f.draw(b.setup, turn4, "3", 0)
    assert out.state.activation is not None and out.state.activation.commander == CINC
    assert f.arrival_turn(b.setup, CINC) == 4 and f.arrival_turn(b.setup, PR) == 1
    on_time = Battle()
    on_time.do("draw", chip="3")
    assert on_time.do("pips", 4).lines == ("Pips: 4 + 2 (Average) = 6",)
    assert on_time.do("orders", corps=PR, order="Attack").lines == (
        f"Move to {PR} change orders to Attack",)


def test_a_late_cinc_is_kept_from_acting_through_the_engine_too():
    """The engine the window and the command line use gives the same refusal."""
    b = late_cinc(Battle())
    steps = [act(b.setup, [], "draw", chip="3")]
    with pytest.raises(ActionRefused, match=LATE):
        act(b.setup, steps, "pips", typed=[4])


# -- Rule 18: cavalry not formed make morale to counter charge or evade -----------------------


def shaken_prussian_cavalry() -> Battle:
    """The French move: the battery hits the Prussian cavalry once (Rule 7: 2d6 3 + 3 = 6, one
    hit at short range) and its test at once (Rule 17: d6 2 - 1 casualty = 1) leaves it
    Shaken with 1 casualty."""
    b = Battle().french_move()
    b.do("test", (3, 3), test="fire", who=f"{FR}/art", target=f"{PR}/cav",
         options={"band": "short"})
    b.do("test", 2, test="morale", who=f"{PR}/cav")
    now = b.now.brigades[f"{PR}/cav"]
    assert (now.state, now.casualties) == (f.MoraleState.SHAKEN, 1)
    return b


def test_rule_18_shaken_cavalry_counter_charge_only_if_they_make_morale():
    """Rule 18 with Rule 17's test: Shaken -2, 1 casualty -1: make morale (3+) on a 6 only,
    1/6; with a general attached +1, on 5 or 6, 1/3. Rule 6 alone would refuse a counter
    charge by cavalry not formed."""
    b = shaken_prussian_cavalry()
    charge = {"reaction": "counter-charge", "beyond-half-move": True}
    odds = b.odds("react", f"{PR}/cav", f"{FR}/cav", **charge)
    assert odds.rule == "Rules 6 and 18"
    assert dict(odds.odds) == {"reacts": Fraction(1, 6), "fails": Fraction(5, 6)}
    assert odds.known[1] == ("Rule 18: shaken cavalry make morale (Rule 17, 3+) to counter "
                             "charge; facts: none")
    with_general = b.odds("react", f"{PR}/cav", f"{FR}/cav", facts="general-attached", **charge)
    assert dict(with_general.odds)["reacts"] == Fraction(1, 3)
    # Refused, the battle as it was: within half the charge move no reaction at all (Rule 6);
    # evading needs orders that allow it; the facts of Rule 17 mean nothing to formed cavalry,
    # and an unknown fact is named.
    refused(b, "cannot react: 1 Cavalry Brigade .* are within half their charge move", "test",
            6, test="react", who=f"{PR}/cav", target=f"{FR}/cav",
            options={"reaction": "counter-charge"})
    refused(b, "may evade only if its orders allow", "test", 6, test="react", who=f"{PR}/cav",
            target=f"{FR}/cav", options={"reaction": "evade", "beyond-half-move": True})
    refused(b, "Rule 17's table facts are read only for the morale test of Rule 18", "test",
            test="react", who=f"{FR}/cav", target=f"{PR}/cav",
            options=charge | {"facts": "general-attached"})
    refused(b, "unknown modifier 'dashing'", "test", 6, error=UnknownFact, test="react",
            who=f"{PR}/cav", target=f"{FR}/cav", options=charge | {"facts": "dashing"})
    # Made: d6 5 - 2 - 1 + 1 = 3, morale made: the counter charge meets them (Rule 14).
    step = b.do("test", 5, test="react", who=f"{PR}/cav", target=f"{FR}/cav",
                options=charge | {"facts": "general-attached"})
    assert step.lines[0] == ("1 Cavalry Brigade (1 Prussian Corps) tries to counter charge (5) "
                             "pass (Rule 18: morale test)")
    assert [p.test for p in b.now.queue] == ["cavalry combat"]
    assert b.now.brigades[f"{PR}/cav"].state is f.MoraleState.SHAKEN     # the test is no rally


def test_rule_18_cavalry_that_do_not_make_morale_are_reached():
    """Rule 18: on d6 5 - 3 = 2 the Shaken cavalry do not make morale: no counter charge, the
    French reach them (a charge contact for the quick results or the combat rules); the test
    changes nothing else of them."""
    b = shaken_prussian_cavalry()
    step = b.do("test", 5, test="react", who=f"{PR}/cav", target=f"{FR}/cav",
                options={"reaction": "counter-charge", "beyond-half-move": True})
    assert step.lines[0].endswith("(5) fail (Rule 18: morale test)")
    assert [p.test for p in b.now.queue] == ["charge contact"]
    now = b.now.brigades[f"{PR}/cav"]
    assert (now.state, now.casualties) == (f.MoraleState.SHAKEN, 1)


def test_auto_resolve_keeps_a_late_cinc_off_the_table_until_his_turn():
    """Seed 000's reinforcements in auto-resolve as at the table: the Allied CinC due on turn 4
    draws no move before it (seed 1: the French CinC moves in turns 1-3, the Allied one first
    in turn 4, after his arrival)."""
    report = list(resolve(late_cinc(Battle(spotted=False)).setup, seed=1).report)
    turn4 = report.index("Turn 4 of 12")
    assert not any(line.startswith("Move") and "Allied – CinC" in line
                   for line in report[:turn4])
    assert report[turn4 + 1] == "Allied CinC (CinC) arrives"
    assert any("Allied – CinC (chip 3)" in line for line in report[turn4:])


def test_rule_18_odds_on_the_command_line(capsys):
    """``odds reaction``: Shaken class B cavalry with 1 casualty and a general attached make
    morale on d6 + 1 − 1 − 2, 5 or more: 1/3 (Rule 18 with Rule 17's test); a Rule 17
    modifier for a reaction that takes no morale test means nothing and is refused."""
    assert main(["odds", "reaction", "--class", "B", "--type", "cavalry", "--state", "shaken",
                 "--casualties", "1", "--reaction", "counter-charge", "--modifier",
                 "general-attached", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rules"] == [6, 18] and out["need"] == 3
    assert out["result"] == {"pass": "1/3", "fail": "2/3"}
    assert main(["odds", "reaction", "--class", "B", "--type", "infantry", "--state", "shaken",
                 "--reaction", "evade", "--orders-allow-evade", "--modifier",
                 "general-attached"]) != 0
    assert "read only for Rule 18's morale test" in capsys.readouterr().err


def test_the_setup_lines_show_a_late_cinc_with_his_edge_and_turn():
    """Seed 000's reinforcements on the command line's setup sheet: the CinC due on turn 4 by
    the east edge is listed with the corps' entries."""
    b = Battle(spotted=False)
    s = b.setup
    b.setup = replace(s, commanders=tuple(
        replace(c, turn=4, edge=Edge.EAST) if c.key == CINC else c for c in s.commanders))
    lines = Engine1813(b.setup.ruleset).setup_lines(b.setup, b.now)
    assert lines[1] == "Allied CinC Allied CinC: Average; enters by the east edge on turn 4"
    on_time = Battle(spotted=False)
    assert not any(" CinC " in line for line in
                   Engine1813("1813").setup_lines(on_time.setup, on_time.now))


def test_rule_2_the_cinc_deals_with_no_corps_before_it_is_on_the_table():
    """Rule 2: the CinC changes a corps' orders, or gives it his move, in base contact with
    its commander; a corps marching to the sound of the guns (turn 4, seed 000) is not on the
    table to be reached. Refused, the battle as it was; a corps on the table is reached: the
    CinC's 4 + 2 (Average) = 6 pips less 2 for giving the move (Average) leave it 4."""
    b = Battle()
    s = b.setup
    b.setup = s.with_corps(replace(s.corps_of(PR), turn=4))
    b.do("draw", chip="3")                                   # the Allied CinC, on the table
    b.do("pips", 4)                                          # 4 + 2 (Average) = 6
    late = r"1 Prussian Corps is not yet on the table \(arrives on turn 4, marching to the " \
           r"sound of the guns\): the CinC cannot reach its commander to "
    refused(b, late + "change its orders", "orders", corps=PR, order="Attack")
    refused(b, late + "give his move to its commander", "give", corps=PR)
    on_time = Battle()
    on_time.do("draw", chip="3")
    on_time.do("pips", 4)
    assert on_time.do("give", corps=PR).lines == ("Give move to 1 Prussian Corps (4 pips)",)
