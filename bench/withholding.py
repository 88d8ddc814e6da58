"""Does withholding a reveal pay? An adversary on the real session code (docs/protocol.md,
"What a player can trust").

Two players play mcts on in-process sessions (``p2p_burgundy.net.inmemory.Table``). Seat 0 is the
adversary: at each chance event it waits for seat 1's reveal, computes the roll with its own
reveal and the roll without it (what the others draw once they hand it over), values both
with the mcts value (``LearnedValue``: its predicted score minus the opponent's), and
withholds its reveal whenever the roll without it is better. Seat 1 then hands it over at
that event, as its client does, and the stand-in plays seat 0 from there. The control plays
the same seeds with seat 0 honest. ``--only-last`` withholds at the last chance event only
(the cheapest moment: the stand-in then plays one round).

    python bench/withholding.py --games 200 --think 0.005 [--only-last]

prints one line per game (seed, withheld event or -, seat 0's score with and without the
adversary) and the means with 95% intervals.
"""

from __future__ import annotations

import argparse
import math
import statistics

from p2p_burgundy import draw_chance
from p2p_burgundy.cli.lan import compose_turn
from p2p_burgundy.cli.strategies import make
from p2p_burgundy.cli.strategies.value import LearnedValue
from p2p_burgundy.net import wire
from p2p_burgundy.net.beacon import event_entropy
from p2p_burgundy.net.contents import Reveal
from p2p_burgundy.net.inmemory import Table
from p2p_burgundy.net.log import decode_entry
from p2p_burgundy.net.messages import Tag

ADVERSARY, HONEST = 0, 1
LAST_EVENT = 30  # the last round's dice in a standard game


def play(seed: int, think: float, adversary: bool, only_last: bool,
         value: LearnedValue) -> tuple[int, int, int | None]:
    """One game; seat 0's and seat 1's final scores and the event seat 0 withheld (if)."""
    table = Table(2, seed=seed, table_id=seed.to_bytes(16, "big"))
    bots = [make("mcts", seed=seed * 2 + i, think=think) for i in range(2)]
    withheld: int | None = None
    released = -1  # seat 0's reveals up to this chance event may go out
    mine = table.sessions[ADVERSARY]

    def drop(source: int, destination: int, data: bytes) -> bytes | None:
        if source != ADVERSARY:
            return data
        tag, fields = wire.decode_message(data)
        if tag == Tag.ENTRY and isinstance(fields[0], bytes):
            entry = decode_entry(fields[0])
            first = next((q for q, c in enumerate(mine.contents[ADVERSARY])
                          if isinstance(c, Reveal) and c.event > released), None)
            if first is not None and entry.seq >= first:
                return None
        return data

    if adversary:
        table.filter = drop
    honest = table.sessions[HONEST]
    while not honest.over:
        chance = honest.state.chance  # what seat 1 waits for (seat 0's own game went on)
        reveals = mine._reveals.get(chance.index, {}) if chance is not None else {}
        if (adversary and withheld is None and chance is not None and chance.index > released
                and HONEST in reveals and ADVERSARY in reveals):
            k = chance.index
            with_it = event_entropy(mine.game_id, k, [reveals[ADVERSARY][1],
                                                      reveals[HONEST][1]])
            without = event_entropy(mine.game_id, k, [reveals[HONEST][1]])
            worth = [value.value(s, ADVERSARY) - value.value(s, HONEST)
                     for s in (draw_chance(honest.state, e)[0] for e in (with_it, without))]
            if worth[1] > worth[0] and (not only_last or k == LAST_EVENT):
                withheld = k
                table.offline.add(ADVERSARY)
                honest.agree_seat_to_bot(ADVERSARY)  # it waits for seat 0's reveal
                table.flush(HONEST)
            else:
                released = k
                table.tick()  # anti-entropy sends what was held back
            continue
        moved = False
        for seat, session in enumerate(table.sessions):
            if seat in table.offline or not session.my_turn:
                continue
            session.submit_turn(compose_turn(session.state, bots[seat]))
            table.flush(seat)
            moved = True
        if table.pump() == 0 and not moved:
            table.tick()
    scores = honest.state.players
    return scores[ADVERSARY].vp, scores[HONEST].vp, withheld


def interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half width of its 95% interval (normal approximation)."""
    return statistics.fmean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--think", type=float, default=0.005)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--only-last", action="store_true")
    args = parser.parse_args()
    value = LearnedValue.load()
    treated: list[float] = []
    control: list[float] = []
    held = 0
    for seed in range(args.first_seed, args.first_seed + args.games):
        bad, _, withheld = play(seed, args.think, True, args.only_last, value)
        good, _, _ = play(seed, args.think, False, args.only_last, value)
        treated.append(bad)
        control.append(good)
        held += withheld is not None
        print(f"seed {seed}: withheld {'-' if withheld is None else withheld}, seat 0 "
              f"{bad} VP with the adversary, {good} honest", flush=True)
    (tm, th), (cm, ch) = interval(treated), interval(control)
    dm, dh = interval([t - c for t, c in zip(treated, control, strict=True)])
    when = "last event only" if args.only_last else "every event"
    print(f"{args.games} games, think {args.think} s, {when}: withheld in {held}; "
          f"adversary {tm:.1f} ± {th:.1f} VP, honest control {cm:.1f} ± {ch:.1f} VP, "
          f"paired difference {dm:+.1f} ± {dh:.1f} VP")


if __name__ == "__main__":
    main()
