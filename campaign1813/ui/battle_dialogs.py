"""Battle ▸ a battle due ▸ Postpone…, Merge…, Split…: the umpire's overrides of the day's
battles, each with the reason he must give (the diary and the battle's notes keep it).

Each dialog takes the open campaign and runs one service call on it as any action is run
(:class:`~campaign1813.ui.operation.Operation`), so every view shows what changed and Edit ▸
Undo takes it back. A refusal is the campaign's own reason, shown in red in the dialog, which
stays open to be put right; nothing is changed. The dialogs never judge an override themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from campaign1813.campaign import services
from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.day.battles import MAX_POSTPONE_DAYS
from campaign1813.campaign.day.changes import Changes
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.queries import BattleView
from campaign1813.ui.open_campaign import OpenCampaign
from campaign1813.ui.operation import Operation, Service

REFUSED_STYLE = "color: #b00020;"


def battle_line(b: BattleView) -> str:
    """A battle in one line: ``1. Olot, 2 May 1813: Vistula Polish Corps against 4 Spanish
    Corps``."""
    return (f"{b.id}. {b.place}, {format_date(b.date)}: {', '.join(b.french)} against "
            f"{', '.join(b.allied)}")


def _sides(b: BattleView) -> str:
    """Who fights on each side, reinforcements marked."""
    def side(fighting: Sequence[str], coming: Sequence[str]) -> str:
        names = list(fighting) + [f"{n} (marching to the guns)" for n in coming]
        return ", ".join(names) or "nobody"

    return (f"French: {side(b.french, b.french_reinforcements)}<br>"
            f"Allied: {side(b.allied, b.allied_reinforcements)}")


class BattleDialog(QDialog):
    """What the three overrides share: the battle shown, the umpire's reason, the refusal line
    and the buttons; :meth:`service` is the one call the override makes."""

    verb = ""  # the button's word: Postpone, Merge, Split

    def __init__(self, battle: BattleView, campaign: OpenCampaign,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.battle = battle
        self._campaign = campaign
        self.changes: Changes | None = None
        self.setWindowTitle(f"{self.verb} the Battle of {battle.place}")
        title = battle.title[:1].upper() + battle.title[1:]  # names shown as spelt, not as HTML
        self.heading = QLabel(f"<b>{escape(title)}</b><br>{escape(_sides(battle))}")
        self.heading.setTextFormat(Qt.TextFormat.RichText)
        self.heading.setWordWrap(True)
        self.form = QFormLayout()
        self.reason = QLineEdit()
        self.reason.setPlaceholderText("the umpire's reason, kept in the diary")
        self.message = QLabel()
        self.message.setObjectName("battleRefusal")
        self.message.setWordWrap(True)
        self.message.setStyleSheet(REFUSED_STYLE)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText(self.verb)
        self.buttons.accepted.connect(self.apply)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addLayout(self.form)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(460)

    def _add_reason(self) -> None:
        self.form.addRow("Reason:", self.reason)

    def service(self) -> Service:
        """The one service call this override makes, as the umpire has filled it in."""
        raise NotImplementedError

    def apply(self) -> Changes | None:
        """Make the override; a refusal is shown here and the dialog stays open."""
        return (Operation(self._campaign, lambda doc: self.service()(doc))
                .success(self._on_done).failure(self._on_refused).run())

    def _on_done(self, changes: Changes) -> None:
        self.changes = changes
        self.message.clear()
        self.accept()

    def _on_refused(self, exc: CampaignError) -> None:
        self.message.setText(str(exc))


class PostponeDialog(BattleDialog):
    """Put a battle off by some days; its commands wait where they stand."""

    verb = "Postpone"

    def __init__(self, battle: BattleView, campaign: OpenCampaign,
                 parent: QWidget | None = None):
        super().__init__(battle, campaign, parent)
        self.days = QSpinBox()
        self.days.setRange(1, MAX_POSTPONE_DAYS)
        self.days.valueChanged.connect(
            lambda n: self.days.setSuffix(" day" if n == 1 else " days"))
        self.days.setValue(1)
        self.days.setSuffix(" day")
        self.form.addRow("Put off by:", self.days)
        self._add_reason()
        self.reason.setFocus()

    def service(self) -> Service:
        """``postpone_battle`` with the days and the reason given."""
        battle, reason, days = self.battle.id, self.reason.text(), self.days.value()
        return lambda doc: services.postpone_battle(doc, battle, reason, days)


class MergeDialog(BattleDialog):
    """Fight two battles as one, at this battle's town."""

    verb = "Merge"

    def __init__(self, battle: BattleView, others: Sequence[BattleView], campaign: OpenCampaign,
                 parent: QWidget | None = None):
        super().__init__(battle, campaign, parent)
        self.other = QComboBox()
        for b in others:
            if b.id != battle.id:
                self.other.addItem(battle_line(b), b.id)
        self.form.addRow("Merge with:", self.other)
        self.force = QCheckBox("Force: they are one fight, however far apart by road")
        self.form.addRow("", self.force)
        self._add_reason()
        if self.other.count() == 0:
            self.message.setText("There is no other battle due to merge it with.")
            self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
        self.reason.setFocus()

    def service(self) -> Service:
        """``merge_battles`` with the battle chosen, the reason, and whether forced."""
        battle, other = self.battle.id, int(self.other.currentData())
        reason, force = self.reason.text(), self.force.isChecked()
        return lambda doc: services.merge_battles(doc, battle, other, reason, force)


class SplitDialog(BattleDialog):
    """Fight some of a battle's commands as a battle of their own."""

    verb = "Split"

    def __init__(self, battle: BattleView, campaign: OpenCampaign,
                 parent: QWidget | None = None):
        super().__init__(battle, campaign, parent)
        self.commands = QListWidget()
        for side, fighting, coming in (("French", battle.french, battle.french_reinforcements),
                                       ("Allied", battle.allied, battle.allied_reinforcements)):
            for name in (*fighting, *coming):
                item = QListWidgetItem(f"{name} ({side})")
                item.setData(Qt.ItemDataRole.UserRole, name)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Unchecked)
                self.commands.addItem(item)
        rows = min(max(1, self.commands.count()), 8)
        row = max(self.commands.sizeHintForRow(0), self.fontMetrics().lineSpacing() + 8)
        self.commands.setFixedHeight(row * rows + 2 * self.commands.frameWidth() + 4)
        self.form.addRow("Fight apart:", self.commands)
        self._add_reason()

    def chosen(self) -> tuple[str, ...]:
        """The commands ticked to fight apart."""
        items = (self.commands.item(i) for i in range(self.commands.count()))
        return tuple(i.data(Qt.ItemDataRole.UserRole) for i in items
                     if i.checkState() is Qt.CheckState.Checked)

    def choose(self, names: Sequence[str]) -> None:
        """Tick these commands (and only these)."""
        for i in range(self.commands.count()):
            item = self.commands.item(i)
            ticked = item.data(Qt.ItemDataRole.UserRole) in names
            item.setCheckState(Qt.CheckState.Checked if ticked else Qt.CheckState.Unchecked)

    def service(self) -> Service:
        """``split_battle`` with the commands ticked and the reason."""
        battle, names, reason = self.battle.id, self.chosen(), self.reason.text()
        return lambda doc: services.split_battle(doc, battle, names, reason)


DIALOGS: dict[str, type[BattleDialog]] = {d.verb: d for d in (PostponeDialog, MergeDialog,
                                                               SplitDialog)}
