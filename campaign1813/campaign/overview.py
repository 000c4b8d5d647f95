"""The campaign at a glance, as plain data: where every command stands and what battles are due.

The ``status`` command prints it, ``status --json`` hands it to other tools, and the main window
shows it.
"""

from __future__ import annotations

from campaign1813.campaign.aftermath import status_reason
from campaign1813.campaign.ground import describe
from campaign1813.campaign.state import Battle, DayState


def status_json(state: DayState, ground) -> dict:
    """The campaign's state for other tools: date, commands with places and orders, battles."""
    out = {"date": state.date.isoformat(), "marched": state.marched, "commands": []}
    for c in state.ordered():
        order = state.orders.get(c.name)
        pending = state.pending.get(c.name)
        out["commands"].append({
            "name": c.name,
            "side": c.side.value,
            "army": c.army,
            "kind": c.kind.value,
            "position": c.position.to_json(),
            "where": describe(c.position, ground),
            "status": c.status.value,
            "status_date": c.status_date.isoformat() if c.status_date else None,
            "battle": c.battle,
            "reason": status_reason(state, c.name),
            "order": order.text() if order else None,
            "pending": pending.text() if pending else None,
            "marched": c.marched,
            "halted": c.halted,
            "casualties": {brigade: n for brigade, n in c.casualties},
        })
    out["battles"] = [battle_json(b) for b in sorted(state.battles.values(), key=lambda b: b.id)]
    out["control"] = {t: s.value for t, s in sorted(state.control.items())}
    return out


def battle_json(b: Battle) -> dict:
    """A battle for other tools: place, date, sides, reinforcements, result and notes."""
    return {
        "id": b.id, "date": b.date.isoformat(), "place": b.place, "french": list(b.french),
        "allied": list(b.allied), "french_reinforcements": list(b.french_reinforcements),
        "allied_reinforcements": list(b.allied_reinforcements),
        "attacker": b.attacker.value if b.attacker else None, "result": b.result,
        "notes": list(b.notes),
    }
