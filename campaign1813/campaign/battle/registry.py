"""The rulesets a battle can be fought by, each named to the engine class that plays it (after
python-chess's ``VARIANTS`` / ``find_variant``): :func:`find_ruleset` gives a ruleset's
:class:`~.core.engine.Engine`, importing its package only when it is first asked for (one of
the few places an import is put off), and :func:`register` adds a ruleset from outside
without editing this module.

The 1813 engine also plays every data folder under ``data/rulesets/`` that no other engine
claims (a house-ruled copy of the 1813 tables); a registered ruleset needs no data folder.

>>> find_ruleset("1813").ruleset, find_ruleset("002").ruleset
('1813', '002')
>>> [a.name for a in find_ruleset("002").actions][-2:]
['override', 'finish']
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, Any

from campaign1813.campaign.battle.files import data_folders
from campaign1813.errors import CampaignError

# the protocol's module imports the battle's setup and steps, which `odds` needs neither of
if TYPE_CHECKING:
    from campaign1813.campaign.battle.core.engine import Engine

__all__ = ["DEFAULT_RULESET", "RULESETS", "UnknownRuleset", "find_ruleset", "register",
           "unregister", "ruleset_names", "all_ruleset_names", "own_engine"]

# The ruleset a battle is fought by unless the umpire names another.
DEFAULT_RULESET = "1813"

# What makes an engine: a class (or any callable) taking the ruleset's name, or the dotted path
# ``package.module:Class`` of one, imported when the ruleset is first asked for.
EngineMaker = Callable[[str], "Engine[Any]"]

# ruleset name → its engine class, or where it lives
RULESETS: dict[str, str | EngineMaker] = {
    "1813": "campaign1813.campaign.battle.ruleset1813.engine:Engine1813",
    "1813-revised": "campaign1813.campaign.battle.ruleset1813.engine:Engine1813",
    "002": "campaign1813.campaign.battle.ruleset002.engine:Engine002",
    "004": "campaign1813.campaign.battle.ruleset004.engine:Engine004",
}


class UnknownRuleset(CampaignError):
    """A ruleset name that no registered ruleset and no data folder has."""


def register(name: str, engine: str | EngineMaker) -> None:
    """Add a ruleset: its name and its engine class (or the ``module:Class`` path of one);
    refused for a name already taken."""
    if name in RULESETS:
        raise ValueError(f"a ruleset called '{name}' is already registered")
    RULESETS[name] = engine


def unregister(name: str) -> None:
    """Take a registered ruleset away again."""
    if name not in RULESETS:
        raise UnknownRuleset(f"no ruleset called '{name}' is registered")
    del RULESETS[name]


def own_engine(name: str) -> str | None:
    """Where the engine of a ruleset with an engine of its own lives (``module:Class``), None
    for a ruleset the default (1813) engine plays or a name not registered."""
    found = RULESETS.get(name)
    if found is None or found == RULESETS[DEFAULT_RULESET]:
        return None
    return found if isinstance(found, str) else f"{found.__module__}:{found.__qualname__}"


def _maker(entry: str | EngineMaker) -> EngineMaker:
    if not isinstance(entry, str):
        return entry
    module, _, attribute = entry.partition(":")
    made: EngineMaker = getattr(import_module(module), attribute)
    return made


def ruleset_names() -> tuple[str, ...]:
    """The data folders the default (1813) engine reads: those no other engine claims."""
    default = RULESETS[DEFAULT_RULESET]
    return tuple(n for n in data_folders() if RULESETS.get(n, default) == default)


def all_ruleset_names() -> tuple[str, ...]:
    """Every ruleset a battle can be fought by: the registered ones and the data folders."""
    return tuple(sorted({*RULESETS, *data_folders()}))


def find_ruleset(name: str) -> Engine[Any]:
    """The engine of a ruleset, or a refusal listing the rulesets there are."""
    if name in RULESETS:
        return _maker(RULESETS[name])(name)
    if name in ruleset_names():
        return _maker(RULESETS[DEFAULT_RULESET])(name)
    raise UnknownRuleset(f"no ruleset called '{name}' (rulesets: "
                         f"{', '.join(all_ruleset_names())})")
