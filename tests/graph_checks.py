"""Checks on a built graph, read back with pyoxigraph: article texts, exact anchors, IRIs.

They read what a consumer of the graph would read (the parsed file), not kg's objects, so a
serialiser that mangled a character would show up as a mismatch.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path

import pyoxigraph as ox
from rdflib import Graph

from kg.config import Settings
from kg.rdf.namespaces import GEONAMES, KG, NIF, PREFIXES, SDO
from kg.rdf.serialize import FORMATS

IS_STRING, ANCHOR_OF = str(NIF.isString), str(NIF.anchorOf)
BEGIN, END, CONTEXT = str(NIF.beginIndex), str(NIF.endIndex), str(NIF.referenceContext)
SOURCE_PATH = str(KG.sourcePath)

#: The only IRIs kg may write: a term of a bound vocabulary (a plain local name), a GeoNames
#: record, or a data IRI of slugs and hex digits with an optional offsets fragment. Raw article
#: or metadata text cannot pass this (``schema:url`` objects are checked apart).
_VOCABULARIES = sorted({re.escape(ns) for ns in PREFIXES.values()}, key=len, reverse=True)
STRICT_IRI = re.compile(
    rf"(?:{'|'.join(_VOCABULARIES)})[A-Za-z][A-Za-z0-9_]*"
    rf"|{re.escape(str(GEONAMES))}[0-9]+/"
    rf"|{re.escape(Settings().base_iri)}[a-z0-9-]+(?:/[a-z0-9-]+)*(?:#[a-z]+=[0-9]+,[0-9]+)?"
)
URL = str(SDO.url)


def read_quads(path: Path) -> list[ox.Quad]:
    """Every quad of a graph file, parsed by Oxigraph (format from the file's extension)."""
    return list(stream_quads(path))


def stream_quads(path: Path) -> Iterator[ox.Quad]:
    """The quads of a graph file one by one (for graphs too big to hold as Python objects)."""
    fmt = next(f for f, (_, _, ext) in FORMATS.items() if path.suffix == f".{ext}")
    return iter(ox.parse(path=str(path), format=FORMATS[fmt][0]))


#: The predicates the text and anchor checks read (the rest is not kept).
CHECKED = frozenset({IS_STRING, ANCHOR_OF, BEGIN, END, CONTEXT, SOURCE_PATH})


def values_by_subject(quads: Iterable[ox.Quad]) -> dict[str, dict[str, str]]:
    """subject IRI -> predicate IRI -> lexical value, for the ``CHECKED`` predicates."""
    table: defaultdict[str, dict[str, str]] = defaultdict(dict)
    for quad in quads:
        if quad.predicate.value in CHECKED:
            table[quad.subject.value][quad.predicate.value] = quad.object.value
    return dict(table)


def texts_by_source(quads: Iterable[ox.Quad]) -> dict[str, str]:
    """kg:sourcePath -> nif:isString of every article in the graph."""
    table = values_by_subject(quads)
    return {row[SOURCE_PATH]: row[IS_STRING] for row in table.values() if IS_STRING in row}


def anchor_problems(quads: Iterable[ox.Quad]) -> tuple[int, list[str]]:
    """How many anchored nodes (mentions, sentences, facts) there are, and each one whose
    ``nif:anchorOf`` is not exactly ``isString[begin:end]`` or whose offsets fragment
    (``#char=b,e``) disagrees."""
    return anchor_problems_in(values_by_subject(quads))


def anchor_problems_in(table: dict[str, dict[str, str]]) -> tuple[int, list[str]]:
    """``anchor_problems`` of a table made by ``values_by_subject``."""
    anchored = [(iri, row) for iri, row in table.items() if ANCHOR_OF in row]
    problems = [f"{iri}: {why}" for iri, row in anchored if (why := _anchor_problem(iri, row,
                                                                                   table))]
    return len(anchored), problems


def _anchor_problem(iri: str, row: dict[str, str], table: dict[str, dict[str, str]]) -> str:
    text = table[row[CONTEXT]][IS_STRING]
    begin, end = int(row[BEGIN]), int(row[END])
    if not 0 <= begin < end <= len(text):
        return f"offsets {begin},{end} outside a text of {len(text)} characters"
    if text[begin:end] != row[ANCHOR_OF]:
        return f"anchor {row[ANCHOR_OF]!r} != text[{begin}:{end}] {text[begin:end]!r}"
    if re.search(r"#[a-z]+=\d+,\d+$", iri) and not iri.endswith(f"={begin},{end}"):
        return f"fragment does not say {begin},{end}"
    return ""


def _own_graph(quad: ox.Quad) -> bool:
    """In the graph of kg's vocabulary or of its build record (whatever the base IRI)."""
    return isinstance(quad.graph_name, ox.NamedNode) and \
        quad.graph_name.value.endswith(("/graph/ontology", "/graph/build"))


def vocabulary_triples(quads: Iterable[ox.Quad]) -> set[ox.Triple]:
    """The triples of kg's vocabulary and build record graphs (to leave them out of checks
    of a triple format, where no graph name tells them apart)."""
    return {ox.Triple(q.subject, q.predicate, q.object) for q in quads if _own_graph(q)}


def loose_iris(quads: Iterable[ox.Quad], vocabulary: set[ox.Triple] | None = None) -> list[str]:
    """IRIs that do not match ``STRICT_IRI`` (the objects of ``schema:url`` aside; and the
    graphs of kg's vocabulary and build record, which name vocabularies and versions — in a
    triple format, give their triples as ``vocabulary``)."""
    iris = set()
    for quad in quads:
        if _own_graph(quad) or (vocabulary and ox.Triple(quad.subject, quad.predicate,
                                                          quad.object) in vocabulary):
            continue
        terms = [quad.subject, quad.predicate, quad.graph_name]
        iris.update(t.value for t in terms if isinstance(t, ox.NamedNode))
        if isinstance(quad.object, ox.NamedNode) and quad.predicate.value != URL:
            iris.add(quad.object.value)
    return sorted(iri for iri in iris if not STRICT_IRI.fullmatch(iri))


def rdflib_graph(quads: Iterable[ox.Quad]) -> Graph:
    """The union of ``quads`` as an rdflib graph (for pySHACL), through N-Triples."""
    triples = [ox.Triple(q.subject, q.predicate, q.object) for q in quads]
    data = ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES) or b""
    return Graph().parse(data=data.decode(), format="nt")
