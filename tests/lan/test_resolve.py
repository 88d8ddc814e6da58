"""Joining by host name: the name is resolved once, before the first datagram."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest

from p2p_burgundy.net.errors import AddressError
from p2p_burgundy.net.peer import resolve


def test_a_host_name_resolves_to_the_address_replies_come_from() -> None:
    assert asyncio.run(resolve(("localhost", 47001))) == ("127.0.0.1", 47001)


def test_a_name_that_does_not_resolve_is_an_address_error_naming_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def not_found(self: Any, host: str, *args: Any, **kwargs: Any) -> Any:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    # No real lookup: a failing one would ask the network's name server.
    monkeypatch.setattr(asyncio.BaseEventLoop, "getaddrinfo", not_found)
    with pytest.raises(AddressError, match=r"^cannot find the host nosuchhost\.invalid: "
                                           r"Name or service not known$"):
        asyncio.run(resolve(("nosuchhost.invalid", 4000)))
