"""Joins decided by context: the candidates of ``kg.resolve.blocks`` scored by the context
model (``kg.resolve.context``) and clustered corpus-wide.

Clustering is average linkage over the scored pairs: two sets join when the mean probability
of the candidate pairs between them reaches the model's threshold, best first, each set at
most once a round, until a round joins nothing. Two sets never join where one would hold two
people's full names that cannot be one person's, a place and something else, or a person and
a thing (unless they share their name: "Labour" tagged a person).

>>> from kg.resolve.context import ContextModel
>>> groups = [Group("a", anchor="Gavin Henson", kind=PERSON), Group("b", anchor="Tony Henson",
...                                                                   kind=PERSON)]
>>> compatible_people([groups[0]], [groups[1]])
False
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from kg.model import EntityKind
from kg.resolve.blocks import Pair, candidate_pairs
from kg.resolve.context import ContextModel, Contexts, load_context_model, pair_features
from kg.resolve.groups import Group, Merger
from kg.resolve.names import comparison_tokens, near_spelling

PERSON, PLACE = EntityKind.PERSON, EntityKind.PLACE
#: The rule joins a name makes likely, not certain (their pairs are scored in training).
GATED = frozenset({"surname-in-corpus", "surname-by-context", "partial-name-in-corpus",
                   "class-vote", "org-short-form", "acronym", "titled-surname-in-corpus",
                   "titled-given-name-in-corpus", "transliteration"})
#: Rounds of average linkage at most (each joins every set at most once).
ROUNDS = 6


def scored_pairs(contexts: Contexts, pairs: Sequence[Pair], model: ContextModel
                 ) -> list[tuple[int, int, str, float]]:
    """Each pair with its probability of naming one thing."""
    contexts.prepare(k for i, j, _r in pairs for k in (i, j))
    return [(i, j, r, model.probability(pair_features(contexts, i, j, r))) for i, j, r in pairs]


def join_by_context(groups: Sequence[Group], merger: Merger) -> None:
    """Join the candidate pairs' sets by average linkage at the model's threshold; each join
    a ``MergeDecision`` "context-<relation>" with its mean probability."""
    model = load_context_model()
    if model is None or merger.contexts is None:
        return
    pairs = scored_pairs(merger.contexts, list(candidate_pairs(groups, merger)), model)
    for _round in range(ROUNDS):
        if not _link_round(groups, merger, pairs, model.threshold):
            break


def _link_round(groups: Sequence[Group], merger: Merger,
                pairs: Sequence[tuple[int, int, str, float]], threshold: float) -> int:
    total: dict[tuple[int, int], list[float]] = {}
    best: dict[tuple[int, int], tuple[float, int, int, str]] = {}
    for i, j, relation, p in pairs:
        a, b = sorted((merger.find(i), merger.find(j)))
        if a != b:
            total.setdefault((a, b), []).append(p)
            best[a, b] = max(best.get((a, b), (-1.0, 0, 0, "")), (p, i, j, relation))
    members = merger.sets()
    done: set[int] = set()
    joined = 0
    for (a, b), ps in sorted(total.items(), key=lambda item: (-_mean(item[1]), item[0])):
        mean = _mean(ps)
        if mean < threshold:
            break
        _p, i, j, relation = best[a, b]
        left, right = [groups[k] for k in members[a]], [groups[k] for k in members[b]]
        if a in done or b in done or not may_join(left, right, relation):
            continue
        merger.join(i, j, groups[i].anchor, groups[j].anchor, f"context-{relation}",
                    round(mean, 3))
        done |= {a, b}
        joined += 1
    return joined


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def kind_of(members: Sequence[Group]) -> EntityKind:
    """The class the groups' vote gives (cues count thrice, as ``cluster_kind``'s)."""
    votes: Counter[EntityKind] = Counter()
    for group in members:
        votes[group.kind] += group.weight
    order = list(EntityKind)
    return min(votes, key=lambda k: (-votes[k], order.index(k)))


def may_join(left: Sequence[Group], right: Sequence[Group], relation: str) -> bool:
    """Whether two sets may be one thing at all: not a place and something else, not a
    person and a thing unless they share the name, not two people's full names."""
    kinds = {kind_of(left), kind_of(right)}
    if PLACE in kinds and len(kinds) > 1:
        return False
    if PERSON in kinds and len(kinds) > 1 and relation != "same-name":
        return False
    return compatible_people(left, right)


def compatible_people(left: Sequence[Group], right: Sequence[Group]) -> bool:
    """Whether every full name of a person of ``left`` may be one of ``right``'s: the same
    surname (or a near-spelling) and given names of one first letter."""
    names = [[t for g in side if g.kind is PERSON
              if len(t := comparison_tokens(g.anchor)) > 1] for side in (left, right)]
    return all(x[-1][:1] and (x[-1] == y[-1] or near_spelling(x[-1], y[-1]))
               and x[0][:1] == y[0][:1] for x in names[0] for y in names[1])
