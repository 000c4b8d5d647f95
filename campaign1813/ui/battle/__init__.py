"""The battle window at the table: setup, play one activation at a time, report, auto-resolve."""

from campaign1813.ui.battle.window import BattleWindow

__all__ = ["BattleWindow"]
