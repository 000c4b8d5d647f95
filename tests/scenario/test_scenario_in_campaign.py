"""A campaign carries its own copy of the scenario: it never depends on the shipped data."""

from campaign1813.campaign import document
from campaign1813.campaign.scenario import loader
from campaign1813.campaign.scenario.loader import (
    load_scenario,
    read_scenario_folder,
    scenario_of,
    stored_scenario_files,
)
from campaign1813.campaign.store.document import create_campaign, open_campaign


def test_every_scenario_file_is_copied_into_the_campaign(tmp_path):
    with create_campaign(tmp_path / "c.c1813") as doc, doc.session() as session:
        stored = stored_scenario_files(session)
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
    monkeypatch.setattr(document, "scenario_dir", gone)
    with open_campaign(tmp_path / "c.c1813") as doc, doc.session() as session:
        assert scenario_of(session) == shipped
