"""The store's contract, the same tests on both stores (the campaign file and the server): every
kind of umpire action logged and undone, the log's entry ids, refusals that change nothing, the
audit of what an undo would leave, another window's change seen, and a campaign moved whole
between them (push, play on the server, pull) equal to the same play on the file."""

from __future__ import annotations

import hashlib
import json
import zlib
from datetime import date
from pathlib import Path

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.cli import main as cli_main
from campaign1813.campaign.day.ground import OrderRefused
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.address import is_address
from campaign1813.campaign.store.codec import state_to_json
from campaign1813.campaign.store.opening import open_store
from campaign1813.campaign.store.protocol import DayMark, LogStep
from campaign1813.campaign.store.server import pull_campaign, push_campaign
from campaign1813.campaign.store.snapshots import canonical
from tests.day.test_scenarios import battle_setup
from tests.store.stores import campaign_address, write_raw


@pytest.fixture
def war(fresh_campaign, stores) -> str:
    """The shipped 1813 campaign on 1 May, in the test's store."""
    return stores(fresh_campaign())


@pytest.fixture
def found(tmp_path, stores) -> str:
    """3 May: the battle of Fenwick found, waiting for its result, in the test's store."""
    u = battle_setup(tmp_path)
    u.end_day()
    u.doc.close()
    return stores(tmp_path / "c.c1813")


def play(doc) -> None:
    """A short campaign: orders, a cancel, a setting, End Day twice, an undo and a redo."""
    services.issue_order(doc, "5 Corps", "Hold", "Magdeburg")
    services.issue_order(doc, "1 Corps", "Move", "Leipzig")
    services.issue_order(doc, "4 Corps", "Move", "Dresden", forced=True)
    services.cancel_order(doc, "1 Corps")
    services.change_setting(doc, "contact_miles", "5")
    services.end_day(doc)
    services.undo(doc)
    services.redo(doc)
    services.end_day(doc)


def test_each_action_is_logged_in_order_and_undo_and_redo_walk_the_log(war):
    with open_store(war) as doc:
        play(doc)
        labels = [a.text for a in queries.diary(doc)]
        state = queries.state_json(doc)
        assert state["date"] == "1813-05-03" and state["settings"] == {"contact_miles": 5.0}
        with doc.read() as log:
            logged = [(a.seq, a.kind, a.label) for a in log.log()]
        assert [k for _, k, _ in logged] == ["IssueOrder", "IssueOrder", "IssueOrder",
                                             "CancelOrder", "ChangeSetting", "EndDay", "EndDay"]
        assert [s for s, _, _ in logged] == sorted(s for s, _, _ in logged)
        for _ in range(3):
            services.undo(doc)
        after_undo = queries.state_json(doc)
        assert after_undo["date"] == "1813-05-01" and after_undo["settings"] == {}
        assert "1 Corps" not in {k.split("|")[0] for k in after_undo["orders"]}
        for _ in range(3):
            services.redo(doc)
        assert queries.state_json(doc) == state
        assert labels[0].startswith("Order: 5 Corps")


def test_a_new_action_after_an_undo_drops_what_could_have_been_redone(war):
    with open_store(war) as doc:
        services.issue_order(doc, "5 Corps", "Hold", "Magdeburg")
        services.issue_order(doc, "1 Corps", "Move", "Leipzig")
        services.undo(doc)
        assert queries.redo_step(doc) is not None
        services.issue_order(doc, "4 Corps", "Move", "Dresden")
        assert queries.redo_step(doc) is None
        with pytest.raises(OrderRefused, match="nothing to redo"):
            services.redo(doc)


def test_undo_takes_back_exactly_the_entry_shown_by_its_id(war):
    """Two windows: the second undoes the action the first showed, and takes an action with
    the same label; the first's undo of the entry it showed is refused, by its id."""
    with open_store(war) as first, open_store(war) as second:
        services.issue_order(first, "5 Corps", "Hold", "Magdeburg")
        shown = queries.undo_step(first)
        assert len(shown.entry) == 32 and int(shown.entry, 16) >= 0
        services.undo(second, shown)
        services.issue_order(second, "5 Corps", "Hold", "Magdeburg")
        again = queries.undo_step(second)
        assert again.label == shown.label and again.entry != shown.entry
        with pytest.raises(OrderRefused, match="changed elsewhere"):
            services.undo(first, shown)
        assert queries.undo_step(first) == again
        services.undo(first, LogStep(again.entry, again.label))
        assert queries.undo_step(first) is None


def test_a_refused_action_changes_nothing(war):
    with open_store(war) as doc:
        services.issue_order(doc, "5 Corps", "Hold", "Magdeburg")
        before = (queries.state_json(doc), [a.text for a in queries.diary(doc)],
                  queries.undo_step(doc))
        with pytest.raises(CampaignError):
            services.issue_order(doc, "5 Corps", "Move", "Atlantis")
        with pytest.raises(CampaignError):
            services.change_setting(doc, "contact_miles", "far")
        with pytest.raises(OrderRefused, match="nothing to redo"):
            services.redo(doc)
        assert (queries.state_json(doc), [a.text for a in queries.diary(doc)],
                queries.undo_step(doc)) == before


def test_battle_actions_result_postpone_and_undo(found):
    with open_store(found) as doc:
        battles = queries.campaign_status(doc).battles
        assert [(b.id, b.place, b.result) for b in battles] == [(1, "Fenwick", None)]
        services.postpone_battle(doc, 1, "rain", days=2)
        assert "postponed" in queries.diary_text(doc).lower()
        services.undo(doc)
        services.record_result(doc, 1, "French")
        assert queries.campaign_status(doc).battles[0].result == "French"
        services.undo(doc)
        assert queries.campaign_status(doc).battles[0].result is None


def test_a_damaged_log_entry_is_refused_by_undo_and_nothing_changes(war):
    with open_store(war) as doc:
        services.issue_order(doc, "5 Corps", "Hold", "Magdeburg")
        before = queries.state_json(doc)
    write_raw(war, "UPDATE event_log SET before_json = ?",
              (json.dumps({"commands": {"5 Corps": {"position": ["Nowhere"]}}}),))
    with open_store(war) as doc:
        with pytest.raises(CampaignError, match=r"entry .* is damaged"):
            services.undo(doc)
        assert queries.state_json(doc) == before
        assert queries.undo_step(doc) is not None


def test_a_damaged_state_is_refused_when_the_campaign_is_opened(war):
    write_raw(war, "UPDATE day_command SET position_json = ? WHERE name = ?",
              ('["Atlantis"]', "5 Corps"))
    with pytest.raises(CampaignError, match="Atlantis.* not on the map"):
        open_store(war)


def test_another_windows_change_is_seen(war):
    with open_store(war) as first, open_store(war) as second:
        seen = first.data_version()
        services.issue_order(first, "5 Corps", "Hold", "Magdeburg")
        assert first.data_version() == seen  # its own commit is not another's
        services.issue_order(second, "1 Corps", "Move", "Leipzig")
        assert first.data_version() != seen
        assert {"5 Corps", "1 Corps"} <= {k.split("|")[0]
                                          for k in queries.state_json(first)["orders"]}


def test_a_unit_of_work_reads_nothing_written_by_a_refused_one(war):
    with open_store(war) as doc:
        with pytest.raises(RuntimeError), doc.unit_of_work() as work:
            state = work.state()
            state.marched = True
            work.put_state(state)
            raise RuntimeError("the action failed half-way")
        assert queries.state_json(doc)["marched"] is False
        assert queries.diary(doc) == []


def test_push_play_pull_gives_the_file_of_the_same_play(fresh_campaign, tmp_path, request):
    """A campaign pushed to the server, played there and pulled back is the file played the
    same way: status, diary and log alike."""
    database = request.getfixturevalue("pg_database")
    source = fresh_campaign(tmp_path / "a.c1813")
    on_file = fresh_campaign(tmp_path / "b.c1813")
    address = campaign_address(database)
    push_campaign(source, address)
    for target in (address, str(on_file)):
        with open_store(target) as doc:
            play(doc)
    pulled = pull_campaign(address, tmp_path / "pulled.c1813")

    def seen(target: str) -> tuple:
        with open_store(target) as doc:
            with doc.read() as log:
                entries = [(a.kind, a.label, a.lines, a.day) for a in log.log()]
                redo = log.redo_step()
            return (queries.status_json(queries.campaign_status(doc)), queries.diary_text(doc),
                    entries, redo is None)

    assert seen(str(pulled)) == seen(str(on_file)) == seen(address)
    assert Path(pulled).read_bytes()[:16] == b"SQLite format 3\x00"


def test_end_day_keeps_the_next_dawn_with_its_hash_and_undo_and_redo_take_it_back(war):
    """The campaign day by day (record 0030): closing 1 May keeps the state at dawn of 2 May,
    compressed, with the sha256 of its canonical JSON; undo removes it, redo keeps it again."""
    with open_store(war) as doc:
        services.issue_order(doc, "1 Corps", "Move", "Leipzig")
        services.end_day(doc)
        dawn = queries.state_json(doc)
        [kept] = queries.snapshots(doc)
        assert kept.day == date(1813, 5, 2)
        assert kept.sha256 == hashlib.sha256(canonical(dawn)).hexdigest()
        assert state_to_json(queries.state_on(doc, date(1813, 5, 2))) == dawn
        services.undo(doc)
        assert queries.snapshots(doc) == []
        services.redo(doc)
        assert queries.snapshots(doc) == [kept]
        verdict = queries.verify(doc)
        assert verdict.checked == (date(1813, 5, 2),) and verdict.sound


def test_a_snapshot_changed_behind_the_store_is_named_by_verify(war):
    """``verify`` rebuilds each day from the log: a snapshot's stored state changed by another
    program is named with its day, on either store."""
    with open_store(war) as doc:
        services.issue_order(doc, "1 Corps", "Move", "Leipzig")
        services.end_day(doc)
        services.end_day(doc)
    other = zlib.compress(canonical({"date": "1813-05-03", "commands": {}}))
    write_raw(war, "UPDATE day_snapshot SET state = ? WHERE day = ?", (other, "1813-05-03"))
    with open_store(war) as doc:
        verdict = queries.verify(doc)
    assert verdict.checked == (date(1813, 5, 2),)
    [fault] = verdict.faults
    assert fault.startswith("the snapshot of 3 May 1813 does not match the log: ")
    assert cli_main(["verify", war]) == 1


def test_a_days_bookmark_and_note_are_logged_undone_and_redone(war):
    """The umpire's bookmark and note on a day of the history (record 0030) are an action of
    the log: undo takes them back, redo puts them again; a day the campaign has not had is
    refused with the campaign unchanged."""
    with open_store(war) as doc:
        services.end_day(doc)
        services.mark_day(doc, date(1813, 5, 1), True, "  the Prussians cross the Elbe ")
        assert queries.day_marks(doc) == {
            date(1813, 5, 1): DayMark(date(1813, 5, 1), True, "the Prussians cross the Elbe")}
        assert queries.diary(doc)[-1].text == ("The umpire's bookmark on 1 May 1813: the "
                                               "Prussians cross the Elbe")
        services.undo(doc)
        assert queries.day_marks(doc) == {}
        services.redo(doc)
        assert set(queries.day_marks(doc)) == {date(1813, 5, 1)}
        services.mark_day(doc, date(1813, 5, 1), False, "")
        assert queries.day_marks(doc) == {}
        before = queries.state_json(doc), len(queries.diary(doc))
        with pytest.raises(OrderRefused, match="3 May 1813 is not a day of this campaign, "
                                               "which ran from 1 May 1813 to 2 May 1813"):
            services.mark_day(doc, date(1813, 5, 3), True)
        assert (queries.state_json(doc), len(queries.diary(doc))) == before


def test_a_closed_days_moves_are_kept_with_its_dawn_and_undo_redo_and_pull_carry_them(
        war, tmp_path):
    """Record 0034: closing a day keeps both sides' moves of it beside its dawn; undo takes
    them back with the dawn, redo keeps them again, and a campaign pulled from the server (or
    copied) keeps them too; the sides' views read from them are the ones made from every
    dawn."""
    with open_store(war) as doc:
        services.issue_order(doc, "1 Corps", "Move", "Leipzig")
        services.end_day(doc)
        services.end_day(doc)
        with doc.read() as reader:
            kept = reader.journals()
        assert list(kept) == [date(1813, 5, 2), date(1813, 5, 3)]
        moved = [m for m in kept[date(1813, 5, 2)] or () if m.name == "1 Corps"]
        assert [m.text.split(" to ")[0] for m in moved] == ["1 Corps marched from Fulda"]
        view = queries.side_view(doc, Side.FRENCH)
        services.undo(doc)
        with doc.read() as reader:
            assert list(reader.journals()) == [date(1813, 5, 2)]
        services.redo(doc)
        with doc.read() as reader:
            assert reader.journals() == kept
        assert queries.side_view(doc, Side.FRENCH) == view
        assert any(line.startswith("  1 Corps marched from Fulda") for line in view.diary)
    copy = tmp_path / "copy.c1813"
    if is_address(war):
        pull_campaign(war, copy)
    else:
        copy.write_bytes(Path(war).read_bytes())
    with open_store(str(copy)) as doc:
        with doc.read() as reader:
            assert reader.journals() == kept
        assert queries.side_view(doc, Side.FRENCH) == view
