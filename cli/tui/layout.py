"""Screen geometry as values: every pane's rectangle, computed from the size in one place.

At the minimum size (80x24) the screen is: a status line; the estate (hex map) with the
player's supplies below it on the left; the central board and the players on the right; the
choices of the turn and the log pane below; a message line; the footer with the keys.
More rows go to the choices and the log; from 120 columns the log gets its own column, and
from 120x40 the other players' estates get that column instead (the log goes under the board).

>>> layout = compute_layout(80, 24)
>>> layout.estate, layout.board.width, layout.menu.height
(Dim(y=1, x=0, height=8, width=42), 37, 8)
>>> compute_layout(79, 24).too_small
True
"""

from __future__ import annotations

from typing import NamedTuple

MIN_WIDTH, MIN_HEIGHT = 80, 24
WIDE = 120  # from this width the log pane takes a column of its own
TALL = 40  # from WIDE x TALL the other players' estates take that column
LEFT = 42  # the estate: 7 hex cells of 6 columns
TOP = 13  # rows of the estate + supplies column, and of the board + players column
ESTATE_ROWS = 8  # a title and 7 hex rows
BOARD_WIDTH_WIDE = 40


class Dim(NamedTuple):
    """A rectangle of the screen: top row, left column, rows and columns."""

    y: int
    x: int
    height: int
    width: int


class Layout(NamedTuple):
    """Where everything goes for one screen size (``too_small``: show only a message)."""

    width: int
    height: int
    too_small: bool
    status: Dim
    body: Dim  # everything between the status line and the message line (overlays)
    estate: Dim
    supplies: Dim
    board: Dim
    menu: Dim
    log: Dim
    others: Dim | None  # the other players' estates (from WIDE x TALL)
    message: Dim
    footer: Dim


def compute_layout(width: int, height: int) -> Layout:
    """The layout for a ``width`` x ``height`` screen.

    >>> compute_layout(132, 30).log
    Dim(y=1, x=84, height=27, width=48)
    >>> compute_layout(132, 40).others
    Dim(y=1, x=84, height=37, width=48)
    """
    full = Dim(0, 0, height, width)
    too_small = width < MIN_WIDTH or height < MIN_HEIGHT
    if too_small:
        return Layout(width, height, True, full, full, full, full, full, full, full, None, full,
                      full)
    status = Dim(0, 0, 1, width)
    message = Dim(height - 2, 0, 1, width)
    footer = Dim(height - 1, 0, 1, width)
    body = Dim(1, 0, height - 3, width)
    estate = Dim(1, 0, ESTATE_ROWS, LEFT)
    supplies = Dim(1 + ESTATE_ROWS, 0, TOP - ESTATE_ROWS, LEFT)
    bottom_y = 1 + TOP
    bottom_h = height - 3 - TOP
    others = None
    if width < WIDE:
        board = Dim(1, LEFT + 1, TOP, width - LEFT - 1)
        menu = Dim(bottom_y, 0, bottom_h, LEFT)
        log = Dim(bottom_y, LEFT + 1, bottom_h, width - LEFT - 1)
    elif height >= TALL:
        board = Dim(1, LEFT + 1, TOP, BOARD_WIDTH_WIDE)
        menu = Dim(bottom_y, 0, bottom_h, LEFT)
        log = Dim(bottom_y, LEFT + 1, bottom_h, BOARD_WIDTH_WIDE)
        right = LEFT + 1 + BOARD_WIDTH_WIDE + 1
        others = Dim(1, right, height - 3, width - right)
    else:
        board = Dim(1, LEFT + 1, TOP, BOARD_WIDTH_WIDE)
        right = LEFT + 1 + BOARD_WIDTH_WIDE + 1
        menu = Dim(bottom_y, 0, bottom_h, right - 1)
        log = Dim(1, right, height - 3, width - right)
    return Layout(width, height, False, status, body, estate, supplies, board, menu, log,
                  others, message, footer)
