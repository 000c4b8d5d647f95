"""Typed, validated views of the tables of Rules 1-8 (spotting, command, orders, movement,
opportunity charges, artillery fire, quick results).

Each view is read once per ruleset and checked entry by entry: a missing or wrong entry raises
:class:`RulesetError` naming the file, the entry and the reason, so a house-ruled number that
cannot work is caught when the ruleset is opened, not in the middle of a battle.

Each table set lives in a module of its own (:mod:`.spotting`, :mod:`.command`, :mod:`.orders`,
:mod:`.movement`, :mod:`.opportunity`, :mod:`.fire`, :mod:`.quick`, sharing :mod:`.base`). This
package names them all, but imports a module only when one of its names is first asked for, so
``odds artillery`` builds the fire table's classes and no others:

>>> from campaign1813.campaign.battle.ruleset1813.rules.tables import fire_table
>>> fire_table("1813").source
'1813/fire.toml'
>>> from campaign1813.campaign.battle.ruleset1813.rules import tables
>>> sorted(tables.__all__) == sorted(tables._MODULE_OF)
True
>>> tables.no_such_table  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
AttributeError: module '...ruleset1813.rules.tables' has no attribute 'no_such_table'
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from campaign1813.campaign.battle.ruleset1813.rules.tables.base import (
        Entries,
        ModifierEntry,
        table_source,
    )
    from campaign1813.campaign.battle.ruleset1813.rules.tables.command import (
        CommandTable,
        CorpsAction,
        command_table,
    )
    from campaign1813.campaign.battle.ruleset1813.rules.tables.fire import (
        FIRE_MODIFIERS,
        FireTable,
        RangeBand,
        Target,
        fire_table,
    )
    from campaign1813.campaign.battle.ruleset1813.rules.tables.movement import (
        MovementTable,
        Mover,
        movement_table,
    )
    from campaign1813.campaign.battle.ruleset1813.rules.tables.opportunity import (
        CHARGE_MODIFIERS,
        CHARGE_TARGETS,
        REACTION_MODIFIERS,
        OpportunityTable,
        Reaction,
        ReactionRules,
        opportunity_table,
    )
    from campaign1813.campaign.battle.ruleset1813.rules.tables.orders import (
        ADVANCE_DUTIES,
        CHARGE_LICENCES,
        INFANTRY_CHARGE,
        OrderRules,
        OrdersTable,
        orders_table,
    )
    from campaign1813.campaign.battle.ruleset1813.rules.tables.quick import (
        CREST_MODIFIERS,
        ESCAPE_FACTS,
        CaseRules,
        CrestTest,
        QuickCase,
        QuickTable,
        quick_table,
    )
    from campaign1813.campaign.battle.ruleset1813.rules.tables.spotting import (
        Cover,
        SpotBand,
        SpottingTable,
        spotting_table,
    )

# module → the names it defines that this package offers
_NAMES: dict[str, tuple[str, ...]] = {
    "base": ("Entries", "ModifierEntry", "table_source"),
    "spotting": ("Cover", "SpotBand", "SpottingTable", "spotting_table"),
    "command": ("CorpsAction", "CommandTable", "command_table"),
    "orders": ("ADVANCE_DUTIES", "CHARGE_LICENCES", "INFANTRY_CHARGE", "OrderRules",
               "OrdersTable", "orders_table"),
    "movement": ("Mover", "MovementTable", "movement_table"),
    "opportunity": ("Reaction", "CHARGE_TARGETS", "CHARGE_MODIFIERS", "REACTION_MODIFIERS",
                    "ReactionRules", "OpportunityTable", "opportunity_table"),
    "fire": ("RangeBand", "Target", "FIRE_MODIFIERS", "FireTable", "fire_table"),
    "quick": ("QuickCase", "ESCAPE_FACTS", "CREST_MODIFIERS", "CaseRules", "CrestTest",
              "QuickTable", "quick_table"),
}
_MODULE_OF = {name: module for module, names in _NAMES.items() for name in names}

__all__ = [
    "ADVANCE_DUTIES", "CHARGE_LICENCES", "CHARGE_MODIFIERS", "CHARGE_TARGETS", "CREST_MODIFIERS",
    "ESCAPE_FACTS", "FIRE_MODIFIERS", "INFANTRY_CHARGE", "REACTION_MODIFIERS",
    "CaseRules", "CommandTable", "CorpsAction", "Cover", "CrestTest", "Entries", "FireTable",
    "ModifierEntry", "MovementTable", "Mover", "OpportunityTable", "OrderRules", "OrdersTable",
    "QuickCase", "QuickTable", "RangeBand", "Reaction", "ReactionRules", "SpotBand",
    "SpottingTable", "Target",
    "command_table", "fire_table", "movement_table", "opportunity_table", "orders_table",
    "quick_table", "spotting_table", "table_source",
]


if not TYPE_CHECKING:   # mypy reads the imports above instead, so a misspelt name is an error

    def __getattr__(name: str) -> Any:
        """A name of one of the table modules, imported on first use (PEP 562)."""
        module = _MODULE_OF.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(import_module(f"{__name__}.{module}"), name)
        globals()[name] = value   # asked once: later lookups do not come back here
        return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
