"""``burgundy verify``: anyone can check a finished game from its log file alone (property 10),
and every kind of tampering is caught and named."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import pytest

from p2p_burgundy.cli.main import main
from p2p_burgundy.net.contents import Reveal
from p2p_burgundy.net.events import ChanceResolved
from p2p_burgundy.net.inmemory import NAMES, Table
from p2p_burgundy.net.log import _RECORD_HEADER, FILE_MAGIC, Kind, decode_entry, sign_entry
from tests.cli.schemas import problems
from tests.net.harness import canonical, forge_chain
from tests.net.test_fairness_attacks import ended_game, hostile_game
from tests.net.test_rewind import rewound
from tests.net.test_split import split


@pytest.fixture(scope="module")
def game() -> Table:
    table = Table(2, seed=31)
    table.play()
    return table


def write(path: Path, records: list[bytes]) -> Path:
    """A game file as GameFile writes it."""
    path.write_bytes(FILE_MAGIC + b"".join(
        _RECORD_HEADER.pack(len(raw), zlib.crc32(raw)) + raw for raw in records))
    return path


def verify(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    code = main(["verify", str(path), *extra])
    return code, capsys.readouterr().out


def test_a_good_game_verifies(tmp_path: Path, game: Table,
                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out = verify(write(tmp_path / "g.game", game.files[1]), capsys)
    assert code == 0
    report = out.splitlines()
    assert report[-1].startswith("VERIFIED")
    for session_seat in game.sessions[0].seats:
        assert session_seat.name in out
    from p2p_burgundy.net.identity import fingerprint

    for ident in game.ids:
        assert fingerprint(ident.public_key) in out
    assert "Chance event 0 (set-up):" in out and "Chance event 30 (phase E, round 5):" in out
    assert out.count("  reveal ") == 31 * 2
    assert "black depot:" in out and "dice:" in out
    assert "Turn 49 (" in out
    assert "Final scores:" in out and "Winner:" in out
    scores = game.sessions[0].state.players
    for seat, player in enumerate(scores):
        assert any(line.strip().startswith(("1.", "2.")) and NAMES[seat] in line
                   and f"{player.vp} VP" in line for line in report)


def test_json_output(tmp_path: Path, game: Table, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = verify(write(tmp_path / "g.game", game.files[0]), capsys, "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["ok"] is True and doc["game_id"] == game.game_id.hex()
    assert [p["name"] for p in doc["players"]] == ["Ann", "Bob"]
    assert len([s for s in doc["steps"] if s["step"] == "chance"]) == 31
    assert doc["problems"] == []


def _reasons(out: str) -> list[str]:
    return [line[4:] for line in out.splitlines() if line.startswith("  - ")]


def _tampered(tmp_path: Path, records: list[bytes], capsys: pytest.CaptureFixture[str],
              expected: int = 1) -> list[str]:
    """The problems verify lists for ``records``, which exit with ``expected``: 1 a seat
    misbehaved (its own signed entries), 2 the file itself is broken."""
    code, out = verify(write(tmp_path / "bad.game", records), capsys)
    assert code == expected
    assert out.splitlines()[-1].startswith("NOT VERIFIED")
    json_code, doc = verify(tmp_path / "bad.game", capsys, "--json")
    assert json_code == expected and json.loads(doc)["ok"] is False
    assert json.loads(doc)["exit_code"] == expected
    return _reasons(out)


def test_a_flipped_signature_byte(tmp_path: Path, game: Table,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    records = list(game.files[1])
    raw = bytearray(records[30])
    raw[-1] ^= 0x01
    records[30] = bytes(raw)
    entry = decode_entry(records[30])
    reasons = _tampered(tmp_path, records, capsys, 2)
    assert reasons[0].startswith("signature: the signature does not verify [record 30")
    assert f"seq {entry.seq}" in reasons[0]


def test_an_altered_turn(tmp_path: Path, game: Table,
                         capsys: pytest.CaptureFixture[str]) -> None:
    # Edited in place: the signature no longer covers it.
    records = list(game.files[1])
    at = next(i for i, raw in enumerate(records) if decode_entry(raw).kind == Kind.TURN)
    raw = bytearray(records[at])
    turn_end = bytes([0x91, 0x0a])  # the action [10] (EndTurn) ...
    where = raw.rfind(turn_end)
    raw[where + 1] = 0x09  # ... becomes [9] (Pass)
    records[at] = bytes(raw)
    assert any(r.startswith(f"signature: the signature does not verify [record {at}")
               for r in _tampered(tmp_path, records, capsys, 2))
    # Re-signed by its own author, with the chain re-linked: the rules refuse it.
    entry = decode_entry(game.files[1][at])
    seat = next(i for i, ident in enumerate(game.ids) if ident.public_key == entry.author)
    forged = forge_chain(game, seat, entry.seq, Kind.TURN, [entry.payload[0], [[5], [10]]])
    reasons = _tampered(tmp_path, forged, capsys)
    assert any(r.startswith(f"illegal turn: {NAMES[seat]}: illegal turn {entry.payload[0]}")
               for r in reasons)


def test_a_swapped_reveal(tmp_path: Path, game: Table,
                          capsys: pytest.CaptureFixture[str]) -> None:
    chain = game.sessions[0].chains[1]
    reveals = [e for e in chain if e.kind == Kind.REVEAL]
    # Seat 1 publishes its link for event 4 as its reveal for event 3.
    at = reveals[3]
    forged = forge_chain(game, 1, at.seq, Kind.REVEAL, [3, reveals[4].payload[1]])
    reasons = _tampered(tmp_path, forged, capsys)
    assert reasons[0].startswith("reveal: Bob: reveal for chance event 3 does not hash to the "
                                 "commitment")
    assert f"seq {at.seq}, reveal]" in reasons[0]
    # Two reveal records swapped in the file: order does not matter, it still verifies.
    records = canonical(game)
    i, j = (records.index(e.raw) for e in reveals[3:5])
    records[i], records[j] = records[j], records[i]
    code, _ = verify(write(tmp_path / "swapped.game", records), capsys)
    assert code == 0


def test_a_truncated_tail(tmp_path: Path, game: Table,
                          capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "g.game", game.files[1][:-8])  # the last turns are lost too
    path.write_bytes(path.read_bytes()[:-10])
    code, out = verify(path, capsys)
    assert code == 2
    reasons = _reasons(out)
    assert reasons[0].startswith("file: torn or corrupt tail: the ")
    assert "(a record cut short)" in reasons[0]
    assert out.splitlines()[-1] == ("NOT VERIFIED: the file itself is broken (1 problem of the "
                                    "file); the game is not finished")
    assert "The game is not finished: it waits for" in out
    assert path.read_bytes() == write(tmp_path / "again.game",
                                      game.files[1][:-8]).read_bytes()[:-10]


def test_entries_from_another_game_inserted(tmp_path: Path, game: Table,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    other = Table(2, seed=31, table_id=b"a different game")
    other.play(turns=4)
    records = list(game.files[1])
    records[40:40] = other.files[0][1:4]
    reasons = _tampered(tmp_path, records, capsys, 2)
    assert len(reasons) == 3
    assert all(r.startswith("game: entry from another game (") for r in reasons)
    assert "[record 40," in reasons[0]


def test_equivocation(tmp_path: Path, game: Table, capsys: pytest.CaptureFixture[str]) -> None:
    entry = game.sessions[0].chains[0][12]
    second = sign_entry(game.ids[0], game.game_id, entry.seq, entry.prev, Kind.CHAT, ["which one?"])
    reasons = _tampered(tmp_path, [*game.files[1], second.raw], capsys)
    assert reasons[0].startswith(f"equivocation: two signed bodies for seq {entry.seq}")
    assert "seat 0" in reasons[0]


def test_an_unreadable_file_or_a_bad_command_line_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", str(tmp_path / "missing.game")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["verify", str(tmp_path)]) == 2  # a directory
    assert main(["verify"]) == 2
    assert main(["verify", "a", "b"]) == 2
    capsys.readouterr()


def test_a_file_that_is_not_a_game_file_fails(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("hello")
    code, out = verify(path, capsys)
    assert code == 2
    assert _reasons(out) == ["file: not a p2p-burgundy game file"]


@pytest.mark.parametrize("version", [1, 2])
def test_a_game_file_of_an_older_protocol_version_gets_a_clear_message(
        tmp_path: Path, game: Table, capsys: pytest.CaptureFixture[str], version: int) -> None:
    path = write(tmp_path / "old.game", game.files[0])
    path.write_bytes(b"P2PBURGUNDY-GAME\x00" + bytes([version])
                     + path.read_bytes()[len(FILE_MAGIC):])
    code, out = verify(path, capsys)
    assert code == 2
    assert _reasons(out) == [f"file: a game file of protocol version {version} is not "
                             "supported: this p2p-burgundy speaks version 3 only (every player "
                             "needs a release of the same version)"]


def test_a_hand_over_that_leaves_one_contributor_names_who_could_predict_the_dice(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = Table(2, seed=6)
    table.play(turns=7)
    table.leave(1)
    step = table.sessions[0].step
    table.hand_over(1)
    table.play()
    k = next(h.index for h in table.sessions[0].history[step:] if isinstance(h, ChanceResolved))
    path = write(tmp_path / "g.game", canonical(table))
    code, out = verify(path, capsys)
    assert code == 0, out
    assert f"a bot plays Bob from step {step} on" in out
    assert (f"WARNING: from chance event {k} on, only seat 0 (Ann) contributes entropy: Ann "
            "could predict every later roll and draw.") in out
    code, out = verify(path, capsys, "--json")
    doc = json.loads(out)
    assert doc["forfeits"] == [{"seat": 1, "step": step}]
    assert doc["sole_contributor"]["seat"] == 0 and doc["sole_contributor"]["from_event"] == k
    assert "Ann could predict every later roll" in doc["sole_contributor"]["message"]


def test_a_resignation_is_named_with_its_round_in_the_report_and_the_scores(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = Table(3, seed=21)
    table.play(turns=7)
    table.sessions[1].resign()
    table.flush(1)
    table.play()
    session = table.sessions[0]
    step = session.forfeits[1]
    phase, round_ = session.handed_round(1)  # type: ignore[misc]
    where = f"phase {'ABCDE'[phase]} round {round_ + 1}"
    path = write(tmp_path / "g.game", canonical(table))
    code, out = verify(path, capsys)
    assert code == 0, out
    assert f"Bob resigned at {where}: a bot played the seat from step {step} on." in out
    assert "The players agreed" not in out
    assert any(line.strip().endswith(f"), resigned at {where}") and "Bob" in line
               for line in out.splitlines())
    code, out = verify(path, capsys, "--json")
    assert code == 0
    seq = session.resigned[1]
    assert json.loads(out)["resignations"] == [{
        "seat": 1, "seq": seq, "step": step, "phase": phase, "round": round_,
        "message": f"Bob resigned at {where}: a bot played the seat from step {step} on"}]


def test_a_game_the_last_player_ended_verifies_with_that_player_the_winner(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table, entries = ended_game()
    session = table.sessions[0]
    assert session.ended is not None and session.ended[0] == 0
    step = session.ended[1]
    bad = {(session.seats[s].key, q) for s, q in session.rejected}  # signed after the end
    assert len(bad) == 2
    path = write(tmp_path / "g.game", [e for e in entries
                                      if (decode_entry(e).author, decode_entry(e).seq) not in bad])
    path2 = write(tmp_path / "h.game", entries)
    code, out = verify(path, capsys)
    assert code == 0, out
    assert f"Ann, the only player left, ended the game at step {step} and wins" in out
    assert "Winner: Ann (decided by the last player left ended the game)" in out
    doc = json.loads(verify(path, capsys, "--json")[1])
    assert doc["ended"] == {"seat": 0, "step": step} and doc["outcome"]["winner"] == 0
    assert problems(doc, "verify") == []
    code, out = verify(path2, capsys)  # what each signed after resigning or ending fails
    assert code == 1 and "Ann ended the game (seq" in out and "Bob resigned (seq" in out


def test_every_void_entry_is_listed_with_its_reason_and_verdict(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table, entries = hostile_game()
    path = write(tmp_path / "g.game", [*entries, entries[3]])  # and one repeated record
    code, out = verify(path, capsys, "--json")
    doc = json.loads(out)
    void = {(v["reason"].split(": ", 1)[-1] if v["kind"] == "seat_to_bot" else v["reason"],
             v["fails"]) for v in doc["void_entries"]}
    assert ("signed after its author went past step 0 (an agreement counts only while the game "
            "waits there)", False) in void
    assert ("names step 10000, but the game ended after step "
            f"{table.sessions[0].step - 1}", True) in void
    assert any(r.startswith("a second agreement to hand Bob over at step") and fails
               for r, fails in void)
    assert ("a second copy of record 3", False) in void
    assert code == 1 and not doc["ok"]  # the step beyond the end and the repeat fail it
    code, out = verify(path, capsys)
    assert "void entries (signed entries of this game that do not count" in out
    assert "(fails verification)" in out and "(does not affect verification)" in out


def test_signing_after_resign_names_the_resigner_and_every_other_seat_holds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Bob resigns, then keeps signing (a turn, a reveal) as a modified client would: only
    Bob is named, with those entries; Ann's and Cid's records hold, in text and JSON."""
    table = Table(3, seed=21)
    table.play(turns=7)
    table.sessions[1].resign()
    table.flush(1)
    table.pump()
    table.play()
    bob = table.sessions[0].chains[1]
    assert bob[-1].kind == Kind.RESIGN
    entries = forge_chain(table, 1, len(bob), Kind.TURN, [3, [[10]]])
    path = write(tmp_path / "g.game", entries)
    code, out = verify(path, capsys)
    assert code == 1
    lines = out.splitlines()
    verdicts = lines[lines.index("Verdict by seat:") + 1:]
    assert verdicts[0] == "  Ann (seat 0): its record holds"
    assert verdicts[1] == "  Bob (seat 1): MISBEHAVED, 1 entry break a rule:"
    assert verdicts[2].startswith(f"      - resigned: Bob: Bob resigned (seq {len(bob) - 1})")
    assert f"seq {len(bob)}, turn]" in verdicts[2]
    assert verdicts[3] == "  Cid (seat 2): its record holds"
    assert lines[-1] == "NOT VERIFIED: Bob misbehaved; every other seat's record holds"
    code, doc = verify(path, capsys, "--json")
    report = json.loads(doc)
    assert code == 1 and report["exit_code"] == 1 and report["file_ok"]
    assert [(v["seat"], v["honest"]) for v in report["verdicts"]] == [
        (0, True), (1, False), (2, True)]
    assert [(p["check"], p["seq"]) for p in report["verdicts"][1]["problems"]] == [
        ("resigned", len(bob))]
    # The file without Bob's extra entry: every seat holds, exit 0.
    code, out = verify(write(tmp_path / "h.game", canonical(table)), capsys)
    assert code == 0 and out.splitlines()[-1].startswith("VERIFIED: every seat's record holds")


def test_a_withheld_reveal_is_named_with_what_it_would_have_drawn(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table, step, _ = rewound(Reveal, 12)
    code, out = verify(write(tmp_path / "g.game", table.files[0]), capsys)
    assert code == 0  # the withholder's late entries pass: every seat's record holds
    event = table.sessions[0].history[step]
    assert isinstance(event, ChanceResolved)
    assert (f"Cid withheld its reveal for chance event {event.index} and was handed over "
            f"there (step {step}); the event was drawn without it.") in out
    assert "Its later reveal shows the withheld link: with it, the event would have drawn:" in out
    code, doc = verify(tmp_path / "g.game", capsys, "--json")
    [held] = json.loads(doc)["withheld"]
    assert (held["seat"], held["event"], held["step"]) == (2, event.index, step)
    assert held["would_have_drawn"] is not None


def test_a_split_game_names_the_game_each_seat_was_judged_in(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Cid showed Ann one turn and Bob another: in Ann's file, Bob's later turn is illegal,
    and Bob is judged in the game of the turn he took (docs/protocol.md, "Judging the other
    seats")."""
    table, cheat, first, second = split(3, 5, "turn")
    path = write(tmp_path / "split.game", table.files[0])
    code, out = verify(path, capsys)
    records = [table.files[0].index(body.raw) for body in (first, second)]
    assert code == 1
    assert out.splitlines()[-1] == ("NOT VERIFIED: Cid misbehaved; every other seat's record "
                                    "holds; the game is not finished")
    assert (f"  the game taking record {records[0]} for Cid's seq {first.seq} (the game shown "
            f"above): Ann\n  the game taking record {records[1]} for Cid's seq {first.seq}: "
            "Bob\n") in out
    assert "  Ann (seat 0): its record holds\n  Bob (seat 1): its record holds\n" in out
    code, doc = verify(path, capsys, "--json")
    said = json.loads(doc)
    assert code == 1 and problems(said, "verify") == []
    assert said["branches"] == [
        {"taken": [{"seat": cheat, "seq": first.seq, "record": records[0]}], "judged": [0]},
        {"taken": [{"seat": cheat, "seq": first.seq, "record": records[1]}], "judged": [1]}]
    assert [v["honest"] for v in said["verdicts"]] == [True, True, False]
