"""Umpire actions on a QUndoStack: undo and redo put back the exact state of the campaign file."""

import pytest
from PySide6.QtGui import QUndoStack

from campaign1813.campaign import commands as services
from campaign1813.campaign.day.cycle import end_day
from campaign1813.campaign.day.ground import OrderRefused
from campaign1813.campaign.day.state import dump_state
from campaign1813.campaign.store.document import create_campaign
from campaign1813.ui.undo import CampaignAction, log_labels, push_action
from tests.ui.conftest import table_row


@pytest.fixture
def doc(tmp_path):
    d = create_campaign(tmp_path / "c.c1813")
    yield d
    d.close()


def state_of(doc) -> dict:
    with doc.session() as session:
        return dump_state(session)


def order(command, verb, town):
    return lambda session: services.issue_order(session, command, verb, town)


def test_undo_and_redo_restore_the_exact_state(qtbot, doc):
    stack = QUndoStack()
    start = state_of(doc)
    changes = push_action(stack, CampaignAction(doc, order("5 Corps", "Move", "Helmstedt")))
    assert changes.commands == frozenset({"5 Corps"})
    after_order = state_of(doc)
    assert after_order != start
    push_action(stack, CampaignAction(doc, end_day))
    after_day = state_of(doc)
    assert after_day["date"] == "1813-05-02"
    assert stack.count() == 2
    stack.undo()
    assert state_of(doc) == after_order
    stack.undo()
    assert state_of(doc) == start
    stack.redo()
    assert state_of(doc) == after_order
    stack.redo()
    assert state_of(doc) == after_day


def test_the_commands_text_is_the_services_label(qtbot, doc):
    stack = QUndoStack()
    push_action(stack, CampaignAction(doc, order("5 Corps", "Attack", "Helmstedt")))
    assert stack.undoText() == "Order: 5 Corps – Attack Helmstedt"
    push_action(stack, CampaignAction(doc, end_day))
    assert stack.undoText() == "End day: 1 May 1813"
    stack.undo()
    assert stack.redoText() == "End day: 1 May 1813"
    with doc.session() as session:
        assert services.next_redo(session) == "End day: 1 May 1813"


def test_a_refused_action_never_lands_on_the_stack(qtbot, doc):
    stack = QUndoStack()
    push_action(stack, CampaignAction(doc, order("5 Corps", "Move", "Helmstedt")))
    before = state_of(doc)
    with pytest.raises(OrderRefused, match="Atlantis"):
        push_action(stack, CampaignAction(doc, order("4 Corps", "Move", "Atlantis")))
    assert stack.count() == 1
    assert stack.undoText() == "Order: 5 Corps – Move Helmstedt"
    assert state_of(doc) == before
    assert log_labels(doc) == ("Order: 5 Corps – Move Helmstedt", None)


def test_the_listener_hears_the_action_its_undo_and_its_redo(qtbot, doc):
    heard = []
    stack = QUndoStack()
    push_action(stack, CampaignAction(doc, order("6 Corps", "Move", "Brunswick"),
                                      lambda c: heard.append(c.label)))
    stack.undo()
    stack.redo()
    assert heard == ["Order: 6 Corps – Move Brunswick", "Undo Order: 6 Corps – Move Brunswick",
                     "Redo Order: 6 Corps – Move Brunswick"]


def test_an_undo_that_the_log_refuses_is_reported_and_dropped(qtbot, doc):
    refused = []
    stack = QUndoStack()
    push_action(stack, CampaignAction(doc, order("6 Corps", "Move", "Brunswick"),
                                      on_refused=refused.append))
    with doc.session() as session:  # taken back elsewhere, e.g. by the command line
        services.undo(session)
    stack.undo()
    assert refused == ["Order: 6 Corps – Move Brunswick: there is nothing to undo"]
    assert stack.count() == 0


def test_the_window_undoes_from_the_files_log_after_reopening(window, qtbot):
    window.orders_panel.select_command("5 Corps")
    window.orders_panel.objective.setEditText("Helmstedt")
    window.orders_panel.give_button.click()
    with_order = table_row(window, "5 Corps")
    assert with_order[3] == "5 Corps – Move Helmstedt"
    window.open_file(window.document.path)
    assert window.undo_stack.count() == 0
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
    window.undo()  # from the stack
    window.undo()  # from the log
    assert window.undo_stack.index() == 0
    assert table_row(window, "5 Corps")[3] == "no orders"
    assert table_row(window, "6 Corps")[3] == "no orders"
    window.redo()  # the log's first
    assert window.undo_action.text() == start
    assert table_row(window, "6 Corps")[3] == "no orders"
    window.redo()  # then the stack's
    assert table_row(window, "6 Corps")[3] == "6 Corps – Move Brunswick"
    assert not window.redo_action.isEnabled()


def test_the_edit_menu_has_the_standard_shortcuts(window):
    from PySide6.QtGui import QKeySequence

    assert [a.text() for a in window.menuBar().actions()][1] == "&Edit"
    assert window.undo_action.shortcut() == QKeySequence(QKeySequence.StandardKey.Undo)
    assert window.redo_action.shortcut() == QKeySequence(QKeySequence.StandardKey.Redo)


def test_an_unexpected_error_in_an_action_is_raised_and_leaves_the_stack_alone(qtbot, doc):
    def broken(session):
        services.issue_order(session, "5 Corps", "Move", "Helmstedt")
        raise RuntimeError("the disk is full")

    stack = QUndoStack()
    before = state_of(doc)
    with pytest.raises(RuntimeError, match="the disk is full"):
        push_action(stack, CampaignAction(doc, broken))
    assert stack.count() == 0
    assert state_of(doc) == before  # the session rolled the order back
