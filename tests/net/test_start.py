"""The START entry and the beacon seed, as docs/protocol.md specifies them (golden vectors)."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from p2p_burgundy import GameConfig
from p2p_burgundy.net import wire
from p2p_burgundy.net.errors import RemoteProtocolError
from p2p_burgundy.net.identity import Identity, signing_input, table_code, verify
from p2p_burgundy.net.log import Kind, parse_entry, sign_entry
from p2p_burgundy.net.session import (
    Seat,
    accept_start,
    game_chain,
    game_id_of,
    make_start,
    parse_start,
    start_digest,
)

ANN = Identity.from_private_bytes(bytes([1]) * 32)
BOB = Identity.from_private_bytes(bytes([2]) * 32)
TABLE_ID = bytes.fromhex("00112233445566778899aabbccddeeff")
CONFIG = GameConfig(players=2)

# Golden vectors, also in docs/protocol.md ("START" and "The beacon seed").
START_DIGEST = "939b8808caf7789c3b3c31f04912e498bd202fd9082f6d6975e9a9b83253234f"
START_GAME_ID = "939b8808caf7789c3b3c31f04912e498"
ANN_COMMITMENT = "4ff471d998e5d6dc5913a7b706a310612bc7ffb8e39f399bf7ac9cc1d73129b8"
BOB_COMMITMENT = "ce1b1bf96cefd937187658eb360018f6a93e14c8a2db2e0121441f5dcf55dca0"
START_ID = "55aa4254142ed83ff7935b85ff97be5f77ca03379bdb65f57d549eb62b7a2b66"
START_TABLE_CODE = "543t-0h40-txwk"
SEED_GAME_ID = TABLE_ID
ANN_CHAIN_SEED = "dbe777fcf40b2f2b6b7ca417c15f45e767fdc5bd632f4727823811ec004c9081"
ANN_CHAIN_COMMITMENT = "2a2713d1cfbca062c78a10bcfb0e0042aebcec44c0b60cc710e0611947ae2b0c"


def doc_seats() -> list[Seat]:
    """Ann (host, red, contribution aa x 32) and Bob (blue, bb x 32), commitments unset."""
    return [Seat(ANN.public_key, "Ann", "red", bytes([0xAA]) * 32, b""),
            Seat(BOB.public_key, "Bob", "blue", bytes([0xBB]) * 32, b"")]


def doc_start() -> tuple[list[Seat], bytes]:
    base = doc_seats()
    game_id = game_id_of(TABLE_ID, CONFIG, base)
    seats = [replace(s, commitment=game_chain(i, game_id).commitment)
             for s, i in zip(base, (ANN, BOB), strict=True)]
    digest = start_digest(TABLE_ID, CONFIG, seats)
    acceptances = [accept_start(i, digest, s.commitment)
                   for s, i in zip(seats, (ANN, BOB), strict=True)]
    return seats, make_start(ANN, TABLE_ID, CONFIG, seats, acceptances).raw


def test_start_golden_vector() -> None:
    seats, raw = doc_start()
    assert CONFIG.to_tree() == [2, "2011", ["1", "1"], [18, 18]]
    label = b"p2p-burgundy/v1/start\x00"
    roster = [[s.key, s.name, s.colour, s.contribution] for s in seats]
    digest = hashlib.sha256(label + wire.encode([TABLE_ID, CONFIG.to_tree(), roster])).digest()
    assert digest.hex() == START_DIGEST == start_digest(TABLE_ID, CONFIG, seats).hex()
    assert digest[:16].hex() == START_GAME_ID
    assert [s.commitment.hex() for s in seats] == [ANN_COMMITMENT, BOB_COMMITMENT]
    start = parse_start(parse_entry(raw))
    assert start.entry.id.hex() == START_ID
    assert start.game_id.hex() == START_GAME_ID and start.table_id == TABLE_ID
    for seat, acceptance in zip(seats, start.entry.payload[3], strict=True):  # type: ignore[arg-type]
        assert verify(seat.key, b"start", digest + seat.commitment, acceptance)  # type: ignore[arg-type]
    assert table_code(start.game_id, [ANN.public_key, BOB.public_key]) == START_TABLE_CODE


def test_beacon_seed_golden_vector() -> None:
    signature = ANN.sign(b"beacon-seed", SEED_GAME_ID)
    assert signing_input(b"beacon-seed", SEED_GAME_ID).startswith(b"p2p-burgundy/v1\x00\x0bbeacon")
    seed = hashlib.sha256(signature).digest()
    assert seed.hex() == ANN_CHAIN_SEED
    chain = game_chain(ANN, SEED_GAME_ID)
    assert chain.seed == seed and chain.commitment.hex() == ANN_CHAIN_COMMITMENT


def _resigned(change: dict[str, object]) -> bytes:
    """The documented START with one thing changed and everything re-signed by its owner."""
    seats, _ = doc_start()
    table_id = change.get("table_id", TABLE_ID)
    seats = change.get("seats", seats)  # type: ignore[assignment]
    digest = start_digest(table_id, CONFIG, seats)  # type: ignore[arg-type]
    acceptances = [accept_start(i, digest, s.commitment)
                   for s, i in zip(seats, (ANN, BOB), strict=True)]
    game_id = change.get("game_id", game_id_of(table_id, CONFIG, seats))  # type: ignore[arg-type]
    tree = [table_id, CONFIG.to_tree(),
            [[s.key, s.name, s.colour, s.contribution, s.commitment] for s in seats],
            acceptances]
    return sign_entry(ANN, game_id, 0, b"", Kind.START, tree).raw  # type: ignore[arg-type]


@pytest.mark.parametrize(("change", "why"), [
    ({"game_id": bytes(16)}, "the game id is not the one"),
    ({"seats": [replace(s, colour="red") for s in doc_start()[0]]}, "same colour"),
    ({"seats": [replace(s, contribution=b"short") for s in doc_start()[0]]}, "contribution"),
])
def test_a_start_with_a_chosen_game_id_or_a_bad_roster_is_not_a_game(
    change: dict[str, object], why: str,
) -> None:
    with pytest.raises(RemoteProtocolError, match=why):
        parse_start(parse_entry(_resigned(change)))
