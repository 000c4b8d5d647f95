"""The battle window's forms and refusals: the odds a form shows are the engine's exact
fractions (the same the command line prints for ``battle … test … --odds``), a typed roll the
dice cannot show is refused with the reason, and so is an action the pips cannot pay for.

Numbers: seed 000 Rule 7, 9-pounder at short range on infantry needs 6 for one hit and 12 for
two, so 2d6 gives miss 10/36 = 5/18, one hit 25/36, two hits 1/36; at long range it needs 8 for
one and 16 for two, which 2d6 never shows (miss 21/36 = 7/12, one hit 15/36 = 5/12, two 0).
Rules 2–3: pips are the average die (2, 3, 3, 4, 4, 5) + 2 for an Average commander; a roll of
2 gives 4 pips; swapping brigades costs 3, so after the battery's shot (1) one swap takes the
rest and a second is refused.
"""

from fractions import Fraction

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.battle.ruleset1813.fight_tests import TESTS, options_of
from campaign1813.campaign.services import IssueOrder
from campaign1813.ui.battle.forms import BadRoll, Request, asks, chance_text, parse_roll
from campaign1813.ui.map.view import STATE
from tests.ui.conftest import table_row

PRUSSIANS = "I Prussian Corps"


@pytest.fixture
def battle(window):
    """Battle 1 at Magdeburg, set up on the table through the window, chip 1 drawn."""
    window.give_order(IssueOrder(PRUSSIANS, "Attack", "Magdeburg"))
    for _ in range(6):
        window.end_day()
    bw = window.open_battle_window(1)
    bw.setup_page.open_button.click()
    return bw


def _odds(form):
    return [(form.odds.item(r, 0).text(), form.odds.item(r, 1).text(),
             form.odds.item(r, 2).text()) for r in range(form.odds.rowCount())]


def _spot_both(play):
    """Before the first chip the two blinds, 12 inches apart, spot each other (Rule 1:
    automatic): the commanders roll Rule 3's pips and the Prussians may be fired on."""
    for who, target in (("5 Corps", PRUSSIANS), (PRUSSIANS, "5 Corps")):
        play.open_new_test("spot", who, target)
        play.form.set_input("inches", "12")
        assert play.form.roll(), play.form.message.text()


def test_parse_roll_reads_totals_faces_and_several_rolls():
    assert parse_roll("8") == [8]
    assert parse_roll("5,3") == [(5, 3)]
    assert parse_roll("5 3; 4") == [(5, 3), 4]
    assert parse_roll("") is None
    with pytest.raises(BadRoll, match="typed roll 'six': give a number"):
        parse_roll("six")


@pytest.mark.parametrize("test", list(TESTS))
def test_each_form_asks_exactly_what_its_test_reads(test):
    """The window sends only options the engine reads (any other is refused as meaning nothing):
    no "pay" (Rule 3's pips are always paid), Rule 4's distance for a fire fight, a skirmish or
    a charge, and Rule 16's "no commander" for the pursuers' rally."""
    assert sorted(a.key for a in asks(test)) == sorted(options_of(test))


def test_chance_text_is_the_command_lines_form():
    assert chance_text(Fraction(5, 18)) == ("5/18", "27.8 %")
    assert chance_text(Fraction(1)) == ("1/1", "100.0 %")


def test_an_outcome_the_dice_cannot_give_is_shown_impossible_not_0_of_1():
    assert chance_text(Fraction(0)) == ("impossible", "0 %")


def test_the_fire_form_shows_the_exact_odds_and_follows_the_band(window, battle, capsys):
    play = battle.play_page
    _spot_both(play)
    _draw_chip(play, "1")
    play.pips_typed.setText("4")      # the fire's pip is paid from these
    play.roll_pips()
    play.open_new_test("fire", "5 Corps/artillery", f"{PRUSSIANS}/2")
    form = play.form
    assert [a.key for a in asks("fire")] == ["band", "inches", "cover", "behind",
                                              "friends-near", "overhead"]
    assert form.odds.rowCount() == 0
    assert form.odds_note.text().startswith("Not yet: give the range band")
    form.set_input("band", "short")
    assert _odds(form) == [("miss", "5/18", "27.8 %"), ("1 hit", "25/36", "69.4 %"),
                           ("2 hits", "1/36", "2.8 %")]
    form.set_input("band", "long")
    # Rule 4 at long range: 2 hits cannot be rolled, and the form says so in words
    assert _odds(form) == [("miss", "7/12", "58.3 %"), ("1 hit", "5/12", "41.7 %"),
                           ("2 hits", "impossible", "0 %")]
    # the same odds as the command line's
    from campaign1813.campaign.cli import main

    assert main(["battle", str(window.document.path), "1", "test", "fire", "5 Corps/artillery",
                 f"{PRUSSIANS}/2", "--band", "long", "--odds"]) == 0
    printed = capsys.readouterr().out
    assert "  miss: 7/12 (58.3 %)" in printed and "  1 hit: 5/12 (41.7 %)" in printed
    assert form.odds_rows() == [("miss", Fraction(7, 12)), ("1 hit", Fraction(5, 12)),
                                ("2 hits", Fraction(0))]


def test_a_morale_form_takes_the_table_facts(battle):
    play = battle.play_page
    play.draw()
    view = queries.fight_view(battle.campaign.document, 1)
    from campaign1813.campaign.battle.ruleset1813.fight_tests import prepare

    play.open_new_test("morale", f"{PRUSSIANS}/3")
    form = play.form
    plain = prepare(view.setup, view.state, "morale", f"{PRUSSIANS}/3", "", {})
    assert form.odds_rows() == list(plain.odds)
    form.set_input("facts", ["rout-within-4"])
    assert form.options() == {"facts": ["rout-within-4"]}
    with_fact = prepare(view.setup, view.state, "morale", f"{PRUSSIANS}/3", "",
                        {"facts": ["rout-within-4"]})
    assert form.odds_rows() == list(with_fact.odds) == [
        ("disordered", Fraction(1, 2)), ("shaken", Fraction(1, 3)), ("rout", Fraction(1, 6))]
    # (Rule 16: a brigade involved in a rout that passes its test is disordered)


def test_refusals_say_why(battle):
    play = battle.play_page
    _spot_both(play)
    _draw_chip(play, "1")
    play.pips_typed.setText("6")
    play.roll_pips()
    assert play.message.text() == "Refused: 6 cannot be rolled on average die (possible: 2–5)"
    play.pips_typed.setText("2")
    play.roll_pips()
    assert "4 of 4 pips left" in play.budget_text.text()
    # a face a die does not have, and no roll typed at all
    play.open_new_test("fire", "5 Corps/artillery", f"{PRUSSIANS}/2")
    form = play.form
    form.set_input("band", "short")
    form.typed.setText("7,6")
    assert not form.roll_typed()
    assert form.message.text() == "Refused: 7 is not a face of the d6 (faces 1, 2, 3, 4, 5, 6)"
    form.typed.setText("")
    assert not form.roll_typed()
    assert form.message.text().startswith("Refused: type the roll first")
    # the next chip waits for the tests a result calls for
    form.typed.setText("6,6")
    assert form.roll_typed()
    play.draw()
    assert play.message.text().startswith("Refused: 1 test still to take or dismiss first: "
                                          "morale test")
    # the battery's shot paid 1 of the 4 pips: one swap of brigades (3) takes the rest
    play.open_next()
    play.form.typed.setText("6")
    assert play.form.roll_typed()
    _choose(play.spend_what, "swap_brigades")
    play.spend()
    assert "0 of 4 pips left" in play.budget_text.text()
    play.spend()
    assert play.message.text() == ("Refused: General Lauriston cannot swap brigades: it costs 3 "
                                   "pips and 0 are left")
    # and the battery has fired this move (Rule 7), which in any case came before movement
    form.open(play.view, Request("fire", "5 Corps/artillery", f"{PRUSSIANS}/3",
                              options={"band": "short"}))
    assert not form.roll()
    assert form.message.text().startswith("Refused: Rule 7: a battery fires once per move")


def _choose(combo, value):
    index = combo.findData(value)
    assert index >= 0
    combo.setCurrentIndex(index)


def _draw_chip(play, chip):
    _choose(play.chip, chip)
    play.draw()


def test_the_window_resumes_at_the_same_step_in_a_new_main_window(window, battle, qtbot,
                                                                   tmp_path):
    from PySide6.QtCore import QSettings

    from campaign1813.ui.main_window import MainWindow

    play = battle.play_page
    _spot_both(play)
    _draw_chip(play, "1")
    play.pips_typed.setText("4")
    play.roll_pips()
    play.open_new_test("fire", "5 Corps/artillery", f"{PRUSSIANS}/2")
    play.form.set_input("band", "short")
    play.form.typed.setText("6,6")
    play.form.roll_typed()
    path = window.document.path
    window.close()
    again = MainWindow(QSettings(str(tmp_path / "again.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(again)
    assert again.open_file(path)
    bw = again.open_battle_window(1)
    assert bw.tabs.currentIndex() == 1
    assert "General Lauriston" in bw.play_page.commander.text()
    assert "5 of 6 pips left" in bw.play_page.budget_text.text()
    assert bw.play_page.form.request.test == "morale"   # the queued test, open again
    assert bw.play_page.queue.count() == 1
    again.document.close()


def test_auto_resolve_shows_progress_cancels_then_records_the_seeded_run(window, qtbot):
    window.give_order(IssueOrder(PRUSSIANS, "Attack", "Magdeburg"))
    for _ in range(6):
        window.end_day()
    bw = window.open_battle_window(1)
    dialog = bw.show_autoresolve()
    dialog.runs.setValue(100)
    lines = dialog.estimate()
    assert lines[0] == "The battle of Magdeburg (6 May 1813): 100 auto-resolved runs"
    assert dialog.progress.value() == 100
    # seeded: the same lines as the service gives the command line
    assert lines == services.autoresolve_odds(window.document, 1, 100)
    # Cancel stops the runs where they are
    dialog.runs.setValue(5000)
    dialog.progress.valueChanged.connect(
        lambda v: dialog.cancel_button.click() if v >= 100 else None)
    lines = dialog.estimate()
    assert lines[0].endswith("(cancelled)")
    assert dialog.progress.value() < 5000
    changes = dialog.record()
    assert changes.lines[0].startswith("Auto-resolved (seed 18130506001)")
    winner = next(b.result for b in window.campaign.status.battles if b.id == 1)
    assert winner in ("French", "Allied", "draw")
    with qtbot.waitSignal(bw.finished):
        dialog.accept()
    if winner == "French":
        assert table_row(window, "5 Corps")[STATE].startswith("resting")
        assert table_row(window, PRUSSIANS)[STATE].startswith("retreating")
    elif winner == "Allied":
        assert table_row(window, PRUSSIANS)[STATE].startswith("resting")
        assert table_row(window, "5 Corps")[STATE].startswith("retreating")


def test_auto_resolve_of_a_battle_on_the_table_abandons_the_fight_first(window, battle):
    battle.play_page.draw()
    dialog = battle.show_autoresolve()
    assert dialog.warning.text().startswith("The battle is being fought on the table")
    assert dialog.record() is not None
    assert queries.fights_in_progress(window.document) == {}
    assert next(b for b in window.campaign.status.battles if b.id == 1).result is not None
    labels = [e.text for e in queries.diary(window.document)]
    assert any("was abandoned after 1 step;" in t for t in labels)
    assert any(t.startswith("Auto-resolved (seed 18130506001)") for t in labels)


def test_the_fire_form_offers_the_moving_commanders_battery_first(window, battle):
    """Rule 7: a battery fires during its own commander's move: with the Prussian chip drawn
    the form suggests I Prussian Corps' battery, not 5 Corps'; with the French chip, 5 Corps'."""
    play = battle.play_page
    _spot_both(play)
    _draw_chip(play, "2")  # General Yorck's chip: the Prussians move
    play.open_new_test("fire")
    assert play.form.who_key() == f"{PRUSSIANS}/artillery"
    assert [play.form.who.itemData(i) for i in range(play.form.who.count())] == [
        f"{PRUSSIANS}/artillery", "5 Corps/artillery"]
    assert play.form.target_key().startswith("5 Corps/")
