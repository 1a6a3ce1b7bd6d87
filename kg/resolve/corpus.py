"""Across articles: which groups of different articles are one thing.

No step compares every group with every other. Each rule looks candidates up in an index
built in one pass (exact identity keys; a sound key of surnames; acronym letters; parts of
organisation names) and compares only within those blocks:

* ``same keys``      equal identity keys: the same name after case, "the", possessives,
                     British/American spelling and a works tail are set aside ("Azovstal
                     steel works" = "Azovstal steelworks"), or the same generic institution
                     of the same country ("Russia's defence ministry" = "Russian Defense
                     Ministry").
* ``transliteration`` full names whose words are near-spellings ("Zelenskiy"/"Zelensky").
* ``surname``        a bare surname to the one full name in the corpus ending with it; two
                     candidates: kept apart and recorded.
* ``class vote``     a one-word "person" nobody in the corpus is named after, to the one
                     organisation of that name ("Labour" tagged PERSON).
* ``acronym``        an acronym to the one multi-word name in the corpus it spells.
* ``org short form`` part of an organisation name ("the Red Cross") to the one longer
                     organisation name in the corpus containing it.

People and other things live in separate key spaces, so a person never merges with a place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from kg.lexicon.words import TITLE_NOUNS
from kg.model import EntityKind
from kg.resolve.document import org_parts
from kg.resolve.geo import is_country_name, is_place_name
from kg.resolve.groups import Group, Key, Merger
from kg.resolve.names import (
    ACRONYM_SKIP,
    MIN_VARIANT_LENGTH,
    acronym_letters,
    comparison_tokens,
    initials,
    near_spelling,
    phonetic_key,
)

KEY_RULES = {"person": "same-name", "surname": "same-name", "name": "same-name",
             "org": "qualified-name", "generic": "same-name"}


def merge_corpus(groups: Sequence[Group]) -> Merger:
    """A union-find over ``groups`` with every cross-article join applied and recorded.

    >>> from kg.resolve.groups import Group
    >>> putin = Group("a", anchor="Vladimir Putin", keys={("person", "vladimir", "putin"): "x"})
    >>> bare = Group("b", anchor="Putin", keys={("surname", "putin"): "Putin"})
    >>> merger = merge_corpus([putin, bare])
    >>> merger.find(1) == merger.find(0), merger.joins[0].rule
    (True, 'surname-in-corpus')
    """
    merger = Merger(len(groups))
    join_same_keys(groups, merger)
    join_transliterations(groups, merger)
    join_surnames(groups, merger)
    join_tagger_slips(groups, merger)
    join_acronyms(groups, merger)
    join_org_short_forms(groups, merger)
    return merger


def join_same_keys(groups: Sequence[Group], merger: Merger) -> None:
    """Join groups sharing an identity key."""
    first: dict[Key, int] = {}
    for i, group in enumerate(groups):
        for key, form in group.keys.items():
            j = first.setdefault(key, i)
            if j != i:
                other = groups[j].keys[key]
                merger.join(j, i, other, form, _key_rule(key, other, form), _SCORES[key[0]])


_SCORES = {"person": 1.0, "surname": 0.9, "name": 1.0, "org": 0.9, "generic": 0.8}


def _key_rule(key: Key, left: str, right: str) -> str:
    if key[0] != "name":
        return KEY_RULES[key[0]]
    if left.casefold() == right.casefold():
        return "same-name"
    if comparison_tokens(left) == comparison_tokens(right):
        return "spelling-variant"
    return "word-form-variant"


def _people(groups: Sequence[Group], kind: str) -> Iterator[tuple[int, tuple[str, ...]]]:
    for i, group in enumerate(groups):
        for key in group.keys:
            if key[0] == kind:
                yield i, key[1:]


def join_transliterations(groups: Sequence[Group], merger: Merger) -> None:
    """Join full names of as many words whose words are all near-spellings, blocked by the
    sound key of the surname."""
    blocks: dict[tuple[int, str], list[tuple[int, tuple[str, ...]]]] = {}
    for i, tokens in _people(groups, "person"):
        blocks.setdefault((len(tokens), phonetic_key(tokens[-1])), []).append((i, tokens))
    for block in blocks.values():
        for a, (i, left) in enumerate(block):
            for j, right in block[a + 1 :]:
                if left != right and all(map(near_spelling, left, right)):
                    merger.join(i, j, groups[i].keys[("person", *left)],
                                groups[j].keys[("person", *right)], "transliteration", 0.8)


def join_surnames(groups: Sequence[Group], merger: Merger) -> None:
    """Join a bare surname to the one person of the corpus whose full name ends with it (or a
    near-spelling of it, for surnames of nine letters or more). A word that is also someone's
    given name ("Gordon", "Harry") may be either: it is kept apart like any ambiguity."""
    by_surname: dict[str, list[int]] = {}
    by_given: dict[str, list[int]] = {}
    by_sound: dict[str, list[tuple[int, str]]] = {}
    for i, tokens in _people(groups, "person"):
        by_surname.setdefault(tokens[-1], []).append(i)
        by_given.setdefault(tokens[0], []).append(i)
        by_sound.setdefault(phonetic_key(tokens[-1]), []).append((i, tokens[-1]))
    for i, (surname,) in _people(groups, "surname"):
        owners = {merger.find(j) for j in by_surname.get(surname, [])}
        if not owners and len(surname) > MIN_VARIANT_LENGTH:
            sound = by_sound.get(phonetic_key(surname), [])
            owners = {merger.find(j) for j, other in sound if near_spelling(surname, other)}
        owners |= {merger.find(j) for j in by_given.get(surname, [])}
        _join_unique(groups, merger, i, owners, "surname-in-corpus", 0.7)


def join_tagger_slips(groups: Sequence[Group], merger: Merger) -> None:
    """Join a one-word "person" that is nobody's surname or given name in the corpus to the
    one organisation of that name, when the corpus names the organisation at least as often:
    the tagger's slips ("Labour" tagged PERSON) are outvoted across articles as they are
    within one. Places are never joined so: "Jordan" the person is not the country."""
    organisations: dict[str, list[int]] = {}
    for i, group in enumerate(groups):
        for key in group.keys:  # ("name", "amnesty"), or ("generic", "labour") for parties
            if key[0] in ("name", "generic") and len(key) == 2 and (
                    group.kind is EntityKind.ORGANIZATION):
                organisations.setdefault(key[1], []).append(i)
    people = {t for _i, tokens in _people(groups, "person") for t in (tokens[0], tokens[-1])}
    mentions: Counter[int] = Counter()
    for i, group in enumerate(groups):
        mentions[merger.find(i)] += len(group.refs)
    for i, (token,) in _people(groups, "surname"):
        owners = {merger.find(j) for j in organisations.get(token, [])}
        if token not in people and len(owners) == 1:
            owner = next(iter(owners))
            if mentions[owner] >= mentions[merger.find(i)]:
                merger.join(owner, i, groups[owner].anchor, groups[i].anchor, "class-vote", 0.6)


def _join_unique(groups: Sequence[Group], merger: Merger, i: int, owners: set[int], rule: str,
                 score: float) -> None:
    if merger.find(i) in owners:
        return  # already one with a candidate (another group of its set was joined first)
    if len(owners) == 1:
        j = owners.pop()
        merger.join(j, i, groups[j].anchor, groups[i].anchor, rule, score)
    elif owners:
        forms = " | ".join(sorted(groups[j].anchor for j in owners))
        merger.refuse(i, groups[i].anchor, forms, f"ambiguous-{rule}")


def _named(groups: Sequence[Group]) -> Iterator[tuple[int, tuple[str, ...]]]:
    for i, group in enumerate(groups):
        for key in group.keys:
            if key[0] == "name":
                yield i, key[1:]


def join_acronyms(groups: Sequence[Group], merger: Merger) -> None:
    """Join an acronym to the one multi-word name of the corpus whose initials it spells;
    of several, to the one that some article spelled out with that acronym ("United Nations
    (UN)"). Country acronyms ("US", "UK") are GeoNames' business."""
    expansions: dict[str, list[int]] = {}
    for i, tokens in _named(groups):
        if len(tokens) > 1 and spells_out(groups[i].keys[("name", *tokens)]):
            expansions.setdefault(initials(tokens), []).append(i)
    spelled: dict[str, Counter[int]] = {}
    for i, group in enumerate(groups):
        for form in group.forms:
            if (letters := acronym_letters(form)) and group.anchor != form:
                spelled.setdefault(letters, Counter())[merger.find(i)] += 1
    for i, group in enumerate(groups):
        letters = acronym_letters(group.anchor)
        if (not letters or letters in TITLE_NOUNS or group.kind is EntityKind.PERSON
                or is_country_name(group.anchor)):
            continue
        owners = {merger.find(j) for j in expansions.get(letters, [])}
        _join_unique(groups, merger, i, _spelled_out(owners, spelled.get(letters)), "acronym",
                     0.8)


def spells_out(form: str) -> bool:
    """Whether a name can be what an acronym stands for: its words capitalised ("North
    Atlantic Treaty Organization"), none an acronym itself ("US Super Bowl" is no "USB").

    >>> spells_out("General Motors"), spells_out("IRB Rugby Aid"), spells_out("north east")
    (True, False, False)
    """
    words = [w for w in form.split() if w.lower() not in ACRONYM_SKIP]
    return all(w[:1].isupper() and not (len(w) > 1 and w.isupper()) for w in words)


def _spelled_out(owners: set[int], spelled: Counter[int] | None) -> set[int]:
    """Of several expansions, the one articles spelled out with the acronym clearly most
    often (twice as often as any other), if there is one."""
    counts = sorted(((spelled or Counter())[o], o) for o in owners)
    if len(counts) > 1 and counts[-1][0] >= max(1, 2 * counts[-2][0]):
        return {counts[-1][1]}
    return owners


def join_org_short_forms(groups: Sequence[Group], merger: Merger) -> None:
    """Join part of an organisation's name ("Red Cross", "Amnesty") to the one longer
    organisation name of the corpus containing it (see ``org_parts``)."""
    parts: dict[tuple[str, ...], list[int]] = {}
    for i, tokens in _named(groups):
        if groups[i].kind is EntityKind.ORGANIZATION:
            for part in org_parts(tokens):
                parts.setdefault(part, []).append(i)
    for i, group in enumerate(groups):
        if group.kind is not EntityKind.ORGANIZATION or acronym_letters(group.anchor):
            continue
        tokens = comparison_tokens(group.anchor)
        if ("name", *tokens) in group.keys and not is_place_name(group.anchor):
            owners = {merger.find(j) for j in parts.get(tokens, [])}
            _join_unique(groups, merger, i, owners, "org-short-form", 0.7)
