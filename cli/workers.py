"""Tasks shared among worker processes (``sim --jobs``, ``match --jobs``), every failure told.

:func:`run_tasks` starts its worker processes with "spawn" (so it works the same on every
platform), hands each a task at a time over its own pipe and waits on the pipes
and on the processes themselves, so nothing can make it wait forever: a task that raises
raises its exception here; a worker that dies (killed, out of memory), a task or result that
does not cross the process boundary (does not pickle, or does not unpickle on the other side)
is a :class:`WorkerError` naming the task. Leaving the iteration early (an error, a match
that the SPRT decides) stops every worker at once.
"""

from __future__ import annotations

import multiprocessing
import pickle
import traceback
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from typing import TYPE_CHECKING, TypeVar, cast

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

Task = TypeVar("Task")
Result = TypeVar("Result")


class WorkerError(RuntimeError):
    """A worker process failed other than by its task raising: it died, or a task, a result
    or an exception did not cross between the processes."""


class RemoteTraceback(Exception):
    """Where a task raised in its worker process: the ``__cause__`` of the exception raised
    here, so a traceback shows both sides."""


def run_tasks(function: Callable[[Task], Result], tasks: Sequence[Task], jobs: int, *,
              ordered: bool, label: Callable[[Task], str]) -> Iterator[Result]:
    """``function(task)`` of each task, run in ``jobs`` worker processes: in the order of
    ``tasks`` if ``ordered``, else as each finishes. ``function`` must be a module-level
    function (it is pickled); ``label`` names a task in an error ("game 3")."""
    context = multiprocessing.get_context("spawn")
    workers: list[tuple[BaseProcess, Connection]] = []
    try:
        for _ in range(min(jobs, len(tasks))):
            ours, theirs = context.Pipe()
            worker = context.Process(target=_serve, args=(function, theirs), daemon=True)
            worker.start()
            theirs.close()
            workers.append((worker, ours))
        yield from _schedule(workers, tasks, ordered, label)
    finally:
        for process, connection in workers:
            process.terminate()
            connection.close()
        for process, _ in workers:
            process.join()


def _schedule(workers: list[tuple[BaseProcess, Connection]], tasks: Sequence[Task],
              ordered: bool, label: Callable[[Task], str]) -> Iterator[Result]:
    """Keep every worker busy with the next task; yield the results as ``run_tasks`` says."""
    busy: dict[Connection, tuple[BaseProcess, int]] = {}
    done: dict[int, object] = {}  # answers not yet yielded, by index
    given = 0
    yielded = 0  # with ``ordered``, the index of the next result
    idle = list(workers)
    while yielded < len(tasks):
        while idle and given < len(tasks):
            process, connection = idle.pop()
            try:
                connection.send(tasks[given])
            except (pickle.PicklingError, TypeError, AttributeError) as exc:
                raise WorkerError(f"{label(tasks[given])}: the task cannot be sent to a "
                                  f"worker process: {_describe(exc)}") from exc
            except OSError:  # it died: found below, by its sentinel
                pass
            busy[connection] = (process, given)
            given += 1
        ready = wait([*busy, *(process.sentinel for process, _ in busy.values())])
        for connection in [c for c in busy if c in ready]:
            process, index = busy.pop(connection)
            done[index] = _receive(connection, process, label(tasks[index]))
            idle.append((process, connection))
        for process, index in busy.values():
            if process.sentinel in ready:
                process.join()  # (it has ended: this reaps it, for its exit code)
                raise WorkerError(f"{label(tasks[index])}: its worker process died "
                                  f"({_exit(process)})")
        # With ``ordered``, a task's failure too waits for the results before it (as when
        # the tasks run one by one)
        for index in _following(done, yielded) if ordered else list(done):
            reply = done.pop(index)
            if isinstance(reply, _Raised):
                if isinstance(reply.exception, WorkerError):
                    raise WorkerError(f"{label(tasks[index])}: {reply.exception}"
                                      ) from RemoteTraceback(reply.traceback)
                raise reply.exception from RemoteTraceback(reply.traceback)
            yield cast(Result, reply)
            yielded += 1


def _following(done: dict[int, object], first: int) -> list[int]:
    """The run of indices from ``first`` that ``done`` holds."""
    run: list[int] = []
    while first + len(run) in done:
        run.append(first + len(run))
    return run


class _Raised:
    """A worker's answer when its task raised: the exception and its traceback's text."""

    def __init__(self, exception: BaseException, text: str) -> None:
        self.exception = exception
        self.traceback = text


def _receive(connection: Connection, process: BaseProcess, name: str) -> object:
    """A worker's answer, or WorkerError if it died or its answer does not unpickle here."""
    try:
        return connection.recv()
    except EOFError:
        process.join()
        raise WorkerError(f"{name}: its worker process died ({_exit(process)})") from None
    except Exception as exc:
        raise WorkerError(f"{name}: the worker's answer cannot be read here: "
                          f"{_describe(exc)}") from exc


def _serve(function: Callable[[object], object], connection: Connection) -> None:
    """A worker process: run each task received and send back its result, or what went
    wrong, until the pipe closes."""
    while True:
        try:
            task = connection.recv()
        except EOFError:
            return
        except Exception as exc:
            _send(connection, WorkerError(f"the worker process cannot read the task: "
                                          f"{_describe(exc)}"), exc)
            continue
        try:
            result = function(task)
        except Exception as exc:
            _send(connection, exc, exc)
            continue
        try:
            connection.send(result)
        except Exception as exc:
            _send(connection, WorkerError(f"the result cannot be sent back from the worker "
                                          f"process: {_describe(exc)}"), exc)


def _send(connection: Connection, exception: Exception, cause: Exception) -> None:
    """Send a failure back: ``exception`` itself if it crosses the process boundary, else
    a WorkerError that names it; with the traceback of ``cause``."""
    text = "".join(traceback.format_exception(cause))
    try:
        pickle.loads(pickle.dumps(exception))
    except Exception:
        exception = WorkerError(_describe(exception))
    connection.send(_Raised(exception, text))


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _exit(process: BaseProcess) -> str:
    """How a finished process ended, in words."""
    code = process.exitcode
    return f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
