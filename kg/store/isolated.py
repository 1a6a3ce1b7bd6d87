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

import ctypes
import faulthandler
import os
import pickle
import re
import resource
import select
import signal
import tempfile
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
    with tempfile.TemporaryFile() as said:  # the child's stderr: what a crash says
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:  # the child never returns from here
            os.close(data_read)
            os.close(error_read)
            _child(work, data_write, error_write, ceiling, said.fileno(), timeout, parent)
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
        said.seek(0)
        last_words = said.read(_LAST_WORDS).decode("utf-8", "replace")
    if failure:
        raise _error_from(failure, source)
    if code != 0:
        raise crash_error(code, last_words, source, memory if ceiling else None, timeout)


def crash_error(code: int, said: str, source: str, memory: int | None,
                timeout: float | None = None) -> QueryError:
    """What a query process that died said, in words: an engine panic is a panic (with the
    engine's message), a failed allocation is the memory limit, a deep query the stack.

    >>> print(crash_error(-6, "thread 'main' panicked at sort.rs:1:1:\\nuser-provided "
    ...       "comparison function does not correctly implement a total order\\n", "q", None))
    q: the SPARQL engine (pyoxigraph ...) crashed: user-provided comparison function does not ...
    """
    panic = _PANIC.search(said)
    if "has overflowed its stack" in said:
        return QueryError(f"{source}: the SPARQL engine ran out of stack on this query (it "
                          "nests too deeply); write it with fewer nested groups")
    if panic is not None:
        message = " ".join(panic.group(1).split())
        hint = TOTAL_ORDER_HINT if "total order" in message else ""
        return QueryError(f"{source}: the SPARQL engine (pyoxigraph {_engine_version()}) "
                          f"crashed: {message}{hint}")
    if "memory allocation" in said and memory is not None:
        return QueryError(f"{source}: stopped at the memory limit ({memory / 2**30:.3g} GiB "
                          "for one query); narrow the query, e.g. with a LIMIT or fewer "
                          "unbound patterns")
    if code == -signal.SIGSEGV:
        return QueryError(f"{source}: the SPARQL engine crashed (a segmentation fault); a "
                          "query nested hundreds of groups deep does this by exhausting the "
                          "stack: write it with fewer nested groups")
    if code == -signal.SIGXCPU and timeout:
        return QueryError(f"{source}: stopped after {timeout:g} s of work (the time limit)",
                          option="timeout")
    how = f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"
    words = f": {' '.join(said.split())[-300:]}" if said.strip() else ""
    return QueryError(f"{source}: the query process {how}{words}")


#: Why a sort crashes, and what to do (docs/stores.md, "An engine crash on ORDER BY").
TOTAL_ORDER_HINT = ("; this is a bug of the engine, whose ORDER BY compares numbers by value "
                    "but a number and a text by spelling (see docs/stores.md): order by one "
                    "kind of value at a time, e.g. FILTER(isNumeric(?x)), or by STR(?x)")
_PANIC = re.compile(r"panicked at [^\n]*:\n(.*?)(?:\nnote:|\nstack backtrace:|\Z)", re.S)
_LAST_WORDS = 64 * 1024


def _engine_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pyoxigraph")
    except PackageNotFoundError:  # pragma: no cover - kg cannot run without it
        return "?"


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


def _child(work: Work, data: int, errors: int, ceiling: int | None, said: int,
           timeout: float | None, parent: int) -> None:
    """Run ``work`` into ``data``; report an exception through ``errors``; never return."""
    code = 0
    try:
        _die_with_parent(parent)
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C ends the child at once
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # so does a parent that stopped reading
        faulthandler.disable()  # a crash's own words go to ``said``; the parent words them
        os.dup2(said, 2)
        if timeout:  # a second bound of its own, should the parent be stopped (SIGSTOP)
            seconds = int(timeout) + 5
            resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))
        if ceiling is not None:
            resource.setrlimit(resource.RLIMIT_AS, (ceiling, ceiling))
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


def _die_with_parent(parent: int) -> None:
    """Have the kernel kill this child when its parent dies, however it dies (SIGTERM, SIGHUP,
    SIGKILL): a query left running would hold a core at 100 % past any time limit.
    ``parent`` is the parent's pid as it knew it before the fork: should it have died before
    the request took effect, this child is already someone else's and ends at once."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the CPU limit above still ends it
        return
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


_PR_SET_PDEATHSIG = 1


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
