"""A tiny engine for ``burgundy bot --engine``: stdlib only, written from docs/bots.md.

It places a tile when it can, else sells goods, else takes the first action. It speaks the
version the peer offers (2), or version 1 with ``--protocol 1``. In version 2 it declares two
options: ``prefer`` (the kind of action it looks for first) and ``explain`` (send an ``info``
before each answer), and plays game after game in one process. For the tests of the
protocol's error paths it misbehaves on request, at decision N (of every game)::

    tiny_engine.py [--crash N] [--garbage N] [--illegal N] [--stale N] [--sleep N]
                   [--resign N] [--protocol V] [--no-hello] [--seat S] [--pause N]

With ``--seat S`` it misbehaves only when it plays seat S. ``--pause N`` thinks 0.3 s over
each of its first N decisions (a game to watch under way).
"""

import json
import sys
import time

OPTIONS = [{"name": "prefer", "type": "choice", "default": "place_tile",
            "choices": ["place_tile", "sell_goods", "take_tile"]},
           {"name": "explain", "type": "bool", "default": False}]


def main(argv):
    asked = {flag: argv[i + 1] for i, flag in enumerate(argv[:-1]) if flag.startswith("--")}
    settings = {o["name"]: o["default"] for o in OPTIONS}
    version = 1
    faults = asked
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind in ("hello", "new_game"):  # a new game: its seat decides the faults
            seat = str(message["seat"])
            faults = asked if asked.get("--seat", seat) == seat else {}
        if kind == "hello":
            if "--no-hello" in argv:
                time.sleep(60)
            version = int(faults.get("--protocol", message["protocol"]))
            answer = {"type": "hello", "protocol": version, "name": "tiny"}
            if version >= 2:
                answer.update(version="1.0", author="the tests", options=OPTIONS)
        elif kind == "options":
            settings.update(message["values"])
            continue
        elif kind == "new_game":
            print(f"tiny: game {message['game']}, seat {message['seat']}", file=sys.stderr)
            continue
        elif kind == "decide":
            n = message["decision"]
            if str(n) == faults.get("--crash"):
                sys.exit(3)
            if str(n) == faults.get("--sleep"):
                time.sleep(60)
            if n <= int(faults.get("--pause", 0)):
                time.sleep(0.3)
            if str(n) == faults.get("--garbage"):
                print("e2e4", flush=True)
                continue
            if str(n) == faults.get("--resign"):
                print(json.dumps({"type": "resign", "decision": n}), flush=True)
                continue
            index = pick(message["actions"], settings["prefer"])
            if settings["explain"]:
                print(json.dumps({"type": "info", "decision": n, "line": [index],
                                  "candidates": [{"action": index, "value": 1.0}],
                                  "text": f"the first {settings['prefer']}"}), flush=True)
            if str(n) == faults.get("--illegal"):
                index = len(message["actions"])
            if str(n) == faults.get("--stale"):
                n -= 1
            answer = {"type": "action", "decision": n, "action": index}
        else:  # game_over: the last message of a game (of the process, in version 1)
            print(f"tiny: game over, winner seat {message['winner']}", file=sys.stderr)
            if version < 2:
                return
            continue
        print(json.dumps(answer), flush=True)


def pick(actions, prefer):
    for kind in (prefer, "place_tile", "sell_goods"):
        for index, action in enumerate(actions):
            if action["type"] == kind:
                return index
    return 0


if __name__ == "__main__":
    main(sys.argv[1:])
