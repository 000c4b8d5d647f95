"""Turn packets for play by e-mail (record 0025): packets out for both sides, orders back
signed, imported, End Day; a tampered, a replayed, a wrong-side and a wrong-day form refused
with the reason, the form and the campaign unchanged (sha256)."""

import hashlib
import json
import re
from pathlib import Path

import jsonschema
import pypdf
import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.export import packet
from campaign1813.campaign.export.packet import FormRefused
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.document import open_campaign
from campaign1813.ui.console import main

from ..day.builders import new_campaign
from .canary import canary_scenario, french_outputs, leaks

ROOT = Path(__file__).parents[2]


def sha(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def pdf_text(path):
    return " ".join(re.sub(r"\s+", " ", p.extract_text()) for p in pypdf.PdfReader(path).pages)


@pytest.fixture
def campaign(tmp_path):
    doc = new_campaign(tmp_path / "c.c1813", canary_scenario())
    path = doc.path
    doc.close()
    return path


def _packet(path, side, out):
    assert main(["packet", str(path), "--side", side, "--out", str(out)]) == 0
    return {p.name.split("-", 4)[-1]: p for p in Path(out).iterdir()}


def _key(path, side, out):
    assert main(["side-key", str(path), "--side", side, "--out", str(out)]) == 0
    return out


def _fill(form_path, orders):
    form = json.loads(Path(form_path).read_text(encoding="utf-8"))
    for line in form["orders"]:
        if line["command"] in orders:
            line["verb"], line["objective"] = orders[line["command"]]
    Path(form_path).write_text(json.dumps(form), encoding="utf-8")


def test_a_round_trip_for_both_sides_then_end_day(campaign, tmp_path, capsys):
    """Both packets out, each form filled, signed with its side's key, imported (with the
    orders before → after shown), a rule-breaking order refused alone, then End Day."""
    french = _packet(campaign, "french", tmp_path / "fr")
    allied = _packet(campaign, "allied", tmp_path / "al")
    assert sorted(french) == ["orders.json", "orders.pdf", "situation.json", "situation.pdf"]
    schema = json.loads((ROOT / "docs/schemas/side-packet.schema.json").read_text())
    jsonschema.validate(json.loads(french["situation.json"].read_text()), schema)
    form_schema = json.loads((ROOT / "docs/schemas/order-form.schema.json").read_text())
    jsonschema.validate(json.loads(french["orders.json"].read_text()), form_schema)
    assert "Situation report: the French" in pdf_text(french["situation.pdf"])
    assert "Order form: the French" in pdf_text(french["orders.pdf"])
    # nothing of the Allies in the French packet, read back (PDFs with pypdf)
    with _open(campaign) as doc:
        state = queries.day_state(doc)
    texts = {name: (pdf_text(p) if name.endswith(".pdf") else p.read_text())
             for name, p in french.items()}
    assert leaks(state, texts) == []
    _fill(french["orders.json"], {"1 Corps": ("Move", "T6"), "2 Corps": ("Move", "Nowhere")})
    _fill(allied["orders.json"], {"Zephyr Canary Corps": ("Move", "T9")})
    for side, files, key in (("french", french, tmp_path / "fr.key"),
                             ("allied", allied, tmp_path / "al.key")):
        _key(campaign, side, key)
        assert main(["sign-orders", str(files["orders.json"]), "--key", str(key)]) == 0
    capsys.readouterr()
    before = sha(french["orders.json"])
    assert main(["import-orders", str(campaign), str(french["orders.json"])]) == 0
    out = capsys.readouterr().out
    assert "Order form of the French: 1 taken, 1 refused" in out
    assert "  1 Corps: no orders → 1 Corps – Move T6" in out
    assert "Refused: 2 Corps – Move Nowhere" in out
    assert sha(french["orders.json"]) == before
    # the same form again: idempotent, nothing changes
    campaign_sha = sha(campaign)
    assert main(["import-orders", str(campaign), str(french["orders.json"])]) == 0
    assert "taken already; nothing changed" in capsys.readouterr().out
    assert sha(campaign) == campaign_sha
    assert main(["import-orders", str(campaign), str(allied["orders.json"])]) == 0
    assert "Zephyr Canary Corps: no orders → Zephyr Canary Corps – Move T9" in \
        capsys.readouterr().out
    assert main(["end-day", str(campaign)]) == 0
    with _open(campaign) as doc:
        state = queries.day_state(doc)
    assert str(state.date) == "1813-05-02"
    assert state.commands["1 Corps"].marched == 15.0


def _open(path):
    return open_campaign(path)


def _signed(campaign, tmp_path, side="french", orders=None):
    files = _packet(campaign, side, tmp_path / f"p-{side}")
    _fill(files["orders.json"], orders or {"1 Corps": ("Move", "T4")})
    key = _key(campaign, side, tmp_path / f"{side}.key")
    assert main(["sign-orders", str(files["orders.json"]), "--key", str(key)]) == 0
    return files["orders.json"], key


@pytest.mark.parametrize(("change", "reason"), [
    (lambda f: f["orders"][0].update(objective="T5"),
     "signature is not the French' key's: it was changed after it was signed"),
    (lambda f: f.update(campaign="Another"), "is for the campaign 'Another', not 'test'"),
])
def test_a_tampered_form_is_refused_and_nothing_changes(campaign, tmp_path, capsys, change,
                                                        reason):
    """A form changed after it was signed is refused; form and campaign unchanged."""
    form_path, _key_path = _signed(campaign, tmp_path)
    form = json.loads(form_path.read_text())
    change(form)
    form_path.write_text(json.dumps(form))
    before, campaign_sha = sha(form_path), sha(campaign)
    capsys.readouterr()
    assert main(["import-orders", str(campaign), str(form_path)]) == 1
    assert reason in capsys.readouterr().err
    assert (sha(form_path), sha(campaign)) == (before, campaign_sha)


def test_a_form_claiming_the_other_side_is_refused_as_the_wrong_side(campaign, tmp_path,
                                                                       capsys):
    """The French player's form re-labelled Allied and signed with the French key."""
    form_path, key = _signed(campaign, tmp_path)
    form = json.loads(form_path.read_text())
    form["side"] = "Allied"
    form_path.write_text(json.dumps(packet.sign(form, bytes.fromhex(key.read_text().strip()))))
    before = sha(campaign)
    assert main(["import-orders", str(campaign), str(form_path)]) == 1
    assert "says it is the Allied' but is signed with the French' key: wrong side" in \
        capsys.readouterr().err
    assert sha(campaign) == before


def test_a_wrong_day_and_a_replayed_form_are_refused(campaign, tmp_path, capsys):
    """A form of 1 May brought on 2 May: wrong day. A second version of a taken form (same
    number, other orders, signed again): a replay."""
    form_path, key = _signed(campaign, tmp_path)
    first = json.loads(form_path.read_text())
    assert main(["import-orders", str(campaign), str(form_path)]) == 0
    second = {**first, "orders": [{**first["orders"][0], "objective": "T5"}, *first["orders"][1:]]}
    form_path.write_text(json.dumps(packet.sign(second, bytes.fromhex(key.read_text().strip()))))
    before = (sha(form_path), sha(campaign))
    capsys.readouterr()
    assert main(["import-orders", str(campaign), str(form_path)]) == 1
    assert "was taken already in another version: a replayed form" in capsys.readouterr().err
    assert (sha(form_path), sha(campaign)) == before
    late, _ = _signed(campaign, tmp_path / "late")
    assert main(["end-day", str(campaign)]) == 0
    before = (sha(late), sha(campaign))
    capsys.readouterr()
    assert main(["import-orders", str(campaign), str(late)]) == 1
    assert "is for 1 May 1813, but the campaign is on 2 May 1813: wrong day" in \
        capsys.readouterr().err
    assert (sha(late), sha(campaign)) == before


def test_a_form_written_against_a_changed_state_is_refused(campaign, tmp_path):
    """The umpire changed an order after the packet went out: the form is stale."""
    form_path, _ = _signed(campaign, tmp_path)
    with _open(campaign) as doc:
        services.issue_order(doc, "2 Corps", "Hold", "T2")
        with pytest.raises(FormRefused, match="written against a state of the French' "
                                              "commands that has changed since"):
            services.import_orders(doc, form_path.read_bytes())


def test_the_published_schemas_are_the_packets_own():
    """docs/schemas holds exactly the schemas the packet module publishes."""
    for name, schema in (("side-packet", packet.packet_schema()),
                         ("order-form", packet.form_schema())):
        published = (ROOT / f"docs/schemas/{name}.schema.json").read_text(encoding="utf-8")
        assert json.loads(published) == json.loads(json.dumps(schema))


def test_the_french_packet_view_is_the_side_view(campaign):
    """The packet's JSON is built from the side's view alone: no canary in it."""
    with _open(campaign) as doc:
        view = queries.side_view(doc, Side.FRENCH)
        state = queries.day_state(doc)
    outputs = french_outputs(view, {"packet": json.dumps(packet.packet_json(view)),
                                    "form": json.dumps(packet.order_form(view))})
    assert leaks(state, outputs) == []


def test_a_dry_run_shows_the_orders_that_would_change_and_takes_nothing(campaign, tmp_path,
                                                                         capsys):
    """import-orders --dry-run: the diff of orders is shown; the campaign is unchanged."""
    form_path, _ = _signed(campaign, tmp_path, orders={"1 Corps": ("Move", "T4"),
                                                       "2 Corps": ("Hold", "T2")})
    before = sha(campaign)
    capsys.readouterr()
    assert main(["import-orders", str(campaign), str(form_path), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == ["Would take: Order form of the French: 2 taken, 0 refused",
                                "  1 Corps: no orders → 1 Corps – Move T4",
                                "  2 Corps: no orders → 2 Corps – Hold T2"]
    assert sha(campaign) == before
    assert main(["import-orders", str(campaign), str(form_path)]) == 0  # then taken for real
    assert "Would take" not in capsys.readouterr().out


def test_the_umpire_lists_releases_and_holds_reports_from_the_command_line(tmp_path, capsys):
    """reports / hold / release: the umpire's acts headless, each one logged action."""
    doc = new_campaign(tmp_path / "c.c1813", canary_scenario())
    services.issue_order(doc, "1 Corps", "Move", "T9")
    services.issue_order(doc, "Zephyr Canary Corps", "Move", "T1")
    for _ in range(4):
        services.end_day(doc)
    path = doc.path
    doc.close()
    capsys.readouterr()
    assert main(["reports", str(path), "--side", "french"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith("   1  to the French  (released)  Zephyr Canary Corps at ")
    assert main(["hold", str(path), "1"]) == 0
    assert capsys.readouterr().out.startswith("Report 1 held back from the French: ")
    assert main(["release", str(path)]) == 0
    assert capsys.readouterr().out.startswith("Report 1 released to the French: ")
