"""The view model: what the screen shows besides the table itself, and what each key does
to it. No curses here: key handlers are plain methods that change the model and may return a
:data:`Command` for the app to carry out on the table.

The choices on offer come from :mod:`.menu`; our turn so far, with undo, is a
:class:`~.draft.TurnDraft`. The model adds where the player is in the menu, the pages over
the board, questions, chat and the messages of the status line.

>>> from p2p_burgundy.cli.tui.table import LocalTable
>>> table = LocalTable.new("Ann", bots=1, seed=3)
>>> _ = table.poll()
>>> model = Model(table)
>>> model.refresh()
>>> [o.key + " " + o.label for o in model.options()]
['1 use die 1: a 3', '2 use die 2: a 4']
>>> model.hotkey("2"); [o.key for o in model.options()]
['t', 's', 'w']
>>> model.hotkey("w"); model.draft.actions
[UseDie(die=1), TakeWorkers()]
>>> model.undo(); model.draft.actions
[UseDie(die=1)]
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from p2p_burgundy import (
    END_TURN,
    Action,
    ChooseEstate,
    EndTurn,
    EngineError,
    GameState,
    UseDie,
    ends_turn,
    legal_actions,
    state_hash,
)
from p2p_burgundy.board import PHASE_LETTERS
from p2p_burgundy.state import Step
from p2p_burgundy.variants import STEP_WORDS as MODULE_STEPS
from p2p_burgundy.variants import modules_of

from .describe import describe_played
from .draft import (
    CatchUpFrame,
    Changes,
    TurnDraft,
    catch_up_frames,
    changes_between,
    what_seat_did,
)
from .layout import MIN_WIDTH
from .menu import Option
from .settings import HintLevel, Settings
from .table import (
    Drafting,
    Endable,
    EntryKind,
    Handover,
    Recorded,
    Ruled,
    Scored,
    ScoreTrack,
    Steppable,
    Table,
)
from .texts import RULE_REMINDERS, guide, info_for_shield, info_for_tile, seat_name

if TYPE_CHECKING:
    from .hint import Hint
    from .learn import Lesson


class Context(Enum):
    """Which keys work now (the app's keymap has one section per context)."""

    PLAY = "play"  # our turn: choosing
    WAIT = "wait"  # someone else's turn (or watching)
    REPLAY = "replay"
    SCORES = "scores"  # the game is over
    STANDINGS = "standings"  # the scores page during the game
    CHART = "chart"  # the VP of every player round by round
    HINT = "hint"  # what the bot would do now
    CATCH_UP = "catch_up"  # the others' actions since our last turn, one by one
    SETTINGS = "settings"  # the hint level and the palette
    HELP = "help"
    INFO = "info"
    LOG = "log"
    CHAT = "chat"
    CONFIRM = "confirm"
    TOO_SMALL = "too_small"


class Overlay(Enum):
    """A page shown over the board."""

    HELP = "help"
    INFO = "info"
    LOG = "log"
    SCORES = "scores"
    CHART = "chart"
    HINT = "hint"
    CATCH_UP = "catch_up"  # the others' actions since our last turn, on their estates
    SETTINGS = "settings"  # the player's settings: the hint level, the palette


class Ask(Enum):
    """What a yes/no question is about."""

    END_TURN = "end_turn"
    RESIGN = "resign"
    QUIT = "quit"
    SEAT_TO_BOT = "seat_to_bot"


@dataclass(frozen=True, slots=True)
class Submit:
    """Send our whole turn to the table."""

    actions: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class SendChat:
    """Say a line to the table."""

    text: str


@dataclass(frozen=True, slots=True)
class Resign:
    """Give up the game (already confirmed)."""


@dataclass(frozen=True, slots=True)
class Quit:
    """Leave the client."""


@dataclass(frozen=True, slots=True)
class StepReplay:
    """Move a replay ``delta`` actions (or whole turns, or rounds)."""

    delta: int
    turns: bool = False
    rounds: bool = False


@dataclass(frozen=True, slots=True)
class SeatToBot:
    """Agree that a bot plays ``seat`` (a player who is gone), already confirmed."""

    seat: int


@dataclass(frozen=True, slots=True)
class AskHint:
    """Ask the strongest bot what it would do in ``state`` (our turn so far)."""

    state: GameState


@dataclass(frozen=True, slots=True)
class ChangeSettings:
    """The player changed a setting: apply ``settings`` (the palette) and keep them."""

    settings: Settings


Command = Submit | SendChat | Resign | Quit | StepReplay | SeatToBot | AskHint | ChangeSettings


@dataclass(slots=True)
class Confirm:
    ask: Ask
    question: str
    seat: int | None = None  # the seat a SEAT_TO_BOT question is about


@dataclass(slots=True)
class MenuView:
    """What the choices pane shows."""

    prompt: str
    options: list[Option]
    cursor: int
    path: list[str] = field(default_factory=list)


class Model:
    """Everything the screen shows besides the table itself; no curses.

    Handlers return a :data:`Command` (or None) for the app to carry out.
    """

    def __init__(self, table: Table, lesson: Lesson | None = None) -> None:
        self.table = table
        self.lesson = lesson  # a guided game's steps (``burgundy learn``)
        self.draft: TurnDraft | None = None
        self.path: list[int] = []
        self.cursor = 0
        my = table.my_seat
        self.view_seat = my if my is not None else 0
        self.overlay: Overlay | None = None
        self.overlay_scroll = 0
        self.chat: str | None = None
        self.going_to = False  # the line typed (``chat``) is where a replay goes, not chat
        self.settings = Settings()  # the app's: saved ones, or the environment's
        self.confirm: Confirm | None = None
        self.message = ""
        self.log_scroll = 0  # lines up from the newest
        self.info_index = 0
        self.mark = 0  # history length when we last ended a turn
        self.mark_state: GameState | None = None  # the table when we last ended a turn
        if isinstance(table, Drafting) and table.last_turn_end is not None:  # restored
            self.mark, self.mark_state = table.last_turn_end
        self.scores_shown = False
        self.too_small = False
        self._track = ScoreTrack()
        self.changes: Changes = frozenset()  # marked on the board until we choose something
        self.hint: Hint | None = None  # the bot's suggestion for ``hint_for``
        self.hint_for: GameState | None = None
        self._shown: GameState | None = None  # the table's state at the last refresh
        self.catching: list[CatchUpFrame] = []  # the catch-up's frames (``M``)
        self.catch_index = 0  # the frame shown

    # --- reading -------------------------------------------------------------------------

    @property
    def hint_level(self) -> HintLevel:
        """How much the board helps (a setting)."""
        return self.settings.hints

    @property
    def state(self) -> GameState:
        """The game as the board shows it: a catch-up's frame, our turn so far, or the
        table's."""
        frame = self.catch_up_frame()
        if frame is not None:
            return frame.state
        return self.draft.state if self.draft else self.table.state

    def catch_up_frame(self) -> CatchUpFrame | None:
        """The other player's action the catch-up shows (None: no catch-up open)."""
        if self.overlay != Overlay.CATCH_UP or not self.catching:
            return None
        return self.catching[self.catch_index]

    @property
    def replay(self) -> bool:
        return isinstance(self.table, Steppable)

    @property
    def game_over(self) -> bool:
        return self.table.state.is_over or self.table.ended is not None

    def context(self) -> Context:
        if self.too_small:
            return Context.TOO_SMALL
        if self.confirm:
            return Context.CONFIRM
        if self.chat is not None:
            return Context.CHAT
        if self.overlay == Overlay.HELP:
            return Context.HELP
        if self.overlay == Overlay.INFO:
            return Context.INFO
        if self.overlay == Overlay.LOG:
            return Context.LOG
        if self.overlay == Overlay.CHART:
            return Context.CHART
        if self.overlay == Overlay.HINT:
            return Context.HINT
        if self.overlay == Overlay.CATCH_UP:
            return Context.CATCH_UP
        if self.overlay == Overlay.SETTINGS:
            return Context.SETTINGS
        if self.overlay == Overlay.SCORES and not self.game_over:
            return Context.STANDINGS
        return self.base_context()

    def base_context(self) -> Context:
        """The screen under any page, question or chat: play, wait, replay or scores."""
        if self.replay:
            return Context.REPLAY
        if self.game_over:
            return Context.SCORES
        return Context.PLAY if self.draft else Context.WAIT

    def menu(self) -> MenuView | None:
        """The choices at the current step of the draft, or None when not our turn."""
        if not self.draft:
            return None
        prompt, options = self.draft.menu()
        crumbs = []
        for index in self.path:
            group = options[index]
            crumbs.append(group.label)
            prompt, options = group.prompt, list(group.children)
        return MenuView(prompt, options, min(self.cursor, max(0, len(options) - 1)), crumbs)

    def help_topic(self) -> str:
        """Which kind of decision the screen is at, a key of
        :data:`~.texts.RULE_REMINDERS`."""
        if self.replay:
            return "replay"
        if self.game_over:
            return "scores"
        if not self.draft:
            return "wait"
        state = self.draft.state
        step = state.step
        if self.path:
            group = self.draft.menu()[1][self.path[0]].key
            return {"t": "take", "p": "place", "s": "sell", "b": "buy",
                    "h": "shield", "d": "shield", "m": "shield"}.get(group, "place")
        if step == Step.TURN:
            return "turn" if any(isinstance(a, UseDie) for a in legal_actions(state)) \
                else "turn_done"
        return {Step.DIE: "die", Step.FREE_ACTION: "free", Step.DISCARD: "discard",
                Step.SHIP: "ship", Step.CHOOSE_ESTATE: "estate"}.get(step, "building")

    def rule_reminder(self) -> str:
        """The rule of the decision at hand, in a line of the help page: its module's words
        for a module's step, for a base game's step a module changes (the solo game's ship)
        or for the end of a game it scores its own way (the solo and the team game), else the
        client's for :meth:`help_topic`."""
        modules = modules_of(self.state.config)
        if self.game_over and not self.replay:
            own = [m.scores_reminder for m in modules if m.scores_reminder]
            if own:
                return own[0]
        if not (self.path or not self.draft or self.replay or self.game_over):
            step = self.draft.state.step
            words = MODULE_STEPS.get(step)
            if words and words.reminder:
                return words.reminder
            changed = [text for m in modules for s, text in m.step_reminders if s == step]
            if changed:
                return changed[0]
        return RULE_REMINDERS[self.help_topic()]

    def options(self) -> list[Option]:
        menu = self.menu()
        return menu.options if menu else []

    def selected(self) -> Option | None:
        menu = self.menu()
        if not menu or not menu.options:
            return None
        return menu.options[menu.cursor]

    # --- keeping up with the table -------------------------------------------------------

    def refresh(self) -> None:
        """Follow the table after it changed: start or drop our turn's draft."""
        table = self.table
        state = table.state
        self._track.observe(state)
        if self.replay and self._shown is not None and self._shown is not state:
            self.changes = changes_between(self._shown, state)
        self._shown = state
        mine = (not self.game_over and table.my_seat is not None
                and state.to_move == table.my_seat)
        if not mine:
            self.draft = None
            self.path, self.cursor = [], 0
            if self.confirm and self.confirm.ask == Ask.END_TURN:
                self.confirm = None
        elif self.draft is None or (self.draft.base is not state
                                    and state_hash(self.draft.base) != state_hash(state)):
            self.draft = TurnDraft(state)
            if isinstance(table, Drafting):  # a turn left half done comes back as it was
                with contextlib.suppress(EngineError):  # a kept choice that no longer applies
                    for action in table.kept_draft:
                        self.draft.apply(action)
            self.path, self.cursor = [], 0
            self.message = "Your turn. " + self.since_last_turn()
            if self.mark_state is not None:
                # Our own estate is marked too when the guided game jumped ahead (the bot
                # played our seat meanwhile); else only the others changed it.
                stood_in = self.lesson is not None and any(
                    entry.seat == table.my_seat and entry.kind == EntryKind.ACTION
                    for entry in table.history[self.mark:])
                self.changes = changes_between(self.mark_state, state,
                                               None if stood_in else table.my_seat)
        if self.replay and not self.game_over:
            self.scores_shown = False  # a replay shows the scores each time it reaches the end
        if self.game_over and not self.scores_shown:
            self.scores_shown = True
            self.overlay = Overlay.SCORES
            self.message = table.ended or "The game is over."

    def lesson_text(self) -> list[str]:
        """The guided game's step at hand (empty outside a lesson)."""
        if self.lesson is None:
            return []
        if self.draft is None:
            return self.lesson.instruction(self.table.state, [])
        pressed, options = [], self.draft.menu()[1]
        for index in self.path:  # the menus opened since the last choice
            pressed.append(options[index].key)
            options = list(options[index].children)
        return self.lesson.instruction(self.draft.state, self.draft.actions, pressed)

    def draft_sentences(self) -> list[str]:
        """Our turn so far as log sentences (shown as not yet sent)."""
        draft = self.draft
        if draft is None or not draft.actions:
            return []
        return [text for _, text in describe_played(draft.turn, self.table.names)]

    def since_last_turn(self, width: int = MIN_WIDTH - len("Your turn. ")) -> str:
        """What the others did since we last ended a turn, in at most ``width`` columns:
        the tiles they placed and took, whether they sold, and their VP (fewer words when
        that is too long; the log has every sentence). Empty before our first turn ends."""
        before = self.mark_state
        if before is None:
            return ""
        state = self.table.state
        others = [s for s in range(len(self.table.names)) if s != self.table.my_seat]
        if not others:  # the solo game: nobody else plays
            return ""
        forms = []
        for detail in (2, 1, 0):
            parts = [what_seat_did(before, state, seat, self.table.names[seat], detail)
                     for seat in others]
            forms.append(f"Meanwhile {'; '.join(parts)}.")
        return next((f for f in forms if len(f) <= width), forms[-1])

    def turn_sent(self) -> None:
        """The table took our turn: remember where the log stood."""
        self.mark = len(self.table.history)
        self.mark_state = self.table.state
        self.draft = None
        self.path, self.cursor = [], 0
        self.message = ""
        self.log_scroll = 0

    # --- choosing ------------------------------------------------------------------------

    def cursor_up(self) -> None:
        self.cursor = max(0, self.cursor - 1)

    def cursor_down(self) -> None:
        self.cursor = min(max(0, len(self.options()) - 1), self.cursor + 1)

    def select(self) -> Command | None:
        """Choose the option under the cursor (Enter)."""
        menu = self.menu()
        if not menu or not menu.options:
            self.message = "Nothing to choose now."
            return None
        return self._choose(menu.cursor)

    def hotkey(self, key: str) -> Command | None:
        """Choose the option with this key; say so when there is none."""
        for index, option in enumerate(self.options()):
            if option.key == key:
                return self._choose(index)
        if key == "e" and self.draft:
            return self.end_turn()
        if self.draft:
            self.message = f"'{key}' is not a choice here; ? shows the keys."
        return None

    def click(self, index: int) -> Command | None:
        """A click on something highlighted for option ``index`` of the current step."""
        if 0 <= index < len(self.options()):
            self.cursor = index
            return self._choose(index)
        return None

    def _choose(self, index: int) -> Command | None:
        assert self.draft is not None
        option = self.options()[index]
        self.message = ""
        self.changes = frozenset()
        if option.children:
            self.path.append(index)
            self.cursor = 0
            return None
        action = option.action
        assert action is not None
        if isinstance(action, EndTurn):
            return self.end_turn()
        if isinstance(action, ChooseEstate):
            return Submit((*self.draft.actions, action))  # a set-up choice is a whole turn
        try:
            self.draft.apply(action)
        except EngineError as exc:  # legal_actions offered it: an engine disagreement
            self.message = f"Refused: {exc}"
            return None
        self.path, self.cursor = [], 0
        return None

    def end_turn(self, confirmed: bool = False) -> Command | None:
        """End the turn (asks first if a die is unused); sends the whole turn."""
        draft = self.draft
        if draft is None:
            return None
        p = draft.state.players[draft.state.to_move or 0]
        unused = [str(p.dice[i]) for i in (0, 1) if not p.dice_used >> i & 1]
        if END_TURN not in legal_actions(draft.state):
            if draft.state.step == Step.TURN and unused:
                self.message = (f"Use your {' and '.join(unused)} first: one action per die "
                                "(taking workers always works).")
            else:
                self.message = "Finish this step first (or u to undo it)."
            return None
        if unused and not confirmed:  # only if the rules ever let a die go unused
            dice = " and the ".join(unused)
            self.confirm = Confirm(Ask.END_TURN,
                                   f"End your turn with the {dice} unused? (y/n)")
            return None
        return Submit((*draft.actions, END_TURN))

    def back(self) -> None:
        """Esc: up one level of choices; at a die's first choice, give the die back."""
        if self.path:
            self.cursor = self.path.pop()
            return
        draft = self.draft
        if draft and draft.actions and isinstance(draft.actions[-1], UseDie) \
                and draft.state.step == Step.DIE:
            draft.undo()
            self.cursor = 0
            self.message = "Die given back."
            return
        self.message = "Nothing to go back to (u undoes a whole step)."

    def undo(self) -> None:
        """Take back the last action of this turn."""
        self.changes = frozenset()
        if not self.draft:
            self.message = "Nothing to undo: it is not your turn."
            return
        action = self.draft.undo()
        self.path, self.cursor = [], 0
        self.message = "Undone." if action else "Nothing to undo yet this turn."

    def ask_hint(self) -> Command | None:
        """H: ask the bot what it would do now (where the table allows hints)."""
        if self.draft is None:
            self.message = "Hints are for your own turn."
            return None
        if self.hint_level == HintLevel.NONE:
            self.message = "Hints are off in your settings (O changes them)."
            return None
        if not (isinstance(self.table, Ruled) and self.table.rules.hints):
            self.message = "Hints are off at this table."
            return None
        if self.hint is not None and self.hint_for is self.draft.state:
            self.overlay = Overlay.HINT
            return None
        self.message = "Asking the bot (a moment)..."
        return AskHint(self.draft.state)

    def show_hint(self, hint: Hint, state: GameState) -> None:
        """The bot's answer for ``state`` (shown if our turn is still there)."""
        self.hint, self.hint_for = hint, state
        self.message = ""
        if self.draft is not None and self.draft.state is state:
            self.overlay = Overlay.HINT

    def follow_hint(self) -> None:
        """Enter on a hint: make its choices, as if their keys were pressed."""
        hint, self.overlay = self.hint, None
        if hint is None or self.draft is None or self.hint_for is not self.draft.state:
            self.message = "That hint was for another moment: H asks again."
            return
        for action in hint.actions:
            if ends_turn(action):
                self.message = "The bot would end the turn here: press e."
                break
            self.draft.apply(action)
        self.path, self.cursor, self.changes = [], 0, frozenset()

    def autoplay(self, choose: Callable[[GameState, list[Action]], Action]) -> Command | None:
        """Let ``choose(state, actions) -> Action`` play the rest of our turn."""
        draft = self.draft
        if draft is None:
            return None
        while True:
            action = choose(draft.state, legal_actions(draft.state))
            if ends_turn(action):
                return Submit((*draft.actions, action))
            draft.apply(action)

    # --- questions, chat and pages -------------------------------------------------------

    def answer(self, yes: bool) -> Command | None:
        confirm, self.confirm = self.confirm, None
        if confirm is None or not yes:
            self.message = "Cancelled."
            return None
        if confirm.ask == Ask.END_TURN:
            return self.end_turn(confirmed=True)
        if confirm.ask == Ask.RESIGN:
            return Resign()
        if confirm.ask == Ask.SEAT_TO_BOT and confirm.seat is not None:
            return SeatToBot(confirm.seat)
        return Quit()

    def ask_resign(self) -> None:
        if self.table.my_seat is None:
            self.message = "You are watching: there is nothing to resign from."
            return
        if self.game_over:
            self.message = "The game is over: there is nothing to resign from."
            return
        if isinstance(self.table, Endable) and self.table.may_end:
            self.confirm = Confirm(Ask.RESIGN, "End the game here, as the winner, instead of "
                                   "playing on against the bot? (y/n)")
            return
        what = ("A bot plays your seat from now on." if isinstance(self.table, Handover)
                else "The game ends for everyone.")
        self.confirm = Confirm(Ask.RESIGN, f"Resign? {what} (y/n)")

    def handover_seat(self) -> int | None:
        """The seat of a player gone long enough that we may let a bot play it, or None."""
        table = self.table
        if not isinstance(table, Handover) or self.game_over or table.my_seat is None:
            return None
        gone = table.gone()
        return gone[0] if gone else None

    def ask_seat_to_bot(self) -> None:
        """B: offer to let a bot play the seat of a player who is gone (asks first)."""
        seat = self.handover_seat()
        if seat is None:
            self.message = "Nobody has been gone long enough to be replaced by a bot."
            return
        name = self.table.names[seat]
        self.confirm = Confirm(Ask.SEAT_TO_BOT, f"Let a bot play {name}'s seat from now on? "
                               "Every other player must agree. (y/n)", seat)

    def quit(self) -> Command | None:
        """Quit at once, or ask first when other people play at this table."""
        if self.table.networked and not self.game_over and self.table.my_seat is not None:
            self.confirm = Confirm(Ask.QUIT, "Leave this game? The others cannot finish it "
                                   "without you. (y/n)")
            return None
        return Quit()

    def start_chat(self) -> None:
        if self.replay:
            self.message = "Nobody to chat with in a replay."
            return
        if self.table.my_seat is None:
            self.message = "Chat lines are signed entries of the players: spectators watch."
            return
        self.chat = ""

    def chat_key(self, ch: str) -> None:
        if self.chat is not None and ch.isprintable() and len(self.chat) < 200:
            self.chat += ch

    def chat_backspace(self) -> None:
        if self.chat:
            self.chat = self.chat[:-1]

    def chat_send(self) -> Command | None:
        text, self.chat = self.chat, None
        if self.going_to:
            self.going_to = False
            return self._go_to(text or "")
        return SendChat(text) if text and text.strip() else None

    def chat_cancel(self) -> None:
        self.chat = None
        self.going_to = False

    def start_go_to(self) -> None:
        """g in a replay: type where to go (a step number, a phase, or phase and round)."""
        self.chat = ""
        self.going_to = True

    def _go_to(self, text: str) -> Command | None:
        """The replay step ``text`` names: ``120`` (step 120), ``C`` (phase C's first step)
        or ``C3`` (phase C, round 3); None with a message if it names none."""
        table = self.table
        if not isinstance(table, Steppable):
            return None
        words = text.strip().upper().replace(" ", "")
        pos, total = table.position
        target: int | None = None
        if words.isdigit():
            target = min(int(words), total)
        elif words and words[0] in PHASE_LETTERS[:5] and words[1:] in ("", *"12345"):
            round_number = int(words[1:]) - 1 if words[1:] else None
            target = table.step_of(PHASE_LETTERS.index(words[0]), round_number)
        if target is None:
            self.message = (f"'{text[:12]}' is not a step: type 0-{total}, a phase (A-E) or "
                            "phase and round (C3).")
            return None
        self.message = ""
        return StepReplay(target - pos)

    def show(self, overlay: Overlay) -> None:
        """Open a page (or close it if it is open)."""
        if self.overlay == overlay:
            self.close_overlay()
            return
        self.overlay = overlay
        self.overlay_scroll = 0
        if overlay == Overlay.INFO:
            self.info_index = self._info_start()
            if self.lesson is not None:
                self.lesson.seen(scores=False, guide=True)

    def close_overlay(self) -> None:
        if self.overlay == Overlay.CATCH_UP:
            self.catch_up_done()
            return
        # Closing the guide/help/log over the scores goes back to the scores.
        if self.overlay in (Overlay.HELP, Overlay.INFO, Overlay.LOG, Overlay.CHART) \
                and self.game_over \
                and not self.replay:
            self.overlay = Overlay.SCORES
        else:
            self.overlay = None
        self.overlay_scroll = 0

    def toggle_scores(self) -> None:
        """The scores page (again: back to the board): final scores once the game is over,
        else everyone's VP now and what each would have if the game ended now."""
        self.overlay = None if self.overlay == Overlay.SCORES else Overlay.SCORES
        if self.lesson is not None and self.overlay == Overlay.SCORES:
            self.lesson.seen(scores=True, guide=False)

    def toggle_chart(self) -> None:
        """Every player's VP round by round (again: back)."""
        if self.overlay == Overlay.CHART:
            self.close_overlay()
        else:
            self.overlay = Overlay.CHART

    def round_scores(self) -> list[tuple[int, ...]]:
        """VP by seat at the end of each round so far (for the chart): the table's own, or
        as this client saw the game go by."""
        if isinstance(self.table, Scored):
            return self.table.round_scores
        return self._track.rounds

    def _info_start(self) -> int:
        option = self.selected()
        tile = option.tile if option else None
        target = option.target if option else None
        if target and target[0] == "shield":
            wanted = info_for_shield(target[2])
        elif tile is None:
            return self.info_index
        else:
            wanted = info_for_tile(tile)
        for i, (_, info) in enumerate(guide()):
            if info == wanted:
                return i
        return self.info_index

    def info_move(self, delta: int) -> None:
        self.info_index = (self.info_index + delta) % len(guide())

    def scroll(self, delta: int) -> None:
        """Scroll the page (overlay) by ``delta`` lines (positive: down)."""
        self.overlay_scroll = max(0, self.overlay_scroll + delta)

    def log_page(self, delta: int) -> None:
        """Scroll the log pane (positive: back in time)."""
        self.log_scroll = max(0, self.log_scroll + delta)

    def view(self, seat: int) -> None:
        if 0 <= seat < len(self.table.names):
            self.view_seat = seat
            self.message = f"Showing {self.table.names[seat]}'s estate."

    def next_view(self) -> None:
        self.view((self.view_seat + 1) % len(self.table.names))

    def show_settings(self) -> None:
        """O: the settings page (the hint level, the palette)."""
        self.overlay = Overlay.SETTINGS

    def switch_hints(self) -> Command:
        """h on the settings page: the next hint level (all, targets, none)."""
        self.settings = self.settings.next_hints()
        return ChangeSettings(self.settings)

    def switch_palette(self) -> Command:
        """p on the settings page: the next palette of the tiles' colours."""
        self.settings = self.settings.next_palette()
        return ChangeSettings(self.settings)

    def catch_up(self) -> None:
        """M: step through what the others did since our last turn, action by action, each
        on the estate of the player who did it, what it changed marked with ``*`` (M or
        Right: the next action; Left: the previous one; Esc: back). Every sentence is also
        in the log, after the ``-- since your last turn --`` rule."""
        if self.overlay == Overlay.CATCH_UP:
            self.catch_up_step(1)
            return
        table = self.table
        frames = catch_up_frames(table.steps, table.my_seat, table.names) \
            if isinstance(table, Recorded) and table.my_seat is not None else []
        if not frames:
            self.message = "Nothing to catch up on: nobody else has played since your last " \
                           "turn."
            return
        self.catching, self.catch_index = frames, 0
        self.overlay = Overlay.CATCH_UP
        self._show_catch_up()

    def catch_up_step(self, delta: int) -> None:
        """The next (``delta`` 1) or previous (-1) action of the catch-up; past the last,
        the catch-up closes."""
        index = self.catch_index + delta
        if index >= len(self.catching):
            self.catch_up_done()
            return
        self.catch_index = max(0, index)
        self._show_catch_up()

    def catch_up_done(self) -> None:
        """Close the catch-up: back to the game as it stands, on our estate."""
        self.overlay = None
        self.catching, self.catch_index = [], 0
        self.view_seat = self.table.my_seat if self.table.my_seat is not None else 0
        self.message = ""

    def _show_catch_up(self) -> None:
        frame = self.catching[self.catch_index]
        self.view_seat = frame.seat
        self.message = (f"{seat_name(self.table.names, frame.seat)}: action "
                        f"{self.catch_index + 1} of {len(self.catching)} since your turn.")

    def step_replay(self, delta: int, unit: int = 0) -> Command | None:
        """Move the replay ``delta`` actions, or (``unit`` 1) whole turns, or (2) rounds."""
        if not self.replay:
            return None
        if self.overlay == Overlay.SCORES:
            self.overlay = None  # back to the board
        self.message = ""
        return StepReplay(delta, turns=unit == 1, rounds=unit == 2)


__all__ = ["Ask", "AskHint", "ChangeSettings", "Command", "Context", "HintLevel", "MenuView",
           "Model", "Overlay", "Quit", "Resign", "SeatToBot", "SendChat", "StepReplay",
           "Submit"]
