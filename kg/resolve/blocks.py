"""Candidate pairs for the context model, blocked by name keys: never every group with every
other, only groups whose names could be one thing's.

Each relation is looked up in an index built in one pass:

* ``acronym``       an acronym and a name of several words it spells ("AP" / "Associated Press");
* ``abbreviation``  as many words, each the start of the other's ("Lib Dems" / "Liberal
                    Democrats");
* ``plural``        a name and its plural ("Oscar" / "Oscars");
* ``initial``       an initial and a surname, a full name with that surname whose given name
                    starts so ("G Henson" / "Gavin Henson");
* ``given-variant`` full names of one surname whose given names share their first three
                    letters or, five letters long or more, are one letter apart ("Rafa" /
                    "Rafael Benitez", "Heidar" / "Heydar"; not "Martyn" / "Matt Williams",
                    nor "Jon" / "John Smith", two names of their own);
* ``surname``       a bare surname no full name was joined to, each full name ending with it;
* ``same-name``     the same name in two classes the rules left apart ("Labour").

>>> from kg.resolve.groups import Group, Merger
>>> groups = [Group("a", anchor="Liberal Democrats"), Group("b", anchor="Lib Dems")]
>>> [(i, j, r) for i, j, r in candidate_pairs(groups, Merger(2))]
[(0, 1, 'abbreviation')]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from kg.model import EntityKind
from kg.resolve.groups import Group, Merger
from kg.resolve.names import (
    acronym_letters,
    comparison_tokens,
    edit_distance,
    initials,
)

PERSON, PLACE = EntityKind.PERSON, EntityKind.PLACE
#: A key shared by more groups than this names no one thing ("new", "united"): skipped.
MAX_BLOCK = 24

Pair = tuple[int, int, str]


def candidate_pairs(groups: Sequence[Group], merger: Merger) -> Iterator[Pair]:
    """Each candidate pair once (the first relation that finds it), its groups in different
    sets of ``merger``."""
    tokens = [comparison_tokens(g.anchor) for g in groups]
    seen: set[tuple[int, int]] = set()
    finders = [_acronyms, _abbreviations, _plurals, _initials, _given_variants, _surnames,
               _same_names]
    for finder in finders:
        for i, j, relation in finder(groups, tokens, merger):
            pair = (min(i, j), max(i, j))
            if i != j and pair not in seen and merger.find(i) != merger.find(j):
                seen.add(pair)
                yield i, j, relation


Tokens = Sequence[tuple[str, ...]]


def _thing(group: Group) -> bool:
    return group.kind not in (PERSON, PLACE)


def _block(index: dict[tuple[str, ...], list[int]], key: tuple[str, ...]) -> list[int]:
    found = index.get(key, [])
    return found if len(found) <= MAX_BLOCK else []


def _acronyms(groups: Sequence[Group], tokens: Tokens, merger: Merger) -> Iterator[Pair]:
    index: dict[tuple[str, ...], list[int]] = {}
    for j, words in enumerate(tokens):
        if _thing(groups[j]) and len(words) > 1:
            index.setdefault((initials(words),), []).append(j)
    for i, group in enumerate(groups):
        letters = {a for f in (group.anchor, *group.forms) if (a := acronym_letters(f))}
        if group.kind is not PERSON:
            for letter in sorted(letters):
                for j in _block(index, (letter,)):
                    yield i, j, "acronym"


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _abbreviations(groups: Sequence[Group], tokens: Tokens, merger: Merger) -> Iterator[Pair]:
    index: dict[tuple[str, ...], list[int]] = {}
    for j, words in enumerate(tokens):
        if _thing(groups[j]) and len(words) > 1 and all(len(w) >= 3 for w in words):
            index.setdefault(tuple(w[:3] for w in words), []).append(j)
    for block in index.values():
        if len(block) > MAX_BLOCK:
            continue
        for a, i in enumerate(block):
            for j in block[a + 1 :]:
                left, right = map(_stem_all, (tokens[i], tokens[j]))
                if left != right and all(x.startswith(y) or y.startswith(x)
                                         for x, y in zip(left, right, strict=True)):
                    yield i, j, "abbreviation"


def _stem_all(words: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(map(_stem, words))


def _plurals(groups: Sequence[Group], tokens: Tokens, merger: Merger) -> Iterator[Pair]:
    index: dict[tuple[str, ...], list[int]] = {}
    for j, words in enumerate(tokens):
        if _thing(groups[j]) and words and words[-1].endswith("s"):
            index.setdefault((*words[:-1], words[-1][:-1]), []).append(j)
    for i, words in enumerate(tokens):
        if _thing(groups[i]) and words and len(words[-1]) > 2:
            for j in _block(index, words):
                yield i, j, "plural"


def _people(groups: Sequence[Group], tokens: Tokens) -> dict[tuple[str, ...], list[int]]:
    by_surname: dict[tuple[str, ...], list[int]] = {}
    for j, words in enumerate(tokens):
        if groups[j].kind is PERSON and len(words) > 1 and len(words[0]) > 1:
            by_surname.setdefault(words[-1:], []).append(j)
    return by_surname


def _initials(groups: Sequence[Group], tokens: Tokens, merger: Merger) -> Iterator[Pair]:
    by_surname = _people(groups, tokens)
    for i, words in enumerate(tokens):
        if groups[i].kind is PERSON and len(words) == 2 and len(words[0]) == 1:
            for j in _block(by_surname, words[1:]):
                if tokens[j][0].startswith(words[0]):
                    yield i, j, "initial"


def _given_variants(groups: Sequence[Group], tokens: Tokens, merger: Merger) -> Iterator[Pair]:
    for block in _people(groups, tokens).values():
        if len(block) > MAX_BLOCK:
            continue
        for a, i in enumerate(block):
            for j in block[a + 1 :]:
                left, right = tokens[i][0], tokens[j][0]
                if left != right and (left[:3] == right[:3] or min(len(left), len(right)) >= 5
                                      and edit_distance(left, right) <= 1):
                    yield i, j, "given-variant"


def _surnames(groups: Sequence[Group], tokens: Tokens, merger: Merger) -> Iterator[Pair]:
    by_surname = _people(groups, tokens)
    full = {merger.find(j) for block in by_surname.values() for j in block}
    for i, group in enumerate(groups):
        if any(k[0] == "surname" for k in group.keys) and merger.find(i) not in full:
            yield from ((i, j, "surname") for j in _block(by_surname, tokens[i][-1:]))


def _same_names(groups: Sequence[Group], tokens: Tokens, merger: Merger) -> Iterator[Pair]:
    index: dict[tuple[str, ...], list[int]] = {}
    for i, words in enumerate(tokens):
        if words:
            index.setdefault(words, []).append(i)
    for block in index.values():
        if 1 < len(block) <= MAX_BLOCK:
            roots: dict[int, int] = {}
            for i in block:
                roots.setdefault(merger.find(i), i)
            firsts = sorted(roots.values())
            for a, i in enumerate(firsts):
                for j in firsts[a + 1 :]:
                    if PLACE not in (groups[i].kind, groups[j].kind):
                        yield i, j, "same-name"
