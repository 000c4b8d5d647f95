"""Ruleset 004 (seed 004): units of four 25 % effectiveness steps, dice per step, alternate
moves, simultaneous fire, melee by a dice matrix with half dice, and an army lost below half its
units.

Its tables as data (:mod:`.tables`, checked by :mod:`.schema`), its tests as pure functions with
exact odds (:mod:`.pools`, :mod:`.fire`, :mod:`.melee`, :mod:`.morale`, :mod:`.movement`), the
campaign's corps converted to its units (:mod:`.convert`), a battle in progress (:mod:`.battle`),
auto-resolve (:mod:`.autoresolve`) and its engine class (:mod:`.engine`).
"""

RULESET = "004"
