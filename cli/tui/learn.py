"""``burgundy learn``: a guided game against a bot, on a fixed deal, from the first turn to
the final scoring.

The deal and the words are in :mod:`.lessons`. Each step says what to press and why; the
``Press:`` line follows every key, inside a choice of several keys too. The table accepts
only the lesson's turn, so a step is checked when the turn ends (and the pane says at once
when a choice strays: ``u`` takes it back, Esc goes back up the menu). Between two of the
lesson's turns the greedy bot plays both seats at once, so that the whole game fits in 15
to 20 minutes. Progress (the names of the turns and pages done) is saved after every turn
and page in ``learn.json`` in the data directory: leaving with ``q`` and starting
``burgundy learn`` again goes on from there, even once the lesson has been edited.

>>> lesson = Lesson(None)
>>> table = lesson.table("Ann")
>>> _ = table.poll()
>>> lesson.instruction(table.state, [])[:2]
['Lesson 1 of 64: dice and workers', 'Press: 1 w']
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from p2p_burgundy import (
    Action,
    EngineError,
    GameConfig,
    GameState,
    IllegalAction,
    apply,
    ends_turn,
    legal_actions,
)

from ..localgame import SUFFIX, local_dir
from ..sim import chance_entropy
from ..strategies import make
from .hint import menu_steps
from .lessons import BOT, BOT_TURNS, LESSON, SEED, YOU, LessonPage, LessonTurn
from .table import LocalTable, StateChanged, TableEvent

PROGRESS_FILE = "learn.json"
"""Where the lesson's progress is kept, in the data directory."""

INDEXED = ("A1", "A2", "A3", "A4", "A5", "scores", "guide", "B4", "B5", "C1", "C2", "C3", "C4",
           "C5", "D1", "D2", "D4", "E2", "E3", "E4", "E5", "end")
"""The lesson's turns and pages in the order progress files once counted them (``{"done":
n}``: the first n; the phase A lesson's ``{"turns": t, "after": a}``: its t turns, then a
pages), kept as it was so that such a file finds its place however the lesson changes."""

_SIZES = [len(item.steps) if isinstance(item, LessonTurn) else 1 for item in LESSON]
TOTAL = sum(_SIZES)
"""The lesson's steps, pages included."""


def first_start(home: Path) -> bool:
    """True on a computer where nobody has started the lesson or played a game, networked
    or local (``home``: the data directory), when the lesson is worth offering."""
    return (not (home / PROGRESS_FILE).exists() and not any(home.glob("games/*.game"))
            and not any(local_dir(home).glob(f"*{SUFFIX}")))


class ScriptedBot:
    """Plays the lesson's bot turns move for move, then as the greedy bot."""

    name = "lesson"

    def __init__(self) -> None:
        self._moves = [a for turn in BOT_TURNS for a in turn]
        self._greedy = make("greedy", SEED)

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        if self._moves and self._moves[0] in actions:
            return self._moves.pop(0)
        self._moves.clear()  # off the script: the lesson's deal no longer holds
        return self._greedy.choose(state, actions)


class LessonTable(LocalTable):
    """The lesson's game: while the lesson lasts, only its turns are accepted, and between
    them the bot plays both seats at once."""

    def __init__(self, name: str, lesson: Lesson, bot_delay: float = 0.0) -> None:
        bot = ScriptedBot()  # the same bot every turn: it follows its script
        super().__init__(GameConfig(players=2), [name, "Bot"], YOU, {BOT: lambda _state: bot},
                         lambda index: chance_entropy(SEED, 0, index), bot_delay)
        self.lesson = lesson
        self._stand_in = make("greedy", SEED)  # plays your seat between the lesson's turns

    def slow_down(self, bot_delay: float) -> None:
        """From now on the bot waits ``bot_delay`` seconds before each turn."""
        self._bot_delay = bot_delay

    def poll(self) -> list[TableEvent]:
        moved = self._move_on()
        events = super().poll()
        return events or ([StateChanged()] if moved else [])

    def _move_on(self) -> bool:
        """Play both seats, at once, up to the round of the lesson's next turn."""
        moved = False
        while True:
            self._resolve_chance()
            state = self.state
            at = self.lesson.next_turn_at()
            if at is None or state.is_over or (state.phase, state.round) >= at:
                return moved
            if state.to_move == YOU:
                turn: list[Action] = []
                while not turn or not ends_turn(turn[-1]):
                    turn.append(self._stand_in.choose(state, legal_actions(state)))
                    state = apply(state, turn[-1])
                self._record_turn(turn)
            else:
                self._bot_turn()
            moved = True

    def submit_turn(self, actions: list[Action]) -> None:
        turn = self.lesson.turn_at(self.state)
        if isinstance(self.lesson.current, LessonPage) and self.lesson.current.page != "end":
            raise IllegalAction("the lesson asks you to look at a page first (its pane says "
                                "which key opens it)")
        if turn is not None and actions != list(turn.actions):
            raise IllegalAction("the lesson asks for other choices this turn: u takes back "
                                "the last one")
        super().submit_turn(actions)
        if turn is not None:
            self.lesson.step_done()


class Lesson:
    """Where the player is in the lesson; saved in ``path`` (None: not saved)."""

    def __init__(self, path: Path | None, restart: bool = False) -> None:
        self.path = path
        self.done = 0  # items of LESSON done (turns and pages)
        if path is not None and path.exists() and not restart:
            try:
                done = _names_done(json.loads(path.read_text(encoding="utf-8")))
            except (OSError, ValueError, KeyError, TypeError):
                done = frozenset()  # a damaged file: start over
            # On from the first turn or page not done (one added since comes up then); the
            # final scoring's page is never done.
            self.done = next((index for index, item in enumerate(LESSON[:-1])
                              if item.name not in done), len(LESSON) - 1)

    @property
    def current(self) -> LessonTurn | LessonPage:
        """The turn or page the lesson is at (the final scoring's page is never done)."""
        return LESSON[self.done]

    def next_turn_at(self) -> tuple[int, int] | None:
        """(phase, round) of the lesson's next turn, or None while a page comes first."""
        item = self.current
        return (item.phase, item.round) if isinstance(item, LessonTurn) else None

    def turn_at(self, state: GameState) -> LessonTurn | None:
        """The lesson's turn, if ``state`` is the player's turn it is played on."""
        item = self.current
        if isinstance(item, LessonTurn) and state.to_move == YOU \
                and (state.phase, state.round) == (item.phase, item.round):
            return item
        return None

    def table(self, name: str, bot_delay: float = 0.0) -> LessonTable:
        """The lesson's game, with the steps already done played again (at once; then the
        bot waits ``bot_delay`` seconds before each turn, so that it can be followed)."""
        table = LessonTable(name, self)
        done, self.done = self.done, 0
        try:
            while self.done < done:
                item = self.current
                if isinstance(item, LessonPage):
                    self.done += 1
                    continue
                table.poll()
                table.submit_turn(list(item.actions))
        except EngineError:  # the lesson's data no longer fits the rules: start over
            self.done = 0
            table = LessonTable(name, self)
        table.slow_down(bot_delay)
        return table

    def step_done(self) -> None:
        """The lesson's turn or page at hand is done."""
        self.done += 1
        self.save()

    def save(self) -> None:
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            names = [item.name for item in LESSON[:self.done]]
            self.path.write_text(json.dumps({"done": names}), encoding="utf-8")
        except OSError:
            pass  # the lesson goes on; only resuming it later is lost

    def instruction(self, state: GameState, draft: Sequence[Action],
                    pressed: Sequence[str] = ()) -> list[str]:
        """The step at hand: a title line, the keys to press, and why (``state``: the
        table's, or our turn so far, after ``draft``; ``pressed``: the keys of the menus
        opened since the last choice)."""
        item = self.current
        first = sum(_SIZES[:self.done]) + 1
        if isinstance(item, LessonPage):
            if not state.is_over and (item.page == "end" or state.to_move != YOU):
                return self._waiting(first, state)
            keys = [f"Press: {item.keys}"] if item.keys else []
            return [f"Lesson {first} of {TOTAL}: {item.title}", *keys, item.why]
        if self.turn_at(state) is None:
            return self._waiting(first, state)
        wanted = item.actions
        if list(draft) != list(wanted[:len(draft)]):
            return [f"Lesson {first} of {TOTAL}: not this one",
                    "That choice is not the lesson's: press u to take it back."]
        start = 0
        for index, step in enumerate(item.steps):
            end = start + len(step.actions)
            if len(draft) < end or index == len(item.steps) - 1:
                break
            start = end
        keys = [key for key, _ in menu_steps(state, wanted[len(draft):end])]
        if keys[:len(pressed)] != list(pressed):
            return [f"Lesson {first + index} of {TOTAL}: not this one",
                    "That menu is not the lesson's: Esc goes back."]
        return [f"Lesson {first + index} of {TOTAL}: {step.title}",
                f"Press: {' '.join(keys[len(pressed):])}", step.why]

    @staticmethod
    def _waiting(number: int, state: GameState) -> list[str]:
        """While the bot plays, before the lesson's step ``number``."""
        if state.is_over:
            return [f"Lesson {number} of {TOTAL}: the game is over", "The lesson is over."]
        return [f"Lesson {number} of {TOTAL}: the bot's turn",
                "The bot is playing (l shows its moves in the log). Your turn comes next."]

    def seen(self, scores: bool, guide: bool) -> None:
        """The player opened the scores page or the tile guide: the page steps."""
        item = self.current
        if isinstance(item, LessonPage) and ((item.page == "scores" and scores)
                                             or (item.page == "guide" and guide)):
            self.step_done()


def _names_done(saved: object) -> frozenset[str]:
    """The names of the lesson's turns and pages a progress file says are done (a file of
    an older client counted them: see :data:`INDEXED`).

    >>> sorted(_names_done({"done": ["A2", "A1"]})), sorted(_names_done({"done": 2}))
    (['A1', 'A2'], ['A1', 'A2'])
    >>> sorted(_names_done({"turns": 5, "after": 1}))[-1]
    'scores'
    """
    if not isinstance(saved, dict):
        raise TypeError("a progress file holds a JSON object")
    if isinstance(saved.get("done"), list):
        return frozenset(name for name in saved["done"] if isinstance(name, str))
    count = int(saved["done"]) if "done" in saved else \
        int(saved["turns"]) + min(2, int(saved.get("after", 0)))
    return frozenset(INDEXED[:max(0, count)])


__all__ = ["PROGRESS_FILE", "TOTAL", "Lesson", "LessonTable", "ScriptedBot", "first_start"]
