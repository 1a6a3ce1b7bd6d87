"""Graph files written one named graph at a time, so a corpus's triples are never all in memory.

``kg.rdf.graph.corpus_graphs`` hands over each article's graph, then the entities graph.
Each graph's triples are written as N-Triples statements (the canonical form Oxigraph
prints), made unique
and sorted; Oxigraph parses that text and serialises it in each format, and the pieces are
appended to every output file in graph order. The same input therefore always gives the same
bytes, and memory holds one graph at a time. Going through text is the fast path: building a
Python object per term for Oxigraph costs twice as much as formatting the text and letting
Oxigraph's parser (Rust) build the terms.

* TriG and N-Quads get one block per named graph.
* Turtle and N-Triples hold the union: a triple already written by an earlier graph is left
  out. Only triples about nodes outside ``<base>article/`` can recur (an article's own nodes
  are described only in its own graph, see ``kg.rdf.terms``), so only those are remembered. Turtle
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
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import pyoxigraph as ox
from rdflib import BNode, Literal, URIRef
from rdflib.namespace import XSD

from kg.atomic import atomic_writer
from kg.errors import BuildError
from kg.rdf.namespaces import PREFIXES
from kg.rdf.serialize import FORMATS, serialize_oxigraph
from kg.rdf.terms import Triple

GRAPH_STEM = "graph"
# N-Triples string escapes, as Oxigraph prints them (so sorting text sorts as Oxigraph would).
_ESCAPES = str.maketrans({
    **{chr(c): f"\\u{c:04X}" for c in (*range(0x20), 0x7F)},
    "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\",
})
_XSD_STRING = str(XSD.string)


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
    union = UnionFilter(f"<{base}article/")
    names = [_name(fmt) for fmt in dict.fromkeys(formats)]
    with ExitStack() as stack:
        sinks = [_sink(fmt, stack.enter_context(atomic_writer(out_dir / name)))
                 for fmt, name in zip(dict.fromkeys(formats), names, strict=True)]
        for graph, triples in graphs:
            block = sorted_block(triples)
            new = union.new_statements(block)
            for sink in sinks:
                sink.add(block if sink.keeps_graphs else new, nt_term(graph))
        for sink in sinks:
            sink.finish()
    return WrittenGraph(tuple(out_dir / n for n in names),
                        {s.name: s.sha256() for s in sinks}, union.count)


def _name(fmt: str) -> str:
    return f"{GRAPH_STEM}.{FORMATS[fmt][2]}"


def nt_term(term: Any) -> str:
    """An rdflib term in N-Triples syntax, as Oxigraph writes it.

    >>> nt_term(Literal(3)), nt_term(Literal("x", lang="en"))
    ('"3"^^<http://www.w3.org/2001/XMLSchema#integer>', '"x"@en')
    """
    kind = type(term)
    if kind is URIRef:
        return f"<{term}>"
    if kind is Literal:
        text = str(term).translate(_ESCAPES)
        if term.language:
            return f'"{text}"@{term.language}'
        datatype = term.datatype
        if datatype is None or str(datatype) == _XSD_STRING:
            return f'"{text}"'
        return f'"{text}"^^<{datatype}>'
    if kind is BNode:
        return f"_:{term}"
    raise TypeError(f"not an RDF term: {term!r}")


def sorted_block(triples: Iterable[Triple]) -> list[str]:
    """A graph's triples as unique N-Triples statements (without the final " ."), sorted.

    >>> sorted_block([(URIRef("b:"), URIRef("p:"), URIRef("o:"))] * 2)
    ['<b:> <p:> <o:>']
    """
    return sorted({f"{nt_term(s)} {nt_term(p)} {nt_term(o)}" for s, p, o in triples})


class UnionFilter:
    """Decides which statements of a block the union files still need; counts the union."""

    def __init__(self, local_prefix: str) -> None:
        self.local_prefix = local_prefix  # "<…article/": subjects only their own graph has
        self.seen: set[str] = set()  # other statements already written
        self.count = 0

    def new_statements(self, block: list[str]) -> list[str]:
        """The statements of ``block`` not yet in the union, in block order."""
        new = []
        for statement in block:
            if not statement.startswith(self.local_prefix):
                if statement in self.seen:
                    continue
                self.seen.add(statement)
            new.append(statement)
        self.count += len(new)
        return new


class _Sink:
    """One output file: appends serialised blocks and hashes what it writes."""

    def __init__(self, fmt: str, file: IO[bytes]) -> None:
        self.format, self.name = FORMATS[fmt][0], _name(fmt)
        self.keeps_graphs = FORMATS[fmt][1]
        self.file, self._hash = file, hashlib.sha256()
        self._header: bytes | None = None

    def add(self, statements: list[str], graph: str) -> None:
        """Append a graph's statements (its own graph, or the union's new ones)."""
        if statements:
            data = ox.serialize(self.parse(statements, graph), format=self.format,
                                prefixes=PREFIXES if self._has_prefixes() else None)
            assert data is not None
            self.write(self._without_repeated_header(data))

    def parse(self, statements: list[str], graph: str) -> Iterator[Any]:
        """Oxigraph's terms for ``statements``, in ``graph`` for the formats that keep it."""
        tail = f" {graph} .\n" if self.keeps_graphs else " .\n"
        text = tail.join(statements) + tail
        fmt = ox.RdfFormat.N_QUADS if self.keeps_graphs else ox.RdfFormat.N_TRIPLES
        try:
            yield from ox.parse(input=text.encode(), format=fmt)
        except SyntaxError as e:
            raise BuildError(f"cannot write graph {graph}: a term is not valid RDF: {e}") from e

    def _has_prefixes(self) -> bool:
        return self.format in (ox.RdfFormat.TURTLE, ox.RdfFormat.TRIG)

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

    def add(self, statements: list[str], graph: str) -> None:
        if statements:
            self.quads += self.parse(statements, graph)

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
