"""Groups of mentions believed to denote one thing, and the record of why they were joined.

A ``Group`` starts as the mentions of one name in one article; rules join groups with a
union-find (``Merger``) that records a ``Join`` (rule, score, the two forms compared) for every
union, so each merge in the final graph says why it happened.

>>> merger = Merger(3)
>>> merger.join(0, 2, "Putin", "Vladimir Putin", "surname-in-article", 0.9)
True
>>> merger.find(2) == merger.find(0), merger.find(1) == merger.find(0)
(True, False)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kg.model import EntityKind, MentionRef

#: Names the resolver keys groups by, e.g. ("name", "azovstal") or ("person", "vladimir",
#: "putin"); the first element keeps people and other things apart.
Key = tuple[str, ...]


@dataclass
class Group:
    """Mentions of one article (or, after merging, of a corpus) believed to be one thing."""

    doc_id: str
    anchor: str = ""  # the fullest name of the group in its article (its keys come from it)
    refs: list[MentionRef] = field(default_factory=list)
    forms: Counter[str] = field(default_factory=Counter)  # surface forms as written
    votes: Counter[EntityKind] = field(default_factory=Counter)
    keys: dict[Key, str] = field(default_factory=dict)  # identity key → the form it came from
    kind: EntityKind = EntityKind.ORGANIZATION
    evidence: bool = False  # kind decided by cues or GeoNames, not by the tagger alone
    ambiguous: bool = False  # a bare surname that two people in its article could own
    titles: frozenset[str] = frozenset()  # gender and rank titles its mentions carry ("mrs")
    joins: list[Join] = field(default_factory=list)  # decisions taken inside the article

    @property
    def name(self) -> str:
        """The most frequent form (longer forms win ties)."""
        if len(self.forms) == 1:  # most groups: one form
            return next(iter(self.forms))
        return min(self.forms, key=lambda f: (-self.forms[f], -len(f), f))

    @property
    def weight(self) -> int:
        """How much this group's class counts when groups are merged."""
        return len(self.refs) * (3 if self.evidence else 1)


@dataclass(frozen=True, slots=True)
class Join:
    """One union: the two groups, the forms compared and the rule that joined them."""

    left: int
    right: int
    left_form: str
    right_form: str
    rule: str
    score: float
    merged: bool = True


class Merger:
    """Union-find over group indices that remembers every join (and every refusal)."""

    def __init__(self, size: int) -> None:
        self.parent = list(range(size))
        self.joins: list[Join] = []
        #: Asked before a join: the score of a refusal (the join is then recorded refused as
        #: "context-refused-<rule>"), or ``None`` to let it be. Resolution sets none;
        #: ``bench/train_resolver.py`` records the rules' pairs with it.
        self.gate: Callable[[int, int, str], float | None] | None = None
        #: What surrounds each group (``kg.resolve.context.Contexts``), for the steps that
        #: read it; ``None`` where a caller has no texts.
        self.contexts: Any = None

    def find(self, i: int) -> int:
        """The representative of ``i``'s set (paths halved as it goes)."""
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def join(self, i: int, j: int, left: str, right: str, rule: str, score: float) -> bool:
        """Put ``i`` and ``j`` in one set; ``False`` when they already were."""
        a, b = self.find(i), self.find(j)
        if a == b:
            return False
        if self.gate is not None and (refused := self.gate(i, j, rule)) is not None:
            self.joins.append(Join(i, j, left, right, f"context-refused-{rule}", refused, False))
            return False
        self.parent[max(a, b)] = min(a, b)  # the earlier group stays the representative
        self.joins.append(Join(i, j, left, right, rule, score))
        return True

    def refuse(self, i: int, left: str, right: str, rule: str) -> None:
        """Record that a rule found ``left`` ambiguous and kept it apart."""
        self.joins.append(Join(i, i, left, right, rule, 0.0, merged=False))

    def sets(self) -> dict[int, list[int]]:
        """Representative → members, members in index order."""
        found: dict[int, list[int]] = {}
        for i in range(len(self.parent)):
            found.setdefault(self.find(i), []).append(i)
        return found
