"""The table drawing puts no word under a marker: on the shipped battles, and on a battle at
every town of the shipped map, with corps coming on by each of its roads.

A marker is what stands for a force or an instrument on the table — a blind, an arrow, the
town's walls, the compass, the scale; a word is a road's, the river's or a square's name, a
deployed corps' tag, the town's label, or a paragraph of an entry in the margin. The drawing
plans both (``table_plan``) and paints what it planned.
"""

from __future__ import annotations

import functools
from datetime import date

import pytest

from campaign1813.campaign.battle.setup import Edge
from campaign1813.campaign.day.fight_setup import battle_setup
from campaign1813.campaign.day.ground import Ground, Position
from campaign1813.campaign.day.state import Battle, initial_state
from campaign1813.campaign.export.setup_sheet import setup_sheet
from campaign1813.campaign.scenario.loader import load_scenario
from campaign1813.ui.paper.table_diagram import TablePlan, table_extent, table_plan

from .test_setup_sheet import campaign_files_fixture as _campaign_files  # noqa: F401
from .test_setup_sheet import helmstedt_sheet
from .test_setup_sheet import magdeburg_fixture as _magdeburg  # noqa: F401

pytestmark = pytest.mark.usefixtures("qapp")

FRENCH_CORPS = ("4 Corps", "5 Corps", "6 Corps", "13 Polish Corps")
ALLIED_CORPS = ("I Prussian Corps", "II Prussian Corps", "III Prussian Corps",
                "IV Prussian Corps")


def covered(plan: TablePlan) -> list[tuple[str, str]]:
    """Each word that covers a marker, with the marker."""
    return [(f"{w.kind} {w.text!r}", f"{m.kind} {m.text!r}") for w in plan.labels
            for m in plan.markers if w.shape.intersects(m.shape)]


def overlapping_markers(plan: TablePlan) -> list[tuple[str, str]]:
    """Two markers on top of each other (a blind and its own arrow excepted: the arrow points
    at the column it brings)."""
    out = []
    for i, a in enumerate(plan.markers):
        for b in plan.markers[i + 1:]:
            if {a.kind, b.kind} != {"blind", "arrow"} and a.shape.intersects(b.shape):
                out.append((f"{a.kind} {a.text}", f"{b.kind} {b.text}"))
    return out


def outside(plan: TablePlan, sheet) -> list[str]:
    """Words that leave the drawing (they would be cut off the SVG and the sheet)."""
    frame = table_extent(sheet)
    return [w.text for w in plan.labels if not frame.contains(w.shape.boundingRect())]


@functools.cache
def _ground() -> Ground:
    return Ground(load_scenario())


def town_battle(town: str, ruleset: str = "1813"):
    """5 Corps holds ``town``; an Allied corps comes on by each of its roads (up to four),
    and a French corps marches to the sound of the guns along the last road."""
    ground = _ground()
    day = date(1813, 5, 2)
    roads = sorted(n for n, _miles in ground.adj[town])
    allied = ALLIED_CORPS[:min(len(roads), 4)]
    french = ("5 Corps",)
    late = ("6 Corps",) if len(roads) > 1 else ()
    battle = Battle(1, day, town, french, allied, french_reinforcements=late)
    state = initial_state(ground.scenario, day)
    state.update("5 Corps", position=Position(town))
    for corps, road in zip(allied, roads, strict=False):
        state.update(corps, position=Position(town, road, 3.0))
    for corps in late:
        state.update(corps, position=Position(town, roads[-1], 8.0))
    state.battles[1] = battle
    setup = battle_setup(ground, state, 1, ruleset=ruleset)
    entry_roads = {c: r for c, r in zip(allied, roads, strict=False)}
    entry_roads.update({c: roads[-1] for c in late})
    return setup_sheet(setup, campaign="The 1813 Campaign", entry_roads=entry_roads)


def test_no_word_is_under_a_marker_at_magdeburg(magdeburg):
    """The sheet's own battle: "Burg 42°" is clear of the Allied blind A1 that comes on by
    the Burg road, and the Elbe's name crosses no road."""
    plan = table_plan(magdeburg)
    assert covered(plan) == [] and overlapping_markers(plan) == []
    assert outside(plan, magdeburg) == []
    burg = next(w for w in plan.labels if w.text == "Burg 42°")
    a1 = next(m for m in plan.markers if m.text == "A1")
    assert not burg.shape.intersects(a1.shape)
    names = {w.text for w in plan.labels}
    assert {"Elbe", "Magdeburg", "Wolmirstedt 0°", "Burg 42°", "Zerbst 119°",
            "Schönebeck 148°", "Wanzleben 242°", "Helmstedt 286°",
            "Neuhaldensleben 322°"} <= names


def test_no_word_is_under_a_marker_at_helmstedt_by_every_ruleset():
    """The demo's battle: ten corps, three edges, reinforcements; by each ruleset."""
    for ruleset in ("1813", "002", "004"):
        sheet = helmstedt_sheet() if ruleset == "1813" else helmstedt_by(ruleset)
        plan = table_plan(sheet)
        assert covered(plan) == [], ruleset
        assert overlapping_markers(plan) == [], ruleset
        assert outside(plan, sheet) == [], ruleset


def helmstedt_by(ruleset: str):
    ground = _ground()
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
    state.update("IV Prussian Corps", position=Position("Helmstedt", "Oebisfelde", 9.0))
    state.battles[1] = battle
    setup = battle_setup(ground, state, 1, ruleset=ruleset)
    return setup_sheet(setup, campaign="The 1813 Campaign",
                       entry_roads={"13 Polish Corps": "Königslutter",
                                    **{n: "Magdeburg" for n in allied[1:]},
                                    "IV Prussian Corps": "Oebisfelde"})


def test_no_word_is_under_a_marker_at_any_town_of_the_map():
    """A battle at every town of the shipped map with two roads or more, an Allied corps
    coming on by each of up to four roads and a French corps by the last one on turn 4: no
    word covers a marker, no two markers lie on each other, no word leaves the drawing."""
    ground = _ground()
    towns = [t.name for t in ground.scenario.map.towns if len(ground.adj[t.name]) >= 2]
    assert len(towns) > 50
    shared_edge = 0
    for town in towns:
        sheet = town_battle(town)
        plan = table_plan(sheet)
        assert covered(plan) == [], town
        assert overlapping_markers(plan) == [], town
        assert outside(plan, sheet) == [], town
        edges = [e.edge for e in sheet.entries if e.edge is not None]
        shared_edge += len(edges) != len(set(edges))
    assert shared_edge > 10  # many battles bring two entries, of one side or both, to an edge


def test_two_sides_coming_on_by_one_edge_are_drawn_apart():
    """Seed 002's battle at a town where both sides come on by the north edge: each side's
    blind beside its own road, neither on the other, and each side's words in the margin."""
    ground = _ground()
    for town in (t.name for t in ground.scenario.map.towns):
        roads = sorted(n for n, _m in ground.adj[town])
        if len(roads) < 2:
            continue
        sheet = town_battle(town, "002")
        by_edge = {}
        for entry in sheet.entries:
            if entry.edge is not None:
                by_edge.setdefault(entry.edge, set()).add(entry.side)
        if any(len(sides) == 2 for sides in by_edge.values()):
            break
    else:  # pragma: no cover - the map has such towns
        pytest.fail("no town brings both sides to one edge")
    plan = table_plan(sheet)
    assert covered(plan) == [] and overlapping_markers(plan) == []
    edge = next(e for e, sides in by_edge.items() if len(sides) == 2)
    assert edge in Edge
    sides = {m.text for m in plan.markers if m.kind == "arrow"}
    assert sides == {"French", "Allied"}
