"""The battle report's lines, in the seed's own form, for the table and for auto-resolve alike.

Each function writes one line from plain values, so the battle fought at the table
(:mod:`.fight`, :mod:`.fight_tests`) and the abstract battle of :mod:`.autoresolve` write the
same words for the same event.

>>> header_line(3, "Prussian", "1 corps", "chip 8")
'Move 3 – Prussian – 1 corps (chip 8)'
>>> fire_line("Artillery fire", "infantry", "2 Brigade", "long", "1 Battery", 9, 9, 1)
'Artillery fire on infantry – 2 Brigade, long range, by 1 Battery (9) 1 hit'
"""

from __future__ import annotations

from campaign1813.campaign.battle.ruleset1813.rules.morale import MoraleOutcome, MoraleResult
from campaign1813.campaign.battle.terms import Formation, Grade, MoraleState

__all__ = ["header_line", "orders_line", "pips_line", "spend_line", "action_text",
           "formation_line", "hits_text", "fire_line", "morale_word", "morale_line",
           "automatic_rout_line", "effect_text", "combat_line", "skirmish_line", "charge_line",
           "reaction_line", "quick_line", "rout_reaction_line", "pursuit_line",
           "rally_pursuers_line", "pursuers_not_rallied_line", "corps_broken_line",
           "corps_mended_line", "army_broken_line", "army_mended_line"]


def header_line(move: int, nation: str, what: str, chip: str) -> str:
    """``Move 3 – Prussian – 1 corps (chip 8)``: a commander's move begins."""
    return f"Move {move} – {nation} – {what} ({chip})"


def orders_line(orders: str) -> str:
    """``Orders: Engage``."""
    return f"Orders: {orders}"


def pips_line(rolled: int, bonus: int, grade: Grade, pips: int) -> str:
    """``Pips: 3 + 2 (Average) = 5``: the pips die, the grade's bonus and the pips."""
    return f"Pips: {rolled} + {bonus} ({grade.value}) = {pips}"


def action_text(action: str, brigade: str = "") -> str:
    """A Rule 3 action as the report names it: ``Change formation (13 Infantry Brigade)``."""
    label = action.replace("_", " ") + (f" ({brigade})" if brigade else "")
    return label[0].upper() + label[1:]


def spend_line(text: str, cost: int, remaining: int) -> str:
    """``Move (1 pip, 4 left)``: pips spent on an action and what is left."""
    return f"{text} ({cost} pip{'s' if cost != 1 else ''}, {remaining} left)"


def formation_line(brigade: str, formation: Formation) -> str:
    """``13 Infantry Brigade forms square``."""
    return f"{brigade} forms {formation.value}"


def hits_text(hits: int) -> str:
    """``miss``, ``1 hit``, ``2 hits``."""
    return "miss" if not hits else f"{hits} hit{'s' if hits > 1 else ''}"


def fire_line(what: str, target_kind: str, target: str, band: str, battery: str, rolled: int,
              total: int, hits: int) -> str:
    """Rule 7: ``Artillery fire on infantry – 2 Brigade, long range, by 1 Battery (9) 1 hit``."""
    mod = total - rolled
    shown = f"({rolled}{mod:+d} = {total})" if mod else f"({rolled})"
    return (f"{what} on {target_kind} – {target}, {band} range, by {battery} {shown} "
            f"{hits_text(hits)}")


def morale_word(result: MoraleResult, before: MoraleState) -> str:
    """What a morale test or rally did, in the report's words: ``pass``, ``fail, shaken``…."""
    word = {MoraleOutcome.PASS: "pass", MoraleOutcome.SHAKEN: "fail, shaken",
            MoraleOutcome.ROUT: "fail and rout"}[result.outcome]
    after = result.effect.new_state or before
    if before is MoraleState.ROUT:  # the table's word is not the end: it rallies or runs
        return result.effect.note
    if result.outcome is MoraleOutcome.PASS and after is not MoraleState.FORMED:
        word += f", {after.value}"
    return word


def morale_line(rally: bool, brigade: str, rolled: int, word: str) -> str:
    """Rule 17: ``Test morale for 2 Brigade (4) pass``; a rally is ``Test to rally …``."""
    return f"{'Test to rally' if rally else 'Test morale for'} {brigade} ({rolled}) {word}"


def automatic_rout_line(brigade: str, casualties: int) -> str:
    """Rule 17: a brigade at its rout point routs without a roll."""
    return f"{brigade} routs without testing at {casualties} casualties"


def effect_text(brigade: str, casualties: int, new_state: MoraleState | None,
                removed: bool = False) -> str:
    """``2 Infantry Brigade: 3 casualties, rout``."""
    parts = []
    if casualties:
        parts.append(f"{casualties} casualt{'y' if casualties == 1 else 'ies'}")
    if removed:
        parts.append("leaves the table")
    elif new_state:
        parts.append(new_state.value)
    return f"{brigade}: {', '.join(parts) or 'no loss'}"


def combat_line(rule: int, attacker: str, a_total: int, defender: str, d_total: int,
                roller: str, rolled: int, difference: int, result: str,
                effects: tuple[str, ...]) -> str:
    """Rules 9-15: the factors, who rolled, the row and what it did to each side."""
    joined = "; ".join(effects)
    return (f"Combat (Rule {rule}): {attacker} ({a_total}) against {defender} ({d_total}); "
            f"{roller} rolls ({rolled}) +{difference} = {rolled + difference}: {result}"
            + (f" – {joined}" if joined else ""))


def skirmish_line(attacker: str, a_rolled: int, defender: str, d_rolled: int | None,
                  losers: tuple[str, ...]) -> str:
    """Rule 11: ``Skirmish: 1 Brigade (6) against 2 Brigade (3): 2 Brigade loses a casualty``."""
    parts = [f"{attacker} ({a_rolled})"]
    if d_rolled is not None:
        parts.append(f"{defender} ({d_rolled})")
    hit = ", ".join(f"{b} loses a casualty" for b in losers) or "no casualties"
    return f"Skirmish: {' against '.join(parts)}: {hit}"


def charge_line(cavalry: str, target: str, rolled: int, passed: bool) -> str:
    """Rule 6: ``Hussars attempt to opportunity charge 2 Brigade (5) charge``."""
    return (f"{cavalry} attempt to opportunity charge {target} ({rolled}) "
            f"{'charge' if passed else 'fail'}")


def reaction_line(brigade: str, reaction: str, rolled: int | None, passed: bool) -> str:
    """Rule 6: ``2 Brigade tries to form square (4) pass``; ``(no roll)`` for a free one."""
    shown = f"({rolled})" if rolled is not None else "(no roll)"
    return (f"{brigade} tries to {reaction.replace('_', ' ')} {shown} "
            f"{'pass' if passed else 'fail'}")


def quick_line(brigade: str, notes: str) -> str:
    """Rule 8: ``Quick result: 2 Brigade column of march contacted by cavalry by …``."""
    return f"Quick result: {brigade} {notes}"


def rout_reaction_line(routed: str, near: tuple[str, ...]) -> str:
    """Rule 16: ``2 Brigade routs: 1 Brigade, 3 Brigade within 4" react``."""
    names = ", ".join(near) or "no brigade"
    return f"{routed} routs: {names} within 4\" react"


def pursuit_line(cavalry: str, first: int, second: int | None, result: str) -> str:
    """Rule 16: ``Hussars test to pursue (2) do not pursue`` or ``Hussars pursue (5), (3) …``."""
    if second is None:
        return f"{cavalry} test to pursue ({first}) do not pursue"
    return f"{cavalry} pursue ({first}), ({second}) {result}"


def rally_pursuers_line(cavalry: str, rolled: int | None, state: MoraleState) -> str:
    """Rule 16: ``Rally pursuing Hussars (4) disordered``."""
    shown = f"({rolled})" if rolled is not None else "(no roll)"
    return f"Rally pursuing {cavalry} {shown} {state.value}"


def pursuers_not_rallied_line(cavalry: str, state: MoraleState) -> str:
    """Rule 16: pursuers no commander can rally go back: ``Pursuing Hussars not rallied (no
    commander): return to own lines shaken``."""
    return f"Pursuing {cavalry} not rallied (no commander): return to own lines {state.value}"


def corps_broken_line(corps: str) -> str:
    """The army break: ``1 Prussian Corps is broken`` (half or more of its brigades broken)."""
    return f"{corps} is broken"


def corps_mended_line(corps: str) -> str:
    """The army break: ``1 Prussian Corps is no longer broken``."""
    return f"{corps} is no longer broken"


def army_broken_line(side: str) -> str:
    """The army break: ``The Allied army has broken: half or more of its corps are broken``."""
    return f"The {side} army has broken: half or more of its corps are broken"


def army_mended_line(side: str) -> str:
    """The army break undone: ``The Allied army is no longer broken: …``."""
    return f"The {side} army is no longer broken: fewer than half of its corps are broken"
