"""An outsider's verifier, written from docs/protocol.md alone (plain msgpack, hashlib, zlib, the
``cryptography`` package and the rules engine ``p2p_burgundy`` for the turns, none of
``p2p_burgundy.net``). :func:`check_seats` checks the file format, every signature, entry id
and link, the START (its game id and acceptances), every reveal against its commitment, and
the entropy of every chance event; :func:`replay` follows "How the game advances" with the
whole file in hand: the hand-overs (SEAT_TO_BOT, RESIGN, the voters, SEEN passing a step),
every chance event, every turn (the mover's first legal TURN, or the stand-in's, computed by
the strategy of "The stand-in"), and the verdict of every entry by the table of "A verdict for
every entry" (payloads of the wrong shape and the secret set-up's choices aside: the games
here have neither). Both must agree with ``burgundy verify`` on honest and tampered files, seat by
seat: a defect of the file itself (a torn tail, a bad signature, a broken link) belongs to
nobody, a void entry that fails to its author only. (The draws have their own independent
implementation in ``test_draws.py``, whose stream this one reads the stand-in's ties with.)
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from dataclasses import dataclass, field
from typing import Any

import msgpack
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from p2p_burgundy import (
    END_TURN,
    Action,
    ChooseEstate,
    EngineError,
    GameConfig,
    GameState,
    action_from_tree,
    apply,
    draw_chance,
    legal_actions,
    new_game,
    state_hash,
)
from p2p_burgundy.net.audit import audit_file
from p2p_burgundy.net.inmemory import Table, random_turn
from p2p_burgundy.net.log import Kind, sign_entry
from p2p_burgundy.net.report import ChanceReport, TurnReport

from .harness import canonical, forge_chain
from .test_draws import EVERY_MODULE, ReferenceStream

MAGIC = b"P2PBURGUNDY-GAME\x00\x03"


def label(purpose: str) -> bytes:
    return b"p2p-burgundy/v1/" + purpose.encode() + b"\x00"


def signed(key: bytes, domain: bytes, message: bytes, signature: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(
            signature, b"p2p-burgundy/v1\x00" + bytes([len(domain)]) + domain + message)
    except InvalidSignature:
        return False
    return True


def check(data: bytes) -> tuple[list[str], dict[int, bytes]]:
    """The defects of the file found, and each chance event's entropy (events every seat
    revealed for)."""
    defects, _, entropy = check_seats(data)
    return defects, entropy


def read_records(data: bytes) -> tuple[list[bytes], bool]:
    """The whole records of a game file after its magic, and whether a torn tail follows."""
    at, records = len(MAGIC), []
    while at + 8 <= len(data):
        length, crc = struct.unpack_from(">II", data, at)
        record = data[at + 8:at + 8 + length]
        if len(record) != length or zlib.crc32(record) != crc:
            return records, True
        records.append(record)
        at += 8 + length
    return records, at != len(data)


@dataclass
class Entries:
    """The signed entries of a file: the first body of each (author, seq) in file order, the
    authors that signed a second body for a slot (and that slot), and the records that do
    not verify."""

    by_slot: dict[tuple[bytes, int], tuple[bytes, bytes, int, list[Any], bytes]]
    forks: dict[bytes, int]
    unsigned: int


def signed_entries(records: list[bytes]) -> Entries:
    by_slot: dict[tuple[bytes, int], tuple[bytes, bytes, int, list[Any], bytes]] = {}
    forks: dict[bytes, int] = {}
    unsigned = 0
    for record in records:
        body, signature = msgpack.unpackb(record)
        version, game_id, author, seq, prev, kind, payload = msgpack.unpackb(body)
        if version != 3 or not signed(author, b"entry", body, signature):
            unsigned += 1
            continue
        entry_id = hashlib.sha256(label("entry-id") + body).digest()
        held = by_slot.setdefault((author, seq), (entry_id, prev, kind, payload, game_id))
        if held[0] != entry_id:
            forks[author] = min(seq, forks.get(author, seq))
    return Entries(by_slot, forks, unsigned)


def check_seats(data: bytes) -> tuple[list[str], set[int], dict[int, bytes]]:
    """The defects of the file itself, the seats whose own entries break a rule it checks
    (a reveal that does not hash to the author's commitment), and each chance event's
    entropy."""
    defects: list[str] = []
    misbehaved: set[int] = set()
    if not data.startswith(MAGIC):
        return ["magic"], misbehaved, {}
    records, torn = read_records(data)
    if torn:
        defects.append("tail")
    signed_ = signed_entries(records)
    defects += ["signature"] * signed_.unsigned
    entries = signed_.by_slot
    start = next(e for e in entries.values() if e[2] == 1)
    table_id, config, roster, acceptances = start[3]
    game_id = start[4]
    digest = hashlib.sha256(label("start") + msgpack.packb(
        [table_id, config, [seat[:4] for seat in roster]])).digest()
    if digest[:16] != game_id:
        defects.append("game id")
    for seat, acceptance in zip(roster, acceptances, strict=True):
        if not signed(seat[0], b"start", digest + seat[4], acceptance):
            defects.append("acceptance")
    for (author, seq), (_, prev, _, _, gid) in entries.items():
        if gid != game_id or (seq and entries.get((author, seq - 1), (None,))[0] != prev):
            defects.append("link")
    reveals: dict[int, dict[int, bytes]] = {}
    for i, seat in enumerate(roster):
        for (author, _), (_, _, kind, payload, _) in sorted(entries.items()):
            if author == seat[0] and kind == 2:
                k, link = payload
                if not hashes_to(link, k, seat[4]):
                    misbehaved.add(i)
                    continue
                reveals.setdefault(k, {})[i] = link
    entropy = {k: entropy_of(game_id, k, [have[i] for i in sorted(have)])
               for k, have in reveals.items() if len(have) == len(roster)}
    return defects, misbehaved, entropy


def hashes_to(link: bytes, k: int, commitment: bytes) -> bool:
    for _ in range(k + 1):
        link = hashlib.sha256(label("chain") + link).digest()
    return link == commitment


def entropy_of(game_id: bytes, k: int, links: list[bytes]) -> bytes:
    return hashlib.sha256(label("entropy") + bytes([len(game_id)]) + game_id
                          + k.to_bytes(4, "big") + b"".join(links)).digest()


# --- The game, step by step ("How the game advances", "SEAT_TO_BOT", "The stand-in") -----------

REVEAL, TURN, CHAT, SEAT_TO_BOT, RESIGN, END, SEEN = 2, 3, 4, 5, 8, 9, 10
NEVER = 1 << 62


@dataclass(frozen=True)
class Mark:
    """Where step ``step`` stands: its chance event (or the last one before it), the turns
    resolved before it, and whether it is a chance event."""

    step: int
    event: int
    turns: int
    chance: bool

    def passes(self, kind: int, payload: list[Any]) -> bool:
        if kind == REVEAL:
            return bool(payload[0] > self.event)
        if kind == TURN:
            return bool(payload[0] >= self.turns if self.chance else payload[0] > self.turns)
        return kind == SEEN and payload[0] > self.step


@dataclass
class Game:
    """What the replay established: each step as (what, index, state hash after it), each
    turn as (number, mover, the seq of the entry that played it or None for the stand-in),
    the hand-overs (seat -> step), whether the game is over, and the seats whose own
    entries fail."""

    steps: list[tuple[str, int, bytes]] = field(default_factory=list)
    turns: list[tuple[int, int, int | None]] = field(default_factory=list)
    handed: dict[int, int] = field(default_factory=dict)
    over: bool = False
    misbehaved: set[int] = field(default_factory=set)


def standin(state: GameState, entropy: bytes, t: int) -> list[Action]:
    """The stand-in's turn ``t``: the legal action leaving the seat the most victory points,
    ties broken by the draws stream over SHA-256(label || entropy || u32be(t))."""
    seat = state.to_move
    stream = ReferenceStream(hashlib.sha256(label("stand-in") + entropy
                                            + t.to_bytes(4, "big")).digest())
    actions: list[Action] = []
    while True:
        options = [a for a in legal_actions(state) if a != END_TURN]
        if not options or len(actions) == 63:
            options = [END_TURN]
        afters = [(a, apply(state, a)) for a in options]
        top = max(after.players[seat].vp for _, after in afters)
        best = [(a, after) for a, after in afters if after.players[seat].vp == top]
        action, state = best[stream.below(len(best))] if len(best) > 1 else best[0]
        actions.append(action)
        if action == END_TURN or isinstance(action, ChooseEstate):
            return actions


def played(state: GameState, actions: list[Any]) -> GameState | None:
    """The state after a TURN's actions, or None if the rules refuse them."""
    try:
        turn = [action_from_tree(a) for a in actions]
        if not turn or turn[-1] != END_TURN or END_TURN in turn[:-1]:
            return None
        for action in turn:
            state = apply(state, action)
    except EngineError:
        return None
    return state


class Replay:
    """One pass over a game file's entries, step by step, holding the whole file: a voter
    with no agreement that counts did not agree."""

    def __init__(self, data: bytes) -> None:
        records, _ = read_records(data)
        signed_ = signed_entries(records)
        entries = signed_.by_slot
        start = next(e for e in entries.values() if e[2] == 1)
        _, config_tree, self.roster, _ = start[3]
        self.game_id = start[4]
        self.keys = [seat[0] for seat in self.roster]
        self.chains: list[list[tuple[int, list[Any]]]] = []
        for key in self.keys:
            chain: list[tuple[int, list[Any]]] = []
            last = signed_.forks.get(key, NEVER)  # nothing after a slot signed twice counts
            while (key, len(chain)) in entries and len(chain) <= last:
                chain.append(entries[(key, len(chain))][2:4])
            self.chains.append(chain)
        seats = range(len(self.keys))
        self.signoff = [min(self._first(s, RESIGN), self._first(s, END)) for s in seats]
        self.say_ends = [min(self.signoff[s], signed_.forks.get(self.keys[s], NEVER))
                         for s in seats]
        self.forked = {self.keys.index(key) for key in signed_.forks}
        self.game = Game()
        self.state = new_game(GameConfig.from_tree(config_tree))
        self.marks: list[Mark] = []
        self.used: set[tuple[int, int]] = set()  # (seat, seq) of the entries that resolved a step
        self.entropy = b""  # the last chance event's, for the stand-in

    def _first(self, seat: int, kind: int) -> int:
        return next((q for q, (k, _) in enumerate(self.chains[seat]) if k == kind), NEVER)

    def first_pass(self, voter: int) -> int:
        return next((q for q, e in enumerate(self.chains[voter]) if self.marks[-1].passes(*e)),
                    NEVER)

    def voters(self) -> list[int]:
        return [v for v in range(len(self.keys)) if v not in self.game.handed
                and (self.say_ends[v] == NEVER or self.first_pass(v) < self.say_ends[v])]

    def agrees(self, voter: int, seat: int, voters: list[int]) -> bool:
        step = self.marks[-1].step
        seq = next((q for q, (k, p) in enumerate(self.chains[voter])
                    if k == SEAT_TO_BOT and p == [seat, step]), None)
        return (seq is not None and voter in voters and seq < self.first_pass(voter)
                and (step == 0 or any(self.marks[step - 1].passes(*e)
                                      for e in self.chains[voter][:seq])))

    def input_of(self, seat: int) -> tuple[int, Any] | None:
        """(seq, link) of the seat's reveal for the chance event, or (seq, state after) of
        its first TURN for the turn that the rules accept, before any RESIGN or END."""
        chance = self.state.chance
        for q, (k, p) in enumerate(self.chains[seat][:self.signoff[seat]]):
            if chance and k == REVEAL and p[0] == chance.index and hashes_to(
                    p[1], p[0], self.roster[seat][4]):
                return q, p[1]
            if not chance and k == TURN and p[0] == len(self.game.turns):
                after = played(self.state, p[1])
                if after is not None:
                    return q, after
        return None

    def step(self) -> bool:
        """Hand over or resolve the step the game is at; False when the file holds no more
        of the game."""
        game, state, n = self.game, self.state, len(self.keys)
        step, chance, mover = len(game.steps), state.chance, state.to_move
        events = sum(what == "chance" for what, _, _ in game.steps)
        if len(self.marks) == step:
            self.marks.append(Mark(step, chance.index if chance else events - 1,
                                   len(game.turns), chance is not None))
        needed = ([s for s in range(n) if s not in game.handed] if chance
                  else [] if mover in game.handed else [mover])
        voters = self.voters()
        if any(self.signoff[x] == self._first(x, END) < NEVER and self.input_of(x) is None
               and all(o in game.handed for o in range(n) if o != x) for x in needed):
            game.over = True  # the only player left ended the game here
            return False
        consent = {x for x in needed if self.signoff[x] < NEVER and self.input_of(x) is None}
        handing: set[int] = set()
        while more := {x for x in needed if x not in consent | handing
                       and any(self.agrees(v, x, voters) for v in voters if v != x)
                       and all(self.agrees(v, x, voters) for v in voters
                               if v != x and v not in handing)}:
            handing |= more
        if consent | handing:
            game.handed.update(dict.fromkeys(consent | handing, step))
            return True
        inputs = {x: self.input_of(x) for x in needed}
        found = {x: i for x, i in inputs.items() if i is not None}
        if len(found) < len(inputs):
            return False
        if chance:
            self.entropy = entropy_of(self.game_id, chance.index,
                                      [found[x][1] for x in sorted(found)])
            self.state, _ = draw_chance(state, self.entropy)
            self.used |= {(x, q) for x, (q, _) in found.items()}
            game.steps.append(("chance", chance.index, state_hash(self.state)))
            return True
        assert mover is not None
        t = len(game.turns)
        if mover in game.handed:
            for action in standin(state, self.entropy, t):
                state = apply(state, action)
            self.state = state
            game.turns.append((t, mover, None))
        else:
            q, self.state = found[mover]
            self.used.add((mover, q))
            game.turns.append((t, mover, q))
        game.steps.append(("turn", t, state_hash(self.state)))
        return True


def replay(data: bytes) -> Game:
    """Follow the game of a file and judge every entry."""
    replay = Replay(data)
    while not replay.state.is_over and replay.step():
        pass
    game = replay.game
    game.over = game.over or replay.state.is_over
    game.misbehaved = judge(game, replay.chains, replay.marks, replay.used, replay.signoff,
                            replay.roster) | replay.forked
    return game


def judge(game: Game, chains: list[list[tuple[int, list[Any]]]], marks: list[Mark],
          used: set[tuple[int, int]], signoff: list[int], roster: list[Any]) -> set[int]:
    """The seats with an entry void for a reason that fails ("A verdict for every entry")."""
    out: set[int] = set()
    events = {index for what, index, _ in game.steps if what == "chance"}
    for seat, chain in enumerate(chains):
        handed = marks[game.handed[seat]] if seat in game.handed else None
        reveals: set[int] = set()
        agreements: set[tuple[int, int]] = set()
        for q, (kind, p) in enumerate(chain):
            if kind == 1 or kind == CHAT:
                continue
            if q > signoff[seat]:
                out.add(seat)  # anything but chat after RESIGN or END
            elif kind == REVEAL:
                if not hashes_to(p[1], p[0], roster[seat][4]) or p[0] in reveals:
                    out.add(seat)
                reveals.add(p[0])
                late = handed is not None and p[0] >= handed.event + (not handed.chance)
                if game.over and p[0] not in events and not late:
                    out.add(seat)  # never needed
            elif kind == TURN and (seat, q) not in used:
                late = handed is not None and p[0] >= handed.turns
                if not late and (p[0] < len(game.turns) or game.over):
                    out.add(seat)  # illegal, a second one, not its own, or never reached
            elif kind == SEAT_TO_BOT:
                x, step = p
                if x == seat or not 0 <= x < len(chains) or (x, step) in agreements or (
                        game.over and step >= len(game.steps)):
                    out.add(seat)
                agreements.add((x, step))
    return out


def game_file(records: list[bytes]) -> bytes:
    return MAGIC + b"".join(struct.pack(">II", len(r), zlib.crc32(r)) + r for r in records)


def test_the_outsider_agrees_with_verify_on_an_honest_game() -> None:
    table = Table(3, seed=5)
    table.play()
    data = game_file(canonical(table))
    defects, entropy = check(data)
    report = audit_file(data)
    assert defects == [] and report.ok
    assert entropy == {step.index: step.entropy for step in report.chance}
    assert len(entropy) == 31


def test_the_outsider_agrees_with_verify_on_tampered_files() -> None:
    table = Table(2, seed=5)
    table.play()
    records = canonical(table)
    cut = game_file(records)[:-3]
    assert "tail" in check(cut)[0] and not audit_file(cut).ok
    forged = bytearray(records[5])
    forged[-1] ^= 1  # the signature's last byte
    data = game_file([*records[:5], bytes(forged), *records[6:]])
    assert "signature" in check(data)[0] and not audit_file(data).ok
    assert audit_file(data).exit_code == 2  # the file is broken: nobody's misbehaviour


def test_the_outsider_agrees_with_verify_seat_by_seat() -> None:
    """Bob signs, with his own key and the chain re-linked, a reveal that does not hash to
    his commitment: both name Bob, and only Bob; the honest file names nobody."""
    table = Table(2, seed=5)
    table.play()
    honest = game_file(canonical(table))
    _, seats, _ = check_seats(honest)
    report = audit_file(honest)
    assert seats == set() and [v.honest for v in report.verdicts] == [True, True]
    bob = table.sessions[0].chains[1]
    forged = forge_chain(table, 1, len(bob), Kind.REVEAL, [40, bytes(32)])
    data = game_file(forged)
    defects, seats, _ = check_seats(data)
    report = audit_file(data)
    assert defects == [] and not report.file_problems
    assert seats == {1} == {v.seat for v in report.verdicts if not v.honest}
    assert report.exit_code == 1


# --- The whole game, seat by seat -----------------------------------------------------------------


def verify_says(data: bytes) -> tuple[list[tuple[str, int, bytes]],
                                      list[tuple[int, int, int | None]], dict[int, int], set[int]]:
    """What ``burgundy verify`` found: the steps, the turns, the hand-overs and the seats
    whose record does not hold."""
    report = audit_file(data)
    steps = [("chance", s.index, s.state_hash) if isinstance(s, ChanceReport)
             else ("turn", s.turn, s.state_hash) for s in report.steps]
    turns = [(s.turn, s.seat, s.seq) for s in report.steps if isinstance(s, TurnReport)]
    return steps, turns, dict(report.forfeits), {v.seat for v in report.verdicts
                                                  if not v.honest}


def outsider_says(data: bytes) -> tuple[list[tuple[str, int, bytes]],
                                        list[tuple[int, int, int | None]], dict[int, int],
                                        set[int]]:
    game = replay(data)
    _, seats, _ = check_seats(data)
    return game.steps, game.turns, game.handed, game.misbehaved | seats


@pytest.fixture(scope="module")
def handed_over() -> Table:
    """Three players; Cid leaves and is handed over, the stand-in plays him to the end."""
    table = Table(3, seed=8)
    table.play(turns=14)
    table.leave(2)
    table.hand_over(2)
    table.play()
    assert table.sessions[0].forfeits and table.sessions[0].over
    return table


def appended(table: Table, seat: int, *contents: tuple[Kind, list[Any]]) -> list[bytes]:
    """The game's records after ``seat`` signed ``contents`` at the end of its chain."""
    chains = [list(chain) for chain in table.sessions[0].chains]
    chain = chains[seat]
    for kind, payload in contents:
        chain.append(sign_entry(table.ids[seat], table.game_id, len(chain), chain[-1].id,
                                kind, payload))
    start = table.sessions[0].start.entry
    return [start.raw] + [e.raw for c in chains for e in c if e.body != start.body]


def test_the_outsider_follows_hand_overs_seen_and_stand_in_turns_as_verify_does(
        handed_over: Table) -> None:
    data = game_file(canonical(handed_over))
    said = outsider_says(data)
    assert said == verify_says(data)
    steps, turns, handed, misbehaved = said
    assert handed == {2: handed_over.sessions[0].forfeits[2]} and misbehaved == set()
    assert any(seq is None for _, seat, seq in turns if seat == 2)  # the stand-in's turns
    assert any(e.kind == Kind.SEEN for chain in handed_over.sessions[0].chains for e in chain)
    assert replay(data).over and len(steps) == len(handed_over.sessions[0].history)


def test_the_outsider_follows_a_game_with_every_module_as_verify_does() -> None:
    """The module games' draws and the stand-in's module actions, with a hand-over."""
    table = Table(2, seed=3, config=EVERY_MODULE)
    table.play(turns=12)
    table.leave(1)
    table.hand_over(1)
    table.play()
    data = game_file(canonical(table))
    said = outsider_says(data)
    assert said == verify_says(data) and 1 in said[2] and said[3] == set()
    assert replay(data).over


def test_the_outsider_agrees_with_verify_on_late_entries_of_a_seat_handed_over() -> None:
    """Bob's peer signed its turn or reveal, which never reached Ann before she handed him
    over; it is in the file all the same: void, and it passes."""
    table = Table(2, seed=4)
    table.play(turns=9)
    table.leave(1)
    step = table.sessions[0].step
    table.hand_over(1)
    late = table.sessions[1]
    if late.my_turn:
        late.submit_turn(random_turn(late.state, table.bots[1]))  # signed, never sent
    table.play()
    held = len(table.sessions[0].chains[1])
    data = game_file(canonical(table) + [e.raw for e in late.chains[1][held:]])
    assert len(late.chains[1]) > held
    said = outsider_says(data)
    assert said == verify_says(data) and said[2] == {1: step} and said[3] == set()
    assert any(v.seat == 1 and not v.fails for v in audit_file(data).void)


@pytest.mark.parametrize("tamper", [
    "a turn already played", "a turn for the stand-in", "signing after resigning",
    "equivocation", "a second agreement", "an agreement beyond the end",
    "a reveal off the chain"])
def test_the_outsider_names_the_same_seats_as_verify_on_tampered_files(
        handed_over: Table, tamper: str) -> None:
    table = handed_over
    standin_turn = next(t for t, seat, seq in verify_says(game_file(canonical(table)))[1]
                        if seq is None)
    end = len(table.sessions[0].history)
    records = {
        "a turn already played": lambda: appended(table, 0, (Kind.TURN, [0, [[10]]])),
        "a turn for the stand-in": lambda: appended(table, 1, (Kind.TURN, [standin_turn,
                                                                         [[10]]])),
        "signing after resigning": lambda: appended(table, 1, (Kind.RESIGN, []),
                                                    (Kind.SEEN, [end])),
        "equivocation": lambda: [*canonical(table), sign_entry(
            table.ids[0], table.game_id, 1, table.sessions[0].chains[0][0].id, Kind.CHAT,
            ["another body"]).raw],
        "a second agreement": lambda: appended(table, 0, (Kind.SEAT_TO_BOT, [1, 3]),
                                               (Kind.SEAT_TO_BOT, [1, 3])),
        "an agreement beyond the end": lambda: appended(table, 1, (Kind.SEAT_TO_BOT,
                                                                   [0, end + 5])),
        "a reveal off the chain": lambda: appended(table, 0, (Kind.REVEAL, [40, bytes(32)])),
    }[tamper]()
    data = game_file(records)
    steps, turns, handed, misbehaved = outsider_says(data)
    assert (steps, turns, handed, misbehaved) == verify_says(data)
    assert len(misbehaved) == 1 and audit_file(data).exit_code == 1
