"""The border posts of duchies 11a-11f as an engine module: a game plays it when some seat's
duchy has border posts (the duchies are the expansion: no module switch). Whenever a tile is
placed, each post newly joined to another scores the phase bonus; the first and second to
join all of theirs score the colour bonus for first and second (or the solo game's colour
reward instead)."""

from __future__ import annotations

from .config import GameConfig
from .estate import NEIGHBOURS, bits
from .rules import EngineModule, _Turn
from .scoring import COLOUR_BONUS_VP, PHASE_BONUS, Category
from .state import GameState, ModulePart


class BorderPostsPart(ModulePart, name="border-posts"):
    """Per seat, 1 or 2 once it was the first or second to join all its border posts, else
    0."""

    __slots__ = ("border_ranks",)
    border_ranks: tuple[int, ...]

    @classmethod
    def start(cls, config: GameConfig) -> BorderPostsPart:
        part = cls()
        part.border_ranks = (0,) * config.players
        return part


def border_links(posts: tuple[int, ...], occupied: int) -> tuple[int, bool]:
    """How far a player has joined its border posts: over each group of joined tiles, the
    posts it reaches (covers a rim space of) less one, summed; and whether one group reaches
    them all.

    >>> posts = (1 << 0, 1 << 3, 1 << 36)
    >>> border_links(posts, 0b1111), border_links(posts, 0b1011)
    ((1, False), (0, False))
    """
    links, every, seen = 0, False, 0
    for post in posts:
        group = post & occupied & ~seen
        if not group:
            continue
        grow = group
        while grow:
            reach = 0
            for s in bits(grow):
                reach |= NEIGHBOURS[s]
            grow = reach & occupied & ~group
            group |= grow
        seen |= group
        reached = sum(1 for q in posts if q & group)
        links += reached - 1
        every = every or reached == len(posts)
    return links, every


def _score_border_posts(turn: _Turn, tile: int, space: int, before: int) -> None:
    """Each post newly joined to another scores the phase bonus; joining them all, the
    first and second to do so score the colour bonus."""
    posts = turn.new.boards[turn.seat].border_posts
    if not posts:  # a seat on a duchy without posts
        return
    links, every = border_links(posts, turn.p.occupied)
    old_links, old_every = border_links(posts, before)
    if links > old_links:
        turn.p.add_vp(Category.PHASE_BONUSES, PHASE_BONUS[turn.new.phase] * (links - old_links))
    if every and not old_every:
        ranks = list(turn.new.modules["border-posts"].border_ranks)
        rank = sum(1 for r in ranks if r) + 1
        if rank <= 2:
            ranks[turn.seat] = rank
            turn.new.changed(BorderPostsPart.name).border_ranks = tuple(ranks)
            reward = turn.rules.colour_bonus
            if reward is not None:  # instead of the VP
                reward(turn)
            else:
                turn.p.add_vp(Category.COLOUR_BONUSES,
                              COLOUR_BONUS_VP[(turn.new.config.players, rank)])


def _plays(config: GameConfig) -> bool:
    return config.border_posts


def _seat_visible(state: GameState, seat: int) -> dict[str, object]:
    """A seat's rank in joining all its posts, and where its duchy's posts are, if it has
    any."""
    posts = state.boards[seat].border_posts
    out: dict[str, object] = {"border_posts": [bits(post) for post in posts]} if posts else {}
    out["border_rank"] = state.modules["border-posts"].border_ranks[seat]
    return out


BORDER_POSTS = EngineModule(
    name="border-posts",
    description="duchies 11a-11f: joining border posts scores the phase bonus, joining all "
                "of them first or second the colour bonus",
    plays=_plays,
    part=BorderPostsPart,
    seat_visible=_seat_visible,
    tile_placed=_score_border_posts,
)
