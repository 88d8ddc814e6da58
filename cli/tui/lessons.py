"""The guided game's deal and words: which turns the player plays, and what each step says.

One game on :data:`SEED` against a bot. Phase A is played turn by turn (the bot's moves are
written down in :data:`BOT_TURNS`); after it the lesson looks at the scores page and the tile
guide, then jumps to chosen turns of the later phases: between two lesson turns the greedy
bot plays both seats, through the engine like any turn, so every position is one the rules
reach. The lesson's turns are the ones in which every building is built (a city hall placing
a boarding house, churches, a watchtower, a bank, a warehouse, a market, a carpenter's
workshop), knowledge tiles, a full storage, mines, regions filled in phases B to E, the black
depot, the turn order, a bonus tile, a phase end with mine income and the last turn of the
game come up; after the game's end the final scoring closes the lesson.

Every number and tile a step names is checked against the position it is played on
(``tests/cli/tui/test_learn.py``): change a move, and that test says which words no longer
hold. The same test measures how long the whole lesson takes a newcomer (15 to 20 minutes).
"""

from __future__ import annotations

from dataclasses import dataclass

from p2p_burgundy import (
    END_TURN,
    Action,
    Buy,
    Payment,
    PlaceTile,
    SellGoods,
    TakeGoods,
    TakeTile,
    TakeWorkers,
    UseDie,
)
from p2p_burgundy.board import PHASE_LETTERS

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
    """One step of a lesson turn: a title, why (our words), and the actions it asks for."""

    title: str
    why: str
    actions: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class LessonTurn:
    """One of the player's turns, played in ``phase`` and ``round`` (from 0), step by step;
    the game gets there by the bot playing both seats from the lesson's turn before."""

    phase: int
    round: int
    steps: tuple[LessonStep, ...]

    @property
    def actions(self) -> tuple[Action, ...]:
        """The whole turn, in order."""
        return tuple(a for step in self.steps for a in step.actions)

    @property
    def name(self) -> str:
        """The turn's phase and round (``B4``), as progress files name it: the player has one
        turn a round, so the name holds whatever turns are added or cut around it."""
        return f"{PHASE_LETTERS[self.phase]}{self.round + 1}"


@dataclass(frozen=True, slots=True)
class LessonPage:
    """A step with no move: a page to open (``"scores"``, ``"guide"``) with ``keys`` (to
    open and close it), or ``"end"``: the final scoring, after the game."""

    title: str
    why: str
    page: str
    keys: str = ""

    @property
    def name(self) -> str:
        """As progress files name it: the page it opens."""
        return self.page


S = LessonStep  # the tables below read better with short names
T = LessonTurn
LESSON: tuple[LessonTurn | LessonPage, ...] = (
    T(0, 0, (
        S("dice and workers",
          "Every round you roll two dice, and each die is one action. Your 2 fits nothing "
          "you want yet, so trade it for 2 workers: a worker later turns a die one up or down.",
          (UseDie(0), TakeWorkers())),
        S("taking a tile",
          "A die takes one tile from the depot with its number: your 1 takes the church from "
          "depot 1. It waits in your storage (three places) until you place it.",
          (UseDie(1), TakeTile(1, 0))),
        S("ending the turn",
          "Both dice are used. Nothing reaches the bot until you end the turn: before that, "
          "u takes back any choice.", (END_TURN,)))),
    T(0, 1, (
        S("placing a building",
          "A building needs a beige space next to your tiles, with the die's number: a worker "
          "turns your 4 into that 3. A church then takes a castle, mine or knowledge tile for "
          "free: take the castle.",
          (UseDie(0), PlaceTile(0, 11), TakeTile(2, 1))),
        S("a castle",
          "Castles go on dark green spaces: two workers turn your other 4 into a 6. A castle "
          "gives one more action at once, with any number: take the ship from depot 1.",
          (UseDie(1), PlaceTile(0, 6), TakeTile(1, 1))),
        S("ending the turn", "Press e: the bot plays next.", (END_TURN,)))),
    T(0, 2, (
        S("a ship",
          "Ships go on blue spaces: a worker turns your 1 into a 2. A ship takes all goods of "
          "one depot, but you store three goods types at most: you have 1, 3 and 6, so depot "
          "1's 1 is yours and its 2 stays.",
          (UseDie(0), PlaceTile(0, 17), TakeGoods((1,), (1,)))),
        S("workers again",
          "You have no workers left: take 2 with your 2, as they make every die fit.",
          (UseDie(1), TakeWorkers())),
        S("turn order and goods",
          "Press e. Your ship moved you up the turn order: next round you play first. Each "
          "round a white die also puts a goods tile on the depot of its number: next, pink "
          "goods on depot 3.", (END_TURN,)))),
    T(0, 3, (
        S("selling goods",
          "A die sells every goods tile of its number: one worker turns your 2 into the 1 of "
          "your 2 turquoise goods. The sale pays 1 silverling and 2 VP a tile.",
          (UseDie(0), SellGoods(1))),
        S("the black depot",
          "With 2 silverlings you may buy one tile from the black depot each turn, with no die "
          "at all: buy the 4 pigs.", (Buy(0, 0, Payment.SILVER),)),
        S("animals",
          "Take the 3 pigs from depot 3 with your 3: animals score when placed.",
          (UseDie(1), TakeTile(3, 0))),
        S("ending the turn", "Press e.", (END_TURN,)))),
    T(0, 4, (
        S("planning ahead",
          "Your 6 takes the boarding house from depot 6, for a later turn: once built, it "
          "brings workers.", (UseDie(1), TakeTile(6, 0))),
        S("placing an animal",
          "Animals go on light green spaces: one worker turns your 3 into the 4 of that space. "
          "The 4 pigs score 4 VP at once; more pigs in the same pasture would score again.",
          (UseDie(0), PlaceTile(0, 10))),
        S("the end of phase A",
          "Press e. The bot plays the round's last turn, and phase A ends: every mine pays a "
          "silverling and the depots are filled again.", (END_TURN,)))),
    LessonPage(
        "the scores",
        "Phase A is over. S opens the scores page: every player's VP by category, and what "
        "the final scoring would add if the game ended now. S again closes it.",
        "scores", "S S"),
    LessonPage(
        "the tile guide",
        "i opens the tile guide: what every tile does (arrows turn its pages, Esc closes "
        "it). Then the lesson jumps to round 4 of phase B.", "guide", "i Esc"),
    T(1, 3, (
        S("a jump ahead",
          "The bot played both seats for 3 rounds (l shows the log). Round 4 of phase B: your "
          "3 places the city hall, which places one more tile at once, with any number: the "
          "boarding house, for 4 workers.",
          (UseDie(1), PlaceTile(1, 25), PlaceTile(0, 26))),
        S("a full pasture",
          "Two of those workers turn your 4 into the 2 of a pasture of 1 space: the 2 chickens "
          "score 2 VP, filling the pasture 1 VP, and 8 more for filling it in phase B.",
          (UseDie(0), PlaceTile(0, 27))),
        S("ending the turn", "Press e.", (END_TURN,)))),
    T(1, 4, (
        S("another church",
          "Round 5 of phase B: your 4 takes the church from depot 4.",
          (UseDie(0), TakeTile(4, 1))),
        S("knowledge tiles",
          "Your 6 places the church, which takes knowledge #23 from depot 2. Knowledge tiles "
          "change a rule or score at the end: #23 gives 4 VP for each city hall (you have 1).",
          (UseDie(1), PlaceTile(0, 32), TakeTile(2, 0))),
        S("ending the turn",
          "Press e. The bot's turn ends phase B; the lesson goes on in phase C.",
          (END_TURN,)))),
    T(2, 0, (
        S("a warehouse",
          "Round 1 of phase C. Your 3 takes the warehouse from depot 3: once built, it sells "
          "all goods of one type at once, with no die.",
          (UseDie(1), TakeTile(3, 1))),
        S("a full storage",
          "Your 1 takes the watchtower from depot 1. Your storage is full now: three tiles. "
          "Taking another would first throw one of them away.",
          (UseDie(0), TakeTile(1, 0))),
        S("ending the turn", "Press e.", (END_TURN,)))),
    T(2, 1, (
        S("selling at once",
          "Round 2 of phase C. Your 2 builds the warehouse on a beige 2, and it sells your 2 "
          "brown goods: 4 VP and 1 silverling.",
          (UseDie(0), PlaceTile(1, 13), SellGoods(5))),
        S("placing knowledge",
          "Knowledge tiles go on yellow spaces: a worker turns your 1 into a 2 for #23.",
          (UseDie(1), PlaceTile(0, 30))),
        S("ending the turn", "Press e.", (END_TURN,)))),
    T(2, 2, (
        S("planning again",
          "Round 3 of phase C. Your 6 takes the bank from depot 6.",
          (UseDie(0), TakeTile(6, 0))),
        S("a watchtower",
          "Your 3 places the watchtower: it scores 4 VP at once.",
          (UseDie(1), PlaceTile(0, 36))),
        S("ending the turn", "Press e.", (END_TURN,)))),
    T(2, 3, (
        S("mines",
          "Round 4 of phase C. Your 5 takes the mine from depot 5: once placed, a mine pays 1 "
          "silverling at every phase end.",
          (UseDie(1), TakeTile(5, 0))),
        S("a full region",
          "Two workers turn your 3 into a 5 for the bank: it pays 2 silverlings and fills "
          "that city of 5 spaces: 15 VP, and 6 more for filling a region in phase C.",
          (UseDie(0), PlaceTile(0, 31))),
        S("buying again",
          "Spend the bank's 2 silverlings on the ship in the black depot.",
          (Buy(0, 2, Payment.SILVER),)),
        S("ending the turn", "Press e.", (END_TURN,)))),
    T(2, 4, (
        S("selling for silver",
          "Your 6 sells your orange goods tile: 2 VP and 1 silverling.",
          (UseDie(1), SellGoods(6))),
        S("placing a mine",
          "Mines go on grey spaces: your 1 places the mine.",
          (UseDie(0), PlaceTile(0, 29))),
        S("a phase end",
          "Press e. After the bot's turn phase C ends: each player's mines pay (yours 1 "
          "silverling), and the depots are filled for phase D.",
          (END_TURN,)))),
    T(3, 0, (
        S("phase D",
          "Round 1 of phase D, with full depots again. Your 3 takes 2 workers.",
          (UseDie(0), TakeWorkers())),
        S("a market",
          "One worker turns your 5 into a 6: take the market from depot 6. Once built, a "
          "market takes a ship or an animal from a numbered depot.",
          (UseDie(1), TakeTile(6, 0))),
        S("ending the turn", "Press e.", (END_TURN,)))),
    T(3, 1, (
        S("building the market",
          "Your 5 builds the market on a beige 5, and it takes the 4 pigs from depot 3.",
          (UseDie(1), PlaceTile(1, 23), TakeTile(3, 0))),
        S("pigs score again",
          "Your 1 places them in the pasture of your pigs: all 11 pigs there score again, "
          "11 VP.",
          (UseDie(0), PlaceTile(1, 5))),
        S("ending the turn",
          "Press e. The bot plays round 3 for you; the lesson goes on in round 4.",
          (END_TURN,)))),
    T(3, 3, (
        S("turn order",
          "Round 4 of phase D. Your 1 places a ship: a step up the turn order, and depot 2's "
          "goods.",
          (UseDie(1), PlaceTile(0, 16), TakeGoods((2,), (1, 3)))),
        S("buying cows",
          "Spend 2 silverlings on the 3 cows in the black depot.",
          (Buy(0, 0, Payment.SILVER),)),
        S("a phase D region",
          "Your 6 places the other ship, and takes depot 3's goods. It fills that river of 3 "
          "spaces: 6 VP, and 4 more for filling it in phase D.",
          (UseDie(0), PlaceTile(0, 15), TakeGoods((3,), (3,)))),
        S("ending the turn",
          "Press e. The bot plays on for you, up to round 2 of phase E.", (END_TURN,)))),
    T(4, 1, (
        S("phase E",
          "Round 2 of phase E, the last phase. Your first 3 takes 2 workers.",
          (UseDie(0), TakeWorkers())),
        S("the pasture filled",
          "Two workers turn your other 3 into a 5: the 3 pigs the bot took for you fill "
          "your pasture of 5 spaces. Its 14 pigs score, the pasture 15 VP and 2 for phase E.",
          (UseDie(1), PlaceTile(1, 9))),
        S("a bonus tile",
          "Press e. That pasture was your last empty light green space: the first to fill "
          "every space of a colour takes its bonus tile, 5 VP.", (END_TURN,)))),
    T(4, 2, (
        S("selling again",
          "Your 3 sells your 3 pink goods: 6 VP and 1 silverling.",
          (UseDie(1), SellGoods(3))),
        S("buying a workshop",
          "Buy the carpenter's workshop from the black depot: once built, it takes a "
          "building from a numbered depot.",
          (Buy(0, 2, Payment.SILVER),)),
        S("a ship's goods",
          "Your last worker turns your 5 into a 4 for a ship: it takes the goods of depot 3.",
          (UseDie(0), PlaceTile(1, 20), TakeGoods((3,), (1, 3, 6)))),
        S("ending the turn", "Press e.", (END_TURN,)))),
    T(4, 3, (
        S("the workshop builds",
          "Your 6 builds the carpenter's workshop on a beige 6, and it takes the market from "
          "depot 1.",
          (UseDie(0), PlaceTile(1, 28), TakeTile(1, 0))),
        S("knowledge #1",
          "Your 4 places knowledge #1 on a yellow 4: a city may now hold the same building "
          "twice.",
          (UseDie(1), PlaceTile(0, 34))),
        S("ending the turn", "Press e.", (END_TURN,)))),
    T(4, 4, (
        S("the last turn",
          "Round 5 of phase E: your last turn. Your 5 takes 2 workers.",
          (UseDie(0), TakeWorkers())),
        S("a second market",
          "One worker turns your 3 into a 2 for the market, in the city of your first one "
          "(#1 allows it): filling that city of 3 spaces scores 6 VP and 2 for phase E. It "
          "takes the 2 chickens from depot 6.",
          (UseDie(1), PlaceTile(0, 22), TakeTile(6, 1))),
        S("the end of the game",
          "Press e. The chickens stay in storage, where a tile scores nothing. The bot "
          "plays the game's last turn; then the final scores show, and s turns to the "
          "board and the lesson's last words.",
          (END_TURN,)))),
    LessonPage(
        "the final scoring",
        "The game is over: left goods and silverlings gave 1 VP each, every 2 workers 1 VP, "
        "and #23 4 VP; a tie goes to fewer empty spaces. s shows the scores again, q leaves; "
        "burgundy play finds tables on your LAN.",
        "end"),
)
"""The lesson: the player's turns (one step: the choices of one die, a purchase, or the end)
and the pages between them, in order."""


__all__ = ["BOT", "BOT_TURNS", "LESSON", "SEED", "YOU", "LessonPage", "LessonStep",
           "LessonTurn"]
