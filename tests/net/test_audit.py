"""Auditing a game from its log alone (DESIGN.md, properties 3 and 10): what the report says
about a good game, and that every kind of defect is found, named and located, all at once."""

from __future__ import annotations

import json

import pytest

from p2p_burgundy import ChooseEstate, GameConfig, action_from_tree
from p2p_burgundy.chance import DealDraw, PhaseDraw, RoundDraw, SetupDraw
from p2p_burgundy.config import Setup
from p2p_burgundy.net.audit import REJECTION_CHECKS, audit, audit_file
from p2p_burgundy.net.beacon import event_entropy, verify_reveal
from p2p_burgundy.net.events import GameOver, Rejection
from p2p_burgundy.net.identity import Identity, fingerprint, table_code
from p2p_burgundy.net.inmemory import NAMES, Table
from p2p_burgundy.net.log import _RECORD_HEADER, FILE_MAGIC, Kind, decode_entry, sign_entry
from p2p_burgundy.net.report import Audit, Check
from p2p_burgundy.net.start import accept_start, make_start, start_digest

from .harness import canonical, forge_chain, shuffled


@pytest.fixture(scope="module")
def game() -> Table:
    table = Table(3, seed=21)
    table.play(turns=3)
    table.sessions[1].send_chat("hello table")
    table.play()
    return table


@pytest.fixture(scope="module")
def report(game: Table) -> Audit:
    return audit(game.files[0])


def _file(records: list[bytes]) -> bytes:
    return FILE_MAGIC + b"".join(_RECORD_HEADER.pack(len(r), __import__("zlib").crc32(r)) + r
                                 for r in records)


def checks(report: Audit) -> list[str]:
    return [p.check.value for p in report.problems]


# --- A good game ---------------------------------------------------------------------------------


def test_a_finished_game_verifies(report: Audit, game: Table) -> None:
    assert report.ok and report.complete and report.problems == ()
    assert report.records == len(game.files[0])
    assert report.waiting is None
    assert report.hashes() == game.hashes(0)
    assert report.final_hash == game.final_hashes()[0]


def test_the_roster_is_the_start_entry(report: Audit, game: Table) -> None:
    assert report.game_id == game.game_id
    assert report.table_code == table_code(game.game_id, [i.public_key for i in game.ids])
    assert [p.name for p in report.players] == list(NAMES[:3])
    assert [p.colour for p in report.players] == ["red", "blue", "green"]
    assert [p.key for p in report.players] == [i.public_key for i in game.ids]
    assert [p.fingerprint for p in report.players] == [fingerprint(i.public_key) for i in game.ids]
    assert [p.commitment for p in report.players] == [s.commitment for s in game.sessions[0].seats]
    assert [p.host for p in report.players] == [True, False, False]


def test_every_chance_event_shows_checkable_reveals_and_what_it_drew(report: Audit) -> None:
    kinds = [type(c.drew) for c in report.chance]
    assert kinds == [SetupDraw] + ([PhaseDraw] + [RoundDraw] * 5) * 5
    for step in report.chance:
        assert [seat for seat, _ in step.reveals] == [0, 1, 2]
        for player, (_, reveal) in zip(report.players, step.reveals, strict=True):
            assert verify_reveal(player.commitment, step.index, reveal)
        links = [link for _, link in step.reveals]
        assert step.entropy == event_entropy(report.game_id, step.index, links)
    assert [c.index for c in report.chance] == list(range(31))
    setup = report.chance[0].drew
    assert isinstance(setup, SetupDraw) and all(len(g) == 3 for g in setup.goods)
    rolled = report.chance[2].drew
    assert isinstance(rolled, RoundDraw)
    assert all(1 <= d <= 6 for pair in rolled.dice for d in pair) and 1 <= rolled.white_die <= 6


def test_every_turn_names_its_entry(report: Audit, game: Table) -> None:
    turns = report.turns
    assert [t.turn for t in turns] == list(range(75))
    for turn in turns:
        assert turn.seq is not None
        entry = game.sessions[0].chains[turn.seat][turn.seq]
        assert entry.kind == Kind.TURN and entry.payload[0] == turn.turn
        assert tuple(action_from_tree(a) for a in entry.payload[1]) == turn.actions  # type: ignore[union-attr]


def test_scores_and_outcome_match_the_peers(report: Audit, game: Table) -> None:
    over = game.of_type(2, GameOver)[0]
    assert report.outcome == over.outcome
    assert [s.vp for s in report.scores] == list(over.outcome.scores)
    assert all(sum(s.breakdown) == s.vp for s in report.scores)
    assert [c.text for c in report.chats] == ["hello table"]
    assert report.chats[0].seat == 1


def test_order_does_not_matter(report: Audit, game: Table) -> None:
    for seed in range(3):
        assert audit(shuffled(game.files[0], seed)) == report
    assert audit(canonical(game, 2)) == report
    duplicated = game.files[0] + game.files[1][:10]
    assert audit(duplicated).ok


def test_json_is_one_document_with_hex_bytes(report: Audit) -> None:
    doc = json.loads(json.dumps(report.to_json()))
    assert doc["ok"] is True and doc["complete"] is True
    assert doc["game_id"] == report.game_id.hex()
    assert len(doc["steps"]) == 31 + 75
    first = doc["steps"][0]
    assert first["kind"] == "SETUP" and len(first["reveals"]) == 3
    assert bytes.fromhex(first["entropy"]) == report.chance[0].entropy
    assert doc["scores"][0]["breakdown"]["sales"] >= 0
    assert doc["outcome"]["winner"] == report.outcome.winner  # type: ignore[union-attr]


# --- Unfinished games ----------------------------------------------------------------------------


def test_an_unfinished_game_says_what_it_waits_for(game: Table) -> None:
    prefix = canonical(game)[:40]
    report = audit(prefix)
    assert not report.ok and not report.complete
    assert report.problems == ()  # nothing wrong, just not over
    assert report.waiting is not None
    assert report.scores == () and report.outcome is None


def test_a_withheld_reveal_is_named(game: Table) -> None:
    entries = [raw for raw in canonical(game)
               if not (decode_entry(raw).author == game.ids[2].public_key
                       and decode_entry(raw).seq >= 10)]
    report = audit(entries)
    assert not report.ok
    assert report.waiting is not None and report.waiting.seats == (2,)


# --- Every defect, found and located -------------------------------------------------------------


def _problem(report: Audit, check: Check):  # type: ignore[no-untyped-def]
    found = [p for p in report.problems if p.check is check]
    assert found, report.problems
    return found[0]


def test_bad_bytes_and_bad_signatures(game: Table) -> None:
    records = list(game.files[0])
    records.insert(5, b"\x00garbage")
    target = 9
    flipped = bytearray(records[target])
    flipped[-2] ^= 0x40
    records[target] = bytes(flipped)
    report = audit(records)
    decode = _problem(report, Check.DECODE)
    assert decode.record == 5
    signature = _problem(report, Check.SIGNATURE)
    entry = decode_entry(records[target])
    assert (signature.record, signature.seq) == (target, entry.seq)
    assert signature.author == fingerprint(entry.author)
    assert signature.kind == entry.kind.name.lower()
    assert not report.ok


def test_a_missing_entry_breaks_its_authors_chain(game: Table) -> None:
    entries = canonical(game)
    chain_one = [i for i, raw in enumerate(entries)
                 if decode_entry(raw).author == game.ids[1].public_key]
    del entries[chain_one[5]]
    report = audit(entries)
    [link] = [p for p in report.problems if p.check is Check.LINK and p.seq == 6]
    assert link.seat == 1 and "seq 5 of this author is missing" in link.reason
    assert not report.complete


def test_no_start_and_a_broken_start(game: Table) -> None:
    report = audit(game.files[0][1:])
    assert checks(report) == ["start"] and report.players == ()
    ids = game.ids
    seats = game.sessions[0].seats
    bad = sign_entry(ids[0], game.game_id, 0, b"", Kind.START,
                     [game.sessions[0].start.table_id, game.config.to_tree(),
                      [[s.key, s.name, s.colour, s.contribution, s.commitment] for s in seats],
                      [bytes(64)] * 3])
    report = audit([bad.raw, *game.files[0][1:]])
    assert checks(report)[:2] == ["start", "start"]
    assert "acceptance does not verify" in report.problems[0].reason


def test_entries_from_another_game_and_strangers_are_named(game: Table) -> None:
    other = Table(3, seed=21, table_id=b"some other game!")
    other.play(turns=3)
    mallory = Identity.from_private_bytes(bytes([99]) * 32)
    stranger = sign_entry(mallory, game.game_id, 0, b"", Kind.CHAT, ["hi"])
    report = audit([*game.files[0], *other.files[1][:5], stranger.raw])
    assert checks(report) == ["game"] * 5 + ["seat"]
    assert report.problems[0].record == len(game.files[0])
    assert "another game" in report.problems[0].reason
    assert report.problems[-1].author == fingerprint(mallory.public_key)
    assert report.complete and not report.ok
    # Another game's START first in the file: the audit still follows the game most entries
    # belong to.
    report = audit([other.files[1][0], *game.files[0]])
    assert report.game_id == game.game_id and report.complete
    assert checks(report) == ["game"] and report.problems[0].record == 0


def test_a_reveal_that_does_not_match_the_commitment(game: Table) -> None:
    chain = game.sessions[0].chains[2]
    at = next(e.seq for e in chain if e.kind == Kind.REVEAL and e.payload[0] == 5)
    swapped = chain[at + 1].payload if chain[at + 1].kind == Kind.REVEAL else (5, bytes(32))
    report = audit(forge_chain(game, 2, at, Kind.REVEAL, [5, swapped[1]]))
    problem = _problem(report, Check.REVEAL)
    assert (problem.seat, problem.seq, problem.kind) == (2, at, "reveal")
    assert "chance event 5 does not hash to the commitment" in problem.reason
    assert report.waiting is not None and report.waiting.index == 5
    assert report.waiting.seats == (2,)


def test_an_illegal_turn_names_its_author(game: Table) -> None:
    chain = game.sessions[0].chains[1]
    turn = next(e for e in chain if e.kind == Kind.TURN)
    t = turn.payload[0]
    report = audit(forge_chain(game, 1, turn.seq, Kind.TURN, [t, [[10]]]))
    problem = _problem(report, Check.ILLEGAL_TURN)
    assert (problem.seat, problem.seq) == (1, turn.seq)
    assert problem.reason.startswith(f"Bob: illegal turn {t}")
    assert problem.author == fingerprint(game.ids[1].public_key)
    assert not report.complete and report.waiting.what == "turn"  # type: ignore[union-attr]


def test_turns_by_the_wrong_seat_out_of_order_or_never_reached(game: Table) -> None:
    report = audit(game.files[0])
    first = report.turns[0]
    wrong = (first.seat + 1) % 3
    trees = [a.to_tree() for a in first.actions]
    # Seat ``wrong`` appends a turn for a number that is someone else's, one already
    # played, and one far beyond the end of the game.
    entries = forge_chain(game, wrong, len(game.sessions[0].chains[wrong]), Kind.TURN,
                          [first.turn, trees])
    report = audit(entries)
    assert checks(report) in (["wrong seat"], ["out of order"])
    mover_chain = len(game.sessions[0].chains[first.seat])
    report = audit(forge_chain(game, first.seat, mover_chain, Kind.TURN, [first.turn, trees]))
    assert checks(report) == ["out of order"]
    assert "turn 0" in report.problems[0].reason
    report = audit(forge_chain(game, first.seat, mover_chain, Kind.TURN, [10_000, trees]))
    assert checks(report) == ["out of order"]
    assert "turn 10000 was never played" in report.problems[0].reason


def test_a_wrong_seat_turn_filed_before_its_number_comes_up(game: Table) -> None:
    # Seat 0's chain is read first, so its claim on a later turn of another seat waits
    # for that turn and is then refused as the wrong seat.
    report = audit(game.files[0])
    later = next(t for t in report.turns if t.seat != 0 and t.turn > 3)
    entries = forge_chain(game, 0, 2, Kind.TURN,
                          [later.turn, [a.to_tree() for a in later.actions]], insert=True)
    report = audit(entries)
    problem = _problem(report, Check.WRONG_SEAT)
    assert problem.seat == 0 and problem.seq == 2
    assert f"turn {later.turn} belongs to {NAMES[later.seat]}" in problem.reason


def test_equivocation_is_named_with_both_records(game: Table) -> None:
    chain = game.sessions[0].chains[1]
    entry = chain[7]
    second = sign_entry(game.ids[1], game.game_id, entry.seq, entry.prev, Kind.CHAT, ["other"])
    records = [*game.files[0], second.raw]
    report = audit(records)
    problem = _problem(report, Check.EQUIVOCATION)
    assert (problem.seat, problem.seq, problem.record) == (1, entry.seq, len(records) - 1)
    assert f"records {game.files[0].index(entry.raw)} and {len(records) - 1}" in problem.reason
    assert len(report.proofs) == 1
    assert not report.ok


def test_malformed_payloads(game: Table) -> None:
    n = len(game.sessions[0].chains[2])
    report = audit(forge_chain(game, 2, n, Kind.CHAT, [b"bytes, not text"]))
    assert checks(report) == ["malformed"]
    assert set(REJECTION_CHECKS) == set(Rejection)  # every cause of a void entry has its check
    assert REJECTION_CHECKS[Rejection.SECOND_REVEAL] is Check.REVEAL


def test_every_problem_is_reported_not_just_the_first(game: Table) -> None:
    entries = forge_chain(game, 2, len(game.sessions[0].chains[2]), Kind.CHAT, [1])
    other = Table(3, seed=21, table_id=b"some other game!")
    other.play(turns=1)
    flipped = bytearray(entries[20])
    flipped[-1] ^= 1
    entries[20] = bytes(flipped)
    entries += [other.files[0][3], b"\xc1"]
    found = set(checks(audit(entries)))
    assert {"malformed", "game", "decode", "signature"} <= found


def test_a_torn_file_tail_is_reported_and_the_rest_audited(game: Table) -> None:
    data = _file(game.files[0])
    report = audit_file(data[:-5])
    assert checks(report)[0] == "file"
    assert "torn or corrupt tail" in report.problems[0].reason
    assert "a record cut short" in report.problems[0].reason
    assert report.records == len(game.files[0]) - 1
    corrupt = bytearray(data)
    corrupt[-1] ^= 1
    report = audit_file(bytes(corrupt))
    assert "CRC-32" in report.problems[0].reason
    assert audit_file(data).ok
    assert checks(audit_file(b"PK\x03\x04 zip")) == ["file"]


def test_a_start_signed_for_a_table_that_is_not_ours() -> None:
    table = Table(2, seed=1)
    ids, config = table.ids, table.config
    seats = table.sessions[0].seats
    table_id = table.sessions[0].start.table_id
    digest = start_digest(table_id, config, seats)
    accepted = [accept_start(i, digest, s.commitment) for i, s in zip(ids, seats, strict=True)]
    start = make_start(ids[1], table_id, config, seats, accepted)  # seat 1 hosts this time
    report = audit([start.raw])
    assert report.players[1].host and report.problems == ()


def test_a_seat_handed_to_a_bot_is_audited_with_its_stand_in() -> None:
    table = Table(3, seed=4)
    table.play(turns=10)
    table.leave(2)  # seat 2 is gone for good; the others agree a bot plays it
    step = table.sessions[0].step
    table.hand_over(2)
    table.play()
    report = audit(shuffled(table.files[1], 1))
    assert report.ok, report.problems
    assert report.final_hash == table.final_hashes()[0] == table.final_hashes()[1]
    assert report.forfeits == ((2, step),)
    stand_in = [t for t in report.turns if t.seq is None]
    assert stand_in and all(t.seat == 2 for t in stand_in)
    assert stand_in == [t for t in report.turns if t.seat == 2 and t.turn >= stand_in[0].turn]
    assert len(report.chance[-1].reveals) == 2  # seat 2 no longer reveals
    assert report == audit(table.files[0])


@pytest.mark.parametrize(
    "config",
    [
        GameConfig(players=3, setup=Setup.EXPERTS_OPEN),
        GameConfig(players=2, setup=Setup.EXPERTS_SECRET),
        GameConfig(players=2, estates=("5", "5")),  # no printed castle: players choose
    ],
    ids=["experts-open", "experts-secret", "chosen-castles"],
)
def test_set_up_choices_and_the_deal_are_audited(config: GameConfig) -> None:
    table = Table(config.players, seed=2, config=config)
    table.play()
    report = audit(shuffled(table.files[-1], 4))
    assert report.ok, report.problems
    assert report.hashes() == table.hashes(0)
    choices = [t for t in report.turns if isinstance(t.actions[0], ChooseEstate)]
    assert len(choices) == config.players and all(t.seq is not None for t in choices)
    dealt = [c.drew for c in report.chance if isinstance(c.drew, DealDraw)]
    assert len(dealt) == (1 if config.setup is not Setup.STANDARD else 0)
    for offers in (d.offers for d in dealt):
        assert all(len(o) == 2 and o[0] != o[1] for o in offers)
