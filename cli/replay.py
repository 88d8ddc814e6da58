"""``burgundy replay GAMEFILE``: step through a game with the game's own screens.

The game file is only read (a game still running may be replayed as far as it went). Its
entries are audited (:func:`p2p_burgundy.net.audit.audit`: a spectator session decides the
game exactly as the peers did), and the steps the audit reports (what each chance event drew,
each turn's actions, the game after each) are shown by :class:`~.tui.table.ReplayTable`.
``--export-turns`` writes the turns instead, for ``burgundy bot --moves`` (:mod:`.script`), and
``--export-position STEP`` the position after its first STEP steps (:mod:`.position`).
A local game's file (``burgundy solo``, ``play --local``: :mod:`.localgame`) is replayed from
its record, every step checked against its state hashes; it has no turns file.
``--web`` serves the replay as a web page instead (:mod:`.web`), stepped from the page.
Exit code 1 with one line for a file that cannot be replayed, 2 for a bad command line.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from p2p_burgundy.net.audit import audit, audit_file
from p2p_burgundy.net.errors import ProtocolError
from p2p_burgundy.net.log import read_records
from p2p_burgundy.net.report import ChanceReport
from p2p_burgundy.net.start import COLOURS

from . import options
from .files import MAX_GAME_FILE, read_input
from .localgame import MAGIC, LocalGameError, decode, is_game_file, is_local_game
from .options import whole_number
from .position import PositionError, audit_position, read_position, record_position
from .script import export_turns
from .web.command import add_web_arguments, run_replay

if TYPE_CHECKING:
    from .tui.table import ReplayTable

EXIT_OK, EXIT_UNREADABLE = 0, 1


class ReplayError(Exception):
    """A game file that cannot be replayed (the message says why)."""


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``burgundy replay``."""
    parser.add_argument("gamefile", metavar="GAMEFILE",
                        help="a game file (in the data directory's games/ or local/ folder), "
                             "or a position file (burgundy replay --export-position)")
    options.add_mouse_option(parser)
    parser.add_argument("--export-turns", metavar="FILE", default=None,
                        help="write the game's turns as a turns file (JSON; - for stdout) for "
                             "burgundy bot --moves, instead of showing the game")
    parser.add_argument("--export-position", metavar="STEP", default=None,
                        type=whole_number,
                        help="print the position after the first STEP steps (chance events "
                             "and turns; in a local game's file, chance events and single "
                             "actions; 0 is the start) as a position file (JSON) for sim "
                             "--position, match --book and analyse, instead of showing the "
                             "game")
    parser.add_argument("--interface", type=options.interface, default=None, metavar="IP",
                        help="with --web: serve the page on this address")
    add_web_arguments(parser, "the replay (stepped from the page)")


def load_game(data: bytes) -> ReplayTable:
    """The game of a game file's bytes, to watch step by step; ReplayError if the bytes hold
    no game.

    >>> load_game(b"garbage")
    Traceback (most recent call last):
    ...
    p2p_burgundy.cli.replay.ReplayError: not a p2p-burgundy game file
    """
    return load_game_and_colours(data)[0]


def load_game_and_colours(data: bytes) -> tuple[ReplayTable, list[str]]:
    """:func:`load_game`, and the players' piece colours by seat (a local game's in the
    order of ``COLOURS``)."""
    from .tui.table import GameStep, LocalTable, ReplayTable  # the client's, only when needed

    if data.startswith(MAGIC[:-1]):
        try:
            table = LocalTable.restore(decode(data)).replay()
        except LocalGameError as exc:
            raise ReplayError(str(exc)) from None
        return table, [COLOURS[seat % len(COLOURS)] for seat in range(len(table.names))]
    if data.lstrip().startswith(b"{"):  # a position file: how its game got there
        try:
            position = read_position(data.decode())
        except (PositionError, UnicodeDecodeError) as exc:
            raise ReplayError(str(exc)) from None
        players = position.config.players
        return (ReplayTable(position.config, [GameStep(*step) for step in position.steps()],
                            [f"Seat {seat}" for seat in range(players)]),
                [COLOURS[seat % len(COLOURS)] for seat in range(players)])
    try:
        records, _ = read_records(data)
    except ProtocolError as exc:
        raise ReplayError(str(exc)) from None
    report = audit(records)
    if report.config is None:
        raise ReplayError("no valid start entry: there is no game to replay")
    steps = [GameStep(step.drew if isinstance(step, ChanceReport) else step.actions, step.state)
             for step in report.steps]
    return (ReplayTable(report.config, steps, [p.name for p in report.players]),
            [p.colour for p in report.players])


def run(args: argparse.Namespace) -> int:
    """Replay ``args.gamefile`` in the terminal; the exit code."""
    from .tui.app import run_guarded
    from .tui.command import needs_terminal

    path = Path(args.gamefile)
    if args.export_turns is not None:
        return _export_turns(path, args.export_turns)
    if args.export_position is not None:
        return _export_position(path, args.export_position)
    try:
        table, colours = load_game_and_colours(read_input(path, limit=MAX_GAME_FILE))
    except OSError as exc:
        print(f"burgundy replay: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    except ReplayError as exc:
        print(f"burgundy replay: {path}: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    if args.web:
        return run_replay(table, colours, args)
    problem = needs_terminal("burgundy replay")
    if problem is not None:
        return problem
    table.step(-table.position[1])  # from the start
    return run_guarded(table, mouse=not args.no_mouse)


def _export_position(path: Path, step: int) -> int:
    try:
        data = path.read_bytes()
        if data.startswith(MAGIC[:-1]):
            position = record_position(decode(data).record, step)
        else:
            position = audit_position(audit_file(data), step)
    except OSError as exc:
        print(f"burgundy replay: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    except (PositionError, LocalGameError) as exc:
        print(f"burgundy replay: {path}: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    sys.stdout.write(json.dumps(position.to_json(), indent=1) + "\n")
    return EXIT_OK


def _export_turns(path: Path, target: str) -> int:
    if is_local_game(path):
        print(f"burgundy replay: {path}: a local game's file: --export-turns reads the files "
              "of networked games", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        report = audit_file(read_input(path, limit=MAX_GAME_FILE))
    except OSError as exc:
        print(f"burgundy replay: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    if report.config is None:
        print(f"burgundy replay: {path}: no valid start entry: there are no turns to export",
              file=sys.stderr)
        return EXIT_UNREADABLE
    text = json.dumps(export_turns(report), indent=1) + "\n"
    if target == "-":
        sys.stdout.write(text)
        return EXIT_OK
    refused = output_refused(Path(target), path)
    if refused is not None:
        print(f"burgundy replay: not writing the turns to {target}: {refused}", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        Path(target).write_text(text)
    except OSError as exc:
        print(f"burgundy replay: cannot write {target}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    return EXIT_OK


def output_refused(target: Path, source: Path) -> str | None:
    """Why the turns must not be written to ``target``, or None: it is the game file being
    read, or any game file (the only record of its game).

    >>> output_refused(Path("/dev/null"), Path("g.game")) is None
    True
    """
    try:
        if target.exists() and target.samefile(source):
            return "it is the game file being read"
    except OSError:
        pass
    if is_game_file(target):
        return "it is a game file (the only record of its game)"
    return None


__all__ = ["ReplayError", "configure", "load_game", "run"]
