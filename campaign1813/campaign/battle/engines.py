"""Every ruleset's battle behind one interface: :func:`engine_for` gives the :class:`Engine` of a
ruleset id, and the battle services, the read models and the command line speak only to it.

The 1813 rules and their revision share one engine (``fight``, ``fight_tests``, ``session``,
``autoresolve``); seeds 002 and 004 each have a package of their own (``rules.files.OWN_ENGINES``).
Where they differ in shape — the state, the actions and their inputs, whether the battle
finishes itself, the unit tables, the mapping of the campaign's brigades, the scale of their
losses — the difference is met here, once, so a battle is kept, played, shown, finished and
auto-resolved the same way whatever its rules.

>>> engine_for("1813").ruleset, engine_for("002").ruleset
('1813', '002')
>>> [a.name for a in engine_for("002").actions][-2:]
['override', 'finish']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol

from campaign1813.campaign.battle.fight import Decision, Step
from campaign1813.campaign.battle.report_forms import html_of, markdown_of
from campaign1813.campaign.battle.rules.common import ActionRefused
from campaign1813.campaign.battle.rules.files import (
    OWN_ENGINES,
    all_ruleset_names,
    ruleset_names,
)
from campaign1813.campaign.battle.setup import ALLIED, FRENCH, BattleSetup, BrigadeSetup, rout_point
from campaign1813.errors import CampaignError

if TYPE_CHECKING:  # auto-resolve is imported only when a battle is auto-resolved
    from campaign1813.campaign.battle.autoresolve import AutoOdds, AutoResult, BrigadeOutcome

__all__ = ["Engine", "Input", "ActionSpec", "Table", "UnknownRuleset", "engine_for",
           "casualty_key", "read_inputs", "DEFAULT_RULESET", "markdown_of", "html_of", "Odds"]

# The ruleset a battle is fought by unless the umpire names another.
DEFAULT_RULESET = "1813"

Typed = Sequence[int | tuple[int, ...]]
# The outcomes of an action and the exact chance of each, in the order to show them.
Odds = tuple[tuple[str, Fraction], ...]
Progress = Callable[[int, int], bool | None] | None


class UnknownRuleset(CampaignError):
    """A ruleset id that no shipped ruleset has."""


@dataclass(frozen=True)
class Input:
    """One input of an action: its name, its kind, what it means and whether it must be given.

    Kinds: ``text``, ``unit`` (a unit's key), ``side`` (French or Allied), ``whole`` (a whole
    number), ``number`` (a number as text, e.g. ``15/4``), ``flag`` (yes or no), ``list``
    (words joined by commas), ``map`` (unit → unit), ``group`` (named inputs of their own, in
    ``fields``) and ``free`` (any names, each a text or, alone, yes).
    """

    name: str
    kind: str
    help: str
    required: bool = False
    fields: tuple[Input, ...] = ()


@dataclass(frozen=True)
class ActionSpec:
    """One action of a ruleset's battle: its name, what it does, its inputs, whether it rolls."""

    name: str
    help: str
    inputs: tuple[Input, ...] = ()
    rolls: bool = False


@dataclass(frozen=True)
class Table:
    """Rows to show, with their column headings; ``keys`` names the unit of each row (units)."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    keys: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tally:
    """A brigade's tally on the setup sheet, in its ruleset's measure: ``boxes`` marks, the last
    of which puts it out of the battle (the 1813 rout point, 002's elimination, 004's 0 %),
    ``marked`` of them already (what it brings in); ``unit`` what it is in the ruleset (empty
    for the 1813 rules, which fight the brigade as it is) and ``note`` the tally in words."""

    boxes: int
    marked: int
    unit: str
    note: str


class Engine(Protocol):
    """What a battle service, a read model and the command line need of a ruleset's battle."""

    ruleset: str
    actions: tuple[ActionSpec, ...]
    chips: bool

    def action(self, name: str) -> ActionSpec:
        """An action by name, or a refusal listing the ruleset's actions."""

    def act(self, setup: BattleSetup, steps: Sequence[Step], action: str, *,
            typed: Typed | None = None, **inputs: Any) -> Step:
        """Take one action; the step to keep (``ActionRefused`` when not allowed)."""

    def finish(self, setup: BattleSetup, steps: Sequence[Step]) -> Step:
        """The step that closes a decided battle (refused while it is undecided)."""

    def replay(self, setup: BattleSetup, steps: Sequence[Step]) -> Any:
        """The battle's state after these steps."""

    def closed(self, setup: BattleSetup, steps: Sequence[Step]) -> bool:
        """Whether the battle has been finished (its result may go to the campaign)."""

    def decision(self, setup: BattleSetup, state: Any) -> Decision:
        """Who has won and why, and whether the battle may be finished now."""

    def report(self, setup: BattleSetup, steps: Sequence[Step]) -> list[str]:
        """The battle report: title, rules, the two sides, then every step's lines."""

    def report_markdown(self, setup: BattleSetup, steps: Sequence[Step]) -> str:
        """The report as Markdown."""

    def report_html(self, setup: BattleSetup, steps: Sequence[Step]) -> str:
        """The report as HTML."""

    def outcomes(self, setup: BattleSetup, state: Any) -> tuple[BrigadeOutcome, ...]:
        """Each brigade's end in the ruleset's own terms (casualties, hits or steps lost)."""

    def casualties(self, setup: BattleSetup, state: Any) -> dict[str, dict[str, int]]:
        """Each command's casualties by campaign brigade key, in the campaign's terms."""

    def auto_casualties(self, setup: BattleSetup,
                        result: AutoResult) -> dict[str, dict[str, int]]:
        """The same for an auto-resolved battle."""

    def units_table(self, setup: BattleSetup, state: Any) -> Table:
        """A row per unit for the window's table, with the unit keys."""

    def step_now(self, setup: BattleSetup, state: Any) -> str:
        """Where the battle stands, in one line."""

    def who_acts(self, setup: BattleSetup, state: Any) -> tuple[str, ...]:
        """The units that may act now (their keys)."""

    def mapping(self, setup: BattleSetup) -> Table:
        """How the campaign's brigades and commanders become the ruleset's units."""

    def tallies(self, setup: BattleSetup) -> Mapping[str, Tally]:
        """Each brigade's casualty tally at the start, by brigade key (the setup sheet's)."""

    def broken(self, setup: BattleSetup, state: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The corps broken and the armies lost now."""

    def setup_lines(self, setup: BattleSetup, state: Any) -> list[str]:
        """The setup's forces as the command line prints them under the table."""

    def status_lines(self, setup: BattleSetup, state: Any) -> list[str]:
        """The battle now as the command line's ``show`` prints it."""

    def status_json(self, setup: BattleSetup, state: Any) -> dict[str, Any]:
        """What ``show --json`` adds to the state and the decision."""

    def prepare(self, setup: BattleSetup, state: Any, test: str, who: str, target: str,
                options: Mapping[str, Any]) -> Any:
        """A test's exact odds before it is rolled (the 1813 rules' ``fight_tests.prepare``)."""

    def odds(self, setup: BattleSetup, steps: Sequence[Step], action: str,
             inputs: Mapping[str, Any]) -> Odds:
        """The exact chance of each outcome of an action with these inputs, before it is
        rolled; empty when the action rolls nothing the engine can give odds for."""

    def resolve(self, setup: BattleSetup, seed: int | None = None) -> AutoResult:
        """One abstract battle."""

    def estimate(self, setup: BattleSetup, runs: int, seed: int = 0,
                 progress: Progress = None) -> AutoOdds:
        """Win, draw and loss over many abstract battles."""


def engine_for(ruleset: str) -> Engine:
    """The engine of a ruleset id, or a refusal listing the rulesets there are."""
    if ruleset in _OWN:
        return _OWN[ruleset](ruleset)
    if ruleset in OWN_ENGINES or ruleset not in ruleset_names():
        raise UnknownRuleset(f"no ruleset called '{ruleset}' (rulesets: "
                             f"{', '.join(all_ruleset_names())})")
    return _Rules1813(ruleset)


# -- what all engines share --------------------------------------------------------------------


def casualty_key(b: BrigadeSetup) -> str:
    """A brigade's key in the campaign's casualties: its number, ``<n> cavalry`` or
    ``artillery``."""
    if b.arm.value == "artillery" or b.number is None:
        return "artillery"
    return f"{b.number} cavalry" if b.arm.value == "cavalry" else str(b.number)


def _hits_text(n: int) -> str:
    return f"{n} hit{'' if n == 1 else 's'}"


def _cm(x: Fraction) -> str:
    """A distance on the table: ``7.5 cm``, ``5.625 cm``."""
    return f"{float(x):g} cm"


def _half_up(x: Fraction) -> int:
    return int(x + Fraction(1, 2))


_YES = ("yes", "y", "true", "on", "1")
_NO = ("no", "n", "false", "off", "0")


def _value(spec: Input, text: str, where: str) -> Any:
    if spec.kind == "flag":
        word = text.strip().lower()
        if word in _YES:
            return True
        if word in _NO:
            return False
        raise ActionRefused(f"{where} should be yes or no, not {text!r}")
    if spec.kind == "whole":
        try:
            return int(text)
        except ValueError:
            raise ActionRefused(f"{where} should be a whole number, not {text!r}") from None
    if spec.kind == "list":
        return [w.strip() for w in text.split(",") if w.strip()]
    return text


def read_inputs(action: ActionSpec, pairs: Sequence[tuple[str, str | None]]) -> dict[str, Any]:
    """An action's inputs from the umpire's words, each read by its kind: ``name=value``
    pairs, a dotted name for an entry of a group or a table (``options.face=flank``,
    ``supported.A1=A2``), and a bare name for yes (``road``).

    >>> move = engine_for("002").action("move")
    >>> read_inputs(move, [("unit", "5 Corps/1"), ("inches", "6"), ("road", None)])
    {'unit': '5 Corps/1', 'inches': '6', 'road': True}
    """
    out: dict[str, Any] = {}
    for name, text in pairs:
        _put(action.name, action.inputs, out, name.split("."), text)
    missing = [i.name for i in action.inputs if i.required and i.name not in out]
    if missing:
        raise ActionRefused(f"{action.name} needs {', '.join(missing)} "
                            f"({' '.join(m + '=…' for m in missing)})")
    return out


def _put(where: str, specs: tuple[Input, ...], into: dict[str, Any], path: list[str],
         text: str | None) -> None:
    head, rest = path[0], path[1:]
    spec = next((i for i in specs if i.name == head), None)
    if spec is None:
        known = ", ".join(i.name for i in specs) or "none"
        raise ActionRefused(f"{where} has no input '{head}' (inputs: {known})")
    here = f"{where} {head}"
    if spec.kind == "group":
        if not rest:
            raise ActionRefused(f"{here} is a group: give its entries as {head}.NAME=VALUE")
        _put(here, spec.fields, into.setdefault(head, {}), rest, text)
    elif spec.kind in ("map", "free"):
        if len(rest) != 1:
            raise ActionRefused(f"{here} is a table: give its entries as {head}.NAME=VALUE")
        if text is None and spec.kind == "map":
            raise ActionRefused(f"{here}.{rest[0]} needs a value")
        into.setdefault(head, {})[rest[0]] = True if text is None else text
    elif rest:
        raise ActionRefused(f"{here} has no entries of its own")
    elif text is None:
        if spec.kind != "flag":
            raise ActionRefused(f"{here} needs a value ({head}=…)")
        into[head] = True
    else:
        into[head] = _value(spec, text, here)


class _Base:
    """The parts every engine shares: its actions by name and the reports from its lines."""

    ruleset: str
    actions: tuple[ActionSpec, ...] = ()
    chips = False

    def __init__(self, ruleset: str) -> None:
        self.ruleset = ruleset

    def action(self, name: str) -> ActionSpec:
        """An action by name, or a refusal listing the ruleset's actions."""
        for a in self.actions:
            if a.name == name:
                return a
        raise ActionRefused(f"'{name}' is not a battle action of ruleset {self.ruleset} "
                            f"(actions: {', '.join(a.name for a in self.actions)})")

    def report(self, setup: BattleSetup, steps: Sequence[Step]) -> list[str]:
        raise NotImplementedError

    def report_markdown(self, setup: BattleSetup, steps: Sequence[Step]) -> str:
        """The report as Markdown."""
        return markdown_of(self.report(setup, steps))

    def report_html(self, setup: BattleSetup, steps: Sequence[Step]) -> str:
        """The report as HTML."""
        return html_of(self.report(setup, steps))


# -- the 1813 rules and their revision ---------------------------------------------------------


def _i(name: str, kind: str, help: str, required: bool = False,
       fields: tuple[Input, ...] = ()) -> Input:
    return Input(name, kind, help, required, fields)


_OPTIONS_1813 = _i("options", "free", "the table's facts: band, inches, cover, behind, case, "
                   "reaction, rule, near, through, facts, enemy-facts, and flags such as "
                   "flank, friends-near, overhead, no-reply, can-escape, british, pay")
_SIDE_REASON = (_i("side", "text", "French, Allied or draw", True),
                _i("reason", "text", "the umpire's reason"))
ACTIONS_1813: tuple[ActionSpec, ...] = (
    ActionSpec("allocate", "before the battle: give the reserve cavalry or artillery",
               (_i("reserve", "text", "the reserve", True),
                _i("brigades", "list", "the brigades given", True))),
    ActionSpec("orders", "write a corps' orders (setup), or the CinC changes them (play)",
               (_i("corps", "text", "the corps", True), _i("order", "text", "the order", True),
                _i("objective", "text", "its objective"),
                _i("in_contact", "flag", "the CinC is in base contact"))),
    ActionSpec("draw", "draw the next chip (or name the chip drawn from the bag)",
               (_i("chip", "text", "the chip drawn"),
                _i("commander", "text", "for a special chip: who takes his move"))),
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
    ActionSpec("end-turn", "end the turn with chips still in the bag"),
    ActionSpec("holder", "at nightfall: the side holding the battle town or most squares",
               _SIDE_REASON),
    ActionSpec("override", "the umpire's own decision, with a reason", _SIDE_REASON),
    ActionSpec("finish", "close the battle and give its result to the campaign"),
)


class _Rules1813(_Base):
    """The engine of the 1813 rules (and of any ruleset of its tables, e.g. 1813-revised)."""

    actions = ACTIONS_1813
    chips = True

    def act(self, setup: BattleSetup, steps: Sequence[Step], action: str, *,
            typed: Typed | None = None, **inputs: Any) -> Step:
        from campaign1813.campaign.battle.session import act

        return act(setup, steps, action, typed=typed, **inputs)

    def finish(self, setup: BattleSetup, steps: Sequence[Step]) -> Step:
        return self.act(setup, steps, "finish")

    def replay(self, setup: BattleSetup, steps: Sequence[Step]) -> Any:
        from campaign1813.campaign.battle.fight import replay

        return replay(setup, list(steps))

    def closed(self, setup: BattleSetup, steps: Sequence[Step]) -> bool:
        from campaign1813.campaign.battle.fight import Phase

        return bool(self.replay(setup, steps).phase == Phase.FINISHED)

    def decision(self, setup: BattleSetup, state: Any) -> Decision:
        from campaign1813.campaign.battle.fight import decision

        return decision(setup, state)

    def report(self, setup: BattleSetup, steps: Sequence[Step]) -> list[str]:
        from campaign1813.campaign.battle.session import report

        return report(setup, steps)

    def outcomes(self, setup: BattleSetup, state: Any) -> tuple[BrigadeOutcome, ...]:
        from campaign1813.campaign.battle.autoresolve import BrigadeOutcome
        from campaign1813.campaign.battle.fight import label_of

        return tuple(BrigadeOutcome(b.key, label_of(setup, b.key), b.corps,
                                    state.brigades[b.key].casualties, state.brigades[b.key].state,
                                    state.brigades[b.key].removed) for b in setup.brigades)

    def casualties(self, setup: BattleSetup, state: Any) -> dict[str, dict[str, int]]:
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

    def units_table(self, setup: BattleSetup, state: Any) -> Table:
        from campaign1813.campaign.battle.fight import label_of, side_of

        rows = []
        for b in setup.brigades:
            now = state.brigades[b.key]
            rows.append((label_of(setup, b.key), side_of(setup, b.key), b.arm.value,
                         f"{now.casualties}/{rout_point(b.arm, setup.ruleset)}",
                         now.state.value, now.formation.value if now.formation else "",
                         "removed" if now.removed else ""))
        return Table(("Brigade", "Side", "Arm", "Casualties", "Morale", "Formation", "Table"),
                     tuple(rows), tuple(b.key for b in setup.brigades))

    def step_now(self, setup: BattleSetup, state: Any) -> str:
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

    def who_acts(self, setup: BattleSetup, state: Any) -> tuple[str, ...]:
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

    def broken(self, setup: BattleSetup, state: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
        from campaign1813.campaign.battle.fight import broken_now

        corps, lost = broken_now(setup, state)
        order = [c.key for c in setup.corps]
        return tuple(sorted(corps, key=order.index)), tuple(sorted(lost))

    def _brigade_line(self, setup: BattleSetup, state: Any, key: str) -> str:
        from campaign1813.campaign.battle.fight_tests import known_facts

        text: str = known_facts(setup, state, key)
        return text + (", removed" if state.brigades[key].removed else "")

    def setup_lines(self, setup: BattleSetup, state: Any) -> list[str]:
        s = setup
        lines = ["Chips: " + ", ".join(
            f"{c.label} {s.commander(c.commander).name}" if c.commander else c.label
            for c in s.chips)]
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

    def status_lines(self, setup: BattleSetup, state: Any) -> list[str]:
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
        lines.append(f"Result: {d.winner or 'undecided'} – {d.reason}")
        return lines

    def status_json(self, setup: BattleSetup, state: Any) -> dict[str, Any]:
        broken_corps, lost = self.broken(setup, state)
        return {"broken_corps": list(broken_corps), "lost": list(lost)}

    def prepare(self, setup: BattleSetup, state: Any, test: str, who: str, target: str,
                options: Mapping[str, Any]) -> Any:
        from campaign1813.campaign.battle.fight_tests import prepare

        return prepare(setup, state, test, who, target, dict(options))

    def odds(self, setup: BattleSetup, steps: Sequence[Step], action: str,
             inputs: Mapping[str, Any]) -> Odds:
        # The 1813 rules' odds are their tests' (fight_tests.prepare) and the pips' average die.
        from campaign1813.campaign.battle.fight import pips_distribution

        state = self.replay(setup, steps)
        if action == "test":
            found = self.prepare(setup, state, str(inputs.get("test", "")),
                                 str(inputs.get("who", "") or ""),
                                 str(inputs.get("target", "") or ""), inputs.get("options", {}))
            return tuple(found.odds)
        if action == "pips" and state.activation is not None:
            return tuple((f"{n} pips", p) for n, p in
                         sorted(pips_distribution(setup, state.activation.commander).items()))
        return ()

    def resolve(self, setup: BattleSetup, seed: int | None = None) -> AutoResult:
        from campaign1813.campaign.battle.autoresolve import resolve

        return resolve(setup, seed)

    def estimate(self, setup: BattleSetup, runs: int, seed: int = 0,
                 progress: Progress = None) -> AutoOdds:
        from campaign1813.campaign.battle.autoresolve import estimate

        return estimate(setup, runs, seed=seed, progress=progress)


# -- the rulesets with an engine of their own --------------------------------------------------


class _Own(_Base):
    """A ruleset whose package names the battle interface (``ruleset002``, ``ruleset004``)."""

    unit_headers: tuple[str, ...] = ()
    mapping_headers: tuple[str, ...] = ()

    @property
    def package(self) -> Any:
        """The ruleset's package (its names are imported when first asked for)."""
        return import_module(OWN_ENGINES[self.ruleset])

    def act(self, setup: BattleSetup, steps: Sequence[Step], action: str, *,
            typed: Typed | None = None, **inputs: Any) -> Step:
        self._own(setup)
        if action == "finish":
            if typed:
                raise ActionRefused("finish rolls no dice; a typed roll is not taken")
            return self.finish(setup, steps)
        step: Step = self.package.act(setup, list(steps), action, typed=typed, **inputs)
        return step

    def finish(self, setup: BattleSetup, steps: Sequence[Step]) -> Step:
        raise NotImplementedError

    def closed(self, setup: BattleSetup, steps: Sequence[Step]) -> bool:
        raise NotImplementedError

    def _own(self, setup: BattleSetup) -> None:
        if setup.ruleset != self.ruleset:
            raise ActionRefused(f"{setup.title} is set up for ruleset '{setup.ruleset}', not "
                                f"{self.ruleset}")

    def replay(self, setup: BattleSetup, steps: Sequence[Step]) -> Any:
        self._own(setup)
        return self.package.replay(setup, list(steps))

    def decision(self, setup: BattleSetup, state: Any) -> Decision:
        d = self.package.decision(setup, state)
        return Decision(d.winner, d.reason, d.final)

    def report(self, setup: BattleSetup, steps: Sequence[Step]) -> list[str]:
        lines: list[str] = self.package.report(setup, list(steps))
        return lines

    def outcomes(self, setup: BattleSetup, state: Any) -> tuple[BrigadeOutcome, ...]:
        found: tuple[BrigadeOutcome, ...] = self.package.outcomes(setup, state)
        return found

    def _lost(self, b: BrigadeSetup, gained: int) -> Fraction:
        """The campaign's casualties of ``gained`` losses in the ruleset's own terms."""
        raise NotImplementedError

    def _campaign(self, setup: BattleSetup, end: Sequence[BrigadeOutcome],
                  start: Sequence[BrigadeOutcome]) -> dict[str, dict[str, int]]:
        """The casualties the campaign keeps: those each brigade brought, and this battle's
        losses converted back at the mapping's own rate (rounded half up); an eliminated unit
        and any brigade with more is at its rout point, never past it."""
        before = {o.key: o.casualties for o in start}
        out: dict[str, dict[str, int]] = {}
        for o in end:
            b = setup.brigade(o.key)
            limit = rout_point(b.arm)
            if o.destroyed:
                total = limit
            else:
                total = min(limit, b.casualties + _half_up(
                    self._lost(b, o.casualties - before.get(o.key, 0))))
            if total:
                out.setdefault(b.corps, {})[casualty_key(b)] = total
        return out

    def casualties(self, setup: BattleSetup, state: Any) -> dict[str, dict[str, int]]:
        return self._campaign(setup, self.outcomes(setup, state),
                              self.outcomes(setup, self.replay(setup, [])))

    def auto_casualties(self, setup: BattleSetup,
                        result: AutoResult) -> dict[str, dict[str, int]]:
        return self._campaign(setup, result.brigades,
                              self.outcomes(setup, self.replay(setup, [])))

    def _unit_keys(self, setup: BattleSetup, state: Any) -> tuple[str, ...]:
        raise NotImplementedError

    def mapping(self, setup: BattleSetup) -> Table:
        raise NotImplementedError

    def tallies(self, setup: BattleSetup) -> Mapping[str, Tally]:
        raise NotImplementedError

    def units_table(self, setup: BattleSetup, state: Any) -> Table:
        rows = tuple(tuple(r) for r in self.package.units_table(setup, state))
        return Table(self.unit_headers, rows, self._unit_keys(setup, state))

    def step_now(self, setup: BattleSetup, state: Any) -> str:
        return str(self.package.step_now(setup, state))

    def who_acts(self, setup: BattleSetup, state: Any) -> tuple[str, ...]:
        return tuple(self.package.who_acts(setup, state))

    def broken(self, setup: BattleSetup, state: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
        # These rulesets have no corps morale; an army is lost only by the victory condition.
        d = self.decision(setup, state)
        if not d.final or d.winner not in (FRENCH, ALLIED):
            return (), ()
        return (), ((ALLIED if d.winner == FRENCH else FRENCH),)

    def setup_lines(self, setup: BattleSetup, state: Any) -> list[str]:
        return []

    def status_lines(self, setup: BattleSetup, state: Any) -> list[str]:
        title = setup.title[0].upper() + setup.title[1:]
        lines = [f"{title}: rules {self.ruleset}; {self.step_now(setup, state)}"]
        table = self.units_table(setup, state)
        acting = set(self.who_acts(setup, state))
        lines.append("  " + " | ".join(table.headers))
        for key, row in zip(table.keys, table.rows, strict=True):
            lines.append(("* " if key in acting else "  ") + " | ".join(row) + f"  [{key}]")
        if acting:
            lines.append("(* may act now)")
        d = self.decision(setup, state)
        lines.append(f"Result: {d.winner or 'undecided'} – {d.reason}")
        return lines

    def status_json(self, setup: BattleSetup, state: Any) -> dict[str, Any]:
        table = self.units_table(setup, state)
        return {"ruleset": self.ruleset, "step_now": self.step_now(setup, state),
                "who_acts": list(self.who_acts(setup, state)),
                "units": {"headers": list(table.headers), "keys": list(table.keys),
                          "rows": [list(r) for r in table.rows]}}

    def prepare(self, setup: BattleSetup, state: Any, test: str, who: str, target: str,
                options: Mapping[str, Any]) -> Any:
        raise ActionRefused(f"ruleset {self.ruleset} has no 1813 tests; its odds are "
                            f"'campaign1813 odds --ruleset {self.ruleset} …'")

    def odds(self, setup: BattleSetup, steps: Sequence[Step], action: str,
             inputs: Mapping[str, Any]) -> Odds:
        return ()

    def resolve(self, setup: BattleSetup, seed: int | None = None) -> AutoResult:
        self._own(setup)
        result: AutoResult = self.package.resolve(setup, seed)
        return result

    def estimate(self, setup: BattleSetup, runs: int, seed: int = 0,
                 progress: Progress = None) -> AutoOdds:
        self._own(setup)
        odds: AutoOdds = self.package.estimate(setup, runs, seed, progress)
        return odds


_UNIT = _i("unit", "unit", "the unit", True)
_TARGET = _i("target", "unit", "the enemy unit", True)
_SIDE = _i("side", "side", "French or Allied", True)
_OVERRIDE = ActionSpec("override", "the umpire's own decision, with a reason",
                       (_i("side", "text", "French, Allied or draw", True),
                        _i("reason", "text", "the umpire's reason", True)))
_FINISH = ActionSpec("finish", "close the decided battle and give its result to the campaign")


class _Engine002(_Own):
    """Seed 002: units count hits; side A and B take each step; the battle ends itself."""

    unit_headers = ("Unit", "Side", "Type", "Hits", "Ground", "Marker", "Commander")
    mapping_headers = ("Brigade or commander", "In the campaign", "In ruleset 002", "Why")
    actions: tuple[ActionSpec, ...] = (
        ActionSpec("deploy", "before the first turn: place a unit on its ground",
                   (_UNIT, _i("ground", "text", "open, woods, town, entrenchment, hill or marsh"),
                    _i("place", "text", "which town or wood"))),
        ActionSpec("attach", "a commander joins an infantry unit (setup or his movement)",
                   (_i("commander", "text", "the commander's key", True), _UNIT)),
        ActionSpec("sides", "find side A for the turn: a D6, or the side the umpire names",
                   (_i("side_a", "side", "the side the coin gave (else a D6 is rolled)"),),
                   rolls=True),
        ActionSpec("move", "a unit moves (or pivots) in its side's movement",
                   (_UNIT, _i("inches", "number", "how far"),
                    _i("to", "text", "the ground it ends on (as for deploy)"),
                    _i("place", "text", "which"),
                    _i("road", "flag", "all along a road"),
                    _i("near_general", "flag", "starting near the General"),
                    _i("pivot", "flag", "pivots on the spot"),
                    _i("across_river", "flag", "crosses a river"),
                    _i("at_crossing", "flag", "at a bridge or ford"))),
        ActionSpec("shoot", "a unit shoots in its shooting step",
                   (_UNIT, _TARGET, _i("inches", "number", "the range"),
                    _i("retire", "flag", "target cavalry retire 6 inches, halving the hits"),
                    _i("in_arc", "flag", "the target is in the arc of fire (default yes)")),
                   rolls=True),
        ActionSpec("charge", "a cavalry unit charges in its side's charge step",
                   (_UNIT, _TARGET, _i("flank", "flag", "into the flank or rear"),
                    _i("infantry_near", "flag", "infantry near the guns charged"),
                    _i("inches", "number", "how far"),
                    _i("turn", "whole", "degrees turned to charge")), rolls=True),
        ActionSpec("rally", "a commander or the General takes the marker off a unit",
                   (_UNIT, _i("by", "text", "a commander's key, or General (default)"),
                    _i("near", "flag", "within 6 inches of the unit"),
                    _i("enemy_near", "flag", "an enemy unit is within 6 inches"))),
        ActionSpec("next", "end the step (after side B's rally, the turn)"),
        _OVERRIDE,
        _FINISH,
    )

    def finish(self, setup: BattleSetup, steps: Sequence[Step]) -> Step:
        # Seed 002's battle ends itself at its victory condition; the finish step only closes
        # it for the campaign, changing nothing of its state.
        if self.closed(setup, steps):
            raise ActionRefused("the battle is already finished and its result given")
        d = self.decision(setup, self.replay(setup, steps))
        if not d.final:
            raise ActionRefused(d.reason)
        text = "a draw" if d.winner == "draw" else f"the {d.winner} win"
        return Step("finish", f"Finish: {d.winner}", (f"The battle is finished: {text} – "
                                                      f"{d.reason}",), {})

    def closed(self, setup: BattleSetup, steps: Sequence[Step]) -> bool:
        return any(s.kind == "finish" for s in steps)

    def odds(self, setup: BattleSetup, steps: Sequence[Step], action: str,
             inputs: Mapping[str, Any]) -> Odds:
        # A shot or a charge is built from the battle as the package's own step builds it,
        # then its procedure gives the exact odds (shooting.shot_odds, charges.charge_odds).
        from campaign1813.campaign.battle.ruleset002 import battle as b002
        from campaign1813.campaign.battle.ruleset002.charges import Charge, charge_odds
        from campaign1813.campaign.battle.ruleset002.shooting import Shot, shot_odds
        from campaign1813.campaign.battle.ruleset002.tables import tables

        if action == "sides":  # one die for side A, unless the umpire names it (a coin)
            if inputs.get("side_a"):
                return ()
            t = tables(setup.ruleset)
            faces = t.sides_die.faces
            french = Fraction(sum(1 for f in faces if f in t.french_a_on), len(faces))
            return (("French are side A", french), ("Allied are side A", 1 - french))
        if action not in ("shoot", "charge"):
            return ()
        self._own(setup)
        state = self.replay(setup, steps)
        g = b002._Game(setup, b002.army_of(setup), tables(setup.ruleset), state)
        key, target = b002._need(inputs, "unit"), b002._need(inputs, "target")
        now, aim = g.live(key), g.live(target)
        ground, there = g.t.ground[now.ground], g.t.ground[aim.ground]
        if action == "shoot":
            shot = Shot(g.kind(key), g.kind(target), bool(g.commander_of(key)),
                        ground.best_of_two, there.cover, b002._flag(inputs, "retire"),
                        b002._inches(inputs, "inches"), now.moved,
                        ground.all_round_fire or inputs.get("in_arc", True) is not False)
            return tuple((_hits_text(n), p) for n, p in shot_odds(shot, g.t.name).items())
        c = Charge(g.kind(target), there.halves_charges, b002._flag(inputs, "flank"),
                   there.cover, b002._flag(inputs, "infantry_near"), aim.charged,
                   now.retired, b002._inches(inputs, "inches"), b002._degrees(inputs, "turn"))
        found = charge_odds(c, g.t.name)
        if found.overrun:
            return (("the guns are eliminated outright", Fraction(1)),)
        return tuple((_hits_text(n), p) for n, p in found.hits.items())

    def _lost(self, b: BrigadeSetup, gained: int) -> Fraction:
        from campaign1813.campaign.battle.ruleset002.convert import HITS_PER_CASUALTY

        return Fraction(gained, HITS_PER_CASUALTY)

    def _unit_keys(self, setup: BattleSetup, state: Any) -> tuple[str, ...]:
        from campaign1813.campaign.battle.ruleset002.battle import army_of

        return tuple(u.key for u in army_of(setup).units)

    def tallies(self, setup: BattleSetup) -> Mapping[str, Tally]:
        # A hit a box; the unit is eliminated with the first hit over its type's limit.
        from campaign1813.campaign.battle.ruleset002.battle import army_of
        from campaign1813.campaign.battle.ruleset002.tables import tables

        self._own(setup)
        t = tables(setup.ruleset)
        out = {}
        for u in army_of(setup).units:
            limit = t.units[u.kind].eliminated_over
            out[u.key] = Tally(limit + 1, u.hits, u.kind.value,
                               f"hits; eliminated over {limit}")
        return out

    def mapping(self, setup: BattleSetup) -> Table:
        from campaign1813.campaign.battle.ruleset002.convert import mapping_rows

        rows = mapping_rows(setup, setup.ruleset)
        return Table(self.mapping_headers, tuple(tuple(r) for r in rows))


class _Engine004(_Own):
    """Seed 004: units of four 25 % steps; alternate moves, simultaneous fire, melee."""

    unit_headers = ("Unit", "Side", "Kind", "Quality", "Effectiveness", "Order", "This turn")
    actions: tuple[ActionSpec, ...] = (
        ActionSpec("national", "before the battle: a nation's characteristics",
                   (_i("nation", "text", "the nation, as its brigades name it", True),
                    _i("characteristics", "text", "the set of national.toml (none: clear)"))),
        ActionSpec("first-move", "dice for the first move", rolls=True),
        ActionSpec("move", "a unit of the side to move moves (and may charge)",
                   (_UNIT, _i("distance_cm", "number", "how far (default: its full move)"),
                    _i("changes", "text", "firing order, leave firing order, or limber"),
                    _i("wheel_degrees", "whole", "degrees wheeled"),
                    _i("about_turns", "whole", "about-turns"),
                    _i("fires", "flag", "light troops: a half move, then fire"),
                    _i("charge", "unit", "the enemy unit charged"),
                    _i("face", "text", "front, flank or rear of the unit charged"),
                    _i("foot_near_gun_cm", "number", "foot this near the guns charged"),
                    _i("no_variation", "text", "why the variation is ignored")), rolls=True),
        ActionSpec("attach", "the side's general joins a unit (none: rides alone)",
                   (_SIDE, _i("unit", "unit", "the unit he joins"))),
        ActionSpec("done", "the side has moved all it wishes", (_SIDE,)),
        ActionSpec("fire", "a unit fires; its hits are held until the fire is over",
                   (_UNIT, _TARGET, _i("shot", "text", "musketry, canister or roundshot"),
                    _i("distance_cm", "number", "the range"),
                    _i("cover", "flag", "the target is in cover"),
                    _i("one_rank", "flag", "firing by one rank"),
                    _i("over_heads", "flag", "guns firing over friends' heads")), rolls=True),
        ActionSpec("end-fire", "all fire takes effect at once; the morale tests it causes",
                   (_i("supported", "map", "unit → the friendly unit behind it"),),
                   rolls=True),
        ActionSpec("melee", "a charge made this turn is fought out",
                   (_i("attacker", "unit", "the charging unit", True),
                    _i("defender", "unit", "the unit charged", True),
                    _i("options", "group", "the table's facts", fields=(
                        _i("face", "text", "front, flank or rear"),
                        _i("attacker_extra", "flag", "the attacker has the extra die"),
                        _i("attacker_cover", "flag", "the attacker is in cover"),
                        _i("attacker_in_wood", "flag", "the attacker is in a wood"),
                        _i("defender_extra", "flag", "the defender has the extra die"),
                        _i("defender_cover", "flag", "the defender is in cover"),
                        _i("defender_in_wood", "flag", "the defender is in a wood"),
                        _i("foot_near_gun_cm", "number", "foot this near the guns"),
                        _i("obstructed_by", "unit", "the unit the loser retreats into"),
                        _i("supported", "map", "unit → the friendly unit behind it")))),
                   rolls=True),
        ActionSpec("end-turn", "end the turn"),
        _OVERRIDE,
        _FINISH,
    )

    def finish(self, setup: BattleSetup, steps: Sequence[Step]) -> Step:
        step: Step = self.package.act(setup, list(steps), "finish")
        return step

    def closed(self, setup: BattleSetup, steps: Sequence[Step]) -> bool:
        return bool(self.replay(setup, steps).finished)

    def odds(self, setup: BattleSetup, steps: Sequence[Step], action: str,
             inputs: Mapping[str, Any]) -> Odds:
        # Fire and melee are built from the battle as the package's own step builds them; the
        # procedures give exact odds (fire.musketry_odds, fire.artillery_odds, melee_odds).
        from campaign1813.campaign.battle.ruleset004 import battle as b004
        from campaign1813.campaign.battle.ruleset004 import fire as fire_rules
        from campaign1813.campaign.battle.ruleset004.melee import melee_odds
        from campaign1813.campaign.battle.ruleset004.movement import first_move_odds

        if action == "first-move":  # a die each, ties rolled again
            odds = first_move_odds()
            return (("French move first", odds["first"]), ("Allied move first", odds["second"]))
        if action not in ("fire", "melee", "move"):
            return ()
        self._own(setup)
        state = self.replay(setup, steps)
        if action == "move":
            return self._move_odds(setup, state, inputs)
        if action == "fire":
            u, now = b004._unit(setup, state, b004._need(inputs, "unit"))
            t, _tnow = b004._unit(setup, state, b004._need(inputs, "target"))
            shot = str(inputs.get("shot") or ("roundshot" if u.kind.value == "guns"
                                              else "musketry"))
            distance = (None if inputs.get("distance_cm") in (None, "")
                        else b004._fraction(inputs["distance_cm"], "range"))
            aim = fire_rules.Target(t.kind, bool(inputs.get("cover", False)), t.cuirassiers)
            standing: dict[int, Fraction]
            if shot == "musketry":
                nat = b004._national_of(u)
                returning = now.moved and not (u.kind.light and now.half_move)
                volley = fire_rules.Volley(u.kind, now.steps, now.firing_order,
                                           bool(inputs.get("one_rank", False)), returning,
                                           nat.foot_musketry if nat and u.kind.foot else 0,
                                           distance)
                standing = fire_rules.musketry_odds(volley, aim).standing
            elif shot in ("canister", "roundshot"):
                battery = fire_rules.Battery(fire_rules.Shot(shot), now.steps,
                                             bool(inputs.get("over_heads", False)), distance)
                standing = fire_rules.artillery_odds(battery, aim).standing
            else:
                raise ActionRefused(f"'{shot}' is not a kind of fire (musketry, canister, "
                                    "roundshot)")
            return tuple((_hits_text(n) + " stand", p) for n, p in sorted(standing.items()))
        a, anow = b004._unit(setup, state, b004._need(inputs, "attacker"))
        d, dnow = b004._unit(setup, state, b004._need(inputs, "defender"))
        opts: dict[str, Any] = dict(inputs.get("options", {}))
        made = [f for x, y, f in state.charges if (x, y) == (a.key, d.key)]
        face = made[0] if made else str(opts.get("face") or "front")
        fa = b004._fighter(a, anow, extra=bool(opts.get("attacker_extra",
                                                        face in ("flank", "rear"))),
                           cover=bool(opts.get("attacker_cover", False)),
                           in_wood=bool(opts.get("attacker_in_wood", False)))
        fd = b004._fighter(d, dnow, extra=bool(opts.get("defender_extra", False)),
                           cover=bool(opts.get("defender_cover", False)),
                           in_wood=bool(opts.get("defender_in_wood", False)),
                           frontal=face == "front")
        return tuple((str(v), p) for v, p in melee_odds(fa, fd).verdict.items() if p)

    @staticmethod
    def _move_odds(setup: BattleSetup, state: Any, inputs: Mapping[str, Any]) -> Odds:
        """The Variation: the distance a move covers, when it is diced for, reckoned by the
        package's own ``move_plan``, which its move step takes too."""
        from campaign1813.campaign.battle.ruleset004 import battle as b004
        from campaign1813.campaign.battle.ruleset004.movement import variation_odds

        plan = b004.move_plan(*b004._unit(setup, state, b004._need(inputs, "unit")), inputs)
        if not plan.diced:
            return ((f"moves {_cm(plan.wanted)}: no variation die", Fraction(1)),)
        return tuple((f"covers {_cm(d)}", p) for d, p in variation_odds(plan.wanted).items())

    def _lost(self, b: BrigadeSetup, gained: int) -> Fraction:
        from campaign1813.campaign.battle.ruleset004.units import FULL_STEPS

        return Fraction(gained * rout_point(b.arm), FULL_STEPS)

    def _unit_keys(self, setup: BattleSetup, state: Any) -> tuple[str, ...]:
        from campaign1813.campaign.battle.ruleset004.battle import forces

        return tuple(u.key for u in forces(setup, state).units)

    def tallies(self, setup: BattleSetup) -> Mapping[str, Tally]:
        # A box a 25 % step lost; the unit is gone with the last.
        from campaign1813.campaign.battle.ruleset004.battle import forces
        from campaign1813.campaign.battle.ruleset004.units import FULL_STEPS, STEP_PERCENT

        self._own(setup)
        out = {}
        for u in forces(setup).units:
            kind = u.kind.value + (" (cuirassiers)" if u.cuirassiers else "")
            out[u.key] = Tally(FULL_STEPS, FULL_STEPS - u.steps, f"{kind}, {u.quality.value}",
                               f"{STEP_PERCENT} % steps; gone at 0 %")
        return out

    def mapping(self, setup: BattleSetup) -> Table:
        from campaign1813.campaign.battle.ruleset004.convert import MAPPING_HEADERS, mapping_rows

        return Table(MAPPING_HEADERS, tuple(tuple(r) for r in mapping_rows(setup)))


_OWN: dict[str, type[_Own]] = {"002": _Engine002, "004": _Engine004}
