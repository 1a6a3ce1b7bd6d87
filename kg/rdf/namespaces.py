"""Closed sets of the RDF terms kg writes; a typo raises instead of minting a new IRI.

Standard vocabularies come from rdflib where it ships them closed (schema.org as ``SDO``,
PROV-O, SKOS, W3C ORG, OWL, SHACL); NIF 2.0, ITS 2.0 RDF, SEM, GAF, WGS84, the GeoNames
ontology and kg's own terms are declared here. ``tests/test_namespaces.py`` keeps ``KG`` in
step with ``ontology/kg.ttl`` and every term kg writes in a reused namespace in step with that
vocabulary's published term list (``kg/data/terms-*.txt``).

>>> str(KG.sourcePath)
'https://w3id.org/kgnews/ontology#sourcePath'
"""

from __future__ import annotations

from rdflib import Namespace, URIRef
from rdflib.namespace import (
    DCTERMS,
    ORG,
    OWL,
    PROV,
    RDF,
    RDFS,
    SDO,
    SH,
    SKOS,
    XSD,
    DefinedNamespace,
)

__all__ = [
    "DCTERMS", "GAF", "GEONAMES", "GN", "ITSRDF", "KG", "NIF", "ORG", "OWL", "PREFIXES", "PROV",
    "RDF", "RDFS", "SDO", "SDO_RECENT", "SEM", "SH", "SKOS", "WGS", "XSD",
]

KG_NS = "https://w3id.org/kgnews/ontology#"
#: GeoNames features: ``http://sws.geonames.org/<id>/`` (http, trailing slash), the IRIs
#: GeoNames, DBpedia and Wikidata's mappings use.
GEONAMES = Namespace("http://sws.geonames.org/")


class NIF(DefinedNamespace):
    """NIF 2.0 Core: strings, offsets and their documents."""

    _NS = Namespace("http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#")
    _fail = True

    Context: URIRef
    Phrase: URIRef
    Sentence: URIRef
    String: URIRef
    RFC5147String: URIRef
    lemma: URIRef
    isString: URIRef
    beginIndex: URIRef
    endIndex: URIRef
    anchorOf: URIRef
    referenceContext: URIRef
    sentence: URIRef


class ITSRDF(DefinedNamespace):
    """ITS 2.0 RDF: linking a string to the entity and class it denotes."""

    _NS = Namespace("http://www.w3.org/2005/11/its/rdf#")
    _fail = True

    taIdentRef: URIRef
    taClassRef: URIRef
    taConfidence: URIRef


class SEM(DefinedNamespace):
    """Simple Event Model: events, actors, places and times."""

    _NS = Namespace("http://semanticweb.cs.vu.nl/2009/11/sem/")
    _fail = True

    Event: URIRef
    Actor: URIRef
    Place: URIRef
    Time: URIRef
    EventType: URIRef
    eventType: URIRef
    hasActor: URIRef
    hasPlace: URIRef
    hasTime: URIRef
    hasTimeStamp: URIRef
    hasBeginTimeStamp: URIRef
    hasEndTimeStamp: URIRef


class SDO_RECENT(DefinedNamespace):
    """schema.org terms newer than rdflib's copy of schema.org (``SDO``), same namespace."""

    _NS = Namespace("https://schema.org/")
    _fail = True

    PoliticalParty: URIRef  # schema.org 26.0
    StatisticalVariable: URIRef  # schema.org 23.0


class GAF(DefinedNamespace):
    """Grounded Annotation Framework (NewsReader): a thing and the mentions that denote it."""

    _NS = Namespace("http://groundedannotationframework.org/gaf#")
    _fail = True

    denotedBy: URIRef
    denotes: URIRef


class GN(DefinedNamespace):
    """The GeoNames ontology (``gn:``); features themselves are ``GEONAMES[id/]``."""

    _NS = Namespace("http://www.geonames.org/ontology#")
    _fail = True

    Feature: URIRef
    countryCode: URIRef


class WGS(DefinedNamespace):
    """W3C WGS84 positions (rdflib's own copy has an https IRI that nobody uses)."""

    _NS = Namespace("http://www.w3.org/2003/01/geo/wgs84_pos#")
    _fail = True

    SpatialThing: URIRef
    lat: URIRef
    long: URIRef


class KG(DefinedNamespace):
    """kg's own terms, only where no standard vocabulary has one (see ontology/kg.ttl)."""

    _NS = Namespace(KG_NS)
    _fail = True

    # documents and mentions
    sourcePath: URIRef
    contentHash: URIRef
    nerLabel: URIRef
    # documents: where they came from (issue 13)
    byline: URIRef
    contentKind: URIRef
    retrievedAt: URIRef
    retrievedFrom: URIRef
    copyOf: URIRef
    mentionCount: URIRef
    articleCount: URIRef
    # resolution
    MergeDecision: URIRef
    mergedInto: URIRef
    mergeRule: URIRef
    mergeScore: URIRef
    leftForm: URIRef
    rightForm: URIRef
    geoNote: URIRef
    # facts: evidence (issue 4)
    extractedBy: URIRef
    confidence: URIRef
    reportedOn: URIRef
    # facts: roles and groups
    former: URIRef
    Group: URIRef
    affiliation: URIRef
    # facts: events
    agent: URIRef
    patient: URIRef
    planned: URIRef
    factuality: URIRef
    Factualities: URIRef
    Happened: URIRef
    Planned: URIRef
    Generic: URIRef
    Negated: URIRef
    Hypothetical: URIRef
    timeText: URIRef
    timeUnresolved: URIRef
    quantity: URIRef
    EventLink: URIRef
    linkedEvent: URIRef
    sameEventAs: URIRef
    # facts: claims and figures
    speakerText: URIRef
    speakerWords: URIRef
    speakerAntecedent: URIRef
    speakerResolution: URIRef
    cueVerb: URIRef
    claimKind: URIRef
    qualifier: URIRef
    measuredPredicate: URIRef
    countedThing: URIRef
    measuredFor: URIRef
    measuredCause: URIRef
    measuredPeriod: URIRef
    forecast: URIRef
    measureWording: URIRef
    # facts: the conflicting-figures ledger (issue 39)
    FigureDisagreement: URIRef
    disagreementKind: URIRef
    reportOrder: URIRef
    disagreeingFigure: URIRef
    figureSource: URIRef
    # finer classes of entities (issue 12), where schema.org has none
    ArmedForces: URIRef
    Court: URIRef
    Weapon: URIRef
    Award: URIRef
    # the build (a prov:Activity)
    buildSettings: URIRef
    inputCount: URIRef
    sha256: URIRef
    # facts: the event taxonomy (SKOS concepts, values of sem:eventType)
    EventTypes: URIRef
    ArmedConflict: URIRef
    Attack: URIRef
    Siege: URIRef
    Invasion: URIRef
    Capture: URIRef
    Surrender: URIRef
    Withdrawal: URIRef
    Killing: URIRef
    Death: URIRef
    Launch: URIRef
    Humanitarian: URIRef
    Evacuation: URIRef
    Displacement: URIRef
    Diplomacy: URIRef
    Negotiation: URIRef
    Agreement: URIRef
    Meeting: URIRef
    Statement: URIRef
    Politics: URIRef
    Election: URIRef
    Appointment: URIRef
    Resignation: URIRef
    Protest: URIRef
    Justice: URIRef
    Arrest: URIRef
    Trial: URIRef
    Business: URIRef
    Acquisition: URIRef


#: Prefixes bound in every graph kg writes and predeclared for every query.
PREFIXES: dict[str, str] = {
    "kg": KG_NS,
    "schema": str(SDO._NS),
    "nif": str(NIF._NS),
    "itsrdf": str(ITSRDF._NS),
    "prov": str(PROV._NS),
    "skos": str(SKOS._NS),
    "org": str(ORG._NS),
    "sem": str(SEM._NS),
    "wgs": str(WGS._NS),
    "owl": str(OWL._NS),
    "rdf": str(RDF._NS),
    "rdfs": str(RDFS._NS),
    "xsd": str(XSD._NS),
    "dcterms": str(DCTERMS._NS),
    "gaf": str(GAF._NS),
    "gn": str(GN._NS),
    "sh": str(SH._NS),
}


def _materialise_terms(*namespaces: type[DefinedNamespace]) -> None:
    """Store each declared term as a class attribute. ``DefinedNamespace`` otherwise answers
    every ``NIF.beginIndex`` through its metaclass ``__getattr__``, 7x slower: a fifth of the
    time spent making a corpus's triples. Undeclared names still raise; the values are the
    same ``URIRef``s."""
    for namespace in namespaces:
        for name in namespace.__annotations__:
            type.__setattr__(namespace, name, namespace._NS[name])


_materialise_terms(DCTERMS, ORG, OWL, PROV, RDF, RDFS, SDO, SDO_RECENT, SH, SKOS, XSD, NIF, ITSRDF,
                   SEM, GAF, GN, WGS, KG)
