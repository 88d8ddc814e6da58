"""Keeping peers' logs in sync, sans-I/O: what we hold durably, what we ask for, what we serve,
and when a player that lost its game file may author again (docs/protocol.md, "Session
messages").

The :class:`~p2p_burgundy.net.session.Session` holds the entries and follows the game; a
:class:`Sync` reads its chains (and never changes them) and decides which HEADS, WANT, ENTRY,
RECOVER and HELD messages go out. Its calls return messages, the session sends them: the
answers of :meth:`Sync.answer` to whoever asked, those of :meth:`Sync.saved` and
:meth:`Sync.handle_timer` to every peer.

- Only **durable** entries (in the game file) are announced, served or pushed:
  :meth:`Sync.taken` notes what the session handed over to be saved, :meth:`Sync.saved` that
  it is saved, and gives our own new entries, to send once to everyone.
- **Anti-entropy**: every :data:`HEADS_INTERVAL` we announce how many entries of each seat we
  hold (HEADS). Whoever holds more is asked for them (WANT, at most :data:`WANT_BATCH` at a
  time); whoever holds less gets our HEADS (so it pulls) and the entries we authored that it
  lacks; another head for a slot we hold is fetched, so both sides hold the equivocation.
- **Recovery**: a player without its game file authors nothing while :attr:`Sync.recovering`;
  it asks (RECOVER, with a fresh nonce) and counts only answers a seat signed for that nonce
  (HELD), until every other live seat answered and it holds as many of its entries as any
  says it does.

A peer that holds 20 entries of seat 0 is asked for the first 16 (we hold none):

>>> sync = Sync(bytes(16), [bytes(32), bytes([1]) * 32], [[], []], set(), None, None)
>>> [(want.seat, want.first, want.count)
...  for want in sync.answer(Heads(bytes(16), (20, 0), (bytes(32), b"")))]
[(0, 0, 16)]
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from . import wire
from .errors import DecodeError, LocalProtocolError, RemoteProtocolError
from .identity import Identity, verify
from .log import Entry
from .messages import NONCE_SIZE, EntryMessage, Heads, Held, Message, Recover, Want

HELD_DOMAIN = b"held"
WANT_BATCH = 16  # entries sent for one WANT, or pushed for one HEADS
HEADS_INTERVAL = 0.5  # seconds between HEADS announcements


def held_message(game_id: bytes, nonce: bytes, signer: int, seat: int, count: int,
                 head: bytes) -> bytes:
    """What a seat signs in HELD: it holds ``count`` entries of ``seat``, the last ``head``,
    answering the recovering player's ``nonce`` in this game."""
    return wire.encode([game_id, nonce, signer, seat, count, head])


class Sync:
    """One peer's side of anti-entropy and recovery for one game; see the module's docstring."""

    def __init__(self, game_id: bytes, keys: Sequence[bytes], chains: Sequence[Sequence[Entry]],
                 faulty: Collection[int], identity: Identity | None, my_seat: int | None,
                 recovery_nonce: bytes | None = None) -> None:
        """``keys``: the seats' keys, in seat order; ``chains`` and ``faulty`` (seats caught
        equivocating) are the session's, read as they change; ``identity`` and ``my_seat``
        are None for a spectator. ``recovery_nonce``: we lost our game file; fresh random
        bytes our RECOVER asks the seats to sign."""
        if recovery_nonce is not None and len(recovery_nonce) != NONCE_SIZE:
            raise LocalProtocolError(f"recovering needs a fresh {NONCE_SIZE}-byte nonce")
        self.game_id = game_id
        self._keys = tuple(keys)
        self._chains = chains
        self._faulty = faulty
        self._identity = identity
        self._my_seat = my_seat
        self._recovery_nonce = recovery_nonce
        # Entries per seat written to the game file: only these are announced or served.
        self._durable = [0] * len(self._keys)
        self._taken = [0] * len(self._keys)
        self._held: dict[int, int] = {}  # seat -> how many of ours it signed it holds
        self._next_heads = 0.0

    @property
    def recovering(self) -> bool:
        """Whether we lost our game file and do not hold all our entries back yet: we must
        author nothing (we could sign a second body for a slot we used)."""
        return self._recovery_nonce is not None

    # --- durability ---

    def taken(self) -> None:
        """The session handed every entry it holds over to be saved."""
        self._taken = [len(c) for c in self._chains]

    def saved(self) -> list[Message]:
        """What :meth:`taken` noted is durable: our own new entries, to send to every peer."""
        out: list[Message] = []
        if self._my_seat is not None:
            mine = self._chains[self._my_seat]
            out = [EntryMessage(entry.raw)
                   for entry in mine[self._durable[self._my_seat] : self._taken[self._my_seat]]]
        self._durable = self._taken
        return out

    # --- the timer ---

    def handle_timer(self, now: float) -> list[Message]:
        """What to send every peer at ``now``: our HEADS when due (and RECOVER while
        recovering)."""
        if now < self._next_heads:
            return []
        self._next_heads = now + HEADS_INTERVAL
        out: list[Message] = [self.heads()]
        if self._recovery_nonce is not None and self._my_seat is not None:
            out.append(Recover(self.game_id, self._my_seat, self._recovery_nonce))
        return out

    def heads(self) -> Heads:
        """How many entries of each seat we hold durably, and the id of the last."""
        heads = [self._chains[s][n - 1].id if n else b"" for s, n in enumerate(self._durable)]
        return Heads(self.game_id, tuple(self._durable), tuple(heads))

    # --- messages from a peer ---

    def answer(self, message: Heads | Want | Recover) -> list[Message]:
        """Our answers to a peer's HEADS, WANT or RECOVER, to send back to it. DecodeError if
        the message is not for this game's seats."""
        return _ANSWERS[type(message)](self, message)

    def held(self, message: Held, others: Collection[int]) -> bool:
        """Count a HELD answer to our RECOVER; whether that ends our recovery: every seat of
        ``others`` (the other live seats) answered, and we hold at least as many of our
        entries as any said. RemoteProtocolError if its signature does not verify for our
        nonce (a forgery, or an answer to someone else's)."""
        if message.game_id != self.game_id or message.signer >= len(self._keys):
            raise DecodeError(f"HELD is {Held.FORM}, signed by a seat of this game")
        signer, count = message.signer, message.count
        nonce, me = self._recovery_nonce, self._my_seat
        if nonce is None or me is None or message.seat != me or signer == me:
            return False
        if not verify(self._keys[signer], HELD_DOMAIN,
                      held_message(self.game_id, nonce, signer, me, count, message.head),
                      message.signature):
            raise RemoteProtocolError("HELD signature does not verify (or another nonce)",
                                      author=self._keys[signer])
        self._held[signer] = max(count, self._held.get(signer, 0))
        if (all(s in self._held for s in others)
                and len(self._chains[me]) >= max(self._held.values(), default=0)):
            self._recovery_nonce = None
            return True
        return False

    def _answer_heads(self, message: Heads) -> list[Message]:
        if message.game_id != self.game_id or len(message.counts) != len(self._keys):
            raise DecodeError(f"HEADS is {Heads.FORM}, for this game's seats")
        out: list[Message] = []
        counts, heads = message.counts, message.heads
        for seat, theirs in enumerate(counts):
            chain = self._chains[seat]
            mine = len(chain)
            if theirs > mine:
                out.append(Want(self.game_id, seat, mine, min(theirs - mine, WANT_BATCH)))
            elif theirs and chain[theirs - 1].id != heads[seat] and seat not in self._faulty:
                # Another body for one of our slots: equivocation. Fetch theirs and show them
                # ours, so both sides hold the proof (a fork below our count is caught by
                # them, from our HEADS).
                out.append(Want(self.game_id, seat, theirs - 1, 1))
                if theirs <= self._durable[seat]:
                    out.append(EntryMessage(chain[theirs - 1].raw))
        if any(theirs < mine for theirs, mine in zip(counts, self._durable, strict=True)):
            # They lack entries we hold: tell them, so they pull (one reply per HEADS).
            out.append(self.heads())
        me = self._my_seat
        if me is not None and counts[me] < self._durable[me]:
            # They lack entries of ours: push them too. Our entries are signed, so they reach
            # a peer whose budget for our address a spoofer spent (our WANTs would not).
            first = counts[me]
            ours = self._chains[me][first : min(first + WANT_BATCH, self._durable[me])]
            out += [EntryMessage(entry.raw) for entry in ours]
        return out

    def _answer_want(self, message: Want) -> list[Message]:
        if message.game_id != self.game_id or message.seat >= len(self._keys):
            raise DecodeError(f"WANT is {Want.FORM}, for a seat of this game")
        durable = self._chains[message.seat][: self._durable[message.seat]]
        return [EntryMessage(entry.raw)
                for entry in durable[message.first : message.first + min(message.count,
                                                                         WANT_BATCH)]]

    def _answer_recover(self, message: Recover) -> list[Message]:
        """Tell a player that lost its file how many of its entries we hold, signed with our
        key and its nonce, so that nobody else can tell it less (it would then sign a second
        body for a slot it used: equivocation)."""
        if message.game_id != self.game_id or message.seat >= len(self._keys):
            raise DecodeError(f"RECOVER is {Recover.FORM}, for a seat of this game")
        seat, me = message.seat, self._my_seat
        if self._identity is None or me is None or seat == me:
            return []  # spectators hold nothing they could vouch for
        count = self._durable[seat]
        head = self._chains[seat][count - 1].id if count else b""
        signature = self._identity.sign(HELD_DOMAIN, held_message(
            self.game_id, message.nonce, me, seat, count, head))
        return [Held(self.game_id, me, seat, count, head, signature)]


_ANSWERS: dict[type[Message], Callable[[Sync, Any], list[Message]]] = {
    Heads: Sync._answer_heads,
    Want: Sync._answer_want,
    Recover: Sync._answer_recover,
}
"""Sync's answer to each message a peer asks with."""
