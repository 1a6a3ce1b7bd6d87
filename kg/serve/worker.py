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
import re
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from kg.errors import KGError, QueryError
from kg.store.embedded import open_store
from kg.store.sparql import run_query

DEFAULT_TIMEOUT = 10.0
DEFAULT_MAX_ROWS = 10_000
STARTUP_TIMEOUT = 120.0  # a new worker imports kg and opens the graph: slow on a busy machine
_SPAWN = multiprocessing.get_context("spawn")  # no fork of a threaded server
_CODE = re.compile(r"<[^<>\s]*>|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|#[^\n]*")
_UPDATE = re.compile(r"(?<![?$\w])(INSERT|DELETE|LOAD|CLEAR|CREATE|DROP|COPY|MOVE|ADD)\b\s*"
                     r"(DATA|WHERE|SILENT|GRAPH|DEFAULT|NAMED|ALL|\{|<|\()", re.I)
_SERVICE = re.compile(r"\bSERVICE\b", re.I)


class QueryRefused(QueryError):
    """A query this read-only, local server will not run (an update, a federated call)."""


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


def check_read_only(sparql: str) -> None:
    """Refuse SPARQL Update and federated ``SERVICE`` calls before they reach a worker.

    >>> check_read_only("SELECT * { ?s ?p ?o }")
    >>> check_read_only("DROP ALL")
    Traceback (most recent call last):
    kg.serve.worker.QueryRefused: SPARQL Update is refused: this server is read-only
    """
    code = _CODE.sub(" ", sparql)
    if _UPDATE.search(code) or re.match(r"\s*(DROP|CLEAR)\b", code, re.I):
        raise QueryRefused("SPARQL Update is refused: this server is read-only")
    if _SERVICE.search(code):
        raise QueryRefused("SERVICE is refused: this server does not query other endpoints")


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


def answer(store: ox.Store, sparql: str, max_rows: int, source: str = "query") -> Answer:
    """Run ``sparql`` on ``store`` and keep at most ``max_rows`` rows or triples."""
    check_read_only(sparql)
    started = time.perf_counter()
    result = run_query(store, sparql, source=source)
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
    """The child process: open the graph once, then answer queries until told to stop."""
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
        sparql, source = message
        try:
            conn.send(("ok", answer(store, sparql, max_rows, source)))
        except KGError as e:
            conn.send(("error", str(e)))
        except Exception as e:  # an engine failure must not kill the worker silently
            conn.send(("error", f"{source}: the query failed: {e}"))


class _Worker:
    """One child process and our end of its pipe."""

    def __init__(self, graph: Path, max_rows: int) -> None:
        self.conn, child = _SPAWN.Pipe()
        self.process = _SPAWN.Process(target=_worker_main, args=(child, str(graph), max_rows),
                                      daemon=True, name="kg-serve-query")
        self.process.start()
        child.close()
        self.ready = False

    def ask(self, sparql: str, source: str, timeout: float) -> Answer:
        """The answer, within ``timeout`` seconds of running (not counting the start)."""
        if not self.ready:
            self._receive(time.monotonic() + STARTUP_TIMEOUT, "opening the graph")
            self.ready = True
        self.conn.send((sparql, source))
        return self._receive(time.monotonic() + timeout, source)

    def _receive(self, deadline: float, source: str) -> Any:
        if not self.conn.poll(max(deadline - time.monotonic(), 0)):
            raise QueryTimeout(f"{source}: stopped after the time limit; "
                               "narrow the query (a LIMIT, a more selective pattern)")
        try:
            status, value = self.conn.recv()
        except (EOFError, OSError) as e:
            raise QueryError(f"{source}: the query worker stopped unexpectedly") from e
        if status == "error":
            raise QueryError(value)
        return value

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
        for _ in range(size):
            self._idle.put(_Worker(self.graph, max_rows))

    def run(self, sparql: str, source: str = "query") -> Answer:
        """The answer to ``sparql``; ``QueryTimeout`` past the deadline, ``QueryError`` when
        the query is refused or malformed."""
        check_read_only(sparql)
        try:
            worker = self._idle.get(timeout=self.timeout)
        except queue.Empty:
            raise QueryTimeout(f"{source}: every query worker is busy; try again") from None
        try:
            worker = worker or _Worker(self.graph, self.max_rows)
            result = worker.ask(sparql, source, self.timeout)
        except QueryTimeout:
            worker.stop(kill=True)  # type: ignore[union-attr]
            worker = None  # a fresh one starts on the next query
            raise
        except QueryError:
            if worker is not None and not worker.process.is_alive():
                worker.stop(kill=True)
                worker = None
            raise
        finally:
            self._idle.put(worker)
        return result

    def close(self) -> None:
        """Stop every worker (waits for a running query to end, up to a few seconds)."""
        while True:
            try:
                worker = self._idle.get_nowait()
            except queue.Empty:
                return
            if worker is not None:
                worker.stop()
