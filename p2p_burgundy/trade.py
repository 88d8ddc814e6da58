"""The trade routes (2019 module ``trade-routes``): the 12 cards, loaded and checked from
``data/trade_routes.json``.

Each player's route is the cards dealt to them, in the order dealt, three spaces a card. A
sold goods tile goes on the next empty space; where its type is the space's, the player
gains the space's bonus at once.

>>> CARDS[1]
((2, <Bonus.BUILDING: 0>), (4, <Bonus.CASTLE_MINE_KNOWLEDGE: 1>), (1, <Bonus.WORKERS: 6>))
>>> CARDS_PER_PLAYER
{2: 5, 3: 4, 4: 3}
"""

from __future__ import annotations

import json
from enum import IntEnum
from importlib import resources
from typing import Final

from .errors import EngineError

SPACES_PER_CARD: Final = 3
CARD_COUNT: Final = 12


class Bonus(IntEnum):
    """What a trade route space gives when a goods tile of its type is laid on it."""

    BUILDING = 0  # take a building from a numbered depot (as the carpenter's workshop)
    CASTLE_MINE_KNOWLEDGE = 1  # take a castle, mine or knowledge tile (as the church)
    SHIP_ANIMAL = 2  # take a ship or animal tile (as the market)
    ACTION = 3  # an extra action with any number (as a castle)
    PLACE = 4  # place a tile from storage, any number (as the city hall)
    SELL = 5  # sell one goods type (as the warehouse)
    WORKERS = 6  # 4 workers
    SILVER = 7  # 2 silverlings
    VP = 8  # 4 victory points (as a watchtower)


_NAMES: Final = {"building": Bonus.BUILDING, "castle-mine-knowledge": Bonus.CASTLE_MINE_KNOWLEDGE,
          "ship-animal": Bonus.SHIP_ANIMAL, "action": Bonus.ACTION, "place": Bonus.PLACE,
          "sell": Bonus.SELL, "4-workers": Bonus.WORKERS, "2-silver": Bonus.SILVER,
          "4-vp": Bonus.VP}
BONUS_SHORT: Final = ("bld", "chu", "mkt", "act", "plc", "sel", "+4w", "+2s", "+4VP")
"""Three or four letters per bonus, for narrow screens."""
BONUS_WORDS: Final = ("take a building", "take a castle, mine or knowledge tile",
               "take a ship or animal", "an extra action, any number",
               "place a tile from storage", "sell one goods type", "+4 workers",
               "+2 silverlings", "+4 VP")


def _load() -> tuple[tuple[tuple[tuple[int, Bonus], ...], ...], dict[int, int]]:
    tree = json.loads(resources.files("p2p_burgundy").joinpath(
        "data/trade_routes.json").read_text("utf-8"))
    cards: list[tuple[tuple[int, Bonus], ...]] = [()]  # index 0 unused: cards are 1..12
    for number, card in enumerate(tree["cards"], 1):
        spaces = tuple((int(goods), _NAMES[bonus]) for goods, bonus in card["spaces"])
        if card["card"] != number or len(spaces) != SPACES_PER_CARD \
                or not all(1 <= goods <= 6 for goods, _ in spaces):
            raise EngineError(f"trade route data: card {number} is malformed")
        cards.append(spaces)
    if len(cards) != CARD_COUNT + 1:
        raise EngineError(f"trade route data: {len(cards) - 1} cards, needs {CARD_COUNT}")
    per_player = {int(n): int(k) for n, k in tree["cards_per_player"].items()}
    return tuple(cards), per_player


CARDS, CARDS_PER_PLAYER = _load()
"""Each card's spaces (goods type, bonus), by card number 1..12; cards dealt per player."""


def route_spaces(cards: tuple[int, ...]) -> tuple[tuple[int, Bonus], ...]:
    """The spaces of a route made of ``cards``, left to right.

    >>> [goods for goods, _ in route_spaces((2, 1))]
    [1, 2, 5, 2, 4, 1]
    """
    return tuple(space for card in cards for space in CARDS[card])
