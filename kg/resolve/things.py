"""Things that are no person, organisation or place of their own — films, programmes, games,
recordings, books, laws, awards, competitions, festivals, grounds — and bands, which the
tagger often takes for people: their class from the text's own words.

The small model has no class for them, so it calls a film an organisation ("Aviator"), a band a
person ("Massive Attack") and a bill a place. The words around a mention say what it is
(``types-things.toml``, general English news vocabulary):

* the name's last word: "Mental Capacity **Bill**", "Boston **Marathon**", "Turner **Prize**";
  a weak one only with a word after it that shows it: "Champions **League** final" (the Arab
  League is no competition);
* the whole name, for a few common nouns that name an occasion: "the **Budget**", "the
  **Queen's Speech**";
* a descriptor right before it, or the head of an apposition: "horror **film** Nightmare On Elm
  Street", "Bristol **band** Massive Attack", "**won an** Oscar", "X, the hit **single**,";
* a word right after it: "Oscar **nominations**", "Oscar**-winning**";
* the noun of a device, program, technology or format after it, past at most two lowercase
  words: "the Cabir **virus**", "Bluetooth short-range radio **technology**", "the PSP
  handheld **console**" — not one it only modifies ("the X phone **maker**").

``kg.resolve.types`` counts these cues over all the mentions of an entity.

>>> thing_cues("He starred in horror film Nightmare On Elm Street.", 26, 49)
['Movie']
>>> thing_cues("The Mental Capacity Bill was passed.", 4, 24)
['Legislation']
>>> thing_cues("She has three Oscar nominations.", 14, 19)
['Award']
>>> thing_cues("It was in the Budget after the election.", 14, 20)
['Event']
>>> thing_cues("The new Cabir mobile phone virus spreads.", 8, 13)
['Product']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from kg.heuristics import declare, fired, steps
from kg.lexicon import first_holders, table, word_list
from kg.model import EntityKind

#: The coarse class a thing keeps, where it has one: a band is an organisation, a competition,
#: festival or ceremony an event, a ground a place. Works, laws and awards have none of the
#: four (``kg.rdf.terms.classes_of`` writes schema:CreativeWork or kg:Award instead).
KIND_OF_THING = {
    "MusicGroup": EntityKind.ORGANIZATION,
    "SportsEvent": EntityKind.EVENT,
    "Festival": EntityKind.EVENT,
    "Event": EntityKind.EVENT,
    "StadiumOrArena": EntityKind.PLACE,
    "GovernmentOrganization": EntityKind.ORGANIZATION,
}

#: A word of a name or a descriptor (letters, dots, apostrophes, hyphens); kg.resolve.types too.
WORD = re.compile(r"[A-Za-z][A-Za-z.'-]*")
_NEXT = re.compile(r"(?:['’]s?)?(-[a-z]+\b|\s+[a-z][a-z-]*)")
#: A possessive or a capitalised word right after a name: the name is a modifier ("won a
#: Children's Bafta", "won a Labour Party seat").
_MODIFIER_AFTER = re.compile(r"['’]|\s+[A-Z]")
_LEADING_THE = re.compile(r"^the\s+")
_SPEECH = re.compile(r"(?:['’]s?)? (?:has |have |had |also )?([a-z]+)")
_APPOSITION = re.compile(r",\s+(?:a|an|the)\s+([^,;:.()]{1,60}?)\s*(?=[,;:.()]|\s(?:of|in|by|"
                         r"from|that|which|who|with|for|and|about)\s)")


@cache
def _cues() -> dict[str, dict[str, frozenset[str]]]:
    """Class → cue kind ("name", "weak", "before", "after") → its words."""
    return {cls: {cue: frozenset(words) for cue, words in entry.items()}
            for cls, entry in table("types-things").items()}


@cache
def _first_classes(cue: str) -> dict[str, str]:
    """Each ``cue`` word → the first class (in ``types-things.toml``'s order) whose ``cue``
    words hold it: ``_lookup``'s answer, made once instead of trying every class per word."""
    return first_holders((cls, entry.get(cue, ())) for cls, entry in _cues().items())


@cache
def _unnamed_after() -> dict[str, str]:
    """Each "after" word of a class with no "weak" words → the first such class (``_after``)."""
    return first_holders((cls, entry.get("after", ())) for cls, entry in _cues().items()
                         if "weak" not in entry)


def _lookup(phrases: Iterable[str], cue: str) -> str | None:
    """The first class whose ``cue`` words hold one of ``phrases`` (tried in order)."""
    first = _first_classes(cue)
    for phrase in phrases:
        if phrase in first:
            return first[phrase]
    return None


def _tails(words: list[str]) -> list[str]:
    """The last two words and the last word (longest first)."""
    return [" ".join(words[-2:]), words[-1]] if len(words) > 1 else words[-1:]


def _name_cue(text: str, begin: int, end: int, following: str) -> str | None:
    """The class the name's own last word gives (see the module docstring)."""
    whole = _LEADING_THE.sub("", " ".join(text[begin:end].replace("’", "'").split()).lower())
    if (cls := _lookup((whole,), "whole")) is not None:
        return cls  # "the Budget", "the Queen's Speech": the whole name says it
    written = WORD.findall(text[begin:end])
    if "of" in written:  # "Treaty of Rome", "Festival of Britain": the head comes before "of"
        written = written[:written.index("of")]
    if len(written) < 2 and "of" not in WORD.findall(text[begin:end]):
        return None  # "Bill", "Cup" alone are no such names
    tails = _tails([w.rstrip(".").lower() for w in written])
    if (cls := _lookup(tails, "name")) is not None:
        return cls
    cls = _lookup(tails, "weak")
    return cls if cls is not None and following in _cues()[cls].get("after", ()) else None


def _descriptor_before(text: str, begin: int, end: int, following: str) -> str | None:
    """A descriptor right before the name ("horror film X", "the band X", "won an X"); a "the"
    that is the work's own first word ("movie The Aviator") is skipped. "won a X" counts only
    where X is no modifier of a noun after it ("won a Labour seat")."""
    words = text[max(0, begin - 60):begin].split()
    if words and words[-1] in {"The", "the"}:
        words = words[:-1]
    tail: list[str] = []
    for word in reversed(words[-2:]):
        if not (WORD.fullmatch(word) and word[0].islower()):
            break
        tail.insert(0, word.lower())
    if tail and tail[-1] in {"a", "an"} and (
            following.isalpha() and following not in word_list("types-stop-words")
            or _MODIFIER_AFTER.match(text, end)):
        return None
    return _lookup(_tails(tail), "before") if tail else None


def _apposition(text: str, end: int) -> str | None:
    """The head of ", a/an/the … NOUN," right after the name ("X, the hit single,")."""
    match = _APPOSITION.match(text, end, end + 90)
    if match is None:
        return None
    words = [w.lower() for w in WORD.findall(match.group(1))]
    return _lookup(_tails(words), "before") if words else None


def _after(following: str) -> str | None:
    """A class whose "after" words hold the word right after the name and that needs no name
    word for it ("Oscar nominations"; a competition's "final" counts only with its name)."""
    return _unnamed_after().get(following)


#: Up to four lowercase words right after a name (the kind noun and the words before it).
_KIND_RUN = re.compile(r"(?:\s+[a-z][a-z-]*){1,4}")
#: How many lowercase words may come between a name and its kind noun ("mobile phone virus").
KIND_GAP = 2


def _kind_after(text: str, begin: int, end: int) -> str | None:
    """The class of a kind noun after the name and at most ``KIND_GAP`` lowercase words ("the
    Cabir mobile phone virus"); an acronym in brackets reads on past its bracket ("PlayStation
    Portable (PSP) games console"). ``None`` where the noun modifies one after it ("the X
    phone maker", ``types-compound-blockers``) or a stop word comes first."""
    if text.startswith(")", end) and text[begin - 1:begin] == "(":
        end += 1
    match = _KIND_RUN.match(text, end)
    if match is None:
        return None
    run = match.group().split()
    stops = word_list("types-stop-words")
    if any(w in stops for w in run):
        run = run[:next(i for i, w in enumerate(run) if w in stops)]
    for i in range(min(len(run), KIND_GAP + 1)):
        for size in (2, 1):
            phrase = " ".join(run[i:i + size]) if i + size <= len(run) else ""
            if not phrase or (cls := _lookup((phrase,), "kind")) is None:
                continue
            following = run[i + size] if i + size < len(run) else None
            return None if following in word_list("types-compound-blockers") else cls
    return None


def thing_cues(text: str, begin: int, end: int) -> list[str]:
    """The thing classes the words in and around ``text[begin:end]`` give it: those of the
    thing cues that are on (``THING_CUES``), in the registry's order."""
    match = _NEXT.match(text, end)
    following = match.group(1).strip().lower() if match else ""
    found = []
    for step in steps("resolve.class"):
        if step.id in THING_CUES and (cls := step(text, begin, end, following)) is not None:
            fired(step.id)
            found.append(cls)
    return list(dict.fromkeys(found))


_CUE = "a thing class of the mention (``types-things.toml``)"
#: The thing cues, run by ``thing_cues`` (their votes are counted by ``kg.resolve.types``).
THING_CUES = frozenset(h.id for h in (
    declare("resolve.class.thing-name", "resolve.class",
            fn=lambda text, begin, end, following: _name_cue(text, begin, end, following),
            reads="the name's whole text, or its last word or two (before an \"of\")",
            writes=_CUE,
            description="A name that is a thing's by its own words: \"the Budget\", \"… "
                        "Bill\", \"Treaty of …\", \"… Festival\" (a weak word only with its "
                        "word after: \"… Cup final\").",
            example="Unions made their case before the Budget on Wednesday."),
    declare("resolve.class.thing-before", "resolve.class",
            fn=lambda text, begin, end, following: _descriptor_before(text, begin, end,
                                                                       following),
            reads="the lowercase words right before the name", writes=_CUE,
            description="A descriptor before the name: \"horror film X\", \"the band X\", "
                        "\"won an X\" (not where X modifies a noun after it).",
            example="He starred in the horror film Nightmare On Elm Street."),
    declare("resolve.class.thing-apposition", "resolve.class",
            fn=lambda text, begin, end, following: _apposition(text, end),
            reads="an apposition right after the name", writes=_CUE,
            description="The head of \", a/an/the … NOUN,\" after the name: \"X, the hit "
                        "single, …\".",
            example="Bohemian Rhapsody, the hit single, topped the charts again."),
    declare("resolve.class.thing-after", "resolve.class",
            fn=lambda text, begin, end, following: _after(following),
            reads="the word right after the name", writes=_CUE,
            description="A word after the name that needs no name word: \"Oscar "
                        "nominations\", \"Oscar-winning\".",
            example="The film earned three Oscar nominations on Tuesday."),
    declare("resolve.class.kind-noun-after", "resolve.class",
            fn=lambda text, begin, end, following: _kind_after(text, begin, end),
            reads="the lowercase words right after the name (a bracket closing an acronym "
                  "skipped)", writes=_CUE,
            description="The noun of a device, program, technology or format after the name, "
                        "past at most two words: \"the Cabir virus\", \"Bluetooth short-range "
                        "radio technology\", \"the PSP handheld console\" (not \"the X phone "
                        "maker\").",
            example="The Cabir virus spreads between handsets."),
))


def speaks(text: str, end: int) -> bool:
    """Whether a speech verb follows the name ("Apple said", "X has announced"): the name is
    a speaker, so no product or work.

    >>> speaks("Apple said on Monday", 5), speaks("Apple laptops", 5)
    (True, False)
    """
    match = _SPEECH.match(text, end)
    if match is None:
        return False
    word, verbs = match.group(1), word_list("speech-verbs")
    stems = {word[:-1]} if word[-1:] in "sd" else set()  # "says", "announced"
    if word.endswith("ed"):
        stems.add(word[:-2])  # "added"
    return word in word_list("speech-verbs-irregular") or not stems.isdisjoint(verbs)
