"""Auto-resolve's estimate engine: the battles of one plan fought over lists of whole numbers.

:func:`.autoresolve.estimate` fights ten thousand battles of one setup to count who wins, and
needs only each battle's winner. This engine fights them by the same procedure as the reported
battle of :mod:`.autoresolve` (the same chips drawn, the same dice rolled in the same order, the
same results read off the same tables of :mod:`.auto_tables`), but keeps the battle's state as
lists indexed by brigade and corps instead of an object per brigade, reads each table once per
situation under one key, and makes no report. So run *i* of an estimate is exactly the battle
``resolve`` fights and reports for the run's seed; ``tests/battle/test_auto_estimate.py`` holds
the two engines to the same winner and the same end of every brigade, battle by battle.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from campaign1813.campaign.battle.ruleset1813.auto_plan import (
    ADVANCE_TO,
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
    Plan,
)
from campaign1813.campaign.battle.ruleset1813.auto_tables import (
    DISORDERED,
    FORMED,
    ROUT,
    SHAKEN,
    CombatTable,
    SideHit,
    charge_test_table,
    combat_table,
    contact_result,
    fire_table_for,
    may_be_charged,
    morale_table,
    pips_table,
    pursuers_sent_back_state,
    pursuit_table,
    rally_pursuers_table,
    reaction_action,
    reaction_for,
    reaction_table,
    side_break_count,
    skirmish_table,
)
from campaign1813.campaign.battle.ruleset1813.rules.artillery import RangeBand, Target
from campaign1813.campaign.battle.ruleset1813.rules.opportunity import Reaction
from campaign1813.campaign.battle.ruleset1813.rules.quick import QuickCase
from campaign1813.campaign.battle.ruleset1813.rules.tables.command import CorpsAction
from campaign1813.campaign.battle.ruleset1813.table_store import key as stored_key
from campaign1813.campaign.battle.ruleset1813.table_store import store_for
from campaign1813.campaign.battle.setup import ALLIED, FRENCH
from campaign1813.campaign.battle.terms import Arm, CorpsOrder, Formation, Grade, Rating

__all__ = ["EstimateEngine", "shuffle"]

# Formations as whole numbers (their place in the enum), so a table's key is one number.
_FORMS = tuple(Formation)
_FORM = {f: i for i, f in enumerate(_FORMS)}
_LINE, _COLUMN_OF_ATTACK, _COLUMN_OF_MARCH, _SQUARE, _CAVALRY_LINE, _LIMBERED, _UNLIMBERED = (
    _FORM[Formation.LINE], _FORM[Formation.COLUMN_OF_ATTACK], _FORM[Formation.COLUMN_OF_MARCH],
    _FORM[Formation.SQUARE], _FORM[Formation.CAVALRY_LINE], _FORM[Formation.LIMBERED],
    _FORM[Formation.UNLIMBERED])
# Arms as whole numbers.
_INF, _CAV, _ART = 0, 1, 2
_ARM = {Arm.INFANTRY: _INF, Arm.CAVALRY: _CAV, Arm.ARTILLERY: _ART}
_ARMS = (Arm.INFANTRY, Arm.CAVALRY, Arm.ARTILLERY)
_TARGET_CODE = {t: i for i, t in enumerate(Target)}
# Chips by kind.
_CORPS_CHIP, _CINC_CHIP, _POOR_CHIP, _GIFTED_CHIP, _TACTICAL_CHIP = range(5)
_CHIP_KIND = {"corps": _CORPS_CHIP, "cinc": _CINC_CHIP, "poor": _POOR_CHIP,
              "gifted": _GIFTED_CHIP, "tactical": _TACTICAL_CHIP}
_NOT_A_FACT, _GARRISONED, _STANDING = 0, 1, 2
_FACT_SETS = (NO_FACTS, GARRISON, STATIONARY)
# Every table below is kept by draw: a roll is ``int(random() * n)`` (the place of one of the
# dice's n equally likely faces, as ``roll`` draws it), and the table holds the result of the
# face at each place, so a roll is one index. The rows are the store's lists (JSON's, or as
# built), shared by the draws that give the same row.
# One combat row: the attacker's casualties, state, new rout; the defender's the same; then
# whether the attacker and the defender pursue.
_CombatRow = list[Any]
# A combat: n, each draw's row, and whether the attacker rolls.
_Flat = tuple[int, list[_CombatRow], bool]
# A morale test: n (0 when automatic: no roll), and each draw's state after and new rout.
_Morale = tuple[int, tuple[tuple[int, bool], ...]]
# One skirmish row: the attacker's casualties, state, new rout and whether it tests its
# morale; the defender's the same.
_SkirmishRow = list[Any]
# A skirmish: n, and by (attacker's draw * n + defender's draw) the results.
_Skirmish = tuple[int, list[_SkirmishRow]]
# Rule 7: n, and each draw's hits.
_Fire = tuple[int, tuple[int, ...]]
# Rule 6's charge test: n, and whether each draw passes.
_Test = tuple[int, tuple[bool, ...]]
# Rule 6's reaction: n (0 when automatic: no roll), whether each draw passes, and the
# casualties a failure costs.
_Reaction = tuple[int, tuple[bool, ...], int]
_REACTION_CODE = {r: i for i, r in enumerate(Reaction)}


def shuffle(getrandbits: Callable[[int], int], x: list[int]) -> None:
    """Shuffle ``x`` in place exactly as ``random.Random.shuffle`` does, drawing the same bits.

    CPython's shuffle is plain Python: for each place from the last down to the second it
    draws a place at or before it by rejection from ``getrandbits``, taking as many bits as
    the count of places has. This is that loop without its calls per place; a test holds it
    to ``random.shuffle`` over many seeds and lengths.
    """
    i = len(x) - 1
    while i > 0:
        k = (i + 1).bit_length()
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
        i -= 1


def _flat_hit(h: SideHit) -> tuple[int, int, bool]:
    return h.casualties, h.state, h.new_rout


def _by_draw(rows: list[list[Any]]) -> tuple[list[list[Any]], list[int]]:
    """Rows as the store keeps them: each different row once, and each draw's row by its
    place among them."""
    distinct: list[list[Any]] = []
    place: dict[tuple[Any, ...], int] = {}
    by_draw = []
    for row in rows:
        i = place.setdefault(tuple(row), len(distinct))
        if i == len(distinct):
            distinct.append(row)
        by_draw.append(i)
    return distinct, by_draw


def _stored_combat(table: CombatTable) -> list[Any]:
    """A combat table as the store keeps it: the draws, the rows, each draw's row, who
    rolls."""
    rows = [list(_flat_hit(r.attacker) + _flat_hit(r.defender)
                 + (r.attacker_pursues, r.defender_pursues)) for r in table.rows]
    distinct, by_draw = _by_draw([rows[f] for f in table.dice.faces])
    return [len(table.dice.faces), distinct, by_draw, table.attacker_rolls]


class EstimateEngine:
    """Fights battles of one plan and tells each one's winner (only for estimates)."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.ruleset = ruleset = plan.ruleset
        self.rng = random.Random()
        # The tables built before, by this process or (on disk) an earlier one.
        self.store = store_for(ruleset)
        self.random = self.rng.random
        # The brigades, numbered across the corps in the order of battle.
        units = [(ci, u) for ci, c in enumerate(plan.corps) for u in c.units]
        self.n = len(units)
        self.u_corps = [ci for ci, _ in units]
        self.u_arm = [_ARM[u.arm] for _, u in units]
        self.u_rating = [u.rating for _, u in units]
        self.u_a = [u.rating is Rating.A for _, u in units]
        self.u_skirmish = [u.skirmish for _, u in units]
        self.u_limit = [u.limit for _, u in units]
        self.u_town = [u.in_town for _, u in units]
        self.u_nation = [u.nation for _, u in units]
        self.u_calibre = [u.calibre for _, u in units]
        self.u_profiles = [{_FORM[f]: p for f, p in u.profiles.items()} for _, u in units]
        self.u_profile_keys = [{f: stored_key(*p) for f, p in profiles.items()}
                               for profiles in self.u_profiles]
        self.start_casualties = [u.casualties for _, u in units]
        self.start_forms = [_FORM[u.first] for _, u in units]
        self.u_target_kind = [Target.BUILDINGS if u.in_town else TARGET_OF_ARM[u.arm]
                              for _, u in units]
        self.u_target_code = [_TARGET_CODE[kind] for kind in self.u_target_kind]
        self.u_bua = [IN_BUA if u.in_town else 0 for _, u in units]
        # The corps: each one's brigades by number, and by arm.
        self.c_units: list[list[int]] = [[] for _ in plan.corps]
        self.c_inf: list[list[int]] = [[] for _ in plan.corps]
        self.c_cav: list[list[int]] = [[] for _ in plan.corps]
        self.c_guns: list[list[int]] = [[] for _ in plan.corps]
        self.c_fighting: list[list[int]] = [[] for _ in plan.corps]
        for i, (ci, u) in enumerate(units):
            self.c_units[ci].append(i)
            if u.arm is Arm.INFANTRY:
                self.c_inf[ci].append(i)
                self.c_fighting[ci].append(i)
            elif u.arm is Arm.CAVALRY:
                self.c_cav[ci].append(i)
                self.c_fighting[ci].append(i)
            else:
                self.c_guns[ci].append(i)
        # Each brigade's friends: the other brigades of its corps, in the order of battle.
        self.u_friends = [[f for f in self.c_units[ci] if f != i] for i, (ci, _) in
                          enumerate(units)]
        self.nc = len(plan.corps)
        self.c_side = [c.side for c in plan.corps]
        self.c_rank = [c.rank for c in plan.corps]
        self.c_town = [c.town for c in plan.corps]
        self.c_arrival = [c.arrival for c in plan.corps]
        self.start_present = [c.arrival <= 1 for c in plan.corps]
        self.c_grade = [c.grade for c in plan.corps]
        self.c_orders = [c.orders for c in plan.corps]
        self.c_stop = [ADVANCE_TO.get(c.orders, -1) for c in plan.corps]
        self.c_breaks_at = list(plan.breaks_at)
        corps_of_side = {s: sum(1 for c in plan.corps if c.side == s) for s in SIDES}
        self.side_needs = {s: side_break_count(ruleset, corps_of_side[s]) for s in SIDES}
        self.corps_of_side = corps_of_side
        self.chips = plan.chips
        self.chip_kind = [_CHIP_KIND[c.kind] for c in plan.chips]
        self.chip_corps = [c.corps for c in plan.chips]
        # What every battle reads of the ruleset.
        self.cost_move = plan.costs[CorpsAction.MOVE]
        self.cost_rally = plan.costs[CorpsAction.RALLY]
        self.cost_guns = plan.costs[CorpsAction.ARTILLERY_ACTION]
        self.cost_fire = plan.costs[CorpsAction.INFANTRY_FIRE]
        self.cost_form = plan.costs[CorpsAction.CHANGE_FORMATION]
        self.broken = plan.broken
        self.re_formed = plan.re_formed
        self.rout_reacts = [reaction_action(ruleset, s) == "rout" for s in range(4)]
        self.sent_back = [pursuers_sent_back_state(ruleset, s) for s in range(4)]
        # Each grade's pips by draw, and each corps commander's.
        self.pips: dict[Grade, tuple[int, tuple[int, ...]]] = {}
        for g in Grade:
            dice, by_face = pips_table(ruleset, g)
            self.pips[g] = (len(dice.faces), tuple(by_face[f] for f in dice.faces))
        # What a corps' move reads of its corps, in one piece.
        self.c_move = [
            (self.c_grade[c], self.pips[self.c_grade[c]], self.c_units[c], self.c_guns[c],
             self.c_fighting[c], self.c_town[c], self.c_stop[c],
             self.c_orders[c] is CorpsOrder.ATTACK, self.c_orders[c] is CorpsOrder.WITHDRAW,
             self.c_orders[c] in FIGHTING) for c in range(self.nc)]
        # The tables met so far, each under one key.
        self.morale_tables: dict[int, _Morale] = {}
        self.u_mkey = [u << 15 for u in range(self.n)]      # a brigade's part of that key
        self.fire_tables: dict[int, _Fire] = {}
        self.combat_tables: dict[int, _Flat] = {}
        self.skirmish_tables: dict[int, _Skirmish] = {}
        self.charge_tests: dict[int, _Test | None] = {}
        self.reactions: dict[int, _Reaction | None] = {}
        self.chargeable: dict[int, bool] = {}
        # The battle in progress (set by fight).
        self.cas: list[int] = []
        self.st: list[int] = []
        self.gone: list[bool] = []
        self.purs: list[bool] = []
        self.form: list[int] = []
        self.present: list[bool] = []
        self.withdrawn: list[bool] = []
        self.target: list[int] = []
        self.gaps: list[list[int]] = []
        self.turn = 0
        self.poor_pending = False
        self.moved: set[int] = set()
        self.left = 0                   # the pips left to the commander moving
        self.charged: set[int] = set()
        self.dirty = True
        self.winner: str | None = None
        # What every battle starts from, and reads of the plan, made once.
        # the states not broken, the formed first (the commonest)
        self.unbroken_states = [s for s in range(len(self.broken)) if not self.broken[s]]
        self.fewest = min(self.c_breaks_at)
        # each corps' brigades are numbered one after another
        self.spans = [(units[0], units[-1] + 1) for units in self.c_units]
        self.all_chips = list(range(len(self.chips)))
        # the bag holds every chip while every corps stands and there is no CinC's chip
        self.plain_bag = _CINC_CHIP not in self.chip_kind
        self.start_gaps = [[START_GAP] * self.nc for _ in range(self.nc)]
        self.present = self.start_present[:]
        self.withdrawn = [False] * self.nc
        self.target = [-1] * self.nc
        self.retarget()             # turn 1's targets: the same in every battle
        self.start_target = self.target[:]

    # -- one battle

    def fight(self, seed: int) -> str | None:
        """Fight the battle of ``seed`` (``resolve``'s battle for that seed); its winner."""
        rng = self.rng
        rng.seed(seed)
        n, nc = self.n, self.nc
        self.cas = self.start_casualties[:]
        self.st = st = [FORMED] * n
        self.gone = gone = [False] * n
        self.purs = purs = [False] * n
        self.form = self.start_forms[:]
        self.present = present = self.start_present[:]
        self.withdrawn = withdrawn = [False] * nc
        self.target = self.start_target[:]
        self.gaps = [row[:] for row in self.start_gaps]
        self.charged.clear()
        self.winner = None
        re_formed, arrival = self.re_formed, self.c_arrival
        chips, kinds, chip_corps = self.chips, self.chip_kind, self.chip_corps
        c_units, breaks_at, broken = self.c_units, self.c_breaks_at, self.broken
        getrandbits, corps_move = rng.getrandbits, self.corps_move
        by_breaks = self.plan.judged_by_breaks
        unbroken_states, fewest, spans = self.unbroken_states, self.fewest, self.spans
        all_chips, plain_bag = self.all_chips, self.plain_bag
        all_corps = range(nc)
        for turn in range(1, self.plan.setup.turns + 1):
            self.turn = turn
            self.dirty = True
            if turn > 1 and False in present:
                # Targets change only when a corps arrives (or withdraws: army_break).
                arrived = False
                for c in all_corps:
                    if not present[c] and arrival[c] == turn:
                        present[c] = arrived = True
                if arrived:
                    self.retarget()
            # Every chip drawn once, in a seeded order.
            if plain_bag and False not in present and True not in withdrawn:
                bag = all_chips[:]
            else:
                bag = []
                for k in all_chips:
                    kind = kinds[k]
                    if kind == _CORPS_CHIP:
                        c = chip_corps[k]
                        if present[c] and not withdrawn[c]:
                            bag.append(k)
                    elif kind != _CINC_CHIP or self.cinc_in_bag(chips[k]):
                        bag.append(k)
            shuffle(getrandbits, bag)
            self.poor_pending = False
            moved: set[int] = set()
            self.moved = moved
            for position, k in enumerate(bag):
                kind = kinds[k]
                if kind == _CORPS_CHIP:
                    c = chip_corps[k]
                    if withdrawn[c] or c in moved:
                        continue
                    corps_move(c)
                elif kind == _CINC_CHIP:
                    if -1 - position in moved:
                        continue
                    self.cinc_move(chips[k])
                elif kind == _POOR_CHIP:
                    self.poor_chip(bag, position)
                else:
                    self.early_chip(k, bag, position)
                if self.dirty:
                    # The army break, judged after a move that changed a brigade's state.
                    self.dirty = False
                    # Fewer brigades down in the whole battle than any corps needs to break
                    # (counted at once by the lists): no corps breaks. A list counts the
                    # values most of it holds quickest, so the brigades not broken are
                    # counted (the formed first) and the destroyed by those that are not.
                    destroyed = n - gone.count(False)
                    if by_breaks:
                        down = destroyed + n
                        for s in unbroken_states:
                            down -= st.count(s)
                            if down < fewest:
                                break
                        if down < fewest:
                            continue
                    newly = []
                    for c in all_corps:
                        if present[c] and not withdrawn[c]:
                            first, last = spans[c]
                            if destroyed and True in gone[first:last]:
                                down = 0
                                for u in c_units[c]:
                                    if gone[u] or broken[st[u]]:
                                        down += 1
                            else:
                                states = st[first:last]
                                down = last - first
                                for s in unbroken_states:
                                    down -= states.count(s)
                            if down >= breaks_at[c]:
                                newly.append(c)
                    if (newly or not by_breaks) and self.army_break(newly):
                        return self.winner
            if st.count(FORMED) < n and DISORDERED in st:
                for u in range(n):
                    if st[u] == DISORDERED and not purs[u]:
                        st[u] = re_formed
                        self.dirty = True
        return self.nightfall()

    def ends(self) -> list[tuple[int, int, bool]]:
        """Each brigade's casualties, state and whether destroyed, after the last battle."""
        return list(zip(self.cas, self.st, self.gone, strict=True))

    def retarget(self) -> None:
        """Each corps faces the enemy corps of its rank, else the first enemy corps standing."""
        present, withdrawn, target, side = self.present, self.withdrawn, self.target, self.c_side
        for c in range(self.nc):
            if not present[c] or withdrawn[c]:
                continue
            t = target[c]
            if t >= 0 and present[t] and not withdrawn[t]:
                continue
            enemies = [e for e in range(self.nc)
                       if side[e] != side[c] and present[e] and not withdrawn[e]]
            same = [e for e in enemies if self.c_rank[e] == self.c_rank[c]]
            target[c] = (same or enemies)[0] if enemies else -1

    def cinc_in_bag(self, chip: ChipPlan) -> bool:
        """A CinC's chip is in the bag from his turn on, while a corps of his side stands."""
        present, withdrawn = self.present, self.withdrawn
        return self.turn >= chip.arrival and any(
            present[c] and not withdrawn[c] and self.c_side[c] == chip.side
            for c in range(self.nc))

    # -- the special chips

    def will_move(self, k: int, position: int) -> bool:
        """Whether chip ``k`` at this place in the bag still gives a move this turn."""
        kind = self.chip_kind[k]
        if kind == _CORPS_CHIP:
            c = self.chip_corps[k]
            return not self.withdrawn[c] and c not in self.moved
        return kind == _CINC_CHIP and -1 - position not in self.moved

    def poor_chip(self, bag: list[int], position: int) -> None:
        """The Poor chip: the next Poor commander still to move this turn loses his move."""
        if self.plan.poor_in_battle and any(
                self.chips[k].grade is Grade.POOR and self.will_move(k, later)
                for later, k in enumerate(bag[position + 1:], position + 1)):
            self.poor_pending = True

    def early_chip(self, k: int, bag: list[int], position: int) -> None:
        """A gifted chip moves a Gifted general of its side early; the French tactical chip a
        French corps still on its blinds."""
        chip = self.chips[k]
        kind = self.chip_kind[k]
        for later, other_k in enumerate(bag[position + 1:], position + 1):
            other = self.chips[other_k]
            if other.side != chip.side or not self.will_move(other_k, later):
                continue
            if kind == _GIFTED_CHIP and other.grade is not Grade.GIFTED:
                continue
            if other.kind == "corps":
                c = other.corps
                t = self.target[c]
                if kind == _TACTICAL_CHIP and t >= 0 and self.gaps[c][t] < START_GAP - 1:
                    continue
                self.moved.add(c)
                self.corps_move(c)
                return
            if kind == _GIFTED_CHIP:
                self.moved.add(-1 - later)
                self.cinc_move(other)
                return

    # -- a commander's move

    def roll_pips(self, grade: Grade) -> int:
        """A commander's pips (-1 for a move lost to the Poor chip)."""
        if self.poor_pending and grade is Grade.POOR:
            self.poor_pending = False
            return -1
        n, by_draw = self.pips[grade]
        return by_draw[int(self.random() * n)]

    def corps_move(self, c: int) -> None:
        """A corps commander's move: pursuers rally, guns fire, brigades form, the corps
        advances, its brigades fight, enemy cavalry may charge it, and its brigades rally.
        Written out as one piece (it runs at every move of every battle)."""
        random = self.random
        cas, st, gone, purs, form = self.cas, self.st, self.gone, self.purs, self.form
        limit = self.u_limit
        (grade, (pip_draws, pips_by_draw), units, guns, fighting, town, stop, attack, withdraws,
         fights) = self.c_move[c]
        if self.poor_pending and grade is Grade.POOR:
            self.poor_pending = False
            pips = -1
        else:
            pips = pips_by_draw[int(random() * pip_draws)]
        lost = pips < 0
        # the brigades waiting to rally (none while every brigade of the battle is formed or
        # Disordered and none is pursuing, which the lists tell at once: counting the values
        # they mostly hold is quickest)
        n = self.n
        waiting = [u for u in units if not gone[u] and (
            purs[u] or st[u] == SHAKEN or (st[u] == ROUT and cas[u] < limit[u]))] if (
            st.count(FORMED) + st.count(DISORDERED) < n or purs.count(False) < n) else []
        left = pips if pips > 0 else 0
        charged = self.charged          # the cavalry that charged in this move: none yet
        if charged:
            charged.clear()
        # One pip set aside for each brigade already waiting to rally.
        reserve = len(waiting)
        pursuers = [u for u in waiting if purs[u]] if waiting and not lost else []
        for u in pursuers:
            reserve -= 1
            if left >= self.cost_rally:
                left -= self.cost_rally
                self.rally_pursuers(u)
            else:
                self.send_back(u)
        t = self.target[c]
        if t >= 0:
            gaps = self.gaps[c]
            gap = gaps[t]
            if gap <= LONG_RANGE_GAP:
                # Rule 7: the guns fire (unlimbering first for the pips of an artillery action;
                # even on a move lost to the Poor chip, without pips).
                cost = self.cost_guns
                for g in guns:
                    if gone[g] or st[g] != FORMED:
                        continue
                    if form[g] == _LIMBERED:
                        if lost or left - cost < reserve:
                            continue
                        left -= cost
                        form[g] = _UNLIMBERED
                    if not lost:
                        if left - cost < reserve:
                            break
                        left -= cost
                    # the enemy brigade nearest its rout point (pick), fighting arms first
                    target = -1
                    best_key = 0
                    for u in self.c_fighting[t]:
                        s = st[u]
                        if gone[u] or s == ROUT:
                            continue
                        key = (limit[u] - cas[u]) * 4 - s
                        if target < 0 or key < best_key:
                            target, best_key = u, key
                    if target < 0:
                        for u in self.c_guns[t]:
                            s = st[u]
                            if gone[u] or s == ROUT:
                                continue
                            key = (limit[u] - cas[u]) * 4 - s
                            if target < 0 or key < best_key:
                                target, best_key = u, key
                        if target < 0:
                            break
                    long = gap == LONG_RANGE_GAP
                    key = (((g << 8 | cas[g]) << 5 | self.u_target_code[target]) << 1) | long
                    table = self.fire_tables.get(key)
                    if table is None:
                        table = self.fire_table(g, target, long, key)
                    draws, hits_by_draw = table
                    hits = hits_by_draw[int(random() * draws)]
                    if hits:
                        cas[target] += hits
                        if self.morale(target, 0, False):
                            self.cascade([target])
            if not lost:
                if gap <= SHORT_RANGE_GAP + 1 and not town:
                    # Formed brigades take the formation their next action wants.
                    near = gap - 1 if stop >= 0 and gap > stop else gap
                    if near <= SHORT_RANGE_GAP:
                        deploy = _COLUMN_OF_ATTACK if attack else _LINE
                        # Unless on Attack, the infantry brigade the enemy's formed cavalry
                        # would charge next (the nearest its rout point, then not A class)
                        # forms square while such cavalry stand.
                        square = -1
                        if not attack:
                            for e in self.c_cav[t]:
                                if st[e] == FORMED and not gone[e] and not purs[e]:
                                    best_key = 0
                                    a = self.u_a
                                    for u in self.c_inf[c]:
                                        if gone[u] or st[u] != FORMED:
                                            continue
                                        key = (limit[u] - cas[u]) * 2 + a[u]
                                        if square < 0 or key < best_key:
                                            square, best_key = u, key
                                    break
                        cost = self.cost_form
                        arm = self.u_arm
                        for u in fighting:
                            if gone[u] or st[u] != FORMED or purs[u]:
                                continue
                            if arm[u] == _INF:
                                want = _SQUARE if u == square else deploy
                            else:
                                want = _CAVALRY_LINE
                            if form[u] != want and left - cost >= reserve:
                                left -= cost
                                form[u] = want
                if not town:
                    # The corps advances by its orders (or falls back).
                    cost = self.cost_move
                    if stop >= 0 and gap > stop and left - cost >= reserve:
                        left -= cost
                        gap = gaps[t] = self.gaps[t][c] = gap - 1
                    elif withdraws and gap < START_GAP and left - cost >= reserve:
                        left -= cost
                        gap = gaps[t] = self.gaps[t][c] = gap + 1
                if gap <= SHORT_RANGE_GAP and fights:
                    left = self.combats(c, t, gap, left, reserve, charged)
                if min(gaps) <= SHORT_RANGE_GAP:
                    self.opportunity(c)
        # A brigade takes one test at its move: pursuers that have just rallied are done.
        if waiting and not lost:
            self.left = left
            self.rallies([u for u in waiting if u not in pursuers] if pursuers else waiting)

    def combats(self, c: int, t: int, gap: int, left: int, reserve: int,
                charged: set[int]) -> int:
        """The corps' infantry fire or attack and its cavalry charge, by its orders, as far as
        the pips go; the pips left."""
        cas, st, gone, purs, town = self.cas, self.st, self.gone, self.purs, self.u_town
        limit = self.u_limit
        attack = self.c_orders[c] is CorpsOrder.ATTACK
        cost = self.cost_move if attack else self.cost_fire
        enemy_infantry = self.c_inf[t]
        for u in self.c_inf[c]:
            if gone[u] or st[u] != FORMED:
                continue
            if attack and gap > CONTACT_GAP:
                break
            target = -1
            best_key = 0
            for e in enemy_infantry:
                s = st[e]
                if gone[e] or s == ROUT:
                    continue
                key = (limit[e] - cas[e]) * 4 - s
                if target < 0 or key < best_key:
                    target, best_key = e, key
            if target < 0:
                break
            if left - cost < reserve:
                return left
            left -= cost
            if attack:
                if town[target]:
                    self.combat(9, u, target, _NOT_A_FACT, _GARRISONED)
                else:
                    self.combat(13, u, target, _NOT_A_FACT, _NOT_A_FACT)
            elif town[target] or self.u_skirmish[u] < self.u_skirmish[target]:
                self.skirmish(u, target)
            else:
                self.combat(12, u, target, _NOT_A_FACT, _NOT_A_FACT)
        cost = self.cost_move
        for u in self.c_cav[c]:
            if gone[u] or st[u] != FORMED or purs[u] or u in charged:
                continue
            target = self.pick(self.c_cav[t])
            if target < 0:
                target = self.chargeable_infantry(u, t)
                if target < 0:
                    target = self.guns_to_charge(t)
                    if target < 0:
                        break
            if left - cost < reserve:
                return left
            left -= cost
            self.charge(u, target)
        return left

    def fire_table(self, gun: int, target: int, long: bool, key: int) -> _Fire:
        """Rule 7's hits by total for this battery at this target and range, read once."""
        calibre, rating, cas = self.u_calibre[gun], self.u_rating[gun], self.cas[gun]
        kind = self.u_target_kind[target]
        situation = stored_key("fire", calibre, rating, cas, kind, long)
        stored = self.store.get(situation)
        if stored is None:
            dice, hits_by_total = fire_table_for(self.ruleset, calibre, rating, cas, kind,
                                                 RangeBand.LONG if long else RangeBand.SHORT)
            stored = [list(dice.faces), list(hits_by_total)]
            self.store.put(situation, stored)
        faces, hits = stored
        table = self.fire_tables[key] = (len(faces), tuple(hits[f] for f in faces))
        return table

    def wants_rally(self, u: int) -> bool:
        """Whether a brigade waits to rally: pursuing, Shaken, or routing short of its rout
        point."""
        if self.gone[u]:
            return False
        return self.purs[u] or self.st[u] == SHAKEN or (self.st[u] == ROUT and
                                                       self.cas[u] < self.u_limit[u])

    # -- formations

    def pick(self, units: list[int]) -> int:
        """The enemy brigade of these nearest its rout point, then in the worse state, then
        first in the order of battle; not routing (-1 for none)."""
        st, gone, cas, limit = self.st, self.gone, self.cas, self.u_limit
        best = -1
        best_key = 0
        for u in units:
            s = st[u]
            if gone[u] or s == ROUT:
                continue
            key = (limit[u] - cas[u]) * 4 - s
            if best < 0 or key < best_key:
                best, best_key = u, key
        return best

    def chargeable_infantry(self, cav: int, t: int) -> int:
        """Enemy infantry out of the town cavalry may charge and would roll against (-1 for
        none)."""
        st, gone, cas, limit, form = self.st, self.gone, self.cas, self.u_limit, self.form
        best = -1
        best_key = 0
        for u in self.c_inf[t]:
            if (gone[u] or st[u] == ROUT or self.u_town[u]
                    or not self.may_charge(_INF, form[u], st[u])):
                continue
            if not self.combat_table(15, cav, u, _NOT_A_FACT, _NOT_A_FACT)[2]:
                continue
            key = (limit[u] - cas[u]) * 4 - st[u]
            if best < 0 or key < best_key:
                best, best_key = u, key
        return best

    def guns_to_charge(self, t: int) -> int:
        """An enemy battery cavalry may ride down by Rule 8's quick results (-1 for none)."""
        guns = self.pick(self.c_guns[t])
        if guns < 0:
            return -1
        if self.form[guns] == _LIMBERED:
            case = QuickCase.LIMBERED_ARTILLERY_CONTACTED_BY_CAVALRY
        elif self.facts(guns) & SUPPORTS:
            return -1
        else:
            case = QuickCase.DEPLOYED_ARTILLERY_CHARGED
        return guns if contact_result(self.ruleset, case, Arm.ARTILLERY, self.st[guns], True,
                                      False) is not None else -1

    # -- charges, opportunity charges and reactions

    def opportunity(self, c: int) -> None:
        """Rule 6: the enemy's formed cavalry at short range may charge a brigade of this corps
        that offers the chance."""
        side, present, withdrawn, gaps = self.c_side, self.present, self.withdrawn, self.gaps[c]
        st, gone, purs = self.st, self.gone, self.purs
        for e in range(self.nc):
            if side[e] == side[c] or not present[e] or withdrawn[e] or gaps[e] > SHORT_RANGE_GAP:
                continue
            for cav in self.c_cav[e]:
                if gone[cav] or st[cav] != FORMED or purs[cav] or cav in self.charged:
                    continue
                found = self.opportunity_target(cav, c)
                if found is None:
                    continue
                target, (n, passes_by_draw) = found
                if passes_by_draw[int(self.random() * n)]:
                    self.charge(cav, target)

    def opportunity_target(self, cav: int, c: int) -> tuple[int, _Test] | None:
        """The brigade of the corps this cavalry would opportunity charge, with its test; None
        for none."""
        st, gone, cas, limit, form, arm = (self.st, self.gone, self.cas, self.u_limit, self.form,
                                           self.u_arm)
        best: tuple[int, _Test] | None = None
        best_key = (0, 0, 0)
        grade = self.c_grade[self.u_corps[cav]]
        tests = self.charge_tests
        for u in self.c_units[c]:
            if gone[u] or st[u] == ROUT or (self.u_town[u] and arm[u] != _CAV):
                continue
            # the cavalry's test against this brigade as it stands; None where it may not
            # be charged (Rule 8) or offers no ground for an opportunity charge (Rule 6)
            situation = (((cav << 12 | u) << 8 | cas[cav]) << 2 | st[u]) << 4 | form[u]
            if situation in tests:
                table = tests[situation]
            else:
                table = tests[situation] = self.charge_test(cav, u, grade) if self.may_charge(
                    arm[u], form[u], st[u]) else None
            if table is None:
                continue
            key = (CHARGE_PREFERENCE.get(_FORMS[form[u]], 1), -st[u], limit[u] - cas[u])
            if best is None or key < best_key:
                best, best_key = (u, table), key
        return best

    def charge_test(self, cav: int, u: int, grade: Grade) -> _Test | None:
        """Rule 6: the cavalry's test to opportunity charge this brigade as it stands, read
        once; None where it offers no ground for one."""
        rating, cas = self.u_rating[cav], self.cas[cav]
        arm, state, formation = _ARMS[self.u_arm[u]], self.st[u], _FORMS[self.form[u]]
        situation = stored_key("charge", rating, cas, arm, state, formation, grade)
        stored = self.store.get(situation)
        if stored is None:
            full = charge_test_table(self.ruleset, rating, cas, arm, state, formation, grade)
            stored = [] if full is None else [list(full.dice.faces), list(full.passes)]
            self.store.put(situation, stored)
        if not stored:
            return None
        faces, passes = stored
        return len(faces), tuple(passes[f] for f in faces)

    def may_charge(self, arm: int, form: int, state: int) -> bool:
        """Whether cavalry may charge a brigade of this arm, formation and state (Rule 8)."""
        key = (arm << 4 | form) << 2 | state
        may = self.chargeable.get(key)
        if may is None:
            may = self.chargeable[key] = may_be_charged(self.ruleset, _ARMS[arm], _FORMS[form],
                                                        state)
        return may

    def charge(self, cav: int, target: int) -> None:
        """Rule 6 and 8, 14, 15: the target reacts if it may, then the contact is settled."""
        self.charged.add(cav)
        ruleset = self.ruleset
        st, form = self.st, self.form
        reacted = False
        t_arm = _ARMS[self.u_arm[target]]
        t_corps = self.u_corps[target]
        evade = self.c_orders[t_corps] is CorpsOrder.WITHDRAW
        reaction = reaction_for(ruleset, t_arm, _FORMS[form[target]], evade)
        table = None
        if reaction is not None:
            # Rule 18's morale facts count only for cavalry not formed (1 + the mask; else 0)
            facts = (1 + self.facts(target) if t_arm is Arm.CAVALRY and st[target] != FORMED
                     else 0)
            key = ((((target << 2 | st[target]) << 8 | self.cas[target]) << 5 | facts) << 3
                   | _REACTION_CODE[reaction])
            if key in self.reactions:
                table = self.reactions[key]
            else:
                table = self.reactions[key] = self.reaction_test(target, reaction, evade, facts)
        if reaction is not None and table is not None:
            n, passes_by_draw, fail_casualties = table
            reacted = passes_by_draw[int(self.random() * n)] if n else passes_by_draw[0]
            if not reacted and fail_casualties:
                self.hit(target, fail_casualties, st[target])
        else:
            reaction = None
        if reacted and reaction is Reaction.EVADE:
            return
        if reacted and t_arm is Arm.INFANTRY:
            form[target] = _SQUARE
            return
        if t_arm is Arm.CAVALRY:
            stationary = not (reacted and reaction is Reaction.COUNTER_CHARGE)
            self.combat(14, cav, target, _NOT_A_FACT, _STANDING if stationary else _NOT_A_FACT)
        elif t_arm is Arm.INFANTRY:
            if form[target] == _COLUMN_OF_MARCH and self.quick(
                    cav, target, QuickCase.COLUMN_OF_MARCH_CONTACTED_BY_CAVALRY, False, False):
                return
            if self.may_charge(self.u_arm[target], form[target], st[target]):
                self.combat(15, cav, target, _NOT_A_FACT, _NOT_A_FACT)
        else:
            if reacted:
                form[target] = _UNLIMBERED
            if form[target] == _LIMBERED:
                self.quick(cav, target, QuickCase.LIMBERED_ARTILLERY_CONTACTED_BY_CAVALRY,
                           False, False)
            else:
                self.quick(cav, target, QuickCase.DEPLOYED_ARTILLERY_CHARGED, True,
                           bool(self.facts(target) & SUPPORTS))

    def reaction_test(self, target: int, reaction: Reaction, evade: bool,
                      facts: int) -> _Reaction | None:
        """Rule 6: the target's reaction to a charge as it stands, read once; None where the
        rules refuse it. ``facts`` is 1 + its morale facts' mask where they count, else 0."""
        arm, rating = _ARMS[self.u_arm[target]], self.u_rating[target]
        state, cas = self.st[target], self.cas[target]
        grade = self.c_grade[self.u_corps[target]]
        situation = stored_key("reaction", arm, rating, state, reaction, cas, grade, evade, facts)
        stored = self.store.get(situation)
        if stored is None:
            full = reaction_table(self.ruleset, arm, rating, state, reaction, cas, grade, evade,
                                  FACTS[facts - 1] if facts else NO_FACTS)
            stored = [] if full is None else [full.automatic, list(full.dice.faces),
                                              list(full.passes), full.fail_casualties]
            self.store.put(situation, stored)
        if not stored:
            return None
        automatic, faces, passes, fail_casualties = stored
        if automatic:
            return 0, (passes[0],), fail_casualties
        return len(faces), tuple(passes[f] for f in faces), fail_casualties

    def quick(self, cav: int, target: int, case: QuickCase, beyond_half: bool,
              supports: bool) -> bool:
        """Rule 8's quick result for this contact, if the ruleset has one: applied."""
        result = contact_result(self.ruleset, case, _ARMS[self.u_arm[target]], self.st[target],
                                beyond_half, supports)
        if result is None:
            return False
        if result.escaped:
            return True
        if result.removed:
            self.gone[target] = True
            self.dirty = True
            return True
        h = result.hit
        self.hit(target, h.casualties, h.state)
        if h.new_rout:
            self.cascade([target])
            self.pursuit(cav, target)
        return True

    # -- combats, skirmish, morale

    def roll(self, faces: tuple[int, ...]) -> int:
        """One of the equally likely faces, drawn."""
        return faces[int(self.rng.random() * len(faces))]

    def combat_table(self, rule: int, a: int, d: int, a_facts: int, d_facts: int) -> _Flat:
        """The combat's table for both brigades as they stand now, read once."""
        cas, st, form = self.cas, self.st, self.form
        key = ((((((((((rule << 12 | a) << 4 | form[a]) << 8 | cas[a]) << 2 | st[a]) << 2
                    | a_facts) << 12 | d) << 4 | form[d]) << 8 | cas[d]) << 2 | st[d]) << 2
               | d_facts)
        table = self.combat_tables.get(key)
        if table is None:
            situation = stored_key("combat", rule, self.u_profile_keys[a][form[a]], cas[a],
                                   st[a], a_facts, self.u_profile_keys[d][form[d]], cas[d],
                                   st[d], d_facts)
            stored = self.store.get(situation)
            if stored is None:
                stored = _stored_combat(combat_table(
                    self.ruleset, rule, self.u_profiles[a][form[a]], cas[a], st[a],
                    _FACT_SETS[a_facts], self.u_profiles[d][form[d]], cas[d], st[d],
                    _FACT_SETS[d_facts]))
                self.store.put(situation, stored)
            n, rows, by_draw, attacker_rolls = stored
            table = self.combat_tables[key] = (n, [rows[i] for i in by_draw], attacker_rolls)
        return table

    def combat(self, rule: int, a: int, d: int, a_facts: int, d_facts: int) -> None:
        """Rules 9, 12-15: a combat rolled and its row applied; routs set off their friends,
        pursuers pursue."""
        n, rows, _ = self.combat_table(rule, a, d, a_facts, d_facts)
        (a_cas, a_st, a_routs, d_cas, d_st, d_routs, a_pursues,
         d_pursues) = rows[int(self.random() * n)]
        cas, st = self.cas, self.st
        cas[a] += a_cas                 # hit, written out
        st[a] = a_st
        cas[d] += d_cas
        st[d] = d_st
        self.dirty = True
        if a_st == ROUT:
            self.purs[a] = False
        if d_st == ROUT:
            self.purs[d] = False
        if a_routs:
            self.cascade([a, d] if d_routs else [a])
        elif d_routs:
            self.cascade([d])
        if a_pursues:
            self.pursuit(a, d)
        if d_pursues:
            self.pursuit(d, a)

    def hit(self, u: int, casualties: int, state: int) -> None:
        """Casualties and a new state for a brigade (routing ends its pursuit)."""
        self.cas[u] += casualties
        self.st[u] = state
        self.dirty = True
        if state == ROUT:
            self.purs[u] = False

    def skirmish(self, a: int, d: int) -> None:
        """Rule 11: both sides roll; losers test their morale; routs set off their friends."""
        cas, st, form = self.cas, self.st, self.form
        key = ((((((a << 4) | form[a]) << 8 | cas[a]) << 2 | st[a]) << 12 | d) << 4
               | form[d]) << 8 | cas[d]
        key = key << 2 | st[d]
        table = self.skirmish_tables.get(key)
        if table is None:
            table = self.skirmish_table(a, d, key)
        n, rows = table
        rand = self.random
        da = int(rand() * n)
        a_cas, a_st, a_routs, a_tests, d_cas, d_st, d_routs, d_tests = rows[
            da * n + int(rand() * n)]
        cas[a] += a_cas                 # hit, written out
        st[a] = a_st
        cas[d] += d_cas
        st[d] = d_st
        self.dirty = True
        if a_st == ROUT:
            self.purs[a] = False
        if d_st == ROUT:
            self.purs[d] = False
        routed = ([a] if a_routs else []) + ([d] if d_routs else [])
        if a_tests and self.morale(a, 0, False):
            routed.append(a)
        if d_tests and self.morale(d, 0, False):
            routed.append(d)
        if routed:
            self.cascade(routed)

    def skirmish_table(self, a: int, d: int, key: int) -> _Skirmish:
        """Rule 11's results for both brigades as they stand now, read once."""
        cas, st, form = self.cas, self.st, self.form
        cover = self.u_town[d]
        situation = stored_key("skirmish", self.u_profile_keys[a][form[a]], cas[a], st[a],
                               cover, self.u_profile_keys[d][form[d]], cas[d], st[d])
        stored = self.store.get(situation)
        if stored is None:
            full = skirmish_table(
                self.ruleset, self.u_profiles[a][form[a]], cas[a], st[a],
                IN_COVER if cover else NO_FACTS, self.u_profiles[d][form[d]], cas[d], st[d],
                NO_FACTS)
            faces = full.dice.faces
            rows = {pair: list(_flat_hit(ah) + (at,) + _flat_hit(dh) + (dt,))
                    for pair, (ah, at, dh, dt) in full.rows.items()}
            # the draws: the attacker's place among the faces * n + the defender's
            distinct, by_draws = _by_draw([rows[fa, fd] for fa in faces for fd in faces])
            stored = [len(faces), distinct, by_draws]
            self.store.put(situation, stored)
        n, rows, by_draws = stored
        table = self.skirmish_tables[key] = (n, [rows[i] for i in by_draws])
        return table

    def facts(self, u: int) -> int:
        """The morale facts of a brigade: in the town; formed friends near it; pursuing."""
        mask = self.u_bua[u]
        st, gone = self.st, self.gone
        for f in self.u_friends[u]:
            if st[f] == FORMED and not gone[f]:
                mask |= SUPPORTS
                break
        if self.purs[u]:
            mask |= PURSUIT
        return mask

    def morale(self, u: int, extra: int, rallying: bool) -> bool:
        """A morale test (a rally when ``rallying``); whether the brigade newly routs."""
        st, gone = self.st, self.gone
        mask = self.u_bua[u] | extra
        for f in self.u_friends[u]:         # self.facts, written out
            if st[f] == FORMED and not gone[f]:
                mask |= SUPPORTS
                break
        if self.purs[u]:
            mask |= PURSUIT
        key = self.u_mkey[u] | self.cas[u] << 7 | st[u] << 5 | mask << 1 | rallying
        table = self.morale_tables.get(key)
        if table is None:
            table = self.morale_table(u, mask, rallying, key)
        n, by_draw = table
        state, routs = by_draw[int(self.random() * n)] if n else by_draw[0]
        st[u] = state
        self.dirty = True
        if state == ROUT:
            self.purs[u] = False
        return routs

    def morale_table(self, u: int, mask: int, rallying: bool, key: int) -> _Morale:
        """Rule 17's test (or Rule 18's rally) for the brigade as it stands, read once."""
        arm, rating, cas, state = _ARMS[self.u_arm[u]], self.u_rating[u], self.cas[u], self.st[u]
        situation = stored_key("morale", arm, rating, cas, state, mask, rallying)
        stored = self.store.get(situation)
        if stored is None:
            full = morale_table(self.ruleset, arm, rating, cas, state, FACTS[mask], rallying)
            stored = [[] if full.automatic else list(full.dice.faces),
                      [r.state for r in full.rows], [r.new_rout for r in full.rows]]
            self.store.put(situation, stored)
        faces, states, routs = stored
        table = self.morale_tables[key] = (
            (len(faces), tuple((states[f], routs[f]) for f in faces)) if faces
            else (0, ((states[0], routs[0]),)))
        return table

    def cascade(self, routed: list[int]) -> None:
        """Rule 16: each new rout makes every friend of its corps react, breadth first."""
        st, gone, purs, cas = self.st, self.gone, self.purs, self.cas
        rout_reacts, friends, bua, mkey = self.rout_reacts, self.u_friends, self.u_bua, self.u_mkey
        tables, random = self.morale_tables, self.random
        self.dirty = True
        queue = routed
        i = 0
        while i < len(queue):
            r = queue[i]
            i += 1
            # its friends not destroyed nor routing (one routing now stays routing, and none is
            # destroyed by a reaction, so they are looked at as the loop comes to them)
            for f in friends[r]:
                s = st[f]
                if s == ROUT or gone[f]:
                    continue
                if rout_reacts[s]:
                    st[f] = ROUT
                    purs[f] = False
                    queue.append(f)
                    continue
                # self.morale(f, ROUT_NEAR, False), written out
                mask = bua[f] | ROUT_NEAR
                for g in friends[f]:
                    if st[g] == FORMED and not gone[g]:
                        mask |= SUPPORTS
                        break
                if purs[f]:
                    mask |= PURSUIT
                key = mkey[f] | cas[f] << 7 | s << 5 | mask << 1
                table = tables.get(key)
                if table is None:
                    table = self.morale_table(f, mask, False, key)
                n, by_draw = table
                s, routs = by_draw[int(random() * n)] if n else by_draw[0]
                st[f] = s
                if s == ROUT:
                    purs[f] = False
                if routs:
                    queue.append(f)

    def pursuit(self, cavalry: int, routers: int) -> None:
        """Rule 16: cavalry that caused a rout may pursue."""
        if self.gone[cavalry] or self.st[cavalry] == ROUT or self.purs[cavalry]:
            return
        table = pursuit_table(self.ruleset, self.u_nation[cavalry])
        faces = table.dice.faces
        if not table.pursues[self.roll(faces)]:
            return
        row = table.rows[self.roll(faces)]
        self.purs[cavalry] = True
        if row.action == "routers" and row.casualties and not self.gone[routers]:
            self.hit(routers, row.casualties, self.st[routers])

    def rally_pursuers(self, u: int) -> None:
        """Rule 16: pursuing cavalry try to rally."""
        table = rally_pursuers_table(self.ruleset, self.u_rating[u], self.cas[u], self.st[u],
                                     FACTS[self.facts(u) & ~PURSUIT])
        self.purs[u] = False
        face = 0 if table.automatic else self.roll(table.dice.faces)
        row = table.rows[face]
        self.st[u] = row.state
        self.dirty = True
        if row.new_rout:
            self.cascade([u])

    def send_back(self, u: int) -> None:
        """Rule 16: pursuers no commander can rally go back to their own lines."""
        self.purs[u] = False
        self.st[u] = self.sent_back[self.st[u]]
        self.dirty = True

    def rallies(self, waiting: list[int]) -> None:
        """Rules 16-18: routing, then Shaken brigades test; the commander pays for rallies."""
        cost = self.cost_rally
        st, gone, purs, cas, limit = self.st, self.gone, self.purs, self.cas, self.u_limit
        for wanted in (ROUT, SHAKEN):
            for u in waiting:
                if gone[u] or st[u] != wanted or purs[u]:
                    continue
                if st[u] == ROUT and cas[u] >= limit[u]:
                    continue
                if self.left >= cost:
                    self.left -= cost
                    routs = self.morale(u, 0, True)
                elif st[u] == SHAKEN:
                    routs = self.morale(u, 0, False)
                else:
                    continue
                if routs:
                    self.cascade([u])

    def cinc_move(self, chip: ChipPlan) -> None:
        """The CinC rallies the brigades of the corps of his side most in need of it."""
        pips = self.roll_pips(chip.grade)
        if pips <= 0:
            return
        best = -1
        best_count = 0
        for c in range(self.nc):
            if self.c_side[c] != chip.side or not self.present[c] or self.withdrawn[c]:
                continue
            count = sum(1 for u in self.c_units[c] if self.wants_rally(u))
            if count > best_count:
                best, best_count = c, count
        if best < 0:
            return
        self.left = pips
        waiting = [u for u in self.c_units[best] if self.wants_rally(u)]
        rallied: list[int] = []
        for u in waiting:
            if self.purs[u] and self.left >= self.cost_rally:
                self.left -= self.cost_rally
                self.rally_pursuers(u)
                rallied.append(u)
        self.rallies([u for u in waiting if u not in rallied])

    # -- the army break and nightfall

    def army_break(self, newly: list[int]) -> bool:
        """The army break (army.py's reading), once ``newly`` broken corps are known: whether
        an army broke (the winner then set); else the broken corps withdraw."""
        present, withdrawn = self.present, self.withdrawn
        down_by_side = {FRENCH: 0, ALLIED: 0}
        for c in range(self.nc):
            if present[c] and (withdrawn[c] or c in newly):
                down_by_side[self.c_side[c]] += 1
        lost = [side for side in SIDES if self.corps_of_side[side] and
                down_by_side[side] >= self.side_needs[side]]
        if lost:
            if len(lost) == 2:
                self.winner = None
            else:
                self.winner = ALLIED if lost[0] == FRENCH else FRENCH
            return True
        for c in newly:
            withdrawn[c] = True
        if newly:
            self.retarget()
        return False

    def nightfall(self) -> str | None:
        """Who holds the place when night falls (None for a draw)."""
        town, present, withdrawn, side = self.c_town, self.present, self.withdrawn, self.c_side
        holders = [s for s in SIDES if any(side[c] == s and town[c] and present[c]
                                           and not withdrawn[c] for c in range(self.nc))]
        garrisons = [s for s in SIDES if any(side[c] == s and town[c] for c in range(self.nc))]
        if len(holders) == 1:
            return holders[0]
        if not holders and len(garrisons) == 1:
            return ALLIED if garrisons[0] == FRENCH else FRENCH
        return None

