"""Engine-only games between local bots: the logic behind ``burgundy sim``.

Everything is derived from one seed: the entropy of chance event ``k`` of game ``g`` is
``SHA-256(b"p2p-burgundy/sim/chance" || seed || g || k)`` (seed as 8 bytes, ``g`` and ``k``
as 4 bytes, all big-endian), and each bot's seed is the first 8 bytes of
``SHA-256(b"p2p-burgundy/sim/bot" || seed || g || rotation || seat)``. So the same seed
replays the same games, and with ``rotate`` every seating of the same deals is played.

>>> import io
>>> out = io.StringIO()
>>> summary = run_sim(SimConfig(players=2, games=1, seed=7, bots=("greedy", "random")), out)
>>> [e.wins for e in summary.entrants]
[1, 0]
>>> print(out.getvalue().splitlines()[0])
game 1/1, seed 7: 2 players, edition 2011
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TextIO

from p2p_burgundy import (
    Action,
    Category,
    Edition,
    GameConfig,
    GameState,
    IllegalAction,
    Module,
    Outcome,
    Setup,
    Step,
    apply,
    as_chooser,
    legal_actions,
    new_game,
    outcome,
    resolve_chance,
    state_hash,
    variants,
)
from p2p_burgundy.estate import Estate
from p2p_burgundy.scoring import categories
from p2p_burgundy.variants import modules_of

from .engine import EnginePool, EngineRun, EngineSpec, EngineStrategy, worker_pool
from .estates import table_config
from .gamejson import RESULT_VERSION, Json, result_json
from .script import Script, ScriptedStrategy
from .strategies import STRATEGIES, BotError, Strategy, checked_choice, is_spec, make
from .workers import WorkerError, run_tasks

if TYPE_CHECKING:
    from .position import Position

SIM_LABEL = b"p2p-burgundy/sim"
MAX_SEED = 2**64 - 1

# Column headers of the score table, by category.
CATEGORY_HEADERS: dict[Category, str] = {
    Category.ANIMALS: "anim",
    Category.REGIONS: "regn",
    Category.PHASE_BONUSES: "phase",
    Category.COLOUR_BONUSES: "colour",
    Category.SALES: "sales",
    Category.WATCHTOWERS: "tower",
    Category.KNOWLEDGE: "know",
    Category.GOODS_LEFT: "goods",
    Category.SILVER_LEFT: "silver",
    Category.WORKERS_LEFT: "work",
    Category.SHIELDS: "shield",
}


def chance_entropy(seed: int, game: int, index: int) -> bytes:
    """The 32 entropy bytes of chance event ``index`` of game ``game`` (from 0).

    >>> chance_entropy(7, 0, 0).hex()[:16]
    'bb757de0e36c215e'
    """
    return hashlib.sha256(
        SIM_LABEL + b"/chance" + seed.to_bytes(8, "big") + game.to_bytes(4, "big")
        + index.to_bytes(4, "big")
    ).digest()


def deal_entropy(seed: int, game: int, index: int, recorded: Sequence[bytes] = ()) -> bytes:
    """The entropy of chance event ``index``: ``recorded[index]`` while there is one (a
    position's, or a LAN game's real dice), else :func:`chance_entropy`."""
    return recorded[index] if index < len(recorded) else chance_entropy(seed, game, index)


def bot_seed(seed: int, game: int, rotation: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for one game and seating.

    >>> bot_seed(7, 0, 0, 0) == bot_seed(7, 0, 0, 0) != bot_seed(7, 0, 0, 1)
    True
    """
    digest = hashlib.sha256(
        SIM_LABEL + b"/bot" + seed.to_bytes(8, "big") + game.to_bytes(4, "big")
        + rotation.to_bytes(1, "big") + seat.to_bytes(1, "big")
    ).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game: who sat where, the final state and how it ended."""

    game: int  # from 0
    rotation: int  # which seating of the bot list (0 unless rotating)
    bots: tuple[str, ...]  # strategy name by seat
    entrants: tuple[int, ...]  # index into the bot list, by seat
    state: GameState
    outcome: Outcome
    decisions: int
    engines: tuple[Json | None, ...] = ()  # by seat: what the engine there did, or None
    scripts: tuple[Json, ...] = ()  # by seat, with a script: what each seat played of it


def play_game(config: GameConfig, bots: Sequence[Strategy], seed: int, game: int = 0,
              start: GameState | None = None, recorded: Sequence[bytes] = ()
              ) -> tuple[GameState, int]:
    """Play one game to the end (from ``start``, a position's state, if given); returns the
    final state and the number of decisions. Chance event ``k`` is dealt by
    :func:`deal_entropy` (``recorded[k]`` first).

    ``bots[seat]`` decides for ``seat``. Raises :class:`BotError` if a bot raises or picks
    an action that is not legal. In the experts' secret set-up every bot chooses its estate before
    any choice is applied, each seeing the state as it was before all of them.

    >>> from p2p_burgundy.cli.strategies import make
    >>> state, decisions = play_game(GameConfig(players=2), [make("random", 1)] * 2, seed=1)
    >>> state.is_over, decisions > 50
    (True, True)
    """
    state = new_game(config) if start is None else start
    decisions = 0
    while True:
        if state.chance is not None:
            state = resolve_chance(state, deal_entropy(seed, game, state.chance.index,
                                                       recorded))
            continue
        if state.is_over:
            return state, decisions
        if config.setup is Setup.EXPERTS_SECRET and state.step == Step.CHOOSE_ESTATE:
            before = state
            for seat in [s for s in before.order if before.offers[s]]:
                view = as_chooser(before, seat)
                state = _decide(state, seat, bots[seat], view, legal_actions(view))
                decisions += 1
            continue
        seat = state.order[state.turn]
        state = _decide(state, seat, bots[seat], state, legal_actions(state))
        decisions += 1


def _decide(state: GameState, seat: int, bot: Strategy, view: GameState,
            actions: list[Action]) -> GameState:
    """``bot`` chooses among ``actions`` seeing ``view``; the state after its choice."""
    action = checked_choice(bot, view, actions)
    try:
        return apply(state, action)
    except IllegalAction as exc:  # legal_actions and apply disagree: an engine bug
        raise BotError(f"seat {seat}: legal action {action!r} was refused: {exc}") from exc


@dataclass(frozen=True, slots=True)
class SimConfig:
    """What ``burgundy sim`` plays: ``bots`` has one strategy name per seat."""

    players: int = 2
    games: int = 1
    seed: int = 0
    bots: tuple[str, ...] = ("greedy", "greedy")
    edition: Edition | None = None  # default 2011, or 2019 with modules
    rotate: bool = False  # play every game once per rotation of the bots around the table
    quiet: bool = False  # print only the summary
    estate: str | None = None  # everyone plays this estate (default 1)...
    setup: Setup | None = None  # ...or an experts' set-up deals them
    modules: tuple[Module, ...] = ()  # the 2019 expansion modules in play
    board: Estate | None = None  # ...or everyone plays this board of one's own
    switches: tuple[str, ...] = ()  # the modes of play switched on (estates.SWITCHES)
    think: float | None = None  # seconds per decision for search bots (mcts)...
    iterations: int | None = None  # ...or rollouts per decision: reproducible, overrides think
    jobs: int = 1  # worker processes; the games and summary do not depend on it
    engines: tuple[EngineSpec, ...] = ()  # programs playing the seats named after them
    engine_run: EngineRun = field(default_factory=EngineRun)  # time, options, log of engines
    engine_fallback: str | None = None  # plays on for an engine that fails; None: stop
    position: Position | None = None  # every game starts there (its table, its chance so far)
    script: Script | None = None  # every seat plays its recorded turns first, on their dice

    def __post_init__(self) -> None:
        if not 1 <= self.players <= 4:
            raise ValueError(f"players must be 1 (the solo game), 2, 3 or 4, "
                             f"not {self.players}")
        if self.games < 1:
            raise ValueError(f"games must be at least 1, not {self.games}")
        if not 0 <= self.seed <= MAX_SEED:
            raise ValueError(f"seed must be 0..2**64-1, not {self.seed}")
        if len(self.bots) != self.players:
            raise ValueError(f"{len(self.bots)} bots for {self.players} players: "
                             "name one strategy per seat")
        problem = check_entrants(self.bots, self.engines)
        if problem is not None:
            raise ValueError(problem[1])
        if self.think is not None and self.think < 0:
            raise ValueError(f"think must be at least 0 seconds, not {self.think}")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {self.iterations}")
        if self.jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {self.jobs}")
        if self.game_config.players != self.players:
            raise ValueError(f"the game is for {self.game_config.players} players, not "
                             f"{self.players}")

    @property
    def game_config(self) -> GameConfig:
        """The engine config of every game: the position's or the script's, else the
        table's options."""
        if self.position is not None:
            return self.position.config
        if self.script is not None:
            return self.script.config
        return table_config(self.players, self.edition, self.estate, self.setup,
                            self.modules, self.board, self.switches)

    @property
    def recorded(self) -> tuple[bytes, ...]:
        """The entropy of the first chance events of every game: the position's, or the
        script's (a LAN game's real dice)."""
        if self.position is not None:
            return self.position.entropy
        return () if self.script is None else self.script.chance

    def engine(self, name: str) -> EngineSpec | None:
        """The engine called ``name``, or None if ``name`` is a strategy."""
        return next((e for e in self.engines if e.name == name), None)

    @property
    def labels(self) -> tuple[str, ...]:
        """A distinct label per bot in the list (``greedy#1``, ``greedy#2`` if repeated)."""
        labels = []
        for i, name in enumerate(self.bots):
            if self.bots.count(name) == 1:
                labels.append(name)
            else:
                labels.append(f"{name}#{self.bots[:i + 1].count(name)}")
        return tuple(labels)


def check_entrants(bots: Sequence[str], engines: Sequence[EngineSpec]
                   ) -> tuple[str, str] | None:
    """Why a list of bots and engines cannot play, as ``("engine" or "bots", reason)``, or
    None if it can: each bot a strategy or an engine's name, engines named once each and not
    after a strategy, none left unused.

    >>> check_entrants(["greedy", "tiny"], [EngineSpec("tiny", "./tiny")]) is None
    True
    >>> check_entrants(["engine", "greedy"], [EngineSpec("engine", "./a"),
    ...                                       EngineSpec("engine", "./b")])
    ('engine', "two engines are named 'engine': name each NAME=COMMAND")
    """
    names = [e.name for e in engines]
    for spec in engines:
        if names.count(spec.name) > 1:
            return ("engine", f"two engines are named {spec.name!r}: name each NAME=COMMAND")
        if spec.name in STRATEGIES:
            return ("engine", f"an engine is named {spec.name!r}, as a strategy is: name it "
                              "otherwise")
        if spec.name not in bots:
            return ("engine", f"the engine {spec.name!r} plays no seat: name it in the bots")
    for name in bots:
        if name not in STRATEGIES and not is_spec(name) and name not in names:
            known = f" ({', '.join(names)})" if names else " (--engine NAME=COMMAND)"
            return ("bots", f"unknown strategy {name!r}; known: "
                            f"{', '.join(sorted(STRATEGIES))}, package.module:Name, or an "
                            f"engine's name{known}")
    return None


@dataclass(slots=True)
class EntrantStats:
    """Results of one bot of the list over a simulation."""

    label: str
    scores: list[int] = field(default_factory=list)
    wins: int = 0

    @property
    def games(self) -> int:
        return len(self.scores)

    @property
    def mean(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else 0.0

    def win_interval(self, z: float = 1.96) -> tuple[float, float]:
        """Wilson score interval of the win rate (95% by default)."""
        return wilson_interval(self.wins, self.games, z)

    def score_interval(self, z: float = 1.96) -> tuple[float, float]:
        """Normal-approximation interval of the mean score (95% by default)."""
        return mean_interval(self.scores, z)


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion.

    >>> lo, hi = wilson_interval(195, 200)
    >>> round(lo, 3), round(hi, 3)
    (0.943, 0.989)
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float]:
    """``mean -/+ z * s / sqrt(n)`` with the sample standard deviation ``s`` (a point for
    fewer than two values).

    >>> lo, hi = mean_interval([150, 160, 170, 180])
    >>> round(lo, 1), round(hi, 1)
    (152.3, 177.7)
    """
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean - half, mean + half)


@dataclass(slots=True)
class SimSummary:
    """Totals of a simulation (per bot of the list) and its wall-clock time."""

    config: SimConfig
    entrants: list[EntrantStats]
    results: int = 0
    seconds: float = 0.0
    error: str | None = None  # why the run stopped before its last game


def seatings(config: SimConfig) -> list[tuple[int, ...]]:
    """For each rotation, the bot-list index sitting in each seat.

    >>> seatings(SimConfig(players=3, bots=("greedy", "random", "random"), rotate=True))
    [(0, 1, 2), (2, 0, 1), (1, 2, 0)]
    """
    n = config.players
    rotations = range(n) if config.rotate else range(1)
    return [tuple((seat - r) % n for seat in range(n)) for r in rotations]


def run_sim(config: SimConfig, out: TextIO | None = None, *, as_json: bool = False,
            progress: TextIO | None = None) -> SimSummary:
    """Play ``config.games`` games (times the rotations), printing each and a summary, or
    with ``as_json`` one JSON document of every game and the summary (:func:`sim_json`).
    ``progress`` (a terminal; nothing is shown on anything else) gets a progress line.

    A bot that fails (with no fallback) stops the run: the games finished before it are
    printed and summed up all the same, and the summary's ``error`` says what failed."""
    out = sys.stdout if out is None else out
    summary = SimSummary(config, [EntrantStats(label) for label in config.labels])
    if not as_json:
        for line in config.game_config.caveats():
            out.write(f"note: {line}\n")
    games: list[dict[str, object]] = []
    meter = Progress(progress, config.games * len(seatings(config)))
    started = time.perf_counter()
    try:
        for result in play_all(config):
            _record(summary, result)
            meter.advance()
            if as_json and not config.quiet:
                games.append(game_json(config, result))
            elif not config.quiet:
                out.write(format_game(config, result))
                out.write("\n")
                out.flush()
    except (BotError, WorkerError) as exc:  # the games finished so far still count
        summary.error = str(exc)
    meter.close()
    summary.seconds = time.perf_counter() - started
    if as_json:
        json.dump(sim_json(summary, games), out, indent=1)
        out.write("\n")
    else:
        out.write(format_summary(summary))
    return summary


class Progress:
    """Games done, rate and time left, redrawn in place on a terminal (at most ``hz`` times a
    second); silent when ``stream`` is None or not a terminal."""

    def __init__(self, stream: TextIO | None, total: int, hz: float = 4.0) -> None:
        self.stream = stream if stream is not None and stream.isatty() else None
        self.total = total
        self.done = 0
        self._interval = 1 / hz
        self._started = self._drawn = time.monotonic()

    def advance(self) -> None:
        self.done += 1
        now = time.monotonic()
        if self.stream is not None and now - self._drawn >= self._interval:
            self._drawn = now
            self.stream.write("\r" + progress_line(self.done, self.total, now - self._started)
                              + "\x1b[K")
            self.stream.flush()

    def close(self) -> None:
        """Erase the line (the results follow on stdout)."""
        if self.stream is not None:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def progress_line(done: int, total: int, seconds: float) -> str:
    """The progress of a simulation after ``seconds``.

    >>> progress_line(25, 100, 10.0)
    'sim: 25/100 games (25%), 2.5 games/s, 30 s left'
    >>> progress_line(1, 7200, 2.0)
    'sim: 1/7200 games (0%), 0.5 games/s, 3 h 59 min left'
    """
    rate = done / seconds if seconds > 0 else 0.0
    left = (total - done) / rate if rate > 0 else 0.0
    return (f"sim: {done}/{total} games ({100 * done // total}%), {rate:.1f} games/s, "
            f"{_duration(left)} left")


def _duration(seconds: float) -> str:
    whole = int(seconds + 0.5)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole // 60 % 60} min"


def game_json(config: SimConfig, result: GameResult) -> dict[str, object]:
    """One game of a simulation as a ``--json`` result (docs/bots.md, "Results"): no game id,
    file or verification (a simulated game has no log), plus its number, seating, seed and
    decisions."""
    labels = config.labels
    seats: list[dict[str, object]] = [
        {"seat": seat, "name": labels[entrant], "fingerprint": None,
         "strategy": config.bots[entrant],
         "engine": result.engines[seat] if result.engines else None,
         "script": result.scripts[seat] if result.scripts else None}
        for seat, entrant in enumerate(result.entrants)]
    doc = result_json("sim", None, None, seats, [p.breakdown for p in result.state.players],
                      result.outcome, state_hash(result.state), None)
    doc.update(game=result.game, rotation=result.rotation, seed=config.seed,
               estates=[board.id for board in result.state.boards],
               decisions=result.decisions)
    return doc


def sim_json(summary: SimSummary, games: list[dict[str, object]]) -> dict[str, object]:
    """The ``--json`` document of ``burgundy sim``: its config, every game, the summary."""
    config = summary.config
    entrants = []
    for e in summary.entrants:
        win_lo, win_hi = e.win_interval()
        score_lo, score_hi = e.score_interval()
        entrants.append({"bot": e.label, "games": e.games, "wins": e.wins,
                         "win_rate": e.wins / e.games if e.games else 0.0,
                         "win_rate_95": [win_lo, win_hi], "mean": e.mean,
                         "mean_95": [score_lo, score_hi], "min": min(e.scores, default=0),
                         "max": max(e.scores, default=0)})
    return {
        "command": "sim",
        "version": RESULT_VERSION,
        "config": {"players": config.players, "games": config.games, "seed": config.seed,
                   "bots": list(config.bots), "edition": config.game_config.edition.value,
                   "modules": [m.value for m in config.modules],
                   "estate": config.estate,
                   "setup": None if config.setup is None else config.setup.value,
                   "rotate": config.rotate, "think": config.think,
                   "iterations": config.iterations,
                   "engines": [{"name": e.name, "command": e.command}
                               for e in config.engines],
                   "engine_fallback": config.engine_fallback,
                   "position": None if config.position is None
                   else config.position.state_hash().hex(),
                   "moves": None if config.script is None else config.script.game_id.hex(),
                   "notes": config.game_config.caveats()},
        "games": games,
        "summary": {"games": summary.results, "seconds": summary.seconds,
                    "entrants": entrants},
        "error": summary.error,
    }


def play_one(config: SimConfig, game: int, rotation: int, pool: EnginePool | None = None
             ) -> GameResult:
    """Game ``game`` (from 0) in seating ``rotation`` of :func:`seatings`; version 2 engines
    are taken from ``pool`` and given back to it (the caller closes it; without one, the
    game's engines stop with it)."""
    entrants = seatings(config)[rotation]
    names = tuple(config.bots[e] for e in entrants)
    own = pool is None  # then the game's engines stop with it
    pool = EnginePool(config.engine_run.log) if pool is None else pool
    log = pool.log()
    bots = [_make_bot(config, name, game, rotation, seat, pool, log)
            for seat, name in enumerate(names)]
    engines = [bot for bot in bots if isinstance(bot, EngineStrategy)]
    script = config.script
    players: list[Strategy] = bots if script is None else \
        [ScriptedStrategy(script.for_seat(seat), bot) for seat, bot in enumerate(bots)]
    start = None if config.position is None else config.position.state()
    try:
        state, decisions = play_game(config.game_config, players, config.seed, game, start,
                                     config.recorded)
        result = outcome(state)
        for engine in engines:
            engine.game_over(state, result)
    except BotError as exc:
        raise BotError(f"game {game + 1}: {exc}") from None
    finally:
        for engine in engines:
            engine.close()
        if own:
            pool.close()
    return GameResult(game, rotation, names, entrants, state, result, decisions,
                      tuple(b.summary() if isinstance(b, EngineStrategy) else None
                            for b in bots),
                      tuple(p.summary() for p in players if isinstance(p, ScriptedStrategy)))


def _make_bot(config: SimConfig, name: str, game: int, rotation: int, seat: int,
              pool: EnginePool | None, log: TextIO | None) -> Strategy:
    seed = bot_seed(config.seed, game, rotation, seat)
    spec = config.engine(name)
    if spec is None:
        return make(name, seed, think=config.think, iterations=config.iterations)
    fallback = config.engine_fallback
    return EngineStrategy(
        spec.command, seat, fallback_name=fallback or "",
        fallback=None if fallback is None else lambda: make(
            fallback, seed, think=config.think, iterations=config.iterations),
        log_prefix=f"burgundy sim: game {game + 1}",
        settings=config.engine_run.settings(spec.name, log), pool=pool)


def play_all(config: SimConfig) -> Iterator[GameResult]:
    """Every game of ``config`` in order (game by game, each in every seating).

    With ``config.jobs > 1`` the games are shared among that many worker processes (started
    with "spawn", so it works the same on every platform); each game depends only on the
    config and its indices, so the results are those of a serial run, in the same order.
    A version 2 engine plays game after game in one process (one per worker).
    """
    tasks = [(config, game, rotation) for game in range(config.games)
             for rotation in range(len(seatings(config)))]
    jobs = min(config.jobs, len(tasks))
    if jobs <= 1:
        engines = EnginePool(config.engine_run.log)
        try:
            for task in tasks:
                yield play_one(*task, engines)
        finally:
            engines.close()
        return
    yield from run_tasks(_play_task, tasks, jobs, ordered=True, label=_task_label)


def _play_task(task: tuple[SimConfig, int, int]) -> GameResult:
    """:func:`play_one` for a worker process (a module-level function, so it pickles)."""
    return play_one(*task, worker_pool(task[0].engine_run.log))


def _task_label(task: tuple[SimConfig, int, int]) -> str:
    config, game, rotation = task
    rotations = len(seatings(config))
    return f"game {game + 1}" + (f", seating {rotation + 1}" if rotations > 1 else "")


def _record(summary: SimSummary, result: GameResult) -> None:
    summary.results += 1
    for seat, entrant in enumerate(result.entrants):
        stats = summary.entrants[entrant]
        stats.scores.append(result.outcome.scores[seat])
        if seat in result.outcome.winners:  # solo: only a full duchy wins
            stats.wins += 1


def _seats(players: int) -> str:
    """``2 players``, or ``1 player (solo)``."""
    return "1 player (solo)" if players == 1 else f"{players} players"


def _rules(config: GameConfig) -> str:
    """The edition, and the expansion modules if any: ``edition 2019 with inns``."""
    modules = " with " + ",".join(m.value for m in config.modules) if config.modules else ""
    modes = "".join(f", {m.switch.game}" for m in modules_of(config) if m.switch)
    return f"edition {config.edition.value}{modes}{modules}"


def format_game(config: SimConfig, result: GameResult) -> str:
    """One game's final scores by category, the winner and why."""
    labels = config.labels
    rotation = f", seating {result.rotation + 1}/{config.players}" if config.rotate else ""
    lines = [f"game {result.game + 1}/{config.games}{rotation}, seed {config.seed}: "
             f"{_seats(config.players)}, {_rules(config.game_config)}"]
    sides = variants.sides(result.state.config, result.outcome)
    if config.switches and sides:  # switched on, not a position's: the sides as set up
        by_letter = sorted(sides, key=lambda side: side.letter)
        lines.append(f"  {sides[0].word} game on {result.state.boards[0].id}: seats "
                     + " against ".join(f"{side.players(str)} ({side.word} {side.letter})"
                                        for side in by_letter))
    elif config.estate is not None or config.setup is not None or config.board is not None:
        lines.append("  estates: " + ", ".join(
            f"seat {seat} on {board.id}" for seat, board in enumerate(result.state.boards)))
    width = max(len(label) for label in labels)
    held = categories(result.state.players[0].breakdown)
    heads = [CATEGORY_HEADERS[c] for c in held]
    lines.append(f"  seat  {'bot':<{width}}  " + " ".join(f"{h:>{max(len(h), 3)}}" for h in heads)
                 + "  total  empty")
    for seat in range(config.players):
        player = result.state.players[seat]
        cells = " ".join(f"{player.breakdown[c]:>{max(len(h), 3)}}"
                         for c, h in zip(held, heads, strict=True))
        lines.append(f"  {seat:>4}  {labels[result.entrants[seat]]:<{width}}  {cells}  "
                     f"{player.vp:>5}  {result.outcome.empty_spaces[seat]:>5}")
    winner = result.outcome.winner
    if config.players == 1:
        verdict = "won" if result.outcome.won else "lost"
        lines.append(f"  solo game {verdict}: {result.outcome.decided_by} "
                     f"(round {result.state.game_round} of 25)")
    elif sides:
        for rank, side in enumerate(sides):
            verdict = f", winner, decided by {result.outcome.decided_by}" if rank == 0 else ""
            lines.append(f"  {side.word} {side.letter} (seats {side.players(str)}): "
                         f"{side.points} VP{verdict}")
    else:
        lines.append(f"  winner: seat {winner} ({labels[result.entrants[winner]]}), "
                     f"decided by {result.outcome.decided_by}")
    for seat, engine in enumerate(result.engines):
        if engine is not None and engine["failure"] is not None:
            lines.append(f"  seat {seat}: {engine['failure']}; {engine['fallback']} played "
                         f"its last {engine['fallback_decisions']} decisions")
    return "\n".join(lines) + "\n"


def format_summary(summary: SimSummary) -> str:
    """Wins, win rate (95% Wilson interval) and mean score (95% interval) per bot, then the
    speed."""
    config = summary.config
    width = max(3, *(len(e.label) for e in summary.entrants))
    seat_games = f" x {config.players} seatings" if config.rotate else ""
    lines = [f"summary: {config.games} games{seat_games}, {_seats(config.players)}, "
             f"{_rules(config.game_config)}, seed {config.seed}, bots {','.join(config.bots)}",
             f"  {'bot':<{width}}  games   wins    win%   95% CI          mean   95% CI"
             "           min   max"]
    for e in summary.entrants:
        lo, hi = e.win_interval()
        rate = 100 * e.wins / e.games if e.games else 0.0
        score_lo, score_hi = e.score_interval()
        lines.append(f"  {e.label:<{width}}  {e.games:>5}  {e.wins:>5}  {rate:>5.1f}%  "
                     f"[{100 * lo:5.1f}, {100 * hi:5.1f}]  {e.mean:>6.1f}  "
                     f"[{score_lo:5.1f}, {score_hi:5.1f}]  "
                     f"{min(e.scores, default=0):>4}  {max(e.scores, default=0):>4}")
    rate = summary.results / summary.seconds if summary.seconds else float("inf")
    lines.append(f"speed: {summary.results} games in {summary.seconds:.2f} s "
                 f"({rate:.1f} games/s)")
    if summary.error is not None:
        lines.append(f"stopped: {summary.error}")
    return "\n".join(lines) + "\n"
