"""The seed build honours the data contract (docs/data-contract.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pyoxigraph as ox
import pytest
from rdflib import BNode, Dataset, Graph, Literal, URIRef

from kg.build.corpus import build_corpus
from kg.config import Settings
from kg.rdf.namespaces import ITSRDF, KG, NIF, RDF, RDFS, SDO, XSD
from kg.rdf.serialize import FORMATS
from kg.views.validate import validate_graph

from .conftest import SEEDS

ENTITY_CLASSES = (SDO.Person, SDO.Organization, SDO.Place, SDO.Event)
RDFLIB_FORMATS = {"ttl": "turtle", "nt": "nt", "nq": "nquads", "trig": "trig", "jsonld": "json-ld"}


@pytest.fixture(scope="module")
def graph(seed_build: Path) -> Graph:
    return Graph().parse(seed_build / "graph.ttl", format="turtle")


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_every_format_parses_with_rdflib_and_oxigraph(seed_build: Path, fmt: str) -> None:
    path = seed_build / f"graph.{FORMATS[fmt][2]}"
    parsed = Dataset().parse(path, format=RDFLIB_FORMATS[fmt])
    assert len(parsed) > 1000 or sum(len(g) for g in parsed.graphs()) > 1000
    quads = list(ox.parse(path=str(path), format=FORMATS[fmt][0]))
    assert len(quads) > 1000


def test_every_mention_anchor_is_exactly_its_slice_of_the_text(graph: Graph) -> None:
    phrases = list(graph.subjects(RDF.type, NIF.Phrase))
    assert len(phrases) > 100
    for phrase in phrases:
        text = str(graph.value(graph.value(phrase, NIF.referenceContext), NIF.isString))
        begin = int(graph.value(phrase, NIF.beginIndex))  # type: ignore[arg-type]
        end = int(graph.value(phrase, NIF.endIndex))  # type: ignore[arg-type]
        assert str(graph.value(phrase, NIF.anchorOf)) == text[begin:end]
        sentence = graph.value(phrase, NIF.sentence)
        assert int(graph.value(sentence, NIF.beginIndex)) <= begin  # type: ignore[arg-type]
        assert end <= int(graph.value(sentence, NIF.endIndex))  # type: ignore[arg-type]
        assert graph.value(phrase, ITSRDF.taIdentRef) is not None


def test_seed_build_conforms_to_the_shapes(seed_build: Path) -> None:
    report = validate_graph(seed_build / "graph.ttl")
    assert report.conforms, report.text


def test_seed_graph_has_at_least_25_typed_and_labelled_entities(graph: Graph) -> None:
    entities = {e for cls in ENTITY_CLASSES[:3] for e in graph.subjects(RDF.type, cls)}
    entities -= set(graph.objects(None, SDO.publisher))
    assert len(entities) >= 25
    for entity in entities:
        assert isinstance(entity, URIRef)
        assert len(list(graph.objects(entity, RDFS.label))) == 1


def test_no_blank_nodes_anywhere(graph: Graph) -> None:
    assert not any(isinstance(term, BNode) for triple in graph for term in triple)


def test_articles_carry_text_date_and_source_file(graph: Graph) -> None:
    articles = list(graph.subjects(RDF.type, SDO.NewsArticle))
    assert len(articles) == 3
    for article in articles:
        assert (article, RDF.type, NIF.Context) in graph
        published = graph.value(article, SDO.datePublished)
        assert isinstance(published, Literal) and published.datatype == XSD.date
        source = Path(str(graph.value(article, KG.sourcePath)))  # never an absolute path
        assert not source.is_absolute() and source.parent == Path(".") and source.suffix == ".txt"
        text = (SEEDS / source).read_text(encoding="utf-8")
        assert str(graph.value(article, NIF.isString)) == text


def test_one_named_graph_per_article_plus_the_entities_graph(seed_build: Path) -> None:
    dataset = Dataset().parse(seed_build / "graph.trig", format="trig")
    names = {str(g.identifier) for g in dataset.graphs() if len(g)}
    articles = {n for n in names if "/graph/article/" in n}
    assert len(articles) == 3
    assert any(n.endswith("/graph/entities") for n in names)
    for name in articles:
        graph = dataset.graph(URIRef(name))
        assert len(list(graph.subjects(RDF.type, SDO.NewsArticle))) == 1


def test_two_builds_of_the_same_input_are_byte_identical(
    seed_build: Path, tmp_path: Path, nlp: Any
) -> None:
    build_corpus([SEEDS], Settings(out_dir=tmp_path), formats=tuple(FORMATS), nlp=nlp)
    for fmt in FORMATS:
        name = f"graph.{FORMATS[fmt][2]}"
        assert (tmp_path / name).read_bytes() == (seed_build / name).read_bytes(), name


def test_a_build_in_another_process_is_byte_identical(seed_build: Path, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "kg", "build", str(SEEDS), "--out", str(tmp_path)]
    subprocess.run(command, check=True, capture_output=True)
    for name in ("graph.ttl", "graph.trig"):
        assert (tmp_path / name).read_bytes() == (seed_build / name).read_bytes(), name


def test_article_without_metadata_builds(tmp_path: Path, nlp: Any) -> None:
    article = tmp_path / "in" / "plain.txt"
    article.parent.mkdir()
    article.write_text("Kenyan runner Eliud Kipchoge won the Berlin Marathon on Sunday.\n")
    report = build_corpus([article.parent], Settings(out_dir=tmp_path / "out"), nlp=nlp)
    assert report.documents == 1 and sum(report.entities_by_kind.values()) >= 2
    graph = Graph().parse(tmp_path / "out" / "graph.ttl", format="turtle")
    assert graph.value(None, SDO.datePublished) is None
    assert validate_graph(tmp_path / "out" / "graph.ttl").conforms


# -- outputs and state are committed together (issue 18.4) ----------------------------------

def _state(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.name != ".kg.lock" and "cache" not in p.parts}


def test_a_build_that_cannot_write_its_state_changes_nothing(tmp_path: Path, nlp: Any) -> None:
    from kg.errors import BuildError

    (tmp_path / "in").mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "in" / "a.txt").write_text("Vladimir Putin met Olaf Scholz in Berlin.")
    (tmp_path / "out" / "graph.ttl").write_text("# the last build's graph\n")
    (tmp_path / "out" / ".kg").write_text("not a folder")  # OUT/.kg/ cannot be written
    with pytest.raises(BuildError, match=r"cannot write to .*\.kg: .*nothing was built"):
        build_corpus([tmp_path / "in"], Settings(out_dir=tmp_path / "out"), nlp=nlp)
    assert (tmp_path / "out" / "graph.ttl").read_text() == "# the last build's graph\n"


def test_a_build_failing_while_it_writes_leaves_the_last_build_whole(
        tmp_path: Path, nlp: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import kg.build.corpus
    from kg.errors import BuildError

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text("Vladimir Putin met Olaf Scholz in Berlin.")
    settings = Settings(out_dir=tmp_path / "out")
    build_corpus([tmp_path / "in"], settings, nlp=nlp)
    before = _state(tmp_path / "out")
    assert {"graph.ttl", "graph.trig", ".kg/entities.json", ".kg/manifest.json"} <= set(before)

    def refuse(*_args: Any) -> None:
        raise PermissionError(13, "Permission denied")

    (tmp_path / "in" / "b.txt").write_text("Emmanuel Macron visited Kyiv on Friday.")
    monkeypatch.setattr(kg.build.corpus, "save_registry", refuse)
    with pytest.raises(BuildError, match=r"Permission denied; nothing in .*out was changed"):
        build_corpus([tmp_path / "in"], settings, nlp=nlp)
    assert _state(tmp_path / "out") == before  # graph files, registry, manifest: all old
    assert not [p for p in (tmp_path / "out" / ".kg").iterdir() if "staging" in p.name]
    monkeypatch.undo()
    report = build_corpus([tmp_path / "in"], settings, nlp=nlp)
    assert report.documents == 2 and report.outputs[0].parent == tmp_path / "out"
    assert _state(tmp_path / "out") != before
