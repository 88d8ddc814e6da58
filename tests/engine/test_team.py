"""The team game (2019 rulebook, "The Team Game"): every rule of its section.

Positions are on the shipped provisional team board: half 1 laid out as duchy 2, half 2 as
duchy 3, the team's castle on half 1's C1 at the end of row 4 (space 21), which touches three
spaces of half 2 across the seam. Teams are seats (0, 2) as A1, A2 and (1, 3) as B1, B2.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from p2p_burgundy import (
    END_TURN,
    ChooseEstate,
    ConfigError,
    GameConfig,
    PlaceTile,
    TakeTile,
    TakeWorkers,
    UseDie,
    apply,
    legal_actions,
    new_game,
    outcome,
    resolve_chance,
)
from p2p_burgundy.actions import Stow
from p2p_burgundy.config import Edition, Module
from p2p_burgundy.errors import EstateDataError
from p2p_burgundy.estate import (
    PROVISIONAL_TEAM_BOARD,
    bits,
    caveat,
    parse_team_board,
    team_board,
)
from p2p_burgundy.scoring import Category
from p2p_burgundy.state import EMPTY, GameState, PlayerState, Step
from p2p_burgundy.tiles import NORMAL_SUPPLY, Colour, Tile
from tests.engine.helpers import (
    E2019,
    POLICIES,
    assert_illegal,
    empty_depots,
    entropy,
    play,
    random_game,
    resolve_all,
    total_tiles,
    with_game,
)

TEAMS = ((0, 2), (1, 3))
CASTLE = 21  # C1 (half 1, row 4, 7)
BOARD = team_board(PROVISIONAL_TEAM_BOARD)


def team_game(teams=TEAMS, seed: object = 0, modules=()) -> GameState:
    """A team game after set-up, phase A and round 1's dice: A1 to move."""
    return resolve_all(new_game(GameConfig(4, E2019, teams=teams, modules=modules)), seed)


def with_seat(state: GameState, seat: int, **fields) -> GameState:
    """A clone with fields of one seat replaced as given (nothing recomputed)."""
    new = state.clone()
    players = list(new.players)
    p = players[seat] = players[seat].copy()
    for name, value in fields.items():
        setattr(p, name, value)
    new.players = tuple(players)
    return new


def with_storage(state: GameState, own: dict[int, tuple[int, ...]],
                 team: tuple[tuple[int, ...], tuple[int, ...]]) -> GameState:
    """Each seat's own stored tiles (``own``; others none) and each team's shared ones."""
    private = [0] * 4
    for index, (first, second) in enumerate(TEAMS):
        for seat in (first, second):
            mine = tuple(int(t) for t in own.get(seat, ()))
            state = with_seat(state, seat, storage=mine + tuple(int(t) for t in team[index]))
            private[seat] = len(mine)
    state = state.clone()
    state.changed("team").private = tuple(private)
    return state


def a1_to_move(dice=(1, 2), **depots) -> GameState:
    """A1 to move with ``dice``, team A without workers, depots as given (``d1=tiles``)."""
    state = empty_depots(team_game())
    state = with_seat(state, 0, dice=dice, dice_used=0, workers=0)
    state = with_seat(state, 2, workers=0)
    if depots:
        state = with_game(state, depots={int(d[1:]): tiles for d, tiles in depots.items()})
    return state


# --- Set-up -------------------------------------------------------------------------------------

def test_each_team_gets_a_castle_three_goods_and_its_workers_and_silver():
    state = team_game(seed=3)
    p = state.players
    assert [q.workers for q in p] == [3, 5, 3, 5]  # team A 3, team B 5
    assert [q.silver for q in p] == [2, 2, 2, 2]  # 2 per team
    for first, second in TEAMS:
        assert sum(p[first].goods) == 3 and p[first].goods == p[second].goods
        assert p[first].estate == p[second].estate
        assert bits(p[first].occupied) == [CASTLE]  # one castle, on the central C1
        assert p[first].estate[CASTLE] == Tile.CASTLE
    # at set-up two castles left the supply (one per team), not four, and 6 goods
    set_up = resolve_chance(new_game(state.config), entropy(3, 0))
    assert len(set_up.supplies[Colour.DARK_GREEN]) == len(NORMAL_SUPPLY[Colour.DARK_GREEN]) - 2
    assert len(set_up.goods_pool) == 42 - 6
    assert all(q.dice != (0, 0) for q in p)  # each player rolls their own dice


@pytest.mark.parametrize(("teams", "order"), [
    (((0, 2), (1, 3)), (0, 1, 2, 3)),
    (((3, 1), (2, 0)), (3, 2, 1, 0)),
    (((1, 0), (3, 2)), (1, 3, 0, 2)),
])
def test_round_one_is_played_a1_b1_a2_b2(teams, order):
    state = team_game(teams)
    assert state.order == order
    a1, _, a2, _ = order
    assert state.players[a1].workers == state.players[a2].workers == 3


def test_the_team_game_configuration_and_its_refusals():
    config = GameConfig(4, E2019, teams=TEAMS)
    assert config.estates == (PROVISIONAL_TEAM_BOARD,) * 4 and config.start_spaces == (21,) * 4
    assert config.to_tree() == [4, "2019", [PROVISIONAL_TEAM_BOARD] * 4, [21] * 4, "standard",
                                [], [], False, 50, [], [[0, 2], [1, 3]]]
    assert GameConfig.from_tree(config.to_tree()) == config
    assert config.partner(3) == 1 and config.team_of(2) == (0, 2)
    for kwargs, phrase in [
        ({"players": 3, "teams": ((0, 2), (1, 3))}, "for 4 players"),
        ({"teams": ((0, 1), (1, 3))}, "two teams of two"),
        ({"teams": ((0, 1, 2), (3,))}, "two teams of two"),
        ({"teams": TEAMS, "edition": Edition.E2011}, "2019 edition"),
        ({"teams": TEAMS, "estates": ("1",) * 4}, "one team board at every seat"),
        ({"estates": (PROVISIONAL_TEAM_BOARD,) * 4}, "is a team board"),
        ({"teams": TEAMS, "modules": (Module.SHIELDS,)}, "without shields"),
        ({"teams": TEAMS, "start_spaces": (14,) * 4}, "castle stands where its team board "
                                                       "prints it, not on B3 (half 1, row 3, 6)"),
    ]:
        args = {"players": 4, "edition": E2019, **kwargs}
        with pytest.raises(ConfigError, match=re.escape(phrase)):
            GameConfig(**args)


# --- Shared resources ---------------------------------------------------------------------------

def test_workers_silver_goods_and_the_duchy_are_the_teams():
    state = a1_to_move()
    before = state.players[2].workers
    state = play(state, UseDie(0), TakeWorkers())
    assert state.players[0].workers == state.players[2].workers == before + 2
    assert state.players[1].workers == state.players[3].workers == 5  # team B's: unchanged
    assert state.players[2].dice_used == 0  # dice are each player's own


def test_a_tile_taken_goes_to_the_players_own_storage_or_the_teams():
    state = a1_to_move(d1=(Tile.SHIP,))
    state = play(state, UseDie(0), TakeTile(1, 0))
    assert state.step == Step.STOW
    assert legal_actions(state) == [Stow(0, -1), Stow(1, -1)]
    own = apply(state, Stow(0, -1))
    assert own.players[0].storage == (Tile.SHIP,) and own.private == (1, 0, 0, 0)
    assert own.players[2].storage == ()  # A2 cannot use A1's own tiles
    shared = apply(state, Stow(1, -1))
    assert shared.players[0].storage == shared.players[2].storage == (Tile.SHIP,)
    assert shared.private == (0, 0, 0, 0)
    assert shared.players[1].storage == ()  # the other team's storage is its own


def test_a_full_storage_discards_one_of_its_own_old_tiles():
    state = with_storage(a1_to_move(d1=(Tile.SHIP,)), {0: (Tile.MINE, Tile.CHURCH)},
                         ((Tile.BANK,), ()))
    state = play(state, UseDie(0), TakeTile(1, 0))
    assert legal_actions(state) == [Stow(0, 0), Stow(0, 1), Stow(1, -1)]
    assert_illegal(state, Stow(0, -1), "your storage is full: discard one of its 2 tiles")
    assert_illegal(state, Stow(1, 0), "the team's storage has room: discard nothing (-1)")
    assert_illegal(state, Stow(2, -1), "shared is 0 (your own storage) or 1 (the team's)")
    after = apply(state, Stow(0, 0))
    assert after.players[0].storage == (Tile.CHURCH, Tile.SHIP, Tile.BANK)
    assert after.private[0] == 2 and after.box[Tile.MINE] == state.box[Tile.MINE] + 1
    assert after.players[2].storage == (Tile.BANK,)  # nothing moved into the team's storage


def test_a_player_places_from_their_own_and_the_teams_storage_never_the_partners():
    state = with_storage(a1_to_move(dice=(6, 2)), {0: (Tile.SHIP,), 2: (Tile.MINE,)},
                         ((Tile.BANK,), ()))
    assert state.players[0].storage == (Tile.SHIP, Tile.BANK)  # A2's mine is not A1's
    six = play(state, UseDie(0))
    assert [a for a in legal_actions(six) if isinstance(a, PlaceTile)] == [PlaceTile(1, 52)]
    # the bank from the team's storage, by A1, on B6 across the seam: gone for A2 too
    state = play(six, PlaceTile(1, 52))
    assert state.players[2].storage == (Tile.MINE,) and state.private == (1, 0, 1, 0)
    state = play(state, UseDie(1), PlaceTile(0, 27))  # A1's own ship on S2 (no goods to take)
    assert state.private == (0, 0, 1, 0) and state.players[0].storage == ()
    assert state.players[2].storage == (Tile.MINE,)
    assert state.players[2].estate[27] == Tile.SHIP  # the duchy is the team's


def test_the_halves_are_one_duchy_joined_across_the_seam():
    assert [BOARD.label(s) for s in bits(BOARD.neighbours[CASTLE])] == [
        "B3 (half 1, row 3, 6)", "K4 (half 1, row 4, 6)", "S2 (half 1, row 5, 6)",
        "B5 (half 2, row 3, 1)", "B6 (half 2, row 4, 1)", "B2 (half 2, row 5, 1)"]
    state = with_storage(a1_to_move(dice=(5, 3)), {0: (Tile.BANK,)}, ((), ()))
    five = play(state, UseDie(0))
    choices = [a for a in legal_actions(five) if isinstance(a, PlaceTile)]
    assert choices == [PlaceTile(0, 46)]  # the 5 places only across the seam
    assert_illegal(five, PlaceTile(0, 74), "estate spaces are 0..73")
    state = play(state, UseDie(0), PlaceTile(0, 46))
    assert [BOARD.label(s) for s in bits(state.players[2].frontier)] == [
        "B3 (half 1, row 3, 6)", "K4 (half 1, row 4, 6)", "S2 (half 1, row 5, 6)",
        "S2 (half 2, row 2, 1)", "M4 (half 2, row 3, 2)", "B6 (half 2, row 4, 1)",
        "B1 (half 2, row 4, 2)", "B2 (half 2, row 5, 1)"]


# --- Scoring ------------------------------------------------------------------------------------

def _finished(vp: tuple[int, ...], empty: tuple[int, int]) -> GameState:
    state = team_game()
    for seat, points in enumerate(vp):
        breakdown = [0] * len(state.players[seat].breakdown)
        breakdown[Category.REGIONS] = points
        filled = len(BOARD.spaces) - empty[seat % 2]
        estate = tuple([Tile.MINE] * filled + [EMPTY] * empty[seat % 2])
        state = with_seat(state, seat, breakdown=tuple(breakdown), estate=estate)
    state = state.clone()
    state.phase = 5
    return state


def test_the_teams_points_are_added_up():
    result = outcome(_finished((40, 75, 50, 10), (30, 20)))
    assert result.teams == ((0, 2), (1, 3)) and result.team_scores == (90, 85)
    assert result.ranking == (0, 2, 1, 3) and result.decided_by == "team score"


def test_a_tie_goes_to_the_team_with_more_empty_spaces():
    result = outcome(_finished((40, 55, 50, 35), (20, 30)))
    assert result.team_scores == (90, 90)
    assert result.ranking == (1, 3, 0, 2) and result.decided_by == "more empty spaces"


def test_final_scoring_counts_the_teams_silver_goods_workers_and_monasteries_once():
    state, _ = random_game(4, 11, policy=POLICIES[1], edition=E2019, teams=TEAMS)
    p = state.players
    for first, second in TEAMS:
        assert p[first].breakdown[Category.SILVER_LEFT] == p[first].silver
        assert p[first].breakdown[Category.GOODS_LEFT] == sum(p[first].goods)
        assert p[first].breakdown[Category.WORKERS_LEFT] == p[first].workers // 2
        for category in (Category.SILVER_LEFT, Category.GOODS_LEFT, Category.WORKERS_LEFT):
            assert p[second].breakdown[category] == 0


def test_a_ship_on_the_last_bridge_space_goes_on_top_of_the_stack():
    state = with_storage(a1_to_move(dice=(2, 2)), {0: (Tile.SHIP,)}, ((), ()))
    state = state.clone()
    state.track = ((6, 1), (6, 4), (0, 2), (0, 0))  # B1 on top of A1 on the last space
    state.track_stamp = 5
    state = play(state, UseDie(0), PlaceTile(0, 27))
    assert state.track[0] == (6, 5)
    assert state.bridge_order()[:2] == (0, 1)


# --- Whole games --------------------------------------------------------------------------------

def _team_census(state: GameState) -> Counter[int]:
    """Every hex tile: each team's duchy and shared storage once, each player's own."""
    census = Counter([*(t for s in state.supplies for t in s), *(t for d in state.depots
                                                                    for t in d)])
    for first, second in state.config.teams:
        census.update(state.players[first].estate)
        for seat in (first, second):
            p: PlayerState = state.players[seat]
            census.update(p.storage[:state.private[seat]])
        census.update(state.players[first].storage[state.private[first]:])
    del census[EMPTY]
    for tile, boxed in enumerate(state.box):
        census[tile] += boxed
    census[Tile.INN] += state.inns
    return +census


@pytest.mark.parametrize("seed", range(6))
def test_random_team_games_keep_the_team_fields_shared_and_every_tile(seed):
    modules = (Module.EXTRA_TILES, Module.WHITE_CASTLES, Module.INNS) if seed % 2 else ()
    config = GameConfig(4, E2019, teams=TEAMS, modules=modules)
    total = +total_tiles(config)

    def check(before, after, action) -> None:
        if after.pending and after.pending[-1][0] == Step.STOW:
            return  # a tile taken is in the mover's hand
        for first, second in TEAMS:
            a, b = after.players[first], after.players[second]
            assert (a.silver, a.workers, a.goods, a.estate, a.knowledge, a.bonuses) == (
                b.silver, b.workers, b.goods, b.estate, b.knowledge, b.bonuses)
            assert a.storage[after.private[first]:] == b.storage[after.private[second]:]
            for seat in (first, second):
                assert after.private[seat] <= 2
                assert len(after.players[seat].storage) - after.private[seat] <= 2
        assert _team_census(after) == total

    state, count = random_game(4, 500 + seed, policy=POLICIES[seed % 3], edition=E2019,
                               modules=modules, teams=TEAMS, visit=check)
    assert state.is_over and count > 300
    result = outcome(state)
    assert sum(result.team_scores) == sum(p.vp for p in state.players)


# --- The team board file ------------------------------------------------------------------------

def test_the_provisional_board_says_it_is_not_the_printed_one():
    assert "provisional: not the printed board" in caveat(BOARD)
    assert GameConfig(4, E2019, teams=TEAMS).caveats() == [caveat(BOARD)]


def test_a_team_board_file_round_trips_and_travels_in_the_config():
    record = {**BOARD.record(), "id": "ours", "source": "our box"}
    board = parse_team_board(record)
    assert board.record() == record and "not an official board" in caveat(board)
    config = GameConfig(4, E2019, estates=("ours",) * 4, custom=(board,), teams=TEAMS)
    tree = config.to_tree()
    assert tree[6] == [[record[k] for k in ("id", "name", "halves", "joins", "start_castle",
                                             "shared_storage", "private_storage", "source")]]
    assert GameConfig.from_tree(tree) == config


@pytest.mark.parametrize(("change", "phrase"), [
    ({"rows": []}, "unknown field 'rows'"),
    ({"id": PROVISIONAL_TEAM_BOARD}, "id of a shipped board"),
    ({"halves": [BOARD.record()["halves"][0]]}, "a list of two halves"),
    ({"halves": [BOARD.record()["halves"][0], ["B6"] * 7]},
     "half 2: row 1 has 1 spaces, needs 4"),
    ({"joins": [[[0, 3, 6], [0, 2, 5]]]}, "the first space is on half 0, the second on half 1"),
    ({"joins": [[[0, 3, 6], [1, 3, 0]]] * 2}, "is given twice"),
    ({"start_castle": [0, 3, 5]}, "must stand on a dark green space"),
    ({"start_castle": [2, 3, 6]}, "[half 0 or 1, row, column]"),
    ({"shared_storage": 0}, "1 to 3 each"),
])
def test_a_bad_team_board_file_is_refused_naming_the_problem(change, phrase):
    record = {**BOARD.record(), "id": "ours", **change}
    with pytest.raises(EstateDataError, match=re.escape(phrase)) as info:
        parse_team_board(record)
    assert str(info.value).startswith("team board ")


def test_an_area_across_the_seam_counts_both_halves_and_stops_at_eight_spaces():
    city = next(r for r in BOARD.regions if r.mask >> CASTLE - 7 & 1)  # half 1's B3, by 21
    assert [BOARD.label(s) for s in bits(city.mask)] == [
        "B4 (half 1, row 2, 5)", "B3 (half 1, row 3, 6)", "B5 (half 2, row 3, 1)",
        "B6 (half 2, row 4, 1)", "B1 (half 2, row 4, 2)", "B2 (half 2, row 5, 1)",
        "B5 (half 2, row 5, 2)"]
    record = BOARD.record()
    joined = {**record, "id": "ours", "joins": [*record["joins"], [[0, 0, 1], [1, 2, 0]]]}
    with pytest.raises(EstateDataError, match="a beige region has 15 spaces"):
        parse_team_board(joined)  # with half 1's city of 8


def test_end_turn_is_offered_once_both_dice_are_used():
    state = play(a1_to_move(), UseDie(0), TakeWorkers(), UseDie(1), TakeWorkers())
    state = apply(state, END_TURN)
    assert state.order[state.turn] == 1  # B1 follows A1


def test_a_team_board_may_print_a_choice_of_castle_spaces_and_each_team_chooses_once():
    # 12b: "each team chooses either the 1 or the 6 dark green hex space"
    record = {**BOARD.record(), "id": "12b", "start_castle": [[0, 3, 6], [1, 3, 3]]}
    board = parse_team_board(record)
    assert board.start_castle is None and board.record() == record
    assert [board.label(s) for s in board.castle_choices] == ["C1 (half 1, row 4, 7)",
                                                               "C6 (half 2, row 4, 4)"]
    config = GameConfig(4, E2019, estates=("12b",) * 4, custom=(board,), teams=TEAMS)
    assert config.start_spaces == (-1,) * 4
    state = resolve_chance(new_game(config), entropy(1, 0))
    assert state.to_move == 0 and state.step == Step.CHOOSE_ESTATE
    assert legal_actions(state) == [ChooseEstate(0, 21), ChooseEstate(0, 55)]
    assert_illegal(state, ChooseEstate(0, 14), "C1 (half 1, row 4, 7)", "not B3")
    state = apply(state, ChooseEstate(0, 55))  # A1 for team A
    assert bits(state.players[2].occupied) == [55] and state.players[2].estate[55] == Tile.CASTLE
    assert state.to_move == 1  # B1 for team B; A2 and B2 have nothing to choose
    state = apply(state, ChooseEstate(0, 21))
    assert state.chance is not None and state.chance.kind.name == "PHASE"
    assert bits(state.players[3].occupied) == [21]
    for kwargs, phrase in [({"start_spaces": (21, 55, 21, 21)}, "share one castle"),
                           ({"start_spaces": (14,) * 4}, "not on B3 (half 1, row 3, 6)")]:
        with pytest.raises(ConfigError, match=re.escape(phrase)):
            GameConfig(4, E2019, estates=("12b",) * 4, custom=(board,), teams=TEAMS, **kwargs)


def test_monastery_27_puts_both_pieces_of_its_team_on_top_of_their_stack():
    state = team_game(modules=(Module.EXTRA_TILES,))
    for seat in (0, 2):  # the duchy is the team's: its #27 counts for both players
        state = with_seat(state, seat, knowledge=state.players[seat].knowledge | 1 << 27)
    state = state.clone()
    state.track = ((2, 1), (2, 4), (2, 0), (2, 3))  # one stack, B1 and B2 placed last
    assert state.bridge_order() == (0, 2, 1, 3)
