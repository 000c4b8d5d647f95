"""The Objectives dock: each theatre's objectives and who holds their towns, since when, as the
1813 scenario sets them (seed 000's objectives), shown again when a town changes hands."""

from campaign1813.campaign.services import IssueOrder


def rows_of(window, theatre: str):
    """The dock's rows under one theatre: (depth, cells)."""
    rows = window.objectives_panel.rows()
    start = next(i for i, (d, cells) in enumerate(rows) if d == 0 and cells[0] == theatre)
    out = []
    for depth, cells in rows[start + 1:]:
        if depth == 0:
            break
        out.append((depth, cells))
    return out


def test_the_dock_lists_each_theatres_objectives_and_their_holders(window):
    panel = window.objectives_panel
    assert window.objectives_dock.windowTitle() == "Objectives"
    assert window.objectives_dock.toggleViewAction() in window.menus.campaign_menu.actions()
    theatres = [cells for depth, cells in panel.rows() if depth == 0]
    assert theatres == [
        ("Northern Germany", "", ""), ("Central Germany", "", ""),
        ("Southern Germany and Austria", "", ""), ("Eastern Spain", "French: all met", ""),
        ("Western Spain", "French: all met", "")]
    assert rows_of(window, "Northern Germany") == [
        (1, ("French: Hold the line of the Elbe, and above all the fortress of Magdeburg.",
             "not met", "")),
        (2, ("Magdeburg", "French", "from the start")),
        (2, ("Wittenberg", "nobody", "")),
        (1, ("French: Keep the road from Hanover to Hamburg open.", "met", "from the start")),
        (2, ("Hanover", "French", "from the start")),
        (2, ("Hamburg", "French", "from the start")),
        (1, ("Allied: Cross the Elbe and take Magdeburg.", "not met", "")),
        (2, ("Magdeburg", "French", "from the start")),
        (1, ("Allied: Then open the road to Hanover.", "not met", "")),
        (2, ("Hanover", "French", "from the start")),
    ]
    assert [cells for depth, cells in rows_of(window, "Eastern Spain") if depth == 2] == [
        ("Barcelona", "French", "from the start"), ("Tarragona", "French", "from the start"),
        ("Gerona", "French", "from the start"), ("Figueras", "French", "from the start"),
        ("Tarragona", "French", "from the start"), ("Gerona", "French", "from the start")]


def test_a_town_taken_shows_its_new_holder_and_the_day_and_undo_takes_it_back(window):
    """14 Westphalian Corps marches the 23 miles from Halle to Leipzig (nobody's) and reaches
    it on 2 May: after that day's march Leipzig is French, since 2 May 1813."""
    assert window.give_order(IssueOrder("14 Westphalian Corps", "Move", "Leipzig"))
    window.end_day()
    assert (2, ("Leipzig", "nobody", "")) in rows_of(window, "Central Germany")
    window.end_day()
    assert (2, ("Leipzig", "French", "2 May 1813")) in rows_of(window, "Central Germany")
    window.undo()
    assert (2, ("Leipzig", "nobody", "")) in rows_of(window, "Central Germany")


def test_the_dock_behind_the_report_fills_when_it_is_shown(window, qtbot):
    """The Objectives tab sits behind the Day's Report: its tree is filled when the tab is
    brought forward, not while the window opens the campaign."""
    panel = window.objectives_panel
    window.show()
    qtbot.waitExposed(window)
    assert panel.tree.topLevelItemCount() == 0
    window.objectives_dock.raise_()
    qtbot.waitUntil(lambda: panel.tree.topLevelItemCount() > 0)
    assert panel.tree.topLevelItem(0).text(0) == "Northern Germany"
