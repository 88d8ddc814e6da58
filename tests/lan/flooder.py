"""A bounded flood of garbage and bad-signature datagrams, for the flood test (property 7).

Run as a script (its own process, so it competes for the CPU like a real attacker)::

    python tests/lan/flooder.py --targets 127.0.0.1:4000,127.0.0.1:4001 --game HEX \
        --keys HEX,HEX --rate 4000 --seconds 20 --max 60000 --sockets 64

It sends from ``--sockets`` source ports in turn, mixing: random bytes; bytes that pass the
transport's shape check but are not msgpack; ENTRY messages for the right game by a seated key
with a forged signature (they reach the signature check); HEADS that claim more entries (each
costs a WANT reply); HELLOs with fresh keys (each costs the host a signature); unknown tags;
forged entries behind a false seal.
It stops after ``--seconds`` or ``--max`` datagrams, whichever comes first (or on SIGTERM),
and prints how many it sent. Only the given targets (loopback in the tests) are ever sent anything.

With ``--spoof HOST:PORT`` every datagram carries that source address instead (a player's, to
spend its budgets): it is written as a whole IP packet on a raw socket, which needs root. With
``--entries`` every datagram is a forged ENTRY in the name of a key of ``--keys``, taken in
turn from :data:`POOL` made beforehand, with their IP headers: sending is then all the
flooder does, so it reaches high rates on little CPU (a benchmark measures the target's cost,
not the flooder's). ``--seal`` puts a false seal in front of each (the seal's first byte, a
random label, counter and MAC, net/pairwise.py): what a forger who knows the format sends.
``--copy`` gives them, instead, the label and counter of the pair's latest datagram (and a
random MAC), as a forger who sees the pair's traffic could: the flooder first prints the port
of a UDP socket on 127.0.0.1 that it then reads without blocking between batches, and each
datagram that arrives there is the start of one of the pair's sealed datagrams, up to its MAC
(a test's tap on the sender: the flooder learns each label the moment it is sent, sooner
than a forger on the wire could).

A test starts it with :func:`spoofed_flood`, which stops it as the test's block ends.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from p2p_burgundy.net import wire
from p2p_burgundy.net.messages import Tag
from p2p_burgundy.net.pairwise import MAC_SIZE, SEAL_SIZE, SEALED

if TYPE_CHECKING:
    from p2p_burgundy.net.peer import Peer

POOL = 512  # distinct forged entries that --entries sends in turn


def forged_entry(rng: random.Random, game_id: bytes, key: bytes) -> bytes:
    seq = rng.randrange(0, 70)
    prev = b"" if seq == 0 else rng.randbytes(32)
    body = wire.encode([wire.PROTOCOL_VERSION, game_id, key, seq, prev, 3,
                        [rng.randrange(100), [[1, rng.randrange(9)]]]])
    return wire.encode_message(Tag.ENTRY, [wire.encode([body, rng.randbytes(64)])])


def falsely_sealed(rng: random.Random, message: bytes) -> bytes:
    """``message`` behind a seal's first byte, a random label and counter and a random MAC
    (it fails any key's check)."""
    return bytes([SEALED]) + rng.randbytes(SEAL_SIZE - 1) + message


def datagram(rng: random.Random, game_id: bytes, keys: list[bytes], seats: int) -> bytes:
    kind = rng.randrange(7)
    if kind == 0:
        return rng.randbytes(rng.randrange(0, 1500))
    if kind == 1:
        return bytes([0x93, wire.PROTOCOL_VERSION]) + rng.randbytes(rng.randrange(1, 1100))
    if kind == 2:
        return forged_entry(rng, game_id, rng.choice(keys))
    if kind == 3:
        counts = [rng.randrange(1, 100) for _ in range(seats)]
        return wire.encode_message(Tag.HEADS, [game_id, counts,
                                               [rng.randbytes(32) for _ in range(seats)]])
    if kind == 4:
        return wire.encode_message(Tag.HELLO, [game_id, rng.randbytes(32),
                                                    rng.randbytes(16), False])
    if kind == 5:
        return falsely_sealed(rng, forged_entry(rng, game_id, rng.choice(keys)))
    return wire.encode_message(rng.randrange(20, 128), [game_id, rng.randbytes(8)])


class Sender(Protocol):
    def send(self, data: bytes, address: tuple[str, int]) -> None: ...


def tap(sender: Sender, destination: tuple[str, int], port: int) -> socket.socket:
    """Copy every datagram ``sender`` (a peer's transport) sends to ``destination`` to
    127.0.0.1:``port`` (a flooder's ``--copy`` socket) right after it is sent; the socket
    that copies, to close."""
    copies = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    send = sender.send

    def tapped(data: bytes, address: tuple[str, int]) -> None:
        send(data, address)
        if address == destination:
            copies.sendto(data, ("127.0.0.1", port))

    sender.send = tapped  # type: ignore[method-assign]
    return copies


class Spoofer:
    """Sends UDP datagrams with a source address of our choosing (a raw socket: root)."""

    def __init__(self, source: tuple[str, int]) -> None:
        self.source = source
        self.raw = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)

    def packet(self, data: bytes, target: tuple[str, int]) -> bytes:
        """The IP packet carrying ``data`` to ``target``: the kernel fills in the IP length,
        id and checksum; a UDP checksum of 0 means none (allowed on IPv4)."""
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 0, 0, 0, 64, socket.IPPROTO_UDP, 0,
                         socket.inet_aton(self.source[0]), socket.inet_aton(target[0]))
        udp = struct.pack("!HHHH", self.source[1], target[1], 8 + len(data), 0)
        return ip + udp + data

    def close(self) -> None:
        self.raw.close()


Send = Callable[[bytes, tuple[str, int]], object]


def prepared(sender: socket.socket | Spoofer, data: bytes, target: tuple[str, int]
             ) -> tuple[Send, bytes, tuple[str, int]]:
    """What sends ``data`` to ``target`` from ``sender``: a function and its arguments."""
    if isinstance(sender, Spoofer):
        return sender.raw.sendto, sender.packet(data, target), (target[0], 0)
    return sender.sendto, data, target


class Flood:
    """A flooder running in its own process (:func:`spoofed_flood`)."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @property
    def running(self) -> bool:
        return self.process.returncode is None

    async def stop(self) -> int:
        """Stop it (SIGTERM): how many datagrams it sent."""
        if self.running:
            self.process.terminate()
        out, _ = await self.process.communicate()
        lines = out.split()
        return int(lines[-1]) if lines else 0


@contextlib.asynccontextmanager
async def spoofed_flood(host: Peer, joiner: Peer, rate: int, seconds: float,
                        options: Sequence[str] = ()) -> AsyncIterator[Flood]:
    """This script sending ``host`` ``rate`` datagrams a second (``options``: of which kind)
    with ``joiner``'s source address, forged in its name, for at most ``seconds``: root
    only. Killed at the end of the block if it still runs."""
    session = host.session
    assert session is not None
    process = await asyncio.create_subprocess_exec(
        sys.executable, __file__, *options,
        "--targets", f"{host.address[0]}:{host.address[1]}",
        "--spoof", f"{joiner.address[0]}:{joiner.address[1]}",
        "--game", session.game_id.hex(), "--keys", joiner.identity.public_key.hex(),
        "--rate", str(rate), "--seconds", str(seconds), "--max", str(10**7),
        stdout=subprocess.PIPE)
    try:
        yield Flood(process)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="flooder.py")
    parser.add_argument("--targets", required=True)
    parser.add_argument("--game", required=True)
    parser.add_argument("--keys", required=True)
    parser.add_argument("--rate", type=float, default=4000.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--max", type=int, default=60000)
    parser.add_argument("--sockets", type=int, default=64)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--spoof", help="HOST:PORT to send from (a raw socket: root)")
    parser.add_argument("--entries", action="store_true", help="forged entries only")
    parser.add_argument("--seal", action="store_true",
                        help="with --entries: each behind a false seal")
    parser.add_argument("--copy", action="store_true",
                        help="with --seal: the label and counter of the pair's latest datagram "
                        "(learnt on a socket whose port is printed first)")
    args = parser.parse_args(argv)
    if args.seal and not args.entries:
        parser.error("--seal needs --entries: it seals the forged entries")
    if args.copy and not args.seal:
        parser.error("--copy needs --entries and --seal: it copies a label onto their seals")
    targets = [(h, int(p)) for h, _, p in (t.rpartition(":") for t in args.targets.split(","))]
    game_id = bytes.fromhex(args.game)
    keys = [bytes.fromhex(k) for k in args.keys.split(",")]
    rng = random.Random(args.seed)
    sockets: list[socket.socket | Spoofer] = []
    if args.spoof:
        host, _, port = args.spoof.rpartition(":")
        sockets.append(Spoofer((host, int(port))))
    for _ in range(0 if args.spoof else args.sockets):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind((targets[0][0], 0))
        s.setblocking(False)
        sockets.append(s)
    entries = [forged_entry(rng, game_id, rng.choice(keys)) for _ in range(POOL)]
    if args.seal:
        entries = [falsely_sealed(rng, entry) for entry in entries]
    pool = [prepared(sockets[i % len(sockets)], entries[i], targets[i % len(targets)])
            for i in range(POOL if args.entries else 0)]
    tap, head = None, b""
    if args.copy:
        tap = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        tap.bind(("127.0.0.1", 0))
        tap.setblocking(False)
        print(tap.getsockname()[1], flush=True)
        # Each datagram as a bytearray whose seal's head is written over before it is sent.
        pool = [(send, bytearray(data), target) for send, data, target in pool]
        at = len(pool[0][1]) - len(entries[0])  # where the datagram starts in the packet
    stop: list[int] = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    start = time.monotonic()
    sent = 0
    batch = max(1, int(args.rate / 100))
    try:
        while not stop and sent < args.max and time.monotonic() - start < args.seconds:
            while tap is not None:
                try:
                    head = tap.recv(SEAL_SIZE)[:SEAL_SIZE - MAC_SIZE]
                except BlockingIOError:
                    break
            for _ in range(batch):
                if pool:
                    send, data, target = pool[sent % POOL]
                    if head:
                        data[at:at + len(head)] = head  # type: ignore[index]
                else:
                    send, data, target = prepared(sockets[sent % len(sockets)],
                                                  datagram(rng, game_id, keys, len(keys)),
                                                  targets[sent % len(targets)])
                # Not contextlib.suppress: a context manager for each datagram costs more.
                try:  # noqa: SIM105
                    send(data, target)
                except OSError:  # a full socket buffer: a dropped datagram is still one
                    pass
                sent += 1
            # Pace to the rate: batch datagrams every batch / rate seconds.
            ahead = start + sent / args.rate - time.monotonic()
            if ahead > 0:
                time.sleep(ahead)
    finally:
        for s in sockets:
            s.close()
        if tap is not None:
            tap.close()
    print(sent, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
