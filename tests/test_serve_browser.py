"""``kg serve`` as a user runs it (a subprocess on a free port), driven by headless Chromium.

The graph: the seed articles, a hostile article built by the real pipeline (script tags,
``javascript:`` links, event handlers, markup around names and in its metadata) and the
hand-written graph whose entity names carry markup (``tests/graphs.py``). Every page type
must load with no script error and no request leaving 127.0.0.1, run none of the payloads
(each would set ``window.__pwned``), and the main path — search, entity, a fact's evidence
highlighted in its article — must work by clicking.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from tests.graphs import MALLORY, SYNTHETIC_TRIG
from tests.servers import free_port, stop, wait_until_ready

pytestmark = [pytest.mark.browser, pytest.mark.server]

ROOT = Path(__file__).resolve().parent.parent
PAYLOAD = "window.__pwned=1"
HOSTILE_TEXT = (
    f'Officials said <img src=x onerror="{PAYLOAD}"> Vladimir Putin met Emmanuel Macron in '
    f"Paris on Monday.\n\n"
    f'"<script>{PAYLOAD}</script>" said Olaf Scholz in Berlin on Tuesday, according to '
    f"Reuters.\n\n"
    f'<a href="javascript:{PAYLOAD}">Read more</a> about <b onmouseover="{PAYLOAD}">Angela '
    f"Merkel</b>, who visited Kyiv, where 200 people were killed in an attack on Monday.\n"
)
HOSTILE_META = {"id": "hostile-1", "date": "2022-05-18",
                "title": f"<script>{PAYLOAD}</script> Leaders meet",
                "source": f'<img src=x onerror="{PAYLOAD}">Wire',
                "url": f"javascript:{PAYLOAD}"}


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: Path


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, nlp: Any) -> Iterator[Server]:
    """``kg serve GRAPH --port P`` in a subprocess, stopped after the module."""
    from kg.build.corpus import build_corpus
    from kg.config import Settings

    articles = tmp_path_factory.mktemp("serve-articles")
    for path in (ROOT / "seeds").iterdir():
        shutil.copy(path, articles / path.name)
    (articles / "hostile.txt").write_text(HOSTILE_TEXT, encoding="utf-8")
    (articles / "hostile.meta.json").write_text(json.dumps(HOSTILE_META), encoding="utf-8")
    out = tmp_path_factory.mktemp("serve-out")
    build_corpus([articles], Settings(out_dir=out), nlp=nlp)
    graph = out / "graph.trig"
    graph.write_text(graph.read_text(encoding="utf-8") + SYNTHETIC_TRIG, encoding="utf-8")
    with kg_serve(graph, out / "serve.log", "--timeout", "5") as server:
        yield server


@contextmanager
def kg_serve(target: Path, log: Path, *options: str) -> Iterator[Server]:
    """``kg serve TARGET --port P [OPTIONS]`` in a subprocess, its output in ``log``, until the
    block ends."""
    port = free_port()
    kg = Path(sys.executable).parent / "kg"
    with log.open("wb") as sink:
        process = subprocess.Popen([str(kg), "serve", str(target), "--port", str(port),
                                    *options], stdout=sink, stderr=sink)
    try:
        wait_until_ready(f"http://127.0.0.1:{port}/", process, 90.0)
        yield Server(f"http://127.0.0.1:{port}", process, log)
    finally:
        stop(process)


@dataclass
class Tab:
    """A page whose script errors, console errors and outside requests are collected."""

    page: Any
    errors: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)

    def pwned(self) -> Any:
        return self.page.evaluate("window.__pwned")


@pytest.fixture
def tab(browser: Any, served: Server) -> Iterator[Tab]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    opened = Tab(page)
    page.on("pageerror", lambda error: opened.errors.append(str(error)))
    page.on("console", lambda m: opened.errors.append(m.text) if m.type == "error" else None)

    def only_local(route: Any) -> None:  # nothing may leave 127.0.0.1: no CDN, no tiles
        if route.request.url.startswith(served.url):
            route.continue_()
        else:
            opened.outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_local)
    yield opened
    context.close()


def test_kg_serve_runs_as_a_command_and_says_where(served: Server) -> None:
    assert served.process.poll() is None
    assert f"on {served.url}/" in served.log.read_text()
    assert httpx.get(served.url + "/sparql", params={"query": "ASK { ?s ?p ?o }"},
                     timeout=120).json() == {  # a query worker may still be opening the graph
        "head": {}, "boolean": True}


def test_search_entity_fact_evidence_by_clicking(tab: Tab, served: Server) -> None:
    page = tab.page
    page.goto(served.url + "/")
    page.fill("header input[name=q]", "vladimir putn")  # a typo
    page.press("header input[name=q]", "Enter")
    page.wait_for_url("**/search?**")
    page.click("ol.hits li.hit a >> nth=0")
    page.wait_for_url("**/entity/person/vladimir-putin")
    row = page.locator("#roles tr.fact").first
    sentence = row.locator("td.sentence span.best").inner_text()
    row.locator("a.evidence-link").click()
    page.wait_for_url("**/article/**#evidence")
    marked = page.locator(".text mark.evidence")
    assert marked.count() > 0 and marked.first.is_visible()
    assert " ".join(marked.all_inner_texts()).split() == sentence.split()
    assert page.locator("tr.fact.chosen").count() == 1
    assert tab.errors == [] and tab.outside == []


def test_map_and_timeline_draw_their_markers(tab: Tab, served: Server) -> None:
    page = tab.page
    page.goto(served.url + "/map")
    page.wait_for_selector("#map[data-outlines]", timeout=30_000)
    markers = int(page.get_attribute("#map", "data-markers") or 0)
    drawn = page.locator(".leaflet-marker-icon, path.leaflet-interactive").count()
    assert markers > 0 and drawn > 0
    assert int(page.get_attribute("#map", "data-outlines") or 0) > 100  # countries drawn
    page.goto(served.url + "/timeline")
    assert page.locator("svg.timeline a.kg-event circle").count() > 0
    assert tab.errors == [] and tab.outside == []


def hostile_pages(served: Server) -> list[str]:
    entities = httpx.get(served.url + "/sparql", params={"query": (
        "SELECT DISTINCT ?e { ?m nif:referenceContext <https://w3id.org/kgnews/id/article/"
        "hostile-1> ; itsrdf:taIdentRef ?e }")}, timeout=120).json()["results"]["bindings"]
    pages = ["/", "/search?q=" + quote("<img"), "/search?q=mallory",
             "/entity?iri=" + quote(MALLORY), "/article/hostile-1", "/article/a2",
             "/timeline", "/map", "/conflicts", "/graph?iri=" + quote(MALLORY),
             "/query?q=" + quote("SELECT ?l { ?e rdfs:label ?l }"), "/query?name=claims"]
    pages += ["/entity?iri=" + quote(b["e"]["value"]) for b in entities]
    return pages


def test_no_page_runs_a_payload_or_raises_an_error(tab: Tab, served: Server) -> None:
    page = tab.page
    for url in hostile_pages(served):
        response = page.goto(served.url + url)
        assert response is not None and response.status == 200, url
        for element in page.locator("main a, main mark, main q, main td").all()[:120]:
            element.dispatch_event("mouseover")  # would fire an injected onmouseover
        if url.startswith("/graph"):
            page.wait_for_selector("svg#graph[data-nodes]", timeout=30_000)
        assert tab.pwned() is None, url
        markup = ("main script:not(#map-data):not(#graph-data), main [onerror], "
                  "main [onmouseover], "
                  "main img:not(.leaflet-marker-icon):not(.leaflet-marker-shadow)")
        assert page.locator(markup).count() == 0, url  # Leaflet's own marker images only
        assert not page.locator("a[href^='javascript:']").count(), url
        assert tab.errors == [] and tab.outside == [], (url, tab.errors, tab.outside)
    article = page.goto(served.url + "/article/hostile-1")
    assert article is not None
    assert f"<script>{PAYLOAD}</script>" in page.inner_text(".text")
    assert f"<script>{PAYLOAD}</script> Leaders meet" in page.inner_text("h1")


def test_the_graph_view_opened_alone_is_sandboxed(tab: Tab, served: Server) -> None:
    """Without allow-same-origin the kg viz page runs in an opaque origin: it can read
    neither the explorer's pages nor its SPARQL endpoint, even if a payload ran in it."""
    page = tab.page
    page.goto(served.url + "/graph/view?iri=" + quote(MALLORY) + "&depth=1")
    page.wait_for_selector("#mynetwork canvas", timeout=60_000)
    assert page.evaluate("window.origin") == "null"
    read = page.evaluate("fetch('/sparql?query=ASK%7B%7D').then(() => 'read', () => 'refused')")
    assert read == "refused"
    assert tab.pwned() is None


# -- the journalist's tasks, each in at most three clicks from the home page ---------------------

SHOTS = os.environ.get("KG_SERVE_SCREENSHOTS")  # a folder: keep the screenshots there


@pytest.fixture(scope="module")
def desk_served(desk_build: Path) -> Iterator[Server]:
    """``kg serve`` over the seeds and four BBC politics articles."""
    with kg_serve(desk_build, desk_build / "serve.log") as server:
        yield server


@dataclass
class Journalist:
    """A browser tab that counts the clicks made since the home page."""

    tab: Tab
    url: str
    shots: Path
    clicks: int = 0

    def home(self) -> None:
        self.tab.page.goto(self.url + "/")
        self.clicks = 0

    def click(self, selector: str) -> None:
        self.tab.page.click(selector)
        self.clicks += 1

    def shot(self, name: str) -> None:
        self.tab.page.screenshot(path=str(self.shots / f"serve-{name}.png"), full_page=False)


@pytest.fixture
def journalist(browser: Any, desk_served: Server, tmp_path: Path) -> Iterator[Journalist]:
    context = browser.new_context(viewport={"width": 1280, "height": 860}, offline=False)
    page = context.new_page()
    opened = Tab(page)
    page.on("pageerror", lambda error: opened.errors.append(str(error)))
    page.on("console", lambda m: opened.errors.append(m.text) if m.type == "error" else None)

    def only_local(route: Any) -> None:
        if route.request.url.startswith(desk_served.url):
            route.continue_()
        else:
            opened.outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_local)
    person = Journalist(opened, desk_served.url, Path(SHOTS) if SHOTS else tmp_path)
    person.home()
    yield person
    assert opened.errors == [] and opened.outside == []
    assert person.clicks <= 3, f"{person.clicks} clicks from the home page"
    context.close()


def test_tony_blairs_roles_and_claims(journalist: Journalist) -> None:
    page = journalist.tab.page
    journalist.click("ol.top a:text-is('Tony Blair')")
    page.wait_for_url("**/entity/person/tony-blair")
    first = page.locator("#roles tr.role-group").first
    assert first.locator("td.role").inner_text() in ("Prime Minister", "Premier")
    assert "article" in first.locator("td.support").inner_text()
    claims = page.locator("#claims li.claim")
    assert claims.count() >= 3
    pronoun = page.locator("#claims li.claim.indirect").first
    assert "taken to be Tony Blair" in pronoun.locator(".attribution").inner_text()
    assert pronoun.locator(".antecedent mark").count() >= 1  # the name "he" stands for
    page.locator("#roles").scroll_into_view_if_needed()
    journalist.shot("entity")


def test_who_said_what_about_tax(journalist: Journalist) -> None:
    page = journalist.tab.page
    page.fill("#said-q", "tax")
    journalist.click("form.desk:has(#said-q) button")
    page.wait_for_url("**/said?q=tax")
    groups = page.locator("section.speaker-group")
    assert groups.count() >= 2
    names = groups.locator("h2").all_inner_texts()
    assert any("Tony Blair" in name for name in names)
    first = groups.first.locator("li.claim").first
    assert first.locator("q").inner_text() and first.locator(".sentence").inner_text()
    journalist.shot("said")


def test_search_words_with_facets(journalist: Journalist) -> None:
    page = journalist.tab.page
    page.fill("#search-q", "tax")
    journalist.click("form.desk:has(#search-q) button")
    page.wait_for_url("**/search?q=tax")
    assert page.locator("li.text-hit").count() > 3
    before = page.locator("li.text-hit").count()
    journalist.click("aside.facets section.facet:has(h3:text-is('Found in')) a:text-is('claim')")
    page.wait_for_url("**kind=claim**")
    kinds = set(page.locator("li.text-hit span.kind").all_inner_texts())
    assert kinds == {"claim"} and page.locator("li.text-hit").count() <= before
    journalist.shot("search")


def test_an_entitys_timeline(journalist: Journalist) -> None:
    page = journalist.tab.page
    journalist.click("ol.top a:text-is('Vladimir Putin')")
    journalist.click("p.actions a:text-is('Its timeline')")
    page.wait_for_url("**/timeline?entity=**")
    assert page.locator("svg.timeline a.kg-event circle").count() > 0
    assert "Vladimir Putin" in page.locator("h1").inner_text()


def test_the_map_lists_a_places_articles_on_click(journalist: Journalist) -> None:
    page = journalist.tab.page
    journalist.click("header nav a:text-is('Map')")
    page.wait_for_selector("#map[data-countries]", timeout=30_000)
    assert int(page.get_attribute("#map", "data-countries") or 0) > 0
    assert int(page.get_attribute("#map", "data-markers") or 0) > 0
    labels = page.evaluate("JSON.parse(document.getElementById('map-data').textContent)"
                           ".items.map(i => i.label)")
    assert "Mariupol" in labels and "David" not in labels
    journalist.click("path.kg-country >> nth=0")  # a country drawn at its centre
    page.wait_for_selector(".map-popup[data-loaded]", timeout=15_000)
    assert page.locator(".map-popup ol.place-articles li a").count() > 0
    journalist.shot("map")


def test_the_conflicting_figures(journalist: Journalist) -> None:
    page = journalist.tab.page
    journalist.click("header nav a:text-is('Conflicts')")
    page.wait_for_url("**/conflicts")
    assert page.locator("section.measure tr.fact").count() > 0
    assert "200,000" in page.inner_text("main") or "200000" in page.inner_text("main")


def test_the_seed_story_around_azovstal(journalist: Journalist) -> None:
    page = journalist.tab.page
    page.fill("#search-q", "Azovstal")
    journalist.click("form.desk:has(#search-q) button")
    page.wait_for_url("**/search?q=Azovstal")
    assert page.locator("li.text-hit mark").count() > 0  # the story's sentences, marked
    journalist.click("ol.hits li.hit a >> nth=0")
    page.wait_for_url("**/entity/**")
    journalist.click("p.actions a:text-is('Graph around it')")
    page.wait_for_selector("svg#graph[data-nodes]", timeout=30_000)
    before = int(page.get_attribute("svg#graph", "data-nodes") or 0)
    assert before > 3
    assert page.locator("svg#graph a.graph-link").count() == before  # every node links
    edges = page.locator("svg#graph line.graph-edge").count()
    page.locator("svg#graph g.graph-node:not([data-loaded]) g.graph-expand").first.click()
    page.wait_for_selector("svg#graph g.graph-node[data-loaded] >> nth=1", timeout=15_000)
    after = int(page.get_attribute("svg#graph", "data-nodes") or 0)
    assert after > before or page.locator("svg#graph line.graph-edge").count() > edges
    journalist.shot("graph")
