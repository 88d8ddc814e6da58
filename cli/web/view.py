"""What the big screen shows, as plain data: a game at one moment becomes a JSON-ready view
model (dicts, lists, strings, numbers); the page (``static/app.js``) only draws it.

Pure functions, no I/O. A live game is read from the same immutable
:class:`~p2p_burgundy.net.snapshot.Snapshot` the terminal client reads (:func:`snapshot_view`,
through its public fields only), a replay from the position a game file's steps are at
(:class:`~.feed.ReplayFeed`); both end in :func:`board_view`. Only what every player at the table
sees goes in: the public game state (never ``Snapshot.choice_state``, our own secret set-up
choice, so the experts' secret choices show only once every seat revealed them), the
players' names and colours, and the log of the steps played. Chat stays off the big screen.

>>> from p2p_burgundy import GameConfig, new_game
>>> view = board_view(new_game(GameConfig(players=2)), [("Ann", "red"), ("Bob", "blue")])
>>> view["title"], [p["name"] for p in view["players"]], len(view["players"][0]["estate"])
('Phase A, round 1 of 5', ['Ann', 'Bob'], 37)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from p2p_burgundy import GameConfig, GameState, new_game, outcome, variants
from p2p_burgundy.board import BLACK_DEPOT_TILES, PHASE_LETTERS, depot_spaces, space_colour
from p2p_burgundy.estate import PROVISIONAL, half_row_col, post_spaces
from p2p_burgundy.inns import INN_DEPOT
from p2p_burgundy.net.events import ChanceResolved, Resolved, Waiting
from p2p_burgundy.net.snapshot import LobbySnapshot, Snapshot
from p2p_burgundy.scoring import Outcome, categories
from p2p_burgundy.shields import shield_numbers
from p2p_burgundy.state import EMPTY
from p2p_burgundy.tiles import COLOUR_LETTERS, COLOUR_NAMES, TILE_COLOUR, tile_name
from p2p_burgundy.trade import BONUS_WORDS, route_spaces
from p2p_burgundy.variants import modules_of

from ..tui.describe import CATEGORY_WORDS
from ..tui.draft import Changes, changes_between
from ..tui.table import GameStep, HistoryEntry, chance_lines, clean_name, turn_lines
from ..tui.texts import tile_code

View = dict[str, Any]
"""A view model: what ``json.dumps`` turns into the page's data."""

LOG_LINES = 40
"""Log lines a view carries (the newest): more than a TV shows at once."""
LOG_STEPS = 16
"""Steps described for the log: enough for :data:`LOG_LINES` (a turn says 2-6 lines)."""

COLOUR_KEYS = (*(name.replace(" ", "-") for name in COLOUR_NAMES), "any")
"""The page's name of each tile colour (``TILE_COLOUR``; the inn and a face-down tile fit
any colour): its CSS class is ``c-`` and the name."""

WAITING_WORDS = {"reveal": "the dice and tiles are being drawn",
                 "choice": "everyone chooses a board and start space in secret",
                 "choice reveal": "the secret set-up choices are being revealed"}


def colour_key(colour: int) -> str:
    """The page's name of a tile or space colour.

    >>> colour_key(0), colour_key(3), colour_key(6)
    ('beige', 'dark-green', 'any')
    """
    return COLOUR_KEYS[colour]


def tile_view(tile: int) -> View:
    """A tile as the page draws it: the terminal's code, its colour, its name.

    >>> from p2p_burgundy.tiles import Tile
    >>> tile_view(Tile.KNOWLEDGE_7)
    {'code': 'Kn7', 'colour': 'yellow', 'name': 'knowledge #7'}
    """
    return {"code": tile_code(tile), "colour": colour_key(TILE_COLOUR[tile]),
            "name": tile_name(tile)}


def _slot(tile: int, colour: int | None, changed: bool) -> View:
    return {"tile": tile_view(tile) if tile != EMPTY else None,
            "colour": colour_key(colour) if colour is not None else None, "changed": changed}


def title(state: GameState) -> str:
    """Phase and round, as the page's headline.

    >>> from p2p_burgundy import GameConfig, new_game
    >>> title(new_game(GameConfig(players=3)))
    'Phase A, round 1 of 5'
    """
    if state.is_over:
        return "Game over"
    if state.config.solo:
        return f"Round {state.game_round} of 25 (phase {PHASE_LETTERS[state.phase]})"
    return f"Phase {PHASE_LETTERS[state.phase]}, round {state.round + 1} of 5"


def result_text(config: GameConfig, result: Outcome, names: Sequence[str]) -> str:
    """Who won, in a sentence."""
    winner = result.winner
    if len(names) == 1:
        return f"{names[0]}: {result.decided_by} ({result.scores[0]} VP)"
    if sides := variants.sides(config, result):  # a game played by sides: the winning side
        won, *lost = sides
        return (f"{won.players(names.__getitem__)} win with {won.points} VP against "
                f"{', '.join(str(side.points) for side in lost)} (decided by "
                f"{result.decided_by})")
    return (f"{names[winner]} wins with {result.scores[winner]} VP (decided by "
            f"{result.decided_by})")


def _own_board(state: GameState) -> str:
    """A mode of play on a board of its own: ``, the team game on BOARD`` (saying a
    provisional board is not the printed one); nothing in any other game."""
    game = next((m.switch.game for m in modules_of(state.config)
                 if m.switch is not None and m.switch.own_board), None)
    if game is None:
        return ""
    board = state.boards[0]
    note = " (provisional: not the printed board)" if board.confidence == PROVISIONAL else ""
    return f", {game} on {board.id}{note}"


def _estate(state: GameState, seat: int, changes: Changes) -> list[View]:
    board, player = state.boards[seat], state.players[seat]
    posts = post_spaces(board)
    spaces = []
    for space, colour in enumerate(board.colours):
        half, row, col = half_row_col(space)  # a team board has two halves side by side
        tile = player.estate[space]
        spaces.append({"half": half, "row": row, "col": col, "colour": colour_key(colour),
                       "letter": COLOUR_LETTERS[colour], "die": board.dice[space],
                       "tile": tile_view(tile) if tile != EMPTY else None,
                       "post": bool(posts >> space & 1),
                       "changed": ("space", seat, space) in changes})
    return spaces


def _player(state: GameState, seat: int, name: str, colour: str, changes: Changes,
            flags: Sequence[str]) -> View:
    p = state.players[seat]
    place = state.order.index(seat) if seat in state.order else None
    bonuses = [f"{COLOUR_LETTERS[c]} {'1st' if b == 1 else '2nd'}"
               for c, b in enumerate(p.bonuses) if b]
    if state.border_ranks[seat]:
        bonuses.append(f"posts {'1st' if state.border_ranks[seat] == 1 else '2nd'}")
    route = None
    if state.routes[seat]:  # trade routes: the spaces filled, and what the next one gives
        spaces, laid = route_spaces(state.routes[seat]), len(state.route_goods[seat])
        ahead = (f"next: goods {spaces[laid][0]}, {BONUS_WORDS[spaces[laid][1]]}"
                 if laid < len(spaces) else "full")
        route = f"{laid} of {len(spaces)} ({ahead})"
    return {
        "seat": seat, "name": name, "colour": colour, "place": place,
        "toMove": state.to_move == seat, "flags": list(flags),
        "board": state.boards[seat].id, "choosing": bool(state.offers and state.offers[seat]),
        "vp": p.vp, "silver": p.silver, "workers": p.workers,
        "dice": [{"value": d, "used": bool(p.dice_used >> i & 1)} for i, d in enumerate(p.dice)
                 if d],
        "goods": [{"type": g, "count": p.goods[g]} for g in range(1, 7) if p.goods[g]],
        "sold": sum(p.sold),
        "storage": [tile_view(t) for t in p.storage],
        "bonuses": bonuses,
        "knowledge": [n for n in range(1, 30) if p.knowledge >> n & 1],
        "shields": list(shield_numbers(state.shields[seat])) if state.depot_shields else [],
        "route": route,
        "breakdown": [{"category": CATEGORY_WORDS[c], "vp": p.breakdown[c]}
                      for c in categories(p.breakdown)],
        "estate": _estate(state, seat, changes),
        "storageChanged": ("storage", seat, 0) in changes,
        "goodsChanged": ("goods", seat, 0) in changes,
    }


def _depots(state: GameState, changes: Changes) -> View:
    n = state.config.table_players  # the solo game uses the 2-player side
    numbered = []
    for d in range(1, 7):
        goods = state.depot_goods[d]
        numbered.append({
            "depot": d,
            "slots": [_slot(state.depots[d][slot], space_colour(d, slot, n, min(state.phase, 4)),
                            ("depot", d, slot) in changes) for slot, _ in depot_spaces(d, n)],
            "goods": [g for g in range(1, 7) for _ in range(goods[g])],
            "goodsChanged": ("goods_depot", d, 0) in changes,
            "shields": list(state.depot_shields[d]) if state.depot_shields else []})
    black = [_slot(state.depots[0][slot], None, ("depot", 0, slot) in changes)
             for slot in range(BLACK_DEPOT_TILES[n])]
    return {"numbered": numbered, "black": black, "inns": state.inns,
            "innsChanged": ("depot", INN_DEPOT, 0) in changes}


def log_view(history: Sequence[HistoryEntry], names: Sequence[str], recent: int) -> list[View]:
    """The newest :data:`LOG_LINES` lines of ``history``; the last ``recent`` of them are
    what just happened."""
    first = max(0, len(history) - LOG_LINES)
    return [{"text": entry.text, "kind": entry.kind.value, "seat": entry.seat,
             "recent": i >= len(history) - recent}
            for i, entry in enumerate(history[first:], first)]


def board_view(state: GameState, players: Sequence[tuple[str, str]], *,
               before: GameState | None = None, history: Sequence[HistoryEntry] = (),
               recent: int = 0, status: str = "", mover: int | None = None,
               flags: Sequence[Sequence[str]] = (), result: Outcome | None = None) -> View:
    """The page's data for ``state``: ``players`` (name, piece colour) by seat; what changed
    since ``before`` (the state before the last turn) marked, and the last ``recent`` lines
    of ``history`` (the log so far); ``status`` says what the game waits for, ``mover`` who
    played last, ``flags`` a few words per seat ("bot", "resigned"...), ``result`` the end
    (default: scored from ``state`` once it is over)."""
    names = [clean_name(name, f"Seat {i + 1}") for i, (name, _) in enumerate(players)]
    changes = changes_between(before, state) if before is not None else frozenset()
    if result is None and state.is_over:
        result = outcome(state)
    said = result_text(state.config, result, names) if result is not None else None
    return {
        "title": title(state),
        "rules": f"{state.config.edition.value} edition, {state.config.players} "
                 f"player{'s' if state.config.players > 1 else ''}{_own_board(state)}",
        "status": status or said or "",
        "over": state.is_over or result is not None,
        "result": said,
        "ranking": list(result.ranking) if result is not None else [],
        "order": list(state.order),
        "mover": mover,
        "goodsToCome": list(state.phase_goods[state.round + 1:]) if not state.is_over else [],
        "whiteDie": state.white_die,
        "players": [_player(state, seat, names[seat], colour, changes,
                            flags[seat] if seat < len(flags) else ())
                    for seat, (_, colour) in enumerate(players)],
        "depots": _depots(state, changes),
        "log": log_view(history, names, recent),
    }


def _steps_lines(config: GameConfig, steps: Sequence[GameStep], names: Sequence[str],
                 first: int) -> list[list[HistoryEntry]]:
    """The log lines of each of ``steps[first:]``, each described from the state before it."""
    before = steps[first - 1].state if first else new_game(config)
    out = []
    for what, after in steps[first:]:
        out.append(turn_lines(before, what, names) if isinstance(what, tuple)
                   else chance_lines(what, names))
        before = after
    return out


def steps_view(config: GameConfig, players: Sequence[tuple[str, str]],
               steps: Sequence[GameStep], **extra: Any) -> View:
    """The page's data after ``steps`` (a game's resolved steps so far): what the last turn
    (and the chance events after it) changed is marked, and so are its log lines."""
    names = [clean_name(name, f"Seat {i + 1}") for i, (name, _) in enumerate(players)]
    state = steps[-1].state if steps else new_game(config)
    last_turn = next((i for i in range(len(steps) - 1, -1, -1)
                      if isinstance(steps[i].what, tuple)), None)
    first = max(0, len(steps) - LOG_STEPS)
    if last_turn is not None:
        first = min(first, last_turn)
    lines = _steps_lines(config, steps, names, first)
    history = [line for step in lines for line in step]
    recent, before, mover = 0, None, None
    if last_turn is not None:
        recent = sum(len(step) for step in lines[last_turn - first:])
        before = steps[last_turn - 1].state if last_turn else new_game(config)
        mover = before.to_move
    return board_view(state, players, before=before, history=history, recent=recent,
                      mover=mover, **extra)


def as_step(step: Resolved) -> GameStep:
    """A session's resolved step as the client's :class:`GameStep`."""
    return GameStep(step.drew if isinstance(step, ChanceResolved) else step.actions, step.state)


def waiting_text(waiting: Waiting | None, names: Sequence[str], bots: Sequence[int]) -> str:
    """What the game waits for, in words.

    >>> waiting_text(Waiting("turn", 4, (1,)), ["Ann", "Bob"], [])
    "Bob's turn"
    >>> waiting_text(Waiting("turn", 4, (1,)), ["Ann", "Bob"], [1])
    "Bob's turn (a bot plays it)"
    """
    if waiting is None:
        return ""
    if waiting.what == "turn":
        seat = waiting.seats[0]
        return f"{names[seat]}'s turn" + (" (a bot plays it)" if seat in bots else "")
    return WAITING_WORDS.get(waiting.what, "the game is being set up")


def snapshot_view(snapshot: Snapshot) -> View:
    """The page's data for a live game, from the snapshot the peer published (the same one
    the terminal client reads): the public state of its last step, never our own secret
    set-up choice (``choice_state``)."""
    players = [(seat.name, seat.colour) for seat in snapshot.seats]
    names = [clean_name(name, f"Seat {i + 1}") for i, (name, _) in enumerate(players)]
    flags = [[word for word, on in (("bot", seat in snapshot.forfeits),
                                    ("resigned", seat in snapshot.resigned),
                                    ("not heard from", seat in snapshot.missing
                                     and not snapshot.over)) if on]
             for seat in range(len(players))]
    status = waiting_text(snapshot.waiting, names, list(snapshot.forfeits))
    if snapshot.ended is not None:
        status = f"{names[snapshot.ended[0]]}, the only player left, ended the game and wins"
    elif stopped := [p.seat for p in snapshot.equivocations if p.seat not in snapshot.set_aside]:
        status = f"{names[stopped[0]]} signed two versions of one entry: the game stopped"
    elif snapshot.equivocations:
        status = (f"{status} ({names[snapshot.equivocations[0].seat]} signed two versions of "
                  "one entry: nothing it signs counts any more)")
    return steps_view(snapshot.config, players, [as_step(s) for s in snapshot.history],
                      status=status, flags=flags, result=snapshot.outcome)


def lobby_view(lobby: LobbySnapshot | None) -> View:
    """The page's data before the game starts: who sits at the table so far, or why we are
    not at it (yet).

    >>> lobby_view(None)["status"]
    'waiting for a table'
    """
    if lobby is None:
        return {"lobby": True, "title": "The Castles of Burgundy", "status": "waiting for a table",
                "players": [], "seats": 0}
    members = [{"name": clean_name(m.name), "colour": m.colour} for m in lobby.members]
    if lobby.refused is not None:
        status = f"the table refused us: {lobby.refused}"
    elif lobby.silent is not None:
        status = lobby.silent
    elif not lobby.admitted and lobby.host is not None:
        status = f"connecting to the table at {lobby.host[0]}:{lobby.host[1]}"
    else:
        status = (f"waiting for the game to start: {len(members)} of {lobby.seats} seats "
                  "taken")
    return {"lobby": True, "title": "The Castles of Burgundy", "status": status,
            "players": members, "seats": lobby.seats}


__all__ = ["LOG_LINES", "View", "board_view", "lobby_view", "snapshot_view", "steps_view",
           "tile_view"]
