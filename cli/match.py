"""Engine-against-engine matches: the logic behind ``burgundy match``.

A match plays its *entrants* (engines named ``--engine NAME=COMMAND`` and built-in or plug-in
strategies) against each other at *tables* of ``players`` seats: every combination of that
many entrants (a round robin), or the first entrant against every combination of the others
(a gauntlet). Each table plays the same ``deals`` (deal ``d`` is dealt from the match's seed,
as game ``d`` of ``burgundy sim``, or starts at position ``d`` of a deal book and goes on
from there), each deal once in every rotation of the seats, so every entrant meets the same
luck in every seat.

An entrant that fails in a game (a crash, an illegal answer, a time-out, an exception,
resigning) loses it: it is placed last, the reason is kept with the game, a stand-in
(``fallback``) plays its seat to the end so the others are still ranked, and the match goes
on. Each game is reported as soon as it finishes (:func:`run_match` calls ``report``), so
nothing finished is lost whatever happens after.

>>> config = MatchConfig(entrants=("greedy", "random"), deals=1, seed=3)
>>> [(t, d, r) for t, d, r in schedule(config)]
[(0, 0, 0), (0, 0, 1)]
>>> summary = run_match(config, lambda game: None)
>>> [e.wins for e in summary.entrants], summary.pairs[0].elo.pairs
([2, 0], 1)
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from p2p_burgundy import (
    Action,
    Edition,
    GameConfig,
    GameState,
    Module,
    Setup,
    outcome,
    state_hash,
)
from p2p_burgundy.estate import Estate

from . import estates, options, ratings
from .engine import EnginePool, EngineRun, EngineSpec, EngineStrategy, worker_pool
from .estates import table_config
from .gamejson import RESULT_VERSION, Json, result_json
from .position import Position, PositionError, read_book
from .sim import MAX_SEED, bot_seed, check_entrants, mean_interval, play_game
from .strategies import BotError, Strategy, StrategyError, checked_choice, make
from .workers import WorkerError, run_tasks

DEFAULT_STAND_IN = "greedy"


@dataclass(frozen=True, slots=True)
class Sprt:
    """An SPRT between ``H0: elo = elo0`` and ``H1: elo = elo1`` with error rates ``alpha``
    (accepting H1 when H0 holds) and ``beta`` (the other way)."""

    elo0: float
    elo1: float
    alpha: float
    beta: float

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"ELO0 must be below ELO1, not {self.elo0:g} and {self.elo1:g}")
        for name, rate in (("ALPHA", self.alpha), ("BETA", self.beta)):
            if not 0 < rate < 0.5:
                raise ValueError(f"{name} must be between 0 and 0.5, not {rate:g}")


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """What ``burgundy match`` plays: ``entrants`` are strategy or engine names."""

    entrants: tuple[str, ...]
    engines: tuple[EngineSpec, ...] = ()
    players: int = 2
    deals: int = 1  # per table, each played in every rotation of the seats
    seed: int = 0
    gauntlet: bool = False  # the first entrant against the others, not all against all
    edition: Edition | None = None
    estate: str | None = None
    setup: Setup | None = None
    modules: tuple[Module, ...] = ()
    board: Estate | None = None
    think: float | None = None
    iterations: int | None = None
    engine_run: EngineRun = field(default_factory=EngineRun)  # time, options, log of engines
    stand_in: str = DEFAULT_STAND_IN  # plays on for an entrant that failed
    sprt: Sprt | None = None
    jobs: int = 1
    book: tuple[Position, ...] = ()  # the deals' starting positions (then: --deals is theirs)

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 4:
            raise ValueError(f"players must be 2, 3 or 4, not {self.players}")
        if len(set(self.entrants)) != len(self.entrants):
            raise ValueError("name each entrant once")
        if len(self.entrants) < self.players:
            raise ValueError(f"{len(self.entrants)} entrants for tables of {self.players}: "
                             f"name at least {self.players}")
        if self.gauntlet and len(self.entrants) < 2:
            raise ValueError("a gauntlet needs its first entrant and at least one other")
        problem = check_entrants(self.entrants, self.engines)
        if problem is not None:
            raise ValueError(problem[1])
        if self.deals < 1:
            raise ValueError(f"deals must be at least 1, not {self.deals}")
        if self.book and self.deals != len(self.book):
            raise ValueError(f"{self.deals} deals from a book of {len(self.book)} positions")
        if not 0 <= self.seed <= MAX_SEED:
            raise ValueError(f"seed must be 0..2**64-1, not {self.seed}")
        if self.sprt is not None and (self.players != 2 or len(self.entrants) != 2):
            raise ValueError("an SPRT compares two entrants at tables of two")
        if self.jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {self.jobs}")
        if self.game_config.players != self.players:
            raise ValueError(f"the deal book is for {self.game_config.players} players, not "
                             f"{self.players}")

    @property
    def game_config(self) -> GameConfig:
        """The book's table, else the table's options."""
        if self.book:
            return self.book[0].config
        return table_config(self.players, self.edition, self.estate, self.setup,
                            self.modules, self.board)

    @property
    def tables(self) -> list[tuple[int, ...]]:
        """The entrants (indices) of each table.

        >>> MatchConfig(entrants=("a", "b", "c"), engines=tuple(EngineSpec(n, "x")
        ...             for n in "abc"), gauntlet=True).tables
        [(0, 1), (0, 2)]
        """
        everyone = range(len(self.entrants))
        if self.gauntlet:
            return [(0, *others) for others in itertools.combinations(everyone[1:],
                                                                      self.players - 1)]
        return list(itertools.combinations(everyone, self.players))

    def engine(self, name: str) -> EngineSpec | None:
        return next((e for e in self.engines if e.name == name), None)


def schedule(config: MatchConfig) -> list[tuple[int, int, int]]:
    """Every game as ``(table, deal, rotation)``: deal by deal, so the rotations of a deal
    (its pair, with two players) finish close together."""
    return [(table, deal, rotation) for deal in range(config.deals)
            for table in range(len(config.tables)) for rotation in range(config.players)]


def seating(table: Sequence[int], rotation: int) -> tuple[int, ...]:
    """The entrant in each seat in one rotation of a table.

    >>> seating((4, 7, 9), 1)
    (9, 4, 7)
    """
    n = len(table)
    return tuple(table[(seat - rotation) % n] for seat in range(n))


class Accountable:
    """Plays an entrant's ``strategy``; the first time it fails (raises, answers what is not
    legal, an engine's fault or resignation) the reason is kept and ``stand_in`` plays on."""

    def __init__(self, strategy: Strategy, stand_in: Callable[[], Strategy]) -> None:
        self.strategy = strategy
        self._stand_in_factory = stand_in
        self._stand_in: Strategy | None = None
        self.failure: str | None = None

    @property
    def name(self) -> str:
        return self.strategy.name

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        if self._stand_in is None:
            try:
                return checked_choice(self.strategy, state, actions)
            except BotError as exc:
                self.failure = str(exc)
                self._stand_in = self._stand_in_factory()
        return self._stand_in.choose(state, actions)


@dataclass(frozen=True, slots=True)
class MatchGame:
    """One finished game of a match: who sat where, the scores and the match's places (an
    entrant that failed is last), and why each failure happened."""

    table: int
    deal: int
    rotation: int
    entrants: tuple[int, ...]  # by seat
    scores: tuple[int, ...]  # by seat
    places: tuple[int, ...]  # by seat, 1 is the winner; failures last
    failures: tuple[tuple[int, str], ...]  # (seat, reason)
    decisions: int
    doc: Json  # the game as a --json result

    def ranking(self) -> tuple[int, ...]:
        """The entrants from first to last."""
        return tuple(e for _, e in sorted(zip(self.places, self.entrants, strict=True)))


def play_match_game(config: MatchConfig, table: int, deal: int, rotation: int,
                    pool: EnginePool | None = None) -> MatchGame:
    """Game ``deal`` of ``table`` in seating ``rotation``; version 2 engines are taken from
    ``pool`` and given back to it."""
    entrants = seating(config.tables[table], rotation)
    own = pool is None  # then the game's engines stop with it
    pool = EnginePool(config.engine_run.log) if pool is None else pool
    log = pool.log()
    bots = [Accountable(_entrant(config, config.entrants[e], deal, rotation, seat, pool, log),
                        _stand_in(config, deal, rotation, seat))
            for seat, e in enumerate(entrants)]
    start = config.book[deal] if config.book else None
    try:
        state, decisions = play_game(config.game_config, bots, config.seed, deal,
                                     None if start is None else start.state(),
                                     () if start is None else start.entropy)
        result = outcome(state)
        for bot in bots:
            if isinstance(bot.strategy, EngineStrategy) and bot.failure is None:
                bot.strategy.game_over(state, result)
    finally:
        for bot in bots:
            if isinstance(bot.strategy, EngineStrategy):
                bot.strategy.close()
        if own:
            pool.close()
    failed = [seat for seat, bot in enumerate(bots) if bot.failure is not None]
    order = [s for s in result.ranking if s not in failed] + \
        [s for s in result.ranking if s in failed]
    places = tuple(order.index(seat) + 1 for seat in range(config.players))
    failures = tuple((seat, bots[seat].failure or "") for seat in failed)
    seats: list[dict[str, object]] = [
        {"seat": seat, "name": config.entrants[e], "fingerprint": None,
         "strategy": config.entrants[e],
         "engine": b.strategy.summary() if isinstance(b.strategy, EngineStrategy) else None}
        for seat, (e, b) in enumerate(zip(entrants, bots, strict=True))]
    doc = result_json("match", None, None, seats, [p.breakdown for p in state.players],
                      result, state_hash(state), None)
    doc.update(type="game", table=table, deal=deal, rotation=rotation,
               estates=[board.id for board in state.boards], decisions=decisions,
               match_places=list(places),
               failures=[{"seat": seat, "entrant": config.entrants[entrants[seat]],
                          "reason": reason} for seat, reason in failures])
    return MatchGame(table, deal, rotation, entrants, result.scores, places, failures,
                     decisions, doc)


def _entrant(config: MatchConfig, name: str, deal: int, rotation: int, seat: int,
             pool: EnginePool | None, log: TextIO | None) -> Strategy:
    spec = config.engine(name)
    if spec is not None:
        return EngineStrategy(spec.command, seat, settings=config.engine_run.settings(name, log),
                              pool=pool)
    return make(name, bot_seed(config.seed, deal, rotation, seat), think=config.think,
                iterations=config.iterations)


def _stand_in(config: MatchConfig, deal: int, rotation: int, seat: int
              ) -> Callable[[], Strategy]:
    return lambda: make(config.stand_in, bot_seed(config.seed, deal, rotation, seat),
                        iterations=config.iterations, think=config.think)


def _play_task(task: tuple[MatchConfig, int, int, int]) -> MatchGame:
    return play_match_game(*task, worker_pool(task[0].engine_run.log))


def _task_label(task: tuple[MatchConfig, int, int, int]) -> str:
    _, table, deal, rotation = task
    return f"table {table + 1}, deal {deal + 1}, seating {rotation + 1}"


def play_all(config: MatchConfig, tasks: Sequence[tuple[int, int, int]]) -> Iterator[MatchGame]:
    """The games of ``tasks`` as each finishes (in order with one job); a version 2 engine
    plays game after game in one process (one per worker)."""
    jobs = min(config.jobs, len(tasks))
    if jobs <= 1:
        engines = EnginePool(config.engine_run.log)
        try:
            for task in tasks:
                yield play_match_game(config, *task, engines)
        finally:
            engines.close()
        return
    yield from run_tasks(_play_task, [(config, *t) for t in tasks], jobs, ordered=False,
                         label=_task_label)


# --- The summary ---------------------------------------------------------------------------------


@dataclass(slots=True)
class EntrantResult:
    """One entrant over the match."""

    name: str
    games: int = 0
    wins: int = 0
    places: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    failures: int = 0
    rating: float = 0.0  # Plackett-Luce, Elo scale, mean 0

    def json(self) -> Json:
        return {"entrant": self.name, "games": self.games, "wins": self.wins,
                "mean_place": sum(self.places) / self.games if self.games else None,
                "mean_score": sum(self.scores) / self.games if self.games else None,
                "failures": self.failures, "rating": self.rating}


@dataclass(frozen=True, slots=True)
class PairResult:
    """Two entrants that met: the Elo of the first over the second from the pairs of games
    (two players; None at larger tables), and the paired score difference over the deals
    they shared."""

    first: int
    second: int
    elo: ratings.Elo | None
    score_diff: float
    score_diff_95: tuple[float, float]
    deals: int

    def json(self, names: Sequence[str]) -> Json:
        elo = self.elo
        return {"first": names[self.first], "second": names[self.second],
                "elo": None if elo is None else _finite(elo.elo),
                "elo_95": [None, None] if elo is None else [_finite(elo.low), _finite(elo.high)],
                "pairs": 0 if elo is None else elo.pairs, "score_diff": self.score_diff,
                "score_diff_95": list(self.score_diff_95), "deals": self.deals}


def _finite(value: float) -> float | None:
    """JSON has no infinity: an unbounded Elo is null."""
    return value if abs(value) != float("inf") else None


@dataclass(slots=True)
class MatchSummary:
    config: MatchConfig
    entrants: list[EntrantResult]
    pairs: list[PairResult]
    games: int
    llr: float | None = None  # the SPRT's log-likelihood ratio
    verdict: str | None = None  # "H0", "H1", or None while undecided

    def json(self) -> Json:
        config = self.config
        sprt: Json | None = None
        if config.sprt is not None:
            low, high = ratings.sprt_bounds(config.sprt.alpha, config.sprt.beta)
            sprt = {"elo0": config.sprt.elo0, "elo1": config.sprt.elo1,
                    "alpha": config.sprt.alpha, "beta": config.sprt.beta,
                    "llr": self.llr, "bounds": [low, high], "accepted": self.verdict}
        return {"command": "match", "version": RESULT_VERSION, "type": "summary",
                "config": {"entrants": list(config.entrants),
                           "engines": [{"name": e.name, "command": e.command}
                                       for e in config.engines],
                           "players": config.players, "deals": config.deals,
                           "seed": config.seed,
                           "format": "gauntlet" if config.gauntlet else "round robin",
                           "edition": config.game_config.edition.value,
                           "modules": [m.value for m in config.modules],
                           "stand_in": config.stand_in},
                "games": self.games,
                "entrants": [e.json() for e in self.entrants],
                "pairs": [p.json(config.entrants) for p in self.pairs],
                "sprt": sprt}


def summarise(config: MatchConfig, games: Sequence[MatchGame]) -> MatchSummary:
    """Totals, ratings, pairs and the SPRT of the games played so far (in any order)."""
    entrants = [EntrantResult(name) for name in config.entrants]
    for game in games:
        for seat, e in enumerate(game.entrants):
            result = entrants[e]
            result.games += 1
            result.wins += game.places[seat] == 1
            result.places.append(game.places[seat])
            result.scores.append(game.scores[seat])
        for seat, _ in game.failures:
            entrants[game.entrants[seat]].failures += 1
    for result, rating in zip(entrants, ratings.plackett_luce(
            len(entrants), [g.ranking() for g in games]), strict=True):
        result.rating = rating
    pairs = [_pair(config, games, a, b) for a, b in
             itertools.combinations(range(len(config.entrants)), 2)
             if any(a in g.entrants and b in g.entrants for g in games)]
    summary = MatchSummary(config, entrants, pairs, len(games))
    if config.sprt is not None:
        summary.llr, summary.verdict = sprt_state(config.sprt, config, games)
    return summary


def sprt_state(sprt: Sprt, config: MatchConfig, games: Sequence[MatchGame]
               ) -> tuple[float, str | None]:
    """The SPRT's log-likelihood ratio over the complete pairs so far, and ``"H1"`` or
    ``"H0"`` once it crossed a bound (None before)."""
    llr = ratings.sprt_llr(pair_scores(config, games, 0, 1), sprt.elo0, sprt.elo1)
    low, high = ratings.sprt_bounds(sprt.alpha, sprt.beta)
    return llr, "H1" if llr >= high else "H0" if llr <= low else None


def _deals_of(config: MatchConfig, games: Sequence[MatchGame], a: int, b: int
              ) -> list[list[MatchGame]]:
    """The deals (of a table) that ``a`` and ``b`` played in every rotation: their games."""
    by_deal: dict[tuple[int, int], list[MatchGame]] = {}
    for game in games:
        if a in game.entrants and b in game.entrants:
            by_deal.setdefault((game.table, game.deal), []).append(game)
    return [by_deal[key] for key in sorted(by_deal) if len(by_deal[key]) == config.players]


def pair_scores(config: MatchConfig, games: Sequence[MatchGame], a: int, b: int) -> list[float]:
    """Per complete deal, ``a``'s share of the games in which it finished ahead of ``b``."""
    scores = []
    for deal in _deals_of(config, games, a, b):
        ahead = sum(g.places[g.entrants.index(a)] < g.places[g.entrants.index(b)] for g in deal)
        scores.append(ahead / len(deal))
    return scores


def _pair(config: MatchConfig, games: Sequence[MatchGame], a: int, b: int) -> PairResult:
    diffs = [sum(g.scores[g.entrants.index(a)] - g.scores[g.entrants.index(b)] for g in deal)
             / len(deal) for deal in _deals_of(config, games, a, b)]
    mean = sum(diffs) / len(diffs) if diffs else 0.0
    elo = ratings.pair_elo(pair_scores(config, games, a, b)) if config.players == 2 else None
    return PairResult(a, b, elo, mean, mean_interval(diffs), len(diffs))


def run_match(config: MatchConfig, report: Callable[[MatchGame], None]) -> MatchSummary:
    """Play the match, calling ``report`` with each game as it finishes; stop early when the
    SPRT decides. The summary of every game played."""
    games: list[MatchGame] = []
    stream = play_all(config, schedule(config))
    try:
        for game in stream:
            games.append(game)
            report(game)
            if config.sprt is not None and sprt_state(config.sprt, config, games)[1] is not None:
                break
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()  # a pool still playing is stopped
    return summarise(config, games)


def format_game(config: MatchConfig, game: MatchGame, done: int, total: int) -> str:
    """One line per game: ``game 3/8 (table 1, deal 2, seating 1): a 171, b 158 (a wins)``."""
    names = [config.entrants[e] for e in game.entrants]
    seats = ", ".join(f"{n} {s}" for n, s in zip(names, game.scores, strict=True))
    winner = names[game.places.index(1)]
    lines = [f"game {done}/{total} (table {game.table + 1}, deal {game.deal + 1}, seating "
             f"{game.rotation + 1}): {seats} ({winner} wins)"]
    lines += [f"  {names[seat]} lost: {reason}" for seat, reason in game.failures]
    return "\n".join(lines) + "\n"


def format_summary(summary: MatchSummary) -> str:
    """The standings, the pairs and the SPRT's state."""
    config = summary.config
    width = max(7, *(len(n) for n in config.entrants))
    deals = f"{config.deals} deal{'s' if config.deals > 1 else ''}"
    lines = [f"match: {summary.games} games, {config.players} players, "
             f"{'gauntlet' if config.gauntlet else 'round robin'}, {deals}, seed {config.seed}",
             f"  {'entrant':<{width}}  games   wins  place   score  fails  rating"]
    for e in sorted(summary.entrants, key=lambda e: -e.rating):
        j = e.json()
        place = f"{j['mean_place']:5.2f}" if e.games else "    -"
        score = f"{j['mean_score']:6.1f}" if e.games else "     -"
        lines.append(f"  {e.name:<{width}}  {e.games:>5}  {e.wins:>5}  {place}  {score}  "
                     f"{e.failures:>5}  {e.rating:+6.0f}")
    for pair in summary.pairs:
        a, b = config.entrants[pair.first], config.entrants[pair.second]
        elo = "" if pair.elo is None else f"elo {pair.elo} over {pair.elo.pairs} pairs, "
        lo, hi = pair.score_diff_95
        lines.append(f"  {a} vs {b}: {elo}score difference {pair.score_diff:+.1f} "
                     f"[{lo:+.1f}, {hi:+.1f}] over {pair.deals} deal"
                     f"{'s' if pair.deals != 1 else ''}")
    if config.sprt is not None and summary.llr is not None:
        low, high = ratings.sprt_bounds(config.sprt.alpha, config.sprt.beta)
        verdict = {"H1": f"H1 accepted (elo >= {config.sprt.elo1:g})",
                   "H0": f"H0 accepted (elo <= {config.sprt.elo0:g})",
                   None: "no decision yet"}[summary.verdict]
        lines.append(f"  sprt: llr {summary.llr:.2f} in [{low:.2f}, {high:.2f}]: {verdict}")
    return "\n".join(lines) + "\n"


# --- The command line ----------------------------------------------------------------------------

EXIT_CODES = """exit codes:
  0  the match was played (to its end, or until the SPRT decided); an entrant's crash,
     illegal answer or time-out is its loss in that game, not an error
  1  it could not go on (a strategy that cannot start, a worker process of --jobs that
     failed: the games before are kept)
  2  a bad command line"""


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``burgundy match``."""
    parser.add_argument("--engine", type=options.engine, action="append", default=[],
                        metavar='NAME="COMMAND ARGS"',
                        help="an engine entrant (the engine protocol, docs/bots.md); repeat")
    parser.add_argument("--entrants", type=options.bots, default=None, metavar="NAME,...",
                        help="the entrants in order: engines' names and strategies (default: "
                             "the engines); a gauntlet's first entrant meets the others")
    parser.add_argument("--gauntlet", action="store_true",
                        help="the first entrant against the others (default: a round robin)")
    parser.add_argument("--players", type=options.players, default=2, metavar="N",
                        help="seats per table, 2-4 (default 2)")
    parser.add_argument("--deals", type=options.positive, default=None, metavar="N",
                        help="deals per table, each played once in every seating (default 10, "
                             "or every position of --book)")
    parser.add_argument("--book", type=Path, default=None, metavar="FILE",
                        help="a deal book: each deal starts at one of its positions (its "
                             "table: no table options with it)")
    parser.add_argument("--seed", type=options.seed, default=0, metavar="S",
                        help="seed of the deals and the strategies (as burgundy sim)")
    parser.add_argument("--edition", type=options.edition, default=None, metavar="YEAR",
                        help="rulebook edition, 2011 or 2019 (default 2011; 2019 with --with)")
    estates.add_setup_arguments(parser)
    parser.add_argument("--sprt", type=float, nargs=4, default=None,
                        metavar=("ELO0", "ELO1", "ALPHA", "BETA"),
                        help="stop once an SPRT of two entrants decides between elo0 and "
                             "elo1 with these error rates (as fastchess)")
    options.add_engine_run_arguments(parser)
    parser.add_argument("--stand-in", type=options.strategy, default=DEFAULT_STAND_IN,
                        metavar="NAME",
                        help="plays the rest of a game for an entrant that failed (it is "
                             f"placed last all the same; default {DEFAULT_STAND_IN})")
    parser.add_argument("--think", type=options.seconds, default=None, metavar="SECONDS",
                        help="time per decision for search strategies (mcts; default 1)")
    parser.add_argument("--iterations", type=options.positive, default=None, metavar="N",
                        help="rollouts per decision for search strategies instead of a time")
    parser.add_argument("--jobs", type=options.positive, default=1, metavar="N",
                        help="games played at once, one process each (default 1; with more, "
                             "games finish and are reported out of order)")
    parser.add_argument("--json", action="store_true",
                        help="JSON lines instead: one per game as it finishes, then the "
                             "summary (docs/bots.md)")


def match_config(args: argparse.Namespace) -> MatchConfig:
    """The :class:`MatchConfig` a parsed command line asks for (ValueError if it cannot
    be played)."""
    entrants = args.entrants if args.entrants is not None else tuple(e.name for e in args.engine)
    book: tuple[Position, ...] = ()
    if args.book is not None:
        try:
            book = read_book(args.book.read_text())
        except OSError as exc:
            raise ValueError(f"cannot read {args.book}: {exc.strerror or exc}") from None
        except (PositionError, UnicodeDecodeError) as exc:
            raise ValueError(f"{args.book}: {exc}") from None
        if args.edition or args.estate or args.setup or args.modules or args.board:
            raise ValueError("the table of a deal book is its own: no table options with it")
    deals = args.deals or len(book) or 10
    return MatchConfig(
        entrants=entrants, engines=tuple(args.engine),
        players=book[0].config.players if book else args.players, deals=deals,
        seed=args.seed, gauntlet=args.gauntlet, edition=args.edition, estate=args.estate,
        setup=args.setup, modules=args.modules, board=args.board, think=args.think,
        iterations=args.iterations, engine_run=options.engine_run(args),
        stand_in=args.stand_in, sprt=None if args.sprt is None else Sprt(*args.sprt),
        jobs=args.jobs, book=book)


def check(args: argparse.Namespace) -> str | None:
    if args.switches:  # a mode of play's seats are not each a result (partners)
        switch = estates.SWITCHES[args.switches[0]]
        return (f"argument {switch.flag}: a match rates each entrant on its own; play "
                f"{switch.games} with burgundy sim {switch.flag}")
    problem = estates.check_table(args) or options.check_engine_run(
        args, [e.name for e in args.engine])
    if problem is not None:
        return problem
    try:
        args.match = match_config(args)
    except ValueError as exc:
        return str(exc)
    return None


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """``burgundy match``: the exit code."""
    out = out if out is not None else sys.stdout
    config: MatchConfig = args.match
    total = len(schedule(config))
    done = 0

    def report(game: MatchGame) -> None:
        nonlocal done
        done += 1
        if args.json:
            out.write(json.dumps(game.doc) + "\n")
        else:
            out.write(format_game(config, game, done, total))
        out.flush()

    try:
        summary = run_match(config, report)
    except (StrategyError, WorkerError) as exc:
        print(f"burgundy match: {exc}", file=sys.stderr)
        if args.json:
            out.write(json.dumps({"command": "match", "version": RESULT_VERSION,
                                  "error": str(exc)}) + "\n")
        return 1
    if args.json:
        out.write(json.dumps(summary.json()) + "\n")
    else:
        out.write(format_summary(summary))
    return 0
