"""``burgundy learn``: the guided first game, followed by its own instructions in a real
terminal (pyte), left half-way and resumed; and its data checked against the rules."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from p2p_burgundy import EndTurn
from p2p_burgundy.cli.tui.app import footer_keys
from p2p_burgundy.cli.tui.layout import compute_layout
from p2p_burgundy.cli.tui.learn import AFTER, LESSON, Lesson, first_start
from p2p_burgundy.cli.tui.model import Model
from p2p_burgundy.cli.tui.render import render

if sys.platform == "win32":
    pytest.skip("needs a POSIX pty", allow_module_level=True)
pytest.importorskip("pyte", reason="pyte is in the test extras: pip install -e '.[test]'")

from .pty_terminal import PtyTerminal, burgundy

TOTAL = sum(len(turn) for turn in LESSON) + len(AFTER)


def _pressed(term: PtyTerminal, number: int) -> list[str]:
    """The keys the lesson pane asks for at step ``number``."""
    screen = term.wait_for(f"Lesson {number} of {TOTAL}")
    assert screen
    line = next(line[43:] for line in term.screen.display if line[43:].startswith("Press: "))
    return line.removeprefix("Press: ").split()


def _follow(term: PtyTerminal, number: int) -> None:
    """Do step ``number`` one key at a time, each the first the ``Press:`` line shows: the
    line follows every key, inside a choice of several keys too."""
    keys = _pressed(term, number)
    while True:
        term.press(keys[0])
        if len(keys) == 1:
            return
        shown = keys
        assert term.wait_until(lambda: _press_line(term) != shown  # noqa: B023 (waited on here)
                               or "not this one" in term.text), term.text
        assert _press_line(term) == keys[1:], term.text
        keys = keys[1:]


def _press_line(term: PtyTerminal) -> list[str]:
    line = next((line[43:] for line in term.screen.display if line[43:].startswith("Press: ")),
                "")
    return line.removeprefix("Press: ").split()


def test_the_guided_game_from_start_to_end_by_its_own_instructions(tmp_path: Path) -> None:
    args = ("learn", "--name", "Tess", "--bot-delay", "0")
    with burgundy(tmp_path, *args) as term:
        for number in range(1, 7):
            _follow(term, number)
        term.wait_for(f"Lesson 7 of {TOTAL}: a ship")
        term.press("1", "q")  # a stray choice, then leave half-way
        assert term.wait_exit() == 0
    with burgundy(tmp_path, *args) as term:  # goes on where it was left
        term.wait_for(f"Lesson 7 of {TOTAL}: a ship")
        term.press("2")  # the wrong die: the lesson says so
        term.wait_for(f"Lesson 7 of {TOTAL}: not this one")
        term.press("u")
        for number in range(7, 17):
            _follow(term, number)
        term.wait_for(f"Lesson 17 of {TOTAL}: the scores")
        assert "Phase B round 1/5" in term.text
        term.press("S")
        term.wait_for("Scores now (phase B, round 1")
        term.press("S")
        term.wait_for(f"Lesson 18 of {TOTAL}: the other tiles")
        term.press("i")
        term.wait_for("Tile guide 1/")
        term.press("esc")
        term.wait_for(f"Lesson {TOTAL} of {TOTAL}: on your own")
        term.press("q")
        assert term.wait_exit() == 0


def test_the_first_start_offers_the_lesson_and_a_click_starts_it(tmp_path: Path) -> None:
    with burgundy(tmp_path, "play", "--name", "Tess", "--interface", "127.0.0.1",
                  "--no-mdns") as term:
        term.wait_for("New here? l starts a guided first game against a bot")
        row = next(i for i, line in enumerate(term.screen.display) if "  l  learn" in line)
        at = f"{chr(32 + 10)}{chr(32 + row + 1)}"  # a click on the row, as an xterm sends it
        term.press(f"\x1b[M{chr(32)}{at}\x1b[M{chr(35)}{at}")
        term.wait_for(f"Lesson 1 of {TOTAL}: dice and workers")
        term.press("q")
        assert term.wait_exit() == 0


def test_the_lesson_is_offered_until_a_game_is_played_networked_or_local(tmp_path: Path) -> None:
    assert first_start(tmp_path)
    (tmp_path / "local").mkdir()
    (tmp_path / "local" / "00ff.local").write_bytes(b"")
    assert not first_start(tmp_path)
    (tmp_path / "local" / "00ff.local").unlink()
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "00ff.game").write_bytes(b"")
    assert not first_start(tmp_path)


def test_every_step_fits_its_pane_at_80x24_and_the_lesson_is_a_legal_game() -> None:
    lesson = Lesson(None)
    table = lesson.table("Tess Longname")
    model = Model(table, lesson)
    layout = compute_layout(80, 24)
    seen = []
    while lesson.turns < len(LESSON):
        if table.poll():
            model.refresh()
        assert model.draft is not None
        for step in LESSON[lesson.turns]:
            text = model.lesson_text()
            seen.append(text[0])
            rows = render(model, layout, footer_keys(model)).text()
            log = layout.log
            pane = [row[log.x:].rstrip() for row in rows[log.y:log.y + log.height]]
            assert pane[0] == text[0] and pane[1].startswith("Press: ")
            assert " ".join(" ".join(pane[2:]).split()) == text[2], pane  # nothing cut
            for action in step.actions:
                if isinstance(action, EndTurn):
                    command = model.end_turn()
                    table.submit_turn(list(command.actions))  # type: ignore[union-attr]
                    model.turn_sent()
                else:
                    model.draft.apply(action)
    assert seen == [f"Lesson {n} of {TOTAL}: {s.title}" for n, s in
                    enumerate((s for t in LESSON for s in t), 1)]
    table.poll()
    assert table.state.phase == 1 and table.state.to_move == 0


def test_the_lessons_words_hold_on_their_own_deal() -> None:
    """What the steps say happens (the goods a ship leaves, the VP the pigs score, what a
    sale pays) is what their actions do on the lesson's deal."""
    from p2p_burgundy import apply

    lesson = Lesson(None)
    table = lesson.table("Tess")
    effects = []
    for turn in LESSON:
        table.poll()
        state = table.state
        for step in turn:
            after = state
            for action in step.actions:
                after = apply(after, action)
            effects.append((step, state, after))
            state = after
        table.submit_turn([a for step in turn for a in step.actions])
    by_title = {step.title: (before, after) for step, before, after in effects}

    before, after = by_title["a ship"]
    assert "You hold three goods types at most: with 1, 3, 6 held, depot 1's 2 stays, its 1 " \
        "joins yours." in LESSON[2][0].why
    held = [g for g in range(1, 7) if before.players[0].goods[g]]
    assert held == [1, 3, 6] and before.depot_goods[1][1:3] == (1, 1)
    assert after.depot_goods[1][2] == 1 and after.depot_goods[1][1] == 0  # the 2 stays
    assert after.players[0].goods[1] == before.players[0].goods[1] + 1
    assert after.track[0][0] > before.track[0][0]  # up the turn order

    before, after = by_title["placing an animal"]
    assert "The 4 pigs score 4 VP at once" in LESSON[4][1].why
    assert after.players[0].vp - before.players[0].vp == 4

    before, after = by_title["selling goods"]
    assert "your two turquoise goods" in LESSON[3][0].why
    assert before.players[0].goods[1] == 2 and after.players[0].goods[1] == 0
    assert after.players[0].silver == before.players[0].silver + 1


def test_progress_that_cannot_be_kept_shows_on_the_status_line(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("a file where the data folder goes\n")
    lesson = Lesson(tmp_path / "data" / "learn.json")
    table = lesson.table("Tess")
    model = Model(table, lesson)
    table.poll()
    model.refresh()
    table.submit_turn([a for step in LESSON[0] for a in step.actions])
    assert lesson.turns == 1 and table.not_saved == "File exists"  # mkdir of the folder
    table.poll()
    model.refresh()
    screen = render(model, compute_layout(80, 24), footer_keys(model)).text()
    assert screen[0].startswith(" NOT SAVED ")
