"""The state of the supply rule as values: the days each corps carries, the depots, the columns
on the road, the day's supply orders, the men lost out of supply and the last day's ledger.

Kept apart from the rule's procedures (``day/supply.py``) so that the day's state can hold it.
"""

# no ``from __future__ import annotations`` here: msgspec reads these classes' annotations when
# a campaign is opened

from datetime import date
from typing import Annotated, Literal

import msgspec

# a stock of days' supplies, and men lost: never negative, and no army holds thousands of days
Days = Annotated[int, msgspec.Meta(ge=0, le=10_000)]
Men = Annotated[int, msgspec.Meta(ge=0, le=10_000_000)]


class Depot(msgspec.Struct, frozen=True):
    """A depot of an army group at a town, with its stock and (2016) its garrison brigade."""

    town: str
    army: str
    days: Days
    main: bool = False
    garrison: int | None = None  # the brigade's number
    garrison_corps: str | None = None
    since: date | None = None


class Column(msgspec.Struct, frozen=True):
    """Supplies of an army group on their way, waiting at a town that has no depot of theirs."""

    town: str
    army: str
    days: Days


class SupplyOrder(msgspec.Struct, frozen=True):
    """A CinC's supply order for one day: resupply a corps from a depot, move days of supplies
    from one town to another, or make a depot at a town (2016: with a named brigade)."""

    kind: Literal["resupply", "move", "depot"]
    army: str
    day: date
    corps: str | None = None
    origin: str | None = None
    town: str | None = None
    days: int = 0
    brigade: int | None = None

    def text(self) -> str:
        """The order as the CinC writes it: ``resupply 5 Corps from Magdeburg``."""
        if self.kind == "resupply":
            return f"resupply {self.corps} from {self.origin}"
        if self.kind == "move":
            return f"move {self.days} days from {self.origin} to {self.town}"
        who = f" with {self.brigade} Brigade" if self.brigade is not None else \
            f" with {self.corps}"
        return f"establish a depot at {self.town}{who}"


class LedgerEntry(msgspec.Struct, frozen=True):
    """One change of one holder's stock: the day, the holder, the amount, what it left, why."""

    day: date
    holder: str
    amount: int
    balance: int
    reason: str
    army: str = ""  # the army group whose stock it is

    def text(self) -> str:
        """``2 May 1813: 5 Corps +3 (drew from Magdeburg), now 4``."""
        return f"{self.holder} {self.amount:+d} ({self.reason}), now {self.balance}"


class SupplyState(msgspec.Struct):
    """Every army group's supplies: the days each corps carries, the depots, the columns on the
    way, the day's supply orders, and the men each brigade lost out of supply."""

    version: Literal["2016", "2020"]
    corps: dict[str, Days]
    depots: dict[str, Depot]
    columns: dict[str, Column] = msgspec.field(default_factory=dict)  # by "army|town"
    orders: list[SupplyOrder] = msgspec.field(default_factory=list)
    men_lost: dict[str, dict[int, Men]] = msgspec.field(default_factory=dict)
    # corps out of supply whose 400 men still wait for the umpire's brigade
    pending: dict[str, Men] = msgspec.field(default_factory=dict)
    # what the last day's supply changed, entry by entry (the log keeps every day's)
    ledger: tuple[LedgerEntry, ...] = ()

    def garrisons(self, corps: str) -> frozenset[int]:
        """The brigades of a corps left as its army's depots' garrisons (the 2016 rule): they
        stay in their towns, and do not march or fight with the corps."""
        return frozenset(d.garrison for d in self.depots.values()
                         if d.garrison_corps == corps and d.garrison is not None)
