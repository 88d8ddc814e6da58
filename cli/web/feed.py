"""The latest view of a game, as the JSON the page reads, and a version that changes with it.

A :class:`LiveFeed` reads a peer's published snapshot (one reference read: a whole
snapshot, never the session the peer is changing) and builds the view only when the peer
published a new one; a :class:`ReplayFeed` shows a game file's steps, moved by action, turn
or round. Each view is encoded once, whoever reads it: 50 viewers cost one encoding.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Protocol

from p2p_burgundy import GameState
from p2p_burgundy.net.snapshot import LobbySnapshot, Snapshot

from ..tui.table import ReplayTable
from .view import View, board_view, lobby_view, snapshot_view

STEPS = ("action", "turn", "round")
"""How a replay moves: one action (or chance event), one turn, or to a round's start."""


def encode(view: View) -> bytes:
    """A view as compact JSON."""
    return json.dumps(view, separators=(",", ":"), ensure_ascii=False).encode()


class Feed(Protocol):
    """Where the server gets the page's data."""

    def current(self) -> tuple[int, bytes]:
        """The version and the JSON of the latest view (a higher version: a new view)."""


class _Versions:
    """A body and a version that moves when the body changes."""

    def __init__(self) -> None:
        self.version = 0
        self.body = b""

    def put(self, view: View) -> tuple[int, bytes]:
        body = encode(view)
        if body != self.body:
            self.version, self.body = self.version + 1, body
        return self.version, self.body


class LiveFeed:
    """The view of a live game from ``read``: the peer's latest snapshot of the game, or of
    the table before it starts (None: at no table yet)."""

    def __init__(self, read: Callable[[], Snapshot | LobbySnapshot | None]) -> None:
        self._read = read
        self._seen: object = self  # the snapshot the current view was built from
        self._versions = _Versions()

    def current(self) -> tuple[int, bytes]:
        snapshot = self._read()  # one reference read: a whole snapshot
        if snapshot is self._seen:
            return self._versions.version, self._versions.body
        self._seen = snapshot
        if isinstance(snapshot, Snapshot):
            return self._versions.put(snapshot_view(snapshot))
        return self._versions.put(lobby_view(snapshot))


class ReplayFeed:
    """A finished (or unfinished) game's steps, shown one position at a time: ``step`` moves
    it for every viewer at once (one screen, one presenter). What the last move changed is
    marked, as the terminal's replay marks it."""

    def __init__(self, table: ReplayTable, colours: Sequence[str]) -> None:
        self._table = table
        self._players = list(zip(table.names, colours, strict=True))
        self._before: GameState | None = None
        self._said = len(table.history)  # log lines before the last move
        self._versions = _Versions()
        self._stale = True  # moved since the view was built

    def current(self) -> tuple[int, bytes]:
        table = self._table
        pos, total = table.position
        if not self._stale:
            return self._versions.version, self._versions.body
        self._stale = False
        history = table.history
        recent = max(0, len(history) - self._said)
        view = board_view(table.state, self._players, before=self._before, history=history,
                          recent=recent, status=f"replay: step {pos} of {total}")
        view["replay"] = {"position": pos, "total": total}
        return self._versions.put(view)

    def step(self, by: str, delta: int) -> None:
        """Move ``delta`` (negative: back) actions, turns or rounds (:data:`STEPS`); clamped
        to the game. ValueError for another ``by``."""
        if by not in STEPS:
            raise ValueError(f"step by {by!r}: one of {', '.join(STEPS)}")
        table = self._table
        before, said = table.state, len(table.history)
        if by == "action":
            table.step(delta)
        elif by == "turn":
            table.step_turn(delta)
        else:
            for _ in range(abs(delta)):
                self._round(1 if delta > 0 else -1)
        if table.state is not before:
            self._before, self._said = before, min(said, len(table.history))
            self._stale = True

    def _round(self, sign: int) -> None:
        """To the start of the next round (sign 1), or back to the start of this round (of
        the one before, when at its start already): turn by turn until the phase or round
        changes."""
        table = self._table

        def where() -> tuple[int, int, bool]:
            state = table.state
            return state.phase, state.round, state.is_over

        def back_one() -> bool:
            pos = table.position[0]
            table.step_turn(-1)
            return table.position[0] != pos

        if sign > 0:
            start = where()
            while where() == start:
                pos = table.position[0]
                table.step_turn(1)
                if table.position[0] == pos:
                    return
            return
        if not back_one():
            return
        here = where()
        while back_one():
            if where() != here:
                table.step_turn(1)
                return


__all__ = ["STEPS", "Feed", "LiveFeed", "ReplayFeed", "encode"]
