"""Auto-resolve: the abstract battle, its report, and the Monte Carlo estimate.

Margins measured with ``estimate(…, 2000, seed=0)`` (the figures the assertions are set from):
all-A French holding Helmstedt against all-C Prussians won 100.0 % (interval 99.8-100 %); all-A
Prussians attacking all-C French in the town won 90.7 % (89.3-91.9 %); with both sides in the
open, all-B against all-B split 46.6 % / 44.0 % / 9.5 % drawn, and Prussian infantry bringing 3
casualties each fell to 3.6 % wins.
"""

import re
from dataclasses import replace

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
    return [resolve(s, seed=n).report for n in range(150)]


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

    for name in ("take_morale_test", "artillery_fire", "fight", "firefight", "skirmish",
                 "pursue", "rally_pursuers", "roll_pips", "quick_result", "rout_reaction"):
        monkeypatch.setattr(auto_tables, name, slow)
    assert resolve(s, seed=3) == first


# --- who wins -----------------------------------------------------------------------------------


def test_class_a_beats_class_c_clearly():
    defending = estimate(setup(["A"], ["C"]), 2000)
    assert defending.french.fraction >= 0.90          # measured 100.0 %
    attacking = estimate(setup(["C"], ["A"]), 2000)
    assert attacking.allied.fraction >= 0.75          # measured 90.7 %
    assert attacking.allied.low > attacking.french.high


def test_mirror_equal_sides_are_even():
    odds = estimate(in_the_open(setup(["B"], ["B"])), 2000)
    f, a = odds.french, odds.allied
    assert f.low <= a.high and a.low <= f.high        # the intervals overlap
    assert abs(f.fraction - a.fraction) <= (f.high - f.low) / 2 + (a.high - a.low) / 2
    assert 0.35 <= f.fraction <= 0.55                 # measured 46.6 % / 44.0 %


def test_casualties_brought_in_count():
    fresh = estimate(in_the_open(setup(["B"], ["B"])), 2000)
    tired = estimate(worn(in_the_open(setup(["B"], ["B"])), ALLIED, {Arm.INFANTRY: 3}), 2000)
    assert tired.allied.high < fresh.allied.low       # measured 3.6 % against 44.0 %
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
        turn4 = report.index("Turn 4")
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
    for seed in range(20):
        r = resolve(s, seed=seed)
        assert r.winner == FRENCH
        assert r.reason == f"the Allied army broke on turn {r.turns}"
        assert r.turns < s.turns
        assert r.report[-1] == f"The Allied army broke on turn {r.turns}"
        assert f"Turn {r.turns + 1}" not in r.report
        broken = [b for b in r.brigades if b.corps == PRUSSIAN
                  and (b.destroyed or b.state in (MoraleState.SHAKEN, MoraleState.ROUT))]
        assert len(broken) >= 3                       # half of the corps' six


def test_nightfall_at_the_setups_turns():
    s = orders(orders(setup(["B"], ["B"]), FRENCH_CORPS, CorpsOrder.HOLD), PRUSSIAN,
               CorpsOrder.HOLD)
    r = resolve(s, seed=5)
    assert (r.winner, r.turns) == (FRENCH, 12)
    assert r.reason == "night fell with the French holding Helmstedt"
    assert "Turn 12" in r.report and "Turn 13" not in r.report
    assert r.report[-1] == "Night fell with the French holding Helmstedt"
    short = resolve(replace(s, turns=5), seed=5)
    assert short.turns == 5 and "Turn 6" not in short.report
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
        assert "1 French Corps is broken and withdraws" in r.report


def test_brigade_outcomes_by_key():
    s = setup(["A"], ["C"])
    r = resolve(s, seed=1)
    assert [b.key for b in r.brigades] == [b.key for b in s.brigades]
    b = r.brigade("1 Prussian Corps/1")
    assert b.corps == PRUSSIAN and b.casualties >= 0
    with pytest.raises(KeyError):
        r.brigade("nobody")


def test_names_both_sides_share_are_told_apart():
    r = resolve(setup(["B"], ["B"]), seed=0)
    assert any("Prussian 1 Infantry Brigade" in line for line in r.report)
    assert any("French 1 Infantry Brigade" in line for line in r.report)
    # The outcomes keep the setup's own names.
    assert r.brigades[0].name == "1 Infantry Brigade"


# --- the report -------------------------------------------------------------------------------

NAME = r".+"
FORMS = [
    r"Turn \d+",
    rf"Move \d+ – [A-Z][a-z]+ – {NAME} \((chip \d+|(French|Allied) gifted chip|"
    r"French tactical chip)\)",
    r"Move \d+ – Poor Card",
    r"Move \d+ – (French gifted|Allied gifted|French tactical) chip",
    r"Orders: (Move|Halt|Hold|Engage|Attack|Withdraw|Rally)",
    r"Pips \([2-5]\) [3-8]",
    r"Miss move due to Poor Card",
    r"All Poor commanders have already moved, no effect",
    r"No general left who may use it",
    r"No brigade to rally",
    rf"Move to {NAME}",
    rf"All (move forward|advance to (long range|short range|contact)|fall back to {NAME})",
    rf"Artillery fire on (infantry|cavalry|artillery|buildings), {NAME} \((\d+)\) "
    r"(miss|1 hit|2 hits)",
    rf"(Test morale for|Test to rally|Rally pursuers) {NAME} \([1-6]\) "
    r"(pass|pass, still (shaken|routing)|pass and become (shaken|disordered)|fail, shaken|"
    r"fail, still shaken|fail and rout|fail, still routing)",
    rf"(Test morale for|Test to rally|Rally pursuers) {NAME}: routs without testing at \d "
    r"casualties",
    rf"(Attack|Firefight|Charge) {NAME} on {NAME} \(Rule (9|12|13|14|15)\): (French|Allied) "
    rf"roll \((\d+)\) \+\d+, {NAME}",
    rf"Charge {NAME} on {NAME} \(Rule 8\): {NAME}",
    rf"Skirmish {NAME} \([1-6]\) (kill|miss), {NAME} \([1-6]\) (kill|miss)",
    rf"Pursuit test for {NAME} \([1-6]\) (no pursuit|pursue \([1-6]\) {NAME})",
    rf"{NAME}, shaken, routs with {NAME}",
    rf"{NAME} arrives",
    rf"{NAME} is broken and withdraws",
    r"(The (French|Allied) army broke|Both armies broke) on turn \d+",
    rf"Night fell with {NAME}",
    rf"{NAME}: (\d casualt(y|ies)(, (formed|disordered|shaken|routs))?|disordered|shaken|routs)",
]
FORM = re.compile("|".join(f"(?:{f})" for f in FORMS))


def test_every_line_has_the_seeds_form(rich_reports):
    for report in rich_reports:
        for line in report:
            assert FORM.fullmatch(line), line


def test_rolls_are_numbers_the_dice_can_show(rich_reports):
    for report in rich_reports:
        for line in report:
            # a quick result (Rule 8, e.g. guns charged: all lost) has no roll
            if (line.startswith(("Artillery fire", "Attack", "Firefight", "Charge"))
                    and "(Rule 8)" not in line):
                rolled = re.findall(r"\((\d+)\)", line)
                assert rolled and all(2 <= int(n) <= 12 for n in rolled), line


def test_turns_and_moves_count_up_and_each_corps_names_its_orders(rich_reports):
    for report in rich_reports:
        turn, move = 0, 0
        for i, line in enumerate(report):
            if line.startswith("Turn "):
                turn += 1
                assert line == f"Turn {turn}"
                move = 0
            elif line.startswith("Move ") and " – " in line:
                move += 1
                assert line.startswith(f"Move {move} – ")
                if "Corps (" in line:
                    assert report[i + 1].startswith("Orders: ")


def test_the_report_shows_each_part_of_the_battle(rich_reports):
    text = "\n".join("\n".join(r) for r in rich_reports)
    for part in ("Miss move due to Poor Card", "(Allied gifted chip)", "(French gifted chip)",
                 "(French tactical chip)", "Move to ", "Test to rally", "Pursuit test",
                 "Rally pursuers", "Skirmish ", "Firefight ", "(Rule 9)", "(Rule 13)",
                 "(Rule 14)", "(Rule 15)", "Artillery fire on buildings",
                 "4 Prussian Corps arrives",
                 "is broken and withdraws", "shaken, routs with", "All advance to contact",
                 "routs without testing", "No general left who may use it",
                 "All Poor commanders have already moved"):
        assert part in text, part


def test_a_gifted_chip_takes_a_generals_move_early(rich_reports):
    for report in rich_reports:
        turn: list[str] = []
        for line in report + ("Turn end",):
            if line.startswith("Turn"):
                early = [m.split(" – ")[2].split(" (")[0] for m in turn if "gifted chip)" in m
                         or "tactical chip)" in m]
                for name in early:
                    own = [m for m in turn if m.startswith("Move") and f" – {name} (chip" in m]
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
    assert len(cut_down) >= 15
    for r in cut_down:
        assert r.winner == FRENCH
        assert any(line.startswith("Charge 1 Cavalry Brigade on 1 Prussian Corps Artillery "
                                   "(Rule 8): ") for line in r.report)


def test_the_revision_leaves_guns_to_the_reaction_test():
    results = [resolve(lone_battery("1813-revised"), seed=n) for n in range(10)]
    assert not any(r.brigade("1 Prussian Corps/art").destroyed for r in results)
    assert not any("(Rule 8)" in line for r in results for line in r.report)


def test_withdraw_orders_fall_back():
    s = orders(in_the_open(setup(["B"], ["B"])), FRENCH_CORPS, CorpsOrder.WITHDRAW)
    s = orders(s, PRUSSIAN, CorpsOrder.MOVE)
    report = resolve(s, seed=1).report
    assert "All fall back to out of range" in report
    # Move orders keep off the enemy: they never come closer than short range.
    assert "All advance to contact" not in report


def test_the_revised_rules_fight_too():
    r = resolve(setup(["B"], ["B"], ruleset="1813-revised"), seed=4)
    assert r.winner in (FRENCH, ALLIED, None)
    assert not any("(Rule 8)" in line for line in r.report)


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
