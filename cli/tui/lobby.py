"""The screens before a networked game: the tables on the LAN, hosting, joining, the lobby.

Like :mod:`.model` and :mod:`.render`, nothing here touches curses or the network. The
runner (:mod:`.netcommand`) hands the model a :class:`LobbyView` (what the peer knows now)
before each frame; key handlers change the model and may return a :data:`LobbyCommand` for
the runner to carry out; :func:`render_lobby` draws the model on a
:class:`~.render.Canvas`. Keys are data: :data:`LOBBY_KEYMAP`.

>>> model = LobbyModel("Ann", "red", "6r9h-etv0-q9se-9prt")
>>> model.update(LobbyView(tables=(), mdns=True))
>>> model.selected, [text for key, text in model.rows()][:3]
('bots', ['play against bots on this computer', 'host a new table on the LAN', \
'join a table by address (host:port)'])
>>> dispatch_lobby(model, "h"); model.page
<Page.HOST: 'host'>
>>> dispatch_lobby(model, "KEY_RIGHT"); dispatch_lobby(model, "^J")
Host(players=3, edition='2011', estate=None, setup=None, modules=(), board=None, hints=False)
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from p2p_burgundy.config import MODULE_ORDER, Module, Setup
from p2p_burgundy.estate import Estate
from p2p_burgundy.net.discovery import TableInfo
from p2p_burgundy.net.errors import AddressError
from p2p_burgundy.net.lobby import Member
from p2p_burgundy.net.start import COLOURS

from ..lan import parse_address
from .layout import MIN_HEIGHT, MIN_WIDTH, Dim
from .render import Canvas, Line, Seg, Style, fit, footer_line, too_small_lines
from .table import clean_name

EDITIONS = ("2011", "2019")
MODULE_TEXT: dict[Module, str] = {
    Module.EXTRA_TILES: "monasteries #27 #28, the crane, the geese",
    Module.WHITE_CASTLES: "8 white castles: an action with the white die",
    Module.INNS: "an inn a phase: its area scores one size bigger",
    Module.TRADE_ROUTES: "sold goods laid on a route of bonuses",
    Module.SHIELDS: "18 shields: taken on a double, an ability each",
}
"""What each 2019 expansion module does, in a line of the host page."""
ACTIONS = ("bots", "host", "address", "learn")
ACTION_TEXT = {"bots": "play against bots on this computer",
               "learn": "learn to play: a guided first game against a bot",
               "host": "host a new table on the LAN",
               "address": "join a table by address (host:port)"}
ACTION_KEYS = {"bots": "b", "host": "h", "address": "a", "learn": "l"}
TABLE_KEYS = "123456789"


class Page(Enum):
    """Which screen is showing (each has its own keys in :data:`LOBBY_KEYMAP`)."""

    TABLES = "tables"  # the tables on the LAN, and what else to do
    HOST = "host"  # players and edition of a new table
    BOTS = "bots"  # how many bots to play against
    ADDRESS = "address"  # typing host:port
    LOBBY = "lobby"  # at a table: members, readiness, start
    EDIT = "edit"  # typing our name (over the page underneath)
    TOO_SMALL = "too_small"


# --- what the runner is asked to do ---------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Host:
    """Open a table for ``players`` with the rules of ``edition``."""

    players: int
    edition: str
    estate: str | None = None  # everyone on this estate (default 1)
    setup: Setup | None = None  # or the experts' set-up
    modules: tuple[Module, ...] = ()  # the 2019 expansion modules
    board: Estate | None = None  # everyone on this board of one's own (--estate-file)
    hints: bool = False  # players may ask a bot what it would do


@dataclass(frozen=True, slots=True)
class Join:
    """Ask the table at ``target`` (an announced table, or host:port) for a seat."""

    target: TableInfo | tuple[str, int]


@dataclass(frozen=True, slots=True)
class PlayBots:
    """Leave the lobby screens for a game against ``count`` local bots."""

    count: int


@dataclass(frozen=True, slots=True)
class Learn:
    """Leave the lobby screens for the guided first game (``burgundy learn``)."""


@dataclass(frozen=True, slots=True)
class SetMe:
    """Tell the table our name, colour and readiness."""

    name: str
    colour: str
    ready: bool


@dataclass(frozen=True, slots=True)
class Start:
    """Host: start the game (the table is full and everyone is ready)."""


@dataclass(frozen=True, slots=True)
class AddBots:
    """Host: local bot peers take every free seat."""


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave the table (the game has not started)."""


@dataclass(frozen=True, slots=True)
class QuitLobby:
    """Leave the program."""


LobbyCommand = Host | Join | PlayBots | Learn | SetMe | Start | AddBots | Leave | QuitLobby


# --- what the runner tells the model -----------------------------------------------------

@dataclass(frozen=True, slots=True)
class AtTable:
    """The table we host or joined, as our peer knows it now."""

    hosting: bool
    address: tuple[str, int]  # where others join us (host), or the host we joined
    members: tuple[Member, ...] = ()
    seats: int = 0
    edition: str = ""
    extras: str = ""  # the expansion modules and the estates, when not the defaults
    code: str | None = None
    admitted: bool = False  # we are in the roster (a host always is)
    can_start: bool = False
    closed: bool = False  # the host proposed the start
    free: int = 0  # seats nobody holds or is on the way to
    refused: str | None = None  # why the table refused us or closed
    silent: str | None = None  # the host has not answered for a while: who, and what to check


@dataclass(frozen=True, slots=True)
class LobbyView:
    """Everything the lobby screens show that comes from the network."""

    tables: tuple[TableInfo, ...] = ()
    mdns: bool = True
    table: AtTable | None = None


# --- the model ----------------------------------------------------------------------------

@dataclass(slots=True)
class LobbyModel:
    """The lobby screens' state; handlers return a :data:`LobbyCommand` or None."""

    name: str
    colour: str
    fingerprint: str
    page: Page = Page.TABLES
    view: LobbyView = field(default_factory=LobbyView)
    selected: str = "bots"  # a table's instance name or one of ACTIONS
    players: int = 2
    edition: str = "2011"
    hints: bool = False
    modules: tuple[Module, ...] = ()  # the 2019 expansion modules (2019 edition)
    module_cursor: int = 0  # the module row Space switches on the host page
    bots: int = 1
    ready: bool = False
    typing: str = ""
    under: Page = Page.TABLES  # the page under the name editor
    message: str = ""
    view_silent: str | None = None  # the last view's word on a silent host
    too_small: bool = False
    helping: bool = False  # the help page of the current page is open
    first: bool = False  # the first start on this computer: offer the guided game

    def context(self) -> Page:
        return Page.TOO_SMALL if self.too_small else self.page

    # --- following the network -----------------------------------------------------------

    def update(self, view: LobbyView) -> LobbyCommand | None:
        """Take the peer's news; a command when the table refused us (leave it)."""
        self.view = view
        at = view.table
        if self.selected not in ACTIONS and not any(t.instance == self.selected
                                                    for t in view.tables):
            self.selected = view.tables[0].instance if view.tables else "bots"
        if at is None or self.page not in (Page.LOBBY, Page.EDIT):
            return None
        mine = next((m for m in at.members if m.fingerprint == self.fingerprint), None)
        if mine is not None:
            self.colour = mine.colour  # the host may have given us another colour
        reason = at.refused
        if reason is not None:
            self.message = f"Left the table: {reason}."
            self.page = Page.TABLES
            return Leave()
        if at.silent is not None and self.view_silent is None:
            self.message = "The host has gone silent."
        elif at.silent is None and self.view_silent is not None:
            self.message = "The host is back."
        self.view_silent = at.silent
        return None

    def rows(self) -> list[tuple[str, str]]:
        """The tables page's rows: (key, text), the tables first."""
        rows = [(t.instance, t.label) for t in self.view.tables]
        return rows + [(a, ACTION_TEXT[a]) for a in ACTIONS]

    # --- the tables page -----------------------------------------------------------------

    def cursor(self, delta: int) -> None:
        keys = [k for k, _ in self.rows()]
        at = keys.index(self.selected) if self.selected in keys else 0
        self.selected = keys[max(0, min(len(keys) - 1, at + delta))]

    def click(self, row: int) -> LobbyCommand | None:
        """A click on row ``row`` of the tables page: as arrows to it and Enter."""
        rows = self.rows()
        if self.page != Page.TABLES or self.helping or not 0 <= row < len(rows):
            return None
        self.selected = rows[row][0]
        return self.choose()

    def choose(self) -> LobbyCommand | None:
        """Enter on the tables page: the row under the cursor."""
        if self.selected in ACTIONS:
            return self.action(ACTIONS.index(self.selected))
        table = next((t for t in self.view.tables if t.instance == self.selected), None)
        return self._join(table) if table is not None else None

    def pick_table(self, number: int) -> LobbyCommand | None:
        """1-9: join the table listed with that number."""
        tables = self.view.tables
        if not 1 <= number <= len(tables):
            self.message = f"There is no table {number}."
            return None
        self.selected = tables[number - 1].instance
        return self._join(tables[number - 1])

    def _join(self, table: TableInfo) -> LobbyCommand | None:
        if table.seats_taken >= table.seats:
            self.message = f"{table.host_name}'s table is full."
            return None
        return self._enter(Join(table))

    def action(self, index: int) -> LobbyCommand | None:
        """b, h or a: the bots, host or address page; l: the guided first game."""
        what = ACTIONS[index]
        self.selected = what
        self.message = ""
        if what == "learn":
            return Learn()
        self.page = {"bots": Page.BOTS, "host": Page.HOST, "address": Page.ADDRESS}[what]
        if self.page == Page.ADDRESS:
            self.typing = ""
        return None

    def confirm_host(self, host: Host) -> LobbyCommand:
        """Host at once (``burgundy host``)."""
        self.players, self.edition, self.hints = host.players, host.edition, host.hints
        return self._enter(host)

    def confirm_join(self, target: TableInfo | tuple[str, int]) -> LobbyCommand:
        """Join at once (``burgundy join``)."""
        return self._enter(Join(target))

    def _enter(self, command: Host | Join) -> LobbyCommand:
        self.page = Page.LOBBY
        self.ready = False
        self.message = ""
        return command

    # --- the host, bots and address pages --------------------------------------------------

    def adjust(self, delta: int) -> None:
        """Left/Right: players on the host page, bots on the bots page."""
        if self.page == Page.HOST:
            self.players = max(2, min(4, self.players + delta))
        elif self.page == Page.BOTS:
            self.bots = max(1, min(3, self.bots + delta))

    def number(self, value: int) -> LobbyCommand | None:
        """A digit: players (host page), bots (bots page, and go)."""
        if self.page == Page.HOST and 2 <= value <= 4:
            self.players = value
        elif self.page == Page.BOTS and 1 <= value <= 3:
            self.bots = value
            return PlayBots(value)
        else:
            self.message = "2, 3 or 4 players." if self.page == Page.HOST else "1 to 3 bots."
        return None

    def switch_edition(self) -> None:
        self.edition = EDITIONS[(EDITIONS.index(self.edition) + 1) % len(EDITIONS)]
        if self.edition != "2019":
            self.modules = ()  # the modules are part of the 2019 edition

    def switch_expansions(self) -> None:
        """m: every module on (with the 2019 edition), or all off if they were all on."""
        self._set_modules(() if self.modules == MODULE_ORDER else MODULE_ORDER)

    def move_module(self, delta: int) -> None:
        """Up/Down: the module row Space switches."""
        self.module_cursor = (self.module_cursor + delta) % len(MODULE_ORDER)

    def switch_module(self) -> None:
        """Space: the module under the cursor on or off (on: with the 2019 edition).

        >>> model = LobbyModel("Ann", "red", "fp", page=Page.HOST)
        >>> model.move_module(2); model.switch_module(); model.modules, model.edition
        ((Module.INNS,), '2019')
        >>> model.switch_module(); model.modules
        ()
        """
        module = MODULE_ORDER[self.module_cursor]
        on = set(self.modules) ^ {module}
        self._set_modules(tuple(m for m in MODULE_ORDER if m in on))

    def _set_modules(self, modules: tuple[Module, ...]) -> None:
        self.modules = modules
        if modules:
            self.edition = "2019"

    def switch_hints(self) -> None:
        self.hints = not self.hints

    def confirm(self) -> LobbyCommand | None:
        """Enter on the host, bots or address page."""
        if self.page == Page.HOST:
            return self._enter(Host(self.players, self.edition, modules=self.modules,
                                    hints=self.hints))
        if self.page == Page.BOTS:
            return PlayBots(self.bots)
        try:
            address = parse_address(self.typing.strip())
        except AddressError as exc:
            self.message = f"{exc}."
            return None
        if address is None:
            self.message = f"{self.typing.strip() or 'Nothing'} is not host:port " \
                           "(for example 192.168.1.20:40123)."
            return None
        return self._enter(Join(address))

    def back(self) -> LobbyCommand | None:
        """Esc: back to the tables page (leaving a table we are at)."""
        if self.page == Page.LOBBY:
            self.page = Page.TABLES
            self.message = "You left the table."
            return Leave()
        self.page = Page.TABLES
        self.message = ""
        return None

    def type_key(self, ch: str) -> None:
        if self.page in (Page.ADDRESS, Page.EDIT) and ch.isprintable() and len(self.typing) < 64:
            self.typing += ch

    def backspace(self) -> None:
        self.typing = self.typing[:-1]

    # --- at a table ------------------------------------------------------------------------

    def edit_name(self) -> None:
        """n: type a new name."""
        self.under, self.page, self.typing = self.page, Page.EDIT, ""

    def name_done(self) -> LobbyCommand | None:
        self.page = self.under
        name = clean_name(self.typing, "")
        if not name:
            self.message = "The name stays " + self.name + "."
            return None
        self.name = name
        self.message = f"You are {name}."
        return self._me()

    def name_cancel(self) -> None:
        self.page = self.under
        self.message = "The name stays " + self.name + "."

    def next_colour(self) -> LobbyCommand | None:
        """k: the next colour nobody else at the table has."""
        at = self.view.table
        taken = {m.colour for m in at.members if m.fingerprint != self.fingerprint} \
            if at is not None else set()
        free = [c for c in COLOURS if c not in taken] or list(COLOURS)
        at_index = free.index(self.colour) if self.colour in free else -1
        self.colour = free[(at_index + 1) % len(free)]
        self.message = f"Your colour: {self.colour}."
        return self._me()

    def toggle_ready(self) -> LobbyCommand | None:
        """r: ready or not (a host is always ready)."""
        at = self.view.table
        if at is None or self.page != Page.LOBBY:
            return None
        if at.hosting:
            self.message = "The host is always ready: s starts once everyone is."
            return None
        if not at.admitted:
            self.message = "Not at the table yet: waiting for the host to let us in."
            return None
        self.ready = not self.ready
        self.message = "You are ready." if self.ready else "You are not ready."
        return self._me()

    def _me(self) -> LobbyCommand | None:
        at = self.view.table
        if self.page != Page.LOBBY or at is None or at.closed:
            return None
        return SetMe(self.name, self.colour, self.ready or at.hosting)

    def start(self) -> LobbyCommand | None:
        """s (host): start once the table is full and everyone is ready."""
        at = self.view.table
        if at is None or not at.hosting:
            self.message = "Only the host starts the game."
            return None
        if at.closed:
            self.message = "Starting: waiting for everyone to accept."
            return None
        if not at.can_start:
            self.message = start_hint(at)
            return None
        self.message = "Starting: waiting for everyone to accept."
        return Start()

    def fill_with_bots(self) -> LobbyCommand | None:
        """b (host): local bots take the free seats."""
        at = self.view.table
        if at is None or not at.hosting:
            self.message = "Only the host can seat bots."
            return None
        if at.free <= 0 or at.closed:
            self.message = "No free seat for a bot."
            return None
        self.message = f"{at.free} bot{'s' if at.free > 1 else ''} on the way."
        return AddBots()

    def quit(self) -> LobbyCommand:
        return QuitLobby()

    def toggle_help(self) -> None:
        """?: the help page of this page (again: back)."""
        self.helping = not self.helping


def start_hint(at: AtTable) -> str:
    """What the table still waits for before the host can start.

    >>> ann = Member(bytes(32), "Ann", "red", True, ("", 0))
    >>> start_hint(AtTable(True, ("10.0.0.1", 4000), (ann,), seats=3, free=2))
    'Waiting for 2 more players (b: bots take the free seats).'
    """
    missing = at.seats - len(at.members)
    if missing > 0:
        bots = " (b: bots take the free seats)" if at.hosting else ""
        return f"Waiting for {missing} more player{'s' if missing > 1 else ''}{bots}."
    slow = [m.name for m in at.members if not m.ready]
    if slow:
        return f"Waiting for {', '.join(slow)} to be ready."
    if at.closed:
        return "Starting: waiting for everyone to accept."
    return "Everyone is here and ready: s starts the game." if at.hosting else \
        "Everyone is here and ready: waiting for the host to start."


# --- keys ---------------------------------------------------------------------------------

Handler = tuple[str, ...]  # a LobbyModel method name, then its int arguments

_TYPING: dict[str, tuple[Handler, str]] = {"^J": (("confirm",), "join"),
                                           "^[": (("back",), "back"),
                                           "^?": (("backspace",), "")}

LOBBY_KEYMAP: dict[Page, dict[str, tuple[Handler, str]]] = {
    Page.TABLES: {
        "^J": (("choose",), "choose"),
        "KEY_UP": (("cursor", "-1"), ""), "KEY_DOWN": (("cursor", "1"), ""),
        **{k: (("pick_table", str(i + 1)), "") for i, k in enumerate(TABLE_KEYS)},
        "b": (("action", "0"), "bots"),
        "h": (("action", "1"), "host"),
        "a": (("action", "2"), "address"),
        "l": (("action", "3"), "learn"),
        "n": (("edit_name",), "name"),
        "k": (("next_colour",), "colour"),
        "q": (("quit",), "quit"),
    },
    Page.HOST: {
        "^J": (("confirm",), "open"),
        "KEY_LEFT": (("adjust", "-1"), ""), "KEY_RIGHT": (("adjust", "1"), ""),
        "2": (("number", "2"), "players"), "3": (("number", "3"), ""),
        "4": (("number", "4"), ""),
        "e": (("switch_edition",), "edition"),
        "t": (("switch_hints",), "hints"),
        " ": (("switch_module",), "module"),
        "m": (("switch_expansions",), "all"),
        "KEY_UP": (("move_module", "-1"), ""), "KEY_DOWN": (("move_module", "1"), ""),
        "^[": (("back",), "back"),
        "q": (("quit",), "quit"),
    },
    Page.BOTS: {
        "^J": (("confirm",), "play"),
        "KEY_LEFT": (("adjust", "-1"), ""), "KEY_RIGHT": (("adjust", "1"), ""),
        "1": (("number", "1"), "bots"), "2": (("number", "2"), ""),
        "3": (("number", "3"), ""),
        "^[": (("back",), "back"),
        "q": (("quit",), "quit"),
    },
    Page.ADDRESS: _TYPING,
    Page.LOBBY: {
        "r": (("toggle_ready",), "ready"),
        "s": (("start",), "start"),
        "b": (("fill_with_bots",), "bots"),
        "n": (("edit_name",), "name"),
        "k": (("next_colour",), "colour"),
        "^[": (("back",), "leave"),
        "q": (("quit",), "quit"),
    },
    Page.EDIT: {"^J": (("name_done",), "set"), "^[": (("name_cancel",), "cancel"),
                "^?": (("backspace",), "")},
    Page.TOO_SMALL: {"q": (("quit",), "quit")},
}
"""Every key of the lobby screens, per page. In ADDRESS and EDIT, other keys type."""

_KEY_NAMES = {"^J": "Enter", "^[": "Esc", "KEY_UP": "Up", "KEY_DOWN": "Down", " ": "Space"}
_HELP = (("toggle_help",), "help")
for _page, _keys in LOBBY_KEYMAP.items():
    if _page != Page.TOO_SMALL:
        _keys["?"] = _HELP
_HELP_KEYS: dict[str, tuple[Handler, str]] = {"?": (("toggle_help",), "back"),
                                              "^[": (("toggle_help",), ""),
                                              "q": (("toggle_help",), "")}

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
        "for hints (everyone sees it) and the 2019 expansion modules: Up/Down picks one,",
        "Space switches it, m switches them all (they need the 2019 edition). Enter opens",
        "the table: it is announced on the LAN, and anyone can join it by address too.",
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
        "Everyone at the table is listed with a key fingerprint. Read the table code",
        "aloud: when everyone sees the same code, nobody is in the middle. Press r when",
        "you are ready; the host starts once every seat is taken and everyone is ready,",
        "or fills the free seats with bots (b).",
    ),
    Page.EDIT: ("Type the name the others will see (at most 16 characters), then Enter.",),
}
"""What each lobby page is for, shown above its keys by ``?``."""


def dispatch_lobby(model: LobbyModel, key: str) -> LobbyCommand | None:
    """Run the handler of ``key`` (a name from :func:`~.app.key_name`) on the current page.

    >>> model = LobbyModel("Ann", "red", "fp")
    >>> dispatch_lobby(model, "a"); dispatch_lobby(model, "x"); model.typing
    'x'
    >>> dispatch_lobby(model, "^["); model.page
    <Page.TABLES: 'tables'>
    """
    if key == "^C":  # wherever we are (typing an address too)
        return model.quit()
    page = model.context()
    keymap = _HELP_KEYS if model.helping and page != Page.TOO_SMALL else LOBBY_KEYMAP[page]
    entry = keymap.get(key)
    if entry is None and model.helping:
        model.message = "? or Esc closes the help."
        return None
    if entry is None:
        if page in (Page.ADDRESS, Page.EDIT) and len(key) == 1:
            model.type_key(key)
        elif page != Page.TOO_SMALL:
            model.message = f"{_KEY_NAMES.get(key, key)} does nothing here."
        return None
    name, *args = entry[0]
    method: Callable[..., LobbyCommand | None] = getattr(model, name)
    return method(*(int(a) for a in args))


def lobby_footer(model: LobbyModel) -> list[tuple[str, str]]:
    """(key, label) pairs for the footer of the current page."""
    page = model.context()
    if model.helping and page != Page.TOO_SMALL:
        return [("?", "back")]
    at = model.view.table
    hidden: set[str] = set()
    if page == Page.LOBBY and at is not None:
        hidden = {"ready"} if at.hosting else {"start", "bots"}
    if page == Page.ADDRESS:
        return [("Enter", "join"), ("Esc", "back"), ("?", "help")]
    return [(_KEY_NAMES.get(k, k), label) for k, (_, label) in LOBBY_KEYMAP[page].items()
            if label and label not in hidden]


# --- drawing --------------------------------------------------------------------------------

def render_lobby(model: LobbyModel, width: int, height: int) -> Canvas:
    """The whole lobby screen for ``model`` at this size.

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
    keys = ", ".join(f"{key} {label}" for key, label in lobby_footer(model))
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
                      Seg(fit(f" {MODULE_TEXT.get(module, '')}", width - 20), Style.DIM)])
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
        [Seg(fit("Type the host's address and port, as its screen shows it (for example "
                 "192.168.1.20:40123),", width))],
        [Seg(fit("then Enter. This works where the LAN drops multicast. Esc goes back.",
                 width))],
    ]


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
    code = at.code or "-"
    lines.append([Seg("Table code: "), Seg(code, Style.BOLD),
                  Seg(fit("  (read it aloud: everyone must see the same code)",
                          width - 12 - len(code)), Style.DIM)])
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


__all__ = ["LOBBY_KEYMAP", "AddBots", "AtTable", "Host", "Join", "Learn", "Leave", "LobbyCommand",
           "LobbyModel", "LobbyView", "Page", "PlayBots", "QuitLobby", "SetMe", "Start",
           "dispatch_lobby", "lobby_footer", "render_lobby", "start_hint"]
