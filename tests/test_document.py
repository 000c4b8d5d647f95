"""The campaign file: creating, checking, refusing, copying."""

import hashlib
import sqlite3
from datetime import date

import pytest

from campaign1813.campaign.errors import CampaignFileError
from campaign1813.campaign.store.document import (
    check_campaign_file,
    create_campaign,
    open_campaign,
    save_campaign_as,
)
from campaign1813.campaign.store.version import SCHEMA_VERSION


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_new_campaign_has_the_scenario_name_and_start_date(tmp_path):
    with create_campaign(tmp_path / "a.c1813") as doc:
        s = doc.summary()
    assert s.name == "The 1813 Campaign"
    assert s.start_date == date(1813, 5, 1)
    assert s.current_date == date(1813, 5, 1)


def test_new_campaign_refuses_to_overwrite(tmp_path):
    path = tmp_path / "a.c1813"
    create_campaign(path).close()
    before = digest(path)
    with pytest.raises(CampaignFileError, match="already exists"):
        create_campaign(path)
    assert digest(path) == before


def test_non_campaign_file_is_refused_and_untouched(tmp_path):
    path = tmp_path / "notes.c1813"
    path.write_text("Davout holds Hamburg.\n" * 20)
    before = digest(path)
    with pytest.raises(CampaignFileError) as err:
        open_campaign(path)
    assert str(err.value) == f"{path}: is not a campaign file (it is not an SQLite database)"
    assert digest(path) == before


def test_truncated_campaign_is_refused_and_untouched(tmp_path):
    good = tmp_path / "good.c1813"
    create_campaign(good).close()
    data = good.read_bytes()
    cut = tmp_path / "cut.c1813"
    cut.write_bytes(data[: len(data) // 2])
    before = digest(cut)
    with pytest.raises(CampaignFileError) as err:
        open_campaign(cut)
    assert str(err.value) == f"{cut}: is truncated ({len(data) // 2} of {len(data)} bytes)"
    assert digest(cut) == before


def test_other_sqlite_database_is_refused(tmp_path):
    path = tmp_path / "other.c1813"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    before = digest(path)
    with pytest.raises(CampaignFileError, match="not a campaign .it has no document table."):
        open_campaign(path)
    assert digest(path) == before


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "future.c1813"
    create_campaign(path).close()
    con = sqlite3.connect(path)
    con.execute("UPDATE document SET schema_version = ?", (SCHEMA_VERSION + 1,))
    con.commit()
    con.close()
    before = digest(path)
    newer = rf"written by a newer version .*schema {SCHEMA_VERSION + 1}"
    with pytest.raises(CampaignFileError, match=newer):
        check_campaign_file(path)
    assert digest(path) == before


def test_missing_and_empty_files(tmp_path):
    with pytest.raises(CampaignFileError, match="no such file"):
        open_campaign(tmp_path / "nothing.c1813")
    empty = tmp_path / "empty.c1813"
    empty.write_bytes(b"")
    with pytest.raises(CampaignFileError, match="is empty"):
        open_campaign(empty)


def test_save_as_copies_everything(tmp_path):
    doc = create_campaign(tmp_path / "a.c1813", name="Spring 1813")
    copy = save_campaign_as(doc, tmp_path / "b.c1813")
    assert copy.summary() == doc.summary()
    assert copy.path.name == "b.c1813"
    doc.close()
    copy.close()
