"""The Setup page: the battle's commands, chips and table as the campaign gives them, written
orders and the reserve's allocation set before the first chip, each an undoable step.

The campaign: I Prussian Corps attacks Magdeburg while the Prussian Army HQ moves to Burg, so the
HQ marches to the sound of the guns: Blücher and his reserve (Zieten) come on at turn 4 (seed
000's reinforcements), and the chips are 1 Lauriston, 2 Blücher, 3 Yorck, 4 Zieten, then Poor
(docs/battle-setup.md: the French first, then each army group's CinC, corps and reserve).
"""

import pytest

from campaign1813.campaign.services import IssueOrder
from campaign1813.ui.paper.table_diagram import table_plan

PRUSSIANS = "I Prussian Corps"
RESERVE = "Prussian Army reserve"


@pytest.fixture
def battle(window):
    window.give_order(IssueOrder(PRUSSIANS, "Attack", "Magdeburg"))
    window.give_order(IssueOrder("Prussian Army HQ", "Move", "Burg"))
    for _ in range(6):
        window.end_day()
    bw = window.open_battle_window(1)
    assert "Prussian Army HQ" in bw.setup_page.battle_text.text()   # before it is set up
    bw.setup_page.open_button.click()
    return bw


def test_the_setup_shows_chips_reinforcements_and_the_table(battle):
    page = battle.setup_page
    chips = [(page.chips.item(r, 0).text(), page.chips.item(r, 1).text())
             for r in range(page.chips.rowCount())]
    assert chips == [("1", "General Lauriston (5 Corps)"), ("2", "General Blücher (CinC)"),
                     ("3", "General Yorck (I Prussian Corps)"),
                     ("4", f"General Zieten ({RESERVE})"), ("Poor", "special chip")]
    # the CinC's headquarters marches to the sound of the guns: he is listed with his reserve
    assert page.reinforcements.text() == ("Reinforcements: General Blücher (CinC, Allied) on "
                                          "turn 4 by the north edge; "
                                          f"{RESERVE} (Allied) on turn 4 by the north edge")
    # The table is the setup sheet's own drawing: the Elbe on its course from the map, which
    # the sheet draws and the window's old sketch left out.
    sheet = page.diagram.sheet
    assert sheet is not None and sheet.heading == "The battle of Magdeburg (6 May 1813)"
    assert sheet.table.river == "Elbe" and sheet.table.river_from_map
    image = page.diagram.grab().toImage()
    colours = {image.pixelColor(x, y).name() for x in range(0, image.width(), 3)
               for y in range(0, image.height(), 3)}
    assert "#5b93cf" in colours  # the river's blue
    assert "#e6edd2" in colours  # the table's ground
    # A2 (the reserve, turn 4) and A1 both come on by the Burg road: neither covers its name.
    plan = table_plan(sheet)
    burg = next(w for w in plan.labels if w.text == "Burg 42°")
    blinds = {m.text: m for m in plan.markers if m.kind == "blind"}
    assert {"A1", "A2", "F1"} <= set(blinds)
    assert not any(burg.shape.intersects(blinds[b].shape) for b in ("A1", "A2"))
    assert not any(w.shape.intersects(m.shape) for w in plan.labels for m in plan.markers)
    assert "Wolmirstedt 0° (north edge)" in page.roads.text()


def test_orders_and_the_reserve_are_set_before_the_first_chip_and_undone(window, battle):
    page = battle.setup_page
    page.order_combo(PRUSSIANS).setCurrentText("Engage")
    assert battle.view.state.corps[PRUSSIANS].orders.value == "Engage"
    assert page.orders_message.text() == f"{PRUSSIANS}: orders Engage, objective Magdeburg"
    window.undo()
    assert page.order_combo(PRUSSIANS).currentText() == "Attack"
    # the reserve takes the Prussian cavalry
    assert page.reserve_box.isVisibleTo(page) and page.reserve.currentData() == RESERVE
    items = {page.allocatable.item(i).data(256): page.allocatable.item(i)
             for i in range(page.allocatable.count())}
    assert set(items) == {f"{PRUSSIANS}/1 cavalry", f"{PRUSSIANS}/artillery"}
    from PySide6.QtCore import Qt

    items[f"{PRUSSIANS}/1 cavalry"].setCheckState(Qt.CheckState.Checked)
    page.allocate_button.click()
    assert f"{PRUSSIANS}/1 cavalry" in battle.view.state.corps[RESERVE].brigades
    assert page.orders_message.text() == f"{RESERVE} takes 1 Cavalry Brigade ({PRUSSIANS})"
    # once the first chip is drawn, written orders are the CinC's to change
    battle.play_page.draw()
    assert not page.order_combo(PRUSSIANS).isEnabled()
    assert not page.allocate_button.isEnabled()


def test_a_special_chip_names_the_commander_who_moves(window):
    window.give_order(IssueOrder(PRUSSIANS, "Attack", "Magdeburg"))
    for _ in range(6):
        window.end_day()
    bw = window.open_battle_window(1)
    page = bw.setup_page
    next(cb for cb in page.special_boxes if "Allied gifted" in cb.text()).setChecked(True)
    page.open_button.click()
    assert [c.label for c in bw.view.setup.chips] == ["1", "2", "Poor", "Allied gifted"]
    play = bw.play_page
    play.chip.setCurrentIndex(play.chip.findData("Allied gifted"))
    play.draw()
    assert play.special_box.isVisibleTo(play)
    # Yorck is Gifted (Rule 2's grades); Lauriston is not, and is refused with the reason
    play.special_commander.setCurrentIndex(play.special_commander.findData("5 Corps"))
    play.use_special()
    assert play.message.text().startswith("Refused: the Allied gifted chip is for a Gifted "
                                          "Allied commander who has not yet moved this turn")
    play.special_commander.setCurrentIndex(play.special_commander.findData(PRUSSIANS))
    play.use_special()
    assert "General Yorck" in play.commander.text()
    assert not play.special_box.isVisibleTo(play)


def test_the_cinc_gives_his_move_and_a_formation_is_recorded(battle):
    """Blücher's headquarters marches to the sound of the guns (seed 000): his chip drawn on
    turn 1 gives no move and his pips are refused, naming his turn; from turn 4 he takes his
    move and gives it to Yorck (Rule 2)."""
    play = battle.play_page
    play.chip.setCurrentIndex(play.chip.findData("2"))
    play.draw()
    assert battle.view.state.activation is None
    before = battle.view.state
    play.pips_typed.setText("3")
    play.roll_pips()
    assert "General Blücher is not yet on the table (arrives on turn 4" in play.message.text()
    assert battle.view.state == before
    for _ in range(3):
        play.end_turn()
    assert battle.view.state.turn == 4
    play.chip.setCurrentIndex(play.chip.findData("2"))
    play.draw()
    assert "General Blücher</b>, CinC" in play.commander.text()
    play.pips_typed.setText("3")
    play.roll_pips()
    assert play.give_button.isVisibleTo(play)
    play.cinc_corps.setCurrentText(PRUSSIANS)
    play.give_move()
    assert "General Yorck" in play.commander.text()
    assert "move given by General Blücher" in play.commander.text()
    assert battle.view.state.activation.commander == PRUSSIANS
    play.formation_brigade.setCurrentIndex(play.formation_brigade.findData(f"{PRUSSIANS}/1"))
    play.formation.setCurrentText("column of attack")
    play.record_formation()
    assert play.brigades.row_of(f"{PRUSSIANS}/1")[3] == "column of attack"
    assert f"1 Infantry Brigade ({PRUSSIANS}) forms column of attack" in play.message.text()
