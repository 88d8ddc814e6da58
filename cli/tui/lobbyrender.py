"""The screens before a networked game, drawn: a :class:`~.lobbymodel.LobbyModel` as styled
lines on a :class:`~.render.Canvas` (the rows of the tables page are click targets). Pure,
like :mod:`.render`: no curses, no network.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from p2p_burgundy.config import MODULE_ORDER
from p2p_burgundy.variants import MODULES_BY_NAME

from ..web.qr import qr_lines
from .layout import MIN_HEIGHT, MIN_WIDTH, Dim
from .lobbymodel import (
    ACTION_TEXT,
    ACTIONS,
    CLOCKS,
    EDITIONS,
    TABLE_KEYS,
    LobbyModel,
    Page,
    lobby_footer,
    lobby_keys,
    start_hint,
)
from .render import Canvas, Line, Seg, Style, fit, footer_line, too_small_lines
from .table import clean_name

ACTION_KEYS = {"bots": "b", "host": "h", "address": "a", "learn": "l"}

PAGE_HELP: dict[Page, tuple[str, ...]] = {
    Page.TABLES: (
        "Tables hosted on this LAN appear here, live, as they are announced.",
        "Join one by its number (or arrows and Enter). Nobody around? Play against bots",
        "on this computer (b), or host a table (h) and tell the others its address.",
        "If your network drops multicast, tables cannot be seen: join by address (a).",
        "New to the game? l plays a guided first game against a bot.",
    ),
    Page.HOST: (
        "Choose the seats (2 to 4), the rulebook edition, whether players may ask a bot",
        "for hints (everyone sees it), a game clock (c: minutes each + seconds a turn; a",
        "player out of time may be handed to the stand-in at once), and the 2019",
        "expansion modules: Up/Down picks one, Space switches it, m switches them all",
        "(they need the 2019 edition). Enter opens the table: it is announced on the",
        "LAN, and anyone can join it by address too.",
        "w: the big screen, a read-only web page of the game for a TV or phones, served",
        "from this computer when the table opens (its address and QR code show then).",
    ),
    Page.BOTS: (
        "Each bot is a peer of its own on this computer, talking over loopback: the game",
        "runs exactly as it would on the LAN. Choose 1 to 3 bots.",
    ),
    Page.ADDRESS: (
        "Type the address and port the host's screen shows (for example",
        "192.168.1.20:40123), then Enter.",
    ),
    Page.LOBBY: (
        "Everyone at the table is listed with a key fingerprint. The table code appears",
        "when the host starts the game: read it aloud; when everyone sees the same code,",
        "nobody is in the middle. Press r when you are ready; the host starts once every",
        "seat is taken and everyone is ready, or fills the free seats with bots (b), and",
        "removes a member with x and its seat number. Whoever is silent for 10 s, or does",
        "not accept the start in 10 s, loses its seat. w shows the address (and a QR",
        "code) of the big screen: the whole table, read-only, in any browser on the LAN.",
    ),
    Page.EDIT: ("Type the name the others will see (at most 16 characters), then Enter.",),
}
"""What each lobby page is for, shown above its keys by ``?``."""


def render_lobby(model: LobbyModel, width: int, height: int) -> Canvas:
    """The whole lobby screen for ``model`` at this size.

    >>> from p2p_burgundy.cli.tui.lobbymodel import LobbyView
    >>> model = LobbyModel("Ann", "red", "6r9h-etv0-q9se-9prt")
    >>> model.update(LobbyView(mdns=False))
    >>> [line.rstrip() for line in render_lobby(model, 80, 24).text()][3]
    '  mDNS is off: join a table by its address (a), or host one (h) and give yours.'
    """
    canvas = Canvas(width, height)
    model.too_small = width < MIN_WIDTH or height < MIN_HEIGHT
    if model.too_small:
        canvas.draw(Dim(0, 0, height, width), too_small_lines(width, height))
        return canvas
    page = model.under if model.page == Page.EDIT else model.page
    title = {Page.TABLES: "The Castles of Burgundy on the LAN",
             Page.HOST: "Host a table", Page.BOTS: "Play against bots",
             Page.ADDRESS: "Join a table by address", Page.LOBBY: "At the table"}[page]
    me = f" you: {model.name} ({model.colour}) [{model.fingerprint}] "
    room = width - len(me) if len(title) + 1 + len(me) <= width else width
    bar = fit(f" {title}", room).ljust(room) + (me if room < width else "")
    canvas.put(0, 0, [Seg(bar, Style.BAR)])
    if model.helping:
        body = help_lines(model, title, width)
    elif model.showing_web and page == Page.LOBBY:
        body = web_lines(model.web, width)
    else:
        body = {Page.TABLES: tables_lines, Page.HOST: host_lines, Page.BOTS: bots_lines,
                Page.ADDRESS: address_lines, Page.LOBBY: table_lines}[page](model, width)
    canvas.draw(Dim(2, 0, height - 4, width), body)
    canvas.put(height - 2, 0, _message(model, width))
    canvas.put(height - 1, 0, footer_line(lobby_footer(model), width))
    return canvas


def help_lines(model: LobbyModel, title: str, width: int) -> list[Line]:
    """The help page of the current page: what it is for and the keys that work on it."""
    saved, model.helping = model.helping, False
    keys = ", ".join(f"{key} {label}" for key, label in lobby_keys(model))
    model.helping = saved
    lines: list[Line] = [[Seg(fit(f"Help: {title}", width), Style.TITLE)], []]
    lines += [[Seg(fit(line, width))] for line in PAGE_HELP[model.page]]
    lines.append([])
    lines += [[Seg(line)] for line in textwrap.wrap(f"Keys: {keys}", width,
                                                     subsequent_indent="  ")]
    lines += [[], [Seg("? or Esc goes back.", Style.DIM)]]
    return lines


def _message(model: LobbyModel, width: int) -> Line:
    if model.page == Page.EDIT:
        return [Seg("Your name: ", Style.BOLD), Seg(model.typing + "_"),
                Seg("  (Enter sets it, Esc cancels)", Style.DIM)]
    return [Seg(fit(model.message, width))]


def tables_lines(model: LobbyModel, width: int) -> list[Line]:
    """The tables found on the LAN, then the other things to do."""
    view = model.view
    lines: list[Line] = []
    if model.first:
        lines += [[Seg(fit("New here? l starts a guided first game against a bot (burgundy "
                           "learn).", width), Style.BOLD)], []]
    lines.append([Seg("Tables on the LAN (live):", Style.TITLE)])
    for i, table in enumerate(view.tables):
        key = TABLE_KEYS[i] if i < len(TABLE_KEYS) else " "
        lines.append(_row(key, table.label, model.selected == table.instance, width, i))
    if not view.tables:
        if view.mdns:
            lines.append([Seg("  none yet: listening for tables announced on the LAN...",
                              Style.DIM)])
            lines.append([Seg(fit("  Nobody else around? b plays against bots here; h hosts "
                                  "a table.", width))])
        else:
            lines.append([Seg(fit("  mDNS is off: join a table by its address (a), or host "
                                  "one (h) and give yours.", width))])
    lines += [[], [Seg("Or:", Style.TITLE)]]
    for i, action in enumerate(ACTIONS):
        lines.append(_row(ACTION_KEYS[action], ACTION_TEXT[action], model.selected == action,
                          width, len(view.tables) + i))
    lines += [[], [Seg(fit(f"You play as {model.name} ({model.colour}): n changes the name, "
                           "k the colour.", width), Style.DIM)],
              [Seg(fit(f"Your key's fingerprint is {model.fingerprint}: others see it next "
                       "to your name.", width), Style.DIM)]]
    return lines


def _row(key: str, label: str, cursor: bool, width: int, row: int) -> Line:
    """A row of the tables page; a click on it chooses ``row`` of :meth:`LobbyModel.rows`."""
    if cursor:
        return [Seg(fit(f"> {key}  {label}", width).ljust(width), Style.CURSOR, row)]
    return [Seg("  ", target=row), Seg(key, Style.KEY, row),
            Seg(fit(f"  {label}", width - 3), target=row)]


def _choices(values: Sequence[str], current: str) -> list[Seg]:
    return [Seg(f" {v} ", Style.CURSOR if v == current else Style.NORMAL) for v in values]


def host_lines(model: LobbyModel, width: int) -> list[Line]:
    """The form of a new table: players and edition."""
    return [
        [Seg("Players:  "), *_choices(("2", "3", "4"), str(model.players)),
         Seg("   (2 3 4, or Left/Right)", Style.DIM)],
        [],
        [Seg("Edition:  "), *_choices(EDITIONS, model.edition),
         Seg("   (e switches; they differ in knowledge tiles 6, 15, 26)", Style.DIM)],
        [],
        [Seg("Hints:    "), *_choices(("off", "on"), "on" if model.hints else "off"),
         Seg(fit("   (t switches: may players ask a bot what it would do?)", width - 18),
             Style.DIM)],
        [Seg("Clock:    "), *_choices(["off", *map(str, CLOCKS[1:])], str(model.clock or "off")),
         Seg(fit("   (c switches: minutes each + seconds a turn)", width - 34), Style.DIM)],
        [Seg("Web page: "), *_choices(("off", "on"), "on" if model.web_wanted else "off"),
         Seg(fit("   (w switches: a web page of the game for a TV or phones)",
                 width - 18), Style.DIM)],
        [Seg("Modules:"), Seg(fit("   (2019 edition; Up/Down, Space switches, m: all or none)",
                                  width - 8), Style.DIM)],
        *module_lines(model, width),
        [],
        [Seg(fit("Enter opens the table: it is announced on the LAN, and anyone can also "
                 "join it", width))],
        [Seg(fit("by its address. Esc goes back.", width))],
    ]


def module_lines(model: LobbyModel, width: int) -> list[Line]:
    """One row per module: on or off, its name and what it does (the cursor on one)."""
    lines = []
    for i, module in enumerate(MODULE_ORDER):
        mark = "[x]" if module in model.modules else "[ ]"
        style = Style.CURSOR if i == model.module_cursor else Style.NORMAL
        lines.append([Seg(" "), Seg(f"{mark} {module.value:<14}", style),
                      Seg(fit(f" {MODULES_BY_NAME[module.value].summary}", width - 20), Style.DIM)])
    return lines


def bots_lines(model: LobbyModel, width: int) -> list[Line]:
    """How many bots: each one a real peer on this computer, over loopback."""
    return [
        [Seg("Bots:  "), *_choices(("1", "2", "3"), str(model.bots)),
         Seg("   (1 2 3, or Left/Right and Enter)", Style.DIM)],
        [],
        [Seg(fit("Each bot is a headless peer on this computer (its own key, over "
                 "loopback):", width))],
        [Seg(fit("the game runs exactly as on the LAN. Esc goes back.", width))],
    ]


def address_lines(model: LobbyModel, width: int) -> list[Line]:
    """Typing host:port."""
    return [
        [Seg("Address: ", Style.BOLD), Seg(fit(model.typing + "_", width - 10), Style.CURSOR)],
        [],
        *([Seg(line)] for line in textwrap.wrap(
            "Type the host's address and port, as its screen shows it (for example "
            "192.168.1.20:40123), then Enter. This works where the LAN drops multicast. "
            "Esc goes back.", width)),
    ]


WEB_NOTES = ("The whole table, read-only,", "in any browser on the LAN:",
             "type the address above, or", "scan this code with a phone.", "",
             "w: back to the table")
"""What the big screen's page says beside its QR code (beside, not below: the code of the
longest address, an IPv6 one, is 19 lines, and the page must fit 80x24 whole)."""


def web_lines(url: str | None, width: int) -> list[Line]:
    """The big screen's address and its QR code (a phone's camera opens it)."""
    if url is None:
        return [[Seg("Starting the web page...", Style.TITLE)]]
    lines: list[Line] = [[Seg(fit(f"The big screen: {url}", width), Style.TITLE)]]
    code = qr_lines(url)
    notes = [*WEB_NOTES, *[""] * (len(code) - len(WEB_NOTES))]
    for row, note in zip(code, notes, strict=False):
        lines.append([Seg(f"  {row}  "), Seg(fit(note, width - len(row) - 4), Style.DIM)])
    return lines


def table_lines(model: LobbyModel, width: int) -> list[Line]:
    """At a table: where, the table code, every member with fingerprint and readiness."""
    at = model.view.table
    if at is None:
        return [[Seg("Opening the table...")]]
    where = f"{at.address[0]}:{at.address[1]}"
    if at.silent is not None:  # who went silent, and what to check, in full
        return [[Seg(fit(f"Connecting to the table at {where}...", width), Style.TITLE)], [],
                *([Seg(line, Style.BOLD)] for line in textwrap.wrap(at.silent + ".", width)),
                [], [Seg(fit("Esc gives up.", width), Style.DIM)]]
    if not at.admitted:
        return [[Seg(fit(f"Connecting to the table at {where}...", width), Style.TITLE)], [],
                [Seg(fit("Waiting for the host to prove its key and let us in "
                         "(Esc gives up).", width), Style.DIM)]]
    host = next((m.name for m in at.members), "?")
    head = (f"Your table: {len(at.members)} of {at.seats} seats, {at.edition} rules. "
            f"Others join at {where}") if at.hosting else \
        (f"{host}'s table at {where}: {len(at.members)} of {at.seats} seats, "
         f"{at.edition} rules")
    lines: list[Line] = [[Seg(fit(head, width), Style.TITLE)]]
    if at.extras:
        lines.append([Seg(fit(at.extras, width), Style.BOLD)])
    if at.code is None:  # made from everyone's keys and commitments when the game starts
        lines.append([Seg("Table code: "), Seg(fit("appears when the host starts the game; "
                                                   "then read it aloud", width - 12),
                                               Style.DIM)])
    else:
        lines.append([Seg("Table code: "), Seg(at.code, Style.BOLD),
                      Seg(fit("  (read it aloud: everyone must see the same code)",
                              width - 12 - len(at.code)), Style.DIM)])
    lines.append([])
    lines.append([Seg(fit(f"  {'seat':<6}{'name':<18}{'colour':<8}{'key fingerprint':<22}"
                          "ready", width), Style.BOLD)])
    for seat in range(max(at.seats, len(at.members))):
        if seat >= len(at.members):
            lines.append([Seg(f"  {seat + 1:<6}(free)", Style.DIM)])
            continue
        m = at.members[seat]
        tags = [t for t, on in (("host", seat == 0), ("you", m.fingerprint == model.fingerprint))
                if on]
        name = clean_name(m.name, "?") + (f" ({', '.join(tags)})" if tags else "")
        ready = "ready" if m.ready else "not ready"
        row = f"  {seat + 1:<6}{fit(name, 17):<18}{m.colour:<8}{m.fingerprint:<22}{ready}"
        lines.append([Seg(fit(row, width), Style.NORMAL if m.ready else Style.DIM)])
    lines.append([])
    lines.append([Seg(fit(start_hint(at), width), Style.BOLD)])
    if not at.hosting and not at.closed:
        mine = next((m for m in at.members if m.fingerprint == model.fingerprint), None)
        if mine is not None and not mine.ready:
            lines.append([Seg(fit("Press r when you are ready.", width))])
    return lines


__all__ = ["render_lobby", "web_lines"]
