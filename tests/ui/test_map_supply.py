"""Supply on the map: depots with their stock, columns on the road, a corps' days of supplies
as a badge on its flag, a corps out of supply marked red, the army group's flag showing the
least days of its corps — and nothing of supply while it is off."""

from campaign1813.campaign import services
from campaign1813.campaign.scenario.types import Side
from campaign1813.ui.map.items import OUT_OF_SUPPLY, SUPPLY_INK, badge_colour
from campaign1813.ui.map.specs import MarkerSpec, group_spec, supply_badge, supply_days
from campaign1813.ui.operation import Operation


def _switch(window, version):
    return Operation(window.campaign,
                     lambda doc: services.change_setting(doc, "supply", version)).perform()


def _marker(window, name):
    return window.campaign_view.map_scene.markers[name]


def test_supply_off_draws_nothing_of_supply(window):
    """Supply off (the default): no depot, no column, no days badge on any flag."""
    scene = window.campaign_view.map_scene
    assert scene.supply.marks == ()
    assert all(supply_days(m.spec.badges) is None for m in scene.markers.values())


def test_supply_2016_shows_the_main_depot_and_each_corps_four_days(window):
    """Supply 2016: every corps starts with 4 days, the main depot (at the HQ's
    town, Hamburg for the Second French Army) with 6; switched off again, all goes."""
    _switch(window, "2016")
    scene = window.campaign_view.map_scene
    hamburg = [m for m in scene.supply.marks if m.town == "Hamburg"]
    assert [(m.days, m.main, m.column) for m in hamburg] == [(6, True, False)]
    assert "4 days" in _marker(window, "5 Corps").spec.badges
    assert "Supplies: 4 days" in _marker(window, "5 Corps").spec.tooltip
    _switch(window, "off")
    assert scene.supply.marks == ()
    assert supply_days(_marker(window, "5 Corps").spec.badges) is None


def test_a_corps_with_no_days_left_is_out_of_supply_in_red():
    """Supply 2016: a corps with nothing left to eat is out of supply: a red badge."""
    assert supply_badge(0) == "out of supply"
    assert supply_badge(1) == "1 day" and supply_badge(3) == "3 days"
    assert badge_colour("out of supply") == OUT_OF_SUPPLY
    assert badge_colour("2 out of supply") == OUT_OF_SUPPLY
    assert badge_colour("3 days") == SUPPLY_INK


def _spec(name, badges, hq=False):
    return MarkerSpec(name, "Hamburg", None, 0.0, name, Side.FRENCH, "#000000", hq, badges, "",
                      "Second French Army", "Davout")


def test_an_army_groups_flag_shows_the_least_days_of_its_corps():
    """At the whole map's scale one flag stands for an army group: it shows the least days of
    supplies among its corps (the HQ carries none), or how many are out of supply."""
    members = [_spec("HQ", (), hq=True), _spec("4", ("4 days",)), _spec("5", ("2 days",)),
               _spec("6", ("resting", "3 days"))]
    assert group_spec(members).badges == ("1 resting", "2 days")
    members.append(_spec("13", ("out of supply",)))
    assert group_spec(members).badges == ("1 resting", "1 out of supply")


def test_no_towns_name_is_put_over_a_depot_or_a_column(window):
    """The scene's rule (record 0024): nothing is covered by a name — a depot's store and a
    column's wagon are kept clear like a flag, at a theatre's scale and a close look's."""
    from PySide6.QtCore import QRectF

    from campaign1813.ui.supply_orders import SupplyRequest

    _switch(window, "2016")
    window.orders_panel.supply_here(SupplyRequest("move", origin="Hamburg", town="Harburg",
                                                  days=4))
    window.end_day()
    scene = window.campaign_view.map_scene
    scene.build()
    assert {(m.town, m.column) for m in scene.supply.marks} >= {("Hamburg", False),
                                                                ("Harburg", True)}
    for scale in (3.5, 12.0):
        scene.place_labels(scale)
        signs = [scene.supply.sign_rect(m, scale) for m in scene.supply.marks]
        signs = [QRectF(r.x() * scale, r.y() * scale, r.width() * scale, r.height() * scale)
                 for r in signs]
        for name, item in scene.town_names.items():
            if not item.isVisible():
                continue
            at = item.pos()
            rect = item.text_rect().translated(at.x() * scale, at.y() * scale)
            assert not any(rect.intersects(s) for s in signs), (scale, name)


def test_a_sides_map_draws_its_own_depot_column_and_days_as_the_umpires_does(window):
    """Supply 2016, switched on on 2 May; the CinC sends 4 days from Hamburg to Harburg. At
    the day's close, worked by hand: the column leaves Hamburg 6 − 4 = 2 and waits at Harburg
    with 4; each of the four corps eats a day (4 → 3); Hamburg gathers 1 (3), and the army
    (12 + 3 + 4 = 19) is topped up to its 20 at the main depot (4). View ▸ As the French
    draws the main depot (4, doubled) and the column (4 at Harburg), each corps' "3 days",
    exactly the umpire's signs for the French armies and none of the Allies'."""
    from campaign1813.ui.supply_orders import SupplyRequest

    window.end_day()  # to 2 May: the side's diary is read from the dawns kept
    _switch(window, "2016")
    window.orders_panel.supply_here(SupplyRequest("move", origin="Hamburg", town="Harburg",
                                                  days=4))
    window.end_day()
    side = window.view_as(Side.FRENCH)
    marks = {(m.town, m.days, m.main, m.column) for m in side.scene.supply.marks
             if m.army == "Second French Army"}
    assert marks == {("Hamburg", 4, True, False), ("Harburg", 4, False, True)}
    assert all(m.side is Side.FRENCH for m in side.scene.supply.marks)
    umpire = window.campaign_view.map_scene
    assert set(side.scene.supply.marks) == {m for m in umpire.supply.marks
                                            if m.side is Side.FRENCH}
    five = side.scene.markers["5 Corps"].spec
    assert "3 days" in five.badges and "Supplies: 3 days" in five.tooltip
    assert five.badges == umpire.markers["5 Corps"].spec.badges
    _switch(window, "off")
    side = window.view_as(Side.FRENCH)
    assert side.scene.supply.marks == ()
    assert supply_days(side.scene.markers["5 Corps"].spec.badges) is None


def test_the_history_draws_each_days_depots_and_columns_as_umpire_and_as_a_side(window):
    """Campaign ▸ History shows a day's depots and columns as its map showed them: on 3 May
    (supply switched on during 2 May, 4 days sent from Hamburg to Harburg) the umpire's
    history draws the umpire's signs and the French history only the French ones, as each
    map does; at the dawn of 2 May, supply not yet kept, none. A day's exported picture,
    as the French, is drawn from the same signs."""
    from campaign1813.ui.history_panel import day_markers
    from campaign1813.ui.supply_orders import SupplyRequest

    window.end_day()
    _switch(window, "2016")
    window.orders_panel.supply_here(SupplyRequest("move", origin="Hamburg", town="Harburg",
                                                  days=4))
    window.end_day()
    panel = window.show_history()
    umpire = set(window.campaign_view.map_scene.supply.marks)
    assert {(m.town, m.days, m.column) for m in panel.scene.supply.marks
            if m.army == "Second French Army"} == {("Hamburg", 4, False), ("Harburg", 4, True)}
    assert set(panel.scene.supply.marks) == umpire
    panel.view_as(Side.FRENCH)
    french = {m for m in umpire if m.side is Side.FRENCH}
    assert set(panel.scene.supply.marks) == french
    assert set(day_markers(window.document, panel.day, Side.FRENCH)[1]) == french
    panel.show_day(panel.days[1])  # the dawn of 2 May
    assert panel.scene.supply.marks == ()
    panel.view_as(None)
    assert panel.scene.supply.marks == ()
