"""The views of a game's outcome learn from the registry what a module adds to it (the team
game's teams, as :class:`~p2p_burgundy.scoring.Side`), so none names the team game."""

from __future__ import annotations

import inspect

from p2p_burgundy import Edition, GameConfig, new_game, outcome, variants
from p2p_burgundy.cli import sim, verify
from p2p_burgundy.cli.tui import render
from p2p_burgundy.cli.web import view
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
