"""Estates at the command line: ``burgundy estates`` lists them (with a warning for every
layout that is not well attested), and the options that set up a table, shared by
``burgundy sim``, ``burgundy host``, ``burgundy play`` and ``burgundy bot --host``:

- ``--estate N``: everyone plays estate N (default 1). Its printed start castle is used; on an
  estate that prints none, each player chooses a dark green space, openly in turn order.
- ``--setup experts-open`` / ``--setup experts-secret``: the experts' set-up (rulebook, "Those
  who know the game well"): each player is dealt a random board and chooses its side and the
  start castle's space, openly in turn order or secretly at once.
- ``--with extra-tiles,white-castles,inns`` (or ``--with all``): the 2019 expansion modules;
  they belong to the 2019 edition, which ``--with`` picks unless ``--edition`` says otherwise.

>>> table_config(2, Edition.E2011, "5", None)
GameConfig(players=2, edition=Edition.E2011, estates=('5', '5'), start_spaces=(-1, -1))
>>> table_config(3, Edition.E2019, None, Setup.EXPERTS_SECRET).setup
Setup.EXPERTS_SECRET
>>> table_config(2, None, None, None, parse_modules("all")).edition
Edition.E2019
>>> import io
>>> _ = run(argparse.Namespace(edition="2019", layout=False), out := io.StringIO())
>>> print(out.getvalue().splitlines()[0])
1       Estate No. 1 (basic game; identical in 2011 and 2019 editions as duchy 1)
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from p2p_burgundy import ConfigError, Edition, GameConfig, Module, Setup
from p2p_burgundy.config import parse_modules
from p2p_burgundy.estate import ROW_LENGTHS, Estate, all_estates, caveat
from p2p_burgundy.tiles import COLOUR_LETTERS, Colour

EXPERT_SETUPS = {s.value: s for s in Setup if s is not Setup.STANDARD}


def estate_id(text: str) -> str:
    """An argparse type: the id of a shipped estate."""
    if text not in all_estates():
        raise argparse.ArgumentTypeError(
            f"no estate {text!r}; known: {', '.join(all_estates())}")
    return text


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


def add_setup_arguments(parser: argparse.ArgumentParser) -> None:
    """``--estate N`` or ``--setup experts-open|experts-secret`` (not both), and ``--with``."""
    parser.add_argument("--with", dest="modules", type=modules, default=(), metavar="MODULES",
                        help="2019 expansion modules, comma-separated: "
                             f"{', '.join(m.value for m in Module)}, or all "
                             "(implies --edition 2019)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--estate", type=estate_id, default=None, metavar="N",
                       help="everyone plays estate N (default 1; see `burgundy estates`)")
    group.add_argument("--setup", type=setup_name, default=None, metavar="NAME",
                       help="the experts' set-up: each player is dealt a random board and "
                            "chooses its side and start castle, experts-open (in turn order) "
                            "or experts-secret (all at once)")


def table_config(players: int, edition: Edition | None, estate: str | None,
                 setup: Setup | None, modules: tuple[Module, ...] = ()) -> GameConfig:
    """The config of a table where everyone plays ``estate`` (default 1), or with an
    experts' ``setup``, with the expansion ``modules``. No ``edition``: 2019 with modules,
    else 2011. ConfigError (a ValueError) if the combination cannot be played."""
    if edition is None:
        edition = Edition.E2019 if modules else Edition.E2011
    if setup is not None and setup is not Setup.STANDARD:
        return GameConfig(players=players, edition=edition, setup=setup, modules=modules)
    return GameConfig(players=players, edition=edition, estates=(estate or "1",) * players,
                      modules=modules)


def check_table(args: argparse.Namespace) -> str | None:
    """The reason a command line's table options (``--players``, ``--edition``, ``--estate``,
    ``--setup``, ``--with``) cannot make a game, or None."""
    try:
        table_config(getattr(args, "players", 2), args.edition, args.estate, args.setup,
                     args.modules)
    except ConfigError as exc:
        return str(exc)
    return None


def describe(board: Estate, layout: bool = False) -> list[str]:
    """Lines about one estate: id and name, editions, start castle, cities; the layout rows
    if asked; and its caveat when its confidence is not high."""
    cities = sorted(r.size for r in board.regions if r.colour == Colour.BEIGE)
    start = (board.label(board.start_castle) if board.start_castle is not None
             else "none printed (players choose a dark green space)")
    lines = [f"{board.id:<7} {board.name}",
             f"        editions {', '.join(board.editions)}; {board.confidence} confidence; "
             f"start castle {start}; cities of {', '.join(map(str, cities))} spaces"]
    if layout:
        for row, length in enumerate(ROW_LENGTHS):
            first = sum(ROW_LENGTHS[:row])
            cells = " ".join(f"{COLOUR_LETTERS[board.colours[s]]}{board.dice[s]}"
                             for s in range(first, first + length))
            lines.append(" " * (8 + 3 * (7 - length) // 2) + cells)
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
    """``burgundy estates``: every shipped estate, with its caveat where not well attested."""
    out = sys.stdout if out is None else out
    for board in all_estates().values():
        if args.edition is None or args.edition in board.editions:
            out.write("\n".join(describe(board, args.layout)) + "\n")
    return 0
