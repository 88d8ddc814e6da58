"""The page's address as a QR code for the terminal, so a phone opens it in one step.

segno makes the code (pure Python, no dependencies, maintained, the full QR standard with
error correction and masking); we only lay its rows out as text: two rows of modules per
line with the Unicode half blocks, light modules drawn as blocks, so it reads on a dark
terminal, and on a light one too when ``colour`` paints it white on black.
"""

from __future__ import annotations

import segno

BORDER = 2
"""Light modules round the code (the scanners we tried need 2; the standard asks 4)."""
BLOCKS = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}
"""(upper light, lower light) -> the character for two modules, one above the other."""


def qr_lines(text: str) -> list[str]:
    """``text`` as a QR code (error correction M), two module rows per line.

    >>> lines = qr_lines("http://192.168.1.20:8337/")
    >>> len(lines), len(lines[0]), set(lines[0])  # version 2: 25 modules, and the border
    (15, 29, {'█'})
    """
    code = segno.make(text, error="m", micro=False, boost_error=False)
    rows = [[not dark for dark in row] for row in code.matrix_iter(scale=1, border=BORDER)]
    if len(rows) % 2:
        rows.append([True] * len(rows[0]))
    return ["".join(BLOCKS[upper, lower] for upper, lower in zip(rows[i], rows[i + 1],
                                                                 strict=True))
            for i in range(0, len(rows), 2)]


def qr_text(text: str, *, colour: bool) -> str:
    """The QR code of ``text`` to print: with ``colour``, white on black whatever the
    terminal's own colours are."""
    lines = qr_lines(text)
    if colour:
        lines = [f"\x1b[97;40m{line}\x1b[0m" for line in lines]
    return "\n".join(lines) + "\n"


__all__ = ["qr_lines", "qr_text"]
