"""A local game's record replays to the same hashes; a damaged record says where it breaks."""

import dataclasses
import itertools
import random

import pytest

from p2p_burgundy import GameConfig, RecordError, Turn, legal_actions, state_hash
from p2p_burgundy.record import GameRecord, Recorder


@pytest.fixture(scope="module")
def record() -> GameRecord:
    rng = random.Random(3)
    rec = Recorder(GameConfig(players=2))
    while not rec.state.is_over:
        if rec.state.chance is not None:
            rec.chance(rng.randbytes(32))
        else:
            rec.act(rng.choice(legal_actions(rec.state)))
    return rec.record()


def test_a_whole_game_round_trips_and_replays_to_its_last_hash(record: GameRecord) -> None:
    again = GameRecord.from_bytes(record.to_bytes())
    assert again == record
    assert state_hash(again.replay()) == record.hashes[-1]
    assert len(record.hashes) == len(record.entropy) + len(record.actions)


def test_a_record_walks_once_as_chance_events_and_whole_turns(record: GameRecord) -> None:
    steps = record.steps()
    turns = [what for what, _ in steps if isinstance(what, Turn)]
    assert len(steps) - len(turns) == len(record.entropy)
    assert all(t.over for t in turns)
    assert [a for t in turns for a in t.actions] == list(record.actions)
    assert state_hash(steps[-1][1]) == record.hashes[-1]
    # each turn starts where the step before it left the game
    for (_, before), (what, after) in itertools.pairwise(steps):
        if isinstance(what, Turn):
            assert what.before is before and what.after is after


def test_a_record_ending_in_a_turn_under_way_ends_with_that_turn(record: GameRecord) -> None:
    steps = record.steps()
    last = max(i for i, (what, _) in enumerate(steps) if isinstance(what, Turn))
    whole: Turn = steps[last][0]  # type: ignore[assignment]
    played = sum(len(what.actions) for what, _ in steps[:last] if isinstance(what, Turn))
    drawn = sum(1 for what, _ in steps[:last] if not isinstance(what, Turn))
    cut = dataclasses.replace(record, entropy=record.entropy[:drawn],
                              actions=record.actions[:played + 1],
                              hashes=record.hashes[:played + drawn + 1])
    *_, (what, state) = cut.steps()
    assert isinstance(what, Turn) and not what.over and what.actions == whole.actions[:1]
    assert state is what.after


def test_a_changed_entropy_is_named_by_its_step(record: GameRecord) -> None:
    entropy = (bytes(32), *record.entropy[1:])
    with pytest.raises(RecordError, match=r"step 0 \(chance event 0\): state hash differs"):
        dataclasses.replace(record, entropy=entropy).replay()


def test_a_record_cut_short_or_with_extra_entries_is_refused(record: GameRecord) -> None:
    with pytest.raises(RecordError, match="ends early"):
        dataclasses.replace(record, actions=record.actions[:-1]).replay()
    with pytest.raises(RecordError, match="entries after its last step"):
        dataclasses.replace(record, entropy=(*record.entropy, bytes(32))).replay()


def test_an_illegal_action_in_a_record_is_reported(record: GameRecord) -> None:
    actions = (record.actions[1], *record.actions[1:])  # the first action twice
    with pytest.raises(RecordError, match=r"^step \d+: "):
        dataclasses.replace(record, actions=actions).replay()


@pytest.mark.parametrize("data", [b"", b"\xc1", b"\x95\x02\x90\x90\x90\x90",
                                  b"\x95\x01\x90\x90\x90\x90"])
def test_malformed_bytes_are_not_a_record(data: bytes) -> None:
    with pytest.raises(RecordError):
        GameRecord.from_bytes(data)
