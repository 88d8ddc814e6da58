"""The game in JSON, for programs: the canonical form of a visible state and of actions (what
an engine receives, docs/bots.md), and the scores of a finished game (the ``--json``
results of ``bot``, ``sim`` and ``verify``).

Every name is an engine name in lower case (``Tile.COW_3`` is ``"cow_3"``, ``Step.SHIP`` is
``"ship"``, ``Category.GOODS_LEFT`` is ``"goods_left"``); an empty space or slot is ``null``.

>>> from p2p_burgundy import Buy, Payment, TakeGoods
>>> action_json(Buy(0, 3, Payment.WORKERS))
{'type': 'buy', 'depot': 0, 'slot': 3, 'payment': 'workers'}
>>> action_json(TakeGoods((2, 3), (4,)))
{'type': 'take_goods', 'depots': [2, 3], 'keep': [4]}
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import fields
from enum import Enum
from pathlib import Path

from p2p_burgundy import Action, GameState, Outcome, Step
from p2p_burgundy.estate import NEIGHBOURS, SPACE_COUNT, bits
from p2p_burgundy.net.report import Audit
from p2p_burgundy.scoring import categories
from p2p_burgundy.state import EMPTY, PlayerState
from p2p_burgundy.tiles import FACE_DOWN, KNOWLEDGE_NUMBER, Colour, Tile
from p2p_burgundy.variants import modules_of

Json = dict[str, object]
RESULT_VERSION = 2  # of every --json document; docs/schemas/ has one JSON Schema per document


def name(value: Enum) -> str:
    """An engine enum member's JSON name: its name in lower case."""
    return value.name.lower()


def tile_json(tile: int) -> str | None:
    """A tile's JSON name (``face_down_mine``: the solo game's face-down tiles), or None for
    EMPTY."""
    if tile >= FACE_DOWN:
        return f"face_down_{name(Tile(tile - FACE_DOWN))}"
    return None if tile == EMPTY else name(Tile(tile))


def action_type(action: Action) -> str:
    """``TakeTile`` -> ``"take_tile"``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type(action).__name__).lower()


def action_json(action: Action) -> Json:
    """An action as ``{"type": ..., field: value, ...}`` (fields in the engine's order)."""
    out: Json = {"type": action_type(action)}
    for field in fields(action):
        value = getattr(action, field.name)
        if isinstance(value, Enum):
            out[field.name] = name(value)
        elif isinstance(value, tuple):
            out[field.name] = list(value)
        else:
            out[field.name] = value
    return out


def neighbours() -> list[list[int]]:
    """Each estate space's neighbours (the same on every estate)."""
    return [bits(NEIGHBOURS[space]) for space in range(SPACE_COUNT)]


def state_json(state: GameState) -> Json:
    """The canonical JSON form of ``state`` (docs/bots.md, "The visible state")."""
    config = state.config
    out: Json = {
        "players": config.players,
        "edition": config.edition.value,
        "setup": config.setup.value,
        "modules": [m.value for m in config.modules],
        "phase": state.phase,
        "round": state.round,
        "over": state.is_over,
        "to_move": state.to_move,
        "step": name(state.step),
        "pending": [[name(Step(step)), argument] for step, argument in state.pending],
        "order": list(state.order),
        "turn": state.turn,
        "track": [list(place) for place in state.track],
        "white_die": state.white_die,
        "depots": [[tile_json(t) for t in depot] for depot in state.depots],
        "depot_goods": [list(goods) for goods in state.depot_goods],
        "phase_goods": list(state.phase_goods),
        "goods_pool": list(state.goods_pool),
        "supplies": [[tile_json(t) for t in supply] for supply in state.supplies],
        "bonus_taken": list(state.bonus_taken),
        "box": {name(Tile(t)): n for t, n in enumerate(state.box) if n},
        "seats": [_player_json(state, seat, p) for seat, p in enumerate(state.players)],
    }
    if config.has_choices:
        out["offers"] = [list(offer) for offer in state.offers]
    for module in modules_of(config):  # what each module the game plays shows of its state
        if module.visible:
            out.update(module.visible(state))
    return out


def _player_json(state: GameState, seat: int, player: PlayerState) -> Json:
    board = state.boards[seat]
    out: Json = {
        "seat": seat,
        "estate": board.id,
        "colours": [name(Colour(c)) for c in board.colours],
        "dice": list(board.dice),
        "spaces": [tile_json(t) for t in player.estate],
        "silver": player.silver,
        "workers": player.workers,
        "goods": list(player.goods),
        "sold": list(player.sold),
        "storage": [tile_json(t) for t in player.storage],
        "knowledge": [n for n in range(1, max(KNOWLEDGE_NUMBER) + 1) if player.has_knowledge(n)],
        "rolled": list(player.dice),
        "dice_used": player.dice_used,
        "bought": player.bought,
        "bonuses": list(player.bonuses),
        "vp": player.vp,
        "breakdown": breakdown_json(player.breakdown),
    }
    for module in modules_of(state.config):
        if module.seat_visible:
            out.update(module.seat_visible(state, seat))
    return out


def breakdown_json(breakdown: Sequence[int]) -> dict[str, int]:
    """Victory points by category name, every category, in the engine's order (shields only
    with the shields module)."""
    return {name(c): breakdown[c] for c in categories(breakdown)}


def scores_json(breakdowns: Sequence[Sequence[int]], result: Outcome) -> list[Json]:
    """The final scores by seat: total, by category, empty spaces and place (1 = winner;
    None in a lost solo game, which has no winner)."""
    place = {seat: i + 1 for i, seat in enumerate(result.ranking)}
    return [{"seat": seat, "vp": result.scores[seat], "breakdown": breakdown_json(breakdown),
             "empty_spaces": result.empty_spaces[seat],
             "place": place[seat] if result.won else None}
            for seat, breakdown in enumerate(breakdowns)]


def winner_json(result: Outcome) -> int | None:
    """The winning seat, or None when nobody won (a lost solo game)."""
    return result.winner if result.won else None


def verdict(report: Audit) -> str:
    """``"verified"`` or ``"not verified"``: what ``burgundy verify`` says of a game file."""
    return "verified" if report.ok else "not verified"


def verification_json(report: Audit) -> Json:
    """The verdict on a game file, whether the game is complete, and each problem found."""
    return {"verdict": verdict(report), "complete": report.complete,
            "problems": [str(problem) for problem in report.problems]}


def result_json(command: str, game_id: bytes | None, game_file: Path | None,
                seats: Sequence[Mapping[str, object]], breakdowns: Sequence[Sequence[int]],
                result: Outcome | None, final_hash: bytes | None,
                report: Audit | None) -> Json:
    """The fields every ``--json`` result shares (``bot``, ``verify``, each game of ``sim``;
    docs/bots.md, "Results"): ``None`` where a game has no such thing."""
    return {
        "command": command,
        "version": RESULT_VERSION,
        "game_id": None if game_id is None else game_id.hex(),
        "game_file": None if game_file is None else str(game_file),
        "seats": seats,
        "scores": [] if result is None else scores_json(breakdowns, result),
        "winner": None if result is None else winner_json(result),
        "decided_by": None if result is None else result.decided_by,
        "final_hash": None if final_hash is None else final_hash.hex(),
        "verification": None if report is None else verification_json(report),
    }
