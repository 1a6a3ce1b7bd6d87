"""``kg serve`` as a journalist's desk (issue 37), through Starlette's TestClient on the seeds
and four BBC politics articles: titles, attributions one can check, full-text search with
facets, "who said what about X", entity pages ordered by support, the map's rules, the graph
view's neighbours, and the named questions (fast rewrites: each row once, sentences in text
order). The same tasks clicked in Chromium are in ``tests/test_serve_browser.py``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from kg.ingest.files import document_from_text
from kg.ingest.metadata import headline
from kg.serve import create_app
from kg.serve.fulltext import INDEX_DIR, fts_words
from kg.serve.places import drawn
from kg.store.embedded import open_store
from kg.store.sparql import named_queries, run_query

LOCAL = "http://127.0.0.1"
BLAIR = "https://w3id.org/kgnews/id/person/tony-blair"
HOWARD_ARTICLE = "/article/bbc-politics-262"


@pytest.fixture(scope="module")
def desk(desk_build: Path) -> Iterator[TestClient]:
    with TestClient(create_app(desk_build / "graph.trig", workers=1, timeout=30),
                    base_url=LOCAL) as client:
        yield client


def text_of(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


# -- titles --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "title"), [
    ("Howard taunts Blair over splits\n\nTony Blair's feud ...", "Howard taunts Blair over splits"),
    ("  Carmaker 'to cut jobs'\n\nThe company said so.", "Carmaker 'to cut jobs'"),
    ("The company said it would cut jobs.\n\nMore text.", None),  # a sentence, not a headline
    ("A headline\nthat wraps\n\nBody.", None),
    ("Only one paragraph", None),
    ("Is this a question?\n\nBody text.", None),
])
def test_a_text_files_first_line_is_its_title(text: str, title: str | None) -> None:
    found = headline(text)
    assert (text[found[0]:found[1]] if found else None) == title
    assert document_from_text(text, doc_id="a").meta.title == title


def test_front_matter_titles_win_over_the_first_line() -> None:
    document = document_from_text("---\ntitle: Given\n---\nA headline\n\nBody text.",
                                  doc_id="a")
    assert document.meta.title == "Given"


def test_titles_are_in_the_graph_and_on_every_page(desk: TestClient, desk_build: Path) -> None:
    store = open_store(desk_build / "graph.trig")
    titles = {r["t"].value for r in run_query(store, "SELECT ?t { ?a schema:headline ?t }")}
    assert {"Howard taunts Blair over splits", "Howard and Blair tax pledge clash"} <= titles
    article = desk.get(HOWARD_ARTICLE).text
    assert "<h1>Howard taunts Blair over splits</h1>" in article
    assert "<title>Howard taunts Blair over splits" in article
    entity = desk.get("/entity/person/tony-blair").text
    assert "Howard taunts Blair over splits" in entity and ">bbc-politics-262<" not in entity


# -- attribution ---------------------------------------------------------------------------------

def test_the_graph_says_how_each_speaker_was_found(desk_build: Path) -> None:
    store = open_store(desk_build / "graph.trig")
    rows = list(run_query(store, """SELECT ?written ?how ?antecedent ?sentence WHERE {
        ?c kg:speakerText ?written ; kg:speakerResolution ?how ; kg:speakerWords ?words .
        OPTIONAL { ?c kg:speakerAntecedent ?a . ?a nif:anchorOf ?antecedent ;
                      nif:sentence/nif:anchorOf ?sentence } }"""))
    hows = {r["how"].value for r in rows}
    assert {"name", "pronoun"} <= hows
    pronouns = [r for r in rows if r["how"].value == "pronoun"]
    assert pronouns and all(r["antecedent"] is not None and r["antecedent"].value in
                            r["sentence"].value for r in pronouns)
    assert all(r["antecedent"] is None for r in rows if r["how"].value == "name")


def test_a_pronoun_attribution_shows_the_sentence_it_was_taken_from(desk: TestClient) -> None:
    page = desk.get("/said", params={"q": "deals on meals"}).text
    claim = re.search(r'<li class="claim pronoun indirect">(.*?)</li>', page, re.S)
    assert claim is not None, "the 'deals on meals' quote was credited through 'he'"
    shown = text_of(claim.group(1))
    assert "deals on meals" in shown and "taken to be Tony Blair" in shown
    assert re.search(r'class="antecedent">[^<]*<mark>Blair</mark>', claim.group(1))
    assert "confidence" in shown and "evidence in Howard taunts Blair over splits" in shown


# -- search --------------------------------------------------------------------------------------

def test_full_text_search_finds_sentences_claims_and_titles_with_facets(
        desk: TestClient) -> None:
    page = desk.get("/search", params={"q": "tax"}).text
    assert 'id="text"' in page and "Who said what about “tax”" in page
    kinds = re.findall(r'<li class="text-hit (\w+)">', page)
    assert {"claim", "sentence", "title"} <= set(kinds)
    assert kinds[0] == "title"  # "Howard and Blair tax pledge clash": titles rank first
    for facet in ("Found in", "Kind of fact", "Names a", "Speaker"):
        assert f"<h3>{facet}</h3>" in page, facet
    claims = desk.get("/search", params={"q": "tax", "kind": "claim"}).text
    assert set(re.findall(r'<li class="text-hit (\w+)">', claims)) == {"claim"}
    speaker = re.search(r'href="(/search\?[^"]*speaker=[^"]*)"', claims)
    assert speaker is not None
    narrowed = desk.get(html.unescape(speaker.group(1))).text
    assert 0 < len(re.findall(r'class="text-hit', narrowed)) <= len(re.findall(
        r'class="text-hit', claims))


@pytest.mark.parametrize("query", ['tax" OR NEAR(', "*", "AND", '"', "taxes NOT"])
def test_search_words_never_reach_fts_as_syntax(desk: TestClient, query: str) -> None:
    response = desk.get("/search", params={"q": query})
    assert response.status_code == 200
    assert all(term.startswith('"') and term.endswith('"') for term in fts_words(query))


def test_the_index_is_made_once_beside_the_graph(desk_build: Path) -> None:
    found = list((desk_build / INDEX_DIR).glob("graph.trig-*.sqlite"))
    assert len(found) == 1
    stamp = found[0].stat().st_mtime_ns
    with TestClient(create_app(desk_build / "graph.trig", workers=1), base_url=LOCAL) as client:
        assert "Howard" in client.get("/search", params={"q": "splits"}).text
    assert found[0].stat().st_mtime_ns == stamp  # opened, not made again


# -- who said what about X -----------------------------------------------------------------------

def test_who_said_what_about_tax_is_grouped_by_speaker(desk: TestClient) -> None:
    page = desk.get("/said", params={"q": "tax"}).text
    groups = re.findall(r'<section class="speaker-group">\s*<h2>(.*?)</h2>', page, re.S)
    names = [text_of(g) for g in groups]
    assert len(names) >= 2 and any("Tony Blair" in n for n in names)
    counts = [int(re.search(r"(\d+) claims?$", n).group(1)) for n in names]  # type: ignore[union-attr]
    assert counts == sorted(counts, reverse=True)
    assert page.count('<div class="sentence">') == sum(counts)  # each claim with its sentence


def test_claims_naming_an_entity_count_as_about_it(desk: TestClient) -> None:
    page = desk.get("/said", params={"q": "Gordon Brown"}).text
    assert "that name" in page and "/entity/person/gordon-brown" in page
    assert 'class="claim' in page


# -- entity pages ordered by support -------------------------------------------------------------

def test_an_entity_page_groups_roles_and_orders_them_by_support(desk: TestClient) -> None:
    page = desk.get("/entity/person/tony-blair").text
    roles = page[page.index('<section id="roles">'):page.index('<section id="claims">')]
    rows = re.findall(r'<tr class="fact role-group">(.*?)</tr>', roles, re.S)
    cells = [[text_of(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)] for r in rows]
    keys = [(c[1], c[2]) for c in cells]
    assert len(keys) == len(set(keys)), "one row per post and organisation"
    support = [int(c[3].split()[0]) for c in cells]
    assert support == sorted(support, reverse=True)
    assert cells[0][1] in ("Prime Minister", "Premier")
    claims = page[page.index('<section id="claims">'):page.index('<section id="events">')]
    assert "Made by Tony Blair" in claims and 'class="topic"' in claims


def test_a_speakers_claims_by_topic(desk: TestClient) -> None:
    page = desk.get("/said", params={"speaker": BLAIR}).text
    assert "What" in page and "Tony Blair" in page
    assert page.count('class="claim') >= 3


# -- map and graph -------------------------------------------------------------------------------

@pytest.mark.parametrize(("label", "geonames", "labels", "country", "kept"), [
    ("David", 3711668, {"PERSON": 6}, False, False),      # a first name; David, Panama
    ("David", 3711668, {"PERSON": 6}, True, True),        # ... in a story naming Panama
    ("PA", 2356765, {"GPE": 2}, False, False),            # the Palestinian Authority; Pa, BF
    ("Tsunami", 1849733, {"GPE": 1}, False, False),       # an alternate name of Tsuha, JP
    ("Kiev", 703448, {"GPE": 4}, False, True),            # an old name of a capital
    ("Mariupol", 701822, {"ORG": 12}, False, True),       # "Mariupol's defenders"
    ("Ukraine", 690791, {"GPE": 9}, False, True),         # a country
])
def test_the_map_draws_only_what_the_text_uses_as_that_place(
        label: str, geonames: int, labels: dict[str, int], country: bool, kept: bool) -> None:
    assert (drawn(label, geonames, labels, country) is not None) is kept


def test_the_graph_view_expands_any_node(desk: TestClient) -> None:
    first = desk.get("/graph/neighbours", params={"iri": BLAIR, "limit": 5}).json()
    assert first["items"] and first["items"][0]["shared"] >= first["items"][-1]["shared"]
    other = first["items"][0]["iri"]
    expanded = desk.get("/graph/neighbours", params={"iri": other}).json()
    assert BLAIR in {n["iri"] for n in expanded["items"]} or expanded["total"] > 8


# -- named questions -----------------------------------------------------------------------------

def test_every_named_question_gives_each_row_once(desk_build: Path) -> None:
    store = open_store(desk_build / "graph.trig")
    for question in named_queries():
        rows = [tuple(str(t) for t in row) for row in run_query(store, question.text)]
        assert rows, question.name
        assert len(rows) == len(set(rows)), question.name


def test_claims_give_their_sentences_in_text_order(desk_build: Path) -> None:
    store = open_store(desk_build / "graph.trig")
    rows = run_query(store, "SELECT ?text ?sentence { { " + _body("claims") + " } "
                            "FILTER(CONTAINS(?text, 'Forever')) }")
    found = [(r["text"].value, r["sentence"].value) for r in rows]
    assert found, "Podolyak's tweet"
    text, sentence = found[0]
    assert sentence.index("One on one") < sentence.index("Forever.")
    assert text.split()[0] in sentence


def _body(name: str) -> str:
    text = next(q for q in named_queries() if q.name == name).text
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("SELECT"))
    return "\n".join(lines[start:])


def test_a_named_question_is_answered_once_per_served_graph(desk: TestClient) -> None:
    site: Any = desk.app.state.site  # type: ignore[attr-defined]
    asked: list[str] = []
    run = site.pool.run

    roles = next(q for q in named_queries() if q.name == "people-roles").text

    def counted(sparql: str, *args: Any, **kwargs: Any) -> Any:
        if sparql == roles:  # the server also answers the others ahead of their visits
            asked.append(sparql)
        return run(sparql, *args, **kwargs)

    site.pool.run = counted
    try:
        for _ in range(3):
            page = desk.get("/query", params={"name": "people-roles"})
            assert page.status_code == 200 and "Tony Blair" in page.text
    finally:
        site.pool.run = run
    assert len(asked) <= 1


def test_a_folder_that_cannot_hold_the_index_keeps_it_in_memory(
        desk_build: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    from kg.serve import fulltext

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("unable to open database file")

    graph = tmp_path / "graph.trig"
    graph.write_bytes((desk_build / "graph.trig").read_bytes())
    store = open_store(graph)
    real = sqlite3.connect
    monkeypatch.setattr(fulltext.sqlite3, "connect",
                        lambda target, *a, **k: refused() if str(target) != ":memory:"
                        else real(target, *a, **k))
    index = fulltext.TextIndex.for_graph(store, graph)
    assert index.path is None and index.search("tax").total > 0
