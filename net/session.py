"""The protocol core: one peer's view of one game, with no I/O (bytes and time in, bytes out).

A :class:`Session` is driven by three calls, like aioquic's connection:
:meth:`~Session.receive_datagram` (bytes from a peer), :meth:`~Session.handle_timer` (the
time is ``now``, ticked at least every ``HEADS_INTERVAL``) and the player's own API
(:meth:`~Session.submit_turn`, :meth:`~Session.send_chat`). Output is pulled:
:meth:`~Session.take_unsaved` (entries to append to the game file), then after they are durable
:meth:`~Session.saved`, then :meth:`~Session.datagrams_to_send` and :meth:`~Session.next_event`.
It never reads a clock, a socket or a random source.

The game is one function of the set of valid entries (docs/protocol.md, "How the game
advances"), computed step by step by :meth:`Session._advance`, and a step is resolved only
once no entry that may still arrive can change how it resolves, so **a resolved step never
changes** and nothing is ever recomputed:

- each author's entries form a hash chain (seq 0, 1, ...), accepted only contiguously;
  a second body for one (author, seq) is equivocation, kept as proof; what each entry says
  is read once into its typed content (:mod:`.contents`);
- a step needs the input of some seats (every seat's REVEAL for a chance event, the mover's
  TURN, every seat's secret set-up choice); the seats every other voter agreed to hand
  over at that step (SEAT_TO_BOT), and those whose players resigned, go to the stand-in
  (:mod:`.standin`), which every peer computes and nobody signs; an agreed hand-over beats
  the seat's own input for that step (a late entry is void, harming nobody);
- a seat's input counts once some voter is known never to agree to hand it over at that
  step: we ourselves (if we did not agree), or a voter whose chain went past the step
  without agreeing; our own input counts for us at once;
- the only player left may end the game where it waits for it (END).

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
from dataclasses import dataclass
from typing import Any

from p2p_burgundy import (
    Action,
    ChooseEstate,
    EngineError,
    GameState,
    Setup,
    Step,
    apply,
    as_chooser,
    draw_chance,
    legal_actions,
    new_game,
    outcome,
    play_turn,
    state_hash,
)
from p2p_burgundy.scoring import Outcome

from .beacon import HashChain, event_entropy, verify_reveal
from .choice import choice_digest, choice_salt
from .contents import (
    KIND_OF,
    MAX_CHAT,
    Chat,
    ChoiceCommit,
    ChoiceReveal,
    Content,
    End,
    Malformed,
    Resign,
    Reveal,
    SeatToBot,
    Seen,
    Turn,
    content_of,
)
from .errors import DecodeError, LocalProtocolError, RemoteProtocolError
from .events import (
    ChanceResolved,
    ChatReceived,
    EntryRejected,
    Equivocation,
    Event,
    GameOver,
    HandedOver,
    Overruled,
    Rejection,
    Resolved,
    TurnApplied,
    Void,
    Waiting,
)
from .identity import Identity
from .log import Entry, check_signature, decode_entry, sign_entry
from .messages import EntryMessage, Heads, Held, Message, Recover, Want, parse
from .standin import standin_turn
from .start import game_chain, parse_start
from .sync import Sync

MAX_EARLY = 64  # entries buffered per author ahead of a gap
MAX_OUTBOX = 512  # datagrams queued; anti-entropy repairs anything dropped
MAX_EVENTS = 4096
MAX_ASKED = 64  # a peer's body of a fork slot, asked once each (bounds what a flood costs)

_NEVER = 1 << 62  # a seq no chain reaches

BROADCAST = None
"""Destination of a datagram meant for every other peer."""


@dataclass(frozen=True, slots=True)
class Mark:
    """Where step ``step`` stands: ``event`` is its chance event's index if ``chance``, else
    the index of the last chance event before it; ``turn`` counts the turns before it. What
    entries *pass* a step is read from these (docs/protocol.md, "SEAT_TO_BOT")."""

    step: int
    event: int
    turn: int
    chance: bool

    def passes(self, content: Content) -> bool:
        """Whether an author signs ``content`` only once this step is behind it: a REVEAL
        for a later chance event, a TURN for a later turn, a SEEN naming a later step. (An
        agreement naming a later step does not: it may be one signed ahead, which is void.)

        >>> from p2p_burgundy import END_TURN
        >>> m = Mark(step=9, event=2, turn=6, chance=False)
        >>> [m.passes(c) for c in (Reveal(3, bytes(32)), Reveal(2, bytes(32)),
        ...                        Turn(7, (END_TURN,)), Turn(6, (END_TURN,)))]
        [True, False, True, False]
        """
        if isinstance(content, Reveal):
            return content.event > self.event
        if isinstance(content, Turn):
            return content.number >= self.turn if self.chance else content.number > self.turn
        if isinstance(content, Seen):
            return content.step > self.step
        return False


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
        self.contents: list[list[Content | None]] = [[] for _ in range(n)]
        self.contents[host].append(None)
        self._early: dict[tuple[int, int], Entry] = {}
        self.faulty: dict[int, str] = {}
        self._forks: dict[int, int] = {}  # seat -> the first seq it signed two bodies for
        self.proofs: list[Equivocation] = []
        # (peer, seat, fork slot) asked for its body there -> whether it answered
        self._asked: dict[tuple[object, int, int], bool] = {}
        # A seat handed to the stand-in -> the step from which (steps count every chance
        # event and every turn the game resolved, from 0).
        self.forfeits: dict[int, int] = {}
        # (seat to hand over, step) -> voter -> seq of the voter's (first) agreement
        self._agreements: dict[tuple[int, int], dict[int, int]] = {}
        self.resigned: dict[int, int] = {}  # seat -> seq of its RESIGN entry
        self._ends: dict[int, int] = {}  # seat -> seq of its END entry
        self.ended: tuple[int, int] | None = None  # (seat, step) when an END ended the game
        self.overruled: int | None = None  # the step our seat was handed over at after all
        self.state: GameState = new_game(self.config)
        self.marks: list[Mark] = []  # where each step reached stands
        self.history: list[Resolved] = []  # every resolved step, in order
        self.rejected: dict[tuple[int, int], EntryRejected] = {}  # (seat, seq) -> why void
        self._sole_from = 0  # the first chance event with one contributor (sole_contributor)
        self._reveals: dict[int, dict[int, tuple[int, bytes]]] = {}  # k -> seat -> (seq, link)
        self._last_link: dict[int, tuple[int, bytes]] = {}  # seat -> its latest valid (k, link)
        self._turns: dict[int, list[tuple[int, int]]] = {}  # t -> (seat, seq), pending
        # (t, what _mover_turn found for turn t): the turn is replayed once, not per look
        self._mover_found: tuple[int, tuple[int, tuple[Action, ...], GameState]] | None = None
        self._commits: dict[int, tuple[int, bytes]] = {}  # seat -> (seq, digest): secret set-up
        self._choices: dict[int, tuple[int, ChooseEstate]] = {}  # seat -> (seq, choice) matched
        self._first_pass: list[int] = [0] * n  # no entry of a seat before this passes the step
        self._final = False
        self._unsaved: list[Entry] = [start]
        self._end_reported = False
        self._outbox: deque[tuple[bytes, object]] = deque(maxlen=MAX_OUTBOX)
        self._events: deque[Event] = deque(maxlen=MAX_EVENTS)
        self._sync = Sync(self.game_id, [s.key for s in self.seats], self.chains, self.faulty,
                          identity, self.my_seat, recovery_nonce if recovering else None)
        self._reach()
        self._advance()

    # --- the player's API ---

    @property
    def step(self) -> int:
        """The step the game is at: how many steps it resolved."""
        return len(self.history)

    @property
    def turn_number(self) -> int:
        """The number of the next turn: how many turns the game applied."""
        return self.marks[-1].turn

    @property
    def set_aside(self) -> frozenset[int]:
        """The seats caught equivocating where it cannot have changed our game: each of the
        two bodies is a chat line, a SEEN or of the wrong shape, and we took nothing of the
        seat after that slot. We may then hand the seat to the stand-in and play on; another
        player goes on with us only if the same holds for it (a hand-over needs every
        voter), and then we both follow the same game. Two bodies of any other kind (a turn,
        a reveal, an agreement...), or an entry taken after the fork, may have been resolved
        differently by different peers, which then follow different games for good."""
        return frozenset(p.seat for p in self.proofs
                         if p.seq == self._forks[p.seat]  # the lowest fork of the seat
                         and len(self.chains[p.seat]) <= p.seq + 1
                         and _inert(p.first) and _inert(p.second))

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
        """Agree that the stand-in plays ``seat`` from the step the game waits at now: the
        hand-over happens if every other voter agrees to the same step before going past
        it. It never touches a step already resolved."""
        if self.my_seat is None or seat == self.my_seat or not 0 <= seat < len(self.seats):
            raise LocalProtocolError("agree to hand another player's seat to a bot")
        if self.my_seat in self._agreements.get((seat, self.step), {}):
            raise LocalProtocolError("we already agreed to hand that seat over at this step")
        if self._signed_off:
            raise LocalProtocolError("we resigned: the others decide without us")
        step, me = self.step, self.my_seat
        if self._pass_at(me) is not None:
            raise LocalProtocolError("we already said we hand nobody over at this step")
        if step and not any(c is not None and self.marks[step - 1].passes(c)
                            for c in self.contents[me]):
            self._author(Seen(step))  # we reached this step (our own turn was the last)
        self._author(SeatToBot(seat, step))

    def resign(self) -> None:
        """Leave the game for good: the stand-in plays our seat from the first step at which
        the game waits for us, with no vote (our own entry is our consent). We author nothing
        for the game after this (chat aside)."""
        if self.my_seat is None or self.recovering:
            raise LocalProtocolError("spectators and recovering peers cannot resign")
        if self.over:
            raise LocalProtocolError("the game is over")
        if self.my_seat in self.resigned or self.handed_over:
            raise LocalProtocolError("our seat is already played by a bot")
        self._author(Resign())

    @property
    def may_end(self) -> bool:
        """Whether we are the only player left (every other seat is played by the stand-in),
        so that we may end the game here as the winner (:meth:`end`) instead of playing on."""
        me = self.my_seat
        return (me is not None and len(self.seats) > 1 and not self.over
                and not self.recovering and not self._signed_off and not self.handed_over
                and all(s in self.forfeits for s in range(len(self.seats)) if s != me))

    def end(self) -> None:
        """End the game at the step it waits at, as its winner: we are the only player left
        (:attr:`may_end`). The scores stand as they are; nothing we sign counts after."""
        if not self.may_end:
            raise LocalProtocolError("only the last player left may end the game")
        self._author(End())

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
        if seat not in self.forfeits:
            return None
        step = self.forfeits[seat]
        state = self.history[step - 1].state if step else new_game(self.config)
        return state.phase, state.round

    @property
    def my_turn(self) -> bool:
        """Whether we compose a turn now (our own: nobody composes the stand-in's)."""
        if self._secret_choosing():
            return False  # secret set-up choices go through submit_choice
        return (
            self.my_seat is not None and self.state.to_move == self.my_seat
            and not self.recovering and not self.handed_over
            and not self._signed_off and not self.over
        )

    @property
    def handed_over(self) -> bool:
        """Whether our own seat went to the stand-in (we can only watch now: anything we
        author for the game is void). In a 2-player game the other player alone decides
        this; the log records who agreed."""
        return self.my_seat is not None and (self.my_seat in self.forfeits
                                             or self.overruled is not None)

    def submit_turn(self, actions: Sequence[Action]) -> None:
        """Author our whole turn (ending with END_TURN); LocalProtocolError if illegal."""
        if not self.my_turn:
            raise LocalProtocolError("it is not our turn")
        try:
            play_turn(self.state, actions)
            content = Turn(self.turn_number, tuple(actions))
        except (EngineError, Malformed) as exc:
            raise LocalProtocolError(f"our turn is illegal: {exc}") from None
        self._author(content)

    @property
    def choice_due(self) -> bool:
        """Whether we owe our secret set-up choice (make it in :meth:`choice_state`, send it
        with :meth:`submit_choice`)."""
        me = self.my_seat
        return (me is not None and not self.recovering and self._secret_choosing()
                and me not in self._commits and not self.handed_over
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
        self._author(ChoiceCommit(choice_digest(self.game_id, self.my_seat, choice, salt)))

    def send_chat(self, text: str) -> None:
        if self.my_seat is None or self.recovering:
            raise LocalProtocolError("spectators and recovering peers cannot chat")
        if not 1 <= len(text) <= MAX_CHAT:
            raise LocalProtocolError(f"a chat line has 1 to {MAX_CHAT} characters")
        self._author(Chat(text))

    def canonical_entries(self) -> list[Entry]:
        """Every entry in a fixed order: START, then each seat's chain in seat order, then the
        second bodies of equivocation proofs by seat and slot. Peers holding the same
        entries write byte-identical game files in this order."""
        start = self.start.entry
        chains = [e for chain in self.chains for e in chain if e is not start]
        proofs = [decode_entry(p.second)
                  for p in sorted(self.proofs, key=lambda p: (p.seat, p.seq))]
        return [start, *chains, *proofs]

    def waiting_for(self) -> Waiting | None:
        """What the game waits for now (None when over): the inputs it lacks, or, when it
        holds them all, the voters that have not yet said whether they hand a seat over."""
        if self.over or self.overruled is not None:
            return None
        needed = self._needed()
        missing = tuple(x for x in needed if not self._has_input(x))
        if self.state.chance is not None:
            what, index = "reveal", self.state.chance.index
        elif self._secret_choosing():
            owing = tuple(s for s in self._required() if s not in self._commits)
            what, index = ("choice", self.turn_number) if owing else ("choice reveal",
                                                                     self.turn_number)
            missing = owing or missing
        else:
            what, index = "turn", self.turn_number
        if missing or not needed:
            return Waiting(what, index, missing)
        voters = self._voters()
        quiet = tuple(v for v in voters if v != self.my_seat and self._pass_at(v) is None)
        return Waiting("hand-over", self.step, quiet)

    @property
    def recovering(self) -> bool:
        """Whether we lost our game file and wait for our entries back: we author nothing
        until every other live seat said (signed) how many of them it holds, and we hold as
        many."""
        return self._sync.recovering

    def heads(self) -> Heads:
        """What we announce we hold: how many entries of each seat, durably, and the id of
        the last (HEADS)."""
        return self._sync.heads()

    def settle(self) -> None:
        """No entry will arrive any more (an audit holds the whole file): decide every step
        by the entries held, as the function of the set of entries says (a voter that said
        nothing about a hand-over did not agree to it)."""
        self._final = True
        self._advance()

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

    def handle_timer(self, now: float) -> None:
        self._send_all(self._sync.handle_timer(now), BROADCAST)

    def announce_heads(self) -> None:
        """Our HEADS to every peer now, not at the next tick: what a peer leaving a finished
        game says last, so that the others, waiting until every seat holds what they hold,
        need not wait for it to the end (its HEADS of the last tick may be older than its
        last entries)."""
        self._send_all([self._sync.heads()], BROADCAST)

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
        self._receive(decode_entry(raw), signed=False)

    def receive_signed_entry(self, entry: Entry) -> None:
        """:meth:`receive_entry` for an entry whose signature the caller already checked
        (:func:`~.log.check_signature`), so that it is not checked twice."""
        self._receive(entry, signed=True)

    def _receive(self, entry: Entry, signed: bool, source: object = None) -> None:
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
                if not signed:
                    check_signature(entry)  # only a validly signed second body proves anything
                self._equivocation(seat, known, entry, source)
            return
        if seat in self.faulty:
            return
        if entry.seq >= len(chain) + MAX_EARLY:
            raise RemoteProtocolError("entry too far ahead", author=entry.author, seq=entry.seq)
        early = self._early.get((seat, entry.seq))
        if early is not None and early.body == entry.body:
            return
        if not signed:
            check_signature(entry)
        if early is not None:
            self._equivocation(seat, early, entry, source)
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
        self._receive(decode_entry(message.raw), signed=False, source=source)

    def _answer(self, message: Heads | Want | Recover, source: object) -> None:
        self._send_all(self._sync.answer(message), source)
        if isinstance(message, Heads):
            self._ask_fork_bodies(source)

    def _ask_fork_bodies(self, source: object) -> None:
        """Ask a peer once for its entry at each equivocator's fork slot: the equivocator
        may have shown each player another body, a player that took one we lack followed a
        game of its own, and a verifier judges it in that game, so our game file keeps the
        body (we no longer fetch the equivocator's entries by anti-entropy)."""
        for seat, seq in sorted(self._forks.items()):
            if (source, seat, seq) not in self._asked and len(self._asked) < MAX_ASKED:
                self._asked[(source, seat, seq)] = False
                self._send(Want(self.game_id, seat, seq, 1).encode(), source)

    def _receive_held(self, message: Held, source: object) -> None:
        if self._sync.held(message, [s for s in self._required()
                                     if s != self.my_seat and s not in self.faulty]):
            self._advance()  # recovered: we may author again

    def _equivocation(self, seat: int, first: Entry, second: Entry,
                      source: object = None) -> None:
        """``seat`` signed ``first`` and ``second`` for one slot (``second`` came from
        ``source``, if from a peer). The seat's fork slot is the lowest slot proven: a fork
        found higher up (both sides took the equivocator's entries after it) starts lower,
        so when ``second`` does not link to our chain we ask ``source`` for the entry before
        it. At the fork slot we keep the bodies other players may have taken
        (:meth:`_keeps_another`): a verifier judges each player in the game of the body it
        took (docs/protocol.md, "Judging the other seats")."""
        fork = self._forks.get(seat, _NEVER)
        if first.seq == fork and self._keeps_another(seat, second, source):
            self._prove(seat, first, second)
        if first.seq >= fork:
            return  # a slot at or after the fork we know: no lower fork to trace
        self.faulty[seat] = f"equivocated at seq {first.seq}"
        self._forks[seat] = first.seq
        self._prove(seat, first, second)
        chain = self.chains[seat]
        if (source is not None and 0 < second.seq <= len(chain)
                and second.prev != chain[second.seq - 1].id):
            self._send(Want(self.game_id, seat, second.seq - 1, 1).encode(), source)
        self._advance()  # a voter less: a hand-over may be decided now

    def _prove(self, seat: int, first: Entry, second: Entry) -> None:
        proof = Equivocation(seat, first.seq, first.raw, second.raw)
        self.proofs.append(proof)
        self._unsaved.append(second)  # the game file keeps the proof too
        self._event(proof)

    def _keeps_another(self, seat: int, body: Entry, source: object) -> bool:
        """Whether to keep ``body``, another one for ``seat``'s fork slot: one we do not hold
        yet, and either a peer's first answer to our asking for its body there, or one of
        the bodies we hold while we hold fewer than the seats that may each have taken one
        (every seat but the equivocator's; the answers come on top, so that bodies the
        equivocator sends us first cannot crowd out those the others took)."""
        held = {p.second for p in self.proofs if p.seat == seat and p.seq == body.seq}
        if body.raw in held:
            return False
        if self._asked.get((source, seat, body.seq)) is False:
            self._asked[(source, seat, body.seq)] = True
            return True
        return len(held) + 1 < len(self.seats) - 1

    def _author(self, content: Content) -> None:
        assert self.identity is not None and self.my_seat is not None
        chain = self.chains[self.my_seat]
        entry = sign_entry(self.identity, self.game_id, len(chain), chain[-1].id if chain else b"",
                           KIND_OF[type(content)], content.to_payload())
        self._append(self.my_seat, entry)
        self._advance()

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
        try:
            content: Content | None = content_of(entry)
        except Malformed as exc:
            content = None
            self._reject(seat, entry.seq, Rejection.MALFORMED, str(exc))
        self.contents[seat].append(content)
        if content is not None:
            why = self._file(seat, entry.seq, content)
            if why is not None:
                self._reject(seat, entry.seq, *why)

    def _file(self, seat: int, seq: int, content: Content) -> Void | None:
        """Record what an entry says for the game to use; the reason if it is void."""
        name = self.seats[seat].name
        if isinstance(content, Chat):
            self._event(ChatReceived(seat, content.text))
            return None
        if seat in self.resigned:
            return Rejection.SIGNED_OFF, (
                f"{name} resigned (seq {self.resigned[seat]}): nothing it signs after that "
                "counts but chat")
        if seat in self._ends:
            return Rejection.SIGNED_OFF, (
                f"{name} ended the game (seq {self._ends[seat]}): nothing it signs after "
                "that counts but chat")
        if isinstance(content, Resign):
            self.resigned[seat] = seq
        elif isinstance(content, End):
            self._ends[seat] = seq
        elif isinstance(content, SeatToBot):
            return self._file_agreement(seat, seq, content)
        elif isinstance(content, Seen):
            pass  # it only tells how far its author went (Mark.passes)
        elif isinstance(content, Reveal):
            return self._file_reveal(seat, seq, content)
        elif isinstance(content, Turn):
            if self._handed_for(seat, content.number):
                return Rejection.HANDED_OVER, self._handed_reason(
                    seat, f"its turn {content.number}")
            if content.number < self.turn_number:
                return Rejection.PLAYED, f"turn {content.number} is already played"
            mover = self.state.to_move
            if (content.number == self.turn_number and mover is not None and seat != mover
                    and not self._secret_choosing()):
                return self._why_not_played(seat, content.number, mover)
            self._turns.setdefault(content.number, []).append((seat, seq))
        else:
            return self._file_choice(seat, seq, content)
        return None

    def _handed_for(self, seat: int, turn: int) -> bool:
        """Whether ``seat`` was handed over at or before turn number ``turn``: its own TURN for
        it is late, whenever it arrives (a turn it signed for an earlier number is judged as
        any other seat's)."""
        return seat in self.forfeits and turn >= self.marks[self.forfeits[seat]].turn

    def _handed_reason(self, seat: int, what: str) -> str:
        return (f"handed to the stand-in at step {self.forfeits[seat]}: {what} does not count "
                "(the hand-over came first)")

    def _file_agreement(self, seat: int, seq: int, content: SeatToBot) -> Void | None:
        if not (content.seat < len(self.seats) and content.seat != seat):
            return Rejection.MALFORMED, "a seat-to-bot agreement is [another seat, a step]"
        votes = self._agreements.setdefault((content.seat, content.step), {})
        if seat in votes:
            return Rejection.SECOND_AGREEMENT, (
                f"a second agreement to hand {self.seats[content.seat].name} over at step "
                f"{content.step}")
        votes[seat] = seq
        if content.seat == self.my_seat and content.step < self.step:
            self._check_overruled(content.step)
        return None

    def _file_reveal(self, seat: int, seq: int, content: Reveal) -> Void | None:
        k = content.event
        if not verify_reveal(self.seats[seat].commitment, k, content.link,
                             self._last_link.get(seat)):
            return (Rejection.BAD_REVEAL,
                    f"reveal for chance event {k} does not hash to the commitment")
        if k > self._last_link.get(seat, (-1, b""))[0]:
            self._last_link[seat] = k, content.link
        have = self._reveals.setdefault(k, {})
        if seat in have:
            return Rejection.SECOND_REVEAL, f"a second reveal for chance event {k}"
        have[seat] = (seq, content.link)
        if seat in self.forfeits:
            return Rejection.HANDED_OVER, self._handed_reason(
                seat, f"its reveal for chance event {k}")
        return None

    def _file_choice(self, seat: int, seq: int, content: Content) -> Void | None:
        """File a secret set-up choice's commitment or reveal; the reason if it is void.
        A seat's entries are filed in chain order, so a reveal can only follow its
        commitment, and neither can be replaced."""
        if self.config.setup is not Setup.EXPERTS_SECRET:
            return Rejection.CHOICE, "this table makes no secret set-up choices"
        if isinstance(content, ChoiceCommit):
            if seat in self._commits:
                return Rejection.CHOICE, "a second choice commitment (the first one stands)"
            self._commits[seat] = (seq, content.digest)
            return None
        assert isinstance(content, ChoiceReveal)
        if seat not in self._commits:
            return Rejection.CHOICE, "a choice reveal before the author's commitment"
        if seat in self._choices:
            return Rejection.CHOICE, "a second choice reveal"
        digest = choice_digest(self.game_id, seat, content.choice, content.salt)
        if digest != self._commits[seat][1]:
            return (Rejection.CHOICE,
                    f"the revealed choice {content.choice!r} does not match the author's "
                    "commitment")
        self._choices[seat] = (seq, content.choice)
        return None

    def _reject(self, seat: int, seq: int, cause: Rejection, reason: str) -> None:
        rejected = EntryRejected(seat, seq, f"{self.seats[seat].name}: {reason}", cause)
        self.rejected[(seat, seq)] = rejected
        self._event(rejected)

    # --- the game as a function of the set of entries ---

    def _reach(self) -> None:
        """Note where the step the game is now at stands (its :class:`Mark`)."""
        last = self.history[-1] if self.history else None
        turns = self.marks[-1].turn + isinstance(last, TurnApplied) if self.marks else 0
        chance = self.state.chance
        event = chance.index if chance is not None else self._chance_count() - 1
        self.marks.append(Mark(self.step, event, turns, chance is not None))

    def _chance_count(self) -> int:
        """How many chance events the game resolved."""
        return sum(isinstance(h, ChanceResolved) for h in self.history)

    def _required(self) -> list[int]:
        """Seats whose reveal every chance event needs (not those handed to the stand-in)."""
        return [s for s in range(len(self.seats)) if s not in self.forfeits]

    def _secret_choosing(self) -> bool:
        """Whether the game waits for secret set-up choices."""
        return (self.config.setup is Setup.EXPERTS_SECRET and self.state.chance is None
                and not self.over and self.state.step == Step.CHOOSE_ESTATE)

    def _needed(self) -> list[int]:
        """The seats whose input this step needs (none for a turn of the stand-in)."""
        if self.state.chance is not None or self._secret_choosing():
            return self._required()
        mover = self.state.to_move
        assert mover is not None
        return [] if mover in self.forfeits else [mover]

    def _has_input(self, seat: int) -> bool:
        """Whether the entries hold ``seat``'s input for this step (for a turn, the first
        legal TURN of the mover for it, in its chain order; illegal ones are void)."""
        chance = self.state.chance
        if chance is not None:
            return seat in self._reveals.get(chance.index, {})
        if self._secret_choosing():
            return seat in self._choices
        return self._mover_turn() is not None

    def _mover_turn(self) -> tuple[int, tuple[Action, ...], GameState] | None:
        """The mover's TURN for this turn that counts if the mover keeps its seat: ``(seq,
        actions, state after)`` of the first legal one in its chain order."""
        t, mover = self.turn_number, self.state.to_move
        if self._mover_found is not None and self._mover_found[0] == t:
            return self._mover_found[1]  # later entries come later in the chain: it stays first
        pending = self._turns.get(t, [])
        for seat, seq in sorted(c for c in pending if c[0] == mover):
            content = self.contents[seat][seq]
            assert isinstance(content, Turn)
            try:
                found = seq, content.actions, play_turn(self.state, content.actions).after
            except EngineError as exc:
                pending.remove((seat, seq))
                self._reject(seat, seq, Rejection.ILLEGAL_TURN, f"illegal turn {t}: {exc}")
                continue
            self._mover_found = t, found
            return found
        return None

    def _pass_at(self, voter: int) -> int | None:
        """The seq of ``voter``'s first entry that passes this step, or None."""
        mark, chain = self.marks[-1], self.contents[voter]
        i = self._first_pass[voter]
        while i < len(chain):
            content = chain[i]
            if content is not None and mark.passes(content):
                break
            i += 1
        self._first_pass[voter] = i
        return i if i < len(chain) else None

    def _voters(self) -> list[int]:
        """The seats that have a say in a hand-over at this step: not handed over, and not
        signed off (RESIGN, END) or caught equivocating before going past it (from the slot
        it signed two bodies for, a seat's say ends as at a RESIGN there)."""
        out = []
        for v in self._required():
            off = min(self.resigned.get(v, _NEVER), self._ends.get(v, _NEVER),
                      self._forks.get(v, _NEVER))
            passed = self._pass_at(v)
            if (passed if passed is not None else _NEVER) < off or off == _NEVER:
                out.append(v)
        return out

    def _agrees(self, voter: int, seat: int) -> bool:
        """Whether ``voter`` has an agreement that counts to hand ``seat`` over at this step:
        signed once it had reached the step, and before anything that passes it."""
        seq = self._agreements.get((seat, self.step), {}).get(voter)
        if seq is None or not self.reached(voter, seq, self.step):
            return False
        passed = self._pass_at(voter)
        return passed is None or seq < passed

    def _declines(self, voter: int, seat: int) -> bool:
        """Whether ``voter`` will never have an agreement that counts to hand ``seat`` over at
        this step: we ourselves, if we did not agree (we never agree once past it), any voter
        whose chain went past the step without agreeing, and, when no entry will arrive any
        more, every voter that did not agree."""
        if self._agrees(voter, seat):
            return False
        return self._final or voter == self.my_seat or self._pass_at(voter) is not None

    def reached(self, voter: int, seq: int, step: int) -> bool:
        """Whether ``voter`` had reached ``step`` when it signed its entry ``seq``: its chain
        holds, before it, an entry that passes the step before (it had resolved every step
        before ``step``). So nobody can sign agreements ahead, not even for the next turn of
        the round, that would act the moment that turn comes."""
        if step == 0:
            return True
        before = self.marks[step - 1]
        return any(c is not None and before.passes(c) for c in self.contents[voter][:seq])

    def _handing(self, candidates: list[int], voters: list[int]) -> set[int]:
        """The seats handed over here: the least set ``H`` closed under adding a candidate
        with at least one agreement that counts, all of whose voters outside ``H`` agreed
        (docs/protocol.md, "SEAT_TO_BOT"). More agreements only make it larger, so a seat in
        it stays in it."""
        agreed = {x for x in candidates if (x, self.step) in self._agreements
                  and any(self._agrees(v, x) for v in voters if v != x)}
        handing: set[int] = set()
        while True:
            more = {x for x in agreed - handing
                    if all(self._agrees(v, x) for v in voters if v != x and v not in handing)}
            if not more:
                return handing
            handing |= more

    def _surely_kept(self, seat: int, needed: list[int], voters: list[int]) -> bool:
        """Whether no entry that may still arrive can hand ``seat`` over at this step: a seat
        handed over needs the agreement of every voter outside the set handed over, so if
        ``v`` declines ``seat``, handing ``seat`` over means handing ``v`` over too. ``seat``
        is kept when that reaches a voter that cannot be handed over here (one whose input
        the step does not need, or ourselves with our input in), or every voter."""
        me = self.my_seat
        fixed = {v for v in voters if v not in needed}
        if me is not None and me in needed and self._has_input(me) and me in voters:
            fixed.add(me)
        closure, todo = {seat}, [seat]
        while todo:
            x = todo.pop()
            for v in voters:
                if v != x and v not in closure and self._declines(v, x):
                    closure.add(v)
                    todo.append(v)
        return bool(closure & fixed) or set(voters) <= closure

    def _advance(self) -> None:
        """Resolve steps as far as the entries decide them for good; author our reveals and
        secret set-up reveal when due."""
        while not self.over and self.overruled is None:
            if self._author_due():
                return  # _author advanced already
            if not self._step():
                break
        self._report_over()

    def _may_author(self) -> bool:
        """Whether we author entries for the game: a player, not recovering its entries,
        still in the game."""
        return (self.my_seat is not None and not self.recovering and not self._signed_off
                and not self.handed_over)

    def _author_due(self) -> bool:
        """Author what the game now needs that the session itself writes: our reveal for a
        chance event, our secret set-up choice's reveal, and SEEN once we hold every input
        of the step (unless the only input is our own turn). Whether we authored."""
        me = self.my_seat
        if me is None or self._chain is None or not self._may_author():
            return False
        if self._due_seen():
            self._author(Seen(self.step + 1))
            return True
        chance = self.state.chance
        if chance is not None:
            if me in self._reveals.get(chance.index, {}):
                return False
            self._author(Reveal(chance.index, self._chain.reveal(chance.index)))
            return True
        if (self._secret_choosing() and me in self._commits and me not in self._choices
                and all(s in self._commits for s in self._required())
                and not any(isinstance(c, ChoiceReveal) for c in self.contents[me])):
            choice = self._own_choice()
            if choice is not None:
                assert self.identity is not None
                self._author(ChoiceReveal(choice, choice_salt(self.identity, self.game_id)))
                return True
        return False

    def _due_seen(self) -> bool:
        """Whether we owe SEEN: we have a say at this step, we hold every input it needs
        (other than only our own turn), and nothing of ours went past it yet."""
        needed = self._needed()
        me = self.my_seat
        return (me is not None and bool(needed) and needed != [me]
                and self._pass_at(me) is None and all(self._has_input(x) for x in needed)
                and me in self._voters())  # the dearest test last: it is seldom reached

    def _step(self) -> bool:
        """Decide the step the game is at, if the entries decide it for good: hand over the
        seats the function of the set of entries hands over there, or resolve it from the
        inputs. Whether anything changed."""
        needed = self._needed()
        others = [s for s in range(len(self.seats))]
        for x in needed:
            if (x in self._ends and not self._has_input(x)
                    and all(o in self.forfeits for o in others if o != x)):
                self.ended = (x, self.step)
                return True
        consent = [x for x in needed if (x in self.resigned or x in self._ends)
                   and not self._has_input(x)]
        voters = self._voters()
        handing = self._handing([x for x in needed if x not in consent], voters)
        if consent or handing:
            self._hand_over(sorted(handing | set(consent)), consent)
            return True
        for x in needed:
            if not self._has_input(x) or not self._surely_kept(x, needed, voters):
                return False
        self._resolve()
        return True

    def _hand_over(self, seats: list[int], resigned: list[int]) -> None:
        for seat in seats:
            self.forfeits[seat] = self.step
        if len(self.seats) > 1 and len(self._required()) == 1:
            self._sole_from = self._chance_count()
        self._event(HandedOver(tuple(seats), self.step, self.sole_contributor,
                               tuple(sorted(resigned))))

    def _resolve(self) -> None:
        """Resolve the step from the inputs (every seat kept is decided)."""
        chance = self.state.chance
        if chance is not None:
            k = chance.index
            have = self._reveals.get(k, {})
            for seat in sorted(set(have) - set(self._required())):
                if (seat, have[seat][0]) not in self.rejected:
                    self._reject(seat, have[seat][0], Rejection.HANDED_OVER, self._handed_reason(
                        seat, f"its reveal for chance event {k}"))
            seats = tuple(self._required())
            reveals = tuple(have[s][1] for s in seats)
            entropy = event_entropy(self.game_id, k, reveals)
            self.state, drew = draw_chance(self.state, entropy)
            self._played(ChanceResolved(k, chance.kind, reveals, entropy, state_hash(self.state),
                                        self.step, seats, drew, self.state))
            return
        t, mover = self.turn_number, self.state.to_move
        assert mover is not None
        author: int | None
        seq: int | None
        if mover in self.forfeits:
            actions = standin_turn(self.state, self._last_entropy(), t)
            author = seq = None
            self.state = play_turn(self.state, actions).after
        elif self._secret_choosing():
            author, (seq, choice) = mover, self._choices[mover]
            actions = (choice,)
            try:
                self.state = apply(self.state, choice)
            except EngineError as exc:
                # Bound by its commitment, the seat can only be handed over now.
                del self._choices[mover]
                self._reject(mover, seq, Rejection.CHOICE, f"illegal set-up choice: {exc}")
                return
        else:
            found = self._mover_turn()
            assert found is not None
            seq, actions, self.state = found
            author = mover
        self._played(TurnApplied(author, t, actions, state_hash(self.state), self.step, mover,
                                 seq, self.state))
        for other, other_seq in sorted(self._turns.pop(t, [])):
            if (other, other_seq) != (author, seq):
                self._reject(other, other_seq, *self._why_not_played(other, t, mover))

    def _last_entropy(self) -> bytes:
        return next(h.entropy for h in reversed(self.history) if isinstance(h, ChanceResolved))

    def _played(self, step: Resolved) -> None:
        """A step is resolved, for good."""
        self.history.append(step)
        self._reach()
        self._event(step)

    def _why_not_played(self, seat: int, t: int, mover: int) -> Void:
        name = self.seats[mover].name
        if self._handed_for(seat, t):
            return Rejection.HANDED_OVER, self._handed_reason(seat, f"its turn {t}")
        if seat == mover:
            return Rejection.SECOND_TURN, f"a second turn {t}"
        if mover in self.forfeits:
            return (Rejection.NOT_ITS_TURN, f"turn {t} is the stand-in's for {name}: nobody "
                    "signs it")
        if self.config.setup is Setup.EXPERTS_SECRET and isinstance(
                self.history[-1], TurnApplied) and isinstance(
                self.history[-1].actions[0], ChooseEstate):
            return Rejection.CHOICE, f"turn {t} is {name}'s secret choice"
        return Rejection.NOT_ITS_TURN, f"turn {t} belongs to {name}"

    def _check_overruled(self, step: int) -> None:
        """Every other voter agreed to hand our seat over at ``step``, which we resolved with
        our own input (it crossed their agreements): the game everyone else follows goes on
        without us from there, and ours is not it any more. We stop and say so."""
        me = self.my_seat
        assert me is not None
        mark = self.marks[step]
        voters = [v for v in range(len(self.seats)) if v != me
                  and self.forfeits.get(v, step + 1) > step
                  and v not in self.resigned and v not in self._ends]
        votes = self._agreements.get((me, step), {})
        if voters and all(v in votes and self.reached(v, votes[v], step)
                          and not any(c is not None and mark.passes(c)
                                      for c in self.contents[v][:votes[v]])
                          for v in voters):
            self.overruled = step
            self._event(Overruled(me, step))

    def _own_choice(self) -> ChooseEstate | None:
        """Our committed choice, found again by trying each legal one against the commitment
        (the salt is derived from our key, so this survives losing the game file)."""
        me = self.my_seat
        if self.identity is None or me is None or me not in self._commits:
            return None
        try:
            view = as_chooser(self.state, me)
        except EngineError:
            return None
        salt = choice_salt(self.identity, self.game_id)
        for choice in legal_actions(view):
            if (isinstance(choice, ChooseEstate)
                    and choice_digest(self.game_id, me, choice, salt) == self._commits[me][1]):
                return choice
        return None

    def _report_over(self) -> None:
        """Report the end of the game, once; a player still in it then signs SEEN [steps],
        unless its last entry says that already (it held the last step's inputs, another
        seat's turn, before the step resolved)."""
        if self.over and not self._end_reported:
            self._end_reported = True
            self._event(GameOver(self.outcome(), state_hash(self.state)))
            me = self.my_seat
            if (me is not None and self._may_author() and self._pass_at(me) is None
                    and self.contents[me][-1:] != [Seen(self.step)]):
                self._author(Seen(self.step))


def _inert(raw: bytes) -> bool:
    """Whether the entry ``raw`` cannot change the game, whoever holds it: a chat line, a
    SEEN (an equivocator's say ends at its fork, so its SEEN there passes nothing), or a
    payload of the wrong shape (which says nothing)."""
    try:
        return isinstance(content_of(decode_entry(raw)), Chat | Seen)
    except Malformed:
        return True


_HANDLERS: dict[type[Message], Callable[[Session, Any, object], None]] = {
    EntryMessage: Session._receive_entry_message,
    Heads: Session._answer,
    Want: Session._answer,
    Recover: Session._answer,
    Held: Session._receive_held,
}
"""The session's handler of each message it takes (the others are the lobby's)."""
