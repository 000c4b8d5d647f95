"""Typed, validated views of the tables of Rules 1-8 (spotting, command, orders, movement,
opportunity charges, artillery fire, quick results).

Each view is read once per ruleset and checked entry by entry: a missing or wrong entry raises
:class:`RulesetError` naming the file, the entry and the reason, so a house-ruled number that
cannot work is caught when the ruleset is opened, not in the middle of a battle.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from fractions import Fraction
from functools import cache
from typing import Any, Final, TypeVar

from campaign1813.campaign.battle.dice import DICE, Die
from campaign1813.campaign.battle.rules.loader import RulesetError, load_table, ruleset_info
from campaign1813.campaign.battle.terms import Arm, Calibre, CorpsOrder, Grade, MoraleState
from campaign1813.data import data_root

# --- the vocabulary the tables are keyed by ------------------------------------------------


class Cover(StrEnum):
    """How hidden a target is from a spotter (Rule 1)."""

    OPEN = "open"            # in plain line of sight
    SCREENED = "screened"    # behind a blind or deployed troops
    COVER = "cover"          # in woods or a built-up area, or behind a hill


class Mover(StrEnum):
    """A row of the movement table (Rule 5)."""

    GENERAL = "general"
    LIGHT_CAVALRY_COLUMN = "light_cavalry_column"
    LIGHT_CAVALRY_LINE = "light_cavalry_line"
    HEAVY_CAVALRY_COLUMN = "heavy_cavalry_column"
    HEAVY_CAVALRY_LINE = "heavy_cavalry_line"
    HORSE_ARTILLERY_LIMBERED = "horse_artillery_limbered"
    FOOT_ARTILLERY_LIMBERED = "foot_artillery_limbered"
    INFANTRY_COLUMN_OF_MARCH = "infantry_column_of_march"
    INFANTRY_COLUMN_OF_ATTACK = "infantry_column_of_attack"
    INFANTRY_LINE = "infantry_line"
    INFANTRY_SQUARE = "infantry_square"
    MANHANDLE_LIGHT = "manhandle_light"
    MANHANDLE_MEDIUM = "manhandle_medium"
    MANHANDLE_HEAVY = "manhandle_heavy"


class CorpsAction(StrEnum):
    """Something a corps commander spends pips on (Rule 3)."""

    MOVE = "move"                                  # move, turning up to 45 degrees
    CHANGE_FORMATION = "change_formation"          # or turn more than 45 degrees
    ARTILLERY_ACTION = "artillery_action"          # fire, limber, move or unlimber
    INFANTRY_FIRE = "infantry_fire"                # fire or skirmish
    RETIRE_HALF_MOVE = "retire_half_move"          # facing the enemy
    HALF_MOVE_AND_CHANGE_FORMATION = "half_move_and_change_formation"
    ARTILLERY_TWO_ACTIONS = "artillery_two_actions"
    SWAP_BRIGADES = "swap_brigades"
    RALLY = "rally"
    GARRISON = "garrison"                          # occupy a built-up area or wood (Rule 9)


class Reaction(StrEnum):
    """What the target of an opportunity charge tries to do (Rule 6)."""

    EVADE = "evade"
    COUNTER_CHARGE = "counter_charge"
    CHANGE_FORMATION = "change_formation"
    TURN_TO_FACE = "turn_to_face"
    INTERCEPT = "intercept"
    FORM_SQUARE = "form_square"


class RangeBand(StrEnum):
    """Artillery range band (Rule 7)."""

    SHORT = "short"
    LONG = "long"


class Target(StrEnum):
    """What artillery fires at (Rule 7): troops in the open, or what covers them."""

    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    WOODS = "woods"            # or hedges
    BUILDINGS = "buildings"    # or walls
    ARTILLERY = "artillery"


class QuickCase(StrEnum):
    """A contact settled without a combat (Rule 8)."""

    COLUMN_OF_MARCH_CONTACTED_BY_CAVALRY = "column_of_march_contacted_by_cavalry"
    LIMBERED_ARTILLERY_CONTACTED_BY_CAVALRY = "limbered_artillery_contacted_by_cavalry"
    DEPLOYED_ARTILLERY_CHARGED = "deployed_artillery_charged"
    ROUTERS_CONTACTED = "routers_contacted"
    SHAKEN_CONTACTED = "shaken_contacted"
    CAUGHT_IN_FLANK_OR_REAR = "caught_in_flank_or_rear"
    GUNNERS_CONTACTED_BY_INFANTRY = "gunners_contacted_by_infantry"


# Charge-target kinds of Rule 6 and the facts a quick result may need to escape (Rule 8).
CHARGE_TARGETS = ("disordered", "shaken", "flank_or_rear", "cavalry_column",
                  "infantry_column_of_march", "limbered_artillery")
ESCAPE_FACTS = ("able_to_escape", "more_than_half_move_away", "supports_within_4")

# The modifiers the code knows how to apply; a table picks which of them its ruleset uses.
CHARGE_MODIFIERS = ("a_class", "c_class", "commander_within_4", "poor_commander",
                    "flank_or_rear", "no_commander_within_8", "casualty")
REACTION_MODIFIERS = ("a_class", "c_class", "general_within_4", "poor_commander",
                      "flank_or_rear", "cavalry", "casualty")
FIRE_MODIFIERS = ("a_class_gunners", "c_class_gunners", "gunner_casualty", "bounce_through")
CREST_MODIFIERS = ("british_or_a_class", "c_class")


# --- reading entries with reasons --------------------------------------------------------


def table_source(ruleset: str, filename: str) -> str:
    """``ruleset/filename`` of the file a ruleset's table really comes from."""
    name: str | None = ruleset
    seen: set[str] = set()
    while name is not None and name not in seen:
        seen.add(name)
        if (data_root() / "rulesets" / name / filename).is_file():
            return f"{name}/{filename}"
        name = ruleset_info(name).get("extends")
    return f"{ruleset}/{filename}"


class _Missing(Enum):
    """The default of an entry that must be present."""

    MISSING = "missing"


_MISSING: Final = _Missing.MISSING
_Word = TypeVar("_Word", bound=StrEnum)


class Entries:
    """A table file (or a part of one) whose entries are read with checks."""

    def __init__(self, label: str, data: Mapping[str, Any], prefix: str = ""):
        self.label = label
        self.data = data
        self.prefix = prefix

    @classmethod
    def of(cls, ruleset: str, filename: str) -> Entries:
        """The entries of a ruleset's table file."""
        return cls(table_source(ruleset, filename), load_table(ruleset, filename))

    def _name(self, key: str) -> str:
        return f"{self.prefix}{key}"

    def fail(self, key: str, reason: str) -> RulesetError:
        """An error naming this file, the entry and the reason."""
        return RulesetError(f"{self.label}: entry '{self._name(key)}' {reason}")

    def has(self, key: str) -> bool:
        """Whether the entry is present."""
        return key in self.data

    def raw(self, key: str, default: object = _MISSING) -> Any:
        """The entry as it stands, or the default; missing without a default is an error."""
        if key in self.data:
            return self.data[key]
        if default is _MISSING:
            raise self.fail(key, "is missing")
        return default

    def section(self, key: str) -> Entries:
        """A table inside this one."""
        value = self.raw(key)
        if not isinstance(value, Mapping):
            raise self.fail(key, f"should be a table, not {value!r}")
        return Entries(self.label, value, f"{self._name(key)}.")

    def sections(self, key: str) -> list[Entries]:
        """An array of tables inside this one."""
        value = self.raw(key)
        if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
            raise self.fail(key, "should be an array of tables")
        return [Entries(self.label, v, f"{self._name(key)}[{i}].") for i, v in enumerate(value)]

    def keys(self) -> list[str]:
        """The names of the entries."""
        return list(self.data)

    def integer(self, key: str, default: int | _Missing = _MISSING,
                minimum: int | None = None) -> int:
        """A whole number, at least ``minimum``."""
        value = self.raw(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"should be a whole number, not {value!r}")
        if minimum is not None and value < minimum:
            raise self.fail(key, f"should be at least {minimum}, not {value}")
        return value

    def inches(self, key: str, default: float | _Missing = _MISSING) -> Fraction:
        """A distance in inches: a number, zero or more."""
        value = self.raw(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(key, f"should be a distance in inches, not {value!r}")
        if value < 0:
            raise self.fail(key, f"should not be negative ({value})")
        return Fraction(value).limit_denominator(1000)

    def fraction(self, key: str) -> Fraction:
        """A fraction between 0 and 1, written as a number or as "1/2"."""
        value = self.raw(key)
        try:
            result = Fraction(str(value))
        except (ValueError, ZeroDivisionError):
            raise self.fail(key, f"should be a fraction such as \"1/2\", not {value!r}") from None
        if not 0 <= result <= 1:
            raise self.fail(key, f"should be between 0 and 1, not {value!r}")
        return result

    def boolean(self, key: str, default: bool | _Missing = _MISSING) -> bool:
        """True or false."""
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise self.fail(key, f"should be true or false, not {value!r}")
        return value

    def text(self, key: str, choices: tuple[str, ...] | None = None,
             default: str | _Missing = _MISSING) -> str:
        """A word, one of ``choices`` if given."""
        if default is not _MISSING and key not in self.data:
            return default
        value = self.raw(key)
        if not isinstance(value, str):
            raise self.fail(key, f"should be text, not {value!r}")
        if choices is not None and value not in choices:
            raise self.fail(key, f"is {value!r}; expected one of {', '.join(choices)}")
        return value

    def words(self, key: str, choices: tuple[str, ...] | None = None,
              default: list[str] | _Missing = _MISSING) -> tuple[str, ...]:
        """A list of words, each one of ``choices`` if given."""
        value = self.raw(key, default)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(key, f"should be a list of words, not {value!r}")
        for word in value:
            if choices is not None and word not in choices:
                raise self.fail(key, f"has {word!r}; expected any of {', '.join(choices)}")
        return tuple(value)

    def dice(self, key: str) -> tuple[Die, int]:
        """A dice expression: ``d6``, ``2d6``, ``d10`` or ``average``."""
        value = self.text(key)
        spec = value.strip().lower()
        if spec in ("average", "average die"):
            return DICE["average die"], 1
        count_text, _, kind = spec.partition("d")
        die = DICE.get(f"d{kind}")
        if die is None or (count_text and not count_text.isdigit()) or count_text == "0":
            raise self.fail(key, f"is {value!r}; expected a die such as d6, 2d6, d10 or average")
        return die, int(count_text or 1)

    def graded(self, key: str, minimum: int | None = None) -> dict[Grade, int]:
        """A whole number for each commander grade."""
        part = self.section(key)
        return {g: part.integer(g.value, minimum=minimum) for g in Grade}

    def modifiers(self, key: str, known: tuple[str, ...]) -> dict[str, ModifierEntry]:
        """Named modifiers, each one the code knows how to apply."""
        part = self.section(key)
        result: dict[str, ModifierEntry] = {}
        for name in part.keys():
            if name not in known:
                raise part.fail(name, f"is not a modifier this rule knows "
                                      f"(known: {', '.join(known)})")
            entry = part.section(name)
            result[name] = ModifierEntry(name, entry.text("label"), entry.integer("value"))
        return result

    def enum_keys(self, key: str, enum: type[_Word]) -> dict[_Word, Entries]:
        """Sub-tables keyed by the members of an enum; unknown keys are refused."""
        part = self.section(key)
        values = {e.value: e for e in enum}
        result = {}
        for name in part.keys():
            if name not in values:
                raise part.fail(name, f"is not known (known: {', '.join(values)})")
            result[values[name]] = part.section(name)
        return result


@dataclass(frozen=True)
class ModifierEntry:
    """A modifier as the table gives it: key, label, value."""

    key: str
    label: str
    value: int


# --- Rule 1 -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SpotBand:
    """Out to ``up_to`` inches a target is spotted automatically or on ``need`` or more."""

    up_to: Fraction
    automatic: bool
    need: int | None


@dataclass(frozen=True)
class SpottingTable:
    """Rule 1: the spotting die, who may spot, the bands by cover, and blind-movement pips."""

    source: str
    die: Die
    spotters: tuple[str, ...]
    bands: Mapping[Cover, tuple[SpotBand, ...]]
    blind_pips_die: Die
    blind_pips_bonus: Mapping[Grade, int]


@cache
def spotting_table(ruleset: str) -> SpottingTable:
    """The validated spotting table of a ruleset."""
    e = Entries.of(ruleset, "spotting.toml")
    die, count = e.dice("die")
    if count != 1:
        raise e.fail("die", "should be a single die")
    bands_part = e.section("bands")
    bands: dict[Cover, tuple[SpotBand, ...]] = {}
    for cover in Cover:
        rows: list[SpotBand] = []
        for row in bands_part.sections(cover.value):
            automatic = row.boolean("automatic", default=False)
            need = None if automatic else row.integer("need", minimum=1)
            if need is not None and need > max(die.faces):
                raise row.fail("need", f"is {need}, more than the {die.name} can show")
            band = SpotBand(row.inches("up_to"), automatic, need)
            if rows and band.up_to <= rows[-1].up_to:
                raise row.fail("up_to", "should be further than the band before it")
            rows.append(band)
        bands[cover] = tuple(rows)
    pips = e.section("blind_pips")
    pips_die, pips_count = pips.dice("die")
    if pips_count != 1:
        raise pips.fail("die", "should be a single die")
    return SpottingTable(e.label, die, e.words("spotters"), bands, pips_die,
                         pips.graded("bonus"))


# --- Rules 2 and 3 ------------------------------------------------------------------------


@dataclass(frozen=True)
class CommandTable:
    """Rules 2 and 3: the pips roll, the CinC's costs and the corps commander's costs."""

    source: str
    pips_die: Die
    pips_bonus: Mapping[Grade, int]
    cinc_inches_per_pip: Fraction
    cinc_multiple_move_clear: Fraction
    change_corps_orders: Mapping[Grade, int]
    give_move: Mapping[Grade, int]
    command_inches: Fraction
    base_contact_nations: tuple[str, ...]
    halt_reach_inches: Fraction
    swap_behind_inches: Fraction
    costs: Mapping[CorpsAction, int]
    change_to_halt: Mapping[Grade, int]


@cache
def command_table(ruleset: str) -> CommandTable:
    """The validated command table of a ruleset."""
    e = Entries.of(ruleset, "command.toml")
    pips = e.section("pips")
    die, count = pips.dice("die")
    if count != 1:
        raise pips.fail("die", "should be a single die")
    cinc = e.section("cinc")
    corps = e.section("corps")
    costs_part = corps.section("costs")
    costs = {a: costs_part.integer(a.value, minimum=0) for a in CorpsAction}
    return CommandTable(
        e.label, die, pips.graded("bonus"),
        cinc.inches("inches_per_pip"), cinc.inches("multiple_move_clear_inches"),
        cinc.graded("change_corps_orders", minimum=0), cinc.graded("give_move", minimum=0),
        corps.inches("command_inches"), corps.words("base_contact_nations"),
        corps.inches("halt_reach_inches"), corps.inches("swap_behind_inches"),
        costs, corps.graded("change_to_halt", minimum=0),
    )


# --- Rule 4 (and the revision's defence zone) ------------------------------------------------

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


# --- Rule 5 -----------------------------------------------------------------------------


@dataclass(frozen=True)
class MovementTable:
    """Rule 5: allowances, blind moves, multiple-move clearances and difficult terrain."""

    source: str
    allowance: Mapping[Mover, Fraction]
    blind_single_per_pip: Fraction
    blind_multiple_per_pip: Fraction
    general_clear_inches: Fraction
    brigade_clear_inches: Fraction
    difficult_fraction: Fraction


@cache
def movement_table(ruleset: str) -> MovementTable:
    """The validated movement table of a ruleset."""
    e = Entries.of(ruleset, "movement.toml")
    allowance = e.section("allowance")
    blinds = e.section("blinds")
    multiple = e.section("multiple_moves")
    return MovementTable(
        e.label, {m: allowance.inches(m.value) for m in Mover},
        blinds.inches("single_inches_per_pip"), blinds.inches("multiple_inches_per_pip"),
        multiple.inches("general_clear_inches"), multiple.inches("brigade_clear_inches"),
        e.section("difficult_terrain").fraction("fraction"),
    )


# --- Rule 6 -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ReactionRules:
    """One reaction open to the target of an opportunity charge."""

    reaction: Reaction
    test: bool
    arms: frozenset[Arm]
    needs_formed: bool
    needs_orders: bool
    same_corps: bool


@dataclass(frozen=True)
class OpportunityTable:
    """Rule 6: who may be charged, the charge test and the target's reaction test."""

    source: str
    die: Die
    charge_need: int
    charge_targets: frozenset[str]
    charge_modifiers: Mapping[str, ModifierEntry]
    reaction_need: int
    reaction_only_formed: bool
    reaction_modifiers: Mapping[str, ModifierEntry]
    reactions: Mapping[Reaction, ReactionRules]
    fail_loss_percent: int


@cache
def opportunity_table(ruleset: str) -> OpportunityTable:
    """The validated opportunity-charge table of a ruleset."""
    e = Entries.of(ruleset, "opportunity.toml")
    die, count = e.dice("die")
    if count != 1:
        raise e.fail("die", "should be a single die")
    charge = e.section("charge")
    reaction = e.section("reaction")
    arms = tuple(a.value for a in Arm)
    reactions = {
        kind: ReactionRules(kind, p.boolean("test"), frozenset(map(Arm, p.words("arms", arms))),
                            p.boolean("needs_formed", default=False),
                            p.boolean("needs_orders", default=False),
                            p.boolean("same_corps", default=False))
        for kind, p in reaction.enum_keys("kinds", Reaction).items()
    }
    return OpportunityTable(
        e.label, die, charge.integer("need"),
        frozenset(charge.words("targets", CHARGE_TARGETS)),
        charge.modifiers("modifiers", CHARGE_MODIFIERS),
        reaction.integer("need"), reaction.boolean("only_formed"),
        reaction.modifiers("modifiers", REACTION_MODIFIERS), reactions,
        reaction.section("fail").integer("loss_percent", minimum=0),
    )


# --- Rule 7 -----------------------------------------------------------------------------


@dataclass(frozen=True)
class FireTable:
    """Rule 7: dice, range bands by calibre, numbers to hit, and the modifiers."""

    source: str
    die: Die
    count: int
    two_hits_multiplier: int
    bounce_through_inches: Fraction
    friendly_clearance_inches: Fraction
    overhead_behind_friends_inches: Fraction
    ranges: Mapping[Calibre, Mapping[RangeBand, Fraction]]
    to_hit: Mapping[RangeBand, Mapping[Target, int]]
    modifiers: Mapping[str, ModifierEntry]


@cache
def fire_table(ruleset: str) -> FireTable:
    """The validated artillery-fire table of a ruleset."""
    e = Entries.of(ruleset, "fire.toml")
    die, count = e.dice("dice")
    ranges: dict[Calibre, dict[RangeBand, Fraction]] = {}
    range_part = e.section("range")
    for calibre in Calibre:
        bands = range_part.section(calibre.value)
        short, long = bands.inches("short"), bands.inches("long")
        if long <= short:
            raise bands.fail("long", f"should be further than short range ({short} inches)")
        ranges[calibre] = {RangeBand.SHORT: short, RangeBand.LONG: long}
    hit_part = e.section("to_hit")
    to_hit = {}
    for band in RangeBand:
        row = hit_part.section(band.value)
        to_hit[band] = {t: row.integer(t.value, minimum=1) for t in Target}
    return FireTable(e.label, die, count, e.integer("two_hits_multiplier", minimum=1),
                     e.inches("bounce_through_inches"), e.inches("friendly_clearance_inches"),
                     e.inches("overhead_behind_friends_inches"), ranges, to_hit,
                     e.modifiers("modifiers", FIRE_MODIFIERS))


# --- Rule 8 -----------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseRules:
    """One quick result: whom it befalls, how they may escape it and what it does."""

    case: QuickCase
    arms: frozenset[Arm]
    states: frozenset[MoraleState]
    escape: str
    escape_requires: tuple[str, ...]
    casualties: int
    loss_percent: int
    new_state: MoraleState | None
    removed: bool


@dataclass(frozen=True)
class CrestTest:
    """The revision's test for troops behind the crest of a hill."""

    die: Die
    crest_inches: Fraction
    enemy_inches: Fraction
    modifiers: Mapping[str, ModifierEntry]
    results: tuple[tuple[int, MoraleState], ...]   # (up to this total, state), lowest first


@dataclass(frozen=True)
class QuickTable:
    """Rule 8: charges not allowed, distances cavalry keep, the cases and the crest test."""

    source: str
    cavalry_halt_from_square: Fraction
    infantry_approach_inches: Fraction
    cavalry_answers: tuple[str, ...]
    cavalry_may_charge_formed_square: bool
    infantry_may_charge_cavalry: bool
    after_combat_state: MoraleState
    strength: Mapping[Arm, int]
    cases: Mapping[QuickCase, CaseRules]
    crest: CrestTest | None


@cache
def quick_table(ruleset: str) -> QuickTable:
    """The validated quick-results table of a ruleset."""
    e = Entries.of(ruleset, "quick.toml")
    limits = e.section("limits")
    states = tuple(s.value for s in MoraleState)
    arms = tuple(a.value for a in Arm)
    strength_part = e.section("strength")
    strength = {a: strength_part.integer(a.value, minimum=1) for a in Arm}
    cases = {}
    for case, p in e.enum_keys("cases", QuickCase).items():
        removed = p.boolean("removed", default=False)
        casualties = p.integer("casualties", default=0, minimum=0)
        loss = p.integer("loss_percent", default=0, minimum=0)
        new_state = p.text("new_state", states, default="")
        if not (removed or casualties or loss or new_state):
            raise p.fail("new_state", "is missing: the case must do something to the brigade")
        cases[case] = CaseRules(
            case, frozenset(map(Arm, p.words("arms", arms))),
            frozenset(map(MoraleState, p.words("states", states))),
            p.text("escape", default=""),
            p.words("escape_requires", ESCAPE_FACTS, default=[]),
            casualties, loss, MoraleState(new_state) if new_state else None, removed)
    crest = None
    if e.has("crest"):
        c = e.section("crest")
        die, count = c.dice("die")
        if count != 1:
            raise c.fail("die", "should be a single die")
        results: list[tuple[int, MoraleState]] = []
        for row in c.sections("results"):
            up_to = row.integer("up_to")
            if results and up_to <= results[-1][0]:
                raise row.fail("up_to", "should be higher than the row before it")
            results.append((up_to, MoraleState(row.text("state", states))))
        crest = CrestTest(die, c.inches("crest_inches"), c.inches("enemy_inches"),
                          c.modifiers("modifiers", CREST_MODIFIERS), tuple(results))
    return QuickTable(
        e.label, limits.inches("cavalry_halt_from_square_inches"),
        limits.inches("infantry_approach_inches"),
        limits.words("cavalry_answers", ("charge", "withdraw")),
        limits.boolean("cavalry_may_charge_formed_square"),
        limits.boolean("infantry_may_charge_cavalry"),
        MoraleState(e.section("after_combat").text("state", states)),
        strength, cases, crest,
    )
