"""What an audit established (:func:`~p2p_burgundy.net.audit.audit`): the game in order, every
failed check, every void entry with its verdict, the scores; and its JSON form
(``burgundy verify --json``, documented in docs/protocol.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from p2p_burgundy import Action, GameConfig, GameState
from p2p_burgundy.board import PHASE_LETTERS
from p2p_burgundy.chance import ChanceKind, DealDraw, Draw, PhaseDraw, SetupDraw
from p2p_burgundy.scoring import Category, Outcome, categories
from p2p_burgundy.variants import drawn_at_setup

from .events import Equivocation, Waiting
from .tablerules import DEFAULT_RULES, TableRules, table_tree


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


FILE_CHECKS = frozenset({Check.FILE, Check.DECODE, Check.SIGNATURE, Check.START, Check.GAME,
                         Check.SEAT, Check.LINK})
"""Checks about the file itself (its records, their signatures, the START, the chains' links):
a failure there is nobody's signed misbehaviour, the file is broken."""


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

    @property
    def of_file(self) -> bool:
        """Whether it is about the file itself, not a seat's signed entry (:data:`FILE_CHECKS`,
        or no seat to name)."""
        return self.check in FILE_CHECKS or self.seat is None


@dataclass(frozen=True, slots=True)
class SeatVerdict:
    """Whether seat ``seat``'s record holds: ``problems`` are its own signed entries that
    break a rule (after its RESIGN or the end, equivocation, illegal or late entries, ...).
    Only the seat's own entries count against it: another seat's can never make it fail."""

    seat: int
    problems: tuple[Problem, ...]

    @property
    def honest(self) -> bool:
        return not self.problems


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
class Branch:
    """One game a file with equivocations allows: ``taken`` holds, for each seat that signed
    two bodies for one slot, ``(seat, seq, record)``: the body of that slot this game takes
    (its record in the file). ``judged`` are the seats judged in it: the other seats whose
    record holds in this game and in no branch before it (docs/protocol.md, "What
    equivocation can still do"); the first branch, each equivocator's body first in file
    order, is the game the report shows, and judges every seat no branch clears."""

    taken: tuple[tuple[int, int, int], ...]
    judged: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Withheld:
    """Seat ``seat`` withheld its reveal for chance event ``event`` and was handed over at
    that step (``step``), so the event was drawn without it. ``would_have`` is what the
    engine would have drawn with it, once a later reveal of that seat in the file shows the
    withheld link (each link hashes to the one before it); None while none does."""

    seat: int
    event: int
    step: int
    would_have: Draw | None


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
    """Turn number ``turn`` of ``seat``, signed by ``seat`` in its entry ``seq``, or played
    by the stand-in (``seq`` None: computed by every peer, signed by nobody), in phase
    ``phase`` and round ``round`` (0-based)."""

    turn: int
    seat: int
    seq: int | None
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
    rules: TableRules = DEFAULT_RULES  # the table's, signed with the config
    players: tuple[Player, ...] = ()
    steps: tuple[Step, ...] = ()
    chats: tuple[Chat, ...] = ()
    problems: tuple[Problem, ...] = ()
    proofs: tuple[Equivocation, ...] = ()
    forfeits: tuple[tuple[int, int], ...] = ()  # (seat handed to a bot, the step from which)
    resignations: tuple[Resignation, ...] = ()  # seats whose players resigned, by seat
    ended: tuple[int, int] | None = None  # (seat, step): the only player left ended the game
    void: tuple[VoidEntry, ...] = ()  # every entry that does not count, with its verdict
    withheld: tuple[Withheld, ...] = ()  # every reveal withheld where its seat was handed over
    sole_contributor: tuple[int, int] | None = None  # (seat, k): only it from event k on
    waiting: Waiting | None = None
    branches: tuple[Branch, ...] = ()  # the games the equivocations allow, if any, as judged
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
    def file_problems(self) -> tuple[Problem, ...]:
        """The problems of the file itself (:attr:`Problem.of_file`)."""
        return tuple(p for p in self.problems if p.of_file)

    @property
    def verdicts(self) -> tuple[SeatVerdict, ...]:
        """A verdict for each seat, in seat order: its own misbehaviour, if any."""
        return tuple(SeatVerdict(p.seat, tuple(q for q in self.problems
                                               if not q.of_file and q.seat == p.seat))
                     for p in self.players)

    @property
    def exit_code(self) -> int:
        """``burgundy verify``'s exit code: 2 if the file itself is broken (or holds no
        game), else 1 if some seat misbehaved, else 0 (every seat's record holds, whether or
        not the game is finished)."""
        if self.file_problems or not self.players:
            return 2
        return 1 if any(not v.honest for v in self.verdicts) else 0

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


# --- JSON ----------------------------------------------------------------------------------------


def _draw_json(draw: Draw) -> dict[str, object]:
    if isinstance(draw, SetupDraw):
        out: dict[str, object] = {"start_player": draw.start_player,
                                   "goods": [list(g) for g in draw.goods]}
        out.update((words.field, words.json(value))
                   for words, value in drawn_at_setup(draw))
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
    return {"step": "turn", "turn": step.turn, "seat": step.seat,
            "stand_in": step.seq is None, "seq": step.seq,
            "phase": PHASE_LETTERS[step.phase], "round": step.round + 1,
            "actions": [a.to_tree() for a in step.actions],
            "moves": [repr(a) for a in step.actions], "state_hash": step.state_hash.hex()}


def _problem_json(p: Problem) -> dict[str, object]:
    return {"check": p.check.value, "reason": p.reason, "record": p.record,
            "author": p.author, "seat": p.seat, "seq": p.seq, "kind": p.kind}


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
        "config": table_tree(a.config, a.rules) if a.config is not None else None,
        "players": [
            {"seat": p.seat, "name": p.name, "colour": p.colour, "key": p.key.hex(),
             "fingerprint": p.fingerprint, "commitment": p.commitment.hex(), "host": p.host}
            for p in a.players
        ],
        "steps": [_step_json(s) for s in a.steps],
        "chats": [{"seat": c.seat, "seq": c.seq, "text": c.text} for c in a.chats],
        "problems": [_problem_json(p) for p in a.problems],
        "file_ok": not a.file_problems,
        "verdicts": [{"seat": v.seat, "name": a.players[v.seat].name, "honest": v.honest,
                      "problems": [_problem_json(p) for p in v.problems]}
                     for v in a.verdicts],
        "exit_code": a.exit_code,
        "proofs": [{"seat": e.seat, "seq": e.seq, "first": e.first.hex(),
                    "second": e.second.hex()} for e in a.proofs],
        "forfeits": [{"seat": seat, "step": step} for seat, step in a.forfeits],
        "resignations": [{"seat": r.seat, "seq": r.seq, "step": r.step, "phase": r.phase,
                          "round": r.round, "message": r.text(a.players[r.seat].name)}
                         for r in a.resignations],
        "ended": None if a.ended is None else {"seat": a.ended[0], "step": a.ended[1]},
        "void_entries": [{"record": v.record, "seat": v.seat, "seq": v.seq, "kind": v.kind,
                          "reason": v.reason, "fails": v.fails} for v in a.void],
        "withheld": [{"seat": h.seat, "event": h.event, "step": h.step,
                      "would_have_drawn": None if h.would_have is None
                      else _draw_json(h.would_have)} for h in a.withheld],
        "sole_contributor": None if a.sole_contributor is None else {
            "seat": a.sole_contributor[0], "from_event": a.sole_contributor[1],
            "message": a.sole_contributor_text},
        "waiting": waiting,
        "branches": [{"taken": [{"seat": seat, "seq": seq, "record": record}
                                for seat, seq, record in b.taken],
                      "judged": list(b.judged)} for b in a.branches],
        "final_hash": a.final_hash.hex() if a.final_hash is not None else None,
        "scores": [{"seat": s.seat, "vp": s.vp,
                    "breakdown": {c.name.lower(): v for c, v in s.by_category.items()}}
                   for s in a.scores],
        "outcome": outcome,
    }
