"""The Play page: one activation at a time, the queue of tests, the test form, the brigades.

Left: the chip (drawn by the battle, or the one the umpire drew from the real bag), the
commander it names with his corps, grade and orders, his pips (rolled here or typed) and the
budget, each action ticked off against its cost; the CinC's orders and gift of his move; the
tests queued by results, each opening its form; a new test of the umpire's choosing. Middle: the
open test's form with its odds. Right: the brigades table and the report as it grows.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QMessageBox,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from campaign1813.campaign.battle.ruleset1813.fight import (
    Phase,
    PipsUnspent,
    label_of,
    on_blind,
    pips_distribution,
    pips_text,
)
from campaign1813.campaign.battle.ruleset1813.rules.brigade import ARM_FORMATIONS
from campaign1813.campaign.battle.ruleset1813.rules.tables.command import CorpsAction, command_table
from campaign1813.campaign.battle.ruleset1813.rules.tables.spotting import spotting_table
from campaign1813.campaign.battle.terms import CorpsOrder, Role
from campaign1813.campaign.errors import CampaignError
from campaign1813.ui.battle.brigades import BrigadesTable
from campaign1813.ui.battle.forms import (
    REFUSED_STYLE,
    TEST_TITLES,
    BadRoll,
    Request,
    TestForm,
    chance_text,
    parse_roll,
    queued_request,
)
from campaign1813.ui.battle.report_view import ReportView

BATTLE_DRAWS = "the battle draws"

Act = Callable[..., Any]


def _button(text: str, slot: Callable[[], Any], tip: str = "") -> QPushButton:
    b = QPushButton(text)
    b.clicked.connect(lambda _checked=False: slot())
    if tip:
        b.setToolTip(tip)
    return b


class PlayPage(QWidget):
    """The battle being fought, one activation at a time."""

    message_shown = Signal(str)

    def __init__(self, act: Act, parent: QWidget | None = None):
        super().__init__(parent)
        self._act = act
        self.view: Any = None
        self.form = TestForm(self._take)
        self.form.rolled.connect(self._on_rolled)
        self.brigades = BrigadesTable()
        self.report = ReportView(compact=True)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(2, 2, 2, 2)
        ll.addWidget(self._activation_box())
        ll.addWidget(self._budget_box())
        ll.addWidget(self._cinc_box())
        ll.addWidget(self._special_box())
        ll.addWidget(self._new_test_box())
        ll.addWidget(self._night_box())
        ll.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(left)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        for combo in left.findChildren(QComboBox):
            # long entries must not widen the column past a laptop's screen
            combo.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            combo.setMinimumWidth(70)
        # what happened, or why it was refused, stays in view under the column's boxes
        left_column = QWidget()
        lc = QVBoxLayout(left_column)
        lc.setContentsMargins(0, 0, 0, 0)
        lc.addWidget(scroll, 1)
        lc.addWidget(self.message)
        left_column.setMinimumWidth(400)
        form_box = QWidget()
        fl = QVBoxLayout(form_box)
        fl.setContentsMargins(0, 0, 0, 0)
        fl.addWidget(self._queue_box())
        fl.addWidget(self.form, 1)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.brigades)
        report_box = QWidget()
        rl = QVBoxLayout(report_box)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(QLabel("The report so far"))
        rl.addWidget(self.report)
        right.addWidget(report_box)
        right.setSizes([360, 220])
        self.split = split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left_column)
        split.addWidget(form_box)
        split.addWidget(right)
        split.setSizes([410, 470, 480])
        # a wider screen gives each column its share: the activation a little, the form and
        # the brigades more
        for column, share in enumerate((2, 3, 3)):
            split.setStretchFactor(column, share)
        split.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)

    # ----- building -----------------------------------------------------------------------
    def _activation_box(self) -> QGroupBox:
        box = QGroupBox("Activation")
        self.turn_text = QLabel()
        self.turn_text.setWordWrap(True)
        self.chip = QComboBox()
        self.draw_button = _button("&Draw chip", self.draw, "Ctrl+D")
        self.commander = QLabel("No commander is moving: draw a chip")
        self.commander.setWordWrap(True)
        self.commander.setTextFormat(Qt.TextFormat.RichText)
        self.pips_typed = QLineEdit()
        self.pips_typed.setPlaceholderText("typed: the average die (2–5)")
        self.pips_typed.returnPressed.connect(self.roll_pips_typed)
        self.pips_button = _button("Roll &pips", self.roll_pips, "Ctrl+P (Enter: the typed roll)")
        self.pips_odds = QLabel()
        self.pips_odds.setWordWrap(True)
        self.end_turn_button = _button("&End turn", self.end_turn,
                                       "End the turn with chips still in the bag (Ctrl+Shift+E)")
        grid = QGridLayout(box)
        grid.addWidget(self.turn_text, 0, 0, 1, 3)
        grid.addWidget(QLabel("Chip"), 1, 0)
        grid.addWidget(self.chip, 1, 1)
        grid.addWidget(self.draw_button, 1, 2)
        grid.addWidget(self.commander, 2, 0, 1, 3)
        grid.addWidget(QLabel("Pips"), 3, 0)
        grid.addWidget(self.pips_typed, 3, 1)
        grid.addWidget(self.pips_button, 3, 2)
        grid.addWidget(self.pips_odds, 4, 0, 1, 3)
        grid.addWidget(self.end_turn_button, 5, 2)
        grid.setColumnStretch(1, 1)
        return box

    def _budget_box(self) -> QGroupBox:
        box = QGroupBox("Pip budget")
        self.budget_box = box
        self.budget_text = QLabel()
        self.spent = QListWidget()
        self.spent.setMaximumHeight(70)
        self.spend_what = QComboBox()
        costs = command_table("1813").costs
        for a in CorpsAction:
            self.spend_what.addItem(f"{a.value.replace('_', ' ')} ({costs[a]})", a.value)
        self.spend_brigade = QComboBox()
        self.spend_note = QLineEdit()
        self.spend_note.setPlaceholderText("for the report, e.g. Move forward, artillery unlimber")
        self.spend_note.returnPressed.connect(self.spend)
        self.spend_button = _button("Spend", self.spend)
        self.formation_brigade = QComboBox()
        self.formation_brigade.currentIndexChanged.connect(self._fill_formations)
        self.formation = QComboBox()
        self.formation_button = _button("Record", self.record_formation,
                                        "Record the brigade's new formation (pay its pips "
                                        "with Spend)")
        grid = QGridLayout(box)
        grid.addWidget(self.budget_text, 0, 0, 1, 3)
        grid.addWidget(self.spent, 1, 0, 1, 3)
        grid.addWidget(self.spend_what, 2, 0)
        grid.addWidget(self.spend_brigade, 2, 1)
        grid.addWidget(self.spend_button, 2, 2)
        grid.addWidget(self.spend_note, 3, 0, 1, 3)
        grid.addWidget(self.formation_brigade, 4, 0)
        grid.addWidget(self.formation, 4, 1)
        grid.addWidget(self.formation_button, 4, 2)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)
        return box

    def _cinc_box(self) -> QGroupBox:
        box = QGroupBox("Orders")
        self.cinc_box = box
        self.cinc_corps = QComboBox()
        self.cinc_order = QComboBox()
        for o in CorpsOrder:
            self.cinc_order.addItem(o.value)
        self.orders_button = _button("Change orders", self.change_orders,
                                     "The CinC pays by the corps commander's grade; a corps "
                                     "commander may only halt his own corps")
        self.give_button = _button("Give move", self.give_move,
                                   "The CinC gives his move: the corps commander takes every "
                                   "pip left")
        grid = QGridLayout(box)
        grid.addWidget(self.cinc_corps, 0, 0)
        grid.addWidget(self.cinc_order, 0, 1)
        grid.addWidget(self.orders_button, 0, 2)
        grid.addWidget(self.give_button, 1, 2)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)
        return box

    def _special_box(self) -> QGroupBox:
        box = QGroupBox("Special chip")
        self.special_box = box
        self.special_text = QLabel()
        self.special_text.setWordWrap(True)
        self.special_commander = QComboBox()
        self.special_use = _button("Takes his move", self.use_special)
        self.special_pass = _button("Pass", self.pass_special)
        grid = QGridLayout(box)
        grid.addWidget(self.special_text, 0, 0, 1, 3)
        grid.addWidget(self.special_commander, 1, 0)
        grid.addWidget(self.special_use, 1, 1)
        grid.addWidget(self.special_pass, 1, 2)
        grid.setColumnStretch(0, 1)
        return box

    def _queue_box(self) -> QGroupBox:
        box = QGroupBox("Tests the results call for")
        self.queue = QListWidget()
        self.queue.setMaximumHeight(66)
        self.queue.setWordWrap(True)
        self.queue.itemDoubleClicked.connect(lambda _i: self.open_selected())
        self.open_queued_button = _button("&Open form", self.open_selected,
                                          "Open the selected test (Ctrl+N: the next one due)")
        self.dismiss_reason = QLineEdit()
        self.dismiss_reason.setPlaceholderText("why the test is not owed (e.g. nobody within 4\")")
        self.dismiss_button = _button("Dismiss", self.dismiss)
        grid = QGridLayout(box)
        grid.setContentsMargins(4, 2, 4, 2)
        grid.addWidget(self.queue, 0, 0, 1, 3)
        grid.addWidget(self.dismiss_reason, 1, 0)
        grid.addWidget(self.dismiss_button, 1, 1)
        grid.addWidget(self.open_queued_button, 1, 2)
        grid.setColumnStretch(0, 1)
        return box

    def _new_test_box(self) -> QGroupBox:
        box = QGroupBox("A test of the umpire's choosing")
        self.new_test = QComboBox()
        for name, title in TEST_TITLES.items():
            self.new_test.addItem(title, name)
        self.new_test_button = _button("Open form", self.open_new_test)
        row = QHBoxLayout(box)
        row.addWidget(self.new_test, 1)
        row.addWidget(self.new_test_button)
        return box

    def _night_box(self) -> QGroupBox:
        box = QGroupBox("The result")
        self.night_box = box
        self.decision = QLabel()
        self.decision.setWordWrap(True)
        # every choice in sight, one click each: who holds the field, or whom the umpire names
        self.sides = QButtonGroup(box)
        self.side_buttons: dict[str, QRadioButton] = {}
        sides = QHBoxLayout()
        sides.addWidget(QLabel("Winner"))
        for side in ("French", "Allied", "draw"):
            button = QRadioButton(side)
            self.sides.addButton(button)
            self.side_buttons[side] = button
            sides.addWidget(button)
        sides.addStretch(1)
        self.side_buttons["French"].setChecked(True)
        self.reason = QLineEdit()
        self.reason.setPlaceholderText("what the table shows (e.g. the French hold the town)")
        self.holder_button = _button("Holds the field", self.record_holder,
                                     "At nightfall: the side holding the battle town or most "
                                     "of the nine squares")
        self.override_button = _button("Umpire decides", self.override,
                                       "The umpire's own decision, with his reason")
        grid = QGridLayout(box)
        grid.addWidget(self.decision, 0, 0, 1, 2)
        grid.addLayout(sides, 1, 0, 1, 2)
        grid.addWidget(self.reason, 2, 0, 1, 2)
        grid.addWidget(self.holder_button, 3, 0)
        grid.addWidget(self.override_button, 3, 1)
        return box

    def side(self) -> str:
        """The side chosen in The result: ``French``, ``Allied`` or ``draw``."""
        return next(s for s, b in self.side_buttons.items() if b.isChecked())

    def choose_side(self, side: str) -> None:
        """Choose ``French``, ``Allied`` or ``draw`` in The result."""
        self.side_buttons[side].setChecked(True)

    # ----- showing ------------------------------------------------------------------------
    def show_view(self, view: Any) -> None:
        """Show the battle as it stands now."""
        before = self.view
        self.view = view
        s, st = view.setup, view.state
        where = {Phase.SETUP: "before the first chip", Phase.PLAY: f"turn {st.turn} of {s.turns}",
                 Phase.NIGHT: "night has fallen", Phase.FINISHED: f"finished: {st.result}"}
        drawn = ", ".join(st.drawn) or "none"
        extra = "; the Poor chip waits for a Poor commander" if st.poor_pending else ""
        self.turn_text.setText(f"<b>{where.get(st.phase, st.phase)}</b>, move {st.move}; "
                               f"chips drawn this turn: {escape(drawn)}{extra}")
        playing = st.phase in (Phase.SETUP, Phase.PLAY)
        self.chip.clear()
        left = [c for c in s.chips if c.label not in st.drawn]
        # with the bag empty the next draw ends the turn and draws from the full bag
        ends = "" if left or st.phase != Phase.PLAY else f" (ends turn {st.turn})"
        self.chip.addItem(BATTLE_DRAWS + ends, None)
        for c in s.chips:
            if c.label not in st.drawn or not left:
                self.chip.addItem(c.label + (f" — {s.commander(c.commander).name}"
                                             if c.commander else ""), c.label)
        for w in (self.chip, self.draw_button, self.end_turn_button):
            w.setEnabled(playing)
        self._show_activation(view)
        self._show_queue(view)
        self._show_special(view)
        d = view.decision
        self.decision.setText(f"<b>{escape(d.result or 'undecided')}</b> — {escape(d.reason)}")
        self.holder_button.setEnabled(st.phase == Phase.NIGHT)
        self.brigades.show_view(view)
        self.report.show_lines(view.report)
        # the form follows the battle: the next queued test opens itself, pre-filled
        due = self._first_due(view)
        if due is not None and (self.form.request is None or self.form.request.queued
                                or before is None or len(before.state.queue) < len(st.queue)):
            self._open_queued(due)
        elif self.form.request is not None and self.form.request.queued and due is None:
            self.form.clear("The queue is clear: draw the next chip, or open a test")
        else:
            self.form.refresh(view)
        if st.phase == Phase.FINISHED:
            self.form.clear("The battle is finished")

    def _show_activation(self, view: Any) -> None:
        s, st = view.setup, view.state
        a = st.activation
        self.budget_box.setVisible(a is not None)
        self.cinc_box.setVisible(a is not None and a.pips is not None)
        if a is None:
            self.commander.setText("No commander is moving: draw a chip")
            self.pips_button.setEnabled(False)
            self.pips_typed.setEnabled(False)
            self.pips_odds.clear()
            return
        cm = s.commander(a.commander)
        corps = next((c for c in s.corps if c.commander == a.commander), None)
        rolled = a.pips is not None
        # Rule 1: a commander whose corps is on its blind rolls the blind pips
        blind = a.blind if rolled else on_blind(st, corps.key if corps else None)
        bonus = (spotting_table(s.ruleset).blind_pips_bonus if blind
                 else command_table(s.ruleset).pips_bonus)[cm.grade]
        role = "CinC" if cm.role is Role.CINC else (corps.key if corps else cm.role.value)
        orders = ""
        if corps is not None:
            now = st.corps[corps.key]
            orders = f"; orders <b>{now.orders.value}</b>" + (
                f" on {escape(now.objective)}" if now.objective else "")
        given = f" (move given by {escape(s.commander(a.given_by).name)})" if a.given_by else ""
        self.commander.setText(f"Chip {a.chip}: <b>{escape(cm.name)}</b>, {escape(role)}, "
                               f"{cm.grade.value} "
                               f"({bonus:+d}){orders}{given}")
        self.pips_button.setEnabled(not rolled)
        self.pips_typed.setEnabled(not rolled)
        if rolled:
            # the step's own line: Rule 1's blind pips while the corps was on its blind
            head, _, total = pips_text(s, a).rpartition("= ")
            self.pips_odds.setText(f"{escape(head)}= <b>{escape(total)}</b>")
        else:
            odds = pips_distribution(s, a.commander, st)
            self.pips_odds.setText("Chances: " + ", ".join(
                f"{n}: {chance_text(p)[0]}" for n, p in sorted(odds.items())))
        self.budget_text.setText(f"<b>{a.remaining} of {a.pips or 0} pips left</b>; step: "
                                 f"{a.stage}")
        self.spent.clear()
        for what, cost in a.spent:
            self.spent.addItem(f"✓ {what} — {cost} pip{'s' if cost != 1 else ''}")
        keys = st.corps[corps.key].brigades if corps else ()
        for combo in (self.spend_brigade, self.formation_brigade):
            current = combo.currentData()
            combo.blockSignals(True)
            combo.clear()
            if combo is self.spend_brigade:
                combo.addItem("(no brigade)", "")
            for k in keys:
                if not st.brigades[k].removed:
                    combo.addItem(label_of(s, k).replace(f" ({corps.key})", "") if corps
                                  else label_of(s, k), k)
            if current:
                combo.setCurrentIndex(max(0, combo.findData(current)))
            combo.blockSignals(False)
        self._fill_formations()
        self.cinc_corps.clear()
        for c in s.side_corps(cm.side):
            self.cinc_corps.addItem(c.key)
        self.give_button.setVisible(cm.role is Role.CINC)

    def _fill_formations(self) -> None:
        view = self.view
        key = self.formation_brigade.currentData()
        self.formation.clear()
        if view is None or not key:
            return
        arm = view.setup.brigade(key).arm
        for f in ARM_FORMATIONS[arm]:
            self.formation.addItem(f.value)
        now = view.state.brigades[key].formation
        if now is not None:
            self.formation.setCurrentText(now.value)

    def _show_queue(self, view: Any) -> None:
        s, st = view.setup, view.state
        self.queue.clear()
        for i, p in enumerate(st.queue, 1):
            who = label_of(s, p.who) if p.who in st.brigades else (p.who or "")
            self.queue.addItem(f"{i}. {p.test}" + (f" for {who}" if who else "")
                               + f" — {p.reason}")
        if st.queue:
            self.queue.setCurrentRow(0)
        for w in (self.open_queued_button, self.dismiss_button, self.dismiss_reason):
            w.setEnabled(bool(st.queue))

    def _show_special(self, view: Any) -> None:
        s, st = view.setup, view.state
        self.special_box.setVisible(bool(st.special))
        if not st.special:
            return
        self.special_text.setText(f"The {st.special} chip: name the commander who takes his "
                                  "move now, or pass")
        self.special_commander.clear()
        for c in s.commanders:
            if c.key not in st.moved:
                self.special_commander.addItem(c.name, c.key)

    @staticmethod
    def _first_due(view: Any) -> int | None:
        for i in range(1, len(view.state.queue) + 1):
            if queued_request(view, i) is not None:
                return i
        return None

    # ----- acting -------------------------------------------------------------------------
    def _do(self, action: str, typed: Any = None, **inputs: Any) -> Any:
        try:
            changes = self._act(action, typed, inputs)
        except CampaignError as exc:
            self.say(f"Refused: {exc}", error=True)
            return None
        self.say("\n".join(changes.lines or (changes.label,)))
        return changes

    def _take(self, action: str, typed: Any, inputs: dict[str, Any]) -> Any:
        return self._act(action, typed, inputs)

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
        self.form.clear_refusal()

    def _on_rolled(self, changes: Any) -> None:
        self.say("\n".join(changes.lines or (changes.label,)))

    def draw(self) -> Any:
        """Draw the next chip: the one picked (drawn from the real bag) or the battle's."""
        return self._unless_unspent("draw", chip=self.chip.currentData())

    def _unless_unspent(self, action: str, **inputs: Any) -> Any:
        """Draw or end the turn; when Rule 3 refuses because the commander moving leaves pips
        unrolled or unspent, ask the umpire whether nothing more serves his orders, and go on
        with his word (``confirm``) only on Yes."""
        try:
            changes = self._act(action, None, inputs)
        except PipsUnspent as exc:
            if not self._confirm_unspent(exc):
                self.say(f"Nothing done: {exc}", error=True)
                return None
            return self._do(action, confirm=True, **inputs)
        except CampaignError as exc:
            self.say(f"Refused: {exc}", error=True)
            return None
        self.say("\n".join(changes.lines or (changes.label,)))
        return changes

    def _confirm_unspent(self, refusal: PipsUnspent) -> bool:
        answer = QMessageBox.question(
            self, "Pips left unspent (Rule 3)",
            f"{refusal.commander} {refusal.left}. A commander must use all his pips to carry "
            "out his orders.\n\nDoes nothing more serve his orders this move? Yes ends his "
            "move with them unspent (the report says so); No goes back to spend them.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def roll_pips(self) -> Any:
        """Roll the commander's pips with the battle's dice (or the typed roll, if any)."""
        if self.pips_typed.text().strip():
            return self.roll_pips_typed()
        return self._do("pips")

    def roll_pips_typed(self) -> Any:
        """Roll the commander's pips with the typed average die."""
        try:
            typed = parse_roll(self.pips_typed.text())
        except BadRoll as exc:
            self.say(f"Refused: {exc}", error=True)
            return None
        if typed is None:
            self.say("Refused: type the average die rolled (2–5)", error=True)
            return None
        changes = self._do("pips", typed)
        if changes is not None:
            self.pips_typed.clear()
        return changes

    def spend(self) -> Any:
        """Tick off the chosen action of Rule 3 against the pips."""
        changes = self._do("spend", what=self.spend_what.currentData(),
                           brigade=self.spend_brigade.currentData() or "",
                           note=self.spend_note.text().strip())
        if changes is not None:
            self.spend_note.clear()
        return changes

    def record_formation(self) -> Any:
        """Record a brigade's new formation."""
        return self._do("formation", brigade=self.formation_brigade.currentData() or "",
                        formation=self.formation.currentText())

    def change_orders(self) -> Any:
        """The CinC changes a corps' orders (or a commander halts his own corps)."""
        return self._do("orders", corps=self.cinc_corps.currentText(),
                        order=self.cinc_order.currentText(), objective="", in_contact=True)

    def give_move(self) -> Any:
        """The CinC gives his move to the chosen corps."""
        return self._do("give", corps=self.cinc_corps.currentText(), in_contact=True)

    def use_special(self) -> Any:
        """The named commander takes his move on the special chip."""
        return self._do("special", commander=self.special_commander.currentData())

    def pass_special(self) -> Any:
        """Nobody takes the special chip."""
        return self._do("special", commander=None)

    def end_turn(self) -> Any:
        """End the turn with chips still in the bag."""
        return self._unless_unspent("end-turn")

    def dismiss(self) -> Any:
        """Drop the selected queued test, saying why it is not owed."""
        row = self.queue.currentRow()
        changes = self._do("dismiss", index=max(1, row + 1), reason=self.dismiss_reason.text())
        if changes is not None:
            self.dismiss_reason.clear()
        return changes

    def record_holder(self) -> Any:
        """At nightfall: who holds the battle town or most of the squares."""
        return self._do("holder", side=self.side(), reason=self.reason.text())

    def override(self) -> Any:
        """The umpire's own decision of the battle."""
        return self._do("override", side=self.side(), reason=self.reason.text())

    def open_selected(self) -> None:
        """Open the selected queued test's form."""
        row = self.queue.currentRow()
        if row >= 0:
            self._open_queued(row + 1)

    def open_next(self) -> None:
        """Open the next queued test that is due (the keyboard's "next")."""
        if self.view is None:
            return
        due = self._first_due(self.view)
        if due is None:
            self.say("No test is queued: draw the next chip (Ctrl+D)")
            return
        self._open_queued(due)

    def _open_queued(self, index: int) -> None:
        request = queued_request(self.view, index)
        if request is None:
            p = self.view.state.queue[index - 1]
            self.say(f"The queued {p.test} is settled on the table: dismiss it when done")
            return
        self.queue.setCurrentRow(index - 1)
        self.form.open(self.view, request)

    def open_new_test(self, test: str | None = None, who: str = "", target: str = "") -> None:
        """Open the form of a test the umpire chooses."""
        if self.view is None:
            return
        name = test or str(self.new_test.currentData())
        self.form.open(self.view, Request(name, who, target))
