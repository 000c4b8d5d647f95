"""Rulesets 002 and 004 keep a General who marches to the sound of the guns off the table until
his turn, as they keep the units of a late corps (seed 000: such a command comes on at turn 4).

The battle (tests/battle/setups.py): 1 French Corps against 1 Prussian Corps, each side with an
Average CinC, who is its General in both rulesets (docs/ruleset-002.md, docs/ruleset-004.md);
the Allied CinC's headquarters marches to the sound of the guns and comes on at turn 4.
"""

from __future__ import annotations

from dataclasses import replace

from campaign1813.campaign.battle.ruleset002.battle import general_arrival
from campaign1813.campaign.battle.ruleset002.convert import convert
from campaign1813.campaign.battle.ruleset004 import battle as b004
from campaign1813.campaign.battle.setup import ALLIED, FRENCH, BattleSetup
from tests.battle.referee import Table
from tests.battle.setups import setup

PR = "1 Prussian Corps"
CINC = f"{ALLIED} CinC"


def late(ruleset: str, turn: int = 4) -> BattleSetup:
    s = setup(["B"], ["B"], cinc=True, ruleset=ruleset)
    return replace(s, commanders=tuple(replace(c, turn=turn) if c.key == CINC else c
                                       for c in s.commanders))


def test_002_a_general_due_on_turn_4_neither_rallies_nor_speeds_a_move_before_it():
    """Seed 002: the General rallies one unit in the rally step and adds 3 inches to a move
    begun within 6 inches of him; seed 000: a General marching to the sound of the guns does
    neither before turn 4. The refusals leave the battle and ``show`` as they were; the
    move without him goes on."""
    s = late("002")
    assert general_arrival(s, convert(s), ALLIED) == 4
    assert general_arrival(s, convert(s), FRENCH) == 1
    t = Table(s)
    t.do("sides", typed=[4])                                  # the Allies are side A
    due = r"the Allied General \(Allied CinC\) is not yet on the table: he marches to the " \
          r"sound of the guns and arrives on turn 4 \(seed 000\), so he "
    t.refused("move", due + "adds 3 inches to a move only from then", unit=f"{PR}/1",
              inches=9, near_general=True)
    t.do("move", unit=f"{PR}/1", inches=6)
    while not t.engine.step_now(s, t.state).startswith("Turn 1 – Rally – Allied"):
        t.do("next")
    t.refused("rally", due + "rallies only from then", unit=f"{PR}/2", by="General")


def test_004_a_cinc_general_comes_with_his_headquarters():
    """Seed 004's general is a unit; a CinC who is the general comes on with his headquarters
    (turn 4 when it marches to the sound of the guns), not with his army's first corps."""
    s = late("004")
    assert b004.arrival_turn(s, b004.general_key(ALLIED)) == 4
    assert b004.arrival_turn(s, b004.general_key(FRENCH)) == 1
    on_time = setup(["B"], ["B"], cinc=True, ruleset="004")
    assert b004.arrival_turn(on_time, b004.general_key(ALLIED)) == 1


def test_004_the_late_general_is_attached_to_no_unit_before_his_turn():
    """Seed 004: "a general may be attached to any unit", in his side's movement; seed 000:
    not before he is on the table. Refused, the battle and ``show`` as they were; the French
    general, on the table, is attached."""
    t = Table(late("004"))
    t.do("first-move", typed=[3, 4])
    t.refused("attach", "is not yet on the table: .* arrives on turn 4", side=ALLIED,
              unit=f"{PR}/1")
    t.do("attach", side=FRENCH, unit="1 French Corps/1")
    assert t.state.attached == {FRENCH: "1 French Corps/1"}


def test_002_a_commander_of_a_late_corps_joins_no_unit_before_his_turn():
    """Seed 002: a commander joins an infantry unit in his side's movement; seed 000: the
    commander of a corps due on turn 4 comes with it, so he joins none on turn 1. Refused, the
    battle and ``show`` as they were."""
    s = setup(["B"], ["B", "B"], cinc=True, ruleset="002")
    s = s.with_corps(replace(s.corps_of("2 Prussian Corps"), turn=4))
    t = Table(s)
    t.do("sides", typed=[4])                                  # the Allies are side A
    t.refused("attach", "2 Prussian Corps commander is not yet on the table: he comes with .* "
              "on turn 4 \\(seed 000\\), so he joins no unit before then",
              commander="2 Prussian Corps", unit=f"{PR}/2")
    t.do("attach", commander=PR, unit=f"{PR}/2")
