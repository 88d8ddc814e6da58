"""Scripted play: a game's turns as a file (``burgundy replay --export-turns``), and a
strategy that plays its seat's recorded turns before handing over (``burgundy bot --moves``).

A turns file is one JSON document::

    {"format": "p2p-burgundy/turns", "version": 1, "game_id": "<hex>",
     "config": [players, edition, [estates], [start spaces], ...],
     "players": [{"seat": 0, "name": "Anna", "fingerprint": "..."}, ...],
     "turns": [{"turn": 0, "seat": 1, "before": "<state hash>", "after": "<state hash>",
                "actions": [[tag, field, ...], ...]}, ...],
     "chance": ["<entropy>", ...]}

``config`` is the config tree as the game's START signed it (docs/protocol.md, the table's
rules in it), ``actions`` are the engine's canonical action trees
(:meth:`p2p_burgundy.Action.to_tree`), ``before`` and ``after`` the state hashes around the
turn. A scripted seat plays, for its
k-th turn, the k-th recorded turn of its seat, one action per decision, as long as each is
legal; the first that is not ends the script (said once), and the strategy it hands over to
plays on. A turn counts as *exact* when the game was in the recorded state (same hash)
before it: with the same players (keys) and game the dice are the same, and every turn is.
``chance`` is the entropy of every chance event of the game (its real dice and draws):
``burgundy sim --moves`` deals a local game from it, so every turn is exact there too.

>>> from p2p_burgundy import END_TURN, GameConfig, TakeWorkers, UseDie, new_game
>>> from p2p_burgundy import legal_actions, resolve_chance
>>> from p2p_burgundy.cli.strategies import make
>>> state = new_game(GameConfig(players=2))
>>> while state.chance is not None:
...     state = resolve_chance(state, bytes(32))
>>> turn = ScriptTurn(0, state.to_move, (UseDie(0), TakeWorkers(), UseDie(1), TakeWorkers(),
...                   END_TURN), state_hash(state), b"")
>>> script = ScriptedStrategy([turn], make("random", 1))
>>> script.choose(state, legal_actions(state))
UseDie(die=0)
>>> script.played, script.exact
(1, 1)
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from p2p_burgundy import (
    Action,
    EngineError,
    GameConfig,
    GameState,
    action_from_tree,
    state_hash,
)
from p2p_burgundy.net.report import Audit, ChanceReport, TurnReport
from p2p_burgundy.net.tablerules import read_table_tree, table_tree

from .strategies import Maker, Strategy, made_by

TURNS_FORMAT = "p2p-burgundy/turns"
TURNS_VERSION = 1


class ScriptError(Exception):
    """A turns file that cannot be read (the message says why)."""


@dataclass(frozen=True, slots=True)
class ScriptTurn:
    """One recorded turn: its number, seat, actions and the state hashes around it."""

    turn: int
    seat: int
    actions: tuple[Action, ...]
    before: bytes
    after: bytes


@dataclass(frozen=True, slots=True)
class Script:
    """A turns file: the game it came from and its turns in order."""

    game_id: bytes
    config: GameConfig
    turns: tuple[ScriptTurn, ...]
    chance: tuple[bytes, ...] = ()  # the entropy of each chance event, in order

    def for_seat(self, seat: int) -> list[ScriptTurn]:
        return [t for t in self.turns if t.seat == seat]


def export_turns(report: Audit) -> dict[str, object]:
    """The turns file of an audited game (as far as it went)."""
    assert report.config is not None and report.game_id is not None
    turns = []
    chance = []
    before = b""
    for step in report.steps:
        if isinstance(step, TurnReport):
            turns.append({"turn": step.turn, "seat": step.seat, "before": before.hex(),
                          "after": step.state_hash.hex(),
                          "actions": [a.to_tree() for a in step.actions]})
        else:
            assert isinstance(step, ChanceReport)
            chance.append(step.entropy.hex())
        before = step.state_hash
    return {"format": TURNS_FORMAT, "version": TURNS_VERSION, "game_id": report.game_id.hex(),
            "config": table_tree(report.config, report.rules),
            "players": [{"seat": p.seat, "name": p.name, "fingerprint": p.fingerprint}
                        for p in report.players],
            "turns": turns, "chance": chance}


def read_script(text: str) -> Script:
    """Parse a turns file; ScriptError saying what is wrong.

    >>> read_script('{"format": "p2p-burgundy/turns", "version": 2}')
    Traceback (most recent call last):
    ...
    p2p_burgundy.cli.script.ScriptError: a turns file of version 2; this version reads 1
    """
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise ScriptError(f"not JSON: {exc}") from None
    except RecursionError:
        raise ScriptError("not JSON this program reads: nested too deeply") from None
    if not isinstance(doc, dict) or doc.get("format") != TURNS_FORMAT:
        raise ScriptError(f"not a turns file (no \"format\": \"{TURNS_FORMAT}\")")
    if doc.get("version") != TURNS_VERSION:
        raise ScriptError(f"a turns file of version {doc.get('version')!r}; this version "
                          f"reads {TURNS_VERSION}")
    try:
        config, _ = read_table_tree(doc["config"])  # the table's rules play no part here
        turns = tuple(ScriptTurn(int(t["turn"]), int(t["seat"]),
                                 tuple(action_from_tree(a) for a in t["actions"]),
                                 bytes.fromhex(t["before"]), bytes.fromhex(t["after"]))
                      for t in doc["turns"])
        chance = tuple(bytes.fromhex(e) for e in doc.get("chance", []))
        return Script(bytes.fromhex(doc["game_id"]), config, turns, chance)
    except (KeyError, TypeError, ValueError, EngineError) as exc:
        what = f"missing {exc}" if isinstance(exc, KeyError) else str(exc)
        raise ScriptError(f"malformed turns file: {what}") from None


class ScriptedStrategy:
    """Plays ``turns`` (its seat's recorded turns, in order), then hands over to ``then``.

    ``played`` counts the recorded turns begun, ``exact`` those begun from the recorded
    state; ``left`` says why the script ended early (None while it holds or once it is done).
    """

    def __init__(self, turns: Sequence[ScriptTurn], then: Strategy,
                 log: TextIO | None = None) -> None:
        self.turns = list(turns)
        self.then = then
        self.played = 0
        self.exact = 0
        self.left: str | None = None
        self._pending: list[Action] = []
        self._log = log if log is not None else sys.stderr
        self._scripted = False  # whether the last decision was a recorded one

    @property
    def name(self) -> str:
        """The name of what plays after the script (an engine's is known once it said hello)."""
        return self.then.name

    @property
    def made_by(self) -> Maker:
        """The script for a recorded decision, else what plays after it."""
        return ("script", "moves") if self._scripted else made_by(self.then)

    @property
    def following(self) -> bool:
        return self.left is None and (bool(self._pending) or self.played < len(self.turns))

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        if self.following and not self._pending:
            turn = self.turns[self.played]
            self.played += 1
            self.exact += state_hash(state) == turn.before
            self._pending = list(turn.actions)
        self._scripted = self.following
        if self._scripted:
            action = self._pending.pop(0)
            if action in actions:
                return action
            self._scripted = False
            self._leave(f"at recorded turn {self.turns[self.played - 1].turn}, {action!r} is "
                        "not legal here")
        return self.then.choose(state, actions)

    def _leave(self, why: str) -> None:
        self.left = why
        self._pending = []
        print(f"burgundy bot: the script ends {why}; {self.then.name} plays on",
              file=self._log, flush=True)

    def summary(self) -> dict[str, object]:
        """What the script did, for ``--json``."""
        return {"turns": len(self.turns), "played": self.played, "exact": self.exact,
                "left": self.left}


__all__ = ["Script", "ScriptError", "ScriptTurn", "ScriptedStrategy", "export_turns",
           "read_script"]
