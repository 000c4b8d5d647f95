"""Auto-resolve: a battle fought without a table, by the rules' own tables, and its odds.

:func:`resolve` fights one abstract battle from a :class:`~.setup.BattleSetup`: every turn each
chip is drawn once in a seeded order, the drawn commander rolls his pips, corps close by their
orders through three distance bands (long artillery range, short range, contact), guns fire,
brigades skirmish, fire, charge and fight by arm and orders, routs set off their friends, broken
brigades rally, and the army break is judged after every move; night falls after the setup's
turns. Every test gives what the rules give for the roll made (see :mod:`.auto_tables`), and the
battle report lists every roll in the seed's own form. :func:`estimate` fights many such
battles and counts who won, with a 95 % interval for each share (:mod:`.core.results`).
``docs/autoresolve.md`` lists each abstraction and why.
"""

from __future__ import annotations

import random

from campaign1813.campaign.battle.core.results import (
    AutoOdds,
    AutoResult,
    BrigadeOutcome,
    Progress,
    auto_outcome,
    count_results,
    run_seed,
)
from campaign1813.campaign.battle.ruleset1813 import report_lines as lines
from campaign1813.campaign.battle.ruleset1813.auto_estimate import EstimateEngine
from campaign1813.campaign.battle.ruleset1813.auto_plan import (
    ADVANCE_TO,
    BAND_NAMES,
    CHARGE_PREFERENCE,
    CONTACT_GAP,
    FACTS,
    FIGHTING,
    GARRISON,
    IN_BUA,
    IN_COVER,
    LONG_RANGE_GAP,
    NO_FACTS,
    PURSUIT,
    ROUT_NEAR,
    SHORT_RANGE_GAP,
    SIDES,
    START_GAP,
    STATIONARY,
    SUPPORTS,
    TARGET_OF_ARM,
    ChipPlan,
    CorpsPlan,
    Plan,
    UnitPlan,
    plan_of,
)
from campaign1813.campaign.battle.ruleset1813.auto_tables import (
    CHARGER,
    DISORDERED,
    FORMED,
    ROUT,
    SHAKEN,
    CombatTable,
    DiceTable,
    Profile,
    SideHit,
    TestTable,
    charge_test_table,
    combat_table,
    contact_result,
    fire_modifier,
    fire_table_for,
    may_be_charged,
    morale_table,
    pips_bonus,
    pips_table,
    pursuers_sent_back_state,
    pursuit_table,
    rally_pursuers_table,
    reaction_action,
    reaction_for,
    reaction_table,
    side_break_count,
    skirmish_table,
    square_halt_text,
)
from campaign1813.campaign.battle.ruleset1813.rules.artillery import RangeBand, Target
from campaign1813.campaign.battle.ruleset1813.rules.brigade import STATE_ORDER
from campaign1813.campaign.battle.ruleset1813.rules.opportunity import Reaction
from campaign1813.campaign.battle.ruleset1813.rules.quick import QuickCase
from campaign1813.campaign.battle.ruleset1813.rules.tables.command import CorpsAction
from campaign1813.campaign.battle.setup import (
    ALLIED,
    FRENCH,
    BattleSetup,
)
from campaign1813.campaign.battle.terms import (
    Arm,
    CorpsOrder,
    Formation,
    Grade,
    Rating,
)

__all__ = ["resolve", "estimate", "START_GAP", "LONG_RANGE_GAP", "SHORT_RANGE_GAP",
           "CONTACT_GAP", "BAND_NAMES"]

_STATE_WORDS = ("formed", "disordered", "shaken", "routs")


# --- the battle in progress --------------------------------------------------------------------


class _Unit:
    __slots__ = ("p", "corps", "casualties", "state", "destroyed", "pursuing", "form")

    def __init__(self, p: UnitPlan, corps: _Corps):
        self.p = p
        self.corps = corps
        self.casualties = p.casualties
        self.state = FORMED
        self.destroyed = False
        self.pursuing = False
        self.form = p.first

    @property
    def profile(self) -> Profile:
        """What the rules read of the brigade in its formation now."""
        return self.p.profiles[self.form]


class _Corps:
    __slots__ = ("p", "index", "units", "present", "withdrawn", "target", "breaks_at",
                 "infantry", "cavalry", "guns", "fighting")

    def __init__(self, p: CorpsPlan, index: int, breaks_at: int):
        self.p = p
        self.index = index
        # Its brigades, and by arm, each in the order of battle (which breaks ties in a choice).
        self.units = units = [_Unit(plan, self) for plan in p.units]
        self.infantry: list[_Unit] = []
        self.cavalry: list[_Unit] = []
        self.guns: list[_Unit] = []
        self.fighting: list[_Unit] = []       # infantry and cavalry
        for u in units:
            arm = u.p.arm
            if arm is Arm.INFANTRY:
                self.infantry.append(u)
                self.fighting.append(u)
            elif arm is Arm.CAVALRY:
                self.cavalry.append(u)
                self.fighting.append(u)
            else:
                self.guns.append(u)
        self.breaks_at = breaks_at
        self.present = p.arrival <= 1
        self.withdrawn = False
        self.target: _Corps | None = None


class _Over(Exception):
    """The battle is decided: raised after a move that broke an army."""


class _Battle:
    def __init__(self, plan: Plan, seed: int, report: bool):
        self.plan = plan
        self.ruleset = plan.ruleset
        rng = random.Random(seed)
        self.rand = rng.random
        self.shuffle = rng.shuffle
        self.log: list[str] | None = [] if report else None
        self.corps = tuple([_Corps(c, i, plan.breaks_at[i]) for i, c in enumerate(plan.corps)])
        # gaps[a][b]: how far corps a and b stand apart (the same both ways)
        self.gaps = [[START_GAP] * len(plan.corps) for _ in plan.corps]
        self.turn = 0
        self.move = 0
        self.poor_pending = False
        self.moved: set[int] = set()
        self.pips = 0
        self.reserve = 0
        self.charged: set[int] = set()     # cavalry (by id) that charged in this move
        self.winner: str | None = None
        self.reason = ""
        self.broken = plan.broken
        self.cost = plan.costs
        self.poor_in_battle = plan.poor_in_battle
        self.dirty = True       # a brigade's state changed since the army break was judged

    # -- dice and distance

    def roll(self, table: DiceTable) -> int:
        faces = table.faces
        return faces[int(self.rand() * len(faces))]

    def gap(self, a: _Corps, b: _Corps) -> int:
        return self.gaps[a.index][b.index]

    def set_gap(self, a: _Corps, b: _Corps, gap: int) -> None:
        self.gaps[a.index][b.index] = self.gaps[b.index][a.index] = gap

    # -- the whole battle

    def fight(self) -> int:
        """Fight turn by turn; the number of turns fought."""
        turns = self.plan.setup.turns
        for turn in range(1, turns + 1):
            self.turn = turn
            self.dirty = True
            if self.log is not None:
                self.log.append(f"Turn {turn} of {turns}")
            for c in self.corps:
                if not c.present and c.p.arrival == turn:
                    c.present = True
                    if self.log is not None:
                        self.log.append(f"{c.p.key} arrives")
            if self.log is not None:
                for chip in self.plan.chips:
                    if chip.kind == "cinc" and chip.arrival == turn > 1:
                        self.log.append(f"{chip.name} (CinC) arrives")
            self.retarget()
            try:
                self.sequence()
            except _Over:
                return turn
            re_formed = self.plan.re_formed
            for c in self.corps:
                for u in c.units:
                    # Rule 16: pursuers stay as they are until their rally (as at the table).
                    if u.state == DISORDERED and not u.pursuing:
                        u.state = re_formed
                        self.dirty = True
        if self.log is not None:
            self.log.append(f"Night falls after turn {turns}")
        self.nightfall()
        return turns

    def retarget(self) -> None:
        """Each corps faces the enemy corps of its rank, else the first enemy corps standing."""
        for c in self.corps:
            if not c.present or c.withdrawn:
                continue
            t = c.target
            if t is not None and t.present and not t.withdrawn:
                continue
            enemies = [e for e in self.corps
                       if e.p.side != c.p.side and e.present and not e.withdrawn]
            same = [e for e in enemies if e.p.rank == c.p.rank]
            c.target = (same or enemies)[0] if enemies else None

    def sequence(self) -> None:
        """Draw every chip once, in a seeded order."""
        corps = self.corps
        bag = []
        for chip in self.plan.chips:
            if chip.kind == "corps":        # self.in_bag, written out for the commonest chip
                c = corps[chip.corps]
                if c.present and not c.withdrawn:
                    bag.append(chip)
            elif self.in_bag(chip):
                bag.append(chip)
        self.shuffle(bag)
        self.move = 0
        self.poor_pending = False
        self.moved = set()
        for position, chip in enumerate(bag):
            if chip.kind == "corps":
                c = corps[chip.corps]
                if c.withdrawn or chip.corps in self.moved:     # self.will_move, written out
                    continue
                self.move += 1
                self.corps_move(c, chip.text)
            elif chip.kind == "cinc":
                if not self.will_move(chip, position):
                    continue
                self.move += 1
                self.cinc_move(chip, chip.text)
            elif chip.kind == "poor":
                self.poor_chip(bag, position)
            else:
                self.early_chip(chip, bag, position)
            if self.dirty:          # judge's own first test, made here to spare the call
                self.judge()

    def in_bag(self, chip: ChipPlan) -> bool:
        if chip.kind == "corps":
            c = self.corps[chip.corps]
            return c.present and not c.withdrawn
        if chip.kind == "cinc":         # not before his turn, nor with no corps of his side
            return self.turn >= chip.arrival and any(
                c.present and not c.withdrawn and c.p.side == chip.side for c in self.corps)
        return True

    # -- the special chips

    def will_move(self, chip: ChipPlan, position: int) -> bool:
        """Whether a commander's chip at this place in the bag still gives a move this turn."""
        if chip.kind == "corps":
            return not self.corps[chip.corps].withdrawn and chip.corps not in self.moved
        return chip.kind == "cinc" and -1 - position not in self.moved

    def poor_chip(self, bag: list[ChipPlan], position: int) -> None:
        self.move += 1
        if self.log is not None:
            self.log.append(f"Move {self.move} – Poor Card")
        if not self.poor_in_battle:
            if self.log is not None:
                self.log.append("No Poor commander in this battle, no effect")
        elif any(chip.grade is Grade.POOR and self.will_move(chip, later)
                 for later, chip in enumerate(bag[position + 1:], position + 1)):
            self.poor_pending = True
        else:
            if self.log is not None:
                self.log.append("All Poor commanders have already moved, no effect")

    def early_chip(self, chip: ChipPlan, bag: list[ChipPlan], position: int) -> None:
        """A gifted chip moves a gifted general of its side who has not yet moved; the French
        tactical chip a French corps still out of range (on its blinds)."""
        self.move += 1
        if self.log is not None:
            self.log.append(f"Move {self.move} – {chip.label} chip")
        for later, other in enumerate(bag[position + 1:], position + 1):
            if other.side != chip.side or not self.will_move(other, later):
                continue
            if chip.kind == "gifted" and other.grade is not Grade.GIFTED:
                continue
            if other.kind == "corps":
                c = self.corps[other.corps]
                if chip.kind == "tactical" and (c.target is not None and
                                                self.gap(c, c.target) < START_GAP - 1):
                    continue
                self.moved.add(other.corps)
                self.corps_move(c, f"chip {chip.label}")
                return
            if chip.kind == "gifted":
                self.moved.add(-1 - later)
                self.cinc_move(other, f"chip {chip.label}")
                return
        if self.log is not None:
            self.log.append("No commander may use it")

    # -- a commander's move

    def header(self, nation: str, name: str, label: str) -> None:
        """``Move 3 – Prussian – 1 corps (chip 8)``: the nation, as the seed's reports say."""
        if self.log is not None:
            self.log.append(lines.header_line(self.move, nation, name, label))

    def roll_pips(self, grade: Grade) -> int:
        """Roll pips; a Poor commander drawn while the Poor chip waits loses his move."""
        if self.poor_pending and grade is Grade.POOR:
            self.poor_pending = False
            if self.log is not None:
                self.log.append("Miss move due to Poor Card")
            return -1
        dice, by_face = pips_table(self.ruleset, grade)
        faces = dice.faces
        face = faces[int(self.rand() * len(faces))]      # self.roll, written out
        pips = by_face[face]
        if self.log is not None:
            self.log.append(lines.pips_line(face, pips_bonus(self.ruleset, grade), grade, pips))
        return pips

    def corps_move(self, c: _Corps, label: str) -> None:
        p = c.p
        if self.log is not None:
            self.header(p.nation or p.side, p.key, label)
            self.log.append(lines.orders_line(p.orders.value))
        pips = self.roll_pips(p.grade)
        lost = pips < 0
        # the brigades waiting to rally (wants_rally, written out: this runs at every move)
        waiting = [u for u in c.units if not u.destroyed and (
            u.pursuing or u.state == SHAKEN or (u.state == ROUT and u.casualties < u.p.limit))]
        self.pips = max(pips, 0)
        self.charged = set()
        # One pip set aside for each brigade already waiting to rally.
        self.reserve = len(waiting)
        # Rule 16: pursuers must try to rally at this move, first; with no pip left for them
        # they go back to their own lines as a failed rally leaves them. A move lost to the
        # Poor chip rolls no pips, and they wait for the next (as at the table, where the
        # rally is owed when the pips are rolled).
        pursuers = [u for u in waiting if u.pursuing] if waiting and not lost else []
        for u in pursuers:
            self.reserve -= 1
            if self.pips >= self.cost[CorpsAction.RALLY]:
                self.pips -= self.cost[CorpsAction.RALLY]
                self.rally_pursuers(u)
            else:
                self.send_back(u)
        t = c.target
        if t is not None:
            # Each step's own first test of range, made here too so a step out of range is
            # not even called (this runs at every move of every battle).
            gaps = self.gaps[c.index]
            if gaps[t.index] <= LONG_RANGE_GAP:
                self.artillery(c, t, lost)
            if not lost:
                if gaps[t.index] <= SHORT_RANGE_GAP + 1:    # in reach after this advance
                    self.formations(c, t)
                self.advance(c, t)
                if gaps[t.index] <= SHORT_RANGE_GAP:
                    self.combats(c, t)
                if min(gaps) <= SHORT_RANGE_GAP:
                    self.opportunity(c)
        # A brigade takes one test at its move: pursuers that have just rallied are done. A
        # move lost to the Poor chip is no move at all (only the guns fire, Rule 7), so it
        # ends with no morale tests of its own (Rule 17 tests at the end of the corps' move).
        if waiting and not lost:
            self.rallies([u for u in waiting if u not in pursuers] if pursuers else waiting)

    def wants_rally(self, u: _Unit) -> bool:
        if u.destroyed:
            return False
        return u.pursuing or u.state == SHAKEN or (u.state == ROUT and
                                                    u.casualties < u.p.limit)

    def spend(self, action: CorpsAction = CorpsAction.MOVE) -> bool:
        """Pay for an action of Rule 3, keeping the pips set aside for rallies."""
        cost = self.cost[action]
        if self.pips - cost >= self.reserve:
            self.pips -= cost
            return True
        return False

    def spent(self, action: CorpsAction, brigade: str = "", note: str = "") -> None:
        """The report's line for pips just spent, as the table writes it."""
        if self.log is not None:
            self.log.append(lines.spend_line(note or lines.action_text(action.value, brigade),
                                             self.cost[action], self.pips))

    def reform(self, u: _Unit, formation: Formation, action: CorpsAction) -> bool:
        """Change a brigade's formation for the pips of Rule 3, if they are there."""
        if not self.spend(action):
            return False
        self.spent(action, u.p.label)
        u.form = formation
        if self.log is not None:
            self.log.append(lines.formation_line(u.p.label, formation))
        return True

    def artillery(self, c: _Corps, t: _Corps, lost: bool) -> None:
        gap = self.gap(c, t)
        if gap > LONG_RANGE_GAP:
            return
        for u in c.guns:
            if u.destroyed or u.state != FORMED:
                continue
            if u.form is Formation.LIMBERED:
                # Guns unlimber to fire (Rule 3: an artillery action); not on a lost move.
                if lost or not self.reform(u, Formation.UNLIMBERED, CorpsAction.ARTILLERY_ACTION):
                    continue
            # Artillery fires even when its commander loses his move to the Poor chip.
            if not lost and not self.spend(CorpsAction.ARTILLERY_ACTION):
                return
            if not self.fire(u, t, gap):
                return

    def fire(self, gun: _Unit, t: _Corps, gap: int) -> bool:
        target = self.pick(t.fighting) or self.pick(t.guns)
        if target is None:
            return False
        kind = Target.BUILDINGS if target.p.in_town else TARGET_OF_ARM[target.p.arm]
        band = RangeBand.LONG if gap == LONG_RANGE_GAP else RangeBand.SHORT
        dice, hits_by_total = fire_table_for(self.ruleset, gun.p.calibre, gun.p.rating,
                                             gun.casualties, kind, band)
        faces = dice.faces
        total = faces[int(self.rand() * len(faces))]     # self.roll, written out
        hits = hits_by_total[total]
        if self.log is not None:
            mod = fire_modifier(self.ruleset, gun.p.calibre, gun.p.rating, gun.casualties, kind,
                                band)
            self.log.append(lines.fire_line("Artillery fire", kind.value, target.p.label,
                                            band.value, gun.p.label, total, total + mod, hits))
        if hits:
            target.casualties += hits
            if self.morale(target, 0, False):
                self.cascade([target])
        return True

    # -- formations (Rule 3 pays for them; Rules 6, 8, 11-15 read them)

    def threatened(self, c: _Corps, gap: int) -> _Unit | None:
        """The brigade enemy cavalry would charge next: formed cavalry of the corps it faces at
        short range, able to charge, pick the infantry brigade nearest its rout point."""
        t = c.target
        if t is None or gap > SHORT_RANGE_GAP or c.p.town:
            return None
        if not any(not u.destroyed and u.state == FORMED and not u.pursuing
                   for u in t.cavalry):
            return None
        best: _Unit | None = None
        best_key = (0, 0)
        for u in c.infantry:
            if u.destroyed or u.state != FORMED:
                continue
            key = (u.p.limit - u.casualties, u.p.rating is Rating.A)
            if best is None or key < best_key:
                best, best_key = u, key
        return best

    def formations(self, c: _Corps, t: _Corps) -> None:
        """Formed brigades take the formation their next action wants, as far as the pips go:
        near the enemy infantry deploy (column of attack to attack, line to fire), the one the
        enemy cavalry would charge forms square, cavalry form line to charge."""
        if c.p.town:
            return
        orders = c.p.orders
        gap = self.gap(c, t)
        stop = ADVANCE_TO.get(orders)
        if stop is not None and gap > stop:
            gap -= 1                 # where the corps will be after its advance this move
        if gap > SHORT_RANGE_GAP:
            return
        deploy = Formation.COLUMN_OF_ATTACK if orders is CorpsOrder.ATTACK else Formation.LINE
        square = None if orders is CorpsOrder.ATTACK else self.threatened(c, gap)
        for u in c.fighting:
            if u.destroyed or u.state != FORMED or u.pursuing:
                continue
            if u.p.arm is Arm.INFANTRY:
                want = Formation.SQUARE if u is square else deploy
            else:
                want = Formation.CAVALRY_LINE
            if u.form is not want:
                self.reform(u, want, CorpsAction.CHANGE_FORMATION)

    def advance(self, c: _Corps, t: _Corps) -> None:
        if c.p.town:
            return
        gap = self.gap(c, t)
        orders = c.p.orders
        stop = ADVANCE_TO.get(orders)
        if stop is not None and gap > stop and self.spend():
            self.set_gap(c, t, gap - 1)
            self.spent(CorpsAction.MOVE, note="All move forward" if gap - 1 > LONG_RANGE_GAP
                       else f"All advance to {BAND_NAMES[gap - 1]}")
        elif orders is CorpsOrder.WITHDRAW and gap < START_GAP and self.spend():
            self.set_gap(c, t, gap + 1)
            self.spent(CorpsAction.MOVE, note=f"All fall back to {BAND_NAMES[gap + 1]}")

    def combats(self, c: _Corps, t: _Corps) -> None:
        orders = c.p.orders
        gap = self.gap(c, t)
        if orders not in FIGHTING or gap > SHORT_RANGE_GAP:
            return
        for u in c.infantry:
            if u.destroyed or u.state != FORMED:
                continue
            if orders is CorpsOrder.ATTACK and gap > CONTACT_GAP:
                break
            target = self.pick(t.infantry)
            if target is None:
                break
            if orders is CorpsOrder.ATTACK:
                if not self.spend():
                    return
                if target.p.in_town:
                    self.combat(9, u, target, NO_FACTS, GARRISON)
                else:
                    self.combat(13, u, target, NO_FACTS, NO_FACTS)
            else:
                if not self.spend(CorpsAction.INFANTRY_FIRE):
                    return
                if target.p.in_town or u.p.skirmish < target.p.skirmish:
                    self.skirmish(u, target)
                else:
                    self.combat(12, u, target, NO_FACTS, NO_FACTS)
        for u in c.cavalry:
            if u.destroyed or u.state != FORMED or u.pursuing or id(u) in self.charged:
                continue
            target = (self.pick(t.cavalry) or self.chargeable_infantry(u, t)
                      or self.guns_to_charge(t))
            if target is None:
                break
            if not self.spend():
                return
            self.charge(u, target)

    @staticmethod
    def pick(units: list[_Unit]) -> _Unit | None:
        """The enemy brigade of these (one corps' brigades of the arms wanted) nearest its
        rout point, then in the worse state, then first in the order of battle; not routing."""
        best: _Unit | None = None
        best_key = (0, 0)
        for u in units:
            if u.destroyed or u.state == ROUT:
                continue
            key = (u.p.limit - u.casualties, -u.state)
            if best is None or key < best_key:
                best, best_key = u, key
        return best

    def chargeable_infantry(self, cavalry: _Unit, t: _Corps) -> _Unit | None:
        """Enemy infantry out of the town that cavalry may charge (never a formed square, Rule
        8) and would not be worse off charging (their factors at least the infantry's, Rule
        15): the one nearest its rout point."""
        best: _Unit | None = None
        best_key = (0, 0)
        for u in t.infantry:
            if (u.destroyed or u.state == ROUT or u.p.in_town
                    or not may_be_charged(self.ruleset, Arm.INFANTRY, u.form, u.state)):
                continue
            table = combat_table(self.ruleset, 15, cavalry.profile, cavalry.casualties,
                                 cavalry.state, NO_FACTS, u.profile, u.casualties, u.state,
                                 NO_FACTS)
            if not table.attacker_rolls:
                continue
            key = (u.p.limit - u.casualties, -u.state)
            if best is None or key < best_key:
                best, best_key = u, key
        return best

    def guns_to_charge(self, t: _Corps) -> _Unit | None:
        """An enemy battery cavalry may ride down: limbered, or deployed with no formed friend
        to evade behind, where the ruleset has a quick result for it (Rule 8)."""
        guns = self.pick(t.guns)
        if guns is None:
            return None
        if guns.form is Formation.LIMBERED:
            case = QuickCase.LIMBERED_ARTILLERY_CONTACTED_BY_CAVALRY
        elif self.facts(guns) & SUPPORTS:
            return None
        else:
            case = QuickCase.DEPLOYED_ARTILLERY_CHARGED
        return guns if contact_result(self.ruleset, case, Arm.ARTILLERY, guns.state, True,
                                      False) is not None else None

    # -- charges, opportunity charges and reactions (Rules 6, 8, 14, 15)

    def opportunity(self, c: _Corps) -> None:
        """Rule 6: during this corps' move, formed enemy cavalry at short range may charge a
        brigade of it that offers the chance (a column of march, limbered guns, a brigade not
        formed, cavalry in column), if they pass the test; no pips are paid."""
        for e in self.corps:
            if (e.p.side == c.p.side or not e.present or e.withdrawn
                    or self.gap(c, e) > SHORT_RANGE_GAP):
                continue
            for cav in e.cavalry:
                if (cav.destroyed or cav.state != FORMED or cav.pursuing
                        or id(cav) in self.charged):
                    continue
                found = self.opportunity_target(cav, c)
                if found is None:
                    continue
                target, table = found
                face = self.roll(table.dice)
                passed = table.passes[face]
                if self.log is not None:
                    self.log.append(lines.charge_line(cav.p.label, target.p.label, face, passed))
                if passed:
                    self.charge(cav, target)

    def opportunity_target(self, cav: _Unit, c: _Corps) -> tuple[_Unit, TestTable] | None:
        best: tuple[_Unit, TestTable] | None = None
        best_key = (0, 0, 0)
        for u in c.units:
            if u.destroyed or u.state == ROUT or (u.p.in_town and u.p.arm is not Arm.CAVALRY):
                continue
            if not may_be_charged(self.ruleset, u.p.arm, u.form, u.state):
                continue
            table = charge_test_table(self.ruleset, cav.p.rating, cav.casualties, u.p.arm,
                                      u.state, u.form, cav.corps.p.grade)
            if table is None:
                continue
            key = (CHARGE_PREFERENCE.get(u.form, 1), -u.state, u.p.limit - u.casualties)
            if best is None or key < best_key:
                best, best_key = (u, table), key
        return best

    def charge(self, cav: _Unit, target: _Unit) -> None:
        """Cavalry charge from 8 inches, more than half their move (Rule 6): the target
        reacts first if the rules let it (counter charge, square, evade or unlimber; cavalry
        not formed only after making morale, Rule 18), then the contact is settled by Rule 8's
        quick results or fought under Rule 14 or 15."""
        self.charged.add(id(cav))
        reacted = False
        evade = target.corps.p.orders is CorpsOrder.WITHDRAW
        reaction = reaction_for(self.ruleset, target.p.arm, target.form, evade)
        # Rule 18: cavalry Disordered, Shaken or routing test their morale (Rule 17) to react
        by_morale = target.p.arm is Arm.CAVALRY and target.state != FORMED
        table = None if reaction is None else reaction_table(
            self.ruleset, target.p.arm, target.p.rating, target.state, reaction,
            target.casualties, target.corps.p.grade, evade,
            FACTS[self.facts(target)] if by_morale else NO_FACTS)
        if reaction is not None and table is not None:
            face = 0 if table.automatic else self.roll(table.dice)
            reacted = table.passes[face]
            if self.log is not None:
                self.log.append(lines.reaction_line(target.p.label, reaction.value,
                                                    None if table.automatic else face,
                                                    reacted)
                                + (" (Rule 18: morale test)" if by_morale else ""))
            if not reacted and table.fail_casualties:
                self.hit(target, SideHit(table.fail_casualties, target.state, False))
        else:
            reaction = None
        if reacted and reaction is Reaction.EVADE:
            return
        if reacted and target.p.arm is Arm.INFANTRY:
            target.form = Formation.SQUARE
            if self.log is not None:
                self.log.append(lines.formation_line(target.p.label, Formation.SQUARE))
            if self.log is not None:
                self.log.append(square_halt_text(self.ruleset).replace(CHARGER, cav.p.label))
            return
        arm = target.p.arm
        if arm is Arm.CAVALRY:
            stationary = not (reacted and reaction is Reaction.COUNTER_CHARGE)
            self.combat(14, cav, target, NO_FACTS, STATIONARY if stationary else NO_FACTS)
        elif arm is Arm.INFANTRY:
            if target.form is Formation.COLUMN_OF_MARCH and self.quick(
                    cav, target, QuickCase.COLUMN_OF_MARCH_CONTACTED_BY_CAVALRY, False, False):
                return
            if may_be_charged(self.ruleset, arm, target.form, target.state):
                self.combat(15, cav, target, NO_FACTS, NO_FACTS)
        else:
            if reacted:             # the guns unlimbered in time (the 1813 change of formation)
                target.form = Formation.UNLIMBERED
                if self.log is not None:
                    self.log.append(lines.formation_line(target.p.label, Formation.UNLIMBERED))
            if target.form is Formation.LIMBERED:
                self.quick(cav, target, QuickCase.LIMBERED_ARTILLERY_CONTACTED_BY_CAVALRY,
                           False, False)
            else:
                self.quick(cav, target, QuickCase.DEPLOYED_ARTILLERY_CHARGED, True,
                           bool(self.facts(target) & SUPPORTS))

    def quick(self, cav: _Unit, target: _Unit, case: QuickCase, beyond_half: bool,
              supports: bool) -> bool:
        """Rule 8's quick result for this contact, if the ruleset has one: applied."""
        result = contact_result(self.ruleset, case, target.p.arm, target.state, beyond_half,
                                supports)
        if result is None:
            return False
        if self.log is not None:
            self.log.append(lines.quick_line(target.p.label,
                                             result.note.replace(CHARGER, cav.p.label)))
        if result.escaped:
            return True
        if result.removed:
            target.destroyed = True
            self.dirty = True
            return True
        self.hit(target, result.hit)
        if result.hit.new_rout:
            self.cascade([target])
            self.pursuit(cav, target)
        return True

    # -- combats, skirmish, morale

    def combat(self, rule: int, a: _Unit, d: _Unit, a_facts: frozenset[str],
               d_facts: frozenset[str]) -> None:
        table: CombatTable = combat_table(self.ruleset, rule, a.profile, a.casualties, a.state,
                                          a_facts, d.profile, d.casualties, d.state, d_facts)
        faces = table.dice.faces
        total = faces[int(self.rand() * len(faces))]     # self.roll, written out
        row = table.rows[total]
        if self.log is not None:
            roller = a if table.attacker_rolls else d
            self.log.append(lines.combat_line(
                rule, a.p.label, table.attacker_total, d.p.label, table.defender_total,
                roller.p.label, total, table.difference, row.result,
                (lines.effect_text(a.p.label, row.attacker.casualties, row.attacker.shown),
                 lines.effect_text(d.p.label, row.defender.casualties, row.defender.shown))))
        self.hit(a, row.attacker)
        self.hit(d, row.defender)
        routed = [u for u, h in ((a, row.attacker), (d, row.defender)) if h.new_rout]
        if routed:
            self.cascade(routed)
        if row.attacker_pursues:
            self.pursuit(a, d)
        if row.defender_pursues:
            self.pursuit(d, a)

    def hit(self, u: _Unit, h: SideHit) -> None:
        u.casualties += h.casualties
        u.state = h.state
        self.dirty = True
        if h.state == ROUT:
            u.pursuing = False          # routing, no longer pursuing (as at the table)

    def skirmish(self, a: _Unit, d: _Unit) -> None:
        table = skirmish_table(self.ruleset, a.profile, a.casualties, a.state,
                               IN_COVER if d.p.in_town else NO_FACTS, d.profile, d.casualties,
                               d.state, NO_FACTS)
        faces = table.dice.faces
        rand, n = self.rand, len(faces)
        fa = faces[int(rand() * n)]                      # self.roll, written out
        fd = faces[int(rand() * n)]
        a_hit, a_tests, d_hit, d_tests = table.rows[(fa, fd)]
        if self.log is not None:
            losers = tuple(u.p.label for u, h in ((a, a_hit), (d, d_hit)) if h.casualties)
            self.log.append(lines.skirmish_line(a.p.label, fa, d.p.label, fd, losers))
        self.hit(a, a_hit)
        self.hit(d, d_hit)
        routed = [u for u, h in ((a, a_hit), (d, d_hit)) if h.new_rout]
        for u, tests in ((a, a_tests), (d, d_tests)):
            if tests and self.morale(u, 0, False):
                routed.append(u)
        if routed:
            self.cascade(routed)

    def facts(self, u: _Unit) -> int:
        """The morale facts of a brigade: in the town; formed friends of its corps near it
        (supports) or none; pursuing."""
        mask = IN_BUA if u.p.in_town else 0
        for f in u.corps.units:
            if f is not u and f.state == FORMED and not f.destroyed:
                mask |= SUPPORTS
                break
        if u.pursuing:
            mask |= PURSUIT
        return mask

    def morale(self, u: _Unit, extra: int, rallying: bool) -> bool:
        """A morale test (a rally when ``rallying``); whether the brigade newly routs."""
        p = u.p
        mask = self.facts(u) | extra
        key = (u.casualties << 8) | (u.state << 6) | (mask << 1) | rallying
        table = p.morale_tables.get(key)
        if table is None:
            table = p.morale_tables[key] = morale_table(
                self.ruleset, p.arm, p.rating, u.casualties, u.state, FACTS[mask], rallying)
        if table.automatic:
            row = table.rows[0]
            if self.log is not None:
                self.log.append(lines.automatic_rout_line(u.p.label, u.casualties))
        else:
            faces = table.dice.faces
            face = faces[int(self.rand() * len(faces))]  # self.roll, written out
            row = table.rows[face]
            if self.log is not None:
                self.log.append(lines.morale_line(rallying, u.p.label, face, row.text))
        u.state = row.state
        self.dirty = True
        if row.state == ROUT:
            u.pursuing = False
        return row.new_rout

    def cascade(self, routed: list[_Unit]) -> None:
        """Rule 16: each new rout makes every friend of its corps react, breadth first."""
        queue = list(routed)
        while queue:
            r = queue.pop(0)
            near = [f for f in r.corps.units
                    # A brigade already routing has run its rout move to the rear, out of reach.
                    if f is not r and not f.destroyed and f.state != ROUT]
            if self.log is not None and near:
                self.log.append(lines.rout_reaction_line(r.p.label,
                                                         tuple(f.p.label for f in near)))
            for f in near:
                if f.state == ROUT:
                    continue
                action = reaction_action(self.ruleset, f.state)
                if action == "rout":
                    f.state = ROUT
                    self.dirty = True
                    f.pursuing = False
                    queue.append(f)
                elif self.morale(f, ROUT_NEAR, False):
                    queue.append(f)

    def pursuit(self, cavalry: _Unit, routers: _Unit) -> None:
        """Rule 16: cavalry that caused a rout may pursue."""
        if cavalry.destroyed or cavalry.state == ROUT or cavalry.pursuing:
            return
        table = pursuit_table(self.ruleset, cavalry.p.nation)
        first = self.roll(table.dice)
        if not table.pursues[first]:
            if self.log is not None:
                self.log.append(lines.pursuit_line(cavalry.p.label, first, None, ""))
            return
        second = self.roll(table.dice)
        row = table.rows[second]
        cavalry.pursuing = True
        if self.log is not None:
            self.log.append(lines.pursuit_line(cavalry.p.label, first, second, row.result))
        if row.action == "routers" and row.casualties and not routers.destroyed:
            self.hit(routers, SideHit(row.casualties, routers.state, False))

    def rally_pursuers(self, u: _Unit) -> None:
        table = rally_pursuers_table(self.ruleset, u.p.rating, u.casualties, u.state,
                                     FACTS[self.facts(u) & ~PURSUIT])
        u.pursuing = False
        face = 0 if table.automatic else self.roll(table.dice)
        row = table.rows[face]
        if self.log is not None:
            self.log.append(lines.rally_pursuers_line(u.p.label,
                                                      None if table.automatic else face,
                                                      STATE_ORDER[row.state]))
        u.state = row.state
        self.dirty = True
        if row.new_rout:
            self.cascade([u])

    def send_back(self, u: _Unit) -> None:
        """Rule 16: pursuers no commander can rally return to their own lines (Shaken)."""
        u.pursuing = False
        u.state = pursuers_sent_back_state(self.ruleset, u.state)
        self.dirty = True
        if self.log is not None:
            self.log.append(lines.pursuers_not_rallied_line(u.p.label, STATE_ORDER[u.state]))

    def rallies(self, waiting: list[_Unit]) -> None:
        """Rules 16-18: routing, then Shaken brigades test; the commander pays for rallies."""
        cost = self.cost[CorpsAction.RALLY]
        for wanted in (ROUT, SHAKEN):
            for u in waiting:
                if u.destroyed or u.state != wanted or u.pursuing:
                    continue
                if u.state == ROUT and u.casualties >= u.p.limit:
                    continue
                if self.pips >= cost:
                    self.pips -= cost
                    routs = self.morale(u, 0, True)
                elif u.state == SHAKEN:
                    routs = self.morale(u, 0, False)
                else:
                    continue
                if routs:
                    self.cascade([u])

    def cinc_move(self, chip: ChipPlan, label: str) -> None:
        """The CinC rallies the brigades of the corps of his side most in need of it, pursuing
        cavalry first (Rule 16: a corps commander or the CinC rallies them)."""
        self.header(chip.nation or chip.side, "CinC", label)
        pips = self.roll_pips(chip.grade)
        if pips <= 0:
            return
        best: _Corps | None = None
        best_count = 0
        for c in self.corps:
            if c.p.side != chip.side or not c.present or c.withdrawn:
                continue
            count = sum(1 for u in c.units if self.wants_rally(u))
            if count > best_count:
                best, best_count = c, count
        if best is None:
            if self.log is not None:
                self.log.append("No brigade to rally")
            return
        if self.log is not None:
            self.log.append(f"Move to {best.p.key}")
        self.pips = pips
        self.reserve = 0
        waiting = [u for u in best.units if self.wants_rally(u)]
        cost = self.cost[CorpsAction.RALLY]
        rallied: list[_Unit] = []
        for u in waiting:
            # Pursuers he cannot pay for keep pursuing until their own commander's move.
            if u.pursuing and self.pips >= cost:
                self.pips -= cost
                self.rally_pursuers(u)
                rallied.append(u)
        # One test a brigade: pursuers just rallied are done.
        self.rallies([u for u in waiting if u not in rallied])

    # -- the army break and nightfall

    def judge(self) -> None:
        """The army break (army.py's reading), after every move; broken corps withdraw."""
        if not self.dirty:
            return          # no brigade's state has changed since the last judgement
        self.dirty = False
        broken = self.broken
        newly: list[_Corps] = []
        for c in self.corps:
            if c.present and not c.withdrawn:
                down = 0
                for u in c.units:
                    if u.destroyed or broken[u.state]:
                        down += 1
                if down >= c.breaks_at:
                    newly.append(c)
        if not newly and self.plan.judged_by_breaks:
            # The corps broken are those already withdrawn, which broke no army when they
            # withdrew: nothing has changed.
            return
        # Every corps of a side counts, arrived or not; one not yet arrived is not broken
        # (army.side_lost, the reading the table uses too).
        counts = {FRENCH: [0, 0], ALLIED: [0, 0]}      # corps of the side, corps broken
        for c in self.corps:
            count = counts[c.p.side]
            count[0] += 1
            if c.present and (c.withdrawn or c in newly):
                count[1] += 1
        lost = [side for side in SIDES if counts[side][0] and
                counts[side][1] >= side_break_count(self.ruleset, counts[side][0])]
        if lost:
            if len(lost) == 2:
                self.winner = None
                self.reason = f"both armies broke on turn {self.turn}"
            else:
                self.winner = ALLIED if lost[0] == FRENCH else FRENCH
                self.reason = f"the {lost[0]} army broke on turn {self.turn}"
            # The table's words for the break (fight.py writes the same lines).
            for c in newly:
                if self.log is not None:
                    self.log.append(lines.corps_broken_line(c.p.key))
            for side in sorted(lost):
                if self.log is not None:
                    self.log.append(lines.army_broken_line(side))
            raise _Over
        for c in newly:
            c.withdrawn = True
            if self.log is not None:
                self.log.append(lines.corps_broken_line(c.p.key))
            if self.log is not None:
                self.log.append(f"{c.p.key} withdraws")
        if newly:
            self.retarget()

    def nightfall(self) -> None:
        place = self.plan.setup.place
        holders = [s for s in SIDES if any(c.p.side == s and c.p.town and c.present
                                            and not c.withdrawn for c in self.corps)]
        garrisons = [s for s in SIDES if any(c.p.side == s and c.p.town for c in self.corps)]
        if len(holders) == 1:
            self.winner = holders[0]
            self.reason = f"night fell with the {holders[0]} holding {place}"
        elif not holders and len(garrisons) == 1:
            self.winner = ALLIED if garrisons[0] == FRENCH else FRENCH
            self.reason = (f"night fell with the {self.winner} holding {place}, "
                           f"taken from the {garrisons[0]}")
        elif holders:
            self.reason = f"night fell with both sides in {place}"
        else:
            self.reason = f"night fell with neither side holding {place}"
        if self.log is not None:
            self.log.append(self.reason[:1].upper() + self.reason[1:])

    def outcomes(self) -> tuple[BrigadeOutcome, ...]:
        return tuple(BrigadeOutcome(u.p.key, u.p.name, c.p.key, u.casualties,
                                    STATE_ORDER[u.state], u.destroyed)
                     for c in self.corps for u in c.units)


# --- the public functions ------------------------------------------------------------------


def _fight(plan: Plan, seed: int, report: bool) -> tuple[_Battle, int]:
    battle = _Battle(plan, seed, report)
    turns = battle.fight()
    return battle, turns


def resolve(setup: BattleSetup, seed: int | None = None) -> AutoResult:
    """Fight one abstract battle; ``seed`` defaults to the setup's. Same seed, same battle."""
    plan = plan_of(setup)
    used = setup.seed if seed is None else seed
    battle, turns = _fight(plan, used, True)
    assert battle.log is not None
    return AutoResult(auto_outcome(battle.winner), battle.reason, turns, used, battle.outcomes(),
                      tuple(battle.log))


def estimate(setup: BattleSetup, runs: int, seed: int = 0,
             progress: Progress = None) -> AutoOdds:
    """Fight ``runs`` independent battles (run ``i`` seeded by ``run_seed(seed, i)``) and count.

    ``progress(done, total)`` is called after every hundredth of the runs and at the end; if it
    returns False the estimate stops there and says how many runs it made.
    """
    if runs < 1:
        raise ValueError(f"an estimate needs at least one run, not {runs}")
    engine = EstimateEngine(plan_of(setup))
    odds = count_results(runs, lambda run: engine.fight(run_seed(seed, run)), progress)
    engine.store.write()        # the tables built, kept for the next process
    return odds
