"""The protocol core: one peer's view of one game, with no I/O (bytes and time in, bytes out).

A :class:`Session` is driven by three calls, like aioquic's connection:
:meth:`~Session.receive_datagram` (bytes from a peer), :meth:`~Session.handle_timer` (the
time is ``now``; see :meth:`~Session.get_timer`) and the player's own API
(:meth:`~Session.submit_turn`, :meth:`~Session.send_chat`). Output is pulled:
:meth:`~Session.take_unsaved` (entries to append to the game file), then after they are durable
:meth:`~Session.saved`, then :meth:`~Session.datagrams_to_send` and :meth:`~Session.next_event`.
It never reads a clock, a socket or a random source.

The game advances deterministically from the set of entries, whatever order they arrive in:

- each author's entries form a hash chain (seq 0, 1, ...), accepted only contiguously;
  a second body for one (author, seq) is equivocation, kept as proof;
- chance event k resolves once every seat's REVEAL for k is in (seat order into the entropy);
  a seat that withholds it is named by :meth:`~Session.waiting_for`, and nothing is re-drawn;
- turn t is the first legal TURN entry for t in the chain of the seat to move; any other
  TURN for t (wrong seat, illegal, or late) is rejected and its author named;
- in the experts' secret set-up, each seat commits to its choice (CHOICE_COMMIT), reveals it
  (CHOICE_REVEAL) only once every seat has committed, and the choices are applied, in turn
  order and as turns, only once every seat's reveal is in and matches its commitment;
- a seat the game waits for goes to a bot when every other live seat agreed (SEAT_TO_BOT,
  naming that step) or when its own player resigned (RESIGN, no vote); the only player left
  may end the game there as the winner (END).

Delivery is anti-entropy: peers announce how many entries of each seat they hold (HEADS)
and pull what they lack (WANT), so loss, duplication, reordering and restarts are one case.
:mod:`.sync` decides what to announce, ask for and serve, and when a player that lost its game
file may author again; the session keeps the entries and the game's progress.

Beside it: :mod:`.start` (the START entry that fixes the game), :mod:`.choice` (what a secret
set-up commitment is), :mod:`.sync` and :mod:`.events` (what the session reports, and
:func:`~.events.follow`, which keeps a list of the game's steps up to date with it).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from p2p_burgundy import (
    END_TURN,
    Action,
    ChooseEstate,
    EngineError,
    GameState,
    Setup,
    Step,
    action_from_tree,
    apply,
    as_chooser,
    draw_chance,
    legal_actions,
    new_game,
    outcome,
    state_hash,
)
from p2p_burgundy.scoring import Outcome

from . import wire
from .beacon import LINK_SIZE, HashChain, event_entropy, verify_reveal
from .choice import SALT_SIZE, choice_digest, choice_salt
from .errors import DecodeError, LocalProtocolError, RemoteProtocolError
from .events import (
    ChanceResolved,
    ChatReceived,
    EntryRejected,
    Equivocation,
    Event,
    GameOver,
    HandedOver,
    Rebuilt,
    Rejection,
    Resolved,
    TurnApplied,
    Void,
    Waiting,
)
from .identity import Identity
from .log import Entry, Kind, decode_entry, parse_entry, sign_entry
from .messages import EntryMessage, Heads, Held, Message, Recover, Want, parse
from .start import game_chain, parse_start
from .sync import Sync

MAX_CHAT = 280  # characters in a chat line
MAX_TURN_ACTIONS = 64
MAX_EARLY = 64  # entries buffered per author ahead of a gap
MAX_OUTBOX = 512  # datagrams queued; anti-entropy repairs anything dropped
MAX_EVENTS = 4096

BROADCAST = None
"""Destination of a datagram meant for every other peer."""


# --- The session -------------------------------------------------------------------------------


class Session:
    """One peer's copy of one game: verifies entries, advances the engine, authors its own."""

    def __init__(
        self, start: Entry, identity: Identity | None = None, *, recovering: bool = False,
        recovery_nonce: bytes = b"",
    ) -> None:
        """``identity`` is None for a spectator. ``recovering``: this player lost its game
        file, so it authors nothing until every other live seat has told it, signed and
        bound to the fresh ``recovery_nonce`` (random bytes from the caller), how many of its
        entries it holds, and it has fetched that many back."""
        self.start = parse_start(start)
        self.game_id = start.game_id
        self.config = self.start.config
        self.seats = self.start.seats
        self._seat_of = {s.key: i for i, s in enumerate(self.seats)}
        self.identity = identity
        self.my_seat: int | None = None
        self._chain: HashChain | None = None
        if identity is not None:
            if identity.public_key not in self._seat_of:
                raise LocalProtocolError("this identity has no seat at the table")
            self.my_seat = self._seat_of[identity.public_key]
            self._chain = game_chain(identity, self.game_id)
            if self._chain.commitment != self.seats[self.my_seat].commitment:
                raise LocalProtocolError("the start entry holds another commitment for us")
        n = len(self.seats)
        host = self._seat_of[start.author]
        self.chains: list[list[Entry]] = [[] for _ in range(n)]
        self.chains[host].append(start)
        self._early: dict[tuple[int, int], Entry] = {}
        self.faulty: dict[int, str] = {}
        self.proofs: list[Equivocation] = []
        # A seat handed to a bot -> the step from which (steps count every chance event and
        # every turn the game resolved, from 0).
        self.forfeits: dict[int, int] = {}
        self._handovers: list[HandedOver] = []  # every hand-over the game made, in order
        self._handed: dict[int, tuple[GameState, int]] = {}  # seat -> (state, turn) at hand-over
        # step -> seat to hand over -> voter -> seq of the voter's (first) agreement
        self._agreements: dict[int, dict[int, dict[int, int]]] = {}
        self.resigned: dict[int, int] = {}  # seat -> seq of its RESIGN entry
        self._ends: dict[int, int] = {}  # seat -> seq of its END entry
        self.ended: tuple[int, int] | None = None  # (seat, step) when an END ended the game
        self._rebuild_due = False
        self._rebuilding = False
        self.rebuilds = 0  # times the game was recomputed (each reported as Rebuilt)
        self.state: GameState = new_game(self.config)
        self.step = 0
        self.turn_number = 0
        self.history: list[Resolved] = []  # every resolved step, in order
        self.rejected: dict[tuple[int, int], EntryRejected] = {}  # (seat, seq) -> why void
        self._sole_from = 0  # the first chance event with one contributor (sole_contributor)
        self._reveals: dict[int, dict[int, bytes]] = {}
        self._turns: dict[int, list[tuple[int, int]]] = {}  # t -> (seat, seq), in arrival order
        self._commits: dict[int, tuple[int, bytes]] = {}  # seat -> (seq, digest): secret set-up
        self._choices: dict[int, tuple[int, Action]] = {}  # seat -> (seq, choice) that matched
        self._unsaved: list[Entry] = [start]
        self._end_reported: GameOver | None = None  # the end of the game, once reported
        self._outbox: deque[tuple[bytes, object]] = deque(maxlen=MAX_OUTBOX)
        self._events: deque[Event] = deque(maxlen=MAX_EVENTS)
        self._sync = Sync(self.game_id, [s.key for s in self.seats], self.chains, self.faulty,
                          identity, self.my_seat, recovery_nonce if recovering else None)
        self._advance()

    # --- the player's API ---

    @property
    def deputy(self) -> int | None:
        """The seat that authors the turns of seats handed to a bot: the lowest live seat
        (None when no seat is live: every one handed to a bot or caught equivocating)."""
        return min(self._live(), default=None)

    def _live(self) -> list[int]:
        """Seats that still play and vote: not handed to a bot, not caught equivocating."""
        return [s for s in range(len(self.seats))
                if s not in self.forfeits and s not in self.faulty]

    @property
    def playing_for_bot(self) -> bool:
        """Whether the turn we are to compose is a bot's (a seat handed over), not ours."""
        mover = self.state.to_move
        return (mover is not None and mover in self.forfeits and self.my_seat is not None
                and self.my_seat == self.deputy and not self.recovering
                and not self._signed_off and self.ended is None
                and not (self._secret_choosing() and mover in self._choices))

    @property
    def sole_contributor(self) -> tuple[int, int] | None:
        """``(seat, k)`` when hand-overs left one seat contributing entropy at a table of
        several: from chance event ``k`` on, that seat's chain alone decides every roll and
        draw, so that player can predict them all (no protocol can prevent it)."""
        required = self._required()
        if len(self.seats) < 2 or len(required) != 1:
            return None
        return required[0], self._sole_from

    def agree_seat_to_bot(self, seat: int) -> None:
        """Agree that a bot plays ``seat`` from the step the game waits at now: the hand-over
        happens if the game waits there for that seat and every other live player agrees
        to the same step. It never touches a step already resolved, and an agreement for a
        step the game does not wait at for that seat simply never applies."""
        if self.my_seat is None or seat == self.my_seat or not 0 <= seat < len(self.seats):
            raise LocalProtocolError("agree to hand another player's seat to a bot")
        if self.my_seat in self._agreements.get(self.step, {}).get(seat, {}):
            raise LocalProtocolError("we already agreed to hand that seat over at this step")
        if self._signed_off:
            raise LocalProtocolError("we resigned: the others decide without us")
        self._author(Kind.SEAT_TO_BOT, [seat, self.step])

    def resign(self) -> None:
        """Leave the game for good: a bot plays our seat from the first step at which the
        game waits for us, with no vote (our own entry is our consent). We author nothing for
        the game after this (chat aside)."""
        if self.my_seat is None or self.recovering:
            raise LocalProtocolError("spectators and recovering peers cannot resign")
        if self.over:
            raise LocalProtocolError("the game is over")
        if self.my_seat in self.resigned or self.handed_over:
            raise LocalProtocolError("our seat is already played by a bot")
        self._author(Kind.RESIGN, [])

    @property
    def may_end(self) -> bool:
        """Whether we are the only player left (every other seat is played by a bot), so
        that we may end the game here as the winner (:meth:`end`) instead of playing on."""
        me = self.my_seat
        return (me is not None and len(self.seats) > 1 and not self.over
                and not self.recovering and me not in self.resigned and me not in self._ends
                and all(s in self.forfeits for s in range(len(self.seats)) if s != me))

    def end(self) -> None:
        """End the game at the step it waits at, as its winner: we are the only player left
        (:attr:`may_end`). The scores stand as they are; nothing we sign counts after."""
        if not self.may_end:
            raise LocalProtocolError("only the last player left may end the game")
        self._author(Kind.END, [])

    @property
    def _signed_off(self) -> bool:
        """Whether we resigned or ended the game: we author nothing for it any more."""
        return self.my_seat in self.resigned or self.my_seat in self._ends

    @property
    def over(self) -> bool:
        """Whether the game is over: played to its end, or ended by the last player left."""
        return self.state.is_over or self.ended is not None

    def outcome(self) -> Outcome:
        """The result: the engine's when the game was played out; when the last player left
        ended it, that player wins and the others follow by their points as they stand."""
        result = outcome(self.state)
        if self.ended is None:
            return result
        winner = self.ended[0]
        rest = tuple(s for s in result.ranking if s != winner)
        return Outcome((winner, *rest), result.scores, result.empty_spaces,
                       "the last player left ended the game")

    def handed_round(self, seat: int) -> tuple[int, int] | None:
        """``(phase, round)`` (0-based) of the step ``seat`` was handed to a bot at, or None."""
        if seat not in self._handed:
            return None
        state = self._handed[seat][0]
        return state.phase, state.round

    def _required(self) -> list[int]:
        """Seats whose reveal every chance event needs (not those handed to a bot)."""
        return [s for s in range(len(self.seats)) if s not in self.forfeits]

    def _missing(self) -> list[int]:
        """The seats the game waits for at this step (it cannot resolve it without them)."""
        if self.state.chance is not None:
            have = self._reveals.get(self.state.chance.index, {})
            return [s for s in self._required() if s not in have]
        if self._secret_choosing():
            owing = [s for s in self._required() if s not in self._commits]
            owing = owing or [s for s in self._required() if s not in self._choices]
            if owing:
                return owing
        mover = self.state.to_move
        assert mover is not None
        if mover in self.forfeits:
            return [] if self.deputy is None else [self.deputy]
        return [mover]

    def _hand_over(self) -> bool:
        """Hand to a bot, from this step, the largest set of seats the game waits for such
        that every live seat outside it agreed (naming this step) to hand over each of them.
        Whether any seat was handed over (or, the only player left having signed END, the
        game ended here). A function of the entries alone, so every peer decides it alike
        whatever the order they arrived in."""
        votes = {x: {v for v, seq in by.items() if self._reached(v, seq)}
                 for x, by in self._agreements.get(self.step, {}).items()}
        missing = self._missing()
        for seat in missing:
            if seat in self._ends and all(s in self.forfeits for s in range(len(self.seats))
                                          if s != seat):
                self.ended = (seat, self.step)
                return True
        # Their own consent (an END that cannot end the game, others still playing, is one).
        resigning = {x for x in missing if x in self.resigned or x in self._ends}
        handing = {x for x in missing if votes.get(x)} - resigning
        while handing:  # a seat that resigned has no say: it agreed to whatever comes
            voters = [v for v in self._live() if v not in handing and v not in self.resigned
                      and v not in self._ends]
            keep = {x for x in handing if voters and all(v in votes[x] for v in voters)}
            if keep == handing:
                break
            handing = keep
        handing |= resigning
        if not handing:
            return False
        for seat in sorted(handing):
            self.forfeits[seat] = self.step
            self._handed[seat] = (self.state, self.turn_number)
        if len(self.seats) > 1 and len(self._required()) == 1:
            self._sole_from = self._chance_count()
        handed = HandedOver(tuple(sorted(handing)), self.step, self.deputy,
                            self.sole_contributor, tuple(sorted(resigning)))
        self._handovers.append(handed)
        if not self._rebuilding:  # a rebuild reports its hand-overs after Rebuilt
            self._event(handed)
        return True

    def _reached(self, voter: int, seq: int) -> bool:
        return self.reached(voter, seq, self.step)

    def reached(self, voter: int, seq: int, step: int) -> bool:
        """Whether ``voter`` had reached ``step`` (resolved, or the one the game is at) when
        it signed its entry ``seq``: its chain holds, before it, its reveal for that step's
        chance event or the last one before it. An agreement counts only then, so nobody can
        sign agreements ahead that would act the moment a later turn comes, before its player
        had a chance to play it."""
        resolved = self.history[step] if step < len(self.history) else None
        if isinstance(resolved, ChanceResolved):
            k = resolved.index
        elif step == len(self.history) and self.state.chance is not None:
            k = self.state.chance.index
        else:
            k = sum(isinstance(h, ChanceResolved) for h in self.history[:step]) - 1
        return any(e.kind == Kind.REVEAL and e.payload[:1] == (k,)
                   for e in self.chains[voter][:seq])

    def _chance_count(self) -> int:
        """How many chance events the game resolved."""
        return sum(isinstance(h, ChanceResolved) for h in self.history)

    def _rebuild(self) -> None:
        """Recompute the game from every chain: a seat handed over at a step turned out to
        have played that very step itself (its entry crossed the agreements), and a player's
        own entry always counts. Reported in the order events.py states: Rebuilt, then the
        hand-overs the game made anew, then its end if it ended otherwise."""
        self._rebuilding = True
        self._rebuild_due = False
        self.rebuilds += 1
        self.state = new_game(self.config)
        self.step = self.turn_number = 0
        before, self.history = self.history, []
        handovers, self._handovers = self._handovers, []
        reported, self._end_reported = self._end_reported, None
        self.forfeits, self._handed, self._agreements, self.resigned = {}, {}, {}, {}
        self._ends, self.ended = {}, None
        self._reveals, self._turns, self._commits, self._choices = {}, {}, {}, {}
        void, self.rejected = self.rejected, {}
        for seat, chain in enumerate(self.chains):
            for entry in chain:
                if entry.kind != Kind.START:
                    why = self._file_entry(seat, entry)
                    if why is not None:
                        self._reject(seat, entry.seq, *why)
        self._advance()  # silently: Rebuilt carries the steps that changed
        self._rebuilding = False
        pairs = enumerate(zip(before, self.history, strict=False))
        since = next((i for i, (old, new) in pairs if old != new),
                     min(len(before), len(self.history)))
        self._event(Rebuilt(self.step, tuple(sorted(set(void) - set(self.rejected))), since,
                            tuple(self.history[since:])))
        for handed in self._handovers:
            if handed not in handovers:
                self._event(handed)
        self._report_over(reported)

    def _report_over(self, reported: GameOver | None = None) -> None:
        """Report the end of the game, once: after a rebuild only if it ended otherwise
        than ``reported`` (what was reported before)."""
        if self.over and self._end_reported is None:
            self._end_reported = GameOver(self.outcome(), state_hash(self.state))
            if self._end_reported != reported:
                self._event(self._end_reported)

    @property
    def my_turn(self) -> bool:
        if self._secret_choosing() and not self.playing_for_bot:
            return False  # secret set-up choices go through submit_choice
        if self.playing_for_bot:
            return True
        return (
            self.my_seat is not None and self.state.to_move == self.my_seat
            and not self.recovering and not self.handed_over
            and not self._signed_off and self.ended is None
        )

    @property
    def handed_over(self) -> bool:
        """Whether the other players handed our own seat to a bot (we can only watch now:
        anything we author for it is void). In a 2-player game one player alone decides this;
        the log records who agreed."""
        return self.my_seat is not None and self.my_seat in self.forfeits

    def submit_turn(self, actions: Sequence[Action]) -> None:
        """Author our whole turn (ending with END_TURN); LocalProtocolError if illegal."""
        if not self.my_turn:
            raise LocalProtocolError("it is not our turn")
        try:
            _play_turn(self.state, list(actions))
        except EngineError as exc:
            raise LocalProtocolError(f"our turn is illegal: {exc}") from None
        self._agree_to_resignation()
        self._author(Kind.TURN, [self.turn_number, [wire.value(a.to_tree()) for a in actions]])

    def _agree_to_resignation(self) -> None:
        """Before the deputy's turn at a step where a seat that resigned was handed over (the
        mover, or the deputy before us), our agreement naming that seat and step: a peer that
        gets our turn before the resignation keeps the turn until the resignation arrives, as
        for any hand-over (a TURN by another seat counts only after its author's agreement
        naming that step)."""
        me = self.my_seat
        if not self.playing_for_bot or me is None:
            return
        for seat in sorted(s for s, step in self.forfeits.items() if step == self.step):
            if me not in self._agreements.get(self.step, {}).get(seat, {}):
                self._author(Kind.SEAT_TO_BOT, [seat, self.step])

    @property
    def choice_due(self) -> bool:
        """Whether we owe our secret set-up choice (make it in :meth:`choice_state`, send it
        with :meth:`submit_choice`)."""
        me = self.my_seat
        return (me is not None and not self.recovering and self._secret_choosing()
                and me not in self._commits and me not in self.forfeits
                and not self._signed_off
                and bool(self.state.offers[me]))

    def choice_state(self) -> GameState:
        """The set-up state with us to choose (choices do not depend on one another)."""
        if self.my_seat is None:
            raise LocalProtocolError("spectators make no set-up choice")
        try:
            return as_chooser(self.state, self.my_seat)
        except EngineError as exc:
            raise LocalProtocolError(str(exc)) from None

    def submit_choice(self, choice: Action) -> None:
        """Commit to our secret set-up choice (a ChooseEstate legal in :meth:`choice_state`).
        The session reveals it once every player has committed; it cannot change after."""
        if not self.choice_due:
            raise LocalProtocolError("no secret set-up choice is due from us")
        if not isinstance(choice, ChooseEstate):
            raise LocalProtocolError(f"a set-up choice is a ChooseEstate, not {choice!r}")
        try:
            apply(self.choice_state(), choice)
        except EngineError as exc:
            raise LocalProtocolError(f"our set-up choice is illegal: {exc}") from None
        assert self.identity is not None and self.my_seat is not None
        salt = choice_salt(self.identity, self.game_id)
        self._author(Kind.CHOICE_COMMIT, [choice_digest(self.game_id, self.my_seat, choice, salt)])

    def send_chat(self, text: str) -> None:
        if self.my_seat is None or self.recovering:
            raise LocalProtocolError("spectators and recovering peers cannot chat")
        if not 1 <= len(text) <= MAX_CHAT:
            raise LocalProtocolError(f"a chat line has 1 to {MAX_CHAT} characters")
        self._author(Kind.CHAT, [text])

    def canonical_entries(self) -> list[Entry]:
        """Every entry in a fixed order: START, then each seat's chain in seat order, then the
        second bodies of equivocation proofs by seat. Peers holding the same entries write
        byte-identical game files in this order."""
        start = self.start.entry
        chains = [e for chain in self.chains for e in chain if e is not start]
        proofs = [decode_entry(p.second) for p in sorted(self.proofs, key=lambda p: p.seat)]
        return [start, *chains, *proofs]

    def waiting_for(self) -> Waiting | None:
        """What the game waits for now (None when over)."""
        if self.over:
            return None
        if self.state.chance is not None:
            k = self.state.chance.index
            have = self._reveals.get(k, {})
            return Waiting("reveal", k, tuple(s for s in self._required() if s not in have))
        if self._secret_choosing():
            owing = tuple(s for s in self._required() if s not in self._commits)
            if owing:
                return Waiting("choice", self.turn_number, owing)
            owing = tuple(s for s in self._required() if s not in self._choices)
            if owing:
                return Waiting("choice reveal", self.turn_number, owing)
        mover = self.state.to_move
        assert mover is not None  # not over, no chance event pending: a seat decides
        return Waiting("turn", self.turn_number, (mover,))

    @property
    def recovering(self) -> bool:
        """Whether we lost our game file and wait for our entries back: we author nothing
        until every other live seat said (signed) how many of them it holds, and we hold as
        many."""
        return self._sync.recovering

    # --- I/O driven API (no I/O here) ---

    def take_unsaved(self) -> list[Entry]:
        """Entries accepted since the last call, to append to the game file in this order."""
        out, self._unsaved = self._unsaved, []
        self._sync.taken()
        return out

    def saved(self) -> None:
        """The entries from :meth:`take_unsaved` are durable: our own may now be sent, and
        any may be served to peers."""
        self._send_all(self._sync.saved(), BROADCAST)

    def datagrams_to_send(self) -> list[tuple[bytes, object]]:
        """Datagrams and their destinations (a source given to receive_datagram, or
        BROADCAST for every peer)."""
        out = list(self._outbox)
        self._outbox.clear()
        return out

    def next_event(self) -> Event | None:
        return self._events.popleft() if self._events else None

    def get_timer(self) -> float:
        return self._sync.get_timer()

    def handle_timer(self, now: float) -> None:
        self._send_all(self._sync.handle_timer(now), BROADCAST)

    def receive_datagram(self, data: bytes, source: object, now: float) -> None:
        """Handle one datagram from ``source`` (an opaque address the caller understands).

        Malformed data raises DecodeError; a forged or misbehaving message raises
        RemoteProtocolError; either way nothing changes.
        """
        self.receive_message(parse(data), source, now)

    def receive_message(self, message: Message, source: object, now: float) -> None:
        """:meth:`receive_datagram` for a message the caller already parsed."""
        handler = _HANDLERS.get(type(message))
        if handler is None:
            raise DecodeError(f"{message.TAG.name} is not a game session message")
        handler(self, message, source)

    def receive_entry(self, raw: bytes) -> None:
        """Accept one raw entry (from a datagram or a game file), cheap checks first."""
        entry = decode_entry(raw)
        if entry.game_id != self.game_id:
            raise RemoteProtocolError("entry from another game", author=entry.author, seq=entry.seq)
        seat = self._seat_of.get(entry.author)
        if seat is None:
            raise RemoteProtocolError(
                "entry by a key with no seat", author=entry.author, seq=entry.seq
            )
        chain = self.chains[seat]
        if entry.seq < len(chain):
            known = chain[entry.seq]
            if known.body != entry.body:
                parse_entry(raw)  # only a validly signed second body proves anything
                self._equivocation(seat, known, entry)
            return
        if seat in self.faulty:
            return
        if entry.seq >= len(chain) + MAX_EARLY:
            raise RemoteProtocolError("entry too far ahead", author=entry.author, seq=entry.seq)
        early = self._early.get((seat, entry.seq))
        if early is not None and early.body == entry.body:
            return
        parse_entry(raw)
        if early is not None:
            self._equivocation(seat, early, entry)
            return
        if entry.seq > len(chain):
            self._early[(seat, entry.seq)] = entry
            return
        self._append(seat, entry)
        while (nxt := self._early.pop((seat, len(chain)), None)) is not None:
            try:
                self._append(seat, nxt)
            except RemoteProtocolError:
                break  # a buffered entry that does not link: drop it, sync fetches the real one
        self._advance()

    # --- internals ---

    def _send(self, data: bytes, destination: object) -> None:
        self._outbox.append((data, destination))

    def _send_all(self, messages: list[Message], destination: object) -> None:
        for message in messages:
            self._send(message.encode(), destination)

    def _event(self, event: Event) -> None:
        self._events.append(event)

    def _receive_entry_message(self, message: EntryMessage, source: object) -> None:
        self.receive_entry(message.raw)

    def _answer(self, message: Heads | Want | Recover, source: object) -> None:
        self._send_all(self._sync.answer(message), source)

    def _receive_held(self, message: Held, source: object) -> None:
        if self._sync.held(message, [s for s in self._live() if s != self.my_seat]):
            self._advance()  # recovered: we may author again

    def _equivocation(self, seat: int, first: Entry, second: Entry) -> None:
        if seat not in self.faulty:
            self.faulty[seat] = f"equivocated at seq {first.seq}"
            proof = Equivocation(seat, first.seq, first.raw, second.raw)
            self.proofs.append(proof)
            self._unsaved.append(second)  # the game file keeps the proof too
            self._event(proof)

    def _append(self, seat: int, entry: Entry) -> None:
        """Link ``entry`` into its author's chain and file what it says."""
        chain = self.chains[seat]
        expected = chain[-1].id if chain else b""
        if entry.prev != expected:
            raise RemoteProtocolError(
                "entry does not link to the author's previous entry",
                author=entry.author,
                seq=entry.seq,
            )
        chain.append(entry)
        self._unsaved.append(entry)
        why = self._file_entry(seat, entry)
        if why is not None:
            self._reject(seat, entry.seq, *why)
        if self._rebuild_due and not self._rebuilding:
            self._rebuild()

    def _file_entry(self, seat: int, entry: Entry) -> Void | None:
        """Record what an entry says for the game to use; the reason if it is void."""
        p = entry.payload
        if seat in self.resigned and entry.kind != Kind.CHAT:
            return Rejection.SIGNED_OFF, (
                f"{self.seats[seat].name} resigned (seq {self.resigned[seat]}): nothing it signs "
                "after that counts but chat")
        if seat in self._ends and entry.kind != Kind.CHAT:
            return Rejection.SIGNED_OFF, (
                f"{self.seats[seat].name} ended the game (seq {self._ends[seat]}): nothing it "
                "signs after that counts but chat")
        if entry.kind == Kind.RESIGN:
            if p:
                return Rejection.MALFORMED, "a resignation is [] (an empty payload)"
            self.resigned[seat] = entry.seq
            return None
        if entry.kind == Kind.END:
            if p:
                return Rejection.MALFORMED, "an end of the game is [] (an empty payload)"
            self._ends[seat] = entry.seq
            return None
        if entry.kind == Kind.SEAT_TO_BOT:
            other, step = p if len(p) == 2 else (None, None)
            if not (type(other) is int and type(step) is int
                    and 0 <= other < len(self.seats) and other != seat and step >= 0):
                return Rejection.MALFORMED, "a seat-to-bot agreement is [another seat, a step]"
            votes = self._agreements.setdefault(step, {}).setdefault(other, {})
            if seat in votes:
                return Rejection.SECOND_AGREEMENT, (
                    f"a second agreement to hand {self.seats[other].name} over at step {step}")
            votes[seat] = entry.seq
            return None
        if entry.kind == Kind.REVEAL:
            k, link = p if len(p) == 2 else (None, None)
            if not (type(k) is int and isinstance(link, bytes)):
                return Rejection.MALFORMED, "a reveal is [event, link]"
            if not verify_reveal(self.seats[seat].commitment, k, link):
                return (Rejection.BAD_REVEAL,
                        f"reveal for chance event {k} does not hash to the commitment")
            have = self._reveals.setdefault(k, {})
            if seat in have:
                return Rejection.SECOND_REVEAL, f"a second reveal for chance event {k}"
            have[seat] = link
            handed_chance = self._handed[seat][0].chance if seat in self._handed else None
            if handed_chance is not None and handed_chance.index == k:
                self._rebuild_due = True  # the seat revealed the very event it was handed over at
        elif entry.kind == Kind.TURN:
            if not (
                len(p) == 2
                and type(p[0]) is int
                and p[0] >= 0
                and isinstance(p[1], tuple)
                and 1 <= len(p[1]) <= MAX_TURN_ACTIONS
            ):
                return Rejection.MALFORMED, "a turn is [turn number, [action...]]"
            if seat in self._handed and self._own_turn_at_hand_over(seat, p):
                self._rebuild_due = True  # the seat played the very turn it was handed over at
            elif p[0] < self.turn_number:
                return Rejection.PLAYED, f"turn {p[0]} is already played"
            self._turns.setdefault(p[0], []).append((seat, entry.seq))
        elif entry.kind == Kind.CHAT:
            if not (len(p) == 1 and isinstance(p[0], str) and 1 <= len(p[0]) <= MAX_CHAT):
                return Rejection.MALFORMED, "a chat entry is [text of 1-280 characters]"
            if not self._rebuilding:  # a rebuild files every chat again
                self._event(ChatReceived(seat, p[0]))
        elif entry.kind in (Kind.CHOICE_COMMIT, Kind.CHOICE_REVEAL):
            why = self._file_choice(seat, entry)
            if why is None and seat in self._handed and self._handed[seat][0].chance is None \
                    and self._handed[seat][0].step == Step.CHOOSE_ESTATE:
                self._rebuild_due = True  # the seat chose at the very step it was handed over
            return why
        else:
            return Rejection.MALFORMED, f"a {entry.kind.name.lower()} entry is not expected here"
        return None

    def _file_choice(self, seat: int, entry: Entry) -> Void | None:
        """File a secret set-up choice's commitment or reveal; the reason if it is void.
        A seat's entries are filed in chain order, so a reveal can only follow its
        commitment, and neither can be replaced."""
        p = entry.payload
        if self.config.setup is not Setup.EXPERTS_SECRET:
            return Rejection.CHOICE, "this table makes no secret set-up choices"
        if entry.kind == Kind.CHOICE_COMMIT:
            if not (len(p) == 1 and isinstance(p[0], bytes) and len(p[0]) == LINK_SIZE):
                return Rejection.MALFORMED, "a choice commitment is [32-byte digest]"
            if seat in self._commits:
                return Rejection.CHOICE, "a second choice commitment (the first one stands)"
            self._commits[seat] = (entry.seq, p[0])
            return None
        if not (len(p) == 2 and isinstance(p[1], bytes) and len(p[1]) == SALT_SIZE):
            return Rejection.MALFORMED, "a choice reveal is [choice, 16-byte salt]"
        try:
            choice = action_from_tree(p[0])
        except EngineError as exc:
            return Rejection.MALFORMED, f"malformed choice: {exc}"
        if not isinstance(choice, ChooseEstate):
            return Rejection.MALFORMED, f"a set-up choice is a ChooseEstate, not {choice!r}"
        if seat not in self._commits:
            return Rejection.CHOICE, "a choice reveal before the author's commitment"
        if seat in self._choices:
            return Rejection.CHOICE, "a second choice reveal"
        if choice_digest(self.game_id, seat, choice, p[1]) != self._commits[seat][1]:
            return (Rejection.CHOICE,
                    f"the revealed choice {choice!r} does not match the author's commitment")
        self._choices[seat] = (entry.seq, choice)
        return None

    def _secret_choosing(self) -> bool:
        """Whether the game waits for secret set-up choices."""
        return (self.config.setup is Setup.EXPERTS_SECRET and self.state.chance is None
                and not self.over and self.state.step == Step.CHOOSE_ESTATE)

    def _advance_choices(self) -> bool:
        """Secret set-up: reveal ours once every seat has committed; apply the choices in
        turn order once every reveal is in. Whether a choice was applied."""
        required = self._required()
        if any(s not in self._commits for s in required):
            return False
        me = self.my_seat
        if (me is not None and me in self._commits and not self.recovering
                and not self._signed_off
                and not any(e.kind == Kind.CHOICE_REVEAL for e in self.chains[me])):
            choice = self._own_choice()
            if choice is not None:
                assert self.identity is not None
                self._author(Kind.CHOICE_REVEAL,
                             [wire.value(choice.to_tree()),
                              choice_salt(self.identity, self.game_id)])
                return False  # _author advanced already
        if any(s not in self._choices for s in required):
            return False
        t, mover = self.turn_number, self.state.to_move
        assert mover is not None
        if mover not in self._choices:
            # A seat handed to a bot before it revealed: its deputy chooses, in a TURN.
            return mover in self.forfeits and self._apply_turn()
        seq, choice = self._choices[mover]
        try:
            self.state = apply(self.state, choice)
        except EngineError as exc:
            del self._choices[mover]  # bound by its commitment: the seat can only be replaced
            self._reject(mover, seq, Rejection.CHOICE, f"illegal set-up choice: {exc}")
            return False
        for seat, other in self._turns.pop(t, []):
            self._reject(seat, other, Rejection.CHOICE,
                         f"turn {t} is {self.seats[mover].name}'s secret choice")
        self._played(TurnApplied(mover, t, (choice,), state_hash(self.state), self.step, mover,
                                 seq, self.state))
        return True

    def _played(self, step: Resolved) -> None:
        """A step is resolved, for good."""
        self.history.append(step)
        self.step += 1
        if isinstance(step, TurnApplied):
            self.turn_number += 1
        if not self._rebuilding:  # a rebuild reports its steps in Rebuilt
            self._event(step)

    def _own_turn_at_hand_over(self, seat: int, payload: tuple[wire.Value, ...]) -> bool:
        """Whether a TURN payload is a legal turn of ``seat`` for the very turn it was handed
        over at (its entry crossed the agreements: the player's own turn counts)."""
        state, turn = self._handed[seat]
        if payload[0] != turn or state.chance is not None:
            return False
        try:
            # The caller checked the payload as _file_entry does: [1] is an array.
            _play_turn(state, [action_from_tree(a) for a in payload[1]])  # type: ignore[union-attr]
        except EngineError:
            return False
        return True

    def _own_choice(self) -> Action | None:
        """Our committed choice, found again by trying each legal one against the commitment
        (the salt is derived from our key, so this survives losing the game file)."""
        me = self.my_seat
        if self.identity is None or me is None or me not in self._commits:
            return None
        try:
            view = as_chooser(self.state, me)
        except EngineError:
            return None  # nothing left to choose (a deputy chose for us)
        salt = choice_salt(self.identity, self.game_id)
        for choice in legal_actions(view):
            if choice_digest(self.game_id, me, choice, salt) == self._commits[me][1]:
                return choice
        return None

    def _reject(self, seat: int, seq: int, cause: Rejection, reason: str) -> None:
        rejected = EntryRejected(seat, seq, f"{self.seats[seat].name}: {reason}", cause)
        self.rejected[(seat, seq)] = rejected
        if not self._rebuilding:
            self._event(rejected)

    def _author(self, kind: Kind, payload: list[wire.Encodable]) -> None:
        assert self.identity is not None and self.my_seat is not None
        chain = self.chains[self.my_seat]
        entry = sign_entry(
            self.identity, self.game_id, len(chain), chain[-1].id if chain else b"", kind, payload
        )
        self._append(self.my_seat, entry)
        self._advance()

    def _advance(self) -> None:
        """Resolve chance events and apply turns as far as the entries allow; where the game
        waits for seats that every other live player agreed to hand over at this step,
        hand them to a bot and go on."""
        while not self.over:
            chance = self.state.chance
            if chance is not None:
                k = chance.index
                have = self._reveals.setdefault(k, {})
                if (
                    self.my_seat is not None
                    and self.my_seat not in have
                    and not self.recovering
                    and not self.handed_over  # a reveal for a seat handed over is void
                    and not self._signed_off
                    and self._chain is not None
                ):
                    self._author(Kind.REVEAL, [k, self._chain.reveal(k)])
                    return  # _author advanced already
                if all(s in have for s in self._required()):
                    self._resolve(k, have)
                    continue
            elif self._secret_choosing():
                if self._advance_choices():
                    continue
            elif self._apply_turn():
                continue
            if not self._hand_over():
                return
        if not self._rebuilding:  # a rebuild reports the end after Rebuilt
            self._report_over()

    def _resolve(self, k: int, have: dict[int, bytes]) -> None:
        chance = self.state.chance
        assert chance is not None
        for seat in sorted(set(have) - set(self._required())):
            self._reject(seat, self._reveal_seq(seat, k), Rejection.HANDED_OVER,
                         f"handed to a bot at step "
                         f"{self.forfeits[seat]}, its reveal for chance event {k} is not used")
        seats = tuple(self._required())
        reveals = tuple(have[s] for s in seats)
        entropy = event_entropy(self.game_id, k, reveals)
        self.state, drew = draw_chance(self.state, entropy)
        self._played(ChanceResolved(k, chance.kind, reveals, entropy, state_hash(self.state),
                                    self.step, seats, drew, self.state))

    def _reveal_seq(self, seat: int, k: int) -> int:
        return next(e.seq for e in self.chains[seat] if e.kind == Kind.REVEAL
                    and e.payload[:1] == (k,) and (seat, e.seq) not in self.rejected)

    def _apply_turn(self) -> bool:
        """Turn t: the mover's TURN entries for t in its chain order (a deputy's, if the
        mover was handed to a bot), the first legal one applied. Other TURNs for t wait while
        t is open (a hand-over may still make their author the one to play it) and are void
        once it is played."""
        t = self.turn_number
        mover = self.state.to_move
        assert mover is not None
        player = self.deputy if mover in self.forfeits else mover
        pending = self._turns.get(t, [])
        for seat, seq in sorted(c for c in pending if c[0] == player):
            pending.remove((seat, seq))
            try:
                # A filed TURN entry passed _file_entry: payload[1] is an array.
                actions = [action_from_tree(a) for a in self.chains[seat][seq].payload[1]]  # type: ignore[union-attr]
                self.state = _play_turn(self.state, actions)
            except EngineError as exc:
                self._reject(seat, seq, Rejection.ILLEGAL_TURN, f"illegal turn {t}: {exc}")
                continue
            self._played(TurnApplied(seat, t, tuple(actions), state_hash(self.state), self.step,
                                     mover, seq, self.state))
            for other, other_seq in sorted(self._turns.pop(t, [])):
                self._reject(other, other_seq, *self._why_not_played(other, t, mover, seat))
            return True
        # A TURN by another seat may only count if a hand-over at this step makes its author
        # the deputy, which needs the author's own agreement first in its chain.
        agreed = {v: seq for votes in self._agreements.get(self.step, {}).values()
                  for v, seq in votes.items()}
        for seat, seq in list(pending):
            if seat != player and not (seat in agreed and agreed[seat] < seq):
                pending.remove((seat, seq))
                self._reject(seat, seq, *self._why_not_played(seat, t, mover, -1))
        return False

    def _why_not_played(self, seat: int, t: int, mover: int, player: int) -> Void:
        name = self.seats[mover].name
        if seat == player:
            return Rejection.SECOND_TURN, f"a second turn {t}"
        if seat == mover:
            return (Rejection.HANDED_OVER,
                    f"turn {t} of {name}, handed to a bot at step {self.forfeits[mover]}")
        if any(seat in votes.get(mover, {}) for votes in self._agreements.values()):
            return Rejection.NO_HAND_OVER, (f"turn {t} was played by {name} itself: this turn "
                                            "for the bot came from a hand-over that did not "
                                            "happen")
        return Rejection.NOT_ITS_TURN, f"turn {t} belongs to {name}"


_HANDLERS: dict[type[Message], Callable[[Session, Any, object], None]] = {
    EntryMessage: Session._receive_entry_message,
    Heads: Session._answer,
    Want: Session._answer,
    Recover: Session._answer,
    Held: Session._receive_held,
}
"""The session's handler of each message it takes (the others are the lobby's)."""


def _play_turn(state: GameState, actions: list[Action]) -> GameState:
    """Apply a whole turn; EngineError if an action is illegal or the turn does not end with
    exactly one END_TURN, at the end. A set-up choice is a turn of exactly one ChooseEstate."""
    if state.chance is None and state.step == Step.CHOOSE_ESTATE:
        if len(actions) != 1 or not isinstance(actions[0], ChooseEstate):
            raise EngineError("a set-up turn is exactly one ChooseEstate")
        return apply(state, actions[0])
    if not actions or actions[-1] != END_TURN or END_TURN in actions[:-1]:
        raise EngineError("a turn is a list of actions ending with its only EndTurn")
    for action in actions:
        state = apply(state, action)
    return state
