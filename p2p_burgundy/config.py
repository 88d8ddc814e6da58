"""Game configuration: player count, edition and each seat's estate.

>>> GameConfig(players=3)
GameConfig(players=3, edition=Edition.E2011, estates=('1', '1', '1'), start_spaces=(18, 18, 18))
>>> GameConfig(players=5)
Traceback (most recent call last):
...
p2p_burgundy.errors.ConfigError: players must be 2, 3 or 4, not 5
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .errors import ConfigError, EstateDataError
from .estate import SPACE_COUNT, Estate, estate
from .tiles import Colour

MIN_PLAYERS, MAX_PLAYERS = 2, 4


class Edition(Enum):
    """Rulebook edition: they differ only in knowledge tiles #6, #15 and #26."""

    E2011 = "2011"
    E2019 = "2019"

    def __repr__(self) -> str:
        return f"Edition.{self.name}"


@dataclass(frozen=True, slots=True)
class GameConfig:
    """What every peer must agree on before the first chance event.

    ``estates`` names each seat's estate (default: everyone on estate 1) and ``start_spaces``
    the dark green space of each seat's start castle (default: the space the board prints).
    """

    players: int
    edition: Edition = Edition.E2011
    estates: tuple[str, ...] = field(default=())
    start_spaces: tuple[int, ...] = field(default=())

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ConfigError(f"players must be 2, 3 or 4, not {self.players!r}")
        if not isinstance(self.edition, Edition):
            raise ConfigError(f"edition must be an Edition, not {self.edition!r}")
        estates = self.estates or ("1",) * self.players
        if len(estates) != self.players:
            raise ConfigError(f"{len(estates)} estates for {self.players} players")
        try:
            boards = [estate(e) for e in estates]
        except EstateDataError as exc:
            raise ConfigError(str(exc)) from None
        starts = self.start_spaces or tuple(_default_start(b) for b in boards)
        if len(starts) != self.players:
            raise ConfigError(f"{len(starts)} start spaces for {self.players} players")
        for seat, (board, space) in enumerate(zip(boards, starts, strict=True)):
            if not (isinstance(space, int) and 0 <= space < SPACE_COUNT):
                raise ConfigError(f"seat {seat}: start space {space!r} is not 0..36")
            if board.colours[space] != Colour.DARK_GREEN:
                raise ConfigError(
                    f"seat {seat}: the start castle must go on a dark green space, "
                    f"not {board.label(space)}"
                )
        object.__setattr__(self, "estates", tuple(estates))
        object.__setattr__(self, "start_spaces", tuple(starts))

    @property
    def boards(self) -> tuple[Estate, ...]:
        """Each seat's :class:`Estate`."""
        return tuple(estate(e) for e in self.estates)

    def to_tree(self) -> list[object]:
        """Canonical encodable form: ``[players, edition, [estate ids], [start spaces]]``."""
        return [self.players, self.edition.value, list(self.estates), list(self.start_spaces)]

    @classmethod
    def from_tree(cls, tree: object) -> GameConfig:
        """Inverse of :meth:`to_tree`; raises ConfigError on anything malformed."""
        if not (isinstance(tree, list | tuple) and len(tree) == 4):
            raise ConfigError("a game config is [players, edition, estates, start spaces]")
        players, edition, estates, starts = tree
        try:
            ed = Edition(edition)
        except ValueError:
            raise ConfigError(f"unknown edition {edition!r}") from None
        if not (isinstance(estates, list | tuple) and all(isinstance(e, str) for e in estates)):
            raise ConfigError("estates must be a list of estate ids")
        if not (isinstance(starts, list | tuple) and all(type(s) is int for s in starts)):
            raise ConfigError("start spaces must be a list of space numbers")
        if type(players) is not int:
            raise ConfigError(f"players must be an integer, not {players!r}")
        return cls(players, ed, tuple(estates), tuple(starts))


def _default_start(board: Estate) -> int:
    if board.start_castle is None:
        raise ConfigError(
            f"estate {board.id} prints no start castle: choose one of its dark green spaces"
        )
    return board.start_castle
