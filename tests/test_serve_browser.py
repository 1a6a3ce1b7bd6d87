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
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
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
    port, log = free_port(), out / "serve.log"
    kg = Path(sys.executable).parent / "kg"
    with log.open("wb") as sink:
        process = subprocess.Popen([str(kg), "serve", str(graph), "--port", str(port),
                                    "--timeout", "5"], stdout=sink, stderr=sink)
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
    assert httpx.get(served.url + "/sparql", params={"query": "ASK { ?s ?p ?o }"}).json() == {
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
    sentence = row.locator("td.sentence").inner_text()
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
        "hostile-1> ; itsrdf:taIdentRef ?e }")}).json()["results"]["bindings"]
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
            frame = page.frame_locator("iframe.graph")
            frame.locator("#mynetwork canvas").wait_for(timeout=60_000)
            deadline = time.monotonic() + 60
            while not page.frames[1].evaluate("window.kgStabilized !== undefined"):
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert tab.pwned() is None, url
        markup = ("main script:not(#map-data), main [onerror], main [onmouseover], "
                  "main img:not(.leaflet-marker-icon):not(.leaflet-marker-shadow)")
        assert page.locator(markup).count() == 0, url  # Leaflet's own marker images only
        assert not page.locator("a[href^='javascript:']").count(), url
        assert tab.errors == [] and tab.outside == [], (url, tab.errors, tab.outside)
    article = page.goto(served.url + "/article/hostile-1")
    assert article is not None
    assert f"<script>{PAYLOAD}</script>" in page.inner_text(".text")
    assert f"<script>{PAYLOAD}</script> Leaders meet" in page.inner_text("h1")
