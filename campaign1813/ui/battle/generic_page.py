"""The Play page of a ruleset without the 1813 chips (seeds 002 and 004): where the battle
stands, its units with those who may act now marked, and one form for any of the ruleset's
actions, built from the engine's ``ActionSpec``: a widget per input by its kind, the typed
rolls when the action rolls dice, and the exact odds of the outcome before anything is rolled.

Nothing here knows a ruleset by its id: the actions, their inputs, the units and the odds all
come from the battle's engine through ``queries.FightView``.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from campaign1813.campaign.battle.core.actions import Input, read_inputs
from campaign1813.campaign.battle.setup import ALLIED, FRENCH
from campaign1813.campaign.errors import CampaignError
from campaign1813.ui.battle.forms import ODDS_ROWS, REFUSED_STYLE, chance_text
from campaign1813.ui.battle.report_view import ReportView

Act = Callable[[str, Any, dict[str, Any]], Any]
ACTING = QColor("#fff2c0")
MAP_ROWS = 3  # entries of a unit → unit table offered at once (empty ones are not sent)
# Actions that end a step or a turn, tried in this order by the keyboard's "next".
NEXT_ACTIONS = ("next", "end-turn")


class BadFaces(CampaignError):
    """Typed dice that are not whole numbers."""


def parse_faces(text: str) -> list[int] | None:
    """The faces the umpire typed, one per die, in the order rolled.

    >>> parse_faces("6, 6 4;5")
    [6, 6, 4, 5]
    >>> parse_faces(" ") is None
    True
    """
    words = text.replace(",", " ").replace(";", " ").split()
    try:
        faces = [int(w) for w in words]
    except ValueError:
        raise BadFaces(f"typed dice '{text.strip()}': give each die's face, separated by "
                       "spaces or commas") from None
    return faces or None


def _flag_text(box: QCheckBox, help_text: str) -> str:
    """A flag's meaning, and whether it is left to the rules (the grey, third state)."""
    if box.checkState() == Qt.CheckState.PartiallyChecked:
        return f"{help_text} (not said)"
    return help_text


def compact(table: QTableWidget) -> None:
    """Rows a line of text high, as a laptop's screen wants them."""
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 6)


def _text(table: QTableWidget, row: int, column: int) -> str:
    item = table.item(row, column)
    return item.text() if item is not None else ""


class _Field:
    """One input's widget and how to read it back as the ``name=value`` pairs of
    ``core.actions.read_inputs``."""

    def __init__(self, spec: Input, units: list[tuple[str, str]], changed: Callable[[], None],
                 prefix: str = ""):
        self.spec = spec
        self.name = prefix + spec.name
        self.children: list[_Field] = []
        self.rows: list[tuple[QComboBox, QComboBox]] = []
        self.widget: QWidget
        kind = spec.kind
        w: QWidget
        if kind == "unit":
            w = self._units_combo(units, changed)
        elif kind == "side":
            combo = QComboBox()
            combo.addItem("—", "")
            combo.addItem(FRENCH, FRENCH)
            combo.addItem(ALLIED, ALLIED)
            combo.currentIndexChanged.connect(lambda _i: changed())
            w = combo
        elif kind == "flag":
            box = QCheckBox()
            box.setTristate(True)
            box.setToolTip("Grey: as the rules have it unless said; ticked: yes; clear: no")
            box.stateChanged.connect(lambda _s, b=box, h=spec.help: b.setText(_flag_text(b, h)))
            box.stateChanged.connect(lambda _s: changed())
            box.setCheckState(Qt.CheckState.PartiallyChecked)
            box.setText(_flag_text(box, spec.help))
            w = box
        elif kind == "whole":
            spin = QSpinBox()
            spin.setRange(-1, 999)
            spin.setSpecialValueText("—")
            spin.setValue(-1)
            spin.valueChanged.connect(lambda _v: changed())
            w = spin
        elif kind == "map":
            w = QWidget()
            grid = QVBoxLayout(w)
            grid.setContentsMargins(0, 0, 0, 0)
            for _ in range(MAP_ROWS):
                row = QHBoxLayout()
                a, b = self._units_combo(units, changed), self._units_combo(units, changed)
                row.addWidget(a, 1)
                row.addWidget(QLabel("→"))
                row.addWidget(b, 1)
                grid.addLayout(row)
                self.rows.append((a, b))
        elif kind == "group":
            box2 = QGroupBox(spec.help)
            inner = QFormLayout(box2)
            for sub in spec.fields:
                child = _Field(sub, units, changed, self.name + ".")
                self.children.append(child)
                inner.addRow(child.label(), child.widget)
            w = box2
        else:  # text, number, list, free
            edit = QLineEdit()
            edit.setPlaceholderText({"list": f"{spec.help}: words joined by commas",
                                     "free": "name=value, name=value, flag"}.get(kind,
                                                                                spec.help))
            edit.textChanged.connect(lambda _t: changed())
            w = edit
        if kind not in ("flag", "group"):
            w.setToolTip(spec.help)
        self.widget = w

    @staticmethod
    def _units_combo(units: list[tuple[str, str]], changed: Callable[[], None]) -> QComboBox:
        combo = QComboBox()
        combo.addItem("—", "")
        for key, label in units:
            combo.addItem(label, key)
        combo.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        combo.setMinimumWidth(120)
        combo.currentIndexChanged.connect(lambda _i: changed())
        return combo

    def label(self) -> str:
        """The input's name as the form shows it (a flag's meaning is on its box)."""
        if self.spec.kind in ("flag", "group"):
            return ""
        text = self.spec.name.replace("_", " ")
        return text + (" *" if self.spec.required else "")

    def pairs(self) -> list[tuple[str, str | None]]:
        """What the umpire gave, as ``name=value`` pairs; nothing for an input left empty."""
        w, kind = self.widget, self.spec.kind
        if kind == "group":
            return [p for c in self.children for p in c.pairs()]
        if kind == "map":
            return [(f"{self.name}.{a.currentData()}", str(b.currentData()))
                    for a, b in self.rows if a.currentData() and b.currentData()]
        if isinstance(w, QComboBox):
            value = str(w.currentData() or "")
            return [(self.name, value)] if value else []
        if isinstance(w, QCheckBox):
            state = w.checkState()
            if state == Qt.CheckState.PartiallyChecked:
                return []
            return [(self.name, "yes" if state == Qt.CheckState.Checked else "no")]
        if isinstance(w, QSpinBox):
            return [] if w.value() < 0 else [(self.name, str(w.value()))]
        assert isinstance(w, QLineEdit)
        text = w.text().strip()
        if not text:
            return []
        if kind == "free":
            out: list[tuple[str, str | None]] = []
            for part in (p.strip() for p in text.split(",") if p.strip()):
                name, eq, value = part.partition("=")
                out.append((f"{self.name}.{name.strip()}", value.strip() if eq else None))
            return out
        return [(self.name, text)]

    def set(self, path: list[str], value: Any) -> bool:
        """Fill the input (``path`` names an entry of a group); whether it was found."""
        if self.spec.kind == "group":
            return self._set_child(path, value)
        w = self.widget
        if self.spec.kind == "map":
            for (a, b), (k, v) in zip(self.rows, dict(value).items(), strict=False):
                a.setCurrentIndex(max(0, a.findData(k)))
                b.setCurrentIndex(max(0, b.findData(v)))
            return True
        if isinstance(w, QComboBox):
            w.setCurrentIndex(max(0, w.findData(value)))
        elif isinstance(w, QCheckBox):
            w.setCheckState(Qt.CheckState.PartiallyChecked if value is None else
                            Qt.CheckState.Checked if value else Qt.CheckState.Unchecked)
        elif isinstance(w, QSpinBox):
            w.setValue(-1 if value is None else int(value))
        elif isinstance(w, QLineEdit):
            w.setText("" if value is None else str(value))
        return True

    def _set_child(self, path: list[str], value: Any) -> bool:
        if not path:
            return False
        for c in self.children:
            if c.spec.name == path[0]:
                return c.set(path[1:], value)
        return False


class GenericPlayPage(QWidget):
    """The battle of a ruleset without chips: its units, its actions, their odds."""

    message_shown = Signal(str)

    def __init__(self, act: Act, finish: Callable[[], Any], parent: QWidget | None = None):
        super().__init__(parent)
        self._act = act
        self._finish = finish
        self.view: Any = None
        self.fields: list[_Field] = []
        self._built_for: tuple[str, str, tuple[str, ...]] | None = None
        self.step_text = QLabel()
        self.step_text.setWordWrap(True)
        self.step_text.setStyleSheet("font-weight: bold; font-size: 11pt")
        self.acting_text = QLabel()
        self.acting_text.setWordWrap(True)
        self.action = QComboBox()
        self.action.currentIndexChanged.connect(lambda _i: self._build_form())
        self.action_help = QLabel()
        self.action_help.setWordWrap(True)
        self.action_help.setStyleSheet("color: #333")
        self.form_box = QWidget()
        self.form_layout = QFormLayout(self.form_box)
        self.form_layout.setContentsMargins(0, 0, 0, 0)
        self.typed = QLineEdit()
        self.typed.setPlaceholderText("the dice rolled at the table, e.g. 6 6 4 (empty: the "
                                      "battle's dice)")
        self.typed.returnPressed.connect(self.act)
        self.typed_label = QLabel("Typed dice")
        self.odds = QTableWidget(0, 3)
        self.odds.setHorizontalHeaderLabels(["Outcome", "Chance", ""])
        self.odds.verticalHeader().hide()
        self.odds.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.odds.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        compact(self.odds)
        self.odds_text = QLabel()
        self.odds_text.setWordWrap(True)
        self.act_button = QPushButton("&Act")
        self.act_button.setToolTip("Take the action (Enter; Ctrl+R)")
        self.act_button.clicked.connect(lambda _c=False: self.act())
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.units = QTableWidget(0, 0)
        self.units.verticalHeader().hide()
        self.units.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.units.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.units.setAlternatingRowColors(False)
        self.units.setWordWrap(False)
        self.units.cellDoubleClicked.connect(self._on_unit_picked)
        compact(self.units)
        self.units.setToolTip("Marked: may act now. Double-click: the form's first unit empty")
        self.report = ReportView(compact=True)

        # the action's inputs scroll; the dice, the odds, Act and its refusal stay under
        # them, in view on a laptop's screen
        inputs = QWidget()
        il = QVBoxLayout(inputs)
        il.setContentsMargins(0, 0, 0, 0)
        il.addWidget(self.step_text)
        il.addWidget(self.acting_text)
        il.addWidget(self.action)
        il.addWidget(self.action_help)
        il.addWidget(self.form_box)
        il.addStretch(1)
        inputs_scroll = QScrollArea()
        inputs_scroll.setWidgetResizable(True)
        inputs_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        inputs_scroll.setWidget(inputs)
        box = QGroupBox("Action")
        bl = QVBoxLayout(box)
        bl.addWidget(inputs_scroll, 1)
        typed_row = QHBoxLayout()
        typed_row.addWidget(self.typed_label)
        typed_row.addWidget(self.typed, 1)
        bl.addLayout(typed_row)
        bl.addWidget(QLabel("The exact odds before the roll"))
        bl.addWidget(self.odds)
        bl.addWidget(self.odds_text)
        act_row = QHBoxLayout()
        act_row.addStretch(1)
        act_row.addWidget(self.act_button)
        bl.addLayout(act_row)
        bl.addWidget(self.message)
        box.setMinimumWidth(430)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.units)
        report_box = QWidget()
        rl = QVBoxLayout(report_box)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(QLabel("The report so far"))
        rl.addWidget(self.report)
        right.addWidget(report_box)
        right.setSizes([380, 240])
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(box)
        split.addWidget(right)
        split.setSizes([530, 830])
        for column, share in enumerate((2, 3)):
            split.setStretchFactor(column, share)
        split.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)

    # ----- showing ------------------------------------------------------------------------
    def show_view(self, view: Any) -> None:
        """Show the battle as it stands now."""
        self.view = view
        self.step_text.setText(view.step_now[0].upper() + view.step_now[1:]
                               if view.step_now else "")
        labels = dict(zip(view.units.keys, (r[0] for r in view.units.rows), strict=True))
        acting = [labels.get(k, k) for k in view.who_acts]
        self.acting_text.setText("May act now: " + ", ".join(acting) if acting else "")
        self._fill_units(view)
        self.report.show_lines(view.report)
        names = [a.name for a in view.actions]
        if [self.action.itemData(i) for i in range(self.action.count())] != names:
            self.action.blockSignals(True)
            self.action.clear()
            for a in view.actions:
                self.action.addItem(f"{a.name} — {a.help}", a.name)
            self.action.blockSignals(False)
        built = (view.ruleset, str(self.action.currentData()), tuple(view.units.keys))
        if built != self._built_for:
            self._build_form()
        else:
            self.update_odds()
        self.act_button.setEnabled(not view.closed)

    def _fill_units(self, view: Any) -> None:
        table = view.units
        acting = set(view.who_acts)
        self.units.setColumnCount(len(table.headers))
        self.units.setHorizontalHeaderLabels(list(table.headers))
        self.units.setRowCount(len(table.rows))
        bold = QFont()
        bold.setBold(True)
        for r, (key, row) in enumerate(zip(table.keys, table.rows, strict=True)):
            for c, text in enumerate(row):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, key)
                if key in acting:
                    item.setBackground(QBrush(ACTING))
                    item.setFont(bold)
                if c == 0:
                    item.setToolTip(key)
                self.units.setItem(r, c, item)
        self.units.resizeColumnsToContents()
        header = self.units.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)

    def unit_row(self, key: str) -> list[str]:
        """The cells of a unit's row (for tests and the keyboard)."""
        table = self.view.units
        return list(table.rows[list(table.keys).index(key)])

    def acting_rows(self) -> list[str]:
        """The keys of the rows marked as acting now."""
        out = []
        for r in range(self.units.rowCount()):
            item = self.units.item(r, 0)
            if item is not None and item.background().color() == ACTING:
                out.append(str(item.data(Qt.ItemDataRole.UserRole)))
        return out

    # ----- the form -----------------------------------------------------------------------
    def spec(self) -> Any:
        """The chosen action's ``ActionSpec``."""
        name = self.action.currentData()
        return next((a for a in self.view.actions if a.name == name), None) if self.view else None

    def choose(self, action: str) -> None:
        """Choose an action by name (its form is built afresh)."""
        index = self.action.findData(action)
        if index < 0:
            raise KeyError(action)
        if index == self.action.currentIndex():
            self._build_form()
        else:
            self.action.setCurrentIndex(index)

    def _build_form(self) -> None:
        view = self.view
        while self.form_layout.rowCount():
            self.form_layout.removeRow(0)
        self.fields = []
        spec = self.spec()
        if view is None or spec is None:
            return
        self._built_for = (view.ruleset, spec.name, tuple(view.units.keys))
        units = list(zip(view.units.keys, (r[0] for r in view.units.rows), strict=True))
        for i in spec.inputs:
            f = _Field(i, units, self.update_odds)
            self.fields.append(f)
            self.form_layout.addRow(f.label(), f.widget)
        self.action_help.setText(spec.help[0].upper() + spec.help[1:]
                                 + (" — rolls dice" if spec.rolls else ""))
        self.typed.clear()
        self.typed.setVisible(spec.rolls)
        self.typed_label.setVisible(spec.rolls)
        self.act_button.setText("&Roll" if spec.rolls else "&Act")
        self.update_odds()

    def set_input(self, name: str, value: Any) -> None:
        """Fill an input by its name (a dotted name for an entry of a group)."""
        path = name.split(".")
        for f in self.fields:
            if f.spec.name == path[0]:
                f.set(path[1:], value)
                return
        raise KeyError(name)

    def pairs(self) -> list[tuple[str, str | None]]:
        """The form's inputs as ``name=value`` pairs."""
        return [p for f in self.fields for p in f.pairs()]

    def inputs(self) -> dict[str, Any]:
        """The form's inputs read by their kinds (``core.actions.read_inputs``)."""
        spec = self.spec()
        return read_inputs(spec, self.pairs()) if spec is not None else {}

    def update_odds(self) -> None:
        """The exact chance of each outcome of the action as the form stands."""
        self.odds.setRowCount(0)
        view, spec = self.view, self.spec()
        if view is None or spec is None:
            return
        if not spec.rolls:
            self.odds_text.setText("This action rolls no dice.")
            self.odds.setVisible(False)
            return
        try:
            odds = view.engine.action(view.setup, view.steps, spec.name,
                                      self.inputs()).chance_outcomes()
        except CampaignError as exc:
            self.odds.setVisible(False)
            self.odds_text.setText(f"Odds when the form is complete: {exc}")
            return
        self.odds.setVisible(bool(odds))
        self.odds_text.setText("" if odds else "The rules give these dice no single outcome "
                               "to show odds for; roll them.")
        self.odds.setRowCount(len(odds))
        for r, (outcome, p) in enumerate(odds):
            exact, percent = chance_text(Fraction(p))
            for c, text in enumerate((outcome, exact, percent)):
                self.odds.setItem(r, c, QTableWidgetItem(text))
        self.odds.resizeColumnsToContents()
        self.odds.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # the whole distribution in view, up to ODDS_ROWS outcomes (more scroll), so Act and
        # its refusal stay in view too
        self.odds.setFixedHeight(self.odds.horizontalHeader().sizeHint().height() + 4
                                 + self.odds.verticalHeader().defaultSectionSize()
                                 * min(ODDS_ROWS, len(odds)))

    def odds_rows(self) -> list[tuple[str, str]]:
        """The odds shown: each outcome and its exact chance."""
        return [(_text(self.odds, r, 0), _text(self.odds, r, 1))
                for r in range(self.odds.rowCount())]

    # ----- acting -------------------------------------------------------------------------
    def say(self, text: str, error: bool = False) -> None:
        """Show what happened, or why an action was refused."""
        self.message.setStyleSheet(REFUSED_STYLE if error else "")
        self.message.setText(text)
        self.message_shown.emit(text)

    def clear_refusal(self) -> None:
        """The battle changed (a step, an undo): a refusal shown before no longer stands."""
        if self.message.styleSheet() == REFUSED_STYLE:
            self.message.clear()
            self.message.setStyleSheet("")

    def act(self) -> Any:
        """Take the chosen action with the form's inputs (and the typed dice, if any)."""
        spec = self.spec()
        if spec is None:
            return None
        if spec.name == "finish":
            return self._finish()
        try:
            typed = parse_faces(self.typed.text()) if spec.rolls else None
            inputs = self.inputs()
            changes = self._act(spec.name, typed, inputs)
        except CampaignError as exc:
            self.say(f"Refused: {exc}", error=True)
            return None
        self.typed.clear()
        self.say("\n".join(changes.lines or (changes.label,)))
        return changes

    def next_step(self) -> Any:
        """The keyboard's "next": the ruleset's action that ends the step or the turn."""
        names = [a.name for a in self.view.actions] if self.view else []
        name = next((n for n in NEXT_ACTIONS if n in names), None)
        if name is None:
            self.say("This ruleset has no next step to take by the keyboard")
            return None
        self.choose(name)
        return self.act()

    def _on_unit_picked(self, row: int, _column: int) -> None:
        item = self.units.item(row, 0)
        if item is None:
            return
        key = item.data(Qt.ItemDataRole.UserRole)
        for f in self.fields:
            if f.spec.kind == "unit" and isinstance(f.widget, QComboBox) and \
                    not f.widget.currentData():
                f.widget.setCurrentIndex(max(0, f.widget.findData(key)))
                return
