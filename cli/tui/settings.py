"""The player's settings of the terminal client: how much the board helps (the hint level)
and the tiles' colours (the palette). Changed in the game (``O``), remembered in the data
folder (``settings.json``), so the next game starts with them.

An environment variable still decides for the run it is set in: ``BURGUNDY_HINTS`` (all,
targets, none) and ``BURGUNDY_PALETTE`` (standard, colour-blind, high-contrast) win over the
saved settings, and ``NO_COLOR`` still means no colour at all, whatever the palette.

>>> saved = Settings.from_json(b'{"hints": "targets", "palette": "colour-blind"}')
>>> saved
Settings(hints=<HintLevel.TARGETS: 'targets'>, palette='colour-blind')
>>> with_environment(saved, {"BURGUNDY_PALETTE": "high-contrast"}).palette
'high-contrast'
>>> Settings.from_json(b'{"hints": "lots", "palette": 7}') == Settings()  # unknown: default
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path

from .. import files

SETTINGS_FILE = "settings.json"
"""The settings' file in the data folder."""
MAX_SETTINGS_FILE = 64 * 1024
HINTS_VARIABLE = "BURGUNDY_HINTS"
PALETTE_VARIABLE = "BURGUNDY_PALETTE"
PALETTES = ("standard", "colour-blind", "high-contrast")
"""The palettes of the tiles' colours (:data:`~.app.TILE_COLOURS` holds their colours)."""


class HintLevel(Enum):
    """How much the board helps (a setting, as "possible moves" elsewhere): every choice's
    target marked and ``H`` on offer; only the target of the choice under the cursor; or
    nothing marked and no ``H``."""

    ALL = "all"
    TARGETS = "targets"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class Settings:
    """How much the board helps, and the palette of the tiles' colours."""

    hints: HintLevel = HintLevel.ALL
    palette: str = PALETTES[0]

    def to_json(self) -> bytes:
        return json.dumps({"hints": self.hints.value, "palette": self.palette},
                          indent=1).encode() + b"\n"

    @classmethod
    def from_json(cls, data: bytes) -> Settings:
        """The settings ``data`` holds; any setting missing, unknown or damaged keeps its
        default (a settings file never stops a game)."""
        try:
            tree = json.loads(data)
        except (ValueError, RecursionError):
            return cls()
        if not isinstance(tree, dict):
            return cls()
        return with_environment(cls(), {HINTS_VARIABLE: tree.get("hints"),
                                        PALETTE_VARIABLE: tree.get("palette")})

    def next_hints(self) -> Settings:
        """The next hint level: all, targets, none, all..."""
        levels = list(HintLevel)
        return replace(self, hints=levels[(levels.index(self.hints) + 1) % len(levels)])

    def next_palette(self) -> Settings:
        """The next palette, in :data:`PALETTES` order."""
        return replace(self, palette=PALETTES[(PALETTES.index(self.palette) + 1)
                                              % len(PALETTES)])


def with_environment(settings: Settings, env: Mapping[str, object]) -> Settings:
    """``settings`` with what ``BURGUNDY_HINTS`` and ``BURGUNDY_PALETTE`` name in ``env``
    instead (a value that names nothing is ignored)."""
    levels = {level.value: level for level in HintLevel}
    hints, palette = env.get(HINTS_VARIABLE), env.get(PALETTE_VARIABLE)
    return Settings(levels[hints] if isinstance(hints, str) and hints in levels
                    else settings.hints,
                    palette if isinstance(palette, str) and palette in PALETTES
                    else settings.palette)


def load(folder: Path) -> Settings:
    """The settings saved in the data ``folder`` (none, or a file that cannot be read: the
    defaults)."""
    try:
        return Settings.from_json(files.read_input(folder / SETTINGS_FILE,
                                                   limit=MAX_SETTINGS_FILE))
    except OSError:
        return Settings()


def save(folder: Path, settings: Settings) -> str | None:
    """Keep ``settings`` in the data ``folder``; the reason if the disk refuses (the
    settings still hold for this game)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        files.write_atomically(folder / SETTINGS_FILE, settings.to_json())
    except OSError as exc:
        return exc.strerror or str(exc)
    return None
