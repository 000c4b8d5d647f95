"""What an umpire action changed, so that a view refreshes just that."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:  # a Changes is read without the day's rules that made its report
    from campaign1813.campaign.day.cycle import DayReport


class Changes(msgspec.Struct, frozen=True):
    """The action's label and diary lines, and the commands, battles and towns it touched."""

    label: str
    lines: tuple[str, ...] = ()
    commands: frozenset[str] = frozenset()
    battles: frozenset[int] = frozenset()
    towns: frozenset[str] = frozenset()
    date_changed: bool = False
    report: DayReport | None = None
    positions: frozenset[str] = frozenset()
    marched_changed: bool = False
    fights: frozenset[int] = frozenset()
    # a step of a battle on the table: ``lines`` are what the step says at the table (its
    # battle's report), not the diary's, so the day's report leaves them to the battle window
    battle_step: bool = False
    reports: frozenset[int] = frozenset()  # the reports of the enemy made, changed or undone
    supply: bool = False  # a stock, depot, column or supply order changed (or supply switched)

    @property
    def anything(self) -> bool:
        """Whether the action changed any part of the day's state."""
        return bool(self.commands or self.battles or self.towns or self.date_changed
                    or self.marched_changed or self.fights or self.reports)
