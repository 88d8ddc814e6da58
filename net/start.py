"""The START entry: who sits at the table, the config, and what fixes the game before its
first entry (docs/protocol.md, "Kinds and payloads").

Every player gives the game id fresh random bytes (its contribution), so no member chooses
it; each accepts the game by signing :func:`start_digest` with the tip of its beacon chain
(:func:`game_chain`), which the game id decides. The host signs the START entry
(:func:`make_start`); every peer checks it completely (:func:`parse_start`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeGuard

from p2p_burgundy import EngineError, GameConfig

from . import wire
from .beacon import LINK_SIZE, HashChain
from .errors import LocalProtocolError, RemoteProtocolError
from .identity import PUBLIC_KEY_SIZE, SIGNATURE_SIZE, Identity, verify
from .log import GAME_ID_SIZE, Entry, Kind, sign_entry
from .tablerules import DEFAULT_RULES, TableRules, read_table_tree, table_tree

START_DOMAIN = b"start"
START_LABEL = b"p2p-burgundy/v1/start\x00"
CONTRIBUTION_SIZE = 16  # fresh random bytes each player gives the game id (128 bits)
COLOURS = ("red", "blue", "green", "yellow")  # the players' piece colours
MAX_NAME = 32  # characters in a player's name
PLAYERS = (2, 3, 4)  # seats at a network table (one player is the solo game, played alone)


def name_ok(name: object) -> TypeGuard[str]:
    """Whether ``name`` may name a player or a table: 1 to :data:`MAX_NAME` printable
    characters. Names from the network are printed to terminals and written to files: a
    control character could move the cursor, recolour a terminal or start a line.

    >>> name_ok("Anna"), name_ok(""), name_ok("Anna\\nBo"), name_ok("\\x1b[2J")
    (True, False, False, False)
    """
    return isinstance(name, str) and 1 <= len(name) <= MAX_NAME and name.isprintable()


def players_problem(config: GameConfig) -> str | None:
    """Why no network game can be played with ``config`` (None if one can): a table seats 2
    to 4 players. The engine plays a game of one too, but that is the solo game, played
    alone (``burgundy solo``): nobody to draw the dice with.

    >>> from p2p_burgundy import Edition
    >>> players_problem(GameConfig(players=1, edition=Edition.E2019))
    'a network game is for 2 to 4 players, not 1 (one player plays the solo game: burgundy solo)'
    >>> players_problem(GameConfig(players=3)) is None
    True
    """
    if config.players in PLAYERS:
        return None
    return (f"a network game is for 2 to 4 players, not {config.players} (one player plays the "
            "solo game: burgundy solo)")


@dataclass(frozen=True, slots=True)
class Seat:
    """A player as the start entry fixes them."""

    key: bytes
    name: str
    colour: str  # one of COLOURS, each at most once at a table
    contribution: bytes  # CONTRIBUTION_SIZE fresh random bytes the player gave the game id
    commitment: bytes  # the tip of the player's beacon chain for this game


def start_digest(table_id: bytes, config: GameConfig, seats: Sequence[Seat],
                 rules: TableRules = DEFAULT_RULES) -> bytes:
    """What fixes a game before any chain exists: ``SHA-256(START_LABEL || encode([table id,
    config, [[key, name, colour, contribution], ...]]))``, the config with the table's
    ``rules`` in it (commitments are not in it: they depend on the game id, which is this
    digest's first 16 bytes)."""
    roster: list[wire.Encodable] = [[s.key, s.name, s.colour, s.contribution] for s in seats]
    return hashlib.sha256(
        START_LABEL + wire.encode([table_id, wire.value(table_tree(config, rules)), roster])
    ).digest()


def game_id_of(table_id: bytes, config: GameConfig, seats: Sequence[Seat],
               rules: TableRules = DEFAULT_RULES) -> bytes:
    """The game id: the first 16 bytes of :func:`start_digest`. Every player's fresh
    contribution is in it, so no member chooses it (or the beacon chains and the table
    code that depend on it), and re-hosting an old table never gives an old game id."""
    return start_digest(table_id, config, seats, rules)[:GAME_ID_SIZE]


def accept_start(identity: Identity, digest: bytes, commitment: bytes) -> bytes:
    """A player's signature accepting a game (:func:`start_digest`) with its own chain
    ``commitment``: ``sign(b"start", digest || commitment)``."""
    return identity.sign(START_DOMAIN, digest + commitment)


def make_start(
    host: Identity,
    table_id: bytes,
    config: GameConfig,
    seats: Sequence[Seat],
    acceptances: Sequence[bytes],
    rules: TableRules = DEFAULT_RULES,
) -> Entry:
    """The START entry (the host's seq 0): table id, config (with the table's ``rules``),
    roster with contributions and commitments, everyone's acceptance. Raises
    LocalProtocolError if anything would make peers reject it."""
    entry = sign_entry(
        host,
        game_id_of(table_id, config, seats, rules),
        0,
        b"",
        Kind.START,
        [table_id, wire.value(table_tree(config, rules)), _roster_tree(seats),
         list(acceptances)],
    )
    try:
        parse_start(entry)
    except RemoteProtocolError as exc:
        raise LocalProtocolError(f"cannot start: {exc.message}") from None
    return entry


def _roster_tree(seats: Sequence[Seat]) -> list[wire.Encodable]:
    return [[s.key, s.name, s.colour, s.contribution, s.commitment] for s in seats]


@dataclass(frozen=True, slots=True)
class Start:
    """A verified START entry."""

    entry: Entry
    table_id: bytes
    config: GameConfig
    seats: tuple[Seat, ...]
    rules: TableRules  # the table's rules, signed with the config

    @property
    def game_id(self) -> bytes:
        return self.entry.game_id


def parse_start(entry: Entry) -> Start:
    """Check a START entry completely; RemoteProtocolError naming what is wrong."""

    def bad(why: str) -> RemoteProtocolError:
        return RemoteProtocolError(f"bad start entry: {why}", author=entry.author, seq=entry.seq)

    if entry.kind != Kind.START or entry.seq != 0:
        raise bad("a game starts with a START entry at seq 0")
    if len(entry.payload) != 4:
        raise bad("payload is [table id, config, roster, acceptances]")
    table_id, config_tree, roster, acceptances = entry.payload
    if not (isinstance(table_id, bytes) and len(table_id) == GAME_ID_SIZE):
        raise bad(f"a table id is {GAME_ID_SIZE} bytes")
    try:
        config, rules = read_table_tree(config_tree)
    except EngineError as exc:
        raise bad(str(exc)) from None
    if (why := players_problem(config)) is not None:
        raise bad(why)
    if not isinstance(roster, tuple) or len(roster) != config.players:
        raise bad(f"the roster must list {config.players} players")
    seats = []
    for item in roster:
        key, name, colour, contribution, commitment = (
            item if isinstance(item, tuple) and len(item) == 5 else (None,) * 5)
        if not (
            isinstance(key, bytes)
            and len(key) == PUBLIC_KEY_SIZE
            and name_ok(name)
            and isinstance(colour, str)
            and colour in COLOURS
            and isinstance(contribution, bytes)
            and len(contribution) == CONTRIBUTION_SIZE
            and isinstance(commitment, bytes)
            and len(commitment) == LINK_SIZE
        ):
            raise bad("a roster seat is [32-byte key, name of 1-32 printable characters, "
                      "colour, 16-byte contribution, 32-byte commitment]")
        seats.append(Seat(key, name, colour, contribution, commitment))
    if len({s.key for s in seats}) != len(seats):
        raise bad("a key sits twice at the table")
    if len({s.colour for s in seats}) != len(seats):
        raise bad("two players have the same colour")
    if entry.author not in {s.key for s in seats}:
        raise bad("the host is not in the roster")
    if entry.game_id != game_id_of(table_id, config, seats, rules):
        raise bad("the game id is not the one the table and every contribution give")
    if not (isinstance(acceptances, tuple) and len(acceptances) == len(seats)):
        raise bad("every player must accept")
    digest = start_digest(table_id, config, seats, rules)
    for seat, signature in zip(seats, acceptances, strict=True):
        if not (
            isinstance(signature, bytes)
            and len(signature) == SIGNATURE_SIZE
            and verify(seat.key, START_DOMAIN, digest + seat.commitment, signature)
        ):
            raise bad(f"{seat.name}'s acceptance does not verify")
    return Start(entry, table_id, config, tuple(seats), rules)


def game_chain(identity: Identity, game_id: bytes) -> HashChain:
    """This player's beacon chain for a game, derived from the key so that a player who
    loses the game file but keeps the key can still reveal. Ed25519 signatures are
    deterministic, so the seed is a secret only the key's owner can compute."""
    return HashChain(hashlib.sha256(identity.sign(b"beacon-seed", game_id)).digest())
