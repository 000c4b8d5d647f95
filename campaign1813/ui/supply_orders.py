"""The CinC's supply orders on the order pad, and the umpire's choice of the brigade that loses
a hungry corps' men.

Shown only while the campaign keeps supply (the setting ``supply``). Each order is one
``SupplyRequest`` given through the one :class:`~campaign1813.ui.operation.Operation`, as the
pad gives a march: "resupply 5 Corps from Magdeburg", "move 4 days from Magdeburg to
Helmstedt", "establish a depot at Helmstedt with 17 Brigade" (2016) or "with 5 Corps" (2020).
The pad never judges an order itself: the campaign's reason for refusing one is shown, word
for word, in red.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QGroupBox,
    QLabel,
    QListWidget,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from campaign1813.campaign.day.changes import Changes
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.queries import CampaignStatus
from campaign1813.campaign.scenario.types import Scenario
from campaign1813.ui.open_campaign import OpenCampaign, Update
from campaign1813.ui.operation import Operation, Service, day_service

KINDS = ("resupply", "move", "depot")
KIND_WORDS = {"resupply": "Resupply", "move": "Move days", "depot": "Make a depot"}
NO_BRIGADE = "the corps"


@dataclass(frozen=True)
class SupplyRequest:
    """A supply order as the umpire asked for it, before the campaign checks it."""

    kind: str
    corps: str | None = None
    origin: str | None = None
    town: str | None = None
    days: int = 0
    brigade: int | None = None
    ready: bool = True  # False: put on the pad for the umpire to finish (a brigade, a town)

    def run_on(self) -> Service:
        """The campaign service that gives it, for an :class:`Operation`."""
        return day_service("supply_order", self.kind, corps=self.corps, origin=self.origin,
                           town=self.town, days=self.days, brigade=self.brigade)


def supply_kept(status: CampaignStatus | None) -> bool:
    """Whether the campaign keeps supply: its corps carry days, or its armies have depots."""
    return status is not None and (bool(status.supply) or any(
        c.supply_days is not None for c in status.commands))


def brigades_of(scenario: Scenario | None, corps: str) -> list[int]:
    """The numbers of a corps' infantry brigades, in the order of battle's order."""
    for army in scenario.armies if scenario is not None else ():
        for c in army.corps:
            if c.name == corps:
                return [b.number for b in c.infantry]
    return []


class SupplyOrders(QGroupBox):
    """The pad's supply orders: what kind, which corps, from and to which town, how many days
    and (2016) which brigade; Give Supply runs it."""

    given = Signal(str)  # what the order did, in the campaign's words
    refused = Signal(str)  # the campaign's reason for refusing it

    def __init__(self, campaign: OpenCampaign, parent: QWidget | None = None):
        super().__init__("Supply orders of the CinC", parent)
        self.setObjectName("supplyOrders")
        self.campaign = campaign
        self.kind = QComboBox()
        for kind in KINDS:
            self.kind.addItem(KIND_WORDS[kind], kind)
        self.corps = QComboBox()
        self.origin = QComboBox()
        self.origin.setEditable(True)
        self.town = QComboBox()
        self.town.setEditable(True)
        self.days = QSpinBox()
        self.days.setRange(1, 20)
        self.days.setValue(4)
        self.brigade = QComboBox()
        self.give_button = QPushButton("Give\n&Supply")
        self.give_button.setToolTip("Give the supply order")
        # two rows, so that the pad grows little and the map keeps its room; the lists'
        # longest names do not widen the pad either
        for box in (self.kind, self.corps, self.origin, self.town, self.brigade):
            box.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            box.setMinimumContentsLength(7)
        grid = QGridLayout(self)
        grid.setContentsMargins(6, 4, 6, 4)
        grid.setVerticalSpacing(3)
        rows: tuple[tuple[tuple[str, QWidget], ...], ...] = (
            (("Supply:", self.kind), ("Corps:", self.corps), ("With:", self.brigade)),
            (("From:", self.origin), ("To / at:", self.town), ("Days:", self.days)))
        for row, cells in enumerate(rows):
            for column, (label, widget) in enumerate(cells):
                grid.addWidget(QLabel(label), row, 2 * column)
                grid.addWidget(widget, row, 2 * column + 1)
        grid.addWidget(self.give_button, 0, 6, 2, 1)
        for column in (1, 3, 5):
            grid.setColumnStretch(column, 1)
        self.kind.currentIndexChanged.connect(self._on_kind)
        self.corps.currentTextChanged.connect(self._on_corps)
        self.give_button.clicked.connect(self._on_give)
        campaign.opened.connect(self._on_opened)
        campaign.changed.connect(self._on_changed)
        self._on_opened()

    def request(self) -> SupplyRequest:
        """The supply order as entered now."""
        kind = str(self.kind.currentData())
        corps = self.corps.currentText() or None
        origin = self.origin.currentText().strip() or None
        town = self.town.currentText().strip() or None
        brigade = self.brigade.currentData()
        if kind == "resupply":
            return SupplyRequest(kind, corps=corps, origin=origin)
        if kind == "move":
            return SupplyRequest(kind, origin=origin, town=town, days=self.days.value())
        return SupplyRequest(kind, corps=corps, town=town,
                             brigade=brigade if isinstance(brigade, int) else None)

    def give(self, request: SupplyRequest) -> Changes | None:
        """Give a supply order; what it did, or why it was refused, is told by ``given`` and
        ``refused``."""
        return (Operation(self.campaign, request.run_on())
                .success(lambda changes: self.given.emit(" ".join(changes.lines)
                                                         or changes.label))
                .failure(self._on_refused).run())

    def _on_refused(self, exc: CampaignError) -> None:
        self.refused.emit(str(exc))

    def _on_give(self) -> None:
        self.give(self.request())

    def _on_kind(self) -> None:
        kind = self.kind.currentData()
        self.corps.setEnabled(kind != "move")
        self.origin.setEnabled(kind != "depot")
        self.town.setEnabled(kind != "resupply")
        self.days.setEnabled(kind == "move")
        self.brigade.setEnabled(kind == "depot")

    def _on_corps(self, name: str) -> None:
        keep = self.brigade.currentData()
        self.brigade.clear()
        self.brigade.addItem(NO_BRIGADE, None)
        for number in brigades_of(self.campaign.scenario, name):
            self.brigade.addItem(f"{number} Brigade", number)
        index = self.brigade.findData(keep)
        if index >= 0:
            self.brigade.setCurrentIndex(index)

    def _on_opened(self) -> None:
        """A campaign opened (or supply switched): shown only while supply is kept; its
        corps, and the towns of the map, listed."""
        status = self.campaign.status
        self.setVisible(supply_kept(status))
        if status is None:
            return
        names = [c.name for c in status.commands if c.supply_days is not None]
        if names != [self.corps.itemText(i) for i in range(self.corps.count())]:
            keep = self.corps.currentText()
            self.corps.clear()
            self.corps.addItems(names)
            if keep in names:
                self.corps.setCurrentText(keep)
        scenario = self.campaign.scenario
        towns = sorted(t.name for t in scenario.map.towns) if scenario is not None else []
        depots = list(dict.fromkeys(m.town for m in status.supply))
        for box, first in ((self.origin, depots), (self.town, [])):
            if box.count() != len(first) + len(towns):
                typed = box.currentText()
                box.clear()
                box.addItems(first + towns)
                box.setEditText(typed)
        self._on_kind()

    def _on_changed(self, update: Update) -> None:
        if update.changes.supply or update.changes.date_changed:
            self._on_opened()

    def put(self, request: SupplyRequest) -> None:
        """Show a supply order on the pad (one asked for on the map)."""
        self.kind.setCurrentIndex(max(0, self.kind.findData(request.kind)))
        if request.corps:
            self.corps.setCurrentText(request.corps)
        if request.origin:
            self.origin.setEditText(request.origin)
        if request.town:
            self.town.setEditText(request.town)
        if request.days:
            self.days.setValue(request.days)
        index = self.brigade.findData(request.brigade)
        self.brigade.setCurrentIndex(max(0, index))


class AttritionDialog(QDialog):
    """The umpire names the brigade of a corps that loses its men lost out of supply."""

    def __init__(self, corps: str, men: int, brigades: Sequence[int],
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(f"Attrition: {corps}")
        self.corps = corps
        self.list = QListWidget()
        for number in brigades:
            self.list.addItem(f"{number} Brigade")
        self.list.setCurrentRow(0)
        self._numbers = list(brigades)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(f"{corps} lost {men} men out of supply. Which of its "
                                "brigades loses them?"))
        layout.addWidget(self.list)
        layout.addWidget(buttons)
        self.list.itemDoubleClicked.connect(lambda _item: self.accept())

    def brigade(self) -> int | None:
        """The brigade chosen, or None."""
        row = self.list.currentRow()
        return self._numbers[row] if 0 <= row < len(self._numbers) else None


def owed(status: CampaignStatus | None) -> list[tuple[str, int]]:
    """The corps whose men lost out of supply still wait for the umpire's brigade."""
    if status is None:
        return []
    return [(c.name, c.owed_men) for c in status.commands if c.owed_men]


def choose_attrition(campaign: OpenCampaign, corps: str, brigade: int) -> Changes | None:
    """Give the umpire's brigade for a corps' attrition (a refusal told by the campaign)."""
    return Operation(campaign, day_service("choose_attrition", corps, brigade)).run()


def ask_attrition(campaign: OpenCampaign, parent: QWidget | None,
                  ask: Callable[[AttritionDialog], int | None] | None = None,
                  only: str | None = None) -> bool:
    """Ask the umpire for the brigade of each corps (or ``only`` one) that lost men out of
    supply; whether every one was chosen. ``ask`` shows the dialog and returns the brigade
    (``exec`` by default)."""
    chosen_all = True
    for corps, men in owed(campaign.status):
        if only is not None and corps != only:
            continue
        brigades = brigades_of(campaign.scenario, corps)
        dialog = AttritionDialog(corps, men, brigades, parent)
        brigade = ask(dialog) if ask is not None else (
            dialog.brigade() if dialog.exec() == QDialog.DialogCode.Accepted else None)
        dialog.deleteLater()
        if brigade is None or choose_attrition(campaign, corps, brigade) is None:
            chosen_all = False
    return chosen_all
