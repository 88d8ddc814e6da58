"""The bots: the interface and registry, complete legal games for every player count,
determinism per seed, and greedy clearly beating random (fixed seeds: never flaky)."""

from __future__ import annotations

import pytest

from p2p_burgundy import (
    END_TURN,
    Category,
    GameConfig,
    GameState,
    PlaceTile,
    apply,
    legal_actions,
    new_game,
    resolve_chance,
    state_hash,
)
from p2p_burgundy.cli.sim import BotError, SimConfig, chance_entropy, play_game, run_sim
from p2p_burgundy.cli.strategies import SEARCHERS, STRATEGIES, Strategy, make
from p2p_burgundy.cli.strategies.greedy import GreedyStrategy, position_value, rounds_left
from p2p_burgundy.tiles import Tile
from tests.engine.helpers import mover, position


class _Sink:
    def write(self, text: str) -> int:
        return len(text)


# Whole games at their default budget: search bots (1 s a decision) are tested with small
# budgets in test_mcts.py.
QUICK = sorted(set(STRATEGIES) - set(SEARCHERS))


def _started(players: int = 2, seed: int = 1):  # type: ignore[no-untyped-def]
    state = new_game(GameConfig(players=players))
    while state.chance is not None:
        state = resolve_chance(state, chance_entropy(seed, 0, state.chance.index))
    return state


def test_make_knows_every_registered_strategy_and_rejects_others() -> None:
    for name in STRATEGIES:
        bot = make(name, seed=1)
        assert isinstance(bot, Strategy)
        assert bot.name == name
    with pytest.raises(ValueError,
                       match="unknown strategy 'clever'; known: greedy, mcts, mcts-2026, random"):
        make("clever")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", QUICK)
def test_strategy_plays_complete_games_with_only_legal_actions(name: str, players: int) -> None:
    # play_game checks every choice against legal_actions and raises BotError otherwise.
    for game in range(2):
        bots = [make(name, seed=10 * game + seat) for seat in range(players)]
        state, decisions = play_game(GameConfig(players=players), bots, seed=42, game=game)
        assert state.is_over
        assert decisions > 100
        for p in state.players:
            assert p.vp == sum(p.breakdown) >= 0


def test_mixed_table_of_strategies_finishes() -> None:
    bots = [make(name, seed) for seed, name in enumerate(("greedy", "random", "greedy"))]
    state, _ = play_game(GameConfig(players=3), bots, seed=9)
    assert state.is_over


def test_an_illegal_choice_is_caught() -> None:
    class Cheater:
        name = "cheater"

        def choose(self, state, actions):  # type: ignore[no-untyped-def]
            return PlaceTile(0, 0)

    with pytest.raises(BotError, match=r"bot 'cheater' in seat \d chose PlaceTile"):
        play_game(GameConfig(players=2), [Cheater(), Cheater()], seed=1)


@pytest.mark.parametrize("name", QUICK)
def test_same_seed_same_game(name: str) -> None:
    def final_hash(bot_seed: int) -> bytes:
        bots = [make(name, bot_seed + seat) for seat in range(2)]
        return state_hash(play_game(GameConfig(players=2), bots, seed=5)[0])

    assert final_hash(3) == final_hash(3)
    if name == "random":
        assert final_hash(3) != final_hash(4)


def test_greedy_beats_random_clearly() -> None:
    # 10 deals, each played with greedy in either seat: deterministic, so this cannot flake.
    summary = run_sim(SimConfig(players=2, games=10, seed=2024, bots=("greedy", "random"),
                                rotate=True, quiet=True), _Sink())
    greedy, random_bot = summary.entrants
    assert greedy.games == 20
    assert greedy.wins >= 19
    assert greedy.mean >= 90
    assert greedy.mean > 2 * random_bot.mean


def _greedy_turn(state: GameState, bot: GreedyStrategy | None = None) -> GameState:
    """Let greedy (``bot``, or the default one) play the mover's whole turn; the state just
    before it ends the turn."""
    bot = GreedyStrategy(seed=0) if bot is None else bot
    seat = state.to_move
    while True:
        assert state.to_move == seat
        action = bot.choose(state, legal_actions(state))
        if action == END_TURN:
            return state
        state = apply(state, action)


def test_greedy_completes_a_region() -> None:
    # Two mines of the three-space mine region are down; a mine in storage fits the third
    # space (die 3), and a 3 was rolled.
    state = position(dice=(3, 5), estate={24: Tile.MINE, 29: Tile.MINE}, storage=(Tile.MINE,))
    before = mover(state).breakdown[Category.REGIONS]
    after = mover(_greedy_turn(state))
    assert after.estate[33] == Tile.MINE
    assert after.breakdown[Category.REGIONS] == before + 6


def test_greedy_places_what_it_can_instead_of_taking_workers() -> None:
    # A ship (river space 17, die 2) and a mine (space 24, die 4) wait in storage.
    state = position(dice=(2, 4), storage=(Tile.SHIP, Tile.MINE))
    after = mover(_greedy_turn(state))
    assert (after.estate[17], after.estate[24]) == (Tile.SHIP, Tile.MINE)
    assert after.workers == 0


def test_greedy_plays_for_the_value_it_is_given() -> None:
    # The position above, judged by workers alone (as mcts's rollouts judge the bot's own
    # turns by its leaf value): both dice take workers, the tiles stay in storage.
    state = position(dice=(2, 4), storage=(Tile.SHIP, Tile.MINE))
    workers = GreedyStrategy(seed=0, value=lambda s, seat: 10.0 * s.players[seat].workers)
    after = mover(_greedy_turn(state, workers))
    assert (after.workers, after.storage) == (4, (Tile.SHIP, Tile.MINE))


def test_greedy_sells_a_pile_of_goods() -> None:
    state = position(dice=(3, 6), goods={3: 3, 6: 1})
    after = mover(_greedy_turn(state))
    assert after.sold[3] == 3
    assert after.breakdown[Category.SALES] >= 3 * 2  # 2 VP per goods tile with 2 players


def test_greedy_buys_from_the_black_depot_when_it_can_place_the_tile() -> None:
    state = position(dice=(4, 4), silver=2, depots={0: (Tile.MINE,)})
    after = mover(_greedy_turn(state))
    assert after.bought
    assert after.estate[24] == Tile.MINE


def test_greedy_remembers_its_line_and_replans_when_surprised() -> None:
    state = _started()
    bot = GreedyStrategy(seed=0)
    first = bot.choose(state, legal_actions(state))
    after = apply(state, first)
    planned = bot.choose(after, legal_actions(after))
    assert planned in legal_actions(after)
    # A fresh bot reaches the same choice by searching from scratch.
    assert GreedyStrategy(seed=0).choose(after, legal_actions(after)) == planned


def test_follow_gives_the_moves_choose_makes_for_a_caller_asking_only_at_choices() -> None:
    # Two games of greedy self-play by a caller who asks only where there is a choice (as a
    # search's rollouts do): one asks choose at every choice, the other takes the moves of
    # follow (and the states they lead to) until they run out. The same game.
    def play(following: bool) -> tuple[list[object], bytes, int]:
        bots = [GreedyStrategy(seed=0) for _ in range(2)]
        state = _started(seed=2)  # a game where a line goes on through a forced move
        played: list[object] = []
        moves: list[tuple[object, GameState]] = []
        forced = 0  # moves of follow's that had no other choice
        while not state.is_over:
            if state.chance is not None:
                state = resolve_chance(state, chance_entropy(2, 0, state.chance.index))
                continue
            actions = legal_actions(state)
            if moves:
                action, after = moves.pop(0)
                assert action in actions
                assert state_hash(after) == state_hash(apply(state, action))
                if len(actions) == 1:  # played without asking: choose then searches again,
                    forced += 1  # so follow's moves end here
                    assert not moves
            elif len(actions) == 1:
                action, after = actions[0], apply(state, actions[0])
            elif following:
                moves = list(bots[state.order[state.turn]].follow(state, actions))
                action, after = moves.pop(0)
            else:
                action = bots[state.order[state.turn]].choose(state, actions)
                after = apply(state, action)
            played.append(action)
            state = after
        return played, state_hash(state), forced

    asked, final, _ = play(False)
    followed, final_followed, forced = play(True)
    assert followed == asked
    assert final_followed == final
    assert forced == 2


def test_position_value_counts_victory_points() -> None:
    state = _started()
    seat = state.order[state.turn]
    richer = state.clone()
    players = list(richer.players)
    p = players[seat].copy()
    p.add_vp(Category.SALES, 10)
    players[seat] = p
    richer.players = tuple(players)
    assert position_value(richer, seat) == pytest.approx(position_value(state, seat) + 10)
    assert rounds_left(state) == 25
