"""Every ruleset through the same battle services, read models and command line: a battle of
the campaign (I Prussian Corps attacks 5 Corps at Magdeburg, 6 May 1813) fought by ruleset 002
and by ruleset 004 with typed dice to its end, finished into the campaign; auto-resolve by each
ruleset; the generic actions of the command line."""

from __future__ import annotations

import shutil
from importlib import import_module

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.battle.core.actions import action_named, read_inputs
from campaign1813.campaign.battle.registry import UnknownRuleset, find_ruleset
from campaign1813.campaign.battle.ruleset1813.rules.common import ActionRefused
from campaign1813.campaign.cli import main
from campaign1813.campaign.day.ground import OrderRefused
from campaign1813.campaign.day.state import Status
from campaign1813.campaign.store.codec import read_state
from campaign1813.campaign.store.document import open_campaign
from campaign1813.errors import CampaignError

RULESETS = ("1813", "1813-revised", "002", "004")
F17, F18, F19, F20 = (f"5 Corps/{n}" for n in (17, 18, 19, 20))
FCAV, FART = "5 Corps/3 cavalry", "5 Corps/artillery"
A1, A2, A3, A4 = (f"I Prussian Corps/{n}" for n in (1, 2, 3, 4))
ACAV, AART = "I Prussian Corps/1 cavalry", "I Prussian Corps/artillery"


@pytest.fixture(scope="module")
def scheduled(tmp_path_factory, campaign_template):
    """The shipped campaign: I Prussian Corps ordered to attack Magdeburg; six days later the
    battle of Magdeburg (battle 1) is due, against 5 Corps; casualties carried forward."""
    path = tmp_path_factory.mktemp("magdeburg") / "scheduled.c1813"
    shutil.copyfile(campaign_template, path)
    with open_campaign(path) as doc:
        services.change_setting(doc, "carry_casualties_forward", "on")
        services.issue_order(doc, "I Prussian Corps", "Attack", "Magdeburg")
        for _ in range(6):
            services.end_day(doc)
        battle = queries.campaign_status(doc).battles[0]
        assert (battle.id, battle.place, battle.french, battle.allied) == (
            1, "Magdeburg", ("5 Corps",), ("I Prussian Corps",))
    return path


@pytest.fixture
def campaign(scheduled, tmp_path):
    path = tmp_path / "c.c1813"
    shutil.copy(scheduled, path)
    return path


def _command(doc, name):
    return queries.campaign_status(doc).command(name)


def _fight(doc, action, *typed, **inputs):
    return services.battle_action(doc, 1, action, typed=list(typed) or None, **inputs)


def _skip(doc, n=1):
    for _ in range(n):
        _fight(doc, "next")


def test_an_unknown_ruleset_is_refused_with_the_known_ones(campaign):
    message = "no ruleset called '003' (rulesets: 002, 004, 1813, 1813-revised)"
    with pytest.raises(UnknownRuleset) as err:
        find_ruleset("003")
    assert str(err.value) == message
    with open_campaign(campaign) as doc:
        with pytest.raises(UnknownRuleset, match="no ruleset called '003'"):
            services.open_battle(doc, 1, ruleset="003")
        with pytest.raises(UnknownRuleset, match="no ruleset called '003'"):
            services.autoresolve_battle(doc, 1, ruleset="003")
        assert queries.fight_view(doc, 1) is None
        assert queries.campaign_status(doc).battles[0].result is None
        with pytest.raises(OrderRefused, match="ruleset 002 draws no chips"):
            services.open_battle(doc, 1, ruleset="002", specials=["French gifted"])


def test_the_setup_keeps_its_ruleset_when_the_file_is_reopened(campaign):
    with open_campaign(campaign) as doc:
        services.open_battle(doc, 1, ruleset="004")
    with open_campaign(campaign) as doc:
        view = queries.fight_view(doc, 1)
        assert view.setup.ruleset == view.ruleset == "004"
        assert view.step_now == "Turn 1 – dice for the first move"
        # The window's table: a row per unit, the generals among them, with the unit keys.
        assert view.units.keys == (FCAV, F17, F18, F19, F20, FART, "French general",
                                   ACAV, A1, A2, A3, A4, AART, "Allied general")
        assert view.units.headers[:5] == ("Unit", "Side", "Kind", "Quality", "Effectiveness")
        assert [a.name for a in view.actions][:3] == ["national", "first-move", "move"]
        assert view.mapping.rows[0][:5] == ("3 Cavalry Brigade", "5 Corps",
                                            "cavalry B (medium)", "heavy horse", "regular")


def test_a_ruleset_002_battle_of_the_campaign_fought_to_its_end(campaign):
    """Seed 002's sequence with typed dice; the Allies are side A in both turns. Hits: artillery
    and skirmishers 1D6-2, infantry and elite infantry 1D6; eliminated past 12; a charge on
    guns with no infantry near eliminates them outright; a side wins on eliminating half of
    the enemy's 6 units (3)."""
    with open_campaign(campaign) as doc:
        services.open_battle(doc, 1, ruleset="002")
        view = queries.fight_view(doc, 1)
        assert view.step_now == "setup: deploy and attach, then roll for sides"
        # seed 002: 1-3 the French are side A, 4-6 the Allies: 5.
        _fight(doc, "sides", 5)
        assert queries.fight_view(doc, 1).step_now == "Turn 1 – Movement – Allied (side A)"
        _skip(doc, 2)
        changes = _fight(doc, "shoot", 6, unit=AART, target=F19)        # 6 - 2 = 4 hits
        assert "rolled 6: 4 hits" in changes.lines[0]
        # Undo takes the shot back, redo puts it back.
        services.undo(doc)
        assert queries.fight_view(doc, 1).state.units[F19].hits == 0
        services.redo(doc)
        assert queries.fight_view(doc, 1).state.units[F19].hits == 4
        _skip(doc)
        _fight(doc, "shoot", 5, unit=FART, target=A3)                   # 5 - 2 = 3
        _skip(doc)
        _fight(doc, "shoot", 6, unit=A2, target=F19)                    # 4: 8 on F19
        _skip(doc, 2)
        view = queries.fight_view(doc, 1)
        assert view.step_now == "Turn 1 – Stationary infantry shooting – Allied (side A)"
        assert view.who_acts == (A1, A3, A4)
        _fight(doc, "shoot", 6, unit=A3, target=F19)                    # 6: 14, eliminated
        _fight(doc, "shoot", 6, unit=A4, target=F20)                    # 6
        _fight(doc, "shoot", 6, unit=A1, target=F20)                    # 6: 12, not past 12
        _skip(doc)
        _fight(doc, "shoot", 4, unit=F17, target=A3)                    # 4: 3 + 4 = 7 on A3
        _skip(doc, 3)
        changes = _fight(doc, "charge", unit=ACAV, target=FART)         # no roll: overrun
        assert "are eliminated" in changes.lines[0]
        _skip(doc, 4)
        assert queries.fight_view(doc, 1).step_now == "Turn 2: roll for sides"
        _fight(doc, "sides", 6)
        _skip(doc, 2)
        with pytest.raises(CampaignError, match="undecided on turn 2"):
            services.finish_battle(doc, 1)
        changes = _fight(doc, "shoot", 3, unit=AART, target=F20)        # 1: 13, the third
        assert changes.lines[-1] == ("Result: the Allied win – the Allied have eliminated 3 "
                                     "of the 6 French units (needed 3)")
        view = queries.fight_view(doc, 1)
        assert view.decision.final and not view.closed and view.lost == ("French",)
        assert queries.campaign_status(doc).battles[0].result is None
        changes = services.battle_action(doc, 1, "finish")
        assert queries.fight_view(doc, 1).closed
        with pytest.raises(ActionRefused, match="already finished"):
            services.battle_action(doc, 1, "finish")
        assert "Battle report:" in changes.lines
        assert queries.campaign_status(doc).battles[0].result == "Allied"
        assert _command(doc, "I Prussian Corps").status is Status.RESTING
        assert _command(doc, "5 Corps").status is Status.RETREATING
        # The campaign's casualties: brought (none) + this battle's hits at 2 a casualty,
        # rounded half up; an eliminated unit at its rout point (infantry 6, guns 3).
        # A3: 7 hits -> 3.5 -> 4.
        with doc.reading() as con:
            state = read_state(con)
        assert dict(state.commands["5 Corps"].casualties) == {"19": 6, "20": 6,
                                                             "artillery": 3}
        assert dict(state.commands["I Prussian Corps"].casualties) == {"3": 4}
        report = "\n".join(queries.battle_report(doc, 1).lines)
        assert "Rules: Hits to elimination, shooting and charges by dice (seed 002)" in report
        # Undoing the finish gives the result back to the table.
        services.undo(doc)
        assert queries.campaign_status(doc).battles[0].result is None
        assert not queries.fight_view(doc, 1).closed


def test_a_ruleset_004_battle_of_the_campaign_fought_to_its_end(campaign):
    """Seed 004 with typed dice: the French army (6 brigades and its general: 7 units) is lost
    below half, at 3 units left, when the fire of turn 1 takes effect at once."""
    with open_campaign(campaign) as doc:
        services.open_battle(doc, 1, ruleset="004")
        # "Dice for the first move": French 2, Allied 5: the Allied move first.
        _fight(doc, "first-move", 2, 5)
        assert queries.fight_view(doc, 1).step_now == "Turn 1 – movement – the Allied to move"
        _fight(doc, "done", side="Allied")
        _fight(doc, "done", side="French")
        # Canister, 2 dice: 6 + 6 = 12, halved: 6 potential hits, each on 4-6 against foot:
        # 4, 4, 4, 4, 5, 5: 6 hits (no cover, no save).
        _fight(doc, "fire", 6, 6, 4, 4, 4, 4, 5, 5, unit=AART, target=F19, shot="canister",
               distance_cm=10)
        # Foot in firing order at 100 %: 4 dice hitting on 4-6: 4, 5, 6, 6: 4 hits.
        _fight(doc, "fire", 4, 5, 6, 6, unit=A3, target=F20, distance_cm=8)
        _fight(doc, "fire", 6, 6, 6, 6, unit=A4, target=F18, distance_cm=8)
        # Light foot hit on 5-6: 5, 5, 6, 6: 4 hits.
        _fight(doc, "fire", 5, 5, 6, 6, unit=A1, target=F17, distance_cm=8)
        # 4, 1, 2, 3: 1 hit.
        _fight(doc, "fire", 4, 1, 2, 3, unit=F19, target=A3, distance_cm=8)
        # 3 + 2 = 5, halved 2½, the half diced 4: a full one: 3 potential hits: 4, 1, 6: 2.
        changes = _fight(doc, "fire", 3, 2, 4, 4, 1, 6, unit=FART, target=A4, shot="canister",
                         distance_cm=10)
        assert "score 5, 3 potential hits, 2 hits" in changes.lines[0]
        assert queries.fight_view(doc, 1).state.units[F19].steps == 4, "fire is held"
        # All fire at once; 3 Infantry Brigade (elite, 3-6) rolls 5: passes; 4 Infantry
        # Brigade rolls 2: fails, a further 25 % goes.
        changes = _fight(doc, "end-fire", 5, 2)
        assert changes.lines[-1] == ("Result: the Allied win: the French army has 3 of its 7 "
                                     "units left, below half")
        view = queries.fight_view(doc, 1)
        rows = dict(zip(view.units.keys, view.units.rows, strict=True))
        assert [rows[k][4] for k in (F17, F18, F19, F20, FCAV, A3, A4)] == [
            "eliminated", "eliminated", "eliminated", "eliminated", "100 %", "75 %", "25 %"]
        assert view.decision.final and not view.closed
        services.battle_action(doc, 1, "finish")
        assert queries.campaign_status(doc).battles[0].result == "Allied"
        assert _command(doc, "I Prussian Corps").status is Status.RESTING
        assert _command(doc, "5 Corps").status is Status.RETREATING
        # Steps lost become casualties at a quarter of the 1813 rout point (infantry 6) a
        # step, rounded half up; an eliminated unit is at its rout point. 3 Infantry Brigade
        # lost 1 step: 1.5 -> 2; 4 Infantry Brigade 3 steps: 4.5 -> 5.
        with doc.reading() as con:
            state = read_state(con)
        assert dict(state.commands["5 Corps"].casualties) == {"17": 6, "18": 6, "19": 6,
                                                             "20": 6}
        assert dict(state.commands["I Prussian Corps"].casualties) == {"3": 2, "4": 5}
        # A typed result is refused no longer: the battle is closed on the table.
        with pytest.raises(OrderRefused, match="already has a result"):
            services.record_result(doc, 1, "French")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_autoresolve_by_each_ruleset_records_a_result(campaign, ruleset):
    with open_campaign(campaign) as doc:
        odds = services.autoresolve_odds(doc, 1, 20, ruleset=ruleset)
        assert odds[0].startswith("The battle of Magdeburg (6 May 1813): 20 auto-resolved runs")
        assert sum(int(line.split(": ")[1].split(" ")[0]) for line in odds[1:]) == 20
        changes = services.autoresolve_battle(doc, 1, ruleset=ruleset)
        result = queries.campaign_status(doc).battles[0].result
        assert result in ("French", "Allied", "draw")
        assert changes.lines[0].startswith(f"Auto-resolved (seed {18130506001}):")
        if result != "draw":
            loser = "5 Corps" if result == "Allied" else "I Prussian Corps"
            assert _command(doc, loser).status is Status.RETREATING
        with pytest.raises(OrderRefused, match="has been fought already|already has a result"):
            services.autoresolve_battle(doc, 1, ruleset=ruleset)


def test_auto_resolve_casualties_are_the_engines_outcomes_in_campaign_terms(campaign):
    """The seeded 004 auto-resolve: each brigade's steps lost at a quarter of its rout point."""
    from campaign1813.campaign.battle.ruleset004.autoresolve import resolve
    from campaign1813.campaign.battle.setup import campaign_rout_point as rout_point
    from campaign1813.campaign.day.fight_setup import battle_setup

    with open_campaign(campaign) as doc:
        with doc.reading() as con:
            state = read_state(con)
        setup = battle_setup(doc.ground().adjusted(state.settings), state, 1, ruleset="004")
        services.autoresolve_battle(doc, 1, ruleset="004")
        with doc.reading() as con:
            kept = {n: dict(read_state(con).commands[n].casualties)
                    for n in ("5 Corps", "I Prussian Corps")}
    result = resolve(setup, setup.seed)
    want: dict[str, dict[str, int]] = {}
    for o in result.brigades:
        b = setup.brigade(o.key)
        total = rout_point(b.arm) if o.destroyed else (o.casualties * rout_point(b.arm) * 2
                                                       + 4) // 8
        if total:
            key = ("artillery" if b.arm.value == "artillery" else
                   f"{b.number} cavalry" if b.arm.value == "cavalry" else str(b.number))
            want.setdefault(b.corps, {})[key] = total
    assert kept == {n: want.get(n, {}) for n in kept}
    assert any(kept.values()), "the seeded battle costs someone casualties"


def test_the_1813_rules_give_the_same_generic_view(campaign):
    with open_campaign(campaign) as doc:
        services.open_battle(doc, 1, seed=3)
        view = queries.fight_view(doc, 1)
        assert view.ruleset == "1813" and not view.mapping.rows
        assert view.step_now == "being set up: orders and the reserve, then draw the first chip"
        assert view.units.keys[0] == FCAV and view.units.rows[0][:4] == (
            "3 Cavalry Brigade (5 Corps)", "French", "cavalry", "0/4")
        assert [a.name for a in view.actions][-1] == "finish"
        _fight(doc, "draw", chip="1")
        view = queries.fight_view(doc, 1)
        assert view.step_now == ("Turn 1 of 12 – General Lauriston (chip 1): pips not rolled; "
                                 "step: pips")
        assert view.who_acts == ()
        # Pips: his corps is still on its blind: Rule 1's average die 4 + 0 for Average.
        _fight(doc, "pips", 4)
        view = queries.fight_view(doc, 1)
        assert view.step_now == ("Turn 1 of 12 – General Lauriston (chip 1): 4 of 4 pips "
                                 "left; step: spot")
        assert view.who_acts == (FCAV, F17, F18, F19, F20, FART)


def test_the_command_line_fights_any_ruleset_by_its_generic_actions(campaign, capsys):
    f = str(campaign)
    assert main(["battle", f, "1", "setup", "--ruleset", "1812"]) == 1
    assert capsys.readouterr().err.strip().endswith(
        "no ruleset called '1812' (rulesets: 002, 004, 1813, 1813-revised)")
    assert main(["battle", f, "1", "setup", "--ruleset", "002"]) == 0
    out = capsys.readouterr().out
    assert "rules 002, seed 18130506001, 12 turns" in out
    assert "The campaign's forces as ruleset 002 fights them:" in out
    assert "General Yorck" in out and "Elite infantry (Guards or Grenadiers)" in out
    assert main(["battle", f, "1", "setup", "--ruleset", "004"]) == 1
    assert "already on the table by ruleset 002" in capsys.readouterr().err
    assert main(["battle", f, "1", "actions"]) == 0
    out = capsys.readouterr().out
    assert "  shoot: a unit shoots in its shooting step (rolls dice: --roll)" in out
    assert "    retire (yes/no): target cavalry retire 6 inches, halving the hits" in out
    # The 1813 subcommands are the 1813 rules' own.
    assert main(["battle", f, "1", "draw", "1"]) == 1
    assert "'draw' is not an action of ruleset 002" in capsys.readouterr().err
    assert main(["battle", f, "1", "act", "sides", "--roll", "5"]) == 0
    assert "Sides: rolled 5 – side A: Allied" in capsys.readouterr().out
    assert main(["battle", f, "1", "act", "next"]) == 0
    assert main(["battle", f, "1", "act", "move", f"unit={A3}", "inches=6",
                 "road=maybe"]) == 1
    err = capsys.readouterr().err
    assert "move road should be yes or no, not 'maybe'" in err and err.count("\n") == 1
    assert main(["battle", f, "1", "act", "move", "inches=6"]) == 1
    assert "move needs the unit (unit=…)" in capsys.readouterr().err
    assert main(["battle", f, "1", "act", "move", f"unit={FCAV}", "inches=9", "road"]) == 0
    assert "moves 9 inches along a road" in capsys.readouterr().out
    assert main(["battle", f, "1", "act", "next"]) == 0
    assert main(["battle", f, "1", "act", "shoot", f"unit={AART}", f"target={F19}",
                 "--roll", "6"]) == 0
    assert "rolled 6: 4 hits" in capsys.readouterr().out
    assert main(["battle", f, "1", "show"]) == 0
    out = capsys.readouterr().out
    assert "Turn 1 – Artillery shooting – Allied (side A)" in out
    assert "19 Infantry Brigade (5 Corps) | French | Infantry (line infantry) | 4/12" in out
    assert main(["battle", f, "1", "show", "--json"]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert data["ruleset"] == "002" and data["who_acts"] == [] and data["units"]["keys"][3] == F19
    assert main(["battle", f, "1", "report", "--md"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# The battle of Magdeburg (6 May 1813)") and "## Turn 1 of 12" in out
    assert main(["battle", f, "1", "test", "fire", AART, F19, "--odds"]) == 1
    assert "its odds are 'campaign1813 odds --ruleset 002 …'" in capsys.readouterr().err
    assert main(["undo", f]) == 0
    assert main(["battle", f, "1", "show"]) == 0
    assert "| 0/12 |" in capsys.readouterr().out
    assert main(["battle", f, "1", "act", "override", "side=Allied",
                 "reason=the French gave up the town"]) == 0
    assert main(["battle", f, "1", "act", "finish"]) == 0
    assert "The battle is finished: the Allied win" in capsys.readouterr().out


def test_the_command_line_auto_resolves_by_a_ruleset(campaign, capsys):
    f = str(campaign)
    assert main(["autoresolve", f, "1", "--ruleset", "004", "--odds", "10"]) == 0
    assert "10 auto-resolved runs by ruleset 004" in capsys.readouterr().out
    assert main(["autoresolve", f, "1", "--ruleset", "002"]) == 0
    out = capsys.readouterr().out
    assert "auto-resolved, ruleset 002" in out and "Battle report:" in out


def _spec(ruleset, name):
    return action_named(find_ruleset(ruleset).actions, ruleset, name)


def test_inputs_are_read_by_the_kinds_the_engine_gives_them():
    melee = _spec("004", "melee")
    assert read_inputs(melee, [("attacker", "a"), ("defender", "d"),
                               ("options.attacker_extra", "yes"), ("options.face", "flank"),
                               ("options.supported.d", "x")]) == {
        "attacker": "a", "defender": "d",
        "options": {"attacker_extra": True, "face": "flank", "supported": {"d": "x"}}}
    charge = _spec("002", "charge")
    assert read_inputs(charge, [("unit", "u"), ("target", "t"), ("turn", "45")])["turn"] == 45
    with pytest.raises(ActionRefused, match="charge turn should be a whole number"):
        read_inputs(charge, [("unit", "u"), ("target", "t"), ("turn", "half")])
    with pytest.raises(ActionRefused, match=r"charge has no input 'speed' \(inputs: unit, "):
        read_inputs(charge, [("speed", "3")])
    test = _spec("1813", "test")
    assert read_inputs(test, [("test", "fire"), ("options.band", "short"),
                              ("options.flank", None)])["options"] == {"band": "short",
                                                                        "flank": True}


@pytest.mark.parametrize("ruleset", ["002", "004"])
def test_every_action_of_a_ruleset_has_its_inputs_listed(ruleset):
    engine = find_ruleset(ruleset)
    names = [a.name for a in engine.actions]
    package = import_module(f"campaign1813.campaign.battle.ruleset{ruleset}.battle")
    assert names[-1] == "finish" and set(names) == {*package.ACTIONS, "finish"}
    assert len(names) == len(set(names))


def _setup_and_steps(doc):
    from campaign1813.campaign.store import fights

    with doc.reading() as con:
        setup, steps = fights.read(con, 1)
    return setup, steps


def test_seed_002_sides_die_odds_before_it_is_rolled(campaign):
    """Seed 002, sequence of play: "Roll the dice or flip a coin before each turn to determine
    who is Side A and B" — one d6, the French side A on 1–3 (data/rulesets/002/play.toml):
    P(French side A) = 3/6 = 1/2. A side the umpire names (the coin) rolls nothing."""
    from fractions import Fraction

    with open_campaign(campaign) as doc:
        services.open_battle(doc, 1, ruleset="002")
        setup, steps = _setup_and_steps(doc)
    engine = find_ruleset("002")
    assert engine.action(setup, steps, "sides", {}).chance_outcomes() == (
        ("French are side A", Fraction(1, 2)), ("Allied are side A", Fraction(1, 2)))
    assert engine.action(setup, steps, "sides", {"side_a": "Allied"}).chance_outcomes() == ()


def test_seed_004_first_move_odds_before_the_dice(campaign):
    """Seed 004, turn sequence: "Dice for the right to move first" — a d6 each, the higher
    moving first and a tie thrown again: of the 30 untied throws of 36 each side wins 15,
    P(French first) = 15/30 = 1/2."""
    from fractions import Fraction

    with open_campaign(campaign) as doc:
        services.open_battle(doc, 1, ruleset="004")
        setup, steps = _setup_and_steps(doc)
    wins = sum(1 for a in range(1, 7) for b in range(1, 7) if a > b)
    untied = sum(1 for a in range(1, 7) for b in range(1, 7) if a != b)
    assert Fraction(wins, untied) == Fraction(1, 2)
    assert find_ruleset("004").action(setup, steps, "first-move", {}).chance_outcomes() == (
        ("French move first", Fraction(1, 2)), ("Allied move first", Fraction(1, 2)))


def test_seed_004_the_variation_odds_of_a_move(campaign):
    """Seed 004, The Variation: "Roll a die for a unit moving its full distance, or within 25
    per cent of its full distance. 6 add 25 %, 2-5 no change, 1 subtract 25 %". 1 Infantry
    Brigade (light foot, a full move of 7.5 cm) moving its full distance covers 5.625 cm
    with 1/6, 7.5 cm with 4/6 = 2/3, 9.375 cm with 1/6; asked for 5.5 cm (under 75 % of 7.5 =
    5.625) it rolls no die."""
    from fractions import Fraction

    with open_campaign(campaign) as doc:
        services.open_battle(doc, 1, ruleset="004")
        _fight(doc, "first-move", 2, 5)  # the Allied move first
        setup, steps = _setup_and_steps(doc)
    engine = find_ruleset("004")
    def odds(**inputs):
        return engine.action(setup, steps, "move", inputs).chance_outcomes()

    assert odds(unit=A1) == (
        ("covers 5.625 cm", Fraction(1, 6)), ("covers 7.5 cm", Fraction(2, 3)),
        ("covers 9.375 cm", Fraction(1, 6)))
    assert odds(unit=A1, distance_cm="5.5") == (
        ("moves 5.5 cm: no variation die", Fraction(1)),)
    assert odds(unit=A1, no_variation="a river bank") \
        == (("moves 7.5 cm: no variation die", Fraction(1)),)
