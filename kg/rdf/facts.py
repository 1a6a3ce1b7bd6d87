"""Facts → RDF: memberships, relations, events, figures and claims of one article.

Fact IRIs are ``<base>fact/<kind>/<16 hex>``, a hash of the article, the fact's offsets and
kind, so the same input always gives the same IRIs. Shared nodes have readable IRIs:
``<base>role/<slug>`` (org:Role), ``<base>group/<slug>`` (kg:Group), ``<base>measure/…``
(kg:Measure), ``<base>country/<iso>`` (a country named only by a demonym and not otherwise
an entity of the corpus). Every fact node carries its evidence (see ``ontology/kg.ttl``).

>>> fact_iri("https://x.org/", "claim", "a1", 3, 9)
rdflib.term.URIRef('https://x.org/fact/claim/5cdb049b60f11866')
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property

from rdflib import Literal, URIRef

from kg.ingest.files import slugify
from kg.model import (
    Claim,
    Entity,
    EntityKind,
    Event,
    Evidence,
    Extraction,
    Figure,
    Measure,
    Membership,
    Party,
    PartyKind,
    Relation,
    RelationKind,
    Resolution,
    Sentence,
    Span,
    TimeExpression,
    within,
)
from kg.rdf.namespaces import KG, NIF, ORG, PROV, RDF, RDFS, SDO, SEM, SKOS, XSD
from kg.rdf.terms import Triple, article_iri, entity_iri, sentence_iri
from kg.resolve.resolver import normalise_name

RELATION_PROPERTY = {
    RelationKind.SUB_ORGANIZATION: ORG.subOrganizationOf,
    RelationKind.MEMBER_OF: ORG.memberOf,
    RelationKind.CONTAINED_IN: SDO.containedInPlace,
}


def fact_iri(base: str, kind: str, doc_id: str, begin: int, end: int, extra: str = "") -> URIRef:
    """A fact's IRI from its article, offsets and kind (and anything that tells two facts at
    the same offsets apart)."""
    digest = hashlib.sha256(f"{doc_id}|{kind}|{begin}|{end}|{extra}".encode()).hexdigest()
    return URIRef(f"{base}fact/{kind}/{digest[:16]}")


def _plain_decimal(value: float) -> Literal:
    """``value`` as xsd:decimal without exponent ("1730", not "1.73E+3")."""
    text = format(Decimal(repr(round(value, 6))).normalize(), "f")
    return Literal(text, datatype=XSD.decimal)


@dataclass
class FactScope:
    """One article's facts being written: where IRIs point and which nodes are done."""

    extraction: Extraction
    resolution: Resolution
    base: str

    @property
    def doc_id(self) -> str:
        return self.extraction.document.doc_id

    @property
    def article(self) -> URIRef:
        return article_iri(self.base, self.doc_id)

    def entity_of(self, party: Party) -> Entity | None:
        """The resolved entity a party's mention refers to, if any."""
        if party.mention is None:
            return None
        key = self.resolution.assignments.get((self.doc_id, *party.mention))
        return self.resolution.entity(key) if key is not None else None

    @cached_property
    def sentences(self) -> dict[int, Sentence]:
        return {s.index: s for s in self.extraction.sentences}

    @cached_property
    def claimables(self) -> list[tuple[int, int, URIRef, URIRef]]:
        """(begin, end, predicate, object) of what a claim's words can hold (entities'
        mentions, events' triggers, figures), by begin: each claim looks up only its own
        stretch, where a scan of the article per claim made long articles quadratic."""
        items = []
        for mention in self.extraction.mentions:
            key = self.resolution.assignments.get((self.doc_id, mention.begin, mention.end))
            if key is not None:
                items.append((mention.begin, mention.end, SDO.mentions,
                              entity_iri(self.base, key)))
        for fact in self.extraction.facts:
            if isinstance(fact, Event):
                items.append((fact.trigger.begin, fact.trigger.end, SDO.about,
                              event_iri(self, fact)))
            elif isinstance(fact, Figure) and fact.value is not None:
                items.append((fact.span.begin, fact.span.end, KG.quantity,
                              figure_iri(self, fact.span)))
        return sorted(items, key=lambda item: item[0])

    def evidence(self, node: URIRef, evidence: Evidence) -> Iterator[Triple]:
        """Sentences, article, rule and confidence behind ``node``."""
        for index in evidence.sentences:
            if index in self.sentences:
                sentence = self.sentences[index]
                yield node, PROV.wasDerivedFrom, sentence_iri(self.base, self.doc_id, sentence)
        yield node, PROV.hadPrimarySource, self.article
        yield node, KG.extractedBy, Literal(evidence.rule)
        yield node, KG.confidence, _plain_decimal(evidence.confidence)
        if (published := self.extraction.document.meta.date_published) is not None:
            yield node, KG.reportedOn, Literal(published, datatype=XSD.date)

    def offsets(self, node: URIRef, span: Span) -> Iterator[Triple]:
        """Where a fact's words are: NIF offsets into the article."""
        yield node, NIF.referenceContext, self.article
        yield node, NIF.beginIndex, Literal(span.begin, datatype=XSD.nonNegativeInteger)
        yield node, NIF.endIndex, Literal(span.end, datatype=XSD.nonNegativeInteger)
        yield node, NIF.anchorOf, Literal(span.text)


def country_index(resolution: Resolution) -> dict[str, str]:
    """Compared name → key of the corpus's places (and organisations) by every name they go
    by, so a demonym's country lands on the corpus entity of that name."""
    cached = resolution.__dict__.get("_country_index")
    if cached is None:
        cached = {}
        for kind in (EntityKind.ORGANIZATION, EntityKind.PLACE):  # places win
            for entity in (e for e in resolution.entities if e.kind is kind):
                for name in (entity.label, *entity.alt_labels):
                    cached[normalise_name(name)] = entity.key
        resolution.__dict__["_country_index"] = cached
    return cached


def party_node(scope: FactScope, party: Party) -> tuple[URIRef, list[Triple]]:
    """The IRI a party stands for, and the triples describing it when it is no entity."""
    entity = scope.entity_of(party)
    if entity is not None:
        return entity_iri(scope.base, entity.key), []
    if party.kind is PartyKind.COUNTRY and party.country is not None:
        return country_node(scope, party.country.name, party.country.code)
    node = URIRef(f"{scope.base}group/{slugify(normalise_name(party.text))}")
    triples: list[Triple] = [
        (node, RDF.type, KG.Group), (node, RDFS.label, Literal(_capitalised(party.text)))
    ]
    if party.country is not None:
        country, more = country_node(scope, party.country.name, party.country.code)
        triples += [(node, KG.affiliation, country), *more]
    return node, triples


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def country_node(scope: FactScope, name: str, code: str) -> tuple[URIRef, list[Triple]]:
    """The corpus entity named ``name``, else ``<base>country/<iso>`` described here."""
    key = country_index(scope.resolution).get(normalise_name(name))
    if key is not None:
        return entity_iri(scope.base, key), []
    node = URIRef(f"{scope.base}country/{code.lower()}")
    return node, [
        (node, RDF.type, SDO.Country), (node, RDF.type, SDO.Place),
        (node, RDFS.label, Literal(name)),
    ]


def label_of(scope: FactScope, party: Party) -> str:
    """How a party is shown: its entity's label, its country's name, or its words."""
    entity = scope.entity_of(party)
    if entity is not None:
        return entity.label
    return party.country.name if party.kind is PartyKind.COUNTRY and party.country else party.text


# --- memberships and relations --------------------------------------------------------------


def membership_triples(scope: FactScope, fact: Membership) -> Iterator[Triple]:
    """An org:Membership with its role node."""
    person, more = party_node(scope, fact.person)
    yield from more
    organization_at = fact.organization.begin if fact.organization else -1
    node = fact_iri(scope.base, "membership", scope.doc_id, fact.person.begin,
                    fact.person.end, f"{fact.role}|{organization_at}")
    role = URIRef(f"{scope.base}role/{slugify(fact.role.lower())}")
    yield node, RDF.type, ORG.Membership
    yield node, ORG.member, person
    yield node, ORG.role, role
    yield role, RDF.type, ORG.Role
    yield role, SKOS.prefLabel, Literal(fact.role)
    if fact.organization is not None:
        organization, more = party_node(scope, fact.organization)
        yield from more
        yield node, ORG.organization, organization
    if fact.former:
        yield node, KG.former, Literal(True)
    yield from scope.evidence(node, fact.evidence)


def relation_triples(scope: FactScope, fact: Relation) -> Iterator[Triple]:
    """The relation itself, and an rdf:Statement about it carrying its evidence."""
    subject, more = party_node(scope, fact.subject)
    obj, more_obj = party_node(scope, fact.object)
    if subject == obj:
        return
    yield from more + more_obj
    prop = RELATION_PROPERTY[fact.kind]
    node = fact_iri(scope.base, "relation", scope.doc_id, fact.subject.begin, fact.object.end,
                    f"{fact.kind.value}|{fact.subject.end}|{fact.object.begin}")
    yield subject, prop, obj
    yield node, RDF.type, RDF.Statement
    yield node, RDF.subject, subject
    yield node, RDF.predicate, prop
    yield node, RDF.object, obj
    yield from scope.evidence(node, fact.evidence)


# --- figures ----------------------------------------------------------------------------------


def figure_iri(scope: FactScope, span: Span) -> URIRef:
    """The IRI of the figure at ``span``."""
    return fact_iri(scope.base, "quantity", scope.doc_id, span.begin, span.end)


def figure_triples(scope: FactScope, fact: Figure) -> Iterator[Triple]:
    """A schema:QuantitativeValue and the kg:Measure it gives a value for."""
    if fact.value is None:
        return
    node = figure_iri(scope, fact.span)
    yield node, RDF.type, SDO.QuantitativeValue
    yield node, SDO.value, _plain_decimal(fact.value)
    if fact.upper is not None:  # a range: "8-9%"
        yield node, SDO.minValue, _plain_decimal(fact.value)
        yield node, SDO.maxValue, _plain_decimal(fact.upper)
    if fact.unit:
        yield node, SDO.unitText, Literal(fact.unit)
    if fact.qualifier:
        yield node, KG.qualifier, Literal(fact.qualifier)
    yield from scope.offsets(node, fact.span)
    if fact.measure is not None:
        measure, more = measure_node(scope, fact.measure)
        yield from more
        yield node, KG.measures, measure
    yield from scope.evidence(node, fact.evidence)


def measure_node(scope: FactScope, measure: Measure) -> tuple[URIRef, list[Triple]]:
    """``<base>measure/<predicate>/<counted>/<anchor>`` with its label and parts."""
    anchor_node: URIRef | None = None
    anchor_label, more = "", list[Triple]()
    if measure.anchor is not None:
        anchor_node, more = party_node(scope, measure.anchor)
        anchor_label = label_of(scope, measure.anchor)
    anchor_slug = slugify(anchor_node.removeprefix(scope.base)) if anchor_node else "anywhere"
    path = f"{slugify(measure.predicate)}/{slugify(measure.counted)}/{anchor_slug}"
    node = URIRef(f"{scope.base}measure/{path}")
    label = " · ".join(part for part in (measure.counted, measure.predicate, anchor_label) if part)
    triples: list[Triple] = [
        (node, RDF.type, KG.Measure), (node, RDFS.label, Literal(label)),
        (node, KG.measuredPredicate, Literal(measure.predicate)),
        (node, KG.countedThing, Literal(measure.counted)), *more,
    ]
    if anchor_node is not None:
        triples.append((node, KG.measuredFor, anchor_node))
    return node, triples


# --- events -----------------------------------------------------------------------------------


def event_iri(scope: FactScope, event: Event) -> URIRef:
    """The IRI of one article's report of an event."""
    trigger = event.trigger
    return fact_iri(scope.base, "event", scope.doc_id, trigger.begin, trigger.end, event.kind)


def event_triples(scope: FactScope, fact: Event) -> Iterator[Triple]:
    """A schema:Event / sem:Event with type, participants, place, time and figures."""
    node = event_iri(scope, fact)
    yield node, RDF.type, SDO.Event
    yield node, RDF.type, SEM.Event
    yield node, RDFS.label, Literal(event_label(scope, fact))
    yield node, SEM.eventType, KG[fact.kind.value]
    yield node, KG.triggerLemma, Literal(fact.lemma)
    if fact.planned:
        yield node, KG.planned, Literal(True)
    yield from scope.offsets(node, fact.trigger)
    for prop, group in ((KG.agent, fact.agents), (KG.patient, fact.patients)):
        for party in group:
            actor, more = party_node(scope, party)
            yield from more
            yield node, prop, actor
            yield node, SEM.hasActor, actor
    for place in fact.places:
        where, more = party_node(scope, place)
        yield from more
        yield node, SEM.hasPlace, where
    yield from time_triples(node, fact.time)
    for span in fact.figures:
        yield node, KG.quantity, figure_iri(scope, span)
    yield from scope.evidence(node, fact.evidence)


def event_label(scope: FactScope, event: Event) -> str:
    """ "Surrender at Azovstal, 2022-05-19"; "Invasion of Ukraine, 2022-02-24"."""
    label = event.kind.value
    if event.places:
        label += f" at {label_of(scope, event.places[0])}"
    elif event.patients:
        label += f" of {label_of(scope, event.patients[0])}"
    if event.time is not None and event.time.value is not None:
        label += f", {event.time.value.isoformat()}"
    return label


def time_triples(node: URIRef, time: TimeExpression | None) -> Iterator[Triple]:
    """When: the date (xsd:date) and its granularity, or the text flagged unresolved."""
    if time is None:
        return
    yield node, KG.timeText, Literal(time.text)
    if time.value is not None:
        yield node, SEM.hasTimeStamp, Literal(time.value, datatype=XSD.date)
        if time.granularity:
            yield node, KG.timeGranularity, Literal(time.granularity)
    else:
        yield node, KG.timeUnresolved, Literal(True)


# --- claims -----------------------------------------------------------------------------------


def claim_iri(scope: FactScope, claim: Claim) -> URIRef:
    """The IRI of a claim."""
    content = claim.content
    extra = f"{claim.kind}|{claim.speaker.begin}"
    return fact_iri(scope.base, "claim", scope.doc_id, content.begin, content.end, extra)


def claim_triples(scope: FactScope, fact: Claim) -> Iterator[Triple]:
    """A schema:Claim: speaker, cue, words with offsets, and what it mentions."""
    node = claim_iri(scope, fact)
    speaker, more = party_node(scope, fact.speaker)
    yield from more
    yield node, RDF.type, SDO.Claim
    yield node, SDO.author, speaker
    yield node, KG.speakerText, Literal(fact.speaker.text)
    yield node, KG.cueVerb, Literal(fact.cue)
    yield node, KG.claimKind, Literal(fact.kind.value)
    yield from scope.offsets(node, fact.content)
    if fact.uttered is not None and fact.uttered.value is not None:
        yield node, SDO.dateCreated, Literal(fact.uttered.value, datatype=XSD.date)
    yield from _claim_contents(scope, node, fact.content)
    yield from scope.evidence(node, fact.evidence)


def _claim_contents(scope: FactScope, node: URIRef, content: Span) -> Iterator[Triple]:
    """schema:mentions the entities, schema:about the events, kg:quantity the figures."""
    items = scope.claimables
    for i in range(bisect_left(items, content.begin, key=lambda item: item[0]), len(items)):
        begin, end, predicate, value = items[i]
        if begin > content.end:
            break
        if within(content, begin, end):
            yield node, predicate, value


WRITERS = {
    Membership: membership_triples,
    Relation: relation_triples,
    Figure: figure_triples,
    Event: event_triples,
    Claim: claim_triples,
}


def fact_triples(extraction: Extraction, resolution: Resolution, base: str) -> list[Triple]:
    """Every triple of an article's facts (part of the article's named graph)."""
    scope = FactScope(extraction, resolution, base)
    triples: list[Triple] = []
    for fact in extraction.facts:
        triples += WRITERS[type(fact)](scope, fact)  # type: ignore[operator]
    return triples

