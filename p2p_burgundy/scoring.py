"""Victory points: the tables, the score categories, final scoring and the winner.

>>> REGION_VP[5], PHASE_BONUS[0], COLOUR_BONUS_VP[(4, 1)]
(15, 10, 7)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Final

from .config import Edition
from .pickling import by_constructor
from .tiles import (
    ANIMAL_TYPE,
    KNOWLEDGE_BUILDING_SCORED,
    TILE_COLOUR,
    Colour,
    Tile,
)

if TYPE_CHECKING:
    from .state import GameState, PlayerState


class Category(IntEnum):
    """Where victory points come from; a player's score is the sum over these."""

    ANIMALS = 0  # animal tiles placed (with same-type rescoring)
    REGIONS = 1  # completed regions, by size
    PHASE_BONUSES = 2  # completed regions, by the phase they were completed in
    COLOUR_BONUSES = 3  # first / second to cover every space of a colour
    SALES = 4  # goods sold
    WATCHTOWERS = 5
    KNOWLEDGE = 6  # end-game knowledge tiles (#15, #16-#23, #24, #25, #26)
    GOODS_LEFT = 7  # 1 per unsold goods tile at the end
    SILVER_LEFT = 8  # 1 per silverling at the end
    WORKERS_LEFT = 9  # 1 per two workers at the end
    SHIELDS = 10  # shields module only: what shields add (their end-game VP, doublings)


_CATEGORIES: Final = tuple(Category)
BASE_CATEGORY_COUNT: Final = len(Category) - 1
"""A breakdown holds SHIELDS only with the shields module (so other games encode as before)."""


def categories(breakdown: Sequence[int]) -> tuple[Category, ...]:
    """The categories a player's breakdown holds, in order.

    >>> categories((0,) * 10)[-1].name, categories((0,) * 11)[-1].name
    ('WORKERS_LEFT', 'SHIELDS')
    """
    return _CATEGORIES[:len(breakdown)]


# By region size 1..8; 9 only with an inn in an area of 8 (our reading: the Special Edition's
# 45), 10 with shield #17 as well (the same rule: size n scores n(n+1)/2).
REGION_VP: Final = (0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55)
PHASE_BONUS: Final = (10, 8, 6, 4, 2)  # per completed region, phases A..E
# (players, 1 = first / 2 = second to complete a colour) -> VP
COLOUR_BONUS_VP: Final = {(2, 1): 5, (3, 1): 6, (4, 1): 7, (2, 2): 2, (3, 2): 3, (4, 2): 4}
SALE_VP: Final = {2: 2, 3: 3, 4: 4}  # per goods tile sold, by player count
WATCHTOWER_VP: Final = 4
KNOWLEDGE_15_VP: Final = {Edition.E2011: 3, Edition.E2019: 2}  # per goods type sold
KNOWLEDGE_26_VP: Final = {Edition.E2011: 2, Edition.E2019: 3}  # per bonus tile
KNOWLEDGE_BUILDING_VP: Final = 4  # #16-#23, per building of the type
KNOWLEDGE_24_VP: Final = 4  # per animal type placed
KNOWLEDGE_25_VP: Final = 1  # per goods tile sold


def knowledge_points(player: PlayerState, edition: Edition) -> int:
    """End-game VP from the player's knowledge tiles.

    Dario sold 4 red, 3 violet, 3 pink, 1 orange: #15 gives 12 VP (2011), #25 gives 11.

    >>> from types import SimpleNamespace as P
    >>> dario = P(knowledge=1 << 15, sold=(0, 0, 3, 3, 4, 0, 1), estate=(), bonuses=())
    >>> knowledge_points(dario, Edition.E2011), knowledge_points(dario, Edition.E2019)
    (12, 8)
    >>> knowledge_points(P(knowledge=1 << 25, sold=dario.sold, estate=(), bonuses=()),
    ...                  Edition.E2011)
    11
    """
    k = player.knowledge
    points = 0
    for n in SCORING_KNOWLEDGE:  # a loop: a generator costs a frame
        if k >> n & 1:
            points += monastery_points(player, n, edition)
    if k & _BUILDING_KNOWLEDGE and _CRANE in player.estate:
        points += KNOWLEDGE_BUILDING_VP  # the crane counts as one building of the best type
    return points


SCORING_KNOWLEDGE: Final = (15, *range(16, 24), 24, 25, 26, 29)
"""The knowledge tiles that score victory points (at the end; in the solo game at once)."""
# Plain ints where an estate's tiles are compared with them (an IntEnum member compares by the
# generic path, 37 times in a count), and the enum members read as module names (reading one
# off its class goes through the enum's metaclass).
_CRANE: Final = int(Tile.CRANE)
_LIGHT_GREEN: Final = int(Colour.LIGHT_GREEN)
_BUILDING_SCORED: Final = {n: int(b) for n, b in KNOWLEDGE_BUILDING_SCORED.items()}
_BUILDING_KNOWLEDGE: Final = sum(1 << n for n in KNOWLEDGE_BUILDING_SCORED)  # as knowledge bits
_KNOWLEDGE: Final = Category.KNOWLEDGE
_GOODS_LEFT: Final = Category.GOODS_LEFT
_SILVER_LEFT: Final = Category.SILVER_LEFT
_WORKERS_LEFT: Final = Category.WORKERS_LEFT


def monastery_points(player: PlayerState, number: int, edition: Edition) -> int:
    """The VP knowledge tile #``number`` scores for ``player`` as things stand (0 for a tile
    that scores nothing), the crane aside.

    Anna placed 3 sheep, 1 cow and 1 pig: #24 scores 3 x 4 = 12.

    >>> from types import SimpleNamespace as P
    >>> anna = P(estate=(Tile.SHEEP_2, Tile.COW_3, Tile.PIG_4, Tile.SHEEP_3, -1))
    >>> monastery_points(anna, 24, Edition.E2019), monastery_points(anna, 8, Edition.E2019)
    (12, 0)
    """
    if number == 15:
        return KNOWLEDGE_15_VP[edition] * sum(1 for n in player.sold if n)
    if number == 25:
        return KNOWLEDGE_25_VP * sum(player.sold)
    if number == 26:
        return KNOWLEDGE_26_VP[edition] * sum(1 for b in player.bonuses if b)
    if number == 24:
        kinds = {ANIMAL_TYPE[t] for t in player.estate if t >= 0
                 and TILE_COLOUR[t] == _LIGHT_GREEN}
        return KNOWLEDGE_24_VP * len(kinds)
    building = _BUILDING_SCORED.get(number)
    if building is None:
        return 0
    return KNOWLEDGE_BUILDING_VP * player.estate.count(building)


def end_game_points(player: PlayerState, edition: Edition) -> dict[Category, int]:
    """The final scoring's VP by category (added once, after phase E; not in the solo game,
    which is won by filling the duchy)."""
    return {
        _KNOWLEDGE: knowledge_points(player, edition),
        _GOODS_LEFT: sum(player.goods),
        _SILVER_LEFT: player.silver,
        _WORKERS_LEFT: player.workers // 2,
    }


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a game a module plays by sides (the team game's teams), as a result line
    names it: ``word`` and ``letter`` ("team", "A"), its ``seats`` in their order of play and
    its ``points``."""

    word: str
    letter: str
    seats: tuple[int, ...]
    points: int

    def players(self, name: Callable[[int], str]) -> str:
        """Its players in a line, each seat as ``name`` writes it: ``Ann and Cid``.

        >>> Side("team", "A", (0, 2), 90).players(str)
        '0 and 2'
        """
        return " and ".join(map(name, self.seats))


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: seats from winner to last, with the tie-break keys."""

    ranking: tuple[int, ...]
    scores: tuple[int, ...]  # by seat
    empty_spaces: tuple[int, ...]  # by seat (fewer wins a tie)
    decided_by: str  # "score", "fewest empty spaces", "later in turn order" (2011) or
    # "further behind on the bridge" (2019); the solo game: SOLO_WON or SOLO_LOST; the team
    # game: "team score", "more empty spaces" or "further behind on the bridge"
    teams: tuple[tuple[int, int], ...] = ()  # the team game: the teams, the winner first
    team_scores: tuple[int, ...] = ()  # the team game: each team's VP, as ``teams``

    def __reduce__(self) -> tuple[type[Outcome], tuple[object, ...]]:
        return by_constructor(self)  # the compiled build: see pickling.py

    @property
    def won(self) -> bool:
        """The solo game: whether the player filled every space of the duchy in time (in a
        game of several players: always True, someone won)."""
        return self.decided_by != SOLO_LOST

    @property
    def winner(self) -> int:
        return self.ranking[0]

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won: the winner, the winning team's two players in the team game,
        none in a lost solo game."""
        if not self.won:
            return ()
        return self.teams[0] if self.teams else (self.winner,)


SOLO_WON: Final = "every space filled"
SOLO_LOST: Final = "spaces left empty"


def outcome(state: GameState) -> Outcome:
    """Rank the players: most VP; ties go to the fewest empty estate spaces, then (2011) to
    the player later in turn order (the order of the last round) or (2019) to the player
    further behind on the bridge at the end. The solo game is won by filling all 37 spaces
    (:attr:`Outcome.won`); its score is the VP gained on the way."""
    n = state.config.players
    scores = tuple(p.vp for p in state.players)
    empty = tuple(p.estate.count(-1) for p in state.players)
    if n == 1:
        return Outcome((0,), scores, empty, SOLO_LOST if empty[0] else SOLO_WON)
    if state.config.teams:
        return _team_outcome(state, scores, empty)
    if state.config.edition is Edition.E2019:
        order, last = state.bridge_order(), "further behind on the bridge"
    else:
        order, last = state.order, "later in turn order"
    position = {seat: i for i, seat in enumerate(order)}

    def key(seat: int) -> tuple[int, int, int]:
        return (-scores[seat], empty[seat], -position[seat])

    ranking = tuple(sorted(range(n), key=key))
    first, second = ranking[0], ranking[1]
    if scores[first] != scores[second]:
        why = "score"
    elif empty[first] != empty[second]:
        why = "fewest empty spaces"
    else:
        why = last
    return Outcome(ranking, scores, empty, why)


def _team_outcome(state: GameState, scores: tuple[int, ...], empty: tuple[int, ...]) -> Outcome:
    """The team game: the team with more VP (both players' added up) wins; on a tie, the team
    with more empty spaces in its duchy (the rulebook's words); then (our reading, the 2019
    base game's last tie-break for teams) the team whose foremost piece stands further
    behind on the bridge. ``ranking`` lists the winning team's seats first."""
    position = {seat: i for i, seat in enumerate(state.bridge_order())}

    def key(team: tuple[int, int]) -> tuple[int, int, int]:
        return (-(scores[team[0]] + scores[team[1]]), -empty[team[0]],
                -min(position[team[0]], position[team[1]]))

    first, second = teams = tuple(sorted(state.config.teams, key=key))
    (score, spaces, _), (other, other_spaces, _) = key(first), key(second)
    why = ("team score" if score != other else
           "more empty spaces" if spaces != other_spaces else "further behind on the bridge")
    return Outcome((*first, *second), scores, empty, why, teams,
                   tuple(scores[a] + scores[b] for a, b in teams))
