"""The engine protocol: a bot in any language, as a program talking JSON lines on its
stdin and stdout (``burgundy bot --engine "COMMAND ARGS"``; specified in docs/bots.md).

The protocol itself is pure functions (:func:`hello_message`, :func:`read_hello`,
:func:`options_message`, :func:`new_game_message`, :func:`decide_message`,
:func:`read_answer`, :func:`read_reply`, :func:`game_over_message`): they build the messages
and judge the answers, raising :class:`EngineFault` with the reason. The process is the edge
(:class:`EngineProcess`); :class:`Engine` is a running engine after its hello (kept across
games by an :class:`EnginePool` when it speaks version 2), and :class:`EngineStrategy` makes
it a strategy for one game, optionally falling back to another one when the engine fails.

Version 2 adds, to version 1 (whose engines keep working): the engine's version, author and
options in its hello (set by an ``options`` message), ``new_game`` before each game of one
process, the clock in ``decide``, ``info`` messages before an answer, and ``resign``.

>>> from p2p_burgundy import END_TURN, UseDie
>>> read_answer('{"type": "action", "decision": 4, "action": 1}', 4, [UseDie(0), UseDie(1)])
1
>>> read_answer('{"type": "action", "decision": 4, "action": 2}', 4, [UseDie(0), UseDie(1)])
Traceback (most recent call last):
...
p2p_burgundy.cli.engine.EngineFault: answered action 2, but the legal actions are 0 to 1
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from p2p_burgundy import Action, GameState, Outcome, state_hash

from .gamejson import Json, action_json, name, neighbours, scores_json, state_json, winner_json
from .strategies import BotError, Maker, Strategy

PROTOCOL_VERSION = 2  # the newest this peer speaks
PROTOCOLS = (1, 2)  # every version this peer speaks
ENGINE = "engine"  # in ``sim --bots``, a seat played by the ``--engine`` program
MAX_LINE = 1 << 20  # bytes in one answer: far more than any real answer
EXIT_GRACE = 2.0  # seconds an engine has to exit after the game is over


class EngineFault(Exception):
    """The engine broke the protocol: no answer in time, exited, or a bad answer."""


class EngineSilent(EngineFault):
    """The engine gave no answer in the time it had."""


class EngineError(BotError):
    """An engine failed with no fallback: the message names the engine and the decision."""


class EngineResigned(EngineError):
    """An engine resigned its seat (version 2), where resigning is the seat's to do."""


ENGINE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*")


@dataclass(frozen=True, slots=True)
class EngineSpec:
    """An engine as the command line names it: ``NAME=COMMAND``, or a bare ``COMMAND``
    named ``engine``.

    >>> EngineSpec.parse("tiny=python3 tiny.py --fast")
    EngineSpec(name='tiny', command='python3 tiny.py --fast')
    >>> EngineSpec.parse("python3 bot.py --depth=3")
    EngineSpec(name='engine', command='python3 bot.py --depth=3')
    """

    name: str
    command: str

    @classmethod
    def parse(cls, text: str) -> EngineSpec:
        name, sep, command = text.partition("=")
        if sep and ENGINE_NAME.fullmatch(name) and command.strip():
            return cls(name, command)
        return cls(ENGINE, text)


# --- The protocol, without I/O -------------------------------------------------------------------

OPTION_KINDS = ("int", "bool", "string", "choice")


@dataclass(frozen=True, slots=True)
class EngineOption:
    """An option an engine declares in its hello: its name, kind, default, and for ``int``
    its bounds, for ``choice`` its choices."""

    name: str
    kind: str
    default: object
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()

    def parse(self, text: str) -> int | bool | str:
        """The value ``text`` sets; EngineFault saying why it cannot.

        >>> EngineOption("depth", "int", 2, 1, 9).parse("12")
        Traceback (most recent call last):
        ...
        p2p_burgundy.cli.engine.EngineFault: option 'depth' is an int from 1 to 9, not '12'
        """
        if self.kind == "int":
            low = "" if self.low is None else f" from {self.low}"
            high = "" if self.high is None else f" to {self.high}"
            try:
                value = int(text)
            except ValueError:
                value = None
            if value is None or (self.low is not None and value < self.low) or \
                    (self.high is not None and value > self.high):
                raise EngineFault(f"option {self.name!r} is an int{low}{high}, not {text!r}")
            return value
        if self.kind == "bool":
            if text not in ("true", "false"):
                raise EngineFault(f"option {self.name!r} is true or false, not {text!r}")
            return text == "true"
        if self.kind == "choice" and text not in self.choices:
            raise EngineFault(f"option {self.name!r} is one of {', '.join(self.choices)}, "
                              f"not {text!r}")
        return text

    @classmethod
    def read(cls, value: object) -> EngineOption:
        """An option as a hello declares it; EngineFault if it is malformed."""
        if not isinstance(value, dict) or not isinstance(value.get("name"), str) \
                or value.get("type") not in OPTION_KINDS:
            raise EngineFault(f"its hello declares an option that is not "
                              f"{{\"name\": ..., \"type\": {' or '.join(OPTION_KINDS)}}}: "
                              f"{_excerpt(json.dumps(value))}")
        choices = value.get("choices", [])
        bounds = value.get("min"), value.get("max")
        if not (isinstance(choices, list) and all(isinstance(c, str) for c in choices)) or \
                not all(b is None or type(b) is int for b in bounds):
            raise EngineFault(f"its hello declares option {value['name']!r} with bad choices "
                              "or bounds")
        return cls(value["name"], value["type"], value.get("default"), bounds[0], bounds[1],
                   tuple(choices))


@dataclass(frozen=True, slots=True)
class EngineHello:
    """What an engine says of itself: its protocol version and name, and from version 2 its
    version, author and options."""

    protocol: int
    name: str
    version: str | None = None
    author: str | None = None
    options: tuple[EngineOption, ...] = ()

    def option(self, name: str) -> EngineOption:
        """The declared option ``name``; EngineFault if there is none."""
        for option in self.options:
            if option.name == name:
                return option
        if self.protocol < 2:
            raise EngineFault(f"speaks protocol 1, which has no options (asked to set "
                              f"{name!r})")
        declared = ", ".join(o.name for o in self.options) or "none"
        raise EngineFault(f"declares no option {name!r} (it declares: {declared})")


def hello_message(seat: int, state: GameState) -> Json:
    """The first message: the newest protocol version we speak, every one we speak, our seat
    (in the first game) and the table."""
    return {"type": "hello", "protocol": PROTOCOL_VERSION, "protocols": list(PROTOCOLS),
            **_table(seat, state), "neighbours": neighbours()}


def _table(seat: int, state: GameState) -> Json:
    config = state.config
    return {"seat": seat, "players": config.players, "edition": config.edition.value,
            "setup": config.setup.value, "modules": [m.value for m in config.modules]}


def read_hello(line: str) -> EngineHello:
    """The engine's hello; EngineFault if it is not a hello of a version we speak.

    >>> read_hello('{"type": "hello", "protocol": 1, "name": "tiny"}')
    EngineHello(protocol=1, name='tiny', version=None, author=None, options=())
    >>> read_hello('{"type": "hello", "protocol": 3, "name": "tiny"}')
    Traceback (most recent call last):
    ...
    p2p_burgundy.cli.engine.EngineFault: speaks protocol 3; this peer speaks protocol 1 or 2
    """
    message = _message(line, "hello")
    protocol = message.get("protocol")
    if protocol not in PROTOCOLS or type(protocol) is not int:
        raise EngineFault(f"speaks protocol {protocol!r}; this peer speaks protocol "
                          f"{' or '.join(map(str, PROTOCOLS))}")
    engine_name = message.get("name")
    if not isinstance(engine_name, str) or not engine_name.strip():
        raise EngineFault(f"its hello has no name (a non-empty string): {_excerpt(line)}")
    if protocol == 1:
        return EngineHello(1, engine_name.strip())
    texts = [message.get(key) for key in ("version", "author")]
    version, author = (t if isinstance(t, str) else None for t in texts)
    if texts != [version, author]:
        raise EngineFault(f"its hello's version and author are not strings: {_excerpt(line)}")
    declared = message.get("options", [])
    if not isinstance(declared, list):
        raise EngineFault(f"its hello's options are not a list: {_excerpt(line)}")
    options = tuple(EngineOption.read(o) for o in declared)
    return EngineHello(2, engine_name.strip(), version, author, options)


def options_message(hello: EngineHello, settings: Mapping[str, str]) -> Json:
    """The options to set (version 2), each checked against what the engine declared."""
    return {"type": "options",
            "values": {name: hello.option(name).parse(text) for name, text in settings.items()}}


def new_game_message(game: int, seat: int, state: GameState) -> Json:
    """Before each game of one process (version 2): its number (from 1), our seat, the
    table."""
    return {"type": "new_game", "game": game, **_table(seat, state)}


@dataclass(frozen=True, slots=True)
class Clock:
    """An engine's time: ``limit`` seconds per decision, and optionally a game clock of
    ``base`` seconds with ``increment`` added after each decision (None: no game clock).

    >>> Clock.parse("60+0.5")
    Clock(limit=10.0, base=60.0, increment=0.5)
    """

    limit: float = 10.0
    base: float | None = None
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str, limit: float = 10.0) -> Clock:
        """``BASE`` or ``BASE+INCREMENT`` (seconds); ValueError if it is neither."""
        base, _, increment = text.partition("+")
        values = float(base), float(increment or 0)
        if not all(0 <= v < float("inf") for v in values) or values[0] == 0:
            raise ValueError(f"expected SECONDS or SECONDS+INCREMENT, not {text!r}")
        return cls(limit, *values)


def decide_message(decision: int, state: GameState, actions: Sequence[Action],
                   time_left: float | None = None, clock: Clock | None = None) -> Json:
    """Decision number ``decision`` (from 1): the seat deciding, the clock, the visible state
    and the numbered actions."""
    clock = clock or Clock()
    seat = state.to_move
    return {"type": "decide", "decision": decision, "seat": seat,
            "clock": {"time_left": time_left, "increment": clock.increment,
                      "limit": clock.limit},
            "state_hash": state_hash(state).hex(),
            "state": state_json(state), "actions": [action_json(a) for a in actions]}


@dataclass(frozen=True, slots=True)
class EngineInfo:
    """What an engine said about a decision before answering it (version 2): candidate
    actions with their values, best first, a principal line (action numbers of this decision
    and then of the ones it expects next) and a text."""

    decision: int
    candidates: tuple[tuple[int, float], ...] = ()
    line: tuple[int, ...] = ()
    text: str | None = None


RESIGN = "resign"


def read_answer(line: str, decision: int, actions: Sequence[Action]) -> int:
    """The index of the action the engine chose (version 1: nothing else may come); EngineFault
    if the answer is malformed, for another decision, or not one of the legal actions."""
    reply = read_reply(line, decision, actions, 1)
    assert isinstance(reply, int)
    return reply


def read_reply(line: str, decision: int, actions: Sequence[Action], protocol: int
               ) -> int | EngineInfo | str:
    """An engine's reply to a decide: the action's index, or in version 2 an
    :class:`EngineInfo` (more is to come) or :data:`RESIGN`; EngineFault if it is none of
    those, for another decision, or names actions that are not legal.

    >>> from p2p_burgundy import UseDie
    >>> read_reply('{"type": "info", "decision": 2, "candidates": [{"action": 1, "value": 0.6}],'
    ...            ' "line": [1, 0], "text": "die 2 looks good"}', 2, [UseDie(0), UseDie(1)], 2)
    EngineInfo(decision=2, candidates=((1, 0.6),), line=(1, 0), text='die 2 looks good')
    """
    kinds = ("action",) if protocol < 2 else ("action", "info", RESIGN)
    message = _message(line, *kinds)
    if message.get("decision") != decision:
        raise EngineFault(f"answered decision {message.get('decision')!r} when asked "
                          f"decision {decision}")
    if message["type"] == RESIGN:
        return RESIGN
    if message["type"] == "info":
        return _read_info(message, decision, actions, line)
    return _action_index(message.get("action"), actions, line)


def _action_index(index: object, actions: Sequence[Action], line: str) -> int:
    if type(index) is not int:
        raise EngineFault(f"answered action {index!r}, which is not an action number: "
                          f"{_excerpt(line)}")
    if not 0 <= index < len(actions):
        raise EngineFault(f"answered action {index}, but the legal actions are 0 to "
                          f"{len(actions) - 1}")
    return index


def _read_info(message: dict[str, object], decision: int, actions: Sequence[Action],
               line: str) -> EngineInfo:
    candidates = message.get("candidates", [])
    principal = message.get("line", [])
    text = message.get("text")
    if not isinstance(candidates, list) or not all(
            isinstance(c, dict) and isinstance(c.get("value"), int | float)
            and not isinstance(c.get("value"), bool) for c in candidates):
        raise EngineFault(f"sent an info whose candidates are not [{{\"action\": N, "
                          f"\"value\": X}}, ...]: {_excerpt(line)}")
    if not isinstance(principal, list) or not (text is None or isinstance(text, str)):
        raise EngineFault(f"sent an info whose line is not a list of numbers or whose text "
                          f"is not a string: {_excerpt(line)}")
    ranked = tuple((_action_index(c["action"], actions, line), float(c["value"]))
                   for c in candidates)
    if principal and (not all(type(i) is int and i >= 0 for i in principal)):
        raise EngineFault(f"sent an info whose line is not a list of numbers: {_excerpt(line)}")
    if principal:
        _action_index(principal[0], actions, line)
    return EngineInfo(decision, ranked, tuple(principal), text)


def game_over_message(state: GameState, result: Outcome) -> Json:
    """The last message of a game: final scores and the winner (null: a lost solo game)."""
    return {"type": "game_over", "winner": winner_json(result), "decided_by": result.decided_by,
            "scores": scores_json([p.breakdown for p in state.players], result)}


def _message(line: str, *kinds: str) -> dict[str, object]:
    try:
        message = json.loads(line)
    except ValueError:
        raise EngineFault(f"sent a line that is not JSON: {_excerpt(line)}") from None
    if not isinstance(message, dict):
        raise EngineFault(f"sent JSON that is not an object: {_excerpt(line)}")
    if message.get("type") not in kinds:
        due = " or ".join(repr(k) for k in kinds)
        raise EngineFault(f"sent a {message.get('type')!r} message where a {due} was due: "
                          f"{_excerpt(line)}")
    return message


def _excerpt(line: str, limit: int = 80) -> str:
    line = line.rstrip("\n")
    return repr(line if len(line) <= limit else line[:limit] + "...")


def describe_decision(decision: int, state: GameState) -> str:
    """Where a decision is, as people read it: ``decision 7 (phase A, round 2, seat 1, die)``."""
    if state.phase >= 5:
        return f"decision {decision}"
    return (f"decision {decision} (phase {'ABCDE'[state.phase]}, round {state.round + 1}, "
            f"seat {state.to_move}, {name(state.step)})")


# --- The process ---------------------------------------------------------------------------------


class EngineProcess:
    """A running engine: JSON lines to its stdin, lines from its stdout (read by a thread,
    so every wait has a time limit), its stderr passed through to ours. With ``log``, every
    line both ways is written there: ``LABEL > line`` to the engine, ``LABEL < line`` from
    it, each after the seconds since the process started."""

    def __init__(self, command: str, log: TextIO | None = None, label: str = "") -> None:
        self.command = command
        self._log = log
        self._label = label or command
        self._started = time.monotonic()
        try:
            argv = shlex.split(command, posix=os.name != "nt")
        except ValueError as exc:
            raise EngineFault(f"is not a command line: {exc}") from None
        if not argv:
            raise EngineFault("is an empty command line")
        try:
            self._proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          encoding="utf-8", errors="replace", bufsize=1)
        except OSError as exc:
            raise EngineFault(f"could not start: {exc.strerror or exc}") from None
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, name=f"engine {command}", daemon=True).start()

    def _read(self) -> None:
        assert self._proc.stdout is not None
        with self._proc.stdout as stdout:
            while line := stdout.readline(MAX_LINE):
                self._lines.put(line)
        self._lines.put(None)

    def _logged(self, direction: str, line: str) -> None:
        if self._log is not None:
            self._log.write(f"{time.monotonic() - self._started:.3f} {self._label} "
                            f"{direction} {line.rstrip(chr(10))}\n")
            self._log.flush()

    def send(self, message: Json) -> None:
        assert self._proc.stdin is not None
        line = json.dumps(message, separators=(",", ":"))
        self._logged(">", line)
        try:
            self._proc.stdin.write(line + "\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._gone() from None

    def receive(self, timeout: float) -> str:
        """The next line; EngineFault if none comes in ``timeout`` seconds or the engine
        closed its stdout."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise EngineSilent(f"gave no answer in {timeout:g} s") from None
        if line is None:
            raise self._gone()
        if not line.endswith("\n") and len(line) >= MAX_LINE:
            raise EngineFault(f"sent a line longer than {MAX_LINE} bytes")
        self._logged("<", line)
        return line

    def _gone(self) -> EngineFault:
        try:
            code = self._proc.wait(EXIT_GRACE)
        except subprocess.TimeoutExpired:
            return EngineFault("closed its output but is still running")
        return EngineFault(f"exited (exit code {code})")

    @property
    def running(self) -> bool:
        return self._proc.poll() is None

    def close(self, grace: float = EXIT_GRACE) -> None:
        """Close its stdin and give it ``grace`` seconds to exit; then kill it."""
        if self._proc.stdin is not None:
            with contextlib.suppress(OSError):
                self._proc.stdin.close()
        try:
            self._proc.wait(grace)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()


# --- A running engine ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EngineSettings:
    """How to run an engine: per decision ``clock``, the options to set, the protocol log."""

    clock: Clock = field(default_factory=Clock)
    options: Mapping[str, str] = field(default_factory=dict)
    log: TextIO | None = None
    label: str = ""


OptionSetting = tuple[str | None, str, str]
"""``--engine-option [ENGINE:]NAME=VALUE``: the engine it is for (None: every engine), the
option and its value."""


@dataclass(frozen=True, slots=True)
class EngineRun:
    """How the engines of a command run, as its command line says (picklable, for worker
    processes): time per decision, the game clock ``(base, increment)`` if any, the options
    to set and the file that logs every engine's protocol stream."""

    timeout: float = 10.0
    time: tuple[float, float] | None = None
    options: tuple[OptionSetting, ...] = ()
    log: str | None = None

    def settings(self, engine: str, log: TextIO | None) -> EngineSettings:
        """The settings of the engine named ``engine``, logging to ``log`` (the opened
        :attr:`log`)."""
        base, increment = self.time if self.time is not None else (None, 0.0)
        options = {name: value for target, name, value in self.options
                   if target is None or target == engine}
        return EngineSettings(Clock(self.timeout, base, increment), options, log, engine)

    def open_log(self) -> TextIO | None:
        """The protocol log, opened to append (None without one)."""
        return None if self.log is None else open_log(self.log)


def open_log(path: str) -> TextIO:
    """A protocol log (``--engine-log``), opened to append."""
    return open(path, "a", encoding="utf-8")


class Engine:
    """An engine after its hello (and its options, if any were set): one process, which
    plays one game (version 1) or game after game (version 2, each after ``new_game``)."""

    def __init__(self, process: EngineProcess, hello: EngineHello) -> None:
        self.process = process
        self.hello = hello
        self.games = 0  # begun
        self.broken = False  # it failed: it plays no more games

    @classmethod
    def start(cls, command: str, seat: int, state: GameState, settings: EngineSettings
              ) -> Engine:
        """Run ``command``, exchange hellos and set its options; EngineFault if any fails."""
        process = EngineProcess(command, settings.log, settings.label)
        try:
            process.send(hello_message(seat, state))
            hello = read_hello(process.receive(settings.clock.limit))
            if settings.options:
                process.send(options_message(hello, settings.options))
        except EngineFault:
            process.close(grace=0)
            raise
        return cls(process, hello)

    @property
    def reusable(self) -> bool:
        """Whether it can play another game: version 2, and still running."""
        return self.hello.protocol >= 2 and not self.broken and self.process.running

    def begin(self, seat: int, state: GameState) -> None:
        """Start a game (``new_game`` in version 2)."""
        self.games += 1
        if self.hello.protocol >= 2:
            self.process.send(new_game_message(self.games, seat, state))

    def close(self, grace: float = EXIT_GRACE) -> None:
        self.process.close(grace)


class EnginePool:
    """Engines kept running between the games of a match or simulation, by command: version
    2 engines only (a version 1 engine is started afresh for each game); and the protocol
    log they all write to (``log``, a path: opened when first needed, as long as they run)."""

    def __init__(self, log: str | None = None) -> None:
        self._idle: dict[str, list[Engine]] = {}
        self._log_path = log
        self._log: TextIO | None = None

    def log(self) -> TextIO | None:
        """The protocol log, opened to append (None without one)."""
        if self._log is None and self._log_path is not None:
            self._log = open_log(self._log_path)
        return self._log

    def take(self, command: str) -> Engine | None:
        idle = self._idle.get(command)
        return idle.pop() if idle else None

    def give_back(self, command: str, engine: Engine) -> None:
        """Keep ``engine`` for another game if it can play one; else stop it."""
        if engine.reusable:
            self._idle.setdefault(command, []).append(engine)
        else:
            engine.close()

    def close(self) -> None:
        """Let every idle engine exit (its stdin closed), and close the log."""
        for engines in self._idle.values():
            for engine in engines:
                engine.close()
        self._idle.clear()
        if self._log is not None:
            self._log.close()
            self._log = None


_worker_pool: EnginePool | None = None


def worker_pool(log: str | None) -> EnginePool:
    """The engines a worker process (``--jobs``) keeps between its games, and the protocol
    log (``log``) it appends to: they exit when the worker does, as their stdin closes with
    it."""
    global _worker_pool
    if _worker_pool is None:
        _worker_pool = EnginePool(log)
    return _worker_pool


# --- The strategy --------------------------------------------------------------------------------


class EngineStrategy:
    """A strategy played by an engine program for ``seat`` for one game; with ``fallback``,
    the named strategy takes over the rest of the game when the engine fails (said once on
    ``log``), and without one the failure is an :class:`EngineError`. A resignation is a
    failure too, unless ``resignable``: then it is an :class:`EngineResigned` for the caller
    to resign the seat. With ``pool``, a version 2 engine is taken from it if one is idle and
    given back after the game.

    ``decisions`` counts the decisions the engine itself answered, ``fallback_decisions``
    those its fallback made; ``engine_name`` is the name from its hello (None before);
    ``info`` the last :class:`EngineInfo` the engine sent.
    """

    def __init__(self, command: str, seat: int, *, timeout: float = 10.0,
                 fallback: Callable[[], Strategy] | None = None, fallback_name: str = "",
                 log: TextIO | None = None, log_prefix: str = "burgundy bot",
                 settings: EngineSettings | None = None, pool: EnginePool | None = None,
                 resignable: bool = False) -> None:
        self.command = command
        self.seat = seat
        self.settings = settings or EngineSettings(Clock(timeout))
        self.timeout = self.settings.clock.limit
        self.time_left = self.settings.clock.base
        self.engine_name: str | None = None
        self.hello: EngineHello | None = None
        self.info: EngineInfo | None = None
        self._log_prefix = log_prefix
        self._fallback_factory = fallback
        self._fallback_name = fallback_name
        self._fallback: Strategy | None = None
        self._log = log if log is not None else sys.stderr
        self._pool = pool
        self._resignable = resignable
        self._engine: Engine | None = None
        self.decisions = 0
        self.fallback_decisions = 0
        self.failure: str | None = None  # what went wrong, once the engine failed

    @property
    def name(self) -> str:
        """Who plays now: the engine's name (``engine`` before its hello), or the fallback's."""
        if self._fallback is not None:
            return self._fallback.name
        return self.engine_name or ENGINE

    @property
    def made_by(self) -> Maker:
        """What made the last decision: the engine, or its fallback once it failed."""
        if self._fallback is not None:
            return ("fallback", self._fallback.name)
        return ("engine", self.name)

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        if self._fallback is not None:
            return self._fall_back(state, actions)
        if self._engine is None:
            try:
                self._engine = self._start(state)
            except EngineFault as fault:
                return self._failed(fault, "start-up", state, actions)
        decision = self.decisions + 1
        try:
            chosen = self._ask(self._engine, decision, state, actions)
        except EngineFault as fault:
            return self._failed(fault, describe_decision(decision, state), state, actions)
        if chosen is None:  # it resigned
            where = describe_decision(decision, state)
            if self._resignable:
                self.failure = f"engine {self.command!r} at {where}: resigned"
                raise EngineResigned(self.failure)
            return self._failed(EngineFault("resigned"), where, state, actions)
        self.decisions = decision
        return chosen

    def _start(self, state: GameState) -> Engine:
        engine = self._pool.take(self.command) if self._pool is not None else None
        if engine is None:
            engine = Engine.start(self.command, self.seat, state, self.settings)
        self.hello = engine.hello
        self.engine_name = engine.hello.name
        engine.begin(self.seat, state)
        return engine

    def _ask(self, engine: Engine, decision: int, state: GameState,
             actions: Sequence[Action]) -> Action | None:
        """The engine's action for ``decision`` (None if it resigned), after any infos."""
        clock = self.settings.clock
        wait = clock.limit if self.time_left is None else min(clock.limit, self.time_left)
        started = time.monotonic()
        engine.process.send(decide_message(decision, state, actions, self.time_left,
                                           clock))
        while True:
            left = wait - (time.monotonic() - started)
            try:
                reply = read_reply(engine.process.receive(max(left, 0.0)), decision, actions,
                                   engine.hello.protocol)
            except EngineSilent:
                if wait < clock.limit:
                    raise EngineFault(f"ran out of its clock ({wait:g} s left at the "
                                      "decision)") from None
                raise EngineFault(f"gave no answer in {wait:g} s") from None
            if isinstance(reply, EngineInfo):
                self.info = reply
                continue
            if self.time_left is not None:
                self.time_left += clock.increment - (time.monotonic() - started)
            return actions[reply] if isinstance(reply, int) else None  # or RESIGN

    def _failed(self, fault: EngineFault, where: str, state: GameState,
                actions: Sequence[Action]) -> Action:
        """Stop the engine; the fallback's choice, or EngineError without one."""
        self.failure = f"engine {self.command!r} at {where}: {fault}"
        self.close()
        if self._fallback_factory is None:
            raise EngineError(self.failure)
        self._fallback = self._fallback_factory()
        print(f"{self._log_prefix}: {self.failure}; {self._fallback_name} plays the rest of "
              "the game", file=self._log, flush=True)
        return self._fall_back(state, actions)

    def _fall_back(self, state: GameState, actions: Sequence[Action]) -> Action:
        assert self._fallback is not None
        self.fallback_decisions += 1
        return self._fallback.choose(state, actions)

    def summary(self) -> Json:
        """What the engine did, for ``--json``: its command, what it said of itself, the
        decisions it and its fallback made, and why the fallback took over."""
        hello = self.hello
        return {"command": self.command, "name": self.engine_name,
                "protocol": None if hello is None else hello.protocol,
                "version": None if hello is None else hello.version,
                "author": None if hello is None else hello.author,
                "decisions": self.decisions, "failure": self.failure,
                "fallback": self._fallback_name or None,
                "fallback_decisions": self.fallback_decisions}

    def game_over(self, state: GameState, result: Outcome) -> None:
        """Tell the engine how the game ended; a version 1 engine then exits, a version 2
        engine goes back to the pool (if any) for another game."""
        engine = self._engine
        if engine is None or self._fallback is not None or self.failure is not None:
            return
        self._engine = None
        try:
            engine.process.send(game_over_message(state, result))
        except EngineFault:  # gone already: the game is over anyway
            engine.broken = True
        if self._pool is not None and engine.reusable:
            self._pool.give_back(self.command, engine)
        else:
            engine.close()

    def close(self) -> None:
        """Stop the engine (if it still runs) without a word."""
        if self._engine is not None:
            self._engine.broken = True
            self._engine.close(grace=0)
            self._engine = None
