"""The SPARQL 1.1 Protocol's answers: results in the format a client asks for.

SELECT results are written as SPARQL JSON (the default), CSV or TSV; ASK as JSON (or
plain ``true``/``false`` in CSV/TSV); CONSTRUCT and DESCRIBE as N-Triples or Turtle.
The format comes from a ``format`` parameter (``json``, ``csv``, ``tsv``, ``nt``,
``ttl``) or else the ``Accept`` header.

>>> media_type(Answer("select"), "", "text/csv")
('csv', 'text/csv; charset=utf-8')
"""

from __future__ import annotations

import csv
import io
import json

import pyoxigraph as ox

from kg.errors import QueryError
from kg.rdf.namespaces import PREFIXES
from kg.serve.worker import Answer
from kg.store.results import compact_iri

SOLUTION_TYPES = {"json": "application/sparql-results+json",
                  "csv": "text/csv; charset=utf-8",
                  "tsv": "text/tab-separated-values; charset=utf-8"}
GRAPH_TYPES = {"nt": "application/n-triples", "ttl": "text/turtle; charset=utf-8"}
_ACCEPT = {"application/sparql-results+json": "json", "application/json": "json",
           "text/csv": "csv", "text/tab-separated-values": "tsv",
           "application/n-triples": "nt", "text/turtle": "ttl", "text/plain": "nt"}


def media_type(answer: Answer, fmt: str, accept: str) -> tuple[str, str]:
    """The format name and Content-Type for ``answer``: ``fmt`` if given, else from Accept."""
    kinds = GRAPH_TYPES if answer.kind == "graph" else SOLUTION_TYPES
    if fmt:
        if fmt not in kinds:
            raise QueryError(f"format {fmt!r} does not fit a {answer.kind.upper()} query; "
                             f"use one of {', '.join(kinds)}")
        return fmt, kinds[fmt]
    for part in accept.split(","):
        name = _ACCEPT.get(part.split(";")[0].strip().lower())
        if name in kinds:
            return name, kinds[name]
    default = "nt" if answer.kind == "graph" else "json"
    return default, kinds[default]


def encode(answer: Answer, fmt: str) -> bytes:
    """``answer`` as ``fmt`` bytes."""
    if answer.kind == "graph":
        if fmt == "ttl":
            triples = ox.parse(answer.ntriples, format=ox.RdfFormat.N_TRIPLES)
            return ox.serialize(triples, format=ox.RdfFormat.TURTLE, prefixes=PREFIXES) or b""
        return answer.ntriples
    if answer.kind == "ask":
        if fmt == "json":
            return json.dumps({"head": {}, "boolean": answer.boolean}).encode()
        return b"true\n" if answer.boolean else b"false\n"
    if fmt == "json":
        bindings = [{name: term for name, term in zip(answer.variables, row, strict=True)
                     if term is not None} for row in answer.rows]
        return json.dumps({"head": {"vars": list(answer.variables)},
                           "results": {"bindings": bindings}}, ensure_ascii=False).encode()
    buffer = io.StringIO()
    if fmt == "csv":
        writer = csv.writer(buffer, lineterminator="\r\n")
        writer.writerow(answer.variables)
        writer.writerows([(t["value"] if t else "") for t in row] for row in answer.rows)
    else:
        buffer.write("\t".join(f"?{v}" for v in answer.variables) + "\n")
        for row in answer.rows:
            buffer.write("\t".join(_tsv_term(t) for t in row) + "\n")
    return buffer.getvalue().encode()


def _tsv_term(term: dict[str, str] | None) -> str:
    """A term in TSV results: its N-Triples form."""
    if term is None:
        return ""
    if term["type"] == "uri":
        return str(ox.NamedNode(term["value"]))
    if term["type"] == "bnode":
        return f"_:{term['value']}"
    if term["type"] == "literal":
        if "xml:lang" in term:
            return str(ox.Literal(term["value"], language=term["xml:lang"]))
        if "datatype" in term:
            return str(ox.Literal(term["value"], datatype=ox.NamedNode(term["datatype"])))
        return str(ox.Literal(term["value"]))
    return term["value"]


def term_text(term: dict[str, str] | None) -> str:
    """A term as the results table shows it.

    >>> term_text({"type": "uri", "value": "https://schema.org/Person"})
    'schema:Person'
    """
    if term is None:
        return ""
    if term["type"] == "uri":
        return compact_iri(term["value"])
    return term["value"]
