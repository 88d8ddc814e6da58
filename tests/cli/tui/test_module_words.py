"""The client learns what a module adds from the registry: no client file names a module's
step, and every module's words fit where the client shows them."""

from __future__ import annotations

import re
from pathlib import Path

import p2p_burgundy.cli
from p2p_burgundy import Edition, Module, legal_actions, new_game
from p2p_burgundy.cli.tui.app import dispatch
from p2p_burgundy.cli.tui.describe import describe_action
from p2p_burgundy.cli.tui.menu import build_menu
from p2p_burgundy.cli.tui.model import Model
from p2p_burgundy.state import Step
from p2p_burgundy.tiles import Tile
from p2p_burgundy.variants import ACTION_WORDS, ENGINE_MODULES, MODULES_BY_NAME, STEP_WORDS
from tests.engine.helpers import position

CLIENT = Path(p2p_burgundy.cli.__file__).parent


def test_the_client_names_no_modules_step() -> None:
    steps = "|".join(words.step.name for module in ENGINE_MODULES for words in module.steps)
    named = re.compile(rf"\bStep\.({steps})\b")
    found = [f"{path.relative_to(CLIENT)}: {match.group()}"
             for path in sorted(CLIENT.rglob("*.py"))
             for match in named.finditer(path.read_text())]
    assert found == []


def test_every_modules_own_action_type_has_its_words_and_the_client_names_none() -> None:
    """A module's own action types (those only its rows take) are worded by their module, so
    no file of the client or the network layer names one (the bots' search may: its
    reasons are not words)."""
    from p2p_burgundy import GameConfig, rules

    base = {cls for table in rules._rules(GameConfig(players=2)).apply for cls in table}
    own = {cls for module in ENGINE_MODULES for _, cls, _ in module.handlers} - base
    assert set(ACTION_WORDS) == own and len(own) == 11
    named = re.compile(rf"\b({'|'.join(cls.__name__ for cls in own)})\b")
    found = [f"{path.relative_to(CLIENT.parent)}: {match.group()}"
             for folder in (CLIENT, CLIENT.parent / "net")
             for path in sorted(folder.rglob("*.py"))
             if "strategies" not in path.parts
             for match in named.finditer(path.read_text())]
    assert found == []


def test_each_step_has_one_modules_words() -> None:
    declared = [words.step for module in ENGINE_MODULES for words in module.steps]
    assert len(declared) == len(set(declared)) == len(STEP_WORDS) == 13


def test_every_modules_rule_reminder_is_one_line_at_80_columns() -> None:
    reminders = [words.reminder for words in STEP_WORDS.values() if words.reminder]
    assert len(reminders) == 11
    assert [r for r in reminders if len("Rule: " + r) > 80] == []
    ends = {module.name: module.scores_reminder for module in ENGINE_MODULES
            if module.scores_reminder}
    assert list(ends) == ["solo", "team"]
    assert [r for r in ends.values() if len("Rule: " + r) > 80] == []


def test_a_modes_help_page_and_end_of_game_rule_are_its_modules() -> None:
    from p2p_burgundy import GameConfig
    from p2p_burgundy.cli.tui.texts import help_for
    from p2p_burgundy.team import HELP_PAGE

    from .helpers import FixedTable

    team = GameConfig(4, Edition.E2019, teams=((0, 2), (1, 3)))
    for context in ("play", "wait", "replay", "scores"):
        page = help_for(context, team)
        assert page[:len(HELP_PAGE) + 1] == [*HELP_PAGE, ""]
        assert page[len(HELP_PAGE) + 1:] == help_for(context)
        assert all(len(line) <= 80 for line in page)
    assert help_for("play", GameConfig(players=2)) == help_for("play")

    def end_rule(players: int, **config: object) -> str:
        over = new_game(GameConfig(players, Edition.E2019, **config))  # type: ignore[arg-type]
        over.phase = 5  # as the game's end leaves it
        model = Model(FixedTable(over, ["Ann", "Bob", "Cy", "Di"][:players], None))
        model.refresh()
        return model.rule_reminder()

    assert end_rule(1) == "Solo: fill all 37 spaces within 25 rounds to win; VP only move you on."
    assert end_rule(4, teams=((0, 2), (1, 3))) == \
        "Team game: a team's points added up; a tie: more empty spaces wins."
    assert end_rule(2) == "Most VP wins; ties: fewer empty spaces, then later in turn order."


def test_a_base_steps_rule_a_module_changes_is_its_modules() -> None:
    from .helpers import FixedTable

    def ship_rule(players: int) -> str:
        state = position(players, edition=Edition.E2019, pending=((Step.SHIP, 0),),
                         depot_goods={2: {4: 1}})
        model = Model(FixedTable(state, ["Ann", "Bob"][:players], state.to_move))
        model.refresh()
        return model.rule_reminder()

    assert ship_rule(1) == "Solo: one depot's goods, any types; the rest leave the game."
    assert ship_rule(2) == "A ship loads all goods of one depot and moves you up the turn order."


def test_every_module_a_table_switches_on_has_a_line_for_the_host_page() -> None:
    summaries = [MODULES_BY_NAME[module.value].summary for module in Module]
    assert summaries == [
        "monasteries #27 #28, the crane, the geese",
        "8 white castles: an action with the white die",
        "an inn a phase: its area scores one size bigger",
        "sold goods laid on a route of bonuses",
        "18 shields: taken on a double, an ability each",
    ]


def test_a_modules_step_reads_in_its_modules_words() -> None:
    crane = position(2, edition=Edition.E2019, modules=(Module.EXTRA_TILES,),
                     pending=((Step.CRANE, 0),), goods={3: 2})
    prompt, options = build_menu(crane)
    assert prompt == "Crane: trigger the effect of any building"
    assert [o.label for o in options] == ["as a warehouse", "as a boarding house", "as a bank",
                                          "as a watchtower", "pass (use nothing)"]
    assert [describe_action(crane, a, ["Ann", "Bob"]) for a in legal_actions(crane)] == [
        "Bob's crane worked as a warehouse.",
        "Bob's crane worked as a boarding house (+4 workers).",
        "Bob's crane worked as a bank (+2 silverlings).",
        "Bob's crane worked as a watchtower (+4 VP for watchtower).",
        "Bob let the crane go unused."]


def test_the_shields_and_white_castles_steps_read_in_their_modules_words() -> None:
    def menu_and_log(pending: tuple[tuple[int, int], ...], **fields: object
                     ) -> tuple[str, list[str], list[str]]:
        state = position(2, edition=Edition.E2019, modules=(Module.SHIELDS, Module.WHITE_CASTLES),
                         pending=pending, **fields)
        prompt, options = build_menu(state)
        return (prompt, [o.label for o in options],
                [describe_action(state, a, ["Ann", "Bob"]) for a in legal_actions(state)])

    assert menu_and_log(((Step.SHIELD_GOODS, 0),), depot_goods={2: {4: 1}, 5: {4: 2, 1: 1}}) == (
        "Shield #5: every goods tile of one type",
        ["1 x goods 1 (turquoise) (depot 5)", "3 x goods 4 (red) (depot 2, 5)",
         "pass (take none)"],
        ["Bob's shield #5 took 1 goods tile (1) from depot 5.",
         "Bob's shield #5 took 3 goods tiles (4) from depots 2 and 5.",
         "Bob let the shield's goods go unused."])
    assert menu_and_log(((Step.SHIELD_TILE, 1),), depots={3: (Tile.SHIP,)}) == (
        "Phase end, shield #14: place a tile now",
        ["depot 3: Shp (ship)", "pass (place none)"],
        ["Bob's shield placed Shp (ship) from depot 3 on S2 (row 4, 3) (one step up the turn "
         "order).",
         "Bob's shield placed Shp (ship) from depot 3 on S5 (row 4, 5) (one step up the turn "
         "order).",
         "Bob let the shield's tile go unused."])
    assert menu_and_log(((Step.WHITE_CASTLE, 0),)) == (
        "White castle: an action with a 3", ["take workers"],
        ["Bob took workers with the white castle (the white die's 3) (+2 workers)."])


def test_the_help_pages_rule_for_a_modules_step_is_its_modules() -> None:
    from .helpers import FixedTable

    state = position(2, edition=Edition.E2019, modules=(Module.SHIELDS,),
                     pending=((Step.SHIELD_TILE, 0),), depots={0: (Tile.SHIP,)})
    model = Model(FixedTable(state, ["Ann", "Bob"], state.to_move))
    model.refresh()
    assert model.rule_reminder() == \
        "The phase is over: your shields act (tiles, tribute) before mines pay."
    dispatch(model, "1")  # into the black depot's tile: where it goes, the client's own rule
    assert model.rule_reminder() == \
        "A free space of its colour, next to your tiles, with the die's number."


def test_a_module_is_named_by_what_it_alone_brings() -> None:
    from p2p_burgundy.shields import SHIELDS
    from p2p_burgundy.solo import SOLO
    from tools.module_reach import words

    shields = words(SHIELDS)
    assert [bool(shields.search(text)) for text in (
        "Module.SHIELDS", "from p2p_burgundy.shields import", "Step.TRIBUTE", "TakeShield(3, 0)",
        "state.depot_shields", "Step.TURN", "EndTurn()", "p.silver")] == [
        True, True, True, True, True, False, False, False]
    # Each seat's shields are the part's ``held``, read outside the engine as state.shields.
    assert [bool(shields.search(text)) for text in ("state.shields[seat]", "sync.held(x)")] == [
        True, False]
    solo = words(SOLO)
    assert [bool(solo.search(text)) for text in (
        "config.solo", "state.vp_counter", "TakeFirst", "Step.ORDER", "solo_lines")] == [
        True, True, True, True, False]
