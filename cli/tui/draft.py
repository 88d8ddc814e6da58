"""Our turn being drafted, with undo, and what changed between two states: the marks on
the board, the summary of what the others did when our turn comes round again, and their
actions one by one (the catch-up). No curses here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from p2p_burgundy import Action, GameState, Turn, UseDie, new_game

from .describe import describe_played
from .menu import Option, build_menu
from .table import GameStep
from .texts import short_name, tile_code

Changes = frozenset[tuple[str, int, int]]
"""What changed between two states: ("space", seat, n), ("storage", seat, 0),
("goods", seat, 0), ("depot", d, slot), ("goods_depot", d, 0)."""


def changes_between(before: GameState, after: GameState, skip: int | None = None) -> Changes:
    """The estate spaces, storage and goods of every seat but ``skip``, and the depots'
    tiles and goods, that differ between two states (depots only within one phase: a new
    phase refills them all).

    >>> from p2p_burgundy import GameConfig, TakeTile, UseDie, apply, new_game, resolve_chance
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


def what_seat_did(before: GameState, after: GameState, seat: int, name: str,
                  detail: int) -> str:
    """What ``seat`` did between two states, for a summary: with ``detail`` 2 the tiles
    placed and taken, 1 only how many, 0 only the VP.

    >>> from p2p_burgundy import GameConfig, new_game, resolve_chance
    >>> s = new_game(GameConfig(players=2))
    >>> while s.chance is not None:
    ...     s = resolve_chance(s, bytes(32))
    >>> what_seat_did(s, s, 1, "Bob", 2)
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


class CatchUpFrame(NamedTuple):
    """One action of another player: whose, the game after it, what it changed (marked on
    the board) and its sentence, as the log says it."""

    seat: int
    state: GameState
    changes: Changes
    text: str


def catch_up_frames(steps: Sequence[GameStep], seat: int, names: Sequence[str]
                    ) -> list[CatchUpFrame]:
    """Each action the other players took since ``seat`` last ended a turn (since the
    start, if it has not yet), in order: a die and what it was used for are one action, and
    the end of a turn carries what it set off (a phase's end). ``steps`` are the game's from
    its start (a chance event is nobody's action: the frames after it show what it drew).

    >>> from p2p_burgundy.cli.tui.table import LocalTable
    >>> table = LocalTable.new("Ann", bots=2, seed=3); _ = table.poll()
    >>> [(f.seat, f.text) for f in catch_up_frames(table.steps, 0, table.names)]
    [(2, 'Bot 2 took Min (mine) from depot 5 with a 5.'), \
(2, 'Bot 2 took Wrh (warehouse) from depot 5 with a 5.'), (2, 'Bot 2 ended the turn.')]
    """
    if not steps:
        return []
    befores = (new_game(steps[0].state.config), *(step.state for step in steps[:-1]))
    turns = [(before, what) for before, (what, _) in zip(befores, steps, strict=True)
             if isinstance(what, tuple)]
    start = max((i + 1 for i, (before, _) in enumerate(turns) if before.to_move == seat),
                default=0)
    frames = []
    for before_turn, actions in turns[start:]:
        turn = Turn.of(before_turn, actions)
        lines = [text for _, text in describe_played(turn, names)]
        said, before = 0, turn.before
        for i, (action, after) in enumerate(zip(turn.actions, turn.states, strict=True)):
            if isinstance(action, UseDie):
                continue  # said with the action it was used for
            last = i == len(turn.actions) - 1
            text = " ".join(lines[said:]) if last else " ".join(lines[said:said + 1])
            frames.append(CatchUpFrame(turn.seat if turn.seat is not None else seat, after,
                                       changes_between(before, after), text))
            said, before = said + 1, after
    return frames


class TurnDraft:
    """Our turn so far: the states after each action, so any step can be undone.

    Nothing leaves the draft until the turn ends (then ``actions`` go to the table).

    >>> from p2p_burgundy import GameConfig, TakeWorkers, UseDie, new_game, resolve_chance
    >>> state = new_game(GameConfig(players=2))
    >>> while state.chance is not None:
    ...     state = resolve_chance(state, bytes(32))
    >>> draft = TurnDraft(state)
    >>> draft.apply(UseDie(0)); draft.apply(TakeWorkers())
    >>> draft.undo(), draft.actions, draft.state.step.name
    (TakeWorkers(), [UseDie(die=0)], 'DIE')
    """

    def __init__(self, state: GameState) -> None:
        self.turn = Turn(state)
        self._menu: tuple[str, list[Option]] | None = None

    @property
    def state(self) -> GameState:
        return self.turn.after

    @property
    def base(self) -> GameState:
        return self.turn.before

    @property
    def actions(self) -> list[Action]:
        return list(self.turn.actions)

    def menu(self) -> tuple[str, list[Option]]:
        if self._menu is None:
            self._menu = build_menu(self.state)
        return self._menu

    def apply(self, action: Action) -> None:
        """Add ``action`` (raises IllegalAction and changes nothing if it is not legal)."""
        self.turn = self.turn.then(action)
        self._menu = None

    def undo(self) -> Action | None:
        """Take back the last action; None if there is none."""
        if not self.turn.actions:
            return None
        action = self.turn.actions[-1]
        self.turn = self.turn.undone()
        self._menu = None
        return action


__all__ = ["Changes", "TurnDraft", "changes_between", "what_seat_did"]
