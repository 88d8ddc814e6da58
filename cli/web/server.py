"""The big screen's web server (aiohttp): the page, its data, and a stream of new views.

Routes, all read-only except a replay's stepping:

- ``GET /``, ``GET /app.js``, ``GET /style.css``: the page (package data, no build step);
- ``GET /view``: the latest view as JSON;
- ``GET /events``: server-sent events, one ``data:`` line of JSON per new view (the latest
  at once on connecting), a comment every :data:`KEEPALIVE` seconds;
- ``POST /step`` (replays only): move the replay (``by``: action, turn or round;
  ``delta``: a whole number), for every viewer.

One task watches the feed every :data:`WATCH_EVERY` seconds and wakes every stream when the
view changed, so each view is built and encoded once however many watch. The server binds
only to the address and port it is given; it runs on
whatever asyncio loop starts it (the peer's own loop in the terminal client, so the feed
reads the peer's snapshots on the thread that publishes them).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from importlib import resources

from aiohttp import web

from .feed import Feed, ReplayFeed

log = logging.getLogger("p2p_burgundy.web")

WATCH_EVERY = 0.05
"""Seconds between two looks at the feed: a turn shows on the page well within 0.5 s."""
KEEPALIVE = 15.0
"""Seconds of quiet after which a stream gets a comment (proxies and phones drop idle ones)."""
MAX_VIEWERS = 200
"""Streams served at once; more are refused (503) so that a runaway client cannot starve the
game's own loop."""
STATIC = {"": ("index.html", "text/html"), "app.js": ("app.js", "text/javascript"),
          "style.css": ("style.css", "text/css")}
"""The page's files by path, with their content types."""
HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "frame-ancestors 'none'; form-action 'none'",
}


def page_files() -> dict[str, tuple[bytes, str]]:
    """The page's files (read once from the package) by path, with their content types."""
    folder = resources.files(__package__) / "static"
    return {path: ((folder / name).read_bytes(), kind) for path, (name, kind) in STATIC.items()}


class WebServer:
    """Serves ``feed`` on ``host``:``port`` (``port`` 0: any free one, for tests)."""

    def __init__(self, feed: Feed, host: str, port: int) -> None:
        self.feed = feed
        self.host = host
        self.port = port
        self._files = page_files()
        self._version, self._body = feed.current()
        self._changed = asyncio.Condition()
        self._viewers = 0
        self._closing = False
        self._runner: web.AppRunner | None = None
        self._watcher: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        """Where a browser opens the page."""
        return f"http://{self.host}:{self.port}/"

    @property
    def viewers(self) -> int:
        """Streams open now."""
        return self._viewers

    async def start(self) -> str:
        """Bind and serve; the page's address. OSError if the address cannot be bound."""
        app = web.Application()
        app.router.add_get("/view", self._view)
        app.router.add_get("/events", self._events)
        if isinstance(self.feed, ReplayFeed):
            app.router.add_post("/step", self._step)
        for path in self._files:
            app.router.add_get(f"/{path}", self._file)
        runner = web.AppRunner(app, access_log=None, handle_signals=False,
                               shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        if self.port == 0:
            self.port = runner.addresses[0][1]
        self._watcher = asyncio.ensure_future(self._watch())
        return self.url

    async def close(self) -> None:
        """Stop serving: every stream ends, the port is free again."""
        self._closing = True
        async with self._changed:
            self._changed.notify_all()
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
        if self._runner is not None:
            await self._runner.cleanup()

    async def refresh(self) -> None:
        """Look at the feed now; wake every stream if the view changed."""
        version, body = self.feed.current()
        if version != self._version:
            self._version, self._body = version, body
            async with self._changed:
                self._changed.notify_all()

    async def _watch(self) -> None:
        while True:
            try:
                await self.refresh()
            except Exception:  # a view that cannot be built: the page keeps the last one
                log.exception("the big screen's view could not be built")
            await asyncio.sleep(WATCH_EVERY)

    # --- handlers ------------------------------------------------------------------------

    async def _file(self, request: web.Request) -> web.Response:
        body, kind = self._files[request.path.lstrip("/")]
        return web.Response(body=body, content_type=kind, charset="utf-8", headers=HEADERS)

    async def _view(self, _request: web.Request) -> web.Response:
        return web.Response(body=self._body, content_type="application/json", headers=HEADERS)

    async def _step(self, request: web.Request) -> web.Response:
        assert isinstance(self.feed, ReplayFeed)
        form = await request.post()
        by, delta = form.get("by"), form.get("delta")
        if not isinstance(by, str) or not isinstance(delta, str) \
                or not delta.lstrip("-").isdigit() or len(delta) > 6:
            raise web.HTTPBadRequest(text="give by (action, turn or round) and delta (a whole "
                                          "number)")
        try:
            self.feed.step(by, int(delta))
        except ValueError as exc:
            raise web.HTTPBadRequest(text=str(exc)) from None
        await self.refresh()
        return web.Response(status=204, headers=HEADERS)

    async def _events(self, request: web.Request) -> web.StreamResponse:
        if self._viewers >= MAX_VIEWERS:
            raise web.HTTPServiceUnavailable(text="too many viewers")
        response = web.StreamResponse(headers={**HEADERS, "Content-Type": "text/event-stream"})
        self._viewers += 1
        try:
            await response.prepare(request)
            sent = -1
            while not self._closing:
                if sent != self._version:
                    sent = self._version
                    await response.write(b"data: " + self._body + b"\n\n")
                    continue
                async with self._changed:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._changed.wait(), KEEPALIVE)
                if sent == self._version and not self._closing:
                    await response.write(b": still here\n\n")
        except ConnectionResetError:
            pass  # the viewer left
        finally:
            self._viewers -= 1
        return response


__all__ = ["WebServer"]
