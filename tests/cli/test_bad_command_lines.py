"""Every bad command line ends with one line naming what is wrong, a non-zero exit status and
no traceback; nothing is created or sent. Each case runs ``burgundy`` as a real process (no
terminal, stdin closed), as a user would meet it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# Nothing here may reach the network: every networked command is given --no-mdns or a
# loopback --interface, and no host name needs a name server.
CASES: list[tuple[str, list[str], str]] = [
    ("unknown option before the command", ["--frobnicate"], "--frobnicate"),
    ("no command", [], "command"),
    ("unknown command", ["plya"], "'plya'"),
    ("sim: too many players", ["sim", "--players", "5"], "not 5"),
    ("sim: no games", ["sim", "--games", "0"], "not 0"),
    ("sim: games not a number", ["sim", "--games", "x"], "'x'"),
    ("sim: negative seed", ["sim", "--seed", "-1"], "not -1"),
    ("sim: unknown strategy", ["sim", "--bots", "foo,bar"], "'foo'"),
    ("sim: bots for the wrong count", ["sim", "--players", "3", "--bots", "greedy,greedy"],
     "2 bots for 3 players"),
    ("sim: NaN seconds", ["sim", "--think", "nan"], "not nan"),
    ("sim: unknown edition", ["sim", "--edition", "1999"], "'1999'"),
    ("sim: unknown estate", ["sim", "--estate", "99"], "'99'"),
    ("sim: no jobs", ["sim", "--jobs", "0"], "not 0"),
    ("sim: strategy module missing", ["sim", "--bots", "no_such_module_x:Bot,greedy"],
     "no_such_module_x"),
    ("verify: no file given", ["verify"], "GAMEFILE"),
    ("verify: missing file", ["verify", "{tmp}/nonexistent.game"], "nonexistent.game"),
    ("verify: a folder", ["verify", "{tmp}"], "a folder, not a file"),
    ("replay: missing file", ["replay", "{tmp}/nonexistent.game"], "nonexistent.game"),
    ("replay: not a game file", ["replay", "{tmp}/notes.txt"], "notes.txt"),
    ("estates: unknown edition", ["estates", "--edition", "1999"], "'1999'"),
    ("bot: port out of range in an address", ["bot", "--no-mdns", "127.0.0.1:99999"],
     "99999"),
    ("bot: impossible IPv4 address", ["bot", "--no-mdns", "999.1.1.1:99"], "999.1.1.1"),
    ("bot: address with no host", ["bot", "--no-mdns", ":4000"], "':4000'"),
    ("bot: a table name with mDNS off", ["bot", "--no-mdns", "some-table"], "host:port"),
    ("bot: unknown strategy", ["bot", "--strategy", "nope"], "'nope'"),
    ("bot: too many players", ["bot", "--host", "--players", "7"], "7"),
    ("bot: a clock at a table it joins", ["bot", "--no-mdns", "--clock", "10+5"],
     "only with --host"),
    ("bot: a clock of no time", ["bot", "--host", "--clock", "0"], "1 to 86400 seconds"),
    ("host: a clock that is not minutes+seconds", ["host", "--clock", "ten"], "MINUTES[+SECONDS]"),
    ("host: a clock with a fraction of a second a turn", ["host", "--clock", "10+0.5"],
     "not '10+0.5'"),
    ("bot: port too high", ["bot", "--port", "70000"], "not 70000"),
    ("bot: negative port", ["bot", "--port", "-1"], "not -1"),
    ("bot: negative time-out", ["bot", "--timeout", "-3"], "not -3"),
    ("bot: empty name", ["bot", "--no-mdns", "--name", ""], "''"),
    ("bot: unknown colour", ["bot", "--colour", "purple"], "'purple'"),
    ("bot: resume a missing file", ["bot", "--no-mdns", "--resume", "{tmp}/gone.game"],
     "gone.game"),
    ("bot: resume a file that is not a game", ["bot", "--no-mdns", "--interface", "127.0.0.1",
                                               "--resume", "{tmp}/notes.txt"], "notes.txt"),
    ("tables: interface not on this computer", ["tables", "--interface", "10.9.9.9"],
     "10.9.9.9"),
    ("tables: interface not an address", ["tables", "--interface", "notanip"], "'notanip'"),
    ("tables: negative wait", ["tables", "--wait", "-1"], "not -1"),
    ("play: resume a missing file", ["play", "--resume", "{tmp}/gone.game"], "gone.game"),
    ("play: no terminal", ["play", "--local"], "needs a terminal"),
    ("host: too many players", ["host", "--players", "9"], "9"),
    ("join: interface not on this computer", ["join", "--interface", "10.9.9.9"], "10.9.9.9"),
]


def run_burgundy(args: list[str], home: Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, P2P_BURGUNDY_HOME=str(home / "home"), PYTHONUNBUFFERED="1")
    return subprocess.run([sys.executable, "-m", "p2p_burgundy.cli.main", *args], text=True,
                          env=env, stdin=subprocess.DEVNULL, timeout=60, **kwargs)  # type: ignore[call-overload]


@pytest.mark.parametrize(("args", "names"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_bad_command_line_gets_one_line_naming_it_and_a_failing_status(
    tmp_path: Path, args: list[str], names: str
) -> None:
    (tmp_path / "notes.txt").write_text("not a game\n")
    before = sorted(tmp_path.rglob("*"))
    result = run_burgundy([a.format(tmp=tmp_path) for a in args], tmp_path,
                          capture_output=True)
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "Traceback" not in output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, output
    assert names in lines[0]
    created = [p for p in sorted(tmp_path.rglob("*")) if p not in before]
    assert not [p for p in created if p.suffix == ".game"], created


def test_a_closed_output_pipe_ends_quietly_with_a_failing_status(tmp_path: Path) -> None:
    """``burgundy estates --layout | head -1``: the reader goes away before we write."""
    env = dict(os.environ, P2P_BURGUNDY_HOME=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "p2p_burgundy.cli.main", "estates",
                             "--layout"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before the program has started writing
    stderr = proc.stderr.read().decode()
    assert proc.wait(60) != 0
    assert stderr == ""
