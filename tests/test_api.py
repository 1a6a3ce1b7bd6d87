"""The notebook API: kg.build_graph, kg.query (rows, DataFrame, bool, Graph) and kg.view."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import rdflib

import kg
from kg.errors import InputError
from kg.store.results import Rows
from kg.views.viz import View

ROOT = Path(__file__).resolve().parent.parent
TEXT = "Vladimir Putin met Emmanuel Macron in Paris on Monday, the Kremlin said."
LABELS = "SELECT ?name ?type WHERE { ?e a ?type ; rdfs:label ?name } ORDER BY ?name"


@pytest.fixture(scope="module")
def text_graph(nlp: Any) -> rdflib.Dataset:
    return kg.build_graph(TEXT, nlp=nlp)


def test_the_api_is_exported_and_imported_lazily() -> None:
    assert {"build_graph", "query", "view"} <= set(kg.__all__)
    code = ("import sys, kg; print(sorted(m for m in ('rdflib', 'pyvis', 'spacy', 'pyoxigraph') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_kg_query_stays_callable_after_the_submodule_is_imported(seed_build: Path) -> None:
    code = ("import kg.views.viz, kg.store.sparql, kg; "
            f"print(kg.query({str(seed_build / 'graph.trig')!r}, 'ASK {{ ?s a schema:Person }}'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "True"


def test_build_graph_from_text(text_graph: rdflib.Dataset) -> None:
    assert isinstance(text_graph, rdflib.Dataset) and len(text_graph) > 0
    rows = kg.query(text_graph, LABELS)
    names = {row["name"] for row in rows}
    assert {"Vladimir Putin", "Emmanuel Macron", "Paris"} <= names
    assert all(isinstance(row["type"], rdflib.URIRef) for row in rows)


ROLE = "Russian President Vladimir Putin spoke in Moscow on Monday."


def test_build_graph_switches_off_what_settings_say(nlp: Any) -> None:
    from kg.config import Settings

    posts = kg.query(kg.build_graph(ROLE, nlp=nlp), "people-roles")
    assert [str(r["role"]) for r in posts] == ["President"]
    off = Settings(rules_off=frozenset({"role.title-before-name"}))
    assert len(kg.query(kg.build_graph(ROLE, off, nlp=nlp), "people-roles")) == 0
    with pytest.raises(InputError, match="no heuristic is called 'role.nothing'"):
        kg.build_graph(ROLE, Settings(rules_off=frozenset({"role.nothing"})), nlp=nlp)


def test_build_graph_from_paths_and_mixed(nlp: Any) -> None:
    article = ROOT / "seeds" / "000_b23f1cc3a877bd22.txt"
    graph = kg.build_graph([article, TEXT], nlp=nlp)
    articles = kg.query(graph, "SELECT ?a WHERE { ?a a schema:NewsArticle }")
    assert len(articles) == 2
    # the plant: "Azovstal steel works" (its full form in this article) with the news NER
    assert kg.query(graph, 'ASK { ?e rdfs:label ?l FILTER(STRSTARTS(?l, "Azovstal")) }') is True


@pytest.mark.parametrize("missing", ["seeds/no-such-article.txt", "nowhere/at/all"])
def test_a_missing_path_is_not_taken_for_text(missing: str, nlp: Any) -> None:
    with pytest.raises(InputError):
        kg.build_graph([missing], nlp=nlp)


def test_query_shapes(seed_build: Path) -> None:
    graph = seed_build / "graph.trig"
    rows = kg.query(str(graph), "entities-across-articles")
    assert isinstance(rows, Rows) and rows.variables[:3] == ("entity", "name", "type")
    assert all(isinstance(r["articles"], int) and r["articles"] > 1 for r in rows)
    frame = rows.to_dataframe()
    assert list(frame.columns) == list(rows.variables) and len(frame) == len(rows)
    assert kg.query(graph, "ASK { ?s a schema:Person }") is True
    constructed = kg.query(graph, "CONSTRUCT WHERE { ?s a schema:Person }")
    assert isinstance(constructed, rdflib.Graph) and len(constructed) > 0


def test_query_parameters_as_keywords(seed_build: Path) -> None:
    rows = kg.query(seed_build / "graph.trig", "evidence", name="Vladimir Putin")
    assert rows and {str(r["entity"]) for r in rows} == {
        "https://w3id.org/kgnews/id/person/vladimir-putin"}


def test_view_of_a_built_graph(text_graph: rdflib.Dataset) -> None:
    page = kg.view(text_graph, focus="Vladimir Putin")
    assert isinstance(page, View) and page.nodes >= 2
    assert page._repr_html_().startswith("<iframe srcdoc=")
