"""The choices on offer: the legal actions of the player to move, as a small tree of
:class:`Option`. No curses here.

The top of a turn offers the dice, buying and ending the turn; a chosen die offers take /
place / sell / workers; a group leads to its targets. Every leaf is one legal action, shown
with what it costs and gains (found by applying it to the state).

>>> from p2p_burgundy import GameConfig, new_game, resolve_chance
>>> state = new_game(GameConfig(players=2))
>>> while state.chance is not None:
...     state = resolve_chance(state, bytes(32))
>>> prompt, options = build_menu(apply(state, UseDie(0)))
>>> prompt, [o.key + " " + o.label for o in options]
('With your 5: take, place, sell or workers', ['t take a tile from a depot', 'w take workers'])
>>> take = options[0]; take.prompt, [o.label for o in take.children][:2]
('Take which tile?', ['depot 4: Shp (ship)', 'depot 4: Twr (watchtower)'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from p2p_burgundy import (
    END_TURN,
    Action,
    BorrowMonasteries,
    Buy,
    BuyPoints,
    ChooseEstate,
    Discard,
    GameState,
    Pass,
    PayGoods,
    Payment,
    PayTribute,
    PlaceFromDepot,
    PlaceTile,
    SellGoods,
    SetDie,
    TakeFirst,
    TakeGoods,
    TakeShield,
    TakeTile,
    TakeWorkers,
    UseBuilding,
    UseDie,
    apply,
    legal_actions,
)
from p2p_burgundy.actions import BUY_WORKERS, Stow
from p2p_burgundy.estate import caveat
from p2p_burgundy.inns import INN_DEPOT, bought_tile
from p2p_burgundy.rules import StepWords, asks
from p2p_burgundy.shields import SHIELD_WORDS
from p2p_burgundy.state import Step
from p2p_burgundy.tiles import tile_name
from p2p_burgundy.variants import STEP_WORDS as MODULE_STEPS

from .describe import (
    PENDING_WORDS,
    describe_action,
    gains,
    gains_short,
    step_text,
    tribute_words,
)
from .layout import LEFT
from .texts import goods_label, tile_code, tile_label

HOTKEYS = "123456789abdfghjkmnorstwyz"
"""Keys for numbered choices (letters that other keys use are left out)."""

Target = tuple[str, int, int]
"""What a choice points at on screen: ("space", n, 0), ("depot", d, slot),
("goods_depot", d, 0), ("storage", i, 0), ("goods", g, 0), ("die", i, 0) or
("shield", d, n)."""

@dataclass(frozen=True, slots=True)
class Option:
    """One choice on offer: a leaf (``action``) or a group of further choices."""

    key: str
    label: str
    action: Action | None = None
    children: tuple[Option, ...] = ()
    prompt: str = ""  # the question its children answer
    note: str = ""  # cost and gain in words, shown for the choice under the cursor
    tile: int | None = None  # for the tile guide
    target: Target | None = None
    brief: str = ""  # the label in fewer words (tile codes only), when the line is narrow
    short: str = ""  # cost and gain in a few columns, on the choice's line

    def targets(self) -> set[Target]:
        """Its own target and its descendants' (what to highlight for it)."""
        out = {self.target} if self.target else set()
        for child in self.children:
            out |= child.targets()
        return out

    def leaves(self) -> list[Action]:
        """Every action reachable from this choice."""
        if self.action is not None:
            return [self.action]
        return [a for c in self.children for a in c.leaves()]


def _numbered(options: list[Option]) -> list[Option]:
    """Give options without a key the next free hotkey."""
    used = {o.key for o in options if o.key}
    free = iter(k for k in HOTKEYS if k not in used)
    out = []
    for o in options:
        if not o.key:
            o = replace(o, key=next(free, ""))
        out.append(o)
    return out


def _fitting(*texts: str) -> str:
    """The first of ``texts`` that fits the narrowest choices pane (else the last)."""
    return next((t for t in texts if len(t) <= LEFT), texts[-1])


def _leaf(state: GameState, action: Action, label: str, key: str = "",
          tile: int | None = None, target: Target | None = None, brief: str = "") -> Option:
    seat = state.to_move
    assert seat is not None
    after = apply(state, action)
    return Option(key, label, action, note=gains(state, after, seat), tile=tile, target=target,
                  brief=brief, short=gains_short(state, after, seat))


def _tile_leaf(state: GameState, action: Action, where: str, tile: int,
               target: Target) -> Option:
    """A choice of a tile: ``where: Kn5 (knowledge #5)``, briefly ``where: Kn5``."""
    return _leaf(state, action, f"{where}: {tile_label(tile)}", tile=tile, target=target,
                 brief=f"{where}: {tile_code(tile)}")


def _goods_leaf(state: GameState, action: SellGoods) -> Option:
    count = state.players[state.to_move or 0].goods[action.goods]
    return _leaf(state, action, f"sell {count} x {goods_label(action.goods)}",
                 target=("goods", action.goods, 0), brief=f"sell {count} x goods {action.goods}")


def build_menu(state: GameState, actions: Sequence[Action] | None = None
               ) -> tuple[str, list[Option]]:
    """The prompt and the choices for the player to move in ``state``.

    >>> from p2p_burgundy import GameConfig, new_game, resolve_chance
    >>> state = new_game(GameConfig(players=2))
    >>> while state.chance is not None:
    ...     state = resolve_chance(state, bytes(32))
    >>> prompt, options = build_menu(state)
    >>> prompt, [o.label for o in options]
    ('Your turn: use a die (or buy a tile)', ['use die 1: a 5', 'use die 2: a 1'])
    """
    actions = legal_actions(state) if actions is None else actions
    seat = state.to_move
    assert seat is not None, "nobody to move"
    p = state.players[seat]
    step = state.step
    words = MODULE_STEPS.get(step)  # a module's step: the words its module gives it
    if step == Step.TURN or END_TURN in actions:  # a turn, or a module's step that ends one
        options = []
        for a in actions:
            if isinstance(a, UseDie):
                options.append(Option(str(a.die + 1), f"use die {a.die + 1}: a {p.dice[a.die]}",
                                      a, target=("die", a.die, 0)))
        buys = [a for a in actions if isinstance(a, Buy)]
        if buys:
            options.append(Option("b", "buy a tile (once per turn)", children=tuple(_numbered(
                [_buy_leaf(state, a) for a in buys])), prompt="Buy which tile?"))
        if BUY_WORKERS in actions:
            options.append(_leaf(state, BUY_WORKERS, "buy 2 workers for 1 silverling (#28)",
                                 key="w"))
        options += _shield_turn_groups(state, actions)
        if END_TURN in actions:
            options.append(Option("e", "end the turn", END_TURN))
        if any(isinstance(a, UseDie) for a in actions):
            return "Your turn: use a die (or buy a tile)", options
        if words:
            return _module_prompt(state, words), options
        return "Both dice used: buy a tile or end the turn", options
    if step in (Step.DIE, Step.FREE_ACTION) or any(isinstance(a, TakeWorkers) for a in actions):
        # the four actions of a die (a module's step that offers them: with its number)
        if step == Step.DIE:
            die = p.dice[state.pending[-1][1]]
            prompt = f"With your {die}: take, place, sell or workers"
        elif words:
            prompt = _module_prompt(state, words)
        else:
            prompt = "Castle: one more action, any number"
        return prompt, _die_groups(state, actions) + _shield_turn_groups(state, actions)
    if step == Step.CHOOSE_ESTATE:
        return _estate_choice(state, actions)
    if step == Step.DISCARD:
        options = [_tile_leaf(state, a, "discard", p.storage[a.storage],
                              ("storage", a.storage, 0))
                   for a in actions if isinstance(a, Discard)]
        if state.pending[-1][1]:
            return "Shield #4 gone: discard down to 3 tiles", _numbered(options)
        new = tile_code(p.storage[-1])
        return f"Storage full (new: {new}): discard one", _numbered(options)
    if step == Step.SHIP:
        options = []
        for a in actions:
            if isinstance(a, TakeGoods):
                depots = " and ".join(str(d) for d in a.depots)
                kinds = ", ".join(str(g) for g in a.keep)
                options.append(_leaf(state, a, f"depot {depots}: goods {kinds}",
                                     target=("goods_depot", a.depots[0], 0)))
        return "Your ship: take the goods of a depot", _numbered(options)
    base = {Step.WAREHOUSE: "Warehouse: you may sell one goods type",
            Step.CARPENTER: "Carpenter: you may take a building",
            Step.CHURCH: "Church: take a mine, castle or knowledge",
            Step.MARKET: "Market: you may take a ship or an animal",
            Step.CITY_HALL: "City hall: place one more tile, any die"}
    options = []
    places = [a for a in actions if isinstance(a, PlaceTile)]
    if places:
        groups = _place_groups(state, places)
        # a module's step places one tile its prompt names: its spaces are the choices
        options += groups[0].children if words and len(groups) == 1 else groups
    options += _choice_leaves(state, actions)
    options = _numbered(options)
    if any(isinstance(a, Pass) for a in actions):
        options.append(Option("x", words.passing if words else "pass (use nothing)", Pass()))
    return base[step] if words is None else _module_prompt(state, words), options


def _module_prompt(state: GameState, words: StepWords) -> str:
    """A module's step's question: its prompt (in fewer words if that does not fit), else
    what its module says it asks."""
    if not words.prompt:
        asked = asks(state)
        return asked[0].upper() + asked[1:]
    return _fitting(step_text(state, words.prompt), step_text(state, words.brief or words.prompt))


_YOU = ("You",)


def _choice_leaves(state: GameState, actions: Sequence[Action]) -> list[Option]:
    """A choice for each action but placing and passing (which have their own), by its type;
    an action of a type the client does not know is labelled as the log describes it."""
    seat = state.to_move
    assert seat is not None
    p = state.players[seat]
    options = []
    shield_places: dict[tuple[int, int], list[Option]] = {}
    for a in actions:
        if isinstance(a, SellGoods):
            options.append(_goods_leaf(state, a))
        elif isinstance(a, TakeTile):
            where = "black" if a.depot == 0 else f"depot {a.depot}"
            options.append(_tile_leaf(state, a, where, state.depots[a.depot][a.slot],
                                      ("depot", a.depot, a.slot)))
        elif isinstance(a, PayGoods):
            options.append(_leaf(state, a, f"pay 1 x {goods_label(a.goods)} "
                                           f"(of {p.goods[a.goods]})",
                                 target=("goods", a.goods, 0)))
        elif isinstance(a, BuyPoints):
            options.append(_leaf(state, a, f"buy {a.points} VP for {a.points} silver", key="y"))
        elif isinstance(a, TakeFirst):
            options.append(_leaf(state, a, PENDING_WORDS[a.step]))
        elif isinstance(a, UseBuilding):
            options.append(_leaf(state, a, f"as a {tile_name(a.building)}", tile=a.building))
        elif isinstance(a, Stow):
            options.append(_stow_leaf(state, a))
        elif isinstance(a, PayTribute):
            options.append(_leaf(state, a, tribute_words(a)))
        elif isinstance(a, TakeGoods):  # shield #5: every goods tile of one type
            count = sum(state.depot_goods[d][a.keep[0]] for d in a.depots)
            depots = ", ".join(map(str, a.depots))
            options.append(_leaf(state, a, f"{count} x {goods_label(a.keep[0])} "
                                           f"(depot {depots})",
                                 target=("goods_depot", a.depots[0], 0)))
        elif isinstance(a, PlaceFromDepot):
            tile = state.depots[a.depot][a.slot]
            shield_places.setdefault((a.depot, a.slot), []).append(
                _leaf(state, a, state.boards[seat].label(a.space), tile=tile,
                      target=("space", a.space, 0)))
        elif not isinstance(a, PlaceTile | Pass):  # a module's own choice: in its words
            options.append(_leaf(state, a, describe_action(state, a, _YOU * len(state.players))))
    for (depot, slot), spaces in shield_places.items():
        tile = state.depots[depot][slot]
        where = "black depot" if depot == 0 else f"depot {depot}"
        options.append(Option("", f"{where}: {tile_label(tile)}", tile=tile,
                              children=tuple(_numbered(spaces)),
                              target=("depot", depot, slot), brief=f"{where}: {tile_code(tile)}",
                              prompt=_fitting(f"Place {tile_label(tile)} on which space?",
                                              f"Place {tile_code(tile)} on which space?")))
    return options


def _stow_leaf(state: GameState, action: Stow) -> Option:
    """The team game: the tile just taken to the player's own storage or the team's, a full
    one discarding an old tile of its own (marked on the storage line)."""
    seat = state.to_move
    assert seat is not None
    where = "the team's storage" if action.shared else "your storage"
    if action.discard < 0:
        return _leaf(state, action, f"to {where}")
    index = action.discard + (state.private[seat] if action.shared else 0)
    return _tile_leaf(state, action, f"to {where}, discarding", state.players[seat].storage[index],
                      ("storage", index, 0))


def _shield_turn_groups(state: GameState, actions: Sequence[Action]) -> list[Option]:
    """Shield choices on a turn: a shield for a double (or a castle's action with #11),
    shield #16's die and shield #6's player."""
    options = []
    takes = [a for a in actions if isinstance(a, TakeShield)]
    if takes:
        depot = {n: d for d, on in enumerate(state.depot_shields) for n in on}
        leaves = [_leaf(state, a, f"#{a.shield} from depot {depot[a.shield]}: "
                        f"{SHIELD_WORDS[a.shield]}"
                        + (f" (instead of #{a.replace})" if a.replace else ""),
                        target=("shield", depot[a.shield], a.shield),
                        brief=f"#{a.shield} depot {depot[a.shield]}"
                        + (f" for #{a.replace}" if a.replace else ""))
                  for a in takes]
        label = "take a shield instead of both dice" if state.step == Step.TURN \
            else "take a shield (shield #11)"
        options.append(Option("h", label, children=tuple(_numbered(leaves)),
                              prompt="Put which shield on a castle?"))
    dice = [a for a in actions if isinstance(a, SetDie)]
    if dice:
        p = state.players[state.to_move or 0]
        leaves = [_leaf(state, a, f"die {a.die + 1}: the {p.dice[a.die]} becomes a {a.value}")
                  for a in dice]
        options.append(Option("d", "set a die to any number (shield #16)",
                              children=tuple(_numbered(leaves)), prompt="Set which die?"))
    borrows = [a for a in actions if isinstance(a, BorrowMonasteries)]
    if borrows:
        leaves = [_leaf(state, a, f"the player in seat {a.seat + 1}") for a in borrows]
        options.append(Option("m", "choose whose knowledge tiles count as yours (#6)",
                              children=tuple(_numbered(leaves)),
                              prompt="Whose knowledge tiles count for you?"))
    return options


def _estate_choice(state: GameState, actions: Sequence[Action]) -> tuple[str, list[Option]]:
    """Set-up: which side of the board to play, and where the start castle stands."""
    seat = state.to_move
    assert seat is not None
    offers = state.offers[seat]
    options = []
    for a in actions:
        if isinstance(a, ChooseEstate):
            board = state.config.board(offers[a.side])
            note = caveat(board)
            options.append(Option("", f"estate {board.id}, start castle on "
                                      f"{board.label(a.space)}", a, note=note,
                                  short=f"{board.confidence} confidence" if note else "",
                                  brief=f"estate {board.id}: {board.label(a.space)}"))
    return "Set-up: your estate and start castle", _numbered(options)


def _buy_leaf(state: GameState, action: Buy) -> Option:
    tile = bought_tile(state, action)
    where = {0: "black depot", INN_DEPOT: "beside the black depot"}.get(action.depot,
                                                                       f"depot {action.depot}")
    pay = " with 2 workers" if action.payment == Payment.WORKERS else ""
    return _leaf(state, action, f"{where}: {tile_label(tile)}{pay}", tile=tile,
                 target=("depot", action.depot, action.slot),
                 brief=f"{'black' if action.depot == 0 else where}: {tile_code(tile)}{pay}")


def _die_groups(state: GameState, actions: Sequence[Action]) -> list[Option]:
    takes = [_tile_leaf(state, a, f"depot {a.depot}", state.depots[a.depot][a.slot],
                        ("depot", a.depot, a.slot))
             for a in actions if isinstance(a, TakeTile)]
    places = [a for a in actions if isinstance(a, PlaceTile)]
    sells = [_goods_leaf(state, a) for a in actions if isinstance(a, SellGoods)]
    options = []
    if takes:
        options.append(Option("t", "take a tile from a depot", children=tuple(_numbered(takes)),
                              prompt="Take which tile?"))
    if places:
        options.append(Option("p", "place a tile on your estate",
                              children=tuple(_place_groups(state, places)),
                              prompt="Place which tile from storage?"))
    if sells:
        options.append(Option("s", "sell goods", children=tuple(_numbered(sells)),
                              prompt="Sell which goods?"))
    for a in actions:
        if isinstance(a, TakeWorkers):
            options.append(_leaf(state, a, "take workers", key="w"))
    return options


def _place_groups(state: GameState, places: list[PlaceTile]) -> list[Option]:
    seat = state.to_move or 0
    p = state.players[seat]
    board = state.boards[seat]
    groups = []
    for i, tile in enumerate(p.storage):
        spaces = [_leaf(state, a, board.label(a.space), tile=tile,
                        target=("space", a.space, 0))
                  for a in places if a.storage == i]
        if spaces:
            groups.append(Option(str(i + 1), f"{tile_label(tile)} (storage {i + 1})",
                                 children=tuple(_numbered(spaces)), tile=tile,
                                 prompt=_fitting(f"Place {tile_label(tile)} on which space?",
                                                 f"Place {tile_code(tile)} on which space?"),
                                 target=("storage", i, 0), brief=tile_label(tile)))
    return groups


__all__ = ["Option", "Target", "build_menu"]
