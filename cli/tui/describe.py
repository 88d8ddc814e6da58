"""Sentences for the log pane: every chance event and every action, as players would say it.

Pure functions of engine states and draws, usable by any :class:`~.table.Table` (local or
networked): a table describes a turn with :func:`describe_turn` from the state before it, and
a chance event with :func:`describe_chance` from what the engine said it drew.

>>> from p2p_burgundy import GameConfig, draw_chance, new_game, resolve_chance
>>> from p2p_burgundy import UseDie, TakeWorkers, END_TURN
>>> names = ["Ann", "Bob"]
>>> after, drew = draw_chance(new_game(GameConfig(players=2)), bytes(32))
>>> describe_chance(drew, names)[0]
'Set-up: Ann starts; starting goods: Ann 1, 1, 2; Bob 2, 3, 6.'
>>> while after.chance is not None:
...     after = resolve_chance(after, bytes(32))
>>> turn = [UseDie(0), TakeWorkers(), UseDie(1), TakeWorkers(), END_TURN]
>>> for seat, text in describe_turn(after, turn, names):
...     print(text)
Ann took workers with a 5 (+2 workers).
Ann took workers with a 1 (+2 workers).
Ann ended the turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2p_burgundy import (
    Action,
    Buy,
    ChooseEstate,
    Discard,
    EndTurn,
    GameState,
    Pass,
    Payment,
    PlaceTile,
    SellGoods,
    TakeGoods,
    TakeTile,
    TakeWorkers,
    Turn,
    UseDie,
    apply,
)
from p2p_burgundy.board import PHASE_LETTERS, PHASES, ROUNDS
from p2p_burgundy.chance import DealDraw, Draw, PhaseDraw, SetupDraw
from p2p_burgundy.scoring import Category, categories
from p2p_burgundy.state import Step
from p2p_burgundy.tiles import COLOUR_NAMES
from p2p_burgundy.variants import (
    ACTION_WORDS,
    CATEGORY_NAMES,
    DEPOTS,
    bought_tile,
    drawn_at_setup,
    modules_of,
)
from p2p_burgundy.variants import STEP_WORDS as MODULE_STEPS

from .texts import goods_label, tile_code, tile_label

CATEGORY_WORDS: dict[Category, str] = {
    Category.ANIMALS: "animals",
    Category.REGIONS: "region",
    Category.PHASE_BONUSES: "phase bonus",
    Category.COLOUR_BONUSES: "colour bonus",
    Category.SALES: "sales",
    Category.WATCHTOWERS: "watchtower",
    Category.KNOWLEDGE: "knowledge",
    Category.GOODS_LEFT: "goods left",
    Category.SILVER_LEFT: "silver left",
    Category.WORKERS_LEFT: "workers left",
    **CATEGORY_NAMES,
}
"""Each scoring category as the log and the score pages name it (a module's: as it names it)."""
STEP_WORDS: dict[int, str] = {
    Step.WAREHOUSE: "warehouse",
    Step.CARPENTER: "carpenter's workshop",
    Step.CHURCH: "church",
    Step.MARKET: "market",
    Step.CITY_HALL: "city hall",
    **{step: words.name for step, words in MODULE_STEPS.items() if words.name},
}
"""A building's (or a module's) advantage, as the log names it when it is used or let go."""
_ACTORS: dict[int, str] = {
    **STEP_WORDS, **{step: words.actor for step, words in MODULE_STEPS.items() if words.actor}}
"""What acts in a step, as the log names it: "Ann's church took ..."."""

PENDING_WORDS: dict[int, str] = {
    **{step: f"the {words}" for step, words in STEP_WORDS.items()},
    Step.FREE_ACTION: "the action of any number",
    Step.SHIP: "the ship's goods",
    **{step: words.pending for step, words in MODULE_STEPS.items() if words.pending},
}
"""A pending step as the solo game's choice of which comes first names it."""


class _TileWords(int):
    """A tile in a module's words: ``{tile}`` its code and name, ``{tile:code}`` its code."""

    def __format__(self, spec: str) -> str:
        return tile_code(self) if spec == "code" else tile_label(self)


def step_text(state: GameState, text: str) -> str:
    """One of the words of the module's step of the player to move (:class:`StepWords`),
    filled in with the step's fields (the solo game's "Pay the goods: {arg} more" reads "Pay
    the goods: 4 more" with 4 goods to pay)."""
    words = MODULE_STEPS[state.step]
    fields = {"arg": state.pending[-1][1] if state.pending else 0,
              "white_die": state.white_die, **(words.fields(state) if words.fields else {})}
    if "tile" in fields:
        fields["tile"] = _TileWords(fields["tile"])
    return text.format(**fields)


class Wording:
    """How the client writes what a module's words for its action types name
    (:class:`~p2p_burgundy.words.Wording`): players by ``names``, tiles by code and name.

    >>> words = Wording(["Ann", "Bob"])
    >>> words.name(1), words.plural(2, "worker"), words.tile_code(0)
    ('Bob', '2 workers', 'Wrh')
    """

    def __init__(self, names: Sequence[str], how: str = "") -> None:
        self.names = names
        self.how = how

    def tile(self, tile: int) -> str:
        return tile_label(tile)

    def tile_code(self, tile: int) -> str:
        return tile_code(tile)

    def goods(self, goods: int) -> str:
        return goods_label(goods)

    def name(self, seat: int) -> str:
        return self.names[seat]

    def pending(self, step: int) -> str:
        return PENDING_WORDS[step]

    def plural(self, count: int, word: str) -> str:
        return plural(count, word)


def plural(count: int, word: str) -> str:
    """``count`` and ``word``, with an s unless count is 1.

    >>> plural(1, "worker"), plural(3, "silverling")
    ('1 worker', '3 silverlings')
    """
    return f"{count} {word}{'' if count == 1 else 's'}"


def _changes(before: GameState, after: GameState, seat: int) -> tuple[int, int, int, list[str],
                                                                     list[str], bool]:
    """(silver, workers, VP, VP categories, new bonus tiles, up the turn order) for ``seat``."""
    old, new = before.players[seat], after.players[seat]
    why = [CATEGORY_WORDS[c] for c in categories(new.breakdown)
           if new.breakdown[c] != old.breakdown[c]]
    bonuses = [f"{'first' if now == 1 else 'second'} {COLOUR_NAMES[colour]} bonus"
               for colour, (was, now) in enumerate(zip(old.bonuses, new.bonuses, strict=True))
               if now and not was]
    return (new.silver - old.silver, new.workers - old.workers, new.vp - old.vp, why, bonuses,
            after.track[seat][0] > before.track[seat][0])


def gains(before: GameState, after: GameState, seat: int) -> str:
    """What ``seat`` gained or paid between two states, e.g. ``-1 worker; +4 VP for animals``.

    >>> from p2p_burgundy import GameConfig, new_game
    >>> s = new_game(GameConfig(players=2))
    >>> gains(s, s, 0)
    ''
    """
    silver, workers, vp, why, bonuses, up = _changes(before, after, seat)
    parts = [f"{'+' if delta > 0 else '-'}{plural(abs(delta), label)}"
             for label, delta in (("silverling", silver), ("worker", workers)) if delta]
    if vp:
        parts.append(f"+{vp} VP for {', '.join(why)}")
    parts += bonuses
    if up:
        parts.append("one step up the turn order")
    return "; ".join(parts)


def gains_short(before: GameState, after: GameState, seat: int) -> str:
    """:func:`gains` in a few columns, for a line of choices: ``-1 wkr +4 VP``.

    >>> from p2p_burgundy import GameConfig, new_game, resolve_chance, UseDie, TakeWorkers
    >>> s = new_game(GameConfig(players=2))
    >>> while s.chance is not None:
    ...     s = resolve_chance(s, bytes(32))
    >>> s = apply(s, UseDie(0))
    >>> gains_short(s, apply(s, TakeWorkers()), 0)
    '+2 wkr'
    """
    silver, workers, vp, _, bonuses, up = _changes(before, after, seat)
    parts = [f"{delta:+d} {label}" for label, delta in (("silv", silver), ("wkr", workers))
             if delta]
    if vp:
        parts.append(f"+{vp} VP")
    if bonuses:
        parts.append("bonus")
    if up:
        parts.append("order")
    return " ".join(parts)


def describe_action(state: GameState, action: Action, names: Sequence[str],
                    die: int | None = None) -> str:
    """One sentence for ``action`` by the player to move in ``state`` (``die``: the value of
    the die chosen just before, folded into this sentence).

    >>> from p2p_burgundy import GameConfig, new_game, resolve_chance
    >>> state = new_game(GameConfig(players=2))
    >>> while state.chance is not None:
    ...     state = resolve_chance(state, bytes(32))
    >>> state = apply(state, UseDie(0))
    >>> describe_action(state, TakeTile(4, 0), ["Ann", "Bob"], die=5)
    'Ann took Shp (ship) from depot 4 with a 5 (-1 worker).'
    """
    seat = state.to_move
    assert seat is not None, "no player to move"
    name = names[seat]
    p = state.players[seat]
    step = state.step
    how = f" with a {die}" if die else ""
    if step == Step.FREE_ACTION:
        how = " with the castle's extra action"
    elif step in MODULE_STEPS:
        how = step_text(state, MODULE_STEPS[step].how)
    if isinstance(action, EndTurn):
        unused = [p.dice[i] for i in (0, 1) if not p.dice_used >> i & 1]
        if unused:
            dice = " and ".join(str(d) for d in unused)
            return f"{name} ended the turn, leaving the {dice} unused."
        return f"{name} ended the turn."
    if isinstance(action, UseDie):
        return f"{name} chose the {p.dice[action.die]}."
    if isinstance(action, Pass):
        if step in MODULE_STEPS and MODULE_STEPS[step].passed:
            return f"{name} {step_text(state, MODULE_STEPS[step].passed)}."
        if step == Step.SHIP:  # the only pass a ship has: no goods lie anywhere
            return f"{name}'s ship took no goods: none lie on the depots."
        return f"{name} let the {STEP_WORDS.get(step, 'advantage')} go unused."
    if isinstance(action, Buy):
        where = "the black depot" if action.depot == 0 else f"depot {action.depot}"
        price = "2 workers" if action.payment == Payment.WORKERS else "2 silverlings"
        if action.depot in DEPOTS:  # a module's (the inns')
            where = DEPOTS[action.depot].where
        text = f"{name} bought {tile_label(bought_tile(state, action))} " \
               f"from {where} for {price}"
        return text + "."
    if isinstance(action, Discard):
        return f"{name} discarded {tile_label(p.storage[action.storage])} from storage."
    words = ACTION_WORDS.get(type(action))  # a module's own action: in its module's words
    if words is not None and not words.gains:
        return f"{name} {words.sentence(state, action, Wording(names))}."
    if isinstance(action, ChooseEstate):
        board = state.config.board(state.offers[seat][action.side])
        return f"{name} chose estate {board.id}, start castle on {board.label(action.space)}."
    if isinstance(action, TakeGoods):
        counts = [state.depot_goods[d][g] for d in action.depots for g in action.keep]
        depots = " and ".join(str(d) for d in action.depots)
        kinds = ", ".join(str(g) for g in action.keep)
        what = _ACTORS.get(step, "ship")
        return (f"{name}'s {what} took {plural(sum(counts), 'goods tile')} ({kinds}) "
                f"from depot{'s' if len(action.depots) > 1 else ''} {depots}.")
    if step in _ACTORS:
        who = f"{name}'s {_ACTORS[step]}"
        how = ""
    else:
        who = name
    after = apply(state, action)
    extra = gains(state, after, seat)
    tail = f" ({extra})." if extra else "."
    if isinstance(action, TakeTile):
        tile = state.depots[action.depot][action.slot]
        where = "the black depot" if action.depot == 0 else f"depot {action.depot}"
        return f"{who} took {tile_label(tile)} from {where}{how}{tail}"
    if isinstance(action, PlaceTile):
        tile = p.storage[action.storage]
        label = state.boards[seat].label(action.space)
        return f"{who} placed {tile_label(tile)} on {label}{how}{tail}"
    if isinstance(action, SellGoods):
        count = p.goods[action.goods]
        return f"{who} sold {count} x {goods_label(action.goods)}{how}{tail}"
    if isinstance(action, TakeWorkers):
        return f"{who} took workers{how}{tail}"
    if words is not None:
        return f"{who} {words.sentence(state, action, Wording(names, how))}{tail}"
    return f"{who}: {action!r}{tail}"


def describe_turn(state: GameState, actions: Sequence[Action], names: Sequence[str]
                  ) -> list[tuple[int | None, str]]:
    """:func:`describe_played` for ``actions`` played from ``state`` (for those who hold
    only the actions: whoever holds the :class:`~p2p_burgundy.Turn` describes it)."""
    return describe_played(Turn.of(state, actions), names)


def describe_played(turn: Turn, names: Sequence[str]) -> list[tuple[int | None, str]]:
    """(seat, sentence) for each action of ``turn``, then what the turn's end set off
    (the end of a phase or of the game, as seat None). A die choice is folded into the
    sentence of the action it was used for."""
    out: list[tuple[int | None, str]] = []
    seat = turn.seat
    die = None
    for before, action in zip((turn.before, *turn.states), turn.actions, strict=False):
        if isinstance(action, UseDie):
            die = before.players[seat].dice[action.die] if seat is not None else None
        else:
            out.append((seat, describe_action(before, action, names, die)))
            die = None
    if turn.over:
        before = turn.states[-2] if len(turn.states) > 1 else turn.before
        out += [(None, text) for text in describe_phase_end(before, turn.after, names)]
    return out


def describe_phase_end(before: GameState, after: GameState, names: Sequence[str]) -> list[str]:
    """Mine income at a phase end, and the end of the game."""
    if after.phase == before.phase:
        return []
    ending = end_of_game(after) if after.is_over else None
    if ending is not None and before.phase < PHASES - 1:
        return [ending]  # won before the last phase's end (the solo game)
    paid = []
    for seat, (old, new) in enumerate(zip(before.players, after.players, strict=True)):
        silver = new.silver - old.silver
        if silver:
            paid.append(f"{names[seat]} {silver}")
    income = f" Mines paid: {', '.join(paid)}." if paid else ""
    lines = [f"Phase {PHASE_LETTERS[before.phase]} is over.{income}"]
    if ending is not None:
        lines.append(ending)
    elif after.is_over:
        scores = ", ".join(f"{names[s]} {p.vp}" for s, p in enumerate(after.players))
        lines.append(f"The game is over. Final scores: {scores}.")
    return lines


def end_of_game(state: GameState) -> str | None:
    """How a finished game that a module decides its own way ended, in its module's sentence
    (the solo game: "The duchy is full in round 23 of 25: you win!"); None for the others."""
    return next((module.result(state) for module in modules_of(state.config) if module.result),
                None)


def describe_chance(drew: Draw, names: Sequence[str]) -> list[str]:
    """What a chance event drew (as :func:`~p2p_burgundy.rules.draw_chance` states it)."""
    if isinstance(drew, SetupDraw):
        goods = "; ".join(f"{names[s]} " + ", ".join(map(str, g))
                          for s, g in enumerate(drew.goods))
        # What the modules drew, in the words verify writes (their DrawWords).
        drawn = "".join(f" {words.what[0].upper()}{words.what[1:]}: "
                        f"{words.text(value, names)}." for words, value in drawn_at_setup(drew))
        return [f"Set-up: {names[drew.start_player]} starts; starting goods: {goods}.{drawn}"]
    if isinstance(drew, DealDraw):
        dealt = "; ".join(f"{names[s]} estates {' or '.join(offer)}"
                          for s, offer in enumerate(drew.offers))
        return [f"The boards are dealt: {dealt}."]
    if isinstance(drew, PhaseDraw):
        goods = " ".join(str(g) for g in drew.goods)
        return [f"Phase {PHASE_LETTERS[drew.phase]} begins: the depots are filled; "
                f"goods this phase: {goods}."]
    dice = ", ".join(f"{names[s]} {a}+{b}" for s, (a, b) in enumerate(drew.dice))
    order = ", ".join(names[s] for s in drew.order)
    if len(drew.dice) == 1:  # the solo game: 25 rounds, and a tile leaves the game
        left = (f"; {tile_label(drew.removed[1])} leaves the game from depot "
                f"{drew.removed[0]}" if drew.removed else "; no tile is left to remove")
        return [f"Round {drew.phase * ROUNDS + drew.round + 1} of 25: dice {dice}; the white "
                f"die {drew.white_die} puts {goods_label(drew.goods)} on depot "
                f"{drew.white_die}{left}."]
    return [f"Round {drew.round + 1} of phase {PHASE_LETTERS[drew.phase]}: dice {dice}; "
            f"the white die {drew.white_die} puts {goods_label(drew.goods)} on depot "
            f"{drew.white_die}. Order: {order}."]


__all__ = [
    "Wording",
    "describe_action",
    "describe_chance",
    "describe_phase_end",
    "describe_turn",
    "end_of_game",
    "gains",
    "gains_short",
    "plural",
]
