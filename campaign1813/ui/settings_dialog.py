"""Campaign ▸ Settings…: the settings an umpire may change during a campaign, each with its
value now, the scenario's value and what it means, in an editor that fits it.

OK changes only the settings the umpire changed, each as its own action through
``services.change_setting`` (so Edit ▸ Undo takes each back), run on the open campaign as any
action is (:class:`~campaign1813.ui.operation.Operation`), so every view shows what changed.
Every changed value is checked first: if one is refused, its reason is shown under it and
nothing is changed. A value the service itself refuses (another window set it meanwhile, the
file is locked) is shown the same way; the others are still made.

The spin boxes reach as far as the setting's own check accepts (``day/settings.py``), found by
asking that check, so the dialog and the service cannot disagree about a bound.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QGridLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from campaign1813.campaign import queries, services
from campaign1813.campaign.day.settings import BY_NAME, parse_setting, shown
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.queries import SettingView
from campaign1813.campaign.store.document import CampaignDocument
from campaign1813.ui.open_campaign import OpenCampaign
from campaign1813.ui.operation import Operation, Service

REACH = 10**6  # the furthest a spin box goes (in its steps) where a setting's check sets no bound
TENTHS = 10  # miles are edited to a tenth of a mile
REFUSED_STYLE = "color: #b00020;"


def setting_label(name: str) -> str:
    """A setting's name as the dialog shows it (the words the Undo menu and the diary use
    too): ``contact_miles`` is "Contact miles"."""
    return BY_NAME[name].words


def _accepts(read: Callable[[str], Any], text: str) -> bool:
    try:
        read(text)
    except ValueError:
        return False
    return True


def accepted_range(read: Callable[[str], Any], start: int,
                   written: Callable[[int], str]) -> tuple[int, int] | None:
    """The least and greatest numbers of steps whose ``written`` text a setting's check
    accepts, searched outward from ``start``; None if it does not accept ``start``.

    Each check accepts one unbroken range, so halving the gap finds each end.

    >>> accepted_range(BY_NAME["contact_miles"].read, 100, lambda n: f"{n / 10:g}")
    (0, 1000)
    >>> accepted_range(BY_NAME["messenger_miles"].read, 600, lambda n: f"{n / 10:g}")
    (1, 10000)
    """
    def accepts(steps: int) -> bool:
        return _accepts(read, written(steps))

    def furthest(towards: int) -> int:
        if accepts(towards):
            return towards
        good, bad = start, towards
        while abs(bad - good) > 1:
            middle = (good + bad) // 2
            good, bad = (middle, bad) if accepts(middle) else (good, middle)
        return good

    if not accepts(start):
        return None
    return furthest(-REACH), furthest(REACH)


def _tenths(steps: int) -> str:
    return f"{steps / TENTHS:g}"


def _change(name: str, value: str) -> Service:
    return lambda doc: services.change_setting(doc, name, value)


class SettingField:
    """One setting's row: its editor, the value it was loaded with, and its refusal line."""

    def __init__(self, view: SettingView, scenario_value: Any):
        self.name = view.name
        self.label = QLabel(setting_label(view.name))
        self.label.setToolTip(view.name)
        self.editor = self._editor(view, scenario_value)
        self.label.setBuddy(self.editor)
        changed = "<b>changed</b>; " if view.changed else ""
        self.scenario = QLabel(f"{changed}scenario: {escape(shown(scenario_value))}")
        self.scenario.setTextFormat(Qt.TextFormat.RichText)
        self.scenario.setToolTip(shown(scenario_value))
        self.meaning = QLabel(view.meaning[:1].upper() + view.meaning[1:] + ".")
        self.meaning.setTextFormat(Qt.TextFormat.PlainText)
        faint = self.meaning.palette()
        faint.setColor(QPalette.ColorRole.WindowText,
                       faint.color(QPalette.ColorRole.PlaceholderText))
        self.meaning.setPalette(faint)
        self.refusal = QLabel()
        self.refusal.setTextFormat(Qt.TextFormat.PlainText)
        self.refusal.setStyleSheet(REFUSED_STYLE)
        self.refusal.hide()
        self.loaded = self.text()

    def _editor(self, view: SettingView, scenario_value: Any) -> QWidget:
        read = BY_NAME[view.name].read
        if BY_NAME[view.name].choices:  # a few words: the umpire picks one
            combo = QComboBox()
            combo.addItems(list(BY_NAME[view.name].choices))
            combo.setCurrentText(view.value)
            return combo
        if isinstance(scenario_value, bool):
            box = QCheckBox("on")
            box.setChecked(view.value == "on")
            return box
        if isinstance(scenario_value, int):
            spin = QSpinBox()
            reach = accepted_range(read, int(view.value), str)
            spin.setRange(*(reach or (-REACH, REACH)))
            spin.setValue(int(view.value))
            return spin
        if isinstance(scenario_value, float):
            decimal = QDoubleSpinBox()
            decimal.setDecimals(1)
            if "miles" in view.name:
                decimal.setSuffix(" miles")
            reach = accepted_range(read, round(float(view.value) * TENTHS), _tenths)
            low, high = reach or (-REACH, REACH)
            decimal.setRange(low / TENTHS, high / TENTHS)
            decimal.setValue(float(view.value))
            return decimal
        line = QLineEdit(view.value)
        line.setCursorPosition(0)
        # wide enough for the whole line of text, as far as a laptop's screen allows
        metrics = line.fontMetrics()
        wide = max(metrics.horizontalAdvance(view.value), metrics.horizontalAdvance("m" * 30))
        line.setMinimumWidth(min(wide, metrics.horizontalAdvance("m" * 60)) + 16)
        return line

    def text(self) -> str:
        """The value in the editor, as the umpire would type it."""
        editor = self.editor
        if isinstance(editor, QCheckBox):
            return shown(editor.isChecked())
        if isinstance(editor, QDoubleSpinBox):
            return shown(editor.value())
        if isinstance(editor, QSpinBox):
            return str(editor.value())
        if isinstance(editor, QComboBox):
            return editor.currentText()
        assert isinstance(editor, QLineEdit)
        return editor.text()

    def set_text(self, text: str) -> None:
        """Put a value in the editor as the umpire would (tests and keyboard alike)."""
        editor = self.editor
        if isinstance(editor, QCheckBox):
            editor.setChecked(text.strip().casefold() == "on")
        elif isinstance(editor, QDoubleSpinBox):
            editor.setValue(float(text))
        elif isinstance(editor, QSpinBox):
            editor.setValue(int(text))
        elif isinstance(editor, QComboBox):
            editor.setCurrentText(text)
        else:
            assert isinstance(editor, QLineEdit)
            editor.setText(text)

    def lock(self) -> None:
        """Show the value but take no edits (a read-only file): still legible, not greyed,
        but for a check box, which has no read-only state."""
        editor = self.editor
        if isinstance(editor, QAbstractSpinBox | QLineEdit):
            editor.setReadOnly(True)
            if isinstance(editor, QAbstractSpinBox):
                editor.setButtonSymbols(QAbstractSpinBox.ButtonSymbols.NoButtons)
        else:
            editor.setEnabled(False)

    def editable(self) -> bool:
        """Whether the umpire can change the value here."""
        editor = self.editor
        if isinstance(editor, QAbstractSpinBox | QLineEdit):
            return editor.isEnabled() and not editor.isReadOnly()
        return editor.isEnabled()

    def changed(self) -> bool:
        """Whether the umpire changed the value since the dialog showed it."""
        return self.text() != self.loaded

    def refuse(self, reason: str) -> None:
        """Show why the value cannot be taken, under the field."""
        self.refusal.setText(reason)
        self.refusal.show()

    def clear_refusal(self) -> None:
        """Forget an earlier refusal."""
        self.refusal.clear()
        self.refusal.hide()


class SettingsDialog(QDialog):
    """The campaign's settings, listed and changed; each change one undoable action."""

    refused = Signal(str)  # a value was refused: the reasons, one a line

    def __init__(self, campaign: OpenCampaign, parent: QWidget | None = None):
        super().__init__(parent)
        doc = campaign.document
        if doc is None or campaign.scenario is None:
            raise CampaignError("no campaign is open")
        self._campaign = campaign
        self.read_only = doc.readonly
        self.setWindowTitle(f"Settings — {campaign.scenario.settings.name}")
        base = campaign.scenario.settings
        self.fields = [SettingField(view, getattr(base, view.name))
                       for view in queries.campaign_settings(doc)]

        grid = QGridLayout()
        grid.setHorizontalSpacing(14)
        grid.setVerticalSpacing(2)
        grid.setColumnStretch(3, 1)
        row = 0
        for field in self.fields:
            if row:
                grid.setRowMinimumHeight(row, 8)
                row += 1
            line = isinstance(field.editor, QLineEdit)
            grid.addWidget(field.label, row, 0)
            # the text setting takes the row's width; the others keep a narrow editor
            grid.addWidget(field.editor, row, 1, 1, 3 if line else 1)
            lines = [field.meaning, field.refusal]
            if line:  # its scenario's text goes under it, faint like the meaning
                field.scenario.setText(field.scenario.text()[:1].upper()
                                       + field.scenario.text()[1:])
                field.scenario.setPalette(field.meaning.palette())
                lines.insert(1, field.scenario)
            else:
                grid.addWidget(field.scenario, row, 2)
            for below in lines:
                row += 1
                grid.addWidget(below, row, 1, 1, 3)
            if self.read_only:
                field.lock()
            row += 1

        layout = QVBoxLayout(self)
        if self.read_only:
            name = doc.path.name if isinstance(doc, CampaignDocument) else "The campaign"
            note = QLabel(f"{name} is read-only: its settings can be viewed but not changed.")
        else:
            note = QLabel("A change counts from today. Each setting changed is one action, "
                          "taken back by Edit ▸ Undo.")
        note.setWordWrap(True)
        layout.addWidget(note)
        layout.addSpacing(6)
        layout.addLayout(grid)
        self.message = QLabel()
        self.message.setStyleSheet(REFUSED_STYLE)
        self.message.setWordWrap(True)
        self.message.hide()
        layout.addWidget(self.message)
        buttons = (QDialogButtonBox.StandardButton.Close if self.read_only else
                   QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons = QDialogButtonBox(buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

    def field(self, name: str) -> SettingField:
        """The row of one setting, by its name."""
        return next(f for f in self.fields if f.name == name)

    def changed_fields(self) -> list[SettingField]:
        """The settings whose value the umpire has changed here."""
        return [f for f in self.fields if f.changed()]

    def apply(self) -> bool:
        """Change each changed setting through the services; whether all were taken.

        A refused value is shown under its field and changes nothing; if any is refused
        before the first change, none is made.
        """
        for field in self.fields:
            field.clear_refusal()
        self.message.hide()
        if self.read_only:
            return not self.changed_fields()
        changed = self.changed_fields()
        reasons = []
        for field in changed:
            try:
                parse_setting(field.name, field.text())
            except CampaignError as exc:
                field.refuse(str(exc))
                reasons.append(str(exc))
        if reasons:
            self._say_refused(reasons, "nothing was changed")
            return False
        for field in changed:
            try:
                Operation(self._campaign, _change(field.name, field.text())).perform()
            except CampaignError as exc:  # e.g. the file was changed or locked elsewhere
                field.refuse(str(exc))
                reasons.append(str(exc))
            else:
                field.loaded = field.text()
        if reasons:
            self._say_refused(reasons, "the others were changed")
            return False
        return True

    def _say_refused(self, reasons: list[str], rest: str) -> None:
        count = len(reasons)
        self.message.setText(f"{count} setting{'' if count == 1 else 's'} refused "
                             f"(the reason is under each); {rest}.")
        self.message.show()
        self.adjustSize()  # room for the lines of refusal
        self.refused.emit("\n".join(reasons))

    def accept(self) -> None:
        """OK: change what was changed, and close unless a value was refused."""
        if self.apply():
            super().accept()
