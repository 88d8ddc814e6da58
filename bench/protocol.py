"""Protocol benchmark (not a test): signing and verifying entries, and what one turn costs.

Reports, on one core:

- log entries signed per second (``sign_entry`` of a typical 6-action TURN) and verified per
  second (``parse_entry``: strict decoding and the Ed25519 check);
- the cost of one turn on the in-memory table with 4 peers (``net/inmemory.py``):
  from ``submit_turn`` (signing) until every peer's engine has applied it, delivery included
  (each datagram decoded, the entry verified and the turn replayed by each peer). The bot's
  choice of the turn is made before the clock starts. Turns that end a round also carry the
  next chance event (every peer's REVEAL, verified by every other, then the dice); they are
  reported apart;
- the time to audit a finished 4-player game file (``burgundy verify`` without printing);
- snapshots of a finished 4-player session taken per second (``Snapshots.take``, what a peer
  does after each batch of input for the terminal client's thread): when something changed,
  and when nothing did (most input: a HEADS that brings nothing, a flood of garbage).

Run from the repository root::

    python bench/protocol.py             # the figures in docs/performance.md
    python bench/protocol.py --games 2   # quicker, noisier

Whole games against another revision, side by side: ``bench/protocol_games.py``.
"""

from __future__ import annotations

import argparse
import itertools
import platform
import statistics
import sys
import time
from collections.abc import Callable

from p2p_burgundy import UseDie
from p2p_burgundy.actions import END_TURN, PlaceTile, SellGoods, TakeTile
from p2p_burgundy.net import wire
from p2p_burgundy.net.audit import audit
from p2p_burgundy.net.identity import Identity, verify
from p2p_burgundy.net.inmemory import Table, random_turn
from p2p_burgundy.net.log import Kind, parse_entry, sign_entry
from p2p_burgundy.net.snapshot import Snapshots

TURN = [UseDie(0), TakeTile(3, 1), UseDie(1), PlaceTile(0, 17), SellGoods(4), END_TURN]


def per_second(run: Callable[[], object], count: int, repeat: int = 3) -> float:
    """Calls per second of ``run()`` (best of ``repeat`` batches of ``count``)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(count):
            run()
        best = min(best, time.perf_counter() - start)
    return count / best


def entry_rates(count: int) -> tuple[float, float, int]:
    me = Identity.from_private_bytes(bytes([1]) * 32)
    payload: list[wire.Encodable] = [17, [wire.value(a.to_tree()) for a in TURN]]
    game_id, prev = bytes(16), bytes(32)
    raw = sign_entry(me, game_id, 5, prev, Kind.TURN, payload).raw
    signed = per_second(lambda: sign_entry(me, game_id, 5, prev, Kind.TURN, payload), count)
    verified = per_second(lambda: parse_entry(raw), count)
    return signed, verified, len(raw)


def ed25519_rates(count: int) -> tuple[float, float]:
    """The bare primitive, for scale: Ed25519 signatures made and checked per second."""
    me = Identity.from_private_bytes(bytes([1]) * 32)
    message = bytes(200)
    signature = me.sign(b"entry", message)
    return (per_second(lambda: me.sign(b"entry", message), count),
            per_second(lambda: verify(me.public_key, b"entry", message, signature), count))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def turn_costs(games: int, players: int) -> tuple[list[float], list[float], list[float], int]:
    """Per turn (seconds): plain turns, turns that end a round, audit times; entries/game."""
    plain: list[float] = []
    round_end: list[float] = []
    audits: list[float] = []
    entries = 0
    for seed in range(games):
        table = Table(players, seed=seed)
        table.pump()
        while not table.sessions[0].state.is_over:
            mover = next(s for s in table.sessions if s.my_turn)
            actions = random_turn(mover.state, table.bots[0])
            chance_before = mover.state.chance_index
            t = mover.turn_number
            start = time.perf_counter()
            mover.submit_turn(actions)
            table.pump()
            elapsed = time.perf_counter() - start
            assert all(s.turn_number > t for s in table.sessions)
            ended_round = table.sessions[0].state.chance_index != chance_before
            (round_end if ended_round else plain).append(elapsed)
        entries += len(table.files[0])
        start = time.perf_counter()
        report = audit(table.files[0])
        audits.append(time.perf_counter() - start)
        assert report.ok
    return plain, round_end, audits, entries // games


def snapshot_rates(count: int) -> tuple[float, float, int]:
    """Snapshots of a finished 4-player session per second: each one new (who is silent
    changes every time) and each one unchanged; the game's steps."""
    table = Table(4, seed=0)
    table.play()
    snapshots = Snapshots(table.sessions[0])
    silences = itertools.cycle([(), (1,)])
    new = per_second(lambda: snapshots.take(next(silences)), count)
    same = per_second(lambda: snapshots.take(()), count)
    return new, same, len(table.sessions[0].history)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="4-player games to time")
    parser.add_argument("--entries", type=int, default=2000, help="entries per rate batch")
    args = parser.parse_args(argv)
    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"{platform.processor() or platform.platform()}")
    signed, verified, size = entry_rates(args.entries)
    bare_sign, bare_verify = ed25519_rates(args.entries)
    print(f"entries signed:   {signed:8.0f} /s  (a 6-action TURN entry, {size} bytes; "
          "sign_entry also decodes what it made)")
    print(f"entries verified: {verified:8.0f} /s  (strict decode + Ed25519 verify)")
    print(f"bare Ed25519:     {bare_sign:8.0f} signatures /s, {bare_verify:.0f} verifications /s")
    plain, round_end, audits, entries = turn_costs(args.games, 4)
    ms = 1000.0
    print(f"one turn, 4 peers, signing to applied everywhere ({len(plain)} turns): "
          f"mean {statistics.mean(plain) * ms:.2f} ms, p95 {percentile(plain, 95) * ms:.2f} ms")
    print(f"  turns that end a round, with the next round's reveals and dice "
          f"({len(round_end)}): mean {statistics.mean(round_end) * ms:.2f} ms, "
          f"p95 {percentile(round_end, 95) * ms:.2f} ms")
    every = plain + round_end
    print(f"  all turns: mean {statistics.mean(every) * ms:.2f} ms, "
          f"p95 {percentile(every, 95) * ms:.2f} ms")
    print(f"audit of a finished 4-player game ({entries} entries): "
          f"mean {statistics.mean(audits) * ms:.0f} ms")
    new, same, steps = snapshot_rates(args.entries)
    print(f"snapshots of a finished 4-player session ({steps} steps): {new:8.0f} /s new, "
          f"{same:.0f} /s unchanged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
