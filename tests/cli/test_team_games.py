"""The team game at the command line and over the LAN: the table's configuration carries the
teams, each player runs its own peer, and ``burgundy verify``'s audit checks the game."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2p_burgundy import Edition, GameConfig, new_game, state_hash
from p2p_burgundy.actions import Stow
from p2p_burgundy.cli.estates import table_config
from p2p_burgundy.cli.gamejson import action_json, state_json
from p2p_burgundy.cli.main import main, parse
from p2p_burgundy.cli.netplay import quick_bot_game
from p2p_burgundy.cli.strategies.mcts import MctsStrategy, SearchParams
from p2p_burgundy.cli.tui.table import LocalTable
from p2p_burgundy.estate import PROVISIONAL_TEAM_BOARD
from p2p_burgundy.net.audit import audit_file
from p2p_burgundy.scoring import Category, outcome
from tests.cli.schemas import problems
from tests.engine.helpers import resolve_all

from .tui.netgames import play_out

TEAMS = ((0, 2), (1, 3))


@pytest.mark.parametrize("command", [["bot", "--host"], ["host"], ["sim"]])
def test_host_and_bot_host_and_sim_make_the_team_games_table(command):
    args = parse([*command, "--players", "4", "--teams"])
    config = table_config(args.players, args.edition, args.estate, args.setup, args.modules,
                          args.board, args.switches)
    assert config.teams == TEAMS and config.edition.value == "2019"
    assert config.estates == (PROVISIONAL_TEAM_BOARD,) * 4


@pytest.mark.parametrize(("argv", "phrase"), [
    (["bot", "--host", "--teams"], "the team game is for 4 players, not 2"),
    (["host", "--players", "3", "--teams"], "the team game is for 4 players, not 3"),
    (["play", "--bots", "2", "--teams"], "argument --teams: the team game is for 4 players"),
    (["play", "--teams"], "argument --teams: the team game is for 4 players"),
    (["solo", "--teams"], "the team game is for 4 players, not 1"),
    (["match", "--teams", "--players", "4", "--entrants", "greedy,random,greedy,random"],
     "argument --teams: a match rates each entrant on its own"),
])
def test_a_team_game_that_cannot_be_played_is_one_line(argv, phrase, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert phrase in err and err.count("\n") == 1


def test_play_local_against_three_bots_is_a_team_game():
    table = LocalTable.new("Ann", bots=3, seed=5, switches=("team",))
    assert table.state.config.teams == TEAMS and table.names == ["Ann", "Bot 1", "Bot 2",
                                                                  "Bot 3"]


@pytest.mark.slow
def test_a_networked_team_game_is_played_to_the_end_and_verifies(tmp_path: Path,
                                                                  capsys) -> None:
    """play --bots 3 --teams: four peers on loopback (ours and three bot peers), each
    running its own engine; the file's audit replays the whole game."""
    thread, table = quick_bot_game(tmp_path, 3, "Ann", strategy="random", switches=("team",),
                                   timeout=60)
    try:
        assert table.state.config.teams == TEAMS
        play_out(thread, table, timeout=240)
        assert table.history[0].text == (
            "Note: Team board team-provisional is provisional: not the printed board (no "
            "source describes 12a or 12b; enter yours with --estate-file)")
    finally:
        thread.close()
    files = sorted((tmp_path / "games").glob("*.game"))
    assert len(files) == 1
    report = audit_file(files[0].read_bytes())
    assert report.ok, report.problems
    assert report.final_hash == state_hash(table.state)
    result = outcome(table.state)
    assert sorted(result.teams) == list(TEAMS) and sum(result.team_scores) == sum(
        p.vp for p in table.state.players)
    assert main(["verify", str(files[0])]) == 0
    won, lost = result.teams
    assert (f"Winning team: {table.names[won[0]]} and {table.names[won[1]]}, "
            f"{result.team_scores[0]} VP against {result.team_scores[1]} VP for "
            f"{table.names[lost[0]]} and {table.names[lost[1]]} (decided by "
            f"{result.decided_by})") in capsys.readouterr().out


def _with_points(state, seat: int, points: int):
    """``state`` with ``points`` more VP (as a region's) at ``seat``."""
    new = state.clone()
    players = list(new.players)
    p = players[seat] = players[seat].copy()
    p.add_vp(Category.REGIONS, points)
    new.players = tuple(players)
    return new


@pytest.mark.parametrize("value", ["greedy", "learned"])
def test_the_bots_count_their_partners_points_as_their_own(value):
    state = resolve_all(new_game(GameConfig(4, Edition.E2019, teams=TEAMS)))
    partner_scored = _with_points(state, 2, 10)  # A2 scores: A1's team
    bot = MctsStrategy(params=SearchParams(opponents=1.0, value=value))
    leaf = bot._leaf
    assert leaf(partner_scored, 0) - leaf(state, 0) == pytest.approx(10)
    assert leaf(partner_scored, 1) == pytest.approx(leaf(state, 1))  # team B's value
    # the search judges its team against the other team, never against its partner
    assert bot._judge(partner_scored, 0) - bot._judge(state, 0) == pytest.approx(10)
    assert bot._judge(partner_scored, 1) - bot._judge(state, 1) == pytest.approx(-10)
    assert bot._judge(partner_scored, 3) - bot._judge(state, 3) == pytest.approx(-10)


def test_an_engine_sees_the_teams_the_team_board_and_whose_tiles_are_stored():
    state = resolve_all(new_game(GameConfig(4, Edition.E2019, teams=TEAMS)))
    doc = state_json(state)
    assert problems(doc, "state") == []
    assert doc["teams"] == [[0, 2], [1, 3]]
    seat = doc["seats"][0]
    assert len(seat["spaces"]) == len(seat["neighbours"]) == 74 and seat["own_storage"] == 0
    assert seat["neighbours"][21] == [14, 20, 27, 46, 52, 59]  # the castle, across the seam
    assert action_json(Stow(1, -1)) == {"type": "stow", "shared": 1, "discard": -1}
