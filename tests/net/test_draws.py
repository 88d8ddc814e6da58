"""From entropy to dice and draws (DESIGN.md, property 2): golden vectors, uniformity, and an
independent implementation written from docs/protocol.md alone, checked against the engine
over whole games.

Everything here is deterministic (fixed entropies), so the statistical tests cannot flake.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import pytest

from p2p_burgundy import Edition, GameConfig, Module, draw_chance, new_game
from p2p_burgundy.chance import (
    DRAWS_LABEL,
    DealDraw,
    Draws,
    PhaseDraw,
    RoundDraw,
    SetupDraw,
)
from p2p_burgundy.config import Setup
from p2p_burgundy.estate import box_sides
from p2p_burgundy.net.audit import audit
from p2p_burgundy.net.beacon import HashChain, event_entropy
from p2p_burgundy.net.inmemory import Table

# --- The reference implementation, from docs/protocol.md ("From entropy to dice and draws") ------

WORD_SPAN = 2**32
BEIGE, LIGHT_GREEN, BLUE, DARK_GREEN, GREY, YELLOW = range(6)
BLACK = 6


class ReferenceStream:
    """Block i = SHA-256(b"p2p-burgundy/draws/v1" || entropy || u32be(i)); 4-byte words."""

    def __init__(self, entropy: bytes) -> None:
        assert len(entropy) == 32
        self.entropy = entropy
        self.words: list[int] = []
        self.used = 0

    def word(self) -> int:
        if self.used == len(self.words):
            block = len(self.words) // 8
            digest = hashlib.sha256(b"p2p-burgundy/draws/v1" + self.entropy
                                    + block.to_bytes(4, "big")).digest()
            self.words += [int.from_bytes(digest[i:i + 4], "big") for i in range(0, 32, 4)]
        self.used += 1
        return self.words[self.used - 1]

    def below(self, n: int) -> int:
        limit = WORD_SPAN - WORD_SPAN % n
        while (x := self.word()) >= limit:
            pass
        return x % n

    def take(self, pool: list[int]) -> int:
        return pool.pop(self.below(len(pool)))


def reference_supplies(players: int) -> list[list[int]]:
    """The face-down supplies before set-up, as the protocol document lists them."""
    knowledge = lambda n: 22 + n  # noqa: E731 (tile number of knowledge tile #n)
    black_knowledge = (7, 12, 14, 15, 24, 25)
    return [
        sorted(t for t in range(8) for _ in range(5)),  # beige: 5 of each building
        sorted([8 + 3 * a + k for a in range(4) for k, copies in ((0, 2), (1, 2), (2, 1))
                for _ in range(copies)]),  # light green
        [20] * 20,  # ships
        [21] * (14 - players),  # castles, less the start castles
        [22] * 10,  # mines
        [knowledge(n) for n in range(1, 27) if n not in black_knowledge],
        sorted([t for t in range(8) for _ in range(2)]
               + [9 + 3 * a + k for a in range(4) for k in (0, 1)]
               + [20] * 6 + [21] * 2 + [22] * 2 + [knowledge(n) for n in black_knowledge]),
    ]


# Tiles the modules add (docs/protocol.md, "Tiles, goods and the supplies").
KNOWLEDGE_27, KNOWLEDGE_28, KNOWLEDGE_29, CRANE, GEESE, WHITE_CASTLE, INN = range(49, 56)
INNS = 7  # the eighth pool, the inns' stack
MODULE_SUPPLY = {
    "extra-tiles": {YELLOW: [KNOWLEDGE_27, KNOWLEDGE_28], BLACK: [CRANE, GEESE]},
    "white-castles": {BEIGE: [WHITE_CASTLE] * 6, YELLOW: [KNOWLEDGE_29],
                      BLACK: [WHITE_CASTLE] * 2},
    "inns": {INNS: [INN] * 5},
}
ROUTE_CARDS = {2: 5, 3: 4, 4: 3}
SHIELDS_ON_DEPOTS = {2: (1,) * 6, 3: (1, 2) * 3, 4: (2,) * 6}


def reference_module_supplies(players: int, modules: tuple[str, ...]) -> list[list[int]]:
    """The supplies before set-up with ``modules``: an eighth pool with the inns, each pool
    in ascending order."""
    supplies = reference_supplies(players) + ([[]] if "inns" in modules else [])
    for module in modules:
        for pool, tiles in MODULE_SUPPLY.get(module, {}).items():
            supplies[pool] = sorted(supplies[pool] + tiles)
    return supplies


# Depot d's spaces in slot order: (colour, the smallest player count that fills it).
DEPOT_SPACES = {
    1: ((BEIGE, 2), (BLUE, 2), (YELLOW, 3), (LIGHT_GREEN, 4)),
    2: ((YELLOW, 2), (DARK_GREEN, 2), (BEIGE, 3), (BEIGE, 4)),
    3: ((LIGHT_GREEN, 2), (BEIGE, 2), (BLUE, 3), (YELLOW, 4)),
    4: ((BLUE, 2), (BEIGE, 2), (LIGHT_GREEN, 3), (GREY, 4)),
    5: ((GREY, 2), (YELLOW, 2), (BEIGE, 3), (BEIGE, 4)),
    6: ((BEIGE, 2), (LIGHT_GREEN, 2), (DARK_GREEN, 3), (BLUE, 4)),
}
BLACK_DEPOT_TILES = {2: 4, 3: 6, 4: 8}


@dataclass
class ReferenceGame:
    """The pools a verifier tracks across a game's chance events (only draws change them)."""

    players: int
    modules: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        self.supplies = reference_module_supplies(self.players, self.modules)
        self.goods = [g for g in range(1, 7) for _ in range(7)]
        self.phase = 0
        self.inns = 0

    def setup(self, entropy: bytes) -> SetupDraw:
        s = ReferenceStream(entropy)
        start = s.below(self.players)
        goods = tuple(tuple(sorted(s.take(self.goods) for _ in range(3)))
                      for _ in range(self.players))
        routes: tuple[tuple[int, ...], ...] = ()
        if "trade-routes" in self.modules:
            cards = list(range(1, 13))
            routes = tuple(tuple(s.take(cards) for _ in range(ROUTE_CARDS[self.players]))
                           for _ in range(self.players))
        shields: tuple[tuple[int, ...], ...] = ()
        if "shields" in self.modules:
            pool = list(range(1, 19))
            shields = tuple(tuple(sorted(s.take(pool) for _ in range(count)))
                            for count in SHIELDS_ON_DEPOTS[self.players])
        return SetupDraw(start, goods, shields, routes)

    def setup_in_draw_order(self, entropy: bytes) -> tuple[int, list[list[int]]]:
        s = ReferenceStream(entropy)
        start = s.below(self.players)
        return start, [[s.take(self.goods) for _ in range(3)] for _ in range(self.players)]

    def phase_setup(self, entropy: bytes, phase: int) -> PhaseDraw:
        s = ReferenceStream(entropy)
        n = self.players
        depots = [[-1] * 8] + [[-1] * 4 for _ in range(6)]
        for d in range(1, 7):
            for slot, (colour, least) in enumerate(DEPOT_SPACES[d]):
                if least > n:
                    continue
                if n == 3 and d == 6 and colour == DARK_GREEN and phase in (1, 3):
                    colour = GREY  # the 3-player rule: a mine instead, in phases B and D
                if self.supplies[colour]:
                    depots[d][slot] = s.take(self.supplies[colour])
        for slot in range(BLACK_DEPOT_TILES[n]):
            if self.supplies[BLACK]:
                depots[0][slot] = s.take(self.supplies[BLACK])
        goods = tuple(s.take(self.goods) for _ in range(5))
        if "inns" in self.modules and self.supplies[INNS]:
            self.supplies[INNS].pop()  # one inn beside the black depot: no draw
            self.inns += 1
        return PhaseDraw(phase, tuple(tuple(d) for d in depots), goods)

    def deal(self, entropy: bytes, sides: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
        """Each seat in seat order: a take from the box's board sides left, then a take among
        the sides left that are another estate; both leave the box."""
        s = ReferenceStream(entropy)
        box = list(sides)
        offers = []
        for _ in range(self.players):
            first = box.pop(s.below(len(box)))
            others = [i for i, ident in enumerate(box) if ident != first]
            offers.append((first, box.pop(others[s.below(len(others))])))
        return tuple(offers)

    def round_dice(self, entropy: bytes) -> tuple[tuple[tuple[int, int], ...], int]:
        s = ReferenceStream(entropy)
        dice = tuple((s.below(6) + 1, s.below(6) + 1) for _ in range(self.players))
        return dice, s.below(6) + 1


# --- Golden vectors (also in docs/protocol.md) ---------------------------------------------------

ZERO_WORDS = "69efc4ac c5353ca4 e63a92d8 62716d7d 5435c489 3a44ff41 78628444 0539aeef"
ZERO_DICE = [5, 1, 3, 2, 6, 6, 5, 2]
DOC_GAME_ID = bytes.fromhex("00112233445566778899aabbccddeeff")
DOC_CHAINS = (HashChain(bytes(32)), HashChain(b"\xff" * 32))
ENTROPY_2 = "99bff25b95638f4f39fc34fea69642b3c6e7e78a157c772b65b13c251ed9f33c"
DOC_SETUP = (1, [[2, 3, 6], [5, 3, 6]])
DOC_PHASE_DEPOTS = (
    (1, 37, 6, 12),  # the black depot
    (3, 20), (35, 21), (12, 4), (20, 2), (22, 33), (7, 8),
)
DOC_PHASE_GOODS = (4, 1, 6, 1, 4)
DOC_ROUND = (((2, 2), (6, 2)), 6)


def doc_entropy(k: int) -> bytes:
    return event_entropy(DOC_GAME_ID, k, [c.reveal(k) for c in DOC_CHAINS])


def record_draws(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The reference stream's draws from here on, as ``"n→r"`` (a draw below n gave r)."""
    seen: list[str] = []
    below = ReferenceStream.below

    def recorded(self: ReferenceStream, n: int) -> int:
        r = below(self, n)
        seen.append(f"{n}→{r}")
        return r

    monkeypatch.setattr(ReferenceStream, "below", recorded)
    return seen


def test_first_block_and_dice_of_zero_entropy() -> None:
    block = hashlib.sha256(DRAWS_LABEL + bytes(32) + bytes(4)).digest()
    assert " ".join(block[i:i + 4].hex() for i in range(0, 32, 4)) == ZERO_WORDS
    draws = Draws(bytes(32))
    assert [draws.die() for _ in range(8)] == ZERO_DICE


def test_the_documented_two_player_game_derives_the_pinned_draws() -> None:
    assert doc_entropy(2).hex() == ENTROPY_2
    ref = ReferenceGame(2)
    assert ref.setup_in_draw_order(doc_entropy(0)) == DOC_SETUP
    state, drew = draw_chance(new_game(GameConfig(players=2)), doc_entropy(0))
    assert drew == SetupDraw(1, ((2, 3, 6), (3, 5, 6)))
    state, phase = draw_chance(state, doc_entropy(1))
    assert isinstance(phase, PhaseDraw)
    assert tuple(tuple(t for t in d if t != -1) for d in phase.depots) == DOC_PHASE_DEPOTS
    assert phase.goods == DOC_PHASE_GOODS
    state, rolled = draw_chance(state, doc_entropy(2))
    assert isinstance(rolled, RoundDraw)
    assert (rolled.dice, rolled.white_die) == DOC_ROUND
    assert rolled.goods == DOC_PHASE_GOODS[0]


def test_reference_stream_matches_the_engine_across_block_boundaries() -> None:
    for i in range(200):
        entropy = hashlib.sha256(i.to_bytes(4, "big")).digest()
        ours, ref = Draws(entropy), ReferenceStream(entropy)
        for n in (6, 2, 3, 40, 20, 42, 1, 7, 2**32, 3 * 2**30, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6):
            assert ours.below(n) == ref.below(n)


EVERY_MODULE = GameConfig(players=2, edition=Edition.E2019, modules=tuple(Module))
MODULE_SETUP_DRAWS = ("2→1 42→12 41→14 40→35 39→26 38→15 37→31 12→2 11→5 10→9 9→0 8→1 7→2 "
                      "6→2 5→3 4→0 3→2 18→14 17→9 16→5 15→1 14→7 13→11")
MODULE_PHASE_DRAWS = ("46→23 20→13 23→4 12→5 20→7 45→31 19→13 44→12 10→0 22→15 43→17 19→0 "
                      "44→34 43→12 42→18 41→13 36→21 35→6 34→32 33→4 32→19")


def test_the_documented_game_with_every_module_derives_the_pinned_draws(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/protocol.md, "Test vector: a game with every module": eight pools, and the SETUP
    and phase A draws of the two-player vector's entropies."""
    state = new_game(EVERY_MODULE)
    assert [len(pool) for pool in state.supplies] == [46, 20, 20, 12, 10, 23, 44, 5]
    ref = ReferenceGame(2, tuple(m.value for m in Module))
    assert ref.supplies == [list(pool) for pool in state.supplies]
    seen = record_draws(monkeypatch)
    state, setup = draw_chance(state, doc_entropy(0))
    assert setup == ref.setup(doc_entropy(0)) == SetupDraw(
        1, ((2, 3, 6), (3, 5, 6)), ((15,), (10,), (6,), (2,), (11,), (17,)),
        ((3, 7, 12, 1, 4), (6, 8, 10, 2, 11)))
    assert " ".join(seen) == MODULE_SETUP_DRAWS
    seen.clear()
    state, phase = draw_chance(state, doc_entropy(1))
    assert phase == ref.phase_setup(doc_entropy(1), 0)
    assert " ".join(seen) == MODULE_PHASE_DRAWS
    assert isinstance(phase, PhaseDraw)
    assert tuple(tuple(t for t in d if t != -1) for d in phase.depots) == (
        (29, 6, 13, 7), (4, 20), (27, 21), (12, 6), (20, 2), (22, 43), (3, 8))
    assert state.inns == ref.inns == 1 and len(state.supplies[7]) == 4
    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    flat = " ".join(doc.split())
    assert MODULE_SETUP_DRAWS in flat and MODULE_PHASE_DRAWS in flat


@pytest.mark.parametrize(
    "config",
    [GameConfig(players=2), GameConfig(players=3), GameConfig(players=4),
     GameConfig(players=3, edition=Edition.E2019, setup=Setup.EXPERTS_OPEN), EVERY_MODULE],
    ids=["2", "3", "4", "3-experts-2019", "2-every-module-2019"],
)
def test_reference_derivation_matches_every_chance_event_of_a_game(config: GameConfig) -> None:
    players = config.players
    table = Table(players, seed=players + 10, config=config)
    table.play()
    report = audit(table.files[0])
    assert report.ok
    ref = ReferenceGame(players, tuple(m.value for m in config.modules))
    for step in report.chance:
        if isinstance(step.drew, SetupDraw):
            assert ref.setup(step.entropy) == step.drew
        elif isinstance(step.drew, DealDraw):
            box = box_sides(config.edition.value)  # data: the box's board sides, file order
            assert ref.deal(step.entropy, box) == step.drew.offers
        elif isinstance(step.drew, PhaseDraw):
            assert ref.phase_setup(step.entropy, step.drew.phase) == step.drew
        else:
            assert ref.round_dice(step.entropy) == (step.drew.dice, step.drew.white_die)
    assert len(report.chance) == 1 + 5 + 25 + (config.setup is not Setup.STANDARD)


# --- Uniformity ----------------------------------------------------------------------------------

CHI2_CRITICAL_0_001 = {5: 20.515, 3: 16.266, 7: 24.322}


def _chi_square(counts: list[int]) -> float:
    expected = sum(counts) / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def test_dice_from_consecutive_entropies_are_uniform() -> None:
    counts = [0] * 6
    for i in range(10_000):  # 60,000 dice: six from each of 10,000 consecutive entropies
        draws = Draws(i.to_bytes(32, "big"))
        for _ in range(6):
            counts[draws.die() - 1] += 1
    assert sum(counts) == 60_000
    assert _chi_square(counts) < CHI2_CRITICAL_0_001[5]


def test_each_die_of_a_round_is_uniform_by_seat() -> None:
    """The first, fifth and ninth die of a 4-player ROUND (seat 0, seat 2, the white die)."""
    for position in (0, 4, 8):
        counts = [0] * 6
        for i in range(6_000):
            draws = Draws(hashlib.sha256(b"round" + i.to_bytes(4, "big")).digest())
            rolled = [draws.die() for _ in range(9)]
            counts[rolled[position] - 1] += 1
        assert _chi_square(counts) < CHI2_CRITICAL_0_001[5]


def test_start_player_and_first_tile_are_uniform() -> None:
    starts = [0] * 4
    buildings = [0] * 8
    for i in range(8_000):
        draws = Draws(hashlib.sha256(b"setup" + i.to_bytes(4, "big")).digest())
        starts[draws.below(4)] += 1
        buildings[draws.take(list(reference_supplies(4)[BEIGE]))] += 1
    assert _chi_square(starts) < CHI2_CRITICAL_0_001[3]
    assert _chi_square(buildings) < CHI2_CRITICAL_0_001[7]


# --- Rejection sampling edges --------------------------------------------------------------------


def _first_words(entropy: bytes, count: int) -> list[int]:
    ref = ReferenceStream(entropy)
    return [ref.word() for _ in range(count)]


def _seed_where(predicate: object) -> bytes:
    for i in range(10_000):
        entropy = i.to_bytes(32, "big")
        if predicate(_first_words(entropy, 3)):  # type: ignore[operator]
            return entropy
    raise AssertionError("no such seed in the first 10,000")


def test_below_one_is_zero_and_reads_one_word_each() -> None:
    draws, ref = Draws(bytes(32)), ReferenceStream(bytes(32))
    assert [draws.below(1) for _ in range(20)] == [0] * 20
    assert [draws.below(2**32) for _ in range(4)] == [ref.word() for _ in range(24)][20:]


def test_below_two_to_the_32_returns_the_word_itself() -> None:
    entropy = bytes(range(32))
    draws = Draws(entropy)
    assert [draws.below(2**32) for _ in range(10)] == _first_words(entropy, 10)


def test_below_rejects_out_of_range_bounds() -> None:
    draws = Draws(bytes(32))
    for n in (0, -1, 2**32 + 1):
        with pytest.raises(ValueError, match="cannot draw below"):
            draws.below(n)


def test_a_rejected_first_word_is_skipped() -> None:
    n = 3 * 2**30  # limit = 2**32 - 2**32 % n = 3 * 2**30: a quarter of all words are rejected
    limit = 3 * 2**30
    entropy = _seed_where(lambda w: w[0] >= limit and w[1] < limit)
    words = _first_words(entropy, 3)
    draws = Draws(entropy)
    assert draws.below(n) == words[1] % n
    assert draws.below(2**32) == words[2]  # exactly two words were read


def test_two_rejected_words_in_a_row_are_skipped() -> None:
    n = limit = 3 * 2**30
    entropy = _seed_where(lambda w: w[0] >= limit and w[1] >= limit and w[2] < limit)
    words = _first_words(entropy, 3)
    assert Draws(entropy).below(n) == words[2] % n


def test_a_word_just_below_the_limit_is_kept() -> None:
    # For n = 6 the limit is 2**32 - 4: only 4294967292..4294967295 are ever rejected.
    assert WORD_SPAN - WORD_SPAN % 6 == 2**32 - 4
    ref = ReferenceStream(bytes(32))
    ref.words, ref.used = [2**32 - 5, 2**32 - 4, 7], 0
    assert ref.below(6) == (2**32 - 5) % 6
    assert ref.below(6) == 7 % 6  # 2**32 - 4 was rejected


@pytest.mark.parametrize(("edition", "draws", "offers"), [
    ("2011", "12→4 11→2 10→0 7→3", (("2", "1"), ("1", "6"))),
    ("2019", "16→12 12→0 14→12 11→1", (("2019-2", "1"), ("2019-2", "1"))),
])
def test_the_documented_deal_vector(monkeypatch: pytest.MonkeyPatch, edition: str, draws: str,
                                    offers: tuple[tuple[str, str], ...]) -> None:
    """docs/protocol.md, DEAL: two players, entropy 00 x 32."""
    seen = record_draws(monkeypatch)
    assert ReferenceGame(2).deal(bytes(32), box_sides(edition)) == offers
    assert " ".join(seen) == draws
    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert f"draws `{draws}`" in doc
