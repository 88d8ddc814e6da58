"""The client's network glue in this process, over real loopback sockets: the lobby as the
screens see it (host, join, leave, refusals, local bots), NetTable's log, and the replay of a
game file."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from p2p_burgundy import END_TURN, GameConfig, IllegalAction, draw_chance, new_game, state_hash
from p2p_burgundy.chance import ChanceKind
from p2p_burgundy.cli.lan import compose_turn, play_headless
from p2p_burgundy.cli.loopback import LOOPBACK
from p2p_burgundy.cli.netplay import LanLobby, NetTable, PeerThread, quick_bot_game
from p2p_burgundy.cli.replay import ReplayError, load_game
from p2p_burgundy.cli.strategies import make
from p2p_burgundy.cli.tui.app import dispatch, footer_keys
from p2p_burgundy.cli.tui.describe import describe_chance
from p2p_burgundy.cli.tui.draft import catch_up_frames
from p2p_burgundy.cli.tui.layout import compute_layout
from p2p_burgundy.cli.tui.model import Context, Model
from p2p_burgundy.cli.tui.render import render
from p2p_burgundy.cli.tui.table import (
    ChatReceived,
    EntryKind,
    GameEnded,
    HistoryEntry,
    Notice,
    StateChanged,
    chance_lines,
    turn_lines,
)
from p2p_burgundy.config import Setup
from p2p_burgundy.net import peer as peer_module
from p2p_burgundy.net.audit import audit_file
from p2p_burgundy.net.clock import TimeControl
from p2p_burgundy.net.contents import Reveal
from p2p_burgundy.net.events import ChanceResolved
from p2p_burgundy.net.inmemory import Table, random_turn
from p2p_burgundy.net.log import FILE_MAGIC, GameFile, Kind, decode_entry, read_records, sign_entry
from p2p_burgundy.net.session import Session
from p2p_burgundy.net.snapshot import LobbySnapshot, Snapshot, Snapshots
from p2p_burgundy.net.tablerules import TableRules

from ...net.test_outsider import game_file
from ...net.test_rewind import rewound
from ...net.test_split import split
from .netgames import ExpertsGame, bot_game, play_out, play_until, wait_until


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[NetTable, Path]:
    return bot_game(tmp_path_factory.mktemp("ann"), bots=2)


@pytest.fixture
def threads() -> Iterator[list[PeerThread]]:
    made: list[PeerThread] = []
    yield made
    for thread in made:
        thread.close()


def open_lobby(threads: list[PeerThread], home: Path) -> LanLobby:
    thread = PeerThread()
    threads.append(thread)
    thread.open(home, interface=LOOPBACK, mdns=False)
    return LanLobby(thread)


def at(lobby: LanLobby) -> LobbySnapshot:
    """The table ``lobby`` is at, as its peer last published it."""
    table = lobby.table
    assert table is not None
    return table


def test_a_network_game_logs_exactly_what_its_replay_shows(finished: tuple[NetTable, Path]
                                                            ) -> None:
    table, path = finished
    replay = load_game(path.read_bytes())
    assert replay.names == ["Ann", "Bot 1", "Bot 2"] == table.names
    assert replay.state.is_over and replay.position[0] == replay.position[1]
    assert list(table.history) == list(replay.history)
    assert table.history[-1].kind == EntryKind.EVENT
    assert table.history[-1].text.startswith("The game is over. Final scores: Ann ")
    report = audit_file(path.read_bytes())
    assert report.final_hash == state_hash(replay.state) == state_hash(table.state)
    assert report.table_code == table.table_code


def test_the_catch_up_of_a_network_game_says_what_its_log_says(
        finished: tuple[NetTable, Path]) -> None:
    table, _ = finished
    assert table.steps[-1].state is table.state
    # Catch up as a seat that did not play the game's last turn (the dealt entropy decides
    # who did), so that others moved after its own last turn.
    last_mover = [e.seat for e in table.history if e.kind == EntryKind.ACTION][-1]
    seat = min({0, 1, 2} - {last_mover})
    frames = catch_up_frames(table.steps, seat, table.names)
    # The others' actions after the seat's last turn, one frame each, with the log's sentences.
    last = max(i for i, entry in enumerate(table.history) if entry.seat == seat
               and entry.kind == EntryKind.ACTION)
    said = [entry.text for entry in table.history[last + 1:] if entry.kind != EntryKind.CHANCE]
    assert frames and seat not in {f.seat for f in frames} and {f.seat for f in frames} <= {0, 1, 2}
    assert " ".join(f.text for f in frames) == " ".join(said)
    assert state_hash(frames[-1].state) == state_hash(table.state)


def test_a_game_file_that_holds_no_game_cannot_be_replayed(tmp_path: Path,
                                                           finished: tuple[NetTable, Path]
                                                           ) -> None:
    data = finished[1].read_bytes()
    with pytest.raises(ReplayError, match="not a p2p-burgundy game file"):
        load_game(b"hello")
    with pytest.raises(ReplayError, match="no valid start entry"):
        load_game(FILE_MAGIC)
    partial = tmp_path / "partial.game"  # a game still running: every chain cut short
    with GameFile(partial) as game_file:
        for raw in read_records(data)[0]:
            if decode_entry(raw).seq < 30:
                game_file.append(raw)
    replay = load_game(partial.read_bytes())
    assert 0 < replay.position[1] < load_game(data).position[1]
    assert not replay.state.is_over


@pytest.mark.parametrize("setup", [Setup.EXPERTS_OPEN, Setup.EXPERTS_SECRET],
                         ids=["open", "secret"])
def test_an_experts_game_replays_step_by_step_to_its_end(experts_game: ExpertsGame,
                                                         setup: Setup) -> None:
    """Each set-up choice is a turn of one action: the replay steps over it like any turn."""
    table, path = experts_game(setup)
    replay = load_game(path.read_bytes())
    _, total = replay.position
    assert replay.state.is_over and list(replay.history) == list(table.history)
    replay.step(-total)
    seen = []
    while replay.position[0] < total:
        replay.step(1)
        seen.append(replay.position[0])
    assert seen == list(range(1, total + 1)) and replay.state.is_over
    assert list(replay.history) == list(table.history)
    replay.step(-total)
    replay.step_turn(2)  # set-up, deal
    assert replay.position == (2, total) and replay.history[-1].text.startswith(
        "The boards are dealt: ")
    for _ in range(2):  # each seat's choice: one turn of one action
        mover = replay.state.to_move
        replay.step_turn(1)
        assert replay.history[-1].text.startswith(f"{replay.names[mover]} chose estate ")
        assert " start castle on " in replay.history[-1].text
    assert replay.position == (4, total) and replay.history[-1].kind == EntryKind.ACTION
    turns = 4
    while replay.position[0] < total:
        replay.step_turn(1)
        turns += 1
    assert turns == 2 + 2 + 5 + 25 + 2 * 25  # chance events and turns of a 2-player game
    assert replay.history[-1].text.startswith("The game is over. Final scores: ")


def test_joining_leaving_and_refusals_as_the_lobby_screen_sees_them(
        tmp_path: Path, threads: list[PeerThread]) -> None:
    host = open_lobby(threads, tmp_path / "host")
    host.host(2, "Hana", "red")
    bob = open_lobby(threads, tmp_path / "bob")
    bob.join(host.address, "Bob", "red")
    wait_until(host.thread, lambda: len(at(host).members) == 2 and at(bob).admitted,
               what="Bob in")
    assert [m.name for m in at(bob).members] == ["Hana", "Bob"]
    assert at(bob).members[1].colour == "blue"  # red was taken
    assert at(bob).members[1].fingerprint == bob.fingerprint
    # The table code follows the game id, which holds every member's fresh contribution: it
    # exists once the host proposes the final roster.
    assert at(bob).code is None and at(host).code is None
    assert host.free_seats(at(host)) == 0 and not at(host).can_start
    bob.set_me("Bob", "green", True)
    wait_until(host.thread, lambda: at(host).can_start, what="Bob ready")
    assert (at(host).members[1].colour, at(host).members[1].ready) == ("green", True)

    # The table is full: Cy waits for a seat (it is not refused), and takes Bob's.
    cy = open_lobby(threads, tmp_path / "cy")
    cy.join(host.address, "Cy", "yellow")
    time.sleep(1.5)  # the host said so a few times meanwhile
    assert at(cy).refused is None and not at(cy).admitted
    bob.leave()
    assert bob.table is None
    wait_until(cy.thread, lambda: at(cy).admitted, what="Cy in Bob's seat")
    assert [m.name for m in at(host).members] == ["Hana", "Cy"]
    host.leave()
    wait_until(cy.thread, lambda: at(cy).refused is not None, what="the table closed")
    assert at(cy).refused == "the host refused: the table was closed"


def test_local_bots_fill_the_free_seats_and_the_game_starts_with_the_same_code(
        tmp_path: Path, threads: list[PeerThread]) -> None:
    host = open_lobby(threads, tmp_path / "host")
    host.host(3, "Hana", "red")
    assert host.free_seats(at(host)) == 2
    host.add_bots(2)
    assert host.free_seats(at(host)) == 0  # on their way
    wait_until(host.thread, lambda: at(host).can_start, what="the bots ready")
    assert at(host).code is None  # no game id before the final roster
    host.start()
    wait_until(host.thread, lambda: host.game is not None, what="the start")
    table = NetTable(host.thread)
    assert table.table_code == at(host).code is not None
    assert table.names == ["Hana", "Bot 1", "Bot 2"]


def test_the_experts_deal_is_described_in_the_log() -> None:
    state = new_game(GameConfig(players=2, setup=Setup.EXPERTS_OPEN))
    while state.chance is not None and state.chance.kind != ChanceKind.DEAL:
        state, _ = draw_chance(state, bytes(32))
    _, drew = draw_chance(state, bytes(32))
    [line] = describe_chance(drew, ["Ann", "Bob"])
    assert line.startswith("The boards are dealt: Ann estates ")
    assert " or " in line and "; Bob estates " in line


def test_the_secret_experts_set_up_is_played_through_the_table(experts_game: ExpertsGame
                                                               ) -> None:
    table, path = experts_game(Setup.EXPERTS_SECRET)
    assert table.state.is_over
    report = audit_file(path.read_bytes())
    assert report.ok, report.problems
    kinds = [decode_entry(raw).kind.name for raw in read_records(path.read_bytes())[0]]
    assert kinds.count("CHOICE_COMMIT") == 2 and kinds.count("CHOICE_REVEAL") == 2


def test_hints_and_the_clock_the_host_chose_are_in_every_players_config(
        tmp_path: Path, threads: list[PeerThread]) -> None:
    host = open_lobby(threads, tmp_path / "host")
    host.host(2, "Hana", "red", hints=True, clock=TimeControl(900, 10))
    joiner = open_lobby(threads, tmp_path / "joiner")
    joiner.join(host.address, "Jo", "blue")
    wait_until(joiner.thread, lambda: at(joiner).rules.hints,
               what="the joiner to see the table's rules")
    assert at(joiner).rules == TableRules(hints=True, clock=TimeControl(900, 10))
    joiner.set_me("Jo", "blue", True)
    wait_until(host.thread, lambda: at(host).can_start, what="the joiner ready")
    host.start()
    wait_until(joiner.thread, lambda: joiner.game is not None, what="the start")
    tables = NetTable(joiner.thread), NetTable(host.thread)
    assert all(table.rules.hints for table in tables)
    for table in tables:  # nobody has decided anything yet: full time each
        clocks = table.clocks
        assert clocks is not None and clocks.left == (900.0, 900.0)


def test_a_player_out_of_time_is_offered_to_a_bot_at_once_though_still_there(
        tmp_path: Path, threads: list[PeerThread]) -> None:
    host = open_lobby(threads, tmp_path / "host")
    host.host(2, "Hana", "red", clock=TimeControl(3, 10))
    joiner = open_lobby(threads, tmp_path / "joiner")
    joiner.join(host.address, "Jo", "blue")
    wait_until(joiner.thread, lambda: at(joiner).config is not None, what="the table's rules")
    joiner.set_me("Jo", "blue", True)
    wait_until(host.thread, lambda: at(host).can_start, what="the joiner ready")
    host.start()
    wait_until(host.thread, lambda: host.game is not None, what="the start")
    table = NetTable(host.thread, gone_after=600)  # Jo's peer answers: never "gone" for that
    said = "Jo's time is out: B lets a bot play that seat now."
    play_until(host.thread, table, lambda: any(e.text == said for e in table.history),
               "Jo's time to run out", timeout=30)
    assert table.gone() == [1] and 1 not in table.snapshot.missing
    assert table.waiting_for() == "waiting for Jo's turn (out of time)"
    clocks = table.clocks
    assert clocks is not None and clocks.left[1] == 0.0 and clocks.running == (1,)
    table.seat_to_bot(1)  # the only other voter: the stand-in plays Jo's seat from here
    play_until(host.thread, table, lambda: 1 in table.snapshot.forfeits, "the hand-over")
    assert table.gone() == []


def test_a_spectator_follows_the_game_read_only_to_the_same_end(
        tmp_path: Path, threads: list[PeerThread]) -> None:
    host = open_lobby(threads, tmp_path / "host")
    host.host(2, "Hana", "red")
    watcher = open_lobby(threads, tmp_path / "watcher")
    watcher.join(host.address, "Wes", "blue", spectator=True)
    host.add_bots(1)
    wait_until(host.thread, lambda: at(host).can_start, what="the bot ready")
    host.start()
    wait_until(watcher.thread, lambda: watcher.game is not None, what="the start")
    table = NetTable(watcher.thread)
    assert table.my_seat is None and table.names == ["Hana", "Bot 1"]
    with pytest.raises(IllegalAction):
        table.submit_turn([END_TURN])
    model = Model(table)
    model.refresh()
    assert not {"resign", "chat"} & {label for _, label in footer_keys(model)}
    for key in ("R", "c"):  # never offered, and pressed anyway: a reason, nothing sent
        assert dispatch(model, key) is None and model.confirm is None and model.chat is None
    assert model.message == "Chat lines are signed entries of the players: spectators watch."
    hosting = NetTable(host.thread)
    play_out(host.thread, hosting)
    wait_until(watcher.thread, lambda: table.poll() is not None and table.state.is_over,
               what="the spectator to see the end")
    assert state_hash(table.snapshot.state) == state_hash(hosting.snapshot.state)


def two_players(tmp_path: Path, threads: list[PeerThread]) -> tuple[NetTable, NetTable]:
    """Hana hosts, Jo joins: a 2-player game started, both tables."""
    host = open_lobby(threads, tmp_path / "host")
    host.host(2, "Hana", "red")
    jo = open_lobby(threads, tmp_path / "jo")
    jo.join(host.address, "Jo", "blue")
    wait_until(host.thread, lambda: len(at(host).members) == 2 and at(jo).admitted, what="Jo in")
    jo.set_me("Jo", "blue", True)
    wait_until(host.thread, lambda: at(host).can_start, what="Jo ready")
    host.start()
    wait_until(jo.thread, lambda: jo.game is not None, what="the start")
    return NetTable(host.thread), NetTable(jo.thread)


def resigned_by_keys(hana: NetTable, jo: NetTable) -> Model:
    """Jo presses R, y; Hana's table says so and, Jo's seat handed over, offers to end."""
    model = Model(jo)
    model.refresh()
    assert dispatch(model, "R") is None
    assert model.confirm is not None
    assert model.confirm.question == "Resign? A bot plays your seat from now on. (y/n)"
    command = dispatch(model, "y")
    assert command is not None
    jo.resign()  # what App.execute does with it
    wait_until(hana.thread, lambda: hana.poll() is not None
               and any("Jo resigned" in h.text for h in hana.history), what="the news")
    assert "Jo resigned: a bot plays that seat from now on." in [h.text for h in hana.history]
    jo.poll()
    assert jo.my_seat is None  # Jo watches from now on
    assert any(h.text.startswith("You resigned") for h in jo.history)
    # Jo's seat goes to the bot when the game next waits for it: if Hana's turn came first
    # (she may start, and the dice may be in before Jo resigned), after she has played it.
    play_until(hana.thread, hana, lambda: hana.may_end, "the seat handed over", timeout=10.0)
    return Model(hana)


def test_two_players_one_resigns_the_other_ends_the_game_as_the_winner(
        tmp_path: Path, threads: list[PeerThread]) -> None:
    hana, jo = two_players(tmp_path, threads)
    hana_model = resigned_by_keys(hana, jo)
    hana_model.refresh()
    assert any("R ends the game here with you the winner" in h.text for h in hana.history)
    assert ("R", "end the game") in footer_keys(hana_model, Context.WAIT)
    dispatch(hana_model, "R")
    assert hana_model.confirm is not None and hana_model.confirm.question.startswith(
        "End the game here, as the winner")
    assert dispatch(hana_model, "y") is not None
    hana.resign()
    hana.poll()
    assert hana.ended == "Hana, the only player left, ended it and wins"
    wait_until(jo.thread, lambda: jo.poll() is not None and jo.ended is not None,
               what="Jo to see the end")
    assert jo.snapshot.outcome is not None and jo.snapshot.outcome.winner == 0
    for table in (hana, jo):
        report = audit_file(table.game_file.read_bytes())
        assert report.ok and report.outcome is not None and report.outcome.winner == 0


def test_two_players_one_resigns_the_other_finishes_against_the_bot(
        tmp_path: Path, threads: list[PeerThread]) -> None:
    hana, jo = two_players(tmp_path, threads)
    resigned_by_keys(hana, jo)
    play_out(hana.thread, hana)  # Hana's own turns; her client's bot plays Jo's seat
    assert hana.snapshot.state.is_over and hana.snapshot.ended is None
    wait_until(jo.thread, lambda: jo.poll() is not None and jo.snapshot.state.is_over,
               what="Jo to see the end")
    assert state_hash(jo.snapshot.state) == state_hash(hana.snapshot.state)
    phase, round_ = hana.snapshot.handed[1]
    said = f"Jo resigned at phase {'ABCDE'[phase]} round {round_ + 1}: a bot played the seat"
    assert any(h.text.startswith(said) for h in hana.history)
    model = Model(hana)
    model.refresh()  # the game is over: the final scores
    page = render(model, compute_layout(80, 24), footer_keys(model)).text()
    assert any(line.startswith(said) for line in page), page
    assert any(line.startswith("Every seat's record holds.") for line in page), page


def described(snapshot: Snapshot, names: list[str], since: int = 0) -> list[HistoryEntry]:
    """The log lines of the snapshot's steps (from ``since`` on), described afresh."""
    lines: list[HistoryEntry] = []
    before = snapshot.history[since - 1].state if since else new_game(snapshot.config)
    for step in snapshot.history[since:]:
        lines += (chance_lines(step.drew, names) if isinstance(step, ChanceResolved)
                  else turn_lines(before, step.actions, names))
        before = step.state
    return lines


def test_the_table_shows_one_moment_of_the_game_while_the_peer_thread_plays_on(
        tmp_path: Path) -> None:
    """Polled as fast as it goes while the peer thread changes the session, the table only
    ever shows one snapshot: its state is that of the snapshot's last step, its log
    describes exactly the snapshot's steps, and snapshots only move forward."""
    thread, table = quick_bot_game(tmp_path, 1, "Ann")
    bot = make("greedy", 1)
    moments, read, shown = 0, -1, -1
    try:
        deadline = time.monotonic() + 60
        while not table.state.is_over:
            assert time.monotonic() < deadline, "the game did not end in 60 s"
            table.poll()
            snapshot = table.snapshot
            assert snapshot.seq >= read and snapshot.step == len(snapshot.history)
            read = snapshot.seq
            if snapshot.history:
                assert table.state is snapshot.state is snapshot.history[-1].state
            if snapshot.step != shown:  # the log as it stands, at each new step
                shown = snapshot.step
                moments += 1
                assert list(table.history) == described(snapshot, table.names)
            if snapshot.my_turn and snapshot.state.to_move == table.my_seat:
                table.submit_turn(compose_turn(snapshot.state, bot))
            time.sleep(0.001)
    finally:
        thread.close()
    # The game waits for our 25 turns, so the log was checked at least once each turn.
    assert table.snapshot.step == len(table.snapshot.history) > 80 and moments >= 25
    assert list(table.history) == list(load_game(table.game_file.read_bytes()).history)


def watching(watcher: Session) -> tuple[NetTable, SimpleNamespace, Snapshots]:
    """A NetTable over ``watcher``'s snapshots (polled once), the peer it reads them from,
    and the snapshots: give the peer a newer one to show what ``watcher`` received since."""
    snapshots = Snapshots(watcher)
    peer = SimpleNamespace(snapshot=snapshots.take(()), game_file=SimpleNamespace(path=Path()))
    net = NetTable(SimpleNamespace(peer=peer))  # type: ignore[arg-type]  # what it reads
    net.poll()
    return net, peer, snapshots


def test_a_table_that_read_nothing_for_a_whole_game_shows_all_of_it_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The events the peer keeps overflow (16 here) while our seat plays on the peer thread
    and the table reads nothing: one poll then shows the end of the game, every step in the
    log and every chat line, in order."""
    monkeypatch.setattr(peer_module, "MAX_EVENTS", 16)
    thread, table = quick_bot_game(tmp_path, 1, "Ann")
    lines = [f"line {n}" for n in range(30)]
    try:
        peer = thread.peer
        assert peer is not None
        for line in lines[:15]:
            table.send_chat(line)
        thread.call(play_headless(peer, make("greedy", 1), timeout=60), timeout=60)
        for line in lines[15:]:
            table.send_chat(line)
        assert len(peer.events) == 16 and peer.event_count > 100  # the oldest are gone
        events = table.poll()
    finally:
        thread.close()
    replay = load_game(table.game_file.read_bytes())
    assert replay.state.is_over and table.state.is_over
    assert state_hash(table.state) == state_hash(replay.state)
    assert list(table.history) == [*replay.history,
                                   *(HistoryEntry(0, line, EntryKind.CHAT) for line in lines)]
    assert [e for e in events if isinstance(e, ChatReceived)] == [
        ChatReceived(0, line) for line in lines]
    assert table.poll() == []  # nothing new since


def test_a_late_entry_of_a_seat_handed_over_changes_no_line_the_table_showed() -> None:
    """A spectator's table over a session where Bob, gone, was handed over at his turn (Ann
    agreed), then gets the turn Bob signed there, late: the entry is void, named as such,
    and every line the table had shown stays, the hand-over included."""
    table = Table(2, seed=6)
    table.play(turns=9)
    table.leave(1)
    step = table.sessions[0].step
    table.hand_over(1)
    bob = table.sessions[1]  # still cut off: it plays its turn, which reaches nobody
    bob.submit_turn(random_turn(bob.state, random.Random(0)))
    table.play(turns=4)
    late = bob.chains[1][len(table.sessions[0].chains[1]):]
    assert late[0].kind == Kind.TURN
    watcher = Session(table.start)
    for entry in [e for chain in table.sessions[0].chains for e in chain][1:]:
        watcher.receive_entry(entry.raw)
    net, peer, snapshots = watching(watcher)
    handed = "Bob's seat is played by a bot from now on (agreed by all)."
    assert handed in [h.text for h in net.history] and net.snapshot.forfeits == {1: step}
    before, steps = list(net.history), net.snapshot.history
    for entry in late:
        watcher.receive_entry(entry.raw)
    peer.snapshot = snapshots.take(())
    events = net.poll()
    after = net.snapshot
    assert dict(after.forfeits) == {1: step} and after.history[:len(steps)] == steps
    assert list(net.history)[:len(before)] == before
    assert any(isinstance(e, Notice) and "its turn" in e.text
               and "the hand-over came first" in e.text for e in events)


def test_the_table_names_a_withheld_reveal_and_then_what_it_would_have_drawn() -> None:
    """Cid withheld its reveal and was handed over there; the table says so, and once Cid's
    late reveal arrives, what that chance event would have drawn with it."""
    table, step, _ = rewound(Reveal, 12)
    cid = table.ids[2].public_key
    late_from = min(q for (s, q) in table.sessions[0].rejected if s == 2)
    entries = [decode_entry(raw) for raw in table.files[0][1:]]
    watcher = Session(table.start)
    for entry in entries:
        if entry.author != cid or entry.seq < late_from:
            watcher.receive_entry(entry.raw)
    net, peer, snapshots = watching(watcher)
    event = watcher.history[step]
    assert isinstance(event, ChanceResolved)
    assert any(h.text.endswith(f"Cid withheld its reveal for chance event {event.index}: it "
                               "was drawn without it.") for h in net.history)
    for entry in entries:
        if entry.author == cid and entry.seq >= late_from:
            watcher.receive_entry(entry.raw)
    peer.snapshot = snapshots.take(())
    events = net.poll()
    said = (f"Cid's later reveal gives away the one it withheld: with it, chance event "
            f"{event.index} would have drawn:")
    assert [e for e in events if isinstance(e, Notice) and e.text == said]
    [held] = net.snapshot.withheld
    at = [h.text for h in net.history].index(said)
    assert net.history[at + 1:at + 1 + len(chance_lines(held.would_have, net.names))] == \
        chance_lines(held.would_have, net.names)  # type: ignore[arg-type]


def test_the_table_names_a_misbehaving_seat_as_soon_as_its_peer_knows() -> None:
    """Bob resigns, then signs a turn all the same: the table names him in the log and the
    status line at once, in the middle of the game, and once only."""
    table = Table(3, seed=22)
    table.play(turns=5)
    bob = table.sessions[1]
    bob.resign()
    table.flush(1)
    table.pump()
    watcher = Session(table.start)
    for entry in [e for chain in table.sessions[0].chains for e in chain][1:]:
        watcher.receive_entry(entry.raw)
    net, peer, snapshots = watching(watcher)
    assert not any("misbehaved" in h.text for h in net.history)
    chain = bob.chains[1]
    for number in (90, 91):  # anything but chat after a RESIGN breaks a rule
        chain.append(sign_entry(table.ids[1], table.game_id, len(chain), chain[-1].id,
                                Kind.TURN, [number, [[10]]]))
        watcher.receive_entry(chain[-1].raw)
    peer.snapshot = snapshots.take(())
    events = net.poll()
    said = [h.text for h in net.history if "misbehaved" in h.text]
    assert len(said) == 1 and said[0].startswith("Bob misbehaved: Bob resigned (seq ")
    assert [e for e in events if isinstance(e, Notice) and e.text == said[0]]
    assert not net.snapshot.over


def forked(kind: Kind, payload: list[object], *, later: bool = False
           ) -> tuple[NetTable, list[object]]:
    """A 3-player table that waits for Cid, and what Ann's NetTable shows once Cid has shown
    her two bodies for his next slot: a chat line (followed by another entry if ``later``),
    and one of ``kind``."""
    table = Table(3, seed=6)
    table.play(turns=7)
    table.leave(2)
    ann = table.sessions[0]
    net, peer, snapshots = watching(ann)
    seq, prev = len(ann.chains[2]), ann.chains[2][-1].id
    first = sign_entry(table.ids[2], table.game_id, seq, prev, Kind.CHAT, ["one"])
    ann.receive_entry(first.raw)
    if later:
        ann.receive_entry(sign_entry(table.ids[2], table.game_id, seq + 1, first.id,
                                     Kind.CHAT, ["and more"]).raw)
    ann.receive_entry(sign_entry(table.ids[2], table.game_id, seq, prev, kind, payload).raw)
    assert 2 in ann.faulty
    peer.snapshot = snapshots.take(())
    return net, list(net.poll())


def test_an_equivocation_on_chat_names_the_cheat_and_the_table_plays_on_without_it() -> None:
    """Cid signs two chat lines for one slot: that cannot have changed the game, so the
    table says so, does not stop, and offers to let a bot play Cid's seat (B) at once."""
    net, events = forked(Kind.CHAT, ["two"])
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert "Nothing Cid signs counts now: B lets a bot play that seat, and the game goes on." \
        in notices
    assert not any(isinstance(e, GameEnded) for e in events) and net.ended is None
    assert net.gone() == [2] and net.waiting_for() is not None


def test_the_end_screen_after_a_split_gives_each_seat_the_verdict_verify_gives(
        tmp_path: Path) -> None:
    """Cid showed Ann one turn and Bob another, and the two followed different games until
    they saw both: Ann's peer refused Bob's next turn, illegal in her game. The table stops,
    and its end screen gives the verdicts ``burgundy verify`` gives Ann's file, which judges
    Bob in the game he followed: only Cid misbehaved."""
    table, _, first, second = split(3, 5, "turn")
    ann = table.sessions[0]
    assert any(r.seat == 1 and r.cause.defect for r in ann.rejected.values())
    path = tmp_path / "split.game"
    path.write_bytes(game_file(table.files[0]))
    snapshots = Snapshots(ann)
    peer = SimpleNamespace(snapshot=snapshots.take(()), game_file=SimpleNamespace(path=path))
    net = NetTable(SimpleNamespace(peer=peer))  # type: ignore[arg-type]  # what it reads
    events = net.poll()
    records = [table.files[0].index(body.raw) for body in (first, second)]
    assert any(isinstance(e, GameEnded) for e in events)
    assert net.resignations == (
        f"Cid misbehaved: 1 entry broke a rule (two signed bodies for seq {first.seq} "
        f"(records {records[0]} and {records[1]}); its later entries are not trusted); every "
        "other seat's record holds.",)
    said = [h.text for h in net.history]  # the log named Bob as his turn was refused, then
    assert any(text.startswith("Bob misbehaved: ") for text in said)  # this corrects it
    assert said[-1] == net.resignations[0]
    assert [v.honest for v in audit_file(path.read_bytes()).verdicts] == [True, True, False]


def test_the_end_screen_after_a_split_follows_a_body_learned_later(tmp_path: Path) -> None:
    """Dee showed each of Ann, Bob and Cid another turn. Ann's table stops at the fork with
    two bodies in her file; Cid's body comes later: the end screen and the end of the log
    follow the verdicts verify gives the file then. A snapshot with no new body reads the
    file no more (a file broken since then changes nothing)."""
    table, _, first, _ = split(4, 5, "turn", third=True)
    ann, records = table.sessions[0], table.files[0]
    late = ann.proofs[-1]
    assert len(ann.proofs) == 2 and records.index(late.second) == len(records) - 1
    path = tmp_path / "split.game"
    path.write_bytes(game_file(records[:-1]))
    final = Snapshots(ann).take(())
    peer = SimpleNamespace(snapshot=replace(final, equivocations=final.equivocations[:1]),
                           game_file=SimpleNamespace(path=path))
    net = NetTable(SimpleNamespace(peer=peer))  # type: ignore[arg-type]  # what it reads
    assert any(isinstance(e, GameEnded) for e in net.poll())
    reason = (f"two signed bodies for seq {first.seq} (records {records.index(first.raw)} and "
              f"{records.index(ann.proofs[0].second)}); its later entries are not trusted")
    before = f"Dee misbehaved: 1 entry broke a rule ({reason}); every other seat's record holds."
    assert net.resignations == (before,) and net.history[-1].text == before
    path.write_bytes(game_file(records))
    peer.snapshot = replace(final, seq=1)
    assert StateChanged() in net.poll()
    after = f"Dee misbehaved: 2 entries broke a rule ({reason}); every other seat's record holds."
    assert net.resignations == (after,)
    assert [h.text for h in net.history[-2:]] == [before, after]
    assert [(v.seat, [p.reason for p in v.problems])
            for v in audit_file(path.read_bytes()).verdicts if not v.honest] == [(3, [
                reason, f"two signed bodies for seq {first.seq} (records "
                f"{records.index(first.raw)} and {records.index(late.second)}); its later "
                "entries are not trusted"])]
    path.write_bytes(b"not a game file")
    peer.snapshot = replace(final, seq=2)
    net.poll()
    assert net.resignations == (after,) and net.history[-1].text == after


def test_the_end_screen_after_a_split_falls_back_on_our_peer_s_findings(
        tmp_path: Path) -> None:
    """When the game file cannot be read (gone, or not a game file), the end screen after a split
    gives the verdicts from what our peer found, as it found them: the turn of Bob's it
    refused, and Cid's two bodies."""
    table, _, first, _ = split(3, 5, "turn")
    ann = table.sessions[0]
    refused = next(r.reason for r in ann.rejected.values() if r.seat == 1 and r.cause.defect)
    foreign = tmp_path / "foreign.game"
    foreign.write_bytes(b"not a game file")
    for path in (tmp_path / "gone.game", foreign):
        peer = SimpleNamespace(snapshot=Snapshots(ann).take(()),
                               game_file=SimpleNamespace(path=path))
        net = NetTable(SimpleNamespace(peer=peer))  # type: ignore[arg-type]  # what it reads
        assert any(isinstance(e, GameEnded) for e in net.poll())
        assert net.resignations == (
            f"Bob misbehaved: 1 entry broke a rule ({refused}); every other seat's record "
            "holds.",
            f"Cid misbehaved: 1 entry broke a rule (Cid: two signed versions of its entry "
            f"{first.seq}); every other seat's record holds.")
        assert [h.text for h in net.history[-2:]] == list(net.resignations)


@pytest.mark.parametrize("kind, payload, later", [
    (Kind.SEAT_TO_BOT, [1, 0], False), (Kind.CHAT, ["two"], True)])
def test_an_equivocation_that_may_have_counted_stops_the_table(
        kind: Kind, payload: list[object], later: bool) -> None:
    """Cid's second body is an agreement, or Ann took an entry of Cid's after the slot before
    she saw the second body: peers may follow different games, so the table stops there, as
    before."""
    net, events = forked(kind, payload, later=later)
    assert net.ended == "Cid signed two versions of one entry; the game stopped"
    assert any(isinstance(e, GameEnded) for e in events) and net.gone() == []
