"""Campaign ▸ Settings…: every setting listed with its value, changed through the services one
undoable action each, refusals shown under the field; and the settings in Campaign Details."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialogButtonBox,
    QDoubleSpinBox,
    QLineEdit,
    QSpinBox,
)

from campaign1813.campaign import queries, services
from campaign1813.campaign.day.settings import BY_NAME, shown
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.store import document
from tests.ui.conftest import dump


def settings_of(window) -> dict[str, str]:
    """Each setting's value in the window's campaign, as the query gives it."""
    return {s.name: s.value for s in queries.campaign_settings(window.document)}


def open_dialog(window):
    window.menus.settings_action.trigger()
    dialog = window.settings_dialog
    assert dialog is not None and dialog.isVisible()
    return dialog


def type_into(qtbot, field, text: str) -> None:
    """Type a value over the field's old one, as the umpire would."""
    editor = field.editor
    line = editor if isinstance(editor, QLineEdit) else editor.lineEdit()
    line.selectAll()
    qtbot.keyClicks(line, text)


def press(qtbot, dialog, button=QDialogButtonBox.StandardButton.Ok) -> None:
    qtbot.mouseClick(dialog.buttons.button(button), Qt.MouseButton.LeftButton)


def test_the_dialog_lists_every_setting_with_its_value_default_and_meaning(window):
    dialog = open_dialog(window)
    views = queries.campaign_settings(window.document)
    assert [f.name for f in dialog.fields] == [v.name for v in views]
    assert len(views) == 14
    base = window.campaign.scenario.settings
    for view, field in zip(views, dialog.fields, strict=True):
        assert field.text() == view.value
        assert field.meaning.text().casefold() == f"{view.meaning}.".casefold()
        assert field.scenario.toolTip() == shown(getattr(base, view.name))
        assert not field.changed()
    assert dialog.field("contact_miles").label.text() == "Contact miles"
    assert dialog.field("contact_miles").scenario.text() == "scenario: 10"
    assert dialog.field("messenger_orders").scenario.text() == "scenario: off"
    assert dialog.field("forced_march_cost").scenario.text() == (
        "Scenario: one casualty on each infantry brigade, carried to the next battle")
    assert dialog.windowTitle() == "Settings — The 1813 Campaign"


def test_each_setting_has_an_editor_of_its_kind_within_its_bounds(window):
    dialog = open_dialog(window)
    kinds = {f.name: type(f.editor) for f in dialog.fields}
    assert kinds == {
        "messenger_orders": QCheckBox, "messenger_miles": QDoubleSpinBox,
        "contact_miles": QDoubleSpinBox, "reinforce_miles": QDoubleSpinBox,
        "carry_casualties_forward": QCheckBox, "forced_march_extra_miles": QDoubleSpinBox,
        "forced_march_cost": QLineEdit, "steps_per_day": QSpinBox, "battle_turns": QSpinBox,
        "fog": QCheckBox, "recce_miles": QDoubleSpinBox, "release": QComboBox,
        "supply": QComboBox, "supply_attrition": QComboBox,
    }
    # a setting of a few words offers just those (day/settings.py's choices)
    supply = dialog.field("supply").editor
    assert [supply.itemText(i) for i in range(supply.count())] == ["off", "2016", "2020"]
    # the bounds of day/settings.py's checks: contact and reinforcement from 0 to 100 miles,
    # a messenger above 0 to 1000, 1 to 240 steps a day, 1 to 48 battle turns
    ranges = {f.name: (f.editor.minimum(), f.editor.maximum()) for f in dialog.fields
              if isinstance(f.editor, QSpinBox | QDoubleSpinBox)}
    assert ranges == {"messenger_miles": (0.1, 1000), "contact_miles": (0, 100),
                      "reinforce_miles": (0, 100), "forced_march_extra_miles": (0, 100),
                      "steps_per_day": (1, 240), "battle_turns": (1, 48),
                      "recce_miles": (0, 100)}


def test_contact_miles_changed_in_the_dialog_is_one_action_undone_from_the_menu(window, qtbot):
    before = dump(window)
    dialog = open_dialog(window)
    type_into(qtbot, dialog.field("contact_miles"), "5")
    assert [f.name for f in dialog.changed_fields()] == ["contact_miles"]
    with qtbot.waitSignal(window.campaign_changed) as blocker:
        press(qtbot, dialog)
    assert blocker.args[0].label == "Setting: Contact miles 5"
    assert not dialog.isVisible()
    assert settings_of(window)["contact_miles"] == "5"
    assert next(s for s in queries.campaign_settings(window.document)
                if s.name == "contact_miles").changed
    assert window.undo_action.text() == "&Undo Setting: Contact miles 5"
    assert "Contact miles 10 → 5" in window.report_pane.toPlainText()
    window.undo_action.trigger()
    assert settings_of(window)["contact_miles"] == "10"
    assert dump(window) == before
    assert not window.undo_action.isEnabled()  # only the one change was made


def test_each_changed_setting_is_its_own_undo_and_unchanged_ones_are_left_alone(window, qtbot):
    before = settings_of(window)
    dialog = open_dialog(window)
    dialog.field("messenger_orders").editor.click()
    type_into(qtbot, dialog.field("battle_turns"), "20")
    type_into(qtbot, dialog.field("forced_march_cost"), "a day's rest for the corps")
    press(qtbot, dialog)
    after = settings_of(window)
    assert {k: v for k, v in after.items() if v != before[k]} == {
        "messenger_orders": "on", "battle_turns": "20",
        "forced_march_cost": "a day's rest for the corps"}
    labels = []
    while window.undo_action.isEnabled():
        labels.append(window.undo_action.text())
        window.undo_action.trigger()
    assert labels == ["&Undo Setting: Battle turns 20",
                      "&Undo Setting: Forced march cost a day's rest for the corps",
                      "&Undo Setting: Messenger orders on"]
    assert settings_of(window) == before


def test_a_bad_value_is_refused_under_its_field_and_nothing_changes(window, qtbot):
    before = dump(window)
    dialog = open_dialog(window)
    type_into(qtbot, dialog.field("contact_miles"), "5")
    dialog.field("forced_march_cost").editor.clear()
    with qtbot.waitSignal(dialog.refused) as blocker:
        press(qtbot, dialog)
    reason = "forced_march_cost must be a line of text of up to 200 characters, not ''"
    assert blocker.args == [reason]
    cost = dialog.field("forced_march_cost")
    assert cost.refusal.text() == reason and not cost.refusal.isHidden()
    assert dialog.field("contact_miles").refusal.isHidden()
    assert "nothing was changed" in dialog.message.text()
    assert dialog.isVisible()  # the umpire can put it right
    assert dump(window) == before
    assert not window.undo_action.isEnabled()
    assert window.statusBar().currentMessage() == f"Refused: {reason}"
    type_into(qtbot, cost, "two casualties a brigade")
    press(qtbot, dialog)
    assert not dialog.isVisible()
    assert settings_of(window)["contact_miles"] == "5"


def test_a_value_the_service_refuses_is_shown_and_the_others_are_made(window, qtbot):
    """Another window or the command line set contact miles while the dialog was open."""
    dialog = open_dialog(window)
    services.change_setting(window.document, "contact_miles", "5")
    type_into(qtbot, dialog.field("contact_miles"), "5")
    type_into(qtbot, dialog.field("steps_per_day"), "24")
    press(qtbot, dialog)
    field = dialog.field("contact_miles")
    assert field.refusal.text() == "contact_miles is already 5"
    assert "the others were changed" in dialog.message.text()
    assert settings_of(window)["steps_per_day"] == "24"
    assert not dialog.field("steps_per_day").changed()  # OK again would not change it twice


def test_cancel_changes_nothing(window, qtbot):
    before = dump(window)
    dialog = open_dialog(window)
    type_into(qtbot, dialog.field("contact_miles"), "5")
    press(qtbot, dialog, QDialogButtonBox.StandardButton.Cancel)
    assert not dialog.isVisible()
    assert dump(window) == before


def test_a_read_only_campaign_shows_its_settings_but_not_for_editing(window, qtbot):
    path = window.document.path
    services.change_setting(window.document, "contact_miles", "5")
    window.document.close()
    con = document.connect(path, "ro")
    window.campaign.open(document.CampaignDocument(path, con, readonly=True))
    dialog = open_dialog(window)
    assert dialog.read_only
    assert not any(f.editable() for f in dialog.fields)
    assert dialog.field("contact_miles").text() == "5"
    assert dialog.field("contact_miles").scenario.text() == "<b>changed</b>; scenario: 10"
    buttons = dialog.buttons
    assert buttons.button(QDialogButtonBox.StandardButton.Ok) is None
    press(qtbot, dialog, QDialogButtonBox.StandardButton.Close)
    assert not dialog.isVisible()


def test_the_menu_entry_has_its_own_shortcut_and_needs_a_campaign(window):
    assert window.menus.settings_action.text() == "&Settings…"
    assert window.menus.settings_action in window.menus.campaign_menu.actions()
    assert window.menus.settings_action.shortcut().toString() == "Ctrl+,"
    shortcuts = [a.shortcut().toString()
                 for a in window.findChildren(type(window.menus.settings_action))
                 if not a.shortcut().isEmpty()]
    assert len(shortcuts) == len(set(shortcuts))
    assert window.menus.settings_action.isEnabled()
    window.document.close()
    window.campaign.open(None)
    assert not window.menus.settings_action.isEnabled()
    assert window.show_settings() is None


def test_campaign_details_list_the_settings_marking_the_changed(window):
    services.change_setting(window.document, "contact_miles", "5")
    services.change_setting(window.document, "messenger_orders", "on")
    text = window.details_text()
    for view in queries.campaign_settings(window.document):
        assert f"{view.name.replace('_', ' ')}: {view.value}" in text
    assert "contact miles: 5 <i>— changed; the scenario's is 10</i>" in text
    assert "messenger orders: on <i>— changed; the scenario's is off</i>" in text
    assert "reinforce miles: 10<br>" in text
    assert "foot: 15 on roads, 10 off road, 5 in difficult country" in text
    assert "HQ and cavalry: 30 on roads, 15 off road, 5 in difficult country" in text


@pytest.mark.parametrize("name", ["contact_miles", "battle_turns"])
def test_the_spin_boxes_stop_at_the_bounds_the_service_checks(window, name):
    """The top of each spin box is taken; one step more is refused by the service."""
    dialog = open_dialog(window)
    editor = dialog.field(name).editor
    top = editor.maximum()
    step = 0.1 if isinstance(editor, QDoubleSpinBox) else 1
    services.change_setting(window.document, name, f"{top:g}")
    with pytest.raises(CampaignError, match="must be a"):
        services.change_setting(window.document, name, f"{top + step:g}")


def test_the_undo_menu_names_a_setting_in_the_words_the_dialog_shows(window, qtbot):
    """One table of a setting's words serves the dialog's label, the Undo menu and the diary:
    "Undo Setting: Contact miles 0", never the file's name contact_miles."""
    dialog = open_dialog(window)
    for name, setting in BY_NAME.items():
        assert dialog.field(name).label.text() == setting.words
    type_into(qtbot, dialog.field("contact_miles"), "0")
    press(qtbot, dialog)
    assert window.undo_action.text() == "&Undo Setting: Contact miles 0"
    assert "_" not in window.undo_action.text()
    assert queries.diary_text(window.document).endswith(
        "Setting: Contact miles 10 → 0 (hostile commands this close by road are in contact).")
