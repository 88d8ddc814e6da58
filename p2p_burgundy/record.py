"""A whole local game as data: config, entropy per chance event, actions, state hashes.

Replaying a record from zero reproduces every state hash, on any machine.

>>> from p2p_burgundy import END_TURN, UseDie, TakeWorkers
>>> rec = Recorder(GameConfig(players=2))
>>> while rec.state.chance:
...     _ = rec.chance(bytes(32))
>>> for action in (UseDie(0), TakeWorkers(), UseDie(1), TakeWorkers(), END_TURN):
...     rec.act(action)
>>> record = rec.record()
>>> GameRecord.from_bytes(record.to_bytes()) == record
True
>>> state_hash(record.replay()) == state_hash(rec.state)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import msgpack

from .actions import Action, action_from_tree
from .chance import Draw
from .config import GameConfig
from .errors import EngineError, RecordError
from .rules import apply, draw_chance, new_game
from .state import GameState, state_hash
from .turn import Turn

RECORD_VERSION: Final = 1


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Config, the entropy of each chance event in order, the actions in order, and the
    state hash after every step (chance events and actions interleaved as the game asked)."""

    config: GameConfig
    entropy: tuple[bytes, ...]
    actions: tuple[Action, ...]
    hashes: tuple[bytes, ...]

    def replay(self) -> GameState:
        """Replay from zero, checking every hash; the last state, or RecordError naming the step."""
        steps = self.steps()
        return steps[-1][1] if steps else new_game(self.config)

    def steps(self) -> list[tuple[Draw | Turn, GameState]]:
        """The game step by step from zero, each step checked against the record's hashes: a
        chance event as what it drew, a turn as a :class:`~p2p_burgundy.turn.Turn` (its
        actions and the state after each; the last may be under way), each with the game
        after it. RecordError naming the step that does not replay."""
        out: list[tuple[Draw | Turn, GameState]] = []
        state = new_game(self.config)
        entropy = iter(self.entropy)
        actions = iter(self.actions)
        turn: Turn | None = None
        for step, expected in enumerate(self.hashes):
            try:
                if state.chance is not None:
                    what = f"chance event {state.chance.index}"
                    state, drew = draw_chance(state, next(entropy))
                    out.append((drew, state))
                else:
                    action = next(actions)
                    what = f"action {action!r}"
                    turn = (turn or Turn(state)).then(action)
                    state = turn.after
                    if turn.over:
                        out.append((turn, state))
                        turn = None
            except StopIteration:
                raise RecordError(f"step {step}: the record ends early") from None
            except EngineError as exc:
                raise RecordError(f"step {step}: {exc}") from None
            if state_hash(state) != expected:
                raise RecordError(f"step {step} ({what}): state hash differs from the record")
        if next(entropy, None) is not None or next(actions, None) is not None:
            raise RecordError("the record has entries after its last step")
        if turn is not None:
            out.append((turn, state))
        return out

    def to_bytes(self) -> bytes:
        """Canonical msgpack: ``[version, config, [entropy...], [action...], [hash...]]``."""
        data: bytes = msgpack.packb(
            [RECORD_VERSION, self.config.to_tree(), list(self.entropy),
             [a.to_tree() for a in self.actions], list(self.hashes)],
            use_bin_type=True,
        )
        return data

    @classmethod
    def from_bytes(cls, data: bytes) -> GameRecord:
        """Inverse of :meth:`to_bytes`; RecordError on anything malformed."""
        try:
            tree = msgpack.unpackb(data, raw=False, strict_map_key=True)
        except Exception as exc:  # msgpack raises several unrelated types
            raise RecordError(f"not a game record: {exc}") from None
        if not (isinstance(tree, list) and len(tree) == 5 and tree[0] == RECORD_VERSION):
            raise RecordError(f"not a version {RECORD_VERSION} game record")
        _, config, entropy, actions, hashes = tree
        if not all(isinstance(x, list) for x in (entropy, actions, hashes)) or not all(
            isinstance(b, bytes) for b in entropy + hashes
        ):
            raise RecordError("malformed game record")
        try:
            return cls(GameConfig.from_tree(config), tuple(entropy),
                       tuple(action_from_tree(a) for a in actions), tuple(hashes))
        except EngineError as exc:
            raise RecordError(f"malformed game record: {exc}") from None


class Recorder:
    """Plays a game forward while recording it (``state`` is the current state)."""

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.state = new_game(config)
        self._entropy: list[bytes] = []
        self._actions: list[Action] = []
        self._hashes: list[bytes] = []

    def chance(self, entropy: bytes) -> Draw:
        """Resolve the pending chance event with ``entropy``; what it drew."""
        self.state, drew = draw_chance(self.state, entropy)
        self._entropy.append(bytes(entropy))
        self._hashes.append(state_hash(self.state))
        return drew

    def act(self, action: Action) -> None:
        self.state = apply(self.state, action)
        self._actions.append(action)
        self._hashes.append(state_hash(self.state))

    def record(self) -> GameRecord:
        return GameRecord(self.config, tuple(self._entropy), tuple(self._actions),
                          tuple(self._hashes))
