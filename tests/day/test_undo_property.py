"""Undo and redo walk the whole history exactly, whatever the actions were."""

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign1813.campaign.day.ground import OrderRefused
from campaign1813.campaign.day.state import Verb

from .builders import Umpire, new_campaign
from .test_properties import TOWNS, make

_files = itertools.count()


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_undo_and_redo_replay_every_state(tmp_path, data):
    scen = make(10.0, 12)
    u = Umpire(new_campaign(tmp_path / f"u{next(_files)}.c1813", scen), scen)
    dumps = [u.dump()]
    for _ in range(data.draw(st.integers(3, 12))):
        state = u.state()
        action = data.draw(st.sampled_from(["order", "order", "end", "result"]))
        try:
            if action == "order":
                c = data.draw(st.sampled_from([c.name for c in state.ordered()]))
                u.order(c, data.draw(st.sampled_from(list(Verb))),
                        data.draw(st.sampled_from(TOWNS)), forced=data.draw(st.booleans()))
            elif action == "end":
                u.end_day()
            else:
                waiting = [b.id for b in state.battles.values() if b.result is None]
                if not waiting:
                    continue
                u.result(waiting[0], data.draw(st.sampled_from(["French", "Allied", "draw"])))
        except OrderRefused:
            assert u.dump() == dumps[-1]  # a refused action changes nothing
            continue
        dumps.append(u.dump())
    for expected in reversed(dumps[:-1]):
        u.undo()
        assert u.dump() == expected
    for expected in dumps[1:]:
        u.redo()
        assert u.dump() == expected
    u.doc.close()
