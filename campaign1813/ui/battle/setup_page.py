"""The Setup page: both sides' commands and orders of battle, the suggested table, the chips and
who holds each, each corps' written orders and objective, the reserve's allocation and the
reinforcements due; before the battle is set up, the choice to set it up or auto-resolve it."""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from campaign1813.campaign.battle.files import data_folders
from campaign1813.campaign.battle.registry import DEFAULT_RULESET, all_ruleset_names, find_ruleset
from campaign1813.campaign.battle.ruleset1813.fight import Phase, label_of
from campaign1813.campaign.battle.ruleset1813.fight_tests import known_facts
from campaign1813.campaign.battle.ruleset1813.rules.loader import ruleset_info
from campaign1813.campaign.battle.ruleset1813.rules.morale import rout_point
from campaign1813.campaign.battle.setup import (
    ALLIED,
    FRENCH,
    REINFORCEMENT_TURN,
    Special,
)
from campaign1813.campaign.battle.terms import Arm, CorpsOrder, Role
from campaign1813.campaign.errors import CampaignError
from campaign1813.ui.battle.generic_page import compact
from campaign1813.ui.battle.table_diagram import TableDiagram

SPECIALS = [s.value for s in Special if s is not Special.POOR]


def ruleset_title(name: str) -> str:
    """A ruleset's title from its ``ruleset.toml`` (its id if it has none, or no data folder)."""
    if name not in data_folders():
        return name
    return str(ruleset_info(name).get("title") or name)


def enters_text(c: Any) -> str:
    """Where and when a corps comes on: ``on the table`` or ``north edge, turn 4, column``."""
    if c.edge is None:
        return "on the table"
    return (f"{c.edge.value} edge, turn {c.turn}"
            + (", in column of march" if c.column_of_march else ""))


def brigade_cells(setup: Any, state: Any, key: str) -> list[str]:
    """A brigade's row in the order of battle: name and arm, class, fire and skirmish
    grades (or weight, or calibre), casualties against its rout point."""
    b, now = setup.brigade(key), state.brigades[key]
    name = label_of(setup, key).replace(f" ({b.corps})", "")
    if b.arm is Arm.INFANTRY:
        detail = f"{b.firepower.value}/{b.skirmish.value}"
    elif b.arm is Arm.CAVALRY:
        detail = (b.cavalry.value if b.cavalry else "") + (" lancers" if b.lancers else "")
    else:
        detail = f"{b.calibre} pdr" + (" horse" if b.horse else "")
    return [name, b.rating.value, detail, f"{now.casualties} of {rout_point(b.arm, setup.ruleset)}"]


class SetupPage(QWidget):
    """The battle before the first chip (and, once begun, as it was set up)."""

    begin_requested = Signal()
    autoresolve_requested = Signal()

    def __init__(self, act: Callable[[str, dict[str, Any]], Any],
                 open_fight: Callable[[int | None, list[str], str], Any],
                 parent: QWidget | None = None):
        super().__init__(parent)
        self._act = act
        self._open_fight = open_fight
        self.view: Any = None
        self.stack = QStackedWidget()
        self.stack.addWidget(self._build_unopened())
        self.stack.addWidget(self._build_opened())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack)

    # ----- before the battle is set up ----------------------------------------------------
    def _build_unopened(self) -> QWidget:
        page = QWidget()
        self.battle_text = QLabel()
        self.battle_text.setWordWrap(True)
        self.battle_text.setTextFormat(Qt.TextFormat.RichText)
        self.ruleset = QComboBox()
        for name in all_ruleset_names():
            self.ruleset.addItem(f"{name} — {ruleset_title(name)}", name)
        self.ruleset.setCurrentIndex(self.ruleset.findData(DEFAULT_RULESET))
        self.ruleset.currentIndexChanged.connect(lambda _i: self._on_ruleset())
        self.ruleset_note = QLabel()
        self.ruleset_note.setWordWrap(True)
        self.special_boxes = [QCheckBox(f"Add the {name} chip") for name in SPECIALS]
        self.seed = QSpinBox()
        self.seed.setRange(0, 2_000_000_000)
        self.seed.setSpecialValueText("the battle's own")
        self.open_button = QPushButton("&Set up on the table")
        self.open_button.clicked.connect(self._on_open)
        self.auto_button = QPushButton("&Auto-resolve…")
        self.auto_button.clicked.connect(self.autoresolve_requested.emit)
        self.open_message = QLabel()
        self.open_message.setWordWrap(True)
        box = QGroupBox("Fight it at the table")
        inner = QVBoxLayout(box)
        rules_row = QHBoxLayout()
        rules_row.addWidget(QLabel("&Rules"))
        rules_row.addWidget(self.ruleset)
        rules_row.addStretch(1)
        rules_row.itemAt(0).widget().setBuddy(self.ruleset)  # type: ignore[union-attr]
        inner.addLayout(rules_row)
        inner.addWidget(self.ruleset_note)
        for cb in self.special_boxes:
            inner.addWidget(cb)
        seed_row = QHBoxLayout()
        seed_row.addWidget(QLabel("Seed of the battle's dice"))
        seed_row.addWidget(self.seed)
        seed_row.addStretch(1)
        inner.addLayout(seed_row)
        buttons = QHBoxLayout()
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.auto_button)
        buttons.addStretch(1)
        inner.addLayout(buttons)
        inner.addWidget(self.open_message)
        layout = QVBoxLayout(page)
        layout.addWidget(self.battle_text)
        layout.addWidget(box)
        layout.addStretch(1)
        self._on_ruleset()
        return page

    def chosen_ruleset(self) -> str:
        """The ruleset chosen to fight the battle by."""
        return str(self.ruleset.currentData() or DEFAULT_RULESET)

    def choose_ruleset(self, name: str) -> None:
        """Choose the ruleset by its id."""
        index = self.ruleset.findData(name)
        if index < 0:
            raise KeyError(name)
        self.ruleset.setCurrentIndex(index)

    def _on_ruleset(self) -> None:
        chips = find_ruleset(self.chosen_ruleset()).chips
        for cb in self.special_boxes:
            cb.setVisible(chips)
            if not chips:
                cb.setChecked(False)
        self.ruleset_note.setText(
            "" if chips else "The campaign's corps become this ruleset's units by its mapping "
            "(brigades → units, grades → elite, regular or poor), shown once set up; no chips "
            "are drawn.")

    def show_unopened(self, battle: Any) -> None:
        """A scheduled battle not yet on the table: who fights, and the two ways to decide it."""
        self.view = None
        self.stack.setCurrentIndex(0)
        if battle is None:
            self.battle_text.setText("This battle is no longer due.")
            self.open_button.setEnabled(False)
            self.auto_button.setEnabled(False)
            return
        lines = [f"<h3>{escape(battle.title[0].upper() + battle.title[1:])}</h3>",
                 f"<b>French:</b> {escape(', '.join(battle.french))}",
                 f"<b>Allied:</b> {escape(', '.join(battle.allied))}"]
        for side, names in (("French", battle.french_reinforcements),
                            ("Allied", battle.allied_reinforcements)):
            if names:
                lines.append(f"<b>{side} reinforcements</b> (turn {REINFORCEMENT_TURN}): "
                             f"{escape(', '.join(names))}")
        if battle.attacker:
            lines.append(f"The {battle.attacker.value} attack.")
        lines += [escape(n) for n in battle.notes]
        self.battle_text.setText("<br>".join(lines))
        due = battle.result is None
        self.open_button.setEnabled(due)
        self.auto_button.setEnabled(due)

    def _on_open(self) -> None:
        specials = [name for name, cb in zip(SPECIALS, self.special_boxes, strict=True)
                    if cb.isChecked()]
        try:
            self._open_fight(self.seed.value() or None, specials, self.chosen_ruleset())
        except CampaignError as exc:
            self.open_message.setStyleSheet("color: #a00000")
            self.open_message.setText(f"Refused: {exc}")

    # ----- the battle on the table --------------------------------------------------------
    def _build_opened(self) -> QWidget:
        page = QWidget()
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.heading.setStyleSheet("font-weight: bold")
        self.sides = QTreeWidget()
        self.sides.setHeaderLabels(["Command and brigades", "Class", "Details",
                                    "Cas."])
        self.sides.setIndentation(12)
        self.sides.header().setStretchLastSection(False)
        self.sides.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.chips = QTableWidget(0, 3)
        self.chips.setHorizontalHeaderLabels(["Chip", "Held by", "Side"])
        self.chips.verticalHeader().hide()
        self.chips.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.chips.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.orders = QTableWidget(0, 4)
        self.orders.setHorizontalHeaderLabels(["Corps", "Enters", "Orders",
                                               "Objective"])
        self.orders.verticalHeader().hide()
        self.orders.setWordWrap(True)
        header = self.orders.horizontalHeader()
        for col in (0, 1):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch)
        # the choosers are cell widgets, which a column sized to its contents does not see
        for col, width in ((2, 104), (3, 110)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Fixed)
            header.resizeSection(col, width)
        self.orders.setMinimumHeight(150)
        self.orders_message = QLabel()
        self.orders_message.setWordWrap(True)
        self.reserve_box = QGroupBox("The reserve commander's allocation (before the first chip)")
        self.reserve = QComboBox()
        self.reserve.currentIndexChanged.connect(self._fill_allocatable)
        self.allocatable = QListWidget()
        self.allocatable.setMaximumHeight(110)
        self.allocate_button = QPushButton("Allocate to the reserve")
        self.allocate_button.clicked.connect(self._on_allocate)
        rl = QVBoxLayout(self.reserve_box)
        rl.addWidget(self.reserve)
        rl.addWidget(self.allocatable)
        rl.addWidget(self.allocate_button)
        self.reinforcements = QLabel()
        self.reinforcements.setWordWrap(True)
        self.diagram = TableDiagram()
        self.roads = QLabel()
        self.roads.setWordWrap(True)
        self.mapping_label = QLabel()
        self.mapping_label.setWordWrap(True)
        self.mapping = QTableWidget(0, 0)
        self.mapping.verticalHeader().hide()
        self.mapping.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.mapping.setWordWrap(False)
        compact(self.mapping)
        self.begin_button = QPushButton("&Play ▸")
        self.begin_button.setToolTip("Go to the Play page and draw the first chip")
        self.begin_button.clicked.connect(self.begin_requested.emit)

        left = QWidget()
        self.forces_column = left
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.sides, 3)
        self.chips_label = QLabel("Chips in the bag")
        ll.addWidget(self.chips_label)
        ll.addWidget(self.chips, 2)
        middle = QWidget()
        ml = QVBoxLayout(middle)
        ml.setContentsMargins(0, 0, 0, 0)
        note = QLabel("Each corps' written orders and objective (free before the first chip; "
                      "afterwards only the CinC changes them)")
        note.setWordWrap(True)
        self.orders_note = note
        ml.addWidget(note)
        ml.addWidget(self.orders, 1)
        ml.addWidget(self.mapping_label)
        ml.addWidget(self.mapping, 1)
        ml.addWidget(self.orders_message)
        ml.addWidget(self.reserve_box)
        ml.addWidget(self.reinforcements)
        begin_row = QHBoxLayout()
        begin_row.addStretch(1)
        begin_row.addWidget(self.begin_button)
        ml.addLayout(begin_row)
        right = QWidget()
        rl2 = QVBoxLayout(right)
        rl2.setContentsMargins(0, 0, 0, 0)
        rl2.addWidget(self.diagram, 1)
        rl2.addWidget(self.roads)
        split = QSplitter(Qt.Orientation.Horizontal)
        for w in (left, middle, right):
            split.addWidget(w)
        split.setSizes([470, 450, 420])
        self.split = split
        layout = QVBoxLayout(page)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.heading)
        layout.addWidget(split, 1)
        return page

    def show_view(self, view: Any) -> None:
        """Show the battle on the table as it stands."""
        self.view = view
        self.stack.setCurrentIndex(1)
        s, st = view.setup, view.state
        t = s.table
        self.heading.setText(f"{s.title[0].upper()}{s.title[1:]} — rules {s.ruleset}, "
                             f"{s.turns} turns, seed {s.seed}; table {t.feet} × {t.feet} feet, "
                             f"{t.town} ({t.kind}) in the centre")
        chips = view.engine.chips
        for w in (self.sides, self.chips_label, self.chips, self.orders_note, self.orders,
                  self.orders_message):
            w.setVisible(chips)
        # the mapping names every unit the ruleset fights with: it takes the forces' room
        if self.forces_column.isVisibleTo(self) != chips:
            self.forces_column.setVisible(chips)
            if not chips:
                self.split.setSizes([0, 820, 520])
        rows = view.mapping.rows if view.mapping is not None else ()
        self.mapping_label.setVisible(bool(rows))
        self.mapping.setVisible(bool(rows))
        if rows:
            self._fill_table(self.mapping, view.mapping.headers, rows)
            self.mapping_label.setText(
                f"How the campaign's brigades and commanders become the units of ruleset "
                f"{view.ruleset} ({ruleset_title(view.ruleset)})")
        if chips:
            self._fill_sides(view)
            self._fill_chips(view)
            self._fill_orders(view)
            self._fill_reserve(view)
        else:
            self.reserve_box.setVisible(False)
        # A late CinC (his headquarters marching to the sound of the guns) comes with the
        # late corps: neither acts before his turn.
        due = [(f"{c.name} (CinC, {c.side})", c.turn, c.edge) for c in s.commanders
               if c.role is Role.CINC and c.turn > 1]
        due += [(f"{c.key} ({c.side})", c.turn, c.edge) for c in s.corps if c.turn > 1]
        self.reinforcements.setText(
            "Reinforcements: " + ("; ".join(f"{who} on turn {turn} by the "
                                            f"{edge.value if edge else '—'} edge"
                                            for who, turn, edge in due) if due else "none due"))
        self.roads.setText("Roads: " + "; ".join(
            f"{r.to} {r.bearing:.0f}° ({r.edge.value} edge"
            + (f", {r.river} {r.crossing}" if r.river else "") + ")" for r in t.roads))
        if chips:
            self.begin_button.setText("&Play ▸" if st.phase != Phase.SETUP else
                                      "&Play ▸ (draw the first chip)")
        else:
            self.begin_button.setText("&Play ▸")

    @staticmethod
    def _fill_table(table: QTableWidget, headers: Any, rows: Any) -> None:
        table.setColumnCount(len(headers))
        table.setHorizontalHeaderLabels(list(headers))
        table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                table.setItem(r, c, item)
        table.resizeColumnsToContents()
        for c in range(table.columnCount()):
            table.setColumnWidth(c, min(table.columnWidth(c), 300))
        table.horizontalHeader().setStretchLastSection(True)

    def mapping_rows(self) -> list[list[str]]:
        """The mapping shown: a row per brigade or commander (for tests)."""
        if not self.mapping.isVisibleTo(self):
            return []
        return [[item.text() if (item := self.mapping.item(r, c)) is not None else ""
                 for c in range(self.mapping.columnCount())]
                for r in range(self.mapping.rowCount())]

    def _fill_sides(self, view: Any) -> None:
        s, st = view.setup, view.state
        self.sides.clear()
        for side in (FRENCH, ALLIED):
            top = QTreeWidgetItem([side])
            font = top.font(0)
            font.setBold(True)
            top.setFont(0, font)
            self.sides.addTopLevelItem(top)
            top.setFirstColumnSpanned(True)
            for cm in s.commanders:
                if cm.side == side and cm.role.value == "CinC":
                    item = QTreeWidgetItem(top, [f"{cm.name}, CinC ({cm.grade.value})"])
                    item.setFirstColumnSpanned(True)
            for c in s.side_corps(side):
                cm = s.commander(c.commander)
                item = QTreeWidgetItem(top, [f"{c.key} ({c.blind}): {cm.name}, "
                                             f"{cm.grade.value}"])
                item.setToolTip(0, enters_text(c))
                item.setFirstColumnSpanned(True)
                for key in st.corps[c.key].brigades:
                    leaf = QTreeWidgetItem(item, brigade_cells(s, st, key))
                    leaf.setToolTip(0, known_facts(s, st, key))
                item.setExpanded(True)
            top.setExpanded(True)
        for col in range(1, self.sides.columnCount()):
            self.sides.resizeColumnToContents(col)

    def _fill_chips(self, view: Any) -> None:
        s = view.setup
        self.chips.setRowCount(len(s.chips))
        for row, chip in enumerate(s.chips):
            holder = s.commander(chip.commander) if chip.commander else None
            corps = next((c.key for c in s.corps if c.commander == chip.commander), "")
            who = (f"{holder.name} ({corps or holder.role.value})" if holder
                   else "special chip")
            for col, text in enumerate((chip.label, who, holder.side if holder else "")):
                self.chips.setItem(row, col, QTableWidgetItem(text))
        self.chips.resizeColumnsToContents()
        self.chips.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)

    def _fill_orders(self, view: Any) -> None:
        s, st = view.setup, view.state
        writable = st.phase == Phase.SETUP
        keys = [c.key for c in s.corps]
        if [self._corps_in_row(r) for r in range(self.orders.rowCount())] != keys:
            self._build_orders(view)
        # the choosers stay (one may be the sender of the change that brought us here)
        for row, c in enumerate(s.corps):
            now = st.corps[c.key]
            combo = self.orders.cellWidget(row, 2)
            objective = self.orders.cellWidget(row, 3)
            assert isinstance(combo, QComboBox) and isinstance(objective, QLineEdit)
            combo.blockSignals(True)
            combo.setCurrentText(now.orders.value)
            combo.blockSignals(False)
            combo.setEnabled(writable)
            if not objective.hasFocus():
                objective.setText(now.objective)
            objective.setEnabled(writable)

    def _build_orders(self, view: Any) -> None:
        s = view.setup
        self.orders.setRowCount(len(s.corps))
        for row, c in enumerate(s.corps):
            cm = s.commander(c.commander)
            corps = QTableWidgetItem(f"{c.key}\n{cm.name} ({cm.grade.value})")
            corps.setData(Qt.ItemDataRole.UserRole, c.key)
            self.orders.setItem(row, 0, corps)
            self.orders.setItem(row, 1, QTableWidgetItem(enters_text(c)))
            combo = QComboBox()
            for o in CorpsOrder:
                combo.addItem(o.value)
            combo.currentTextChanged.connect(
                lambda text, k=c.key: self._on_order(k, text))
            self.orders.setCellWidget(row, 2, combo)
            objective = QLineEdit()
            objective.setMinimumWidth(90)
            objective.editingFinished.connect(
                lambda k=c.key, e=objective: self._on_objective(k, e.text()))
            self.orders.setCellWidget(row, 3, objective)
        self.orders.resizeRowsToContents()

    def order_combo(self, corps: str) -> QComboBox:
        """The orders chooser of a corps' row."""
        for row in range(self.orders.rowCount()):
            if self._corps_in_row(row) == corps:
                widget = self.orders.cellWidget(row, 2)
                assert isinstance(widget, QComboBox)
                return widget
        raise KeyError(corps)

    def _corps_in_row(self, row: int) -> str:
        item = self.orders.item(row, 0)
        return str(item.data(Qt.ItemDataRole.UserRole)) if item is not None else ""

    def _on_order(self, corps: str, order: str) -> None:
        if self.view is None or self.view.state.corps[corps].orders.value == order:
            return
        self._write(corps, order, "")

    def _on_objective(self, corps: str, objective: str) -> None:
        if self.view is None:
            return
        now = self.view.state.corps[corps]
        if objective.strip() and objective.strip() != now.objective:
            self._write(corps, now.orders.value, objective.strip())

    def _write(self, corps: str, order: str, objective: str) -> None:
        try:
            changes = self._act("orders", {"corps": corps, "order": order,
                                           "objective": objective})
        except CampaignError as exc:
            self.orders_message.setStyleSheet("color: #a00000")
            self.orders_message.setText(f"Refused: {exc}")
            return
        self.orders_message.setStyleSheet("")
        self.orders_message.setText(" ".join(changes.lines))

    def _fill_reserve(self, view: Any) -> None:
        s = view.setup
        reserves = [c for c in s.corps if c.reserve]
        self.reserve_box.setVisible(bool(reserves))
        self.reserve.blockSignals(True)
        self.reserve.clear()
        for c in reserves:
            self.reserve.addItem(f"{c.key} ({c.side})", c.key)
        self.reserve.blockSignals(False)
        self._fill_allocatable()
        self.allocate_button.setEnabled(view.state.phase == Phase.SETUP)

    def _fill_allocatable(self) -> None:
        self.allocatable.clear()
        view = self.view
        key = self.reserve.currentData()
        if view is None or not key:
            return
        s, st = view.setup, view.state
        side = s.corps_of(key).side
        for c in s.side_corps(side):
            for b in st.corps[c.key].brigades:
                if s.brigade(b).arm is Arm.INFANTRY:
                    continue
                item = QListWidgetItem(label_of(s, b) + (" — with the reserve"
                                                         if c.key == key else ""))
                item.setData(Qt.ItemDataRole.UserRole, b)
                if c.key != key:
                    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                    item.setCheckState(Qt.CheckState.Unchecked)
                self.allocatable.addItem(item)

    def _on_allocate(self) -> None:
        chosen = [str(self.allocatable.item(i).data(Qt.ItemDataRole.UserRole))
                  for i in range(self.allocatable.count())
                  if self.allocatable.item(i).checkState() == Qt.CheckState.Checked]
        if not chosen:
            self.orders_message.setText("Tick the cavalry or artillery the reserve takes")
            return
        try:
            changes = self._act("allocate", {"reserve": self.reserve.currentData(),
                                             "brigades": chosen})
        except CampaignError as exc:
            self.orders_message.setStyleSheet("color: #a00000")
            self.orders_message.setText(f"Refused: {exc}")
            return
        self.orders_message.setStyleSheet("")
        self.orders_message.setText(" ".join(changes.lines))
