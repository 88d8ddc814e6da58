"""``burgundy play``: arguments and entry point (a local game against bots, for now).

>>> parser = argparse.ArgumentParser(prog="burgundy play")
>>> add_arguments(parser)
>>> args = parser.parse_args(["--bots", "2", "--seed", "3"])
>>> args.bots, args.seed, args.name
(2, 3, None)
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from collections.abc import Sequence

from ..strategies import STRATEGIES
from .table import LocalTable

DEFAULT_BOT_DELAY = 0.6


def _seed(text: str) -> int:
    value = int(text, 0)
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError("the seed must be 0..2**64-1")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``burgundy play``."""
    parser.add_argument("--bots", type=int, default=1, choices=(1, 2, 3),
                        help="how many bots to play against (default 1)")
    parser.add_argument("--seed", type=_seed, default=None,
                        help="deal a repeatable game from this seed (default: random)")
    parser.add_argument("--name", default=None, help="your name at the table")
    parser.add_argument("--strategy", default="greedy", choices=sorted(STRATEGIES),
                        help="how the bots play (default greedy)")
    parser.add_argument("--bot-delay", type=float, default=DEFAULT_BOT_DELAY, metavar="SECONDS",
                        help=f"pause between bot turns (default {DEFAULT_BOT_DELAY})")
    parser.add_argument("--no-mouse", action="store_true", help="do not capture the mouse")
    parser.add_argument("--autoplay", action="store_true",
                        help="a bot plays your seat too (demos and tests)")


def default_name() -> str:
    """The login name, or "You"."""
    try:
        return getpass.getuser() or "You"
    except (OSError, KeyError):
        return "You"


def run(args: argparse.Namespace) -> int:
    """Start a local game from parsed arguments; returns the exit code."""
    from .app import run_guarded

    if not sys.stdin.isatty() or not sys.stdout.isatty():
        print("burgundy play: needs a terminal (stdin and stdout must be a tty)", file=sys.stderr)
        return 2
    if os.environ.get("TERM", "") in ("", "dumb"):
        print("burgundy play: TERM is not set to a terminal that curses can drive",
              file=sys.stderr)
        return 2
    delay = 0.0 if args.autoplay else max(0.0, args.bot_delay)
    table = LocalTable.new(args.name or default_name(), bots=args.bots, seed=args.seed,
                           strategy=args.strategy, bot_delay=delay)
    return run_guarded(table, autoplay=args.strategy if args.autoplay else None,
                       mouse=not args.no_mouse)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m p2p_burgundy.cli.tui [options]``: the same as ``burgundy play``."""
    parser = argparse.ArgumentParser(prog="burgundy play",
                                     description="Play in the terminal against local bots.")
    add_arguments(parser)
    return run(parser.parse_args(argv))
