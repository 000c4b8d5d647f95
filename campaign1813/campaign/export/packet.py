"""A side's turn packet for play by e-mail, and the order form it brings back (record 0025).

Everything here is built from a ``SideView`` and nothing else: the situation report (a
printable ``Document`` and the same as JSON, ``docs/schemas/side-packet.schema.json``) and the
order form (JSON, ``docs/schemas/order-form.schema.json``, and a printable page). The form
names the campaign, the side, the day and a digest of the side's state it was written against,
and a number of its own; the player fills the orders and signs the form with the key issued to
the side (HMAC-SHA256 over the form's canonical JSON, signature left out). ``read_form``
checks a returned form and gives its orders, or refuses it with the reason.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

import msgspec

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.day.sideview import MapItem, SideView, view_json
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.export.document import (
    Column,
    Document,
    Fields,
    Heading,
    Paragraph,
    Table,
    Unit,
)
from campaign1813.campaign.scenario.types import Side

PACKET_FORMAT = "campaign1813-side-packet/1"
FORM_FORMAT = "campaign1813-order-form/1"
VERBS = ("Move", "Halt", "Hold", "Attack", "Recce", "Rest")


class FormRefused(CampaignError):
    """An order form that cannot be taken: not ours, another side's, another day's, tampered
    with or replayed; the reason is named and nothing is changed."""


class FormOrder(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One line of the order form: a command and its order (an empty verb: no new order)."""

    command: str
    verb: str = ""
    objective: str = ""
    via: tuple[str, ...] = ()
    forced: bool = False
    current: str = ""  # the order standing when the packet was made (for the player to read)


class OrderForm(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An order form as the player returns it."""

    format: str
    campaign: str
    side: str
    day: str
    state: str
    number: str
    orders: tuple[FormOrder, ...]
    signature: str = ""


def state_digest(view: SideView) -> str:
    """A digest of what the side's orders are written against: its day and its own commands
    (where each stands, its state and standing orders)."""
    data = {"side": view.side.value, "day": view.day.isoformat(), "table": view.table}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def packet_json(view: SideView) -> dict[str, Any]:
    """The situation report as JSON values (``docs/schemas/side-packet.schema.json``)."""
    return {"format": PACKET_FORMAT, **view_json(view)}


def packet_schema() -> dict[str, Any]:
    """The JSON Schema of the situation report, as published in ``docs/schemas``."""
    schema: dict[str, Any] = msgspec.json.schema(SideView)
    schema["$defs"]["SideView"]["properties"]["format"] = {"const": PACKET_FORMAT}
    schema["$defs"]["SideView"]["required"].append("format")
    schema["title"] = "A side's situation report (campaign1813 turn packet)"
    return schema


def form_schema() -> dict[str, Any]:
    """The JSON Schema of the order form, as published in ``docs/schemas``."""
    schema: dict[str, Any] = msgspec.json.schema(OrderForm)
    schema["title"] = "A side's order form (campaign1813 turn packet)"
    return schema


def order_form(view: SideView, number: str | None = None) -> dict[str, Any]:
    """A blank order form for the side's commands, unsigned."""
    orders = [FormOrder(row[0], current=row[4]) for row in view.table[1:]]
    form = OrderForm(FORM_FORMAT, view.campaign, view.side.value, view.day.isoformat(),
                     state_digest(view), number or secrets.token_hex(16), tuple(orders))
    data: dict[str, Any] = msgspec.to_builtins(form)
    return data


def signed_bytes(form: Mapping[str, Any]) -> bytes:
    """What a signature covers: the form's canonical JSON, its signature left out."""
    body = {k: v for k, v in form.items() if k != "signature"}
    return json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def sign(form: Mapping[str, Any], key: bytes) -> dict[str, Any]:
    """The form signed with a side's key."""
    signature = hmac.new(key, signed_bytes(form), hashlib.sha256).hexdigest()
    return {**form, "signature": signature}


def form_digest(form: Mapping[str, Any]) -> str:
    """A digest of what was signed: the same form again has the same digest."""
    return hashlib.sha256(signed_bytes(form)).hexdigest()


def parse_form(text: str | bytes) -> dict[str, Any]:
    """An order form's JSON, checked against its layout; refused with the reason."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise FormRefused(f"the order form is not one of ours: {exc}") from None
    return checked_form(data)


def checked_form(data: Any) -> dict[str, Any]:
    """An order form's values (as JSON gives them) checked against its layout; refused with
    the reason."""
    try:
        msgspec.convert(data, OrderForm)
    except msgspec.ValidationError as exc:
        raise FormRefused(f"the order form is not one of ours: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORM_FORMAT:
        raise FormRefused(f"the order form is not one of ours: its format is not {FORM_FORMAT}")
    return data


def check_form(form: Mapping[str, Any], view: SideView, keys: Mapping[Side, bytes],
               imported: Mapping[str, str]) -> bool:
    """Check a parsed form against the side's view today; True if this very form was taken
    already (nothing to do), a refusal naming the reason otherwise."""
    if form["campaign"] != view.campaign:
        raise FormRefused(f"the order form is for the campaign {form['campaign']!r}, not "
                          f"{view.campaign!r}")
    side = _side(form["side"])
    body = signed_bytes(form)
    good = {s: hmac.compare_digest(hmac.new(k, body, hashlib.sha256).hexdigest(),
                                   str(form.get("signature", ""))) for s, k in keys.items()}
    if not good.get(side, False):
        other = next((s for s, ok in good.items() if ok), None)
        if other is not None:
            raise FormRefused(f"the order form says it is the {side.value}' but is signed with "
                              f"the {other.value}' key: wrong side")
        raise FormRefused(f"the order form's signature is not the {side.value}' key's: it was "
                          "changed after it was signed, or signed with another key")
    if side is not view.side:
        raise FormRefused(f"the order form is the {side.value}', not the {view.side.value}'")
    number, digest = str(form["number"]), form_digest(form)
    if number in imported:
        if imported[number] == digest:
            return True
        raise FormRefused(f"order form {number} was taken already in another version: a "
                          "replayed form")
    if form["day"] != view.day.isoformat():
        raise FormRefused(f"the order form is for {_day(form['day'])}, but the campaign is on "
                          f"{format_date(view.day)}: wrong day")
    if form["state"] != state_digest(view):
        raise FormRefused("the order form was written against a state of the "
                          f"{side.value}' commands that has changed since (another form was "
                          "taken, or the umpire changed an order): a replayed or stale form")
    return False


def form_orders(form: Mapping[str, Any]) -> list[FormOrder]:
    """The form's filled lines (a verb given), in its order."""
    orders = msgspec.convert(form["orders"], tuple[FormOrder, ...])
    return [o for o in orders if o.verb.strip()]


def form_side(form: Mapping[str, Any]) -> Side:
    """The side a form says it is from."""
    return _side(form["side"])


def _side(text: Any) -> Side:
    for side in Side:
        if str(text).casefold() == side.value.casefold():
            return side
    raise FormRefused(f"the order form's side {text!r:.40} is neither French nor Allied")


def _day(text: Any) -> str:
    """A form's day as the diary writes it, or as it is if it is no date."""
    try:
        return format_date(date.fromisoformat(str(text)))
    except ValueError:
        return repr(text)


# -- printable pages ---------------------------------------------------------------------------


def situation_document(view: SideView) -> Document:
    """The situation report as a printable document: the side's map in words, its commands,
    its own orders of battle, the enemy as reported, objectives, the day and the diary."""
    units = [Unit((Heading(view.banner), Paragraph(
        f"For the {view.side.value} alone: what the {view.side.value} know on "
        f"{format_date(view.day)}.")))]
    columns = tuple(Column(t) for t in view.table[0])
    units.append(Unit((Heading("Our commands", 2), Table(columns, view.table[1:]))))
    units.append(Unit((Heading("The enemy as reported", 2),
                       *(Paragraph(line) for line in view.enemy_oob))))
    units.append(Unit((Heading("On the map", 2), Table(
        (Column("Item"), Column("Town"), Column("Note")),
        (*((i.label, i.town, ("old report; " if i.faded else "") + i.tooltip + _days(i))
           for i in view.map_items),
         *((s.what(), s.town, s.text()) for s in view.own_supply))))))
    units.append(Unit((Heading("Objectives", 2),
                       *(Paragraph(line) for line in view.objectives or ("None given.",)))))
    units.append(Unit((Heading("The day's report", 2),
                       *(Paragraph(line) for line in view.day_report))))
    units.append(Unit((Heading("Our orders of battle", 2),
                       *(Paragraph(line.strip(), small=line.startswith("    "))
                         for line in view.own_oob)), new_page=True))
    if view.diary:
        units.append(Unit((Heading("Diary of reports", 2),
                           *(Paragraph(line.strip()) for line in view.diary))))
    return Document(f"Situation report: the {view.side.value}", view.campaign,
                    format_date(view.day), tuple(units))


def _days(item: MapItem) -> str:
    """A corps' days of supplies, as its line on the map's table ends (nothing while supply
    is off)."""
    if item.supply_days is None:
        return ""
    return "; out of supply" if item.supply_days == 0 else \
        f"; supplies for {item.supply_days} day{'' if item.supply_days == 1 else 's'}"


def order_form_document(form: Mapping[str, Any]) -> Document:
    """The order form as a printable page, to fill by hand and send to the umpire."""
    rows = tuple((str(o["command"]), str(o.get("current", "")), "", "")
                 for o in form["orders"])
    return Document(f"Order form: the {form['side']}", str(form["campaign"]),
                    _day(form["day"]), (
                        Unit((Fields((("Side", str(form["side"])), ("Day", str(form["day"])),
                                      ("Form", str(form["number"])))),
                              Paragraph(f"Orders: {', '.join(VERBS)}, each with a town.",
                                        small=True),
                              Table((Column("Command"), Column("Standing order"),
                                     Column("Order"), Column("Objective")), rows))),))


def form_lines(orders: Sequence[FormOrder]) -> list[str]:
    """The filled lines of a form as the umpire reads them."""
    return [f"{o.command} – {o.verb} {o.objective}" + (f" via {', '.join(o.via)}" if o.via
                                                       else "") for o in orders]
