"""The views of a game's outcome and of its set-up's draw learn from the registry what a module
adds to them (the team game's teams, as :class:`~p2p_burgundy.scoring.Side`; the shields and
the trade route cards drawn, as :class:`~p2p_burgundy.words.DrawWords`), so none names the
module."""

from __future__ import annotations

import inspect

from p2p_burgundy import Edition, GameConfig, new_game, outcome, variants
from p2p_burgundy.chance import SetupDraw
from p2p_burgundy.cli import sim, verify
from p2p_burgundy.cli.tui import render
from p2p_burgundy.cli.web import view
from p2p_burgundy.net import report
from p2p_burgundy.scoring import Side
from p2p_burgundy.variants import ENGINE_MODULES
from tools.module_reach import words


def test_the_outcomes_views_name_no_module() -> None:
    """Each function that writes a game's result names only the modules listed: the solo
    game's own page (``score_lines``) and a local file's description (``verify_local``)."""
    views = [sim._rules, sim.format_game, verify.verify_local, verify._write_scores,
             view.result_text, view._own_board, render.score_lines, render.side_result_lines]
    named = {f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}":
             [module.name for module in ENGINE_MODULES
              if words(module).search(inspect.getsource(fn))]
             for fn in views}
    assert named == {"sim._rules": [], "sim.format_game": [], "verify.verify_local": ["solo"],
                     "verify._write_scores": [], "view.result_text": [], "view._own_board": [],
                     "render.score_lines": ["solo"], "render.side_result_lines": []}


def test_the_team_game_declares_its_sides_from_the_outcome() -> None:
    over = new_game(GameConfig(4, Edition.E2019, teams=((0, 2), (1, 3))))
    over.phase = 5  # as the game's end leaves it: a tie, won by the team further behind on
    # the bridge (A1 stands first)
    assert variants.sides(over.config, outcome(over)) == (
        Side("team", "B", (1, 3), 0), Side("team", "A", (0, 2), 0))
    base = new_game(GameConfig(players=2))
    assert variants.sides(base.config, outcome(base)) == ()


def test_the_audits_setup_lines_name_no_module() -> None:
    for fn in (verify._write_draw, report._draw_json):
        source = inspect.getsource(fn)
        assert [module.name for module in ENGINE_MODULES if words(module).search(source)] == []


def test_the_shields_and_route_cards_drawn_at_setup_are_written_in_their_modules_words() -> None:
    drew = SetupDraw(0, ((1, 2, 3), (1, 2, 4)), ((4,), (1, 8), (), (), (), ()),
                     ((7, 3, 4), (6, 9, 12)))
    assert [(words.what, words.text(value, ["Ann", "Bob"]), words.json(value))
            for words, value in variants.drawn_at_setup(drew)] == [
        ("shields on the depots", "1: #4; 2: #1, #8",
         {"1": [4], "2": [1, 8], "3": [], "4": [], "5": [], "6": []}),
        ("trade route cards dealt", "Ann 7 3 4; Bob 6 9 12", [[7, 3, 4], [6, 9, 12]])]
    assert variants.drawn_at_setup(SetupDraw(0, ((1, 2, 3), (1, 2, 4)))) == []
