"""A table's rules: what its host chooses beyond the game, signed with the game's config.

They are not rules of the game: the engine never reads them, and ``burgundy verify`` judges a
game the same under any. They travel in the config tree every player signs (docs/protocol.md,
START: its hints and clock fields, which the engine's config tree keeps for the table,
:data:`~p2p_burgundy.config.TABLE_DEFAULTS`), so that everyone at the table sees and accepts
them with the rest: whether players may ask a bot what it would do (``hints``), and the game
clock (``clock``, net/clock.py).

>>> from p2p_burgundy import GameConfig
>>> tree = table_tree(GameConfig(players=2), TableRules(hints=True, clock=TimeControl(900, 10)))
>>> tree
[2, '2011', ['1', '1'], [18, 18], 'standard', [], [], True, 50, [900, 10]]
>>> read_table_tree(tree)
(GameConfig(players=2, edition=Edition.E2011, estates=('1', '1'), start_spaces=(18, 18)), \
TableRules(hints=True, clock=TimeControl(seconds=900, increment=10)))
>>> table_tree(GameConfig(players=2), DEFAULT_RULES)  # a table without them: as it always was
[2, '2011', ['1', '1'], [18, 18]]
>>> read_table_tree([2, "2011", ["1", "1"], [18, 18], "standard", [], [], "yes"])
Traceback (most recent call last):
...
p2p_burgundy.errors.ConfigError: hints must be true or false, not 'yes'
"""

from __future__ import annotations

from dataclasses import dataclass

from p2p_burgundy import GameConfig
from p2p_burgundy.errors import ConfigError

from .clock import TimeControl


@dataclass(frozen=True, slots=True)
class TableRules:
    """A table's rules (see the module's docstring): ConfigError if one is not of its type."""

    hints: bool = False
    """Whether players may ask a bot what it would do."""
    clock: TimeControl | None = None
    """The table's game clock, if it has one."""

    def __post_init__(self) -> None:
        if type(self.hints) is not bool:
            raise ConfigError(f"hints must be true or false, not {self.hints!r}")
        if not (self.clock is None or isinstance(self.clock, TimeControl)):
            raise ConfigError(f"the clock must be a TimeControl or None, not {self.clock!r}")

    def fields(self) -> tuple[object, object]:
        """The config tree's two fields for these rules: hints, and the clock as ``[seconds,
        increment]`` (``[]``: none)."""
        clock = [] if self.clock is None else [self.clock.seconds, self.clock.increment]
        return self.hints, clock

    @classmethod
    def from_fields(cls, hints: object, clock: object) -> TableRules:
        """Inverse of :meth:`fields`; ConfigError on anything malformed."""
        if type(hints) is not bool:
            raise ConfigError(f"hints must be true or false, not {hints!r}")
        if not (isinstance(clock, list | tuple) and len(clock) in (0, 2)):
            raise ConfigError(f"the clock must be [seconds, increment], not {clock!r}")
        return cls(hints, TimeControl(*clock) if clock else None)


DEFAULT_RULES = TableRules()
"""A table's rules where its host chose none: no hints, no clock."""


def table_tree(config: GameConfig, rules: TableRules) -> list[object]:
    """The config tree a table signs: ``config``'s, with ``rules`` in the table's fields."""
    return config.to_tree(rules.fields())


def read_table_tree(tree: object) -> tuple[GameConfig, TableRules]:
    """Inverse of :func:`table_tree`; ConfigError on anything malformed."""
    config, fields = GameConfig.split_tree(tree)
    return config, TableRules.from_fields(*fields)
