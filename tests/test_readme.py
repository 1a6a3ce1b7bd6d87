"""Every SPARQL example in the README runs on the seed build and returns rows."""

from __future__ import annotations

import re
from pathlib import Path

import pyoxigraph as ox
import pytest

from kg.rdf.namespaces import PREFIXES

from .conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"```sparql\n(.*?)```", README, re.S)


@pytest.fixture(scope="module")
def store(seed_build: Path) -> ox.Store:
    store = ox.Store()
    store.load(path=str(seed_build / "graph.trig"), format=ox.RdfFormat.TRIG)
    return store


def test_the_readme_has_sparql_examples() -> None:
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("query", EXAMPLES, ids=[f"example-{i}" for i in range(len(EXAMPLES))])
def test_readme_query_returns_rows(store: ox.Store, query: str) -> None:
    header = "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in PREFIXES.items())
    if "GRAPH" in query:
        rows = list(store.query(header + query))  # type: ignore[arg-type]
    else:
        rows = list(store.query(header + query, use_default_graph_as_union=True))  # type: ignore[arg-type]
    assert rows, query
