"""People written as descriptions: "the 34-year-old", "the Brazilian", "the minister".

News names a person once and then describes them: "Dan Moore, 38, … the 38-year-old
Canadian never recovered … the challenger's corner". A reader knows who each description is
because the article said it of one person. kg makes such a description a mention of that
person (NER label ``DESCRIPTION``), by what the article wrote with the person's name:

* **an age**: "Dan Moore, 38," / "the 38-year-old Moore" / "Moore (38)";
* **a nationality**: a demonym before the name ("Canadian challenger Dan Moore");
* **a post, occupation or person noun** (``person-nouns.txt``, the occupations and titles):
  before the name ("challenger Dan Moore", "Finance minister Anna Berg") or in apposition
  ("Moore, the mandatory challenger", "the challenger, Dan Moore").

A description is "the" + an age ("the 38-year-old"), a nationality ("the Canadian", "the
Canadian's") or a person noun, in any order ("the 38-year-old Canadian southpaw"), with no
owner, "of" phrase or name of its own, and no word that picks out one of several ("the second
driver", "the only model", "the other man"). It is that person when exactly one person of the
article is known to have what it states and none of it is contradicted (a nationality it must
be known to have: "the Australian star" is no star of unknown nationality) — or, for an age or a
nationality the article gave nobody, when the sentence (and the one before) name several
people and every one but one is said to be of another age or nationality ("The 31-year-old
Baker floored Dan Moore, and the 38-year-old Canadian never recovered"). Two people with one
surname, two that fit, or a headline's words over the next line's name leave it alone.

Descriptions are read after the facts and the article's names: they add mentions to people
already found, never a new entity, a class vote or a name form of their own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kg.extract.entities import is_title_word
from kg.lexicon import word_list
from kg.lexicon.countries import demonym_code
from kg.lexicon.fact_words import OCCUPATIONS
from kg.model import DESCRIPTION, EntityKind, Mention

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

    from kg.extract.frame import ChunkFrame

#: Nouns that stand for a person after "the" whether or not the article wrote them with a name.
PERSON_NOUNS = word_list("person-nouns") | word_list("described-person-nouns") | OCCUPATIONS
#: Adjectives that pick someone out of several: "the only model", "the other driver".
SELECTING_WORDS = word_list("selecting-words")
#: Hyphens as tokenisers leave them inside "38-year-old".
_HYPHENS = frozenset("-‐‑–")
#: An age written after a name: "Moore, 38," / "Moore (38)".
_AGE_AFTER = re.compile(r"\s*(?:,\s*(\d{1,3})\s*[,.;]|\(\s*(\d{1,3})\s*\))")
#: Dependencies that make a noun phrase someone's or something's own.
_OWNED = frozenset({"poss", "appos"})
#: Dependencies of a word that modifies a noun after it.
_MODIFIER_DEPS = frozenset({"amod", "compound", "nmod", "npadvmod", "nummod"})
#: The most tokens a description spans after "the" ("38 - year - old Canadian southpaw").
_MOST_WORDS = 8


@dataclass
class Traits:
    """What an article wrote with one person's name."""

    ages: set[int] = field(default_factory=set)
    demonyms: set[str] = field(default_factory=set)
    nouns: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Description:
    """A definite description of someone: its tokens (after "the") and what it states."""

    start: int  # token indexes in the chunk, end exclusive
    end: int
    age: int | None
    demonym: str | None
    noun: str | None


def described_people(doc: Doc, frame: ChunkFrame, mentions: Sequence[Mention]) -> list[Mention]:
    """Mentions of the chunk's people written as descriptions (see the module docstring)."""
    people = [m for m in mentions if m.kind is EntityKind.PERSON and not m.is_description]
    if not people:
        return []
    owners = _owners(people)
    if not owners:
        return []
    spans = _mention_spans(doc, frame, mentions)
    by_token = {token.i: m for m in mentions if (span := spans.get((m.begin, m.end)))
                for token in span}
    traits = _traits(doc, frame, people, spans, by_token, owners)
    found = []
    for description in _descriptions(doc, by_token):
        person = _person_for(description, doc, frame, people, traits, owners)
        if person is None:
            continue
        begin = frame.offset + doc[description.start].idx
        last = doc[description.end - 1]
        end = frame.offset + last.idx + len(last.text)
        found.append(Mention(begin, end, frame.document.text[begin:end], owners[person],
                             EntityKind.PERSON, DESCRIPTION,
                             frame.sentence_of_token(description.start)))
    return found


def _owners(people: Sequence[Mention]) -> dict[str, str]:
    """Surname → the longest name written with it; a surname two full names share is left
    out ("Kimani Gray" and "Mahnefah Gray")."""
    full: dict[str, set[str]] = {}
    for m in people:
        full.setdefault(_key(m), set()).add(m.name)
    owners = {}
    for surname, names in full.items():
        longest = max(names, key=lambda n: (len(n.split()), n))
        if all(longest.endswith(n) or n.endswith(surname) and len(n.split()) == 1
               for n in names):
            owners[surname] = longest
    return owners


def _key(mention: Mention) -> str:
    return mention.name.split()[-1].lower()


def _mention_spans(doc: Doc, frame: ChunkFrame,
                   mentions: Sequence[Mention]) -> dict[tuple[int, int], Span]:
    """The chunk's tokens of each mention, by its document offsets."""
    found = {}
    for m in mentions:
        span = doc.char_span(m.begin - frame.offset, m.end - frame.offset,
                             alignment_mode="expand")
        if span is not None:
            found[m.begin, m.end] = span
    return found


def _demonym(token: Token) -> str | None:
    """The country code of a capitalised nationality word ("American" → "US")."""
    return demonym_code(token.text) if token.text[:1].isupper() else None


def _age_at(doc: Doc, i: int) -> int | None:
    """The age of an "N-year-old" whose number is token ``i``."""
    if i + 4 >= len(doc) or not doc[i].text.isdigit():
        return None
    words = [t.lower_ for t in doc[i + 1 : i + 5]]
    if words[0] in _HYPHENS and words[1] in {"year", "years"} and words[2] in _HYPHENS \
            and words[3] == "old":
        return int(doc[i].text)
    return None


def _traits(doc: Doc, frame: ChunkFrame, people: Sequence[Mention],
            spans: dict[tuple[int, int], Span], by_token: dict[int, Mention],
            owners: dict[str, str]) -> dict[str, Traits]:
    """Each person's (by surname) ages, nationalities and post nouns, as written with a name."""
    traits: dict[str, Traits] = {key: Traits() for key in owners}
    text = frame.document.text
    for m in people:
        key = _key(m)
        if key not in traits:
            continue
        found = traits[key]
        if (after := _AGE_AFTER.match(text, m.end)) is not None:
            found.ages.add(int(after.group(1) or after.group(2)))
        if (span := spans.get((m.begin, m.end))) is None:
            continue
        _before_name(doc, span.start, found, by_token)
        name = span.root
        for appos in (c for c in name.children if c.dep_ == "appos"):
            _read_phrase(appos, found)
        if name.dep_ == "appos" and name.head.pos_ == "NOUN" and all(
                t.text == "," for t in doc[name.head.i + 1 : span.start]):
            _read_phrase(name.head, found)  # "the challenger, Dan Moore"
    return traits


def _before_name(doc: Doc, start: int, found: Traits, by_token: dict[int, Mention]) -> None:
    """What stands right before a name: "American challenger", "the 40-year-old"."""
    i = start - 1
    while i >= 0 and start - i <= _MOST_WORDS and i not in by_token:
        token = doc[i]
        if token.sent.start != doc[start].sent.start or "\n" in token.whitespace_:
            break  # a headline's "… hit-and-run driver" over the next line's name
        if token.lower_ == "old" and i >= 4 and (age := _age_at(doc, i - 4)) is not None:
            found.ages.add(age)  # "the 40-year-old Moore"
            i -= 5
            continue
        if (code := _demonym(token)) is not None:
            found.demonyms.add(code)
        elif token.pos_ in {"NOUN", "PROPN"} and token.tag_ in {"NN", "NNP"} \
                and _person_noun(token):
            found.nouns.add(token.lemma_.lower())  # "challenger Dan Moore"
        elif not (token.pos_ == "ADJ" and token.is_lower):
            break
        i -= 1


def _read_phrase(head: Token, found: Traits) -> None:
    """An apposition's noun phrase: "the mandatory challenger", "a 40-year-old American"."""
    if head.pos_ == "NOUN" and head.tag_ == "NN" and _person_noun(head):
        found.nouns.add(head.lemma_.lower())
    for token in head.subtree:
        if (code := _demonym(token)) is not None:
            found.demonyms.add(code)
        elif token.text.isdigit() and (age := _age_at(token.doc, token.i)) is not None:
            found.ages.add(age)


def _descriptions(doc: Doc, by_token: dict[int, Mention]) -> Iterator[Description]:
    """Every "the" + age / nationality / singular noun phrase owning nothing and no name."""
    for the in doc:
        if the.lower_ != "the" or the.i + 1 >= len(doc):
            continue
        i, age, demonym, noun = the.i + 1, None, None, None
        while i < len(doc) and i - the.i <= _MOST_WORDS and i not in by_token:
            token = doc[i]
            if (found_age := _age_at(doc, i)) is not None and age is None:
                age, i = found_age, i + 5
                continue
            if (code := _demonym(token)) is not None and token.tag_ not in {"NNS", "NNPS"}:
                demonym = code  # "the American", not "the Americans"
            elif token.pos_ == "NOUN" and token.tag_ == "NN" and token.is_lower:
                noun = token.lemma_.lower()
            elif not (token.pos_ == "ADJ" and token.is_lower) or noun is not None \
                    or token.lower_ in SELECTING_WORDS or token.ent_type_ == "ORDINAL":
                break
            i += 1
        if i == the.i + 1 or i in by_token or (i < len(doc) and doc[i].pos_ in {"NOUN", "PROPN"}
                                               and doc[i].tag_ != "POS"):
            continue  # nothing read, a name follows, or the phrase goes on ("the US team")
        last = doc[i - 1]
        if i < len(doc) and doc[i].text in _HYPHENS or (
                last.head.i > last.i and last.dep_ in _MODIFIER_DEPS):
            continue  # "the Russian-backed separatists", "the American team's": no head here
        if any(c.dep_ in _OWNED or c.dep_ == "prep" and c.lower_ == "of"
               for c in last.children) or (last.pos_ == "ADJ" and demonym is None
                                           and (age is None or last.lower_ != "old")):
            continue  # "the challenger of …", "the challenger, X", "the old"
        if age is None and demonym is None and noun is None:
            continue
        yield Description(the.i + 1, i, age, demonym, noun)


def _person_noun(token: Token) -> bool:
    """A noun that stands for a person on its own: "man", "victim", "actress", "minister"."""
    return token.lemma_.lower() in PERSON_NOUNS or is_title_word(token)


def _fits(traits: Traits, d: Description) -> tuple[int, bool]:
    """(attributes of ``d`` the person is known to have, whether one contradicts them)."""
    agree, contradicts = 0, False
    if d.age is not None and traits.ages:
        agree += d.age in traits.ages
        contradicts |= d.age not in traits.ages
    if d.demonym is not None and traits.demonyms:
        agree += d.demonym in traits.demonyms
        contradicts |= d.demonym not in traits.demonyms
    if d.noun is not None and d.noun in traits.nouns:
        agree += 1
    return agree, contradicts


def _person_for(d: Description, doc: Doc, frame: ChunkFrame, people: Sequence[Mention],
                traits: dict[str, Traits], owners: dict[str, str]) -> str | None:
    """The surname of the one person ``d`` describes, if the article says so."""
    if d.noun is not None and not _person_noun(doc[d.end - 1]):
        return None  # "the American team", "the sixth round": no person's noun
    fits = {key: _fits(t, d) for key, t in traits.items()}
    known = [key for key, (agree, contra) in fits.items() if agree and not contra
             and (d.demonym is None or d.demonym in traits[key].demonyms)]
    if len(known) == 1:
        return known[0]
    if known or (d.age is None and d.demonym is None):
        return None
    sentence = frame.sentence_of_token(d.start)
    begin = frame.offset + doc[d.start].idx
    near = {_key(m) for m in people if m.begin < begin and sentence - m.sentence <= 1}
    near &= set(owners)
    left = [key for key in near if not fits[key][1]]
    if len(near) >= 2 and len(left) == 1:
        return left[0]
    return None
