"""The battle window opened from the map: the battle's marker double-clicked, or its town's
right-click menu."""

from PySide6.QtCore import QPoint, Qt

from tests.ui.battle.test_battle_window_e2e import _battle_at_magdeburg


def _marker_point(window):
    view = window.campaign_view
    scene = view.map_scene
    marker = scene.battles[1]
    centre = marker.mapToScene(marker.burst.center())
    return view.map_view.mapFromScene(centre)


def test_double_clicking_a_battles_marker_opens_its_window(window, qtbot):
    window.resize(1400, 900)
    window.show()
    _battle_at_magdeburg(window)
    view = window.campaign_view
    view.map_view.finish_building()
    assert window.battle_windows == {}
    with qtbot.waitSignal(view.battle_wanted) as wanted:
        qtbot.mouseDClick(view.map_view.viewport(), Qt.MouseButton.LeftButton,
                          pos=_marker_point(window))
    assert wanted.args == [1]
    assert list(window.battle_windows) == [1]
    assert window.battle_windows[1].isVisible()


def test_the_battle_towns_menu_offers_its_battle(window):
    _battle_at_magdeburg(window)
    view = window.campaign_view
    view.map_view.finish_building()
    assert [a.text() for a in view.town_menu("Magdeburg").actions() if a.text()][-1] == \
        "Fight Battle 1 at the Table…"
    assert not any("Fight" in a.text() for a in view.town_menu("Burg").actions())


def test_a_double_click_away_from_any_battle_opens_nothing(window, qtbot):
    window.resize(1400, 900)
    window.show()
    _battle_at_magdeburg(window)
    view = window.campaign_view
    view.map_view.finish_building()
    qtbot.mouseDClick(view.map_view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(3, 3))
    assert window.battle_windows == {}
