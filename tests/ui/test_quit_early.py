"""Closing the window at once after it is first shown."""

from PySide6.QtCore import QSettings
from pytestqt.exceptions import TimeoutError as WaitedTooLong

from campaign1813.ui.main_window import MainWindow


def test_quitting_right_after_the_first_paint_leaves_no_error(qtbot, tmp_path, fresh_campaign):
    """The map is made a turn of the loop after the first paint; a window closed in between
    (its file closed with it) does not make it."""
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), defer_map=True)
    qtbot.addWidget(w)
    assert w.open_file(fresh_campaign())
    # connected before the window is shown, so the first paint cannot come first
    w.campaign_view.map_view.first_painted.connect(w.close)
    w.resize(1400, 900)  # room for the map whatever screen the test platform gives
    w.show()
    view = w.campaign_view.map_view
    try:  # the window system's first expose paints the map, and the window closes
        qtbot.waitUntil(lambda: not w.isVisible(), timeout=3000)
    except WaitedTooLong:
        # a test platform that has not exposed the window (Qt paints only an exposed one):
        # the first paint's signal given as the paint gives it, to the same connections
        assert not view.painted
        view.first_painted.emit()
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=3000)
    qtbot.wait(50)
    assert w.document is None  # let go with the window, before its file was closed
