"""The main window: title, menus, New/Open round trip, recent files, refusals."""

import hashlib
import os
import shutil

import pytest
from PySide6.QtCore import QSettings

from campaign1813.campaign.store.document import create_campaign
from campaign1813.ui.battle_dialogs import PostponeDialog
from campaign1813.ui.main_window import APP_TITLE, MainWindow


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def window(qtbot, settings):
    w = MainWindow(settings)
    qtbot.addWidget(w)
    return w


def menu_titles(window):
    return [a.text() for a in window.menuBar().actions()]


def test_menus(window):
    assert menu_titles(window) == ["&File", "&Edit", "&Campaign", "&View", "&Battle", "&Help"]
    file_items = [a.text() for a in window.menus.file_menu.actions() if a.text()]
    assert file_items == ["&New Campaign…", "&Open…", "Open &Recent", "Open &Club Campaign…",
                          "Save &As…", "&Back Up…",
                          "Restore From Bac&kup…", "&Print Orders of Battle…",
                          "E&xport Orders of Battle…", "&Turn Packets…", "Export &History…",
                          "&Quit"]


def test_title_without_and_with_a_campaign(window, tmp_path, qtbot):
    assert window.windowTitle() == APP_TITLE
    assert not window.menus.save_as_action.isEnabled()
    with qtbot.waitSignal(window.document_changed):
        assert window.new_campaign(tmp_path / "spring")
    assert window.windowTitle() == f"The 1813 Campaign — 1 May 1813 — {APP_TITLE}"
    assert window.document.path == tmp_path / "spring.c1813"
    assert window.menus.save_as_action.isEnabled()
    assert window.campaign_view.heading.text() == "The 1813 Campaign — 1 May 1813"


def test_new_then_open_round_trip(window, tmp_path, qtbot):
    create_campaign(tmp_path / "other.c1813", name="Autumn 1813").close()
    window.new_campaign(tmp_path / "first.c1813")
    assert window.open_file(tmp_path / "other.c1813")
    assert window.windowTitle().startswith("Autumn 1813 — 1 May 1813")
    assert window.open_file(tmp_path / "first.c1813")
    assert window.windowTitle().startswith("The 1813 Campaign")


def test_recent_files_newest_first_and_in_the_menu(window, tmp_path, settings):
    for name in ("a", "b", "c"):
        window.new_campaign(tmp_path / name)
    window.open_file(tmp_path / "a.c1813")
    expected = [str((tmp_path / f"{n}.c1813").resolve()) for n in ("a", "c", "b")]
    assert window.menus.recent_files() == expected
    entries = [a.data() for a in window.menus.recent_menu.actions() if a.data()]
    assert entries == expected
    # kept in QSettings: a new window sees the same list
    assert MainWindow(settings).menus.recent_files() == expected


def test_recent_entry_opens_the_file(window, tmp_path):
    window.new_campaign(tmp_path / "a")
    window.new_campaign(tmp_path / "b")
    action = next(a for a in window.menus.recent_menu.actions()
                  if a.data() and a.data().endswith("a.c1813"))
    action.trigger()
    assert window.document.path.name == "a.c1813"


def test_bad_file_is_refused_with_a_message_and_untouched(window, tmp_path, qtbot):
    window.new_campaign(tmp_path / "good")
    bad = tmp_path / "bad.c1813"
    bad.write_bytes(b"not a campaign at all" * 10)
    before = hashlib.sha256(bad.read_bytes()).hexdigest()
    with qtbot.waitSignal(window.error_reported) as blocker:
        assert not window.open_file(bad)
    assert blocker.args == [f"Cannot open campaign: {bad}: is not a campaign file "
                            "(it is not an SQLite database)"]
    assert hashlib.sha256(bad.read_bytes()).hexdigest() == before
    assert window.document.path.name == "good.c1813"  # the open campaign stays


def test_save_as_continues_in_the_copy(window, tmp_path):
    window.new_campaign(tmp_path / "a")
    assert window.save_as(tmp_path / "copy")
    assert window.document.path == tmp_path / "copy.c1813"
    assert window.menus.recent_files()[0].endswith("copy.c1813")


def test_geometry_is_kept(qtbot, settings):
    w = MainWindow(settings)
    qtbot.addWidget(w)
    w.resize(700, 500)
    w.close()
    w2 = MainWindow(settings)
    qtbot.addWidget(w2)
    assert (w2.width(), w2.height()) == (700, 500)


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("action", ["new_campaign", "save_as", "back_up"])
def test_a_name_typed_without_the_suffix_asks_before_replacing(window, tmp_path, monkeypatch,
                                                              action):
    """'spring' typed in the dialog means spring.c1813: if that exists, he is asked first."""
    from PySide6.QtWidgets import QMessageBox

    window.new_campaign(tmp_path / "open.c1813")
    create_campaign(tmp_path / "spring.c1813", name="Precious").close()
    before = digest(tmp_path / "spring.c1813")
    asked = []

    def answer(_parent, _title, text, *_args):
        asked.append(text)
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", answer)
    assert not getattr(window, action)(tmp_path / "spring")
    assert asked == [f"spring.c1813 already exists in {tmp_path}.\nDo you want to replace it?"]
    assert digest(tmp_path / "spring.c1813") == before
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *_a: QMessageBox.StandardButton.Yes)
    assert getattr(window, action)(tmp_path / "spring")
    assert digest(tmp_path / "spring.c1813") != before


def test_new_campaign_never_replaces_the_campaign_open_now(window, tmp_path):
    window.new_campaign(tmp_path / "open.c1813")
    before = digest(tmp_path / "open.c1813")
    assert not window.new_campaign(tmp_path / "open.c1813", replace=True)
    assert digest(tmp_path / "open.c1813") == before


def test_the_window_follows_another_program_writing_its_file(window, tmp_path, qtbot):
    """The stale window once undid another process's march: it now reads the file again."""
    from campaign1813.campaign import services
    from campaign1813.campaign.store.document import open_campaign

    window.new_campaign(tmp_path / "shared.c1813")
    assert not window.check_for_changes()
    with open_campaign(tmp_path / "shared.c1813") as other:
        services.issue_order(other, "5 Corps", "Hold", "Magdeburg")
    assert window.check_for_changes()
    assert window.campaign.status.command("5 Corps").order == "5 Corps – Hold Magdeburg"
    assert window.undo_action.text() == "&Undo Order: 5 Corps – Hold Magdeburg"
    assert "changed in another window or program" in window.statusBar().currentMessage()
    assert not window.check_for_changes()  # nothing new since


def test_the_window_opens_again_a_file_replaced_on_disk(window, tmp_path, qtbot):
    """Another program writes a copy over the open campaign (``backup … --overwrite``): the
    window notices the file is another one, says so and shows it; its actions reach it."""
    from campaign1813.campaign import queries, services
    from campaign1813.campaign.store.document import open_campaign

    path = tmp_path / "shared.c1813"
    window.new_campaign(path)
    shutil.copy(path, tmp_path / "copy.c1813")
    with open_campaign(tmp_path / "copy.c1813") as other:
        services.issue_order(other, "5 Corps", "Hold", "Magdeburg")
    os.replace(tmp_path / "copy.c1813", path)  # as another program's --overwrite does
    with qtbot.waitSignal(window.error_reported) as blocker:
        assert window.check_for_changes()
    assert "was replaced on disk by another program" in blocker.args[0]
    assert window.campaign.status.command("5 Corps").order == "5 Corps – Hold Magdeburg"
    window.campaign.apply(services.issue_order(window.document, "4 Corps", "Hold", "Hamburg"))
    with open_campaign(path) as other:
        assert set(queries.day_state(other).orders) == {"4 Corps", "5 Corps"}
    assert not window.check_for_changes()


def test_the_window_closes_a_campaign_removed_on_disk(window, tmp_path, qtbot):
    path = tmp_path / "gone.c1813"
    window.new_campaign(path)
    path.unlink()
    with qtbot.waitSignal(window.error_reported) as blocker:
        assert window.check_for_changes()
    assert "was replaced or removed by another program" in blocker.args[0]
    assert window.document is None


def test_an_order_asked_for_on_the_map_goes_through_the_service_and_shows_on_the_pad(
        window, tmp_path, qtbot):
    """A town's Move / Attack / Hold here on the map is the pad's order: given through the
    service (undoable), or refused with the service's reason on the pad, the file unchanged."""
    from campaign1813.campaign import queries

    window.new_campaign(tmp_path / "war")
    before = queries.state_json(window.document)
    assert window.order_here("5 Corps", "Hold", "Burg") is None
    assert window.orders_panel.message.text() == \
        "5 Corps cannot hold at Burg: it stands at Magdeburg"
    assert queries.state_json(window.document) == before
    with qtbot.waitSignal(window.campaign_changed):
        assert window.order_here("5 Corps", "Move", "Burg") is not None
    assert queries.day_state(window.document).orders["5 Corps"].route == ("Burg",)
    assert window.orders_panel.message.text() == "Order: 5 Corps – Move Burg"
    assert window.orders_panel.command.currentText() == "5 Corps"
    assert window.undo_action.text() == "&Undo Order: 5 Corps – Move Burg"


def test_the_maps_order_signal_reaches_the_service_and_a_refusal_is_written_on_the_map(
        window, tmp_path, qtbot):
    """The map's Move / Attack / Hold here (its order_wanted signal) gives the order through
    the service; a refused one leaves its reason beside the town on the map and on the pad."""
    from campaign1813.campaign import queries

    window.new_campaign(tmp_path / "war")
    view = window.campaign_view
    view.map_view.finish_building()
    view.order_wanted.emit("5 Corps", "Hold", "Burg")
    assert " ".join(view.map_scene.note.text.split()) == ("Order refused 5 Corps cannot hold "
                                                          "at Burg: it stands at Magdeburg")
    assert window.orders_panel.message.text() == \
        "5 Corps cannot hold at Burg: it stands at Magdeburg"
    with qtbot.waitSignal(window.campaign_changed):
        view.order_wanted.emit("5 Corps", "Move", "Burg")
    assert queries.day_state(window.document).orders["5 Corps"].route == ("Burg",)
    assert view.map_scene.note is None


def test_the_route_preview_for_the_map_and_the_pad_is_the_campaigns(window, tmp_path):
    from campaign1813.campaign import queries

    assert window.preview_route("5 Corps", "Move", "Burg").refusal == "no campaign is open"
    window.new_campaign(tmp_path / "war")
    preview = window.preview_route("5 Corps", "Move", "Burg")
    assert preview == queries.route_preview(window.document, "5 Corps", "Move", "Burg")
    assert (preview.miles, preview.days, preview.arrival) == (16.5, 2, "2 May 1813, 09:12")


def test_the_objectives_and_the_battle_overrides_are_in_the_window(window, tmp_path):
    window.new_campaign(tmp_path / "war")
    assert [d.windowTitle() for d in window.tabifiedDockWidgets(window.report_dock)] == \
        ["Objectives"]
    assert window.objectives_panel.rows()[0] == (0, ("Northern Germany", "", ""))
    assert window.open_battle_dialog(1, PostponeDialog) is None  # no battle is due



def test_the_first_start_takes_most_of_the_screen():
    """No saved geometry: nine tenths of the screen's free area, never beyond it."""
    from PySide6.QtCore import QSize

    from campaign1813.ui.main_window import first_size

    assert first_size(QSize(1920, 1040)) == QSize(1728, 936)
    assert first_size(QSize(1366, 728)) == QSize(1229, 720)
    assert first_size(QSize(1024, 600)) == QSize(1024, 600)


def test_a_window_with_no_saved_geometry_fills_most_of_its_screen(window):
    from campaign1813.ui.main_window import first_size

    area = window.screen().availableGeometry()
    assert window.size() == first_size(area.size())


def test_a_window_with_no_saved_geometry_opens_in_the_middle_of_its_screen(window):
    """First start: the window, sized to most of the screen, stands in the middle of the
    screen's free area (not at its top-left corner)."""
    area = window.screen().availableGeometry()
    centre = window.frameGeometry().center()
    assert abs(centre.x() - area.center().x()) <= 1
    assert abs(centre.y() - area.center().y()) <= 1
    assert area.contains(window.frameGeometry())
