"""Combats decided by combat factors and a result table (Rules 9, 10, 12, 13, 14 and 15).

Each side adds up its combat factors. The side with the higher total is the table's "winner":
it rolls 2d6 and adds the difference, and the row found can still make it lose. On equal totals
the attacker rolls with a difference of 0. Totals below the lowest row read the lowest row, above
the highest row the highest. Rules 10 and 12 have no table of their own and read Rule 13's.

>>> from campaign1813.campaign.battle.terms import Rating
>>> a = CombatSide(Brigade("13 Brigade", Arm.INFANTRY, rating=Rating.A))
>>> d = CombatSide(Brigade("2 Brigade", Arm.INFANTRY))
>>> odds = combat_odds(Combat(13, a, d))
>>> odds.favoured, odds.difference
(<Side.ATTACKER: 'attacker'>, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache, cached_property
from typing import Any

from campaign1813.campaign.battle.dice import D6, DiceSource, Roll, distribution
from campaign1813.campaign.battle.ruleset1813.rules.brigade import (
    BRIGADE_FACTS,
    COMPARATIVE_FACTS,
    Brigade,
    comparative_facts,
)
from campaign1813.campaign.battle.ruleset1813.rules.loader import RulesetError, load_table
from campaign1813.campaign.battle.ruleset1813.rules.modifiers import (
    Applied,
    ModifierList,
    total,
    with_table_facts,
)
from campaign1813.campaign.battle.ruleset1813.rules.morale import PURSUIT, casualty_effect
from campaign1813.campaign.battle.terms import Arm, CorpsOrder, Effect, FollowOn, MoraleState
from campaign1813.campaign.errors import CampaignError


class CombatRefused(CampaignError):
    """A combat the rules do not allow; says which brigade and why."""


class Side(StrEnum):
    """The attacking or the defending side of a combat."""

    ATTACKER = "attacker"
    DEFENDER = "defender"

    @property
    def other(self) -> Side:
        """The opposing side."""
        return Side.DEFENDER if self is Side.ATTACKER else Side.ATTACKER


# The two sides in order, without iterating the enumeration on every combat.
_SIDES = (Side.ATTACKER, Side.DEFENDER)


@dataclass(frozen=True)
class RowEffect:
    """What one row of a result table does to one side."""

    casualties: int = 0
    state: MoraleState | None = None
    retire: int = 0
    halt: int = 0


@dataclass(frozen=True)
class ResultRow:
    """One row of a result table: the totals it covers, its result and its effects by role."""

    low: int
    high: int | None
    result: str
    effects: tuple[tuple[str, RowEffect], ...]

    @property
    def totals(self) -> str:
        """``2–3`` or ``10+``."""
        if self.high is None:
            return f"{self.low}+"
        return str(self.low) if self.high == self.low else f"{self.low}–{self.high}"

    def effect_for(self, roles: tuple[str, ...]) -> RowEffect:
        """The effect on a side known by these roles (first match), or none."""
        effects = dict(self.effects)
        for role in roles:
            if role in effects:
                return effects[role]
        return RowEffect()


@dataclass(frozen=True)
class CombatRule:
    """One combat rule: which arms fight, its factors, its result table."""

    number: int
    title: str
    arms: tuple[Arm, Arm]
    factors: ModifierList
    table: str
    rows: tuple[tuple[str, tuple[ResultRow, ...]], ...]
    hand_to_hand: bool
    initiated: bool
    orders: tuple[CorpsOrder, ...] = ()

    def rows_for(self, roller: Arm) -> tuple[ResultRow, ...]:
        """The rows read when this arm rolls."""
        rows = dict(self.rows)
        return rows.get(roller.value) or rows["any"]

    def row_odds(self, roller: Arm, difference: int) -> tuple[tuple[ResultRow, Fraction], ...]:
        """Each row read when this arm rolls 2d6 plus ``difference``, with its exact chance."""
        key = (roller, difference)
        odds = self._row_odds.get(key)
        if odds is None:
            rows = self.rows_for(roller)
            chance = [Fraction(0)] * len(rows)
            for dice, p in distribution(D6, 2).items():
                chance[rows.index(find_row(rows, dice + difference))] += p
            odds = self._row_odds[key] = tuple(zip(rows, chance, strict=True))
        return odds

    @cached_property
    def _row_odds(self) -> dict[tuple[Arm, int], tuple[tuple[ResultRow, Fraction], ...]]:
        """The row odds worked out so far, by roller and difference (the rule never changes)."""
        return {}


def _row_effect(raw: dict[str, Any], where: str) -> RowEffect:
    unknown = set(raw) - {"casualties", "state", "retire", "halt"}
    if unknown:
        raise RulesetError(f"{where}: unknown effect {', '.join(sorted(unknown))}")
    try:
        state = MoraleState(raw["state"]) if "state" in raw else None
    except ValueError as exc:
        raise RulesetError(f"{where}: '{raw['state']}' is not a morale state") from exc
    return RowEffect(int(raw.get("casualties", 0)), state, int(raw.get("retire", 0)),
                     int(raw.get("halt", 0)))


def _rows(raw: list[dict[str, Any]], where: str) -> tuple[ResultRow, ...]:
    rows = []
    for i, r in enumerate(raw):
        at = f"{where} row {i + 1}"
        effects = tuple((role, _row_effect(v, f"{at} {role}")) for role, v in r.items()
                        if isinstance(v, dict))
        rows.append(ResultRow(int(r["min"]), int(r["max"]) if "max" in r else None,
                              str(r["result"]), effects))
    rows.sort(key=lambda row: row.low)
    for a, b in zip(rows, rows[1:], strict=False):
        if a.high is None or a.high + 1 != b.low:
            raise RulesetError(f"{where}: rows {a.totals} and {b.totals} overlap or leave a gap")
    if not rows:
        raise RulesetError(f"{where}: no rows")
    return tuple(rows)


@cache
def combat_rules(ruleset: str = "1813") -> dict[int, CombatRule]:
    """The combat rules of a ruleset, read and checked once."""
    raw = load_table(ruleset, "combat.toml")
    where = f"{ruleset}/combat.toml"
    out: dict[int, CombatRule] = {}
    known = BRIGADE_FACTS | COMPARATIVE_FACTS
    try:
        for number, r in raw["rules"].items():
            at = f"{where} [rules.{number}]"
            table = raw["tables"].get(r["table"])
            if table is None:
                raise RulesetError(f"{at}: no result table '{r['table']}'")
            rows = tuple((k, _rows(v, f"{where} [tables.{r['table']}] {k}"))
                         for k, v in table["rows"].items())
            factors = ModifierList.parse(r["factors"], at, known, r.get("facts", {}))
            arms = (Arm(r["arms"][0]), Arm(r["arms"][1]))
            out[int(number)] = CombatRule(int(number), str(r["title"]), arms, factors,
                                          str(r["table"]), rows, bool(r["hand_to_hand"]),
                                          bool(r.get("initiated", True)),
                                          tuple(CorpsOrder(o) for o in r.get("orders", ())))
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, RulesetError):
            raise
        raise RulesetError(f"{where}: malformed or missing entry ({exc})") from exc
    return out


def combat_rule(number: int, ruleset: str = "1813") -> CombatRule:
    """One combat rule by number, refusing a number the ruleset has no table for."""
    rules = combat_rules(ruleset)
    if number not in rules:
        known = ", ".join(str(n) for n in sorted(rules))
        raise CombatRefused(f"ruleset {ruleset} has no combat Rule {number} (known: {known})")
    return rules[number]


@dataclass(frozen=True)
class CombatSide:
    """One side of a combat: its brigade and the table facts that hold for it."""

    brigade: Brigade
    facts: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Combat:
    """A combat about to be fought under one rule."""

    rule: int
    attacker: CombatSide
    defender: CombatSide

    def side(self, side: Side) -> CombatSide:
        """The attacking or defending side."""
        return self.attacker if side is Side.ATTACKER else self.defender


@dataclass(frozen=True)
class CombatFactors:
    """Each side's combat factors and totals, and who rolls with what difference."""

    attacker: tuple[Applied, ...]
    defender: tuple[Applied, ...]

    @property
    def attacker_total(self) -> int:
        """The attacker's total."""
        return total(self.attacker)

    @property
    def defender_total(self) -> int:
        """The defender's total."""
        return total(self.defender)

    @property
    def favoured(self) -> Side:
        """The side that rolls: the higher total, the attacker on a tie."""
        return self.roller()[0]

    @property
    def difference(self) -> int:
        """What the favoured side adds to its 2d6."""
        return self.roller()[1]

    def roller(self) -> tuple[Side, int]:
        """The side that rolls and the difference it adds, from each total summed once."""
        a, d = total(self.attacker), total(self.defender)
        return (Side.ATTACKER if a >= d else Side.DEFENDER), abs(a - d)

    def of(self, side: Side) -> tuple[Applied, ...]:
        """One side's factors."""
        return self.attacker if side is Side.ATTACKER else self.defender


def check_combat(combat: Combat, ruleset: str = "1813") -> CombatRule:
    """Refuse a combat the rule does not allow (wrong arms, unknown facts, formed square …)."""
    rule = combat_rule(combat.rule, ruleset)
    for side, arm, own in zip(_SIDES, rule.arms, (combat.attacker, combat.defender),
                              strict=True):
        b = own.brigade
        if b.arm is not arm:
            raise CombatRefused(f"Rule {rule.number} ({rule.title.lower()}): the {side.value} "
                                f"must be {arm.value}, not {b.name} ({b.arm.value})")
        if own.facts:
            rule.factors.check_facts(own.facts, f"Rule {rule.number}, {b.name}")
    a, d = combat.attacker.brigade, combat.defender.brigade
    if rule.initiated and not a.state.may_initiate_combat:
        raise CombatRefused(f"{a.name} is {a.state.value} and may not start a combat")
    if (rule.arms == (Arm.CAVALRY, Arm.INFANTRY) and d.formation is not None
            and d.formation.value == "square" and d.state is MoraleState.FORMED):
        raise CombatRefused(f"cavalry may not charge a formed square ({d.name})")
    return rule


def combat_factors(combat: Combat, ruleset: str = "1813") -> CombatFactors:
    """Each side's combat factors under the combat's rule."""
    return _factors(combat, check_combat(combat, ruleset))


def _factors(combat: Combat, rule: CombatRule) -> CombatFactors:
    found = []
    mods = rule.factors
    for own, enemy in ((combat.attacker, combat.defender), (combat.defender, combat.attacker)):
        facts = own.brigade.facts()
        facts.update(comparative_facts(own.brigade, enemy.brigade))
        found.append(mods.applied(with_table_facts(facts, own.facts, mods)))
    return CombatFactors(found[0], found[1])


def find_row(rows: tuple[ResultRow, ...], score: int) -> ResultRow:
    """The row for a total; below the lowest reads the lowest, above the highest the highest."""
    if score < rows[0].low:
        return rows[0]
    for row in rows:
        if row.high is None or score <= row.high:
            if score >= row.low:
                return row
    return rows[-1]


@dataclass(frozen=True)
class CombatOdds:
    """Who rolls, with what difference, and the exact chance of each result row."""

    rule: CombatRule
    factors: CombatFactors
    favoured: Side
    difference: int
    rows: tuple[tuple[ResultRow, Fraction], ...]


def combat_odds(combat: Combat, ruleset: str = "1813") -> CombatOdds:
    """The exact chance of each row of the result table for this combat."""
    rule = check_combat(combat, ruleset)
    factors = _factors(combat, rule)
    favoured, difference = factors.roller()
    roller = combat.side(favoured).brigade.arm
    return CombatOdds(rule, factors, favoured, difference, rule.row_odds(roller, difference))


@dataclass(frozen=True)
class CombatResult:
    """A combat fought: the roll, the total, the row, and what it does to each brigade."""

    combat: Combat
    factors: CombatFactors
    roll: Roll
    total: int
    row: ResultRow
    effects: tuple[Effect, ...]
    follow_ons: tuple[FollowOn, ...]

    @property
    def favoured(self) -> Side:
        """The side that rolled."""
        return self.factors.favoured


def fight(combat: Combat, dice: DiceSource, ruleset: str = "1813") -> CombatResult:
    """Fight the combat with a 2d6 roll from ``dice`` and apply the row found."""
    rule = check_combat(combat, ruleset)
    factors = combat_factors(combat, ruleset)
    roller = factors.favoured
    roll = dice.roll(D6, 2, f"Rule {rule.number}: {combat.side(roller).brigade.name} "
                            f"(+{factors.difference})")
    score = roll.total + factors.difference
    row = find_row(rule.rows_for(combat.side(roller).brigade.arm), score)
    effects, follow = apply_row(combat, row, roller, rule.hand_to_hand, ruleset)
    return CombatResult(combat, factors, roll, score, row, effects, follow)


def apply_row(combat: Combat, row: ResultRow, roller: Side, hand_to_hand: bool,
              ruleset: str = "1813") -> tuple[tuple[Effect, ...], tuple[FollowOn, ...]]:
    """What a result row does to both brigades, and the tests it triggers.

    After hand-to-hand combat a brigade the row leaves without a state is disordered. A
    brigade that newly routs makes friends within 4 inches react; cavalry that cause a rout
    test to pursue.
    """
    effects: list[Effect] = []
    follow: list[FollowOn] = []
    for side in Side:
        b = combat.side(side).brigade
        roles = ("winner" if side is roller else "loser", b.arm.value)
        e = row.effect_for(roles)
        state = e.state or (MoraleState.DISORDERED if hand_to_hand else None)
        note = f"halts {e.halt}\" from the enemy" if e.halt else ""
        effect, more = casualty_effect(b, e.casualties, state, ruleset,
                                       retire_inches=e.retire, note=note)
        effects.append(effect)
        follow.extend(more)
    for side, effect in zip(Side, effects, strict=True):
        enemy = combat.side(side.other).brigade
        enemy_effect = effects[1] if side is Side.ATTACKER else effects[0]
        routed = effect.new_state is MoraleState.ROUT
        if (routed and enemy.arm is Arm.CAVALRY and enemy.state is not MoraleState.ROUT
                and enemy_effect.new_state is not MoraleState.ROUT):
            follow.append(FollowOn(PURSUIT, enemy.name,
                                   f"{enemy.name} caused {effect.brigade} to rout"))
    return tuple(effects), tuple(follow)
