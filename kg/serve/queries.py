"""The SPARQL behind each page, shown on the page it fills ("the query it ran").

Page queries name the entity or article they are about as ``{{entity}}`` / ``{{article}}``;
``bind`` puts a checked IRI there, so the text shown and linked is exactly the text run
(the prefixes ``schema:``, ``nif:``, ``kg:`` … are predeclared by ``kg.store.sparql``).

>>> bind("SELECT * { {{entity}} ?p ?o }", entity="https://w3id.org/kgnews/id/person/x")
'SELECT * { <https://w3id.org/kgnews/id/person/x> ?p ?o }'
"""

from __future__ import annotations

import re

import pyoxigraph as ox

from kg.errors import QueryError
from kg.store.sparql import named_query

_SLOT = re.compile(r"\{\{(\w+)\}\}")


def bind(sparql: str, **iris: str) -> str:
    """``sparql`` with each ``{{name}}`` replaced by the IRI ``iris[name]`` (validated)."""
    terms = {}
    for name, iri in iris.items():
        try:
            terms[name] = str(ox.NamedNode(iri))
        except ValueError:
            raise QueryError(f"not a valid IRI: {iri!r}") from None
    return _SLOT.sub(lambda m: terms[m.group(1)], sparql)


ENTITY_INDEX = """SELECT ?e ?class ?label ?mentions WHERE {
  ?e kg:mentionCount ?mentions ; rdfs:label ?label ; a ?class .
  FILTER(?class IN (schema:Person, schema:Organization, schema:Place, schema:Event,
                    schema:CreativeWork, kg:Award, schema:Product, schema:Vehicle, kg:Weapon))
}"""

ENTITY_INDEX_UNCOUNTED = """SELECT ?e ?class ?label WHERE {
  VALUES ?class { schema:Person schema:Organization schema:Place schema:Event
                  schema:CreativeWork kg:Award schema:Product schema:Vehicle kg:Weapon }
  ?e a ?class ; rdfs:label ?label .
  FILTER NOT EXISTS { ?e a sem:Event }
}"""

# A place that speaks or employs is its government (``<base>government/<slug>``): named in
# claims and roles but never in the text, so it has no kg:mentionCount.
GOVERNMENTS = """SELECT DISTINCT ?e ?class ?label WHERE {
  ?e schema:areaServed ?place ; rdfs:label ?label ; a ?class .
  FILTER(?class = schema:Organization)
}"""

ALIASES = """SELECT ?e ?alias WHERE { ?e skos:altLabel ?alias }"""

# Every name in the graph, read once: the pages look names up instead of joining them.
LABELS = """SELECT ?s ?p ?label WHERE {
  VALUES ?p { rdfs:label skos:prefLabel } ?s ?p ?label
}"""

COUNTS = """SELECT ?what (COUNT(DISTINCT ?x) AS ?count) WHERE {
  { ?x a schema:NewsArticle . BIND("articles" AS ?what) }
  UNION { ?x a sem:Event . BIND("event reports" AS ?what) }
  UNION { ?x a schema:Claim . BIND("claims" AS ?what) }
  UNION { ?x a org:Membership . BIND("roles" AS ?what) }
} GROUP BY ?what"""

ENTITY = """SELECT DISTINCT ?p ?o WHERE { {{entity}} ?p ?o } LIMIT 2000"""

# Every page query starts from a sub-select anchored on the entity or article, and keeps each
# OPTIONAL to one triple pattern or path from a bound variable: Oxigraph (0.5) otherwise
# reorders a type pattern ahead of the anchor, or evaluates a two-pattern OPTIONAL over the
# whole store before joining it (13 s instead of 0.2 s on the BBC graph).
# Predicates name the kind of fact (org:member is only on memberships, rdf:subject only on
# statements ...), so the anchors need no type pattern.
MAX_FACTS = 300
MAX_ROLES = 3000  # every role of the most written-about person, to group them by support
MENTIONS_PAGE = 200
CO_MENTION_SENTENCES = 1000

# Names of people, organisations and roles come from the labels read once at start-up
# (``LABELS``), articles' headlines from ``ARTICLE_HEADS``: a path such as
# org:role/skos:prefLabel or dcterms:source/schema:headline in an OPTIONAL cost Oxigraph
# 1-3 ms each here, as much as the rest of the query.
# What every fact row shows beside its own fields: the rule, its confidence and the date it
# was reported (a plain string put into the f-strings below, so its braces are single).
_EVIDENCE = """  OPTIONAL { ?fact kg:extractedBy ?rule }
  OPTIONAL { ?fact kg:confidence ?confidence }
  OPTIONAL { ?fact kg:reportedOn ?reported }
"""

ROLES = f"""SELECT DISTINCT ?fact ?side ?person ?roleNode ?org ?former ?rule ?confidence
       ?article ?reported ?sentence WHERE {{
  {{ SELECT ?fact ?side WHERE {{ {{ ?fact org:member {{{{entity}}}} . BIND("held" AS ?side) }}
    UNION {{ ?fact org:organization {{{{entity}}}} . BIND("in" AS ?side) }} }}
    LIMIT {MAX_ROLES} }}
  ?fact org:member ?person .
  OPTIONAL {{ ?fact dcterms:source ?article }}
  OPTIONAL {{ ?fact org:role ?roleNode }}
  OPTIONAL {{ ?fact org:organization ?org }}
  OPTIONAL {{ ?fact kg:former ?former }}
{_EVIDENCE}  OPTIONAL {{ ?fact prov:wasDerivedFrom/nif:anchorOf ?sentence }}
}}"""

CLAIMS = f"""SELECT DISTINCT ?fact ?side ?author ?speaker ?cue ?text ?rule
       ?confidence ?article ?reported WHERE {{
  {{ SELECT ?fact ?side WHERE {{ {{ ?fact schema:author {{{{entity}}}} . BIND("made" AS ?side) }}
    UNION {{ ?fact schema:mentions {{{{entity}}}} . BIND("about" AS ?side) }} }}
    LIMIT {MAX_FACTS} }}
  OPTIONAL {{ ?fact dcterms:source ?article }}
  OPTIONAL {{ ?fact schema:author ?author }}
  OPTIONAL {{ ?fact kg:speakerText ?speaker }}
  OPTIONAL {{ ?fact kg:cueVerb ?cue }}
  OPTIONAL {{ ?fact gaf:denotedBy/nif:anchorOf ?text }}
{_EVIDENCE}}} ORDER BY ?side DESC(?reported)"""

EVENTS = f"""SELECT DISTINCT ?fact ?how ?type ?trigger ?happened ?timeText ?rule ?confidence
       ?article ?reported ?sentence WHERE {{
  {{ SELECT ?fact ?how WHERE {{ {{ ?fact kg:agent {{{{entity}}}} . BIND(kg:agent AS ?how) }}
    UNION {{ ?fact kg:patient {{{{entity}}}} . BIND(kg:patient AS ?how) }}
    UNION {{ ?fact sem:hasPlace {{{{entity}}}} . BIND(sem:hasPlace AS ?how) }} }}
    LIMIT {MAX_FACTS} }}
  OPTIONAL {{ ?fact dcterms:source ?article }}
  OPTIONAL {{ ?fact sem:eventType ?concept }}
  BIND(STRAFTER(STR(?concept), "#") AS ?type)
  OPTIONAL {{ ?fact gaf:denotedBy/nif:anchorOf ?trigger }}
  OPTIONAL {{ ?fact sem:hasTimeStamp ?happened }}
  OPTIONAL {{ ?fact kg:timeText ?timeText }}
{_EVIDENCE}  OPTIONAL {{ ?fact prov:wasDerivedFrom/nif:anchorOf ?sentence }}
}} ORDER BY DESC(COALESCE(?happened, ?reported))"""

RELATIONS = f"""SELECT DISTINCT ?fact ?subject ?relation ?object ?rule
       ?confidence ?article ?sentence WHERE {{
  {{ SELECT ?fact WHERE {{ {{ ?fact rdf:subject {{{{entity}}}} }}
    UNION {{ ?fact rdf:object {{{{entity}}}} }} }} LIMIT {MAX_FACTS} }}
  ?fact rdf:subject ?subject .
  ?fact rdf:predicate ?relation .
  ?fact rdf:object ?object .
  OPTIONAL {{ ?fact kg:extractedBy ?rule }}
  OPTIONAL {{ ?fact kg:confidence ?confidence }}
  OPTIONAL {{ ?fact dcterms:source ?article }}
  OPTIONAL {{ ?fact prov:wasDerivedFrom/nif:anchorOf ?sentence }}
}}"""

# Counted per entity only; names and classes come from the name index (an OPTIONAL class
# pattern with its FILTER, evaluated on every co-mention row, was three quarters of the cost).
CO_MENTIONED = f"""SELECT ?other (COUNT(DISTINCT ?s) AS ?sentences) WHERE {{
  {{ SELECT DISTINCT ?s WHERE {{ ?m itsrdf:taIdentRef {{{{entity}}}} . ?m nif:sentence ?s }}
    LIMIT {CO_MENTION_SENTENCES} }}
  ?m2 nif:sentence ?s .
  ?m2 itsrdf:taIdentRef ?other .
  FILTER(?other != {{{{entity}}}})
}} GROUP BY ?other"""

# The graph view: the entities named in the same articles as one entity, by how many.
NEIGHBOURS = """SELECT ?other (COUNT(DISTINCT ?article) AS ?shared) WHERE {
  { SELECT DISTINCT ?article WHERE { ?m itsrdf:taIdentRef {{entity}} ;
                                        nif:referenceContext ?article } }
  ?n nif:referenceContext ?article ; itsrdf:taIdentRef ?other .
  FILTER(?other != {{entity}})
} GROUP BY ?other ORDER BY DESC(?shared) ?other LIMIT 400"""

MENTION_COUNT = """SELECT (COUNT(*) AS ?mentions) WHERE { ?m itsrdf:taIdentRef {{entity}} }"""

MENTIONS = f"""SELECT DISTINCT ?article ?title ?date ?sentence ?text ?begin ?end WHERE {{
  {{ SELECT ?m WHERE {{ ?m itsrdf:taIdentRef {{{{entity}}}} }} ORDER BY ?m
    LIMIT {MENTIONS_PAGE} OFFSET {{{{offset}}}} }}
  ?m nif:referenceContext ?article .
  ?m nif:sentence ?sentence .
  ?m nif:beginIndex ?begin .
  ?m nif:endIndex ?end .
  ?sentence nif:anchorOf ?text .
  OPTIONAL {{ ?article schema:headline ?title }}
  OPTIONAL {{ ?article schema:datePublished ?date }}
}} ORDER BY DESC(?date) ?article ?begin"""

ARTICLE = """SELECT DISTINCT ?p ?o WHERE { {{article}} ?p ?o } LIMIT 200"""

# Links between articles are read once for the whole graph (the graph is read-only): asked
# per page, the incoming side (?other ?relation <article>) walked every mention and fact
# pointing at the article, 3 ms on the BBC graph.
ARTICLE_LINKS = """SELECT DISTINCT ?article ?relation ?other WHERE {
  ?article a schema:NewsArticle ; ?relation ?other .
  ?other a schema:NewsArticle .
}"""

ARTICLE_HEADS = """SELECT ?article (MIN(?t) AS ?title) (MIN(?d) AS ?date) WHERE {
  ?article a schema:NewsArticle .
  OPTIONAL { ?article schema:headline ?t }
  OPTIONAL { ?article schema:datePublished ?d }
} GROUP BY ?article"""

MAX_LINKS = 200

# The entities' names and classes come from the name index and the labels read at start-up.
ARTICLE_MENTIONS = """SELECT DISTINCT ?begin ?end ?entity WHERE {
  { SELECT ?m WHERE { ?m nif:referenceContext {{article}} ; a nif:Phrase } }
  ?m nif:beginIndex ?begin ; nif:endIndex ?end ; itsrdf:taIdentRef ?entity .
} ORDER BY ?begin"""

# A fact's words are the span it is gaf:denotedBy, ``<article>#char=b,e``: the offsets are
# read from the IRI and the words from the article's text (the NIF data contract), and names
# from the labels read at start-up; following gaf:denotedBy/nif:anchorOf and the label paths
# here took two thirds of the query's time.
ARTICLE_FACTS = """SELECT ?fact (SAMPLE(?cls) AS ?class) (SAMPLE(?r) AS ?rule)
       (SAMPLE(?c) AS ?confidence) (SAMPLE(?span) AS ?words) (SAMPLE(?whoNode) AS ?who)
       (SAMPLE(?cueVerb) AS ?cue) (SAMPLE(?whatNode) AS ?what)
       (GROUP_CONCAT(DISTINCT STR(?s); separator=" ") AS ?sentences)
WHERE {
  { SELECT ?fact WHERE { ?fact dcterms:source {{article}} } }
  ?fact kg:extractedBy ?r .
  ?fact a ?cls .
  FILTER(?cls IN (org:Membership, schema:Claim, sem:Event, schema:Observation,
                  rdf:Statement, kg:EventLink))
  OPTIONAL { ?fact kg:confidence ?c }
  OPTIONAL { ?fact gaf:denotedBy ?span }
  OPTIONAL { ?fact org:member|schema:author|rdf:subject|kg:agent ?whoNode }
  OPTIONAL { ?fact kg:cueVerb ?cueVerb }
  OPTIONAL { ?fact org:role|sem:eventType|schema:variableMeasured ?whatNode }
  OPTIONAL { ?fact prov:wasDerivedFrom ?s }
} GROUP BY ?fact"""

TIMELINE = """SELECT ?fact ?type ?trigger ?happened ?granularity ?reported ?article ?title
       (GROUP_CONCAT(DISTINCT ?placeName; separator=", ") AS ?places)
       (GROUP_CONCAT(DISTINCT ?actorName; separator=", ") AS ?actors) WHERE {
  ?fact a sem:Event ; sem:eventType ?concept ; dcterms:source ?article .
  BIND(STRAFTER(STR(?concept), "#") AS ?type)
  OPTIONAL { ?fact sem:hasTimeStamp ?happened }
  BIND(IF(DATATYPE(?happened) = xsd:gYear, "year",
          IF(DATATYPE(?happened) = xsd:gYearMonth, "month", "day")) AS ?granularity)
  OPTIONAL { ?fact kg:reportedOn ?stamp }
  OPTIONAL { ?article schema:datePublished ?published }
  BIND(COALESCE(?stamp, ?published) AS ?reported)
  OPTIONAL { ?fact gaf:denotedBy/nif:anchorOf ?trigger }
  OPTIONAL { ?article schema:headline ?title }
  OPTIONAL { ?fact sem:hasPlace/rdfs:label ?placeName }
  OPTIONAL { ?fact (kg:agent|kg:patient)/rdfs:label ?actorName }
  {{filters}}
} GROUP BY ?fact ?type ?trigger ?happened ?granularity ?reported ?article ?title
ORDER BY COALESCE(?happened, ?reported) ?fact LIMIT 1000"""

EVENT_TYPES = """SELECT ?type (COUNT(?e) AS ?events) WHERE {
  ?e a sem:Event ; sem:eventType ?concept . BIND(STRAFTER(STR(?concept), "#") AS ?type)
} GROUP BY ?type ORDER BY DESC(?events)"""

EVENT_PLACES = """SELECT ?place ?name (COUNT(?e) AS ?events) WHERE {
  ?e a sem:Event ; sem:hasPlace ?place . OPTIONAL { ?place rdfs:label ?name }
} GROUP BY ?place ?name ORDER BY DESC(?events) LIMIT 60"""

# The map's places: every place linked to GeoNames (a city has a point, a country its
# outline), how many articles name it, and how the text reads its mentions (kg.serve.places).
MAP_PLACES = """SELECT ?place (SAMPLE(?n) AS ?name) (SAMPLE(?la) AS ?lat) (SAMPLE(?lo) AS ?long)
       (SAMPLE(?same) AS ?geonames) (MAX(?count) AS ?articles) WHERE {
  ?place a schema:Place ; owl:sameAs ?same .
  FILTER(STRSTARTS(STR(?same), "http://sws.geonames.org/"))
  OPTIONAL { ?place rdfs:label ?n }
  OPTIONAL { ?place wgs:lat ?la }
  OPTIONAL { ?place wgs:long ?lo }
  OPTIONAL { ?place kg:articleCount ?count }
} GROUP BY ?place"""

MAP_USAGE = """SELECT ?place ?label (COUNT(?m) AS ?mentions) WHERE {
  { SELECT DISTINCT ?place WHERE { ?place a schema:Place ; owl:sameAs ?same } }
  ?m itsrdf:taIdentRef ?place ; kg:nerLabel ?label .
} GROUP BY ?place ?label"""

# Which articles name which places, and the country GeoNames puts each place in: the map
# draws a place read as a person's name only when an article names its country too (joined
# in Python: the same join in SPARQL took a minute on the BBC graph).
MAP_PLACE_ARTICLES = """SELECT DISTINCT ?place ?article WHERE {
  { SELECT DISTINCT ?place WHERE { ?place a schema:Place } }
  ?m itsrdf:taIdentRef ?place ; nif:referenceContext ?article .
}"""

MAP_COUNTRIES = """SELECT DISTINCT ?place ?country WHERE {
  ?place a schema:Place ; schema:containedInPlace ?country }"""

PLACE_ARTICLES = f"""SELECT ?article (MIN(?begin) AS ?first) (MIN(?end) AS ?last)
       (COUNT(?m) AS ?mentions) WHERE {{
  ?m itsrdf:taIdentRef {{{{entity}}}} ; nif:referenceContext ?article ;
     nif:beginIndex ?begin ; nif:endIndex ?end .
}} GROUP BY ?article ORDER BY DESC(?mentions) ?article LIMIT {MAX_LINKS}"""

MAP_EVENTS = """SELECT ?fact ?place (SAMPLE(?kind) AS ?type) (SAMPLE(?word) AS ?trigger)
       (SAMPLE(?stamp) AS ?happened) (SAMPLE(?day) AS ?reported) (SAMPLE(?la) AS ?lat)
       (SAMPLE(?lo) AS ?long) (SAMPLE(?a) AS ?article) WHERE {
  ?fact a sem:Event ; sem:hasPlace ?place ; dcterms:source ?a .
  ?place wgs:lat ?la ; wgs:long ?lo .
  OPTIONAL { ?fact sem:eventType ?concept BIND(STRAFTER(STR(?concept), "#") AS ?kind) }
  OPTIONAL { ?fact gaf:denotedBy/nif:anchorOf ?word }
  OPTIONAL { ?fact sem:hasTimeStamp ?stamp }
  OPTIONAL { ?fact kg:reportedOn ?day }
} GROUP BY ?fact ?place LIMIT 5000"""


def _named_body(name: str) -> str:
    """A named question's query without its header comments and ``PREFIX`` lines, to run as
    a sub-select (the prefixes are predeclared)."""
    lines = named_query(name).text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().upper().startswith("SELECT"))
    return "\n".join(lines[start:])


# The conflicts page is the named question `conflicting-figures`, row for row, joined back to
# each figure (for its evidence link), its disagreement (to group the rows: one measured thing,
# one kind) and the IRI of whoever gave it.
CONFLICTS = """SELECT DISTINCT ?group ?status ?order ?measure ?wording ?fact ?value ?qualifier
       ?figure ?source ?speaker ?article ?title ?reported ?sentence ?copies WHERE {
  { {{named}}
  }
  ?group kg:disagreementKind ?status ;
         kg:disagreeingFigure ?fact .
  ?fact dcterms:source ?article ;
        schema:value ?value ;
        gaf:denotedBy/nif:anchorOf ?figure ;
        prov:wasDerivedFrom/nif:anchorOf ?sentence .
  OPTIONAL { ?fact kg:figureSource ?speaker FILTER (?speaker != ?article) }
  OPTIONAL { ?article schema:headline ?title }
} ORDER BY ?status ?measure ?group ?reported ?article ?fact""".replace(
    "{{named}}", _named_body("conflicting-figures").replace("\n", "\n  "))
