"""Exact odds against Icepool: artillery fire (Rule 7), morale tests (Rule 17), combats (9-15).

Target: each kind of odds at least 10× faster than Icepool, in CPU time (``time.process_time``).

For a fixed set of queries spanning each rule's modifiers, our engine answers the whole question
(the modifiers found from the brigades and facts, then the distribution read against the table),
and Icepool is given the dice, the net modifier our engine found and the table's thresholds, and
builds the same distribution. Every fraction must be identical, or the benchmark fails. Each
query is answered once by each before the clock starts (so a first call's one-off reading of the
tables is not timed). Then, in each of ``ROUNDS`` rounds, our engine answers the set ``REPEAT``
times and Icepool once; the figures are the least CPU time per query over the rounds (the
machine is shared, and the least is the figure least disturbed by others).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import icepool

from campaign1813.campaign.battle.dice import D6, Die
from campaign1813.campaign.battle.ruleset1813.rules.artillery import (
    Battery,
    FireSituation,
    RangeBand,
    Target,
    fire_odds,
)
from campaign1813.campaign.battle.ruleset1813.rules.brigade import Brigade
from campaign1813.campaign.battle.ruleset1813.rules.combat import (
    Combat,
    CombatSide,
    combat_odds,
    combat_rules,
)
from campaign1813.campaign.battle.ruleset1813.rules.modifiers import total
from campaign1813.campaign.battle.ruleset1813.rules.morale import (
    MoraleOutcome,
    MoraleTest,
    automatic_rout,
    morale_modifiers,
    morale_odds,
    morale_rules,
)
from campaign1813.campaign.battle.ruleset1813.rules.tables.fire import fire_table
from campaign1813.campaign.battle.terms import (
    Arm,
    Calibre,
    CavalryWeight,
    Formation,
    MoraleState,
    Rating,
)

RULESET = "1813"
TARGET_RATIO = 10.0
REPEAT = 10
# The ratios this benchmark measured before each distribution was worked out once per table and
# net modifier (docs/performance.md, 2026-12-02).
PREVIOUS = {"artillery": "6.1–10.3×", "morale": "4.8–5.6×", "combat": "2.6–3.2×"}
ROUNDS = 3


def _dice(die: Die, count: int) -> icepool.Die[int]:
    return count @ icepool.Die(list(die.faces))


def _fractions(die: icepool.Die[int], outcomes: Sequence[int]) -> list[Fraction]:
    n = die.denominator()
    return [Fraction(die.quantity(o), n) for o in outcomes]


# Artillery: every calibre, gunner class, casualties 0-2, bounce-through or not, band and target.

def fire_queries() -> list[FireSituation]:
    """The fires measured."""
    out = []
    for calibre, gunners, casualties, bounce, band, target in itertools.product(
            Calibre, Rating, range(3), (False, True), RangeBand, Target):
        battery = Battery("battery", calibre, gunners, casualties)
        out.append(FireSituation(battery, "target", target, band, bounce_through=bounce))
    return out


def fire_ours(s: FireSituation) -> list[Fraction]:
    """Our engine's chance of 0, 1 and 2 hits."""
    hits = fire_odds(s, RULESET).hits
    return [hits[0], hits[1], hits[2]]


def fire_given(s: FireSituation) -> tuple[Die, int, int, int, int]:
    """What Icepool is given: the dice, our net modifier and the numbers for one and two hits."""
    table = fire_table(RULESET)
    odds = fire_odds(s, RULESET)
    return table.die, table.count, odds.modifier, odds.need_one, odds.need_two


def fire_icepool(given: tuple[Die, int, int, int, int]) -> list[Fraction]:
    """Icepool's chance of 0, 1 and 2 hits for the same dice, modifier and numbers."""
    die, count, net, one, two = given
    d = (_dice(die, count) + net).map(
        lambda t: 2 if t >= two else 1 if t >= one else 0)
    return _fractions(d, (0, 1, 2))


# Morale: every arm, class, casualties below the automatic rout, state and a spread of facts.

_MORALE_FACTS: tuple[frozenset[str], ...] = (
    frozenset(), frozenset({"general-attached"}), frozenset({"no-general-within-8"}),
    frozenset({"supports-within-4"}), frozenset({"no-supports-within-8", "in-bua"}),
    frozenset({"behind-formed-supports", "rout-within-4"}),
    frozenset({"routed-through", "no-general-within-8", "no-supports-within-8"}),
)


def _brigade(arm: Arm, rating: Rating, casualties: int, state: MoraleState) -> Brigade:
    return Brigade("brigade", arm, rating=rating, firepower=rating, skirmish=rating,
                   cavalry=CavalryWeight.MEDIUM if arm is Arm.CAVALRY else None,
                   casualties=casualties, state=state)


def morale_queries() -> list[MoraleTest]:
    """The morale tests measured (only those that roll: an automatic rout has no dice)."""
    out = []
    for arm, rating, casualties, state, facts in itertools.product(
            Arm, Rating, range(6), MoraleState, _MORALE_FACTS):
        test = MoraleTest(_brigade(arm, rating, casualties, state), facts)
        if not automatic_rout(test.brigade, RULESET):
            out.append(test)
    return out


def morale_ours(t: MoraleTest) -> list[Fraction]:
    """Our engine's chance of pass, Shaken and rout."""
    odds = morale_odds(t, RULESET)
    return [odds[o] for o in MoraleOutcome]


def morale_given(t: MoraleTest) -> tuple[Die, int, int, int]:
    """What Icepool is given: the die, our net modifier and the pass and Shaken numbers."""
    rules = morale_rules(RULESET)
    return rules.die, total(morale_modifiers(t, RULESET)), rules.pass_at, rules.shaken_at


def morale_icepool(given: tuple[Die, int, int, int]) -> list[Fraction]:
    """Icepool's chance of pass, Shaken and rout for the same die, modifier and numbers."""
    die, net, pass_at, shaken_at = given
    d = (_dice(die, 1) + net).map(lambda t: 0 if t >= pass_at else 1 if t >= shaken_at else 2)
    return _fractions(d, (0, 1, 2))


# Combat: Rules 9-15 across classes, casualties, formations, cavalry weights and table facts.

def _side(arm: Arm, rating: Rating, casualties: int, shape: int,
          facts: frozenset[str]) -> CombatSide:
    if arm is Arm.CAVALRY:
        weight = tuple(CavalryWeight)[shape % len(CavalryWeight)]
        formation = (Formation.CAVALRY_LINE, Formation.CAVALRY_COLUMN)[shape % 2]
        b = Brigade("cavalry", arm, rating=rating, cavalry=weight, lancers=shape == 1,
                    casualties=casualties, formation=formation)
    else:
        formation = (Formation.LINE, Formation.COLUMN_OF_ATTACK, None)[shape % 3]
        b = Brigade("infantry", arm, rating=rating, firepower=rating,
                    skirmish=tuple(Rating)[shape % 3], casualties=casualties,
                    formation=formation)
    return CombatSide(b, facts)


def combat_queries() -> list[Combat]:
    """The combats measured."""
    out = []
    for number, rule in combat_rules(RULESET).items():
        names = rule.factors.fact_names
        fact_sets = [frozenset(c) for k in range(len(names) + 1)
                     for c in itertools.combinations(names, k)]
        for ra, rd, cas, shape, fa in itertools.product(
                Rating, Rating, (0, 2), range(3), fact_sets):
            attacker = _side(rule.arms[0], ra, cas, shape, fa)
            defender = _side(rule.arms[1], rd, 2 - cas, shape + 1, frozenset())
            out.append(Combat(number, attacker, defender))
    return out


def combat_ours(c: Combat) -> list[Fraction]:
    """Our engine's chance of each row of the result table."""
    return [p for _, p in combat_odds(c, RULESET).rows]


def combat_given(c: Combat) -> tuple[int, tuple[int, ...]]:
    """What Icepool is given: our difference and the lowest total of each row read."""
    odds = combat_odds(c, RULESET)
    return odds.difference, tuple(row.low for row, _ in odds.rows)


def combat_icepool(given: tuple[int, tuple[int, ...]]) -> list[Fraction]:
    """Icepool's chance of each row for the same 2d6, difference and table.

    Below the lowest row reads the lowest, above the highest the highest.
    """
    net, lows = given
    d = (_dice(D6, 2) + net).map(lambda t: max(0, sum(1 for low in lows if t >= low) - 1))
    return _fractions(d, range(len(lows)))


def measure(kind: str, queries: Sequence[object], ours: Callable[[object], list[Fraction]],
            given_of: Callable[[object], object],
            theirs: Callable[[object], list[Fraction]]) -> tuple[float, float]:
    """CPU seconds per query of ours and of Icepool, after checking every fraction agrees."""
    given = [given_of(q) for q in queries]
    for q, g in zip(queries, given, strict=True):
        a, b = ours(q), theirs(g)
        if a != b:
            raise AssertionError(f"{kind}: our odds {a} differ from Icepool's {b} for {q}")
    mine, icepools = float("inf"), float("inf")
    for _ in range(ROUNDS):
        start = time.process_time()
        for _ in range(REPEAT):
            for q in queries:
                ours(q)
        mine = min(mine, (time.process_time() - start) / (REPEAT * len(queries)))
        start = time.process_time()
        for g in given:
            theirs(g)
        icepools = min(icepools, (time.process_time() - start) / len(queries))
    return mine, icepools


def main() -> None:
    """Print, per kind of odds, our CPU time and Icepool's per query and the ratio."""
    kinds: list[tuple[str, Sequence[Any], Callable[..., list[Fraction]], Callable[..., Any],
                      Callable[..., list[Fraction]]]] = [
        ("artillery", fire_queries(), fire_ours, fire_given, fire_icepool),
        ("morale", morale_queries(), morale_ours, morale_given, morale_icepool),
        ("combat", combat_queries(), combat_ours, combat_given, combat_icepool),
    ]
    print(f"exact odds against Icepool {icepool.__version__}, CPU time per query "
          f"(target: at least {TARGET_RATIO:.0f}× faster)")
    for kind, queries, ours, given_of, theirs in kinds:
        mine, icepools = measure(kind, queries, ours, given_of, theirs)
        ratio = icepools / mine
        verdict = "meets" if ratio >= TARGET_RATIO else "misses"
        print(f"  {kind:<9} {len(queries):>4} queries, same fractions: ours {mine * 1e6:7.1f} µs, "
              f"Icepool {icepools * 1e6:7.1f} µs, {ratio:5.1f}× ({verdict} {TARGET_RATIO:.0f}×; "
              f"previously {PREVIOUS[kind]})")


if __name__ == "__main__":
    main()
