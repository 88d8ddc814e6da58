"""Positions as data: a game at some step, as a JSON file that ``sim``, ``match`` (a deal book
is a list of them) and ``analyse`` read back (docs/bots.md, "Positions").

A position is how the game got there, not a snapshot of the engine's state: its config, the
entropy of every chance event so far, and every action so far. Replaying those from a new game
gives the state exactly (its hash is in the file and checked). Chance events after the
recorded ones are dealt from a seed, as ``burgundy sim`` deals its games, so a position goes
on in as many ways as there are seeds and games. The file also carries the visible state (as
an engine sees it) for people and programs that only read it.

>>> from p2p_burgundy import GameConfig
>>> start = Position(GameConfig(players=2))
>>> after = start.played(8, seed=3)
>>> len(after.entropy), len(after.actions)
(3, 8)
>>> read_position(json.dumps(after.to_json())).state_hash() == after.state_hash()
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from p2p_burgundy import (
    END_TURN,
    Action,
    EngineError,
    GameConfig,
    GameState,
    action_from_tree,
    apply,
    legal_actions,
    new_game,
    resolve_chance,
    state_hash,
)
from p2p_burgundy.chance import Draw
from p2p_burgundy.net.report import Audit, ChanceReport, TurnReport
from p2p_burgundy.net.tablerules import read_table_tree
from p2p_burgundy.record import GameRecord
from p2p_burgundy.rules import draw_chance

from .gamejson import Json, state_json
from .sim import deal_entropy
from .strategies import make

POSITION_FORMAT = "p2p-burgundy/position"
POSITION_VERSION = 1
BOOK_FORMAT = "p2p-burgundy/book"
BOOK_VERSION = 1


class PositionError(Exception):
    """A position or deal book that cannot be read or reached (the message says why)."""


@dataclass(frozen=True, slots=True)
class Position:
    """A game at some step: its config, the entropy of each chance event so far (in order)
    and each action so far (in order)."""

    config: GameConfig
    entropy: tuple[bytes, ...] = ()
    actions: tuple[Action, ...] = ()

    def chance(self, index: int, seed: int, game: int) -> bytes:
        """The entropy of chance event ``index``: the recorded one, or after the recorded
        ones the one ``burgundy sim`` deals for ``seed`` and ``game``."""
        return deal_entropy(seed, game, index, self.entropy)

    def state(self) -> GameState:
        """The game at this position (its recorded chance events resolved, every action
        applied); PositionError if an action is not legal or the entropy runs out before an
        action."""
        state = new_game(self.config)
        actions = iter(enumerate(self.actions))
        while True:
            if state.chance is not None and state.chance.index < len(self.entropy):
                state = resolve_chance(state, self.entropy[state.chance.index])
                continue
            step = next(actions, None)
            if step is None:
                return state
            number, action = step
            if state.chance is not None:
                raise PositionError(f"action {number} ({action!r}) comes after chance event "
                                    f"{state.chance.index}, whose entropy is not recorded")
            try:
                state = apply(state, action)
            except EngineError as exc:
                raise PositionError(f"action {number} ({action!r}) is not legal: "
                                    f"{exc}") from None

    def state_hash(self) -> bytes:
        return state_hash(self.state())

    def steps(self) -> list[tuple[Draw | tuple[Action, ...], GameState]]:
        """How the game got here, step by step as a replay shows it: what each chance event
        drew, or the actions of each turn (up to the mover's END_TURN), each with the game
        after it."""
        state = new_game(self.config)
        steps: list[tuple[Draw | tuple[Action, ...], GameState]] = []
        turn: list[Action] = []
        entropy = iter(self.entropy)
        for action in self.actions:
            while state.chance is not None:
                state, drew = draw_chance(state, next(entropy))
                steps.append((drew, state))
            state = apply(state, action)
            turn.append(action)
            if action == END_TURN or state.chance is not None:
                steps.append((tuple(turn), state))
                turn = []
        if turn:
            steps.append((tuple(turn), state))
        for rest in entropy:
            state, drew = draw_chance(state, rest)
            steps.append((drew, state))
        return steps

    def played(self, decisions: int, seed: int, game: int = 0, strategy: str = "greedy"
               ) -> Position:
        """This position after ``decisions`` more decisions of ``strategy`` (for every seat),
        chance dealt as ``burgundy sim`` deals ``seed`` and ``game``."""
        state = self.state()
        entropy = list(self.entropy)
        actions = list(self.actions)
        bot = make(strategy, seed)
        while len(actions) < len(self.actions) + decisions and not state.is_over:
            if state.chance is not None:
                entropy.append(self.chance(state.chance.index, seed, game))
                state = resolve_chance(state, entropy[-1])
                continue
            actions.append(bot.choose(state, legal_actions(state)))
            state = apply(state, actions[-1])
        return Position(self.config, tuple(entropy), tuple(actions))

    def to_json(self) -> Json:
        """The position file's document."""
        state = self.state()
        return {"format": POSITION_FORMAT, "version": POSITION_VERSION,
                "config": self.config.to_tree(),
                "entropy": [e.hex() for e in self.entropy],
                "actions": [a.to_tree() for a in self.actions],
                "state_hash": state_hash(state).hex(), "state": state_json(state)}


def position_from_json(doc: object) -> Position:
    """The position of a parsed position document; PositionError saying what is wrong
    (including a state hash the replayed actions do not reach)."""
    if not isinstance(doc, dict) or doc.get("format") != POSITION_FORMAT:
        raise PositionError(f"not a position (no \"format\": \"{POSITION_FORMAT}\")")
    if doc.get("version") != POSITION_VERSION:
        raise PositionError(f"a position of version {doc.get('version')!r}; this version "
                            f"reads {POSITION_VERSION}")
    try:
        # A networked game's position exported while the engine's config still held its
        # table's rules (hints, a clock) carries them, and its hash was taken with them.
        config, rules = read_table_tree(doc["config"])
        position = Position(config, tuple(bytes.fromhex(e) for e in doc["entropy"]),
                            tuple(action_from_tree(a) for a in doc["actions"]))
        expected = doc.get("state_hash")
        if expected is not None:
            # Hashed as it was exported: with the table's rules in the config tree where the
            # file's tree carries them (as it did then), else with their defaults.
            reached = state_hash(position.state(), rules.fields())
            if bytes.fromhex(expected) != reached:
                raise PositionError(f"its actions reach state {reached.hex()[:16]}"
                                    f"..., not the recorded {str(expected)[:16]}...")
    except (KeyError, TypeError, ValueError, EngineError) as exc:
        what = f"missing {exc}" if isinstance(exc, KeyError) else str(exc)
        raise PositionError(f"malformed position: {what}") from None
    return position


def read_position(text: str) -> Position:
    """Parse a position file; PositionError saying what is wrong.

    >>> read_position('{"format": "p2p-burgundy/position", "version": 9}')
    Traceback (most recent call last):
    ...
    p2p_burgundy.cli.position.PositionError: a position of version 9; this version reads 1
    """
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise PositionError(f"not JSON: {exc}") from None
    return position_from_json(doc)


def read_book(text: str) -> tuple[Position, ...]:
    """Parse a deal book: ``{"format": "p2p-burgundy/book", "version": 1, "positions":
    [position, ...]}``, each a position document; PositionError saying which is wrong."""
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise PositionError(f"not JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != BOOK_FORMAT:
        raise PositionError(f"not a deal book (no \"format\": \"{BOOK_FORMAT}\")")
    if doc.get("version") != BOOK_VERSION:
        raise PositionError(f"a deal book of version {doc.get('version')!r}; this version "
                            f"reads {BOOK_VERSION}")
    positions = doc.get("positions")
    if not isinstance(positions, list) or not positions:
        raise PositionError("a deal book lists one position or more under \"positions\"")
    found = []
    for number, entry in enumerate(positions, 1):
        try:
            found.append(position_from_json(entry))
        except PositionError as exc:
            raise PositionError(f"position {number}: {exc}") from None
    configs = {p.config for p in found}
    if len(configs) > 1:
        raise PositionError("the positions of a deal book are all of one table (players, "
                            "edition, set-up)")
    return tuple(found)


def book_json(positions: Sequence[Position]) -> Json:
    return {"format": BOOK_FORMAT, "version": BOOK_VERSION,
            "positions": [p.to_json() for p in positions]}


def audit_position(report: Audit, step: int) -> Position:
    """The position of an audited (networked) game after its first ``step`` steps (chance
    events and turns; 0 is the start); PositionError if the game has fewer."""
    if report.config is None:
        raise PositionError("no valid start entry: there is no game")
    if not 0 <= step <= len(report.steps):
        raise PositionError(f"the game has {len(report.steps)} steps (0 to "
                            f"{len(report.steps)}), not {step}")
    entropy: list[bytes] = []
    actions: list[Action] = []
    for done in report.steps[:step]:
        if isinstance(done, ChanceReport):
            entropy.append(done.entropy)
        else:
            assert isinstance(done, TurnReport)
            actions.extend(done.actions)
    return Position(report.config, tuple(entropy), tuple(actions))


def record_position(record: GameRecord, step: int) -> Position:
    """The position of a recorded local game (``burgundy solo``, ``play --local``) after its
    first ``step`` steps (chance events and single actions; 0 is the start); PositionError
    if the game has fewer."""
    if not 0 <= step <= len(record.hashes):
        raise PositionError(f"the game has {len(record.hashes)} steps (0 to "
                            f"{len(record.hashes)}), not {step}")
    state = new_game(record.config)
    entropy: list[bytes] = []
    actions: list[Action] = []
    for _ in range(step):
        if state.chance is not None:
            entropy.append(record.entropy[len(entropy)])
            state = resolve_chance(state, entropy[-1])
        else:
            actions.append(record.actions[len(actions)])
            state = apply(state, actions[-1])
    return Position(record.config, tuple(entropy), tuple(actions))


def load_position(path: Path) -> Position:
    """A position file's position; PositionError (with the reason) if it cannot be read."""
    try:
        return read_position(path.read_text())
    except OSError as exc:
        raise PositionError(f"cannot read {path}: {exc.strerror or exc}") from None


__all__ = ["Position", "PositionError", "audit_position", "book_json", "load_position",
           "read_book", "read_position", "record_position"]
