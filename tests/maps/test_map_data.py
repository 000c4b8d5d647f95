"""The shipped road map of the 1813 campaign: towns, roads and rivers as the TOML holds them."""

import statistics
import tomllib
from pathlib import Path

import networkx as nx
import pytest

from campaign1813.maps.geometry import great_circle_miles
from campaign1813.maps.tools import road_miles
from campaign1813.maps.tools.map_toml import MAP_DIR, read_towns
from campaign1813.maps.types import Crossing, RoadClass, Theatre, TownKind

GERMANY = {"Northern Germany", "Central Germany", "Southern Germany and Austria"}
SPAIN = {"Eastern Spain", "Western Spain"}

REQUIRED = """Hamburg Magdeburg Hanover Brunswick Helmstedt Wolfsburg Fallersleben Calbe Colbitz
Gröningen Seehausen Parey Dessau Berlin Potsdam Spandau Köpenick Wittenberg Torgau Küstrin Stettin
Glogau Lüneburg Celle Stendal Burg Fulda Gera Erfurt Halle Leipzig Dresden Weimar Jena Naumburg
Passau Munich Salzburg Ratisbon Linz Steyr Amstetten Vienna Enns Barcelona Tarragona Gerona
Figueras Tortosa Mora Lerida Olot Burgos Valladolid Madrid Santander Salamanca Avila Zamora
Tordesillas Toro Pamplona Vitoria Bayonne Perpignan Mainz Metz Strasbourg Paris Lyon
Bordeaux""".split() + ["Medina del Campo", "Miranda do Douro", "San Sebastián"]

FORTRESSES_OF_1813 = ["Magdeburg", "Wittenberg", "Torgau", "Hamburg", "Erfurt", "Küstrin",
                      "Stettin", "Glogau", "Pamplona", "San Sebastián", "Tarragona", "Mainz",
                      "Strasbourg", "Metz"]


@pytest.fixture(scope="module")
def towns() -> dict[str, dict]:
    data = tomllib.loads((MAP_DIR / "towns.toml").read_text(encoding="utf-8"))
    return {t["name"]: t for t in data["town"]}


@pytest.fixture(scope="module")
def roads() -> list[dict]:
    return tomllib.loads((MAP_DIR / "roads.toml").read_text(encoding="utf-8"))["road"]


@pytest.fixture(scope="module")
def rivers() -> dict[str, list]:
    data = tomllib.loads((MAP_DIR / "rivers.toml").read_text(encoding="utf-8"))
    return {r["name"]: r["points"] for r in data["river"]}


@pytest.fixture(scope="module")
def graph(towns, roads) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(towns)
    for r in roads:
        g.add_edge(r["from"], r["to"], miles=r["miles"])
    return g


def _gc(towns, a, b) -> float:
    return great_circle_miles(towns[a]["lat"], towns[a]["lon"], towns[b]["lat"], towns[b]["lon"])


def test_at_least_150_towns(towns):
    assert len(towns) >= 150


def test_towns_per_theatre(towns):
    by = [t["theatre"] for t in towns.values()]
    assert sum(th in GERMANY for th in by) >= 80
    assert sum(th in SPAIN for th in by) >= 45
    assert by.count("France") >= 25
    assert {th.value for th in Theatre} == set(by)


def test_the_required_towns_are_there_by_their_canonical_names(towns):
    missing = [name for name in REQUIRED if name not in towns]
    assert missing == []


def test_period_names_carry_their_other_spellings(towns):
    expected = {"Hanover": "Hannover", "Brunswick": "Braunschweig", "Ratisbon": "Regensburg",
                "Munich": "München", "Lerida": "Lleida", "Gerona": "Girona", "Vienna": "Wien",
                "Cologne": "Köln"}
    for name, alias in expected.items():
        assert alias in towns[name].get("aliases", []), name


def test_no_name_or_alias_is_used_twice(towns):
    labels = [n for t in towns.values() for n in (t["name"], *t.get("aliases", []))]
    assert len(labels) == len(set(labels))


def test_the_fortresses_of_1813_are_marked(towns):
    for name in FORTRESSES_OF_1813:
        t = towns[name]
        assert t.get("fortress", t["kind"] == "fortress"), name


def test_every_town_is_well_formed(towns, rivers):
    kinds = {k.value for k in TownKind}
    for t in towns.values():
        assert t["kind"] in kinds, t["name"]
        assert isinstance(t["built_up"], bool), t["name"]
        # Hamburg to Gibraltar, Lisbon to Pressburg.
        assert 36.0 <= t["lat"] <= 54.5 and -9.5 <= t["lon"] <= 17.5, t["name"]
        assert round(t["lat"], 4) == t["lat"] and round(t["lon"], 4) == t["lon"], t["name"]
        if "river" in t:
            assert t["river"] in rivers, f"{t['name']} stands on an undrawn river {t['river']}"


def test_the_theatres_hold_their_towns(towns):
    assert towns["Magdeburg"]["theatre"] == "Northern Germany"
    assert towns["Leipzig"]["theatre"] == "Central Germany"
    assert towns["Vienna"]["theatre"] == "Southern Germany and Austria"
    assert towns["Barcelona"]["theatre"] == "Eastern Spain"
    assert towns["Madrid"]["theatre"] == "Western Spain"
    assert towns["Paris"]["theatre"] == "France"


@pytest.mark.parametrize(("a", "b", "km"), [
    ("Magdeburg", "Berlin", 128), ("Hamburg", "Berlin", 255), ("Paris", "Madrid", 1053),
    ("Leipzig", "Dresden", 100), ("Munich", "Vienna", 355), ("Barcelona", "Gerona", 86),
])
def test_coordinates_give_the_known_distances(towns, a, b, km):
    """Straight-line distances between well-known cities, from any atlas, within 3 %."""
    assert _gc(towns, a, b) == pytest.approx(km / 1.609344, rel=0.03)


def test_roads_join_two_different_known_towns_once(towns, roads):
    pairs = set()
    for r in roads:
        assert r["from"] in towns and r["to"] in towns, r
        assert r["from"] != r["to"], r
        pair = frozenset((r["from"], r["to"]))
        assert pair not in pairs, r
        pairs.add(pair)


def test_road_classes_and_crossings_are_known(roads, rivers):
    classes = {c.value for c in RoadClass}
    crossings = {c.value for c in Crossing}
    for r in roads:
        assert r["class"] in classes, r
        assert ("river" in r) == ("crossing" in r), r
        if "river" in r:
            assert r["river"] in rivers and r["crossing"] in crossings, r


def test_road_miles_are_never_shorter_than_the_line_nor_absurdly_longer(towns, roads):
    ratios = []
    for r in roads:
        gc = _gc(towns, r["from"], r["to"])
        assert gc <= r["miles"] <= 1.6 * gc, r
        assert r["miles"] * 2 == int(r["miles"] * 2), r
        ratios.append(r["miles"] / gc)
    assert 1.1 <= statistics.median(ratios) <= 1.5


def test_road_miles_are_what_the_script_makes(towns, roads):
    coords = {n: (t["lat"], t["lon"]) for n, t in towns.items()}
    assert [r["miles"] for r in roads] == road_miles.computed_miles(roads, coords)


def test_road_miles_round_up_to_the_half_mile():
    """10.01 straight miles on a main road: 10.01 * 1.15 = 11.51, rounded up to 12.0."""
    assert road_miles.road_miles(10.01, 1.15) == 12.0
    assert road_miles.road_miles(10.0, 1.15) == 11.5
    with pytest.raises(ValueError, match="below 1"):
        road_miles.road_miles(10.0, 0.9)


def test_hill_roads_wind_more():
    flat = road_miles.winding_factor("main", (52.0, 11.0), (52.2, 11.4))
    harz = road_miles.winding_factor("main", (51.7, 10.4), (51.8, 10.9))
    assert flat == 1.15 and harz == pytest.approx(1.30)
    with pytest.raises(ValueError, match="not main, minor or track"):
        road_miles.winding_factor("chaussee", (52.0, 11.0), (52.2, 11.4))


def test_the_map_is_one_connected_network(graph):
    assert nx.is_connected(graph)


def test_each_theatre_is_connected_on_its_own_roads(towns, graph):
    for theatre in Theatre:
        members = [n for n, t in towns.items() if t["theatre"] == theatre.value]
        assert nx.is_connected(graph.subgraph(members)), theatre


@pytest.mark.parametrize(("a", "b"), [
    ("Magdeburg", "Berlin"), ("Hamburg", "Hanover"), ("Helmstedt", "Magdeburg"),
    ("Erfurt", "Dresden"), ("Halle", "Leipzig"), ("Munich", "Vienna"), ("Passau", "Linz"),
    ("Barcelona", "Lerida"), ("Tarragona", "Tortosa"), ("Burgos", "Salamanca"),
    ("Valladolid", "Madrid"),
])
def test_corps_have_alternative_routes(towns, graph, a, b):
    """Each theatre is a mesh: at least two routes sharing no road within the theatre."""
    theatre = towns[a]["theatre"]
    sub = graph.subgraph(n for n, t in towns.items() if t["theatre"] == theatre)
    assert nx.edge_connectivity(sub, a, b) >= 2


@pytest.mark.parametrize(("a", "b"), [("Hamburg", "Gibraltar"), ("Vienna", "Barcelona"),
                                      ("Berlin", "Madrid")])
def test_the_theatres_are_joined_through_france(towns, graph, a, b):
    path = nx.shortest_path(graph, a, b, weight="miles")
    assert any(towns[n]["theatre"] == "France" for n in path)


def test_the_scenario_loader_accepts_the_map():
    loader = pytest.importorskip("campaign1813.campaign.scenario.map_loader")
    folder = pytest.importorskip("campaign1813.campaign.scenario.loader")
    map_data = loader.load_map(folder.read_scenario_folder())
    assert len(map_data.towns) >= 150
    assert {t.name for t in map_data.towns if t.fortress} >= set(FORTRESSES_OF_1813)


def test_the_map_tools_read_the_towns_the_scenario_loader_makes():
    """One town, two readers: the loader's checked [[town]] tables and the tools' plain ones."""
    loader = pytest.importorskip("campaign1813.campaign.scenario.map_loader")
    folder = pytest.importorskip("campaign1813.campaign.scenario.loader")
    checked = loader.load_map(folder.read_scenario_folder()).towns
    read = read_towns(MAP_DIR / "towns.toml")
    assert tuple(read) == checked
    kinds = {(t.kind is TownKind.FORTRESS, t.fortress) for t in read}
    assert kinds == {(True, True), (False, False), (False, True)}  # Hamburg: a city, fortified


def test_the_land_outline_loads():
    from campaign1813.maps.land import LAND_FILE, land_rings

    rings = land_rings()
    assert len(rings) > 10 and all(len(r) >= 3 for r in rings)
    assert Path(LAND_FILE).name == "land.toml"


def test_a_bad_land_outline_is_refused(tmp_path):
    from campaign1813.maps.land import land_rings

    bad = tmp_path / "land.toml"
    bad.write_text("[[land]]\npoints = [[1.0, 2.0], [3.0, 4.0]]\n", encoding="utf-8")
    with pytest.raises(ValueError, match="land ring 1 has 2 points"):
        land_rings(bad)
