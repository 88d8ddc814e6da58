"""The engine modules: one registry says what each adds, and a game binds the rows of those
its config plays."""

from __future__ import annotations

import dataclasses
import inspect
import re

import pytest

from p2p_burgundy import (
    Edition,
    EndTurn,
    GameConfig,
    IllegalAction,
    Module,
    Step,
    TakeFirst,
    apply,
    rules,
    state_hash,
)
from p2p_burgundy.border_posts import BORDER_POSTS
from p2p_burgundy.extra_tiles import EXTRA_TILES
from p2p_burgundy.inns import INNS
from p2p_burgundy.rules import new_game, resolve_chance
from p2p_burgundy.scoring import Category
from p2p_burgundy.shields import SHIELDS
from p2p_burgundy.solo import SOLO
from p2p_burgundy.tiles import Tile
from p2p_burgundy.trade_routes import TRADE_ROUTES
from p2p_burgundy.variants import ENGINE_MODULES, modules_of
from p2p_burgundy.white_castles import WHITE_CASTLES

E2019 = Edition.E2019


def test_the_variant_numbers_the_solo_game_and_each_module() -> None:
    assert GameConfig(players=2).variant == 0
    assert GameConfig(players=1, edition=E2019).variant == 1
    assert GameConfig(players=3, edition=E2019, modules=(Module.SHIELDS,)).variant == 32
    assert GameConfig(players=1, edition=E2019, modules=tuple(Module)).variant == 63
    # The order modules are named in does not change it, nor does equality depend on it.
    assert GameConfig(players=2, edition=E2019, modules=(Module.INNS, Module.EXTRA_TILES)) \
        .variant == 2 + 8
    # A duchy with border posts is the bit above the modules', whoever plays it.
    assert GameConfig(players=2, edition=E2019, estates=("1", "11a")).variant == 64
    assert GameConfig(players=1, edition=E2019, estates=("11e",),
                      modules=tuple(Module)).variant == 127


def test_the_registry_lists_each_module_once() -> None:
    assert len({module.name for module in ENGINE_MODULES}) == len(ENGINE_MODULES)
    assert modules_of(GameConfig(players=1, edition=E2019)) == (SOLO,)
    assert modules_of(GameConfig(players=2, edition=E2019)) == ()
    assert modules_of(GameConfig(players=1, edition=E2019, modules=tuple(Module))) == (
        INNS, EXTRA_TILES, WHITE_CASTLES, TRADE_ROUTES, SOLO, SHIELDS)
    assert modules_of(GameConfig(players=2, edition=E2019, estates=("11b", "1"))) == (
        BORDER_POSTS,)


# What rules.py may not name: a module, or a step, tile or state field only a module has.
_MODULE_WORDS = re.compile(
    r"\bModule\.|Step\.(WHITE_CASTLE|CRANE|EXCHANGE|PAY_GOODS|REWARD|TARGET|TRIBUTE|SHIELD_"
    r"|ORDER|PHASE_END)|Tile\.(INN|WHITE_CASTLE|CRANE|KNOWLEDGE_2[789])|\.(inns|border_ranks"
    r"|routes|route_goods|vp_counter|vp_target|goods_out|depot_shields|shields|shield_box"
    r"|borrowed|die_changed|closing)\b")


def test_the_rules_name_no_module() -> None:
    assert [m.group() for m in _MODULE_WORDS.finditer(inspect.getsource(rules))] == []


def test_the_shields_inns_and_border_posts_modules_say_what_they_add() -> None:
    assert [words.step for words in SHIELDS.steps] == [
        Step.TRIBUTE, Step.SHIELD_TILE, Step.SHIELD_GOODS, Step.PHASE_END]
    assert SHIELDS.categories == ((Category.SHIELDS, "shields"),)
    assert INNS.tiles == (Tile.INN,) and INNS.steps == ()
    assert BORDER_POSTS.tiles == () and BORDER_POSTS.steps == ()


def test_abilities_a_module_gives_seats_are_read_from_its_parts_held() -> None:
    # Shield #18 places anywhere and #4 stores without limit: bits of each seat's shields.
    assert (SHIELDS.anywhere, SHIELDS.unlimited_storage) == (1 << 18, 1 << 4)
    assert rules._rules(GameConfig(2, E2019, modules=(Module.SHIELDS,))).anywhere == (
        "shields", 1 << 18)
    with pytest.raises(ValueError, match="inns: a part with 'held' gives abilities"):
        rules._Rules((dataclasses.replace(INNS, anywhere=1 << 18),))


def test_a_modules_fields_are_read_on_the_state_and_written_through_its_part() -> None:
    state = new_game(GameConfig(players=2, edition=E2019, modules=(Module.INNS,)))
    before = state_hash(state)
    with pytest.raises(AttributeError, match="'inns' is read-only"):
        state.inns = 1  # type: ignore[misc]  # what the test checks: the view takes no write
    assert state_hash(state) == before
    state.changed("inns").inns = 1
    assert state.inns == 1 and state_hash(state) != before
    assert new_game(GameConfig(players=2, edition=E2019)).inns == 0  # no module: its start


def test_a_game_without_shields_has_no_row_of_their_phase_end() -> None:
    state = new_game(GameConfig(players=2, edition=E2019, modules=(Module.INNS,)))
    while state.chance is not None:
        state = resolve_chance(state, bytes(32))
    state.pending = ((Step.PHASE_END, 0),)  # no such position without the module
    with pytest.raises(IllegalAction, match="PHASE_END is no step of this game"):
        apply(state, EndTurn())


def test_the_white_castles_module_says_what_it_adds() -> None:
    assert [words.step for words in WHITE_CASTLES.steps] == [Step.WHITE_CASTLE]
    assert WHITE_CASTLES.tiles == (Tile.WHITE_CASTLE, Tile.KNOWLEDGE_29)
    assert WHITE_CASTLES.crane_buildings == (Tile.WHITE_CASTLE,)


def test_the_solo_module_says_what_it_adds() -> None:
    assert [words.step for words in SOLO.steps] == [
        Step.EXCHANGE, Step.PAY_GOODS, Step.REWARD, Step.REWARD_PLACE, Step.TARGET, Step.ORDER]
    assert SOLO.steps[-1].asks == "choose which of the pending steps you take first"
    assert {step for step, _ in SOLO.choices} == {words.step for words in SOLO.steps}


def test_a_game_of_several_players_has_no_row_of_the_solo_game() -> None:
    state = new_game(GameConfig(players=2, edition=E2019))
    while state.chance is not None:
        state = resolve_chance(state, bytes(32))
    state.pending = ((Step.DIE, 0), (Step.ORDER, 0))  # a position the solo game alone makes
    with pytest.raises(IllegalAction, match=r"TakeFirst\(step=<Step.DIE: 1>, arg=0\): not a "
                                            r"choice now; ORDER is no step of this game"):
        apply(state, TakeFirst(Step.DIE, 0))
