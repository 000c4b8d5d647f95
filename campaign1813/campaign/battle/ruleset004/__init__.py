"""Ruleset 004 (seed 004): units of four 25 % effectiveness steps, dice per step, alternate
moves, simultaneous fire, melee by a dice matrix with half dice, and an army lost below half its
units.

A package of its own beside the 1813 rules, with the same outer shape: its tables as data
(:mod:`.tables`, checked by :mod:`.schema`), its tests as pure functions with exact odds
(:mod:`.pools`, :mod:`.fire`, :mod:`.melee`, :mod:`.morale`, :mod:`.movement`), the campaign's
corps converted to its units (:mod:`.convert`), a battle in progress (:mod:`.battle`) and
auto-resolve (:mod:`.autoresolve`). The names a battle service needs are reachable from the
package itself and imported only when first asked for:

>>> import campaign1813.campaign.battle.ruleset004 as r
>>> r.ACTIONS[0], r.resolve.__module__
('national', 'campaign1813.campaign.battle.ruleset004.autoresolve')
"""

from importlib import import_module
from typing import Any

RULESET = "004"

# name → the module that holds it
_FACADE = {
    "ACTIONS": "battle", "act": "battle", "replay": "battle", "report": "battle",
    "decision": "battle", "step_now": "battle", "units_table": "battle",
    "who_acts": "battle", "outcomes": "battle",
    "resolve": "autoresolve", "estimate": "autoresolve",
    "convert": "convert", "mapping_rows": "convert",
    "assumptions": "tables",
}


def __getattr__(name: str) -> Any:
    """The battle interface's names, from the module that holds each."""
    if name in _FACADE:
        return getattr(import_module(f"{__name__}.{_FACADE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
