"""kg viz: the entity projection, view selection (focus, types, query, text) and a safe page."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.cli import app
from kg.errors import InputError, QueryError
from kg.store.embedded import open_store
from kg.views.projection import entity_graph
from kg.views.viz import find_node, neighbourhood, view
from tests.graphs import (
    ACME,
    ALICE,
    EVENT,
    FREEDONIA,
    MALLORY,
    PAYLOAD_NAME,
    PAYLOAD_SENTENCE,
    SPRINGFIELD,
    synthetic_store,
)

PUTIN = "https://w3id.org/kgnews/id/person/vladimir-putin"
DATA_BLOCK = re.compile(r'<script type="application/json" id="kg-data">(.*?)</script>', re.S)


def page_data(page: str) -> dict:
    found = DATA_BLOCK.search(page)
    assert found is not None
    return json.loads(found.group(1))


def edge_set(projection) -> set[tuple[str, str, str, str]]:
    return {(e.source, e.target, e.label, e.kind) for e in projection.edges}


@pytest.fixture(scope="module")
def seed_store(seed_build: Path):
    return open_store(seed_build / "graph.trig")


# -- the projection ------------------------------------------------------------------------

def test_projection_of_mentions_relations_and_facts() -> None:
    projection = entity_graph(synthetic_store())
    assert set(projection.nodes) == {ALICE, ACME, SPRINGFIELD, FREEDONIA, MALLORY, EVENT}
    assert edge_set(projection) == {
        (ACME, ALICE, "co-mentioned", "co-mention"),
        (ACME, SPRINGFIELD, "co-mentioned", "co-mention"),
        (ALICE, MALLORY, "co-mentioned", "co-mention"),
        (ALICE, SPRINGFIELD, "co-mentioned", "co-mention"),
        (ALICE, ACME, "chief executive", "fact"),  # org:Membership, two parties: one edge
        (EVENT, ALICE, "agent", "role"),  # an event with three parties: a node
        (EVENT, ACME, "object", "role"),
        (EVENT, SPRINGFIELD, "location", "role"),
        (SPRINGFIELD, FREEDONIA, "containedInPlace", "relation"),
    }
    weights = {(e.source, e.target): e.weight for e in projection.edges if e.kind == "co-mention"}
    assert weights[ACME, ALICE] == 2  # mentioned together in two sentences
    membership = next(e for e in projection.edges if e.kind == "fact")
    assert [x.text for x in membership.evidence] == ["Alice is chief executive of Acme."]
    alice = projection.nodes[ALICE]
    assert (alice.kind, alice.aliases, alice.mentions, alice.articles) == (
        "Person", ("Alice Smith",), 3, 2)
    assert "https://w3id.org/kgnews/id/person/nobody" not in projection.nodes  # never mentioned


def test_projection_of_the_seeds_matches_the_mentions(seed_store, seed_corpus) -> None:
    projection = entity_graph(seed_store)
    mentioned = set(seed_corpus.resolution.assignments.values())
    shown = {iri.removeprefix("https://w3id.org/kgnews/id/") for iri, node in
             projection.nodes.items() if node.mentions}
    assert shown == mentioned
    # nodes nobody mentions by name are facts, the governments of places that speak, or the
    # countries that hold a named city ("Geneva" → Switzerland)
    unnamed = {iri: n for iri, n in projection.nodes.items() if not n.mentions}
    containers = {e.target for e in projection.edges if e.label == "containedInPlace"}
    assert all(n.kind not in ("Person", "Organization", "Place") or "/government/" in iri
               or (n.kind == "Place" and iri in containers) for iri, n in unnamed.items())
    assert projection.edges and all(e.source in projection.nodes and e.target in projection.nodes
                                    for e in projection.edges)


# -- choosing what to show -----------------------------------------------------------------

@pytest.mark.parametrize("name", ["Alice", "alice smith", "  ALICE ", ALICE])
def test_focus_finds_labels_aliases_and_iris(name: str) -> None:
    assert find_node(entity_graph(synthetic_store()), name) == ALICE


def test_unknown_focus_suggests_close_names() -> None:
    with pytest.raises(InputError, match="no entity named 'Alcie'.*did you mean 'Alice'"):
        find_node(entity_graph(synthetic_store()), "Alcie")


def test_depth_limits_the_neighbourhood() -> None:
    projection = entity_graph(synthetic_store())
    assert set(neighbourhood(projection, FREEDONIA, 0).nodes) == {FREEDONIA}
    assert set(neighbourhood(projection, FREEDONIA, 1).nodes) == {FREEDONIA, SPRINGFIELD}
    assert set(neighbourhood(projection, FREEDONIA, 2).nodes) == {
        FREEDONIA, SPRINGFIELD, ALICE, ACME, EVENT}


def test_seed_view_focused_on_putin(seed_store) -> None:
    projection = entity_graph(seed_store)
    near = neighbourhood(projection, PUTIN, 2)
    page = view(seed_store, focus="Vladimir Putin", depth=2)
    assert (page.nodes, page.edges) == (len(near.nodes), len(near.edges)) and page.nodes > 1
    data = page_data(page.html)
    assert {n["iri"] for n in data["details"]["nodes"]} == set(near.nodes)
    assert [n["label"] for n in data["details"]["nodes"]] == [n.label for n in near.nodes.values()]


@pytest.mark.parametrize(("types", "kinds"), [
    (["Person"], {"Person"}), (["person,place"], {"Person", "Place"}),
    (["schema:Organization"], {"Organization"}),
])
def test_types_keep_only_those_classes(types: list[str], kinds: set[str]) -> None:
    data = page_data(view(synthetic_store(), types=types).html)
    assert {n["kind"] for n in data["nodes"]} == kinds


@pytest.mark.parametrize("types", [["Foo"], ["Person,Persn"]])
def test_an_unknown_type_is_an_error_naming_the_known_ones(types: list[str],
                                                          tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"has the type '(foo|persn)'; its types are "
                                         r"Event, Organization, Person, Place"):
        view(synthetic_store(), types=types)


def test_too_many_nodes_is_a_clear_error() -> None:
    with pytest.raises(InputError, match=r"would have 6 nodes, more than max_nodes=5; narrow"):
        view(synthetic_store(), max_nodes=5)


def test_show_text_adds_sentences_and_articles() -> None:
    plain = view(synthetic_store())
    data = page_data(view(synthetic_store(), show_text=True).html)
    kinds = [n["kind"] for n in data["nodes"]]
    assert kinds.count("Sentence") == 3 and kinds.count("Article") == 2
    assert len(data["nodes"]) == plain.nodes + 5


def test_a_construct_query_defines_the_view(tmp_path: Path) -> None:
    query = tmp_path / "view.rq"
    query.write_text("CONSTRUCT { ?a schema:knows ?b } WHERE { ?m org:member ?a ; "
                     "org:organization ?b }")
    data = page_data(view(synthetic_store(), query=query).html)
    assert sorted(n["label"] for n in data["nodes"]) == ["Acme", "Alice"]
    assert [e["label"] for e in data["edges"]] == ["knows"]
    with pytest.raises(QueryError, match="must be CONSTRUCT or DESCRIBE"):
        view(synthetic_store(), query="SELECT * WHERE { ?s ?p ?o }")


# -- the page ------------------------------------------------------------------------------

def test_the_page_is_self_contained_and_locked_down() -> None:
    page = view(synthetic_store()).html
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page)
    assert "<script src" not in page and "<link" not in page
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
    assert csp and "default-src 'none'" in csp.group(1) and "'unsafe-inline'" not in \
        csp.group(1).split("script-src")[1].split(";")[0]
    assert "vis.Network" in page and len(page) > 400_000  # vis-network inlined


def test_markup_in_names_and_sentences_stays_text() -> None:
    page = view(synthetic_store()).html
    for payload in (PAYLOAD_NAME, PAYLOAD_SENTENCE, "<script>window.__pwned", "<img src=x"):
        assert payload not in page
    data = page_data(page)
    mallory = next(n for n in data["details"]["nodes"] if n["iri"] == MALLORY)
    assert mallory["label"] == PAYLOAD_NAME
    assert mallory["evidence"][0]["text"] == PAYLOAD_SENTENCE
    assert html.escape("Legend") in page and "<li><span" in page


def test_legend_counts_each_class() -> None:
    page = view(synthetic_store()).html
    for entry in ("Person (2)", "Organization (1)", "Place (2)", "Event (1)"):
        assert entry in page


def test_jupyter_shows_the_page_in_a_sandboxed_iframe() -> None:
    page = view(synthetic_store())
    shown = page._repr_html_()
    assert shown.startswith('<iframe srcdoc="') and 'sandbox="allow-scripts"' in shown
    assert html.unescape(shown.split('srcdoc="', 1)[1].split('" style=', 1)[0]) == page.html


def test_cli_viz_writes_the_page(seed_build: Path, tmp_path: Path) -> None:
    out = tmp_path / "view.html"
    result = CliRunner().invoke(app, ["viz", "--graph", str(seed_build / "graph.trig"),
                                      "--out", str(out), "--focus", "Vladimir Putin",
                                      "--depth", "2"])
    assert result.exit_code == 0, result.output
    data = page_data(out.read_text())
    assert f"({len(data['nodes'])} nodes, {len(data['edges'])} edges)" in result.output
    result = CliRunner().invoke(app, ["viz", "--graph", str(seed_build / "graph.trig"),
                                      "--out", str(out), "--max-nodes", "2"])
    assert result.exit_code == 1 and "max_nodes=2" in result.output
    assert "(hint: narrow the view with --focus NAME --depth N, --types or --query, or raise " \
           "--max-nodes)" in result.output
    out.unlink()
    result = CliRunner().invoke(app, ["viz", "--graph", str(seed_build / "graph.trig"),
                                      "--out", str(out), "--types", "Foo"])
    assert result.exit_code == 1 and "error: no node in the graph has the type 'foo'" \
        in result.output and not out.exists()
