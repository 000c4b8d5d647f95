"""Modifier and combat-factor lists read from a ruleset's tables, and which of them apply.

A modifier applies when every fact in its ``when`` holds (a list of such tables: when any one
holds); ``per`` multiplies its value by a count such as casualties; among modifiers sharing a
``group`` only the largest applies. The facts come from the brigade, from comparing it with its
opponent, and from what the umpire says of the table (``table facts``, declared by the ruleset).

>>> mods = ModifierList.parse([{"key": "a", "label": "Class A", "value": 1,
...                             "when": {"class": "A"}}], "example", frozenset({"class"}), {})
>>> [m.value for m in mods.applied({"class": "A"})]
[1]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from campaign1813.campaign.battle.ruleset1813.rules.loader import RulesetError
from campaign1813.campaign.errors import CampaignError


@dataclass(frozen=True)
class Modifier:
    """One line of a modifier list: +1 Class A, −1 each casualty …."""

    key: str
    label: str
    value: int
    when: tuple[tuple[tuple[str, tuple[object, ...]], ...], ...] = ()
    per: str | None = None
    group: str | None = None

    def amount(self, facts: Mapping[str, object]) -> int:
        """What this modifier adds for these facts (0 when it does not apply)."""
        if self.when and not self.holds(facts):
            return 0
        if self.per is not None:
            count = facts.get(self.per) or 0
            if not isinstance(count, int | float | str):
                raise TypeError(f"the count '{self.per}' is {count!r}, not a number")
            return self.value * int(count)
        return self.value

    def holds(self, facts: Mapping[str, object]) -> bool:
        """Whether every fact of one of the ``when`` tables holds (always, with none)."""
        if not self.when:
            return True
        get = facts.get
        for clause in self.when:
            for name, allowed in clause:
                if get(name) not in allowed:
                    break
            else:
                return True
        return False


@dataclass(frozen=True)
class Applied:
    """A modifier that applies, with its total (e.g. −2 for two casualties)."""

    key: str
    label: str
    value: int

    def __str__(self) -> str:
        return f"{self.value:+d} {self.label}".replace("-", "−")


@dataclass(frozen=True)
class ModifierList:
    """A rule's modifiers and the table facts the umpire may assert for it."""

    modifiers: tuple[Modifier, ...]
    table_facts: tuple[tuple[str, str], ...] = ()
    conflicts: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, raw: list[Any], where: str, known: frozenset[str],
              table_facts: Mapping[str, str],
              conflicts: list[list[str]] | None = None) -> ModifierList:
        """Read and check a modifier list; ``where`` names it in errors."""
        names = known | set(table_facts)
        mods = []
        seen = set()
        for i, item in enumerate(raw):
            label = f"{where}, modifier {i + 1}"
            try:
                key, text, value = str(item["key"]), str(item["label"]), item["value"]
            except (KeyError, TypeError) as exc:
                raise RulesetError(f"{label}: needs key, label and value") from exc
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesetError(f"{label} ({key}): value must be a whole number")
            if key in seen:
                raise RulesetError(f"{label}: key '{key}' is used twice")
            seen.add(key)
            when = item.get("when", ())
            clauses = [when] if isinstance(when, dict) else when
            if not isinstance(clauses, list | tuple):
                raise RulesetError(f"{label} ({key}): 'when' must be a table or tables")
            parsed = []
            for clause in clauses:
                if not isinstance(clause, dict):
                    raise RulesetError(f"{label} ({key}): 'when' must be a table or tables")
                for name in clause:
                    if name not in names:
                        raise RulesetError(f"{label} ({key}): unknown fact '{name}' "
                                           f"(known: {', '.join(sorted(names))})")
                parsed.append(tuple((name, tuple(v) if isinstance(v, list) else (v,))
                                    for name, v in clause.items()))
            per = item.get("per")
            if per is not None and per not in names:
                raise RulesetError(f"{label} ({key}): unknown count '{per}'")
            mods.append(Modifier(key, text, value, tuple(parsed), per, item.get("group")))
        pairs = []
        for pair in conflicts or ():
            if len(pair) != 2 or any(p not in table_facts for p in pair):
                raise RulesetError(f"{where}: conflict {pair} must name two declared facts")
            pairs.append((pair[0], pair[1]))
        return cls(tuple(mods), tuple(table_facts.items()), tuple(pairs))

    @cached_property
    def fact_names(self) -> tuple[str, ...]:
        """The table facts the umpire may assert."""
        return tuple(name for name, _ in self.table_facts)

    @cached_property
    def _known(self) -> frozenset[str]:
        return frozenset(self.fact_names)

    @cached_property
    def _fixed(self) -> tuple[tuple[Modifier, Applied | None], ...]:
        """Each modifier with what it adds when it applies, made once unless a count scales it."""
        return tuple((m, None if m.per is not None else Applied(m.key, m.label, m.value))
                     for m in self.modifiers)

    def fact_label(self, name: str) -> str:
        """The description of a table fact."""
        return dict(self.table_facts)[name]

    def check_facts(self, facts: frozenset[str], what: str) -> None:
        """Refuse unknown or contradictory table facts, naming them."""
        known = self._known
        if facts <= known and not self.conflicts:
            return
        for name in sorted(facts):
            if name not in known:
                valid = ", ".join(self.fact_names) or "none"
                raise UnknownFact(f"{what}: unknown modifier '{name}' (valid: {valid})")
        for a, b in self.conflicts:
            if a in facts and b in facts:
                raise UnknownFact(f"{what}: '{a}' and '{b}' cannot both hold")

    def applied(self, facts: Mapping[str, object]) -> tuple[Applied, ...]:
        """The modifiers that apply to these facts, the largest only within a group."""
        best: dict[str, Applied] = {}
        out: list[Applied | str] = []
        get = facts.get
        for m, fixed in self._fixed:
            if m.when:  # one of the ``when`` tables must hold whole (Modifier.holds, inlined)
                for clause in m.when:
                    for name, allowed in clause:
                        if get(name) not in allowed:
                            break
                    else:
                        break
                else:
                    continue
            if fixed is None:
                amount = m.amount(facts)
                if amount == 0:
                    continue
                a = Applied(m.key, m.label, amount)
            elif fixed.value == 0:
                continue
            else:
                a = fixed
                amount = fixed.value
            if m.group is None:
                out.append(a)
            elif m.group not in best:
                best[m.group] = a
                out.append(m.group)
            elif amount > best[m.group].value:
                best[m.group] = a
        return tuple(best[x] if isinstance(x, str) else x for x in out)


class UnknownFact(CampaignError):
    """A modifier named by the umpire that the rule does not have, or two that contradict."""


def with_table_facts(base: Mapping[str, object], asserted: frozenset[str],
                     mods: ModifierList) -> dict[str, object]:
    """The brigade's facts plus the table facts: asserted ones true, the rest false."""
    facts = dict(base)
    for name in mods.fact_names:
        facts[name] = name in asserted
    return facts


def total(applied: tuple[Applied, ...]) -> int:
    """The sum of the modifiers that apply."""
    net = 0
    for a in applied:
        net += a.value
    return net
