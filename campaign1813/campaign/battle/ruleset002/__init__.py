"""Ruleset 002 (seed 002): units count hits, shooting and cavalry charges are rolled on dice,
commanders and the General rally; side A and side B take each phase in turn.

A package of its own beside the 1813 rules, with the same outer shape: its tables as data
(:mod:`.tables`, checked by :mod:`.schema`), its tests as pure functions with exact odds
(:mod:`.shooting`, :mod:`.charges`, :mod:`.rally`, :mod:`.movement`), the campaign's corps
converted to its units (:mod:`.convert`), a battle in progress (:mod:`.battle`) and auto-resolve
(:mod:`.auto`). The names a battle service needs are reachable from the package itself and
imported only when first asked for:

>>> import campaign1813.campaign.battle.ruleset002 as r
>>> r.ACTIONS[-1], r.resolve.__module__
('override', 'campaign1813.campaign.battle.ruleset002.auto')
"""

from importlib import import_module
from typing import Any

RULESET = "002"

# name → the module that holds it
_FACADE = {
    "ACTIONS": "battle", "act": "battle", "replay": "battle", "report": "battle",
    "decision": "battle", "step_now": "battle", "units_table": "battle",
    "who_acts": "battle", "outcomes": "battle",
    "resolve": "auto", "estimate": "auto",
    "convert": "convert", "mapping_rows": "convert",
    "assumptions": "tables",
}


def __getattr__(name: str) -> Any:
    """The battle interface's names, from the module that holds each."""
    if name in _FACADE:
        return getattr(import_module(f"{__name__}.{_FACADE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
