"""Run the terminal client on a table that fails after the first screen (for the pty tests).

``python broken_client.py`` must leave the terminal restored, print one line naming the log
file, and write the traceback there.
"""

from __future__ import annotations

import sys

from p2p_burgundy.cli.tui.app import run_guarded
from p2p_burgundy.cli.tui.table import LocalTable, TableEvent


class BrokenTable(LocalTable):
    """A local game whose poll() fails once a key has been pressed."""

    calls = 0

    def poll(self) -> list[TableEvent]:
        BrokenTable.calls += 1
        if BrokenTable.calls > 3:
            raise RuntimeError("the table fell over")
        return super().poll()


if __name__ == "__main__":
    base = LocalTable.new("Ann", seed=3)
    table = BrokenTable.__new__(BrokenTable)
    table.__dict__.update(base.__dict__)
    sys.exit(run_guarded(table))
