"""SHACL validation of a built graph against ``ontology/shapes.ttl`` (pySHACL).

>>> report = validate_graph(Path("output/graph.ttl"))  # doctest: +SKIP
>>> report.conforms  # doctest: +SKIP
True
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rdflib import Dataset, Graph
from rdflib.namespace import SH

from kg.errors import GraphError
from kg.resources import SHAPES

FORMAT_BY_SUFFIX = {
    ".ttl": "turtle", ".nt": "nt", ".nq": "nquads", ".trig": "trig", ".jsonld": "json-ld",
}


@dataclass(frozen=True)
class ValidationReport:
    """Whether a graph conforms, how many violations, and pySHACL's readable text."""

    conforms: bool
    violations: int
    text: str


def read_graph(path: Path) -> Graph:
    """A graph file as one rdflib graph (named graphs are merged); clear errors otherwise."""
    if not path.is_file():
        raise GraphError(f"{path}: no such graph file; build one first", option="graph")
    fmt = FORMAT_BY_SUFFIX.get(path.suffix)
    if fmt is None:
        raise GraphError(f"{path}: unknown graph format (use {', '.join(FORMAT_BY_SUFFIX)})")
    try:
        if fmt in {"trig", "nquads", "json-ld"}:
            dataset = Dataset()
            dataset.parse(path, format=fmt)
            merged = Graph()
            for s, p, o, _g in dataset.quads((None, None, None, None)):
                merged.add((s, p, o))
            return merged
        return Graph().parse(path, format=fmt)
    except Exception as e:  # rdflib raises many unrelated types for bad input
        raise GraphError(f"{path}: cannot parse as {fmt}: {e}") from e


def validate_graph(path: Path, shapes: Path = SHAPES) -> ValidationReport:
    """Validate the graph in ``path`` against the SHACL ``shapes``."""
    return validate_data(read_graph(path), shapes)


def validate_data(data: Graph, shapes: Path = SHAPES) -> ValidationReport:
    """Validate an in-memory graph against the SHACL ``shapes``."""
    from pyshacl import validate

    shapes_graph = Graph().parse(shapes, format="turtle")
    conforms, results, text = validate(data, shacl_graph=shapes_graph, inference="none")
    violations = len(set(results.subjects(SH.resultSeverity, SH.Violation)))
    return ValidationReport(bool(conforms), violations, str(text))
