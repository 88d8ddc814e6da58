"""``burgundy analyse POSITION``: ask an engine (or a strategy) what it plays at a position,
and show its answer with what it said about it (the engine protocol's ``info``): a test bench
for one decision, and the way to look at a position of a game that went wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from p2p_burgundy import legal_actions, state_hash

from . import options
from .engine import ENGINE, EngineInfo, EngineStrategy, describe_decision
from .gamejson import RESULT_VERSION, Json, action_json
from .position import PositionError, load_position
from .strategies import STRATEGIES, BotError, Strategy, checked_choice, make

EXIT_CODES = """exit codes:
  0  the engine or strategy answered
  1  it failed (the reason on stderr; with --json, the error document)
  2  a bad command line (a position that cannot be read or has nobody to decide)"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", type=Path, metavar="POSITION",
                        help="a position file (burgundy replay --export-position)")
    player = parser.add_mutually_exclusive_group(required=True)
    player.add_argument("--engine", type=options.command, default=None,
                        metavar='"COMMAND ARGS"', help="the engine to ask (docs/bots.md)")
    player.add_argument("--strategy", type=options.strategy, default=None, metavar="NAME",
                        help=f"a strategy to ask instead: {', '.join(sorted(STRATEGIES))} or "
                             "package.module:Name")
    options.add_engine_run_arguments(parser)
    parser.add_argument("--seed", type=options.seed, default=0, help="the strategy's seed")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON document instead (docs/bots.md)")


def check(args: argparse.Namespace) -> str | None:
    """Reads the position: it must have a decision to make."""
    try:
        args.at = load_position(args.position)
    except PositionError as exc:
        return f"argument POSITION: {args.position}: {exc}"
    state = args.at.state()
    if state.is_over or state.chance is not None or state.to_move is None:
        what = "the game is over" if state.is_over else "a chance event comes next"
        return f"argument POSITION: {args.position}: nobody decides there ({what})"
    return options.check_engine_run(args, [] if args.engine is None else [ENGINE])


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out if out is not None else sys.stdout
    state = args.at.state()
    seat = state.to_move
    actions = legal_actions(state)
    engine_log = options.engine_run(args).open_log()
    strategy: Strategy
    if args.engine is not None:
        strategy = EngineStrategy(args.engine, seat,
                                  settings=options.engine_run(args).settings(ENGINE, engine_log))
    else:
        strategy = make(args.strategy, args.seed)
    try:
        answer = actions.index(checked_choice(strategy, state, actions))
    except BotError as exc:
        print(f"burgundy analyse: {exc}", file=sys.stderr)
        if args.json:
            out.write(json.dumps({"command": "analyse", "version": RESULT_VERSION,
                                  "error": str(exc)}) + "\n")
        return 1
    finally:
        if isinstance(strategy, EngineStrategy):
            strategy.close()
        if engine_log is not None:
            engine_log.close()
    engine = strategy if isinstance(strategy, EngineStrategy) else None
    info = None if engine is None else engine.info
    doc: Json = {"command": "analyse", "version": RESULT_VERSION,
                 "state_hash": state_hash(state).hex(), "seat": seat,
                 "decision": describe_decision(1, state).removeprefix("decision 1 "),
                 "actions": [action_json(a) for a in actions], "answer": answer,
                 "by": strategy.name, "engine": None if engine is None else engine.summary(),
                 "info": None if info is None else info_json(info)}
    if args.json:
        out.write(json.dumps(doc, indent=1) + "\n")
    else:
        out.write(format_analysis(doc))
    return 0


def info_json(info: EngineInfo) -> Json:
    return {"candidates": [{"action": i, "value": v} for i, v in info.candidates],
            "line": list(info.line), "text": info.text}


def _action_text(action: Json) -> str:
    fields = " ".join(f"{k}={v}" for k, v in action.items() if k != "type")
    return f"{action['type']} {fields}".strip()


def format_analysis(doc: Json) -> str:
    """The position's decision, the legal actions by number, the answer and the info."""
    actions = doc["actions"]
    assert isinstance(actions, list)
    lines = [f"position {str(doc['state_hash'])[:16]}: {doc['decision']}", "legal actions:"]
    lines += [f"  {i:>3}  {_action_text(a)}" for i, a in enumerate(actions)]
    answer = doc["answer"]
    assert isinstance(answer, int)
    lines.append(f"{doc['by']} plays {answer}: {_action_text(actions[answer])}")
    info = doc["info"]
    if isinstance(info, dict):
        if info["candidates"]:
            lines.append("  candidates: " + ", ".join(
                f"{c['action']} ({c['value']:g})" for c in info["candidates"]))
        if info["line"]:
            lines.append("  line: " + " ".join(map(str, info["line"])))
        if info["text"]:
            lines.append(f"  says: {info['text']}")
    return "\n".join(lines) + "\n"
