"""A battle's setup sheet as values and JSON (DESIGN.md §5; seed 000's Summary of the Rules).

The battle is a real one of the shipped campaign: I Prussian Corps is ordered to attack
Magdeburg by forced marches on 1 May; four days of 20 miles and a fifth of 9 bring it to
6.5 miles from Burg on the Magdeburg road on 5 May, in contact with 5 Corps in Magdeburg. The
forced march puts one casualty a day on each infantry brigade (docs/campaign-day.md), so each of
its brigades 1–4 comes with 5. Rule 17: a brigade routs without testing at 6 (infantry),
4 (cavalry) or 3 (artillery) casualties. Organisation of Armies: 8 figures to an infantry
brigade, 4 to the cavalry brigade, one gun and 4 crew, so 32, 4 and 1 a corps.
"""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import jsonschema
import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.battle.core.units import RulesetSheet, UnitsEngine
from campaign1813.campaign.battle.setup import Edge, Special
from campaign1813.campaign.battle.terms import Arm
from campaign1813.campaign.cli import main as bare_main
from campaign1813.campaign.day.fight_setup import battle_setup
from campaign1813.campaign.day.ground import Ground, Position
from campaign1813.campaign.day.state import Battle, initial_state
from campaign1813.campaign.export.setup_sheet import (
    river_course_on_table,
    setup_sheet,
    sheet_json,
)
from campaign1813.campaign.scenario.loader import load_scenario
from campaign1813.campaign.store.document import open_campaign

SCHEMA = json.loads((Path(__file__).parents[2] / "docs" / "schemas"
                     / "battle-setup.schema.json").read_text(encoding="utf-8"))

# The shipped orders of battle, march order: the cavalry first, infantry 1-4, the battery;
# (name, class, firepower, skirmish, kind, rout point, casualties brought in).
YORCK = [
    ("1 Cavalry Brigade", "A", None, None, "Heavy cavalry", 4, 0),
    ("1 Infantry Brigade", "A", "B", "A", "Infantry", 6, 5),
    ("2 Infantry Brigade", "B", "B", "A", "Infantry", 6, 5),
    ("3 Infantry Brigade", "B", "B", "B", "Infantry", 6, 5),
    ("4 Infantry Brigade", "B", "C", "B", "Infantry", 6, 5),
    ("I Prussian Corps Artillery", "A", None, None, "12-pounder", 3, 0),
]
LAURISTON = [
    ("3 Cavalry Brigade", "B", None, None, "Medium cavalry", 4, 0),
    ("17 Infantry Brigade", "A", "B", "A", "Infantry", 6, 0),
    ("18 Infantry Brigade", "B", "B", "A", "Infantry", 6, 0),
    ("19 Infantry Brigade", "B", "C", "B", "Infantry", 6, 0),
    ("20 Infantry Brigade", "C", "C", "B", "Infantry", 6, 0),
    ("5 Corps Artillery", "B", None, None, "9-pounder", 3, 0),
]


# The fixtures carry their names in the decorator, so the other test modules can import them
# under names of their own.
@pytest.fixture(scope="session", name="campaign_files")
def campaign_files_fixture(tmp_path_factory, campaign_template) -> dict[str, Path]:
    """The campaign on 5 May with the battle of Magdeburg scheduled (``scheduled``), and a copy
    in which it has been auto-resolved (``fought``). 1 Corps marches on Erfurt in Central
    Germany from 3 May, so the diary has two theatres."""
    folder = tmp_path_factory.mktemp("magdeburg")
    scheduled = folder / "scheduled.c1813"
    shutil.copyfile(campaign_template, scheduled)
    with open_campaign(scheduled) as doc:
        services.issue_order(doc, "I Prussian Corps", "Attack", "Magdeburg", forced=True)
        services.end_day(doc)
        services.end_day(doc)
        services.issue_order(doc, "1 Corps", "Move", "Erfurt")
        for _ in range(3):
            services.end_day(doc)
    fought = folder / "fought.c1813"
    shutil.copy(scheduled, fought)
    with open_campaign(fought) as doc:
        services.autoresolve_battle(doc, 1)
    return {"scheduled": scheduled, "fought": fought}


@pytest.fixture(scope="session", name="magdeburg")
def magdeburg_fixture(campaign_files):
    with open_campaign(campaign_files["scheduled"]) as doc:
        return queries.battle_setup_view(doc, 1)


def _rows(corps):
    return [(b.name, b.klass, b.firepower, b.skirmish, b.kind, b.rout_point, b.casualties)
            for b in corps.brigades]


def test_the_sheet_holds_the_exact_brigades_rout_points_and_forced_march_casualties(magdeburg):
    assert magdeburg.heading == "The battle of Magdeburg (5 May 1813)"
    assert [c.key for c in magdeburg.corps] == ["5 Corps", "I Prussian Corps"]
    yorck, lauriston = magdeburg.corps[1], magdeburg.corps[0]
    assert _rows(yorck) == YORCK
    assert _rows(lauriston) == LAURISTON
    for corps in (yorck, lauriston):
        f = corps.figures
        assert (f.infantry, f.cavalry, f.guns, f.crew) == (32, 4, 1, 4)
        assert [b.figures for b in corps.brigades] == (
            ["4 cavalry figures"] + ["8 infantry figures"] * 4 + ["1 gun and 4 crew"])


def test_commanders_chips_orders_and_entries(magdeburg):
    yorck, lauriston = magdeburg.corps[1], magdeburg.corps[0]
    assert (yorck.commander, yorck.grade, yorck.bonus, yorck.chip) == \
        ("General Yorck", "Gifted", 3, "2")
    assert (lauriston.commander, lauriston.grade, lauriston.bonus, lauriston.chip) == \
        ("General Lauriston", "Average", 2, "1")
    # The Allies attack; the French, with no order left, hold (docs/battle-setup.md).
    assert (yorck.orders, lauriston.orders) == ("Attack", "Hold")
    assert yorck.objective == lauriston.objective == "Magdeburg"
    # The Burg road leaves Magdeburg at 42.4°, so by the north edge, in column of march.
    assert yorck.arrival == "north edge by the Burg road, turn 1, in column of march"
    assert lauriston.arrival == "deployed on the table"
    assert yorck.march_order == ("1 Cavalry Brigade", "1 Infantry Brigade",
                                 "2 Infantry Brigade", "3 Infantry Brigade",
                                 "4 Infantry Brigade", "I Prussian Corps Artillery")
    assert [(e.side, e.edge, e.road, e.turn, e.corps, e.blinds) for e in magdeburg.entries] == [
        ("French", None, None, 1, ("5 Corps",), ("Blind F1",)),
        ("Allied", Edge.NORTH, "Burg", 1, ("I Prussian Corps",), ("Blind A1",))]
    assert [(c.label, c.commander, c.grade) for c in magdeburg.chips] == [
        ("1", "General Lauriston", "Average +2"), ("2", "General Yorck", "Gifted +3"),
        ("Poor", None, None)]
    assert magdeburg.specials[0].meaning == "the next Poor commander drawn forgoes his move"


def test_the_table_is_nine_squares_with_the_fortress_roads_and_the_elbe(magdeburg):
    t = magdeburg.table
    assert t.size_text == "6 × 6 ft, nine 2-ft squares"
    assert [s.name for s in t.squares] == ["NW", "N", "NE", "W", "centre", "E", "SW", "S", "SE"]
    centre = t.squares[4].terrain
    assert centre[:3] == ("built-up area", "fortress", "river Elbe")
    assert "Elbe bridge on the road to Burg" in centre
    assert [(r.to, r.bearing, r.edge, r.square) for r in t.roads] == [
        ("Wolmirstedt", 0.0, Edge.NORTH, "N"), ("Burg", 42.4, Edge.NORTH, "NE"),
        ("Zerbst", 118.6, Edge.EAST, "SE"), ("Schönebeck", 147.9, Edge.SOUTH, "SE"),
        ("Wanzleben", 242.4, Edge.WEST, "SW"), ("Helmstedt", 286.1, Edge.WEST, "W"),
        ("Neuhaldensleben", 321.6, Edge.NORTH, "NW")]
    # A road due north leaves by the middle of the north edge: (3 ft, 0 ft).
    assert t.roads[0].exit == (3.0, 0.0)
    # The map's Elbe runs past the town's east side, from the south-east corner to the north
    # edge; it is cut at the table's edge, within the six feet.
    assert t.river_from_map
    assert all(0 <= x <= 6 and 0 <= y <= 6 for x, y in t.river_course)
    assert t.river_course[0][0] == 6.0 and t.river_course[-1][1] == 0.0


def _magdeburg_setup():
    """The Magdeburg battle's own BattleSetup, built from a state in memory."""
    ground = Ground(load_scenario())
    day = date(1813, 5, 5)
    state = initial_state(ground.scenario, day)
    state.update("I Prussian Corps", position=Position("Magdeburg", "Burg", 5.0))
    state.battles[1] = Battle(1, day, "Magdeburg", ("5 Corps",), ("I Prussian Corps",))
    return battle_setup(ground, state, 1)


def test_a_river_whose_course_is_not_given_runs_straight_across_its_crossings():
    # The Burg (42.4°) and Zerbst (118.6°) bridges' mean bearing is 80.5°, so the river runs
    # at 170.5° and 350.5° through the centre: out at (3 + 3·tan 9.5°, 6) = (3.50, 6.00).
    sheet = setup_sheet(_magdeburg_setup())
    course = sheet.table.river_course
    assert not sheet.table.river_from_map and course[1] == (3.0, 3.0)
    assert course[0] == pytest.approx((3.502, 6.0), abs=0.001)
    assert course[2] == pytest.approx((2.498, 0.0), abs=0.001)


def test_river_course_on_table_cuts_at_the_edges_and_keeps_the_longest_stretch():
    # Miles east and north of the town; the table is ±3 miles. In at (−3, 1), out at (1, −3)…
    course = river_course_on_table([(-5.0, 3.0), (3.0, -5.0)])
    assert course == ((0.0, 2.0), (4.0, 6.0))
    # …two stretches on the table: the longer one is kept.
    # 6 miles along x = −2, then in again at (3, 2.67) for about a mile: the first is kept.
    two = river_course_on_table([(-2.0, -5.0), (-2.0, 5.0), (10.0, 5.0), (2.5, 2.5),
                                 (2.5, 2.0)])
    assert two == ((1.0, 6.0), (1.0, 0.0))


def helmstedt_sheet():
    """The demo's two army groups at Helmstedt, with 13 Polish Corps (from Königslutter) and
    IV Prussian Corps (from Oebisfelde, bringing 2, 1 and 1 casualties on its 13th and 14th
    brigades and its cavalry) marching to the sound of the guns."""
    ground = Ground(load_scenario())
    day = date(1813, 5, 2)
    french = ("Second French Army HQ", "4 Corps", "5 Corps", "6 Corps")
    allied = ("Prussian Army HQ", "I Prussian Corps", "II Prussian Corps", "III Prussian Corps")
    battle = Battle(1, day, "Helmstedt", french, allied,
                    french_reinforcements=("13 Polish Corps",),
                    allied_reinforcements=("IV Prussian Corps",))
    state = initial_state(ground.scenario, day)
    for n in french:
        state.update(n, position=Position("Helmstedt"))
    for n in allied:
        state.update(n, position=Position("Helmstedt", "Magdeburg", 6.0), marched=15.0)
    state.update("13 Polish Corps", position=Position("Helmstedt", "Königslutter", 4.0))
    state.update("IV Prussian Corps", position=Position("Helmstedt", "Oebisfelde", 9.0),
                 casualties=(("13", 2), ("14", 1), ("cavalry", 1)))
    state.battles[1] = battle
    setup = battle_setup(ground, state, 1, specials=(Special.FRENCH_TACTICAL,))
    return setup_sheet(setup, campaign="The 1813 Campaign",
                       entry_roads=queries._entry_roads(ground, state, setup))


def test_reserves_and_reinforcements_of_two_army_groups():
    """Reinforcements come on at turn 4, in column, from their edges; each reserve commander
    may take his army's cavalry and guns."""
    sheet = helmstedt_sheet()
    late = [(e.side, e.edge, e.road, e.turn, e.corps) for e in sheet.entries if e.turn > 1]
    assert late == [("French", Edge.WEST, "Königslutter", 4, ("13 Polish Corps",)),
                    ("Allied", Edge.NORTH, "Oebisfelde", 4, ("IV Prussian Corps",))]
    polish = next(c for c in sheet.corps if c.key == "13 Polish Corps")
    assert polish.reinforcement and polish.column_of_march
    assert polish.arrival == "west edge by the Königslutter road, turn 4, in column of march"
    french_reserve = sheet.reserves[0]
    assert (french_reserve.commander, french_reserve.chip) == ("General Sébastiani", "6")
    # Every cavalry brigade and battery of the Second French Army's corps at the battle, the
    # Polish corps included: 4 corps × (cavalry + guns).
    assert len(french_reserve.candidates) == 8
    assert ("4 Corps", "11 Cavalry Brigade") in french_reserve.candidates
    assert all(b.arm is not Arm.INFANTRY for c in sheet.corps for b in c.brigades
               if (c.key, b.name) in french_reserve.candidates)
    reserve_corps = next(c for c in sheet.corps if c.reserve and c.side == "French")
    assert reserve_corps.brigades == () and reserve_corps.figures.text.startswith("no figures")
    assert [c.label for c in sheet.specials] == ["Poor", "French tactical"]
    iv = next(c for c in sheet.corps if c.key == "IV Prussian Corps")
    assert [(b.name, b.casualties) for b in iv.brigades][:3] == [
        ("4 Cavalry Brigade", 1), ("13 Infantry Brigade", 2), ("14 Infantry Brigade", 1)]
    jsonschema.validate(sheet_json(sheet), SCHEMA)


def test_the_json_validates_against_its_schema_and_holds_the_brigades(magdeburg):
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    value = json.loads(json.dumps(sheet_json(magdeburg)))
    jsonschema.validate(value, SCHEMA)
    prussians = next(c for c in value["corps"] if c["key"] == "I Prussian Corps")
    assert [(b["name"], b["rout_point"], b["casualties"]) for b in prussians["brigades"]] == \
        [(n, r, c) for n, *_, r, c in YORCK]
    assert prussians["edge"] == "north" and prussians["road"] == "Burg"
    assert len(value["table"]["squares"]) == 9
    bad = json.loads(json.dumps(value))
    bad["corps"][0]["brigades"][0]["rout_point"] = 0
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, SCHEMA)


def test_export_setup_json_on_the_command_line_and_no_overwrite(campaign_files, tmp_path,
                                                                 capsys, monkeypatch):
    from campaign1813.campaign.export import paper

    monkeypatch.setattr(paper, "_installed", None)  # as the bare command line starts
    f = str(campaign_files["scheduled"])
    out = tmp_path / "setup.json"
    assert bare_main(["export", "setup", f, "--battle", "1", "--json", str(out)]) == 0
    value = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(value, SCHEMA)
    assert value["title"] == "The battle of Magdeburg (5 May 1813)"
    before = out.read_bytes()
    out.write_text("mine", encoding="utf-8")
    assert bare_main(["export", "setup", f, "--battle", "1", "--json", str(out)]) == 1
    assert "exists; use --force" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "mine"
    assert bare_main(["export", "setup", f, "--battle", "1", "--json", str(out),
                      "--force"]) == 0
    assert out.read_bytes() == before
    assert bare_main(["export", "setup", f, "--battle", "9", "--json",
                      str(tmp_path / "x.json")]) == 1
    assert "there is no battle number 9" in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()
    # The bare command line has no painter: a PDF is refused, nothing written.
    assert bare_main(["export", "setup", f, "--battle", "1", "--pdf",
                      str(tmp_path / "x.pdf")]) == 1
    assert "printing support" in capsys.readouterr().err
    assert not (tmp_path / "x.pdf").exists()


def test_a_battle_being_fought_shows_the_setup_on_the_table(campaign_files, tmp_path):
    copy = tmp_path / "open.c1813"
    shutil.copy(campaign_files["scheduled"], copy)
    with open_campaign(copy) as doc:
        services.open_battle(doc, 1, seed=7, specials=["Allied gifted"])
        sheet = queries.battle_setup_view(doc, 1)
    assert sheet.seed == 7
    assert [c.label for c in sheet.specials] == ["Poor", "Allied gifted"]


def test_a_painter_that_draws_no_setup_sheets_is_refused(monkeypatch):
    from campaign1813.campaign.export import paper
    from campaign1813.campaign.export.setup_sheet import sheet_paper

    class OnlyDocuments:
        def pdf(self, document, paper_size):
            return b"%PDF"

    monkeypatch.setattr(paper, "_installed", OnlyDocuments())
    with pytest.raises(paper.NoPaperError, match="draws no battle setup sheets"):
        sheet_paper()


def test_the_json_and_the_diary_in_markdown_need_no_qt(campaign_files, tmp_path):
    import subprocess
    import sys

    probe = ("import sys\nfrom campaign1813.ui.console import main\ncode = main(sys.argv[1:])\n"
             "print('PySide6' in sys.modules, code)\n")
    f = str(campaign_files["scheduled"])
    for argv in (["export", "setup", f, "--battle", "1", "--json", str(tmp_path / "s.json")],
                 ["export", "diary", f, "--md", str(tmp_path / "d.md")]):
        out = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True,
                             text=True, check=True)
        assert out.stdout.splitlines()[-1] == "False 0"


def _magdeburg_brigades(path):
    """The campaign's brigades of I Prussian Corps at Magdeburg, with the casualties they
    bring (as the 1813 rules count them)."""
    from campaign1813.campaign.store import fights

    with open_campaign(path) as doc, doc.reading() as con:
        setup, _steps = fights.read(con, 1)
    return setup.corps_brigades("I Prussian Corps")


@pytest.fixture(scope="module", name="other_rulesets")
def other_rulesets_fixture(campaign_files, tmp_path_factory):
    """The battle of Magdeburg on the table under seed 002's rules and, in a copy, 004's."""
    out = {}
    for ruleset in ("002", "004"):
        path = tmp_path_factory.mktemp(f"r{ruleset}") / "other.c1813"
        shutil.copy(campaign_files["scheduled"], path)
        with open_campaign(path) as doc:
            services.open_battle(doc, 1, ruleset=ruleset)
        out[ruleset] = path
    return out


def test_a_seed_002_sheet_tallies_hits_and_has_no_chips(other_rulesets, tmp_path, capsys):
    """Seed 002: a brigade is a unit that takes hits and is eliminated with the first over its
    type's limit (data/rulesets/002/units.toml: line infantry 12, elite 18): 13 or 19 boxes.
    Casualties brought in are crossed as hits, 2 for each (HITS_PER_CASUALTY): I Prussian
    Corps' forced march. No chips, no reserve to allocate."""
    out = tmp_path / "setup.json"
    assert bare_main(["export", "setup", str(other_rulesets["002"]), "--battle", "1",
                      "--json", str(out)]) == 0
    value = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(value, SCHEMA)
    assert value["ruleset"] == "002" and value["chips"] == [] and value["reserves"] == []
    assert not any(c["reserve"] for c in value["corps"])
    french = next(c for c in value["corps"] if c["key"] == "5 Corps")
    rows = [(b["name"], b["unit"], b["rout_point"], b["casualties"], b["tally"])
            for b in french["brigades"]]
    assert rows[1] == ("17 Infantry Brigade", "elite", 19, 0, "hits; eliminated over 18")
    assert rows[3] == ("19 Infantry Brigade", "infantry", 13, 0, "hits; eliminated over 12")
    prussians = next(c for c in value["corps"] if c["key"] == "I Prussian Corps")
    marched = {b["name"]: b["casualties"] for b in prussians["brigades"]}
    brought = {b.name: b.casualties for b in _magdeburg_brigades(other_rulesets["002"])}
    assert any(brought.values()) and marched == {name: 2 * n for name, n in brought.items()}


def test_a_seed_004_sheet_tallies_steps_and_its_pdf_says_so(other_rulesets, tmp_path, qapp):
    """Seed 004: a brigade is a unit of four 25 % steps (the fourth lost, it is gone); its
    kind and quality are the conversion's ("light foot, elite" for class A skirmish A
    infantry). The PDF has no chips in the bag but the ruleset's own sequence."""
    from pypdf import PdfReader

    from campaign1813.ui.paper import QtPaper

    with open_campaign(other_rulesets["004"]) as doc:
        sheet = queries.battle_setup_view(doc, 1)
    prussians = next(c for c in sheet.corps if c.key == "I Prussian Corps")
    assert [(b.name, b.unit, b.rout_point, b.casualties, b.tally_note)
            for b in prussians.brigades][:2] == [
        ("1 Cavalry Brigade", "heavy horse (cuirassiers), elite", 4, 0,
         "25 % steps; gone at 0 %"),
        ("1 Infantry Brigade", "light foot, elite", 4, 0, "25 % steps; gone at 0 %")]
    assert sheet.chips == () and sheet.reserves == ()
    pdf = tmp_path / "setup.pdf"
    pdf.write_bytes(QtPaper().setup_sheet_pdf(sheet, "a4"))
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(pdf).pages)
    assert "Sequence of play" in text and "Chips in the bag" not in text
    assert "light foot, elite" in text and "Tally (⊠ brought in; red: out)" in text
    # the ruleset's own turn, losses and generals, in place of the chips and the 1813 figures
    assert "Each turn" in text and "3. Melees: every charge made" in text
    assert "Losses and victory" in text and "The French have lost when 3 of their 7" in text
    assert "General Yorck: the Allied general, a unit" in text and "Units: 6" in text
    assert "Figures: 32 infantry" not in text and "Gifted +3" not in text
    assert "From the campaign's corps" in text and "(cuirassiers when rated A)" in text


def test_a_seed_002_sheet_shows_its_own_sequence_figures_and_commanders(other_rulesets):
    """Seed 002's sheet lists its own turn (Sequence of play: movement, the four shooting
    steps, charges, rally, A before B) in place of the chip bag; a unit is lost over 12 hits
    (18 for elite); an army of 6 units loses with 3 eliminated (half, rounded up); with no
    CinC the best corps commander is each side's General (convert.py); a unit is one base."""
    with open_campaign(other_rulesets["002"]) as doc:
        sheet = queries.battle_setup_view(doc, 1)
    assert sheet.rules is not None
    assert sheet.rules.sequence[1:] == (
        "1. Movement: side A, then side B.",
        "2. Shooting in steps, A then B in each: artillery, light infantry, stationary "
        "infantry, infantry that moved.",
        "3. Cavalry charges: side A, then side B.", "4. Rally: side A, then side B.")
    assert "Infantry (line infantry) over 12" in sheet.rules.notes[0]
    assert "Elite infantry (Guards or Grenadiers) over 18" in sheet.rules.notes[0]
    assert sheet.rules.notes[1:] == ("The French lose when 3 of their 6 units are eliminated.",
                                     "The Allied lose when 3 of their 6 units are eliminated.")
    assert sheet.rules.leaders == ("General Lauriston: the French General (not a unit)",
                                   "General Yorck: the Allied General (not a unit)")
    assert {b.figures for c in sheet.corps for b in c.brigades} == {"one base 4 × 3 in"}
    value = sheet_json(sheet)
    jsonschema.validate(value, SCHEMA)
    assert value["rules"]["leaders"] == list(sheet.rules.leaders)
    assert value["rules"]["mapping"][0].startswith("Each brigade or battery is one unit: class "
                                                   "A infantry elite")
    assert "Casualties brought in are 2 hits each." in sheet.rules.mapping[1]


def test_a_seed_004_sheet_shows_its_own_sequence_figures_and_generals(other_rulesets):
    """Seed 004's sheet: its TURN SEQUENCE (first move, fire, melee), four 25 % steps a
    unit, an army of 6 units and its general lost when 3 of 7 are left (below half), each
    army's general a unit, and the bases of each kind (foot two bases in line)."""
    with open_campaign(other_rulesets["004"]) as doc:
        sheet = queries.battle_setup_view(doc, 1)
    assert sheet.rules is not None and len(sheet.rules.sequence) == 3
    assert sheet.rules.sequence[0].startswith("1. Dice for the first move")
    assert sheet.rules.sequence[2].startswith("3. Melees: every charge made")
    assert sheet.rules.notes == (
        "Each unit has 4 steps of 25 %; it is gone when the last is lost. An officer figure "
        "behind a unit shows the steps lost.",
        "The French have lost when 3 of their 7 units (the general counted) are left.",
        "The Allied have lost when 3 of their 7 units (the general counted) are left.")
    assert sheet.rules.leaders[0].startswith("General Lauriston: the French general, a unit")
    french = next(c for c in sheet.corps if c.key == "5 Corps")
    assert [b.figures for b in french.brigades] == [
        "6 troopers", "2 loose bases", "2 loose bases", "2 bases in line", "2 bases in line",
        "a gun and crew"]
    assert sheet_json(sheet)["rules"]["sequence"] == list(sheet.rules.sequence)


def test_the_1813_sheet_has_no_rules_of_its_own(magdeburg):
    assert magdeburg.rules is None and sheet_json(magdeburg)["rules"] is None


def test_a_units_ruleset_that_gives_no_sheet_figures_has_none():
    """A ruleset of units of its own that says nothing for the setup sheet gives an empty
    sequence, figures and commanders: its sheet shows its units' tallies only."""
    assert UnitsEngine("toy").sheet(_magdeburg_setup()) == RulesetSheet((), (), ())
