"""What an export stopped half-way leaves is cleaned, and nothing else; every refusal of a
damaged file is one line."""

import fcntl
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from campaign1813.campaign.errors import CampaignFileError
from campaign1813.campaign.export.output import STALE_SECONDS, clean_stale_parts, write_new
from campaign1813.campaign.store.document import open_campaign

ROOT = Path(__file__).parents[2]
# A child that writes an export and is killed (kill -9) after its temporary file is written
# and before it is renamed into place: what a power cut or a killed program leaves.
KILLED_EXPORT = """
import os, signal, sys
from campaign1813.campaign.export import output
os.replace = lambda src, dst: os.kill(os.getpid(), signal.SIGKILL)
output.write_new(output.Path(sys.argv[1]), b"half of an export", force=True)
"""


def parts(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


def killed_export(target: Path) -> Path:
    """Run an export to ``target`` that is killed half-way; the temporary file it left."""
    before = set(parts(target.parent))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", KILLED_EXPORT, str(target)], env=env,
                          timeout=60, check=False)
    assert done.returncode == -9
    (left,) = set(parts(target.parent)) - before
    return target.parent / left


def age(path: Path, seconds: float) -> None:
    """Make ``path`` look untouched for ``seconds``."""
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_an_export_killed_half_way_leaves_a_part_the_next_export_removes(tmp_path):
    target = tmp_path / "oob.json"
    left = killed_export(target)
    assert left.name.startswith(".oob.json.") and not target.exists()
    age(left, STALE_SECONDS + 1)
    write_new(target, b"{}", force=False)
    assert target.read_bytes() == b"{}"
    assert parts(tmp_path) == []


def test_a_part_of_another_target_is_left_to_its_own_next_export(tmp_path):
    left = killed_export(tmp_path / "diary.md")
    age(left, STALE_SECONDS + 1)
    write_new(tmp_path / "oob.json", b"{}", force=False)
    assert parts(tmp_path) == [left.name]


def test_opening_a_campaign_removes_the_stale_parts_beside_it(fresh_campaign, tmp_path):
    path = fresh_campaign()
    old, new = killed_export(tmp_path / "oob.csv"), killed_export(tmp_path / "diary.md")
    age(old, STALE_SECONDS + 1)
    open_campaign(path).close()
    assert parts(tmp_path) == [new.name]  # a part written a moment ago may be an export's


def test_a_part_an_export_is_writing_is_never_removed(tmp_path):
    """Untouched for an hour, but locked: a writer still holds it."""
    busy = tmp_path / ".oob.json.abcd1234.part"
    busy.write_bytes(b"being written")
    age(busy, 3600)
    with busy.open("rb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        assert clean_stale_parts(tmp_path) == []
    assert clean_stale_parts(tmp_path) == [busy]


@pytest.mark.parametrize("name", [
    ".oob.json.part",             # not mkstemp's eight characters
    ".oob.json.ABCD1234.part",    # mkstemp writes no capitals
    "oob.json.abcd1234.part",     # not hidden
    ".oob.json.abcd1234.part2",   # not a part
    ".oob.json.abcd1234",         # not a part
])
def test_a_file_not_named_as_an_export_names_its_part_is_never_removed(tmp_path, name):
    mine = tmp_path / name
    mine.write_bytes(b"the umpire's own")
    age(mine, 3600)
    assert clean_stale_parts(tmp_path) == []
    assert mine.read_bytes() == b"the umpire's own"


def test_a_link_named_as_a_part_is_never_followed_nor_removed(tmp_path):
    precious = tmp_path / "precious.txt"
    precious.write_bytes(b"keep")
    link = tmp_path / ".oob.json.abcd1234.part"
    link.symlink_to(precious)
    age(precious, 3600)
    assert clean_stale_parts(tmp_path) == []
    assert link.is_symlink() and precious.read_bytes() == b"keep"


def test_a_damaged_stored_scenario_is_refused_in_one_line(fresh_campaign):
    """Five problems in the campaign's copy of armies.toml: three shown, two counted."""
    path = fresh_campaign()
    con = sqlite3.connect(path)
    text = con.execute("SELECT text FROM scenario_file WHERE name = 'armies.toml'").fetchone()[0]
    con.execute("UPDATE scenario_file SET text = ? WHERE name = 'armies.toml'",
                (text.replace('firepower = "B"', 'firepower = "D"', 5),))
    con.commit()
    con.close()
    with pytest.raises(CampaignFileError) as caught:
        open_campaign(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: is damaged: armies.toml: 4 Corps (Second French Army), "
                              "brigade 13: firepower 'D' is not A, B or C; armies.toml: ")
    assert message.endswith("; and 2 more problems")


def test_opening_through_a_link_cleans_beside_the_link_and_beside_the_file(fresh_campaign,
                                                                           tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "desk").mkdir()
    path = fresh_campaign(tmp_path / "real" / "war.c1813")
    link = tmp_path / "desk" / "war.c1813"
    link.symlink_to(path)
    left = [killed_export(tmp_path / folder / "oob.json") for folder in ("real", "desk")]
    for part in left:
        age(part, STALE_SECONDS + 1)
    open_campaign(link).close()
    assert parts(tmp_path / "real") == parts(tmp_path / "desk") == []
