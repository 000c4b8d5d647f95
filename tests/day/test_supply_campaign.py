"""The supply rule in a campaign file, through the command line: switched on by a setting,
orders given and refused, worked at End Day, the umpire's attrition owed before the next march,
and every step undone with the campaign file as it was."""

from __future__ import annotations

import hashlib

import pytest
from msgspec.structs import replace

from campaign1813.campaign import queries
from campaign1813.campaign.cli import main
from campaign1813.campaign.scenario.loader import load_scenario
from campaign1813.campaign.store.document import campaign_from_scenario


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def campaign(fresh_campaign):
    return fresh_campaign()


def test_supply_through_a_campaign(campaign, capsys):
    """2016 rule: 5 Corps makes a depot at Magdeburg with 17 Brigade on 1 May; it gathers a
    day that night (Magdeburg 1, Hamburg 6 + 1 gathered = 7; the army's 12 carried + 8 = 20, so
    no top-up). Undo takes the day back, and the setting, to the file as it was."""
    f = str(campaign)
    assert run(capsys, "settings", f, "supply", "2016")[0] == 0
    code, out = run(capsys, "supply", f, "depot", "Magdeburg", "--corps", "5 Corps",
                    "--brigade", "17")
    assert code == 0 and "establish a depot at Magdeburg with 17 Brigade" in out
    code, out = run(capsys, "supply", f, "move", "5", "--from", "Hamburg", "--to", "Harburg")
    assert code != 0 and "can move 4 days of supplies a day" in out
    code, out = run(capsys, "end-day", f)
    assert code == 0
    assert "The Second French Army made a depot at Magdeburg, 17 Brigade of 5 Corps left as " \
           "its garrison." in out
    assert "  Second French Army, days of supplies at nightfall: 4 Corps 3, 5 Corps 3, " \
           "6 Corps 3, 13 Polish Corps 3; depots: Hamburg 7, Magdeburg 1." in out
    code, out = run(capsys, "diary", f)
    assert "Supply of the Second French Army: depot at Magdeburg +1 (gathered); main depot " \
           "at Hamburg +1 (gathered); every corps ate a day." in out
    for _ in range(3):
        assert run(capsys, "undo", f)[0] == 0
    code, out = run(capsys, "supply", f)
    assert out.strip() == "Supply is not kept in this campaign (the setting supply is off)."


def test_attrition_is_owed_before_the_next_march(campaign, capsys):
    """2020 rule: 10 days a corps, 4 carried. After four days every corps has eaten its 4;
    on the fifth night each is out of supply and loses 400 men, and the sixth day cannot march
    until the umpire names the brigades (or the lot does)."""
    f = str(campaign)
    run(capsys, "settings", f, "supply", "2020")
    for _ in range(5):
        code, out = run(capsys, "end-day", f)
        assert code == 0, out
    assert "5 Corps: out of supply, 400 men lost (the umpire chooses the brigade)." in out
    code, out = run(capsys, "end-day", f)
    assert code != 0
    assert "corps lost men out of supply (4 Corps 400, 5 Corps 400," in out
    assert "the umpire must choose the brigade that loses them in each" in out
    code, out = run(capsys, "supply", f, "attrition", "5 Corps", "3")
    assert code == 0
    assert out.strip() == "5 Corps: 3 Brigade loses the 400 men lost out of supply."
    code, out = run(capsys, "supply", f, "attrition", "5 Corps", "18")
    assert code != 0 and "5 Corps owes no men to attrition" in out
    run(capsys, "settings", f, "supply_attrition", "seeded")
    code, out = run(capsys, "end-day", f)
    assert code != 0  # the lot decides the days to come; what is owed stays the umpire's


def test_bad_supply_words_are_refused_with_the_file_unchanged(campaign, capsys):
    """A supply order with supply off, an unknown corps or a depot order with no town: each
    refused naming what is wrong, the file byte for byte as it was."""
    f = str(campaign)
    before = digest(campaign)
    code, out = run(capsys, "supply", f, "resupply", "5 Corps", "--from", "Magdeburg")
    assert code != 0 and "supply is not kept in this campaign" in out
    assert digest(campaign) == before
    run(capsys, "settings", f, "supply", "2016")
    after = digest(campaign)
    code, out = run(capsys, "supply", f, "move", "four", "--from", "Hamburg", "--to", "Harburg")
    assert code != 0 and "'four' is not a number of days" in out
    code, out = run(capsys, "supply", f, "depot", "--corps", "5 Corps", "--brigade", "17")
    assert code != 0 and "a depot order needs the town it goes to or is made at" in out
    assert digest(campaign) == after


def test_a_scenario_that_keeps_supply_starts_with_its_stocks(tmp_path):
    """A scenario whose settings say supply 2020 makes campaigns that keep it from the first
    day: 4 days with each corps and 6 a corps in a depot at its town (Hamburg: 4 Corps)."""
    scenario = load_scenario()
    scenario = replace(scenario, settings=replace(scenario.settings, supply="2020"))
    doc = campaign_from_scenario(tmp_path / "kept.c1813", scenario)
    try:
        state = queries.day_state(doc)
    finally:
        doc.close()
    assert state.supply is not None and state.supply.version == "2020"
    assert state.supply.corps["4 Corps"] == 4
    assert state.supply.depots["Hamburg"].days == 6 and state.supply.depots["Hamburg"].main
