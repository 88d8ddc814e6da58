"""Every ``burgundy`` command the README shows is a command line ``burgundy`` accepts as
shown, its placeholders (``GAME_FILE``, ``turns.json``, ``N``...) filled with real files and
values; the ``[...]`` options and ``a|b`` alternatives each on their own."""

from __future__ import annotations

import itertools
import json
import re
import shlex
import zlib
from pathlib import Path

import pytest

from p2p_burgundy.cli.main import parse
from p2p_burgundy.cli.script import export_turns
from p2p_burgundy.net.audit import audit_file
from p2p_burgundy.net.inmemory import Table
from p2p_burgundy.net.log import _RECORD_HEADER, FILE_MAGIC
from tests.engine.test_estates import _own

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_commands() -> list[str]:
    """The ``burgundy ...`` commands of the README: code spans and indented lines."""
    text = README.read_text()
    spans = re.findall(r"`(burgundy [^`]*)`", text)
    blocks = [line.strip() for line in text.splitlines()
              if line.startswith("    burgundy ")]
    # a shell's redirection of the output is not the command's
    return sorted({re.sub(r" > \S+$", "", command) for command in spans + blocks})


def variants(command: str) -> list[str]:
    """``command`` with each ``[...]`` left out and put in, and each ``a|b`` as a and b."""
    optional = re.findall(r" \[([^\]]*)\]", command)
    forms = []
    for keep in itertools.product((False, True), repeat=len(optional)):
        form = command
        for part, kept in zip(optional, keep, strict=True):
            form = form.replace(f" [{part}]", f" {part}" if kept else "", 1)
        forms.append(form)
    out = []
    for form in forms:
        choices = [word.split("|") if "|" in word and not word.startswith('"') else [word]
                   for word in shlex.split(form)]
        out += [shlex.join(words) for words in itertools.product(*choices)]
    return out


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("readme")
    table = Table(2, seed=31)
    table.play(turns=6)
    game = folder / "g.game"
    game.write_bytes(FILE_MAGIC + b"".join(_RECORD_HEADER.pack(len(r), zlib.crc32(r)) + r
                                           for r in table.files[1]))
    turns = folder / "turns.json"
    turns.write_text(json.dumps(export_turns(audit_file(game.read_bytes()))))
    board = folder / "board.json"
    board.write_text(json.dumps(_own()))
    return {"GAME_FILE": str(game), "GAMEFILE": str(game), "FILE": str(game),
            "turns.json": str(turns), "board.json": str(board), "N": "3", "S": "7", "STEP": "3",
            "YEAR": "2019", "TABLE": "some-table", "HOST:PORT": "127.0.0.1:47001", "PORT": "47001"}


NAMED_IN_PROSE = {"burgundy verify", "burgundy solo --estate-file"}
"""Spans that name a command in a sentence ("`burgundy verify` prints the same warning")."""
COMMANDS = [form for command in readme_commands() if command not in NAMED_IN_PROSE
            for form in variants(command)]


def test_the_readme_shows_commands() -> None:
    assert "burgundy play" in COMMANDS and "burgundy replay GAME_FILE" in COMMANDS
    assert "burgundy learn --restart" in COMMANDS and "burgundy learn" in COMMANDS
    assert len(COMMANDS) > 40


@pytest.mark.parametrize("command", COMMANDS)
def test_every_readme_command_is_accepted_as_shown(
        command: str, files: dict[str, str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    if "mybot:MyBot" in command:  # a strategy of one's own: a module in the current folder
        (tmp_path / "mybot.py").write_text(
            "class MyBot:\n    name = 'mine'\n\n    def __init__(self, seed=0): pass\n\n"
            "    def choose(self, state, actions):\n        return actions[0]\n")
        monkeypatch.chdir(tmp_path)
        monkeypatch.syspath_prepend(str(tmp_path))
    words = [files.get(word, word) for word in shlex.split(command)[1:]]
    if "--interface" in words:
        words[words.index("--interface") + 1] = "127.0.0.1"
    try:
        parse(words)
    except SystemExit as exc:  # 0: --version or --help, answered while parsing
        if exc.code != 0:
            pytest.fail(f"{command}: refused (exit {exc.code})")
