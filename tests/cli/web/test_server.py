"""The big screen's server (cli/web/server.py) on loopback: the page and its data, a new view
streamed within half a second, nothing that acts on a game, only the address it was given."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Awaitable, Callable

import aiohttp
import pytest

from p2p_burgundy.cli.tui.table import ReplayTable
from p2p_burgundy.cli.web.feed import LiveFeed, ReplayFeed
from p2p_burgundy.cli.web.server import WebServer
from p2p_burgundy.cli.web.view import as_step
from p2p_burgundy.net.inmemory import Table
from p2p_burgundy.net.snapshot import LobbySnapshot, Snapshot, Snapshots

Source = list[Snapshot | LobbySnapshot | None]


def serve(feed: LiveFeed | ReplayFeed, host: str = "127.0.0.1",
          test: Callable[[WebServer, aiohttp.ClientSession], Awaitable[None]] | None = None
          ) -> None:
    async def go() -> None:
        server = WebServer(feed, host, 0)
        await server.start()
        try:
            async with aiohttp.ClientSession() as client:
                assert test is not None
                await test(server, client)
        finally:
            await server.close()

    asyncio.run(go())


async def first_event(response: aiohttp.ClientResponse) -> dict[str, object]:
    async for line in response.content:
        if line.startswith(b"data: "):
            return json.loads(line[6:])  # type: ignore[no-any-return]  # a view is an object
    raise AssertionError("the stream ended")


def game() -> tuple[Table, Snapshots, Source]:
    table = Table(2, seed=1)
    snapshots = Snapshots(table.sessions[0])
    table.pump()
    return table, snapshots, [snapshots.take(missing=[])]


def test_the_page_and_its_files_are_served_with_a_strict_policy() -> None:
    _, _, source = game()

    async def test(server: WebServer, client: aiohttp.ClientSession) -> None:
        for path, kind in (("", "text/html"), ("app.js", "text/javascript"),
                           ("style.css", "text/css")):
            async with client.get(server.url + path) as response:
                assert response.status == 200 and response.content_type == kind
                assert response.headers["Content-Security-Policy"].startswith(
                    "default-src 'self'")
                assert response.headers["Cache-Control"] == "no-store"
        async with client.get(server.url) as response:
            assert '<script src="app.js" defer></script>' in await response.text()
        async with client.get(server.url + "view") as response:
            view = await response.json()
            assert (view["title"], view["status"]) == ("Phase A, round 1 of 5", "Ann's turn")
        async with client.get(server.url + "../cli/web/server.py") as response:
            assert response.status == 404

    serve(LiveFeed(lambda: source[0]), test=test)


def test_nothing_on_a_live_page_acts_on_the_game() -> None:
    """Every route but the page's reads is refused: a live game's page cannot step, post,
    or put anything, and a replay's stepping is refused with the reason when malformed."""
    _, _, source = game()

    async def test(server: WebServer, client: aiohttp.ClientSession) -> None:
        for method, path in (("POST", "step"), ("POST", "view"), ("PUT", "view"),
                             ("DELETE", "events"), ("POST", "")):
            async with client.request(method, server.url + path) as response:
                assert response.status in (404, 405), (method, path)

    serve(LiveFeed(lambda: source[0]), test=test)


def test_a_turn_reaches_every_open_stream_within_half_a_second() -> None:
    table, snapshots, source = game()

    async def test(server: WebServer, client: aiohttp.ClientSession) -> None:
        streams = [await client.get(server.url + "events") for _ in range(3)]
        firsts = [await first_event(s) for s in streams]
        assert {f["status"] for f in firsts} == {"Ann's turn"} and server.viewers == 3
        table.play(turns=1)
        published = time.monotonic()
        source[0] = snapshots.take(missing=[])  # the peer publishes its next snapshot
        seconds = []
        for stream in streams:
            view = await asyncio.wait_for(first_event(stream), 5)
            seconds.append(time.monotonic() - published)
            assert (view["status"], view["mover"]) == ("Bob's turn", 0)
        assert max(seconds) < 0.5, seconds
        for stream in streams:
            stream.close()

    serve(LiveFeed(lambda: source[0]), test=test)


def test_before_the_game_the_page_waits_and_then_shows_it() -> None:
    source: Source = [None]
    started = game()[2]

    async def test(server: WebServer, client: aiohttp.ClientSession) -> None:
        async with client.get(server.url + "events") as stream:
            assert (await first_event(stream))["status"] == "waiting for a table"
            source[0] = started[0]
            assert (await first_event(stream))["title"] == "Phase A, round 1 of 5"

    serve(LiveFeed(lambda: source[0]), test=test)


def test_a_replay_is_stepped_from_the_page_for_every_viewer() -> None:
    table, _, _ = game()
    table.play(turns=4)
    session = table.sessions[0]
    replay = ReplayTable(session.config, [as_step(s) for s in session.history], ["Ann", "Bob"])
    replay.step(-replay.position[1])
    feed = ReplayFeed(replay, ["red", "blue"])

    async def test(server: WebServer, client: aiohttp.ClientSession) -> None:
        async with client.get(server.url + "events") as stream:
            assert (await first_event(stream))["replay"]["position"] == 0
            async with client.post(server.url + "step", data={"by": "turn", "delta": "3"}) as r:
                assert r.status == 204
            assert (await first_event(stream))["replay"]["position"] == 3
            for form, reason in (({"by": "phase", "delta": "1"},
                                  "step by 'phase': one of action, turn, round"),
                                 ({"by": "turn", "delta": "x"},
                                  "give by (action, turn or round) and delta (a whole number)"),
                                 ({"by": "turn"},
                                  "give by (action, turn or round) and delta (a whole number)")):
                async with client.post(server.url + "step", data=form) as r:
                    assert (r.status, await r.text()) == (400, reason)
            async with client.get(server.url + "view") as r:
                assert (await r.json())["replay"]["position"] == 3

    serve(feed, test=test)


def test_the_server_listens_only_on_the_address_it_was_given() -> None:
    _, _, source = game()

    async def test(server: WebServer, client: aiohttp.ClientSession) -> None:
        async with client.get(server.url + "view") as response:
            assert response.status == 200
        with pytest.raises(ConnectionRefusedError), socket.create_connection(
                ("127.0.0.1", server.port), timeout=2):
            pass

    serve(LiveFeed(lambda: source[0]), host="127.0.0.2", test=test)
