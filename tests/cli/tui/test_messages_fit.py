"""Every sentence the client puts on the message line fits 80 columns whole, with the
longest names: read from the source, each message the model, the app or the lobby sets and
each notice a local table sends, its ``{...}`` parts filled in at their widest; and so does
every line of the help pages and the tile guide."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator

import pytest

from p2p_burgundy.cli.tui import app, lobbymodel, model, netcommand, render, table
from p2p_burgundy.cli.tui.texts import NAME_WIDTH, guide, help_for
from p2p_burgundy.net.start import MAX_NAME

WIDTH = 80
NAME = "N" * NAME_WIDTH  # the widest name a fixed place shows (short_name)
WIDEST = {
    "' and '.join(unused)": "6 and 6", "key": "KEY_BACKSPACE",
    "KEY_NAMES.get(key, key)": "KEY_BACKSPACE", "exc.strerror or exc": "No space left on device",
    "self.web.url": "http://[ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]:65535/",
    "target": "N" * MAX_NAME, "port": "65535",
}
"""The widest text of each ``{...}`` part (a name: :data:`NAME` through ``short_name``,
else as long as a name may be)."""
OPEN = ("exc", "event.text", "event.reason", "type(exc).__name__", "table.ended",
        "self.since_last_turn()")
"""Parts that are sentences of their own (a rule's refusal, a chat line, what the others
did): their makers keep them short, and they are left out here."""


def messages() -> Iterator[tuple[str, str]]:
    """(where, text) of every message: a ``.message = ...`` or a ``Notice(...)``."""
    for module in (model, app, table, lobbymodel, netcommand):
        tree = ast.parse(inspect.getsource(module))
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Attribute) and t.attr == "message" for t in node.targets):
                values = [node.value]
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Notice":
                values = list(node.args)
            else:
                continue
            for value in values:
                for text in _texts(value):
                    if text is not None:
                        yield f"{module.__name__}:{node.lineno}", text


def _texts(node: ast.expr) -> Iterator[str | None]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.JoinedStr):
        parts = []
        for part in node.values:
            if isinstance(part, ast.FormattedValue):
                source = ast.unparse(part.value)
                if source in OPEN:
                    yield None
                    return
                name = NAME if "short_name" in source else "N" * MAX_NAME
                parts.append(WIDEST.get(source, name if "name" in source else "99"))
            else:
                parts.append(str(ast.literal_eval(part)))
        yield "".join(parts)
    elif isinstance(node, ast.IfExp):
        yield from _texts(node.body)
        yield from _texts(node.orelse)
    elif isinstance(node, ast.BoolOp):
        for value in node.values:
            yield from _texts(value)
    elif isinstance(node, ast.BinOp):  # "Your turn. " + a sentence of its own
        yield None
    else:
        yield None


def test_the_messages_are_found() -> None:
    found = [text for _, text in messages()]
    assert "Nothing to undo: it is not your turn." in found
    assert f"Showing {'N' * MAX_NAME}'s estate." in found
    assert f"You agreed: a bot plays {NAME}'s seat once every other player agrees." in found
    assert "Not saved: No space left on device. It is tried again at each step." in found
    assert len(found) > 25


@pytest.mark.parametrize(("where", "text"), list(messages()))
def test_every_message_fits_80_columns(where: str, text: str) -> None:
    assert len(text) <= WIDTH, f"{where}: {len(text)} columns: {text}"


@pytest.mark.parametrize("context", ["play", "wait", "replay", "scores"])
def test_every_help_page_line_fits_80_columns(context: str) -> None:
    lines = help_for(context)
    assert len(lines) > 10
    assert [line for line in lines if len(line) > WIDTH] == []


def test_every_page_of_the_tile_guide_fits_80_columns_whole() -> None:
    pages = [[render.text(line) for line in render.info_lines(index)]
             for index in range(len(guide()))]
    assert len(pages) > 20
    assert [line for page in pages for line in page if len(line) > WIDTH or "~" in line] == []
