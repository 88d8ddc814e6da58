"""Every kind of value that crosses between ``sim``'s and ``match``'s worker processes and
theirs (``--jobs``): the tasks (their configs, with every module, set-up and mode of play, a
board of one's own, a start position), the results (final states, outcomes, actions) and the
errors, and the strategies' parameters. :func:`not_round_tripped` pickles each as the worker
pipes do; tests/cli/test_workers.py runs it in the build the suite runs, and
tests/engine/test_compiled_build.py in the compiled build.
"""

from __future__ import annotations

import dataclasses
import pickle
from typing import Any

from p2p_burgundy import (
    Edition,
    GameConfig,
    GameState,
    IllegalAction,
    Module,
    Setup,
    apply,
    new_game,
    outcome,
    resolve_chance,
    state_hash,
)
from p2p_burgundy.actions import ACTION_TYPES, Action, EndTurn, Payment
from p2p_burgundy.cli.engine import EngineError, EngineSpec
from p2p_burgundy.cli.match import MatchConfig, play_match_game
from p2p_burgundy.cli.position import Position
from p2p_burgundy.cli.sim import SimConfig, play_one
from p2p_burgundy.cli.strategies import BotError, StrategyError
from p2p_burgundy.cli.strategies.greedy import Weights
from p2p_burgundy.cli.strategies.mcts import SearchParams
from p2p_burgundy.cli.workers import WorkerError
from p2p_burgundy.errors import ConfigError
from p2p_burgundy.estate import estate, parse_estate
from tests.engine.helpers import random_game

E2019 = Edition.E2019
TEAMS = ((0, 2), (1, 3))


def configs() -> list[GameConfig]:
    """A config of every kind: each module alone and all together, each set-up, the solo
    game, the team game, a board of one's own, the border-post duchies."""
    mine = parse_estate({**estate("1").record(), "id": "mine", "name": "Mine",
                         "source": "a test"}, official=False)
    return [GameConfig(2), GameConfig(3, E2019, modules=tuple(Module)),
            *(GameConfig(2, E2019, modules=(module,)) for module in Module),
            *(GameConfig(4, E2019, setup=setup) for setup in Setup),
            GameConfig(1, E2019, target=47),
            GameConfig(4, E2019, modules=(Module.INNS,), teams=TEAMS),
            GameConfig(2, E2019, estates=("mine", "1"), custom=(mine,), start_spaces=(18, 18)),
            GameConfig(2, E2019, estates=("11a", "11d"))]


def actions() -> list[Action]:
    """One action of every type (the engine's wire types), its fields filled in."""
    filler: dict[str, object] = {"int": 1, "tuple": (1, 2), "Payment": Payment.WORKERS}
    return [kind(**{f.name: filler[_type_name(f.type)] for f in dataclasses.fields(kind)})
            for kind in ACTION_TYPES.values()]


def _type_name(annotation: object) -> str:
    """A field's type's name, without its parameters (``tuple`` for ``tuple[int, ...]``): the
    pure build holds the annotation's text, the compiled build the type itself."""
    name = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    return name.partition("[")[0]


def states() -> list[GameState]:
    """A game just begun, one in the middle and one over, of each of a few kinds."""
    found = [new_game(GameConfig(2))]
    for players, modules, teams in ((2, tuple(Module), ()), (4, (Module.EXTRA_TILES,), TEAMS),
                                    (1, (), ())):
        middle: list[GameState] = []

        def keep(before: GameState, after: GameState, action: Action | None,
                 kept: list[GameState] = middle) -> None:
            if isinstance(action, EndTurn) and after.phase == 2 and not kept:
                kept.append(after)

        end, _ = random_game(players, 11, edition=E2019, modules=modules, teams=teams,
                             visit=keep)
        found += [*middle, end]
    return found


def errors() -> list[BaseException]:
    """The errors a task may raise, the engine's own among them."""
    state = resolve_chance(new_game(GameConfig(2)), bytes(32))
    try:
        apply(state, EndTurn())
    except IllegalAction as exc:
        illegal = exc
    else:
        raise AssertionError("ending a turn before acting is legal")
    return [illegal, ConfigError("a bad config"), BotError("a bot failed"),
            StrategyError("no such strategy"), EngineError("an engine failed"),
            WorkerError("a worker died")]


def tasks_and_results() -> list[object]:
    """sim's and match's tasks as their workers get them, and the results they send back."""
    start = Position(GameConfig(2, E2019, modules=(Module.SHIELDS,)), (bytes(32),))
    sim = SimConfig(players=2, games=1, seed=5, bots=("random", "random"), position=start)
    match = MatchConfig(entrants=("random", "greedy"), book=(start,),
                        board=GameConfig(2, E2019, estates=("11b", "11b")).boards[0])
    engines = (EngineSpec("tiny", "python3 tiny.py"),)  # (not started)
    return [(sim, 0, 0), (match, 0, 0, 1), play_one(sim, 0, 0), play_match_game(match, 0, 0, 1),
            MatchConfig(entrants=("tiny", "random"), engines=engines)]


def values() -> list[object]:
    played = states()
    return [*configs(), *actions(), *played, *(outcome(s) for s in played if s.is_over),
            *errors(), *tasks_and_results(), SearchParams(), Weights()]


def not_round_tripped() -> list[str]:
    """The reprs of the values that do not come back from pickling as they were (that raise,
    or come back different): empty when every value crosses."""
    failed = []
    for value in values():
        try:
            back = pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
        except Exception as exc:
            failed.append(f"{_short(value)}: {type(exc).__name__}: {exc}")
            continue
        if not same(value, back):
            failed.append(f"{_short(value)}: comes back as {_short(back)}")
    return failed


def same(one: Any, other: Any) -> bool:
    """Whether two values are equal, states by their hash (they have no ``__eq__``),
    exceptions by their type and arguments, dataclasses and tuples field by field."""
    if type(one) is not type(other):
        return False
    if isinstance(one, GameState):
        return state_hash(one) == state_hash(other)
    if isinstance(one, BaseException):
        return one.args == other.args
    if isinstance(one, tuple):
        return len(one) == len(other) and all(map(same, one, other))
    if dataclasses.is_dataclass(one) and not isinstance(one, type):
        return all(same(getattr(one, f.name), getattr(other, f.name))
                   for f in dataclasses.fields(one))
    return bool(one == other)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."
