"""The command line for campaign files."""

import subprocess
import sys

from campaign1813 import __version__
from campaign1813.campaign.cli import main


def test_version_is_printed(capsys):
    try:
        main(["--version"])
    except SystemExit as exc:
        assert exc.code == 0
    assert capsys.readouterr().out.strip() == f"campaign1813 {__version__}"


def test_console_script_runs():
    out = subprocess.run([sys.executable, "-m", "campaign1813.campaign.cli", "--version"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"campaign1813 {__version__}"


def test_new_and_info(tmp_path, capsys):
    path = tmp_path / "c.c1813"
    assert main(["new", str(path), "--name", "Elbe 1813"]) == 0
    assert main(["info", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Elbe 1813" in out and "today   1 May 1813" in out


def test_bad_file_is_one_line_error(tmp_path, capsys):
    path = tmp_path / "junk.c1813"
    path.write_bytes(b"\x00" * 400)
    assert main(["info", str(path)]) == 1
    err = capsys.readouterr().err
    assert err == (f"campaign1813: error: {path}: is not a campaign file "
                   "(it is not an SQLite database)\n")


def test_an_unexpected_fault_is_one_line_not_a_traceback(capsys, monkeypatch):
    import campaign1813.campaign.cli.document as doc_cli

    def boom(_args):
        raise RuntimeError("the dog ate the orders")

    monkeypatch.setattr(doc_cli, "_info", boom)
    monkeypatch.delenv("CAMPAIGN1813_DEBUG", raising=False)
    assert main(["info", "x.c1813"]) == 3
    assert capsys.readouterr().err == (
        "campaign1813: internal error: RuntimeError: the dog ate the orders "
        "(set CAMPAIGN1813_DEBUG=1 to see where)\n")


def _fenwick(tmp_path) -> str:
    """3 May: the battle of Fenwick (1 Corps attacks I Corps; tests/day/test_scenarios.py),
    set up on the table."""
    from tests.day.test_scenarios import battle_setup

    u = battle_setup(tmp_path)
    u.end_day()
    u.doc.close()
    f = str(tmp_path / "c.c1813")
    assert main(["battle", f, "1", "setup", "--seed", "3"]) == 0
    return f


def _statuses(f: str) -> dict[str, str]:
    from campaign1813.campaign import queries
    from campaign1813.campaign.store.document import open_campaign

    with open_campaign(f) as doc:
        return {c.name: c.status.value for c in queries.campaign_status(doc).commands
                if c.name in ("1 Corps", "I Corps")}


def test_result_on_the_table_names_the_battles_own_commands_and_override_gives_allied(
        tmp_path, capsys):
    """DESIGN §4.4, the umpire may always overrule: while the battle is on the table a typed
    result is refused, naming the battle's own override and finish; an Allied win decided
    there rests I Corps and retreats 1 Corps (seed 000's campaign: the winner rests, the loser
    retreats)."""
    f = _fenwick(tmp_path)
    capsys.readouterr()
    assert main(["result", f, "1", "Allied"]) == 1
    assert capsys.readouterr().err == (
        "campaign1813: error: battle 1 is being fought on the table; finish it there, or "
        "abandon the fight, before you record a typed result; to decide it there: "
        "'campaign1813 battle FILE 1 override French|Allied|draw --reason WHY' (or 'holder' at "
        "nightfall), then 'campaign1813 battle FILE 1 finish'; in the battle window: The "
        "result, then Finish battle\n")
    assert main(["battle", f, "1", "override", "Allied", "--reason", "1 Corps fell back"]) == 0
    assert main(["battle", f, "1", "finish"]) == 0
    assert "Result: the Allied win – the umpire's decision: 1 Corps fell back" in \
        capsys.readouterr().out
    assert _statuses(f) == {"1 Corps": "retreating", "I Corps": "resting"}


def test_holder_draw_at_nightfall_leaves_both_standing(tmp_path, capsys):
    """At nightfall nobody holding the field is a draw (DESIGN §4.4), recorded with the
    battle's own holder step; the campaign then leaves both sides standing."""
    f = _fenwick(tmp_path)
    assert main(["battle", f, "1", "holder", "draw"]) == 1
    assert "who holds the field is recorded at nightfall" in capsys.readouterr().err
    assert main(["battle", f, "1", "draw"]) == 0
    for _ in range(12):
        assert main(["battle", f, "1", "end-turn"]) == 0
    assert main(["battle", f, "1", "holder", "draw", "--reason", "fog"]) == 0
    assert "At nightfall neither side holds the field (fog)" in capsys.readouterr().out
    assert main(["battle", f, "1", "finish"]) == 0
    assert "Result: a draw" in capsys.readouterr().out
    assert _statuses(f) == {"1 Corps": "ready", "I Corps": "ready"}
