"""The experts' set-up over the protocol: open choices are turns; secret choices are committed
by hash, revealed only once every seat has committed, and applied only once every reveal is in
and matches its commitment.

A cheating player is simulated by signing entries with its own key on top of its chain
(:class:`Forger`), as a modified client could; the honest peers must refuse what it cannot
do: commit twice, reveal something else, reveal first, copy someone's commitment.
"""

from __future__ import annotations

import pytest

from p2p_burgundy import (
    ChooseEstate,
    GameConfig,
    Setup,
    Step,
    TakeWorkers,
    action_from_tree,
    legal_actions,
    state_hash,
)
from p2p_burgundy.estate import estate
from p2p_burgundy.net import wire
from p2p_burgundy.net.choice import choice_digest
from p2p_burgundy.net.errors import LocalProtocolError
from p2p_burgundy.net.events import EntryRejected, TurnApplied, Waiting
from p2p_burgundy.net.inmemory import Table
from p2p_burgundy.net.log import Entry, Kind, decode_entry, sign_entry
from p2p_burgundy.net.messages import Tag
from p2p_burgundy.net.session import Session
from p2p_burgundy.tiles import Colour

OPEN = Setup.EXPERTS_OPEN
SECRET = Setup.EXPERTS_SECRET


def table(players: int, setup: Setup, seed: int = 1) -> Table:
    return Table(players, seed=seed, config=GameConfig(players, setup=setup))


def dealt_table(players: int, setup: Setup, seed: int = 1) -> Table:
    """A table whose bots wait, pumped until every peer sees the deal."""
    t = table(players, setup, seed)
    t.paused = True
    t.pump()
    for _ in range(3):
        t.tick()
    for s in t.sessions:
        assert s.state.chance is None and s.state.step == Step.CHOOSE_ESTATE
    return t


def choice_entries(t: Table, peer: int, seat: int) -> list[Entry]:
    return [e for e in t.sessions[peer].chains[seat]
            if e.kind in (Kind.CHOICE_COMMIT, Kind.CHOICE_REVEAL)]


def first_choice(session: Session) -> ChooseEstate:
    return legal_actions(session.choice_state())[0]  # type: ignore[return-value]


def rejections(t: Table, peer: int) -> list[EntryRejected]:
    return t.of_type(peer, EntryRejected)


class Forger:
    """Signs entries for ``seat`` on top of its chain as peer ``peer`` holds it, and hands
    them straight to the honest peers (a modified client)."""

    def __init__(self, t: Table, seat: int, peers: list[int]) -> None:
        self.t, self.seat, self.peers = t, seat, peers
        self.chain = list(t.sessions[peers[0]].chains[seat])

    def send(self, kind: Kind, payload: list) -> Entry:
        prev = self.chain[-1].id if self.chain else b""
        entry = sign_entry(self.t.ids[self.seat], self.t.game_id, len(self.chain), prev, kind,
                           payload)
        self.chain.append(entry)
        for i in self.peers:
            self.t.sessions[i].receive_entry(entry.raw)
            self.t.flush(i)
        self.t.pump()
        return entry


# --- whole games ---------------------------------------------------------------------------------

@pytest.mark.slow
def test_an_open_experts_game_plays_to_the_end_with_choices_as_turns():
    t = table(3, OPEN, seed=4)
    t.play()
    assert len(set(t.final_hashes())) == 1
    state = t.sessions[0].state
    assert state.is_over
    applied = t.of_type(0, TurnApplied)[:3]
    assert all(len(e.actions) == 1 and isinstance(e.actions[0], ChooseEstate) for e in applied)
    assert [e.turn for e in applied] == [0, 1, 2]
    assert all(choice_entries(t, 0, seat) == [] for seat in range(3))
    assert not any(rejections(t, i) for i in range(3))


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_a_secret_experts_game_plays_to_the_end(players):
    t = table(players, SECRET, seed=players)
    t.play()
    assert len(set(t.final_hashes())) == 1 and t.sessions[0].state.is_over
    for seat in range(players):
        kinds = [e.kind for e in choice_entries(t, 0, seat)]
        assert kinds == [Kind.CHOICE_COMMIT, Kind.CHOICE_REVEAL]
        turns = [e.payload[0] for e in t.sessions[0].chains[seat] if e.kind == Kind.TURN]
        assert min(turns) >= players  # turns 0..players-1 are the secret choices
    applied = t.of_type(0, TurnApplied)[:players]
    order = [e.seat for e in applied]
    assert [e.turn for e in applied] == list(range(players))
    assert all(isinstance(e.actions[0], ChooseEstate) for e in applied)
    assert sorted(order) == list(range(players))
    assert not any(rejections(t, i) for i in range(players))


# --- secrecy --------------------------------------------------------------------------------------

def test_nobody_reveals_before_every_seat_has_committed():
    t = dealt_table(3, SECRET)
    for seat in (0, 1):
        s = t.sessions[seat]
        assert s.choice_due and not s.my_turn
        s.submit_choice(first_choice(s))
        t.flush(seat)
        t.pump()
        assert not any(e.kind == Kind.CHOICE_REVEAL
                       for i in range(3) for e in choice_entries(t, 0, i))
        assert t.sessions[2].waiting_for() == Waiting("choice", 0, tuple(range(seat + 1, 3)))
    assert not t.sessions[0].choice_due
    t.sessions[2].submit_choice(first_choice(t.sessions[2]))
    t.flush(2)
    t.pump()
    for i in range(3):
        assert [e.kind for e in choice_entries(t, 0, i)] == [Kind.CHOICE_COMMIT,
                                                              Kind.CHOICE_REVEAL]
        assert t.sessions[i].turn_number == 3
        assert t.sessions[i].state.step == Step.TURN  # phase A is under way
        assert not any(t.sessions[i].state.offers)
    assert len(set(t.final_hashes())) == 1


def _drop_reveals_of(seat: int):
    def link(source: int, _dest: int, data: bytes) -> bytes | None:
        tag, fields = wire.decode_message(data)
        entry = decode_entry(fields[0]) if tag == Tag.ENTRY else None  # type: ignore[arg-type]
        if source == seat and entry is not None and entry.kind == Kind.CHOICE_REVEAL:
            return None
        return data
    return link


def test_choices_are_applied_only_once_every_reveal_is_in():
    t = dealt_table(3, SECRET)
    t.filter = _drop_reveals_of(2)
    before = state_hash(t.sessions[0].state)
    for seat in range(3):
        t.sessions[seat].submit_choice(first_choice(t.sessions[seat]))
        t.flush(seat)
    t.pump()
    s = t.sessions[0]
    assert [e.kind for e in choice_entries(t, 0, 0)] == [Kind.CHOICE_COMMIT, Kind.CHOICE_REVEAL]
    assert [e.kind for e in choice_entries(t, 0, 2)] == [Kind.CHOICE_COMMIT]
    assert s.waiting_for() == Waiting("choice reveal", 0, (2,))
    assert s.turn_number == 0 and state_hash(s.state) == before  # nothing applied yet
    t.filter = None
    t.tick()  # anti-entropy fetches the dropped reveal
    assert s.turn_number == 3 and len(set(t.final_hashes())) == 1


def test_a_player_cannot_change_its_choice_after_others_reveal():
    t = dealt_table(3, SECRET)
    t.offline = {1}  # Bob's own client is replaced by a forger from here on
    bob = Forger(t, 1, peers=[0, 2])
    view = t.sessions[0].state
    offers = view.offers[1]
    first = ChooseEstate(0, estate(offers[0]).dark_green_spaces[0])
    other = ChooseEstate(1, estate(offers[1]).dark_green_spaces[0])
    salt = bytes(range(16))
    bob.send(Kind.CHOICE_COMMIT, [choice_digest(t.game_id, 1, first, salt)])
    for seat in (0, 2):
        t.sessions[seat].submit_choice(first_choice(t.sessions[seat]))
        t.flush(seat)
    t.pump()
    # Anna and Cid saw every commitment and revealed; Bob now knows their choices.
    assert all(len(choice_entries(t, 0, seat)) == 2 for seat in (0, 2))
    anna = t.sessions[0]
    waiting = anna.waiting_for()
    assert waiting == Waiting("choice reveal", 0, (1,))
    before = state_hash(anna.state)

    bob.send(Kind.CHOICE_COMMIT, [choice_digest(t.game_id, 1, other, salt)])
    bob.send(Kind.CHOICE_REVEAL, [other.to_tree(), salt])
    for peer in (0, 2):
        reasons = [r.reason for r in rejections(t, peer)]
        assert reasons == [
            "Bob: a second choice commitment (the first one stands)",
            "Bob: the revealed choice ChooseEstate(side=1, space="
            f"{other.space}) does not match the author's commitment",
        ]
        assert all(r.seat == 1 for r in rejections(t, peer))
    assert state_hash(anna.state) == before and anna.waiting_for() == waiting

    bob.send(Kind.CHOICE_REVEAL, [first.to_tree(), salt])  # the committed choice: it counts
    assert anna.turn_number == 3
    assert anna.state.boards[1].id == offers[0]
    assert state_hash(anna.state) == state_hash(t.sessions[2].state)


def test_a_reveal_before_the_commitment_is_rejected():
    t = dealt_table(2, SECRET)
    t.offline = {1}
    bob = Forger(t, 1, peers=[0])
    choice = ChooseEstate(0, estate(t.sessions[0].state.offers[1][0]).dark_green_spaces[0])
    bob.send(Kind.CHOICE_REVEAL, [choice.to_tree(), bytes(16)])
    assert [r.reason for r in rejections(t, 0)] == [
        "Bob: a choice reveal before the author's commitment"]
    assert t.sessions[0].waiting_for() == Waiting("choice", 0, (0, 1))


def test_copying_another_players_commitment_gains_nothing():
    t = dealt_table(2, SECRET)
    t.offline = {1}
    bob = Forger(t, 1, peers=[0])
    anna = t.sessions[0]
    anna.submit_choice(first_choice(anna))
    t.flush(0)
    copied = next(e for e in choice_entries(t, 0, 0) if e.kind == Kind.CHOICE_COMMIT)
    bob.send(Kind.CHOICE_COMMIT, list(copied.payload))
    reveal = next(e for e in choice_entries(t, 0, 0) if e.kind == Kind.CHOICE_REVEAL)
    bob.send(Kind.CHOICE_REVEAL, list(reveal.payload))  # Anna's choice and salt
    assert [r.reason for r in rejections(t, 0)] == [
        f"Bob: the revealed choice {action_from_tree(reveal.payload[0])!r} "
        "does not match the author's commitment"]
    assert anna.turn_number == 0  # the seat is bound into the digest


def test_choice_entries_are_rejected_where_choices_are_not_secret():
    t = dealt_table(2, OPEN)
    t.offline = {1}
    bob = Forger(t, 1, peers=[0])
    bob.send(Kind.CHOICE_COMMIT, [bytes(32)])
    assert [r.reason for r in rejections(t, 0)] == [
        "Bob: this table makes no secret set-up choices"]


# --- open choices: the seat to move, a legal space ------------------------------------------------

def test_open_choices_by_the_wrong_seat_or_on_illegal_spaces_are_rejected_changing_nothing():
    t = dealt_table(3, OPEN)
    state = t.sessions[0].state
    mover = state.to_move
    observer = next(s for s in range(3) if s != mover)
    wrong = 3 - mover - observer
    t.offline = {mover, wrong}  # their clients step aside: forgers speak for them
    judge = t.sessions[observer]
    forgers = {seat: Forger(t, seat, peers=[observer]) for seat in (mover, wrong)}
    before = state_hash(judge.state)
    board = estate(state.offers[mover][0])
    beige = board.colours.index(Colour.BEIGE)
    names = ("Ann", "Bob", "Cid")
    wrong_choice = ChooseEstate(0, estate(state.offers[wrong][0]).dark_green_spaces[0])
    forgers[wrong].send(Kind.TURN, [0, [wrong_choice.to_tree()]])
    forgers[mover].send(Kind.TURN, [0, [ChooseEstate(0, beige).to_tree()]])
    forgers[mover].send(Kind.TURN, [0, [TakeWorkers().to_tree()]])
    reasons = [r.reason for r in rejections(t, observer)]
    assert reasons[0] == f"{names[wrong]}: turn 0 belongs to {names[mover]}"
    assert reasons[1].startswith(
        f"{names[mover]}: illegal turn 0: ChooseEstate(side=0, space={beige}): the start castle "
        f"goes on a dark green space of estate {board.id}")
    assert reasons[2].startswith(f"{names[mover]}: illegal turn 0: TakeWorkers(): not a "
                                 "choice now; set-up: choose your board's side")
    assert state_hash(judge.state) == before and judge.turn_number == 0
    legal = ChooseEstate(0, board.dark_green_spaces[0])
    forgers[mover].send(Kind.TURN, [0, [legal.to_tree()]])
    assert judge.turn_number == 1 and judge.state.players[mover].occupied == 1 << legal.space


def test_local_misuse_of_the_secret_set_up_is_refused_without_authoring_anything():
    t = dealt_table(2, SECRET)
    anna = t.sessions[0]
    length = len(anna.chains[0])
    assert not anna.my_turn and anna.choice_due
    with pytest.raises(LocalProtocolError, match="not our turn"):
        anna.submit_turn([first_choice(anna)])
    beige = estate(anna.state.offers[0][0]).colours.index(Colour.BEIGE)
    with pytest.raises(LocalProtocolError, match="our set-up choice is illegal"):
        anna.submit_choice(ChooseEstate(0, beige))
    with pytest.raises(LocalProtocolError, match="a set-up choice is a ChooseEstate"):
        anna.submit_choice(TakeWorkers())
    assert len(anna.chains[0]) == length
    anna.submit_choice(first_choice(anna))
    with pytest.raises(LocalProtocolError, match="no secret set-up choice is due"):
        anna.submit_choice(first_choice(anna))
    assert len(anna.chains[0]) == length + 1


def test_a_peer_restarted_from_its_game_file_still_reveals_its_committed_choice():
    t = dealt_table(2, SECRET)
    anna = t.sessions[0]
    choice = legal_actions(anna.choice_state())[-1]
    anna.submit_choice(choice)
    t.flush(0)
    t.pump()
    # Anna's process restarts: a new session from her game file (her choice is not kept).
    raws = list(t.files[0])
    restarted = Session(decode_entry(raws[0]), t.ids[0])
    for raw in raws[1:]:
        restarted.receive_entry(raw)
    restarted.take_unsaved()
    t.sessions[0] = restarted
    t.paused = False
    t.play()
    assert len(set(t.final_hashes())) == 1
    applied = next(e for e in t.of_type(1, TurnApplied) if e.seat == 0)
    assert applied.actions == (choice,)


@pytest.mark.slow
def test_a_seat_handed_to_a_bot_before_committing_is_chosen_for_by_the_stand_in():
    t = dealt_table(3, SECRET, seed=7)
    offers = t.sessions[0].state.offers[2]
    t.offline = {2}
    for seat in (0, 1):
        t.sessions[seat].agree_seat_to_bot(2)
        t.flush(seat)
    t.pump()
    assert all(2 in t.sessions[i].forfeits for i in (0, 1))
    t.paused = False
    t.play()
    assert t.sessions[0].state.is_over
    assert state_hash(t.sessions[0].state) == state_hash(t.sessions[1].state)
    applied = t.of_type(0, TurnApplied)[:3]
    assert all(isinstance(e.actions[0], ChooseEstate) for e in applied)
    assert t.sessions[0].state.boards[2].id in offers
    [chosen] = [e for e in applied if e.mover == 2]
    assert chosen.seat is None and chosen.seq is None  # the stand-in chose, signed by nobody
    assert [e.kind for e in choice_entries(t, 0, 2)] == []
    assert not any(rejections(t, i) for i in (0, 1))
