"""Fixtures the client's tests share."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2p_burgundy.cli.netplay import NetTable
from p2p_burgundy.config import Setup

from .netgames import ExpertsGame, bot_game


@pytest.fixture(scope="session")
def experts_game(tmp_path_factory: pytest.TempPathFactory) -> ExpertsGame:
    """Whole network games with the experts' set-ups (Ann against one bot peer), each played
    once for all the tests that replay or audit it (they only read it)."""
    played: dict[Setup, tuple[NetTable, Path]] = {}

    def game(setup: Setup) -> tuple[NetTable, Path]:
        if setup not in played:
            home = tmp_path_factory.mktemp(setup.name.lower())
            played[setup] = bot_game(home, bots=1, setup=setup)
        return played[setup]

    return game
