"""``burgundy play``, ``host`` and ``join``: arguments and entry points.

``burgundy play`` is what a new user runs: the tables on the LAN, to join one or host one,
or a game against local bots (each a real peer over loopback). ``--bots N`` starts that bot
game at once; ``--resume`` rejoins an unfinished networked game; ``--seed`` or ``--local``
plays against in-process bots with no network at all (repeatable with a seed: tests, demos).
Games with no network (these, and ``burgundy solo``) are saved after every step
(:mod:`~p2p_burgundy.cli.localgame`); ``--local --resume`` and ``solo --resume`` bring one
back.

>>> parser = argparse.ArgumentParser(prog="burgundy play")
>>> add_arguments(parser)
>>> args = parser.parse_args(["--bots", "2", "--seed", "3"])
>>> args.bots, args.seed, args.name, play_mode(args)
(2, 3, None, 'local')
>>> play_mode(parser.parse_args([])), play_mode(parser.parse_args(["--bots", "1"]))
('lobby', 'bots')
"""

from __future__ import annotations

import argparse
import curses
import getpass
import os
import shlex
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from p2p_burgundy import ConfigError, Edition, GameConfig, GameState
from p2p_burgundy.config import SOLO_TARGET, SOLO_TARGETS
from p2p_burgundy.net.identity import data_dir
from p2p_burgundy.net.start import COLOURS

from .. import localgame, options
from ..estates import SWITCHES, add_setup_arguments, add_switches, modules, table_config
from ..lan import add_peer_arguments
from ..netplay import GONE_AFTER
from ..program import program
from ..strategies import STRATEGIES, StrategyError, make
from ..web.command import WEB_PORT, add_web_arguments
from . import netcommand
from .app import run_guarded
from .describe import end_of_game
from .learn import PROGRESS_FILE, Lesson
from .lobbymodel import Host
from .netcommand import NetOptions
from .table import DEFAULT_BOT_DELAY, LocalTable, clean_name


def _client_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of every command that runs the terminal client on the network."""
    parser.add_argument("--strategy", default="greedy", type=options.strategy, metavar="NAME",
                        help=f"how the bots play: {', '.join(sorted(STRATEGIES))} "
                             "(default greedy), or package.module:Name (docs/bots.md)")
    parser.add_argument("--gone-after", type=options.seconds, default=GONE_AFTER, metavar="SECONDS",
                        help="offer to let a bot play a player silent this long "
                             f"(default {GONE_AFTER:.0f})")
    options.add_mouse_option(parser)
    parser.add_argument("--autoplay", action="store_true",
                        help="a bot plays your seat too (demos and tests)")
    _hint_engine_argument(parser)
    add_peer_arguments(parser)


def _hint_engine_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hint-engine", type=options.command, default=None,
                        metavar='"COMMAND ARGS"',
                        help="ask this engine for hints instead of the built-in bot, and show "
                             "what it says (the engine protocol, docs/bots.md)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``burgundy play``."""
    parser.description = (
        "Play in the terminal. With no options: the tables on the LAN (join one, host one) "
        "or a game against bots on this computer. --bots N starts a game against N local "
        "bot peers at once (over loopback); --resume rejoins an unfinished networked game. "
        "--seed S or --local plays against in-process bots with no network (the same seed "
        "deals the same game).")
    parser.add_argument("--bots", type=int, default=None, choices=(1, 2, 3),
                        help="play against this many bots at once, skipping the tables list")
    parser.add_argument("--local", action="store_true",
                        help="bots in this process, no network at all (default 1 bot)")
    parser.add_argument("--seed", type=options.seed, default=None,
                        help="deal a repeatable game from this seed (implies --local)")
    parser.add_argument("--bot-delay", type=options.seconds, default=DEFAULT_BOT_DELAY,
                        metavar="SECONDS",
                        help=f"with --local: pause between bot turns (default {DEFAULT_BOT_DELAY})")
    parser.add_argument("--resume", nargs="?", const="", default=None, metavar="GAMEFILE",
                        type=options.game_file,
                        help="rejoin an unfinished networked game (default: the latest one); "
                             "with --local, or a local game's file: go back to a game "
                             "against in-process bots")
    parser.add_argument("--with", dest="modules", type=modules, default=(), metavar="MODULES",
                        help="2019 expansion modules for a game against bots, "
                             "comma-separated, or all")
    add_switches(parser, play=True)
    _client_arguments(parser)
    add_web_arguments(parser, "the networked game")


def add_host_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``burgundy host``."""
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2,
                        help="seats at the table (default 2)")
    parser.add_argument("--edition", type=options.edition, default=None, metavar="YEAR",
                        help="rulebook edition, 2011 or 2019 (default 2011; 2019 with --with)")
    add_setup_arguments(parser)
    parser.add_argument("--hints", action="store_true",
                        help="let players ask a bot what it would do (H); everyone sees it")
    options.add_clock_argument(parser)
    _client_arguments(parser)
    add_web_arguments(parser, "the table's game")


def add_join_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``burgundy join``."""
    parser.add_argument("table", nargs="?", default=None, metavar="TABLE",
                        help="the host's name or key fingerprint (as announced on the LAN), "
                             "or host:port; none: the list of tables")
    parser.add_argument("--watch", action="store_true",
                        help="watch the game as a spectator (read-only) instead of playing")
    _client_arguments(parser)


def check_play(args: argparse.Namespace) -> str | None:
    """``--with`` plays a new game against bots: not with ``--resume`` or the tables list; a
    resumed game keeps its own seed and bots."""
    if args.resume is not None:
        problem = _not_with_resume(args, {"--seed": "seed", "--bots": "bots"})
        if problem is not None:
            return problem
    if args.modules and play_mode(args) not in ("local", "bots"):
        return "argument --with: needs a new game against bots (--bots N, --local or --seed)"
    for switch in (SWITCHES[name] for name in args.switches):
        bots = switch.players - 1
        if play_mode(args) not in ("local", "bots") or args.bots != bots:
            return (f"argument {switch.flag}: {switch.game} is for {switch.players} players: a "
                    f"new game against {bots} bots (--bots {bots}, or --local --bots {bots})")
    if args.web and play_mode(args) in ("local", "local-resume"):
        return ("argument --web: shows a networked game (not --local or --seed: play "
                "--bots N is one on this computer)")
    return None


def _not_with_resume(args: argparse.Namespace, dests: dict[str, str]) -> str | None:
    """The complaint about an option (``dests``: option -> its ``args`` name) that a resumed
    game takes from its file, or None."""
    for option, dest in dests.items():
        if getattr(args, dest) not in (None, ()):
            return f"argument {option}: not with --resume (the saved game keeps its own)"
    return None


def play_mode(args: argparse.Namespace) -> str:
    """What ``burgundy play`` does: "resume" (a networked game), "local-resume", "local",
    "bots" or "lobby"."""
    if args.resume is not None:
        local = args.local or (args.resume and localgame.is_local_game(Path(args.resume)))
        return "local-resume" if local else "resume"
    if args.local or args.seed is not None:
        return "local"
    return "bots" if args.bots is not None else "lobby"


def default_name() -> str:
    """The login name, or "Player" (every table shows it in the third person: "Player's
    ship", never "You's")."""
    try:
        return getpass.getuser() or "Player"
    except (OSError, KeyError):
        return "Player"


FALLBACK_TERMS = ("xterm-256color", "xterm", "vt100")
"""What to draw as when ``TERM`` names a terminal this system does not know (most terminals
today understand xterm's sequences)."""


def needs_terminal(prog: str) -> int | None:
    """Exit code 2 (with one line) when there is no terminal to draw on, else None. A ``TERM``
    the system has no description of is replaced by a known one, with a notice."""
    if sys.stdin is None or sys.stdout is None or not (sys.stdin.isatty()
                                                       and sys.stdout.isatty()):
        print(f"{prog}: needs a terminal (stdin and stdout must be a tty)", file=sys.stderr)
        return 2
    term = os.environ.get("TERM", "")
    if term in ("", "dumb"):
        print(f"{prog}: TERM is not set to a terminal that curses can drive", file=sys.stderr)
        return 2
    if _known_terminal(term):
        return None
    for fallback in FALLBACK_TERMS:
        if _known_terminal(fallback):
            os.environ["TERM"] = fallback
            print(f"{prog}: this system does not know the terminal type {term!r}; drawing as "
                  f"{fallback}", file=sys.stderr)
            return None
    print(f"{prog}: this system does not know the terminal type {term!r} (nor "
          f"{', '.join(FALLBACK_TERMS)}): install its terminfo (ncurses-term)", file=sys.stderr)
    return 2


def _known_terminal(term: str) -> bool:
    try:
        curses.setupterm(term, sys.stdout.fileno())
    except curses.error:
        return False
    return True


def net_options(args: argparse.Namespace) -> NetOptions:
    """The :class:`~.netcommand.NetOptions` of a parsed command line."""
    return NetOptions(
        home=args.home or data_dir(), name=clean_name(args.name or default_name()),
        colour=args.colour or COLOURS[0], interface=args.interface, port=args.port,
        mdns=not args.no_mdns, strategy=args.strategy, gone_after=args.gone_after,
        autoplay=args.strategy if args.autoplay else None, mouse=not args.no_mouse,
        watch=getattr(args, "watch", False), web=getattr(args, "web", False),
        web_port=getattr(args, "web_port", WEB_PORT), hint_engine=args.hint_engine)


def run(args: argparse.Namespace) -> int:
    """``burgundy play`` from parsed arguments; returns the exit code (a local game to
    resume is judged before the terminal is: a file that cannot be resumed says so first)."""
    mode = play_mode(args)
    home = Path(args.home or data_dir())
    delay = 0.0 if args.autoplay else max(0.0, args.bot_delay)
    autoplay = args.strategy if args.autoplay else None
    if mode == "local-resume":
        resumed = resume_local(home, args.resume, solo=False, prog="burgundy play",
                               bot_delay=delay)
        if resumed is None:
            return 1
        problem = needs_terminal("burgundy play")
        if problem is not None:
            return problem
        table, path = resumed
        return play_local(table, path, home, autoplay=autoplay, mouse=not args.no_mouse,
                          hint_engine=args.hint_engine)
    problem = needs_terminal("burgundy play")
    if problem is not None:
        return problem
    if mode == "local":
        table = LocalTable.new(args.name or default_name(), bots=args.bots or 1,
                               seed=args.seed, strategy=args.strategy, bot_delay=delay,
                               modules=args.modules, switches=args.switches)
        return play_local(table, localgame.new_path(home), home, autoplay=autoplay,
                          mouse=not args.no_mouse, hint_engine=args.hint_engine)
    options = net_options(args)
    if mode == "resume":
        return netcommand.run_resume(options, args.resume or None)
    if mode == "bots":
        return netcommand.run_bot_game(options, args.bots, args.modules, args.switches)
    return netcommand.run_lobby(options)


def add_solo_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``burgundy solo``."""
    parser.description = (
        "The solo game of the 2019 rulebook, in the terminal, with no network: fill all 37 "
        "spaces of your duchy within 25 rounds. Every game has a seed, shown at its start and "
        "end: --seed S plays the same dice and draws again (to replay it, or to share it).")
    parser.add_argument("--seed", type=options.seed, default=None, metavar="S",
                        help="deal the game of this seed (default: a new one)")
    parser.add_argument("--resume", nargs="?", const="", default=None, metavar="GAMEFILE",
                        type=options.game_file,
                        help="go back to an unfinished solo game where it stopped (default: "
                             "the latest one); every game is saved as it is played")
    parser.add_argument("--home", default=None, metavar="DIR",
                        help="where games are saved (default: the data directory)")
    parser.add_argument("--target", type=target, default=None, metavar="VP",
                        help=f"where the target marker starts: {SOLO_TARGETS[0]} (easier) to "
                             f"{SOLO_TARGETS[-1]} (harder), default {SOLO_TARGET}")
    add_setup_arguments(parser)
    parser.add_argument("--name", default=None, help="your name in the game")
    parser.add_argument("--strategy", default="greedy", type=options.strategy, metavar="NAME",
                        help="the bot that gives hints (H) and plays with --autoplay")
    parser.add_argument("--autoplay", action="store_true",
                        help="the bot plays the game (demos and tests)")
    options.add_mouse_option(parser)
    _hint_engine_argument(parser)


def target(text: str) -> int:
    """The solo game's target marker: a whole number 45..55."""
    value = options.whole_number(text)
    if value not in SOLO_TARGETS:
        raise argparse.ArgumentTypeError(f"must be {SOLO_TARGETS[0]} to {SOLO_TARGETS[-1]}, "
                                         f"not {value}")
    return value


def check_solo(args: argparse.Namespace) -> str | None:
    """The reason a ``burgundy solo`` command line cannot make a solo game, or None."""
    if args.resume is not None:
        return _not_with_resume(args, {
            "--seed": "seed", "--target": "target", "--estate": "estate",
            "--estate-file": "board", "--setup": "setup", "--with": "modules",
            "--name": "name"})
    try:
        solo_config(args)
    except ConfigError as exc:
        return str(exc)
    return None


def solo_config(args: argparse.Namespace) -> GameConfig:
    """The solo game a parsed ``burgundy solo`` command line asks for."""
    config = table_config(1, Edition.E2019, args.estate, args.setup, args.modules, args.board,
                          args.switches)
    return replace(config, target=SOLO_TARGET if args.target is None else args.target)


def run_solo(args: argparse.Namespace) -> int:
    """``burgundy solo``: the solo game in the terminal, saved as it is played; its seed is
    printed before and after (and shown in the game's log). A game to resume is judged
    before the terminal is."""
    home = Path(args.home or data_dir())
    resumed = None
    if args.resume is not None:
        resumed = resume_local(home, args.resume, solo=True, prog="burgundy solo")
        if resumed is None:
            return 1
    problem = needs_terminal("burgundy solo")
    if problem is not None:
        return problem
    if resumed is not None:
        table, path = resumed
    else:
        table = LocalTable.solo(args.name or default_name(), solo_config(args), args.seed)
        path = localgame.new_path(home)
    print(f"Solo game, seed {table.seed}.", flush=True)
    return play_local(table, path, home, autoplay=args.strategy if args.autoplay else None,
                      mouse=not args.no_mouse, hint_engine=args.hint_engine)


def resume_local(home: Path, gamefile: str, *, solo: bool, prog: str, bot_delay: float = 0.0
                 ) -> tuple[LocalTable, Path] | None:
    """The local game saved in ``gamefile`` (""): the latest unfinished solo game, or game
    against bots) and its path, restored where it stopped; None (with one line on stderr)
    when there is none to go on with. A file of the other kind is resumed as what it is."""
    try:
        path = Path(gamefile) if gamefile else localgame.latest_unfinished(home, solo)
    except localgame.LocalGameError as exc:
        print(f"{prog}: cannot resume: {exc}", file=sys.stderr)
        return None
    try:
        saved = localgame.load(path)
        if saved.finished():
            print(f"{prog}: {path}: this game is over ({program()} replay {_quoted(path)} shows "
                  "it)", file=sys.stderr)
            return None
        if not saved.solo:
            make(saved.strategy, 0)  # the bots must be able to play on
        return LocalTable.restore(saved, bot_delay), path
    except StrategyError as exc:
        print(f"{prog}: cannot resume {path}: its bots' strategy: {exc}", file=sys.stderr)
    except OSError as exc:
        print(f"{prog}: cannot resume {path}: {exc.strerror or exc}", file=sys.stderr)
    except localgame.LocalGameError as exc:
        print(f"{prog}: cannot resume {path}: {exc}", file=sys.stderr)
    return None


def play_local(table: LocalTable, path: Path, home: Path, *, autoplay: str | None,
               mouse: bool, hint_engine: str | None = None) -> int:
    """Run the client on a game with no network, saved in ``path`` after every step; then
    say how to go back to it, or where its record is. While saves fail (a full disk, a
    read-only folder), the status line says NOT SAVED; the next save that works holds
    everything."""
    table.saving = lambda saved: localgame.save(path, saved)
    try:
        table.saving(table.saved())
    except OSError as exc:
        table.not_saved = exc.strerror or str(exc)
    code = run_guarded(table, autoplay=autoplay, mouse=mouse, hint_engine=hint_engine)
    solo = table.state.config.solo
    if solo:
        print(f"{solo_summary(table.state)} Seed {table.seed}: {program()} solo --seed "
              f"{table.seed} replays it (with the same options).")
    if table.not_saved is not None:
        print(f"burgundy: the game could not be saved in {path.parent} "
              f"({table.not_saved}): it cannot be resumed.", file=sys.stderr)
        return code or 1
    if table.state.is_over or table.ended:
        print(f"The game's record: {path}\n    {program()} replay {_quoted(path)} steps "
              f"through it; {program()} verify {_quoted(path)} checks it")
    else:
        again = "solo" if solo else "play --local"
        where = "" if home == data_dir() else f" --home {_quoted(home)}"
        print(f"This game is saved. To go back to it:\n    {program()} {again} --resume "
              f"{_quoted(path)}{where}")
    return code


def solo_summary(state: GameState) -> str:
    """Where a solo game stands, in a sentence (when the client closes)."""
    if state.is_over:
        return end_of_game(state) or ""
    return f"Left in round {state.game_round} of 25."


def _quoted(path: Path) -> str:
    return shlex.quote(str(path))


def run_host(args: argparse.Namespace) -> int:
    """``burgundy host``: the lobby screen of a new table, then the game."""
    problem = needs_terminal("burgundy host")
    if problem is not None:
        return problem
    edition = table_config(args.players, args.edition, args.estate, args.setup,
                           args.modules, args.board, args.switches).edition.value
    return netcommand.run_lobby(net_options(args), host=Host(args.players, edition, args.estate,
                                                             args.setup, args.modules, args.board,
                                                             args.hints, args.clock,
                                                             tuple(args.switches)))


def run_join(args: argparse.Namespace) -> int:
    """``burgundy join [TABLE]``: join a table (or pick one from the list), then play."""
    problem = needs_terminal("burgundy join")
    if problem is not None:
        return problem
    return netcommand.run_lobby(net_options(args), join=args.table)


def add_learn_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``burgundy learn``."""
    parser.description = (
        "A guided game against a bot, from the first turn to the final scoring: each step "
        "says what to press and why, and checks it. Leave with q at any time; burgundy learn "
        "goes on where you left off.")
    parser.add_argument("--restart", action="store_true", help="start the lesson over")
    parser.add_argument("--name", default=None, help="your name in the game")
    parser.add_argument("--home", default=None, metavar="DIR",
                        help="where the lesson's progress is kept (default: the data directory)")
    parser.add_argument("--bot-delay", type=options.seconds, default=DEFAULT_BOT_DELAY,
                        metavar="SECONDS",
                        help=f"pause before each of the bot's turns (default {DEFAULT_BOT_DELAY})")
    options.add_mouse_option(parser)


def run_learn(args: argparse.Namespace) -> int:
    """``burgundy learn``: the guided first game (resumed where it was left)."""
    problem = needs_terminal("burgundy learn")
    if problem is not None:
        return problem
    home = Path(args.home or data_dir())
    lesson = Lesson(home / PROGRESS_FILE, restart=args.restart)
    table = lesson.table(clean_name(args.name or default_name()), args.bot_delay)
    return run_guarded(table, lesson=lesson, mouse=not args.no_mouse)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m p2p_burgundy.cli.tui [options]``: the same as ``burgundy play``."""
    parser = argparse.ArgumentParser(prog="burgundy play")
    add_arguments(parser)
    return run(parser.parse_args(argv))
