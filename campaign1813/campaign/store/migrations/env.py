"""Alembic's environment: migrations run on the connection the store hands over, never a URL."""

from alembic import context

from campaign1813.campaign.store.schema import SQLModel

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=SQLModel.metadata,
                  render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
