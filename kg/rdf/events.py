"""Cross-article events: reports of one real event linked in ``<base>graph/events``.

Every article keeps its own event nodes (so replacing an article touches only its graph).
After resolution, two reports are taken to describe the same event when they have

* the same event type,
* compatible times: stamped days at most ``DAY_TOLERANCE`` apart (a month or year stamp must
  contain the other), and a report without a stamp counts as happening within
  ``REPORT_TOLERANCE`` days before its article's date,
* and a shared participant or place (an entity, or a country). Reports from different
  articles, one of them with a date stamp, may instead share the city each article is about
  at that point (``Event.setting``).

Linked reports form clusters; each cluster gets a ``kg:EventLink`` node (members, rule,
confidence, evidence sentences) and ``kg:sameEventAs`` between every two of its reports.

>>> str(events_graph_iri("https://x.org/"))
'https://x.org/graph/events'
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from rdflib import Literal, URIRef

from kg.model import Event, Extraction, PartyKind, Resolution
from kg.rdf.facts import FactScope, event_iri, event_places, party_node
from kg.rdf.namespaces import DCTERMS, KG, PROV, RDF, XSD
from kg.rdf.terms import Triple, sentence_iri

DAY_TOLERANCE = 3
REPORT_TOLERANCE = 7
LINK_RULE = "event.same-type-time-participant"
LINK_CONFIDENCE = "0.6"
WINDOW_DAYS = 31  # a month-stamped report is compared with those of the same month


def events_graph_iri(base: str) -> URIRef:
    """The named graph of cross-article event links."""
    return URIRef(f"{base}graph/events")


@dataclass(frozen=True)
class Report:
    """One article's report of an event, as needed for linking."""

    node: URIRef
    doc_id: str
    event: Event
    reported: date | None
    shared: frozenset[URIRef]  # participants and places
    setting: URIRef | None
    sentences: tuple[URIRef, ...]


def reports_of(
    extractions: Sequence[Extraction], resolution: Resolution, base: str
) -> list[Report]:
    """Every event report of the corpus with what linking compares."""
    reports = []
    for extraction in extractions:
        scope = FactScope(extraction, resolution, base)
        sentences = {s.index: s for s in extraction.sentences}
        doc_id = extraction.document.doc_id
        for event in (f for f in extraction.facts if isinstance(f, Event)):
            named = [p for p in (*event.agents, *event.patients, *event_places(scope, event))
                     if p.kind is not PartyKind.GROUP]
            shared = frozenset(party_node(scope, p)[0] for p in named)
            setting = party_node(scope, event.setting)[0] if event.setting else None
            evidence = tuple(sentence_iri(base, doc_id, sentences[i])
                             for i in event.evidence.sentences if i in sentences)
            reports.append(Report(event_iri(scope, event), doc_id, event,
                                  extraction.document.meta.date_published, shared, setting,
                                  evidence))
    return reports


def compatible_times(a: Report, b: Report) -> bool:
    """Whether two reports can be about the same moment."""
    ta, tb = a.event.time, b.event.time
    if ta and tb and ta.value and tb.value:
        coarse = {ta.granularity, tb.granularity}
        if "year" in coarse:
            return ta.value.year == tb.value.year
        if "month" in coarse:
            return (ta.value.year, ta.value.month) == (tb.value.year, tb.value.month)
        return abs((ta.value - tb.value).days) <= DAY_TOLERANCE
    da, db = _moment(a), _moment(b)
    return da is not None and db is not None and abs((da - db).days) <= REPORT_TOLERANCE


def _moment(report: Report) -> date | None:
    time = report.event.time
    if time is not None and time.value is not None:
        return time.value
    return report.reported - timedelta(days=1) if report.reported else None


def _stamped(report: Report) -> bool:
    return report.event.time is not None and report.event.time.value is not None


def _day(report: Report) -> int | None:
    moment = _moment(report)
    return moment.toordinal() if moment is not None else None


def same_event(a: Report, b: Report) -> bool:
    """The linking rule (see the module docstring)."""
    if a.event.kind is not b.event.kind or not compatible_times(a, b):
        return False
    if a.shared & b.shared:
        return True
    if a.doc_id == b.doc_id or not (_stamped(a) or _stamped(b)):
        return False
    places_a = a.shared | ({a.setting} if a.setting else set())
    places_b = b.shared | ({b.setting} if b.setting else set())
    return bool(places_a & places_b)


def candidate_pairs(reports: Sequence[Report]) -> Iterator[tuple[int, int]]:
    """Pairs worth testing: same type, a shared key (participant, place or setting) and
    moments at most ``WINDOW_DAYS`` apart; so linking is not quadratic in the corpus."""
    buckets: dict[tuple[str, URIRef], list[int]] = {}
    for i, report in enumerate(reports):
        for key in report.shared | ({report.setting} if report.setting else set()):
            buckets.setdefault((report.event.kind.value, key), []).append(i)
    seen: set[tuple[int, int]] = set()
    days = [_day(r) for r in reports]
    for members in buckets.values():
        timed = sorted((m for m in members if days[m] is not None), key=lambda m: days[m] or 0)
        for n, i in enumerate(timed):
            for j in timed[n + 1 :]:
                if (days[j] or 0) - (days[i] or 0) > WINDOW_DAYS:
                    break
                pair = (min(i, j), max(i, j))
                if pair not in seen:
                    seen.add(pair)
                    yield pair


def clusters(reports: Sequence[Report]) -> list[list[Report]]:
    """Groups of linked reports (two or more), by union-find over the linking rule."""
    parent = list(range(len(reports)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in candidate_pairs(reports):
        if same_event(reports[i], reports[j]):
            parent[root(j)] = root(i)
    groups: dict[int, list[Report]] = {}
    for i, report in enumerate(reports):
        groups.setdefault(root(i), []).append(report)
    return [g for g in groups.values() if len(g) > 1]


def link_triples(group: Sequence[Report], base: str) -> Iterator[Triple]:
    """A kg:EventLink for one cluster and kg:sameEventAs between its reports."""
    members = sorted({r.node for r in group})
    digest = hashlib.sha256("|".join(members).encode()).hexdigest()[:16]
    node = URIRef(f"{base}fact/event-link/{digest}")
    yield node, RDF.type, KG.EventLink
    yield node, KG.extractedBy, Literal(LINK_RULE)
    yield node, KG.confidence, Literal(Decimal(LINK_CONFIDENCE), datatype=XSD.decimal)
    for report in group:
        yield node, KG.linkedEvent, report.node
        yield node, DCTERMS.source, URIRef(f"{base}article/{report.doc_id}")
        for sentence in report.sentences:
            yield node, PROV.wasDerivedFrom, sentence
    for a in members:
        for b in members:
            if a != b:
                yield a, KG.sameEventAs, b


def events_graph(
    extractions: Sequence[Extraction], resolution: Resolution, base: str
) -> tuple[URIRef, list[Triple]]:
    """The graph ``<base>graph/events`` and its triples: every cluster's links."""
    triples: list[Triple] = []
    for group in clusters(reports_of(extractions, resolution, base)):
        triples += link_triples(group, base)
    return events_graph_iri(base), triples
