"""``python -m p2p_burgundy.cli.tui``: the terminal client on its own (as ``burgundy play``)."""

import sys

from .command import main

if __name__ == "__main__":
    sys.exit(main())
