"""Property: thousands of random legal games finish, and invariants hold after every step.

Each game is driven by ``random.Random(seed)``: the policy picks among ``legal_actions`` and the
same rng supplies each chance event's entropy. Three policies (uniform, never-end-early, and
place-whenever-possible) and both editions are mixed so that every rule comes up; a coverage
check at the end of each run proves that they did.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections import Counter

import pytest

from p2p_burgundy import (
    BuyPoints,
    BuyWorkers,
    ChanceKind,
    PayGoods,
    Step,
    UseBuilding,
    legal_actions,
    outcome,
)
from p2p_burgundy.actions import (
    ACTION_TYPES,
    BorrowMonasteries,
    PayTribute,
    PlaceFromDepot,
    SetDie,
    Stow,
    TakeFirst,
    TakeShield,
)
from p2p_burgundy.config import Module, Setup
from p2p_burgundy.estate import SPACE_COUNT, bits
from p2p_burgundy.rivers import river_reach
from p2p_burgundy.rules import GOODS_SLOTS
from p2p_burgundy.scoring import (
    COLOUR_BONUS_VP,
    REGION_VP,
    SALE_VP,
    Category,
    knowledge_points,
)
from p2p_burgundy.shields import ALL_SHIELDS, SHIELD_VP, Shield
from p2p_burgundy.state import EMPTY
from p2p_burgundy.tiles import (
    ANY_COLOUR,
    FACE_DOWN,
    KNOWLEDGE_NUMBER,
    TILE_COLOUR,
    Building,
    Tile,
)
from p2p_burgundy.trade import CARDS_PER_PLAYER, Bonus, route_spaces
from tests.engine.helpers import (
    E2011,
    E2019,
    POLICIES,
    SOLO_STEPS,
    TEAM_STEPS,
    frontier_of,
    random_game,
    solo_builder,
    total_tiles,
)

GAMES_PER_PLAYER_COUNT = 400
# one game in five with the experts' set-up (dealt boards, chosen sides and start castles)
SETUPS = (Setup.STANDARD, Setup.STANDARD, Setup.EXPERTS_OPEN, Setup.STANDARD,
          Setup.EXPERTS_SECRET)
SHIELD_STEPS = {Step.TRIBUTE, Step.SHIELD_TILE, Step.SHIELD_GOODS, Step.PHASE_END}
SHIELD_ACTIONS = {TakeShield, PayTribute, SetDie, PlaceFromDepot, BorrowMonasteries}
EXPANSION_STEPS = {Step.WHITE_CASTLE, Step.CRANE} | SHIELD_STEPS  # only with the modules
_FINAL = (Category.KNOWLEDGE, Category.GOODS_LEFT, Category.SILVER_LEFT, Category.WORKERS_LEFT)


def check_tiles(state) -> None:
    """Every one of the 164 hex tiles (and the modules' tiles) is in exactly one place, kind
    by kind (inns: also beside the black depot).

    A player still to choose a start space (experts' set-up) holds the start castle in hand:
    the engine takes it from the supply at once and puts it on the estate on ChooseEstate.
    """
    census = Counter(face_up(t) for t in itertools.chain(
        *state.supplies, *state.depots, *(p.storage for p in state.players),
        *(p.estate for p in state.players),
    ))
    del census[EMPTY]
    census[Tile.CASTLE] += sum(1 for p in state.players if not p.occupied)
    for tile, boxed in enumerate(state.box):
        if boxed:
            census[tile] += boxed
    if state.inns:
        census[Tile.INN] += state.inns
    assert dict.__eq__(census, total_tiles(state.config))  # Counter's own == is slow


def face_up(tile: int) -> int:
    """A face-down tile (the solo game's exchange) counts as the tile it is."""
    return tile - FACE_DOWN if tile >= FACE_DOWN else tile


def check_tiles_moved(before, after) -> None:
    """The tiles that left some place are exactly the tiles that arrived somewhere else, kind
    by kind (with :func:`check_tiles` on the first state, every state is complete)."""
    moved: list[int] = []
    left: list[int] = []
    if before.supplies is not after.supplies:
        for old, new in zip(before.supplies, after.supplies, strict=True):
            if old is not new:
                moved += new
                left += old
    if before.depots is not after.depots:
        for old, new in zip(before.depots, after.depots, strict=True):
            if old is not new:
                moved += new
                left += old
    for a, b in zip(before.players, after.players, strict=True):
        if a is b:
            continue
        if a.storage is not b.storage:
            moved += b.storage
            left += a.storage
        if a.estate is not b.estate:  # tiles are only ever added to an estate
            placed = bits(b.occupied & ~a.occupied)
            assert placed and not a.occupied & ~b.occupied
            if not a.occupied:
                left.append(Tile.CASTLE)  # the start castle, from the player's hand
            rest = list(b.estate)
            for space in placed:
                moved.append(rest[space])
                rest[space] = EMPTY
            assert rest == list(a.estate)
    if before.inns != after.inns:
        (moved if after.inns > before.inns else left).extend(
            [Tile.INN] * abs(after.inns - before.inns))
    if before.box is not after.box:
        for tile, (old, new) in enumerate(zip(before.box, after.box, strict=True)):
            if new != old:
                assert new > old  # the box only fills
                moved += [tile] * (new - old)
    if moved or left:
        moved = sorted(map(face_up, moved))
        left = sorted(map(face_up, left))
        assert [t for t in moved if t != EMPTY] == [t for t in left if t != EMPTY]


def check_goods(state) -> None:
    """The 42 goods tiles: pool, unplaced phase goods, depots, players' stores and sales."""
    if state.is_over:
        placed = len(state.phase_goods)
    elif state.chance is None:  # a round under way (or set-up choices: no phase goods yet)
        placed = min(state.round + 1, len(state.phase_goods))
    elif state.chance.kind == ChanceKind.ROUND:
        placed = state.chance.round
    else:
        placed = len(state.phase_goods)
    total = len(state.goods_pool) + len(state.phase_goods) - placed
    total += sum(map(sum, state.depot_goods))
    total += sum(sum(p.goods) + sum(p.sold) for p in state.players)
    total += sum(state.goods_out)  # the solo game: goods that left the game
    assert total == 42


def goods_may_have_moved(before, after) -> bool:
    if (before.depot_goods is not after.depot_goods or before.goods_pool is not after.goods_pool
            or before.phase_goods is not after.phase_goods or before.chance != after.chance
            or before.goods_out is not after.goods_out):
        return True
    for a, b in zip(before.players, after.players, strict=True):
        if a is not b and (a.goods is not b.goods or a.sold is not b.sold):
            return True
    return False


def check_estate(state, seat, p, start) -> None:
    """A player's estate after a change: masks, colours, knowledge, cities and the scores that
    follow from the estate alone. ``start`` is the start castle's space as a mask."""
    board = state.boards[seat]
    occupied = 0
    knowledge = 0
    for space, tile in enumerate(p.estate):
        if tile == EMPTY:
            continue
        occupied |= 1 << space
        assert TILE_COLOUR[tile] in (board.colours[space], ANY_COLOUR), (space, tile)
        if KNOWLEDGE_NUMBER[tile]:
            knowledge |= 1 << KNOWLEDGE_NUMBER[tile]
    assert p.occupied == occupied
    assert p.frontier == frontier_of(occupied)
    if state.borrowed >= 0 and state.shields[seat] >> Shield.MONASTERIES & 1:
        for tile in state.players[state.borrowed].estate:  # shield #6: all but #27
            if KNOWLEDGE_NUMBER[tile] and tile != Tile.KNOWLEDGE_27:
                knowledge |= 1 << KNOWLEDGE_NUMBER[tile]
    assert p.knowledge == knowledge
    regions = 0
    for region in board.regions:
        inns = sum(1 for s in bits(region.mask) if p.estate[s] == Tile.INN)
        assert inns <= 1  # one inn per area
        if region.mask & occupied == region.mask and region.mask != start:
            regions += REGION_VP[region.size + inns]
            if not p.knowledge >> 1 & 1 and region.colour == 0:  # cities: one of each building
                city = [p.estate[s] for s in range(SPACE_COUNT) if region.mask >> s & 1]
                assert len(set(city)) == len(city)
    assert p.breakdown[Category.REGIONS] == regions
    # the crane may have triggered a watchtower's 4 VP; trade route spaces give 4 VP too
    routes = 4 * sum(1 for (kind, bonus), goods in zip(
        route_spaces(state.routes[seat]), state.route_goods[seat], strict=False)
        if kind == goods and bonus == Bonus.VP)
    assert p.breakdown[Category.WATCHTOWERS] - routes - 4 * p.estate.count(
        Building.WATCHTOWER) in ((0, 4) if Tile.CRANE in p.estate else (0,))
    ships = p.estate.count(Tile.SHIP)
    assert state.track[seat][0] == min(ships, 6)


def check_player(state, old, p, to_move) -> None:
    """A player whose state object changed; fields that are the same objects were checked
    before."""
    n = state.config.table_players
    solo = state.config.solo
    assert p.silver >= 0 and p.workers >= 0
    if p.goods is not old.goods:
        assert min(p.goods) >= 0 and p.goods[0] == 0
        assert solo or sum(1 for g in p.goods if g) <= GOODS_SLOTS
    seat = state.players.index(p)
    if p.storage is not old.storage and not state.shields[seat] >> Shield.STORAGE & 1:
        if len(p.storage) == 4:  # only while the player discards an old tile
            assert to_move and state.step == Step.DISCARD
        elif len(p.storage) > 4:  # shield #4 just left: discards follow
            assert to_move and state.pending[-1] == (Step.DISCARD, 1)
        else:
            assert len(p.storage) <= 3
    if p.breakdown is not old.breakdown or p.sold is not old.sold \
            or p.bonuses is not old.bonuses:
        assert min(p.breakdown) >= 0
        assert p.vp == sum(p.breakdown)
        assert p.vp >= old.vp  # victory points never fall
        assert p.breakdown[Category.SALES] == SALE_VP[n] * sum(p.sold)
        border = state.border_ranks[seat]  # border-post duchies
        assert p.breakdown[Category.COLOUR_BONUSES] == (0 if solo else sum(
            COLOUR_BONUS_VP[(n, rank)] for rank in (*p.bonuses, border) if rank))
        if not state.is_over or solo:
            assert all(p.breakdown[c] == 0 for c in _FINAL[1:])
            assert solo or p.breakdown[Category.KNOWLEDGE] == 0
    if state.is_over and not solo:
        assert p.breakdown[Category.GOODS_LEFT] == sum(p.goods)
        assert p.breakdown[Category.SILVER_LEFT] == p.silver
        assert p.breakdown[Category.WORKERS_LEFT] == p.workers // 2
        assert p.breakdown[Category.KNOWLEDGE] == knowledge_points(p, state.config.edition)


def check_solo(before, after, action) -> None:
    """The solo game: the counter and the target marker, the 2-player depots, the rivers."""
    config = after.config
    old, new = before.players[0], after.players[0]
    assert 0 <= after.vp_counter < after.vp_target <= config.target
    assert (config.target - after.vp_target) % 5 == 0 or after.vp_target == 5
    gained = new.vp - old.vp
    if after.vp_target != before.vp_target:  # the counter reached the marker: an action
        assert after.vp_counter == 0
        assert after.vp_target == max(5, before.vp_target - 5)
        assert gained or isinstance(action, BuyPoints)
        assert (Step.FREE_ACTION, 0) in after.pending[-2:]
    elif action is not None and not after.is_over:
        assert after.vp_counter == before.vp_counter + gained
    if before.chance is not None and before.chance.kind == ChanceKind.PHASE:
        assert sum(t != EMPTY for d in after.depots[1:] for t in d) <= 12
        assert sum(t != EMPTY for t in after.depots[0]) <= 4
    placed = new.occupied & ~old.occupied
    if placed and old.occupied:
        board = after.boards[0]
        assert placed & river_reach(board, old.occupied) == placed


def check_shields(state) -> None:
    """Shields module: each of the 18 shields is on a depot, held or out of the game, once;
    a player holds at most one a castle; closing turns only at a phase end."""
    on_depots = [n for depot in state.depot_shields for n in depot]
    assert not state.depot_shields[0] and len(set(on_depots)) == len(on_depots)
    places = [sum(1 << n for n in on_depots), *state.shields, state.shield_box]
    assert sum(places) == ALL_SHIELDS and functools.reduce(operator.or_, places) == ALL_SHIELDS
    for seat, held in enumerate(state.shields):
        assert held.bit_count() <= state.players[seat].estate.count(Tile.CASTLE)
    if state.closing:
        assert state.round == 4 and state.to_move == state.closing[0]
    assert state.borrowed < 0 or any(held >> Shield.MONASTERIES & 1 for held in state.shields)
    assert len(state.players[0].breakdown) == len(Category)


class Checker:
    """Checks every step of one game and counts what happened for the coverage report.

    Fields are immutable values, so a field that is the same object as in the step before
    (already checked) is not checked again: that keeps thousands of games fast.
    """

    def __init__(self, coverage: Counter) -> None:
        self.coverage = coverage
        self.starts: list[int] = []  # each seat's start castle space (mask) in this game

    def __call__(self, before, after, action) -> None:
        cov = self.coverage
        over = after.phase >= 5
        if action is None:
            if before.chance.kind == ChanceKind.SETUP:
                check_tiles(before)  # the state new_game made
                self.starts = [p.occupied for p in before.players]  # 0: chosen later
            cov[("chance", before.chance.kind)] += 1
            assert sorted(after.order) == list(range(after.config.players))
        else:
            cov[("action", type(action))] += 1
        check_tiles_moved(before, after)
        if over:
            check_tiles(after)
        if after.config.solo:
            check_solo(before, after, action)
        if after.depot_shields:
            check_shields(after)
            if isinstance(action, TakeShield | PayTribute | SetDie | PlaceFromDepot
                          | BorrowMonasteries):
                cov[("shield", type(action))] += 1
        else:
            assert len(after.players[0].breakdown) == len(Category) - 1
        if goods_may_have_moved(before, after):
            check_goods(after)
        seat_to_move = after.to_move
        if after.chance is None and not over:
            assert 0 <= seat_to_move < after.config.players
            step = after.step
            cov[("step", step)] += 1
            if after.pending[-1:] == ((Step.DISCARD, 0),):
                assert len(after.players[seat_to_move].storage) == 4
            elif step == Step.DISCARD:  # shield #4 left: down to three tiles
                assert len(after.players[seat_to_move].storage) > 3
        else:
            assert seat_to_move is None
            assert legal_actions(after) == []
        bonuses = False
        seat = -1
        for old, new in zip(before.players, after.players, strict=True):
            seat += 1
            if new is old:
                continue
            check_player(after, old, new, seat == seat_to_move)
            if not old.occupied:  # the start castle, placed during set-up
                assert new.occupied.bit_count() <= 1
                self.starts[seat] = new.occupied
            if new.estate is not old.estate or after.track is not before.track:
                check_estate(after, seat, new, self.starts[seat])
                if new.knowledge != old.knowledge:
                    cov[("knowledge", (new.knowledge ^ old.knowledge).bit_length() - 1)] += 1
                if new.breakdown[Category.REGIONS] > old.breakdown[Category.REGIONS]:
                    cov[("region", "completed")] += 1
            if new.bonuses is not old.bonuses:
                bonuses = True
                for c in range(6):
                    if new.bonuses[c] != old.bonuses[c]:
                        cov[("bonus", new.bonuses[c])] += 1
        if bonuses or after.bonus_taken is not before.bonus_taken:
            assert after.bonus_taken == tuple(
                sum(1 for p in after.players if p.bonuses[c]) for c in range(6))
        if over:
            result = outcome(after)
            assert sorted(result.ranking) == list(range(after.config.players))
            assert result.scores[result.winner] == max(result.scores)
            cov[("games", "over")] += 1


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_legal_games_finish_and_keep_every_invariant(players):
    coverage: Counter = Counter()
    checker = Checker(coverage)
    actions = 0
    for i in range(GAMES_PER_PLAYER_COUNT):
        policy = POLICIES[i % len(POLICIES)]
        edition = E2019 if i % 2 else E2011
        setup = SETUPS[i % 5]
        state, count = random_game(players, 1000 * players + i, policy=policy,
                                   edition=edition, setup=setup, visit=checker)
        assert state.is_over and state.phase == 5
        actions += count
    assert coverage[("games", "over")] == GAMES_PER_PLAYER_COUNT
    assert actions > 100 * GAMES_PER_PLAYER_COUNT
    # the games reached every kind of decision and the rare rules
    assert {s for kind, s in coverage if kind == "step"} == set(Step) - EXPANSION_STEPS \
        - SOLO_STEPS - TEAM_STEPS
    assert {a for kind, a in coverage if kind == "action"} == set(ACTION_TYPES.values()) - {
        BuyWorkers, UseBuilding, PayGoods, BuyPoints, TakeFirst, Stow} - SHIELD_ACTIONS
    assert {k for kind, k in coverage if kind == "knowledge"} == set(range(1, 27))
    assert coverage[("bonus", 1)] and coverage[("bonus", 2)]
    assert coverage[("region", "completed")] > GAMES_PER_PLAYER_COUNT


MODULE_GAMES = 40


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_with_every_module_keep_every_invariant(players):
    coverage: Counter = Counter()
    checker = Checker(coverage)
    placed: Counter = Counter()
    laid = 0
    for i in range(MODULE_GAMES):
        state, _ = random_game(players, 7000 * players + i, policy=POLICIES[i % len(POLICIES)],
                               edition=E2019, setup=SETUPS[i % 5], modules=tuple(Module),
                               visit=checker)
        assert state.is_over
        for p in state.players:
            placed.update(t for t in p.estate if t >= Tile.KNOWLEDGE_27)
        assert all(len(r) == CARDS_PER_PLAYER[players] for r in state.routes)
        assert sorted(c for r in state.routes for c in r) == sorted(set(
            c for r in state.routes for c in r))  # each card dealt once
        for seat, p in enumerate(state.players):
            assert len(state.route_goods[seat]) == min(3 * len(state.routes[seat]), sum(p.sold))
        laid += sum(map(len, state.route_goods))
    assert coverage[("games", "over")] == MODULE_GAMES
    assert {s for kind, s in coverage if kind == "step"} >= EXPANSION_STEPS
    assert {a for kind, a in coverage if kind == "action"} == set(ACTION_TYPES.values()) - {
        PayGoods, BuyPoints, TakeFirst, Stow}
    assert set(placed) == set(range(Tile.KNOWLEDGE_27, Tile.INN + 1))
    assert laid > MODULE_GAMES * players  # sold goods went on the trade routes


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_on_the_border_post_duchies_keep_every_invariant(players):
    coverage: Counter = Counter()
    checker = Checker(coverage)
    duchies = [f"11{x}" for x in "abcdef"]
    ranked = 0
    for i in range(24):
        estates = tuple(duchies[(i + seat) % 6] for seat in range(players))
        state, _ = random_game(players, 9000 * players + i, policy=POLICIES[i % len(POLICIES)],
                               edition=E2019, estates=estates,
                               modules=tuple(Module) if i % 2 else (), visit=checker)
        assert state.is_over
        assert sum(1 for r in state.border_ranks if r) <= 2
        ranked += any(state.border_ranks)
    assert coverage[("games", "over")] == 24
    assert ranked  # some games joined all three posts


SOLO_GAMES = 60


@pytest.mark.slow
@pytest.mark.parametrize("modules", [(), tuple(Module)], ids=["base", "every-module"])
def test_random_solo_games_keep_every_invariant(modules):
    coverage: Counter = Counter()
    checker = Checker(coverage)
    duchies = ("1", "2019-2", "5", "11a")
    for i in range(SOLO_GAMES):
        policy = (solo_builder, *POLICIES)[i % 4]
        state, _ = random_game(1, 14000 + i, policy=policy, edition=E2019, modules=modules,
                               estates=(duchies[i // 4 % 4],), visit=checker)
        assert state.is_over
    assert coverage[("games", "over")] == SOLO_GAMES
    assert {s for kind, s in coverage if kind == "step"} >= SOLO_STEPS
    assert coverage[("action", PayGoods)] and coverage[("action", BuyPoints)]
    assert coverage[("bonus", 1)] and coverage[("region", "completed")]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_with_shields_keep_every_invariant(players):
    coverage: Counter = Counter()
    checker = Checker(coverage)
    held_at_end = 0
    for i in range(MODULE_GAMES):
        state, _ = random_game(players, 8000 * players + i, policy=POLICIES[i % len(POLICIES)],
                               edition=E2019, setup=SETUPS[i % 5], modules=(Module.SHIELDS,),
                               visit=checker)
        assert state.is_over and not state.closing
        for seat, p in enumerate(state.players):
            held = state.shields[seat]
            held_at_end += held.bit_count()
            vp = sum(SHIELD_VP[n] for n in range(1, 19) if held >> n & 1)
            assert p.breakdown[Category.SHIELDS] >= vp * (2 if held >> 13 & 1 else 1)
    assert coverage[("games", "over")] == MODULE_GAMES
    assert {s for kind, s in coverage if kind == "step"} >= SHIELD_STEPS
    assert {a for kind, a in coverage if kind == "shield"} == SHIELD_ACTIONS
    assert held_at_end  # some shields were kept to the end
