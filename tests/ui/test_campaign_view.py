"""The campaign view: the commands' table and the flags on the map follow the campaign file,
and an action refreshes only what it changed."""

import pytest
from PySide6.QtCore import QSettings

from campaign1813.campaign import queries, services
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.document import open_campaign
from campaign1813.maps.types import Theatre
from campaign1813.ui.main_window import MainWindow
from campaign1813.ui.map.items import CommandMarker
from campaign1813.ui.map.scene import MapScene
from campaign1813.ui.map.view import CampaignView, CommandsTable
from campaign1813.ui.open_campaign import OpenCampaign
from tests.ui.conftest import find_table_item, table_row


@pytest.fixture
def doc(tmp_path, fresh_campaign):
    d = open_campaign(fresh_campaign(tmp_path / "c.c1813"))
    yield d
    d.close()


def view_of(qtbot, doc) -> CampaignView:
    campaign = OpenCampaign()
    view = CampaignView(campaign)
    qtbot.addWidget(view)
    campaign.open(doc)
    return view


def test_the_table_lists_every_army_group_and_command(qtbot, doc):
    view = view_of(qtbot, doc)
    top = [view.table.topLevelItem(i) for i in range(view.table.topLevelItemCount())]
    assert len(top) == 10
    assert sum(item.childCount() for item in top) == 50  # 10 HQs and 40 corps
    davout = top[0]
    assert davout.text(0) == "Second French Army"
    rows = [[davout.child(i).text(c) for c in range(4)] for i in range(davout.childCount())]
    assert rows[1] == ["4 Corps", "Hamburg", "ready", "no orders"]
    assert rows[4][:2] == ["13 Polish Corps", "Brunswick"]


def test_choosing_a_theatre_shows_its_two_army_groups(qtbot, doc):
    view = view_of(qtbot, doc)
    with qtbot.waitSignal(view.theatre_changed):
        view.theatres.setCurrentText(Theatre.EASTERN_SPAIN.value)
    names = [view.table.topLevelItem(i).text(0) for i in range(view.table.topLevelItemCount())]
    assert len(names) == 2
    assert all(view.table.topLevelItem(i).text(1) == "Eastern Spain" for i in range(2))


def test_an_order_given_elsewhere_shows_when_the_file_is_read(qtbot, doc):
    services.issue_order(doc, "5 Corps", "Move", "Helmstedt")
    view = view_of(qtbot, doc)
    davout = view.table.topLevelItem(0)
    assert davout.child(2).text(3) == "5 Corps – Move Helmstedt"


def test_the_changes_of_an_action_update_the_view(qtbot, doc):
    view = view_of(qtbot, doc)
    view.campaign.apply(services.issue_order(doc, "5 Corps", "Move", "Helmstedt"))
    assert view.table.topLevelItem(0).child(2).text(3) == "5 Corps – Move Helmstedt"


def test_each_command_has_its_own_flag_stacked_at_its_town(qtbot, doc):
    view = view_of(qtbot, doc)
    view.theatres.setCurrentText(Theatre.NORTHERN_GERMANY.value)
    markers = view.map_scene.markers
    assert len(markers) == 10  # 2 HQs and 8 corps of the theatre
    hamburg = [m for m in markers.values() if m.spec.a == "Hamburg"]
    # the HQ flies its CinC's name and a pennant, above it 4 Corps by its number
    assert [(m.spec.label, m.spec.hq, m.slot) for m in sorted(hamburg, key=lambda m: m.slot)] \
        == [("Davout", True, 0), ("4", False, 1)]
    assert markers["I Prussian Corps"].spec.label == "I Prussian"
    assert markers["I Prussian Corps"].spec.side is Side.ALLIED
    assert markers["I Prussian Corps"].spec.colour == "#2b2b33"  # Prussian, not Allied red
    assert markers["5 Corps"].pos() == view.map_scene.town_point("Magdeburg")


def test_the_window_remembers_the_theatre_shown(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings)
    qtbot.addWidget(w)
    w.campaign_view.theatres.setCurrentText("Western Spain")
    w2 = MainWindow(settings)
    qtbot.addWidget(w2)
    assert w2.campaign_view.theatre() is Theatre.WESTERN_SPAIN


def test_the_battle_menu_lists_the_battles_due(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings)
    qtbot.addWidget(w)
    w.new_campaign(tmp_path / "war")
    assert w.menus.battles_due() == []
    services.issue_order(w.document, "5 Corps", "Hold", "Magdeburg")
    services.issue_order(w.document, "I Prussian Corps", "Attack", "Magdeburg")
    for _ in range(10):
        services.end_day(w.document)
        if queries.campaign_status(w.document).battles:
            break
    w.open_file(w.document.path)
    due = w.menus.battles_due()
    assert len(due) == 1 and due[0].endswith("5 Corps against I Prussian Corps")
    texts = [a.text() for a in w.menus.battle_menu.actions()]
    assert texts[1] == due[0]


# ----- an action refreshes only what it changed -------------------------------------------


def all_rows(window) -> dict:
    table = window.campaign_view.table
    return {table.topLevelItem(i).child(j).text(0): table.topLevelItem(i).child(j)
            for i in range(table.topLevelItemCount())
            for j in range(table.topLevelItem(i).childCount())}


def give(window, command, verb, town):
    window.orders_panel.select_command(command)
    window.orders_panel.verb.setCurrentText(verb)
    window.orders_panel.objective.setEditText(town)
    window.orders_panel.give_button.click()


def test_an_order_rewrites_only_that_commands_row(window, monkeypatch):
    rows = all_rows(window)
    texts = {name: [item.text(c) for c in range(4)] for name, item in rows.items()}
    filled, full_reads = [], []
    fill = CommandsTable._fill
    monkeypatch.setattr(CommandsTable, "_fill",
                        staticmethod(lambda row, c: (filled.append(c.name), fill(row, c))))
    whole = queries.status_of
    monkeypatch.setattr(queries, "status_of",
                        lambda *args: (full_reads.append(args), whole(*args))[1])
    give(window, "5 Corps", "Move", "Helmstedt")
    assert filled == ["5 Corps"]
    assert full_reads == []  # the one command was read, not the whole campaign
    after = all_rows(window)
    assert all(after[name] is item for name, item in rows.items())  # no row was rebuilt
    assert table_row(window, "5 Corps")[3] == "5 Corps – Move Helmstedt"
    for name, cells in texts.items():
        if name != "5 Corps":
            assert table_row(window, name) == cells


def test_an_order_redraws_only_that_commands_flag_and_arrow(window, monkeypatch):
    view = window.campaign_view
    view.map_view.finish_building()
    scene = view.map_scene
    layers, items = list(scene.layers), dict(scene.markers)
    redrawn, rebuilt, titled = [], [], []
    set_spec = CommandMarker.set_spec
    monkeypatch.setattr(CommandMarker, "set_spec",
                        lambda self, spec: (redrawn.append(spec.key), set_spec(self, spec)))
    monkeypatch.setattr(MapScene, "build_step", lambda self: rebuilt.append(1) or False)
    monkeypatch.setattr(window.menus, "rebuild_battle_menu", lambda: rebuilt.append(1))
    monkeypatch.setattr(window, "_show_title", lambda: titled.append(1))
    heading = view.heading.text()
    give(window, "5 Corps", "Move", "Helmstedt")
    assert redrawn == ["5 Corps"]  # its tooltip tells the new order
    assert list(scene.orders) == ["5 Corps"]
    assert scene.orders["5 Corps"].points[-1] == scene.town_point("Helmstedt")
    window.undo()
    assert scene.orders == {}
    window.redo()
    assert set(redrawn) == {"5 Corps"}
    assert rebuilt == [] and titled == []
    assert scene.layers == layers and scene.markers == items  # nothing built again
    assert view.heading.text() == heading


def test_a_march_moves_the_flags_and_the_date(window):
    view = window.campaign_view
    scene = view.map_scene
    items = dict(scene.markers)
    give(window, "5 Corps", "Move", "Helmstedt")
    changes = window.end_day()
    assert "5 Corps" in changes.positions
    c = window.campaign.status.command("5 Corps")
    assert c.position.b is not None  # on the road after one day's march
    assert scene.markers["5 Corps"].pos() == scene.place_point(c.position.a, c.position.b,
                                                               c.position.miles)
    assert scene.markers == items  # the same flags, moved
    assert "2 May 1813" in view.heading.text() and "2 May 1813" in window.windowTitle()
    assert find_table_item(window, "5 Corps").text(1) != "Magdeburg"


def test_end_day_reads_the_campaign_state_once_in_the_window(window, monkeypatch):
    """The day's march is applied by the services; the window then reads the state once: the
    campaign at a glance, the order arrows (from the commands' views) and the order pad's
    preview are all made from that read."""
    from campaign1813.campaign.store.work import FileReader

    reads = []
    state = FileReader.state
    monkeypatch.setattr(FileReader, "state", lambda self: (reads.append(1), state(self))[1])
    scene = window.campaign_view.map_scene
    give(window, "5 Corps", "Move", "Helmstedt")
    reads.clear()
    window.end_day()
    assert len(reads) == 1
    c = window.campaign.status.command("5 Corps")
    assert c.route[-1] == "Helmstedt"
    arrow = scene.orders["5 Corps"].points
    assert arrow[0] == scene.place_point(c.position.a, c.position.b, c.position.miles)
    assert arrow[-1] == scene.town_point("Helmstedt")
    pad = window.orders_panel
    assert pad.request().command == "5 Corps" and pad.preview is not None
    assert pad.preview == queries.route_preview(window.document, "5 Corps", "Move", "Helmstedt")



def test_the_picture_cache_holds_every_cached_layer_of_the_map_shown(qtbot, monkeypatch):
    """Qt keeps each cached layer of the map (ground, towns, rings, stars, supply) as a picture
    of the part shown; its cache (10 MB by default) is made room for all of them at the map's
    size, and never made smaller."""
    from PySide6.QtGui import QPixmapCache

    from campaign1813.ui.map.view import CACHED_LAYERS, FLAGS_ROOM_KB, room_for_layers

    limits = [10240]
    monkeypatch.setattr(QPixmapCache, "cacheLimit", lambda: limits[-1])
    monkeypatch.setattr(QPixmapCache, "setCacheLimit", limits.append)
    room_for_layers(1250, 805, 1.0)  # the map of a 1900x1150 window
    assert limits == [10240, 1250 * 805 * 4 * CACHED_LAYERS // 1024 + FLAGS_ROOM_KB]  # 21,701
    room_for_layers(600, 400, 1.0)  # room for these already
    room_for_layers(800, 500, 2.0)  # a screen of twice the pixels
    assert limits[2:] == [800 * 500 * 4 * 4 * CACHED_LAYERS // 1024 + FLAGS_ROOM_KB]
