"""Mentions → entities: which mentions, within and across articles, denote one thing.

    extractions ─▶ document_groups (per article) ─▶ merge_corpus (across) ─▶ clusters
                ─▶ class vote, GeoNames link, same-GeoNames merge ─▶ registry keys
                ─▶ finer classes from the articles' words (``kg.resolve.types``)
                ─▶ a retyped entity joined to its name's (``join_retyped``) ─▶ Resolution

The rules live in ``kg.resolve`` (within an article: ``document``; across: ``corpus``);
places are linked by ``kg.resolve.geo``; keys come from ``kg.resolve.registry`` so that a
rebuild with more articles never renames an entity. Every join is recorded as a
``MergeDecision`` (rule,
score, the two forms compared); joins a rule refused as ambiguous are recorded with
``merged=False``. Every rule is a heuristic of the registry (``kg.heuristics``), run by its
stage in its declared order: ``corpus-names`` before resolution (``kg.resolve.corpus_names``),
then ``resolve.article``, ``resolve.corpus``, ``resolve.class`` and, here, ``resolve.entities``
(the same-GeoNames merge, dateline regions, places apart, clubs split, finer classes,
retyped joins).

>>> normalise_name("the  Kremlin’s")
"kremlin's"
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from kg.collector import cycles_uncollected
from kg.heuristics import declare, fired, in_document, is_on, steps
from kg.model import (
    Entity,
    EntityKind,
    Extraction,
    GeoLink,
    MentionRef,
    MergeDecision,
    Resolution,
)
from kg.resolve.clubs import places_apart, split_clubs, towns_from_clubs
from kg.resolve.clusters import Cluster
from kg.resolve.context import Contexts
from kg.resolve.corpus import merge_corpus
from kg.resolve.document import document_groups
from kg.resolve.geo import article_countries, candidates, link_place
from kg.resolve.groups import Group, Join, Merger
from kg.resolve.names import normalise_name
from kg.resolve.regions import regions_apart
from kg.resolve.registry import Registry
from kg.resolve.types import with_fine_types
from kg.resolve.variants import join_variants

__all__ = ["Cluster", "normalise_name", "resolve_entities"]


def resolve_entities(
    extractions: Sequence[Extraction], registry: Registry | None = None
) -> Resolution:
    """Entities of a corpus and the entity of every mention; keys from ``registry`` when
    given (see ``kg.resolve.registry``), so earlier builds' IRIs survive.

    >>> resolve_entities([]).entities
    ()
    """
    with cycles_uncollected():
        return _resolve_entities(extractions, registry)


def _resolve_entities(
    extractions: Sequence[Extraction], registry: Registry | None = None
) -> Resolution:
    # The order articles arrive in (cache hits first, worker order) must not change the result.
    extractions = sorted(extractions, key=lambda e: (e.document.doc_id, e.document.path))
    groups = [group for extraction in extractions for group in document_groups(extraction)]
    clusters = corpus_clusters(groups, merge_corpus(groups, Contexts(extractions, groups)))
    countries = {e.document.doc_id: article_countries(e.document.text) for e in extractions}
    for cluster in clusters:
        cluster.kind = cluster_kind(cluster)
        if cluster.kind is EntityKind.PLACE:
            cluster.geo, cluster.geo_note = cluster_link(cluster, countries)
    if is_on(SAME_GEONAMES_PLACE):
        clusters = merge_same_places(clusters)
    registry = registry or Registry()
    resolution = resolution_of(clusters, registry.assign(clusters))
    state = Resolving(extractions, registry)
    for step in steps("resolve.entities"):
        if step.fn is not None:  # merge_same_places runs on the clusters, above
            changed = step(resolution, state)
            _record(step.id, resolution, changed)
            resolution = changed
    return registry.with_class_keys(resolution)


@dataclass
class Resolving:
    """What the steps of ``resolve.entities`` read besides the resolution: the articles, the
    registry of keys and the resolution before its finer classes (``join_retyped``'s)."""

    extractions: Sequence[Extraction]
    registry: Registry
    untyped: Resolution | None = None


def _record(id: str, before: Resolution, after: Resolution) -> None:
    """Record a fire of step ``id`` in each article whose mentions it moved, corpus-wide where
    it changed entities only."""
    if after is before:
        return
    moved = {ref[0] for ref, key in after.assignments.items()
             if before.assignments.get(ref) != key}
    for doc_id in sorted(moved):
        with in_document(doc_id):
            fired(id)
    if not moved and after.entities != before.entities:
        fired(id)


def _with_fine_types(resolution: Resolution, state: Resolving) -> Resolution:
    state.untyped = resolution
    return with_fine_types(resolution, state.extractions)


def _join_retyped(resolution: Resolution, state: Resolving) -> Resolution:
    before = state.untyped if state.untyped is not None else resolution
    return join_retyped(before, resolution, state.registry)


def join_retyped(before: Resolution, after: Resolution, registry: Registry) -> Resolution:
    """``after`` (``before`` with its finer classes) with an entity the words around it
    retyped joined to the one entity of its new class that has its name: "Balco", tagged a
    person in some articles and an organisation in others, was two entities while their
    classes differed; once its articles' words make the person a company too, it is one
    ("same-name-retyped"). People and places stay as resolution made them (two people may
    share a name), and so do two kinds of organisation (a club and a firm); the entity that
    kept its class keeps its key, and a key an earlier build gave the other stays an alias."""
    was = {e.key: e.kind for e in before.entities}
    owners: dict[tuple[EntityKind, str], list[Entity]] = {}
    for entity in after.entities:
        if entity.kind not in (EntityKind.PERSON, EntityKind.PLACE) \
                and was[entity.key] is entity.kind:
            for name in {normalise_name(n) for n in (entity.label, *entity.alt_labels)}:
                owners.setdefault((entity.kind, name), []).append(entity)
    joined: dict[str, str] = {}
    kept = {e.key: e for e in after.entities}
    decisions = list(after.decisions)
    for entity in after.entities:
        found = owners.get((entity.kind, normalise_name(entity.label)), [])
        if was[entity.key] is entity.kind or len(found) != 1 or (
                entity.fine_type and found[0].fine_type not in (None, entity.fine_type)):
            continue
        target = kept[found[0].key]
        joined[entity.key] = target.key
        kept[target.key] = replace(
            target, fine_type=target.fine_type or entity.fine_type,
            alt_labels=tuple(sorted({*target.alt_labels, entity.label, *entity.alt_labels}
                                    - {target.label})),
            aliases=tuple(sorted({*target.aliases, *entity.aliases}
                                 | ({entity.key} & set(registry.entries)))))
        decisions.append(MergeDecision(target.key, entity.label, target.label,
                                       "same-name-retyped", 0.8))
    if not joined:
        return after
    return after.moved((kept[e.key] for e in after.entities if e.key not in joined), joined,
                       decisions)


def corpus_clusters(groups: Sequence[Group], merger: Merger) -> list[Cluster]:
    """One cluster per set of joined groups, with the joins that concern it."""
    clusters = {root: Cluster([groups[i] for i in members])
                for root, members in merger.sets().items()}
    for cluster in clusters.values():
        for group in cluster.groups:
            cluster.joins += group.joins
    for join in merger.joins:
        clusters[merger.find(join.left)].joins.append(join)
    return list(clusters.values())


def cluster_kind(cluster: Cluster) -> EntityKind:
    """The class most of its groups were given, groups with evidence counting thrice."""
    votes: Counter[EntityKind] = Counter()
    for group in cluster.groups:
        votes[group.kind] += group.weight
    order = list(EntityKind)
    return min(votes, key=lambda k: (-votes[k], order.index(k)))


def cluster_link(
    cluster: Cluster, countries: dict[str, frozenset[str]]
) -> tuple[GeoLink | None, str | None]:
    """The GeoNames link of a place from its most frequent known form and the countries its
    articles name; else why it stays unlinked."""
    context = frozenset().union(*(countries[g.doc_id] for g in cluster.groups))
    forms = cluster.forms
    known = [f for f in sorted(forms, key=lambda f: (-forms[f], f)) if candidates(f)]
    return link_place(known[0] if known else cluster.label, context)


def merge_same_places(clusters: Iterable[Cluster]) -> list[Cluster]:
    """Places linked to one GeoNames record are one place ("Kiev"/"Kyiv", "U.S."/"America")."""
    by_id: dict[int, Cluster] = {}
    kept = []
    for cluster in clusters:
        if cluster.geo is None:
            kept.append(cluster)
            continue
        first = by_id.setdefault(cluster.geo.geonames_id, cluster)
        if first is not cluster:
            fired(SAME_GEONAMES_PLACE)
            first.joins.append(Join(0, 0, first.label, cluster.label, "same-geonames-place", 0.9))
            first.groups += cluster.groups
            first.joins += cluster.joins
            first.__dict__.pop("forms", None)  # forget the cached forms
        else:
            kept.append(cluster)
    return kept


def resolution_of(clusters: Sequence[Cluster], keys: Sequence[tuple[str, tuple[str, ...]]]
                  ) -> Resolution:
    """The ``Resolution``: entities sorted by key, every mention's key, every decision."""
    entities: list[Entity] = []
    assignments: dict[MentionRef, str] = {}
    decisions: set[MergeDecision] = set()
    for cluster, (key, aliases) in zip(clusters, keys, strict=True):
        label = cluster.label
        alts = tuple(sorted(f for f in cluster.forms if f != label))
        entities.append(Entity(key, cluster.kind, label, alts, aliases, cluster.geo,
                               cluster.geo_note))
        assignments.update((ref, key) for ref in cluster.refs)
        decisions.update(MergeDecision(key, j.left_form, j.right_form, j.rule, j.score, j.merged)
                         for j in cluster.joins)
    ordered = sorted(decisions, key=lambda d: (d.entity, d.rule, d.left, d.right, d.score,
                                                d.merged))
    return Resolution(tuple(sorted(entities, key=lambda e: e.key)), assignments, tuple(ordered))


# -- the registry's entries, in the order they run --

SAME_GEONAMES_PLACE = declare(
    "resolve.entities.same-geonames-place", "resolve.entities",
    reads="the GeoNames record each place is linked to",
    writes='a MergeDecision "same-geonames-place"', model="join score 0.9",
    description="Places linked to one GeoNames record are one place (\"Kiev\", \"Kyiv\"; "
                "\"U.S.\", \"America\").",
    example="Troops left Kiev on Monday.\n|||\nShelling resumed in Kyiv.").id
declare("resolve.entities.dateline-region", "resolve.entities",
        fn=lambda resolution, state: regions_apart(resolution, state.extractions),
        reads="the mentions after a dateline place's comma, and the GeoNames link of their "
              "place",
        writes="the mention's entity: a place of its name that is no city",
        description="The region after a dateline's place and its comma (\"COMMACK , New York "
                    "1996-08-24\", \"LONDON , Ontario\") is a state, province or country, "
                    "never the city of that name its place was linked to "
                    "(``kg.resolve.regions``).",
        example="COMMACK , New York 1996-08-24\nRain fell on the courts.\n|||\n"
                "NEW YORK 1996-08-25\nShares rose in New York on Monday.")
declare("resolve.entities.places-apart", "resolve.entities",
        fn=lambda resolution, state: places_apart(resolution, state.extractions),
        reads="a city's name resolved to an organisation, where it stands in each article",
        writes="the mention's entity: the place of that name",
        description="A dateline's place, a fixture's venue or \"In X ,\" opening a sentence "
                    "(for a club also a mid-sentence \"in X\") is the city, though the "
                    "corpus's \"X\" is the club.",
        example="Toronto beat Chicago 5-3. Toronto striker Jim Lee scored twice.\n|||\n"
                "TORONTO 1996-08-30\nToronto beat Boston 4-1.")
declare("resolve.entities.split-clubs", "resolve.entities",
        fn=lambda resolution, state: split_clubs(resolution, state.extractions),
        reads="the mentions of a city in each article and their role cues",
        writes="the mentions' entity: an organisation of the city's name",
        description="Where a city's mentions in an article say it plays (a score, \"X "
                    "striker\", \"beat X\") more often than that it is the place, they are "
                    "the club of that name; the city keeps the other articles.",
        example="Liverpool striker Michael Owen scored. Liverpool beat Leeds 2-0.\n|||\n"
                "Ships docked in Liverpool on Monday.")
declare("resolve.entities.towns-from-clubs", "resolve.entities",
        fn=lambda resolution, state: towns_from_clubs(resolution, state.extractions),
        reads="the mentions of a club named as its town, their sentences and articles",
        writes="the mention's entity: the place of that name",
        description="A club named as its town keeps the mentions that read as the club (a "
                    "score, \"beat X\", a sentence about a match, an article about sport, "
                    "baseball's innings and pitchers too); \"in X\", \"a doctor from X\", "
                    "\"X band Kaiser Chiefs\" in an article about music are the town "
                    "(``kg.resolve.clubs``).",
        example="Leeds beat Saracens 20-12 in the Premiership. Leeds scored two tries and "
                "the Leeds fly-half kicked four goals.\n|||\nHotly-tipped Leeds band Kaiser "
                "Chiefs have their second chart hit. Leeds band Kaiser Chiefs played in London.")
declare("resolve.entities.fine-types", "resolve.entities", fn=_with_fine_types,
        reads="the words around every mention of each entity (the ``resolve.class`` cues)",
        writes="Entity.fine_type, and Entity.kind where the words show another class",
        description="Each entity takes the finer class most of its cues name (government "
                    "body, company, party, weapon, film …; ``kg.resolve.types``).",
        example="The Defence Ministry said the strikes hit depots.")
declare("resolve.entities.join-retyped", "resolve.entities", fn=_join_retyped,
        reads="entities the finer classes retyped, and the names of each class",
        writes='a MergeDecision "same-name-retyped"', model="join score 0.8",
        description="An entity the words retyped joins the one entity of its new class with "
                    "its name (\"Balco\" tagged a person in one article, a company in "
                    "another); people and places stay apart.",
        example="Balco said the charges were false.\n|||\nShares in Balco fell. Balco "
                "chief executive Victor Conte resigned.")
declare("resolve.entities.name-variants", "resolve.entities",
        fn=lambda resolution, state: join_variants(resolution,
                                                   frozenset(state.registry.entries)),
        reads="the names and finer classes of every organisation, event and thing",
        writes='a MergeDecision "variant-<relation>" (same-name, alias, party, plural, '
               'abbreviation)',
        model="join score 0.9 (an alias, a party's head word, the same name), 0.8 (a plural), "
              "0.7 (an abbreviation)",
        description="Things whose names are variants of one name are one thing: a party with "
                    "or without \"Party\" (\"Labour\", \"the Labour Party\"), a plural "
                    "(\"Liberal Democrats\", \"Liberal Democrat\"; one word for an award or a "
                    "party: \"Oscars\", \"Oscar\"), words abbreviated (\"Lib Dems\"), another "
                    "name of a few well-known ones (\"Tories\", \"New Labour\", \"the Oscars\": "
                    "``name-aliases.toml``); never people or places, two finer classes, nor a "
                    "body and its prize (\"Norwich Union\", \"Norwich Union Grand Prix\"; "
                    "``kg.resolve.variants``).",
        example="The Labour Party won the seat. Labour party members cheered.\n|||\n"
                "Labour said the Liberal Democrats had lost ground. Tony Blair's party "
                "gained.\n|||\nThe Lib Dems said Labour was complacent.")
