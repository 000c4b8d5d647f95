"""Campaign settings changed by the umpire: each checked, logged and undoable, and obeyed by
the day's rules from the next action on."""

import hashlib
import sqlite3

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.cli import main
from campaign1813.campaign.day.ground import OrderRefused
from campaign1813.campaign.errors import CampaignFileError
from campaign1813.campaign.store.document import open_campaign

from .test_scenarios import make


def digest(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def test_contact_at_five_miles_lets_columns_close_to_five(tmp_path):
    """§3.4: contact at `contact_miles`. 1 Corps (Aston) marches on Dunmore, 30 miles, where
    I Corps holds; at the default 10 it halts at Carden, 10 short; at 5, 5 miles short."""
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Dunmore"})
    ch = services.change_setting(u.doc, "contact_miles", "5")
    assert ch.lines == ("Setting: Contact miles 10 → 5 (hostile commands this close by road "
                        "are in contact).",)
    u.order("1 Corps", "Move", "Dunmore")
    u.order("I Corps", "Hold", "Dunmore")
    u.end_day()
    u.end_day()
    pos = u.state().commands["1 Corps"].position
    assert u.ground().adjusted(u.state().settings).distance(
        pos, u.state().commands["I Corps"].position) == pytest.approx(5.0)


def test_a_setting_is_undone_like_any_action_and_kept_in_the_file(tmp_path):
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    services.change_setting(u.doc, "messenger-orders", "on")
    services.change_setting(u.doc, "Forced_March_Extra_Miles", "7.5")
    path = u.doc.path
    u.doc.close()
    with open_campaign(path) as doc:
        shown = {s.name: (s.value, s.changed) for s in queries.campaign_settings(doc)}
        assert shown["messenger_orders"] == ("on", True)
        assert shown["forced_march_extra_miles"] == ("7.5", True)
        assert shown["contact_miles"] == ("10", False)
        assert services.undo(doc).label == "Undo Setting: Forced march extra miles 7.5"
        shown = {s.name: s.value for s in queries.campaign_settings(doc)}
        assert shown["forced_march_extra_miles"] == "5"
        # back to the scenario's own value: no longer a change of this campaign
        services.change_setting(doc, "messenger_orders", "off")
        assert not queries.day_state(doc).settings


@pytest.mark.parametrize(("name", "value", "reason"), [
    ("contact_miles", "nan", "contact_miles must be a number of miles from 0 to 100, not 'nan'"),
    ("contact_miles", "1e300", "contact_miles must be a number of miles from 0 to 100, "
                               "not '1e300'"),
    ("steps_per_day", "100000000", "steps_per_day must be a whole number from 1 to 240, "
                                   "not '100000000'"),
    ("messenger_miles", "0", "messenger_miles must be a number of miles above 0 to 1000, "
                             "not '0'"),
    ("carry_casualties_forward", "perhaps", "carry_casualties_forward must be on or off, "
                                            "not 'perhaps'"),
    ("contact_miles", "10", "contact_miles is already 10"),
    ("name", "Spring", "'name' is not a setting the umpire can change; the settings are "
                       "messenger_orders, messenger_miles, contact_miles, reinforce_miles, "
                       "carry_casualties_forward, forced_march_extra_miles, forced_march_cost, "
                       "steps_per_day, battle_turns, fog, recce_miles, release, supply, "
                       "supply_attrition"),
    ("battle_turns", "0", "battle_turns must be a whole number of turns from 1 to 48, not '0'"),
])
def test_a_bad_value_is_refused_and_changes_nothing(tmp_path, capsys, name, value, reason):
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    path = u.doc.path
    u.doc.close()
    before = digest(path)
    assert main(["settings", str(path), name, value]) == 1
    assert capsys.readouterr().err == f"campaign1813: error: {reason}\n"
    assert digest(path) == before
    with open_campaign(path) as doc, pytest.raises(OrderRefused):
        services.change_setting(doc, name, value)


def test_settings_damaged_in_the_file_are_refused_on_open(tmp_path):
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"})
    path = u.doc.path
    u.doc.close()
    con = sqlite3.connect(path)
    con.execute("""UPDATE day_info SET settings_json = '{"contact_miles": -4}'""")
    con.commit()
    con.close()
    with pytest.raises(CampaignFileError, match="setting contact_miles must be a number of "
                                                "miles from 0 to 100"):
        open_campaign(path)
