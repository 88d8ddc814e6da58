"""The ``mcts`` strategy: Monte Carlo tree search over die actions, with determinized dice.

The search tree covers the rest of the bot's own turn. Its edges are whole *die actions*: a
choice at the "use a die, buy or end" step together with every sub-decision it leads to (the
die's action, a castle's extra action, a ship's goods, a building's advantage, a discard),
until the turn is back at that step. Nothing is hidden within a turn, so tree nodes are exact
states. A node's children are its die actions in the order of the greedy bot's value
(:class:`~p2p_burgundy.cli.strategies.greedy.Evaluator`) and enter the tree one by one as the
node is visited (progressive widening); selection is UCB1.

From a new leaf a rollout lets the greedy bot play every seat until the *horizon*. By default
(``horizon="turn"``) that is the end of the bot's own next turn: every opponent replies once,
then the bot plays one more turn, judged just before that turn ends (when nobody holds an
unused die). So a line is judged by what it lets the bot do next time, on sampled dice, not
only by the value's guess of it. ``horizon="reply"`` stops at the last opponent's reply
(judged just before it ends). In the solo game, where nobody replies, a rollout stops at the
end of the current round. All dice
of a round are rolled at its start, so the opponents' replies in the current round are
predicted exactly (for a greedy opponent). A chance event met on the
way (the next round's dice, a new phase's tiles) is a future nobody knows: the rollout
*determinizes* it with entropy of its own, SHA-256 of the bot's seed, the searched state, the
leaf's sample number and the event's index, and plays that future with a cheaper greedy bot
(fewer positions per decision), which plays the bot's own next turn by the leaf value, the
value the horizon is judged by (the opponents' turns by the greedy value). The n-th rollout
from every leaf samples the same n-th future (common random numbers), so sibling lines are
compared on the same dice. Sampled futures are
drawn by the engine from what the state shows to everyone (the dice to come, the tiles left
in the supply), the same way for every seat: the bot never reads entropy it has not seen.

At the horizon the position is judged by the leaf value (``SearchParams.value``): by default
the bot's final score as predicted by
:class:`~p2p_burgundy.cli.strategies.value.LearnedValue`, less ``opponents`` times the best
opponent's (0 by default: playing for its own score beat playing against the leader in
self-play); the exact score once the game is over. A rollout that met no chance event is
exact and is not repeated. Up to the first chance event every rollout from a leaf plays the
same moves (nothing is sampled before it): the first plays them and the leaf keeps where
they led, the later ones start there. A rollout applies each greedy line as the greedy
search left it (:meth:`~p2p_burgundy.cli.strategies.greedy.GreedyStrategy.follow`).

``mcts-2026`` (:class:`Mcts2026Strategy`) is the search as first released: the hand-set
greedy value and weights, ``value(me) - max(value(opponent))``, at the ``"reply"`` horizon.

Budgets: ``iterations`` rollouts per search (deterministic: the clock is never read), or
``think`` seconds per search (anytime: the best line so far, and no step is started that
would likely end after the time is up), by the bot's ``clock``: wall time for a player, the
process's CPU time for a benchmark on a shared machine (where a wall second may be a fraction
of a CPU second, so the bot would think less than on a user's quiet machine). The chosen
line is then followed without searching again, and the subtree under it is kept for the next
search. So a decision depends only on the seed, the budget and the state (and on the kept
subtree, itself a function of those).

>>> from p2p_burgundy import GameConfig, legal_actions, new_game, resolve_chance
>>> state = new_game(GameConfig(players=2))
>>> while state.chance is not None:
...     state = resolve_chance(state, bytes(32))
>>> bot = MctsStrategy(seed=0, iterations=4)
>>> bot.choose(state, legal_actions(state)) in legal_actions(state)
True
"""

from __future__ import annotations

import gc
import hashlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from p2p_burgundy import (
    Action,
    Discard,
    EndTurn,
    GameState,
    TakeWorkers,
    UseDie,
    apply,
    legal_actions,
    resolve_chance,
    state_hash,
)
from p2p_burgundy.board import PHASES
from p2p_burgundy.pickling import by_constructor
from p2p_burgundy.state import Step

from .greedy import DEFAULT_WEIGHTS, TUNED_WEIGHTS, Evaluator, GreedyStrategy, Weights
from .value import LearnedValue

DEFAULT_THINK: Final = 1.0  # seconds per search when no iteration budget is given
HORIZONS: Final = ("reply", "turn")
VALUES: Final = ("learned", "greedy")


@dataclass(frozen=True, slots=True)
class SearchParams:
    """The knobs of the search (VP-equivalents unless said otherwise)."""

    explore: float = 3.0  # UCB1 exploration constant, in VP
    widen_base: int = 2  # children allowed at a node's first visit...
    widen_rate: float = 1.0  # ...plus this times the square root of its visits
    prune: float = 12.0  # children valued this far below the best never enter the tree
    unit_budget: int = 1500  # positions expanded to list one node's die actions
    future_budget: int = 200  # greedy's positions per decision in a sampled future
    opponents: float = 0.0  # weight of the best opponent's value (0: play for own score)
    horizon: str = "turn"  # see the module docstring
    value: str = "learned"  # the leaf value: "learned" (LearnedValue) or "greedy" (Evaluator)
    weights: Weights = TUNED_WEIGHTS  # of the greedy value: ordering, rollouts, greedy leaves

    def __reduce__(self) -> tuple[type[SearchParams], tuple[object, ...]]:
        return by_constructor(self)  # the compiled build: see pickling.py


DEFAULT_PARAMS: Final = SearchParams()
PARAMS_2026: Final = SearchParams(opponents=1.0, horizon="reply", value="greedy",
                           weights=DEFAULT_WEIGHTS)
"""The search as first released (the ``mcts-2026`` strategy)."""


class _Node:
    """A state where the bot decides, with the die actions that lead on from it."""

    __slots__ = ("children", "exact", "known", "line", "prior", "state", "total", "units",
                 "visits")

    def __init__(self, state: GameState, line: tuple[Action, ...], prior: float) -> None:
        self.state = state
        self.line = line  # the actions from the parent to here
        self.prior = prior  # the greedy value of ``state``
        self.children: list[_Node] = []
        self.units: list[tuple[float, tuple[Action, ...], GameState]] | None = None
        self.visits = 0
        self.total = 0.0
        self.exact = False  # a leaf whose rollout met no chance: its value is known
        # Where every rollout from here ends or meets its first chance event (the same for
        # all: nothing is sampled before it), whether it ended there, and the opponents who
        # replied on the way; worked out by the first rollout.
        self.known: tuple[GameState, bool, frozenset[int]] | None = None

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else float("-inf")


def _settled(node: _Node) -> bool:
    """True when nothing is left to learn below ``node``: every line from it is in the tree
    and ends in a leaf with an exact value."""
    if node.exact:
        return True
    units = node.units
    return (bool(units) and units is not None and len(node.children) == len(units)
            and all(_settled(c) for c in node.children))


class MctsStrategy:
    """Searches the rest of its turn with greedy rollouts over sampled future dice.

    ``iterations`` (rollouts per search) makes the bot deterministic for a seed; without it
    the bot searches for ``think`` seconds per decision, as ``clock`` (seconds) counts them.
    """

    name: ClassVar[str] = "mcts"

    def __init__(self, seed: int = 0, think: float | None = None,
                 iterations: int | None = None, params: SearchParams = DEFAULT_PARAMS,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        if think is not None and think < 0:
            raise ValueError(f"think must be at least 0 seconds, not {think}")
        if params.horizon not in HORIZONS:
            raise ValueError(f"horizon must be one of {', '.join(HORIZONS)}")
        if params.value not in VALUES:
            raise ValueError(f"value must be one of {', '.join(VALUES)}")
        self.seed = seed
        self.think = DEFAULT_THINK if think is None else think
        self.iterations = iterations
        self.params = params
        self.clock = clock
        self._eval = Evaluator(params.weights)
        self._leaf = LearnedValue.load().value if params.value == "learned" else self._eval.value
        self._weights = params.weights
        self._plan: list[tuple[bytes, Action]] = []
        self._kept: _Node | None = None  # the subtree of the line being followed
        self._kept_key = b""
        self._policies: dict[tuple[int, bool, bool], GreedyStrategy] = {}
        self.last_rollouts = 0  # rollouts of the last search (for benchmarks and tests)

    # --- the Strategy interface ---------------------------------------------------------------

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        """The first action of the line the search likes best (or the next of that line)."""
        if self._plan:
            expected, action = self._plan.pop(0)
            if action in actions and expected == state_hash(state):
                return action
            self._plan.clear()
            self._kept = None
        if len(actions) == 1:
            return actions[0]
        if state.step == Step.CHOOSE_ESTATE:
            return self._policy(state.order[state.turn]).choose(state, actions)
        # The search makes many short-lived objects and no garbage cycles (a node holds its
        # children, never its parent): the cyclic collector, set off by the allocations alone,
        # only spends the search's time, most of it walking the long-lived memo tables.
        collecting = gc.isenabled()
        gc.disable()
        try:
            best = self._search(state)
        finally:
            if collecting:
                gc.enable()
        line = best.line
        self._plan = []
        s = state
        for i, action in enumerate(line[:-1]):
            s = apply(s, action)
            self._plan.append((state_hash(s), line[i + 1]))
        self._kept, self._kept_key = best, state_hash(best.state)
        return line[0]

    # --- search -------------------------------------------------------------------------------

    def _search(self, state: GameState) -> _Node:
        seat = state.order[state.turn]
        worlds = hashlib.sha256(b"p2p-burgundy/mcts/%d/" % self.seed + state_hash(state)).digest()
        root = self._kept if self._kept is not None and self._kept_key == state_hash(state) \
            else _Node(state, (), 0.0)
        self._kept = None
        # 5% of the time is kept for what follows the search (planning the chosen line); with
        # a budget of rollouts the clock is never read.
        started = 0.0 if self.iterations is not None else self.clock()
        deadline = None if self.iterations is not None else started + 0.95 * self.think
        budget = self.iterations if self.iterations is not None else 1 << 30
        rollouts = 0
        steps = 0
        self._expand(root, seat)
        assert root.units
        if len(root.units) == 1 and not root.children:
            root.children.append(_Node(root.units[0][2], root.units[0][1], root.units[0][0]))
        while rollouts < budget and steps < 8 * budget + 64 and len(root.units) > 1:
            if deadline is not None and root.children:
                now = self.clock()
                # Stop unless one more step, twice as long as the average so far, still fits.
                if now + 2 * (now - started) / max(steps, 1) >= deadline:
                    break
            steps += 1
            if self._iterate(root, seat, worlds):
                rollouts += 1
            elif _settled(root):
                break
        self.last_rollouts = rollouts
        # The most visited child; ties to the better mean, then to the greedy order.
        return max(root.children, key=lambda c: (c.visits, c.mean))

    def _iterate(self, root: _Node, seat: int, worlds: bytes) -> bool:
        """One selection, expansion, rollout and backup; False if nothing was rolled out."""
        p = self.params
        path = [root]
        node = root
        while True:
            if node.units is None:
                self._expand(node, seat)
            assert node.units is not None
            if not node.units:  # the turn is over here: a leaf
                break
            allowed = p.widen_base + int(p.widen_rate * math.sqrt(node.visits))
            if len(node.children) < min(allowed, len(node.units)):
                prior, line, child_state = node.units[len(node.children)]
                child = _Node(child_state, line, prior)
                node.children.append(child)
                node = child
                path.append(node)
                break
            node = self._select(node)
            path.append(node)
        rolled = True
        if node.exact:
            value, rolled = node.mean, False
        else:
            # A leaf's n-th rollout samples the n-th future ("world"): siblings are compared
            # on the same dice (common random numbers), which cuts the noise a lot.
            world = hashlib.sha256(worlds + node.visits.to_bytes(4, "big")).digest()
            judged, chanced = self._horizon(node, seat, world)
            value = self._judge(judged, seat)
            node.exact = not chanced and not node.units
        for n in path:
            n.visits += 1
            n.total += value
        return rolled

    def _select(self, node: _Node) -> _Node:
        log_n = math.log(node.visits + 1)
        c = self.params.explore
        best, best_score = node.children[0], float("-inf")
        for child in node.children:
            if child.visits == 0:
                return child
            score = child.mean + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def _expand(self, node: _Node, seat: int) -> None:
        """List the die actions from ``node`` (none once the bot's turn is over there)."""
        state = node.state
        if node.units is not None:
            return
        if state.chance is not None or state.phase >= PHASES or state.order[state.turn] != seat:
            node.units = []
            return
        units = self.die_actions(state, seat)
        units.sort(key=lambda u: -u[0])  # stable: ties keep the legal order
        cut = units[0][0] - self.params.prune
        node.units = [u for u in units if u[0] >= cut]

    def die_actions(self, state: GameState, seat: int
                    ) -> list[tuple[float, tuple[Action, ...], GameState]]:
        """Every line of decisions from ``state`` to the end of its die action, with the
        greedy value of where it ends (less greedy's penalties for discards and workers) and
        that state: the alternatives the search chooses among (``tools/fit_value.py`` fits
        the value to how they rank)."""
        w = self._weights
        out: list[tuple[float, tuple[Action, ...], GameState]] = []
        budget = [self.params.unit_budget]

        def walk(s: GameState, line: tuple[Action, ...], penalty: float) -> None:
            seen_dice: set[int] = set()
            for action in legal_actions(s):
                if type(action) is UseDie:
                    number = s.players[seat].dice[action.die]
                    if number in seen_dice:
                        continue  # both dice show the same number: one is enough
                    seen_dice.add(number)
                child = apply(s, action)
                budget[0] -= 1
                cost = penalty
                if type(action) is Discard:
                    cost += w.discard
                elif type(action) is TakeWorkers:
                    cost += w.take_workers
                here = (*line, action)
                if (child.pending and child.chance is None and child.phase < PHASES
                        and child.order[child.turn] == seat and budget[0] > 0):
                    walk(child, here, cost)
                else:
                    out.append((self._eval.value(child, seat) - cost, here, child))

        walk(state, (), 0.0)
        return out

    def _policy(self, seat: int, future: bool = False, own: bool = False) -> GreedyStrategy:
        """The greedy bot playing ``seat`` in rollouts: the greedy bot itself in the current
        round (a greedy opponent's replies are predicted exactly); in sampled futures a
        cheaper one, which plays the bot's ``own`` turns by the leaf value: the value that
        judges the horizon, so the bot's next turn is played for what the line is judged on."""
        key = (seat, future, own)
        policy = self._policies.get(key)
        if policy is None:
            if future:
                policy = GreedyStrategy(0, self._weights, budget=self.params.future_budget,
                                        value=self._leaf if own else None)
            else:
                policy = GreedyStrategy(0, self._weights)
            self._policies[key] = policy
        return policy

    def _horizon(self, leaf: _Node, seat: int, world: bytes) -> tuple[GameState, bool]:
        """A rollout from ``leaf`` in ``world``: the state judged at its horizon and whether a
        chance event was sampled on the way. Up to the first chance event every rollout from
        a leaf plays the same moves (its later ones sample other futures): that part is played
        once, by the first."""
        if leaf.known is None:
            replied: set[int] = set()
            reached, ended = self._play(leaf.state, seat, replied, None)
            leaf.known = (reached, ended, frozenset(replied))
        reached, ended, before = leaf.known
        if ended:
            return reached, False
        return self._play(reached, seat, set(before), world)[0], True

    def _play(self, state: GameState, seat: int, replied: set[int], world: bytes | None
              ) -> tuple[GameState, bool]:
        """Greedy play by every seat from ``state`` to the horizon: the state to judge there
        and True; without a ``world`` to sample chance events from, up to the first one met
        (that state and False, unless the horizon came first). ``replied``: the opponents who
        have ended a turn so far, kept up to date."""
        players = state.config.players
        horizon = self.params.horizon
        # the moves a greedy bot plays on without searching again, last first, and its seat
        moves: list[tuple[Action, GameState]] = []
        planner = -1
        while state.phase < PHASES:
            if state.chance is not None:
                if players == 1:  # solo: nobody replies, the round's end is the horizon
                    return state, True
                if world is None:
                    return state, False
                state = resolve_chance(state, hashlib.sha256(
                    world + state.chance.index.to_bytes(4, "big")).digest())
                continue
            mover = state.order[state.turn]
            if mover != planner:
                moves.clear()
            after: GameState | None = None
            if moves:
                action, after = moves.pop()
            else:
                actions = legal_actions(state)
                if len(actions) == 1:
                    action = actions[0]
                else:  # in a sampled future (past a chance event), the cheaper bot
                    future = world is not None
                    moves = self._policy(mover, future, future and mover == seat).follow(
                        state, actions)
                    moves.reverse()
                    planner = mover
                    action, after = moves.pop()
            if after is None:
                after = apply(state, action)
            if type(action) is EndTurn and players > 1:
                if mover != seat:
                    replied.add(mover)
                # The horizon's last turn: the last reply ("reply") or, once every opponent
                # has replied, the bot's own next turn ("turn"). Judge before its end of turn
                # (nobody holds unused dice then), unless it ends the game (then the final
                # score is exact).
                if len(replied) == players - 1 and (mover == seat) == (horizon == "turn"):
                    return (after if after.phase >= PHASES else state), True
            state = after
        return state, True

    def _judge(self, state: GameState, seat: int) -> float:
        """The bot's value less ``opponents`` times its best opponent's (exact VP once the
        game is over); in the team game the partner is no opponent (and the values are the
        teams')."""
        leaf = self._leaf
        mine = leaf(state, seat)
        if not self.params.opponents:
            return mine
        ours = (seat, state.config.partner(seat))
        others = [leaf(state, s) for s in range(state.config.players) if s not in ours]
        return mine - self.params.opponents * max(others)

    def __repr__(self) -> str:
        budget = (f"iterations={self.iterations}" if self.iterations is not None
                  else f"think={self.think}")
        return f"{type(self).__name__}({budget})"


class Mcts2026Strategy(MctsStrategy):
    """The search as first released (:data:`PARAMS_2026`: the greedy value at the leaves),
    kept so that comparisons with it can be rerun."""

    name: ClassVar[str] = "mcts-2026"

    def __init__(self, seed: int = 0, think: float | None = None,
                 iterations: int | None = None) -> None:
        super().__init__(seed, think, iterations, PARAMS_2026)


__all__ = ["DEFAULT_PARAMS", "DEFAULT_THINK", "PARAMS_2026", "Mcts2026Strategy", "MctsStrategy",
           "SearchParams"]
