"""An outsider's verifier, written from docs/protocol.md alone (plain msgpack, hashlib, zlib and
the ``cryptography`` package, none of ``p2p_burgundy.net``): it checks the file format, every
signature, entry id and link, the START (its game id and acceptances), every reveal against
its commitment, and the entropy of every chance event; it must agree with ``burgundy verify``
on honest and tampered files, seat by seat: a defect of the file itself (a torn tail, a bad
signature, a broken link) belongs to nobody, a reveal that does not hash to its author's
commitment to that author only. (Turns and scores need the rules engine; the draws have their
own independent implementation in ``test_draws.py``.)"""

from __future__ import annotations

import hashlib
import struct
import zlib

import msgpack
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from p2p_burgundy.net.audit import audit_file
from p2p_burgundy.net.log import Kind

from .harness import Table, canonical, forge_chain

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


def check_seats(data: bytes) -> tuple[list[str], set[int], dict[int, bytes]]:
    """The defects of the file itself, the seats whose own entries break a rule it checks
    (a reveal that does not hash to the author's commitment), and each chance event's
    entropy."""
    defects: list[str] = []
    misbehaved: set[int] = set()
    if not data.startswith(MAGIC):
        return ["magic"], misbehaved, {}
    at, records = len(MAGIC), []
    while at + 8 <= len(data):
        length, crc = struct.unpack_from(">II", data, at)
        record = data[at + 8:at + 8 + length]
        if len(record) != length or zlib.crc32(record) != crc:
            defects.append("tail")
            break
        records.append(record)
        at += 8 + length
    entries = {}
    for record in records:
        body, signature = msgpack.unpackb(record)
        version, game_id, author, seq, prev, kind, payload = msgpack.unpackb(body)
        if version != 3 or not signed(author, b"entry", body, signature):
            defects.append("signature")
            continue
        entry_id = hashlib.sha256(label("entry-id") + body).digest()
        entries[(author, seq)] = (entry_id, prev, kind, payload, game_id)
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
                walked = link
                for _ in range(k + 1):
                    walked = hashlib.sha256(label("chain") + walked).digest()
                if walked != seat[4]:
                    misbehaved.add(i)
                    continue
                reveals.setdefault(k, {})[i] = link
    entropy = {
        k: hashlib.sha256(label("entropy") + bytes([len(game_id)]) + game_id
                          + k.to_bytes(4, "big") + b"".join(have[i] for i in sorted(have))
                          ).digest()
        for k, have in reveals.items() if len(have) == len(roster)}
    return defects, misbehaved, entropy


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
