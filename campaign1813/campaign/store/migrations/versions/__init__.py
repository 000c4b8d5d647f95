"""One alembic revision per schema version."""
