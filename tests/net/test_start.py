"""The START entry and the beacon seed, as docs/protocol.md specifies them (golden vectors)."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from p2p_burgundy import Edition, GameConfig
from p2p_burgundy.net import wire
from p2p_burgundy.net.errors import LocalProtocolError, RemoteProtocolError
from p2p_burgundy.net.identity import Identity, signing_input, table_code, verify
from p2p_burgundy.net.log import Kind, parse_entry, sign_entry
from p2p_burgundy.net.session import Session
from p2p_burgundy.net.start import (
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
START_DIGEST = "a4559ef682b73ab6c8f1e59ec654f42976346003bcdbdbb2d3e848b74d2eaeaa"
START_GAME_ID = "a4559ef682b73ab6c8f1e59ec654f429"
ANN_COMMITMENT = "b8c8d63d28c92bc2f34da081751c3033bedb92a254c50c1a0a06e0dc69cf7f1c"
BOB_COMMITMENT = "352e73b5487b77dd7440397a1a6cf66374b813d712e21afb213e201bed20aaca"
START_ID = "ff39a857464628b746465e93f81a303dbd514772f249eed50651b25dec879ae4"
START_TABLE_CODE = "1d97-qshw-75bc"
SEED_GAME_ID = TABLE_ID
ANN_CHAIN_SEED = "dbe777fcf40b2f2b6b7ca417c15f45e767fdc5bd632f4727823811ec004c9081"
ANN_CHAIN_COMMITMENT = "2a2713d1cfbca062c78a10bcfb0e0042aebcec44c0b60cc710e0611947ae2b0c"


def doc_seats() -> list[Seat]:
    """Ann (host, red, contribution aa x 32) and Bob (blue, bb x 32), commitments unset."""
    return [Seat(ANN.public_key, "Ann", "red", bytes([0xAA]) * 16, b""),
            Seat(BOB.public_key, "Bob", "blue", bytes([0xBB]) * 16, b"")]


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
    ({"seats": [replace(s, name="Bob\x1b[2J") for s in doc_start()[0]]}, "printable"),
])
def test_a_start_with_a_chosen_game_id_or_a_bad_roster_is_not_a_game(
    change: dict[str, object], why: str,
) -> None:
    with pytest.raises(RemoteProtocolError, match=why):
        parse_start(parse_entry(_resigned(change)))


def test_a_start_of_four_players_with_long_accented_names_fits_one_entry() -> None:
    from p2p_burgundy.net.inmemory import start_entry
    from p2p_burgundy.net.log import MAX_ENTRY

    ids = [Identity.from_private_bytes(bytes([i + 1]) * 32) for i in range(4)]
    names = ["é" * 32, "ü" * 32, "ø" * 32, "ñ" * 32]
    entry = start_entry(ids, GameConfig(players=4), names=names)
    assert len(entry.raw) == 1068 <= MAX_ENTRY


def test_a_start_for_one_player_is_not_a_network_game() -> None:
    """The engine plays a game of one (the solo game), but no network table seats one."""
    solo = GameConfig(players=1, edition=Edition.E2019)
    seat = replace(doc_seats()[0], commitment=b"")
    game_id = game_id_of(TABLE_ID, solo, [seat])
    seat = replace(seat, commitment=game_chain(ANN, game_id).commitment)
    acceptance = accept_start(ANN, start_digest(TABLE_ID, solo, [seat]), seat.commitment)
    why = ("a network game is for 2 to 4 players, not 1 (one player plays the solo game: "
           "burgundy solo)")
    with pytest.raises(LocalProtocolError) as made:
        make_start(ANN, TABLE_ID, solo, [seat], [acceptance])
    assert str(made.value) == f"cannot start: bad start entry: {why}"
    tree = [TABLE_ID, solo.to_tree(),
            [[seat.key, seat.name, seat.colour, seat.contribution, seat.commitment]],
            [acceptance]]
    entry = parse_entry(sign_entry(ANN, game_id, 0, b"", Kind.START, tree).raw)  # type: ignore[arg-type]
    with pytest.raises(RemoteProtocolError) as parsed:
        parse_start(entry)
    assert parsed.value.message == f"bad start entry: {why}"
    with pytest.raises(RemoteProtocolError, match="2 to 4 players, not 1"):
        Session(entry)
