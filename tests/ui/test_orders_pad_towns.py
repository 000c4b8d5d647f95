"""The pad's objective: towns completed best match first whatever the umlauts, and a beaten
command offered only the towns it may retreat to."""

import pytest
from msgspec.structs import replace
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication

from campaign1813.campaign import queries, services
from campaign1813.campaign.day.aftermath import retreat_destinations
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.scenario.types import Side
from campaign1813.maps.names import fold
from campaign1813.ui.orders_panel import TownName, completions
from tests.ui.conftest import table_row


@pytest.fixture
def pad(window, qtbot):
    window.show()
    qtbot.waitExposed(window)
    return window.orders_panel


def key_in(line, text: str) -> None:
    """Key events for each character, as a keyboard with umlauts sends them (QTest types only
    ASCII)."""
    for ch in text:
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(line, QKeyEvent(kind, Qt.Key.Key_unknown,
                                                   Qt.KeyboardModifier.NoModifier, ch))


@pytest.fixture
def typed(pad):
    """Type into the objective key by key, as the umpire does; the towns then offered."""
    def type_in(text: str) -> list[str]:
        line = pad.objective.lineEdit()
        line.clear()
        pad.objective.setFocus()
        key_in(line, text)
        return offered(pad)
    return type_in


def offered(panel) -> list[str]:
    """The towns the objective's completer offers now, in order."""
    return panel.objective.completer().offered()


def every_name(window) -> list[str]:
    """Every town of the open campaign's map and every other name it goes by."""
    return [n for t in window.campaign.scenario.map.towns for n in (t.name, *t.aliases)]


def objective_items(panel) -> list[str]:
    return [panel.objective.itemText(i) for i in range(panel.objective.count())]


# ----- ordering, without a window -----------------------------------------------------------


def test_the_exact_name_comes_first_then_names_beginning_with_it_then_names_containing_it():
    names = [TownName.of(n) for n in ("Magdeburg", "Burgos", "Altenburg", "Burg", "Berlin",
                                      "Burghausen")]
    assert completions("Burg", names) == ["Burg", "Burghausen", "Burgos", "Altenburg",
                                          "Magdeburg"]
    assert completions("burgh", names) == ["Burghausen"]
    assert completions("Paris", names) == []


def test_a_name_is_found_by_its_other_spellings_and_sorted_as_if_without_umlauts():
    names = [TownName.of("Ratisbon", ["Regensburg"]), TownName.of("Munich", ["München"]),
             TownName.of("Münden"), TownName.of("Münster")]
    assert completions("regens", names) == ["Ratisbon"]
    assert completions("mun", names) == ["Münden", "Munich", "Münster"]
    assert completions("MÜNCHEN", names) == ["Munich"]


# ----- the 1813 campaign on the pad ----------------------------------------------------------


def test_burg_offers_burg_then_the_towns_beginning_with_burg_then_the_others(
        window, pad, typed):
    towns = typed("Burg")
    assert towns[:4] == ["Burg", "Burghausen", "Burgos", "Altenburg"]
    rest = towns[3:]
    assert {"Altenburg", "Magdeburg", "Hamburg", "Würzburg", "Regensburg"} <= set(rest)
    assert not any(fold(n).startswith("burg") for n in rest)
    assert rest == sorted(rest, key=fold)  # Lüneburg between Lauenburg and Magdeburg
    assert rest.index("Lauenburg") < rest.index("Lüneburg") < rest.index("Magdeburg")
    assert sorted(towns) == sorted(n for n in every_name(window) if "burg" in n.casefold())
    completer = pad.objective.completer()
    assert completer.popup().isVisible()
    assert completer.currentCompletion() == "Burg"


def test_enter_in_the_list_takes_the_best_match_and_the_next_enter_gives_the_order(
        pad, qtbot, typed):
    asked = []
    pad.order_requested.connect(asked.append)
    pad.select_command("5 Corps")
    typed("burg")
    qtbot.keyClick(pad.objective.completer().popup(), Qt.Key.Key_Return)
    assert pad.objective.currentText() == "Burg"
    assert asked == []
    qtbot.keyClick(pad.objective.lineEdit(), Qt.Key.Key_Return)
    assert [(r.command, r.objective) for r in asked] == [("5 Corps", "Burg")]


@pytest.mark.parametrize("spelling", ["Koepenick", "Kopenick", "Köpenick", "KOEPENICK",
                                      "köpen", "koepen"])
def test_koepenick_is_found_with_or_without_its_umlaut(pad, spelling, typed):
    assert typed(spelling) == ["Köpenick"]


@pytest.mark.parametrize(("spelling", "first"), [
    ("Munchen", "München"), ("Muenchen", "München"), ("luebeck", "Lübeck"),
    ("Wurzburg", "Würzburg"), ("Stassfurt", "Staßfurt"),
    # and the other way: accents typed find the plain spellings of the map
    ("Lérida", "Lerida"), ("Meißen", "Meissen"), ("Ávila", "Avila"),
])
def test_umlauts_and_accents_do_not_matter_either_way(pad, spelling, first, typed):
    assert typed(spelling)[0] == first
    assert pad.objective.completer().currentCompletion() == first


def test_a_name_not_on_the_map_offers_nothing_and_is_left_as_typed(pad, typed):
    assert typed("Atlantis") == []
    assert not pad.objective.completer().popup().isVisible()
    assert pad.objective.currentText() == "Atlantis"


def test_the_list_holds_every_town_and_other_name_in_order_without_umlauts(window, pad):
    items = objective_items(pad)
    assert sorted(items) == sorted(set(every_name(window)))
    assert items == sorted(items, key=lambda n: (fold(n), n))
    assert items.index("Münden") < items.index("Munich")


# ----- a beaten command ---------------------------------------------------------------------


def line_campaign(path) -> None:
    """The hand-made line of the day tests (Westhall –100– Aston –10– Brook –10– Carden –10–
    Dunmore –10– Elford –10– Fenwick –6– Gorton –14– Hexham –100– Easthall, a spur Elford –8–
    Dale, Eyrie with no road), Gorton also called Gortonia: 1 Corps attacks I Corps at Fenwick
    on 3 May and wins, so on 4 May beaten I Corps must retreat to Gorton or Hexham."""
    from tests.day.builders import army, line, new_campaign, road, scenario

    towns = ["Westhall", "Aston", "Brook", "Carden", "Dunmore", "Elford", "Fenwick", "Gorton",
             "Hexham", "Easthall", "Dale", "Eyrie"]
    roads = ([road("Westhall", "Aston", 100)]
             + line(["Aston", "Brook", "Carden", "Dunmore", "Elford", "Fenwick"])
             + [road("Fenwick", "Gorton", 6), road("Gorton", "Hexham", 14),
                road("Hexham", "Easthall", 100), road("Elford", "Dale", 8)])
    scen = scenario(towns, roads, [
        army("Armée", Side.FRENCH, "Westhall",
             {"1 Corps": "Aston", "2 Corps": "Dale", "3 Corps": "Westhall"}),
        army("Prussians", Side.ALLIED, "Easthall", {"I Corps": "Fenwick", "II Corps": "Gorton"})])
    scen = replace(scen, map=replace(scen.map, towns=tuple(
        replace(t, aliases=("Gortonia",)) if t.name == "Gorton" else t for t in scen.map.towns)))
    doc = new_campaign(path, scen)
    services.issue_order(doc, "1 Corps", "Attack", "Fenwick")
    services.issue_order(doc, "I Corps", "Hold", "Fenwick")
    for _ in range(3):
        services.end_day(doc)
    services.record_result(doc, 1, "French")
    services.end_day(doc)
    doc.close()


def refusal(doc, *args) -> str:
    try:
        services.issue_order(doc, *args)
    except CampaignError as exc:
        return str(exc)
    raise AssertionError("the order was not refused")


def day_rule_retreats(doc, name: str) -> list[str]:
    """The towns the campaign day's own rule lets a beaten command retreat to."""
    state = queries.day_state(doc)
    return sorted(retreat_destinations(doc.ground().adjusted(state.settings), state, name))


def test_a_command_that_must_retreat_is_offered_only_its_roads_of_retreat(
        window, pad, tmp_path, typed):
    line_campaign(tmp_path / "line.c1813")
    assert window.open_file(tmp_path / "line.c1813")
    doc = window.document
    assert table_row(window, "I Corps")[2] == "retreating"
    assert refusal(doc, "I Corps", "Move", "Elford").endswith(
        "it may retreat to Gorton or Hexham, not Elford")
    legal = list(queries.commands(doc, ["I Corps"])[0].retreats)
    assert legal == day_rule_retreats(doc, "I Corps") == ["Gorton", "Hexham"]

    pad.select_command("I Corps")
    assert objective_items(pad) == legal
    assert pad.objective.currentText() == "Gorton"
    assert offered(pad) == legal
    assert typed("h") == ["Hexham"]
    assert typed("Elford") == []  # a town of the map, but not a road of retreat
    assert typed("gortonia") == ["Gorton"]  # found by its other name, offered by its own

    pad.select_command("2 Corps")  # not beaten: every town
    assert sorted(objective_items(pad)) == sorted(every_name(window))
    assert typed("Elford") == ["Elford"]
    pad.select_command("I Corps")
    assert objective_items(pad) == legal


def test_once_the_retreat_is_made_the_command_may_be_sent_anywhere(
        window, pad, qtbot, tmp_path):
    line_campaign(tmp_path / "line.c1813")
    assert window.open_file(tmp_path / "line.c1813")
    pad.select_command("I Corps")
    pad.objective.setEditText("Hexham")
    with qtbot.waitSignal(window.campaign_changed):
        pad.give_button.click()
    assert objective_items(pad) == ["Gorton", "Hexham"]  # still its day of retreat
    for name, verb, town in [("II Corps", "Move", "Hexham"), ("1 Corps", "Rest", "Elford")]:
        pad.select_command(name)
        pad.verb.setCurrentText(verb)
        pad.objective.setEditText(town)
        pad.give_button.click()
    assert set(queries.day_state(window.document).orders) == {"I Corps", "II Corps", "1 Corps"}
    pad.select_command("I Corps")
    with qtbot.waitSignal(window.campaign_changed) as blocker:
        window.menus.end_day_action.trigger()
    assert blocker.args[0].date_changed
    assert queries.commands(window.document, ["I Corps"])[0].retreats == ()
    assert sorted(objective_items(pad)) == sorted(every_name(window))
    assert offered(pad) == objective_items(pad)


def test_the_beaten_corps_of_the_1813_campaign_is_offered_the_services_retreats(window, pad):
    from tests.ui.test_day_actions import march_to_battle

    march_to_battle(window)
    battle_id = int(window.menus.battles_due()[0].split(".")[0])
    window.record_result(battle_id, "French")
    window.menus.end_day_action.trigger()
    legal = list(queries.commands(window.document, ["I Prussian Corps"])[0].retreats)
    assert legal and legal == day_rule_retreats(window.document, "I Prussian Corps")
    pad.select_command("I Prussian Corps")
    assert objective_items(pad) == offered(pad) == legal
    pad.select_command("5 Corps")
    assert len(objective_items(pad)) == len(set(every_name(window)))
