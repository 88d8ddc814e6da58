"""What an announcement must look like to be listed: anyone on the LAN can announce anything,
and the list prints its name, key and edition to a terminal (and the known hosts file keeps
the name and key)."""

from __future__ import annotations

import socket

import pytest
from zeroconf.asyncio import AsyncServiceInfo

from p2p_burgundy.net.discovery import SERVICE_TYPE, TableInfo, parse_info
from p2p_burgundy.net.wire import PROTOCOL_VERSION

FP = "6r9h-etv0-q9se-9prt"
GOOD = {"v": str(PROTOCOL_VERSION), "game": "5e1f0c2a" * 4, "fp": FP, "seats": "1/3",
        "ed": "2019", "name": "Anna"}


def announced(**changes: str) -> TableInfo | None:
    info = AsyncServiceInfo(SERVICE_TYPE, f"Anna {FP} 5e1f0c2a.{SERVICE_TYPE}",
                            addresses=[socket.inet_aton("10.0.0.9")], port=4000,
                            properties={**GOOD, **changes})
    return parse_info(info)


def test_a_table_of_its_form_is_listed_as_announced() -> None:
    assert announced() == TableInfo(f"Anna {FP} 5e1f0c2a.{SERVICE_TYPE}", "Anna", FP,
                                    bytes.fromhex("5e1f0c2a" * 4), 1, 3, "2019",
                                    ("10.0.0.9", 4000))


@pytest.mark.parametrize("changes", [
    {"name": "Anna\x1b]0;owned\x07"},  # a terminal's escape sequence
    {"name": "Anna\nbbbb-bbbb-bbbb-bbbb Bo"},  # a second line in the known hosts file
    {"name": "A" * 33},
    {"name": ""},
    {"fp": FP + "\n"},
    {"fp": "not-a-fingerprint"},
    {"ed": "2011\x1b[2J"},
    {"ed": "1999"},
    {"seats": "5/3"},
    {"seats": "0/9"},
    {"v": str(PROTOCOL_VERSION + 1)},
])
def test_a_table_announcing_what_no_table_would_is_not_listed(changes: dict[str, str]) -> None:
    assert announced(**changes) is None
