"""The event log keeps what changed; a new campaign places every command; contact at 0 miles."""

import json

import pytest

from campaign1813.campaign import queries
from campaign1813.campaign.day.ground import Position
from campaign1813.campaign.day.state import Kind
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.document import create_campaign
from campaign1813.data import scenario_dir

from .test_scenarios import make


def test_each_logged_action_keeps_only_the_entries_it_changed(tmp_path):
    u = make(tmp_path, {"1 Corps": "Aston", "2 Corps": "Dale"}, {"I Corps": "Fenwick"})
    u.order("1 Corps", "Move", "Brook")
    before, after, payload = u.doc.con.execute(
        "SELECT before_json, after_json, payload_json FROM event_log").fetchone()
    assert json.loads(before) == {"orders": {"1 Corps|active": None}}
    after = json.loads(after)
    assert list(after) == ["orders"] and after["orders"]["1 Corps|active"]["route"] == ["Brook"]
    assert json.loads(payload) == {
        "command": "1 Corps", "verb": "Move", "objective": "Brook", "via": [], "forced": False}


def test_hostile_columns_meeting_in_a_town_fight_even_at_zero_contact_miles(tmp_path):
    """§3.4 with contact 0: only commands at the same town or meeting on a road are in contact.
    Both march 10 miles to Carden on Halt orders; meeting there, they fight at Carden."""
    u = make(tmp_path, {"1 Corps": "Brook"}, {"I Corps": "Dunmore"}, contact_miles=0.0,
             reinforce_miles=0.0)
    u.order("1 Corps", "Halt", "Carden")
    u.order("I Corps", "Halt", "Carden")
    ch = u.end_day()
    b = u.state().battles[1]
    assert (b.place, b.french, b.allied, b.attacker) == ("Carden", ("1 Corps",), ("I Corps",),
                                                         None)
    assert not ch.report.closed


def test_a_column_cannot_slip_through_an_enemy_town_between_steps(tmp_path):
    """With contact 0 and one step a day, 1 Corps marching 15 miles from Brook towards Dunmore
    passes Carden, where I Corps stands, 10 miles on: it stops there and attacks."""
    u = make(tmp_path, {"1 Corps": "Brook"}, {"I Corps": "Carden"}, contact_miles=0.0,
             reinforce_miles=0.0, steps_per_day=1)
    u.order("1 Corps", "Move", "Dunmore")
    u.end_day()
    s = u.state()
    assert s.commands["1 Corps"].position == Position("Carden")
    assert s.commands["1 Corps"].marched == 10
    assert s.battles[1].attacker is Side.FRENCH and s.battles[1].place == "Carden"


@pytest.mark.skipif(not (scenario_dir("1813") / "armies.toml").exists(),
                    reason="the shipped scenario has no orders of battle in this tree")
def test_new_campaign_from_the_shipped_scenario_places_every_command(tmp_path):
    with create_campaign(tmp_path / "n.c1813") as doc:
        state = queries.day_state(doc)
    hqs = [c for c in state.ordered() if c.kind is Kind.HQ]
    assert len(hqs) == 10
    assert state.commands["4 Corps"].position == Position("Hamburg")
    assert state.control["Magdeburg"] is Side.FRENCH


def test_a_file_without_campaign_day_tables_is_refused_in_one_line(tmp_path, capsys):
    """A file of the earliest layout (document and campaign only) cannot be upgraded."""
    import sqlite3

    from campaign1813.campaign.cli import main

    path = tmp_path / "old.c1813"
    con = sqlite3.connect(path)
    con.executescript("""
        CREATE TABLE document (id INTEGER PRIMARY KEY, application VARCHAR NOT NULL,
            schema_version INTEGER NOT NULL, written_by VARCHAR NOT NULL);
        CREATE TABLE campaign (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL,
            scenario VARCHAR NOT NULL, start_date DATE NOT NULL, "current_date" DATE NOT NULL,
            settings_json VARCHAR NOT NULL);
        INSERT INTO document VALUES (1, 'campaign1813', 1, '0.1.0');
        INSERT INTO campaign VALUES (1, 'old', '1813', '1813-05-01', '1813-05-01', '{}');
    """)
    con.close()
    before = path.read_bytes()
    assert main(["battles", str(path)]) == 1
    assert capsys.readouterr().err == (
        f"campaign1813: error: {path}: has no campaign-day tables (it was made by an "
        "earlier version); start a new campaign from it\n")
    assert path.read_bytes() == before
