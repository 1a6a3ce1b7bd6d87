"""kg's RDF against the vocabularies it reuses (issue 17): every term it writes is a published
term of its vocabulary, geography and dates say no more than is known, provenance reads right
to a reasoner, and the shapes catch broken data. Interoperability with real reasoners is in
``tests/test_ontology_reasoners.py``."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import date
from pathlib import Path

import pytest
from rdflib import Dataset, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, OWL, PROV, RDF, RDFS, XSD
from typer.testing import CliRunner

from kg.cli import app
from kg.config import MODEL_PACKAGE, Settings
from kg.extract.pipeline import HASH_LIST, NEWS_NER_HASHES
from kg.model import TimeExpression
from kg.rdf.facts import time_literal
from kg.rdf.namespaces import (
    GAF,
    GEONAMES,
    GN,
    ITSRDF,
    KG,
    NIF,
    PREFIXES,
    SDO,
    SDO_RECENT,
    SEM,
    WGS,
)
from kg.rdf.provenance import BuildInfo, build_triples, source_date
from kg.resources import ONTOLOGY_DIR, PACKAGE_DATA
from kg.views.validate import read_graph, validate_data

BASE = Settings().base_iri
TERMS_DIR = PACKAGE_DATA
OWN = "https://w3id.org/kgnews/"  # kg's ontology, shapes, data and software IRIs
GEONAMES_FEATURE = re.compile(r"^http://sws\.geonames\.org/[0-9]+/$")


def term_lists() -> dict[str, frozenset[str]]:
    """Namespace IRI -> the local names its published term list holds."""
    lists = {}
    for path in sorted(TERMS_DIR.glob("terms-*.txt")):
        lines = path.read_text(encoding="utf-8").splitlines()
        (namespace,) = [line.split(":", 1)[1].strip() for line in lines
                        if line.startswith("# namespace:")]
        lists[namespace] = frozenset(line.strip() for line in lines
                                     if line.strip() and not line.startswith("#"))
    return lists


def vocabulary_problems(iris: set[str], lists: dict[str, frozenset[str]]) -> list[str]:
    """Each IRI outside kg's own space whose namespace is no known vocabulary, or whose
    local name that vocabulary does not define."""
    problems = []
    for iri in sorted(iris):
        if iri.startswith(OWN):
            continue
        namespace = max((ns for ns in lists if iri.startswith(ns)), key=len, default=None)
        if namespace is None:
            problems.append(f"{iri}: no vocabulary kg knows")
        elif iri[len(namespace):] not in lists[namespace]:
            problems.append(f"{iri}: not a term of {namespace}")
    return problems


def written_terms(graph: Graph, lists: dict[str, frozenset[str]]) -> set[str]:
    """The vocabulary terms a graph uses: predicates, classes, datatypes, and every IRI in a
    known vocabulary's namespace (values such as sem:eventType's or rdf:predicate's)."""
    terms: set[str] = set()
    for s, p, o in graph:
        terms.add(str(p))
        if p == RDF.type and isinstance(o, URIRef):
            terms.add(str(o))
        if isinstance(o, Literal) and o.datatype is not None:
            terms.add(str(o.datatype))
        for node in (s, o) if p != OWL.imports else (s,):  # an import names a vocabulary
            if isinstance(node, URIRef) and any(str(node).startswith(ns) for ns in lists):
                terms.add(str(node))
    return terms


@pytest.fixture(scope="module")
def graph(seed_build: Path) -> Graph:
    return read_graph(seed_build / "graph.ttl")


@pytest.fixture(scope="module")
def dataset(seed_build: Path) -> Dataset:
    return Dataset().parse(seed_build / "graph.trig", format="trig")


# --- vocabularies -----------------------------------------------------------------------------


def test_every_term_kg_writes_is_a_published_term_of_its_vocabulary(graph: Graph) -> None:
    lists = term_lists()
    terms = written_terms(graph, lists)
    assert len(terms) > 100
    assert vocabulary_problems(terms, lists) == []


@pytest.mark.parametrize("iri", [
    "http://semanticweb.cs.vu.nl/2009/11/sem#Event",  # the old, wrong SEM namespace
    "https://schema.org/authorOf",  # a made-up schema.org term
    "http://www.w3.org/ns/prov#hadSource",
    "http://example.org/vocab#thing",  # an unknown vocabulary
])
def test_a_wrong_namespace_or_made_up_term_fails_the_check(iri: str) -> None:
    assert vocabulary_problems({iri}, term_lists())


@pytest.mark.parametrize("namespace", [NIF, ITSRDF, SEM, GAF, GN, WGS, SDO_RECENT])
def test_closed_namespaces_declare_only_published_terms(namespace: type) -> None:
    lists = term_lists()
    ns = str(namespace._NS)  # type: ignore[attr-defined]
    assert set(namespace.__annotations__) <= lists[ns]


def test_namespaces_are_the_vocabularies_own() -> None:
    assert str(SEM._NS) == "http://semanticweb.cs.vu.nl/2009/11/sem/"
    assert str(GEONAMES) == "http://sws.geonames.org/"
    assert PREFIXES["gn"] == "http://www.geonames.org/ontology#"
    assert PREFIXES["sem"] == "http://semanticweb.cs.vu.nl/2009/11/sem/"


def test_own_terms_that_duplicate_standard_ones_are_gone() -> None:
    for name in ("triggerLemma", "timeGranularity", "Measure", "measures"):
        assert name not in KG.__annotations__


# --- geography --------------------------------------------------------------------------------


def test_countries_are_areas_without_a_point(graph: Graph) -> None:
    countries = set(graph.subjects(RDF.type, SDO.Country))
    assert {URIRef(f"{BASE}place/russia"), URIRef(f"{BASE}place/ukraine")} <= countries
    for country in countries:
        assert (country, WGS.lat, None) not in graph and (country, WGS.long, None) not in graph
    assert (URIRef(f"{BASE}place/russia"), GN.countryCode, Literal("RU")) in graph
    assert (URIRef(f"{BASE}place/mariupol"), WGS.lat, None) in graph  # cities keep theirs


def test_one_iri_per_place_keyed_on_geonames(graph: Graph) -> None:
    linked: dict[URIRef, set[URIRef]] = {}
    for s, o in graph.subject_objects(OWL.sameAs):
        if "geonames" in str(o):
            assert GEONAMES_FEATURE.match(str(o)), o
            linked.setdefault(o, set()).add(s)  # type: ignore[arg-type]
    assert linked and all(len(places) == 1 for places in linked.values()), linked
    assert not [s for s in graph.subjects() if "/country/" in str(s)]


def test_cities_are_contained_in_their_country(graph: Graph) -> None:
    mariupol = URIRef(f"{BASE}place/mariupol")
    assert (mariupol, SDO.containedInPlace, URIRef(f"{BASE}place/ukraine")) in graph
    for city in graph.subjects(WGS.lat, None):
        countries = set(graph.objects(city, SDO.containedInPlace))
        assert any((c, RDF.type, SDO.Country) in graph for c in countries), city


def test_no_address_terms_on_places(graph: Graph) -> None:
    assert (None, SDO.addressCountry, None) not in graph


# --- dates ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("granularity", "lexical", "datatype"), [
    ("day", "2014-03-18", XSD.date), ("month", "2014-03", XSD.gYearMonth),
    ("year", "2014", XSD.gYear),
])
def test_dates_say_only_what_the_text_gives(granularity: str, lexical: str,
                                            datatype: URIRef) -> None:
    time = TimeExpression(0, 4, "text", 0, date(2014, 3, 18) if granularity == "day"
                          else date(2014, 3, 1) if granularity == "month" else date(2014, 1, 1),
                          granularity)
    stamp = time_literal(time)
    assert stamp is not None and str(stamp) == lexical and stamp.datatype == datatype


def test_a_year_in_the_seeds_is_a_gyear_not_a_false_day(graph: Graph) -> None:
    stamps = list(graph.objects(None, SEM.hasTimeStamp))
    assert Literal("2014", datatype=XSD.gYear) in stamps
    assert all(s.datatype in (XSD.date, XSD.gYearMonth, XSD.gYear) for s in stamps)  # type: ignore[union-attr]


# --- agents and provenance --------------------------------------------------------------------


@pytest.mark.parametrize(
    "prop", [SDO.author, PROV.wasAttributedTo, URIRef(f"{PREFIXES['org']}organization")])
def test_who_speaks_and_employs_is_never_a_territory(graph: Graph, prop: URIRef) -> None:
    agents = set(graph.objects(None, prop))
    assert agents
    assert not [a for a in agents if (a, RDF.type, SDO.Place) in graph]


def test_a_government_is_an_organisation_serving_its_place(graph: Graph) -> None:
    russia = URIRef(f"{BASE}government/russia")
    assert (russia, RDF.type, SDO.GovernmentOrganization) in graph
    assert (russia, SDO.areaServed, URIRef(f"{BASE}place/russia")) in graph
    # "Moscow said": a capital speaks for its country's government, not a city council
    assert (URIRef(f"{BASE}government/moscow"), None, None) not in graph


def test_facts_are_reported_in_their_article_not_derived_from_it(graph: Graph) -> None:
    assert (None, PROV.hadPrimarySource, None) not in graph
    facts = set(graph.subjects(RDF.type, SDO.Claim)) | set(graph.subjects(RDF.type, SEM.Event))
    for fact in facts:
        (article,) = graph.objects(fact, DCTERMS.source)
        assert (article, RDF.type, SDO.NewsArticle) in graph


@pytest.mark.parametrize("cls", [SDO.Claim, SEM.Event, SDO.Observation])
def test_facts_are_denoted_by_their_words_not_strings_themselves(graph: Graph,
                                                                cls: URIRef) -> None:
    nodes = set(graph.subjects(RDF.type, cls))
    assert nodes
    for node in nodes:
        assert (node, NIF.anchorOf, None) not in graph and (node, NIF.beginIndex, None) not in graph
        (words,) = graph.objects(node, GAF.denotedBy)
        article = graph.value(words, NIF.referenceContext)
        begin, end = (int(graph.value(words, p)) for p in (NIF.beginIndex, NIF.endIndex))  # type: ignore[arg-type]
        text = str(graph.value(article, NIF.isString))
        assert str(graph.value(words, NIF.anchorOf)) == text[begin:end]


def test_direct_quotes_are_quoted_from_their_claim(graph: Graph) -> None:
    direct = [c for c in graph.subjects(KG.claimKind, Literal("direct"))]
    assert direct
    for claim in direct:
        (words,) = graph.objects(claim, GAF.denotedBy)
        assert (words, PROV.wasQuotedFrom, claim) in graph
        assert graph.value(claim, PROV.wasAttributedTo) == graph.value(claim, SDO.author)


def test_event_triggers_carry_their_lemma(graph: Graph) -> None:
    events = list(graph.subjects(RDF.type, SEM.Event))
    assert events and all(graph.value(graph.value(e, GAF.denotedBy), NIF.lemma) for e in events)


def test_english_text_is_tagged_and_names_are_not(graph: Graph) -> None:
    texts = list(graph.objects(None, NIF.isString)) + list(graph.objects(None, NIF.anchorOf))
    assert texts and all(t.language == "en" for t in texts)  # type: ignore[union-attr]
    putin = URIRef(f"{BASE}person/vladimir-putin")
    assert graph.value(putin, RDFS.label).language is None  # type: ignore[union-attr]


def test_source_paths_are_never_absolute(graph: Graph) -> None:
    paths = [str(p) for p in graph.objects(None, KG.sourcePath)]
    assert len(paths) == 3 and not [p for p in paths if p.startswith("/") or ".." in p]


# --- the vocabulary and the build, inside the build -------------------------------------------


def test_the_build_holds_the_ontology_taxonomy_and_shapes(dataset: Dataset) -> None:
    vocabulary = dataset.graph(URIRef(f"{BASE}graph/ontology"))
    assert Literal("surrender", lang="en") in set(vocabulary.objects(KG.Surrender, RDFS.label))
    assert (KG.Surrender, URIRef(f"{PREFIXES['skos']}broader"), KG.ArmedConflict) in vocabulary
    assert (URIRef("https://w3id.org/kgnews/shapes#ClaimShape"), None, None) in vocabulary
    assert not [t for q in dataset.quads() for t in q[:3] if t.__class__.__name__ == "BNode"]


def test_the_build_is_a_prov_activity(dataset: Dataset) -> None:
    build = dataset.graph(URIRef(f"{BASE}graph/build"))
    (activity,) = build.subjects(RDF.type, PROV.Activity)
    agent = build.value(activity, PROV.wasAssociatedWith)
    assert build.value(agent, SDO.softwareVersion) is not None
    (model,) = [m for m in build.objects(activity, PROV.used) if (m, SDO.version, None) in build]
    assert str(build.value(model, KG.sha256)) == hashlib.sha256(HASH_LIST.read_bytes()).hexdigest()
    assert str(build.value(model, SDO.version)) == "3.8.0"
    # the seeds are built with kg's own news NER (the default): the record names it and its
    # file hashes, and the settings say which pipeline it was
    (ner,) = set(build.objects(activity, PROV.used)) - {model}
    ner_hashes = hashlib.sha256(NEWS_NER_HASHES.read_bytes()).hexdigest()
    assert str(build.value(ner, KG.sha256)) == ner_hashes
    assert json.loads(str(build.value(activity, KG.buildSettings)))["model"].endswith("+news-ner")
    settings = json.loads(str(build.value(activity, KG.buildSettings)))
    assert settings["base_iri"] == BASE and "out_dir" not in settings  # no local paths
    assert int(build.value(activity, KG.inputCount)) == 3  # type: ignore[arg-type]
    generated = set(build.subjects(PROV.wasGeneratedBy, activity))
    assert URIRef(f"{BASE}graph/entities") in generated and len(generated) == 3 + 3
    assert (activity, PROV.endedAtTime, None) not in build  # deterministic bytes


def test_a_build_without_the_news_ner_does_not_claim_it() -> None:
    small = BuildInfo("https://x.org/", ("a" * 64,), model=MODEL_PACKAGE)
    news = BuildInfo("https://x.org/", ("a" * 64,))
    used = [[t for t in build_triples(info, []) if t[1] == PROV.used] for info in (small, news)]
    assert [len(u) for u in used] == [1, 2]
    assert small.activity_iri() != news.activity_iri()


def test_source_date_epoch_stamps_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1653004800")
    info = BuildInfo("https://x.org/", ("a" * 64,))
    assert info.ended == source_date() and info.ended is not None
    stamp = Literal("2022-05-20T00:00:00Z", datatype=XSD.dateTime)
    assert (info.activity_iri(), PROV.endedAtTime, stamp) in build_triples(info, [])
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "not a number")
    assert source_date() is None


# --- shapes that catch broken data ------------------------------------------------------------


def _broken(graph: Graph) -> tuple[Graph, dict[str, URIRef]]:
    """A copy of the seed graph with one defect per kind; which node each defect should name."""
    g = Graph()
    for triple in graph:
        g.add(triple)
    mentions = sorted(g.subjects(RDF.type, NIF.Phrase))
    claims = sorted(g.subjects(RDF.type, SDO.Claim))
    articles = sorted(g.subjects(RDF.type, SDO.NewsArticle))
    events = sorted(g.subjects(RDF.type, SEM.Event))
    m = mentions[:6]
    victims = {"anchor": m[0], "end past text": m[1], "outside sentence": m[2],
               "identRef to nothing": m[3], "other article": m[4], "author to nothing": claims[0],
               "author a place": claims[1], "country with a point": URIRef(f"{BASE}place/russia"),
               "absolute path": articles[0], "primary source": events[0],
               "event as a string": events[1], "false moment": events[2],
               "https geonames": URIRef(f"{BASE}place/mariupol")}
    g.set((m[0], NIF.anchorOf, Literal("not these words", lang="en")))
    g.set((m[1], NIF.endIndex, Literal(10**6, datatype=XSD.nonNegativeInteger)))
    own, doc = g.value(m[2], NIF.sentence), g.value(m[2], NIF.referenceContext)
    other = next(s for s in g.subjects(RDF.type, NIF.Sentence)
                 if s != own and g.value(s, NIF.referenceContext) == doc)
    g.set((m[2], NIF.sentence, other))
    g.set((m[3], ITSRDF.taIdentRef, URIRef(f"{BASE}person/nobody")))
    elsewhere = next(a for a in articles if a != g.value(m[4], NIF.referenceContext))
    g.set((m[4], NIF.referenceContext, elsewhere))
    g.set((claims[0], SDO.author, URIRef(f"{BASE}person/no-one")))
    g.set((claims[1], SDO.author, URIRef(f"{BASE}place/ukraine")))
    g.add((URIRef(f"{BASE}place/russia"), WGS.lat, Literal("55.75", datatype=XSD.decimal)))
    g.set((articles[0], KG.sourcePath, Literal("/home/ana/news/a.txt")))
    g.add((events[0], PROV.hadPrimarySource, articles[0]))
    g.add((events[1], NIF.anchorOf, Literal("surrendered", lang="en")))
    g.set((events[2], SEM.hasTimeStamp, Literal("2014-01-01T00:00:00", datatype=XSD.dateTime)))
    g.add((URIRef(f"{BASE}place/mariupol"), OWL.sameAs, URIRef("https://sws.geonames.org/701822/")))
    return g, victims


def test_the_shapes_catch_each_kind_of_broken_data(graph: Graph) -> None:
    broken, victims = _broken(graph)
    report = validate_data(broken)
    assert not report.conforms
    missed = [kind for kind, node in victims.items() if f"<{node}>" not in report.text
              and str(node) not in report.text]
    assert missed == []


def test_the_seed_build_conforms_under_rdfs_inference(seed_build: Path) -> None:
    result = CliRunner().invoke(app, ["validate", "--inference", "rdfs",
                                      str(seed_build / "graph.ttl")])
    assert result.exit_code == 0, result.output
    assert "conforms" in result.output


@pytest.mark.parametrize("name", ["hermit", "owlrl"])  # OWL RL: see kg/views/validate.py
def test_unknown_inference_is_one_clear_line(seed_build: Path, name: str) -> None:
    result = CliRunner().invoke(app, ["validate", "--inference", name,
                                      str(seed_build / "graph.ttl")])
    assert result.exit_code == 1
    assert f"unknown inference '{name}'" in result.output
    assert len(result.output.splitlines()) == 1


# --- the ontology itself ----------------------------------------------------------------------


def test_the_ontology_imports_what_it_reuses_and_defines_its_terms() -> None:
    ontology = Graph().parse(ONTOLOGY_DIR / "kg.ttl", format="turtle")
    onto = URIRef("https://w3id.org/kgnews/ontology")
    imports = {str(o) for o in ontology.objects(onto, OWL.imports)}
    assert {"http://semanticweb.cs.vu.nl/2009/11/sem/", "http://www.w3.org/ns/prov-o",
            "http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core"} <= imports
    own = {s for s in ontology.subjects(RDF.type, None) if str(s).startswith(str(KG._NS))}
    assert own and all((t, RDFS.isDefinedBy, onto) in ontology for t in own)


@pytest.mark.parametrize("name", ["kg.rdf.terms", "kg.rdf.facts", "kg.rdf.provenance",
                                  "kg.rdf.graph", "kg.rdf.namespaces", "kg.resolve.types"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted and not result.failed
