"""The campaign day by day (record 0030): a snapshot of each dawn kept when the day before it
closes, and ``verify``, which rebuilds every day from the log and compares each one."""

from __future__ import annotations

import hashlib
import sqlite3
import zlib
from datetime import date, timedelta

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.cli import main
from campaign1813.campaign.store.codec import state_to_json
from campaign1813.campaign.store.document import open_campaign
from campaign1813.campaign.store.protocol import Verdict
from campaign1813.campaign.store.snapshots import LoggedChange, canonical, check, digest
from campaign1813.maps.types import Theatre

THEATRES = (Theatre.NORTHERN_GERMANY, Theatre.EASTERN_SPAIN)
FIRST = date(1813, 5, 1)


def _sql(path, sql: str, params: tuple = ()) -> None:
    con = sqlite3.connect(path)
    try:
        con.execute(sql, params)
        con.commit()
    finally:
        con.close()


@pytest.mark.parametrize("theatre", THEATRES, ids=lambda t: t.name.lower())
def test_every_day_of_thirty_is_rebuilt_from_the_log_with_its_hash(played, theatre):
    """Thirty days played in a theatre: a snapshot for each dawn from 2 to 31 May, every one
    what the log rebuilds, and today's state too."""
    path = played(theatre)
    with open_campaign(path) as doc:
        kept = queries.snapshots(doc)
        verdict = queries.verify(doc)
        battles = queries.day_state(doc).battles
    days = tuple(FIRST + timedelta(days=n) for n in range(1, 31))
    assert tuple(s.day for s in kept) == days
    assert verdict.checked == days and verdict.faults == () and verdict.missing == ()
    assert len(battles) >= 5  # the days were fought, not only marched


@pytest.mark.parametrize("theatre", THEATRES, ids=lambda t: t.name.lower())
def test_a_hand_changed_snapshot_is_named_by_verify(played, theatre, capsys):
    """A snapshot whose state was changed by hand (there: 5 May's state put in 12 May's place)
    is named with its day, and ``verify`` fails; the other days still check."""
    path = played(theatre)
    _sql(path, "UPDATE day_snapshot SET state = (SELECT state FROM day_snapshot WHERE "
               "day = '1813-05-05') WHERE day = '1813-05-12'")
    assert main(["verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("the snapshot of 12 May 1813 does not match the log: its state is "
                          "not the one the log rebuilds (")
    assert len(err.strip().splitlines()) == 1
    with open_campaign(path) as doc:
        assert len(queries.verify(doc).checked) == 29


def test_a_changed_hash_a_lost_snapshot_and_a_sound_file(played, capsys):
    """A hash changed by hand, and a snapshot deleted, are each named; the sound file passes."""
    path = played(Theatre.NORTHERN_GERMANY)
    assert main(["verify", str(path)]) == 0
    assert capsys.readouterr().out == ("30 days rebuilt from the log, every one as kept (2 May "
                                       "1813 to 31 May 1813); today's state as the log leaves "
                                       "it\n")
    _sql(path, "UPDATE day_snapshot SET sha256 = ? WHERE day = '1813-05-20'", ("0" * 64,))
    _sql(path, "DELETE FROM day_snapshot WHERE day = '1813-05-21'")
    assert main(["verify", str(path)]) == 1
    faults = capsys.readouterr().err.splitlines()
    assert faults[0].startswith("the snapshot of 20 May 1813 does not match the log: its hash "
                                "is 000000000000…, the log rebuilds ")
    assert faults[1] == "the snapshot of 21 May 1813 is logged but not kept"


def test_each_snapshot_is_the_state_at_that_dawn(fresh_campaign):
    """The snapshot of a day is the state the day opened with (as the store read it then),
    compressed; its hash is the sha256 of the state's canonical JSON."""
    path = fresh_campaign()
    with open_campaign(path) as doc:
        services.issue_order(doc, "1 Corps", "Move", "Leipzig")
        services.end_day(doc)
        second = queries.state_json(doc)
        services.issue_order(doc, "5 Corps", "Move", "Magdeburg")
        services.end_day(doc)
        third = queries.state_json(doc)
        services.end_day(doc)
        assert state_to_json(queries.state_on(doc, date(1813, 5, 2))) == second
        assert state_to_json(queries.state_on(doc, date(1813, 5, 3))) == third
        kept = {s.day: s for s in queries.snapshots(doc)}
    con = sqlite3.connect(path)
    blob, sha = con.execute("SELECT state, sha256 FROM day_snapshot WHERE day = "
                            "'1813-05-03'").fetchone()
    con.close()
    assert zlib.decompress(blob) == canonical(third)
    assert sha == hashlib.sha256(canonical(third)).hexdigest() == kept[date(1813, 5, 3)].sha256
    assert kept[date(1813, 5, 3)].size == len(blob) < len(canonical(third)) // 5


def _state(day: str, where: str) -> dict:
    return {"date": day, "marched": False, "next_battle": 1, "settings": {},
            "commands": {"5 Corps": {"position": [where]}}}


def test_the_rebuild_follows_each_entry_and_lists_days_closed_before_snapshots_were_kept():
    """By hand: an order, then End Day moving 5 Corps from Magdeburg to Burg with no snapshot
    logged (a day closed before schema 9: listed as missing, not a fault), then End Day to
    Genthin with its snapshot: checked. An entry whose before side is not what the log left is
    named, and so is a today that is not the end of the log."""
    first = _state("1813-05-01", "Magdeburg")
    second = _state("1813-05-02", "Burg")
    third = _state("1813-05-03", "Genthin")
    changes = [
        LoggedChange(1, "End day: 1 May 1813",
                     {"date": "1813-05-01", "commands": {"5 Corps": {"position": ["Magdeburg"]}}},
                     {"date": "1813-05-02", "commands": {"5 Corps": {"position": ["Burg"]}}}),
        LoggedChange(2, "End day: 2 May 1813",
                     {"date": "1813-05-02", "commands": {"5 Corps": {"position": ["Burg"]}},
                      "snapshots": {"1813-05-03": None}},
                     {"date": "1813-05-03", "commands": {"5 Corps": {"position": ["Genthin"]}},
                      "snapshots": {"1813-05-03": {"sha256": digest(third)}}}),
    ]
    kept = {date(1813, 5, 3): digest(third)}
    verdict = check(first, changes, kept, {date(1813, 5, 3): third}, third)
    assert verdict == Verdict((date(1813, 5, 3),), (date(1813, 5, 2),), ())
    assert digest(second) != digest(third)
    bent = [changes[0], LoggedChange(2, "End day: 2 May 1813",
                                     {**changes[1].before,
                                      "commands": {"5 Corps": {"position": ["Stendal"]}}},
                                     changes[1].after)]
    faults = check(first, bent, kept, {date(1813, 5, 3): third}, second).faults
    assert faults == (
        "the log's entry 2 (End day: 2 May 1813) does not follow the one before it: commands "
        "5 Corps is not what it found",
        "today's state does not match the log (commands 5 Corps position: kept [\"Burg\"], "
        "rebuilt [\"Genthin\"])")
