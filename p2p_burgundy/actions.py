"""Actions: every decision a player makes, as small immutable values.

A turn is a sequence of these ending with :data:`END_TURN`. Worker tiles are never a separate
decision: choosing a target that the die does not show directly pays the fewest workers that
reach it (see :func:`p2p_burgundy.rules.worker_cost`). Depot 0 is the central black depot,
depots 1..6 the numbered ones; with the inns module, ``Buy(7, 0)`` buys the top inn of the
stack beside the black depot.

>>> TakeTile(depot=3, slot=1)
TakeTile(depot=3, slot=1)
>>> action_from_tree(TakeTile(3, 1).to_tree()) == TakeTile(3, 1)
True
>>> action_from_tree([5, 1])
Traceback (most recent call last):
...
p2p_burgundy.errors.IllegalAction: malformed action [5, 1]: TakeWorkers takes no fields
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import IntEnum
from typing import Final

from .board import NEIGHBOUR_DEPOT
from .errors import IllegalAction
from .pickling import by_constructor
from .tiles import Building, Tile

BLACK_DEPOT: Final = 0
DEPOTS: Final = range(1, 7)
MAX_DEPOT_SLOTS: Final = 8  # the black depot has 8 spaces, numbered depots 4


class Payment(IntEnum):
    """How a purchase is paid: 2 silverlings, or 2 workers (2019 edition, knowledge #6)."""

    SILVER = 0
    WORKERS = 1

    def __repr__(self) -> str:
        return f"Payment.{self.name}"


@dataclass(frozen=True, slots=True)
class Action:
    """Base of all actions; each action's number on the wire is its key in
    :data:`ACTION_TYPES`."""

    def __reduce__(self) -> tuple[type[Action], tuple[object, ...]]:
        return by_constructor(self)  # the compiled build: see pickling.py

    def to_tree(self) -> list[object]:
        """Canonical encodable form ``[tag, field...]``."""
        return [_TAGS[type(self)], *(_field_tree(getattr(self, f.name)) for f in fields(self))]


def _field_tree(value: object) -> object:
    # An action's fields are ints, int enums or tuples of ints.
    return list(value) if isinstance(value, tuple) else int(value)  # type: ignore[call-overload]


@dataclass(frozen=True, slots=True)
class UseDie(Action):
    """Choose one of your two dice (0 or 1) for your next action."""

    die: int


@dataclass(frozen=True, slots=True)
class TakeTile(Action):
    """Take the tile in ``slot`` of numbered depot ``depot`` into your storage."""

    depot: int
    slot: int


@dataclass(frozen=True, slots=True)
class PlaceTile(Action):
    """Place the tile in storage ``storage`` (0..2; more with shield #4) on estate space
    ``space`` (0..36)."""

    storage: int
    space: int


@dataclass(frozen=True, slots=True)
class SellGoods(Action):
    """Sell every goods tile of type ``goods`` (1..6) you hold."""

    goods: int


@dataclass(frozen=True, slots=True)
class TakeWorkers(Action):
    """Take worker tiles (2, or 4 with knowledge #14)."""


@dataclass(frozen=True, slots=True)
class Buy(Action):
    """The once-a-turn purchase: tile ``slot`` of depot ``depot`` (0 = black; 7 = the inns
    beside it, slot 0) for 2."""

    depot: int
    slot: int
    payment: Payment = Payment.SILVER


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Storage overflowed: discard the old tile in storage ``storage`` (0..2; any tile when
    shield #4 left and more than three are stored)."""

    storage: int


@dataclass(frozen=True, slots=True)
class TakeGoods(Action):
    """A ship's goods: from ``depots`` (one, or two neighbours with knowledge #5), keeping
    the goods types ``keep`` (every type you can store; a choice only when slots run out)."""

    depots: tuple[int, ...]
    keep: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline a building's optional advantage."""


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End your turn, once both dice are used (a turn is exactly one action per die)."""


@dataclass(frozen=True, slots=True)
class ChooseEstate(Action):
    """Set-up: play side ``side`` of your board (0 or 1; 0 when you were given one estate)
    with your start castle on its dark green space ``space``. A whole turn by itself."""

    side: int
    space: int


@dataclass(frozen=True, slots=True)
class BuyWorkers(Action):
    """Knowledge #28 (extra tiles module): buy 2 workers for 1 silverling, on your turn
    before or between your die actions, as often as you can pay."""


@dataclass(frozen=True, slots=True)
class UseBuilding(Action):
    """The crane (extra tiles module): trigger the effect of the building whose tile number
    is ``building`` (0..7, see :class:`~p2p_burgundy.tiles.Building`; or the white castle)."""

    building: int


@dataclass(frozen=True, slots=True)
class PayGoods(Action):
    """The solo game's ship exchange: give one goods tile of type ``goods`` (1..6), one of the
    five a black depot tile costs."""

    goods: int


@dataclass(frozen=True, slots=True)
class BuyPoints(Action):
    """The solo game: pay ``points`` silverlings to move the victory point counter onto the
    target marker (exactly the points missing)."""

    points: int


@dataclass(frozen=True, slots=True)
class TakeShield(Action):
    """Shields module: take shield ``shield`` (1..18) from its depot and put it on one of
    your castles, on a castle without a shield (``replace`` 0) or instead of your shield
    ``replace`` (which leaves the game). On your turn it takes both dice, which must show
    its depot's number (workers change them as usual); a castle's extra action with shield
    #11 takes any shield."""

    shield: int
    replace: int = 0


@dataclass(frozen=True, slots=True)
class PayTribute(Action):
    """Shields module, at a phase end: keep the shields ``keep`` (their numbers, smallest
    first) at 1 each, ``workers`` of it paid in workers (shield #3), the rest in silverlings;
    the shields not kept leave the game."""

    keep: tuple[int, ...]
    workers: int = 0


@dataclass(frozen=True, slots=True)
class BorrowMonasteries(Action):
    """Shield #6: choose the player ``seat`` whose knowledge tiles count as yours (once, on
    any of your turns after you took the shield)."""

    seat: int


@dataclass(frozen=True, slots=True)
class SetDie(Action):
    """Shield #16: once a turn, turn unused die ``die`` (0 or 1) to ``value`` (1..6)."""

    die: int
    value: int


@dataclass(frozen=True, slots=True)
class PlaceFromDepot(Action):
    """Shields #14 and #15, at a phase end: place the tile in ``slot`` of depot ``depot``
    (1..6 for #14, 0 the black depot for #15) straight on estate space ``space``."""

    depot: int
    slot: int
    space: int


@dataclass(frozen=True, slots=True)
class TakeFirst(Action):
    """The solo game ("you choose the order"): of the steps still pending, take ``step``
    (with its argument ``arg``, as ``GameState.pending`` holds it) first."""
    step: int
    arg: int = 0


@dataclass(frozen=True, slots=True)
class Stow(Action):
    """The team game: put the tile just taken in your own storage (``shared`` 0) or the
    team's (1); where that storage is full, ``discard`` is the old tile of it (its index
    there, 0..) that leaves the game, else -1."""

    shared: int
    discard: int = -1


TAKE_WORKERS: Final = TakeWorkers()
PASS: Final = Pass()
END_TURN: Final = EndTurn()

# The wire's number of each action (a table, not a class attribute: mypyc would make one of
# a dataclass a field).
ACTION_TYPES: Final[dict[int, type[Action]]] = {
    1: UseDie, 2: TakeTile, 3: PlaceTile, 4: SellGoods, 5: TakeWorkers, 6: Buy, 7: Discard,
    8: TakeGoods, 9: Pass, 10: EndTurn, 11: ChooseEstate, 12: BuyWorkers, 13: UseBuilding,
    14: PayGoods, 15: BuyPoints, 16: TakeShield, 17: PayTribute, 18: BorrowMonasteries,
    19: SetDie, 20: PlaceFromDepot, 21: TakeFirst, 22: Stow,
}
_TAGS: Final = {cls: tag for tag, cls in ACTION_TYPES.items()}


def action_from_tree(tree: object) -> Action:
    """Decode :meth:`Action.to_tree` output; raise IllegalAction on anything malformed.

    Field ranges are checked by :func:`p2p_burgundy.rules.apply`; here only the shape.
    """
    if not (isinstance(tree, list | tuple) and tree and type(tree[0]) is int):
        raise IllegalAction(f"malformed action {tree!r}: expected [tag, field...]")
    cls = ACTION_TYPES.get(tree[0])
    if cls is None:
        raise IllegalAction(f"malformed action {tree!r}: unknown tag {tree[0]}")
    names = [f.name for f in fields(cls)]
    args = list(tree[1:])
    if len(args) != len(names):
        if not names:
            raise IllegalAction(f"malformed action {list(tree)!r}: {cls.__name__} takes no fields")
        raise IllegalAction(
            f"malformed action {list(tree)!r}: {cls.__name__} takes {', '.join(names)}"
        )
    values: list[object] = []
    for name, arg in zip(names, args, strict=True):
        if cls is TakeGoods or (cls is PayTribute and name == "keep"):
            if not (isinstance(arg, list | tuple) and all(type(x) is int for x in arg)):
                raise IllegalAction(f"malformed action {list(tree)!r}: {name} must be a list")
            values.append(tuple(arg))
        elif type(arg) is not int:
            raise IllegalAction(f"malformed action {list(tree)!r}: {name} must be an integer")
        elif name == "payment":
            if arg not in (0, 1):
                raise IllegalAction(f"malformed action {list(tree)!r}: unknown payment {arg}")
            values.append(Payment(arg))
        else:
            values.append(arg)
    return cls(*values)


# Interned instances for the hot paths (legal_actions builds lists of these, not new objects).
USE_DIE: Final = (UseDie(0), UseDie(1))
TAKE_TILE: Final = tuple(tuple(TakeTile(d, s) for s in range(MAX_DEPOT_SLOTS)) for d in range(7))
# storage 3: a 4th tile for a moment (the one to discard, or the solo game's colour reward);
# more with shield #4; spaces 37..73: a team board's second half
PLACE_TILE: Final = tuple(tuple(PlaceTile(i, s) for s in range(2 * 37)) for i in range(8))
SELL_GOODS: Final = tuple(SellGoods(g) for g in range(7))
PAY_GOODS: Final = tuple(PayGoods(g) for g in range(7))
DISCARD: Final = tuple(Discard(i) for i in range(8))
BUY: Final = tuple(
    tuple((Buy(d, s, Payment.SILVER), Buy(d, s, Payment.WORKERS)) for s in range(MAX_DEPOT_SLOTS))
    for d in range(8)  # 7: the inns
)
BUY_WORKERS: Final = BuyWorkers()
# TAKE_GOODS[depots][keep]: a ship's choice from ``depots`` (one depot, or two neighbours as
# knowledge #5 allows), with ``keep`` a bit mask of goods types (bit g for type g).
TAKE_GOODS: Final = {
    depots: {keep: TakeGoods(depots, tuple(g for g in DEPOTS if keep >> g & 1))
             for keep in range(0, 1 << 7, 2)}
    for depots in (*((d,) for d in DEPOTS),
                   *(tuple(sorted((d, NEIGHBOUR_DEPOT[d]))) for d in DEPOTS))
}
USE_BUILDING: Final = {b: UseBuilding(b) for b in (*Building, Tile.WHITE_CASTLE)}
