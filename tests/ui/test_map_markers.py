"""Markers and names at every scale: an army group drawn as one flag where its commands' flags
cannot stand apart, opening into them as the map zooms in; the great cities named at every
scale; no name or flag over another, none across the edge of the part of the map shown."""

import math

import pytest
from PySide6.QtCore import QPoint, QRectF, Qt

from campaign1813.campaign import services
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.document import open_campaign
from campaign1813.maps.types import MapData, Road, RoadClass, Theatre, Town, TownKind
from campaign1813.ui.map.items import BADGE_COLOUR, CASUALTY_COLOUR, badge_colour
from campaign1813.ui.map.scene import MapScene
from campaign1813.ui.map.specs import MarkerSpec, group_spec
from campaign1813.ui.map.style import GREAT_CITIES, town_radius
from campaign1813.ui.map.view import WHOLE_MAP, CampaignView
from campaign1813.ui.open_campaign import OpenCampaign

# The map view of a window maximised on a 1920 × 1080 screen (the commands' table beside it).
WHOLE_MAP_VIEW = (1265, 737)


def _spec(key, a, army="", cinc="", hq=False, badges=(), side=Side.FRENCH, label=None):
    return MarkerSpec(key, a, None, 0.0, label or key, side, "#1f4fbf", hq, tuple(badges), "",
                      army, cinc)


def test_an_army_groups_flag_names_its_cinc_counts_its_corps_and_their_states():
    members = [_spec("Army of Silesia HQ", "Breslau", "Army of Silesia", "Blücher", hq=True,
                     label="Blücher"),
               _spec("I Prussian Corps", "Breslau", "Army of Silesia", "Blücher",
                     badges=("in battle",), label="I Prussian"),
               _spec("II Prussian Corps", "Liegnitz", "Army of Silesia", "Blücher",
                     badges=("resting", "−12"), label="II Prussian"),
               _spec("III Prussian Corps", "Liegnitz", "Army of Silesia", "Blücher",
                     badges=("resting",), label="III Prussian"),
               _spec("IV Prussian Corps", "Glogau", "Army of Silesia", "Blücher",
                     badges=("retreating",), label="IV Prussian")]
    spec = group_spec(members)
    # where the HQ stands; the CinC and his four corps (the HQ is no corps)
    assert (spec.a, spec.b, spec.miles) == ("Breslau", None, 0.0)
    assert spec.label == "Blücher · 4 corps"
    # a badge for each state some of its commands are in, with how many, casualties left out
    assert spec.badges == ("1 in battle", "1 retreating", "2 resting")
    assert spec.hq and spec.army == "Army of Silesia"
    assert "II Prussian: resting, −12" in spec.tooltip
    # a group's badge takes its state's colour; a casualty badge keeps its own
    assert badge_colour("2 resting") == BADGE_COLOUR["resting"]
    assert badge_colour("1 in battle") == BADGE_COLOUR["in battle"]
    assert badge_colour("−12") == CASUALTY_COLOUR
    with pytest.raises(ValueError, match="army group's flag"):
        group_spec([])


def _town(name, lat, lon, kind=TownKind.TOWN):
    return Town(name, lat, lon, Theatre.CENTRAL_GERMANY, kind, True)


# Two armies facing each other at four towns about 10 miles apart.
FRONT = MapData(
    towns=(_town("Aue", 51.0, 12.0), _town("Brück", 51.0, 12.23), _town("Celle", 51.14, 12.0),
           _town("Dorn", 51.14, 12.23)),
    roads=(Road("Aue", "Brück", 10.0, RoadClass.MAIN), Road("Aue", "Celle", 10.0, RoadClass.MAIN),
           Road("Brück", "Dorn", 10.0, RoadClass.MAIN)),
    rivers=(),
)
FRENCH = [_spec("Nord HQ", "Aue", "Nord", "Ney", hq=True, label="Ney"),
          _spec("3 Corps", "Aue", "Nord", "Ney", label="3"),
          _spec("4 Corps", "Celle", "Nord", "Ney", label="4", badges=("resting",)),
          _spec("7 Corps", "Celle", "Nord", "Ney", label="7")]
ALLIED = [_spec("Süd HQ", "Brück", "Süd", "Bülow", hq=True, side=Side.ALLIED, label="Bülow"),
          _spec("III Prussian Corps", "Brück", "Süd", "Bülow", side=Side.ALLIED,
                label="III Prussian", badges=("in battle",)),
          _spec("IV Prussian Corps", "Dorn", "Süd", "Bülow", side=Side.ALLIED,
                label="IV Prussian")]


def _boxes(scene, scale):
    return {m.spec.key: m.flag_rect().translated(m.pos() * scale) for m in scene.shown_markers()}


def _no_two_overlap(boxes):
    """The pairs of boxes that overlap (flags of one stack touch, row on row: no overlap,
    whatever the last bit of their sums)."""
    items = list(boxes.items())
    return [(a, b) for i, (a, ra) in enumerate(items) for b, rb in items[i + 1:]
            if ra.adjusted(0.01, 0.01, -0.01, -0.01).intersects(rb)]


def test_army_groups_are_drawn_as_one_flag_until_the_zoom_leaves_their_commands_room(qapp):
    scene = MapScene(FRONT)
    scene.build()
    scene.set_markers(FRENCH + ALLIED)
    aue, bruck = scene.town_point("Aue"), scene.town_point("Brück")
    # the towns 10 pixels apart: no corner of any stack is free, each army is one flag
    far = 10 / (bruck.x() - aue.x())
    scene.place_labels(far)
    assert scene.collapsed == {"Nord", "Süd"}
    shown = {m.spec.key: m.spec for m in scene.shown_markers()}
    assert set(shown) == {"army group: Nord", "army group: Süd"}
    assert shown["army group: Nord"].label == "Ney · 3 corps"
    assert shown["army group: Nord"].badges == ("1 resting",)
    assert shown["army group: Süd"].badges == ("1 in battle",)
    assert _no_two_overlap(_boxes(scene, far)) == []
    # 400 pixels apart: every command's own flag, none over another
    near = 400 / (bruck.x() - aue.x())
    scene.place_labels(near)
    assert scene.collapsed == set()
    assert {m.spec.key for m in scene.shown_markers()} == {s.key for s in FRENCH + ALLIED}
    assert _no_two_overlap(_boxes(scene, near)) == []


def test_a_lone_command_and_an_army_of_one_are_never_gathered(qapp):
    scene = MapScene(FRONT)
    scene.build()
    scene.set_markers([_spec("Garrison", "Aue"), _spec("Nord HQ", "Aue", "Nord", "Ney",
                                                        hq=True, label="Ney")])
    aue, bruck = scene.town_point("Aue"), scene.town_point("Brück")
    scene.place_labels(10 / (bruck.x() - aue.x()))
    assert scene.groups == {} and scene.collapsed == set()
    assert {m.spec.key for m in scene.shown_markers()} == {"Garrison", "Nord HQ"}


@pytest.fixture
def doc(tmp_path, fresh_campaign):
    d = open_campaign(fresh_campaign(tmp_path / "c.c1813"))
    yield d
    d.close()


def _view(qtbot, doc, theatre: str, size=WHOLE_MAP_VIEW) -> CampaignView:
    campaign = OpenCampaign()
    view = CampaignView(campaign)
    qtbot.addWidget(view)
    campaign.open(doc)
    view.theatres.setCurrentText(theatre)
    view.show()
    qtbot.waitExposed(view)
    view.map_view.setFixedSize(*size)
    view.map_view.finish_building()
    view.fit_theatre()
    view.map_view.place_labels()
    return view


def _names(scene, scale):
    return {item.text: item.text_rect().translated(item.pos() * scale)
            for item in scene.town_names.values() if item.isVisible()}


def _dots(scene, scale):
    return {m.spec.key: QRectF(-4, -4, 8, 8).translated(m.pos() * scale)
            for m in scene.shown_markers()}


def _check_nothing_covered(view):
    """No two flags and no two names overlap, no name lies on a flag or a command's dot, and
    every name and flag lies inside the part of the map shown."""
    mv, scene = view.map_view, view.map_scene
    scale = mv.scale_now()
    frame = mv.frame()
    shown = QRectF(frame.left() * scale, frame.top() * scale, frame.width() * scale,
                   frame.height() * scale)
    flags, names, dots = _boxes(scene, scale), _names(scene, scale), _dots(scene, scale)
    assert _no_two_overlap(flags) == []
    assert _no_two_overlap(names) == []
    assert [(n, f) for n, r in names.items() for f, b in {**flags, **dots}.items()
            if r.intersects(b)] == []
    assert [k for k, r in {**flags, **names}.items() if not shown.contains(r)] == []
    return flags, names


def test_the_whole_map_has_no_pile_of_flags_and_names_its_great_cities(qtbot, doc):
    """The whole map in a window maximised on a 1920 × 1080 screen: each army group one flag
    where its corps crowd, no two flags or names over each other or across the edge, and
    every great city named."""
    view = _view(qtbot, doc, WHOLE_MAP)
    flags, names = _check_nothing_covered(view)
    assert GREAT_CITIES <= set(names)
    scene = view.map_scene
    assert scene.collapsed  # Germany's army groups are drawn as one flag each
    for army in scene.collapsed:
        assert f"army group: {army}" in flags
        assert not any(m.isVisible() for m in scene.markers.values() if m.spec.army == army)
    # every command is on the map, by its own flag or its army group's
    on_map = {k for k in flags} | {k for a in scene.collapsed for k in scene.group_members[a]}
    assert set(scene.markers) <= on_map


def test_after_a_day_of_marches_no_flag_covers_berlin_or_another_name(qtbot, doc):
    """Northern Germany fitted, orders given and a day ended: the flags moved and the names
    placed again round them; Berlin and the theatre's great cities still named, none cut at
    the edge of the map (Frankfurt an der Oder, at its eastern edge, among them)."""
    view = _view(qtbot, doc, Theatre.NORTHERN_GERMANY.value)
    for command, town in (("I Prussian Corps", "Brandenburg"), ("5 Corps", "Helmstedt"),
                          ("II Prussian Corps", "Potsdam")):
        view.campaign.apply(services.issue_order(doc, command, "Move", town))
    view.campaign.apply(services.end_day(doc))
    view.map_view.place_labels()
    _, names = _check_nothing_covered(view)
    assert {"Berlin", "Hamburg", "Magdeburg", "Stettin", "Frankfurt an der Oder"} <= set(names)


def test_a_name_stands_nearer_its_own_town_than_a_neighbours(qtbot, doc):
    """Northern Germany fitted: the end of each name facing its town (Spandau's beside
    Berlin's among them) is nearer that town's sign than any other town's, unless the two
    signs all but touch at this scale; a lesser town's name keeps 6 pixels (at the window's
    lettering, 5.1) clear of every other sign."""
    view = _view(qtbot, doc, Theatre.NORTHERN_GERMANY.value)
    scene, scale = view.map_scene, view.map_view.scale_now()
    towns = {t.name: t for t in scene.map.towns}
    signs = {t.name: scene.town_point(t.name) * scale for t in scene.map.towns
             if scene.shows_town(t, scale)}
    wrong, crowded = [], []
    for name, r in _names(scene, scale).items():
        own = signs[name]
        foot = (min(max(own.x(), r.left()), r.right()), min(max(own.y(), r.top()), r.bottom()))
        mine = math.dist(foot, (own.x(), own.y()))
        lesser = towns[name].kind in (TownKind.TOWN, TownKind.VILLAGE) and not towns[name].fortress
        for other, p in signs.items():
            apart = math.dist((own.x(), own.y()), (p.x(), p.y()))
            if other == name or apart <= 12 * scene.unit:
                continue
            if math.dist(foot, (p.x(), p.y())) < mine:
                wrong.append((name, other))
            t = towns[other]
            radius = town_radius(t.kind, t.fortress, scene.unit)
            clear = 6 * scene.unit
            if lesser and r.adjusted(-clear, -clear, clear, clear).intersects(
                    QRectF(p.x() - radius, p.y() - radius, 2 * radius, 2 * radius)):
                crowded.append((name, other))
    assert "Spandau" in _names(scene, scale)
    assert wrong == []
    assert crowded == []


def test_clicking_an_army_groups_flag_selects_its_hq_and_rings_the_flag(qtbot, doc):
    view = _view(qtbot, doc, WHOLE_MAP)
    mv, scene = view.map_view, view.map_scene
    army = sorted(scene.collapsed)[0]
    flag = scene.groups[army]
    centre = flag.flag_rect().center()
    at = mv.mapFromScene(flag.pos()) + QPoint(round(centre.x()), round(centre.y()))
    qtbot.mouseClick(mv.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert view.selected_command() == f"{army} HQ" == scene.group_members[army][0]
    assert flag.selected


def test_after_flags_move_only_the_names_near_them_are_placed_again(qapp, monkeypatch):
    """A command marches from Magdeburg towards Helmstedt at a theatre's scale: the names far
    from both its old and new places keep the spots they had, without being looked for again
    (but the great cities', always placed first, afresh); the rest are placed afresh, and
    still none lies on a flag or another name."""
    from campaign1813.maps.tools.map_toml import read_map

    scene = MapScene(read_map(), unit=0.85)
    scene.build()
    scale = 3.5
    scene.set_markers([_spec("5 Corps", "Magdeburg", "Nord", "Davout"),
                       _spec("Nord HQ", "Hamburg", "Nord", "Davout", hq=True, label="Davout"),
                       _spec("I Prussian Corps", "Berlin", side=Side.ALLIED)])
    scene.place_labels(scale)
    before = {n: (i.isVisible(), i.offset()) for n, i in scene.town_names.items()}
    searched = []
    place = MapScene._place_town_name

    def counted(self, town, *args, **kwargs):
        searched.append(town.name)
        return place(self, town, *args, **kwargs)

    monkeypatch.setattr(MapScene, "_place_town_name", counted)
    scene.update_markers([MarkerSpec("5 Corps", "Magdeburg", "Helmstedt", 15.0, "5 Corps",
                                     Side.FRENCH, "#1f4fbf", army="Nord", cinc="Davout")])
    scene.place_labels(scale)
    magdeburg = scene.town_point("Magdeburg") * scale
    far = [t.name for t in scene.map.towns if t.name not in GREAT_CITIES
           and (scene.town_point(t.name) * scale - magdeburg).manhattanLength() > 900]
    assert far and not set(far) & set(searched)
    assert all((scene.town_names[n].isVisible(), scene.town_names[n].offset()) == before[n]
               for n in far)
    assert 0 < len(searched) < len(scene.map.towns) / 3
    assert "Magdeburg" in searched  # beside the march: looked for again
    names = _names(scene, scale)
    assert _no_two_overlap(names) == []
    flags = _boxes(scene, scale)
    assert [(n, f) for n, r in names.items() for f, b in flags.items() if r.intersects(b)] == []


# The map view of a window on a 1366 × 768 screen.
SMALL_SCREEN_VIEW = (894, 423)


@pytest.mark.parametrize("theatre", [WHOLE_MAP, Theatre.NORTHERN_GERMANY.value])
def test_on_a_small_screen_no_flag_or_name_covers_another_or_leaves_the_view(qtbot, doc,
                                                                             theatre):
    """The window on a 1366 × 768 screen, the whole map (0.32 pixels per mile) and Northern
    Germany fitted: flags pushed out from their dots or gathered as they must be, none over
    another, no name over a flag, a dot or another name, none across the view's edge."""
    view = _view(qtbot, doc, theatre, SMALL_SCREEN_VIEW)
    _check_nothing_covered(view)


def test_double_clicking_an_army_groups_flag_zooms_in_on_it(qtbot, doc):
    """The whole map: a double-click on an army group's flag shows the map twice as close,
    where its HQ stands still in sight (centred on it, as far as the map's edge allows)."""
    view = _view(qtbot, doc, WHOLE_MAP)
    mv, scene = view.map_view, view.map_scene
    army = sorted(scene.collapsed)[0]
    flag = scene.groups[army]
    scale = mv.scale_now()
    centre = flag.flag_rect().center()
    at = mv.mapFromScene(flag.pos()) + QPoint(round(centre.x()), round(centre.y()))
    qtbot.mouseDClick(mv.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert mv.scale_now() == pytest.approx(2 * scale)
    assert mv.viewport().rect().contains(mv.mapFromScene(flag.pos()))
