"""The shipped ruleset folders, damaged: a table's values given the wrong type or out of every
range, keys dropped or misspelt, ``extends`` naming itself, another ruleset or nothing, a file
dropped, its text cut or sprinkled with stray bytes. Whatever a folder holds, making its
engine, the odds of its rolls, the odds of a battle auto-resolved, the battle auto-resolved and
the battle set up on the table each work or are refused in one line; never an internal error,
and never a hang: each example runs in a child process that is stopped after
``EXAMPLE_SECONDS``.

The child is forked from the test's process, so it starts at once with everything imported;
it forgets what the rules' caches hold and reads the damaged folder in place of the shipped
one (``data_root``)."""

from __future__ import annotations

import contextlib
import copy
import importlib
import io
import json
import os
import select
import shutil
import signal
import sys
import tempfile
import time
import tomllib
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, event, given, note, settings
from hypothesis import strategies as st

from campaign1813.campaign import services
from campaign1813.campaign.battle import files as ruleset_files
from campaign1813.campaign.battle.files import rulesets_root
from campaign1813.campaign.battle.registry import find_ruleset
from campaign1813.campaign.battle.ruleset1813.rules.tables import base as table_base
from campaign1813.campaign.cli import main
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.store.document import open_campaign

from .test_scenario_fuzz import _get, _leaves, _paths, _short, dump, stray, values

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the children are forked")

# CI runs a bounded number of examples; set FUZZ_EXAMPLES for a longer hunt.
FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", 40)) // 2, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
                phases=[p for p in Phase if p is not Phase.explain])
# The longest one example may take (the shipped folders take under a second); longer is a hang.
EXAMPLE_SECONDS = 20.0

SHIPPED = rulesets_root()
RULESETS = ("1813", "1813-revised", "002", "004")
TABLES = tuple((ruleset, p.name) for ruleset in RULESETS
               for p in sorted((SHIPPED / ruleset).glob("*.toml")))
TEXTS = {table: (SHIPPED / table[0] / table[1]).read_text(encoding="utf-8") for table in TABLES}
PARSED = {table: tomllib.loads(text) for table, text in TEXTS.items()}
PATHS = {table: _paths(doc) for table, doc in PARSED.items()}
POOL = {table: sorted({repr(v): v for v in _leaves(doc)}.values(), key=repr)
        for table, doc in PARSED.items()}
# The models of each ruleset's tables, which check a table the umpire has changed.
SCHEMAS = ("campaign1813.campaign.battle.ruleset1813.rules.schema",
           "campaign1813.campaign.battle.ruleset002.schema",
           "campaign1813.campaign.battle.ruleset004.schema")
EXTENDS = st.sampled_from([*RULESETS, "nowhere", "", " ", "../1813", "1813/", "ruleset", 5, True,
                           ["1813"], {"name": "1813"}])

# The odds of each ruleset's rolls, as the command line gives them.
ODDS = {
    "1813": [["odds", "artillery", "--calibre", "12", "--range", "short", "--target",
              "infantry", "--gunners", "B"],
             ["odds", "morale", "--type", "infantry", "--class", "B"],
             ["odds", "combat", "--rule", "13"]],
    "1813-revised": [["odds", "crest", "--class", "B", "--ruleset", "1813-revised"],
                     ["odds", "morale", "--type", "infantry", "--class", "B", "--ruleset",
                      "1813-revised"]],
    "002": [["odds", "--ruleset", "002", "shooting", "--shooter", "artillery", "--hits", "1"],
            ["odds", "--ruleset", "002", "charge", "--target", "cavalry"]],
    "004": [["odds", "--ruleset", "004", "musketry", "--firer", "foot"],
            ["odds", "--ruleset", "004", "melee", "--attacker", "lancers", "--defender",
             "foot"],
            ["odds", "--ruleset", "004", "morale", "--quality", "regular"]],
}


class Damaged:
    """The ruleset whose battle is tried, and its folders' changed files (None: dropped);
    shown by the changes alone."""

    def __init__(self, ruleset: str, files: dict[tuple[str, str], bytes | None],
                 changes: list[str]):
        self.ruleset = ruleset
        self.files = files
        self.changes = changes

    def __repr__(self) -> str:
        return f"Damaged({self.ruleset!r}, {self.changes!r})"


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")  # a lone surrogate becomes bytes not UTF-8


@st.composite
def damaged(draw) -> Damaged:
    """One to three changes to the files of a ruleset and those it extends."""
    ruleset = draw(st.sampled_from(RULESETS))
    own = [t for t in TABLES if t[0] == ruleset or (ruleset == "1813-revised" and t[0] == "1813")]
    docs: dict[tuple[str, str], Any] = {}
    files: dict[tuple[str, str], bytes | None] = {}
    changes: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        table = draw(st.sampled_from(own))
        where = "/".join(table)
        kind = draw(st.sampled_from(("replace", "replace", "reuse", "delete", "add", "extends",
                                     "drop", "cut", "insert")))
        if kind in ("drop", "cut", "insert"):
            text = TEXTS[table]
            at = draw(st.integers(0, len(text)))
            if kind == "drop":
                files[table] = None
                changes.append(f"{where}: dropped")
            elif kind == "cut":
                files[table] = _encode(text[:at])
                changes.append(f"{where}: cut at {at}")
            else:
                piece = draw(stray)
                files[table] = _encode(text[:at] + piece + text[at:])
                changes.append(f"{where}: insert {piece!r} at {at}")
            docs.pop(table, None)
            continue
        doc = docs.setdefault(table, copy.deepcopy(PARSED[table]))
        if kind == "extends":
            doc["extends"] = value = draw(EXTENDS)
            changes.append(f"{where}: extends = {value!r}")
            files[table] = _encode(dump(doc))
            continue
        path = draw(st.sampled_from(PATHS[table]))
        try:
            target = _get(doc, path)
            parent = _get(doc, path[:-1]) if path else None
        except (KeyError, IndexError, TypeError):  # an earlier change took the path away
            continue
        if kind in ("replace", "reuse") and parent is not None:
            value = draw(values if kind == "replace" else st.sampled_from(POOL[table]))
            parent[path[-1]] = value
            changes.append(f"{where}: {list(path)} = {_short(value)}")
        elif kind == "delete" and parent is not None:
            del parent[path[-1]]
            changes.append(f"{where}: delete {list(path)}")
        elif kind == "add" and isinstance(target, dict):
            key, value = draw(st.text(max_size=8)), draw(values)
            target[key] = value
            changes.append(f"{where}: {list(path)} + {key!r} = {_short(value)}")
        else:
            continue
        files[table] = _encode(dump(doc))
    return Damaged(ruleset, files, changes)


# -- the child: the rules read from the damaged folder ---------------------------------------------

def _forget_caches() -> None:
    """Empty every cache of the program's modules: what the test's process read from the
    shipped folders must be read again, from the damaged ones."""
    for name, module in list(sys.modules.items()):
        if name.startswith("campaign1813.") and module is not None:
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()


def _refused(outcomes: list[str], what: str, exc: CampaignError) -> None:
    message = str(exc)
    assert message and len(message.splitlines()) == 1, f"{what}: {message!r}"
    outcomes.append(f"{what} refused: {message:.300}")


def _try_everything(damage: Damaged, campaign: Path, folder: Path) -> list[str]:
    """Every way the rules are first read, each working or refused; what each did."""
    data = folder / "data"
    shutil.copytree(SHIPPED, data / "rulesets")
    for (ruleset, name), raw in damage.files.items():
        path = data / "rulesets" / ruleset / name
        if raw is None:
            path.unlink()
        else:
            path.write_bytes(raw)
    ruleset_files.data_root = lambda: data
    table_base.data_root = lambda: data
    _forget_caches()
    os.environ["CAMPAIGN1813_DEBUG"] = "1"  # an internal error of the command line raises
    outcomes: list[str] = []
    try:
        find_ruleset(damage.ruleset)
        outcomes.append("engine made")
    except CampaignError as exc:
        _refused(outcomes, "engine", exc)
    for argv in ODDS[damage.ruleset]:
        said = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(said):
            status = main(argv)
        assert status in (0, 1), f"{argv}: status {status}: {said.getvalue()!r}"
        lines = said.getvalue().splitlines()
        assert status == 0 or (len(lines) == 1 and lines[0].startswith(
            "campaign1813: error: ")), f"{argv}: {said.getvalue()!r}"
        outcomes.append(f"{argv[1:3]}: {'worked' if status == 0 else 'refused'}")
    path = folder / "battle.c1813"
    shutil.copyfile(campaign, path)
    with open_campaign(path) as doc:
        steps = [
            ("odds of battle 1", lambda: services.autoresolve_odds(
                doc, 1, runs=3, seed=1, ruleset=damage.ruleset)),
            ("auto-resolve", lambda: services.autoresolve_battle(
                doc, 1, seed=1, ruleset=damage.ruleset)),
            ("undo", lambda: services.undo(doc)),
            ("set up", lambda: services.open_battle(doc, 1, seed=1, ruleset=damage.ruleset)),
        ]
        for what, step in steps:
            try:
                step()
                outcomes.append(f"{what} worked")
            except CampaignError as exc:
                _refused(outcomes, what, exc)
    return outcomes


def _child(work: Callable[[], list[str]], out: int) -> None:
    try:
        report: dict[str, Any] = {"outcomes": work()}
    except BaseException:  # everything the parent is to see, a failed assertion included
        report = {"error": traceback.format_exc()[-6000:]}
    with contextlib.suppress(BaseException):
        os.write(out, json.dumps(report).encode())
    os._exit(0)


def run_forked(work: Callable[[], list[str]], seconds: float = EXAMPLE_SECONDS) -> dict[str, Any]:
    """Run ``work`` in a child; its report, or a hang if it outruns ``seconds``."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        _child(work, write)
    os.close(write)
    chunks: list[bytes] = []
    deadline = time.monotonic() + seconds
    try:
        while True:
            ready, _, _ = select.select([read], [], [], max(deadline - time.monotonic(), 0))
            if not ready:
                os.kill(pid, signal.SIGKILL)
                return {"hang": seconds}
            chunk = os.read(read, 65536)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(read)
        os.waitpid(pid, 0)
    return json.loads(b"".join(chunks) or b'{"error": "the child said nothing"}')


def run_damaged(damage: Damaged, campaign: Path) -> dict[str, Any]:
    """Try the damaged folders in a child, in a folder the parent removes (a child stopped
    as a hang cleans nothing up)."""
    with tempfile.TemporaryDirectory() as folder:
        return run_forked(lambda: _try_everything(damage, campaign, Path(folder)))


@pytest.fixture(scope="module")
def battle_due(campaign_template, tmp_path_factory) -> Path:
    """A campaign with battle 1 waiting for its result (Magdeburg, 6 May 1813)."""
    path = tmp_path_factory.mktemp("rulesets") / "battle.c1813"
    shutil.copyfile(campaign_template, path)
    with open_campaign(path) as doc:
        services.issue_order(doc, "I Prussian Corps", "Attack", "Magdeburg")
        for _ in range(6):
            services.end_day(doc)
    # Everything the children use imported here once, so each starts with it: the engines,
    # the odds' modules, and the models that check a changed table (pydantic's, slow to build).
    for ruleset in RULESETS:
        find_ruleset(ruleset)
        for argv in ODDS[ruleset]:
            with contextlib.redirect_stdout(io.StringIO()):
                assert main(argv) == 0
    for module in SCHEMAS:
        importlib.import_module(module)
    return path


def test_the_shipped_folders_work_in_a_child(battle_due):
    report = run_damaged(Damaged("1813", {}, []), battle_due)
    assert report == {"outcomes": [
        "engine made", "['artillery', '--calibre']: worked", "['morale', '--type']: worked",
        "['combat', '--rule']: worked", "odds of battle 1 worked", "auto-resolve worked",
        "undo worked", "set up worked"]}


def test_a_child_that_outruns_its_bound_is_stopped_and_called_a_hang():
    def forever() -> list[str]:
        while True:
            time.sleep(0.05)

    start = time.monotonic()
    assert run_forked(forever, seconds=0.5) == {"hang": 0.5}
    assert time.monotonic() - start < 5


def test_a_child_that_fails_is_reported_with_its_traceback():
    def fails() -> list[str]:
        raise ZeroDivisionError("in the child")

    report = run_forked(fails)
    assert "ZeroDivisionError: in the child" in report["error"]


@FUZZ
@given(damage=damaged())
def test_a_damaged_ruleset_works_or_is_refused_in_one_line(battle_due, damage):
    report = run_damaged(damage, battle_due)
    assert "hang" not in report, f"no answer within {EXAMPLE_SECONDS} s"
    assert "error" not in report, report["error"]
    for outcome in report["outcomes"]:
        note(outcome)
        event(outcome.split(":")[0] if "refused" in outcome else outcome)
