"""Schema version 2: the validated scenario kept in the file; one column per battle field.

- ``scenario_form`` keeps the scenario as validated when the campaign was made, keyed by the
  hash of its files, so an open no longer parses and validates the TOML again. Files of
  version 1 get it on their first open.
- ``day_battle.reinforcements_json`` (one JSON object for both sides) becomes
  ``french_reinforcements_json`` and ``allied_reinforcements_json``, and
  ``day_command.battle_id`` becomes ``battle``: every column is now its field's name, or the
  field's name with ``_json``.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the scenario's validated form and give each battle field its column."""
    op.create_table(
        "scenario_form",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("files_sha256", sa.String, nullable=False),
        sa.Column("form_json", sa.String, nullable=False),
    )
    with op.batch_alter_table("day_battle") as batch:
        batch.add_column(sa.Column("french_reinforcements_json", sa.String, nullable=False,
                                   server_default="[]"))
        batch.add_column(sa.Column("allied_reinforcements_json", sa.String, nullable=False,
                                   server_default="[]"))
    if op.get_bind().dialect.name == "postgresql":  # a server's campaigns: JSON's own operator
        op.execute(
            "UPDATE day_battle SET "
            "french_reinforcements_json = coalesce((reinforcements_json::json -> 'French')::text,"
            " '[]'), "
            "allied_reinforcements_json = coalesce((reinforcements_json::json -> 'Allied')::text,"
            " '[]')"
        )
    else:
        op.execute(
            "UPDATE day_battle SET "
            "french_reinforcements_json = coalesce(json_extract(reinforcements_json, "
            "'$.French'), '[]'), "
            "allied_reinforcements_json = coalesce(json_extract(reinforcements_json, "
            "'$.Allied'), '[]')"
        )
    with op.batch_alter_table("day_battle") as batch:
        batch.drop_column("reinforcements_json")
        batch.alter_column("french_reinforcements_json", server_default=None)
        batch.alter_column("allied_reinforcements_json", server_default=None)
    with op.batch_alter_table("day_command") as batch:
        batch.alter_column("battle_id", new_column_name="battle")
    op.execute("UPDATE document SET schema_version = 2")
