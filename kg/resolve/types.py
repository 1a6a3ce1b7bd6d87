"""Finer classes from the article's own words: what kind of organisation, or what kind of thing,
a name is, when the text says so.

The small model's labels give four coarse classes; news says more. Four cues, read from the
text around every mention of an entity (all its articles vote; the most frequent class wins,
ties by name):

* the last word (or two) of an organisation's name, or the word before its "of": "Defence
  **Ministry**", "Labour **Party**", "Acme **Corp**", "Turkish **Central Bank**", "**Ministry**
  of Defence";
* a party, newspaper or product noun among the lowercase words right after the name: "X
  **party** leaders", "the X intercontinental ballistic **missile**" — unless the next word
  shows it is only a modifier ("the X tank **factory**", ``types-compound-blockers.txt``);
* an apposition: "X, the country's largest **bank**, …";
* a descriptor right before the name: "the **carmaker** X", "**rights group** X".

Organisation classes (government body, armed forces, court, party, company, news media,
sports team, NGO, school) refine only entities the model called organisations. Product classes
(weapon, vehicle, product) also correct a "place" or "organisation" that GeoNames does not know
as a place: such a thing then keeps only its proper class (``kg.rdf.terms.classes_of``). People
are never retyped. The word lists are general English news vocabulary in
``kg/lexicon/data/types-*.txt``.

>>> cues_in("They tested the Kestrel intercontinental ballistic missile.", 16, 23)
['Weapon']
>>> cues_in("Fidesz, the ruling party, won.", 0, 6)
['PoliticalParty']
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import replace

from kg.lexicon import word_list
from kg.model import Entity, EntityKind, Extraction, Resolution

#: Class (schema.org local name, or kg's) → the word list that names it.
ORGANIZATION_LISTS = {
    "ArmedForces": "types-armed-forces",
    "Court": "types-court",
    "GovernmentOrganization": "types-government",
    "PoliticalParty": "types-party",
    "NewsMediaOrganization": "types-media",
    "Corporation": "types-company",
    "SportsTeam": "types-sports",
    "NGO": "types-ngo",
    "EducationalOrganization": "types-education",
}
PRODUCT_LISTS = {"Weapon": "types-weapon", "Vehicle": "types-vehicle", "Product": "types-product"}
#: The classes a noun right after a name may give: "the X party", "the X newspaper", "the X
#: missile". Other organisation nouns there name a part of X ("the X commission", "X forces").
AFTER_NAME = frozenset({"PoliticalParty", "NewsMediaOrganization", *PRODUCT_LISTS})
#: How many lowercase words after a name (or in an apposition) are read.
MAX_RUN = 4
APPOSITION_WORDS = 7

_WORD = re.compile(r"[A-Za-z][A-Za-z.'-]*")


def _class_of(phrase: str, lists: dict[str, str], cue: str = "name") -> str | None:
    """The class whose list holds ``phrase``; only the name's own last word may be a word of
    ``types-name-only`` ("Post"), and a word of ``types-not-after-name`` ("team") is no cue
    right after a name."""
    if cue != "name" and phrase in word_list("types-name-only"):
        return None
    if cue == "name" and phrase in word_list("types-not-name-word"):
        return None
    if cue == "after" and phrase in word_list("types-not-after-name"):
        return None
    for cls, name in lists.items():  # in order: armed forces before government, …
        if phrase in word_list(name):
            return cls
    return None


def _head_class(words: Sequence[str], lists: dict[str, str], cue: str) -> str | None:
    """The class named by the last one or two of ``words`` ("rights group", "bank")."""
    for size in (2, 1):
        if len(words) >= size and (cls := _class_of(" ".join(words[-size:]), lists, cue)):
            return cls
    return None


def _following_run(text: str, end: int) -> list[str]:
    """The lowercase words right after a name, up to punctuation, a capital or a stop word."""
    run = []
    for match in _WORD.finditer(text, end, min(len(text), end + 80)):
        gap = text[end:match.start()]
        word = match.group().rstrip(".").lower()
        if gap.strip() or not match.group()[0].islower() or word in word_list("types-stop-words"):
            break
        run.append(word)
        end = match.end()
        if len(run) == MAX_RUN:
            break
    return run


def _after(text: str, end: int, lists: dict[str, str]) -> str | None:
    """The first class noun in the words after a name, unless the next word shows it is only
    a modifier ("the X tank factory")."""
    run = _following_run(text, end)
    lists = {cls: name for cls, name in lists.items() if cls in AFTER_NAME}
    for i in range(len(run)):
        for size in (2, 1):
            cls = _class_of(" ".join(run[i:i + size]), lists, "after") if i + size <= len(run) \
                else None
            if cls is None:
                continue
            following = run[i + size] if i + size < len(run) else None
            if following in word_list("types-compound-blockers"):
                return None
            return cls if all(_is_modifier(word) for word in run[:i]) else None
    return None


def _is_modifier(word: str) -> bool:
    """Whether ``word`` looks like a modifier of the noun after it (``types-modifiers``)."""
    entries = word_list("types-modifiers")
    return "-" in word or word in entries or any(
        word.endswith(e[1:]) for e in entries if e.startswith("-"))


def _apposition(text: str, end: int, lists: dict[str, str]) -> str | None:
    """The head of ", a/an/the … NOUN," right after the name."""
    match = re.match(r",\s+(?:a|an|the)\s+([^,;:.()]{1,80}?)\s*(?=[,;:.()]|\s(?:of|in|that|"
                     r"which|who|based|with|for|and)\s)", text[end:end + 100])
    if match is None:
        return None
    words = [w.lower() for w in _WORD.findall(match.group(1))][-APPOSITION_WORDS:]
    return _head_class(words, lists, "apposition")


def _before(text: str, begin: int, lists: dict[str, str]) -> str | None:
    """A descriptor right before the name: "the carmaker X", "rights group X"."""
    words = text[max(0, begin - 60):begin].split()
    if not words or not all(_WORD.fullmatch(w) and w[0].islower() for w in words[-1:]):
        return None
    tail = [w.lower() for w in words[-2:] if _WORD.fullmatch(w) and w[0].islower()]
    return _head_class(tail, lists, "before")


def cues_in(text: str, begin: int, end: int, organisation: bool = True,
            product: bool = True) -> list[str]:
    """The classes the words around ``text[begin:end]`` give it (see the module docstring)."""
    lists = {**(ORGANIZATION_LISTS if organisation else {}), **(PRODUCT_LISTS if product else {})}
    if not lists:
        return []
    found = []
    written = _WORD.findall(text[begin:end])
    if "of" in written:  # "Ministry of Defence", "Association of European Airlines": the head
        written = written[:written.index("of")]  # comes before "of"
    name = [w.rstrip(".").lower() for w in written]
    # "Premier League commission": a lowercase noun after a capitalised name is no name word
    tail_is_name = not written or written[-1][0].isupper() or not any(
        w[0].isupper() for w in written)
    if organisation and tail_is_name and name and (
            cls := _head_class(name, ORGANIZATION_LISTS, "name")):
        found.append(cls)
    for cue in (_after(text, end, lists), _apposition(text, end, lists),
                _before(text, begin, lists)):
        if cue is not None:
            found.append(cue)
    return found


def _may_be(entity: Entity) -> tuple[bool, bool]:
    """(organisation classes, product classes) that may refine ``entity``."""
    if entity.kind is EntityKind.PERSON:
        return False, False
    known_place = entity.geo is not None
    return entity.kind is EntityKind.ORGANIZATION, not known_place


def with_fine_types(resolution: Resolution, extractions: Sequence[Extraction]) -> Resolution:
    """``resolution`` with ``Entity.fine_type`` set where the articles' words give one.

    >>> with_fine_types(Resolution((), {}), []).entities
    ()
    """
    votes: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for extraction in extractions:
        doc_id, text = extraction.document.doc_id, extraction.document.text
        for mention in extraction.mentions:
            key = resolution.assignments.get((doc_id, mention.begin, mention.end))
            if key is None:
                continue
            organisation, product = _may_be(resolution.entity(key))
            votes[key].update(cues_in(text, mention.begin, mention.end, organisation, product))
    entities = tuple(_typed(e, votes[e.key]) if votes.get(e.key) else e
                     for e in resolution.entities)
    return Resolution(entities, resolution.assignments, resolution.decisions)


def _typed(entity: Entity, votes: Counter[str]) -> Entity:
    """``entity`` with the class most cues name; a product is no place, so it loses the note
    about why GeoNames has no place of that name."""
    fine = min(votes, key=lambda c: (-votes[c], c))
    if fine in PRODUCT_LISTS:
        return replace(entity, fine_type=fine, geo_note=None)
    return replace(entity, fine_type=fine)
