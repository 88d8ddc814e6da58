"""Property: thousands of random legal games finish, and invariants hold after every step.

Each game is driven by ``random.Random(seed)``: the policy picks among ``legal_actions`` and the
same rng supplies each chance event's entropy. Three policies (uniform, never-end-early, and
place-whenever-possible) and both editions are mixed so that every rule comes up; a coverage
check at the end of each run proves that they did.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from p2p_burgundy import ChanceKind, Step, legal_actions, outcome
from p2p_burgundy.estate import SPACE_COUNT
from p2p_burgundy.rules import GOODS_SLOTS
from p2p_burgundy.scoring import (
    COLOUR_BONUS_VP,
    REGION_VP,
    SALE_VP,
    Category,
    knowledge_points,
)
from p2p_burgundy.state import EMPTY
from p2p_burgundy.tiles import KNOWLEDGE_NUMBER, TILE_COLOUR, TILE_COUNT, Building, Tile
from tests.engine.helpers import E2011, E2019, POLICIES, TOTAL_TILES, frontier_of, random_game

GAMES_PER_PLAYER_COUNT = 400
TOTAL = [TOTAL_TILES[t] for t in range(TILE_COUNT)]
_FINAL = (Category.KNOWLEDGE, Category.GOODS_LEFT, Category.SILVER_LEFT, Category.WORKERS_LEFT)


def check_tiles(state) -> None:
    """Every one of the 164 hex tiles is in exactly one place, kind by kind."""
    census = list(state.box)
    for tile in itertools.chain(*state.supplies, *state.depots,
                                *(p.storage for p in state.players),
                                *(p.estate for p in state.players)):
        if tile != EMPTY:
            census[tile] += 1
    assert census == TOTAL


def check_goods(state) -> None:
    """The 42 goods tiles: pool, unplaced phase goods, depots, players' stores and sales."""
    if state.is_over:
        placed = len(state.phase_goods)
    elif state.chance is None:
        placed = state.round + 1
    elif state.chance.kind == ChanceKind.ROUND:
        placed = state.chance.round
    else:
        placed = len(state.phase_goods)
    total = len(state.goods_pool) + len(state.phase_goods) - placed
    total += sum(map(sum, state.depot_goods))
    total += sum(sum(p.goods) + sum(p.sold) for p in state.players)
    assert total == 42


def check_estate(state, seat, p) -> None:
    """A player's estate after a change: masks, colours, knowledge, cities and the scores that
    follow from the estate alone."""
    board = state.boards[seat]
    occupied = 0
    knowledge = 0
    for space, tile in enumerate(p.estate):
        if tile == EMPTY:
            continue
        occupied |= 1 << space
        assert TILE_COLOUR[tile] == board.colours[space], (space, tile)
        if KNOWLEDGE_NUMBER[tile]:
            knowledge |= 1 << KNOWLEDGE_NUMBER[tile]
    assert p.occupied == occupied
    assert p.frontier == frontier_of(occupied)
    assert p.knowledge == knowledge
    start = 1 << state.config.start_spaces[seat]
    regions = 0
    for region in board.regions:
        if region.mask & occupied == region.mask and region.mask != start:
            regions += REGION_VP[region.size]
            if not p.knowledge >> 1 & 1 and region.colour == 0:  # cities: one of each building
                city = [p.estate[s] for s in range(SPACE_COUNT) if region.mask >> s & 1]
                assert len(set(city)) == len(city)
    assert p.breakdown[Category.REGIONS] == regions
    assert p.breakdown[Category.WATCHTOWERS] == 4 * p.estate.count(Building.WATCHTOWER)
    ships = p.estate.count(Tile.SHIP)
    assert state.track[seat][0] == ships


def check_player(state, seat, p, step_owner) -> None:
    n = state.config.players
    assert p.silver >= 0 and p.workers >= 0
    assert min(p.goods) >= 0 and p.goods[0] == 0 and p.sold[0] == 0
    assert sum(1 for g in p.goods if g) <= GOODS_SLOTS
    if len(p.storage) == 4:
        assert step_owner and state.step == Step.DISCARD
    else:
        assert len(p.storage) <= 3
    assert min(p.breakdown) >= 0
    assert p.breakdown[Category.SALES] == SALE_VP[n] * sum(p.sold)
    assert p.breakdown[Category.COLOUR_BONUSES] == sum(
        COLOUR_BONUS_VP[(n, rank)] for rank in p.bonuses if rank)
    if state.is_over:
        assert p.breakdown[Category.GOODS_LEFT] == sum(p.goods)
        assert p.breakdown[Category.SILVER_LEFT] == p.silver
        assert p.breakdown[Category.WORKERS_LEFT] == p.workers // 2
        assert p.breakdown[Category.KNOWLEDGE] == knowledge_points(p, state.config.edition)
    else:
        assert all(p.breakdown[c] == 0 for c in _FINAL)


class Checker:
    """Checks every step of one game and counts what happened for the coverage report."""

    def __init__(self, coverage: Counter) -> None:
        self.coverage = coverage

    def __call__(self, before, after, action) -> None:
        cov = self.coverage
        check_tiles(after)
        check_goods(after)
        n = after.config.players
        seat_to_move = after.to_move
        if after.is_over or after.chance is not None:
            assert seat_to_move is None
            assert legal_actions(after) == []
        else:
            assert seat_to_move in range(n)
            assert sorted(after.order) == list(range(n))
            assert all(1 <= d <= 6 for d in after.players[seat_to_move].dice)
            assert legal_actions(after)
            cov[("step", after.step)] += 1
        if action is not None:
            cov[("action", type(action).__name__)] += 1
        assert after.bonus_taken == tuple(
            sum(1 for p in after.players if p.bonuses[c]) for c in range(6))
        for seat, (old, new) in enumerate(zip(before.players, after.players, strict=True)):
            assert new.vp >= old.vp
            assert new.vp == sum(new.breakdown)
            if new is old:
                continue
            check_player(after, seat, new, seat == seat_to_move)
            if new.estate is not old.estate or after.track is not before.track:
                check_estate(after, seat, new)
            for c in range(6):
                if new.bonuses[c] != old.bonuses[c]:
                    cov[("bonus", new.bonuses[c])] += 1
            if new.knowledge != old.knowledge:
                cov[("knowledge", (new.knowledge ^ old.knowledge).bit_length() - 1)] += 1
            if new.breakdown[Category.REGIONS] > old.breakdown[Category.REGIONS]:
                cov["region completed"] += 1
        if after.is_over:
            result = outcome(after)
            assert sorted(result.ranking) == list(range(n))
            assert result.scores[result.winner] == max(result.scores)
            cov["games"] += 1


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_legal_games_finish_and_keep_every_invariant(players):
    coverage: Counter = Counter()
    checker = Checker(coverage)
    actions = 0
    for i in range(GAMES_PER_PLAYER_COUNT):
        policy = POLICIES[i % len(POLICIES)]
        edition = E2019 if i % 2 else E2011
        state, count = random_game(players, 1000 * players + i, policy=policy,
                                   edition=edition, visit=checker)
        assert state.is_over and state.phase == 5
        actions += count
    assert coverage["games"] == GAMES_PER_PLAYER_COUNT
    assert actions > 100 * GAMES_PER_PLAYER_COUNT
    # the games reached every kind of decision and the rare rules
    assert {s for kind, s in coverage if kind == "step"} == set(Step)
    assert {k for kind, k in coverage if kind == "knowledge"} == set(range(1, 27))
    assert coverage[("bonus", 1)] and coverage[("bonus", 2)]
    assert coverage["region completed"] > GAMES_PER_PLAYER_COUNT
