"""A networked game keeps our turn under way beside the game file: opened again (``play
--resume``), the client shows the turn as it was left; nothing of it was sent."""

from __future__ import annotations

from pathlib import Path

from p2p_burgundy.cli.netplay import NetTable, PeerThread
from p2p_burgundy.cli.tui.model import Model

from .netgames import wait_until
from .test_netplay import threads, two_players  # noqa: F401 (threads: the fixture)


def test_a_turn_left_half_done_is_kept_beside_the_game_file_and_comes_back(
        tmp_path: Path, threads: list[PeerThread]) -> None:  # noqa: F811 (the fixture)
    hana, jo = two_players(tmp_path, threads)

    def to_move() -> list[NetTable]:
        for table in (hana, jo):
            table.poll()
        return [t for t in (hana, jo) if t.snapshot.my_turn and t.state.to_move == t.my_seat]

    wait_until(hana.thread, lambda: bool(to_move()), 20, "someone's first turn")
    [mover] = to_move()
    model = Model(mover)
    model.refresh()
    assert model.draft is not None and mover.kept_draft == ()
    model.hotkey("1")  # die 1 ...
    model.hotkey("w")  # ... takes workers: half the turn, nothing sent
    chosen = list(model.draft.actions)
    assert len(chosen) == 2
    mover.keep_draft(chosen)
    draft_file = mover.game_file.with_suffix(".draft")
    assert draft_file.is_file()
    # The client opened again on the same game (play --resume): the half turn is back.
    again = NetTable(mover.thread)
    again.poll()
    assert again.kept_draft == tuple(chosen)
    resumed = Model(again)
    resumed.refresh()
    assert resumed.draft is not None and resumed.draft.actions == chosen
    draft_file.write_bytes(b"\x93damaged")  # a damaged file: the turn starts afresh
    third = NetTable(mover.thread)
    third.poll()
    fresh = Model(third)
    fresh.refresh()
    assert fresh.draft is not None and fresh.draft.actions == []
    mover.keep_draft([])  # nothing chosen: nothing kept
    assert not draft_file.exists()
