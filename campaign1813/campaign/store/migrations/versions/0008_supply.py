"""Schema version 8: the day keeps the supply rule's state while the rule is on.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``day_info.supply_json``: the supplies of every army group, or NULL while supply is
    not kept (every campaign made before it)."""
    with op.batch_alter_table("day_info") as batch:
        batch.add_column(sa.Column("supply_json", sa.String, nullable=True))
    op.execute("UPDATE document SET schema_version = 8")
