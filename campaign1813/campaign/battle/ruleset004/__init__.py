"""Ruleset 004: units of four 25 % effectiveness steps, dice per step, alternate moves,
simultaneous fire, melee by a dice matrix, and an army lost below half its units."""
