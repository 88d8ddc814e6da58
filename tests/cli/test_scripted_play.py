"""Scripted play: a LAN game exported with ``replay --export-turns`` and played again by
scripted bots (``bot --moves``) with the same players and game id reproduces every recorded
state hash; a turns file that cannot be read is a command-line error."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from p2p_burgundy.cli import main as cli
from p2p_burgundy.cli.lan import play_headless
from p2p_burgundy.cli.loopback import close_all, open_table, play
from p2p_burgundy.cli.script import ScriptedStrategy, read_script
from p2p_burgundy.cli.strategies import make
from p2p_burgundy.net import peer as peer_module
from p2p_burgundy.net.audit import audit_file
from p2p_burgundy.net.peer import game_path
from tests.cli.schemas import problems


async def _record(home: Path) -> Path:
    peers, _ = await open_table(home, 2)
    try:
        await play(peers, seed=4)
    finally:
        await close_all(peers)
    session = peers[0].session
    assert session is not None
    return game_path(peers[0].data_dir, session.game_id)


async def _replay(home: Path, turns: Path) -> tuple[Path, list[ScriptedStrategy]]:
    script = read_script(turns.read_text())
    peers, _ = await open_table(home, 2)
    scripted = [ScriptedStrategy(script.for_seat(seat), make("random", 99)) for seat in (0, 1)]
    try:
        await asyncio.gather(*(play_headless(p, s, 120) for p, s in zip(peers, scripted,
                                                                          strict=True)))
    finally:
        await close_all(peers)
    session = peers[0].session
    assert session is not None
    return game_path(peers[0].data_dir, session.game_id), scripted


@pytest.mark.slow
def test_an_exported_game_played_again_gives_every_recorded_state_hash(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every member's contribution to the game id comes from os.urandom: the same bytes, in
    # both runs, give the same game id, so the same dice (nobody can do this to others).
    fixed = SimpleNamespace(urandom=lambda n: bytes(range(n)))
    monkeypatch.setattr(peer_module, "os", fixed)
    recorded = asyncio.run(_record(tmp_path / "first"))
    turns = tmp_path / "turns.json"
    assert cli.main(["replay", str(recorded), "--export-turns", str(turns)]) == 0
    exported = json.loads(turns.read_text())
    assert exported["format"] == "p2p-burgundy/turns" and len(exported["turns"]) > 40
    assert problems(exported, "turns") == []

    replayed, scripted = asyncio.run(_replay(tmp_path / "again", turns))

    first, again = audit_file(recorded.read_bytes()), audit_file(replayed.read_bytes())
    assert again.ok and again.game_id == first.game_id
    assert again.hashes() == first.hashes()
    for seat, script in enumerate(scripted):
        assert script.left is None
        assert script.played == script.exact == sum(t["seat"] == seat for t in exported["turns"])


def test_a_scripted_bot_leaves_the_script_where_it_stops_being_legal(
        capsys: pytest.CaptureFixture[str]) -> None:
    from p2p_burgundy import GameConfig, TakeTile, apply, legal_actions, new_game, resolve_chance
    from p2p_burgundy.cli.script import ScriptTurn

    state = new_game(GameConfig(players=2))
    while state.chance is not None:
        state = resolve_chance(state, bytes(32))
    seat = state.to_move
    assert seat is not None
    script = ScriptedStrategy([ScriptTurn(0, seat, (TakeTile(6, 3),), b"", b"")],
                              make("random", 1))
    action = script.choose(state, legal_actions(state))
    assert action in legal_actions(state)
    apply(state, action)
    assert (script.played, script.exact) == (1, 0)
    assert script.left == "at recorded turn 0, TakeTile(depot=6, slot=3) is not legal here"
    assert capsys.readouterr().err == (f"burgundy bot: the script ends {script.left}; random "
                                       "plays on\n")


@pytest.mark.parametrize(("text", "message"), [
    (None, "argument --moves: cannot read"),
    ("{", "not JSON"),
    ('{"format": "p2p-burgundy/record"}', 'not a turns file (no "format": '
                                          '"p2p-burgundy/turns")'),
    ('{"format": "p2p-burgundy/turns", "version": 1, "config": [2, "2011", ["1", "1"], '
     '[18, 18]], "game_id": "00", "turns": [{"turn": 0}]}', "malformed turns file: missing"),
    ('{"format": "p2p-burgundy/turns", "version": 1, "config": [2, "2011", ["1", "1"], '
     '[18, 18]], "game_id": "00", "turns": [{"turn": 0, "seat": 0, "before": "", '
     '"after": "", "actions": [[99]]}]}', "malformed turns file: malformed action [99]"),
])
def test_a_turns_file_that_cannot_be_read_is_a_command_line_error(
        tmp_path: Path, text: str | None, message: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "turns.json"
    if text is not None:
        path.write_text(text)
    assert cli.main(["bot", "--moves", str(path)]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.slow
def test_bots_with_moves_play_the_script_while_it_holds_then_their_strategy(
        tmp_path: Path) -> None:
    """New players (keys) make new dice: the scripted bots follow the recorded turns as long as
    they are legal, then play on; the game finishes and verifies."""
    from tests.cli.test_engine_protocol import table

    recorded = asyncio.run(_record(tmp_path / "first"))
    turns = tmp_path / "turns.json"
    assert cli.main(["replay", str(recorded), "--export-turns", str(turns)]) == 0
    scripted = ["--moves", str(turns), "--strategy", "random", "--json"]
    with table(tmp_path, scripted, scripted) as (host, joiner):
        outs = [p.communicate(timeout=120) for p in (host, joiner)]
    assert [host.returncode, joiner.returncode] == [0, 0], outs
    recorded_turns = json.loads(turns.read_text())["turns"]
    for (out, err), seat in zip(outs, (0, 1), strict=True):
        doc = json.loads(out)
        assert problems(doc, "bot") == []
        script = doc["script"]
        assert script["file"] == str(turns)
        assert script["turns"] == sum(t["seat"] == seat for t in recorded_turns)
        assert 1 <= script["played"] <= script["turns"]
        if script["left"] is not None:
            assert f"burgundy bot: the script ends {script['left']}; random plays on" in err
        assert doc["verification"]["verdict"] == "verified"
