"""The scenario loader fed the shipped 1813 files, damaged: values of the wrong type or out of
every range, keys dropped or misspelt, entries repeated, text cut short or sprinkled with stray
characters, lists nested past any sane depth. Whatever it is given, ``load_scenario`` returns a
scenario or refuses with a ``ScenarioError`` whose every line names one of the files."""

from __future__ import annotations

import copy
import math
import os
import tomllib
from datetime import date, datetime, time
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.scenario.errors import ScenarioError
from campaign1813.campaign.scenario.loader import load_scenario, read_scenario_folder

SHIPPED = read_scenario_folder()
NAMES = tuple(sorted(SHIPPED))
PARSED = {name: tomllib.loads(text) for name, text in SHIPPED.items()}

# CI runs a bounded number of examples; set FUZZ_EXAMPLES for a longer hunt.
FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", 60)),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# -- a small TOML writer for the values the strategies make -------------------------------------

def _string(text: str) -> str:
    out = []
    for ch in text:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04X}")
        else:
            out.append(ch)  # a lone surrogate is written as it is: the loader is given str
    return '"' + "".join(out) + '"'


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_string(k)} = {_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML for {value!r}")


def dump(doc: dict[str, Any]) -> str:
    """A parsed TOML document written back, every top-level key as one line."""
    return "".join(f"{_string(k)} = {_value(v)}\n" for k, v in doc.items())


# -- where a value can be changed -----------------------------------------------------------------

Path = tuple[str | int, ...]


def _paths(data: Any, prefix: Path = ()) -> list[Path]:
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.extend(_paths(v, (*prefix, i)))
    return out


def _leaves(data: Any) -> list[Any]:
    if isinstance(data, dict):
        return [leaf for v in data.values() for leaf in _leaves(v)]
    if isinstance(data, list):
        return [leaf for v in data for leaf in _leaves(v)]
    return [data]


PATHS = {name: _paths(doc) for name, doc in PARSED.items()}
# Values already in each file: a town's name in a road's end, a number in another brigade.
POOL = {name: sorted({repr(v): v for v in _leaves(doc)}.values(), key=repr)
        for name, doc in PARSED.items()}


def _get(data: Any, path: Path) -> Any:
    for step in path:
        data = data[step]
    return data


# -- values of every type and extreme -------------------------------------------------------------

odd_text = st.text(st.characters(categories=("Cc", "Cs", "Zs", "Zl", "Zp", "Lu", "Ll", "Nd",
                                             "Po", "Mn", "So")), max_size=12)
extremes = st.sampled_from([
    math.nan, math.inf, -math.inf, -1, 0, -0.0, 1e300, -1e300, 5e-324, 2**63 - 1, -(2**63),
    2**64, 10**30, 10**400, -(10**400), "", " ", "\t", "\n", "\x00", "\ud800", "A\udfffB", True,
    False, [], {}, [[]], {"": {}}, date(1, 1, 1), date(9999, 12, 31), "1813-02-30",
    "9999-12-31", "0000-00-00", time(0, 0), datetime(1813, 5, 1, 12, 0),
])
scalars = st.one_of(
    extremes, st.integers(), st.floats(), odd_text, st.text(max_size=20), st.booleans(),
    st.dates(), st.datetimes(), st.times(),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(odd_text, inner, max_size=4),
    max_leaves=12,
)


class Mutated:
    """Scenario files and what was done to them; shown by the changes alone, not the texts."""

    def __init__(self, files: dict[str, str], changes: list[str]):
        self.files = files
        self.changes = changes

    def __repr__(self) -> str:
        return f"Mutated({self.changes!r})"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 200 else text[:200] + "…"


@st.composite
def structured(draw) -> Mutated:
    """The shipped files with one to three entries changed, removed or added."""
    docs: dict[str, Any] = {}
    changes: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        name = draw(st.sampled_from(NAMES))
        doc = docs.setdefault(name, copy.deepcopy(PARSED[name]))
        path = draw(st.sampled_from(PATHS[name]))
        try:
            target = _get(doc, path)
            parent = _get(doc, path[:-1]) if path else None
        except (KeyError, IndexError, TypeError):  # an earlier change took the path away
            continue
        kind = draw(st.sampled_from(("replace", "replace", "reuse", "delete", "add", "repeat")))
        if kind in ("replace", "reuse") and parent is not None:
            value = draw(values if kind == "replace" else st.sampled_from(POOL[name]))
            parent[path[-1]] = value
            changes.append(f"{name}: {list(path)} = {_short(value)}")
        elif kind == "delete" and parent is not None:
            del parent[path[-1]]
            changes.append(f"{name}: delete {list(path)}")
        elif kind == "add" and isinstance(target, dict):
            key, value = draw(odd_text), draw(values)
            target[key] = value
            changes.append(f"{name}: {list(path)} + {key!r} = {_short(value)}")
        elif kind == "repeat" and isinstance(target, list) and target:
            at, item = draw(st.integers(0, len(target))), draw(st.sampled_from(target))
            target.insert(at, copy.deepcopy(item))
            changes.append(f"{name}: {list(path)} insert at {at} {_short(item)}")
        elif parent is None:  # the whole file
            docs[name] = draw(st.dictionaries(odd_text, values, max_size=3))
            changes.append(f"{name}: the whole file is {_short(docs[name])}")
    return Mutated({**SHIPPED, **{name: dump(doc) for name, doc in docs.items()}}, changes)


stray = st.one_of(
    odd_text,
    st.binary(max_size=12).map(lambda b: b.decode("utf-8", "surrogateescape")),
    st.sampled_from(['"', "'", "[", "]", "[[", "{", "}", "=", "\n", "\r", "#", ".", ",",
                     '"""', "\\", "\\u", "\x00", "\ufeff", "\n[[army]]\n", "\n[x]\n"]),
)


def _deep(depth: int, kind: str) -> str:
    if kind == "array":
        return "x = " + "[" * depth + "]" * depth + "\n"
    if kind == "table":
        return "x = " + "{a = " * depth + "1" + "}" * depth + "\n"
    return "x = " + "[{a = " * depth + "1" + "}]" * depth + "\n"


@st.composite
def raw(draw) -> Mutated:
    """The shipped files with their text cut, spliced, repeated or nested too deep."""
    files = dict(SHIPPED)
    changes: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        name = draw(st.sampled_from(NAMES))
        if name not in files:
            continue
        text = files[name]
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(("truncate", "insert", "insert", "cut", "repeat", "deep",
                                     "drop")))
        if kind == "truncate":
            text = text[:at]
            changes.append(f"{name}: cut at {at}")
        elif kind == "insert":
            piece = draw(stray)
            text = text[:at] + piece + text[at:]
            changes.append(f"{name}: insert {piece!r} at {at}")
        elif kind == "cut":
            length = draw(st.integers(1, 200))
            text = text[:at] + text[at + length:]
            changes.append(f"{name}: cut {length} at {at}")
        elif kind == "repeat":
            start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", at)
            end = len(text) if end < 0 else end + 1
            text = text[:end] + text[start:end] + text[end:]
            changes.append(f"{name}: repeat the line at {at}")
        elif kind == "deep":
            depth = draw(st.sampled_from((50, 300, 999, 1000, 5000)) | st.integers(1, 3000))
            shape = draw(st.sampled_from(("array", "table", "mixed")))
            nest = _deep(depth, shape)
            where = draw(st.sampled_from(("instead", "before", "after")))
            text = {"instead": nest, "before": nest + text, "after": text + "\n" + nest}[where]
            changes.append(f"{name}: {shape} nested {depth} deep {where}")
        else:
            del files[name]
            changes.append(f"{name}: dropped")
            continue
        files[name] = text
    return Mutated(files, changes)


def assert_loads_or_refuses(files: dict[str, str]) -> None:
    try:
        load_scenario(files)
    except ScenarioError as exc:
        assert isinstance(exc, CampaignError)
        message = str(exc)
        assert message, "an empty refusal"
        for line in message.splitlines():
            assert any(line.startswith(f"{name}: ") for name in NAMES), (
                f"a line that names no file: {line!r}")


def test_the_writer_gives_back_the_shipped_scenario():
    files = {name: dump(doc) for name, doc in PARSED.items()}
    for name, doc in PARSED.items():
        assert tomllib.loads(files[name]) == doc
    assert load_scenario(files) == load_scenario(SHIPPED)


@FUZZ
@given(structured())
def test_changed_entries_load_or_are_refused_file_by_file(mutated):
    assert_loads_or_refuses(mutated.files)


@FUZZ
@given(raw())
def test_damaged_text_loads_or_is_refused_file_by_file(mutated):
    assert_loads_or_refuses(mutated.files)
