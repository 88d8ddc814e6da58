"""The lobby screens, pure: the model's keys and commands, and exact rendered lines (no
terminal, no network)."""

from __future__ import annotations

import inspect

import pytest

from p2p_burgundy.cli.estates import table_config, table_extras
from p2p_burgundy.cli.tui.app import App, Palette, dispatch, footer_keys
from p2p_burgundy.cli.tui.layout import compute_layout
from p2p_burgundy.cli.tui.lobbymodel import (
    LOBBY_KEYMAP,
    AddBots,
    AtTable,
    Host,
    Join,
    Learn,
    Leave,
    LobbyModel,
    LobbyView,
    Page,
    PlayBots,
    QuitLobby,
    Remove,
    SetMe,
    Start,
    dispatch_lobby,
    lobby_footer,
)
from p2p_burgundy.cli.tui.lobbyrender import PAGE_HELP, render_lobby
from p2p_burgundy.cli.tui.model import Context, Model, SeatToBot
from p2p_burgundy.cli.tui.render import render
from p2p_burgundy.net.discovery import TableInfo
from p2p_burgundy.net.identity import Identity, fingerprint
from p2p_burgundy.net.lobby import Member
from p2p_burgundy.net.tablerules import TableRules

from .helpers import FixedTable, started

KEYS = [Identity.from_private_bytes(bytes([i]) * 32).public_key for i in range(1, 4)]
FP = [fingerprint(k) for k in KEYS]
ANNA = TableInfo(f"Anna {FP[1]}._burgundy._udp.local.", "Anna", FP[1], bytes(16), 1, 3, "2011",
                 ("192.168.1.20", 40123))
FULL = TableInfo(f"Bo {FP[2]}._burgundy._udp.local.", "Bo", FP[2], bytes(16), 2, 2, "2019",
                 ("192.168.1.21", 40124))


def screen(model: LobbyModel) -> list[str]:
    return [line.rstrip() for line in render_lobby(model, 80, 24).text()]


def at_table(*members: Member, hosting: bool = True, seats: int = 3, **kw: object) -> AtTable:
    free = seats - len(members)
    ready = len(members) == seats and all(m.ready for m in members)
    fields: dict[str, object] = {"members": members, "seats": seats, "edition": "2011",
                                 "code": "abcd-efgh-ijkl", "admitted": True,
                                 "can_start": hosting and ready, "free": free}
    fields.update(kw)
    return AtTable(hosting, ("192.168.1.5", 40100), **fields)  # type: ignore[arg-type]


def member(i: int, name: str, colour: str, ready: bool) -> Member:
    return Member(KEYS[i], name, colour, ready, ("192.168.1.5", 40100 + i))


def lobby_model(at: AtTable, me: int = 0) -> LobbyModel:
    model = LobbyModel("Ann", "red", FP[me], page=Page.LOBBY)
    model.update(LobbyView(table=at))
    return model


# --- the tables page ----------------------------------------------------------------------

def test_with_nobody_around_the_tables_page_offers_bots_first() -> None:
    model = LobbyModel("Ann", "red", FP[0])
    model.update(LobbyView())
    assert screen(model)[:13] == [
        " The Castles of Burgundy on the LAN" + " " * 8 + f"you: Ann (red) [{FP[0]}]",
        "",
        "Tables on the LAN (live):",
        "  none yet: listening for tables announced on the LAN...",
        "  Nobody else around? b plays against bots here; h hosts a table.",
        "",
        "Or:",
        "> b  play against bots on this computer",
        "  h  host a new table on the LAN",
        "  a  join a table by address (host:port)",
        "  l  learn to play: a guided first game against a bot",
        "",
        "You play as Ann (red): n changes the name, k the colour.",
    ]
    assert dispatch_lobby(model, "^J") is None and model.page == Page.BOTS
    assert dispatch_lobby(model, "KEY_RIGHT") is None and model.bots == 2
    assert dispatch_lobby(model, "^J") == PlayBots(2)
    model.page = Page.BOTS
    assert dispatch_lobby(model, "3") == PlayBots(3)


def test_the_first_start_offers_the_guided_game() -> None:
    model = LobbyModel("Ann", "red", FP[0], first=True)
    model.update(LobbyView())
    assert screen(model)[2] == "New here? l starts a guided first game against a bot " \
        "(burgundy learn)."
    assert dispatch_lobby(model, "l") == Learn()
    canvas = render_lobby(model, 80, 24)
    rows = {canvas.target_at(y, 10): canvas.text()[y].strip().split("  ")[1] for y in range(24)
            if canvas.target_at(y, 10) is not None}
    assert rows == {0: "play against bots on this computer", 1: "host a new table on the LAN",
                    2: "join a table by address (host:port)",
                    3: "learn to play: a guided first game against a bot"}
    assert model.click(1) is None and model.page == Page.HOST  # as h does
    model.page = Page.TABLES
    assert model.click(3) == Learn() and model.click(9) is None


def test_tables_on_the_lan_are_listed_live_and_joined_by_number_or_cursor() -> None:
    model = LobbyModel("Ann", "red", FP[0])
    model.update(LobbyView(tables=(ANNA, FULL)))
    lines = screen(model)
    assert lines[3] == f"  1  Anna [{FP[1]}] 1/3 seats, 2011 rules, 192.168.1.20:40123"
    assert lines[4] == f"  2  Bo [{FP[2]}] 2/2 seats, 2019 rules, 192.168.1.21:40124"
    assert dispatch_lobby(model, "2") is None and model.message == "Bo's table is full."
    assert dispatch_lobby(model, "9") is None and model.message == "There is no table 9."
    dispatch_lobby(model, "KEY_UP")
    dispatch_lobby(model, "KEY_UP")
    assert model.selected == ANNA.instance
    assert screen(model)[3].startswith("> 1  Anna")
    assert dispatch_lobby(model, "^J") == Join(ANNA)
    assert model.page == Page.LOBBY


def test_the_cursor_stays_on_its_table_when_the_list_changes_and_moves_off_a_gone_one() -> None:
    model = LobbyModel("Ann", "red", FP[0])
    model.update(LobbyView(tables=(FULL,)))
    model.selected = FULL.instance
    model.update(LobbyView(tables=(ANNA, FULL)))
    assert model.selected == FULL.instance
    model.update(LobbyView(tables=(ANNA,)))
    assert model.selected == ANNA.instance
    model.update(LobbyView())
    assert model.selected == "bots"


def test_without_mdns_the_tables_page_says_to_use_addresses() -> None:
    model = LobbyModel("Ann", "red", FP[0])
    model.update(LobbyView(mdns=False))
    assert "mDNS is off" in screen(model)[3]


def test_hosting_asks_players_and_edition() -> None:
    model = LobbyModel("Ann", "red", FP[0])
    dispatch_lobby(model, "h")
    dispatch_lobby(model, "4")
    dispatch_lobby(model, "e")
    assert screen(model)[2] == "Players:   2  3  4    (2 3 4, or Left/Right)"
    assert (model.players, model.edition) == (4, "2019")
    assert dispatch_lobby(model, "^J") == Host(4, "2019")
    assert model.page == Page.LOBBY
    model = LobbyModel("Ann", "red", FP[0])
    dispatch_lobby(model, "h")
    assert screen(model)[6].startswith("Hints:     off  on    (t switches: may players ask")
    dispatch_lobby(model, "t")
    assert model.hints
    assert dispatch_lobby(model, "^J") == Host(2, "2011", hints=True)
    model = LobbyModel("Ann", "red", FP[0])
    dispatch_lobby(model, "h")
    dispatch_lobby(model, "^[")
    assert model.page == Page.TABLES


def test_joining_by_address_checks_what_was_typed() -> None:
    model = LobbyModel("Ann", "red", FP[0])
    dispatch_lobby(model, "a")
    for key in "10.0.0.7":
        dispatch_lobby(model, key)
    assert dispatch_lobby(model, "^J") is None
    assert model.message.startswith("10.0.0.7 is not host:port")
    for key in ":4000x":
        dispatch_lobby(model, key)
    dispatch_lobby(model, "^?")
    assert screen(model)[2] == "Address: 10.0.0.7:4000_"
    assert dispatch_lobby(model, "^J") == Join(("10.0.0.7", 4000))


def test_name_and_colour_change_before_and_at_the_table() -> None:
    model = LobbyModel("Ann", "red", FP[0])
    dispatch_lobby(model, "n")
    for key in "Annie":
        dispatch_lobby(model, key)
    assert screen(model)[22].startswith("Your name: Annie_")
    assert dispatch_lobby(model, "^J") is None  # not at a table: nothing to send
    assert model.name == "Annie" and model.page == Page.TABLES
    at = at_table(member(0, "Annie", "red", True), member(1, "Bob", "blue", False))
    model = lobby_model(at)
    assert dispatch_lobby(model, "k") == SetMe("Ann", "green", True)  # blue is Bob's


# --- at a table ---------------------------------------------------------------------------

def test_the_host_sees_everyone_with_fingerprint_and_readiness_and_the_table_code() -> None:
    at = at_table(member(0, "Ann", "red", True), member(1, "Bob", "blue", False))
    model = lobby_model(at)
    assert screen(model)[:10] == [
        " At the table" + " " * 30 + f"you: Ann (red) [{FP[0]}]",
        "",
        "Your table: 2 of 3 seats, 2011 rules. Others join at 192.168.1.5:40100",
        "Table code: abcd-efgh-ijkl  (read it aloud: everyone must see the same code)",
        "",
        "  seat  name              colour  key fingerprint       ready",
        f"  1     Ann (host, you)   red     {FP[0]}   ready",
        f"  2     Bob               blue    {FP[1]}   not ready",
        "  3     (free)",
        "",
    ]
    assert screen(model)[10] == "Waiting for 1 more player (b: bots take the free seats)."
    assert lobby_footer(model) == [("s", "start"), ("b", "bots"), ("w", "web"),
                                   ("x", "remove"), ("n", "name"), ("k", "colour"),
                                   ("Esc", "leave"), ("q", "quit"), ("?", "help")]
    assert dispatch_lobby(model, "s") is None
    assert model.message == "Waiting for 1 more player (b: bots take the free seats)."
    assert dispatch_lobby(model, "b") == AddBots()
    assert dispatch_lobby(model, "r") is None and "always ready" in model.message


def test_the_host_removes_a_member_by_x_and_its_seat_number() -> None:
    bob = member(1, "Bob", "blue", False)
    model = lobby_model(at_table(member(0, "Ann", "red", True), bob))
    assert dispatch_lobby(model, "2") is None and model.message.startswith("2 does nothing")
    assert dispatch_lobby(model, "x") is None
    assert model.message == "Remove which seat? Press its number (2-2); x: no."
    assert dispatch_lobby(model, "3") is None and model.message == "Nobody to remove at seat 3."
    dispatch_lobby(model, "x")
    assert dispatch_lobby(model, "2") == Remove(bob.key)
    assert model.message == f"Removed Bob [{FP[1]}] from the table."
    joiner = lobby_model(at_table(member(0, "Bob", "blue", True), member(1, "Ann", "red", False),
                                  hosting=False), me=1)
    assert dispatch_lobby(joiner, "x") is None
    assert joiner.message == "Only the host removes players."


def test_everyone_at_the_table_sees_whether_hints_are_on() -> None:
    config = table_config(3, None, None, None)
    at = at_table(member(0, "Ann", "red", True), member(1, "Bob", "blue", False),
                  hosting=False, extras=table_extras(config, TableRules(hints=True)))
    assert screen(lobby_model(at))[3] == "Hints from a bot allowed"


def test_the_host_starts_once_the_table_is_full_and_ready() -> None:
    at = at_table(member(0, "Ann", "red", True), member(1, "Bob", "blue", True), seats=2)
    model = lobby_model(at)
    assert "Everyone is here and ready: s starts the game." in screen(model)
    assert dispatch_lobby(model, "b") is None and model.message == "No free seat for a bot."
    assert dispatch_lobby(model, "s") == Start()


def test_a_joiner_readies_up_and_cannot_start() -> None:
    at = at_table(member(0, "Bob", "blue", True), member(1, "Ann", "red", False),
                  hosting=False, seats=2)
    model = lobby_model(at, me=1)
    lines = screen(model)
    assert lines[2] == "Bob's table at 192.168.1.5:40100: 2 of 2 seats, 2011 rules"
    assert lines[6].startswith("  1     Bob (host)") and lines[7].startswith("  2     Ann (you)")
    assert "Press r when you are ready." in lines
    assert lobby_footer(model) == [("r", "ready"), ("w", "web"), ("n", "name"),
                                   ("k", "colour"), ("Esc", "leave"), ("q", "quit"),
                                   ("?", "help")]
    assert dispatch_lobby(model, "r") == SetMe("Ann", "red", True)
    assert dispatch_lobby(model, "s") is None and model.message == "Only the host starts the game."


def test_before_the_host_lets_us_in_the_lobby_says_so() -> None:
    model = lobby_model(AtTable(False, ("10.0.0.7", 4000)))
    assert screen(model)[2] == "Connecting to the table at 10.0.0.7:4000..."
    assert dispatch_lobby(model, "r") is None and model.message.startswith("Not at the table")


def test_a_refused_or_closed_table_sends_us_back_to_the_tables() -> None:
    model = LobbyModel("Ann", "red", FP[0], page=Page.LOBBY)
    view = LobbyView(table=AtTable(False, ("10.0.0.7", 4000),
                                   refused="the host refused: the table is full"))
    assert model.update(view) == Leave()
    assert model.page == Page.TABLES
    assert model.message == "Left the table: the host refused: the table is full."


def test_a_silent_host_is_named_on_the_message_line_until_it_is_back() -> None:
    silent = (f"Anna [{FP[1]}] at 10.0.0.7:4000 has not answered for 3 s: check that it is "
              "still running and at its table, and the network between you; waiting for it to "
              "come back")
    model = lobby_model(at_table(member(0, "Ann", "red", True), hosting=False))
    gone = AtTable(False, ("10.0.0.7", 4000), silent=silent)  # asking the host afresh
    assert model.update(LobbyView(table=gone)) is None
    assert model.page == Page.LOBBY and model.message == "The host has gone silent."
    assert screen(model)[2:8] == [
        "Connecting to the table at 10.0.0.7:4000...",
        "",
        f"Anna [{FP[1]}] at 10.0.0.7:4000 has not answered for 3 s: check that",
        "it is still running and at its table, and the network between you; waiting for",
        "it to come back.",
        ""]
    model.update(LobbyView(table=at_table(member(0, "Ann", "red", True), hosting=False)))
    assert model.message == "The host is back."


def test_leaving_a_table_and_quitting() -> None:
    model = lobby_model(at_table(member(0, "Ann", "red", True)))
    assert dispatch_lobby(model, "^[") == Leave() and model.page == Page.TABLES
    assert dispatch_lobby(model, "q") == QuitLobby()


def test_a_small_terminal_shows_only_its_size() -> None:
    model = LobbyModel("Ann", "red", FP[0])
    lines = [line.rstrip() for line in render_lobby(model, 60, 20).text()]
    assert lines[0] == "Terminal too small: 60x20."
    assert dispatch_lobby(model, "q") == QuitLobby()


@pytest.mark.parametrize("page", [p for p in Page if p != Page.TOO_SMALL])
def test_every_page_has_help_on_question_mark_and_it_closes_again(page: Page) -> None:
    model = lobby_model(at_table(member(0, "Ann", "red", True))) if page == Page.LOBBY else \
        LobbyModel("Ann", "red", FP[0], page=page)
    dispatch_lobby(model, "?")
    lines = screen(model)
    assert lines[2].startswith("Help: ") and lines[4] == PAGE_HELP[page][0]
    start = next(i for i, line in enumerate(lines) if line.startswith("Keys: "))
    keys = " ".join(" ".join(lines[start:start + 2]).split())
    assert "? help" in keys and "q quit" in keys if page not in (Page.ADDRESS, Page.EDIT) \
        else "Esc" in keys
    assert lines[-1].strip() == "? back" and all(len(line) <= 80 for line in lines)
    dispatch_lobby(model, "x")
    assert model.helping and model.message == "? or Esc closes the help."
    dispatch_lobby(model, "^[")
    assert not model.helping and model.page == page


@pytest.mark.parametrize("page", list(Page))
def test_every_lobby_key_names_a_model_handler_with_the_right_arguments(page: Page) -> None:
    for key, ((name, *args), _label) in LOBBY_KEYMAP[page].items():
        method = getattr(LobbyModel, name, None)
        assert callable(method), f"{page}: {key} -> {name} is not a LobbyModel method"
        params = inspect.signature(method).parameters
        required = [p for p in list(params)[1:] if params[p].default is inspect._empty]
        assert len(required) <= len(args) <= len(params) - 1, f"{key} -> {name}{tuple(args)}"


# --- the game screen: a player who is gone -------------------------------------------------

class GoneTable(FixedTable):
    """A networked table where seat 1 has been gone a while."""

    networked = True

    def __init__(self) -> None:
        super().__init__(started(2), ["Ann", "Bea"], 1)  # seat 0 (Ann) is to move
        self.given: list[int] = []
        self.away: list[int] = []

    def gone(self) -> list[int]:
        return [s for s in self.away if s not in self.given]

    def seat_to_bot(self, seat: int) -> None:
        self.given.append(seat)

    def waiting_for(self) -> str | None:
        return "waiting for Ann's turn (not heard from)" if self.away else super().waiting_for()


class _Screen:
    def getmaxyx(self) -> tuple[int, int]:
        return 24, 80


def test_a_gone_player_can_be_handed_to_a_bot_after_a_question() -> None:
    table = GoneTable()
    model = Model(table)
    model.refresh()
    assert model.context() == Context.WAIT
    assert ("B", "let a bot play") not in footer_keys(model)
    dispatch(model, "B")
    assert model.message == "Nobody has been gone long enough to be replaced by a bot."
    table.away = [0]
    assert footer_keys(model)[0] == ("B", "let a bot play")
    text = render(model, compute_layout(80, 24), footer_keys(model)).text()
    assert text[14].startswith("waiting for Ann's turn (not heard from). B")
    assert text[15].startswith("lets a bot play Ann's seat.")
    assert dispatch(model, "B") is None
    assert model.confirm is not None and model.confirm.question.startswith(
        "Let a bot play Ann's seat from now on? Every other player must agree.")
    assert dispatch(model, "n") is None and table.given == []
    for page in ("l", "S", "i", "?", "O"):  # over a page opened while waiting: B first, works
        dispatch(model, page)
        assert model.context() != Context.WAIT
        assert footer_keys(model)[0] == ("B", "let a bot play"), page
        text = render(model, compute_layout(80, 24), footer_keys(model)).text()
        assert text[23].startswith(" B let a bot play "), page
        dispatch(model, "B")
        assert model.confirm is not None and model.confirm.question.startswith(
            "Let a bot play Ann's seat from now on?"), page
        dispatch(model, "n")
        dispatch(model, "^[")
        assert model.context() == Context.WAIT, page
    dispatch(model, "B")
    command = dispatch(model, "y")
    assert command == SeatToBot(0)
    app = App(_Screen(), Palette({}), table, model)  # type: ignore[arg-type]
    app.execute(command)
    assert table.given == [0]
    assert model.message.startswith("You agreed: a bot plays Ann's seat")
    assert model.handover_seat() is None


def _every_lobby_screen() -> list[tuple[str, LobbyModel]]:
    """Every page of the lobby, at a table in each of its states, with its help open too."""
    ann, bob = member(0, "Ann", "red", True), member(1, "Bob", "blue", False)
    models: list[tuple[str, LobbyModel]] = []
    for page in (Page.TABLES, Page.HOST, Page.BOTS, Page.ADDRESS, Page.EDIT):
        model = LobbyModel("Ann", "red", FP[0], page=page)
        model.first = page == Page.TABLES
        model.update(LobbyView(tables=(ANNA, FULL)))
        models.append((page.value, model))
    for what, at, me in (
            ("opening", None, 0),
            ("hosting", at_table(ann, bob), 0),
            ("hosting, no code yet", at_table(ann, bob, code=None), 0),
            ("joined", at_table(member(0, "Bob", "blue", True), member(1, "Ann", "red", False),
                                hosting=False), 1),
            ("joining", at_table(hosting=False, admitted=False, code=None), 0)):
        model = LobbyModel("Ann", "red", FP[me], page=Page.LOBBY)
        model.update(LobbyView(table=at))
        models.append((what, model))
    web = LobbyModel("Ann", "red", FP[0], page=Page.LOBBY)
    web.update(LobbyView(table=at_table(ann, bob)))
    web.showing_web, web.web = True, "http://[ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]:65535/"
    models.append(("the big screen's address", web))
    for what, model in list(models):
        helping = LobbyModel("Ann", "red", model.fingerprint, page=model.page)
        helping.update(model.view)
        helping.helping = True
        models.append((f"{what}, help", helping))
    return models


@pytest.mark.parametrize(("what", "model"), _every_lobby_screen(),
                         ids=[what for what, _ in _every_lobby_screen()])
def test_every_lobby_screen_fits_80x24_whole_with_every_key_of_its_footer(
        what: str, model: LobbyModel) -> None:
    lines = screen(model)
    assert not [line for line in lines if "~" in line], what
    footer = " ".join(lines[-1].split())
    assert footer == " ".join(f"{key} {label}" for key, label in lobby_footer(model)), what


def test_the_host_page_names_each_setting_s_key_beside_it_and_its_help_lists_them_all() -> None:
    model = LobbyModel("Ann", "red", FP[0], page=Page.HOST)
    assert " ".join(screen(model)[-1].split()) == "Enter open Esc back q quit ? help"
    body = "\n".join(screen(model))
    for beside in ("(2 3 4, or Left/Right)", "(e switches", "(t switches", "(c switches",
                   "(w switches", "Space switches, m: all or none"):
        assert beside in body
    dispatch_lobby(model, "?")
    keys = " ".join(" ".join(line for line in screen(model) if line.startswith(("Keys", " "))
                             ).split())
    assert ("Keys: Enter open, 2 players, e edition, t hints, c clock, w web, Space module, m all, "
            "Esc back, q quit, ? help") in keys


def test_before_the_start_the_table_says_its_code_appears_when_the_host_starts() -> None:
    at = at_table(member(0, "Bob", "blue", True), member(1, "Ann", "red", False),
                  hosting=False, code=None)
    assert screen(lobby_model(at, me=1))[3] == \
        "Table code: appears when the host starts the game; then read it aloud"
