"""The ``mcts`` bot: legal complete games, reproducible decisions for a seed and budget, the
think-time budget, and parallel ``burgundy sim`` runs that match serial ones."""

from __future__ import annotations

import gc
import time

import pytest

from p2p_burgundy import Edition, EndTurn, GameConfig, GameState, apply, legal_actions, state_hash
from p2p_burgundy.cli.main import main
from p2p_burgundy.cli.sim import SimConfig, play_game, run_sim
from p2p_burgundy.cli.strategies import BotError, Strategy, make
from p2p_burgundy.cli.strategies.greedy import DEFAULT_WEIGHTS, TUNED_WEIGHTS
from p2p_burgundy.cli.strategies.mcts import (
    HORIZONS,
    PARAMS_2026,
    Mcts2026Strategy,
    MctsStrategy,
    SearchParams,
    _Node,
)

# Small budgets keep whole games quick: few rollouts, few positions per die action.
TINY = SearchParams(unit_budget=60)


class _Sink:
    def write(self, text: str) -> int:
        return len(text)


class _Recorder:
    """Wraps a bot and keeps every action it chose."""

    def __init__(self, bot: Strategy) -> None:
        self.bot = bot
        self.name = bot.name
        self.actions: list[object] = []

    def choose(self, state: GameState, actions):  # type: ignore[no-untyped-def]
        action = self.bot.choose(state, actions)
        self.actions.append(action)
        return action


def _mid_game(seed: int = 3, config: GameConfig | None = None) -> GameState:
    """A phase B position with the mover at the start of a turn (greedy played up to it), in
    a 2-player game unless ``config`` says otherwise."""
    config = config or GameConfig(players=2)
    class Stop(Exception):
        pass

    class Watch:
        name = "watch"

        def __init__(self) -> None:
            self.greedy = make("greedy")

        def choose(self, state: GameState, actions):  # type: ignore[no-untyped-def]
            if state.phase == 1 and not state.pending and len(actions) > 2:
                raise Stop(state)
            return self.greedy.choose(state, actions)

    with pytest.raises(BotError) as caught:  # what a bot raises is named, its cause kept
        play_game(config, [Watch() for _ in range(config.players)], seed=seed)
    assert isinstance(caught.value.__cause__, Stop)
    state: GameState = caught.value.__cause__.args[0]
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mcts_plays_complete_games_with_only_legal_actions(players: int) -> None:
    # play_game raises BotError on any choice that is not among the legal actions.
    bots = [MctsStrategy(seed=players, iterations=1, params=TINY)]
    bots += [make("random", seat) for seat in range(1, players)]
    state, decisions = play_game(GameConfig(players=players), bots, seed=11)
    assert state.is_over
    assert decisions > 100


def test_same_seed_and_budget_gives_the_same_actions() -> None:
    def actions(seed: int) -> tuple[list[object], bytes]:
        mcts = _Recorder(MctsStrategy(seed=seed, iterations=3, params=TINY))
        state, _ = play_game(GameConfig(players=2), [mcts, make("random", 5)], seed=4)
        return mcts.actions, state_hash(state)

    first = actions(7)
    assert actions(7) == first
    assert len(first[0]) > 50


def test_a_decision_depends_only_on_seed_budget_and_state() -> None:
    state = _mid_game()
    choices = {MctsStrategy(seed=1, iterations=6).choose(state, legal_actions(state))
               for _ in range(2)}
    assert len(choices) == 1
    assert choices <= set(legal_actions(state))


def test_think_time_is_respected() -> None:
    state = _mid_game()
    bot = make("mcts", seed=1, think=0.2)
    started = time.perf_counter()
    action = bot.choose(state, legal_actions(state))
    elapsed = time.perf_counter() - started
    assert action in legal_actions(state)
    assert elapsed < 1.5  # 0.2 s plus at most one rollout's overrun, with room for slow CI
    assert isinstance(bot, MctsStrategy) and bot.last_rollouts >= 1


def test_think_time_is_counted_by_the_clock_given() -> None:
    # A clock that moves 0.1 s at each read: the search starts at 0, must end by 0.95 s (5%
    # kept for planning) and stops before a step that would likely overrun (twice the mean
    # step so far): 0.8 + 2 * 0.8 / 8 >= 0.95 after the 8th step.
    state = _mid_game()
    reads = iter(range(1000))
    bot = MctsStrategy(seed=1, think=1.0, clock=lambda: next(reads) / 10)
    action = bot.choose(state, legal_actions(state))
    assert next(reads) == 9  # read at the start and after each of the 8 steps
    assert bot.last_rollouts == 8
    assert action == MctsStrategy(seed=1, iterations=8).choose(state, legal_actions(state))


def test_a_budget_of_rollouts_never_reads_the_clock() -> None:
    def clock() -> float:
        raise AssertionError("the clock was read")

    state = _mid_game()
    bot = MctsStrategy(seed=1, iterations=4, clock=clock)
    assert bot.choose(state, legal_actions(state)) in legal_actions(state)


def test_the_search_gives_the_garbage_collector_back_as_it_found_it() -> None:
    # paused while searching (no cycles to find there), on again after, even when the search
    # fails; left off if the caller had turned it off
    state = _mid_game()
    assert gc.isenabled()
    MctsStrategy(seed=1, iterations=2).choose(state, legal_actions(state))
    assert gc.isenabled()
    failing = MctsStrategy(seed=1, think=1.0, clock=lambda: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        failing.choose(state, legal_actions(state))
    assert gc.isenabled()
    gc.disable()
    try:
        MctsStrategy(seed=1, iterations=2).choose(state, legal_actions(state))
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_chosen_line_is_followed_without_searching_again() -> None:
    state = _mid_game()
    bot = MctsStrategy(seed=2, iterations=4)
    action = bot.choose(state, legal_actions(state))
    while bot._plan:  # the rest of the die action, as planned
        state = apply(state, action)
        action = bot.choose(state, legal_actions(state))
        assert bot.last_rollouts == 4  # no new search
    assert action in legal_actions(state)


def test_budgets_reach_the_bot_through_make() -> None:
    assert repr(make("mcts", 1, iterations=5)) == "MctsStrategy(iterations=5)"
    assert repr(make("mcts", 1, think=0.3)) == "MctsStrategy(think=0.3)"
    assert repr(make("mcts", 1)) == "MctsStrategy(think=1.0)"
    assert make("greedy", 1, think=0.3).name == "greedy"  # not a search bot: ignored
    with pytest.raises(ValueError, match="iterations must be at least 1"):
        make("mcts", 1, iterations=0)


def test_the_first_release_is_kept_as_mcts_2026() -> None:
    bot = make("mcts-2026", 1, iterations=5)
    assert isinstance(bot, Mcts2026Strategy)
    assert (bot.name, repr(bot)) == ("mcts-2026", "Mcts2026Strategy(iterations=5)")
    assert bot.params == PARAMS_2026
    assert (PARAMS_2026.value, PARAMS_2026.weights, PARAMS_2026.opponents,
            PARAMS_2026.horizon) == ("greedy", DEFAULT_WEIGHTS, 1.0, "reply")
    new = make("mcts", 1, iterations=5)
    assert isinstance(new, MctsStrategy)
    assert (new.params.value, new.params.weights) == ("learned", TUNED_WEIGHTS)
    state = _mid_game()
    for name in ("mcts", "mcts-2026"):
        assert make(name, 1, iterations=3).choose(state, legal_actions(state)) in \
            legal_actions(state)


def _judged(horizon: str, start: GameState | None = None) -> tuple[GameState, GameState, bool]:
    """The start of a turn (``start``, or a 2-player game's), the state one rollout from it
    judges at ``horizon``, and whether that rollout sampled a chance event."""
    start = start or _mid_game()
    bot = MctsStrategy(seed=1, iterations=1, params=SearchParams(horizon=horizon))
    judged, chanced = bot._horizon(_Node(start, (), 0.0), start.order[start.turn], b"world")
    return start, judged, chanced


def test_a_leafs_later_rollouts_play_on_from_where_its_first_met_chance() -> None:
    # Up to the first chance event every rollout from a leaf plays the same moves: the first
    # plays them, the later ones start there and end where a rollout from scratch does.
    start = _mid_game()
    seat = start.order[start.turn]
    leaf = _Node(start, (), 0.0)
    MctsStrategy(seed=1, iterations=1)._horizon(leaf, seat, b"world 1")
    assert leaf.known is not None
    met, ended, replied = leaf.known
    assert met.chance is not None and not ended
    assert (met.phase, met.round) == (start.phase, start.round + 1)
    assert replied == {1 - seat}  # the opponent replied in this round
    again, chanced = MctsStrategy(seed=1, iterations=1)._horizon(leaf, seat, b"world 2")
    fresh, _ = MctsStrategy(seed=1, iterations=1)._horizon(_Node(start, (), 0.0), seat,
                                                           b"world 2")
    assert chanced
    assert state_hash(again) == state_hash(fresh)
    assert state_hash(again) != state_hash(
        MctsStrategy(seed=1, iterations=1)._horizon(leaf, seat, b"world 1")[0])


def test_the_default_horizon_is_the_end_of_the_bots_own_next_turn() -> None:
    assert MctsStrategy().params.horizon == "turn"
    start, judged, chanced = _judged("turn")
    seat = start.order[start.turn]
    # The next round (its dice sampled), the bot's own turn, just before it ends.
    assert (judged.phase, judged.round) == (start.phase, start.round + 1)
    assert judged.order[judged.turn] == seat
    assert EndTurn() in legal_actions(judged)
    assert chanced


def test_the_bots_own_next_turn_is_played_by_its_leaf_value() -> None:
    # A leaf value that wants only workers: past the first chance event (the next round's
    # dice) the bot's own turn gets 6 of them (a tile placed for its 4 workers, and workers
    # taken with the other die); by the greedy value it ends with none.
    start = _mid_game()
    seat = start.order[start.turn]

    def rollout(bot: MctsStrategy) -> tuple[int, int]:
        leaf = _Node(start, (), 0.0)
        judged, _ = bot._horizon(leaf, seat, b"world")
        assert leaf.known is not None
        return leaf.known[0].players[seat].workers, judged.players[seat].workers

    wanting = MctsStrategy(seed=1, iterations=1)
    wanting._leaf = lambda state, s: 10.0 * state.players[s].workers
    before, after = rollout(wanting)
    assert (before, after) == (0, 6)
    assert rollout(MctsStrategy(seed=1, iterations=1)) == (0, 0)


def test_the_reply_horizon_stops_at_the_opponents_reply() -> None:
    start, judged, _ = _judged("reply")
    seat = start.order[start.turn]
    assert judged.order[judged.turn] == 1 - seat
    assert EndTurn() in legal_actions(judged)
    assert judged.players[seat].dice_used != start.players[seat].dice_used


@pytest.mark.parametrize("horizon", HORIZONS)
def test_a_solo_rollout_stops_where_the_next_round_is_rolled(horizon: str) -> None:
    start, judged, chanced = _judged(horizon, _mid_game(1, GameConfig(1, Edition.E2019)))
    # The round is over; the next one waits for its dice, which the rollout does not sample.
    assert judged.chance is not None
    assert (judged.phase, judged.round) == (start.phase, start.round + 1)
    assert not chanced


def test_an_unknown_horizon_is_refused() -> None:
    with pytest.raises(ValueError, match="horizon must be one of reply, turn"):
        MctsStrategy(params=SearchParams(horizon="round"))


def test_an_unknown_leaf_value_is_refused() -> None:
    with pytest.raises(ValueError, match="value must be one of learned, greedy"):
        MctsStrategy(params=SearchParams(value="oracle"))


def _without_speed(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("speed:"))


def test_jobs_do_not_change_the_results(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sim", "--games", "3", "--seed", "5", "--bots", "greedy,random", "--rotate"]
    assert main([*argv, "--jobs", "1"]) == 0
    serial = capsys.readouterr().out
    assert main([*argv, "--jobs", "2"]) == 0
    parallel = capsys.readouterr().out
    assert _without_speed(parallel) == _without_speed(serial)
    assert "summary: 3 games x 2 seatings" in serial


def test_sim_passes_the_iteration_budget_to_search_bots() -> None:
    config = SimConfig(players=2, games=1, seed=9, bots=("mcts", "random"), iterations=1,
                       quiet=True)
    first = run_sim(config, _Sink())
    again = run_sim(config, _Sink())
    assert [e.scores for e in first.entrants] == [e.scores for e in again.entrants]


@pytest.mark.parametrize(("argv", "message"), [
    (["sim", "--jobs", "0"], "argument --jobs: must be at least 1, not 0"),
    (["sim", "--iterations", "0"], "argument --iterations: must be at least 1, not 0"),
    (["sim", "--think", "-1"], "argument --think: must be 0 to 86400 seconds, not -1"),
    (["sim", "--think", "soon"], "argument --think: expected seconds, not 'soon'"),
])
def test_bad_budgets_are_one_line_errors(argv: list[str], message: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err
