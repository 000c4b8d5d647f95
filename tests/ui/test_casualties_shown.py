"""A corps that force-marched shows its casualties in the commands' table."""

from campaign1813.campaign import services
from campaign1813.ui.map.view import STATE_WIDTH
from tests.ui.conftest import find_table_item, table_row


def test_three_forced_marches_show_three_casualties_a_brigade_in_the_table(window, qtbot):
    """4 Corps (brigades 13–16) force-marches three days towards Munich: one casualty on each
    infantry brigade a day, so 3 on each and 12 in all, in the state cell and its tooltip."""
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    table = window.campaign_view.table
    header = table.header()
    orders_before = table.viewport().width() - header.sectionPosition(3)
    services.issue_order(window.document, "4 Corps", "Move", "Munich", forced=True)
    for _ in range(3):
        window.end_day()
    assert table_row(window, "4 Corps")[2] == "ready, 12 cas."
    item = find_table_item(window, "4 Corps")
    assert item.toolTip(2) == ("ready\nCasualties carried to its next battle: 3 on each of "
                               "brigades 13–16.")
    assert table_row(window, "5 Corps")[2] == "ready"
    assert find_table_item(window, "5 Corps").toolTip(2) == "ready"
    # the state is read whole, and the orders lose no more than a few characters of room
    assert header.sectionSize(2) > table.fontMetrics().horizontalAdvance("ready, 12 cas.")
    orders_after = table.viewport().width() - header.sectionPosition(3)
    assert header.sectionSize(2) - STATE_WIDTH <= 40
    assert orders_after >= orders_before - 20
