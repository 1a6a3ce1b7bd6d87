"""The entity graph as Follow-the-Money entities (JSON Lines), for OpenAleph, OpenSanctions
tools and anything else that reads FtM; written with the followthemoney library.

What becomes what:

    schema:NewsArticle    Document (title, sourceUrl, publishedAt, publisher, author,
                          fileName, bodyText: the article text kg read; FtM's contentHash is a
                          SHA-1 of file bytes kg does not keep)
    schema:Person         Person (name, alias)
    schema:Organization   Company or PublicBody when its name ends in a word that says so
                          ("… plc", "… Ministry"; ``kg.lexicon.words``), else Organization
    schema:Place          Address (full, country, latitude, longitude)
    schema:Event          Event (named events, and each article's report of an event with its
                          date, participants in ``involved`` and place in ``addressEntity``)
    org:Membership        Membership (member, organization, role)

Every entity carries ``proof``: the Documents of the articles it was read from, so a reader
can go back to the sentence. IDs are the SHA-1 that followthemoney's ``make_id`` gives kg's
own IRIs, which are stable across builds (``kg.resolve.registry``), so a re-export updates
entities in place instead of duplicating them. Lines are sorted by id: the same graph always
gives the same bytes.

>>> export_ftm(open_store("output/graph.trig"), Path("output/entities.ftm.jsonl"))  # doctest: +SKIP
PosixPath('output/entities.ftm.jsonl')
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from kg.atomic import atomic_writer
from kg.lexicon.words import COMPANY_HEAD_WORDS, PUBLIC_BODY_HEAD_WORDS
from kg.views.projection import select

ARTICLES = """SELECT ?doc ?title ?url ?date ?publisher ?byline ?path ?text WHERE {
  ?doc a schema:NewsArticle ; kg:sourcePath ?path ; nif:isString ?text .
  OPTIONAL { ?doc schema:headline ?title } OPTIONAL { ?doc schema:url ?url }
  OPTIONAL { ?doc schema:datePublished ?date } OPTIONAL { ?doc kg:byline ?byline }
  OPTIONAL { ?doc schema:publisher/rdfs:label ?publisher } }"""
ENTITIES = """SELECT DISTINCT ?e ?class ?label WHERE {
  ?e a ?class ; rdfs:label ?label .
  FILTER (?class IN (schema:Person, schema:Organization, schema:Place, schema:Event))
  FILTER NOT EXISTS { ?e a sem:Event } }"""
ALIASES = "SELECT DISTINCT ?e ?alt WHERE { ?e skos:altLabel ?alt }"
GEO = """SELECT DISTINCT ?e ?lat ?long ?country WHERE {
  ?e wgs:lat ?lat ; wgs:long ?long .
  OPTIONAL { ?e schema:containedInPlace?/gn:countryCode ?country } }"""
# The articles behind a node: its article graphs (every article graph types what it says),
# and, for a graph file without named graphs, its mentions, facts and publishers.
SOURCES = """SELECT DISTINCT ?e ?doc WHERE {
  { GRAPH ?g { ?e a ?class . ?doc a schema:NewsArticle } FILTER (?e != ?doc) }
  UNION { ?m itsrdf:taIdentRef ?e ; nif:referenceContext ?doc }
  UNION { ?e dcterms:source ?doc } UNION { ?doc schema:publisher ?e } }"""
MEMBERSHIPS = """SELECT DISTINCT ?m ?member ?org ?role WHERE {
  ?m a org:Membership ; org:member ?member ; org:role/skos:prefLabel ?role .
  OPTIONAL { ?m org:organization ?org } }"""
EVENT_REPORTS = """SELECT DISTINCT ?ev ?label ?date ?actor ?place WHERE {
  ?ev a sem:Event ; rdfs:label ?label .
  OPTIONAL { ?ev sem:hasTimeStamp ?date } OPTIONAL { ?ev sem:hasActor ?actor }
  OPTIONAL { ?ev sem:hasPlace ?place } }"""

_KIND = {"Person": "Person", "Organization": "Organization", "Place": "Address",
         "Event": "Event"}


def export_ftm(store: ox.Store, target: Path) -> Path:
    """Write the FtM entities of ``store`` as JSON Lines to ``target`` (replaced atomically)."""
    entities = sorted(ftm_entities(store), key=lambda e: e["id"])
    with atomic_writer(target, "w") as file:
        for entity in entities:
            file.write(json.dumps(entity, ensure_ascii=False, sort_keys=True) + "\n")
    return target


def ftm_entities(store: ox.Store) -> list[dict[str, Any]]:
    """The FtM entities of a kg graph, as plain dicts (``EntityProxy.to_dict()``)."""
    from followthemoney import model  # imported here: only this export needs it

    builder = _Builder(model)
    documents = builder.documents(select(store, ARTICLES))
    proofs: defaultdict[str, set[str]] = defaultdict(set)
    for row in select(store, SOURCES):
        if row["doc"].value in documents:
            proofs[row["e"].value].add(documents[row["doc"].value])
    ids = builder.things(store, proofs)
    builder.memberships(select(store, MEMBERSHIPS), ids, proofs)
    builder.event_reports(select(store, EVENT_REPORTS), ids, proofs)
    return [proxy.to_dict() for proxy in builder.proxies.values()]


def organization_schema(name: str) -> str:
    """``Company``, ``PublicBody`` or ``Organization``, from the last word of the name.

    >>> [organization_schema(n) for n in ("Nordbanen Group plc", "Defence Ministry", "Hamas")]
    ['Company', 'PublicBody', 'Organization']
    """
    words = name.lower().replace(".", "").split()
    last = words[-1] if words else ""
    if last in COMPANY_HEAD_WORDS:
        return "Company"
    if last in PUBLIC_BODY_HEAD_WORDS or (words and words[0] == "ministry"):
        return "PublicBody"
    return "Organization"


class _Builder:
    """The FtM proxies of one export, by kg IRI."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.proxies: dict[str, Any] = {}
        self.schemas: dict[str, str] = {}  # FtM id -> schema name

    def make(self, schema: str, iri: str) -> Any:
        proxy = self.model.make_entity(schema)
        proxy.make_id("kg", iri)
        self.proxies[iri] = proxy
        self.schemas[proxy.id] = schema
        return proxy

    def documents(self, rows: Iterable[Any]) -> dict[str, str]:
        """Document proxies of the articles; article IRI -> FtM id."""
        ids: dict[str, str] = {}
        for row in rows:
            doc = row["doc"].value
            proxy = self.make("Document", doc)
            proxy.add("title", _value(row, "title"))
            proxy.add("sourceUrl", _value(row, "url"))
            proxy.add("publishedAt", _value(row, "date"))
            proxy.add("publisher", _value(row, "publisher"))
            proxy.add("author", _value(row, "byline"))
            proxy.add("fileName", _value(row, "path"))
            proxy.add("bodyText", row["text"].value)  # full-text search in OpenAleph
            ids[doc] = proxy.id
        return ids

    def things(self, store: ox.Store, proofs: dict[str, set[str]]) -> dict[str, str]:
        """Person, Organization/Company/PublicBody, Address and Event proxies; IRI -> id."""
        aliases: defaultdict[str, list[str]] = defaultdict(list)
        for row in select(store, ALIASES):
            aliases[row["e"].value].append(row["alt"].value)
        geo = {row["e"].value: row for row in select(store, GEO)}
        ids: dict[str, str] = {}
        for row in select(store, ENTITIES):
            iri, label = row["e"].value, row["label"].value
            if iri in ids or iri not in proofs:
                continue  # no article names it: a country kg added as a named city's container
            kind = _KIND[row["class"].value.rsplit("/", 1)[-1]]
            schema = organization_schema(label) if kind == "Organization" else kind
            proxy = self.make(schema, iri)
            proxy.add("full" if schema == "Address" else "name", label)
            if schema != "Address":
                proxy.add("alias", sorted(aliases.get(iri, [])))
            if schema == "Address" and iri in geo:
                place = geo[iri]
                proxy.add("latitude", place["lat"].value)
                proxy.add("longitude", place["long"].value)
                proxy.add("country", _value(place, "country"))
            proxy.add("proof", sorted(proofs.get(iri, ())))
            ids[iri] = proxy.id
        return ids

    def memberships(self, rows: Iterable[Any], ids: dict[str, str],
                    proofs: dict[str, set[str]]) -> None:
        """Membership proxies between exported people and organisations."""
        for row in rows:
            member = ids.get(row["member"].value)
            organization = ids.get(_value(row, "org") or "")
            if member is None or organization is None:
                continue  # FtM needs both ends; roles without an organisation stay in kg
            proxy = self.make("Membership", row["m"].value)
            proxy.add("member", member)
            proxy.add("organization", organization)
            proxy.add("role", row["role"].value)
            proxy.add("proof", sorted(proofs.get(row["m"].value, ())))

    def event_reports(self, rows: Iterable[Any], ids: dict[str, str],
                      proofs: dict[str, set[str]]) -> None:
        """Event proxies for each article's report of an event."""
        for row in rows:
            iri = row["ev"].value
            proxy = self.proxies.get(iri) or self.make("Event", iri)
            proxy.add("name", row["label"].value)
            proxy.add("date", _value(row, "date"))
            for key, prop in (("actor", "involved"), ("place", "addressEntity")):
                target = ids.get(_value(row, key) or "")
                if target is not None and self.schemas.get(target) in _RANGES[prop]:
                    proxy.add(prop, target)
            proxy.add("proof", sorted(proofs.get(iri, ())))


_RANGES = {"involved": {"Person", "Organization", "Company", "PublicBody"},
           "addressEntity": {"Address"}}


def _value(row: Any, key: str) -> str | None:
    term = row[key]
    return term.value if term is not None else None


def entity_lines(path: Path) -> Iterator[dict[str, Any]]:
    """The entities of an FtM JSON Lines file, one dict each."""
    with path.open(encoding="utf-8") as file:
        for line in file:
            yield json.loads(line)
