"""Named-entity mentions from spaCy's NER, cleaned for use as names.

NER labels map to kg's classes: PERSON → Person; ORG → Organization; GPE, LOC, FAC → Place;
EVENT → Event. NORP (nationalities, groups), DATE, TIME, CARDINAL, QUANTITY, MONEY, PERCENT,
ORDINAL, LAW, PRODUCT, WORK_OF_ART and LANGUAGE are not entities: dates and numbers become
``TimeExpression`` and ``Quantity`` (see ``values.py``); the rest are dropped.

Cleaning keeps the mention's offsets exact: a leading "the", a trailing possessive, trailing
punctuation and anything after a spaced dash are cut from the span itself; titles in front of a
person ("President", "Defence Minister", "Maj. Gen.") and party words ("Tory Dominic Grieve")
are cut from the name and kept in ``Mention.titles``. The small model's worst class errors are
corrected with general rules: a
name ending in an organisation word ("… Ministry", "… Regiment") is an organisation, one ending
in a place word ("… Sea", "… Republic") a place. A common-noun acronym or an adjective the
model took for a name ("TV", "PC", "GDP", "MW", "Olympic"), the pronoun "I" and a lone "Film"
or "Directive" (``not-names.txt``) are no mentions. Glued and cut names are mended: a nationality
before a person of the article ("American Dent") is cut off; an initial before a surname is
kept ("G Jenkins"); an ordinal's period ("21st Century") is no name; a "person" ending in a
group's plural ("… Brothers") is an organisation; an acronym's expansion in brackets is one
name ("Asimo (Advanced Step in Innovative Mobility)"; see ``kg.extract.spans``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from kg.extract.frame import doc_text
from kg.extract.recovery import (
    dateline_places,
    is_known_place,
    is_url_line,
    line_around,
    line_bounds,
)
from kg.extract.spans import (
    POLICE,
    expansions_joined,
    particle_joined,
    with_force_descriptions,
)
from kg.heuristics import Heuristic, declare, fired, steps
from kg.lexicon import table, word_list
from kg.lexicon.countries import demonym_code
from kg.lexicon.words import (
    COMPASS_WORDS,
    DASHES,
    GIVEN_NAMES,
    LEADING_DETERMINERS,
    NAME_BREAKS,
    NAME_HEAD_WORDS,
    NATION_DEMONYMS,
    ORG_HEAD_WORDS,
    PARTY_WORDS,
    PLACE_HEAD_WORDS,
    PORTFOLIO_WORDS,
    POSSESSIVES,
    TITLE_MODIFIERS,
    TITLE_NOUNS,
)
from kg.model import EntityKind

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

#: Speech verbs a surname alone speaks with ("Dent said", "said Dent").
SPEECH_PAST = word_list("speech-verbs-irregular")
#: Plural nouns that end a group's name, never a person's ("… Brothers", "… Girls").
GROUP_PLURALS = word_list("group-plurals")
#: Units an ordinal numbers: "21st Century" is a period, not a name.
ORDINAL_UNITS = frozenset(table("time-words")["ordinal_units"])

#: A person's initial: "G", "J.".
INITIAL = re.compile(r"[A-Z]\.?")
#: A nationality made a noun: "Frenchman", "Welshwomen".
NATIONALITY_NOUN = re.compile(r"([A-Z][a-z]{3,}?)(?:wo)?m[ae]n")

#: Parts of speech of words that open a sentence but never a name ("Since", "When", "If").
OPENER_POS = frozenset({"SCONJ", "ADP", "CCONJ", "PRON", "AUX"})

KIND_BY_LABEL = {
    "PERSON": EntityKind.PERSON,
    "ORG": EntityKind.ORGANIZATION,
    "GPE": EntityKind.PLACE,
    "LOC": EntityKind.PLACE,
    "FAC": EntityKind.PLACE,
    "EVENT": EntityKind.EVENT,
}


def fold_space(text: str) -> str:
    """White space folded to single spaces.

    >>> fold_space("Australian\\nAssociated  Press")
    'Australian Associated Press'
    """
    return " ".join(text.split())


def is_title_word(token: Token) -> bool:
    """Whether a token names a post, rank or occupation ("Minister", "Gen.", "spokesman",
    "virologist")."""
    plain = token.lower_.rstrip(".")
    return plain in TITLE_NOUNS or (
        token.is_alpha and len(plain) > len("ologist") + 1 and plain.endswith(OCCUPATION_SUFFIXES))


#: Endings of occupation nouns ("virologist", "photographer").
OCCUPATION_SUFFIXES = tuple(sorted(word_list("occupation-suffixes")))


def is_title_modifier(token: Token) -> bool:
    """Whether a token qualifies a post ("Deputy", "Foreign", "Defence")."""
    return token.lower_.rstrip(".") in TITLE_MODIFIERS


def trimmed_tokens(span: Span) -> tuple[int, int] | None:
    """Token bounds of ``span`` without leading "the", trailing possessive, punctuation or tail
    after a spaced dash; ``None`` when nothing is left."""
    start, end = span.start, span.end
    doc = span.doc
    for i in range(start, end):
        if doc[i].text in DASHES and doc[i].whitespace_ and i > start:
            end = i
            break
    while start < end and (doc[start].lower_ in LEADING_DETERMINERS or _is_junk(doc[start])):
        start += 1
    while end > start and (doc[end - 1].text in POSSESSIVES or _is_junk(doc[end - 1])):
        end -= 1
    return (start, end) if start < end else None


def _is_junk(token: Token) -> bool:
    return token.is_space or (token.is_punct and token.text not in {".", "&"}) or token.is_quote


def title_tokens_before(doc: Doc, start: int) -> int:
    """Index of the first token of the title phrase that ends right before ``start`` (a
    capitalised party word alone counts: "Tory Dominic Grieve"; so does a post "of" its
    portfolio: "Secretary of State", "Chancellor of the Exchequer")."""
    if start > 0 and doc[start - 1].lower_ in PARTY_WORDS and doc[start - 1].is_title:
        return start - 1
    of_title = of_title_start(doc, start)
    i = start if of_title is None else of_title
    seen_title = of_title is not None
    while i > 0:
        token = doc[i - 1]
        if is_title_word(token):
            seen_title = True
        elif not (seen_title and is_title_modifier(token)) and not (
            seen_title and token.text == "." and i > 1 and is_title_word(doc[i - 2])
        ) and not (seen_title and _title_hyphen(doc, i - 1)):
            break  # a "." only as part of an abbreviated title ("Gov ."), not a sentence's end
        i -= 1
    return i


def _title_hyphen(doc: Doc, i: int) -> bool:
    """Whether token ``i`` is the hyphen inside a hyphenated title ("Secretary-General",
    "Lieutenant-Colonel"): no space on either side, a title word or modifier before it."""
    return _tight_hyphen(doc, i) and (is_title_word(doc[i - 1]) or is_title_modifier(doc[i - 1]))


def _tight_hyphen(doc: Doc, i: int) -> bool:
    """Whether token ``i`` is a hyphen between two words, with no space on either side."""
    return (0 < i < len(doc) - 1 and doc[i].text == "-" and not doc[i - 1].whitespace_
            and not doc[i].whitespace_)


def strip_leading_titles(doc: Doc, start: int, end: int) -> int:
    """First token after titles that open a person's span ("Gen. Igor …" → "Igor …")."""
    while start < end - 1 and (
        is_title_word(doc[start]) or is_title_modifier(doc[start])
        or doc[start].lower_ in PARTY_WORDS and end - start > 2  # "Tory Dominic Grieve"
    ):
        start += 1
    return start


def titled_person(doc: Doc, start: int, end: int) -> int | None:
    """Where the person's name starts in a span tagged something else that ends in a title
    and two or three capitalised proper nouns ("Alaska Gov. Sarah Palin" → "Sarah Palin");
    ``None`` when it does not end so, or when its last word names an organisation or place."""
    for k in range(end - 3, max(start, end - 6) - 1, -1):
        if is_title_word(doc[k]):
            first = k + 2 if doc[k + 1].text == "." else k + 1  # "Gov ." as two tokens
            name = doc[first:end]
            if (2 <= len(name) <= 3
                    and all(t.pos_ == "PROPN" and t.text[:1].isupper() for t in name)
                    and name[-1].lower_ not in ORG_HEAD_WORDS | PLACE_HEAD_WORDS):
                return first
            return None
    return None


#: An acronym's plural ("MPs", "MSPs", "ISPs", "GCSEs", "PVRs"): members of a body or things
#: of a kind, never one named thing (CoNLL tags "ADRs" MISC at most).
ACRONYM_PLURAL = re.compile(r"[A-Z]{2,}s")
#: A company's legal form written after its name ("SpA", "AB", "Inc"): no person's name ends so.
LEGAL_FORMS = word_list("legal-forms")


def corrected_kind(kind: EntityKind, tokens: list[Token]) -> EntityKind:
    """The class implied by the name's words, where it contradicts the model: the first of
    the ``ner.class`` rules that gives one."""
    for step in steps("ner.class"):
        if (corrected := step(kind, tokens)) is not None:
            if corrected is not kind:
                fired(step.id)
            return corrected
    return kind


def _club_of_town(kind: EntityKind, tokens: list[Token]) -> EntityKind | None:
    return EntityKind.ORGANIZATION if is_club_of_town(tokens) else None


def _organisation_head(kind: EntityKind, tokens: list[Token]) -> EntityKind | None:
    if len(tokens) > 1 and tokens[-1].lower_ in ORG_HEAD_WORDS and not all(
            t.lower_ in COMPASS_WORDS for t in tokens[:-1]):  # "West Bank" is a land's part
        return EntityKind.ORGANIZATION
    return None


def _place_head(kind: EntityKind, tokens: list[Token]) -> EntityKind | None:
    if len(tokens) > 1 and tokens[-1].lower_ in PLACE_HEAD_WORDS \
            and kind is not EntityKind.ORGANIZATION:
        return EntityKind.PLACE
    return None


def _group_plural(kind: EntityKind, tokens: list[Token]) -> EntityKind | None:
    if kind is EntityKind.PERSON and len(tokens) > 1 and tokens[-1].lower_ in GROUP_PLURALS:
        return EntityKind.ORGANIZATION  # "the X Brothers", "the X Girls": a group
    return None


def _firm(kind: EntityKind, tokens: list[Token]) -> EntityKind | None:
    firm = any(t.text == "&" for t in tokens[1:-1]) or (
        len(tokens) > 1 and tokens[-1].text.rstrip(".") in LEGAL_FORMS)
    if kind is EntityKind.PERSON and firm:
        return EntityKind.ORGANIZATION  # "Edward D. Jones & Co", "Pirelli SpA": a firm
    return None


for _id, _fn, _reads, _description, _example in (
    ("club-of-town", _club_of_town, "a town's name and \"City\" or \"Town\"",
     "\"Norwich City\", \"Luton Town\" are clubs (not \"Kansas City\", a place).",
     "Fans of Leicester City protested on Saturday."),
    ("organisation-head", _organisation_head, "the name's last word",
     "A name ending in an organisation word (\"… Ministry\", \"… Regiment\") is an "
     "organisation.", "The Sri Lanka Banks Association said the waves hit its members."),
    ("place-head", _place_head, "the name's last word",
     "A name ending in a place word (\"… Sea\", \"… Republic\") is a place, unless tagged an "
     "organisation.", "Police closed Flatbush Avenue on Tuesday."),
    ("group-plural", _group_plural, "a person's last word",
     "A \"person\" ending in a group's plural (\"… Brothers\") is an organisation.",
     "The Chemical Brothers played in London."),
    ("firm", _firm, "an ampersand or a legal form in a person's name",
     "\"Edward D. Jones & Co\", \"Pirelli SpA\" are firms.",
     "Pirelli SpA said profits rose."),
):
    declare(f"ner.class.{_id}", "ner.class", fn=_fn, reads=_reads, writes="Mention.kind",
            description=_description, example=_example)


#: The last word of a club named after its town: "Norwich City", "Ipswich Town".
_CLUB_OF_TOWN = table("grammar-words")["club_town_words"]


def is_club_of_town(tokens: list[Token]) -> bool:
    """Whether a name is a town's and "City" or "Town" that is no place itself: "Norwich
    City", "Luton Town" are clubs; "Kansas City", "Cape Town" places GeoNames knows, and so are
    "residents in Edinburgh City" and "Cork City, Ireland"."""
    first, doc = tokens[0], tokens[0].doc
    after = tokens[-1].i + 1
    return (len(tokens) == 2 and tokens[1].lower_ in _CLUB_OF_TOWN and tokens[1].is_title
            and not (first.i > 0 and doc[first.i - 1].lower_ == "in")
            and not (after + 1 < len(doc) and doc[after].text == ","  # "Cork City, Ireland"
                     and is_known_place(doc[after + 1].text))
            and is_known_place(tokens[0].text)
            and not is_known_place(f"{tokens[0].text} {tokens[1].text}"))


def is_title_fragment(span: Span) -> bool:
    """Whether an entity is only part of a title, as "Defence" in "Defence Minister X" or
    "State" in "Secretary of State X"."""
    doc = span.doc
    if of_title_start(doc, span.end) is not None and all(t.lower_ in OF_TITLE_TAILS
                                                          for t in span):
        return True
    if span.end >= len(doc) or not is_title_word(doc[span.end]):
        return False
    return all(t.lower_ in PORTFOLIO_WORDS or is_title_modifier(t) for t in span)


#: What a post is "of" in a title written before a name ("Secretary of State", "Chief of
#: Staff", "Chancellor of the Exchequer", "Minister of Defence").
OF_TITLE_TAILS = PORTFOLIO_WORDS | frozenset(table("grammar-words")["of_title_tails"])


def of_title_start(doc: Doc, end: int) -> int | None:
    """Where a post "of" its portfolio starts when one ends at ``end`` before a capitalised
    name: "Secretary of State Ann Miller" → the index of "Secretary"; else ``None``."""
    i = end - 1
    if i < 2 or end >= len(doc) or not doc[end].is_title or doc[i].lower_ not in OF_TITLE_TAILS \
            or not doc[i].is_title:
        return None
    i -= 1
    if doc[i].lower_ == "the":
        i -= 1
    if i < 1 or doc[i].lower_ != "of" or not is_title_word(doc[i - 1]):
        return None
    return i - 1


def is_demonym(span: Span) -> bool:
    """Whether a one-word GPE (or any one word before a common noun) is a nationality
    adjective ("Ukrainian" officials), which names no place; the resolver reads such words as
    country qualifiers ("Russian" ministry)."""
    if len(span) == 1 and is_nationality_noun(span.text):
        return True  # "the Frenchman's time", tagged ORG
    if (len(span) == 1 and span.end < len(span.doc) and span.doc[span.end].pos_ == "NOUN"
            and span.doc[span.end].is_lower and _is_nationality(span.text)):
        return True  # "Aussie recovery", "Welsh quangos" tagged ORG: an adjective, no name
    if span.label_ != "GPE" or len(span) != 1:
        return False
    return span[0].pos_ == "ADJ" or _is_nationality(span.text)


def is_nationality_person(span: Span, surnames: frozenset[str]) -> bool:
    """Whether a one-word "person" is a nationality ("Tajik" of "a bearded elderly Tajik",
    "The Brazilian 's 79th-minute effort"): a description, which ``kg.extract.descriptions``
    reads, not a name — unless it is the surname of someone the article names in full
    ("Dawn French", then "French"). A nation's adjective counts ("whose father was Welsh")."""
    return (span.label_ == "PERSON" and len(span) == 1 and span[0].lower_ not in surnames
            and _is_nationality(span.text))


def is_nationality_noun(word: str) -> bool:
    """Whether a word names a member or the members of a nation or people: a nationality
    adjective made a noun with "man" or "woman" ("Frenchman", "Dutchmen") or plural
    ("Germans", "Azeris"), or a people's own noun ("Briton", "Chechens", ``people-nouns``).

    >>> is_nationality_noun("Frenchman"), is_nationality_noun("Chairman")
    (True, False)
    >>> [is_nationality_noun(w) for w in ("Chechens", "Germans", "Jones")]
    [True, True, False]
    """
    singular = word[:-1] if word.endswith("s") and len(word) > 3 else word
    if singular.lower() in PEOPLE_NOUNS or (singular != word and _is_nationality(singular)):
        return True
    found = NATIONALITY_NOUN.fullmatch(word)
    return found is not None and _is_nationality(found[1])


def _is_nationality(word: str) -> bool:
    return demonym_code(word) is not None or word.lower() in NATION_DEMONYMS


#: A member of a people by its own noun ("Briton", "Kurd").
PEOPLE_NOUNS = word_list("people-nouns")


#: Titles that go with a regnal numeral ("Queen Elizabeth I", "Pope Benedict XVI").
REGNAL_TITLES = word_list("regnal-titles")
#: A regnal numeral: "I" to "XXXIX".
_ROMAN = re.compile(r"X{0,3}(?:IX|IV|VI{0,3}|I{1,3})|X{1,3}")


def regnal_name(doc: Doc, start: int, end: int, person: bool) -> tuple[int, int | None] | None:
    """A monarch's or a pope's name and numeral opening ``start:end`` or ending right after it,
    as (where the name ends, where a place "of" it starts): "Henry VIII", "Queen Elizabeth I"
    (tagged "Elizabeth"), "King Abdullah II of Jordan" (tagged one organisation). After a title
    ("Queen", ``regnal-titles.txt``), one or two name words and any numeral; else one name word
    the tagger called a person or that is a given name, and a numeral of two letters or more
    ("Grade II", "Hartz IV", "World War II" are no one).
    """
    for r in range(start + 1, min(end, start + 3) + 1):
        if r >= len(doc) or not _ROMAN.fullmatch(doc[r].text):
            continue
        if r == end and r + 1 < len(doc) and doc[r + 1].text[:1].isupper():
            return None  # "Elizabeth I Think": no numeral before another name
        titled = start > 0 and doc[start - 1].lower_ in REGNAL_TITLES
        single = r - start == 1 and doc[start].is_title and doc[start].is_alpha and (
            person or doc[start].lower_ in GIVEN_NAMES) and len(doc[r].text) > 1
        if not (titled and r - start <= 2 or single):
            return None
        after = r + 1
        if after + 1 < end and doc[after].lower_ == "of":
            return after, after + 1
        return after, None
    return None


class RawMention:
    """A cleaned entity span in token terms, before conversion to ``kg.model.Mention``."""

    __slots__ = ("start", "end", "kind", "label", "titles")

    def __init__(self, start: int, end: int, kind: EntityKind, label: str, titles: tuple[str, ...]):
        self.start, self.end, self.kind, self.label, self.titles = start, end, kind, label, titles


def span_parts(span: Span) -> list[Span]:
    """The parts of an entity span between paragraph breaks, brackets and semicolons: a name
    never runs across them ("Yukos⏎⏎Russia", "J Lewsey (Wasps"); a single line break is a
    wrapped line ("International Monetary⏎Fund")."""
    parts, start = [], span.start
    for token in span:
        if token.text in NAME_BREAKS or token.is_space and token.text.count("\n") > 1:
            if start < token.i:
                parts.append(span.doc[start : token.i])
            start = token.i + 1
    if start < span.end:
        parts.append(span.doc[start : span.end])
    return parts


def is_initial(token: Token) -> bool:
    """Whether a token is a capital initial of the name after it ("G" of "G Jenkins", "J."),
    not "A" or "I" opening a sentence, and not part of another name or after a capitalised
    word ("Group B Smith")."""
    doc = token.doc
    before = doc[token.i - 1] if token.i > 0 else None
    return (INITIAL.fullmatch(token.text) is not None and token.ent_type_ == ""
            and not (token.text in {"A", "I"} and (before is None or before.is_sent_end
                                                   or before.text in {".", "\n", "\n\n"}))
            and (before is None or not before.is_title))


def is_dateline_place(doc: Doc, start: int, end: int) -> bool:
    """Whether the name ``start:end`` is a place of the dateline opening its line ("KYIV, May
    18 (Reuters) -", "SAO PAULO 1996-08-30", "LA CORUNA , Spain 1996-08-31";
    ``recovery.dateline_places``; "RUGBY UNION - RESULTS" is a heading)."""
    text, at = doc_text(doc), doc[start].idx
    span = (at, doc[end - 1].idx + len(doc[end - 1].text))
    return span in dateline_places(text, *line_around(text, at))


def is_lowercase_phrase(span: Span) -> bool:
    """Whether a name has no capital letter ("grey jeans", "midfield", "124bn" tagged as
    names): no name, unless an institution ("the defence ministry", which the resolver
    qualifies by its country) or a web address ("napster.com")."""
    text = span.text
    return (not any(ch.isupper() for ch in text) and "." not in text
            and span[-1].lower_ not in ORG_HEAD_WORDS)


def article_surnames(doc: Doc) -> frozenset[str]:
    """The last words of the people the document names in full, lowercased: tagged PERSON, or
    tagged ORG but a given name and one capitalised word ("Taylor Dent" tagged ORG)."""
    return frozenset(e[-1].lower_ for e in doc.ents if len(e) > 1
                     and (e.label_ == "PERSON" or e.label_ == "ORG" and len(e) == 2
                          and e[0].lower_ in GIVEN_NAMES and e[1].is_title)
                     and e[-1].lower_ not in NAME_HEAD_WORDS)  # "Kingfisher Airlines"


def lone_speakers(doc: Doc) -> frozenset[str]:
    """Capitalised words the document makes speak on their own, lowercased: "Dent said",
    "said Dent" — a surname written alone. A word inside a longer capitalised name ("American
    Express said") or opening a sentence does not count."""
    found = set()
    tokens = list(doc)  # each Token made once, not once per neighbour (``doc[i]`` makes one)
    for before, token, after in zip(tokens, tokens[1:-1], tokens[2:], strict=False):
        if not token.is_title or token.is_sent_start or before.is_title or after.is_title:
            continue
        if before.lower_ in SPEECH_PAST or after.lower_ in SPEECH_PAST:
            found.add(token.lower_)
    return frozenset(found)


def nationality_before_person(doc: Doc, start: int, end: int, surnames: frozenset[str]) -> bool:
    """Whether a name is a nationality glued to a person: the rest is a surname of a person
    the document names in full or makes speak alone ("said Dent"), or a given name and a
    surname ("American Dent" beside "Taylor Dent"). "American Airlines", "French Open", "Greek
    Police": the rest names no person."""
    first = doc[start]
    if not (first.is_title and (demonym_code(first.text) or first.lower_ in NATION_DEMONYMS)):
        return False
    rest = doc[start + 1 : end]
    return (len(rest) == 1 and rest[0].is_title and rest[0].lower_ in surnames
            and rest[0].lower_ not in ORG_HEAD_WORDS) or (  # "Greek Police" said …
        len(rest) == 2 and rest[0].lower_ in GIVEN_NAMES and rest[1].is_title)


def ordinal_period(doc: Doc, start: int, end: int) -> int | None:
    """Where a name that opens with a period numbered by an ordinal starts, ordinal included
    ("Century Fox" after "20th" → "20th"); ``None`` when it opens with none. A name that is
    only such a period ("21st Century") names nothing."""
    at = start + 1 if doc[start].like_num and end - start > 1 else start
    numbered = at > start or (start > 0 and doc[start - 1].like_num)
    return at - 1 if doc[at].lower_ in ORDINAL_UNITS and numbered else None


def opens_sentence(token: Token) -> bool:
    """Whether only quotes, brackets, dashes or white space stand between the token and the
    start of its sentence (or of its line; of the document where no sentence is marked)."""
    doc, i = token.doc, token.i
    while i > 0 and not doc[i].is_sent_start:
        before = doc[i - 1]
        if "\n" in before.text:
            return True
        if not (before.is_punct or before.is_quote or before.is_space):
            return False
        i -= 1
    return True


def sentence_case_words(doc: Doc) -> frozenset[str]:
    """Words the article writes in lower case and capitalises only where a sentence or line
    opens: "broadband" of "Broadband has become hugely competitive" — a common noun there,
    no name. A word capitalised inside a sentence anywhere in the article is not among them
    ("Brown" of "Mr Brown", though "brown" is written too), nor is "police", which names the
    article's force (``kg.extract.spans``), nor a word of a web address line."""
    text = doc_text(doc)
    addresses = [(b, e) for b, e in line_bounds(text) if is_url_line(text[b:e])]
    lower, inside = set(), set()
    for t in doc:
        if any(b <= t.idx < e for b, e in addresses):
            continue  # "lindsay - lohan" of a web address is no word of the article
        if t.is_alpha and t.is_lower:
            lower.add(t.text)
        elif t.is_alpha and t.is_title and not opens_sentence(t):
            inside.add(t.lower_)
    return frozenset(lower - inside - {POLICE})


class Article:
    """What the article's names say of its words, for the rules of one parsed chunk."""

    __slots__ = ("surnames", "common")

    def __init__(self, doc: Doc) -> None:
        self.surnames = article_surnames(doc) | lone_speakers(doc)
        self.common = sentence_case_words(doc)


class Draft:
    """A mention being cleaned, in token terms (``ner.mention`` steps change it in place)."""

    __slots__ = ("start", "end", "kind", "label", "titles")

    def __init__(self, start: int, end: int, kind: EntityKind, label: str) -> None:
        self.start, self.end, self.kind, self.label = start, end, kind, label
        self.titles: tuple[str, ...] = ()


#: What a ``ner.mention`` step returns to drop the mention.
DROP = "drop"


def raw_mentions(doc: Doc) -> Iterator[RawMention]:
    """Cleaned mentions of the entity classes kg keeps, in document order: the tagger's spans
    mended as a list (``ner.spans``), each dropped (``ner.drop``) or cut into its names
    (``ner.split``), and each name cleaned (``ner.mention``), as the registry orders them."""
    article = Article(doc)
    ents: list[Span] = list(doc.ents)
    for step in steps("ner.spans"):
        mended = step(doc, ents, article)
        if mended != ents:
            fired(step.id)
        ents = mended
    drops, splits = steps("ner.drop"), steps("ner.split")
    for whole in ents:
        kind = KIND_BY_LABEL.get(whole.label_)
        if kind is None or _dropped(drops, whole, article):
            continue
        for ent in span_parts(whole):
            parts = next((found for step in splits
                          if (found := step(doc, ent, kind, article)) is not None
                          and _fires(step)), None)
            if parts is None:
                parts = [(ent.start, ent.end, kind, whole.label_)]
            for start, end, part_kind, label in parts:
                yield from _raw_mention(doc, doc[start:end], part_kind, label, article)


def _dropped(drops: tuple[Heuristic, ...], span: Span, article: Article) -> bool:
    return any(step(span, article) and _fires(step) for step in drops)


def _fires(step: Heuristic) -> bool:
    fired(step.id)
    return True


def _raw_mention(doc: Doc, ent: Span, kind: EntityKind, label: str,
                 article: Article | None = None) -> Iterator[RawMention]:
    """One cleaned mention from one part of an entity span (whose NER label is ``label``:
    a part cut out of the span carries none), if anything is left."""
    draft = Draft(ent.start, ent.end, kind, label)
    for step in steps("ner.mention"):
        done = step(doc, draft, article)
        if done:
            fired(step.id)
        if done == DROP:
            return
    yield RawMention(draft.start, draft.end, draft.kind, draft.label, draft.titles)


# -- ner.spans: the tagger's spans mended as a list --------------------------------------------

_SPANS = "the entity spans"
declare("ner.spans.expansions", "ner.spans", fn=lambda doc, ents, a: expansions_joined(doc, ents),
        reads="an acronym and its expansion in brackets", writes=_SPANS,
        description="An acronym's bracketed expansion is one name (\"Asimo (Advanced Step in "
                    "Innovative Mobility)\").",
        example="Honda showed Asimo (Advanced Step in Innovative Mobility) in Tokyo.")
declare("ner.spans.particles", "ner.spans", fn=lambda doc, ents, a: particle_joined(doc, ents),
        reads="a lowercase surname particle between names", writes=_SPANS,
        description="A surname particle joins a name: \"Ursula von der Leyen\".",
        example="Director Sandra den Hamer opened the festival on Wednesday.")
declare("ner.spans.force-descriptions", "ner.spans",
        fn=lambda doc, ents, a: with_force_descriptions(doc, ents),
        reads="\"police\" where the article names one force", writes=_SPANS,
        description="Bare \"police\" is a mention of the one police force the article names.",
        example="The Tarnow Police Department said police had arrested two men.")


# -- ner.drop: spans that are no name ------------------------------------------------------

declare("ner.drop.title-fragment", "ner.drop", fn=lambda span, a: is_title_fragment(span),
        reads="a span before a post word", writes="drops the span",
        description="Part of a title is no name: \"Defence\" of \"Defence Minister X\".",
        example="said Home Secretary Charles Clarke on Monday.")
declare("ner.drop.demonym", "ner.drop", fn=lambda span, a: is_demonym(span),
        reads="a one-word span", writes="drops the span",
        description="A nationality adjective or noun names no place: \"Ukrainian officials\", "
                    "\"the Frenchman\".",
        example="Ukrainian officials said the Frenchman was safe.")
declare("ner.drop.nationality-person", "ner.drop",
        fn=lambda span, a: is_nationality_person(span, a.surnames),
        reads="a one-word PERSON span and the article's surnames", writes="drops the span",
        description="A one-word \"person\" that is a nationality is a description, not a "
                    "name, unless it is the surname of someone named in full.",
        example="A bearded elderly Tajik was arrested.")


# -- ner.split: a span that glues several names ------------------------------------------------

def _regnal_parts(doc: Doc, ent: Span, kind: EntityKind, article: Article
                  ) -> list[tuple[int, int, EntityKind, str]] | None:
    regnal = regnal_name(doc, ent.start, ent.end, kind is EntityKind.PERSON)
    if regnal is None:
        return None
    name_end, place = regnal
    parts = [(ent.start, name_end, EntityKind.PERSON, "")]
    return parts + ([(place, ent.end, EntityKind.PLACE, "")] if place is not None else [])


def _common_opener_parts(doc: Doc, ent: Span, kind: EntityKind, article: Article
                         ) -> list[tuple[int, int, EntityKind, str]] | None:
    if len(ent) == 1 and ent[0].lower_ in article.common and ent[0].is_title \
            and opens_sentence(ent[0]):
        return []
    return None


declare("ner.split.regnal-name", "ner.split", fn=_regnal_parts,
        reads="a name and a Roman numeral", writes="a person (and the place \"of\" them)",
        description="A monarch's or pope's name and numeral is a person: \"King Abdullah II "
                    "of Jordan\" is a person and a place.",
        example="King Abdullah II of Jordan arrived in Paris.")
declare("ner.split.common-opener", "ner.split", fn=_common_opener_parts,
        reads="a one-word name opening a sentence", writes="drops it",
        description="A word the article writes in lower case and capitalises only where a "
                    "sentence opens is no name there.",
        example="Executives of telecoms firms met. Telecoms is one of two areas named in "
                "the report.")


# -- ner.mention: one name's bounds and class --------------------------------------------------

def _trim(doc: Doc, d: Draft, article: Article | None) -> object:
    bounds = trimmed_tokens(doc[d.start : d.end])
    if bounds is None:
        return DROP
    changed = bounds != (d.start, d.end)
    d.start, d.end = bounds
    return changed


def _opener_word(doc: Doc, d: Draft, article: Article | None) -> object:
    start = d.start
    while d.start < d.end - 1 and doc[d.start].pos_ in OPENER_POS and not doc[d.start].is_upper:
        d.start += 1  # "Since Comeaux": a capitalised sentence opener glued to the name
    return d.start != start


def _nationality_before(doc: Doc, d: Draft, article: Article | None) -> object:
    surnames = article.surnames if article is not None else frozenset()
    if nationality_before_person(doc, d.start, d.end, surnames):
        d.start, d.kind = d.start + 1, EntityKind.PERSON  # "American Dent": Taylor Dent
        return True
    return False


def _ordinal(doc: Doc, d: Draft, article: Article | None) -> object:
    if (numbered := ordinal_period(doc, d.start, d.end)) is None:
        return False
    if d.end == numbered + 2:
        return DROP  # "21st Century": a period
    d.start = numbered  # "Twentieth Century Fox": a studio, not a person called Fox
    d.kind = EntityKind.ORGANIZATION if d.kind is EntityKind.PERSON else d.kind
    return True


def _titled(doc: Doc, d: Draft, article: Article | None) -> object:
    if d.kind is not EntityKind.PERSON and (person := titled_person(doc, d.start, d.end)):
        d.start, d.kind = person, EntityKind.PERSON  # "Alaska Gov. Sarah Palin" tagged ORG
        return True
    return False


def _titles(doc: Doc, d: Draft, article: Article | None) -> object:
    if d.kind is not EntityKind.PERSON:
        return False
    inner = strip_leading_titles(doc, d.start, d.end)
    first = title_tokens_before(doc, d.start)
    phrase = doc[first:inner].text if first < inner else ""
    d.titles = (fold_space(phrase),) if phrase else ()
    changed = inner != d.start or bool(phrase)
    d.start = inner
    return changed


def _initial(doc: Doc, d: Draft, article: Article | None) -> object:
    if (d.kind is EntityKind.PERSON and d.end - d.start == 1 and d.start > 0
            and is_initial(doc[d.start - 1])):
        d.start -= 1  # "G Jenkins" in a team sheet: the surname alone reads as a town
        return True
    return False


def _class_by_words(doc: Doc, d: Draft, article: Article | None) -> object:
    kind = corrected_kind(d.kind, list(doc[d.start : d.end]))
    changed, d.kind = kind is not d.kind, kind
    return changed


def _dateline_place(doc: Doc, d: Draft, article: Article | None) -> object:
    if d.kind is not EntityKind.PLACE and is_dateline_place(doc, d.start, d.end):
        d.kind = EntityKind.PLACE  # "KYIV, May 18 (Reuters) -" tagged an organisation, "SAO
        return True  # PAULO 1996-08-30" a person
    return False


def _lowercase(doc: Doc, d: Draft, article: Article | None) -> object:
    return DROP if is_lowercase_phrase(doc[d.start : d.end]) else False


def _not_a_name(doc: Doc, d: Draft, article: Article | None) -> object:
    text = doc[d.start : d.end].text
    if not any(ch.isalnum() for ch in text):
        return DROP
    return DROP if text in word_list("not-names") or ACRONYM_PLURAL.fullmatch(text) else False


_CLEANED = "a mention's bounds"
for _id, _step, _reads, _writes, _description, _example in (
    ("trim", _trim, "the span's edge tokens", _CLEANED,
     "A leading \"the\", a trailing possessive, punctuation and what follows a spaced dash "
     "are cut from the name.",
     "Exports grew in Spain and the United Kingdom - its main markets - in 2004."),
    ("opener-word", _opener_word, "a function word opening the span", _CLEANED,
     "A function word (a conjunction, preposition, pronoun or auxiliary, not in capitals) "
     "opening a name is cut: \"Since Comeaux\"; so is one opening a title (\"My City Was "
     "Gone\" → \"City\").",
     "The band played My City Was Gone."),
    ("nationality-before-person", _nationality_before,
     "a nationality word before a surname of the article", "bounds and class",
     "A nationality glued to a person is cut off: \"American Dent\" beside \"Taylor Dent\".",
     "Frenchman Sebastien Grosjean lost. Briton Tim Henman won. British Henman served 20 aces."),
    ("ordinal-period", _ordinal, "an ordinal before a period word", "bounds and class",
     "\"21st Century\" is a period, no name; \"Twentieth Century Fox\" is a studio.",
     "Twentieth Century Fox released the film."),
    ("titled-person", _titled, "a post and two or three proper nouns ending a span",
     "bounds and class", "\"Alaska Gov. Sarah Palin\" tagged ORG is the person Sarah Palin.",
     "Archbishop of Canterbury Dr Rowan Williams urged restraint on Sunday."),
    ("titles", _titles, "post words before a person's name", "Mention.titles and bounds",
     "A person's posts before the name (\"Defence Minister\", \"Maj. Gen.\") are cut from "
     "it and kept as titles.", "Defence Minister Sergei Shoigu visited the front."),
    ("initial", _initial, "an initial before a one-word person", _CLEANED,
     "An initial before a surname is kept: \"G Jenkins\".",
     "Wales: G Thomas; R Williams, G Jenkins, M Davies."),
    ("class-by-words", _class_by_words, "the name's words", "Mention.kind",
     "The class the name's words imply where they contradict the tagger (``ner.class``).",
     "Loans from the Inter-American Development Bank (IADB) fell in 2004."),
    ("dateline-place", _dateline_place, "the name opening a dateline", "Mention.kind",
     "The place of a dateline is a place, whatever the tagger said.",
     "SAO PAULO 1996-08-30\nBrazil's central bank cut rates."),
    ("lowercase-phrase", _lowercase, "a name with no capital", "drops it",
     "A lower-case phrase is no name (\"grey jeans\"), unless an institution or a web "
     "address.", "Security firm 3ami built the system."),
    ("not-names", _not_a_name, "the name's text", "drops it",
     "Common-noun acronyms, \"I\" and words of ``not-names.txt`` are no names; nor is an "
     "acronym's plural (\"MPs\").", "Demand for the IPO was strong, bankers said."),
):
    declare(f"ner.mention.{_id}", "ner.mention", fn=_step, reads=_reads, writes=_writes,
            description=_description, example=_example)
