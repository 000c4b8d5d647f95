"""A side's turn packet written to a folder: the situation report and the order form, each as
JSON and as PDF (the installed paper's), all built from the side's view (record 0025)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from campaign1813.campaign import queries
from campaign1813.campaign.export import packet
from campaign1813.campaign.export.output import write_new
from campaign1813.campaign.export.paper import Paper, check_paper_size, installed
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.protocol import CampaignStore


def packet_json_bytes(value: Any) -> bytes:
    """JSON as a packet's files keep it: indented, UTF-8, one line break at the end."""
    return (json.dumps(value, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def write_packet(doc: CampaignStore, side: Side, out: Path, paper_size: str = "a4",
                 force: bool = False, paper: Paper | None = None) -> list[Path]:
    """Write a side's packet into ``out`` (made if need be) with ``paper`` (the installed
    one by default); the files written, named ``<side>-<day>-situation.pdf|json`` and
    ``<side>-<day>-orders.json|pdf``."""
    paper = paper or installed()  # before any work: without a painter there is no packet
    size = check_paper_size(paper_size)
    view = queries.side_view(doc, side)
    out.mkdir(parents=True, exist_ok=True)
    stem = f"{side.value.lower()}-{view.day.isoformat()}"
    form = packet.order_form(view)
    files = {
        f"{stem}-situation.pdf": paper.pdf(packet.situation_document(view), size),
        f"{stem}-situation.json": packet_json_bytes(packet.packet_json(view)),
        f"{stem}-orders.json": packet_json_bytes(form),
        f"{stem}-orders.pdf": paper.pdf(packet.order_form_document(form), size),
    }
    written = []
    for name, data in files.items():
        write_new(out / name, data, force=force)
        written.append(out / name)
    return written
