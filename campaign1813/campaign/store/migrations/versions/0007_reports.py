"""Schema version 7: the reports each side has of the enemy (record 0025).

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``day_report``: one row per sighting of an enemy command by a side (none yet)."""
    op.create_table(
        "day_report",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("side", sa.String, nullable=False),
        sa.Column("subject", sa.String, nullable=False),
        sa.Column("place", sa.String, nullable=False),
        sa.Column("town", sa.String, nullable=False),
        sa.Column("seen_day", sa.Date, nullable=False),
        sa.Column("seen_hour", sa.String, nullable=False),
        sa.Column("known_day", sa.Date, nullable=False),
        sa.Column("how", sa.String, nullable=False),
        sa.Column("by", sa.String, nullable=False),
        sa.Column("identity", sa.Boolean, nullable=False),
        sa.Column("kind", sa.String, nullable=False),
        sa.Column("enemy", sa.String, nullable=False),
        sa.Column("band", sa.String, nullable=False),
        sa.Column("men", sa.Integer, nullable=False),
        sa.Column("released", sa.Boolean, nullable=False),
        sa.Column("note", sa.String, nullable=False),
    )
    op.create_index("ix_day_report_side", "day_report", ["side"])
    op.execute("UPDATE document SET schema_version = 7")
