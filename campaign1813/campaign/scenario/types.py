"""The scenario's vocabulary as frozen values: the orders of battle, objectives, settings.

The loader builds these from the TOML files and the campaign file stores them; everything else
(the road map, the campaign day, the battle setup, the printed orders of battle) reads them.
"""

# no ``from __future__ import annotations`` here: msgspec reads these classes' annotations when
# a campaign is opened, and would compile each written as text

from datetime import date
from enum import StrEnum
from typing import Annotated, Literal

import msgspec

# the two sides of every theatre are the battle's: one Side for the campaign and its battles
from campaign1813.campaign.battle.core.outcome import Side as Side
from campaign1813.campaign.battle.ratings import Grade as Grade
from campaign1813.campaign.battle.ratings import Rating as Rating
from campaign1813.maps.types import MapData, Theatre


class CavalryType(StrEnum):
    """Heavy, medium or light cavalry."""

    HEAVY = "heavy"
    MEDIUM = "medium"
    LIGHT = "light"


class Commander(msgspec.Struct, frozen=True):
    """A general and his grade."""

    name: str
    grade: Grade


class InfantryBrigade(msgspec.Struct, frozen=True):
    """An infantry brigade: class, firepower and skirmish grades."""

    number: int
    klass: Rating
    firepower: Rating
    skirmish: Rating
    name: str = ""


class CavalryBrigade(msgspec.Struct, frozen=True):
    """A cavalry brigade: class and type; lancers flagged."""

    number: int
    klass: Rating
    type: CavalryType
    lancers: bool = False
    name: str = ""


class Artillery(msgspec.Struct, frozen=True):
    """A corps artillery battery: class and calibre in pounds; horse artillery flagged."""

    klass: Rating
    calibre: int
    horse: bool = False

    @property
    def calibre_band(self) -> str:
        """The rules' calibre class: ``12``, ``8-9`` or ``4-6`` pounder."""
        if self.calibre >= 12:
            return "12"
        if self.calibre >= 8:
            return "8-9"
        return "4-6"


class Corps(msgspec.Struct, frozen=True):
    """A corps: commander, four infantry brigades, a cavalry brigade and the corps artillery."""

    name: str
    army: str
    nationality: str
    commander: Commander
    start: str
    infantry: tuple[InfantryBrigade, ...]
    cavalry: CavalryBrigade
    artillery: Artillery


class ArmyGroup(msgspec.Struct, frozen=True):
    """An army group: its CinC and HQ town, its corps and its reserve commander."""

    name: str
    side: Side
    theatre: Theatre
    cinc: Commander
    hq: str
    reserve: Commander
    corps: tuple[Corps, ...]


class Objective(msgspec.Struct, frozen=True):
    """A campaign objective of one side in one theatre."""

    theatre: Theatre
    side: Side
    description: str
    towns: tuple[str, ...] = ()


# The ranges the scenario's schema allows (``scenario/schema.py``), held again when a campaign's
# stored copy of its scenario is read: an edited copy cannot march a corps 180 miles a day.
DayRate = Annotated[float, msgspec.Meta(gt=0, le=100)]
# The days a campaign of these rules can start on: the wars of the French Revolution and of
# Napoleon, from the first campaigns of 1792 to the peace of 1815. A date outside is a slip.
EARLIEST_START = date(1792, 1, 1)
LATEST_START = date(1815, 12, 31)
START_RANGE = (f"between {EARLIEST_START.isoformat()} and {LATEST_START.isoformat()} "
               "(the wars of the Revolution and Napoleon)")
ShortMiles = Annotated[float, msgspec.Meta(ge=0, le=100)]


class MarchRates(msgspec.Struct, frozen=True):
    """Miles a day on roads, off roads and in difficult country."""

    road: DayRate
    off_road: DayRate
    difficult: DayRate


class Settings(msgspec.Struct, frozen=True):
    """The campaign's settings; the umpire may change them per campaign."""

    name: str = "The 1813 Campaign"
    start_date: date = date(1813, 5, 1)
    contact_miles: ShortMiles = 10.0
    reinforce_miles: ShortMiles = 10.0
    foot_rate: MarchRates = MarchRates(15, 10, 5)
    mounted_rate: MarchRates = MarchRates(30, 15, 5)
    forced_march_extra_miles: ShortMiles = 5.0
    forced_march_cost: str = "one casualty on each infantry brigade, carried to the next battle"
    carry_casualties_forward: bool = False
    messenger_orders: bool = False
    messenger_miles: Annotated[float, msgspec.Meta(gt=0, le=1000)] = 60.0
    steps_per_day: Annotated[int, msgspec.Meta(ge=1, le=240)] = 12
    battle_turns: int = 12  # turns of a battle day before night falls (seed 000: twelve)
    # what each side knows (record 0025): off, the umpire and everyone see everything
    fog: bool = False
    recce_miles: ShortMiles = 20.0  # a Recce order's reach: his two squares
    # "umpire": a day's reports wait for the umpire to release them
    release: Literal["end of day", "umpire"] = "end of day"
    # the optional supply rule (day/supply.py): off, or the version of the author's rule
    supply: Literal["off", "2016", "2020"] = "off"
    # who picks the brigade that loses a corps' men out of supply: the umpire, or by lot
    supply_attrition: Literal["umpire", "seeded"] = "umpire"


class Scenario(msgspec.Struct, frozen=True):
    """A whole scenario: map, army groups, objectives and settings."""

    name: str
    map: MapData
    armies: tuple[ArmyGroup, ...]
    objectives: tuple[Objective, ...] = ()
    settings: Settings = msgspec.field(default_factory=Settings)
