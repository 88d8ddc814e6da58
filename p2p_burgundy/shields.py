"""The shields (2019 module ``shields``): the 18 shields, loaded and checked from
``data/shields.json``.

A shield lies on a numbered depot from set-up until someone takes it (on a double, instead of
both die actions) and puts it on a castle of their estate; from then on its ability works for
its holder, who pays it a tribute at each phase end and scores its VP at the end of the game.
A player's shields are a bit set (bit ``n`` for shield ``n``), as knowledge tiles are.

>>> Shield(17).name, SHIELD_VP[17], SHIELD_WORDS[17]
('BIGGER_AREAS', 4, 'an area you complete scores as one size bigger')
>>> SHIELDS_PER_DEPOT[3]
(1, 2, 1, 2, 1, 2)
>>> shield_numbers(1 << 4 | 1 << 16)
(4, 16)
"""

from __future__ import annotations

import json
from enum import IntEnum
from importlib import resources

from .errors import EngineError

SHIELD_COUNT = 18
ALL_SHIELDS = sum(1 << n for n in range(1, SHIELD_COUNT + 1))
"""Every shield as a bit set."""


class Shield(IntEnum):
    """Each shield by its number and what it does while its holder keeps it."""

    PASTURES = 1  # all pastures count as one when animals score (+12 VP)
    WORKERS = 2  # another player gains workers: the holder gains 1 (+12)
    TRIBUTE_WORKERS = 3  # tribute may be paid with workers too (+12)
    STORAGE = 4  # storage without limit (+12)
    GOODS = 5  # a ship also takes every goods tile of one type from all depots (+12)
    MONASTERIES = 6  # a chosen player's knowledge tiles count as the holder's (+12)
    BONUS_TILES = 7  # bonus tiles score double (+8)
    MINES = 8  # mines pay double at phase end (+8)
    SALE_SILVER = 9  # 1 silverling per goods tile sold (+8)
    MONASTERY_VP = 10  # knowledge tiles' end-game VP count twice (+8)
    CASTLE_SHIELD = 11  # a castle's extra action may take a shield (+8)
    SALE_VP = 12  # sold goods score double VP (+8)
    SHIELD_VP = 13  # shields' end-game VP count twice (+4)
    DEPOT_TILE = 14  # at phase end, place a numbered depot's tile (+4)
    BLACK_TILE = 15  # at phase end, place a black depot's tile (+4)
    ANY_DIE = 16  # once a turn, set a die to any number (+4)
    BIGGER_AREAS = 17  # a completed area scores one size bigger (+4)
    ANYWHERE = 18  # tiles go on any empty space, not only next to a tile (+4)


def _load() -> tuple[tuple[int, ...], tuple[str, ...], dict[int, tuple[int, ...]]]:
    tree = json.loads(resources.files("p2p_burgundy").joinpath(
        "data/shields.json").read_text("utf-8"))
    vp, words = [0], [""]  # index 0 unused: shields are 1..18
    for number, item in enumerate(tree["shields"], 1):
        ability = str(item["ability"]).upper().replace("-", "_")
        if item["shield"] != number or Shield(number).name != ability \
                or type(item["vp"]) is not int or not item["words"]:
            raise EngineError(f"shield data: shield {number} is malformed")
        vp.append(item["vp"])
        words.append(str(item["words"]))
    if len(vp) != SHIELD_COUNT + 1:
        raise EngineError(f"shield data: {len(vp) - 1} shields, needs {SHIELD_COUNT}")
    per_depot = {int(n): tuple(int(k) for k in counts)
                 for n, counts in tree["per_depot"].items()}
    if sorted(per_depot) != [2, 3, 4] or any(
            len(c) != 6 or sum(c) > SHIELD_COUNT for c in per_depot.values()):
        raise EngineError("shield data: per_depot needs six counts for 2, 3 and 4 players")
    return tuple(vp), tuple(words), per_depot


SHIELD_VP, SHIELD_WORDS, SHIELDS_PER_DEPOT = _load()
"""Each shield's end-game VP and its ability in a few words, by number 1..18; and how many
shields lie on each numbered depot 1..6 at set-up, by player count."""


def shield_numbers(shields: int) -> tuple[int, ...]:
    """The shield numbers of a bit set, smallest first."""
    return tuple(n for n in range(1, SHIELD_COUNT + 1) if shields >> n & 1)


def shields_text(shields: tuple[tuple[int, ...], ...]) -> str:
    """The shields on depots 1..6, e.g. ``1: #4; 2: #1, #8``.

    >>> shields_text(((4,), (1, 8)))
    '1: #4; 2: #1, #8'
    """
    return "; ".join(f"{d}: " + ", ".join(f"#{n}" for n in on)
                     for d, on in enumerate(shields, 1) if on)
