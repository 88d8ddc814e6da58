"""Words on the screen: tile codes, what every tile does, and the help pages.

All descriptions are written for this project in our own words (never copied from a rulebook).
Tiles are shown by short codes so that colour is never the only cue:

>>> from p2p_burgundy.tiles import Tile
>>> [tile_code(t) for t in (Tile.KNOWLEDGE_12, Tile.SHIP, Tile.COW_3, Tile.CITY_HALL)]
['Kn12', 'Shp', 'Cw3', 'Hal']
>>> info_for_tile(Tile.SHIP).title
'Ship (Shp, blue)'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2p_burgundy import GameConfig
from p2p_burgundy.shields import SHIELD_COUNT, SHIELD_RULE, SHIELD_VP, SHIELD_WORDS
from p2p_burgundy.tiles import (
    ANIMAL_COUNT,
    ANIMAL_TYPE,
    COLOUR_NAMES,
    FACE_DOWN,
    GOODS_NAMES,
    KNOWLEDGE_BUILDING_SCORED,
    KNOWLEDGE_NUMBER,
    TILE_COLOUR,
    Animal,
    Building,
    Colour,
    Tile,
    tile_name,
)
from p2p_burgundy.variants import modules_of

BUILDING_CODES: dict[Building, str] = {
    Building.WAREHOUSE: "Wrh",
    Building.CARPENTERS_WORKSHOP: "Crp",
    Building.CHURCH: "Chu",
    Building.MARKET: "Mkt",
    Building.BOARDING_HOUSE: "Bdh",
    Building.BANK: "Bnk",
    Building.CITY_HALL: "Hal",
    Building.WATCHTOWER: "Twr",
}
ANIMAL_CODES: dict[Animal, str] = {
    Animal.COW: "Cw",
    Animal.SHEEP: "Sh",
    Animal.PIG: "Pg",
    Animal.CHICKEN: "Ck",
    Animal.GOOSE: "Gs",
}
OTHER_CODES = {Tile.SHIP: "Shp", Tile.CASTLE: "Cas", Tile.MINE: "Min", Tile.CRANE: "Crn",
               Tile.WHITE_CASTLE: "WCa", Tile.INN: "Inn"}


def tile_code(tile: int) -> str:
    """A code of at most 4 characters for a tile (a lower-case letter marks a placed tile;
    ``Blk``: a tile face down, the solo game's exchange).

    >>> tile_code(0), tile_code(Tile.PIG_4), tile_code(Tile.KNOWLEDGE_7), tile_code(Tile.MINE)
    ('Wrh', 'Pg4', 'Kn7', 'Min')
    >>> tile_code(FACE_DOWN + Tile.MINE)
    'Blk'
    """
    if tile >= FACE_DOWN:
        return "Blk"
    colour = TILE_COLOUR[tile]
    if colour == Colour.BEIGE and tile in BUILDING_CODES:
        return BUILDING_CODES[Building(tile)]
    if colour == Colour.LIGHT_GREEN:
        return f"{ANIMAL_CODES[Animal(ANIMAL_TYPE[tile])]}{ANIMAL_COUNT[tile]}"
    if colour == Colour.YELLOW:
        return f"Kn{KNOWLEDGE_NUMBER[tile]}"
    return OTHER_CODES[Tile(tile)]


def tile_code2(tile: int) -> str:
    """A code of 2 characters for a tile placed on a team board (74 spaces in a pane made
    for 37), in lower case so it never reads as an empty space's colour and die: ``wr`` a
    warehouse, ``p4`` 4 pigs (``h`` for hens), ``k7`` knowledge #7 (``12`` for #12), ``sh`` a
    ship.

    >>> [tile_code2(t) for t in (0, Tile.PIG_4, Tile.KNOWLEDGE_7, Tile.KNOWLEDGE_12, Tile.SHIP)]
    ['wr', 'p4', 'k7', '12', 'sh']
    """
    if tile >= FACE_DOWN:
        return "bk"
    colour = TILE_COLOUR[tile]
    if colour == Colour.LIGHT_GREEN:
        return f"{'csphg'[ANIMAL_TYPE[tile]]}{ANIMAL_COUNT[tile]}"  # h: hens
    if colour == Colour.YELLOW:
        number = KNOWLEDGE_NUMBER[tile]
        return f"k{number}" if number < 10 else str(number)
    if tile == Tile.CARPENTERS_WORKSHOP:
        return "cp"
    return tile_code(tile)[:2].lower()


def tile_label(tile: int) -> str:
    """Code and name: how menus and the log name a tile.

    >>> tile_label(Tile.SHEEP_2)
    'Sh2 (2 sheep)'
    """
    return f"{tile_code(tile)} ({tile_name(tile)})"


NAME_WIDTH = 10
"""Columns a player's name takes wherever the screen has a fixed place for it."""


def short_name(name: str) -> str:
    """A name in at most :data:`NAME_WIDTH` columns, the same everywhere: longer names keep
    their first nine characters and a full stop.

    >>> short_name("Ann"), short_name("Tess Longname")
    ('Ann', 'Tess Long.')
    """
    return name if len(name) <= NAME_WIDTH else name[:NAME_WIDTH - 1] + "."


def seat_name(names: Sequence[str], seat: int) -> str:
    """A player's seat (``P1``..``P4``) and short name: two players of one name (two
    default bots) are told apart everywhere a name is shown.

    >>> seat_name(["Bot", "Bot"], 1)
    'P2 Bot'
    """
    return f"P{seat + 1} {short_name(names[seat])}"


def goods_label(goods: int) -> str:
    """A goods type as players read it: its die number and colour.

    >>> goods_label(2)
    'goods 2 (violet)'
    """
    return f"goods {goods} ({GOODS_NAMES[goods]})"


@dataclass(frozen=True, slots=True)
class Info:
    """One entry of the tile guide: a title and a few short lines."""

    title: str
    lines: tuple[str, ...]


BUILDING_TEXT: dict[Building, tuple[str, ...]] = {
    Building.WAREHOUSE: (
        "Once built, you may at once sell all goods of one type you hold,",
        "with no die needed (same income and points as a normal sale).",
    ),
    Building.CARPENTERS_WORKSHOP: (
        "Once built, you may take any one building from a numbered depot",
        "into your storage (never from the black depot).",
    ),
    Building.CHURCH: (
        "Once built, you may take one mine, castle or knowledge tile from",
        "a numbered depot into your storage (not the black depot).",
    ),
    Building.MARKET: (
        "Once built, you may take one ship or animal tile from a numbered",
        "depot into your storage (not the black depot).",
    ),
    Building.BOARDING_HOUSE: ("Once built, you gain 4 workers.",),
    Building.BANK: ("Once built, you gain 2 silverlings.",),
    Building.CITY_HALL: (
        "Once built, you may place one more tile from storage onto your estate,",
        "whatever its die number; colour and neighbour rules still hold,",
        "and that tile's own effect happens too.",
    ),
    Building.WATCHTOWER: ("Once built, it scores 4 VP at once.",),
}
COMMON_BUILDING_LINE = (
    "A city (group of joined beige spaces) holds each building type at most once."
)

ANIMAL_TEXT: tuple[str, ...] = (
    "Placing it scores its animal count in VP; every tile of the same kind",
    "already in that pasture (joined light green spaces) scores again.",
    "Pastures are counted separately; other animal kinds do not count.",
)

OTHER_TEXT: dict[Tile, tuple[str, ...]] = {
    Tile.SHIP: (
        "Placing a ship: take all goods lying on one depot of your choice (any",
        "depot, whatever the die), up to three goods types in your store, and",
        "move one step up the turn order track (on top of any stack there).",
    ),
    Tile.CASTLE: (
        "Placing a castle gives an extra action at once, as if you had a die",
        "showing any number you like: take, place, sell or take workers.",
    ),
    Tile.MINE: (
        "No effect when placed. At the end of every phase each mine on your",
        "estate pays 1 silverling.",
    ),
    Tile.CRANE: (
        "Expansion (extra tiles), a building from the black depot. Once built,",
        "you may trigger the effect of any one building, even one you lack.",
        "At the end it counts as one more building of the best type for the",
        "knowledge tiles that score buildings (#16-#23, #29).",
    ),
    Tile.GEESE: (
        "Expansion (extra tiles), an animal tile from the black depot. Placed,",
        "it scores 2 VP plus the animals of one other kind in its pasture (the",
        "best); later, every animal tile placed there scores 2 VP more.",
        "For knowledge #24 geese are a kind of their own.",
    ),
    Tile.WHITE_CASTLE: (
        "Expansion (white castles), a building. Once built, you take one action",
        "with the white die's number; workers may change it (the white die",
        "itself stays as rolled).",
    ),
    Tile.INN: (
        "Expansion (inns): one a phase beside the black depot, bought like its",
        "tiles (b, 2 silverlings); inns stay from phase to phase. It goes on a",
        "space of any colour, one inn per area; it has no effect but its area",
        "scores one size bigger (an area of 8 with an inn scores 45).",
    ),
}

KNOWLEDGE_TEXT: dict[int, tuple[str, ...]] = {
    1: ("Your cities may hold the same building type more than once.",),
    2: ("At each phase end, every mine also gives you 1 worker.",),
    3: ("Each sale pays 2 silverlings instead of 1.",),
    4: ("Each sale also gives you 1 worker.",),
    5: ("A ship may take the goods of two neighbouring depots (6 and 1 too).",),
    6: (
        "You may buy from any of the seven depots, still once per turn.",
        "2019 edition: you may also pay 2 workers instead of 2 silverlings.",
    ),
    7: ("When animals score, each scoring animal tile gives 1 VP more.",),
    8: ("Each worker changes a die by up to 2 instead of 1.",),
    9: ("Placing a building: the die counts as 1 higher or lower for free.",),
    10: ("Placing a ship or animal: the die counts as 1 higher or lower for free.",),
    11: ("Placing a castle, mine or knowledge tile: one free step of +/-1.",),
    12: ("Taking a tile from a depot: one free step of +/-1 on the die.",),
    13: ("Taking workers with a die also gives 1 silverling.",),
    14: ("Taking workers with a die gives 4 workers instead of 2.",),
    15: (
        "End of game: VP for every goods type you sold at least once.",
        "2011 edition: 3 VP per type; 2019 edition: 2 VP per type.",
    ),
    24: ("End of game: 4 VP for every kind of animal on your estate.",),
    27: ("Expansion: on the turn order track your piece is always on top of a stack.",),
    28: ("Expansion: on your turn, buy 2 workers for 1 silverling, as often as you pay.",),
    25: ("End of game: 1 VP for every goods tile you sold.",),
    26: (
        "End of game: VP for every bonus tile you won (first or second).",
        "2011 edition: 2 VP per bonus; 2019 edition: 3 VP per bonus.",
    ),
}
for _number, _building in KNOWLEDGE_BUILDING_SCORED.items():
    KNOWLEDGE_TEXT[_number] = (
        f"End of game: 4 VP for each {tile_name(_building)} on your estate.",
    )

KNOWLEDGE_SHORT: dict[int, str] = {
    1: "duplicate buildings", 2: "mines give workers", 3: "sales pay 2", 4: "sales give a worker",
    5: "ship: two depots", 6: "buy anywhere", 7: "+1 per animal tile", 8: "worker = +/-2",
    9: "buildings +/-1", 10: "ships/animals +/-1", 11: "castle/mine/know +/-1",
    12: "taking +/-1", 13: "workers +1 silver", 14: "4 workers", 15: "VP per goods type",
    16: "4/market", 17: "4/watchtower", 18: "4/carpenter", 19: "4/church", 20: "4/warehouse",
    21: "4/boarding house", 22: "4/bank", 23: "4/city hall", 24: "4/animal kind",
    25: "1/goods sold", 26: "VP per bonus", 27: "top of the bridge", 28: "buy workers",
    29: "4/white castle",
}
"""Two or three words per knowledge tile, for the supplies pane."""


def info_for_tile(tile: int) -> Info:
    """The guide entry of any hex tile.

    >>> info_for_tile(Tile.KNOWLEDGE_26).lines[1]
    '2011 edition: 2 VP per bonus; 2019 edition: 3 VP per bonus.'
    """
    if tile in OTHER_TEXT:
        colour_name = "any colour" if tile == Tile.INN else COLOUR_NAMES[TILE_COLOUR[tile]]
        return Info(f"{tile_name(tile).capitalize()} ({tile_code(tile)}, {colour_name})",
                    OTHER_TEXT[Tile(tile)])
    colour = Colour(TILE_COLOUR[tile])
    where = f"{tile_code(tile)}, {COLOUR_NAMES[colour]}"
    if colour == Colour.BEIGE:
        building = Building(tile)
        return Info(f"{tile_name(tile).capitalize()} ({where})",
                    (*BUILDING_TEXT[building], COMMON_BUILDING_LINE))
    if colour == Colour.LIGHT_GREEN:
        kind = Animal(ANIMAL_TYPE[tile]).name.lower()
        return Info(f"{kind.capitalize()} ({ANIMAL_CODES[Animal(ANIMAL_TYPE[tile])]}2-4, "
                    f"{COLOUR_NAMES[colour]})",
                    (f"Shows 2, 3 or 4 {kind}s (the code's number).", *ANIMAL_TEXT))
    if colour == Colour.YELLOW:
        number = KNOWLEDGE_NUMBER[tile]
        return Info(f"Knowledge #{number} ({where})", KNOWLEDGE_TEXT[number])
    raise ValueError(f"no guide entry for tile {tile}")


SHIELD_TEXT: tuple[str, ...] = (
    "Expansion (shields). On a double (workers may make one), instead of both",
    "dice, take a shield from that depot onto one of your castles (or in place",
    "of a shield there, which leaves the game). Its ability works while you",
    "hold it. At each phase end, before the mines pay, keep each shield for 1",
    "silverling (or lose it). At the end it scores its VP if you still hold it.",
)


def info_for_shield(shield: int) -> Info:
    """The guide entry of a shield (shields module).

    >>> info_for_shield(16).title, info_for_shield(16).lines[0]
    ('Shield #16 (4 VP at the end)', 'Once a turn, set one of your dice to any number.')
    """
    words = SHIELD_WORDS[shield]
    return Info(f"Shield #{shield} ({SHIELD_VP[shield]} VP at the end)",
                (f"{words[0].upper()}{words[1:]}.", *SHIELD_TEXT))


def guide() -> list[tuple[str, Info]]:
    """Every guide entry once, in reading order, with its code (a tile's, or a shield's
    number).

    >>> entries = guide()
    >>> len(entries), entries[0], entries[-1][0]
    (66, ('Wrh', Info(title='Warehouse (Wrh, beige)', lines=...)), '#18')
    """
    tiles: list[int] = [int(b) for b in Building]
    tiles += [int(Tile.COW_2) + 3 * a for a in range(4)]
    tiles += [Tile.SHIP, Tile.CASTLE, Tile.MINE]
    tiles += [int(Tile.KNOWLEDGE_1) + n for n in range(29)]  # #27-#29: expansions
    tiles += [Tile.CRANE, Tile.GEESE, Tile.WHITE_CASTLE, Tile.INN]
    entries = [(tile_code(t).rstrip("2") if TILE_COLOUR[t] == Colour.LIGHT_GREEN
                else tile_code(t), info_for_tile(t)) for t in tiles]
    return entries + [(f"#{n}", info_for_shield(n)) for n in range(1, SHIELD_COUNT + 1)]


ESTATE_LEGEND: tuple[str, ...] = (
    "Empty spaces show their colour letter and die number (B3: building space, 3):",
    "  B building (beige)   A animal (light green)   S ship (blue)",
    "  C castle (dark green)   M mine (grey)   K knowledge (yellow)",
    "Covered spaces show the tile: Wrh warehouse, Crp carpenter's workshop,",
    "  Chu church, Mkt market, Bdh boarding house, Bnk bank, Hal city hall,",
    "  Twr watchtower; Cw/Sh/Pg/Ck + count: cows, sheep, pigs, chickens;",
    "  Shp ship, Cas castle, Min mine, Kn12 knowledge tile #12.",
    "[B3] marks a space you may choose now; >B3< is the one under the cursor.",
    "A die in parentheses, (4), is used. Bonus tiles: B 1st = first to fill beige.",
    "Goods are numbered like the dice: "
    + ", ".join(f"{g} {GOODS_NAMES[g]}" for g in range(1, 4)) + ",",
    "  " + ", ".join(f"{g} {GOODS_NAMES[g]}" for g in range(4, 7)) + ".",
)

HELP_PLAY: tuple[str, ...] = (
    "Your turn, in steps: choose a die, then what to do with it, then where.",
    "Only legal choices are offered. Press a choice's key, or move with the",
    "arrow keys and press Enter, or click it. Costs in workers, and what you",
    "gain, are shown next to each choice before you commit.",
    "",
    "  Esc        go back one step (at the first step, give the die back)",
    "  u          undo the last choice of this turn (as often as you like)",
    "  e          end the turn (once both dice are used: one action per die)",
    "  b          buy a tile for 2 silverlings (once per turn)",
    "",
    "Nothing is sent to the other players until you end your turn.",
)

HELP_KEYS: tuple[str, ...] = (
    "  v / F1-F4  look at another player's estate and supplies",
    "  i          tile guide (what every tile does)",
    "  l          the whole game log; PgUp/PgDn scroll the log pane",
    "  c          chat: type a line, Enter sends, Esc cancels",
    "  R          resign        q  quit",
    "  ?          this help",
)

HELP_WAIT: tuple[str, ...] = (
    "It is not your turn: the status line says who the table waits for.",
    "Every move appears in the log pane as it happens; the lines after",
    "'since your last turn' are new to you. When your turn comes, what the others",
    "changed is marked with * (spaces, depots, goods) until you choose something.",
    "On a LAN table, a player not heard from is marked so. Once one has been",
    "gone a while, B offers to let a bot play their seat (every other player",
    "must agree; the lowest seat still playing then makes the bot's moves).",
)

HELP_REPLAY: tuple[str, ...] = (
    "Watching a replay or another table: nothing you press changes the game.",
    "  . or Right  one action on     , or Left  one action back",
    "  > / <       one turn on/back  Home / End  the start / the end",
    "What the last step changed is marked with * on the estates and the board.",
    "  s           the scores (at the end)",
)

HELP_SCORES: tuple[str, ...] = (
    "The game is over. The table lists every player's points by category;",
    "the winner has the most points, then the fewest empty estate spaces,",
    "then came later in the last round's turn order.",
    "  q  quit     l  game log     v  look at the estates",
)


RULE_REMINDERS: dict[str, str] = {
    "turn": "One action per die; a worker turns a die one up or down (6 and 1 meet).",
    "turn_done": "Both dice used: you may still buy a black depot tile for 2 silverlings.",
    "die": "Its number picks the depot, space or goods; taking 2 workers needs none.",
    "take": "Take from the depot with the die's number; the tile waits in storage.",
    "place": "A free space of its colour, next to your tiles, with the die's number.",
    "sell": "Selling gives up all goods of one number: 1 silverling, 2-4 VP per tile.",
    "buy": "One purchase per turn: 2 silverlings for a tile of the black depot.",
    "free": "Your castle gives one more action, as if with a die of any number.",
    "discard": "Storage holds three tiles: choose the one to give up.",
    "ship": "A ship loads all goods of one depot and moves you up the turn order.",
    "building": "The building you placed gives its advantage now, or you may pass.",
    "estate": "Choose your board's side and the dark green space of your start castle.",
    "shield": SHIELD_RULE,
    "wait": "The others play in turn order; looking around changes nothing.",
    "replay": "A replay changes nothing: step by action or by turn, watch the scores.",
    "scores": "Most VP wins; ties: fewer empty spaces, then later in turn order.",
}
"""One line per kind of decision, for the top of the help page (``?``); a module's step has
its module's line (:attr:`~p2p_burgundy.rules.StepWords.reminder`), and so has the end of a game
a module scores its own way (:attr:`~p2p_burgundy.rules.EngineModule.scores_reminder`)."""


def help_for(context: str, config: GameConfig | None = None) -> list[str]:
    """The help page for a screen ("play", "wait", "replay" or "scores"); in a game of
    ``config`` it says first what the modules it plays change, where they say it (the team
    game).

    >>> help_for("scores")[0].startswith("The game is over")
    True
    >>> from p2p_burgundy import Edition
    >>> help_for("play", GameConfig(4, Edition.E2019, teams=((0, 2), (1, 3))))[0]
    'The team game: what differs'
    """
    pages = {"play": HELP_PLAY, "wait": HELP_WAIT, "replay": HELP_REPLAY,
             "scores": HELP_SCORES}
    lines = [line for module in (modules_of(config) if config else ()) if module.help_page
             for line in (*module.help_page, "")]
    lines += pages.get(context, HELP_WAIT)
    if context != "scores":
        lines += ["", *HELP_KEYS]
    return [*lines, "", *ESTATE_LEGEND]
