"""`burgundy host` takes the same table options as `sim` and `bot --host`."""

import pytest

from p2p_burgundy.cli.main import main, parse
from p2p_burgundy.config import Setup


def test_host_accepts_an_estate_or_an_experts_set_up() -> None:
    assert parse(["host", "--players", "3", "--estate", "5"]).estate == "5"
    assert parse(["host", "--setup", "experts-secret"]).setup is Setup.EXPERTS_SECRET


def test_host_refuses_an_estate_with_the_experts_set_up(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    assert main(["host", "--estate", "5", "--setup", "experts-open"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err
