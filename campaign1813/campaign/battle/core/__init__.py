"""What every ruleset's battle shares: the kept step and its dice, the one outcome value, the
actions' inputs and tables, the auto-resolve results, and the typed :class:`~.engine.Engine`
protocol each ruleset's engine class implements. Imports no ruleset."""
