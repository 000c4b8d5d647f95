"""Schema version 3: the day each town passed to its holder, for the objectives.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``town_control.since``; towns held before this version have no date (from the
    start, as far as the file knows)."""
    with op.batch_alter_table("town_control") as batch:
        batch.add_column(sa.Column("since", sa.Date, nullable=True))
    op.execute("UPDATE document SET schema_version = 3")
