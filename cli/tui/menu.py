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
    Buy,
    ChooseEstate,
    Discard,
    GameState,
    Pass,
    Payment,
    PlaceTile,
    SellGoods,
    TakeGoods,
    TakeTile,
    TakeWorkers,
    UseDie,
    apply,
    legal_actions,
)
from p2p_burgundy.board import depot_name
from p2p_burgundy.estate import caveat
from p2p_burgundy.rules import StepWords, asks
from p2p_burgundy.state import Step
from p2p_burgundy.variants import ACTION_WORDS, DEPOTS, bought_tile
from p2p_burgundy.variants import STEP_WORDS as MODULE_STEPS
from p2p_burgundy.words import ActionWords, Target

from .describe import Wording, describe_action, gains, gains_short, step_text
from .layout import LEFT
from .texts import goods_label, tile_code, tile_label

HOTKEYS = "123456789abdfghjkmnorstwyz"
"""Keys for numbered choices (letters that other keys use are left out)."""

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
        options += _module_choices(state, actions)
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
        return prompt, _die_groups(state, actions) + _module_choices(state, actions)
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
        options = _numbered(options)
        if any(isinstance(a, Pass) for a in actions):  # no goods lie on any depot
            options.append(Option("x", "pass (no goods left on the depots)", Pass()))
        return "Your ship: take the goods of a depot", options
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
    a module's own action in its module's words (:func:`_module_choices`); an action of a type
    the client does not know is labelled as the log describes it."""
    options = []
    for a in actions:
        if isinstance(a, SellGoods):
            options.append(_goods_leaf(state, a))
        elif isinstance(a, TakeTile):
            where = "black" if a.depot == 0 else f"depot {a.depot}"
            options.append(_tile_leaf(state, a, where, state.depots[a.depot][a.slot],
                                      ("depot", a.depot, a.slot)))
        elif isinstance(a, TakeGoods):  # shield #5: every goods tile of one type
            count = sum(state.depot_goods[d][a.keep[0]] for d in a.depots)
            depots = ", ".join(map(str, a.depots))
            options.append(_leaf(state, a, f"{count} x {goods_label(a.keep[0])} "
                                           f"(depot {depots})",
                                 target=("goods_depot", a.depots[0], 0)))
        elif type(a) not in ACTION_WORDS and not isinstance(a, PlaceTile | Pass):
            options.append(_leaf(state, a, describe_action(state, a, _YOU * len(state.players))))
    return options + _module_choices(state, actions)


def _module_leaf(state: GameState, words: ActionWords, action: Action) -> Option:
    """A module's own action, labelled in its module's words."""
    wording = Wording(_YOU * len(state.players))
    return _leaf(state, action, words.label(state, action, wording), key=words.key,
                 tile=words.tile(state, action) if words.tile else None,
                 target=words.target(state, action) if words.target else None,
                 brief=words.brief(state, action, wording) if words.brief else "")


def _module_choices(state: GameState, actions: Sequence[Action]) -> list[Option]:
    """The modules' own actions among ``actions``, type by type in the registry's order: in
    the group their module gathers them in, by the tile they place, or each a choice of its
    own."""
    options = []
    for cls, words in ACTION_WORDS.items():
        mine = [a for a in actions if type(a) is cls]
        if not mine:
            continue
        if words.group is not None:
            key, label, prompt = words.group(state)
            options.append(Option(key, label, prompt=prompt, children=tuple(_numbered(
                [_module_leaf(state, words, a) for a in mine]))))
        elif words.place is not None:
            options += _placed_groups(state, words, mine)
        else:
            options += [_module_leaf(state, words, a) for a in mine]
    return options


def _placed_groups(state: GameState, words: ActionWords, actions: list[Action]
                   ) -> list[Option]:
    """A module's choices that put a tile on a space: one group for each tile, its spaces in
    it."""
    assert words.place is not None
    groups: dict[tuple[str, int, Target], list[Option]] = {}
    for a in actions:
        groups.setdefault(words.place(state, a), []).append(_module_leaf(state, words, a))
    return [Option("", f"{where}: {tile_label(tile)}", tile=tile,
                   children=tuple(_numbered(spaces)), target=target,
                   brief=f"{where}: {tile_code(tile)}",
                   prompt=_fitting(f"Place {tile_label(tile)} on which space?",
                                   f"Place {tile_code(tile)} on which space?"))
            for (where, tile, target), spaces in groups.items()]


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
    where = DEPOTS[action.depot].where if action.depot in DEPOTS else depot_name(action.depot)
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
