"""The embedded battle-resolution engine.

Pure and deterministic given its dice: dice kinds with exact distributions, the rules of each
ruleset as validated tables plus the procedures that read them, a battle in progress, and
auto-resolution. It imports neither Qt nor the database layer, so every rule is testable alone.
"""
