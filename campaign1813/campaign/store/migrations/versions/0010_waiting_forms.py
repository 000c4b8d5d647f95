"""Schema version 10: the order forms the sides' players submitted are part of the campaign
(record 0032): ``submitted_orders``, one row per form with what became of it, in the file as on
a club's server, so that ``pull`` loses none still waiting and ``push`` carries them back.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

# the row-level security of a server campaign's forms (store/club.py), made again after this
_POLICIES = ("submits_own_side", "reads_own_side", "umpire_marks")


def upgrade() -> None:
    """Add ``submitted_orders`` (a server campaign whose members' tables were laid out before
    this version keeps its forms, its columns brought to the declared ones)."""
    bind = op.get_bind()
    if bind.dialect.name == "postgresql" and sa.inspect(bind).has_table("submitted_orders"):
        for name in _POLICIES:  # a column a policy names cannot change its type
            op.execute(f"DROP POLICY IF EXISTS {name} ON submitted_orders")
        op.execute("ALTER TABLE submitted_orders ALTER COLUMN made DROP DEFAULT")
        op.execute("ALTER TABLE submitted_orders ALTER COLUMN id TYPE integer, "
                   "ALTER COLUMN side TYPE varchar, ALTER COLUMN form TYPE varchar USING "
                   "form::text, ALTER COLUMN login TYPE varchar, ALTER COLUMN made TYPE varchar "
                   "USING made::text, ALTER COLUMN taken TYPE varchar")
    else:
        op.create_table(
            "submitted_orders",
            sa.Column("id", sa.Integer, primary_key=True),
            sa.Column("side", sa.String, nullable=False),
            sa.Column("form", sa.String, nullable=False),
            sa.Column("login", sa.String, nullable=False),
            sa.Column("made", sa.String, nullable=False),
            sa.Column("taken", sa.String, nullable=False, server_default=""),
        )
    op.execute("UPDATE document SET schema_version = 10")
