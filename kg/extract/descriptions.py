"""People written as descriptions: "the 34-year-old", "the Brazilian", "the minister".

News names a person once and then describes them: "Dan Moore, 38, … the 38-year-old
Canadian never recovered … the challenger's corner". A reader knows who each description is
because the article said it of one person. kg makes such a description a mention of that
person (NER label ``DESCRIPTION``), by what the article wrote with the person's name:

* **an age**: "Dan Moore, 38," / "the 38-year-old Moore" / "Moore (38)";
* **a nationality**: a demonym before the name ("Canadian challenger Dan Moore");
* **a post, occupation or person noun** (``person-nouns.txt``, the occupations and titles):
  before the name ("challenger Dan Moore", "Finance minister Anna Berg") or in apposition
  ("Moore, the mandatory challenger", "the challenger, Dan Moore");
* **a gender**, for a noun that says one ("the woman", "the father"; ``gendered-nouns.toml``):
  by a given name or title (``given-names.toml``) or by the pronouns after the name in a
  sentence that names nobody else ("Raj Patel was leaving her car when she was hit") — used only
  when nothing else ties the noun to anyone and everyone else the article names is known to be
  of the other gender;
* **an age of 13 to 19** for "the teen", "the teenager" (``teen-nouns.txt``).

A description is "the" + an age ("the 38-year-old"), a nationality ("the Canadian", "the
Canadian's") or a person noun, in any order ("the 38-year-old Canadian southpaw"), with no
owner, "of" phrase or name of its own, and no word that picks out one of several ("the second
driver", "the only model", "the other man"). Headlines drop the article: a capitalised person
noun anywhere in a Title Case line ("Vigil for Teen Killed in Crash") or opening a line
("Lawyer: singer will appeal") is one too, unless a name, a post, an owner or "of" goes with it
("Lawyer Mark Dunn Quits", "Sheriff Deputy Ortiz", "Singer's Lawyer", "Head of …").

It is that person when exactly one person of the article is known to have what it states and
none of it is contradicted (a nationality it must be known to have: "the Australian star" is no
star of unknown nationality) — or, for an age or a nationality the article gave nobody, when the
sentence (and the one before) name several people and every one but one is said to be of
another age or nationality ("The 31-year-old Baker floored Dan Moore, and the 38-year-old
Canadian never recovered"). People are told apart by their full names, so "Kimani Gray" and his
sister "Mahnefah Gray" each keep what was said of them (a bare "Gray" belongs to neither); a
surname the tagger called something else in one place ("Thompson" as ORG) is still the
person's. Two that fit, or a headline's words over the next line's name, leave it alone.

Descriptions are read after the facts and the article's names: they add mentions to people
already found, never a new entity, a class vote or a name form of their own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kg.extract.entities import is_title_modifier, is_title_word
from kg.extract.frame import doc_text
from kg.extract.recovery import is_capitals_line, is_title_case_line, line_around
from kg.extract.rules.context import PRONOUN_GENDER, name_genders
from kg.lexicon import table, word_list
from kg.lexicon.countries import demonym_code
from kg.lexicon.fact_words import FORMER_WORDS, OCCUPATIONS
from kg.lexicon.words import HONORIFICS, PORTFOLIO_WORDS
from kg.model import DESCRIPTION, EntityKind, Mention

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

    from kg.extract.frame import ChunkFrame

#: Nouns that stand for a person after "the" whether or not the article wrote them with a name.
PERSON_NOUNS = word_list("person-nouns") | word_list("described-person-nouns") | OCCUPATIONS
#: Adjectives that pick someone out of several: "the only model", "the other driver".
SELECTING_WORDS = word_list("selecting-words")
#: Words that make a post another one: "shadow chancellor" is no chancellor, "deputy head" no
#: head.
OTHER_POST_WORDS = word_list("other-post-words")
#: Nouns for someone aged 13 to 19: "the teen" is the one person the article gave such an age.
TEEN_NOUNS = word_list("teen-nouns")
TEEN_AGES = range(13, 20)
#: Nouns that say a person's gender: "the woman" is the one woman the article named.
NOUN_GENDER = {word: gender for gender, words in table("gendered-nouns").items()
               for word in words}
#: Hyphens as tokenisers leave them inside "38-year-old".
_HYPHENS = frozenset("-‐‑–")
#: An age written after a name: "Moore, 38," / "Moore (38)".
_AGE_AFTER = re.compile(r"\s*(?:,\s*(\d{1,3})\s*[,.;]|\(\s*(\d{1,3})\s*\))")
#: Dependencies that make a noun phrase someone's or something's own.
_OWNED = frozenset({"poss", "appos"})
#: Dependencies of a word that modifies a noun after it.
_MODIFIER_DEPS = frozenset({"amod", "compound", "nmod", "npadvmod", "nummod"})
#: Endings of nationality words that, after "the", are the whole people: "the British", "the
#: French", "the Japanese", "the Swiss" (a demonym noun before another noun is no description).
_PEOPLE_ENDINGS = tuple(sorted(word_list("people-demonym-endings")))
#: The most tokens a description spans after "the" ("38 - year - old Canadian southpaw").
_MOST_WORDS = 8


@dataclass
class Traits:
    """What an article wrote with one person's name."""

    ages: set[int] = field(default_factory=set)
    demonyms: set[str] = field(default_factory=set)
    nouns: set[str] = field(default_factory=set)
    genders: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Description:
    """A definite description of someone: its tokens (after "the") and what it states."""

    start: int  # token indexes in the chunk, end exclusive
    end: int
    age: int | None
    demonym: str | None
    noun: str | None
    headline: bool = False  # a headline's bare noun, read before the name it describes


def described_people(doc: Doc, frame: ChunkFrame, mentions: Sequence[Mention]) -> list[Mention]:
    """Mentions of the chunk's people written as descriptions (see the module docstring)."""
    surnames = {m.name.split()[-1] for m in mentions
                if m.kind is EntityKind.PERSON and len(m.name.split()) > 1}
    # a person's surname the tagger called something else in one place is still theirs
    people = [m for m in mentions if not m.is_description
              and (m.kind is EntityKind.PERSON or m.name in surnames)]
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
    for description in [*_descriptions(doc, by_token), *_headline_nouns(doc, by_token)]:
        person = _person_for(description, doc, frame, people, traits, owners, by_token)
        if person is None:
            continue
        begin = frame.offset + doc[description.start].idx
        last = doc[description.end - 1]
        end = frame.offset + last.idx + len(last.text)
        found.append(Mention(begin, end, frame.document.text[begin:end], person,
                             EntityKind.PERSON, DESCRIPTION,
                             frame.sentence_of_token(description.start)))
    return found


def _owners(people: Sequence[Mention]) -> dict[str, str]:
    """Each name the chunk writes → the one full name it is part of ("Ortiz" → "Jerry Ortiz");
    a name two full names share is left out ("Gray" of "Kimani Gray" and "Mahnefah Gray")."""
    names = {m.name for m in people}
    full = [n for n in names if not any(o.endswith(" " + n) for o in names)]
    owners = {}
    for name in names:
        longer = [f for f in full if f == name or f.endswith(" " + name)]
        if len(longer) == 1:
            owners[name] = longer[0]
    return owners


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
    """Each person's (by full name) ages, nationalities and post nouns, as written with a name."""
    traits: dict[str, Traits] = {name: Traits() for name in set(owners.values())}
    text = frame.document.text
    for m in people:
        if m.name not in owners:
            continue
        found = traits[owners[m.name]]
        if (after := _AGE_AFTER.match(text, m.end)) is not None:
            found.ages.add(int(after.group(1) or after.group(2)))
        found.genders |= name_genders(m, one_word=False)
        if (span := spans.get((m.begin, m.end))) is None:
            continue
        if (gender := _pronoun_gender(span, by_token, owners)) is not None:
            found.genders.add(gender)
        _before_name(doc, span.start, found, by_token)
        name = span.root
        for appos in (c for c in name.children if c.dep_ == "appos"):
            _read_phrase(appos, found)
        if name.dep_ == "appos" and name.head.pos_ == "NOUN" and all(
                t.text == "," for t in doc[name.head.i + 1 : span.start]):
            _read_phrase(name.head, found)  # "the challenger, Dan Moore"
    return traits


def _pronoun_gender(span: Span, by_token: dict[int, Mention],
                    owners: dict[str, str]) -> str | None:
    """The gender of the pronouns after a person's name or description in a sentence that names
    nobody else ("Raj Chohan was leaving her car when she was hit", "The singer removed his
    jacket"), when they all agree."""
    sentence = span.sent
    me = owners.get(by_token[span.start].name) if span.start in by_token else None
    if any(t.i in by_token and by_token[t.i].kind is EntityKind.PERSON
           and not span.start <= t.i < span.end
           and (me is None or owners.get(by_token[t.i].name) != me) for t in sentence):
        return None  # someone else is named there: whose the pronouns are is not clear
    genders = {PRONOUN_GENDER[t.lower_] for t in span.doc[span.end : sentence.end]
               if t.lower_ in PRONOUN_GENDER}
    return genders.pop() if len(genders) == 1 else None


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
            if not any(t.lower_ in FORMER_WORDS for t in doc[max(0, i - 4) : i]):
                # not "ex-Conservative chancellor", "former Labour leader"
                found.nouns.add(_noun_key(token))  # "challenger Dan Moore"
        elif not (token.pos_ == "ADJ" and token.is_lower):
            break
        i -= 1


def _read_phrase(head: Token, found: Traits) -> None:
    """An apposition's noun phrase: "the mandatory challenger", "a 40-year-old American"."""
    if head.pos_ == "NOUN" and head.tag_ == "NN" and _person_noun(head):
        found.nouns.add(_noun_key(head))
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
                noun = _noun_key(token)
            elif not (token.pos_ == "ADJ" and token.is_lower) or noun is not None \
                    or token.lower_ in SELECTING_WORDS or token.ent_type_ == "ORDINAL" \
                    or token.tag_ == "JJS":  # "the best actor", "the oldest man"
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
        if age is None and demonym is None and noun is None or noun is None and (
                demonym is not None and last.lower_.endswith(_PEOPLE_ENDINGS)):
            continue  # nothing said, or a whole people: "the British", "the French"
        yield Description(the.i + 1, i, age, demonym, noun)


def _headline_nouns(doc: Doc, by_token: dict[int, Mention]) -> Iterator[Description]:
    """Person nouns written as headlines write them, capitalised and with no article: "Driver
    Charged in Fatal Hit-and-Run", "Lawyer: Actress checks into rehab", "Vigil for Teen Shot by
    Police" — anywhere in a line set in Title Case (not capitals, which hide a noun's part of
    speech: "HEAVYWEIGHT TITLE FIGHTS"), or opening a line. A noun before a name
    ("Lawyer Mark Heller"), a post ("Sheriff Deputy …") or an "of" ("Head of …") is a post, one
    with an owner someone's relation ("Lohan's Lawyer"), neither a description."""
    text = doc_text(doc)
    for token in doc:
        if not token.text[:1].isupper() or token.i in by_token or token.tag_ in {"NNS", "NNPS"} \
                or not _person_noun(token) or token.lower_.rstrip(".") in HONORIFICS:
            continue
        begin, end = line_around(text, token.idx)
        line = text[begin:end]
        title_case = is_title_case_line(line) and not is_capitals_line(line)
        if not (title_case or not text[begin : token.idx].strip(" '\"‘“")):
            continue
        after = doc[token.i + 1] if token.i + 1 < len(doc) else None
        if after is not None and (
                after.i in by_token or after.lower_ == "of" or after.text in _HYPHENS
                or after.tag_ == "POS" or _apostrophe_s(doc, after.i) or _person_noun(after)
                or not title_case and (after.tag_.startswith("NN") or after.pos_ == "PROPN")):
            continue  # a name, a post's words, an owner or a compound follow: "Sheriff's
            # deputies", "Sheriff Deputy Ortiz", "Driver safety"
        if _owned(doc, token.i):
            continue  # "Deputy's Alleged Killer": someone's killer, not the killer named
        start = token.i
        while start > 0 and is_title_modifier(doc[start - 1]) and doc[start - 1].is_title:
            start -= 1  # "Greek Prime Minister"
        yield Description(start, token.i + 1, None, None, _noun_key(token), headline=True)


def _noun_key(token: Token) -> str:
    """A person noun as traits and descriptions compare it: its lemma after the words of the
    post before it — portfolios, title words, compound nouns ("home secretary", "shadow
    chancellor", "prime minister", "video referee")."""
    words = [token.lemma_.lower()]
    for before in reversed(token.doc[max(0, token.i - 3) : token.i]):
        if not (before.lower_ in OTHER_POST_WORDS or before.lower_ in PORTFOLIO_WORDS
                or is_title_modifier(before) or before.pos_ == "NOUN" and before.is_lower
                and before.dep_ == "compound" and not _person_noun(before)):
            break
        words.insert(0, before.lower_)
    return " ".join(words)


def _post_agrees(noun: str, written: str) -> bool:
    """Whether a description's noun is a post written with a name: the same words, or the bare
    noun of a post with a portfolio ("the minister" of "finance minister Anna Berg") — not of
    another post ("the chancellor" is no "shadow chancellor", "the minister" no "prime
    minister")."""
    if noun == written:
        return True
    *modifiers, head = written.split()
    return " " not in noun and head == noun and not OTHER_POST_WORDS.intersection(modifiers)


def _head(noun: str | None) -> str | None:
    return noun.split()[-1] if noun else None


def _headline_predicate(d: Description, doc: Doc, by_token: dict[int, Mention],
                        owners: dict[str, str]) -> str | None:
    """The one person the article's other sentences say the headline's participle of: "Driver
    Charged" is the person who "was charged" (or whom someone "charged"), "Escapee added to
    list" the one who "was added"."""
    if d.end >= len(doc):
        return None
    word, line = doc[d.end].lower_, doc[d.start].sent
    found = set()
    for verb in doc:
        if verb.lower_ != word or verb.tag_ not in {"VBN", "VBD"} or verb.sent == line:
            continue
        heads = [verb, verb.head] if verb.dep_ == "conj" else [verb]  # "struck and killed"
        deps = {"nsubjpass"} if verb.tag_ == "VBN" else {"dobj"}
        for head in heads:
            for child in head.children:
                if child.dep_ not in deps:
                    continue
                for party in (child, *child.conjuncts):  # "X and Y were charged"
                    if party.i in by_token and by_token[party.i].name in owners:
                        found.add(owners[by_token[party.i].name])
    return found.pop() if len(found) == 1 else None


def _apostrophe_s(doc: Doc, i: int) -> bool:
    """Whether tokens ``i`` and the next are a possessive written apart ("Sheriff ’ s")."""
    return doc[i].text in {"'", "’"} and i + 1 < len(doc) and doc[i + 1].lower_ == "s"


def _owned(doc: Doc, i: int) -> bool:
    """Whether the noun phrase ending at token ``i`` has an owner ("Lohan's Lawyer", "His
    Lawyer", "Deputy's Alleged Killer") — not a post owned by a post, which is one post
    ("Sheriff ’ s Deputy": a deputy sheriff)."""
    for token in reversed(doc[max(0, i - _MOST_WORDS) : i]):
        if token.tag_ == "PRP$":
            return True
        owner = token.i - 1 if token.tag_ == "POS" else token.i - 2 if (
            token.i > 1 and _apostrophe_s(doc, token.i - 1)) else None
        if owner is not None:
            return not (is_title_word(doc[owner]) and is_title_word(doc[i]))
        if not (token.pos_ in {"ADJ", "NOUN", "PROPN"} or token.tag_ in {"JJ", "NN", "NNP"}):
            return False
    return False


def _person_noun(token: Token) -> bool:
    """A noun that stands for a person on its own: "man", "victim", "actress", "minister"."""
    return token.lemma_.lower() in PERSON_NOUNS or is_title_word(token)


def _fits(traits: Traits, d: Description, by_gender: bool = False) -> tuple[int, bool]:
    """(attributes of ``d`` the person is known to have, whether one contradicts them); with
    ``by_gender``, the gender a noun says counts as one ("the woman")."""
    agree, contradicts = 0, False
    if d.age is not None and traits.ages:
        agree += d.age in traits.ages
        contradicts |= d.age not in traits.ages
    if d.demonym is not None and traits.demonyms:
        agree += d.demonym in traits.demonyms
        contradicts |= d.demonym not in traits.demonyms
    if _post_known(traits, d):
        agree += 1
    elif by_gender and _head(d.noun) in NOUN_GENDER and traits.genders:
        same = NOUN_GENDER[_head(d.noun)] in traits.genders and len(traits.genders) == 1
        agree += same
        contradicts |= not same
    elif _head(d.noun) in TEEN_NOUNS and traits.ages:  # "the teen": the one aged 13 to 19
        agree += _teen(traits)
        contradicts |= not _teen(traits)
    return agree, contradicts


def _post_known(traits: Traits, d: Description) -> bool:
    """Whether ``d``'s noun is a post the person was written with."""
    return d.noun is not None and any(_post_agrees(d.noun, n) for n in traits.nouns)


def _teen(traits: Traits) -> bool:
    return any(age in TEEN_AGES for age in traits.ages)


def _says_more(traits: Traits, d: Description) -> bool:
    """Whether ``d`` states an age or a post the person was written with: more than a
    nationality or gender, which many people share."""
    return (d.age is not None and d.age in traits.ages or _post_known(traits, d)
            or _head(d.noun) in TEEN_NOUNS and _teen(traits))


def _rival(d: Description, doc: Doc, frame: ChunkFrame, people: Sequence[Mention],
           owners: dict[str, str], traits: dict[str, Traits], person: str) -> bool:
    """Whether the sentence of ``d`` names, before it and after ``person``'s last mention,
    someone else the article never gave a post, age or nationality, who is not the other
    party of the verb ``d`` goes with ("Hartson foxed Vignal, but the striker's shot …": the
    striker may be Vignal; "Orozco shot the deputy": the deputy is not Orozco)."""
    begin, sentence = _where(d, doc, frame)
    before = [m for m in people if m.end <= begin and m.name in owners]
    last = max((m.begin for m in before if owners[m.name] == person), default=-1)
    verb = _governor(doc[d.end - 1])
    for m in before:
        other = owners[m.name]
        if m.begin < last or m.sentence != sentence or other == person:
            continue
        t = traits[other]
        if t.nouns or t.ages or t.demonyms:
            continue
        span = doc.char_span(m.begin - frame.offset, m.end - frame.offset,
                             alignment_mode="expand")
        if span is None or verb is None or _governor(span.root) is not verb:
            return True
    return False


def _governor(token: Token) -> Token | None:
    """The verb a noun phrase is the subject or object of (through a preposition)."""
    while token.dep_ in {"poss", "compound", "amod", "pobj", "prep", "agent", "case"}:
        token = token.head
    return token.head if token.dep_ in {"nsubj", "nsubjpass", "dobj", "iobj", "dative"} \
        or token.head.pos_ == "VERB" and token.dep_ != "ROOT" else None


def _where(d: Description, doc: Doc, frame: ChunkFrame) -> tuple[int, int]:
    """Where ``d`` stands: its document offset and the index of its sentence."""
    return frame.offset + doc[d.start].idx, frame.sentence_of_token(d.start)


def _nearest(d: Description, doc: Doc, frame: ChunkFrame, people: Sequence[Mention],
             owners: dict[str, str]) -> str | None:
    """The person named last before ``d``, in its sentence or the one before."""
    begin, sentence = _where(d, doc, frame)
    before = [m for m in people if m.end <= begin and sentence - m.sentence <= 1]
    return owners.get(max(before, key=lambda m: m.begin).name) if before else None


def _person_for(d: Description, doc: Doc, frame: ChunkFrame, people: Sequence[Mention],
                traits: dict[str, Traits], owners: dict[str, str],
                by_token: dict[int, Mention]) -> str | None:
    """The full name of the one person ``d`` describes, if the article says so."""
    if d.noun is not None and not _person_noun(doc[d.end - 1]):
        return None  # "the American team", "the sixth round": no person's noun
    gender = (_pronoun_gender(doc[d.start : d.end], by_token, owners)
              or NOUN_GENDER.get(_head(d.noun) or ""))
    fits = {key: _fits(t, d) for key, t in traits.items()}
    known = [key for key, (agree, contra) in fits.items() if agree and not contra
             and (d.demonym is None or d.demonym in traits[key].demonyms)
             and (gender is None or not traits[key].genders or gender in traits[key].genders)]
    if not known and _head(d.noun) in NOUN_GENDER:  # "the woman": the one woman, by name or "she"
        known = [key for key, t in traits.items() if _fits(t, d, by_gender=True) == (1, False)]
        if len(known) == 1 and any(not t.genders for key, t in traits.items() if key != known[0]):
            return None  # beside someone whose gender the article never said
    if not known and d.headline:  # "Driver Charged …" over "… Subryan was charged"
        said = _headline_predicate(d, doc, by_token, owners)
        known = [said] if said is not None and not fits[said][1] and (
            gender is None or not traits[said].genders or gender in traits[said].genders) else []
    if len(known) == 1:
        person, nearest = known[0], _nearest(d, doc, frame, people, owners)
        if d.headline or nearest == person:
            return person
        if not _says_more(traits[person], d):
            return None  # a nationality or gender alone, with someone else named since
        if _rival(d, doc, frame, people, owners, traits, person):
            return None  # someone named since, whose post the article never said, may be it
        return person
    if known or (d.age is None and d.demonym is None):
        return None
    begin, sentence = _where(d, doc, frame)
    near = {owners[m.name] for m in people
            if m.begin < begin and sentence - m.sentence <= 1 and m.name in owners}
    left = [key for key in near if not fits[key][1]]
    if len(near) >= 2 and len(left) == 1:
        return left[0]
    return None
