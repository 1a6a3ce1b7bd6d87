"""Replacing whole graphs in a remote store, so that none is ever left half-replaced.

    Graph Store Protocol   PUT per graph (one transaction), a few in flight where the preset
                           says so; new graphs in N-Quads batches where the store takes them
                           (Oxigraph: through its bulk loader, which writes a batch whole or
                           not at all; a failed batch's graphs are PUT again, or deleted if
                           that fails too), each batch with the new graphs' digests
    SPARQL Update          DROP SILENT + INSERT DATA for every graph of a batch, in one
                           request; a graph bigger than a batch fills a temporary graph
                           batch by batch, then one MOVE puts it in place

A batch the store rejects is retried graph by graph, so only the culprit fails.
Terms are written as N-Triples by Oxigraph (quotes, backslashes, newlines and control
characters escaped), which is also valid inside ``INSERT DATA``; rdflib's ``n3()`` is not used
because it writes multi-line literals as ``\"\"\"…\"\"\"``, which N-Triples does not allow.

>>> graph = SourceGraph("https://example.org/g", [])
>>> graph.label
'https://example.org/g'
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

import pyoxigraph as ox

from kg.errors import StoreError
from kg.remote.digests import digest_of, digest_quads, replace_record
from kg.remote.store import Protocol, RemoteStore, StoreUnavailable

__all__ = ["DEFAULT_GRAPH_NAME", "TMP_GRAPH_PREFIX", "SourceGraph", "replace_graphs"]

T = TypeVar("T")
#: How the default graph is named in reports and in ``whole_graph``.
DEFAULT_GRAPH_NAME = "default"
TMP_GRAPH_PREFIX = "urn:kgnews:load-tmp:"
Outcome = dict[str, str | None]  # graph label → None (replaced) or why it failed


@dataclass(frozen=True)
class SourceGraph:
    """One graph to load: its name (``None`` = default graph) and its distinct quads.

    Quads, not triples: Oxigraph takes them as N-Quads without another Python loop. Its
    N-Triples and digest are computed once, when first needed.
    """

    name: str | None
    quads: list[ox.Quad]

    @property
    def label(self) -> str:
        return self.name or DEFAULT_GRAPH_NAME

    @property
    def size(self) -> int:
        return len(self.quads)

    @property
    def triples(self) -> list[ox.Triple]:
        return [quad.triple for quad in self.quads]

    @cached_property
    def has_blank_nodes(self) -> bool:
        # ``type() is``, not isinstance, and no N-Triples written for it: ~0.05 s for
        # 300,000 quads, against ~0.2 s when it looked for "_:" in the graph's N-Triples
        # (a cost the Virtuoso SQL path, which never needs them, paid for every graph).
        blank = ox.BlankNode
        return any(type(q.subject) is blank or type(q.object) is blank for q in self.quads)

    @cached_property
    def ntriples(self) -> bytes:
        """N-Triples with the standard escaping: one line per triple, no raw newline inside."""
        return _ntriples(self.triples)

    @cached_property
    def digest(self) -> str | None:
        """What ``kg.remote.digests`` records for it; ``None`` with blank nodes (their labels
        are not stable) or for the default graph."""
        return None if self.has_blank_nodes or not self.name else digest_of(self.ntriples)

    def nquads(self) -> bytes:
        """Its N-Quads: the N-Triples lines with the graph name before each final dot (the
        quads are in graph ``name``, as ``read_source`` makes them)."""
        if "ntriples" not in self.__dict__:  # not needed otherwise (no digest, no PUT)
            return ox.serialize(self.quads, format=ox.RdfFormat.N_QUADS) or b""
        if not self.name:
            return self.ntriples
        return self.ntriples.replace(b" .\n", f" <{self.name}> .\n".encode())


def replace_graphs(remote: RemoteStore, graphs: list[SourceGraph], protocol: Protocol,
                   batch_size: int, new: frozenset[str] = frozenset(),
                   bulk: bool = False, records: bool = False) -> Outcome:
    """Replace each graph in the store; returns, per label, ``None`` or why it failed.

    ``new`` names graphs the store does not hold (they may be added rather than replaced);
    ``bulk`` adds them without a transaction (Oxigraph's ``no_transaction``; the preset's
    ``atomic_bulk`` does so by default). ``records`` writes each graph's digest
    (``kg.remote.digests``) in the same request as the graph: new graphs in N-Quads batches
    with theirs, every other graph by SPARQL Update (one transaction replacing the graph and
    its record), never by a PUT, which could not carry it.
    An unusable store raises ``StoreError`` saying how many graphs were written before.

    >>> replace_graphs(remote, graphs, "gsp", 20_000)  # doctest: +SKIP
    {'https://w3id.org/kgnews/id/graph/entities': None}
    """
    outcome: Outcome = {}
    try:
        if protocol == "gsp":
            _write_gsp(remote, graphs, batch_size, new, outcome, bulk, records)
        else:
            _write_update(remote, graphs, batch_size, outcome, records)
    except StoreUnavailable as e:
        # The same type, so that callers can still tell refused credentials from a timeout.
        raise type(e)(f"{e}. {_progress(outcome, len(graphs))}{_partly(remote, bulk)}") from e
    return outcome


#: An outcome while a graph's request is under way: the store may or may not have taken it.
SENT = "sent; the store failed before it answered"


def _progress(outcome: Outcome, total: int) -> str:
    """How far a load got when the store failed, in words that claim nothing unknown: a
    graph whose request was under way (the store killed, the answer lost) may be written."""
    written = sum(1 for reason in outcome.values() if reason is None)
    sent = sum(1 for reason in outcome.values() if reason == SENT)
    untouched = total - written - sent
    parts = [f"{written} of {total} graphs to write were written, each one completely"]
    if sent:
        parts.append(f"{sent} were being written when the store failed and may or may not "
                     "be (each whole or not at all)")
    parts.append(f"{untouched} were not sent" if untouched else "none was left unsent")
    return "; ".join(parts) + ": run the load again to finish"


def _partly(remote: RemoteStore, bulk: bool) -> str:
    return ("; new graphs of the interrupted bulk batch may be partly written until then"
            if bulk and not remote.endpoints.atomic_bulk else "")


def _write_gsp(remote: RemoteStore, graphs: list[SourceGraph], batch_size: int,
               new: frozenset[str], outcome: Outcome, bulk: bool, records: bool) -> None:
    """New graphs in N-Quads batches where the store takes them, every other one by PUT
    (by SPARQL Update with ``records``)."""
    ends = remote.endpoints
    no_transaction = bulk or ends.atomic_bulk

    def put(graph: SourceGraph) -> None:
        remote.put(graph.name, graph.ntriples)

    update_batch = min(batch_size, ends.batch_size)  # a batch of N-Quads is much bigger
    write = _update_one(remote, update_batch, records) if records else put

    def write_or_remove(graph: SourceGraph) -> None:  # a failed bulk batch may leave a part
        try:
            write(graph)
        except StoreUnavailable:
            raise
        except StoreError:
            remote.delete_quietly(str(graph.name))
            raise

    send_one = write_or_remove if no_transaction else write

    def post_group(group: list[SourceGraph]) -> None:
        _write_group(group, lambda gs: _post_quads(remote, gs, no_transaction, records),
                     send_one, outcome)

    batched = new if ends.post_quads else frozenset()
    groups = list(_chunks([g for g in graphs if g.label in batched], _size, batch_size))
    _each(post_group, groups, ends.posters)
    others = [g for g in graphs if g.label not in batched]
    if records:
        _write_update(remote, others, update_batch, outcome, records)
    else:
        _each(lambda g: _write_group([g], None, put, outcome), others, ends.writers)


def _each(write: Callable[[T], None], items: list[T], workers: int) -> None:
    """``write`` every item, ``workers`` at a time; the first ``StoreUnavailable`` stops all."""
    stop = threading.Event()

    def one(item: T) -> None:
        if not stop.is_set():
            try:
                write(item)
            except StoreUnavailable:
                stop.set()
                raise

    with ThreadPoolExecutor(max(1, workers)) as pool:
        futures = [pool.submit(one, item) for item in items]
    for future in futures:
        future.result()  # re-raises the store's failure once every request has ended


def _write_update(remote: RemoteStore, graphs: list[SourceGraph], batch_size: int,
                  outcome: Outcome, records: bool = False) -> None:
    """Graphs that fit a batch: several per request; bigger ones through a temporary graph."""
    def fits(graph: SourceGraph) -> bool:  # blank nodes must stay within one request
        return graph.size <= batch_size or graph.has_blank_nodes

    for group in _chunks([g for g in graphs if fits(g)], _size, batch_size):
        _write_group(group, lambda gs: _replace_by_update(remote, gs, records),
                     _update_one(remote, batch_size, records), outcome)
    for graph in (g for g in graphs if not fits(g)):
        _write_group([graph], None, _update_one(remote, batch_size, records), outcome)


def _update_one(remote: RemoteStore, batch_size: int,
                records: bool) -> Callable[[SourceGraph], None]:
    """Replace one graph by SPARQL Update: one request, or a temporary graph and a MOVE."""
    def one(graph: SourceGraph) -> None:
        if graph.size <= batch_size or graph.has_blank_nodes:
            _replace_by_update(remote, [graph], records)
        else:
            _replace_in_batches(remote, graph, batch_size, records)
    return one


def _chunks(items: list[T], size: Callable[[T], int], limit: int) -> Iterator[list[T]]:
    """Consecutive items of at most ``limit`` in total size (a bigger item goes alone)."""
    chunk: list[T] = []
    total = 0
    for item in items:
        if chunk and total + size(item) > limit:
            yield chunk
            chunk, total = [], 0
        chunk.append(item)
        total += size(item)
    if chunk:
        yield chunk


def _size(graph: SourceGraph) -> int:
    return graph.size


def _write_group(group: list[SourceGraph],
                 send_group: Callable[[list[SourceGraph]], None] | None,
                 send_one: Callable[[SourceGraph], None], outcome: Outcome) -> None:
    """One request for a group; if the store rejects it, one per graph to find the culprit."""
    if send_group is not None and len(group) > 1:
        outcome.update((graph.label, SENT) for graph in group)
        try:
            send_group(group)
        except StoreUnavailable:
            raise
        except StoreError:
            pass
        else:
            outcome.update((graph.label, None) for graph in group)
            return
    for graph in group:
        outcome[graph.label] = SENT
        try:
            send_one(graph)
        except StoreUnavailable:
            raise
        except StoreError as e:
            outcome[graph.label] = str(e)
        else:
            outcome[graph.label] = None


def _ntriples(triples: list[ox.Triple]) -> bytes:
    """N-Triples with the standard escaping (quotes, backslashes, newlines, controls)."""
    return ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES) or b""


def _post_quads(remote: RemoteStore, graphs: list[SourceGraph], bulk: bool,
                records: bool) -> None:
    """One POST of several new graphs, with their digests when ``records``."""
    digests = {str(g.name): str(g.digest) for g in graphs if g.digest} if records else {}
    body = b"".join(graph.nquads() for graph in graphs) + digest_quads(digests)
    remote.post_quads(body, f"{graphs[0].label} and {len(graphs) - 1} more", bulk)


def _target(name: str | None) -> str:
    return f"GRAPH <{name}>" if name else "DEFAULT"


def _insert_data(name: str | None, triples: list[ox.Triple]) -> str:
    """``INSERT DATA``: the N-Triples lines are valid SPARQL, escapes included."""
    body = _ntriples(triples).decode()
    return f"INSERT DATA {{ GRAPH <{name}> {{\n{body}}} }}" if name else \
        f"INSERT DATA {{\n{body}}}"


def _replace_by_update(remote: RemoteStore, graphs: list[SourceGraph],
                       records: bool = False) -> None:
    """``DROP SILENT`` + ``INSERT DATA`` per graph, all in one request: one transaction
    (with ``records``, each graph's digest is replaced in it too)."""
    operations = " ;\n".join(
        f"DROP SILENT {_target(g.name)} ;\n{_insert_data(g.name, g.triples)}"
        + (f" ;\n{replace_record(str(g.name), g.digest)}" if records and g.digest else "")
        for g in graphs
    )
    label = graphs[0].label if len(graphs) == 1 else f"{graphs[0].label} and more"
    remote.update(operations, label)


def _replace_in_batches(remote: RemoteStore, graph: SourceGraph, batch_size: int,
                        records: bool = False) -> None:
    """Fill a temporary graph batch by batch, then ``MOVE`` it over the target in one step."""
    tmp = TMP_GRAPH_PREFIX + hashlib.sha256(graph.label.encode()).hexdigest()[:32]
    try:
        triples = graph.triples
        for start in range(0, len(triples), batch_size):
            insert = _insert_data(tmp, triples[start:start + batch_size])
            # DROP first: a load killed half-way may have left this temporary graph behind.
            first = f"DROP SILENT GRAPH <{tmp}> ;\n{insert}"
            remote.update(first if start == 0 else insert, graph.label)
        # SILENT: if a retried MOVE already went through, the temporary graph is gone.
        move = f"MOVE SILENT GRAPH <{tmp}> TO {_target(graph.name)}"
        if records and graph.digest:
            move += f" ;\n{replace_record(str(graph.name), graph.digest)}"
        remote.update(move, graph.label)
    except StoreError:
        remote.update_quietly(f"DROP SILENT GRAPH <{tmp}>")
        raise
