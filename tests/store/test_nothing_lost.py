"""Nothing lost: file names that mean themselves, honest messages for locked, read-only and odd
files, damaged states refused on open, limits on extreme input, backups, escaped output."""

import hashlib
import os
import shutil
import sqlite3
from datetime import date
from pathlib import Path

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.cli import escape, main
from campaign1813.campaign.day.ground import OrderRefused
from campaign1813.campaign.errors import CampaignError, CampaignFileError
from campaign1813.campaign.store import document
from campaign1813.campaign.store.document import (
    CampaignBusy,
    backup_campaign,
    create_campaign,
    open_campaign,
)
from tests.day.test_scenarios import battle_setup, make


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def shipped(tmp_path_factory) -> Path:
    """One campaign of the shipped scenario, copied by the tests that change it."""
    path = tmp_path_factory.mktemp("shipped") / "spring.c1813"
    create_campaign(path).close()
    return path


def copy_of(shipped: Path, folder: Path, name: str = "c.c1813") -> Path:
    path = folder / name
    shutil.copy(shipped, path)
    return path


# -- 3. a file name means itself ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["spring%201813.c1813", "what?.c1813", "a#b.c1813",
                                  "spring 1813.c1813", "50%.c1813"])
def test_any_legal_file_name_means_that_file(shipped, tmp_path, capsys, name):
    """`order 'spring%201813.c1813'` once wrote into `spring 1813.c1813`; `?` made stray files."""
    path = copy_of(shipped, tmp_path, name)
    decoy = copy_of(shipped, tmp_path, "spring 1813.c1813") if "%20" in name else None
    before = digest(decoy) if decoy else None
    code, out, _ = run(capsys, "order", str(path), "5 Corps", "Hold", "Magdeburg")
    assert code == 0 and out == "Order: 5 Corps – Hold Magdeburg\n"
    with open_campaign(path) as doc:
        assert queries.day_state(doc).orders["5 Corps"].objective == "Magdeburg"
    if decoy:
        assert digest(decoy) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        {name, *(["spring 1813.c1813"] if decoy else [])})


# -- 1 and 8. busy and locked files ---------------------------------------------------------


def test_an_action_while_another_program_writes_says_busy_and_changes_nothing(
        shipped, tmp_path, monkeypatch):
    path = copy_of(shipped, tmp_path)
    monkeypatch.setattr(document, "BUSY_SECONDS", 0.1)
    doc = open_campaign(path)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    before = digest(path)
    with pytest.raises(CampaignBusy) as err:
        services.issue_order(doc, "5 Corps", "Hold", "Magdeburg")
    assert str(err.value) == (f"{path}: the campaign is busy in another window or program; "
                              "try again")
    other.execute("ROLLBACK")
    other.close()
    assert digest(path) == before
    services.issue_order(doc, "5 Corps", "Hold", "Magdeburg")  # and once free, it works
    doc.close()


def test_a_file_locked_by_another_program_is_busy_not_damaged(shipped, tmp_path, monkeypatch):
    """An exclusive lock held elsewhere was reported as 'is damaged (database is locked)'."""
    path = copy_of(shipped, tmp_path)
    monkeypatch.setattr(document, "BUSY_SECONDS", 0.1)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(CampaignBusy, match="busy in another window or program"):
            open_campaign(path)
    finally:
        other.execute("ROLLBACK")
        other.close()


# -- 8. read-only files, odd files, a garbage journal ----------------------------------------


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write any file")
def test_a_read_only_file_opens_read_only(shipped, tmp_path):
    path = copy_of(shipped, tmp_path)
    path.chmod(0o444)
    before = digest(path)
    with open_campaign(path) as doc:
        assert doc.readonly
        assert queries.campaign_status(doc).date == date(1813, 5, 1)
        with pytest.raises(CampaignFileError, match="is read-only; it can be viewed but not"):
            services.end_day(doc)
    assert digest(path) == before


def test_a_read_only_document_refuses_every_change(shipped, tmp_path):
    """As the window and the command line see a file they may not write (root may write any
    file, so the document is made read-only by hand here)."""
    path = copy_of(shipped, tmp_path)
    before = digest(path)
    con = document.connect(path, "ro")
    doc = document.CampaignDocument(path, con, readonly=True)
    assert len(queries.campaign_status(doc).commands) == 50
    with pytest.raises(CampaignFileError) as err:
        services.issue_order(doc, "5 Corps", "Hold", "Magdeburg")
    assert str(err.value) == f"{path}: is read-only; it can be viewed but not changed"
    doc.close()
    assert digest(path) == before


def test_a_fifo_and_dev_null_are_not_called_folders(tmp_path):
    fifo = tmp_path / "pipe.c1813"
    os.mkfifo(fifo)
    with pytest.raises(CampaignFileError, match="is not a regular file, not a campaign file"):
        open_campaign(fifo)
    with pytest.raises(CampaignFileError, match="is not a regular file, not a campaign file"):
        open_campaign("/dev/null")
    with pytest.raises(CampaignFileError, match="is a folder, not a campaign file"):
        open_campaign(tmp_path)


def test_a_garbage_journal_beside_a_campaign_is_named_and_left_alone(shipped, tmp_path, capsys):
    """A read-only `status` deleted a `-journal` that was not SQLite's."""
    path = copy_of(shipped, tmp_path)
    journal = tmp_path / "c.c1813-journal"
    journal.write_bytes(b"not a journal at all" * 10)
    before = digest(path)
    code, _, err = run(capsys, "status", str(path))
    assert code == 1
    assert err == (f"campaign1813: error: {path}: has a file c.c1813-journal beside it that is "
                   "not SQLite's journal; move that file away, then open the campaign\n")
    assert journal.read_bytes() == b"not a journal at all" * 10
    assert digest(path) == before
    journal.unlink()
    assert run(capsys, "status", str(path))[0] == 0


# -- 7. damaged states are refused on open, naming the file ------------------------------------


@pytest.mark.parametrize(("sql", "reason"), [
    ("UPDATE day_command SET position_json = '[\"Hamburg\", \"Harburg\", -5]' "
     "WHERE name = '4 Corps'", "day_command row '4 Corps': a position's miles must be 0 or "
                               "more, not -5.0"),
    ("UPDATE day_command SET position_json = '[\"Hamburg\", \"Harburg\", 500]' "
     "WHERE name = '4 Corps'", "4 Corps stands 500 miles along the"),
    ("DELETE FROM day_command", "commands of the scenario are missing: 1 British Corps, "
                                "1 Corps, 1 Spanish Corps and 47 more"),
    ("UPDATE day_command SET position_json = '[\"Atlantis\"]' WHERE name = '4 Corps'",
     "4 Corps stands at 'Atlantis', which is not on the map"),
    ("UPDATE day_command SET status = 'asleep' WHERE name = '4 Corps'",
     "day_command row '4 Corps': Invalid enum value 'asleep' - at `$.status`"),
    ("UPDATE day_command SET position_json = 'not json' WHERE name = '4 Corps'",
     "day_command row '4 Corps': "),
    ("DROP TABLE day_order", "its table day_order is missing"),
    ("INSERT INTO day_order (command, verb, objective, via_json, route_json, forced, breakout, "
     "issued, effective, pending) VALUES ('5 Corps', 'Move', 'Atlantis', '[]', '[\"Atlantis\"]',"
     " 0, 0, '1813-05-01', '1813-05-01', 0)",
     "the standing order for 5 Corps names 'Atlantis', which is not on the map"),
    ("DELETE FROM day_info", "its day_info table must hold one row"),
    ("UPDATE town_control SET side = 'Martian' WHERE town = 'Hamburg'",
     "town_control row 'Hamburg': side 'Martian' is neither French nor Allied"),
])
def test_a_damaged_state_is_refused_on_open_and_left_as_it_is(shipped, tmp_path, sql, reason):
    path = copy_of(shipped, tmp_path)
    con = sqlite3.connect(path)
    con.execute(sql)
    con.commit()
    con.close()
    before = digest(path)
    with pytest.raises(CampaignFileError) as err:
        open_campaign(path)
    assert str(err.value).startswith(f"{path}: is damaged")
    assert reason in str(err.value)
    assert digest(path) == before


@pytest.mark.parametrize("version", ["'abc'", "1.5", "0", "-3"])
def test_a_nonsense_schema_version_is_refused(shipped, tmp_path, version):
    path = copy_of(shipped, tmp_path)
    con = sqlite3.connect(path)
    con.execute(f"UPDATE document SET schema_version = {version}")
    con.commit()
    con.close()
    with pytest.raises(CampaignFileError, match="is damaged \\(its schema version is"):
        open_campaign(path)


# -- 9. extreme input ------------------------------------------------------------------------


def test_the_calendar_ends_on_31_december_9999(tmp_path):
    u = make(tmp_path, {"1 Corps": "Aston"}, {"I Corps": "Fenwick"},
             start_date=date(9999, 12, 31))
    before = u.dump()
    with pytest.raises(OrderRefused, match="calendar cannot go past 31 December 9999"):
        u.end_day()
    assert u.dump() == before


def test_a_battle_is_postponed_by_a_season_at_most(tmp_path):
    u = battle_setup(tmp_path)
    u.end_day()  # 3 May: the battle of Fenwick is found
    before = u.dump()
    with pytest.raises(OrderRefused, match="can be postponed by 1 to 366 days, not 10000000"):
        services.postpone_battle(u.doc, 1, "the players are away", days=10_000_000)
    assert u.dump() == before


def test_deeply_nested_toml_is_refused_with_the_file(tmp_path, capsys):
    from campaign1813.campaign.scenario.loader import read_scenario_folder

    folder = tmp_path / "deep"
    for name, text in read_scenario_folder().items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    (folder / "settings.toml").write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    code, _, err = run(capsys, "scenario", "check", str(folder))
    assert code == 1
    assert "settings.toml: not valid TOML (its tables or lists are nested too deeply)" in err


# -- 10. backups --------------------------------------------------------------------------------


def test_backup_of_an_open_campaign_is_whole_and_consistent(shipped, tmp_path, capsys):
    path = copy_of(shipped, tmp_path)
    with open_campaign(path) as doc:
        services.issue_order(doc, "5 Corps", "Hold", "Magdeburg")
        code, out, _ = run(capsys, "backup", str(path), str(tmp_path / "b.c1813"))
        assert code == 0 and out.startswith(f"backed up {path} to {tmp_path / 'b.c1813'}")
        expected = queries.state_json(doc)
    with open_campaign(tmp_path / "b.c1813") as copy:
        assert queries.state_json(copy) == expected
    code, _, err = run(capsys, "backup", str(path), str(tmp_path / "b.c1813"))
    assert code == 1 and "b.c1813: already exists; choose another name" in err
    with open_campaign(path) as doc:
        with pytest.raises(CampaignFileError, match="is the campaign itself"):
            backup_campaign(doc, path)


# -- 11. names are escaped on the terminal -------------------------------------------------


def test_terminal_escape_codes_are_printed_escaped(shipped, tmp_path, capsys):
    path = copy_of(shipped, tmp_path)
    code, _, err = run(capsys, "order", str(path), "\x1b[2J\x1b[31mRed Corps", "Move", "Berlin")
    assert code == 1
    assert err == ("campaign1813: error: no command called '\\x1b[2J\\x1b[31mRed Corps' in this "
                   "campaign\n")


def test_a_name_that_was_not_utf8_is_printed_escaped(shipped, tmp_path, capsys):
    path = copy_of(shipped, tmp_path)
    name = b"\xff Corps".decode("utf-8", "surrogateescape")
    code, _, err = run(capsys, "order", str(path), name, "Move", "Berlin")
    assert code == 1
    assert err == "campaign1813: error: no command called '\\udcff Corps' in this campaign\n"


def test_escape_keeps_lines_and_tabs():
    assert escape("a\tb\nc\x07d\x9be") == "a\tb\nc\\x07d\\x9be"
    assert isinstance(CampaignBusy("x"), CampaignError)


def _open_and_tell(path, start, results):
    from campaign1813.campaign.errors import CampaignError
    from campaign1813.campaign.store.document import open_campaign

    start.wait()
    try:
        with open_campaign(path) as doc:
            results.put(("ok", doc.summary().current_date.isoformat()))
    except CampaignError as exc:
        results.put(("refused", str(exc)))
    except Exception as exc:  # an internal error: what the test is looking for
        results.put(("internal", f"{type(exc).__name__}: {exc}"))


def test_two_programs_opening_an_old_file_upgrade_it_once(tmp_path):
    """Two programs open one file of the first release's schema at the same moment: the
    second waits for the first's upgrade (or is told the file is being upgraded), never
    works through the same half-built copy, and the file ends upgraded and whole."""
    import multiprocessing

    golden = Path(__file__).parents[1] / "fixtures" / "golden-v1.c1813"
    ctx = multiprocessing.get_context("fork")
    for round_ in range(6):
        path = tmp_path / f"old{round_}.c1813"
        shutil.copy(golden, path)
        start, results = ctx.Barrier(2), ctx.Queue()
        children = [ctx.Process(target=_open_and_tell, args=(path, start, results))
                    for _ in range(2)]
        for child in children:
            child.start()
        told = [results.get(timeout=60) for _ in children]
        for child in children:
            child.join(60)
        assert all(kind != "internal" for kind, _ in told), told
        assert any(kind == "ok" for kind, _ in told), told
        for kind, said in told:
            assert kind == "ok" or "is being upgraded or written by another program" in said
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(path.name)) == [
            path.name]
        with open_campaign(path) as doc:
            assert doc.summary().current_date == date(1813, 5, 7)


@pytest.mark.parametrize(("table", "column"), [("day_info", "settings_json"),
                                               ("campaign", "settings_json")])
def test_json_nested_past_any_limit_is_damage_not_an_internal_error(fresh_campaign, table,
                                                                    column):
    from campaign1813.campaign.errors import CampaignError

    path = fresh_campaign()
    con = sqlite3.connect(path)
    con.execute(f"UPDATE {table} SET {column} = ?", ("[" * 100_000,))
    con.commit()
    con.close()
    with pytest.raises(CampaignError, match="is damaged"):
        with open_campaign(path) as doc:
            doc.settings()


def _tamper_last_entry(path: Path, column: str, change) -> None:
    con = sqlite3.connect(path)
    seq, text = con.execute(f"SELECT seq, {column} FROM event_log ORDER BY seq DESC "
                            "LIMIT 1").fetchone()
    con.execute(f"UPDATE event_log SET {column} = ? WHERE seq = ?", (change(text), seq))
    con.commit()
    con.close()


def _ordered(fresh_campaign) -> Path:
    path = fresh_campaign()
    with open_campaign(path) as doc:
        services.issue_order(doc, "4 Corps", "Move", "Lüneburg")
        services.end_day(doc)
    return path


@pytest.mark.parametrize(("what", "change"), [
    ("a march of -30 miles", lambda t: t.replace('"marched": 0.0', '"marched": -30.0', 1)),
    ("a position on no road", lambda t: t.replace('"position": [', '"position": ["Atlantis", ', 1)),
    ("not JSON", lambda t: t[: len(t) // 2]),
    ("nested past any limit", lambda t: "[" * 100_000),
    ("a section no campaign has", lambda t: '{"martians": {}}'),
])
def test_an_undo_of_a_damaged_log_entry_is_refused_and_changes_nothing(fresh_campaign, what,
                                                                        change):
    from campaign1813.campaign.errors import CampaignError

    path = _ordered(fresh_campaign)
    _tamper_last_entry(path, "before_json", change)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    with open_campaign(path) as doc:
        with pytest.raises(CampaignError, match=r"the log's entry \d+ \(End day.*\) is damaged, "
                                                "so it cannot be undone"):
            services.undo(doc)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before, what
    with open_campaign(path) as doc:  # and the campaign still opens and plays on
        assert queries.campaign_status(doc).date == date(1813, 5, 2)


def test_a_log_entry_never_puts_its_own_words_into_the_sql(fresh_campaign):
    """A key of a saved row is a column name only if the table declares it: a crafted key that
    would have run its own statement is refused, and nothing is written."""
    from campaign1813.campaign.errors import CampaignError

    path = _ordered(fresh_campaign)
    crafted = 'name") SELECT name, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 FROM day_command --'
    as_json = crafted.replace('"', '\\"')
    _tamper_last_entry(path, "before_json", lambda t: t.replace('"name":', f'"{as_json}":', 1))
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    with open_campaign(path) as doc:
        with pytest.raises(CampaignError, match="which is not one of the table's columns"):
            services.undo(doc)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


@pytest.mark.parametrize(("sql", "why"), [
    ("UPDATE day_command SET marched = -30 WHERE name = '4 Corps'", "marched"),
    ("UPDATE day_command SET marched = 9e999 WHERE name = '4 Corps'", "marched"),
])
def test_a_stored_value_no_campaign_can_hold_is_refused_on_open(fresh_campaign, sql, why):
    from campaign1813.campaign.errors import CampaignError

    path = fresh_campaign()
    con = sqlite3.connect(path)
    con.execute(sql)
    con.commit()
    con.close()
    with pytest.raises(CampaignError, match=f"is damaged.*{why}"):
        open_campaign(path)


def test_a_battle_result_that_is_no_side_is_refused_on_open(fresh_campaign):
    from campaign1813.campaign.errors import CampaignError

    path = fresh_campaign()
    with open_campaign(path) as doc:
        services.issue_order(doc, "I Prussian Corps", "Attack", "Magdeburg")
        for _ in range(6):
            services.end_day(doc)
    con = sqlite3.connect(path)
    con.execute("UPDATE day_battle SET result = 'Martians'")
    con.commit()
    con.close()
    with pytest.raises(CampaignError, match="is damaged.*result"):
        open_campaign(path)


@pytest.mark.parametrize(("old", "new", "why"), [
    ('"road":15.0', '"road":1e300', "road"),
    ('"steps_per_day":12', '"steps_per_day":100000000', "steps_per_day"),
])
def test_an_edited_stored_scenario_is_checked_as_its_files_are(fresh_campaign, old, new, why):
    """The campaign's stored copy of its scenario holds to the ranges the scenario's files are
    held to, though the files' hash still matches: a copy out of range is not trusted, and the
    scenario is read again from the campaign's own files (no corps marches 1e300 miles a day,
    and no End Day runs a hundred million steps)."""
    path = fresh_campaign()
    con = sqlite3.connect(path)
    form = con.execute("SELECT form_json FROM scenario_form").fetchone()[0]
    assert old in form
    con.execute("UPDATE scenario_form SET form_json = ?", (form.replace(old, new, 1),))
    con.commit()
    con.close()
    with open_campaign(path) as doc:
        settings = doc.scenario().settings
        assert (settings.foot_rate.road, settings.steps_per_day) == (15.0, 12), why
