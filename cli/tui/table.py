"""What the terminal client talks to: a :class:`Table`, and two tables that need no network.

The UI never touches the engine's progress itself: it reads ``state`` and ``history``, asks
``waiting_for()`` what the game is waiting for, sends a whole turn with ``submit_turn`` when
the player ends it, and calls ``poll()`` often (it never blocks) to learn what changed. A
network-backed table (a peer session) implements the same protocol.

- :class:`LocalTable`: an engine-only game against bots in this process, dealt from a seed
  (the same seed deals the same game); it can be saved after every step and restored
  (:mod:`~p2p_burgundy.cli.localgame`).
- :class:`ReplayTable`: a game's steps (a finished game or as far as it went), watched step
  by step (``my_seat`` is None).

>>> table = LocalTable.new("Ann", bots=1, seed=3)
>>> _ = table.poll()
>>> table.names, table.my_seat, table.waiting_for()
(['Ann', 'Bot 1'], 0, None)
>>> table.state.to_move
0
"""

from __future__ import annotations

import hashlib
import os
import time
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple, Protocol, runtime_checkable

from p2p_burgundy import (
    Action,
    GameConfig,
    GameState,
    IllegalAction,
    Module,
    UseDie,
    apply,
    ends_turn,
    legal_actions,
    new_game,
    play_turn,
    state_hash,
)
from p2p_burgundy.board import PHASES, ROUNDS
from p2p_burgundy.chance import ChanceKind, Draw
from p2p_burgundy.net.tablerules import TableRules
from p2p_burgundy.record import Recorder
from p2p_burgundy.variants import modules_of

from ..estates import table_config
from ..localgame import SavedGame
from ..sim import bot_seed, chance_entropy
from ..strategies import Strategy, make
from .describe import describe_chance, describe_turn
from .texts import short_name

MAX_NAME = 16
DEFAULT_BOT_DELAY = 0.6  # seconds between bot turns in a game a person watches
MAX_CHAT = 200


class EntryKind(Enum):
    """What a history entry records."""

    CHANCE = "chance"  # dice, depots, set-up (seat None)
    ACTION = "action"  # one action of a player's turn
    EVENT = "event"  # the end of a phase or of the game, a resignation (seat None or a seat)
    CHAT = "chat"  # a line of chat from ``seat``


class HistoryEntry(NamedTuple):
    """One line of the log pane: who (a seat, or None for the game itself) and what."""

    seat: int | None
    text: str
    kind: EntryKind = EntryKind.ACTION


def module_notes(config: GameConfig) -> list[HistoryEntry]:
    """The notes a game's log begins with, where a module it plays gives them (the team
    game: its board's, "not the printed board" for the provisional team board, "not an
    official board" for a team board file)."""
    return [HistoryEntry(None, f"Note: {note}", EntryKind.EVENT)
            for module in modules_of(config) if module.notes for note in module.notes(config)]


class GameStep(NamedTuple):
    """One step of a game, as the game's tracker resolved it: what a chance event drew, or
    the actions of a turn (of the player to move before it); and the game after it."""

    what: Draw | tuple[Action, ...]
    state: GameState


def chance_lines(drew: Draw, names: Sequence[str]) -> list[HistoryEntry]:
    """The log lines of a chance event that drew ``drew``."""
    return [HistoryEntry(None, text, EntryKind.CHANCE) for text in describe_chance(drew, names)]


def turn_lines(before: GameState, actions: Sequence[Action], names: Sequence[str]
               ) -> list[HistoryEntry]:
    """The log lines of a turn played from ``before``: one per action (a die choice is said
    with its action), then what its end set off (the end of a phase or of the game)."""
    return [HistoryEntry(seat, text, EntryKind.ACTION if seat is not None else EntryKind.EVENT)
            for seat, text in describe_turn(before, actions, names)]


@dataclass(frozen=True, slots=True)
class StateChanged:
    """``state`` and/or ``history`` changed: redraw."""


@dataclass(frozen=True, slots=True)
class ChatReceived:
    """A chat line arrived (it is also in ``history``)."""

    seat: int
    text: str


@dataclass(frozen=True, slots=True)
class Notice:
    """Something the player should read on the message line (a peer left, an error)."""

    text: str


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game stopped before its end (``Table.ended`` says why)."""

    reason: str


TableEvent = StateChanged | ChatReceived | Notice | GameEnded


@runtime_checkable
class Table(Protocol):
    """The game as the UI sees it. Reading is free; only the methods change anything."""

    @property
    def names(self) -> list[str]:
        """Player names by seat."""

    @property
    def my_seat(self) -> int | None:
        """Our seat; None when only watching (a spectator or a replay)."""

    @property
    def networked(self) -> bool:
        """True if other people play at this table (quitting then asks first)."""

    @property
    def state(self) -> GameState:
        """The current engine state (the UI never mutates it)."""

    @property
    def history(self) -> Sequence[HistoryEntry]:
        """Everything that happened, oldest first: chance events, actions, chat."""

    @property
    def ended(self) -> str | None:
        """Why the game stopped early (e.g. "Ann resigned"), or None."""

    def submit_turn(self, actions: list[Action]) -> None:
        """Play our whole turn (the last action is EndTurn); raises EngineError if illegal."""

    def send_chat(self, text: str) -> None:
        """Say one line to the table."""

    def resign(self) -> None:
        """Give up: the game ends for everyone (it shows as resigned in the log)."""

    def poll(self) -> list[TableEvent]:
        """What changed since the last call; never blocks."""

    def waiting_for(self) -> str | None:
        """What the game waits for if not for us, e.g. "waiting for Bob's turn"."""


@runtime_checkable
class Endable(Protocol):
    """A networked table where the only player left (the others resigned or were handed to
    bots) may end the game as the winner: ``resign`` then does that."""

    @property
    def may_end(self) -> bool:
        """Whether we are the only player left and the game is not over."""


@runtime_checkable
class Steppable(Protocol):
    """A table that can be moved through time (a replay)."""

    def step(self, delta: int) -> None:
        """Move ``delta`` steps forward (negative: back), clamped to the record."""

    def step_turn(self, delta: int) -> None:
        """Move ``delta`` turns forward (negative: back), clamped to the record."""

    def step_round(self, delta: int) -> None:
        """Move to the start of the ``delta``-th round from here (negative: back; 0: the
        start of this one), clamped to the record."""

    def step_of(self, phase: int, game_round: int | None = None) -> int | None:
        """The first step in ``phase`` (0-4; and its round ``game_round``, 0-4), or None."""

    @property
    def position(self) -> tuple[int, int]:
        """(current step, number of steps)."""


@runtime_checkable
class Handover(Protocol):
    """A networked table where a player who is gone can be replaced by a bot, if every
    other player agrees."""

    def gone(self) -> list[int]:
        """Seats the game has waited on for a while without hearing from them (and that we
        have not agreed to hand over yet), the one the game waits for first."""

    def seat_to_bot(self, seat: int) -> None:
        """Agree that a bot plays ``seat`` for the rest of the game."""


@runtime_checkable
class Recorded(Protocol):
    """A live table that holds the game's steps from its start (what the catch-up, ``M``,
    steps through)."""

    @property
    def steps(self) -> Sequence[GameStep]:
        """Every step so far: what each chance event drew and each turn's actions, with the
        game after it."""


class Clocks(NamedTuple):
    """The table's game clock as it stands: each seat's seconds left, and the seats whose
    clocks run (the game waits for their decision)."""

    left: tuple[float, ...]
    running: tuple[int, ...]


@runtime_checkable
class Clocked(Protocol):
    """A table that may have a game clock (net/clock.py)."""

    @property
    def clocks(self) -> Clocks | None:
        """The game clock now, or None where the table has none."""


@runtime_checkable
class Ruled(Protocol):
    """A table that has rules beyond the game's (net/tablerules.py): whether a player may
    ask the bot for hints, and its game clock."""

    @property
    def rules(self) -> TableRules:
        """The table's rules (a networked table's host chose them; everyone signed them)."""


@runtime_checkable
class Drafting(Protocol):
    """A table that keeps our turn's choices as they are made (a local game saves them), so
    that a turn left half done comes back as it was, and where our last turn ended, so that
    a restored game marks what the others did since as the session that saw it did."""

    def keep_draft(self, actions: Sequence[Action]) -> None:
        """Our turn so far (legal from ``state``); the table forgets it when a turn is
        played."""

    @property
    def kept_draft(self) -> tuple[Action, ...]:
        """The choices of our turn under way, kept (empty when none)."""

    @property
    def last_turn_end(self) -> tuple[int, GameState] | None:
        """The length of ``history`` and the game when we last ended a turn (None: not
        yet)."""


@runtime_checkable
class Resigned(Protocol):
    """A table whose players may resign: who did, and when, for the final scores."""

    @property
    def resignations(self) -> Sequence[str]:
        """One sentence per resignation, then the verdict for each seat, as ``burgundy
        verify`` says them (once the game is over)."""


@runtime_checkable
class Scored(Protocol):
    """A table that knows every player's VP at the end of each round so far."""

    @property
    def round_scores(self) -> list[tuple[int, ...]]:
        """VP by seat at the end of each round played (the last: the final scores)."""


class ScoreTrack:
    """Every player's VP at the end of each round, from the states of a game in order.

    A round ends when the next round's dice are due; the game's end adds the final scores.

    >>> live = LocalTable.new("Ann", bots=1, seed=3)
    >>> _ = live.poll()
    >>> live.round_scores  # the first round is still being played
    []
    """

    def __init__(self) -> None:
        self._ended: dict[int, tuple[int, ...]] = {}  # round number (0..24) -> VP by seat

    def observe(self, state: GameState) -> None:
        """Note ``state`` if it closes a round (followed in order; repeats are harmless)."""
        event = state.chance
        if state.is_over:
            self._ended[PHASES * ROUNDS - 1] = tuple(p.vp for p in state.players)
        elif event is not None and event.kind == ChanceKind.ROUND and event.phase + event.round:
            ended = ROUNDS * event.phase + event.round - 1
            self._ended[ended] = tuple(p.vp for p in state.players)

    @property
    def rounds(self) -> list[tuple[int, ...]]:
        return [self._ended[r] for r in sorted(self._ended)]


def clean_name(name: str, default: str = "Player") -> str:
    """A name safe to draw: printable, single-width characters, at most 16 of them.

    >>> clean_name("  Ann\\x1b[2J "), clean_name(""), clean_name("王")
    ('Ann?[2J', 'Player', '?')
    """
    return clean_text(name.strip(), MAX_NAME) or default


def clean_text(text: str, limit: int = MAX_CHAT) -> str:
    """Control and wide characters become ``?``; at most ``limit`` characters.

    >>> clean_text("hi\\tthere")
    'hi?there'
    """
    out = []
    for ch in text[:limit]:
        wide = unicodedata.east_asian_width(ch) in ("W", "F")
        ok = ch.isprintable() and not wide and unicodedata.combining(ch) == 0
        out.append(ch if ok else "?")
    return "".join(out)


BotForTurn = Callable[[GameState], Strategy]
"""A bot's seat: given the state one of its turns starts from, the strategy that plays it."""


def turn_seed(seed: int, seat: int, state: GameState) -> int:
    """The seed of the bot in ``seat`` for its turn from ``state``, in the game dealt from
    ``seed``: a function of the position alone, so that a restored game's bots play on
    exactly as they would have.

    >>> state = new_game(GameConfig(players=2))
    >>> turn_seed(7, 1, state) == turn_seed(7, 1, state) != turn_seed(7, 2, state)
    True
    """
    base = bot_seed(seed, 0, 0, seat).to_bytes(8, "big")
    digest = hashlib.sha256(b"p2p-burgundy/local/bot" + base + state_hash(state)).digest()
    return int.from_bytes(digest[:8], "big")


class Shown:
    """What a local and a networked table read the same way, kept once: the players' names,
    the log, and how the game ended (``_names``, ``_history`` and ``_ended``, which each
    table keeps up to date)."""

    _names: list[str]
    _history: list[HistoryEntry]
    _ended: str | None

    @property
    def names(self) -> list[str]:
        return list(self._names)

    @property
    def history(self) -> Sequence[HistoryEntry]:
        return self._history

    @property
    def ended(self) -> str | None:
        return self._ended


class LocalTable(Shown):
    """An engine-only game with bots in this process (no network).

    ``bots`` maps each bot's seat to the strategy of each of its turns (:data:`BotForTurn`);
    every other seat is ``my_seat``. Chance events are resolved as soon as they come up,
    with ``entropy(index)`` (32 bytes). Bots move inside :meth:`poll`: all at once, or one
    turn per ``bot_delay`` seconds of ``clock`` so that a person can follow.

    A game dealt from a seed (:meth:`seeded`) is data (:meth:`saved`): the client sets
    ``saving``, called with it after every change, and :meth:`restore` brings it back.
    """

    networked = False
    rules = TableRules(hints=True)  # nobody else to be fair to, and no clock

    def __init__(self, config: GameConfig, names: Sequence[str], my_seat: int | None,
                 bots: Mapping[int, BotForTurn], entropy: Callable[[int], bytes],
                 bot_delay: float = 0.0, clock: Callable[[], float] = time.monotonic) -> None:
        if len(names) != config.players:
            raise ValueError(f"{len(names)} names for {config.players} players")
        seats = set(range(config.players))
        humans = seats - set(bots)
        if humans != ({my_seat} if my_seat is not None else set()):
            raise ValueError("every seat but my_seat needs a bot")
        self._names = [clean_name(n, f"Seat {i + 1}") for i, n in enumerate(names)]
        self._my_seat = my_seat
        self._bots = dict(bots)
        self._entropy = entropy
        self._bot_delay = bot_delay
        self._clock = clock
        self._recorder = Recorder(config)
        self._steps: list[GameStep] = []
        self._history: list[HistoryEntry] = []
        self._chat: list[tuple[int, str]] = []  # (steps played before it, text)
        self._draft: tuple[Action, ...] = ()  # our turn under way, as far as it is chosen
        self._turn_end: tuple[int, GameState] | None = None
        self._events: list[TableEvent] = []
        self._ended: str | None = None
        self._next_bot_time = clock()
        self._track = ScoreTrack()
        self.seed: int | None = None
        """The seed the game's chance comes from, where it has one (replayable)."""
        self.strategy: str | None = None
        """The name of the bots' strategy, in a game dealt from a seed."""
        self.saving: Callable[[SavedGame], None] | None = None
        """Where the game goes after every change (a turn, a chance event, chat, resigning):
        the client writes it to disk. An OSError it raises becomes a notice, and
        ``not_saved`` (which the status line shows) until a save works again."""
        self.not_saved: str | None = None
        """Why the game on disk is behind the game played (the last save failed), or None."""

    @classmethod
    def new(cls, name: str, bots: int = 1, seed: int | None = None, strategy: str = "greedy",
            bot_delay: float = 0.0, clock: Callable[[], float] = time.monotonic,
            modules: tuple[Module, ...] = (), switches: Sequence[str] = ()) -> LocalTable:
        """A game of ``name`` (seat 0) against ``bots`` bots; a ``seed`` makes it repeatable;
        ``modules``: the 2019 expansion modules (2019 edition); ``switches``: the modes of
        play switched on (``("team",)``: the team game against 3 bots, ``name`` and Bot 2
        against Bots 1 and 3, on the provisional board).

        >>> LocalTable.new("Ann", bots=3).names
        ['Ann', 'Bot 1', 'Bot 2', 'Bot 3']
        """
        if not 1 <= bots <= 3:
            raise ValueError(f"play against 1 to 3 bots, not {bots}")
        config = table_config(bots + 1, None, None, None, modules, switches=switches)
        return cls.seeded(config, name, seed, strategy, bot_delay, clock)

    @classmethod
    def solo(cls, name: str, config: GameConfig, seed: int | None) -> LocalTable:
        """The solo game (``config`` for one player) dealt from ``seed`` (None: a new one):
        the same seed gives the same dice and draws, so a game can be replayed and shared.

        >>> from p2p_burgundy import Edition, GameConfig
        >>> table = LocalTable.solo("Ann", GameConfig(1, Edition.E2019), seed=7)
        >>> _ = table.poll(); table.seed, table.state.to_move
        (7, 0)
        """
        return cls.seeded(config, name, seed)

    @classmethod
    def seeded(cls, config: GameConfig, name: str, seed: int | None, strategy: str = "greedy",
               bot_delay: float = 0.0, clock: Callable[[], float] = time.monotonic
               ) -> LocalTable:
        """``name`` in seat 0 and bots of ``strategy`` in the others; chance and the bots'
        seeds from ``seed`` (None: a new random one)."""
        names = [name, *(f"Bot {i}" for i in range(1, config.players))]
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "big")
        return cls._dealt(config, names, seed, strategy, bot_delay, clock)

    @classmethod
    def _dealt(cls, config: GameConfig, names: Sequence[str], seed: int, strategy: str,
               bot_delay: float, clock: Callable[[], float]) -> LocalTable:
        def entropy(index: int) -> bytes:
            return chance_entropy(seed, 0, index)

        def bot(seat: int) -> BotForTurn:
            return lambda state: make(strategy, turn_seed(seed, seat, state))

        table = cls(config, names, 0, {seat: bot(seat) for seat in range(1, config.players)},
                    entropy, bot_delay, clock)
        table.seed, table.strategy = seed, strategy
        table._history += module_notes(config)
        if config.solo:
            table._history.append(HistoryEntry(
                None, f"Solo game: seed {seed} (burgundy solo --seed {seed} replays it).",
                EntryKind.EVENT))
        return table

    @classmethod
    def restore(cls, saved: SavedGame, bot_delay: float = 0.0,
                clock: Callable[[], float] = time.monotonic) -> LocalTable:
        """The game ``saved`` where it stopped: the same state, log and scores, and the bots
        play on as they would have (strategies are made as their turns come). LocalGameError
        if a step does not replay (naming it).

        >>> table = LocalTable.new("Ann", bots=2, seed=3)
        >>> _ = table.poll()
        >>> again = LocalTable.restore(table.saved())
        >>> state_hash(again.state) == state_hash(table.state), again.history == table.history
        (True, True)
        """
        saved.final_state()  # every step checked first, so that a failure names its step
        table = cls._dealt(saved.record.config, saved.names, saved.seed, saved.strategy,
                           bot_delay, clock)
        entropy, actions, chat = saved.record.entropy, saved.record.actions, list(saved.chat)
        drawn = played = 0
        ours = False  # our turn was the last one recorded
        while True:
            if ours and table.state.chance is None:  # as submit_turn leaves it
                table._turn_end, ours = (len(table._history), table.state), False
            while chat and chat[0][0] <= len(table._steps):
                table._say(chat.pop(0)[1])
            if table.state.chance is not None and drawn < len(entropy):
                table._draw(entropy[drawn])
                drawn += 1
            elif table.state.chance is None and played < len(actions):
                end = next((i + 1 for i in range(played, len(actions)) if ends_turn(actions[i])),
                           len(actions))
                ours = table.state.to_move == table._my_seat
                table._record_turn(actions[played:end])
                played = end
            else:
                break
        for _, text in chat:
            table._say(text)
        if saved.resigned:
            table.resign()
        table._draft = saved.draft
        table._events = [StateChanged()]  # the client starts from here: a turn, maybe ours
        return table

    # --- reading -------------------------------------------------------------------------

    @property
    def my_seat(self) -> int | None:
        return self._my_seat

    @property
    def state(self) -> GameState:
        return self._recorder.state

    @property
    def round_scores(self) -> list[tuple[int, ...]]:
        return self._track.rounds

    @property
    def steps(self) -> Sequence[GameStep]:
        return tuple(self._steps)

    def replay(self) -> ReplayTable:
        """The game so far, to watch step by step."""
        return ReplayTable(self._recorder.config, self._steps, self._names)

    def saved(self) -> SavedGame:
        """The game as it stands, as data to save (a game dealt from a seed)."""
        assert self.seed is not None and self.strategy is not None, "not a seeded game"
        return SavedGame(tuple(self._names), self.seed, self.strategy,
                         self._recorder.record(), tuple(self._chat), self._ended is not None,
                         self._draft)

    @property
    def kept_draft(self) -> tuple[Action, ...]:
        return self._draft

    @property
    def last_turn_end(self) -> tuple[int, GameState] | None:
        return self._turn_end

    def waiting_for(self) -> str | None:
        state = self.state
        if self._ended or state.is_over:
            return None
        if state.chance is not None:
            return "waiting for the dice"
        seat = state.to_move
        if seat == self._my_seat:
            return None
        return f"waiting for {short_name(self._names[seat])}'s turn" if seat is not None else None

    # --- changing ------------------------------------------------------------------------

    def poll(self) -> list[TableEvent]:
        changed = self._resolve_chance()
        while not self._ended and self.state.to_move in self._bots:
            now = self._clock()
            if self._bot_delay and now < self._next_bot_time:
                break
            self._bot_turn()
            changed = self._resolve_chance() or True
            self._next_bot_time = now + self._bot_delay
            if self._bot_delay:
                break
        if changed:
            self._events.append(StateChanged())
            self._save()
        events, self._events = self._events, []
        return events

    def submit_turn(self, actions: list[Action]) -> None:
        state = self.state
        if self._ended or state.to_move is None or state.to_move != self._my_seat:
            raise IllegalAction("it is not your turn")
        play_turn(state, actions)  # the whole turn checked before any of it is recorded
        self._record_turn(actions)
        self._resolve_chance()
        self._turn_end = (len(self._history), self.state)
        self._next_bot_time = self._clock() + self._bot_delay
        self._events.append(StateChanged())
        self._save()

    def keep_draft(self, actions: Sequence[Action]) -> None:
        if tuple(actions) != self._draft:
            self._draft = tuple(actions)
            self._save()

    def send_chat(self, text: str) -> None:
        text = clean_text(text)
        if not text.strip():
            return
        self._say(text)
        self._save()

    def resign(self) -> None:
        if self._ended or self.state.is_over:
            return
        who = self._names[self._my_seat] if self._my_seat is not None else "The host"
        self._ended = f"{who} resigned"
        self._history.append(HistoryEntry(self._my_seat, f"{who} resigned.", EntryKind.EVENT))
        self._events += [StateChanged(), GameEnded(self._ended)]
        self._save()

    # --- internals -----------------------------------------------------------------------

    def _resolve_chance(self) -> bool:
        changed = False
        while (event := self.state.chance) is not None:
            self._draw(self._entropy(event.index))
            changed = True
        return changed

    def _draw(self, entropy: bytes) -> None:
        self._track.observe(self.state)
        drew = self._recorder.chance(entropy)
        self._steps.append(GameStep(drew, self.state))
        self._history += chance_lines(drew, self._names)

    def _bot_turn(self) -> None:
        before = self.state
        seat = before.to_move
        assert seat is not None
        bot = self._bots[seat](before)
        actions: list[Action] = []
        while not actions or not ends_turn(actions[-1]):
            action = bot.choose(self.state, legal_actions(self.state))
            self._recorder.act(action)
            actions.append(action)
        self._log_turn(before, actions)

    def _record_turn(self, actions: Sequence[Action]) -> None:
        """Play and log a whole turn (its actions known to be legal)."""
        before = self.state
        for action in actions:
            self._recorder.act(action)
        self._log_turn(before, actions)

    def _log_turn(self, before: GameState, actions: Sequence[Action]) -> None:
        self._draft = ()
        self._track.observe(self.state)  # the game's end
        self._steps.append(GameStep(tuple(actions), self.state))
        self._history += turn_lines(before, actions, self._names)

    def _say(self, text: str) -> None:
        seat = self._my_seat if self._my_seat is not None else 0
        self._chat.append((len(self._steps), text))
        self._history.append(HistoryEntry(seat, text, EntryKind.CHAT))
        self._events.append(ChatReceived(seat, text))

    def _save(self) -> None:
        if self.saving is None:
            return
        try:
            self.saving(self.saved())
        except OSError as exc:
            if self.not_saved is None:
                self._events.append(Notice(f"Not saved: {exc.strerror or exc}. It is tried "
                                           "again at each step."))
            self.not_saved = exc.strerror or str(exc)
        else:
            if self.not_saved is not None:
                self._events.append(Notice("The game is saved again: nothing is lost."))
            self.not_saved = None


def _round_of(state: GameState) -> tuple[int, int]:
    return state.phase, state.round


class ReplayTable:
    """A game's steps (see :class:`GameStep`), watched one step at a time.

    A step here is a chance event or one action; :meth:`step_turn` moves a whole turn (a
    chance event counts as one). ``my_seat`` is None: nothing can be played.

    >>> live = LocalTable.new("Ann", bots=1, seed=3)
    >>> _ = live.poll()
    >>> replay = live.replay()
    >>> replay.position  # set-up, phase, round, then Bot 1's turn of five actions
    (8, 8)
    >>> replay.step_turn(-1); replay.position, replay.state.to_move
    ((3, 8), 1)
    >>> replay.step(2); replay.history[-1].text  # the die and what it did: one sentence
    'Bot 1 took Twr (watchtower) from depot 4 with a 4.'
    """

    networked = False
    my_seat = None
    ended = None

    def __init__(self, config: GameConfig, steps: Sequence[GameStep],
                 names: Sequence[str] | None = None) -> None:
        self._names = [clean_name(n) for n in names] if names else \
            [f"Seat {i + 1}" for i in range(config.players)]
        state = new_game(config)
        self._states = [state]
        self._lengths = [0]  # history lines shown at each step
        self._bounds = [0]  # the steps where no turn is under way
        self._history: list[HistoryEntry] = []
        for what, after in steps:
            if isinstance(what, tuple):
                # One sentence per action (a die choice is said with its action), so the
                # log after k actions is a prefix of the whole turn's sentences.
                said = len(self._history)
                self._history += turn_lines(state, what, self._names)
                for action in what[:-1]:
                    state = apply(state, action)
                    said += not isinstance(action, UseDie)
                    self._states.append(state)
                    self._lengths.append(said)
            else:
                self._history += chance_lines(what, self._names)
            state = after
            self._states.append(state)
            self._lengths.append(len(self._history))
            self._bounds.append(len(self._states) - 1)
        self._pos = len(self._states) - 1
        self._moved = True

    @property
    def names(self) -> list[str]:
        return list(self._names)

    @property
    def state(self) -> GameState:
        return self._states[self._pos]

    @property
    def history(self) -> Sequence[HistoryEntry]:
        return self._history[:self._lengths[self._pos]]

    @property
    def position(self) -> tuple[int, int]:
        return self._pos, len(self._states) - 1

    @property
    def round_scores(self) -> list[tuple[int, ...]]:
        track = ScoreTrack()
        for state in self._states[:self._pos + 1]:
            track.observe(state)
        return track.rounds

    def step(self, delta: int) -> None:
        self._go(max(0, min(len(self._states) - 1, self._pos + delta)))

    def step_turn(self, delta: int) -> None:
        """Move ``delta`` whole turns (or chance events) forward, negative: back."""
        pos = self._pos
        for _ in range(abs(delta)):
            if delta > 0:
                pos = next((b for b in self._bounds if b > pos), pos)
            else:
                pos = next((b for b in reversed(self._bounds) if b < pos), pos)
        self._go(pos)

    def step_round(self, delta: int) -> None:
        """Move to the start of the ``delta``-th round from here (a round starts with the
        chance event that rolls it); 0: the start of this round."""
        starts = [i for i, state in enumerate(self._states)
                  if i == 0 or _round_of(state) != _round_of(self._states[i - 1])]
        here = max(i for i, start in enumerate(starts) if start <= self._pos)
        if delta < 0 and starts[here] < self._pos:
            delta += 1  # back: first to the start of this round
        self._go(starts[max(0, min(len(starts) - 1, here + delta))])

    def step_of(self, phase: int, game_round: int | None = None) -> int | None:
        """The first step in ``phase`` (and its round ``game_round``), or None."""
        return next((i for i, state in enumerate(self._states)
                     if state.phase == phase and game_round in (None, state.round)), None)

    def _go(self, pos: int) -> None:
        self._moved = self._moved or pos != self._pos
        self._pos = pos

    def poll(self) -> list[TableEvent]:
        moved, self._moved = self._moved, False
        return [StateChanged()] if moved else []

    def waiting_for(self) -> str | None:
        pos, total = self.position
        return f"replay: step {pos} of {total}"

    def submit_turn(self, actions: list[Action]) -> None:
        raise IllegalAction("a replay cannot be played")

    def send_chat(self, text: str) -> None:
        """Nobody listens to a replay."""

    def resign(self) -> None:
        """Nothing to resign from."""
