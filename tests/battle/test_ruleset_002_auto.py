"""Auto-resolve with ruleset 002: the same seed fights the same battle, its report adds up to
the units' hits, and the estimate of many runs is sane."""

import re
from dataclasses import replace

import pytest

from campaign1813.campaign.battle.core.results import AutoOdds, AutoResult
from campaign1813.campaign.battle.ruleset002.auto import estimate, resolve
from campaign1813.campaign.battle.ruleset002.battle import army_of
from campaign1813.campaign.battle.setup import ALLIED, FRENCH
from tests.battle.setups import setup as make_setup


def _setup(french=("B",), allied=("B",), **kw):
    return make_setup(list(french), list(allied), cinc=True, ruleset="002", **kw)


def test_the_same_seed_fights_the_same_battle():
    s = _setup(["B", "B"], ["B", "C"])
    first, again, other = resolve(s, 11), resolve(s, 11), resolve(s, 12)
    assert isinstance(first, AutoResult) and first == again
    assert first.report != other.report
    assert resolve(s) == resolve(s, s.seed)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_report_adds_up_to_the_hits_and_the_result(seed):
    """Every hit the report lists lands on its target; the winner eliminated half (rounded up)
    of the enemy's units, or after the last turn more of them."""
    s = _setup(["B", "A"], ["B", "B"])
    r = resolve(s, seed)
    start = {u.name: u.hits for u in army_of(s).units}
    taken = dict.fromkeys(start, 0)
    for line in r.report:
        m = re.match(r"\s+(.+?) (?:shoots at|charge) (.+?): rolled .*?(\d+) hits?", line)
        if m:
            taken[m.group(2)] += int(m.group(3))
    for b in r.brigades:
        if b.destroyed and taken[b.name] + start[b.name] < b.casualties:   # guns overrun
            assert any(f"charge {b.name}: the guns are overrun" in x for x in r.report)
        else:
            assert b.casualties == start[b.name] + taken[b.name], b.name
    lost = {side: sum(1 for b in r.brigades if b.destroyed and army_of(s).unit(b.key).side
                      == side) for side in (FRENCH, ALLIED)}
    assert r.winner in (FRENCH, ALLIED, None)
    if r.winner is not None:
        loser = ALLIED if r.winner == FRENCH else FRENCH
        assert lost[loser] >= 6 or (r.turns == s.turns and lost[loser] > lost[r.winner])
    assert r.report[-1].startswith("Result: ")


def test_the_estimate_is_sane():
    """Mirror-image armies win about as often as each other; a side of twice the units nearly
    always wins."""
    even = estimate(_setup(), 400, seed=5)
    assert isinstance(even, AutoOdds) and even.runs == 400 and not even.cancelled
    assert even.french.count + even.allied.count + even.draw.count == 400
    assert 0.35 < even.french.fraction < 0.65 and even.french.low < 0.5 < even.french.high
    strong = estimate(_setup(["B", "B"], ["B"]), 200, seed=5)
    assert strong.french.fraction > 0.9
    assert estimate(_setup(), 50, seed=9) == estimate(_setup(), 50, seed=9)


def test_the_estimate_reports_progress_and_can_be_cancelled():
    seen = []

    def progress(done, total):
        seen.append(done)
        return done < 30

    odds = estimate(_setup(), 100, seed=1, progress=progress)
    assert odds.cancelled and odds.runs == 30 and seen[:3] == [1, 2, 3]
    with pytest.raises(ValueError, match="at least one run"):
        estimate(_setup(), 0)


def test_the_last_turn_ends_an_undecided_battle():
    r = resolve(_setup(turns=1), 3)
    assert r.turns == 1 and r.report[-1].startswith("Result: ")


def test_a_setup_for_another_ruleset_is_refused():
    from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused

    with pytest.raises(ActionRefused, match="set up for ruleset '1813'"):
        resolve(replace(_setup(), ruleset="1813"))
