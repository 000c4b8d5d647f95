"""What a careless or hostile command line gives is refused in one line naming the thing and
the reason, never an internal error, and nothing it prints can forge a line or turn text
around on the terminal."""

from __future__ import annotations

import sqlite3

import pytest

from campaign1813.campaign.cli import escape, main
from campaign1813.campaign.store.document import open_campaign


def _one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.startswith("campaign1813: error: "), err
    assert err.count("\n") == 1 and "internal error" not in err, err
    return err


@pytest.mark.parametrize("battle", ["9223372036854775808", "99999999999999999999999", "0",
                                    "-3", "one"])
def test_a_battle_number_the_file_cannot_hold_is_refused(fresh_campaign, capsys, battle):
    path = fresh_campaign()
    for argv in (["result", str(path), battle, "French"], ["battle", str(path), battle, "show"],
                 ["autoresolve", str(path), battle], ["postpone", str(path), battle, "rain"]):
        with pytest.raises(SystemExit) as done:
            main(argv)
        assert done.value.code == 2  # argparse's refusal, naming the argument
        assert f"'{battle}' is not a battle number" in capsys.readouterr().err


def test_an_estimate_is_bounded(fresh_campaign, capsys):
    path = fresh_campaign()
    assert main(["autoresolve", str(path), "1", "--odds", str(10**12)]) == 1
    assert "--odds takes from 1 to 100,000 runs, not 1,000,000,000,000" in _one_line_error(capsys)


def test_a_name_too_long_for_the_file_system_is_one_line(tmp_path, capsys):
    name = tmp_path / ("x" * 300 + ".c1813")
    assert main(["new", str(name)]) == 1
    assert "File name too long" in _one_line_error(capsys)
    assert main(["info", str(name)]) == 1
    _one_line_error(capsys)


@pytest.mark.parametrize(("name", "why"), [
    ("\udcff", "holds bytes that are not text"),
    ("Elbe\ncampaign1813: error: forged", "holds a control or direction mark (U+000A)"),
    ("Elbe\u202e3181", "holds a control or direction mark (U+202E)"),
    ("   ", "cannot be empty"),
    ("x" * 201, "at most 200"),
])
def test_a_campaign_name_that_is_not_one_line_of_text_is_refused(tmp_path, capsys, name, why):
    path = tmp_path / "c.c1813"
    assert main(["new", str(path), "--name", name]) == 1
    assert why in _one_line_error(capsys)
    assert not path.exists()


def test_a_name_written_by_another_program_stays_on_its_line(fresh_campaign, capsys):
    path = fresh_campaign()
    con = sqlite3.connect(path)
    con.execute("UPDATE campaign SET name = ?",
                ("Elbe\ncampaign1813: error: forged \u202eevil",))
    con.commit()
    con.close()
    assert main(["info", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "Elbe\\x0acampaign1813: error: forged \\u202eevil"
    with open_campaign(path) as doc:
        assert "\n" not in doc.summary().name


def test_the_terminal_sees_no_mark_that_turns_text_around():
    assert escape("report\u202etxt.exe") == "report\\u202etxt.exe"
    assert escape("a\u2066b\u2069c\u200fd") == "a\\u2066b\\u2069c\\u200fd"
    assert escape("Lüneburg – Hamburg\n") == "Lüneburg – Hamburg\n"


def test_no_document_carries_a_control_character_a_reason_was_typed_with(fresh_campaign,
                                                                         tmp_path, capsys):
    from campaign1813.campaign import services

    path = fresh_campaign()
    with open_campaign(path) as doc:
        services.issue_order(doc, "I Prussian Corps", "Attack", "Magdeburg")
        for _ in range(6):
            services.end_day(doc)
        services.postpone_battle(doc, 1, "rain\x1b[2J\x07 all day")
    for kind in ("md", "html"):
        out = tmp_path / f"diary.{kind}"
        assert main(["export", "diary", str(path), f"--{kind}", str(out)]) == 0, \
            capsys.readouterr().err
        text = out.read_text(encoding="utf-8")
        assert "rain␛[2J␇ all day" in text.replace("\\[", "[")
        assert not any(ord(c) < 0x20 and c not in "\n\t" for c in text)


def test_a_relative_name_beginning_file_colon_means_that_file(tmp_path, monkeypatch, capsys):
    """SQLite reads a bare name beginning "file:" as an address: every file the program makes
    beside a campaign (the new file's, a copy's, an upgrade's) is named absolutely, so such a
    name is the file it spells and nothing stray is left."""
    from pathlib import Path

    monkeypatch.chdir(tmp_path)
    assert main(["new", "file:x.c1813"]) == 0
    assert main(["backup", "file:x.c1813", "file:y.c1813"]) == 0
    golden = Path(__file__).parent / "fixtures" / "golden-v1.c1813"
    (tmp_path / "file:old.c1813").write_bytes(golden.read_bytes())
    assert main(["info", "file:old.c1813"]) == 0  # upgraded on a copy beside it
    assert main(["restore", "file:y.c1813", "file:x.c1813"]) == 0
    assert "today   7 May 1813" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "file:old.c1813", "file:x.c1813", "file:x.c1813.before-restore", "file:y.c1813"]
