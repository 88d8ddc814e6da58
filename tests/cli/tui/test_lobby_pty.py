"""Networked play through the real program in a pseudo-terminal (pyte), always on loopback:
``burgundy play --bots``, the lobby screens with headless ``burgundy bot`` processes, handing
a gone player's seat to a bot, ``--resume`` after a crash, and ``burgundy replay``.

Every wait reads until the expected text appears; nothing sleeps for a fixed time.
"""

from __future__ import annotations

import contextlib
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import msgpack
import pytest

from p2p_burgundy.cli.main import main
from p2p_burgundy.config import Setup
from p2p_burgundy.net.errors import DecodeError
from p2p_burgundy.net.identity import fingerprint, load_or_create
from p2p_burgundy.net.log import FILE_MAGIC, read_records
from p2p_burgundy.net.peer import saved_port

from .netgames import ExpertsGame, bot_game

if sys.platform == "win32":
    pytest.skip("needs a POSIX pty", allow_module_level=True)
pytest.importorskip("pyte", reason="pyte is in the test extras: pip install -e '.[test]'")

import termios  # after the skip: POSIX only

from .pty_terminal import PtyTerminal, burgundy

LOOPBACK = ("--interface", "127.0.0.1")
OFF_LAN = (*LOOPBACK, "--no-mdns")
END = "\x1b[4~"  # the End key of a TERM=screen terminal


@contextlib.contextmanager
def headless_bot(home: Path, *args: str) -> Iterator[subprocess.Popen[bytes]]:
    """``burgundy bot ARGS`` with its key in ``home``, output in ``home/out``."""
    home.mkdir(parents=True, exist_ok=True)
    with open(home / "out", "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "p2p_burgundy.cli.main", "bot", "--home", str(home),
             "--seed", "1", "--timeout", "120", *args], stdout=out, stderr=subprocess.STDOUT)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)


def bot_said(home: Path, pattern: str, proc: subprocess.Popen[bytes],
             timeout: float = 15.0) -> re.Match[str]:
    """Wait until the bot's output matches ``pattern``."""
    deadline = time.monotonic() + timeout
    while True:
        found = re.search(pattern, (home / "out").read_text(errors="replace"))
        if found:
            return found
        if proc.poll() is not None or time.monotonic() > deadline:
            raise AssertionError(f"no {pattern!r} from the bot:\n{(home / 'out').read_text()}")
        time.sleep(0.02)  # polling a file: there is nothing to select() on


def key_fingerprint(home: Path) -> str:
    """The fingerprint of the key in ``home`` (made now if there is none yet)."""
    return fingerprint(load_or_create(home / "identity.key").public_key)


def play_a_turn(term: PtyTerminal, name: str) -> None:
    """Take workers with both dice and end the turn (it must be ours)."""
    term.press("1")
    term.wait_for("w take workers")
    term.press("w", "2", "w")
    term.wait_for("e end the turn")
    term.press("e")
    assert term.wait_until(lambda: "(this turn)" not in term.text
                           and f"{name}'s estate" in term.text), term.text


def game_records(home: Path) -> int:
    """How many entries the game files in ``home`` hold."""
    files = list((home / "games").glob("*.game"))
    with contextlib.suppress(DecodeError):
        return sum(len(read_records(f.read_bytes())[0]) for f in files)
    return 0


def quit_game(term: PtyTerminal) -> None:
    term.press("q")
    term.wait_for("Leave this game?")
    term.press("y")
    assert term.wait_exit() == 0


def test_play_with_bots_is_a_network_game_played_by_keys(tmp_path: Path) -> None:
    with burgundy(tmp_path, "play", "--bots", "1", "--name", "Tess", *OFF_LAN) as term:
        screen = term.wait_for("use die 1", 20)
        assert "Tess's estate" in screen and "Bot 1" in screen
        play_a_turn(term, "Tess")
        term.wait_for("Your turn. Meanwhile Bot 1 ", 20)
        term.press("l")
        term.wait_for("Tess ended the turn.")
        term.press("esc")
        quit_game(term)
    assert len(list((tmp_path / "games").glob("*.game"))) == 1  # our peer's signed log


def test_ctrl_c_asks_as_q_does_and_leaving_says_how_to_come_back(tmp_path: Path) -> None:
    with burgundy(tmp_path, "play", "--bots", "1", "--name", "Tess", *OFF_LAN) as term:
        term.wait_for("use die 1", 20)
        term.press("c", "h", "i", "\x03")  # even while typing a chat line
        term.wait_for("Leave this game?")
        term.press("n")
        term.wait_for("use die 1")
        term.press("\x03")
        term.wait_for("Leave this game?")
        term.press("y")
        assert term.wait_exit() == 0
    game = next((tmp_path / "games").glob("*.game"))
    assert f" play --resume {game}".encode() in bytes(term.output)


def test_keys_typed_just_before_ctrl_c_count_and_every_ctrl_c_asks(tmp_path: Path) -> None:
    with burgundy(tmp_path, "play", "--bots", "1", "--name", "Tess", *OFF_LAN) as term:
        term.wait_for("use die 1", 20)
        for _ in range(3):  # the die, then its undo, each with a Ctrl-C on its heels
            for key, shown in (("1", "w take workers"), ("u", "2 use die 2")):
                term.press(key + "\x03")  # in one write: the terminal has both at once
                term.wait_for("Leave this game?")
                term.press("n")
                assert term.wait_until(lambda shown=shown: shown in term.text
                                       and "Leave this game?" not in term.text), term.text
        term.press("\x03")
        term.wait_for("Leave this game?")
        term.press("y")
        assert term.wait_exit() == 0
        assert termios.tcgetattr(term.master)[3] & termios.ISIG  # the shell's Ctrl-C is back


def test_ctrl_c_on_the_tables_page_quits_as_q_does(tmp_path: Path) -> None:
    with burgundy(tmp_path, "play", "--name", "Tess", *OFF_LAN) as term:
        term.wait_for("> b  play against bots on this computer")
        term.press("a")  # typing an address
        term.wait_for("Address: _")
        term.press("\x03")
        assert term.wait_exit() == 0


def test_with_nobody_around_the_tables_page_starts_a_game_against_bots(tmp_path: Path) -> None:
    with burgundy(tmp_path, "play", "--name", "Tess", *OFF_LAN) as term:
        term.wait_for("> b  play against bots on this computer")
        term.press("?")
        term.wait_for("Help: The Castles of Burgundy on the LAN")
        assert "Keys: Enter choose, b bots, h host" in term.text
        term.press("?")
        term.wait_for("> b  play against bots on this computer")
        term.press("enter")
        term.wait_for("Bots:")
        term.press("2")
        screen = term.wait_for("Tess's estate", 20)
        assert "Bot 1" in screen and "Bot 2" in screen
        quit_game(term)


def test_hosting_a_table_a_headless_bot_joins_then_its_seat_goes_to_a_bot(tmp_path: Path
                                                                          ) -> None:
    robo = tmp_path / "robo"
    robo_fp = key_fingerprint(robo)
    with burgundy(tmp_path / "me", "host", "--players", "2", "--name", "Hana", *OFF_LAN,
                  "--gone-after", "0") as term:
        screen = term.wait_for("Others join at 127.0.0.1:")
        assert "Hana (host, you)" in screen and "(free)" in screen
        port = re.search(r"Others join at 127\.0\.0\.1:(\d+)", screen).group(1)  # type: ignore[union-attr]
        with headless_bot(robo, f"127.0.0.1:{port}", "--name", "Robo", *OFF_LAN) as bot:
            screen = term.wait_for("s starts the game", 20)
            assert f"2     Robo              blue    {robo_fp}   ready" in screen
            # The table code follows the game id, which exists once the roster is proposed.
            assert "Table code: appears when the host starts the game; then read it aloud" \
                in screen
            term.press("s")
            term.wait_for("Hana's estate")
            bot_said(robo, r"game started, table code \w{4}-\w{4}-\w{4}", bot)
            bot.kill()
            bot.wait()
        offered = "B lets a bot play Robo's seat."
        asked = "Let a bot play Robo's seat from now on?"
        while True:  # the game goes on until it needs Robo
            assert term.wait_until(lambda: "use die 1" in term.text or offered in term.text,
                                   20), term.text
            if "use die 1" in term.text:
                play_a_turn(term, "Hana")
                continue
            menu = " ".join(line[:42].strip() for line in term.screen.display[14:17])
            assert "(not heard from)" in menu, term.text  # the waiting pane, wrapped
            assert "B let a bot play" in term.screen.display[23]
            term.press("B")
            assert term.wait_until(lambda: asked in term.text or "not a choice" in term.text)
            if asked in term.text:
                break
            # With --gone-after 0 the offer shows while Robo's last datagrams (sent just
            # before it was killed) may still be on their way; when they land, the game goes
            # on until it really needs Robo.
            term.press("esc")
        term.press("y")
        term.wait_for("Your turn.", 20)
        term.press("l")
        term.wait_for("Robo's seat is played by a bot from now on (agreed by all).")
        # Hana alone contributes entropy now: the client says so and offers to end the game.
        term.wait_for("only you contribute")
        term.press("esc")
        quit_game(term)


def test_a_player_falling_silent_shows_on_the_screen_without_a_key(tmp_path: Path) -> None:
    robo = tmp_path / "robo"
    with burgundy(tmp_path / "me", "host", "--players", "2", "--name", "Hana", *OFF_LAN,
                  "--gone-after", "600") as term:
        screen = term.wait_for("Others join at 127.0.0.1:")
        port = re.search(r"Others join at 127\.0\.0\.1:(\d+)", screen).group(1)  # type: ignore[union-attr]
        with headless_bot(robo, f"127.0.0.1:{port}", "--name", "Robo", *OFF_LAN) as bot:
            term.wait_for("s starts the game", 20)
            term.press("s")
            term.wait_for("Hana's estate")
            bot.kill()
            bot.wait()
        while True:  # play on until the game needs Robo
            assert term.wait_until(lambda: "use die 1" in term.text
                                   or "waiting for" in term.text, 20), term.text
            if "use die 1" not in term.text:
                break
            play_a_turn(term, "Hana")
        # No key from here: the peer's silence must reach the screen by itself.
        def waiting_pane() -> str:  # the left column, where the status wraps in full
            return " ".join(line[:42].strip() for line in term.screen.display)

        assert term.wait_until(lambda: "(not heard from)" in waiting_pane(), 20), term.text
        quit_game(term)


def test_the_tables_list_shows_a_table_announced_on_loopback_and_joins_it(tmp_path: Path
                                                                         ) -> None:
    zed = tmp_path / "zed"
    name = f"Zed{time.monotonic_ns() % 100000}"
    with headless_bot(zed, "--host", "--players", "2", "--name", name, *LOOPBACK) as bot, \
            burgundy(tmp_path / "me", "play", "--name", "Jo", *LOOPBACK) as term:
        screen = term.wait_for(f"{name} [", 20)
        assert "Tables on the LAN (live):" in screen
        key = re.search(rf"([1-9])  {name} \[", screen).group(1)  # type: ignore[union-attr]
        term.press(key)
        screen = term.wait_for("Press r when you are ready", 20)
        assert f"{name} (host)" in screen and key_fingerprint(zed) in screen
        assert "Jo (you)" in screen and "Table code:" in screen
        term.press("r")
        term.wait_for("Jo's estate", 20)
        bot_said(zed, "game started", bot)
        quit_game(term)


def test_joining_by_a_typed_address_without_mdns(tmp_path: Path) -> None:
    zed = tmp_path / "zed"
    with headless_bot(zed, "--host", "--players", "2", "--name", "Zed", *OFF_LAN) as bot, \
            burgundy(tmp_path / "me", "join", "--name", "Jo", *OFF_LAN) as term:
        port = bot_said(zed, r"hosting at 127\.0\.0\.1:(\d+)", bot).group(1)
        term.wait_for("mDNS is off")
        term.press("a")
        term.wait_for("Address: _")
        term.press(f"127.0.0.1:{port}", "enter")
        screen = term.wait_for("Press r when you are ready", 20)
        assert "Zed (host)" in screen and key_fingerprint(zed) in screen
        term.press("r")
        term.wait_for("Jo's estate", 20)
        quit_game(term)


def test_resume_after_a_crash_brings_back_the_log_and_the_local_bots(tmp_path: Path) -> None:
    with burgundy(tmp_path, "play", "--bots", "1", "--name", "Tess", *OFF_LAN) as term:
        term.wait_for("use die 1", 20)
        play_a_turn(term, "Tess")
        term.wait_for("Your turn. Meanwhile Bot 1 ", 20)
        term.proc.kill()  # the crash: the bot peers in that process go too
        term.wait_exit()
    assert [p.name for p in (tmp_path / "bots").iterdir()] == ["1"]  # the bot's home
    with burgundy(tmp_path, "play", "--resume", *LOOPBACK) as term:
        term.wait_for("use die 1", 20)
        term.press("l")
        term.wait_for("Tess ended the turn.")  # the log is back, from the file
        term.press("esc")
        play_a_turn(term, "Tess")
        term.wait_for("Your turn. Meanwhile Bot 1 ", 20)  # the bot is back and plays
        quit_game(term)


def test_a_game_against_two_local_bots_killed_mid_round_resumes_and_finishes(
    tmp_path: Path,
) -> None:
    with burgundy(tmp_path, "play", "--bots", "2", "--name", "Tess", "--autoplay",
                  *OFF_LAN) as term:
        assert term.wait_until(lambda: game_records(tmp_path) >= 60, timeout=60), term.text
        term.proc.kill()  # well into the game (a whole one is about 200 entries)
        term.wait_exit()
    assert sorted(p.name for p in (tmp_path / "bots").iterdir()) == ["1", "2"]
    # Bot 2's old port is taken by someone else now: it must come back on another one, and
    # the others must find it there (bot 1 gets its old port back).
    [book] = (tmp_path / "bots" / "2").rglob("*.peers")
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as squatter:
        squatter.bind(("127.0.0.1", saved_port(book.with_suffix(".game"))))
        with burgundy(tmp_path, "play", "--resume", "--autoplay", *LOOPBACK) as term:
            assert term.wait_until(lambda: "Final scores" in term.text, timeout=120), term.text
            term.press("q")
            assert term.wait_exit() == 0


@pytest.fixture(scope="module")
def game_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return bot_game(tmp_path_factory.mktemp("replay"), bots=1)[1]


def test_replay_steps_forwards_and_backwards_through_a_network_game(tmp_path: Path,
                                                                   game_file: Path) -> None:
    with burgundy(tmp_path, "replay", str(game_file)) as term:
        screen = term.wait_for("replay: step 0 of ")
        total = int(re.search(r"replay: step 0 of (\d+)", screen).group(1))  # type: ignore[union-attr]
        assert "Ann's estate" in screen
        term.press(">", ">", ">")  # set-up, phase, round: one step each
        term.wait_for(f"replay: step 3 of {total}")
        term.press(">")  # the first turn, all its actions at once
        screen = term.wait_for(" ended the turn.")
        turn_end = int(re.search(r"replay: step (\d+) of", screen).group(1))  # type: ignore[union-attr]
        assert turn_end > 5
        term.press("<", ".")  # back to the turn's start, then its first action
        term.wait_for(f"replay: step 4 of {total}")
        term.press(".", ",")
        term.wait_for(f"replay: step 4 of {total}")
        term.press("G")
        term.wait_for("VP round by round")
        term.press("G")
        term.wait_for(f"replay: step 4 of {total}")
        term.press(END)
        term.wait_for("Final scores")
        term.press(",")
        term.wait_for(f"replay: step {total - 1} of {total}")
        term.press(".")
        term.wait_for("Final scores")
        term.press("q")
        assert term.wait_exit() == 0


@pytest.fixture
def experts_file(experts_game: ExpertsGame) -> Path:
    return experts_game(Setup.EXPERTS_SECRET)[1]


def test_replay_steps_through_an_experts_game_to_its_end(tmp_path: Path,
                                                          experts_file: Path) -> None:
    """The secret set-up choices are turns of one action each; the game goes on after them."""
    with burgundy(tmp_path, "replay", str(experts_file)) as term:
        screen = term.wait_for("replay: step 0 of ")
        total = int(re.search(r"replay: step 0 of (\d+)", screen).group(1))  # type: ignore[union-attr]
        assert total > 300
        term.press(">", ">")  # set-up, the deal
        term.wait_for(f"replay: step 2 of {total}")
        term.press(">")  # the first choice
        screen = term.wait_for(f"replay: step 3 of {total}")
        assert " chose estate " in screen
        term.press(">", ">", ">")  # the second choice, phase A, its first round
        screen = term.wait_for(f"replay: step 6 of {total}")
        assert "Round 1 of phase A" in screen and "record ends" not in screen
        term.press(">")  # the first turn of the game, all its actions
        screen = term.wait_for(" ended the turn.")
        assert int(re.search(r"replay: step (\d+) of", screen).group(1)) > 7  # type: ignore[union-attr]
        term.press(END)
        term.wait_for("Final scores")
        term.press("q")
        assert term.wait_exit() == 0


def test_a_bad_replay_file_is_one_clear_line(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    garbage = tmp_path / "garbage.game"
    garbage.write_bytes(b"not a game")
    empty = tmp_path / "empty.game"
    empty.write_bytes(FILE_MAGIC)
    cases = [(garbage, "not a p2p-burgundy game file"),
             (tmp_path / "missing.game", "cannot read"),
             (empty, "no valid start entry")]
    for path, why in cases:
        assert main(["replay", str(path)]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("burgundy replay: ") and why in err
    assert main(["replay"]) == 2
    assert "GAMEFILE" in capsys.readouterr().err


def drain(*terms: PtyTerminal) -> None:
    """Read what the other terminals drew meanwhile, so that none blocks on a full pty."""
    for term in terms:
        term.wait_until(lambda: False, 0.05)


def test_resigning_by_keys_shows_on_the_other_screen_and_the_last_player_ends_the_game(
        tmp_path: Path) -> None:
    with burgundy(tmp_path / "hana", "host", "--players", "2", "--name", "Hana",
                  *OFF_LAN) as hana:
        screen = hana.wait_for("Others join at 127.0.0.1:")
        port = re.search(r"Others join at 127\.0\.0\.1:(\d+)", screen).group(1)  # type: ignore[union-attr]
        with burgundy(tmp_path / "jo", "join", "--name", "Jo", *OFF_LAN) as jo:
            jo.wait_for("mDNS is off")
            jo.press("a")
            jo.wait_for("Address: _")
            jo.press(f"127.0.0.1:{port}", "enter")
            jo.wait_for("Press r when you are ready", 20)
            jo.press("r")
            hana.wait_for("s starts the game", 20)
            hana.press("s")
            hana.wait_for("Hana's estate", 20)
            jo.wait_for("Jo's estate", 20)
            jo.press("R")
            jo.wait_for("Resign? A bot plays your seat from now on. (y/n)")
            jo.press("y")
            # The news is on Jo's message line until the next replaces it, and in the log.
            jo.press("l")
            jo.wait_for("You resigned: a bot plays your seat from now on.", 20)
            jo.press("esc")
            # No key on Hana's side: the news reaches her screen by itself (on the message
            # line, until the next news replaces it: her own turn may come at once).
            assert hana.wait_until(lambda: b"Jo resigned: a bot plays that seat" in hana.output,
                                   20), hana.text
            drain(jo)
            for _ in range(3):  # until the game needs Jo's seat: then Hana is the last left
                hana.press("l")
                if hana.wait_until(lambda: "only you contribute" in hana.text, 3):
                    break
                hana.press("esc")
                drain(jo)
                if hana.wait_until(lambda: "use die 1" in hana.text, 20):
                    play_a_turn(hana, "Hana")
            assert "only you contribute" in hana.text, hana.text
            hana.press("esc")
            hana.press("R")
            hana.wait_for("End the game here, as the winner")
            hana.press("y")
            hana.wait_for("Hana, the only player left, ended it and wins", 20)
            assert jo.wait_until(lambda: "ended it and wins" in jo.text, 20), jo.text
            jo.press("q")
            assert jo.wait_exit() == 0
            assert "burgundy play --resume" not in jo.output.decode(errors="replace")
        hana.press("q")
        assert hana.wait_exit() == 0
    files = list((tmp_path / "jo" / "games").glob("*.game"))
    assert len(files) == 1
    # The resigned seat, opened again, is read-only: no resigning, no chat, no turn.
    with burgundy(tmp_path / "jo", "play", "--resume", str(files[0]), *LOOPBACK) as again:
        screen = again.wait_for("ended it and wins", 20)
        assert "c chat" not in screen and "R resign" not in screen
        again.press("R")
        again.wait_for("R does nothing here")
        again.press("q")
        assert again.wait_exit() == 0


def test_the_host_page_switches_each_module_on_its_own(tmp_path: Path) -> None:
    with burgundy(tmp_path, "play", "--name", "Hana", *OFF_LAN) as term:
        term.wait_for("host a new table")
        term.press("h")
        screen = term.wait_for("Modules:")
        assert "[ ] extra-tiles" in screen and "its area scores one size bigger" in screen
        term.press("down", "down", " ")  # the third module: inns
        screen = term.wait_for("[x] inns")
        assert "[ ] extra-tiles" in screen and "[ ] trade-routes" in screen
        term.press("down", " ")
        term.wait_for("[x] trade-routes")
        term.press("enter")
        screen = term.wait_for("Others join at 127.0.0.1:")
        assert "With inns, trade-routes" in screen
        term.press("q")
        assert term.wait_exit() == 0


@pytest.mark.slow
def test_a_game_clock_on_the_status_line_and_a_player_out_of_time_handed_over(
        tmp_path: Path) -> None:
    robo = tmp_path / "robo"
    with burgundy(tmp_path / "me", "host", "--players", "2", "--name", "Hana", *OFF_LAN,
                  "--clock", "0.1+1") as term:
        screen = term.wait_for("Others join at 127.0.0.1:")
        assert "A clock of 0.1 min each + 1 s a turn" in screen  # everyone sees the rule
        port = re.search(r"Others join at 127\.0\.0\.1:(\d+)", screen).group(1)  # type: ignore[union-attr]
        with headless_bot(robo, f"127.0.0.1:{port}", "--name", "Robo", *OFF_LAN) as bot:
            term.wait_for("s starts the game", 20)
            term.press("s")
            term.wait_for("use die 1", 20)  # our turn: our clock runs, Robo's does not
            status = term.screen.display[0]
            assert re.search(r"\| >P1 0:0[1-6] P2 0:0[5-9] \|", status), status
            # No key: our 6 seconds run out, and Robo's bot hands our seat to the stand-in
            # (the game then goes on fast: the clocks are gone with it by the time it is
            # over).
            assert term.wait_until(lambda: re.search(r"\| >P1 0:0[0-2] ",
                                                     term.screen.display[0]) is not None,
                                   10), term.text
            term.wait_for("the other players handed your seat to a bot", 20)
            assert ">P1" not in term.screen.display[0]
            bot_said(robo, r"game over", bot, timeout=60)
        term.press("q")
        assert term.wait_exit() == 0
    # The clock as Hana's computer measured it is kept beside the game, for --resume.
    game = next((tmp_path / "me" / "games").glob("*.game"))
    used, out = msgpack.unpackb(game.with_suffix(".clock").read_bytes())
    assert used[0] >= 5.0 and out in ([], [0]) and len(used) == 2  # out: which clock first
