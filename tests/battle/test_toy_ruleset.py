"""The seam proved by a ruleset that exists only in the tests (toy_ruleset.py): registered
from here, without an edit of any product module, it is set up, played, given its odds and
finished into the campaign through the services and the command line."""

from __future__ import annotations

import shutil
from fractions import Fraction

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.battle import registry
from campaign1813.campaign.battle.core.steps import ActionRefused
from campaign1813.campaign.cli import main
from campaign1813.campaign.day.state import Status
from campaign1813.campaign.store.codec import read_state
from campaign1813.campaign.store.document import create_campaign, open_campaign
from tests.battle.toy_ruleset import ToyEngine, register_toy, unregister_toy

F17, F18, F19 = (f"5 Corps/{n}" for n in (17, 18, 19))
A1 = "I Prussian Corps/1"


@pytest.fixture
def toy():
    """The toy ruleset registered for one test."""
    register_toy()
    yield registry.find_ruleset("toy")
    unregister_toy()


@pytest.fixture(scope="module")
def scheduled(tmp_path_factory):
    """The shipped campaign six days after I Prussian Corps is ordered to attack Magdeburg:
    the battle of Magdeburg (battle 1) against 5 Corps is due; casualties carried forward."""
    path = tmp_path_factory.mktemp("toy") / "scheduled.c1813"
    with create_campaign(path) as doc:
        services.change_setting(doc, "carry_casualties_forward", "on")
        services.issue_order(doc, "I Prussian Corps", "Attack", "Magdeburg")
        for _ in range(6):
            services.end_day(doc)
    return path


@pytest.fixture
def campaign(scheduled, tmp_path):
    path = tmp_path / "c.c1813"
    shutil.copy(scheduled, path)
    return path


def test_the_registry_adds_and_takes_away_a_ruleset_from_outside(toy):
    assert isinstance(toy, ToyEngine) and "toy" in registry.all_ruleset_names()
    assert registry.own_engine("toy") == "tests.battle.toy_ruleset:ToyEngine"
    assert "toy" not in registry.ruleset_names(), "the 1813 engine does not read it"
    with pytest.raises(ValueError, match="'toy' is already registered"):
        register_toy()


def test_an_unregistered_ruleset_is_unknown():
    with pytest.raises(registry.UnknownRuleset, match="no ruleset called 'toy'"):
        registry.find_ruleset("toy")
    with pytest.raises(registry.UnknownRuleset, match="no ruleset called 'toy' is registered"):
        registry.unregister("toy")


def test_a_duel_s_exact_odds_before_the_dice(toy, campaign):
    """One d6 each: of the 36 pairs of faces 15 are higher, 15 lower, 6 tied."""
    with open_campaign(campaign) as doc:
        services.open_battle(doc, 1, ruleset="toy")
        v = queries.fight_view(doc, 1)
    duel = toy.action(v.setup, v.steps, "duel", {"unit": A1, "target": F17})
    assert duel.chance_outcomes() == (("the unit that duels kills", Fraction(15, 36)),
                                      ("it is killed", Fraction(15, 36)),
                                      ("a tie", Fraction(6, 36)))
    step = duel.apply([6, 1])
    assert step.lines == (f"{A1} rolls 6, {F17} rolls 1: the unit that duels kills",)
    assert toy.replay(v.setup, [step]).dead[F17]
    with pytest.raises(ActionRefused, match="on the same side"):
        toy.action(v.setup, v.steps, "duel", {"unit": A1, "target": "I Prussian Corps/2"}
                   ).apply([6, 1])


def test_a_toy_battle_through_the_services_goes_into_the_campaign(toy, campaign):
    with open_campaign(campaign) as doc:
        services.open_battle(doc, 1, ruleset="toy")
        with pytest.raises(ActionRefused, match="undecided"):
            services.finish_battle(doc, 1)
        for target in (F17, F18, F19):
            services.battle_action(doc, 1, "duel", typed=[6, 2], unit=A1, target=target)
        view = queries.fight_view(doc, 1)
        assert view.decision.result == "Allied" and view.lost == ("French",)
        services.finish_battle(doc, 1)
        status = queries.campaign_status(doc)
        with doc.reading() as con:
            state = read_state(con)
    assert status.battles[0].result == "Allied"
    assert state.commands["I Prussian Corps"].status is Status.RESTING
    assert state.commands["5 Corps"].status is Status.RETREATING
    # a unit killed is a brigade at its rout point
    assert dict(state.commands["5 Corps"].casualties) == {"17": 6, "18": 6, "19": 6}


def test_a_toy_battle_through_the_command_line(toy, campaign, capsys):
    f = str(campaign)
    assert main(["battle", f, "1", "setup", "--ruleset", "toy"]) == 0
    assert "The campaign's forces as ruleset toy fights them:" in capsys.readouterr().out
    assert main(["battle", f, "1", "actions"]) == 0
    assert "duel: two enemy units each roll a d6" in capsys.readouterr().out
    for target in (F17, F18, F19):
        assert main(["battle", f, "1", "act", "duel", f"unit={A1}", f"target={target}",
                     "--roll", "5", "--roll", "4"]) == 0
    assert "Result: the French have lost 3 of 6 units" in capsys.readouterr().out
    assert main(["battle", f, "1", "show"]) == 0
    assert "Result: Allied – the French have lost 3 of 6 units" in capsys.readouterr().out
    assert main(["battle", f, "1", "finish"]) == 0
    with open_campaign(campaign) as doc:
        assert queries.campaign_status(doc).battles[0].result == "Allied"


def test_a_toy_battle_auto_resolves_into_the_campaign(toy, campaign):
    with open_campaign(campaign) as doc:
        odds = services.autoresolve_odds(doc, 1, 40, ruleset="toy")
        services.autoresolve_battle(doc, 1, ruleset="toy")
        result = queries.campaign_status(doc).battles[0].result
    assert odds[0].startswith("The battle of Magdeburg") and "40 auto-resolved runs" in odds[0]
    assert result in ("French", "Allied", "draw")
