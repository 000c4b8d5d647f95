"""Edit ▸ Undo and Redo over the file's event log: they put back the exact state of the file."""

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.day.ground import OrderRefused
from campaign1813.campaign.store.document import open_campaign
from campaign1813.ui.open_campaign import OpenCampaign
from campaign1813.ui.undo import UndoHistory
from tests.ui.conftest import table_row


@pytest.fixture
def doc(tmp_path, fresh_campaign):
    d = open_campaign(fresh_campaign(tmp_path / "c.c1813"))
    yield d
    d.close()


@pytest.fixture
def history(qtbot, doc):
    """The Undo and Redo entries over an open campaign, with no window."""
    campaign = OpenCampaign()
    campaign.open(doc)
    return UndoHistory(campaign)


def act(history, service, *args):
    """Do an action as the window does: the service, then the views told what changed."""
    changes = service(history.campaign.document, *args)
    history.campaign.apply(changes)
    return changes


def test_undo_and_redo_restore_the_exact_state(history, doc):
    start = queries.state_json(doc)
    changes = act(history, services.issue_order, "5 Corps", "Move", "Helmstedt")
    assert changes.commands == frozenset({"5 Corps"})
    after_order = queries.state_json(doc)
    assert after_order != start
    act(history, services.end_day)
    after_day = queries.state_json(doc)
    assert after_day["date"] == "1813-05-02"
    history.undo()
    assert queries.state_json(doc) == after_order
    history.undo()
    assert queries.state_json(doc) == start
    assert not history.undo_action.isEnabled()
    history.redo()
    assert queries.state_json(doc) == after_order
    history.redo()
    assert queries.state_json(doc) == after_day
    assert not history.redo_action.isEnabled()


def test_the_menus_labels_are_the_services_labels(history, doc):
    act(history, services.issue_order, "5 Corps", "Attack", "Helmstedt")
    assert history.undo_action.text() == "&Undo Order: 5 Corps – Attack Helmstedt"
    act(history, services.end_day)
    assert history.undo_action.text() == "&Undo End day: 1 May 1813"
    history.undo()
    assert history.redo_action.text() == "&Redo End day: 1 May 1813"
    assert queries.next_redo(doc) == "End day: 1 May 1813"


def test_a_refused_action_never_reaches_the_log(history, doc):
    act(history, services.issue_order, "5 Corps", "Move", "Helmstedt")
    before = queries.state_json(doc)
    with pytest.raises(OrderRefused, match="Atlantis"):
        act(history, services.issue_order, "4 Corps", "Move", "Atlantis")
    assert history.undo_action.text() == "&Undo Order: 5 Corps – Move Helmstedt"
    assert queries.state_json(doc) == before
    assert (queries.next_undo(doc), queries.next_redo(doc)) == (
        "Order: 5 Corps – Move Helmstedt", None)


def test_the_views_hear_the_action_its_undo_and_its_redo(history):
    heard = []
    history.campaign.changed.connect(lambda update: heard.append(update.changes.label))
    act(history, services.issue_order, "6 Corps", "Move", "Brunswick")
    history.undo()
    history.redo()
    assert heard == ["Order: 6 Corps – Move Brunswick", "Undo Order: 6 Corps – Move Brunswick",
                     "Redo Order: 6 Corps – Move Brunswick"]


def test_undo_takes_back_only_the_action_the_menu_named(history, doc, tmp_path):
    act(history, services.issue_order, "6 Corps", "Move", "Brunswick")
    with open_campaign(doc.path) as other:  # another window, or the command line
        services.issue_order(other, "5 Corps", "Move", "Helmstedt")
    before = queries.state_json(doc)
    with pytest.raises(OrderRefused, match="changed elsewhere"):
        history.undo()
    assert queries.state_json(doc) == before


def test_undo_matches_the_log_entry_not_its_label(history, doc):
    """The command line takes back the order the menu shows and gives it again: the same label,
    and SQLite gives the new row the old one's number. The menu's Undo is refused, not applied
    to the command line's copy."""
    act(history, services.issue_order, "6 Corps", "Move", "Brunswick")
    shown = history.undo_next
    with open_campaign(doc.path) as other:  # the command line
        services.undo(other)
        services.issue_order(other, "6 Corps", "Move", "Brunswick")
    assert queries.undo_step(doc) is not None
    assert queries.undo_step(doc).label == shown.label  # the same label …
    assert queries.undo_step(doc).entry != shown.entry  # … but another entry
    before = queries.state_json(doc)
    with pytest.raises(OrderRefused, match="changed elsewhere"):
        history.undo()
    assert queries.state_json(doc) == before
    assert queries.next_undo(doc) == "Order: 6 Corps – Move Brunswick"


def test_every_log_entry_has_an_id_of_its_own(history, doc):
    """An entry's id is never given again, even to an action logged after an undo."""
    seen = set()
    for _ in range(3):
        act(history, services.issue_order, "6 Corps", "Move", "Brunswick")
        seen.add(queries.undo_step(doc).entry)
        services.undo(doc)
    assert len(seen) == 3


def test_an_undo_taken_back_elsewhere_is_reported_and_the_file_read_again(window, qtbot):
    window.orders_panel.select_command("6 Corps")
    window.orders_panel.objective.setEditText("Brunswick")
    window.orders_panel.give_button.click()
    with open_campaign(window.document.path) as other:
        services.undo(other)
    assert window.undo_action.text() == "&Undo Order: 6 Corps – Move Brunswick"  # as read
    with qtbot.waitSignal(window.error_reported) as blocker:
        window.undo_action.trigger()
    assert blocker.args == ["there is nothing to undo"]
    assert not window.undo_action.isEnabled()
    assert window.redo_action.text() == "&Redo Order: 6 Corps – Move Brunswick"
    assert table_row(window, "6 Corps")[3] == "no orders"  # the file as it now is


def test_an_undo_after_another_window_acted_says_which_action_is_next(window, qtbot):
    window.orders_panel.select_command("6 Corps")
    window.orders_panel.objective.setEditText("Brunswick")
    window.orders_panel.give_button.click()
    with open_campaign(window.document.path) as other:
        services.issue_order(other, "5 Corps", "Move", "Helmstedt")
    with qtbot.waitSignal(window.error_reported) as blocker:
        window.undo()
    assert blocker.args == ["cannot undo Order: 6 Corps – Move Brunswick: the campaign was "
                            "changed elsewhere since; the next to undo is Order: 5 Corps – "
                            "Move Helmstedt"]
    assert window.undo_action.text() == "&Undo Order: 5 Corps – Move Helmstedt"
    assert table_row(window, "5 Corps")[3] == "5 Corps – Move Helmstedt"
    assert table_row(window, "6 Corps")[3] == "6 Corps – Move Brunswick"


def test_the_window_undoes_from_the_files_log_after_reopening(window, qtbot):
    window.orders_panel.select_command("5 Corps")
    window.orders_panel.objective.setEditText("Helmstedt")
    window.orders_panel.give_button.click()
    with_order = table_row(window, "5 Corps")
    assert with_order[3] == "5 Corps – Move Helmstedt"
    window.open_file(window.document.path)
    assert window.undo_action.isEnabled()
    assert window.undo_action.text() == "&Undo Order: 5 Corps – Move Helmstedt"
    assert not window.redo_action.isEnabled()
    with qtbot.waitSignal(window.campaign_changed):
        window.undo_action.trigger()
    assert table_row(window, "5 Corps")[3] == "no orders"
    assert window.redo_action.text() == "&Redo Order: 5 Corps – Move Helmstedt"
    assert not window.undo_action.isEnabled()
    window.redo_action.trigger()
    assert table_row(window, "5 Corps") == with_order


def test_the_window_undoes_its_own_actions_then_older_ones_and_redoes_in_order(window):
    def give(name, town):
        window.orders_panel.select_command(name)
        window.orders_panel.objective.setEditText(town)
        window.orders_panel.give_button.click()

    give("5 Corps", "Helmstedt")
    window.open_file(window.document.path)  # the first order is now only in the file's log
    start = window.undo_action.text()
    give("6 Corps", "Brunswick")
    assert window.undo_action.text() == "&Undo Order: 6 Corps – Move Brunswick"
    window.undo()
    window.undo()
    assert not window.undo_action.isEnabled()
    assert table_row(window, "5 Corps")[3] == "no orders"
    assert table_row(window, "6 Corps")[3] == "no orders"
    window.redo()  # the older first
    assert window.undo_action.text() == start
    assert table_row(window, "6 Corps")[3] == "no orders"
    window.redo()  # then this sitting's
    assert table_row(window, "6 Corps")[3] == "6 Corps – Move Brunswick"
    assert not window.redo_action.isEnabled()


def test_the_edit_menu_has_the_standard_shortcuts(window):
    from PySide6.QtGui import QKeySequence

    assert [a.text() for a in window.menuBar().actions()][1] == "&Edit"
    assert window.menus.edit_menu.actions() == [window.undo_action, window.redo_action]
    assert window.undo_action.shortcut() == QKeySequence(QKeySequence.StandardKey.Undo)
    assert window.redo_action.shortcut() == QKeySequence(QKeySequence.StandardKey.Redo)


def test_an_unexpected_error_in_an_action_is_raised_and_leaves_file_and_menu_alone(
        window, monkeypatch):
    def broken(doc, action):
        with doc.writing() as con:
            con.execute("UPDATE campaign SET name = 'half done'")
            raise RuntimeError("the disk is full")

    window.give_order(services.IssueOrder("6 Corps", "Move", "Brunswick"))
    before = queries.state_json(window.document)
    monkeypatch.setattr(services, "perform", broken)
    with pytest.raises(RuntimeError, match="the disk is full"):
        window.give_order(services.IssueOrder("5 Corps", "Move", "Helmstedt"))
    assert queries.state_json(window.document) == before
    assert window.document.summary().name == "The 1813 Campaign"  # rolled back
    assert window.undo_action.text() == "&Undo Order: 6 Corps – Move Brunswick"
