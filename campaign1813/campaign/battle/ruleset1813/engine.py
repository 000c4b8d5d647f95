"""The engine of the 1813 rules and their revision (and of any ruleset of their tables, e.g. a
house-ruled copy): the chips, the commanders' pips, the tests of Rules 1–18 with their odds."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from campaign1813.campaign.battle.core.actions import (
    ActionSpec,
    Input,
    Odds,
    Table,
    Tally,
    Typed,
    casualty_key,
)
from campaign1813.campaign.battle.core.engine import Decision, Engine, StepAction
from campaign1813.campaign.battle.core.results import AutoOdds, AutoResult, Progress
from campaign1813.campaign.battle.core.steps import Step
from campaign1813.campaign.battle.ruleset1813 import autoresolve, session
from campaign1813.campaign.battle.ruleset1813.fight import (
    FightState,
    Phase,
    broken_now,
    decision,
    label_of,
    pips_distribution,
    replay,
    side_of,
)
from campaign1813.campaign.battle.ruleset1813.fight_tests import Prepared, known_facts, prepare
from campaign1813.campaign.battle.ruleset1813.rules.loader import check_all
from campaign1813.campaign.battle.ruleset1813.rules.morale import rout_point
from campaign1813.campaign.battle.setup import BattleSetup
from campaign1813.campaign.battle.terms import Role

__all__ = ["Engine1813", "ACTION_SPECS"]


def _i(name: str, kind: str, help: str, required: bool = False,
       fields: tuple[Input, ...] = ()) -> Input:
    return Input(name, kind, help, required, fields)


_OPTIONS_1813 = _i("options", "free", "the table's facts: band, inches, cover, behind, case, "
                   "reaction, rule, near, through, facts, enemy-facts, and flags such as "
                   "flank, friends-near, overhead, no-reply, can-escape, british")
_CONFIRM = _i("confirm", "flag", "Rule 3: the umpire confirms that the commander moving "
              "leaves pips unrolled or unspent because nothing more serves his orders")
_SIDE_REASON = (_i("side", "text", "French, Allied or draw", True),
                _i("reason", "text", "the umpire's reason"))
ACTION_SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("allocate", "before the battle: give the reserve cavalry or artillery",
               (_i("reserve", "text", "the reserve", True),
                _i("brigades", "list", "the brigades given", True))),
    ActionSpec("orders", "write a corps' orders (setup), or the CinC changes them (play)",
               (_i("corps", "text", "the corps", True), _i("order", "text", "the order", True),
                _i("objective", "text", "its objective"),
                _i("in_contact", "flag", "the CinC is in base contact"))),
    ActionSpec("draw", "draw the next chip (or name the chip drawn from the bag)",
               (_i("chip", "text", "the chip drawn"),
                _i("commander", "text", "for a special chip: who takes his move"),
                _CONFIRM)),
    ActionSpec("special", "name the commander who takes his move on a special chip",
               (_i("commander", "text", "the commander (none: pass)"),)),
    ActionSpec("pips", "roll the drawn commander's pips (average die + grade)", rolls=True),
    ActionSpec("spend", "tick off an action of Rule 3 against the pips",
               (_i("what", "text", "the action of Rule 3", True),
                _i("brigade", "unit", "the brigade"), _i("note", "text", "for the report"))),
    ActionSpec("give", "the CinC gives his move to a corps commander",
               (_i("corps", "text", "the corps", True),
                _i("in_contact", "flag", "the CinC is in base contact"))),
    ActionSpec("formation", "record a brigade's new formation",
               (_i("brigade", "unit", "the brigade", True),
                _i("formation", "text", "the formation", True))),
    ActionSpec("test", "roll a test of the rules",
               (_i("test", "text", "the test", True), _i("who", "unit", "who is tested"),
                _i("target", "unit", "its target"), _OPTIONS_1813), rolls=True),
    ActionSpec("roll", "take the next queued test",
               (_i("index", "whole", "which queued test"), _OPTIONS_1813), rolls=True),
    ActionSpec("dismiss", "drop a queued test the table shows is not owed",
               (_i("index", "whole", "which queued test"),
                _i("reason", "text", "why", True))),
    ActionSpec("end-turn", "end the turn with chips still in the bag", (_CONFIRM,)),
    ActionSpec("holder", "at nightfall: the side holding the battle town or most squares",
               _SIDE_REASON),
    ActionSpec("override", "the umpire's own decision, with a reason", _SIDE_REASON),
    ActionSpec("finish", "close the battle and give its result to the campaign"),
)


class Engine1813:
    """The 1813 rules' battle behind the
    :class:`~campaign1813.campaign.battle.core.engine.Engine` protocol."""

    actions = ACTION_SPECS
    chips = True

    def __init__(self, ruleset: str) -> None:
        check_all(ruleset)  # every table read once (then kept): a damaged one is refused now
        self.ruleset = ruleset

    def replay(self, setup: BattleSetup, steps: Sequence[Step]) -> FightState:
        return replay(setup, list(steps))

    def action(self, setup: BattleSetup, steps: Sequence[Step], name: str,
               inputs: Mapping[str, Any]) -> StepAction:
        return StepAction(setup, tuple(steps), name, dict(inputs), _take, self._odds)

    def _odds(self, setup: BattleSetup, steps: Sequence[Step], name: str,
              inputs: Mapping[str, Any]) -> Odds:
        # A test's odds are those of the test the step takes (fight_tests.prepare, which
        # fight_tests.take rolls); the pips', the average die's with the commander's grade.
        state = self.replay(setup, steps)
        if name == "test":
            found = self.prepare(setup, state, str(inputs.get("test", "")),
                                 str(inputs.get("who", "") or ""),
                                 str(inputs.get("target", "") or ""), inputs.get("options", {}))
            return tuple(found.odds)
        if name == "pips" and state.activation is not None:
            return tuple((f"{n} pips", p) for n, p in sorted(pips_distribution(
                setup, state.activation.commander, state).items()))
        return ()

    def closed(self, setup: BattleSetup, steps: Sequence[Step]) -> bool:
        return self.replay(setup, steps).phase == Phase.FINISHED

    def decision(self, setup: BattleSetup, state: FightState) -> Decision:
        return decision(setup, state)

    def report(self, setup: BattleSetup, steps: Sequence[Step]) -> list[str]:
        return session.report(setup, steps)

    def casualties(self, setup: BattleSetup, state: FightState) -> dict[str, dict[str, int]]:
        # The 1813 brigades carry the campaign's casualties as they are.
        out: dict[str, dict[str, int]] = {}
        for b in setup.brigades:
            now = state.brigades[b.key]
            if now.casualties:
                out.setdefault(b.corps, {})[casualty_key(b)] = now.casualties
        return out

    def auto_casualties(self, setup: BattleSetup,
                        result: AutoResult) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for o in result.brigades:
            if o.casualties:
                spec = setup.brigade(o.key)
                out.setdefault(spec.corps, {})[casualty_key(spec)] = o.casualties
        return out

    def units_table(self, setup: BattleSetup, state: FightState) -> Table:

        rows = []
        for b in setup.brigades:
            now = state.brigades[b.key]
            rows.append((label_of(setup, b.key), side_of(setup, b.key), b.arm.value,
                         f"{now.casualties}/{rout_point(b.arm, setup.ruleset)}",
                         now.state.value + (", pursuing" if now.pursuing else ""),
                         now.formation.value if now.formation else "",
                         "removed" if now.removed else ""))
        return Table(("Brigade", "Side", "Arm", "Casualties", "Morale", "Formation", "Table"),
                     tuple(rows), tuple(b.key for b in setup.brigades))

    def step_now(self, setup: BattleSetup, state: FightState) -> str:
        if state.phase == "setup":
            return "being set up: orders and the reserve, then draw the first chip"
        if state.phase == "finished":
            return f"finished: {state.result}"
        if state.phase == "night":
            return "nightfall: " + ("the result may be finished" if state.holder else
                                    "record who holds the battle town")
        text = f"Turn {state.turn} of {setup.turns}"
        a = state.activation
        if a is not None:
            cm = setup.commander(a.commander)
            pips = ("pips not rolled" if a.pips is None
                    else f"{a.remaining} of {a.pips} pips left")
            text += f" – {cm.name} (chip {a.chip}): {pips}; step: {a.stage}"
        if state.queue:
            text += f"; {len(state.queue)} test{'s' if len(state.queue) > 1 else ''} queued"
        return text

    def who_acts(self, setup: BattleSetup, state: FightState) -> tuple[str, ...]:
        if state.phase != "play":
            return ()
        queued = tuple(dict.fromkeys(p.who for p in state.queue if p.who in state.brigades))
        if queued:
            return queued
        if state.activation is None or state.activation.pips is None:
            return ()
        keys: list[str] = []
        for c in setup.corps:
            if c.commander == state.activation.commander:
                keys += [k for k in state.corps[c.key].brigades
                         if not state.brigades[k].removed]
        return tuple(keys)

    def mapping(self, setup: BattleSetup) -> Table:
        # The 1813 rules fight the campaign's brigades as they are: nothing is converted.
        return Table(("Brigade", "Becomes"), ())

    def tallies(self, setup: BattleSetup) -> Mapping[str, Tally]:
        out = {}
        for b in setup.brigades:
            point = rout_point(b.arm, setup.ruleset)
            out[b.key] = Tally(point, b.casualties, "", f"routs at {point}")
        return out

    def broken(self, setup: BattleSetup,
               state: FightState) -> tuple[tuple[str, ...], tuple[str, ...]]:

        corps, lost = broken_now(setup, state)
        order = [c.key for c in setup.corps]
        return tuple(sorted(corps, key=order.index)), tuple(sorted(lost))

    def _brigade_line(self, setup: BattleSetup, state: FightState, key: str) -> str:

        text: str = known_facts(setup, state, key)
        return text + (", removed" if state.brigades[key].removed else "")

    def setup_lines(self, setup: BattleSetup, state: FightState) -> list[str]:
        s = setup
        lines = ["Chips: " + ", ".join(
            f"{c.label} {s.commander(c.commander).name}" if c.commander else c.label
            for c in s.chips)]
        # A CinC whose headquarters marches to the sound of the guns comes on late, as a corps
        lines += [f"{c.side} CinC {c.name}: {c.grade.value}; enters by the "
                  f"{c.edge.value if c.edge else '—'} edge on turn {c.turn}"
                  for c in s.commanders if c.role is Role.CINC and c.turn > 1]
        for c in s.corps:
            cm = s.commander(c.commander)
            enters = ("on the table" if c.edge is None else
                      f"enters by the {c.edge.value} edge on turn {c.turn}"
                      + (" in column of march" if c.column_of_march else ""))
            now = state.corps[c.key]
            lines.append(f"{c.side} {c.key} ({c.blind}): {cm.name}, {cm.grade.value} "
                         f"+{cm.grade.bonus}; orders {now.orders.value}"
                         + (f" on {now.objective}" if now.objective else "") + f"; {enters}")
            lines += [f"    {key}: {self._brigade_line(s, state, key)}" for key in now.brigades]
        return lines

    def status_lines(self, setup: BattleSetup, state: FightState) -> list[str]:
        s, st = setup, state
        broken_corps, lost = self.broken(s, st)
        where = {"setup": "being set up", "play": f"turn {st.turn} of {s.turns}",
                 "night": "nightfall", "finished": f"finished: {st.result}"}[st.phase]
        lines = [f"{s.title[0].upper()}{s.title[1:]}: {where}; chips drawn: "
                 f"{', '.join(st.drawn) or 'none'}"
                 + ("; Poor chip waiting" if st.poor_pending else "")]
        if st.activation:
            a = st.activation
            cm = s.commander(a.commander)
            pips = "pips not rolled" if a.pips is None else f"{a.remaining} of {a.pips} pips left"
            lines.append(f"Moving: {cm.name} ({cm.grade.value}, chip {a.chip}): {pips}; "
                         f"step: {a.stage}")
            lines += [f"  spent {cost}: {what}" for what, cost in a.spent]
        if st.special:
            lines.append(f"The {st.special} chip waits for a commander")
        for i, p in enumerate(st.queue, 1):
            who = p.who or ""
            lines.append(f"Queued {i}: {p.test}{' for ' + who if who else ''} – {p.reason}")
        for c in s.corps:
            now = st.corps[c.key]
            flag = " BROKEN" if c.key in broken_corps else ""
            lines.append(f"{c.side} {c.key}: orders {now.orders.value}"
                         + ("" if now.spotted else " (on its blind)") + flag)
            lines += [f"    {key}: {self._brigade_line(s, st, key)}" for key in now.brigades]
        lines += [f"The {side} army has broken" for side in lost]
        d = self.decision(s, st)
        lines.append(f"Result: {d.result or 'undecided'} – {d.reason}")
        return lines

    def status_json(self, setup: BattleSetup, state: FightState) -> dict[str, Any]:
        broken_corps, lost = self.broken(setup, state)
        return {"broken_corps": list(broken_corps), "lost": list(lost)}

    def prepare(self, setup: BattleSetup, state: Any, test: str, who: str, target: str,
                options: Mapping[str, Any]) -> Prepared:
        """A test's exact odds, rule and the facts it reads, before it is rolled."""
        return prepare(setup, state, test, who, target, dict(options))

    def resolve(self, setup: BattleSetup, seed: int | None = None) -> AutoResult:
        return autoresolve.resolve(setup, seed)

    def estimate(self, setup: BattleSetup, runs: int, seed: int = 0,
                 progress: Progress = None) -> AutoOdds:
        return autoresolve.estimate(setup, runs, seed=seed, progress=progress)


def _take(setup: BattleSetup, steps: Sequence[Step], name: str, inputs: Mapping[str, Any],
          typed: Typed | None) -> Step:
    return session.act(setup, steps, name, typed=typed, **inputs)


# the class is an Engine of its state (mypy --strict checks it here)
_AN_ENGINE: Callable[[str], Engine[FightState]] = Engine1813
