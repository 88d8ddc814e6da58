"""``--no-mouse``: every command that runs the terminal client takes it, the same way."""

from __future__ import annotations

import pytest

from p2p_burgundy.cli.main import parse


@pytest.mark.parametrize("argv", [["play"], ["host"], ["join"], ["solo"], ["learn"],
                                  ["replay", "game.bin"]])
def test_every_client_command_takes_no_mouse(argv):
    assert parse([*argv, "--no-mouse"]).no_mouse is True
    assert parse(argv).no_mouse is False
