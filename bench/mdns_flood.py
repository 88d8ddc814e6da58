"""What a stranger's flood of mDNS announcements costs our table browser (net/discovery.py).

A :class:`~p2p_burgundy.net.discovery.Browser` on 127.0.0.1 (zeroconf restricted to it), and
another process, the stranger, multicasting to 224.0.0.251:5353 on that interface the PTR
records of N made-up instances of ``_burgundy._udp.local.`` (50 to a message, 20 with
``--whole``, in packets of at most 1,460 bytes; ``--rate`` names a second), nothing else: a
lookup of one finds nothing and lasts its whole timeout. With ``--whole``, each instance
comes with the SRV, TXT and address records of a table that parses: they fill the list.
Two seconds after the flood starts, a real table (an
:class:`~p2p_burgundy.net.discovery.Announcer` in the browsing process) announces itself.
For ``--seconds`` from the flood's start, counted where zeroconf sends (so nothing is lost
to a socket's buffer, as a listener on the wire loses bursts):

- the lookups in flight at most (zeroconf's requests under way: each listens to every
  record that arrives), and the lookup queries sent (packets, bytes);
- the PTR queries zeroconf's own browser sent, and the made-up names they carried as
  answers already known (RFC 6762's known-answer lists: one entry per PTR record held);
- the tables listed at most, and the calls of ``on_change`` (each a copy of the list);
- the flood's PTR records held by zeroconf at the end; the browsing process's CPU seconds
  and its resident memory's growth;
- how long after its announcement the real table was listed.

Each run is a fresh process, on this tree's net/discovery.py or on the one of a git revision
``--against`` (taken with ``git show`` and loaded beside the installed package, so it runs
with this tree's other modules).

Run from the repository root::

    python bench/mdns_flood.py --against main                  # 100, 1,000, 10,000 names
    python bench/mdns_flood.py --against main --whole --names 1000
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from zeroconf import Zeroconf
from zeroconf._dns import DNSAddress, DNSPointer, DNSRecord, DNSService, DNSText
from zeroconf._protocol.outgoing import DNSOutgoing
from zeroconf.const import (
    _CLASS_IN,
    _CLASS_UNIQUE,
    _FLAGS_AA,
    _FLAGS_QR_RESPONSE,
    _TYPE_A,
    _TYPE_PTR,
    _TYPE_SRV,
    _TYPE_TXT,
)

from p2p_burgundy.net.discovery import SERVICE_TYPE
from p2p_burgundy.net.identity import PUBLIC_KEY_SIZE, fingerprint
from p2p_burgundy.net.wire import PROTOCOL_VERSION

# The mDNS helpers of the tests (the stranger's socket, a table, what zeroconf holds), as
# bench/flood.py runs the tests' flooder; the type check lays out the package and bench/ only.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.lan.mdns import (  # type: ignore[import-not-found]
    LOOPBACK,
    MDNS_GROUP,
    a_table,
    lookups_in_flight,
    mdns_socket,
    pointers_held,
)

ANNOUNCE_AT = 2.0  # seconds after the flood's start when the real table announces itself
SETTLED = 1.5  # seconds the browser runs before the flood: zeroconf's first queries are out


def made_up(i: int, tag: str, whole: bool) -> list[DNSRecord]:
    """The records announcing made-up instance ``i``: its PTR, and if ``whole`` the SRV,
    TXT and address of a table that parses."""
    name = f"Flood{i} {tag}.{SERVICE_TYPE}"
    records: list[DNSRecord] = [DNSPointer(SERVICE_TYPE, _TYPE_PTR, _CLASS_IN, 4500, name)]
    if whole:
        server = f"flood{i}-{tag}.local."
        text = b"".join(bytes([len(item)]) + item for item in (
            f"v={PROTOCOL_VERSION}".encode(), f"game={os.urandom(16).hex()}".encode(),
            f"fp={fingerprint(os.urandom(PUBLIC_KEY_SIZE))}".encode(), b"seats=1/2",
            b"ed=2011", f"name=Flood{i}".encode()))
        unique = _CLASS_IN | _CLASS_UNIQUE  # the cache-flush bit, as a host sets it
        records += [DNSService(name, _TYPE_SRV, unique, 120, 0, 0, 4000 + i % 1000, server),
                    DNSText(name, _TYPE_TXT, unique, 4500, text),
                    DNSAddress(server, _TYPE_A, unique, 120, socket.inet_aton("10.9.0.1"))]
    return records


def flood(names: int, tag: str, whole: bool, rate: float) -> None:
    """The stranger: wait for a line on stdin, multicast, then wait for another, and exit."""
    sock = mdns_socket()
    print("ready", flush=True)
    sys.stdin.readline()
    per_message = 20 if whole else 50
    started = time.monotonic()
    for first in range(0, names, per_message):
        out = DNSOutgoing(_FLAGS_QR_RESPONSE | _FLAGS_AA)
        for i in range(first, min(names, first + per_message)):
            for record in made_up(i, tag, whole):
                out.add_answer_at_time(record, 0)
        for packet in out.packets():
            sock.sendto(packet, MDNS_GROUP)
        time.sleep(max(0.0, started + (first + per_message) / rate - time.monotonic()))
    sys.stdin.readline()


def discovery_at(revision: str | None) -> ModuleType:
    """net/discovery.py of this tree, or of ``revision`` loaded beside it."""
    if revision is None:
        import p2p_burgundy.net.discovery as ours
        return ours
    source = subprocess.run(["git", "show", f"{revision}:net/discovery.py"], check=True,
                            capture_output=True, text=True).stdout
    spec = importlib.util.spec_from_loader("p2p_burgundy.net._discovery_then", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    exec(compile(source, f"{revision}:net/discovery.py", "exec"), module.__dict__)
    return module


def resident_kib() -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    """One run (see the module): what the browser did during the flood."""
    discovery = discovery_at(args.revision)
    tag = os.urandom(4).hex()
    changes = [0]

    def changed(tables: dict[str, object]) -> None:
        changes[0] += 1

    browser = discovery.Browser([LOOPBACK], changed)
    await browser.start()
    zc: Zeroconf = browser._azc.zeroconf
    sent = {"lookup packets": 0, "lookup bytes": 0, "PTR query packets": 0,
            "known made-up answers": 0}
    send = zc.async_send

    def counted(out: DNSOutgoing, *rest: Any) -> None:
        packets = out.packets()
        if any(q.type == _TYPE_PTR for q in out.questions):
            sent["PTR query packets"] += len(packets)
            sent["known made-up answers"] += sum(
                isinstance(a, DNSPointer) and tag in a.alias for a, _ in out.answers)
        else:
            sent["lookup packets"] += len(packets)
            sent["lookup bytes"] += sum(map(len, packets))
        send(out, *rest)

    zc.async_send = counted  # type: ignore[method-assign, assignment]
    stranger = subprocess.Popen(
        [sys.executable, __file__, "--stranger", "--names", str(args.names), "--tag", tag,
         "--rate", str(args.rate), *(["--whole"] if args.whole else [])],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert stranger.stdin is not None and stranger.stdout is not None
    assert stranger.stdout.readline() == "ready\n"
    await asyncio.sleep(SETTLED)
    for key in sent:
        sent[key] = 0
    table = a_table("Real")
    announcer = discovery.Announcer(table, [LOOPBACK])
    announced = listed_after = None
    peak_lookups = peak_tables = 0
    memory, cpu, began = resident_kib(), time.process_time(), time.monotonic()
    stranger.stdin.write("go\n")
    stranger.stdin.flush()
    while time.monotonic() < began + args.seconds:
        peak_lookups = max(peak_lookups, lookups_in_flight(zc))
        peak_tables = max(peak_tables, len(browser.tables))
        if announced is None and time.monotonic() >= began + ANNOUNCE_AT:
            await announcer.start()
            announced = time.monotonic()
        if announced is not None and listed_after is None and table.instance in browser.tables:
            listed_after = round(time.monotonic() - announced, 3)
        await asyncio.sleep(0.01)
    cpu = time.process_time() - cpu
    memory = resident_kib() - memory
    held = pointers_held(zc, tag)
    stranger.stdin.write("done\n")
    stranger.stdin.close()
    stranger.wait()
    await announcer.close()
    await browser.close()
    return {"tree": args.revision or "this", "names": args.names, "whole": args.whole,
            "peak lookups": peak_lookups, **sent, "peak tables": peak_tables,
            "on_change calls": changes[0], "made-up PTRs held": held,
            "CPU s": round(cpu, 2), "memory KiB": memory, "real table listed after s": listed_after}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--names", default="100,1000,10000",
                        help="made-up instances per run, comma-separated")
    parser.add_argument("--whole", action="store_true",
                        help="announce tables that parse, not bare names")
    parser.add_argument("--against", nargs="*", default=[], metavar="REV",
                        help="also run net/discovery.py as of these git revisions")
    parser.add_argument("--seconds", type=float, default=15.0,
                        help="how long each run counts, from the flood's start")
    parser.add_argument("--rate", type=float, default=2000.0,
                        help="made-up names a second (a busy browser loses some above this)")
    parser.add_argument("--stranger", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--revision", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--tag", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stranger:
        flood(int(args.names), args.tag, args.whole, args.rate)
    elif args.worker:
        args.names = int(args.names)
        print(json.dumps(asyncio.run(measure(args))))
    else:
        for names in args.names.split(","):
            for revision in [None, *args.against]:
                run = subprocess.run(
                    [sys.executable, __file__, "--worker", "--names", names, "--seconds",
                     str(args.seconds), "--rate", str(args.rate),
                     *(["--whole"] if args.whole else []),
                     *(["--revision", revision] if revision else [])],
                    check=True, capture_output=True, text=True)
                print(run.stdout.strip(), flush=True)


if __name__ == "__main__":
    main()
