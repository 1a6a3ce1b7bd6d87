"""Graph files written graph by graph hold exactly the corpus's quads, in one valid document."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyoxigraph as ox
import pytest
from rdflib import Dataset, Graph, Literal, URIRef

from kg.build.corpus import write_outputs
from kg.rdf.graphfiles import write_graph_files
from kg.rdf.serialize import FORMATS, oxigraph_quads

BASE = "https://x.org/"


def parsed_quads(path: Path, fmt: str) -> set[ox.Quad]:
    return set(ox.parse(path=str(path), format=FORMATS[fmt][0]))


@pytest.fixture(scope="module")
def written(seed_corpus: Any, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    out = tmp_path_factory.mktemp("graphfiles")
    return out, write_outputs(seed_corpus, out, tuple(FORMATS))


@pytest.mark.parametrize("fmt", ["trig", "nq", "jsonld"])
def test_graph_formats_hold_exactly_the_corpus_quads(
    written: tuple[Path, Any], seed_corpus: Any, fmt: str
) -> None:
    out, _report = written
    expected = set(oxigraph_quads(seed_corpus.quads))
    assert parsed_quads(out / f"graph.{FORMATS[fmt][2]}", fmt) == expected


@pytest.mark.parametrize("fmt", ["ttl", "nt"])
def test_union_formats_hold_each_triple_once(
    written: tuple[Path, Any], seed_corpus: Any, fmt: str
) -> None:
    out, report = written
    path = out / f"graph.{FORMATS[fmt][2]}"
    triples = [(q.subject, q.predicate, q.object) for q in ox.parse(path=str(path),
                                                                    format=FORMATS[fmt][0])]
    expected = {(q.subject, q.predicate, q.object) for q in oxigraph_quads(seed_corpus.quads)}
    assert set(triples) == expected and report.triples == len(expected)
    if fmt == "nt":
        assert len(triples) == len(expected)  # no line repeats a triple


@pytest.mark.parametrize("fmt", ["ttl", "trig"])
def test_prefixes_are_declared_once_and_rdflib_reads_the_file(
    written: tuple[Path, Any], fmt: str
) -> None:
    path = written[0] / f"graph.{FORMATS[fmt][2]}"
    text = path.read_text()
    assert text.count("@prefix schema: ") == 1
    parsed = Dataset().parse(path, format={"ttl": "turtle", "trig": "trig"}[fmt])
    assert len(parsed) + sum(len(g) for g in parsed.graphs()) > 1000


def test_a_triple_shared_by_graphs_is_written_once_in_the_union(tmp_path: Path) -> None:
    entity, label = URIRef(f"{BASE}person/a"), URIRef(f"{BASE}label")
    article = URIRef(f"{BASE}article/d1")
    graphs = [
        (URIRef(f"{BASE}graph/1"), [(entity, label, Literal("A")), (article, label, Literal("d"))]),
        (URIRef(f"{BASE}graph/2"), [(entity, label, Literal("A")), (entity, label, Literal("A"))]),
    ]
    report = write_graph_files(graphs, tmp_path, ["nt", "nq", "ttl"], BASE)
    assert report.triples == 2
    assert (tmp_path / "graph.nt").read_text().count("person/a") == 1
    assert (tmp_path / "graph.nq").read_text().count("person/a") == 2
    assert len(Graph().parse(tmp_path / "graph.ttl", format="turtle")) == 2
    assert set(report.hashes) == {"graph.nt", "graph.nq", "graph.ttl"}


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_an_empty_graph_writes_nothing_for_itself(tmp_path: Path, fmt: str) -> None:
    triple = (URIRef(f"{BASE}e/a"), URIRef(f"{BASE}p"), Literal("a"))
    graphs = [(URIRef(f"{BASE}graph/1"), [triple]), (URIRef(f"{BASE}graph/empty"), [])]
    report = write_graph_files(graphs, tmp_path, [fmt], BASE)
    path = tmp_path / f"graph.{FORMATS[fmt][2]}"
    assert report.triples == 1 and parsed_quads(path, fmt) and "empty" not in path.read_text()
