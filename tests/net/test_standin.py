"""The stand-in (net/standin.py): the documented, deterministic play of a seat handed over,
pinned by the test vector of docs/protocol.md ("The stand-in")."""

from __future__ import annotations

import random

from p2p_burgundy import GameConfig, apply, new_game, resolve_chance
from p2p_burgundy.net.contents import Seen
from p2p_burgundy.net.identity import Identity
from p2p_burgundy.net.log import Kind, sign_entry
from p2p_burgundy.net.standin import standin_turn

# docs/protocol.md, "The stand-in" and "SEEN".
STANDIN_TURN = [[1, 1], [4, 1], [6, 0, 0, 0], [1, 0], [2, 5, 0], [10]]
SEEN_BODY = (
    "9703c41000112233445566778899aabbccddeeffc4208a88e3dd7409f195fd52db2d3cba5d72ca6709bf"
    "1d94121bf3748801b40f6f5c02c42046aa79809c591fe2ad6b17801d0d7d0fc89cdf5ec9edc85a9b78af"
    "488768a5760a9103"
)
SEEN_ID = "15fa86c9be290e9e5fb488bdc471a03ec84fb5ae70c6a719622c04435e033e80"


def test_the_documented_stand_in_turn() -> None:
    state = new_game(GameConfig(players=2))
    while state.chance:
        state = resolve_chance(state, bytes(32))
    turn = standin_turn(state, bytes(32), 0)
    assert [a.to_tree() for a in turn] == STANDIN_TURN
    # Another turn number or entropy may break ties otherwise, never the rules.
    for number, entropy in ((1, bytes(32)), (0, b"\x01" * 32)):
        other = standin_turn(state, entropy, number)
        after = state
        for action in other:
            after = apply(after, action)
        assert after.to_move != state.to_move or after.chance is not None


def test_the_stand_in_plays_whole_games_for_every_seat() -> None:
    """Every seat played by the stand-in from start to end: each turn legal and whole."""
    rng = random.Random(7)
    state = new_game(GameConfig(players=3))
    turns = 0
    while not state.is_over:
        if state.chance is not None:
            state = resolve_chance(state, rng.randbytes(32))
            continue
        for action in standin_turn(state, rng.randbytes(32), turns):
            state = apply(state, action)
        turns += 1
    assert all(p.vp > 0 for p in state.players)


def test_the_documented_seen_entry() -> None:
    author = Identity.from_private_bytes(bytes([1]) * 32)
    game_id = bytes.fromhex("00112233445566778899aabbccddeeff")
    prev = bytes.fromhex("46aa79809c591fe2ad6b17801d0d7d0fc89cdf5ec9edc85a9b78af488768a576")
    entry = sign_entry(author, game_id, 2, prev, Kind.SEEN, Seen(3).to_payload())
    assert entry.body.hex() == SEEN_BODY and entry.id.hex() == SEEN_ID
