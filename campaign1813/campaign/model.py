"""The campaign document's tables (sqlmodel).

A campaign is one SQLite file. ``DocumentInfo`` marks the file as ours and records the schema
version; ``CampaignInfo`` holds the campaign's name, dates and settings. Later tables (the map,
the orders of battle, orders, battles and the event log) join this module as they are built.
"""

from datetime import date

from sqlmodel import Field, SQLModel

APPLICATION_ID = "campaign1813"
SCHEMA_VERSION = 1


class DocumentInfo(SQLModel, table=True):
    """One row saying which application wrote the file and in which schema version."""

    __tablename__ = "document"

    id: int = Field(default=1, primary_key=True)
    application: str = APPLICATION_ID
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
