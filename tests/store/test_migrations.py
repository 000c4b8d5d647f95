"""Schema migrations: a version-1 campaign opens, is upgraded, and plays on; a failed upgrade
leaves the file byte for byte as it was; new files and upgraded files have one layout."""

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.cli import main
from campaign1813.campaign.errors import CampaignFileError
from campaign1813.campaign.store import migrate
from campaign1813.campaign.store.document import create_campaign, open_campaign
from campaign1813.campaign.store.version import APPLICATION_ID, REVISIONS, SCHEMA_VERSION

FIXTURES = Path(__file__).parents[1] / "fixtures"
GOLDEN = FIXTURES / "golden-v1.c1813"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def golden(tmp_path) -> Path:
    """A copy of the version-1 file made by the first release (status, diary and all)."""
    path = tmp_path / "golden.c1813"
    shutil.copy(GOLDEN, path)
    return path


def version_of(path: Path) -> int:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT schema_version FROM document").fetchone()[0]
    finally:
        con.close()


def test_the_golden_file_is_version_1():
    assert version_of(GOLDEN) == 1


def test_a_version_1_file_opens_upgraded_and_shows_what_it_showed(golden, capsys):
    """The status and diary the first release printed for this file, word for word (but for
    what status has said since)."""
    assert main(["status", "--json", str(golden)]) == 0
    status = json.loads(capsys.readouterr().out)
    # what this version adds (the objectives' state) comes after what the first release showed
    assert [o["number"] for o in status.pop("objectives")] == list(range(1, 13))
    assert status == json.loads((FIXTURES / "golden-v1.status.json").read_text())
    assert main(["status", str(golden)]) == 0
    # one line has grown since the first release: 4 Corps's line names the casualties its two
    # forced marches left it to carry (status --json always had them); and the objectives'
    # state comes after what the first release showed
    four = "  4 Corps                      French  Lüneburg                                 " \
           "ready; no orders"
    first_release = (FIXTURES / "golden-v1.status.txt").read_text()
    assert f"{four}\n" in first_release
    first_release = first_release.replace(
        f"{four}\n", f"{four}; casualties carried: 2 on each of brigades 13–16\n")
    text = capsys.readouterr().out
    assert text.startswith(first_release)
    assert text[len(first_release):].startswith("Objectives (3 of 12 met; see 'objectives'):")
    assert main(["diary", str(golden)]) == 0
    assert capsys.readouterr().out == (FIXTURES / "golden-v1.diary.txt").read_text()
    assert version_of(golden) == SCHEMA_VERSION
    con = sqlite3.connect(golden)
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert con.execute("SELECT version_num FROM alembic_version").fetchone()[0] == \
        REVISIONS[SCHEMA_VERSION]
    battle = con.execute("SELECT french_reinforcements_json, allied_reinforcements_json "
                         "FROM day_battle WHERE id = 1").fetchone()
    assert battle == ("[]", "[]")
    con.close()


def test_the_upgraded_file_plays_on(golden):
    """7 May 1813 in the golden file: I Prussian Corps lost at Magdeburg and must retreat;
    the undone order for 6 Corps can be redone; the day ends."""
    with open_campaign(golden) as doc:
        assert queries.next_redo(doc) == "Order: 6 Corps – Move Celle"
        assert services.redo(doc).label == "Redo Order: 6 Corps – Move Celle"
        services.issue_order(doc, "I Prussian Corps", "Move", "Burg")
        changes = services.end_day(doc)
        assert changes.report is not None and changes.report.closed
        state = queries.day_state(doc)
    assert state.date.isoformat() == "1813-05-08"
    assert state.commands["I Prussian Corps"].position.a == "Burg"
    with open_campaign(golden) as doc:  # and undo reaches back into the first release's log
        for _ in range(4):
            services.undo(doc)
        assert queries.day_state(doc).date.isoformat() == "1813-05-07"


def test_a_failed_upgrade_leaves_the_file_as_it_was(golden, monkeypatch):
    """The revisions run on a copy; a fault after they have run leaves the original whole."""
    before = digest(golden)

    def fail(_path):
        raise RuntimeError("the disk filled up")

    monkeypatch.setattr(migrate, "_complete", fail)
    with pytest.raises(CampaignFileError) as err:
        open_campaign(golden)
    assert str(err.value) == (
        f"{golden}: could not be upgraded from schema 1 to {SCHEMA_VERSION} "
        "(RuntimeError: the disk filled up); it is unchanged")
    assert digest(golden) == before
    assert sorted(p.name for p in golden.parent.iterdir()) == ["golden.c1813"]
    monkeypatch.undo()
    with open_campaign(golden) as doc:  # a later try succeeds
        assert doc.summary().name == "Golden v1"


def test_a_failure_inside_a_revision_leaves_the_file_as_it_was(golden, monkeypatch):
    from alembic import op

    before = digest(golden)
    real = op.create_table

    def broken(name, *columns, **kw):
        if name == "scenario_form":
            raise RuntimeError("power cut")
        return real(name, *columns, **kw)

    monkeypatch.setattr(op, "create_table", broken)
    with pytest.raises(CampaignFileError, match="could not be upgraded .*power cut"):
        open_campaign(golden)
    assert digest(golden) == before


def test_a_new_file_has_exactly_the_layout_the_tables_declare(tmp_path):
    create_campaign(tmp_path / "new.c1813").close()
    assert migrate.compare_layout(tmp_path / "new.c1813") == []


def test_an_upgraded_file_has_the_layout_of_a_new_one(golden, tmp_path):
    open_campaign(golden).close()
    assert migrate.compare_layout(golden) == []
    create_campaign(tmp_path / "new.c1813").close()

    def layout(path):
        con = sqlite3.connect(path)
        try:
            tables = [r[0] for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
            return {t: [(c[1], c[2], c[3]) for c in con.execute(f'PRAGMA table_info("{t}")')]
                    for t in tables}
        finally:
            con.close()

    assert layout(golden) == layout(tmp_path / "new.c1813")


def test_a_new_file_is_marked_as_a_campaign(tmp_path):
    create_campaign(tmp_path / "new.c1813").close()
    con = sqlite3.connect(tmp_path / "new.c1813")
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert con.execute("SELECT schema_version FROM document").fetchone()[0] == SCHEMA_VERSION
    con.close()
