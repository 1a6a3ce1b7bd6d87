"""Push a built dataset into an external SPARQL 1.1 store over HTTP (``kg load``).

Each graph of the build (one per article, plus the corpus-level entities graph) is replaced
as a whole, so loading is idempotent and a re-load rewrites only what changed:

1. read the source (TriG/N-Quads file or rdflib ``Dataset``) into graphs of triples;
2. ask the store how many triples it holds in each graph and what kg last wrote there
   (``kg.remote.digests``): a graph whose record kg can trust is judged without reading it;
   the others are fetched when their count matches, and compared (``dry_run`` and
   ``compare`` fetch every stored graph; a dry run reports triples to add and remove);
3. replace each new or changed graph with the Graph Store Protocol (``PUT`` per graph; new
   graphs go in N-Quads batches where the store takes them, Oxigraph's through its bulk
   loader) or SPARQL Update (``DROP SILENT`` + ``INSERT DATA`` in one request when the graph
   fits a batch, else batches into a temporary graph and one ``MOVE``), each graph with its
   record where the store keeps them (then by SPARQL Update, not ``PUT``). A graph is never
   left half-replaced.

A graph the store rejects is reported and the others still load; an unreachable store or
refused credentials raise ``StoreError``, saying how far the load got. HTTP, retries and
credentials live in ``kg.remote.store``; how a graph is replaced in ``kg.remote.replacement``.

>>> report = load_dataset("output/graph.trig", "http://127.0.0.1:7878", preset="oxigraph")
... # doctest: +SKIP
>>> print(report.summary())  # doctest: +SKIP
loaded 4 graphs (1,210 triples) into http://127.0.0.1:7878/store in 0.1 s; 0 unchanged, 0 failed
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from decimal import Decimal
from itertools import groupby
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import httpx
import pyoxigraph as ox

from kg.collector import cycles_uncollected
from kg.errors import GraphError, InputError, StoreError
from kg.remote.client import Connection, Credentials, StoreUnavailable, split_userinfo
from kg.remote.digests import forget, read_digests, trusted
from kg.remote.replacement import DEFAULT_GRAPH_NAME, SourceGraph, replace_graphs
from kg.remote.store import PRESETS, Protocol, RemoteStore, connect, endpoints_for
from kg.remote.virtuoso import (
    SESSIONS,
    SqlLoad,
    SqlPort,
    SqlUnreachable,
    allowed_folder,
    load_graphs,
    sql_port,
)

if TYPE_CHECKING:
    from rdflib import Graph

__all__ = [
    "PRESETS", "Credentials", "GraphResult", "LoadReport", "load_dataset",
    "read_source",
]

#: Graphs read back from the store at the same time.
READERS = 4
Status = Literal["new", "changed", "unchanged", "loaded", "failed"]

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
    note: str = ""  # e.g. why Virtuoso's fast path was not taken

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
        notes = [self.note] if self.note else []
        return "\n".join([head, *notes, *(g.line() for g in shown)])


# -- reading the source ---------------------------------------------------------------------


def read_source(source: str | Path | Graph, whole_graph: str | None = None) -> list[SourceGraph]:
    """The graphs of a TriG/N-Quads/Turtle file or an rdflib ``Dataset``, in file order.

    ``whole_graph`` merges everything into that graph IRI (``"default"``: the default graph).

    >>> [g.label for g in read_source("output/graph.trig")]  # doctest: +SKIP
    ['https://w3id.org/kgnews/id/graph/article/…', 'https://w3id.org/kgnews/id/graph/entities']
    """
    with cycles_uncollected():  # quads hold no cycles: ~40% of reading the bench's graph
        return _read_source(source, whole_graph)




def _read_source(source: str | Path | Graph, whole_graph: str | None) -> list[SourceGraph]:
    quads: Iterable[ox.Quad] = _quads(source)
    if whole_graph is not None:
        target = ox.DefaultGraph() if whole_graph == DEFAULT_GRAPH_NAME \
            else ox.NamedNode(whole_graph)
        quads = [ox.Quad(q.subject, q.predicate, q.object, target) for q in quads]
    groups: dict[ox.NamedNode | ox.BlankNode | ox.DefaultGraph, list[ox.Quad]] = {}
    # A graph's quads come in runs (TriG blocks): group runs, not quads, in Python.
    for key, run in groupby(quads, key=attrgetter("graph_name")):
        groups.setdefault(key, []).extend(run)
    graphs = [SourceGraph(_graph_name(key), list(dict.fromkeys(items)))
              for key, items in groups.items()]
    _refuse_shared_blank_nodes(graphs)
    return graphs


def _check_graph_iri(iri: str) -> None:
    """``InputError`` for a ``whole_graph`` that is not an IRI a store can name a graph by.

    >>> _check_graph_iri("http://x/a>b")
    Traceback (most recent call last):
    kg.errors.InputError: 'http://x/a>b' is not a graph IRI: ...
    """
    try:
        ox.NamedNode(iri)
    except ValueError as e:
        raise InputError(f"{iri!r} is not a graph IRI: {e}; give an absolute IRI such as "
                         "https://example.org/graph, or 'default'") from None


def _graph_name(key: ox.NamedNode | ox.BlankNode | ox.DefaultGraph) -> str | None:
    if isinstance(key, ox.BlankNode):
        raise InputError(f"graph _:{key.value} is named by a blank node, which no store can "
                         "address; name it with an IRI or load everything into one graph")
    return key.value if isinstance(key, ox.NamedNode) else None


def _quads(source: str | Path | Graph) -> Iterable[ox.Quad]:
    if not isinstance(source, str | Path):
        fmt = "nquads" if source.context_aware else "nt"
        data = source.serialize(format=fmt, encoding="utf-8")
        return list(ox.parse(data, format=ox.RdfFormat.N_QUADS))
    path = Path(source)
    file_format = graph_format(path)
    try:
        return list(ox.parse(path=str(path), format=file_format))
    except SyntaxError as e:
        raise GraphError(f"{path} is not valid {file_format.name}: {e}") from e
    except FileNotFoundError:
        raise GraphError(f"graph file {path} not found; build one with `kg build`") from None
    except OSError as e:
        raise GraphError(f"cannot read graph file {path}: {e.strerror or e}") from e


#: The formats of kg.store.embedded.GRAPH_FORMATS, in its order (tests/test_load.py keeps them
#: in step): named here because kg.store brings rdflib and kg's model, ~0.12 s of every load.
GRAPH_FILE_FORMATS = (ox.RdfFormat.TRIG, ox.RdfFormat.N_QUADS, ox.RdfFormat.TURTLE,
                      ox.RdfFormat.N_TRIPLES, ox.RdfFormat.JSON_LD)


def graph_format(path: Path) -> ox.RdfFormat:
    """kg.store's format for a graph file's extension, and its error for any other.

    >>> graph_format(Path("output/graph.nq")).name
    'N-Quads'
    """
    extension = path.suffix.lower().removeprefix(".")
    fmt = ox.RdfFormat.from_extension(extension)
    if fmt in GRAPH_FILE_FORMATS and fmt.file_extension == extension:
        return fmt
    known = ", ".join(f".{known.file_extension}" for known in GRAPH_FILE_FORMATS)
    raise GraphError(f"{path}: unknown graph format {path.suffix!r}; use one of {known}")


def _has_blank_node(triple: ox.Triple | ox.Quad) -> bool:
    # ``type() is``, not isinstance: called once per triple of the build, twice as fast.
    return type(triple.subject) is ox.BlankNode or type(triple.object) is ox.BlankNode


def _refuse_shared_blank_nodes(graphs: list[SourceGraph]) -> None:
    """Graphs load one by one, so a blank node shared by two of them would split in two."""
    owner: dict[ox.BlankNode, str] = {}
    for graph in (g for g in graphs if g.has_blank_nodes):
        for quad in graph.quads:
            for term in (quad.subject, quad.object):
                if isinstance(term, ox.BlankNode) and owner.setdefault(term, graph.label) \
                        != graph.label:
                    raise InputError(
                        f"blank node _:{term.value} is used in graphs <{owner[term]}> and "
                        f"<{graph.label}>; they load separately and would get two nodes. "
                        "Give it an IRI or load everything into one graph"
                    )


def _refuse_lossy_update(graphs: list[SourceGraph], lossy: frozenset[str],
                        preset: str | None) -> None:
    """Refuse to load literals the store's SPARQL Update would give another datatype."""
    for graph in graphs if lossy else []:
        for quad in graph.quads:
            term = quad.object
            if isinstance(term, ox.Literal) and term.datatype.value in lossy:
                raise InputError(
                    f"{preset}'s SPARQL Update can change the datatype of literals such as "
                    f"{term} (in <{graph.label}>); load it with the Graph Store Protocol (gsp), "
                    "which keeps every datatype"
                )


# -- comparing with the store ---------------------------------------------------------------


def _plan(remote: RemoteStore, graphs: list[SourceGraph], exact: bool,
          digests: bool) -> tuple[list[GraphResult], list[str]]:
    """New, changed or unchanged per graph, and the stale records of graphs now absent.

    ``exact`` fetches every stored graph to count; otherwise, with ``digests``, kg's records
    of what it wrote decide where they can be trusted (``kg.remote.digests``).
    """
    names = [g.name for g in graphs if g.name]
    counts = remote.counts(names)
    records = read_digests(remote, names) if digests and counts is not None else {}

    def plan_one(graph: SourceGraph) -> GraphResult:
        count = counts.get(graph.name) if counts and graph.name else None
        mine = graph.digest if records and not exact else None
        theirs = trusted(records.get(str(graph.name)), count) if mine else None
        if theirs and count:
            return GraphResult(graph.label, graph.size,
                               "unchanged" if theirs == mine else "changed")
        return _plan_one(remote, graph, count, exact)

    # Reading graphs back is mostly waiting for the store: a few at a time.
    with ThreadPoolExecutor(READERS) as pool:
        plan = list(pool.map(plan_one, graphs))
    stale = [name for name in records if counts and not counts.get(name)]
    return plan, stale


def _plan_one(remote: RemoteStore, graph: SourceGraph, count: int | None,
              exact: bool) -> GraphResult:
    size = graph.size
    if count == 0:
        return GraphResult(graph.label, size, "new", size, 0)
    if count is not None and count != size and not exact:
        return GraphResult(graph.label, size, "changed")  # no need to read it back
    copy = _fetch(remote, graph, count)
    return GraphResult(graph.label, size, "changed") if copy is None \
        else _compare(graph, copy, count)


def _fetch(remote: RemoteStore, graph: SourceGraph, count: int | None) -> list[ox.Triple] | None:
    """The store's copy, or ``None`` when it cannot be read back (it is then rewritten)."""
    try:
        return remote.fetch(graph.name, count)
    except StoreUnavailable:
        raise
    except StoreError:
        return None


def _compare(graph: SourceGraph, current: list[ox.Triple], stored: int | None) -> GraphResult:
    size, triples = graph.size, graph.triples
    if not current and not stored:
        return GraphResult(graph.label, size, "new", size, 0)
    if graph.has_blank_nodes or any(_has_blank_node(t) for t in current):
        same = stored in (None, size) and _canonical(triples) == _canonical(current)
        added, removed = (0, 0) if same else (size, len(current))
    else:
        mine, theirs = {_comparable(t) for t in triples}, {_comparable(t) for t in current}
        added, removed = len(mine - theirs), len(theirs - mine)
        removed += max(0, (stored or 0) - len(current))  # rows a store cut off from the answer
    status: Status = "unchanged" if added == removed == 0 else "changed"
    return GraphResult(graph.label, size, status, added, removed)


def _canonical(triples: list[ox.Triple]) -> ox.Dataset:
    dataset = ox.Dataset(ox.Quad(t.subject, t.predicate, t.object) for t in triples)
    dataset.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)
    return dataset


def _integer(lexical: str) -> tuple[str, str]:
    return str(int(lexical)), XSD + "integer"


def _date_time(lexical: str) -> tuple[str, str]:
    moment = datetime.fromisoformat(lexical)
    return (moment.astimezone(UTC) if moment.tzinfo else moment).isoformat(), XSD + "dateTime"


_INTEGER_TYPES = ("integer int long short byte nonNegativeInteger positiveInteger "
                  "nonPositiveInteger negativeInteger unsignedLong unsignedInt unsignedShort "
                  "unsignedByte").split()
#: datatype → (lexical form → the store's spelling and datatype). Oxigraph stores every
#: integer type as xsd:integer and xsd:dateTimeStamp as xsd:dateTime; stores write values
#: in canonical form ("01" → "1", "1.50" → "1.5", "+00:00" → "Z"). The values are the same.
_CANONICAL: dict[str, Callable[[str], tuple[str, str]]] = {
    **{XSD + name: _integer for name in _INTEGER_TYPES},
    XSD + "decimal": lambda v: (str(Decimal(v).normalize()), XSD + "decimal"),
    XSD + "double": lambda v: (repr(float(v)), XSD + "double"),
    XSD + "float": lambda v: (repr(float(v)), XSD + "float"),
    XSD + "dateTime": _date_time, XSD + "dateTimeStamp": _date_time,
}


def _comparable(triple: ox.Triple) -> ox.Triple:
    """The triple as a store may give it back: compare values, not spellings."""
    term = triple.object
    if not isinstance(term, ox.Literal) or term.datatype.value not in _CANONICAL:
        return triple
    try:
        lexical, datatype = _CANONICAL[term.datatype.value](term.value)
    except (ValueError, ArithmeticError):
        return triple
    return ox.Triple(triple.subject, triple.predicate,
                     ox.Literal(lexical, datatype=ox.NamedNode(datatype)))


# -- the entry point ------------------------------------------------------------------------


def load_dataset(
    source: str | Path | Graph,
    endpoint: str,
    *,
    protocol: Protocol = "gsp",
    preset: str | None = None,
    batch_size: int | None = None,
    auth: Credentials | None = None,
    whole_graph: str | None = None,
    dry_run: bool = False,
    bulk: bool = False,
    compare: bool = False,
    verify: bool = True,
    ca_cert: str | Path | None = None,
    timeout: float = 60.0,
    retries: int = 3,
    sql: int | None = None,
    sql_sessions: int | None = None,
    transport: httpx.BaseTransport | None = None,
    sleep: Callable[[float], None] = time.sleep,
    on_write: Callable[[int, int], None] | None = None,
) -> LoadReport:
    """Replace each graph of ``source`` that differs from the store's copy at ``endpoint``.

    ``source`` is a graph file (``.trig``, ``.nq``, ...) or an rdflib ``Dataset``;
    ``endpoint`` a base URL with ``preset`` (oxigraph, virtuoso, fuseki, graphdb), else the
    Graph Store URL (``gsp``) or the SPARQL Update URL (``update``, also used for queries).
    ``batch_size`` is triples per request (default: 5,000 per update, 100,000 per N-Quads
    POST of new graphs; 500 per update for Virtuoso).
    ``whole_graph`` loads everything into that one graph IRI (``"default"``: default graph).
    ``dry_run`` only compares. ``bulk`` adds new graphs without a transaction (the Oxigraph
    preset does so by default, a batch at a time, whole or not at all: ``bulk`` changes
    nothing there). ``compare`` reads every stored graph back instead of trusting kg's
    records of what it wrote (after editing kg's graphs in the store by hand).
    ``verify=False`` skips TLS certificate checks, ``ca_cert``
    trusts the certificates of a PEM file; ``timeout`` bounds each request; ``transport``
    and ``sleep`` are for tests; ``on_write(ended, failed)`` is told of every write request
    that ends (a progress line). Ten writes refused in a row stop the load. ``sql`` is
    Virtuoso's SQL port (default 1111): the virtuoso preset loads through it with
    ``isql-vt`` when it can (``kg.remote.virtuoso``), else by the Graph Store Protocol with
    a note in the report; ``sql_sessions`` is how many ``isql-vt`` sessions load at once
    (default ``kg.remote.virtuoso.SESSIONS``). Raises ``StoreError`` when the store cannot
    be used at all.

    >>> load_dataset("output/graph.trig", "http://127.0.0.1:7878", preset="oxigraph",
    ...              dry_run=True).count("new")  # doctest: +SKIP
    4
    """
    started = time.monotonic()
    if batch_size is not None and batch_size < 1:
        raise InputError("batch size must be positive")
    if sql_sessions is not None and sql_sessions < 1:
        raise InputError("the number of SQL sessions must be positive")
    url, url_credentials = split_userinfo(endpoint)
    if whole_graph is not None and whole_graph != DEFAULT_GRAPH_NAME:
        _check_graph_iri(whole_graph)
    connection = Connection(auth or url_credentials, verify, Path(ca_cert) if ca_cert else None,
                            timeout, retries=retries)
    ends = endpoints_for(url, protocol, preset)
    batch_size = batch_size or (ends.quads_batch_size if protocol == "gsp" else ends.batch_size)
    if bulk and (protocol != "gsp" or not ends.bulk_param):
        raise InputError("a bulk load needs the Graph Store Protocol (gsp) and a store that "
                         "loads without a transaction (the oxigraph preset)")
    write_url = ends.store if protocol == "gsp" else ends.update
    through_sql = preset == "virtuoso" and protocol == "gsp" and not dry_run and not bulk
    with connect(ends, connection, transport=transport, sleep=sleep) as remote, \
            ThreadPoolExecutor(1) as side:
        remote.on_write = on_write
        # The SQL port's checks only read from the store: they run while the source is
        # parsed (~0.1 s of the ~0.55 s parse). Their outcome is used, and their error
        # raised, only once the source is read and has new graphs.
        ready = side.submit(_sql_ready, remote, url, sql, connection.credentials) \
            if through_sql else None
        graphs = read_source(source, whole_graph)
        if protocol == "update":
            _refuse_lossy_update(graphs, ends.lossy_update, preset)
        # Records only where each can be written in the same request as its graph.
        digests = ends.query is not None and ends.update is not None and (
            protocol == "update" or ends.post_quads)
        plan, stale = _plan(remote, graphs, exact=dry_run or compare, digests=digests)
        new = [g for g, r in zip(graphs, plan, strict=True) if r.status == "new"]
        fast, note = (None, "")
        if ready is not None and new:
            fast, note = _through_sql(remote, ready.result(), new, sql_sessions or SESSIONS)
        results = plan if dry_run else _apply(remote, graphs, plan, protocol, batch_size, bulk,
                                              digests, stale, fast)
    return LoadReport(str(write_url), protocol, dry_run, tuple(results),
                      time.monotonic() - started, note)


def _sql_ready(remote: RemoteStore, url: str, port: int | None,
               credentials: Credentials | None) -> tuple[SqlPort, Path] | str:
    """Virtuoso's SQL port and a folder it reads, or why the fast path cannot be taken."""
    sql_or_why = sql_port(url, port, credentials)
    if isinstance(sql_or_why, str):
        return sql_or_why
    # Refused credentials stop here, over HTTP: isql-vt never tries a wrong password.
    remote.client.request("GET", str(remote.endpoints.update), "the credentials check",
                          params={"query": "ASK {}"})
    try:
        folder = allowed_folder(sql_or_why)
    except SqlUnreachable as e:
        return str(e)
    return folder if isinstance(folder, str) else (sql_or_why, folder)


def _through_sql(remote: RemoteStore, ready: tuple[SqlPort, Path] | str,
                 graphs: list[SourceGraph],
                 sessions: int) -> tuple[dict[str, str | None] | None, str]:
    """Add new graphs through Virtuoso's SQL port; else ``None`` and a note saying why not."""
    if isinstance(ready, str):
        why = ready
    elif any(graph.name is None for graph in graphs):
        why = "the default graph goes by the Graph Store Protocol"
    else:
        done = load_graphs(*ready, graphs, sessions)
        outcome = _checked_sql_load(remote, done.outcome, graphs)
        return outcome, _sql_note(done, outcome)
    return None, f"note: loaded by the Graph Store Protocol, not Virtuoso's SQL port: {why}"


def _sql_note(done: SqlLoad, outcome: dict[str, str | None]) -> str:
    """Says what did not go the fast way: batches loaded again, graphs redone by PUT."""
    notes = []
    if done.deadlocked:
        notes.append(f"{done.deadlocked} of {done.batches} batches through Virtuoso's SQL port "
                     "lost a deadlock with another session and were loaded again")
    redone = sum(1 for why in outcome.values() if why)
    if redone:
        notes.append(f"{redone} of {len(outcome)} new graphs went by PUT after Virtuoso's SQL "
                     "port (refused, or not held whole after its load)")
    return "note: " + "; ".join(notes) if notes else ""


def _checked_sql_load(remote: RemoteStore, outcome: dict[str, str | None],
                      graphs: list[SourceGraph]) -> dict[str, str | None]:
    """``outcome``, with every graph the store does not hold whole marked failed (it then goes
    by PUT): trust in ``TTLP_MT``'s success is checked by one count."""
    counts = remote.counts([str(g.name) for g in graphs if outcome.get(g.label) is None]) or {}
    for graph in graphs:
        held = counts.get(str(graph.name), graph.size)
        if outcome.get(graph.label) is None and held != graph.size:
            outcome[graph.label] = (f"Virtuoso's SQL port reported it loaded, but the store "
                                    f"holds {held} of its {graph.size} triples")
    return outcome


#: Times a graph found mixed with another load's version is written again.
REPAIRS = 2


def _repair_overlaps(remote: RemoteStore, written: list[SourceGraph], protocol: Protocol,
                     batch_size: int, outcome: dict[str, str | None], records: bool) -> None:
    """Count every graph written: one that holds fewer triples than were sent failed (a
    store answering ``200`` with an error in the body stored nothing); one that holds more
    is written again, and fails if that persists.

    Stores isolate transactions by snapshot: two loads replacing one graph at the same moment
    (PUT, or DROP + INSERT) can both commit, leaving the union of the two versions. Such a
    union is larger than either version, so a count finds it; writing it again alone (the
    other load has moved on) leaves one version.
    """
    todo = list(written)
    for attempt in range(REPAIRS + 1):
        counts = _written_counts(remote, todo)
        for graph in todo:
            held = counts.get(graph.label, graph.size)
            if held < graph.size:
                outcome[graph.label] = (f"the store answered that it was written but holds "
                                        f"{held} of its {graph.size} triples")
        # the default graph may be shown as the union of all graphs: only fewer is wrong
        todo = [g for g in todo if g.name and counts.get(g.label, 0) > g.size]
        if not todo:
            return
        if attempt < REPAIRS:
            outcome.update(replace_graphs(remote, todo, protocol, batch_size, records=records))
            todo = [g for g in todo if outcome.get(g.label) is None]
    for graph in todo:
        outcome[graph.label] = ("another writer replaced this graph at the same time and the "
                                "store kept both versions; load it again")


def _written_counts(remote: RemoteStore, graphs: list[SourceGraph]) -> dict[str, int]:
    """Triples the store holds in each graph (by label): counted by a query where the store
    has a query URL, else read back through the Graph Store Protocol."""
    named = [g for g in graphs if g.name]
    counted = remote.counts([str(g.name) for g in named]) if named else None
    found = {g.label: counted.get(str(g.name), 0) for g in named} if counted is not None \
        else {}
    for graph in graphs:
        if graph.label not in found and remote.endpoints.store:
            found[graph.label] = len(set(remote.fetch(graph.name)))
    return found


def _apply(remote: RemoteStore, graphs: list[SourceGraph], plan: list[GraphResult],
           protocol: Protocol, batch_size: int, bulk: bool, records: bool,
           stale: list[str], written: dict[str, str | None] | None = None) -> list[GraphResult]:
    """Write what the plan marks new or changed; results come back in source order.

    ``records`` writes each graph's digest with it; ``stale`` records (of graphs the store
    no longer holds) are removed first, so that the new one is the only one. ``written``:
    the outcome for graphs already loaded another way (Virtuoso's SQL port).
    """
    todo = [g for g, r in zip(graphs, plan, strict=True) if r.status != "unchanged"]
    new = frozenset(r.graph for r in plan if r.status == "new")
    if stale:
        try:
            forget(remote, stale)
        except StoreUnavailable:
            raise
        except StoreError:
            pass  # two records for a graph are never trusted: it is compared next time
    # A batch Virtuoso's SQL port refused (kept nothing of it) goes by PUT, graph by graph.
    done = {label: why for label, why in (written or {}).items() if why is None}
    outcome = {**done, **replace_graphs(remote, [g for g in todo if g.label not in done],
                                        protocol, batch_size, new, bulk, records)}
    written_now = [g for g in todo if outcome.get(g.label) is None]
    try:
        _repair_overlaps(remote, written_now, protocol, batch_size, outcome, records)
    except StoreUnavailable as e:  # the same type: refused credentials stay told apart
        raise type(e)(f"{e}. {len(written_now)} of {len(todo)} graphs to write were written, "
                      "each one completely, but counting them afterwards failed: run the load "
                      "again to check them") from e
    return [r if r.graph not in outcome
            else replace(r, status="loaded") if outcome[r.graph] is None
            else replace(r, status="failed", reason=str(outcome[r.graph])) for r in plan]
