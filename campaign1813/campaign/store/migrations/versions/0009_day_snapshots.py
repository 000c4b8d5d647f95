"""Schema version 9: the campaign day by day (record 0030): the state at dawn of each day,
kept when the day before it closed, compressed, with its hash.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``day_snapshot``: one row per day whose dawn was kept (the days closed before this
    version have none; ``campaign1813 verify`` says so)."""
    op.create_table(
        "day_snapshot",
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("sha256", sa.String, nullable=False),
        sa.Column("state", sa.LargeBinary, nullable=False),
    )
    op.execute("UPDATE document SET schema_version = 9")
