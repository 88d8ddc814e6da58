"""Screen geometry and the log's sentences."""

from __future__ import annotations

import io

import pytest

from p2p_burgundy import GameConfig, PlaceTile, TakeTile, TakeWorkers, UseDie, draw_chance, new_game
from p2p_burgundy.cli.tui.describe import describe_action, describe_chance, describe_turn
from p2p_burgundy.cli.tui.layout import MIN_HEIGHT, MIN_WIDTH, compute_layout
from p2p_burgundy.cli.verify import _write_draw
from p2p_burgundy.config import Edition, Module

from .helpers import new_game_config_state, play, started

NAMES = ["Ann", "Bea"]


@pytest.mark.parametrize("size", [(80, 24), (81, 25), (100, 30), (119, 50), (120, 24),
                                  (132, 43), (250, 80)])
def test_panes_fit_the_screen_and_never_overlap(size: tuple[int, int]) -> None:
    width, height = size
    layout = compute_layout(width, height)
    assert not layout.too_small
    panes = [layout.status, layout.estate, layout.supplies, layout.board, layout.menu,
             layout.log, layout.message, layout.footer]
    cells: set[tuple[int, int]] = set()
    for pane in panes:
        assert pane.height > 0 and pane.width > 0
        assert pane.y >= 0 and pane.y + pane.height <= height
        assert pane.x >= 0 and pane.x + pane.width <= width
        area = {(y, x) for y in range(pane.y, pane.y + pane.height)
                for x in range(pane.x, pane.x + pane.width)}
        assert not area & cells, f"{pane} overlaps"
        cells |= area
    assert layout.menu.height >= 8 and layout.board.width >= 37


@pytest.mark.parametrize("size", [(79, 24), (80, 23), (20, 5), (1, 1)])
def test_below_the_minimum_the_layout_says_too_small(size: tuple[int, int]) -> None:
    assert compute_layout(*size).too_small
    assert (MIN_WIDTH, MIN_HEIGHT) == (80, 24)


def test_a_turn_reads_as_sentences_with_costs_and_gains() -> None:
    state = started(2)
    turn = [UseDie(0), TakeTile(1, 0), UseDie(1), PlaceTile(0, 11)]
    assert describe_turn(state, turn, NAMES) == [
        (0, "Ann took Chu (church) from depot 1 with a 1."),
        (0, "Ann placed Chu (church) on B3 (row 3, 3) with a 2 (-1 worker; +11 VP for "
            "region, phase bonus)."),
    ]
    after = play(state, *turn)
    assert describe_action(after, TakeTile(5, 0), NAMES) == "Ann's church took Min (mine) " \
        "from depot 5."


def test_workers_and_chance_events_read_as_sentences() -> None:
    state = started(2)
    assert describe_turn(state, [UseDie(1), TakeWorkers()], NAMES) == [
        (0, "Ann took workers with a 2 (+2 workers).")]
    _, drew = draw_chance(new_game_config_state(), bytes(32))
    assert describe_chance(drew, NAMES) == [
        "Set-up: Ann starts; starting goods: Ann 1, 1, 2; Bea 2, 3, 6."]


def test_the_set_up_line_names_what_the_modules_drew_in_verify_s_words() -> None:
    """The shields on the depots and the trade route cards dealt, each in the words its
    module declares (its DrawWords), which verify writes too."""
    config = GameConfig(players=2, edition=Edition.E2019,
                        modules=(Module.TRADE_ROUTES, Module.SHIELDS))
    _, drew = draw_chance(new_game(config), bytes(32))
    assert describe_chance(drew, NAMES) == [
        "Set-up: Ann starts; starting goods: Ann 1, 1, 2; Bea 2, 3, 6. Shields on the depots: "
        "1: #14; 2: #18; 3: #2; 4: #11; 5: #1; 6: #4. Trade route cards dealt: Ann 8 9 12 7 5; "
        "Bea 3 4 1 6 2."]
    out = io.StringIO()
    _write_draw(drew, NAMES, out)
    assert out.getvalue().splitlines()[1:] == [
        "  shields on the depots: 1: #14; 2: #18; 3: #2; 4: #11; 5: #1; 6: #4",
        "  trade route cards dealt: Ann 8 9 12 7 5; Bea 3 4 1 6 2"]
