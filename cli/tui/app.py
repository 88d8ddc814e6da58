"""The curses client: terminal set-up and teardown, the one keymap, and the main loop.

Everything that decides what to show lives in :mod:`.model` and :mod:`.render`; this module
only reads keys and the mouse, asks the table what changed, and paints the canvas.

- The terminal is restored on exit, on errors and on SIGTERM/SIGHUP (:func:`terminal`).
- ``NO_COLOR`` (or a terminal without colours) draws with attributes only; the player's
  settings (:mod:`.settings`: ``O`` in the game, or ``BURGUNDY_PALETTE``) pick the tiles'
  colours (standard, colour-blind, high-contrast) and the hint level.
- No traceback reaches the screen: errors go to ``tui.log`` in the user data directory and
  the player reads one line saying so (:func:`run_guarded`).
"""

from __future__ import annotations

import contextlib
import curses
import logging
import os
import signal
import sys
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from p2p_burgundy import EngineError

from ..engine import EngineStrategy
from ..strategies import make
from . import settings
from .hint import bot as hint_bot
from .hint import suggest
from .layout import Layout, compute_layout
from .learn import Lesson
from .model import (
    AskHint,
    ChangeSettings,
    Command,
    Context,
    Model,
    Overlay,
    Quit,
    Resign,
    SeatToBot,
    SendChat,
    StepReplay,
    Submit,
)
from .render import Canvas, Style, render
from .settings import Settings, with_environment
from .table import (
    ChatReceived,
    Drafting,
    Endable,
    GameEnded,
    Handover,
    Notice,
    Steppable,
    Table,
)
from .texts import short_name

ESCDELAY_MS = 25
POLL_MS = 50
LOG_NAME = "tui.log"
log = logging.getLogger("p2p_burgundy.tui")

Handler = tuple[str, ...]  # a Model method name, then its int arguments

# --- the keymap: context -> key name -> (handler, footer label) ---------------------------
# Each context lists its keys most useful first: the footer shows as many as fit in that
# order (the help key always), and the help page lists them all.
_VIEW_KEYS: dict[str, tuple[Handler, str]] = {
    "?": (("show", "help"), "help"),
    "q": (("quit",), "quit"),
    "i": (("show", "info"), "tiles"),
    "v": (("next_view",), "view"),
    "l": (("show", "log"), "log"),
    "KEY_F(1)": (("view", "0"), ""),
    "KEY_F(2)": (("view", "1"), ""),
    "KEY_F(3)": (("view", "2"), ""),
    "KEY_F(4)": (("view", "3"), ""),
    "KEY_PPAGE": (("log_page", "5"), ""),
    "KEY_NPAGE": (("log_page", "-5"), ""),
    "c": (("start_chat",), "chat"),
    "O": (("show_settings",), "settings"),
}
_CLOSE = (("close_overlay",), "back")
_ALSO_CLOSE = (("close_overlay",), "")

HANDOVER_KEY = ("B", "let a bot play")
HANDOVER_CONTEXTS = frozenset({Context.WAIT, Context.STANDINGS, Context.CHART, Context.HELP,
                               Context.INFO, Context.LOG, Context.CATCH_UP, Context.SETTINGS})
"""Where ``B`` (a bot plays the seat of a player who is gone) works once it is on offer:
waiting, and over any page opened while waiting (not where keys are text or answers)."""

KEYMAP: dict[Context, dict[str, tuple[Handler, str]]] = {
    Context.PLAY: {
        "^J": (("select",), "choose"),
        "^[": (("back",), "back"),
        "u": (("undo",), "undo"),
        "H": (("ask_hint",), "hint"),
        "S": (("toggle_scores",), "scores"),
        "KEY_UP": (("cursor_up",), ""),
        "KEY_DOWN": (("cursor_down",), ""),
        **_VIEW_KEYS,
        "R": (("ask_resign",), "resign"),
        "M": (("catch_up",), "meanwhile"),
    },
    Context.WAIT: {"B": (("ask_seat_to_bot",), HANDOVER_KEY[1]),  # footer: see footer_keys
                   "S": (("toggle_scores",), "scores"), "s": (("toggle_scores",), ""),
                   "G": (("toggle_chart",), "chart"),
                   **_VIEW_KEYS, "R": (("ask_resign",), "resign"),
                   "M": (("catch_up",), "meanwhile")},
    Context.REPLAY: {
        ".": (("step_replay", "1"), "step"),
        ",": (("step_replay", "-1"), "back"),
        "KEY_RIGHT": (("step_replay", "1"), ""),
        "KEY_LEFT": (("step_replay", "-1"), ""),
        ">": (("step_replay", "1", "1"), "turn"),
        "<": (("step_replay", "-1", "1"), "turn back"),
        "KEY_SRIGHT": (("step_replay", "1", "1"), ""),
        "KEY_SLEFT": (("step_replay", "-1", "1"), ""),
        "]": (("step_replay", "1", "2"), "round"),
        "[": (("step_replay", "-1", "2"), "round back"),
        "KEY_HOME": (("step_replay", "-1000000"), ""),
        "KEY_END": (("step_replay", "1000000"), ""),
        **{k: v for k, v in _VIEW_KEYS.items() if k != "c"},
        "g": (("start_go_to",), "go to"),
        "s": (("toggle_scores",), "scores"), "S": (("toggle_scores",), ""),
        "G": (("toggle_chart",), "chart"),
    },
    Context.STANDINGS: {"S": (("toggle_scores",), "back"), "s": (("toggle_scores",), ""),
                        "^[": (("toggle_scores",), ""), "q": (("toggle_scores",), ""),
                        "G": (("toggle_chart",), "chart"), "?": (("show", "help"), "help")},
    Context.CHART: {"G": (("toggle_chart",), "back"), "^[": (("toggle_chart",), ""),
                    "q": (("toggle_chart",), ""), "S": (("toggle_scores",), "scores"),
                    "?": (("show", "help"), "help")},
    Context.CATCH_UP: {"M": (("catch_up_step", "1"), "next"),
                       "KEY_RIGHT": (("catch_up_step", "1"), ""),
                       ".": (("catch_up_step", "1"), ""), " ": (("catch_up_step", "1"), ""),
                       "KEY_LEFT": (("catch_up_step", "-1"), "previous"),
                       ",": (("catch_up_step", "-1"), ""),
                       "^[": _CLOSE, "q": _ALSO_CLOSE},
    Context.SETTINGS: {"h": (("switch_hints",), "hints"), "p": (("switch_palette",), "colours"),
                       "^[": _CLOSE, "O": _ALSO_CLOSE, "q": _ALSO_CLOSE},
    Context.HINT: {"^J": (("follow_hint",), "do it"), "^[": _CLOSE, "H": _ALSO_CLOSE,
                   "q": _ALSO_CLOSE, "?": (("show", "help"), "help")},
    Context.SCORES: {
        "s": (("toggle_scores",), "scores"), "S": (("toggle_scores",), ""),
        "G": (("toggle_chart",), "chart"),
        **_VIEW_KEYS,
    },
    Context.HELP: {"^[": _CLOSE, "?": _ALSO_CLOSE, "q": _ALSO_CLOSE,
                   "KEY_UP": (("scroll", "-1"), "scroll"), "KEY_DOWN": (("scroll", "1"), ""),
                   "KEY_PPAGE": (("scroll", "-10"), ""), "KEY_NPAGE": (("scroll", "10"), "")},
    Context.INFO: {"^[": _CLOSE, "i": _ALSO_CLOSE, "q": _ALSO_CLOSE,
                   "?": (("show", "help"), "help"),
                   "KEY_UP": (("info_move", "-1"), "previous"),
                   "KEY_DOWN": (("info_move", "1"), "next"),
                   "KEY_LEFT": (("info_move", "-1"), ""), "KEY_RIGHT": (("info_move", "1"), "")},
    Context.LOG: {"^[": _CLOSE, "l": _ALSO_CLOSE, "q": _ALSO_CLOSE,
                  "?": (("show", "help"), "help"),
                  "KEY_UP": (("scroll", "1"), "older"), "KEY_DOWN": (("scroll", "-1"), "newer"),
                  "KEY_PPAGE": (("scroll", "10"), ""), "KEY_NPAGE": (("scroll", "-10"), "")},
    Context.CHAT: {"^J": (("chat_send",), "send"), "^[": (("chat_cancel",), "cancel"),
                   "^?": (("chat_backspace",), "")},
    Context.CONFIRM: {"y": (("answer", "1"), "yes"), "Y": (("answer", "1"), ""),
                      "^J": (("answer", "1"), ""), "n": (("answer", "0"), "no"),
                      "N": (("answer", "0"), ""), "^[": (("answer", "0"), "")},
    Context.TOO_SMALL: {"q": (("quit",), "quit")},
}
"""Every key the client knows, per context. Keys not listed here: in PLAY a choice's own
key; in CHAT a character typed; anywhere else a short message."""

KEY_NAMES = {"^J": "Enter", "^[": "Esc", "^?": "Bksp", "KEY_UP": "Up", "KEY_DOWN": "Down",
             "KEY_LEFT": "Left", "KEY_RIGHT": "Right", "KEY_PPAGE": "PgUp",
             "KEY_NPAGE": "PgDn"}
KEYNAME_REWRITE = {"KEY_ENTER": "^J", "^M": "^J", "KEY_BACKSPACE": "^?", "^H": "^?",
                   "KEY_A2": "KEY_UP", "KEY_C2": "KEY_DOWN", "KEY_B1": "KEY_LEFT",
                   "KEY_B3": "KEY_RIGHT"}
_OVERLAYS = {"help": Overlay.HELP, "info": Overlay.INFO, "log": Overlay.LOG}


def key_name(key: str | int) -> str:
    """One name per key, whatever the terminal sent.

    >>> key_name("a"), key_name("\\n"), key_name("\\r"), key_name("\\x1b"), key_name("\\x7f")
    ('a', '^J', '^J', '^[', '^?')
    """
    if isinstance(key, int):
        name = curses.keyname(key).decode("ascii", "replace")
    elif len(key) == 1 and (ord(key) < 32 or key == "\x7f"):
        name = "^?" if key == "\x7f" else "^" + chr(ord(key) + 64)
    else:
        name = key
    return KEYNAME_REWRITE.get(name, name)


def footer_keys(model: Model, context: Context | None = None) -> list[tuple[str, str]]:
    """(key, label) pairs that work now (or in ``context``), for the footer: the choices'
    keys first, then what just became relevant, then the rest."""
    context = context or model.context()
    head: list[tuple[str, str]] = []
    if context in HANDOVER_CONTEXTS and model.handover_seat() is not None:
        head.append(HANDOVER_KEY)  # just became what matters most: first, whatever is open
    if context == Context.PLAY:
        option_keys = [o.key for o in model.options()]
        if option_keys:
            shown = " ".join(option_keys) if len(option_keys) <= 4 else \
                f"{option_keys[0]}-{option_keys[-1]}"
            head.append((shown, "choose"))
    # Just relevant: the key the lesson asks for next (a page to open), and M while the
    # others' moves are marked (until our first choice).
    asked = next((line.split()[1:2] for line in model.lesson_text()
                  if line.startswith("Press: ")), [])
    catching_up = bool(model.changes) and context in (Context.PLAY, Context.WAIT)
    relevant: list[tuple[str, str]] = []
    rest: list[tuple[str, str]] = []
    for key, ((handler, *_), label) in KEYMAP[context].items():
        if handler == "ask_seat_to_bot":
            continue  # only offered once a player has been gone a while, and then first
        if handler in ("ask_resign", "start_chat") and model.table.my_seat is None:
            continue  # a spectator authors nothing: no resigning, no chat
        if handler == "ask_resign" and isinstance(model.table, Endable) and model.table.may_end:
            label = "end the game"  # the only player left: R ends it, as the winner
        if not label or (key, label) == ("^J", "choose"):
            continue
        entry = (KEY_NAMES.get(key, key), label)
        if [entry[0]] == asked:
            relevant.insert(0, entry)
        elif handler == "catch_up" and catching_up:
            relevant.append(entry)
        else:
            rest.append(entry)
    return [*head, *relevant, *rest]


def dispatch(model: Model, key: str) -> Command | None:
    """Run the handler of ``key`` in the model's current context (see :data:`KEYMAP`).

    >>> from p2p_burgundy.cli.tui.table import LocalTable
    >>> table = LocalTable.new("Ann", seed=3); _ = table.poll()
    >>> model = Model(table); model.refresh()
    >>> dispatch(model, "?"); model.overlay
    <Overlay.HELP: 'help'>
    >>> dispatch(model, "^["); dispatch(model, "q")
    Quit()
    """
    if key == "^C":  # wherever we are: a chat line being typed is dropped
        model.chat_cancel()
        model.close_overlay()
        return model.quit()
    context = model.context()
    entry = KEYMAP[context].get(key)
    if key == HANDOVER_KEY[0] and context in HANDOVER_CONTEXTS:
        entry = KEYMAP[Context.WAIT][key]  # over a page too: it is what the table waits on
    if entry is None:
        if context == Context.PLAY and len(key) == 1:
            return model.hotkey(key)
        if context == Context.CHAT and len(key) == 1:
            model.chat_key(key)
        elif context == Context.CONFIRM:
            model.message = model.confirm.question if model.confirm else ""
        elif context not in (Context.TOO_SMALL,):
            model.message = f"{KEY_NAMES.get(key, key)} does nothing here; ? shows the keys."
        return None
    name, *args = entry[0]
    if name == "show":
        model.show(_OVERLAYS[args[0]])
        return None
    if name == "answer":
        return model.answer(args[0] == "1")
    method: Callable[..., Command | None] = getattr(model, name)
    return method(*(int(a) for a in args))


# --- curses: colours, set-up and teardown -------------------------------------------------

@dataclass(slots=True)
class Palette:
    """Curses attributes per :class:`Style` (with colours, or attributes only: ``colour``
    False)."""

    attrs: dict[int, int]
    colour: bool = False

    def attr(self, style: int) -> int:
        return self.attrs.get(style, curses.A_NORMAL)


TILE_COLOURS: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    # beige, light green, blue, dark green, grey, yellow: at 256 colours, and at 8
    "standard": ((180, 112, 39, 28, 248, 226),
                 (curses.COLOR_RED, curses.COLOR_GREEN, curses.COLOR_BLUE, curses.COLOR_CYAN,
                  curses.COLOR_WHITE, curses.COLOR_YELLOW)),
    # Okabe and Ito's colours, told apart with any colour vision; at 8, no red beside green
    "colour-blind": ((214, 36, 32, 175, 250, 227),
                     (curses.COLOR_YELLOW, curses.COLOR_CYAN, curses.COLOR_BLUE,
                      curses.COLOR_MAGENTA, curses.COLOR_WHITE, curses.COLOR_RED)),
    # bright on a dark background, every tile bold
    "high-contrast": ((223, 118, 51, 34, 255, 226),
                      (curses.COLOR_RED, curses.COLOR_GREEN, curses.COLOR_BLUE,
                       curses.COLOR_CYAN, curses.COLOR_WHITE, curses.COLOR_YELLOW)),
}
"""The palettes of the six tile kinds (in :class:`~p2p_burgundy.tiles.Colour` order), by
name (:data:`.settings.PALETTES`): no two kinds share a colour at 256 colours or at 8 (the
letters carry the meaning too)."""


def settings_folder() -> Path:
    """Where the player's settings are kept: the user data directory."""
    from p2p_burgundy.net.identity import data_dir

    return Path(data_dir())


def start_settings() -> Settings:
    """The settings a client starts with: those saved, or the environment's where set."""
    return with_environment(settings.load(settings_folder()), os.environ)


def make_palette(colour: bool, name: str = "standard") -> Palette:
    """Colours (of the palette ``name``) when the terminal has them and ``NO_COLOR`` is
    unset; else attributes."""
    a: dict[int, int] = {
        Style.NORMAL: curses.A_NORMAL,
        Style.DIM: curses.A_DIM,
        Style.BOLD: curses.A_BOLD,
        Style.TITLE: curses.A_BOLD | curses.A_UNDERLINE,
        Style.LEGAL: curses.A_UNDERLINE | curses.A_BOLD,
        Style.CURSOR: curses.A_REVERSE | curses.A_BOLD,
        Style.ERROR: curses.A_BOLD | curses.A_REVERSE,
        Style.BAR: curses.A_REVERSE,
        Style.KEY: curses.A_REVERSE | curses.A_BOLD,
        Style.CHANGED: curses.A_BOLD | curses.A_UNDERLINE,
    }
    for c in range(6):
        a[Style.SPACE + c] = curses.A_NORMAL
        a[Style.TILE + c] = curses.A_BOLD
    if not colour:
        return Palette(a)
    many, eight = TILE_COLOURS[name]
    bold = curses.A_BOLD if name == "high-contrast" else curses.A_NORMAL
    for c, colour_number in enumerate(many if curses.COLORS >= 256 else eight):
        curses.init_pair(c + 1, colour_number, -1)
        a[Style.SPACE + c] = curses.color_pair(c + 1) | bold
        a[Style.TILE + c] = curses.color_pair(c + 1) | curses.A_BOLD
    curses.init_pair(7, curses.COLOR_BLACK, curses.COLOR_CYAN)
    a[Style.LEGAL] = curses.color_pair(7)
    curses.init_pair(8, curses.COLOR_WHITE, curses.COLOR_RED)
    a[Style.ERROR] = curses.color_pair(8) | curses.A_BOLD
    curses.init_pair(9, curses.COLOR_MAGENTA, -1)
    a[Style.CHANGED] = curses.color_pair(9) | curses.A_BOLD
    return Palette(a, colour=True)


class _Terminated(BaseException):
    """SIGTERM or SIGHUP arrived: leave through the normal teardown (exit 128 + signal).
    Like KeyboardInterrupt, no ``except Exception`` (a command that failed) may take it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def terminating_signals() -> tuple[signal.Signals, ...]:
    """The signals that end the client through its teardown: SIGTERM, and SIGHUP (a closed
    terminal) where the platform has it (Windows has none).

    >>> signal.SIGTERM in terminating_signals()
    True
    """
    return tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextlib.contextmanager
def terminal(mouse: bool = True) -> Iterator[tuple[curses.window, Palette]]:
    """Set the terminal up for the client and always put it back (errors, signals too)."""
    os.environ.setdefault("ESCDELAY", str(ESCDELAY_MS))

    def stop(signum: int, frame: FrameType | None) -> None:
        raise _Terminated(signum)

    old = {s: signal.signal(s, stop) for s in terminating_signals()}
    screen = curses.initscr()
    try:
        curses.noecho()
        # Raw: Ctrl-C arrives as a key (^C asks, as q does), in turn with the keys typed
        # before it. As the terminal's interrupt it would make the terminal drop the keys not
        # yet read and the output not yet shown. Ctrl-Z and Ctrl-\ are keys too (a stopped
        # peer would look gone to the others at the table).
        curses.raw()
        screen.keypad(True)
        with contextlib.suppress(curses.error, AttributeError):
            curses.set_escdelay(ESCDELAY_MS)
        with contextlib.suppress(curses.error):
            curses.curs_set(0)
        colour = False
        if curses.has_colors() and not os.environ.get("NO_COLOR"):
            with contextlib.suppress(curses.error):
                curses.start_color()
                curses.use_default_colors()
                colour = True
        if mouse:
            curses.mousemask(curses.BUTTON1_PRESSED | curses.BUTTON1_CLICKED
                             | curses.BUTTON4_PRESSED | getattr(curses, "BUTTON5_PRESSED", 0))
            curses.mouseinterval(0)
        screen.timeout(POLL_MS)
        yield screen, make_palette(colour, start_settings().palette)
    finally:
        with contextlib.suppress(curses.error):
            if mouse:
                curses.mousemask(0)
            screen.keypad(False)
            curses.noraw()
            curses.echo()
            curses.curs_set(1)
        curses.endwin()
        for s, handler in old.items():
            signal.signal(s, handler)


def paint(screen: curses.window, canvas: Canvas, palette: Palette) -> None:
    """Copy the canvas to the screen (curses sends only what changed)."""
    screen.erase()
    for y, line in enumerate(canvas.lines()):
        x = 0
        for seg in line:
            # The bottom-right cell cannot be written without scrolling: curses says so.
            with contextlib.suppress(curses.error):
                screen.addstr(y, x, seg.text, palette.attr(seg.style))
            x += len(seg.text)
    screen.refresh()


# --- the loop ------------------------------------------------------------------------------

class App:
    """One session at a table: poll, handle keys and the mouse, paint when something changed."""

    def __init__(self, screen: curses.window, palette: Palette, table: Table, model: Model,
                 autoplay: str | None = None, hint_engine: str | None = None) -> None:
        self.screen = screen
        self.hint_engine = hint_engine  # the program asked for hints, else the built-in bot
        self.palette = palette
        self.table = table
        self.model = model
        model.settings = start_settings()
        self.bot = make(autoplay, 0) if autoplay else None
        self.layout: Layout = self._measure()
        self.canvas: Canvas | None = None

    def _measure(self) -> Layout:
        height, width = self.screen.getmaxyx()
        layout = compute_layout(width, height)
        self.model.too_small = layout.too_small
        return layout

    def run(self) -> int:
        dirty = True
        while True:
            moved = self._poll()
            dirty = dirty or moved
            model = self.model
            if self.bot is not None and model.draft is not None and not model.confirm:
                if self.execute(model.autoplay(self.bot.choose)):
                    return 0
                dirty = True
                continue
            if dirty:
                self._paint()
                dirty = False
            # Autoplay reads again at once while the game moves (local bots play in polls);
            # when it waits for others it waits for keys like a player does.
            busy = self.bot is not None and moved and not model.game_over
            self.screen.timeout(0 if busy else POLL_MS)
            try:
                raw = self.screen.get_wch()
            except curses.error:
                continue  # no key within the timeout
            dirty = True
            name = key_name(raw)
            if name == "KEY_RESIZE":
                self.layout = self._measure()
                self.screen.clear()
                continue
            command = self._mouse() if name == "KEY_MOUSE" else dispatch(model, name)
            if command is not None and self.execute(command):
                return 0
            if isinstance(self.table, Drafting) and model.draft is not None:
                self.table.keep_draft(model.draft.actions)  # a local game saves each choice

    def _paint(self) -> None:
        model = self.model
        self.canvas = render(model, self.layout, footer_keys(model),
                             footer_keys(model, model.base_context()))
        paint(self.screen, self.canvas, self.palette)

    def _poll(self) -> bool:
        events = self.table.poll()
        if not events:
            return False
        for event in events:
            if isinstance(event, ChatReceived) and event.seat != self.table.my_seat:
                self.model.message = f"<{self.table.names[event.seat]}> {event.text}"
            elif isinstance(event, Notice):
                self.model.message = event.text
            elif isinstance(event, GameEnded):
                self.model.message = event.reason
        self.model.refresh()
        return True

    def _mouse(self) -> Command | None:
        try:
            _, x, y, _, state = curses.getmouse()
        except curses.error:
            return None
        if state & curses.BUTTON4_PRESSED:
            self.model.log_page(3)
            return None
        if state & getattr(curses, "BUTTON5_PRESSED", 0):
            self.model.log_page(-3)
            return None
        target = self.canvas.target_at(y, x) if self.canvas else None
        if target is None or self.model.context() != Context.PLAY:
            return None
        return self.model.click(target)

    def execute(self, command: Command | None) -> bool:
        """Carry out a command on the table; True when the client should exit."""
        model = self.model
        if isinstance(command, Quit):
            return True
        try:
            if isinstance(command, Submit):
                self.table.submit_turn(list(command.actions))
                model.turn_sent()
            elif isinstance(command, SendChat):
                self.table.send_chat(command.text)
            elif isinstance(command, Resign):
                self.table.resign()
            elif isinstance(command, StepReplay) and isinstance(self.table, Steppable):
                if command.rounds:
                    self.table.step_round(command.delta)
                elif command.turns:
                    self.table.step_turn(command.delta)
                else:
                    self.table.step(command.delta)
            elif isinstance(command, AskHint):
                self._paint()  # the question shows while the bot thinks
                hinter = hint_bot(command.state.to_move or 0, self.hint_engine)
                try:
                    model.show_hint(suggest(command.state, hinter), command.state)
                finally:
                    if isinstance(hinter, EngineStrategy):
                        hinter.close()
            elif isinstance(command, ChangeSettings):
                self.palette = make_palette(self.palette.colour, command.settings.palette)
                self.screen.clear()  # every cell again, in the new colours
                problem = settings.save(settings_folder(), command.settings)
                model.message = "Kept for your next games." if problem is None else \
                    f"Not kept for your next games: {problem}."
            elif isinstance(command, SeatToBot) and isinstance(self.table, Handover):
                self.table.seat_to_bot(command.seat)
                model.message = (f"You agreed: a bot plays "
                                 f"{short_name(self.table.names[command.seat])}'s seat once "
                                 "every other player agrees.")
        except EngineError as exc:
            log.warning("the table refused %r: %s", command, exc)
            model.message = f"Refused: {exc}"
        except Exception as exc:  # e.g. the network: keep playing, say what happened
            log.error("%r failed:\n%s", command, traceback.format_exc())
            model.message = f"That did not go through ({type(exc).__name__}: {exc}); " \
                            f"details in {LOG_NAME}."
        self._poll()
        return False


def log_path() -> Path:
    """Where errors are written: ``tui.log`` in the user data directory."""
    from p2p_burgundy.net.identity import data_dir

    return Path(data_dir()) / LOG_NAME


def run_guarded(table: Table, *, autoplay: str | None = None, mouse: bool = True,
                lesson: Lesson | None = None, hint_engine: str | None = None) -> int:
    """Run the client on ``table`` (with a guided game's ``lesson``; hints from
    ``hint_engine`` if given); errors become one line on stderr and a log entry."""
    return guarded(lambda screen, palette: App(screen, palette, table, Model(table, lesson),
                                               autoplay, hint_engine).run(), mouse=mouse)


def guarded(body: Callable[[curses.window, Palette], int], *, mouse: bool = True) -> int:
    """Set the terminal up, run ``body(screen, palette)`` and put the terminal back; errors
    become one line on stderr and a log entry (``tui.log``); returns the exit code."""
    path = log_path()
    handler: logging.Handler
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(path, encoding="utf-8")
    except OSError:
        handler = logging.NullHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    logging.captureWarnings(True)
    logging.getLogger("py.warnings").addHandler(handler)
    try:
        with terminal(mouse) as (screen, palette):
            return body(screen, palette)
    except KeyboardInterrupt:
        return 130
    except _Terminated as exc:
        log.info("stopped by %s", exc)
        return 128 + exc.signum
    except Exception as exc:
        log.error("the terminal client failed:\n%s", traceback.format_exc())
        print(f"burgundy: the game stopped on an unexpected error ({type(exc).__name__}); "
              f"details are in {path}", file=sys.stderr)
        return 1
    finally:
        log.removeHandler(handler)
        logging.getLogger("py.warnings").removeHandler(handler)
        handler.close()
