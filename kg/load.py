"""Push a built dataset into an external SPARQL 1.1 store over HTTP (``kg load``).

Each graph of the build (one per article, plus the corpus-level entities graph) is replaced
as a whole, so loading is idempotent and a re-load rewrites only what changed:

1. read the source (TriG/N-Quads file or rdflib ``Dataset``) into graphs of triples;
2. ask the store how many triples it holds in each graph, fetch those whose count matches
   and compare (``dry_run`` fetches every stored graph and reports triples to add and remove);
3. replace each new or changed graph with the Graph Store Protocol (``PUT`` per graph; new
   graphs go in N-Quads batches where the store takes them) or SPARQL Update (``DROP SILENT``
   + ``INSERT DATA`` in one request when the graph fits a batch, else batches into a temporary
   graph and one ``MOVE``). A graph is never left half-replaced.

A graph the store rejects is reported and the others still load; an unreachable store or
refused credentials raise ``StoreError``, saying how far the load got. HTTP, retries and
credentials live in ``kg.remote_store``.

>>> report = load_dataset("output/graph.trig", "http://127.0.0.1:7878", preset="oxigraph")
... # doctest: +SKIP
>>> print(report.summary())  # doctest: +SKIP
loaded 4 graphs (1,210 triples) into http://127.0.0.1:7878/store in 0.1 s; 0 unchanged, 0 failed
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeVar

import httpx
import pyoxigraph as ox

from kg.errors import GraphError, InputError, StoreError
from kg.remote_store import (
    PRESETS,
    Credentials,
    Protocol,
    RemoteStore,
    StoreUnavailable,
    connect,
    endpoints_for,
    split_userinfo,
)
from kg.store import graph_format

if TYPE_CHECKING:
    from rdflib import Graph

__all__ = [
    "DEFAULT_BATCH_SIZE", "PRESETS", "Credentials", "GraphResult", "LoadReport", "load_dataset",
    "read_source",
]

T = TypeVar("T")
Status = Literal["new", "changed", "unchanged", "loaded", "failed"]

#: Triples per request; measured in bench/RESULTS-load.md.
DEFAULT_BATCH_SIZE = 20_000
#: Where ``whole_graph="default"`` puts everything: the store's default graph.
DEFAULT_GRAPH_NAME = "default"
TMP_GRAPH_PREFIX = "urn:kgnews:load-tmp:"
XSD = "http://www.w3.org/2001/XMLSchema#"


@dataclass(frozen=True, slots=True)
class GraphResult:
    """What happened (or, in a dry run, would happen) to one graph."""

    graph: str
    triples: int
    status: Status
    added: int | None = None  # triples the store gains; None when not compared
    removed: int | None = None
    reason: str = ""

    def line(self) -> str:
        """One line for the report, e.g. ``changed  <https://…/a1>  +3 -1``."""
        counts = "" if self.added is None else f"  +{self.added} -{self.removed}"
        reason = f"  {self.reason}" if self.reason else ""
        return f"{self.status:<9} <{self.graph}>  {self.triples} triples{counts}{reason}"


@dataclass(frozen=True, slots=True)
class LoadReport:
    """The outcome of ``load_dataset``: one ``GraphResult`` per source graph."""

    endpoint: str
    protocol: Protocol
    dry_run: bool
    graphs: tuple[GraphResult, ...]
    seconds: float

    def count(self, status: Status) -> int:
        return sum(1 for g in self.graphs if g.status == status)

    @property
    def ok(self) -> bool:
        return self.count("failed") == 0

    @property
    def triples(self) -> int:
        return sum(g.triples for g in self.graphs if g.status == "loaded")

    def summary(self) -> str:
        """A few lines for people: totals, then every graph that needs attention."""
        if self.dry_run:
            head = (f"dry run against {self.endpoint}: {self.count('new')} new, "
                    f"{self.count('changed')} changed, {self.count('unchanged')} unchanged "
                    "graphs; nothing written")
            shown = [g for g in self.graphs if g.status != "unchanged"]
        else:
            head = (f"loaded {self.count('loaded')} graphs ({self.triples:,} triples) into "
                    f"{self.endpoint} in {self.seconds:.1f} s; {self.count('unchanged')} "
                    f"unchanged, {self.count('failed')} failed")
            shown = [g for g in self.graphs if g.status == "failed"]
        return "\n".join([head, *(g.line() for g in shown)])


@dataclass(frozen=True, slots=True)
class SourceGraph:
    """One graph to load: its name (``None`` = default graph) and its distinct triples."""

    name: str | None
    triples: list[ox.Triple]
    has_blank_nodes: bool = False

    @property
    def label(self) -> str:
        return self.name or DEFAULT_GRAPH_NAME


# -- reading the source ---------------------------------------------------------------------


def read_source(source: str | Path | Graph, whole_graph: str | None = None) -> list[SourceGraph]:
    """The graphs of a TriG/N-Quads/Turtle file or an rdflib ``Dataset``, in file order.

    ``whole_graph`` merges everything into that graph IRI (``"default"``: the default graph).

    >>> [g.label for g in read_source("output/graph.trig")]  # doctest: +SKIP
    ['https://w3id.org/kgnews/id/graph/article/…', 'https://w3id.org/kgnews/id/graph/entities']
    """
    merged = whole_graph is not None
    groups: dict[object, dict[ox.Triple, None]] = {}
    for quad in _quads(source):
        groups.setdefault(None if merged else quad.graph_name, {})[quad.triple] = None
    graphs = [
        SourceGraph(_graph_name(key, whole_graph), list(triples),
                    any(_has_blank_node(t) for t in triples))
        for key, triples in groups.items()
    ]
    _refuse_shared_blank_nodes(graphs)
    return graphs


def _graph_name(key: object, whole_graph: str | None) -> str | None:
    if whole_graph is not None:
        return None if whole_graph == DEFAULT_GRAPH_NAME else whole_graph
    if isinstance(key, ox.NamedNode):
        return key.value
    if isinstance(key, ox.BlankNode):
        raise InputError(f"graph _:{key.value} is named by a blank node, which no store can "
                         "address; name it with an IRI or use --whole-graph")
    return None


def _quads(source: str | Path | Graph) -> Iterable[ox.Quad]:
    if not isinstance(source, str | Path):
        fmt = "nquads" if source.context_aware else "nt"
        data = source.serialize(format=fmt, encoding="utf-8")
        return list(ox.parse(data, format=ox.RdfFormat.N_QUADS))
    path = Path(source)
    try:
        return list(ox.parse(path=str(path), format=graph_format(path)))
    except SyntaxError as e:
        raise GraphError(f"{path} is not valid {graph_format(path).name}: {e}") from e
    except FileNotFoundError:
        raise GraphError(f"graph file {path} not found; build one with `kg build`") from None
    except OSError as e:
        raise GraphError(f"cannot read graph file {path}: {e.strerror or e}") from e


def _has_blank_node(triple: ox.Triple) -> bool:
    return isinstance(triple.subject, ox.BlankNode) or isinstance(triple.object, ox.BlankNode)


def _refuse_shared_blank_nodes(graphs: list[SourceGraph]) -> None:
    """Graphs load one by one, so a blank node shared by two of them would split in two."""
    owner: dict[ox.BlankNode, str] = {}
    for graph in (g for g in graphs if g.has_blank_nodes):
        for triple in graph.triples:
            for term in (triple.subject, triple.object):
                if isinstance(term, ox.BlankNode) and owner.setdefault(term, graph.label) \
                        != graph.label:
                    raise InputError(
                        f"blank node _:{term.value} is used in graphs <{owner[term]}> and "
                        f"<{graph.label}>; they load separately and would get two nodes. "
                        "Give it an IRI or use --whole-graph"
                    )


# -- comparing with the store ---------------------------------------------------------------


def _plan(remote: RemoteStore, graphs: list[SourceGraph], exact: bool) -> list[GraphResult]:
    """New, changed or unchanged per graph; ``exact`` fetches every stored graph to count."""
    counts = remote.counts([g.name for g in graphs if g.name])
    stored = [counts.get(g.name) if counts is not None and g.name else None for g in graphs]
    wanted = [g for g, n in zip(graphs, stored, strict=True)
              if n is None or (n > 0 and (exact or n == len(g.triples)))]
    current = {g.label: remote.fetch(g.name) for g in wanted}
    results = []
    for graph, count in zip(graphs, stored, strict=True):
        size = len(graph.triples)
        if graph.label in current:
            results.append(_compare(graph, current[graph.label], count))
        else:
            new = count == 0
            results.append(GraphResult(graph.label, size, "new" if new else "changed",
                                       size if new else None, 0 if new else None))
    return results


def _compare(graph: SourceGraph, current: list[ox.Triple], stored: int | None) -> GraphResult:
    size = len(graph.triples)
    if not current and not stored:
        return GraphResult(graph.label, size, "new", size, 0)
    if graph.has_blank_nodes or any(_has_blank_node(t) for t in current):
        same = stored in (None, size) and _canonical(graph.triples) == _canonical(current)
        added, removed = (0, 0) if same else (size, len(current))
    else:
        mine, theirs = {_comparable(t) for t in graph.triples}, {_comparable(t) for t in current}
        added, removed = len(mine - theirs), len(theirs - mine)
        removed += max(0, (stored or 0) - len(current))  # rows a store cut off from the answer
    status: Status = "unchanged" if added == removed == 0 else "changed"
    return GraphResult(graph.label, size, status, added, removed)


def _canonical(triples: list[ox.Triple]) -> ox.Dataset:
    dataset = ox.Dataset(ox.Quad(t.subject, t.predicate, t.object) for t in triples)
    dataset.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)
    return dataset


def _decimal(lexical: str) -> str:
    return str(Decimal(lexical).normalize())


_CANONICAL: dict[str, Callable[[str], str]] = {
    XSD + "integer": lambda v: str(int(v)), XSD + "decimal": _decimal,
    XSD + "double": lambda v: repr(float(v)), XSD + "float": lambda v: repr(float(v)),
}


def _comparable(triple: ox.Triple) -> ox.Triple:
    """Stores rewrite numbers to canonical form ("01" → "1"): compare values, not spellings."""
    term = triple.object
    if not isinstance(term, ox.Literal) or term.datatype.value not in _CANONICAL:
        return triple
    canonical = _CANONICAL[term.datatype.value]
    try:
        value = ox.Literal(canonical(term.value), datatype=term.datatype)
    except (ValueError, ArithmeticError):
        return triple
    return ox.Triple(triple.subject, triple.predicate, value)


# -- writing --------------------------------------------------------------------------------

Item = tuple[SourceGraph, GraphResult]


def _write_all(remote: RemoteStore, items: list[Item], protocol: Protocol,
               batch_size: int) -> list[GraphResult]:
    """Replace every graph in ``items``; a fatal error says how far the load got."""
    done: list[GraphResult] = []
    try:
        if protocol == "gsp":
            _write_gsp(remote, items, batch_size, done)
        else:
            _write_update(remote, items, batch_size, done)
    except StoreUnavailable as e:
        loaded = sum(1 for r in done if r.status == "loaded")
        raise StoreError(f"{e}. {loaded} of {len(items)} graphs to write were written, each one "
                         "completely; the others are untouched: run the load again to finish"
                         ) from e
    return done


def _write_gsp(remote: RemoteStore, items: list[Item], batch_size: int,
               done: list[GraphResult]) -> None:
    """New graphs in N-Quads batches where the store takes them, every other one by PUT."""
    def put(graph: SourceGraph) -> None:
        remote.put(graph.name, _ntriples(graph.triples))

    batched = [i for i in items if i[1].status == "new"] if remote.endpoints.post_quads else []
    for group in _chunks(batched, _triples, batch_size):
        _write_group(group, lambda graphs: _post_quads(remote, graphs), put, done)
    for item in (i for i in items if i not in batched):
        _write_group([item], None, put, done)


def _write_update(remote: RemoteStore, items: list[Item], batch_size: int,
                  done: list[GraphResult]) -> None:
    """Graphs that fit a batch: several per request; bigger ones through a temporary graph."""
    def fits(graph: SourceGraph) -> bool:  # blank nodes must stay within one request
        return len(graph.triples) <= batch_size or graph.has_blank_nodes

    def one(graph: SourceGraph) -> None:
        _replace_by_update(remote, [graph])

    for group in _chunks([i for i in items if fits(i[0])], _triples, batch_size):
        _write_group(group, lambda graphs: _replace_by_update(remote, graphs), one, done)
    for item in (i for i in items if not fits(i[0])):
        _write_group([item], None, lambda g: _replace_in_batches(remote, g, batch_size), done)


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


def _triples(item: Item) -> int:
    return len(item[0].triples)


def _write_group(group: list[Item], send_group: Callable[[list[SourceGraph]], None] | None,
                 send_one: Callable[[SourceGraph], None], done: list[GraphResult]) -> None:
    """One request for a group; if the store rejects it, one per graph to find the culprit."""
    if send_group is not None and len(group) > 1:
        try:
            send_group([graph for graph, _ in group])
        except StoreUnavailable:
            raise
        except StoreError:
            pass
        else:
            done.extend(replace(result, status="loaded") for _, result in group)
            return
    for graph, result in group:
        try:
            send_one(graph)
        except StoreUnavailable:
            raise
        except StoreError as e:
            done.append(replace(result, status="failed", reason=str(e)))
        else:
            done.append(replace(result, status="loaded"))


def _ntriples(triples: list[ox.Triple]) -> bytes:
    """N-Triples with the standard escaping (quotes, backslashes, newlines, controls)."""
    return ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES) or b""


def _post_quads(remote: RemoteStore, graphs: list[SourceGraph]) -> None:
    quads = [ox.Quad(t.subject, t.predicate, t.object, ox.NamedNode(g.label))
             for g in graphs for t in g.triples]
    body = ox.serialize(quads, format=ox.RdfFormat.N_QUADS) or b""
    remote.post_quads(body, f"{graphs[0].label} and {len(graphs) - 1} more")


def _target(name: str | None) -> str:
    return f"GRAPH <{name}>" if name else "DEFAULT"


def _insert_data(name: str | None, triples: list[ox.Triple]) -> str:
    """``INSERT DATA``: the N-Triples lines are valid SPARQL, escapes included."""
    body = _ntriples(triples).decode()
    return f"INSERT DATA {{ GRAPH <{name}> {{\n{body}}} }}" if name else \
        f"INSERT DATA {{\n{body}}}"


def _replace_by_update(remote: RemoteStore, graphs: list[SourceGraph]) -> None:
    """``DROP SILENT`` + ``INSERT DATA`` per graph, all in one request: one transaction."""
    operations = " ;\n".join(
        f"DROP SILENT {_target(g.name)} ;\n{_insert_data(g.name, g.triples)}" for g in graphs
    )
    label = graphs[0].label if len(graphs) == 1 else f"{graphs[0].label} and more"
    remote.update(operations, label)


def _replace_in_batches(remote: RemoteStore, graph: SourceGraph, batch_size: int) -> None:
    """Fill a temporary graph batch by batch, then ``MOVE`` it over the target in one step."""
    tmp = TMP_GRAPH_PREFIX + hashlib.sha256(graph.label.encode()).hexdigest()[:32]
    try:
        for start in range(0, len(graph.triples), batch_size):
            insert = _insert_data(tmp, graph.triples[start:start + batch_size])
            # DROP first: a load killed half-way may have left this temporary graph behind.
            first = f"DROP SILENT GRAPH <{tmp}> ;\n{insert}"
            remote.update(first if start == 0 else insert, graph.label)
        # SILENT: if a retried MOVE already went through, the temporary graph is gone.
        remote.update(f"MOVE SILENT GRAPH <{tmp}> TO {_target(graph.name)}", graph.label)
    except StoreError:
        remote.update_quietly(f"DROP SILENT GRAPH <{tmp}>")
        raise


# -- the entry point ------------------------------------------------------------------------


def load_dataset(
    source: str | Path | Graph,
    endpoint: str,
    *,
    protocol: Protocol = "gsp",
    preset: str | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    auth: Credentials | None = None,
    whole_graph: str | None = None,
    dry_run: bool = False,
    verify: bool = True,
    timeout: float = 60.0,
    retries: int = 3,
    transport: httpx.BaseTransport | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> LoadReport:
    """Replace each graph of ``source`` that differs from the store's copy at ``endpoint``.

    ``source`` is a graph file (``.trig``, ``.nq``, ...) or an rdflib ``Dataset``;
    ``endpoint`` a base URL with ``preset`` (oxigraph, virtuoso, fuseki, graphdb), else the
    Graph Store URL (``gsp``) or the SPARQL Update URL (``update``, also used for queries).
    ``whole_graph`` loads everything into that one graph IRI (``"default"``: default graph).
    ``dry_run`` only compares. ``verify=False`` skips TLS certificate checks; ``transport``
    and ``sleep`` are for tests. Raises ``StoreError`` when the store cannot be used at all.

    >>> load_dataset("output/graph.trig", "http://127.0.0.1:7878", preset="oxigraph",
    ...              dry_run=True).count("new")  # doctest: +SKIP
    4
    """
    started = time.monotonic()
    if batch_size < 1 or retries < 0 or timeout <= 0:
        raise InputError("batch size and timeout must be positive, retries zero or more")
    url, url_credentials = split_userinfo(endpoint)
    ends = endpoints_for(url, protocol, preset)
    write_url = ends.store if protocol == "gsp" else ends.update
    graphs = read_source(source, whole_graph)
    with connect(ends, auth or url_credentials, verify=verify, timeout=timeout, retries=retries,
                 transport=transport, sleep=sleep) as remote:
        plan = _plan(remote, graphs, exact=dry_run)
        results = plan if dry_run else _apply(remote, graphs, plan, protocol, batch_size)
    return LoadReport(str(write_url), protocol, dry_run, tuple(results),
                      time.monotonic() - started)


def _apply(remote: RemoteStore, graphs: list[SourceGraph], plan: list[GraphResult],
           protocol: Protocol, batch_size: int) -> list[GraphResult]:
    """Write what the plan marks new or changed; results come back in source order."""
    todo = [(g, r) for g, r in zip(graphs, plan, strict=True) if r.status != "unchanged"]
    written = {r.graph: r for r in _write_all(remote, todo, protocol, batch_size)}
    return [written.get(r.graph, r) for r in plan]
