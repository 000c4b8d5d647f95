"""Writing an export: refused over an existing file without force, whole or not at all."""

import os

import pytest

from campaign1813.campaign.export.output import ExportError, write_new
from campaign1813.errors import CampaignError


def _only(folder):
    return sorted(p.name for p in folder.iterdir())


def test_a_new_file_is_written_and_no_temporary_file_remains(tmp_path):
    target = tmp_path / "oob.json"
    write_new(target, b'{"armies": []}', force=False)
    assert target.read_bytes() == b'{"armies": []}'
    assert _only(tmp_path) == ["oob.json"]


def test_an_existing_file_is_refused_without_force_and_left_as_it_was(tmp_path):
    target = tmp_path / "oob.csv"
    target.write_bytes(b"old")
    with pytest.raises(ExportError) as err:
        write_new(target, b"new", force=False)
    assert str(err.value) == f"{target}: exists; use --force to replace it"
    assert isinstance(err.value, CampaignError)
    assert target.read_bytes() == b"old"
    assert _only(tmp_path) == ["oob.csv"]


def test_force_replaces_the_file(tmp_path):
    target = tmp_path / "oob.csv"
    target.write_bytes(b"old, and longer than the new")
    write_new(target, b"new", force=True)
    assert target.read_bytes() == b"new"
    assert _only(tmp_path) == ["oob.csv"]


def test_a_missing_folder_is_a_clear_error_and_nothing_is_made(tmp_path):
    target = tmp_path / "nowhere" / "oob.pdf"
    with pytest.raises(ExportError, match="the folder .*nowhere does not exist"):
        write_new(target, b"x", force=True)
    assert _only(tmp_path) == []


def test_a_folder_in_the_way_is_refused_even_with_force(tmp_path):
    (tmp_path / "oob.pdf").mkdir()
    with pytest.raises(ExportError, match="is a folder"):
        write_new(tmp_path / "oob.pdf", b"x", force=True)


def test_a_failed_write_leaves_no_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "oob.json"
    target.write_bytes(b"old")

    def refuse(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(ExportError, match="cannot write: No space left on device"):
        write_new(target, b"new", force=True)
    assert target.read_bytes() == b"old"
    assert _only(tmp_path) == ["oob.json"]


def test_the_file_gets_the_ordinary_permissions_not_the_temporary_files(tmp_path):
    mask = os.umask(0o022)
    try:
        write_new(tmp_path / "a.csv", b"x", force=False)
    finally:
        os.umask(mask)
    assert (tmp_path / "a.csv").stat().st_mode & 0o777 == 0o644


# -- nothing written lands on a campaign or its journal -----------------------------------------


def test_an_export_never_replaces_a_campaign_even_with_force(tmp_path, fresh_campaign, capsys,
                                                            monkeypatch):
    from campaign1813.campaign.cli import main
    from campaign1813.campaign.store.document import open_campaign

    campaign = fresh_campaign(tmp_path / "F.c1813")
    before = campaign.read_bytes()
    monkeypatch.chdir(tmp_path)
    for spelling in ("F.c1813", "./F.c1813", str(campaign)):
        assert main(["export", "oob", str(campaign), "--json", spelling, "--force"]) == 1
        err = capsys.readouterr().err
        assert "is a campaign file (an SQLite database); an export never replaces one" in err
    assert campaign.read_bytes() == before
    open_campaign(campaign).close()


def test_an_export_never_goes_where_a_campaign_keeps_its_journal(tmp_path, fresh_campaign,
                                                                  capsys):
    from campaign1813.campaign.cli import main
    from campaign1813.campaign.store.document import open_campaign

    campaign = fresh_campaign(tmp_path / "F.c1813")
    journal = tmp_path / "F.c1813-journal"
    assert main(["export", "oob", str(campaign), "--json", str(journal)]) == 1
    assert (f"{journal}: is where SQLite keeps the journal of F.c1813; an export never goes "
            "there") in capsys.readouterr().err
    assert not journal.exists()
    open_campaign(campaign).close()
    # an ordinary name that happens to end so, with no file beside it, is just a name
    write_new(tmp_path / "notes-journal", b"x", force=False)


def test_a_backup_never_goes_over_an_open_campaign_nor_a_journal(tmp_path, fresh_campaign):
    from campaign1813.campaign.store.document import backup_campaign, open_campaign

    a = open_campaign(fresh_campaign(tmp_path / "a.c1813"))
    b = open_campaign(fresh_campaign(tmp_path / "b.c1813"))
    b_bytes = b.path.read_bytes()
    try:
        with pytest.raises(CampaignError, match="is a campaign open now; a copy never replaces"):
            backup_campaign(a, b.path, overwrite=True)
        (tmp_path / "link.c1813").symlink_to(a.path)
        with pytest.raises(CampaignError, match="is the campaign itself"):
            backup_campaign(a, tmp_path / "link.c1813", overwrite=True)
        with pytest.raises(CampaignError, match="keeps the journal of a.c1813; a copy never"):
            backup_campaign(a, tmp_path / "a.c1813-journal")
        assert b.path.read_bytes() == b_bytes
        assert not (tmp_path / "a.c1813-journal").exists()
    finally:
        a.close()
        b.close()
    # once closed, a campaign may be replaced by a copy the umpire asks for
    again = open_campaign(tmp_path / "a.c1813")
    try:
        backup_campaign(again, tmp_path / "b.c1813", overwrite=True)
    finally:
        again.close()
