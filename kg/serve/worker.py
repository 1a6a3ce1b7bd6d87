"""Free SPARQL with a deadline: queries run in worker processes that are killed when late.

A thread cannot be stopped, and one Oxigraph query (a cross product, an ORDER BY over
millions of rows) can run for minutes; so the queries people type run in a small pool of
child processes, each holding the graph open read-only. A query that misses its deadline
gets its worker killed and replaced; the server stays responsive. Answers are cut at a row
limit, and say so (``Answer.truncated``).

    QueryPool.run(sparql) ─▶ idle worker (a process) ─▶ Answer (rows as SPARQL JSON terms)
                          └▶ deadline passed: kill it, start a fresh one, QueryTimeout

>>> pool = QueryPool("output/graph.trig", size=1, timeout=5)  # doctest: +SKIP
>>> pool.run("SELECT (1 AS ?x) {}").rows  # doctest: +SKIP
[({'type': 'literal', 'value': '1', 'datatype': 'http://www.w3.org/2001/XMLSchema#integer'},)]
"""

from __future__ import annotations

import multiprocessing
import queue
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from kg.errors import KGError, QueryError
from kg.serve.readonly import QueryRefused, check_read_only
from kg.store.embedded import open_store
from kg.store.sparql import Dataset, run_query

DEFAULT_TIMEOUT = 10.0
DEFAULT_MAX_ROWS = 10_000
STARTUP_TIMEOUT = 600.0  # a new worker imports kg and reads the graph: minutes on a busy machine
_SPAWN = multiprocessing.get_context("spawn")  # no fork of a threaded server


class QueryTimeout(QueryError):
    """A query ran past its deadline (or no worker was free in time) and was stopped."""


@dataclass(frozen=True)
class Answer:
    """A query's answer, small enough to pickle: SELECT rows as SPARQL JSON terms,
    an ASK boolean, or CONSTRUCT/DESCRIBE triples as N-Triples."""

    kind: str  # "select", "ask" or "graph"
    variables: tuple[str, ...] = ()
    rows: list[tuple[dict[str, str] | None, ...]] = field(default_factory=list)
    boolean: bool = False
    ntriples: bytes = b""
    count: int = 0
    truncated: bool = False
    seconds: float = 0.0


def term_json(term: Any) -> dict[str, str] | None:
    """A term as a binding of the SPARQL 1.1 Query Results JSON format.

    >>> term_json(ox.Literal("Kyiv", language="en"))
    {'type': 'literal', 'value': 'Kyiv', 'xml:lang': 'en'}
    """
    if term is None:
        return None
    if isinstance(term, ox.NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, ox.BlankNode):
        return {"type": "bnode", "value": term.value}
    if isinstance(term, ox.Literal):
        if term.language:
            return {"type": "literal", "value": term.value, "xml:lang": term.language}
        datatype = term.datatype.value
        if datatype.endswith("#string"):
            return {"type": "literal", "value": term.value}
        return {"type": "literal", "value": term.value, "datatype": datatype}
    return {"type": "triple", "value": str(term)}


def answer(store: ox.Store, sparql: str, max_rows: int, source: str = "query",
           dataset: Dataset | None = None, checked: bool = False) -> Answer:
    """Run ``sparql`` on ``store`` and keep at most ``max_rows`` rows or triples; unless
    ``checked`` (a named question), refuse updates and ``SERVICE`` first."""
    started = time.perf_counter()
    if not checked:
        check_read_only(sparql)
    result = run_query(store, sparql, source=source, dataset=dataset)
    if isinstance(result, ox.QueryBoolean):
        return Answer("ask", boolean=bool(result), seconds=time.perf_counter() - started)
    if isinstance(result, ox.QuerySolutions):
        names = tuple(v.value for v in result.variables)
        rows: list[tuple[dict[str, str] | None, ...]] = []
        for solution in result:
            if len(rows) == max_rows:
                return Answer("select", names, rows, count=len(rows), truncated=True,
                              seconds=time.perf_counter() - started)
            rows.append(tuple(term_json(solution[n]) for n in names))
        return Answer("select", names, rows, count=len(rows),
                      seconds=time.perf_counter() - started)
    triples: list[ox.Triple] = []
    for triple in result:
        if len(triples) == max_rows:
            break
        triples.append(triple)
    data = ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES) or b""
    return Answer("graph", ntriples=data, count=len(triples),
                  truncated=len(triples) == max_rows, seconds=time.perf_counter() - started)


def _worker_main(conn: Connection, graph: str, max_rows: int) -> None:
    """The child process: open the graph once, then answer queries until told to stop.

    An engine panic (pyoxigraph raises ``PanicException``, a ``BaseException``) is reported
    and ends the process: its store may be left in any state, and the pool starts a new one.
    """
    try:
        store = open_store(graph)
    except KGError as e:
        conn.send(("error", str(e)))
        return
    conn.send(("ready", ""))
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message is None:
            return
        sparql, source, dataset, checked = message
        try:
            conn.send(("ok", answer(store, sparql, max_rows, source, dataset, checked)))
        except QueryRefused as e:
            conn.send(("refused", str(e)))
        except KGError as e:
            conn.send(("error", str(e)))
        except Exception as e:  # an engine failure must not kill the worker silently
            conn.send(("error", f"{source}: the query failed: {e}"))
        except BaseException as e:  # a panic of the engine: say so, and end this worker
            conn.send(("crashed", f"{source}: the query engine crashed ({type(e).__name__}: "
                                  f"{e}); the query was stopped"))
            return


class WorkerLost(QueryError):
    """A query worker died while answering (the engine crashed, the process was killed)."""


class _Worker:
    """One child process and our end of its pipe."""

    def __init__(self, graph: Path, max_rows: int) -> None:
        self.conn, child = _SPAWN.Pipe()
        self.process = _SPAWN.Process(target=_worker_main, args=(child, str(graph), max_rows),
                                      daemon=True, name="kg-serve-query")
        self.process.start()
        child.close()
        self.ready = False

    def ask(self, sparql: str, source: str, timeout: float, dataset: Dataset | None = None,
            checked: bool = False) -> Answer:
        """The answer, within ``timeout`` seconds of running (not counting the start)."""
        if not self.ready:
            self._receive(time.monotonic() + STARTUP_TIMEOUT, "opening the graph")
            self.ready = True
        try:
            self.conn.send((sparql, source, dataset, checked))
        except OSError as e:  # the process ended since its last answer
            raise WorkerLost(f"{source}: the query worker had stopped; try again") from e
        return self._receive(time.monotonic() + timeout, source)

    def _receive(self, deadline: float, source: str) -> Any:
        try:
            if not self.conn.poll(max(deadline - time.monotonic(), 0)):
                if not self.ready:
                    raise QueryTimeout(f"{source}: a query worker did not open the graph in "
                                       f"{STARTUP_TIMEOUT:.0f} s; try again")
                raise QueryTimeout(f"{source}: stopped after the time limit; "
                                   "narrow the query (a LIMIT, a more selective pattern)")
            status, value = self.conn.recv()
        except (EOFError, OSError) as e:
            raise WorkerLost(f"{source}: the query worker stopped unexpectedly (the query "
                             "engine crashed or ran out of memory)") from e
        if status == "refused":
            raise QueryRefused(value)
        if status == "crashed":
            raise WorkerLost(value)
        if status == "error":
            raise QueryError(value)
        return value

    def alive(self) -> bool:
        return self.process.is_alive() and not self.conn.closed

    def stop(self, kill: bool = False) -> None:
        if kill or not self.process.is_alive():
            self.process.kill()
        else:
            try:
                self.conn.send(None)
            except OSError:
                self.process.kill()
        self.process.join(timeout=2)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=2)
        self.conn.close()


class QueryPool:
    """``size`` worker processes over the graph file ``graph``; ``run`` is thread-safe."""

    def __init__(self, graph: str | Path, *, size: int = 2, timeout: float = DEFAULT_TIMEOUT,
                 max_rows: int = DEFAULT_MAX_ROWS) -> None:
        self.graph, self.timeout, self.max_rows = Path(graph), timeout, max_rows
        self._idle: queue.Queue[_Worker | None] = queue.Queue()
        self._closed = False
        for _ in range(size):
            self._idle.put(_Worker(self.graph, max_rows))

    def run(self, sparql: str, source: str = "query", dataset: Dataset | None = None,
            checked: bool = False, timeout: float | None = None) -> Answer:
        """The answer to ``sparql``; ``QueryTimeout`` past the deadline, ``QueryRefused``
        for an update or ``SERVICE``, ``QueryError`` when the query is malformed.
        ``checked`` skips the read-only check (for the named questions, which are files of
        the package). A worker that ran late, crashed or died is never used again: a fresh
        one takes its place. ``timeout`` replaces the pool's deadline for this query."""
        deadline = self.timeout if timeout is None else timeout
        if self._closed:
            raise QueryError(f"{source}: the server is stopping")
        try:
            worker = self._idle.get(timeout=deadline)
        except queue.Empty:
            raise QueryTimeout(f"{source}: every query worker is busy; try again") from None
        usable = False
        try:
            worker = worker if worker is not None and worker.alive() else None
            worker = worker or _Worker(self.graph, self.max_rows)
            result = worker.ask(sparql, source, deadline, dataset, checked)
            usable = True
            return result
        except (QueryTimeout, WorkerLost):
            raise
        except QueryError:
            usable = worker is not None and worker.alive()
            raise
        finally:
            if (not usable or self._closed) and worker is not None:
                worker.stop(kill=True)
                worker = None  # a fresh one starts on the next query
            self._idle.put(worker)

    def close(self) -> None:
        """Stop every idle worker; a busy one is stopped when its query ends."""
        self._closed = True
        while True:
            try:
                worker = self._idle.get_nowait()
            except queue.Empty:
                return
            if worker is not None:
                worker.stop()
