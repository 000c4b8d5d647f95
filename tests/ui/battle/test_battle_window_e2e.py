"""The battle window end to end: a march ordered on the pad, the battle it brings, one full turn
fought through the window with typed dice (an artillery hit and its morale test, a rout and the
rout it spreads, a combat), undo, closing and reopening, then Finish onto the map.

The dice are worked from seed 000's tables as the engine reads them (docs/battle.md): the 5 Corps
9-pounder at short range needs 6 for one hit and 12 for two (Rule 7), so a typed 6,6 gives two
hits and queues the morale test; a class B brigade with 2 casualties rolling 2 routs (Rule 17:
1/3 each of formed, shaken, rout); its rout makes 3 Brigade test with "rout within 4 inches"
(a pass leaves it disordered, Rule 16: 1/2, shaken 1/3, rout 1/6), and a typed 1 routs it
too. 17 Brigade (factors 3) against 1 Brigade (factors 1) rolls 2d6 + 2 (Rule 13): a typed 2,3
makes 7, a draw, both disordered.
"""

from fractions import Fraction

from campaign1813.ui.map.view import STATE
from tests.ui.conftest import table_row

PRUSSIANS = "I Prussian Corps"


def _battle_at_magdeburg(window):
    pad = window.orders_panel
    pad.select_command(PRUSSIANS)
    pad.verb.setCurrentText("Attack")
    pad.objective.setEditText("Magdeburg")
    pad.give_button.click()
    assert window.campaign.status.command(PRUSSIANS).order == f"{PRUSSIANS} – Attack Magdeburg"
    for _ in range(6):
        window.end_day()
    assert window.menus.battles_due() == ["1. Magdeburg: 5 Corps against I Prussian Corps"]


def _fight_action(window):
    for action in window.menus.battle_menu.actions():
        if action.text() == "1. Magdeburg: Fight at the Table…":
            return action
    raise AssertionError("no Fight at the Table… entry for battle 1")


def _odds(form):
    return [(form.odds.item(r, 0).text(), form.odds.item(r, 1).text())
            for r in range(form.odds.rowCount())]


def _pick(combo, key):
    index = combo.findData(key)
    assert index >= 0, f"{key} is not offered"
    combo.setCurrentIndex(index)


def _typed(form, text):
    form.typed.setText(text)
    form.typed_button.click()


def _spot_both(play):
    """The two blinds, 12 inches apart, spot each other (Rule 1: automatic): the commanders
    roll Rule 3's pips and the brigades may be fired on."""
    for who, target in (("5 Corps", PRUSSIANS), (PRUSSIANS, "5 Corps")):
        play.open_new_test("spot", who, target)
        play.form.set_input("inches", "12")
        assert play.form.roll(), play.form.message.text()


def _spend_all(play, bw, moves):
    """Rule 3: the commander uses all his pips: a move for each brigade named, in turn."""
    _pick(play.spend_what, "move")
    for key in moves:
        if not bw.view.state.activation.remaining:
            break
        _pick(play.spend_brigade, key)
        play.spend_button.click()
    assert bw.view.state.activation.remaining == 0


def test_a_battle_fought_at_the_table_through_the_window(window, qtbot):
    _battle_at_magdeburg(window)
    _fight_action(window).trigger()
    bw = window.battle_windows[1]
    assert bw.tabs.currentIndex() == 0 and not bw.tabs.isTabEnabled(1)
    bw.setup_page.open_button.click()
    assert bw.view is not None and bw.tabs.isTabEnabled(1)
    # setup: the written orders, the table, the chips
    assert bw.setup_page.order_combo(PRUSSIANS).currentText() == "Attack"
    assert [bw.setup_page.chips.item(r, 1).text() for r in range(3)] == [
        "General Lauriston (5 Corps)", "General Yorck (I Prussian Corps)", "special chip"]
    # 5 Corps attacks too (Rule 13: infantry fight hand to hand only on Attack orders)
    bw.setup_page.order_combo("5 Corps").setCurrentText("Attack")
    bw.setup_page.begin_button.click()
    assert bw.tabs.currentIndex() == 1
    play = bw.play_page
    form = play.form
    _spot_both(play)

    # move 1: Lauriston's chip, picked as drawn from the real bag
    _pick(play.chip, "1")
    play.draw_button.click()
    assert "General Lauriston" in play.commander.text()
    assert "Attack" in play.commander.text()
    play.pips_typed.setText("7")
    play.pips_button.click()
    assert play.message.text() == ("Refused: 7 cannot be rolled on average die (possible: "
                                   "2–5)")
    play.pips_typed.setText("4")
    play.pips_button.click()
    assert "Pips: 4 + 2 (Average) = <b>6</b>" in play.pips_odds.text()

    # artillery fire: the form asks the band, shows the odds, takes the typed 6,6
    _pick(play.new_test, "fire")
    play.new_test_button.click()
    _pick(form.who, "5 Corps/artillery")
    _pick(form.target, f"{PRUSSIANS}/2")
    assert form.odds.rowCount() == 0 and "range band" in form.odds_note.text()
    form.set_input("band", "short")
    assert _odds(form) == [("miss", "5/18"), ("1 hit", "25/36"), ("2 hits", "1/36")]
    _typed(form, "6,6")
    assert "(12) 2 hits" in play.message.text()
    assert "5 of 6 pips left" in play.budget_text.text()   # the artillery action paid 1
    # its morale test opens itself, pre-filled
    assert form.request.queued and form.request.test == "morale"
    assert form.request.who == f"{PRUSSIANS}/2"
    assert _odds(form) == [("formed", "1/3"), ("shaken", "1/3"), ("rout", "1/3")]
    _typed(form, "2")
    assert "(2) fail and rout" in play.message.text()
    assert play.brigades.row_of(f"{PRUSSIANS}/2")[1:3] == ["2 of 6", "rout"]

    # the rout: the umpire names 3 Brigade within 4", which tests and routs in its turn
    assert form.request.test == "reaction"
    form.set_input("near", [f"{PRUSSIANS}/3"])
    form.roll_button.click()
    assert form.request.test == "morale" and form.request.who == f"{PRUSSIANS}/3"
    # Rule 16: all troops involved in a rout are disordered, so a pass leaves it disordered
    assert _odds(form) == [("disordered", "1/2"), ("shaken", "1/3"), ("rout", "1/6")]
    _typed(form, "1")
    assert "(1) fail and rout" in play.message.text()
    # its own reaction: nobody within 4", dismissed with the reason
    assert form.request.test == "reaction"
    play.dismiss_reason.setText("no friend within 4 inches")
    play.dismiss_button.click()
    assert play.queue.count() == 0
    assert bw.view.state.corps[PRUSSIANS].brigades  # the corps stands: 2 of 6 broken
    assert PRUSSIANS not in bw.view.broken_corps

    # movement, then the combat
    _pick(play.spend_what, "move")
    _pick(play.spend_brigade, "5 Corps/17")
    play.spend_button.click()
    assert "4 of 6 pips left" in play.budget_text.text()
    assert play.spent.item(1).text().startswith("✓ move")
    # Rule 3: the rest of his pips move the other brigades, before the combats
    _spend_all(play, bw, ["5 Corps/18", "5 Corps/19", "5 Corps/20", "5 Corps/3 cavalry"])
    _pick(play.new_test, "combat")
    play.new_test_button.click()
    _pick(form.who, "5 Corps/17")
    _pick(form.target, f"{PRUSSIANS}/1")
    assert [o for o, _ in _odds(form)] == [
        "Winner retires 4\" shaken (4–5)", "Draw, both disordered (6–7)",
        "Loser retires 4\" shaken (8–9)", "Loser routs (10+)"]
    assert _odds(form)[1][1] == "7/36"
    _typed(form, "2,3")
    assert "= 7: Draw, both disordered" in play.message.text()
    assert play.brigades.row_of("5 Corps/17")[1:3] == ["1 of 6", "disordered"]

    # the battle is not over: Finish is refused with the reason
    assert not bw.finish_button.isEnabled()
    assert bw.finish() is None
    assert "undecided on turn 1" in play.message.text()

    # undo from the main window's Edit menu: the battle window follows
    window.undo()
    assert bw.view.state.brigades["5 Corps/17"].casualties == 0
    assert play.brigades.row_of("5 Corps/17")[2] == "formed"
    window.redo()
    assert play.brigades.row_of("5 Corps/17")[2] == "disordered"

    # closing mid-battle and opening again resumes at the same step
    steps = len(bw.view.steps)
    bw.close()
    bw = window.open_battle_window(1)
    play, form = bw.play_page, bw.play_page.form
    assert bw.tabs.currentIndex() == 1 and len(bw.view.steps) == steps
    assert "General Lauriston" in play.commander.text()
    assert "0 of 6 pips left" in play.budget_text.text()

    # move 2: Yorck; his routers test at his move
    _pick(play.chip, "2")
    play.draw_button.click()
    play.pips_typed.setText("3")
    play.pips_button.click()
    assert play.queue.count() == 2
    _typed(form, "6")
    _typed(form, "6")
    _spend_all(play, bw, [f"{PRUSSIANS}/1", f"{PRUSSIANS}/4", f"{PRUSSIANS}/1 cavalry"] * 2)
    # move 3: the Poor chip; then the next draw ends the turn
    play.draw_button.click()
    assert "Move 3 – Poor Card" in play.report.toPlainText()
    _pick(play.chip, "1")
    play.draw_button.click()
    assert bw.view.state.turn == 2
    assert "Turn 2 of 12" in play.report.toPlainText()

    # turn 2: a second battery hit routs 4 Brigade, and the Prussian army breaks
    play.pips_typed.setText("3")
    play.pips_button.click()
    _pick(play.new_test, "fire")
    play.new_test_button.click()
    _pick(form.who, "5 Corps/artillery")
    _pick(form.target, f"{PRUSSIANS}/4")
    form.set_input("band", "short")
    _typed(form, "6,6")
    _typed(form, "1")
    assert "The Allied army has broken" in play.report.toPlainText()
    assert "ARMY BROKEN" in bw.standing.text()
    assert bw.finish_button.isEnabled()
    with qtbot.waitSignal(bw.finished):
        bw.finish_button.click()
    assert 1 not in window.battle_windows or not window.battle_windows[1].isVisible()
    # the map's table: the winner rests, the loser retreats
    assert table_row(window, "5 Corps")[STATE].startswith("resting")
    assert table_row(window, PRUSSIANS)[STATE].startswith("retreating")
    assert window.menus.battles_due() == []


def test_the_window_odds_are_the_engines_exact_fractions(window):
    from campaign1813.campaign import queries
    from campaign1813.campaign.battle.ruleset1813.fight_tests import prepare

    _battle_at_magdeburg(window)
    bw = window.open_battle_window(1)
    bw.setup_page.open_button.click()
    play = bw.play_page
    _spot_both(play)
    _pick(play.chip, "1")
    play.draw_button.click()
    play.pips_typed.setText("4")      # the skirmish's pip is paid from these (Rule 3)
    play.pips_button.click()
    view = queries.fight_view(window.document, 1)
    play.open_new_test("skirmish", "5 Corps/17", f"{PRUSSIANS}/1")
    expected = prepare(view.setup, view.state, "skirmish", "5 Corps/17", f"{PRUSSIANS}/1", {})
    assert play.form.odds_rows() == list(expected.odds)
    assert all(isinstance(p, Fraction) for _, p in play.form.odds_rows())
