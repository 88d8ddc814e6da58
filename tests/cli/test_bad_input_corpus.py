"""Whatever a user hands ``burgundy`` (a file that is empty, cut short, binary, a folder,
unreadable, huge, a named pipe or a device; a closed stdin or stdout; a full disk; a
read-only data folder; an odd environment), every command ends in time with a sentence,
never a traceback; an error never exits 0; and no file is changed that the user did not
name as the output, a game file never.

Each case is a real process (:mod:`tests.cli.forked`), several at a time."""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2p_burgundy.cli import localgame
from p2p_burgundy.cli.tui.table import LocalTable
from p2p_burgundy.net.inmemory import Table
from p2p_burgundy.net.log import _RECORD_HEADER, FILE_MAGIC
from tests.cli.forked import TRACEBACK_EXIT, Case, Run, run_all

NET = ("--no-mdns", "--interface", "127.0.0.1")
"""Nothing here reaches beyond this computer."""

BAD_INPUTS = ("empty", "cut.game", "cut.local", "binary", "folder", "unreadable", "huge",
              "pipe", "/dev/zero", "/dev/null", "deep.json", "cut.json")
"""Files that are not what a command wants (names in the fixtures folder, or devices)."""

READING_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("replay", "{f}"),
    ("replay", "{f}", "--export-turns", "-"),
    ("verify", "{f}"),
    ("verify", "{f}", "--json"),
    ("play", "--resume", "{f}"),
    ("play", "--local", "--resume", "{f}"),
    ("solo", "--resume", "{f}"),
    ("bot", *NET, "--resume", "{f}"),
    ("bot", *NET, "--moves", "{f}", "127.0.0.1:9"),
    ("sim", "--estate-file", "{f}"),
    ("solo", "--estate-file", "{f}"),
    ("host", "--estate-file", "{f}"),
    ("bot", *NET, "--host", "--estate-file", "{f}"),
)
"""Every command that reads a file the user names, with ``{f}`` where the file goes."""

REPAIRS = ("bot", *NET, "--resume", "{f}")
"""A peer resuming a networked game's file cuts a torn tail off it (as after a crash, where
the last entry was being written): it is given a copy."""

SUCCEEDS = {
    # A game file cut short is an unfinished game (a crash mid-write): its turns so far.
    (("replay", "{f}", "--export-turns", "-"), "cut.game"),
}


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("inputs")
    table = Table(2, seed=31)
    table.play(turns=6)
    game = FILE_MAGIC + b"".join(_RECORD_HEADER.pack(len(r), zlib.crc32(r)) + r
                                 for r in table.files[1])
    (folder / "net.game").write_bytes(game)
    local = localgame.encode(LocalTable.new("Ann", bots=1, seed=3).saved())
    (folder / "mine.local").write_bytes(local)
    (folder / "empty").write_bytes(b"")
    (folder / "cut.game").write_bytes(game[:len(game) // 2])
    (folder / "cut.local").write_bytes(local[:40])
    (folder / "binary").write_bytes(hashlib.sha512(b"x").digest() * 40)
    (folder / "folder").mkdir()
    (folder / "unreadable").write_bytes(game)
    (folder / "unreadable").chmod(0)
    with open(folder / "huge", "wb") as huge:  # sparse: 3 GB that take no disk
        huge.truncate(3 << 30)
    os.mkfifo(folder / "pipe")
    (folder / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (folder / "cut.json").write_text('{"format": "p2p-burgundy/turns", "turns": [')
    (folder / "notes.txt").write_text("my own notes\n")
    (folder / "read-only").mkdir()
    (folder / "read-only").chmod(0o555)
    yield folder
    (folder / "read-only").chmod(0o755)


def snapshot(*folders: Path) -> dict[str, tuple[int, str]]:
    """Every file under ``folders``: its mode and a hash of what it holds."""
    found = {}
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            info = path.lstat()
            if stat.S_ISREG(info.st_mode) and info.st_size < 1 << 20:
                digest = hashlib.sha256(path.read_bytes()).hexdigest() \
                    if info.st_mode & 0o444 else "unread"
            else:
                digest = str(info.st_size) if stat.S_ISREG(info.st_mode) else ""
            found[str(path)] = (info.st_mode, digest)
    return found


def judge(run: Run, *, ok: bool = False) -> list[str]:
    """What is wrong with how ``run`` ended."""
    wrong = []
    if run.code is None:
        wrong.append("did not end in time")
    elif run.code == TRACEBACK_EXIT or "Traceback" in run.err:
        wrong.append("a traceback")
    elif not ok and run.code == 0:
        wrong.append("exit 0 on an error")
    elif not ok and not (run.err.strip() or run.out.strip()):
        wrong.append("an error with nothing said")
    return [f"{w}: {run}" for w in wrong]


def home_env(home: Path) -> dict[str, str | None]:
    return {"P2P_BURGUNDY_HOME": str(home)}


def test_every_command_refuses_every_bad_file_with_a_sentence(
        fixtures: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    cases, names = [], []
    copies = tmp_path / "copies"
    copies.mkdir()
    shutil.copy(fixtures / "cut.game", copies)
    for command in READING_COMMANDS:
        for name in BAD_INPUTS:
            folder = copies if command == REPAIRS and name == "cut.game" else fixtures
            path = name if name.startswith("/") else str(folder / name)
            argv = [part.format(f=path) for part in command]
            cases.append(Case(argv, env=home_env(home)))
            names.append((command, name))
    before = snapshot(fixtures)
    runs = run_all(cases, tmp_path / "runs")
    wrong = [w for run, key in zip(runs, names, strict=True)
             for w in judge(run, ok=key in SUCCEEDS)]
    assert not wrong, "\n\n".join(wrong)
    assert snapshot(fixtures) == before
    # Each names what it was given, and what is wrong with it.
    said = {(key[1], run.argv[0]): run.err for run, key in zip(runs, names, strict=True)}
    assert "a folder, not a file" in said[("folder", "replay")]
    assert "a folder, not a file" in said[("folder", "play")]
    assert "not a regular file (a device or a named pipe)" in said[("pipe", "verify")]
    assert "not a regular file" in said[("/dev/zero", "replay")]
    assert "too big (3221225472 bytes" in said[("huge", "verify")]
    assert "Permission denied" in said[("unreadable", "replay")]
    assert "nested too deeply" in said[("deep.json", "sim")]


def test_an_export_never_writes_over_the_game_or_any_game_file(
        fixtures: Path, tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    game = mine / "g.game"
    game.write_bytes((fixtures / "net.game").read_bytes())
    other = mine / "other.game"
    other.write_bytes((fixtures / "net.game").read_bytes())
    local = mine / "mine.local"
    local.write_bytes((fixtures / "mine.local").read_bytes())
    link = mine / "link.json"
    link.symlink_to(game)
    targets = [str(game), str(other), str(local), str(link), "/dev/full",
               str(fixtures / "folder"), str(fixtures / "read-only" / "turns.json")]
    before = snapshot(mine, fixtures)
    runs = run_all([Case(["replay", str(game), "--export-turns", target],
                         env=home_env(tmp_path / "home")) for target in targets],
                   tmp_path / "runs")
    wrong = [w for run in runs for w in judge(run)]
    assert not wrong, "\n\n".join(wrong)
    assert snapshot(mine, fixtures) == before
    assert "not writing the turns to" in runs[0].err
    assert "it is the game file being read" in runs[0].err
    assert "it is a game file (the only record of its game)" in runs[1].err
    assert "it is a game file" in runs[2].err
    assert "it is the game file being read" in runs[3].err
    # A file the user names that is not a game file is the output, as asked.
    notes = mine / "turns.json"
    notes.write_text("old\n")
    [run] = run_all([Case(["replay", str(game), "--export-turns", str(notes)])],
                    tmp_path / "again")
    assert run.code == 0 and notes.read_text().startswith("{"), run


def test_closed_streams_and_a_full_disk_end_with_a_failing_status(
        fixtures: Path, tmp_path: Path) -> None:
    game = str(fixtures / "net.game")
    env = home_env(tmp_path / "home")
    no_stdin = [Case(argv, stdin=None, env=env) for argv in (
        ["learn"], ["solo"], ["play", "--local"], ["replay", game], ["host"], ["join", *NET])]
    no_stdout = [Case(argv, stdout=None, env=env) for argv in (
        ["estates"], ["sim"], ["verify", game], ["--help"], ["replay", game, "--export-turns",
                                                             "-"])]
    full = [Case(argv, stdout="/dev/full", env=env) for argv in (
        ["--help"], ["sim", "--help"], ["sim", "--json"], ["sim"], ["estates", "--layout"],
        ["verify", game], ["verify", game, "--json"], ["replay", game, "--export-turns", "-"])]
    before = snapshot(fixtures)
    runs = run_all(no_stdin + no_stdout + full, tmp_path / "runs")
    wrong = [w for run in runs for w in judge(run)]
    assert not wrong, "\n\n".join(wrong)
    assert snapshot(fixtures) == before
    assert all("needs a terminal" in run.err for run in runs[:len(no_stdin)])
    assert all("standard output is closed" in run.err
               for run in runs[len(no_stdin):len(no_stdin) + len(no_stdout)])
    assert all("No space left on device" in run.err for run in runs[-len(full):])


def test_odd_data_folders_and_environments_get_a_sentence(
        fixtures: Path, tmp_path: Path) -> None:
    """The data folder a file, read-only, unreadable, a pipe; no HOME; a C locale."""
    a_file = fixtures / "notes.txt"
    read_only = fixtures / "read-only"
    cases = []
    for home in (a_file, read_only, fixtures / "unreadable", fixtures / "pipe"):
        for argv in (["play", "--local", "--resume"], ["solo", "--resume"],
                     ["bot", *NET, "--resume"], ["bot", *NET, "127.0.0.1:9", "--timeout", "1"],
                     ["learn"]):
            cases.append(Case(argv, env=home_env(home)))
            cases.append(Case([*argv, "--home", str(home)], env=home_env(tmp_path / "h")))
    for env in ({"HOME": None, "P2P_BURGUNDY_HOME": None, "XDG_DATA_HOME": None},
                {"XDG_DATA_HOME": str(a_file), "P2P_BURGUNDY_HOME": None},
                {"LANG": "C", "LC_ALL": "C", "P2P_BURGUNDY_HOME": str(tmp_path / "h")},
                {"TERM": None, "P2P_BURGUNDY_HOME": str(tmp_path / "h")}):
        for argv in (["play", "--local", "--resume"], ["solo", "--resume"], ["learn"]):
            cases.append(Case(argv, env=env))
    # The latest game looked for in a data folder whose games are a pipe, a folder, a huge
    # file and a device's link: each passed over, none read.
    odd = tmp_path / "odd"
    for folder, suffix in (("games", ".game"), ("local", ".local")):
        (odd / folder).mkdir(parents=True)
        os.mkfifo(odd / folder / f"a{suffix}")
        (odd / folder / f"b{suffix}").mkdir()
        with open(odd / folder / f"c{suffix}", "wb") as huge:
            huge.truncate(3 << 30)
        (odd / folder / f"d{suffix}").symlink_to("/dev/zero")
    for argv in (["play", "--local", "--resume"], ["solo", "--resume"],
                 ["bot", *NET, "--resume"]):
        cases.append(Case(argv, env=home_env(odd)))
    before = snapshot(fixtures)
    runs = run_all(cases, tmp_path / "runs")
    wrong = [w for run in runs for w in judge(run)]
    assert not wrong, "\n\n".join(wrong)
    assert snapshot(fixtures) == before
