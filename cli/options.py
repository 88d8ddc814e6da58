"""Argument types shared by the ``burgundy`` subcommands: each turns one option's text into
a value, or raises ``argparse.ArgumentTypeError`` with a one-line reason.

>>> players("3"), seed("7"), seconds("0.5")
(3, 7, 0.5)
>>> players("5")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be 1 (the solo game), 2, 3 or 4, not 5
"""

from __future__ import annotations

import argparse
import ipaddress
import shlex
import socket
from pathlib import Path

from p2p_burgundy import Edition
from p2p_burgundy.errors import ConfigError
from p2p_burgundy.net.clock import TimeControl
from p2p_burgundy.net.start import MAX_NAME, name_ok

from .engine import Clock, EngineRun, EngineSpec, OptionSetting
from .files import MAX_GAME_FILE, check_input
from .localgame import is_game_file
from .sim import MAX_SEED
from .strategies import STRATEGIES, StrategyError, is_spec
from .strategies.external import load

MAX_SECONDS = 24 * 3600


def players(text: str) -> int:
    value = whole_number(text)
    if not 1 <= value <= 4:
        raise argparse.ArgumentTypeError(f"must be 1 (the solo game), 2, 3 or 4, not {value}")
    return value


def positive(text: str) -> int:
    value = whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def port(text: str) -> int:
    """A UDP port, or 0 for any free one."""
    value = whole_number(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be 0 (any free port) to 65535, not {value}")
    return value


def interface(text: str) -> str:
    """An IPv4 address of this computer (checked by binding a socket to it: nothing is sent).

    >>> interface("127.0.0.1")
    '127.0.0.1'
    >>> interface("localhost")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected an IPv4 address such as 192.168.1.20, not 'localhost'
    """
    try:
        address = str(ipaddress.IPv4Address(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected an IPv4 address such as 192.168.1.20, not {text!r}") from None
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.bind((address, 0))
        except OSError:
            raise argparse.ArgumentTypeError(
                f"{address} is not an address of this computer") from None
    return address


def name(text: str) -> str:
    """A player's name as the table shows it: 1 to 32 printable characters."""
    value = text.strip()
    if not name_ok(value):
        raise argparse.ArgumentTypeError(
            f"must be 1 to {MAX_NAME} printable characters, not {text!r}")
    return value


def game_file(text: str) -> str:
    """The path of a game file, networked or local, that can be read (a game to resume:
    nothing is created, and no other file is opened for writing), or "" for the latest
    game (what ``--resume`` alone means).

    >>> game_file("/dev/null")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: /dev/null: not a regular file (a device or a named pipe)
    """
    if not text:
        return text
    try:
        check_input(Path(text), limit=MAX_GAME_FILE)
    except FileNotFoundError:
        raise argparse.ArgumentTypeError(f"no such game file: {text}") from None
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"{text}: {exc.strerror or exc}") from None
    if not is_game_file(Path(text)):
        raise argparse.ArgumentTypeError(f"{text}: not a p2p-burgundy game file")
    return text


def seed(text: str) -> int:
    value = whole_number(text)
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"must be 0 to 2**64-1, not {value}")
    return value


def whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None


def strategy(text: str) -> str:
    """A built-in strategy's name, or ``package.module:Name`` that loads (docs/bots.md).

    >>> strategy("greedy")
    'greedy'
    >>> strategy("clever")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: unknown strategy 'clever'; known: greedy, ... or package.module:Name
    """
    name = text.strip()
    if is_spec(name):
        try:
            load(name)
        except StrategyError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    elif name not in STRATEGIES:
        raise argparse.ArgumentTypeError(f"unknown strategy {name!r}; known: "
                                         f"{', '.join(sorted(STRATEGIES))}, or package.module:Name")
    return name


def bots(text: str) -> tuple[str, ...]:
    """One strategy per seat, comma-separated: each as :func:`strategy`, or the name of an
    engine (``--engine NAME=COMMAND``; whether one has that name is checked with the whole
    command line)."""
    names = tuple(name.strip() for name in text.split(","))
    for name in names:
        if is_spec(name) or not name:
            strategy(name)
    return names


def engine(text: str) -> EngineSpec:
    """``NAME=COMMAND``, or a bare ``COMMAND`` (named ``engine``; docs/bots.md).

    >>> engine("tiny=python3 tiny.py")
    EngineSpec(name='tiny', command='python3 tiny.py')
    """
    spec = EngineSpec.parse(text)
    command(spec.command)
    return spec


def command(text: str) -> str:
    """A command line to run (split like a POSIX shell does, later).

    >>> command("python3 mybot.py --fast")
    'python3 mybot.py --fast'
    >>> command("  ")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a command, not an empty string
    """
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a command line: {exc}") from None
    if not words:
        raise argparse.ArgumentTypeError("expected a command, not an empty string")
    return text


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, not {text!r}") from None
    if not 0 <= value <= MAX_SECONDS:  # also rejects nan
        raise argparse.ArgumentTypeError(f"must be 0 to {MAX_SECONDS} seconds, not {text}")
    return value


def edition(text: str) -> Edition:
    try:
        return Edition(text)
    except ValueError:
        known = ", ".join(e.value for e in Edition)
        raise argparse.ArgumentTypeError(f"must be one of {known}, not {text!r}") from None


def engine_option(text: str) -> OptionSetting:
    """``[ENGINE:]NAME=VALUE``: an option for the engine named ENGINE, or for every engine.

    >>> engine_option("mine:depth=3"), engine_option("fast=true")
    (('mine', 'depth', '3'), (None, 'fast', 'true'))
    """
    target, sep, value = text.partition("=")
    engine, colon, option = target.rpartition(":")
    if not sep or not option.strip() or (colon and not engine.strip()):
        raise argparse.ArgumentTypeError(f"expected [ENGINE:]NAME=VALUE, not {text!r}")
    return (engine.strip() if colon else None, option.strip(), value)


def engine_time(text: str) -> tuple[float, float]:
    """``SECONDS`` or ``SECONDS+INCREMENT``: an engine's clock for a whole game.

    >>> engine_time("60+0.5")
    (60.0, 0.5)
    """
    try:
        clock = Clock.parse(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected SECONDS or SECONDS+INCREMENT, not {text!r}") from None
    assert clock.base is not None
    return clock.base, clock.increment


def game_clock(text: str) -> TimeControl:
    """``MINUTES[+SECONDS]``: a table's game clock, minutes each and seconds a turn.

    >>> game_clock("10+5"), game_clock("0.5")
    (TimeControl(seconds=600, increment=5), TimeControl(seconds=30, increment=0))
    >>> game_clock("10+")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected MINUTES[+SECONDS] (10+5: 10 min each, 5 s a turn) not '10+'
    """
    minutes, plus, increment = text.partition("+")
    try:
        seconds = round(float(minutes) * 60)
        added = int(increment) if plus else 0
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected MINUTES[+SECONDS] (10+5: 10 min each, 5 s a turn) not {text!r}"
        ) from None
    try:
        return TimeControl(seconds, added)
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_clock_argument(parser: argparse.ArgumentParser) -> None:
    """``--clock``, for every command that hosts a networked table."""
    parser.add_argument("--clock", type=game_clock, default=None, metavar="MINUTES[+SECONDS]",
                        help="a game clock: minutes each player has for the game, plus "
                             "seconds more with each turn; a player out of time may be "
                             "handed to the stand-in at once (default: no clock)")


def add_engine_run_arguments(parser: argparse.ArgumentParser) -> None:
    """How engines run: the options every command with engines shares (docs/bots.md)."""
    parser.add_argument("--engine-timeout", type=seconds, default=10.0, metavar="SECONDS",
                        help="time an engine has for its hello and for each decision "
                             "(default 10)")
    parser.add_argument("--engine-time", type=engine_time, default=None,
                        metavar="SECONDS[+INC]",
                        help="an engine's clock for a whole game, with an increment after "
                             "each decision (sent with each decision; running out is a "
                             "failure)")
    parser.add_argument("--engine-option", type=engine_option, action="append", default=[],
                        metavar="[ENGINE:]NAME=VALUE",
                        help="set an option the engine declares in its hello (protocol 2); "
                             "repeat")
    parser.add_argument("--engine-log", type=Path, default=None, metavar="FILE",
                        help="append every line to and from the engines to FILE")


def engine_run(args: argparse.Namespace) -> EngineRun:
    """The :class:`EngineRun` of parsed :func:`add_engine_run_arguments` options."""
    return EngineRun(args.engine_timeout, args.engine_time, tuple(args.engine_option),
                     None if args.engine_log is None else str(args.engine_log))


def check_engine_run(args: argparse.Namespace, engines: list[str]) -> str | None:
    """An --engine-option for an engine that is not there, or --engine-log where it cannot
    be written (None if all is well)."""
    for target, option, _ in args.engine_option:
        if target is not None and target not in engines:
            return (f"argument --engine-option: no engine is named {target!r} (for "
                    f"{target}:{option})")
    if args.engine_option and not engines:
        return "argument --engine-option: only with --engine"
    if args.engine_log is not None:
        try:
            args.engine_log.open("a").close()
        except OSError as exc:
            return f"argument --engine-log: cannot write {args.engine_log}: {exc.strerror}"
    return None


def add_mouse_option(parser: argparse.ArgumentParser) -> None:
    """``--no-mouse``, for every command that runs the terminal client."""
    parser.add_argument("--no-mouse", action="store_true",
                        help="do not capture the mouse (the terminal then selects and "
                             "copies text with it as usual)")
