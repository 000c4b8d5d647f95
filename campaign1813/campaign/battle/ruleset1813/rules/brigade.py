"""A brigade or battery as the combat and morale rules see it.

Only what the rules read: arm, class, firepower and skirmish grades, cavalry weight, casualties,
morale state and formation. Everything the table alone knows (a general within 8 inches, a
garrison, being outnumbered) is given to each test separately as named facts.

>>> b = Brigade("17 Brigade", Arm.INFANTRY, rating=Rating.A, formation=Formation.LINE)
>>> b.facts()["class"], b.facts()["in_line"]
('A', True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from campaign1813.campaign.battle.terms import Arm, Formation, MoraleState, Rating
from campaign1813.campaign.battle.terms import CavalryWeight as CavalryWeight
from campaign1813.campaign.errors import CampaignError


class InvalidBrigade(CampaignError):
    """A brigade described in a way the rules cannot read; says which brigade and why."""




# Morale states from best to worst, so a result never improves a brigade.
STATE_ORDER = (MoraleState.FORMED, MoraleState.DISORDERED, MoraleState.SHAKEN, MoraleState.ROUT)

ARM_FORMATIONS = {
    Arm.INFANTRY: {Formation.LINE, Formation.COLUMN_OF_ATTACK, Formation.COLUMN_OF_MARCH,
                   Formation.SQUARE},
    Arm.CAVALRY: {Formation.CAVALRY_LINE, Formation.CAVALRY_COLUMN},
    Arm.ARTILLERY: {Formation.LIMBERED, Formation.UNLIMBERED},
}
_LINES = {Formation.LINE, Formation.CAVALRY_LINE}
_COLUMNS = {Formation.COLUMN_OF_ATTACK, Formation.COLUMN_OF_MARCH, Formation.CAVALRY_COLUMN}
# Each grade's and state's name as a fact reads it, looked up rather than asked of the member
# (an enumeration's ``value`` costs several times a lookup, and every odds reads eleven facts).
_ARMS = {a: a.value for a in Arm}
_RATINGS = {r: r.value for r in Rating}
_WEIGHTS = {w: w.value for w in CavalryWeight}
_FORMATIONS = {f: f.value for f in Formation}
_STATES = {m: m.value for m in MoraleState}
# Better grades first: A is better than B, B than C.
_BETTER = {Rating.A: 0, Rating.B: 1, Rating.C: 2}


def worse_state(a: MoraleState, b: MoraleState) -> MoraleState:
    """The worse of two morale states."""
    return max(a, b, key=STATE_ORDER.index)


@dataclass(frozen=True)
class Brigade:
    """One brigade or battery: what the combat and morale rules read from it."""

    name: str
    arm: Arm
    rating: Rating = Rating.B
    firepower: Rating = Rating.B
    skirmish: Rating = Rating.B
    cavalry: CavalryWeight | None = None
    lancers: bool = False
    casualties: int = 0
    state: MoraleState = MoraleState.FORMED
    formation: Formation | None = None
    nation: str = ""

    def __post_init__(self) -> None:
        if self.casualties < 0:
            raise InvalidBrigade(f"{self.name}: casualties cannot be negative ({self.casualties})")
        if self.arm is not Arm.CAVALRY and (self.cavalry is not None or self.lancers):
            raise InvalidBrigade(f"{self.name}: only cavalry has a cavalry weight or lancers")
        if self.arm is Arm.CAVALRY and self.cavalry is None:
            raise InvalidBrigade(f"{self.name}: cavalry needs a weight (heavy, medium or light)")
        if self.formation is not None and self.formation not in ARM_FORMATIONS[self.arm]:
            allowed = ", ".join(sorted(f.value for f in ARM_FORMATIONS[self.arm]))
            raise InvalidBrigade(f"{self.name}: {self.arm.value} cannot stand in "
                                 f"{self.formation.value} (possible: {allowed})")

    @property
    def in_line(self) -> bool:
        """Infantry or cavalry in line."""
        return self.formation in _LINES

    @property
    def in_column(self) -> bool:
        """Infantry in column of attack or march, or cavalry in column."""
        return self.formation in _COLUMNS

    def facts(self) -> dict[str, object]:
        """What the rules' tables may ask of this brigade, by fact name."""
        return {
            "arm": _ARMS[self.arm],
            "class": _RATINGS[self.rating],
            "fire": _RATINGS[self.firepower],
            "skirmish": _RATINGS[self.skirmish],
            "cavalry": _WEIGHTS[self.cavalry] if self.cavalry else "",
            "lancers": self.lancers,
            "formation": _FORMATIONS[self.formation] if self.formation else "",
            "in_line": self.formation in _LINES,
            "state": _STATES[self.state],
            "casualties": self.casualties,
            "nation": self.nation.lower(),
        }

    def with_effect(self, casualties: int = 0, state: MoraleState | None = None) -> Brigade:
        """The brigade after taking casualties and (never better) a new state."""
        return replace(self, casualties=self.casualties + casualties,
                       state=worse_state(self.state, state) if state else self.state)


BRIGADE_FACTS = frozenset(Brigade("x", Arm.INFANTRY).facts())


def formation_named(arm: Arm, text: str) -> Formation:
    """A formation from a name an umpire types: ``line``, ``column-of-attack``, ``square``…."""
    words = text.strip().lower().replace("-", " ").replace("_", " ")
    aliases = {"coa": "column of attack", "com": "column of march", "column": "column of attack"}
    if arm is Arm.CAVALRY:
        aliases = {"line": "cavalry line", "column": "cavalry column"}
    words = aliases.get(words, words)
    for formation in ARM_FORMATIONS[arm]:
        if formation.value == words:
            return formation
    allowed = ", ".join(sorted(f.value.replace(" ", "-") for f in ARM_FORMATIONS[arm]))
    raise InvalidBrigade(f"'{text}' is not a formation for {arm.value} (possible: {allowed})")


def comparative_facts(own: Brigade, enemy: Brigade) -> dict[str, object]:
    """Facts that compare a brigade with its opponent: better skirmishers, line against column."""
    return {
        "better_skirmish": _BETTER[own.skirmish] < _BETTER[enemy.skirmish],
        "better_fire": _BETTER[own.firepower] < _BETTER[enemy.firepower],
        "line_v_column": own.formation in _LINES and enemy.formation in _COLUMNS,
        "enemy_arm": _ARMS[enemy.arm],
    }


COMPARATIVE_FACTS = frozenset(comparative_facts(Brigade("x", Arm.INFANTRY),
                                                Brigade("y", Arm.INFANTRY)))
