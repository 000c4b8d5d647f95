"""Schema version 1: the campaign, its scenario files, the campaign day and the event log.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """The layout of the first release, exactly as its files have it."""
    op.create_table(
        "document",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("application", sa.String, nullable=False),
        sa.Column("schema_version", sa.Integer, nullable=False),
        sa.Column("written_by", sa.String, nullable=False),
    )
    op.create_table(
        "campaign",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("scenario", sa.String, nullable=False),
        sa.Column("start_date", sa.Date, nullable=False),
        sa.Column("current_date", sa.Date, nullable=False),
        sa.Column("settings_json", sa.String, nullable=False),
    )
    op.create_table(
        "scenario_file",
        sa.Column("name", sa.String, primary_key=True),
        sa.Column("text", sa.String, nullable=False),
    )
    op.create_table(
        "day_command",
        sa.Column("name", sa.String, primary_key=True),
        sa.Column("key", sa.Integer, nullable=False),
        sa.Column("side", sa.String, nullable=False),
        sa.Column("army", sa.String, nullable=False),
        sa.Column("kind", sa.String, nullable=False),
        sa.Column("mounted", sa.Boolean, nullable=False),
        sa.Column("position_json", sa.String, nullable=False),
        sa.Column("status", sa.String, nullable=False),
        sa.Column("status_date", sa.Date),
        sa.Column("battle_id", sa.Integer),
        sa.Column("marched", sa.Float, nullable=False),
        sa.Column("halted", sa.Boolean, nullable=False),
        sa.Column("casualties_json", sa.String, nullable=False),
    )
    op.create_index("ix_day_command_key", "day_command", ["key"])
    op.create_table(
        "day_order",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("command", sa.String, nullable=False),
        sa.Column("verb", sa.String, nullable=False),
        sa.Column("objective", sa.String, nullable=False),
        sa.Column("via_json", sa.String, nullable=False),
        sa.Column("route_json", sa.String, nullable=False),
        sa.Column("forced", sa.Boolean, nullable=False),
        sa.Column("breakout", sa.Boolean, nullable=False),
        sa.Column("issued", sa.Date, nullable=False),
        sa.Column("effective", sa.Date, nullable=False),
        sa.Column("pending", sa.Boolean, nullable=False),
    )
    op.create_index("ix_day_order_command", "day_order", ["command"])
    op.create_table(
        "day_battle",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("date", sa.Date, nullable=False),
        sa.Column("place", sa.String, nullable=False),
        sa.Column("french_json", sa.String, nullable=False),
        sa.Column("allied_json", sa.String, nullable=False),
        sa.Column("reinforcements_json", sa.String, nullable=False),
        sa.Column("attacker", sa.String),
        sa.Column("result", sa.String),
        sa.Column("notes_json", sa.String, nullable=False),
    )
    op.create_table(
        "town_control",
        sa.Column("town", sa.String, primary_key=True),
        sa.Column("side", sa.String, nullable=False),
    )
    op.create_table(
        "day_info",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("marched", sa.Boolean, nullable=False),
        sa.Column("next_battle", sa.Integer, nullable=False),
    )
    op.create_table(
        "event_log",
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String, nullable=False),
        sa.Column("label", sa.String, nullable=False),
        sa.Column("date", sa.Date, nullable=False),
        sa.Column("lines_json", sa.String, nullable=False),
        sa.Column("payload_json", sa.String, nullable=False),
        sa.Column("before_json", sa.String, nullable=False),
        sa.Column("after_json", sa.String, nullable=False),
        sa.Column("undone", sa.Boolean, nullable=False),
    )
