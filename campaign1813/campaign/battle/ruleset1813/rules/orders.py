"""Rule 4: what a corps' orders allow its brigades to do, and what they oblige them to do.

The umpire asks "may this brigade do that?" with a :class:`BrigadeIntent`; the answer is a
:class:`Verdict` that says whether it is allowed, whether the orders oblige it, and why. The
revision adds a defence zone in front of every brigade (its Rule 5), also checked here because
entering it depends on the intruder's orders.

Opportunity charges (Rule 6) are open to formed cavalry whatever their orders, so they are not
an intent here.

>>> advance = BrigadeIntent("17 Brigade", Arm.INFANTRY, Intent.ADVANCE)
>>> order_allows(CorpsOrder.HALT, advance, "1813").reason
'17 Brigade (Halt orders) may not move closer to the enemy'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from campaign1813.campaign.battle.ruleset1813.rules.command import Role
from campaign1813.campaign.battle.ruleset1813.rules.common import Verdict
from campaign1813.campaign.battle.ruleset1813.rules.tables.orders import OrderRules, orders_table
from campaign1813.campaign.battle.terms import Arm, CorpsOrder, FollowOn, FollowOnTest, MoraleState
from campaign1813.campaign.words import with_article

__all__ = ["Intent", "BrigadeIntent", "order_rules", "order_allows", "duties",
           "may_change_orders", "enter_defence_zone"]


class Intent(StrEnum):
    """What a brigade means to do."""

    ADVANCE = "advance"                    # move towards the objective or the enemy
    RETIRE = "retire"                      # move away from the enemy
    CAVALRY_CHARGE = "cavalry charge"      # a charge in its own corps' move
    INFANTRY_CHARGE = "infantry charge"
    INFANTRY_FIRE = "fire or skirmish"
    ARTILLERY_FIRE = "artillery fire"


_ARM_OF = {Intent.CAVALRY_CHARGE: Arm.CAVALRY, Intent.INFANTRY_CHARGE: Arm.INFANTRY,
           Intent.INFANTRY_FIRE: Arm.INFANTRY, Intent.ARTILLERY_FIRE: Arm.ARTILLERY}


@dataclass(frozen=True)
class BrigadeIntent:
    """A brigade's intended action and the facts the table gives about it.

    ``enemy_inches`` is the distance to the nearest enemy after an advance, or to the target of
    a charge or fire. ``difficult`` means that enemy is in a built-up area or difficult terrain.
    """

    brigade: str
    arm: Arm
    intent: Intent
    enemy_inches: Fraction | float | None = None
    difficult: bool = False
    beyond_objective: bool = False
    recce: bool = False
    target_arm: Arm | None = None
    state: MoraleState = MoraleState.FORMED


def order_rules(order: CorpsOrder, ruleset: str) -> OrderRules:
    """The table's rules for one order."""
    return orders_table(ruleset).orders[order]


def _within(inches: Fraction | float | None, limit: Fraction | None) -> bool:
    return inches is not None and limit is not None and inches <= limit


def order_allows(order: CorpsOrder, intent: BrigadeIntent, ruleset: str) -> Verdict:
    """Whether ``order`` lets the brigade do what it intends, and whether it must."""
    rules = order_rules(order, ruleset)
    who = f"{intent.brigade} ({order.value} orders)"
    needed_arm = _ARM_OF.get(intent.intent)
    if needed_arm is not None and intent.arm is not needed_arm:
        return Verdict(False, f"{intent.brigade} is {intent.arm.value}; only "
                              f"{needed_arm.value} can make {with_article(intent.intent.value)}")
    if intent.intent is Intent.ADVANCE:
        return _advance(rules, intent, who)
    if intent.intent is Intent.RETIRE:
        if rules.may_retire:
            return Verdict(True, f"{who} may fall back")
        return Verdict(False, f"{who} may not fall back"
                       + (": all brigades must move towards the objective"
                          if rules.must_advance == "all" else ""))
    if intent.intent is Intent.ARTILLERY_FIRE:
        return Verdict(True, f"{who}: artillery may fire under any orders")
    if intent.intent is Intent.INFANTRY_FIRE:
        return _licence(rules.infantry_fire, rules.infantry_fire_inches, intent, who, "fire")
    if intent.intent is Intent.CAVALRY_CHARGE:
        verdict = _licence(rules.cavalry_charge, rules.cavalry_charge_inches, intent, who,
                           "charge")
        return _obliged(verdict, rules.cavalry_charge == "must", intent, who)
    # An infantry charge.
    if rules.infantry_charge == "never":
        return Verdict(False, f"{who} may not charge")
    verdict = Verdict(True, f"{who} may charge")
    must = rules.infantry_charge == "must" and intent.target_arm in (Arm.INFANTRY, Arm.ARTILLERY)
    return _obliged(verdict, must, intent, who)


def _advance(rules: OrderRules, intent: BrigadeIntent, who: str) -> Verdict:
    if not rules.may_approach:
        return Verdict(False, f"{who} may not move closer to the enemy")
    if intent.beyond_objective and not rules.beyond_objective and not (
            intent.arm is Arm.CAVALRY and intent.recce):
        return Verdict(False, f"{who} may not advance beyond the far edge of the objective "
                              f"(only cavalry going forward to reconnoitre)")
    limit = rules.closest_difficult if intent.difficult else rules.closest_open
    if limit is not None and intent.enemy_inches is not None and intent.enemy_inches < limit:
        where = "in a built-up area or difficult terrain" if intent.difficult else "in the open"
        return Verdict(False, f"{who} may not end closer than {limit} inches to an enemy "
                              f"{where} ({intent.enemy_inches} inches)")
    if rules.must_advance == "all":
        return Verdict(True, f"{who}: every brigade must move towards the objective", True)
    return Verdict(True, f"{who} may advance")


def _licence(licence: str, inches: Fraction | None, intent: BrigadeIntent, who: str,
             verb: str) -> Verdict:
    if licence == "never":
        extra = " (cavalry may still opportunity charge)" if verb == "charge" else ""
        return Verdict(False, f"{who} may not {verb}{extra}")
    if licence == "within" and not _within(intent.enemy_inches, inches):
        return Verdict(False, f"{who} may {verb} only at enemy within {inches} inches "
                              f"(this one is {intent.enemy_inches} inches away)")
    return Verdict(True, f"{who} may {verb}")


def _obliged(verdict: Verdict, must: bool, intent: BrigadeIntent, who: str) -> Verdict:
    if not verdict.allowed or not must:
        return verdict
    if intent.state is not MoraleState.FORMED:
        return Verdict(True, f"{who}: {intent.state.value} brigades need not attack")
    return Verdict(True, f"{who} must attack the enemy in reach", True)


def duties(order: CorpsOrder, ruleset: str) -> tuple[str, ...]:
    """What an order obliges the corps to do, in words for the umpire."""
    rules = order_rules(order, ruleset)
    result = []
    if rules.must_advance == "all":
        result.append("every brigade must move towards the objective")
    elif rules.must_advance == "one":
        result.append("at least one brigade must move towards the objective")
    if rules.must_attack:
        result.append("at least one brigade must attack if it can")
    if rules.cavalry_charge == "must":
        result.append("cavalry must charge any enemy in reach")
    if rules.infantry_charge == "must":
        result.append("infantry must charge infantry or artillery in reach")
    if rules.counter_attack_if_forced_back:
        result.append("must counter attack if forced to fall back")
    if not rules.may_approach:
        result.append("may not move closer to the enemy")
    if not rules.beyond_objective:
        result.append("may not advance beyond the far edge of the objective")
    return tuple(result)


def may_change_orders(role: Role, new_order: CorpsOrder, ruleset: str) -> Verdict:
    """Whether a commander of this role may change a corps' orders to ``new_order`` (Rule 4)."""
    orders_table(ruleset)   # the ruleset must have orders at all
    if role is Role.CINC:
        return Verdict(True, "the CinC may give any orders")
    if new_order is CorpsOrder.HALT:
        return Verdict(True, f"a {role.value} may change his own orders to Halt")
    return Verdict(False, f"only the CinC may change orders to {new_order.value}; a "
                          f"{role.value} may only change to Halt")


def enter_defence_zone(intruder: str, order: CorpsOrder, zone_of: str, passing_through: bool,
                       ruleset: str) -> tuple[Verdict, tuple[FollowOn, ...]]:
    """Whether an enemy may enter the zone in front of ``zone_of`` (revised Rule 5).

    Passing through to attack another brigade is allowed to attacking or engaging troops, who
    take fire from the brigade whose zone they cross.
    """
    table = orders_table(ruleset)
    if table.defence_zone_inches <= 0:
        return Verdict(True, "this ruleset has no defence zone"), ()
    if order not in table.defence_zone_enter_on:
        allowed = " or ".join(sorted(o.value for o in table.defence_zone_enter_on))
        return Verdict(False, f"{intruder} ({order.value} orders) may not enter the "
                              f"{table.defence_zone_inches}-inch zone in front of {zone_of}; "
                              f"only troops on {allowed} orders may"), ()
    if passing_through:
        return (Verdict(True, f"{intruder} passes through the zone of {zone_of} and takes its "
                              f"fire"),
                (FollowOn(FollowOnTest.DEFENCE_ZONE_FIRE, zone_of,
                          f"revised Rule 5: {intruder} passes through its defence zone"),))
    return Verdict(True, f"{intruder} ({order.value} orders) may enter the zone"), ()
