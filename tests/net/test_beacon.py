import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2p_burgundy.net.beacon import CHAIN_LENGTH, HashChain, event_entropy, verify_reveal
from p2p_burgundy.net.errors import LocalProtocolError

# Golden vectors, pinned in docs/protocol.md too.
ZERO_CHAIN = HashChain(bytes(32))
FF_CHAIN = HashChain(b"\xff" * 32)
GAME_ID = bytes.fromhex("00112233445566778899aabbccddeeff")
ZERO_COMMITMENT = "b226100501442f7e3c8b0a45becffdd6bd54ce1810f59b4bb50bc258867dd082"
ZERO_REVEAL_0 = "ca099bda0147748bd097f535f53d27c5a8bb36fc6be4d4eca39a315114d4d194"
ZERO_REVEAL_1 = "64b0d037eb5e34a0893c4058011a526af73e8119f48e341b57ad915e3bbbf79a"
FF_COMMITMENT = "39d4423b7210199dbad821fa1c459c46c2d0b13968babdf1083965f1f272274c"
FF_REVEAL_0 = "9962667dfbd7f46c3739b4d6e9f95ffb31a092e516ab33baefe41d695a9915c9"
ENTROPY_0 = "a86200873ef30c9a05319fcf9d17df0f9481a251b205d1ffc24c64e78d8e23dc"
ENTROPY_1 = "e4356d51b631eca5e32bcc1e1351a8028259c7c3225436e01cd8cd0215d8b1c6"


def _reference_link(seed: bytes, i: int) -> bytes:
    """link[i], straight from the formula in docs/protocol.md."""
    link = seed
    for _ in range(i):
        link = hashlib.sha256(b"p2p-burgundy/v1/chain\x00" + link).digest()
    return link


def test_chain_golden() -> None:
    assert ZERO_CHAIN.commitment.hex() == ZERO_COMMITMENT
    assert ZERO_CHAIN.reveal(0).hex() == ZERO_REVEAL_0
    assert ZERO_CHAIN.reveal(1).hex() == ZERO_REVEAL_1
    assert FF_CHAIN.commitment.hex() == FF_COMMITMENT
    assert FF_CHAIN.reveal(0).hex() == FF_REVEAL_0


def test_chain_follows_the_documented_formula() -> None:
    for seed in (bytes(32), b"\xff" * 32, bytes(range(32))):
        chain = HashChain(seed)
        assert chain.commitment == _reference_link(seed, CHAIN_LENGTH)
        for k in range(CHAIN_LENGTH):
            assert chain.reveal(k) == _reference_link(seed, CHAIN_LENGTH - 1 - k)
        assert chain.reveal(CHAIN_LENGTH - 1) == seed


def test_each_reveal_hashes_to_the_one_before() -> None:
    previous = ZERO_CHAIN.commitment
    for k in range(CHAIN_LENGTH):
        revealed = ZERO_CHAIN.reveal(k)
        assert hashlib.sha256(b"p2p-burgundy/v1/chain\x00" + revealed).digest() == previous
        previous = revealed


def test_every_reveal_verifies() -> None:
    for chain in (ZERO_CHAIN, FF_CHAIN):
        for k in range(CHAIN_LENGTH):
            assert verify_reveal(chain.commitment, k, chain.reveal(k))


def test_reveal_for_the_wrong_event_does_not_verify() -> None:
    commitment = ZERO_CHAIN.commitment
    assert not verify_reveal(commitment, 1, ZERO_CHAIN.reveal(0))
    assert not verify_reveal(commitment, 0, ZERO_CHAIN.reveal(1))
    assert not verify_reveal(commitment, 5, ZERO_CHAIN.reveal(7))
    # Replaying the commitment itself, or an earlier reveal, proves nothing.
    assert not verify_reveal(commitment, 0, commitment)
    assert not verify_reveal(commitment, 3, ZERO_CHAIN.reveal(2))


def test_wrong_link_does_not_verify() -> None:
    commitment = ZERO_CHAIN.commitment
    assert not verify_reveal(commitment, 0, FF_CHAIN.reveal(0))
    assert not verify_reveal(FF_CHAIN.commitment, 0, ZERO_CHAIN.reveal(0))
    tampered = bytearray(ZERO_CHAIN.reveal(0))
    tampered[0] ^= 1
    assert not verify_reveal(commitment, 0, bytes(tampered))


@pytest.mark.parametrize(
    ("commitment", "k", "revealed"),
    [
        (bytes.fromhex(ZERO_COMMITMENT)[:31], 0, bytes.fromhex(ZERO_REVEAL_0)),
        (bytes.fromhex(ZERO_COMMITMENT), 0, bytes.fromhex(ZERO_REVEAL_0) + b"\x00"),
        (bytes.fromhex(ZERO_COMMITMENT), -1, bytes.fromhex(ZERO_REVEAL_0)),
        (bytes.fromhex(ZERO_COMMITMENT), CHAIN_LENGTH, bytes(32)),
    ],
)
def test_verify_reveal_returns_false_for_bad_inputs(
    commitment: bytes, k: int, revealed: bytes
) -> None:
    assert verify_reveal(commitment, k, revealed) is False


@given(st.binary(max_size=40), st.integers(), st.binary(max_size=40))
def test_verify_reveal_never_raises(commitment: bytes, k: int, revealed: bytes) -> None:
    assert verify_reveal(commitment, k, revealed) is False


@pytest.mark.parametrize("k", [-1, CHAIN_LENGTH])
def test_reveal_rejects_an_event_outside_the_chain(k: int) -> None:
    with pytest.raises(LocalProtocolError, match="chance event"):
        ZERO_CHAIN.reveal(k)


@pytest.mark.parametrize("seed", [b"", bytes(31), bytes(33)])
def test_chain_rejects_a_seed_of_bad_length(seed: bytes) -> None:
    with pytest.raises(LocalProtocolError, match="32 bytes"):
        HashChain(seed)


def test_generate_makes_fresh_seeds_and_repr_hides_them() -> None:
    one, two = HashChain.generate(), HashChain.generate()
    assert one.seed != two.seed
    assert one.seed.hex()[:8] not in repr(one)
    assert repr(ZERO_CHAIN) == f"<HashChain commitment={ZERO_COMMITMENT[:16]}…>"


def test_entropy_golden() -> None:
    reveals_0 = [ZERO_CHAIN.reveal(0), FF_CHAIN.reveal(0)]
    assert event_entropy(GAME_ID, 0, reveals_0).hex() == ENTROPY_0
    reveals_1 = [ZERO_CHAIN.reveal(1), FF_CHAIN.reveal(1)]
    assert event_entropy(GAME_ID, 1, reveals_1).hex() == ENTROPY_1


def test_entropy_follows_the_documented_formula() -> None:
    reveals = [ZERO_CHAIN.reveal(0), FF_CHAIN.reveal(0)]
    expected = hashlib.sha256(
        b"p2p-burgundy/v1/entropy\x00"
        + b"\x10"
        + GAME_ID
        + b"\x00\x00\x00\x00"
        + reveals[0]
        + reveals[1]
    ).digest()
    assert event_entropy(GAME_ID, 0, reveals) == expected


def test_entropy_depends_on_seat_order_game_event_and_every_reveal() -> None:
    reveals = [ZERO_CHAIN.reveal(0), FF_CHAIN.reveal(0)]
    base = event_entropy(GAME_ID, 0, reveals)
    others = {
        event_entropy(GAME_ID, 0, reveals[::-1]),
        event_entropy(GAME_ID[:-1], 0, reveals),
        event_entropy(GAME_ID, 1, reveals),
        event_entropy(GAME_ID, 0, reveals[:1]),
        event_entropy(GAME_ID, 0, [reveals[0], bytes(32)]),
    }
    assert base not in others
    assert len(others) == 5


@pytest.mark.parametrize(
    ("game_id", "k", "reveals", "why"),
    [
        (b"", 0, [bytes(32)], "game id"),
        (b"x" * 256, 0, [bytes(32)], "game id"),
        (GAME_ID, -1, [bytes(32)], "chance event"),
        (GAME_ID, CHAIN_LENGTH, [bytes(32)], "chance event"),
        (GAME_ID, 0, [], "at least one"),
        (GAME_ID, 0, [bytes(32), bytes(31)], "32 bytes"),
    ],
)
def test_entropy_rejects_bad_input(game_id: bytes, k: int, reveals: list[bytes], why: str) -> None:
    with pytest.raises(LocalProtocolError, match=why):
        event_entropy(game_id, k, reveals)
