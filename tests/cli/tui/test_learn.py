"""``burgundy learn``: the guided game played by its own ``Press:`` lines, key by key, in a
real terminal (pyte) from the first turn to the final scoring, left half-way and resumed;
and every number and tile its words name checked against the position it is played on."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from p2p_burgundy import (
    END_TURN,
    Action,
    Buy,
    Category,
    GameState,
    IllegalAction,
    PlaceTile,
    SellGoods,
    TakeGoods,
    TakeTile,
    TakeWorkers,
    UseDie,
    apply,
)
from p2p_burgundy.cli.tui import learn
from p2p_burgundy.cli.tui.app import dispatch, footer_keys
from p2p_burgundy.cli.tui.layout import compute_layout
from p2p_burgundy.cli.tui.learn import INDEXED, TOTAL, Lesson, LessonTable, first_start
from p2p_burgundy.cli.tui.lessons import LESSON, YOU, LessonPage, LessonStep, LessonTurn
from p2p_burgundy.cli.tui.model import Model, Submit
from p2p_burgundy.cli.tui.render import info_lines, render, score_lines, standings_lines, text
from p2p_burgundy.cli.tui.table import DEFAULT_BOT_DELAY
from p2p_burgundy.scoring import PHASE_BONUS
from p2p_burgundy.tiles import GOODS_NAMES, Animal, Colour, Tile, tile_name

if sys.platform == "win32":
    pytest.skip("needs a POSIX pty", allow_module_level=True)
pytest.importorskip("pyte", reason="pyte is in the test extras: pip install -e '.[test]'")

from .pty_terminal import PtyTerminal, burgundy

NAME = "Tess"
PANE_X, PANE_Y, PANE_ROWS = 43, 14, 8  # the lesson pane at 80x24


# --- the words checked against the deal ---------------------------------------------------

@dataclass
class Played:
    """One step as the lesson played it: the position before each of its actions, the one
    after it (an end step: at the lesson's next position), and the log lines it added."""

    step: LessonStep | LessonPage
    states: list[GameState]
    log: list[str]
    game: list[Played] = field(default_factory=list)  # every step, filled as they come
    shown: list[str] = field(default_factory=list)  # the lesson pane's lines at its start
    keys: list[str] = field(default_factory=list)  # the keys its Press: line asked for

    @property
    def before(self) -> GameState:
        return self.states[0]

    @property
    def after(self) -> GameState:
        return self.states[-1]

    def _first(self, kind: type) -> tuple[int, Action]:
        assert isinstance(self.step, LessonStep)
        return next((i, a) for i, a in enumerate(self.step.actions) if isinstance(a, kind))

    def die(self) -> int:
        """The number on the die this step uses."""
        _, use = self._first(UseDie)
        assert isinstance(use, UseDie)
        return self.before.players[YOU].dice[use.die]

    def took(self) -> tuple[str, int]:
        """The tile this step takes (or buys) and the depot it comes from."""
        i, take = next((i, a) for i, a in enumerate(self.step.actions)  # type: ignore[union-attr]
                       if isinstance(a, TakeTile | Buy))
        return tile_name(self.states[i].depots[take.depot][take.slot]), take.depot

    def placed(self) -> tuple[str, int, Colour]:
        """The tile this step places, and its space's number and colour."""
        i, place = self._first(PlaceTile)
        assert isinstance(place, PlaceTile)
        state = self.states[i]
        board = state.boards[YOU]
        tile = state.players[YOU].storage[place.storage]
        return tile_name(tile), board.dice[place.space], Colour(board.colours[place.space])

    def gained(self, name: str) -> int:
        return int(getattr(self.after.players[YOU], name)) - \
            int(getattr(self.before.players[YOU], name))

    def scored(self, category: Category) -> int:
        return self.after.players[YOU].breakdown[category] - \
            self.before.players[YOU].breakdown[category]

    def at(self, phase: int, round_: int) -> bool:
        return (self.before.phase, self.before.round) == (phase, round_)

    def logged(self, text: str) -> bool:
        return any(text in line for line in self.log)


def _types(goods: tuple[int, ...]) -> list[int]:
    return [kind for kind in range(1, 7) if goods[kind]]


def _final(p: Played) -> GameState:
    return p.game[-1].after


Check = tuple[str, Callable[[Played], bool]]
CLAIMS: list[tuple[Check, ...]] = [
    # phase A, turn 1
    (("Your 2", lambda p: p.die() == 2), ("2 workers", lambda p: p.gained("workers") == 2)),
    (("your 1 takes the church from depot 1",
      lambda p: p.die() == 1 and p.took() == ("church", 1)),),
    (),
    # turn 2
    (("a worker turns your 4 into that 3",
      lambda p: p.die() == 4 and p.placed()[1:] == (3, Colour.BEIGE)
      and p.gained("workers") == -1),
     ("take the castle", lambda p: p.took()[0] == "castle")),
    (("two workers turn your other 4 into a 6",
      lambda p: p.die() == 4 and p.placed() == ("castle", 6, Colour.DARK_GREEN)
      and p.gained("workers") == -2),
     ("take the ship from depot 1", lambda p: p.took() == ("ship", 1))),
    (),
    # turn 3
    (("a worker turns your 1 into a 2",
      lambda p: p.die() == 1 and p.placed() == ("ship", 2, Colour.BLUE)
      and p.gained("workers") == -1),
     ("you have 1, 3 and 6", lambda p: _types(p.before.players[YOU].goods) == [1, 3, 6]),
     ("depot 1's 1 is yours and its 2 stays",
      lambda p: _types(p.states[2].depot_goods[1]) == [1, 2]
      and _types(p.after.depot_goods[1]) == [2]
      and p.after.players[YOU].goods[1] == p.before.players[YOU].goods[1] + 1
      and p.after.players[YOU].goods[2] == 0)),
    (("You have no workers left", lambda p: p.before.players[YOU].workers == 0),
     ("take 2 with your 2", lambda p: p.die() == 2 and p.gained("workers") == 2)),
    (("next round you play first",
      lambda p: p.before.order[0] != YOU and p.after.order[0] == YOU),
     ("pink goods on depot 3",
      lambda p: p.logged("the white die 3 puts goods 3 (pink) on depot 3"))),
    # turn 4
    (("one worker turns your 2 into the 1 of your 2 turquoise goods",
      lambda p: p.die() == 2 and p.gained("workers") == -1
      and p.before.players[YOU].goods[1] == 2 and GOODS_NAMES[1] == "turquoise"
      and p.step.actions[1] == SellGoods(1)),  # type: ignore[union-attr]
     ("pays 1 silverling and 2 VP a tile",
      lambda p: p.gained("silver") == 1 and p.scored(Category.SALES) == 2 * 2)),
    (("With 2 silverlings", lambda p: p.before.players[YOU].silver == 2
      and p.gained("silver") == -2),
     ("buy the 4 pigs", lambda p: p.took() == ("4 pigs", 0))),
    (("Take the 3 pigs from depot 3 with your 3",
      lambda p: p.took() == ("3 pigs", 3) and p.die() == 3),),
    (),
    # turn 5
    (("Your 6 takes the boarding house from depot 6",
      lambda p: p.die() == 6 and p.took() == ("boarding house", 6)),),
    (("one worker turns your 3 into the 4 of that space",
      lambda p: p.die() == 3 and p.placed()[1:] == (4, Colour.LIGHT_GREEN)
      and p.gained("workers") == -1),
     ("The 4 pigs score 4 VP at once",
      lambda p: p.placed()[0] == "4 pigs" and p.gained("vp") == 4)),
    (("phase A ends", lambda p: p.logged("Phase A is over.")),),
    # the pages
    (("Phase A is over", lambda p: p.before.phase == 1),),
    (("round 4 of phase B",
      lambda p: isinstance(LESSON[7], LessonTurn) and (LESSON[7].phase, LESSON[7].round)
      == (1, 3)),),
    # phase B, round 4
    (("The bot played both seats for 3 rounds",
      lambda p: p.at(1, 3) and _step(p, "the tile guide").after.round == 0),
     ("Round 4 of phase B", lambda p: p.at(1, 3)),
     ("your 3 places the city hall", lambda p: p.die() == 3 and p.placed()[0] == "city hall"),
     ("the boarding house, for 4 workers",
      lambda p: tile_name(p.states[2].players[YOU].storage[0]) == "boarding house"
      and p.gained("workers") == 4)),
    (("Two of those workers turn your 4 into the 2 of a pasture of 1 space",
      lambda p: p.die() == 4 and p.placed()[1:] == (2, Colour.LIGHT_GREEN)
      and p.gained("workers") == -2 and _region_size(p) == 1),
     ("the 2 chickens score 2 VP",
      lambda p: p.placed()[0] == "2 chickens" and p.scored(Category.ANIMALS) == 2),
     ("filling the pasture 1 VP", lambda p: p.scored(Category.REGIONS) == 1),
     ("8 more for filling it in phase B",
      lambda p: p.scored(Category.PHASE_BONUSES) == 8 == PHASE_BONUS[1])),
    (),
    # phase B, round 5
    (("Round 5 of phase B", lambda p: p.at(1, 4)),
     ("your 4 takes the church from depot 4",
      lambda p: p.die() == 4 and p.took() == ("church", 4))),
    (("Your 6 places the church", lambda p: p.die() == 6 and p.placed()[0] == "church"),
     ("takes knowledge #23 from depot 2", lambda p: p.took() == ("knowledge #23", 2)),
     ("#23 gives 4 VP for each city hall (you have 1)",
      lambda p: p.after.players[YOU].estate.count(Tile.CITY_HALL) == 1
      and _final(p).players[YOU].breakdown[Category.KNOWLEDGE]
      == 4 * _final(p).players[YOU].estate.count(Tile.CITY_HALL))),
    (("ends phase B", lambda p: p.logged("Phase B is over.")),
     ("goes on in phase C", lambda p: p.after.phase == 2)),
    # phase C, round 1
    (("Round 1 of phase C", lambda p: p.at(2, 0)),
     ("Your 3 takes the warehouse from depot 3",
      lambda p: p.die() == 3 and p.took() == ("warehouse", 3))),
    (("Your 1 takes the watchtower from depot 1",
      lambda p: p.die() == 1 and p.took() == ("watchtower", 1)),
     ("three tiles", lambda p: len(p.after.players[YOU].storage) == 3)),
    (),
    # phase C, round 2
    (("Round 2 of phase C", lambda p: p.at(2, 1)),
     ("Your 2 builds the warehouse on a beige 2",
      lambda p: p.die() == 2 and p.placed() == ("warehouse", 2, Colour.BEIGE)),
     ("your 2 brown goods",
      lambda p: p.before.players[YOU].goods[5] == 2 and GOODS_NAMES[5] == "brown"
      and p.step.actions[2] == SellGoods(5)),  # type: ignore[union-attr]
     ("4 VP and 1 silverling",
      lambda p: p.scored(Category.SALES) == 4 == p.gained("vp") and p.gained("silver") == 1)),
    (("a worker turns your 1 into a 2 for #23",
      lambda p: p.die() == 1 and p.placed() == ("knowledge #23", 2, Colour.YELLOW)
      and p.gained("workers") == -1),),
    (),
    # phase C, round 3
    (("Round 3 of phase C", lambda p: p.at(2, 2)),
     ("Your 6 takes the bank from depot 6",
      lambda p: p.die() == 6 and p.took() == ("bank", 6))),
    (("Your 3 places the watchtower: it scores 4 VP at once",
      lambda p: p.die() == 3 and p.placed()[0] == "watchtower"
      and p.scored(Category.WATCHTOWERS) == 4 == p.gained("vp")),),
    (),
    # phase C, round 4
    (("Round 4 of phase C", lambda p: p.at(2, 3)),
     ("Your 5 takes the mine from depot 5", lambda p: p.die() == 5
      and p.took() == ("mine", 5)),
     ("a mine pays 1 silverling at every phase end",
      lambda p: _step(p, "a phase end").logged(f"Mines paid: {NAME} 1,"))),
    (("Two workers turn your 3 into a 5 for the bank",
      lambda p: p.die() == 3 and p.placed() == ("bank", 5, Colour.BEIGE)
      and p.gained("workers") == -2),
     ("it pays 2 silverlings", lambda p: p.gained("silver") == 2),
     ("that city of 5 spaces: 15 VP",
      lambda p: p.scored(Category.REGIONS) == 15 and _region_size(p) == 5),
     ("6 more for filling a region in phase C",
      lambda p: p.scored(Category.PHASE_BONUSES) == 6 == PHASE_BONUS[2])),
    (("Spend the bank's 2 silverlings on the ship in the black depot",
      lambda p: p.gained("silver") == -2 and p.took() == ("ship", 0)),),
    (),
    # phase C, round 5
    (("Your 6 sells your orange goods tile",
      lambda p: p.die() == 6 and p.before.players[YOU].goods[6] == 1
      and GOODS_NAMES[6] == "orange"
      and p.step.actions[1] == SellGoods(6)),  # type: ignore[union-attr]
     ("2 VP and 1 silverling", lambda p: p.gained("vp") == 2 and p.gained("silver") == 1)),
    (("your 1 places the mine", lambda p: p.die() == 1
      and p.placed() == ("mine", 1, Colour.GREY)),),
    (("phase C ends", lambda p: p.logged("Phase C is over.")),
     ("(yours 1 silverling)", lambda p: p.logged(f"Mines paid: {NAME} 1,")),
     ("filled for phase D", lambda p: p.logged("Phase D begins: the depots are filled"))),
    # phase D, round 1
    (("Round 1 of phase D", lambda p: p.at(3, 0)),
     ("Your 3 takes 2 workers", lambda p: p.die() == 3 and p.gained("workers") == 2)),
    (("One worker turns your 5 into a 6",
      lambda p: p.die() == 5 and p.gained("workers") == -1),
     ("take the market from depot 6", lambda p: p.took() == ("market", 6))),
    (),
    # phase D, round 2
    (("Your 5 builds the market on a beige 5",
      lambda p: p.at(3, 1) and p.die() == 5 and p.placed() == ("market", 5, Colour.BEIGE)),
     ("takes the 4 pigs from depot 3", lambda p: p.took() == ("4 pigs", 3))),
    (("Your 1 places them", lambda p: p.die() == 1 and p.placed()[0] == "4 pigs"),
     ("all 11 pigs there score again, 11 VP",
      lambda p: _pigs_in_region(p.after, p.step.actions[1].space) == 11  # type: ignore[union-attr]
      and p.scored(Category.ANIMALS) == 11 == p.gained("vp"))),
    (("The bot plays round 3 for you", lambda p: p.logged("Round 3 of phase D")),
     ("goes on in round 4", lambda p: (p.after.phase, p.after.round) == (3, 3))),
    # phase D, round 4
    (("Round 4 of phase D", lambda p: p.at(3, 3)),
     ("Your 1 places a ship", lambda p: p.die() == 1 and p.placed()[0] == "ship"),
     ("a step up the turn order",
      lambda p: p.states[2].track[YOU][0] == p.before.track[YOU][0] + 1),
     ("depot 2's goods", lambda p: p.step.actions[2].depots == (2,))),  # type: ignore[union-attr]
    (("Spend 2 silverlings on the 3 cows",
      lambda p: p.gained("silver") == -2 and p.took() == ("3 cows", 0)),),
    (("Your 6 places the other ship", lambda p: p.die() == 6 and p.placed()[0] == "ship"),
     ("takes depot 3's goods", lambda p: p.step.actions[2].depots == (3,)),  # type: ignore[union-attr]
     ("that river of 3 spaces: 6 VP",
      lambda p: _region_size(p) == 3 and p.scored(Category.REGIONS) == 6),
     ("4 more for filling it in phase D",
      lambda p: p.scored(Category.PHASE_BONUSES) == 4 == PHASE_BONUS[3])),
    (("up to round 2 of phase E", lambda p: (p.after.phase, p.after.round) == (4, 1)),),
    # phase E, round 2
    (("Round 2 of phase E", lambda p: p.at(4, 1)),
     ("Your first 3 takes 2 workers", lambda p: p.die() == 3 and p.gained("workers") == 2
      and p.before.players[YOU].dice == (3, 3))),
    (("Two workers turn your other 3 into a 5",
      lambda p: p.die() == 3 and p.gained("workers") == -2 and p.placed()[1] == 5),
     ("the 3 pigs the bot took for you",
      lambda p: p.placed()[0] == "3 pigs" and _logged_before(p, f"{NAME} took Pg3 (3 pigs)")),
     ("your pasture of 5 spaces", lambda p: _region_size(p) == 5),
     ("Its 14 pigs score",
      lambda p: _pigs_in_region(p.after, p.step.actions[1].space) == 14  # type: ignore[union-attr]
      and p.scored(Category.ANIMALS) == 14),
     ("the pasture 15 VP", lambda p: p.scored(Category.REGIONS) == 15),
     ("2 for phase E", lambda p: p.scored(Category.PHASE_BONUSES) == 2 == PHASE_BONUS[4])),
    (("your last empty light green space",
      lambda p: _step(p, "the pasture filled").scored(Category.COLOUR_BONUSES) > 0
      and _filled(p.before, Colour.LIGHT_GREEN)),
     ("its bonus tile, 5 VP",
      lambda p: p.before.players[YOU].bonuses[Colour.LIGHT_GREEN] == 1
      and _step(p, "the pasture filled").scored(Category.COLOUR_BONUSES) == 5)),
    # phase E, round 3
    (("Your 3 sells your 3 pink goods: 6 VP and 1 silverling",
      lambda p: p.at(4, 2) and p.die() == 3 and p.before.players[YOU].goods[3] == 3
      and GOODS_NAMES[3] == "pink" and p.gained("vp") == 6 and p.gained("silver") == 1),),
    (("Buy the carpenter's workshop",
      lambda p: p.took() == ("carpenter's workshop", 0) and p.gained("silver") == -2),),
    (("Your last worker turns your 5 into a 4",
      lambda p: p.die() == 5 and p.before.players[YOU].workers == 1
      and p.gained("workers") == -1 and p.placed()[:2] == ("ship", 4)),
     ("the goods of depot 3", lambda p: p.step.actions[2].depots == (3,))),  # type: ignore[union-attr]
    (),
    # phase E, round 4
    (("Your 6 builds the carpenter's workshop on a beige 6",
      lambda p: p.at(4, 3) and p.die() == 6
      and p.placed() == ("carpenter's workshop", 6, Colour.BEIGE)),
     ("takes the market from depot 1", lambda p: p.took() == ("market", 1))),
    (("Your 4 places knowledge #1 on a yellow 4",
      lambda p: p.die() == 4 and p.placed() == ("knowledge #1", 4, Colour.YELLOW)),),
    (),
    # phase E, round 5
    (("Round 5 of phase E", lambda p: p.at(4, 4)),
     ("Your 5 takes 2 workers", lambda p: p.die() == 5 and p.gained("workers") == 2)),
    (("One worker turns your 3 into a 2 for the market",
      lambda p: p.die() == 3 and p.gained("workers") == -1 and p.placed()[:2] == ("market", 2)),
     ("(#1 allows it)",
      lambda p: _same_region(p, "market") and Tile.KNOWLEDGE_1 in p.before.players[YOU].estate),
     ("that city of 3 spaces scores 6 VP", lambda p: _region_size(p) == 3
      and p.scored(Category.REGIONS) == 6),
     ("2 for phase E", lambda p: p.scored(Category.PHASE_BONUSES) == 2 == PHASE_BONUS[4]),
     ("takes the 2 chickens from depot 6", lambda p: p.took() == ("2 chickens", 6))),
    (("The chickens stay in storage", lambda p: p.before.players[YOU].storage
      == p.after.players[YOU].storage == (Tile.CHICKEN_2,)),
     ("the game's last turn", lambda p: p.after.is_over)),
    # the final scoring
    (("left goods and silverlings gave 1 VP each",
      lambda p: _final_breakdown(p, Category.GOODS_LEFT) == sum(p.after.players[YOU].goods)
      and _final_breakdown(p, Category.SILVER_LEFT) == p.after.players[YOU].silver),
     ("every 2 workers 1 VP",
      lambda p: _final_breakdown(p, Category.WORKERS_LEFT)
      == p.after.players[YOU].workers // 2),
     ("#23 4 VP", lambda p: _final_breakdown(p, Category.KNOWLEDGE) == 4
      and Tile.KNOWLEDGE_23 in p.after.players[YOU].estate)),
]
"""For every step, in order: each phrase of its words that names a number, with what must
hold in the position it is played on (``p``)."""


def _step(p: Played, title: str) -> Played:
    """The step of the lesson with this title."""
    return next(played for played in p.game if played.step.title == title)


def _region_size(p: Played) -> int:
    _, place = p._first(PlaceTile)
    assert isinstance(place, PlaceTile)
    board = p.before.boards[YOU]
    return board.regions[board.region_of[place.space]].size


def _logged_before(p: Played, text: str) -> bool:
    """Whether a step before this one logged ``text``."""
    return any(text in line for q in p.game[:next(i for i, q in enumerate(p.game) if q is p)]
               for line in q.log)


def _pigs_in_region(state: GameState, space: int) -> int:
    """The pigs on the tiles of the pasture ``space`` belongs to."""
    board, estate = state.boards[YOU], state.players[YOU].estate
    return sum(Tile(tile).animals for n, tile in enumerate(estate)
               if tile >= 0 and board.region_of[n] == board.region_of[space]
               and Tile(tile).animal == Animal.PIG)


def _same_region(p: Played, name: str) -> bool:
    """Whether the tile this step places joins another ``name`` in its region."""
    _, place = p._first(PlaceTile)
    assert isinstance(place, PlaceTile)
    board, estate = p.before.boards[YOU], p.before.players[YOU].estate
    return any(tile >= 0 and tile_name(tile) == name
               and board.region_of[n] == board.region_of[place.space]
               for n, tile in enumerate(estate))


def _filled(state: GameState, colour: Colour) -> bool:
    """Whether every space of ``colour`` on our estate holds a tile."""
    board, estate = state.boards[YOU], state.players[YOU].estate
    return all(tile >= 0 for tile, space in zip(estate, board.colours, strict=True)
               if space == colour)


def _final_breakdown(p: Played, category: Category) -> int:
    return p.after.players[YOU].breakdown[category]


def _screen(model: Model) -> list[str]:
    """The whole screen at 80x24; nothing on it is cut (``~``, the mark ``fit`` leaves)."""
    rows = render(model, compute_layout(80, 24), footer_keys(model)).text()
    assert not [row for row in rows if "~" in row], rows
    return rows


def _pane(model: Model) -> list[str]:
    rows = _screen(model)
    return [row[PANE_X:].rstrip() for row in rows[PANE_Y:PANE_Y + PANE_ROWS]]


def _play_by_the_panes() -> list[Played]:
    """The lesson played in-process by pressing what each ``Press:`` line says, key by
    key (the line must then ask for the keys left); every step's pane checked at 80x24, and
    the whole screen after every key, with nothing cut."""
    lesson = Lesson(None)
    table = lesson.table(NAME)
    model = Model(table, lesson)
    game: list[Played] = []
    steps = [s for item in LESSON for s in (item.steps if isinstance(item, LessonTurn)
                                             else (item,))]
    for number, step in enumerate(steps, 1):
        if table.poll():
            model.refresh()
        if table.state.is_over:
            model.toggle_scores()  # s: from the final scores to the board
        title, *rest = model.lesson_text()
        assert title == f"Lesson {number} of {TOTAL}: {step.title}"
        pane = _pane(model)
        assert pane[0] == title
        assert " ".join(" ".join(pane[1:]).split()) == " ".join(" ".join(rest).split()), pane
        keys = rest[0].removeprefix("Press: ").split() if rest[0].startswith("Press: ") else []
        states = [table.state if model.draft is None else model.draft.state]
        if isinstance(step, LessonStep):
            for action in step.actions[:-1] if keys[-1] == "e" else step.actions:
                states.append(apply(states[-1], action))
        log_at = len(table.history)
        for i, key in enumerate(keys):
            name = {"Esc": "^["}.get(key, key)
            command = dispatch(model, name)
            if isinstance(command, Submit):
                table.submit_turn(list(command.actions))
                model.turn_sent()
                while table.poll():  # the bot, and on to the lesson's next turn
                    model.refresh()
            _screen(model)
            left = keys[i + 1:]
            if left and model.overlay is None:  # a page covers the pane while it is open
                assert model.lesson_text()[1] == f"Press: {' '.join(left)}", (number, key)
        if keys and keys[-1] == "e":
            states.append(table.state)
        game.append(Played(step, states, [e.text for e in table.history[log_at:]], game,
                           [title, *rest], keys))
    assert table.state.is_over and lesson.current is LESSON[-1]
    return game


@pytest.fixture(scope="module")
def game() -> list[Played]:
    return _play_by_the_panes()


def test_every_step_says_what_its_deal_holds_and_fits_its_pane_at_80x24(
        game: list[Played]) -> None:
    assert len(game) == len(CLAIMS) == TOTAL
    for number, (played, claims) in enumerate(zip(game, CLAIMS, strict=True), 1):
        why = played.step.why
        covered: list[tuple[int, int]] = []
        for phrase, holds in claims:
            at = why.find(phrase)
            assert at >= 0, (number, phrase)
            assert holds(played), (number, phrase)
            covered.append((at, at + len(phrase)))
        for number_named in re.finditer(r"#?\d+", why):  # no number goes unchecked
            assert any(a <= number_named.start() and number_named.end() <= b
                       for a, b in covered), (number, number_named.group())


def test_a_ship_stops_at_three_goods_types(game: list[Played]) -> None:
    """The rule lesson 7 explains: the goods type that would make a fourth stays behind."""
    ship = game[6]
    assert ship.step.actions[2] == TakeGoods((1,), (1,))  # type: ignore[union-attr]
    player_before, player_after = ship.states[2].players[YOU], ship.after.players[YOU]
    assert (player_before.goods[1], player_after.goods[1]) == (1, 2)
    assert player_after.goods[2] == 0 and ship.after.depot_goods[1][2] == 1
    with pytest.raises(IllegalAction, match="three"):
        apply(ship.states[2], TakeGoods((1,), (1, 2)))


# --- the real program -----------------------------------------------------------------------

def _pane_lines(term: PtyTerminal) -> list[str]:
    return [line[PANE_X:].rstrip() for line in term.screen.display[PANE_Y:PANE_Y + PANE_ROWS]]


def _press_line(term: PtyTerminal) -> str:
    return next((line for line in _pane_lines(term) if line.startswith("Press: ")), "")


def _follow(term: PtyTerminal, number: int) -> None:
    """Press, key by key, what lesson ``number``'s ``Press:`` line says; after each key the
    line asks for the keys left (unless a page covers it)."""
    title = f"Lesson {number} of {TOTAL}: "
    assert term.wait_until(lambda: _pane_lines(term)[0].startswith(title)
                           and "the bot's turn" not in _pane_lines(term)[0]
                           and bool(_press_line(term))), term.text
    keys = _press_line(term).removeprefix("Press: ").split()
    for i, key in enumerate(keys):
        term.press({"Esc": "esc"}.get(key, key))
        left = keys[i + 1:]
        if not left:
            return
        if key in ("S", "i"):  # the page is open over the pane
            term.wait_for("Scores now" if key == "S" else "Tile guide")
        else:
            want = f"Press: {' '.join(left)}"
            assert term.wait_until(lambda want=want: _press_line(term) == want), \
                (number, key, term.text)


@pytest.mark.slow
def test_the_whole_guided_game_by_its_own_press_lines_at_80x24(tmp_path: Path) -> None:
    args = ("learn", "--name", NAME, "--bot-delay", "0")
    with burgundy(tmp_path, *args) as term:
        for number in range(1, 7):
            _follow(term, number)
        term.wait_for(f"Lesson 7 of {TOTAL}: a ship")
        term.press("1", "q")  # the first key, then leave half-way
        assert term.wait_exit() == 0
    with burgundy(tmp_path, *args) as term:  # goes on where it was left
        term.wait_for(f"Lesson 7 of {TOTAL}: a ship")
        term.press("2")  # the wrong die: the lesson says so
        term.wait_for(f"Lesson 7 of {TOTAL}: not this one")
        term.press("u")
        for number in range(7, TOTAL):
            _follow(term, number)
        term.wait_for("Final scores")
        term.press("s")
        term.wait_for(f"Lesson {TOTAL} of {TOTAL}: the final scoring")
        term.press("q")
        assert term.wait_exit() == 0


def test_the_first_start_offers_the_lesson_and_a_click_starts_it(tmp_path: Path) -> None:
    with burgundy(tmp_path, "play", "--name", NAME, "--interface", "127.0.0.1",
                  "--no-mdns") as term:
        term.wait_for("New here? l starts a guided first game against a bot")
        row = next(i for i, line in enumerate(term.screen.display) if "  l  learn" in line)
        at = f"{chr(32 + 10)}{chr(32 + row + 1)}"  # a click on the row, as an xterm sends it
        term.press(f"\x1b[M{chr(32)}{at}\x1b[M{chr(35)}{at}")
        term.wait_for(f"Lesson 1 of {TOTAL}: dice and workers")
        term.press("q")
        assert term.wait_exit() == 0


def test_the_lesson_is_offered_until_a_game_is_played_networked_or_local(tmp_path: Path) -> None:
    assert first_start(tmp_path)
    (tmp_path / "local").mkdir()
    (tmp_path / "local" / "00ff.local").write_bytes(b"")
    assert not first_start(tmp_path)
    (tmp_path / "local" / "00ff.local").unlink()
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "00ff.game").write_bytes(b"")
    assert not first_start(tmp_path)


def test_saved_progress_comes_back_and_a_damaged_file_starts_over(tmp_path: Path) -> None:
    path = tmp_path / "learn.json"
    lesson = Lesson(path)
    table = lesson.table(NAME)
    for item in LESSON[:2]:
        assert isinstance(item, LessonTurn)
        table.poll()
        table.submit_turn(list(item.actions))
    assert json.loads(path.read_text(encoding="utf-8")) == {"done": ["A1", "A2"]}
    again = Lesson(path)
    assert again.done == 2
    assert again.table(NAME).state.players[YOU].estate == table.state.players[YOU].estate
    for damaged in ("{not json", "[]", '{"done": "A1"}', '{"done": {}}'):
        path.write_text(damaged, encoding="utf-8")
        assert Lesson(path).done == 0, damaged
    path.write_text('{"turns": 5, "after": 1}', encoding="utf-8")  # the phase A lesson's
    assert Lesson(path).current == LESSON[6]  # its five turns and the scores page


def test_saved_progress_names_its_place_so_an_edited_lesson_keeps_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    names = [item.name for item in LESSON]
    assert len(set(names)) == len(names)
    path = tmp_path / "learn.json"
    by_name = json.dumps({"done": list(INDEXED[:10])})  # phase A, its pages, B4, B5, C1
    by_index = '{"done": 10}'  # the same place, as older clients saved it
    for saved in (by_name, by_index):
        path.write_text(saved, encoding="utf-8")
        assert Lesson(path).current.name == "C2", saved
    # The lesson loses its turn of phase B round 4: both files still mean round 2 of phase
    # C, where the bare index now points one turn further.
    edited = tuple(item for item in LESSON if item.name != "B4")
    monkeypatch.setattr(learn, "LESSON", edited)
    assert edited[10].name == "C3"
    for saved in (by_name, by_index):
        path.write_text(saved, encoding="utf-8")
        lesson = Lesson(path)
        assert lesson.current.name == "C2" and lesson.done == 9, saved
    lesson.step_done()  # the next save names the edited lesson's turns
    assert json.loads(path.read_text(encoding="utf-8"))["done"][-3:] == ["B5", "C1", "C2"]
    # A turn added before the place saved comes up first (then the player goes on from it).
    added = LessonTurn(1, 1, LESSON[0].steps)  # a turn of phase B round 2, before B4
    at = names.index("B4")
    monkeypatch.setattr(learn, "LESSON", (*LESSON[:at], added, *LESSON[at:]))
    path.write_text(by_name, encoding="utf-8")
    assert Lesson(path).current == added


def test_a_menu_the_lesson_did_not_ask_for_is_pointed_out_and_esc_goes_back() -> None:
    lesson = Lesson(None)
    table = lesson.table(NAME)
    table.poll()
    model = Model(table, lesson)
    model.refresh()
    dispatch(model, "1")
    assert model.lesson_text()[1] == "Press: w"
    dispatch(model, "t")  # the take menu, where the lesson wants workers
    assert model.lesson_text()[:2] == [f"Lesson 1 of {TOTAL}: not this one",
                                       "That menu is not the lesson's: Esc goes back."]
    dispatch(model, "^[")
    assert model.lesson_text()[1] == "Press: w"


def after_the_first_turns() -> tuple[Lesson, LessonTable]:
    """A new lesson and its table after the lesson's first five turns, played as told."""
    lesson = Lesson(None)
    table = lesson.table(NAME)
    for item in LESSON[:5]:
        assert isinstance(item, LessonTurn)
        table.poll()
        table.submit_turn(list(item.actions))
    table.poll()
    return lesson, table


def test_a_page_of_the_lesson_comes_before_the_next_turn() -> None:
    lesson, table = after_the_first_turns()
    assert isinstance(lesson.current, LessonPage) and lesson.current.page == "scores"
    turn = [UseDie(0), TakeWorkers(), UseDie(1), TakeWorkers(), END_TURN]
    with pytest.raises(IllegalAction, match="look at a page first"):
        table.submit_turn(turn)
    lesson.seen(scores=True, guide=False)
    lesson.seen(scores=False, guide=True)
    table.poll()  # now the game moves on to the lesson's next turn
    assert (table.state.phase, table.state.round, table.state.to_move) == (1, 3, YOU)


def test_after_a_jump_your_own_estate_marks_what_the_bot_played_for_you() -> None:
    lesson = Lesson(None)
    table = lesson.table(NAME)
    model = Model(table, lesson)
    for item in LESSON[:5]:
        assert isinstance(item, LessonTurn)
        table.poll()
        model.refresh()
        table.submit_turn(list(item.actions))
        model.turn_sent()
    lesson.seen(scores=True, guide=False)
    lesson.seen(scores=False, guide=True)
    table.poll()  # the jump to round 4 of phase B
    model.refresh()
    assert model.mark_state is not None
    before, after = model.mark_state.players[YOU].estate, table.state.players[YOU].estate
    placed = {n for n, (a, b) in enumerate(zip(before, after, strict=True)) if a != b}
    assert len(placed) == 2  # the ship and the 3 pigs the bot placed for you in phase B
    assert {n for kind, seat, n in model.changes if kind == "space" and seat == YOU} == placed


# --- how long the guided game takes ---------------------------------------------------------

READING_WPM = 200
"""Words a minute for the lesson's words: the rate of reading to learn (Carver, "Reading
Rate", 1990), slower than the 240-260 of plain reading (Brysbaert, 2019)."""
KEY_SECONDS = 1.35 + 0.28
"""A key pressed as the ``Press:`` line says: the keystroke-level model's mental
preparation and keystroke of an average typist (Card, Moran and Newell, 1980)."""


def _page_words(played: Played) -> int:
    """The words of the page a step opens (the scores page, the tile guide's first entry, the
    final scores), read like the lesson's own."""
    if not isinstance(played.step, LessonPage):
        return 0
    names = [NAME, "Bot"]
    lines = {"scores": lambda: standings_lines(played.before, names),
             "guide": lambda: info_lines(0),
             "end": lambda: score_lines(played.before, names)}[played.step.page]()
    return sum(len(text(line).split()) for line in lines)


def lesson_time(game: list[Played]) -> tuple[int, int, float]:
    """The words the guided game shows, the keys it asks for, and its length in minutes for
    a newcomer who reads every word at :data:`READING_WPM`, presses every key in
    :data:`KEY_SECONDS`, and watches the bot's turn after each of the lesson's turns
    (``--bot-delay``, its default)."""
    words = sum(len(" ".join(p.shown).split()) + _page_words(p) for p in game)
    keys = sum(len(p.keys) for p in game)
    turns = sum(isinstance(item, LessonTurn) for item in LESSON)
    return words, keys, words / READING_WPM + (keys * KEY_SECONDS + turns * DEFAULT_BOT_DELAY) / 60


def test_the_guided_game_takes_15_to_20_minutes(game: list[Played]) -> None:
    words, keys, minutes = lesson_time(game)
    print(f"{words} words, {keys} keys: {minutes:.1f} minutes")  # docs/client.md quotes it
    assert 15 <= minutes <= 20


def test_the_key_the_lesson_asks_for_comes_first_in_the_footer_at_80x24() -> None:
    lesson, table = after_the_first_turns()
    model = Model(table, lesson)
    model.refresh()
    assert model.lesson_text()[1] == "Press: S S"
    assert footer_keys(model)[1] == ("S", "scores")  # after the choices, before the rest
    assert " S scores " in _screen(model)[-1]
    dispatch(model, "S")  # the scores page: S closes it, and the footer says so first
    assert footer_keys(model)[0] == ("S", "back")
