"""Fixed positions and a fixed table for the terminal client's tests (engine only, no bots).

Positions come from the engine alone (fixed entropy, fixed actions), so the snapshots do
not move when a bot strategy changes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from p2p_burgundy import Action, GameConfig, GameState, apply, legal_actions, new_game
from p2p_burgundy import resolve_chance as _resolve
from p2p_burgundy.cli.tui.table import HistoryEntry, StateChanged, TableEvent


def entropy(index: int, label: bytes = b"tui-tests-0") -> bytes:
    return hashlib.sha256(label + index.to_bytes(4, "big")).digest()


def resolve(state: GameState) -> GameState:
    while state.chance is not None:
        state = _resolve(state, entropy(state.chance.index))
    return state


def started(players: int = 2) -> GameState:
    """Set-up, phase A and round 1 resolved with fixed entropy."""
    return resolve(new_game(GameConfig(players=players)))


def play(state: GameState, *actions: Action) -> GameState:
    for action in actions:
        state = resolve(apply(state, action))
    return state


def first_legal_game(players: int = 2) -> GameState:
    """A whole game where everyone always takes the first legal action."""
    state = started(players)
    while not state.is_over:
        state = resolve(apply(state, legal_actions(state)[0]))
    return state


class FixedTable:
    """A :class:`~p2p_burgundy.cli.tui.table.Table` over one given state; records calls."""

    networked = False
    ended: str | None = None

    def __init__(self, state: GameState, names: Sequence[str], my_seat: int | None,
                 history: Sequence[HistoryEntry] = ()) -> None:
        self.names = list(names)
        self.my_seat = my_seat
        self.state = state
        self.history = list(history)
        self.submitted: list[list[Action]] = []
        self.chat: list[str] = []
        self.resigned = False
        self.events: list[TableEvent] = [StateChanged()]

    def submit_turn(self, actions: list[Action]) -> None:
        state = self.state
        for action in actions:
            state = apply(state, action)
        self.submitted.append(list(actions))
        self.state = resolve(state)
        self.history.append(HistoryEntry(self.my_seat, "(a turn)"))
        self.events.append(StateChanged())

    def send_chat(self, text: str) -> None:
        self.chat.append(text)

    def resign(self) -> None:
        self.resigned = True
        self.ended = "resigned"

    def poll(self) -> list[TableEvent]:
        events, self.events = self.events, []
        return events

    def waiting_for(self) -> str | None:
        seat = self.state.to_move
        if seat is None or seat == self.my_seat:
            return None
        return f"waiting for {self.names[seat]}'s turn"


def new_game_config_state(players: int = 2) -> GameState:
    """The state before set-up (waiting for the first chance event)."""
    return new_game(GameConfig(players=players))
