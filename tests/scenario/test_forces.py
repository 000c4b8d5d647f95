"""The orders of battle, objectives and settings of the 1813 scenario, and their validation."""

from collections import Counter
from datetime import date

import pytest
from msgspec.structs import replace

from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.scenario.errors import ScenarioError
from campaign1813.campaign.scenario.forces import (
    army_named,
    load_armies,
    load_objectives,
    load_settings,
)
from campaign1813.campaign.scenario.loader import load_scenario
from campaign1813.campaign.scenario.types import (
    CavalryType,
    Grade,
    MarchRates,
    Rating,
    Settings,
    Side,
)
from campaign1813.data import scenario_dir
from campaign1813.maps.types import Theatre

# Where every command starts: army -> (HQ, {corps: town}). The scenario's brief, not the data.
STARTS = {
    "Second French Army": ("Hamburg", {"4 Corps": "Hamburg", "5 Corps": "Magdeburg",
                                       "6 Corps": "Hanover", "13 Polish Corps": "Brunswick"}),
    "Prussian Army": ("Berlin", {"I Prussian Corps": "Berlin", "II Prussian Corps": "Potsdam",
                                 "III Prussian Corps": "Spandau",
                                 "IV Prussian Corps": "Köpenick"}),
    "First French Army": ("Erfurt", {"1 Corps": "Fulda", "2 Corps": "Gera", "3 Corps": "Erfurt",
                                     "14 Westphalian Corps": "Halle"}),
    "Russian Army": ("Dresden", {"Russian Guard Corps": "Dresden", "I Russian Corps": "Dresden",
                                 "II Russian Corps": "Dresden", "III Russian Corps": "Dresden"}),
    "Third French Army": ("Munich", {"9 Corps": "Passau", "10 Corps": "Munich",
                                     "11 Italian Corps": "Salzburg", "12 Corps": "Ratisbon"}),
    "Austrian Army": ("Linz", {"I Austrian Corps": "Linz", "II Austrian Corps": "Steyr",
                               "III Austrian Corps": "Amstetten", "IV Austrian Corps": "Vienna"}),
    "Fourth French Army": ("Barcelona", {"7 Corps": "Barcelona", "8 Corps": "Tarragona",
                                         "Vistula Polish Corps": "Gerona",
                                         "15 Corps": "Figueras"}),
    "Spanish Army": ("Lerida", {"1 Spanish Corps": "Tortosa", "2 Spanish Corps": "Mora",
                                "3 Spanish Corps": "Lerida", "4 Spanish Corps": "Olot"}),
    "Fifth French Army": ("Burgos", {"16 Corps": "Burgos", "17 Corps": "Valladolid",
                                     "18 Corps": "Madrid", "19 Italian Corps": "Santander"}),
    "Anglo-Portuguese Army": ("Salamanca", {"1 British Corps": "Salamanca",
                                            "2 British Corps": "Avila",
                                            "3 British Corps": "Medina del Campo",
                                            "4 Portuguese Corps": "Miranda do Douro"}),
}
# The starting towns under their canonical names, plus a few of the aliases a map gives them.
TOWNS = {town: town for hq, corps in STARTS.values() for town in (hq, *corps.values())}
TOWNS |= {"Hannover": "Hanover", "Regensburg": "Ratisbon", "Braunschweig": "Brunswick",
          "Leipzig": "Leipzig", "Wittenberg": "Wittenberg", "Torgau": "Torgau",
          "Vitoria": "Vitoria"}


def shipped_files() -> dict[str, str]:
    folder = scenario_dir("1813")
    return {name: (folder / name).read_text(encoding="utf-8")
            for name in ("armies.toml", "objectives.toml", "settings.toml")}


@pytest.fixture(scope="module")
def armies():
    return load_armies(shipped_files(), TOWNS)


def by_name(armies, name):
    return next(a for a in armies if a.name == name)


# --- the shipped orders of battle -------------------------------------------------------------

# Seed 000, "Organisation of Armies": Second French Army - Marshal Davout, brigade by brigade:
# corps -> (grade, [(number, class, firepower, skirmish)], (cavalry number, class, type),
#           (artillery class, calibre)).
DAVOUT = {
    "4 Corps": ("Gifted", [(13, "A", "B", "A"), (14, "B", "B", "A"), (15, "B", "C", "B"),
                           (16, "C", "C", "B")], (11, "A", "light"), ("B", 12)),
    "5 Corps": ("Average", [(17, "A", "B", "A"), (18, "B", "B", "A"), (19, "B", "C", "B"),
                            (20, "C", "C", "B")], (3, "B", "medium"), ("B", 9)),
    "6 Corps": ("Average", [(21, "A", "B", "A"), (22, "B", "B", "A"), (23, "B", "C", "B"),
                            (24, "C", "C", "B")], (5, "C", "heavy"), ("B", 9)),
    "13 Polish Corps": ("Poor", [(1, "A", "A", "A"), (2, "B", "B", "B"), (3, "B", "B", "B"),
                                 (4, "C", "C", "C")], (13, "B", "light"), ("C", 9)),
}


def test_second_french_army_is_the_seed_table(armies):
    """Seed 000's order of battle: CinC Average +2, the four corps in order, reserve Average."""
    davout = by_name(armies, "Second French Army")
    assert davout.cinc.name == "Marshal Davout"
    assert davout.cinc.grade is Grade.AVERAGE and davout.cinc.grade.bonus == 2
    assert davout.reserve.grade is Grade.AVERAGE
    assert (davout.side, davout.theatre) == (Side.FRENCH, Theatre.NORTHERN_GERMANY)
    assert [c.name for c in davout.corps] == list(DAVOUT)
    for corps in davout.corps:
        grade, infantry, cavalry, artillery = DAVOUT[corps.name]
        assert corps.commander.grade is Grade(grade), corps.name
        assert [(b.number, b.klass, b.firepower, b.skirmish) for b in corps.infantry] == [
            (n, Rating(c), Rating(f), Rating(s)) for n, c, f, s in infantry], corps.name
        assert (corps.cavalry.number, corps.cavalry.klass, corps.cavalry.type,
                corps.cavalry.lancers) == (cavalry[0], Rating(cavalry[1]),
                                           CavalryType(cavalry[2]), False), corps.name
        assert (corps.artillery.klass, corps.artillery.calibre, corps.artillery.horse) == (
            Rating(artillery[0]), artillery[1], False), corps.name
    assert [c.nationality for c in davout.corps] == ["French", "French", "French", "Polish"]
    assert [c.artillery.calibre_band for c in davout.corps] == ["12", "8-9", "8-9", "8-9"]


def test_ten_army_groups_forty_corps_and_their_brigades(armies):
    """Ten army groups of four corps; each corps 4 infantry, 1 cavalry brigade, 1 battery."""
    corps = [c for a in armies for c in a.corps]
    assert len(armies) == 10
    assert len(corps) == 40
    assert sum(len(c.infantry) for c in corps) == 160
    assert len([c.cavalry for c in corps]) == 40
    assert len([c.artillery for c in corps]) == 40
    assert all(len(a.corps) == 4 for a in armies)
    assert all(c.army == a.name for a in armies for c in a.corps)


def test_each_theatre_pairs_one_french_and_one_allied_army(armies):
    pairs = Counter((a.theatre, a.side) for a in armies)
    assert set(pairs) == {(t, s) for t in Theatre if t is not Theatre.FRANCE for s in Side}
    assert set(pairs.values()) == {1}


def test_every_command_starts_where_the_scenario_says(armies):
    assert {a.name for a in armies} == set(STARTS)
    for army in armies:
        hq, corps = STARTS[army.name]
        assert army.hq == hq, army.name
        assert {c.name: c.start for c in army.corps} == corps, army.name


def test_prussian_corps_are_graded_as_in_the_demo_game(armies):
    """Demo game: I Corps Gifted, II and III Average, IV Poor."""
    prussians = by_name(armies, "Prussian Army")
    assert [(c.name, c.commander.grade) for c in prussians.corps] == [
        ("I Prussian Corps", Grade.GIFTED), ("II Prussian Corps", Grade.AVERAGE),
        ("III Prussian Corps", Grade.AVERAGE), ("IV Prussian Corps", Grade.POOR)]
    assert {c.nationality for c in prussians.corps} == {"Prussian"}


def test_names_are_unique_where_the_rules_need_them(armies):
    corps = [c.name for a in armies for c in a.corps]
    assert len(set(corps)) == 40
    for army in armies:
        infantry = [b.number for c in army.corps for b in c.infantry]
        cavalry = [c.cavalry.number for c in army.corps]
        assert len(set(infantry)) == 16 and len(set(cavalry)) == 4, army.name


def test_nationalities_that_carry_rules(armies):
    """British pursuit and Spanish commanders depend on a corps' nationality."""
    nations = {a.name: sorted({c.nationality for c in a.corps}) for a in armies}
    assert nations["Anglo-Portuguese Army"] == ["British", "Portuguese"]
    assert nations["Spanish Army"] == ["Spanish"]
    assert nations["First French Army"] == ["French", "Westphalian"]
    assert nations["Fourth French Army"] == ["French", "Polish"]
    assert nations["Fifth French Army"] == ["French", "Italian"]
    by_corps = {c.name: c.nationality for a in armies for c in a.corps}
    assert by_corps["19 Italian Corps"] == "Italian"
    assert by_corps["Vistula Polish Corps"] == "Polish"


def test_grading_policy_of_the_nine_plausible_armies(armies):
    """docs/scenario-forces.md: one Gifted corps commander at most per army, one Poor at most
    (two in the Spanish army); Guard and grenadier brigades Class A; Landwehr and militia C."""
    for army in armies:
        grades = Counter(c.commander.grade for c in army.corps)
        assert grades[Grade.GIFTED] <= 1, army.name
        assert grades[Grade.POOR] <= (2 if army.name == "Spanish Army" else 1), army.name
    brigades = [b for a in armies for c in a.corps for b in c.infantry]
    elite = [b for b in brigades if "Guard" in b.name or "Grenadiers" in b.name]
    levies = [b for b in brigades if b.name.endswith(("Landwehr", "Militia", "Opolchenie",
                                                      "Somatenes"))]
    assert len(elite) == 13 and {b.klass for b in elite} == {Rating.A}
    assert len(levies) == 11 and {b.klass for b in levies} == {Rating.C}
    assert {b.firepower for b in levies} == {Rating.C}


def test_army_named_ignores_case_and_accents(armies):
    assert army_named(armies, "second french army").name == "Second French Army"
    assert army_named(armies, "ANGLO-PORTUGUESE ARMY").name == "Anglo-Portuguese Army"
    with pytest.raises(CampaignError) as err:
        army_named(armies, "Army of Bohemia")
    assert str(err.value).startswith(
        "no army group called 'Army of Bohemia' (known: Second French Army, Prussian Army, ")


def test_army_groups_and_theatres_are_folded_as_towns_are(armies):
    """One folding for every name: umlauts with an e, spaces, case (as the map's towns)."""
    blucher = replace(armies[1], name="Blücher's Army")
    assert army_named([*armies, blucher], "BLUECHER'S  army") is blucher
    assert army_named([*armies, blucher], " blucher's army ") is blucher


# --- validation of armies.toml ----------------------------------------------------------------

def corps_toml(name="4 Corps", *, nationality="French", grade="Gifted", start="Hamburg",
               numbers=(13, 14, 15, 16), firepower="B", cavalry="11", cavalry_type="light",
               calibre="12", extra=""):
    infantry = "\n".join(
        f'  {{ number = {n}, class = "A", firepower = "{firepower if i == 2 else "B"}", '
        f'skirmish = "A" }},' for i, n in enumerate(numbers))
    return f"""
[[army.corps]]
name = "{name}"
nationality = "{nationality}"
commander = {{ name = "General Vandamme", grade = "{grade}" }}
start = "{start}"
infantry = [
{infantry}
]
cavalry = {{ number = {cavalry}, class = "A", type = "{cavalry_type}" }}
artillery = {{ class = "B", calibre = {calibre} }}
{extra}"""


def army_toml(*corps, name="Second French Army", side="French", hq="Hamburg", extra=""):
    body = "".join(corps) if corps else corps_toml()
    return f"""
[[army]]
name = "{name}"
side = "{side}"
theatre = "Northern Germany"
hq = "{hq}"
cinc = {{ name = "Marshal Davout", grade = "Average" }}
reserve = {{ name = "General Sébastiani", grade = "Average" }}
{extra}{body}"""


def refused(*armies) -> str:
    with pytest.raises(ScenarioError) as err:
        load_armies({"armies.toml": "".join(armies)}, TOWNS)
    return str(err.value)


def test_a_small_good_file_loads_and_aliases_become_canonical():
    loaded = load_armies({"armies.toml": army_toml(corps_toml(start="Hannover"))}, TOWNS)
    (army,) = loaded
    (corps,) = army.corps
    assert corps.start == "Hanover"
    assert corps.commander.grade is Grade.GIFTED
    assert [b.number for b in corps.infantry] == [13, 14, 15, 16]


def test_firepower_not_a_b_or_c_is_refused():
    assert refused(army_toml(corps_toml(firepower="D"))) == (
        "armies.toml: 4 Corps (Second French Army), brigade 15: firepower 'D' is not A, B or C")


def test_commander_grade_not_in_the_list_is_refused():
    assert refused(army_toml(corps_toml(grade="Great"))) == (
        "armies.toml: 4 Corps (Second French Army), commander: "
        "grade 'Great' is not Gifted, Average or Poor")


def test_cavalry_type_not_in_the_list_is_refused():
    assert refused(army_toml(corps_toml(cavalry_type="dragoons"))) == (
        "armies.toml: 4 Corps (Second French Army), cavalry brigade 11: "
        "type 'dragoons' is not heavy, medium or light")


def test_calibre_not_fielded_is_refused():
    assert refused(army_toml(corps_toml(calibre="7"))) == (
        "armies.toml: 4 Corps (Second French Army), artillery: "
        "calibre 7 is not 3, 4, 6, 8, 9 or 12 pounds")


def test_unknown_starting_town_and_hq_are_refused():
    assert refused(army_toml(corps_toml(start="Hamburgh"), hq="Altona")) == (
        "armies.toml: Second French Army: HQ town 'Altona' is not on the map\n"
        "armies.toml: 4 Corps (Second French Army): starting town 'Hamburgh' is not on the map")


def test_side_not_french_or_allied_is_refused():
    assert refused(army_toml(side="Neutral")) == (
        "armies.toml: Second French Army: side 'Neutral' is not French or Allied")


def test_duplicate_corps_names_across_the_campaign_are_refused():
    assert refused(army_toml(), army_toml(name="Third French Army", hq="Munich")) == (
        "armies.toml: 4 Corps (Third French Army): "
        "corps name '4 Corps' is already used in Second French Army")


def test_duplicate_army_names_are_refused():
    assert refused(army_toml(), army_toml(corps_toml("5 Corps"))) == (
        "armies.toml: Second French Army: army name is already used by army 1")


def test_duplicate_brigade_numbers_within_an_army_are_refused():
    message = refused(army_toml(corps_toml(), corps_toml("5 Corps", numbers=(17, 18, 13, 20))))
    assert message == (
        "armies.toml: 5 Corps (Second French Army), brigade 13: "
        "number 13 is already used in 4 Corps\n"
        "armies.toml: 5 Corps (Second French Army), cavalry brigade 11: "
        "number 11 is already used in 4 Corps")


def test_duplicate_brigade_numbers_within_one_corps_are_refused():
    assert refused(army_toml(corps_toml(numbers=(13, 14, 13, 16)))) == (
        "armies.toml: 4 Corps (Second French Army), brigade 13: "
        "number 13 is already used in 4 Corps")


def test_the_same_brigade_numbers_in_two_armies_are_fine():
    loaded = load_armies({"armies.toml": army_toml() + army_toml(
        corps_toml("I Prussian Corps", nationality="Prussian"), name="Prussian Army",
        side="Allied", hq="Berlin")}, TOWNS)
    assert [a.corps[0].infantry[0].number for a in loaded] == [13, 13]


def test_a_corps_without_four_infantry_brigades_is_refused():
    assert refused(army_toml(corps_toml(numbers=(13, 14, 15)))) == (
        "armies.toml: 4 Corps (Second French Army): has 3 infantry brigades; a corps has 4")


def test_unknown_nationality_is_refused():
    assert refused(army_toml(corps_toml(nationality="Bavarian"))) == (
        "armies.toml: 4 Corps (Second French Army): nationality 'Bavarian' is not French, "
        "Polish, Westphalian, Italian, Prussian, Russian, Austrian, Spanish, British or "
        "Portuguese")


def test_a_misspelt_key_is_refused():
    assert refused(army_toml(corps_toml(extra='comander = "x"\n'))) == (
        "armies.toml: 4 Corps (Second French Army): unknown key 'comander' (expected name, "
        "nationality, commander, start, infantry, cavalry or artillery)")


def test_a_misspelt_brigade_key_is_refused():
    text = army_toml().replace('firepower = "B", skirmish = "A" },\n  { number = 16',
                               'firepower = "B", skirmish = "A" },\n  { nmber = 16')
    assert refused(text) == (
        "armies.toml: 4 Corps (Second French Army), infantry brigade 4 in the list: "
        "unknown key 'nmber' (expected number, class, firepower, skirmish or name)\n"
        "armies.toml: 4 Corps (Second French Army), infantry brigade 4 in the list: "
        "missing 'number'")


def test_missing_keys_empty_names_and_bad_flags_are_refused():
    text = army_toml(corps_toml().replace('start = "Hamburg"\n', "")
                     .replace('name = "General Vandamme"', 'name = ""')
                     .replace('type = "light" }', 'type = "light", lancers = "yes" }'))
    assert refused(text).splitlines() == [
        "armies.toml: 4 Corps (Second French Army): missing 'start'",
        "armies.toml: 4 Corps (Second French Army), commander: name is empty",
        "armies.toml: 4 Corps (Second French Army), cavalry brigade 11: "
        "lancers 'yes' is not true or false",
    ]


def test_a_corps_without_a_name_is_named_by_its_place():
    assert refused(army_toml(corps_toml().replace('name = "4 Corps"\n', ""))) == (
        "armies.toml: corps 1 (Second French Army): missing 'name'")


def test_every_problem_is_reported_at_once_one_per_line():
    message = refused(army_toml(corps_toml(firepower="D", grade="Great", start="Nowhere")))
    assert message.splitlines() == [
        "armies.toml: 4 Corps (Second French Army), commander: "
        "grade 'Great' is not Gifted, Average or Poor",
        "armies.toml: 4 Corps (Second French Army): starting town 'Nowhere' is not on the map",
        "armies.toml: 4 Corps (Second French Army), brigade 15: "
        "firepower 'D' is not A, B or C",
    ]


def test_a_missing_or_unreadable_file_is_refused():
    with pytest.raises(ScenarioError, match=r"^armies.toml: the file is missing$"):
        load_armies({}, TOWNS)
    with pytest.raises(ScenarioError, match=r"^armies.toml: not valid TOML \(Expected"):
        load_armies({"armies.toml": "[[army]\n"}, TOWNS)


# --- objectives -------------------------------------------------------------------------------

def test_shipped_objectives_cover_every_theatre_and_side():
    objectives = load_objectives(shipped_files(), TOWNS)
    assert {(o.theatre, o.side) for o in objectives} == {
        (t, s) for t in Theatre if t is not Theatre.FRANCE for s in Side}
    north = [o for o in objectives if o.theatre is Theatre.NORTHERN_GERMANY]
    assert [(o.side, o.towns) for o in north] == [
        (Side.FRENCH, ("Magdeburg", "Wittenberg")), (Side.FRENCH, ("Hanover", "Hamburg")),
        (Side.ALLIED, ("Magdeburg",)), (Side.ALLIED, ("Hanover",))]


def test_the_shipped_scenario_puts_commands_and_objectives_in_their_own_theatre():
    """Against the real road map: every HQ, starting town and objective town is on it and
    lies in its army's or objective's theatre."""
    scenario = load_scenario()
    theatre = {t.name: t.theatre for t in scenario.map.towns}
    for army in scenario.armies:
        assert theatre[army.hq] is army.theatre, army.name
        assert {theatre[c.start] for c in army.corps} == {army.theatre}, army.name
    for objective in scenario.objectives:
        assert {theatre[t] for t in objective.towns} == {objective.theatre}, objective
    assert len(scenario.objectives) == 12


def test_objective_towns_are_made_canonical_and_checked():
    text = """
[[objective]]
theatre = "Northern Germany"
side = "Allied"
description = "Take Hanover."
towns = ["Hannover"]

[[objective]]
theatre = "Northern Germany"
side = "Prussian"
description = "Take Hamelin."
towns = ["Hamelin"]
"""
    with pytest.raises(ScenarioError) as err:
        load_objectives({"objectives.toml": text}, TOWNS)
    assert str(err.value) == (
        "objectives.toml: objective 2: side 'Prussian' is not French or Allied\n"
        "objectives.toml: objective 2: town 'Hamelin' is not on the map")
    (good,) = load_objectives({"objectives.toml": text.split("\n\n[[objective]]")[0]}, TOWNS)
    assert good.towns == ("Hanover",)


def test_a_scenario_without_objectives_has_none():
    assert load_objectives({}, TOWNS) == ()


# --- settings ---------------------------------------------------------------------------------

def test_shipped_settings_are_the_design_defaults():
    """DESIGN 3.3: foot 15/10/5, mounted 30/15/5, contact and reinforce 10 miles."""
    settings = load_settings(shipped_files())
    assert settings == Settings(
        name="The 1813 Campaign", start_date=date(1813, 5, 1), contact_miles=10,
        reinforce_miles=10, foot_rate=MarchRates(15, 10, 5), mounted_rate=MarchRates(30, 15, 5),
        forced_march_extra_miles=5,
        forced_march_cost="one casualty on each infantry brigade, carried to the next battle",
        carry_casualties_forward=False, messenger_orders=False, messenger_miles=60,
        steps_per_day=12)


def test_settings_left_out_keep_their_defaults():
    settings = load_settings({"settings.toml": "[march.foot]\nroad = 12\n"})
    assert settings.foot_rate == MarchRates(12, 10, 5)
    assert settings.contact_miles == 10 and settings.steps_per_day == 12


def test_bad_settings_are_refused_one_per_line():
    text = """
[campaign]
start_date = "May Day"
[distances]
contact_miles = -1
[march.mounted]
road = 0
[options]
steps_per_day = 0
messengers = true
"""
    with pytest.raises(ScenarioError) as err:
        load_settings({"settings.toml": text})
    assert str(err.value).splitlines() == [
        "settings.toml: options: unknown key 'messengers' (expected carry_casualties_forward, "
        "messenger_orders, messenger_miles, steps_per_day, fog, recce_miles, release, supply "
        "or supply_attrition)",
        "settings.toml: campaign: start_date 'May Day' is not a date like 1813-05-01",
        "settings.toml: distances: contact_miles -1 is not a number of miles (0 or more)",
        "settings.toml: march.mounted: road 0 is not a number of miles (more than 0)",
        "settings.toml: options: steps_per_day 0 is not a whole number from 1 up",
    ]
