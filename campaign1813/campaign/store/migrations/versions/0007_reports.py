"""Schema version 7: what each side knows (record 0025): the reports each side has of the
enemy, the orders imported from the sides' order forms, and the key issued to each side.

Revision ID: 0007
Revises: 0006
"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``day_report`` (one row per sighting of an enemy command by a side), ``order_import``
    (each order form imported, by its number) and ``side_key`` (a key for each side)."""
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
    op.create_table(
        "order_import",
        sa.Column("nonce", sa.String, primary_key=True),
        sa.Column("digest", sa.String, nullable=False),
    )
    op.create_table(
        "side_key",
        sa.Column("side", sa.String, primary_key=True),
        sa.Column("key", sa.String, nullable=False),
    )
    # each side's key: 256 random bits, issued once, never logged nor undone (made here, not by
    # the database, whose random functions differ between SQLite and PostgreSQL)
    op.get_bind().execute(sa.text("INSERT INTO side_key (side, key) VALUES (:side, :key)"),
                          [{"side": side, "key": secrets.token_hex(32)}
                           for side in ("French", "Allied")])
    op.execute("UPDATE document SET schema_version = 7")
