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
