"""The keyboard drives the common path of the battle window: Ctrl+D draws, Ctrl+P rolls the
pips, Enter rolls the typed roll, Ctrl+N opens the next queued test, Ctrl+R rolls it with the
battle's dice, Ctrl+Z (the main window's Edit ▸ Undo, in the battle window's Edit menu too)
takes the step back."""

from PySide6.QtCore import Qt

from campaign1813.campaign.services import IssueOrder


def test_the_common_path_by_keyboard(window, qtbot):
    window.give_order(IssueOrder("I Prussian Corps", "Attack", "Magdeburg"))
    for _ in range(6):
        window.end_day()
    bw = window.open_battle_window(1)
    bw.setup_page.open_button.click()
    bw.tabs.setCurrentIndex(1)
    bw.activateWindow()
    qtbot.waitUntil(bw.isActiveWindow)
    play = bw.play_page
    # Rule 1: before the first chip the French blind spots the Prussian one 12 inches off
    play.open_new_test("spot", "5 Corps", "I Prussian Corps")
    play.form.set_input("inches", "12")
    assert play.form.roll()
    play.chip.setCurrentIndex(play.chip.findData("1"))
    qtbot.keyClick(bw, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert bw.view.state.activation.commander == "5 Corps"
    play.pips_typed.setFocus()
    qtbot.keyClicks(play.pips_typed, "3")
    qtbot.keyClick(play.pips_typed, Qt.Key.Key_Return)
    assert bw.view.state.activation.pips is not None
    steps = len(bw.view.steps)
    qtbot.keyClick(bw, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(bw.view.steps) == steps - 1 and bw.view.state.activation.pips is None
    qtbot.keyClick(bw, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert bw.view.state.activation.pips is not None   # the battle's own die
    # a test opened from the menu's shortcut, rolled with Ctrl+R
    play.open_new_test("fire", "5 Corps/artillery", "I Prussian Corps/2")
    play.form.set_input("band", "short")
    qtbot.keyClick(bw, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert bw.view.steps[-1].lines[0].endswith("by 5 Corps Artillery (5) miss")
    # the shot taken back (Rule 7: a battery fires once per move), then rolled again with the
    # typed roll and Enter: two hits, and the morale test they call for
    qtbot.keyClick(bw, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    play.open_new_test("fire", "5 Corps/artillery", "I Prussian Corps/2")
    play.form.set_input("band", "short")
    qtbot.keyClicks(play.form.typed, "6,6")
    qtbot.keyClick(play.form.typed, Qt.Key.Key_Return)
    assert [p.test for p in bw.view.state.queue] == ["morale test"]
    play.open_new_test("spot")
    qtbot.keyClick(bw, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert play.form.request.queued and play.form.request.test == "morale"
    qtbot.keyClick(bw, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert bw.view.steps[-1].lines[0].startswith("Test morale for 2 Infantry Brigade")
