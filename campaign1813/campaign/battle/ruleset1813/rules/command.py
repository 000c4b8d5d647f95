"""Rules 2 and 3: the commander-in-chief and the corps commanders, their pips and what they buy.

A drawn commander rolls the pips die and adds his grade's bonus. An :class:`Activation` is that
budget; each action spends from it and returns a new activation, so the pips left are always
known and an action the budget cannot pay for is refused with the cost and what is left.

>>> pips_odds(Grade.AVERAGE, "1813")
{4: Fraction(1, 6), 5: Fraction(1, 3), 6: Fraction(1, 3), 7: Fraction(1, 6)}
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from campaign1813.campaign.battle.dice import DiceSource, Roll
from campaign1813.campaign.battle.ruleset1813.rules.common import (
    ActionRefused,
    Verdict,
    odds_of,
    roll_for,
    worse_state,
)
from campaign1813.campaign.battle.ruleset1813.rules.tables.command import CorpsAction, command_table
from campaign1813.campaign.battle.terms import Effect, Grade, MoraleState
from campaign1813.campaign.battle.terms import Role as Role

__all__ = ["Grade", "CorpsAction", "Role", "Commander", "Spent", "Activation",
           "pips_odds", "roll_pips", "corps_action_cost", "corps_action", "change_to_halt",
           "cinc_change_orders", "give_move", "cinc_move_inches", "cinc_may_move_again",
           "may_command", "swap_brigades"]




@dataclass(frozen=True)
class Commander:
    """A commander on the table: name, grade, role and nation (Spanish orders need contact)."""

    name: str
    grade: Grade
    role: Role = Role.CORPS
    nation: str = ""


@dataclass(frozen=True)
class Spent:
    """Pips spent on one action."""

    action: str
    cost: int


@dataclass(frozen=True)
class Activation:
    """A commander's turn: the pips he has, the roll that gave them, and what he spent."""

    commander: Commander
    pips: int
    roll: Roll | None = None
    spent: tuple[Spent, ...] = ()

    @property
    def remaining(self) -> int:
        """Pips not yet spent."""
        return self.pips - sum(s.cost for s in self.spent)

    def spend(self, action: str, cost: int) -> Activation:
        """The activation after paying ``cost`` pips for ``action``; refused if short."""
        if cost < 0:
            raise ValueError(f"{action}: a cost cannot be negative ({cost})")
        if cost > self.remaining:
            raise ActionRefused(f"{self.commander.name} cannot {action}: it costs {cost} "
                                f"pip{'s' if cost != 1 else ''} and {self.remaining} "
                                f"{'is' if self.remaining == 1 else 'are'} left")
        return replace(self, spent=self.spent + (Spent(action, cost),))


def _pips(grade: Grade, rolled: int, ruleset: str) -> int:
    return max(0, rolled + command_table(ruleset).pips_bonus[grade])


def pips_odds(grade: Grade, ruleset: str) -> dict[int, Fraction]:
    """The exact distribution of a commander's pips (Rules 2 and 3)."""
    return odds_of(command_table(ruleset).pips_die, 1, lambda rolled: _pips(grade, rolled,
                                                                            ruleset))


def roll_pips(commander: Commander, dice: DiceSource, ruleset: str) -> Activation:
    """Roll a commander's pips: his activation with the full budget."""
    roll = roll_for(dice, command_table(ruleset).pips_die, 1,
                    f"pips for {commander.name} ({commander.grade.value})")
    return Activation(commander, _pips(commander.grade, roll.total, ruleset), roll)


def _not_cinc(activation: Activation, what: str) -> None:
    if activation.commander.role is Role.CINC:
        raise ActionRefused(f"{activation.commander.name} is the CinC; {what} is for a corps "
                            f"or reserve commander (the CinC may give him his move)")


def corps_action_cost(action: CorpsAction, ruleset: str) -> int:
    """The pips a corps commander pays for an action (Rule 3)."""
    return command_table(ruleset).costs[action]


def corps_action(activation: Activation, action: CorpsAction, ruleset: str,
                 brigade: str = "") -> Activation:
    """A corps commander pays for one action of Rule 3."""
    _not_cinc(activation, action.value.replace("_", " "))
    label = action.value.replace("_", " ") + (f" ({brigade})" if brigade else "")
    return activation.spend(label, corps_action_cost(action, ruleset))


def change_to_halt(activation: Activation, farthest_brigade_inches: Fraction | float,
                   ruleset: str) -> Activation:
    """A corps commander changes his own orders to Halt, paying by his grade (Rule 3)."""
    _not_cinc(activation, "changing his own orders to Halt")
    table = command_table(ruleset)
    if farthest_brigade_inches > table.halt_reach_inches:
        raise ActionRefused(f"{activation.commander.name} cannot change to Halt: a brigade is "
                            f"{farthest_brigade_inches} inches away and he must be within "
                            f"{table.halt_reach_inches} inches of every brigade")
    return activation.spend("change orders to Halt",
                            table.change_to_halt[activation.commander.grade])


def _cinc_in_contact(activation: Activation, corps: Commander, in_base_contact: bool,
                     what: str) -> None:
    if activation.commander.role is not Role.CINC:
        raise ActionRefused(f"{activation.commander.name} is not the CinC; only the CinC "
                            f"may {what}")
    if not in_base_contact:
        raise ActionRefused(f"{activation.commander.name} must be in base contact with "
                            f"{corps.name} to {what}")


def cinc_change_orders(activation: Activation, corps: Commander, in_base_contact: bool,
                       ruleset: str) -> Activation:
    """The CinC changes a corps' orders, paying by his own grade (Rule 2)."""
    _cinc_in_contact(activation, corps, in_base_contact, "change corps orders")
    cost = command_table(ruleset).change_corps_orders[activation.commander.grade]
    return activation.spend(f"change the orders of {corps.name}", cost)


def give_move(activation: Activation, corps: Commander, in_base_contact: bool,
              ruleset: str) -> tuple[Activation, Activation]:
    """The CinC gives his move to a corps commander (Rule 2).

    Returns the CinC's finished activation and the corps commander's, holding the balance.
    """
    _cinc_in_contact(activation, corps, in_base_contact, "give his move")
    cost = command_table(ruleset).give_move[activation.commander.grade]
    paid = activation.spend(f"give his move to {corps.name}", cost)
    balance = paid.remaining
    done = paid.spend(f"balance passed to {corps.name}", balance) if balance else paid
    return done, Activation(corps, balance)


def cinc_move_inches(pips: int, ruleset: str) -> Fraction:
    """How far the CinC moves for the pips he spends on moving (Rule 2)."""
    if pips < 0:
        raise ValueError(f"cannot spend {pips} pips on a move")
    return command_table(ruleset).cinc_inches_per_pip * pips


def cinc_may_move_again(nearest_enemy_inches: Fraction | float | None, ruleset: str) -> Verdict:
    """Whether the CinC may take more than one move: no enemy blind or figures close (Rule 2)."""
    clear = command_table(ruleset).cinc_multiple_move_clear
    if nearest_enemy_inches is not None and nearest_enemy_inches <= clear:
        return Verdict(False, f"an enemy is {nearest_enemy_inches} inches away; a CinC moves "
                              f"more than once only with none within {clear} inches")
    return Verdict(True, f"no enemy within {clear} inches")


def may_command(commander: Commander, brigade_inches: Fraction | float, ruleset: str) -> Verdict:
    """Whether a corps commander is close enough to give a brigade orders (Rule 3)."""
    table = command_table(ruleset)
    if commander.nation in table.base_contact_nations:
        if brigade_inches > 0:
            return Verdict(False, f"{commander.name} is {commander.nation} and must be in base "
                                  f"contact to give orders")
        return Verdict(True, "in base contact")
    if brigade_inches > table.command_inches:
        return Verdict(False, f"{commander.name} is {brigade_inches} inches away; orders need "
                              f"him within {table.command_inches} inches")
    return Verdict(True, f"within {table.command_inches} inches")


def swap_brigades(activation: Activation, front: str, front_state: MoraleState, behind: str,
                  behind_state: MoraleState, directly_behind: bool,
                  behind_inches: Fraction | float,
                  ruleset: str) -> tuple[Activation, tuple[Effect, ...]]:
    """Swap a front brigade with a fresh one behind it (Rule 3); both end Disordered (Rule 18)."""
    table = command_table(ruleset)
    if behind_state is not MoraleState.FORMED:
        raise ActionRefused(f"{behind} is {behind_state.value}; the brigade coming forward "
                            f"must be fresh")
    if not directly_behind or behind_inches > table.swap_behind_inches:
        raise ActionRefused(f"{behind} must be directly behind {front} and within "
                            f"{table.swap_behind_inches} inches to swap with it")
    paid = corps_action(activation, CorpsAction.SWAP_BRIGADES, ruleset, f"{front} and {behind}")
    effects = tuple(Effect(b, new_state=worse_state(state, MoraleState.DISORDERED),
                           note="swapped") for b, state in ((front, front_state),
                                                            (behind, behind_state)))
    return paid, effects
