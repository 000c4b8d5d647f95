"""Schema migrations of the campaign file (alembic)."""
