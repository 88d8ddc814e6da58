"""``burgundy match``: entrants on the same deals in every seating, a failure is a loss and
the match goes on, the SPRT stops early, and the ratings (cli/ratings.py) are what their
models say."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from p2p_burgundy.cli import main as cli
from p2p_burgundy.cli.engine import EngineSpec
from p2p_burgundy.cli.match import MatchConfig, run_match, schedule
from p2p_burgundy.cli.ratings import pair_elo, plackett_luce, score_of, sprt_bounds, sprt_llr
from tests.cli.schemas import problems
from tests.cli.test_engine_protocol import tiny


def lines(out: str) -> list[dict[str, object]]:
    docs = [json.loads(line) for line in out.splitlines()]
    for doc in docs:
        assert problems(doc, "match") == [], doc
    return docs


def test_two_entrants_play_every_deal_in_both_seatings(capfd: pytest.CaptureFixture[str]
                                                       ) -> None:
    assert cli.main(["match", "--entrants", "greedy,random", "--deals", "2", "--seed", "1",
                     "--json"]) == 0
    *games, summary = lines(capfd.readouterr().out)
    assert [(g["deal"], g["rotation"]) for g in games] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert [[s["strategy"] for s in g["seats"]] for g in games] == \
        [["greedy", "random"], ["random", "greedy"]] * 2
    # the same deal in both seatings: the same estates and the same first dice
    assert summary["games"] == 4 and summary["sprt"] is None
    assert [(e["entrant"], e["games"], e["wins"], e["failures"]) for e in summary["entrants"]] \
        == [("greedy", 4, 4, 0), ("random", 4, 0, 0)]
    [pair] = summary["pairs"]
    assert (pair["first"], pair["second"], pair["pairs"], pair["deals"]) == \
        ("greedy", "random", 2, 2)
    assert pair["elo"] is None  # every pair won: unbounded
    diffs = [(g["scores"][g["seats"][1]["strategy"] == "greedy"]["vp"]
              - g["scores"][g["seats"][0]["strategy"] == "greedy"]["vp"]) for g in games]
    assert pair["score_diff"] == pytest.approx(sum(diffs) / 4)


def test_a_crash_a_bad_answer_and_a_time_out_each_lose_and_the_match_goes_on(
        capfd: pytest.CaptureFixture[str]) -> None:
    crash, bad, slow = tiny("--crash", "5"), tiny("--illegal", "7"), tiny("--sleep", "3")
    assert cli.main(["match", "--engine", f"crash={crash}", "--engine", f"bad={bad}",
                     "--engine", f"slow={slow}", "--entrants", "random,crash,bad,slow",
                     "--gauntlet", "--deals", "1", "--seed", "2", "--engine-timeout", "0.5",
                     "--json"]) == 0
    *games, summary = lines(capfd.readouterr().out)
    assert len(games) == 6  # three tables, two seatings each
    for game in games:
        [failure] = game["failures"]
        loser = failure["entrant"]
        assert game["match_places"][failure["seat"]] == 2
        reason = {"crash": "at decision 5 (", "bad": "answered action",
                  "slow": "gave no answer in 0.5 s"}[loser]
        assert failure["reason"].startswith("engine ") and reason in failure["reason"]
        engine = game["seats"][failure["seat"]]["engine"]
        assert engine["failure"] == failure["reason"]
    assert [(e["entrant"], e["wins"], e["failures"]) for e in summary["entrants"]] == \
        [("random", 6, 0), ("crash", 0, 2), ("bad", 0, 2), ("slow", 0, 2)]


def test_the_sprt_stops_as_soon_as_it_decides(capfd: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["match", "--entrants", "greedy,random", "--deals", "50", "--seed", "1",
                     "--sprt", "0", "50", "0.05", "0.05", "--json"]) == 0
    *games, summary = lines(capfd.readouterr().out)
    assert len(games) == 2  # the first pair decides: greedy won both games
    assert summary["sprt"]["accepted"] == "H1"
    assert summary["sprt"]["llr"] == pytest.approx(sprt_llr([1.0], 0, 50))
    assert summary["sprt"]["bounds"] == pytest.approx(list(sprt_bounds(0.05, 0.05)))


def test_three_players_are_rated_from_their_places(capfd: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["match", "--entrants", "greedy,random,tiny", "--engine", f"tiny={tiny()}",
                     "--players", "3", "--deals", "1", "--seed", "1", "--json"]) == 0
    *games, summary = lines(capfd.readouterr().out)
    assert [g["rotation"] for g in games] == [0, 1, 2]
    rankings = []
    names = summary["config"]["entrants"]
    for game in games:
        order = sorted(range(3), key=lambda seat: game["match_places"][seat])
        rankings.append(tuple(names.index(game["seats"][s]["strategy"]) for s in order))
    assert [e["rating"] for e in summary["entrants"]] == \
        pytest.approx(plackett_luce(3, rankings))
    assert len(summary["pairs"]) == 3 and all(p["elo"] is None for p in summary["pairs"])


def test_a_round_robin_meets_every_pair_and_a_gauntlet_only_the_first() -> None:
    engines = tuple(EngineSpec(n, "x") for n in "abcd")
    assert MatchConfig(entrants=tuple("abcd"), engines=engines).tables == \
        [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert MatchConfig(entrants=tuple("abcd"), engines=engines, players=3,
                       gauntlet=True).tables == [(0, 1, 2), (0, 1, 3), (0, 2, 3)]
    config = MatchConfig(entrants=tuple("abc"), engines=engines[:3], players=3, deals=2)
    assert schedule(config) == [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 0), (0, 1, 1),
                                (0, 1, 2)]


@pytest.mark.slow
def test_jobs_play_the_same_games(capfd: pytest.CaptureFixture[str]) -> None:
    config = MatchConfig(entrants=("greedy", "random"), deals=2, seed=4)
    serial = run_match(config, lambda _: None)
    parallel = run_match(MatchConfig(entrants=("greedy", "random"), deals=2, seed=4, jobs=2),
                         lambda _: None)
    assert [e.scores for e in serial.entrants] != [] and \
        [sorted(e.scores) for e in serial.entrants] == \
        [sorted(e.scores) for e in parallel.entrants]


@pytest.mark.parametrize(("argv", "message"), [
    (["match", "--entrants", "greedy"], "1 entrants for tables of 2: name at least 2"),
    (["match", "--entrants", "greedy,greedy"], "name each entrant once"),
    (["match", "--entrants", "greedy,random,mcts", "--sprt", "0", "10", "0.05", "0.05"],
     "an SPRT compares two entrants at tables of two"),
    (["match", "--entrants", "greedy,random", "--sprt", "10", "0", "0.05", "0.05"],
     "ELO0 must be below ELO1"),
    (["match", "--entrants", "greedy,random", "--sprt", "0", "10", "0.5", "0.05"],
     "ALPHA must be between 0 and 0.5"),
    (["match", "--entrants", "greedy,mine"], "unknown strategy 'mine'"),
    (["match", "--engine", "a=x"], "1 entrants for tables of 2"),
    (["match", "--entrants", "greedy,a", "--engine", "a=x", "--engine-option", "b:depth=1"],
     "argument --engine-option: no engine is named 'b' (for b:depth)"),
    (["match", "--entrants", "greedy,random", "--engine-option", "depth=1"],
     "argument --engine-option: only with --engine"),
    (["match", "--entrants", "greedy,a", "--engine", "a=x", "--engine-option", "depth"],
     "argument --engine-option: expected [ENGINE:]NAME=VALUE, not 'depth'"),
    (["match", "--entrants", "greedy,random", "--engine-time", "0"],
     "argument --engine-time: expected SECONDS or SECONDS+INCREMENT, not '0'"),
    (["match", "--entrants", "greedy,a", "--engine", "a=x", "--engine-log",
      "/no/such/folder/log"], "argument --engine-log: cannot write /no/such/folder/log"),
    (["match", "--entrants", "greedy,random", "--book", "/no/such/book.json"],
     "cannot read /no/such/book.json"),
])
def test_bad_match_command_lines(argv: list[str], message: str,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("burgundy match: error: ") and message in err


# --- The ratings ---------------------------------------------------------------------------------

def test_elo_is_the_logistic_inverse_and_its_interval_follows_the_pairs() -> None:
    elo = pair_elo([1.0, 0.5, 0.5, 0.0])
    assert elo.elo == 0.0 and elo.pairs == 4
    half = 1.959963984540054 * math.sqrt(0.125 / 4)
    assert score_of(elo.high) == pytest.approx(0.5 + half)
    assert score_of(elo.low) == pytest.approx(0.5 - half)


def test_the_sprt_favours_the_hypothesis_the_pairs_support() -> None:
    winning = [1.0, 0.5, 1.0, 0.5, 0.0, 1.0]
    assert sprt_llr(winning, 0, 50) > 0 > sprt_llr([1 - s for s in winning], 0, 50)
    assert sprt_bounds(0.05, 0.1) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))


def test_plackett_luce_maximises_its_likelihood() -> None:
    """At the fitted strengths no entrant's strength can be moved to raise the likelihood
    (with the virtual win and loss of each against the reference of strength 1)."""
    rankings = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (2, 1, 0), (0, 1), (1, 2, 0, 3), (3, 0)]
    ratings = plackett_luce(4, rankings)
    assert sum(ratings) == pytest.approx(0.0, abs=1e-9)

    def likelihood(strength: list[float]) -> float:
        total = sum(math.log(g / (g + 1)) + math.log(1 / (g + 1)) for g in strength)
        for ranking in rankings:
            for t in range(len(ranking) - 1):
                total += math.log(strength[ranking[t]]) - math.log(
                    sum(strength[e] for e in ranking[t:]))
        return total

    # The ratings are shifted to mean 0: find the reference's scale again.
    scale = max((likelihood([10 ** ((r + c / 10) / 400) for r in ratings]), c / 10)
                for c in range(-2000, 2000))[1]
    best = [10 ** ((r + scale) / 400) for r in ratings]
    for entrant in range(4):
        for step in (1.01, 1 / 1.01):
            moved = list(best)
            moved[entrant] *= step
            assert likelihood(moved) < likelihood(best)
    assert plackett_luce(2, [(0, 1), (1, 0)]) == pytest.approx([0.0, 0.0])


def test_one_version_2_engine_process_plays_the_whole_match(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "engines.log"
    assert cli.main(["match", "--entrants", "tiny,random", "--engine", f"tiny={tiny()}",
                     "--deals", "2", "--seed", "3", "--engine-log", str(log), "--json"]) == 0
    err = capfd.readouterr().err
    # one process: one hello, then game 1 to 4 announced by new_game, seats alternating
    assert [line for line in err.splitlines() if line.startswith("tiny: game ") and
            "over" not in line] == ["tiny: game 1, seat 0", "tiny: game 2, seat 1",
                                    "tiny: game 3, seat 0", "tiny: game 4, seat 1"]
    sent = [line for line in log.read_text().splitlines() if " tiny > " in line]
    assert sum('"type":"hello"' in line for line in sent) == 1
    assert sum('"type":"new_game"' in line for line in sent) == 4
