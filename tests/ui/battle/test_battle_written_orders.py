"""The written orders at the table are the campaign's orders of the day (DESIGN §4.1; seed 000,
Rule 4), in the battle window's setup page and on the setup sheet alike.

I Prussian Corps marches on Magdeburg with a Move order (its road runs through 5 Corps, so the
two fight, the Allies attacking), and 5 Corps halts at Magdeburg: the table shows Move and
Halt, the orders they were given, not the Attack and Hold a battle's attacker would suggest.
"""

from campaign1813.campaign.export.setup_sheet import setup_sheet
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.services import IssueOrder

PRUSSIANS = "I Prussian Corps"


def test_the_setup_page_and_sheet_show_the_orders_of_the_day(window):
    window.give_order(IssueOrder(PRUSSIANS, "Move", "Magdeburg"))
    window.give_order(IssueOrder("5 Corps", "Halt", "Magdeburg"))
    for _ in range(6):
        window.end_day()
    battle = window.campaign.status.battles[0]
    assert (battle.place, battle.attacker) == ("Magdeburg", Side.ALLIED)
    bw = window.open_battle_window(battle.id)
    bw.setup_page.open_button.click()
    page = bw.setup_page
    assert page.order_combo(PRUSSIANS).currentText() == "Move"
    assert page.order_combo("5 Corps").currentText() == "Halt"
    sheet = setup_sheet(bw.view.setup)
    assert {c.key: c.orders for c in sheet.corps} == {"5 Corps": "Halt", PRUSSIANS: "Move"}
