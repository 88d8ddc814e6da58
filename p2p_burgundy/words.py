"""The words of a module's own action types: what a client shows for a choice only a module
offers, and how its log tells it, declared by the module (as :class:`~p2p_burgundy.rules.
StepWords` are for its steps) and written in the client's look through a :class:`Wording`;
the place to buy from a module adds (:class:`DepotWords`) and what it draws at set-up, as an
audit writes it (:class:`DrawWords`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .actions import Action
from .state import GameState

Target = tuple[str, int, int]
"""What a choice is about on the table: ``("space", n, 0)`` a space of the mover's duchy,
``("depot", d, slot)`` a depot's tile, ``("goods_depot", d, 0)`` a depot's goods,
``("storage", i, 0)`` a storage space, ``("goods", g, 0)`` a goods type of the mover's,
``("die", i, 0)`` a die, ``("shield", d, n)`` shield n on depot d."""


class Wording(Protocol):
    """How a client writes what a module's words name."""

    how: str
    """How the action is done, as the end of its sentence (" with a 5", " with the castle's
    extra action"; "" where who acts says it: "Ann's crane")."""

    def tile(self, tile: int) -> str:
        """A tile by its code and name."""

    def tile_code(self, tile: int) -> str:
        """A tile in a few characters."""

    def goods(self, goods: int) -> str:
        """A goods type."""

    def name(self, seat: int) -> str:
        """A seat's player."""

    def pending(self, step: int) -> str:
        """A pending step, as a choice of which comes first names it."""

    def plural(self, count: int, word: str) -> str:
        """``count`` of ``word``, as a number and a word."""


Words = Callable[[GameState, Any, Wording], str]
"""Words for an action of the module's type, chosen by the player to move in the state."""


@dataclass(frozen=True, slots=True)
class ActionWords:
    """An action type only a module's rows take, and the words a client shows for it.

    ``label`` is its choice in a menu (``brief``, where given: the same in fewer words for a
    narrow pane; ``key``: a key of its own). ``sentence`` is what the log says the player did,
    after who did it ("bought 2 workers for 1 silverling"); with ``gains`` the client ends it
    with what it gained ("(+2 workers)") and names who acts as the step's actor where the step
    has one ("Ann's crane"), else it ends the sentence there. ``tile`` is the tile a choice
    is about (the tile guide's), ``target`` what it points at on the table. ``group``: the
    key, label and prompt of one menu entry that gathers its choices, in the state they are
    offered in (the shields' "take a shield instead of both dice"); ``place``: its choices
    put a tile on a space, gathered by the tile they put, ``(where, tile, target)``: where it
    lies in words ("depot 3"), the tile and what it is on the table (its choices' own
    ``label`` and ``target`` are each one's space).
    """

    action: type[Action]
    label: Words
    sentence: Words
    brief: Words | None = None
    key: str = ""
    gains: bool = False
    tile: Callable[[GameState, Any], int | None] | None = None
    target: Callable[[GameState, Any], Target | None] | None = None
    group: Callable[[GameState], tuple[str, str, str]] | None = None
    place: Callable[[GameState, Any], tuple[str, int, Target]] | None = None


@dataclass(frozen=True, slots=True)
class DepotWords:
    """A place to buy from that a module adds beside the depots (``Buy(depot, slot)``): its
    number in a ``Buy``, where it lies as a purchase names it ("beside the black depot") and
    the tile it sells (all of them alike)."""

    depot: int
    where: str
    tile: int


@dataclass(frozen=True, slots=True)
class DrawWords:
    """What a module draws at set-up, as the audit writes it: the field of
    :class:`~p2p_burgundy.chance.SetupDraw` it fills (``field``, as its ``setup_drew`` names
    it), what that is in words (``what``: "shields on the depots"), and its value written for
    the players (``text(value, names)``) and as JSON (``json(value)``)."""

    field: str
    what: str
    text: Callable[[Any, Sequence[str]], str]
    json: Callable[[Any], object]
