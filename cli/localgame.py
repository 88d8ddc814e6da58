"""Local games on disk: ``burgundy solo`` and ``burgundy play --local`` are saved as they go.

A game played with no network (the solo game, or against bots in this process) is written
after every step to ``<data dir>/local/<id>.local``, apart from the networked games in
``games/`` (so ``burgundy play --resume`` alone still means the latest networked game). The
file is rewritten whole each time, atomically: a temporary file beside it is written and
flushed to disk, then renamed over it, so a crash at any moment leaves either the previous
save or the new one, never a mix.

A file is ``MAGIC`` (its last byte the format version), then the canonical msgpack of
``[names, seed, strategy, [[step, text]...], resigned, record, [action...]]``, then the
CRC-32 of all that (4 bytes, big-endian). ``record`` is the engine's
:class:`~p2p_burgundy.record.GameRecord` (config, the entropy of every chance event, every
action, the state hash after every step); ``step`` places a chat line after that many steps;
the last list is the player's turn under way, as far as it was chosen (the actions'
canonical trees: nothing of a turn left half done is lost); ``strategy`` names the bots'
strategy and ``seed`` is where the dice and the bots' seeds come from
(``sim.chance_entropy``), so a resumed game goes on exactly as it would have.

>>> from p2p_burgundy import Edition, GameConfig
>>> from p2p_burgundy.record import Recorder
>>> saved = SavedGame(("Ann",), 7, "greedy", Recorder(GameConfig(1, Edition.E2019)).record())
>>> decode(encode(saved)) == saved
True
>>> decode(b"P2PBURGUNDY-GAME\\x00\\x02...")
Traceback (most recent call last):
...
p2p_burgundy.cli.localgame.LocalGameError: a networked game's file (burgundy play --resume FILE \
resumes it), not a local game
"""

from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import msgpack

from p2p_burgundy import Action, EngineError, GameState, Turn, action_from_tree, new_game
from p2p_burgundy.chance import Draw
from p2p_burgundy.net.log import FILE_MAGIC
from p2p_burgundy.record import GameRecord

from .files import MAX_GAME_FILE, read_input, read_start, write_atomically
from .sim import MAX_SEED, chance_entropy

LOCAL_DIR = "local"
SUFFIX = ".local"
FORMAT_VERSION = 1
MAGIC = b"P2PBURGUNDY-LOCAL\x00" + bytes([FORMAT_VERSION])
_CHECKSUM = struct.Struct(">I")
_NETWORKED_MAGIC = FILE_MAGIC[:-1]  # any version of a networked game's file


class LocalGameError(Exception):
    """A file that holds no local game this version can resume (the message says why)."""


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A local game as saved: who plays (seat 0 is the player, the others bots of
    ``strategy``), the ``seed`` it is dealt from, the engine's record of every step, the
    chat lines (each after that many steps), whether the player resigned, and the player's
    turn under way (the choices made so far)."""

    names: tuple[str, ...]
    seed: int
    strategy: str
    record: GameRecord
    chat: tuple[tuple[int, str], ...] = ()
    resigned: bool = False
    draft: tuple[Action, ...] = ()

    @property
    def solo(self) -> bool:
        return self.record.config.solo

    def final_state(self) -> GameState:
        """The game where it stopped (see :meth:`steps`)."""
        steps = self.steps()
        return steps[-1][1] if steps else new_game(self.record.config)

    def steps(self) -> list[tuple[Draw | Turn, GameState]]:
        """The game step by step (``GameRecord.steps``: what each chance event drew, each turn
        with the state after each action), every step checked against the record's state
        hashes, every chance event against the seed and the turn under way against the game;
        LocalGameError naming the step if one fails."""
        for index, entropy in enumerate(self.record.entropy):
            if entropy != chance_entropy(self.seed, 0, index):
                raise LocalGameError(f"damaged: chance event {index} was not dealt from "
                                     f"seed {self.seed}")
        try:
            steps = self.record.steps()
        except EngineError as exc:  # RecordError: the step that does not replay
            raise LocalGameError(f"damaged: {exc}") from None
        state = steps[-1][1] if steps else new_game(self.record.config)
        if self.draft and state.to_move != 0:
            raise LocalGameError("damaged: a turn under way, but not the player's turn")
        try:
            Turn.of(state, self.draft)
        except EngineError as exc:
            raise LocalGameError(f"damaged: the turn under way does not apply: {exc}") from None
        return steps

    def finished(self) -> bool:
        """Whether there is nothing left to play (the game is over, or the player resigned)."""
        return self.resigned or self.final_state().is_over


def encode(saved: SavedGame) -> bytes:
    """The bytes of a local game file."""
    body: bytes = msgpack.packb(
        [list(saved.names), saved.seed, saved.strategy,
         [[step, text] for step, text in saved.chat], saved.resigned,
         saved.record.to_bytes(), [a.to_tree() for a in saved.draft]], use_bin_type=True)
    data = MAGIC + body
    return data + _CHECKSUM.pack(zlib.crc32(data))


def decode(data: bytes) -> SavedGame:
    """The game in a local game file's bytes; LocalGameError saying what is wrong (the
    steps themselves are checked by :meth:`SavedGame.final_state`)."""
    if not data.startswith(MAGIC):
        if data.startswith(_NETWORKED_MAGIC):
            raise LocalGameError("a networked game's file (burgundy play --resume FILE "
                                 "resumes it), not a local game")
        if data.startswith(MAGIC[:-1]) and len(data) >= len(MAGIC):
            raise LocalGameError(f"a local game file of format version {data[len(MAGIC) - 1]}; "
                                 f"this version reads {FORMAT_VERSION}")
        raise LocalGameError("not a p2p-burgundy local game file")
    if len(data) < len(MAGIC) + _CHECKSUM.size or \
            _CHECKSUM.unpack(data[-_CHECKSUM.size:])[0] != zlib.crc32(data[:-_CHECKSUM.size]):
        raise LocalGameError("damaged: its checksum does not match (cut short or changed)")
    try:
        tree = msgpack.unpackb(data[len(MAGIC):-_CHECKSUM.size], raw=False,
                               strict_map_key=True)
    except Exception as exc:  # msgpack raises several unrelated types
        raise LocalGameError(f"damaged: {exc}") from None
    if not (isinstance(tree, list) and len(tree) == 7):
        raise LocalGameError("damaged: a local game is 7 fields")
    names, seed, strategy, chat, resigned, record, draft = tree
    if not (isinstance(names, list) and names and all(isinstance(n, str) for n in names)
            and type(seed) is int and 0 <= seed <= MAX_SEED and isinstance(strategy, str)
            and isinstance(chat, list) and type(resigned) is bool
            and isinstance(record, bytes) and isinstance(draft, list)):
        raise LocalGameError("damaged: a field has the wrong type")
    if not all(isinstance(c, list) and len(c) == 2 and type(c[0]) is int
               and isinstance(c[1], str) for c in chat):
        raise LocalGameError("damaged: a chat line is [step, text]")
    try:
        game = GameRecord.from_bytes(record)
        turn = tuple(action_from_tree(a) for a in draft)
    except EngineError as exc:
        raise LocalGameError(f"damaged: {exc}") from None
    if len(names) != game.config.players:
        raise LocalGameError(f"damaged: {len(names)} names for {game.config.players} players")
    return SavedGame(tuple(names), seed, strategy, game,
                     tuple((step, text) for step, text in chat), resigned, turn)


def save(path: Path, saved: SavedGame) -> None:
    """Write ``saved`` to ``path`` atomically (temporary file, fsync, rename); OSError if
    the disk refuses (the previous save is then left as it was)."""
    write_atomically(path, encode(saved))


def load(path: Path) -> SavedGame:
    """The game saved in ``path``, every step checked; LocalGameError (or OSError) if it
    cannot be resumed."""
    saved = decode(read_input(path, limit=MAX_GAME_FILE))
    saved.final_state()
    return saved


def is_local_game(path: Path) -> bool:
    """Whether ``path`` is a local game file (by its first bytes; unreadable: False)."""
    try:
        return read_start(path, len(MAGIC) - 1) == MAGIC[:-1]
    except OSError:
        return False


def is_game_file(path: Path) -> bool:
    """Whether ``path`` is a game file, local or networked, of any format version (by its
    first bytes; unreadable: False)."""
    try:
        start = read_start(path, len(MAGIC))
    except OSError:
        return False
    return start.startswith((MAGIC[:-1], _NETWORKED_MAGIC))


def local_dir(home: Path) -> Path:
    return home / LOCAL_DIR


def new_path(home: Path) -> Path:
    """Where a new local game is saved: ``<data dir>/local/<16 random bytes hex>.local``
    (named like a networked game's file)."""
    return local_dir(home) / f"{os.urandom(16).hex()}{SUFFIX}"


def latest_unfinished(home: Path, solo: bool) -> Path:
    """The most recently saved local game in ``home`` (a solo game, or one against bots)
    that is not over; LocalGameError if there is none or the latest cannot be read."""
    paths = sorted(local_dir(home).glob(f"*{SUFFIX}"), key=_mtime, reverse=True)
    for path in paths:
        try:
            saved = decode(read_input(path, limit=MAX_GAME_FILE))
            if saved.solo == solo and not saved.finished():
                return path
        except (OSError, LocalGameError) as exc:
            raise LocalGameError(f"the latest local game, {path}, cannot be read ({exc}); "
                                 "name another game file") from None
    what = "solo game" if solo else "local game against bots"
    raise LocalGameError(f"no unfinished {what} in {local_dir(home)}")


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def describe(names: Sequence[str], solo: bool) -> str:
    """What kind of local game this is, for messages: "solo game" or "game against 2 bots".

    >>> describe(["Ann", "Bot 1", "Bot 2"], solo=False)
    'game against 2 bots'
    """
    if solo:
        return "solo game"
    bots = len(names) - 1
    return f"game against {bots} bot{'s' if bots != 1 else ''}"


__all__ = ["LOCAL_DIR", "MAGIC", "LocalGameError", "SavedGame", "decode", "describe", "encode",
           "is_game_file", "is_local_game", "latest_unfinished", "load", "local_dir", "new_path",
           "save"]
