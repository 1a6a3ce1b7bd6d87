"""What each page shows, read from the store: plain dicts for the templates, and the queries.

``Explorer`` holds the open store, the name index and the entity projection for the graph
view (both read once, lazily). Every page function returns a ``Page``: its context for the
template and the SPARQL it ran, in order, so the page can show them.

>>> explorer = Explorer(open_store("output/graph.trig"))  # doctest: +SKIP
>>> explorer.entity("https://w3id.org/kgnews/id/person/vladimir-putin").context["label"]
... # doctest: +SKIP
'Vladimir Putin'
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from kg.config import Settings
from kg.errors import InputError, KGError
from kg.rdf.namespaces import PREFIXES
from kg.serve import queries as q
from kg.serve.fulltext import CLAIMS as CLAIMS_INDEXED
from kg.serve.fulltext import FACET_TITLES, PAGE_SIZE, TextIndex
from kg.serve.links import char_range
from kg.serve.places import drawn
from kg.serve.search import Entry, Hit, NameIndex
from kg.serve.support import attribution, claim_topics, role_groups
from kg.serve.text import Span, pieces, sentence_pieces
from kg.store.sparql import run_query
from kg.views.projection import EntityGraph, entity_graph

Row = dict[str, str | None]
#: The classes an entity is listed by: the coarse four, then the things that are none of them
#: (kg.resolve.types; shown only where a graph has some).
CLASSES = ("Person", "Organization", "Place", "Event", "CreativeWork", "Award", "Product",
           "Vehicle", "Weapon")
RDF_TYPE = f"{PREFIXES['rdf']}type"
RDFS_LABEL = f"{PREFIXES['rdfs']}label"
RELATED_SHOWN = 25
SHOWN_GROUPS = 12  # topics or speakers of claims on an entity page (all on /said)
SHOWN_CLAIMS = 6  # claims shown in each
SAID_ENTITIES = 5  # entities named like the words of "who said what about"
SAID_MATCH = 90  # ... that match them at least this well (a word of the name starts so)
MAX_CACHED_PAGES = 256  # whole-graph pages (timeline filters, map, conflicts, home)
_log = logging.getLogger(__name__)


class PageError(KGError):
    """A page's own query failed (a fault of the server, not of the request)."""


@dataclass
class Page:
    """A page's template context and the queries that filled it (title, SPARQL)."""

    context: dict[str, Any]
    queries: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class Names:
    """Labels by IRI: ``rdfs:label`` (entities, measures) and ``skos:prefLabel`` (roles,
    concepts)."""

    label: dict[str, str]
    preferred: dict[str, str]


def local(iri: str | None) -> str:
    """The last segment of an IRI (after ``#`` or ``/``).

    >>> local("https://schema.org/Person"), local("https://w3id.org/kgnews/ontology#Siege")
    ('Person', 'Siege')
    """
    if not iri:
        return ""
    return iri.rstrip("/").rsplit("#", 1)[-1].rsplit("/", 1)[-1]


class Explorer:
    """Read-only access to one graph for the pages."""

    def __init__(self, store: ox.Store, base: str | None = None,
                 graph: Path | None = None) -> None:
        self.store = store
        self.base = base or Settings().base_iri
        self.graph = graph
        self._text: TextIndex | None = None
        self._index: NameIndex | None = None
        self._names: Names | None = None
        self._article_links: dict[str, list[Row]] | None = None
        self._heads: dict[str, Row] | None = None
        self._projection: EntityGraph | None = None
        self._pages: dict[tuple[str, ...], Page] = {}
        self._neighbours: dict[str, list[dict[str, Any]]] = {}
        self._lock = threading.Lock()

    # -- running queries ---------------------------------------------------------------

    def select(self, page: Page, title: str, sparql: str) -> list[Row]:
        """Run a page query, record it on ``page``, and return rows of plain strings."""
        page.queries.append((title, sparql))
        try:
            result = run_query(self.store, sparql, source=title)
        except KGError as e:  # a page's own query failed: the log gets it, the reader not
            _log.error("the page query %r failed: %s", title, e)
            raise PageError(f"the page query {title!r} failed") from e
        assert isinstance(result, ox.QuerySolutions)
        names = [v.value for v in result.variables]
        return [dict(zip(names, [t.value if t is not None else None for t in row], strict=True))
                for row in result]

    @property
    def index(self) -> NameIndex:
        """The name index, read from the graph on first use."""
        with self._lock:
            if self._index is None:
                self._index = self._read_index()
            return self._index

    @property
    def text(self) -> TextIndex:
        """The full-text index (``kg.serve.fulltext``): opened, or made, on first use."""
        with self._lock:
            if self._text is None:
                self._text = (TextIndex.for_graph(self.store, self.graph) if self.graph
                              else TextIndex.build(self.store))
            return self._text

    @property
    def names(self) -> Names:
        """Every ``rdfs:label`` and ``skos:prefLabel`` in the graph, read on first use."""
        with self._lock:
            if self._names is None:
                names = Names({}, {})
                for row in self.select(Page({}), "labels", q.LABELS):
                    found = names.label if row["p"] == RDFS_LABEL else names.preferred
                    subject, label = row["s"] or "", row["label"] or ""
                    if subject not in found or label < found[subject]:
                        found[subject] = label  # the first in order, as ``_first`` picks
                self._names = names
            return self._names

    @property
    def heads(self) -> dict[str, Row]:
        """Every article's headline and date (``title``, ``date``), read on first use."""
        with self._lock:
            if self._heads is None:
                self._heads = {r["article"] or "": r for r in self.select(
                    Page({}), "articles", q.ARTICLE_HEADS)}
            return self._heads

    @property
    def article_links(self) -> dict[str, list[Row]]:
        """For each article, its links to and from other articles (copies, related), with
        the other's headline and date; read on first use."""
        heads = self.heads
        with self._lock:
            if self._article_links is None:
                links: dict[str, list[Row]] = {}
                for row in self.select(Page({}), "links", q.ARTICLE_LINKS):
                    one, other = row["article"] or "", row["other"] or ""
                    for here, there, direction in ((one, other, "to"), (other, one, "from")):
                        head = heads.get(there) or {}
                        links.setdefault(here, []).append({
                            "other": there, "relation": row["relation"],
                            "direction": direction, "title": head.get("title"),
                            "date": head.get("date")})
                self._article_links = links
            return self._article_links

    def _read_index(self) -> NameIndex:
        """Every entity with its names; those without ``kg:mentionCount`` (a graph not built
        by kg) are found by class instead, which is slower."""
        rows = self.select(Page({}), "names", q.ENTITY_INDEX)
        if rows:
            rows += self.select(Page({}), "governments", q.GOVERNMENTS)
        else:
            rows = self.select(Page({}), "names", q.ENTITY_INDEX_UNCOUNTED)
        aliases: dict[str, list[str]] = {}
        for row in self.select(Page({}), "aliases", q.ALIASES):
            aliases.setdefault(row["e"] or "", []).append(row["alias"] or "")
        seen: dict[str, Entry] = {}
        for row in rows:
            iri = row["e"] or ""
            if iri not in seen:
                seen[iri] = Entry(iri, row["label"] or local(iri), tuple(aliases.get(iri, ())),
                                  local(row["class"]), _int(row.get("mentions")))
        return NameIndex(seen.values())

    def cached(self, key: tuple[str, ...], build: Callable[[], Page]) -> Page:
        """A page of the whole graph, built once: the graph is read-only while served."""
        with self._lock:
            page = self._pages.get(key)
        if page is None:
            page = build()
            with self._lock:
                if len(self._pages) >= MAX_CACHED_PAGES:
                    self._pages.pop(next(iter(self._pages)))
                self._pages[key] = page
        return page

    def warm(self) -> None:
        """Build the pages of the whole graph ahead of their first visit."""
        for name in ("map", "conflicts", "timeline"):
            try:
                getattr(self, name)()
            except KGError as e:  # a failing page shows its own error when visited
                _log.warning("could not prepare the %s page: %s", name, e)

    def projection(self) -> EntityGraph:
        """The entity graph of ``kg viz``, computed once."""
        with self._lock:
            if self._projection is None:
                self._projection = entity_graph(self.store)
            return self._projection

    # -- pages -------------------------------------------------------------------------

    def home(self) -> Page:
        return self.cached(("home",), self._home)

    def _home(self) -> Page:
        page = Page({})
        counts = {r["what"]: _int(r["count"]) for r in self.select(page, "counts", q.COUNTS)}
        by_kind: dict[str, int] = {}
        for entry in self.index.entries:
            by_kind[entry.kind] = by_kind.get(entry.kind, 0) + 1
        top = sorted(self.index.entries, key=lambda e: (-e.mentions, e.label))[:30]
        page.context.update(counts=counts, by_kind=by_kind, top=top)
        return page

    def search(self, text: str, kind: str | None, filters: dict[str, str] | None = None,
               offset: int = 0) -> Page:
        """Entities by name (``kind`` keeps one class), then sentences, claims and titles
        holding the words, with facets (``filters`` keep one value of some)."""
        filters = {k: v for k, v in (filters or {}).items() if v}
        page = Page({"q": text, "kind": kind or "", "filters": filters, "offset": offset,
                     "found": None, "facet_titles": FACET_TITLES, "page_size": PAGE_SIZE})
        page.queries.append(("names (read once into the search index)", q.ENTITY_INDEX))
        page.queries.append(("aliases (read once into the search index)", q.ALIASES))
        kind = kind if kind in CLASSES else None
        if text.strip():
            page.context["hits"] = self.index.search(text, kind)
            page.queries.append(("claims (read once into the full-text index)", CLAIMS_INDEXED))
            page.context["found"] = self.text.search(text, filters, offset)
            for hit in page.context["found"].hits:
                if hit.claim is not None:
                    hit.claim["attribution"] = attribution(hit.claim)
        else:  # a type alone lists that type, most mentioned first
            entries = [e for e in self.index.entries if kind is None or e.kind == kind]
            entries.sort(key=lambda e: (-e.mentions, e.label))
            page.context["hits"] = [Hit(e, 100.0, e.label) for e in entries[:100]]
        return page

    def said(self, text: str, speaker: str = "") -> Page:
        """Who said what about ``text``: claims whose words hold it, or that name an entity
        called so, grouped by speaker; or, with ``speaker``, every claim of that speaker,
        by topic."""
        page = Page({"q": text, "groups": [], "entities": [], "speaker": speaker,
                     "topics": None})
        page.queries.append(("claims (read once into the full-text index)", CLAIMS_INDEXED))
        if speaker:
            made = self.text.claims_of(speaker)
            for claim in made:
                claim["attribution"] = attribution(claim)
            mentioned = self.text.claim_entities([c["id"] for c in made])
            page.context.update(topics=claim_topics(made, mentioned, speaker, self.names.label),
                                claims=len(made), speaker_name=self._label(speaker))
            return page
        if not text.strip():
            return page
        named = [hit.entry for hit in self.index.search(text, limit=SAID_ENTITIES)
                 if hit.score >= SAID_MATCH]
        groups = self.text.said_about(text, [e.iri for e in named])
        for group in groups:
            for claim in group["claims"]:
                claim["attribution"] = attribution(claim)
        page.context.update(groups=groups, entities=named,
                            claims=sum(len(g["claims"]) for g in groups))
        return page

    def entity(self, iri: str, offset: int = 0) -> Page:
        """The entity page; ``offset`` pages through its mentions."""
        page = Page({"iri": iri, "offset": offset, "page_size": q.MENTIONS_PAGE})
        properties = self.select(page, "the entity", q.bind(q.ENTITY, entity=iri))
        if not properties:
            raise InputError(f"no entity {iri} in the graph")
        values: dict[str, list[str]] = {}
        for row in properties:
            values.setdefault(row["p"] or "", []).append(row["o"] or "")
        page.context.update(_entity_basics(values))
        sections = (("roles", q.ROLES), ("events", q.EVENTS),
                    ("relations", q.RELATIONS), ("related", q.CO_MENTIONED))
        for name, sparql in sections:
            page.context[name] = self.select(page, name, q.bind(sparql, entity=iri))
        self._title_rows(page.context["roles"])
        page.context["roles"] = role_groups(self._named_roles(page.context["roles"]))
        self._name_rows(page.context["relations"], subject="subjectName", object="objectName")
        for name in ("events", "relations"):
            self._title_rows(page.context[name])
        page.context["related"] = self._related(page.context["related"])
        self._claims(page, iri)
        mentions = q.MENTIONS.replace("{{offset}}", str(max(offset, 0)))
        rows = self.select(page, "mentions", q.bind(mentions, entity=iri))
        page.context["mentions"] = _mention_groups(rows)
        page.context["mention_rows"] = len(rows)
        return page

    def _claims(self, page: Page, iri: str) -> None:
        """The claims the entity made, by topic, and those that name it, by speaker."""
        page.queries.append(("claims (read once into the full-text index)", CLAIMS_INDEXED))
        made = self.text.claims_of(iri)
        about = [c for c in self.text.claims_naming(iri) if c["speaker"] != iri]
        for claim in (*made, *about):
            claim["attribution"] = attribution(claim)
        mentioned = self.text.claim_entities([c["id"] for c in made])
        page.context.update(
            shown_groups=SHOWN_GROUPS, shown_claims=SHOWN_CLAIMS,
            claims_made=claim_topics(made, mentioned, iri, self.names.label),
            claims_made_count=len(made), claims_about=self.text.by_speaker(about),
            claims_about_count=len(about))

    def _name_rows(self, rows: list[Row], **columns: str) -> None:
        """Fill each ``columns`` value (a name column) with the label of the IRI in its key."""
        labels = self.names.label
        for row in rows:
            for iri, name in columns.items():
                row[name] = labels.get(row[iri] or "")

    def _title_rows(self, rows: list[Row]) -> None:
        """Fill ``title`` with the headline of each row's ``article``."""
        heads = self.heads
        for row in rows:
            row["title"] = (heads.get(row["article"] or "") or {}).get("title")

    def _named_roles(self, rows: list[Row]) -> list[Row]:
        """Role rows with the names of the person, role and organisation, ordered by side,
        role, then latest report first."""
        names = self.names
        for row in rows:
            row["personName"] = names.label.get(row["person"] or "")
            row["orgName"] = names.label.get(row["org"] or "")
            row["role"] = names.preferred.get(row["roleNode"] or "")
        rows.sort(key=lambda r: r["reported"] or "", reverse=True)
        rows.sort(key=lambda r: (r["side"] or "", r["role"] or ""))
        return rows

    def _related(self, rows: list[Row]) -> list[Row]:
        """The entities of the name index most often named in the same sentences."""
        entries = self.index.by_iri
        found = [(entries[r["other"] or ""], _int(r["sentences"])) for r in rows
                 if (r["other"] or "") in entries]
        found.sort(key=lambda pair: (-pair[1], pair[0].label))
        return [{"other": e.iri, "name": e.label, "class": e.kind, "sentences": str(n)}
                for e, n in found[:RELATED_SHOWN]]

    def article(self, iri: str, fact: str | None = None, mark: tuple[int, int] | None = None
                ) -> Page:
        page = Page({"iri": iri})
        properties = self.select(page, "the article", q.bind(q.ARTICLE, article=iri))
        values: dict[str, list[str]] = {}
        for row in properties:
            values.setdefault(row["p"] or "", []).append(row["o"] or "")
        if not values:
            raise InputError(f"no article {iri} in the graph")
        text = _first(values, "nif", "isString") or ""
        entries, labels = self.index.by_iri, self.names.label
        mentions = []
        for r in self.select(page, "mentions", q.bind(q.ARTICLE_MENTIONS, article=iri)):
            entity = r["entity"] or ""
            entry = entries.get(entity)
            mentions.append(Span(_int(r["begin"]), _int(r["end"]), entity,
                                 entry.label if entry else labels.get(entity, ""),
                                 entry.kind if entry else ""))
        facts = [_fact(r, iri, text, self.names)
                 for r in self.select(page, "facts", q.bind(q.ARTICLE_FACTS, article=iri))]
        facts.sort(key=lambda f: (f["span"].begin if f["span"] else -1, f["fact"] or ""))
        chosen = next((f for f in facts if f["fact"] == fact), None)
        evidence = chosen["sentences"] if chosen else []
        focus = [chosen["span"]] if chosen and chosen["span"] else []
        if mark is not None:
            focus.append(Span(*mark))
        page.queries.append(("copies and related articles (read once for the whole graph)",
                             q.ARTICLE_LINKS))
        links = self.article_links.get(iri, [])[:q.MAX_LINKS]
        page.context.update(
            text_pieces=pieces(text, mentions, evidence, focus), facts=facts, chosen=chosen,
            title=_first(values, "schema", "headline"), date=_first(values, "schema",
                                                                    "datePublished"),
            publisher=_first(values, "schema", "publisher"),
            url=_first(values, "schema", "url"), path=_first(values, "kg", "sourcePath"),
            links=links, mention_count=len(mentions), missing=fact is not None and not chosen,
            has_text=bool(text))
        return page

    def timeline(self, entity: str | None = None, kind: str | None = None,
                 place: str | None = None) -> Page:
        return self.cached(("timeline", entity or "", kind or "", place or ""),
                           lambda: self._timeline(entity, kind, place))

    def _timeline(self, entity: str | None, kind: str | None, place: str | None) -> Page:
        page = Page({"entity": entity or "", "type": kind or "", "place": place or ""})
        filters, iris = [], {}
        if entity:
            filters.append("?fact kg:agent|kg:patient|sem:hasPlace|sem:hasActor {{entity}} .")
            iris["entity"] = entity
        if place:
            filters.append("?fact sem:hasPlace {{place}} .")
            iris["place"] = place
        if kind:
            filters.append("?fact sem:eventType {{kind}} .")
            iris["kind"] = f"{PREFIXES['kg']}{kind}"
        sparql = q.bind(q.TIMELINE.replace("{{filters}}", "\n  ".join(filters)), **iris)
        rows = self.select(page, "events", sparql)
        page.context["events"] = rows
        page.context["types"] = self.select(page, "event types", q.EVENT_TYPES)
        page.context["places"] = self.select(page, "places of events", q.EVENT_PLACES)
        if entity:
            page.context["entity_label"] = self._label(entity)
        return page

    def map(self) -> Page:
        return self.cached(("map",), self._map)

    def _map(self) -> Page:
        """Places linked to GeoNames that the text uses as places (``kg.serve.places``), and
        the events at the cities among them."""
        page = Page({})
        usage: dict[str, dict[str, int]] = {}
        for row in self.select(page, "how the text reads each place", q.MAP_USAGE):
            usage.setdefault(row["place"] or "", {})[row["label"] or ""] = _int(row["mentions"])
        articles: dict[str, set[str]] = {}
        for row in self.select(page, "articles naming places", q.MAP_PLACE_ARTICLES):
            articles.setdefault(row["place"] or "", set()).add(row["article"] or "")
        with_country = {r["place"] for r in self.select(page, "countries of places",
                                                        q.MAP_COUNTRIES)
                        if articles.get(r["place"] or "", set())
                        & articles.get(r["country"] or "", set())}
        places: list[dict[str, Any]] = []
        left_out: list[dict[str, str]] = []
        for row in self.select(page, "places linked to GeoNames", q.MAP_PLACES):
            iri, name = row["place"] or "", row["name"] or local(row["place"])
            geonames = _int((row["geonames"] or "").rstrip("/").rsplit("/", 1)[-1])
            record = drawn(name, geonames, usage.get(iri, {}), iri in with_country)
            if record is None or _int(row["articles"]) == 0 or (
                    record.feature == "city" and not row["lat"]):
                left_out.append({"place": iri, "name": name})
                continue
            places.append({**row, "name": name, "feature": record.feature,
                           "country": record.iso_numeric, "articles": _int(row["articles"])})
        places.sort(key=lambda p: (-p["articles"], p["name"]))
        drawn_cities = {p["place"] for p in places if p["feature"] == "city"}
        events = [e for e in self.select(page, "events at places with coordinates", q.MAP_EVENTS)
                  if e["place"] in drawn_cities]
        page.context.update(places=places, events=events, left_out=left_out)
        return page

    def neighbours(self, iri: str) -> list[dict[str, Any]]:
        """The entities named in the same articles as ``iri``, most shared articles first
        (those of the name index: people, organisations, places, events, things)."""
        with self._lock:
            found = self._neighbours.get(iri)
        if found is not None:
            return found
        entries, labels = self.index.by_iri, self.names.label
        found = []
        for row in self.select(Page({}), "named in the same articles",
                               q.bind(q.NEIGHBOURS, entity=iri)):
            other = row["other"] or ""
            entry = entries.get(other)
            label = entry.label if entry else labels.get(other)
            if label is not None:  # an entity, not a stretch of text or a fact
                found.append({"iri": other, "label": label, "kind": entry.kind if entry else "",
                              "shared": _int(row["shared"])})
        with self._lock:
            if len(self._neighbours) >= MAX_CACHED_PAGES:
                self._neighbours.pop(next(iter(self._neighbours)))
            self._neighbours[iri] = found
        return found

    def place_articles(self, iri: str) -> list[dict[str, Any]]:
        """The articles that name a place, most mentions first (the map's list on click)."""
        page = Page({})
        rows = self.select(page, "articles naming the place", q.bind(q.PLACE_ARTICLES,
                                                                     entity=iri))
        heads = self.heads
        return [{"article": r["article"], "title": (heads.get(r["article"] or "") or {}).get(
                    "title"), "date": (heads.get(r["article"] or "") or {}).get("date"),
                 "mentions": _int(r["mentions"]), "mark": (_int(r["first"]), _int(r["last"]))}
                for r in rows]

    def conflicts(self) -> Page:
        return self.cached(("conflicts",), self._conflicts)

    def _conflicts(self) -> Page:
        page = Page({})
        groups: dict[str, list[Row]] = {}
        seen: set[tuple[str | None, ...]] = set()
        for row in self.select(page, "conflicting figures", q.CONFLICTS):
            key = (row["group"], row["fact"])
            if key in seen:  # one row per figure of a disagreement
                continue
            seen.add(key)
            row["copies"] = row["copies"] or ""
            groups.setdefault(row["group"] or "", []).append(row)
        page.context["measures"] = [
            {"thing": group, "label": rows[0]["measure"] or local(group), "rows": rows,
             "status": rows[0]["status"] or "", "order": rows[0]["order"] or "",
             "wordings": sorted({r["wording"] for r in rows if r["wording"]}),
             "values": sorted({_number(r["value"]) for r in rows})}
            for group, rows in groups.items()]
        return page

    def _label(self, iri: str) -> str:
        entry = self.index.by_iri.get(iri)
        return entry.label if entry else local(iri)


def _entity_basics(values: dict[str, list[str]]) -> dict[str, Any]:
    types = [local(t) for t in values.get(RDF_TYPE, [])]
    label = _first(values, "rdfs", "label")
    geonames = [v for v in values.get(f"{PREFIXES['owl']}sameAs", [])
                if "geonames.org/" in v]
    return {"label": label, "types": types,
            "kind": next((t for t in types if t in CLASSES), types[0] if types else ""),
            "aliases": sorted(values.get(f"{PREFIXES['skos']}altLabel", []), key=str.casefold),
            "mention_count": _int(_first(values, "kg", "mentionCount")),
            "article_count": _int(_first(values, "kg", "articleCount")),
            "lat": _first(values, "wgs", "lat"), "long": _first(values, "wgs", "long"),
            "geonames": geonames}


def _mention_groups(rows: list[Row]) -> list[dict[str, Any]]:
    """Mentions grouped by sentence, each sentence cut into highlighted runs."""
    groups: dict[str, dict[str, Any]] = {}
    for row in rows:
        sentence = row["sentence"] or ""
        group = groups.setdefault(sentence, {**row, "spans": [], "first": _int(row["begin"])})
        start = (char_range(sentence) or (0, 0))[0]
        group["spans"].append((_int(row["begin"]) - start, _int(row["end"]) - start))
    for group in groups.values():
        group["runs"] = sentence_pieces(group["text"] or "", group["spans"])
    return list(groups.values())


FACT_KINDS = {"Membership": "role", "Claim": "claim", "Event": "event",
              "Observation": "figure", "QuantitativeValue": "figure", "Statement": "relation",
              "EventLink": "same event"}


def _fact(row: Row, article: str, text: str, names: Names) -> dict[str, Any]:
    """A fact row of the article page. Its evidence sentences and its words are read from
    their IRIs (``<article>#sentence=b,e``, ``<article>#char=b,e``: the data contract),
    keeping those of this article; its words' text is cut from the article's."""
    sentences = []
    for iri in (row["sentences"] or "").split():
        found = _range_in(iri, article)
        if found:
            sentences.append(Span(*found))
    words = _range_in(row["words"] or "", article)
    span = Span(*words) if words else None
    who, what = row["who"] or "", row["what"] or ""
    return {**row, "type": FACT_KINDS.get(local(row["class"]), local(row["class"])),
            "sentences": sorted(sentences, key=lambda s: s.begin), "span": span,
            "text": text[span.begin:span.end] if span else None,
            "subject": names.label.get(who),
            "detail": row["cue"] or names.preferred.get(what) or names.label.get(what)}


def _range_in(iri: str, article: str) -> tuple[int, int] | None:
    """The character range of a NIF IRI of ``article`` (``None`` for another document)."""
    document, _, fragment = iri.partition("#")
    return char_range(fragment) if document == article else None


def _first(values: dict[str, list[str]], prefix: str, name: str) -> str | None:
    found = values.get(f"{PREFIXES[prefix]}{name}")
    return min(found) if found else None


def _int(value: str | None) -> int:
    try:
        return int(float(value)) if value is not None else 0
    except (ValueError, OverflowError):
        return 0


def _number(value: str | None) -> float:
    try:
        return float(value) if value is not None else 0.0
    except ValueError:
        return 0.0


def days_between(first: str | None, second: str | None) -> int | None:
    """Days from ``first`` to ``second`` (ISO dates, or datetimes cut to their date).

    >>> days_between("2022-05-16", "2022-05-18"), days_between(None, "2022-05-18")
    (2, None)
    """
    try:
        return (date.fromisoformat(str(second)[:10]) - date.fromisoformat(str(first)[:10])).days
    except (TypeError, ValueError):
        return None
