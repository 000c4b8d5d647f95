"""Schema version 11: each side's diary of its own commands' days, kept beside the dawn it
ends at (record 0034), so a side's view no longer decodes every kept dawn.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``day_snapshot.journal``: both sides' moves of the day that ended at the dawn, as
    JSON (empty on the dawns kept before this version: worked out from the dawns when read,
    and kept when the next day closes)."""
    with op.batch_alter_table("day_snapshot") as batch:
        batch.add_column(sa.Column("journal", sa.String, nullable=True))
    op.execute("UPDATE document SET schema_version = 11")
