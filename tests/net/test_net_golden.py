"""Golden outputs must not depend on the interpreter's string hashing (DESIGN.md, property 2)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from . import test_beacon, test_draws, test_identity, test_log, test_standin, test_start, test_wire

# Prints one of every deterministic output of the primitives.
_SCRIPT = """
from p2p_burgundy.net import beacon, identity, wire
keys = [identity.Identity.from_private_bytes(bytes([i]) * 32).public_key for i in (1, 2, 3, 4)]
game = bytes(range(16))
chain = beacon.HashChain(bytes(32))
print(wire.encode([None, True, -1, 2**64 - 1, b"x", "é", [(), [1]]]).hex())
print(wire.decode(bytes.fromhex("93c3a2c3a991c0")))
print(identity.Identity.from_private_bytes(bytes(32)).sign(b"log-entry", b"hello").hex())
print([identity.fingerprint(key) for key in keys])
print(identity.table_code(game, keys), identity.table_code(game, keys[::-1]))
print(chain.commitment.hex(), chain.reveal(0).hex())
print(beacon.event_entropy(game, 3, [chain.reveal(3), chain.reveal(3)]).hex())
"""

# The engine's draws, a signed entry, and a whole game between in-process peers with its
# audit: everything a peer derives from entries (property 2 and 3).
_GAME_SCRIPT = """
import hashlib, json
from p2p_burgundy import GameConfig, draw_chance, new_game
from p2p_burgundy.chance import Draws
from p2p_burgundy.net.audit import audit
from p2p_burgundy.net.log import Kind, sign_entry
from p2p_burgundy.net.inmemory import Table, identity
from tests.net.test_draws import doc_entropy
d = Draws(bytes(32))
print([d.die() for _ in range(8)], [d.below(40) for _ in range(12)])
state = new_game(GameConfig(players=2))
for k in range(3):
    state, drew = draw_chance(state, doc_entropy(k))
    print(drew)
print(sign_entry(identity(0), bytes(16), 0, b"", Kind.CHAT, ["hi"]).raw.hex())
table = Table(3, seed=2)
table.play()
print(hashlib.sha256(b"".join(h for _, _, h in table.hashes(1))).hexdigest())
print(hashlib.sha256(b"".join(table.files[2])).hexdigest())
report = json.dumps(audit(table.files[2]).to_json(), sort_keys=True).encode()
print(hashlib.sha256(report).hexdigest())
"""


def _run(hash_seed: str, script: str = _SCRIPT) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    return subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True,
        cwd=Path(__file__).parents[2],
    ).stdout


def test_golden_outputs_are_the_same_under_different_hash_seeds() -> None:
    first, second = _run("0"), _run("4242")
    assert first == second
    assert first.count("\n") == 7


def test_protocol_doc_shows_the_pinned_vectors() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    vectors = [
        *(hex_ for _, hex_ in test_wire.GOLDEN if len(hex_) <= 20),
        test_identity.RFC_SEED.hex(),
        test_identity.RFC_PUBLIC_KEY.hex(),
        test_identity.GOLDEN_SIGNATURE.hex()[:64],
        test_identity.GOLDEN_SIGNATURE.hex()[64:],
        *(key.hex() for key in test_identity.TABLE_KEYS),
        "6r9h-etv0-q9se-9prt",
        "c6pv-m0x6-e3gj",
        test_beacon.ZERO_COMMITMENT,
        test_beacon.ZERO_REVEAL_0,
        test_beacon.ZERO_REVEAL_1,
        test_beacon.FF_COMMITMENT,
        test_beacon.FF_REVEAL_0,
        test_beacon.ENTROPY_0,
        test_beacon.ENTROPY_1,
    ]
    assert [vector for vector in vectors if vector not in doc] == []


@pytest.mark.slow
def test_draws_entries_and_whole_games_are_the_same_under_different_hash_seeds() -> None:
    first, second = _run("0", _GAME_SCRIPT), _run("4242", _GAME_SCRIPT)
    assert first == second
    lines = first.splitlines()
    assert len(lines) == 8
    assert lines[0].startswith(str(test_draws.ZERO_DICE))


def test_protocol_doc_shows_the_pinned_draw_and_entry_vectors() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    vectors = [
        test_draws.ZERO_WORDS,
        " ".join(map(str, test_draws.ZERO_DICE)),
        test_draws.ENTROPY_2,
        test_log.CHAT_SIGNATURE[:64],
        test_log.CHAT_SIGNATURE[64:],
        test_log.CHAT_ID,
        test_log.REVEAL_ID,
        test_log.FILE_MAGIC_HEX,
        f"{test_log.CHAT_RECORD_HEADER[:8]} {test_log.CHAT_RECORD_HEADER[8:]}",
        test_start.START_DIGEST,
        test_start.START_GAME_ID,
        test_start.ANN_COMMITMENT,
        test_start.BOB_COMMITMENT,
        test_start.START_ID,
        test_start.START_TABLE_CODE,
        test_start.ANN_CHAIN_SEED,
        test_start.ANN_CHAIN_COMMITMENT,
        test_standin.SEEN_ID,
        str(test_standin.STANDIN_TURN),
    ]
    assert [vector for vector in vectors if vector not in doc] == []
    body = "".join(doc.split("```")[1::2])  # hex dumps may wrap inside code blocks
    flat = "".join(body.split())
    assert test_log.CHAT_BODY in flat and test_log.REVEAL_BODY in flat
    assert test_standin.SEEN_BODY in flat
