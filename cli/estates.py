"""Estates at the command line: ``burgundy estates`` lists them (with a warning for every
layout that is not well attested), and the options that set up a table, shared by
``burgundy sim``, ``burgundy host``, ``burgundy play`` and ``burgundy bot --host``:

- ``--estate N``: everyone plays estate N (default 1), N as printed in the table's edition's
  box (2019: 1-10 and the border-post duchies 11a-11f; ``burgundy estates --edition 2019``).
  Its printed start castle is used; on an estate that prints none, each player chooses a dark
  green space, openly in turn order.
- ``--setup experts-open`` / ``--setup experts-secret``: the experts' set-up (rulebook, "Those
  who know the game well"): each player is dealt a random board and chooses its side and the
  start castle's space, openly in turn order or secretly at once.
- ``--estate-file FILE``: everyone plays the board described in FILE (a JSON object: see
  docs/engine.md), a board of one's own, shown as "not an official board"; the layout travels
  in the game's configuration, so every peer and ``burgundy verify`` use it.
- ``--with extra-tiles,white-castles,inns,trade-routes,shields`` (or ``--with all``): the 2019
  expansion modules; they belong to the 2019 edition, which ``--with`` picks unless
  ``--edition`` says otherwise.
- ``--teams``: the 2019 team game, 4 players in two teams: seats 0 and 2 (team A, which moves
  first) against seats 1 and 3, on the provisional team board (shown as "provisional: not the
  printed board") or the team board ``--estate-file`` describes.

>>> table_config(2, Edition.E2011, "5", None)
GameConfig(players=2, edition=Edition.E2011, estates=('5', '5'), start_spaces=(-1, -1))
>>> table_config(3, Edition.E2019, None, Setup.EXPERTS_SECRET).setup
Setup.EXPERTS_SECRET
>>> table_config(2, None, None, None, parse_modules("all")).edition
Edition.E2019
>>> table_config(2, Edition.E2019, "10", None).estates  # 2019's duchy 10 is 2011's estate 2
('2', '2')
>>> table_config(4, None, None, None, switches=("team",)).teams
((0, 2), (1, 3))
>>> import io
>>> _ = run(argparse.Namespace(edition="2019", layout=False), out := io.StringIO())
>>> print(out.getvalue().splitlines()[0])
1       Estate No. 1 (basic game; identical in 2011 and 2019 editions as duchy 1)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from p2p_burgundy import ConfigError, Edition, GameConfig, Module, Setup
from p2p_burgundy.config import Switch, parse_modules
from p2p_burgundy.errors import EstateDataError
from p2p_burgundy.estate import (
    CUSTOM,
    PROVISIONAL,
    ROW_LENGTHS,
    SPACE_COUNT,
    Estate,
    all_estates,
    all_team_boards,
    bits,
    by_number,
    caveat,
    parse_estate,
    parse_team_board,
    post_spaces,
)
from p2p_burgundy.net.tablerules import DEFAULT_RULES, TableRules
from p2p_burgundy.tiles import COLOUR_LETTERS, Colour
from p2p_burgundy.variants import ENGINE_MODULES

from .files import read_json

EXPERT_SETUPS = {s.value: s for s in Setup if s is not Setup.STANDARD}
SWITCHES: dict[str, Switch] = {module.name: module.switch for module in ENGINE_MODULES
                               if module.switch is not None}
"""The command-line switch of each mode of play that has one (the team game's ``--teams``), by
its module's name: parsed into ``switches``, the names of those switched on."""


def setup_name(text: str) -> Setup:
    """An argparse type: ``experts-open`` or ``experts-secret``."""
    if text not in EXPERT_SETUPS:
        raise argparse.ArgumentTypeError(
            f"must be one of {', '.join(EXPERT_SETUPS)}, not {text!r}")
    return EXPERT_SETUPS[text]


def modules(text: str) -> tuple[Module, ...]:
    """An argparse type: expansion module names, comma-separated, or ``all``."""
    try:
        return parse_modules(text)
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def estate_file(path: str) -> Estate:
    """An argparse type: a board of one's own from a JSON file, validated: a duchy, or a
    team board (a file with ``halves``)."""
    try:
        item = read_json(Path(path))
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{path}: {exc}") from None
    try:
        if isinstance(item, dict) and "halves" in item:
            return parse_team_board(item)
        return parse_estate(item, official=False)
    except EstateDataError as exc:
        raise argparse.ArgumentTypeError(f"{path}: {exc}") from None


def add_setup_arguments(parser: argparse.ArgumentParser) -> None:
    """``--estate N`` or ``--setup experts-open|experts-secret`` (not both), and ``--with``."""
    parser.add_argument("--with", dest="modules", type=modules, default=(), metavar="MODULES",
                        help="2019 expansion modules, comma-separated: "
                             f"{', '.join(m.value for m in Module)}, or all "
                             "(implies --edition 2019)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--estate", default=None, metavar="N",
                       help="everyone plays estate N, as numbered in the edition's box "
                            "(default 1; see `burgundy estates --edition YEAR`)")
    group.add_argument("--estate-file", dest="board", type=estate_file, default=None,
                       metavar="FILE",
                       help="everyone plays the board described in FILE (JSON; a board of "
                            "one's own, not an official one; with --teams, a team board)")
    add_switches(parser)
    group.add_argument("--setup", type=setup_name, default=None, metavar="NAME",
                       help="the experts' set-up: each player is dealt a random board and "
                            "chooses its side and start castle, experts-open (in turn order) "
                            "or experts-secret (all at once)")


def add_switches(parser: argparse.ArgumentParser, play: bool = False) -> None:
    """Each mode of play's own switch (:data:`SWITCHES`), with its help among a table's
    options, or (``play``) among those of a game against bots."""
    for name, switch in SWITCHES.items():
        parser.add_argument(switch.flag, dest="switches", action="append_const", const=name,
                            default=[], help=switch.play_help if play else switch.help)


def table_config(players: int, edition: Edition | None, estate: str | None,
                 setup: Setup | None, modules: tuple[Module, ...] = (),
                 board: Estate | None = None, switches: Sequence[str] = ()) -> GameConfig:
    """The config of a table where everyone plays ``estate`` (default 1) or a ``board`` of
    one's own, or with an experts' ``setup``, with the expansion ``modules``; with the modes
    of play ``switches`` names (:data:`SWITCHES`: ``("team",)``, the team game on ``board`` or
    the provisional team board). No ``edition``: 2019 with modules, a mode of play's switch
    or the solo game, else 2011. ConfigError (a ValueError) if the combination cannot be
    played."""
    switched = [SWITCHES[name] for name in switches]
    if edition is None:  # the modules, border posts, the solo and team games are 2019's
        edition = Edition.E2019 if modules or estate in _BORDER_NUMBERS or players == 1 \
            or switched else Edition.E2011
    settings: dict[str, Any] = {key: value for switch in switched
                                for key, value in switch.settings}
    for switch in switched:
        if switch.own_board and (estate is not None or setup is not None):
            raise ConfigError(f"argument {switch.flag}: {switch.own_board}")
    if setup is not None and setup is not Setup.STANDARD:
        return GameConfig(players=players, edition=edition, setup=setup, modules=modules,
                          **settings)
    if board is not None:
        return GameConfig(players=players, edition=edition, estates=(board.id,) * players,
                          modules=modules, custom=(board,), **settings)
    estates = () if estate is None else (estate_in_box(edition, estate),) * players
    return GameConfig(players=players, edition=edition, estates=estates, modules=modules,
                      **settings)


_BORDER_NUMBERS = frozenset(b.number("2019") for b in all_estates().values() if b.border_posts)


def estate_in_box(edition: Edition, number: str) -> str:
    """The id of the estate printed ``number`` in ``edition``'s box (or, failing that, an
    estate id of that box, e.g. ``2019-2``); ConfigError naming the numbers if none."""
    try:
        return by_number(edition.value, number).id
    except EstateDataError as exc:
        board = all_estates().get(number)
        if board is not None and edition.value in board.editions:
            return board.id
        if board is not None or any(b.number("2019") == number for b in all_estates().values()):
            raise ConfigError(f"argument --estate: no estate {number!r} in the "
                              f"{edition.value} box; it is in the 2019 box: play it with "
                              "--edition 2019") from None
        raise ConfigError(f"argument --estate: {exc}") from None


def table_extras(config: GameConfig, rules: TableRules = DEFAULT_RULES) -> str:
    """What a table plays beyond the base game on estate 1, and its ``rules``, in one line
    ("" if nothing).

    >>> table_extras(GameConfig(2, Edition.E2019, estates=("11a", "11a"), modules=(Module.INNS,)))
    'With inns; estates 11a (border posts: medium-low confidence)'
    >>> table_extras(GameConfig(4, Edition.E2019, teams=((0, 2), (1, 3))))
    'The team game (seats 1+3 against 2+4) on team-provisional (provisional: not the printed \
board)'
    >>> from p2p_burgundy.net.clock import TimeControl
    >>> table_extras(GameConfig(2), TableRules(hints=True, clock=TimeControl(600, 5)))
    'Hints from a bot allowed; a clock of 10 min each + 5 s a turn'
    """
    parts = []
    if config.teams:
        board = config.boards[0]
        kind = {PROVISIONAL: " (provisional: not the printed board)",
                CUSTOM: " (not an official board)"}.get(board.confidence, "")
        parts.append(f"the team game (seats 1+3 against 2+4) on {board.id}{kind}")
    if config.modules:
        parts.append("with " + ", ".join(m.value for m in config.modules))
    if config.experts:
        parts.append(f"the {config.setup.value} set-up")
    elif set(config.estates) != {"1"} and not config.teams:
        names = []
        for ident in dict.fromkeys(config.estates):
            board = config.board(ident)
            kind = (" (not an official board)" if board in config.custom
                    else " (border posts: medium-low confidence)" if board.border_posts else "")
            names.append(f"{ident}{kind}")
        parts.append("estates " + ", ".join(names))
    if rules.hints:
        parts.append("hints from a bot allowed")
    if rules.clock is not None:
        clock = rules.clock
        parts.append(f"a clock of {clock.seconds / 60:g} min each + {clock.increment} s a turn")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:]


def check_table(args: argparse.Namespace) -> str | None:
    """The reason a command line's table options (``--players``, ``--edition``, ``--estate``,
    ``--setup``, ``--with``, ``--teams``) cannot make a game, or None."""
    try:
        table_config(getattr(args, "players", 2), args.edition, args.estate, args.setup,
                     args.modules, args.board, args.switches)
    except ConfigError as exc:
        return str(exc)
    return None


def describe(board: Estate, layout: bool = False, edition: str | None = None) -> list[str]:
    """Lines about one estate: its number in ``edition``'s box (else its id) and name,
    numbers by edition, start castle, cities, border posts; the layout rows if asked; and
    its caveat when its confidence is not high or a note applies. A team board: its castle,
    storage and the joins of its halves, and each half's layout."""
    if board.team:
        joins = "; ".join(f"{board.label(a)} to {board.label(b)}" for a, b in board.joins)
        lines = [f"{board.id:<7} {board.name}",
                 f"        team board (the team game, 2019); castle on "
                 f"{board.label(board.start_castle or 0)}; storage: "
                 f"{board.shared_storage} shared, {board.private_storage} per player; "
                 f"halves joined at {joins}"]
    else:
        cities = sorted(r.size for r in board.regions if r.colour == Colour.BEIGE)
        start = (board.label(board.start_castle) if board.start_castle is not None
                 else "none printed (players choose a dark green space)")
        numbers = ", ".join(f"no. {n} in {e}" for e, n in zip(board.editions, board.numbers,
                                                                strict=True))
        posts = "; border posts at " + ", ".join(
            "/".join(board.label(s).split()[0] for s in bits(post))
            for post in board.border_posts) if board.border_posts else ""
        head = board.number(edition) if edition else board.id
        lines = [f"{head:<7} {board.name}",
                 f"        {numbers} (id {board.id}); {board.confidence} confidence; "
                 f"start castle {start}; cities of {', '.join(map(str, cities))} "
                 f"spaces{posts}"]
    if layout:
        post_mask = post_spaces(board)
        for half in range(board.halves):
            if board.team:
                lines.append(f"        half {half + 1}:")
            for row, length in enumerate(ROW_LENGTHS):
                first = half * SPACE_COUNT + sum(ROW_LENGTHS[:row])
                # each space after a space, or after "P" where a border post touches it
                cells = "".join(f"{'P' if post_mask >> s & 1 else ' '}"
                                f"{COLOUR_LETTERS[board.colours[s]]}{board.dice[s]}"
                                for s in range(first, first + length))
                lines.append(" " * (7 + 3 * (7 - length) // 2) + cells)
        if post_mask:
            lines.append("        P: a border post on the outer edge by that space "
                         "(positions: medium-low confidence)")
    warning = caveat(board)
    if warning:
        lines.append(f"        note: {warning}")
    return lines


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--edition", choices=[e.value for e in Edition], default=None,
                        help="only the estates in this edition's box")
    parser.add_argument("--layout", action="store_true",
                        help="also print each layout (colour letter and die per space: "
                             "B building, A animal, S ship, C castle, M mine, K knowledge)")


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """``burgundy estates``: every shipped estate (and the team boards), with its caveat
    where not well attested."""
    out = sys.stdout if out is None else out
    boards = [b for b in all_estates().values()
              if args.edition is None or args.edition in b.editions]
    if args.edition is not None:  # in the order of the box's numbers: 1, 2, ... 10, 11a ...
        boards.sort(key=lambda b: (len(b.number(args.edition).rstrip("abcdef")),
                                   b.number(args.edition)))
    if args.edition in (None, "2019"):  # the team game is the 2019 box's
        boards += all_team_boards().values()
    for board in boards:
        out.write("\n".join(describe(board, args.layout, args.edition)) + "\n")
    return 0
