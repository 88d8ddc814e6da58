"""Victory points: completed regions, colour bonuses, final scoring and the winner (pages 8-9)."""

from __future__ import annotations

import pytest

from p2p_burgundy import END_TURN, PlaceTile, Step, UseDie, apply, legal_actions, outcome
from p2p_burgundy.estate import NEIGHBOURS, all_estates, bits
from p2p_burgundy.scoring import REGION_VP, Category
from p2p_burgundy.tiles import Building, Colour, Tile
from tests.engine.helpers import (
    end_turn,
    mover,
    play,
    position,
    started,
    with_game,
    with_player,
)

REGION_TABLE = {1: 1, 2: 3, 3: 6, 4: 10, 5: 15, 6: 21, 7: 28, 8: 36}

FILL = {
    Colour.BEIGE: [*range(Building.WAREHOUSE, Building.WATCHTOWER)],  # the last placed: tower
    Colour.LIGHT_GREEN: [Tile.COW_2, Tile.SHEEP_2, Tile.PIG_2, Tile.CHICKEN_2, Tile.COW_3,
                         Tile.SHEEP_3, Tile.PIG_3, Tile.CHICKEN_3],
    Colour.BLUE: [Tile.SHIP] * 8,
    Colour.DARK_GREEN: [Tile.CASTLE] * 8,
    Colour.GREY: [Tile.MINE] * 8,
    Colour.YELLOW: [Tile.KNOWLEDGE_20 + i for i in range(8)],
}
LAST = {Colour.BEIGE: Tile.WATCHTOWER, Colour.LIGHT_GREEN: Tile.CHICKEN_4,
        Colour.BLUE: Tile.SHIP, Colour.DARK_GREEN: Tile.CASTLE, Colour.GREY: Tile.MINE,
        Colour.YELLOW: Tile.KNOWLEDGE_2}


def region_of_size(size):
    """(estate id, start castle space, region) for a region of ``size`` on a shipped estate."""
    for board in all_estates().values():
        for region in board.regions:
            if region.size != size or region.colour == Colour.DARK_GREEN:
                continue
            starts = [s for s in board.dark_green_spaces if not region.mask >> s & 1]
            return board, starts[0], region
    raise AssertionError(f"no region of size {size}")


def test_region_table_is_triangular():
    assert {size: REGION_VP[size] for size in range(1, 9)} == REGION_TABLE


@pytest.mark.parametrize("size", range(1, 9))
def test_completing_a_region_scores_its_size_and_the_phase_bonus(size):
    board, start, region = region_of_size(size)
    spaces = bits(region.mask)
    last = spaces[-1]
    colour = region.colour
    estate = {s: FILL[colour][i] for i, s in enumerate(spaces[:-1])}
    if size == 1:  # something next to it so that it may be placed
        neighbour = next(s for s in bits(NEIGHBOURS[last]) if s != start)
        estate[neighbour] = LAST[board.colours[neighbour]] \
            if board.colours[neighbour] != Colour.BEIGE else Tile.BANK
    state = position(estate_id=board.id, start_space=start, estate=estate,
                     storage=(LAST[colour],), pending=[(Step.FREE_ACTION, 0)])
    assert PlaceTile(0, last) in legal_actions(state)
    before = mover(state).breakdown
    after = mover(apply(state, PlaceTile(0, last))).breakdown
    assert after[Category.REGIONS] - before[Category.REGIONS] == REGION_TABLE[size]
    assert after[Category.PHASE_BONUSES] - before[Category.PHASE_BONUSES] == 10


@pytest.mark.parametrize(("phase", "bonus"), [(0, 10), (1, 8), (2, 6), (3, 4), (4, 2)])
def test_phase_bonus_per_completed_region_falls_from_10_to_2(phase, bonus):
    state = with_game(position(dice=(3, 3), storage=(Tile.BANK,)), phase=phase)
    after = play(state, UseDie(0), PlaceTile(0, 11))  # a one-space city
    p = mover(after)
    assert p.breakdown[Category.REGIONS] == 1
    assert p.breakdown[Category.PHASE_BONUSES] == bonus
    assert p.vp == 1 + bonus


def test_covering_part_of_a_region_scores_nothing():
    state = position(dice=(3, 3), storage=(Tile.BANK,))
    after = play(state, UseDie(0), PlaceTile(0, 25))  # one space of the five-space city
    assert mover(after).vp == 0


def complete_grey(state):
    """The mover covers the last of the three mines (space 24, die 4)."""
    state = with_player(state, estate={29: Tile.MINE, 33: Tile.MINE}, storage=(Tile.MINE,),
                        dice=(4, 4), dice_used=0)
    return play(state, UseDie(0), PlaceTile(0, 24))


@pytest.mark.parametrize(("players", "first", "second"), [(2, 5, 2), (3, 6, 3), (4, 7, 4)])
def test_first_and_second_to_cover_a_colour_get_the_large_and_small_bonus(players, first,
                                                                          second):
    state = started(players, seed="bonus")
    seats = state.order
    gains = []
    for seat in seats:
        assert state.to_move == seat
        before = state.players[seat].breakdown[Category.COLOUR_BONUSES]
        state = complete_grey(state)
        p = state.players[seat]
        gains.append(p.breakdown[Category.COLOUR_BONUSES] - before)
        assert p.breakdown[Category.REGIONS] == 6  # the three mines are one region
        assert p.breakdown[Category.PHASE_BONUSES] == 10
        state = end_turn(state)
    assert gains == [first, second] + [0] * (players - 2)
    assert state.bonus_taken[Colour.GREY] == 2
    assert [state.players[s].bonuses[Colour.GREY] for s in seats] == [1, 2] + [0] * (players - 2)


def test_colour_bonus_needs_every_space_of_the_colour_not_just_a_region():
    # five of six pasture spaces covered (big pasture done, the single one at 27 empty)
    state = position(dice=(4, 4), storage=(Tile.PIG_2,),
                     estate={0: Tile.COW_2, 4: Tile.COW_3, 5: Tile.SHEEP_2, 9: Tile.SHEEP_3,
                             11: Tile.BANK})
    after = play(state, UseDie(0), PlaceTile(0, 10))
    p = mover(after)
    assert p.breakdown[Category.REGIONS] == 15
    assert p.breakdown[Category.COLOUR_BONUSES] == 0
    last = position(dice=(2, 2), storage=(Tile.PIG_2,),
                    estate={0: Tile.COW_2, 4: Tile.COW_3, 5: Tile.SHEEP_2, 9: Tile.SHEEP_3,
                            10: Tile.PIG_3, 20: Tile.SHIP, 17: Tile.SHIP, 19: Tile.SHIP})
    after = play(last, UseDie(0), PlaceTile(0, 27))
    p = mover(after)
    assert p.breakdown[Category.REGIONS] == 1
    assert p.breakdown[Category.COLOUR_BONUSES] == 5
    assert p.bonuses[Colour.LIGHT_GREEN] == 1


# --- Final scoring ---------------------------------------------------------------------------

def last_turn(players=2, **fields):
    state = with_game(started(players, seed="final-scoring"), phase=4, round=4,
                      turn=players - 1)
    return with_player(state, dice_used=0b11, **fields)


@pytest.mark.parametrize(("workers", "points"), [(0, 0), (1, 0), (2, 1), (5, 2), (8, 4)])
def test_final_scoring_counts_goods_silver_and_pairs_of_workers(workers, points):
    state = last_turn(goods={1: 2, 5: 1}, silver=4, workers=workers, knowledge=[],
                      storage=(Tile.BANK, Tile.SHIP), breakdown=[3] + [0] * 9)
    seat = state.to_move
    after = apply(state, END_TURN)
    assert after.is_over
    p = after.players[seat]
    assert p.breakdown[Category.GOODS_LEFT] == 3
    assert p.breakdown[Category.SILVER_LEFT] == 4
    assert p.breakdown[Category.WORKERS_LEFT] == points
    assert p.breakdown[Category.KNOWLEDGE] == 0  # tiles in storage score nothing
    assert p.vp == 3 + 3 + 4 + points


def test_final_scoring_happens_once_for_every_player():
    state = last_turn(3)
    after = apply(state, END_TURN)
    for before, p in zip(state.players, after.players, strict=True):
        assert p.breakdown[Category.SILVER_LEFT] == before.silver
        assert p.breakdown[Category.GOODS_LEFT] == sum(before.goods)
        assert p.breakdown[Category.WORKERS_LEFT] == before.workers // 2
        assert p.silver == before.silver  # scoring does not spend them


# --- The winner ------------------------------------------------------------------------------

def finished(players, scores, empty, order):
    """A finished game with these scores, these counts of empty spaces and this turn order."""
    state = started(players, seed="outcome")
    for seat in range(players):
        estate = tuple(Tile.SHIP if s < 37 - empty[seat] else -1 for s in range(37))
        state = with_player(state, seat=seat, estate=estate,
                            breakdown=[scores[seat]] + [0] * 9)
    return with_game(state, phase=5, order=tuple(order), turn=players)


def test_most_victory_points_wins():
    result = outcome(finished(3, [40, 55, 47], [5, 9, 1], [0, 1, 2]))
    assert result.ranking == (1, 2, 0)
    assert result.winner == 1
    assert result.scores == (40, 55, 47)
    assert result.empty_spaces == (5, 9, 1)
    assert result.decided_by == "score"


def test_tie_goes_to_the_fewest_empty_estate_spaces():
    result = outcome(finished(2, [60, 60], [4, 3], [1, 0]))
    assert result.ranking == (1, 0)
    assert result.decided_by == "fewest empty spaces"


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 0, 1), (1, 2, 0)])
def test_full_tie_goes_to_the_player_later_in_turn_order(order):
    result = outcome(finished(3, [70, 70, 70], [2, 2, 2], order))
    assert result.ranking == tuple(reversed(order))
    assert result.decided_by == "later in turn order"


def test_ranking_uses_the_tie_breaks_below_the_winner_too():
    # seats 2 and 3 beat seat 1 on empty spaces; seat 2 beats seat 3 as it moved later
    result = outcome(finished(4, [90, 50, 50, 50], [0, 6, 2, 2], [3, 2, 1, 0]))
    assert result.ranking == (0, 2, 3, 1)
    assert result.decided_by == "score"
