"""An outsider's verifier, written from docs/protocol.md alone (plain msgpack, hashlib, zlib, the
``cryptography`` package and the rules engine ``p2p_burgundy`` for the turns, none of
``p2p_burgundy.net``). :func:`check_seats` checks the file format, every signature, entry id
and link, the START (its game id and acceptances), every reveal against its commitment, and
the entropy of every chance event; :func:`replay` follows "How the game advances" with the
whole file in hand: the hand-overs (SEAT_TO_BOT, RESIGN, the voters, SEEN passing a step),
every chance event, every turn (the mover's first legal TURN, or the stand-in's, computed by
the strategy of "The stand-in"; a secret set-up choice from its CHOICE_REVEAL), and the verdict
of every entry by the table of "A verdict for every entry", each payload's shape checked as
"Kinds and payloads" states it. Both must agree with ``burgundy verify`` on honest and tampered
files, seat by seat: a defect of the file itself (a torn tail, a bad signature, a broken link)
belongs to nobody, a void entry that fails to its author only. (The draws have their own independent
implementation in ``test_draws.py``, whose stream this one reads the stand-in's ties with.)
"""

from __future__ import annotations

import hashlib
import itertools
import random
import re
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
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
    Setup,
    action_from_tree,
    apply,
    draw_chance,
    legal_actions,
    new_game,
    state_hash,
)
from p2p_burgundy.actions import ACTION_TYPES
from p2p_burgundy.net.audit import audit_file
from p2p_burgundy.net.inmemory import Table, random_turn
from p2p_burgundy.net.log import Kind, sign_entry
from p2p_burgundy.net.report import ChanceReport, TurnReport
from p2p_burgundy.net.tablerules import read_table_tree

from .harness import canonical, forge_chain
from .test_draws import EVERY_MODULE, ReferenceStream

MAGIC = b"P2PBURGUNDY-GAME\x00\x03"
VOID = 0  # an entry whose payload has the wrong shape for its kind: it says nothing
(START, REVEAL, TURN, CHAT, SEAT_TO_BOT, CHOICE_COMMIT, CHOICE_REVEAL, RESIGN, END,
 SEEN) = range(1, 11)  # the kinds


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


Signed = tuple[bytes, bytes, int, list[Any], bytes]
"""An entry's id, prev, kind, payload and game id."""


@dataclass
class Entries:
    """The signed entries of a file: the first body of each (author, seq) in file order, the
    authors that signed a second body for a slot (and that slot), the records that do not
    decode (an unknown kind, a payload that is no array: checked before the signature),
    those whose signature does not verify, and every body of each slot in file order."""

    by_slot: dict[tuple[bytes, int], Signed]
    forks: dict[bytes, int]
    undecodable: int
    unsigned: int
    bodies: dict[tuple[bytes, int], list[Signed]]

    def branches(self) -> list[dict[bytes, Signed]]:
        """The games the equivocations allow ("What equivocation can still do"): for each
        equivocator in seat order, the bodies of its fork slot that link to its chain before
        it, in file order; each combination, the last equivocator's varying fastest, at
        most 16."""
        choices: list[list[tuple[bytes, Signed]]] = []
        seat_of = self.seat_of
        for author, seq in sorted((fork for fork in self.forks.items() if fork[0] in seat_of),
                                  key=lambda fork: seat_of[fork[0]]):
            before = self.by_slot[(author, seq - 1)][0] if seq else b""
            choices.append([(author, body) for body in self.bodies[(author, seq)]
                            if body[1] == before])
        return [dict(combo) for combo in itertools.islice(itertools.product(*choices), 16)]

    @property
    def seat_of(self) -> dict[bytes, int]:
        start = next(e for e in self.by_slot.values() if e[2] == START)
        return {seat[0]: i for i, seat in enumerate(start[3][2])}


def signed_entries(records: list[bytes]) -> Entries:
    by_slot: dict[tuple[bytes, int], Signed] = {}
    bodies: dict[tuple[bytes, int], list[Signed]] = {}
    forks: dict[bytes, int] = {}
    undecodable = unsigned = 0
    for record in records:
        body, signature = msgpack.unpackb(record)
        version, game_id, author, seq, prev, kind, payload = msgpack.unpackb(body)
        if not (integer(kind, 1) and kind <= SEEN and isinstance(payload, list)):
            undecodable += 1
            continue
        if version != 3 or not signed(author, b"entry", body, signature):
            unsigned += 1
            continue
        entry_id = hashlib.sha256(label("entry-id") + body).digest()
        entry = (entry_id, prev, kind, payload, game_id)
        held = by_slot.setdefault((author, seq), entry)
        slot = bodies.setdefault((author, seq), [])
        if entry_id not in [body[0] for body in slot]:
            slot.append(entry)
        if held[0] != entry_id:
            forks[author] = min(seq, forks.get(author, seq))
    return Entries(by_slot, forks, undecodable, unsigned, bodies)


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
    defects += ["decode"] * signed_.undecodable + ["signature"] * signed_.unsigned
    entries = signed_.by_slot
    start = next(e for e in entries.values() if e[2] == START)
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
            if author == seat[0] and kind == REVEAL and reveal_shaped(payload):
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


# --- What each entry says ("Kinds and payloads") ------------------------------------------------

INT, LIST, PAYMENT = "int", "list", "payment"
ACTION_FIELDS: dict[int, tuple[str, ...]] = {
    1: (INT,), 2: (INT, INT), 3: (INT, INT), 4: (INT,), 5: (), 6: (INT, INT, PAYMENT),
    7: (INT,), 8: (LIST, LIST), 9: (), 10: (), 11: (INT, INT), 12: (), 13: (INT,),
    14: (INT,), 15: (INT,), 16: (INT, INT), 17: (LIST, INT), 18: (INT,), 19: (INT, INT),
    20: (INT, INT, INT), 21: (INT, INT), 22: (INT, INT),
}
"""The fields of each action tag: an integer, an array of integers, or a payment (0 or 1)."""


def integer(value: Any, low: int = 0) -> bool:
    return type(value) is int and value >= low  # msgpack's true and false are no integers


def field_shaped(shape: str, value: Any) -> bool:
    if shape == LIST:
        return isinstance(value, list) and all(type(x) is int for x in value)
    return type(value) is int and (shape == INT or value in (0, 1))


def action_shaped(action: Any) -> bool:
    """``[tag, field...]`` with a known tag and its fields."""
    if not (isinstance(action, list) and action and type(action[0]) is int
            and action[0] in ACTION_FIELDS):
        return False
    shapes = ACTION_FIELDS[action[0]]
    return len(action) == 1 + len(shapes) and all(
        field_shaped(f, v) for f, v in zip(shapes, action[1:], strict=True))


def reveal_shaped(p: list[Any]) -> bool:
    return len(p) == 2 and integer(p[0]) and isinstance(p[1], bytes) and len(p[1]) == 32


def shaped(kind: int, p: list[Any], seat: int, seq: int, host: int, players: int,
           secret: bool) -> bool:
    """Whether ``p`` is a payload of the shape its kind takes, from this seat at this seq."""
    if kind == START:
        return seat == host and seq == 0  # the game's START; no other is expected
    if kind == REVEAL:
        return reveal_shaped(p)
    if kind == TURN:
        return (len(p) == 2 and integer(p[0]) and isinstance(p[1], list)
                and 1 <= len(p[1]) <= 64 and all(action_shaped(a) for a in p[1]))
    if kind == CHAT:
        return len(p) == 1 and isinstance(p[0], str) and 1 <= len(p[0]) <= 280
    if kind == SEAT_TO_BOT:
        return (len(p) == 2 and integer(p[0]) and p[0] < players and p[0] != seat
                and integer(p[1]))
    if kind == CHOICE_COMMIT:
        return secret and len(p) == 1 and isinstance(p[0], bytes) and len(p[0]) == 32
    if kind == CHOICE_REVEAL:
        return (secret and len(p) == 2 and action_shaped(p[0]) and p[0][0] == 11
                and isinstance(p[1], bytes) and len(p[1]) == 16)
    if kind in (RESIGN, END):
        return p == []
    return kind == SEEN and len(p) == 1 and integer(p[0], 1)


def choice_digest(game_id: bytes, seat: int, choice: list[int], salt: bytes) -> bytes:
    return hashlib.sha256(label("estate-choice") + msgpack.packb([game_id, seat, choice, salt])
                          ).digest()


# --- The game, step by step ("How the game advances", "SEAT_TO_BOT", "The stand-in") -----------

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

    def __init__(self, data: bytes, taking: dict[bytes, Signed] | None = None) -> None:
        """``taking``: the body of each equivocator's fork slot this game takes (else the
        first in file order)."""
        records, _ = read_records(data)
        signed_ = signed_entries(records)
        entries = dict(signed_.by_slot)
        for author, body in (taking or {}).items():
            entries[(author, signed_.forks[author])] = body
        start = next(e for e in entries.values() if e[2] == START)
        _, config_tree, self.roster, _ = start[3]
        self.game_id = start[4]
        self.keys = [seat[0] for seat in self.roster]
        config, _ = read_table_tree(config_tree)  # the table's rules: the game reads none
        self.secret = config.setup is Setup.EXPERTS_SECRET
        host = self.keys.index(next(author for (author, _), e in entries.items() if e is start))
        self.chains: list[list[tuple[int, list[Any]]]] = []
        for seat, key in enumerate(self.keys):
            chain: list[tuple[int, list[Any]]] = []
            last = signed_.forks.get(key, NEVER)  # nothing after a slot signed twice counts
            while (key, len(chain)) in entries and len(chain) <= last:
                _, _, kind, payload, _ = entries[(key, len(chain))]
                if not shaped(kind, payload, seat, len(chain), host, len(self.keys),
                              self.secret):
                    kind = VOID  # it says nothing: it passes no step, hands nobody over
                chain.append((kind, payload))
            self.chains.append(chain)
        seats = range(len(self.keys))
        self.signoff = [min(self._first(s, RESIGN), self._first(s, END)) for s in seats]
        self.say_ends = [min(self.signoff[s], signed_.forks.get(self.keys[s], NEVER))
                         for s in seats]
        self.forked = {self.keys.index(key) for key in signed_.forks}
        self.game = Game()
        self.state = new_game(config)
        self.marks: list[Mark] = []
        self.used: set[tuple[int, int]] = set()  # (seat, seq) of the entries that resolved a step
        self.refused: set[tuple[int, int]] = set()  # set-up choices the rules refused
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

    def choosing(self) -> bool:
        """Whether the game waits for the set-up choices made in secret."""
        return self.secret and self.state.chance is None and any(
            isinstance(a, ChooseEstate) for a in legal_actions(self.state))

    def choice_of(self, seat: int) -> tuple[int, list[int]] | None:
        """(seq, choice) of the seat's first CHOICE_REVEAL that matches its first
        CHOICE_COMMIT (and that the rules did not refuse), before any RESIGN or END."""
        digest = None
        for q, (k, p) in enumerate(self.chains[seat][:self.signoff[seat]]):
            if k == CHOICE_COMMIT and digest is None:
                digest = p[0]
            elif (k == CHOICE_REVEAL and digest is not None and (seat, q) not in self.refused
                  and choice_digest(self.game_id, seat, p[0], p[1]) == digest):
                return q, p[0]
        return None

    def input_of(self, seat: int) -> tuple[int, Any] | None:
        """(seq, choice) of the seat's secret set-up choice while the game waits for those,
        (seq, link) of its reveal for the chance event, or (seq, state after) of its first
        TURN for the turn that the rules accept, before any RESIGN or END."""
        if self.choosing():
            return self.choice_of(seat)
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
        choosing = self.choosing()
        needed = ([s for s in range(n) if s not in game.handed] if chance or choosing
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
        elif choosing:
            q, choice = found[mover]
            try:
                self.state = apply(state, action_from_tree(choice))
            except EngineError:
                self.refused.add((mover, q))  # bound by its commitment: it waits to be handed over
                return True
            game.turns.append((t, mover, q))
        else:
            q, self.state = found[mover]
            self.used.add((mover, q))
            game.turns.append((t, mover, q))
        game.steps.append(("turn", t, state_hash(self.state)))
        return True

    def refused_here(self, seat: int, turn: list[Any]) -> bool:
        """Whether the game stopped at this turn of ``seat`` (the file holds no legal one)
        and the rules refuse ``turn`` for it."""
        state = self.state
        return (not state.is_over and state.chance is None and not self.choosing()
                and state.to_move == seat and turn[0] == len(self.game.turns)
                and played(state, turn[1]) is None)

    def judge(self) -> set[int]:
        """The seats with an entry void for a reason that fails ("A verdict for every
        entry")."""
        game, marks, out = self.game, self.marks, set()
        events = {index for what, index, _ in game.steps if what == "chance"}
        for seat, chain in enumerate(self.chains):
            handed = marks[game.handed[seat]] if seat in game.handed else None
            reveals: set[int] = set()
            agreements: set[tuple[int, int]] = set()
            digest, matched = None, False
            for q, (kind, p) in enumerate(chain):
                if kind == VOID:
                    out.add(seat)  # the wrong shape, or a kind not expected
                elif kind in (START, CHAT):
                    continue
                elif q > self.signoff[seat]:
                    out.add(seat)  # anything but chat after RESIGN or END
                elif kind == REVEAL:
                    if not hashes_to(p[1], p[0], self.roster[seat][4]) or p[0] in reveals:
                        out.add(seat)
                    reveals.add(p[0])
                    late = handed is not None and p[0] >= handed.event + (not handed.chance)
                    if game.over and p[0] not in events and not late:
                        out.add(seat)  # never needed
                elif kind == TURN and (seat, q) not in self.used:
                    late = handed is not None and p[0] >= handed.turns
                    if not late and (p[0] < len(game.turns) or game.over
                                     or self.refused_here(seat, p)):
                        out.add(seat)  # illegal, a second one, not its own, or never reached
                elif kind == SEAT_TO_BOT:
                    if tuple(p) in agreements or (game.over and p[1] >= len(game.steps)):
                        out.add(seat)
                    agreements.add(tuple(p))
                elif kind == CHOICE_COMMIT:
                    if digest is not None:
                        out.add(seat)  # a second commitment: the first stands
                    digest = digest or p[0]
                elif kind == CHOICE_REVEAL:
                    matches = digest == choice_digest(self.game_id, seat, p[0], p[1])
                    if not matches or matched or (seat, q) in self.refused:
                        out.add(seat)  # before the commitment, not matching it, a second one
                    matched = matched or matches
        return out


def replay(data: bytes) -> Game:
    """Follow the game of a file and judge every entry: each seat but the equivocators in
    each game their forks allow, its record holding if it holds in one."""
    branches = signed_entries(read_records(data)[0]).branches()
    games = [follow(data, taking) for taking in branches]
    main = games[0]
    main.misbehaved = {seat for seat in main.misbehaved
                       if all(seat in game.misbehaved for game in games)}
    return main


def follow(data: bytes, taking: dict[bytes, Signed]) -> Game:
    """The game of a file that takes these bodies of the equivocators' fork slots."""
    replay = Replay(data, taking)
    while not replay.state.is_over and replay.step():
        pass
    game = replay.game
    game.over = game.over or replay.state.is_over
    game.misbehaved = replay.judge() | replay.forked
    return game


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
    bob, chain = table.ids[1], table.sessions[0].chains[1]
    for kind, payload in ((11, []), (Kind.CHAT, "not an array")):
        body = msgpack.packb([3, table.game_id, bob.public_key, len(chain), chain[-1].id, kind,
                              payload])
        signed_record = msgpack.packb([body, bob.sign(b"entry", body)])
        data = game_file([*records, signed_record])
        defects, seats, _ = check_seats(data)
        report = audit_file(data)
        assert defects == ["decode"] and seats == set() and replay(data).misbehaved == set()
        assert [p.check.value for p in report.problems] == ["decode"]
        assert report.exit_code == 2  # it does not decode: checked before its signature


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


def test_the_outsider_follows_a_table_with_hints_and_a_clock_as_verify_does() -> None:
    data = (Path(__file__).parents[1] / "data" / "hints-clock.game").read_bytes()
    assert outsider_says(data) == verify_says(data)
    assert len(replay(data).turns) == 8


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


# --- Payloads of the wrong shape, and the secret set-up's choices ---------------------------------

MALFORMED: dict[str, tuple[Kind, list[Any]]] = {
    "a reveal with a short link": (Kind.REVEAL, [40, bytes(31)]),
    "a reveal for a negative event": (Kind.REVEAL, [-1, bytes(32)]),
    "a turn with an unknown action": (Kind.TURN, [1000, [[99]]]),
    "a turn with a field of the wrong type": (Kind.TURN, [1000, [[1, b"\x00"], [10]]]),
    "a turn with no actions": (Kind.TURN, [1000, []]),
    "a turn numbered by a boolean": (Kind.TURN, [True, [[10]]]),
    "an empty chat": (Kind.CHAT, [""]),
    "a chat of 281 characters": (Kind.CHAT, ["x" * 281]),
    "an agreement about its own seat": (Kind.SEAT_TO_BOT, [0, 5]),
    "an agreement about no seat": (Kind.SEAT_TO_BOT, [3, 5]),
    "an agreement for a negative step": (Kind.SEAT_TO_BOT, [2, -1]),
    "a resignation with a payload": (Kind.RESIGN, [0]),
    "an end with a payload": (Kind.END, [None]),
    "a seen for step 0": (Kind.SEEN, [0]),
    "a seen with two steps": (Kind.SEEN, [1000, 2]),
    "a choice commitment at a table without secret set-up": (Kind.CHOICE_COMMIT, [bytes(32)]),
}


@pytest.mark.parametrize("what", [*MALFORMED, "a start after seq 0",
                                  "a start of another table after seq 0"])
def test_a_payload_of_the_wrong_shape_says_nothing_and_fails_its_author_only(
        handed_over: Table, what: str) -> None:
    """Ann signs a malformed entry just before her agreement to hand Cid over: it is void and
    names her, and it says nothing: no resignation, no step passed (her agreement still
    counts), so the game is the honest one, step for step."""
    table = handed_over
    if what == "a start after seq 0":
        kind, payload = Kind.START, list(table.start.payload)
    elif what == "a start of another table after seq 0":
        kind, payload = Kind.START, [b"another table id", *table.start.payload[1:]]
    else:
        kind, payload = MALFORMED[what]
    agreement = next(e.seq for e in table.sessions[0].chains[0] if e.kind == Kind.SEAT_TO_BOT)
    data = game_file(forge_chain(table, 0, agreement, kind, payload, insert=True))
    said = outsider_says(data)
    assert said == verify_says(data)
    steps, _, handed, misbehaved = said
    honest = verify_says(game_file(canonical(table)))
    assert (steps, handed) == (honest[0], honest[2]) and misbehaved == {0}
    assert audit_file(data).exit_code == 1


Contents = list[tuple[Kind, list[Any]]]
"""What a chain says, entry by entry."""


def signed_anew(table: Table, seat: int, edit: Callable[[Contents], Contents]) -> list[bytes]:
    """The game's records after ``seat`` (not the host) signed its chain anew, as ``edit``
    changes it: what a cheating player can produce with its own key."""
    chains = [list(chain) for chain in table.sessions[0].chains]
    contents = edit([(e.kind, list(e.payload)) for e in chains[seat]])
    chain: list[Any] = []
    for kind, payload in contents:
        chain.append(sign_entry(table.ids[seat], table.game_id, len(chain),
                                chain[-1].id if chain else b"", kind, payload))
    chains[seat] = chain
    start = table.sessions[0].start.entry
    return [start.raw] + [e.raw for c in chains for e in c if e.body != start.body]


@pytest.fixture(scope="module")
def secret_game() -> Table:
    """Two players choose their boards in secret (the experts' set-up), then play it out."""
    table = Table(2, seed=2, config=GameConfig(2, setup=Setup.EXPERTS_SECRET))
    table.play()
    return table


def commitment_and_choice(contents: Contents) -> tuple[int, int]:
    kinds = [kind for kind, _ in contents]
    return kinds.index(Kind.CHOICE_COMMIT), kinds.index(Kind.CHOICE_REVEAL)


def another_choice(contents: Contents) -> Contents:
    """The revealed choice is not the committed one."""
    _, at = commitment_and_choice(contents)
    (_, side, space), salt = contents[at][1]
    contents[at] = (Kind.CHOICE_REVEAL, [[11, 1 - side, space], salt])
    return contents


def refused_choice(game_id: bytes) -> Callable[[Contents], Contents]:
    """Bob commits to a choice the rules refuse (side 5 of his board) and reveals it."""
    def edit(contents: Contents) -> Contents:
        commit, at = commitment_and_choice(contents)
        choice, salt = [11, 5, 18], contents[at][1][1]
        contents[commit] = (Kind.CHOICE_COMMIT, [choice_digest(game_id, 1, choice, salt)])
        contents[at] = (Kind.CHOICE_REVEAL, [choice, salt])
        return contents
    return edit


def revealed_first(contents: Contents) -> Contents:
    """A copy of the reveal before the commitment (void), then the two as they were."""
    commit, at = commitment_and_choice(contents)
    return [*contents[:commit], contents[at], *contents[commit:]]


def test_the_outsider_follows_the_secret_set_up_as_verify_does(secret_game: Table) -> None:
    data = game_file(canonical(secret_game))
    said = outsider_says(data)
    assert said == verify_says(data) and said[3] == set() and replay(data).over
    bob = secret_game.sessions[0].chains[1]
    reveal = next(e.seq for e in bob if e.kind == Kind.CHOICE_REVEAL)
    assert (1, reveal) in {(seat, seq) for _, seat, seq in said[1][:2]}  # his choice, applied


@pytest.mark.parametrize("tamper", [
    "a choice that does not match its commitment", "a choice the rules refuse",
    "a choice revealed before its commitment", "a second choice reveal",
    "a second choice commitment"])
def test_the_outsider_names_the_same_seats_as_verify_on_a_wrong_secret_choice(
        secret_game: Table, tamper: str) -> None:
    """Bob's secret set-up choice is wrong: both name Bob, and only Bob. A choice that does
    not count leaves the game waiting for him at the set-up (nobody handed him over)."""
    table = secret_game
    edit = {
        "a choice that does not match its commitment": another_choice,
        "a choice the rules refuse": refused_choice(table.game_id),
        "a choice revealed before its commitment": revealed_first,
        "a second choice reveal": lambda c: [*c, c[commitment_and_choice(c)[1]]],
        "a second choice commitment": lambda c: [*c, (Kind.CHOICE_COMMIT, [bytes(32)])],
    }[tamper]
    data = game_file(signed_anew(table, 1, edit))
    said = outsider_says(data)
    assert said == verify_says(data)
    steps, turns, _, misbehaved = said
    assert misbehaved == {1} and audit_file(data).exit_code == 1
    waits = tamper in ("a choice that does not match its commitment", "a choice the rules refuse")
    assert replay(data).over is not waits
    if waits:  # the set-up's chance events only: Bob, first to choose, never chose
        assert [what for what, _, _ in steps] == ["chance", "chance"] and turns == []


def test_the_document_lists_every_action_of_the_engine() -> None:
    """The actions table of "Kinds and payloads", which the outsider's shapes follow, names
    every action the engine decodes, with its number of fields."""
    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    table = doc[doc.index("**TURN** `[t, [action, ...]]`"):doc.index("**CHAT** `[text]`")]
    listed = {int(tag): name
              for tag, name in re.findall(r"^\| (\d+) +\| `(\w+)` *\|", table, re.MULTILINE)}
    assert listed == {tag: cls.__name__ for tag, cls in ACTION_TYPES.items()}
    assert {tag: len(fields(cls)) for tag, cls in ACTION_TYPES.items()} == {
        tag: len(shapes) for tag, shapes in ACTION_FIELDS.items()}


def test_the_outsider_follows_a_seat_handed_over_in_the_secret_set_up_as_verify_does() -> None:
    """Bob leaves before his secret choice is in; Ann hands him over there, and the stand-in
    chooses for him, openly."""
    table = Table(2, seed=2, config=GameConfig(2, setup=Setup.EXPERTS_SECRET))
    table.paused = True
    for _ in range(3):
        table.tick()  # the set-up's draws and the deal: the game waits for the choices
    table.paused = False
    table.leave(1)
    table.hand_over(1)
    table.play()
    data = game_file(canonical(table))
    said = outsider_says(data)
    assert said == verify_says(data) and said[2] == {1: 2} and said[3] == set()
    assert (1, None) in {(seat, seq) for _, seat, seq in said[1][:2]}  # the stand-in's choice
    assert replay(data).over


def test_the_outsider_agrees_with_verify_on_a_history_signed_anew(handed_over: Table) -> None:
    """Cid signs his chain anew from seq 6 with a resignation there: in that file the
    stand-in plays his turn 3, and Ann's turn 4, signed for the real game, is illegal, which
    both count against her ("What a player can trust": no entry says which state its author
    saw); the file that holds Cid's real chain names nobody."""
    data = game_file(forge_chain(handed_over, 2, 6, Kind.RESIGN, [], insert=True))
    said = outsider_says(data)
    assert said == verify_says(data) and said[2] == {2: 3} and said[3] == {0, 2}
    assert outsider_says(game_file(canonical(handed_over)))[3] == set()


def random_payload(kind: Kind, rng: random.Random, turns: int, steps: int) -> list[Any]:
    """A payload for ``kind``, of its shape or not, in ranges around the game's."""
    if kind == Kind.REVEAL:
        return [rng.randrange(-1, 35), rng.choice([bytes(32), bytes(31), rng.randbytes(32)])]
    if kind == Kind.TURN:
        return [rng.randrange(-1, turns + 3),
                rng.choice([[[10]], [[5], [10]], [], [[99]], [[1, 0], [5], [1, 1], [5], [10]]])]
    if kind == Kind.CHAT:
        return [rng.choice(["", "hi", "x" * 281, b"bytes"])]
    if kind == Kind.SEAT_TO_BOT:
        return [rng.randrange(-1, 4), rng.randrange(-1, steps + 3)]
    if kind == Kind.SEEN:
        return [rng.randrange(-1, steps + 3)]
    if kind in (Kind.RESIGN, Kind.END):
        return rng.choice([[], [0]])
    if kind == Kind.CHOICE_COMMIT:
        return [bytes(32)]
    return [[11, 0, 18], bytes(16)]


@pytest.mark.parametrize("seed", range(12))
def test_the_outsider_agrees_with_verify_on_a_random_entry_signed_into_a_chain(
        handed_over: Table, seed: int) -> None:
    """A seat signs an entry of a random kind and payload into its chain (re-signing the
    entries after it), anywhere: both follow the same steps and name the same seats."""
    rng = random.Random(seed)
    session = handed_over.sessions[0]
    seat = rng.randrange(3)
    length = len(session.chains[seat])
    at = rng.randrange(1 if seat == 0 else 0, length + 1)
    kind = rng.choice([k for k in Kind if k != Kind.START])
    payload = random_payload(kind, rng, session.turn_number, session.step)
    data = game_file(forge_chain(handed_over, seat, at, kind, payload, insert=at < length))
    assert outsider_says(data) == verify_says(data)
