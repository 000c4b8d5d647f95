"""The campaign file's layout at the newest schema revision, as typed SQLModel tables.

A campaign is one SQLite file. ``DocumentInfo`` marks the file as ours and records the schema
version; ``CampaignInfo`` holds the campaign's name, dates and settings; the ``day_*`` tables
hold the campaign day's state, one row per command, order and battle; ``EventRow`` is the log
that undo and redo work on. The migrations in ``migrations/versions`` build exactly this layout
(a test compares them); the store reads and writes it through the standard library's sqlite3.

Columns keep the name of the state's field, or the field's name with ``_json`` for a value kept
as JSON text (positions, lists of names), so one mechanism moves every entity to and from its row.
"""

from datetime import date

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

from campaign1813.campaign.store.version import APPLICATION, SCHEMA_VERSION

# SQLModel too: its metadata holds these tables, for the migrations and the comparison with them
__all__ = ["BattleRow", "CampaignInfo", "CommandRow", "DayRow", "DocumentInfo", "EventRow",
           "FightRow", "FightStepRow", "OrderImportRow", "OrderRow", "ReportRow", "SQLModel",
           "ScenarioFile", "ScenarioForm", "SideKeyRow", "SnapshotRow", "SubmittedRow",
           "TownControlRow"]


class DocumentInfo(SQLModel, table=True):
    """One row saying which application wrote the file and in which schema version."""

    __tablename__ = "document"

    id: int = Field(default=1, primary_key=True)
    application: str = APPLICATION
    schema_version: int = SCHEMA_VERSION
    written_by: str = ""


class CampaignInfo(SQLModel, table=True):
    """The campaign's name, start date, current date and settings (JSON text)."""

    __tablename__ = "campaign"

    id: int = Field(default=1, primary_key=True)
    name: str
    scenario: str = "1813"
    start_date: date
    current_date: date
    settings_json: str = "{}"


class ScenarioFile(SQLModel, table=True):
    """A copy of one scenario file (TOML text), so a campaign never depends on shipped data."""

    __tablename__ = "scenario_file"

    name: str = Field(primary_key=True)
    text: str


class ScenarioForm(SQLModel, table=True):
    """The scenario as validated when the campaign was made (JSON), keyed by the hash of the
    scenario files it came from, so an open reads it without parsing and validating again."""

    __tablename__ = "scenario_form"

    id: int = Field(default=1, primary_key=True)
    files_sha256: str
    form_json: str


class CommandRow(SQLModel, table=True):
    """One army group HQ or corps on the map: where it stands and what state it is in."""

    __tablename__ = "day_command"

    name: str = Field(primary_key=True)
    key: int = Field(index=True)
    side: str
    army: str
    kind: str
    mounted: bool = False
    position_json: str
    status: str = "ready"
    status_date: date | None = None
    battle: int | None = None
    marched: float = 0.0
    halted: bool = False
    casualties_json: str = "[]"


class OrderRow(SQLModel, table=True):
    """An order standing for a command (``pending`` while a messenger is still riding)."""

    __tablename__ = "day_order"

    id: int | None = Field(default=None, primary_key=True)
    command: str = Field(index=True)
    verb: str
    objective: str
    via_json: str = "[]"
    route_json: str = "[]"
    forced: bool = False
    breakout: bool = False
    issued: date
    effective: date
    pending: bool = False


class BattleRow(SQLModel, table=True):
    """A scheduled or fought battle."""

    __tablename__ = "day_battle"

    id: int = Field(primary_key=True)
    date: date
    place: str
    french_json: str = "[]"
    allied_json: str = "[]"
    french_reinforcements_json: str = "[]"
    allied_reinforcements_json: str = "[]"
    attacker: str | None = None
    result: str | None = None
    notes_json: str = "[]"


class TownControlRow(SQLModel, table=True):
    """Which side holds a town."""

    __tablename__ = "town_control"

    town: str = Field(primary_key=True)
    side: str
    since: date | None = None


class ReportRow(SQLModel, table=True):
    """A report of an enemy command to one side (``day.reports.Report``): what was seen of it,
    where, when and how, the day it reaches the side's CinC, and whether it is released."""

    __tablename__ = "day_report"

    id: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    side: str = Field(index=True)
    subject: str
    place: str
    town: str
    seen_day: date
    seen_hour: str
    known_day: date
    how: str
    by: str
    identity: bool
    kind: str
    enemy: str
    band: str
    men: int
    released: bool = False
    note: str = ""


class OrderImportRow(SQLModel, table=True):
    """A side's order form taken in: its number and the digest of what was signed, so the same
    form again changes nothing and another form with its number is refused as a replay."""

    __tablename__ = "order_import"

    nonce: str = Field(primary_key=True)
    digest: str


class SideKeyRow(SQLModel, table=True):
    """The key issued to a side when the campaign was made (hex), with which its order forms
    are signed (HMAC-SHA256). Not part of the day's state: never logged, never undone."""

    __tablename__ = "side_key"

    side: str = Field(primary_key=True)
    key: str


class DayRow(SQLModel, table=True):
    """Whether the current day has marched (its battles may still be waiting for results)."""

    __tablename__ = "day_info"

    id: int = Field(default=1, primary_key=True)
    marched: bool = False
    next_battle: int = 1
    settings_json: str = Field(default="{}", sa_column_kwargs={"server_default": "{}"})
    # the supply rule's state (day/supply_state.py) as JSON, NULL while supply is not kept
    supply_json: str | None = None


class EventRow(SQLModel, table=True):
    """One umpire action: its diary lines and the state before and after it, for undo/redo.

    ``seq`` orders the log, but SQLite gives a deleted row's number again; ``entry`` is the
    action's own id (random, 128 bits), never given to another, by which a window asks to take
    back exactly the action it showed."""

    __tablename__ = "event_log"
    __table_args__ = (Index("event_log_entry", "entry", unique=True),)

    seq: int | None = Field(default=None, primary_key=True)
    entry: str | None = None
    kind: str
    label: str
    date: date
    lines_json: str = "[]"
    payload_json: str = "{}"
    before_json: str
    after_json: str
    undone: bool = False


class SubmittedRow(SQLModel, table=True):
    """An order form a side's player submitted to the club's server (JSON text), with his side
    and login, when it came (the server's time, as text) and what became of it: empty while it
    waits for the umpire, else taken, taken already, or refused and why. Kept by the file too,
    so a campaign pulled from the server keeps the forms still waiting."""

    __tablename__ = "submitted_orders"

    id: int | None = Field(default=None, primary_key=True)
    side: str
    form: str
    login: str
    made: str
    taken: str = ""


class SnapshotRow(SQLModel, table=True):
    """The state at dawn of one day, kept when the day before it closed: its canonical JSON
    compressed with zlib, and the sha256 of that JSON (``store.snapshots``); with both sides'
    moves of the day that ended at it, as JSON (``protocol.side_journals``; none on dawns kept
    before schema 11)."""

    __tablename__ = "day_snapshot"

    day: date = Field(primary_key=True)
    sha256: str
    state: bytes
    journal: str | None = None


class FightRow(SQLModel, table=True):
    """A battle being fought on the table: its setup (JSON), made when it was opened."""

    __tablename__ = "fight"

    battle: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    setup_json: str


class FightStepRow(SQLModel, table=True):
    """One step of a battle in progress: what was done, its report lines, rolls and patch."""

    __tablename__ = "fight_step"

    battle: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    seq: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    kind: str
    label: str
    step_json: str
