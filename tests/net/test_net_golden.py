"""Golden outputs must not depend on the interpreter's string hashing (DESIGN.md, property 2)."""

import os
import subprocess
import sys
from pathlib import Path

from . import test_beacon, test_identity, test_wire

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


def _run(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    return subprocess.run(
        [sys.executable, "-c", _SCRIPT], env=env, capture_output=True, text=True, check=True
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
