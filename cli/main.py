"""The ``burgundy`` command line: one table of subcommands, each a parser set-up and a runner.

Add a subcommand by adding a :class:`Command` to :data:`COMMANDS`; ``main`` builds the parser
from the table. A bad command line prints one line (``burgundy sim: error: ...``) and returns
exit code 2.

>>> main(["sim", "--players", "2", "--games", "1", "--seed", "3", "--quiet"])  # doctest: +ELLIPSIS
summary: 1 games, 2 players, edition 2011, seed 3, bots greedy,greedy
...
0
>>> main(["sim", "--players", "5"])  # stderr: burgundy sim: error: argument --players: ...
2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from p2p_burgundy import compiled_modules, stale_compiled_build

from . import analyse, estates, lan, match, options, replay, verify
from .position import PositionError, load_position
from .script import ScriptError, read_script
from .sim import SimConfig, check_entrants, run_sim
from .strategies import STRATEGIES, BotError, StrategyError
from .tui import command as tui_command
from .web import command as web_command

if TYPE_CHECKING:
    from _typeshed import SupportsWrite


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (exit code 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse's own drops write errors: --help on a full disk would exit 0, unread
        if message:
            (file or sys.stderr).write(message)


@dataclass(frozen=True, slots=True)
class Command:
    """A subcommand: its one-line help, how it declares its options, and what it runs.

    ``check`` returns an error message for option combinations argparse cannot judge alone
    (or None); ``run`` returns the exit code.
    """

    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    check: Callable[[argparse.Namespace], str | None] = lambda _args: None
    epilog: str | None = None  # shown after the options in --help: the exit codes


# --- sim ----------------------------------------------------------------------------------------

def _configure_sim(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=options.players, default=None, metavar="N",
                        help="players per game, 2-4, or 1: the solo game (default 2, "
                             + "".join(f"{switch.players} with {switch.flag}, "
                                       for switch in estates.SWITCHES.values())
                             + "or the position's or turns file's)")
    parser.add_argument("--games", type=options.positive, default=1, metavar="N",
                        help="games to play (default 1)")
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--position", type=Path, default=None, metavar="FILE",
                       help="every game starts at this position (burgundy replay "
                            "--export-position; its table and its chance events so far)")
    start.add_argument("--moves", type=Path, default=None, metavar="FILE",
                       help="a turns file (burgundy replay --export-turns): its game again, "
                            "on its real dice, every seat playing its recorded turns first")
    parser.add_argument("--seed", type=options.seed, default=0, metavar="S",
                        help="seed of every deal and bot; the same seed replays the same games")
    parser.add_argument("--bots", type=options.bots, default=None, metavar="NAME,...",
                        help="one strategy per seat, comma-separated "
                             f"({', '.join(sorted(STRATEGIES))}, package.module:Name, or "
                             "an --engine's NAME; default greedy everywhere)")
    parser.add_argument("--edition", type=options.edition, default=None, metavar="YEAR",
                        help="rulebook edition, 2011 or 2019 (default 2011; 2019 with --with)")
    estates.add_setup_arguments(parser)
    parser.add_argument("--rotate", action="store_true",
                        help="play each game once per rotation of the bots around the table")
    parser.add_argument("--quiet", action="store_true",
                        help="print only the summary (with --json: no games)")
    parser.add_argument("--think", type=options.seconds, default=None, metavar="SECONDS",
                        help="time per decision for search bots (mcts; default 1)")
    parser.add_argument("--iterations", type=options.positive, default=None, metavar="N",
                        help="rollouts per decision for search bots instead of a time: "
                             "the same on every machine")
    parser.add_argument("--engine", type=options.engine, action="append", default=[],
                        metavar='NAME="COMMAND ARGS"',
                        help="a program that plays the seats named NAME in --bots (the "
                             "engine protocol, docs/bots.md); repeat for several engines; a "
                             "bare \"COMMAND ARGS\" is named engine")
    options.add_engine_run_arguments(parser)
    parser.add_argument("--engine-fallback", type=options.strategy, default=None, metavar="NAME",
                        help="if an engine fails (time-out, crash, bad answer), this strategy "
                             "plays the rest of its game; default: the run stops there")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON document instead: every game and the summary "
                             "(docs/bots.md)")
    parser.add_argument("--jobs", type=options.positive, default=os.cpu_count() or 1, metavar="N",
                        help="games played at once, one process each (default: the number of "
                             "cores); the results do not depend on it")


def _check_sim(args: argparse.Namespace) -> str | None:
    args.start_position = args.script = None
    try:
        if args.position is not None:
            args.start_position = load_position(args.position)
        if args.moves is not None:
            args.script = read_script(args.moves.read_text())
    except PositionError as exc:
        return f"argument --position: {args.position}: {exc}"
    except OSError as exc:
        return f"argument --moves: cannot read {args.moves}: {exc.strerror or exc}"
    except (ScriptError, UnicodeDecodeError) as exc:
        return f"argument --moves: {args.moves}: {exc}"
    started = args.start_position or args.script
    if started is not None:
        table = [f"--{o}" for o in ("edition", "estate", "setup", "board") if getattr(args, o)]
        table += [estates.SWITCHES[name].flag for name in args.switches]
        if table or args.modules:
            option = table[0] if table else "--with"
            return (f"argument {option}: the game's table is the "
                    f"{'position' if args.position else 'turns file'}'s")
        players = started.config.players
        if args.players not in (None, players):
            return f"argument --players: the game is for {players} players"
        args.players = players
    args.players = args.players or next(
        (estates.SWITCHES[name].players for name in args.switches), 2)
    if args.bots is not None and len(args.bots) != args.players:
        return (f"argument --bots: {len(args.bots)} bots for {args.players} players "
                "(name one strategy per seat)")
    if args.engine_fallback is not None and not args.engine:
        return "argument --engine-fallback: only with --engine"
    bots = args.bots if args.bots is not None else ("greedy",) * args.players
    problem = check_entrants(bots, args.engine)
    if problem is not None:
        return f"argument --{problem[0]}: {problem[1]}"
    return (options.check_engine_run(args, [e.name for e in args.engine])
            or estates.check_table(args))


def sim_config(args: argparse.Namespace) -> SimConfig:
    """The :class:`SimConfig` a parsed ``sim`` command line asks for."""
    bots = args.bots if args.bots is not None else ("greedy",) * args.players
    return SimConfig(players=args.players, games=args.games, seed=args.seed, bots=bots,
                     edition=args.edition, rotate=args.rotate, quiet=args.quiet,
                     estate=args.estate, setup=args.setup, modules=args.modules,
                     board=args.board, switches=tuple(args.switches),
                     think=args.think,
                     iterations=args.iterations, jobs=args.jobs, engines=tuple(args.engine),
                     engine_run=options.engine_run(args), engine_fallback=args.engine_fallback,
                     position=args.start_position, script=args.script)


SIM_EXIT_CODES = """exit codes:
  0  every game was played to the end
  1  a bot failed (it raised, chose an action that is not legal, or could not start), or
     an engine did with no --engine-fallback (no answer in time, exited, a bad answer: the
     message names the game and the decision), or a worker process of --jobs failed; the
     games finished before are still shown
  2  a bad command line

On a terminal, stderr shows the progress (games done, rate, time left)."""


def run_sim_command(args: argparse.Namespace) -> int:
    """``burgundy sim``: bots play each other with no network."""
    try:
        summary = run_sim(sim_config(args), sys.stdout, as_json=args.json, progress=sys.stderr)
    except (BotError, StrategyError) as exc:
        print(f"burgundy sim: {exc}", file=sys.stderr)
        return 1
    if summary.error is not None:
        print(f"burgundy sim: {summary.error}", file=sys.stderr)
        return 1
    return 0


COMMANDS: dict[str, Command] = {
    "play": Command("play in the terminal: the tables on the LAN, or a game against bots",
                    tui_command.add_arguments, tui_command.run, tui_command.check_play),
    "solo": Command("the solo game in the terminal, no network: fill your duchy in 25 rounds",
                    tui_command.add_solo_arguments, tui_command.run_solo,
                    tui_command.check_solo),
    "host": Command("host a table on the LAN and play it in the terminal",
                    tui_command.add_host_arguments, tui_command.run_host,
                    estates.check_table),
    "join": Command("join a table on the LAN (by name, fingerprint or host:port) and play",
                    tui_command.add_join_arguments, tui_command.run_join),
    "learn": Command("a guided first game against a bot: what to press and why, step by step",
                     tui_command.add_learn_arguments, tui_command.run_learn),
    "watch": Command("watch a table's game as a spectator: in the terminal, or with --web as "
                     "a web page for the whole room", web_command.add_watch_arguments,
                     web_command.run_watch),
    "replay": Command("step through a game (networked or local) from its game file",
                      replay.configure, replay.run),
    "sim": Command("bots play each other with no network; prints scores and a summary",
                   _configure_sim, run_sim_command, _check_sim, epilog=SIM_EXIT_CODES),
    "match": Command("engines and bots against each other on the same deals, every seating: "
                     "ratings, paired score differences, SPRT",
                     match.configure, match.run, match.check, epilog=match.EXIT_CODES),
    "analyse": Command("ask an engine or a strategy what it plays at a position, and why",
                       analyse.configure, analyse.run, analyse.check, epilog=analyse.EXIT_CODES),
    "bot": Command("a headless peer: join (or host) a table on the LAN and play a seat",
                   lan.add_bot_arguments, lan.run_bot, lan.check_bot,
                   epilog=lan.BOT_EXIT_CODES),
    "tables": Command("list the tables announced on the LAN",
                      lan.add_tables_arguments, lan.run_tables),
    "estates": Command("list the estates (player boards), with a note where a layout is "
                       "not well attested", estates.configure, estates.run),
    "verify": Command("check a game from its log file alone: signatures, dice, every turn",
                      verify.configure, verify.run, epilog=verify.EXIT_CODES),
}
"""Every subcommand by name."""


def version_text() -> str:
    """The package's version and its build: pure Python (and why not the compiled build beside
    it, when that is stale), or which modules run compiled."""
    compiled = compiled_modules()
    stale = stale_compiled_build()
    if compiled:
        build = "compiled: " + ", ".join(name.removeprefix("p2p_burgundy.") for name in compiled)
    elif stale is None:
        build = "pure Python"
    else:
        build = f"pure Python; the compiled build is stale: {stale}"
    return f"burgundy {metadata.version('p2p-burgundy')} ({build})"


def build_parser() -> argparse.ArgumentParser:
    """The ``burgundy`` parser with one subparser per entry of :data:`COMMANDS`."""
    parser = _Parser(prog="burgundy",
                     description="The Castles of Burgundy on a LAN, peer to peer.")
    parser.add_argument("--version", action="version", version=version_text(),
                        help="show the version and which build runs (pure or compiled)")
    sub = parser.add_subparsers(dest="command", metavar="command", required=True)
    for name, command in COMMANDS.items():
        child = sub.add_parser(name, help=command.help, description=command.help,
                               epilog=command.epilog,
                               formatter_class=argparse.RawDescriptionHelpFormatter)
        command.configure(child)
        child.set_defaults(_command=command, _parser=child)
    return parser


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Parse and check a command line; exits with code 2 (one line on stderr) if it is bad."""
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version"):
        parser.error(f"unknown option {argv[0]} (a command comes first: burgundy --help "
                     "lists them)")
    args = parser.parse_args(argv)
    problem = args._command.check(args)
    if problem is not None:
        args._parser.error(problem)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``burgundy`` with ``argv`` (default: ``sys.argv[1:]``); returns the exit code.

    Output that cannot be written (a closed stdout, a full disk, a reader gone) is an error
    (exit code 1), never a traceback or a silent success."""
    _fill_closed_descriptors()
    if sys.platform == "win32":  # the transport waits on its socket with add_reader, which
        # Windows' default (proactor) event loop lacks
        asyncio.set_event_loop_policy(asyncio.WindowsSelectorEventLoopPolicy())
    if sys.stdout is None:
        _complain("burgundy: standard output is closed (send it to a file or /dev/null)")
        return 1
    prog = "burgundy"
    try:
        try:
            args = parse(argv)
        except SystemExit as exc:  # --help (0) or a bad command line (2)
            code = exc.code if isinstance(exc.code, int) else 2
        else:
            prog = f"burgundy {args.command}"
            code = int(args._command.run(args))
        sys.stdout.flush()
        return code
    except BrokenPipeError:  # `burgundy estates | head`: the reader is gone, and so are we
        _silence_stdout()
        return 1
    except OSError as exc:  # `burgundy sim --json > /dev/full`
        _silence_stdout()
        where = f": {exc.filename}" if exc.filename else " (writing the output)"
        _complain(f"{prog}: {exc.strerror or exc}{where}")
        return 1
    except KeyboardInterrupt:  # Ctrl-C in a command with no screen of its own
        _complain(f"{prog}: interrupted")
        return 130


def _fill_closed_descriptors() -> None:
    """Open the null device on stdin, stdout or stderr if closed (``<&-``, ``>&-``), so
    that no file opened later takes its number: output meant for the terminal would go into
    it. ``sys.stdin`` (or ``sys.stdout``) stays None, telling that it was closed."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:  # the lowest free number is this one: the lower ones are open
            os.open(os.devnull, os.O_RDWR)


def _silence_stdout() -> None:
    """Point stdout at nothing: Python flushes it again at exit, and that must stay quiet."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _complain(line: str) -> None:
    """``line`` on stderr, if there is a stderr to write to."""
    if sys.stderr is not None:
        with contextlib.suppress(OSError):
            print(line, file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
