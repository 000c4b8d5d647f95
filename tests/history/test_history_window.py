"""Campaign ▸ History in the window (record 0030): scrubbing to a day shows that day as it
stood, play marches the flags along their roads, a side sees only what it knew, and leaving the
history returns to today with the file unchanged."""

from __future__ import annotations

import hashlib
import shutil
from datetime import date

import pytest
from PySide6.QtCore import QPointF, QSettings, Qt

from campaign1813.campaign import queries
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.document import open_campaign
from campaign1813.maps.types import Theatre
from campaign1813.ui.history_panel import HOURS, along
from campaign1813.ui.main_window import MainWindow
from tests.history.scripted import play

THIRD = date(1813, 5, 3)


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def window(qtbot, tmp_path, played):
    """The main window over the 30-day Northern German campaign."""
    path = played(Theatre.NORTHERN_GERMANY)
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    assert w.open_file(path)
    yield w, path
    if w.document is not None:
        w.document.close()


def _places(specs) -> dict[str, tuple[str, str | None, float]]:
    return {s.key: (s.a, s.b, round(s.miles, 3)) for s in specs}


def test_scrubbing_to_day_3_shows_the_positions_of_a_campaign_replayed_to_day_3(
        window, campaign_template, tmp_path, qtbot):
    """The slider on 3 May shows every command where ``status`` puts it in the same campaign
    played only to 3 May; the keys step a day; the banner says it is the past."""
    w, _path = window
    panel = w.show_history()
    assert panel is not None and w.history_dock is not None
    assert panel.day == date(1813, 5, 31) and len(panel.days) == 31
    panel.slider.setValue(panel.days.index(THIRD))
    replay = tmp_path / "to-day-3.c1813"
    shutil.copyfile(campaign_template, replay)
    with open_campaign(replay) as doc:
        play(doc, Theatre.NORTHERN_GERMANY, 2)
        status = queries.campaign_status(doc)
    assert status.date == THIRD
    expected = {c.name: (c.position.a, c.position.b, round(c.position.miles, 3))
                for c in status.commands}
    shown = {key: (m.spec.a, m.spec.b, round(m.spec.miles, 3))
             for key, m in panel.scene.markers.items()}
    assert shown == expected
    for key, m in panel.scene.markers.items():
        assert m.pos() == panel.scene.place_point(*expected[key])
    assert panel.banner.text().startswith("THE PAST — 3 May 1813, at dawn — the umpire's map")
    rows = {panel.table.item(r, 0).text(): panel.table.item(r, 1).text()
            for r in range(panel.table.rowCount())}
    assert rows == {c.name: c.where for c in status.commands}
    qtbot.keyClick(panel, Qt.Key.Key_Right)
    assert panel.day == date(1813, 5, 4)
    qtbot.keyClick(panel, Qt.Key.Key_Left)
    qtbot.keyClick(panel, Qt.Key.Key_Left)
    assert panel.day == date(1813, 5, 2)
    panel.first()
    assert panel.day == date(1813, 5, 1) and not panel.buttons["back"].isEnabled()


def test_leaving_the_history_returns_to_today_with_the_file_unchanged(window, qtbot):
    """Scrub, play a day and view as a side, then close the history: the file's bytes are as
    before, and the window's own map still shows today."""
    w, path = window
    before = _sha(path)
    today = _places(m.spec for m in w.campaign_view.map_scene.markers.values()) \
        if w.campaign_view.map_scene is not None else None
    panel = w.show_history()
    assert panel is not None
    panel.show_day(THIRD)
    panel.play()
    for _ in range(HOURS + 1):
        panel._frame()
    assert panel.day == date(1813, 5, 4)
    panel.stop()
    panel.view_as(Side.FRENCH)
    panel.last()
    w.leave_history()
    assert w.history_dock is None
    assert w.document is not None
    assert w.document.summary().current_date == date(1813, 5, 31)
    if today is not None:
        assert _places(m.spec for m in w.campaign_view.map_scene.markers.values()) == today
    w.document.close()
    assert _sha(path) == before


def test_play_moves_each_flag_along_its_road_between_two_dawns(window):
    """Half-way through a day's play a command that marched is drawn between where it stood at
    dawn and where it stood at the next dawn, on the polyline through the towns of its route;
    a day's battles flash, titled with their results."""
    w, _path = window
    panel = w.show_history()
    assert panel is not None
    panel.show_day(THIRD)
    start = _places(panel.markers_on(THIRD))
    end = _places(panel.markers_on(date(1813, 5, 4)))
    moved = sorted(k for k in start if k in end and start[k] != end[k])
    assert moved
    panel.march_to(date(1813, 5, 4), 0.5)
    for key in moved:
        a = panel.scene.place_point(*start[key])
        b = panel.scene.place_point(*end[key])
        at = panel.scene.markers[key].pos()
        assert at not in (a, b)
    fought = next(d for d in panel.days[:-1] if panel.battles_of(d))
    panel.show_day(fought)
    panel.play()
    panel._frame()  # the first hour: the day's battles hidden, then shown, in turn
    assert panel.scene.battles and not any(b.isVisible() for b in panel.scene.battles.values())
    panel._frame()
    assert all(b.isVisible() for b in panel.scene.battles.values())
    assert {b.spec.title for b in panel.scene.battles.values()} == {
        f"{b.title}: {b.result}" for b in panel.battles_of(fought)}
    panel.stop()
    assert along([QPointF(0, 0), QPointF(3, 0), QPointF(3, 4)], 0.5) == QPointF(3, 0.5)
    assert along([QPointF(0, 0), QPointF(10, 0)], 0.25) == QPointF(2.5, 0)


def test_as_a_side_the_history_shows_only_what_that_side_knew_that_day(window):
    """As the French (the fog of war on), 3 May shows their own commands and no enemy: none
    was reported yet; 20 May shows the enemy exactly as the reports released to the French by
    that dawn had it, each seen on or before it, never what they learnt later."""
    w, _path = window
    panel = w.show_history()
    assert panel is not None
    panel.show_day(THIRD)
    panel.view_as(Side.FRENCH)
    french = {c.name for c in queries.status_on(w.document, THIRD).commands
              if c.side is Side.FRENCH}
    assert set(panel.scene.markers) == french
    assert "what the French knew" in panel.banner.text()
    twentieth = date(1813, 5, 20)
    panel.show_day(twentieth)
    then = queries.state_on(w.document, twentieth)
    told = {r.subject for r in then.reports.values()
            if r.side == Side.FRENCH.value and r.released and r.known_day <= twentieth}
    enemy = {m.spec.label.split(" (seen ")[0] for m in panel.scene.markers.values()
             if m.spec.side is Side.ALLIED}
    assert told and enemy == told
    assert all(r.seen_day <= twentieth for r in then.reports.values())
    later = {r.id for r in queries.day_state(w.document).reports.values()
             if r.side == Side.FRENCH.value and r.seen_day > twentieth}
    assert later  # the French learnt more after 20 May, and 20 May does not show it
    assert not later & {r.id for r in then.reports.values()}
    seen = {m.spec.label.split(" (seen ")[1].rstrip(")") for m in panel.scene.markers.values()
            if m.spec.side is Side.ALLIED}
    assert all(int(day.split()[0]) <= 20 for day in seen)


def test_a_bookmark_and_note_kept_in_the_history_are_undone_from_the_edit_menu(window):
    """The History's bookmark and note on a day go through the window's actions: shown on
    the day, and taken back by Edit ▸ Undo like any action."""
    w, _path = window
    panel = w.show_history()
    assert panel is not None
    panel.show_day(THIRD)
    panel.note.setText("Davout holds Hamburg")
    panel.bookmark.setChecked(True)
    panel.keep_note.click()
    assert panel.day_label.text().startswith("★ day 3 of 31")
    assert panel.report.toPlainText().startswith("The umpire's note: Davout holds Hamburg")
    assert queries.day_marks(w.document)[THIRD].note == "Davout holds Hamburg"
    w.undo()
    assert queries.day_marks(w.document) == {}
    assert panel.day == THIRD and not panel.bookmark.isChecked() and panel.note.text() == ""
