"""Schema version 5: battles in progress, each its setup and the steps taken since.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``fight`` (a battle's setup, JSON) and ``fight_step`` (each step taken, JSON)."""
    op.create_table(
        "fight",
        sa.Column("battle", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("setup_json", sa.String, nullable=False),
    )
    op.create_table(
        "fight_step",
        sa.Column("battle", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String, nullable=False),
        sa.Column("label", sa.String, nullable=False),
        sa.Column("step_json", sa.String, nullable=False),
    )
    op.execute("UPDATE document SET schema_version = 5")
