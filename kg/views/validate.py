"""SHACL validation of a built graph against ``ontology/shapes.ttl`` (pySHACL).

With ``inference="rdfs"`` the graph is first expanded with what an RDFS reasoner concludes
from kg's ontology and the axioms of the vocabularies it imports (``ontology/axioms.ttl``); a
kg graph conforms either way. OWL RL is not offered: its ``owl:sameAs`` reasoning gives an
entity every IRI it has (its GeoNames feature, keys it had before a merge), which SHACL then
counts as several values of every single-valued property (``tests/test_ontology_reasoners.py``
runs OWL RL for consistency instead).

>>> report = validate_graph(Path("output/graph.ttl"), inference="rdfs")  # doctest: +SKIP
>>> report.conforms  # doctest: +SKIP
True
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rdflib import Dataset, Graph
from rdflib.namespace import SH
from rdflib.plugins.parsers.notation3 import BadSyntax

from kg.errors import GraphError, InputError
from kg.resources import ONTOLOGY, ONTOLOGY_DIR, SHAPES

#: What ``--inference`` accepts (pySHACL's names).
INFERENCE = ("none", "rdfs")
AXIOMS = ONTOLOGY_DIR / "axioms.ttl"

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
        raise GraphError(f"{path}: {parse_problem(e, fmt)}") from e


def parse_problem(error: Exception, fmt: str) -> str:
    """rdflib's parse error in one line: its line and the text there, not its bytes repr.

    >>> from rdflib.plugins.parsers.notation3 import BadSyntax
    >>> parse_problem(BadSyntax("", 1, "a b c .\\nx <<\\n", 10, "bad term"), "turtle")
    "line 2: cannot parse as turtle: bad term, near 'x <<'"
    """
    if isinstance(error, BadSyntax):
        text = error._str.decode("utf-8", "replace")
        start = text.rfind("\n", 0, error._i) + 1
        end = text.find("\n", error._i)
        near = text[start:end if end >= 0 else len(text)].strip()[:80]
        return f"line {error.lines + 1}: cannot parse as {fmt}: {error._why}, near {near!r}"
    return f"cannot parse as {fmt}: {' '.join(str(error).split())}"


def validate_graph(path: Path, shapes: Path = SHAPES, inference: str = "none"
                   ) -> ValidationReport:
    """Validate the graph in ``path`` against the SHACL ``shapes``."""
    check_inference(inference)
    return validate_data(read_graph(path), shapes, inference)


def check_inference(inference: str) -> None:
    """Raise ``InputError`` for an inference kg does not offer."""
    if inference not in INFERENCE:
        raise InputError(f"unknown inference {inference!r}; choose from {', '.join(INFERENCE)}")


def vocabulary_graph() -> Graph:
    """kg's ontology with the imported vocabularies' axioms: what a reasoner starts from."""
    graph = Graph().parse(ONTOLOGY, format="turtle")
    return graph.parse(AXIOMS, format="turtle")


def validate_data(data: Graph, shapes: Path = SHAPES, inference: str = "none"
                  ) -> ValidationReport:
    """Validate an in-memory graph against the SHACL ``shapes`` (after ``inference``)."""
    from pyshacl import validate

    check_inference(inference)
    shapes_graph = Graph().parse(shapes, format="turtle")
    ontology = vocabulary_graph() if inference != "none" else None
    conforms, results, text = validate(data, shacl_graph=shapes_graph, ont_graph=ontology,
                                       inference=inference)
    violations = len(set(results.subjects(SH.resultSeverity, SH.Violation)))
    return ValidationReport(bool(conforms), violations, str(text))
