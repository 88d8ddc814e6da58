"""`burgundy estates`, and the estate options of `burgundy sim` (`--estate N`,
`--setup experts-open|experts-secret`): listings flag every layout that is not well attested;
bad options are one line and exit code 2."""

from __future__ import annotations

import json

import pytest

from p2p_burgundy import Setup
from p2p_burgundy.cli.main import main, parse, sim_config
from p2p_burgundy.estate import all_estates


def test_estates_lists_every_estate_with_a_note_where_confidence_is_not_high(capsys):
    assert main(["estates"]) == 0
    out = capsys.readouterr().out
    for board in all_estates().values():
        assert f"{board.id:<7} {board.name}" in out
        assert (f"note: Estate {board.id} is" in out) == (board.confidence != "high"
                                                          or bool(board.note))
    assert "start castle C6 (row 4, 4); cities of 1, 3, 3, 5 spaces" in out


def test_estates_filters_by_edition_and_can_show_layouts(capsys):
    assert main(["estates", "--edition", "2019", "--layout"]) == 0
    out = capsys.readouterr().out
    numbers = [line.split()[0] for line in out.splitlines()
               if line and not line.startswith(" ")]
    assert numbers == [str(n) for n in range(1, 11)] + [f"11{x}" for x in "abcdef"] + [
        "team-provisional"]
    assert "        S6 S1 S2 C6 S5 S4 S1" in out  # estate 1's middle row
    assert "no. 2 in 2011, no. 10 in 2019 (id 2); high confidence" in out
    assert "border posts at K2/S5, K4/A3, S4/A1" in out  # 11a
    assert "note: Estate 11a is low confidence" in out and "border posts' positions" in out


def test_the_team_board_is_listed_with_its_halves_and_marked_provisional(capsys):
    assert main(["estates", "--layout"]) == 0
    out = capsys.readouterr().out
    team = out[out.index("\nteam-provisional "):]
    assert ("castle on C1 (half 1, row 4, 7); storage: 2 shared, 2 per player; halves joined "
            "at B3 (half 1, row 3, 6) to B5 (half 2, row 3, 1);") in team
    assert "half 1:\n            S6 B5 A4 C3\n" in team
    assert "half 2:\n            A6 A5 A4 A3\n" in team
    assert "is provisional: not the printed board" in team
    assert main(["estates", "--edition", "2011"]) == 0
    assert "team-provisional" not in capsys.readouterr().out


def test_the_layouts_mark_where_the_border_posts_are(capsys):
    assert main(["estates", "--edition", "2019", "--layout"]) == 0
    out = capsys.readouterr().out
    duchy = out[out.index("\n11a "):out.index("\n11b ")]
    assert "\n          PK2 K1 K6 K5PK4\n" in duchy  # posts K2/S5 and K4/A3
    assert "\n        PS5 A4 B3 B1 S2PA3\n" in duchy
    assert "\n            M3PS4PA1 B3\n" in duchy  # post S4/A1
    assert ("P: a border post on the outer edge by that space (positions: medium-low "
            "confidence)") in duchy
    first = out[:out.index("\n2 ")]
    assert "P" not in first.replace("Pasture", "")  # estate 1 has no posts


@pytest.mark.parametrize("options", [["--estate", "5"], ["--setup", "experts-secret"],
                                     ["--setup", "experts-open", "--edition", "2019"]])
def test_sim_plays_with_estate_options_and_flags_the_layouts(options, capsys):
    assert main(["sim", "--players", "3", "--bots", "random,random,greedy", *options]) == 0
    out = capsys.readouterr().out
    assert out.startswith("note: Estate ")
    assert "  estates: seat 0 on " in out and "summary: 1 games" in out


def test_estate_numbers_follow_the_edition_of_the_table():
    config = sim_config(parse(["sim", "--edition", "2019", "--estate", "10"])).game_config
    assert config.estates == ("2", "2")
    config = sim_config(parse(["sim", "--edition", "2019", "--estate", "2"])).game_config
    assert config.estates == ("2019-2", "2019-2")
    config = sim_config(parse(["sim", "--estate", "11c"])).game_config  # implies 2019
    assert config.estates == ("11c", "11c") and config.edition.value == "2019"
    assert config.border_posts


def test_sim_options_become_the_game_config():
    config = sim_config(parse(["sim", "--estate", "7"])).game_config
    assert config.estates == ("7", "7") and config.setup is Setup.STANDARD
    config = sim_config(parse(["sim", "--setup", "experts-open"])).game_config
    assert config.setup is Setup.EXPERTS_OPEN and config.estates == ()


@pytest.mark.parametrize(("argv", "message"), [
    (["sim", "--estate", "42"], "argument --estate: no estate '42' in the 2011 box; known: "
                                "1, 2, 3"),
    (["sim", "--estate", "10"], "no estate '10' in the 2011 box; it is in the 2019 box: "
                                "play it with --edition 2019"),
    (["sim", "--estate", "11a", "--edition", "2011"],
     "no estate '11a' in the 2011 box; it is in the 2019 box: play it with --edition 2019"),
    (["sim", "--estate", "2019-2", "--edition", "2011"],
     "no estate '2019-2' in the 2011 box; it is in the 2019 box: play it with --edition 2019"),
    (["sim", "--setup", "experts"], "argument --setup: must be one of experts-open, "
                                    "experts-secret, not 'experts'"),
    (["sim", "--estate", "5", "--setup", "experts-open"],
     "argument --setup: not allowed with argument --estate"),
    (["bot", "--host", "--estate", "3", "--setup", "experts-secret"],
     "argument --setup: not allowed with argument --estate"),
])
def test_bad_estate_options_are_one_line_and_exit_code_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def _board_file(tmp_path, **changes):
    from tests.engine.test_estates import _own
    path = tmp_path / "board.json"
    path.write_text(json.dumps(_own(**changes)))
    return str(path)


def test_estate_file_puts_everyone_on_a_board_of_ones_own(tmp_path, capsys):
    path = _board_file(tmp_path)
    config = sim_config(parse(["sim", "--players", "3", "--estate-file", path])).game_config
    assert config.estates == ("home",) * 3 and config.custom[0].name == "Our duchy"
    assert main(["sim", "--estate-file", path, "--bots", "random,random", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("note: Estate home (Our duchy) is not an official board")
    assert "estates: seat 0 on home, seat 1 on home" in out


def _team_board_file(tmp_path, **changes):
    from p2p_burgundy.estate import PROVISIONAL_TEAM_BOARD, team_board
    path = tmp_path / "team.json"
    record = {**team_board(PROVISIONAL_TEAM_BOARD).record(), "id": "12a", "name": "Our 12a",
              "source": "my box", **changes}
    path.write_text(json.dumps(record))
    return str(path)


def test_a_team_board_file_is_played_in_the_team_game(tmp_path, capsys):
    path = _team_board_file(tmp_path)
    config = sim_config(parse(["sim", "--teams", "--estate-file", path])).game_config
    assert config.estates == ("12a",) * 4 and config.teams == ((0, 2), (1, 3))
    assert config.custom[0].shared_storage == 2
    assert main(["sim", "--teams", "--estate-file", path, "--bots", "random,random,random,random",
                 "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("note: Team board 12a (Our 12a) is not an official board")
    assert "team game on 12a: seats 0 and 2 (team A) against 1 and 3 (team B)" in out
    assert main(["sim", "--players", "4", "--estate-file", path]) == 2
    assert "12a is a team board: it is played in the team game (--teams)" in (
        capsys.readouterr().err)
    bad = _team_board_file(tmp_path, joins=[])
    assert main(["sim", "--teams", "--estate-file", bad]) == 2
    assert "team.json: team board 12a: joins must list the pairs" in capsys.readouterr().err


@pytest.mark.parametrize(("changes", "message"), [
    ({"rows": ["A6"]}, "board.json: estate home: needs 7 rows, has 1"),
    ({"id": "5"}, "estate 5: that is the id of a shipped estate"),
])
def test_a_bad_estate_file_is_one_line_and_exit_code_2(tmp_path, changes, message, capsys):
    assert main(["sim", "--estate-file", _board_file(tmp_path, **changes)]) == 2
    err = capsys.readouterr().err
    assert "argument --estate-file: " in err and message in err and err.count("\n") == 1


def test_an_estate_file_that_is_not_json_or_not_there(tmp_path, capsys):
    (tmp_path / "x.json").write_text("{rows")
    assert main(["sim", "--estate-file", str(tmp_path / "x.json")]) == 2
    assert "x.json: not JSON" in capsys.readouterr().err
    assert main(["bot", "--host", "--estate-file", str(tmp_path / "none.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
