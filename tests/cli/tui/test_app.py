"""The keymap and key dispatch (no terminal needed)."""

from __future__ import annotations

import inspect
import itertools
import signal

import pytest

from p2p_burgundy.cli.tui.app import KEYMAP, dispatch, footer_keys, key_name, terminating_signals
from p2p_burgundy.cli.tui.model import Context, Model, Overlay, Quit, SendChat
from p2p_burgundy.cli.tui.texts import RULE_REMINDERS, help_for

from .helpers import FixedTable, first_legal_game, started

NAMES = ["Ann", "Bea"]


def model_at(seat: int = 0, networked: bool = False) -> Model:
    table = FixedTable(started(2), NAMES, seat)
    table.networked = networked
    model = Model(table)
    model.refresh()
    return model


@pytest.mark.parametrize("context", list(Context))
def test_every_key_names_a_model_handler_with_the_right_arguments(context: Context) -> None:
    for key, ((name, *args), _label) in KEYMAP[context].items():
        if name in ("show", "answer"):
            continue
        method = getattr(Model, name, None)
        assert callable(method), f"{context}: {key} -> {name} is not a Model method"
        params = list(inspect.signature(method).parameters)[1:]
        required = [p for p in params
                    if inspect.signature(method).parameters[p].default is inspect._empty]
        assert len(required) <= len(args) <= len(params), f"{key} -> {name}{tuple(args)}"


def test_every_context_can_be_left() -> None:
    for context in Context:
        handlers = {entry[0][0] for entry in KEYMAP[context].values()}
        assert handlers & {"quit", "close_overlay", "chat_cancel", "answer", "toggle_scores",
                           "toggle_chart"}, context


def test_terminal_quirks_become_one_key_name() -> None:
    assert [key_name(k) for k in ("\r", "\n", "\x7f", "\x08", "\x1b", "é")] == [
        "^J", "^J", "^?", "^?", "^[", "é"]


def test_choice_keys_come_first_in_the_footer() -> None:
    model = model_at()
    assert footer_keys(model)[:3] == [("1 2", "choose"), ("Esc", "back"), ("u", "undo")]
    model.hotkey("1")
    model.hotkey("t")
    assert footer_keys(model)[0] == ("1-6", "choose")


def test_chat_never_steals_game_keys_and_game_keys_never_reach_chat() -> None:
    model = model_at()
    dispatch(model, "c")
    for key in "q1e":
        assert dispatch(model, key) is None
    assert dispatch(model, "^J") == SendChat("q1e")
    assert model.draft.actions == []
    assert dispatch(model, "q") == Quit()


def test_escape_closes_pages_and_questions() -> None:
    model = model_at()
    dispatch(model, "?")
    assert model.context() == Context.HELP
    dispatch(model, "^[")
    dispatch(model, "R")
    assert model.context() == Context.CONFIRM
    dispatch(model, "x")  # any other key repeats the question
    assert model.message.startswith("Resign?")
    dispatch(model, "^[")
    assert model.context() == Context.PLAY and model.message == "Cancelled."


def test_unknown_keys_say_so_instead_of_doing_something() -> None:
    model = model_at(seat=1)
    dispatch(model, "z")
    assert model.message == "z does nothing here; ? shows the keys."


def test_quitting_a_networked_game_asks_first() -> None:
    model = model_at(networked=True)
    assert dispatch(model, "q") is None
    assert dispatch(model, "y") == Quit()


def test_views_of_the_other_players_are_one_key_away() -> None:
    model = model_at()
    dispatch(model, "v")
    assert model.view_seat == 1
    dispatch(model, "KEY_F(1)")
    assert model.view_seat == 0


def test_help_fits_the_page_of_each_screen() -> None:
    for context in ("play", "wait", "replay", "scores"):
        assert all(len(line) <= 80 for line in help_for(context))


def test_every_rule_reminder_is_one_line_at_80_columns() -> None:
    assert all(len("Rule: " + line) <= 80 for line in RULE_REMINDERS.values())


def test_help_names_the_decision_its_rule_and_the_keys_valid_now() -> None:
    from p2p_burgundy.cli.tui.layout import compute_layout
    from p2p_burgundy.cli.tui.render import render
    from p2p_burgundy.cli.tui.table import LocalTable

    table = FixedTable(started(2), NAMES, 0)
    model = Model(table)
    model.refresh()
    topics = [model.help_topic()]
    for key in "1t12p1":
        dispatch(model, key)
        topics.append(model.help_topic())
    assert topics == ["turn", "die", "take", "turn", "die", "place", "place"]
    dispatch(model, "?")
    keys = footer_keys(model, model.base_context())
    screen = render(model, compute_layout(80, 24), footer_keys(model), keys).text()
    assert [line.rstrip() for line in screen[3:5]] == [
        "Now: Place Chu (church) on which space?",
        "Rule: A free space of its colour, next to your tiles, with the die's number."]
    assert screen[5].startswith("Keys: 1 2 choose, Esc back, u undo, H hint, S scores, ? help")
    live = LocalTable.new("Ann", seed=3)
    live.poll()
    replay = Model(live.replay())
    replay.refresh()
    dispatch(replay, "?")
    screen = render(replay, compute_layout(80, 24), footer_keys(replay),
                    footer_keys(replay, replay.base_context())).text()
    assert screen[4].startswith("Rule: " + RULE_REMINDERS["replay"])
    assert screen[5].startswith("Keys: . step, , back")


def test_scores_any_time_by_category_and_if_the_game_ended_now() -> None:
    from p2p_burgundy.cli.tui.layout import compute_layout
    from p2p_burgundy.cli.tui.render import render

    table = FixedTable(started(2), NAMES, 0)
    model = Model(table)
    model.refresh()
    dispatch(model, "S")
    assert model.context() == Context.STANDINGS
    assert dispatch(model, "1") is None and model.path == []  # choices do not reach the game
    screen = [line.rstrip() for line in render(model, compute_layout(80, 24),
                                               footer_keys(model)).text()]
    assert screen[1:17] == [
        "Scores now (phase A, round 1; S or Esc: back)", "",
        "                   P1 Ann P2 Bea",
        "animals                 0      0", "region                  0      0",
        "phase bonus             0      0", "colour bonus            0      0",
        "sales                   0      0", "watchtower              0      0",
        "VP now                  0      0", "", "If the game ended now:",
        "+ knowledge             0      0", "+ goods left            3      3",
        "+ silver left           1      1", "+ workers left          0      1"]
    assert screen[17] == "= at the end            4      5"
    dispatch(model, "^[")
    assert model.overlay is None and model.context() == Context.PLAY


def test_the_race_round_by_round_at_the_end_and_in_replays() -> None:
    from p2p_burgundy.cli.strategies import make
    from p2p_burgundy.cli.tui.layout import compute_layout
    from p2p_burgundy.cli.tui.model import Submit
    from p2p_burgundy.cli.tui.render import render
    from p2p_burgundy.cli.tui.table import LocalTable

    table = LocalTable.new("Ann", bots=1, seed=3)
    model = Model(table)
    bot = make("greedy", 1)
    while not model.game_over:
        if table.poll():
            model.refresh()
        command = model.autoplay(bot.choose)
        if isinstance(command, Submit):
            table.submit_turn(list(command.actions))
            model.turn_sent()
    model.refresh()
    rounds = table.round_scores
    assert len(rounds) == 25 and rounds[-1] == tuple(p.vp for p in table.state.players)
    assert all(a <= b for earlier, later in itertools.pairwise(rounds)
               for a, b in zip(earlier, later, strict=True))  # nobody ever loses points
    dispatch(model, "G")
    assert model.context() == Context.CHART
    screen = render(model, compute_layout(80, 24), footer_keys(model)).text()
    assert screen[1].startswith("VP round by round")
    assert screen[2].startswith("o P1 Ann  x P2 Bot 1")
    points = "".join(screen[3:19])
    assert points.count("o") + points.count("x") + 2 * points.count("#") == 50
    assert screen[20].split() == ["A", "B", "C", "D", "E"]
    dispatch(model, "G")
    assert model.overlay == Overlay.SCORES  # back to the final scores
    tall = render(model, compute_layout(80, 50), footer_keys(model)).text()
    assert any(line.startswith("VP round by round") for line in tall)  # room for both
    replay = table.replay()
    assert replay.round_scores == rounds
    replay.step(-60)
    watching = Model(replay)
    watching.refresh()
    assert replay.round_scores == rounds[:len(replay.round_scores)] and \
        0 < len(replay.round_scores) < 25
    dispatch(watching, "G")
    assert watching.context() == Context.CHART


def test_scores_screen_toggles_with_the_board() -> None:
    model = Model(FixedTable(first_legal_game(2), NAMES, 0))
    model.refresh()
    dispatch(model, "s")
    assert model.overlay is None and model.context() == Context.SCORES
    dispatch(model, "s")
    assert model.overlay == Overlay.SCORES


class _Screen:
    """Just enough of a curses window for App's constructor."""

    def getmaxyx(self) -> tuple[int, int]:
        return 24, 80


def test_a_failing_table_call_becomes_a_message_not_a_crash(tmp_path, monkeypatch) -> None:
    from p2p_burgundy.cli.tui.app import App, Palette
    from p2p_burgundy.cli.tui.model import Submit

    class Flaky(FixedTable):
        def submit_turn(self, actions: list) -> None:
            raise ConnectionError("peer gone")

    table = Flaky(started(2), NAMES, 0)
    model = Model(table)
    model.refresh()
    app = App(_Screen(), Palette({}), table, model)  # type: ignore[arg-type]
    assert app.execute(Submit(())) is False
    assert model.message.startswith("That did not go through (ConnectionError: peer gone)")
    assert app.execute(Quit()) is True


def test_replays_step_with_keys_and_show_where_they_are() -> None:
    from p2p_burgundy.cli.tui.app import App, Palette
    from p2p_burgundy.cli.tui.layout import compute_layout
    from p2p_burgundy.cli.tui.model import StepReplay
    from p2p_burgundy.cli.tui.render import render
    from p2p_burgundy.cli.tui.table import LocalTable

    live = LocalTable.new("Ann", seed=3)
    live.poll()
    replay = live.replay()
    model = Model(replay)
    model.refresh()
    assert model.context() == Context.REPLAY and model.draft is None
    assert dispatch(model, ",") == StepReplay(-1)
    assert dispatch(model, "<") == StepReplay(-1, turns=True)
    app = App(_Screen(), Palette({}), replay, model)  # type: ignore[arg-type]
    app.execute(StepReplay(-1, turns=True))  # back to the start of Bot 1's turn
    screen = render(model, compute_layout(80, 24), footer_keys(model)).text()
    assert screen[14].startswith("replay: step 3 of 8. Steps: . and , one")
    app.execute(StepReplay(2))  # its die and its first action: the tile taken is marked
    assert model.changes == {("depot", 4, 1), ("storage", 1, 0)}
    screen = render(model, compute_layout(80, 24), footer_keys(model)).text()
    assert screen[5][43:].rstrip() == "4: Shp  *---"
    assert footer_keys(model)[:4] == [(".", "step"), (",", "back"), (">", "turn"),
                                      ("<", "turn back")]


def test_a_resigned_game_shows_the_standings_and_why() -> None:
    from p2p_burgundy.cli.tui.layout import compute_layout
    from p2p_burgundy.cli.tui.render import render

    table = FixedTable(started(2), NAMES, 0)
    table.resign()
    model = Model(table)
    model.refresh()
    screen = render(model, compute_layout(80, 24), footer_keys(model)).text()
    assert screen[1].startswith("Scores when the game stopped (resigned)")
    assert model.context() == Context.SCORES


def test_the_terminal_is_restored_on_sigterm_and_sighup_and_windows_has_no_sighup(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert terminating_signals() == (signal.SIGTERM, signal.SIGHUP)
    monkeypatch.delattr(signal, "SIGHUP")
    assert terminating_signals() == (signal.SIGTERM,)
