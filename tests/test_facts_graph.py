"""Facts in the seed graph: the named questions answer as the issue asks, every fact has
evidence, the shapes cover the new node kinds, and reports of one event are linked."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pyoxigraph as ox
import pytest
from rdflib import Graph, URIRef
from rdflib.namespace import DCTERMS, PROV, RDF

from kg.ingest.files import document_from_text
from kg.model import (
    NEWS_MEDIUM,
    Entity,
    EntityKind,
    Event,
    EventType,
    Evidence,
    Extraction,
    Party,
    PartyKind,
    Resolution,
    Span,
    TimeExpression,
)
from kg.rdf.events import Report, compatible_times, same_event
from kg.rdf.facts import FactScope, event_label, event_places
from kg.rdf.namespaces import KG, NIF, ORG, SDO, SEM
from kg.views.validate import read_graph, validate_data

ROOT = Path(__file__).resolve().parent.parent
QUERIES = ROOT / "queries"
FACT_CLASSES = {
    "membership": ORG.Membership, "relation": RDF.Statement, "event": SEM.Event,
    "quantity": SDO.QuantitativeValue, "claim": SDO.Claim,
}


@pytest.fixture(scope="module")
def store(seed_build: Path) -> ox.Store:
    store = ox.Store()
    store.load(path=str(seed_build / "graph.trig"), format=ox.RdfFormat.TRIG)
    return store


@pytest.fixture(scope="module")
def graph(seed_build: Path) -> Graph:
    return read_graph(seed_build / "graph.ttl")


def rows(store: ox.Store, name: str) -> list[dict[str, str]]:
    """The named query's rows, each value as plain text ("" when unbound)."""
    sparql = (QUERIES / f"{name}.rq").read_text()
    solutions: Any = store.query(sparql, use_default_graph_as_union=True)
    names = [v.value for v in solutions.variables]
    return [{n: (s[n].value if s[n] is not None else "") for n in names} for s in solutions]


@pytest.mark.parametrize("name", ["people-roles", "events", "claims", "conflicting-figures"])
def test_named_queries_are_documented_and_declare_their_prefixes(name: str) -> None:
    text = (QUERIES / f"{name}.rq").read_text()
    header = [line for line in text.splitlines() if line.startswith("#")]
    assert any("Columns:" in line for line in header)
    assert any("Parameters" in line for line in header)
    used = {p for p in ("schema:", "nif:", "prov:", "kg:", "org:", "sem:", "skos:", "gaf:",
                        "dcterms:") if p in text}
    assert all(f"PREFIX {p}" in text for p in used)


@pytest.mark.parametrize(
    ("person", "role", "organization"),
    [("Putin", "President", "Russia"), ("Pushilin", "Head", "Donetsk People's Republic"),
     ("Podolyak", "Chief Negotiator", "Ukraine"), ("Konashenkov", "Spokesman", "Ministry")],
)
def test_people_roles(store: ox.Store, person: str, role: str, organization: str) -> None:
    found = rows(store, "people-roles")
    assert any(person in r["person"] and r["role"] == role and organization in r["organization"]
               and r["sentence"] for r in found), found


@pytest.mark.parametrize(
    ("speaker", "value"),
    [("Konashenkov", "959"), ("inistry", "771"), ("inistry", "1730"), ("Pushilin", "200000")],
)
def test_claims_list_speakers_with_their_figures(
    store: ox.Store, speaker: str, value: str
) -> None:
    found = [r for r in rows(store, "claims") if value in r["quantities"].split()]
    assert any(speaker in r["speaker"] and r["sentence"] and r["text"] for r in found), found


@pytest.mark.parametrize(
    ("name", "param", "value"),
    [("people-roles", "person", "Vladimir Putin"), ("claims", "speaker", "Igor Konashenkov")],
)
def test_named_queries_take_their_parameter(
    store: ox.Store, name: str, param: str, value: str
) -> None:
    from kg.store.sparql import named_query, run_query

    solutions: Any = run_query(store, named_query(name).text, {param: value})
    found = [s[param].value for s in solutions]
    assert found and set(found) == {value}


def test_conflicting_figures_show_how_many_people_remain(store: ox.Store) -> None:
    found = [r for r in rows(store, "conflicting-figures")
             if "remain" in r["measure"] and "Mariupol" in r["measure"]]
    by_value = {float(r["value"]): r["source"] for r in found}
    assert "Pushilin" in by_value[200000.0]
    assert "Ukrainian officials" in by_value[100000.0]
    assert {r["status"] for r in found} == {"conflict"}  # two sources, one day


def test_the_ledger_keeps_compatible_figures_and_conversions_out(store: ox.Store) -> None:
    found = rows(store, "conflicting-figures")
    assert {r["status"] for r in found} <= {"conflict", "update"}
    # "nearly 1,000" and "1,000"-ish reports agree; reports of other days are updates
    assert all(r["reported"] for r in found if r["status"] == "update")
    population = [r for r in found if "population" in r["measure"]]
    assert population == []  # "around 430,000" and 400,000 agree within the hedge


@pytest.mark.parametrize(
    ("kind", "place", "day"),
    # The surrender at Azovstal has no place since event.place.before went (a place named
    # earlier in the sentence was the event's in 3 of 12 check-half rows): "1,700 who have
    # already surrendered" does not say where.
    [("Siege", "Mariupol", "2022-05-19"), ("Invasion", "Ukraine", "2022-02-24")],
)
def test_events_have_place_and_time(store: ox.Store, kind: str, place: str, day: str) -> None:
    found = rows(store, "events")
    assert any(r["type"] == kind and place in r["places"] and r["date"].startswith(day)
               and r["reported"] for r in found), found


def test_reports_of_the_surrender_are_linked_across_articles(store: ox.Store) -> None:
    sparql = """
        SELECT DISTINCT ?a ?b WHERE {
          GRAPH ?g { ?a kg:sameEventAs ?b }
          ?a sem:eventType kg:Surrender ; dcterms:source ?x .
          ?b dcterms:source ?y . FILTER (?x != ?y)
        }"""
    prefixes = f"PREFIX kg: <{KG._NS}>\nPREFIX sem: <{SEM._NS}>\nPREFIX dcterms: <{DCTERMS}>\n"
    assert list(store.query(prefixes + sparql, use_default_graph_as_union=True))


@pytest.mark.parametrize("kind", sorted(FACT_CLASSES))
def test_every_fact_has_evidence(graph: Graph, kind: str) -> None:
    nodes = set(graph.subjects(RDF.type, FACT_CLASSES[kind]))
    assert nodes, kind
    for node in nodes:
        sentences = list(graph.objects(node, PROV.wasDerivedFrom))
        assert sentences and all((s, RDF.type, NIF.Sentence) in graph for s in sentences)
        assert (node, PROV.hadPrimarySource, None) not in graph  # see test_ontology.py
        assert (graph.value(node, DCTERMS.source), RDF.type, SDO.NewsArticle) in graph
        assert graph.value(node, KG.extractedBy) is not None
        assert 0 < float(graph.value(node, KG.confidence)) <= 1  # type: ignore[arg-type]


def test_shapes_reject_facts_without_evidence(graph: Graph) -> None:
    broken = Graph()
    for triple in graph:
        broken.add(triple)
    victims = {kind: next(iter(graph.subjects(RDF.type, cls))) for kind, cls in
               FACT_CLASSES.items()}
    for node in victims.values():
        broken.remove((node, PROV.wasDerivedFrom, None))
    report = validate_data(broken)
    assert not report.conforms
    assert all(str(node) in report.text for node in victims.values())


def test_fact_iris_are_the_same_in_every_build(graph: Graph, seed_corpus: Any) -> None:
    built = {s for s in graph.subjects() if "/fact/" in str(s)}
    again = {q[0] for q in seed_corpus.quads if "/fact/" in str(q[0])}
    assert built and built == again


def _report(kind: EventType, day: date | None, reported: date, doc: str,
            shared: frozenset[URIRef], setting: URIRef | None = None) -> Report:
    time = TimeExpression(0, 3, "day", 0, day, "day") if day else None
    event = Event(kind, Span(0, 3, "won"), "win", (), (), (), time, (), Evidence((0,), "r", 1))
    return Report(URIRef(f"https://x.org/{doc}/{kind}"), doc, event, reported, shared,
                  setting, ())


PLACE = frozenset({URIRef("https://x.org/place/a")})
OTHER = frozenset({URIRef("https://x.org/place/b")})
MAY = date(2022, 5, 18)


@pytest.mark.parametrize(
    ("a", "b", "linked"),
    [
        (_report(EventType.SURRENDER, MAY, MAY, "d1", PLACE),
         _report(EventType.SURRENDER, MAY + timedelta(days=1), MAY, "d2", PLACE), True),
        (_report(EventType.SURRENDER, MAY, MAY, "d1", PLACE),
         _report(EventType.CAPTURE, MAY, MAY, "d2", PLACE), False),
        (_report(EventType.SURRENDER, MAY, MAY, "d1", PLACE),
         _report(EventType.SURRENDER, MAY + timedelta(days=30), MAY, "d2", PLACE), False),
        (_report(EventType.SURRENDER, MAY, MAY, "d1", PLACE),
         _report(EventType.SURRENDER, MAY, MAY, "d2", OTHER), False),
        (_report(EventType.SURRENDER, MAY, MAY, "d1", OTHER, setting=next(iter(PLACE))),
         _report(EventType.SURRENDER, None, MAY, "d2", PLACE), True),
        (_report(EventType.SURRENDER, None, MAY, "d1", OTHER, setting=next(iter(PLACE))),
         _report(EventType.SURRENDER, None, MAY, "d2", PLACE), False),
    ],
)
def test_event_linking_rule(a: Report, b: Report, linked: bool) -> None:
    assert same_event(a, b) is linked


def test_month_stamps_are_compatible_with_days_inside_them() -> None:
    a = _report(EventType.SIEGE, date(2022, 5, 28), MAY, "d1", PLACE)
    month = TimeExpression(0, 3, "May", 0, date(2022, 5, 1), "month")
    b_event = Event(EventType.SIEGE, Span(0, 3, "won"), "x", (), (), (), month, (),
                    Evidence((0,), "r", 1))
    b = Report(URIRef("https://x.org/b"), "d2", b_event, MAY, PLACE, None, ())
    assert compatible_times(a, b)
    assert not compatible_times(a, _report(EventType.SIEGE, date(2022, 5, 1), MAY, "d3", PLACE))


def test_a_news_medium_or_a_person_is_no_place_of_an_event() -> None:
    text = "Her resignation followed reports in the Daily Courier, in Leeds and in Hale."
    document = document_from_text(text, doc_id="a")

    def party(name: str) -> Party:
        begin = text.index(name)
        return Party(PartyKind.ENTITY, name, begin, begin + len(name), (begin, begin + len(name)))

    courier, leeds, hale = party("Daily Courier"), party("Leeds"), party("Hale")
    entities = (Entity("organization/daily-courier", EntityKind.ORGANIZATION, "Daily Courier",
                       fine_type=NEWS_MEDIUM),
                Entity("place/leeds", EntityKind.PLACE, "Leeds"),
                Entity("person/hale", EntityKind.PERSON, "Hale"))
    parties = (courier, leeds, hale)
    resolution = Resolution(entities, {("a", p.begin, p.end): e.key
                                       for p, e in zip(parties, entities, strict=True)})
    scope = FactScope(Extraction(document, (), ()), resolution, "https://x.org/")
    trigger = Span(4, 14, "resignation")
    event = Event(EventType.RESIGNATION, trigger, "resignation", (), (),
                  (courier, leeds, hale), None, (), Evidence((0,), "test", 0.5))
    assert event_places(scope, event) == [leeds]
    assert event_label(scope, event) == "Resignation at Leeds"
