"""Audit a game from its log alone: every check, every draw, every move (``burgundy verify``).

:func:`audit` follows a game from a game file's entries with a spectator
:class:`~p2p_burgundy.net.session.Session` (so the rules are exactly the peers' rules) and
reports the steps its events resolved: each chance event with what the engine drew, each turn
with the entry that played it.
Like python-chess's pgn reader it never stops at the first defect: every failed check becomes
a :class:`~.report.Problem` naming the record, the author, the seq, the kind and the check,
and the report (:class:`~.report.Audit`, in :mod:`.report` with its JSON form) still shows
everything that could be established. The order of the entries does not matter; only a game
that is complete and has no problem is :attr:`~.report.Audit.ok`.

Pure: bytes in, a report out (:func:`audit_file` takes a game file's bytes).

>>> from p2p_burgundy.net.session import Session
>>> report = audit([])
>>> report.ok, [str(p) for p in report.problems]
(False, ['start: no valid START entry: nothing to audit'])
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence

from p2p_burgundy import draw_chance, new_game, state_hash

from .beacon import earlier_link, event_entropy, verify_reveal
from .contents import Chat as ChatContent
from .contents import Reveal, SeatToBot, Turn
from .errors import DecodeError, ProtocolError, RemoteProtocolError
from .events import ChanceResolved, Equivocation, Rejection, Resolved, TurnApplied, follow
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
from .report import (
    Audit,
    Branch,
    ChanceReport,
    Chat,
    Check,
    Player,
    Problem,
    Resignation,
    Score,
    Step,
    TurnReport,
    VoidEntry,
    Withheld,
)
from .session import Session
from .start import Start, parse_start

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
}
"""The :class:`Check` each :class:`~p2p_burgundy.net.events.Rejection` fails.

>>> REJECTION_CHECKS[Rejection.NOT_ITS_TURN].value
'wrong seat'
"""


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
    engine to report each chance event's draws, each turn and the final scores. When a seat
    signed two bodies for one slot, every other seat is judged in the game it followed
    (:func:`_judge_branches`).
    """
    auditor = _Auditor(records, file_problems, {})
    report = auditor.run()
    if not auditor.forks:
        return report
    return _judge_branches(records, file_problems, report, auditor.forks)


Fork = tuple[int, int, list[tuple[int, Entry]]]
"""An equivocation in a file: the seat, its fork slot (seq), and the bodies of that slot the
file holds that link to the seat's chain before it, as (record, entry) in file order."""

MAX_BRANCHES = 16
"""The most games an audit follows for a file with equivocations. A file an honest peer
wrote holds at most one body of a fork slot per seat but the equivocator's, so two
equivocators at a table of four give at most 9; with three, the one seat left to judge is
judged in the first game, which takes the bodies its own peer took first."""


def _judge_branches(records: Sequence[bytes], file_problems: Sequence[Problem], main: Audit,
                    forks: list[Fork]) -> Audit:
    """Judge every seat but the equivocators in a game it may have followed.

    A peer resolves a step from the body of an equivocator's slot it took first, so honest
    peers that took different bodies follow different games (docs/protocol.md, "What
    equivocation can still do"), and in one of them the other's later turns may be illegal.
    Each combination of the equivocators' bodies at their fork slots is one such game (a
    branch; ``main``, each seat's first body in file order, is the first); a seat's record
    holds if all its own entries are valid in one branch (the one its entries say it
    followed), and is judged in the main branch when none is. Branches are followed lazily,
    in order, only while some seat's record fails in every branch followed yet, and at most
    :data:`MAX_BRANCHES` of them. The report shows the main branch's game; each seat's
    problems and void entries are those of the branch it is judged in (``Audit.branches``).
    """
    equivocators = {seat for seat, _, _ in forks}
    judged = [p.seat for p in main.players if p.seat not in equivocators]
    reports = [main]
    taken: list[tuple[tuple[int, Entry], ...]] = []
    branch_of = dict.fromkeys(range(len(main.players)), 0)
    combos = itertools.product(*(bodies for _, _, bodies in forks))
    for combo in itertools.islice(combos, MAX_BRANCHES):
        if taken:  # the first combination is the main branch, followed already
            if all(_holds(reports[branch_of[s]], s) for s in judged):
                break
            report = _Auditor(records, file_problems,
                              {seat: body.body for (seat, _, _), (_, body)
                               in zip(forks, combo, strict=True)}).run()
            reports.append(report)
            for s in judged:
                if not _holds(reports[branch_of[s]], s) and _holds(report, s):
                    branch_of[s] = len(reports) - 1
        taken.append(combo)
    problems = [p for p in main.problems if p.of_file]
    void: list[VoidEntry] = []
    for seat in range(len(main.players)):
        report = reports[branch_of[seat]]
        problems += [p for p in report.problems if not p.of_file and p.seat == seat]
        void += [v for v in report.void if v.seat == seat]
    branches = tuple(
        Branch(tuple((seat, seq, record) for (seat, seq, _), (record, _)
                     in zip(forks, combo, strict=True)),
               tuple(s for s in judged if branch_of[s] == i))
        for i, combo in enumerate(taken))
    return dataclasses.replace(
        main, problems=tuple(problems),
        void=tuple(sorted(void, key=lambda v: (v.record is None, v.record or 0, v.seat,
                                               v.seq))),
        branches=branches)


def _holds(report: Audit, seat: int) -> bool:
    """Whether no entry of ``seat``'s own breaks a rule in the game ``report`` follows."""
    return not any(not p.of_file and p.seat == seat for p in report.problems)


class _Auditor:
    def __init__(self, records: Sequence[bytes], file_problems: Sequence[Problem],
                 first: dict[int, bytes]) -> None:
        """``first``: for an equivocating seat, the body of its fork slot to take (the one
        first in file order for a seat not named)."""
        self.records = records
        self.first = first
        self.problems: list[Problem] = list(file_problems)
        self.record_of: dict[bytes, int] = {}  # body -> first record holding it
        self.copies: list[tuple[int, Entry]] = []  # records repeating an earlier one
        self.entries: list[tuple[int, Entry]] = []
        self.forks: list[Fork] = []  # each equivocation, with its bodies in the file

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
            first = self.first.get(seat)
            for record, entry in sorted(by_author[seat],
                                        key=lambda item: (item[1].seq, item[1].body != first)):
                try:
                    session.receive_signed_entry(entry)  # decode() checked its signature
                except ProtocolError as exc:
                    message = exc.message if isinstance(exc, RemoteProtocolError) else str(exc)
                    if "too far ahead" in message:
                        message = "an earlier entry of this author is missing"
                    self.problem(Check.LINK, message, record, entry, seat)
                self.drain(session, steps)
        session.settle()  # the file is all there is
        self.drain(session, steps)
        self.unlinked(session, by_author)
        forks = {seat: min(p.seq for p in session.proofs if p.seat == seat)
                 for seat in sorted(session.faulty)}
        self.forks = [(seat, seq, [(record, entry) for record, entry in by_author[seat]
                                   if entry.seq == seq and _links(session.chains[seat], entry)])
                      for seat, seq in forks.items()]
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
        in the input if the host signed several). Every START that is not valid is a problem
        of the file, unless a seat of that game signed it for that game: the session then
        voids it as its author's own entry (a START is expected at the host's seq 0 only)."""
        starts: dict[bytes, tuple[int, Start]] = {}
        broken: list[tuple[int, Entry, str]] = []
        for record, entry in self.entries:
            if entry.kind != Kind.START:
                continue
            try:
                start = parse_start(entry)
            except RemoteProtocolError as exc:
                broken.append((record, entry, exc.message))
                continue
            starts.setdefault(entry.game_id, (record, start))
        games = [entry.game_id for _, entry in self.entries]
        found = max(starts.values(), key=lambda found: games.count(found[1].game_id),
                    default=None)
        keys = {s.key for s in found[1].seats} if found is not None else set()
        for record, entry, reason in broken:
            if found is None or entry.game_id != found[1].game_id or entry.author not in keys:
                self.problem(Check.START, reason, record, entry)
        return found

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
        applied = {(e.seat, e.seq) for e in resolved if isinstance(e, TurnApplied)
                   and e.seat is not None and e.seq is not None}
        steps: list[Step] = []
        state = new_game(config)
        for step in resolved:
            if isinstance(step, ChanceResolved):
                steps.append(ChanceReport(step.index, step.kind,
                                          tuple(zip(step.seats, step.reveals, strict=True)),
                                          step.entropy, step.drew, step.state_hash, step.state))
            else:
                steps.append(TurnReport(step.turn, step.mover, step.seq, state.phase,
                                        state.round, step.actions, step.state_hash, step.state))
            state = step.state
        complete = session.over
        unplayed = self.unplayed_turns(session, rejected, applied, complete)
        void = self.void_entries(session, complete, unplayed)
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
            rules=start.rules,
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
            withheld=withheld_reveals(session),
            sole_contributor=session.sole_contributor,
            waiting=session.waiting_for(),
            final_hash=state_hash(state),
            scores=scores,
            outcome=result,
        )

    def void_entries(self, session: Session, complete: bool,
                     unplayed: list[tuple[int, Entry, str]]) -> tuple[VoidEntry, ...]:
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
                content = session.contents[seat][entry.seq]
                if isinstance(content, SeatToBot):
                    why = _agreement_verdict(session, seat, entry.seq, content, complete,
                                             agreements)
                    if why is not None:
                        add(seat, entry, *why)
                        if why[1]:
                            self.problem(Check.HAND_OVER, why[0],
                                         self.record_of.get(entry.body), entry, seat)
                elif (isinstance(content, Reveal) and complete
                      and content.link not in used_links):
                    unused = (f"a reveal for chance event {content.event}, which the game "
                              "never needed")
                    add(seat, entry, unused, True)
                    self.problem(Check.REVEAL, unused, self.record_of.get(entry.body), entry,
                                 seat)
        for seat, entry, reason in unplayed:
            add(seat, entry, reason, True)
        seat_of = {s.key: i for i, s in enumerate(session.seats)}
        for record, entry in self.copies:
            if entry.author in seat_of and entry.game_id == session.game_id:
                add(seat_of[entry.author], entry,
                    f"a second copy of record {self.record_of[entry.body]}", False, record)
        return tuple(sorted(out, key=lambda v: (v.record is None, v.record or 0, v.seat,
                                                 v.seq)))

    def unplayed_turns(self, session: Session, rejected: set[tuple[int, int]],
                       applied: set[tuple[int, int]], complete: bool
                       ) -> list[tuple[int, Entry, str]]:
        """TURN entries neither applied nor rejected: in a finished game, never reached. Each
        is a problem; the (seat, entry, reason) of each."""
        unplayed: list[tuple[int, Entry, str]] = []
        if not complete:
            return unplayed
        for seat, chain in enumerate(session.chains):
            for entry in chain:
                content = session.contents[seat][entry.seq]
                if isinstance(content, Turn) and (seat, entry.seq) not in rejected | applied:
                    reason = (f"turn {content.number} was never played "
                              f"(the game ended after turn {session.turn_number - 1})")
                    self.problem(Check.OUT_OF_ORDER, reason, self.record_of.get(entry.body),
                                 entry, seat)
                    unplayed.append((seat, entry, reason))
        return unplayed

    def chats(self, session: Session) -> tuple[Chat, ...]:
        out = []
        for seat, contents in enumerate(session.contents):
            for seq, content in enumerate(contents):
                if isinstance(content, ChatContent):
                    out.append(Chat(seat, seq, content.text))
        return tuple(out)


def _agreement_verdict(session: Session, seat: int, seq: int, content: SeatToBot,
                       complete: bool, seen: set[tuple[int, int, int]]
                       ) -> tuple[str, bool] | None:
    """Why a (well-formed) SEAT_TO_BOT entry does not count, and whether that fails the
    file; None if it took part in a hand-over or may still (an unfinished game)."""
    target, step = content.seat, content.step
    name = session.seats[target].name
    key = (seat, target, step)
    first = key not in seen
    seen.add(key)
    if not first:
        return None  # the session voided the second one already
    handed = session.forfeits
    if seat in handed and handed[seat] <= step and handed.get(target) != step:
        return f"its author was handed to the stand-in at step {handed[seat]}", False
    if handed.get(target) == step:
        return None  # one of the agreements that handed the seat over
    if step >= session.step:
        if not complete:
            return None  # the game has not reached that step yet
        return (f"names step {step}, but the game ended after step {session.step - 1}", True)
    if not session.reached(seat, seq, step):
        return (f"signed before its author reached step {step} (an agreement cannot be signed "
                "ahead)", False)
    if target in handed and handed[target] < step:
        return f"{name} was already handed to the stand-in at step {handed[target]}", False
    if any(c is not None and session.marks[step].passes(c)
           for c in session.contents[seat][:seq]):
        return (f"signed after its author went past step {step} (an agreement counts only "
                "while the game waits there)", False)
    return (f"the game did not wait for {name} at step {step} (it was resolved from the "
            "entries)", False)


def withheld_reveals(session: Session) -> tuple[Withheld, ...]:
    """Every reveal withheld where its seat was handed over (not a resignation: that seat
    consented), with what the event would have drawn with it once a later reveal of that
    seat shows the withheld link."""
    out = []
    for seat, step in sorted(session.forfeits.items()):
        event = session.history[step] if step < len(session.history) else None
        if seat in session.resigned or not isinstance(event, ChanceResolved):
            continue
        k = event.index
        later = [(c.event, c.link) for c in session.contents[seat]
                 if isinstance(c, Reveal) and c.event >= k
                 and verify_reveal(session.seats[seat].commitment, c.event, c.link)]
        would_have = None
        if later:
            first, shown = min(later)
            link = earlier_link(shown, first, k)
            reveals = dict(zip(event.seats, event.reveals, strict=True)) | {seat: link}
            entropy = event_entropy(session.game_id, k, [reveals[s] for s in sorted(reveals)])
            before = session.history[step - 1].state if step else new_game(session.config)
            would_have = draw_chance(before, entropy)[1]
        out.append(Withheld(seat, k, step, would_have))
    return tuple(out)


def _links(chain: Sequence[Entry], entry: Entry) -> bool:
    """Whether ``entry`` links to ``chain``, its author's chain before it."""
    return entry.prev == (chain[entry.seq - 1].id if entry.seq else b"")


def _who(key: bytes) -> str:
    return fingerprint(key) if len(key) == PUBLIC_KEY_SIZE else key[:8].hex() + "…"
