"""The order pad: orders typed there reach the campaign file, refusals show the service's reason."""

from PySide6.QtCore import Qt

from campaign1813.campaign import queries, services
from campaign1813.campaign.day.state import Verb
from campaign1813.campaign.errors import CampaignError
from campaign1813.maps.types import Theatre
from campaign1813.ui.orders_panel import split_waypoints
from tests.ui.conftest import dump, find_table_item, table_row


def refusal_of(window, *args, **kw) -> str:
    """The campaign service's own reason for refusing an order (its transaction rolls back)."""
    try:
        services.issue_order(window.document, *args, **kw)
    except CampaignError as exc:
        return str(exc)
    raise AssertionError("the order was not refused")


def enter(panel, command: str, verb: str, objective: str, via: str = "") -> None:
    panel.select_command(command)
    panel.verb.setCurrentText(verb)
    panel.objective.setEditText(objective)
    panel.via.setText(via)


def test_the_pad_lists_the_commands_of_the_theatre_shown(window):
    panel = window.orders_panel
    window.campaign_view.theatres.setCurrentText(Theatre.NORTHERN_GERMANY.value)
    names = [panel.command.itemText(i) for i in range(panel.command.count())]
    assert names == ["Second French Army HQ", "4 Corps", "5 Corps", "6 Corps", "13 Polish Corps",
                     "Prussian Army HQ", "I Prussian Corps", "II Prussian Corps",
                     "III Prussian Corps", "IV Prussian Corps"]
    window.campaign_view.theatres.setCurrentText(Theatre.EASTERN_SPAIN.value)
    assert "5 Corps" not in [panel.command.itemText(i) for i in range(panel.command.count())]
    assert [panel.verb.itemText(i) for i in range(panel.verb.count())] == [v.value for v in Verb]


def test_the_objective_completes_town_names_and_aliases(window):
    panel = window.orders_panel
    towns = [panel.objective.itemText(i) for i in range(panel.objective.count())]
    assert "Helmstedt" in towns and "Braunschweig" in towns and "Brunswick" in towns
    completer = panel.objective.completer()
    completer.setCompletionPrefix("braunsch")
    assert completer.currentCompletion() == "Braunschweig"


def test_a_chosen_command_starts_from_where_it_stands(window):
    panel = window.orders_panel
    panel.select_command("6 Corps")
    assert panel.objective.currentText() == "Hanover"


def test_an_order_given_on_the_pad_shows_in_the_table_and_the_file(window, qtbot):
    panel = window.orders_panel
    enter(panel, "5 Corps", "Move", "Helmstedt")
    with qtbot.waitSignal(window.campaign_changed) as blocker:
        qtbot.mouseClick(panel.give_button, Qt.MouseButton.LeftButton)
    assert blocker.args[0].label == "Order: 5 Corps – Move Helmstedt"
    assert table_row(window, "5 Corps")[3] == "5 Corps – Move Helmstedt"
    order = queries.day_state(window.document).orders["5 Corps"]
    assert (order.verb, order.objective) == (Verb.MOVE, "Helmstedt")
    assert panel.message.text() == "Order: 5 Corps – Move Helmstedt"
    assert window.statusBar().currentMessage() == "Order: 5 Corps – Move Helmstedt"


def test_enter_in_the_objective_gives_the_order_with_waypoints_by_alias(window, qtbot):
    panel = window.orders_panel
    enter(panel, "6 Corps", "Move", "Magdeburg", via="Braunschweig")
    with qtbot.waitSignal(window.campaign_changed):
        qtbot.keyClick(panel.objective.lineEdit(), Qt.Key.Key_Return)
    order = queries.day_state(window.document).orders["6 Corps"]
    assert order.objective == "Magdeburg"
    assert order.via == ("Brunswick",)
    assert panel.via.text() == ""  # waypoints are per order


def test_enter_gives_the_order_once_from_any_field(window, qtbot):
    panel = window.orders_panel
    asked = []
    panel.order_requested.connect(asked.append)
    enter(panel, "6 Corps", "Move", "Magdeburg", via="Brunswick")
    qtbot.keyClick(panel.via, Qt.Key.Key_Enter)
    enter(panel, "4 Corps", "Move", "Lübeck")
    qtbot.keyClick(panel.objective.lineEdit(), Qt.Key.Key_Return)
    assert [(r.command, r.via) for r in asked] == [("6 Corps", ("Brunswick",)), ("4 Corps", ())]
    assert window.undo_action.text() == "&Undo Order: 4 Corps – Move Lübeck"
    window.undo()
    assert window.undo_action.text() == "&Undo Order: 6 Corps – Move Magdeburg via Brunswick"


def test_an_unknown_town_is_refused_with_the_services_reason_and_nothing_changes(window, qtbot):
    panel = window.orders_panel
    before = dump(window)
    expected = refusal_of(window, "5 Corps", "Move", "Atlantis")
    assert "Atlantis" in expected
    enter(panel, "5 Corps", "Move", "Atlantis")
    with qtbot.waitSignal(window.error_reported) as blocker:
        panel.give_button.click()
    assert blocker.args == [expected]
    assert panel.message.text() == expected
    assert "b00020" in panel.message.styleSheet()  # red
    assert expected in window.statusBar().currentMessage()
    assert dump(window) == before
    assert not window.undo_action.isEnabled()
    assert table_row(window, "5 Corps")[3] == "no orders"


def test_cancel_order_withdraws_the_order_and_refuses_when_there_is_none(window, qtbot):
    panel = window.orders_panel
    enter(panel, "4 Corps", "Move", "Lübeck")
    panel.give_button.click()
    assert table_row(window, "4 Corps")[3] == "4 Corps – Move Lübeck"
    with qtbot.waitSignal(window.campaign_changed):
        panel.cancel_button.click()
    assert table_row(window, "4 Corps")[3] == "no orders"
    assert "4 Corps" not in queries.day_state(window.document).orders
    before = dump(window)
    with qtbot.waitSignal(window.error_reported):
        panel.cancel_button.click()
    assert panel.message.text() == "4 Corps has no orders to cancel"
    assert dump(window) == before


def test_double_clicking_a_command_in_the_table_puts_it_on_the_pad(window, qtbot):
    window.resize(1100, 720)  # the offscreen screen is 800×600: room for the row to click
    window.show()
    qtbot.waitExposed(window)
    table = window.campaign_view.table
    item = find_table_item(window, "13 Polish Corps")
    table.scrollToItem(item)
    rect = table.visualItemRect(item)
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.orders_panel.command.currentText() == "13 Polish Corps"
    assert window.orders_panel.objective.currentText() == "Brunswick"


def test_the_pad_and_the_table_keep_the_same_command_through_a_refresh(window, qtbot):
    panel = window.orders_panel
    view = window.campaign_view
    view.select_command("4 Corps")
    assert panel.command.currentText() == "4 Corps"
    panel.select_command("6 Corps")
    assert view.selected_command() == "6 Corps"
    panel.objective.setEditText("Brunswick")
    with qtbot.waitSignal(window.campaign_changed):
        panel.give_button.click()
    assert panel.command.currentText() == "6 Corps"
    assert view.selected_command() == "6 Corps"
    assert panel.message.text() == "Order: 6 Corps – Move Brunswick"


def test_waypoints_are_split_on_commas_semicolons_and_arrows():
    assert split_waypoints("Brunswick, Helmstedt") == ("Brunswick", "Helmstedt")
    assert split_waypoints(" Celle → Brunswick; Helmstedt ,") == (
        "Celle", "Brunswick", "Helmstedt")
    assert split_waypoints("") == ()


def test_the_pad_previews_the_march_as_a_town_is_typed(window, qtbot):
    """5 Corps, Magdeburg to Berlin: 99 road miles at 15 a day, 7 days, arriving 7 May at
    1512 (tests/day/test_route_preview.py works it by hand); nothing while the name is half
    typed; the forced march's 20 a day, 5 days."""
    panel = window.orders_panel
    enter(panel, "5 Corps", "Move", "")
    qtbot.keyClicks(panel.objective.lineEdit(), "Berli")
    assert panel.route.text() == "" and panel.preview is None
    qtbot.keyClicks(panel.objective.lineEdit(), "n")
    expected = queries.route_preview(window.document, "5 Corps", "Move", "Berlin")
    assert panel.preview == expected
    assert (expected.miles, expected.days) == (99.0, 7)
    assert panel.route.text() == "99 miles, 7 days of march; arrives 7 May 1813, 15:12"
    assert panel.route.toolTip() == "Burg → Genthin → Brandenburg → Potsdam → Berlin"
    panel.forced.setChecked(True)
    assert panel.route.text() == "99 miles, 5 days of march; arrives 5 May 1813, 19:24"
    assert dump(window)["orders"] == {}  # a preview gives no order


def test_the_preview_says_why_an_order_would_be_refused_in_red(window):
    panel = window.orders_panel
    enter(panel, "5 Corps", "Hold", "Burg")
    assert panel.route.text() == refusal_of(window, "5 Corps", "Hold", "Burg") == \
        "5 Corps cannot hold at Burg: it stands at Magdeburg"
    assert "b00020" in panel.route.styleSheet()
    enter(panel, "5 Corps", "Hold", "Magdeburg")
    assert panel.route.text() == "5 Corps stands at Magdeburg: no march"
    assert "b00020" not in panel.route.styleSheet()


def test_the_preview_follows_the_waypoints_and_the_march_of_the_day(window, qtbot):
    """Via Brunswick the shortest road goes Helmstedt 31.5, Königslutter 9.5, Brunswick 14.5,
    back 24, Neuhaldensleben 22, the tracks to Colbitz 12 and Parey 19.5, Genthin 12.5,
    Brandenburg 18.5, Potsdam 26, Berlin 19.5: 209.5 miles; the 31.5 of track at 10 a day
    (3.15 days) and 178 at 15 (11.867): 15.017 days, the 16th day at 0800 + 0.2 h."""
    panel = window.orders_panel
    enter(panel, "5 Corps", "Move", "Berlin", via="Brunswick")
    preview = queries.route_preview(window.document, "5 Corps", "Move", "Berlin", ("Brunswick",))
    assert (preview.miles, preview.days, preview.arrival) == (209.5, 16, "16 May 1813, 08:12")
    assert panel.route.text() == "209.5 miles, 16 days of march; arrives 16 May 1813, 08:12"
    panel.via.setText("Brunswick, Helm")  # half a name: no preview yet
    assert panel.route.text() == ""
    enter(panel, "5 Corps", "Move", "Burg")
    panel.give_button.click()
    window.end_day()  # 15 of the 16.5 miles: the pad now counts from the road
    enter(panel, "5 Corps", "Move", "Berlin")
    assert panel.preview.miles == 84.0
    assert panel.route.text() == "84 miles, 6 days of march; arrives 7 May 1813, 15:12"


def test_the_waypoints_complete_the_last_name_ranked_as_the_objective(window):
    completer = window.orders_panel.waypoints
    completer.setCompletionPrefix("Helmstedt, burg")
    assert completer.offered()[:4] == ["Burg", "Burghausen", "Burgos", "Altenburg"]
    assert completer.currentCompletion() == "Helmstedt, Burg"
    completer.setCompletionPrefix("Celle → koepen")
    assert completer.offered() == ["Köpenick"]
    assert completer.currentCompletion() == "Celle → Köpenick"


def test_a_refusal_on_the_pad_goes_once_the_order_is_changed(window):
    panel = window.orders_panel
    enter(panel, "5 Corps", "Hold", "Burg")
    panel.give_button.click()
    assert panel.message.text() == "5 Corps cannot hold at Burg: it stands at Magdeburg"
    panel.verb.setCurrentText("Move")
    assert panel.message.text() == ""
    assert panel.route.text() == "16.5 miles, 2 days of march; arrives 2 May 1813, 09:12"


def test_switching_theatre_starts_the_pad_afresh_not_with_the_last_objective(window):
    panel = window.orders_panel
    window.campaign_view.theatres.setCurrentText(Theatre.EASTERN_SPAIN.value)
    enter(panel, panel.command.itemText(1), "Move", "Barcelona", via="Tarragona")
    assert panel.objective.currentText() == "Barcelona"
    window.campaign_view.theatres.setCurrentText(Theatre.NORTHERN_GERMANY.value)
    assert panel.command.currentText() == "Second French Army HQ"
    # the new command's order starts where it stands (Hamburg), with no waypoints
    assert panel.objective.currentText() == "Hamburg"
    assert panel.via.text() == "" and not panel.forced.isChecked()


def test_after_give_order_the_march_line_clears_with_the_waypoints(window):
    """The order given went via Brunswick (209.5 miles); the pad keeps no preview of it that
    the cleared waypoints no longer say."""
    panel = window.orders_panel
    enter(panel, "5 Corps", "Move", "Berlin", via="Brunswick")
    assert panel.route.text() == "209.5 miles, 16 days of march; arrives 16 May 1813, 08:12"
    panel.give_button.click()
    assert panel.message.text() == "Order: 5 Corps – Move Berlin via Brunswick"
    assert panel.via.text() == "" and panel.route.text() == "" and panel.preview is None
    panel.via.setText("Brunswick")  # typing again previews again
    assert panel.route.text() == "209.5 miles, 16 days of march; arrives 16 May 1813, 08:12"


def test_a_refusal_on_the_pad_goes_when_an_action_is_undone(window):
    panel = window.orders_panel
    enter(panel, "5 Corps", "Move", "Burg")
    panel.give_button.click()
    enter(panel, "6 Corps", "Hold", "Burg")
    panel.give_button.click()
    assert panel.message.text() == "6 Corps cannot hold at Burg: it stands at Hanover"
    window.undo_action.trigger()  # the order to 5 Corps is taken back
    assert panel.message.text() == ""
