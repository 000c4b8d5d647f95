"""A ruleset 004 battle played with typed dice from the first move to the result, every state
worked by hand from the seed's rules; the sequence refusing what the seed does not allow."""

from dataclasses import replace

import pytest

from campaign1813.campaign.battle.core.outcome import Outcome, Termination
from campaign1813.campaign.battle.ruleset004 import battle as b
from campaign1813.campaign.battle.ruleset004.convert import mapping_rows
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused
from campaign1813.campaign.battle.setup import (
    ALLIED,
    FRENCH,
    BattleSetup,
    BrigadeSetup,
    CommanderSetup,
    CorpsSetup,
    Table,
)
from campaign1813.campaign.battle.terms import Arm, CavalryWeight, Grade, Rating, Role


def small_battle(turns: int = 12) -> BattleSetup:
    """French foot and lancers (Average commander: regular) against Prussian foot and guns
    (Poor commander: poor); each army three units with its general."""
    commanders = (CommanderSetup("1c", "Marmont", Grade.AVERAGE, Role.CORPS, FRENCH, "French"),
                  CommanderSetup("pc", "Yorck", Grade.POOR, Role.CORPS, ALLIED, "Prussian"))
    corps = (CorpsSetup("1 Corps", FRENCH, "Army", "1c", ("F1", "F2")),
             CorpsSetup("I Corps", ALLIED, "Army", "pc", ("A1", "A2")))
    brigades = (
        BrigadeSetup("F1", "1 Corps", "French Line", Arm.INFANTRY, Rating.B, nation="French"),
        BrigadeSetup("F2", "1 Corps", "Polish Lancers", Arm.CAVALRY, Rating.B,
                     cavalry=CavalryWeight.LIGHT, lancers=True, nation="French"),
        BrigadeSetup("A1", "I Corps", "Prussian Line", Arm.INFANTRY, Rating.B,
                     nation="Prussian"),
        BrigadeSetup("A2", "I Corps", "Prussian Battery", Arm.ARTILLERY, Rating.B, calibre=6,
                     nation="Prussian"),
    )
    return BattleSetup(7, "the battle of Wartenburg", "Wartenburg", "1813-10-03", commanders,
                       corps, brigades, (), Table("Wartenburg"), "004", 4, turns)


class Battle:
    """Steps kept as the battle service keeps them."""

    def __init__(self, setup):
        self.setup = setup
        self.steps = []

    def __call__(self, action, typed=None, **inputs):
        step = b.act(self.setup, self.steps, action, typed=typed, **inputs)
        self.steps.append(step)
        return step

    @property
    def state(self):
        return b.replay(self.setup, self.steps)

    def steps_left(self):
        s = self.state
        return {k: (0 if u.eliminated else u.steps) for k, u in s.units.items()}


def test_the_mapping_shown_on_the_setup():
    rows = mapping_rows(small_battle())
    assert rows[0][:6] == ("French Line", "1 Corps", "infantry B", "foot", "regular", "100 %")
    assert rows[1][3:5] == ("lancers", "regular")
    assert rows[2][3:5] == ("foot", "poor") and rows[3][3:5] == ("guns", "poor")
    assert rows[-2][:5] == ("Marmont", FRENCH, "corps commander, Average", "general", "regular")


def test_a_scripted_battle_to_the_end():
    war = Battle(small_battle())
    fg, ag = f"{FRENCH} general", f"{ALLIED} general"
    assert war.steps_left() == {"F1": 4, "F2": 4, fg: 4, "A1": 4, "A2": 4, ag: 4}

    # Turn 1. Dice for the first move: French 4, Allied 2.
    step = war("first-move", typed=[4, 2])
    assert step.lines[-1].endswith("the French move first")
    # The lancers move their full 12 cm (variation 3: no change) and charge the Prussian foot.
    step = war("move", typed=[3], unit="F2", distance_cm=12, charge="A1")
    assert "moves 12 cm" in step.lines[0]
    with pytest.raises(ActionRefused, match="Allied's move, not the French's"):
        b.act(war.setup, war.steps, "move", unit="F1", distance_cm=1)
    war("done", side=ALLIED)
    war("done", side=FRENCH)
    assert war.state.stage == b.Stage.FIRE

    # Canister at the lancers: 5 + 4 = 9, halved 4½, the half typed 3 rounds down: 4 potential
    # hits, typed 4, 1, 6, 2: 2 hits (lancers have no save).
    step = war("fire", typed=[5, 4, 3, 4, 1, 6, 2], unit="A2", target="F2", shot="canister",
               distance_cm=10)
    assert "score 9, 4 potential hits, 2 hits" in step.lines[0]
    # Prussian foot at the French foot in cover: 4, 5, 1, 2: 2 hits; saves 4, 3: 1 stands.
    war("fire", typed=[4, 5, 1, 2, 4, 3], unit="A1", target="F1", cover=True, distance_cm=8)
    # French foot fire back: 6, 6, 2, 3: 2 hits.
    war("fire", typed=[6, 6, 2, 3], unit="F1", target="A1", distance_cm=8)
    with pytest.raises(ActionRefused, match="already fired"):
        b.act(war.setup, war.steps, "fire", typed=[6, 6, 6, 6], unit="F1", target="A1")
    assert war.steps_left()["A1"] == 4, "fire is simultaneous: no hit counts until it is over"

    # All fire at once: French foot 3 steps, lancers 2, Prussian foot 2. Morale: French foot
    # (regular, 4-6) rolls 4: passes; lancers (regular) roll 1: fail, one further step; Prussian
    # foot (poor, 5-6) roll 6: pass.
    step = war("end-fire", typed=[4, 1, 6])
    assert war.steps_left() == {"F1": 3, "F2": 1, fg: 4, "A1": 2, "A2": 4, ag: 4}
    assert sum("fails and loses a further 25 %" in x for x in step.lines) == 1

    # Melee: lancers at 25 % against foot in firing order attacked frontally: 1½ dice; the half
    # die typed 5 is full; dice 4, 2: one hit. The foot (2 steps, 1 a step): 1, 2: none. Hits
    # suffered with the fire: lancers 2 + 0, foot 2 + 1: the foot retreat 6 cm less 25 %
    # (variation 1) and test (poor) with 2: fail: their last step goes.
    step = war("melee", typed=[5, 4, 2, 1, 2, 1, 2], attacker="F2", defender="A1")
    assert "lancers 2, Prussian Line 3: defender retreats" in "".join(step.lines).replace(
        "Polish Lancers", "lancers")
    assert any("retreats 9/2 cm" in x for x in step.lines)
    assert war.steps_left() == {"F1": 3, "F2": 1, fg: 4, "A1": 0, "A2": 4, ag: 4}
    assert b.decision(war.setup, war.state).final is False, "Allied 2 of 3 left: not below half"
    war("end-turn")

    # Turn 2. First move: 2, 2 tie, then 1, 6: the Allied move first.
    war("first-move", typed=[2, 2, 1, 6])
    assert war.state.first == ALLIED
    war("attach", side=ALLIED, unit="A2")
    war("done", side=ALLIED)
    step = war("move", unit="F1", distance_cm=3, charge="A2")  # 3 of 6 cm: no variation
    assert step.rolls == ()
    war("done", side=FRENCH)
    # Canister at the charging foot: 3 + 3 = 6, 3 potential hits: 5, 1, 1: one hit.
    war("fire", typed=[3, 3, 5, 1, 1], unit="A2", target="F1", shot="canister")
    # The foot moved, but are fired at and return fire (3 steps, -1): 6, 6, 5 less 1: 3 hits.
    war("fire", typed=[6, 6, 5], unit="F1", target="A2")
    # The French foot keep 2 steps and pass (regular, 5); the guns keep one and test, poor with
    # the general: 4-6: 4.
    step = war("end-fire", typed=[5, 4])
    assert war.steps_left() == {"F1": 2, "F2": 1, fg: 4, "A1": 0, "A2": 1, ag: 4}
    assert "poor +1 general, needs 4, rolls 4: passes" in step.lines[-1]
    # The foot's charge meets the guns: artillery is eliminated in a melee, and the general with
    # them: the Allied army has none of its 3 units left.
    step = war("melee", attacker="F1", defender="A2")
    assert step.rolls == ()
    assert war.steps_left() == {"F1": 2, "F2": 1, fg: 4, "A1": 0, "A2": 0, ag: 0}
    verdict = b.decision(war.setup, war.state)
    assert (verdict.winner, verdict.final) == (FRENCH, True)
    assert verdict.reason == "the Allied army has 0 of its 3 units left, below half"
    assert step.lines[-1] == f"Result: the French win: {verdict.reason}"
    with pytest.raises(ActionRefused, match="the battle is over: .*; finish it"):
        b.act(war.setup, war.steps, "end-turn")
    step = war("finish")
    assert step.lines == (f"The battle is finished: the French win – {verdict.reason}",)
    with pytest.raises(ActionRefused, match="the battle is finished"):
        b.act(war.setup, war.steps, "finish")
    text = b.report(war.setup, war.steps)
    assert text[0] == "The battle of Wartenburg" and text[-1] == step.lines[-1]
    assert text[-2].startswith("Result: the French win")
    assert "Turn 2" in text


def test_the_sequence_refuses_what_the_seed_does_not_allow():
    war = Battle(small_battle())
    with pytest.raises(ActionRefused, match="belongs to the movement phase"):
        b.act(war.setup, war.steps, "move", unit="F1")
    with pytest.raises(ActionRefused, match="3 rolls typed, but the step used 2"):
        b.act(war.setup, war.steps, "first-move", typed=[4, 2, 3])
    with pytest.raises(ActionRefused, match="rolls no dice"):
        b.act(war.setup, war.steps, "end-turn", typed=[3])
    with pytest.raises(ActionRefused, match="not a battle action"):
        b.act(war.setup, war.steps, "retreat")
    war("first-move", typed=[5, 1])
    with pytest.raises(ActionRefused, match="may move 6 cm this turn, not 7 cm"):
        b.act(war.setup, war.steps, "move", unit="F1", distance_cm=7)
    war("move", unit="F1", distance_cm=3)
    with pytest.raises(ActionRefused, match="foot may not charge horse"):
        b.act(war.setup, war.steps, "move", unit="A1", distance_cm=3, charge="F2")
    war("done", side=ALLIED)
    with pytest.raises(ActionRefused, match="already moved"):
        b.act(war.setup, war.steps, "move", unit="F1", distance_cm=1)
    war("done", side=FRENCH)
    with pytest.raises(ActionRefused, match="moved this turn and may not fire"):
        b.act(war.setup, war.steps, "fire", typed=[1, 1, 1, 1], unit="F1", target="A1")
    with pytest.raises(ActionRefused, match="not fired at"):
        b.act(war.setup, war.steps, "fire", unit="A1", target=f"{FRENCH} general")


def test_returning_fire_after_moving_takes_one_off():
    """seed 004: 'troops who are fired at may return fire simultaneously even if they have
    moved, but subtracting one from the die': French foot moved, fired at by the Prussian foot,
    return fire: 5, 5, 4, 4 less 1: two hits, not four."""
    war = Battle(small_battle())
    war("first-move", typed=[5, 1])
    war("move", unit="F1", distance_cm=3)
    war("done", side=ALLIED)
    war("done", side=FRENCH)
    war("fire", typed=[1, 1, 1, 1], unit="A1", target="F1")
    step = war("fire", typed=[5, 5, 4, 4], unit="F1", target="A1")
    assert "hit on 4-6, -1): 2 hits" in step.lines[0]


def test_nightfall_is_a_draw_and_the_umpire_may_decide():
    war = Battle(small_battle(turns=1))
    war("national", nation="Prussian", characteristics="mollwitz_prussian")
    war("first-move", typed=[5, 1])
    war("done", side=FRENCH)
    war("done", side=ALLIED)
    war("end-fire")
    step = war("end-turn")
    assert b.decision(war.setup, war.state) == b.Decision(
        Outcome(Termination.NIGHTFALL, None), "night fell after turn 1 with neither army lost")
    assert step.lines[0].startswith("Night falls")
    other = Battle(small_battle())
    with pytest.raises(ActionRefused, match="undecided on turn 1"):
        b.act(other.setup, other.steps, "finish")
    other("override", side=ALLIED, reason="the French withdrew")
    assert b.decision(other.setup, other.state).winner == ALLIED
    with pytest.raises(ActionRefused, match="no national characteristics called 'x'"):
        b.act(war.setup, [], "national", nation="Prussian", characteristics="x")


def test_a_seeded_step_rolls_the_same_every_time():
    setup = small_battle()
    first = b.act(setup, [], "first-move")
    assert b.act(setup, [], "first-move") == first
    assert first.rolls and all(len(faces) == 1 for _purpose, faces in first.rolls)


def _to_fire(war, moves=()):
    war("first-move", typed=[5, 1])
    for unit, inputs in moves:
        war("move", unit=unit, **inputs)
        if war.state.to_move == ALLIED:
            war("done", side=ALLIED)
    if ALLIED not in war.state.done:
        war("done", side=ALLIED)
    war("done", side=FRENCH)


def test_one_unit_to_a_face_and_the_flank_die():
    """seed 004: 'Only one unit can contact each face of an enemy unit'; 'Throw an extra die per
    25 per cent effectiveness when attacking in flank': lancers at 100 % in the flank of foot
    throw (4 + 1) × 4 = 20 dice (foot not attacked frontally are 'all other close-order
    infantry'); the foot throw 4. All 1s: no hits, another round next turn."""
    war = Battle(small_battle())
    war("first-move", typed=[5, 1])
    war("move", unit="F2", distance_cm=6, charge="A1", face="flank")
    war("done", side=ALLIED)
    with pytest.raises(ActionRefused, match="flank of Prussian Line is taken by Polish Lancers"):
        b.act(war.setup, war.steps, "move", unit="F1", distance_cm=1, charge="A1",
              face="flank")
    war("done", side=FRENCH)
    war("end-fire")
    with pytest.raises(ActionRefused, match="did not charge"):
        b.act(war.setup, war.steps, "melee", attacker="F1", defender="A1")
    step = war("melee", typed=[1] * 24, attacker="F2", defender="A1")
    assert "Polish Lancers throws 20 dice" in step.lines[1]
    assert war.state.ties == (("F2", "A1"),)


def test_guns_limber_to_move_and_unlimber_to_fire():
    """seed 004: 'Guns take a turn to limber or unlimber.'"""
    war = Battle(small_battle())
    war("first-move", typed=[1, 5])
    with pytest.raises(ActionRefused, match="must limber before moving"):
        b.act(war.setup, war.steps, "move", unit="A2", distance_cm=2)
    step = war("move", unit="A2", changes="limber", distance_cm=0)
    assert step.lines == ("  Prussian Battery limber (the turn)",)
    war("done", side=FRENCH)
    war("done", side=ALLIED)
    with pytest.raises(ActionRefused, match="limbered and must unlimber"):
        b.act(war.setup, war.steps, "fire", typed=[1], unit="A2", target="F1")


def test_frontally_charged_foot_may_always_fire():
    """seed 004: 'Frontally-charged foot may always fire': Prussian foot that moved, charged in
    front by the lancers, fire at them (with the -1 for having moved)."""
    war = Battle(small_battle())
    war("first-move", typed=[1, 5])
    war("move", unit="A1", distance_cm=2)
    war("move", unit="F2", distance_cm=6, charge="A1")
    war("done", side=ALLIED)
    war("done", side=FRENCH)
    step = war("fire", typed=[5, 5, 4, 4], unit="A1", target="F2")
    assert "hit on 4-6, -1): 2 hits" in step.lines[0]


def test_support_is_given_by_one_unit_to_one_unit():
    """seed 004: support 'can only give support to one unit'; 'light infantry and artillery
    units cannot give support'."""
    war = Battle(small_battle())
    _to_fire(war)
    war("fire", typed=[6, 1, 1, 1], unit="F1", target="A1")
    war("fire", typed=[6, 1, 1, 1], unit="A1", target="F1")
    with pytest.raises(ActionRefused, match="Prussian Battery cannot give support: guns"):
        b.act(war.setup, war.steps, "end-fire", typed=[4, 5], supported={"A1": "A2"})
    with pytest.raises(ActionRefused, match="Polish Lancers can give support to one unit"):
        b.act(war.setup, war.steps, "end-fire", typed=[3, 5],
              supported={"F1": "F2", "French general": "F2"})
    # The lancers behind the French foot: regular +1 passes on 3.
    step = war("end-fire", typed=[3, 5], supported={"F1": "F2"})
    assert "regular +1 support, needs 3, rolls 3: passes" in step.lines[-2]


def test_the_umpire_may_ignore_a_ridiculous_variation():
    """seed 004: the variation 'should be ignored when the result would be ridiculous'."""
    war = Battle(small_battle())
    war("first-move", typed=[5, 1])
    step = war("move", unit="F1", distance_cm=6, no_variation="the river bank")
    assert step.rolls == () and "variation ignored: the river bank" in step.lines[0]


def test_what_the_window_shows():
    war = Battle(small_battle())
    assert b.step_now(war.setup, war.state) == "Turn 1 – dice for the first move"
    assert b.who_acts(war.setup, war.state) == ()
    war("first-move", typed=[5, 1])
    assert b.step_now(war.setup, war.state) == "Turn 1 – movement – the French to move"
    assert b.who_acts(war.setup, war.state) == ("F1", "F2", f"{FRENCH} general")
    war("move", unit="F2", distance_cm=6, charge="A1")
    assert b.who_acts(war.setup, war.state) == ("A1", "A2", f"{ALLIED} general")
    war("done", side=ALLIED)
    war("done", side=FRENCH)
    assert b.who_acts(war.setup, war.state) == ("F1", "A1", "A2")
    war("fire", typed=[6, 6, 6, 1], unit="F1", target="A1")
    war("end-fire", typed=[6])
    assert b.who_acts(war.setup, war.state) == ("F2",)
    rows = b.units_table(war.setup, war.state)
    assert rows[0] == ("French Line", FRENCH, "foot", "regular", "100 %", "firing order",
                       "fired")
    assert rows[3] == ("Prussian Line", ALLIED, "foot", "poor", "25 %", "firing order", "")
    assert [(o.key, o.casualties, o.destroyed) for o in b.outcomes(war.setup, war.state)] == [
        ("F1", 0, False), ("F2", 0, False), ("A1", 3, False), ("A2", 0, False)]


def test_the_package_owns_its_engine_found_by_the_registry():
    from campaign1813.campaign.battle.registry import find_ruleset
    from campaign1813.campaign.battle.ruleset004.engine import Engine004

    engine = find_ruleset("004")
    assert isinstance(engine, Engine004) and engine.ruleset == "004"
    assert tuple(a.name for a in engine.actions) == b.ACTIONS


def test_missing_and_bad_inputs_are_refused_by_name():
    war = Battle(small_battle())
    war("first-move", typed=[5, 1])
    with pytest.raises(ActionRefused, match="the step needs its 'unit'"):
        b.act(war.setup, war.steps, "move")
    with pytest.raises(ActionRefused, match="wheel_degrees 'lots' is not a whole number"):
        b.act(war.setup, war.steps, "move", unit="F1", wheel_degrees="lots")
    with pytest.raises(ActionRefused, match="distance 'nan' is not a number of centimetres"):
        b.act(war.setup, war.steps, "move", unit="F1", distance_cm=float("nan"))
    with pytest.raises(ActionRefused, match="there is no unit 'X9'"):
        b.act(war.setup, war.steps, "move", unit="X9")
    with pytest.raises(ActionRefused, match="'sideways' is not a face"):
        b.act(war.setup, war.steps, "move", unit="F2", distance_cm=2, charge="A1",
              face="sideways")


def test_light_troops_half_move_and_fire():
    """seed 004: 'Light troops may make a half move and fire': light foot that made a half move
    to fire may fire; after a full move they may not."""
    setup = small_battle()
    brigades = tuple(replace(x, skirmish=Rating.A) if x.key == "F1" else x
                     for x in setup.brigades)
    war = Battle(replace(setup, brigades=brigades))
    war("first-move", typed=[5, 1])
    with pytest.raises(ActionRefused, match="may move 15/4 cm this turn, not 5 cm"):
        b.act(war.setup, war.steps, "move", unit="F1", distance_cm=5, fires=True)
    war("move", unit="F1", distance_cm="15/4", fires=True)  # half a move: no variation
    war("done", side=ALLIED)
    war("done", side=FRENCH)
    step = war("fire", typed=[5, 1, 1, 1], unit="F1", target="A1")
    assert "hit on 5-6): 1 hit" in step.lines[0]
    other = Battle(replace(setup, brigades=brigades))
    other("first-move", typed=[5, 1])
    other("move", typed=[3], unit="F1", distance_cm="15/2")
    other("done", side=ALLIED)
    other("done", side=FRENCH)
    with pytest.raises(ActionRefused, match="moved this turn and may not fire"):
        b.act(other.setup, other.steps, "fire", typed=[1, 1, 1, 1], unit="F1", target="A1")


def test_national_characteristics_chosen_for_the_battle():
    """seed 004, Mollwitz: 'Prussian foot add 1 to musketry throws': given to the Prussians for
    this battle, their foot hit on 3-6 (4 dice typed 3, 3, 2, 1: two hits)."""
    war = Battle(small_battle())
    step = war("national", nation="Prussian", characteristics="mollwitz_prussian")
    assert step.lines == ("National characteristics of the Prussian: Mollwitz: Prussian",)
    war("first-move", typed=[5, 1])
    war("done", side=FRENCH)
    war("done", side=ALLIED)
    step = war("fire", typed=[3, 3, 2, 1], unit="A1", target="F1")
    assert "hit on 4-6, +1): 2 hits" in step.lines[0]
    with pytest.raises(ActionRefused, match="decided before the battle begins"):
        b.act(war.setup, war.steps, "national", nation="French", characteristics="")
    with pytest.raises(ActionRefused, match="no brigade of this battle is Saxon"):
        b.act(war.setup, [], "national", nation="Saxon", characteristics="mollwitz_prussian")
