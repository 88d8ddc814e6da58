"""``burgundy verify GAMEFILE [--json]``: check a game from its log file alone.

The file is only read (never repaired: a torn tail is reported, not cut). The audit
(:func:`p2p_burgundy.net.audit.audit_file`) checks every entry; this module prints the roster
with fingerprints, every chance event with each seat's reveal and what it drew, every turn in
words, the final scores, then every void entry with its verdict and every problem found, and
who could predict the dice if hand-overs left one player contributing entropy, and a verdict
for each seat: whether its record holds, or which of its own entries break a rule (another
seat's entries never count against it: after an equivocation that let the players follow
different games, each seat is judged in the game it followed, which the report names).
Exit code 0 when every seat's record holds (void entries that docs/protocol.md says do not
affect verification are listed, not failed; an unfinished game says so), 1 when some seat
misbehaved (each such seat is named with its entries), 2 when the file itself is broken (a
torn tail, a record that does not decode or whose signature does not verify, no valid START,
a missing entry), cannot be read, or the command line is wrong. ``--json`` prints one JSON
document instead (bytes as hex).

A local game's file (``burgundy solo``, ``play --local``: :mod:`.localgame`) has no
signatures or commitments to check (one player, and bots in the same process): its steps are
replayed by the rules to the recorded state hashes, and every chance event is checked to be
dealt from the game's seed (text only).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from p2p_burgundy import GameState, new_game, variants
from p2p_burgundy.board import PHASE_LETTERS
from p2p_burgundy.chance import DealDraw, Draw, PhaseDraw, RoundDraw, SetupDraw
from p2p_burgundy.net.audit import audit_file
from p2p_burgundy.net.report import Audit, ChanceReport, TurnReport
from p2p_burgundy.scoring import Category, outcome
from p2p_burgundy.state import EMPTY
from p2p_burgundy.tiles import tile_name
from p2p_burgundy.variants import CATEGORY_NAMES

from . import localgame
from .files import MAX_GAME_FILE, read_input
from .gamejson import result_json

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
EXIT_CODES = """exit codes:
  0  every seat's record holds (VERIFIED; an unfinished game says so)
  1  some seat misbehaved: each is named with its entries (NOT VERIFIED)
  2  the file itself is broken (a torn tail, an entry that does not decode or whose
     signature does not verify, no valid START, a missing entry) or cannot be read, or a
     bad command line"""

CATEGORY_WORDS = {
    Category.ANIMALS: "animals",
    Category.REGIONS: "regions",
    Category.PHASE_BONUSES: "phase bonuses",
    Category.COLOUR_BONUSES: "colour bonuses",
    Category.SALES: "sales",
    Category.WATCHTOWERS: "watchtowers",
    Category.KNOWLEDGE: "knowledge",
    Category.GOODS_LEFT: "goods left",
    Category.SILVER_LEFT: "silver left",
    Category.WORKERS_LEFT: "workers left",
    **CATEGORY_NAMES,
}


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``burgundy verify``."""
    parser.add_argument("gamefile", metavar="GAMEFILE",
                        help="the game file to check (a peer keeps its games in "
                             "<data dir>/games/<game id>.game)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON document (bytes as hex) instead of text")


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Verify ``args.gamefile``; the exit code (0 verified, 1 not, 2 unreadable)."""
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    path = Path(args.gamefile)
    try:
        data = read_input(path, limit=MAX_GAME_FILE)
    except OSError as exc:
        print(f"burgundy verify: cannot read {path}: {exc.strerror or exc}", file=err)
        return EXIT_USAGE
    if data.startswith(localgame.MAGIC[:-1]):
        if args.json:
            print(f"burgundy verify: {path} is a local game: --json is for networked games",
                  file=err)
            return EXIT_USAGE
        return verify_local(data, str(path), out)
    report = audit_file(data)
    if args.json:
        json.dump(report_json(report, path), out, indent=1, ensure_ascii=False)
        out.write("\n")
    else:
        write_report(report, str(path), out)
    return report.exit_code


def report_json(report: Audit, path: Path) -> dict[str, object]:
    """The ``--json`` document: the whole audit (:meth:`Audit.to_json`) with the fields every
    ``--json`` result shares (docs/bots.md, "Results")."""
    seats: list[dict[str, object]] = [
        {"seat": p.seat, "name": p.name, "fingerprint": p.fingerprint, "strategy": None}
        for p in report.players]
    breakdowns = [s.breakdown for s in sorted(report.scores, key=lambda s: s.seat)]
    doc = report.to_json()
    doc.update(result_json("verify", report.game_id, path.resolve(), seats, breakdowns,
                           report.outcome, report.final_hash, report))
    return doc


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``burgundy verify`` alone (``python -m p2p_burgundy.cli.verify``)."""
    parser = argparse.ArgumentParser(prog="burgundy verify", description=__doc__,
                                     epilog=EXIT_CODES,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    configure(parser)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    return run(args)


def verify_local(data: bytes, name: str, out: TextIO) -> int:
    """Check a local game's file (see the module's docstring); the exit code."""
    out.write(f"Local game file {name}: no network, so no signatures to check\n")
    try:
        saved = localgame.decode(data)
        state = saved.final_state()
    except localgame.LocalGameError as exc:
        out.write(f"\nNOT VERIFIED: {exc}\n")
        return EXIT_FAILED
    record = saved.record
    out.write(f"{localgame.describe(saved.names, saved.solo).capitalize()} "
              f"({', '.join(saved.names)}), seed {saved.seed}: {len(record.hashes)} steps "
              f"({len(record.entropy)} chance events, {len(record.actions)} actions) replay "
              "by the rules to the recorded state hashes, and every chance event is dealt "
              "from the seed.\n")
    if not state.is_over:
        resigned = f" ({saved.names[0]} resigned)" if saved.resigned else ""
        out.write(f"\nNOT VERIFIED: the game is not complete{resigned}\n")
        return EXIT_FAILED
    result = outcome(state)
    sides = "".join(f"; {side.word} {side.players(saved.names.__getitem__)} {side.points} VP"
                    for side in variants.sides(state.config, result))
    out.write("Final scores: " + ", ".join(f"{saved.names[seat]} {result.scores[seat]} VP"
                                           for seat in result.ranking)
              + f"{sides} (decided by {result.decided_by})\n\nVERIFIED\n")
    return EXIT_OK


# --- The text report -----------------------------------------------------------------------------


def write_report(report: Audit, name: str, out: TextIO) -> None:
    """The human report: roster, chance events, turns in words, scores, problems, verdict."""
    w = out.write
    w(f"Game file {name}: {report.records} entries\n")
    if report.config is not None and report.game_id is not None:
        c = report.config
        modules = f", with {','.join(m.value for m in c.modules)}" if c.modules else ""
        w(f"Game {report.game_id.hex()}, table code {report.table_code}: {c.players} players, "
          f"edition {c.edition.value}{modules}, estates {', '.join(c.estates)}\n")
        for line in c.caveats():
            w(f"note: {line}\n")
    names = [p.name for p in report.players]
    if report.players:
        w("\nPlayers:\n")
        for p in report.players:
            host = "  (host, signed the start)" if p.host else ""
            w(f"  seat {p.seat}  {p.name:<12} {p.colour:<7} fingerprint {p.fingerprint}"
              f"{host}\n              commitment {p.commitment.hex()}\n")
    resigned = {r.seat for r in report.resignations}
    for seat, step in report.forfeits:
        if seat not in resigned:
            w(f"\nThe players agreed that a bot plays {names[seat]} from step {step} on (the "
              "game waited there for that seat; nothing resolved before changed).\n")
    for resignation in report.resignations:
        w(f"\n{resignation.text(names[resignation.seat])}.\n")
    if report.ended is not None:
        seat, step = report.ended
        w(f"\n{names[seat]}, the only player left, ended the game at step {step} and wins "
          "(the scores stand as they were).\n")
    if report.sole_contributor_text is not None:
        w(f"\nWARNING: {report.sole_contributor_text}.\n")
    if report.config is not None:
        _write_steps(report, names, out)
    if report.chats:
        w("\nChat:\n")
        for chat in report.chats:
            w(f"  {names[chat.seat]}: {chat.text}\n")
    if report.complete:
        _write_scores(report, names, out)
    elif report.waiting is not None and report.players:
        seats = ", ".join(f"{names[s]} (seat {s}, {report.players[s].fingerprint})"
                          for s in report.waiting.seats)
        what = (f"the reveal for chance event {report.waiting.index}"
                if report.waiting.what == "reveal" else f"turn {report.waiting.index}")
        w(f"\nThe game is not finished: it waits for {what} from {seats}.\n")
    for held in report.withheld:
        w(f"\n{names[held.seat]} withheld its reveal for chance event {held.event} and was "
          f"handed over there (step {held.step}); the event was drawn without it.\n")
        if held.would_have is None:
            w("  No later reveal of that seat shows the withheld link yet.\n")
        else:
            w("  Its later reveal shows the withheld link: with it, the event would have "
              "drawn:\n")
            _write_draw(held.would_have, names, out)
    if report.void:
        w(f"\n{len(report.void)} void entr{'ies' if len(report.void) != 1 else 'y'} (signed "
          "entries of this game that do not count; see docs/protocol.md for each verdict):\n")
        for void in report.void:
            w(f"  * {void}\n")
    if report.problems:
        w(f"\n{len(report.problems)} problem{'s' if len(report.problems) != 1 else ''} "
          "(records are numbered from 0 in file order):\n")
        for problem in report.problems:
            w(f"  - {problem}\n")
    _write_branches(report, names, out)
    _write_verdicts(report, names, out)


def _write_branches(report: Audit, names: list[str], out: TextIO) -> None:
    """Which game each seat was judged in, when equivocations allow several."""
    if len(report.branches) < 2:
        return
    w = out.write
    w("\nThe equivocations let the players follow different games; each other seat is judged "
      "in the game it followed (docs/protocol.md, \"Judging the other seats\"):\n")
    for i, branch in enumerate(report.branches):
        taking = ", ".join(f"record {record} for {names[seat]}'s seq {seq}"
                           for seat, seq, record in branch.taken)
        shown = " (the game shown above)" if i == 0 else ""
        judged = ", ".join(names[s] for s in branch.judged) or "nobody"
        w(f"  the game taking {taking}{shown}: {judged}\n")


def _write_verdicts(report: Audit, names: list[str], out: TextIO) -> None:
    """A verdict for each seat, then the file's: the last line says the exit code's case."""
    w = out.write
    if report.players:
        w("\nVerdict by seat:\n")
        for verdict in report.verdicts:
            who = f"  {names[verdict.seat]} (seat {verdict.seat})"
            if verdict.honest:
                w(f"{who}: its record holds\n")
                continue
            w(f"{who}: MISBEHAVED, {len(verdict.problems)} entr"
              f"{'ies' if len(verdict.problems) != 1 else 'y'} break a rule:\n")
            for problem in verdict.problems:
                w(f"      - {problem}\n")
    unfinished = "" if report.complete else "; the game is not finished"
    if report.exit_code == EXIT_USAGE:
        broken = report.file_problems or report.problems
        w(f"\nNOT VERIFIED: the file itself is broken ({len(broken)} problem"
          f"{'s' if len(broken) != 1 else ''} of the file){unfinished}\n")
    elif report.exit_code == EXIT_FAILED:
        bad = [names[v.seat] for v in report.verdicts if not v.honest]
        w(f"\nNOT VERIFIED: {' and '.join(bad)} misbehaved; every other seat's record "
          f"holds{unfinished}\n")
    else:
        state = (f"final state {report.final_hash.hex() if report.final_hash else ''}"
                 if report.complete else "the game is not finished")
        w(f"\nVERIFIED: every seat's record holds (every signature, link, reveal and turn "
          f"checks out); {state}\n")


def _write_steps(report: Audit, names: list[str], out: TextIO) -> None:
    assert report.config is not None
    before = new_game(report.config)
    for step in report.steps:
        if isinstance(step, ChanceReport):
            _write_chance(step, names, out)
        else:
            _write_turn(step, before, names, out)
        before = step.state


def _write_chance(step: ChanceReport, names: list[str], out: TextIO) -> None:
    w = out.write
    draw = step.drew
    if isinstance(draw, SetupDraw):
        title = "set-up"
    elif isinstance(draw, DealDraw):
        title = "the experts' deal"
    elif isinstance(draw, PhaseDraw):
        title = f"phase {PHASE_LETTERS[draw.phase]}"
    else:
        title = f"phase {PHASE_LETTERS[draw.phase]}, round {draw.round + 1}"
    w(f"\nChance event {step.index} ({title}):\n")
    for seat, reveal in step.reveals:
        who = names[seat] if seat >= 0 else "(nobody's)"
        w(f"  reveal {who:<12} {reveal.hex()}\n")
    w(f"  entropy      {step.entropy.hex()}\n")
    _write_draw(draw, names, out)


def _write_draw(draw: Draw, names: list[str], out: TextIO) -> None:
    """What a chance event drew, in words."""
    w = out.write
    if isinstance(draw, SetupDraw):
        goods = "; ".join(f"{names[s]} {' '.join(map(str, g))}" for s, g in enumerate(draw.goods))
        w(f"  {names[draw.start_player]} starts; starting goods: {goods}\n")
        for words, value in variants.drawn_at_setup(draw):
            w(f"  {words.what}: {words.text(value, names)}\n")
    elif isinstance(draw, DealDraw):
        offers = "; ".join(f"{names[s]} estates {' or '.join(o)}"
                           for s, o in enumerate(draw.offers))
        w(f"  boards dealt: {offers}\n")
    elif isinstance(draw, PhaseDraw):
        for d in range(1, 7):
            w(f"  depot {d}: {_tiles(draw.depots[d])}\n")
        w(f"  black depot: {_tiles(draw.depots[0])}\n")
        w(f"  goods of the phase, by round: {' '.join(map(str, draw.goods))}\n")
    elif isinstance(draw, RoundDraw):
        dice = ", ".join(f"{names[s]} {a}+{b}" for s, (a, b) in enumerate(draw.dice))
        order = ", ".join(names[s] for s in draw.order)
        w(f"  dice: {dice}; white die {draw.white_die} puts goods {draw.goods} on depot "
          f"{draw.white_die}; turn order {order}\n")


def _write_turn(step: TurnReport, before: GameState, names: list[str], out: TextIO) -> None:
    """The turn in words, from the state ``before`` it."""
    by = "played by the stand-in" if step.seq is None else f"entry seq {step.seq}"
    out.write(f"Turn {step.turn} ({names[step.seat]}, {by}):\n")
    for line in _turn_words(before, step, names):
        out.write(f"  {line}\n")


def _turn_words(state: GameState, step: TurnReport, names: list[str]) -> list[str]:
    try:
        from .tui.describe import describe_turn

        return [text for _, text in describe_turn(state, step.actions, names)]
    except Exception:  # the words are a courtesy: never let them hide the verdict
        return [", ".join(repr(a) for a in step.actions)]


def _tiles(tiles: Sequence[int]) -> str:
    shown = [tile_name(t) for t in tiles if t != EMPTY]
    return ", ".join(shown) if shown else "(empty)"


def _write_scores(report: Audit, names: list[str], out: TextIO) -> None:
    assert report.outcome is not None
    out.write("\nFinal scores:\n")
    by_seat = {s.seat: s for s in report.scores}
    resigned = {r.seat: f", resigned at phase {'ABCDE'[r.phase]} round {r.round + 1}"
                for r in report.resignations if r.phase is not None and r.round is not None}
    for place, seat in enumerate(report.outcome.ranking, 1):
        score = by_seat[seat]
        parts = ", ".join(f"{CATEGORY_WORDS[c]} {v}" for c, v in score.by_category.items() if v)
        out.write(f"  {place}. {names[seat]:<12} {score.vp:>3} VP ({parts or 'nothing'})"
                  f"{resigned.get(seat, '')}\n")
    result = report.outcome
    assert report.config is not None  # read before any outcome
    sides = variants.sides(report.config, result)
    if sides:  # a game played by sides: the winning side's players are listed first
        won, *lost = sides
        name = names.__getitem__
        against = ", ".join(f"{side.points} VP for {side.players(name)}" for side in lost)
        out.write(f"Winning {won.word}: {won.players(name)}, {won.points} VP against "
                  f"{against} (decided by {result.decided_by})\n")
        return
    out.write(f"Winner: {names[result.winner]} (decided by {result.decided_by})\n")


if __name__ == "__main__":
    sys.exit(main())
