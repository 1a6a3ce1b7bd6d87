"""Queries with a time limit: each embedded query runs in a child process that can be stopped.

Oxigraph cannot cancel a query, and while it evaluates one it does not return to Python, so a
cartesian product would hold the process (and Ctrl-C) for as long as it runs. Here the query
runs in a forked child (the store, opened by the parent, is inherited, nothing is copied);
what the child writes arrives through a pipe and is copied to the output as it comes, so
results stream. The parent waits at most ``timeout`` seconds, stops the child at once on
Ctrl-C (``KeyboardInterrupt`` reaches the parent within a fraction of a second) or on the time
limit, and turns the child's errors back into the same ``KGError`` it raised.

    parent: open store ─▶ fork ─▶ copy pipe → out (until EOF, deadline or Ctrl-C) ─▶ reap
    child:                  └──▶ run the query, write the result into the pipe, exit

Where ``os.fork`` does not exist the work runs in this process, without a limit.

>>> import io
>>> buffer = io.BytesIO()
>>> run_isolated(lambda out: out.write(b"done"), buffer, timeout=5, source="q")
>>> buffer.getvalue()
b'done'
"""

from __future__ import annotations

import faulthandler
import os
import pickle
import resource
import select
import signal
import time
from collections.abc import Callable
from typing import IO, BinaryIO

from kg.errors import KGError, QueryError

#: Seconds an embedded query may run by default; long enough for any named question on a
#: corpus of thousands of articles, short enough that a runaway query is noticed.
DEFAULT_TIMEOUT = 60.0
#: Memory a query may take on top of what the process already holds (the store): a sorted
#: cartesian product on the BBC graph reached 18 GB within the 60 s, on a 24 GB machine.
#: Past it the allocation fails, the child ends, and ``QueryError`` says so.
DEFAULT_MEMORY = 4 * 2**30
_CHUNK = 1 << 16
_POLL = 0.25  # seconds between checks of the deadline while the child is silent

Work = Callable[[BinaryIO], object]


def run_isolated(work: Work, out: IO[bytes], *, timeout: float | None, source: str,
                 memory: int | None = DEFAULT_MEMORY) -> None:
    """Run ``work(pipe)`` in a child process, copying what it writes to ``out`` as it comes.

    ``timeout`` (seconds; ``None`` or 0: none) bounds the whole run; past it the child is
    killed and ``QueryError`` says so; so does ``memory`` (bytes the child may allocate on top
    of what it inherits; ``None``: no limit, also where the system cannot tell).
    ``KeyboardInterrupt`` stops the child before it propagates. An exception in the child is
    raised here again (a ``KGError`` as itself, anything else as ``QueryError`` naming it);
    ``source`` names the query in messages.
    """
    if not hasattr(os, "fork"):
        work(out)  # type: ignore[arg-type]
        return
    data_read, data_write = os.pipe()
    error_read, error_write = os.pipe()
    ceiling = _address_space_ceiling(memory)
    pid = os.fork()
    if pid == 0:  # the child never returns from here
        os.close(data_read)
        os.close(error_read)
        _child(work, data_write, error_write, ceiling)
    os.close(data_write)
    os.close(error_write)
    try:
        _relay(data_read, out, timeout, source)
        with os.fdopen(error_read, "rb", closefd=False) as errors:
            failure = errors.read()  # ends when the child exits
    except BaseException:
        os.kill(pid, signal.SIGKILL)
        raise
    finally:
        os.close(data_read)
        os.close(error_read)
        code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    if failure:
        raise _error_from(failure, source)
    if code in (-signal.SIGABRT, -signal.SIGSEGV) and memory is not None and ceiling:
        raise QueryError(f"{source}: stopped at the memory limit ({memory / 2**30:.3g} GiB "
                         "for one query); narrow the query, e.g. with a LIMIT or fewer "
                         "unbound patterns")
    if code != 0:
        how = f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"
        raise QueryError(f"{source}: the query process {how} (out of memory?)")


def _address_space_ceiling(memory: int | None) -> int | None:
    """This process's virtual size plus ``memory``: the child's RLIMIT_AS."""
    if memory is None:
        return None
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE") + memory


def _child(work: Work, data: int, errors: int, ceiling: int | None) -> None:
    """Run ``work`` into ``data``; report an exception through ``errors``; never return."""
    code = 0
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C ends the child at once
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # so does a parent that stopped reading
        faulthandler.disable()  # a failed allocation aborts; the parent says so in words
        if ceiling is not None:
            resource.setrlimit(resource.RLIMIT_AS, (ceiling, ceiling))
            quiet = os.open(os.devnull, os.O_WRONLY)  # Rust's "memory allocation failed"
            os.dup2(quiet, 2)  # line: the parent says it in words
        with os.fdopen(data, "wb", buffering=_CHUNK) as out:
            work(out)
    except BaseException as e:  # noqa: BLE001 - everything goes back to the parent
        code = 1
        try:
            payload = pickle.dumps(e)
        except Exception:  # noqa: BLE001 - an exception that cannot be pickled
            payload = pickle.dumps(QueryError(f"{type(e).__name__}: {e}"))
        try:
            os.write(errors, payload)
        except OSError:
            pass
    finally:
        os._exit(code)  # no atexit handlers, no flushing of the parent's buffers


def _relay(data: int, out: IO[bytes], timeout: float | None, source: str) -> None:
    deadline = time.monotonic() + timeout if timeout else None
    while True:
        wait = _POLL
        if deadline is not None:
            wait = deadline - time.monotonic()
            if wait <= 0:
                raise QueryError(f"{source}: stopped after {timeout:g} s (the time limit); "
                                 "narrow the query, e.g. with a LIMIT or fewer unbound "
                                 "patterns", option="timeout")
        ready, _, _ = select.select([data], [], [], min(wait, _POLL))
        if not ready:
            continue
        chunk = os.read(data, _CHUNK)
        if not chunk:
            return
        out.write(chunk)
        if hasattr(out, "flush"):
            out.flush()


def _error_from(payload: bytes, source: str) -> BaseException:
    try:
        error = pickle.loads(payload)  # noqa: S301 - written by our own child
    except Exception:  # noqa: BLE001
        return QueryError(f"{source}: the query failed")
    if isinstance(error, KGError | KeyboardInterrupt | OSError):
        return error
    return QueryError(f"{source}: {type(error).__name__}: {error}")
