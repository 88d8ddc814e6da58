"""The big screen from the lobby: ``w`` on the host page serves the page when the table
opens; ``w`` at a table serves it (once) and shows its address and QR code at 80x24, ``w``
again goes back to the table. And the QR code itself."""

from __future__ import annotations

import segno

from p2p_burgundy.cli.tui.lobbymodel import (
    Host,
    LobbyModel,
    LobbyView,
    Page,
    ServeWeb,
    dispatch_lobby,
)
from p2p_burgundy.cli.web.qr import qr_lines
from tests.cli.tui.test_lobby import FP, at_table, member, screen

URL = "http://192.168.1.5:8337/"


def test_w_at_the_table_serves_the_page_once_and_shows_its_address_and_code() -> None:
    model = LobbyModel("Ann", "red", FP[0], page=Page.LOBBY)
    model.update(LobbyView(table=at_table(member(0, "Ann", "red", True))))
    assert dispatch_lobby(model, "w") == ServeWeb()
    assert screen(model)[2] == "Starting the web page..."
    model.web = URL  # the runner served it
    lines = screen(model)
    assert lines[2] == f"The big screen: {URL}"
    code = qr_lines(URL)
    assert [line[:len(code[0]) + 2] for line in lines[3:18]] == ["  " + row for row in code]
    assert [line[len(code[0]) + 4:] for line in lines[3:9]] == [
        "The whole table, read-only,", "in any browser on the LAN:",
        "type the address above, or", "scan this code with a phone.", "",
        "w: back to the table"]
    assert dispatch_lobby(model, "w") is None and not model.showing_web
    assert screen(model)[2].startswith("Your table: 1 of 3 seats")
    assert dispatch_lobby(model, "w") is None  # served already: only shown again
    assert screen(model)[2] == f"The big screen: {URL}"


def test_the_longest_address_and_its_code_fit_80x24_whole() -> None:
    url = "http://[ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]:65535/"
    model = LobbyModel("Ann", "red", FP[0], page=Page.LOBBY)
    model.update(LobbyView(table=at_table(member(0, "Ann", "red", True))))
    model.showing_web, model.web = True, url
    lines = screen(model)
    code = qr_lines(url)
    assert len(code) == 19  # every line of it shown, under the address, above the footer
    assert lines[2] == f"The big screen: {url}"
    assert [line[2:2 + len(code[0])] for line in lines[3:22]] == code
    assert lines[8].endswith("w: back to the table") and lines[-1].startswith(" s start")
    assert not [line for line in lines if "~" in line]


def test_the_qr_code_holds_the_address() -> None:
    """The lines are the code segno makes of the address, module for module: a light
    module is a block (or its upper or lower half), a dark one a space."""
    code = segno.make(URL, error="m", micro=False, boost_error=False)
    rows = [list(row) for row in code.matrix_iter(scale=1, border=2)]
    rows.append([0] * len(rows[0]))  # an odd count: the last line's lower half is light
    lines = qr_lines(URL)
    assert (code.version, code.error, len(lines)) == (2, "M", 15)
    for i, line in enumerate(lines):
        upper, lower = rows[2 * i], rows[2 * i + 1]
        assert [(c in "█▀", c in "█▄") for c in line] == [(not u, not d)
                                                         for u, d in zip(upper, lower, strict=True)]


def test_w_on_the_host_page_serves_the_page_when_the_table_opens() -> None:
    model = LobbyModel("Ann", "red", FP[0], page=Page.HOST)
    assert screen(model)[8] == ("Web page:  off  on    (w switches: a web page of the game "
                                "for a TV or phones)")
    assert dispatch_lobby(model, "w") is None and model.web_wanted
    assert dispatch_lobby(model, "w") is None and not model.web_wanted
    dispatch_lobby(model, "w")
    assert dispatch_lobby(model, "^J") == Host(2, "2011")
    # At the table, its address and code show (the runner serves the page with the table).
    assert (model.page, model.showing_web) == (Page.LOBBY, True)
