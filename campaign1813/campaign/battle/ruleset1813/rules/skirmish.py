"""Infantry skirmish (Rule 11 of the 1813 rules).

Both sides roll 1d6 and add their modifiers; a total of 6 or more kills, costing the other side
one casualty. A brigade that takes a casualty tests morale.

>>> from campaign1813.campaign.battle.ruleset1813.rules.brigade import Brigade
>>> from campaign1813.campaign.battle.terms import Arm, Rating
>>> a = CombatSide(Brigade("13 Brigade", Arm.INFANTRY, skirmish=Rating.A))
>>> d = CombatSide(Brigade("16 Brigade", Arm.INFANTRY, skirmish=Rating.C))
>>> hit_chance(skirmish_modifiers(Skirmish(a, d))[0])
Fraction(2, 3)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from campaign1813.campaign.battle.dice import DICE, DiceSource, Die, Roll, distribution
from campaign1813.campaign.battle.ruleset1813.rules.brigade import (
    BRIGADE_FACTS,
    COMPARATIVE_FACTS,
    comparative_facts,
)
from campaign1813.campaign.battle.ruleset1813.rules.combat import CombatRefused, CombatSide, Side
from campaign1813.campaign.battle.ruleset1813.rules.loader import RulesetError, load_table
from campaign1813.campaign.battle.ruleset1813.rules.modifiers import (
    Applied,
    ModifierList,
    total,
    with_table_facts,
)
from campaign1813.campaign.battle.ruleset1813.rules.morale import (
    MORALE,
    MoraleTestDue,
    casualty_effect,
)
from campaign1813.campaign.battle.terms import Arm, CorpsOrder, Effect, FollowOn, MoraleState


@dataclass(frozen=True)
class SkirmishRules:
    """A ruleset's skirmish: the die, the total that kills, casualties per kill, modifiers."""

    die: Die
    kill_at: int
    casualties: int
    modifiers: ModifierList
    orders: tuple[CorpsOrder, ...] = ()


@cache
def skirmish_rules(ruleset: str = "1813") -> SkirmishRules:
    """The skirmish table of a ruleset, read and checked once."""
    where = f"{ruleset}/combat.toml [skirmish]"
    try:
        raw = load_table(ruleset, "combat.toml")["skirmish"]
        mods = ModifierList.parse(raw["modifiers"], where, BRIGADE_FACTS | COMPARATIVE_FACTS,
                                  raw.get("facts", {}))
        return SkirmishRules(DICE[raw["die"]], int(raw["kill_at"]), int(raw["casualties"]), mods,
                             tuple(CorpsOrder(o) for o in raw.get("orders", ())))
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, RulesetError):
            raise
        raise RulesetError(f"{where}: malformed or missing entry ({exc})") from exc


@dataclass(frozen=True)
class Skirmish:
    """A skirmish: the brigade that starts it, its target, and whether the target replies."""

    attacker: CombatSide
    defender: CombatSide
    defender_replies: bool = True

    def side(self, side: Side) -> CombatSide:
        """The attacking or defending side."""
        return self.attacker if side is Side.ATTACKER else self.defender


def skirmish_modifiers(sk: Skirmish, ruleset: str = "1813"
                       ) -> tuple[tuple[Applied, ...], tuple[Applied, ...]]:
    """Each side's skirmish modifiers (attacker's, defender's)."""
    rules = skirmish_rules(ruleset)
    for side in Side:
        b = sk.side(side).brigade
        if b.arm is not Arm.INFANTRY:
            raise CombatRefused(f"Rule 11: only infantry skirmish, not {b.name} ({b.arm.value})")
        rules.modifiers.check_facts(sk.side(side).facts, f"Rule 11, {b.name}")
    a = sk.attacker.brigade
    if not a.state.may_initiate_combat:
        raise CombatRefused(f"{a.name} is {a.state.value} and may not start a skirmish")
    out = []
    for side in Side:
        own, enemy = sk.side(side), sk.side(side.other)
        facts = own.brigade.facts() | comparative_facts(own.brigade, enemy.brigade)
        out.append(rules.modifiers.applied(with_table_facts(facts, own.facts, rules.modifiers)))
    return out[0], out[1]


def hit_chance(mods: tuple[Applied, ...], ruleset: str = "1813") -> Fraction:
    """The chance that one side's roll plus these modifiers kills."""
    rules = skirmish_rules(ruleset)
    shift = total(mods)
    return sum((p for face, p in distribution(rules.die).items()
                if face + shift >= rules.kill_at), Fraction(0))


@dataclass(frozen=True)
class SkirmishOdds:
    """Each side's chance to kill and the chance of each pair of outcomes."""

    attacker_hits: Fraction
    defender_hits: Fraction

    @property
    def outcomes(self) -> dict[tuple[bool, bool], Fraction]:
        """(attacker kills, defender kills) → chance; the two rolls are independent."""
        a, d = self.attacker_hits, self.defender_hits
        return {(True, True): a * d, (True, False): a * (1 - d),
                (False, True): (1 - a) * d, (False, False): (1 - a) * (1 - d)}


def skirmish_odds(sk: Skirmish, ruleset: str = "1813") -> SkirmishOdds:
    """The exact chance that each side kills."""
    att, dfn = skirmish_modifiers(sk, ruleset)
    return SkirmishOdds(hit_chance(att, ruleset),
                        hit_chance(dfn, ruleset) if sk.defender_replies else Fraction(0))


@dataclass(frozen=True)
class SkirmishResult:
    """A skirmish fought: each side's roll and total, and what they do."""

    skirmish: Skirmish
    rolls: tuple[Roll, Roll | None]
    totals: tuple[int, int | None]
    effects: tuple[Effect, ...]
    follow_ons: tuple[FollowOn, ...]


def skirmish(sk: Skirmish, dice: DiceSource, ruleset: str = "1813") -> SkirmishResult:
    """Both sides roll; each kill costs the other side a casualty and a morale test."""
    rules = skirmish_rules(ruleset)
    mods = skirmish_modifiers(sk, ruleset)

    def throw(side: Side, applied: tuple[Applied, ...]) -> tuple[Roll, int]:
        r = dice.roll(rules.die, 1, f"Rule 11: {sk.side(side).brigade.name} skirmishes")
        return r, r.total + total(applied)

    attacker_roll, attacker_total = throw(Side.ATTACKER, mods[0])
    defender_roll, defender_total = (throw(Side.DEFENDER, mods[1]) if sk.defender_replies
                                     else (None, None))
    totals = (attacker_total, defender_total)
    effects: list[Effect] = []
    follow: list[FollowOn] = []
    for side in Side:
        shooter_total = totals[0] if side is Side.DEFENDER else totals[1]
        b = sk.side(side).brigade
        if shooter_total is None or shooter_total < rules.kill_at:
            continue
        effect, more = casualty_effect(b, rules.casualties, None, ruleset,
                                       note="loses a casualty to skirmishers")
        effects.append(effect)
        follow.extend(more)
        if effect.new_state is not MoraleState.ROUT and b.state is not MoraleState.ROUT:
            follow.append(MoraleTestDue(MORALE, b.name, f"{b.name} took a skirmish casualty"))
    return SkirmishResult(sk, (attacker_roll, defender_roll), totals, tuple(effects),
                          tuple(follow))
