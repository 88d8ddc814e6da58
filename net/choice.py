"""The experts' secret set-up choice: each player commits to a digest of its choice, and
reveals the choice and its salt only once every player has committed (docs/protocol.md,
CHOICE_COMMIT and CHOICE_REVEAL). The session files and applies them.
"""

from __future__ import annotations

import hashlib

from p2p_burgundy import Action

from . import wire
from .identity import Identity

CHOICE_LABEL = b"p2p-burgundy/v1/estate-choice\x00"
CHOICE_SALT_DOMAIN = b"choice-salt"
SALT_SIZE = 16


def choice_digest(game_id: bytes, seat: int, choice: Action, salt: bytes) -> bytes:
    """The commitment to a secret set-up choice:
    ``SHA-256(CHOICE_LABEL || wire([game id, seat, choice tree, salt]))``. The game id and
    the seat are inside, so nobody can copy another player's commitment and reveal later.

    >>> from p2p_burgundy import ChooseEstate
    >>> choice_digest(bytes(16), 0, ChooseEstate(1, 18), bytes(16)).hex()[:16]
    '8f8c31382be106fc'
    """
    return hashlib.sha256(
        CHOICE_LABEL + wire.encode([game_id, seat, wire.value(choice.to_tree()), salt])
    ).digest()


def choice_salt(identity: Identity, game_id: bytes) -> bytes:
    """The 16-byte salt of a player's set-up choice: derived from the key like
    :func:`game_chain`, so it is secret until revealed, and a player who lost the game file
    recovers the choice by trying its few legal choices against the commitment."""
    return hashlib.sha256(identity.sign(CHOICE_SALT_DOMAIN, game_id)).digest()[:SALT_SIZE]
