"""A scripted battle of ruleset 002 with typed dice, every state worked by hand from seed 002,
and the refusals of its sequence of play."""

from dataclasses import replace

import pytest

from campaign1813.campaign.battle.ruleset002 import battle as b
from campaign1813.campaign.battle.ruleset002.convert import convert, mapping_rows
from campaign1813.campaign.battle.ruleset002.units import Ground, UnitKind
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused
from campaign1813.campaign.battle.setup import ALLIED, FRENCH
from campaign1813.campaign.battle.terms import Rating
from tests.battle.setups import setup as make_setup

F1, F2, F3, F4 = (f"1 French Corps/{n}" for n in range(1, 5))
FCAV, FART = "1 French Corps/cav", "1 French Corps/art"
P1, P2, P3, P4 = (f"1 Prussian Corps/{n}" for n in range(1, 5))
PCAV, PART = "1 Prussian Corps/cav", "1 Prussian Corps/art"


def battle_setup(turns=2):
    """One corps a side; the French 2nd brigade are light infantry (skirmish A); the Prussian
    infantry bring 2 casualties each (4 hits)."""
    s = make_setup(["B"], ["B"], cinc=True, ruleset="002", turns=turns)
    brigades = []
    for x in s.brigades:
        if x.key == F2:
            x = replace(x, skirmish=Rating.A)
        if x.key in (P1, P2, P3, P4):
            x = replace(x, casualties=2)
        brigades.append(x)
    return replace(s, brigades=tuple(brigades))


class Battle:
    """Steps kept as the window keeps them."""

    def __init__(self, setup):
        self.setup, self.steps = setup, []

    def do(self, action, typed=None, **inputs):
        self.steps.append(b.act(self.setup, self.steps, action, typed=typed, **inputs))
        return self.steps[-1]

    def refused(self, action, match, typed=None, **inputs):
        with pytest.raises(ActionRefused, match=match):
            b.act(self.setup, self.steps, action, typed=typed, **inputs)

    @property
    def state(self):
        return b.replay(self.setup, self.steps)

    def hits(self, key):
        return self.state.units[key].hits

    def skip(self, n=1):
        for _ in range(n):
            self.do("next")


def test_the_corps_convert_to_units_by_the_documented_mapping():
    """Brigades become units (class A elite, skirmish A skirmishers); 2 hits per casualty;
    the CinC is the General; one commander per 4 units (6 units: 1), attached to infantry."""
    s = battle_setup()
    army = convert(s)
    assert army.unit(F2).kind is UnitKind.SKIRMISHERS and army.unit(F1).kind is UnitKind.INFANTRY
    assert army.unit(FCAV).kind is UnitKind.CAVALRY and army.unit(PART).kind is UnitKind.ARTILLERY
    assert army.unit(P1).hits == 4 and army.unit(F1).hits == 0
    assert army.general(FRENCH).name == "French CinC"
    assert [(x.name, x.unit) for x in army.commanders(FRENCH)] == [("1 French Corps commander",
                                                                    F1)]
    rows = mapping_rows(s)
    assert ("2 Infantry Brigade (1 French Corps)", "infantry, class B, skirmish A",
            "Skirmishers (light infantry)", "skirmish A infantry: light infantry") in rows
    assert any(r[0] == "French CinC" and r[2] == "General" for r in rows)


def test_a_scripted_battle_to_victory():
    """Two turns of seed 002's sequence with typed dice, ending in a French victory when the
    third of the six Allied units is eliminated (half of them, the victory condition)."""
    g = Battle(battle_setup())
    g.do("deploy", unit=F2, ground="town", place="Helmstedt")
    g.refused("deploy", "only one unit may occupy a town", unit=F3, ground="town",
              place="Helmstedt")
    assert g.state.units[F2].ground is Ground.TOWN

    # Turn 1. seed 002: "Roll the dice or flip a coin": 2 -> the French are side A.
    step = g.do("sides", typed=[2])
    assert g.state.side_a == FRENCH and step.rolls == (("side A for turn 1", (2,)),)
    assert "Turn 1 – Movement – French (side A)" in step.lines
    g.refused("shoot", "does not shoot in Turn 1 – Movement", unit=FART, target=P1)
    # "Cavalry 6"", "Add 3" when all movement is along a road"
    g.do("move", unit=F3, inches=6)
    g.refused("move", r"may move 9 inches here, not 10", unit=FCAV, inches=10, road=True)
    g.do("move", unit=FCAV, inches=9, road=True)
    g.refused("move", "has already moved", unit=F3, inches=1)
    g.refused("move", "may not end a move in woods", unit=F4, inches=3, to="woods")
    g.skip()                                                  # Movement – Allied (B)
    g.refused("move", "cannot move in Turn 1 – Movement – Allied", unit=F4, inches=3)
    g.do("move", unit=PCAV, inches=6)
    g.skip()                                                  # Artillery – French (A)
    assert b.who_acts(g.setup, g.state) == (FART,)
    # "Artillery roll 1D6-2": 5 -> 3 hits; 4 + 3 = 7
    step = g.do("shoot", typed=[5], unit=FART, target=P1)
    assert g.hits(P1) == 7 and g.state.units[FART].engaged
    assert "rolled 5: 3 hits" in step.lines[0]
    g.skip()                                                  # Artillery – Allied (B)
    # In a town: cover, "hits halved (rounding up)": 6 - 2 = 4 -> 2
    g.do("shoot", typed=[6], unit=PART, target=F2)
    assert g.hits(F2) == 2
    g.skip()                                                  # Light infantry – French (A)
    # "Skirmishers (Light Infantry) roll 1D6-2": 4 -> 2; 4 + 2 = 6
    g.do("shoot", typed=[4], unit=F2, target=P3)
    assert g.hits(P3) == 6
    g.skip(2)                                                 # Stationary infantry – French
    g.refused("shoot", "moved.*does not shoot", unit=F3, target=P1, typed=[3])
    # "Any unit with an attached Commander get to roll 2D6 and select the highest": 1 and 6;
    # 7 + 6 = 13 hits: eliminated past 12.
    step = g.do("shoot", typed=[(1, 6)], unit=F1, target=P1)
    assert g.state.units[P1].eliminated and g.hits(P1) == 13
    assert step.rolls == (("shooting by 1 Infantry Brigade (1 French Corps), die 1", (1,)),
                          ("shooting by 1 Infantry Brigade (1 French Corps), die 2", (6,)))
    assert "  1 Prussian Corps commander is left without a unit" in step.lines
    assert g.state.commanders["1 Prussian Corps"] == ""
    g.refused("shoot", "has already shot", unit=F1, target=P2, typed=[1, 1])
    g.refused("shoot", "rolls 2 D6|2 rolls typed|no roll typed", unit=F4, target=P2,
              typed=[1, 1])
    g.skip()                                                  # Stationary infantry – Allied
    g.refused("shoot", "has been eliminated", unit=P1, target=F1, typed=[6])
    g.do("shoot", typed=[3], unit=P3, target=F1)
    assert g.hits(F1) == 3
    g.skip()                                                  # Moved infantry – French (A)
    # "Any target cavalry unit can retire 6" and halve the number of hits": 5 -> 3
    step = g.do("shoot", typed=[5], unit=F3, target=PCAV, retire=True)
    assert g.hits(PCAV) == 3 and g.state.units[PCAV].retired
    g.skip(2)                                                 # Cavalry charges – French (A)
    # "1D6+2", "attacked on its flank or rear, then double": (4 + 2) x 2 = 12; 4 + 12 = 16
    step = g.do("charge", typed=[4], unit=FCAV, target=P2, flank=True)
    assert g.state.units[P2].eliminated and g.hits(P2) == 16
    assert step.lines[-1] == ("  1 Cavalry Brigade (1 French Corps) occupy the ground "
                              "2 Infantry Brigade (1 Prussian Corps) held")
    assert b.eliminated_count(g.setup, g.state, ALLIED) == 2
    g.skip()                                                  # Cavalry charges – Allied (B)
    g.refused("charge", "retired 6 inches from shooting", unit=PCAV, target=F4, typed=[6])
    g.refused("charge", "only cavalry can charge", unit=PART, target=FART)
    g.skip()                                                  # Rally – French (A)
    assert b.who_acts(g.setup, g.state) == (F1, F2, F3, FART)
    g.refused("rally", "carries no 'engaged in combat' marker", unit=F4)
    g.do("rally", unit=F1, by="General", enemy_near=True, near=True)
    g.do("rally", unit=F3, by="1 French Corps", near=True)
    g.refused("rally", "the General rallies 1 unit", unit=FART, by="General")
    g.refused("rally", "a commander rallies 1 unit", unit=FART, by="1 French Corps", near=True)
    assert not g.state.units[F1].engaged and g.state.units[FART].engaged
    g.skip()                                                  # Rally – Allied (B)
    g.refused("rally", "must be within 6 inches", unit=P3, by="General", enemy_near=True)
    g.refused("rally", "has none", unit=P3, by="1 Prussian Corps", near=True)
    g.refused("rally", "'1 French Corps' is not an Allied commander on the table", unit=P3,
              by="1 French Corps", near=True)
    # "If a unit is not within 6" of an enemy unit, then the General can rally [it] at any
    # distance"
    g.do("rally", unit=P3, by="General")
    step = g.do("next")
    assert step.lines == ("End of turn 1", "Turn 2 of 2")
    assert not g.state.units[F3].moved and not g.state.units[PCAV].retired

    # Turn 2: the umpire flips a coin: the Allies are side A.
    g.do("sides", side_a="Allied")
    g.refused("move", "engaged in combat may not move", unit=PART, inches=2)
    g.do("move", unit=P3, inches=3)
    g.skip()                                                  # Movement – French (B)
    g.refused("move", "engaged in combat may not move", unit=FART, inches=2)
    g.do("move", unit=FART, pivot=True)
    g.skip()                                                  # Artillery – Allied (A)
    g.refused("shoot", "has already shot|does not shoot", unit=FART, target=P4, typed=[6])
    g.do("shoot", typed=[6], unit=PART, target=FCAV)
    assert g.hits(FCAV) == 4
    g.skip()                                                  # Artillery – French (B)
    g.refused("shoot", "artillery that has moved or turned", unit=FART, target=P4, typed=[6])
    g.skip(3)                                                 # Stationary infantry – Allied
    g.do("shoot", typed=[2], unit=P4, target=F4)
    assert g.hits(F4) == 2
    g.skip()                                                  # Stationary infantry – French
    # best of 5 and 5: 4 + 5 = 9 hits; not yet
    g.do("shoot", typed=[5, 5], unit=F1, target=P4)
    assert g.hits(P4) == 9 and g.state.phase == b.Phase.PLAY
    # 9 + 6 = 15: the third Allied unit of six is eliminated: the French win.
    step = g.do("shoot", typed=[6], unit=F4, target=P4)
    end = g.state
    assert end.phase == b.Phase.FINISHED and end.result == FRENCH
    assert step.lines[-1] == ("Result: the French win – the French have eliminated 3 of the 6 "
                              "Allied units (needed 3)")
    assert {k: (u.hits, u.eliminated) for k, u in end.units.items()} == {
        F1: (3, False), F2: (2, False), F3: (0, False), F4: (2, False), FCAV: (4, False),
        FART: (0, False), P1: (13, True), P2: (16, True), P3: (6, False), P4: (15, True),
        PCAV: (3, False), PART: (0, False)}
    assert b.decision(g.setup, end).final and b.decision(g.setup, end).winner == FRENCH
    finals = {o.key: (o.casualties, o.destroyed) for o in b.outcomes(g.setup, end)}
    assert finals[P4] == (15, True) and finals[F1] == (3, False)
    rows = b.units_table(g.setup, end)
    assert rows[0] == ("1 Infantry Brigade (1 French Corps)", FRENCH, "Infantry (line infantry)",
                       "3/12", "open", "engaged", "1 French Corps commander")
    assert rows[9][3:] == ("15/12", "open", "", "eliminated")
    g.refused("next", "the battle is finished")
    report = b.report(g.setup, g.steps)
    assert report[0] == "The battle of Helmstedt (2 May 1813)"
    assert "French: French CinC (General); 6 units; commanders: 1 French Corps commander" in report
    assert "  3 Infantry Brigade (1 French Corps) moves 6 inches" in report
    assert ("  The French General rallies 1 Infantry Brigade (1 French Corps): it may move "
            "again") in report
    assert report[-1] == step.lines[-1]


def test_replaying_the_steps_gives_the_same_state_and_undo_drops_a_step():
    g = Battle(battle_setup())
    g.do("sides", typed=[5])
    assert g.state.side_a == ALLIED
    g.skip(2)
    g.do("shoot", typed=[6], unit=PART, target=F1)
    before = g.state
    assert b.replay(g.setup, list(g.steps)) == before and before.units[F1].hits == 4
    assert b.replay(g.setup, g.steps[:-1]).units[F1].hits == 0


def test_the_last_turn_ends_the_battle_by_units_eliminated():
    """Neither side eliminated half: after the last turn equal losses are a draw."""
    g = Battle(battle_setup(turns=1))
    g.do("sides", side_a="French")
    for _ in range(len(b.sequence()) - 1):
        g.do("next")
    step = g.do("next")
    assert g.state.result == "draw" and g.state.phase == b.Phase.FINISHED
    assert step.lines[-1] == "Result: a draw – after the last turn each side has lost 0 units"


def test_seeded_rolls_repeat_and_typed_rolls_must_fit():
    g = Battle(battle_setup())
    first = b.act(g.setup, [], "sides")
    assert first == b.act(g.setup, [], "sides")
    with pytest.raises(ActionRefused, match="7 cannot be rolled on d6"):
        b.act(g.setup, [], "sides", typed=[7])
    with pytest.raises(ActionRefused, match="2 rolls typed, but the step used 1"):
        b.act(g.setup, [], "sides", typed=[1, 2])
    with pytest.raises(ActionRefused, match="rolls no dice"):
        b.act(g.setup, [], "deploy", typed=[1], unit=F1)
    with pytest.raises(ActionRefused, match=r"say which unit \(the input 'unit' is missing\)"):
        b.act(g.setup, [], "deploy")
    with pytest.raises(ActionRefused, match="'fire' is not an action of ruleset 002"):
        b.act(g.setup, [], "fire")
    with pytest.raises(ActionRefused, match="set up for ruleset '1813'"):
        b.act(replace(g.setup, ruleset="1813"), [], "sides")


def test_an_override_ends_the_battle():
    g = Battle(battle_setup())
    g.refused("override", "needs the umpire's reason", side="Allied")
    g.do("override", side="Allied", reason="the French withdrew at dusk")
    assert g.state.result == ALLIED and g.state.phase == b.Phase.FINISHED


def test_commanders_are_one_for_every_four_units_the_better_grade_first():
    """seed 002: "Both armies can have up to 3 commanders. As a rule one commander is allowed
    for every 4 units"; "These commanders must be assigned to an infantry or elite infantry
    unit"; "All armies have an overall commander (General)"."""
    from campaign1813.campaign.battle.terms import Grade

    s = make_setup(["B", "A", "B"], ["B"], ruleset="002")           # no CinC on either side
    grades = {"1 French Corps": Grade.POOR, "2 French Corps": Grade.GIFTED,
              "3 French Corps": Grade.AVERAGE}
    s = replace(s, commanders=tuple(replace(c, grade=grades.get(c.key, c.grade))
                                    for c in s.commanders))
    army = convert(s)
    # 18 French units allow 3 commanders; the Gifted one is the General without a CinC.
    assert army.general(FRENCH).key == "2 French Corps"
    assert [(x.key, x.unit) for x in army.commanders(FRENCH)] == [
        ("3 French Corps", "3 French Corps/9"), ("1 French Corps", "1 French Corps/1")]
    # 6 Allied units allow one commander, but their only one is the General.
    assert army.general(ALLIED).key == "1 Prussian Corps" and army.commanders(ALLIED) == ()
    # The 2nd corps is class A: its infantry are elite, eliminated past 18.
    assert army.unit("2 French Corps/5").kind is UnitKind.ELITE


def test_a_commander_beyond_the_allowance_stays_off_the_table():
    s = make_setup(["B", "B"], ["B"], cinc=True, ruleset="002")
    keep = {"1 French Corps/1", "1 French Corps/2", "1 French Corps/cav", "2 French Corps/5",
            "2 French Corps/6"}
    brigades = tuple(x for x in s.brigades if x.key in keep or x.corps.endswith("Prussian Corps"))
    corps = tuple(replace(c, brigades=tuple(k for k in c.brigades if k in keep))
                  if c.side == FRENCH else c for c in s.corps)
    army = convert(replace(s, brigades=brigades, corps=corps))
    # 5 French units allow one commander: the first corps' (both Average, setup order).
    assert [x.key for x in army.commanders(FRENCH)] == ["1 French Corps"]
    rows = mapping_rows(replace(s, brigades=brigades, corps=corps))
    assert ("2 French Corps commander", "commander", "not on the table",
            "French: 1 commander allowed for 5 units (one per 4, at most 3)") in rows
