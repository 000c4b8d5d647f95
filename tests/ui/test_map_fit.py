"""The map's ground, projection and Fit in the window: every town on land drawn past a
theatre's box, each theatre true east-west at its latitude, and Fit showing the whole of
what it shows (towns, their names, flags) inside the map at the window's usual sizes."""

import math

import pytest
from PySide6.QtCore import QPointF, QRectF

from campaign1813.campaign.store.document import open_campaign
from campaign1813.maps.land import rings_box
from campaign1813.maps.prebuilt import land_outline
from campaign1813.maps.types import Theatre
from campaign1813.ui.map.scene import OPEN_SEA_WEST
from campaign1813.ui.map.view import FIT_MARGIN_MILES, WHOLE_MAP, CampaignView
from campaign1813.ui.open_campaign import OpenCampaign

KEYS = (WHOLE_MAP, *(t.value for t in Theatre))
# the map's part of the main window at first start (1920 × 1080 and 1366 × 768 screens),
# with the table beside it: the view is given about the room it has there
MAP_SIZES = {"1920x1080": (1270, 740), "1366x768": (800, 430)}


@pytest.fixture(scope="module")
def shared_doc(tmp_path_factory, campaign_template):
    import shutil

    path = tmp_path_factory.mktemp("fit") / "c.c1813"
    shutil.copyfile(campaign_template, path)
    d = open_campaign(path)
    yield d
    d.close()


def _view(qtbot, doc, size=(1270, 740)) -> CampaignView:
    campaign = OpenCampaign()
    view = CampaignView(campaign)
    qtbot.addWidget(view)
    view.table.hide()  # the map alone, at the size given
    view.map_view.setFixedSize(*size)
    campaign.open(doc)
    view.resize(size[0] + 40, size[1] + 120)
    view.show()
    qtbot.waitExposed(view)
    qtbot.waitUntil(lambda: view.map_view.size().height() == size[1], timeout=3000)
    view.map_view.finish_building()
    return view


def _pixels_per_degree(view, lat, lon):
    """How many pixels one degree east and one degree north span in the map, at a point."""
    scene, to_screen = view.map_scene, view.map_view.viewportTransform()
    here = to_screen.map(scene.point(lat, lon))
    east = to_screen.map(scene.point(lat, lon + 1.0))
    north = to_screen.map(scene.point(lat + 1.0, lon))
    return abs(east.x() - here.x()), abs(north.y() - here.y())


@pytest.mark.parametrize("theatre", list(Theatre))
def test_each_theatres_map_is_true_to_its_latitude_in_the_window(qtbot, shared_doc, theatre):
    """In the window, a degree of longitude at the theatre's centre is cos(latitude) of a
    degree of latitude, within 1 % (the whole map's projection, taken near 46° N, drew
    Northern Germany some 14 % too wide)."""
    view = _view(qtbot, shared_doc)
    view.theatres.setCurrentText(theatre.value)
    view.fit_theatre()
    mv = view.map_view
    centre = mv.mapToScene(mv.viewport().rect().center())
    lat, lon = view.map_scene.projection.unproject(
        centre.x() / view.map_scene.projection.miles_per_unit,
        centre.y() / view.map_scene.projection.miles_per_unit)
    towns = [t for t in view.map_scene.towns.values() if t.theatre == theatre]
    assert min(t.lat for t in towns) < lat < max(t.lat for t in towns)
    wide, tall = _pixels_per_degree(view, lat, lon)
    assert tall > 20
    assert wide / tall == pytest.approx(math.cos(math.radians(lat)), rel=0.01)


def _outside(view, rect_of_pixels: QRectF) -> bool:
    port = QRectF(view.map_view.viewport().rect())
    return not port.contains(rect_of_pixels)


def _shown_outside(view, theatre):
    """The towns of what Fit shows (the theatre's, or all of them) whose sign or name, the
    flags standing in it and the theatres' names shown, that are not wholly inside the map."""
    scene, mv = view.map_scene, view.map_view
    scale = mv.scale_now()
    origin = mv.mapFromScene(QPointF(0, 0))

    def on_screen(r: QRectF) -> QRectF:  # pixels from the scene's origin to the viewport's
        return r.translated(origin.x(), origin.y())

    bad = []
    for town in scene.towns.values():
        if theatre is not None and town.theatre != theatre:
            continue
        c = scene.town_point(town.name) * scale
        sign = QRectF(c.x() - 3, c.y() - 3, 6, 6)
        if _outside(view, on_screen(sign)):
            bad.append(f"{town.name}'s sign")
        name = scene.town_names[town.name]
        if name.isVisible() and _outside(view, on_screen(name.text_rect().translated(c))):
            bad.append(f"{town.name}'s name")
    for item in scene.theatre_names:
        if item.isVisible() and _outside(
                view, on_screen(item.text_rect().translated(item.pos() * scale))):
            bad.append(f"the theatre name {item.text}")
    for key, marker in scene.markers.items():
        if marker.isVisible() and _outside(
                view, on_screen(marker.flag_rect().translated(marker.pos() * scale))):
            bad.append(f"{key}'s flag")
    return bad


@pytest.mark.parametrize("screen", sorted(MAP_SIZES))
@pytest.mark.parametrize("key", KEYS)
def test_fit_shows_every_town_its_name_and_every_flag_inside_the_map(qtbot, shared_doc,
                                                                      key, screen):
    """Fit theatre, on the whole map and on each theatre, at the map's size on a 1920 × 1080
    and a 1366 × 768 screen: no town's sign or name of what it shows, nor a flag, lies
    outside the map, nor a theatre's name (on the whole map Lübeck's name and the Prussians'
    flags at the top, and Gibraltar's name at the foot, were cut; on Northern Germany's,
    Frankfurt an der Oder's name)."""
    view = _view(qtbot, shared_doc, MAP_SIZES[screen])
    view.theatres.setCurrentText(key)
    view.map_view.finish_building()
    view.map_view.zoom_by(3.0)  # Fit from anywhere
    view.fit_button.click()
    view.map_view.place_labels()  # the names placed (in pieces, in the window) and measured
    theatre = view.theatre()
    assert _shown_outside(view, theatre) == []
    shown = view.map_view.mapToScene(view.map_view.viewport().rect()).boundingRect()
    assert shown.contains(view.map_scene.theatre_rect(theatre, FIT_MARGIN_MILES))
    named = [t for t in view.map_scene.towns.values()
             if (theatre is None or t.theatre == theatre)
             and view.map_scene.town_names[t.name].isVisible()]
    assert named  # the names are placed, and measured, not absent
    # a theatre's name is shown whole or not at all ("SOUTHERN … AUSTRIA" without its middle
    # line, cut at the edge of the map of France, read as another name)
    lines: dict[tuple[float, float], set[bool]] = {}
    for item in view.map_scene.theatre_names:
        lines.setdefault((item.pos().x(), item.pos().y()), set()).add(item.isVisible())
    assert all(len(shown) == 1 for shown in lines.values())


def test_fit_on_the_whole_map_changes_a_zoomed_view_and_keeps_a_margin(qtbot, shared_doc):
    """Fit theatre on the whole map does something: from a zoomed view it shows the whole
    ground, with the outermost name at least the margin from the map's edge."""
    from campaign1813.ui.map.view import FIT_MARGIN_PX

    view = _view(qtbot, shared_doc)
    mv = view.map_view
    mv.zoom_by(4.0)
    before = mv.scale_now()
    view.fit_button.click()
    view.map_view.place_labels()  # the names placed (in pieces, in the window) and measured
    assert mv.scale_now() < before / 3
    scene, scale = view.map_scene, mv.scale_now()
    box = scene.shown_box(scene.theatre_rect(None, FIT_MARGIN_MILES), scale)
    origin = mv.mapFromScene(QPointF(0, 0))
    box.translate(origin.x(), origin.y())
    port = QRectF(mv.viewport().rect())
    assert box.left() >= FIT_MARGIN_PX - 1 or box.right() <= port.width() - FIT_MARGIN_PX + 1
    assert box.top() >= FIT_MARGIN_PX - 1.5 and box.bottom() <= port.height() - FIT_MARGIN_PX + 1.5


@pytest.mark.parametrize("key", KEYS)
def test_the_ground_reaches_every_town_of_every_map(qtbot, shared_doc, key):
    """A theatre's map draws the land and sea as far as the outline knows them, not only its
    own box: Würzburg and Bamberg on the map of France, Brussels and Lille on Northern
    Germany's, stand on drawn ground."""
    view = _view(qtbot, shared_doc, (600, 400))
    view.theatres.setCurrentText(key)
    scene = view.map_scene
    south, west, north, east = rings_box(land_outline())
    drawn = scene.layers[0].boundingRect()
    assert drawn.contains(QRectF(scene.point(north, west), scene.point(south, east)))
    for town in scene.towns.values():
        assert drawn.contains(scene.town_point(town.name)), town.name
    # west of the outline only the Atlantic: drawn as sea far out, no neat line off Portugal
    assert drawn.contains(scene.point(45.0, OPEN_SEA_WEST))


def test_fit_measures_in_the_event_loop_without_holding_the_window(qtbot, shared_doc):
    """In the window the names are placed a piece per turn of the event loop; Fit measures
    them once placed and scales again if needed, in the same pieces: once they are all placed
    nothing of the whole map lies outside the map."""
    view = _view(qtbot, shared_doc, MAP_SIZES["1366x768"])
    mv = view.map_view
    mv.zoom_by(3.0)
    view.fit_button.click()
    assert mv.labels_pending()
    qtbot.waitUntil(lambda: not mv.labels_pending(), timeout=10_000)
    assert _shown_outside(view, None) == []
