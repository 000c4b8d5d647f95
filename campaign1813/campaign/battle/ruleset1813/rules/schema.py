"""The shape of every ruleset file, as pydantic models that also write its JSON Schema.

A model per file (``ruleset.toml``, ``fire.toml``, ``combat.toml`` …) says which entries it has,
which are required, and what kind of value each holds. Validation is strict and refuses unknown
entries, so a table that passes is exactly the dict that was read; what the numbers mean (a band
further than the one before it, a result table with no gaps) is still checked by the modules
that read the tables.

This module is slow to import (pydantic). The loader imports it only for a file whose bytes are
not listed in ``data/rulesets/validated.json``, i.e. a file an umpire has house-ruled; the shipped
files were checked when the manifest was written:

    python -m campaign1813.campaign.battle.ruleset1813.rules.schema docs/schemas

writes the JSON Schema of each file into ``docs/schemas/`` and rewrites the manifest.

>>> check_table("ruleset.toml", {"name": "house", "extends": 1813}, "house/ruleset.toml")
Traceback (most recent call last):
...
campaign1813.campaign.battle.files.RulesetError: house/ruleset.toml: extends: should be \
text, not 1813
"""

from __future__ import annotations

import json
import sys
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from campaign1813.campaign.battle.files import (
    MANIFEST,
    RulesetError,
    content_hash,
    rulesets_root,
)
from campaign1813.campaign.battle.registry import ruleset_names
from campaign1813.campaign.battle.schema_base import (
    AdvanceDuty,
    ArmName,
    CavalryAnswer,
    ChargeLicence,
    ChargeTarget,
    Clause,
    Count,
    Dice,
    DieName,
    EscapeFact,
    Facts,
    FireLicence,
    Inches,
    InfantryCharge,
    OrderName,
    Positive,
    PursuitAction,
    RoutAction,
    RuleNumber,
    RulesetFile,
    Share,
    SpotterName,
    StateName,
    Table,
    TomlJsonSchema,
    check_against,
)

# --- shared pieces ------------------------------------------------------------------------


class Graded(Table):
    """A whole number for each commander grade."""

    gifted: int = Field(alias="Gifted")
    average: int = Field(alias="Average")
    poor: int = Field(alias="Poor")


class GradedCost(Table):
    """A cost in pips for each commander grade."""

    gifted: Count = Field(alias="Gifted")
    average: Count = Field(alias="Average")
    poor: Count = Field(alias="Poor")


class Modifier(Table):
    """A modifier the code knows how to apply: its value and how it is shown."""

    value: int
    label: str


class Factor(Table):
    """A combat factor or modifier: applies when its ``when`` holds, times its ``per`` count."""

    key: str
    label: str
    value: int
    when: Clause | list[Clause] | None = None
    """Facts that must all hold (a table), or a list of such tables of which one must hold."""
    per: str | None = None
    """A count (such as casualties) the value is multiplied by."""
    group: str | None = None
    """Among factors sharing a group only the largest applies."""


class ByArm(Table):
    """A whole number for each arm."""

    infantry: Count
    cavalry: Count
    artillery: Count


# --- spotting.toml (Rule 1) ---------------------------------------------------------------


class SpotBand(Table):
    """Out to ``up_to`` inches a target is spotted automatically, or on ``need`` or more."""

    up_to: Inches
    automatic: bool = False
    need: Positive | None = None


class SpotBands(Table):
    """The bands for each kind of cover, nearest first."""

    open: list[SpotBand]
    screened: list[SpotBand]
    cover: list[SpotBand]


class BlindPips(Table):
    """The pips of a corps moving on blinds: a die plus the commander's bonus."""

    die: Dice
    bonus: Graded


class SpottingFile(Table):
    """``spotting.toml``: Rule 1, blinds and spotting."""

    die: Dice
    spotters: list[SpotterName]
    blind_pips: BlindPips
    bands: SpotBands


# --- command.toml (Rules 2 and 3) ---------------------------------------------------------


class Pips(Table):
    """The pips roll: a die plus the commander's bonus."""

    die: Dice
    bonus: Graded


class CincCosts(Table):
    """What the commander-in-chief's actions cost."""

    inches_per_pip: Inches
    multiple_move_clear_inches: Inches
    change_corps_orders: GradedCost
    give_move: GradedCost


class CorpsCosts(Table):
    """Pips a corps commander spends on each action."""

    move: Count
    change_formation: Count
    artillery_action: Count
    infantry_fire: Count
    retire_half_move: Count
    half_move_and_change_formation: Count
    artillery_two_actions: Count
    swap_brigades: Count
    rally: Count
    garrison: Count


class CorpsCommand(Table):
    """A corps commander's reach and costs."""

    command_inches: Inches
    base_contact_nations: list[str]
    halt_reach_inches: Inches
    swap_behind_inches: Inches
    costs: CorpsCosts
    change_to_halt: GradedCost


class CommandFile(Table):
    """``command.toml``: Rules 2 and 3, pips and what things cost."""

    pips: Pips
    cinc: CincCosts
    corps: CorpsCommand


# --- orders.toml (Rule 4) -----------------------------------------------------------------


class OrderRules(Table):
    """What one corps order allows and obliges."""

    must_advance: AdvanceDuty
    may_approach: bool
    closest_open: Inches | None = None
    closest_difficult: Inches | None = None
    cavalry_charge: ChargeLicence
    cavalry_charge_inches: Inches | None = None
    infantry_fire: FireLicence
    infantry_fire_inches: Inches | None = None
    infantry_charge: InfantryCharge
    may_retire: bool
    beyond_objective: bool
    must_attack: bool = False
    counter_attack_if_forced_back: bool = False


class Orders(Table):
    """The rules of every corps order."""

    entry: ClassVar[str] = "order"

    move: OrderRules = Field(alias="Move")
    halt: OrderRules = Field(alias="Halt")
    hold: OrderRules = Field(alias="Hold")
    engage: OrderRules = Field(alias="Engage")
    attack: OrderRules = Field(alias="Attack")
    withdraw: OrderRules = Field(alias="Withdraw")
    rally: OrderRules = Field(alias="Rally")


class DefenceZone(Table):
    """The zone in front of a brigade that only troops on some orders may enter."""

    inches: Inches
    enter_on: list[OrderName]


class OrdersFile(Table):
    """``orders.toml``: Rule 4, corps orders, and the defence zone."""

    orders: Orders
    defence_zone: DefenceZone


# --- movement.toml (Rule 5) ---------------------------------------------------------------


class Allowance(Table):
    """Inches moved in one move, for each kind of mover."""

    entry: ClassVar[str] = "mover"

    general: Inches
    light_cavalry_column: Inches
    light_cavalry_line: Inches
    heavy_cavalry_column: Inches
    heavy_cavalry_line: Inches
    horse_artillery_limbered: Inches
    foot_artillery_limbered: Inches
    infantry_column_of_march: Inches
    infantry_column_of_attack: Inches
    infantry_line: Inches
    infantry_square: Inches
    manhandle_light: Inches
    manhandle_medium: Inches
    manhandle_heavy: Inches


class Blinds(Table):
    """Inches a blind moves per pip, singly and on a multiple move."""

    single_inches_per_pip: Inches
    multiple_inches_per_pip: Inches


class MultipleMoves(Table):
    """How far the enemy must be for more than one move in an activation."""

    general_clear_inches: Inches
    brigade_clear_inches: Inches


class DifficultTerrain(Table):
    """The share of its allowance a brigade moves in difficult terrain."""

    fraction: Share


class MovementFile(Table):
    """``movement.toml``: Rule 5, movement allowances."""

    allowance: Allowance
    blinds: Blinds
    multiple_moves: MultipleMoves
    difficult_terrain: DifficultTerrain


# --- opportunity.toml (Rule 6) ------------------------------------------------------------


class ChargeModifiers(Table):
    """The charge-test modifiers this ruleset uses, of those the code knows."""

    entry: ClassVar[str] = "modifier"

    a_class: Modifier | None = None
    c_class: Modifier | None = None
    commander_within_4: Modifier | None = None
    poor_commander: Modifier | None = None
    flank_or_rear: Modifier | None = None
    no_commander_within_8: Modifier | None = None
    casualty: Modifier | None = None


class ReactionModifiers(Table):
    """The reaction-test modifiers this ruleset uses, of those the code knows."""

    entry: ClassVar[str] = "modifier"

    a_class: Modifier | None = None
    c_class: Modifier | None = None
    general_within_4: Modifier | None = None
    poor_commander: Modifier | None = None
    flank_or_rear: Modifier | None = None
    cavalry: Modifier | None = None
    casualty: Modifier | None = None


class Charge(Table):
    """The charge test: the number needed, who may be charged, the modifiers."""

    need: int
    targets: list[ChargeTarget]
    modifiers: ChargeModifiers


ReactionName = Literal["evade", "counter_charge", "change_formation", "turn_to_face",
                       "intercept", "form_square"]


class ReactionKind(Table):
    """One reaction open to the target of a charge."""

    test: bool
    arms: list[ArmName]
    needs_formed: bool = False
    needs_orders: bool = False
    same_corps: bool = False


class ReactionKinds(Table):
    """The reactions this ruleset allows, of those the code knows."""

    entry: ClassVar[str] = "reaction"

    evade: ReactionKind | None = None
    counter_charge: ReactionKind | None = None
    change_formation: ReactionKind | None = None
    turn_to_face: ReactionKind | None = None
    intercept: ReactionKind | None = None
    form_square: ReactionKind | None = None


class ReactionFail(Table):
    """What failing the reaction test costs."""

    loss_percent: Count


class ChargeReaction(Table):
    """The target's reaction test, its modifiers and reactions."""

    need: int
    only_formed: bool
    # Rule 18: the reactions cavalry not formed make only after making morale (Rule 17)
    unformed_cavalry_morale: list[ReactionName] = []
    modifiers: ReactionModifiers
    kinds: ReactionKinds
    fail: ReactionFail


class OpportunityFile(Table):
    """``opportunity.toml``: Rule 6, opportunity charges and the target's reaction."""

    die: Dice
    charge: Charge
    reaction: ChargeReaction


# --- fire.toml (Rule 7) -------------------------------------------------------------------


class RangeBands(Table):
    """Short range up to the first limit, long range up to the second (inches)."""

    short: Inches
    long: Inches


class Ranges(Table):
    """The range bands of each calibre."""

    entry: ClassVar[str] = "calibre"

    heavy: RangeBands = Field(alias="12")
    medium: RangeBands = Field(alias="8-9")
    light: RangeBands = Field(alias="4-6")


class ToHit(Table):
    """The number needed to hit each kind of target."""

    entry: ClassVar[str] = "target"

    infantry: Positive
    cavalry: Positive
    woods: Positive
    buildings: Positive
    artillery: Positive


class ToHitBands(Table):
    """The numbers needed at short and at long range."""

    short: ToHit
    long: ToHit


class FireModifiers(Table):
    """The fire modifiers this ruleset uses, of those the code knows."""

    entry: ClassVar[str] = "modifier"

    a_class_gunners: Modifier | None = None
    c_class_gunners: Modifier | None = None
    gunner_casualty: Modifier | None = None
    bounce_through: Modifier | None = None


class FireFile(Table):
    """``fire.toml``: Rule 7, artillery fire."""

    dice: Dice
    two_hits_multiplier: Positive
    bounce_through_inches: Inches
    friendly_clearance_inches: Inches
    overhead_behind_friends_inches: Inches
    range: Ranges
    to_hit: ToHitBands
    modifiers: FireModifiers


# --- quick.toml (Rule 8) ------------------------------------------------------------------


class Limits(Table):
    """Distances cavalry keep, and charges not allowed at all."""

    cavalry_halt_from_square_inches: Inches
    infantry_approach_inches: Inches
    cavalry_answers: list[CavalryAnswer]
    cavalry_may_charge_formed_square: bool
    infantry_may_charge_cavalry: bool


class AfterCombat(Table):
    """The state everyone ends a hand-to-hand combat in, unless already worse."""

    state: StateName


class QuickCaseRules(Table):
    """One quick result: whom it befalls, how they may escape, what it does."""

    arms: list[ArmName]
    states: list[StateName]
    escape: str = ""
    escape_requires: list[EscapeFact] = []
    casualties: Count = 0
    loss_percent: Count = 0
    new_state: StateName | None = None
    removed: bool = False


class QuickCases(Table):
    """The quick results this ruleset has, of those the code knows."""

    entry: ClassVar[str] = "case"

    column_of_march_contacted_by_cavalry: QuickCaseRules | None = None
    limbered_artillery_contacted_by_cavalry: QuickCaseRules | None = None
    deployed_artillery_charged: QuickCaseRules | None = None
    routers_contacted: QuickCaseRules | None = None
    shaken_contacted: QuickCaseRules | None = None
    caught_in_flank_or_rear: QuickCaseRules | None = None
    gunners_contacted_by_infantry: QuickCaseRules | None = None


class CrestModifiers(Table):
    """The crest-test modifiers this ruleset uses, of those the code knows."""

    entry: ClassVar[str] = "modifier"

    british_or_a_class: Modifier | None = None
    c_class: Modifier | None = None


class CrestRow(Table):
    """Totals up to ``up_to`` give this state."""

    up_to: int
    state: StateName


class Crest(Table):
    """The revision's test for troops behind the crest of a hill."""

    die: Dice
    crest_inches: Inches
    enemy_inches: Inches
    modifiers: CrestModifiers
    results: list[CrestRow]


class QuickFile(Table):
    """``quick.toml``: Rule 8, quick results."""

    limits: Limits
    after_combat: AfterCombat
    strength: ByArm
    cases: QuickCases
    crest: Crest | None = None


# --- combat.toml (Rules 9-15) -------------------------------------------------------------


class CombatRule(Table):
    """One combat rule: which arms fight, the facts and factors, the result table read."""

    title: str
    arms: Annotated[list[ArmName], Field(min_length=2, max_length=2)]
    table: str
    hand_to_hand: bool
    initiated: bool = True
    orders: list[OrderName] = []
    """The orders the attacker's corps must have (none: any)."""
    facts: Facts = {}
    factors: list[Factor]


class RowEffect(Table):
    """What one row of a result table does to one side."""

    entry: ClassVar[str] = "effect"

    casualties: Count = 0
    state: StateName | None = None
    retire: Count = 0
    halt: Count = 0


class ResultRow(Table):
    """One row: the totals it covers, its result, and its effect on each role."""

    min: int
    max: int | None = None
    result: str
    winner: RowEffect | None = None
    loser: RowEffect | None = None
    infantry: RowEffect | None = None
    cavalry: RowEffect | None = None
    artillery: RowEffect | None = None


class ResultRows(Table):
    """The rows read whoever rolls (``any``), or when an arm rolls."""

    any: list[ResultRow] | None = None
    infantry: list[ResultRow] | None = None
    cavalry: list[ResultRow] | None = None
    artillery: list[ResultRow] | None = None


class ResultTable(Table):
    """A result table and its title."""

    title: str
    rows: ResultRows


class Skirmish(Table):
    """Rule 11: the die, the total that kills, casualties per kill, the modifiers."""

    title: str
    die: DieName
    kill_at: int
    casualties: Count
    orders: list[OrderName] = []
    """The orders the skirmishing brigade's corps must have (none: any)."""
    facts: Facts = {}
    modifiers: list[Factor]


class CombatFile(Table):
    """``combat.toml``: Rules 9-15, combat factors and result tables."""

    rules: dict[RuleNumber, CombatRule]
    tables: dict[str, ResultTable]
    skirmish: Skirmish


# --- morale.toml (Rules 16-18) ------------------------------------------------------------


class MoraleTest(Table):
    """Rule 17: the die, the totals that pass or leave a brigade Shaken, the modifiers."""

    title: str
    die: DieName
    pass_at: Annotated[int, Field(ge=1)]
    """The lowest total that passes (a test that every brigade passes is no test)."""
    shaken_at: int
    facts: Facts = {}
    conflicts: list[Annotated[list[str], Field(min_length=2, max_length=2)]] = []
    """Pairs of facts that cannot hold together."""
    modifiers: list[Factor]


class RoutMove(Table):
    """Rule 16: how far routers move."""

    move: ByArm


class RoutReaction(Table):
    """Rule 16: what a rout does to friendly troops nearby, by their state."""

    within: Inches = 4
    rout: RoutAction = "removed"
    shaken: RoutAction = "rout"
    other: RoutAction = "test"
    routed_through_state: StateName = "disordered"
    involved_state: StateName = "disordered"


class PursuitRow(Table):
    """One pursuit result: its faces, what the cavalry do, how far, casualties caused."""

    min: int
    max: int
    action: PursuitAction
    result: str
    move: Count = 0
    within: Count = 0
    casualties: Count = 0


class Pursuit(Table):
    """Rule 16: whether cavalry that caused a rout pursue, and what the pursuit does."""

    die: DieName
    pursue_at: int
    nations: dict[str, int] = {}
    """Nations that pursue on a lower roll."""
    results: list[PursuitRow]
    rally_pass: StateName
    rally_fail: StateName


class Rally(Table):
    """Rule 18: the state a passed rally test moves a brigade to."""

    pip_cost: Count = 1
    rout: StateName | None = None
    shaken: StateName | None = None
    end_of_sequence: dict[StateName, StateName]


class Army(Table):
    """The army break point: broken states, and the shares that break a corps or a side."""

    broken_states: list[StateName]
    corps_breaks_at: Share
    side_loses_at: Share


class MoraleFile(Table):
    """``morale.toml``: Rules 16-18, morale, rout and rally, and the army break point."""

    test: MoraleTest
    automatic_rout: ByArm
    rout: RoutMove
    reaction: RoutReaction | None = None
    pursuit: Pursuit
    rally: Rally
    army: Army


MODELS: dict[str, type[Table]] = {
    "ruleset.toml": RulesetFile,
    "spotting.toml": SpottingFile,
    "command.toml": CommandFile,
    "orders.toml": OrdersFile,
    "movement.toml": MovementFile,
    "opportunity.toml": OpportunityFile,
    "fire.toml": FireFile,
    "quick.toml": QuickFile,
    "combat.toml": CombatFile,
    "morale.toml": MoraleFile,
}


# --- checking ------------------------------------------------------------------------------


def check_table(filename: str, data: Mapping[str, Any], label: str) -> None:
    """Refuse a ruleset file that does not fit its model, naming the file, entry and reason."""
    check_against(MODELS, "a ruleset has", filename, data, label)


# --- the schema files and the manifest ----------------------------------------------------


def schema_name(filename: str) -> str:
    """The name of a ruleset file's JSON Schema: ``ruleset.json``, ``ruleset-fire.json`` …."""
    stem = filename.removesuffix(".toml")
    return "ruleset.json" if stem == "ruleset" else f"ruleset-{stem}.json"


def json_schema(filename: str) -> dict[str, Any]:
    """The JSON Schema of one ruleset file."""
    schema = MODELS[filename].model_json_schema(by_alias=True, schema_generator=TomlJsonSchema)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": schema_name(filename), **schema}


def schema_text(filename: str) -> str:
    """The JSON Schema of one ruleset file as it is written to disk."""
    return json.dumps(json_schema(filename), indent=2, ensure_ascii=False) + "\n"


def validated_files() -> dict[str, str]:
    """``ruleset/file`` → content hash of every shipped ruleset file; refuses one that fails."""
    out: dict[str, str] = {}
    root = rulesets_root()
    for name in ruleset_names():
        for path in sorted((root / name).iterdir(), key=lambda p: p.name):
            if not path.name.endswith(".toml"):
                continue
            label = f"{name}/{path.name}"
            raw = path.read_bytes()
            try:
                data = tomllib.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
                raise RulesetError(f"{label}: {exc}") from exc
            check_table(path.name, data, label)
            out[label] = content_hash(raw)
    return out


def manifest_text() -> str:
    """The manifest of shipped, validated ruleset files as it is written to disk."""
    body = {
        "about": "SHA-256 of each shipped ruleset file that the models in "
                 "campaign1813/campaign/battle/ruleset1813/rules/schema.py accept. The loader "
                 "validates only files not listed here. Rewritten by "
                 "`python -m campaign1813.campaign.battle.ruleset1813.rules.schema docs/schemas`.",
        "files": validated_files(),
    }
    return json.dumps(body, indent=2) + "\n"


def write(folder: Path) -> list[Path]:
    """Write every file's JSON Schema into ``folder`` and rewrite the manifest."""
    manifest = manifest_text()  # first, so a shipped file that fails writes nothing
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for filename in MODELS:
        path = folder / schema_name(filename)
        path.write_text(schema_text(filename), encoding="utf-8")
        written.append(path)
    target = Path(str(rulesets_root() / MANIFEST))
    target.write_text(manifest, encoding="utf-8")
    written.append(target)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m campaign1813.campaign.battle.ruleset1813.rules.schema FOLDER``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m campaign1813.campaign.battle.ruleset1813.rules.schema FOLDER",
              file=sys.stderr)
        return 2
    try:
        written = write(Path(args[0]))
    except RulesetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
