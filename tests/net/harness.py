"""Test helpers beside the in-memory table (``net/inmemory.py``): what a cheating author can
forge with its own key, a game file's entries in order, and entries shuffled."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from p2p_burgundy.net.inmemory import Table
from p2p_burgundy.net.log import Kind, sign_entry


def shuffled(items: Iterable[bytes], seed: int) -> list[bytes]:
    out = list(items)
    random.Random(seed).shuffle(out)
    return out


def canonical(table: Table, peer: int = 0) -> list[bytes]:
    """Peer ``peer``'s entries as a finished game file holds them: START, then each chain."""
    return [entry.raw for entry in table.sessions[peer].canonical_entries()]


def forge_chain(
    table: Table,
    seat: int,
    at: int,
    kind: Kind,
    payload: list[Any],
    *,
    peer: int = 0,
    insert: bool = False,
) -> list[bytes]:
    """The game's entries (as ``canonical``) after ``seat`` rewrote its entry ``at`` (or
    inserted one there, or appended one when ``at`` is its chain's length) and re-signed
    every later entry so that its chain still links: what a cheating author can produce with
    its own key."""
    chains = [list(chain) for chain in table.sessions[peer].chains]
    chain = chains[seat]
    assert 0 <= at <= len(chain) and (at == len(chain) or chain[at].kind != Kind.START)
    ident = table.ids[seat]
    out = chain[:at]
    prev = out[-1].id if out else b""
    replaced = [sign_entry(ident, table.start.game_id, at, prev, kind, payload)]
    for old in chain[at if insert else at + 1 :]:
        replaced.append(
            sign_entry(ident, old.game_id, replaced[-1].seq + 1, replaced[-1].id, old.kind,
                       list(old.payload))
        )
    chains[seat] = out + replaced
    start = table.sessions[peer].start.entry
    return [start.raw] + [e.raw for c in chains for e in c if e.body != start.body]
