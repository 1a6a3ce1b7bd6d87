"""Clusters: the groups of a corpus found to be one thing, and the name they go by.

>>> from kg.model import EntityKind
>>> Cluster([], kind=EntityKind.PERSON).refs
[]
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property

from kg.lexicon.words import ORG_HEAD_WORDS, RANK_TITLES
from kg.model import EntityKind, GeoLink, MentionRef
from kg.resolve.groups import Group, Join
from kg.resolve.names import comparison_tokens, is_generic


@dataclass
class Cluster:
    """The groups of a corpus found to be one thing, before it gets its key."""

    groups: list[Group]
    joins: list[Join] = field(default_factory=list)
    kind: EntityKind = EntityKind.ORGANIZATION
    geo: GeoLink | None = None
    geo_note: str | None = None

    @property
    def refs(self) -> list[MentionRef]:
        return [ref for group in self.groups for ref in group.refs]

    @cached_property
    def forms(self) -> Counter[str]:
        """Every surface form with its count (computed once: clusters merge before use)."""
        found: Counter[str] = Counter()
        for group in self.groups:
            found.update(group.forms)
        return found

    @property
    def label(self) -> str:
        """The canonical name. A place: its GeoNames name when written so, else its most
        frequent form. Anything else: its most frequent full form across the corpus — for a
        person a form of two or more words (a full name before a surname), for anything else a
        form that is not only institution words ("Russian Defense Ministry" before "defence
        ministry", "Strathclyde Police" before "Police") — then the one with most capitalised
        words, then the longest. The longest
        form of one article does not win over the corpus: 14 "Labour" are not "Stevenage
        Labour Party". Shouted forms ("KYIV") come last."""
        forms = self.forms
        if self.kind is EntityKind.PLACE:
            official = self.geo.name if self.geo else None
            return min(forms, key=lambda f: (_shouted(f), f != official, -forms[f], -len(f), f))
        person = self.kind is EntityKind.PERSON
        fuller = {w for f in forms if " " in f for w in f.lower().split()}

        def partial(form: str) -> bool:  # "Police" beside "Strathclyde Police": no label
            if person:
                return _surname_only(form)
            return _generic(form) or (form.lower() in fuller and form.lower() in ORG_HEAD_WORDS)

        best = min(forms, key=lambda f: (_shouted(f), partial(f), not _capitalised(f),
                                         -forms[f], -_capitalised(f), -len(f), f))
        return self._peerage(best) if person else best

    def _peerage(self, name: str) -> str:
        """A peer known only by a surname goes by the title written before it: "Lord
        Bingham", not "Bingham" (the title is cut from each mention, kept on its group).
        Not "Sir" or "Dame", which go with a given name ("Sir Alan")."""
        titles = {title for group in self.groups for title in group.titles} & PEERAGE_TITLES
        if len(titles) != 1 or not _surname_only(name) or not name[:1].isupper():
            return name
        return f"{titles.pop().title()} {name}"


#: Ranks written before a peer's surname alone ("Lord Bingham", "Baroness Kennedy").
PEERAGE_TITLES = RANK_TITLES - {"sir", "dame"}


def _surname_only(form: str) -> bool:
    return len(form.split()) < 2


def _generic(form: str) -> bool:
    # "defence ministry", "Defence Ministry"; a one-word name written capitalised ("Labour")
    # is a name, not a description
    tokens = comparison_tokens(form)
    return is_generic(tokens) and (len(tokens) > 1 or not form[:1].isupper())


def _capitalised(form: str) -> int:
    return sum(1 for word in form.split() if word[:1].isupper())


def _shouted(form: str) -> bool:
    return len(form) > 6 and form.isupper()
