"""A table's rules (hints, the game clock) travel in the signed config, byte for byte where
they always did, and come back as the table's, not the game's."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2p_burgundy import Edition, GameConfig
from p2p_burgundy.errors import ConfigError
from p2p_burgundy.net import wire
from p2p_burgundy.net.audit import audit_file
from p2p_burgundy.net.clock import TimeControl
from p2p_burgundy.net.identity import Identity
from p2p_burgundy.net.lobby import HostLobby, JoinLobby
from p2p_burgundy.net.log import Kind, parse_entry, read_records
from p2p_burgundy.net.report import TurnReport
from p2p_burgundy.net.start import parse_start
from p2p_burgundy.net.tablerules import DEFAULT_RULES, TableRules, read_table_tree, table_tree
from tests.net.test_lobby import HOST, exchange

OLD_GAME = Path(__file__).parents[1] / "data" / "hints-clock.game"
RULES = TableRules(hints=True, clock=TimeControl(900, 10))


def test_the_rules_go_in_the_config_tree_s_hints_and_clock_fields_and_come_back():
    tree = table_tree(GameConfig(2), RULES)
    assert tree == [2, "2011", ["1", "1"], [18, 18], "standard", [], [], True, 50, [900, 10]]
    assert read_table_tree(tree) == (GameConfig(2), RULES)
    hints = table_tree(GameConfig(2), TableRules(hints=True))
    assert hints == [2, "2011", ["1", "1"], [18, 18], "standard", [], [], True]
    assert read_table_tree(hints) == (GameConfig(2), TableRules(hints=True))
    assert table_tree(GameConfig(2), DEFAULT_RULES) == [2, "2011", ["1", "1"], [18, 18]]
    teams = GameConfig(4, Edition.E2019, teams=((0, 2), (1, 3)))
    tree = table_tree(teams, TableRules(clock=TimeControl(60)))
    assert tree[7:] == [False, 50, [60, 0], [[0, 2], [1, 3]]]
    assert read_table_tree(wire.value(tree)) == (teams, TableRules(clock=TimeControl(60)))


@pytest.mark.parametrize(("tree", "phrase"), [
    ([2, "2019", [], [], "standard", ["inns"], [], True, 50, 7], "clock must be .seconds"),
    ([2, "2019", [], [], "standard", ["inns"], [], True, 50, [60]], "clock must be .seconds"),
    ([2, "2019", [], [], "standard", ["inns"], [], True, 50, [0, 5]], "1 to 86400 seconds"),
    ([2, "2019", [], [], "standard", ["inns"], [], True, 50, [60, True]], "0 to 86400"),
    ([2, "2019", [], [], "standard", ["inns"], [], True, 50, [60, 0.5]], "0 to 86400"),
    ([2, "2019", [], [], "standard", ["inns"], [], 7], "hints must be true or false, not 7"),
    ([2, "2019", [], [], "standard", ["inns"], [], True, 50, []], "leaving it out"),
    ([2, "2019", [], [], "standard", ["inns"], [], False], "leaving it out"),
])
def test_a_bad_rule_is_refused_with_the_reason(tree, phrase):
    with pytest.raises(ConfigError, match=phrase):
        read_table_tree(tree)


def test_rules_of_the_wrong_type_are_refused():
    with pytest.raises(ConfigError, match="hints must be true or false, not 1"):
        TableRules(hints=1)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="the clock must be a TimeControl or None, not 600"):
        TableRules(clock=600)  # type: ignore[arg-type]


def test_a_game_file_of_a_table_with_hints_and_a_clock_checks_as_it_did():
    """Written when the engine's config held the table's rules: the START signed the same
    config bytes, so its game id, acceptances and every entry (8 turns in) still check."""
    data = OLD_GAME.read_bytes()
    entries = [parse_entry(raw) for raw in read_records(data)[0]]
    start = parse_start(next(entry for entry in entries if entry.kind == Kind.START))
    assert (start.config, start.rules) == (GameConfig(2), RULES)
    assert start.game_id.hex() == "1cdb10cc9bc7e0b36b3504cb42ee1e98"
    assert start.entry.payload[1] == wire.value(table_tree(start.config, start.rules))
    report = audit_file(data)
    assert not report.problems and not report.complete and report.rules == RULES
    assert report.to_json()["config"] == [2, "2011", ["1", "1"], [18, 18], "standard", [],
                                             [], True, 50, [900, 10]]
    assert sum(isinstance(step, TurnReport) for step in report.steps) == 8


def _table(rules: TableRules) -> tuple[HostLobby, JoinLobby]:
    host = HostLobby(Identity.from_private_bytes(bytes([1]) * 32), b"g" * 16,
                     GameConfig(players=2), "Hana", "red", contribution=b"h" * 16, rules=rules)
    guest = JoinLobby(Identity.from_private_bytes(bytes([2]) * 32), HOST, "Gus", "blue",
                      nonce=bytes(16), contribution=b"j" * 16)
    exchange(host, guest)
    guest.set_me("Gus", "blue", True)
    exchange(host, guest)
    return host, guest


def test_a_joiner_learns_the_host_s_rules_and_both_sign_them_in_the_start():
    host, guest = _table(RULES)
    assert (guest.config, guest.rules) == (GameConfig(2), RULES)
    host.start()
    exchange(host, guest)
    assert host.started is not None and guest.started is not None
    assert host.started.entry == guest.started.entry and guest.started.rules == RULES


def test_a_joiner_refuses_a_start_under_other_rules_than_the_table_showed():
    host, guest = _table(RULES)
    host.rules = TableRules(hints=True)  # the clock gone once everyone is ready
    host.start()
    exchange(host, guest)
    assert guest.refused == "the host proposed a game we did not agree to"
    assert guest.started is None
