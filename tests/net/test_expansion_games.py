"""Networked games with the 2019 expansions: four peers with every module on a border-post
duchy play to the end over the in-process harness, and the game file audits clean."""

from __future__ import annotations

import io

import pytest

from p2p_burgundy import Edition, GameConfig, Module
from p2p_burgundy.chance import SetupDraw
from p2p_burgundy.cli.verify import write_report
from p2p_burgundy.net.audit import audit
from p2p_burgundy.net.inmemory import Table
from p2p_burgundy.rules import CHOOSE
from p2p_burgundy.shields import shields_text


@pytest.mark.slow
def test_four_peers_finish_a_game_with_every_module_on_duchy_11a_and_it_verifies():
    config = GameConfig(4, Edition.E2019, estates=("11a",) * 4, modules=tuple(Module))
    assert config.start_spaces == (CHOOSE,) * 4  # 11a prints no start castle
    table = Table(4, seed=18, config=config)
    table.play()
    report = audit(table.files[0])
    assert report.ok, report
    assert report.config == config
    assert len(report.chance) == 1 + 5 + 25
    # the shields' placement is one of the set-up's draws, and the report says it
    setup = report.chance[0].drew
    assert isinstance(setup, SetupDraw) and [len(on) for on in setup.shields] == [2] * 6
    out = io.StringIO()
    write_report(report, "game", out)
    assert f"  shields on the depots: {shields_text(setup.shields)}\n" in out.getvalue()
    # so is the trade route deal: 3 cards each with 4 players, as the players hold them
    finished = report.steps[-1].state
    assert setup.routes == finished.routes and [len(r) for r in setup.routes] == [3] * 4
    dealt = "; ".join(f"{name} {' '.join(map(str, cards))}"
                      for name, cards in zip([p.name for p in report.players], setup.routes,
                                             strict=True))
    assert f"  trade route cards dealt: {dealt}\n" in out.getvalue()
