"""The umpire's reports of the enemy: before a report reaches a side he may hold it back, edit
what it says or add his own; each act is one logged action (Edit ▸ Undo takes it back).

Campaign ▸ Reports of the Enemy… opens it. It lists every report to either side, held or
released, and runs each act through the window's one way of running an action.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from campaign1813.campaign.day.reports import Report
from campaign1813.ui.operation import Service, day_service

COLUMNS = ("No.", "To", "Report", "Released")


class ReportForm(QDialog):
    """What a report says: where, how much was made out, the umpire's words."""

    def __init__(self, title: str, report: Report | None, subjects: list[str],
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(title)
        form = QFormLayout(self)
        self.side = QComboBox()
        self.side.addItems(["French", "Allied"])
        self.subject = QComboBox()
        self.subject.setEditable(True)
        self.subject.addItems(subjects)
        self.town = QLineEdit(report.town if report else "")
        self.band = QComboBox()
        self.band.addItems(["kind", "about", "exact"])
        self.men = QSpinBox()
        self.men.setRange(0, 1_000_000)
        self.men.setSingleStep(1000)
        self.identity = QCheckBox("its name made out")
        self.note = QLineEdit(report.note if report else "")
        self.released = QCheckBox("release it now")
        if report is not None:
            self.band.setCurrentText(report.band.value)
            self.men.setValue(report.men)
            self.identity.setChecked(report.identity)
        else:
            form.addRow("To the", self.side)
            form.addRow("Of", self.subject)
        form.addRow("Seen at (town)", self.town)
        form.addRow("Strength seen", self.band)
        form.addRow("Men", self.men)
        form.addRow("", self.identity)
        form.addRow("The umpire's words", self.note)
        if report is None:
            form.addRow("", self.released)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)


class ReportsDialog(QDialog):
    """Every report of the enemy, and the umpire's acts on them."""

    def __init__(self, reports: Callable[[], tuple[Report, ...]],
                 run: Callable[[Service], object], subjects: list[str],
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Reports of the Enemy")
        self._reports = reports
        self._run = run
        self._subjects = subjects
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        buttons = QHBoxLayout()
        self.release_button = QPushButton("Release")
        self.release_all_button = QPushButton("Release All Held")
        self.hold_button = QPushButton("Hold Back")
        self.edit_button = QPushButton("Edit…")
        self.add_button = QPushButton("Add…")
        for button, slot in ((self.release_button, self._on_release),
                             (self.release_all_button, self._on_release_all),
                             (self.hold_button, self._on_hold),
                             (self.edit_button, self._on_edit),
                             (self.add_button, self._on_add)):
            button.clicked.connect(slot)
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addLayout(buttons)
        self.resize(1100, 480)
        self.refresh()

    def refresh(self) -> None:
        """Show the reports as the file now holds them."""
        shown = self._reports()
        self.table.setRowCount(len(shown))
        for row, r in enumerate(shown):
            for col, text in enumerate((str(r.id), r.side, r.text(),
                                        "released" if r.released else "held back")):
                self.table.setItem(row, col, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()

    def chosen(self) -> int | None:
        """The number of the report picked in the list."""
        row = self.table.currentRow()
        item = self.table.item(row, 0) if row >= 0 else None
        return int(item.text()) if item is not None else None

    def _act(self, service: Service) -> None:
        self._run(service)
        self.refresh()

    def _on_release(self) -> None:
        number = self.chosen()
        if number is not None:
            self._act(day_service("release_reports", [number]))

    def _on_release_all(self) -> None:
        self._act(day_service("release_reports"))

    def _on_hold(self) -> None:
        number = self.chosen()
        if number is not None:
            self._act(day_service("hold_report", number))

    def _on_edit(self) -> None:
        number = self.chosen()
        report = next((r for r in self._reports() if r.id == number), None)
        if report is None:
            return
        form = ReportForm(f"Edit report {number}", report, self._subjects, self)
        if form.exec() == QDialog.DialogCode.Accepted:
            town = form.town.text().strip()
            self._act(day_service(
                "edit_report", report.id, town=town if town != report.town else None,
                band=form.band.currentText(), men=form.men.value(),
                identity=form.identity.isChecked(), note=form.note.text() or None))

    def _on_add(self) -> None:
        form = ReportForm("The umpire's own report", None, self._subjects, self)
        if form.exec() == QDialog.DialogCode.Accepted:
            self._act(day_service(
                "add_report", form.side.currentText(), form.subject.currentText(),
                form.town.text(), band=form.band.currentText(), men=form.men.value(),
                identity=form.identity.isChecked(), note=form.note.text(),
                released=form.released.isChecked()))
