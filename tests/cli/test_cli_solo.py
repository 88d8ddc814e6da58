"""The solo game on the command line: ``burgundy sim --players 1`` with every bot, the
``burgundy solo`` options, and the solo game in the programs' JSON."""

from __future__ import annotations

import pytest

from p2p_burgundy import Edition, GameConfig
from p2p_burgundy.cli.gamejson import state_json, tile_json
from p2p_burgundy.cli.main import main, parse
from p2p_burgundy.cli.sim import play_game
from p2p_burgundy.cli.strategies import make
from p2p_burgundy.cli.tui.command import solo_config
from p2p_burgundy.config import Module
from p2p_burgundy.state import Step
from p2p_burgundy.tiles import FACE_DOWN, Tile


@pytest.mark.parametrize("bot", ["random", "greedy", "mcts"])
def test_sim_plays_solo_games_with_each_bot(bot, capsys):
    argv = ["sim", "--players", "1", "--games", "1", "--seed", "4", "--bots", bot, "--jobs",
            "1", "--iterations", "8"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "1 player (solo), edition 2019" in out
    assert "solo game lost: spaces left empty (round 25 of 25)" in out \
        or "solo game won: every space filled" in out


def test_sim_solo_games_with_every_module_on_a_border_post_duchy(capsys):
    argv = ["sim", "--players", "1", "--games", "2", "--seed", "1", "--with", "all",
            "--estate", "11a", "--jobs", "1", "--quiet"]
    assert main(argv) == 0
    summary = capsys.readouterr().out
    assert "summary: 2 games, 1 player (solo), edition 2019 with extra-tiles" in summary


def test_the_solo_command_line_becomes_its_config():
    config = solo_config(parse(["solo", "--target", "53", "--with", "inns", "--estate", "5"]))
    assert config == GameConfig(1, Edition.E2019, estates=("5",), modules=(Module.INNS,),
                                target=53)
    assert solo_config(parse(["solo"])) == GameConfig(1, Edition.E2019)


@pytest.mark.parametrize(("argv", "message"), [
    (["solo", "--target", "44"], "argument --target: must be 45 to 55, not 44"),
    (["solo", "--setup", "experts-open"], "the solo game has no experts' set-up"),
    (["solo", "--seed", "-1"], "argument --seed: must be 0 to 2**64-1"),
    (["sim", "--players", "1", "--edition", "2011"], "the solo game is part of the 2019"),
    (["sim", "--players", "0"], "must be 1 (the solo game), 2, 3 or 4, not 0"),
])
def test_a_bad_solo_command_line_is_one_line_and_exit_code_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.splitlines()) == 1


def test_a_board_file_that_cannot_be_won_solo_is_refused_in_one_line(tmp_path, capsys):
    import json

    from tests.engine.test_solo import DRY_CORNER
    path = tmp_path / "corner.json"
    path.write_text(json.dumps({"id": "corner", "name": "A dry corner", "rows": DRY_CORNER,
                                "source": "a test"}))
    assert main(["sim", "--players", "1", "--estate-file", str(path)]) == 2
    err = capsys.readouterr().err
    assert "the solo game cannot be won on estate corner: with the start castle on C3 " \
           "(row 3, 3), no tile can ever reach B1, A2, C3, S4, M1" in err
    assert len(err.splitlines()) == 1


def test_the_json_state_of_a_solo_game_has_the_counter_target_and_face_down_tiles():
    config = GameConfig(1, Edition.E2019)
    state, _ = play_game(config, [make("greedy", 1)], seed=2)
    solo = state_json(state)["solo"]
    assert solo["round"] == state.game_round
    assert solo["vp_target"] == state.vp_target and solo["vp_counter"] == state.vp_counter
    assert sum(solo["goods_out"]) == sum(state.goods_out)
    assert tile_json(FACE_DOWN + Tile.MINE) == "face_down_mine"
    assert "solo" not in state_json(play_game(GameConfig(2), [make("random", 1)] * 2, 1)[0])


def test_the_solo_steps_have_their_choices_and_sentences_in_the_client():
    from p2p_burgundy import PayGoods, PlaceTile, TakeGoods, UseDie
    from p2p_burgundy.cli.tui.describe import describe_action
    from p2p_burgundy.cli.tui.menu import build_menu
    from tests.engine.helpers import play, position, with_game

    names = ["Sol"]
    state = position(1, edition=Edition.E2019, start_space=18, storage=(Tile.SHIP,),
                     dice=(2, 2), goods={1: 2, 2: 3}, depot_goods={3: {4: 1}},
                     depots={0: (Tile.MINE, Tile.CASTLE)})
    state = play(state, UseDie(0), PlaceTile(0, 17), TakeGoods((3,), (4,)))
    prompt, options = build_menu(state)
    assert prompt == "Ship: give 5 goods for a black depot tile, face down?"
    assert [o.label for o in options] == ["black: Min (mine)", "black: Cas (castle)", "pass"]
    assert describe_action(state, options[1].action, names) == \
        "Sol took Cas (castle) from the black depot, face down, for 5 goods."
    assert describe_action(state, options[2].action, names) == \
        "Sol did not trade 5 goods for a black depot tile."
    state = play(state, options[1].action)
    prompt, options = build_menu(state)
    assert prompt == "Pay the goods: 5 more"
    assert [o.label for o in options][:1] == ["pay 1 x goods 1 (turquoise) (of 2)"]
    assert describe_action(state, PayGoods(2), names) == \
        "Sol paid 1 x goods 2 (violet) for the black depot tile."
    target = with_game(position(1, edition=Edition.E2019, start_space=18, silver=5),
                       vp_counter=47, vp_target=50, pending=((Step.TARGET, 0),))
    prompt, options = build_menu(target)
    assert prompt == "Buy 3 VP for 3 silver to reach the target?"
    assert [o.label for o in options] == ["buy 3 VP for 3 silver", "pass"]
    assert describe_action(target, options[0].action, names) == \
        "Sol bought 3 VP for 3 silverlings: the counter reaches the target marker."
    assert describe_action(target, options[1].action, names) == \
        "Sol did not buy the 3 VP that reach the target marker."
    reward = with_game(position(1, edition=Edition.E2019, start_space=18, depots={0: ()}),
                       pending=((Step.REWARD, 0),))  # the black depot is empty: a pass
    prompt, options = build_menu(reward)
    assert prompt == "Colour complete: a black depot tile to place now"
    assert [o.label for o in options] == ["pass"]
    assert describe_action(reward, options[0].action, names) == \
        "Sol took no black depot tile for the colour completed: none can go on the duchy."
    order = with_game(position(1, edition=Edition.E2019, start_space=18),
                      pending=((Step.SHIP, 0), (Step.FREE_ACTION, 0), (Step.ORDER, 0)))
    prompt, options = build_menu(order)
    assert prompt == "Which comes first?"
    assert [o.label for o in options] == ["the action of any number", "the ship's goods"]
    assert describe_action(order, options[1].action, names) == "Sol took the ship's goods first."
    emptied = position(1, edition=Edition.E2019, start_space=18, goods={1: 5},
                       depots={0: (Tile.MINE,)}, pending=((Step.SHIP, 0),))
    prompt, options = build_menu(emptied)  # another ship, placed first, took every goods tile
    assert [o.label for o in options] == ["pass (no goods left on the depots)"]
    assert describe_action(emptied, options[0].action, names) == \
        "Sol's ship took no goods: none lie on the depots."


def test_a_step_the_client_has_no_words_for_is_shown_in_its_modules_words(monkeypatch):
    from dataclasses import replace

    from p2p_burgundy.cli.tui import menu
    from tests.engine.helpers import position, with_game

    words = menu.MODULE_STEPS[Step.TARGET]  # as a new module's step might be: no prompt
    monkeypatch.setitem(menu.MODULE_STEPS, Step.TARGET, replace(words, prompt=""))
    target = with_game(position(1, edition=Edition.E2019, start_space=18, silver=5),
                       vp_counter=47, vp_target=50, pending=((Step.TARGET, 0),))
    prompt, options = menu.build_menu(target)
    assert prompt == "You may buy the victory points that reach the target marker (or pass)"
    assert [(o.key, o.label) for o in options] == [("y", "buy 3 VP for 3 silver"), ("x", "pass")]
