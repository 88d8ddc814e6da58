"""The learned position value: its inputs, the shipped weights, exact scores at the end, and
the least-squares fit that produced it."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from p2p_burgundy import GameConfig, new_game, outcome, resolve_chance
from p2p_burgundy.cli.sim import chance_entropy, play_game
from p2p_burgundy.cli.strategies import make
from p2p_burgundy.cli.strategies.greedy import TOTAL_ROUNDS, TUNED_WEIGHTS, Evaluator
from p2p_burgundy.cli.strategies.value import (
    FEATURES,
    POWERS,
    WEIGHTS_FILE,
    LearnedValue,
    features,
)
from tools import fit_value
from tools.fit_value import fit, play


def _started(players: int = 2):  # type: ignore[no-untyped-def]
    state = new_game(GameConfig(players=players))
    while state.chance is not None:
        state = resolve_chance(state, chance_entropy(1, 0, state.chance.index))
    return state


def test_features_are_each_input_times_powers_of_the_time_left() -> None:
    state = _started()
    x = features(state, 1)
    assert len(x) == len(FEATURES) * POWERS
    at = FEATURES.index("greedy") * POWERS
    assert x[at] == Evaluator(TUNED_WEIGHTS).value(state, 1)
    assert x[:POWERS] == [1.0, 1.0, 1.0]  # the constant, at the start: t = 1
    assert x[FEATURES.index("silver") * POWERS] == state.players[1].silver


@pytest.mark.parametrize("players", [2, 3, 4])
def test_shipped_weights_predict_a_plausible_final_score_at_the_start(players: int) -> None:
    value = LearnedValue.load()
    start = value.value(_started(players), 0)
    assert 120 < start < 230


def test_the_value_of_a_finished_game_is_the_score() -> None:
    state, _ = play_game(GameConfig(players=2), [make("random", 1), make("random", 2)], seed=3)
    value = LearnedValue.load()
    assert [value.value(state, seat) for seat in (0, 1)] == list(map(float, outcome(state).scores))


def test_weights_of_the_wrong_length_are_refused() -> None:
    with pytest.raises(ValueError, match=f"2 players: 3 weights, expected {len(FEATURES) * 3}"):
        LearnedValue({2: [1.0, 2.0, 3.0]})


def test_the_shipped_file_says_how_it_was_made_and_beats_the_hand_set_value() -> None:
    data = json.loads(resources.files("p2p_burgundy.cli.strategies")
                      .joinpath(WEIGHTS_FILE).read_text())
    assert data["commands"][0].startswith("python tools/fit_value.py --games 400 --seed 1")
    assert data["features"] == list(FEATURES)
    for players in ("2", "3", "4"):
        report = data["held-out"][players]
        assert report["learned rmse"] < report["greedy rescaled rmse"] < report["greedy rmse"]


def test_fit_recovers_the_weights_of_a_linear_target() -> None:
    rows = [([1.0, float(a), float(b)], 5.0 + 2.0 * a - 0.5 * b)
            for a in range(6) for b in range(0, 60, 7)]
    assert [round(w, 2) for w in fit(rows)] == [5.0, 2.0, -0.5]  # (a tiny ridge)


def test_the_fit_sees_each_player_only_just_before_its_own_ends_of_turn() -> None:
    rows = play((3, 1, 0, 0))  # a greedy game of 3 players: one row per player and round
    assert len(rows) == 3 * TOTAL_ROUNDS
    finals = sorted({final for _, _, final in rows})
    assert len(finals) == 3  # each player's rows carry that player's final score
    assert all(len([r for r in rows if r[2] == f]) == TOTAL_ROUNDS for f in finals)


def test_with_iterations_the_fit_records_games_of_the_search() -> None:
    greedy, search = play((2, 1, 0, 0)), play((2, 1, 0, 2))  # the same deal
    assert len(search) == 2 * TOTAL_ROUNDS
    assert sorted({final for _, _, final in search}) != sorted({final for _, _, final in greedy})


@pytest.fixture
def weights_file(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    """A copy of the shipped weights file, which the fit reads and writes instead."""
    out = tmp_path / WEIGHTS_FILE
    out.write_text(fit_value.OUT.read_text())
    monkeypatch.setattr(fit_value, "OUT", out)
    return out


def test_a_fit_of_some_player_counts_keeps_the_others_and_says_how_to_redo_it(
        weights_file, capsys) -> None:  # type: ignore[no-untyped-def]
    shipped = json.loads(weights_file.read_text())
    assert fit_value.main(["--games", "5", "--seed", "7", "--players", "2", "--write"]) == 0
    data = json.loads(weights_file.read_text())
    assert data["commands"] == [*shipped["commands"],
                                "python tools/fit_value.py --games 5 --seed 7 --players 2"]
    assert data["weights"]["3"] == shipped["weights"]["3"]
    assert data["weights"]["4"] == shipped["weights"]["4"]
    assert data["weights"]["2"] != shipped["weights"]["2"]
    assert data["held-out"]["2"]["held-out positions"] == 2 * TOTAL_ROUNDS  # game 0 of 5
    assert "2 players: 200 positions to fit, 50 held out" in capsys.readouterr().out


def test_a_greedy_fit_of_every_player_count_starts_the_list_of_commands(
        weights_file) -> None:  # type: ignore[no-untyped-def]
    assert fit_value.main(["--games", "2", "--seed", "7", "--write"]) == 0
    data = json.loads(weights_file.read_text())
    assert data["commands"] == ["python tools/fit_value.py --games 2 --seed 7"]
    assert sorted(data["weights"]) == ["2", "3", "4"]


def test_a_negative_budget_of_rollouts_is_a_usage_error(
        weights_file, capsys) -> None:  # type: ignore[no-untyped-def]
    before = weights_file.read_text()
    with pytest.raises(SystemExit) as stopped:
        fit_value.main(["--iterations", "-1", "--write"])
    assert stopped.value.code == 2
    assert "--iterations must be at least 0, not -1" in capsys.readouterr().err
    assert weights_file.read_text() == before
