"""Order entry beside the commands' table: command, order, objective, waypoints, forced march.

The panel collects what the umpire typed, or what he chose on the map (its ``order_wanted``),
and gives it as any action is run (:class:`~campaign1813.ui.operation.Operation`): the
campaign service's answer is shown here (a refusal in red, word for word, and on the map at the
objective; ``refused`` tells the window) — the panel never judges an order itself. It reads the
commands from the open campaign, and after an action looks again only at the commands named.

The objective completes town names as the umpire types: the name itself first, then names that
begin with what he typed, then names that contain it, each group in alphabetical order; case,
umlauts and accents do not matter either way (``Kopenick``, ``Koepenick`` and ``Köpenick`` all
find Köpenick), folded as the campaign folds the names it is given. A command that must retreat
today is offered only its roads of retreat. The waypoints complete the same way, each name
after the last comma (or semicolon, or arrow) on its own.

As soon as the objective (and every waypoint) names a town, the pad shows what the order would
do — its miles, days of march and arrival, or the campaign's reason for refusing it, in red —
from the campaign's own route preview (``queries.route_preview``), before the order is given.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

import msgspec
from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QStringListModel, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from campaign1813.campaign import queries
from campaign1813.campaign.day.changes import Changes
from campaign1813.campaign.day.state import Status, Verb
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.queries import CommandView, RoutePreview
from campaign1813.maps.names import fold, folded
from campaign1813.ui.map.view import CampaignView
from campaign1813.ui.open_campaign import OpenCampaign, Update
from campaign1813.ui.operation import Operation, day_service, issue_order
from campaign1813.ui.supply_orders import SupplyOrders, SupplyRequest, ask_attrition

if TYPE_CHECKING:
    from campaign1813.campaign.day.actions import IssueOrder

REFUSED_STYLE = "color: #b00020;"
DONE_STYLE = "color: #1b5e20;"
NOTE_STYLE = "color: #8a5a00;"
PREVIEW_STYLE = "color: #1a3a6b;"

# command, order, objective, waypoints, forced march -> what the order would do
Preview = Callable[[str, str, str, tuple[str, ...], bool], RoutePreview]
SEPARATORS = (",", ";", "→", "->")


def split_waypoints(text: str) -> tuple[str, ...]:
    """Waypoints typed as a list: commas, semicolons or arrows between town names."""
    for mark in SEPARATORS[1:]:
        text = text.replace(mark, ",")
    return tuple(part.strip() for part in text.split(",") if part.strip())


def last_waypoint(text: str) -> tuple[str, str]:
    """What comes before the waypoint being typed, and that waypoint.

    >>> last_waypoint("Brunswick, Helm")
    ('Brunswick, ', 'Helm')
    >>> last_waypoint("Celle → Bru"), last_waypoint("Celle")
    (('Celle → ', 'Bru'), ('', 'Celle'))
    """
    cut = max(text.rfind(mark) + len(mark) if mark in text else 0 for mark in SEPARATORS)
    typed = text[cut:]
    head = text[:cut] + typed[:len(typed) - len(typed.lstrip())]
    return head, typed.strip()


class TownName(msgspec.Struct, frozen=True):
    """A name the pad offers, with the folded forms of the spellings it is found by."""

    name: str
    forms: tuple[str, ...]
    key: str = ""  # the name folded, for the alphabetical order within a rank

    @classmethod
    def of(cls, name: str, spellings: Iterable[str] = ()) -> TownName:
        """A name found by itself and by the other spellings given (a town's aliases)."""
        forms = tuple(dict.fromkeys(
            form for spelling in (name, *spellings) for form in folded(spelling)))
        return cls(name, forms, forms[0])


EXACT, BEGINS, CONTAINS = 0, 1, 2


def _closeness(typed: tuple[str, ...], forms: tuple[str, ...]) -> int | None:
    """How well a name's forms match the folded forms of what was typed, or None."""
    if any(t == f for t in typed for f in forms):
        return EXACT
    if any(f.startswith(t) for t in typed for f in forms):
        return BEGINS
    if any(t in f for t in typed for f in forms):
        return CONTAINS
    return None


def completions(text: str, names: Iterable[TownName]) -> list[str]:
    """The names matching what was typed: exact, then beginning with it, then containing it.

    >>> towns = [TownName.of(t) for t in ("Altenburg", "Burgos", "Burg", "Köpenick")]
    >>> completions("burg", towns)
    ['Burg', 'Burgos', 'Altenburg']
    >>> completions("Koepen", towns), completions("kopen", towns)
    (['Köpenick'], ['Köpenick'])
    """
    typed = folded(text)
    if typed == ("",):  # nothing typed: every name begins with it, in alphabetical order
        return [t.name for t in sorted(names, key=lambda t: (t.key or fold(t.name), t.name))]
    ranked = []
    for town in names:
        rank = _closeness(typed, town.forms)
        if rank is not None:
            ranked.append((rank, town.key or fold(town.name), town.name))
    return [name for _, _, name in sorted(ranked)]


class TownCompleter(QCompleter):
    """Completes town names by :func:`completions`: its list is re-ordered as the text changes
    and shown whole, the best match first (Enter in the list takes it)."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.names: tuple[TownName, ...] = ()
        self._list = QStringListModel(self)
        self.setModel(self._list)
        self.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        self.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)

    def set_names(self, names: Sequence[TownName]) -> None:
        """The names it may offer, offered all until something is typed."""
        self.names = tuple(names)
        self.setCompletionPrefix("")

    def offered(self) -> list[str]:
        """The names offered now, in their order."""
        return self._list.stringList()

    def splitPath(self, path: str) -> list[str]:  # noqa: N802 (Qt override)
        # Qt calls this with every new completion prefix: order the list for it, and match
        # the list's first row (the empty path matches any) so that it is the current one
        self._list.setStringList(completions(path, self.names))
        return [""]


class WaypointCompleter(TownCompleter):
    """Completes the last of the waypoints typed as a list, ranked as the objective is; the
    chosen name replaces only that last one."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._head = ""

    def splitPath(self, path: str) -> list[str]:  # noqa: N802 (Qt override)
        self._head, typed = last_waypoint(path)
        return super().splitPath(typed)

    def pathFromIndex(self, index: QModelIndex | QPersistentModelIndex) -> str:  # noqa: N802
        return self._head + super().pathFromIndex(index)


class OrdersPanel(QWidget):
    """The umpire's order pad for the commands of the theatre shown."""

    order_requested = Signal(object)  # an IssueOrder the umpire asked for, before it is given
    refused = Signal(str)  # an order or its cancelling was refused: the reason, shown here

    def __init__(self, campaign: OpenCampaign, view: CampaignView,
                 preview: Preview | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.campaign = campaign
        self._view = view
        self._preview = preview or self._read_preview
        self.preview: RoutePreview | None = None  # what the order on the pad would do
        self._filling = False  # a file opened or a theatre chosen: no order is being typed
        self._town_forms: frozenset[str] = frozenset()
        self._towns: tuple[object, list[TownName]] | None = None  # by scenario, made once
        self.command = QComboBox()
        self.command.setObjectName("orderCommand")
        self.verb = QComboBox()
        for verb in Verb:
            self.verb.addItem(verb.value)
        self.objective = QComboBox()
        self.objective.setEditable(True)
        self.objective.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        line = self.objective.lineEdit()
        assert line is not None  # an editable combo box has one
        line.setPlaceholderText("the objective town")
        self.towns = TownCompleter(self.objective)
        self.objective.setCompleter(self.towns)
        self.via = QLineEdit()
        self.via.setPlaceholderText("optional waypoints, e.g. Brunswick, Helmstedt")
        self.waypoints = WaypointCompleter(self.via)
        self.via.setCompleter(self.waypoints)
        self.forced = QCheckBox("Forced march")
        self.give_button = QPushButton("&Give Order")
        self.give_button.setDefault(True)
        self.cancel_button = QPushButton("&Cancel Order")
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message.setObjectName("orderMessage")
        self.route = QLabel()
        self.route.setWordWrap(True)
        self.route.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.route.setObjectName("routePreview")

        form = QFormLayout()
        form.addRow("Command:", self.command)
        order = QHBoxLayout()
        order.addWidget(self.verb, 1)
        order.addWidget(self.forced)
        form.addRow("Order:", order)
        form.addRow("Objective:", self.objective)
        form.addRow("Via:", self.via)
        form.addRow("March:", self.route)
        # two lines kept for the preview, so the pad does not jump as the umpire types
        self.route.setMinimumHeight(2 * self.route.fontMetrics().lineSpacing())
        self.route.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        buttons = QHBoxLayout()
        buttons.addWidget(self.give_button)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(buttons)
        # the CinC's supply orders, shown while the campaign keeps supply
        self.supply = SupplyOrders(campaign)
        layout.addWidget(self.supply)
        layout.addWidget(self.message, 1)

        self.give_button.clicked.connect(self._on_give)
        self.cancel_button.clicked.connect(self._on_cancel)
        self.command.currentTextChanged.connect(self._on_command)
        self.verb.currentTextChanged.connect(self._on_entry)
        self.objective.editTextChanged.connect(self._on_entry)
        self.via.textChanged.connect(self._on_entry)
        self.forced.toggled.connect(self._on_entry)
        view.shown.connect(self._on_shown)
        view.order_wanted.connect(self._on_order_wanted)
        view.supply_wanted.connect(self.supply_here)
        self.supply.given.connect(self.show_done)
        self.supply.refused.connect(self._on_supply_refused)
        campaign.changed.connect(self._on_changed)
        view.table.itemDoubleClicked.connect(self._on_double_clicked)
        view.table.currentItemChanged.connect(self._on_table_selection)
        self._on_shown()

    # ----- what the umpire asks for ------------------------------------------------------
    def request(self) -> IssueOrder:
        """The order as entered now, as the campaign's own command."""
        return issue_order(self.command.currentText(), self.verb.currentText(),
                           self.objective.currentText().strip(),
                           split_waypoints(self.via.text()), self.forced.isChecked())

    def give(self, request: IssueOrder) -> Changes | None:
        """Give an order; what it did, or the reason it was refused, is shown here (a refusal
        also on the map, at the objective)."""
        return (Operation(self.campaign, day_service("perform", request))
                .success(self._on_given)
                .failure(lambda exc: self._on_order_refused(request, exc)).run())

    def order_here(self, command: str, verb: str, town: str) -> Changes | None:
        """An order chosen on the map (a town's Move / Attack / Hold here): put on the pad and
        given from it."""
        self.select_command(command)
        self.verb.setCurrentText(verb)
        self.objective.setEditText(town)
        return self.give(issue_order(command, verb, town))

    def supply_here(self, request: SupplyRequest) -> Changes | None:
        """A supply order chosen on the map: given at once when complete, else put on the pad
        for the umpire to finish; an attrition choice asks for the brigade."""
        if request.kind == "attrition":
            ask_attrition(self.campaign, self, only=request.corps)
            return None
        self.supply.put(request)
        if not request.ready:
            self.message.setStyleSheet(NOTE_STYLE)
            self.message.setText("Finish the supply order on the pad, then Give Supply.")
            return None
        return self.supply.give(request)

    def _on_supply_refused(self, reason: str) -> None:
        self.show_refusal(reason)
        self.refused.emit(reason)

    def cancel(self, command: str) -> Changes | None:
        """Withdraw a command's orders."""
        return (Operation(self.campaign, day_service("cancel_order", command))
                .success(lambda changes: self.show_done(" ".join(changes.lines)))
                .failure(self._on_refused).run())

    def select_command(self, name: str) -> None:
        """Put a command on the pad (if it is among those shown)."""
        index = self.command.findText(name)
        if index >= 0:
            self.command.setCurrentIndex(index)

    # ----- what the campaign answered ----------------------------------------------------
    def show_refusal(self, reason: str) -> None:
        """Show the campaign's reason for refusing, word for word, in red."""
        self.message.setStyleSheet(REFUSED_STYLE)
        self.message.setText(reason)

    def show_done(self, text: str) -> None:
        """Show what the order did."""
        self.message.setStyleSheet(DONE_STYLE)
        self.message.setText(text)

    def clear_entry(self) -> None:
        """Ready the pad for the next order: waypoints and forced march are per order, and so
        is the march previewed for them (the order given is told in the message)."""
        self._filling = True
        try:
            self.via.clear()
            self.forced.setChecked(False)
        finally:
            self._filling = False
        self.preview = None
        self.route.clear()
        self.route.setToolTip("")

    def show_preview(self) -> None:
        """Show what the order on the pad would do, once its objective and waypoints name
        towns: miles, days and arrival, or the reason it would be refused, in red."""
        if self._filling:
            return
        request = self.request()
        named = request.command and self._names_a_town(request.objective) and all(
            self._names_a_town(v) for v in request.via)
        if not named or self.campaign.document is None:
            self.preview = None
            self.route.clear()
            return
        preview = self._preview(request.command, request.verb, request.objective,
                                request.via, request.forced)
        self.preview = preview
        if preview.refusal is not None:
            self.route.setStyleSheet(REFUSED_STYLE)
            self.route.setText(preview.refusal)
            self.route.setToolTip("")
            return
        self.route.setStyleSheet(PREVIEW_STYLE)
        self.route.setText(preview.text)
        self.route.setToolTip(" → ".join(preview.towns))

    def _read_preview(self, command: str, verb: str, objective: str, via: tuple[str, ...],
                      forced: bool) -> RoutePreview:
        doc = self.campaign.document
        assert doc is not None  # asked only with a campaign open
        return queries.route_preview(doc, command, verb, objective, via, forced)

    def _names_a_town(self, text: str) -> bool:
        """Whether the text is a town's name or one of its other names (any case, accents)."""
        return any(form in self._town_forms for form in folded(text)) if text else False

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        # Enter anywhere on the pad gives the order; the line edits pass the key up to here
        # (connecting their returnPressed would fire twice for the editable combo)
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.accept()
            self._on_give()
            return
        super().keyPressEvent(event)

    # ----- slots --------------------------------------------------------------------------
    def _on_give(self) -> None:
        request = self.request()
        if not request.command:
            self.show_refusal("Choose a command first.")
            return
        if not request.objective:
            self.show_refusal(f"Name the objective town for {request.command}.")
            return
        self.order_requested.emit(request)
        self.give(request)

    def _on_order_wanted(self, command: str, verb: str, town: str) -> None:
        self.order_here(command, verb, town)

    def _on_given(self, changes: Changes) -> None:
        self._view.clear_preview()
        self.show_done(" ".join(changes.lines) or changes.label)
        self.clear_entry()

    def _on_refused(self, exc: CampaignError) -> None:
        self.show_refusal(str(exc))
        self.refused.emit(str(exc))

    def _on_order_refused(self, request: IssueOrder, exc: CampaignError) -> None:
        self._on_refused(exc)
        self._view.show_refusal(request.objective, str(exc))

    def _on_entry(self) -> None:
        """The order on the pad was changed: a refusal of the one before no longer stands."""
        if self.message.styleSheet() == REFUSED_STYLE:
            self.message.clear()
        self.show_preview()

    def _on_cancel(self) -> None:
        name = self.command.currentText()
        if name:
            self.cancel(name)

    def _on_shown(self) -> None:
        """A file opened or another theatre chosen: list its commands and the towns again.

        No preview is worked out until the umpire works on the pad: opening a campaign does
        not wait for the route planner."""
        self._filling = True
        try:
            self._show_commands()
        finally:
            self._filling = False
        self.preview = None
        self.route.clear()

    def _show_commands(self) -> None:
        keep = self.command.currentText()
        self._fill_commands()
        if keep:
            self.select_command(keep)
        self._fill_waypoints()
        self._fill_towns()
        # another command on the pad (another theatre shown): its order starts afresh, from
        # where it stands, not with the objective and waypoints typed for the one before
        other = self.command.currentText() != keep
        if other:
            self.via.clear()
            self.forced.setChecked(False)
        self._describe(self.command.currentText(),
                       from_where_it_stands=other or not self.objective.currentText())
        enabled = self.campaign.status is not None
        for widget in (self.command, self.verb, self.objective, self.via, self.forced,
                       self.give_button, self.cancel_button):
            widget.setEnabled(enabled)

    def _on_changed(self, update: Update) -> None:
        """After an action (or an undo): a refusal shown on the pad no longer stands; a command
        that surrendered leaves the pad; the command on the pad is described again if its read
        model changed."""
        if self.message.styleSheet() == REFUSED_STYLE:
            self.message.clear()
            self.message.setStyleSheet("")
        if update.battles:
            keep = self.command.currentText()
            if self._fill_commands() and keep:
                self.select_command(keep)
        name = self.command.currentText()
        mine = any(c.name == name for c in update.commands)
        if mine:
            self._fill_towns()
            self._describe(name, from_where_it_stands=False)
        if mine or update.heading:  # where it stands, or the day, changed: so may its march
            self.show_preview()

    def _fill_commands(self) -> bool:
        """List the commands of the theatre still in the field; whether the list changed."""
        names = [c.name for c in self._view.commands_shown() if c.status is not Status.SURRENDERED]
        if names == [self.command.itemText(i) for i in range(self.command.count())]:
            return False
        self.command.blockSignals(True)
        self.command.clear()
        self.command.addItems(names)
        self.command.blockSignals(False)
        return True

    def _every_town(self) -> list[TownName]:
        """Every town of the map, and each of its other names, found by its own spelling."""
        scenario = self.campaign.scenario
        if scenario is None:
            return []
        if self._towns is None or self._towns[0] is not scenario:
            names = {n for town in scenario.map.towns for n in (town.name, *town.aliases)}
            found = sorted((TownName.of(n) for n in names), key=lambda t: (t.key, t.name))
            self._towns = (scenario, found)
        return self._towns[1]

    def _objectives(self) -> list[TownName]:
        """The towns the command on the pad may be sent to: its roads of retreat when it must
        retreat today (found by their other names too), else every town."""
        c = self._find(self.command.currentText())
        scenario = self.campaign.scenario
        if c is None or not c.retreats or scenario is None:
            return self._every_town()
        aliases = {town.name: town.aliases for town in scenario.map.towns}
        return [TownName.of(t, aliases.get(t, ())) for t in c.retreats]

    def _fill_towns(self) -> None:
        """Put the command's objectives in the list and the completer, keeping what is typed."""
        names = self._objectives()
        if tuple(names) == self.towns.names:
            return
        typed = self.objective.currentText()
        self.objective.clear()
        self.objective.addItems([n.name for n in names])
        self.towns.set_names(names)
        self.objective.setEditText(typed)

    def _fill_waypoints(self) -> None:
        """Waypoints may be any town of the map."""
        names = self._every_town()
        if tuple(names) != self.waypoints.names:
            self.waypoints.set_names(names)
            self._town_forms = frozenset(f for n in names for f in n.forms)

    def _on_command(self, name: str) -> None:
        """A new command on the pad starts from where it stands, offered its objectives."""
        self._fill_towns()
        self._describe(name, from_where_it_stands=True)
        self.show_preview()

    def _find(self, name: str) -> CommandView | None:
        status = self.campaign.status
        if status is None or not name:
            return None
        try:
            return status.command(name)
        except KeyError:
            return None

    def _describe(self, name: str, from_where_it_stands: bool) -> None:
        """Say why the campaign may refuse the command's orders today, before he tries; a
        beaten command is offered its roads of retreat, its only lawful order."""
        c = self._find(name)
        if c is None:
            return
        if self._view.selected_command() != name:
            self._view.select_command(name)
        note = c.reason or ""
        if c.retreats:
            note += f": it may retreat to {' or '.join(c.retreats)}"
            if from_where_it_stands or self.objective.currentText() not in c.retreats:
                self.verb.setCurrentText(Verb.MOVE.value)
                self.objective.setEditText(c.retreats[0])
        elif from_where_it_stands:
            self.objective.setEditText(c.position.a)
        self.message.setStyleSheet(NOTE_STYLE)
        self.message.setText(note)

    def _on_double_clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        if item.parent() is None:
            return
        self.select_command(item.text(0))
        self.objective.setFocus()
        line = self.objective.lineEdit()
        if line is not None:
            line.selectAll()

    def _on_table_selection(self, item: QTreeWidgetItem | None,
                            _previous: QTreeWidgetItem | None) -> None:
        if item is not None and item.parent() is not None:
            self.select_command(item.text(0))
