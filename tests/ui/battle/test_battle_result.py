"""The result from the battle window: at nightfall the side holding the field (seed 000's
"Summary of the Rules"; docs/battle.md), or the umpire's own decision with his reason; Finish
only once the result is final; undoing the battle's opening closes its setup again."""

from campaign1813.campaign.services import IssueOrder
from campaign1813.ui.map.view import STATE
from tests.ui.conftest import table_row


def _battle(window):
    window.give_order(IssueOrder("I Prussian Corps", "Attack", "Magdeburg"))
    for _ in range(6):
        window.end_day()
    bw = window.open_battle_window(1)
    bw.setup_page.open_button.click()
    return bw


def test_night_falls_the_holder_is_recorded_and_the_battle_finished(window, qtbot):
    bw = _battle(window)
    play = bw.play_page
    play.draw()
    play.record_holder()
    assert play.message.text() == ("Refused: who holds the field is recorded at nightfall "
                                   "(now turn 1)")
    # Rule 3: the commander drawn uses all his pips before the turn is ended
    play.pips_typed.setText("2")
    play.roll_pips()
    play.spend_what.setCurrentIndex(play.spend_what.findData("move"))
    while bw.view.state.activation.remaining:
        play.spend()
    for _ in range(12):
        play.end_turn()
    assert bw.view.state.phase == "night"
    assert "Night falls after turn 12" in bw.report.toPlainText()
    assert not bw.finish_button.isEnabled()
    assert play.holder_button.isEnabled()
    play.choose_side("French")
    play.reason.setText("Magdeburg")
    play.record_holder()
    assert "At nightfall the French hold Magdeburg" in bw.report.toPlainText()
    assert bw.finish_button.isEnabled()
    with qtbot.waitSignal(bw.finished):
        bw.finish_button.click()
    assert table_row(window, "5 Corps")[STATE].startswith("resting")
    assert table_row(window, "I Prussian Corps")[STATE].startswith("retreating")


def test_the_umpire_decides_with_a_reason(window):
    bw = _battle(window)
    play = bw.play_page
    play.choose_side("Allied")
    play.override()
    assert play.message.text() == "Refused: an override needs the umpire's reason"
    play.reason.setText("the garrison surrendered")
    play.override()
    assert bw.view.decision.winner == "Allied" and bw.finish_button.isEnabled()
    assert "result: <b>Allied</b>" in bw.result_text.text()


def test_undoing_the_setup_closes_it_again(window):
    bw = _battle(window)
    assert bw.tabs.isTabEnabled(1)
    window.undo()
    assert bw.view is None and not bw.tabs.isTabEnabled(1)
    assert bw.setup_page.stack.currentIndex() == 0 and bw.setup_page.open_button.isEnabled()
    window.redo()
    assert bw.view is not None and bw.tabs.isTabEnabled(1)
