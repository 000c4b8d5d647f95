"""A battle fought on the table inside the campaign: kept, resumed, undone, finished; on both
stores (the file and the server), the same tests."""

from __future__ import annotations

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.cli import main
from campaign1813.campaign.day.ground import OrderRefused
from campaign1813.campaign.day.state import Status
from campaign1813.campaign.store.opening import open_store
from campaign1813.errors import CampaignError
from tests.day.test_scenarios import battle_setup


@pytest.fixture
def found(tmp_path, stores):
    """3 May: the battle of Fenwick (1 Corps against I Corps, reinforcements on both sides),
    in the test's store."""
    u = battle_setup(tmp_path)
    u.end_day()
    u.doc.close()
    return stores(tmp_path / "c.c1813")


def _play(doc) -> None:
    services.open_battle(doc, 1, seed=5)
    view = queries.fight_view(doc, 1)
    first = view.setup.chips[0].label
    services.battle_action(doc, 1, "draw", chip=first)
    services.battle_action(doc, 1, "pips", typed=[4])


def test_a_battle_closed_and_reopened_resumes_at_the_same_step(found):
    with open_store(found) as doc:
        _play(doc)
        before = queries.fight_view(doc, 1)
    with open_store(found) as doc:
        after = queries.fight_view(doc, 1)
    assert after.state == before.state and after.steps == before.steps
    assert after.state.activation is not None and after.state.activation.pips is not None


def test_undo_takes_back_each_step_then_the_setup(found):
    with open_store(found) as doc:
        services.open_battle(doc, 1, seed=5)
        states = [queries.fight_view(doc, 1).state]
        chip = queries.fight_view(doc, 1).setup.chips[0].label
        services.battle_action(doc, 1, "draw", chip=chip)
        states.append(queries.fight_view(doc, 1).state)
        services.battle_action(doc, 1, "pips", typed=[3])
        assert queries.next_undo(doc) == "Battle 1: " + queries.fight_view(doc, 1).steps[-1].label
        services.undo(doc)
        assert queries.fight_view(doc, 1).state == states[1]
        services.undo(doc)
        assert queries.fight_view(doc, 1).state == states[0]
        services.undo(doc)
        assert queries.fight_view(doc, 1) is None
        services.redo(doc)
        assert queries.fight_view(doc, 1).state == states[0]


def test_a_typed_result_is_refused_while_the_battle_is_on_the_table(found):
    with open_store(found) as doc:
        _play(doc)
        with pytest.raises(OrderRefused, match="being fought on the table"):
            services.record_result(doc, 1, "French")
        with pytest.raises(OrderRefused, match="being fought on the table"):
            services.postpone_battle(doc, 1, "rain")
        services.abandon_battle(doc, 1)
        assert queries.fight_view(doc, 1) is None
        services.record_result(doc, 1, "French")


def test_finishing_rests_the_winner_and_retreats_the_loser_as_a_typed_result_does(tmp_path,
                                                                                   stores):
    typed_dir, fought_dir = tmp_path / "typed", tmp_path / "fought"
    typed_dir.mkdir()
    fought_dir.mkdir()
    for folder in (typed_dir, fought_dir):
        u = battle_setup(folder)
        u.end_day()
        u.doc.close()
    with open_store(stores(typed_dir / "c.c1813")) as doc:
        services.record_result(doc, 1, "Allied")
        typed = {c.name: (c.status, c.status_date) for c in queries.campaign_status(doc).commands}
    with open_store(stores(fought_dir / "c.c1813")) as doc:
        _play(doc)
        services.battle_action(doc, 1, "override", side="Allied",
                               reason="the French withdrew at dusk")
        changes = services.battle_action(doc, 1, "finish")
        fought = {c.name: (c.status, c.status_date) for c in queries.campaign_status(doc).commands}
        assert queries.fight_view(doc, 1).state.phase == "finished"
        with pytest.raises(CampaignError, match="already finished"):
            services.battle_action(doc, 1, "finish")
        diary = queries.diary_text(doc)
        report = "\n".join(queries.battle_report(doc, 1).lines)
    assert fought == typed
    assert fought["I Corps"][0] is Status.RESTING and fought["1 Corps"][0] is Status.RETREATING
    assert "Battle report:" in changes.lines
    # Rule 1: the commander's corps is still on its blind: the blind's pips, average die + 0
    assert "Move 1 –" in report and "Pips on the blind (Rule 1): 4 +0" in report
    # The diary keeps the result and a link to the report, not the report's moves.
    assert "Move 1 –" not in diary and diary.endswith(", battle 1")


def test_the_command_line_fights_a_battle(found, capsys):
    f = str(found)
    assert main(["battle", f, "1", "setup", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Chips: 1 " in out and "Poor" in out and "6 × 6 feet" in out
    assert main(["battle", f, "1", "draw", "1"]) == 0
    assert "Move 1 –" in capsys.readouterr().out
    assert main(["battle", f, "1", "pips", "--roll", "7"]) == 1
    assert "7 cannot be rolled on average die" in capsys.readouterr().err
    assert main(["battle", f, "1", "pips", "--roll", "5"]) == 0
    assert "Pips on the blind (Rule 1): 5 +0" in capsys.readouterr().out
    assert main(["battle", f, "1", "show"]) == 0
    assert "pips left" in capsys.readouterr().out
    assert main(["battle", f, "1", "report", "--md"]) == 0
    assert capsys.readouterr().out.startswith("# The battle of Fenwick")
    assert main(["battle", f, "1", "finish"]) == 1
    assert "undecided" in capsys.readouterr().err
    assert main(["battle", f, "1", "override", "French", "--reason", "Allies fled"]) == 0
    assert main(["battle", f, "1", "finish"]) == 0
    assert "Result: the French win" in capsys.readouterr().out


def test_the_command_line_abandons_a_battle_and_undo_brings_it_back(found, capsys):
    f = str(found)
    assert main(["battle", f, "1", "setup"]) == 0
    assert main(["battle", f, "1", "abandon"]) == 0
    assert "was abandoned after 0 steps" in capsys.readouterr().out
    assert main(["battle", f, "1", "show"]) == 1
    assert "not being fought" in capsys.readouterr().err
    assert main(["undo", f]) == 0
    assert main(["battle", f, "1", "show"]) == 0
