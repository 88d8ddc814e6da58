"""The big screen's command lines: ``replay GAMEFILE --web`` serves the game until Ctrl-C,
and what cannot be served is refused with one clear line."""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from p2p_burgundy.cli.main import main
from p2p_burgundy.net.inmemory import Table
from tests.cli.test_verify import write


@pytest.fixture(scope="module")
def game_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    table = Table(2, seed=31)
    table.play(turns=6)
    return write(tmp_path_factory.mktemp("web") / "g.game", table.files[0])


def read_view(url: str) -> dict[str, object]:
    with urllib.request.urlopen(url + "view", timeout=10) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]  # a JSON object


@pytest.mark.slow
def test_replay_web_serves_the_game_from_its_start_until_ctrl_c(game_file: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "p2p_burgundy.cli.main", "replay", str(game_file), "--web",
         "--web-port", "0", "--interface", "127.0.0.1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        match = re.fullmatch(r"The big screen \(read-only\): (http://127\.0\.0\.1:\d+/)\n", first)
        assert match, first
        url = match.group(1)
        assert process.stdout.readline() == ("Open it in any browser on the LAN, or scan this "
                                             "with a phone:\n")
        code = [process.stdout.readline() for _ in range(15)]
        assert {len(line) for line in code} == {30} and "\x1b" not in "".join(code)
        view = read_view(url)
        assert (view["title"], view["replay"]) == ("Phase A, round 1 of 5",
                                                   {"position": 0, "total": 39})
        request = urllib.request.Request(url + "step", data=b"by=turn&delta=2", method="POST")
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 204
        assert read_view(url)["replay"] == {"position": 2, "total": 39}
        process.send_signal(signal.SIGINT)
        assert process.wait(20) == 0
        with pytest.raises(OSError):
            read_view(url)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_a_port_in_use_is_refused_with_the_reason(game_file: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["replay", str(game_file), "--web", "--web-port", str(port),
                     "--interface", "127.0.0.1"]) == 1
    assert capsys.readouterr().err.startswith(
        f"burgundy: cannot serve the web page on 127.0.0.1:{port}: ")


@pytest.mark.parametrize(("argv", "code", "error"), [
    (["play", "--local", "--web"], 2,
     "burgundy play: error: argument --web: shows a networked game (not --local or --seed: "
     "play --bots N is one on this computer)"),
    (["watch", "--web", "--no-mdns", "--interface", "127.0.0.1"], 1,
     "burgundy watch: with --no-mdns, give the table as host:port"),
    (["watch", "127.0.0.1:9", "--no-mdns"], 2,
     "burgundy watch (--web serves a web page instead): needs a terminal (stdin and stdout "
     "must be a tty)"),
    (["watch", "--web", "--web-port", "70000"], 2,
     "burgundy watch: error: argument --web-port: must be 0 (any free port) to 65535, not "
     "70000"),
])
def test_what_cannot_be_served_is_refused_in_one_line(
        argv: list[str], code: int, error: str, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    home = ["--home", str(tmp_path)] if argv[0] == "watch" and code == 1 else []
    assert main([*argv, *home]) == code
    assert capsys.readouterr().err.strip() == error


def test_replay_web_of_a_file_that_holds_no_game(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.game"
    bad.write_bytes(b"garbage")
    assert main(["replay", str(bad), "--web", "--web-port", "0"]) == 1  # nothing served
    assert capsys.readouterr().err == \
        f"burgundy replay: {bad}: not a p2p-burgundy game file\n"
