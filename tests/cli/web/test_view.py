"""The big screen's view model (cli/web/view.py, feed.py): a game's snapshot becomes the
page's data, with exact values; nothing secret gets in; a replay steps by action, turn and
round."""

from __future__ import annotations

import dataclasses
import json

import pytest

from p2p_burgundy import Edition, GameConfig, Module, Setup
from p2p_burgundy.cli.tui.draft import changes_between
from p2p_burgundy.cli.tui.table import ReplayTable
from p2p_burgundy.cli.web.feed import LiveFeed, ReplayFeed
from p2p_burgundy.cli.web.view import as_step, lobby_view, snapshot_view
from p2p_burgundy.net.inmemory import Table
from p2p_burgundy.net.lobby import Member
from p2p_burgundy.net.snapshot import LobbySnapshot, Snapshot, Snapshots
from p2p_burgundy.net.tablerules import DEFAULT_RULES
from tests.net.test_expert_setup import first_choice


def started() -> tuple[Table, Snapshots]:
    table = Table(2, seed=1)
    snapshots = Snapshots(table.sessions[0])
    table.pump()
    return table, snapshots


def test_the_first_snapshot_of_a_game_shows_the_deal_and_whose_turn_it_is() -> None:
    _, snapshots = started()
    view = snapshot_view(snapshots.take(missing=[1]))
    assert {key: view[key] for key in ("title", "rules", "status", "over", "result", "order",
                                       "mover", "goodsToCome", "whiteDie")} == {
        "title": "Phase A, round 1 of 5", "rules": "2011 edition, 2 players",
        "status": "Ann's turn", "over": False, "result": None, "order": [0, 1], "mover": None,
        "goodsToCome": [2, 4, 4, 1], "whiteDie": 2}
    assert [(line["text"], line["kind"], line["recent"]) for line in view["log"]] == [
        ("Set-up: Ann starts; starting goods: Ann 2, 2, 5; Bob 1, 3, 6.", "chance", False),
        ("Phase A begins: the depots are filled; goods this phase: 4 2 4 4 1.", "chance",
         False),
        ("Round 1 of phase A: dice Ann 6+5, Bob 4+2; the white die 2 puts goods 4 (red) on "
         "depot 2. Order: Ann, Bob.", "chance", False)]
    ann, bob = view["players"]
    assert {key: value for key, value in ann.items() if key not in ("estate", "breakdown")} == {
        "seat": 0, "name": "Ann", "colour": "red", "place": 0, "toMove": True, "flags": [],
        "board": "1", "choosing": False, "vp": 0, "silver": 1, "workers": 1,
        "dice": [{"value": 6, "used": False}, {"value": 5, "used": False}],
        "goods": [{"type": 2, "count": 2}, {"type": 5, "count": 1}], "sold": 0, "storage": [],
        "bonuses": [], "knowledge": [], "shields": [], "route": None, "storageChanged": False,
        "goodsChanged": False}
    assert bob["flags"] == ["not heard from"] and bob["toMove"] is False
    assert [b["category"] for b in ann["breakdown"]] == [
        "animals", "region", "phase bonus", "colour bonus", "sales", "watchtower", "knowledge",
        "goods left", "silver left", "workers left"]
    # The start castle on the middle space, every other space empty with its letter and die.
    assert [s for s in ann["estate"] if s["tile"]] == [
        {"half": 0, "row": 3, "col": 3, "colour": "dark-green", "letter": "C", "die": 6,
         "tile": {"code": "Cas", "colour": "dark-green", "name": "castle"}, "post": False,
         "changed": False}]
    # The terminal's first row of board 1: A6 C5 C4 K3.
    assert [(s["row"], s["col"], s["colour"], s["letter"], s["die"], s["tile"])
            for s in ann["estate"][:4]] == [(0, 0, "light-green", "A", 6, None),
                                            (0, 1, "dark-green", "C", 5, None),
                                            (0, 2, "dark-green", "C", 4, None),
                                            (0, 3, "yellow", "K", 3, None)]
    assert [(d["depot"], [s["tile"]["code"] for s in d["slots"]], [s["colour"] for s in d["slots"]],
             d["goods"]) for d in view["depots"]["numbered"]] == [
        (1, ["Hal", "Shp"], ["beige", "blue"], []),
        (2, ["Kn5", "Cas"], ["yellow", "dark-green"], [4]),
        (3, ["Ck2", "Bnk"], ["light-green", "beige"], []),
        (4, ["Shp", "Chu"], ["blue", "beige"], []),
        (5, ["Min", "Kn19"], ["grey", "yellow"], []),
        (6, ["Bdh", "Ck2"], ["beige", "light-green"], [])]
    assert [s["tile"]["code"] for s in view["depots"]["black"]] == ["Kn7", "Cw4", "Cw3", "Crp"]


def test_a_turn_is_marked_on_the_board_and_in_the_log() -> None:
    table, snapshots = started()
    snapshots.take(missing=[])
    table.play(turns=1)
    view = snapshot_view(snapshots.take(missing=[]))
    assert (view["status"], view["mover"]) == ("Bob's turn", 0)
    assert [(line["text"], line["recent"]) for line in view["log"][-4:]] == [
        ("Round 1 of phase A: dice Ann 6+5, Bob 4+2; the white die 2 puts goods 4 (red) on "
         "depot 2. Order: Ann, Bob.", False),
        ("Ann took workers with a 5 (+2 workers).", True),
        ("Ann took Ck2 (2 chickens) from depot 3 with a 6 (-3 workers).", True),
        ("Ann ended the turn.", True)]
    ann = view["players"][0]
    assert (ann["workers"], [t["code"] for t in ann["storage"]], ann["storageChanged"],
            ann["goodsChanged"]) == (0, ["Ck2"], True, False)
    depot3 = view["depots"]["numbered"][2]["slots"]
    assert [(s["tile"], s["changed"]) for s in depot3] == [
        (None, True), ({"code": "Bnk", "colour": "beige", "name": "bank"}, False)]
    changed = [(d["depot"], i) for d in view["depots"]["numbered"]
               for i, s in enumerate(d["slots"]) if s["changed"]]
    assert changed == [(3, 0)]


def test_the_end_of_a_game_shows_the_winner_and_the_ranking() -> None:
    table, snapshots = started()
    table.play()
    snapshot = snapshots.take(missing=[1])
    view = snapshot_view(snapshot)
    outcome = snapshot.outcome
    assert outcome is not None
    winner = outcome.winner
    assert view["title"] == "Game over" and view["over"] is True
    assert view["ranking"] == list(outcome.ranking)
    assert view["result"] == view["status"] == (
        f"{['Ann', 'Bob'][winner]} wins with {outcome.scores[winner]} VP (decided by "
        f"{outcome.decided_by})")
    assert [p["vp"] for p in view["players"]] == list(outcome.scores)
    assert [sum(b["vp"] for b in p["breakdown"]) for p in view["players"]] == \
        list(outcome.scores)
    assert view["players"][1]["flags"] == []  # silent after the end: nothing to say
    assert len(view["log"]) == 40 and view["log"][-1]["text"].startswith("The game is over.")


def test_the_view_is_json_and_the_live_feed_builds_it_once_per_snapshot() -> None:
    table, snapshots = started()
    latest: list[Snapshot] = [snapshots.take(missing=[])]
    feed = LiveFeed(lambda: latest[0])
    version, body = feed.current()
    assert json.loads(body) == snapshot_view(latest[0]) and version == 1
    assert feed.current() == (1, body)  # the same snapshot: the same view, not rebuilt
    table.play(turns=1)
    latest[0] = snapshots.take(missing=[])
    assert feed.current()[0] == 2


def test_before_the_game_the_page_shows_who_sits_at_the_table() -> None:
    assert lobby_view(None) == {"lobby": True, "title": "The Castles of Burgundy",
                                "status": "waiting for a table", "players": [], "seats": 0}
    ann = Member(bytes(32), "Ann\x1b[2J", "red", True, ("", 0))
    lobby = LobbySnapshot(hosting=True, host=None, config=GameConfig(3), rules=DEFAULT_RULES,
                          members=(ann,), game_id=b"", admitted=True, closed=False, can_start=False,
                          refused=None, silent=None)
    assert lobby_view(lobby) == {
        "lobby": True, "title": "The Castles of Burgundy",
        "status": "waiting for the game to start: 1 of 3 seats taken",
        "players": [{"name": "Ann?[2J", "colour": "red"}], "seats": 3}
    joining = dataclasses.replace(lobby, hosting=False, host=("10.0.0.7", 4000), config=None,
                                  members=(), admitted=False)
    assert lobby_view(joining)["status"] == "connecting to the table at 10.0.0.7:4000"
    refused = dataclasses.replace(joining, refused="the table is full")
    assert lobby_view(refused)["status"] == "the table refused us: the table is full"


def secret_table() -> Table:
    table = Table(3, seed=1, config=GameConfig(3, setup=Setup.EXPERTS_SECRET))
    table.paused = True
    table.pump()
    for _ in range(3):
        table.tick()
    return table


def test_a_secret_set_up_choice_shows_only_once_every_seat_revealed_its_own() -> None:
    """Seats 0 and 1 have chosen (committed, not revealed: seat 2 has not chosen yet). The
    page of seat 0's peer, which knows its own choice, is the page of seat 2's peer, which
    cannot know it; once seat 2 chose, every board shows."""
    table = secret_table()
    choices = {}
    for seat in (0, 1):
        session = table.sessions[seat]
        choices[seat] = first_choice(session)
        session.submit_choice(choices[seat])
        table.flush(seat)
        table.pump()
    knows = Snapshots(table.sessions[0]).take(missing=[])
    blind = Snapshots(table.sessions[2]).take(missing=[])
    assert knows.choice_state is None or knows.choice_state is not knows.state
    assert snapshot_view(knows) == snapshot_view(blind)
    view = snapshot_view(knows)
    assert view["status"] == "everyone chooses a board and start space in secret"
    assert [p["choosing"] for p in view["players"]] == [True, True, True]
    assert [[s["tile"] for s in p["estate"] if s["tile"]] for p in view["players"]] == [[], [], []]
    session = table.sessions[2]
    session.submit_choice(first_choice(session))
    table.flush(2)
    table.pump()
    view = snapshot_view(Snapshots(table.sessions[0]).take(missing=[]))
    assert [p["choosing"] for p in view["players"]] == [False, False, False]
    ann = view["players"][0]
    assert sum(1 for s in ann["estate"] if s["tile"]) == 1  # the start castle, as chosen
    castle = next(i for i, s in enumerate(ann["estate"]) if s["tile"])
    assert castle == choices[0].space


def replay_of(turns: int) -> ReplayFeed:
    table, _ = started()
    table.play(turns=turns)
    session = table.sessions[0]
    replay = ReplayTable(session.config, [as_step(s) for s in session.history], ["Ann", "Bob"])
    replay.step(-replay.position[1])
    return ReplayFeed(replay, ["red", "blue"])


def position(feed: ReplayFeed) -> dict[str, int]:
    view = json.loads(feed.current()[1])
    return {**view["replay"], "round": view["title"]}


def test_a_replay_steps_by_action_turn_and_round() -> None:
    feed = replay_of(turns=12)
    total = position(feed)["total"]
    assert position(feed) == {"position": 0, "total": total, "round": "Phase A, round 1 of 5"}
    feed.step("action", 3)  # set-up, phase A, round 1
    assert position(feed)["position"] == 3
    feed.step("turn", 1)  # Ann's first turn: two dice, what each did, the end (5 actions)
    view = json.loads(feed.current()[1])
    assert view["replay"]["position"] == 8
    assert [line["text"] for line in view["log"] if line["recent"]] == [
        "Ann took workers with a 5 (+2 workers).",
        "Ann took Ck2 (2 chickens) from depot 3 with a 6 (-3 workers).", "Ann ended the turn."]
    feed.step("action", -3)
    view = json.loads(feed.current()[1])
    assert view["replay"]["position"] == 5  # her first die: said with what it did
    assert [line["text"] for line in view["log"] if line["recent"]] == []
    feed.step("action", 2)  # her second die, and the tile it took
    assert [line["text"] for line in json.loads(feed.current()[1])["log"] if line["recent"]] \
        == ["Ann took Ck2 (2 chickens) from depot 3 with a 6 (-3 workers)."]
    feed.step("action", 1)
    feed.step("round", 1)
    assert position(feed)["round"] == "Phase A, round 2 of 5"
    start = position(feed)["position"]
    feed.step("action", -1)
    assert position(feed)["round"] == "Phase A, round 1 of 5"  # the round began just there
    feed.step("action", 2)
    feed.step("round", -1)  # back to the start of this round
    assert position(feed) == {"position": start, "total": total, "round": "Phase A, round 2 of 5"}
    feed.step("round", -1)  # and of the one before
    assert position(feed)["round"] == "Phase A, round 1 of 5"
    feed.step("action", -1)
    assert position(feed)["round"] == "Phase A, round 1 of 5"  # set-up counts as round 1
    feed.step("round", 99)
    assert position(feed)["position"] == total
    with pytest.raises(ValueError, match="step by 'phase': one of action, turn, round"):
        feed.step("phase", 1)


def test_a_replay_step_marks_what_it_changed() -> None:
    feed = replay_of(turns=4)
    feed.step("action", 3)
    table = feed._table  # the replay the feed shows
    before = table.state
    feed.step("turn", 1)
    view = json.loads(feed.current()[1])
    marked = {("space", p["seat"], i) for p in view["players"]
              for i, s in enumerate(p["estate"]) if s["changed"]}
    marked |= {("storage", p["seat"], 0) for p in view["players"] if p["storageChanged"]}
    marked |= {("goods", p["seat"], 0) for p in view["players"] if p["goodsChanged"]}
    marked |= {("depot", d["depot"], i) for d in view["depots"]["numbered"]
               for i, s in enumerate(d["slots"]) if s["changed"]}
    marked |= {("goods_depot", d["depot"], 0) for d in view["depots"]["numbered"]
               if d["goodsChanged"]}
    assert marked == set(changes_between(before, table.state)) != set()


def test_the_expansion_modules_show_routes_shields_and_inns() -> None:
    config = GameConfig(2, edition=Edition.E2019,
                        modules=(Module.TRADE_ROUTES, Module.SHIELDS, Module.INNS))
    table = Table(2, seed=3, config=config)
    table.pump()
    table.play(turns=20)
    view = snapshot_view(Snapshots(table.sessions[0]).take(missing=[]))
    assert (view["title"], view["rules"]) == ("Phase C, round 1 of 5", "2019 edition, 2 players")
    assert [(p["route"], p["shields"]) for p in view["players"]] == [
        ("2 of 15 (next: goods 2, an extra action, any number)", []),
        ("2 of 15 (next: goods 2, +4 workers)", [])]
    assert [d["shields"] for d in view["depots"]["numbered"]] == [[], [4], [6], [10], [], []]
    assert view["depots"]["inns"] == 3


def test_the_big_screen_draws_a_team_board_in_two_halves_and_names_the_winning_team():
    from p2p_burgundy import Edition, GameConfig, new_game
    from p2p_burgundy.cli.web.view import board_view
    from p2p_burgundy.scoring import outcome
    from tests.engine.helpers import resolve_all

    state = resolve_all(new_game(GameConfig(4, Edition.E2019, teams=((0, 2), (1, 3)))))
    players = [("Ann", "red"), ("Bob", "blue"), ("Cid", "green"), ("Dee", "yellow")]
    view = board_view(state, players)
    assert view["rules"] == ("2019 edition, 4 players, the team game on team-provisional "
                             "(provisional: not the printed board)")
    estate = view["players"][0]["estate"]
    assert len(estate) == 74 and [s["half"] for s in estate[36:38]] == [0, 1]
    assert [(s["half"], s["row"], s["col"]) for s in estate if s["tile"]] == [(0, 3, 6)]
    over = state.clone()
    over.phase = 5
    result = outcome(over)
    view = board_view(over, players, result=result)
    # a tie on points and empty spaces: A1 (Ann) stands first on the bridge, so team B wins
    assert view["result"] == ("Bob and Dee win with 0 VP against 0 (decided by further behind "
                              "on the bridge)")
