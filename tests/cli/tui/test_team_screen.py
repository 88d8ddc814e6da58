"""The team game on the terminal client at 80x24: the team board's two halves, the player's
own and the team's storage, the teams in the players list, the choice of storage, the help
page's section on what differs, and the final scores by team (exact lines, no terminal);
then the real client in a pseudo-terminal read back through pyte."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from p2p_burgundy import Edition, GameConfig, new_game
from p2p_burgundy.cli.tui.app import footer_keys
from p2p_burgundy.cli.tui.layout import compute_layout
from p2p_burgundy.cli.tui.model import Model, Overlay
from p2p_burgundy.cli.tui.render import render, score_lines, text
from p2p_burgundy.cli.tui.table import EntryKind, HistoryEntry
from p2p_burgundy.scoring import Category

from .helpers import FixedTable, resolve

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def team_model(keys: str = "") -> Model:
    """Ann (A1) to move in round 1 of a team game on the provisional team board."""
    state = resolve(new_game(GameConfig(4, Edition.E2019, teams=((0, 2), (1, 3)))))
    table = FixedTable(state, NAMES, 0, [HistoryEntry(None, "Round 1 of phase A.",
                                                      EntryKind.CHANCE)])
    model = Model(table)
    table.poll()
    model.refresh()
    for key in keys:
        model.hotkey(key)
    return model


def screen(model: Model) -> list[str]:
    canvas = render(model, compute_layout(80, 24), footer_keys(model))
    return [line.rstrip() for line in canvas.text()]


def test_the_team_board_and_both_storages_fit_80x24():
    lines = screen(team_model("1t1"))  # the 1 takes the church from depot 1: where to?
    assert lines[1:14] == [
        "P1 Ann's team board (team-provisional)     Phase A round 1/5 | to come: 2 4 5 3",
        "    S6 B5 A4 C3          A6 A5 A4 A3       1: ---   Shp   Kn1   Pg4",
        "   A2 S1 B6 A5 B4       S2 S1 C6 S5 S4     2: Kn26  Cas   Mkt   Twr",
        " A5 A4 A3 B1 K2 B3    B5 M4 K3 K1 S2 B3    3: Ck2   Hal   Shp   Kn18",
        "B6 B1 B2 B6 B5 K4 ca B6 B1 K2 C6 K5 B4 B1  4: Shp   Mkt   Ck3   Min   (3)",
        " K2 K5 M4 K3 M1 S2    B2 B5 K4 K3 B1 B2    5: Min   Kn13  Crp   Bnk",
        "   B6 B1 M2 K5 S6       C6 A1 M2 M5 C6     6: Hal   Cw2   Cas   Shp",
        "    C3 S4 S1 C3          B3 A4 S1 B3       Black: Twr   Cas   Pg4   Crp",
        "Own   ---     ---   Team   ---     ---            Mkt   Pg3   Crp   Kn24",
        "Goods:  5x1   6x2   sold 0                 > 1. P1 Ann       *  0 VP A s2 w3",
        "Silver 2  Workers 3  VP 0                    2. P2 Bob          0 VP B s2 w5",
        "Dice:  (1)  2   Bonus tiles: none            3. P3 Cid          0 VP A s2 w3",
        "Knowledge: none                              4. P4 Dee          0 VP B s2 w5",
    ]
    assert lines[14:17] == ["Where does Chu go?                         Log (PgUp/PgDn)",
                            ">1 to your storage                         * Round 1 of phase A.",
                            " 2 to the team's storage                   (this turn) Ann took "
                            "Chu (church)"]


def test_a_stowed_tile_shows_in_its_storage_and_the_spaces_across_the_seam_are_choices():
    lines = screen(team_model("1t1" + "2"))  # to the team's storage
    assert lines[9].startswith("Own   ---     ---   Team 1 Chu     ---  ")
    lines = screen(team_model("1t1" + "1" + "2p1"))  # to Ann's own; the 2 places it
    assert lines[9].startswith("Own 1 Chu     ---   Team   ---     ---")
    assert lines[4:7] == [
        " A5 A4 A3 B1 K2 B3<   B5+M4 K3 K1 S2 B3    3: Ck2   Hal   Shp   Kn18",
        "B6 B1 B2 B6 B5 K4 ca B6+B1 K2 C6 K5 B4 B1  4: Shp   Mkt   Ck3   Min   (3)",
        " K2 K5 M4 K3 M1 S2    B2+B5 K4 K3 B1 B2    5: Min   Kn13  Crp   Bnk"]
    assert lines[15] == ">1 B3 (half 1, row 3, 6)  -1 wkr           * Round 1 of phase A."


def test_the_help_page_says_what_differs_in_the_team_game():
    model = team_model()
    model.overlay = Overlay.HELP
    lines = screen(model)
    assert lines[6:9] == ["The team game: what differs",
                          "  You and your partner (the same letter, A or B, in the players list)",
                          "  play one duchy: the team board, its two halves side by side, joined"]


def test_the_final_scores_add_up_each_team():
    state = team_model().state.clone()
    players = list(state.players)
    for seat, points in enumerate((40, 55, 50, 35)):
        p = players[seat] = players[seat].copy()
        p.add_vp(Category.REGIONS, points)
    state.players = tuple(players)
    state.phase = 5
    lines = [text(line) for line in score_lines(state, NAMES)]
    assert lines[-3:] == [
        # a tie on points and empty spaces: team A's A1 stands first on the bridge
        "Team B (P2 Bob and P4 Dee): 90 VP, wins (decided by further behind on the bridge).",
        "Team A (P1 Ann and P3 Cid): 90 VP",
        "Ranking: 1. P2 Bob 55  2. P4 Dee 35  3. P1 Ann 40  4. P3 Cid 50"]


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
def test_play_local_teams_in_a_terminal(tmp_path: Path):
    pytest.importorskip("pyte", reason="pyte is in the test extras: pip install -e '.[test]'")
    from .pty_terminal import burgundy

    with burgundy(tmp_path, "play", "--local", "--bots", "3", "--teams", "--seed", "3",
                  "--name", "Ann", "--bot-delay", "0") as term:
        shown = term.wait_for("Ann's team board (team-provisional)")
        assert "Own " in shown and " Team " in shown
        assert " A s2 w3" in shown and " B s2 w5" in shown
        term.press("l")  # the game's log begins with the board's note
        term.wait_for("provisional: not the printed board")
        term.press("esc", "q")
        assert term.wait_exit() == 0


def test_the_client_names_every_choice_of_a_team_game_and_draws_every_moment():
    from p2p_burgundy.cli.tui.describe import describe_action
    from p2p_burgundy.cli.tui.menu import build_menu
    from p2p_burgundy.cli.tui.render import estate_lines, supplies_lines
    from tests.engine.helpers import builder, random_game

    prompts: set[str] = set()

    def visit(before, after, action):  # type: ignore[no-untyped-def]
        if action is None:
            return
        prompt, options = build_menu(before)
        assert options and all(o.label for o in options)
        prompts.add(prompt.split(" ")[0])
        assert describe_action(before, action, NAMES)
        seat = before.to_move
        rows = [text(line) for line in estate_lines(before, seat, NAMES)[1:]]
        assert len(rows) == 7 and max(len(row) for row in rows) <= 42
        assert len(text(supplies_lines(before, seat)[0])) <= 42  # the storage line

    random_game(4, 3, policy=builder, edition=Edition.E2019, teams=((0, 2), (1, 3)),
                visit=visit)
    assert "Where" in prompts  # the choice of storage came up
