"""The formats of the scenario files as pydantic models, and their JSON Schemas.

Each model checks one file on its own: the keys, the types, the choices and a sane range for
every number. What needs more than one entry or more than one file (a road's towns, unique
names, a connected map) is checked by the loaders afterwards. The loaders turn the models into
the frozen values of :mod:`campaign1813.maps.types` and :mod:`campaign1813.campaign.scenario.types`.

``python -m campaign1813.campaign.scenario.schema docs/schemas`` writes one JSON Schema per file
format, for editors that check TOML against a schema.
"""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
import msgspec.inspect as mi
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    StrictBool,
    StringConstraints,
    create_model,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import PydanticCustomError

from campaign1813.campaign.scenario.types import (
    EARLIEST_START,
    LATEST_START,
    START_RANGE,
    CavalryType,
    Grade,
    Rating,
    Settings,
    Side,
)
from campaign1813.maps.types import Crossing, RoadClass, Theatre, Town

# The nations the campaign fields: the rules give some of them effects (British pursuit, Spanish
# commanders in base contact), so a typo must not silently lose those effects.
NATIONALITIES = (
    "French", "Polish", "Westphalian", "Italian",
    "Prussian", "Russian", "Austrian", "Spanish", "British", "Portuguese",
)
INFANTRY_PER_CORPS = 4
# Pounder weights fielded in 1813; the rules class them as 12, 8-9 and 4-6 (3 counts as 4-6).
CALIBRES = (3, 4, 6, 8, 9, 12)

Text = Annotated[str, StringConstraints(strict=True, strip_whitespace=True, min_length=1)]
Latitude = Annotated[float, Field(strict=True, ge=-90, le=90, allow_inf_nan=False)]
Longitude = Annotated[float, Field(strict=True, ge=-180, le=180, allow_inf_nan=False)]
RoadMiles = Annotated[float, Field(strict=True, gt=0, lt=1000, allow_inf_nan=False,
                                   description="miles along the road")]
# No army marches a hundred miles a day; a larger rate is a typing slip.
DayRate = Annotated[float, Field(strict=True, gt=0, le=100, allow_inf_nan=False,
                                 description="miles a day")]
ShortMiles = Annotated[float, Field(strict=True, ge=0, le=100, allow_inf_nan=False)]
BrigadeNumber = Annotated[int, Field(strict=True, ge=1, le=999)]


def _no_default(schema: dict[str, Any]) -> None:
    """A key that may be left out has no value in TOML to show as its default."""
    schema.pop("default", None)


class _Table(BaseModel):
    """A TOML table: no keys but those named, values checked as they are written."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# --- map/towns.toml, map/roads.toml, map/rivers.toml -------------------------------------------

def _checked(kind: mi.Type) -> Any:
    """The annotation that checks a value of a map type as a TOML file writes it: text stripped
    and never empty, numbers finite within the type's range, true and false as themselves."""
    if isinstance(kind, mi.Metadata):
        return _checked(kind.type)
    if isinstance(kind, mi.StrType):
        return Text
    if isinstance(kind, mi.FloatType):
        return Annotated[float, Field(strict=True, ge=kind.ge, le=kind.le, gt=kind.gt,
                                      lt=kind.lt, allow_inf_nan=False)]
    if isinstance(kind, mi.BoolType):
        return StrictBool
    if isinstance(kind, mi.EnumType):
        return kind.cls
    if isinstance(kind, mi.VarTupleType):
        return list[_checked(kind.item_type)]  # type: ignore[misc]
    if isinstance(kind, mi.UnionType):  # a value that may be left out: ``str | None``
        (inner,) = [t for t in kind.types if not isinstance(t, mi.NoneType)]
        return _checked(inner)
    raise TypeError(f"a map value of type {kind!r} has no TOML form")


def _table_of(value: type[msgspec.Struct], name: str, doc: str) -> type[_Table]:
    """The model of a TOML table that holds one map value, made from the value's own fields: a
    field with a default may be left out (and the value's reader decides what that means)."""
    info = mi.type_info(value)
    assert isinstance(info, mi.StructType), value
    fields: dict[str, Any] = {}
    for field in info.fields:
        checked = _checked(field.type)
        said = field.type.extra_json_schema if isinstance(field.type, mi.Metadata) else None
        description = (said or {}).get("description")
        if field.required:
            fields[field.name] = (checked, Field(description=description))
        elif isinstance(field.default, tuple):
            fields[field.name] = (checked, Field(default_factory=list, description=description))
        else:
            fields[field.name] = (checked | SkipJsonSchema[None], Field(  # type: ignore[misc]
                None, description=description, json_schema_extra=_no_default))
    return create_model(name, __base__=_Table, __doc__=doc, __module__=__name__, **fields)


TownEntry = _table_of(
    Town, "TownEntry", "One [[town]]: where it is, its theatre and kind; other spellings as "
    "aliases.")


class TownsFile(_Table):
    """map/towns.toml: the towns of the road map."""

    town: list[TownEntry] = Field(min_length=1)  # type: ignore[valid-type]


class RoadEntry(_Table):
    """One [[road]] between two towns; where it crosses a drawn river, the crossing."""

    model_config = ConfigDict(json_schema_extra={
        "dependentRequired": {"river": ["crossing"], "crossing": ["river"]}})

    from_: Text = Field(alias="from")
    to: Text
    miles: RoadMiles
    class_: RoadClass = Field(alias="class")
    river: Text | SkipJsonSchema[None] = Field(
        None, description="the drawn river the road crosses", json_schema_extra=_no_default)
    crossing: Crossing | SkipJsonSchema[None] = Field(None, json_schema_extra=_no_default)

    @model_validator(mode="after")
    def _crossed_where_a_river_is(self) -> RoadEntry:
        if self.river and self.crossing is None:
            raise PydanticCustomError(
                "no_crossing", "crosses the {river} but has no crossing (bridge, ford or ferry)",
                {"river": self.river})
        if self.crossing and not self.river:
            raise PydanticCustomError("no_river", "has a {crossing} but names no river",
                                      {"crossing": self.crossing.value})
        return self


class RoadsFile(_Table):
    """map/roads.toml: the roads between the towns."""

    road: list[RoadEntry] = Field(default_factory=list)


class RiverEntry(_Table):
    """One [[river]] as a polyline of [lat, lon] points, upstream to mouth."""

    name: Text
    points: list[tuple[Latitude, Longitude]] = Field(min_length=2)


class RiversFile(_Table):
    """map/rivers.toml: the rivers drawn on the map, and checked against the roads."""

    river: list[RiverEntry] = Field(default_factory=list)


# --- armies.toml -------------------------------------------------------------------------------

class CommanderEntry(_Table):
    """A general and his grade."""

    name: Text
    grade: Grade


class InfantryEntry(_Table):
    """An infantry brigade: its number in the army, class, firepower and skirmish grades."""

    number: BrigadeNumber
    class_: Rating = Field(alias="class")
    firepower: Rating
    skirmish: Rating
    name: Text = ""


class CavalryEntry(_Table):
    """A cavalry brigade: its number in the army, class and type; lancers flagged."""

    number: BrigadeNumber
    class_: Rating = Field(alias="class")
    type: CavalryType
    lancers: StrictBool = False
    name: Text = ""


class ArtilleryEntry(_Table):
    """The corps artillery: class and calibre in pounds; horse artillery flagged."""

    class_: Rating = Field(alias="class")
    calibre: Literal[CALIBRES]  # type: ignore[valid-type]
    horse: StrictBool = False


class CorpsEntry(_Table):
    """One [[army.corps]]: commander, starting town, four infantry brigades, a cavalry
    brigade and the corps artillery."""

    name: Text
    nationality: Literal[NATIONALITIES]  # type: ignore[valid-type]
    commander: CommanderEntry
    start: Text = Field(description="the starting town, by its name or an alias")
    infantry: list[InfantryEntry] = Field(min_length=INFANTRY_PER_CORPS,
                                          max_length=INFANTRY_PER_CORPS)
    cavalry: CavalryEntry
    artillery: ArtilleryEntry


class ArmyEntry(_Table):
    """One [[army]] group: side, theatre, HQ town, CinC, reserve commander and corps."""

    name: Text
    side: Side
    theatre: Theatre
    hq: Text = Field(description="the HQ town, by its name or an alias")
    cinc: CommanderEntry
    reserve: CommanderEntry
    corps: list[CorpsEntry] = Field(min_length=1)


class ArmiesFile(_Table):
    """armies.toml: the army groups of the campaign."""

    army: list[ArmyEntry]


# --- objectives.toml ---------------------------------------------------------------------------

class ObjectiveEntry(_Table):
    """One [[objective]] of one side in one theatre, with the towns it names."""

    theatre: Theatre
    side: Side
    description: Text
    towns: list[Text] = Field(default_factory=list)


class ObjectivesFile(_Table):
    """objectives.toml: the campaign objectives."""

    objective: list[ObjectiveEntry] = Field(default_factory=list)


# --- settings.toml -----------------------------------------------------------------------------

_DEFAULT = Settings()


def _iso_date(value: Any) -> Any:
    """A TOML date as it is; text like 1813-05-01 read as a date."""
    if isinstance(value, str):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    return value


def _in_the_wars(value: date) -> date:
    """A first day within the wars of the Revolution and Napoleon (``types.START_RANGE``)."""
    if not EARLIEST_START <= value <= LATEST_START:
        raise PydanticCustomError("out_of_range", START_RANGE)
    return value


class CampaignSection(_Table):
    """[campaign]: its name and first day."""

    name: Text = _DEFAULT.name
    start_date: Annotated[date, Strict(), BeforeValidator(_iso_date),
                          AfterValidator(_in_the_wars),
                          Field(description=f"the campaign's first day, {START_RANGE}")] = (
        _DEFAULT.start_date)


class DistancesSection(_Table):
    """[distances]: how close hostile commands halt, and friends march to the guns."""

    contact_miles: ShortMiles = _DEFAULT.contact_miles
    reinforce_miles: ShortMiles = _DEFAULT.reinforce_miles


class FootRates(_Table):
    """[march.foot]: infantry and artillery, miles a day."""

    road: DayRate = _DEFAULT.foot_rate.road
    off_road: DayRate = _DEFAULT.foot_rate.off_road
    difficult: DayRate = _DEFAULT.foot_rate.difficult


class MountedRates(_Table):
    """[march.mounted]: HQs and cavalry, miles a day."""

    road: DayRate = _DEFAULT.mounted_rate.road
    off_road: DayRate = _DEFAULT.mounted_rate.off_road
    difficult: DayRate = _DEFAULT.mounted_rate.difficult


class MarchSection(_Table):
    """[march]: the rates on foot and mounted."""

    foot: FootRates = FootRates()
    mounted: MountedRates = MountedRates()


class ForcedMarchSection(_Table):
    """[forced_march]: the extra miles, and what they cost."""

    extra_miles: ShortMiles = _DEFAULT.forced_march_extra_miles
    cost: Text = _DEFAULT.forced_march_cost


class OptionsSection(_Table):
    """[options]: the umpire's choices of rules."""

    carry_casualties_forward: StrictBool = _DEFAULT.carry_casualties_forward
    messenger_orders: StrictBool = _DEFAULT.messenger_orders
    messenger_miles: Annotated[float, Field(strict=True, gt=0, le=1000, allow_inf_nan=False)] = (
        _DEFAULT.messenger_miles)
    steps_per_day: Annotated[int, Field(strict=True, ge=1, le=240)] = _DEFAULT.steps_per_day
    fog: StrictBool = _DEFAULT.fog
    recce_miles: ShortMiles = _DEFAULT.recce_miles
    release: Literal["end of day", "umpire"] = _DEFAULT.release
    supply: Literal["off", "2016", "2020"] = _DEFAULT.supply
    supply_attrition: Literal["umpire", "seeded"] = _DEFAULT.supply_attrition


class SettingsFile(_Table):
    """settings.toml: the campaign's settings; a key left out keeps its default."""

    campaign: CampaignSection = CampaignSection()
    distances: DistancesSection = DistancesSection()
    march: MarchSection = MarchSection()
    forced_march: ForcedMarchSection = ForcedMarchSection()
    options: OptionsSection = OptionsSection()


# --- the JSON Schemas --------------------------------------------------------------------------

FORMATS: dict[str, type[BaseModel]] = {
    "towns": TownsFile,
    "roads": RoadsFile,
    "rivers": RiversFile,
    "armies": ArmiesFile,
    "objectives": ObjectivesFile,
    "settings": SettingsFile,
}


def json_schemas() -> dict[str, str]:
    """Each file format's JSON Schema as text, by file name: ``scenario-towns.schema.json``…"""
    texts = {}
    for name, model in FORMATS.items():
        schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                  **model.model_json_schema(by_alias=True)}
        texts[f"scenario-{name}.schema.json"] = json.dumps(schema, indent=2,
                                                          ensure_ascii=False) + "\n"
    return texts


def write_schemas(folder: Path) -> list[Path]:
    """Write every file format's JSON Schema into ``folder``; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in json_schemas().items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m campaign1813.campaign.scenario.schema FOLDER``."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m campaign1813.campaign.scenario.schema FOLDER", file=sys.stderr)
        return 2
    for path in write_schemas(Path(args[0])):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
