"""Networked games with the 2019 expansions: four peers with every module on a border-post
duchy play to the end over the in-process harness, and the game file audits clean."""

from __future__ import annotations

import pytest

from p2p_burgundy import Edition, GameConfig, Module
from p2p_burgundy.net.audit import audit
from p2p_burgundy.rules import CHOOSE
from tests.net.harness import Table


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
