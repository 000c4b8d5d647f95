"""Rule 4 (and the revision's defence zone): the validated orders table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from campaign1813.campaign.battle.ruleset1813.rules.tables.base import Entries
from campaign1813.campaign.battle.terms import CorpsOrder

# The words an order's duties and licences are given in.
ADVANCE_DUTIES = ("all", "one", "none")
CHARGE_LICENCES = ("never", "within", "any", "must")
INFANTRY_CHARGE = ("never", "may", "must")


@dataclass(frozen=True)
class OrderRules:
    """What one corps order allows and obliges (Rule 4)."""

    order: CorpsOrder
    must_advance: str
    may_approach: bool
    closest_open: Fraction | None
    closest_difficult: Fraction | None
    cavalry_charge: str
    cavalry_charge_inches: Fraction | None
    infantry_fire: str
    infantry_fire_inches: Fraction | None
    infantry_charge: str
    may_retire: bool
    beyond_objective: bool
    must_attack: bool
    counter_attack_if_forced_back: bool


@dataclass(frozen=True)
class OrdersTable:
    """Rule 4: the rules of every corps order, and the defence zone (revised Rule 5)."""

    source: str
    orders: Mapping[CorpsOrder, OrderRules]
    defence_zone_inches: Fraction
    defence_zone_enter_on: frozenset[CorpsOrder]


@cache
def orders_table(ruleset: str) -> OrdersTable:
    """The validated orders table of a ruleset."""
    e = Entries.of(ruleset, "orders.toml")
    parts = e.enum_keys("orders", CorpsOrder)
    missing = [o.value for o in CorpsOrder if o not in parts]
    if missing:
        raise e.fail("orders", f"has no rules for {', '.join(missing)}")
    orders = {}
    for order, p in parts.items():
        cav = p.text("cavalry_charge", CHARGE_LICENCES)
        inf = p.text("infantry_fire", CHARGE_LICENCES[:3])
        orders[order] = OrderRules(
            order=order,
            must_advance=p.text("must_advance", ADVANCE_DUTIES),
            may_approach=p.boolean("may_approach"),
            closest_open=p.inches("closest_open") if p.has("closest_open") else None,
            closest_difficult=(p.inches("closest_difficult") if p.has("closest_difficult")
                               else None),
            cavalry_charge=cav,
            cavalry_charge_inches=(p.inches("cavalry_charge_inches") if cav == "within"
                                   else None),
            infantry_fire=inf,
            infantry_fire_inches=(p.inches("infantry_fire_inches") if inf == "within" else None),
            infantry_charge=p.text("infantry_charge", INFANTRY_CHARGE),
            may_retire=p.boolean("may_retire"),
            beyond_objective=p.boolean("beyond_objective"),
            must_attack=p.boolean("must_attack", default=False),
            counter_attack_if_forced_back=p.boolean("counter_attack_if_forced_back",
                                                    default=False),
        )
    zone = e.section("defence_zone")
    enter_on = zone.words("enter_on", tuple(o.value for o in CorpsOrder))
    return OrdersTable(e.label, orders, zone.inches("inches"),
                       frozenset(CorpsOrder(o) for o in enter_on))
