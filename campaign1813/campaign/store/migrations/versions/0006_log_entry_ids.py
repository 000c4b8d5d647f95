"""Schema version 6: every log entry has an id of its own that is never given to another.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``event_log.entry``: a random 128-bit id (hex), given to the entries already kept."""
    with op.batch_alter_table("event_log") as batch:
        batch.add_column(sa.Column("entry", sa.String, nullable=True))
    if op.get_bind().dialect.name == "postgresql":  # a server's campaigns: its own random ids
        op.execute("UPDATE event_log SET entry = replace(gen_random_uuid()::text, '-', '')")
    else:
        op.execute("UPDATE event_log SET entry = lower(hex(randomblob(16)))")
    op.create_index("event_log_entry", "event_log", ["entry"], unique=True)
    op.execute("UPDATE document SET schema_version = 6")
