"""A replay steps by round (``]`` and ``[``) and jumps (``g``) to a step number, a phase or a
phase and round, as typed."""

from __future__ import annotations

from p2p_burgundy.cli.lan import compose_turn
from p2p_burgundy.cli.strategies import make
from p2p_burgundy.cli.tui.app import App, Palette, dispatch, footer_keys
from p2p_burgundy.cli.tui.layout import compute_layout
from p2p_burgundy.cli.tui.model import Context, Model, StepReplay
from p2p_burgundy.cli.tui.render import render
from p2p_burgundy.cli.tui.table import LocalTable, ReplayTable


class _Screen:
    def getmaxyx(self) -> tuple[int, int]:
        return 24, 80


def replay_into_phase_b() -> ReplayTable:
    """A game against a bot, played by bots into phase B, round 3, as a replay."""
    live = LocalTable.new("Ann", seed=3)
    me = make("greedy", 1)
    while (live.state.phase, live.state.round) < (1, 1):
        live.poll()
        if live.state.to_move == 0:
            live.submit_turn(compose_turn(live.state, me))
    live.poll()
    return live.replay()


def test_rounds_and_jumps() -> None:
    replay = replay_into_phase_b()
    replay.step(-10**6)
    starts, positions = [], []
    for _ in range(8):
        replay.step_round(1)
        starts.append((replay.state.phase, replay.state.round))
        positions.append(replay.position[0])
    # The first step of each round, in order, then no further than the last round's start.
    assert starts == [(0, 1), (0, 2), (0, 3), (0, 4), (1, 0), (1, 1), (1, 2), (1, 2)]
    assert replay.position[0] < replay.position[1]
    at = replay.position[0]
    replay.step(3)
    replay.step_round(-1)  # back: the start of this round first
    assert replay.position[0] == at
    replay.step_round(-2)
    assert (replay.state.phase, replay.state.round) == (1, 0)
    first_b = replay.step_of(1)
    assert first_b == replay.position[0] and replay.step_of(1, 0) == first_b
    assert replay.step_of(1, 4) is None and replay.step_of(4) is None
    assert replay.step_of(0, 2) == positions[1]


def test_keys_step_by_round_and_go_where_typed() -> None:
    replay = replay_into_phase_b()
    model = Model(replay)
    model.refresh()
    app = App(_Screen(), Palette({}), replay, model)  # type: ignore[arg-type]
    assert dispatch(model, "]") == StepReplay(1, rounds=True)
    assert dispatch(model, "[") == StepReplay(-1, rounds=True)
    assert ("]", "round") in footer_keys(model) and ("g", "go to") in footer_keys(model)
    dispatch(model, "g")
    assert model.context() == Context.CHAT
    for key in "b1":
        dispatch(model, key)
    screen = render(model, compute_layout(80, 24), footer_keys(model)).text()
    assert screen[22].startswith("Go to: b1_  (a step, a phase A-E, or phase and round: C3)")
    command = dispatch(model, "^J")
    assert command is not None and model.context() == Context.REPLAY
    app.execute(command)
    assert replay.position[0] == replay.step_of(1, 0)
    dispatch(model, "g")
    for key in "12":
        dispatch(model, key)
    app.execute(dispatch(model, "^J"))  # type: ignore[arg-type]
    assert replay.position[0] == 12
    dispatch(model, "g")
    for key in "E2":
        dispatch(model, key)
    assert dispatch(model, "^J") is None
    assert model.message.startswith("'E2' is not a step: type 0-")
    assert replay.position[0] == 12
