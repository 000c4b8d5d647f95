"""The window as each side (record 0025): View ▸ As the French / As the Allies / As the umpire,
the side's window built from its view alone and marked as the side's; an old sighting faded
with its date; the umpire's reports dialog, each act logged and undone."""

import pytest
from PySide6.QtCore import QSettings

from campaign1813.campaign import queries, services
from campaign1813.campaign.day.sideview import ForeignInput
from campaign1813.campaign.scenario.types import Side
from campaign1813.ui.main_window import MainWindow
from campaign1813.ui.side_window import FADED_OPACITY

from ..day.builders import new_campaign
from .canary import canary_scenario, leaks


def _window(qtbot, tmp_path, **settings):
    doc = new_campaign(tmp_path / "c.c1813", canary_scenario(**settings))
    path = doc.path
    doc.close()
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    assert w.open_file(path)
    return w


def _contact(w):
    """1 Corps (T1) and Zephyr Canary Corps (T12) march on each other, 15 miles a day each:
    110, 80, 50 and 20 miles apart on the evenings of 1 to 3 May, in contact on 4 May."""
    services.issue_order(w.document, "1 Corps", "Move", "T9")
    services.issue_order(w.document, "Zephyr Canary Corps", "Move", "T1")
    for _day in range(4):
        w.end_day()
        for battle in w.campaign.battles_due:
            w.record_result(battle.id, "draw")
            w.end_day()


def scene_text(window):
    """Every item's text and tooltip on the side's map."""
    return "\n".join(f"{m.spec.label}\n{m.spec.tooltip}\n{' '.join(m.spec.badges)}"
                     for m in window.scene.markers.values())


def test_the_view_menu_opens_each_sides_window_marked_as_theirs(qtbot, tmp_path):
    """As the French: a blue banner naming the French; the map holds their own flags and no
    Allied secret; As the umpire closes it."""
    w = _window(qtbot, tmp_path)
    w.menus.view_actions[Side.FRENCH].trigger()
    french = w.side_windows[Side.FRENCH]
    assert french.isVisible()
    assert french.banner.text().startswith("AS THE FRENCH: TEST, 1 MAY 1813")
    assert sorted(french.scene.markers) == ["1 Corps", "2 Corps", "Armée HQ"]
    state = queries.day_state(w.document)
    assert leaks(state, {"scene": scene_text(french)}) == []
    w.menus.view_actions[Side.ALLIED].trigger()
    allied = w.side_windows[Side.ALLIED]
    assert "Vexillum Canary Corps" in allied.scene.markers
    w.menus.view_actions[None].trigger()
    assert w.side_windows == {} and not french.isVisible()


def test_a_fresh_contact_and_an_old_report_faded_with_its_date(qtbot, tmp_path):
    """A contact shows the enemy on the side's map; two days on the same report is faded."""
    w = _window(qtbot, tmp_path)
    _contact(w)
    french = w.view_as(Side.FRENCH)
    fresh = [m for k, m in french.scene.markers.items() if k.startswith("report")]
    assert [m.spec.label for m in fresh] == ["Zephyr Canary Corps (seen 4 May)"]
    assert fresh[0].opacity() == 1.0
    state = queries.day_state(w.document)
    assert leaks(state, {"scene": scene_text(french)}) == []
    services.issue_order(w.document, "Zephyr Canary Corps", "Move", "East")
    services.issue_order(w.document, "1 Corps", "Hold", "T6")
    w.end_day()
    w.end_day()
    (old,) = [m for k, m in french.scene.markers.items() if k.startswith("report")]
    assert old.opacity() == FADED_OPACITY and old.spec.badges == ("old",)
    assert old.spec.label == "Zephyr Canary Corps (seen 4 May)"


def test_the_umpire_holds_back_a_report_and_undoes_it(qtbot, tmp_path):
    """Campaign ▸ Reports of the Enemy…: Hold Back takes a report from the French window; Edit
    ▸ Undo gives it back."""
    w = _window(qtbot, tmp_path)
    _contact(w)
    french = w.view_as(Side.FRENCH)
    w.menus.reports_action.trigger()
    dialog = w.reports_dialog
    assert dialog.isVisible() and dialog.table.rowCount() == 2
    row = next(r for r in range(2) if dialog.table.item(r, 1).text() == "French")
    dialog.table.selectRow(row)
    dialog.hold_button.click()
    assert dialog.table.item(row, 3).text() == "held back"
    assert not any(k.startswith("report") for k in french.scene.markers)
    assert w.undo().label == f"Undo Hold report {dialog.table.item(row, 0).text()}"
    assert any(k.startswith("report") for k in french.scene.markers)
    assert dialog.table.item(row, 3).text() == "released"


def test_file_turn_packets_writes_both_sides_packets_from_their_views(qtbot, tmp_path):
    """File ▸ Turn Packets…: eight files, four a side, the French ones free of Allied names."""
    w = _window(qtbot, tmp_path)
    assert w.menus.packets_action.isEnabled()
    written = w.write_turn_packets(tmp_path / "out")
    assert sorted(p.name for p in written) == [
        "allied-1813-05-01-orders.json", "allied-1813-05-01-orders.pdf",
        "allied-1813-05-01-situation.json", "allied-1813-05-01-situation.pdf",
        "french-1813-05-01-orders.json", "french-1813-05-01-orders.pdf",
        "french-1813-05-01-situation.json", "french-1813-05-01-situation.pdf"]
    french = (tmp_path / "out" / "french-1813-05-01-situation.json").read_text()
    assert "Canary" not in french
    assert "Vexillum Canary Corps" in (tmp_path / "out" /
                                       "allied-1813-05-01-situation.json").read_text()


def test_a_sides_window_refuses_the_other_sides_view(qtbot, tmp_path):
    """The French window never shows the Allies' view, even if handed it."""
    w = _window(qtbot, tmp_path)
    french = w.view_as(Side.FRENCH)
    with pytest.raises(ForeignInput, match="the French' window cannot show the Allies' view"):
        french.show_view(queries.side_view(w.document, Side.ALLIED))
    assert french.banner.text().startswith("AS THE FRENCH")


def test_a_sides_window_closed_by_hand_gives_the_view_menu_back_to_the_umpire(qtbot, tmp_path):
    """Closing the French window by hand lets it go, and the View menu says As the Umpire."""
    w = _window(qtbot, tmp_path)
    w.menus.view_actions[Side.FRENCH].trigger()
    french = w.side_windows[Side.FRENCH]
    assert w.menus.view_actions[Side.FRENCH].isChecked()
    french.close()
    assert w.side_windows == {}
    assert w.menus.view_actions[None].isChecked()
    w.menus.view_actions[Side.ALLIED].trigger()  # and it opens again as asked
    assert w.side_windows[Side.ALLIED].isVisible()
