"""The battle window with a ruleset that lives only in the tests (tests/battle/toy_ruleset.py),
registered from here: chosen on the Setup page, its duels fought through the generic action
form with its exact odds shown before the dice, Finish onto the map."""

import pytest

from campaign1813.campaign import queries
from campaign1813.ui.map.view import STATE
from tests.battle.toy_ruleset import register_toy, unregister_toy
from tests.ui.conftest import table_row

PRUSSIANS = "I Prussian Corps"
A1 = f"{PRUSSIANS}/1"
F17, F18, F19 = (f"5 Corps/{n}" for n in (17, 18, 19))


@pytest.fixture
def toy():
    register_toy()
    yield
    unregister_toy()


def test_a_toy_battle_played_in_the_window(toy, window, qtbot):
    pad = window.orders_panel
    pad.select_command(PRUSSIANS)
    pad.verb.setCurrentText("Attack")
    pad.objective.setEditText("Magdeburg")
    pad.give_button.click()
    for _ in range(6):
        window.end_day()
    bw = window.open_battle_window(1)
    setup = bw.setup_page
    setup.choose_ruleset("toy")
    setup.open_button.click()
    assert bw.view is not None and bw.view.ruleset == "toy"
    bw.tabs.setCurrentIndex(1)
    g = bw.generic_page
    assert bw.play_stack.currentWidget() is g and g.step_text.text() == "Duels"
    g.choose("duel")
    g.set_input("unit", A1)
    g.set_input("target", F17)
    assert g.odds_rows() == [("the unit that duels kills", "5/12"), ("it is killed", "5/12"),
                             ("a tie", "1/6")]
    assert not bw.finish_button.isEnabled()
    for target in (F17, F18, F19):
        g.choose("duel")
        g.set_input("unit", A1)
        g.set_input("target", target)
        g.typed.setText("6 3")
        g.act_button.click()
        assert not g.message.text().startswith("Refused"), g.message.text()
    assert "result: <b>Allied</b>" in bw.result_text.text()
    assert bw.finish_button.isEnabled()
    with qtbot.waitSignal(bw.finished):
        g.choose("finish")
        g.act_button.click()
    assert queries.campaign_status(window.document).battles[0].result == "Allied"
    assert table_row(window, PRUSSIANS)[STATE].startswith("resting")
    assert table_row(window, "5 Corps")[STATE].startswith("retreating")
