"""The campaign-day command line: one line per error, the file untouched when refused."""

import hashlib
import json

import pytest

from campaign1813.campaign.cli import main

from .test_scenarios import make


@pytest.fixture
def camp(tmp_path, monkeypatch):
    """The line campaign of the scenario tests (its scenario's validated form is in the file)."""
    u = make(tmp_path, {"1 Corps": "Aston", "2 Corps": "Dale"},
             {"I Corps": "Fenwick", "II Corps": "Gorton"})
    u.doc.close()
    return str(tmp_path / "c.c1813")


def digest(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_campaign_day_from_the_command_line(camp, capsys):
    code, out, _ = run(capsys, "order", camp, "1 Corps", "Attack", "Fenwick")
    assert code == 0 and out == "Order: 1 Corps – Attack Fenwick\n"
    code, out, _ = run(capsys, "order", camp, "I Corps", "Hold", "Fenwick")
    code, out, _ = run(capsys, "end-day", camp)
    assert "1 Corps marched 15 miles: Aston → 5 miles from Brook on the road to Carden." in out
    assert out.endswith("1 May 1813 ends.\n")
    run(capsys, "end-day", camp)
    code, out, _ = run(capsys, "end-day", camp)
    assert "Battle: the battle of Fenwick (3 May 1813): 1 Corps (French) against I Corps " \
           "(Allied); the French attack." in out
    assert out.endswith("3 May 1813 stays open until its battles have results (see 'battles').\n")
    code, out, _ = run(capsys, "battles", camp, "--json")
    battles = json.loads(out)
    assert battles[0]["place"] == "Fenwick" and battles[0]["french_reinforcements"] == ["2 Corps"]
    before = digest(camp)
    code, out, err = run(capsys, "end-day", camp)
    assert code == 1 and out == ""
    assert err == ("campaign1813: error: 3 May 1813 cannot end: the battle of Fenwick "
                   "(3 May 1813) has no result yet\n")
    assert digest(camp) == before
    code, out, _ = run(capsys, "result", camp, "1", "French")
    assert out.startswith("the battle of Fenwick (3 May 1813): the French win; they take Fenwick.")
    run(capsys, "end-day", camp)
    code, out, err = run(capsys, "order", camp, "1 Corps", "Move", "Gorton")
    assert code == 1
    assert err == ("campaign1813: error: 1 Corps is resting on 4 May 1813 after winning at "
                   "Fenwick\n")
    code, out, _ = run(capsys, "status", camp, "--json")
    data = json.loads(out)
    assert data["date"] == "1813-05-04" and data["control"]["Fenwick"] == "French"
    first = {c["name"]: c for c in data["commands"]}["I Corps"]
    assert first["reason"] == "I Corps must retreat on 4 May 1813 after losing at Fenwick"
    code, out, _ = run(capsys, "status", camp)
    assert out.startswith("4 May 1813\n") and "1 Corps" in out
    code, out, _ = run(capsys, "undo", camp)
    assert out == "Undo End day: 3 May 1813\n"
    code, out, _ = run(capsys, "redo", camp)
    assert out == "Redo End day: 3 May 1813\n"
    code, out, _ = run(capsys, "diary", camp)
    assert out.splitlines()[0] == "1 May 1813: Order: 1 Corps – Attack Fenwick"
    assert "3 May 1813: 3 May 1813 ends." in out.splitlines()


def test_cli_errors_are_one_line_and_leave_the_file_alone(camp, capsys):
    before = digest(camp)
    for argv, message in [
        (("order", camp, "1 Corps", "Move", "Atlantis"),
         "order for 1 Corps refused: no town called 'Atlantis' on the map"),
        (("order", camp, "9 Corps", "Move", "Brook"),
         "no command called '9 Corps' in this campaign"),
        (("result", camp, "7", "draw"), "there is no battle number 7"),
        (("undo", camp), "there is nothing to undo"),
        (("redo", camp), "there is nothing to redo"),
        (("cut-off", camp, "1 Corps", "surrender"),
         "1 Corps is not cut off; it needs no surrender or break-out"),
    ]:
        code, out, err = run(capsys, *argv)
        assert (code, err) == (1, f"campaign1813: error: {message}\n")
    assert digest(camp) == before
    code, out, _ = run(capsys, "battles", camp)
    assert out == "No battles yet.\n"
    code, out, _ = run(capsys, "diary", camp)
    assert out == "The diary is empty.\n"


def test_results_verbs_and_names_in_any_case_and_the_status_line_follows_the_results(camp,
                                                                                    capsys):
    """`result FILE 1 allied` and `order FILE 1 corps attack fenwick` are taken; the status
    line says the day waits for battle results only while one of them has none."""
    code, out, _ = run(capsys, "order", camp, "1 corps", "attack", "FENWICK")
    assert (code, out) == (0, "Order: 1 Corps – Attack Fenwick\n")
    run(capsys, "order", camp, "i corps", "HOLD", "fenwick")
    for _ in range(3):
        run(capsys, "end-day", camp)
    code, out, _ = run(capsys, "status", camp)
    assert out.startswith("3 May 1813 (marched; waiting for battle results)\n")
    code, out, err = run(capsys, "result", camp, "1", "Prussians")
    assert (code, err) == (1, "campaign1813: error: 'Prussians' is not a result: give French, "
                              "Allied or draw\n")
    code, out, _ = run(capsys, "result", camp, "1", "allied")
    assert code == 0
    assert out.startswith("the battle of Fenwick (3 May 1813): the Allied win; they hold Fenwick.")
    code, out, _ = run(capsys, "status", camp)
    assert out.startswith("3 May 1813 (marched; battles decided — end-day closes the day)\n")
    code, out, _ = run(capsys, "end-day", camp)
    assert out.endswith("3 May 1813 ends.\n")
    code, out, _ = run(capsys, "status", camp)
    assert out.startswith("4 May 1813\n")


def test_a_draw_in_capitals_and_a_near_miss_told_from_the_command_line(camp, capsys):
    run(capsys, "order", camp, "1 Corps", "Attack", "Fenwick")
    run(capsys, "order", camp, "I Corps", "Hold", "Fenwick")
    for _ in range(3):
        run(capsys, "end-day", camp)
    code, out, _ = run(capsys, "result", camp, "1", "DRAW")
    assert (code, out.splitlines()[0]) == (0, "the battle of Fenwick (3 May 1813): a draw; both "
                                              "sides stand.")
    code, out, err = run(capsys, "order", camp, "2 Corps", "Move", "Fenwik")
    assert err == ("campaign1813: error: 3 May 1813 has already marched; record its battles' "
                   "results and end the day before giving 2 Corps new orders\n")
    run(capsys, "end-day", camp)
    code, out, err = run(capsys, "order", camp, "2 Corps", "Move", "Fenwik")
    assert err == ("campaign1813: error: order for 2 Corps refused: no town called 'Fenwik' on "
                   "the map; did you mean Fenwick?\n")
    code, out, err = run(capsys, "order", camp, "2 Corp", "Move", "Fenwick")
    assert err == ("campaign1813: error: no command called '2 Corp' in this campaign; did you "
                   "mean 2 Corps?\n")


def test_forced_march_casualties_in_status_and_battles(tmp_path, capsys):
    """1 Corps force-marches from Westhall three days (20 miles a day, one casualty on each
    of its brigades 1–4 a day), then two days at 15 to 10 miles short of I Corps at Aston:
    it comes to battle with 3 casualties on each brigade."""
    u = make(tmp_path, {"1 Corps": "Westhall"}, {"I Corps": "Aston"})
    u.order("1 Corps", "Attack", "Aston", forced=True)
    u.order("I Corps", "Hold", "Aston")
    for _ in range(3):
        u.end_day()
    u.doc.close()
    camp = str(tmp_path / "c.c1813")
    code, out, _ = run(capsys, "status", camp)
    assert ("  1 Corps                      French  40 miles from Aston on the road to Westhall "
            "ready; 1 Corps – Attack Aston (forced march); casualties carried: 3 on each of "
            "brigades 1–4\n") in out
    assert "  I Corps                      French" not in out
    assert "  I Corps                      Allied  Aston                                    " \
           "ready; I Corps – Hold Aston\n" in out
    run(capsys, "order", camp, "1 Corps", "Attack", "Aston")
    run(capsys, "end-day", camp)
    code, out, _ = run(capsys, "end-day", camp)
    assert "Battle: the battle of Aston (5 May 1813)" in out
    code, out, _ = run(capsys, "battles", camp)
    assert out == ("1. the battle of Aston (5 May 1813): to be fought\n"
                   "   French: 1 Corps\n"
                   "   Allied: I Corps\n"
                   "   The French attack.\n"
                   "   1 Corps brings casualties: 3 on each of brigades 1–4.\n")
    code, out, _ = run(capsys, "result", camp, "1", "french")
    code, out, _ = run(capsys, "battles", camp)  # spent in the battle: no longer shown
    assert "casualties" not in out
    code, out, _ = run(capsys, "status", camp)
    assert "casualties" not in out
