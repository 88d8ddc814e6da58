"""How to run this program again, for the commands it prints (``burgundy play --resume
FILE``): they must run as printed, in the shell the user started it from.

``burgundy`` when that name on the ``PATH`` is this very program (an activated virtual
environment, or an installed one); otherwise the absolute path of the script the user ran
(a fresh clone's ``.venv/bin/burgundy``), or ``python -m p2p_burgundy.cli.main`` with this
interpreter's path when it was started that way.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys

NAME = "burgundy"


def program(argv0: str | None = None, main_module: str | None = None) -> str:
    """The words that start this program in a printed command (shell-quoted).

    >>> program("/nowhere/burgundy", "")
    '/nowhere/burgundy'
    >>> program("/x/cli/main.py", "p2p_burgundy.cli.main").endswith(" -m p2p_burgundy.cli.main")
    True
    """
    argv0 = sys.argv[0] if argv0 is None else argv0
    if main_module is None:
        spec = getattr(sys.modules.get("__main__"), "__spec__", None)
        main_module = spec.name if spec is not None else ""
    if main_module.startswith("p2p_burgundy."):  # python -m p2p_burgundy.cli.main
        return shlex.join([sys.executable, "-m", main_module.removesuffix(".__main__")])
    found = shutil.which(NAME)
    try:
        if found is not None and os.path.samefile(found, argv0):
            return NAME
    except OSError:
        pass
    return shlex.quote(os.path.abspath(argv0))


__all__ = ["NAME", "program"]
