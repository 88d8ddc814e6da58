"""The engine protocol (docs/bots.md): a separate stdlib-only program plays a seat. Every
error path names the engine and the decision; the fallback takes over; the visible state and
the ``--json`` results fit the shapes the documentation gives; and a whole LAN game of the
tiny engine against the greedy bot finishes with a game file that verifies."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from p2p_burgundy import GameConfig, GameState, UseDie, apply, legal_actions, new_game
from p2p_burgundy.cli import main as cli
from p2p_burgundy.cli.engine import (
    EngineError,
    EngineFault,
    EngineStrategy,
    decide_message,
    options_message,
    read_answer,
    read_hello,
    read_reply,
)
from p2p_burgundy.cli.sim import chance_entropy
from p2p_burgundy.cli.strategies import make
from p2p_burgundy.net.audit import audit_file
from tests.cli.schemas import problems
from tests.lan.procs import LOOPBACK, burgundy

TINY = Path(__file__).with_name("tiny_engine.py")


def tiny(*flags: str) -> str:
    return " ".join([sys.executable, str(TINY), *flags])


def started(seed: int = 1) -> GameState:
    from p2p_burgundy import resolve_chance

    state = new_game(GameConfig(players=2))
    while state.chance is not None:
        state = resolve_chance(state, chance_entropy(seed, 0, state.chance.index))
    return state


def play(engine: EngineStrategy, decisions: int) -> GameState:
    """``decisions`` decisions of the seat to move, all by ``engine``."""
    state = started()
    for _ in range(decisions):
        actions = legal_actions(state)
        state = apply(state, engine.choose(state, actions))
    return state


# --- The pure protocol ---------------------------------------------------------------------------

@pytest.mark.parametrize(("line", "message"), [
    ("e2e4", "sent a line that is not JSON: 'e2e4'"),
    ("[1, 2]", "sent JSON that is not an object: '[1, 2]'"),
    ('{"type": "move", "decision": 3, "action": 0}', "sent a 'move' message where a 'action'"),
    ('{"type": "action", "decision": 2, "action": 0}', "answered decision 2 when asked "
                                                       "decision 3"),
    ('{"type": "action", "decision": 3, "action": "0"}', "answered action '0', which is not an "
                                                         "action number"),
    ('{"type": "action", "decision": 3, "action": true}', "answered action True"),
    ('{"type": "action", "decision": 3, "action": -1}', "answered action -1, but the legal "
                                                        "actions are 0 to 1"),
])
def test_each_bad_answer_is_refused_with_its_reason(line: str, message: str) -> None:
    with pytest.raises(EngineFault) as info:
        read_answer(line, 3, [UseDie(0), UseDie(1)])
    assert message in str(info.value)


@pytest.mark.parametrize(("line", "message"), [
    ('{"type": "hello", "protocol": 1}', "its hello has no name"),
    ('{"type": "hello", "protocol": 1, "name": "  "}', "its hello has no name"),
    ('{"type": "hello", "name": "x"}', "speaks protocol None"),
    ('{"type": "hello", "protocol": 2, "name": "x", "options": [{"name": "d"}]}',
     "declares an option that is not"),
    ('{"type": "hello", "protocol": 2, "name": "x", "version": 3}', "version and author are not"),
])
def test_a_bad_hello_is_refused(line: str, message: str) -> None:
    with pytest.raises(EngineFault, match=message):
        read_hello(line)


def test_the_visible_state_fits_its_documented_shape() -> None:
    state = started()
    message = decide_message(1, state, legal_actions(state))
    assert problems(message["state"], "state") == []
    assert message["seat"] == 1
    seat = message["state"]["seats"][0]  # type: ignore[index]
    assert seat["spaces"].count(None) == 36 and "castle" in seat["spaces"]
    assert message["actions"] == [{"type": "use_die", "die": 0}, {"type": "use_die", "die": 1}]


def test_the_ledger_credits_each_decision_to_its_seat_and_maker() -> None:
    """Seat 1's engine crashes at its third decision and random plays on, also for seat 0
    (as when seat 0 was handed over to this bot)."""
    from p2p_burgundy.cli.strategies import Ledger

    engine = EngineStrategy(tiny("--crash", "3"), 1, timeout=5, log=io.StringIO(),
                            fallback=lambda: make("random", 1), fallback_name="random")
    ledger = Ledger(engine)
    state = started()
    for _ in range(8):  # seat 1's whole first turn (6 decisions), then 2 of seat 0
        state = apply(state, ledger.choose(state, legal_actions(state)))
    engine.close()
    assert ledger.played() == [
        {"seat": 0, "by": "fallback", "name": "random", "decisions": 2},
        {"seat": 1, "by": "engine", "name": "tiny", "decisions": 2},
        {"seat": 1, "by": "fallback", "name": "random", "decisions": 4}]


# --- Version 2 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "message"), [
    ('{"type": "info", "decision": 3, "candidates": [{"action": 5, "value": 1}]}',
     "answered action 5, but the legal actions are 0 to 1"),
    ('{"type": "info", "decision": 3, "candidates": [{"action": 1}]}',
     "an info whose candidates are not"),
    ('{"type": "info", "decision": 3, "line": "01"}', "an info whose line is not"),
    ('{"type": "info", "decision": 2}', "answered decision 2 when asked decision 3"),
    ('{"type": "move", "decision": 3}', "sent a 'move' message where a 'action' or 'info' or "
                                        "'resign' was due"),
])
def test_each_bad_version_2_reply_is_refused(line: str, message: str) -> None:
    with pytest.raises(EngineFault, match=message):
        read_reply(line, 3, [UseDie(0), UseDie(1)], 2)


def test_an_info_or_a_resign_is_a_fault_in_version_1() -> None:
    for kind in ("info", "resign"):
        with pytest.raises(EngineFault, match=f"sent a '{kind}' message where a 'action'"):
            read_reply(f'{{"type": "{kind}", "decision": 3}}', 3, [UseDie(0)], 1)


def test_options_are_checked_against_what_the_engine_declares() -> None:
    hello = read_hello('{"type": "hello", "protocol": 2, "name": "x", "version": "0.3", '
                       '"author": "Ann", "options": [{"name": "depth", "type": "int", '
                       '"default": 2, "min": 1, "max": 9}, {"name": "fast", "type": "bool"}]}')
    assert (hello.version, hello.author, [o.name for o in hello.options]) == \
        ("0.3", "Ann", ["depth", "fast"])
    assert options_message(hello, {"depth": "4", "fast": "true"}) == \
        {"type": "options", "values": {"depth": 4, "fast": True}}
    for settings, message in [({"depth": "0"}, "option 'depth' is an int from 1 to 9, not '0'"),
                              ({"fast": "yes"}, "option 'fast' is true or false, not 'yes'"),
                              ({"wide": "1"}, "declares no option 'wide' (it declares: depth, "
                                              "fast)")]:
        with pytest.raises(EngineFault, match=re.escape(message)):
            options_message(hello, settings)
    with pytest.raises(EngineFault, match="speaks protocol 1, which has no options"):
        options_message(read_hello('{"type": "hello", "protocol": 1, "name": "x"}'), {"a": "1"})


def test_a_version_2_engine_sets_options_explains_and_plays_game_after_game(
        capfd: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from p2p_burgundy import outcome
    from p2p_burgundy.cli.engine import Clock, EnginePool, EngineSettings
    from p2p_burgundy.cli.sim import play_game

    pool = EnginePool()
    log = (tmp_path / "engine.log").open("w")
    settings = EngineSettings(Clock(5, 600.0, 0.5), {"prefer": "sell_goods", "explain": "true"},
                              log, "tiny")
    names = []
    for game in range(2):
        engine = EngineStrategy(tiny(), game % 2, settings=settings, pool=pool)
        bots = [engine, make("random", 2)] if game == 0 else [make("random", 2), engine]
        state, _ = play_game(GameConfig(players=2), bots, seed=game)
        engine.game_over(state, outcome(state))
        assert engine.info is not None and engine.info.text == "the first sell_goods"
        assert engine.time_left is not None and 600.0 < engine.time_left < 600 + 0.5 * 200
        names.append(engine.summary())
    pool.close()
    log.close()
    assert [(n["name"], n["protocol"], n["version"], n["author"]) for n in names] == \
        [("tiny", 2, "1.0", "the tests")] * 2
    err = capfd.readouterr().err
    # one process played both games: it heard new_game twice and never a second hello
    assert "tiny: game 1, seat 0" in err and "tiny: game 2, seat 1" in err
    assert err.count("tiny: game over") == 2
    lines = (tmp_path / "engine.log").read_text().splitlines()
    sent = [json.loads(line.split(" > ", 1)[1]) for line in lines if " tiny > " in line]
    assert [m["type"] for m in sent[:3]] == ["hello", "options", "new_game"]
    assert sent[1]["values"] == {"prefer": "sell_goods", "explain": True}
    assert [m["type"] for m in sent].count("hello") == 1
    decide = next(m for m in sent if m["type"] == "decide")
    assert decide["clock"] == {"time_left": 600.0, "increment": 0.5, "limit": 5}
    assert any(" tiny < " in line and '"type": "info"' in line for line in lines)
    for line in lines:  # every message both ways is one the protocol's schema allows
        assert problems(json.loads(line.split(" tiny ", 1)[1][2:]), "engine") == [], line


def test_a_version_1_engine_still_plays_one_game_per_process(
        capfd: pytest.CaptureFixture[str]) -> None:
    from p2p_burgundy import outcome
    from p2p_burgundy.cli.engine import EnginePool
    from p2p_burgundy.cli.sim import play_game

    pool = EnginePool()
    for game in range(2):
        engine = EngineStrategy(tiny("--protocol", "1"), 0, pool=pool)
        state, _ = play_game(GameConfig(players=2), [engine, make("random", 2)], seed=game)
        engine.game_over(state, outcome(state))
        assert engine.summary()["protocol"] == 1 and engine.failure is None
    pool.close()
    err = capfd.readouterr().err
    assert err.count("tiny: game over") == 2 and "tiny: game 1" not in err


def test_an_engine_that_runs_out_of_its_clock_fails() -> None:
    from p2p_burgundy.cli.engine import Clock, EngineSettings

    engine = EngineStrategy(tiny("--sleep", "2"), 1,
                            settings=EngineSettings(Clock(5, 0.4, 0.0)))
    try:
        with pytest.raises(EngineError, match=r"at decision 2 \(.*\): ran out of its clock"):
            play(engine, 2)
    finally:
        engine.close()


def test_a_resignation_is_the_callers_to_act_on_when_resignable() -> None:
    from p2p_burgundy.cli.engine import EngineResigned

    engine = EngineStrategy(tiny("--resign", "3"), 1, resignable=True)
    try:
        with pytest.raises(EngineResigned, match=r"at decision 3 .*: resigned"):
            play(engine, 3)
    finally:
        engine.close()


# --- The process: every error path ---------------------------------------------------------------

@pytest.mark.parametrize(("command", "decisions", "message"), [
    ("no-such-engine-anywhere", 1,
     "engine 'no-such-engine-anywhere' at start-up: could not start: No such file or directory"),
    ("'unclosed", 1, "at start-up: is not a command line: No closing quotation"),
    (tiny("--no-hello"), 1, "at start-up: gave no answer in 3 s"),
    (tiny("--protocol", "3"), 1, "at start-up: speaks protocol 3; this peer speaks protocol 1 "
                                 "or 2"),
    (tiny("--resign", "2"), 2, "at decision 2 (phase A, round 1, seat 1, die): resigned"),
    (tiny("--crash", "2"), 2, "at decision 2 (phase A, round 1, seat 1, die): exited "
                              "(exit code 3)"),
    (tiny("--sleep", "2"), 2, "at decision 2 (phase A, round 1, seat 1, die): gave no answer "
                              "in 3 s"),
    (tiny("--garbage", "3"), 3, "at decision 3 (phase A, round 1, seat 1, turn): sent a line "
                                "that is not JSON: 'e2e4'"),
    (tiny("--illegal", "2"), 2, "at decision 2 (phase A, round 1, seat 1, die): answered "
                                "action 8, but the legal actions are 0 to 7"),
    (tiny("--stale", "2"), 2, "answered decision 1 when asked decision 2"),
    (f"{sys.executable} -c \"print('x' * (1 << 21))\"", 1,
     "at start-up: sent a line longer than 1048576 bytes"),
    (f"{sys.executable} -c \"import os, time; os.close(1); time.sleep(10)\"", 1,
     "at start-up: closed its output but is still running"),
])
def test_every_engine_failure_names_the_engine_and_the_decision(
        command: str, decisions: int, message: str) -> None:
    # The limit covers start-up: a fresh interpreter on a loaded machine (the suite runs its
    # tests side by side) can take over a second to say hello.
    engine = EngineStrategy(command, 1, timeout=3.0)
    try:
        with pytest.raises(EngineError) as info:
            play(engine, decisions)
    finally:
        engine.close()
    assert message in str(info.value)
    assert str(info.value).startswith(f"engine {command!r} at ")


def test_the_fallback_plays_on_from_the_failed_decision() -> None:
    log = io.StringIO()
    engine = EngineStrategy(tiny("--crash", "2"), 0, timeout=5, log=log,
                            fallback=lambda: make("greedy", 1), fallback_name="greedy")
    state = play(engine, 6)
    engine.close()
    assert state.to_move is not None  # six legal decisions were made
    # the engine answered one decision; its fallback made the failed one and the four after
    assert (engine.engine_name, engine.decisions) == ("tiny", 1)
    assert (engine.name, engine.fallback_decisions) == ("greedy", 5)
    assert engine.made_by == ("fallback", "greedy")
    assert engine.failure is not None and "at decision 2" in engine.failure
    assert log.getvalue() == (f"burgundy bot: {engine.failure}; greedy plays the rest of the "
                              "game\n")


def test_an_engine_plays_its_decisions_and_hears_the_end(capfd: pytest.CaptureFixture[str]
                                                         ) -> None:
    from p2p_burgundy import outcome
    from p2p_burgundy.cli.sim import play_game

    engine = EngineStrategy(tiny(), 0, timeout=5)
    state, _ = play_game(GameConfig(players=2), [engine, make("random", 2)], seed=5)
    engine.game_over(state, outcome(state))
    assert engine.name == "tiny" and engine.failure is None and engine.decisions > 50
    assert f"tiny: game over, winner seat {outcome(state).winner}" in capfd.readouterr().err


# --- The command line ----------------------------------------------------------------------------

@pytest.mark.parametrize(("argv", "message"), [
    (["bot", "--engine", ""], "argument --engine: expected a command, not an empty string"),
    (["bot", "--engine", "x", "--strategy", "random"], "not allowed with argument"),
    (["bot", "--engine-fallback", "greedy"], "--engine-fallback: only with --engine"),
    (["bot", "--engine", "x", "--engine-fallback", "clever"], "unknown strategy 'clever'"),
])
def test_bad_engine_options_are_command_line_errors(
        argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


def test_exit_codes_are_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("bot", "sim", "verify"):
        assert cli.main([command, "--help"]) == 0
        assert "exit codes:\n  0 " in capsys.readouterr().out


def test_sim_json_fits_its_documented_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["sim", "--games", "2", "--seed", "4", "--bots", "greedy,random",
                     "--json", "--jobs", "1"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert problems(doc, "sim") == []
    assert [g["game"] for g in doc["games"]] == [0, 1]
    assert doc["summary"]["entrants"][0]["games"] == 2
    assert doc["games"][0]["verification"] is None and doc["games"][0]["game_file"] is None


# --- A whole LAN game ----------------------------------------------------------------------------

def bot(home: Path, *args: str, cwd: Path | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(burgundy("bot", "--home", str(home), "--no-mdns", "--interface",
                                     LOOPBACK, "--timeout", "120", *args),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd)


@contextmanager
def table(home: Path, host_args: Sequence[str], joiner_args: Sequence[str],
          cwd: Path | None = None
          ) -> Iterator[tuple[subprocess.Popen[str], subprocess.Popen[str]]]:
    """A hosting bot (run in ``cwd``) and a bot that joins it by address (loopback, no mDNS);
    both are killed when the test is done with them."""
    procs = [bot(home / "host", "--host", *host_args, cwd=cwd)]
    try:
        stderr = procs[0].stderr
        assert stderr is not None
        line = stderr.readline()
        assert line.startswith("hosting at "), line
        procs.append(bot(home / "joiner", line.split()[2], *joiner_args))
        yield procs[0], procs[1]
    finally:
        for proc in procs:
            proc.kill()
            proc.communicate()


@pytest.mark.slow
def test_the_tiny_engine_finishes_a_lan_game_and_the_file_verifies(tmp_path: Path) -> None:
    with table(tmp_path, ["--engine", tiny(), "--json"],
               ["--strategy", "greedy", "--seed", "3", "--json"]) as (host, joiner):
        out, err = host.communicate(timeout=120)
        joined, _ = joiner.communicate(timeout=30)
    assert host.returncode == 0, err
    doc = json.loads(out)
    assert problems(doc, "bot") == [], doc
    assert doc["seat"] == 0 and doc["seats"][0]["strategy"] == "tiny"
    assert doc["engine"]["failure"] is None and doc["engine"]["decisions"] > 50
    assert doc["played"] == [{"seat": 0, "by": "engine", "name": "tiny",
                              "decisions": doc["engine"]["decisions"]}]
    assert [s["handed_over"] for s in doc["seats"]] == [None, None]
    assert doc["verification"] == {"verdict": "verified", "complete": True, "problems": []}
    assert "tiny: game over" in err
    assert audit_file(Path(doc["game_file"]).read_bytes()).ok
    other = json.loads(joined)
    assert (other["game_id"], other["final_hash"], other["scores"]) == \
        (doc["game_id"], doc["final_hash"], doc["scores"])
    checked = subprocess.run(burgundy("verify", doc["game_file"], "--json"),
                             capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0
    report = json.loads(checked.stdout)
    assert problems(report, "verify") == []
    same = ("game_id", "table_code", "final_hash", "scores", "winner", "decided_by")
    assert {k: report[k] for k in same} == {k: doc[k] for k in same}


@pytest.mark.slow
def test_an_engine_that_crashes_mid_game_hands_over_to_its_fallback(tmp_path: Path) -> None:
    with table(tmp_path, ["--engine", tiny("--crash", "20"), "--engine-fallback", "random",
                          "--json"], ["--strategy", "random", "--seed", "3"]) as (host, joiner):
        out, err = host.communicate(timeout=120)
        joiner.communicate(timeout=30)
    assert host.returncode == 0, err
    doc = json.loads(out)
    assert doc["engine"]["failure"].startswith("engine ")
    assert "at decision 20 (" in doc["engine"]["failure"]
    assert "exited (exit code 3); random plays the rest of the game" in err
    assert doc["seats"][0]["strategy"] == "random"
    assert doc["verification"]["verdict"] == "verified"
    assert problems(doc, "bot") == []
    # the engine is credited with the 19 decisions it made, the fallback with the rest
    assert (doc["engine"]["name"], doc["engine"]["decisions"]) == ("tiny", 19)
    fallback = doc["engine"]["fallback_decisions"]
    assert doc["played"] == [{"seat": 0, "by": "engine", "name": "tiny", "decisions": 19},
                             {"seat": 0, "by": "fallback", "name": "random",
                              "decisions": fallback}]


@pytest.mark.slow
def test_an_engine_that_fails_with_no_fallback_stops_the_bot(tmp_path: Path) -> None:
    with table(tmp_path, ["--engine", tiny("--garbage", "5"), "--json"],
               ["--strategy", "random", "--seed", "3"]) as (host, _):
        out, err = host.communicate(timeout=120)
    assert host.returncode == 1
    assert "burgundy bot: engine " in err and "at decision 5 (" in err
    assert json.loads(out) == {"command": "bot", "version": 2,
                               "error": err.splitlines()[-1].removeprefix("burgundy bot: ")}
    assert problems(json.loads(out), "error") == []


@pytest.mark.slow
def test_an_engine_that_resigns_resigns_its_seat_and_the_game_ends(tmp_path: Path) -> None:
    """The engine resigns at its tenth decision: the bot resigns the seat, the table's
    stand-in plays it on (no engine does), and both see the same finished game."""
    with table(tmp_path, ["--engine", tiny("--resign", "10"), "--json"],
               ["--engine", tiny(), "--json"]) as (host, joiner):
        out, err = host.communicate(timeout=120)
        joined, _ = joiner.communicate(timeout=60)
    assert host.returncode == 0, err
    doc = json.loads(out)
    assert problems(doc, "bot") == []
    failure = doc["engine"]["failure"]
    assert "at decision 10 (" in failure and failure.endswith("): resigned")
    assert doc["engine"]["decisions"] == 9
    assert "resigned: we resign the seat" in err
    other = json.loads(joined)
    assert other["final_hash"] == doc["final_hash"]
    handed = [s["handed_over"] for s in other["seats"]]
    assert handed[0] is not None and handed[1] is None
    # the stand-in, computed by every peer, played our seat: the joiner's engine only its own
    assert {(p["seat"], p["by"]) for p in other["played"]} == {(1, "engine")}


@pytest.mark.slow
def test_a_plug_in_that_raises_under_bot_json_gives_a_json_error(tmp_path: Path) -> None:
    (tmp_path / "faulty.py").write_text(
        "class Faulty:\n"
        "    name = 'faulty'\n"
        "    def __init__(self, seed):\n"
        "        pass\n"
        "    def choose(self, state, actions):\n"
        "        raise ValueError('no idea')\n")
    with table(tmp_path, ["--strategy", "faulty:Faulty", "--json"],
               ["--strategy", "random", "--seed", "3"], cwd=tmp_path) as (host, _):
        out, err = host.communicate(timeout=120)
    assert host.returncode == 1
    assert "Traceback" not in err
    doc = json.loads(out)
    assert problems(doc, "error") == []
    assert doc["error"] == "bot 'faulty' in seat 0 raised ValueError: no idea"


def test_a_secret_set_up_choice_shows_the_offers_and_not_the_others_choices() -> None:
    from p2p_burgundy import Setup, as_chooser, resolve_chance

    state = new_game(GameConfig(players=2, setup=Setup.EXPERTS_SECRET))
    while state.chance is not None:
        state = resolve_chance(state, bytes(32))
    seat = state.order[state.turn]
    view = as_chooser(state, seat)
    message = decide_message(1, view, legal_actions(view))
    assert problems(message["state"], "state") == []
    assert message["state"]["step"] == "choose_estate"  # type: ignore[index]
    assert message["state"]["offers"] == [list(o) for o in state.offers]  # type: ignore[index]
    assert {a["type"] for a in message["actions"]} == {"choose_estate"}  # type: ignore[index]


def test_sim_plays_an_engine_in_the_seats_named_engine(capfd: pytest.CaptureFixture[str]
                                                       ) -> None:
    assert cli.main(["sim", "--bots", "greedy,engine", "--engine", tiny(), "--seed", "2",
                     "--games", "1", "--rotate", "--json", "--jobs", "1"]) == 0
    out, err = capfd.readouterr()
    doc = json.loads(out)
    assert [[s["strategy"] for s in g["seats"]] for g in doc["games"]] == \
        [["greedy", "engine"], ["engine", "greedy"]]
    assert err.count("tiny: game over") == 2  # each game's engine heard the end


def test_sim_keeps_the_games_finished_before_an_engine_fails(
        capfd: pytest.CaptureFixture[str]) -> None:
    """The engine crashes only in seat 0, so in the second seating: the first is printed and
    summed up, and the error names the game and the decision."""
    crashing = tiny("--crash", "30", "--seat", "0")
    assert cli.main(["sim", "--bots", "tiny,bad", "--engine", f"tiny={tiny()}",
                     "--engine", f"bad={crashing}", "--seed", "2", "--rotate",
                     "--json", "--jobs", "1"]) == 1
    out, err = capfd.readouterr()
    doc = json.loads(out)
    assert problems(doc, "sim") == []
    assert [(g["game"], g["rotation"]) for g in doc["games"]] == [(0, 0)]
    assert [e["games"] for e in doc["summary"]["entrants"]] == [1, 1]
    assert doc["summary"]["games"] == 1
    assert doc["error"].startswith(f"game 1: engine {crashing!r} at decision 30 (")
    assert doc["error"].endswith("exited (exit code 3)")
    assert f"burgundy sim: {doc['error']}" in err
    assert doc["config"]["engines"] == [{"name": "tiny", "command": tiny()},
                                        {"name": "bad", "command": crashing}]


def test_sim_plays_on_with_the_fallback_and_says_so(capfd: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["sim", "--bots", "engine,random", "--engine", tiny("--illegal", "4"),
                     "--engine-fallback", "greedy", "--seed", "2", "--games", "2", "--json",
                     "--jobs", "1"]) == 0
    out, err = capfd.readouterr()
    doc = json.loads(out)
    assert problems(doc, "sim") == [] and doc["error"] is None
    for game in doc["games"]:
        engine = game["seats"][0]["engine"]
        assert (engine["name"], engine["decisions"], engine["fallback"]) == ("tiny", 3, "greedy")
        assert "at decision 4 (" in engine["failure"]
        assert 50 < engine["fallback_decisions"] < game["decisions"]
        assert game["seats"][1]["engine"] is None
    assert err.count("; greedy plays the rest of the game") == 2
    assert "burgundy sim: game 1: engine " in err


def test_sim_stops_at_a_plug_in_that_raises_and_keeps_what_was_played(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
        ) -> None:
    (tmp_path / "faulty.py").write_text(
        "class Faulty:\n"
        "    name = 'faulty'\n"
        "    def __init__(self, seed):\n"
        "        self.calls = 0\n"
        "    def choose(self, state, actions):\n"
        "        self.calls += 1\n"
        "        if self.calls == 9:\n"
        "            raise KeyError('depot')\n"
        "        return actions[0]\n")
    monkeypatch.chdir(tmp_path)
    assert cli.main(["sim", "--bots", "faulty:Faulty,greedy", "--seed", "1", "--jobs", "1",
                     "--json"]) == 1
    out, err = capfd.readouterr()
    doc = json.loads(out)
    assert doc["error"] == "game 1: bot 'faulty' in seat 0 raised KeyError: 'depot'"
    assert "Traceback" not in err


def test_two_engines_play_each_other_by_name(capfd: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["sim", "--bots", "one,two", "--engine", f"one={tiny()}",
                     "--engine", f"two={tiny()}", "--seed", "2", "--json", "--jobs", "1"]) == 0
    doc = json.loads(capfd.readouterr().out)
    assert [s["strategy"] for s in doc["games"][0]["seats"]] == ["one", "two"]
    assert [s["engine"]["command"] for s in doc["games"][0]["seats"]] == [tiny(), tiny()]


@pytest.mark.parametrize(("argv", "message"), [
    (["sim", "--bots", "engine,greedy"], "argument --bots: unknown strategy 'engine'"),
    (["sim", "--engine", "x"], "argument --engine: the engine 'engine' plays no seat"),
    (["sim", "--bots", "engine,greedy", "--engine", "x", "--engine", "y"],
     "argument --engine: two engines are named 'engine': name each NAME=COMMAND"),
    (["sim", "--bots", "greedy,greedy", "--engine", "greedy=x"],
     "argument --engine: an engine is named 'greedy', as a strategy is"),
    (["sim", "--engine-fallback", "greedy"], "argument --engine-fallback: only with --engine"),
])
def test_sim_engine_options_go_together(argv: list[str], message: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


def test_a_lost_solo_game_has_no_winner_anywhere(capfd: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["sim", "--players", "1", "--bots", "engine", "--engine", tiny(),
                     "--seed", "1", "--json", "--jobs", "1"]) == 0
    out, err = capfd.readouterr()
    doc = json.loads(out)
    assert problems(doc, "sim") == []
    [game] = doc["games"]
    assert (game["winner"], game["decided_by"]) == (None, "spaces left empty")
    assert game["scores"][0]["place"] is None
    assert doc["summary"]["entrants"][0]["wins"] == 0
    assert "tiny: game over, winner seat None" in err  # the engine heard it lost


def test_every_expansion_module_shows_in_the_state_and_its_actions_have_names() -> None:
    from p2p_burgundy import Edition, Module, resolve_chance
    from p2p_burgundy.cli.gamejson import action_json
    from p2p_burgundy.cli.strategies import make as make_bot

    config = GameConfig(players=3, edition=Edition.E2019, modules=tuple(Module),
                        estates=("11a", "11c", "11e"))  # duchies with border posts
    state = new_game(config)
    bot = make_bot("random", 3)
    seen: set[str] = set()
    while not state.is_over:
        if state.chance is not None:
            state = resolve_chance(state, chance_entropy(3, 0, state.chance.index))
            continue
        actions = legal_actions(state)
        seen |= {a["type"] for a in map(action_json, actions)}  # type: ignore[misc]
        state = apply(state, bot.choose(state, actions))
    message = decide_message(1, state, [UseDie(0)])
    assert problems(message["state"], "state") == []
    assert message["state"]["modules"] == [m.value for m in Module]  # type: ignore[index]
    assert isinstance(message["state"]["inns"], int)  # type: ignore[index]
    seat = message["state"]["seats"][0]  # type: ignore[index]
    assert {"border_posts", "border_rank", "route", "route_goods", "shields"} <= set(seat)
    assert len(seat["route"]) == 3 * 4 and len(seat["route_goods"]) <= 12
    assert {"buy", "use_die", "place_tile", "end_turn"} <= seen


# --- A bot that stays on the LAN -----------------------------------------------------------------

@pytest.mark.slow
def test_a_serving_bot_hosts_table_after_table_and_stops_cleanly(tmp_path: Path) -> None:
    """It hosts a table, plays it, hosts the next; SIGTERM while it waits in the lobby of the
    third withdraws that table and ends it with exit code 0."""
    import signal

    host = bot(tmp_path / "host", "--host", "--serve", "--engine", tiny(), "--json")
    assert host.stderr is not None and host.stdout is not None
    try:
        for game in range(2):
            line = host.stderr.readline()
            while not line.startswith("hosting at "):
                line = host.stderr.readline()
            joiner = bot(tmp_path / f"joiner{game}", line.split()[2], "--strategy", "random",
                         "--seed", str(game))
            joiner.communicate(timeout=120)
            assert joiner.returncode == 0
            doc = json.loads(host.stdout.readline())
            assert problems(doc, "bot") == [] and doc["engine"]["failure"] is None
        line = host.stderr.readline()
        while not line.startswith("hosting at "):
            line = host.stderr.readline()
        host.send_signal(signal.SIGTERM)
        out, err = host.communicate(timeout=30)
    finally:
        host.kill()
        host.communicate()
    assert host.returncode == 0
    assert "stopped after 2 games" in err and out == ""


@pytest.mark.parametrize(("argv", "message"), [
    (["bot", "--games", "3"], "argument --games: only with --serve"),
    (["bot", "--serve", "--resume"], "argument --serve: not with --resume"),
])
def test_serve_options_go_together(argv: list[str], message: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


def test_a_hint_engine_gives_the_hint_and_what_it_says() -> None:
    """The client's hint (H) from an engine (--hint-engine): its choices as keys to press,
    and its info text shown with them."""
    from p2p_burgundy.cli.engine import Clock, EngineSettings
    from p2p_burgundy.cli.tui.hint import bot as hint_bot
    from p2p_burgundy.cli.tui.hint import suggest
    from p2p_burgundy.cli.tui.render import hint_reason_lines

    state = started()
    assert isinstance(hint_bot(1, tiny()), EngineStrategy)
    engine = EngineStrategy(tiny(), 1, settings=EngineSettings(Clock(), {"explain": "true"}))
    try:
        hint = suggest(state, engine)
    finally:
        engine.close()
    assert hint.says == "the first place_tile" and hint.steps
    shown = ["".join(seg.text for seg in line) for line in hint_reason_lines(hint, 80)]
    assert "The engine says: the first place_tile" in shown
