"""End Day, battle results and the diary through the window's menus."""

from campaign1813.campaign import queries, services
from campaign1813.campaign.day.state import Status
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.scenario.types import Side
from campaign1813.ui.main_window import APP_TITLE
from tests.ui.conftest import dump, find_table_item, table_row


def give(window, command, verb, town):
    window.orders_panel.select_command(command)
    window.orders_panel.verb.setCurrentText(verb)
    window.orders_panel.objective.setEditText(town)
    window.orders_panel.give_button.click()


def march_to_battle(window) -> None:
    """5 Corps holds Magdeburg, I Prussian Corps attacks it; end days until they fight."""
    give(window, "5 Corps", "Hold", "Magdeburg")
    give(window, "I Prussian Corps", "Attack", "Magdeburg")
    for _ in range(10):
        window.menus.end_day_action.trigger()
        if window.menus.battles_due():
            return
    raise AssertionError("no battle within ten days")


def battle_menu_action(window, battle_line: str, text: str):
    window.menus.rebuild_battle_menu()
    for action in window.menus.battle_menu.actions():
        if action.menu() is not None and action.text() == battle_line:
            return next(a for a in action.menu().actions() if a.text() == text)
    raise AssertionError(f"no {text} under {battle_line}")


def test_end_day_from_the_menu_moves_the_date_in_the_title(window, qtbot):
    assert window.windowTitle() == f"The 1813 Campaign — 1 May 1813 — {APP_TITLE}"
    assert window.menus.end_day_action.shortcut().toString() == "Ctrl+E"
    give(window, "5 Corps", "Move", "Helmstedt")
    with qtbot.waitSignal(window.campaign_changed) as blocker:
        window.menus.end_day_action.trigger()
    assert blocker.args[0].date_changed
    assert window.windowTitle() == f"The 1813 Campaign — 2 May 1813 — {APP_TITLE}"
    report = window.report_pane.toPlainText()
    assert "— End day: 1 May 1813 —" in report
    assert "1 May 1813 ends." in report
    assert "5 Corps marched" in report
    assert window.report_dock.isVisible() or not window.isVisible()
    assert table_row(window, "5 Corps")[1] != "Magdeburg"


def test_undo_of_end_day_puts_the_date_back(window, qtbot):
    before = dump(window)
    window.menus.end_day_action.trigger()
    assert "2 May 1813" in window.windowTitle()
    window.undo_action.trigger()
    assert "1 May 1813" in window.windowTitle()
    assert dump(window) == before


def test_a_day_with_a_battle_stays_open_and_says_so(window, qtbot):
    march_to_battle(window)
    due = window.menus.battles_due()
    assert len(due) == 1 and due[0].endswith("5 Corps against I Prussian Corps")
    message = window.statusBar().currentMessage()
    assert "stays open until its battle has a result (Battle menu)" in message
    assert "(marched; battles to fight)" in window.campaign_view.heading.text()
    title = window.windowTitle()
    before = dump(window)
    with qtbot.waitSignal(window.error_reported) as blocker:
        window.menus.end_day_action.trigger()
    assert "cannot end" in blocker.args[0] and "no result yet" in blocker.args[0]
    assert dump(window) == before
    assert window.windowTitle() == title


def test_recording_a_result_from_the_battle_menu_rests_the_winner(window, qtbot):
    march_to_battle(window)
    line = window.menus.battles_due()[0]
    battle_id = int(line.split(".")[0])
    texts = [a.text() for a in battle_menu_action(window, line, "Draw").parent().actions()]
    assert [t for t in texts if t] == ["French Win", "Allied Win", "Draw", "&Postpone…",
                                       "&Merge With…", "&Split…"]
    with qtbot.waitSignal(window.campaign_changed) as blocker:
        battle_menu_action(window, line, "French Win").trigger()
    assert blocker.args[0].battles == frozenset({battle_id})
    state = queries.day_state(window.document)
    assert state.battles[battle_id].result == "French"
    assert state.commands["5 Corps"].status is Status.RESTING
    assert state.commands["I Prussian Corps"].status is Status.RETREATING
    assert table_row(window, "5 Corps")[2] == "resting"
    assert table_row(window, "I Prussian Corps")[2] == "retreating"
    assert window.menus.battles_due() == []
    window.menus.rebuild_battle_menu()
    assert [a.text() for a in window.menus.battle_menu.actions()] == ["No battles are due"]
    assert not window.menus.battle_menu.actions()[0].isEnabled()
    assert "the French win" in window.report_pane.toPlainText()


def test_the_winner_resting_next_day_is_refused_a_march_word_for_word(window, qtbot):
    march_to_battle(window)
    battle_id = int(window.menus.battles_due()[0].split(".")[0])
    window.record_result(battle_id, "French")
    window.menus.end_day_action.trigger()  # closes the day of the battle
    before = dump(window)
    try:
        services.issue_order(window.document, "5 Corps", "Move", "Helmstedt")
    except CampaignError as exc:
        expected = str(exc)
    assert "resting" in expected
    window.orders_panel.select_command("4 Corps")
    window.orders_panel.select_command("5 Corps")
    assert window.orders_panel.message.text() == expected  # said before he tries
    assert table_row(window, "5 Corps")[2] == "resting"
    assert find_table_item(window, "5 Corps").toolTip(2) == expected
    give(window, "5 Corps", "Move", "Helmstedt")
    assert window.orders_panel.message.text() == expected
    assert dump(window) == before


def test_a_result_that_the_service_refuses_is_reported_and_changes_nothing(window, qtbot):
    before = dump(window)
    with qtbot.waitSignal(window.error_reported) as blocker:
        assert window.record_result(7, "French") is None
    assert blocker.args == ["there is no battle number 7"]
    assert dump(window) == before
    assert not window.undo_action.isEnabled()


def test_the_diary_window_shows_the_diary_and_follows_new_actions(window, qtbot):
    give(window, "5 Corps", "Move", "Helmstedt")
    window.menus.diary_action.trigger()
    diary = window.diary_window
    assert diary.isVisible() and not diary.isModal()
    assert diary.text.toPlainText() == "1 May 1813\nOrder: 5 Corps – Move Helmstedt"
    window.menus.end_day_action.trigger()
    lines = diary.text.toPlainText().splitlines()
    assert lines[-1] == "1 May 1813 ends."
    window.undo_action.trigger()
    assert diary.text.toPlainText() == "1 May 1813\nOrder: 5 Corps – Move Helmstedt"


def cut_off_campaign(path):
    """§3.3 item 6 on the hand-made line of the day tests (Westhall –100– Aston –10– Brook –10–
    Carden –10– Dunmore –10– Elford –10– Fenwick, a spur Elford –8– Dale, Eyrie with no road):
    1 Corps attacks I Corps at Fenwick and wins; beaten I Corps has no road east of Fenwick."""
    from tests.day.builders import army, line, new_campaign, road, scenario

    towns = ["Westhall", "Aston", "Brook", "Carden", "Dunmore", "Elford", "Fenwick", "Dale",
             "Eyrie"]
    roads = ([road("Westhall", "Aston", 100)]
             + line(["Aston", "Brook", "Carden", "Dunmore", "Elford", "Fenwick"])
             + [road("Elford", "Dale", 8)])
    scen = scenario(towns, roads, [
        army("Armée", Side.FRENCH, "Westhall",
             {"1 Corps": "Aston", "2 Corps": "Dale", "3 Corps": "Westhall"}),
        army("Prussians", Side.ALLIED, "Eyrie", {"I Corps": "Fenwick"})])
    doc = new_campaign(path, scen)
    services.issue_order(doc, "1 Corps", "Attack", "Fenwick")
    services.issue_order(doc, "I Corps", "Hold", "Fenwick")
    for _ in range(3):
        services.end_day(doc)
    services.record_result(doc, 1, "French")
    services.end_day(doc)
    doc.close()


def test_a_cut_off_command_is_offered_surrender_or_break_out(window, qtbot, tmp_path):
    """The Battle menu offers surrender or a break-out towards each town open to it (not
    Elford, where the winner stands, nor Dale, where 2 Corps stands)."""
    cut_off_campaign(tmp_path / "line.c1813")
    assert window.open_file(tmp_path / "line.c1813")
    assert window.menus.cut_off_commands() == ["I Corps"]
    menu = next(a.menu() for a in window.menus.battle_menu.actions() if a.text() == "I Corps")
    menu.aboutToShow.emit()
    assert [a.text() for a in menu.actions()] == [
        "Surrender", "Break Out towards Dunmore through 1 Corps"]
    with qtbot.waitSignal(window.campaign_changed):
        menu.actions()[1].trigger()
    order = queries.day_state(window.document).orders["I Corps"]
    assert (order.objective, order.breakout) == ("Dunmore", True)
    window.undo_action.trigger()
    menu = next(a.menu() for a in window.menus.battle_menu.actions() if a.text() == "I Corps")
    menu.aboutToShow.emit()
    menu.actions()[0].trigger()
    assert queries.day_state(window.document).commands["I Corps"].status is Status.SURRENDERED
    assert window.menus.cut_off_commands() == []
    assert "I Corps" not in [a.text() for a in window.menus.battle_menu.actions()]
    assert "I Corps" not in [window.orders_panel.command.itemText(i)
                             for i in range(window.orders_panel.command.count())]


def test_the_beaten_command_is_offered_its_roads_of_retreat_on_the_pad(window, qtbot):
    march_to_battle(window)
    battle_id = int(window.menus.battles_due()[0].split(".")[0])
    window.record_result(battle_id, "French")
    window.menus.end_day_action.trigger()
    legal = list(queries.commands(window.document, ["I Prussian Corps"])[0].retreats)
    assert legal
    panel = window.orders_panel
    panel.select_command("I Prussian Corps")
    assert panel.verb.currentText() == "Move"
    assert panel.objective.currentText() == legal[0]
    assert panel.message.text().endswith(f": it may retreat to {' or '.join(legal)}")
    assert "must retreat" in panel.message.text()
    with qtbot.waitSignal(window.campaign_changed):
        panel.give_button.click()
    assert table_row(window, "I Prussian Corps")[3] == f"I Prussian Corps – Move {legal[0]}"


def test_the_heading_stops_asking_for_battles_once_they_have_results(window, qtbot):
    march_to_battle(window)
    view = window.campaign_view
    assert view.heading.text() == "The 1813 Campaign — " + window.windowTitle().split(" — ")[1] \
        + " (marched; battles to fight)"
    battle_id = int(window.menus.battles_due()[0].split(".")[0])
    with qtbot.waitSignal(window.campaign_changed):
        window.record_result(battle_id, "allied")  # any case, as on the command line
    assert queries.day_state(window.document).battles[battle_id].result == "Allied"
    assert view.heading.text().endswith(" (marched; battles decided — End Day closes the day)")
    window.undo_action.trigger()
    assert view.heading.text().endswith(" (marched; battles to fight)")


def test_the_pad_takes_towns_without_umlauts_and_offers_near_misses(window, qtbot):
    give(window, "4 Corps", "Move", "Luebeck")
    assert table_row(window, "4 Corps")[3].startswith("4 Corps – Move Lübeck")
    give(window, "5 Corps", "Move", "Brunswik")
    assert window.orders_panel.message.text() == (
        "order for 5 Corps refused: no town called 'Brunswik' on the map; did you mean "
        "Brunswick?")


def test_a_retreat_chosen_for_a_command_not_cut_off_is_refused_and_told(window, qtbot):
    before = dump(window)
    with qtbot.waitSignal(window.error_reported) as told:
        assert window.choose_retreat("5 Corps", "surrender") is None
    assert told.args[0] == "5 Corps is not cut off; it needs no surrender or break-out"
    assert dump(window) == before
