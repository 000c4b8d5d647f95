"""The battle engine's shared vocabulary: arms, morale states, formations, orders, effects.

Every rule module speaks these terms, so a result of one rule (a rout, a casualty, a new state)
can be handed to the next (a morale test, a pursuit) without translation.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

# the grades an order of battle gives, which the scenario reads without the rest of the engine
from campaign1813.campaign.battle.ratings import Grade as Grade
from campaign1813.campaign.battle.ratings import Rating as Rating


class Arm(StrEnum):
    """Infantry, cavalry or artillery."""

    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    ARTILLERY = "artillery"


class MoraleState(StrEnum):
    """A brigade's morale state, best to worst (Rule 17's grades of morale)."""

    FORMED = "formed"
    DISORDERED = "disordered"
    SHAKEN = "shaken"
    ROUT = "rout"

    @property
    def may_initiate_combat(self) -> bool:
        """Shaken and routing brigades may not start a combat; nor may disordered ones."""
        return self is MoraleState.FORMED

    @property
    def counts_as_support(self) -> bool:
        """Only formed brigades count as supports."""
        return self is MoraleState.FORMED


class Formation(StrEnum):
    """How a brigade or battery stands on the table."""

    LINE = "line"
    COLUMN_OF_ATTACK = "column of attack"
    COLUMN_OF_MARCH = "column of march"
    SQUARE = "square"
    CAVALRY_LINE = "cavalry line"
    CAVALRY_COLUMN = "cavalry column"
    LIMBERED = "limbered"
    UNLIMBERED = "unlimbered"


class CorpsOrder(StrEnum):
    """A corps' orders on the battlefield."""

    MOVE = "Move"
    HALT = "Halt"
    HOLD = "Hold"
    ENGAGE = "Engage"
    ATTACK = "Attack"
    WITHDRAW = "Withdraw"
    RALLY = "Rally"


class Calibre(StrEnum):
    """Artillery calibre classes of Rule 7."""

    HEAVY = "12"
    MEDIUM = "8-9"
    LIGHT = "4-6"

    @classmethod
    def from_pounds(cls, pounds: int) -> Calibre:
        """12 pounders are heavy, 8 and 9 medium, 4 to 6 light."""
        if pounds >= 12:
            return cls.HEAVY
        if pounds >= 8:
            return cls.MEDIUM
        return cls.LIGHT


@dataclass(frozen=True)
class Effect:
    """What a result does to one brigade: casualties, new state, distance to move, removal."""

    brigade: str
    casualties: int = 0
    new_state: MoraleState | None = None
    retire_inches: int = 0
    rout_inches: int = 0
    removed: bool = False
    note: str = ""


class FollowOnTest(StrEnum):
    """The names of the tests a result can trigger, shared by every rule that triggers them."""

    MORALE = "morale test"
    ROUT_REACTION = "reaction to rout"
    PURSUIT = "pursuit test"
    PURSUIT_RALLY = "rally pursuers"
    CHARGE = "charge"
    REACTION_TO_CHARGE = "reaction to charge"
    CHARGE_CONTACT = "charge contact"
    CAVALRY_COMBAT = "cavalry combat"
    BOUNCE_THROUGH = "bounce-through fire"
    DEFENCE_ZONE_FIRE = "defence zone fire"
    PLACE_FIGURES = "place figures"


@dataclass(frozen=True)
class FollowOn:
    """A test that a result triggers, e.g. a morale test for every brigade within 4 inches."""

    test: str
    who: str
    reason: str


class CavalryWeight(StrEnum):
    """Heavy, medium or light cavalry."""

    HEAVY = "heavy"
    MEDIUM = "medium"
    LIGHT = "light"


class Role(StrEnum):
    """What a commander commands."""

    CINC = "CinC"
    CORPS = "corps commander"
    RESERVE = "reserve commander"
