"""Shared helpers for the engine tests: crafted positions, illegal-action checks, random games.

A crafted position starts from a real game (``started``: set-up, phase A and round 1 resolved
with fixed entropy) and replaces fields on clones, so each rule is tested in a position built
for it. ``with_player`` keeps ``occupied`` and ``frontier`` consistent with the estate tuple.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pytest

from p2p_burgundy import (
    END_TURN,
    Action,
    Edition,
    EndTurn,
    GameConfig,
    GameState,
    IllegalAction,
    PlayerState,
    Step,
    TakeWorkers,
    UseDie,
    apply,
    encode_state,
    legal_actions,
    new_game,
    resolve_chance,
    state_hash,
)
from p2p_burgundy.config import Module, Setup
from p2p_burgundy.estate import NEIGHBOURS, SPACE_COUNT
from p2p_burgundy.state import EMPTY, PartField
from p2p_burgundy.tiles import BLACK_SUPPLY, MODULE_TILES, NORMAL_SUPPLY, Tile

E2011, E2019 = Edition.E2011, Edition.E2019
CASTLE_SPACE = 18  # the start castle on estate 1 (C6, row 4, column 4)
TOTAL_TILES: Counter[int] = Counter([*(t for s in NORMAL_SUPPLY for t in s), *BLACK_SUPPLY])


def total_tiles(config: GameConfig) -> Counter[int]:
    """Every hex tile of a game with ``config``: the base game's and its modules'."""
    total = Counter(TOTAL_TILES)
    for module in config.modules:
        for tiles in MODULE_TILES.get(module.value, {}).values():
            total.update(tiles)
    return total


def entropy(seed: object, index: int) -> bytes:
    """32 entropy bytes for chance event ``index`` of the test game ``seed``."""
    return hashlib.sha256(f"p2p-burgundy/tests/{seed}/{index}".encode()).digest()


def resolve_all(state: GameState, seed: object = 0) -> GameState:
    """Resolve pending chance events with :func:`entropy` until a player is to move."""
    while state.chance is not None:
        state = resolve_chance(state, entropy(seed, state.chance.index))
    return state


def started(players: int = 2, *, edition: Edition = E2011, seed: object = 0,
            estate: str = "1", start_space: int | None = None,
            modules: tuple[Module, ...] = ()) -> GameState:
    """A game after set-up, phase A's set-up and round 1's dice: the first player to move.
    Every seat plays ``estate`` (start castle on ``start_space``, default the printed one).
    With ``modules`` the edition is 2019."""
    config = GameConfig(
        players=players, edition=E2019 if modules else edition, estates=(estate,) * players,
        start_spaces=() if start_space is None else (start_space,) * players, modules=modules,
    )
    return resolve_all(new_game(config), seed)


def frontier_of(occupied: int) -> int:
    """Empty spaces next to an occupied one."""
    out = 0
    for space in range(SPACE_COUNT):
        if occupied >> space & 1:
            out |= NEIGHBOURS[space]
    return out & ~occupied


def knowledge_bits(numbers: Iterable[int]) -> int:
    return sum(1 << n for n in set(numbers))


def counts(goods: Mapping[int, int]) -> tuple[int, ...]:
    """Goods counts by type (index 1..6) from ``{type: count}``."""
    out = [0] * 7
    for g, n in goods.items():
        out[g] = n
    return tuple(out)


def with_player(state: GameState, seat: int | None = None, **fields: Any) -> GameState:
    """A clone with one player's fields replaced (default: the player to move).

    ``estate`` is ``{space: tile}`` added to the current estate (or a full 37-tuple);
    ``knowledge`` an iterable of tile numbers; ``goods`` / ``sold`` ``{type: count}`` or
    tuples; ``storage`` a tuple of tiles. ``occupied`` and ``frontier`` are recomputed.
    """
    seat = state.to_move if seat is None else seat
    assert seat is not None
    p = state.players[seat].copy()
    for name, value in fields.items():
        if name == "estate":
            if isinstance(value, Mapping):
                tiles = list(p.estate)
                for space, tile in value.items():
                    tiles[space] = EMPTY if tile is None else int(tile)
                value = tuple(tiles)
            value = tuple(value)
            assert len(value) == SPACE_COUNT
        elif name == "knowledge" and not isinstance(value, int):
            value = knowledge_bits(value)
        elif name in ("goods", "sold") and isinstance(value, Mapping):
            value = counts(value)
        elif name in ("storage", "dice", "bonuses", "breakdown"):
            value = tuple(int(v) for v in value)
        setattr(p, name, value)
    p.occupied = sum(1 << s for s, t in enumerate(p.estate) if t != EMPTY)
    p.frontier = frontier_of(p.occupied)
    new = state.clone()
    players = list(new.players)
    players[seat] = p
    new.players = tuple(players)
    return new


def with_game(state: GameState, **fields: Any) -> GameState:
    """A clone with game fields replaced.

    ``depots`` may be ``{depot: tiles}`` (numbered depots padded to 4 slots, the black
    depot to 8); ``depot_goods`` ``{depot: {type: count}}`` replacing those depots' goods. A
    field of a module's part (``inns=1``) is replaced in a copy of that part.
    """
    new = state.clone()
    for name, value in fields.items():
        part_field = vars(GameState).get(name)
        if isinstance(part_field, PartField):  # a field of a module's part
            setattr(new.changed(part_field.part), part_field.name, value)
            continue
        if name == "depots" and isinstance(value, Mapping):
            depots = list(new.depots)
            for d, tiles in value.items():
                size = 8 if d == 0 else 4
                row = [int(t) for t in tiles]
                depots[d] = tuple(row + [EMPTY] * (size - len(row)))
            value = tuple(depots)
        elif name == "depot_goods" and isinstance(value, Mapping):
            goods = list(new.depot_goods)
            for d, g in value.items():
                goods[d] = counts(g) if isinstance(g, Mapping) else tuple(g)
            value = tuple(goods)
        elif name == "pending":
            value = tuple((int(step), int(arg)) for step, arg in value)
        setattr(new, name, value)
    return new


def empty_depots(state: GameState) -> GameState:
    """No tiles on any depot and no goods on them (for positions that add exactly what they
    need)."""
    return with_game(
        state,
        depots={d: () for d in range(7)},
        depot_goods={d: {} for d in range(7)},
    )


def position(
    players: int = 2,
    *,
    edition: Edition = E2011,
    seed: object = 0,
    estate_id: str = "1",
    start_space: int | None = None,
    depots: Mapping[int, Iterable[int]] | None = None,
    depot_goods: Mapping[int, Mapping[int, int]] | None = None,
    pending: Iterable[tuple[int, int]] | None = None,
    modules: tuple[Module, ...] = (),
    **mover: Any,
) -> GameState:
    """A started game with empty depots (then ``depots`` / ``depot_goods`` added), the
    mover's fields replaced as in :func:`with_player`, and optionally a pending stack.

    By default the mover has dice (1, 2) unused, no workers, no goods, no silver, nothing
    in storage and only the start castle; pass fields to change that.
    """
    state = empty_depots(started(players, edition=edition, seed=seed, estate=estate_id,
                                 start_space=start_space, modules=modules))
    defaults: dict[str, Any] = {
        "dice": (1, 2), "dice_used": 0, "workers": 0, "silver": 0, "goods": {},
        "storage": (), "bought": False,
    }
    defaults.update(mover)
    state = with_player(state, **defaults)
    game: dict[str, Any] = {}
    if depots is not None:
        game["depots"] = depots
    if depot_goods is not None:
        game["depot_goods"] = depot_goods
    if pending is not None:
        game["pending"] = pending
    return with_game(state, **game) if game else state


def mover(state: GameState) -> PlayerState:
    seat = state.to_move
    assert seat is not None
    return state.players[seat]


def play(state: GameState, *actions: Action) -> GameState:
    for action in actions:
        state = apply(state, action)
    return state


def end_turn(state: GameState) -> GameState:
    """The mover takes workers with each unused die, then ends the turn."""
    for die in (0, 1):
        if not mover(state).dice_used >> die & 1:
            state = play(state, UseDie(die), TakeWorkers())
    return apply(state, END_TURN)


def _fingerprint(state: GameState) -> list[object]:
    """Identities and values of every field (and every player's fields) of a state."""
    out: list[object] = []
    for name in type(state).__slots__:
        value = getattr(state, name)
        out.append((name, id(value), value if name not in ("players", "modules") else None))
    out.extend((name, id(part), part.values()) for name, part in state.modules.items())
    for p in state.players:
        out.append(id(p))
        out.extend((name, id(getattr(p, name)), getattr(p, name)) for name in type(p).__slots__)
    return out


def assert_illegal(state: GameState, action: Action, *phrases: str) -> str:
    """``apply(state, action)`` raises IllegalAction whose message has every phrase, and the
    state is left exactly as it was (same bytes, same hash, same objects)."""
    encoded, digest, fingerprint = encode_state(state), state_hash(state), _fingerprint(state)
    with pytest.raises(IllegalAction) as info:
        apply(state, action)
    message = str(info.value)
    for phrase in phrases:
        assert phrase in message, f"{phrase!r} not in {message!r}"
    assert encode_state(state) == encoded
    assert state_hash(state) == digest
    assert _fingerprint(state) == fingerprint
    return message


# --- Random games ---------------------------------------------------------------------------

Policy = Callable[[random.Random, GameState, list[Action]], Action]


def uniform(rng: random.Random, state: GameState, actions: list[Action]) -> Action:
    return rng.choice(actions)


def busy(rng: random.Random, state: GameState, actions: list[Action]) -> Action:
    """Uniform over everything but EndTurn, which it plays only when nothing else is left:
    long turns, full estates, many effects."""
    others = [a for a in actions if not isinstance(a, EndTurn)]
    return rng.choice(others) if others else actions[0]


def builder(rng: random.Random, state: GameState, actions: list[Action]) -> Action:
    """Places a tile whenever it can, otherwise plays like :func:`busy`: completes regions
    and colours, so bonuses and the knowledge tiles come into play."""
    places = [a for a in actions if type(a).__name__ == "PlaceTile"]
    if places:
        return rng.choice(places)
    return busy(rng, state, actions)


POLICIES: tuple[Policy, ...] = (uniform, busy, builder)

SOLO_STEPS = {Step.EXCHANGE, Step.PAY_GOODS, Step.REWARD, Step.REWARD_PLACE, Step.TARGET,
              Step.ORDER}
"""The steps only the solo game has."""
TEAM_STEPS = {Step.STOW}
"""The steps only the team game has."""


def solo_builder(rng: random.Random, state: GameState, actions: list[Action]) -> Action:
    """Half the time plays for the solo game: places a tile, buys the points to the target,
    exchanges goods, takes a tile; otherwise as :func:`busy`. Random play seldom reaches the
    solo game's own steps without it (new regions only via the rivers)."""
    if rng.random() < 0.5:
        for kind in ("PlaceTile", "BuyPoints", "TakeTile", "PayGoods"):
            chosen = [a for a in actions if type(a).__name__ == kind]
            if chosen:
                return rng.choice(chosen)
    return busy(rng, state, actions)


def random_game(
    players: int,
    seed: int,
    *,
    policy: Policy = uniform,
    edition: Edition = E2011,
    setup: Setup = Setup.STANDARD,
    modules: tuple[Module, ...] = (),
    estates: tuple[str, ...] = (),
    teams: tuple[tuple[int, int], ...] = (),
    visit: Callable[[GameState, GameState, Action | None], None] | None = None,
) -> tuple[GameState, int]:
    """Play one game with a seeded policy (entropy from the same rng); ``visit(before, after,
    action)`` sees every step (action None for chance events). Returns the end state and the
    number of actions."""
    rng = random.Random(seed)
    state = new_game(GameConfig(players=players, edition=edition, setup=setup, modules=modules,
                                estates=estates, teams=teams))
    count = 0
    while not state.is_over:
        if state.chance is not None:
            after = resolve_chance(state, rng.randbytes(32))
            action = None
        else:
            action = policy(rng, state, legal_actions(state))
            after = apply(state, action)
            count += 1
        if visit is not None:
            visit(state, after, action)
        state = after
    return state, count


def tile_census(state: GameState) -> Counter[int]:
    """Every hex tile by kind: supplies, depots, storages, estates and the box."""
    census = Counter(itertools.chain(
        *state.supplies, *state.depots, *(p.storage for p in state.players),
        *(p.estate for p in state.players),
    ))
    del census[EMPTY]
    for tile, boxed in enumerate(state.box):
        if boxed:
            census[tile] += boxed
    if state.inns:
        census[Tile.INN] += state.inns
    return census


def pending_steps(state: GameState) -> list[Step]:
    return [Step(step) for step, _ in state.pending]
