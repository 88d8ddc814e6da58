"""``burgundy learn``: a guided first game against a bot, on a fixed deal.

The lesson is phase A of one game (five turns each), with every move of both sides written
down here: the same dice, tiles and bot moves every time. Each step says what to press and
why; the table accepts only the lesson's turn, so a step is checked when the turn ends (and
the pane says at once when a choice strays: ``u`` takes it back). After phase A's scoring
the lesson shows the scores page and the tile guide, then the game goes on as a normal game
against the bot. Progress (turns played) is saved after every turn in ``learn.json`` in the
data directory: leaving with ``q`` and starting ``burgundy learn`` again goes on from there.

>>> lesson = Lesson(None)
>>> table = lesson.table("Ann")
>>> _ = table.poll()
>>> lesson.instruction(table.state, [])[0]
'Lesson 1 of 19: dice and workers'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from p2p_burgundy import (
    END_TURN,
    Action,
    Buy,
    EngineError,
    GameConfig,
    GameState,
    IllegalAction,
    Payment,
    PlaceTile,
    SellGoods,
    TakeGoods,
    TakeTile,
    TakeWorkers,
    UseDie,
)

from ..files import read_json, write_atomically
from ..localgame import SUFFIX, local_dir
from ..sim import chance_entropy
from ..strategies import make
from .hint import menu_steps
from .table import LocalTable

SEED = 18
"""The deal of the lesson (entropy of every chance event, as ``play --seed 18``)."""

YOU, BOT = 0, 1  # seats; the bot starts this deal


def _turn(*actions: Action) -> tuple[Action, ...]:
    return (*actions, END_TURN)


BOT_TURNS: tuple[tuple[Action, ...], ...] = (
    _turn(UseDie(0), TakeTile(3, 1), UseDie(1), TakeTile(2, 0)),
    _turn(UseDie(1), TakeTile(5, 0), UseDie(0), PlaceTile(0, 11)),
    _turn(UseDie(1), PlaceTile(1, 24), UseDie(0), PlaceTile(0, 30)),
    _turn(UseDie(0), TakeTile(5, 1), UseDie(1), TakeWorkers()),
    _turn(UseDie(0), TakeTile(6, 1), UseDie(1), SellGoods(4), Buy(0, 1, Payment.SILVER)),
)
"""The bot's phase A, move for move (then it plays as the greedy bot)."""


@dataclass(frozen=True, slots=True)
class LessonStep:
    """One step of the lesson: a title, why (our words), and the actions it asks for."""

    title: str
    why: str
    actions: tuple[Action, ...]


S = LessonStep  # the table below reads better with a short name
LESSON: tuple[tuple[LessonStep, ...], ...] = (
    (S("dice and workers",
       "Every round you roll two dice, and each die is one action. Your 2 fits nothing you "
       "want yet, so trade it for 2 workers: a worker later turns a die one up or down.",
       (UseDie(0), TakeWorkers())),
     S("taking a tile",
       "A die takes one tile from the depot with its number: your 1 takes the church from "
       "depot 1. It waits in your storage (three places) until you place it.",
       (UseDie(1), TakeTile(1, 0))),
     S("ending the turn",
       "Both dice are used. Nothing reaches the bot until you end the turn: before that, u "
       "takes back any choice.", (END_TURN,))),
    (S("placing a building",
       "A building needs a beige space next to your tiles, with the die's number: a worker "
       "turns your 4 into that 3. A church then takes a castle, mine or knowledge tile for "
       "free: take the castle.",
       (UseDie(0), PlaceTile(0, 11), TakeTile(2, 1))),
     S("a castle",
       "Castles go on dark green spaces: two workers turn your other 4 into a 6. A castle "
       "gives one more action at once, with any number: take the ship from depot 1.",
       (UseDie(1), PlaceTile(0, 6), TakeTile(1, 1))),
     S("ending the turn", "Press e: the bot plays next.", (END_TURN,))),
    (S("a ship",
       "Ships go on blue spaces (a worker makes your 1 a 2). A ship takes one depot's goods "
       "and moves you up the turn order. You hold three goods types at most: with 1, 3, 6 "
       "held, depot 1's 2 stays, its 1 joins yours.",
       (UseDie(0), PlaceTile(0, 17), TakeGoods((1,), (1,)))),
     S("workers again",
       "You have no workers left: take 2 with your 2, as they make every die fit.",
       (UseDie(1), TakeWorkers())),
     S("ending the turn", "Press e.", (END_TURN,))),
    (S("selling goods",
       "A die sells every goods tile of its number: one worker turns your 2 into the 1 of "
       "your two turquoise goods. A sale pays a silverling and VP for each tile.",
       (UseDie(0), SellGoods(1))),
     S("the black depot",
       "With 2 silverlings you may buy one tile from the black depot each turn, with no die "
       "at all: buy the 4 pigs.", (Buy(0, 0, Payment.SILVER),)),
     S("animals",
       "Take the 3 pigs from depot 3 with your 3: animals score when placed.",
       (UseDie(1), TakeTile(3, 0))),
     S("ending the turn", "Press e.", (END_TURN,))),
    (S("planning ahead",
       "Your 6 takes the boarding house from depot 6, for a later turn: it brings 4 "
       "workers once built.", (UseDie(1), TakeTile(6, 0))),
     S("placing an animal",
       "Animals go on light green spaces: one worker turns your 3 into the 4 of that space. "
       "The 4 pigs score 4 VP at once; more pigs in the same pasture would score again.",
       (UseDie(0), PlaceTile(0, 10))),
     S("the end of phase A",
       "Press e. The bot plays the round's last turn, and phase A ends: every mine pays a "
       "silverling and the depots are filled again.", (END_TURN,))),
)
"""Your phase A, step by step (a step: the choices of one die, a purchase, or the end)."""

AFTER = (
    ("the scores",
     "Phase A is over. Press S: every player's VP by category, and what the final scoring "
     "would add if the game ended now. S again closes it."),
    ("the other tiles",
     "Mines and knowledge tiles are the two families you have not placed. Press i: the tile "
     "guide says what every tile does (arrows turn the pages, Esc closes it)."),
    ("on your own",
     "That is the whole lesson. The game goes on against the bot: ? helps at every step, H "
     "asks the bot for a hint, and burgundy play finds tables on your LAN."),
)
"""The steps after phase A: looking at the scores, the tile guide, then free play."""

TOTAL = sum(len(turn) for turn in LESSON) + len(AFTER)
PROGRESS_FILE = "learn.json"
"""Where the lesson's progress is kept, in the data directory."""
PROGRESS_LIMIT = 4096
"""The progress file's size cap (it holds two numbers)."""


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
    """The lesson's game: while the lesson lasts, only its turn is accepted."""

    def __init__(self, name: str, lesson: Lesson, bot_delay: float = 0.0) -> None:
        bot = ScriptedBot()  # the same bot every turn: it follows its script
        super().__init__(GameConfig(players=2), [name, "Bot"], YOU, {BOT: lambda _state: bot},
                         lambda index: chance_entropy(SEED, 0, index), bot_delay)
        self.lesson = lesson

    def slow_down(self, bot_delay: float) -> None:
        """From now on the bot waits ``bot_delay`` seconds before each turn."""
        self._bot_delay = bot_delay

    def submit_turn(self, actions: list[Action]) -> None:
        turn = self.lesson.turns
        if turn < len(LESSON):
            wanted = [a for step in LESSON[turn] for a in step.actions]
            if actions != wanted:
                raise IllegalAction("the lesson asks for other choices this turn: u takes "
                                    "back the last one")
        super().submit_turn(actions)
        if turn < len(LESSON):
            self.lesson.turn_done()
            self.not_saved = self.lesson.not_saved  # the status line says so while it lasts


class Lesson:
    """Where the player is in the lesson; saved in ``path`` (None: not saved)."""

    def __init__(self, path: Path | None, restart: bool = False) -> None:
        self.path = path
        self.turns = 0  # lesson turns played
        self.after = 0  # steps of AFTER done
        self.not_saved: str | None = None  # why the progress could not be kept, if so
        if path is not None and path.exists() and not restart:
            try:
                saved = read_json(path, limit=PROGRESS_LIMIT)
                if not isinstance(saved, dict):
                    raise TypeError("not a JSON object")
                self.turns = min(len(LESSON), max(0, int(saved["turns"])))
                self.after = min(len(AFTER), max(0, int(saved.get("after", 0))))
            except (OSError, ValueError, KeyError, TypeError):
                self.turns = self.after = 0  # a damaged file: start over

    def table(self, name: str, bot_delay: float = 0.0) -> LessonTable:
        """The lesson's game, with the turns already played replayed (at once; then the bot
        waits ``bot_delay`` seconds before each turn, so that it can be followed)."""
        table = LessonTable(name, self)
        done, self.turns = self.turns, 0
        try:
            for _ in range(done):
                table.poll()
                table.submit_turn([a for step in LESSON[self.turns] for a in step.actions])
        except EngineError:  # the lesson's data no longer fits the rules: start over
            self.turns = self.after = 0
            table = LessonTable(name, self)
        table.slow_down(bot_delay)
        return table

    def turn_done(self) -> None:
        self.turns += 1
        self.save()

    def save(self) -> None:
        if self.path is None:
            return
        try:
            write_atomically(self.path, json.dumps({"turns": self.turns, "after": self.after})
                             .encode("utf-8"))
        except OSError as exc:  # the lesson goes on; only going on from here later is lost
            self.not_saved = exc.strerror or str(exc)
        else:
            self.not_saved = None

    @property
    def finished(self) -> bool:
        return self.after >= len(AFTER) - 1

    def number(self, draft: Sequence[Action]) -> int:
        """The step's number, from 1."""
        if self.turns >= len(LESSON):
            return TOTAL - len(AFTER) + self.after + 1
        steps = LESSON[self.turns]
        done = len(draft)
        at = 0
        for i, step in enumerate(steps):
            at += len(step.actions)
            if done < at:
                return sum(len(t) for t in LESSON[:self.turns]) + i + 1
        return sum(len(t) for t in LESSON[:self.turns]) + len(steps)

    def instruction(self, state: GameState, draft: Sequence[Action],
                    pressed: Sequence[str] = ()) -> list[str]:
        """The step at hand: a title line, why, and which keys to press (``state``: the
        table's, or our turn so far, after ``draft``; ``pressed``: the keys of the menu
        groups opened since, which the ``Press:`` line no longer shows)."""
        number = self.number(draft)
        if self.turns >= len(LESSON):
            title, why = AFTER[self.after]
            return [f"Lesson {number} of {TOTAL}: {title}", why]
        if state.to_move != YOU:
            return [f"Lesson {number} of {TOTAL}: the bot's turn",
                    "The bot is playing: its moves appear in the log. Your turn comes next."]
        wanted = [a for step in LESSON[self.turns] for a in step.actions]
        if list(draft) != wanted[:len(draft)]:
            return [f"Lesson {number} of {TOTAL}: not this one",
                    "That choice is not the lesson's: press u to take it back."]
        step = LESSON[self.turns][number - 1 - sum(len(t) for t in LESSON[:self.turns])]
        start = sum(len(s.actions) for s in LESSON[self.turns][:LESSON[self.turns].index(step)])
        rest = wanted[len(draft):start + len(step.actions)]
        keys = [key for key, _ in menu_steps(state, rest)]
        if keys[:len(pressed)] != list(pressed):
            return [f"Lesson {number} of {TOTAL}: not this one",
                    "That choice is not the lesson's: press Esc to go back."]
        return [f"Lesson {number} of {TOTAL}: {step.title}",
                f"Press: {' '.join(keys[len(pressed):])}", step.why]

    def seen(self, scores: bool, guide: bool) -> None:
        """The player opened the scores page or the tile guide: the steps after phase A."""
        if self.turns < len(LESSON):
            return
        if (self.after == 0 and scores) or (self.after == 1 and guide):
            self.after += 1
            self.save()


__all__ = ["AFTER", "BOT_TURNS", "LESSON", "PROGRESS_FILE", "SEED", "Lesson", "LessonTable",
           "ScriptedBot", "first_start"]
