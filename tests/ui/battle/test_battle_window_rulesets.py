"""The battle window with the rulesets that draw no chips (seeds 002 and 004): the ruleset
chosen on the Setup page, the mapping of the campaign's corps shown, the battle played to its
end through the generic action form with typed dice, Finish onto the map; auto-resolve by each
ruleset from the window.

The typed dice are those of tests/battle/test_ruleset_engines.py, which works each step by
hand from the seeds; here they go in through the window's widgets instead of the services.
"""

import pytest
from PySide6.QtCore import Qt

from campaign1813.campaign import queries, services
from campaign1813.ui.map.view import STATE
from tests.ui.conftest import in_sight, table_row

PRUSSIANS = "I Prussian Corps"
F17, F18, F19, F20 = (f"5 Corps/{n}" for n in (17, 18, 19, 20))
FCAV, FART = "5 Corps/3 cavalry", "5 Corps/artillery"
A1, A2, A3, A4 = (f"{PRUSSIANS}/{n}" for n in (1, 2, 3, 4))
ACAV, AART = f"{PRUSSIANS}/1 cavalry", f"{PRUSSIANS}/artillery"


def _battle_window(window, ruleset):
    """The battle of Magdeburg, due after I Prussian Corps attacks it and six days pass, set
    up on the table by the ruleset chosen on the Setup page."""
    pad = window.orders_panel
    pad.select_command(PRUSSIANS)
    pad.verb.setCurrentText("Attack")
    pad.objective.setEditText("Magdeburg")
    pad.give_button.click()
    for _ in range(6):
        window.end_day()
    assert window.menus.battles_due() == ["1. Magdeburg: 5 Corps against I Prussian Corps"]
    bw = window.open_battle_window(1)
    setup = bw.setup_page
    titles = [setup.ruleset.itemText(i) for i in range(setup.ruleset.count())]
    assert setup.chosen_ruleset() == "1813"
    assert "002 — Hits to elimination, shooting and charges by dice (seed 002)" in titles
    assert "004 — Effectiveness rules (25 % steps, dice per step)" in titles
    setup.choose_ruleset(ruleset)
    # no chips in these rulesets: the optional chips are not offered
    assert not any(cb.isVisibleTo(setup) for cb in setup.special_boxes)
    setup.open_button.click()
    assert bw.view is not None and bw.view.ruleset == ruleset
    return bw


def _seeded_run(window, ruleset):
    """The battle's seeded abstract run by the ruleset, as the engine gives it."""
    from campaign1813.campaign.battle.registry import find_ruleset
    from campaign1813.campaign.day.fight_setup import battle_setup
    from campaign1813.campaign.store.codec import read_state

    doc = window.document
    with doc.reading() as con:
        state = read_state(con)
    setup = battle_setup(doc.ground().adjusted(state.settings), state, 1, ruleset=ruleset)
    return find_ruleset(ruleset).resolve(setup, setup.seed)


def _do(bw, action, typed="", **inputs):
    """One action through the generic form: chosen, filled, typed dice, then Act/Roll."""
    g = bw.generic_page
    g.choose(action)
    for name, value in inputs.items():
        g.set_input(name, value)
    g.typed.setText(typed)
    g.act_button.click()
    assert not g.message.text().startswith("Refused"), g.message.text()
    return g.message.text()


def _finish_onto_the_map(window, bw, qtbot):
    assert bw.finish_button.isEnabled()
    with qtbot.waitSignal(bw.finished):
        _do(bw, "finish")
    assert queries.campaign_status(window.document).battles[0].result == "Allied"
    assert table_row(window, PRUSSIANS)[STATE].startswith("resting")
    assert table_row(window, "5 Corps")[STATE].startswith("retreating")
    assert window.menus.battles_due() == []


def test_a_ruleset_002_battle_played_in_the_window(window, qtbot):
    bw = _battle_window(window, "002")
    setup = bw.setup_page
    # the mapping: brigades to units, grades to the ruleset's units, with the commanders
    rows = setup.mapping_rows()
    assert rows and setup.mapping.columnCount() == 4
    assert any("General Yorck" in r[0] for r in rows)
    assert any("Elite infantry (Guards or Grenadiers)" in " ".join(r) for r in rows)
    assert not setup.chips.isVisibleTo(setup) and not setup.orders.isVisibleTo(setup)
    assert not setup.reserve_box.isVisibleTo(setup)
    setup.begin_button.click()
    assert bw.tabs.currentIndex() == 1
    g = bw.generic_page
    assert bw.play_stack.currentWidget() is g
    assert g.step_text.text() == "Setup: deploy and attach, then roll for sides"
    assert g.units.rowCount() == len(bw.view.units.keys)
    assert bw.standing.text() == "French: 6 units · Allied: 6 units"

    # seed 002: 1-3 the French are side A, 4-6 the Allies (3/6 each, shown before the die);
    # a typed 5
    g.choose("sides")
    assert g.odds_rows() == [("French are side A", "1/2"), ("Allied are side A", "1/2")]
    _do(bw, "sides", "5")
    assert g.step_text.text() == "Turn 1 – Movement – Allied (side A)"
    _do(bw, "next")
    _do(bw, "next")
    # the odds before the roll: artillery 1D6-2 (seed 002), so 1-2 miss and 3-6 give 1-4
    g.choose("shoot")
    g.set_input("unit", AART)
    g.set_input("target", F19)
    assert g.odds_rows() == [("0 hits", "1/3"), ("1 hit", "1/6"), ("2 hits", "1/6"),
                             ("3 hits", "1/6"), ("4 hits", "1/6")]
    g.typed.setText("6")
    g.act_button.click()
    assert "rolled 6: 4 hits" in g.message.text()
    _do(bw, "next")
    _do(bw, "shoot", "5", unit=FART, target=A3)
    _do(bw, "next")
    _do(bw, "shoot", "6", unit=A2, target=F19)
    _do(bw, "next")
    _do(bw, "next")
    assert g.step_text.text() == "Turn 1 – Stationary infantry shooting – Allied (side A)"
    # those who may act are marked in the units table
    assert g.acting_rows() == [A1, A3, A4]
    _do(bw, "shoot", "6", unit=A3, target=F19)
    _do(bw, "shoot", "6", unit=A4, target=F20)
    _do(bw, "shoot", "6", unit=A1, target=F20)
    _do(bw, "next")
    _do(bw, "shoot", "4", unit=F17, target=A3)
    for _ in range(3):
        _do(bw, "next")
    assert "are eliminated" in _do(bw, "charge", unit=ACAV, target=FART)
    for _ in range(4):
        _do(bw, "next")
    assert g.step_text.text() == "Turn 2: roll for sides"
    _do(bw, "sides", "6")
    _do(bw, "next")
    _do(bw, "next")
    assert not bw.finish_button.isEnabled()
    _do(bw, "shoot", "3", unit=AART, target=F20)
    assert "result: <b>Allied</b> (the Allied have eliminated 3 of the 6 French units" in \
        bw.result_text.text()
    assert bw.standing.text() == "French: 6 units — ARMY LOST · Allied: 6 units"
    _finish_onto_the_map(window, bw, qtbot)


def test_a_ruleset_004_battle_played_in_the_window(window, qtbot):
    bw = _battle_window(window, "004")
    setup = bw.setup_page
    rows = setup.mapping_rows()
    assert rows[0][:5] == ["3 Cavalry Brigade", "5 Corps", "cavalry B (medium)",
                           "heavy horse", "regular"]
    assert not setup.chips.isVisibleTo(setup)
    bw.tabs.setCurrentIndex(1)
    g = bw.generic_page
    assert g.step_text.text() == "Turn 1 – dice for the first move"
    # "Dice for the first move": French 2, Allied 5: the Allied move first; before the dice
    # the form shows the even chance (a die each, ties thrown again)
    g.choose("first-move")
    assert g.odds_rows() == [("French move first", "1/2"), ("Allied move first", "1/2")]
    _do(bw, "first-move", "2 5")
    assert g.step_text.text() == "Turn 1 – movement – the Allied to move"
    _do(bw, "done", side="Allied")
    _do(bw, "done", side="French")
    # Canister, 2 dice: 6 + 6 = 12, halved: 6 potential hits on 4-6: 4 4 4 4 5 5: 6 hits
    _do(bw, "fire", "6 6 4 4 4 4 5 5", unit=AART, target=F19, shot="canister",
        distance_cm="10")
    # seed 004: foot in firing order at 100 %, 4 dice hitting on 4-6: the binomial chances
    g.choose("fire")
    g.set_input("unit", A3)
    g.set_input("target", F20)
    g.set_input("distance_cm", "8")
    assert g.odds_rows() == [("0 hits stand", "1/16"), ("1 hit stand", "1/4"),
                             ("2 hits stand", "3/8"), ("3 hits stand", "1/4"),
                             ("4 hits stand", "1/16")]
    # in cover the target saves on 4-6 (seed 004), so each die hits and stands at 1/4
    g.set_input("cover", True)
    assert g.odds_rows()[0] == ("0 hits stand", "81/256")
    g.set_input("cover", None)
    g.typed.setText("4 5 6 6")
    qtbot.keyClick(g.typed, Qt.Key.Key_Return)           # Enter rolls the typed dice
    assert not g.message.text().startswith("Refused"), g.message.text()
    _do(bw, "fire", "6 6 6 6", unit=A4, target=F18, distance_cm="8")
    _do(bw, "fire", "5 5 6 6", unit=A1, target=F17, distance_cm="8")
    _do(bw, "fire", "4 1 2 3", unit=F19, target=A3, distance_cm="8")
    assert "score 5, 3 potential hits, 2 hits" in _do(
        bw, "fire", "3 2 4 4 1 6", unit=FART, target=A4, shot="canister", distance_cm="10")
    assert bw.view.state.units[F19].steps == 4, "fire is held"
    _do(bw, "end-fire", "5 2")
    assert "result: <b>Allied</b> (the French army has 3 of its 7 units left" in \
        bw.result_text.text()
    assert g.unit_row(F19)[4] == "eliminated" and g.unit_row(A4)[4] == "25 %"
    _finish_onto_the_map(window, bw, qtbot)


def test_a_refused_action_says_why_in_the_window(window):
    bw = _battle_window(window, "002")
    g = bw.generic_page
    g.choose("move")
    g.act_button.click()
    assert g.message.text() == "Refused: move needs the unit"
    g.choose("sides")
    g.typed.setText("seven")
    g.act_button.click()
    assert g.message.text().startswith("Refused: typed dice 'seven'")
    assert bw.view.steps == ()


@pytest.mark.parametrize("ruleset", ["002", "004"])
def test_auto_resolve_by_the_ruleset_from_the_window(window, qtbot, ruleset):
    pad = window.orders_panel
    pad.select_command(PRUSSIANS)
    pad.verb.setCurrentText("Attack")
    pad.objective.setEditText("Magdeburg")
    pad.give_button.click()
    for _ in range(6):
        window.end_day()
    bw = window.open_battle_window(1)
    bw.setup_page.choose_ruleset(ruleset)
    dialog = bw.show_autoresolve()
    dialog.runs.setValue(20)
    lines = dialog.estimate()
    assert lines[0] == ("The battle of Magdeburg (6 May 1813): 20 auto-resolved runs by "
                        f"ruleset {ruleset}")
    assert lines == services.autoresolve_odds(window.document, 1, 20, ruleset=ruleset)
    expected = _seeded_run(window, ruleset)
    changes = dialog.record()
    assert changes.lines[0].startswith("Auto-resolved (seed 18130506001)")
    # the run recorded is the ruleset's own seeded battle, its report in the diary
    assert changes.lines[-len(expected.report):] == tuple(expected.report)
    assert queries.campaign_status(window.document).battles[0].result == (
        expected.winner or "draw")
    winner = queries.campaign_status(window.document).battles[0].result
    assert winner in ("French", "Allied", "draw")
    with qtbot.waitSignal(bw.finished):
        dialog.accept()
    if winner != "draw":
        loser = "5 Corps" if winner == "Allied" else PRUSSIANS
        assert table_row(window, loser)[STATE].startswith("retreating")


def test_auto_resolve_of_a_battle_on_the_table_keeps_its_ruleset(window):
    bw = _battle_window(window, "004")
    _do(bw, "first-move", "2 5")
    dialog = bw.show_autoresolve()
    dialog.runs.setValue(10)
    assert dialog.estimate()[0].endswith("10 auto-resolved runs by ruleset 004")
    expected = _seeded_run(window, "004")
    changes = dialog.record()
    assert changes is not None
    assert queries.fights_in_progress(window.document) == {}
    assert changes.lines[-len(expected.report):] == tuple(expected.report)


def test_the_keyboard_drives_the_generic_page(window, qtbot):
    bw = _battle_window(window, "002")
    bw.tabs.setCurrentIndex(1)
    bw.show()
    bw.activateWindow()
    qtbot.waitUntil(bw.isActiveWindow)
    g = bw.generic_page
    g.choose("sides")
    g.typed.setFocus()
    qtbot.keyClicks(g.typed, "5")
    qtbot.keyClick(g.typed, Qt.Key.Key_Return)          # Enter: the typed roll
    assert g.step_text.text() == "Turn 1 – Movement – Allied (side A)"
    qtbot.keyClick(bw, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)   # next
    assert g.step_text.text() == "Turn 1 – Movement – French (side B)"
    g.choose("next")
    qtbot.keyClick(bw, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)   # take the action
    assert g.step_text.text() == "Turn 1 – Artillery shooting – Allied (side A)"
    qtbot.keyClick(bw, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)   # no chips here
    assert g.message.text() == ("Ruleset 002 draws no chips: choose the action on the Play "
                                "page")
    steps = len(bw.view.steps)
    qtbot.keyClick(bw, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)   # undo
    assert len(bw.view.steps) == steps - 1
    assert g.step_text.text() == "Turn 1 – Movement – French (side B)"


def test_closing_and_reopening_resumes_on_the_generic_page(window):
    bw = _battle_window(window, "004")
    assert bw.tabs.currentIndex() == 0, "nothing played yet: the setup"
    _do(bw, "first-move", "2 5")
    bw.close()
    bw = window.open_battle_window(1)
    assert bw.tabs.currentIndex() == 1 and bw.play_stack.currentWidget() is bw.generic_page
    assert bw.generic_page.step_text.text() == "Turn 1 – movement – the Allied to move"
    assert bw.setup_page.mapping_rows()[0][0] == "3 Cavalry Brigade"


def test_at_a_laptops_size_act_and_its_refusal_are_in_sight(window, qtbot):
    """On a 1366 × 768 screen the longest action of ruleset 004 (a melee: both units, the
    table's facts, the supports) scrolls its inputs, and Act, the typed dice and the refusal
    stay in sight."""
    bw = _battle_window(window, "004")
    bw.tabs.setCurrentIndex(1)
    bw.resize(1366, 768)
    bw.show()
    g = bw.generic_page
    g.choose("melee")
    g.act_button.click()
    qtbot.wait(50)
    assert g.message.text() == "Refused: melee needs the charging unit and the unit charged"
    for widget in (g.act_button, g.typed, g.message):
        assert in_sight(widget), widget


def test_a_refusal_goes_from_the_battle_window_once_a_step_is_undone(window):
    bw = _battle_window(window, "002")
    g = bw.generic_page
    g.choose("sides")
    g.typed.setText("5")
    g.act_button.click()
    g.choose("move")
    g.act_button.click()
    assert g.message.text() == "Refused: move needs the unit"
    bw.undo()  # the roll for sides is taken back: the refusal no longer stands
    assert bw.view.steps == ()
    assert g.message.text() == ""
