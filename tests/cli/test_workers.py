"""The worker processes of ``sim --jobs`` and ``match --jobs`` (cli/workers.py): results in
order or as they come, and every way a worker can fail reaches the caller; nothing waits
forever. And every value that crosses between the processes survives pickling."""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest

from p2p_burgundy.actions import ACTION_TYPES
from p2p_burgundy.cli import main as cli
from p2p_burgundy.cli.strategies import BotError
from p2p_burgundy.cli.workers import RemoteTraceback, WorkerError, run_tasks
from tests.cli.worker_values import actions, not_round_tripped, states

# The tasks: module-level functions, so the workers can import them.


def square(number: int) -> int:
    time.sleep(0.05 * (number % 3))  # some finish out of order
    return number * number


def fail_on_three(number: int) -> int:
    if number == 3:
        raise BotError("bot 3 failed")
    return number


def die_on_two(number: int) -> int:
    if number == 2:
        os.kill(os.getpid(), signal.SIGKILL)
    return number


def unpicklable_result(number: int) -> object:
    return (lambda: number) if number == 1 else number


def wait_long(number: int) -> int:
    time.sleep(60 if number else 0)
    return number


class Unreadable:
    """Pickles, but cannot be unpickled (as a compiled frozen config could not)."""

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (_refuse, ())


def _refuse() -> None:
    raise TypeError("cannot assign to field 'players'")


def unreadable_result(number: int) -> Unreadable:
    return Unreadable()


def label(task: object) -> str:
    return f"task {task!r}"


def test_results_come_in_order_or_as_they_finish() -> None:
    assert list(run_tasks(square, range(8), 3, ordered=True, label=label)) == [
        0, 1, 4, 9, 16, 25, 36, 49]
    assert sorted(run_tasks(square, range(8), 3, ordered=False, label=label)) == [
        0, 1, 4, 9, 16, 25, 36, 49]


def test_a_task_that_raises_raises_its_error_with_the_workers_traceback() -> None:
    results = []
    with pytest.raises(BotError, match=r"^bot 3 failed$") as raised:
        for result in run_tasks(fail_on_three, range(6), 1, ordered=True, label=label):
            results.append(result)
    assert results == [0, 1, 2]  # those before it still arrive
    assert isinstance(raised.value.__cause__, RemoteTraceback)
    assert "in fail_on_three" in str(raised.value.__cause__)


def test_a_worker_that_dies_is_an_error_naming_its_task() -> None:
    with pytest.raises(WorkerError, match=r"^task 2: its worker process died "
                                          r"\(killed by signal 9\)$"):
        list(run_tasks(die_on_two, range(5), 2, ordered=False, label=label))


def test_a_result_that_does_not_pickle_is_an_error_naming_its_task() -> None:
    with pytest.raises(WorkerError, match=r"^task 1: the result cannot be sent back from the "
                                          r"worker process: "):
        list(run_tasks(unpicklable_result, range(3), 2, ordered=True, label=label))


def test_a_task_that_does_not_unpickle_in_the_worker_is_an_error_naming_it() -> None:
    with pytest.raises(WorkerError, match=r"^task <.*Unreadable.*>: the worker process cannot "
                                          r"read the task: TypeError: cannot assign to field "
                                          r"'players'$"):
        list(run_tasks(square, [Unreadable()], 2, ordered=True, label=label))


def test_a_result_that_does_not_unpickle_here_is_an_error_naming_its_task() -> None:
    with pytest.raises(WorkerError, match=r"^task 0: the worker's answer cannot be read here: "
                                          r"TypeError: cannot assign to field 'players'$"):
        list(run_tasks(unreadable_result, [0], 1, ordered=True, label=label))


def test_leaving_early_stops_every_worker_at_once() -> None:
    started = time.monotonic()
    tasks = run_tasks(wait_long, [0, 1, 2], 3, ordered=False, label=label)
    assert next(tasks) == 0
    tasks.close()
    assert time.monotonic() - started < 30


def test_sim_says_a_failed_worker_and_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    # A bot that cannot start fails in the worker: the message, not a wait or a traceback.
    code = cli.main(["sim", "--players", "2", "--games", "2", "--jobs", "2", "--quiet",
                     "--engine", f"bad={sys.executable} -c 'raise SystemExit(3)'",
                     "--bots", "random,bad"])
    assert code == 1
    err = capsys.readouterr().err
    assert err.startswith("burgundy sim: game 1"), err
    assert "Traceback" not in err


def test_every_value_that_crosses_to_a_worker_and_back_survives_pickling() -> None:
    assert {type(a) for a in actions()} == set(ACTION_TYPES.values())
    assert len(states()) == 7 and sum(s.is_over for s in states()) == 3
    assert not_round_tripped() == []
