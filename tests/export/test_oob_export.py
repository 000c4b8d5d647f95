"""``campaign1813 export oob``: the orders of battle as PDF, CSV and JSON, read back.

The brigade lines are seed 000's own order of battle of the Second French Army ("Organisation
of Armies"): e.g. "13 Infantry Brigade CA FB SA", "11 Cavalry Brigade CA Light", "Corps
Artillery CB 12 pounder", "4 French Corps Gifted +3".
"""

import csv
import io
import json
import re
import unicodedata
from pathlib import Path

import jsonschema
import pypdf
import pytest
from msgspec.structs import replace

from campaign1813.campaign.cli import main as bare_main
from campaign1813.campaign.export.oob import cavalry_text
from campaign1813.campaign.export.oob_document import army_forces, oob_document, theatre_forces
from campaign1813.campaign.scenario.loader import load_scenario, read_scenario_folder
from campaign1813.ui.console import main
from campaign1813.ui.paper.layout import MARGINS_MM

from ..day.test_scenarios import battle_setup
from .pdf_reading import glyphs_outside

# The widgets' application first: a PDF alone would start a bare QGuiApplication, and the
# window tests that follow in the same run need a QApplication.
pytestmark = pytest.mark.usefixtures("qapp")

SCHEMA = json.loads((Path(__file__).parents[2] / "docs" / "schemas" / "oob.schema.json")
                    .read_text(encoding="utf-8"))

# Seed 000, the Second French Army, line by line as the PDF prints it: number, arm, then the
# grades (class, firepower, skirmish; class and type; class and calibre).
DAVOUT = [
    "CinC Marshal Davout, Average +2",
    "4 Corps French Commander General Vandamme, Gifted +3",
    "13 Infantry Brigade A B A", "14 Infantry Brigade B B A", "15 Infantry Brigade B C B",
    "16 Infantry Brigade C C B", "11 Cavalry Brigade A Light", "Corps Artillery B 12-pounder",
    "5 Corps French Commander General Lauriston, Average +2",
    "17 Infantry Brigade A B A", "18 Infantry Brigade B B A", "19 Infantry Brigade B C B",
    "20 Infantry Brigade C C B", "3 Cavalry Brigade B Medium", "Corps Artillery B 9-pounder",
    "6 Corps French Commander Marshal Marmont, Average +2",
    "21 Infantry Brigade A B A", "22 Infantry Brigade B B A", "23 Infantry Brigade B C B",
    "24 Infantry Brigade C C B", "5 Cavalry Brigade C Heavy", "Corps Artillery B 9-pounder",
    "13 Polish Corps Polish Commander General Dąbrowski, Poor +1",
    "1 Infantry Brigade A A A", "2 Infantry Brigade B B B", "3 Infantry Brigade B B B",
    "4 Infantry Brigade C C C", "13 Cavalry Brigade B Light", "Corps Artillery C 9-pounder",
    "Reserve Commander General Sébastiani, Average +2",
]


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    path = tmp_path_factory.mktemp("camp") / "war.c1813"
    assert bare_main(["new", str(path), "--name", "Elbe 1813"]) == 0
    return str(path)


def pages_of(path) -> list[str]:
    """Each page's text, its runs of white space made one space and its ligatures ("ﬁ", set by
    the typesetter) letters again."""
    return [re.sub(r"\s+", " ", unicodedata.normalize("NFKC", p.extract_text()))
            for p in pypdf.PdfReader(path).pages]


def occurrences(text: str, line: str) -> list[int]:
    """Where ``line`` stands in ``text`` as whole words ("3 Infantry" is not in "13 Infantry")."""
    return [m.start() for m in re.finditer(rf"(?<![\w-]){re.escape(line)}(?![\w-])", text)]


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_davouts_pdf_holds_every_brigade_once_in_order_with_its_grades(campaign, tmp_path,
                                                                       capsys, paper):
    out = tmp_path / f"davout-{paper}.pdf"
    code, said, err = run(capsys, "export", "oob", campaign, "--army", "second french army",
                          "--pdf", str(out), "--paper", paper)
    assert (code, said, err) == (0, f"wrote {out}\n", "")
    pages = pages_of(out)
    text = " ".join(pages)
    at = 0
    for line in DAVOUT:
        found = occurrences(text, line)
        if "Brigade" in line or "Commander" in line:  # numbered or named: printed once
            assert len(found) == 1, f"{line!r} printed {len(found)} times"
        later = [f for f in found if f > at]
        assert later, f"{line!r} out of order"
        at = later[0]
    for n, page in enumerate(pages, start=1):
        assert page.startswith("Elbe 1813 Orders of Battle 1 May 1813")
        assert f"Page {n} of {len(pages)}" in page
    box = pypdf.PdfReader(out).pages[0].mediabox
    size = (round(float(box.width)), round(float(box.height)))
    assert size == {"a4": (595, 842), "letter": (612, 792)}[paper]  # in points


def _long_army(copies: int):
    """The Second French Army with its corps repeated (renamed, renumbered) to fill pages."""
    scenario = load_scenario(read_scenario_folder(None))
    davout = next(a for a in scenario.armies if a.name == "Second French Army")
    corps = []
    for n in range(copies):
        for i, c in enumerate(davout.corps):
            k = n * len(davout.corps) + i
            infantry = tuple(replace(b, number=100 + 4 * k + j) for j, b in enumerate(c.infantry))
            corps.append(replace(c, name=f"{k + 1} Corps", infantry=infantry,
                                 cavalry=replace(c.cavalry, number=500 + k)))
    return replace(davout, corps=tuple(corps))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_corps_is_split_across_pages_of_a_long_army(paper):
    from datetime import date

    from campaign1813.ui.paper import QtPaper

    army = _long_army(4)  # 16 corps: several pages
    data = QtPaper().pdf(oob_document(army_forces([army], army.name), "Elbe", date(1813, 5, 1)),
                         paper)
    pages = pages_of(io.BytesIO(data))
    assert len(pages) >= 3
    starts = []
    for c in army.corps:
        lines = [f"{c.name} {c.nationality} Commander {c.commander.name}",
                 *(f"{b.number} Infantry Brigade" for b in c.infantry),
                 f"{c.cavalry.number} Cavalry Brigade"]
        holding = {n for n, page in enumerate(pages) for line in lines
                   if occurrences(page, line)}
        assert len(holding) == 1, f"{c.name} on pages {sorted(holding)}"
        starts.append(holding.pop())
    assert starts == sorted(starts) and starts[-1] == len(pages) - 1


def test_every_army_group_of_the_scenario_fits_one_sheet_on_letter(campaign, tmp_path, capsys):
    out = tmp_path / "all.pdf"
    assert run(capsys, "export", "oob", campaign, "--pdf", str(out), "--paper", "letter")[0] == 0
    pages = pages_of(out)
    scenario = load_scenario(read_scenario_folder(None))
    assert len(pages) == len(scenario.armies) == 10
    for page, army in zip(pages, scenario.armies, strict=True):
        assert f"{army.name} — {army.cinc.name}" in page
        assert f"Reserve Commander {army.reserve.name}" in page


def test_a_theatre_puts_each_army_group_on_a_sheet_of_its_own(campaign, tmp_path, capsys):
    out = tmp_path / "north.pdf"
    assert run(capsys, "export", "oob", campaign, "--theatre", "northern germany",
               "--pdf", str(out))[0] == 0
    pages = pages_of(out)
    french = [n for n, p in enumerate(pages) if "Second French Army — Marshal Davout" in p]
    allied = [n for n, p in enumerate(pages) if "Prussian Army — " in p]
    assert french == [0] and len(allied) == 1 and allied[0] > 0
    assert "Prussian" not in " ".join(pages[:allied[0]]).split("Orders of Battle —")[0]


def test_the_json_validates_against_its_schema_and_holds_the_seed_table(campaign, tmp_path,
                                                                        capsys):
    out = tmp_path / "davout.json"
    assert run(capsys, "export", "oob", campaign, "--army", "Second French Army",
               "--json", str(out))[0] == 0
    value = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(SCHEMA, format_checker=jsonschema.FormatChecker()) \
        .validate(value)
    assert value["campaign"] == "Elbe 1813" and value["date"] == "1813-05-01"
    assert value["scope"] == {"kind": "army", "army": "Second French Army"}
    (army,) = value["armies"]
    assert army["cinc"] == {"name": "Marshal Davout", "grade": "Average", "bonus": 2}
    first = army["corps"][0]
    assert first["commander"] == {"name": "General Vandamme", "grade": "Gifted", "bonus": 3}
    assert first["infantry"][0] == {"number": 13, "class": "A", "firepower": "B",
                                    "skirmish": "A", "name": ""}
    assert first["artillery"] == {"class": "B", "calibre": 12, "calibre_band": "12",
                                  "horse": False}


def test_every_theatre_and_the_whole_campaign_validate(campaign, tmp_path, capsys):
    validator = jsonschema.Draft202012Validator(SCHEMA, format_checker=jsonschema.FormatChecker())
    out = tmp_path / "all.json"
    assert run(capsys, "export", "oob", campaign, "--json", str(out))[0] == 0
    value = json.loads(out.read_text(encoding="utf-8"))
    validator.validate(value)
    assert len(value["armies"]) == 10 and value["scope"] == {"kind": "all"}
    with pytest.raises(jsonschema.ValidationError):  # the schema does hold it to its shape
        value["armies"][0]["corps"][0]["infantry"][0]["class"] = "D"
        validator.validate(value)


def test_the_csv_has_a_row_per_commander_brigade_and_battery(campaign, tmp_path, capsys):
    out = tmp_path / "davout.csv"
    assert run(capsys, "export", "oob", campaign, "--army", "Second French Army",
               "--csv", str(out))[0] == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    # CinC and reserve, and per corps its commander, 4 infantry, 1 cavalry, 1 battery.
    assert len(rows) == 2 + 4 * 7
    assert [r["role"] for r in rows[:9]] == [
        "CinC", "Reserve Commander", "Corps Commander", "Infantry Brigade", "Infantry Brigade",
        "Infantry Brigade", "Infantry Brigade", "Cavalry Brigade", "Corps Artillery"]
    assert (rows[3]["number"], rows[3]["class"], rows[3]["firepower"], rows[3]["skirmish"]) \
        == ("13", "A", "B", "A")
    assert (rows[7]["number"], rows[7]["class"], rows[7]["cavalry_type"], rows[7]["lancers"]) \
        == ("11", "A", "light", "no")
    assert (rows[8]["class"], rows[8]["calibre"], rows[8]["horse"]) == ("B", "12", "no")
    assert (rows[1]["commander"], rows[1]["grade"], rows[1]["bonus"]) \
        == ("General Sébastiani", "Average", "2")


def test_an_existing_file_is_refused_without_force_and_replaced_with_it(campaign, tmp_path,
                                                                        capsys):
    out = tmp_path / "oob.csv"
    out.write_bytes(b"the umpire's own notes")
    code, said, err = run(capsys, "export", "oob", campaign, "--csv", str(out))
    assert (code, said) == (1, "")
    assert err == f"campaign1813: error: {out}: exists; use --force to replace it\n"
    assert out.read_bytes() == b"the umpire's own notes"
    assert run(capsys, "export", "oob", campaign, "--csv", str(out), "--force")[0] == 0
    assert out.read_text(encoding="utf-8").startswith("army,side,theatre,corps,")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["oob.csv"]  # no temporary file left


@pytest.mark.parametrize(("option", "value", "message"), [
    ("--army", "Grande Armée", "no army group called 'Grande Armée' (known: Second French "
                               "Army, Prussian Army, First French Army, Russian Army, "),
    ("--theatre", "Italy", "no theatre called 'Italy' (known: Northern Germany, Central "
                           "Germany, Southern Germany and Austria, Eastern Spain, Western "
                           "Spain)"),
    ("--battle", "4", "no battle 4 (battles — none yet)"),
])
def test_bad_names_are_one_line_errors_listing_what_exists(campaign, tmp_path, capsys, option,
                                                           value, message):
    out = tmp_path / "x.json"
    code, said, err = run(capsys, "export", "oob", campaign, option, value, "--json", str(out))
    assert code == 1 and said == ""
    assert err.startswith(f"campaign1813: error: {message}") and err.count("\n") == 1
    assert not out.exists()


def test_a_missing_folder_is_refused(campaign, tmp_path, capsys):
    out = tmp_path / "no" / "x.json"
    code, _said, err = run(capsys, "export", "oob", campaign, "--json", str(out))
    assert code == 1
    assert err == f"campaign1813: error: {out}: the folder {out.parent} does not exist\n"


def test_the_bare_command_line_refuses_a_pdf_but_writes_json(campaign, tmp_path, capsys):
    from campaign1813.campaign.export import paper

    before = paper._installed
    paper.install(None)
    try:
        assert bare_main(["export", "oob", campaign, "--pdf", str(tmp_path / "x.pdf")]) == 1
        assert "PDF needs the printing support" in capsys.readouterr().err
        assert not (tmp_path / "x.pdf").exists()
        assert bare_main(["export", "oob", campaign, "--json", str(tmp_path / "x.json")]) == 0
    finally:
        paper.install(before)


def test_a_battles_orders_of_battle_hold_its_commands_and_reinforcements(tmp_path, capsys):
    """1 Corps attacks I Corps at Fenwick on 3 May; 2 Corps and II Corps, within 10 miles,
    come as reinforcements on turn 4 (the campaign-day tests' battle); 3 Corps is not there."""
    u = battle_setup(tmp_path)
    assert u.end_day().report.battles == (1,)
    u.doc.close()
    camp = str(tmp_path / "c.c1813")
    out = tmp_path / "fenwick.json"
    assert run(capsys, "export", "oob", camp, "--battle", "1", "--json", str(out))[0] == 0
    value = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(SCHEMA).validate(value)
    assert value["scope"]["kind"] == "battle" and value["scope"]["battle"]["place"] == "Fenwick"
    corps = {a["name"]: [(c["name"], c["reinforcement"]) for c in a["corps"]]
             for a in value["armies"]}
    assert corps == {"Armée": [("1 Corps", False), ("2 Corps", True)],
                     "Prussians": [("I Corps", False), ("II Corps", True)]}
    assert [a["hq_present"] for a in value["armies"]] == [False, False]  # HQs stayed home
    pdf = tmp_path / "fenwick.pdf"
    assert run(capsys, "export", "oob", camp, "--battle", "1", "--pdf", str(pdf))[0] == 0
    text = " ".join(pages_of(pdf))
    assert "2 Corps French · reinforcement, enters on turn 4" in text
    assert "3 Corps" not in text
    assert "CinC CinC Armée, Average +2 — not on the field" in text
    code, _said, err = run(capsys, "export", "oob", camp, "--battle", "9", "--csv",
                           str(tmp_path / "x.csv"))
    assert code == 1
    assert err == ("campaign1813: error: no battle 9 (battles — 1: the battle of Fenwick "
                   "(3 May 1813))\n")


def test_the_orders_of_battle_render_as_markdown_and_html_too():
    from datetime import date

    from campaign1813.campaign.export.render import document_html, document_markdown

    scenario = load_scenario(read_scenario_folder(None))
    doc = oob_document(army_forces(scenario.armies, "Second French Army"), "Elbe 1813",
                       date(1813, 5, 3))
    markdown = document_markdown(doc).splitlines()
    at = markdown.index("### 4 Corps — French")
    assert markdown[at + 2:at + 12] == [
        "- **Commander**: General Vandamme, Gifted +3", "",
        "| No. | Brigade | Class | Firepower | Skirmish | Type |",
        "| ---: | --- | :---: | :---: | :---: | --- |",
        "| 13 | Infantry Brigade | A | B | A |  |",
        "| 14 | Infantry Brigade | B | B | A |  |",
        "| 15 | Infantry Brigade | B | C | B |  |",
        "| 16 | Infantry Brigade | C | C | B |  |",
        "| 11 | Cavalry Brigade | A |  |  | Light |",
        "|  | Corps Artillery | B |  |  | 12-pounder |",
    ]
    assert "*Elbe 1813 — 3 May 1813*" in markdown
    page = document_html(doc)
    assert page.count('<section class="unit') == 4  # a unit per corps
    assert "General Dąbrowski, Poor +1" in page


def test_the_command_line_writes_the_orders_of_battle_as_html_and_markdown(campaign, tmp_path,
                                                                           capsys):
    """``export oob --html`` / ``--md``: the same document as the PDF, a section per corps
    kept on one printed page, every brigade of Davout's army in its table."""
    page, text = tmp_path / "davout.html", tmp_path / "davout.md"
    assert run(capsys, "export", "oob", campaign, "--army", "Second French Army",
               "--html", str(page))[0] == 0
    assert run(capsys, "export", "oob", campaign, "--army", "Second French Army",
               "--md", str(text))[0] == 0
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.count('<section class="unit') == 4
    assert "page-break-inside: avoid" in html
    lines = text.read_text(encoding="utf-8").splitlines()
    rows = [line for line in lines if line.startswith("| ") and "Brigade" in line
            and not line.startswith("| No.")]
    assert len(rows) == 4 * 5  # four corps of four infantry and one cavalry brigade
    assert "| 13 | Infantry Brigade | A | B | A |  |" in rows
    assert run(capsys, "export", "oob", campaign, "--md", str(text))[0] == 1  # kept, no --force


def test_a_theatre_is_found_by_its_name_folded_as_towns_are():
    armies = load_scenario().armies
    found = theatre_forces(armies, "  southern germany  AND austria")
    assert [s.army.name for s in found.armies] == ["Third French Army", "Austrian Army"]


def test_no_csv_cell_can_be_read_as_a_formula(monkeypatch):
    """A name beginning with a formula's mark is written with a leading apostrophe (a scenario
    edited by hand must not run a formula in the umpire's spreadsheet); numbers stay numbers."""
    import csv
    import io

    from campaign1813.campaign.export import oob_document

    crafted = [{"army": "=HYPERLINK(\"http://x\")", "name": "+SUM(A1)", "class": "@A",
                "men": "-3"}]
    monkeypatch.setattr(oob_document, "_rows", lambda sheet: [dict(r) for r in crafted])
    monkeypatch.setattr(oob_document, "CSV_COLUMNS", ["army", "name", "class", "men"])

    class OneSheet:
        armies = (None,)

    rows = list(csv.DictReader(io.StringIO(oob_document.oob_csv(OneSheet()))))  # type: ignore[arg-type]
    assert rows == [{"army": "'=HYPERLINK(\"http://x\")", "name": "'+SUM(A1)", "class": "'@A",
                     "men": "-3"}]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_brigades_full_name_is_in_its_row_and_inside_the_margins(campaign, tmp_path,
                                                                       capsys, paper):
    """No name is shortened ("Reserve Regi…"): every named brigade of every army group of the
    shipped scenario is on its army's sheet whole, in its own row after its grades, and no
    letter of the document is set in a page's margin."""
    out = tmp_path / "all.pdf"
    assert run(capsys, "export", "oob", campaign, "--pdf", str(out), "--paper", paper)[0] == 0
    pages = pages_of(out)
    assert not any("…" in page for page in pages)
    if paper == "a4":  # where each letter is set: read once, the slowest reading
        assert glyphs_outside(out.read_bytes(), MARGINS_MM.left(), MARGINS_MM.right()) == []
    scenario = load_scenario(read_scenario_folder(None))
    named = 0
    for page, army in zip(pages, scenario.armies, strict=True):
        for corps in army.corps:
            rows = [f"{b.number} Infantry Brigade {b.klass.value} {b.firepower.value} "
                    f"{b.skirmish.value} {b.name}" for b in corps.infantry if b.name]
            cavalry = corps.cavalry
            if cavalry.name:
                rows.append(f"{cavalry.number} Cavalry Brigade {cavalry.klass.value} "
                            f"{cavalry_text(cavalry)} {cavalry.name}")
            for row in rows:
                assert len(occurrences(page, row)) == 1, f"{army.name}: {row!r} not whole"
            named += len(rows)
    assert named >= 40  # the scenario names many brigades: the test reads them all
    # The longest names, which the old layout cut short, word for word.
    text = " ".join(pages)
    for name in ("Reserve Regiments", "Kurmark Landwehr", "Landwehr Cavalry",
                 "Pomeranian Landwehr", "Chevalier Guard and Horse Guard"):
        assert name in text


@pytest.mark.parametrize("fmt", ["csv", "json", "html", "md"])
def test_paper_is_refused_for_a_format_without_pages(campaign, tmp_path, capsys, fmt):
    """``--paper`` sizes a PDF alone: with CSV, JSON, HTML or Markdown it is refused in one
    line naming the format, and no file is written; ``--help`` says so."""
    out = tmp_path / f"oob.{fmt}"
    code, _out, err = run(capsys, "export", "oob", campaign, f"--{fmt}", str(out),
                          "--paper", "letter")
    assert code == 1
    assert f"--paper letter: only a PDF has pages to size; {fmt.upper()} has none" in err
    assert not out.exists()
    assert run(capsys, "export", "oob", campaign, f"--{fmt}", str(out))[0] == 0
    with pytest.raises(SystemExit):
        bare_main(["export", "oob", "--help"])
    assert "only with --pdf" in capsys.readouterr().out


def test_paper_is_refused_for_the_diary_and_setup_formats_without_pages(campaign, tmp_path,
                                                                        capsys):
    """The diary's Markdown and the setup's JSON and SVG have no pages either."""
    for argv in (["export", "diary", campaign, "--md", str(tmp_path / "d.md")],
                 ["export", "setup", campaign, "--battle", "1", "--json",
                  str(tmp_path / "s.json")]):
        code, _out, err = run(capsys, *argv, "--paper", "a4")
        assert code == 1 and "only a PDF has pages to size" in err
    assert list(tmp_path.iterdir()) == []
