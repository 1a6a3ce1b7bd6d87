"""What every build writes about itself: its vocabulary and how it was made.

    <base>graph/ontology   kg's ontology, the event taxonomy and the SHACL shapes, so a store
                           holding a kg graph can say what a kg:Surrender is
    <base>graph/build      the build as a prov:Activity: kg's version, the spaCy model (version
                           and SHA-256 of its pinned file hashes) and, when the build used it,
                           kg's own news NER (SHA-256 of its file hashes), the settings that shape
                           the output, how many articles it read, and which graphs it generated

Time: the same input must give the same bytes, so no wall-clock time is written. When the
environment sets ``SOURCE_DATE_EPOCH`` (the reproducible-builds.org convention for "the time
this build stands for"), it becomes the activity's ``prov:endedAtTime``.

The blank nodes of the shapes file (property shapes, lists) are written as skolem IRIs
(``…/.well-known/genid/<canonical hash>``), the same in every build: kg writes no blank nodes.

>>> str(build_graph_iri("https://x.org/"))
'https://x.org/graph/build'
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version

from rdflib import BNode, Graph, Literal, URIRef
from rdflib.compare import to_canonical_graph

from kg.config import DEFAULT_MODEL, EXTRACTOR_VERSION
from kg.extract.pipeline import HASH_LIST, NEWS_NER, NEWS_NER_HASHES, split_model
from kg.model import Extraction
from kg.rdf.namespaces import KG, PROV, RDF, RDFS, SDO, XSD
from kg.rdf.terms import Triple
from kg.resources import ONTOLOGY, SHAPES

GENID = "https://w3id.org/kgnews/shapes/.well-known/genid/"
KG_AGENT = "https://w3id.org/kgnews/software/kg/"


def ontology_graph_iri(base: str) -> URIRef:
    """The named graph holding the ontology, taxonomy and shapes."""
    return URIRef(f"{base}graph/ontology")


def build_graph_iri(base: str) -> URIRef:
    """The named graph describing the build."""
    return URIRef(f"{base}graph/build")


@lru_cache(maxsize=1)
def vocabulary_triples() -> tuple[Triple, ...]:
    """The triples of ``ontology/kg.ttl`` and ``ontology/shapes.ttl``, blank nodes skolemised
    to IRIs that depend only on the files' content."""
    graph = Graph()
    graph.parse(ONTOLOGY, format="turtle")
    graph.parse(SHAPES, format="turtle")
    canonical = to_canonical_graph(graph)

    def skolem(term: object) -> object:
        return URIRef(f"{GENID}{term}") if isinstance(term, BNode) else term

    return tuple((skolem(s), p, skolem(o)) for s, p, o in canonical)  # type: ignore[misc]


def source_date() -> datetime | None:
    """``SOURCE_DATE_EPOCH`` as a UTC time, or ``None`` when unset or not a number."""
    raw = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    return datetime.fromtimestamp(int(raw), UTC) if raw.isdigit() else None


@lru_cache(maxsize=8)
def _version(distribution: str) -> str:
    try:
        return version(distribution)
    except PackageNotFoundError:
        return "unknown"


@lru_cache(maxsize=4)
def _file_sha256(path: str) -> str:
    try:
        with open(path, "rb") as file:
            return hashlib.sha256(file.read()).hexdigest()
    except OSError:
        return "unknown"


@dataclass(frozen=True)
class BuildInfo:
    """What a build records about itself (``kg.rdf.graph.corpus_graphs`` makes one)."""

    base: str
    inputs: tuple[str, ...]  # the articles' content hashes, in build order
    kg_version: str = field(default_factory=lambda: _version("kg"))
    model: str = DEFAULT_MODEL  # "<package>" or "<package>+news-ner" (``split_model``)
    model_sha256: str = field(default_factory=lambda: _file_sha256(str(HASH_LIST)))
    news_ner_sha256: str = field(default_factory=lambda: _file_sha256(str(NEWS_NER_HASHES)))
    ended: datetime | None = field(default_factory=lambda: source_date())

    @property
    def package(self) -> str:
        """The spaCy model package the build loaded."""
        return split_model(self.model)[0]

    @property
    def model_version(self) -> str:
        return _version(self.package)

    @property
    def uses_news_ner(self) -> bool:
        return split_model(self.model)[1]

    def settings(self) -> str:
        """The settings that shape the output, as sorted JSON (no local paths)."""
        return json.dumps({"base_iri": self.base, "extractor_version": EXTRACTOR_VERSION,
                           "model": self.model}, sort_keys=True)

    def activity_iri(self) -> URIRef:
        """``<base>build/<hash>`` of everything the output depends on."""
        ner = (self.news_ner_sha256,) if self.uses_news_ner else ()
        key = "|".join((self.kg_version, self.model_version, self.model_sha256, *ner,
                        self.settings(), *sorted(self.inputs)))
        return URIRef(f"{self.base}build/{hashlib.sha256(key.encode()).hexdigest()[:16]}")


def build_info(extractions: Sequence[Extraction], base: str,
               model: str = DEFAULT_MODEL) -> BuildInfo:
    """The ``BuildInfo`` of a build of ``extractions`` by the pipeline ``model``."""
    return BuildInfo(base, tuple(e.document.sha256 for e in extractions), model=model)


def build_triples(info: BuildInfo, graphs: Sequence[URIRef]) -> list[Triple]:
    """The build as a prov:Activity, and every graph it generated."""
    node = info.activity_iri()
    agent = URIRef(f"{KG_AGENT}{info.kg_version}")
    model = URIRef(f"https://w3id.org/kgnews/software/model/{info.package}/{info.model_version}")
    triples: list[Triple] = [
        (node, RDF.type, PROV.Activity), (node, RDFS.label, Literal("kg build")),
        (node, PROV.wasAssociatedWith, agent), (node, PROV.used, model),
        (node, KG.buildSettings, Literal(info.settings())),
        (node, KG.inputCount, Literal(len(info.inputs), datatype=XSD.integer)),
        (agent, RDF.type, PROV.SoftwareAgent), (agent, RDF.type, SDO.SoftwareApplication),
        (agent, RDFS.label, Literal("kg")), (agent, SDO.softwareVersion, Literal(info.kg_version)),
        (model, RDF.type, PROV.Entity), (model, RDF.type, SDO.SoftwareSourceCode),
        (model, RDFS.label, Literal(f"{info.package} {info.model_version}")),
        (model, SDO.version, Literal(info.model_version)),
        (model, KG.sha256, Literal(info.model_sha256)),
    ]
    if info.uses_news_ner:
        ner = URIRef(f"https://w3id.org/kgnews/software/{NEWS_NER}/{info.kg_version}")
        triples += [(node, PROV.used, ner), (ner, RDF.type, PROV.Entity),
                    (ner, RDF.type, SDO.SoftwareSourceCode),
                    (ner, RDFS.label, Literal(f"kg news NER {info.kg_version}")),
                    (ner, KG.sha256, Literal(info.news_ner_sha256))]
    if info.ended is not None:
        triples.append((node, PROV.endedAtTime,
                        Literal(info.ended.strftime("%Y-%m-%dT%H:%M:%SZ"), datatype=XSD.dateTime)))
    triples += [(graph, PROV.wasGeneratedBy, node) for graph in graphs]
    return triples
