"""Drawing the road map: pixels where rivers, roads and flags should be, and the map pictures."""

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage

from campaign1813.campaign.scenario.types import Side
from campaign1813.maps.geometry import Projection
from campaign1813.maps.tools.map_toml import read_map
from campaign1813.maps.types import (
    Crossing,
    MapData,
    River,
    Road,
    RoadClass,
    Theatre,
    Town,
    TownKind,
)
from campaign1813.ui.map.render import Marker, render_map, theatre_bounds
from campaign1813.ui.map.scene import MapScene
from tools import map_pictures


def _town(name, lat, lon, kind=TownKind.TOWN, river=None):
    return Town(name, lat, lon, Theatre.NORTHERN_GERMANY, kind, True, river=river)


# Two towns either side of a north-south river, joined by a main road with a bridge, and a
# village to the north; the river runs well beyond the road so that some of it stands alone.
SMALL = MapData(
    towns=(_town("Westdorf", 52.0, 10.0), _town("Ostburg", 52.0, 10.4, TownKind.FORTRESS),
           _town("Nordheim", 52.4, 10.2, TownKind.VILLAGE)),
    roads=(Road("Westdorf", "Ostburg", 20.0, RoadClass.MAIN, "Elbe", Crossing.BRIDGE),
           Road("Westdorf", "Nordheim", 25.0, RoadClass.TRACK)),
    rivers=(River("Elbe", ((51.5, 10.2), (52.3, 10.2))),),
)


def _pixels_at(image: QImage, view_box, lat: float, lon: float, reach: int = 2) -> list[QColor]:
    """The colours drawn within ``reach`` pixels of (lat, lon), by the renderer's layout rule."""
    width = image.width()
    projection = Projection(view_box)
    pad = round(width * 0.025)
    head = round(width * 0.045)
    scale = (width - 2 * pad) / projection.width
    x, y = projection.project(lat, lon)
    px, py = round(pad + x * scale), round(head + y * scale)
    return [image.pixelColor(px + dx, py + dy)
            for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)]


def test_a_river_is_drawn_blue(qapp):
    image = render_map(SMALL, width=2400, margin_miles=20)
    box = theatre_bounds(SMALL, None, 20)
    colours = _pixels_at(image, box, 51.8, 10.2)
    assert any(c.name() == "#2f6db5" for c in colours)
    # Well off the river the land shows, not blue.
    assert not any(c.blue() > c.red() + 60 for c in _pixels_at(image, box, 51.8, 10.05))


def test_a_main_road_is_drawn_red_brown_and_land_is_pale(qapp):
    image = render_map(SMALL, width=2400, margin_miles=20)
    box = theatre_bounds(SMALL, None, 20)
    assert any(c.name() == "#a3321c" for c in _pixels_at(image, box, 52.0, 10.1))
    land = _pixels_at(image, box, 51.85, 10.05, reach=0)[0]
    assert land.name() == "#f3ecd6"


def test_the_sea_is_drawn_where_there_is_no_land(qapp):
    shipped = read_map()
    image = render_map(shipped, width=900)
    box = theatre_bounds(shipped, None, 40.0)
    # The Bay of Biscay, west of Bordeaux.
    sea = _pixels_at(image, box, 45.0, -3.5, reach=0)[0]
    assert sea.name() == "#c5d8e0"


def test_markers_fly_their_side_colours(qapp):
    markers = [Marker("Westdorf", "5 Corps", Side.FRENCH), Marker("Ostburg", "I Corps",
                                                                  Side.ALLIED)]
    image = render_map(SMALL, width=1600, margin_miles=20, markers=markers)
    french = allied = 0
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            c = image.pixelColor(x, y).name()
            french += c == "#1f4fbf"
            allied += c == "#c0282d"
    assert french > 50 and allied > 50
    plain = render_map(SMALL, width=1600, margin_miles=20)
    assert plain != image


def test_a_marker_at_an_unknown_town_is_refused(qapp):
    with pytest.raises(ValueError, match="Atlantis"):
        render_map(SMALL, markers=[Marker("Atlantis", "1 Corps", Side.FRENCH)])


def test_a_too_small_picture_is_refused(qapp):
    with pytest.raises(ValueError, match="too small"):
        render_map(SMALL, width=50)


def test_one_theatre_is_drawn_to_its_own_shape(qapp):
    shipped = read_map()
    whole = render_map(shipped, width=1000)
    spain = render_map(shipped, theatre=Theatre.WESTERN_SPAIN, width=1000)
    north = render_map(shipped, theatre=Theatre.NORTHERN_GERMANY, width=1000)
    assert whole.width() == spain.width() == north.width() == 1000
    # Western Spain runs from Santander to Gibraltar, taller than wide; the north is wide.
    assert spain.height() > 1000 > north.height()


def test_the_pictures_are_written_for_the_whole_map_and_each_theatre(qapp, tmp_path):
    written = map_pictures.write_pictures(tmp_path, read_map(), width=600)
    names = sorted(p.name for p in written)
    assert names == sorted(["whole-map.png", "northern-germany.png", "central-germany.png",
                            "southern-germany-and-austria.png", "eastern-spain.png",
                            "western-spain.png", "france.png"])
    for path in written:
        assert QImage(str(path)).width() == 600


def test_the_command_line_wants_one_folder(capsys):
    assert map_pictures.main([]) == 2
    assert "usage" in capsys.readouterr().err


def _corps(name, start):
    from campaign1813.campaign.scenario.types import (
        Artillery,
        CavalryBrigade,
        CavalryType,
        Commander,
        Corps,
        Grade,
        InfantryBrigade,
        Rating,
    )

    brigade = InfantryBrigade(1, Rating.B, Rating.B, Rating.B)
    return Corps(name, "Second French Army", "French", Commander("General", Grade.AVERAGE), start,
                 (brigade,) * 4, CavalryBrigade(5, Rating.B, CavalryType.LIGHT),
                 Artillery(Rating.B, 8))


def test_starting_positions_come_from_the_army_groups():
    from campaign1813.campaign.scenario.types import ArmyGroup, Commander, Grade, Scenario

    army = ArmyGroup("Second French Army", Side.FRENCH, Theatre.NORTHERN_GERMANY,
                     Commander("Marshal Davout", Grade.GIFTED), "Magdeburg",
                     Commander("General Reserve", Grade.POOR),
                     (_corps("4 Corps", "Hamburg"), _corps("5 Corps", "Magdeburg")))
    scenario = Scenario("1813", SMALL, (army,))
    markers = map_pictures.starting_markers(scenario)
    assert markers == [Marker("Magdeburg", "Davout HQ", Side.FRENCH),
                       Marker("Hamburg", "4 Corps", Side.FRENCH),
                       Marker("Magdeburg", "5 Corps", Side.FRENCH)]
    assert map_pictures.starting_markers(scenario, hq_only=True) == markers[:1]
    assert map_pictures.starting_markers(None) == []


def test_the_shipped_map_loads_with_or_without_its_orders_of_battle():
    map_data, scenario, reason = map_pictures.load_shipped()
    assert len(map_data.towns) >= 150
    assert (scenario is None) == (reason is not None)
    if scenario is not None:
        towns = {t.name for t in map_data.towns}
        assert {m.town for m in map_pictures.starting_markers(scenario)} <= towns



def test_the_theatres_names_lie_clear_of_the_towns_on_the_whole_map(qapp):
    """On the printed whole map each theatre's name is put near its point where it covers no
    town's sign and no town's name, inside the frame: all six are shown, and clear."""
    map_data, _, _ = map_pictures.load_shipped()
    scene = MapScene(map_data, theatre_bounds(map_data, None, 40.0))
    scene.build()
    source = scene.ground_rect
    scale = 2280 / source.width()  # as render_map draws it 2400 pixels wide
    scene.place_labels(scale, source)
    frame = QRectF(source.left() * scale, source.top() * scale, source.width() * scale,
                   source.height() * scale)
    names = [n.text_rect().translated(n.pos() * scale) for n in scene.names_layer.names
             if n.isVisible()]
    signs = [scene.town_point(t.name) * scale for t in map_data.towns]
    shown = [item for item in scene.theatre_names if item.isVisible()]
    assert {item.text for item in shown} == {item.text for item in scene.theatre_names}
    assert len({(item.pos().x(), item.pos().y()) for item in shown}) == len(Theatre)
    for item in shown:
        r = item.text_rect().translated(item.pos() * scale)
        assert frame.contains(r), item.text
        assert not any(r.intersects(name) for name in names), item.text
        assert not any(r.contains(sign) for sign in signs), item.text


def test_a_picture_draws_every_cached_layer_afresh_and_leaves_the_window_its_cache(qapp,
                                                                                  monkeypatch):
    """A printed picture draws each layer a window caches (ground, towns, rings, stars,
    supply) without Qt's cache, which would be made whole at the picture's scale; after it,
    each is cached again as before. The window makes room for as many in Qt's cache."""
    from PySide6.QtGui import QPainter
    from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

    from campaign1813.ui.map.render import paint_picture
    from campaign1813.ui.map.view import CACHED_LAYERS

    scene = MapScene(SMALL)
    scene.build()
    layers = scene.cached_layers()
    assert len(layers) == CACHED_LAYERS
    cache = QGraphicsItem.CacheMode.DeviceCoordinateCache
    assert all(layer.cacheMode() is cache for layer in layers)
    modes: list[list[QGraphicsItem.CacheMode]] = []
    render = QGraphicsScene.render
    monkeypatch.setattr(MapScene, "render", lambda self, *a: (
        modes.append([layer.cacheMode() for layer in layers]), render(self, *a))[1])
    image = QImage(400, 300, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        paint_picture(painter, scene, QRectF(10, 10, 380, 260), scene.ground_rect, 0.5, "t")
    finally:
        painter.end()
    assert modes == [[QGraphicsItem.CacheMode.NoCache] * CACHED_LAYERS]
    assert all(layer.cacheMode() is cache for layer in layers)
