"""Dates and numbers: spaCy's DATE and number entities, normalised.

Dates go to dateparser one expression at a time (never whole sentences), with the article's
publication date as the reference for relative expressions ("on Wednesday", "last month").
Without a publication date only expressions that carry their own year are normalised; the rest
stay as text with ``value=None``. Durations ("nearly two months", "the past day") are not dates.

>>> parse_number("1,730")
1730.0
>>> parse_number("five million")
5000000.0
>>> parse_number("a dozen"), parse_number("three dozen"), parse_number("dozen")
(12.0, 36.0, 12.0)
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from kg.lexicon.words import (
    CALENDAR_WORDS,
    COMPARATIVES,
    CURRENCY_CODES,
    CURRENCY_SYMBOLS,
    CURRENCY_WORDS,
    DURATION_COUNTS,
    FRACTIONS,
    MONTH_ABBREVIATIONS,
    NUMBER_QUALIFIERS,
    NUMBER_SCALES,
    NUMBER_UNITS,
    PERCENTAGE_POINTS,
    RANGE_WORDS,
    RELATIVE_TIME_WORDS,
    TIME_UNITS,
)

if TYPE_CHECKING:
    from spacy.tokens import Span

DATE_LABELS = frozenset({"DATE"})


def is_dated_time(text: str) -> bool:
    """Whether a TIME expression names its day ("Friday night", "Monday morning"): a date too.

    >>> is_dated_time("Friday night"), is_dated_time("10pm")
    (True, False)
    """
    words = text.lower().split()
    return bool(words) and words[0] in CALENDAR_WORDS
NUMBER_LABELS = frozenset({"CARDINAL", "QUANTITY", "MONEY", "PERCENT"})

_UNITS = NUMBER_UNITS
_SCALES = NUMBER_SCALES
_FRACTIONS = FRACTIONS
_NUMBER = re.compile(r"^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$")
_SUFFIXES = "|".join(sorted((w for w in _SCALES if len(w) <= 2), key=lambda w: (-len(w), w)))
_NUMERIC_WITH_SCALE = re.compile(rf"^(\d+(?:\.\d+)?)({_SUFFIXES})$", re.I)
_DURATION = re.compile(
    rf"\b(\d+|{'|'.join(DURATION_COUNTS)})\s+({'|'.join(u + 's?' for u in TIME_UNITS)})\b", re.I
)
_RELATIVE_POINT = re.compile(rf"\s*(the\s+)?({'|'.join(RELATIVE_TIME_WORDS)})\s+\w+\s*", re.I)
_PLURAL_UNIT = re.compile(rf"\b({'|'.join(u + 's' for u in TIME_UNITS)})\b", re.I)
_HAS_YEAR = re.compile(r"\b(1[6-9]|20)\d\d\b")
#: Words that place an expression on the calendar ("last week", "on Monday", "in 2003").
_POINT_WORDS = re.compile(
    rf"\b({'|'.join(sorted(CALENDAR_WORDS | set(TIME_UNITS)))}|weekend|yesterday|today|tomorrow"
    rf"|tonight|morning|afternoon|evening|night|spring|summer|autumn|winter|ago"
    rf"|{'|'.join(sorted(MONTH_ABBREVIATIONS))})\b", re.I)
_YEAR_OR_DECADE = re.compile(r"\b(1[6-9]|20)\d\d(s|'s)?\b")
_UNIT_MODIFIER = re.compile(rf"\d+-({'|'.join(TIME_UNITS)})\b", re.I)  # "18-month"
#: A length written as a modifier: "five-month", "a two-year", "10-year", "18-month-old".
_LENGTH_MODIFIER = re.compile(
    rf"\b(\d+|{'|'.join(DURATION_COUNTS)})\s*-\s*({'|'.join(TIME_UNITS)})s?\b", re.I
)
_CURRENCY = CURRENCY_SYMBOLS
_SYMBOLS = "".join(sorted({ch for symbol in _CURRENCY for ch in symbol if not ch.isalpha()}))
_RANGE = re.compile(
    rf"(\d[\d,]*(?:\.\d+)?)\s*%?\s*(?:-|–|—|to|and)\s*[{re.escape(_SYMBOLS)}]?"
    rf"(\d[\d,]*(?:\.\d+)?)(?:\s*({_SUFFIXES})\b)?",
    re.I,
)


def parse_number(text: str) -> float | None:
    """The value of a number written in digits and/or words; ``None`` when there is none.

    >>> parse_number("$1.13bn")
    1130000000.0
    """
    if (bounds := number_range(text)) is not None:
        return bounds[0]
    marks = _SYMBOLS + "%"
    words = [w for w in re.split(r"[\s-]+", text.lower().strip(marks)) if w and w != "and"]
    total, current, seen = 0.0, 0.0, False
    for i, word in enumerate(words):
        word = word.strip(_SYMBOLS + ",").removeprefix("us").strip(_SYMBOLS)
        scaled = i + 1 < len(words) and (words[i + 1] in _SCALES or words[i + 1] == "dozen")
        if word == "dozen" and (current or seen):
            current = (current or 1) * _UNITS[word]  # "a dozen", "three dozen": times twelve
        elif (m := _NUMBER.match(word)) is not None:
            current += float(m.group(1).replace(",", "") + ("." + m.group(2) if m.group(2) else ""))
        elif (m := _NUMERIC_WITH_SCALE.match(word)) is not None:
            current += float(m.group(1)) * _SCALES[m.group(2).lower()]
        elif word in _UNITS and (_UNITS[word] != 1 or word == "one" or scaled):
            current += _UNITS[word]  # "a"/"an" count only before a scale: "a million"
        elif word in _SCALES and len(word) > 2:
            current = (current or 1) * _SCALES[word]
            if _SCALES[word] >= 1000:
                total, current = total + current, 0.0
        elif word in _FRACTIONS:
            return _FRACTIONS[word] * (current or 1)
        else:
            continue
        seen = True
    return total + current if seen else None


def number_range(text: str) -> tuple[float, float] | None:
    """The bounds of a range written with digits ("8-9%", "2,000 to 3,000", "between 5% and
    7%", "$2-3bn"), else ``None``.

    >>> number_range("8-9%"), number_range("$2-3bn"), number_range("1,730")
    ((8.0, 9.0), (2000000000.0, 3000000000.0), None)
    """
    match = _RANGE.search(text)
    if match is None:
        return None
    scale = _SCALES[match.group(3).lower()] if match.group(3) else 1.0
    low, high = (float(g.replace(",", "")) * scale for g in match.group(1, 2))
    return (low, high) if low < high else None


def range_partner(span: Span) -> int:
    """+1 when another number follows to make a range with this one ("2,000 to 3,000"), -1
    when one came before it, 0 otherwise."""
    doc = span.doc
    after = doc[span.end : span.end + 2]
    if len(after) == 2 and after[0].lower_ in RANGE_WORDS and after[1].like_num:
        return 1
    before = doc[max(0, span.start - 2) : span.start]
    if len(before) == 2 and before[1].lower_ in RANGE_WORDS and before[0].like_num:
        return -1
    return 0


def scale_after(span: Span) -> float:
    """The multiplier written right after a number entity: "$17.7" + "m" → 1e6, else 1."""
    after = span.doc[span.end] if span.end < len(span.doc) else None
    if after is None or span[-1].whitespace_ or not span[-1].like_num:
        return 1.0
    word = after.lower_
    if word.endswith(".") and after.i == after.sent.end - 1:
        word = word[:-1]  # "valued at £800m.": the full stop went into the word
    return _SCALES[word] if word in _SCALES and len(word) <= 2 else 1.0


def is_compound_modifier(span: Span) -> bool:
    """Whether the number only forms a modifier: "a two-horse race", "a 25-yard strike",
    "a 17-year-old striker" count nothing."""
    doc = span.doc
    end = span.end
    if end + 1 >= len(doc) or span[-1].whitespace_ or doc[end].text != "-":
        return False
    word = doc[end + 1]
    return word.pos_ in {"NOUN", "ADJ"} and word.dep_ in {"compound", "amod", "npadvmod"} or (
        word.i + 1 < len(doc) and doc[word.i + 1].text == "-"
    )


def number_qualifier(span: Span) -> str | None:
    """The approximation or bound around a number ("nearly 1,000" → "approximately")."""
    doc = span.doc
    window = [t.lower_ for t in doc[max(0, span.start - 2) : span.start]] + [
        t.lower_ for t in span[:2]
    ]
    for i, word in enumerate(window):
        qualifier = NUMBER_QUALIFIERS.get(word)
        if word in COMPARATIVES and "than" in window[i + 1 : i + 2]:
            return COMPARATIVES[word]
        if word == "at" and i + 1 < len(window) and window[i + 1] in {"least", "most"}:
            return "at least" if window[i + 1] == "least" else "at most"
        if qualifier and qualifier not in {"comparative", "at most", "at least"}:
            return qualifier
    return None


def number_unit(span: Span) -> str | None:
    """What is counted: the currency, "percent", "percentage points", or the lemma of the noun
    the number modifies."""
    doc = span.doc
    before = doc[span.start - 1].text if span.start > 0 else ""
    text = span.text  # once: ``Span.text`` joins the tokens again on every call
    for symbol, code in _CURRENCY.items():  # longest first: "A$" before "$"
        if symbol in text or before.endswith(symbol):
            return code
    words = [t for t in doc[span.end : span.end + 3] if t.lower_ not in _SCALES]
    for token in [*words[:1], *(doc[span.start - 1 : span.start] if span.start else [])]:
        if token.text in CURRENCY_CODES:
            return token.text
    for word in [*words[:1], span[-1]]:  # "12 trillion yen" is one entity or two
        if (named := CURRENCY_WORDS.get(word.lemma_.lower())) is not None:
            return named
    around = [t.lower_ for t in [*span, *words[:2]]]
    pairs = zip(around, around[1:], strict=False)
    if any(w == "percentage" and n in PERCENTAGE_POINTS for w, n in pairs):
        return "percentage points"
    if span.label_ == "PERCENT" or "%" in text:
        return "percent"
    after = words[0] if words else None
    root = span.root
    if root.dep_ == "nummod" and root.head.pos_ in {"NOUN", "PROPN"} \
            and root.head.lower_.rstrip(".") not in _SCALES:  # "7m viewers": viewers
        return root.head.lemma_.lower()
    if after is not None and after.lower_ == "of" and after.i + 1 < len(span.doc):
        return None
    if after is not None and after.pos_ == "NOUN":
        return after.lemma_.lower()
    return None


def is_duration(text: str) -> bool:
    """Whether a DATE expression is a length of time rather than a point in time.

    >>> is_duration("nearly two months"), is_duration("last month")
    (True, False)
    """
    return bool(_DURATION.search(text)) and not re.search(r"\bago\b", text, re.I) and not (
        _RELATIVE_POINT.fullmatch(text)
        and not _PLURAL_UNIT.search(text)
        and not re.search(r"\bpast\s+(day|hour)\b", text, re.I)
    )


def is_length(text: str) -> bool:
    """Whether a DATE expression is a length written as a modifier ("a five-month deal", "a
    10-year contract"): how long something lasts, never when it happened.

    >>> [is_length(t) for t in ("five-month", "a two-year", "10-year", "March 2004", "May")]
    [True, True, True, False, False]
    """
    return bool(_LENGTH_MODIFIER.search(text))


def is_time_point(text: str) -> bool:
    """Whether a DATE expression the date parser could not pin names a point in time a reader
    can place ("last week", "Monday night", "the 1990s"), not a length of time or an age.

    >>> [is_time_point(t) for t in ("last week", "two years", "the age of 85", "18-month",
    ...                             "the past day")]
    [True, False, False, False, True]
    """
    if re.search(r"\b(past|last)\s+(day|hour|week)\b", text, re.I):
        return True  # "in the past day": a span up to the report, kept as text
    if is_duration(text) or _UNIT_MODIFIER.search(text):
        return False
    return bool(_YEAR_OR_DECADE.search(text) or _POINT_WORDS.search(text))


@lru_cache(maxsize=8)
def _parser(reference: date | None) -> Any:
    from dateparser.date import DateDataParser

    settings: dict[str, Any] = {"PREFER_DATES_FROM": "current_period"}
    if reference is not None:
        settings["RELATIVE_BASE"] = datetime(reference.year, reference.month, reference.day)
    return DateDataParser(languages=["en"], settings=settings)


@lru_cache(maxsize=4096)  # dateparser takes ~1 ms; 741 calls per 100 BBC articles, 304 distinct
def normalise_date(text: str, reference: date | None) -> tuple[date | None, str | None]:
    """A DATE expression as (date, granularity), or ``(None, None)`` if it cannot be pinned.

    >>> normalise_date("Feb. 24", date(2022, 5, 19))
    (datetime.date(2022, 2, 24), 'day')
    """
    expression = re.sub(r"^(on|in|since|until|by|from|the|of)\s+", "", text.strip(), flags=re.I)
    if not expression or is_duration(expression):
        return None, None
    if reference is None and not _HAS_YEAR.search(expression):
        return None, None
    try:
        data = _parser(reference).get_date_data(expression)
    except (OverflowError, ValueError):  # e.g. "last year" seen from 0001-01-01: no year 0
        return None, None
    if data.date_obj is None or data.period not in {"day", "month", "year"}:
        return None, None
    value = data.date_obj.date()
    if reference is not None and not _HAS_YEAR.search(expression):
        if value - reference > timedelta(days=31) and value.year > 1:  # news reports the past
            value = value.replace(year=value.year - 1)
    if data.period == "year":
        value = date(value.year, 1, 1)
    elif data.period == "month":
        value = date(value.year, value.month, 1)
    return value, data.period
