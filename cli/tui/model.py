"""The view model: the turn being drafted (with undo), the choices on offer, and what the
screen shows. No curses here: key handlers are plain methods that change the model and may
return a :data:`Command` for the app to carry out on the table.

The choices come from ``legal_actions``, grouped into a small tree: the top of a turn offers
the dice, buying and ending the turn; a chosen die offers take / place / sell / workers; a
group leads to its targets. Every leaf is one legal action, shown with what it costs and
gains (found by applying it to the draft).

>>> from p2p_burgundy.cli.tui.table import LocalTable
>>> table = LocalTable.new("Ann", bots=1, seed=3)
>>> _ = table.poll()
>>> model = Model(table)
>>> model.refresh()
>>> [o.key + " " + o.label for o in model.options()]
['1 use die 1: a 3', '2 use die 2: a 4']
>>> model.hotkey("2"); [o.key for o in model.options()]
['t', 's', 'w']
>>> model.hotkey("w"); model.draft.actions
[UseDie(die=1), TakeWorkers()]
>>> model.undo(); model.draft.actions
[UseDie(die=1)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING

from p2p_burgundy import (
    END_TURN,
    Action,
    BorrowMonasteries,
    Buy,
    BuyPoints,
    ChooseEstate,
    Discard,
    EndTurn,
    EngineError,
    GameState,
    Pass,
    PayGoods,
    Payment,
    PayTribute,
    PlaceFromDepot,
    PlaceTile,
    SellGoods,
    SetDie,
    TakeGoods,
    TakeShield,
    TakeTile,
    TakeWorkers,
    UseBuilding,
    UseDie,
    apply,
    legal_actions,
    state_hash,
)
from p2p_burgundy.actions import BUY_WORKERS
from p2p_burgundy.estate import caveat
from p2p_burgundy.rules import INN_DEPOT, bought_tile
from p2p_burgundy.shields import SHIELD_WORDS
from p2p_burgundy.state import Step
from p2p_burgundy.tiles import tile_name

from .describe import describe_turn, gains, gains_short, tribute_words
from .layout import LEFT, MIN_WIDTH
from .table import Endable, Handover, Hinting, Scored, ScoreTrack, Steppable, Table
from .texts import (
    goods_label,
    guide,
    info_for_shield,
    info_for_tile,
    short_name,
    tile_code,
    tile_label,
)

if TYPE_CHECKING:
    from .hint import Hint
    from .learn import Lesson

HOTKEYS = "123456789abdfghjkmnorstwyz"
"""Keys for numbered choices (letters that other keys use are left out)."""

Target = tuple[str, int, int]
"""What a choice points at on screen: ("space", n, 0), ("depot", d, slot),
("goods_depot", d, 0), ("storage", i, 0), ("goods", g, 0), ("die", i, 0) or
("shield", d, n)."""

Changes = frozenset[tuple[str, int, int]]
"""What changed between two states: ("space", seat, n), ("storage", seat, 0),
("goods", seat, 0), ("depot", d, slot), ("goods_depot", d, 0)."""


def changes_between(before: GameState, after: GameState, skip: int | None = None) -> Changes:
    """The estate spaces, storage and goods of every seat but ``skip``, and the depots'
    tiles and goods, that differ between two states (depots only within one phase: a new
    phase refills them all).

    >>> from p2p_burgundy import GameConfig, new_game, resolve_chance
    >>> s = new_game(GameConfig(players=2))
    >>> while s.chance is not None:
    ...     s = resolve_chance(s, bytes(32))
    >>> t = apply(apply(s, UseDie(0)), TakeTile(5, 0))
    >>> sorted(changes_between(s, t))
    [('depot', 5, 0), ('storage', 0, 0)]
    >>> sorted(changes_between(s, t, skip=0))
    [('depot', 5, 0)]
    """
    out: set[tuple[str, int, int]] = set()
    for seat, (old, new) in enumerate(zip(before.players, after.players, strict=True)):
        if seat == skip:
            continue
        out |= {("space", seat, n) for n, (a, b) in enumerate(zip(old.estate, new.estate,
                                                                    strict=True)) if a != b}
        if old.storage != new.storage:
            out.add(("storage", seat, 0))
        if old.goods != new.goods:
            out.add(("goods", seat, 0))
    if before.phase == after.phase:
        for d, (old_tiles, new_tiles) in enumerate(zip(before.depots, after.depots,
                                                       strict=True)):
            out |= {("depot", d, slot) for slot, (a, b) in enumerate(zip(old_tiles, new_tiles,
                                                                         strict=True))
                    if a != b}
        out |= {("goods_depot", d, 0) for d in range(1, 7)
                if before.depot_goods[d] != after.depot_goods[d]}
    return frozenset(out)


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
    if step == Step.TURN:
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
        if state.closing:
            return "The phase is over: end your turn", options
        return "Both dice used: buy a tile or end the turn", options
    if step in (Step.DIE, Step.FREE_ACTION, Step.WHITE_CASTLE):
        if step == Step.DIE:
            die = p.dice[state.pending[-1][1]]
            prompt = f"With your {die}: take, place, sell or workers"
        elif step == Step.WHITE_CASTLE:
            prompt = _fitting(f"White castle: one action with the white die's {state.white_die}",
                              f"White castle: an action with a {state.white_die}")
        else:
            prompt = "Castle: one more action, any number"
        return prompt, _die_groups(state, actions) + _shield_turn_groups(state, actions)
    if step == Step.CRANE:
        options = _numbered([_leaf(state, a, f"as a {tile_name(a.building)}", tile=a.building)
                             for a in actions if isinstance(a, UseBuilding)])
        options.append(Option("x", "pass (use nothing)", Pass()))
        return "Crane: trigger the effect of any building", options
    if step == Step.CHOOSE_ESTATE:
        return _estate_choice(state, actions)
    if step == Step.DISCARD:
        options = [_tile_leaf(state, a, "discard", p.storage[a.storage],
                              ("storage", a.storage, 0))
                   for a in actions if isinstance(a, Discard)]
        if state.pending[-1][1]:
            return "Shield #4 is gone: keep 3 tiles, discard one", _numbered(options)
        new = tile_code(p.storage[-1])
        return f"Storage full (new: {new}): discard one", _numbered(options)
    if step in SOLO_PROMPTS:
        return _solo_choice(state, step, actions)
    if step in (Step.TRIBUTE, Step.SHIELD_TILE, Step.SHIELD_GOODS):
        return _shield_step(state, actions)
    if step == Step.SHIP:
        options = []
        for a in actions:
            if isinstance(a, TakeGoods):
                depots = " and ".join(str(d) for d in a.depots)
                kinds = ", ".join(str(g) for g in a.keep)
                options.append(_leaf(state, a, f"depot {depots}: goods {kinds}",
                                     target=("goods_depot", a.depots[0], 0)))
        return "Your ship: take the goods of a depot", _numbered(options)
    words = {Step.WAREHOUSE: "Warehouse: you may sell one goods type",
             Step.CARPENTER: "Carpenter: you may take a building",
             Step.CHURCH: "Church: take a mine, castle or knowledge",
             Step.MARKET: "Market: you may take a ship or an animal",
             Step.CITY_HALL: "City hall: place one more tile, any die"}
    options = []
    places = [a for a in actions if isinstance(a, PlaceTile)]
    if places:
        options += _place_groups(state, places)
    for a in actions:
        if isinstance(a, SellGoods):
            options.append(_goods_leaf(state, a))
        elif isinstance(a, TakeTile):
            options.append(_tile_leaf(state, a, f"depot {a.depot}",
                                      state.depots[a.depot][a.slot], ("depot", a.depot, a.slot)))
    options = _numbered(options)
    if any(isinstance(a, Pass) for a in actions):
        options.append(Option("x", "pass (use nothing)", Pass()))
    return words.get(step, "Choose"), options


SOLO_PROMPTS = {
    Step.EXCHANGE: "Ship: give 5 goods for a black depot tile, face down?",
    Step.PAY_GOODS: "Pay the goods: {left} more",
    Step.REWARD: "Colour complete: a black depot tile to place now",
    Step.REWARD_PLACE: "Place {tile} on which space? (any number)",
    Step.TARGET: "Buy {points} VP for {points} silver to reach the target?",
}


def _solo_choice(state: GameState, step: Step, actions: Sequence[Action]
                 ) -> tuple[str, list[Option]]:
    """The solo game's own decisions: the ship's exchange and its payment, the colour
    reward and where it goes, buying the points to the target marker."""
    p = state.players[0]
    arg = state.pending[-1][1]
    options = []
    for a in actions:
        if isinstance(a, TakeTile):
            options.append(_tile_leaf(state, a, "black", state.depots[0][a.slot],
                                      ("depot", 0, a.slot)))
        elif isinstance(a, PayGoods):
            options.append(_leaf(state, a, f"pay 1 x {goods_label(a.goods)} "
                                           f"(of {p.goods[a.goods]})",
                                 target=("goods", a.goods, 0)))
        elif isinstance(a, BuyPoints):
            options.append(_leaf(state, a, f"buy {a.points} VP for {a.points} silver", key="y"))
    places = [a for a in actions if isinstance(a, PlaceTile)]
    if places:
        options += _place_groups(state, places)[0].children
    options = _numbered(options)
    if any(isinstance(a, Pass) for a in actions):
        options.append(Option("x", "pass", Pass()))
    tile = tile_label(p.storage[arg]) if step == Step.REWARD_PLACE else ""
    points = state.vp_target - state.vp_counter
    return SOLO_PROMPTS[step].format(left=arg, tile=tile, points=points), options


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


def _shield_step(state: GameState, actions: Sequence[Action]) -> tuple[str, list[Option]]:
    """A shield's decision: the tribute, shield #14's or #15's tile, shield #5's goods."""
    step = state.step
    options: list[Option] = []
    if step == Step.TRIBUTE:
        options = [_leaf(state, a, tribute_words(a)) for a in actions
                   if isinstance(a, PayTribute)]
        return "Phase end: pay 1 for each shield you keep", _numbered(options)
    if step == Step.SHIELD_GOODS:
        for a in actions:
            if isinstance(a, TakeGoods):
                count = sum(state.depot_goods[d][a.keep[0]] for d in a.depots)
                depots = ", ".join(map(str, a.depots))
                options.append(_leaf(state, a, f"{count} x {goods_label(a.keep[0])} "
                                               f"(depot {depots})",
                                     target=("goods_depot", a.depots[0], 0)))
        options = _numbered(options)
        options.append(Option("x", "pass (take none)", Pass()))
        return "Shield #5: every goods tile of one type", options
    board = state.boards[state.to_move or 0]
    groups: dict[tuple[int, int], list[Option]] = {}
    for a in actions:
        if isinstance(a, PlaceFromDepot):
            tile = state.depots[a.depot][a.slot]
            groups.setdefault((a.depot, a.slot), []).append(
                _leaf(state, a, board.label(a.space), tile=tile, target=("space", a.space, 0)))
    for (depot, slot), spaces in groups.items():
        tile = state.depots[depot][slot]
        where = "black depot" if depot == 0 else f"depot {depot}"
        options.append(Option("", f"{where}: {tile_label(tile)}", tile=tile,
                              children=tuple(_numbered(spaces)),
                              target=("depot", depot, slot), brief=f"{where}: {tile_code(tile)}",
                              prompt=_fitting(f"Place {tile_label(tile)} on which space?",
                                              f"Place {tile_code(tile)} on which space?")))
    options = _numbered(options)
    options.append(Option("x", "pass (place none)", Pass()))
    shield = 14 if state.pending[-1][1] else 15
    return f"Phase end, shield #{shield}: place a tile now", options


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


def _what_changed(before: GameState, after: GameState, seat: int, name: str,
                  detail: int) -> str:
    """What ``seat`` did between two states, for a summary: with ``detail`` 2 the tiles
    placed and taken, 1 only how many, 0 only the VP.

    >>> from p2p_burgundy import GameConfig, new_game, resolve_chance
    >>> s = new_game(GameConfig(players=2))
    >>> while s.chance is not None:
    ...     s = resolve_chance(s, bytes(32))
    >>> _what_changed(s, s, 1, "Bob", 2)
    'Bob +0 VP'
    """
    old, new = before.players[seat], after.players[seat]
    placed = [t for t, was in zip(new.estate, old.estate, strict=True) if t != was]
    stored, laid = Counter(old.storage), Counter(placed)
    # taken: new in storage, or taken and placed in the same turn
    taken = [*(Counter(new.storage) - (stored - laid)).elements(), *(laid - stored).elements()]
    sold = sum(new.sold) > sum(old.sold)
    words = []
    for verb, tiles in (("took", taken), ("placed", placed)):
        if tiles and detail == 2:
            words.append(f"{verb} {' '.join(tile_code(t) for t in tiles)}")
        elif tiles and detail == 1:
            words.append(f"{verb} {len(tiles)}")
    if sold and detail:
        words.append("sold")
    if new.workers > old.workers and detail:
        words.append("took workers")
    vp = f"+{new.vp - old.vp} VP"
    return f"{short_name(name)} {', '.join(words)} ({vp})" if words else \
        f"{short_name(name)} {vp}"


class TurnDraft:
    """Our turn so far: the states after each action, so any step can be undone.

    Nothing leaves the draft until the turn ends (then ``actions`` go to the table).

    >>> from p2p_burgundy import GameConfig, new_game, resolve_chance
    >>> state = new_game(GameConfig(players=2))
    >>> while state.chance is not None:
    ...     state = resolve_chance(state, bytes(32))
    >>> draft = TurnDraft(state)
    >>> draft.apply(UseDie(0)); draft.apply(TakeWorkers())
    >>> draft.undo(), draft.actions, draft.state.step.name
    (TakeWorkers(), [UseDie(die=0)], 'DIE')
    """

    def __init__(self, state: GameState) -> None:
        self.states = [state]
        self.actions: list[Action] = []
        self._menu: tuple[str, list[Option]] | None = None

    @property
    def state(self) -> GameState:
        return self.states[-1]

    @property
    def base(self) -> GameState:
        return self.states[0]

    def menu(self) -> tuple[str, list[Option]]:
        if self._menu is None:
            self._menu = build_menu(self.state)
        return self._menu

    def apply(self, action: Action) -> None:
        """Add ``action`` (raises IllegalAction and changes nothing if it is not legal)."""
        self.states.append(apply(self.state, action))
        self.actions.append(action)
        self._menu = None

    def undo(self) -> Action | None:
        """Take back the last action; None if there is none."""
        if not self.actions:
            return None
        self.states.pop()
        self._menu = None
        return self.actions.pop()


class Context(Enum):
    """Which keys work now (the app's keymap has one section per context)."""

    PLAY = "play"  # our turn: choosing
    WAIT = "wait"  # someone else's turn (or watching)
    REPLAY = "replay"
    SCORES = "scores"  # the game is over
    STANDINGS = "standings"  # the scores page during the game
    CHART = "chart"  # the VP of every player round by round
    HINT = "hint"  # what the bot would do now
    HELP = "help"
    INFO = "info"
    LOG = "log"
    CHAT = "chat"
    CONFIRM = "confirm"
    TOO_SMALL = "too_small"


class Overlay(Enum):
    """A page shown over the board."""

    HELP = "help"
    INFO = "info"
    LOG = "log"
    SCORES = "scores"
    CHART = "chart"
    HINT = "hint"


class Ask(Enum):
    """What a yes/no question is about."""

    END_TURN = "end_turn"
    RESIGN = "resign"
    QUIT = "quit"
    SEAT_TO_BOT = "seat_to_bot"


@dataclass(frozen=True, slots=True)
class Submit:
    """Send our whole turn to the table."""

    actions: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class SendChat:
    """Say a line to the table."""

    text: str


@dataclass(frozen=True, slots=True)
class Resign:
    """Give up the game (already confirmed)."""


@dataclass(frozen=True, slots=True)
class Quit:
    """Leave the client."""


@dataclass(frozen=True, slots=True)
class StepReplay:
    """Move a replay ``delta`` actions (or whole turns)."""

    delta: int
    turns: bool = False


@dataclass(frozen=True, slots=True)
class SeatToBot:
    """Agree that a bot plays ``seat`` (a player who is gone), already confirmed."""

    seat: int


@dataclass(frozen=True, slots=True)
class AskHint:
    """Ask the strongest bot what it would do in ``state`` (our turn so far)."""

    state: GameState


Command = Submit | SendChat | Resign | Quit | StepReplay | SeatToBot | AskHint


@dataclass(slots=True)
class Confirm:
    ask: Ask
    question: str
    seat: int | None = None  # the seat a SEAT_TO_BOT question is about


@dataclass(slots=True)
class MenuView:
    """What the choices pane shows."""

    prompt: str
    options: list[Option]
    cursor: int
    path: list[str] = field(default_factory=list)


class Model:
    """Everything the screen shows besides the table itself; no curses.

    Handlers return a :data:`Command` (or None) for the app to carry out.
    """

    def __init__(self, table: Table, lesson: Lesson | None = None) -> None:
        self.table = table
        self.lesson = lesson  # a guided game's steps (``burgundy learn``)
        self.draft: TurnDraft | None = None
        self.path: list[int] = []
        self.cursor = 0
        my = table.my_seat
        self.view_seat = my if my is not None else 0
        self.overlay: Overlay | None = None
        self.overlay_scroll = 0
        self.chat: str | None = None
        self.confirm: Confirm | None = None
        self.message = ""
        self.log_scroll = 0  # lines up from the newest
        self.info_index = 0
        self.mark = 0  # history length when we last ended a turn
        self.mark_state: GameState | None = None  # the table when we last ended a turn
        self.scores_shown = False
        self.too_small = False
        self._track = ScoreTrack()
        self.changes: Changes = frozenset()  # marked on the board until we choose something
        self.hint: Hint | None = None  # the bot's suggestion for ``hint_for``
        self.hint_for: GameState | None = None
        self._shown: GameState | None = None  # the table's state at the last refresh

    # --- reading -------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        return self.draft.state if self.draft else self.table.state

    @property
    def replay(self) -> bool:
        return isinstance(self.table, Steppable)

    @property
    def game_over(self) -> bool:
        return self.table.state.is_over or self.table.ended is not None

    def context(self) -> Context:
        if self.too_small:
            return Context.TOO_SMALL
        if self.confirm:
            return Context.CONFIRM
        if self.chat is not None:
            return Context.CHAT
        if self.overlay == Overlay.HELP:
            return Context.HELP
        if self.overlay == Overlay.INFO:
            return Context.INFO
        if self.overlay == Overlay.LOG:
            return Context.LOG
        if self.overlay == Overlay.CHART:
            return Context.CHART
        if self.overlay == Overlay.HINT:
            return Context.HINT
        if self.overlay == Overlay.SCORES and not self.game_over:
            return Context.STANDINGS
        return self.base_context()

    def base_context(self) -> Context:
        """The screen under any page, question or chat: play, wait, replay or scores."""
        if self.replay:
            return Context.REPLAY
        if self.game_over:
            return Context.SCORES
        return Context.PLAY if self.draft else Context.WAIT

    def menu(self) -> MenuView | None:
        """The choices at the current step of the draft, or None when not our turn."""
        if not self.draft:
            return None
        prompt, options = self.draft.menu()
        crumbs = []
        for index in self.path:
            group = options[index]
            crumbs.append(group.label)
            prompt, options = group.prompt, list(group.children)
        return MenuView(prompt, options, min(self.cursor, max(0, len(options) - 1)), crumbs)

    def help_topic(self) -> str:
        """Which kind of decision the screen is at, a key of
        :data:`~.texts.RULE_REMINDERS`."""
        if self.replay:
            return "replay"
        if self.game_over:
            return "solo_scores" if self.state.config.solo else "scores"
        if not self.draft:
            return "wait"
        state = self.draft.state
        step = state.step
        if self.path:
            group = self.draft.menu()[1][self.path[0]].key
            return {"t": "take", "p": "place", "s": "sell", "b": "buy",
                    "h": "shield", "d": "shield", "m": "shield"}.get(group, "place")
        if step == Step.TURN:
            if state.closing:
                return "phase_end"
            return "turn" if any(isinstance(a, UseDie) for a in legal_actions(state)) \
                else "turn_done"
        if step == Step.SHIP and state.config.solo:
            return "solo_ship"
        return {Step.DIE: "die", Step.FREE_ACTION: "free", Step.DISCARD: "discard",
                Step.SHIP: "ship", Step.CHOOSE_ESTATE: "estate", Step.TRIBUTE: "tribute",
                Step.SHIELD_TILE: "phase_end", Step.SHIELD_GOODS: "shield",
                Step.EXCHANGE: "exchange", Step.PAY_GOODS: "pay_goods", Step.REWARD: "reward",
                Step.REWARD_PLACE: "reward_place", Step.TARGET: "target"}.get(step, "building")

    def options(self) -> list[Option]:
        menu = self.menu()
        return menu.options if menu else []

    def selected(self) -> Option | None:
        menu = self.menu()
        if not menu or not menu.options:
            return None
        return menu.options[menu.cursor]

    # --- keeping up with the table -------------------------------------------------------

    def refresh(self) -> None:
        """Follow the table after it changed: start or drop our turn's draft."""
        table = self.table
        state = table.state
        self._track.observe(state)
        if self.replay and self._shown is not None and self._shown is not state:
            self.changes = changes_between(self._shown, state)
        self._shown = state
        mine = (not self.game_over and table.my_seat is not None
                and state.to_move == table.my_seat)
        if not mine:
            self.draft = None
            self.path, self.cursor = [], 0
            if self.confirm and self.confirm.ask == Ask.END_TURN:
                self.confirm = None
        elif self.draft is None or (self.draft.base is not state
                                    and state_hash(self.draft.base) != state_hash(state)):
            self.draft = TurnDraft(state)
            self.path, self.cursor = [], 0
            self.message = "Your turn. " + self.since_last_turn()
            if self.mark_state is not None:
                self.changes = changes_between(self.mark_state, state, table.my_seat)
        if self.replay and not self.game_over:
            self.scores_shown = False  # a replay shows the scores each time it reaches the end
        if self.game_over and not self.scores_shown:
            self.scores_shown = True
            self.overlay = Overlay.SCORES
            self.message = table.ended or "The game is over."

    def lesson_text(self) -> list[str]:
        """The guided game's step at hand (empty outside a lesson)."""
        if self.lesson is None:
            return []
        if self.draft is not None:
            return self.lesson.instruction(self.draft.state, self.draft.actions)
        return self.lesson.instruction(self.table.state, [])

    def draft_sentences(self) -> list[str]:
        """Our turn so far as log sentences (shown as not yet sent)."""
        draft = self.draft
        if draft is None or not draft.actions:
            return []
        return [text for _, text in describe_turn(draft.base, draft.actions, self.table.names)]

    def since_last_turn(self, width: int = MIN_WIDTH - len("Your turn. ")) -> str:
        """What the others did since we last ended a turn, in at most ``width`` columns:
        the tiles they placed and took, whether they sold, and their VP (fewer words when
        that is too long; the log has every sentence). Empty before our first turn ends."""
        before = self.mark_state
        if before is None:
            return ""
        state = self.table.state
        others = [s for s in range(len(self.table.names)) if s != self.table.my_seat]
        if not others:  # the solo game: nobody else plays
            return ""
        forms = []
        for detail in (2, 1, 0):
            parts = [_what_changed(before, state, seat, self.table.names[seat], detail)
                     for seat in others]
            forms.append(f"Meanwhile {'; '.join(parts)}.")
        return next((f for f in forms if len(f) <= width), forms[-1])

    def turn_sent(self) -> None:
        """The table took our turn: remember where the log stood."""
        self.mark = len(self.table.history)
        self.mark_state = self.table.state
        self.draft = None
        self.path, self.cursor = [], 0
        self.message = ""
        self.log_scroll = 0

    # --- choosing ------------------------------------------------------------------------

    def cursor_up(self) -> None:
        self.cursor = max(0, self.cursor - 1)

    def cursor_down(self) -> None:
        self.cursor = min(max(0, len(self.options()) - 1), self.cursor + 1)

    def select(self) -> Command | None:
        """Choose the option under the cursor (Enter)."""
        menu = self.menu()
        if not menu or not menu.options:
            self.message = "Nothing to choose now."
            return None
        return self._choose(menu.cursor)

    def hotkey(self, key: str) -> Command | None:
        """Choose the option with this key; say so when there is none."""
        for index, option in enumerate(self.options()):
            if option.key == key:
                return self._choose(index)
        if key == "e" and self.draft:
            return self.end_turn()
        if self.draft:
            self.message = f"'{key}' is not a choice here; ? shows the keys."
        return None

    def click(self, index: int) -> Command | None:
        """A click on something highlighted for option ``index`` of the current step."""
        if 0 <= index < len(self.options()):
            self.cursor = index
            return self._choose(index)
        return None

    def _choose(self, index: int) -> Command | None:
        assert self.draft is not None
        option = self.options()[index]
        self.message = ""
        self.changes = frozenset()
        if option.children:
            self.path.append(index)
            self.cursor = 0
            return None
        action = option.action
        assert action is not None
        if isinstance(action, EndTurn):
            return self.end_turn()
        if isinstance(action, ChooseEstate):
            return Submit((*self.draft.actions, action))  # a set-up choice is a whole turn
        try:
            self.draft.apply(action)
        except EngineError as exc:  # legal_actions offered it: an engine disagreement
            self.message = f"Refused: {exc}"
            return None
        self.path, self.cursor = [], 0
        return None

    def end_turn(self, confirmed: bool = False) -> Command | None:
        """End the turn (asks first if a die is unused); sends the whole turn."""
        draft = self.draft
        if draft is None:
            return None
        p = draft.state.players[draft.state.to_move or 0]
        unused = [str(p.dice[i]) for i in (0, 1) if not p.dice_used >> i & 1]
        if END_TURN not in legal_actions(draft.state):
            if draft.state.step == Step.TURN and unused:
                self.message = (f"Use your {' and '.join(unused)} first: a turn is one action "
                                "per die (taking workers is always possible).")
            else:
                self.message = "Finish this step first (or u to undo it)."
            return None
        if unused and not confirmed:  # only if the rules ever let a die go unused
            dice = " and the ".join(unused)
            self.confirm = Confirm(Ask.END_TURN,
                                   f"End your turn with the {dice} unused? (y/n)")
            return None
        return Submit((*draft.actions, END_TURN))

    def back(self) -> None:
        """Esc: up one level of choices; at a die's first choice, give the die back."""
        if self.path:
            self.cursor = self.path.pop()
            return
        draft = self.draft
        if draft and draft.actions and isinstance(draft.actions[-1], UseDie) \
                and draft.state.step == Step.DIE:
            draft.undo()
            self.cursor = 0
            self.message = "Die given back."
            return
        self.message = "Nothing to go back to (u undoes a whole step)."

    def undo(self) -> None:
        """Take back the last action of this turn."""
        self.changes = frozenset()
        if not self.draft:
            self.message = "Nothing to undo: it is not your turn."
            return
        action = self.draft.undo()
        self.path, self.cursor = [], 0
        self.message = "Undone." if action else "Nothing to undo yet this turn."

    def ask_hint(self) -> Command | None:
        """H: ask the bot what it would do now (where the table allows hints)."""
        if self.draft is None:
            self.message = "Hints are for your own turn."
            return None
        if not (isinstance(self.table, Hinting) and self.table.hints):
            self.message = "Hints are off at this table."
            return None
        if self.hint is not None and self.hint_for is self.draft.state:
            self.overlay = Overlay.HINT
            return None
        self.message = "Asking the bot (a moment)..."
        return AskHint(self.draft.state)

    def show_hint(self, hint: Hint, state: GameState) -> None:
        """The bot's answer for ``state`` (shown if our turn is still there)."""
        self.hint, self.hint_for = hint, state
        self.message = ""
        if self.draft is not None and self.draft.state is state:
            self.overlay = Overlay.HINT

    def follow_hint(self) -> None:
        """Enter on a hint: make its choices, as if their keys were pressed."""
        hint, self.overlay = self.hint, None
        if hint is None or self.draft is None or self.hint_for is not self.draft.state:
            self.message = "That hint was for another moment: H asks again."
            return
        for action in hint.actions:
            if isinstance(action, EndTurn | ChooseEstate):
                self.message = "The bot would end the turn here: press e."
                break
            self.draft.apply(action)
        self.path, self.cursor, self.changes = [], 0, frozenset()

    def autoplay(self, choose: Callable[[GameState, list[Action]], Action]) -> Command | None:
        """Let ``choose(state, actions) -> Action`` play the rest of our turn."""
        draft = self.draft
        if draft is None:
            return None
        while True:
            action = choose(draft.state, legal_actions(draft.state))
            if isinstance(action, EndTurn | ChooseEstate):
                return Submit((*draft.actions, action))
            draft.apply(action)

    # --- questions, chat and pages -------------------------------------------------------

    def answer(self, yes: bool) -> Command | None:
        confirm, self.confirm = self.confirm, None
        if confirm is None or not yes:
            self.message = "Cancelled."
            return None
        if confirm.ask == Ask.END_TURN:
            return self.end_turn(confirmed=True)
        if confirm.ask == Ask.RESIGN:
            return Resign()
        if confirm.ask == Ask.SEAT_TO_BOT and confirm.seat is not None:
            return SeatToBot(confirm.seat)
        return Quit()

    def ask_resign(self) -> None:
        if self.table.my_seat is None:
            self.message = "You are watching: there is nothing to resign from."
            return
        if self.game_over:
            self.message = "The game is over: there is nothing to resign from."
            return
        if isinstance(self.table, Endable) and self.table.may_end:
            self.confirm = Confirm(Ask.RESIGN, "End the game here, as the winner, instead of "
                                   "playing on against the bot? (y/n)")
            return
        what = ("A bot plays your seat from now on." if isinstance(self.table, Handover)
                else "The game ends for everyone.")
        self.confirm = Confirm(Ask.RESIGN, f"Resign? {what} (y/n)")

    def handover_seat(self) -> int | None:
        """The seat of a player gone long enough that we may let a bot play it, or None."""
        table = self.table
        if not isinstance(table, Handover) or self.game_over or table.my_seat is None:
            return None
        gone = table.gone()
        return gone[0] if gone else None

    def ask_seat_to_bot(self) -> None:
        """B: offer to let a bot play the seat of a player who is gone (asks first)."""
        seat = self.handover_seat()
        if seat is None:
            self.message = "Nobody has been gone long enough to be replaced by a bot."
            return
        name = self.table.names[seat]
        self.confirm = Confirm(Ask.SEAT_TO_BOT, f"Let a bot play {name}'s seat from now on? "
                               "Every other player must agree. (y/n)", seat)

    def quit(self) -> Command | None:
        """Quit at once, or ask first when other people play at this table."""
        if self.table.networked and not self.game_over and self.table.my_seat is not None:
            self.confirm = Confirm(Ask.QUIT, "Leave this game? The others cannot finish it "
                                   "without you. (y/n)")
            return None
        return Quit()

    def start_chat(self) -> None:
        if self.replay:
            self.message = "Nobody to chat with in a replay."
            return
        if self.table.my_seat is None:
            self.message = "Chat lines are signed entries of the players: spectators watch."
            return
        self.chat = ""

    def chat_key(self, ch: str) -> None:
        if self.chat is not None and ch.isprintable() and len(self.chat) < 200:
            self.chat += ch

    def chat_backspace(self) -> None:
        if self.chat:
            self.chat = self.chat[:-1]

    def chat_send(self) -> Command | None:
        text, self.chat = self.chat, None
        return SendChat(text) if text and text.strip() else None

    def chat_cancel(self) -> None:
        self.chat = None

    def show(self, overlay: Overlay) -> None:
        """Open a page (or close it if it is open)."""
        if self.overlay == overlay:
            self.close_overlay()
            return
        self.overlay = overlay
        self.overlay_scroll = 0
        if overlay == Overlay.INFO:
            self.info_index = self._info_start()
            if self.lesson is not None:
                self.lesson.seen(scores=False, guide=True)

    def close_overlay(self) -> None:
        # Closing the guide/help/log over the scores goes back to the scores.
        if self.overlay in (Overlay.HELP, Overlay.INFO, Overlay.LOG, Overlay.CHART) \
                and self.game_over \
                and not self.replay:
            self.overlay = Overlay.SCORES
        else:
            self.overlay = None
        self.overlay_scroll = 0

    def toggle_scores(self) -> None:
        """The scores page (again: back to the board): final scores once the game is over,
        else everyone's VP now and what each would have if the game ended now."""
        self.overlay = None if self.overlay == Overlay.SCORES else Overlay.SCORES
        if self.lesson is not None and self.overlay == Overlay.SCORES:
            self.lesson.seen(scores=True, guide=False)

    def toggle_chart(self) -> None:
        """Every player's VP round by round (again: back)."""
        if self.overlay == Overlay.CHART:
            self.close_overlay()
        else:
            self.overlay = Overlay.CHART

    def round_scores(self) -> list[tuple[int, ...]]:
        """VP by seat at the end of each round so far (for the chart): the table's own, or
        as this client saw the game go by."""
        if isinstance(self.table, Scored):
            return self.table.round_scores
        return self._track.rounds

    def _info_start(self) -> int:
        option = self.selected()
        tile = option.tile if option else None
        target = option.target if option else None
        if target and target[0] == "shield":
            wanted = info_for_shield(target[2])
        elif tile is None:
            return self.info_index
        else:
            wanted = info_for_tile(tile)
        for i, (_, info) in enumerate(guide()):
            if info == wanted:
                return i
        return self.info_index

    def info_move(self, delta: int) -> None:
        self.info_index = (self.info_index + delta) % len(guide())

    def scroll(self, delta: int) -> None:
        """Scroll the page (overlay) by ``delta`` lines (positive: down)."""
        self.overlay_scroll = max(0, self.overlay_scroll + delta)

    def log_page(self, delta: int) -> None:
        """Scroll the log pane (positive: back in time)."""
        self.log_scroll = max(0, self.log_scroll + delta)

    def view(self, seat: int) -> None:
        if 0 <= seat < len(self.table.names):
            self.view_seat = seat
            self.message = f"Showing {self.table.names[seat]}'s estate."

    def next_view(self) -> None:
        self.view((self.view_seat + 1) % len(self.table.names))

    def step_replay(self, delta: int, turns: int = 0) -> Command | None:
        """Move the replay ``delta`` actions, or whole turns if ``turns``."""
        if not self.replay:
            return None
        if self.overlay == Overlay.SCORES:
            self.overlay = None  # back to the board
        self.message = ""
        return StepReplay(delta, bool(turns))


__all__ = ["Ask", "AskHint", "Changes", "Command", "Context", "MenuView", "Model", "Option",
           "Overlay", "Quit", "Resign", "SeatToBot", "SendChat", "StepReplay", "Submit",
           "TurnDraft", "build_menu", "changes_between"]
