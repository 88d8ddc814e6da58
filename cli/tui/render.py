"""Pure drawing: the model and the table's state become lines of styled text.

Nothing here touches curses. Each widget returns a list of :data:`Line` (segments of text
with a :class:`Style` and, for anything clickable, the index of the choice it selects); a
:class:`Canvas` puts them into the rectangles of a :class:`~.layout.Layout`. Tests compare
``Canvas.text()`` with expected lines; the app turns styles into curses attributes.

>>> from p2p_burgundy import GameConfig, new_game, resolve_chance
>>> state = new_game(GameConfig(players=2))
>>> while state.chance is not None:
...     state = resolve_chance(state, bytes(32))
>>> for line in estate_lines(state, 0, ["Ann", "Bob"])[:4]:
...     print(text(line).rstrip())
P1 Ann's estate (board 1)
          A6    C5    C4    K3
       A2    A1    C6    K5    B4
    A5    A4    B3    K1    B2    B3
"""

from __future__ import annotations

import textwrap
import unicodedata
from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import NamedTuple

from p2p_burgundy import GameState, outcome, variants
from p2p_burgundy.board import BLACK_DEPOT_TILES, PHASE_LETTERS, PHASES, ROUNDS, depot_spaces
from p2p_burgundy.estate import ROW_LENGTHS, SPACE_COUNT, post_spaces, row_col
from p2p_burgundy.inns import INN_DEPOT
from p2p_burgundy.net.clock import clock_text
from p2p_burgundy.scoring import Side, categories, end_game_points
from p2p_burgundy.shields import shield_numbers
from p2p_burgundy.state import EMPTY
from p2p_burgundy.team import team_letter
from p2p_burgundy.tiles import COLOUR_LETTERS, TILE_COLOUR
from p2p_burgundy.trade import BONUS_SHORT, route_spaces
from p2p_burgundy.variants import STEP_WORDS as MODULE_STEPS

from .describe import CATEGORY_WORDS, end_of_game
from .draft import CatchUpFrame, Changes
from .hint import Hint
from .layout import LEFT, MIN_HEIGHT, MIN_WIDTH, Dim, Layout
from .menu import Option, Target
from .model import Context, MenuView, Model, Overlay
from .settings import PALETTES, HintLevel, Settings
from .table import Clocked, Clocks, EntryKind, HistoryEntry, LocalTable, Resigned, Steppable
from .texts import (
    KNOWLEDGE_SHORT,
    NAME_WIDTH,
    guide,
    help_for,
    seat_name,
    tile_code,
    tile_code2,
)


class Style(IntEnum):
    """How a piece of text looks; the app maps these to colours or plain attributes."""

    NORMAL = 0
    DIM = 1
    BOLD = 2
    TITLE = 3  # a pane's title
    LEGAL = 4  # something that can be chosen now
    CURSOR = 5  # the choice under the cursor
    ERROR = 6
    BAR = 7  # the status line and the footer
    KEY = 8  # a key name
    CHANGED = 9  # changed since our last turn (or the last replay step)
    # 10 + colour: an empty estate space of that colour; 20 + colour: a placed tile
    SPACE = 10
    TILE = 20


class Seg(NamedTuple):
    """A run of text in one style; ``target`` is the choice a click on it selects."""

    text: str
    style: int = Style.NORMAL
    target: int | None = None


Line = list[Seg]
Marks = dict[Target, tuple[int, int]]
"""What to highlight: target -> (Style.LEGAL or Style.CURSOR, index of the choice), or
(Style.CHANGED, -1) for what changed."""

CELL = 6  # columns per estate space


def text(line: Iterable[Seg]) -> str:
    """The characters of a line.

    >>> text([Seg("a"), Seg("b", Style.BOLD)])
    'ab'
    """
    return "".join(s.text for s in line)


def safe(s: str) -> str:
    """Only printable single-width characters reach the screen.

    >>> safe("ok\\x07\\u754c")
    'ok??'
    """
    if s.isascii() and s.isprintable():  # nearly every string drawn: all narrow already
        return s
    return "".join(
        ch if ch.isprintable() and unicodedata.east_asian_width(ch) not in ("W", "F")
        and not unicodedata.combining(ch) else "?"
        for ch in s
    )


def fit(s: str, width: int) -> str:
    """Cut ``s`` to ``width`` columns, marking a cut with ``~``.

    >>> fit("abcdef", 4), fit("abc", 4)
    ('abc~', 'abc')
    """
    if width <= 0:
        return ""
    return s if len(s) <= width else s[:width - 1] + "~"


def shown_marks(marks: Marks, level: HintLevel) -> Marks:
    """The marks a hint level shows: all, the cursor's only, or none.

    >>> marks = {("die", 0, 0): (Style.LEGAL, 0), ("die", 1, 0): (Style.CURSOR, 1)}
    >>> shown_marks(marks, HintLevel.TARGETS)
    {('die', 1, 0): (<Style.CURSOR: 5>, 1)}
    """
    if level == HintLevel.ALL:
        return marks
    if level == HintLevel.TARGETS:
        return {target: mark for target, mark in marks.items() if mark[0] == Style.CURSOR}
    return {}


def marks_for(menu: MenuView | None) -> Marks:
    """Targets to highlight for the choices on offer; the cursor's win over the rest.

    >>> from p2p_burgundy import UseDie
    >>> menu = MenuView("?", [Option("1", "a", UseDie(0), target=("die", 0, 0)),
    ...                       Option("2", "b", UseDie(1), target=("die", 1, 0))], cursor=1)
    >>> marks_for(menu) == {("die", 0, 0): (Style.LEGAL, 0), ("die", 1, 0): (Style.CURSOR, 1)}
    True
    """
    marks: Marks = {}
    if not menu:
        return marks
    for index, option in enumerate(menu.options):
        for target in option.targets():
            if target not in marks:
                marks[target] = (Style.LEGAL, index)
    if menu.options:
        chosen = menu.options[menu.cursor]
        if chosen.target:
            marks[chosen.target] = (Style.CURSOR, menu.cursor)
        for target in chosen.targets() - {chosen.target}:
            marks[target] = (Style.LEGAL, menu.cursor)
    return marks


def change_marks(changes: Changes, seat: int | None, marks: Marks | None = None) -> Marks:
    """``marks`` plus what changed on ``seat``'s estate (None: on the central board), where
    no choice is marked.

    >>> change_marks(frozenset({("space", 1, 4), ("depot", 2, 0)}), 1)
    {('space', 4, 0): (<Style.CHANGED: 9>, -1)}
    """
    out = dict(marks or {})
    for kind, a, b in changes:
        if seat is not None and kind == "space" and a == seat:
            target: Target = ("space", b, 0)
        elif seat is None and kind in ("depot", "goods_depot"):
            target = (kind, a, b)
        else:
            continue
        out.setdefault(target, (Style.CHANGED, -1))
    return out


def _marked(target: Target, content: str, marks: Marks, style: int) -> Seg:
    """``content`` padded to a cell: [x] when choosable, >x< under the cursor, *x when it
    changed since our last turn."""
    mark = marks.get(target)
    if mark is None:
        return Seg(f" {content} ", style)
    if mark[0] == Style.CHANGED:
        return Seg(f"*{content} ", Style.CHANGED)
    left, right = ("[", "]") if mark[0] == Style.LEGAL else (">", "<")
    return Seg(f"{left}{content}{right}", mark[0], mark[1])


# --- the estate and supplies -------------------------------------------------------------

def estate_lines(state: GameState, seat: int, names: Sequence[str],
                 marks: Marks | None = None) -> list[Line]:
    """A title and the 37 spaces on 7 offset rows; empty spaces show colour letter and
    die number (``B3``), covered ones the tile code (``Kn12``)."""
    board = state.boards[seat]
    if board.team:
        title = f"{seat_name(names, seat)}'s team board ({board.id})"
        return [[Seg(title, Style.TITLE)], *team_rows(state, seat, marks or {})]
    posts = ", P: border post" if board.border_posts else ""
    title = f"{seat_name(names, seat)}'s estate (board {board.id}{posts})"
    return [[Seg(title, Style.TITLE)], *estate_rows(state, seat, marks or {}, CELL)]


TEAM_CELL = 3  # columns per space of a team board: its two halves side by side in 42


def team_rows(state: GameState, seat: int, marks: Marks) -> list[Line]:
    """A team board's 74 spaces: its two halves side by side, each on 7 offset rows of 3
    columns a space; an empty space shows colour letter and die (``B3``), a covered one its
    2-letter code in lower case (``wr``). A choosable space is marked ``+`` (the one under
    the cursor ``<``), a changed one ``*``, each in its style too."""
    board = state.boards[seat]
    player = state.players[seat]
    rows: list[Line] = [[] for _ in ROW_LENGTHS]
    for half in range(board.halves):
        for row, length in enumerate(ROW_LENGTHS):
            pad = TEAM_CELL * (7 - length) // 2
            rows[row].append(Seg(" " * pad))
            first = half * SPACE_COUNT + sum(ROW_LENGTHS[:row])
            for space in range(first, first + length):
                tile = player.estate[space]
                if tile == EMPTY:
                    colour = board.colours[space]
                    content = f"{COLOUR_LETTERS[colour]}{board.dice[space]}"
                    style = Style.SPACE + colour
                else:
                    content, style = tile_code2(tile), Style.TILE + TILE_COLOUR[tile]
                mark = marks.get(("space", space, 0))
                if mark is None:
                    rows[row].append(Seg(f"{content} ", style))
                elif mark[0] == Style.CHANGED:
                    rows[row].append(Seg(f"{content}*", Style.CHANGED))
                else:
                    tail = "<" if mark[0] == Style.CURSOR else "+"
                    rows[row].append(Seg(f"{content}{tail}", mark[0], mark[1]))
            rows[row].append(Seg(" " * (7 * TEAM_CELL - pad - length * TEAM_CELL)))
    return rows


def estate_rows(state: GameState, seat: int, marks: Marks, cell: int) -> list[Line]:
    """The 37 spaces on 7 offset rows of ``cell`` columns a space (6 leaves room for the
    marks of a choice; 5 is the narrow form, for looking only); a team board's as
    :func:`team_rows`."""
    board = state.boards[seat]
    if board.team:
        return team_rows(state, seat, marks)
    player = state.players[seat]
    posts = post_spaces(board)
    rows: list[Line] = [[Seg(" " * (cell * (7 - n) // 2))] for n in ROW_LENGTHS]
    for space in range(len(board.colours)):
        row, _ = row_col(space)
        tile = player.estate[space]
        colour = board.colours[space]
        if tile == EMPTY:
            content, style = f"{COLOUR_LETTERS[colour]}{board.dice[space]}", Style.SPACE + colour
        else:
            content, style = tile_code(tile), Style.TILE + TILE_COLOUR[tile]
        if cell == CELL:
            seg = _marked(("space", space, 0), f"{content:<4}", marks, style)
            if posts >> space & 1 and seg.text[0] == " ":  # a border post touches it
                seg = seg._replace(text="P" + seg.text[1:])
            rows[row].append(seg)
        elif ("space", space, 0) in marks:
            rows[row].append(Seg(f"{content:<{cell - 1}}*", Style.CHANGED))
        else:
            rows[row].append(Seg(f"{content:<{cell - 1}} ", style))
    return rows


def others_lines(state: GameState, seats: Sequence[int], names: Sequence[str],
                 width: int, changed: Changes = frozenset()) -> list[Line]:
    """The other players' estates, one under the other in the narrow form, each with its
    score, silverlings, workers, storage and goods (``*``: changed)."""
    lines: list[Line] = []
    for seat in seats:
        star = {k: "*" if (k, seat, 0) in changed else "" for k in ("storage", "goods")}
        p = state.players[seat]
        held = " ".join(f"{g}x{p.goods[g]}" for g in range(1, 7) if p.goods[g]) or "none"
        storage = " ".join(tile_code(t) for t in p.storage) or "empty"
        name = seat_name(names, seat)
        title = next((t for t in (f"{name}: {p.vp} VP  silver {p.silver}  workers {p.workers}",
                                  f"{name}: {p.vp} VP  s{p.silver} w{p.workers}")
                      if len(t) <= width), "")
        lines += [[Seg(fit(title or f"{name}: {p.vp} VP", width), Style.TITLE)],
                  *estate_rows(state, seat, change_marks(changed, seat), CELL - 1),
                  [Seg(fit(f"Storage{star['storage']} {storage}", width))],
                  [Seg(fit(f"Goods{star['goods']} {held}  sold {sum(p.sold)}", width))], []]
    return lines


def _storage_cell(tile: int | None, index: int, marks: Marks) -> Line:
    """Storage space ``index`` (its number from 1, and its ``tile`` or ``---``), choosable."""
    content = "---" if tile is None else tile_code(tile)
    style = Style.DIM if tile is None else Style.TILE + TILE_COLOUR[tile]
    return [Seg(f" {index + 1}"), _marked(("storage", index, 0), f"{content:<4}", marks, style)]


def team_storage_line(state: GameState, seat: int, marks: Marks, star: str = "") -> Line:
    """The team game's storage: the player's own spaces, then the team's (numbered as the
    choices number them); a tile just taken waits off the line (the choice names it)."""
    board = state.boards[seat]
    stored = state.players[seat].storage
    own = state.private[seat]
    step = MODULE_STEPS.get(state.pending[-1][0]) if state.pending else None
    waiting = bool(step and step.holds_taken_tile)
    held = stored[:-1] if waiting else stored
    line: Line = [Seg(f"Own{star}", Style.BOLD)]
    empty = [Seg("  "), Seg(" ---  ", Style.DIM)]  # no number: no choice reaches it
    for i in range(max(board.private_storage, own)):
        line += _storage_cell(held[i], i, marks) if i < own else empty
    line.append(Seg(f" Team{star}", Style.BOLD))
    for i in range(own, own + max(board.shared_storage, len(held) - own)):
        line += _storage_cell(held[i], i, marks) if i < len(held) else empty
    return line


def supplies_lines(state: GameState, seat: int, marks: Marks | None = None,
                   width: int = 42, changed: Changes = frozenset()) -> list[Line]:
    """Storage, goods, silverlings, workers, VP, dice (a used die in parentheses), bonus
    tiles and the knowledge tiles in effect (``*`` after Storage or Goods: changed)."""
    marks = marks or {}
    p = state.players[seat]
    star = {k: "*" if (k, seat, 0) in changed else "" for k in ("storage", "goods")}
    if state.boards[seat].team:
        storage = team_storage_line(state, seat, marks, star["storage"])
    else:
        storage = [Seg(f"Storage{star['storage']}:", Style.BOLD)]
        for i in range(max(3, len(p.storage))):
            storage += _storage_cell(p.storage[i] if i < len(p.storage) else None, i, marks)
    goods: Line = [Seg(f"Goods{star['goods']}:", Style.BOLD)]
    stored = [g for g in range(1, 7) if p.goods[g]]
    for g in stored:
        goods += [Seg(" "), _marked(("goods", g, 0), f"{g}x{p.goods[g]}", marks, Style.NORMAL)]
    if not stored:
        goods.append(Seg(" none"))
    if state.routes[seat]:  # trade routes: sold goods on the route, and its next space
        spaces = route_spaces(state.routes[seat])
        laid = len(state.route_goods[seat])
        ahead = (f">{spaces[laid][0]}{BONUS_SHORT[spaces[laid][1]]}" if laid < len(spaces)
                 else f" full, sold {sum(p.sold)}")
        goods.append(Seg(f"  route {laid}/{len(spaces)}{ahead}"))
    else:
        goods.append(Seg(f"  sold {sum(p.sold)}"))
    money_text = f"Silver {p.silver}  Workers {p.workers}  VP {p.vp}"
    money: Line = [Seg(money_text, Style.BOLD)]
    if state.depot_shields:  # the shields module: the shields on this player's castles
        held = shield_numbers(state.shields[seat])
        money.append(Seg(fit(next((t for t in (
            "  Shields " + (" ".join(f"#{n}" for n in held) or "none"),
            "  Sh " + (",".join(map(str, held)) or "-")) if len(t) + len(money_text) <= width),
            "  Sh " + ",".join(map(str, held))), width - len(money_text))))
    dice: Line = [Seg("Dice:", Style.BOLD)]
    for i in (0, 1):
        used = bool(p.dice_used >> i & 1) and p.dice[i]
        value = str(p.dice[i]) if p.dice[i] else "-"
        if used:
            dice.append(Seg(f"  ({value})", Style.DIM))
        else:
            dice += [Seg(" "), _marked(("die", i, 0), value, marks, Style.NORMAL)]
    bonuses = [f"{COLOUR_LETTERS[c]} {'1st' if b == 1 else '2nd'}"
               for c, b in enumerate(p.bonuses) if b]
    if state.border_ranks[seat]:  # border-post duchies: all three posts joined
        bonuses.append(f"posts {'1st' if state.border_ranks[seat] == 1 else '2nd'}")
    dice += [Seg("  Bonus tiles: ", Style.BOLD), Seg(", ".join(bonuses) if bonuses else "none")]
    known = [n for n in range(1, 30) if p.knowledge >> n & 1]  # #27-#29: expansions
    numbers = " ".join(f"#{n}" for n in known)
    words = next((w for w in ("; ".join(f"#{n} {KNOWLEDGE_SHORT[n]}" for n in known),
                              numbers + " (i: tile guide)", numbers) if len(w) + 11 <= width),
                 numbers) if known else "none"
    knowledge: Line = [Seg("Knowledge: ", Style.BOLD), Seg(fit(words, width - 11))]
    return [storage, goods, money, dice, knowledge]


# --- the central board -------------------------------------------------------------------

BOARD_ROOM = MIN_WIDTH - LEFT - 1
"""Columns of the central board at the smallest screen."""

def _depot_tail(depot: int, goods: tuple[int, ...], shields: tuple[int, ...], used: int,
                marks: Marks) -> Line:
    """A depot's shields (shields module) and goods after its tiles (``used`` columns):
    goods start at the column where four tiles end, shields stand in the free cells before
    them; where room is short, the goods lose their spaces, then the shields become the
    first one's number (and + for a second)."""
    each = [str(g) for g in range(1, 7) for _ in range(goods[g])]
    column = 2 + CELL * 4  # where the goods of a full depot start
    tag = "#" + ",".join(map(str, shields)) if shields else ""
    before = max(column, used + (len(tag) + 2 if tag else 0))
    digits = " ".join(each)
    if before + len(digits) + 4 > BOARD_ROOM:
        digits = "".join(each)
    out: Line = []
    if tag and before + (len(digits) + 4 if each else 0) > BOARD_ROOM + 1:
        out.append(Seg(f"#{shields[0]}{'+' if len(shields) > 1 else ''}"))
    elif tag:
        out.append(_marked(("shield", depot, shields[0]), tag, marks, Style.NORMAL))
        out.append(Seg(" " * (before - used - len(tag) - 2)))
    elif each:
        out.append(Seg(" " * (column - used)))
    if each:
        out.append(_marked(("goods_depot", depot, 0), f"({digits})", marks, Style.NORMAL))
    return out


def board_lines(state: GameState, names: Sequence[str], marks: Marks | None = None,
                my_seat: int | None = None) -> list[Line]:
    """Phase and round, goods to come, the six depots with tiles and goods, the black depot,
    and the players in turn order with their scores."""
    marks = marks or {}
    n = state.config.table_players  # the solo game uses the 2-player side
    if state.is_over:
        head = "Game over"
    else:
        to_come = " ".join(str(g) for g in state.phase_goods[state.round + 1:]) or "none"
        head = f"Phase {PHASE_LETTERS[state.phase]} round {state.round + 1}/5 | to come: " \
               f"{to_come}"
        if state.config.solo:
            head = f"Round {state.game_round}/25 (phase {PHASE_LETTERS[state.phase]}) | " \
                   f"to come: {to_come}"
    lines: list[Line] = [[Seg(head, Style.TITLE)]]
    for d in range(1, 7):
        line: Line = [Seg(f"{d}:")]
        for slot, _ in depot_spaces(d, n):
            tile = state.depots[d][slot]
            content = tile_code(tile) if tile != EMPTY else "---"
            style = Style.TILE + TILE_COLOUR[tile] if tile != EMPTY else Style.DIM
            line.append(_marked(("depot", d, slot), f"{content:<4}", marks, style))
        goods = state.depot_goods[d]
        shields = state.depot_shields[d] if state.depot_shields else ()
        line += _depot_tail(d, goods, shields, 2 + CELL * len(depot_spaces(d, n)), marks)
        lines.append(line)
    black = list(range(BLACK_DEPOT_TILES[n]))
    for first, half in ((True, black[:4]), (False, black[4:])):
        line = [Seg("Black:" if first else "      ")]
        for slot in half:
            tile = state.depots[0][slot]
            content = tile_code(tile) if tile != EMPTY else "---"
            style = Style.TILE + TILE_COLOUR[tile] if tile != EMPTY else Style.DIM
            line.append(_marked(("depot", 0, slot), f"{content:<4}", marks, style))
        if first and state.inns:  # the inns module: the stack beside the black depot
            line.append(_marked(("depot", INN_DEPOT, 0), f" Inn x{state.inns}", marks,
                                Style.NORMAL))
        lines.append(line)
    if state.config.solo:
        return [*lines, *solo_lines(state)]
    for place, seat in enumerate(state.order):
        p = state.players[seat]
        mover = "> " if state.to_move == seat else "  "
        you = "*" if seat == my_seat else " "
        team = f"{team_letter(state.config, seat)} " if state.config.teams else " "
        line = [Seg(f"{mover}{place + 1}. {seat_name(names, seat):<{NAME_WIDTH + 3}}{you}",
                    Style.BOLD if state.to_move == seat else Style.NORMAL),
                Seg(f"{p.vp:>3} VP {team}s{p.silver} w{p.workers}")]
        if state.depot_shields and state.shields[seat]:  # the shields on their castles
            held = shield_numbers(state.shields[seat])
            room = BOARD_ROOM - sum(len(seg.text) for seg in line)
            tag = " #" + ",".join(map(str, held))
            line.append(Seg(tag if len(tag) <= room else f" {len(held)}sh"))
        lines.append(line)
    return lines


def side_result_lines(sides: Sequence[Side], names: Sequence[str], verb: str,
                      decided_by: str) -> list[Line]:
    """A game played by sides (the team game's teams): each side's players and points, the
    side that wins (or leads) first."""
    lines: list[Line] = []
    for rank, side in enumerate(sides):
        who = side.players(lambda seat: seat_name(names, seat))
        line = f"{side.word.capitalize()} {side.letter} ({who}): {side.points} VP"
        if rank == 0:
            line += f", {verb} (decided by {decided_by})."
        lines.append([Seg(line, Style.BOLD if rank == 0 else Style.NORMAL)])
    return lines


def solo_lines(state: GameState) -> list[Line]:
    """The solo game under the board: the counter and the target marker, and what the white
    die did this round (its depot got the goods; a tile left the game from it or the next)."""
    to_go = state.vp_target - state.vp_counter
    target = f"Target {state.vp_target}: counter {state.vp_counter} ({to_go} to go)"
    if state.is_over or not state.white_die:
        return [[Seg(target, Style.BOLD)]]
    white = state.white_die
    return [[Seg(target, Style.BOLD)],
            [Seg(f"White die {white}: goods on {white}, tile out")]]


# --- choices, log, status ----------------------------------------------------------------

def menu_lines(menu: MenuView | None, waiting: str | None, height: int, width: int
               ) -> list[Line]:
    """The question of this step and the choices (a window around the cursor, with ``^`` and
    ``v`` in the last column when there are more above or below), each with its cost and gain
    in a few columns; the choice under the cursor in full words on the last lines.

    >>> from p2p_burgundy import TakeWorkers
    >>> menu = MenuView("With your 4:", [Option("w", "take workers", TakeWorkers(),
    ...                                         note="+2 workers", short="+2 wkr")], cursor=0)
    >>> for line in menu_lines(menu, None, 4, 30):
    ...     print(text(line).rstrip())
    With your 4:
    >w take workers  +2 wkr
    <BLANKLINE>
    = +2 workers
    """
    if menu is None:
        wrapped = textwrap.wrap(safe(waiting or ""), max(10, width)) or [""]
        return [*([Seg(line, Style.TITLE)] for line in wrapped[:max(1, height - 1)]),
                [Seg("Press ? for help, i for the tile guide.", Style.DIM)]]
    lines: list[Line] = [[Seg(fit(menu.prompt, width), Style.TITLE)]]
    options = menu.options
    detail = _detail(options[menu.cursor], width, max(1, height - 4)) if options else []
    rows = max(1, height - 1 - len(detail))
    start = min(max(0, menu.cursor - rows // 2), max(0, len(options) - rows))
    stop = min(len(options), start + rows)
    for index in range(start, stop):
        line = _option_line(options[index], index, index == menu.cursor, width - 1)
        more = "^" if index == start and start > 0 else \
            "v" if index == stop - 1 and stop < len(options) else " "
        lines.append([*line, Seg(more, Style.BOLD)])
    if detail:
        lines += [[]] * max(0, height - len(detail) - len(lines))
        lines += detail
    return lines


def _choice_text(option: Option, width: int) -> tuple[str, bool]:
    """The label and cost of a choice in ``width`` columns; True if the label is whole."""
    more = " >" if option.children else ""
    note = f"  {option.short}" if option.short else ""
    for label in (option.label, option.brief):
        if label and len(label) + len(more) + len(note) <= width:
            return f"{label}{more}{note}", label == option.label
    return fit(f"{option.brief or option.label}{more}{note}", width), False


def _option_line(option: Option, index: int, cursor: bool, width: int) -> Line:
    body, _ = _choice_text(option, width - 3)
    if cursor:
        return [Seg(f">{option.key} {body}".ljust(width), Style.CURSOR, index)]
    return [Seg(" "), Seg(option.key, Style.KEY, index),
            Seg(f" {body}".ljust(width - 1 - len(option.key)), Style.NORMAL, index)]


def _detail(option: Option, width: int, most: int) -> list[Line]:
    """The choice under the cursor in full: its label (when its line had to shorten it) and
    what it costs and gains, in words, wrapped to at most ``most`` lines."""
    _, whole = _choice_text(option, width - 4)
    words = option.note if whole else \
        f"{option.label}{': ' + option.note if option.note else ''}"
    if not words:
        return []
    wrapped = textwrap.wrap(safe(f"= {words}"), width, subsequent_indent="  ")
    if len(wrapped) > most:
        wrapped = [*wrapped[:most - 1], fit(wrapped[most - 1], width - 4) + " ..."]
    return [[Seg(line, Style.DIM)] for line in wrapped]


def entry_text(entry: HistoryEntry, names: Sequence[str]) -> str:
    """A history entry as shown in the log.

    >>> entry_text(HistoryEntry(1, "hello", EntryKind.CHAT), ["Ann", "Bob"])
    '<P2 Bob> hello'
    >>> entry_text(HistoryEntry(0, "Ann took workers with a 5.", EntryKind.ACTION), ["Ann"])
    'P1 Ann took workers with a 5.'
    """
    if entry.kind == EntryKind.CHAT:
        who = f"P{entry.seat + 1} {names[entry.seat]}" if entry.seat is not None else "?"
        return f"<{who}> {entry.text}"
    if entry.kind == EntryKind.CHANCE:
        return f"* {entry.text}"
    seat = f"P{entry.seat + 1} " if entry.seat is not None else ""
    if entry.kind == EntryKind.EVENT:
        return f"! {seat}{entry.text}"
    return f"{seat}{entry.text}"


def log_lines(history: Sequence[HistoryEntry], names: Sequence[str], width: int,
              height: int, scroll: int = 0, mark: int = 0, pending: Sequence[str] = ()
              ) -> list[Line]:
    """The newest ``height - 1`` wrapped log lines (``scroll`` lines back), under a title;
    a rule marks where our last turn ended, and ``pending`` (our turn so far, not yet sent)
    comes last.

    >>> lines = log_lines([HistoryEntry(0, "Ann took workers with a 5.")], ["Ann"], 30, 4,
    ...                   pending=["Ann sold 2 x goods 3 (pink)."])
    >>> for line in lines:
    ...     print(text(line))
    Log (PgUp/PgDn)
    P1 Ann took workers with a 5.
    (this turn) Ann sold 2 x goods
      3 (pink).
    """
    rows = max(0, height - 1)
    need = rows + scroll  # wrap only the newest entries: enough to fill the pane
    blocks: list[list[Line]] = []
    count = 0
    for sentence in reversed(pending):
        blocks.append([[Seg(part, Style.LEGAL)] for part in textwrap.wrap(
            safe(f"(this turn) {sentence}"), max(10, width), subsequent_indent="  ")])
        count += len(blocks[-1])
    for i in range(len(history) - 1, -1, -1):
        if count >= need:
            break
        entry = history[i]
        style = {EntryKind.CHANCE: Style.DIM, EntryKind.CHAT: Style.BOLD,
                 EntryKind.EVENT: Style.BOLD}.get(entry.kind, Style.NORMAL)
        block = [[Seg(part, style)] for part in textwrap.wrap(
            safe(entry_text(entry, names)), max(10, width), subsequent_indent="  ") or [""]]
        if i == mark > 0:
            block.insert(0, [Seg(("-- since your last turn " + "-" * width)[:width],
                                 Style.DIM)])
        blocks.append(block)
        count += len(block)
    wrapped = [line for block in reversed(blocks) for line in block]
    scroll = min(scroll, max(0, len(wrapped) - rows))
    end = len(wrapped) - scroll
    title = "Log" + (f" ({scroll} lines up; PgDn: newer)" if scroll else " (PgUp/PgDn)")
    return [[Seg(fit(title, width), Style.TITLE)], *wrapped[max(0, end - rows):end]]


def clocks_text(clocks: Clocks) -> str:
    """Each seat's time left on the game clock, ``>`` before those the game waits for.

    >>> clocks_text(Clocks((600.0, 71.5, 0.0), (1,)))
    'P1 10:00 >P2 1:12 P3 0:00'
    """
    return " ".join(f"{'>' if seat in clocks.running else ''}P{seat + 1} {clock_text(left)}"
                    for seat, left in enumerate(clocks.left))


def status_line(model: Model, width: int) -> Line:
    """Phase, round, whose turn, each seat's time left where the table has a game clock,
    and the dice, silver, workers and VP of the viewer's seat."""
    table = model.table
    state = model.state
    names = table.names
    seat = table.my_seat if table.my_seat is not None else model.view_seat
    p = state.players[seat]
    where = "Game over" if state.is_over else f"{PHASE_LETTERS[state.phase]} {state.round + 1}/5"
    if state.config.solo and not state.is_over:
        where = f"Round {state.game_round}/25"
    if table.ended:
        turn = table.ended
    elif state.is_over and state.config.solo:
        turn = "You win: the duchy is full" if outcome(state).won else "The duchy is not full"
    elif state.is_over:
        result = outcome(state)
        turn = f"{seat_name(names, result.winner)} wins with {result.scores[result.winner]} VP"
    elif model.draft:
        turn = "Your turn"
    else:
        turn = table.waiting_for() or (f"{seat_name(names, state.to_move)} to move"
                                       if state.to_move is not None else "")
    clocks = table.clocks if isinstance(table, Clocked) and not state.is_over else None
    # Where the clocks leave no room for the whole sentence, their ">" and these seat tags
    # still say whom the game waits for.
    turns = [turn]
    if clocks is not None:
        head_clocks = f"{clocks_text(clocks)} | "
        if clocks.running and not model.draft:
            turns.append("waiting for " + " and ".join(f"P{s + 1}" for s in clocks.running))
    else:
        head_clocks = ""
    dice = " ".join(f"({d})" if p.dice_used >> i & 1 else str(d)
                    for i, d in enumerate(p.dice)) if any(p.dice) else "-"
    who = "" if seat == table.my_seat else f"{seat_name(names, seat)}: "
    head = f" {where} | "
    not_saved = table.not_saved if isinstance(table, LocalTable) else None
    # Lasting while the disk refuses: every step played since is not on disk.
    warning = " NOT SAVED " if not_saved is not None else ""
    width -= len(warning)
    if state.is_over or table.ended:
        tails = [f"{seat_name(names, seat)}: {p.vp} VP"]
    else:
        vp = f"{p.vp} VP"
        if state.config.solo:
            vp = f"VP {state.vp_counter}/{state.vp_target}"  # the counter and the target
        tails = [f"{who}dice {dice} | silver {p.silver} | workers {p.workers} | {vp}",
                 f"{who}dice {dice} | s{p.silver} w{p.workers} | {vp}",
                 f"{who}s{p.silver} w{p.workers} | {vp}"]  # the dice are on the board
        if who and clocks is not None:  # whose figures: the estate's title says it too
            tails.append(f"s{p.silver} w{p.workers} | {vp}")
    # The longest forms that leave the turn whole; the numbers always fit.
    room = width - len(head) - len(head_clocks) - 3
    turn, tail = next(((t, tail) for t in turns for tail in tails
                       if len(t) + len(tail) <= room), (turns[-1], tails[-1]))
    turn = fit(turn, max(12, room - len(tail)))
    line = fit(f"{head}{turn} | {head_clocks}{tail}", width)
    if len(line) + 7 <= width:
        line = line.ljust(width - 7) + " ? help"
    return [*([Seg(warning, Style.ERROR)] if warning else []), Seg(line.ljust(width), Style.BAR)]


def footer_line(keys: Sequence[tuple[str, str]], width: int) -> Line:
    """The keys that work now, most useful first, as many whole ones as fit; the help key
    (``?``) always among them, as its page lists every key.

    >>> text(footer_line([("u", "undo"), ("?", "help"), ("q", "quit")], 20))
    ' u undo  ? help     '
    >>> text(footer_line([("u", "undo"), ("q", "quit"), ("?", "help")], 17))
    ' u undo  ? help  '
    """
    def need(entry: tuple[str, str]) -> int:
        return len(entry[0]) + len(entry[1]) + 3

    help_entry = next((entry for entry in keys if entry[0] == "?"), None)
    kept_for_help = need(help_entry) if help_entry else 0
    shown: list[tuple[str, str]] = []
    used = 0
    for entry in keys:
        if entry == help_entry:
            kept_for_help = 0
        if used + need(entry) + kept_for_help > width:
            break
        shown.append(entry)
        used += need(entry)
    if help_entry and help_entry not in shown and used + need(help_entry) <= width:
        shown.append(help_entry)
        used += need(help_entry)
    line: Line = []
    for key, label in shown:
        line += [Seg(" "), Seg(key, Style.KEY), Seg(f" {label} ", Style.BAR)]
    line.append(Seg(" " * (width - used), Style.BAR))
    return line


# --- full pages --------------------------------------------------------------------------

def score_lines(state: GameState, names: Sequence[str], ended: str | None = None,
                notes: Sequence[str] = ()) -> list[Line]:
    """Every player's VP by category, the totals, empty spaces, and who won and why (with
    ``notes`` such as who resigned when)."""
    result = outcome(state)
    width = max(7, *(len(seat_name(names, s)) + 1 for s in range(len(names))))
    title = "Final scores" if state.is_over else f"Scores when the game stopped ({ended})"
    lines: list[Line] = [[Seg(title, Style.TITLE)], []]
    head = f"{'':<16}" + "".join(f"{seat_name(names, s):>{width}}" for s in range(len(names)))
    lines.append([Seg(head, Style.BOLD)])
    for category in categories(state.players[0].breakdown):
        cells = "".join(f"{p.breakdown[category]:>{width}}" for p in state.players)
        lines.append([Seg(f"{CATEGORY_WORDS[category]:<16}{cells}")])
    total = "".join(f"{p.vp:>{width}}" for p in state.players)
    lines.append([Seg(f"{'total':<16}{total}", Style.BOLD)])
    empty = "".join(f"{e:>{width}}" for e in result.empty_spaces)
    lines.append([Seg(f"{'empty spaces':<16}{empty}")])
    lines.append([])
    winner = result.winner
    if state.config.solo:
        lines.append([Seg((end_of_game(state) or "") if state.is_over else f"Stopped: {ended}.",
                          Style.BOLD)])
        return lines + [[Seg(note)] for note in notes]
    if ended:  # why it stopped comes first: it may name a winner other than the points leader
        lines.append([Seg(f"The game stopped early: {ended}.", Style.BOLD)])
        lines.append([Seg(f"On points, P{winner + 1} {names[winner]} was ahead with "
                          f"{result.scores[winner]} VP (decided by {result.decided_by}).")])
    elif sides := variants.sides(state.config, result):
        lines += side_result_lines(sides, names, "wins" if state.is_over else "leads",
                                   result.decided_by)
    else:
        verb = "wins" if state.is_over else "leads"
        lines.append([Seg(f"P{winner + 1} {names[winner]} {verb} with {result.scores[winner]} VP "
                          f"(decided by {result.decided_by}).", Style.BOLD)])
    ranking = "  ".join(f"{i + 1}. {seat_name(names, s)} {result.scores[s]}"
                        for i, s in enumerate(result.ranking))
    lines.append([Seg(f"Ranking: {ranking}")])
    lines += [[Seg(note)] for note in notes]
    return lines


def help_now(now: str, rule: str, keys: Sequence[tuple[str, str]], width: int) -> list[str]:
    """The top of the help page: the decision at hand, a one-line reminder of its rule and
    the keys that work for it, wrapped to ``width``.

    >>> for line in help_now("Take which tile?", "Take from the die's depot.",
    ...                      [("1-3", "choose"), ("Esc", "back")], 40):
    ...     print(line)
    Now: Take which tile?
    Rule: Take from the die's depot.
    Keys: 1-3 choose, Esc back
    """
    shown = ", ".join(f"{key} {label}" for key, label in keys)
    out = []
    for head, words in (("Now: ", now), ("Rule: ", rule), ("Keys: ", shown)):
        if words:
            out += textwrap.wrap(safe(head + words), max(10, width), subsequent_indent="  ")
    return out


def standings_lines(state: GameState, names: Sequence[str]) -> list[Line]:
    """During the game: every player's VP by category now, then what the final scoring
    would add if the game ended now (knowledge tiles, goods, silverlings, workers).

    >>> from p2p_burgundy import GameConfig, new_game, resolve_chance
    >>> state = new_game(GameConfig(players=2))
    >>> while state.chance is not None:
    ...     state = resolve_chance(state, bytes(32))
    >>> for line in standings_lines(state, ["Ann", "Bob"])[-6:]:
    ...     print(text(line))
    If the game ended now:
    + knowledge             0      0
    + goods left            3      3
    + silver left           1      1
    + workers left          0      1
    = at the end            4      5
    """
    width = max(7, *(len(seat_name(names, s)) + 1 for s in range(len(names))))
    where = f"phase {PHASE_LETTERS[state.phase]}, round {state.round + 1}"
    lines: list[Line] = [[Seg(f"Scores now ({where}; S or Esc: back)", Style.TITLE)], [],
                         [Seg(f"{'':<18}" + "".join(f"{seat_name(names, s):>{width}}"
                                                    for s in range(len(names))),
                              Style.BOLD)]]
    final = [end_game_points(p, state.config.edition) for p in state.players]
    now_categories = [c for c in categories(state.players[0].breakdown) if c not in final[0]]
    for category in now_categories:
        cells = "".join(f"{p.breakdown[category]:>{width}}" for p in state.players)
        lines.append([Seg(f"{CATEGORY_WORDS[category]:<18}{cells}")])
    lines.append([Seg(f"{'VP now':<18}" + "".join(f"{p.vp:>{width}}" for p in state.players),
                      Style.BOLD)])
    lines += [[], [Seg("If the game ended now:", Style.TITLE)]]
    for category in final[0]:
        cells = "".join(f"{points[category]:>{width}}" for points in final)
        lines.append([Seg(f"+ {CATEGORY_WORDS[category]:<16}{cells}")])
    ends = "".join(f"{p.vp + sum(points.values()):>{width}}"
                   for p, points in zip(state.players, final, strict=True))
    lines.append([Seg(f"{'= at the end':<18}{ends}", Style.BOLD)])
    return lines


CHART_MARKS = "ox+*"
"""How each seat's points are drawn on the chart (#: more than one player there)."""


def chart_lines(rounds: Sequence[tuple[int, ...]], names: Sequence[str], width: int,
                height: int) -> list[Line]:
    """Every player's VP at the end of each round, as a chart of ``width`` x ``height``.

    >>> for line in chart_lines([(2, 0), (5, 3), (9, 9)], ["Ann", "Bob"], 80, 9):
    ...     print(text(line).rstrip())
    VP round by round (G or Esc: back)
    o P1 Ann  x P2 Bob  (# both)
      9|      #
       |   o
       |o  x
      0|x
       +---------------------------------------------------------------------------
        A
    """
    n = len(names)
    legend = "  ".join(f"{CHART_MARKS[s]} {seat_name(names, s)}" for s in range(n))
    lines: list[Line] = [[Seg("VP round by round (G or Esc: back)", Style.TITLE)],
                         [Seg(fit(f"{legend}  (# both)" if n == 2 else f"{legend}  (# several)",
                                  width))]]
    if not rounds:
        return [*lines, [], [Seg("No round has ended yet.")]]
    rows = max(2, height - 5)
    top = max(1, max(max(r) for r in rounds))
    step = max(1, min(3, (width - 5) // (PHASES * ROUNDS)))
    grid = [[" "] * (step * PHASES * ROUNDS) for _ in range(rows)]
    for x, scores in enumerate(rounds):
        for seat, vp in enumerate(scores):
            y = rows - 1 - round(vp * (rows - 1) / top)
            cell = grid[y][x * step]
            grid[y][x * step] = CHART_MARKS[seat] if cell == " " else "#"
    for y, row in enumerate(grid):
        label = str(top) if y == 0 else "0" if y == rows - 1 else ""
        lines.append([Seg(f"{label:>3}|", Style.DIM), Seg("".join(row).rstrip())])
    lines.append([Seg("   +" + "-" * min(width - 4, len(grid[0])), Style.DIM)])
    phases = "".join(f"{PHASE_LETTERS[p]:<{step * ROUNDS}}"
                     for p in range(PHASES) if p * ROUNDS < len(rounds))
    lines.append([Seg(f"    {phases}".rstrip(), Style.DIM)])
    return lines


def lesson_pane(lesson: Sequence[str], width: int) -> list[Line]:
    """A guided game's step, where the log pane is (``l`` still shows the whole log): its
    title, why, and the keys to press.

    >>> for line in lesson_pane(["Lesson 1 of 2: dice", "Each die is one action.",
    ...                          "Press: 1 w"], 24):
    ...     print(text(line))
    Lesson 1 of 2: dice
    Each die is one action.
    Press: 1 w
    """
    title, *rest = lesson
    lines: list[Line] = [[Seg(fit(title, width), Style.TITLE)]]
    for part in rest:
        style = Style.BOLD if part.startswith("Press:") else Style.NORMAL
        lines += [[Seg(line, style)] for line in textwrap.wrap(safe(part), max(10, width))]
    return lines


def hint_lines(hint: Hint, width: int) -> list[Line]:
    """The bot's suggestion, in the choices' pane: the keys to press with what each
    chooses (what it picks is marked on the board and the estate)."""
    lines: list[Line] = [[Seg(fit("Hint (marked): Enter does it, Esc: back", width),
                              Style.TITLE)]]
    for i, (key, label) in enumerate(hint.steps):
        lines.append([Seg("press " if i == 0 else "then  "), Seg(key, Style.KEY),
                      Seg(fit(f" {label}", max(1, width - 6 - len(key))))])
    return lines


def catch_up_lines(frames: Sequence[CatchUpFrame], index: int, height: int, width: int
                   ) -> list[Line]:
    """The catch-up, in the choices' pane: the action shown (marked on the board and the
    estate) in full, then the ones still to come, dimmed, as many as fit.

    >>> from p2p_burgundy.cli.tui.draft import catch_up_frames
    >>> from p2p_burgundy.cli.tui.table import LocalTable
    >>> table = LocalTable.new("Ann", bots=2, seed=3); _ = table.poll()
    >>> frames = catch_up_frames(table.steps, 0, table.names)
    >>> for line in catch_up_lines(frames, 1, 6, 30):
    ...     print(text(line).rstrip())
    Since your last turn: 2 of 3
    > Bot 2 took Wrh (warehouse)
      from depot 5 with a 5.
      Bot 2 ended the turn.
    """
    lines: list[Line] = [[Seg(fit(f"Since your last turn: {index + 1} of {len(frames)}",
                                  width), Style.TITLE)]]
    for i, frame in enumerate(frames[index:], index):
        wrapped = textwrap.wrap(safe(frame.text), max(10, width - 2))
        style = Style.CURSOR if i == index else Style.DIM
        lines += [[Seg(("> " if i == index and n == 0 else "  ") + part, style)]
                  for n, part in enumerate(wrapped)]
    return lines[:height]


def hint_reason_lines(hint: Hint, width: int) -> list[Line]:
    """Why the bot would do it (in the game's words), what it earns at once, and what the
    bot reckons it worth by the end of the game, in the log's pane."""
    parts = [(f"Why: it {hint.why}.", Style.BOLD),
             (f"At once: {hint.now or 'nothing'}.", Style.NORMAL),
             (f"Bot's estimate by the end: {hint.worth:+.0f} VP", Style.NORMAL)]
    if hint.says:
        parts.append((f"The engine says: {hint.says}", Style.NORMAL))
    return [[Seg(line, style)] for part, style in parts
            for line in textwrap.wrap(safe(part), max(10, width), subsequent_indent="  ")]


def page_lines(body: Sequence[str], title: str, height: int, scroll: int) -> list[Line]:
    """A titled page of plain lines, scrolled.

    >>> [text(line) for line in page_lines(["a", "b", "c"], "Help", 4, 1)]
    ['Help', '', 'b', 'c']
    """
    rows = max(1, height - 2)
    scroll = min(scroll, max(0, len(body) - rows))
    lines: list[Line] = [[Seg(title, Style.TITLE)], []]
    lines += [[Seg(line)] for line in body[scroll:scroll + rows]]
    return lines


HINT_WORDS = {HintLevel.ALL: "every choice's target marked on the board; H asks the bot",
              HintLevel.TARGETS: "only the target of the choice under the cursor marked",
              HintLevel.NONE: "nothing marked, and no H"}
PALETTE_WORDS = {"standard": "the board's colours",
                 "colour-blind": "Okabe and Ito's colours, told apart with any colour vision",
                 "high-contrast": "bright colours, every tile bold"}


def settings_lines(settings: Settings, width: int) -> list[Line]:
    """The settings page: each setting's choices (the one in force highlighted), its key
    and what the one in force does.

    >>> for line in settings_lines(Settings(HintLevel.TARGETS), 80)[2:6]:
    ...     print(text(line).rstrip())
    h  Hints:    all  targets  none
       only the target of the choice under the cursor marked
    <BLANKLINE>
    p  Colours:  standard  colour-blind  high-contrast
    """
    def row(key: str, label: str, values: Sequence[str], current: str, words: str
            ) -> list[Line]:
        return [[Seg(key, Style.KEY), Seg(f"  {label:<10}"),
                 *(Seg(f"{v}  ", Style.CURSOR if v == current else Style.NORMAL)
                   for v in values)],
                [Seg(fit(f"   {words}", width), Style.DIM)], []]

    return [[Seg(fit("Settings: kept for your next games too (Esc: back)", width),
                 Style.TITLE)], [],
            *row("h", "Hints:", [level.value for level in HintLevel], settings.hints.value,
                 HINT_WORDS[settings.hints]),
            *row("p", "Colours:", PALETTES, settings.palette, PALETTE_WORDS[settings.palette]),
            *([Seg(line, Style.DIM)] for line in textwrap.wrap(
                "Where BURGUNDY_HINTS or BURGUNDY_PALETTE is set, it decides when a game "
                "starts; NO_COLOR means no colours in any palette.", width))]


def info_lines(index: int) -> list[Line]:
    """The tile guide at entry ``index``, with the list of entries around it."""
    entries = guide()
    index %= len(entries)
    _, info = entries[index]
    lines: list[Line] = [[Seg(f"Tile guide {index + 1}/{len(entries)}: {info.title}",
                              Style.TITLE)], []]
    lines += [[Seg("  " + line)] for line in info.lines]
    lines.append([])
    lines.append([Seg("Up/Down or Left/Right: other tiles   Esc: back", Style.DIM)])
    lines.append([])
    codes = [Seg(f" {code:<4}", Style.CURSOR if i == index else Style.NORMAL)
             for i, (code, _) in enumerate(entries)]
    for start in range(0, len(codes), 12):
        lines.append(codes[start:start + 12])
    return lines


def too_small_lines(width: int, height: int) -> list[Line]:
    """The only thing shown while the terminal is below the minimum size.

    >>> text(too_small_lines(60, 20)[0])
    'Terminal too small: 60x20.'
    """
    return [[Seg(fit(f"Terminal too small: {width}x{height}.", width), Style.ERROR)],
            [Seg(fit(f"Needs at least {MIN_WIDTH}x{MIN_HEIGHT}; enlarge it.", width))],
            [Seg(fit("q quits.", width))]]


# --- composing the screen ----------------------------------------------------------------

class Canvas:
    """A ``width`` x ``height`` grid of styled characters, with click targets."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self._cells: list[list[tuple[str, int, int | None]]] = [
            [(" ", Style.NORMAL, None)] * width for _ in range(height)]

    def put(self, y: int, x: int, line: Iterable[Seg], width: int | None = None) -> None:
        """Draw ``line`` from (y, x), clipped to ``width`` columns and to the canvas."""
        if not 0 <= y < self.height:
            return
        end = min(self.width, x + (width if width is not None else self.width))
        row = self._cells[y]
        for seg in line:
            chars = safe(seg.text)
            start, stop = max(x, 0), min(x + len(chars), end)
            if start < stop:
                row[start:stop] = [(ch, seg.style, seg.target) for ch in chars[start - x:stop - x]]
            x += len(chars)
            if x >= end:
                return

    def draw(self, dim: Dim, lines: Sequence[Line]) -> None:
        """Draw ``lines`` into the rectangle ``dim`` (clipped)."""
        for i, line in enumerate(lines[:dim.height]):
            self.put(dim.y + i, dim.x, line, dim.width)

    def lines(self) -> list[Line]:
        """Each row as segments of equal style and target."""
        out = []
        for row in self._cells:
            line: Line = []
            for ch, style, target in row:
                if line and line[-1].style == style and line[-1].target == target:
                    line[-1] = Seg(line[-1].text + ch, style, target)
                else:
                    line.append(Seg(ch, style, target))
            out.append(line)
        return out

    def text(self) -> list[str]:
        """The rows as plain strings (what a snapshot test compares)."""
        return ["".join([cell[0] for cell in row]) for row in self._cells]

    def target_at(self, y: int, x: int) -> int | None:
        """The choice a click at (y, x) selects, if any."""
        if 0 <= y < self.height and 0 <= x < self.width:
            return self._cells[y][x][2]
        return None


def render(model: Model, layout: Layout, keys: Sequence[tuple[str, str]],
           now_keys: Sequence[tuple[str, str]] = ()) -> Canvas:
    """The whole screen for ``model`` at ``layout``'s size; ``keys`` go in the footer, and
    ``now_keys`` (those of the screen under the help page) at the top of the help page."""
    canvas = Canvas(layout.width, layout.height)
    if layout.too_small:
        canvas.draw(layout.body, too_small_lines(layout.width, layout.height))
        return canvas
    table = model.table
    names = table.names
    state = model.state
    canvas.put(0, 0, status_line(model, layout.width))
    overlay = model.overlay
    body = layout.body
    if overlay == Overlay.HELP:
        context = {Context.PLAY: "play", Context.REPLAY: "replay",
                   Context.SCORES: "scores"}.get(model.base_context(), "wait")
        menu = model.menu()
        now = menu.prompt if menu else table.waiting_for() or model.message or "the game"
        text = help_now(now, model.rule_reminder(), now_keys, body.width)
        canvas.draw(body, page_lines([*text, "", *help_for(context, state.config)],
                                     "Help (Esc closes, arrows scroll)", body.height,
                                     model.overlay_scroll))
    elif overlay == Overlay.INFO:
        canvas.draw(body, info_lines(model.info_index))
    elif overlay == Overlay.SETTINGS:
        canvas.draw(body, settings_lines(model.settings, body.width))
    elif overlay == Overlay.LOG:
        rows = body.height
        lines = log_lines(table.history, names, body.width, rows, model.overlay_scroll,
                          model.mark, model.draft_sentences())
        canvas.draw(body, lines)
    elif overlay == Overlay.SCORES and not model.game_over:
        canvas.draw(body, standings_lines(state, names))
    elif overlay == Overlay.SCORES:
        notes = table.resignations if isinstance(table, Resigned) else ()
        seed = getattr(table, "seed", None)
        if state.config.solo and seed is not None:
            notes = (*notes, f"Seed {seed}: burgundy solo --seed {seed} replays this game.")
        lines = score_lines(state, names, table.ended, notes)
        lines += [[], [Seg("s: show the board   G: the race round by round   l: log   q: quit",
                           Style.DIM)]]
        room = body.height - len(lines) - 1
        if room >= 12:  # the chart too, if it fits
            lines += [[], *chart_lines(model.round_scores(), names, body.width, room)]
        canvas.draw(body, lines)
    elif overlay == Overlay.CHART:
        canvas.draw(body, chart_lines(model.round_scores(), names, body.width, body.height))
    else:
        menu = model.menu()
        hint = model.hint if overlay == Overlay.HINT else None
        mine = model.view_seat == table.my_seat
        board_marks = shown_marks(marks_for(menu), model.hint_level)
        marks = board_marks if mine else {}
        if hint is not None:  # what the hint picks, marked before Enter does it
            marks = board_marks = {target: (Style.CURSOR, 0) for target in hint.targets}
        seat = model.view_seat
        changes = model.changes
        frame = model.catch_up_frame()
        if frame is not None:  # another player's action: what it changed, and no choices
            changes, marks, board_marks = frame.changes, {}, {}
        canvas.draw(layout.estate, estate_lines(state, seat, names,
                                                change_marks(changes, seat, marks)))
        canvas.draw(layout.supplies, supplies_lines(state, seat, marks, layout.supplies.width,
                                                    changes))
        canvas.draw(layout.board, board_lines(state, names,
                                              change_marks(changes, None, board_marks),
                                              table.my_seat))
        waiting = table.waiting_for()
        if isinstance(table, Steppable):
            waiting = f"{waiting}. Steps: . and , one action, > and < one turn."
        elif (gone := model.handover_seat()) is not None:
            waiting = f"{waiting or ''}. B lets a bot play {names[gone]}'s seat."
        if hint is not None:
            canvas.draw(layout.menu, hint_lines(hint, layout.menu.width))
        elif frame is not None:
            canvas.draw(layout.menu, catch_up_lines(model.catching, model.catch_index,
                                                    layout.menu.height, layout.menu.width))
        else:
            canvas.draw(layout.menu, menu_lines(menu, waiting, layout.menu.height,
                                                layout.menu.width))
        if layout.others is not None:
            others = [s for s in range(len(names)) if s != seat]
            canvas.draw(layout.others, others_lines(state, others, names, layout.others.width,
                                                    changes))
        lesson = model.lesson_text()
        if hint is not None:
            canvas.draw(layout.log, hint_reason_lines(hint, layout.log.width))
        elif lesson:
            canvas.draw(layout.log, lesson_pane(lesson, layout.log.width))
        else:
            canvas.draw(layout.log, log_lines(table.history, names, layout.log.width,
                                              layout.log.height, model.log_scroll, model.mark,
                                              model.draft_sentences()))
    canvas.put(layout.message.y, 0, message_line(model, layout.width))
    canvas.put(layout.footer.y, 0, footer_line(keys, layout.width))
    return canvas


def message_line(model: Model, width: int) -> Line:
    """The question being asked, the chat being typed, or the last message."""
    if model.confirm:
        return [Seg(fit(model.confirm.question, width), Style.ERROR)]
    if model.chat is not None:
        shown = model.chat[-(width - 12):]
        label, hint = ("Go to: ", "  (a step, a phase A-E, or phase and round: C3)") \
            if model.going_to else ("Say: ", "  (Enter sends, Esc cancels)")
        return [Seg(label, Style.BOLD), Seg(shown + "_"),
                Seg(hint[:max(0, width - len(shown) - len(label) - 1)], Style.DIM)]
    return [Seg(fit(model.message, width))]
