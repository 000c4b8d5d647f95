"""Schema version 4: the campaign's own changes to its scenario's settings.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``day_info.settings_json``: the settings the umpire changed, by name (none yet)."""
    with op.batch_alter_table("day_info") as batch:
        batch.add_column(sa.Column("settings_json", sa.String, nullable=False,
                                   server_default="{}"))
    op.execute("UPDATE document SET schema_version = 4")
