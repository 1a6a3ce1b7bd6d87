"""Graph files written one named graph at a time, so a corpus's triples are never all in memory.

``kg.rdf.corpus_graphs`` hands over each article's graph, then the entities graph; each is
converted to Oxigraph terms, sorted by its N-Triples form and serialised on its own, and the
pieces are appended to every output file in that order. The same input therefore always gives
the same bytes, and memory holds one graph at a time.

* TriG and N-Quads get one block per named graph.
* Turtle and N-Triples hold the union: a triple already written by an earlier graph is left
  out. Only triples about nodes outside ``<base>article/`` can recur (an article's own nodes
  are described only in its own graph, see ``kg.rdf``), so only those are remembered. Turtle
  blocks may repeat a subject that an earlier block also described; that is valid Turtle.
* JSON-LD cannot be concatenated: asking for it keeps every quad until the end.

>>> import tempfile; from rdflib import URIRef, Literal
>>> s, p = URIRef("https://x.org/e/a"), URIRef("https://x.org/p")
>>> graphs = [(URIRef("https://x.org/g1"), [(s, p, Literal("x"))]),
...           (URIRef("https://x.org/g2"), [(s, p, Literal("x"))])]
>>> out = Path(tempfile.mkdtemp())
>>> write_graph_files(graphs, out, ["nt"], "https://x.org/").triples
1
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import pyoxigraph as ox
from rdflib import URIRef

from kg.namespaces import PREFIXES
from kg.output import atomic_writer
from kg.rdf import Triple
from kg.serialize import FORMATS, serialize_oxigraph, to_oxigraph

GRAPH_STEM = "graph"
Block = list[tuple[str, ox.Triple]]  # a graph's unique triples, sorted by N-Triples form


@dataclass(frozen=True)
class WrittenGraph:
    """What ``write_graph_files`` wrote: the files, their SHA-256 and the union's size."""

    outputs: tuple[Path, ...]
    hashes: dict[str, str]  # file name -> sha256 of its bytes
    triples: int  # distinct triples in the union of all graphs


def write_graph_files(graphs: Iterable[tuple[URIRef, Sequence[Triple]]], out_dir: Path,
                      formats: Sequence[str], base: str) -> WrittenGraph:
    """Write ``graphs`` to ``<out_dir>/graph.<ext>`` in each format, each file atomically."""
    out_dir.mkdir(parents=True, exist_ok=True)
    union = UnionFilter(f"{base}article/")
    convert = TermConverter()
    with ExitStack() as stack:
        sinks = [_sink(fmt, stack.enter_context(atomic_writer(out_dir / _name(fmt))))
                 for fmt in dict.fromkeys(formats)]
        quads_wanted = any(sink.keeps_graphs for sink in sinks)
        for graph, triples in graphs:
            block = sorted_block(triples, convert)
            new = union.new_triples(block)
            quads = in_graph(block, convert(graph)) if quads_wanted else []
            for sink in sinks:
                sink.add(quads if sink.keeps_graphs else new)
        for sink in sinks:
            sink.finish()
    outputs = tuple(out_dir / _name(fmt) for fmt in dict.fromkeys(formats))
    return WrittenGraph(outputs, {s.name: s.sha256() for s in sinks}, union.count)


def _name(fmt: str) -> str:
    return f"{GRAPH_STEM}.{FORMATS[fmt][2]}"


def sorted_block(triples: Iterable[Triple], convert: TermConverter) -> Block:
    """A graph's triples as unique Oxigraph triples, sorted by their N-Triples form."""
    unique = {ox.Triple(convert(s), convert(p), convert(o)) for s, p, o in triples}
    return sorted(((str(t), t) for t in unique), key=lambda pair: pair[0])


def in_graph(block: Block, graph: ox.NamedNode) -> list[ox.Quad]:
    """The block's triples as quads of ``graph``, in block order."""
    return [ox.Quad(t.subject, t.predicate, t.object, graph) for _, t in block]


class TermConverter:
    """rdflib terms → Oxigraph terms, remembering IRIs (predicates and classes recur a lot)."""

    LIMIT = 200_000  # IRIs remembered before starting afresh, to bound memory

    def __init__(self) -> None:
        self._iris: dict[str, Any] = {}

    def __call__(self, term: Any) -> Any:
        if type(term) is not URIRef:
            return to_oxigraph(term)
        node = self._iris.get(term)
        if node is None:
            if len(self._iris) >= self.LIMIT:
                self._iris.clear()
            node = self._iris[term] = ox.NamedNode(str(term))
        return node


class UnionFilter:
    """Decides which triples of a block the union files still need; counts the union."""

    def __init__(self, local_prefix: str) -> None:
        self.local_prefix = local_prefix
        self.seen: set[str] = set()  # N-Triples of non-local triples already written
        self.count = 0

    def new_triples(self, block: Block) -> list[ox.Triple]:
        """The triples of ``block`` not yet in the union, in block order."""
        new = []
        for text, triple in block:
            subject = triple.subject
            if not (isinstance(subject, ox.NamedNode) and subject.value.startswith(
                    self.local_prefix)):
                if text in self.seen:
                    continue
                self.seen.add(text)
            new.append(triple)
        self.count += len(new)
        return new


class _Sink:
    """One output file: appends serialised blocks and hashes what it writes."""

    def __init__(self, fmt: str, file: IO[bytes]) -> None:
        self.format, self.name = FORMATS[fmt][0], _name(fmt)
        self.keeps_graphs = FORMATS[fmt][1]
        self.file, self._hash = file, hashlib.sha256()
        self._header: bytes | None = None

    def add(self, items: list[Any]) -> None:
        """Append a graph: its quads, or for a union format the triples not yet written."""
        if items:
            self.write(self._without_repeated_header(self.serialize(items)))

    def serialize(self, items: list[Any]) -> bytes:
        prefixes = PREFIXES if self.format in (ox.RdfFormat.TURTLE, ox.RdfFormat.TRIG) else None
        data = ox.serialize(items, format=self.format, prefixes=prefixes)
        assert data is not None
        return data

    def _without_repeated_header(self, data: bytes) -> bytes:
        """The first block keeps its ``@prefix`` lines; later blocks drop the same lines."""
        if self._header is None:
            self._header = _prefix_header(data)
            return data
        assert data.startswith(self._header), "prefix header changed between blocks"
        return data[len(self._header):]

    def write(self, data: bytes) -> None:
        self.file.write(data)
        self._hash.update(data)

    def finish(self) -> None:
        """Nothing left to do for formats that stream."""

    def sha256(self) -> str:
        return self._hash.hexdigest()


class _JsonLdSink(_Sink):
    """JSON-LD is one document: collect every quad, serialise at the end."""

    def __init__(self, fmt: str, file: IO[bytes]) -> None:
        super().__init__(fmt, file)
        self.quads: list[ox.Quad] = []

    def add(self, items: list[Any]) -> None:
        self.quads += items

    def finish(self) -> None:
        self.write(serialize_oxigraph(sorted(self.quads, key=str), "jsonld"))
        self.quads = []


def _sink(fmt: str, file: IO[bytes]) -> _Sink:
    return _JsonLdSink(fmt, file) if fmt == "jsonld" else _Sink(fmt, file)


def _prefix_header(data: bytes) -> bytes:
    end = 0
    while data.startswith(b"@prefix ", end):
        end = data.index(b"\n", end) + 1
    return data[:end]
