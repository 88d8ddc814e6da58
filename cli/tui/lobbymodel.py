"""The screens before a networked game, as a model: the tables on the LAN, hosting, joining,
the lobby, and what each key does there.

Like :mod:`.model`, nothing here touches curses or the network. The runner
(:mod:`.netcommand`) hands the model a :class:`LobbyView` (what the peer knows now) before
each frame; key handlers change the model and may return a :data:`LobbyCommand` for the
runner to carry out; :mod:`.lobbyrender` draws the model. Keys are data:
:data:`LOBBY_KEYMAP`.

>>> model = LobbyModel("Ann", "red", "6r9h-etv0-q9se-9prt")
>>> model.update(LobbyView(tables=(), mdns=True))
>>> model.selected, [text for key, text in model.rows()][:3]
('bots', ['play against bots on this computer', 'host a new table on the LAN', \
'join a table by address (host:port)'])
>>> dispatch_lobby(model, "h"); model.page
<Page.HOST: 'host'>
>>> dispatch_lobby(model, "KEY_RIGHT"); dispatch_lobby(model, "^J")
Host(players=3, edition='2011', estate=None, setup=None, modules=(), board=None, hints=False, \
clock=None, switches=())
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from p2p_burgundy.config import MODULE_ORDER, Module, Setup
from p2p_burgundy.estate import Estate
from p2p_burgundy.net.clock import TimeControl
from p2p_burgundy.net.discovery import TableInfo
from p2p_burgundy.net.errors import AddressError
from p2p_burgundy.net.lobby import Member
from p2p_burgundy.net.start import COLOURS

from ..lan import parse_address
from .table import clean_name

EDITIONS = ("2011", "2019")
ACTIONS = ("bots", "host", "address", "learn")
ACTION_TEXT = {"bots": "play against bots on this computer",
               "learn": "learn to play: a guided first game against a bot",
               "host": "host a new table on the LAN",
               "address": "join a table by address (host:port)"}
TABLE_KEYS = "123456789"
CLOCKS = (None, TimeControl(15 * 60, 10), TimeControl(30 * 60, 15), TimeControl(45 * 60, 20))
"""The game clocks the host page offers (``burgundy host --clock`` takes any): none, or
minutes each plus seconds a turn; a game of three takes some 45 to 90 minutes."""


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
    clock: TimeControl | None = None  # the table's game clock
    switches: tuple[str, ...] = ()  # the modes of play switched on (the team game's --teams)


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
class Remove:
    """Host: remove the member with this key from the table (it may not come back)."""

    key: bytes


@dataclass(frozen=True, slots=True)
class AddBots:
    """Host: local bot peers take every free seat."""


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave the table (the game has not started)."""


@dataclass(frozen=True, slots=True)
class QuitLobby:
    """Leave the program."""


@dataclass(frozen=True, slots=True)
class ServeWeb:
    """Serve the big screen, the table's web page (cli/web), if it is not served yet."""


LobbyCommand = (Host | Join | PlayBots | Learn | SetMe | Start | AddBots | Remove | Leave
                | QuitLobby | ServeWeb)


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
    marks: tuple[tuple[str, str], ...] = ()  # (instance, what the known hosts say of it)


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
    clock: TimeControl | None = None  # the game clock of a table we host
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
    web_wanted: bool = False  # the host page's w: serve the big screen when the table opens
    web: str | None = None  # the big screen's address, once it is served
    showing_web: bool = False  # its address and QR code are showing instead of the table
    removing: bool = False  # the host pressed x: the next seat number names whom to remove

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
        marks = dict(self.view.marks)
        rows = [(t.instance, t.label + (f"  ({marks[t.instance]})" if t.instance in marks
                                        else "")) for t in self.view.tables]
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
        self.clock = host.clock
        self.showing_web = self.showing_web or self.web_wanted
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

    def switch_clock(self) -> None:
        """c on the host page: the next of the game clocks offered (:data:`CLOCKS`).

        >>> model = LobbyModel("Ann", "red", "fp", page=Page.HOST)
        >>> model.switch_clock(); str(model.clock)
        '15+10'
        >>> for _ in CLOCKS[1:]: model.switch_clock()
        >>> model.clock is None
        True
        """
        index = CLOCKS.index(self.clock) if self.clock in CLOCKS else 0
        self.clock = CLOCKS[(index + 1) % len(CLOCKS)]

    def switch_web(self) -> None:
        """w on the host page: serve the big screen when the table opens (or not)."""
        self.web_wanted = not self.web_wanted

    def confirm(self) -> LobbyCommand | None:
        """Enter on the host, bots or address page."""
        if self.page == Page.HOST:
            self.showing_web = self.showing_web or self.web_wanted
            return self._enter(Host(self.players, self.edition, modules=self.modules,
                                    hints=self.hints, clock=self.clock))
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

    def toggle_web(self) -> LobbyCommand | None:
        """w at a table: the big screen's address and QR code (served from the first
        press); again: back to the table."""
        self.showing_web = not self.showing_web
        return ServeWeb() if self.showing_web and self.web is None else None
    def ask_remove(self) -> None:
        """x (host): the next seat number removes that member (x again: not)."""
        at = self.view.table
        if at is None or not at.hosting:
            self.message = "Only the host removes players."
            return
        if len(at.members) < 2:
            self.message = "Nobody else is at the table."
            return
        self.removing = not self.removing
        self.message = (f"Remove which seat? Press its number (2-{len(at.members)}); x: no."
                        if self.removing else "Nobody removed.")

    def seat_number(self, seat: int) -> LobbyCommand | None:
        """A seat's number, after x: remove that member."""
        at = self.view.table
        if not self.removing or at is None:
            self.message = f"{seat} does nothing here (x, then a seat number, removes)."
            return None
        self.removing = False
        if not 2 <= seat <= len(at.members):
            self.message = f"Nobody to remove at seat {seat}."
            return None
        member = at.members[seat - 1]
        self.message = f"Removed {member.name} [{member.fingerprint}] from the table."
        return Remove(member.key)

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
        "c": (("switch_clock",), "clock"),
        "w": (("switch_web",), "web"),
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
        "w": (("toggle_web",), "web"),
        "x": (("ask_remove",), "remove"),
        **{str(n): (("seat_number", str(n)), "") for n in range(2, 5)},
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


def lobby_keys(model: LobbyModel) -> list[tuple[str, str]]:
    """(key, label) pairs of every key that works on the current page (its help lists
    them)."""
    page = model.context()
    if model.helping and page != Page.TOO_SMALL:
        return [("?", "back")]
    at = model.view.table
    hidden: set[str] = set()
    if page == Page.LOBBY:  # a member's keys, or the host's (nobody's while opening)
        hidden = {"ready"} if at is not None and at.hosting else {"start", "bots", "remove"}
    if page == Page.ADDRESS:
        return [("Enter", "join"), ("Esc", "back"), ("?", "help")]
    return [(_KEY_NAMES.get(k, k), label) for k, (_, label) in LOBBY_KEYMAP[page].items()
            if label and label not in hidden]


NAMED_ON_PAGE: dict[Page, frozenset[str]] = {
    Page.TABLES: frozenset({"b", "h", "a", "l"}),
    Page.HOST: frozenset({"2", "e", "t", "c", "w", "Space", "m"}),
}
"""Keys a page shows beside what they do (a row of the tables page, a setting of the host
page): the footer leaves them out, so that the rest fits 80 columns whole."""


def lobby_footer(model: LobbyModel) -> list[tuple[str, str]]:
    """(key, label) pairs for the footer of the current page."""
    named = frozenset() if model.helping else NAMED_ON_PAGE.get(model.context(), frozenset())
    return [(key, label) for key, label in lobby_keys(model) if key not in named]


__all__ = ["LOBBY_KEYMAP", "AddBots", "AtTable", "Host", "Join", "Learn", "Leave", "LobbyCommand",
           "LobbyModel", "LobbyView", "Page", "PlayBots", "QuitLobby", "Remove", "ServeWeb",
           "SetMe", "Start",
           "dispatch_lobby", "lobby_footer", "lobby_keys", "start_hint"]
