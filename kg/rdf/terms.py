"""Model objects → RDF terms: where rdflib terms first appear.

IRIs (``base`` is ``Settings.base_iri``, by default ``https://w3id.org/kgnews/id/``)::

    <base>article/<doc_id>                    the article (schema:NewsArticle, nif:Context)
    <base>article/<doc_id>#char=<b>,<e>       a mention (nif:Phrase, RFC 5147 offsets)
    <base>article/<doc_id>#sentence=<b>,<e>   a sentence (nif:Sentence)
    <base><kind>/<slug>                       an entity, e.g. <base>person/vladimir-putin
    <base>graph/article/<doc_id>              the named graph of what one article contributed
    <base>graph/entities                      the corpus-level graph: labels, links, merges
    <base>place/<slug>                         a country only a demonym named ("Russian"),
                                              owl:sameAs its GeoNames feature

Text the article wrote (its text, sentences, mentions, headline) is tagged ``@en``; names
(entities' labels) are not: a name is no English text.

Each article's graph is self-contained (it types the entities it mentions), so replacing one
article touches only its graph and the entities graph.

>>> str(article_iri("https://x.org/", "a1"))
'https://x.org/article/a1'
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter, defaultdict
from collections.abc import Iterator
from functools import lru_cache
from typing import TypeAlias

from rdflib import Literal, URIRef
from rdflib.term import Node

from kg.ingest.files import slugify
from kg.model import (
    OWN_CLASSES,
    WORK_CLASSES,
    ArticleMeta,
    Entity,
    EntityKind,
    Extraction,
    Mention,
    MergeDecision,
    Resolution,
    Sentence,
)
from kg.rdf.namespaces import (
    GEONAMES,
    GN,
    ITSRDF,
    KG,
    NIF,
    OWL,
    RDF,
    RDFS,
    SDO,
    SDO_RECENT,
    SKOS,
    WGS,
    XSD,
)
from kg.resolve.geo import geo_index

Triple: TypeAlias = tuple[Node, Node, Node]
Quad: TypeAlias = tuple[Node, Node, Node, Node]

CLASS_OF_KIND = {
    EntityKind.PERSON: SDO.Person,
    EntityKind.ORGANIZATION: SDO.Organization,
    EntityKind.PLACE: SDO.Place,
    EntityKind.EVENT: SDO.Event,
}
#: Finer classes (``Entity.fine_type``): schema.org's own, or kg's subclasses of them.
FINE_CLASSES = {
    "GovernmentOrganization": SDO.GovernmentOrganization,
    "Corporation": SDO.Corporation,
    "NewsMediaOrganization": SDO.NewsMediaOrganization,
    "SportsTeam": SDO.SportsTeam,
    "NGO": SDO.NGO,
    "PoliticalParty": SDO_RECENT.PoliticalParty,
    "EducationalOrganization": SDO.EducationalOrganization,
    "ArmedForces": KG.ArmedForces,
    "Court": KG.Court,
    "Product": SDO.Product,
    "Vehicle": SDO.Vehicle,
    "Weapon": KG.Weapon,
    # things the tagger has no class for (kg.resolve.things)
    "MusicGroup": SDO.MusicGroup,
    "SportsEvent": SDO.SportsEvent,
    "Festival": SDO.Festival,
    "Event": SDO.Event,
    "StadiumOrArena": SDO.StadiumOrArena,
    "Movie": SDO.Movie,
    "TVSeries": SDO.TVSeries,
    "VideoGame": SDO.VideoGame,
    "MusicRecording": SDO.MusicRecording,
    "Book": SDO.Book,
    "Legislation": SDO.Legislation,
    "Award": KG.Award,
}
#: The classes one of which every entity has: the coarse four, a work, or its own class.
ENTITY_CLASSES = (*CLASS_OF_KIND.values(), SDO.CreativeWork,
                  *(FINE_CLASSES[name] for name in sorted(OWN_CLASSES)))
EN = "en"


def english(text: str) -> Literal:
    """Text the article wrote, tagged as English."""
    return Literal(text, lang=EN)


def classes_of(entity: Entity) -> tuple[URIRef, ...]:
    """The rdf:types of an entity: its coarse class (unless its fine class replaces it) and
    its fine class.

    >>> [str(c) for c in classes_of(Entity("place/x", EntityKind.PLACE, "X", fine_type="Weapon"))]
    ['https://w3id.org/kgnews/ontology#Weapon']
    >>> [str(c) for c in classes_of(Entity("o/x", EntityKind.ORGANIZATION, "X", fine_type="Movie"))]
    ['https://schema.org/CreativeWork', 'https://schema.org/Movie']
    """
    fine = FINE_CLASSES.get(entity.fine_type or "")
    coarse = CLASS_OF_KIND[entity.kind]
    if fine is None or fine == coarse:
        return (coarse,)
    if entity.fine_type in OWN_CLASSES:
        return (fine,)
    if entity.fine_type in WORK_CLASSES:
        return (SDO.CreativeWork, fine)
    return (coarse, fine)


def article_iri(base: str, doc_id: str) -> URIRef:
    """The IRI of an article."""
    return URIRef(f"{base}article/{doc_id}")


def article_graph_iri(base: str, doc_id: str) -> URIRef:
    """The named graph holding what one article contributed."""
    return URIRef(f"{base}graph/article/{doc_id}")


def entities_graph_iri(base: str) -> URIRef:
    """The named graph of corpus-level entity facts."""
    return URIRef(f"{base}graph/entities")


def entity_iri(base: str, key: str) -> URIRef:
    """The IRI of an entity from its key ("person/vladimir-putin")."""
    return URIRef(f"{base}{key}")


def mention_iri(base: str, doc_id: str, begin: int, end: int) -> URIRef:
    """A mention's IRI: its article's IRI with an RFC 5147 character fragment."""
    return URIRef(f"{base}article/{doc_id}#char={begin},{end}")


def sentence_iri(base: str, doc_id: str, sentence: Sentence) -> URIRef:
    """A sentence's IRI."""
    return URIRef(f"{base}article/{doc_id}#sentence={sentence.begin},{sentence.end}")


@lru_cache(maxsize=1 << 16)
def _index(value: int) -> Literal:
    # Cached: offsets recur in every article and rdflib's Literal() is slow (a third of the
    # time spent making an article's triples). Literals are immutable, so sharing is safe.
    return Literal(value, datatype=XSD.nonNegativeInteger)


def safe_http_iri(text: str) -> URIRef | None:
    """``text`` as an IRI when it is a plausible http(s) URL, else ``None`` (never raw junk).

    >>> safe_http_iri("https://example.org/a b") is None
    True
    """
    if not text.startswith(("http://", "https://")):
        return None
    if any(ch in text for ch in ' <>"{}|\\^`') or any(ord(ch) < 33 for ch in text):
        return None
    return URIRef(text)


def article_triples(extraction: Extraction, base: str) -> Iterator[Triple]:
    """The article node: type, text, metadata and where it came from."""
    document = extraction.document
    doc = article_iri(base, document.doc_id)
    meta = document.meta
    yield doc, RDF.type, SDO.NewsArticle
    yield doc, RDF.type, NIF.Context
    yield doc, NIF.isString, english(document.text)
    yield doc, NIF.beginIndex, _index(0)
    yield doc, NIF.endIndex, _index(len(document.text))
    yield doc, KG.sourcePath, Literal(shareable_path(document.path))
    yield doc, KG.contentHash, Literal(document.sha256)
    if meta.date_published is not None:
        yield doc, SDO.datePublished, Literal(meta.date_published, datatype=XSD.date)
    if meta.title:
        yield doc, SDO.headline, english(meta.title)
    if meta.url and (url := safe_http_iri(meta.url)) is not None:
        yield doc, SDO.url, url
    if meta.source:
        publisher = URIRef(f"{base}source/{_short_hash(meta.source)}")
        yield doc, SDO.publisher, publisher
        yield publisher, RDF.type, SDO.Organization
        yield publisher, RDFS.label, Literal(meta.source)
    yield from _provenance_triples(doc, meta, base)


def _provenance_triples(doc: URIRef, meta: ArticleMeta, base: str) -> Iterator[Triple]:
    """Byline, feed content kind, retrieval and the original this article copies."""
    if meta.author:
        yield doc, KG.byline, Literal(meta.author)
    if meta.content:
        yield doc, KG.contentKind, Literal(meta.content)
    if meta.retrieved is not None:
        yield doc, KG.retrievedAt, Literal(meta.retrieved, datatype=XSD.dateTime)
    if meta.fetched_from and meta.fetched_from != meta.url:
        if (fetched := safe_http_iri(meta.fetched_from)) is not None:
            yield doc, KG.retrievedFrom, fetched
    if meta.copy_of:
        yield doc, KG.copyOf, article_iri(base, meta.copy_of)


def shareable_path(path: str) -> str:
    """The source path as the graph publishes it: never absolute (a local folder must not
    leak into data meant to be shared). A path relative to where kg ran ("news/a.txt", which
    starts with the folder given to kg build) stays; an absolute path, or one climbing out of
    that folder (".."), keeps only its file name.

    >>> shareable_path("/home/ana/leaks/a.txt"), shareable_path("news/a.txt")
    ('a.txt', 'news/a.txt')
    >>> shareable_path("../../home/ana/a.txt"), shareable_path("C:/Users/ana/a.txt")
    ('a.txt', 'a.txt')
    """
    parts = path.replace("\\", "/").split("/")
    if os.path.isabs(path) or ".." in parts or (len(path) > 1 and path[1] == ":"):
        return parts[-1]
    return path


def _short_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def sentence_triples(extraction: Extraction, base: str) -> Iterator[Triple]:
    """Every sentence with its offsets and text."""
    document = extraction.document
    doc = article_iri(base, document.doc_id)
    for sentence in extraction.sentences:
        node = sentence_iri(base, document.doc_id, sentence)
        yield node, RDF.type, NIF.Sentence
        yield node, NIF.referenceContext, doc
        yield node, NIF.beginIndex, _index(sentence.begin)
        yield node, NIF.endIndex, _index(sentence.end)
        yield node, NIF.anchorOf, english(document.text[sentence.begin : sentence.end])


def mention_triples(extraction: Extraction, resolution: Resolution, base: str) -> Iterator[Triple]:
    """Every mention with offsets, sentence and entity; and the types of those entities."""
    document = extraction.document
    doc = article_iri(base, document.doc_id)
    sentences = {s.index: s for s in extraction.sentences}
    typed: set[str] = set()
    for mention in extraction.mentions:
        key = resolution.assignments.get((document.doc_id, mention.begin, mention.end))
        if key is None:
            continue
        entity = resolution.entity(key)
        node = mention_iri(base, document.doc_id, mention.begin, mention.end)
        yield from _mention_node(node, doc, mention, entity, base)
        if (sentence := sentences.get(mention.sentence)) is not None:
            yield node, NIF.sentence, sentence_iri(base, document.doc_id, sentence)
        if key not in typed:
            typed.add(key)
            for cls in classes_of(entity):
                yield entity_iri(base, key), RDF.type, cls


def _mention_node(
    node: URIRef, doc: URIRef, mention: Mention, entity: Entity, base: str
) -> Iterator[Triple]:
    yield node, RDF.type, NIF.Phrase
    yield node, NIF.referenceContext, doc
    yield node, NIF.beginIndex, _index(mention.begin)
    yield node, NIF.endIndex, _index(mention.end)
    yield node, NIF.anchorOf, english(mention.text)
    yield node, ITSRDF.taIdentRef, entity_iri(base, entity.key)
    yield node, ITSRDF.taClassRef, classes_of(entity)[-1]
    yield node, KG.nerLabel, Literal(mention.ner_label)




def entity_triples(resolution: Resolution, base: str) -> list[Triple]:
    """The corpus-level entity graph: labels, aliases, counts, GeoNames links, merges."""
    mentions: Counter[str] = Counter()
    articles: defaultdict[str, set[str]] = defaultdict(set)
    for (doc_id, _begin, _end), key in resolution.assignments.items():
        mentions[key] += 1
        articles[key].add(doc_id)
    triples: list[Triple] = []
    for entity in resolution.entities:
        triples += _entity_node(entity, base, mentions[entity.key], len(articles[entity.key]))
        triples += _containing_country(entity, resolution, base)
    for decision in resolution.decisions:
        if decision.merged:  # refusals ("ambiguous surname") go to .kg/resolution.json only
            triples += _decision_node(decision, base)
    return triples


def _entity_node(entity: Entity, base: str, mentions: int, articles: int) -> Iterator[Triple]:
    node = entity_iri(base, entity.key)
    for cls in classes_of(entity):
        yield node, RDF.type, cls
    yield node, RDFS.label, Literal(entity.label)
    for alt in entity.alt_labels:
        yield node, SKOS.altLabel, Literal(alt)
    for alias in entity.aliases:
        yield entity_iri(base, alias), OWL.sameAs, node
    yield node, KG.mentionCount, Literal(mentions, datatype=XSD.integer)
    yield node, KG.articleCount, Literal(articles, datatype=XSD.integer)
    if entity.geo is not None:
        geo = entity.geo
        yield node, OWL.sameAs, geonames_feature(geo.geonames_id)
        if geo.feature == "city":  # a country or continent is an area: no single point
            yield node, WGS.lat, Literal(geo.latitude, datatype=XSD.decimal)
            yield node, WGS.long, Literal(geo.longitude, datatype=XSD.decimal)
        else:
            yield node, RDF.type, SDO.Country if geo.feature == "country" else SDO.Continent
        if geo.feature == "country":
            yield node, GN.countryCode, Literal(geo.country_code)
    if entity.geo_note:
        yield node, KG.geoNote, Literal(entity.geo_note)


def geonames_feature(geonames_id: int) -> URIRef:
    """A GeoNames feature's IRI: ``http://sws.geonames.org/<id>/``."""
    return GEONAMES[f"{geonames_id}/"]


def country_entities(resolution: Resolution) -> dict[str, str]:
    """ISO code → key of the corpus's place linked to that country in GeoNames (one IRI per
    place: a demonym's country lands on it, whatever name the corpus gave it)."""
    cached = resolution.__dict__.get("_country_entities")
    if cached is None:
        cached = {e.geo.country_code: e.key for e in resolution.entities
                  if e.geo is not None and e.geo.feature == "country"}
        resolution.__dict__["_country_entities"] = cached
    return cached


def country_node(resolution: Resolution, base: str, code: str,
                 name: str | None = None) -> tuple[URIRef, list[Triple]]:
    """The place standing for the country ``code``: the corpus's entity linked to it, else
    ``<base>place/<slug of its GeoNames name>`` described here (same GeoNames link)."""
    key = country_entities(resolution).get(code)
    if key is not None:
        return entity_iri(base, key), []
    record = next((p for p in geo_index().countries.values() if p.country_code == code), None)
    label = record.name if record is not None else (name or code)
    node = URIRef(f"{base}place/{slugify(label.lower())}")
    triples: list[Triple] = [
        (node, RDF.type, SDO.Country), (node, RDF.type, SDO.Place),
        (node, RDFS.label, Literal(label)),
    ]
    if record is not None:
        triples.append((node, OWL.sameAs, geonames_feature(record.geonames_id)))
        triples.append((node, GN.countryCode, Literal(code)))
    return node, triples


def _containing_country(entity: Entity, resolution: Resolution, base: str) -> list[Triple]:
    """A linked city is schema:containedInPlace its country."""
    if entity.geo is None or entity.geo.feature != "city" or not entity.geo.country_code:
        return []
    country, triples = country_node(resolution, base, entity.geo.country_code)
    return [*triples, (entity_iri(base, entity.key), SDO.containedInPlace, country)]


def _decision_node(decision: MergeDecision, base: str) -> Iterator[Triple]:
    digest = _short_hash(f"{decision.entity}|{decision.left}|{decision.right}|{decision.rule}")
    node = URIRef(f"{base}decision/{digest}")
    yield node, RDF.type, KG.MergeDecision
    yield node, KG.mergedInto, entity_iri(base, decision.entity)
    yield node, KG.leftForm, Literal(decision.left)
    yield node, KG.rightForm, Literal(decision.right)
    yield node, KG.mergeRule, Literal(decision.rule)
    yield node, KG.mergeScore, Literal(round(decision.score, 3), datatype=XSD.decimal)
