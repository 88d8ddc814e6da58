"""Property: ``legal_actions`` and ``apply`` agree.

In states reached by random legal play, every listed action applies, and every other action
from a large pool of candidates (all values of every action type, plus out-of-range ones) is
rejected with IllegalAction and leaves the state as it was.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from p2p_burgundy import (
    Buy,
    BuyPoints,
    BuyWorkers,
    ChooseEstate,
    Discard,
    EndTurn,
    IllegalAction,
    Pass,
    PayGoods,
    Payment,
    PlaceTile,
    SellGoods,
    Step,
    TakeFirst,
    TakeGoods,
    TakeTile,
    TakeWorkers,
    UseBuilding,
    UseDie,
    apply,
    encode_state,
    legal_actions,
    rules,
    state_hash,
)
from p2p_burgundy.actions import (
    BorrowMonasteries,
    PayTribute,
    PlaceFromDepot,
    SetDie,
    Stow,
    TakeShield,
)
from p2p_burgundy.config import Module, Setup
from tests.engine.helpers import (
    E2011,
    E2019,
    POLICIES,
    SOLO_STEPS,
    TEAM_STEPS,
    random_game,
    solo_builder,
)

TEAMS = ((0, 2), (1, 3))

POOL = [
    *(UseDie(d) for d in range(-1, 3)),
    *(TakeTile(d, s) for d in range(-1, 8) for s in range(-1, 9)),
    *(PlaceTile(i, s) for i in range(-1, 4) for s in range(-1, 38)),
    *(PlaceTile(i, s) for i in range(0, 5) for s in (36, 37, 55, 73, 74)),  # a team board's
    *(SellGoods(g) for g in range(-1, 8)),
    TakeWorkers(),
    *(Buy(d, s, pay) for d in range(0, 8) for s in range(0, 9) for pay in Payment),
    Buy(-1, 0), Buy(0, -1),
    *(Discard(i) for i in range(-1, 5)),
    Pass(),
    EndTurn(),
    *(ChooseEstate(side, s) for side in range(-1, 3) for s in range(-1, 38)),
    BuyWorkers(),
    *(UseBuilding(b) for b in range(-1, 57)),
    *(PayGoods(g) for g in range(-1, 8)),
    *(BuyPoints(n) for n in range(-1, 57)),
    *(TakeShield(n, r) for n in range(-1, 20) for r in (-1, 0, 1, 2, 6, 12, 18, 19)),
    *(PayTribute(keep, w) for keep in ((), (1,), (3,), (3, 8), (8, 3), (19,), (5, 5))
      for w in range(-1, 3)),
    *(SetDie(d, v) for d in range(-1, 3) for v in range(-1, 8)),
    *(BorrowMonasteries(s) for s in range(-1, 5)),
    *(PlaceFromDepot(d, slot, s) for d in (-1, 0, 1, 6, 7) for slot in (-1, 0, 3, 8)
      for s in range(-1, 38)),
    *(TakeFirst(step, arg) for step in range(-1, 23) for arg in (-1, 0, 1)),
    *(Stow(shared, i) for shared in range(-1, 3) for i in range(-2, 4)),
]
_DEPOT_SETS = [(d,) for d in range(0, 8)] + list(itertools.combinations(range(1, 7), 2)) + [
    (6, 1), (1, 2, 3), ()]
_KEEPS = [k for size in range(5) for k in itertools.combinations(range(1, 7), size)]
SHIP_POOL = [TakeGoods(depots, keep) for depots in _DEPOT_SETS for keep in _KEEPS]

SAMPLE_EVERY = 45  # besides every state with a rare step
RARE_CAP = 15  # states kept per rare step and player count


def sample_states(players: int) -> list:
    """States to move in, from random games: every SAMPLE_EVERY-th, and each rare step."""
    states = []
    rare: Counter = Counter()
    count = itertools.count()

    def visit(before, after, action) -> None:
        if after.to_move is None:
            return
        step = after.step
        if step not in (Step.TURN, Step.DIE) and rare[step] < RARE_CAP:
            rare[step] += 1
            states.append(after)
        elif next(count) % SAMPLE_EVERY == 0:
            states.append(after)

    if players == 1:  # the solo game, with and without the modules, until its steps came up
        for i in range(80):
            if all(rare[s] for s in SOLO_STEPS) and i >= 12:
                break
            random_game(1, 7100 + i, policy=(solo_builder, *POLICIES)[i % 4], edition=E2019,
                        modules=tuple(Module) if i % 2 else (), visit=visit)
        return states
    for i in range(12):
        setup = (Setup.STANDARD, Setup.EXPERTS_OPEN, Setup.STANDARD, Setup.EXPERTS_SECRET)[i % 4]
        random_game(players, 7000 + 100 * players + i, policy=POLICIES[i % 3],
                    edition=E2019 if i % 2 else E2011, setup=setup, visit=visit)
    for i in range(40):  # games with every expansion module, until their steps came up
        if all(rare[s] for s in (Step.CRANE, Step.WHITE_CASTLE, Step.SHIELD_GOODS)) and i >= 4:
            break
        random_game(players, 7500 + 100 * players + i, policy=POLICIES[i % 3], edition=E2019,
                    modules=tuple(Module), visit=visit)
    if players == 4:  # the team game, with the modules it plays and without
        for i in range(4):
            modules = (Module.EXTRA_TILES, Module.WHITE_CASTLES, Module.INNS) if i % 2 else ()
            random_game(4, 7900 + i, policy=POLICIES[i % 3], edition=E2019, modules=modules,
                        teams=TEAMS, visit=visit)
    return states


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_legal_actions_apply_and_every_other_candidate_is_rejected(players, monkeypatch):
    states = sample_states(players)
    # Rejections put the state hash in their message; hashing for each of the ~10^5
    # rejections here would dominate the run, and the hash is checked once per state below.
    monkeypatch.setattr(rules, "state_hash", lambda state: bytes(32))
    steps = Counter(s.step for s in states)
    # every kind of decision was examined (the experts' games bring the set-up choice)
    if players == 1:
        assert set(steps) >= SOLO_STEPS | {Step.CHOOSE_ESTATE, Step.SHIP}, steps
    else:
        team = set() if players == 4 else TEAM_STEPS
        assert set(steps) == set(Step) - SOLO_STEPS - team, steps
    for state in states:
        legal = legal_actions(state)
        assert legal, "a player to move always has a choice"
        assert len(set(legal)) == len(legal), "no action is listed twice"
        encoded, digest = encode_state(state), state_hash(state)
        for action in legal:
            after = apply(state, action)
            assert encode_state(after) != encoded
        listed = set(legal)
        pool = POOL + SHIP_POOL if state.step in (Step.SHIP, Step.SHIELD_GOODS) else POOL
        for action in pool:
            if action in listed:
                continue
            try:
                apply(state, action)
            except IllegalAction:
                continue
            raise AssertionError(f"{action!r} is not listed but applies in {state!r}")
        assert state_hash(state) == digest
        assert encode_state(state) == encoded
