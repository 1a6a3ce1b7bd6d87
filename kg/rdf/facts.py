"""Facts → RDF: memberships, relations, events, figures and claims of one article.

Fact IRIs are ``<base>fact/<kind>/<16 hex>``, a hash of the article, the fact's offsets and
kind, so the same input always gives the same IRIs. Shared nodes have readable IRIs:
``<base>role/<slug>`` (org:Role), ``<base>group/<slug>`` (kg:Group), ``<base>measure/…``
(schema:StatisticalVariable), ``<base>place/<slug>`` (a country named only by a demonym and
not otherwise an entity of the corpus), ``<base>government/<slug>`` (the government of a
place that speaks or employs: an organisation, not the territory). Every fact node carries
its evidence (see ``ontology/kg.ttl``): the sentences (prov:wasDerivedFrom), the article
(dcterms:source, "reported in"), rule and confidence. Events, claims and figures are not
strings: they are gaf:denotedBy the span of text that states them (a nif:RFC5147String).

>>> fact_iri("https://x.org/", "claim", "a1", 3, 9)
rdflib.term.URIRef('https://x.org/fact/claim/5cdb049b60f11866')
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property, lru_cache

from rdflib import Literal, URIRef

from kg.heuristics import applies, declare, fired, in_document, is_on
from kg.ingest.files import slugify
from kg.lexicon import table, word_list
from kg.lexicon.fact_words import OCCUPATIONS
from kg.model import (
    NEWS_MEDIUM,
    Claim,
    ClaimKind,
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
from kg.rdf.namespaces import (
    DCTERMS,
    GAF,
    KG,
    NIF,
    ORG,
    PROV,
    RDF,
    RDFS,
    SDO,
    SDO_RECENT,
    SEM,
    SKOS,
    XSD,
)
from kg.rdf.terms import (
    Triple,
    _index,
    article_iri,
    country_node,
    english,
    entity_iri,
    mention_iri,
    sentence_iri,
)
from kg.resolve.geo import geo_index
from kg.resolve.resolver import normalise_name

#: Pronouns a speaker may be written as ("he", "they"): a speaker so written was resolved
#: through an earlier mention.
SPEAKER_PRONOUNS = frozenset(word for kind in ("person", "thing", "group")
                             for word in table("pronouns")[kind])
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
    return _decimal_literal(repr(round(value, 6)))


@lru_cache(maxsize=4096)
def _decimal_literal(number: str) -> Literal:
    """The xsd:decimal of a number's ``repr`` (kept: the same few confidences recur on every
    fact, and building a ``Literal`` costs more than the lookup)."""
    return Literal(format(Decimal(number).normalize(), "f"), datatype=XSD.decimal)


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
        yield node, DCTERMS.source, self.article
        yield node, KG.extractedBy, Literal(evidence.rule)
        yield node, KG.confidence, _plain_decimal(evidence.confidence)
        if (published := self.extraction.document.meta.date_published) is not None:
            yield node, KG.reportedOn, Literal(published, datatype=XSD.date)

    def span_iri(self, span: Span) -> URIRef:
        """The IRI of a stretch of the article (RFC 5147 offsets)."""
        return mention_iri(self.base, self.doc_id, span.begin, span.end)

    def offsets(self, node: URIRef, span: Span, lemma: str | None = None) -> Iterator[Triple]:
        """Where a fact's words are: ``node`` gaf:denotedBy the span (a nif:RFC5147String
        with NIF offsets into the article), so the fact itself is never typed a string."""
        yield node, GAF.denotedBy, self.span_iri(span)
        yield from self.stretch(span, lemma)

    def stretch(self, span: Span, lemma: str | None = None) -> Iterator[Triple]:
        """A stretch of the article as a nif:RFC5147String: NIF offsets, words, sentence."""
        words = self.span_iri(span)
        yield words, RDF.type, NIF.RFC5147String
        yield words, NIF.referenceContext, self.article
        yield words, NIF.beginIndex, _index(span.begin)  # the cached offset literals
        yield words, NIF.endIndex, _index(span.end)
        yield words, NIF.anchorOf, english(span.text)
        if lemma:
            yield words, NIF.lemma, Literal(lemma)
        sentence = self.extraction.sentence_of(span.begin)
        if sentence is not None and span.end <= sentence.end:
            yield words, NIF.sentence, sentence_iri(self.base, self.doc_id, sentence)


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


def party_node(scope: FactScope, party: Party, agent: bool = False
               ) -> tuple[URIRef, list[Triple]]:
    """The IRI a party stands for, and the triples describing it when it is no entity. An
    ``agent`` (a speaker, an employer) that is a place is that place's government."""
    entity = scope.entity_of(party)
    if entity is not None:
        node = entity_iri(scope.base, entity.key)
        if agent and entity.kind is EntityKind.PLACE:
            return _government_of(scope, entity)
        return node, []
    if party.kind is PartyKind.COUNTRY and party.country is not None:
        place, described = demonym_country(scope, party.country.name, party.country.code)
        if agent and not _is_organization(scope, place):
            government, more = government_node(scope, place, party.country.name)
            return government, described + more
        return place, described
    node = URIRef(f"{scope.base}group/{slugify(normalise_name(party.text))}")
    triples: list[Triple] = [
        (node, RDF.type, KG.Group), (node, RDFS.label, Literal(_capitalised(party.text)))
    ]
    if party.country is not None:
        country, more = demonym_country(scope, party.country.name, party.country.code)
        triples += [(node, KG.affiliation, country), *more]
    return node, triples


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def _is_organization(scope: FactScope, node: URIRef) -> bool:
    try:
        entity = scope.resolution.entity(node.removeprefix(scope.base))
    except KeyError:  # a place kg described itself
        return False
    return entity.kind is EntityKind.ORGANIZATION


def demonym_country(scope: FactScope, name: str, code: str) -> tuple[URIRef, list[Triple]]:
    """The corpus's place linked to the country ``code`` in GeoNames, else the corpus entity
    named ``name``, else ``<base>place/<slug>`` described here: one IRI per place."""
    node, triples = country_node(scope.resolution, scope.base, code, name)
    if not triples:
        return node, triples
    key = country_index(scope.resolution).get(normalise_name(name))
    return (entity_iri(scope.base, key), []) if key is not None else (node, triples)


def _government_of(scope: FactScope, place: Entity) -> tuple[URIRef, list[Triple]]:
    """A place's government; a national capital speaks for its country ("Moscow said")."""
    geo = place.geo
    if geo is not None and geo.feature == "city" and geo.geonames_id in geo_index().capitals:
        country, described = country_node(scope.resolution, scope.base, geo.country_code)
        name = next((str(o) for _, p, o in described if p == RDFS.label), None)
        if name is None:
            name = scope.resolution.entity(country.removeprefix(scope.base)).label
        government, more = government_node(scope, country, name)
        return government, described + more
    return government_node(scope, entity_iri(scope.base, place.key), place.label)


def government_node(scope: FactScope, place: URIRef, name: str) -> tuple[URIRef, list[Triple]]:
    """``<base>government/<slug>``: the government of ``place``, the organisation that speaks
    and employs for it (schema:areaServed the place), distinct from the territory."""
    slug = slugify(place.removeprefix(scope.base).split("/", 1)[-1])
    node = URIRef(f"{scope.base}government/{slug}")
    return node, [
        (node, RDF.type, SDO.GovernmentOrganization), (node, RDF.type, SDO.Organization),
        (node, RDF.type, ORG.Organization),
        (node, RDFS.label, Literal(f"Government of {name}")),
        (node, SDO.areaServed, place),
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
        agent = _employs_as_government(scope, fact)
        employer: Party | None = fact.organization
        if _territory(scope, fact.organization, agent):
            employer = _body_named_by_place(fact) if is_on(BODY_NAMED_BY_PLACE) else None
            if employer is not None:
                fired(BODY_NAMED_BY_PLACE)
        if employer is not None:
            organization, more = party_node(scope, employer, agent=agent)
            yield from more
            yield node, ORG.organization, organization
    if fact.former:
        yield node, KG.former, Literal(True)
    yield from scope.evidence(node, fact.evidence)


#: Posts held in a body (a team, a company), never a trade practised in a place.
EMPLOYER_POSTS = word_list("employer-posts")


def _body_named_by_place(fact: Membership) -> Party | None:
    """The body a place's name stands for where the post is one held in a body ("Wales
    coach", "Wasps rugby director", "head of Universal" with Universal tagged a place): the
    team or company as written, a group with the place's name but not the place, which never
    employs. A trade practised in a place ("a Kent farmer") has no organisation."""
    words = fact.role.lower().split()
    if fact.organization is None or not words or words[-1] not in EMPLOYER_POSTS:
        return None
    named = fact.organization
    return Party(PartyKind.GROUP, named.text, named.begin, named.end, None, None)


#: Name words of a polity: a place so named has a government even where GeoNames has no entry.
POLITY_WORDS = word_list("polity-words")


def _governed(entity: Entity) -> bool:
    """Whether a place is one that has a government: GeoNames knows it, or its name says it is
    a polity ("Donetsk People's Republic")."""
    return entity.geo is not None or any(
        word.lower() in POLITY_WORDS for word in entity.label.split())


def _employs_as_government(scope: FactScope, fact: Membership) -> bool:
    """Whether a place named as the organisation stands for its government: in an office
    ("French President", "London mayor") of a place GeoNames knows. A coach, manager or
    striker works for the team named after it ("Liverpool manager", "Wales coach"), and a
    "place" GeoNames does not know is a company the tagger took for one ("architect at
    Cisco"): both are the entity as named."""
    if fact.role.split()[-1].lower() in OCCUPATIONS:
        return False
    return fact.organization is None or _acts_through_government(scope, fact.organization)


def _acts_through_government(scope: FactScope, party: Party) -> bool:
    """Whether ``party`` acts as itself or, a place, through its government: anything but a
    place, or a place that has one (``_governed``)."""
    entity = scope.entity_of(party)
    return entity is None or entity.kind is not EntityKind.PLACE or _governed(entity)


def relation_triples(scope: FactScope, fact: Relation) -> Iterator[Triple]:
    """The relation itself, and an rdf:Statement about it carrying its evidence."""
    subject, more = party_node(scope, fact.subject)
    obj, more_obj = party_node(scope, fact.object)
    if _left_out(NO_SELF_RELATION, subject == obj):
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
    """A schema:Observation (a schema:QuantitativeValue) of the schema:StatisticalVariable it
    gives a value for, with the measure as the sentence words it (kg:measureWording) and,
    when the sentence says whose figure it is ("the Bank forecast growth of 1.8%"),
    prov:wasAttributedTo."""
    if fact.value is None:
        return
    node = figure_iri(scope, fact.span)
    yield node, RDF.type, SDO.Observation
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
        yield node, SDO.variableMeasured, measure
        if fact.wording:
            yield node, KG.measureWording, english(fact.wording)
        if fact.source is not None:
            source, described = party_node(scope, fact.source, agent=True)
            yield from described
            yield node, PROV.wasAttributedTo, source
    yield from scope.evidence(node, fact.evidence)


def measure_node(scope: FactScope, measure: Measure) -> tuple[URIRef, list[Triple]]:
    """``<base>measure/<predicate>/<counted>/<anchor>[/<period>][/forecast]`` with its label
    and parts: what is counted or measured, of what, when, and whether it is a forecast."""
    anchor_node: URIRef | None = None
    anchor_label, more = "", list[Triple]()
    if measure.anchor is not None:
        anchor_node, more = party_node(scope, measure.anchor)
        anchor_label = label_of(scope, measure.anchor)
    anchor_slug = slugify(anchor_node.removeprefix(scope.base)) if anchor_node else (
        f"cause-{slugify(measure.cause)}" if measure.cause else "anywhere")
    path = f"{slugify(measure.predicate)}/{slugify(measure.counted)}/{anchor_slug}"
    if measure.period:
        path += f"/period-{slugify(measure.period)}"
    if measure.forecast:
        path += "/forecast"
    node = URIRef(f"{scope.base}measure/{path}")
    label = " · ".join(part for part in (
        measure.counted, measure.predicate, anchor_label or measure.cause, measure.period,
        "forecast" if measure.forecast else None) if part)
    triples: list[Triple] = [
        (node, RDF.type, SDO_RECENT.StatisticalVariable), (node, RDFS.label, english(label)),
        (node, KG.measuredPredicate, Literal(measure.predicate)),
        (node, KG.countedThing, Literal(measure.counted)), *more,
    ]
    if anchor_node is not None:
        triples.append((node, KG.measuredFor, anchor_node))
    elif measure.cause:  # a toll keyed by what it is of ("killed in the earthquake")
        triples.append((node, KG.measuredCause, Literal(measure.cause)))
    if measure.period:
        triples.append((node, KG.measuredPeriod, Literal(measure.period)))
    if measure.forecast:
        triples.append((node, KG.forecast, Literal(True)))
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
    yield node, RDFS.label, english(event_label(scope, fact))
    yield node, SEM.eventType, KG[fact.kind.value]
    yield from scope.offsets(node, fact.trigger, lemma=fact.lemma)
    if fact.planned:
        yield node, KG.planned, Literal(True)
    yield node, KG.factuality, KG.Generic if fact.generic else (
        KG.Planned if fact.planned else KG.Happened)
    for prop, group in ((KG.agent, fact.agents), (KG.patient, fact.patients)):
        for party in group:
            actor, more = party_node(scope, party)
            yield from more
            yield node, prop, actor
            yield node, SEM.hasActor, actor
    for place in event_places(scope, fact):
        where, more = party_node(scope, place)
        yield from more
        yield node, SEM.hasPlace, where
    yield from time_triples(node, fact.time)
    for span in fact.figures:
        yield node, KG.quantity, figure_iri(scope, span)
    yield from scope.evidence(node, fact.evidence)


def event_places(scope: FactScope, event: Event) -> list[Party]:
    """The places of ``event`` that resolution left places to be at: not a name the
    article-wide vote made a person, nor a news medium ("disclosures in the East Anglian Daily
    Times" were published there; nothing happened there)."""
    kept = []
    for place in event.places:
        entity = scope.entity_of(place)
        if entity is not None and (
                _left_out(NO_PERSON_PLACE, entity.kind is EntityKind.PERSON)
                or _left_out(NO_MEDIUM_PLACE, entity.fine_type == NEWS_MEDIUM)):
            continue
        kept.append(place)
    return kept


def event_label(scope: FactScope, event: Event) -> str:
    """ "Surrender at Azovstal, 2022-05-19"; "Invasion of Ukraine, 2022-02-24"."""
    label = event.kind.value
    if places := event_places(scope, event):
        label += f" at {label_of(scope, places[0])}"
    elif event.patients:
        label += f" of {label_of(scope, event.patients[0])}"
    if event.time is not None and (stamp := time_literal(event.time)) is not None:
        label += f", {stamp}"
    return label


def time_literal(time: TimeExpression) -> Literal | None:
    """What the text gives, no more: a day as xsd:date, a month as xsd:gYearMonth, a year as
    xsd:gYear ("in 2014" is not 1 January 2014).

    >>> from datetime import date
    >>> time_literal(TimeExpression(0, 7, "in 2014", 0, date(2014, 1, 1), "year"))
    rdflib.term.Literal('2014', datatype=rdflib.term.URIRef('http://www.w3.org/2001/XMLSchema#gYear'))
    """
    if time.value is None:
        return None
    if time.granularity == "year":
        return Literal(f"{time.value.year:04d}", datatype=XSD.gYear)
    if time.granularity == "month":
        return Literal(f"{time.value.year:04d}-{time.value.month:02d}", datatype=XSD.gYearMonth)
    return Literal(time.value, datatype=XSD.date)


def time_triples(node: URIRef, time: TimeExpression | None) -> Iterator[Triple]:
    """When: sem:hasTimeStamp as precise as the text (the datatype says how precise), or the
    text flagged unresolved."""
    if time is None:
        return
    yield node, KG.timeText, english(time.text)
    stamp = time_literal(time)
    if stamp is not None:
        yield node, SEM.hasTimeStamp, stamp
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
    agent = _speaks_as_government(scope, fact)
    if _territory(scope, fact.speaker, agent):
        return
    node = claim_iri(scope, fact)
    speaker, more = party_node(scope, fact.speaker, agent=agent)
    yield from more
    yield node, RDF.type, SDO.Claim
    yield node, SDO.author, speaker
    yield node, PROV.wasAttributedTo, speaker
    yield node, KG.speakerText, english(fact.speaker.text)
    yield from _attribution(scope, node, fact.speaker)
    yield node, KG.cueVerb, Literal(fact.cue)
    yield node, KG.claimKind, Literal(fact.kind.value)
    yield from scope.offsets(node, fact.content)
    if fact.kind is ClaimKind.DIRECT:  # the article's words repeat the speaker's own
        yield scope.span_iri(fact.content), PROV.wasQuotedFrom, node
    if fact.uttered is not None and (uttered := time_literal(fact.uttered)) is not None:
        yield node, SDO.dateCreated, uttered
    yield from _claim_contents(scope, node, fact.content)
    yield from scope.evidence(node, fact.evidence)


def _attribution(scope: FactScope, node: URIRef, speaker: Party) -> Iterator[Triple]:
    """How a claim's speaker was found, so a reader can check it in one look: where the
    article writes the speaker (kg:speakerWords), the earlier mention a pronoun or a bare
    surname was resolved through (kg:speakerAntecedent, a nif:Phrase with its sentence) and
    which of those it was (kg:speakerResolution)."""
    text = scope.extraction.document.text
    antecedent = speaker.mention if scope.entity_of(speaker) is not None else None
    if 0 <= speaker.begin < speaker.end <= len(text):
        words = Span(speaker.begin, speaker.end, text[speaker.begin:speaker.end])
        yield node, KG.speakerWords, scope.span_iri(words)
        if antecedent != (words.begin, words.end):  # a name's words are its nif:Phrase
            yield from scope.stretch(words)
    outside = antecedent is not None and not speaker.begin <= antecedent[0] < speaker.end
    if antecedent is not None and outside:
        yield node, KG.speakerAntecedent, scope.span_iri(Span(*antecedent, ""))
    yield node, KG.speakerResolution, Literal(_resolution(speaker, outside))


def _resolution(speaker: Party, outside: bool) -> str:
    """The kg:speakerResolution of a speaker (see ontology/kg.ttl)."""
    if speaker.kind is PartyKind.GROUP:
        return "group"
    if speaker.kind is PartyKind.COUNTRY:
        return "demonym"
    if not outside:
        return "name"
    return "pronoun" if speaker.text.casefold() in SPEAKER_PRONOUNS else "earlier mention"


def _territory(scope: FactScope, party: Party, as_government: bool) -> bool:
    """Whether ``party`` would stand as a bare territory where an agent belongs (a speaker,
    an employer): a place that does not speak or employ through its government. A territory
    never speaks or employs, so such a claim is not stated and such a role has no
    organisation — the place is a team, a company or a person the tagger took for a place
    ("Wales coach", "the Kremlin said" tagged as a place), and no statement beats a wrong one."""
    entity = scope.entity_of(party)
    return _left_out(TERRITORY_NO_AGENT, entity is not None
                     and entity.kind is EntityKind.PLACE and not as_government)


def _speaks_as_government(scope: FactScope, fact: Claim) -> bool:
    """A place speaks through its government ("Moscow said") only when GeoNames knows it; a
    "place" it does not know is a name the tagger mistyped (a footballer, a company)."""
    return _acts_through_government(scope, fact.speaker)


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
    with in_document(extraction.document.doc_id):
        for fact in extraction.facts:
            triples += WRITERS[type(fact)](scope, fact)  # type: ignore[operator]
    return triples


# -- the registry's entries: what writing leaves out of the graph --


def _left_out(id: str, condition: bool) -> bool:
    """Whether the writing filter ``id`` is on and ``condition`` holds (its fire recorded)."""
    return applies(id, lambda: condition)


NO_PERSON_PLACE = declare(
    "rdf.event-place-person", "rdf", reads="an event's places and their entities",
    writes="leaves the place out of the event",
    description="A place of an event that the article-wide vote made a person is no place "
                "the event happened at.",
    example="Five unions met Mr Prescott on Monday to press their case.").id
NO_MEDIUM_PLACE = declare(
    "rdf.event-place-newspaper", "rdf", reads="an event's places and their finer classes",
    writes="leaves the place out of the event",
    description="A news medium is no event's place: \"disclosures in the East Anglian Daily "
                "Times\" were published there, nothing happened there.",
    example="He was arrested after disclosures in the East Anglian Daily Times.").id
NO_SELF_RELATION = declare(
    "rdf.no-self-relation", "rdf", reads="a relation's two parties as resolved",
    writes="leaves the relation out of the graph",
    description="A relation whose two parties resolution made one entity is not written "
                "(\"the Ministry, part of the Ministry\").",
    example="Northern Ireland's team, part of Northern Ireland, lost.").id
TERRITORY_NO_AGENT = declare(
    "rdf.territory-no-agent", "rdf", reads="a speaker's or an employer's entity",
    writes="leaves the claim, or the membership's organisation, out of the graph",
    description="A bare territory never speaks or employs: a claim whose speaker is a place "
                "that does not act through its government is not stated, and such an "
                "employer is left out (\"Wales coach\", a team taken for the place).",
    example="Wales coach Warren Gatland said the side was ready.").id
BODY_NAMED_BY_PLACE = declare(
    "rdf.body-named-by-place", "rdf", reads="a post held in a body and a place as employer",
    writes="the membership's organisation: a group named as written",
    description="Where a post is one held in a body (\"Wales coach\", \"Wasps rugby "
                "director\"), the employer a place's name stands for is the team or company "
                "as written, a group, not the place.",
    example="Wales coach Warren Gatland said the side was ready.").id

