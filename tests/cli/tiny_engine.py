"""A tiny engine for ``burgundy bot --engine``: stdlib only, written from docs/bots.md.

It places a tile when it can, else sells goods, else takes the first action. For the tests
of the protocol's error paths it misbehaves on request, at decision N::

    tiny_engine.py [--crash N] [--garbage N] [--illegal N] [--stale N] [--sleep N]
                   [--protocol V] [--no-hello] [--pause N]

``--pause N`` thinks 0.3 s over each of its first N decisions (a game to watch under way).
"""

import json
import sys
import time


def main(argv):
    faults = {flag: argv[i + 1] for i, flag in enumerate(argv[:-1]) if flag.startswith("--")}
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            if "--no-hello" in argv:
                time.sleep(60)
            version = int(faults.get("--protocol", message["protocol"]))
            answer = {"type": "hello", "protocol": version, "name": "tiny"}
        elif message["type"] == "decide":
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
            index = pick(message["actions"])
            if str(n) == faults.get("--illegal"):
                index = len(message["actions"])
            if str(n) == faults.get("--stale"):
                n -= 1
            answer = {"type": "action", "decision": n, "action": index}
        else:  # game_over: the last message
            print(f"tiny: game over, winner seat {message['winner']}", file=sys.stderr)
            return
        print(json.dumps(answer), flush=True)


def pick(actions):
    for kind in ("place_tile", "sell_goods"):
        for index, action in enumerate(actions):
            if action["type"] == kind:
                return index
    return 0


if __name__ == "__main__":
    main(sys.argv[1:])
