"""A form per test of the battle: filled in from what the battle knows, asking only the table.

:class:`TestForm` shows one test (a new one the umpire chooses, or one the queue holds): what
the battle fills in (``fight_tests.prepare``'s ``known`` lines), the table facts it asks for
(range band, within 4 inches, flank, cover, supports …), and the exact odds of every outcome,
worked again by ``prepare`` whenever an input changes, before anything is rolled. "Roll" takes
the battle's own dice; "Roll typed" the umpire's physical roll, which the battle refuses when
the dice cannot show it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from html import escape
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from campaign1813.campaign.battle.core.refusal import NotNow
from campaign1813.campaign.battle.ruleset1813.fight import label_of, side_of
from campaign1813.campaign.battle.ruleset1813.fight_tests import QUEUED_TESTS, prepare
from campaign1813.campaign.battle.ruleset1813.rules.artillery import RangeBand, Target
from campaign1813.campaign.battle.ruleset1813.rules.combat import combat_rules
from campaign1813.campaign.battle.ruleset1813.rules.morale import morale_rules
from campaign1813.campaign.battle.ruleset1813.rules.opportunity import Reaction
from campaign1813.campaign.battle.ruleset1813.rules.skirmish import skirmish_rules
from campaign1813.campaign.battle.ruleset1813.rules.spotting import Cover
from campaign1813.campaign.battle.ruleset1813.rules.tables.quick import QuickCase
from campaign1813.campaign.battle.terms import Arm
from campaign1813.campaign.errors import CampaignError

# What each test is called at the table, and the rule it reads (the order of seed 000's
# sequence of play: spot, artillery fire, movement and charges, combats, then the triggered).
TEST_TITLES = {
    "spot": "Spot a blind (Rule 1)",
    "fire": "Artillery fire (Rule 7)",
    "bounce": "Bounce-through fire (Rule 7)",
    "charge": "Opportunity charge (Rule 6)",
    "react": "Reaction to a charge (Rule 6)",
    "quick": "Quick result (Rule 8)",
    "crest": "Crest test (Rule 8)",
    "combat": "Combat (Rules 9–15)",
    "firefight": "Infantry firefight (Rule 12)",
    "skirmish": "Skirmish (Rule 11)",
    "morale": "Morale test (Rule 17)",
    "rally": "Rally with 1 pip (Rules 17, 18)",
    "reaction": "Reaction to a rout (Rule 16)",
    "pursuit": "Pursuit (Rule 16)",
    "rally-pursuers": "Rally pursuing cavalry (Rule 16)",
}


REFUSED_STYLE = "color: #a00000"  # a refusal, in red, until the battle changes
# The most rows of odds shown at once (a longer table scrolls), so the roll stays in view.
ODDS_ROWS = 7

# The tests whose outcome the table gives without a roll.
NO_DICE = frozenset({"reaction", "quick"})


class BadRoll(CampaignError):
    """A typed roll that is not a number or a list of faces."""


def parse_roll(text: str) -> list[int | tuple[int, ...]] | None:
    """The umpire's typed rolls: ``8`` a total, ``5,3`` the faces, ``5,3; 4`` two rolls.

    >>> parse_roll("5,3; 4")
    [(5, 3), 4]
    >>> parse_roll("  ") is None
    True
    """
    out: list[int | tuple[int, ...]] = []
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        try:
            faces = [int(x) for x in part.replace(" ", ",").split(",") if x]
        except ValueError:
            raise BadRoll(f"typed roll '{part}': give a number, or the faces joined by commas "
                          "(several rolls: separate them with ;)") from None
        out.append(faces[0] if len(faces) == 1 else tuple(faces))
    return out or None


def chance_text(p: Fraction) -> tuple[str, str]:
    """A chance as the exact fraction and the percentage, as the command line prints them; an
    outcome the dice cannot give is "impossible", not "0/1".

    >>> chance_text(Fraction(25, 36)), chance_text(Fraction(0))
    (('25/36', '69.4 %'), ('impossible', '0 %'))
    """
    if p == 0:
        return "impossible", "0 %"
    return f"{p.numerator}/{p.denominator}", f"{float(p) * 100:.1f} %"


@dataclass(frozen=True)
class Ask:
    """One thing the form asks of the table: a yes/no, a choice, a number, brigades, facts."""

    key: str
    kind: str  # flag, choice, number, brigade, brigades, facts
    label: str
    choices: tuple[tuple[str, str], ...] = ()  # (value, label)
    tip: str = ""


def _enum(enum: Any, blank: str = "") -> tuple[tuple[str, str], ...]:
    out = ((("", blank),) if blank else ())
    return out + tuple((m.value, m.value.replace("_", " ")) for m in enum)


def _facts_of(names: Sequence[str], labels: Callable[[str], str]) -> tuple[tuple[str, str], ...]:
    return tuple((n, labels(n)) for n in names)


def asks(test: str, ruleset: str = "1813", rule: int | None = None) -> tuple[Ask, ...]:
    """What the table is asked for a test (everything else the battle fills in)."""
    morale = morale_rules(ruleset).modifiers
    morale_facts = _facts_of(morale.fact_names, morale.fact_label)
    band = Ask("band", "choice", "Range band", (("", "(from the inches)"),)
               + _enum(RangeBand))
    inches = Ask("inches", "number", "Distance (inches)")
    if test == "spot":
        return (inches, Ask("cover", "choice", "The blind is in", _enum(Cover)))
    if test in ("fire", "bounce"):
        return (band, inches,
                Ask("cover", "choice", "Target is", _enum(Target, "(its arm)"),
                    "buildings or woods when the target is in them"),
                Ask("behind", "brigade", "Behind the target", (("", "none"),)),
                Ask("friends-near", "flag", "Friends within 4\" of the target"),
                Ask("overhead", "flag", "Firing overhead"))
    if test in ("morale", "rally"):
        return (Ask("facts", "facts", "Table facts", morale_facts),)
    if test == "rally-pursuers":
        return (Ask("facts", "facts", "Table facts", morale_facts),
                Ask("no-commander", "flag", "No commander can reach them or pay", (),
                    "Rule 16: with no commander in base contact (or no pip) the rally fails "
                    "and the pursuers go back Shaken"))
    if test == "charge":
        return (Ask("flank", "flag", "Charge into flank or rear"),
                Ask("commander-within-4", "flag", "Commander within 4\""),
                Ask("commander-within-8", "flag", "Commander within 8\""),
                Ask("own-move", "flag", "In its own move (not at opportunity)"))
    if test == "react":
        return (Ask("reaction", "choice", "Reaction", _enum(Reaction)),
                Ask("beyond-half-move", "flag", "Charger from beyond half a move"),
                Ask("flank", "flag", "Charged in flank or rear"),
                Ask("general-within-4", "flag", "General within 4\""),
                Ask("may-evade", "flag", "May evade"),
                Ask("same-corps", "flag", "Interceptor of the same corps"),
                Ask("done-first", "flag", "Already reacted this move"),
                Ask("facts", "facts", "Morale facts (Rule 18)", morale_facts,
                    "Rule 18: cavalry Disordered, Shaken or routing counter charge or evade "
                    "only if they make morale (Rule 17's test, with these facts)"))
    if test == "quick":
        return (Ask("case", "choice", "What happened", _enum(QuickCase)),
                Ask("can-escape", "flag", "Has a way to escape"),
                Ask("over-half-move", "flag", "Contacted from over half a move"))
    if test == "crest":
        return (Ask("british", "flag", "British troops"),)
    # Rule 4: under Hold or Engage orders infantry fire, and cavalry charge, only at enemy
    # within reach; the distance is checked when the umpire gives it
    reach = Ask("inches", "number", "Distance to the enemy (inches)", (),
                "Rule 4: the distance to the enemy fired on or charged, where the orders "
                "limit it")
    if test in ("combat", "firefight"):
        rules = combat_rules(ruleset)
        number = 12 if test == "firefight" else rule
        names = sorted({n for r in rules.values() for n in r.factors.fact_names}) \
            if number is None or number not in rules else list(rules[number].factors.fact_names)
        labels = {n: n.replace("-", " ") for n in names}
        facts = _facts_of(names, labels.__getitem__)
        which: tuple[Ask, ...] = ()
        if test == "combat":
            which = (Ask("rule", "choice", "Rule", (("", "(from the arms)"),) + tuple(
                (str(n), f"{n}: {r.title}") for n, r in sorted(rules.items()) if n != 12)),)
        return which + (reach, Ask("facts", "facts", "Attacker's facts", facts),
                      Ask("enemy-facts", "facts", "Defender's facts", facts))
    if test == "skirmish":
        mods = skirmish_rules(ruleset).modifiers
        facts = _facts_of(mods.fact_names, mods.fact_label)
        return (reach, Ask("facts", "facts", "Skirmisher's facts", facts),
                Ask("enemy-facts", "facts", "Target's facts", facts),
                Ask("no-reply", "flag", "The target cannot reply"))
    if test == "reaction":
        return (Ask("near", "brigades", "Friends within 4\""),
                Ask("through", "brigades", "Friends routed through"))
    return ()


@dataclass(frozen=True)
class Request:
    """A test to fill in: its name, who takes it and against whom, and whether it is queued."""

    test: str
    who: str = ""
    target: str = ""
    index: int | None = None  # the queued test's number (1 first), or None for a new test
    options: dict[str, Any] = field(default_factory=dict)
    reason: str = ""

    @property
    def queued(self) -> bool:
        """Whether the form settles a test the queue holds (rolled with ``roll``)."""
        return self.index is not None


def queued_request(view: Any, index: int) -> Request | None:
    """The form for queued test ``index``, filled in as ``roll`` will fill it; None for a test
    settled on the table (dismiss it when done)."""
    state = view.state
    p = state.queue[index - 1]
    test = QUEUED_TESTS.get(p.test)
    if test is None:
        return None
    who, target, options = p.who, "", {}
    if test == "reaction":
        who = p.cause
    elif test == "pursuit":
        target = p.cause
    elif test == "bounce":
        who, target = p.cause, p.who
        band = next((f.split("=", 1)[1] for f in p.facts if f.startswith("band=")), "")
        options = {"band": band} if band else {}
    elif test == "combat" and p.cause:
        who, target = p.cause, p.who
    return Request(test, who, target, index, options, p.reason)


def who_choices(view: Any, test: str) -> list[tuple[str, str]]:
    """Who may take a test, as (key, name): batteries fire, cavalry charge, brigades test; the
    brigades of the commander who is moving first, then the rest of his side, so that the form
    offers his own battery during his move, not the enemy's."""
    setup, state = view.setup, view.state
    keys = [k for k, now in state.brigades.items() if not now.removed]
    moving = state.activation.commander if state.activation is not None else None
    if moving is not None:
        side = side_of(setup, moving)
        own = {c.key for c in setup.corps if c.commander == moving}
        keys.sort(key=lambda k: (side_of(setup, k) != side, setup.brigade(k).corps not in own))
    arm = {"fire": Arm.ARTILLERY, "bounce": Arm.ARTILLERY, "charge": Arm.CAVALRY,
           "pursuit": Arm.CAVALRY, "rally-pursuers": Arm.CAVALRY}.get(test)
    if arm is not None:
        keys = [k for k in keys if setup.brigade(k).arm is arm]
    if test == "spot":
        out = [(c.key, f"{c.key}'s blind") for c in setup.corps if state.corps[c.key].brigades]
        return out + [(k, label_of(setup, k)) for k in keys]
    return [(k, label_of(setup, k)) for k in keys]


def target_choices(view: Any, test: str, who: str) -> list[tuple[str, str]]:
    """Whom a test is taken against: the enemy's brigades, or the blinds not yet spotted."""
    setup, state = view.setup, view.state
    if test == "spot":
        mine = side_of(setup, who) if who else None
        return [(c.key, f"{c.key}'s blind") for c in setup.corps
                if not state.corps[c.key].spotted and c.side != mine]
    if test in ("morale", "rally", "rally-pursuers", "crest", "reaction", "react"):
        return []
    mine = side_of(setup, who) if who else None
    return [(k, label_of(setup, k)) for k, now in state.brigades.items()
            if not now.removed and side_of(setup, k) != mine]


def needs_target(test: str) -> bool:
    """Whether the test names a target (or the one it is taken against)."""
    return test not in ("morale", "rally", "rally-pursuers", "crest", "reaction", "react")


class TestForm(QWidget):
    """One test: what the battle knows, what the table is asked, the exact odds, and Roll."""

    rolled = Signal(object)  # the Changes of the step the roll took

    def __init__(self, take: Callable[[str, Any, dict[str, Any]], Any],
                 parent: QWidget | None = None):
        super().__init__(parent)
        self._take = take
        self.view: Any = None
        self.request: Request | None = None
        self._inputs: dict[str, Any] = {}
        self.title = QLabel("No test open: choose one, or open a queued test")
        self.title.setWordWrap(True)
        self.title.setStyleSheet("font-weight: bold")
        self.who = QComboBox()
        self.target = QComboBox()
        self.who.currentIndexChanged.connect(self._on_who)
        self.target.currentIndexChanged.connect(self._update_odds)
        self.known = QLabel()
        self.known.setWordWrap(True)
        self.known.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.asks_box = QGroupBox("The table shows")
        box_layout = QVBoxLayout(self.asks_box)
        box_layout.setContentsMargins(6, 2, 6, 2)
        box_layout.setSpacing(2)
        self.asks_layout = QFormLayout()
        self.asks_layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.asks_layout.setVerticalSpacing(3)
        self.flags_layout = QGridLayout()
        self.flags_layout.setVerticalSpacing(1)
        box_layout.addLayout(self.asks_layout)
        box_layout.addLayout(self.flags_layout)
        self.odds = QTableWidget(0, 3)
        self.odds.setHorizontalHeaderLabels(["Outcome", "Chance", "%"])
        self.odds.verticalHeader().hide()
        self.odds.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        header = self.odds.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        # a wider or narrower column wraps the outcomes again: the rows follow
        header.sectionResized.connect(lambda *_a: QTimer.singleShot(0, self, self._fit_odds))
        self.odds_note = QLabel()
        self.odds_note.setWordWrap(True)
        self.odds_note.setTextFormat(Qt.TextFormat.PlainText)
        self.typed = QLineEdit()
        self.typed.setPlaceholderText("the physical roll: 8, or faces 5,3; several: 5,3; 4")
        self.typed.returnPressed.connect(self.roll_typed)
        self.roll_button = QPushButton("&Roll (battle's dice)")
        self.roll_button.setToolTip("Ctrl+R")
        self.roll_button.clicked.connect(self.roll)
        self.typed_button = QPushButton("Roll &typed")
        self.typed_button.setToolTip("Enter in the roll field")
        self.typed_button.clicked.connect(self.roll_typed)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.picks = picks = QFormLayout()
        picks.addRow("Who", self.who)
        picks.addRow("Against", self.target)
        roll_row = QHBoxLayout()
        roll_row.addWidget(self.typed, 1)
        roll_row.addWidget(self.typed_button)
        roll_row.addWidget(self.roll_button)
        # what the test is and what the table shows scroll; the odds, why the test cannot be
        # taken, the roll and its refusal stay under them, in view on a laptop's screen
        upper = QWidget()
        ul = QVBoxLayout(upper)
        ul.setContentsMargins(0, 0, 0, 0)
        ul.addWidget(self.title)
        ul.addLayout(picks)
        ul.addWidget(self.known)
        ul.addWidget(self.asks_box)
        ul.addStretch(1)
        self.inputs_scroll = QScrollArea()
        self.inputs_scroll.setWidgetResizable(True)
        self.inputs_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.inputs_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.inputs_scroll.setWidget(upper)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.inputs_scroll, 1)
        for label in (self.odds_note, self.message):
            # as tall as their words, and no taller: the inputs above take the room
            label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
            label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        layout.addWidget(QLabel("Odds of each outcome, before the roll:"))
        layout.addWidget(self.odds)
        layout.addWidget(self.odds_note)
        layout.addLayout(roll_row)
        layout.addWidget(self.message)
        self._enable(False)

    # ----- opening ------------------------------------------------------------------------
    def open(self, view: Any, request: Request) -> None:
        """Fill the form for a test of the battle as it stands in ``view``."""
        self.view, self.request = view, request
        self.message.clear()
        self.typed.clear()
        title = TEST_TITLES.get(request.test, request.test)
        if request.queued:
            title = f"Queued {request.index}: {title}" + (
                f" — {request.reason}" if request.reason else "")
        self.title.setText(title)
        self._fill_who()
        self._build_asks()
        for key, value in request.options.items():
            self._set_input(key, value)
        self._enable(True)
        # a test the table settles rolls nothing: it is applied, not rolled
        rolls = request.test not in NO_DICE
        self.roll_button.setText("&Roll (battle's dice)" if rolls else "&Apply")
        self.typed.setVisible(rolls)
        self.typed_button.setVisible(rolls)
        self._update_odds()

    def refresh(self, view: Any) -> None:
        """The battle moved on: keep the form's inputs, work its odds again."""
        self.view = view
        if self.request is not None:
            self._update_odds()

    def clear(self, text: str = "No test open: choose one, or open a queued test") -> None:
        """Show no test."""
        self.request = None
        self.title.setText(text)
        self.known.clear()
        self.odds.setRowCount(0)
        self.odds_note.clear()
        self.who.clear()
        self.target.clear()
        self._clear_asks()
        self._enable(False)

    def _enable(self, on: bool) -> None:
        for w in (self.roll_button, self.typed_button, self.typed, self.who, self.target):
            w.setEnabled(on)

    def _rollable(self, on: bool) -> None:
        """Offer Roll only for a test the battle would take now."""
        for w in (self.roll_button, self.typed_button):
            w.setEnabled(on)

    def _fill_who(self) -> None:
        r, view = self.request, self.view
        assert r is not None
        fixed = r.queued
        for combo in (self.who, self.target):
            combo.blockSignals(True)
            combo.clear()
        choices = who_choices(view, r.test)
        if r.who and r.who not in {k for k, _ in choices}:
            choices.insert(0, (r.who, _name(view, r.who)))
        for key, name in choices:
            self.who.addItem(name, key)
        if r.who:
            self.who.setCurrentIndex(max(0, self.who.findData(r.who)))
        self.who.setEnabled(not fixed)
        self.who.blockSignals(False)
        self.target.blockSignals(False)
        self._fill_target()

    def _fill_target(self) -> None:
        r = self.request
        assert r is not None
        self.target.blockSignals(True)
        self.target.clear()
        if needs_target(r.test):
            choices = target_choices(self.view, r.test, self.who_key())
            if r.test == "pursuit":
                choices.insert(0, ("", "(the routers it caused)"))
            if r.target and r.target not in {k for k, _ in choices}:
                choices.insert(0, (r.target, _name(self.view, r.target)))
            for key, name in choices:
                self.target.addItem(name, key)
            if r.target:
                self.target.setCurrentIndex(max(0, self.target.findData(r.target)))
        # a queued combat without its charger names the other brigade here
        fixed = r.queued and not (r.test == "combat" and not r.target)
        self.target.setEnabled(needs_target(r.test) and not fixed)
        self.picks.setRowVisible(self.target, needs_target(r.test))
        self.target.blockSignals(False)

    def _on_who(self) -> None:
        if self.request is not None:
            self._fill_target()
            self._update_odds()

    def who_key(self) -> str:
        """The key of who takes the test."""
        return str(self.who.currentData() or "")

    def target_key(self) -> str:
        """The key of the target."""
        return str(self.target.currentData() or "") if self.target.count() else ""

    # ----- the table's facts --------------------------------------------------------------
    def _clear_asks(self) -> None:
        while self.asks_layout.rowCount():
            self.asks_layout.removeRow(0)
        while self.flags_layout.count():
            item = self.flags_layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self._inputs = {}

    def _build_asks(self) -> None:
        r = self.request
        assert r is not None
        self._clear_asks()
        ruleset = self.view.setup.ruleset
        for ask in asks(r.test, ruleset):
            widget = self._ask_widget(ask)
            if ask.tip:
                widget.setToolTip(ask.tip)
            self._inputs[ask.key] = (ask, widget)
            if ask.kind == "flag":
                # yes/no facts two to a row, so the odds stay in view on a laptop
                n = self.flags_layout.count()
                self.flags_layout.addWidget(widget, n // 2, n % 2)
            else:
                self.asks_layout.addRow(ask.label, widget)
        if not self._inputs:
            self.asks_layout.addRow(QLabel("nothing: the battle knows all it needs"))
        self.asks_box.setVisible(True)

    def _ask_widget(self, ask: Ask) -> QWidget:
        if ask.kind == "flag":
            box = QCheckBox(ask.label)
            box.toggled.connect(self._update_odds)
            return box
        if ask.kind in ("choice", "brigade"):
            combo = QComboBox()
            for value, label in ask.choices:
                combo.addItem(label, value)
            if ask.kind == "brigade":
                for key, name in self._friends_of_target():
                    combo.addItem(name, key)
            combo.currentIndexChanged.connect(self._update_odds)
            return combo
        if ask.kind == "number":
            edit = QLineEdit()
            edit.setPlaceholderText("inches")
            edit.textChanged.connect(self._update_odds)
            return edit
        items = QListWidget()
        pairs = ask.choices if ask.kind == "facts" else tuple(self._friends_of_who())
        for value, label in pairs:
            item = QListWidgetItem(label)
            item.setData(Qt.ItemDataRole.UserRole, value)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            items.addItem(item)
        row = items.sizeHintForRow(0) if pairs else 18
        # its own height, scrolled within rather than squeezed by a short column
        items.setFixedHeight(min(120, row * max(1, len(pairs)) + 2 * items.frameWidth() + 4))
        items.itemChanged.connect(self._update_odds)
        return items

    def _friends_of_who(self) -> list[tuple[str, str]]:
        """For a rout: the routers' friends still on the table."""
        view, who = self.view, self.who_key()
        if not who or who not in view.state.brigades:
            return []
        side = side_of(view.setup, who)
        return [(k, label_of(view.setup, k)) for k, now in view.state.brigades.items()
                if k != who and not now.removed and side_of(view.setup, k) == side]

    def _friends_of_target(self) -> list[tuple[str, str]]:
        view, aim = self.view, self.target_key()
        if not aim or aim not in view.state.brigades:
            return []
        side = side_of(view.setup, aim)
        return [(k, label_of(view.setup, k)) for k, now in view.state.brigades.items()
                if k != aim and not now.removed and side_of(view.setup, k) == side]

    def set_input(self, key: str, value: Any) -> None:
        """Set what the table shows for one ask (for the keyboard and for tests)."""
        self._set_input(key, value)
        self._update_odds()

    def _set_input(self, key: str, value: Any) -> None:
        if key not in self._inputs:
            return
        ask, widget = self._inputs[key]
        if isinstance(widget, QCheckBox):
            widget.setChecked(bool(value))
        elif isinstance(widget, QComboBox):
            widget.setCurrentIndex(max(0, widget.findData(str(value))))
        elif isinstance(widget, QLineEdit):
            widget.setText(str(value))
        elif isinstance(widget, QListWidget):
            wanted = set(value.split(",") if isinstance(value, str) else value)
            for i in range(widget.count()):
                item = widget.item(i)
                on = item.data(Qt.ItemDataRole.UserRole) in wanted
                item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def options(self) -> dict[str, Any]:
        """The table's facts as the battle takes them (the command line's options)."""
        out: dict[str, Any] = {}
        for key, (ask, widget) in self._inputs.items():
            if isinstance(widget, QCheckBox):
                if widget.isChecked():
                    out[key] = True
            elif isinstance(widget, QComboBox):
                value = widget.currentData()
                if value:
                    out[key] = str(value)
            elif isinstance(widget, QLineEdit):
                if widget.text().strip():
                    out[key] = widget.text().strip()
            elif isinstance(widget, QListWidget):
                chosen = [str(widget.item(i).data(Qt.ItemDataRole.UserRole))
                          for i in range(widget.count())
                          if widget.item(i).checkState() == Qt.CheckState.Checked]
                if chosen:
                    out[key] = ",".join(chosen) if ask.kind == "brigades" else chosen
        return out

    # ----- odds ---------------------------------------------------------------------------
    def odds_rows(self) -> list[tuple[str, Fraction]]:
        """The exact odds the form shows now (empty while the test cannot be taken)."""
        r = self.request
        if r is None or self.view is None:
            return []
        p = prepare(self.view.setup, self.view.state, r.test, self.who_key(), self.target_key(),
                    self.options())
        return list(p.odds)

    def _update_odds(self, *_args: object) -> None:
        r = self.request
        if r is None or self.view is None:
            return
        try:
            p = prepare(self.view.setup, self.view.state, r.test, self.who_key(),
                        self.target_key(), self.options())
        except NotNow as exc:
            # a test out of the activation's order (or before the pips, or in a missed move):
            # the engine refuses its odds as it would its roll, and the form says why
            self._no_odds(f"Not now: {exc}")
            return
        except CampaignError as exc:
            self._no_odds(f"Not yet: {exc}")
            return
        self.known.setText("<br>".join(_escape(x) for x in p.known))
        self.odds.setRowCount(len(p.odds))
        for row, (outcome, chance) in enumerate(p.odds):
            fraction, percent = chance_text(chance)
            for col, text in enumerate((outcome, fraction, percent)):
                item = QTableWidgetItem(text)
                if col:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                self.odds.setItem(row, col, item)
        self._fit_odds()
        pays = f"; pays {p.pays.value.replace('_', ' ')}" if p.pays else ""
        self.odds_note.setText(f"{p.rule}{pays}")
        self.odds_note.setStyleSheet("")
        self._rollable(True)

    def _fit_odds(self) -> None:
        """Rows as tall as their outcome's words; the table as tall as its rows (a long one, a
        rout's many reactions, scrolls within its first ODDS_ROWS)."""
        self.odds.resizeRowsToContents()
        rows = sum(self.odds.rowHeight(i) for i in range(min(ODDS_ROWS, self.odds.rowCount())))
        self.odds.setFixedHeight(rows + self.odds.horizontalHeader().height() + 4)

    def _no_odds(self, reason: str) -> None:
        """No odds while the engine refuses the test; the reason instead."""
        self.known.setText("")
        self.odds.setRowCount(0)
        self._not_now(reason)

    def _not_now(self, reason: str) -> None:
        """Say why the test cannot be taken now, and take Roll away until it can."""
        self.odds_note.setText(reason)
        self.odds_note.setStyleSheet("color: #8a5a00")
        self._rollable(False)

    # ----- rolling ------------------------------------------------------------------------
    def roll(self) -> bool:
        """Roll with the battle's own (seeded) dice."""
        return self._roll(None)

    def roll_typed(self) -> bool:
        """Roll with the umpire's typed physical roll."""
        try:
            typed = parse_roll(self.typed.text())
        except BadRoll as exc:
            self._refused(str(exc))
            return False
        if typed is None:
            self._refused("type the roll first (e.g. 8, or the faces 5,3)")
            return False
        return self._roll(typed)

    def _roll(self, typed: Any) -> bool:
        r = self.request
        if r is None:
            return False
        options = self.options()
        if r.queued:
            if r.test == "combat" and not r.target:
                options["target"] = self.target_key()
            inputs: dict[str, Any] = {"index": r.index, "options": options}
            action = "roll"
        else:
            inputs = {"test": r.test, "who": self.who_key(), "target": self.target_key(),
                      "options": options}
            action = "test"
        try:
            changes = self._take(action, typed, inputs)
        except CampaignError as exc:
            self._refused(str(exc))
            return False
        self.message.setStyleSheet("")
        self.message.setText(_escape("\n".join(changes.lines or (changes.label,))))
        self.rolled.emit(changes)
        return True

    def _refused(self, reason: str) -> None:
        self.message.setStyleSheet(REFUSED_STYLE)
        self.message.setText(f"Refused: {_escape(reason)}")

    def clear_refusal(self) -> None:
        """The battle changed (a step, an undo): a refusal shown before no longer stands."""
        if self.message.styleSheet() == REFUSED_STYLE:
            self.message.clear()
            self.message.setStyleSheet("")


def _name(view: Any, key: str) -> str:
    if key in view.state.brigades:
        return str(label_of(view.setup, key))
    if key in view.state.corps:
        return f"{key}'s blind"
    return key


def _escape(text: str) -> str:
    return escape(text, quote=False).replace("\n", "<br>")
