"""A campaign carries its own copy of the scenario: it never depends on the shipped data."""

from campaign1813.campaign.scenario import loader
from campaign1813.campaign.scenario.loader import load_scenario, read_scenario_folder
from campaign1813.campaign.store import document
from campaign1813.campaign.store.document import create_campaign, open_campaign
from campaign1813.campaign.store.scenario import stored_files


def test_every_scenario_file_is_copied_into_the_campaign(tmp_path):
    with create_campaign(tmp_path / "c.c1813") as doc:
        stored = stored_files(doc.con)
    shipped = read_scenario_folder()
    assert stored == shipped
    assert {"settings.toml", "armies.toml", "objectives.toml", "map/towns.toml",
            "map/roads.toml", "map/rivers.toml"} <= set(stored)


def test_the_campaign_reads_its_own_copy_when_the_shipped_data_changes(tmp_path, monkeypatch):
    create_campaign(tmp_path / "c.c1813").close()
    shipped = load_scenario()

    def gone(*_args, **_kwargs):
        raise AssertionError("the shipped scenario was read")

    monkeypatch.setattr(loader, "scenario_dir", gone)
    monkeypatch.setattr(document, "open_campaign", document.open_campaign)
    with open_campaign(tmp_path / "c.c1813") as doc:
        assert doc.scenario() == shipped


def test_an_open_reads_the_validated_form_without_parsing_the_files(tmp_path, monkeypatch):
    """The stored scenario is parsed and validated once, when the campaign is made."""
    create_campaign(tmp_path / "c.c1813").close()
    shipped = load_scenario()

    def parse(*_args, **_kwargs):
        raise AssertionError("the stored TOML was parsed again")

    monkeypatch.setattr(loader, "load_scenario", parse)
    with open_campaign(tmp_path / "c.c1813") as doc:
        assert doc.scenario() == shipped


def test_a_form_that_no_longer_matches_its_files_is_rebuilt_from_them(tmp_path):
    with create_campaign(tmp_path / "c.c1813") as doc:
        doc.con.execute("UPDATE scenario_form SET form_json = '{}', files_sha256 = 'stale'")
    with open_campaign(tmp_path / "c.c1813") as doc:
        assert doc.scenario() == load_scenario()
