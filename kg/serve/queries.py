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


ENTITY_INDEX = """SELECT ?e ?class ?label (SAMPLE(?count) AS ?mentions)
       (GROUP_CONCAT(DISTINCT ?alt; separator="\\u001f") AS ?aliases) WHERE {
  VALUES ?class { schema:Person schema:Organization schema:Place schema:Event }
  ?e a ?class ; rdfs:label ?label .
  FILTER NOT EXISTS { ?e a sem:Event }
  OPTIONAL { ?e kg:mentionCount ?count }
  OPTIONAL { ?e skos:altLabel ?alt }
} GROUP BY ?e ?class ?label"""

COUNTS = """SELECT ?what (COUNT(DISTINCT ?x) AS ?count) WHERE {
  { ?x a schema:NewsArticle . BIND("articles" AS ?what) }
  UNION { ?x a sem:Event . BIND("event reports" AS ?what) }
  UNION { ?x a schema:Claim . BIND("claims" AS ?what) }
  UNION { ?x a org:Membership . BIND("roles" AS ?what) }
} GROUP BY ?what"""

ENTITY = """SELECT DISTINCT ?p ?o WHERE { {{entity}} ?p ?o } LIMIT 2000"""

ROLES = """SELECT DISTINCT ?fact ?side ?person ?personName ?role ?org ?orgName ?former ?rule
       ?confidence ?article ?title ?reported ?sentence WHERE {
  { ?fact org:member {{entity}} . BIND("held" AS ?side) }
  UNION { ?fact org:organization {{entity}} . BIND("in" AS ?side) }
  ?fact a org:Membership ; org:member ?person ; prov:hadPrimarySource ?article .
  OPTIONAL { ?person rdfs:label ?personName }
  OPTIONAL { ?fact org:role/skos:prefLabel ?role }
  OPTIONAL { ?fact org:organization ?org . OPTIONAL { ?org rdfs:label ?orgName } }
  OPTIONAL { ?fact kg:former ?former }
  OPTIONAL { ?fact kg:extractedBy ?rule }
  OPTIONAL { ?fact kg:confidence ?confidence }
  OPTIONAL { ?fact kg:reportedOn ?reported }
  OPTIONAL { ?article schema:headline ?title }
  OPTIONAL { ?fact prov:wasDerivedFrom/nif:anchorOf ?sentence }
} ORDER BY ?side ?role DESC(?reported) LIMIT 300"""

CLAIMS = """SELECT DISTINCT ?fact ?side ?author ?authorName ?speaker ?cue ?text ?rule
       ?confidence ?article ?title ?reported WHERE {
  { ?fact schema:author {{entity}} . BIND("made" AS ?side) }
  UNION { ?fact schema:mentions {{entity}} . BIND("about" AS ?side) }
  ?fact a schema:Claim ; prov:hadPrimarySource ?article .
  OPTIONAL { ?fact schema:author ?author . OPTIONAL { ?author rdfs:label ?authorName } }
  OPTIONAL { ?fact kg:speakerText ?speaker }
  OPTIONAL { ?fact kg:cueVerb ?cue }
  OPTIONAL { ?fact nif:anchorOf ?text }
  OPTIONAL { ?fact kg:extractedBy ?rule }
  OPTIONAL { ?fact kg:confidence ?confidence }
  OPTIONAL { ?fact kg:reportedOn ?reported }
  OPTIONAL { ?article schema:headline ?title }
} ORDER BY ?side DESC(?reported) LIMIT 300"""

EVENTS = """SELECT DISTINCT ?fact ?how ?type ?trigger ?happened ?timeText ?rule ?confidence
       ?article ?title ?reported ?sentence WHERE {
  VALUES ?how { kg:agent kg:patient sem:hasPlace }
  ?fact ?how {{entity}} ; a sem:Event ; prov:hadPrimarySource ?article .
  OPTIONAL { ?fact sem:eventType ?concept BIND(STRAFTER(STR(?concept), "#") AS ?type) }
  OPTIONAL { ?fact nif:anchorOf ?trigger }
  OPTIONAL { ?fact sem:hasTimeStamp ?happened }
  OPTIONAL { ?fact kg:timeText ?timeText }
  OPTIONAL { ?fact kg:extractedBy ?rule }
  OPTIONAL { ?fact kg:confidence ?confidence }
  OPTIONAL { ?fact kg:reportedOn ?reported }
  OPTIONAL { ?article schema:headline ?title }
  OPTIONAL { ?fact prov:wasDerivedFrom/nif:anchorOf ?sentence }
} ORDER BY DESC(COALESCE(?happened, ?reported)) LIMIT 300"""

RELATIONS = """SELECT DISTINCT ?fact ?subject ?subjectName ?relation ?object ?objectName ?rule
       ?confidence ?article ?title ?sentence WHERE {
  { ?fact rdf:subject {{entity}} } UNION { ?fact rdf:object {{entity}} }
  ?fact a rdf:Statement ; rdf:subject ?subject ; rdf:predicate ?relation ; rdf:object ?object .
  OPTIONAL { ?subject rdfs:label ?subjectName }
  OPTIONAL { ?object rdfs:label ?objectName }
  OPTIONAL { ?fact kg:extractedBy ?rule }
  OPTIONAL { ?fact kg:confidence ?confidence }
  OPTIONAL { ?fact prov:hadPrimarySource ?article . OPTIONAL { ?article schema:headline ?title } }
  OPTIONAL { ?fact prov:wasDerivedFrom/nif:anchorOf ?sentence }
} LIMIT 300"""

CO_MENTIONED = """SELECT ?other ?name ?class (COUNT(DISTINCT ?s) AS ?sentences) WHERE {
  { SELECT DISTINCT ?s WHERE { ?m itsrdf:taIdentRef {{entity}} ; nif:sentence ?s } LIMIT 5000 }
  ?m2 nif:sentence ?s ; itsrdf:taIdentRef ?other .
  FILTER(?other != {{entity}})
  OPTIONAL { ?other rdfs:label ?name }
  OPTIONAL { VALUES ?class { schema:Person schema:Organization schema:Place schema:Event }
             ?other a ?class }
} GROUP BY ?other ?name ?class ORDER BY DESC(?sentences) ?name LIMIT 25"""

MENTIONS = """SELECT DISTINCT ?article ?title ?date ?sentence ?sb ?text ?begin ?end WHERE {
  ?m itsrdf:taIdentRef {{entity}} ; nif:referenceContext ?article ; nif:sentence ?sentence ;
     nif:beginIndex ?begin ; nif:endIndex ?end .
  ?sentence nif:beginIndex ?sb ; nif:anchorOf ?text .
  OPTIONAL { ?article schema:headline ?title }
  OPTIONAL { ?article schema:datePublished ?date }
} ORDER BY DESC(?date) ?article ?begin LIMIT 400"""

ARTICLE = """SELECT DISTINCT ?p ?o WHERE { {{article}} ?p ?o } LIMIT 200"""

ARTICLE_LINKS = """SELECT DISTINCT ?other ?relation ?direction ?title ?date WHERE {
  { {{article}} ?relation ?other . BIND("to" AS ?direction) }
  UNION { ?other ?relation {{article}} . BIND("from" AS ?direction) }
  ?other a schema:NewsArticle .
  OPTIONAL { ?other schema:headline ?title }
  OPTIONAL { ?other schema:datePublished ?date }
} LIMIT 200"""

ARTICLE_MENTIONS = """SELECT DISTINCT ?begin ?end ?entity ?label ?class WHERE {
  ?m a nif:Phrase ; nif:referenceContext {{article}} ; nif:beginIndex ?begin ;
     nif:endIndex ?end ; itsrdf:taIdentRef ?entity .
  OPTIONAL { ?entity rdfs:label ?label }
  OPTIONAL { VALUES ?class { schema:Person schema:Organization schema:Place schema:Event }
             ?entity a ?class }
} ORDER BY ?begin"""

ARTICLE_FACTS = """SELECT ?fact (SAMPLE(?kind) AS ?type) (SAMPLE(?r) AS ?rule)
       (SAMPLE(?c) AS ?confidence) (SAMPLE(?fb) AS ?begin) (SAMPLE(?fe) AS ?end)
       (SAMPLE(?anchor) AS ?text) (SAMPLE(?who) AS ?subject) (SAMPLE(?what) AS ?detail)
       (GROUP_CONCAT(DISTINCT CONCAT(STR(?sb), "-", STR(?se)); separator=" ") AS ?sentences)
WHERE {
  ?fact prov:hadPrimarySource {{article}} ; kg:extractedBy ?r ; a ?class .
  VALUES (?class ?kind) { (org:Membership "role") (schema:Claim "claim") (sem:Event "event")
    (schema:QuantitativeValue "figure") (rdf:Statement "relation") (kg:EventLink "same event") }
  OPTIONAL { ?fact kg:confidence ?c }
  OPTIONAL { ?fact nif:beginIndex ?fb ; nif:endIndex ?fe }
  OPTIONAL { ?fact nif:anchorOf ?anchor }
  OPTIONAL { ?fact (org:member|schema:author|rdf:subject|kg:agent)/rdfs:label ?who }
  OPTIONAL { ?fact (org:role/skos:prefLabel|kg:cueVerb|sem:eventType/skos:prefLabel
                    |kg:measures/rdfs:label) ?what }
  OPTIONAL { ?fact prov:wasDerivedFrom ?s . ?s nif:referenceContext {{article}} ;
             nif:beginIndex ?sb ; nif:endIndex ?se }
} GROUP BY ?fact ORDER BY ?begin ?fact"""

TIMELINE = """SELECT ?fact ?type ?trigger ?happened ?granularity ?reported ?article ?title
       (GROUP_CONCAT(DISTINCT ?placeName; separator=", ") AS ?places)
       (GROUP_CONCAT(DISTINCT ?actorName; separator=", ") AS ?actors) WHERE {
  ?fact a sem:Event ; sem:eventType ?concept ; prov:hadPrimarySource ?article .
  BIND(STRAFTER(STR(?concept), "#") AS ?type)
  OPTIONAL { ?fact sem:hasTimeStamp ?happened }
  OPTIONAL { ?fact kg:timeGranularity ?granularity }
  OPTIONAL { ?fact kg:reportedOn ?stamp }
  OPTIONAL { ?article schema:datePublished ?published }
  BIND(COALESCE(?stamp, ?published) AS ?reported)
  OPTIONAL { ?fact nif:anchorOf ?trigger }
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

MAP_PLACES = """SELECT ?place (SAMPLE(?n) AS ?name) (SAMPLE(?la) AS ?lat) (SAMPLE(?lo) AS ?long)
       (MAX(?count) AS ?mentions) WHERE {
  ?place a schema:Place ; wgs:lat ?la ; wgs:long ?lo .
  OPTIONAL { ?place rdfs:label ?n }
  OPTIONAL { ?place kg:mentionCount ?count }
} GROUP BY ?place ORDER BY DESC(?mentions) LIMIT 5000"""

MAP_EVENTS = """SELECT ?fact ?place (SAMPLE(?kind) AS ?type) (SAMPLE(?word) AS ?trigger)
       (SAMPLE(?stamp) AS ?happened) (SAMPLE(?day) AS ?reported) (SAMPLE(?la) AS ?lat)
       (SAMPLE(?lo) AS ?long) (SAMPLE(?a) AS ?article) WHERE {
  ?fact a sem:Event ; sem:hasPlace ?place ; prov:hadPrimarySource ?a .
  ?place wgs:lat ?la ; wgs:long ?lo .
  OPTIONAL { ?fact sem:eventType ?concept BIND(STRAFTER(STR(?concept), "#") AS ?kind) }
  OPTIONAL { ?fact nif:anchorOf ?word }
  OPTIONAL { ?fact sem:hasTimeStamp ?stamp }
  OPTIONAL { ?fact kg:reportedOn ?day }
} GROUP BY ?fact ?place LIMIT 5000"""

CONFLICTS = """SELECT DISTINCT ?thing ?measure ?fact ?value ?qualifier ?figure ?speaker ?source
       ?article ?title ?reported ?sentence ?begin WHERE {
  {
    SELECT ?thing WHERE {
      ?q kg:measures ?thing ; schema:value ?v ; prov:hadPrimarySource ?a .
      OPTIONAL { ?c a schema:Claim ; kg:quantity ?q ; schema:author ?w }
      BIND (COALESCE(?w, ?a) AS ?origin)
    } GROUP BY ?thing
    HAVING (COUNT(DISTINCT ?v) > 1 && COUNT(DISTINCT ?origin) > 1)
  }
  OPTIONAL { ?thing rdfs:label ?measure }
  ?fact kg:measures ?thing ; schema:value ?value ; prov:hadPrimarySource ?article .
  OPTIONAL { ?fact nif:anchorOf ?figure }
  OPTIONAL { ?fact nif:beginIndex ?begin }
  OPTIONAL { ?fact prov:wasDerivedFrom/nif:anchorOf ?sentence }
  OPTIONAL { ?fact kg:qualifier ?qualifier }
  OPTIONAL { ?claim a schema:Claim ; kg:quantity ?fact ; schema:author ?speaker .
             OPTIONAL { ?speaker rdfs:label ?speakerName } }
  OPTIONAL { ?article schema:datePublished ?reported }
  OPTIONAL { ?article schema:headline ?title }
  BIND (COALESCE(?speakerName, "(the article)") AS ?source)
} ORDER BY ?measure ?reported ?article ?begin LIMIT 2000"""
