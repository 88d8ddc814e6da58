"""Positions as data: a position file read back gives the same state; a LAN game's position
and its turns replay locally on its real dice; sim, match (a deal book) and analyse start
from positions; and a position that does not hold is refused with its reason."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from p2p_burgundy import GameConfig, state_hash
from p2p_burgundy.cli import main as cli
from p2p_burgundy.cli.position import (
    Position,
    PositionError,
    book_json,
    read_book,
    read_position,
)
from p2p_burgundy.net.audit import audit_file
from tests.cli.schemas import problems
from tests.cli.test_engine_protocol import tiny
from tests.cli.test_scripted_play import _record


def write(path: Path, doc: object) -> Path:
    path.write_text(json.dumps(doc))
    return path


def test_a_position_read_back_is_the_same_state() -> None:
    position = Position(GameConfig(players=3)).played(30, seed=5)
    doc = position.to_json()
    assert problems(doc, "position") == []
    again = read_position(json.dumps(doc))
    assert again == position
    assert doc["state_hash"] == state_hash(again.state()).hex()
    assert doc["state"]["players"] == 3  # type: ignore[index]


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(version=2), "a position of version 2; this version reads 1"),
    (lambda d: d.update(format="x"), 'not a position (no "format": "p2p-burgundy/position")'),
    (lambda d: d.update(state_hash="00" * 32), "its actions reach state"),
    (lambda d: d["actions"].insert(3, d["actions"][0]), "is not legal"),
    (lambda d: d.update(entropy=d["entropy"][:1]), "whose entropy is not recorded"),
    (lambda d: d.pop("actions"), "malformed position: missing 'actions'"),
])
def test_a_position_that_does_not_hold_is_refused(
        change: Callable[[dict[str, Any]], object], message: str) -> None:
    doc = Position(GameConfig(players=2)).played(12, seed=2).to_json()
    change(doc)
    with pytest.raises(PositionError, match=re.escape(message)):
        read_position(json.dumps(doc))


DATA = Path(__file__).parents[1] / "data"


def test_a_position_exported_while_the_config_held_the_tables_rules_loads(
        capfd: pytest.CaptureFixture[str]) -> None:
    """Exported (``replay --export-position 12``) from hints-clock.game by the revision before
    hints and the clock left the engine's config: its config tree carries them (hints, a 15+10
    clock), and its state hash was taken with them. It loads, as the same game without them,
    and sim plays on from it."""
    text = (DATA / "hints-clock-12.position").read_text()
    doc = json.loads(text)
    assert doc["config"] == [2, "2011", ["1", "1"], [18, 18], "standard", [], [], True, 50,
                             [900, 10]]
    position = read_position(text)
    assert position.config == GameConfig(players=2)
    assert (len(position.entropy), len(position.actions)) == (6, 36)
    state = position.state()
    assert state_hash(state, (True, [900, 10])).hex() == doc["state_hash"] == (
        "9766194917cd317c3356779d2b6a9109da8ff60426792bcf5effa64211850d47")
    assert state_hash(state).hex() != doc["state_hash"]
    assert read_position(json.dumps(position.to_json())) == position  # exported anew: no rules
    doc["state_hash"] = state_hash(state, (False, [900, 10])).hex()  # another table's hash
    with pytest.raises(PositionError, match="its actions reach state"):
        read_position(json.dumps(doc))
    assert cli.main(["sim", "--position", str(DATA / "hints-clock-12.position"), "--json",
                     "--jobs", "1", "--bots", "random,random"]) == 0
    assert json.loads(capfd.readouterr().out)["config"]["position"] == state_hash(state).hex()


def test_a_lan_game_exports_positions_and_replays_locally_on_its_real_dice(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """A LAN game's position at every tenth step has that step's state hash; its turns played
    by sim on the game's own dice are every one exact and end in the game's final state."""
    recorded = asyncio.run(_record(tmp_path / "lan"))
    report = audit_file(recorded.read_bytes())
    capfd.readouterr()
    for step in (0, 1, 10, 40, len(report.steps)):
        assert cli.main(["replay", str(recorded), "--export-position", str(step)]) == 0
        doc = json.loads(capfd.readouterr().out)
        assert problems(doc, "position") == []
        expected = report.steps[step - 1].state_hash if step else \
            state_hash(read_position(json.dumps(doc)).state())
        assert doc["state_hash"] == expected.hex()
    assert cli.main(["replay", str(recorded), "--export-position", "9999"]) == 1
    assert f"the game has {len(report.steps)} steps" in capfd.readouterr().err

    turns = tmp_path / "turns.json"
    assert cli.main(["replay", str(recorded), "--export-turns", str(turns)]) == 0
    assert cli.main(["sim", "--moves", str(turns), "--bots", "random,random", "--json",
                     "--jobs", "1"]) == 0
    doc = json.loads(capfd.readouterr().out)
    assert problems(doc, "sim") == []
    [game] = doc["games"]
    scripts = [seat["script"] for seat in game["seats"]]
    assert all(s["exact"] == s["played"] == s["turns"] and s["left"] is None for s in scripts)
    assert game["final_hash"] == report.final_hash.hex()  # type: ignore[union-attr]
    assert doc["config"]["moves"] == report.game_id.hex()  # type: ignore[union-attr]


def test_sim_starts_every_game_at_the_position(tmp_path: Path,
                                               capfd: pytest.CaptureFixture[str]) -> None:
    position = Position(GameConfig(players=2)).played(40, seed=9)
    path = write(tmp_path / "p.json", position.to_json())
    assert cli.main(["sim", "--position", str(path), "--games", "2", "--bots", "greedy,random",
                     "--json", "--jobs", "1"]) == 0
    doc = json.loads(capfd.readouterr().out)
    assert problems(doc, "sim") == []
    assert doc["config"]["position"] == position.state_hash().hex()
    full = json.loads(_sim_json(capfd, ["--games", "2", "--bots", "greedy,random"]))
    # the 40 decisions before the position are not the bots'
    assert [g["decisions"] for g in doc["games"]] != [g["decisions"] for g in full["games"]]
    assert cli.main(["sim", "--position", str(path), "--players", "3"]) == 2
    assert "argument --players: the game is for 2 players" in capfd.readouterr().err
    assert cli.main(["sim", "--position", str(path), "--edition", "2019"]) == 2
    assert "argument --edition: the game's table is the position's" in capfd.readouterr().err


def _sim_json(capfd: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert cli.main(["sim", *argv, "--json", "--jobs", "1"]) == 0
    return capfd.readouterr().out


def test_a_match_plays_each_position_of_its_book_in_every_seating(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    start = Position(GameConfig(players=2))
    book = book_json([start.played(20, seed=1), start.played(35, seed=2)])
    assert problems(book, "book") == []
    path = write(tmp_path / "book.json", book)
    assert len(read_book(path.read_text())) == 2
    assert cli.main(["match", "--entrants", "greedy,random", "--book", str(path), "--json"]) == 0
    lines = [json.loads(line) for line in capfd.readouterr().out.splitlines()]
    *games, summary = lines
    assert [(g["deal"], g["rotation"]) for g in games] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert summary["config"]["deals"] == 2
    # the same position in both seatings: the recorded decisions are not played again
    assert games[0]["decisions"] < 300 and games[2]["decisions"] < games[0]["decisions"] + 30
    write(tmp_path / "bad.json", {"format": "p2p-burgundy/book", "version": 1, "positions": []})
    assert cli.main(["match", "--entrants", "greedy,random", "--book",
                     str(tmp_path / "bad.json")]) == 2
    assert "lists one position or more" in capfd.readouterr().err


def test_analyse_asks_an_engine_and_shows_what_it_said(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    position = Position(GameConfig(players=2)).played(3, seed=4)
    path = write(tmp_path / "p.json", position.to_json())
    assert cli.main(["analyse", str(path), "--engine", tiny(), "--engine-option",
                     "explain=true", "--json"]) == 0
    doc = json.loads(capfd.readouterr().out)
    assert problems(doc, "analyse") == []
    assert doc["state_hash"] == position.state_hash().hex()
    assert doc["info"]["line"] == [doc["answer"]] and doc["by"] == "tiny"
    assert doc["info"]["text"] == "the first place_tile"
    assert cli.main(["analyse", str(path), "--strategy", "greedy"]) == 0
    text = capfd.readouterr().out
    assert text.startswith(f"position {doc['state_hash'][:16]}: (phase A, round 1, seat ")
    assert "greedy plays " in text and "  0  " in text
    assert cli.main(["analyse", str(path), "--engine", tiny(), "--engine-option",
                     "depth=3", "--json"]) == 1
    out, err = capfd.readouterr()
    assert "declares no option 'depth' (it declares: prefer, explain)" in err
    assert problems(json.loads(out), "error") == []


def test_a_local_games_file_exports_its_positions_too(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """A solo game saved by the client: the position after each step has that step's hash."""
    from p2p_burgundy import Edition, legal_actions
    from p2p_burgundy.cli.localgame import SavedGame, encode
    from p2p_burgundy.cli.sim import chance_entropy
    from p2p_burgundy.cli.strategies import make
    from p2p_burgundy.record import Recorder

    recorder = Recorder(GameConfig(players=1, edition=Edition.E2019))
    bot = make("greedy", 1)
    while len(recorder.record().hashes) < 60:
        state = recorder.state
        if state.chance is not None:
            recorder.chance(chance_entropy(8, 0, state.chance.index))
        else:
            recorder.act(bot.choose(state, legal_actions(state)))
    record = recorder.record()
    path = tmp_path / "solo.local"
    path.write_bytes(encode(SavedGame(("Ann",), 8, "greedy", record)))
    for step in (1, 25, 60):
        assert cli.main(["replay", str(path), "--export-position", str(step)]) == 0
        doc = json.loads(capfd.readouterr().out)
        assert doc["state_hash"] == record.hashes[step - 1].hex()
        assert doc["state"]["players"] == 1
    assert cli.main(["replay", str(path), "--export-position", "61"]) == 1
    assert "the game has 60 steps (0 to 60), not 61" in capfd.readouterr().err


def test_the_client_replays_a_position_file_step_by_step() -> None:
    """``burgundy replay p.json`` shows how the position's game got there: every chance event
    and turn, ending at the position's state."""
    from p2p_burgundy.cli.replay import load_game

    position = Position(GameConfig(players=2)).played(45, seed=6)
    steps = position.steps()
    assert sum(len(what) for what, _ in steps if isinstance(what, tuple)) == 45
    assert sum(not isinstance(what, tuple) for what, _ in steps) == len(position.entropy)
    assert state_hash(steps[-1][1]) == position.state_hash()
    table = load_game(json.dumps(position.to_json()).encode())
    assert state_hash(table.state) == position.state_hash()
