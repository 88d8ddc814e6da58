"""The view model: choices from the legal actions, the turn draft with undo, questions."""

from __future__ import annotations

import random

import pytest

from p2p_burgundy import (
    END_TURN,
    Action,
    EndTurn,
    GameState,
    PlaceTile,
    TakeTile,
    TakeWorkers,
    UseDie,
    apply,
    legal_actions,
)
from p2p_burgundy.cli.strategies import make
from p2p_burgundy.cli.tui.menu import Option, build_menu
from p2p_burgundy.cli.tui.model import Ask, Context, Model, Overlay, Quit, Resign, SendChat, Submit
from p2p_burgundy.cli.tui.table import LocalTable
from p2p_burgundy.cli.tui.texts import guide
from p2p_burgundy.state import Step

from .helpers import FixedTable, play, resolve, started

NAMES = ["Ann", "Bea"]


def my_turn(seat: int = 0) -> tuple[FixedTable, Model]:
    table = FixedTable(started(2), NAMES, seat)
    model = Model(table)
    table.poll()
    model.refresh()
    return table, model


def keys(model: Model, sequence: str) -> object:
    result = None
    for key in sequence:
        result = model.hotkey(key)
    return result


def test_die_then_action_then_target_builds_the_actions() -> None:
    _, model = my_turn()
    assert [o.label for o in model.options()] == ["use die 1: a 1", "use die 2: a 2"]
    keys(model, "1")
    assert [o.key for o in model.options()] == ["t", "s", "w"]
    keys(model, "t")
    assert model.menu().prompt == "Take which tile?"
    keys(model, "1")
    keys(model, "2p1")
    assert model.menu().prompt == "Place Chu (church) on which space?"
    keys(model, "1")
    assert model.draft.actions == [UseDie(0), TakeTile(1, 0), UseDie(1), PlaceTile(0, 11)]
    assert model.menu().prompt.startswith("Church:")  # the church's advantage comes next


def test_worker_cost_and_gain_are_shown_before_committing() -> None:
    _, model = my_turn()
    keys(model, "1t12p1")
    notes = [(o.label, o.note) for o in model.options()]
    assert notes == [("B3 (row 3, 3)", "-1 worker; +11 VP for region, phase bonus"),
                     ("B3 (row 5, 4)", "-1 worker")]
    assert model.draft.state.players[0].workers == 1  # nothing paid yet


def test_undo_takes_back_one_action_at_a_time_and_restores_the_state() -> None:
    table, model = my_turn()
    before = model.state
    keys(model, "1w")
    assert model.state.players[0].workers == 3
    model.undo()
    assert model.draft.actions == [UseDie(0)]
    model.undo()
    assert model.draft.actions == [] and model.state is before
    model.undo()
    assert model.message == "Nothing to undo yet this turn."
    assert table.submitted == []


def test_escape_goes_up_one_level_then_gives_the_die_back() -> None:
    _, model = my_turn()
    keys(model, "1t")
    model.back()
    assert [o.key for o in model.options()] == ["t", "s", "w"]
    assert model.cursor == 0
    model.back()
    assert model.draft.actions == [] and model.message == "Die given back."


def test_end_turn_needs_both_dice_then_sends_the_whole_turn() -> None:
    _, model = my_turn()
    assert keys(model, "e") is None
    assert model.message.startswith("Use your 1 and 2 first")
    command = keys(model, "1w2we")
    assert command == Submit((UseDie(0), TakeWorkers(), UseDie(1), TakeWorkers(), END_TURN))


def test_arrows_and_enter_choose_like_keys() -> None:
    _, model = my_turn()
    model.cursor_down()
    model.cursor_down()  # stays on the last choice
    model.select()
    assert model.draft.actions == [UseDie(1)]
    model.cursor_up()
    assert model.selected().key == "t"


def test_a_click_chooses_the_option_it_shows() -> None:
    _, model = my_turn()
    model.click(1)
    assert model.draft.actions == [UseDie(1)]
    assert model.click(99) is None


def walk(state: GameState, seed: int) -> list[GameState]:
    """States along a random game (a few turns), for the offered-choices property."""
    rng = random.Random(seed)
    states = []
    for _ in range(120):
        if state.is_over:
            break
        states.append(state)
        state = resolve(apply(state, rng.choice(legal_actions(state))))
    return states


def leaves(options: list[Option]) -> list[Action]:
    return [a for o in options for a in o.leaves()]


@pytest.mark.parametrize("seed", range(4))
def test_exactly_the_legal_actions_are_offered(seed: int) -> None:
    for state in walk(started(2 + seed % 3), seed):
        _, options = build_menu(state)
        offered = leaves(options)
        assert sorted(map(repr, offered)) == sorted(map(repr, legal_actions(state)))
        for level in [options, *(o.children for o in options if o.children)]:
            assert len({o.key for o in level}) == len(level), "hotkeys must be unique"


def test_not_our_turn_means_no_draft_and_no_choices() -> None:
    _, model = my_turn(seat=1)
    assert model.draft is None and model.menu() is None
    assert model.context() == Context.WAIT
    model.undo()
    assert model.message == "Nothing to undo: it is not your turn."


def test_a_submitted_turn_drops_the_draft_and_marks_the_log() -> None:
    table, model = my_turn()
    command = keys(model, "1w2we")
    assert isinstance(command, Submit)
    table.submit_turn(list(command.actions))
    model.turn_sent()
    table.poll()
    model.refresh()
    assert model.draft is None and model.mark == len(table.history)


def test_resign_and_quit_ask_first_when_it_matters() -> None:
    table, model = my_turn()
    model.ask_resign()
    assert model.context() == Context.CONFIRM and model.confirm.ask == Ask.RESIGN
    assert model.answer(False) is None and model.confirm is None
    model.ask_resign()
    assert model.answer(True) == Resign()
    assert model.quit() == Quit()  # a local game: no question
    table.networked = True
    assert model.quit() is None and model.confirm.ask == Ask.QUIT
    assert model.answer(True) == Quit()


def test_chat_line_takes_every_key_until_enter() -> None:
    _, model = my_turn()
    model.start_chat()
    assert model.context() == Context.CHAT
    for ch in "q1e":
        model.chat_key(ch)
    model.chat_backspace()
    assert model.chat_send() == SendChat("q1")
    assert model.context() == Context.PLAY and model.draft.actions == []


def test_tile_guide_opens_on_the_highlighted_tile() -> None:
    _, model = my_turn()
    keys(model, "1t")
    model.cursor_down()  # depot 1: Shp (ship)
    model.show(Overlay.INFO)
    assert guide()[model.info_index][1].title == "Ship (Shp, blue)"
    model.info_move(-1)
    assert guide()[model.info_index][1].title.startswith("Chicken")
    model.show(Overlay.INFO)
    assert model.overlay is None


def test_since_last_turn_names_what_the_others_did() -> None:
    table = FixedTable(started(3), ["Ann", "Bea", "Cy Longername"], 0)
    model = Model(table)
    assert model.since_last_turn() == ""  # before our first turn ends
    model.turn_sent()
    assert model.since_last_turn() == "Meanwhile Bea +0 VP; Cy Longer. +0 VP."
    # Cy takes the watchtower from depot 3 with the 3 and builds it with the 2.
    table.state = play(table.state, UseDie(0), TakeTile(3, 1), UseDie(1), PlaceTile(0, 11),
                       END_TURN)
    assert model.since_last_turn() == ("Meanwhile Bea +0 VP; Cy Longer. took Twr, placed Twr "
                                       "(+15 VP).")
    assert model.since_last_turn(58) == "Meanwhile Bea +0 VP; Cy Longer. took 1, placed 1 (+15 VP)."
    assert model.since_last_turn(40) == "Meanwhile Bea +0 VP; Cy Longer. +15 VP."


def test_what_the_others_changed_is_marked_until_we_choose() -> None:
    from p2p_burgundy.cli.tui.app import footer_keys
    from p2p_burgundy.cli.tui.layout import compute_layout
    from p2p_burgundy.cli.tui.render import render

    table = FixedTable(started(3), ["Ann", "Bea", "Cy"], 1)
    model = Model(table)
    model.refresh()
    model.turn_sent()  # as if Bea had just played
    table.state = play(table.state, UseDie(0), TakeTile(3, 1), UseDie(1), PlaceTile(0, 11),
                       END_TURN)  # Cy builds a watchtower
    table.state = play(table.state, UseDie(0), TakeWorkers(), UseDie(1), TakeWorkers(),
                       END_TURN)  # Ann takes workers twice
    model.refresh()
    assert model.draft is not None
    assert model.changes == {("space", 2, 11), ("depot", 3, 1)}
    assert model.message == "Your turn. Meanwhile Ann took workers (+0 VP); Cy took Twr, " \
        "placed Twr (+15 VP)."
    assert footer_keys(model)[:2] == [("1 2", "choose"), ("M", "meanwhile")]  # just relevant
    footer = render(model, compute_layout(80, 24), footer_keys(model)).text()[-1]
    assert footer.startswith(" 1 2 choose  M meanwhile  Esc back ")
    wide = render(model, compute_layout(120, 40), footer_keys(model)).text()
    assert wide[4][43:].startswith("3: Ck3  *---   Shp")
    cy = wide.index(next(line for line in wide if line[84:].startswith("P3 Cy: 15 VP")))
    assert "Twr *" in wide[cy + 3]
    model.next_view()  # looking around keeps the marks
    model.hotkey("1")  # choosing clears them
    assert model.changes == frozenset()
    assert footer_keys(model)[-1] == ("M", "meanwhile")  # back in its place
    screen = "".join(render(model, compute_layout(120, 40), footer_keys(model)).text())
    assert "*---" not in screen and "Twr *" not in screen


def test_m_steps_through_each_action_of_the_others_on_their_estates() -> None:
    from p2p_burgundy.cli.tui.app import dispatch, footer_keys
    from p2p_burgundy.cli.tui.layout import compute_layout
    from p2p_burgundy.cli.tui.render import render
    from p2p_burgundy.cli.tui.table import EntryKind

    table = LocalTable.new("Ann", bots=2, seed=3)
    model = Model(table)
    table.poll()
    model.refresh()
    for key in "1w2w":  # workers with both dice
        dispatch(model, key)
    submit = dispatch(model, "e")
    assert isinstance(submit, Submit)
    table.submit_turn(submit.actions)
    model.turn_sent()
    mark = model.mark
    while table.state.to_move != 0:  # both bots play
        table.poll()
    model.refresh()
    # Each frame is one action of a bot, with the log's sentence for it (the end of a turn
    # carries what it set off), so together they are the log since our turn, chance aside.
    said = [e.text for e in table.history[mark:] if e.kind != EntryKind.CHANCE]
    dispatch(model, "M")
    assert model.context() == Context.CATCH_UP
    frames = model.catching
    assert " ".join(f.text for f in frames) == " ".join(said)
    assert [f.seat for f in frames] == [1] * 3 + [2] * 5
    assert frames[0].text == "Bot 1 took Twr (watchtower) from depot 3 with a 4 (-1 worker)."
    assert frames[0].changes == {("storage", 1, 0), ("depot", 3, 1)}
    assert frames[4].text == "Bot 2's warehouse sold 3 x goods 2 (violet) (+1 silverling; " \
        "+9 VP for sales)."
    assert frames[4].changes == {("goods", 2, 0)}
    assert model.view_seat == 1 and model.state is frames[0].state
    assert model.message == "P2 Bot 1: action 1 of 8 since your turn."
    screen = render(model, compute_layout(80, 24), footer_keys(model)).text()
    assert screen[1].startswith("P2 Bot 1's estate")
    assert screen[4].startswith("    A5    A4    B3    K1")  # B3 still empty
    assert screen[9].startswith("Storage*: 1 Twr")
    assert screen[14].startswith("Since your last turn: 1 of 8")
    assert screen[15].startswith("> Bot 1 took Twr (watchtower) from depot 3")
    assert screen[23].startswith(" M next  Left previous  Esc back")
    dispatch(model, "KEY_LEFT")  # no further back than the first
    assert model.catch_index == 0
    for index in range(1, 8):
        dispatch(model, "M")
        assert model.catch_index == index and model.view_seat == frames[index].seat
    assert model.state is frames[-1].state  # the last: the game as it stands
    dispatch(model, "M")  # past the last: back to our turn, on our estate
    assert model.context() == Context.PLAY and model.view_seat == 0
    assert model.state is model.draft.state  # type: ignore[union-attr]
    dispatch(model, "M")
    dispatch(model, "^[")
    assert model.overlay is None and model.catching == []


def test_m_before_anyone_else_played_says_so() -> None:
    table = FixedTable(started(2), ["Ann", "Bea"], 0)
    model = Model(table)
    model.catch_up()
    assert model.overlay is None
    assert model.message == "Nothing to catch up on: nobody else has played since your last " \
        "turn."


def test_a_hint_shows_the_bots_choices_as_keys_and_enter_makes_them() -> None:
    from p2p_burgundy.cli.tui.hint import suggest
    from p2p_burgundy.cli.tui.model import AskHint

    table = LocalTable.new("Ann", bots=1, seed=3)
    table.poll()
    model = Model(table)
    model.refresh()
    command = model.ask_hint()
    assert isinstance(command, AskHint) and command.state is model.draft.state
    hint = suggest(command.state, make("mcts", seed=0, iterations=40))
    model.show_hint(hint, command.state)
    assert model.context() == Context.HINT
    assert hint.steps == (("1", "use die 1: a 3"), ("t", "take a tile from a depot"),
                          ("8", "depot 5: Min (mine)"))
    model.follow_hint()
    assert model.draft.actions == list(hint.actions) and model.overlay is None
    assert model.draft.state.step == Step.TURN  # the die action is complete


def test_the_hint_comes_from_the_strongest_search() -> None:
    # the search whose strength docs/performance.md measures (not mcts-2026), on a fixed
    # budget so that the same position always gets the same hint
    from p2p_burgundy.cli.strategies.mcts import DEFAULT_PARAMS, MctsStrategy
    from p2p_burgundy.cli.tui.hint import HINT_ITERATIONS, bot

    hinter = bot(1)
    assert type(hinter) is MctsStrategy and hinter.params == DEFAULT_PARAMS
    assert hinter.iterations == HINT_ITERATIONS == 100


def test_hints_are_off_where_the_table_does_not_allow_them() -> None:
    _, model = my_turn()  # a table with other people at it, as far as the model knows
    assert model.ask_hint() is None and model.message == "Hints are off at this table."
    waiting = Model(FixedTable(started(2), NAMES, 1))
    waiting.refresh()
    assert waiting.ask_hint() is None and waiting.message == "Hints are for your own turn."


def test_autoplay_plays_a_legal_whole_turn() -> None:
    table, model = my_turn()
    command = model.autoplay(lambda state, actions: actions[-1])
    assert isinstance(command, Submit) and isinstance(command.actions[-1], EndTurn)
    table.submit_turn(list(command.actions))  # the table accepts it


def test_the_game_end_opens_the_score_page_once() -> None:
    from .helpers import first_legal_game

    model = Model(FixedTable(first_legal_game(2), NAMES, 0))
    model.refresh()
    assert model.overlay == Overlay.SCORES and model.context() == Context.SCORES
    model.toggle_scores()
    model.refresh()
    assert model.overlay is None
