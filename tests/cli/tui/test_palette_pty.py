"""The six tile kinds are told apart by colour on 8- and 256-colour terminals, in every
palette (``BURGUNDY_PALETTE``), and ``NO_COLOR`` draws with no colour at all: read back
from the real program's screen through pyte."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if sys.platform == "win32":
    pytest.skip("needs a POSIX pty", allow_module_level=True)
pytest.importorskip("pyte", reason="pyte is in the test extras: pip install -e '.[test]'")

from p2p_burgundy.cli.tui.app import TILE_COLOURS
from p2p_burgundy.tiles import COLOUR_LETTERS

from .pty_terminal import PtyTerminal, burgundy

START = ("play", "--local", "--seed", "3", "--name", "Tess", "--bot-delay", "0")


def space_colours(term: PtyTerminal) -> dict[str, str]:
    """The foreground colour of an empty estate space (``B3``) of each colour letter."""
    found: dict[str, str] = {}
    for y in range(1, 12):
        row = term.screen.buffer[y]
        for x in range(44):
            letter, after = row[x].data, row[x + 1].data
            if letter in COLOUR_LETTERS and after.isdigit() and row[x - 1].data == " ":
                found.setdefault(letter, row[x].fg)
    return found


def test_every_palette_has_six_colours_at_8_and_at_256() -> None:
    for name, (many, eight) in TILE_COLOURS.items():
        assert len(set(many)) == 6 and len(set(eight)) == 6, name


@pytest.mark.parametrize("palette", sorted(TILE_COLOURS))
@pytest.mark.parametrize("term_name", ["screen", "screen-256color"])
def test_no_two_tile_kinds_share_a_colour_on_screen(
        tmp_path: Path, palette: str, term_name: str) -> None:
    with burgundy(tmp_path, *START, env={"TERM": term_name, "BURGUNDY_PALETTE": palette}
                  ) as term:
        term.wait_for("use die 1")
        colours = space_colours(term)
        term.press("q")
        assert term.wait_exit() == 0
    assert sorted(colours) == sorted(COLOUR_LETTERS), colours
    assert len(set(colours.values())) == 6, colours
    assert "default" not in colours.values()
    if term_name == "screen":  # the 8 named colours (pyte calls yellow brown)
        assert set(colours.values()) <= {"red", "green", "blue", "cyan", "white", "brown",
                                         "magenta"}


def test_no_color_draws_no_colour(tmp_path: Path) -> None:
    with burgundy(tmp_path, *START, env={"TERM": "screen-256color", "NO_COLOR": "1",
                                         "BURGUNDY_PALETTE": "colour-blind"}) as term:
        term.wait_for("use die 1")
        colours = space_colours(term)
        cells = [c for row in term.screen.buffer.values() for c in row.values()]
        term.press("q")
        assert term.wait_exit() == 0
    assert set(colours.values()) == {"default"}
    assert {c.fg for c in cells} == {"default"} and {c.bg for c in cells} == {"default"}


PYTE_NAMES = {curses_colour: name for curses_colour, name in enumerate(
    ("black", "red", "green", "brown", "blue", "magenta", "cyan", "white"))}
"""pyte's names of the 8 colours, by curses number (pyte calls yellow brown)."""


def eight_colours(palette: str) -> dict[str, str]:
    """What each colour letter's spaces show in ``palette`` on an 8-colour terminal."""
    return {letter: PYTE_NAMES[number]
            for letter, number in zip(COLOUR_LETTERS, TILE_COLOURS[palette][1], strict=True)}


def test_the_palette_is_a_setting_changed_in_the_game_and_kept(tmp_path: Path) -> None:
    with burgundy(tmp_path, *START) as term:
        term.wait_for("use die 1")
        assert space_colours(term) == eight_colours("standard")
        term.press("O")
        term.wait_for("Settings: kept for your next games too")
        term.press("p")
        term.wait_for("Kept for your next games.")
        term.press("esc")
        assert term.wait_until(lambda: "use die 1" in term.text
                               and space_colours(term) == eight_colours("colour-blind")), term.text
        term.press("q")
        assert term.wait_exit() == 0
    assert '"palette": "colour-blind"' in (tmp_path / "settings.json").read_text()
    with burgundy(tmp_path, *START) as term:  # the next game starts with it
        term.wait_for("use die 1")
        assert space_colours(term) == eight_colours("colour-blind")
        term.press("q")
        assert term.wait_exit() == 0
    with burgundy(tmp_path, *START, env={"BURGUNDY_PALETTE": "high-contrast"}) as term:
        term.wait_for("use die 1")  # the environment decides where it is set
        assert space_colours(term) == eight_colours("high-contrast")
        term.press("q")
        assert term.wait_exit() == 0
    with burgundy(tmp_path, *START, env={"NO_COLOR": "1"}) as term:
        term.wait_for("use die 1")
        assert set(space_colours(term).values()) == {"default"}
        term.press("q")
        assert term.wait_exit() == 0
