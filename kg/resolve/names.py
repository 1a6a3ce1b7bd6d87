"""Names as the resolver compares them: normal forms, tokens, acronyms and near-spellings.

Pure string functions over general English; no corpus facts, nothing loaded.

>>> comparison_tokens("the Russian Defence Ministry's")
('russian', 'defence', 'ministry')
>>> initials(comparison_tokens("International Committee of the Red Cross"))
'icrc'
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from kg.lexicon import word_list
from kg.lexicon.words import (
    ACRONYM_SKIP,
    FEMALE_TITLES,
    MALE_TITLES,
    NAME_SUFFIXES,
    ORG_HEAD_WORDS,
    PORTFOLIO_WORDS,
    RANK_TITLES,
    SPELLINGS,
    TITLE_MODIFIERS,
)
from kg.lexicon.words import FACILITY_TAILS as LEXICON_FACILITY_TAILS

_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'"})

#: Spelling variants of words common in institution names, folded one way (American →
#: British, ``kg/lexicon/data/spellings.toml``), so that "Defence Ministry" and "Defense
#: Ministry" compare equal. Proper names that differ by country ("Labour" in Britain, "Labor"
#: in Australia) are deliberately absent.
SPELLING = SPELLINGS


#: Tails naming what kind of works a proper name is ("Azovstal steel plant"); the name before
#: them identifies the site. Longest first.
FACILITY_TAILS = LEXICON_FACILITY_TAILS

#: Words that on their own name no particular institution: "the defence ministry", "the army".
#: A name made only of these needs its country ("Russia's", "Russian") to be identified.
GENERIC_ORG_WORDS = (
    ORG_HEAD_WORDS | PORTFOLIO_WORDS | TITLE_MODIFIERS | word_list("generic-organisation-words")
)


#: Shortest name token that may gain or lose a letter and still be the same name (one letter
#: less when a letter is only changed).
MIN_VARIANT_LENGTH = 8


#: Legal and company words a body adds to its short name ("Amnesty International", "Labour
#: Party", "Samsung Electronics"); divisions and products ("Office", "Pictures", "Studios",
#: "Music", "News") are not among them: "Microsoft Office" is not Microsoft.
ORG_SUFFIX_WORDS = word_list("organisation-suffixes")


@lru_cache(maxsize=1 << 16)
def normalise_name(name: str) -> str:
    """The form names are grouped in: case-folded, apostrophes unified, white space folded,
    a leading "the" dropped.

    >>> normalise_name("the  Kremlin’s")
    "kremlin's"
    """
    folded = " ".join(name.translate(_APOSTROPHES).casefold().split())
    return re.sub(r"^the\s+", "", folded)


def _fold_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=1 << 16)
def comparison_tokens(name: str) -> tuple[str, ...]:
    """Word tokens of a name for comparison: normalised, accents folded, possessives and dots
    dropped ("U.S." → "us"), British spellings made American.

    >>> comparison_tokens("Zürich’s U.N. Centre")
    ('zurich', 'un', 'centre')
    >>> comparison_tokens("World Health Organisation")
    ('world', 'health', 'organization')
    """
    folded = _fold_accents(normalise_name(name))
    folded = re.sub(r"'s\b|'$", "", folded).replace(".", "").replace("'", "")
    return tuple(_american(t) for t in re.findall(r"\w+", folded))


def _american(token: str) -> str:
    # "organisation" → "organization", "privatisation" → "privatization"
    return SPELLING.get(token) or re.sub(r"isation(s?)$", r"ization\1", token)


@lru_cache(maxsize=1 << 16)
def acronym_letters(name: str) -> str | None:
    """The letters of an acronym ("ICRC", "U.S.", "the UN") in lower case, else ``None``.

    >>> acronym_letters("U.S."), acronym_letters("ICRC"), acronym_letters("Kyiv")
    ('us', 'icrc', None)
    """
    bare = re.sub(r"^the\s+", "", name.strip(), flags=re.IGNORECASE).replace(".", "")
    if 2 <= len(bare) <= 6 and bare.isalpha() and bare.isupper():
        return bare.lower()
    return None


def initials(tokens: tuple[str, ...]) -> str:
    """First letters of the tokens that an acronym spells ("of", "the", … skipped)."""
    return "".join(t[0] for t in tokens if t not in ACRONYM_SKIP)


def facility_core(tokens: tuple[str, ...]) -> tuple[str, ...] | None:
    """The proper name before a works tail ("azovstal steel plant" → "azovstal"), else
    ``None``.

    >>> facility_core(("azovstal", "steel", "works")), facility_core(("azovstal",))
    (('azovstal',), None)
    """
    for tail in FACILITY_TAILS:
        if len(tokens) > len(tail) and tokens[-len(tail) :] == tail:
            return tokens[: -len(tail)]
    return None


def is_generic(tokens: tuple[str, ...]) -> bool:
    """Whether a name is made only of institution words ("defence ministry", "army").

    >>> is_generic(("defence", "ministry")), is_generic(("red", "cross"))
    (True, False)
    """
    return bool(tokens) and all(t in GENERIC_ORG_WORDS for t in tokens)


def phonetic_key(token: str) -> str:
    """A rough sound key for blocking near-spellings: first letter, then the consonants
    without h/w/y, doubled letters collapsed.

    >>> phonetic_key("zelenskiy") == phonetic_key("zelensky") == phonetic_key("zelenskyy")
    True
    """
    if not token:
        return ""
    tail = re.sub(r"[aeiouyhw]", "", token[1:])
    return token[0] + re.sub(r"(.)\1+", r"\1", tail)


def edit_distance(a: str, b: str, limit: int = 2) -> int:
    """Levenshtein distance, cut off at ``limit + 1`` (enough to say "too far").

    >>> edit_distance("zelenskiy", "zelensky"), edit_distance("donetsk", "donbas")
    (1, 3)
    """
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return min(previous[-1], limit + 1)


def near_spelling(a: str, b: str) -> bool:
    """Whether two name tokens are transliteration variants: equal, or the same first letter
    and sound key and one letter changed (both ≥ 7 letters: "Gaddafi"/"Gadhafi"), one letter
    more or less (both ≥ 8: "Zelensky"/"Zelenskiy") or two edits (both ≥ 10). Shorter
    tokens must match exactly: "Kelly" and "Kelley", "Sanders" and "Saunders" are often two
    people, while long foreign names are the ones transliterated several ways.

    >>> near_spelling("zelenskiy", "zelensky"), near_spelling("gaddafi", "gadhafi")
    (True, True)
    >>> near_spelling("sanders", "saunders"), near_spelling("donetsk", "donbas")
    (False, False)
    """
    if a == b:
        return True
    shortest = min(len(a), len(b))
    needed = MIN_VARIANT_LENGTH - 1 if len(a) == len(b) else MIN_VARIANT_LENGTH
    if shortest < needed or a[0] != b[0] or phonetic_key(a) != phonetic_key(b):
        return False
    return edit_distance(a, b) <= (2 if shortest >= MIN_VARIANT_LENGTH + 2 else 1)


def fixing_titles(phrases: tuple[str, ...] | list[str]) -> frozenset[str]:
    """The gender and rank titles among title phrases ("Tory peer Lord", "Mrs").

    >>> sorted(fixing_titles(("Labour peer Baroness", "Mrs.")))
    ['baroness', 'mrs']
    """
    words = (w.lower().rstrip(".") for phrase in phrases for w in phrase.split())
    return frozenset(w for w in words if w in FEMALE_TITLES | MALE_TITLES)


def title_class(titles: frozenset[str]) -> str | None:
    """The one word a titled surname is keyed by: its rank, else "female"; ``None`` for an
    untitled name or a plain "Mr" (which fixes nothing a full name would contradict).

    >>> title_class(frozenset({"baroness"})), title_class(frozenset({"mrs"}))
    ('baroness', 'female')
    >>> title_class(frozenset({"mr"})) is None
    True
    """
    ranks = sorted(titles & RANK_TITLES)
    if ranks:
        return ranks[0]
    return "female" if titles & FEMALE_TITLES else None


def titles_agree(surname_titles: frozenset[str], full_name_titles: frozenset[str],
                 same_article: bool = False) -> bool:
    """Whether a titled surname may be the surname of a full name carrying ``full_name_titles``:
    a rank must be the full name's too, a woman's title needs a woman's title on the full name
    (kg keeps no list of given names, so an untitled "Michael Howard" is no "Mrs Howard") —
    within one article it only must not carry a man's title — and a man's title never joins
    a woman's.

    >>> titles_agree(frozenset({"mrs"}), frozenset()), titles_agree(frozenset({"mr"}), frozenset())
    (False, True)
    >>> titles_agree(frozenset({"lord"}), frozenset({"lord"}))
    True
    >>> titles_agree(frozenset({"mr"}), frozenset({"ms"}))
    False
    """
    if (surname_titles & RANK_TITLES) - full_name_titles:
        return False
    if surname_titles & FEMALE_TITLES:
        # In one article "Rhona Brankin … Ms Brankin" is the news style for one woman (the
        # caller keeps "Mrs Howard" apart when the article also has a "Mr Howard"); across
        # articles the full name must carry a woman's title too.
        agreeing = same_article or bool(full_name_titles & FEMALE_TITLES)
        return agreeing and not full_name_titles & MALE_TITLES
    if surname_titles & MALE_TITLES:
        return not full_name_titles & FEMALE_TITLES
    return True


def without_suffix(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """A person's name tokens without a trailing "Jr", "Sr", "III" …

    >>> without_suffix(("arcade", "joseph", "comeaux", "jr")), without_suffix(("jr",))
    (('arcade', 'joseph', 'comeaux'), ('jr',))
    """
    while len(tokens) > 1 and tokens[-1] in NAME_SUFFIXES:
        tokens = tokens[:-1]
    return tokens


def is_partial_name(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    """Whether a person's shorter name is part of a longer one: inside it ("maurice cheeks"
    in a headline's "hire maurice cheeks"), or its first and last words at the long one's
    ends with the rest in order between ("mark heller" of "mark jay heller").

    >>> is_partial_name(("mark", "heller"), ("mark", "jay", "heller"))
    True
    >>> is_partial_name(("ed", "miliband"), ("david", "miliband"))
    False
    """
    size = len(short)
    if size >= len(long):
        return False
    if any(long[k : k + size] == short for k in range(len(long) - size + 1)):
        return True
    if short[0] != long[0] or short[-1] != long[-1]:
        return False
    rest = iter(long[1:-1])
    return all(word in rest for word in short[1:-1])
