"""Two processes acting on one battle at the same moment: every pair of the actions a battle
can take (set up on the table, a step of the fight, auto-resolve, a typed result, merge, split,
postpone), each pair raced by two forked processes. The file must then hold exactly what one
of the two serial orders gives, with the same acknowledgements and refusals: whatever decides
an action is read inside its write transaction, so no race lets a battle be both auto-resolved
and on the table, or merged away while it is postponed.

Each pair is raced ``RACE_ROUNDS`` times (once in ``make test``; ``make fuzz`` races each
pair five times)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from itertools import combinations_with_replacement, permutations
from pathlib import Path
from typing import Any

import pytest

from campaign1813.campaign import services
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.store.document import CampaignBusy, CampaignDocument, open_campaign
from tests.day.test_scenarios import battle_setup
from tests.store.test_concurrency import contents, race

Action = Callable[[CampaignDocument], services.Changes]
Outcome = tuple[str, str]  # ("acknowledged", label) | ("refused", reason) | ("busy", message)

RACE_ROUNDS = 5 if int(os.environ.get("FUZZ_EXAMPLES", 0)) >= 1000 else 1

# The actions on battle 1 (the battle of Fenwick, 3 May 1813: 1 Corps attacking I Corps, with
# 2 Corps and II Corps marching to the guns).
ACTIONS: dict[str, Action] = {
    "setup": lambda doc: services.open_battle(doc, 1, seed=5),
    "step": lambda doc: services.battle_action(doc, 1, "override", side="Allied",
                                               reason="the French withdrew"),
    "auto-resolve": lambda doc: services.autoresolve_battle(doc, 1, seed=3),
    "result": lambda doc: services.record_result(doc, 1, "French"),
    "merge": lambda doc: services.merge_battles(doc, 1, 2, "one table"),
    "split": lambda doc: services.split_battle(doc, 1, ("2 Corps", "II Corps"), "the flank"),
    "postpone": lambda doc: services.postpone_battle(doc, 1, "the players are away"),
}
PAIRS = list(combinations_with_replacement(ACTIONS, 2))


def base_for(pair: tuple[str, str]) -> tuple[bool, bool]:
    """Where a pair's race starts: (the battle already on the table, for a step unless it
    races the setup that puts it there; a second battle split off, for a merge unless it races
    the split that makes one)."""
    return "step" in pair and "setup" not in pair, "merge" in pair and "split" not in pair


@pytest.fixture(scope="module")
def bases(tmp_path_factory) -> dict[tuple[bool, bool], Path]:
    """The battle of Fenwick found, and as it is with battle 2 split off and/or battle 1 on
    the table."""
    made = {}
    for on_table, two in sorted({base_for(p) for p in PAIRS}):
        folder = tmp_path_factory.mktemp("base")
        u = battle_setup(folder)
        u.end_day()
        if two:
            services.split_battle(u.doc, 1, ("2 Corps", "II Corps"), "the flank fight")
        if on_table:
            services.open_battle(u.doc, 1, seed=5)
        u.doc.close()
        made[on_table, two] = folder / "c.c1813"
    return made


def attempt(doc: CampaignDocument, action: Action) -> Outcome:
    try:
        return ("acknowledged", action(doc).label)
    except CampaignBusy as exc:
        return ("busy", str(exc))
    except CampaignError as exc:
        return ("refused", str(exc))


def serial(pristine: Path, where: Path, steps: list[tuple[str, str]]) -> tuple[Any, ...]:
    """The outcomes and contents when the actions are taken one after the other."""
    shutil.copy(pristine, where)
    doc = open_campaign(where)
    try:
        outcomes = {slot: attempt(doc, ACTIONS[name]) for slot, name in steps}
    finally:
        doc.close()
    return outcomes, contents(where)


@pytest.mark.parametrize("round_", range(1, RACE_ROUNDS + 1))
@pytest.mark.parametrize(("a", "b"), PAIRS, ids=[f"{a} || {b}" for a, b in PAIRS])
def test_two_actions_on_one_battle_end_as_one_serial_order(bases, tmp_path, a, b, round_):
    pristine = bases[base_for((a, b))]
    path = tmp_path / "race.c1813"
    shutil.copy(pristine, path)

    outcomes = race(path, ACTIONS[a], ACTIONS[b], attempt)

    assert all(kind != "busy" for kind, _ in outcomes.values()), outcomes
    candidates = [serial(pristine, tmp_path / f"serial{i}.c1813", list(order))
                  for i, order in enumerate(permutations((("A", a), ("B", b))))]
    assert (outcomes, contents(path)) in candidates, f"{a} || {b}: {outcomes} is no serial order"


def test_no_race_is_between_two_refusals(bases, tmp_path):
    """From each pair's base, at least one of its actions works when taken alone."""
    for pair in PAIRS:
        worked = [serial(bases[base_for(pair)], tmp_path / f"{name}.c1813", [("A", name)])[0]
                  ["A"][0] == "acknowledged" for name in pair]
        assert any(worked), pair
