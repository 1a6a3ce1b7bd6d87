"""What the words around a mention say about it, read from the article text.

The NER span is often only part of a name: "Russia's [defence ministry]", "the Russian
[Defense Ministry]", "[Azov] regiment", "[Azovstal] steel works", "[Rubizhne], a Donbas town".
These cues are read from ``Document.text`` around the mention's offsets, so the extractor's
``Mention`` stays as it is.

>>> text = "Russia's defence ministry said so."
>>> mention_cues(text, 9, 25).qualifier
'RU'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kg.extract.recovery import is_dateline
from kg.lexicon import word_list
from kg.lexicon.countries import demonym_code
from kg.lexicon.fact_words import OCCUPATIONS
from kg.lexicon.words import PLACE_NOUNS
from kg.model import EntityKind
from kg.resolve.geo import country_code_of
from kg.resolve.names import FACILITY_TAILS
from kg.resolve.sheets import in_team_sheet
from kg.resolve.things import speaks

#: Words after a name that make it a unit or party ("Azov regiment", "Labour party").
UNIT_HEADS = word_list("unit-heads")
#: Words after a name that make it a place ("Donbas region", "Mariupol city council").
PLACE_HEADS = PLACE_NOUNS
#: Words before a name that put it in space ("in Mariupol", "towards Kyiv").
LOCATIVES = word_list("place-prepositions")
#: Nouns that make the following "of X" a place ("the city of Mariupol").
PLACE_OF = PLACE_NOUNS

#: Tails that are also verbs: a works word only after "the" ("the Azovstal plant").
VERB_LIKE_TAILS = word_list("verb-like-tails")
_DETERMINED = re.compile(r"\bthe\s+(?:[a-z-]+\s+)?$", re.IGNORECASE)
_FACILITY = "|".join(r"\s+".join(tail) for tail in FACILITY_TAILS)
_AFTER_HEAD = re.compile(rf"^\s*\(?\s*(?P<head>{_FACILITY}|[a-z]+)\b", re.IGNORECASE)
_APPOSITION = re.compile(
    rf"^,\s+(?:a|an|the)\s+(?:[\w'-]+\s+){{0,3}}?(?P<noun>{'|'.join(sorted(PLACE_NOUNS))})\b",
    re.IGNORECASE,
)
_POSSESSOR = re.compile(r"(?P<word>[A-Z][\w.]*(?:\s+[A-Z][\w.]*){0,2})(?:'s|’s|')\s+$")
_ADJECTIVE = re.compile(r"(?P<word>[A-Z][a-z]+)\s+$")
#: Nouns for a person a name before them only describes ("the Bedford star").
DESCRIBED_PERSON_NOUNS = word_list("described-person-nouns")
_THE_BEFORE = re.compile(r"\bthe\s+$", re.IGNORECASE)
_NOUN_AFTER = re.compile(r"^\s+(?P<noun>[a-z]+)\b")
#: Words after a name that say what it is but make no name with it: "the Old Trafford club"
#: is the club that plays there, not a club called so ("the X team", "the X side" likewise).
NOT_NAME_HEADS = word_list("types-not-after-name")


@dataclass(frozen=True, slots=True)
class Cues:
    """What the surrounding words say about one mention."""

    qualifier: str | None = None  # ISO code of a possessor/demonym before it ("Russia's")
    qualifier_text: str | None = None  # that word as written
    head: str | None = None  # a unit or works word after it ("regiment", "steel works")
    head_kind: EntityKind | None = None  # the class that head implies
    locative: bool = False  # "in X", "city of X", "X region", or an apposition
    apposition: bool = False  # "X, a Donbas town", "X, the peninsula …"
    describes: bool = False  # "the X star": X describes someone else (a place, a club)
    speaks: bool = False  # "X said", "X has announced": X is a speaker
    employs: bool = False  # "a researcher at X": X employs someone
    listed: bool = False  # an item of a team sheet ("Replacements: Cairns, Lloyd, …")


def mention_cues(text: str, begin: int, end: int) -> Cues:
    """The cues around ``text[begin:end]``.

    >>> mention_cues("the Azov regiment fought", 4, 8).head
    'regiment'
    >>> mention_cues("fighting in Rubizhne, a Donbas town", 12, 20).locative
    True
    """
    before, after = text[max(0, begin - 60) : begin], text[end : end + 60]
    qualifier, qualifier_text = _qualifier(before)
    head, head_kind = _head(after)
    if head and head.lower() in VERB_LIKE_TAILS and not _DETERMINED.search(before):
        head, head_kind = None, None  # "Microsoft works with …", "Nadal plant…"
    apposition = bool(_APPOSITION.match(after))
    locative = _is_locative(before) or apposition or is_dateline(before, after) or (
        head_kind is EntityKind.PLACE and head is not None and head.lower() in PLACE_HEADS
    )
    noun = _NOUN_AFTER.match(after)
    describes = bool(_THE_BEFORE.search(before) and noun
                     and noun.group("noun") in DESCRIBED_PERSON_NOUNS)
    return Cues(qualifier, qualifier_text, head, head_kind, locative, apposition, describes,
                speaks(text, end), _employs(before), in_team_sheet(text, begin, end))


#: An occupation right before "at" or "with" a name: "a researcher at X", "an analyst with X".
_OCCUPATION_AT = re.compile(r"\b(?P<noun>[a-z]+)\s+(?:at|with)\s+(?:the\s+)?$")


def _employs(before: str) -> bool:
    """Whether the name is where someone works, by an occupation right before it ("a
    researcher at X", "chief economist with X").

    >>> _employs("said Ben Lee, a researcher at "), _employs("a protest at ")
    (True, False)
    """
    if not before[-1:].isspace() or not _AT_ENDING.search(before.rstrip()[-4:]):
        return False  # what the pattern needs, tested first: it is tried at every place
    found = _OCCUPATION_AT.search(before)
    return found is not None and found.group("noun") in OCCUPATIONS


#: How the text before a name ends where ``_OCCUPATION_AT`` may match ("at", "with", "the").
_AT_ENDING = re.compile(r"(?:at|with|the)$")
_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")


def _qualifier(before: str) -> tuple[str | None, str | None]:
    # both patterns end in white space, and a possessive or a lowercase letter before it:
    # tested first, as each pattern is tried at every place of ``before``
    if not before[-1:].isspace():
        return None, None
    last = before.rstrip()[-1:]
    possessor = _POSSESSOR.search(before) if last in ("'", "s") else None
    if possessor:
        code = country_code_of(possessor.group("word"))
        return (code, possessor.group().strip()) if code else (None, None)
    adjective = _ADJECTIVE.search(before) if last in _LOWER else None
    if adjective and (code := demonym_code(adjective.group("word"))):
        return code, adjective.group("word")
    return None, None


def _head(after: str) -> tuple[str | None, EntityKind | None]:
    match = _AFTER_HEAD.match(after)
    if not match:
        return None, None
    head = " ".join(match.group("head").split())
    word = head.lower()
    if word in UNIT_HEADS:
        return head, EntityKind.ORGANIZATION
    if word in PLACE_HEADS or tuple(word.split()) in FACILITY_TAILS:
        return head, EntityKind.PLACE
    return None, None


def _is_locative(before: str) -> bool:
    if not before[-1:].isspace():
        return False  # "pro-Kremlin": no word of its own before the name
    words = before.lower().split()[-2:]
    if not words:
        return False
    word, noun = words[-1], words[0] if len(words) == 2 else ""
    return word in LOCATIVES or (word == "of" and noun in PLACE_OF)
