"""Which files outside the engine name each engine module: how far a module reaches into the
network layer and the client (docs/engine.md, "What a module may add", quotes the figures).

A file names a module when it names one of the things the module alone brings, each read from
the registry (:data:`p2p_burgundy.variants.ENGINE_MODULES`): its switch (``Module.SHIELDS``),
its own file (``p2p_burgundy.shields``), its steps (``Step.TRIBUTE``), its tiles
(``Tile.INN``), the fields of its part of the state (``.depot_shields``) and the action types
only its rows take (``TakeShield``); the solo game, the team game and the duchies with border
posts are played by the config's own fields (``.solo``, ``.teams``, ``.border_posts``).

Run from the repository root::

    .venv/bin/python tools/module_reach.py [FOLDER ...]   # default: cli net
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from p2p_burgundy import GameConfig, config, rules, variants
from p2p_burgundy.rules import EngineModule
from p2p_burgundy.state import GameState, PartField
from p2p_burgundy.tiles import Tile

ROOT = Path(__file__).resolve().parent.parent

CONFIG_FIELDS = {"solo": ("solo",), "team": ("teams", "team_game"),
                 "border-posts": ("border_posts",)}
"""The config's fields that say a game plays a module no switch turns on."""


def module_file(module: EngineModule) -> str:
    """The name of the engine file that defines ``module`` (``shields`` for SHIELDS)."""
    return module.plays.__module__.rsplit(".", 1)[-1]


def state_names(module: EngineModule) -> list[str]:
    """The names by which code outside the engine reads the fields of ``module``'s part:
    ``GameState``'s view of a field where it has one (``state.shields`` reads the shields'
    ``held``: each :class:`~p2p_burgundy.state.PartField` says its part and field), else the
    field's own name."""
    part = module.part
    if part is None:
        return []
    views = {view.name: attr for attr, view in vars(GameState).items()
             if isinstance(view, PartField) and view.part == part.name}
    return [views.get(field, field) for field in part.fields]


def words(module: EngineModule) -> re.Pattern[str]:
    """A pattern matching every name of a thing ``module`` alone brings."""
    base = {cls for table in rules._rules(GameConfig(players=2)).apply for cls in table}
    names = [rf"\bModule\.{member.name}\b" for member in config.Module
             if member.value == module.name]
    names.append(rf"\bp2p_burgundy\.{module_file(module)}\b")
    names += [rf"\bStep\.{w.step.name}\b" for w in module.steps]
    names += [rf"\bTile\.{Tile(tile).name}\b" for tile in module.tiles]
    names += [rf"\.{field}\b" for field in state_names(module)]
    names += [rf"\b{cls.__name__}\b" for _, cls, _ in module.handlers if cls not in base]
    names += [rf"\.{field}\b" for field in CONFIG_FIELDS.get(module.name, ())]
    return re.compile("|".join(dict.fromkeys(names)))


def reach(folders: list[str]) -> dict[str, list[str]]:
    """Each module's name and the files under ``folders`` that name it."""
    files = sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py"))
    return {module.name: [str(path.relative_to(ROOT)) for path in files
                          if words(module).search(path.read_text())]
            for module in variants.ENGINE_MODULES}


def main(folders: list[str]) -> None:
    for name, found in reach(folders or ["cli", "net"]).items():
        print(f"{name} ({len(found)}): {' '.join(found)}")


if __name__ == "__main__":
    main(sys.argv[1:])
