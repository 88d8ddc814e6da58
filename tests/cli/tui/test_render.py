"""Pure rendering: exact lines for fixed positions (no terminal needed)."""

from __future__ import annotations

import pytest

from p2p_burgundy import PlaceTile, TakeTile, UseDie
from p2p_burgundy.cli.tui.app import footer_keys
from p2p_burgundy.cli.tui.layout import compute_layout
from p2p_burgundy.cli.tui.menu import Option
from p2p_burgundy.cli.tui.model import MenuView, Model
from p2p_burgundy.cli.tui.render import (
    Canvas,
    Seg,
    Style,
    board_lines,
    estate_lines,
    footer_line,
    log_lines,
    menu_lines,
    render,
    score_lines,
    status_line,
    supplies_lines,
    text,
    too_small_lines,
)
from p2p_burgundy.cli.tui.table import EntryKind, HistoryEntry

from .helpers import FixedTable, first_legal_game, play, started

NAMES = ["Ann", "Bea"]


def placing_model() -> Model:
    """Ann took the church with her 1 and chose her 2: where to place it?"""
    table = FixedTable(started(2), NAMES, 0,
                       [HistoryEntry(None, "Round 1 of phase A.", EntryKind.CHANCE)])
    model = Model(table)
    table.poll()
    model.refresh()
    for key in "1t12p1":
        model.hotkey(key)
    return model


def screen_text(model: Model, width: int = 80, height: int = 24) -> list[str]:
    canvas = render(model, compute_layout(width, height), footer_keys(model))
    return [line.rstrip() for line in canvas.text()]


def test_whole_screen_at_80x24_while_placing_a_tile() -> None:
    assert screen_text(placing_model()) == [
        " A 1/5 | Your turn | dice (1) (2) | silver 1 | workers 1 | 0 VP           ? help",
        "P1 Ann's estate (board 1)                  Phase A round 1/5 | to come: 3 2 1 1",
        "          A6    C5    C4    K3             1: ---   Shp",
        "       A2    A1    C6    K5    B4          2: Kn1   Cas",
        "    A5    A4   >B3  < K1    B2    B3       3: Sh2   Wrh               (5)",
        " S6    S1    S2    Cas   S5    S4    S1    4: Shp   Twr",
        "    B2    B5    M4   [B3  ] B1    A2       5: Min   Kn20",
        "       B6    M1    K2    B5    B6          6: Bnk   Sh3",
        "          M3    K4    K1    B3             Black: Sh3   Kn7   Bdh   Hal",
        "Storage: 1 Chu   2 ---   3 ---",
        "Goods:  5x1   6x2   sold 0                 > 1. P1 Ann       *  0 VP  s1 w1",
        "Silver 1  Workers 1  VP 0                    2. P2 Bea          0 VP  s1 w2",
        "Dice:  (1)  (2)  Bonus tiles: none",
        "Knowledge: none",
        "Place Chu (church) on which space?         Log (PgUp/PgDn)",
        ">1 B3 (row 3, 3)  -1 wkr +11 VP            * Round 1 of phase A.",
        " 2 B3 (row 5, 4)  -1 wkr                   (this turn) Ann took Chu (church)",
        "                                             from depot 1 with a 1.",
        "",
        "",
        "= -1 worker; +11 VP for region, phase",
        "  bonus",
        "",
        " 1 2 choose  Esc back  u undo  H hint  S scores  ? help  q quit  i tiles",
    ]


def test_the_footer_keeps_the_most_useful_keys_whole_and_always_the_help_key() -> None:
    keys = footer_keys(placing_model())
    assert [text(footer_line(keys, width)).rstrip() for width in (132, 100, 46, 45, 29, 8)] == [
        " 1 2 choose  Esc back  u undo  H hint  S scores  ? help  q quit  i tiles  v view"
        "  l log  c chat  O settings  R resign  M meanwhile",
        " 1 2 choose  Esc back  u undo  H hint  S scores  ? help  q quit  i tiles  v view"
        "  l log  c chat",
        " 1 2 choose  Esc back  u undo  H hint  ? help",
        " 1 2 choose  Esc back  u undo  ? help",  # H hint would leave no room for help
        " 1 2 choose  ? help",
        " ? help"]
    assert text(footer_line(keys, 7)) == " " * 7  # not even the help key fits: nothing cut
    assert [text(footer_line(keys, width)).rstrip() for width in (80, 72)] == [
        " 1 2 choose  Esc back  u undo  H hint  S scores  ? help  q quit  i tiles",
        " 1 2 choose  Esc back  u undo  H hint  S scores  ? help  q quit"]


def test_estate_is_seven_offset_rows_of_colour_letter_and_die() -> None:
    assert [text(line).rstrip() for line in estate_lines(started(2), 0, NAMES)] == [
        "P1 Ann's estate (board 1)",
        "          A6    C5    C4    K3",
        "       A2    A1    C6    K5    B4",
        "    A5    A4    B3    K1    B2    B3",
        " S6    S1    S2    Cas   S5    S4    S1",
        "    B2    B5    M4    B3    B1    A2",
        "       B6    M1    K2    B5    B6",
        "          M3    K4    K1    B3",
    ]


def test_placed_tile_shows_its_code_in_place_of_the_space() -> None:
    state = play(started(2), UseDie(0), TakeTile(1, 0), UseDie(1), PlaceTile(0, 11))
    row = text(estate_lines(state, 0, NAMES)[3])
    assert row.rstrip() == "    A5    A4    Chu   K1    B2    B3"


def test_colour_is_never_the_only_cue_for_a_choice() -> None:
    model = placing_model()
    lines = estate_lines(model.state, 0, NAMES, _marks(model))
    cells = [seg for line in lines for seg in line if seg.target is not None]
    assert [(seg.text, seg.style) for seg in cells] == [(">B3  <", Style.CURSOR),
                                                         ("[B3  ]", Style.LEGAL)]


def _marks(model: Model) -> dict:
    from p2p_burgundy.cli.tui.render import marks_for

    return marks_for(model.menu())


def test_board_for_three_players_shows_depots_black_depot_and_order() -> None:
    lines = board_lines(started(3), ["Ann", "Bea", "Cy"], my_seat=1)
    assert [text(line).rstrip() for line in lines] == [
        "Phase A round 1/5 | to come: 2 3 2 6",
        "1: Chu   Shp   Kn1         (5)",
        "2: Kn22  Cas   Wrh",
        "3: Ck3   Twr   Shp",
        "4: Shp   Bnk   Sh3",
        "5: Min   Kn21  Twr",
        "6: Mkt   Pg2   Cas",
        "Black: Crp   Min   Min   Mkt",
        "       Ck3   Bnk",
        "> 1. P3 Cy           0 VP  s1 w1",
        "  2. P1 Ann          0 VP  s1 w2",
        "  3. P2 Bea       *  0 VP  s1 w3",
    ]


def test_supplies_show_storage_goods_money_dice_bonus_and_knowledge() -> None:
    lines = supplies_lines(started(2), 0)
    assert [text(line).rstrip() for line in lines] == [
        "Storage: 1 ---   2 ---   3 ---",
        "Goods:  5x1   6x2   sold 0",
        "Silver 1  Workers 1  VP 0",
        "Dice:  1   2   Bonus tiles: none",
        "Knowledge: none",
    ]


def test_score_page_has_every_category_total_and_tie_break() -> None:
    lines = [text(line) for line in score_lines(first_legal_game(2), NAMES)]
    assert lines == [
        "Final scores",
        "",
        "                 P1 Ann P2 Bea",
        "animals               8      0",
        "region                7     13",
        "phase bonus          14     16",
        "colour bonus          0      0",
        "sales                 2     10",
        "watchtower            4      4",
        "knowledge            16      8",
        "goods left            5      0",
        "silver left           3      0",
        "workers left          1      0",
        "total                60     51",
        "empty spaces         21     22",
        "",
        "P1 Ann wins with 60 VP (decided by score).",
        "Ranking: 1. P1 Ann 60  2. P2 Bea 51",
    ]


def test_scores_of_a_stopped_game_say_why_before_who_was_ahead() -> None:
    # The player who ended the game wins whatever the points say: the page must not
    # crown the points leader first.
    lines = [text(line) for line in score_lines(
        started(2), NAMES, "Ann, the only player left, ended it and wins")]
    assert lines[0] == "Scores when the game stopped (Ann, the only player left, ended it and wins)"
    assert lines[-3:] == [
        "The game stopped early: Ann, the only player left, ended it and wins.",
        "On points, P2 Bea was ahead with 0 VP (decided by later in turn order).",
        "Ranking: 1. P2 Bea 0  2. P1 Ann 0",
    ]
    assert not any("leads" in line or "wins with" in line for line in lines)


def test_score_screen_replaces_the_board_at_the_end() -> None:
    table = FixedTable(first_legal_game(2), NAMES, 0)
    model = Model(table)
    model.refresh()
    lines = screen_text(model)
    assert lines[0].startswith(" Game over | P1 Ann wins with 60 VP | P1 Ann: 60 VP")
    assert lines[1] == "Final scores"
    assert "P1 Ann wins with 60 VP (decided by score)." in lines


def test_too_small_terminal_gets_only_a_message() -> None:
    table = FixedTable(started(2), NAMES, 0)
    model = Model(table)
    model.refresh()
    lines = screen_text(model, 60, 20)
    assert lines[:3] == ["Terminal too small: 60x20.", "Needs at least 80x24; enlarge it.",
                         "q quits."]
    assert text(too_small_lines(10, 3)[0]) == "Terminal ~"


def test_bigger_terminal_shows_the_log_in_its_own_column() -> None:
    lines = screen_text(placing_model(), 132, 30)
    assert lines[1].endswith("Log (PgUp/PgDn)")
    assert len(lines) == 30


def test_log_wraps_marks_our_last_turn_and_scrolls() -> None:
    history = [HistoryEntry(0, "Ann took workers with a 5 (+2 workers)."),
               HistoryEntry(1, "Bea took workers with a 3 (+2 workers)."),
               HistoryEntry(1, "hi", EntryKind.CHAT)]
    lines = [text(line) for line in log_lines(history, NAMES, 30, 10, mark=1)]
    assert lines == ["Log (PgUp/PgDn)", "P1 Ann took workers with a 5", "  (+2 workers).",
                     "-- since your last turn ------", "P2 Bea took workers with a 3",
                     "  (+2 workers).", "<P2 Bea> hi"]
    scrolled = [text(line) for line in log_lines(history, NAMES, 30, 3, scroll=2, mark=1)]
    assert scrolled == ["Log (2 lines up; PgDn: newer)", "-- since your last turn ------",
                        "P2 Bea took workers with a 3"]


def test_control_characters_in_names_never_reach_the_screen() -> None:
    canvas = Canvas(20, 1)
    canvas.put(0, 0, [Seg("Ann\x1b[2J\x07")])
    assert canvas.text() == ["Ann?[2J?            "]


def test_clicks_map_to_the_choice_they_show() -> None:
    model = placing_model()
    canvas = render(model, compute_layout(80, 24), footer_keys(model))
    assert canvas.target_at(6, 22) == 1  # the [B3] on row 5
    assert canvas.target_at(16, 5) == 1  # the second line of the choices
    assert canvas.target_at(0, 0) is None


def test_status_line_says_who_we_wait_for() -> None:
    table = FixedTable(started(2), NAMES, 1)
    model = Model(table)
    model.refresh()
    assert text(status_line(model, 80)).startswith(
        " A 1/5 | waiting for Ann's turn | dice 3 5 | silver 1 | workers 2 | 0 VP")


def test_status_line_keeps_a_long_wait_whole_and_drops_the_dice_first() -> None:
    class SilentTable(FixedTable):
        def waiting_for(self) -> str | None:
            return "waiting for the dice from Robo (not heard from)"

    model = Model(SilentTable(started(2), NAMES, 1))
    model.refresh()
    assert text(status_line(model, 80)) == (
        " A 1/5 | waiting for the dice from Robo (not heard from) | s1 w2 | 0 VP   ? help")


@pytest.mark.slow
def test_every_frame_of_a_random_game_fits_without_a_cut() -> None:
    """A whole game against random bots, our seat choosing at random by keys (moving the
    cursor through long lists too): every frame at 80x24 and 120x40 is drawn whole, with no
    cut mark anywhere (names are shortened by their one rule instead)."""
    from p2p_burgundy.cli.tui.table import LocalTable

    _every_frame_fits(LocalTable.new("Tess Longname", bots=3, seed=8, strategy="random"))


@pytest.mark.slow
def test_every_frame_of_a_random_solo_game_fits_without_a_cut() -> None:
    """The same for the solo game with every module: its round of 25, counter and target,
    white die and its own steps."""
    from p2p_burgundy import Edition, GameConfig, Module
    from p2p_burgundy.cli.tui.table import LocalTable

    config = GameConfig(1, Edition.E2019, modules=tuple(Module))
    _every_frame_fits(LocalTable.solo("Tess Longname", config, seed=8))


def _every_frame_fits(table: object) -> None:
    import random

    from p2p_burgundy.cli.tui.app import dispatch

    rng = random.Random(5)
    model = Model(table)  # type: ignore[arg-type]
    sizes = [compute_layout(80, 24), compute_layout(120, 40)]
    frames = 0
    for _ in range(5000):
        if table.poll():  # type: ignore[attr-defined]
            model.refresh()
        for layout in sizes:
            canvas = render(model, layout, footer_keys(model))
            rows = canvas.text()
            assert all(len(row) == layout.width for row in rows)
            assert not [row for row in rows if "~" in row], "\n".join(rows)
            frames += 1
        if model.game_over:
            break
        options = model.options()
        key = rng.choice(["KEY_DOWN", "KEY_DOWN", "KEY_UP", "v", *(o.key for o in options)]) \
            if options else "e"
        command = dispatch(model, key)
        if command is not None:
            table.submit_turn(list(command.actions))  # type: ignore[attr-defined, union-attr]
            model.turn_sent()
    assert model.game_over and frames > 500
    for layout in sizes:
        assert "Final scores" in render(model, layout, footer_keys(model)).text()[1]


def test_a_long_list_of_choices_scrolls_with_marks() -> None:
    from p2p_burgundy import TakeWorkers

    options = [Option(str(i), f"choice {i}", TakeWorkers(), short="+2 wkr") for i in range(9)]
    lines = [text(line) for line in menu_lines(MenuView("Which?", options, 0), None, 6, 30)]
    assert [line.rstrip() for line in lines] == [
        "Which?", ">0 choice 0  +2 wkr", " 1 choice 1  +2 wkr", " 2 choice 2  +2 wkr",
        " 3 choice 3  +2 wkr", " 4 choice 4  +2 wkr          v"]
    lines = [text(line) for line in menu_lines(MenuView("Which?", options, 5), None, 6, 30)]
    assert [line[:2] + line[-1] for line in lines[1:]] == [" 3^", " 4 ", ">5 ", " 6 ", " 7v"]
    lines = [text(line) for line in menu_lines(MenuView("Which?", options, 8), None, 6, 30)]
    assert [line[:2] + line[-1] for line in lines[1:]] == [" 4^", " 5 ", " 6 ", " 7 ", ">8 "]


def test_from_120x40_the_other_estates_stand_beside_yours() -> None:
    table = FixedTable(started(3), ["Ann", "Bea", "Cy Longername"], 0)
    model = Model(table)
    model.refresh()
    lines = screen_text(model, 120, 40)
    assert lines[1][84:] == "P2 Bea: 0 VP  silver 1  workers 3"
    assert lines[2:9] == [line[:84] + f for line, f in zip(lines[2:9], (
        "       A6   C5   C4   K3", "     A2   A1   C6   K5   B4",
        "  A5   A4   B3   K1   B2   B3", "S6   S1   S2   Cas  S5   S4   S1",
        "  B2   B5   M4   B3   B1   A2", "     B6   M1   K2   B5   B6",
        "       M3   K4   K1   B3"), strict=True)]
    assert lines[9][84:] == "Storage empty" and lines[10][84:] == "Goods 2x1 4x1 6x1  sold 0"
    assert lines[12][84:] == "P3 Cy Longer.: 0 VP  s1 w1"
    assert lines[14][43:] == "Log (PgUp/PgDn)".ljust(41) + "     A2   A1   C6   K5   B4"


def test_a_hint_marks_what_it_picks_and_says_why_before_enter() -> None:
    from p2p_burgundy.cli.strategies import make
    from p2p_burgundy.cli.tui.hint import suggest

    model = placing_model()
    assert model.draft is not None
    hint = suggest(model.draft.state, make("greedy", 0))
    model.show_hint(hint, model.draft.state)
    lines = screen_text(model)
    # What it picks is marked: the space, the tile in storage and the depot's tile.
    assert lines[4] == "    A5    A4   >B3  < K1    B2    B3       3: Sh2   Wrh               (5)"
    assert lines[6] == "    B2    B5    M4    B3    B1    A2       5:>Min < Kn20"
    assert lines[9] == "Storage: 1>Chu < 2 ---   3 ---"
    assert "[" not in "".join(lines[2:10])  # and nothing else
    assert [line[:43].rstrip() for line in lines[14:19]] == [
        "Hint (marked): Enter does it, Esc: back", "press p place a tile on your estate",
        "then  1 Chu (church) (storage 1)", "then  1 B3 (row 3, 3)",
        "then  3 depot 5: Min (mine)"]
    assert [line[43:] for line in lines[14:22]] == [
        "Why: it completes your beige region:",
        "  +11 VP now, with the phase bonus;",
        "  takes Min (mine) to place later: at",
        "  the end of every phase each mine on",
        "  your estate pays 1 silverling.",
        "At once: -1 worker; +11 VP for",
        "  region, phase bonus.",
        "Bot's estimate by the end: +12 VP"]


def test_the_hint_level_marks_every_choice_the_cursor_only_or_nothing() -> None:
    from p2p_burgundy.cli.tui.app import dispatch
    from p2p_burgundy.cli.tui.model import ChangeSettings, HintLevel, Settings

    model = placing_model()
    assert screen_text(model)[4:7] == [  # all: both spaces on offer, the cursor's first
        "    A5    A4   >B3  < K1    B2    B3       3: Sh2   Wrh               (5)",
        " S6    S1    S2    Cas   S5    S4    S1    4: Shp   Twr",
        "    B2    B5    M4   [B3  ] B1    A2       5: Min   Kn20"]
    dispatch(model, "O")  # the settings page
    assert screen_text(model)[3:5] == ["h  Hints:    all  targets  none",
                                       "   every choice's target marked on the board; H asks "
                                       "the bot"]
    assert dispatch(model, "h") == ChangeSettings(Settings(HintLevel.TARGETS))
    assert screen_text(model)[4] == "   only the target of the choice under the cursor marked"
    dispatch(model, "^[")
    lines = screen_text(model)
    assert lines[4].startswith("    A5    A4   >B3  < K1") and "[" not in lines[6]
    dispatch(model, "O")
    dispatch(model, "h")
    dispatch(model, "O")  # O closes it too
    assert model.hint_level == HintLevel.NONE and model.overlay is None
    lines = screen_text(model)
    assert lines[4].startswith("    A5    A4    B3    K1") and "[" not in lines[6]
    assert lines[15].startswith(">1 B3 (row 3, 3)")  # the choices are still listed
    assert model.ask_hint() is None
    assert model.message == "Hints are off in your settings (O changes them)."


def test_the_status_line_shows_every_clock_and_whom_the_table_waits_for_uncut() -> None:
    from p2p_burgundy.cli.tui.render import status_line
    from p2p_burgundy.cli.tui.table import Clocks

    class ClockedTable(FixedTable):
        clocks = Clocks((2700.0, 1.2, 59.0, 0.0), (1,))

        def waiting_for(self) -> str | None:
            return "waiting for Bartholomew's turn (not heard from)"

    names = ["Annabelle", "Bartholomew", "Cy", "Dorothea"]
    for my_seat in (0, None):  # a player, and a spectator (whose figures need a name)
        model = Model(ClockedTable(started(4), names, my_seat))
        model.refresh()
        lines = {width: text(status_line(model, width)) for width in (80, 132)}
        for width, line in lines.items():
            assert len(line) == width and "~" not in line, line
            assert "| P1 45:00 >P2 0:02 P3 0:59 P4 0:00 |" in line, line
        assert "| waiting for P2 |" in lines[80]  # the seat's tag where the sentence is long
        assert "waiting for Bartholomew's turn (not heard from) |" in lines[132]
