"""The learned position value: its inputs, the shipped weights, exact scores at the end, and
the least-squares fit that produced it."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest

from p2p_burgundy import GameConfig, apply, legal_actions, new_game, outcome, resolve_chance
from p2p_burgundy.cli.sim import chance_entropy, play_game
from p2p_burgundy.cli.strategies import make
from p2p_burgundy.cli.strategies.greedy import TOTAL_ROUNDS, TUNED_WEIGHTS, Evaluator
from p2p_burgundy.cli.strategies.value import (
    FEATURES,
    POWERS,
    TABLE_SIZE,
    TILE_KINDS,
    WEIGHTS_FILE,
    LearnedValue,
    features,
    tile_inputs,
)
from p2p_burgundy.tiles import Tile
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


def test_the_tile_tables_price_each_tile_in_storage_and_on_the_estate_by_kind() -> None:
    state = _started()
    weights = LearnedValue.load().weights
    plain = LearnedValue(weights)
    table = [0.0] * TABLE_SIZE
    table[2 * TILE_KINDS + Tile.CASTLE] = 10.0  # a placed castle
    table[3 * TILE_KINDS + Tile.CASTLE] = -4.0  # ... less 4 VP times t (1 at the start)
    priced = LearnedValue(weights, {2: table})
    assert priced.value(state, 0) == pytest.approx(plain.value(state, 0) + 6.0)
    assert LearnedValue(weights, {3: table}).value(state, 0) == plain.value(state, 0)


def test_the_value_is_the_weights_times_the_features_and_the_tables_times_the_tile_inputs(
) -> None:
    value = LearnedValue.load()
    rng = random.Random(5)
    tables = {2: [rng.uniform(-3, 3) for _ in range(TABLE_SIZE)]}
    priced = LearnedValue(value.weights, tables)
    plain = LearnedValue(value.weights)
    bots = [make("greedy", 1), make("greedy", 2)]
    state = _started()
    checked = 0
    while not state.is_over:
        if state.chance is not None:
            state = resolve_chance(state, chance_entropy(6, 0, state.chance.index))
            continue
        for seat in (0, 1):
            dotted = 0.0  # one by one, in order (sum() compensates rounding since 3.12)
            for w, x in zip(value.weights[2], features(state, seat), strict=True):
                dotted += w * x
            # to the bit: value() adds the same products in the same order, without building
            # the features
            assert plain.value(state, seat) == dotted
            expected = dotted + sum(tables[2][j] * v for j, v in tile_inputs(state, seat).items())
            assert priced.value(state, seat) == pytest.approx(expected, abs=1e-9)
            checked += 1
        state = apply(state, bots[state.order[state.turn]].choose(state, legal_actions(state)))
    assert checked > 500


def test_tile_tables_of_the_wrong_length_are_refused() -> None:
    with pytest.raises(ValueError, match=f"2 players: a tile table of 3 prices, expected "
                                         f"{TABLE_SIZE}"):
        LearnedValue(LearnedValue.load().weights, {2: [1.0, 2.0, 3.0]})


def test_the_shipped_two_player_value_was_refitted_to_rank_a_turns_alternatives() -> None:
    data = json.loads(resources.files("p2p_burgundy.cli.strategies")
                      .joinpath(WEIGHTS_FILE).read_text())
    assert data["commands"][-1] == ("python tools/fit_value.py --games 100 --seed 111 "
                                    "--alternatives 24 --players 2")
    assert sorted(data["tables"]) == ["2"]
    held_out = data["held-out"]["2"]["alternatives"]
    assert held_out["explained"] > held_out["explained before"] + 0.1
    assert held_out["choice gain"] > held_out["choice gain before"]


def _decision(decision: int, xs: list[tuple[float, int]], offset: float
              ) -> list[fit_value.Alternative]:
    """Alternatives whose every playout scores ``offset + 2 a - 3 (castles stored)``."""
    n = len(FEATURES) * POWERS
    rows = []
    for a, castles in xs:
        x = [0.0] * n
        x[FEATURES.index("silver") * POWERS] = a
        tiles = {Tile.CASTLE: float(castles)} if castles else {}
        rows.append((decision, x, tiles, [offset + 2 * a - 3 * castles] * fit_value.PLAYOUTS))
    return rows


def test_the_refit_to_alternatives_learns_how_they_rank_not_what_their_decision_is_worth(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fit_value, "RIDGE_ALTERNATIVES", 1e-9)
    rows = [r for d in range(12)
            for r in _decision(d, [(d % 3, 0), (d % 3 + 1, 1), (d % 4, 2)], 100.0 * d)]
    start = [0.0] * (len(FEATURES) * POWERS + TABLE_SIZE)
    w = fit_value.fit_alternatives(rows, start)
    silver = FEATURES.index("silver") * POWERS
    assert round(w[silver], 6) == 2.0
    assert round(w[len(FEATURES) * POWERS + Tile.CASTLE], 6) == -3.0
    assert all(v == 0.0 for j, v in enumerate(w) if j not in (silver, len(start) - TABLE_SIZE
                                                               + Tile.CASTLE))  # never differ
    assert fit_value.judge_alternatives(rows, w) == (pytest.approx(1.0), pytest.approx(
        sum(max(2 * a - 3 * c for a, c in xs) - sum(2 * a - 3 * c for a, c in xs) / 3
            for xs in ([(d % 3, 0), (d % 3 + 1, 1), (d % 4, 2)] for d in range(12))) / 12))


def test_the_refit_to_alternatives_is_pulled_towards_the_weights_before() -> None:
    rows = [r for d in range(4) for r in _decision(d, [(0, 0), (1, 0)], 0.0)]
    start = [0.5] * (len(FEATURES) * POWERS + TABLE_SIZE)
    w = fit_value.fit_alternatives(rows, start)
    silver = FEATURES.index("silver") * POWERS
    # Within a decision silver differs by +-0.5 (RMS 0.5) and the label by +-1, of which the
    # weight before explains +-0.25: the rest, +-0.75 a position, scaled, is 8 * 0.75 = 6
    # against 8 + 1,000 (the pull): 6 / 1008 / 0.5 = 1 / 84 more.
    assert w[silver] == pytest.approx(0.5 + 1 / 84)
    assert w[:silver] + w[silver + 1:] == start[:silver] + start[silver + 1:]


def test_alternatives_are_a_sampled_turns_die_actions_each_labelled_by_its_playouts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fit_value, "SAMPLE_EVERY", 25)  # late in the game: short playouts
    monkeypatch.setattr(fit_value, "PLAYOUTS", 2)
    rows = fit_value.alternatives((2, 7, 3, 1))
    decisions = sorted({r[0] for r in rows})
    assert decisions and all(d // 1000 == 3 for d in decisions)
    for d in decisions:
        group = [r for r in rows if r[0] == d]
        assert len(group) >= 2
        assert len({tuple(r[1]) for r in group}) > 1  # different positions
        assert all(len(r[3]) == 2 for r in group)


def test_a_refit_to_alternatives_writes_the_tables_and_how_to_redo_it(
        weights_file, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(fit_value, "SAMPLE_EVERY", 25)
    monkeypatch.setattr(fit_value, "PLAYOUTS", 2)
    shipped = json.loads(weights_file.read_text())
    assert fit_value.main(["--games", "2", "--seed", "7", "--alternatives", "1",
                           "--players", "2", "--write"]) == 0
    data = json.loads(weights_file.read_text())
    assert data["commands"] == [*shipped["commands"], "python tools/fit_value.py --games 2 "
                                "--seed 7 --alternatives 1 --players 2"]
    assert len(data["tables"]["2"]) == TABLE_SIZE
    assert data["tables"]["2"] != shipped["tables"]["2"]
    assert data["weights"]["3"] == shipped["weights"]["3"]
    assert data["held-out"]["2"]["alternatives"]["held-out decisions"] >= 1
    assert "2 players: " in capsys.readouterr().out


@pytest.mark.parametrize("argv, error", [
    (["--alternatives", "-1"], "--alternatives must be at least 0, not -1"),
    (["--alternatives", "2", "--iterations", "2"],
     "argument --iterations: not allowed with argument --alternatives"),
])
def test_a_wrong_refit_command_is_a_usage_error(weights_file, capsys, argv,
                                                error) -> None:  # type: ignore[no-untyped-def]
    before = weights_file.read_text()
    with pytest.raises(SystemExit) as stopped:
        fit_value.main([*argv, "--write"])
    assert stopped.value.code == 2
    assert error in capsys.readouterr().err
    assert weights_file.read_text() == before
