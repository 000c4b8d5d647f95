"""The campaign domain and its application services.

Everything an umpire can do lives here as a plain function or command object over a database
session: the campaign document and its tables, scenario loading, the daily cycle of orders,
movement, contact and aftermath, the battle engine, exports, and the command line. Nothing below
this package imports Qt; the import-linter contracts in ``pyproject.toml`` hold that line.
"""
