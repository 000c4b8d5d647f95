"""Auto-resolve from the battle window: the win/draw/loss odds by Monte Carlo, with a progress
bar and Cancel, then (if the umpire commits) the battle's seeded run and its report.

The runs are made on the window's own thread, a hundredth at a time: the estimate's progress
callback moves the bar and lets the window handle its events (Cancel among them), so the
window stays responsive and the campaign file is only ever touched from one thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from campaign1813.campaign.errors import CampaignError

DEFAULT_RUNS = 1000


class AutoResolveDialog(QDialog):
    """The odds of a battle over many abstract runs, then its one seeded run if committed."""

    def __init__(self, odds: Callable[[int, Callable[[int, int], bool]], list[str]],
                 commit: Callable[[], Any], in_progress: bool,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Auto-resolve")
        self._odds = odds
        self._commit = commit
        self.cancelled = False
        self.running = False
        self.committed: Any = None
        self.runs = QSpinBox()
        self.runs.setRange(10, 100_000)
        self.runs.setSingleStep(100)
        self.runs.setValue(DEFAULT_RUNS)
        self.estimate_button = QPushButton("&Estimate the odds")
        self.estimate_button.clicked.connect(self.estimate)
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setValue(0)
        self.cancel_button = QPushButton("&Cancel the estimate")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.warning = QLabel(
            "The battle is being fought on the table: committing abandons that fight (undoable "
            "from Edit ▸ Undo) and records the auto-resolved result instead."
            if in_progress else "Nothing is recorded until you commit.")
        self.warning.setWordWrap(True)
        self.commit_button = QPushButton("&Record the seeded run")
        self.commit_button.clicked.connect(self.record)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(QLabel("Runs"))
        row.addWidget(self.runs)
        row.addWidget(self.estimate_button)
        row.addStretch(1)
        bar = QHBoxLayout()
        bar.addWidget(self.progress, 1)
        bar.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addLayout(bar)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.warning)
        commit_row = QHBoxLayout()
        commit_row.addWidget(self.commit_button)
        commit_row.addStretch(1)
        commit_row.addWidget(buttons)
        layout.addLayout(commit_row)
        self.resize(640, 420)

    def estimate(self) -> list[str]:
        """Run the estimate, the bar moving with it; Cancel stops it where it is."""
        self.cancelled = False
        self.running = True
        self.estimate_button.setEnabled(False)
        self.commit_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setValue(0)
        self.text.setPlainText("Estimating…")
        try:
            lines = self._odds(self.runs.value(), self._progress)
        except CampaignError as exc:
            lines = [f"Refused: {exc}"]
        finally:
            self.running = False
            self.estimate_button.setEnabled(True)
            self.commit_button.setEnabled(True)
            self.cancel_button.setEnabled(False)
        self.text.setPlainText("\n".join(lines))
        return lines

    def _progress(self, done: int, total: int) -> bool:
        self.progress.setMaximum(total)
        self.progress.setValue(done)
        QApplication.processEvents()
        return not self.cancelled

    def cancel(self) -> None:
        """Stop the estimate after the runs made so far."""
        self.cancelled = True

    def record(self) -> Any:
        """Record the battle's seeded run as its result, and show its report."""
        try:
            changes = self._commit()
        except CampaignError as exc:
            self.text.appendPlainText(f"\nRefused: {exc}")
            return None
        self.committed = changes
        self.text.setPlainText("\n".join(changes.lines or (changes.label,)))
        self.commit_button.setEnabled(False)
        self.estimate_button.setEnabled(False)
        self.warning.setText("Recorded. Close this to return to the map.")
        return changes

    def reject(self) -> None:
        """Close (an estimate still running is cancelled first)."""
        self.cancelled = True
        super().reject()

    def keyPressEvent(self, event: Any) -> None:  # noqa: N802 (Qt override)
        if event.key() == Qt.Key.Key_Escape and self.running:
            self.cancel()
            return
        super().keyPressEvent(event)
