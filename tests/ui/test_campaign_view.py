"""The campaign view: the commands' table and the flags on the map follow the campaign file."""

import pytest
from PySide6.QtCore import QSettings

from campaign1813.campaign import commands as services
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.document import create_campaign
from campaign1813.maps.types import Theatre
from campaign1813.ui.campaign_view import (
    CampaignView,
    command_markers,
    marker_town,
    read_snapshot,
)
from campaign1813.ui.main_window import MainWindow


@pytest.fixture
def doc(tmp_path):
    d = create_campaign(tmp_path / "c.c1813")
    yield d
    d.close()


def test_the_table_lists_every_army_group_and_command(qtbot, doc):
    view = CampaignView()
    qtbot.addWidget(view)
    view.show_document(doc)
    top = [view.table.topLevelItem(i) for i in range(view.table.topLevelItemCount())]
    assert len(top) == 10
    assert sum(item.childCount() for item in top) == 50  # 10 HQs and 40 corps
    davout = top[0]
    assert davout.text(0) == "Second French Army"
    rows = [[davout.child(i).text(c) for c in range(4)] for i in range(davout.childCount())]
    assert rows[1] == ["4 Corps", "Hamburg", "ready", "no orders"]
    assert rows[4][:2] == ["13 Polish Corps", "Brunswick"]


def test_choosing_a_theatre_shows_its_two_army_groups(qtbot, doc):
    view = CampaignView()
    qtbot.addWidget(view)
    view.show_document(doc)
    with qtbot.waitSignal(view.theatre_changed):
        view.theatres.setCurrentText(Theatre.EASTERN_SPAIN.value)
    names = [view.table.topLevelItem(i).text(0) for i in range(view.table.topLevelItemCount())]
    assert len(names) == 2
    assert all(view.table.topLevelItem(i).text(1) == "Eastern Spain" for i in range(2))


def test_an_order_shows_in_the_table_after_refresh(qtbot, doc):
    with doc.session() as session:
        services.issue_order(session, "5 Corps", "Move", "Helmstedt")
    view = CampaignView()
    qtbot.addWidget(view)
    view.show_document(doc)
    davout = view.table.topLevelItem(0)
    assert davout.child(2).text(3) == "5 Corps – Move Helmstedt"


def test_flags_stand_at_the_nearer_end_of_a_road():
    miles = {frozenset(("Magdeburg", "Helmstedt")): 30.0}
    assert marker_town(["Magdeburg"], miles) == "Magdeburg"
    assert marker_town(["Helmstedt", "Magdeburg", 14.0], miles) == "Helmstedt"
    assert marker_town(["Helmstedt", "Magdeburg", 16.0], miles) == "Magdeburg"


def test_one_flag_per_town_and_side(doc):
    markers = command_markers(read_snapshot(doc), Theatre.NORTHERN_GERMANY)
    by_town = {(m.town, m.side): m.label for m in markers}
    assert by_town[("Hamburg", Side.FRENCH)] == "Second French Army HQ, 4"
    assert by_town[("Berlin", Side.ALLIED)] == "Prussian Army HQ, I Prussian"
    assert len(markers) == 8


def test_the_window_remembers_the_theatre_shown(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings)
    qtbot.addWidget(w)
    w.campaign_view.theatres.setCurrentText("Western Spain")
    w2 = MainWindow(settings)
    qtbot.addWidget(w2)
    assert w2.campaign_view.theatre() is Theatre.WESTERN_SPAIN


def test_the_battle_menu_lists_the_battles_due(qtbot, tmp_path):
    from campaign1813.campaign.day.cycle import end_day
    from campaign1813.campaign.day.state import load_state

    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings)
    qtbot.addWidget(w)
    w.new_campaign(tmp_path / "war")
    assert w.battles_due() == []
    with w.document.session() as session:
        services.issue_order(session, "5 Corps", "Hold", "Magdeburg")
        services.issue_order(session, "I Prussian Corps", "Attack", "Magdeburg")
    for _ in range(10):
        with w.document.session() as session:
            end_day(session)
            if load_state(session).battles:
                break
    w.open_file(w.document.path)
    due = w.battles_due()
    assert len(due) == 1 and due[0].endswith("5 Corps against I Prussian Corps")
    w._rebuild_battle_menu()
    texts = [a.text() for a in w.battle_menu.actions()]
    assert texts[1] == due[0]
