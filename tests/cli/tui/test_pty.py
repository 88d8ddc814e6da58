"""The real program in a pseudo-terminal, read back through pyte (TERM=screen, UTF-8).

Every wait reads until the expected text appears (or the output goes quiet after a resize);
nothing sleeps for a fixed time.
"""

from __future__ import annotations

import re
import shlex
import signal
import sys
from pathlib import Path

import pytest

from p2p_burgundy.cli.tui.app import dispatch, footer_keys
from p2p_burgundy.cli.tui.layout import compute_layout
from p2p_burgundy.cli.tui.model import Model, Submit
from p2p_burgundy.cli.tui.render import render
from p2p_burgundy.cli.tui.table import LocalTable

if sys.platform == "win32":
    pytest.skip("needs a POSIX pty", allow_module_level=True)
pytest.importorskip("pyte", reason="pyte is in the test extras: pip install -e '.[test]'")

from .pty_terminal import PRINTED_PROGRAM, PtyTerminal, burgundy, running

START = ("play", "--bots", "1", "--seed", "3", "--name", "Tess", "--bot-delay", "0")
HERE = Path(__file__).parent


def test_start_shows_estate_board_status_log_and_the_first_choices(tmp_path: Path) -> None:
    with burgundy(tmp_path, *START) as term:
        screen = term.wait_for("use die 1")
        assert "Tess's estate (board 1)" in screen
        assert "Phase A round 1/5" in screen and "Black:" in screen
        assert "| Your turn |" in term.screen.display[0]
        assert "Log (PgUp/PgDn)" in screen
        assert "choose" in term.screen.display[23] and "q quit" in term.screen.display[23]
        term.press("q")
        assert term.wait_exit() == 0


def test_the_footer_fits_80_columns_most_useful_keys_first(tmp_path: Path) -> None:
    with burgundy(tmp_path, *START) as term:
        term.wait_for("use die 1")
        assert term.screen.display[23] == (
            " 1 2 choose  Esc back  u undo  H hint  S scores  ? help  q quit  i tiles"
            "        ")
        term.press("S")  # a page of its own: its keys, help among them
        term.wait_for("Scores now")
        assert term.screen.display[23].rstrip() == " S back  G chart  ? help"
        term.press("esc")
        term.wait_for("use die 1")
        term.resize(132, 30)  # wider: the rest follow, in the same order
        term.wait_quiet()
        assert term.screen.display[29] == (
            " 1 2 choose  Esc back  u undo  H hint  S scores  ? help  q quit  i tiles  v view"
            "  l log  c chat  O settings  R resign  M meanwhile  ")
        term.press("q")
        assert term.wait_exit() == 0


def test_a_full_turn_by_keys_then_undo_and_the_bot_replies(tmp_path: Path) -> None:
    with burgundy(tmp_path, *START) as term:
        term.wait_for("use die 1")
        workers = _workers(term)
        term.press("1")
        term.wait_for("w take workers")
        term.press("w")
        term.wait_for(f"workers {workers + 2} |")
        term.press("u")
        term.wait_for("Undone.")
        assert f"workers {workers} |" in term.screen.display[0]
        term.press("w")
        term.wait_for("(this turn) Tess took workers")
        term.press("2", "w")
        term.wait_for("e end the turn")
        term.press("e")
        term.wait_for("Your turn. Meanwhile Bot 1 ")
        term.press("l")
        term.wait_for("Tess ended the turn.")
        assert "-- since your last turn --" in term.text
        term.press("esc", "q")
        assert term.wait_exit() == 0


def test_what_the_bot_changed_is_marked_when_our_turn_comes(tmp_path: Path) -> None:
    def marked() -> list[str]:
        return [line[43:] for line in term.screen.display[2:10] if "*" in line[43:]]

    with burgundy(tmp_path, *START) as term:
        term.wait_for("use die 1")
        term.press(*"1w2we")
        term.wait_for("Your turn. Meanwhile Bot 1 took")
        assert marked(), term.text  # the depot slot the bot took from
        term.press("1")
        term.wait_for("w take workers")
        assert not marked(), term.text


def test_m_steps_through_what_each_bot_did_action_by_action_on_its_estate(tmp_path: Path
                                                                          ) -> None:
    with burgundy(tmp_path, "play", "--bots", "2", "--seed", "3", "--name", "Tess",
                  "--bot-delay", "0") as term:
        term.wait_for("use die 1")
        term.press(*"1w2we")
        term.wait_for("Your turn. Meanwhile")
        term.press("M")
        screen = term.wait_for("Since your last turn: 1 of 8")
        assert term.screen.display[1].startswith("P2 Bot 1's estate")
        assert "> Bot 1 took Twr (watchtower) from depot 3" in screen
        assert "*---" in screen  # the depot slot it took from, marked
        assert term.screen.display[23].startswith(" M next  Left previous  Esc back")
        term.press("M")
        screen = term.wait_for("Since your last turn: 2 of 8")
        assert "*Twr" in term.screen.display[4]  # placed on B3, marked
        term.press("M", "M")
        screen = term.wait_for("Since your last turn: 4 of 8")
        assert term.screen.display[1].startswith("P3 Bot 2's estate")
        assert "> Bot 2 placed Wrh (warehouse) on B3" in screen
        term.press("left")
        term.wait_for("> Bot 1 ended the turn.")
        term.press("esc")
        assert term.wait_until(lambda: term.screen.display[1].startswith("P1 Tess's estate")
                               and "use die 1" in term.text), term.text
        term.press("q")
        assert term.wait_exit() == 0


def test_the_terminal_shows_exactly_what_render_draws(tmp_path: Path) -> None:
    """The same seed and keys in-process: after every key the pty screen equals the canvas
    (so curses' partial updates, scrolling included, leave nothing stale)."""
    table = LocalTable.new("Tess", bots=2, seed=4)
    model = Model(table)

    def expected() -> list[str]:
        if table.poll():
            model.refresh()
        canvas = render(model, compute_layout(80, 24), footer_keys(model))
        return [line.rstrip() for line in canvas.text()]

    with burgundy(tmp_path, "play", "--bots", "2", "--seed", "4", "--name", "Tess",
                  "--bot-delay", "0") as term:
        want = expected()
        for key in [*"1w2we", "v", "v", "v", *"1t", "down", "esc", "u", *"2w"]:
            if not term.wait_until(lambda w=want: _rows(term) == w, timeout=5):
                raise AssertionError("screen differs:\n" + "\n".join(
                    f"want {w!r}\n got {g!r}" for w, g in zip(want, _rows(term), strict=True)
                    if w != g))
            term.press(key)
            command = dispatch(model, KEY_NAMES_BACK.get(key, key))
            if isinstance(command, Submit):
                table.submit_turn(list(command.actions))
                model.turn_sent()
            want = expected()


KEY_NAMES_BACK = {"down": "KEY_DOWN", "esc": "^["}


def _rows(term: PtyTerminal) -> list[str]:
    return [line.rstrip() for line in term.screen.display]


def _workers(term: PtyTerminal) -> int:
    found = re.search(r"workers (\d+) \|", term.screen.display[0])
    assert found, term.text
    return int(found.group(1))


def test_escape_answers_at_once(tmp_path: Path) -> None:
    with burgundy(tmp_path, *START) as term:
        term.wait_for("use die 1")
        term.press("1")
        term.wait_for("w take workers")
        term.press("esc")
        term.wait_for("Die given back.", timeout=0.9)  # ncurses' default delay is 1 s


def test_resize_below_the_minimum_and_back(tmp_path: Path) -> None:
    with burgundy(tmp_path, *START) as term:
        term.wait_for("use die 1")
        term.resize(60, 20)
        term.wait_for("Terminal too small: 60x20.")
        assert "Needs at least 80x24" in term.text
        term.resize(100, 30)
        screen = term.wait_quiet()
        assert "Terminal too small" not in screen and "use die 1" in screen
        assert len(term.screen.display[0].rstrip()) == 100  # the status line fills the width
        term.press("q")
        assert term.wait_exit() == 0


def test_at_120x40_every_other_estate_stands_beside_yours(tmp_path: Path) -> None:
    with burgundy(tmp_path, "play", "--bots", "2", "--seed", "3", "--name", "Tess",
                  "--bot-delay", "0", cols=120, rows=40) as term:
        screen = term.wait_for("use die 1")
        assert "P1 Tess's estate (board 1)" in screen
        titles = [line[84:].split(":")[0] for line in term.screen.display
                  if line[84:].startswith(("P2 ", "P3 "))]
        assert titles == ["P2 Bot 1", "P3 Bot 2"]
        term.press("q")
        assert term.wait_exit() == 0


def test_scores_any_time_and_back_to_the_turn(tmp_path: Path) -> None:
    with burgundy(tmp_path, *START) as term:
        term.wait_for("use die 1")
        term.press("S")
        screen = term.wait_for("Scores now (phase A, round 1; S or Esc: back)")
        assert "If the game ended now:" in screen and "= at the end" in screen
        term.press("1")  # not a choice while the scores are up
        term.wait_for("1 does nothing here")
        term.press("esc")
        term.wait_for("use die 1")


def test_a_hint_from_the_bot_then_enter_plays_it(tmp_path: Path) -> None:
    with burgundy(tmp_path, *START) as term:
        term.wait_for("use die 1")
        term.press("H")
        screen = term.wait_for("Hint (marked): Enter does it, Esc: back")
        assert "press 1" in screen or "press 2" in screen
        assert "Why: it " in screen and "Bot's estimate by the end: " in screen
        assert ">3<" in screen or ">4<" in screen  # the die it uses, marked
        term.press("enter")
        term.wait_for("(this turn) Tess")


def test_help_for_the_current_screen_and_back(tmp_path: Path) -> None:
    with burgundy(tmp_path, *START) as term:
        term.wait_for("use die 1")
        term.press("1", "t", "?")
        term.wait_for("Help (Esc closes, arrows scroll)")
        assert "Now: Take which tile?" in term.text and "Rule: Take from the depot" in term.text
        assert "Keys: 1-" in term.text and "Your turn, in steps" in term.text
        term.press("esc", "esc", "esc")
        term.wait_for("use die 1")
        term.press("i")
        term.wait_for("Tile guide 1/66: Warehouse")
        term.press("esc", "q")
        assert term.wait_exit() == 0


def test_a_mouse_click_chooses_a_highlighted_choice(tmp_path: Path) -> None:
    with burgundy(tmp_path, *START) as term:
        term.wait_for("use die 1")
        row = next(i for i, line in enumerate(term.screen.display) if "use die 2" in line)
        term.press(f"\x1b[M{chr(32)}{chr(32 + 5)}{chr(32 + row + 1)}")  # X10 press, 1-based
        term.wait_for("w take workers")
        assert "(2)" in term.screen.display[12] or "(4)" in term.screen.display[12]


def _click(term: PtyTerminal, row: int, col: int) -> None:
    """Button 1 pressed and released at (row, col), as an xterm reports it (1-based)."""
    at = f"{chr(32 + col + 1)}{chr(32 + row + 1)}"
    term.press(f"\x1b[M{chr(32)}{at}\x1b[M{chr(35)}{at}")


def _find(term: PtyTerminal, text: str, rows: range, cols: range) -> tuple[int, int]:
    """Where ``text`` is on the screen, within ``rows`` and ``cols``."""
    for row in rows:
        col = term.screen.display[row].find(text, cols.start, cols.stop)
        if col >= 0:
            return row, col
    raise AssertionError(f"{text!r} is not on the screen:\n" + term.text)


def test_clicks_on_a_depot_and_on_a_space_do_what_the_keys_do(tmp_path: Path) -> None:
    with burgundy(tmp_path, *START) as term:
        term.wait_for("use die 1")
        term.press("2", "t")
        term.wait_for("Take which tile?")
        _click(term, *_find(term, "[Chu", range(2, 11), range(43, 80)))  # depot 3's church
        term.wait_for("Storage: 1 Chu ")
        term.press("1", "p", "1")
        term.wait_for("Place Chu (church) on which space?")
        _click(term, *_find(term, "[", range(2, 9), range(0, 42)))  # a space of the estate
        term.wait_for("Storage: 1 ---")
        assert any("Chu" in line[:42] for line in term.screen.display[2:9])  # on the estate


def test_chat_line_goes_to_the_log(tmp_path: Path) -> None:
    with burgundy(tmp_path, *START) as term:
        term.wait_for("use die 1")
        term.press("c")
        term.wait_for("Say:")
        term.press("q1 hello", "enter")
        term.wait_for("<P1 Tess> q1 hello")
        assert "use die 1" in term.text  # no key of the chat line reached the game


def test_a_whole_game_at_80x24_never_shows_a_cut_and_reaches_the_scores(tmp_path: Path) -> None:
    """Against 3 bots, a long name: every screen the terminal shows is read, and none has a
    cut mark (``~``) on any line."""
    cut: list[str] = []

    def done() -> bool:
        if "~" in term.text and not cut:
            cut.append(term.text)
        return "Final scores" in term.text

    with burgundy(tmp_path, "play", "--bots", "3", "--seed", "3", "--name", "Tess Longname",
                  "--bot-delay", "0", "--autoplay") as term:
        assert term.wait_until(done, timeout=60), term.text
        assert not cut, cut[0]
        screen = term.text
        assert "total" in screen and "empty spaces" in screen
        assert re.search(r"\w+ wins with \d+ VP \(decided by ", screen)
        term.press("G")
        screen = term.wait_for("VP round by round")
        assert "o P1 Tess Long.  x P2 Bot 1  + P3 Bot 2  * P4 Bot 3" in screen
        term.press("esc")
        term.wait_for("Final scores")
        term.press("s")
        term.wait_for("Game over")
        term.press("q")
        assert term.wait_exit() == 0


def test_no_color_draws_with_attributes_only(tmp_path: Path) -> None:
    colour = re.compile(rb"\x1b\[[0-9;]*3[0-7]m|\x1b\[3[0-7];")
    with burgundy(tmp_path, *START, env={"NO_COLOR": "1"}) as term:
        term.wait_for("use die 1")
        term.press("q")
        term.wait_exit()
        assert not colour.search(bytes(term.output))
    with burgundy(tmp_path, *START) as term:
        term.wait_for("use die 1")
        assert colour.search(bytes(term.output))


def test_a_monochrome_terminal_works(tmp_path: Path) -> None:
    with burgundy(tmp_path, *START, env={"TERM": "vt100"}) as term:
        term.wait_for("use die 1")
        term.press("q")
        assert term.wait_exit() == 0


def test_an_unknown_terminal_type_falls_back_to_a_known_one_with_a_notice(
    tmp_path: Path,
) -> None:
    with burgundy(tmp_path, *START, env={"TERM": "no-such-terminal"}) as term:
        term.wait_for("use die 1")
        assert (b"burgundy play: this system does not know the terminal type "
                b"'no-such-terminal'; drawing as xterm-256color") in bytes(term.output)
        term.press("q")
        assert term.wait_exit() == 0


def test_sigterm_restores_the_terminal(tmp_path: Path) -> None:
    with burgundy(tmp_path, *START) as term:
        term.wait_for("use die 1")
        start = len(term.output)
        term.proc.send_signal(signal.SIGTERM)
        assert term.wait_exit() == 143
        assert b"\x1b[?1049l" in term.output[start:]  # left the alternate screen


def test_an_error_is_one_line_and_a_log_file_never_a_traceback(tmp_path: Path) -> None:
    term = PtyTerminal([sys.executable, str(HERE / "broken_client.py")], tmp_path)
    try:
        term.wait_for("use die 1")
        term.press("1")
        code = term.wait_exit()
    finally:
        term.close()
    tail = bytes(term.output).decode("utf-8", "replace")
    assert code == 1
    assert "Traceback" not in tail
    assert f"details are in {tmp_path / 'tui.log'}" in tail
    log = (tmp_path / "tui.log").read_text()
    assert "Traceback" in log and "RuntimeError: the table fell over" in log


def test_a_game_with_shields_at_80x24_shows_them_without_a_cut(tmp_path: Path) -> None:
    """The shields on the depots and on the players' castles, and their guide entries; then
    against 2 bots to the final scores with a shields row, no line cut."""
    cut: list[str] = []

    def done() -> bool:
        if "~" in term.text and not cut:
            cut.append(term.text)
        return "Final scores" in term.text

    args = ("play", "--bots", "2", "--seed", "4", "--with", "shields", "--name", "Tess",
            "--bot-delay", "0")
    with burgundy(tmp_path, *args) as term:
        screen = term.wait_for("use die 1")
        assert "2: Kn19  Cas   Bdh   #1,8  (5)" in screen  # shields #1 and #8 on depot 2
        assert "Silver 1  Workers 1  VP 0  Shields none" in screen
        term.press("i")
        term.wait_for("Tile guide 1/66")
        term.press("up")
        screen = term.wait_for("Tile guide 66/66: Shield #18 (4 VP at the end)")
        assert "Place tiles on any empty space, next to a tile or not." in screen
        term.press("esc")
        term.wait_for("use die 1")
        term.press("q")
        term.wait_exit()
    with burgundy(tmp_path / "auto", *args, "--autoplay") as term:
        assert term.wait_until(done, timeout=90), term.text
        assert not cut, cut[0]
        assert re.search(r"^shields +\d+ +\d+ +\d+", term.text, re.M), term.text
        term.press("s")
        screen = term.wait_for("Game over")
        assert re.search(r"VP \d+  (Shields|Sh) ", screen), screen
        term.press("q")
        assert term.wait_exit() == 0


def test_a_local_game_left_with_q_comes_back_with_the_printed_command(tmp_path: Path) -> None:
    with burgundy(tmp_path, *START) as term:
        term.wait_for("use die 1")
        term.press(*"1w2we")
        term.wait_for("Your turn. Meanwhile Bot 1 ")
        before = term.screen.display[1:21]
        workers = _workers(term)
        term.press("q")
        assert term.wait_exit() == 0
        unwrapped = "".join(term.screen.display)  # the long path wraps at 80 columns
        found = re.search(PRINTED_PROGRAM + r" play --local --resume \S+\.local", unwrapped)
        assert found and "This game is saved. To go back to it:" in term.text, term.text
    with running([*shlex.split(found.group(0)), "--bot-delay", "0"], tmp_path) as term:
        term.wait_for("use die 1")
        # The same board, supplies and log (the bot's turn in it), what the bot changed
        # marked, and what it did said on the message line.
        assert term.screen.display[1:21] == before
        term.press(*"1w2we")  # and the game goes on: our turn, then the bot's
        assert term.wait_until(lambda: f"workers {workers + 4} |" in term.screen.display[0]
                               and "| Your turn |" in term.screen.display[0]), term.text
        term.press("q")
        assert term.wait_exit() == 0

