"""The trade routes module as an engine module: each player's route of trade route cards, dealt
at set-up, where sold goods are laid and earn the bonuses of the spaces of their type."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from .chance import Draws
from .config import GameConfig, Module
from .rules import _CHOICES, EngineModule, _gain_workers, _Turn
from .scoring import Category
from .state import GameState, ModulePart, Step
from .trade import CARD_COUNT, CARDS, CARDS_PER_PLAYER, Bonus, route_spaces
from .words import DrawWords


class TradeRoutesPart(ModulePart):
    """Per seat, the trade route cards in route order, and the goods types laid on the
    route's spaces so far, left to right."""

    name: ClassVar[str] = "trade-routes"
    fields: ClassVar[tuple[str, ...]] = ("routes", "route_goods")
    __slots__ = fields
    routes: tuple[tuple[int, ...], ...]
    route_goods: tuple[tuple[int, ...], ...]

    @classmethod
    def start(cls, config: GameConfig) -> TradeRoutesPart:
        part = cls()
        part.routes = part.route_goods = ((),) * config.players
        return part



def _deal(state: GameState, draws: Draws) -> None:
    """Each player's trade route cards, in seat order."""
    cards = list(range(1, CARD_COUNT + 1))
    dealt = CARDS_PER_PLAYER[state.config.table_players]
    state.changed(TradeRoutesPart.name).routes = tuple(
        tuple(draws.take(cards) for _ in range(dealt)) for _ in range(state.config.players))


def _dealt_text(routes: tuple[tuple[int, ...], ...], names: Sequence[str]) -> str:
    """Each seat's route cards in the order dealt: ``Ann 7 3 4; Bob 6 9 12``."""
    return "; ".join(f"{names[seat]} {' '.join(map(str, cards))}"
                     for seat, cards in enumerate(routes))


_DEALT: Final = DrawWords("routes", "trade route cards dealt", _dealt_text,
                          lambda routes: [list(cards) for cards in routes])


def _dealt(state: GameState) -> tuple[str, tuple[tuple[int, ...], ...]]:
    return _DEALT.field, state.modules["trade-routes"].routes


_ROUTE_STEPS: Final = {Bonus.BUILDING: Step.CARPENTER, Bonus.CASTLE_MINE_KNOWLEDGE: Step.CHURCH,
                Bonus.SHIP_ANIMAL: Step.MARKET, Bonus.ACTION: Step.FREE_ACTION,
                Bonus.PLACE: Step.CITY_HALL, Bonus.SELL: Step.WAREHOUSE}
ROUTE_WORKERS: Final = 4
ROUTE_SILVER: Final = 2
ROUTE_VP: Final = 4


def _lay_on_route(turn: _Turn, goods: int, count: int) -> None:
    """Sold goods tiles go one by one on the route's next empty spaces (trade routes
    module); each on a space of its type gives that space's bonus at once. Bonuses that are
    decisions come after the sale, the leftmost first; one with nothing to choose is lost."""
    seat, p = turn.seat, turn.p
    part = turn.new.modules["trade-routes"]
    spaces = route_spaces(part.routes[seat])
    laid = part.route_goods[seat]
    start = len(laid)
    end = min(len(spaces), start + count)
    if start == end:
        return  # the route is full: sold goods go to the sold pile only
    route_goods = list(part.route_goods)
    route_goods[seat] = laid + (goods,) * (end - start)
    turn.new.changed(TradeRoutesPart.name).route_goods = tuple(route_goods)
    steps = []
    for kind, bonus in spaces[start:end]:
        if kind != goods:
            continue
        if bonus == Bonus.WORKERS:
            _gain_workers(turn, ROUTE_WORKERS)
        elif bonus == Bonus.SILVER:
            p.silver += ROUTE_SILVER
        elif bonus == Bonus.VP:
            p.add_vp(Category.WATCHTOWERS, ROUTE_VP)
        else:
            steps.append(_ROUTE_STEPS[bonus])
    for step in reversed(steps):
        if step == Step.FREE_ACTION or len(_CHOICES[step](turn.new, p, step)) > 1:
            turn.push(step)


def _plays(config: GameConfig) -> bool:
    return Module.TRADE_ROUTES in config.modules


def _seat_visible(state: GameState, seat: int) -> dict[str, object]:
    part = state.modules["trade-routes"]
    return {"route": [{"card": card, "goods": goods, "bonus": bonus.name.lower()}
                      for card in part.routes[seat] for goods, bonus in CARDS[card]],
            "route_goods": list(part.route_goods[seat])}


TRADE_ROUTES: Final = EngineModule(
    name=Module.TRADE_ROUTES.value,
    description="each player's route of trade route cards: sold goods are laid on it, and "
                "earn the bonus of each space of their type",
    plays=_plays,
    summary="sold goods laid on a route of bonuses",
    part=TradeRoutesPart,
    seat_visible=_seat_visible,
    setup=_deal,
    setup_drew=_dealt,
    drawn=_DEALT,
    goods_sold=_lay_on_route,
)
