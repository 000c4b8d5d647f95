"""The battle window as referee: the umpire chooses who wins at the table (DESIGN §4.4: "the
umpire may always overrule"; at nightfall the side holding the field wins, or nobody), and the
campaign takes the result by its own rules (seed 000's campaign: the winner rests a day, the
loser retreats; a draw leaves both standing); a test out of seed 000's sequence says why before
any roll, and Roll waits.

The campaign: I Prussian Corps attacks Magdeburg, held by 5 Corps; the battle comes on 6 May
1813 (tests/ui/battle/test_battle_result.py). Chip 1 is Lauriston (5 Corps, Average, +2)."""

import pytest
from PySide6.QtWidgets import QMessageBox

from campaign1813.campaign import queries
from campaign1813.campaign.services import IssueOrder
from campaign1813.ui.map.view import STATE
from tests.ui.conftest import dump, in_sight, table_row

PRUSSIANS = "I Prussian Corps"


def _spot_both(play):
    """Rule 1: the two blinds, 12 inches apart, spot each other (automatic) before the first
    chip, so their brigades are on the table to be fired on or fought."""
    for who, target in (("5 Corps", PRUSSIANS), (PRUSSIANS, "5 Corps")):
        play.open_new_test("spot", who, target)
        play.form.set_input("inches", "12")
        assert play.form.roll(), play.form.message.text()


@pytest.fixture
def bw(window):
    window.give_order(IssueOrder(PRUSSIANS, "Attack", "Magdeburg"))
    for _ in range(6):
        window.end_day()
    bw = window.open_battle_window(1)
    bw.setup_page.open_button.click()
    bw.tabs.setCurrentIndex(1)
    return bw


def test_every_side_of_the_result_can_be_chosen(bw):
    """The French / Allied / draw choice is in sight beside the reason, each a click."""
    play = bw.play_page
    bw.show()
    for side, button in play.side_buttons.items():
        assert button.isVisible() and button.width() > 0, side
        assert not button.geometry().intersects(play.reason.geometry()), side
        button.click()
        assert play.side() == side


def test_the_umpire_decides_an_allied_win_and_the_campaign_takes_it(window, bw, qtbot):
    """DESIGN §4.4, the umpire may always overrule: an Allied win decided at the table goes to
    the campaign as any result does: 5 Corps beaten retreats, I Prussian Corps rests."""
    play = bw.play_page
    play.side_buttons["Allied"].click()
    play.reason.setText("Lauriston gives up the town before dark")
    play.override_button.click()
    assert bw.view.decision.winner == "Allied"
    assert "The umpire decides: Allied win (Lauriston gives up the town before dark)" in \
        bw.report.toPlainText()
    assert bw.finish_button.isEnabled()
    with qtbot.waitSignal(bw.finished):
        bw.finish_button.click()
    assert table_row(window, PRUSSIANS)[STATE].startswith("resting")
    assert table_row(window, "5 Corps")[STATE].startswith("retreating")


def test_nobody_holds_the_field_at_nightfall_and_both_stand(window, bw, qtbot, monkeypatch):
    """At nightfall the side holding the battle town or most squares wins, or nobody does: a
    draw, after which both sides stand ready (seed 000's campaign: only a winner rests and only
    a loser retreats). Rule 3: Lauriston, drawn first, ends the turn with his pips unrolled
    only on the umpire's word."""
    play = bw.play_page
    play.draw()
    asked = _answer(monkeypatch, QMessageBox.StandardButton.Yes)
    for _ in range(12):
        play.end_turn()
    assert len(asked) == 1 and "General Lauriston has not rolled his pips" in asked[0]
    assert bw.view.state.phase == "night"
    play.side_buttons["draw"].click()
    play.reason.setText("the town is burning and nobody holds it")
    play.holder_button.click()
    assert bw.view.decision.final and bw.view.decision.winner is None
    assert "At nightfall neither side holds the field (the town is burning and nobody holds " \
           "it)" in bw.report.toPlainText()
    with qtbot.waitSignal(bw.finished):
        bw.finish_button.click()
    assert table_row(window, PRUSSIANS)[STATE].startswith("ready")
    assert table_row(window, "5 Corps")[STATE].startswith("ready")
    assert window.campaign.status.battles[0].result == "draw"


def test_sequence_a_test_out_of_order_says_why_before_the_roll(bw):
    """Seed 000's sequence (artillery fire before movement): once Lauriston has spent pips on a
    move, his battery's fire is not offered: the form says why and Roll is off, before any dice
    are typed (its odds are refused as its roll would be, as on the command line); the test is
    the step's own check, so nothing is taken."""
    play = bw.play_page
    form = play.form
    _spot_both(play)
    play.chip.setCurrentIndex(play.chip.findData("1"))
    play.draw()
    play.open_new_test("fire", "5 Corps/artillery", f"{PRUSSIANS}/2")
    form.set_input("band", "short")
    assert form.odds_note.text() == ("Not now: General Lauriston must roll his pips before a "
                                     "fire test")
    assert form.odds.rowCount() == 0
    assert not form.roll_button.isEnabled() and not form.typed_button.isEnabled()
    play.pips_typed.setText("3")
    play.roll_pips()
    assert form.odds_note.text().startswith("Rule 7") and form.roll_button.isEnabled()
    play.spend_what.setCurrentIndex(play.spend_what.findData("move"))
    play.spend()
    steps = len(bw.view.steps)
    assert form.odds_note.text() == (
        "Not now: a fire test comes at the artillery fire step, and this move has gone on to "
        "movement (seed 000's sequence: spot, artillery fire, its morale tests, movement, "
        "combats, morale)")
    assert not form.roll_button.isEnabled() and not form.typed_button.isEnabled()
    assert form.message.text() == ""
    assert len(bw.view.steps) == steps


def _answer(monkeypatch, answer):
    """Answer the confirmation with ``answer`` (None: fail if it is asked at all)."""
    asked = []

    def question(_parent, _title, text, *_args):
        assert answer is not None, f"asked to confirm: {text}"
        asked.append(text)
        return answer

    monkeypatch.setattr(QMessageBox, "question", question)
    return asked


def test_undo_stops_at_the_battles_setup_and_asks_before_the_campaign(window, bw, monkeypatch):
    """Undo in the battle window takes back the battle's steps and its setup freely; the
    campaign's action before them (the march of 6 May) only when the umpire says yes."""
    play = bw.play_page
    play.draw()
    _answer(monkeypatch, None)
    assert bw.undo_action.text() == "&Undo Battle 1: Draw chip 1: General Lauriston"
    assert "Ctrl+Z undoes the typing" in bw.undo_action.toolTip()
    bw.undo_action.trigger()
    assert len(bw.view.steps) == 0
    bw.undo()                                              # the setup
    assert bw.view is None and bw.setup_page.open_button.isEnabled()
    campaign_action = queries.next_undo(window.document)
    assert campaign_action == "March: 6 May 1813"
    assert bw.undo_action.text() == f"&Undo {campaign_action}"
    before = dump(window)
    asked = _answer(monkeypatch, QMessageBox.StandardButton.No)
    assert bw.undo() is None
    assert len(asked) == 1 and campaign_action in asked[0]
    assert dump(window) == before and queries.next_undo(window.document) == campaign_action
    assert bw.statusBar().currentMessage().startswith(f"Nothing undone: {campaign_action}")
    asked = _answer(monkeypatch, QMessageBox.StandardButton.Yes)
    assert bw.undo() is not None
    assert len(asked) == 1 and dump(window) != before
    assert queries.next_redo(window.document) == campaign_action


def test_at_a_laptops_size_the_roll_the_reason_and_the_refusals_are_in_sight(bw, qtbot):
    """On a 1366 × 768 screen (the window's own 1366 × 740 too), with the tallest form open (a
    combat, Rules 9–15, both sides' facts), the roll field, its buttons, why a test waits and
    each refusal are in sight without scrolling; a wider screen widens every column."""
    play, form = bw.play_page, bw.play_page.form
    bw.show()
    # 5 Corps on Attack orders, so 17 Brigade may fight hand to hand (Rule 13)
    bw.setup_page.order_combo("5 Corps").setCurrentText("Attack")
    _spot_both(play)
    play.chip.setCurrentIndex(play.chip.findData("1"))
    play.draw()
    play.pips_typed.setText("2")
    play.roll_pips()
    play.open_new_test("combat", "5 Corps/17", f"{PRUSSIANS}/1")
    form.typed.setText("7,7")
    form.roll_typed()                                      # a face the dice do not have
    play.spend_what.setCurrentIndex(play.spend_what.findData("swap_brigades"))
    play.spend()
    play.spend()                                           # 3 pips again, 1 left: refused
    assert form.message.text().startswith("Refused: 7 is not a face of the d6")
    assert play.message.text().startswith("Refused: General Lauriston cannot swap brigades")
    widths = {}
    for size in ((1366, 768), (1366, 740), (1920, 1080)):
        bw.resize(*size)
        qtbot.waitUntil(lambda s=size: bw.size().width() == s[0] and bw.size().height() == s[1])
        qtbot.wait(50)   # the deferred layouts
        for name in ("typed", "typed_button", "roll_button", "odds_note", "message"):
            assert in_sight(getattr(form, name)), (size, name)
        assert in_sight(form.odds), size
        assert in_sight(play.message), size
        widths[size[0]] = play.split.sizes()
    narrow, wide = widths[1366], widths[1920]
    assert all(w > n for w, n in zip(wide, narrow, strict=True)), (narrow, wide)


def _moved_with_pips_left(bw):
    """Lauriston's move (chip 1), the blinds spotted: pips 3 + 2 = 5, one spent on a move of
    17 Brigade, 4 left."""
    play = bw.play_page
    _spot_both(play)
    play.chip.setCurrentIndex(play.chip.findData("1"))
    play.draw()
    play.pips_typed.setText("3")
    play.roll_pips()
    play.spend_what.setCurrentIndex(play.spend_what.findData("move"))
    play.spend_brigade.setCurrentIndex(play.spend_brigade.findData("5 Corps/17"))
    play.spend()
    assert bw.view.state.activation.remaining == 4
    return play


@pytest.mark.parametrize("action", ["draw", "end_turn"])
def test_rule_3_pips_left_unspent_only_on_the_umpires_word(bw, monkeypatch, action):
    """Rule 3: a corps commander must use all his pips to carry out his orders. Drawing the next
    chip (or ending the turn) with 4 of Lauriston's 5 pips unspent asks the umpire, naming him
    and his pips: No leaves the battle as it was; Yes goes on, and the report says so."""
    play = _moved_with_pips_left(bw)
    steps = len(bw.view.steps)
    asked = _answer(monkeypatch, QMessageBox.StandardButton.No)
    assert getattr(play, action)() is None
    assert len(asked) == 1 and asked[0].startswith("General Lauriston has 4 pips unspent.")
    assert len(bw.view.steps) == steps and bw.view.state.activation.remaining == 4
    assert play.message.text().startswith("Nothing done: Rule 3: General Lauriston must use "
                                          "all his pips")
    asked = _answer(monkeypatch, QMessageBox.StandardButton.Yes)
    assert getattr(play, action)() is not None
    assert len(asked) == 1 and len(bw.view.steps) == steps + 1
    assert ("General Lauriston has 4 pips unspent: the umpire confirms nothing more serves his "
            "orders (Rule 3)") in bw.report.toPlainText()


def test_rule_3_every_pip_spent_asks_nothing(bw, monkeypatch):
    """Rule 3: with all his pips used, the next chip is drawn without a question."""
    play = _moved_with_pips_left(bw)
    for _ in range(4):
        play.spend()
    assert bw.view.state.activation.remaining == 0
    _answer(monkeypatch, None)
    assert play.draw() is not None


def test_rule_1_the_pips_shown_are_the_blinds_while_the_corps_is_on_its_blind(bw):
    """Rule 1: a commander whose corps is still on its blind rolls average die + 1 Gifted, −1
    Poor (Lauriston, Average: +0), not Rule 3's +2; the window shows the step's own line."""
    play = bw.play_page
    play.chip.setCurrentIndex(play.chip.findData("1"))
    play.draw()
    assert "Average (+0)" in play.commander.text()
    assert play.pips_odds.text() == "Chances: 2: 1/6, 3: 1/3, 4: 1/3, 5: 1/6"
    play.pips_typed.setText("4")
    play.roll_pips()
    assert play.pips_odds.text() == "Pips on the blind (Rule 1): 4 +0 (Average) = <b>4</b>"
    assert bw.view.steps[-1].lines[0] == "Pips on the blind (Rule 1): 4 +0 (Average) = 4"


def test_rule_16_the_pursuers_rally_form_offers_no_commander(bw):
    """Rule 16: pursuers no commander can reach (or pay for) fail their rally; the form offers
    the engine's "no-commander" and sends it, and the engine reads it (its refusal is Rule 16's
    "not pursuing", not an unknown option)."""
    play, form = bw.play_page, bw.play_page.form
    cavalry = next(k for k in bw.view.state.brigades
                   if k.startswith("5 Corps/") and bw.view.setup.brigade(k).arm.value == "cavalry")
    play.open_new_test("rally-pursuers", cavalry)
    form.set_input("no-commander", True)
    assert form.options() == {"no-commander": True}
    assert "is not pursuing" in form.odds_note.text()
    assert not form.roll_button.isEnabled()
