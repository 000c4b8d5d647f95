"""Battle ▸ a battle due ▸ Postpone…, Merge With…, Split…: each through the services by the
window's perform (so undoable); a refusal is the service's reason, shown in the dialog,
which stays open, and the file is unchanged."""

from datetime import date

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDialogButtonBox

from campaign1813.campaign import queries, services
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.services import IssueOrder
from campaign1813.ui.battle_dialogs import MergeDialog, PostponeDialog, SplitDialog, battle_line
from campaign1813.ui.main_window import MainWindow
from tests.day.test_scenarios import battle_setup
from tests.ui.conftest import dump


@pytest.fixture
def two_battles(window):
    """Two battles on 2 May in Spain: the Vistula Poles attack Olot (28 miles from Gerona) and
    17 Corps Medina del Campo (32 from Valladolid); each comes within 10 miles on the second
    day."""
    for order in (("Vistula Polish Corps", "Attack", "Olot"), ("4 Spanish Corps", "Hold", "Olot"),
                  ("17 Corps", "Attack", "Medina del Campo"),
                  ("3 British Corps", "Hold", "Medina del Campo")):
        assert window.give_order(IssueOrder(*order)) is not None
    window.end_day()
    window.end_day()
    assert [(b.id, b.place, b.date) for b in window.campaign.status.battles_due] == [
        (1, "Olot", date(1813, 5, 2)), (2, "Medina del Campo", date(1813, 5, 2))]
    return window


def menu_action(window, battle: int, verb: str):
    """The Battle menu's entry for an override of a battle."""
    for entry in window.menus.battle_menu.actions():
        menu = entry.menu()
        if menu is None:
            continue
        for action in menu.actions():
            if action.data() == (battle, verb):
                return action
    raise AssertionError(f"no {verb} for battle {battle} in the Battle menu")


def press(qtbot, dialog) -> None:
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok),
                     Qt.MouseButton.LeftButton)


def refusal_of(service, doc) -> str:
    try:
        service(doc)
    except CampaignError as exc:
        return str(exc)
    raise AssertionError("not refused")


def test_every_battle_due_offers_its_results_and_the_three_overrides(two_battles):
    menus = [a.menu() for a in two_battles.menus.battle_menu.actions()
             if a.menu() is not None and a.menu().title()[:1].isdigit()]
    assert [m.title() for m in menus] == [
        "1. Olot: Vistula Polish Corps against 4 Spanish Corps",
        "2. Medina del Campo: 17 Corps against 3 British Corps"]
    assert [a.text() for a in menus[0].actions() if a.text()] == [
        "French Win", "Allied Win", "Draw", "&Postpone…", "&Merge With…", "&Split…"]


def test_postpone_through_the_dialog_puts_the_battle_off_and_undo_takes_it_back(two_battles,
                                                                               qtbot):
    window = two_battles
    menu_action(window, 1, "Postpone").trigger()
    dialog = window.battle_dialog
    assert isinstance(dialog, PostponeDialog) and dialog.isVisible()
    dialog.days.setValue(2)
    assert dialog.days.suffix() == " days"
    qtbot.keyClicks(dialog.reason, "the Spanish player is away")
    with qtbot.waitSignal(window.campaign_changed):
        press(qtbot, dialog)
    assert not dialog.isVisible()
    battle = queries.campaign_status(window.document).battles[0]
    assert battle.date == date(1813, 5, 4)
    assert battle.notes == ("postponed to 4 May 1813: the Spanish player is away",)
    assert window.report_pane.toPlainText().count(
        "Umpire: the battle of Olot (2 May 1813) is postponed to 4 May 1813: "
        "the Spanish player is away") == 1
    assert window.undo_action.text() == "&Undo Postpone battle 1"
    window.undo()
    assert queries.campaign_status(window.document).battles[0].date == date(1813, 5, 2)


def test_a_postponement_without_a_reason_is_refused_in_the_dialog(two_battles, qtbot):
    window = two_battles
    before = dump(window)
    dialog = window.open_battle_dialog(2, PostponeDialog)
    press(qtbot, dialog)
    assert dialog.isVisible()
    assert dialog.message.text() == "the umpire's reason must be given"
    assert "b00020" in dialog.message.styleSheet()  # red
    assert dump(window) == before


def test_a_refused_merge_shows_its_reason_and_leaves_the_file_unchanged(two_battles, qtbot):
    """Olot and Medina del Campo are 525 miles apart by road, far beyond twice reinforce_miles
    (20): the merge is refused unless the umpire says they are one fight."""
    window = two_battles
    menu_action(window, 1, "Merge").trigger()
    dialog = window.battle_dialog
    assert isinstance(dialog, MergeDialog)
    assert [dialog.other.itemText(i) for i in range(dialog.other.count())] == [
        "2. Medina del Campo, 2 May 1813: 17 Corps against 3 British Corps"]
    dialog.reason.setText("one table")
    before, undo = dump(window), window.undo_action.text()
    expected = refusal_of(lambda doc: services.merge_battles(doc, 1, 2, "one table"),
                          window.document)
    assert expected == ("the battle of Olot and the battle of Medina del Campo are 525 miles "
                        "apart by road; merge them with --force if they are one fight")
    press(qtbot, dialog)
    assert dialog.isVisible()
    assert dialog.message.text() == expected
    assert dump(window) == before
    assert window.undo_action.text() == undo
    dialog.force.setChecked(True)  # he says they are one fight
    press(qtbot, dialog)
    assert not dialog.isVisible()
    [merged] = queries.campaign_status(window.document).battles
    assert (merged.french, merged.allied) == (("Vistula Polish Corps", "17 Corps"),
                                              ("4 Spanish Corps", "3 British Corps"))
    assert merged.notes == ("merged with the battle of Medina del Campo (no. 2): one table",)
    assert window.menus.battles_due() == [
        "1. Olot: Vistula Polish Corps, 17 Corps against 4 Spanish Corps, 3 British Corps"]


def test_split_through_the_dialog_fights_the_flank_apart(qtbot, tmp_path):
    """The battle of Fenwick: 1 Corps against I Corps, 2 Corps and II Corps marching to the
    guns; split off 2 Corps and II Corps, they fight at Gorton (as the day's own test)."""
    u = battle_setup(tmp_path)
    u.end_day()
    u.doc.close()
    window = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    assert window.open_file(tmp_path / "c.c1813")
    dialog = window.open_battle_dialog(1, SplitDialog)
    assert [dialog.commands.item(i).text() for i in range(dialog.commands.count())] == [
        "1 Corps (French)", "2 Corps (French)", "I Corps (Allied)", "II Corps (Allied)"]
    dialog.choose(["1 Corps", "I Corps"])
    dialog.reason.setText("all of it")
    press(qtbot, dialog)
    assert dialog.message.text() == \
        "the battle of Fenwick (3 May 1813) would be left without commands of both sides"
    dialog.choose(["2 Corps", "II Corps"])
    dialog.reason.setText("the flank fight")
    press(qtbot, dialog)
    assert not dialog.isVisible()
    battles = queries.campaign_status(window.document).battles
    assert [(b.id, b.place, b.french, b.allied) for b in battles] == [
        (1, "Fenwick", ("1 Corps",), ("I Corps",)),
        (2, "Gorton", ("2 Corps",), ("II Corps",))]
    assert battle_line(battles[1]) == "2. Gorton, 3 May 1813: 2 Corps against II Corps"
    window.undo()
    assert len(queries.campaign_status(window.document).battles) == 1
    window.document.close()


def test_a_name_that_looks_like_markup_is_shown_as_it_is_spelt(two_battles, qtbot):
    """A command named with angle brackets (a scenario edited by hand) is text in the dialog's
    heading, not markup that hides it."""
    from msgspec.structs import replace

    window = two_battles
    battle = replace(queries.campaign_status(window.document).battles[0],
                     french=("<b>Vistula</b> & <i>Polish</i>",))
    dialog = PostponeDialog(battle, window.campaign)
    qtbot.addWidget(dialog)
    assert "&lt;b&gt;Vistula&lt;/b&gt; &amp; &lt;i&gt;Polish&lt;/i&gt;" in dialog.heading.text()
