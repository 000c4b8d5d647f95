"""The map scene: commands where they truly stand, flags and names that never overlap, the level
of detail, and the map's zoom, clicks and menus in the campaign view."""

import pytest
from PySide6.QtCore import QPoint, QRectF, QSettings, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent, QImage, QPainter
from PySide6.QtWidgets import QApplication

from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.document import open_campaign
from campaign1813.maps.tools.map_toml import read_map
from campaign1813.maps.types import MapData, Road, RoadClass, Theatre, Town, TownKind
from campaign1813.ui.map.scene import MapScene
from campaign1813.ui.map.specs import MarkerSpec
from campaign1813.ui.map.style import VILLAGE_NAMES_FROM, VILLAGES_FROM
from campaign1813.ui.map.view import FIT_MARGIN_MILES, CampaignView
from campaign1813.ui.open_campaign import OpenCampaign


def _town(name, lat, lon, kind=TownKind.TOWN):
    return Town(name, lat, lon, Theatre.NORTHERN_GERMANY, kind, True)


# Two towns on one parallel, 20 road miles apart, and a village to the north.
SMALL = MapData(
    towns=(_town("Westdorf", 52.0, 10.0), _town("Ostburg", 52.0, 10.4),
           _town("Nordheim", 52.4, 10.2, TownKind.VILLAGE)),
    roads=(Road("Westdorf", "Ostburg", 20.0, RoadClass.MAIN),
           Road("Westdorf", "Nordheim", 25.0, RoadClass.TRACK)),
    rivers=(),
)


def _spec(key, a, b=None, miles=0.0, label=None, side=Side.FRENCH, hq=False):
    return MarkerSpec(key, a, b, miles, label or key, side, "#1f4fbf", hq)


@pytest.fixture
def small(qapp):
    scene = MapScene(SMALL)
    scene.build()
    return scene


def test_a_command_on_a_road_stands_at_its_share_of_the_road(small):
    small.set_markers([_spec("5 Corps", "Westdorf", "Ostburg", 5.0),
                       _spec("6 Corps", "Ostburg", "Westdorf", 10.0)])
    west, east = small.town_point("Westdorf"), small.town_point("Ostburg")
    # 5 of the road's 20 miles from Westdorf: a quarter of the straight line to Ostburg
    at = small.markers["5 Corps"].pos()
    assert at.x() == pytest.approx(west.x() + 0.25 * (east.x() - west.x()))
    assert at.y() == pytest.approx(west.y())  # the two towns share a parallel
    # 10 of 20 miles from Ostburg: halfway, whichever end the miles are counted from
    half = small.markers["6 Corps"].pos()
    assert half.x() == pytest.approx((west.x() + east.x()) / 2)
    # the scene is in miles: the towns, 0.4° of longitude apart at 52° N, are ~17 miles apart
    assert east.x() - west.x() == pytest.approx(0.4 * 69.09 * 0.6157, rel=0.02)


def test_a_march_moves_the_flag_along_the_road(small):
    small.set_markers([_spec("5 Corps", "Westdorf")])
    item = small.markers["5 Corps"]
    small.update_markers([_spec("5 Corps", "Westdorf", "Ostburg", 15.0)])
    assert small.markers["5 Corps"] is item
    west, east = small.town_point("Westdorf"), small.town_point("Ostburg")
    assert item.pos().x() == pytest.approx(west.x() + 0.75 * (east.x() - west.x()))


def _flags_px(scene, scale):
    return {k: m.flag_rect().translated(m.pos() * scale) for k, m in scene.markers.items()}


def test_several_commands_at_one_town_stack_without_overlapping(small):
    small.set_markers([_spec("4 Corps", "Westdorf"), _spec("Davout", "Westdorf", hq=True),
                       _spec("5 Corps", "Westdorf"), _spec("I Prussian", "Westdorf",
                                                           side=Side.ALLIED)])
    small.place_labels(4.0)
    rects = _flags_px(small, 4.0)
    keys = list(rects)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            assert not rects[a].intersects(rects[b]), (a, b)
    # French HQ nearest the town, then the corps in order, the Allies on top
    slots = {k: m.slot for k, m in small.markers.items()}
    assert slots == {"Davout": 0, "4 Corps": 1, "5 Corps": 2, "I Prussian": 3}
    # and the stack stands close by its town: the whole of it within 90 pixels
    town = small.town_point("Westdorf") * 4.0
    for r in rects.values():
        assert abs(r.center().x() - town.x()) < 90 and abs(r.center().y() - town.y()) < 90


def test_stacks_at_neighbouring_places_turn_away_from_each_other(small):
    west = small.town_point("Westdorf")
    east = small.town_point("Ostburg")
    scale = 60 / (east.x() - west.x())  # the towns 60 pixels apart
    small.set_markers([_spec("4 Corps", "Westdorf"), _spec("5 Corps", "Westdorf"),
                       _spec("I Prussian", "Ostburg", side=Side.ALLIED),
                       _spec("II Prussian", "Ostburg", side=Side.ALLIED)])
    small.place_labels(scale)
    rects = list(_flags_px(small, scale).values())
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert not a.intersects(b)


def _names_px(scene, scale):
    return {name: item.text_rect().translated(item.pos() * scale)
            for name, item in scene.town_names.items() if item.isVisible()}


@pytest.mark.parametrize("scale", [0.75, 3.5, 12.0])
def test_names_never_overlap_each_other_or_the_flags(qapp, scale):
    scene = MapScene(read_map())
    scene.build()
    scene.set_markers([_spec("5 Corps", "Magdeburg"), _spec("Davout", "Magdeburg", hq=True),
                       _spec("I Prussian", "Burg", "Magdeburg", 7.5, side=Side.ALLIED)])
    scene.place_labels(scale)
    names = _names_px(scene, scale)
    assert "Magdeburg" in names or scale < 1  # a fortress city is named at a theatre's scale
    boxes = list(names.items()) + list(_flags_px(scene, scale).items())
    for i, (a, ra) in enumerate(boxes):
        for b, rb in boxes[i + 1:]:
            assert not ra.intersects(rb), (a, b)


def test_villages_show_only_close_up(qapp):
    scene = MapScene(read_map())
    scene.build()
    villages = [t.name for t in scene.map.towns if t.kind is TownKind.VILLAGE and not t.fortress]
    scene.place_labels(0.75)  # the whole map in the window
    assert not any(scene.town_names[v].isVisible() for v in villages)
    scene.place_labels(VILLAGE_NAMES_FROM + 2)
    assert any(scene.town_names[v].isVisible() for v in villages)


def _pixels_round(scene, town, scale, reach=4):
    """The colours the scene paints along a line through a town at ``scale`` pixels per mile."""
    at = scene.town_point(town)
    source = QRectF(at.x() - 20 / scale, at.y() - 20 / scale, 40 / scale, 40 / scale)
    image = QImage(40, 40, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    scene.render(painter, QRectF(0, 0, 40, 40), source)
    painter.end()
    return [image.pixelColor(20 + dx, 20) for dx in range(-reach, reach + 1)]


def test_a_villages_sign_is_drawn_only_from_its_level_of_detail(small):
    # far out only land shows where the village stands (its track is hidden too) ...
    far = _pixels_round(small, "Nordheim", VILLAGES_FROM * 0.5)
    assert {c.name() for c in far} == {"#f3ecd6"}
    # ... close up its sign's dark rim does; a town's sign shows at both scales
    near = _pixels_round(small, "Nordheim", VILLAGES_FROM * 3)
    assert any(c.lightness() < 120 for c in near)
    for scale in (VILLAGES_FROM * 0.5, VILLAGES_FROM * 3):
        assert any(c.lightness() < 120 for c in _pixels_round(small, "Westdorf", scale))


# ---- in the campaign view -------------------------------------------------------------------


@pytest.fixture
def doc(tmp_path, fresh_campaign):
    d = open_campaign(fresh_campaign(tmp_path / "c.c1813"))
    yield d
    d.close()


def view_of(qtbot, doc, settings=None) -> CampaignView:
    campaign = OpenCampaign()
    view = CampaignView(campaign, settings=settings)
    qtbot.addWidget(view)
    view.resize(1400, 900)
    campaign.open(doc)
    view.map_view.finish_building()
    return view


def test_clicking_a_flag_selects_its_command_in_the_table_and_back(qtbot, doc):
    view = view_of(qtbot, doc)
    view.theatres.setCurrentText(Theatre.NORTHERN_GERMANY.value)
    view.show()
    qtbot.waitExposed(view)
    mv = view.map_view
    mv.finish_building()
    marker = view.map_scene.markers["13 Polish Corps"]
    flag = marker.flag_rect().center()
    at = mv.mapFromScene(marker.pos()) + QPoint(round(flag.x()), round(flag.y()))
    qtbot.mouseClick(mv.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert view.selected_command() == "13 Polish Corps"
    assert marker.selected
    view.select_command("5 Corps")
    assert view.map_scene.markers["5 Corps"].selected and not marker.selected


def test_right_clicking_a_town_offers_move_attack_hold_and_asks_for_the_order(qtbot, doc):
    view = view_of(qtbot, doc)
    view.theatres.setCurrentText(Theatre.NORTHERN_GERMANY.value)
    view.show()
    qtbot.waitExposed(view)
    view.select_command("5 Corps")
    mv = view.map_view
    at = mv.mapFromScene(view.map_scene.town_point("Helmstedt"))
    shown = []

    def choose_attack():
        # the umpire picks "Attack here" in the menu that popped up
        menu = QApplication.activePopupWidget()
        shown.append([a.text() for a in menu.actions() if a.data()])
        menu.setActiveAction(next(a for a in menu.actions() if a.data() == "Attack"))
        qtbot.keyClick(menu, Qt.Key.Key_Return)

    QTimer.singleShot(0, choose_attack)
    with qtbot.waitSignal(mv.town_menu_wanted) as asked, \
            qtbot.waitSignal(view.order_wanted) as wanted:
        QApplication.sendEvent(mv.viewport(), QContextMenuEvent(QContextMenuEvent.Reason.Mouse, at,
                                                     mv.mapToGlobal(at)))
    assert asked.args[0] == "Helmstedt"
    assert shown == [["Move here", "Attack here", "Hold here"]]
    assert wanted.args == ["5 Corps", "Attack", "Helmstedt"]


def test_without_a_command_selected_the_town_menu_gives_no_order(qtbot, doc):
    view = view_of(qtbot, doc)
    view.table.setCurrentItem(view.table.topLevelItem(0))  # an army group, not a command
    menu = view.town_menu("Helmstedt")
    assert not any(a.isEnabled() for a in menu.actions() if a.data())


def test_the_zoom_survives_end_day_and_a_restart(qtbot, doc, tmp_path):
    from campaign1813.campaign import services

    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    view = view_of(qtbot, doc, settings)
    view.theatres.setCurrentText(Theatre.NORTHERN_GERMANY.value)
    mv = view.map_view
    mv.zoom_by(2.0)
    mv.centerOn(view.map_scene.town_point("Magdeburg"))
    scale, centre = mv.scale_now(), mv.centre()
    view.campaign.apply(services.issue_order(doc, "5 Corps", "Move", "Helmstedt"))
    view.campaign.apply(services.end_day(doc))
    assert mv.scale_now() == scale
    assert mv.centre() == centre
    mv.save_state()
    again = view_of(qtbot, doc, settings)
    again.theatres.setCurrentText(Theatre.NORTHERN_GERMANY.value)
    assert again.map_view.scale_now() == pytest.approx(scale)
    magdeburg = again.map_scene.town_point("Magdeburg")
    # the centre comes back to within the view's pixel grid (scroll bars move whole pixels)
    assert (again.map_view.centre() - magdeburg).manhattanLength() < 8 / scale


def test_fit_theatre_shows_the_whole_theatre(qtbot, doc):
    view = view_of(qtbot, doc)
    view.theatres.setCurrentText(Theatre.EASTERN_SPAIN.value)
    view.map_view.zoom_by(4.0)
    view.fit_button.click()
    shown = view.map_view.mapToScene(view.map_view.viewport().rect()).boundingRect()
    wanted = view.map_scene.theatre_rect(Theatre.EASTERN_SPAIN, FIT_MARGIN_MILES)
    assert shown.adjusted(-1, -1, 1, 1).contains(wanted)


def test_a_refusal_is_written_beside_the_town(qtbot, doc):
    view = view_of(qtbot, doc)
    view.show_refusal("Helmstedt", "5 Corps is resting today")
    note = view.map_scene.note
    assert note.text == "Order refused\n5 Corps is resting today"
    assert note.pos() == view.map_scene.town_point("Helmstedt")
    assert note.refused


def test_the_route_preview_draws_the_road_and_shows_the_services_figures(qtbot, doc):
    from campaign1813.campaign import queries
    from campaign1813.ui.map.items import PreviewPath

    view = view_of(qtbot, doc)
    shown = view.preview_route("5 Corps", "Move", "Helmstedt")
    wanted = queries.route_preview(doc, "5 Corps", "Move", "Helmstedt")
    assert shown == wanted
    # the one road Magdeburg–Helmstedt, 31.5 miles at the main road's rate: three days' march
    assert (wanted.miles, wanted.days) == (31.5, 3)
    note = view.map_scene.note
    assert note.text == ("5 Corps – Move Helmstedt\n31.5 miles, 3 days marching\n"
                         f"arrives {wanted.arrival}")
    assert note.pos() == view.map_scene.town_point("Helmstedt")
    (path,) = [i for i in view.map_scene.preview_items if isinstance(i, PreviewPath)]
    assert path.legs == ((view.map_scene.town_point("Magdeburg"),
                          view.map_scene.town_point("Helmstedt")),)
    view.clear_preview()
    assert view.map_scene.note is None and view.map_scene.preview_items == []


def test_a_refused_preview_says_why_on_the_map(qtbot, doc):
    view = view_of(qtbot, doc)
    shown = view.preview_route("5 Corps", "Hold", "Helmstedt")
    assert shown.refusal == "5 Corps cannot hold at Helmstedt: it stands at Magdeburg"
    note = view.map_scene.note
    assert note.refused and note.pos() == view.map_scene.town_point("Helmstedt")
    # the reason, 56 letters, is folded at a word to keep the note beside its town
    assert note.lines == ("5 Corps – Hold Helmstedt: refused",
                          "5 Corps cannot hold at Helmstedt: it stands at", "Magdeburg")


def test_the_ground_is_built_only_after_the_map_is_first_painted(qtbot, doc):
    """The window shows at once: no piece of the ground is built before the map's first paint,
    then it is built in pieces while the event loop runs."""
    campaign = OpenCampaign()
    view = CampaignView(campaign)
    qtbot.addWidget(view)
    view.resize(1400, 900)
    campaign.open(doc)
    qtbot.wait(50)
    scene = view.map_scene
    assert scene is not None and not scene.built
    assert [layer.pieces for layer in scene.layers] == [[], []]  # not a piece yet
    view.show()
    qtbot.waitUntil(lambda: scene.built, timeout=10_000)


def _east_west_miles(scene, a, b):
    """How many miles apart east–west two towns are drawn, against the true distance along
    their middle parallel."""
    import math

    from campaign1813.maps.geometry import MILES_PER_DEGREE

    ta, tb = scene.towns[a], scene.towns[b]
    drawn = abs(scene.town_point(b).x() - scene.town_point(a).x())
    true = (abs(tb.lon - ta.lon) * math.cos(math.radians((ta.lat + tb.lat) / 2))
            * MILES_PER_DEGREE)
    return drawn, true


def test_each_theatre_is_drawn_in_its_own_projection_true_east_west(qtbot, doc):
    """Magdeburg to Berlin (about 52.3° N): the whole map (its middle near 46° N) draws it
    some 14 % too wide; Northern Germany's own map draws it true, to within 1 %."""
    view = view_of(qtbot, doc)
    whole, true = _east_west_miles(view.map_scene, "Magdeburg", "Berlin")
    assert whole / true > 1.1
    view.theatres.setCurrentText(Theatre.NORTHERN_GERMANY.value)
    north, _ = _east_west_miles(view.map_scene, "Magdeburg", "Berlin")
    assert north / true == pytest.approx(1.0, abs=0.01)
    assert "5 Corps" in view.map_scene.markers  # the flags come with the theatre's map
    view.theatres.setCurrentText(Theatre.EASTERN_SPAIN.value)
    spain = view.map_scene
    view.theatres.setCurrentText(Theatre.NORTHERN_GERMANY.value)
    view.theatres.setCurrentText(Theatre.EASTERN_SPAIN.value)
    assert view.map_scene is spain  # each theatre's map is made once


def test_a_theatres_map_greys_its_neighbours_towns(qtbot, doc):
    from campaign1813.ui.map.style import INK, OTHER_INK

    view = view_of(qtbot, doc)
    assert not any(view.map_scene.muted(t) for t in view.map_scene.towns.values())
    view.theatres.setCurrentText(Theatre.NORTHERN_GERMANY.value)
    view.map_view.finish_building()
    scene = view.map_scene
    assert scene.muted(scene.towns["Leipzig"]) and not scene.muted(scene.towns["Magdeburg"])
    assert scene.town_names["Leipzig"].ink == OTHER_INK
    assert scene.town_names["Magdeburg"].ink == INK


def test_no_name_lies_under_a_flag_and_the_great_places_keep_theirs(qtbot, doc):
    """Northern Germany fitted in a map of about 1050 × 650 pixels (the window on a 1600 ×
    1000 screen): the corps at Brunswick and the four Prussian corps round Berlin crowd their
    cities, yet Brunswick, Magdeburg and Berlin are named, and no name shown lies under a
    flag."""
    view = view_of(qtbot, doc)
    view.resize(1600, 700)
    view.show()
    qtbot.waitExposed(view)
    view.theatres.setCurrentText(Theatre.NORTHERN_GERMANY.value)
    view.map_view.finish_building()
    view.fit_theatre()
    view.map_view.place_labels()
    scene, scale = view.map_scene, view.map_view.scale_now()
    flags = [m.flag_rect().translated(m.pos() * scale) for m in scene.markers.values()
             if m.isVisible()]
    shown = {name: item.text_rect().translated(item.pos() * scale)
             for name, item in scene.town_names.items() if item.isVisible()}
    assert {"Brunswick", "Magdeburg", "Berlin"} <= set(shown)
    assert [(name, i) for name, r in shown.items() for i, f in enumerate(flags)
            if r.intersects(f)] == []


def _names_shown(scene):
    """Each name's visibility and offset, and each flag's corner: the placement's outcome."""
    return ([(n.text, n.isVisible(), n.offset().x(), n.offset().y())
             for n in scene.names_layer.names],
            {k: (m.pos().x(), m.flag_rect().getRect()) for k, m in scene.markers.items()})


def test_a_zoom_gesture_places_the_names_once_it_ends_in_pieces_as_a_whole_placement(qtbot, doc):
    """Three wheel steps: the names wait for the gesture's end, are then placed a piece per
    turn of the event loop (no turn of it held long), and come out as one whole placement
    would put them."""
    view = view_of(qtbot, doc)
    mv, scene = view.map_view, view.map_scene
    steps = []
    placing = scene.labels_placing

    def counted(scale, frame=None, ratio=None):
        for step in placing(scale, frame, ratio):
            steps.append(step)
            yield step

    scene.labels_placing = counted
    for _ in range(3):
        mv.zoom_by(1.25)
        assert mv.labels_pending() and steps == []  # nothing placed during the gesture
    qtbot.waitUntil(lambda: not mv.labels_pending(), timeout=5000)
    assert len(steps) > 10  # a piece at a time
    pieces = _names_shown(scene)
    scene._placed = None  # noqa: SLF001 (place them all again at once, to compare)
    scene.place_labels(mv.scale_now(), mv.frame())
    assert _names_shown(scene) == pieces
