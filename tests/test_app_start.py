"""First start: the default campaign is created in the user's data folder and opened."""

from PySide6.QtCore import QSettings

from campaign1813.ui.app import choose_startup_file, default_campaign_path
from campaign1813.ui.main_window import MainWindow


def make_window(qtbot, tmp_path):
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    return w


def test_first_start_creates_the_default_campaign(qtbot, tmp_path, _isolated_home):
    path = default_campaign_path()
    assert str(path).startswith(str(_isolated_home))
    assert not path.exists()
    w = make_window(qtbot, tmp_path)
    choose_startup_file(w, [])
    assert path.exists() and w.document.path == path


def test_next_start_opens_the_last_campaign(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    w.new_campaign(tmp_path / "mine")
    w.close()
    w2 = make_window(qtbot, tmp_path)
    choose_startup_file(w2, [])
    assert w2.document.path == tmp_path / "mine.c1813"
    assert not default_campaign_path().exists()


def test_a_file_named_on_the_command_line_wins(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    w.new_campaign(tmp_path / "named")
    w2 = make_window(qtbot, tmp_path)
    choose_startup_file(w2, [str(tmp_path / "named.c1813")])
    assert w2.document.path == tmp_path / "named.c1813"


def test_opening_a_campaign_waits_neither_for_the_road_planner_nor_the_battle_engine(tmp_path):
    """The window shows an open campaign without networkx or the day's rules (loaded behind
    the shown window), the map's scene and style (made once the window is shown), the battle
    engine (loaded when a battle is fought) or the dialogs of the menus: a fresh interpreter
    proves it."""
    import os
    import subprocess
    import sys

    from campaign1813.campaign.store.document import create_campaign

    create_campaign(tmp_path / "war.c1813").close()
    code = (
        "import sys\n"
        "from PySide6.QtCore import QSettings\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "from campaign1813.ui.main_window import MainWindow\n"
        f"w = MainWindow(QSettings({str(tmp_path / 's.ini')!r}, QSettings.Format.IniFormat),\n"
        "               defer_map=True)\n"
        "w.show()\n"
        f"assert w.open_file({str(tmp_path / 'war.c1813')!r})\n"
        "app.processEvents()\n"
        "print(sorted(m for m in ('networkx', 'campaign1813.maps.road_map',\n"
        "                         'campaign1813.campaign.battle.ruleset1813.fight',\n"
        "                         'campaign1813.campaign.battle.terms',\n"
        "                         'campaign1813.campaign.services',\n"
        "                         'campaign1813.campaign.day.actions',\n"
        "                         'campaign1813.campaign.day.aftermath',\n"
        "                         'campaign1813.ui.map.scene', 'campaign1813.ui.map.items',\n"
        "                         'campaign1813.ui.map.style',\n"
        "                         'campaign1813.ui.battle_dialogs', 'campaign1813.ui.print_oob',\n"
        "                         'campaign1813.ui.settings_dialog') if m in sys.modules))\n"
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


def test_background_loading_imports_and_reports_a_failure_without_raising(caplog):
    import sys

    from campaign1813.ui.app import load_in_background

    sys.modules.pop("colorsys", None)
    thread = load_in_background(("colorsys", "campaign1813.no_such_module"))
    thread.join()
    assert thread.name == "campaign1813-preload" and thread.daemon
    assert "colorsys" in sys.modules
    assert [r.getMessage() for r in caplog.records] == [
        "could not load campaign1813.no_such_module in the background"]


def test_work_after_the_first_paint_runs_once_when_the_loop_is_idle(qtbot):
    from PySide6.QtWidgets import QWidget

    from campaign1813.ui.app import AfterFirstPaint

    widget = QWidget()
    qtbot.addWidget(widget)
    done = []
    AfterFirstPaint(widget, lambda: done.append(True))
    assert done == []
    widget.show()
    qtbot.waitUntil(lambda: done == [True])
    widget.repaint()
    qtbot.wait(20)
    assert done == [True]


def test_at_start_the_map_is_made_once_shown_and_the_planner_waits_for_its_ground(qtbot,
                                                                                  tmp_path):
    """The application's window (``defer_map``) shows the campaign first: the map's scene, its
    flags and battles come once the map has been painted, and the work kept for a settled
    window (loading the road planner) runs only when the map's ground is complete."""
    from campaign1813.ui.app import when_settled

    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                   defer_map=True)
    qtbot.addWidget(w)
    w.new_campaign(tmp_path / "war")
    view = w.campaign_view
    assert view.map_scene is None and not view.map_settled()
    assert view.table.row("5 Corps") is not None  # the campaign is there before the map
    done = []
    when_settled(w, lambda: done.append(view.map_scene is not None and view.map_scene.built))
    w.show()
    qtbot.waitUntil(lambda: view.map_scene is not None)
    assert "5 Corps" in view.map_scene.markers and done == []
    qtbot.waitUntil(lambda: done == [True], timeout=10_000)
    assert view.map_settled()


def test_without_defer_map_the_map_comes_with_the_campaign(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    w.new_campaign(tmp_path / "war")
    assert "5 Corps" in w.campaign_view.map_scene.markers


def test_a_file_the_system_asks_to_open_is_opened(qtbot, tmp_path, fresh_campaign):
    """macOS hands a double-clicked campaign to the running application as a file-open event."""
    from PySide6.QtGui import QFileOpenEvent
    from PySide6.QtWidgets import QApplication

    from campaign1813.ui.app import FileOpener

    app = QApplication.instance()
    w = make_window(qtbot, tmp_path)
    opener = FileOpener(app, w)
    try:
        path = fresh_campaign(tmp_path / "sent.c1813")
        assert QApplication.sendEvent(app, QFileOpenEvent(str(path)))
        assert w.document is not None and w.document.path == path
    finally:
        app.removeEventFilter(opener)
        opener.deleteLater()


def test_quit_after_start_reports_the_shown_window_then_quits_once_settled(qtbot, tmp_path,
                                                                         fresh_campaign, capsys):
    """``campaign1813-gui --quit-after-start``, how a bundle's start is checked and timed: the
    first paint is reported on standard output, and the application exits with status 0 once
    the map is complete and the modules loaded behind the window are in."""
    from campaign1813.ui.app import load_in_background, quit_after_start, when_settled

    class App:
        def __init__(self):
            self.codes = []

        def exit(self, code):
            self.codes.append(code)

    app = App()
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                   defer_map=True)
    qtbot.addWidget(w)
    assert w.open_file(fresh_campaign())
    preload = []
    when_settled(w, lambda: preload.append(load_in_background()))
    quit_after_start(app, w, preload)
    w.show()
    qtbot.waitUntil(lambda: app.codes != [], timeout=10_000)
    assert app.codes == [0] and len(preload) == 1 and not preload[0].is_alive()
    shown = capsys.readouterr().out.splitlines()
    assert len(shown) == 1 and shown[0].startswith("window shown after ")
    assert shown[0].endswith(" s of CPU")
