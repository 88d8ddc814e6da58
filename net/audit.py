"""Audit a game from its log alone: every check, every draw, every move (``burgundy verify``).

:func:`audit` rebuilds a game from a game file's entries with a spectator
:class:`~p2p_burgundy.net.session.Session` (so the rules are exactly the peers' rules) and
reports the steps its events resolved: each chance event with what the engine drew, each turn
with the entry that played it.
Like python-chess's pgn reader it never stops at the first defect: every failed check becomes
a :class:`Problem` naming the record, the author, the seq, the kind and the check, and the
report still shows everything that could be established. The order of the entries does not
matter; only a game that is complete and has no problem is :attr:`Audit.ok`.

Pure: bytes in, a report out (:func:`audit_file` takes a game file's bytes).

>>> from p2p_burgundy.net.session import Session
>>> report = audit([])
>>> report.ok, [str(p) for p in report.problems]
(False, ['start: no valid START entry: nothing to audit'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from p2p_burgundy import (
    Action,
    GameConfig,
    GameState,
    new_game,
    state_hash,
)
from p2p_burgundy.board import PHASE_LETTERS
from p2p_burgundy.chance import ChanceKind, DealDraw, Draw, PhaseDraw, SetupDraw
from p2p_burgundy.scoring import Category, Outcome, categories

from .errors import DecodeError, ProtocolError, RemoteProtocolError
from .identity import PUBLIC_KEY_SIZE, fingerprint, table_code, verify
from .log import (
    _RECORD_HEADER,
    ENTRY_DOMAIN,
    MAX_RECORD,
    Entry,
    Kind,
    decode_entry,
    magic_problem,
    read_records,
)
from .session import (
    ChanceResolved,
    Equivocation,
    Rejection,
    Resolved,
    Session,
    Start,
    TurnApplied,
    Waiting,
    follow,
    parse_start,
)


class Check(Enum):
    """Which check an entry (or the file) failed."""

    FILE = "file"  # bad magic, or a torn or corrupt tail
    DECODE = "decode"  # an entry's bytes are malformed
    SIGNATURE = "signature"  # the Ed25519 signature does not verify
    START = "start"  # no valid START entry, or a broken one
    GAME = "game"  # the entry belongs to another game
    SEAT = "seat"  # the author has no seat at this table
    LINK = "link"  # the entry does not link to the author's previous one, or one is missing
    REVEAL = "reveal"  # a reveal that does not hash to the commitment, or a second one
    ILLEGAL_TURN = "illegal turn"  # the rules forbid the turn
    WRONG_SEAT = "wrong seat"  # a turn by a player who was not to move
    OUT_OF_ORDER = "out of order"  # a turn for a number already played, or never reached
    EQUIVOCATION = "equivocation"  # two signed bodies for one (author, seq)
    MALFORMED = "malformed"  # a payload of the wrong shape, or a kind not expected
    HAND_OVER = "hand-over"  # a second agreement, or one naming a step beyond the game
    RESIGNED = "resigned"  # an entry its author signed after resigning


REJECTION_CHECKS: dict[Rejection, Check] = {
    Rejection.MALFORMED: Check.MALFORMED,
    Rejection.BAD_REVEAL: Check.REVEAL,
    Rejection.SECOND_REVEAL: Check.REVEAL,
    Rejection.SECOND_AGREEMENT: Check.HAND_OVER,
    Rejection.SIGNED_OFF: Check.RESIGNED,
    Rejection.PLAYED: Check.OUT_OF_ORDER,
    Rejection.SECOND_TURN: Check.OUT_OF_ORDER,
    Rejection.NOT_ITS_TURN: Check.WRONG_SEAT,
    Rejection.ILLEGAL_TURN: Check.ILLEGAL_TURN,
    Rejection.CHOICE: Check.MALFORMED,
    # Not defects (Rejection.defect): never a problem, but every cause has its check.
    Rejection.HANDED_OVER: Check.HAND_OVER,
    Rejection.NO_HAND_OVER: Check.HAND_OVER,
}
"""The :class:`Check` each :class:`~p2p_burgundy.net.session.Rejection` fails.

>>> REJECTION_CHECKS[Rejection.NOT_ITS_TURN].value
'wrong seat'
"""


@dataclass(frozen=True, slots=True)
class Problem:
    """One failed check. ``record`` is the entry's index in the input (from 0), ``author``
    the author's fingerprint (or a hex prefix if the key is malformed)."""

    check: Check
    reason: str
    record: int | None = None
    author: str | None = None
    seat: int | None = None
    seq: int | None = None
    kind: str | None = None

    def __str__(self) -> str:
        where = []
        if self.record is not None:
            where.append(f"record {self.record}")
        if self.seat is not None:
            where.append(f"seat {self.seat}")
        if self.author is not None:
            where.append(self.author)
        if self.seq is not None:
            where.append(f"seq {self.seq}")
        if self.kind is not None:
            where.append(self.kind)
        at = f" [{', '.join(where)}]" if where else ""
        return f"{self.check.value}: {self.reason}{at}"


@dataclass(frozen=True, slots=True)
class VoidEntry:
    """A valid, signed entry of the game that does not count, and why (docs/protocol.md, "A
    verdict for every entry"). ``fails``: whether it makes the file fail verification (it
    breaks a rule a correct peer always keeps); the others are what correct peers write in a
    hand-over or a race, or harmless copies."""

    record: int | None
    seat: int
    seq: int
    kind: str
    reason: str
    fails: bool

    def __str__(self) -> str:
        where = f"record {self.record}, " if self.record is not None else ""
        verdict = "fails verification" if self.fails else "does not affect verification"
        return f"{where}seat {self.seat} seq {self.seq} {self.kind}: {self.reason} ({verdict})"


@dataclass(frozen=True, slots=True)
class Player:
    """A seat as the START entry fixes it."""

    seat: int
    name: str
    colour: str
    key: bytes
    fingerprint: str
    commitment: bytes
    host: bool


@dataclass(frozen=True, slots=True)
class ChanceReport:
    """Chance event ``index``: the reveals ``(seat, link)`` in seat order (every seat, less
    any handed to a bot), the entropy they give, and what it decided."""

    index: int
    kind: ChanceKind
    reveals: tuple[tuple[int, bytes], ...]
    entropy: bytes
    drew: Draw
    state_hash: bytes
    state: GameState = field(compare=False, repr=False)  # the game after it


@dataclass(frozen=True, slots=True)
class TurnReport:
    """Turn number ``turn`` of ``seat``, signed by ``author`` in its entry ``seq`` (the author
    is the seat itself, or the deputy playing a seat handed to a bot), in phase ``phase`` and
    round ``round`` (0-based)."""

    turn: int
    seat: int
    author: int
    seq: int
    phase: int
    round: int
    actions: tuple[Action, ...]
    state_hash: bytes
    state: GameState = field(compare=False, repr=False)  # the game after it


@dataclass(frozen=True, slots=True)
class Chat:
    seat: int
    seq: int
    text: str


@dataclass(frozen=True, slots=True)
class Resignation:
    """Seat ``seat`` resigned in its entry ``seq``; a bot played it from ``step`` on (phase
    and round 0-based), or None if the game never waited for it after that."""

    seat: int
    seq: int
    step: int | None
    phase: int | None
    round: int | None

    def text(self, name: str) -> str:
        if self.step is None or self.phase is None or self.round is None:
            return f"{name} resigned (seq {self.seq}); the game never waited for that seat after"
        return (f"{name} resigned at phase {'ABCDE'[self.phase]} round {self.round + 1}: a bot "
                f"played the seat from step {self.step} on")


@dataclass(frozen=True, slots=True)
class Score:
    """A seat's final victory points, by :class:`~p2p_burgundy.scoring.Category`."""

    seat: int
    vp: int
    breakdown: tuple[int, ...]

    @property
    def by_category(self) -> dict[Category, int]:
        return dict(zip(categories(self.breakdown), self.breakdown, strict=True))


Step = ChanceReport | TurnReport


@dataclass(frozen=True, slots=True)
class Audit:
    """Everything an audit established. ``steps`` is the game in order (chance events and
    turns interleaved as they happened); ``waiting`` says what an unfinished game waits for."""

    records: int
    game_id: bytes | None = None
    table_code: str | None = None
    config: GameConfig | None = None
    players: tuple[Player, ...] = ()
    steps: tuple[Step, ...] = ()
    chats: tuple[Chat, ...] = ()
    problems: tuple[Problem, ...] = ()
    proofs: tuple[Equivocation, ...] = ()
    forfeits: tuple[tuple[int, int], ...] = ()  # (seat handed to a bot, the step from which)
    resignations: tuple[Resignation, ...] = ()  # seats whose players resigned, by seat
    ended: tuple[int, int] | None = None  # (seat, step): the only player left ended the game
    void: tuple[VoidEntry, ...] = ()  # every entry that does not count, with its verdict
    sole_contributor: tuple[int, int] | None = None  # (seat, k): only it from event k on
    waiting: Waiting | None = None
    final_hash: bytes | None = None
    scores: tuple[Score, ...] = ()
    outcome: Outcome | None = None

    @property
    def complete(self) -> bool:
        """The game reached its end (final scoring done)."""
        return self.outcome is not None

    @property
    def ok(self) -> bool:
        """The game is complete and every check held."""
        return self.complete and not self.problems

    @property
    def sole_contributor_text(self) -> str | None:
        """What a player must know when hand-overs left one seat contributing entropy."""
        if self.sole_contributor is None:
            return None
        seat, k = self.sole_contributor
        who = self.players[seat].name if seat < len(self.players) else f"seat {seat}"
        return (f"from chance event {k} on, only seat {seat} ({who}) contributes entropy: "
                f"{who} could predict every later roll and draw")

    @property
    def chance(self) -> tuple[ChanceReport, ...]:
        return tuple(s for s in self.steps if isinstance(s, ChanceReport))

    @property
    def turns(self) -> tuple[TurnReport, ...]:
        return tuple(s for s in self.steps if isinstance(s, TurnReport))

    def hashes(self) -> list[tuple[str, int, bytes]]:
        """(``"chance"`` or ``"turn"``, index, state hash after it) for every step: the same
        sequence every peer's session reported."""
        return [
            ("chance", s.index, s.state_hash)
            if isinstance(s, ChanceReport)
            else ("turn", s.turn, s.state_hash)
            for s in self.steps
        ]

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict (bytes as lower-case hex)."""
        return _audit_json(self)


# --- Auditing ------------------------------------------------------------------------------------


def audit_file(data: bytes) -> Audit:
    """Audit a game file's bytes (``FILE_MAGIC`` then records), read-only: a torn or corrupt
    tail is a :data:`Check.FILE` problem, and the whole records before it are audited.

    >>> audit_file(b"garbage").problems[0].reason
    'not a p2p-burgundy game file'
    >>> audit_file(b"P2PBURGUNDY-GAME\\x00\\x01").problems[0].reason[:52]
    'a game file of protocol version 1 is not supported: '
    """
    problem = magic_problem(data)
    if problem is not None:
        return Audit(0, problems=(Problem(Check.FILE, problem),))
    records, end = read_records(data)
    problems = []
    if end < len(data):
        problems.append(Problem(Check.FILE, _tail_reason(data, end, len(records)),
                                record=len(records)))
    return audit(records, file_problems=problems)


def _tail_reason(data: bytes, end: int, whole: int) -> str:
    rest = len(data) - end
    where = f"the {rest} bytes after record {whole - 1}" if whole else f"the {rest} bytes"
    if rest < _RECORD_HEADER.size:
        why = "a record header cut short"
    else:
        length, _ = _RECORD_HEADER.unpack_from(data, end)
        if length > MAX_RECORD:
            why = f"a record length of {length} (over {MAX_RECORD})"
        elif end + _RECORD_HEADER.size + length > len(data):
            why = "a record cut short"
        else:
            why = "a record whose CRC-32 does not match"
    return f"torn or corrupt tail: {where} are not a whole record ({why})"


def audit(records: Sequence[bytes], *, file_problems: Sequence[Problem] = ()) -> Audit:
    """Rebuild and check a game from its raw entries, in any order.

    Finds the START entry (the first valid one), feeds every other entry of the game to a
    spectator session in each author's seq order, collects every problem, and replays the
    engine to report each chance event's draws, each turn and the final scores.
    """
    return _Auditor(records, file_problems).run()


class _Auditor:
    def __init__(self, records: Sequence[bytes], file_problems: Sequence[Problem]) -> None:
        self.records = records
        self.problems: list[Problem] = list(file_problems)
        self.record_of: dict[bytes, int] = {}  # body -> first record holding it
        self.copies: list[tuple[int, Entry]] = []  # records repeating an earlier one
        self.entries: list[tuple[int, Entry]] = []

    def problem(self, check: Check, reason: str, record: int | None = None,
                entry: Entry | None = None, seat: int | None = None) -> None:
        author = kind = seq = None
        if entry is not None:
            author = _who(entry.author)
            kind = entry.kind.name.lower()
            seq = entry.seq
        self.problems.append(Problem(check, reason, record, author, seat, seq, kind))

    def run(self) -> Audit:
        self.decode()
        found = self.find_start()
        if found is None:
            self.problem(Check.START, "no valid START entry: nothing to audit")
            return Audit(len(self.records), problems=tuple(self.problems))
        start_record, start = found
        session = Session(start.entry)
        seat_of = {s.key: i for i, s in enumerate(start.seats)}
        steps: list[Resolved] = []
        self.drain(session, steps)
        by_author: dict[int, list[tuple[int, Entry]]] = {}
        for record, entry in self.entries:
            if record == start_record or entry.body == start.entry.body:
                continue
            if entry.game_id != start.game_id:
                self.problem(Check.GAME, f"entry from another game ({entry.game_id.hex()})",
                             record, entry)
                continue
            seat = seat_of.get(entry.author)
            if seat is None:
                self.problem(Check.SEAT, "the author has no seat at this table", record, entry)
                continue
            by_author.setdefault(seat, []).append((record, entry))
        for seat in sorted(by_author):
            for record, entry in sorted(by_author[seat], key=lambda item: item[1].seq):
                try:
                    session.receive_entry(entry.raw)
                except ProtocolError as exc:
                    message = exc.message if isinstance(exc, RemoteProtocolError) else str(exc)
                    if "too far ahead" in message:
                        message = "an earlier entry of this author is missing"
                    self.problem(Check.LINK, message, record, entry, seat)
                self.drain(session, steps)
        self.unlinked(session, by_author)
        return self.report(session, start, steps)

    def decode(self) -> None:
        for record, raw in enumerate(self.records):
            try:
                entry = decode_entry(raw)
            except DecodeError as exc:
                self.problem(Check.DECODE, str(exc), record)
                continue
            if not verify(entry.author, ENTRY_DOMAIN, entry.body, entry.signature):
                self.problem(Check.SIGNATURE, "the signature does not verify", record, entry)
                continue
            if entry.body in self.record_of:
                self.copies.append((record, entry))  # the same entry twice: harmless
                continue
            self.record_of[entry.body] = record
            self.entries.append((record, entry))

    def find_start(self) -> tuple[int, Start] | None:
        """The valid START of the game most of the entries belong to (the first such START
        in the input if the host signed several)."""
        starts: dict[bytes, tuple[int, Start]] = {}
        for record, entry in self.entries:
            if entry.kind != Kind.START:
                continue
            try:
                start = parse_start(entry)
            except RemoteProtocolError as exc:
                self.problem(Check.START, exc.message, record, entry)
                continue
            starts.setdefault(entry.game_id, (record, start))
        if not starts:
            return None
        games = [entry.game_id for _, entry in self.entries]
        return max(starts.values(), key=lambda found: games.count(found[1].game_id))

    def drain(self, session: Session, steps: list[Resolved]) -> None:
        """Take the session's events: the steps it resolved, and proofs of equivocation."""
        while (event := session.next_event()) is not None:
            follow(steps, event)
            if isinstance(event, Equivocation):
                first, second = decode_entry(event.first), decode_entry(event.second)
                self.problem(
                    Check.EQUIVOCATION,
                    f"two signed bodies for seq {event.seq} (records "
                    f"{self.record_of.get(first.body)} and {self.record_of.get(second.body)}); "
                    "its later entries are not trusted",
                    self.record_of.get(second.body), second, event.seat)

    def unlinked(self, session: Session, by_author: dict[int, list[tuple[int, Entry]]]) -> None:
        """Entries left out of their author's chain because an earlier one is missing."""
        for seat, items in by_author.items():
            if seat in session.faulty:
                continue  # ignored after the equivocation, which is reported
            have = len(session.chains[seat])
            for record, entry in items:
                if entry.seq > have:
                    self.problem(Check.LINK, f"seq {have} of this author is missing or does "
                                 "not link, so this entry cannot be linked", record, entry, seat)

    def report(self, session: Session, start: Start, resolved: list[Resolved]) -> Audit:
        config = start.config
        host = [s.key for s in start.seats].index(start.entry.author)
        players = tuple(
            Player(i, s.name, s.colour, s.key, fingerprint(s.key), s.commitment, i == host)
            for i, s in enumerate(start.seats)
        )
        for rejection in session.rejected.values():  # what is void in the game as it stands
            if not rejection.cause.defect:
                continue  # void by the players' agreement or a race, not a defect
            entry = session.chains[rejection.seat][rejection.seq]
            self.problem(REJECTION_CHECKS[rejection.cause], rejection.reason,
                         self.record_of.get(entry.body), entry, rejection.seat)
        rejected = set(session.rejected)
        applied = {(e.seat, e.seq) for e in resolved if isinstance(e, TurnApplied)}
        steps: list[Step] = []
        state = new_game(config)
        for event in resolved:
            if isinstance(event, ChanceResolved):
                steps.append(ChanceReport(event.index, event.kind,
                                          tuple(zip(event.seats, event.reveals, strict=True)),
                                          event.entropy, event.drew, event.state_hash,
                                          event.state))
            else:
                steps.append(TurnReport(event.turn, event.mover, event.seat, event.seq,
                                        state.phase, state.round, event.actions,
                                        event.state_hash, event.state))
            state = event.state
        complete = session.over
        self.unplayed_turns(session, rejected, applied, complete)
        void = self.void_entries(session, complete)
        chat_reports = self.chats(session)
        scores: tuple[Score, ...] = ()
        result = None
        if complete:
            scores = tuple(Score(i, p.vp, p.breakdown) for i, p in enumerate(state.players))
            result = session.outcome()
        return Audit(
            records=len(self.records),
            game_id=start.game_id,
            table_code=table_code(start.game_id, [s.key for s in start.seats]),
            config=config,
            players=players,
            steps=tuple(steps),
            chats=chat_reports,
            problems=tuple(self.problems),
            proofs=tuple(session.proofs),
            forfeits=tuple(sorted(session.forfeits.items())),
            resignations=tuple(
                Resignation(seat, seq, session.forfeits.get(seat),
                            *(session.handed_round(seat) or (None, None)))
                for seat, seq in sorted(session.resigned.items())),
            ended=session.ended,
            void=void,
            sole_contributor=session.sole_contributor,
            waiting=session.waiting_for(),
            final_hash=state_hash(state),
            scores=scores,
            outcome=result,
        )

    def void_entries(self, session: Session, complete: bool) -> tuple[VoidEntry, ...]:
        """Every entry of the game that does not count, with its reason and verdict: those the
        session voided, agreements that never acted, reveals never needed, repeated
        records. Sorted by record."""
        out = []

        def add(seat: int, entry: Entry, reason: str, fails: bool,
                record: int | None = None) -> None:
            out.append(VoidEntry(self.record_of.get(entry.body) if record is None else record,
                                 seat, entry.seq, entry.kind.name.lower(), reason, fails))

        for (seat, seq), event in session.rejected.items():
            add(seat, session.chains[seat][seq], event.reason, event.cause.defect)
        used_links = {link for h in session.history if isinstance(h, ChanceResolved)
                      for link in h.reveals}
        agreements: set[tuple[int, int, int]] = set()
        for seat, chain in enumerate(session.chains):
            for entry in chain:
                if (seat, entry.seq) in session.rejected:
                    continue
                if entry.kind == Kind.SEAT_TO_BOT:
                    why = _agreement_verdict(session, seat, entry, complete, agreements)
                    if why is not None:
                        add(seat, entry, *why)
                        if why[1]:
                            self.problem(Check.HAND_OVER, why[0],
                                         self.record_of.get(entry.body), entry, seat)
                elif (entry.kind == Kind.REVEAL and complete
                      and entry.payload[1] not in used_links):
                    unneeded = (f"a reveal for chance event {entry.payload[0]!r}, which the game "
                                "never needed")
                    add(seat, entry, unneeded, True)
                    self.problem(Check.REVEAL, unneeded, self.record_of.get(entry.body), entry,
                                 seat)
        if complete:
            for problem in self.problems:  # TURN entries never reached (unplayed_turns)
                if problem.check == Check.OUT_OF_ORDER and "never played" in problem.reason \
                        and problem.seat is not None and problem.seq is not None:
                    add(problem.seat, session.chains[problem.seat][problem.seq],
                        problem.reason, True)
        seat_of = {s.key: i for i, s in enumerate(session.seats)}
        for record, entry in self.copies:
            if entry.author in seat_of and entry.game_id == session.game_id:
                add(seat_of[entry.author], entry,
                    f"a second copy of record {self.record_of[entry.body]}", False, record)
        return tuple(sorted(out, key=lambda v: (v.record is None, v.record or 0, v.seat,
                                                 v.seq)))

    def unplayed_turns(self, session: Session, rejected: set[tuple[int, int]],
                       applied: set[tuple[int, int]], complete: bool) -> None:
        """TURN entries neither applied nor rejected: in a finished game, never reached."""
        if not complete:
            return
        for seat, chain in enumerate(session.chains):
            for entry in chain:
                if entry.kind == Kind.TURN and (seat, entry.seq) not in rejected | applied:
                    number = entry.payload[0] if entry.payload else None
                    number = number if type(number) is int else "?"
                    self.problem(
                        Check.OUT_OF_ORDER,
                        f"turn {number} was never played (the game ended after turn "
                        f"{session.turn_number - 1})",
                        self.record_of.get(entry.body), entry, seat)

    def chats(self, session: Session) -> tuple[Chat, ...]:
        out = []
        for seat, chain in enumerate(session.chains):
            for entry in chain:
                p = entry.payload
                if entry.kind == Kind.CHAT and len(p) == 1 and isinstance(p[0], str):
                    out.append(Chat(seat, entry.seq, p[0]))
        return tuple(out)


def _agreement_verdict(session: Session, seat: int, entry: Entry, complete: bool,
                       seen: set[tuple[int, int, int]]) -> tuple[str, bool] | None:
    """Why a (well-formed) SEAT_TO_BOT entry does not count, and whether that fails the
    file; None if it took part in a hand-over or may still (an unfinished game)."""
    target, step = entry.payload
    assert type(target) is int and type(step) is int
    name = session.seats[target].name
    key = (seat, target, step)
    first = key not in seen
    seen.add(key)
    if not first:
        return None  # the session voided the second one already
    handed = session.forfeits
    if seat in handed and handed[seat] <= step and handed.get(target) != step:
        return f"its author was handed to a bot at step {handed[seat]}", False
    if handed.get(target) == step:
        return None  # one of the agreements that handed the seat over
    if step >= session.step:
        if not complete:
            return None  # the game has not reached that step yet
        return (f"names step {step}, but the game ended after step {session.step - 1}", True)
    if not session.reached(seat, entry.seq, step):
        return (f"signed before its author reached step {step} (an agreement cannot be signed "
                "ahead)", False)
    if target in handed and handed[target] < step:
        return f"{name} was already handed to a bot at step {handed[target]}", False
    return (f"the game did not wait for {name} at step {step} (it was resolved from the "
            "entries)", False)


def _who(key: bytes) -> str:
    return fingerprint(key) if len(key) == PUBLIC_KEY_SIZE else key[:8].hex() + "…"


# --- JSON ----------------------------------------------------------------------------------------


def _draw_json(draw: Draw) -> dict[str, object]:
    if isinstance(draw, SetupDraw):
        out: dict[str, object] = {"start_player": draw.start_player,
                                   "goods": [list(g) for g in draw.goods]}
        if draw.shields:
            out["shields"] = {str(d): list(on) for d, on in enumerate(draw.shields, 1)}
        if draw.routes:
            out["routes"] = [list(cards) for cards in draw.routes]
        return out
    if isinstance(draw, DealDraw):
        return {"offers": [list(o) for o in draw.offers]}
    if isinstance(draw, PhaseDraw):
        return {"phase": PHASE_LETTERS[draw.phase], "black_depot": list(draw.depots[0]),
                "depots": {str(d): list(draw.depots[d]) for d in range(1, 7)},
                "goods": list(draw.goods)}
    return {"phase": PHASE_LETTERS[draw.phase], "round": draw.round + 1,
            "dice": [list(d) for d in draw.dice], "white_die": draw.white_die,
            "goods": draw.goods, "order": list(draw.order)}


def _step_json(step: Step) -> dict[str, object]:
    if isinstance(step, ChanceReport):
        return {"step": "chance", "index": step.index, "kind": step.kind.name,
                "reveals": [{"seat": seat, "link": link.hex()} for seat, link in step.reveals],
                "entropy": step.entropy.hex(),
                "drew": _draw_json(step.drew), "state_hash": step.state_hash.hex()}
    return {"step": "turn", "turn": step.turn, "seat": step.seat, "author": step.author,
            "seq": step.seq,
            "phase": PHASE_LETTERS[step.phase], "round": step.round + 1,
            "actions": [a.to_tree() for a in step.actions],
            "moves": [repr(a) for a in step.actions], "state_hash": step.state_hash.hex()}


def _audit_json(a: Audit) -> dict[str, object]:
    outcome = None
    if a.outcome is not None:
        outcome = {"winner": a.outcome.winner, "ranking": list(a.outcome.ranking),
                   "scores": list(a.outcome.scores),
                   "empty_spaces": list(a.outcome.empty_spaces),
                   "decided_by": a.outcome.decided_by}
    waiting = None
    if a.waiting is not None:
        waiting = {"what": a.waiting.what, "index": a.waiting.index,
                   "seats": list(a.waiting.seats)}
    return {
        "ok": a.ok,
        "complete": a.complete,
        "records": a.records,
        "game_id": a.game_id.hex() if a.game_id is not None else None,
        "table_code": a.table_code,
        "config": a.config.to_tree() if a.config is not None else None,
        "players": [
            {"seat": p.seat, "name": p.name, "colour": p.colour, "key": p.key.hex(),
             "fingerprint": p.fingerprint, "commitment": p.commitment.hex(), "host": p.host}
            for p in a.players
        ],
        "steps": [_step_json(s) for s in a.steps],
        "chats": [{"seat": c.seat, "seq": c.seq, "text": c.text} for c in a.chats],
        "problems": [
            {"check": p.check.value, "reason": p.reason, "record": p.record,
             "author": p.author, "seat": p.seat, "seq": p.seq, "kind": p.kind}
            for p in a.problems
        ],
        "proofs": [{"seat": e.seat, "seq": e.seq, "first": e.first.hex(),
                    "second": e.second.hex()} for e in a.proofs],
        "forfeits": [{"seat": seat, "step": step} for seat, step in a.forfeits],
        "resignations": [{"seat": r.seat, "seq": r.seq, "step": r.step, "phase": r.phase,
                          "round": r.round, "message": r.text(a.players[r.seat].name)}
                         for r in a.resignations],
        "ended": None if a.ended is None else {"seat": a.ended[0], "step": a.ended[1]},
        "void_entries": [{"record": v.record, "seat": v.seat, "seq": v.seq, "kind": v.kind,
                          "reason": v.reason, "fails": v.fails} for v in a.void],
        "sole_contributor": None if a.sole_contributor is None else {
            "seat": a.sole_contributor[0], "from_event": a.sole_contributor[1],
            "message": a.sole_contributor_text},
        "waiting": waiting,
        "final_hash": a.final_hash.hex() if a.final_hash is not None else None,
        "scores": [{"seat": s.seat, "vp": s.vp,
                    "breakdown": {c.name.lower(): v for c, v in s.by_category.items()}}
                   for s in a.scores],
        "outcome": outcome,
    }
