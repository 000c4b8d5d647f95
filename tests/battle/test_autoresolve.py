"""Auto-resolve: the abstract battle, its report, and the Monte Carlo estimate.

Margins measured with ``estimate(…, 2000, seed=0)`` (the figures the assertions are set from),
with formations, squares and opportunity charges played: all-A French holding Helmstedt against
all-C Prussians won 100.0 % (interval 99.8-100 %); all-A Prussians attacking all-C French in the
town won 83.0 % (81.3-84.6 %); with both sides in the open, all-B against all-B split 45.6 % /
43.8 % / 10.5 % drawn, and Prussian infantry bringing 3 casualties each fell to 5.8 % wins.
"""

import re
from dataclasses import replace
from fractions import Fraction as F

import pytest

from campaign1813.campaign.battle.core.results import AutoOdds, Share, run_seed, wilson
from campaign1813.campaign.battle.ruleset1813 import auto_tables
from campaign1813.campaign.battle.ruleset1813.autoresolve import (
    BAND_NAMES,
    START_GAP,
    estimate,
    resolve,
)
from campaign1813.campaign.battle.setup import (
    ALLIED,
    FRENCH,
    BattleSetup,
    Chip,
    CommanderSetup,
    Edge,
    InvalidSetup,
)
from campaign1813.campaign.battle.terms import Arm, CorpsOrder, Grade, MoraleState, Role
from campaign1813.campaign.errors import CampaignError
from tests.battle.setups import setup

PRUSSIAN = "1 Prussian Corps"
FRENCH_CORPS = "1 French Corps"


def orders(s: BattleSetup, corps: str, order: CorpsOrder, **changes: object) -> BattleSetup:
    return s.with_corps(replace(s.corps_of(corps), orders=order, **changes))


def in_the_open(s: BattleSetup) -> BattleSetup:
    """The French corps marches in from the west instead of holding the town."""
    return s.with_corps(replace(s.corps_of(FRENCH_CORPS), edge=Edge.WEST, column_of_march=True))


def worn(s: BattleSetup, side: str, by_arm: dict[Arm, int], corps: str | None = None
         ) -> BattleSetup:
    """A side (or one corps) bringing casualties, by arm."""
    keys = {k for c in s.corps if c.side == side and corps in (None, c.key) for k in c.brigades}
    return replace(s, brigades=tuple(replace(b, casualties=by_arm.get(b.arm, 0))
                                     if b.key in keys else b for b in s.brigades))


def grades(s: BattleSetup, **by_corps: Grade) -> BattleSetup:
    return replace(s, commanders=tuple(
        replace(c, grade=by_corps.get(c.key.replace(" ", "_"), c.grade)) for c in s.commanders))


def rich() -> BattleSetup:
    """Three French corps (one in the town) and a CinC against four Prussian corps, one a
    reinforcement, one worn, under every order, with every special chip; a Gifted and a Poor
    commander on each side."""
    s = setup(["A", "B", "B"], ["B", "C", "B", "B"], cinc=True,
              specials=("Poor", "French gifted", "Allied gifted", "French tactical"))
    s = grades(s, **{"1_French_Corps": Grade.POOR, "2_French_Corps": Grade.GIFTED,
                     "1_Prussian_Corps": Grade.GIFTED, "2_Prussian_Corps": Grade.POOR})
    s = orders(s, "2 French Corps", CorpsOrder.ATTACK, edge=Edge.WEST)
    s = orders(s, "3 French Corps", CorpsOrder.WITHDRAW, edge=Edge.WEST)
    s = orders(s, PRUSSIAN, CorpsOrder.ATTACK)
    s = orders(s, "3 Prussian Corps", CorpsOrder.HOLD)
    s = orders(s, "4 Prussian Corps", CorpsOrder.ENGAGE, turn=4)
    return worn(s, ALLIED, {Arm.INFANTRY: 3, Arm.CAVALRY: 2}, corps="2 Prussian Corps")


@pytest.fixture(scope="module")
def rich_reports() -> list[tuple[str, ...]]:
    s = rich()
    # Seed 295 adds a column of march that forms square in time under an opportunity charge,
    # rare since Rule 16 leaves the formed brigades involved in a rout Disordered.
    return [resolve(s, seed=n).report for n in (*range(150), 295)]


# --- determinism ------------------------------------------------------------------------------


def test_same_seed_same_battle_byte_for_byte():
    s = setup(["B"], ["B"])
    a, b = resolve(s, seed=42), resolve(s, seed=42)
    assert a == b
    assert "\n".join(a.report).encode() == "\n".join(b.report).encode()
    assert resolve(s) == resolve(s, seed=s.seed)


def test_different_seeds_differ():
    s = setup(["B"], ["B"])
    reports = {resolve(s, seed=n).report for n in range(10)}
    assert len(reports) == 10


def test_estimate_runs_are_the_battles_resolve_replays():
    s = setup(["B"], ["C"])
    odds = estimate(s, 40, seed=7)
    winners = [resolve(s, seed=run_seed(7, n)).winner for n in range(40)]
    assert (odds.french.count, odds.allied.count, odds.draw.count) == (
        winners.count(FRENCH), winners.count(ALLIED), winners.count(None))
    assert estimate(s, 40, seed=7) == odds
    assert estimate(s, 40, seed=8) != odds


def test_the_loop_reads_only_the_cached_tables(monkeypatch):
    s = rich()
    first = resolve(s, seed=3)

    def slow(*args: object, **kwargs: object) -> None:
        raise AssertionError("a rules function was called for a situation already cached")

    for name in ("take_morale_test", "artillery_fire", "check_combat", "combat_factors",
                 "find_row", "apply_row", "skirmish",
                 "pursue", "rally_pursuers", "roll_pips", "quick_result", "rout_reaction",
                 "opportunity_charge", "react", "charge_refusal", "reaction_refusal",
                 "quick_charge_refusal", "corps_action_cost"):
        monkeypatch.setattr(auto_tables, name, slow)
    assert resolve(s, seed=3) == first


# --- who wins -----------------------------------------------------------------------------------


def test_class_a_beats_class_c_clearly():
    defending = estimate(setup(["A"], ["C"]), 2000)
    assert defending.french.fraction >= 0.90          # measured 100.0 %
    attacking = estimate(setup(["C"], ["A"]), 2000)
    assert attacking.allied.fraction >= 0.75          # measured 83.0 %
    assert attacking.allied.low > attacking.french.high


def test_mirror_equal_sides_are_even():
    odds = estimate(in_the_open(setup(["B"], ["B"])), 2000)
    f, a = odds.french, odds.allied
    assert f.low <= a.high and a.low <= f.high        # the intervals overlap
    assert abs(f.fraction - a.fraction) <= (f.high - f.low) / 2 + (a.high - a.low) / 2
    assert 0.35 <= f.fraction <= 0.55                 # measured 45.6 % / 43.8 %


def test_casualties_brought_in_count():
    fresh = estimate(in_the_open(setup(["B"], ["B"])), 2000)
    tired = estimate(worn(in_the_open(setup(["B"], ["B"])), ALLIED, {Arm.INFANTRY: 3}), 2000)
    assert tired.allied.high < fresh.allied.low       # measured 5.8 % against 43.8 %
    assert tired.french.low > fresh.french.high


def test_the_town_is_worth_holding():
    odds = estimate(setup(["B"], ["B"]), 1000)
    assert odds.french.low > odds.allied.high


# --- the shape of a battle ------------------------------------------------------------------


def test_reinforcements_act_only_from_turn_4():
    s = setup(["B"], ["B", "B"])
    s = orders(s, FRENCH_CORPS, CorpsOrder.HOLD)
    s = orders(s, PRUSSIAN, CorpsOrder.HOLD)
    s = orders(s, "2 Prussian Corps", CorpsOrder.ENGAGE, turn=4)
    names = ["2 Prussian Corps"] + [b.name for b in s.corps_brigades("2 Prussian Corps")]
    for seed in range(10):
        report = resolve(s, seed=seed).report
        turn4 = report.index("Turn 4 of 12")
        assert report[turn4 + 1] == "2 Prussian Corps arrives"
        assert not any(name in line for line in report[:turn4 + 1] for name in names)
        assert any(line.startswith("Move") and "2 Prussian Corps" in line
                   for line in report[turn4:])
    early = resolve(replace(s, turns=3), seed=1)
    assert not any("2 Prussian Corps" in line for line in early.report)
    for key in s.corps_of("2 Prussian Corps").brigades:
        b = early.brigade(key)
        assert (b.casualties, b.state, b.destroyed) == (0, MoraleState.FORMED, False)


def test_army_break_ends_the_battle_early():
    s = orders(setup(["B"], ["B"]), PRUSSIAN, CorpsOrder.ATTACK)
    s = worn(s, ALLIED, {Arm.INFANTRY: 5, Arm.CAVALRY: 3, Arm.ARTILLERY: 2})
    french = 0
    for seed in range(20):
        r = resolve(s, seed=seed)
        # a worn army nearly always breaks first; a rout can still spread through the other
        # (Rule 16: the brigades involved that pass are disordered, those that fail shaken)
        loser = "Allied" if r.winner == FRENCH else "French"
        french += r.winner == FRENCH
        assert r.reason == f"the {loser} army broke on turn {r.turns}"
        assert r.turns < s.turns
        # The table's words for the break (fight.py and auto-resolve share the writer).
        assert r.report[-1] == f"The {loser} army has broken: half or more of its corps are broken"
        assert f"Turn {r.turns + 1} of 12" not in r.report
        beaten = PRUSSIAN if loser == "Allied" else FRENCH_CORPS
        broken = [b for b in r.brigades if b.corps == beaten
                  and (b.destroyed or b.state in (MoraleState.SHAKEN, MoraleState.ROUT))]
        assert len(broken) >= 3                       # half of the corps' six
    assert french >= 18


def test_nightfall_at_the_setups_turns():
    s = orders(orders(setup(["B"], ["B"]), FRENCH_CORPS, CorpsOrder.HOLD), PRUSSIAN,
               CorpsOrder.HOLD)
    r = resolve(s, seed=5)
    assert (r.winner, r.turns) == (FRENCH, 12)
    assert r.reason == "night fell with the French holding Helmstedt"
    assert "Turn 12 of 12" in r.report and "Turn 13 of 12" not in r.report
    assert r.report[-2:] == ("Night falls after turn 12",
                             "Night fell with the French holding Helmstedt")
    short = resolve(replace(s, turns=5), seed=5)
    assert short.turns == 5 and "Turn 5 of 5" in short.report and "Turn 6 of 5" not in short.report
    # Nobody advances on Hold: no shot is fired all day.
    assert not any(line.startswith(("Artillery", "Skirmish", "Firefight")) for line in r.report)


def test_nightfall_without_one_holder_is_a_draw():
    both_hold = orders(orders(setup(["B"], ["B"]), FRENCH_CORPS, CorpsOrder.HOLD), PRUSSIAN,
                       CorpsOrder.HOLD)
    r = resolve(in_the_open(both_hold), seed=2)
    assert (r.winner, r.reason) == (None, "night fell with neither side holding Helmstedt")
    r = resolve(both_hold.with_corps(replace(both_hold.corps_of(PRUSSIAN), edge=None)), seed=2)
    assert (r.winner, r.reason) == (None, "night fell with both sides in Helmstedt")


def test_a_town_whose_garrison_withdrew_is_taken():
    s = setup(["C", "B", "B"], ["A"], turns=5)
    s = orders(s, PRUSSIAN, CorpsOrder.ATTACK)
    for key in ("1 French Corps", "2 French Corps", "3 French Corps"):
        s = orders(s, key, CorpsOrder.HOLD, **({} if key == FRENCH_CORPS else {"edge": Edge.WEST}))
    s = worn(s, FRENCH, {Arm.INFANTRY: 4}, corps=FRENCH_CORPS)
    results = [resolve(s, seed=n) for n in range(10)]
    taken = [r for r in results if "taken" in r.reason]
    assert len(taken) >= 8
    for r in taken:
        assert r.winner == ALLIED
        assert r.reason == "night fell with the Allied holding Helmstedt, taken from the French"
        i = r.report.index("1 French Corps is broken")
        assert r.report[i + 1] == "1 French Corps withdraws"


def test_brigade_outcomes_by_key():
    s = setup(["A"], ["C"])
    r = resolve(s, seed=1)
    assert [b.key for b in r.brigades] == [b.key for b in s.brigades]
    b = r.brigade("1 Prussian Corps/1")
    assert b.corps == PRUSSIAN and b.casualties >= 0
    with pytest.raises(KeyError):
        r.brigade("nobody")


def test_names_both_sides_share_are_told_apart():
    # As the table's report names them (fight.label_of): by their corps.
    r = resolve(setup(["B"], ["B"]), seed=0)
    assert any("1 Infantry Brigade (1 Prussian Corps)" in line for line in r.report)
    assert any("1 Infantry Brigade (1 French Corps)" in line for line in r.report)
    # The outcomes keep the setup's own names.
    assert r.brigades[0].name == "1 Infantry Brigade"


# --- the report -------------------------------------------------------------------------------

NAME = r".+"
PIPS = r"\(\d pips?, \d+ left\)"
# The table's own lines (fight.py, fight_tests.py and report_lines.py write the same words).
FORMS = [
    r"Turn \d+ of 12",
    rf"Move \d+ – [A-Z][a-z]+ – {NAME} \(chip (\d+|French gifted|Allied gifted|"
    r"French tactical)\)",
    r"Move \d+ – Poor Card",
    r"Move \d+ – (French gifted|Allied gifted|French tactical) chip",
    r"Orders: (Move|Halt|Hold|Engage|Attack|Withdraw|Rally)",
    r"Pips: [2-5] \+ [1-3] \((Gifted|Average|Poor)\) = [3-8]",
    r"Miss move due to Poor Card",
    r"All Poor commanders have already moved, no effect",
    r"No commander may use it",
    r"No brigade to rally",
    rf"Move to {NAME}",
    rf"All (move forward|advance to (long range|short range|contact)|fall back to {NAME}) "
    + PIPS,
    rf"(Change formation|Artillery action) \({NAME}\) " + PIPS,
    rf"{NAME} forms (line|column of attack|square|cavalry line|unlimbered)",
    rf"Artillery fire on (infantry|cavalry|artillery|buildings) – {NAME}, (short|long) range, "
    rf"by {NAME} \((\d+)([+-]\d+ = \d+)?\) (miss|1 hit|2 hits)",
    rf"(Test morale for|Test to rally) {NAME} \([1-6]\) "
    r"(pass|pass, (disordered|shaken)|fail, shaken|fail and rout|rallied|"
    r"not rallied: continues to rout|fails and continues to rout)",
    rf"{NAME} routs without testing at \d casualties",
    rf"Combat \(Rule (9|12|13|14|15)\): {NAME} \(-?\d+\) against {NAME} \(-?\d+\); {NAME} "
    rf"rolls \((\d+)\) \+\d+ = -?\d+: {NAME} – {NAME}: {NAME}; {NAME}: {NAME}",
    rf"Quick result: {NAME} (deployed artillery charged|limbered artillery contacted by cavalry|"
    rf"column of march contacted by cavalry) by {NAME}: {NAME}",
    rf"Skirmish: {NAME} \([1-6]\) against {NAME} \([1-6]\): ({NAME} loses a casualty|"
    r"no casualties)",
    rf"{NAME} attempt to opportunity charge {NAME} \([1-6]\) (charge|fail)",
    rf"{NAME} tries to (counter charge|change formation|form square|evade) "
    r"(\([1-6]\)|\(no roll\)) (pass|fail)( \(Rule 18: morale test\))?",
    rf"{NAME} cannot charge a formed square; cavalry halt 4 inches from it",
    rf"{NAME} test to pursue \([1-6]\) do not pursue",
    rf"{NAME} pursue \([1-6]\), \([1-6]\) {NAME}",
    rf"Rally pursuing {NAME} \(([1-6]|no roll)\) (formed|disordered|shaken|rout)",
    rf"Pursuing {NAME} not rallied \(no commander\): return to own lines shaken",
    rf"{NAME} routs: {NAME} within 4\" react",
    rf"{NAME} arrives",
    rf"{NAME} is broken",
    rf"{NAME} withdraws",
    r"The (French|Allied) army has broken: half or more of its corps are broken",
    r"Night falls after turn 12",
    rf"Night fell with {NAME}",
]
FORM = re.compile("|".join(f"(?:{f})" for f in FORMS))


def test_every_line_has_the_seeds_form(rich_reports):
    for report in rich_reports:
        for line in report:
            assert FORM.fullmatch(line), line


def test_rolls_are_numbers_the_dice_can_show(rich_reports):
    for report in rich_reports:
        for line in report:
            if line.startswith(("Artillery fire", "Combat (Rule")):
                rolled = re.findall(r"(?:rolls \((\d+)\)|\((\d+)(?:[+-]\d+ = \d+)?\) "
                                    r"(?:miss|1 hit|2 hits))", line)
                rolled = ["".join(r) for r in rolled]
                assert rolled and all(2 <= int(n) <= 12 for n in rolled), line


def test_turns_and_moves_count_up_and_each_corps_names_its_orders(rich_reports):
    for report in rich_reports:
        turn, move = 0, 0
        for i, line in enumerate(report):
            if line.startswith("Turn "):
                turn += 1
                assert line == f"Turn {turn} of 12"
                move = 0
            elif line.startswith("Move ") and " – " in line:
                # A gifted or tactical chip and the move it gives share the move's number.
                if not report[i - 1].endswith(" chip"):
                    move += 1
                assert line.startswith(f"Move {move} – ")
                if "Corps (" in line:
                    assert report[i + 1].startswith("Orders: ")


def test_the_report_shows_each_part_of_the_battle(rich_reports):
    text = "\n".join("\n".join(r) for r in rich_reports)
    for part in ("Miss move due to Poor Card", "(chip Allied gifted)", "(chip French gifted)",
                 "(chip French tactical)", "Move to ", "Test to rally", "test to pursue",
                 "Rally pursuing", "Skirmish: ", "(Rule 12)", "(Rule 9)", "(Rule 13)",
                 "(Rule 14)", "(Rule 15)", "Artillery fire on buildings",
                 "4 Prussian Corps arrives", "forms square", "forms column of attack",
                 "forms line", "forms cavalry line", "forms unlimbered",
                 "attempt to opportunity charge", "tries to change formation",
                 "tries to counter charge", "cannot charge a formed square",
                 "Corps is broken", "Corps withdraws", "army has broken", "within 4\" react",
                 "All advance to contact",
                 "routs without testing", "No commander may use it",
                 "All Poor commanders have already moved"):
        assert part in text, part


def test_a_gifted_chip_takes_a_generals_move_early(rich_reports):
    for report in rich_reports:
        turn: list[str] = []
        for line in report + ("Turn end",):
            if line.startswith("Turn"):
                early = [m.split(" – ")[2].split(" (")[0] for m in turn if " gifted)" in m
                         or " tactical)" in m]
                for name in early:
                    own = [m for m in turn if m.startswith("Move") and f" – {name} (chip" in m
                           and not m.endswith((" gifted)", " tactical)"))]
                    assert not own, (name, turn)
                turn = []
            turn.append(line)


def lone_battery(ruleset: str = "1813") -> BattleSetup:
    """A Prussian battery alone on Hold, the French marching on it on Engage."""
    s = in_the_open(setup(["A"], ["B"], ruleset=ruleset))
    s = orders(s, PRUSSIAN, CorpsOrder.HOLD, brigades=("1 Prussian Corps/art",))
    return replace(s, brigades=tuple(b for b in s.brigades
                                     if b.corps != PRUSSIAN or b.arm is Arm.ARTILLERY))


def test_guns_without_supports_are_cut_down_by_cavalry():
    # Rule 8: deployed guns charged with no supports to evade behind lose all their guns.
    results = [resolve(lone_battery(), seed=n) for n in range(20)]
    cut_down = [r for r in results if r.brigade("1 Prussian Corps/art").destroyed]
    assert len(cut_down) >= 12           # measured 14 of 20; in the rest fire broke the guns
    for r in cut_down:
        assert r.winner == FRENCH
        assert any(line.startswith("Quick result: 1 Prussian Corps Artillery deployed artillery "
                                   "charged by 1 Cavalry Brigade (1 French Corps): ")
                   for line in r.report)


def test_the_revision_leaves_guns_to_the_reaction_test():
    results = [resolve(lone_battery("1813-revised"), seed=n) for n in range(10)]
    assert not any(r.brigade("1 Prussian Corps/art").destroyed for r in results)
    assert not any("deployed artillery charged" in line for r in results for line in r.report)


def test_withdraw_orders_fall_back():
    s = orders(in_the_open(setup(["B"], ["B"])), FRENCH_CORPS, CorpsOrder.WITHDRAW)
    s = orders(s, PRUSSIAN, CorpsOrder.MOVE)
    report = resolve(s, seed=1).report
    assert "All fall back to out of range (1 pip, " in "\n".join(report)
    # Move orders keep off the enemy: they never come closer than short range.
    assert not any(line.startswith("All advance to contact") for line in report)


def test_the_revised_rules_fight_too():
    r = resolve(setup(["B"], ["B"], ruleset="1813-revised"), seed=4)
    assert r.winner in (FRENCH, ALLIED, None)
    assert not any("deployed artillery charged" in line for line in r.report)


def test_band_names():
    assert BAND_NAMES[START_GAP] == "out of range"
    assert [BAND_NAMES[g] for g in (2, 1, 0)] == ["long range", "short range", "contact"]


# --- the estimate ------------------------------------------------------------------------------


def test_wilson_interval():
    # p = 1/2 of 100, z = 1.96: centre 1/2, half-width 1.96·sqrt(1/400 + 1.96²/40000)/1.0384.
    low, high = wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = wilson(0, 20)
    assert low == 0.0 and round(high, 4) == 0.1611
    assert wilson(20, 20)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_progress_is_reported_and_can_cancel():
    s = setup(["B"], ["B"])
    calls: list[tuple[int, int]] = []
    odds = estimate(s, 250, progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (2, 250) and calls[-1] == (250, 250) and len(calls) == 125
    assert not odds.cancelled and odds.runs == 250

    def stop_at_ten(done: int, total: int) -> bool:
        return done < 10

    stopped = estimate(s, 250, progress=stop_at_ten)
    assert stopped.cancelled and stopped.runs == 10 and stopped.requested == 250
    assert stopped.french.count + stopped.allied.count + stopped.draw.count == 10
    assert stopped.french.runs == 10
    assert estimate(s, 1, progress=lambda d, t: False).cancelled is False


def test_shares_from_each_side():
    odds = AutoOdds(10, 10, False, Share(FRENCH, 6, 10, 0.3, 0.8),
                    Share(ALLIED, 3, 10, 0.1, 0.6), Share("draw", 1, 10, 0.0, 0.4))
    assert [s.count for s in odds.win_draw_loss(FRENCH)] == [6, 1, 3]
    assert [s.count for s in odds.win_draw_loss(ALLIED)] == [3, 1, 6]
    assert odds.french.fraction == 0.6 and Share("x", 0, 0, 0.0, 1.0).fraction == 0.0
    with pytest.raises(ValueError, match="not a side"):
        odds.win_draw_loss("Swedish")


def test_an_estimate_needs_a_run():
    with pytest.raises(ValueError, match="at least one run"):
        estimate(setup(), 0)


# --- setups refused ---------------------------------------------------------------------------


def _bad_setups() -> list[tuple[str, BattleSetup]]:
    s = setup(["B"], ["B"])
    prussians = s.corps_of(PRUSSIAN)
    art = s.brigade("1 Prussian Corps/art")
    cav = s.brigade("1 Prussian Corps/cav")
    inf = s.brigade("1 Prussian Corps/1")
    lone = CommanderSetup("spare", "spare commander", Grade.AVERAGE, Role.CORPS, ALLIED)

    def brigade(new):
        return replace(s, brigades=tuple(new if b.key == new.key else b for b in s.brigades))

    return [
        ("no chip in the bag", replace(s, chips=s.chips[:1] + s.chips[2:])),
        ("not a special chip", replace(s, chips=s.chips + (Chip("Lucky"),))),
        ("has two chips", replace(s, chips=s.chips + (Chip("9", PRUSSIAN, ALLIED),))),
        ("commands no corps", replace(s, commanders=s.commanders + (lone,),
                                      chips=s.chips + (Chip("9", "spare", ALLIED),))),
        ("no commander", replace(s, chips=s.chips + (Chip("9", "ghost", ALLIED),))),
        ("its rout point", brigade(replace(inf, casualties=6))),
        ("brings -1 casualties", brigade(replace(inf, casualties=-1))),
        ("has no calibre", brigade(replace(art, calibre=0))),
        ("without a weight", brigade(replace(cav, cavalry=None))),
        ("with a cavalry weight", brigade(replace(inf, lancers=True))),
        ("has no brigades", s.with_corps(replace(prussians, brigades=()))),
        ("does not list it", s.with_corps(replace(prussians, brigades=prussians.brigades[1:]))),
        ("does not have", s.with_corps(replace(prussians,
                                                brigades=prussians.brigades + ("x/9",)))),
        ("belongs to", s.with_corps(replace(s.corps_of(FRENCH_CORPS), brigades=s.corps_of(
            FRENCH_CORPS).brigades + (inf.key,)))),
        ("no corps on the field on turn 1", orders(s, PRUSSIAN, CorpsOrder.ENGAGE, turn=4)),
        ("turns count from 1", orders(s, PRUSSIAN, CorpsOrder.ENGAGE, turn=0)),
        ("its commander", s.with_corps(replace(prussians, commander=FRENCH_CORPS))),
        ("no ruleset", replace(s, ruleset="1066")),
    ]


@pytest.mark.parametrize("why, bad", _bad_setups(), ids=[w for w, _ in _bad_setups()])
def test_bad_setups_are_refused_with_the_reason(why, bad):
    with pytest.raises(InvalidSetup, match=re.escape(why)) as refused:
        resolve(bad)
    assert isinstance(refused.value, CampaignError)
    assert "Helmstedt" in str(refused.value)
    with pytest.raises(InvalidSetup):
        estimate(bad, 10)


def test_two_corps_under_one_commander_are_refused():
    s = setup(["B", "B"], ["B"])
    second = replace(s.corps_of("2 French Corps"), commander=FRENCH_CORPS)
    with pytest.raises(InvalidSetup, match="commands two corps"):
        resolve(s.with_corps(second))


# --- formations, squares, opportunity charges (Rules 3, 5, 6, 8, 11-15) -----------------------


def test_a_battle_with_formations_a_square_and_an_opportunity_charge():
    """Seeded (all-B corps, French in Helmstedt, seed 15): the Prussians deploy under Rule 3
    (1 pip a change of formation), the brigade the French cavalry threaten forms square, the
    French cavalry opportunity charge it once it is Shaken (Rule 6: Shaken is fair game; a
    B class charger with his commander not within 4 inches passes on 4+), and Rule 15 is
    fought with the square's +4 (Rule 15): cavalry B, medium in line +2 = 2 against square +4,
    one casualty −1, Shaken −2 = 1, so the cavalry roll 2d6 +1 and 11 + 1 = 12 routs the
    infantry (6+). Every Prussian brigade near it is involved in the rout: those that pass
    their test end Disordered (Rule 16). The French cavalry pursue (5-6) and, pursuing, stay
    Disordered at the end of the turn until they rally at their corps' next move (Rules 16
    and 18); the Prussian cavalry charge them first, and, Disordered, they counter charge
    only if they make morale (Rule 18 with Rule 17's test: Disordered or pursuing −1, one
    casualty −1, formed supports +1; 5 − 1 = 4, 3+ makes it), so they fight moving: Rule 14,
    Prussian medium +1, one casualty −1 = 0 against French medium +1, one casualty −1,
    Disordered −1 = −1; the Prussians roll 2d6 +1 and 11 + 1 = 12 (10+): the loser routs,
    1 casualty to the winner, 2 to the loser."""
    report = resolve(setup(["B"], ["B"]), seed=15).report
    p1, p2 = "1 Infantry Brigade (1 Prussian Corps)", "2 Infantry Brigade (1 Prussian Corps)"
    fcav, pcav = "1 Cavalry Brigade (1 French Corps)", "1 Cavalry Brigade (1 Prussian Corps)"
    expected = [
        # Unlimbering is an artillery action (1 pip); the fire that follows pays its pip too.
        "Artillery action (1 Prussian Corps Artillery) (1 pip, 5 left)",
        "1 Prussian Corps Artillery forms unlimbered",
        f"Change formation ({p1}) (1 pip, 3 left)",
        f"{p1} forms square",
        f"Change formation ({p2}) (1 pip, 2 left)",
        f"{p2} forms line",
        f"Change formation ({pcav}) (1 pip, 4 left)",
        f"{pcav} forms cavalry line",
        "All advance to short range (1 pip, 3 left)",
        f"Test morale for {p1} (2) fail, shaken",
        f"{fcav} attempt to opportunity charge {p1} (4) charge",
        f"Combat (Rule 15): {fcav} (2) against {p1} (1); {fcav} rolls (11) +1 = 12: Infantry "
        f"rout – {fcav}: 1 casualty, disordered; {p1}: 3 casualties, rout",
        f"Test morale for {p2} (4) pass, disordered",
        f"{fcav} pursue (6), (1) Pursue the routers 12\" and cause another casualty",
        "Turn 5 of 12",
        f"{fcav} tries to counter charge (5) pass (Rule 18: morale test)",
        f"Combat (Rule 14): {pcav} (0) against {fcav} (-1); {pcav} rolls (11) +1 = 12: Loser "
        f"routs – {pcav}: 1 casualty, disordered; {fcav}: 2 casualties, rout",
    ]
    at = [report.index(line) for line in expected]
    assert at == sorted(at)                     # in that order
    # The square was formed before the Prussians came to short range, and the brigade kept
    # it (no second change of formation for it).
    assert sum(1 for line in report if line.startswith(f"Change formation ({p1})")) == 1
    # The pursuers reacted to the charge only through Rule 18's morale test.
    assert [line for line in report if line.startswith(f"{fcav} tries to ")] == [
        f"{fcav} tries to counter charge (5) pass (Rule 18: morale test)"]


def test_formed_cavalry_counter_charge_without_a_test_and_fight_moving():
    """Rule 6 (1813): formed cavalry charged counter charge, with no test; Rule 14 is then
    fought with neither side stationary. Seed 23 (all-B corps): the French cavalry have one
    casualty from the Prussian guns; Prussian medium +1 = 1 against French medium +1, one
    casualty −1 = 0 (no −2 stationary); the Prussians roll 2d6 +1 and 5 + 1 = 6 (6-7): a
    draw, both Disordered with a casualty each."""
    report = resolve(setup(["B"], ["B"]), seed=23).report
    fcav, pcav = "1 Cavalry Brigade (1 French Corps)", "1 Cavalry Brigade (1 Prussian Corps)"
    hit = report.index(f"Artillery fire on cavalry – {fcav}, short range, by 1 Prussian Corps "
                       "Artillery (11) 1 hit")
    assert report[hit + 1] == f"Test morale for {fcav} (3) pass"
    i = report.index(f"{fcav} tries to counter charge (no roll) pass")
    assert hit < i
    assert report[i + 1] == (
        f"Combat (Rule 14): {pcav} (1) against {fcav} (0); {pcav} rolls (5) +1 = 6: Draw, both "
        f"disordered – {pcav}: 1 casualty, disordered; {fcav}: 1 casualty, disordered")


def test_a_formed_square_cannot_be_charged_and_a_reaction_forms_one():
    """Rule 6: infantry in column of march may be opportunity charged (4+ on 1d6 for a B class
    charger); a formed brigade charged from more than half the cavalry's move may change
    formation on 4+, −1 for C class and −1 for a Poor commander, so 6 for the C class 2
    Prussian Corps under its Poor commander. Rule 8: cavalry may not charge a formed square
    and halt 4 inches from it. The rich battle, seed 295."""
    report = resolve(rich(), seed=295).report
    p7 = "7 Infantry Brigade (2 Prussian Corps)"
    fcav = "5 Cavalry Brigade (2 French Corps)"
    i = report.index(f"{fcav} attempt to opportunity charge {p7} (4) charge")
    # still in its column of march: it never changed formation before
    assert not any(line.startswith(f"Change formation ({p7})") for line in report[:i])
    assert report[i + 1:i + 4] == (
        f"{p7} tries to change formation (6) pass",
        f"{p7} forms square",
        f"{fcav} cannot charge a formed square; cavalry halt 4 inches from it")


def test_line_against_column_is_played():
    """Rules 12-13: line against column +2 now happens: an attacking corps forms column of
    attack, the defender fires or fights in line."""
    s = orders(in_the_open(setup(["B"], ["B"])), PRUSSIAN, CorpsOrder.ATTACK)
    s = orders(s, FRENCH_CORPS, CorpsOrder.HOLD, edge=Edge.WEST)
    reports = [resolve(s, seed=n).report for n in range(20)]
    text = "\n".join("\n".join(r) for r in reports)
    assert "1 Infantry Brigade (1 Prussian Corps) forms column of attack" in text
    # The factors shown for a French brigade in line firing at a Prussian column include +2.
    fought = [line for r in reports for line in r if line.startswith("Combat (Rule 12): ")
              and "(1 French Corps) (2) against" in line]
    assert fought


def test_squares_and_columns_change_the_odds_by_the_rules_tables():
    """Rule 15: a square adds 4 to the infantry; Rule 12's square is −2 once (DESIGN §4.4);
    Rule 11: −1 in square; Rules 12-14: line against column +2. Read from the same tables the
    table reads."""
    from campaign1813.campaign.battle.terms import CavalryWeight, Formation, Rating

    def inf(f: Formation) -> auto_tables.Profile:
        return (Arm.INFANTRY, Rating.B, Rating.B, Rating.B, None, False, f, "")

    cav = (Arm.CAVALRY, Rating.B, Rating.B, Rating.B, CavalryWeight.MEDIUM, False,
           Formation.CAVALRY_LINE, "")
    t = auto_tables.combat_table("1813", 15, cav, 0, auto_tables.FORMED, frozenset(),
                                 inf(Formation.SQUARE), 0, auto_tables.SHAKEN, frozenset())
    assert (t.attacker_total, t.defender_total) == (2, 2)      # medium in line against 4 - 2
    t = auto_tables.combat_table("1813", 12, inf(Formation.LINE), 0, auto_tables.FORMED,
                                 frozenset(), inf(Formation.SQUARE), 0, auto_tables.FORMED,
                                 frozenset())
    assert (t.attacker_total, t.defender_total) == (0, -2)     # square −2 once
    t = auto_tables.combat_table("1813", 13, inf(Formation.COLUMN_OF_ATTACK), 0,
                                 auto_tables.FORMED, frozenset(), inf(Formation.LINE), 0,
                                 auto_tables.FORMED, frozenset())
    assert (t.attacker_total, t.defender_total) == (0, 2)      # line against column
    # Rule 11: skirmish B (+2) kills on 6+, so on 4-6 in line and, −1 in square, on 5-6.
    for f, kills in ((Formation.LINE, [4, 5, 6]), (Formation.SQUARE, [5, 6])):
        sk = auto_tables.skirmish_table("1813", inf(f), 0, auto_tables.FORMED, frozenset(),
                                        inf(Formation.LINE), 0, auto_tables.FORMED, frozenset())
        assert [fa for fa in range(1, 7) if sk.rows[(fa, 1)][2].casualties] == kills
    assert not auto_tables.may_be_charged("1813", Arm.INFANTRY, Formation.SQUARE,
                                          auto_tables.FORMED)
    assert auto_tables.may_be_charged("1813", Arm.INFANTRY, Formation.SQUARE,
                                      auto_tables.SHAKEN)


def test_opportunity_charge_and_reaction_tables_are_rule_6s():
    """Rule 6 (1813): a charge needs 4+ on 1d6 (+1 A class, −1 Poor commander); a column of
    march offers the chance, a formed line does not; cavalry counter charge without a test;
    the revision's failed reaction costs 40 % (3 of 8 infantry figures)."""
    from campaign1813.campaign.battle.ruleset1813.rules.opportunity import Reaction
    from campaign1813.campaign.battle.terms import Formation, Rating

    t = auto_tables.charge_test_table("1813", Rating.A, 0, Arm.INFANTRY, auto_tables.FORMED,
                                      Formation.COLUMN_OF_MARCH, Grade.POOR)
    assert t is not None and [f for f in range(1, 7) if t.passes[f]] == [4, 5, 6]
    assert auto_tables.charge_test_table("1813", Rating.B, 0, Arm.INFANTRY, auto_tables.FORMED,
                                         Formation.LINE, Grade.AVERAGE) is None
    t = auto_tables.charge_test_table("1813", Rating.C, 0, Arm.INFANTRY, auto_tables.SHAKEN,
                                      Formation.LINE, Grade.AVERAGE)
    assert t is not None and [f for f in range(1, 7) if t.passes[f]] == [5, 6]
    counter = auto_tables.reaction_table("1813", Arm.CAVALRY, Rating.B, auto_tables.FORMED,
                                         Reaction.COUNTER_CHARGE, 0, Grade.AVERAGE, False)
    assert counter is not None and counter.automatic and counter.passes == (True,)
    square = auto_tables.reaction_table("1813-revised", Arm.INFANTRY, Rating.B,
                                        auto_tables.FORMED, Reaction.FORM_SQUARE, 0,
                                        Grade.AVERAGE, False)
    assert square is not None and square.chance() == F(1, 2) and square.fail_casualties == 3
    assert auto_tables.reaction_for("1813", Arm.INFANTRY, Formation.LINE, False) is \
        Reaction.CHANGE_FORMATION
    assert auto_tables.reaction_for("1813-revised", Arm.INFANTRY, Formation.LINE, False) is \
        Reaction.FORM_SQUARE


def test_a_column_of_march_caught_by_cavalry_routs():
    """Rule 8: infantry in column of march contacted by cavalry, unable to change formation,
    rout with 3 casualties."""
    from campaign1813.campaign.battle.ruleset1813.rules.quick import QuickCase

    r = auto_tables.contact_result("1813", QuickCase.COLUMN_OF_MARCH_CONTACTED_BY_CAVALRY,
                                   Arm.INFANTRY, auto_tables.FORMED)
    assert r is not None and not r.escaped
    assert (r.hit.casualties, r.hit.state, r.hit.new_rout) == (3, auto_tables.ROUT, True)


def test_the_poor_chip_in_a_battle_without_a_poor_commander():
    """The Poor chip with no Poor commander in the battle says so, never that all the Poor
    commanders have already moved."""
    report = resolve(setup(["B"], ["B"]), seed=3).report
    assert "No Poor commander in this battle, no effect" in report
    assert "All Poor commanders have already moved, no effect" not in report


def test_the_report_lines_are_the_tables_own():
    """A morale test, a pursuit and a rally of pursuers written by auto-resolve's writer read
    exactly as the table writes them for the same roll."""
    from campaign1813.campaign.battle.dice import TypedDice
    from campaign1813.campaign.battle.ruleset1813 import report_lines
    from campaign1813.campaign.battle.ruleset1813.fight import FightState, brigade_of, label_of
    from campaign1813.campaign.battle.ruleset1813.fight_tests import prepare
    from campaign1813.campaign.battle.ruleset1813.rules.morale import MoraleTest, take_morale_test
    from campaign1813.campaign.battle.ruleset1813.rules.rout import pursue

    s = setup(["B"], ["B"])
    state = FightState.start(s)
    key, cav = "1 Prussian Corps/1", "1 French Corps/cav"
    name = label_of(s, key)
    for face in range(1, 7):
        table_line = prepare(s, state, "morale", key).run(TypedDice([face])).line
        b = brigade_of(s.brigade(key), 0, MoraleState.FORMED)
        r = take_morale_test(MoraleTest(b), TypedDice([face]), s.ruleset)
        assert table_line == report_lines.morale_line(
            False, name, face, report_lines.morale_word(r, MoraleState.FORMED))
    for faces in ([1, 1], [6, 2], [6, 5]):
        table_line = prepare(s, state, "pursuit", cav, key).run(TypedDice(faces)).line
        result = pursue(brigade_of(s.brigade(cav)), brigade_of(s.brigade(key)),
                        TypedDice(faces), s.ruleset)
        ours = report_lines.pursuit_line(label_of(s, cav), faces[0],
                                         faces[1] if result.pursues else None,
                                         result.row.result if result.row else "")
        assert table_line == ours


def _moves(report: tuple[str, ...]) -> list[tuple[str, str, list[str]]]:
    """Each corps commander's move: (corps, orders, its lines)."""
    out: list[tuple[str, str, list[str]]] = []
    for line in report:
        if line.startswith(("Move ", "Turn ")) and " (chip " in line and "CinC" not in line:
            out.append((line.split(" – ")[2].split(" (chip ")[0], "", []))
        elif line.startswith(("Move ", "Turn ")):
            out.append(("", "", []))
        elif out and line.startswith("Orders: ") and not out[-1][1]:
            out[-1] = (out[-1][0], line.removeprefix("Orders: "), out[-1][2])
        elif out:
            out[-1][2].append(line)
    return out


def test_rich_battles_keep_the_rules(rich_reports):
    """Over the rich battles of every order: Rule 7, a battery fires once in its commander's move;
    Rules 4, 11-13, infantry skirmish or fire only on Hold or Engage and fight hand to hand only
    on Attack; Rule 6, opportunity charges only in the enemy's move; Rule 15, infantry never
    charge cavalry; Rule 3, pips are never overspent."""
    for report in rich_reports:
        for corps, orders_, lines_ in _moves(report):
            if not corps:
                continue
            own = f"({corps})"
            fired = [line.split(", by ")[1].split(" (")[0] for line in lines_
                     if line.startswith("Artillery fire on ")]
            assert len(fired) == len(set(fired)), lines_
            for line in lines_:
                if line.startswith("Skirmish: ") and line.split(" (")[1].startswith(corps):
                    assert orders_ in ("Hold", "Engage"), (corps, orders_, line)
                if line.startswith("Combat (Rule 12): ") and own in line.split(" against ")[0]:
                    assert orders_ in ("Hold", "Engage"), (corps, orders_, line)
                if line.startswith(("Combat (Rule 13): ", "Combat (Rule 9): ")):
                    assert own in line.split(" against ")[0]
                    assert orders_ == "Attack", (corps, orders_, line)
                if " attempt to opportunity charge " in line:
                    assert own not in line.split(" attempt ")[0], line
                if line.startswith(("Combat (Rule 14): ", "Combat (Rule 15): ")):
                    assert "Cavalry Brigade" in line.split(" against ")[0], line
                left = re.search(r"\(\d pips?, (-?\d+) left\)$", line)
                if left:
                    assert int(left.group(1)) >= 0, line


def test_the_revision_reacts_by_its_own_table():
    """Revised Rule 6 (seed 003): a reaction is a test of 4+ on 1d6, +2 for cavalry, −1 a
    casualty; infantry charged form square (the 1813 "change formation" is not a reaction of
    the revision), cavalry counter charge; a failed reaction costs 40 %. Seed 142 (French in
    the open): the French 4 Infantry Brigade, in column of march and unhurt, needs 4, rolls 2
    and fails to form square, and Rule 8 settles the contact. Seed 247: the Prussian cavalry,
    in column with one casualty from the guns, need 3 (+2 cavalry, −1 the casualty), roll 1
    and fail: 40 % of their 4 figures is 2 more casualties, and they fight stationary: Rule 14,
    French medium +1, line against column +2 = 3 against Prussian medium +1, three casualties
    −3, stationary −2 = −4."""
    s = in_the_open(setup(["B"], ["B"], ruleset="1813-revised"))
    f4, fcav = "4 Infantry Brigade (1 French Corps)", "1 Cavalry Brigade (1 French Corps)"
    pcav = "1 Cavalry Brigade (1 Prussian Corps)"
    report = resolve(s, seed=142).report
    i = report.index(f"{pcav} attempt to opportunity charge {f4} (5) charge")
    assert report[i + 1] == f"{f4} tries to form square (2) fail"
    assert report[i + 2].startswith(f"Quick result: {f4} column of march contacted by cavalry "
                                    f"by {pcav}: ")
    report = resolve(s, seed=247).report
    i = report.index(f"{fcav} attempt to opportunity charge {pcav} (6) charge")
    assert report[i + 1] == f"{pcav} tries to counter charge (1) fail"
    assert report[i + 2].startswith(f"Combat (Rule 14): {fcav} (3) against {pcav} (-4); ")
    for seed in (142, 247):
        assert not any("tries to change formation" in line
                       for line in resolve(s, seed=seed).report)


def test_pursuers_stay_disordered_and_a_rout_ends_their_pursuit():
    """Rule 16: pursuing cavalry stay as they are until they rally at their next move (no
    re-forming at the end of the turn, Rule 18), and cavalry that rout are no longer
    pursuing: they are never rallied as pursuers. The rich battle, seed 1101: the Prussian 1
    Cavalry Brigade pursue in turn 5, Disordered, with two casualties; a French battery hits
    them (three); before their corps or their CinC moves again the French 5 Cavalry Brigade
    charge them; still Disordered, they counter charge only if they make morale (Rule 18 with
    Rule 17's test) and fight moving: Rule 14, French medium +1, one casualty −1 = 0 against
    Prussian medium +1, three casualties −3, Disordered −1 = −3; 7 + 3 = 10 (10+), the loser
    routs with 2 more casualties, 5, past the cavalry's limit of 4."""
    report = resolve(rich(), seed=1101).report
    pcav, fcav = "1 Cavalry Brigade (1 Prussian Corps)", "5 Cavalry Brigade (2 French Corps)"
    pursued = report.index(f"{pcav} pursue (6), (1) Pursue the routers 12\" and cause another "
                           "casualty")
    routed = report.index(
        f"Combat (Rule 14): {fcav} (0) against {pcav} (-3); {fcav} rolls (7) +3 = 10: Loser "
        f"routs – {fcav}: 1 casualty, disordered; {pcav}: 2 casualties, rout")
    assert report.index("Turn 5 of 12") < pursued < routed
    assert not any(line.startswith("Turn ") for line in report[pursued:routed])
    assert not any(line.startswith("Move ") and "1 Prussian Corps (chip" in line
                   or "– CinC (chip" in line and "Allied" in line
                   for line in report[pursued:routed])
    assert report[routed - 1] == f"{pcav} tries to counter charge (6) pass (Rule 18: morale test)"
    assert not any(line.startswith(f"Rally pursuing {pcav}") for line in report)


def test_a_brigade_takes_one_rally_at_its_move(rich_reports):
    """Rule 16: pursuers try to rally at their corps' next move; one that fails goes back
    Shaken and is not rallied again in the same move (Rule 18's rally is for the brigades
    already waiting)."""
    rallied = 0
    for report in rich_reports:
        for corps, _orders, lines_ in _moves(report):
            for line in lines_:
                if line.startswith("Rally pursuing "):
                    rallied += 1
                    who = line.removeprefix("Rally pursuing ").rsplit(" (", 1)[0]
                    assert not any(x.startswith(f"Test to rally {who} (") for x in lines_), \
                        (corps, lines_)
    assert rallied


def test_pursuers_no_commander_can_rally_go_back_shaken():
    """Rule 16: pursuers whose rally no commander can pay for return to their own lines
    Shaken, and auto-resolve writes it as the table does."""
    from campaign1813.campaign.battle.ruleset1813 import report_lines

    assert auto_tables.pursuers_sent_back_state("1813", auto_tables.DISORDERED) == \
        auto_tables.SHAKEN
    assert auto_tables.pursuers_sent_back_state("1813", auto_tables.FORMED) == \
        auto_tables.SHAKEN
    assert report_lines.pursuers_not_rallied_line("Hussars", MoraleState.SHAKEN) == \
        "Pursuing Hussars not rallied (no commander): return to own lines shaken"


def test_a_move_lost_to_the_poor_chip_tests_no_morale_of_its_own(rich_reports):
    """Seed 000 (sequence of play, Rule 17): a commander who misses his move to the Poor chip
    has no move, so none of his brigades tests or rallies at its end (the reports show only
    "Miss move due to Poor Card"); his guns may still fire (Rule 7), and only the enemy they
    hit tests. Over the rich battles (a Poor commander on each side, a worn corps)."""
    lost = 0
    for report in rich_reports:
        for corps, _orders, lines_ in _moves(report):
            if "Miss move due to Poor Card" not in lines_:
                continue
            lost += 1
            own = f"({corps})"
            for line in lines_:
                if line.startswith(("Test to rally ", "Test morale for ", "Rally pursuing ")):
                    assert own not in line, (corps, lines_)
    assert lost >= 20


def test_the_cinc_rallies_pursuing_cavalry():
    """Rule 16 (000): pursuers try to rally at their next move, a corps commander or the CinC
    paying 1 pip. The rich battle, seed 6: the French 5 Cavalry Brigade pursue; the French CinC
    draws his chip before their corps moves again, rolls 5 + 2 = 7 pips, goes to 2 French
    Corps and rallies them first (4, Disordered) for one of them."""
    report = resolve(rich(), seed=6).report
    cav = "5 Cavalry Brigade (2 French Corps)"
    cinc = report.index("Move 5 – French – CinC (chip 1)")
    assert report[cinc + 1:cinc + 4] == ("Pips: 5 + 2 (Average) = 7", "Move to 2 French Corps",
                                        f"Rally pursuing {cav} (4) disordered")
    pursued = max(i for i, line in enumerate(report[:cinc])
                  if line.startswith(f"{cav} pursue ("))
    assert not any("2 French Corps (chip" in line for line in report[pursued:cinc])


# Estimates of the engine before its loop was made faster (2,000 runs, seed 0, at the commit
# that gave the CinC his rally of pursuers): French, Allied and drawn counts.
_ESTIMATES_BEFORE = {
    "all-B, the French holding the town": (1630, 258, 112),
    "all-B in the open": (957, 932, 111),
    "two corps a side, revised rules": (1935, 60, 5),
}


def _before_and_after() -> list[tuple[str, BattleSetup]]:
    return [("all-B, the French holding the town", setup(["B"], ["B"])),
            ("all-B in the open", in_the_open(setup(["B"], ["B"]))),
            ("two corps a side, revised rules",
             setup(["A", "B"], ["B", "C"], cinc=True, ruleset="1813-revised"))]


@pytest.mark.parametrize("name, s", _before_and_after())
def test_estimates_unchanged_by_the_faster_loop(name, s):
    """Auto-resolve's estimates are those of the engine before its loop was made faster: each
    share now lies within the 95 % interval of the share before, and each share before within
    the interval now."""
    now = estimate(s, 2000, seed=0)
    for share, count in zip((now.french, now.allied, now.draw), _ESTIMATES_BEFORE[name],
                            strict=True):
        low, high = wilson(count, 2000)
        assert low <= share.fraction <= high, (name, share)
        assert share.low <= count / 2000 <= share.high, (name, share)
