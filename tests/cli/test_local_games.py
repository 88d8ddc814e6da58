"""Local games on disk (``cli/localgame.py``, ``LocalTable.saved`` / ``restore``): saved after
every step, restored to the same state hash, log and scores, the bots playing on as they
would have; a damaged, cut or foreign file is refused with its reason and left as it was."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from p2p_burgundy import (
    Action,
    Edition,
    GameConfig,
    TakeWorkers,
    UseDie,
    apply,
    ends_turn,
    legal_actions,
    state_hash,
)
from p2p_burgundy.cli.localgame import (
    MAGIC,
    LocalGameError,
    decode,
    encode,
    latest_unfinished,
    load,
    local_dir,
    save,
)
from p2p_burgundy.cli.main import main, parse
from p2p_burgundy.cli.program import program
from p2p_burgundy.cli.replay import load_game
from p2p_burgundy.cli.strategies import Strategy, make
from p2p_burgundy.cli.tui.command import play_mode, resume_local
from p2p_burgundy.cli.tui.model import Model
from p2p_burgundy.cli.tui.table import LocalTable, Notice
from p2p_burgundy.net.log import FILE_MAGIC


def my_turn(table: LocalTable, player: Strategy) -> None:
    """Play our whole turn as ``player`` chooses it (after the bots played theirs)."""
    table.poll()
    state, actions = table.state, list[Action]()
    while not actions or not ends_turn(actions[-1]):
        actions.append(player.choose(state, legal_actions(state)))
        state = apply(state, actions[-1])
    table.submit_turn(actions)
    table.poll()


def saved_game(tmp_path: Path, turns: int = 3) -> tuple[LocalTable, Path]:
    """A game against 2 random bots, saved to a file as it is played, ``turns`` turns in."""
    table = LocalTable.new("Ann", bots=2, seed=11, strategy="random")
    path = local_dir(tmp_path) / "game.local"
    table.saving = lambda saved: save(path, saved)
    player = make("random", 5)
    for _ in range(turns):
        my_turn(table, player)
    return table, path


def test_a_restored_game_has_the_same_state_log_and_scores_and_plays_on_the_same(tmp_path):
    table, path = saved_game(tmp_path)
    table.send_chat("back soon")
    again = LocalTable.restore(load(path))
    assert state_hash(again.state) == state_hash(table.state)
    assert again.history == table.history  # the log, the chat line in its place
    assert again.round_scores == table.round_scores
    assert again.saved() == table.saved()
    mark, state = again.last_turn_end or (0, None)  # where the others' moves are marked from
    assert table.last_turn_end is not None and mark == table.last_turn_end[0]
    assert state is not None and state_hash(state) == state_hash(table.last_turn_end[1])
    # Both go on with the same moves of ours: the bots (random, so their seeds matter) and
    # the dice do exactly the same as if the game had never stopped.
    for game in (table, again):
        player = make("random", 9)
        for _ in range(6):
            my_turn(game, player)
    assert state_hash(again.state) == state_hash(table.state)
    assert again.history == table.history


def test_the_file_holds_every_step_as_soon_as_it_is_played(tmp_path):
    table, path = saved_game(tmp_path, turns=1)
    player = make("random", 2)
    for _ in range(3):
        my_turn(table, player)
        assert load(path).record == table.saved().record
    table.resign()
    assert load(path).resigned and load(path).finished()


def test_a_saved_game_walks_once_into_its_steps(tmp_path):
    from p2p_burgundy import Turn

    table, _ = saved_game(tmp_path, turns=1)
    my_turn(table, make("random", 2))
    saved = table.saved()
    steps = saved.steps()
    turns = [what for what, _ in steps if isinstance(what, Turn)]
    assert [a for t in turns for a in t.actions] == list(saved.record.actions)
    assert state_hash(steps[-1][1]) == state_hash(table.state) == \
        state_hash(saved.final_state())


def test_a_solo_game_round_trips_through_its_bytes():
    table = LocalTable.solo("Sol", GameConfig(1, Edition.E2019, target=53), seed=5)
    my_turn(table, make("greedy"))
    saved = table.saved()
    assert decode(encode(saved)) == saved and saved.solo
    again = LocalTable.restore(decode(encode(saved)))
    assert state_hash(again.state) == state_hash(table.state)
    assert again.state.config.target == 53
    assert again.history[0].text == "Solo game: seed 5 (burgundy solo --seed 5 replays it)."


def test_a_solo_game_saved_by_an_earlier_version_loads_and_plays_on():
    """Saved when the engine's config still held the table's rules: its config tree writes
    their defaults (hints false) before the harder target, which the record still hashes."""
    saved = decode((Path(__file__).parents[1] / "data" / "solo-target-55.local").read_bytes())
    assert saved.record.config == GameConfig(1, Edition.E2019, target=55)
    assert saved.chat == ((2, "hello"),) and len(saved.record.actions) == 11
    table = LocalTable.restore(saved)
    assert state_hash(table.state) == saved.record.hashes[-1]
    my_turn(table, make("greedy"))
    assert len(table.saved().record.actions) > 11


def test_a_file_cut_anywhere_is_refused_as_damaged(tmp_path):
    _, path = saved_game(tmp_path, turns=2)
    data = path.read_bytes()
    for cut in range(len(MAGIC), len(data)):  # a write torn at any byte
        with pytest.raises(LocalGameError, match="damaged: its checksum does not match"):
            decode(data[:cut])


def test_any_byte_changed_is_refused_as_damaged(tmp_path):
    _, path = saved_game(tmp_path, turns=2)
    data = path.read_bytes()
    for at in range(len(MAGIC), len(data), 7):
        changed = bytearray(data)
        changed[at] ^= 0x20
        with pytest.raises(LocalGameError, match="damaged"):
            decode(bytes(changed))


def test_a_record_that_does_not_replay_names_its_step(tmp_path):
    table, _ = saved_game(tmp_path, turns=2)
    saved = table.saved()
    hashes = saved.record.hashes
    forged = replace(saved, record=replace(saved.record, hashes=(*hashes[:-1], bytes(32))))
    with pytest.raises(LocalGameError, match=rf"damaged: step {len(hashes) - 1} \(.*\): "
                                             "state hash differs from the record"):
        decode(encode(forged)).final_state()
    with pytest.raises(LocalGameError, match="chance event 0 was not dealt from seed 12"):
        decode(encode(replace(saved, seed=12))).final_state()


@pytest.mark.parametrize(("data", "reason"), [
    (b"", "not a p2p-burgundy local game file"),
    (b'{"turns": 3}', "not a p2p-burgundy local game file"),
    (FILE_MAGIC + bytes(20), r"a networked game's file \(burgundy play --resume FILE"),
    (MAGIC[:-1] + b"\x07" + bytes(20), "a local game file of format version 7; this version "
                                       "reads 1"),
])
def test_a_foreign_file_is_refused_with_what_it_is(data, reason):
    with pytest.raises(LocalGameError, match=reason):
        decode(data)


def test_a_save_that_fails_midway_leaves_the_previous_one(tmp_path, monkeypatch):
    table, path = saved_game(tmp_path, turns=1)
    before = path.read_bytes()

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    table.send_chat("hi")  # a change: saving it fails, and the game goes on
    assert Notice("Not saved: No space left on device. It is tried again at each step.") \
        in table.poll()
    assert table.not_saved == "No space left on device"  # lasting: the status line says so
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["game.local"]
    table.send_chat("still")  # said once, and still true
    assert not [e for e in table.poll() if isinstance(e, Notice)]
    assert table.not_saved == "No space left on device"
    monkeypatch.undo()
    table.send_chat("again")  # the next save that works has everything
    assert Notice("The game is saved again: nothing is lost.") in table.poll()
    assert table.not_saved is None
    assert [text for _, text in load(path).chat] == ["hi", "still", "again"]
    assert load(path).record == table.saved().record


def test_resuming_a_damaged_file_says_why_and_changes_nothing(tmp_path, capsys):
    _, path = saved_game(tmp_path, turns=1)
    damaged = path.read_bytes()[:-1]
    path.write_bytes(damaged)
    assert resume_local(tmp_path, str(path), solo=False, prog="burgundy play") is None
    assert capsys.readouterr().err == (f"burgundy play: cannot resume {path}: damaged: its "
                                       "checksum does not match (cut short or changed)\n")
    assert path.read_bytes() == damaged


def test_resuming_a_finished_game_points_at_its_replay(tmp_path, capsys):
    table, path = saved_game(tmp_path, turns=1)
    table.resign()
    assert resume_local(tmp_path, str(path), solo=False, prog="burgundy play") is None
    assert capsys.readouterr().err == (f"burgundy play: {path}: this game is over "
                                       f"({program()} replay {path} shows it)\n")


def test_the_latest_unfinished_game_of_the_kind_asked_for(tmp_path, capsys):
    def saved_at(name: str, table: LocalTable, when: int) -> Path:
        path = local_dir(tmp_path) / name
        save(path, table.saved())
        os.utime(path, (when, when))
        return path

    bots = LocalTable.new("Ann", bots=1, seed=1)
    bots.poll()
    solo = LocalTable.solo("Ann", GameConfig(1, Edition.E2019), seed=2)
    solo.poll()
    over = LocalTable.new("Ann", bots=1, seed=3)
    over.poll()
    over.resign()
    older = saved_at("a.local", bots, 1000)
    saved_at("b.local", over, 3000)
    alone = saved_at("c.local", solo, 2000)
    assert latest_unfinished(tmp_path, solo=False) == older
    assert latest_unfinished(tmp_path, solo=True) == alone
    found = resume_local(tmp_path, "", solo=True, prog="burgundy solo")
    assert found is not None and found[1] == alone
    with pytest.raises(LocalGameError, match=r"no unfinished solo game in .*local"):
        latest_unfinished(tmp_path / "elsewhere", solo=True)


def test_a_local_game_replays_from_its_file(tmp_path):
    table, path = saved_game(tmp_path, turns=2)
    replay = load_game(path.read_bytes())
    assert replay.position == table.replay().position
    assert state_hash(replay.state) == state_hash(table.state)


@pytest.mark.parametrize(("argv", "complaint"), [
    (["solo", "--resume", "--seed", "3"], "argument --seed: not with --resume"),
    (["solo", "--resume", "--target", "50"], "argument --target: not with --resume"),
    (["solo", "--resume", "--with", "inns"], "argument --with: not with --resume"),
    (["play", "--local", "--resume", "--bots", "2"], "argument --bots: not with --resume"),
])
def test_a_resumed_game_keeps_its_own_options(argv, complaint, capsys):
    assert main(argv) == 2
    assert complaint in capsys.readouterr().err


def test_a_finished_local_game_verifies_from_its_file(tmp_path, capsys):
    table = LocalTable.new("Ann", bots=1, seed=4, strategy="random")
    path = local_dir(tmp_path) / "game.local"
    table.saving = lambda saved: save(path, saved)
    player = make("random", 4)
    while not table.state.is_over:
        my_turn(table, player)
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"Game against 1 bot (Ann, Bot 1), seed 4: {len(table.saved().record.hashes)} " \
           "steps" in out
    assert out.endswith("\n\nVERIFIED\n") and "Final scores: " in out
    path.write_bytes(path.read_bytes()[:-3])
    assert main(["verify", str(path)]) == 1
    assert capsys.readouterr().out.endswith(
        "NOT VERIFIED: damaged: its checksum does not match (cut short or changed)\n")


def test_a_turn_left_half_done_is_saved_and_comes_back_as_it_was(tmp_path):
    table, path = saved_game(tmp_path, turns=1)
    table.poll()
    half = [UseDie(0), TakeWorkers()]
    table.keep_draft(half)  # what the client does after each choice
    assert load(path).draft == tuple(half)
    again = LocalTable.restore(load(path))
    assert again.kept_draft == tuple(half)
    model = Model(again)
    model.refresh()  # the client's draft starts from it
    assert model.draft is not None and model.draft.actions == half
    my_turn(table, make("random", 1))  # a turn played: nothing is under way any more
    assert load(path).draft == ()


def test_a_turn_under_way_that_does_not_apply_is_damage(tmp_path):
    table, _ = saved_game(tmp_path, turns=1)
    table.poll()
    forged = replace(table.saved(), draft=(TakeWorkers(),))  # no die chosen for it
    with pytest.raises(LocalGameError, match="damaged: the turn under way does not apply"):
        decode(encode(forged)).final_state()


def test_any_resume_given_a_local_game_file_resumes_it_as_what_it_is(tmp_path, capsys):
    _, path = saved_game(tmp_path, turns=1)
    assert play_mode(parse(["play", "--resume", str(path)])) == "local-resume"
    assert play_mode(parse(["play", "--resume"])) == "resume"  # the latest networked game
    found = resume_local(tmp_path, str(path), solo=True, prog="burgundy solo")
    assert found is not None and found[0].names == ["Ann", "Bot 1", "Bot 2"]
    networked = tmp_path / "x.game"
    networked.write_bytes(FILE_MAGIC)
    assert resume_local(tmp_path, str(networked), solo=True, prog="burgundy solo") is None
    assert capsys.readouterr().err == (f"burgundy solo: cannot resume {networked}: a networked "
                                       "game's file (burgundy play --resume FILE resumes it), "
                                       "not a local game\n")
