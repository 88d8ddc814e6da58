"""The team game (the 2019 rulebook's "The Team Game") as an engine module.

Four players in two teams of two; each team plays one team board (two halves, one duchy),
and everything but each player's dice, turn-order piece, victory points and own storage is
the team's: workers, silverlings, goods, the duchy, its knowledge tiles and bonuses, and the
team's shared storage. Each seat keeps its own :class:`~p2p_burgundy.state.PlayerState`,
and the team's fields are the same at both of its seats: after every action the mover's
team fields are copied to its partner (:func:`_share`). The chance events change both seats
of a team alike (a round's dice are each player's own; at a phase end the mines pay the team
once, as both seats show the same mines and silver), so nothing else needs copying.

A seat's ``storage`` holds its own tiles first (``GameState.private[seat]`` of them), then the
team's shared tiles. A tile taken waits at the end of the mover's storage while step STOW asks
where it goes (:class:`~p2p_burgundy.actions.Stow`): the player's own storage or the team's,
discarding an old tile of that storage if it is full (tiles never move from one storage to
another). Set-up, the scoring once per team and the outcome follow the rulebook's section.
"""

from __future__ import annotations

from typing import ClassVar, Final

from .actions import Action, PlaceTile, Stow
from .chance import Draws
from .config import GameConfig, Switch
from .estate import bits
from .rules import (
    _HANDLERS,
    EngineModule,
    StepWords,
    _Handler,
    _start_castle,
    _Turn,
)
from .scoring import Outcome, Side
from .state import GameState, ModulePart, PlayerState, SetupPart, Step
from .tiles import FACE_DOWN, Colour
from .white_castles import WHITE_CASTLES
from .words import ActionWords, Target, Wording


class TeamPart(ModulePart):
    """Per seat, how many tiles at the front of its ``storage`` are its own; the rest are its
    team's shared storage, the same at both of its seats."""

    name: ClassVar[str] = "team"
    fields: ClassVar[tuple[str, ...]] = ("private",)
    __slots__ = fields
    private: tuple[int, ...]

    @classmethod
    def start(cls, config: GameConfig) -> TeamPart:
        part = cls()
        part.private = (0,) * config.players
        return part


TEAMS: Final = ((0, 2), (1, 3))
"""The teams of ``--teams``: seats 0 and 2 (team A: A1, A2) against 1 and 3 (B1, B2), so the
seat order is round 1's turn order A1, B1, A2, B2."""
SWITCH: Final = Switch(
    "--teams", game="the team game", games="team games",
    help="the team game (2019): 4 players, seats 0 and 2 (team A, first) against 1 and 3, "
         "sharing a team board (provisional unless --estate-file gives one)",
    play_help="the team game (2019) against 3 bots (--bots 3, or --local --bots 3): you and the "
              "second bot against the other two",
    players=4, settings=(("teams", TEAMS),),
    own_board="the team game is played on a team board: no --estate or --setup (a team board "
              "file: --estate-file)")
"""The team game's switch: four players in the teams :data:`TEAMS`."""
TEAM_WORKERS: Final = (3, 5)  # team A's, team B's at the start
TEAM_SILVER: Final = 2  # each team's at the start
TEAM_FIELDS: Final = ("silver", "workers", "goods", "sold", "estate", "occupied", "frontier",
               "knowledge", "bonuses")
"""A player's fields that are the team's (the same at both seats of a team)."""
_PLACING: Final = {
    **{step: _HANDLERS[(step, PlaceTile)] for step in (Step.DIE, Step.FREE_ACTION,
                                                       Step.CITY_HALL)},
    **{step: handler for step, cls, handler in WHITE_CASTLES.handlers if cls is PlaceTile},
}
"""The steps that place a stored tile (the white castle's with that module), with their
handlers: the team game counts, after each, whose storage the tile left."""


def round_one_order(config: GameConfig) -> tuple[int, ...]:
    """The turn order of round 1: A1, B1, A2, B2.

    >>> from p2p_burgundy.config import Edition
    >>> round_one_order(GameConfig(4, Edition.E2019, teams=((2, 0), (1, 3))))
    (2, 1, 0, 3)
    """
    (a1, a2), (b1, b2) = config.teams
    return (a1, b1, a2, b2)


def _share_fields(source: PlayerState, target: PlayerState) -> None:
    """Copy the team's fields from one seat of a team to the other (a fresh copy)."""
    target.silver = source.silver
    target.workers = source.workers
    target.goods = source.goods
    target.sold = source.sold
    target.estate = source.estate
    target.occupied = source.occupied
    target.frontier = source.frontier
    target.knowledge = source.knowledge
    target.bonuses = source.bonuses


def _setup(state: GameState, draws: Draws) -> None:
    """The team game's set-up, after the base game's draws: each team's castle on its team
    board's start space, three goods (those drawn for its first player; the second player's
    go back to the pool), 3 workers for team A and 5 for team B, 2 silverlings each, and the
    round 1 order A1, B1, A2, B2. The castle drawn for each second player goes back to the
    supply: a team has one."""
    config = state.config
    players = [p.copy() for p in state.players]
    pool = list(state.goods_pool)
    supplies = list(state.supplies)
    castles = list(supplies[Colour.DARK_GREEN])
    track = list(state.track)
    for rank, seat in enumerate(round_one_order(config)):
        track[seat] = (0, len(track) - 1 - rank)  # A1's piece on top
    for team, (first, second) in enumerate(config.teams):
        lead, mate = players[first], players[second]
        for goods, count in enumerate(mate.goods):
            pool += [goods] * count
        castles.append(_start_castle(second))
        lead.workers = TEAM_WORKERS[team]
        lead.silver = TEAM_SILVER
        _share_fields(lead, mate)
    if config.has_choices:  # a board with a choice of castle spaces: the team's first chooses
        state.changed(SetupPart.name).offers = tuple(
            () if seat in (b for _, b in config.teams) else offer
            for seat, offer in enumerate(state.offers))
    supplies[Colour.DARK_GREEN] = tuple(sorted(castles))
    state.supplies = tuple(supplies)
    state.goods_pool = tuple(sorted(pool))
    state.players = tuple(players)
    state.track = tuple(track)
    state.order = round_one_order(config)


def _store(turn: _Turn, tile: int) -> None:
    """A tile taken waits at the end of the mover's storage until STOW says where it goes."""
    turn.p.storage = (*turn.p.storage, tile)
    turn.push(Step.STOW)


def _parts(state: GameState, seat: int, p: PlayerState) -> tuple[tuple[int, ...],
                                                                   tuple[int, ...]]:
    """The player's own stored tiles and the team's, without a tile waiting for STOW."""
    own = state.modules[TeamPart.name].private[seat]
    held = p.storage[:-1] if state.pending and state.pending[-1][0] == Step.STOW else p.storage
    return held[:own], held[own:]


def _stow_choices(state: GameState, p: PlayerState, _: int) -> list[Action]:
    """For each storage, the tile goes there; where it is full, with each old tile of it
    discarded in turn."""
    seat = state.order[state.turn]
    board = state.boards[seat]
    choices: list[Action] = []
    for shared, (part, room) in enumerate(zip(_parts(state, seat, p),
                                              (board.private_storage, board.shared_storage),
                                              strict=True)):
        if len(part) < room:
            choices.append(Stow(shared, -1))
        else:
            choices += [Stow(shared, i) for i in range(len(part))]
    return choices


def _stow(turn: _Turn, action: Stow, _: int) -> None:
    p = turn.p
    old = turn.old
    board = old.boards[turn.seat]
    if action not in _stow_choices(old, p, 0):
        kinds = ("your storage", "the team's storage")
        if action.shared not in (0, 1):
            why = "shared is 0 (your own storage) or 1 (the team's)"
        else:
            room = (board.private_storage, board.shared_storage)[action.shared]
            where = kinds[action.shared]
            why = (f"{where} has room: discard nothing (-1)"
                   if len(_parts(old, turn.seat, p)[action.shared]) < room
                   else f"{where} is full: discard one of its {room} tiles (0..{room - 1})")
        raise turn.fail(action, why)
    own, team = _parts(old, turn.seat, p)
    tile = p.storage[-1]
    part = list(team if action.shared else own)
    if action.discard >= 0:
        box = list(turn.new.box)
        box[part.pop(action.discard) % FACE_DOWN] += 1
        turn.new.box = tuple(box)
    part.append(tile)
    if action.shared:
        team = tuple(part)
    else:
        own = tuple(part)
    p.storage = own + team
    counts = turn.new.changed(TeamPart.name)
    private = list(counts.private)
    private[turn.seat] = len(own)
    counts.private = tuple(private)


def _counting_own(place: _Handler) -> _Handler:
    """``place`` (a PlaceTile handler), then one tile fewer in the mover's own storage if the
    tile left it."""

    def run(turn: _Turn, action: PlaceTile, arg: int) -> None:
        place(turn, action, arg)
        if action.storage < turn.new.modules[TeamPart.name].private[turn.seat]:
            part = turn.new.changed(TeamPart.name)
            private = list(part.private)
            private[turn.seat] -= 1
            part.private = tuple(private)

    return run


def _share(turn: _Turn) -> None:
    """After every action: the mover's team fields and the team's storage, at the partner's
    seat too."""
    new = turn.new
    partner = new.config.partner(turn.seat)
    players = list(new.players)
    mate = players[partner] = players[partner].copy()
    _share_fields(turn.p, mate)
    team = _parts(new, turn.seat, turn.p)[1]
    mate.storage = mate.storage[:new.modules[TeamPart.name].private[partner]] + team
    new.players = tuple(players)


def _end_scorers(config: GameConfig) -> tuple[int, ...]:
    """The final scoring counts each team's silverlings, goods, workers and monasteries once,
    at its first player's seat."""
    return tuple(first for first, _ in config.teams)


def team_letter(config: GameConfig, seat: int) -> str:
    """``A`` or ``B``: the team ``seat`` plays in (team A moves first).

    >>> from p2p_burgundy import Edition
    >>> [team_letter(GameConfig(4, Edition.E2019, teams=TEAMS), s) for s in range(4)]
    ['A', 'B', 'A', 'B']
    """
    return "AB"[config.teams.index(config.team_of(seat))]


def _sides(config: GameConfig, result: Outcome) -> tuple[Side, ...]:
    """The teams as the outcome ranks them, each with its letter (A moves first) and its
    players' points added up.

    >>> from p2p_burgundy import Edition
    >>> config = GameConfig(4, Edition.E2019, teams=TEAMS)
    >>> _sides(config, Outcome((1, 3, 0, 2), (40, 55, 50, 35), (0, 0, 0, 0), "team score",
    ...                        ((1, 3), (0, 2)), (90, 90)))[0]
    Side(word='team', letter='B', seats=(1, 3), points=90)
    """
    return tuple(Side("team", team_letter(config, team[0]), team, points)
                 for team, points in zip(result.teams, result.team_scores, strict=True))


def _plays(config: GameConfig) -> bool:
    return config.team_game


def _taken_tile(state: GameState) -> dict[str, int]:
    """The tile just taken, waiting at the end of the storage."""
    return {"tile": state.players[state.to_move or 0].storage[-1]}


def _visible(state: GameState) -> dict[str, object]:
    return {"teams": [list(team) for team in state.config.teams]}


def _seat_visible(state: GameState, seat: int) -> dict[str, object]:
    """A seat's board's own adjacency, and how many of its stored tiles are its own."""
    board = state.boards[seat]
    return {"neighbours": [bits(mask) for mask in board.neighbours],
            "own_storage": state.modules[TeamPart.name].private[seat]}


def _discarded(state: GameState, action: Stow) -> int | None:
    """The storage space of the old tile a Stow discards (None: it discards none)."""
    if action.discard < 0:
        return None
    seat = state.to_move or 0
    return action.discard + (state.modules[TeamPart.name].private[seat] if action.shared
                             else 0)


def _stow_label(state: GameState, action: Stow, w: Wording, code: bool = False) -> str:
    where = "the team's storage" if action.shared else "your storage"
    index = _discarded(state, action)
    if index is None:
        return "" if code else f"to {where}"
    tile = state.players[state.to_move or 0].storage[index]
    return f"to {where}, discarding: {w.tile_code(tile) if code else w.tile(tile)}"


def _put(state: GameState, action: Stow, w: Wording) -> str:
    p = state.players[state.to_move or 0]
    where = "the team's storage" if action.shared else "their own storage"
    index = _discarded(state, action)
    discarding = "" if index is None else f", discarding {w.tile(p.storage[index])}"
    return f"put {w.tile(p.storage[-1])} in {where}{discarding}"


def _discarded_tile(state: GameState, action: Stow) -> int | None:
    index = _discarded(state, action)
    return None if index is None else state.players[state.to_move or 0].storage[index]


def _discarded_target(state: GameState, action: Stow) -> Target | None:
    index = _discarded(state, action)
    return None if index is None else ("storage", index, 0)


_STOW_WORDS: Final = ActionWords(
    Stow, label=_stow_label, brief=lambda state, action, w: _stow_label(state, action, w, True),
    sentence=_put, tile=_discarded_tile, target=_discarded_target)
"""The words of a tile stowed: the label says which old tile a full storage discards (the
brief only then: a plain choice's label is short)."""


HELP_PAGE: Final = (
    "The team game: what differs",
    "  You and your partner (the same letter, A or B, in the players list)",
    "  play one duchy: the team board, its two halves side by side, joined",
    "  by the castle. Workers, silverlings, goods, the duchy and its bonuses",
    "  are the team's; your dice, your place in the turn order and your",
    "  points are your own. Round 1 is played A1, B1, A2, B2.",
    "  Storage: Own is yours (2 spaces), Team is shared (2). A tile you take",
    "  goes to either (you choose); a full one drops an old tile of its own,",
    "  and tiles never move from one to the other. You place from yours and",
    "  the team's, never from your partner's own.",
    "  At the end the team's points are added up; on a tie the team with",
    "  more empty spaces in its duchy wins.",
    "  On the team board a placed tile shows 2 letters: wr warehouse, cp",
    "  carpenter, ch church, mk market, bd boarding house, bn bank, ha city",
    "  hall, tw watchtower; c/s/p/h + count: cows, sheep, pigs, hens; sh",
    "  ship, ca castle, mi mine; k1-k9 and 10-29 knowledge. + marks a space",
    "  you may choose, < the one under the cursor.",
    "  The team board shipped is provisional: not the printed board.",
)
"""The help page's section on the team game, first on a team game's help page."""


TEAM: Final = EngineModule(
    name="team",
    description="the team game: two teams of two, each on one team board, sharing workers, "
                "silverlings, goods, the duchy and a storage; the team's points added up",
    plays=_plays,
    steps=(StepWords(Step.STOW, "put the tile you took in your own storage or the team's "
                                "(discarding an old tile of a full one)",
                     prompt="Where does {tile:code} go?", fields=_taken_tile,
                     reminder="Team game: your own storage or the team's; a full one drops an "
                              "old tile.",
                     holds_taken_tile=True),),
    actions=(_STOW_WORDS,),
    help_page=HELP_PAGE,
    sides=_sides,
    notes=lambda config: config.caveats(),  # the team board's: provisional, or not official
    switch=SWITCH,
    scores_reminder="Team game: a team's points added up; a tie: more empty spaces wins.",
    choices=((Step.STOW, _stow_choices),),
    handlers=((Step.STOW, Stow, _stow),
              *((step, PlaceTile, _counting_own(place)) for step, place in _PLACING.items())),
    after_action=_share,
    setup=_setup,
    store=_store,
    end_scorers=_end_scorers,
    part=TeamPart,
    visible=_visible,
    seat_visible=_seat_visible,
)
