"""Mentions → entities: which mentions, within and across articles, denote one thing.

Within an article, mentions with the same normalised name are one entity, of the class most
of them were tagged with. Across articles, entities of one class with the same normalised name
are one entity. Each entity gets a readable, collision-safe key (``<class>/<slug>``) that is
the same for the same input on every run.

>>> normalise_name("the  Kremlin’s")
"kremlin's"
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from kg.ingest import slugify
from kg.model import Entity, EntityKind, Extraction, MentionRef, MergeDecision, Resolution

_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'"})


def normalise_name(name: str) -> str:
    """The form names are compared in: case-folded, apostrophes unified, white space folded,
    a leading "the" dropped."""
    folded = " ".join(name.translate(_APOSTROPHES).casefold().split())
    return re.sub(r"^the\s+", "", folded)


class Cluster:
    """Mentions believed to denote one entity, with the surface forms seen."""

    __slots__ = ("refs", "names", "kinds")

    def __init__(self) -> None:
        self.refs: list[MentionRef] = []
        self.names: Counter[str] = Counter()
        self.kinds: Counter[EntityKind] = Counter()

    def absorb(self, other: Cluster) -> None:
        """Take over ``other``'s mentions."""
        self.refs += other.refs
        self.names.update(other.names)
        self.kinds.update(other.kinds)

    @property
    def kind(self) -> EntityKind:
        """The class most mentions were tagged with (ties: schema order)."""
        order = list(EntityKind)
        return min(self.kinds, key=lambda k: (-self.kinds[k], order.index(k)))

    @property
    def label(self) -> str:
        """The canonical name: the most frequent form, longer forms winning ties."""
        return min(self.names, key=lambda n: (-self.names[n], -len(n), n))


def document_clusters(extraction: Extraction) -> list[Cluster]:
    """Within one article: one cluster per normalised name."""
    by_name: dict[str, Cluster] = {}
    for mention in extraction.mentions:
        cluster = by_name.setdefault(normalise_name(mention.name), Cluster())
        cluster.refs.append((extraction.document.doc_id, mention.begin, mention.end))
        cluster.names[mention.name] += 1
        cluster.kinds[mention.kind] += 1
    return list(by_name.values())


def corpus_clusters(extractions: Iterable[Extraction]) -> list[Cluster]:
    """Across articles: clusters of one class and one normalised name are merged."""
    merged: dict[tuple[EntityKind, str], Cluster] = {}
    for extraction in extractions:
        for cluster in document_clusters(extraction):
            key = (cluster.kind, normalise_name(cluster.label))
            if key in merged:
                merged[key].absorb(cluster)
            else:
                merged[key] = cluster
    return list(merged.values())


def entity_keys(clusters: Sequence[Cluster]) -> list[str]:
    """A readable key per cluster, unique even when two clusters share a label."""
    keys = [f"{c.kind.value.lower()}/{slugify(c.label)}" for c in clusters]
    counts = Counter(keys)
    unique = []
    for key, cluster in zip(keys, clusters, strict=True):
        if counts[key] > 1:
            first = min(cluster.refs)
            key = f"{key}-{slugify(f'{first[0]}-{first[1]}')}"
        unique.append(key)
    return unique


def resolve_entities(extractions: Sequence[Extraction]) -> Resolution:
    """Entities of a corpus and the entity of every mention.

    >>> resolve_entities([]).entities
    ()
    """
    clusters = corpus_clusters(extractions)
    keys = entity_keys(clusters)
    entities, assignments = [], {}
    decisions: list[MergeDecision] = []
    for cluster, key in sorted(zip(clusters, keys, strict=True), key=lambda ck: ck[1]):
        label = cluster.label
        alts = tuple(sorted(n for n in cluster.names if n != label))
        entities.append(Entity(key=key, kind=cluster.kind, label=label, alt_labels=alts))
        for ref in cluster.refs:
            assignments[ref] = key
        decisions += (MergeDecision(key, label, alt, "same-name", 1.0) for alt in alts)
    return Resolution(tuple(entities), assignments, tuple(decisions))
