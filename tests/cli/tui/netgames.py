"""Networked games in this process for the client's tests: real peers on loopback sockets
(a :class:`~p2p_burgundy.cli.netplay.PeerThread`), bots in every seat, no terminal."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from p2p_burgundy import legal_actions
from p2p_burgundy.cli.lan import compose_turn
from p2p_burgundy.cli.netplay import NetTable, PeerThread, quick_bot_game
from p2p_burgundy.cli.strategies import make
from p2p_burgundy.config import Setup


def wait_until(thread: PeerThread, done: Callable[[], bool], timeout: float = 10.0,
               what: str = "the condition") -> None:
    """Wait (on the peer's own change notifications) until ``done()``; fail after
    ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout} s"
        assert thread.peer is not None
        thread.call(thread.peer.changed(0.1))


def play_out(thread: PeerThread, table: NetTable, seed: int = 1, timeout: float = 60.0) -> None:
    """A greedy bot plays our seat of ``table`` until the game is over."""
    play_until(thread, table, lambda: table.state.is_over, "the end of the game", seed, timeout)


def play_until(thread: PeerThread, table: NetTable, done: Callable[[], bool], what: str,
               seed: int = 1, timeout: float = 60.0) -> None:
    """A greedy bot plays our seat of ``table`` whenever the game waits for it, until
    ``done()``, which is checked right after a poll (the table has shown everything)."""
    bot = make("greedy", seed)

    def step() -> bool:
        table.poll()
        snapshot = table.snapshot
        if done():
            return True
        if snapshot.choice_due:  # a secret set-up choice: NetTable shows us choosing
            state = table.state
            table.submit_turn([bot.choose(state, legal_actions(state))])
        elif snapshot.my_turn and table.state.to_move == table.my_seat:
            table.submit_turn(compose_turn(snapshot.state, bot))
        return False  # poll what our move brought before deciding

    wait_until(thread, step, timeout, what)


ExpertsGame = Callable[[Setup], tuple[NetTable, Path]]
"""The played game of a set-up (the ``experts_game`` fixture): its table, peers closed, and
our game file."""


def bot_game(home: Path, bots: int = 1, name: str = "Ann",
             setup: Setup = Setup.STANDARD) -> tuple[NetTable, Path]:
    """A whole game at a loopback table against ``bots`` local bot peers, played out; the
    table (peers closed) and our game file."""
    thread, table = quick_bot_game(home, bots, name, setup=setup)
    try:
        play_out(thread, table)
    finally:
        thread.close()
    files = sorted((home / "games").glob("*.game"))
    assert len(files) == 1, files
    return table, files[0]
