"""The expansion modules at the command line (``--with``) and the bots playing them."""

from __future__ import annotations

import pytest

from p2p_burgundy import Edition, GameConfig, Module
from p2p_burgundy.cli.estates import table_config
from p2p_burgundy.cli.main import main, parse
from p2p_burgundy.cli.sim import play_game
from p2p_burgundy.cli.strategies import make
from p2p_burgundy.cli.tui.describe import describe_action
from p2p_burgundy.cli.tui.menu import build_menu
from p2p_burgundy.cli.tui.texts import info_for_tile, tile_code
from p2p_burgundy.tiles import Tile
from tests.engine.helpers import builder, random_game


def test_with_all_picks_the_2019_edition_and_every_module():
    args = parse(["sim", "--with", "all", "--players", "3"])
    assert args.modules == tuple(Module)
    config = table_config(args.players, args.edition, args.estate, args.setup, args.modules)
    assert config.edition is Edition.E2019 and config.modules == tuple(Module)
    for command in (["bot", "--host"], ["host"]):
        args = parse([*command, "--with", "inns,extra-tiles"])
        assert args.modules == (Module.EXTRA_TILES, Module.INNS)


@pytest.mark.parametrize(("argv", "phrase"), [
    (["sim", "--with", "inn"], "unknown module 'inn'"),
    (["sim", "--with", "inns", "--edition", "2011"], "part of the 2019 edition"),
    (["bot", "--host", "--with", "inns", "--edition", "2011"], "part of the 2019 edition"),
    (["play", "--with", "all"], "needs a new game against bots"),
])
def test_a_bad_with_is_one_line_and_exit_code_2(argv, phrase, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert phrase in err and err.count("\n") == 1


def test_sim_prints_the_modules(capsys):
    assert main(["sim", "--with", "white-castles", "--games", "1", "--bots", "random,random",
                 "--quiet", "--jobs", "1"]) == 0
    assert "edition 2019 with white-castles" in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_random_greedy_and_mcts_play_every_module_legally(players):
    config = GameConfig(players, Edition.E2019, modules=tuple(Module))
    names = ("random", "greedy", "mcts", "greedy")[:players]
    bots = [make(name, seed, iterations=4) for seed, name in enumerate(names)]
    state, _ = play_game(config, bots, seed=players)  # raises if a bot plays an illegal move
    assert state.is_over


@pytest.mark.parametrize("players", [2, 4])
def test_the_terminal_client_names_every_choice_of_a_game_with_every_module(players):
    seen: set[str] = set()

    def visit(before, after, action):  # type: ignore[no-untyped-def]
        if action is None:
            return
        prompt, options = build_menu(before)
        assert options
        seen.add(prompt.split(":")[0])
        assert describe_action(before, action, ["Ann", "Bob", "Cid", "Dee"])

    for seed in range(6):
        random_game(players, seed, policy=builder, edition=Edition.E2019,
                    modules=tuple(Module), visit=visit)
    assert {"White castle", "Crane", "Phase end"} <= seen
    for tile in (Tile.CRANE, Tile.GEESE, Tile.WHITE_CASTLE, Tile.INN, Tile.KNOWLEDGE_28):
        assert info_for_tile(tile).lines and tile_code(tile)


def test_random_and_greedy_play_the_border_post_duchies_legally():
    config = GameConfig(3, Edition.E2019, estates=("11b", "11e", "11f"), modules=tuple(Module))
    bots = [make(name, seed) for seed, name in enumerate(("random", "greedy", "random"))]
    state, _ = play_game(config, bots, seed=5)
    assert state.is_over


def test_the_screen_shows_the_trade_route_the_inns_and_the_border_post_bonus():
    from p2p_burgundy.cli.tui.render import board_lines, supplies_lines
    from tests.engine.helpers import started, with_game

    state = started(2, modules=tuple(Module), seed="screen")
    seat = state.to_move
    state = with_game(state, routes=((1, 2, 3, 4, 5),) * 2, route_goods=((2, 4),) * 2,
                      inns=2)
    text = ["".join(seg.text for seg in line) for line in supplies_lines(state, seat)]
    assert "route 2/15>1+4w" in text[1] and all(len(line) <= 42 for line in text)
    board = ["".join(seg.text for seg in line) for line in board_lines(state, ["A", "B"])]
    assert any(line.startswith("Black:") and "Inn x2" in line for line in board)
    posts = started(2, estate="11a", edition=Edition.E2019, start_space=0, seed="posts")
    posts = with_game(posts, border_ranks=(1, 0))
    dice = "".join(seg.text for seg in supplies_lines(posts, 0)[3])
    assert "posts 1st" in dice


def test_the_host_page_switches_every_module_on_with_the_2019_edition():
    from p2p_burgundy.cli.tui.lobbymodel import Host, LobbyModel, Page

    model = LobbyModel("Ann", "red", "fp")
    model.page = Page.HOST
    model.switch_expansions()
    assert (model.modules, model.edition) == (tuple(Module), "2019")
    command = model.confirm()
    assert isinstance(command, Host) and command.modules == tuple(Module)
    model.page = Page.HOST
    model.switch_edition()  # back to 2011: no modules
    assert (model.modules, model.edition) == ((), "2011")


def test_the_estate_drawing_marks_the_rim_spaces_of_the_border_posts():
    from p2p_burgundy.cli.tui.render import estate_lines, text
    from tests.engine.helpers import started

    state = started(2, estate="11a", edition=Edition.E2019, start_space=0, seed="posts")
    lines = [text(line).rstrip() for line in estate_lines(state, 0, ["Ann", "Bob"])]
    assert lines[0] == "P1 Ann's estate (board 11a, P: border post)"
    assert lines[2] == "      PK2    K1    K6    K5   PK4"  # posts K2/S5 and K4/A3
    assert lines[3] == "   PS5    A4    B3    B1    S2   PA3"
    assert lines[7] == "          M3   PS4   PA1    B3"  # post S4/A1
    plain = started(2, seed="posts")
    assert "P" not in "".join(text(line) for line in estate_lines(plain, 0, ["Ann", "Bob"])[1:])


def test_greedy_values_shields_takes_one_on_a_double_and_keeps_it():
    from p2p_burgundy import END_TURN, PayTribute, TakeShield, apply, legal_actions
    from p2p_burgundy.cli.strategies.greedy import GreedyStrategy, position_value
    from tests.engine.test_shields import at_phase_end, shielded

    state, seat = shielded(dice=(4, 4), depot_shields={4: (1,)})
    bot = GreedyStrategy()
    assert bot.choose(state, legal_actions(state)) == TakeShield(1, 0)
    taken = apply(state, TakeShield(1, 0))
    without = taken.clone()
    without.changed("shields").held = (0, 0)  # the same position had the shield gone
    assert position_value(taken, seat) > position_value(without, seat) + 8
    end, _ = at_phase_end(shields=(1,), silver=3)
    end = apply(end, END_TURN)
    assert GreedyStrategy().choose(end, legal_actions(end)) == PayTribute((1,))
