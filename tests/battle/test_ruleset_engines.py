"""Every ruleset through the same battle services, read models and command line: a battle of
the campaign (I Prussian Corps attacks 5 Corps at Magdeburg, 6 May 1813) fought by ruleset 002
and by ruleset 004 with typed dice to its end, finished into the campaign; auto-resolve by each
ruleset; the generic actions of the command line."""

from __future__ import annotations

import shutil

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.battle.engines import UnknownRuleset, engine_for, read_inputs
from campaign1813.campaign.battle.rules.common import ActionRefused
from campaign1813.campaign.cli import main
from campaign1813.campaign.day.ground import OrderRefused
from campaign1813.campaign.day.state import Status
from campaign1813.campaign.store.codec import read_state
from campaign1813.campaign.store.document import create_campaign, open_campaign
from campaign1813.errors import CampaignError

RULESETS = ("1813", "1813-revised", "002", "004")
F17, F18, F19, F20 = (f"5 Corps/{n}" for n in (17, 18, 19, 20))
FCAV, FART = "5 Corps/3 cavalry", "5 Corps/artillery"
A1, A2, A3, A4 = (f"I Prussian Corps/{n}" for n in (1, 2, 3, 4))
ACAV, AART = "I Prussian Corps/1 cavalry", "I Prussian Corps/artillery"


@pytest.fixture(scope="module")
def scheduled(tmp_path_factory):
    """The shipped campaign: I Prussian Corps ordered to attack Magdeburg; six days later the
    battle of Magdeburg (battle 1) is due, against 5 Corps; casualties carried forward."""
    path = tmp_path_factory.mktemp("magdeburg") / "scheduled.c1813"
    with create_campaign(path) as doc:
        services.change_setting(doc, "carry_casualties_forward", "on")
        services.issue_order(doc, "I Prussian Corps", "Attack", "Magdeburg")
        for _ in range(6):
            services.end_day(doc)
        battle = queries.campaign_status(doc).battles[0]
        assert (battle.id, battle.place, battle.french, battle.allied) == (
            1, "Magdeburg", ("5 Corps",), ("I Prussian Corps",))
    return path


@pytest.fixture
def campaign(scheduled, tmp_path):
    path = tmp_path / "c.c1813"
    shutil.copy(scheduled, path)
    return path


def _command(doc, name):
    return queries.campaign_status(doc).command(name)


def _fight(doc, action, *typed, **inputs):
    return services.battle_action(doc, 1, action, typed=list(typed) or None, **inputs)


def _skip(doc, n=1):
    for _ in range(n):
        _fight(doc, "next")


def test_an_unknown_ruleset_is_refused_with_the_known_ones(campaign):
    message = "no ruleset called '003' (rulesets: 002, 004, 1813, 1813-revised)"
    with pytest.raises(UnknownRuleset) as err:
        engine_for("003")
    assert str(err.value) == message
    with open_campaign(campaign) as doc:
        with pytest.raises(UnknownRuleset, match="no ruleset called '003'"):
            services.open_battle(doc, 1, ruleset="003")
        with pytest.raises(UnknownRuleset, match="no ruleset called '003'"):
            services.autoresolve_battle(doc, 1, ruleset="003")
        assert queries.fight_view(doc, 1) is None
        assert queries.campaign_status(doc).battles[0].result is None
        with pytest.raises(OrderRefused, match="ruleset 002 draws no chips"):
            services.open_battle(doc, 1, ruleset="002", specials=["French gifted"])


def test_the_setup_keeps_its_ruleset_when_the_file_is_reopened(campaign):
    with open_campaign(campaign) as doc:
        services.open_battle(doc, 1, ruleset="004")
    with open_campaign(campaign) as doc:
        view = queries.fight_view(doc, 1)
        assert view.setup.ruleset == view.ruleset == "004"
        assert view.step_now == "Turn 1 – dice for the first move"
        # The window's table: a row per unit, the generals among them, with the unit keys.
        assert view.units.keys == (FCAV, F17, F18, F19, F20, FART, "French general",
                                   ACAV, A1, A2, A3, A4, AART, "Allied general")
        assert view.units.headers[:5] == ("Unit", "Side", "Kind", "Quality", "Effectiveness")
        assert [a.name for a in view.actions][:3] == ["national", "first-move", "move"]
        assert view.mapping.rows[0][:5] == ("3 Cavalry Brigade", "5 Corps",
                                            "cavalry B (medium)", "heavy horse", "regular")


def test_a_ruleset_002_battle_of_the_campaign_fought_to_its_end(campaign):
    """Seed 002's sequence with typed dice; the Allies are side A in both turns. Hits: artillery
    and skirmishers 1D6-2, infantry and elite infantry 1D6; eliminated past 12; a charge on
    guns with no infantry near eliminates them outright; a side wins on eliminating half of
    the enemy's 6 units (3)."""
    with open_campaign(campaign) as doc:
        services.open_battle(doc, 1, ruleset="002")
        view = queries.fight_view(doc, 1)
        assert view.step_now == "setup: deploy and attach, then roll for sides"
        # seed 002: 1-3 the French are side A, 4-6 the Allies: 5.
        _fight(doc, "sides", 5)
        assert queries.fight_view(doc, 1).step_now == "Turn 1 – Movement – Allied (side A)"
        _skip(doc, 2)
        changes = _fight(doc, "shoot", 6, unit=AART, target=F19)        # 6 - 2 = 4 hits
        assert "rolled 6: 4 hits" in changes.lines[0]
        # Undo takes the shot back, redo puts it back.
        services.undo(doc)
        assert queries.fight_view(doc, 1).state.units[F19].hits == 0
        services.redo(doc)
        assert queries.fight_view(doc, 1).state.units[F19].hits == 4
        _skip(doc)
        _fight(doc, "shoot", 5, unit=FART, target=A3)                   # 5 - 2 = 3
        _skip(doc)
        _fight(doc, "shoot", 6, unit=A2, target=F19)                    # 4: 8 on F19
        _skip(doc, 2)
        view = queries.fight_view(doc, 1)
        assert view.step_now == "Turn 1 – Stationary infantry shooting – Allied (side A)"
        assert view.who_acts == (A1, A3, A4)
        _fight(doc, "shoot", 6, unit=A3, target=F19)                    # 6: 14, eliminated
        _fight(doc, "shoot", 6, unit=A4, target=F20)                    # 6
        _fight(doc, "shoot", 6, unit=A1, target=F20)                    # 6: 12, not past 12
        _skip(doc)
        _fight(doc, "shoot", 4, unit=F17, target=A3)                    # 4: 3 + 4 = 7 on A3
        _skip(doc, 3)
        changes = _fight(doc, "charge", unit=ACAV, target=FART)         # no roll: overrun
        assert "are eliminated" in changes.lines[0]
        _skip(doc, 4)
        assert queries.fight_view(doc, 1).step_now == "Turn 2: roll for sides"
        _fight(doc, "sides", 6)
        _skip(doc, 2)
        with pytest.raises(CampaignError, match="undecided on turn 2"):
            services.finish_battle(doc, 1)
        changes = _fight(doc, "shoot", 3, unit=AART, target=F20)        # 1: 13, the third
        assert changes.lines[-1] == ("Result: the Allied win – the Allied have eliminated 3 "
                                     "of the 6 French units (needed 3)")
        view = queries.fight_view(doc, 1)
        assert view.decision.final and not view.closed and view.lost == ("French",)
        assert queries.campaign_status(doc).battles[0].result is None
        changes = services.battle_action(doc, 1, "finish")
        assert queries.fight_view(doc, 1).closed
        with pytest.raises(ActionRefused, match="already finished"):
            services.battle_action(doc, 1, "finish")
        assert "Battle report:" in changes.lines
        assert queries.campaign_status(doc).battles[0].result == "Allied"
        assert _command(doc, "I Prussian Corps").status is Status.RESTING
        assert _command(doc, "5 Corps").status is Status.RETREATING
        # The campaign's casualties: brought (none) + this battle's hits at 2 a casualty,
        # rounded half up; an eliminated unit at its rout point (infantry 6, guns 3).
        # A3: 7 hits -> 3.5 -> 4.
        with doc.reading() as con:
            state = read_state(con)
        assert dict(state.commands["5 Corps"].casualties) == {"19": 6, "20": 6,
                                                             "artillery": 3}
        assert dict(state.commands["I Prussian Corps"].casualties) == {"3": 4}
        diary = queries.diary_text(doc)
        assert "Rules: Hits to elimination, shooting and charges by dice (seed 002)" in diary
        # Undoing the finish gives the result back to the table.
        services.undo(doc)
        assert queries.campaign_status(doc).battles[0].result is None
        assert not queries.fight_view(doc, 1).closed
