import doctest
from types import ModuleType

import pytest

from p2p_burgundy.net import beacon, errors, identity, wire


@pytest.mark.parametrize("module", [errors, wire, identity, beacon], ids=lambda m: m.__name__)
def test_docstring_examples_run(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
