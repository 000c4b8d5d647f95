"""Rulesets for the battle engine: one table set and procedure module per ruleset."""
