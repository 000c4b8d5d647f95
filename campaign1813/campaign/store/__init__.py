"""The campaign file: its tables, migrations, transactions, stored state and event log."""
