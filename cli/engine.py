"""The engine protocol: a bot in any language, as a program talking JSON lines on its
stdin and stdout (``burgundy bot --engine "COMMAND ARGS"``; specified in docs/bots.md).

The protocol itself is pure functions (:func:`hello_message`, :func:`read_hello`,
:func:`decide_message`, :func:`read_answer`, :func:`game_over_message`): they build the
messages and judge the answers, raising :class:`EngineFault` with the reason. The process is
the edge (:class:`EngineProcess`), and :class:`EngineStrategy` makes the two a strategy,
optionally falling back to another one when the engine fails.

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from p2p_burgundy import Action, GameState, Outcome, state_hash

from .gamejson import Json, action_json, name, neighbours, scores_json, state_json, winner_json
from .strategies import BotError, Maker, Strategy

PROTOCOL_VERSION = 1
ENGINE = "engine"  # in ``sim --bots``, a seat played by the ``--engine`` program
MAX_LINE = 1 << 20  # bytes in one answer: far more than any real answer
EXIT_GRACE = 2.0  # seconds an engine has to exit after the game is over


class EngineFault(Exception):
    """The engine broke the protocol: no answer in time, exited, or a bad answer."""


class EngineError(BotError):
    """An engine failed with no fallback: the message names the engine and the decision."""


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


def hello_message(seat: int, state: GameState) -> Json:
    """The first message: protocol version, our seat and the table."""
    config = state.config
    return {"type": "hello", "protocol": PROTOCOL_VERSION, "seat": seat,
            "players": config.players, "edition": config.edition.value,
            "setup": config.setup.value, "modules": [m.value for m in config.modules],
            "neighbours": neighbours()}


def read_hello(line: str) -> str:
    """The engine's name from its hello; EngineFault if it is not a hello of our version.

    >>> read_hello('{"type": "hello", "protocol": 1, "name": "tiny"}')
    'tiny'
    >>> read_hello('{"type": "hello", "protocol": 2, "name": "tiny"}')
    Traceback (most recent call last):
    ...
    p2p_burgundy.cli.engine.EngineFault: speaks protocol 2; this peer speaks protocol 1
    """
    message = _message(line, "hello")
    if message.get("protocol") != PROTOCOL_VERSION:
        raise EngineFault(f"speaks protocol {message.get('protocol')!r}; this peer speaks "
                          f"protocol {PROTOCOL_VERSION}")
    engine_name = message.get("name")
    if not isinstance(engine_name, str) or not engine_name.strip():
        raise EngineFault(f"its hello has no name (a non-empty string): {_excerpt(line)}")
    return engine_name.strip()


def decide_message(decision: int, state: GameState, actions: Sequence[Action],
                   own_seat: int | None = None) -> Json:
    """Decision number ``decision`` (from 1): the seat deciding, whether that seat was handed
    over to us (not ``own_seat``), the visible state and the numbered actions."""
    seat = state.to_move
    return {"type": "decide", "decision": decision, "seat": seat,
            "handed_over": own_seat is not None and seat != own_seat,
            "state_hash": state_hash(state).hex(),
            "state": state_json(state), "actions": [action_json(a) for a in actions]}


def read_answer(line: str, decision: int, actions: Sequence[Action]) -> int:
    """The index of the action the engine chose; EngineFault if the answer is malformed, for
    another decision, or not one of the legal actions."""
    message = _message(line, "action")
    if message.get("decision") != decision:
        raise EngineFault(f"answered decision {message.get('decision')!r} when asked "
                          f"decision {decision}")
    index = message.get("action")
    if type(index) is not int:
        raise EngineFault(f"answered action {index!r}, which is not an action number: "
                          f"{_excerpt(line)}")
    if not 0 <= index < len(actions):
        raise EngineFault(f"answered action {index}, but the legal actions are 0 to "
                          f"{len(actions) - 1}")
    return index


def game_over_message(state: GameState, result: Outcome) -> Json:
    """The last message: final scores and the winner (then stdin is closed)."""
    return {"type": "game_over", "winner": winner_json(result), "decided_by": result.decided_by,
            "scores": scores_json([p.breakdown for p in state.players], result)}


def _message(line: str, kind: str) -> dict[str, object]:
    try:
        message = json.loads(line)
    except ValueError:
        raise EngineFault(f"sent a line that is not JSON: {_excerpt(line)}") from None
    if not isinstance(message, dict):
        raise EngineFault(f"sent JSON that is not an object: {_excerpt(line)}")
    if message.get("type") != kind:
        raise EngineFault(f"sent a {message.get('type')!r} message where a {kind!r} was due: "
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
    so every wait has a time limit), its stderr passed through to ours."""

    def __init__(self, command: str) -> None:
        self.command = command
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

    def send(self, message: Json) -> None:
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._gone() from None

    def receive(self, timeout: float) -> str:
        """The next line; EngineFault if none comes in ``timeout`` seconds or the engine
        closed its stdout."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise EngineFault(f"gave no answer in {timeout:g} s") from None
        if line is None:
            raise self._gone()
        if not line.endswith("\n") and len(line) >= MAX_LINE:
            raise EngineFault(f"sent a line longer than {MAX_LINE} bytes")
        return line

    def _gone(self) -> EngineFault:
        try:
            code = self._proc.wait(EXIT_GRACE)
        except subprocess.TimeoutExpired:
            return EngineFault("closed its output but is still running")
        return EngineFault(f"exited (exit code {code})")

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


# --- The strategy --------------------------------------------------------------------------------


class EngineStrategy:
    """A strategy played by an engine program for ``seat``; with ``fallback``, the named
    strategy takes over the rest of the game when the engine fails (said once on ``log``),
    and without one the failure is an :class:`EngineError`.

    ``decisions`` counts the decisions the engine itself answered, ``fallback_decisions``
    those its fallback made; ``engine_name`` is the name from its hello (None before).
    """

    def __init__(self, command: str, seat: int, *, timeout: float = 10.0,
                 fallback: Callable[[], Strategy] | None = None, fallback_name: str = "",
                 log: TextIO | None = None, log_prefix: str = "burgundy bot") -> None:
        self.command = command
        self._log_prefix = log_prefix
        self.seat = seat
        self.timeout = timeout
        self.engine_name: str | None = None
        self._fallback_factory = fallback
        self._fallback_name = fallback_name
        self._fallback: Strategy | None = None
        self._log = log if log is not None else sys.stderr
        self._process: EngineProcess | None = None
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
        if self._process is None:
            try:
                self._process = self._start(state)
            except EngineFault as fault:
                return self._failed(fault, "start-up", state, actions)
        decision = self.decisions + 1
        try:
            self._process.send(decide_message(decision, state, actions, self.seat))
            line = self._process.receive(self.timeout)
            chosen = actions[read_answer(line, decision, actions)]
        except EngineFault as fault:
            return self._failed(fault, describe_decision(decision, state), state, actions)
        self.decisions = decision
        return chosen

    def _start(self, state: GameState) -> EngineProcess:
        process = EngineProcess(self.command)
        try:
            process.send(hello_message(self.seat, state))
            self.engine_name = read_hello(process.receive(self.timeout))
        except EngineFault:
            process.close(grace=0)
            raise
        return process

    def _failed(self, fault: EngineFault, where: str, state: GameState,
                actions: Sequence[Action]) -> Action:
        """Stop the engine; the fallback's choice, or EngineError without one."""
        self.failure = f"engine {self.command!r} at {where}: {fault}"
        self.close()
        if self._fallback_factory is None:
            raise EngineError(self.failure)
        self._fallback = self._fallback_factory()
        print(f"{self._log_prefix}: {self.failure}; {self._fallback_name} plays the rest of "
              "the game",
              file=self._log, flush=True)
        return self._fall_back(state, actions)

    def _fall_back(self, state: GameState, actions: Sequence[Action]) -> Action:
        assert self._fallback is not None
        self.fallback_decisions += 1
        return self._fallback.choose(state, actions)

    def summary(self) -> Json:
        """What the engine did, for ``--json``: its command and name, the decisions it and its
        fallback made, and why the fallback took over."""
        return {"command": self.command, "name": self.engine_name,
                "decisions": self.decisions, "failure": self.failure,
                "fallback": self._fallback_name or None,
                "fallback_decisions": self.fallback_decisions}

    def game_over(self, state: GameState, result: Outcome) -> None:
        """Tell the engine how the game ended and let it exit."""
        if self._process is None or self._fallback is not None:
            return
        with contextlib.suppress(EngineFault):  # gone already: the game is over anyway
            self._process.send(game_over_message(state, result))
        self._process.close()

    def close(self) -> None:
        """Stop the engine (if it still runs) without a word."""
        if self._process is not None:
            self._process.close(grace=0)
