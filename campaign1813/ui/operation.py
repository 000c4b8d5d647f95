"""One way to run an umpire action from the window, after Anki's ``CollectionOp``
(``qt/aqt/operations/__init__.py``)::

    Operation(campaign, lambda doc: services.end_day(doc)).success(show_report).run()

The action is one campaign service called on the open file. What it returns, the ``Changes``,
goes to :meth:`OpenCampaign.apply`, the one place that re-reads what they name and tells every
view (the map, the table, the pad, the Battle menu, Undo and Redo); then the success handler
runs. A refusal — a ``CampaignError``: an illegal order, a battle not yet fought, a campaign busy
in another window or program — has changed nothing; it goes to the failure handler, or, with
none, to the open campaign's ``refused`` signal, on which the main window tells the umpire
(status line and message box). An error that is not a refusal is raised as it is.

Where the refusal is shown by the widget that asked — a battle page's form, a dialog's red
line — the caller uses :meth:`Operation.perform`, which raises it to that widget instead.

The services bring the day's rules (its actions, movement, aftermath), which the window shows
an open campaign without (``tests/test_app_start.py``) and ``ui/app.py`` loads behind the shown
window. The main window, its order pad and Undo reach them through :func:`day_service` and
:func:`issue_order` alone, which import them when first called; the dialogs and the battle
window, loaded when opened, import the services at their top.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from campaign1813.campaign.day.changes import Changes
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.store.protocol import CampaignStore
from campaign1813.ui.open_campaign import OpenCampaign

if TYPE_CHECKING:
    from campaign1813.campaign.day.actions import IssueOrder

Service = Callable[[CampaignStore], Changes]


def day_service(name: str, *args: object, **kwargs: object) -> Service:
    """The campaign service ``name`` (``end_day``, ``perform``, ``undo``…) called on the open
    file with these arguments, as an :class:`Operation` runs it."""

    def call(doc: CampaignStore) -> Changes:
        from campaign1813.campaign import services  # the day's rules: with the first action

        service: Callable[..., Changes] = getattr(services, name)
        return service(doc, *args, **kwargs)

    return call


def issue_order(command: str, verb: str, objective: str, via: tuple[str, ...] = (),
                forced: bool = False) -> IssueOrder:
    """An order as the campaign's own command, to give with ``day_service("perform", …)``."""
    from campaign1813.campaign.day.actions import IssueOrder  # the day's rules, as above

    return IssueOrder(command, verb, objective, via, forced)


class Operation:
    """One service call on the open campaign, its changes shown everywhere, its refusal told."""

    def __init__(self, campaign: OpenCampaign, op: Service):
        self._campaign = campaign
        self._op = op
        self._on_success: Callable[[Changes], object] | None = None
        self._on_failure: Callable[[CampaignError], object] | None = None

    def success(self, on_success: Callable[[Changes], object]) -> Operation:
        """Call this with the action's changes, once every view has shown them."""
        self._on_success = on_success
        return self

    def failure(self, on_failure: Callable[[CampaignError], object]) -> Operation:
        """Call this with the refusal, instead of telling the umpire through the window."""
        self._on_failure = on_failure
        return self

    def perform(self) -> Changes:
        """Run the action and apply its changes; a refusal is raised to the caller, and the
        success handler is not called."""
        doc = self._campaign.document
        if doc is None:
            raise CampaignError("no campaign is open")
        changes = self._op(doc)
        self._campaign.apply(changes)
        return changes

    def run(self) -> Changes | None:
        """Run the action: its changes, then the success handler; or, refused, the failure
        handler (or the open campaign's ``refused``) and None."""
        try:
            changes = self.perform()
        except CampaignError as exc:
            if self._on_failure is not None:
                self._on_failure(exc)
            else:
                self._campaign.refused.emit(str(exc))
            return None
        if self._on_success is not None:
            self._on_success(changes)
        return changes
