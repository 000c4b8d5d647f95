"""The CinC's supply orders on the order pad and the map's menu, and the umpire's attrition
choice: each given through the one Operation, each refusal shown on the pad in red."""

from campaign1813.campaign import queries, services
from campaign1813.ui.operation import Operation
from campaign1813.ui.orders_panel import DONE_STYLE, REFUSED_STYLE
from campaign1813.ui.supply_orders import SupplyRequest, ask_attrition, owed


def _switch(window, version):
    Operation(window.campaign,
              lambda doc: services.change_setting(doc, "supply", version)).perform()


def _pad(window):
    return window.orders_panel.supply


def _orders(window):
    return [o.text() for o in queries.day_state(window.document).supply.orders]


def test_the_supply_orders_are_shown_only_while_supply_is_kept(window):
    """Supply is an optional rule (DESIGN §3.5): the pad shows no supply orders while it is
    off, and shows them, with the corps that carry supplies, once it is switched on."""
    pad = _pad(window)
    assert pad.isHidden()
    _switch(window, "2016")
    assert not pad.isHidden()
    assert pad.corps.findText("5 Corps") >= 0 and pad.corps.findText("Second French Army HQ") < 0
    _switch(window, "off")
    assert pad.isHidden()


def test_resupply_given_on_the_pad_and_refused_with_the_reason(window):
    """Supply 2016: a corps draws only from a depot of its army — 4 Corps at Hamburg may draw
    from the main depot there; 5 Corps at Magdeburg is refused, as no depot stands there."""
    _switch(window, "2016")
    pad, panel = _pad(window), window.orders_panel
    pad.put(SupplyRequest("resupply", corps="5 Corps", origin="Magdeburg"))
    pad.give_button.click()
    assert panel.message.styleSheet() == REFUSED_STYLE
    assert "5 Corps cannot draw from Magdeburg" in panel.message.text()
    assert "no depot there" in panel.message.text()
    assert _orders(window) == []
    pad.put(SupplyRequest("resupply", corps="4 Corps", origin="Hamburg"))
    pad.give_button.click()
    assert panel.message.styleSheet() == DONE_STYLE
    assert _orders(window) == ["resupply 4 Corps from Hamburg"]


def test_a_column_of_more_than_four_days_is_refused_on_the_pad(window):
    """Supply 2016: transport for 4 days of supplies a day: a column of 5 is refused."""
    _switch(window, "2016")
    pad, panel = _pad(window), window.orders_panel
    pad.put(SupplyRequest("move", origin="Hamburg", town="Harburg", days=5))
    assert pad.request() == SupplyRequest("move", origin="Hamburg", town="Harburg", days=5)
    pad.give_button.click()
    assert panel.message.styleSheet() == REFUSED_STYLE
    assert "can move 4 days of supplies a day" in panel.message.text()
    assert _orders(window) == []


def test_a_depot_with_a_brigade_from_the_pad(window):
    """Supply 2016: a depot is made by one full-strength infantry brigade of a corps in the
    town: 17 Brigade of 5 Corps at Magdeburg."""
    _switch(window, "2016")
    pad = _pad(window)
    pad.put(SupplyRequest("depot", corps="5 Corps", town="Magdeburg", brigade=17))
    assert pad.brigade.currentText() == "17 Brigade"
    pad.give_button.click()
    assert _orders(window) == ["establish a depot at Magdeburg with 17 Brigade"]


def test_the_maps_menu_offers_the_depots_within_reach(window):
    """Supply 2016: a corps draws within 15 road miles of a depot: the menu at a town offers
    4 Corps (at Hamburg) its main depot, and 5 Corps (at Magdeburg, far from Hamburg) none;
    a depot's town offers to send supplies on; supply off, the menu offers nothing of it."""
    view = window.campaign_view
    assert view.supply_requests("4 Corps", "Hamburg") == []
    _switch(window, "2016")
    offers = [text for text, _ in view.supply_requests("4 Corps", "Hamburg")]
    assert offers == ["Resupply 4 Corps from Hamburg", "Make a depot here with 4 Corps…",
                      "Send supplies from Hamburg to…"]
    offers = [text for text, _ in view.supply_requests("5 Corps", "Magdeburg")]
    assert offers == ["Make a depot here with 5 Corps…"]
    # chosen on the map: a complete order is given, one to finish is put on the pad
    window.orders_panel.supply_here(SupplyRequest("resupply", corps="4 Corps",
                                                  origin="Hamburg"))
    assert _orders(window) == ["resupply 4 Corps from Hamburg"]
    window.orders_panel.supply_here(SupplyRequest("move", origin="Hamburg", ready=False))
    assert _pad(window).request().origin == "Hamburg"
    assert _orders(window) == ["resupply 4 Corps from Hamburg"]


def test_end_day_refused_for_attrition_asks_the_umpire_for_the_brigade(window):
    """Supply 2020, read on: a corps out of supply loses 400 men a day, the umpire choosing the
    brigade; the next day cannot march until he has. Four days eat every corps' 4; the fifth
    End Day finds them out of supply; the next is refused and the window asks for a brigade
    of each corps, and the day marches once all are chosen."""
    _switch(window, "2020")
    for _ in range(5):
        assert window.end_day() is not None
    hungry = owed(window.campaign.status)
    assert hungry and all(men == 400 for _, men in hungry)
    asked = []

    def first_brigade(dialog):
        asked.append(dialog.corps)
        return dialog.brigade()

    window.ask_brigade = first_brigade
    assert window.end_day() is None  # refused: the brigades are owed; the window asks
    assert asked == [c for c, _ in hungry]
    assert owed(window.campaign.status) == []
    assert window.end_day() is not None


def test_the_umpire_may_decline_the_attrition_dialog(window):
    """Cancelled, the choice stays owed: nothing is changed."""
    _switch(window, "2020")
    for _ in range(5):
        window.end_day()
    before = owed(window.campaign.status)
    assert ask_attrition(window.campaign, window, lambda dialog: None) is False
    assert owed(window.campaign.status) == before


def test_right_clicking_a_corps_flag_offers_its_supply_orders(window, qtbot):
    """Supply 2016: a right-click on 4 Corps' flag (at Hamburg, the main depot's town) selects
    it and offers to draw from Hamburg; chosen, the order is given as the CinC's."""
    from PySide6.QtCore import QPoint, Qt, QTimer
    from PySide6.QtGui import QContextMenuEvent
    from PySide6.QtWidgets import QApplication

    view = window.campaign_view
    view.theatres.setCurrentText("Northern Germany")
    window.show()
    qtbot.waitExposed(window)
    _switch(window, "2016")
    mv = view.map_view
    mv.finish_building()
    marker = view.map_scene.markers["4 Corps"]
    flag = marker.flag_rect().center()
    at = mv.mapFromScene(marker.pos()) + QPoint(round(flag.x()), round(flag.y()))
    shown = []

    def choose_resupply():
        menu = QApplication.activePopupWidget()
        if menu is None:
            return
        shown.append([a.text() for a in menu.actions() if isinstance(a.data(), SupplyRequest)])
        wanted = [a for a in menu.actions() if a.text() == "Resupply 4 Corps from Hamburg"]
        if not wanted:  # not offered: the menu is closed and the test fails below
            menu.close()
            return
        menu.setActiveAction(wanted[0])
        qtbot.keyClick(menu, Qt.Key.Key_Return)

    QTimer.singleShot(0, choose_resupply)
    with qtbot.waitSignal(view.supply_wanted, timeout=3000):
        QApplication.sendEvent(mv.viewport(), QContextMenuEvent(
            QContextMenuEvent.Reason.Mouse, at, mv.mapToGlobal(at)))
    assert view.selected_command() == "4 Corps"
    assert shown == [["Resupply 4 Corps from Hamburg", "Make a depot here with 4 Corps…",
                      "Send supplies from Hamburg to…"]]
    assert _orders(window) == ["resupply 4 Corps from Hamburg"]
