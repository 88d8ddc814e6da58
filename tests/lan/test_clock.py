"""The table's rule for a player out of time, played over loopback: a headless bot hands
a seat whose time has run out to the stand-in at once, though its player is still there
(heard from all along), and the game goes on with the stand-in playing that seat."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from p2p_burgundy.cli.lan import play_headless
from p2p_burgundy.cli.loopback import close_all, open_table
from p2p_burgundy.cli.strategies import make
from p2p_burgundy.net.clock import TimeControl
from p2p_burgundy.net.events import TurnApplied
from p2p_burgundy.net.tablerules import TableRules

SECONDS = 3


@pytest.mark.slow
def test_a_player_out_of_time_is_handed_to_the_stand_in_at_once(tmp_path: Path) -> None:
    async def run() -> None:
        # Seat 0 has a second more with each turn: its bot never runs out.
        peers, _ = await open_table(tmp_path, 2, rules=TableRules(clock=TimeControl(SECONDS, 1)))
        quick, idle = peers  # idle: its peer runs (it answers), its player never moves
        try:
            loop = asyncio.get_running_loop()
            bot = asyncio.create_task(play_headless(quick, make("random", 1), timeout=60))
            session = quick.session
            assert session is not None
            while True:
                waiting = session.waiting_for()
                if waiting is not None and waiting.what == "turn" and waiting.seats == (1,):
                    break
                await quick.changed(0.1)
            since = loop.time()  # the game waits for the idle seat's turn from here
            while 1 not in session.forfeits:
                assert not bot.done(), bot
                assert loop.time() - since < 30, session.waiting_for()
                await quick.changed(0.1)
            waited = loop.time() - since
            assert SECONDS - 0.5 <= waited < SECONDS + 5, waited
            assert not idle.missing() and 1 not in quick.missing()  # not silent: out of time
            step = session.forfeits[1]
            while not any(isinstance(e, TurnApplied) and e.mover == 1 and e.seat is None
                          for e in session.history[step:]):
                assert not bot.done(), bot
                await quick.changed(0.1)  # the stand-in plays the seat on
            assert 0 not in session.forfeits
            bot.cancel()
        finally:
            await close_all(peers)

    asyncio.run(run())
